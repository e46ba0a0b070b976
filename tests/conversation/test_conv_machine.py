"""The computer the GPUs go into: a desktop the writer already has, its power supply, a cap on the card count.

Why: "I have $1,500 to put a GPU in my existing desktop (850 W PSU)" is a different purchase from a new build —
the advisor must not charge a new machine, and must keep the card inside the power supply's rating
(tests/advice/expert_cases.yaml exp-03); "只買一張卡" rules out every two-card plan (exp-14)."""

from __future__ import annotations

import pytest

from advisor.conversation.parsers import extract


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Grad student, $1,500 to put a GPU in my existing desktop (850 W PSU). QLoRA on 8B models.", "en"),
        ("want to upgrade the gpu in my pc to run llama 3.1 8b, budget 900", "en"),
        ("想给家里的电脑换张显卡跑 qwen2.5 14b 推理，电源 750W，预算五千", "zh-Hans"),
        ("我的桌機電供只有 650W，想加一張卡跑 SDXL LoRA，預算 3 萬", "zh-Hant"),
    ],
)
def test_a_card_for_the_computer_they_have_is_bought_for_it(text: str, locale: str) -> None:
    fields = extract(text, locale)  # type: ignore[arg-type]
    assert fields.get("host_owned") is True, fields
    assert fields.get("acquisition") == "buy", fields


@pytest.mark.parametrize(
    ("text", "locale", "kw"),
    [
        ("my existing desktop has an 850 W PSU", "en", 0.85),
        ("1600W PSU, budget 6k", "en", 1.6),
        ("电源 750W，预算五千", "zh-Hans", 0.75),
        ("小弟桌機電供只有 650W", "zh-Hant", 0.65),
        # the circuit allows less than the power supply: the circuit (120 V x 15 A x 0.8 = 1.44 kW)
        ("1600 W PSU on a 120V 15A outlet", "en", 1.44),
    ],
)
def test_a_power_supply_rating_is_what_the_machine_may_draw(text: str, locale: str, kw: float) -> None:
    fields = extract(text, locale)  # type: ignore[arg-type]
    assert fields.get("rack_kw") == pytest.approx(kw, rel=0.01), fields
    assert "budget_amount" not in fields or fields["budget_amount"] not in (kw * 1000, kw * 1000 * 1e4)


def test_watts_in_english_are_never_a_budget() -> None:
    # "450W" is the card's power draw, not 450 万 (the mainland 'w' shorthand belongs to Chinese text)
    fields = extract("4090 is 450W, budget 3k", "en")
    assert fields["budget_amount"] == 3000
    fields = extract("4090 功耗 450w，预算1w", "zh-Hans")
    assert fields["budget_amount"] == 10000


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("building a new rig for llama 70b inference, 1600W PSU, budget 6k", "en"),
        ("打算组一台新主机跑 qwen 14b，预算一万五", "zh-Hans"),
        ("a 4090 and two 3090s in my tower", "en"),  # their own cards: host, but nothing to buy
    ],
)
def test_a_new_build_or_owned_cards_buy_no_card_for_an_old_machine(text: str, locale: str) -> None:
    fields = extract(text, locale)  # type: ignore[arg-type]
    if "owned_gpus" in fields:
        assert fields.get("acquisition") != "buy", fields
    else:
        assert "host_owned" not in fields, fields


@pytest.mark.parametrize(
    ("text", "locale", "n"),
    [
        ("QLoRA on Llama 3.1 70B, budget $10k, only one card", "en", 1),
        ("we can only fit two cards in the case", "en", 2),
        ("at most 4 GPUs in our server, LoRA llama 3 70b", "en", 4),
        ("預算新台幣 30 萬元，只買一張卡，請問買哪張？", "zh-Hant", 1),
        ("机箱最多放两张卡，想跑 qwen2.5 32b", "zh-Hans", 2),
    ],
)
def test_a_cap_on_the_card_count_is_read(text: str, locale: str, n: int) -> None:
    assert extract(text, locale).get("max_gpus") == n  # type: ignore[arg-type]


def test_no_cap_where_none_is_said() -> None:
    assert "max_gpus" not in extract("how many H100 do I need to LoRA llama 3 70b in a day?", "en")
    assert "max_gpus" not in extract("一张4090够不够跑qwen 7b", "zh-Hans")


@pytest.mark.parametrize(
    ("text", "locale", "acquisition"),
    [
        ("预算3w，不考虑租，想买卡做 qwen2.5-14b 的 lora 微调", "zh-Hans", "buy"),
        ("預算 NT$ 120 萬，要買斷，不考慮租。", "zh-Hant", "buy"),
        ("Not renting - our data can't leave the building. QLoRA on yi-34b", "en", "buy"),
        ("三個月內要從頭訓練 resnet-50，不想買硬體。", "zh-Hant", "rent"),
        # "not buying anything yet" is not a refusal: the question stays open
        ("would one rtx 5090 do a full fine-tune of llama 3.2 3b? not buying anything yet", "en", None),
        # their own cards and no purchase: neither buying nor renting is said
        ("手上有4张4090（24G），不想再花钱买卡了，想QLoRA一下Qwen2.5-72B", "zh-Hans", None),
    ],
)
def test_one_way_refused_leaves_the_other(text: str, locale: str, acquisition: str | None) -> None:
    assert extract(text, locale).get("acquisition") == acquisition  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "locale", "seconds"),
    [
        ("serve qwen2.5 7b at like 5 requests/sec, first token under a second", "en", 1.0),
        ("ttft within half a second, 20 users", "en", 0.5),
        ("首字延迟希望控制在 1 秒以内", "zh-Hans", 1.0),
    ],
)
def test_time_to_first_token_said_in_words(text: str, locale: str, seconds: float) -> None:
    assert extract(text, locale).get("max_ttft_s") == seconds  # type: ignore[arg-type]


def test_chinese_text_counted_in_characters_is_tokens() -> None:
    # ~1.4 Chinese characters per token (Llama 3 / Qwen tokenizers; the tables' convention): 3,000 万字 ~ 21 M tokens
    assert extract("手头有大概 3000 万字的法律文书，想 LoRA 微调 qwen2.5-32b", "zh-Hans")["tokens"] == pytest.approx(
        3e7 / 1.4, rel=0.01)
    # one example's length is not the corpus: 1 万条 x 800 字 is read from the count and the length together
    assert extract("1万条问答对，每条平均 800 字", "zh-Hans", task="lora").get("tokens", 0) < 1e7


def test_streams_are_not_circuits() -> None:
    fields = extract("机房给我们留了一路 380V 32A 三相，想放一台 8 卡 H20 做 deepseek-r1 推理，并发大概 30 路", "zh-Hans")
    assert fields["concurrency"] == 30
    assert fields["rack_kw"] == pytest.approx(3 ** 0.5 * 380 * 32 * 0.8 / 1000, rel=0.01)  # one three-phase feed
