"""Readings added after the nineteenth blind table (issue #17), each tested on phrasings other than the table's.

Every expectation is worked out by hand from what the sentence says: dates count from Tuesday 2026-12-01 (Christmas
Eve is 23 days away, Christmas 24), 50 万 is 500,000, a 2-year horizon is 730 days, 80,000 items of 900 tokens are
72 million tokens, three nodes of eight GPUs are 24 GPUs."""

from __future__ import annotations

import pytest

from advisor.conversation.parsers import extract


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")


def _read(text: str, locale: str = "en") -> dict:
    return extract(text, locale)  # type: ignore[arg-type]


def _owned(got: dict) -> list[tuple[str, int]]:
    return sorted((o["gpu"], o["count"]) for o in got.get("owned_gpus", ()))


@pytest.mark.parametrize(("text", "locale", "days"), [
    ("need the adapter trained by Christmas Eve", "en", 23.0),
    ("平安夜之前要把模型训好", "zh-Hans", 23.0),
    ("need it live by Christmas", "en", 24.0),
])
def test_christmas_eve_is_the_24th(text: str, locale: str, days: float) -> None:
    assert _read(text, locale)["deadline_days"] == days


@pytest.mark.parametrize(("text", "locale", "users"), [
    ("客服中心同时在线的客服大概50人", "zh-Hans", 50),
    ("院內大概 25 位護理師會同時使用", "zh-Hant", 25),
    ("高峰同时上线的老师估计80人左右", "zh-Hans", 80),
])
def test_people_named_by_their_job_use_it_at_once(text: str, locale: str, users: int) -> None:
    assert _read(text, locale)["concurrency"] == users


@pytest.mark.parametrize(("text", "locale"), [
    ("Qwen2.5-7B, single stream, 8k context", "en"),
    ("Llama 3.1 8B 单并发，上下文 32k", "zh-Hans"),
])
def test_one_stream_is_one_at_once(text: str, locale: str) -> None:
    assert _read(text, locale)["concurrency"] == 1


def test_a_single_socket_server_is_not_one_stream() -> None:
    assert "concurrency" not in _read("想买一台单路服务器，插四张卡", "zh-Hans")


@pytest.mark.parametrize(("text", "locale", "context"), [
    ("上下文至少 32k", "zh-Hans", 32768),
    ("上下文最好有 8k 以上", "zh-Hant", 8192),
])
def test_a_wished_context_is_the_context(text: str, locale: str, context: int) -> None:
    got = _read(text + "，部署推理", locale)
    assert got["context_tokens"] == context


@pytest.mark.parametrize(("text", "locale", "amount"), [
    ("经费一开始批了20万，后来又加到35万", "zh-Hans", 350000),
    ("預算原本 100 萬，後來改成 150 萬", "zh-Hant", 1500000),
    ("Our budget was $30k but it got bumped up to $42k.", "en", 42000),
    ("系上願意出 40 萬買卡", "zh-Hant", 400000),
])
def test_a_budget_changed_later_and_what_someone_will_pay(text: str, locale: str, amount: float) -> None:
    assert _read(text, locale)["budget_amount"] == amount


def test_yi_in_a_word_is_no_number() -> None:
    assert "budget_amount" not in _read("预算一直没定下来", "zh-Hans")


@pytest.mark.parametrize(("text", "locale"), [
    ("病歷絕對不能出院，要地端", "zh-Hant"),
    ("设计图纸不能出厂，只能本地跑", "zh-Hans"),
    ("Patient records must not be sent to any public cloud.", "en"),
])
def test_data_that_cannot_leave_is_on_premises(text: str, locale: str) -> None:
    assert _read(text, locale)["deployment"] == "on-prem"


def test_a_model_with_a_size_in_its_name_before_at_once_is_no_head_count() -> None:
    got = _read("my wife and I want to chat with qwen2.5-32b at the same time")
    assert got["model"] == "qwen2.5-32b" and got["task"] == "inference" and got.get("concurrency") != 32e9


def test_both_means_either_only_of_the_two_ways() -> None:
    assert _read("we both use it from home on my desktop")["deployment"] == "on-prem"
    assert _read("cloud or on-prem, both are fine")["deployment"] == "either"


@pytest.mark.parametrize(("text", "owned"), [
    ("We run three 8x A100 servers in the basement", [("a100-80gb-sxm", 24)]),
    ("The lab has 2x 4xL40S boxes", [("l40s", 8)]),
])
def test_machines_of_n_gpus_count_every_gpu(text: str, owned: list) -> None:
    assert _owned(_read(text)) == owned


