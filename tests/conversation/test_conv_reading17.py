"""Readings added in the session of 2026-12-04 (issue #17), from a TUI walk and the twenty-fifth blind table (serving),
each tested on phrasings other than the ones seen.

Every expectation is worked out by hand from what the sentence says: dates count from Tuesday 2026-12-01."""

from __future__ import annotations

import pytest

from advisor.conversation.parsers import extract


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")


def _read(text: str, locale: str = "en") -> dict:
    return extract(text, locale)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "locale"), [
    ("預計用三年，全年無休", "zh-Hant"),  # the TUI walk: "all year without a day off"
    ("服务器要用两年，全年无休地跑推理", "zh-Hans"),
    ("打算用三年，機器不關機", "zh-Hant"),
    ("the box will be always-on for the next 3 years", "en"),
])
def test_hardware_that_never_stops_is_used_around_the_clock(text: str, locale: str) -> None:
    assert _read(text, locale)["utilization"] == 1.0


@pytest.mark.parametrize(("text", "locale", "rps"), [
    ("高峰期每分钟大约 900 个请求", "zh-Hans", 15.0),
    ("尖峰每分鐘大概 300 則訊息進來", "zh-Hant", 5.0),
    ("we see about 1,800 requests per minute at peak", "en", 30.0),
    ("traffic is ~120 req/min", "en", 2.0),
])
def test_a_rate_per_minute_is_requests_per_second_over_sixty(text: str, locale: str, rps: float) -> None:
    assert extract(text, locale, task="inference")["requests_per_second"] == pytest.approx(rps)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "locale", "n"), [
    ("要撐八十個併發", "zh-Hant", 80),  # 併發: the Taiwan variant of 並發
    ("尖峰同時請求大概 60 個", "zh-Hant", 60),
    ("同时请求估计 25 个左右", "zh-Hans", 25),
])
def test_concurrent_requests_said_the_taiwan_way(text: str, locale: str, n: int) -> None:
    assert extract(text, locale, task="inference")["concurrency"] == n  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "locale", "context"), [
    ("上下文：平均4k，最长16k", "zh-Hans", 16_384),
    ("输入一般 1k 左右，最长的会到 8k", "zh-Hans", 8_192),
    ("上下文平均 2k，最長可能到 32k", "zh-Hant", 32_768),
    ("- context: usually ~4k tokens, long reports go up to 32k", "en", 32_768),
])
def test_a_service_is_sized_for_its_longest_request_not_its_average(text: str, locale: str, context: int) -> None:
    assert extract(text, locale, task="inference")["context_tokens"] == context  # type: ignore[arg-type]


def test_a_budget_ceiling_beside_the_context_is_no_context() -> None:
    got = extract("上下文 8k，预算最多 50k 美元", "zh-Hans", task="inference")
    assert got["context_tokens"] == 8192 and got["budget_amount"] == 50_000


def test_tokens_in_and_out_add_up_to_the_context() -> None:
    assert extract("each request is ~4k tokens in, ~1k out", "en", task="inference")["context_tokens"] == 4096 + 1024  # 4k and 1k as models print them


@pytest.mark.parametrize(("text", "locale"), [
    ("想算算两年周期内自己买卡和租云哪个划算", "zh-Hans"),
    ("以兩年來算，自己買會比較省嗎？", "zh-Hant"),
])
def test_a_period_costs_are_compared_over_is_a_horizon(text: str, locale: str) -> None:
    got = extract(text, locale, task="inference")  # type: ignore[arg-type]
    assert got["horizon_days"] == 730 and "deadline_days" not in got


def test_renting_now_and_asking_whether_buying_is_cheaper_weighs_both() -> None:
    got = extract("目前在 AWS 租 A100 跑推論，如果改成自己買伺服器放機房，會比較便宜嗎？", "zh-Hant", task="inference")
    assert got["acquisition"] == "either" and got["deployment"] == "either"


def test_our_own_servers_without_a_room_leave_the_place_open() -> None:
    got = extract("We rent GPUs on RunPod today. Would buying our own servers pay off, or should we keep renting?", "en",
                  task="inference")
    assert got["acquisition"] == "either" and "deployment" not in got


def test_not_wanting_to_own_hardware_is_no_room_of_ones_own() -> None:
    got = extract("Renting is fine, we don't want to own hardware. Fine-tune Mistral 7B on 2B tokens.", "en")
    assert got.get("deployment") != "on-prem" and got["acquisition"] == "rent"


def test_wanting_it_on_a_cloud_is_the_cloud() -> None:
    got = extract("想放在 GCP 上跑，用 L4 還是 T4 比較省？", "zh-Hant", task="inference")
    assert got["deployment"] == "cloud"


def test_an_average_length_with_no_unit_is_in_tokens() -> None:
    got = extract("数据 5 万条，平均长度 2000 左右，cutoff_len 8192", "zh-Hans", task="finetune")
    assert got["samples"] == 50_000 and got["tokens"] == 100_000_000 and got["seq_len"] == 8192


