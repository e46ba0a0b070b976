"""The dialogue, headless: questions and defaults, several answers at once, corrections, commands,
language switching, what-if, /why, /save, domain questions and bad input — with a stand-in
recommender (tests/conversation/conftest.py) so that each test is fast. The real engine runs in
test_conv_scripted.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.consultation import Consultation as Conversation
from tests.conversation.conftest import FakeConsultation, fake_recommend
from advisor.conversation.dialogue import REPLY_KINDS, Reply
from advisor.i18n import SIMPLIFIED_ONLY, TRADITIONAL_ONLY, t


def _conv(locale: str = "en", **options) -> Conversation:
    """A consultation in memory with the stand-in recommender (tests/conversation/test_conv_scripted.py runs
    the real one)."""
    conv = FakeConsultation(locale, persist=False, **options)
    conv.start()
    return conv


def _texts(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


def _walk_to_summary(conv: Conversation) -> None:
    for _ in range(12):
        if conv.stage == "confirm":
            return
        conv.handle("")
    raise AssertionError("never reached the summary")


# ---------------------------------------------------------------------------- greeting and defaults

@pytest.mark.parametrize("locale", ["en", "zh-Hans", "zh-Hant"])
def test_greeting_and_first_question_in_locale(locale: str) -> None:
    replies = Conversation(locale, persist=False).start()
    assert replies[0].text == t("conv.greeting", locale)
    assert replies[-1].kind == "question"
    assert replies[-1].text.startswith(t("conv.q.task", locale, default="").split("{")[0][:6])
    assert len(replies[-1].choices) == 5


def test_every_question_takes_its_default_on_empty_answers() -> None:
    conv = _conv("en")
    asked = []
    for _ in range(10):
        asked.append(conv.pending)
        conv.handle("")
        if conv.stage == "confirm":
            break
    # buy or rent is open, so the last question is how much the hardware will be used (issue #16)
    assert asked == ["task", "model", "data", "precision", "deadline", "budget", "facility", "horizon"]
    p = conv.profile
    assert p.task == "lora"
    assert p.model == "llama-3-8b" and p.params == 8_030_261_248  # Meta's config.json count
    # advisor.core.planner.default_data: 50,000 examples packed into 2,048-token sequences (memory.DEFAULT_SEQ), 1 epoch
    assert (p.samples, p.seq_len, p.tokens, p.epochs) == (50_000, 2048, 102_400_000, 1.0)
    assert p.precision == "bf16-mixed"
    assert p.deadline_days is None and p.budget_usd is None and p.acquisition == "either"
    assert (p.deployment, p.cooling, p.rack_kw) == ("either", "air", None)
    assert (p.horizon_days, p.utilization, p.runs) == (None, None, None)  # the default: this run only


@pytest.mark.parametrize("word", ["ok", "OK", "default", "skip", "默认", "預設", "跳过", "跳過", "好的", "不知道", "  "])
def test_default_words(word: str) -> None:
    conv = _conv("en")
    conv.handle(word)
    assert conv.profile.task == "lora" and conv.pending == "model"


def test_serving_asks_load_not_data_and_no_deadline() -> None:
    conv = _conv("en")
    conv.handle("inference")
    conv.handle("Llama 3 8B")
    assert conv.pending == "serving"
    conv.handle("")
    assert (conv.profile.concurrency, conv.profile.context_tokens) == (32, 8192)  # Llama 3 8B max_context 8192
    conv.handle("")  # precision
    assert conv.pending == "budget"  # no deadline question for serving


def test_pretrain_default_data_follows_the_model_size() -> None:
    conv = _conv("en")
    conv.handle("pretrain")
    conv.handle("1B")
    conv.handle("")
    # Chinchilla (Hoffmann et al. 2022): about 20 training tokens per parameter.
    assert conv.profile.tokens == 20_000_000_000
    conv.handle("not 1B, 3B")
    assert conv.profile.params == 3_000_000_000
    assert conv.profile.tokens == 60_000_000_000  # a defaulted answer follows the change


def test_partial_serving_answer_takes_the_rest_from_the_default() -> None:
    conv = _conv("en")
    conv.handle("serve Mistral 7B")
    conv.handle("500 concurrent users")
    assert conv.profile.concurrency == 500 and conv.profile.context_tokens == 8192


def test_bare_numbers_are_read_in_the_context_of_the_question() -> None:
    conv = _conv("en")
    conv.handle("lora")
    conv.handle("70")                       # model: 70 -> 70B
    assert conv.profile.params == 70_000_000_000 and conv.profile.model is None
    conv.handle("2B")                       # data: tokens
    assert conv.profile.tokens == 2_000_000_000
    conv.handle("")                         # precision
    conv.handle("14")                       # deadline: days
    assert conv.profile.deadline_days == 14
    conv.handle("30000")                    # budget: USD
    assert (conv.profile.budget_usd, conv.profile.budget_currency) == (30_000, "USD")
    conv.handle("12")                       # facility: rack kW
    assert conv.profile.rack_kw == 12 and conv.profile.deployment == "on-prem"
    assert conv.pending == "horizon"        # a room, and buying or renting both open: how long it is used
    conv.handle("3")                        # horizon: years
    assert conv.profile.horizon_days == 3 * 365
    assert conv.stage == "confirm"


def test_numbered_choice_answers_the_task_question() -> None:
    conv = _conv("en")
    conv.handle("5")
    assert conv.profile.task == "inference"


def test_choices_parse_as_answers() -> None:
    for locale in ("en", "zh-Hans", "zh-Hant"):
        for choice, task in zip(Conversation(locale, persist=False).start()[-1].choices,
                                ("pretrain", "finetune", "lora", "qlora", "inference")):
            conv = _conv(locale)
            conv.handle(choice)
            assert conv.profile.task == task, (locale, choice)


# ---------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("locale,text,key", [
    ("en", "banana", "conv.problem.task_unknown"),
    ("zh-Hans", "香蕉", "conv.problem.task_unknown"),
    ("zh-Hant", "香蕉蘋果", "conv.problem.task_unknown"),
])
def test_nonsense_gets_a_localized_reask(locale: str, text: str, key: str) -> None:
    conv = _conv(locale)
    replies = conv.handle(text)
    assert replies[0].kind == "error" and replies[0].text == t(key, conv.locale)
    assert replies[-1].kind == "question" and conv.pending == "task"
    assert conv.profile.task is None


@pytest.mark.parametrize("text,locale", [("budget -5000", "en"), ("预算负 5000 美元", "zh-Hans"), ("-100", "en"),
                                         ("預算 -3 萬美元", "zh-Hant")])
def test_negative_budget_is_refused(text: str, locale: str) -> None:
    conv = _conv(locale)
    for _ in range(5):  # task, model, data, precision, deadline take their defaults
        conv.handle("")
    assert conv.pending == "budget"
    replies = conv.handle(text)
    assert replies[0].kind == "error"
    assert replies[0].text == t("conv.problem.budget_positive", conv.locale)
    assert conv.pending == "budget" and conv.profile.budget_usd is None


def test_unknown_model_is_reasked() -> None:
    conv = _conv("en")
    conv.handle("lora")
    replies = conv.handle("Zorblax Ultra")
    assert replies[0].kind == "error"
    assert "Zorblax Ultra" in replies[0].text
    assert conv.pending == "model" and conv.profile.params is None


def test_missing_config_file_is_reported_in_the_users_language(tmp_path: Path) -> None:
    conv = _conv("zh-Hans")
    conv.handle("LoRA 微调")
    replies = conv.handle(f"模型配置在 {tmp_path}/nope/config.json")
    assert replies[0].kind == "error"
    assert "无法使用这个配置文件" in replies[0].text and "nope" in replies[0].text
    assert conv.pending == "model"


def test_an_exception_inside_a_turn_becomes_a_localized_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import advisor.conversation.dialogue as flow

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")

    conv = _conv("zh-Hant")
    monkeypatch.setattr(flow, "extract_detailed", boom)
    replies = conv.handle("隨便說點什麼吧")
    assert [r.kind for r in replies] == ["error"]
    assert replies[0].text.startswith("處理這則訊息時發生錯誤")
    monkeypatch.undo()
    conv.handle("LoRA")
    assert conv.profile.task == "lora"  # the conversation goes on


def test_engine_failure_keeps_the_answers() -> None:
    def fail(profile):
        raise ValueError("no candidates")

    conv = _conv("en", recommender=fail)
    _walk_to_summary(conv)
    replies = conv.handle("yes")
    assert replies[0].kind == "error" and "no candidates" in replies[0].text
    assert conv.recommendation is None and conv.stage == "confirm" and conv.profile.task == "lora"


# ---------------------------------------------------------------------------- summary and corrections

def test_summary_then_corrections_change_only_that_field() -> None:
    conv = _conv("zh-Hans")
    conv.handle("我想用 LoRA 微调 Mistral 7B，预算三万美元，机房单个机柜 12 千瓦，风冷")
    _walk_to_summary(conv)
    before = conv.profile.model_dump()
    replies = conv.handle("预算改成 5 万美元")
    after = conv.profile.model_dump()
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"budget_usd", "budget_amount"}
    assert after["budget_usd"] == 50_000
    assert replies[-1].kind == "summary" and "50,000" in replies[-1].text

    replies = conv.handle("改用 QLoRA")
    assert conv.profile.task == "qlora" and conv.profile.budget_usd == 50_000
    replies = conv.handle("不是 7B，是 70B")
    assert conv.profile.params == 70_000_000_000 and conv.profile.model is None
    assert conv.stage == "confirm"


def test_english_corrections() -> None:
    conv = _conv("en")
    conv.handle("LoRA on Llama 3 8B")
    _walk_to_summary(conv)
    conv.handle("not 8B, 70B")
    # The same family at the new size: Llama 3 70B, 70,553,706,496 parameters (Meta's config.json).
    assert (conv.profile.model, conv.profile.params) == ("llama-3-70b", 70_553_706_496)
    conv.handle("budget 50k")
    assert conv.profile.budget_usd == 50_000 and conv.profile.task == "lora"


def test_confirm_recommends_and_shows_the_report() -> None:
    conv = _conv("en")
    _walk_to_summary(conv)
    replies = conv.handle("yes")
    assert conv.recommendation is not None and conv.stage == "advise"
    assert any(r.kind == "recommendation" and "RTX 4090" in r.text for r in replies)
    assert all(r.kind in REPLY_KINDS for r in replies)


def test_correction_after_the_recommendation_reruns_it() -> None:
    conv = _conv("en")
    conv.handle("LoRA on Mistral 7B, budget $30k")
    _walk_to_summary(conv)
    conv.handle("yes")
    replies = conv.handle("budget 200k")
    assert conv.profile.budget_usd == 200_000
    assert conv.recommendation.recommendations[0].gpu == "h100-sxm"
    text = _texts(replies)
    assert "RTX 4090" in text and "H100" in text  # before and after


def test_changing_task_to_serving_asks_the_new_question() -> None:
    conv = _conv("en")
    _walk_to_summary(conv)
    conv.handle("yes")
    replies = conv.handle("actually we want to serve it")
    assert conv.profile.task == "inference"
    assert conv.pending == "serving" and replies[-1].kind == "question"


# ---------------------------------------------------------------------------- after the recommendation

def test_what_if_shows_the_change_and_keeps_the_answers() -> None:
    conv = _conv("zh-Hans")
    conv.handle("LoRA 微调 Mistral 7B，预算 8 万美元")
    _walk_to_summary(conv)
    conv.handle("对")
    replies = conv.handle("如果预算翻倍呢？")
    text = _texts(replies)
    assert "160,000" in text                       # the doubled budget
    assert "RTX 4090" in text and "H100" in text   # before and after
    assert t("conv.whatif.changed", "zh-Hans") in text
    assert conv.profile.budget_usd == 80_000       # a what-if changes nothing yet
    conv.handle("就这样")
    assert conv.profile.budget_usd == 160_000
    assert conv.recommendation.recommendations[0].gpu == "h100-sxm"


@pytest.mark.parametrize(("first", "switch", "locale"), [
    ("想在自己机房部署 Llama 3.1 70B，给研发部 50 人用，上下文 8k，预算 150 万", "换成租的吧", "zh-Hans"),
    ("serve Llama 3.1 8B to 20 people from our own server room, budget $60k", "let's rent instead", "en"),
])
def test_switching_to_renting_after_a_room_of_ones_own_rents_in_the_cloud(first: str, switch: str, locale: str) -> None:
    # A decision ("换成租的吧": let's switch to renting), not a hypothetical; and renting cannot go with the room the
    # first message named — kept, nothing could pass both (issue #17: "no recommendation and an empty ruled-out list")
    conv = _conv(locale)
    conv.handle(first)
    _walk_to_summary(conv)
    assert conv.profile.deployment == "on-prem"
    conv.handle("对" if locale != "en" else "yes")
    conv.handle(switch)
    assert conv.whatif is None
    assert conv.profile.acquisition == "rent" and conv.profile.deployment == "cloud"
    assert conv.recommendation is not None and conv.recommendation.recommendations


def test_a_switch_asked_as_a_question_stays_a_what_if() -> None:
    conv = _conv("zh-Hans")
    conv.handle("LoRA 微调 Mistral 7B，预算 8 万美元")
    _walk_to_summary(conv)
    conv.handle("对")
    conv.handle("换成租的呢？")
    assert conv.profile.acquisition != "rent" and conv.whatif is not None and conv.whatif[0].acquisition == "rent"


def test_what_if_with_a_new_task() -> None:
    conv = _conv("en")
    conv.handle("full fine-tune Llama 3 8B, budget $30k")
    _walk_to_summary(conv)
    conv.handle("yes")
    replies = conv.handle("what if we use QLoRA?")
    assert t("conv.whatif.same", "en") in _texts(replies)
    assert conv.profile.task == "finetune"
    assert conv.whatif is not None and conv.whatif[0].task == "qlora"


def test_why_explains_numbers_and_findings() -> None:
    conv = _conv("en")
    assert _texts(conv.handle("/why")) == t("conv.why.none", "en")
    _walk_to_summary(conv)
    conv.handle("yes")
    text = _texts(conv.handle("/why"))
    # The stand-in's finding, worded from knowledge/findings.yaml (memory.tight-headroom), no rule id shown.
    assert "leaves only 3.4 GiB free" in text and "memory.tight-headroom" not in text
    assert "weights 14.0 GiB" in text
    assert _texts(conv.handle("why?")) == text
    assert "只剩 3.4 GiB 空余" in _texts(conv.handle("/为什么"))


def test_why_not_a_gpu_answers_from_the_recommendation() -> None:
    conv = _conv("en")
    _walk_to_summary(conv)
    conv.handle("yes")
    # The stand-in recommends one RTX 4090 and knows nothing of the H100.
    ranked = conv.handle("为什么不推荐 4090？")[0].text
    # "是第 N 推荐" was ungrammatical (shared/reference/zh-review.md §6, row 26)
    assert ranked.startswith("**NVIDIA GeForce RTX 4090** 排在推荐的第 1 位")
    assert conv.handle("why not the H100?")[0].text.startswith("**NVIDIA H100 SXM5 80GB** was not considered")


def test_why_not_n_gpus_asks_the_examiner_at_that_count() -> None:
    # Issue #16: "why not 8 × H100?" compares the H100 at the count the user named with the top pick.
    asked = []

    def examiner(profile, gpu, count):
        asked.append((gpu, count))
        top = fake_recommend(profile).recommendations[0]
        return top.model_copy(update={"gpu": "h100-sxm", "gpu_name": "NVIDIA H100 SXM5 80GB", "count": 8,
                                      "buy_usd": 320_000.0, "cost_usd": 320_000.0})

    conv = FakeConsultation("en", persist=False, examiner=examiner)
    conv.start()
    _walk_to_summary(conv)
    conv.handle("yes")
    text = conv.handle("why not 8 H100s?")[0].text
    assert asked == [("h100-sxm", 8)]
    assert "**8 × NVIDIA H100 SXM5 80GB**" in text and "1 × NVIDIA GeForce RTX 4090" in text
    row = next(line for line in text.splitlines() if line.startswith("| Buy |"))
    assert "$320,000" in row  # its own number beside the top pick's, in one row
    assert _texts(conv.handle("為什麼不用 8 張 H100？")).count("8 × NVIDIA H100 SXM5 80GB") >= 1
    assert asked[-1] == ("h100-sxm", 8)


def test_domain_question_keeps_the_place() -> None:
    conv = _conv("zh-Hans")
    conv.handle("LoRA")
    assert conv.pending == "model"
    replies = conv.handle("什么是显存碎片？")
    assert replies[0].kind == "answer" and "碎片" in replies[0].text
    assert replies[-1].kind == "question" and conv.pending == "model"
    assert conv.profile.params is None


def test_domain_question_in_english_after_the_recommendation() -> None:
    conv = _conv("en")
    _walk_to_summary(conv)
    conv.handle("yes")
    replies = conv.handle("why ECC?")
    assert replies[0].kind == "answer" and "ECC" in replies[0].text
    assert conv.recommendation is not None


# ---------------------------------------------------------------------------- commands

def test_back_undoes_the_last_answer() -> None:
    conv = _conv("en")
    assert conv.handle("/back")[0].text == t("conv.back.none", "en")
    conv.handle("qlora")
    conv.handle("Mistral 7B")
    assert conv.pending == "data"
    conv.handle("/back")
    assert conv.pending == "model" and conv.profile.params is None and conv.profile.task == "qlora"
    conv.handle("/返回")
    assert conv.pending == "task" and conv.profile.task is None


def test_reset_starts_again() -> None:
    conv = _conv("en")
    conv.handle("qlora on Mistral 7B")
    replies = conv.handle("/reset")
    assert replies[0].text == t("conv.reset.done", "en")
    assert conv.profile.task is None and conv.pending == "task" and not conv.history


@pytest.mark.parametrize("command,locale", [("/lang zh-Hant", "zh-Hant"), ("/lang zh-Hans", "zh-Hans"),
                                            ("/语言 繁體", "zh-Hant"), ("/語言 en", "en"), ("/lang zh-TW", "zh-Hant")])
def test_lang_command(command: str, locale: str) -> None:
    conv = _conv("en")
    replies = conv.handle(command)
    assert conv.locale == locale and conv.profile.language == locale
    assert replies[0].text == t("conv.lang.set", locale)
    assert replies[-1].kind == "question" and replies[-1].text == t("conv.q.task", locale, default=t("conv.task.lora", locale))


def test_lang_command_without_a_language() -> None:
    conv = _conv("en")
    assert conv.handle("/lang klingon")[0].text == t("conv.lang.usage", "en")
    assert conv.locale == "en"


@pytest.mark.parametrize("command,locale", [("/help", "en"), ("/帮助", "zh-Hans"), ("/幫助", "zh-Hant")])
def test_help(command: str, locale: str) -> None:
    conv = _conv(locale)
    assert conv.handle(command)[0].text == t("conv.help", locale)


def test_unknown_command() -> None:
    conv = _conv("en")
    replies = conv.handle("/frobnicate now")
    assert replies[0].kind == "error" and "/frobnicate" in replies[0].text


def test_save_report(tmp_path: Path) -> None:
    conv = _conv("zh-Hant")
    assert conv.handle("/save")[0].text == t("conv.save.usage", "zh-Hant")
    assert conv.handle(f"/save {tmp_path}/r.md")[0].text == t("conv.save.none", "zh-Hant")
    _walk_to_summary(conv)
    conv.handle("對")
    replies = conv.handle(f"/儲存 {tmp_path}/report.md")
    assert replies[0].kind == "saved"
    assert str(tmp_path / "report.md") in replies[0].text and replies[0].text.startswith("報告已儲存至")
    assert (tmp_path / "report.md").read_text(encoding="utf-8").strip()
    replies = conv.handle(f"/save {tmp_path}/report.json")
    assert replies[0].kind == "saved" and (tmp_path / "report.json").exists()


def test_save_to_an_unwritable_place_keeps_the_recommendation(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    conv = _conv("en")
    _walk_to_summary(conv)
    conv.handle("yes")
    rec = conv.recommendation
    replies = conv.handle(f"/save {blocker}/sub/report.md")
    assert replies[0].kind == "error" and replies[0].text.startswith("Could not save the report")
    assert conv.recommendation is rec
    assert conv.handle(f"/save {tmp_path}/ok.html")[0].kind == "saved"


# ---------------------------------------------------------------------------- language follows the user

def test_replies_follow_the_language_of_each_message() -> None:
    conv = _conv("en")
    replies = conv.handle("我想做 LoRA 微调")
    assert conv.locale == "zh-Hans" and replies[-1].text == t("conv.q.model", "zh-Hans", default="Llama 3 8B")
    replies = conv.handle("我們用 Llama 3 8B")
    assert conv.locale == "zh-Hant"
    assert not (set(replies[-1].text) & SIMPLIFIED_ONLY)
    conv.handle("ok")  # names, units and "ok" do not switch a Chinese conversation to English
    assert conv.locale == "zh-Hant"
    conv.handle("2B tokens, bf16")
    assert conv.locale == "zh-Hant"
    conv.handle("no deadline, thanks")
    assert conv.locale == "en"


def test_auto_language_can_be_turned_off() -> None:
    conv = Conversation("en", persist=False, auto_language=False)
    conv.start()
    conv.handle("我想做 LoRA 微调")
    assert conv.locale == "en" and conv.profile.task == "lora"


def test_environment_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("GPU_ADVISOR_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    assert Conversation(persist=False).locale == "zh-Hant"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert Conversation(persist=False).locale == "zh-Hans"
    monkeypatch.setenv("LANG", "C")
    assert Conversation(persist=False).locale == "en"


# ---------------------------------------------------------------------------- the words themselves

_MAINLAND_TERMS = ("数据", "數據", "默认", "默認", "支持", "軟件", "内存", "內存", "集群", "優化", "带宽", "帶寬", "服務器",
                   "视频", "信息", "程序")
_TAIWAN_TERMS = ("資料", "預設", "支援", "軟體", "記憶體", "叢集", "最佳化", "頻寬", "伺服器", "推論")


def test_conversation_strings_use_each_regions_words() -> None:
    from advisor.knowledge import knowledge

    ui = {k: v for k, v in knowledge().ui.items() if k.startswith("conv.")}
    assert len(ui) > 100
    for key, text in ui.items():
        hans, hant = text.get("zh-Hans"), text.get("zh-Hant")
        assert not (set(hant) & SIMPLIFIED_ONLY), (key, set(hant) & SIMPLIFIED_ONLY)
        assert not (set(hans) & TRADITIONAL_ONLY), (key, set(hans) & TRADITIONAL_ONLY)
        for term in _MAINLAND_TERMS:
            assert term not in hant, (key, term)
        for term in _TAIWAN_TERMS:
            assert term not in hans, (key, term)
        # The same placeholders in every language.
        names = [set(re.findall(r"\{(\w+)\}", s)) for s in (text.en, hans, hant)]
        assert names[0] == names[1] == names[2], key


def test_buy_or_rent_alone_answers_the_budget_question() -> None:
    conv = _conv("zh-Hans")
    for _ in range(5):
        conv.handle("")
    assert conv.pending == "budget"
    conv.handle("租用")
    assert conv.profile.acquisition == "rent" and conv.profile.budget_usd is None
    assert conv.pending == "facility"


def test_a_very_long_message_is_read_in_part_and_said_so() -> None:
    conv = _conv("en")
    replies = conv.handle("QLoRA " + "blah " * 2000)
    assert replies[0].text == t("conv.problem.too_long", "en", limit=4000)
    assert conv.profile.task == "qlora"


def test_no_budget_and_users_answer_their_questions() -> None:
    conv = _conv("en")
    conv.handle("serve Mistral 7B")
    assert conv.pending == "serving"
    conv.handle("100 users")
    assert conv.profile.concurrency == 100 and conv.pending == "precision"
    conv.handle("")
    conv.handle("We don't have a budget yet")
    assert conv.profile.budget_usd is None and conv.pending == "facility"


@pytest.mark.parametrize("locale", ["en", "zh-Hans", "zh-Hant"])
def test_every_offered_choice_answers_its_question(locale: str) -> None:
    expected = {
        "precision": [("precision", "bf16-mixed"), ("precision", "fp16-mixed"), ("precision", "fp8-mixed"),
                      ("precision", "fp32")],
        "budget": [("acquisition", "buy"), ("acquisition", "rent"), ("acquisition", "either")],
        "facility": [("deployment", "cloud"), ("deployment", "on-prem"), ("deployment", "either")],
    }
    for key, outcomes in expected.items():
        probe = _conv(locale)
        while probe.pending != key:
            probe.handle("")
        choices = probe.prompt()[0].choices
        assert len(choices) == len(outcomes), (key, choices)
        for choice, (field, value) in zip(choices, outcomes):
            conv = _conv(locale)
            while conv.pending != key:
                conv.handle("")
            conv.handle(choice)
            assert getattr(conv.profile, field) == value, (locale, key, choice)
            assert conv.pending != key, (locale, key, choice)


def test_images_counted_with_a_measure_word_answer_the_data_question() -> None:
    conv = _conv("zh-Hans")
    conv.handle("从零预训练 ResNet-50")
    assert conv.pending == "data"
    conv.handle("120 万张，90 轮")
    # ImageNet-1k has 1,281,167 training images; here the user's round figure is kept as given.
    assert (conv.profile.samples, conv.profile.epochs, conv.profile.tokens) == (1_200_000, 90.0, None)


def test_save_path_is_taken_exactly_as_typed(tmp_path: Path) -> None:
    conv = _conv("zh-Hans")
    _walk_to_summary(conv)
    conv.handle("对")
    target = tmp_path / "报告（最终版）.md"  # full-width brackets stay as typed
    replies = conv.handle(f"/保存 {target}")
    assert replies[0].kind == "saved" and target.exists()


def test_summary_step_answers_no_and_nonsense() -> None:
    conv = _conv("zh-Hant")
    _walk_to_summary(conv)
    assert conv.handle("不對")[0].text == t("conv.confirm.what", "zh-Hant")
    replies = conv.handle("嗚啦啦")
    assert replies[0].kind == "error" and replies[0].text == t("conv.reask", "zh-Hant")
    assert replies[-1].kind == "summary" and conv.stage == "confirm"


def test_echoed_user_text_is_inert_markdown() -> None:
    conv = _conv("en")
    conv.handle("lora")
    replies = conv.handle("**Evil** [link](http://x) <b>model</b>")
    assert replies[0].kind == "error"
    assert "\\*\\*Evil\\*\\*" in replies[0].text and "<b>" not in replies[0].text


def test_a_language_chosen_by_name_sticks_and_back_keeps_it() -> None:
    # Issue #17: after /lang zh-Hant a message typed in Simplified is answered in Traditional; "/back" is
    # not an English message.
    conv = _conv("en")
    conv.handle("/lang zh-Hant")
    replies = conv.handle("我想微调 llama 3 8b")
    assert conv.locale == "zh-Hant" and "已記下" in _texts(replies)
    conv.handle("/back")
    assert conv.locale == "zh-Hant"


def test_why_not_before_a_recommendation_promises_the_comparison() -> None:
    conv = _conv("zh-Hans")
    replies = conv.handle("为什么不推荐 4090？")
    assert "NVIDIA GeForce RTX 4090" in replies[0].text and "对比" in replies[0].text
    assert replies[-1].kind == "question" and conv.pending == "task"  # the question is still open


def test_back_says_what_it_undid() -> None:
    conv = _conv("zh-Hant")
    conv.handle("LoRA 微調 Llama 3 8B，預算 30 萬，兩週內")
    # one answer at a time, the last question's first; each step says what it undid
    text = _texts(conv.handle("/back"))
    assert "撤銷了" in text and "預算" in text and "期限" not in text
    assert conv.profile.budget_usd is None and conv.profile.deadline_days == 14
    text = _texts(conv.handle("/back"))
    assert "期限" in text and "預算" not in text
    assert conv.profile.deadline_days is None and conv.profile.model == "llama-3-8b" and conv.profile.task == "lora"
    _texts(conv.handle("/back"))
    assert conv.profile.model is None and conv.profile.task == "lora"


@pytest.mark.parametrize(("text", "count"), [("為什麼不用 8 張？", 8), ("why not 16 GPUs?", 16), ("为什么不用3张卡", 3)])
def test_why_not_a_bare_count_asks_about_the_top_picks_gpu(text: str, count: int) -> None:
    from advisor.conversation import dialogue as D
    from advisor.models import Profile

    state = D.State(locale="zh-Hant", profile=Profile(language="zh-Hant", task="lora", model="llama-3-8b"),
                    stage="advise", pending=None, started=True, auto_language=False)
    intent = D.handle(state, text).intent
    assert isinstance(intent, D.WhyNot) and intent.gpu is None and intent.count == count


@pytest.mark.parametrize("locale", ["en", "zh-Hans", "zh-Hant"])
def test_a_service_is_asked_for_weight_formats_not_a_training_regime(locale: str) -> None:
    from advisor.conversation import dialogue as D
    from advisor.models import Profile

    state = D.State(locale=locale, profile=Profile(language=locale, task="inference", model="qwen2.5-32b"),
                    stage="collect", pending="precision", started=True, auto_language=False,
                    answered=frozenset({"task", "model", "serving"}))
    question = D.handle(state, "xyzzy").replies[-1]  # not an answer: the question is asked again
    assert question.kind == "question" and "FP32" not in question.text and "INT4" in question.text
    # each quick reply, sent back, records that weight format
    for choice, dtype in zip(question.choices, ("bf16", "fp8", "int4"), strict=True):
        after = D.handle(state, choice).state.profile
        assert after.weights_dtype == dtype and after.task == "inference", (choice, after.weights_dtype)
