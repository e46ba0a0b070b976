"""Messages that change their mind, negate, or describe what they do now rather than what they want.

Each phrasing here is written for this test (not taken from the phrasing tables), with the reading a careful
person takes from it written first; the parser must get the same reading.
"""

from __future__ import annotations

import pytest

from advisor.conversation.numbers import normalize_text
from advisor.conversation.parsers import apply_corrections, extract, extract_detailed


@pytest.mark.parametrize(("text", "locale", "key", "want"), [
    # The corrected number replaces the one it corrects (same unit word, else the nearest before).
    ("serving llama 3 8b to 30 users, no wait, 45 users, 8k context", "en", "concurrency", 45),
    ("budget is $40k - scratch that, finance says 55k", "en", "budget_amount", 55000),
    ("预算 20 万，说错了，是 25 万，想部署 qwen2.5-14b", "zh-Hans", "budget_amount", 250000),
    ("我们有 2 张 A100，不对，是 3 张，想做 lora", "zh-Hans", "owned_gpus", [{"gpu": "a100-80gb-sxm", "count": 3}]),
    ("同時 50 人，欸不對，應該是 70 人，模型 qwen2.5-7b", "zh-Hant", "concurrency", 70),
])
def test_a_correction_inside_the_message_wins(text, locale, key, want) -> None:
    got = extract(text, locale)
    if key == "owned_gpus":
        assert [g["count"] for g in got[key]] == [want[0]["count"]]
    else:
        assert got[key] == want


def test_text_without_a_correction_is_left_as_it_is() -> None:
    for text in ("这样配置对不对，8 张卡够吗", "is 8 cards right or wrong for 70B?", "sorry for the noob question, 2 gpus?"):
        assert apply_corrections(normalize_text(text)) == normalize_text(text)


def test_a_correction_of_another_kind_corrects_nothing() -> None:
    # "8 cards, no wait, 40 people": a count of people does not replace a count of cards.
    assert extract("we have 8 cards, no wait, 40 people will use it", "en").get("owned_gpus", [{}])[0].get("count") != 40


@pytest.mark.parametrize(("text", "locale", "key", "want"), [
    ("机房只能风冷，上不了液冷，跑 qwen2.5-72b 推理", "zh-Hans", "cooling", "air"),
    ("機房用不了液冷，只有氣冷", "zh-Hant", "cooling", "air"),
    ("we can't do liquid cooling, air only, 15 kW rack", "en", "cooling", "air"),
])
def test_cooling_they_cannot_have_is_not_what_they_have(text, locale, key, want) -> None:
    assert extract(text, locale)[key] == want


@pytest.mark.parametrize(("text", "locale"), [
    ("先問問而已，還沒有要買，4 張 4090 能跑 70B 推論嗎", "zh-Hant"),
    ("只是好奇，暂时不买，两张 3090 能不能微调 13b", "zh-Hans"),
    ("not buying yet, just curious whether 2x 3090 can serve a 34b model", "en"),
])
def test_not_buying_yet_is_no_purchase(text, locale) -> None:
    assert extract(text, locale).get("acquisition") != "buy"


@pytest.mark.parametrize(("text", "locale", "want"), [
    # What they pay for now is not the budget, nor where the new hardware goes.
    ("we spend about $12k/month on GCP today; want to buy our own servers for the colo, budget 150k", "en",
     {"budget_amount": 150000, "deployment": "on-prem", "acquisition": "buy"}),
    ("目前每个月租云要花 3 万，老板批了 80 万买机器放自己机房", "zh-Hans",
     {"budget_amount": 800000, "deployment": "on-prem", "acquisition": "buy"}),
])
def test_what_they_do_now_is_what_they_leave(text, locale, want) -> None:
    got = extract(text, locale)
    assert {k: got.get(k) for k in want} == want


@pytest.mark.parametrize(("text", "locale", "key", "want"), [
    ("資料 1.5 兆 token，從頭預訓練 3B", "zh-Hant", "tokens", 1.5e12),   # 兆 = 10^12 (Taiwan usage)
    ("预算 3w5 左右，想攒一台", "zh-Hans", "budget_amount", 35000),       # 3w5 = 3.5 万
    ("rent two 8x H100 nodes, quoted $28k for the run, our budget is 35k", "en", "budget_amount", 35000),
    ("prompts typically 3k tokens, serving mistral 7b at 10 req/s", "en", "context_tokens", 3000),
])
def test_amounts_as_people_write_them(text, locale, key, want) -> None:
    assert extract(text, locale)[key] == pytest.approx(want, rel=0.03)