@pytest.mark.parametrize(("text", "locale", "task"), [
    ("想做 LoRA 微調，不想用 QLoRA，怕掉品質", "zh-Hant", "lora"),
    ("LoRA 微调，不考虑 QLoRA", "zh-Hans", "lora"),
    ("we want plain LoRA, we don't want to use QLoRA", "en", "lora"),
    ("full fine-tune, avoiding LoRA entirely", "en", "finetune"),
])
def test_a_method_refused_is_not_the_task(text: str, locale: str, task: str) -> None:
    assert _read(text, locale)["task"] == task


@pytest.mark.parametrize(("text", "locale", "runs"), [
    ("每個月對 Llama 3.1 8B 做一次 LoRA 微調，未來兩年都這樣", "zh-Hant", 24),  # 730 / 30.4
    ("每周训练一次分类模型，用一年", "zh-Hans", 52),
    ("monthly LoRA runs on Mistral 7B over the next 3 years", "en", 36),
    ("每个月跑 2 次微调，用三年", "zh-Hans", 72),
])
def test_a_job_repeated_every_month_or_week_is_that_many_runs_over_the_horizon(text: str, locale: str, runs: int) -> None:
    assert _read(text, locale)["runs"] == runs


def test_a_recurring_bill_of_a_service_is_no_runs() -> None:
    assert "runs" not in extract("推理服务，每个月账单 2 万，用三年", "zh-Hans", task="inference")


@pytest.mark.parametrize(("text", "locale", "total"), [
    ("每個月做一次 LoRA 微調，用兩年，每次預算新台幣 5,000 元", "zh-Hant", 5_000 * 24),
    ("weekly LoRA runs on Mistral 7B for a year, $150 per run", "en", 150 * 52),
])
def test_a_budget_per_run_covers_every_run(text: str, locale: str, total: float) -> None:
    assert _read(text, locale)["budget_amount"] == pytest.approx(total)


def test_a_budget_for_one_job_stays_as_said() -> None:
    assert _read("LoRA on Mistral 7B, budget $150 per run")["budget_amount"] == 150


@pytest.mark.parametrize(("text", "locale", "said"), [
    ("每個月做一次 LoRA 微調 Llama 3.1 8B，用兩年，每次預算新台幣 5,000 元", "zh-Hant", "24 次合計"),
    ("weekly LoRA runs on Mistral 7B for a year, $150 per run", "en", "for all 52 runs"),
])
def test_a_budget_over_several_runs_says_so(text: str, locale: str, said: str) -> None:
    from advisor.conversation import dialogue as D

    state = D.start(D.State.new(locale, auto_language=False)).state  # type: ignore[arg-type]
    replies = " ".join(r.text or "" for r in D.handle(state, text).replies)
    assert said in replies, replies


def test_the_longest_context_is_read_in_a_message_with_a_budget() -> None:
    # Seen at 80 x 24 (zh-Hant): one comma-separated sentence with the budget in it hid '最長 16k' and '上下文平均 3k'
    got = extract("想在內網部署 Qwen2.5-32B AWQ，上下文平均 3k、最長 16k，同時約 40 人，預算 150 萬台幣，機房單櫃 6kW",
                  "zh-Hant", task="inference")
    assert got["context_tokens"] == 16_384 and got["budget_amount"] == 1_500_000


def test_an_average_context_said_alone_is_the_context() -> None:
    assert extract("上下文平均 4k，同時 20 人", "zh-Hant", task="inference")["context_tokens"] == 4096


@pytest.mark.parametrize(("text", "locale", "longest", "average"), [
    ("上下文平均 3k、最長 16k，尖峰每分鐘大約 600 個請求", "zh-Hant", 16_384, 3_000),
    ("平均输入2k、最长32k", "zh-Hans", 32_768, 2_048),
])
def test_the_average_request_is_kept_beside_the_longest(text: str, locale: str, longest: int, average: int) -> None:
    got = extract(text, locale, task="inference")  # type: ignore[arg-type]
    assert got["context_tokens"] == longest and got["avg_context_tokens"] == average


def test_the_summary_says_both_lengths() -> None:
    from advisor.conversation import dialogue as D

    state = D.start(D.State.new("zh-Hant", auto_language=False)).state
    replies = " ".join(r.text or "" for r in D.handle(state, "部署 Qwen2.5-7B，上下文平均 3k、最長 16k，同時 20 人").replies)
    assert "上下文最長 16,384 token（平均 3,000）" in replies, replies


@pytest.mark.parametrize(("text", "samples", "tokens"), [
    ("full fine-tune on 80k samples, avg length maybe 2k tokens, cutoff 4096", 80_000, 160_000_000),
    ("25k labelled Q&A pairs, avg ~1.2k tokens", 25_000, 30_000_000),
    ("about 5k tickets, avg ticket + reply is about 900 tokens", 5_000, 4_500_000),
])
def test_samples_times_an_average_said_loosely(text: str, samples: int, tokens: int) -> None:
    got = extract(text, "en", task="finetune")
    assert got["samples"] == samples and got["tokens"] == tokens