def test_a_corrected_count_replaces_the_same_gpu_not_the_last_named() -> None:
    got = _read("We have 6 A100 80GB and 4 RTX 4090 - wait, 5 A100, one is out for repair.")
    assert _owned(got) == [("a100-80gb-sxm", 5), ("rtx-4090", 4)]


def test_a_gpu_named_again_after_wait_corrects_nothing() -> None:
    got = _read("We own 4x H100 PCIe. Training in bf16 - wait, does H100 do fp8? then fp8.")
    assert _owned(got) == [("h100-pcie", 4)]


def test_a_sorry_that_corrects_nothing_does_not_stop_a_later_correction() -> None:
    got = _read("Sorry, newbie here, sorry. We want 20 users - scratch that, 35 users, on Llama 3.1 8B.")
    assert got["concurrency"] == 35


def test_a_correction_aside_keeps_what_follows_its_closing_dash() -> None:
    got = _read("We can spend $50k - sorry, $60k since the grant came in - on hardware for QLoRA of Llama 3.1 70B.")
    assert got["budget_amount"] == 60000 and got["task"] == "qlora" and got["acquisition"] == "buy"


@pytest.mark.parametrize(("text", "days"), [
    ("it has to last my 3-year PhD", 1095.0),
    ("the box should last the whole 2-year project", 730.0),
])
def test_a_programme_length_is_the_horizon(text: str, days: float) -> None:
    assert _read("I'm buying a GPU for LoRA; " + text)["horizon_days"] == days


@pytest.mark.parametrize(("text", "locale"), [
    ("每周大概跑三次 LoRA 实验", "zh-Hans"),
    ("一個月大概會跑 5 次微調", "zh-Hant"),
])
def test_runs_per_period_are_no_deadline(text: str, locale: str) -> None:
    assert "deadline_days" not in _read(text, locale)


def test_a_deadline_of_a_month_still_reads() -> None:
    assert _read("一个月内要训完", "zh-Hans")["deadline_days"] == 30.0


def test_kilowatts_written_as_one_character() -> None:
    assert _read("機櫃供電 12 瓩", "zh-Hant")["rack_kw"] == 12.0


@pytest.mark.parametrize("text", [
    "We have 80,000 support tickets averaging 900 tokens each.",
    "80k support letters, avg 900 tokens",
])
def test_items_of_kinds_people_train_on_are_samples(text: str) -> None:
    got = _read("LoRA on Llama 3.1 8B. " + text)
    assert got["samples"] == 80000 and got["tokens"] == 72_000_000


@pytest.mark.parametrize("text", [
    "The equipment budget is $70k for LoRA on Qwen2.5-14B.",
    "We'd spend about $70k on GPUs for LoRA on Qwen2.5-14B.",
])
def test_money_for_equipment_buys(text: str) -> None:
    assert _read(text)["acquisition"] == "buy"


def test_money_per_month_on_gpus_does_not_buy() -> None:
    assert _read("We spend about $4k a month on GPUs serving Llama 3.1 8B.").get("acquisition") != "buy"


@pytest.mark.parametrize(("text", "locale"), [
    ("LoRA experiments on Gemma 2 9B and Qwen2.5 7B", "en"),
    ("想做 Llama 3.1 8B 和 Qwen2.5-7B 的 LoRA", "zh-Hans"),
])
def test_two_models_for_one_task_leave_the_model_to_ask(text: str, locale: str) -> None:
    got = _read(text, locale)
    assert got["task"] == "lora" and "model" not in got


@pytest.mark.parametrize(("text", "locale", "seq_len", "tokens"), [
    # 700 Chinese characters at 1.4 characters a token (Llama 3 / Qwen tokenizers) are 500 tokens
    ("LoRA 微调，3 万条对话，每条 700 字左右", "zh-Hans", 500, 15_000_000),
    # 900 English words at 4/3 tokens a word (OpenAI: a token is about three quarters of a word) are 1,200 tokens
    ("LoRA on 10k essays of about 900 words each", "en", 1200, 12_000_000),
    ("LoRA on 10k samples of about 900 tokens each", "en", 900, 9_000_000),
])
def test_a_length_in_characters_or_words_is_turned_into_tokens(text: str, locale: str, seq_len: int,
                                                               tokens: int) -> None:
    got = _read(text, locale)
    assert (got["seq_len"], got["tokens"]) == (seq_len, tokens)


