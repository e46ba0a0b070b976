"""Readings added after the twenty-third blind table (issue #17: people already mid-project), each tested on phrasings
other than the table's.

Every expectation is worked out by hand from what the sentence says: dates count from Tuesday 2026-12-01 (next Friday
is 12-11, 10 days; the end of the month 30 days), 16k is 16,384 tokens, a quote or a bill is money spent, not a budget."""

from __future__ import annotations

import pytest

from advisor.conversation.parsers import extract


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")


def _read(text: str, locale: str = "en") -> dict:
    return extract(text, locale)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "locale", "epochs", "days"), [
    ("each epoch runs about 11 hours on our two A6000s and we need 4 epochs by next Friday", "en", 4.0, 10.0),
    ("one epoch took 26 hrs last time, we have to do 2 epochs before the end of the month", "en", 2.0, 30.0),
    ("现在一个epoch要跑18个小时，一共要训3个epoch，月底前要交", "zh-Hans", 3.0, 30.0),
    ("目前 1 個 epoch 大概要 2 天，總共要跑 5 個 epoch，下週五前", "zh-Hant", 5.0, 10.0),
])
def test_the_time_one_epoch_takes_is_neither_the_epochs_nor_the_deadline(text: str, locale: str, epochs: float,
                                                                          days: float) -> None:
    got = _read(text, locale)
    assert got["epochs"] == epochs
    assert got["deadline_days"] == days


@pytest.mark.parametrize(("text", "locale"), [
    ("an epoch takes about 9 hours on the 4090", "en"),
    ("每个epoch要6小时，太慢了", "zh-Hans"),
])
def test_an_epoch_timed_alone_sets_no_deadline(text: str, locale: str) -> None:
    assert "deadline_days" not in _read(text, locale)


@pytest.mark.parametrize(("text", "locale"), [
    ("our Azure bill was $34k in October and we want to own the hardware instead", "en"),
    ("the integrator quoted us $185,000 for a 4x H100 box. Does that look right?", "en"),
    ("在火山引擎上租卡，上个月账单三万多块，想评估自己买", "zh-Hans"),
    ("廠商報價一台 4 顆 L40S 的主機 NT$280 萬，這價格合理嗎？", "zh-Hant"),
    ("在雲端一個月大概燒掉 NT$25 萬，想改成自己買", "zh-Hant"),
])
def test_money_spent_or_quoted_is_not_a_budget_nor_its_month_a_deadline(text: str, locale: str) -> None:
    got = _read(text, locale)
    assert "budget_amount" not in got
    assert "deadline_days" not in got


@pytest.mark.parametrize(("text", "locale", "amount"), [
    ("the vendor quoted $410k for two nodes, but our budget is $300k", "en", 300000.0),
    ("报价一台 120 万，预算只有 80 万", "zh-Hans", 800000.0),
])
def test_a_budget_beside_a_quote_is_still_the_budget(text: str, locale: str, amount: float) -> None:
    assert _read(text, locale)["budget_amount"] == amount


@pytest.mark.parametrize(("text", "locale"), [("预算已经用掉一半了", "zh-Hans"), ("預算只剩一半", "zh-Hant")])
def test_half_of_a_budget_is_not_one_yuan(text: str, locale: str) -> None:
    assert "budget_amount" not in _read(text, locale)


@pytest.mark.parametrize(("text", "locale", "model"), [
    ("we run mistral 7b on an A10 today; the team wants to switch to qwen2.5-32b", "en", "qwen2.5-32b"),
    ("our chatbot is llama 3.1 8b right now, management wants llama 3.1 70b instead", "en", "llama-3.1-70b"),
    ("planning to move from llama 3.1 8b to qwen2.5-14b next quarter", "en", "qwen2.5-14b"),
    ("目前两张4090跑qwen2.5-14b，下个月要升级到qwen2.5-72b", "zh-Hans", "qwen2.5-72b"),
    ("現在用 L40S 跑 llama-3.1-8b，老闆想改用 qwen2.5-32b", "zh-Hant", "qwen2.5-32b"),
])
def test_the_model_they_move_to_is_the_one_sized(text: str, locale: str, model: str) -> None:
    assert _read(text, locale)["model"] == model


def test_two_models_compared_keep_the_first() -> None:
    assert _read("compare mistral 7b to qwen2.5-14b for our use", "en")["model"] == "mistral-7b"


@pytest.mark.parametrize(("text", "locale", "seq"), [
    ("training runs fine at seq len 1024 but increasing it to 4096 OOMs on the first step", "en", 4096),
    ("max_seq_length 4096 is ok, trying to push it to 32k crashes", "en", 32768),
    ("序列长度 2048 能跑，想把长度提高到 8k 就爆显存", "zh-Hans", 8192),
    ("cutoff_len 1024 沒問題，長度調到 4096 就 OOM", "zh-Hant", 4096),
])
def test_a_longer_sequence_they_want_replaces_the_one_that_works(text: str, locale: str, seq: int) -> None:
    assert _read(text, locale)["seq_len"] == seq


