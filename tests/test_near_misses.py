"""What the "ruled out" list shows (issue #16: only the informative near misses). Expectations are worked out by hand
from the catalogue's orders of magnitude, not from the code's output."""

from __future__ import annotations

from advisor.models import Profile
from advisor.recommend import recommend

# A Taiwan startup's LoRA of Llama 3.1 8B on NT$250,000 (~US$8.5k) behind one 110 V / 15 A socket (1.32 kW at 80 %).
TAIWAN_LORA = dict(language="zh-Hant", task="lora", model="llama-3.1-8b", tokens=24_000_000, epochs=3,
                   budget_amount=250_000, budget_currency="TWD", budget_usd=8_474, deadline_days=58,
                   deployment="on-prem", rack_kw=1.32)


def test_a_card_sold_only_in_mainland_china_is_no_near_miss_elsewhere() -> None:
    rec = recommend(Profile(**TAIWAN_LORA))
    assert rec.recommendations
    assert "rtx-4090d" not in {r.gpu for r in rec.rejected}


def test_the_card_the_user_named_is_still_explained() -> None:
    rec = recommend(Profile(**TAIWAN_LORA, preferred_gpus=["rtx-4090d"]))
    shown = {c.gpu for c in (*rec.recommendations, *rec.alternatives)} | {r.gpu for r in rec.rejected}
    assert "rtx-4090d" in shown


def test_an_eight_gpu_server_at_many_times_the_budget_and_the_circuit_is_not_listed() -> None:
    # 8 x MI250X is a ~$130k, ~8 kW server: ~16 x this budget and ~6 x this socket; nobody weighs it here.
    rec = recommend(Profile(**TAIWAN_LORA))
    assert all(r.count <= 4 for r in rec.rejected), [(r.count, r.gpu) for r in rec.rejected]