@pytest.mark.parametrize(("text", "locale"), [
    ("训练数据涉密，不能上云，只能放公司机房", "zh-Hans"),
    ("資料不能上雲，要放在自己機房", "zh-Hant"),
    ("No cloud allowed under our NDA.", "en"),
])
def test_the_cloud_ruled_out_is_remembered(text: str, locale: str) -> None:
    got = _read(text, locale)
    assert got["cloud_refused"] is True and got["deployment"] == "on-prem"


def test_a_room_alone_does_not_rule_the_cloud_out() -> None:
    assert "cloud_refused" not in _read("我们有机房，单机柜 12 千瓦", "zh-Hans")


# ---------------------------------------------------------------- after the twentieth blind table

def test_a_gpu_variant_the_catalogue_lacks_is_no_duration() -> None:
    assert "horizon_days" not in _read("3090 20G 改装版能跑 qwen2.5-14b 推理吗", "zh-Hans")


def test_cards_at_hand_in_taiwan_words_are_owned() -> None:
    assert _owned(_read("手邊有3張3090，想跑 QLoRA", "zh-Hant")) == [("rtx-3090", 3)]


@pytest.mark.parametrize(("text", "locale"), [
    ("桌机已经有一张4090，想再加两张跑 LoRA", "zh-Hans"),
    ("my tower has one RTX A6000; want to add cards for LoRA of qwen2.5-32b", "en"),
])
def test_more_cards_for_the_machine_they_have_are_bought(text: str, locale: str) -> None:
    got = _read(text, locale)
    assert got["acquisition"] == "buy" and got["host_owned"] is True


def test_a_psu_that_will_be_replaced_is_no_limit_the_wall_is() -> None:
    # 110 V x 20 A at the 80 % continuous rule: 1.76 kW (the 1000 W PSU is to be swapped)
    got = _read("现在电源1000W要换掉，家里插座是110V 20A", "zh-Hans")
    assert got["rack_kw"] == pytest.approx(1.76)


@pytest.mark.parametrize(("text", "epochs", "seq_len"), [
    ("qlora mistral 7b on 20k samples (avg ~700 tok), 3 ep", 3.0, 700),
    ("LoRA on 10k convos, avg 1200 toks each, 1 ep", 1.0, 1200),
])
def test_abbreviated_tokens_and_epochs(text: str, epochs: float, seq_len: int) -> None:
    got = _read(text)
    assert (got["epochs"], got["seq_len"]) == (epochs, seq_len)


@pytest.mark.parametrize(("text", "days"), [
    ("can it be done by wed?", 1.0),      # Wednesday 2026-12-02
    ("need results before thu", 2.0),     # Thursday 2026-12-03
    ("by next mon pls", 6.0),             # Monday 2026-12-07
])
def test_weekday_abbreviations_after_a_deadline_word(text: str, days: float) -> None:
    assert _read("LoRA on llama 3.1 8b, " + text)["deadline_days"] == days


def test_a_bare_abbreviation_is_no_weekday() -> None:
    assert "deadline_days" not in _read("the box sat in the sun all day; LoRA on llama 3.1 8b")


@pytest.mark.parametrize(("text", "locale", "amount"), [
    ("採購預算新臺幣伍佰萬元整", "zh-Hant", 5_000_000),
    ("项目预算人民币贰佰捌拾万元", "zh-Hans", 2_800_000),
])
def test_amounts_in_financial_numerals(text: str, locale: str, amount: float) -> None:
    assert _read(text, locale)["budget_amount"] == amount


def test_financial_numeral_characters_in_words_stay_words() -> None:
    got = _read("參數量 7B，參考 RTX 4090，預算 5 萬", "zh-Hant")
    assert got["params"] == 7e9 and got["budget_amount"] == 50000


def test_a_context_length_before_a_budget_word_is_no_money() -> None:
    got = _read("qwen2.5-32b 推論 ctx 16k 預算大概 50萬", "zh-Hant")
    assert got["context_tokens"] == 16384 and got["budget_amount"] == 500000


@pytest.mark.parametrize(("text", "days"), [
    ("最好1.10前训完", 40.0),   # 2027-01-10
    ("12.24之前要上线", 23.0),  # 2026-12-24
])
def test_month_dot_day_before_a_deadline_word(text: str, days: float) -> None:
    assert _read("LoRA 微调 qwen2.5-7b，" + text, "zh-Hans")["deadline_days"] == days