def test_a_count_of_gpus_after_a_sequence_length_is_no_length() -> None:
    assert _read("seq len 512 for now, going to 64 GPUs next month", "en")["seq_len"] == 512


@pytest.mark.parametrize(("text", "locale", "out_of_reach", "wanted"), [
    ("we can't get H100s here, so it's H20 or nothing", "en", "h100-sxm", "h20"),
    ("A800 已经禁运了，只能考虑 H20", "zh-Hans", "a800-80gb", "h20"),
    ("國內買不到 H200，想看 L40S 夠不夠", "zh-Hant", "h200", "l40s"),
])
def test_a_gpu_out_of_reach_is_not_a_gpu_they_want(text: str, locale: str, out_of_reach: str, wanted: str) -> None:
    got = _read(text, locale)
    assert out_of_reach not in got.get("preferred_gpus", ())
    assert wanted in got.get("preferred_gpus", ())
    assert "owned_gpus" not in got


def _owned(got: dict) -> list[tuple[str, int]]:
    return sorted((o["gpu"], o["count"]) for o in got.get("owned_gpus", ()))


@pytest.mark.parametrize(("text", "locale", "tokens"), [
    ("we're pretraining at about 95k tokens/s per node and the run is 40B tokens", "en", 40_000_000_000),
    ("目前训练吞吐每卡 2500 token/s，总共要训 300B token", "zh-Hans", 300_000_000_000),
])
def test_a_training_speed_is_not_the_data_nor_a_service(text: str, locale: str, tokens: int) -> None:
    got = _read(text, locale)
    assert got["tokens"] == tokens
    assert got.get("task") != "inference"
    assert "min_tokens_per_s_per_user" not in got


def test_a_service_speed_target_beside_training_is_still_a_service() -> None:
    assert _read("every user must see 25 tok/s even while the nodes are busy with training")["task"] == "inference"


@pytest.mark.parametrize(("text", "locale", "gpu"), [
    ("代理商给我们报了一台8卡A800的整机，问这个配置行不行", "zh-Hans", "a800-80gb"),
    ("經銷商報了 4 張 L40S 的工作站給我們", "zh-Hant", "l40s"),
    ("Dell offered us 8x H200 in an XE9680, is that the right size?", "en", "h200"),
])
def test_hardware_offered_or_quoted_is_not_owned(text: str, locale: str, gpu: str) -> None:
    got = _read(text, locale)
    assert "owned_gpus" not in got
    assert gpu in got.get("preferred_gpus", ())


@pytest.mark.parametrize(("text", "locale", "family", "count"), [
    ("实验室8张V100，不对，有两张坏了，能用的是6张", "zh-Hans", "v100", 6),
    ("手邊 4 張 3090（不對，有一張拿去別的專案了，現在能用的是 3 張）", "zh-Hant", "rtx-3090", 3),
])
def test_a_corrected_count_is_the_one_stated_as_what_it_is(text: str, locale: str, family: str, count: int) -> None:
    [(gpu, n)] = _owned(_read(text, locale))
    assert gpu.startswith(family) and n == count


@pytest.mark.parametrize(("text", "locale", "owned"), [
    ("3090x4 跑 qwen2.5-32b 的 lora，每步都很慢", "zh-Hans", [("rtx-3090", 4)]),
    ("serving mistral 7b on a single L4 right now", "en", [("l4", 1)]),
    ("目前单卡4090跑qwen2.5-14b推理，高峰同时20人", "zh-Hans", [("rtx-4090", 1)]),
])
def test_cards_they_run_on_now_are_counted(text: str, locale: str, owned: list) -> None:
    assert _owned(_read(text, locale)) == owned


@pytest.mark.parametrize(("text", "locale", "key", "value"), [
    ("right now each user gets ~9 tok/s; we need at least 25 tok/s per user", "en", "min_tokens_per_s_per_user", 25.0),
    ("现在每人只有 8 tok/s，希望提高到每人 30 tok/s", "zh-Hans", "min_tokens_per_s_per_user", 30.0),
    ("首字延遲現在常常 6 秒，目標是首字延遲 1 秒以內", "zh-Hant", "max_ttft_s", 1.0),
])
def test_the_service_target_is_the_speed_wanted_not_the_one_measured(text: str, locale: str, key: str,
                                                                      value: float) -> None:
    assert _read(text, locale)[key] == value