def test_two_megawatts_is_not_two_trillion_anything() -> None:
    assert "rack_kw" not in extract("园区供电 2 兆瓦", "zh-Hans")


def test_a_negative_concurrency_is_re_asked_and_a_range_is_not() -> None:
    neg = extract_detailed("要服務 -80 個人同時在線", "zh-Hant")
    assert "concurrency" not in neg.fields and any(code == "conv.problem.load_positive" for code, _ in neg.problems)
    assert extract("同時 60-80 個人在線", "zh-Hant").get("concurrency") in (60, 70, 80)


@pytest.mark.parametrize(("text", "locale", "want"), [
    # What was bought before is not this purchase; the budget for hardware is the hardware line.
    ("前年买了一台 4 卡 A100 的机器，现在想租云上的 H100 做预训练", "zh-Hans", {"acquisition": "rent"}),
    ("the lab's grant is $500k in total, but the hardware budget is $150k; want to buy a server", "en",
     {"budget_amount": 150000, "acquisition": "buy"}),
    ("計畫總經費 NT$500 萬，硬體費編了 NT$200 萬，要買伺服器", "zh-Hant", {"budget_amount": 2000000}),
])
def test_the_past_and_the_whole_grant_are_context(text, locale, want) -> None:
    got = extract(text, locale)
    assert {k: got.get(k) for k in want} == want


@pytest.mark.parametrize(("text", "locale", "key", "want"), [
    ("we have 4x 4090 — sorry, 3x 4090, one died", "en", "owned_gpus", 3),          # the count, not the 4090
    ("两台服务器共 16 张 A800……不对，只有 12 张能用", "zh-Hans", "owned_gpus", 12),  # the unit of the number corrected
])
def test_a_correction_finds_the_number_it_corrects(text, locale, key, want) -> None:
    assert sum(g["count"] for g in extract(text, locale)[key]) == want


def test_a_format_declined_or_wondered_about_is_not_chosen() -> None:
    assert extract_detailed("bf16 就好，FP8 先不考慮", "zh-Hant", question="precision").fields["precision"] == "bf16-mixed"
    assert "precision" not in extract("pretraining a 1B model on 20B tokens. is fp8 even worth it on our L40S?", "en")


@pytest.mark.parametrize(("text", "locale", "want"), [
    ("we have two 3090 boxes, each with 2 cards", "en", 4),          # machines x cards in each
    ("实验室有三台 A6000 工作站（每台四张卡）", "zh-Hans", 12),
])
def test_machines_times_cards_in_each(text, locale, want) -> None:
    assert sum(g["count"] for g in extract(text, locale)["owned_gpus"]) == want


def test_a_home_lab_with_cards_of_its_own_buys_nothing() -> None:
    assert extract("homelab nerd here, I run 2x 3090 already, want llama 70b q4 for me", "en").get("acquisition") != "buy"


def test_a_card_wanted_for_home_is_not_owned_and_one_bought_last_year_is() -> None:
    assert "owned_gpus" not in extract("想買一張 4090 放家裡跑 LoRA，預算 8 萬", "zh-Hant")
    assert extract("前年买的那台 4 卡 A6000 还在，想再加卡", "zh-Hans")["owned_gpus"][0]["count"] == 4


@pytest.mark.parametrize(("text", "key", "want"), [
    ("6 grand max, buying not renting", "budget_amount", 6000),
    ("budget ceiling is about 9k", "budget_amount", 9000),
    ("1st token within 2 sec please", "max_ttft_s", 2),
])
def test_caps_and_shorthand(text, key, want) -> None:
    assert extract(text, "en")[key] == pytest.approx(want)


def test_a_count_that_refers_back_and_renting_as_the_only_way_said() -> None:
    assert extract("can 3090s do a 34b qlora? we have 4 of them", "en")["owned_gpus"][0]["count"] == 4
    assert extract("serve llama 3 8b to 50 users, happy with renting on runpod, budget 2k/month for a year",
                   "en").get("acquisition") == "rent"
    assert extract("renting is fine but we also have a server room", "en").get("acquisition") == "either"