def test_a_version_number_is_no_date() -> None:
    assert "deadline_days" not in _read("用 qwen 2.5 前的版本做 LoRA", "zh-Hans")


def test_owned_gpus_in_racks_with_a_power_cap_are_on_premises() -> None:
    assert _read("我们有2台8卡A800，机柜每柜限电15kW", "zh-Hans")["deployment"] == "on-prem"


@pytest.mark.parametrize(("text", "locale"), [
    ("QLoRA fine-tune Llama 3.1 8B and then serve it to our support team", "en"),
    ("先用LoRA微调Qwen2.5-14B，之后再上线推理给客服用", "zh-Hans"),
])
def test_train_then_serve_leaves_the_task_to_ask(text: str, locale: str) -> None:
    assert "task" not in _read(text, locale)


def test_mainly_serving_with_a_lora_later_is_serving() -> None:
    assert _read("mainly inference of llama 3.1 70b for 20 users, maybe a LoRA later")["task"] == "inference"


@pytest.mark.parametrize(("text", "locale"), [
    ("服务器元旦后才能到货，模型要在1月10日前训完", "zh-Hans"),
    ("the servers arrive next week; the LoRA must be trained by Jan 10", "en"),
])
def test_when_hardware_arrives_is_no_deadline_when_the_job_is_due_is(text: str, locale: str) -> None:
    assert _read(text, locale)["deadline_days"] == 40.0


def test_delivery_and_acceptance_of_a_tender_are_procurement_dates() -> None:
    assert "deadline_days" not in _read("采购 8 卡服务器，要求 2027年2月1日前完成交付、安装及验收", "zh-Hans")


@pytest.mark.parametrize(("text", "locale", "ttft", "context"), [
    ("部署 qwen2.5-32b，上下文不超过16K，首字响应时间≤1.5秒", "zh-Hans", 1.5, 16384),
    ("部署 llama 3.1 70b，上下文最長 32k，首字回應時間 2 秒內", "zh-Hant", 2.0, 32768),
])
def test_service_targets_written_as_limits(text: str, locale: str, ttft: float, context: int) -> None:
    got = _read(text, locale)
    assert (got["max_ttft_s"], got["context_tokens"]) == (ttft, context)


def test_data_not_let_go_to_the_cloud_is_refused_cloud() -> None:
    got = _read("legal won't allow our data to go to the cloud; it will sit in our closet rack")
    assert got["deployment"] == "on-prem" and got["cloud_refused"] is True


@pytest.mark.parametrize(("text", "days"), [
    ("The expected service life is four (4) years.", 1460.0),
    ("Useful life of 3 years.", 1095.0),
])
def test_a_service_life_is_the_horizon(text: str, days: float) -> None:
    assert _read("We will buy a GPU server for inference. " + text)["horizon_days"] == days


def test_a_rental_for_an_hour_asked_about_is_no_deadline() -> None:
    got = _read("is my 12gb card enough for a flux lora or should i just rent something on vast.ai for an hour")
    assert "deadline_days" not in got


def test_asking_whether_to_buy_anything_decides_nothing() -> None:
    assert "acquisition" not in _read("We have 2x L40S in the office. Do we need to buy anything to serve qwen2.5-32b?")


def test_eight_cards_per_node_said_in_words() -> None:
    assert _owned(_read("The lab owns three nodes of eight A100 80GB each.")) == [("a100-80gb-sxm", 24)]


# ---------------------------------------------------------------- after the twenty-first blind table

@pytest.mark.parametrize("text", [
    "Full fine-tune of Llama 3.1 8B on 50k samples, or should I fall back to LoRA?",
    "We want a full fine-tune of Mistral 7B; we can settle for LoRA if it must be.",
])
def test_a_fallback_method_is_not_the_task(text: str) -> None:
    assert _read(text)["task"] == "finetune"


def test_rather_buy_some_cards_than_rent() -> None:
    assert _read("I'd rather buy two RTX 6000 Ada than rent, for LoRA of qwen2.5-14b")["acquisition"] == "buy"


def test_money_for_cloud_gpus_rents() -> None:
    got = _read("We can spend about $3,000 on cloud GPUs for a LoRA of Llama 3.1 8B.")
    assert got["acquisition"] == "rent" and got["budget_amount"] == 3000


def test_machines_of_n_cards_written_before_the_gpu() -> None:
    assert _owned(_read("实验室有 3 台 8 卡的 A800，做全参微调", "zh-Hans")) == [("a800-80gb", 24)]


