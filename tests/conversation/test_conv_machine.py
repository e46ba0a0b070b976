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