@pytest.mark.parametrize(("text", "locale"), [
    ("has to be done by end of quarter", "en"),  # Q4 of 2026 ends on Dec 31: 30 days from Dec 1
    ("这季度末之前要交", "zh-Hans"),
    ("本季結束前要完成", "zh-Hant"),
])
def test_the_end_of_this_quarter_is_a_date(text: str, locale: str) -> None:
    assert _read(text, locale)["deadline_days"] == 30


def test_an_hour_limit_beats_overnight() -> None:
    assert _read("each run has to finish overnight, 8 hours max")["deadline_days"] == pytest.approx(8 / 24, abs=1e-3)


@pytest.mark.parametrize(("text", "locale", "runs", "horizon"), [
    ("每兩週微調一次，預計做半年", "zh-Hant", 13, 182),
    ("we fine-tune every two weeks for a year", "en", 26, 365),
])
def test_every_second_week_is_how_often_not_a_deadline(text: str, locale: str, runs: int, horizon: int) -> None:
    got = _read(text, locale)
    assert got["runs"] == runs and got["horizon_days"] == horizon and "deadline_days" not in got


def test_adding_a_box_buys() -> None:
    assert _read("We run two servers of 4 A100s and want to add a third box for fine-tuning")["acquisition"] == "buy"


@pytest.mark.parametrize(("text", "locale", "share"), [
    ("我們一年大概只有四成時間在跑訓練，設備會用四年", "zh-Hant", 0.4),
    ("the GPUs would be busy about 35% of the time", "en", 0.35),
])
def test_a_share_of_the_time_is_the_utilization_and_no_deadline(text: str, locale: str, share: float) -> None:
    got = _read(text, locale)
    assert got["utilization"] == share and "deadline_days" not in got


def test_a_total_beside_a_per_run_cap_is_the_budget() -> None:
    assert _read("monthly LoRA for a year, under $300 per run, total $3,000 at most")["budget_amount"] == 3000


@pytest.mark.parametrize(("text", "locale"), [
    ("bge-m3 向量服务，高峰每秒大概 100 个请求，单条不超过 512 token", "zh-Hans"),
    ("embedding API, 50 requests/sec, each input under 512 tokens", "en"),
])
def test_an_embedding_inputs_length_is_its_context(text: str, locale: str) -> None:
    assert extract(text, locale, task="inference")["context_tokens"] == 512  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "gpu"), [
    ("Our engineer priced a rented 8x L40S box and plans ZeRO-3 across the cards. Is that the right plan?", "l40s"),
    ("The IT team proposed two H100 NVL for this. Would that work, or should we rent?", "h100-nvl"),
])
def test_a_colleagues_plan_put_to_the_advisor_is_not_the_writers_choice(text: str, gpu: str) -> None:
    assert gpu not in _read(text).get("preferred_gpus", [])


def test_the_writers_own_plan_stays_chosen() -> None:
    assert "l40s" in _read("We want to rent 8x L40S for this LoRA, budget $5k")["preferred_gpus"]


@pytest.mark.parametrize(("text", "params"), [
    ("想 LoRA 微调 Qwen3-32B，10 万条", 32e9),  # not Qwen2.5-32B through its versionless alias "qwen 32b"
    ("serve qwen3 14b for 20 users", 14e9),
])
def test_a_version_the_catalogue_lacks_keeps_its_size_only(text: str, params: float) -> None:
    got = _read(text, "zh-Hans" if "微调" in text else "en")
    assert "model" not in got and got["params"] == params


def test_a_versionless_name_still_finds_the_catalogue_model() -> None:
    assert _read("微调 qwen 32b", "zh-Hans")["model"] == "qwen2.5-32b"


@pytest.mark.parametrize(("text", "locale"), [
    ("對 Gemma 2 27B 做 LoRA 微調，不想用 QLoRA（擔心品質）", "zh-Hant"),
    ("LoRA on Qwen2.5-14B, bf16 base, no QLoRA (compliance wants the full-precision base)", "en"),
])
def test_qlora_refused_is_recorded_and_is_offered_no_more(text: str, locale: str) -> None:
    from advisor.recommend import recommend
    from advisor.models import Profile

    got = _read(text, locale)
    assert got["task"] == "lora" and got["qlora_refused"] is True
    fields = {k: v for k, v in got.items() if k in Profile.model_fields}
    rec = recommend(Profile.model_validate({**fields, "language": locale, "tokens": 20_000_000}))
    assert "memory.remedy-qlora" not in {f.rule_id for f in rec.findings}
    again = recommend(Profile.model_validate({**fields, "language": locale, "tokens": 20_000_000, "qlora_refused": False}))
    assert "memory.remedy-qlora" in {f.rule_id for f in again.findings}  # the tip the refusal silences


def test_switching_to_qlora_takes_the_refusal_back() -> None:
    from advisor.conversation import dialogue as D

    state = D.start(D.State.new("zh-Hans", auto_language=False)).state
    state = D.handle(state, "LoRA 微调 Llama 3.1 70B，不想用 QLoRA").state
    assert state.profile.qlora_refused
    assert not D.handle(state, "算了，改用 QLoRA 吧").state.profile.qlora_refused