@pytest.mark.parametrize(("text", "locale"), [
    ("双十一前的促销高峰每秒大约 80 个请求，部署 qwen2.5-7b", "zh-Hans"),
    ("聖誕節旺季尖峰每秒 30 個請求，推論 Llama 3.1 8B", "zh-Hant"),
])
def test_a_peak_season_is_no_deadline(text: str, locale: str) -> None:
    assert "deadline_days" not in _read(text, locale)


@pytest.mark.parametrize(("text", "locale"), [
    ("每天跑批量推理，一天大概 5000 万 token", "zh-Hans"),
    ("批次推論，一天大約處理 3 萬個請求", "zh-Hant"),
])
def test_a_daily_volume_is_no_deadline(text: str, locale: str) -> None:
    assert "deadline_days" not in _read(text, locale)


# ---------------------------------------------------------------- from the seventeenth blind table (again)

@pytest.mark.parametrize(("text", "locale", "days"), [
    ("The conference deadline is Jan 22, so the model has to be trained two weeks before that.", "en", 38.0),
    ("1月22号要交报告，最好提前3天训完", "zh-Hans", 49.0),
])
def test_a_deadline_set_before_the_date_just_said(text: str, locale: str, days: float) -> None:
    assert _read(text, locale)["deadline_days"] == days


def test_a_correction_from_a_card_the_catalogue_lacks_to_one_it_has() -> None:
    assert _owned(_read("机房有三台服务器，每台8张L20……不对，是8张L40S", "zh-Hans")) == [("l40s", 24)]


def test_what_follows_an_if_we_do_is_a_fallback() -> None:
    got = _read("We own 4x A100 80GB. Can they serve Llama 3.1 70B to 50 users? If not, we'd rent more on Lambda.")
    assert got.get("acquisition") != "rent"
    got = _read("Do we need more GPUs for this? If we do, we'd rent them rather than buy.")
    assert got.get("acquisition") != "rent"


def test_a_support_term_is_no_horizon() -> None:
    got = _read("預算 500 萬（含五年保固），地端推論 Llama 3.1 70B", "zh-Hant")
    assert "horizon_days" not in got and got["budget_amount"] == 5_000_000


def test_a_card_to_buy_or_renting_instead_is_either() -> None:
    assert _read("家里电脑是3060，想升级4090还是干脆租卡跑 LoRA？", "zh-Hans")["acquisition"] == "either"


def test_would_buying_more_asks() -> None:
    assert "acquisition" not in _read("We own 4x L40S. Would buying four more roughly halve the time?")


# ---------------------------------------------------------------- after the twenty-second blind table

def test_cents_a_kwh_and_a_couple_of_years() -> None:
    got = _read("I pay 22 cents a kWh and the box would run for the next couple of years")
    assert got["electricity_usd_per_kwh"] == pytest.approx(0.22) and got["horizon_days"] == 730


def test_hours_a_day_with_words_between() -> None:
    assert _read("每天晚上大概跑 6 小時推論", "zh-Hant")["utilization"] == pytest.approx(0.25)


def test_people_at_about_once_in_chinese() -> None:
    assert _read("部署 Gemma 3 12B，大概 15 人左右同時用", "zh-Hant")["concurrency"] == 15


def test_a_range_of_people_who_use_it_at_the_same_time() -> None:
    assert _read("Serving Qwen2.5 14B; 8-10 use it at the same time.")["concurrency"] == 10


@pytest.mark.parametrize(("text", "locale"), [
    ("Our data is confidential, so cloud is out. LoRA on Llama 3.1 8B.", "en"),
    ("别给我推荐云，数据不能出公司，做 Qwen2.5-7B 的 LoRA", "zh-Hans"),
])
def test_the_cloud_ruled_out_in_other_words(text: str, locale: str) -> None:
    got = _read(text, locale)
    assert got["deployment"] == "on-prem" and got["cloud_refused"] is True


def test_no_time_to_buy_so_rent() -> None:
    assert _read("下周要出结果，来不及买卡了，先租卡跑 LoRA", "zh-Hans")["acquisition"] == "rent"


def test_renting_when_the_owned_cards_fall_short_is_a_fallback() -> None:
    got = _read("我们有 16 张 A800 在自己机房，训 7B，不够再去火山引擎租", "zh-Hans")
    assert got.get("acquisition") != "rent" and got["deployment"] == "on-prem"