@pytest.mark.parametrize(("text", "amount"), [
    ("I've got about four grand for this, what should I build?", 4000.0),
    ("a couple grand max, used cards are fine", 2000.0),
])
def test_grand_in_words_is_thousands_of_dollars(text: str, amount: float) -> None:
    got = _read(text)
    assert (got["budget_amount"], got["budget_currency"]) == (amount, "USD")


@pytest.mark.parametrize(("text", "params"), [
    ("pretraining a 125M-param GPT on 10B tokens", 125_000_000),
    ("a ~760M-parameter decoder from scratch", 760_000_000),
])
def test_a_hyphenated_parameter_count_is_read(text: str, params: int) -> None:
    assert _read(text)["params"] == params


@pytest.mark.parametrize(("text", "locale"), [
    ("机房没法上水冷，只有空调", "zh-Hans"),
    ("辦公室沒辦法弄水冷", "zh-Hant"),
    ("液冷搞不了", "zh-Hans"),
])
def test_liquid_cooling_they_cannot_have_leaves_air(text: str, locale: str) -> None:
    assert _read(text, locale)["cooling"] == "air"


@pytest.mark.parametrize(("text", "locale", "rps"), [
    ("上线后查询每秒大概 20 次", "zh-Hans", 20.0),
    ("API 請求每秒約 12 次", "zh-Hant", 12.0),
])
def test_queries_per_second_said_after_the_query_word(text: str, locale: str, rps: float) -> None:
    assert _read(text, locale)["requests_per_second"] == rps


@pytest.mark.parametrize(("text", "locale"), [
    ("闲鱼上有台二手 8 卡 3090 服务器，卖家开价 6 万，值不值？", "zh-Hans"),
    ("a used DGX A100 on eBay, the asking price is $45k — is that fair?", "en"),
])
def test_an_asking_price_is_not_a_budget(text: str, locale: str) -> None:
    assert "budget_amount" not in _read(text, locale)


@pytest.mark.parametrize(("text", "locale", "gpu"), [
    ("4070 Ti 能跑 qwen2.5-7b 的 qlora 吗？我手上只有这张卡", "zh-Hans", "rtx-4070-ti"),
    ("L4 可以推論 llama 3.1 8b 嗎？手邊也只有這張", "zh-Hant", "l4"),
])
def test_the_only_card_at_hand_is_owned(text: str, locale: str, gpu: str) -> None:
    assert _owned(_read(text, locale)) == [(gpu, 1)]


@pytest.mark.parametrize(("text", "locale"), [
    ("想在宿舍放一台 3090 跑 lora", "zh-Hans"),
    ("planning to run a 4090 in my dorm room for QLoRA", "en"),
])
def test_a_dorm_room_is_on_premises(text: str, locale: str) -> None:
    assert _read(text, locale)["deployment"] == "on-prem"


@pytest.mark.parametrize(("text", "locale", "context"), [
    ("尖峰同時 40 人，context 抓 16k", "zh-Hant", 16384),
    ("上下文设成 32k 就行", "zh-Hans", 32768),
    ("上下文長度設 8k", "zh-Hant", 8192),
])
def test_a_context_set_roughly_is_read(text: str, locale: str, context: int) -> None:
    assert _read(text, locale)["context_tokens"] == context


@pytest.mark.parametrize("text", [
    "Plan:\n- the PO must be placed by Dec 18\n- the server goes into our lab's rack\n- we'd use it 4 years",
    "grant money, purchase order by Dec 22\nthe server will serve a small team",
])
def test_a_purchase_date_on_its_own_line_is_no_deadline(text: str) -> None:
    got = _read(text)
    assert "deadline_days" not in got


@pytest.mark.parametrize(("text", "locale", "cap"), [
    ("主機裡一張 3090，主機板還空一個 x16 插槽", "zh-Hant", 2),
    ("机器里有一张4090，还有两个空的PCIe插槽", "zh-Hans", 3),
])
def test_free_slots_said_in_chinese_cap_the_cards(text: str, locale: str, cap: int) -> None:
    assert _read(text, locale)["max_gpus"] == cap


@pytest.mark.parametrize(("text", "locale"), [
    ("拿 macbert 做意图分类，20 万条语料，训 3 轮", "zh-Hans"),
    ("training a roberta sentiment classifier on our reviews, 3 epochs", "en"),
    ("用 BERT 訓練 NER 模型，資料 5 萬筆", "zh-Hant"),
])
def test_a_pretrained_encoder_trained_to_classify_is_a_fine_tune(text: str, locale: str) -> None:
    assert _read(text, locale)["task"] == "finetune"


def test_an_encoder_pretrained_from_scratch_stays_pretraining() -> None:
    assert _read("pretraining a BERT classifier from scratch on our corpus")["task"] == "pretrain"