@pytest.mark.parametrize("text", [
    "Budget is $40k. What should we buy for LoRA of Qwen2.5-32B?",
    "It has to be hardware, the grant cannot pay for cloud. QLoRA of Llama 3.1 70B.",
    "The purchase order must go out this month; LoRA of Mistral 7B.",
    "$30k for new hardware, LoRA of Mistral 7B.",
])
def test_ways_of_saying_it_is_bought(text: str) -> None:
    assert _read(text)["acquisition"] == "buy"


def test_a_box_placed_in_a_meeting_room_or_rack_is_on_premises() -> None:
    assert _read("機器只能擺在會議室，推論 Llama 3.1 8B", "zh-Hant")["deployment"] == "on-prem"


@pytest.mark.parametrize(("text", "locale", "amount"), [
    ("经费原来是 20 万，领导说砍到 15 万", "zh-Hans", 150_000),
    ("預算 60 萬——抱歉打錯，是 160 萬", "zh-Hant", 1_600_000),
])
def test_a_budget_cut_or_a_typo_corrected(text: str, locale: str, amount: float) -> None:
    assert _read(text, locale)["budget_amount"] == amount


def test_a_size_corrected_later_in_the_sentence() -> None:
    got = _read("LoRA on Qwen2.5 72B. scratch that, we only have the budget for the 14B.")
    assert got["model"] == "qwen2.5-14b"


def test_values_changed_from_one_to_another() -> None:
    got = _read("条件变了：模型从 Qwen2.5-7B 换成 Qwen2.5-32B，数据从 1 万条涨到 5 万条", "zh-Hans")
    assert got["model"] == "qwen2.5-32b" and got["samples"] == 50_000


@pytest.mark.parametrize(("text", "amount"), [
    ("about 5 grand to spend on a GPU for LoRA", 5000),
    ("our budget is half a million for the cluster", 500_000),
])
def test_amounts_said_the_short_way(text: str, amount: float) -> None:
    assert _read(text)["budget_amount"] == amount


def test_my_machine_of_two_cards_in_chinese() -> None:
    assert _owned(_read("还是用我那台三张 3090 的机器", "zh-Hans")) == [("rtx-3090", 3)]


# ---------------------------------------------------------------- someone else's words

@pytest.mark.parametrize(("text", "locale"), [
    ("My friend says a single RTX 3090 is enough for Llama 3.1 8B LoRA. Budget $2k.", "en"),
    ("朋友说一张 3090 就够了，想做 Qwen2.5-7B 的 LoRA", "zh-Hans"),
])
def test_a_card_someone_else_claims_is_enough_is_neither_owned_nor_chosen(text: str, locale: str) -> None:
    got = _read(text, locale)
    assert "owned_gpus" not in got and "rtx-3090" not in got.get("preferred_gpus", ())


@pytest.mark.parametrize(("text", "locale"), [
    ("有廠商報價一台 8 卡 H100 伺服器約新台幣 950 萬元", "zh-Hant"),
    ("The vendor is pushing an 8x H200 HGX system.", "en"),
])
def test_a_vendors_quote_is_an_option_not_owned(text: str, locale: str) -> None:
    got = _read(text, locale)
    assert "owned_gpus" not in got and got["preferred_gpus"]


def test_what_they_have_after_someone_speaks_is_still_theirs() -> None:
    assert _owned(_read("老闆說下個月要 demo，我們手上有兩張 A6000", "zh-Hant")) == [("rtx-a6000", 2)]


@pytest.mark.parametrize(("text", "days"), [
    ("We need the model trained before the investor demo on the 18th.", 17.0),   # 2026-12-18
    ("LoRA has to be done by the 1st, latest.", 31.0),                          # the 1st has passed: 2027-01-01
])
def test_a_day_of_the_month_after_a_deadline_word(text: str, days: float) -> None:
    assert _read(text)["deadline_days"] == days


@pytest.mark.parametrize("text", [
    "Our lab is on the 3rd floor; LoRA of Llama 3.1 8B.",
    "must finish in 4 days because the migration is on the 9th",
])
def test_an_ordinal_day_without_a_deadline_word_is_no_date(text: str) -> None:
    assert _read(text).get("deadline_days") in (None, 4.0)


def test_empty_slots_in_english_and_filling_them() -> None:
    got = _read("My workstation has two RTX 3090 and two empty x16 slots; I'd like to fill those slots for LoRA.")
    assert got["max_gpus"] == 4 and got["acquisition"] == "buy" and got["host_owned"] is True
