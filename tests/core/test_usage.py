"""Buy vs rent over a horizon (issue #16): what owning costs after resale, the platform around consumer cards,
the hours the hardware works, and the power of a rented slice of a baseboard server.

Independent figures:
- platforms.md §6 resale table: H100 residuals 60-65 % after 1 year, 40-45 % after 2, 25-35 % after 3 (GLRI
  index); RTX A6000 ~60 % after 5 years; RTX 3090 33-53 % after 5.5; V100 16GB <1 % after 9.
- platforms.md §1: two RTX 5090s run on one 1,600 W PSU on a workstation board; four cards need a
  Threadripper/EPYC-class platform (an EPYC 7252 + ROMED8-2T + 1,600 W rig ~ $1,300 beyond the GPUs).
- advisory-anchors.md §3b: a DGX H100 draws 10.2 kW for 8 x 700 W GPUs, i.e. ~1.28 kW per GPU slot.
"""

from __future__ import annotations

import dataclasses

import pytest

from advisor.core import cost, planner, power
from advisor.knowledge import knowledge
from advisor.models import Profile
from advisor.recommend import examine, recommend


@pytest.mark.parametrize(("years", "low", "high"), [(1, 0.50, 0.75), (2, 0.30, 0.55), (3, 0.20, 0.45)])
def test_resale_follows_the_h100_residual_index_within_ten_points(years: float, low: float, high: float) -> None:
    # GLRI midpoints 62.5 / 42.5 / 30 %, +-10 points either way
    assert low <= cost.resale_fraction(years) <= high


def test_resale_of_old_cards_is_small_and_never_negative() -> None:
    assert cost.resale_fraction(9) < 0.15  # V100 after 9 years: <1 % (we are 10 points generous)
    assert 0 < cost.resale_fraction(100) < 0.01
    assert cost.resale_fraction(0) < 1.0  # selling at once loses the margins


def test_owning_for_two_years_costs_the_purchase_less_resale_plus_upkeep_and_power() -> None:
    capex, energy = 10_000.0, 500.0
    owned = cost.ownership_usd(capex, energy, 2.0)
    resale = capex * cost.resale_fraction(2.0)
    assert owned == pytest.approx(capex - resale + 2 * cost.UPKEEP_FRACTION_PER_YEAR * capex + energy)
    assert 5_000 < owned < 8_000  # half the card's value is gone after two years, not all of it


def test_a_second_consumer_card_costs_a_bigger_psu_not_a_new_platform() -> None:
    kb = knowledge()
    gpu = kb.gpus["rtx-5090"]
    one, two, four = (cost.server_usd(gpu, n) for n in (1, 2, 4))
    assert 100 <= two.mid - one.mid <= 600  # bigger PSU, x8/x8 board
    assert four.mid - two.mid >= 1_000  # four cards: HEDT platform, two PSUs


def test_one_rented_mi300x_draws_a_gpu_slot_not_a_whole_server() -> None:
    kb = knowledge()
    mi300x = kb.gpus["mi300x"]
    total, _node, nodes = power.configuration_power_w(mi300x, 1)
    assert nodes == 1 and 1_000 <= total <= 1_600  # 750 W GPU + its share of the host, not 5.5 kW
    h100 = kb.gpus["h100-sxm"]
    eight, _, _ = power.configuration_power_w(h100, 8)
    assert eight == pytest.approx(10_200, rel=0.05)  # DGX H100 rating


def _lora_workload(**usage) -> planner.Workload:
    kb = knowledge()
    w = planner.workload_from_profile(Profile(task="lora", model="mistral-7b"), kb)
    return dataclasses.replace(w, **usage)


def test_usage_hours_follow_the_runs_or_the_schedule() -> None:
    run = 5.0
    assert planner._usage_hours(_lora_workload(), run) == run  # nothing said: this run
    assert planner._usage_hours(_lora_workload(runs=12), run) == 12 * run
    # 10 h a week for 3 years = 1,560 h; utilization 10/168
    w = _lora_workload(horizon_days=3 * 365, utilization=10 / 168)
    assert planner._usage_hours(w, run) == pytest.approx(10 * 52.14 * 3, rel=0.01)
    # a schedule without a horizon is costed over three years
    assert planner._usage_hours(_lora_workload(utilization=10 / 168), run) == pytest.approx(1_564, rel=0.01)


def test_a_schedule_is_work_so_a_slower_configuration_works_longer() -> None:
    # "10 GPU-hours a week" counts reference (A100) hours: a configuration that runs the job in three times the
    # reference time is busy three times as long over the same three years; the runs alone are unchanged.
    w = _lora_workload(horizon_days=3 * 365, utilization=10 / 168)
    schedule = 10 * 52.14 * 3
    assert planner._usage_hours(w, 6.0, 2.0) == pytest.approx(3 * schedule, rel=0.01)
    assert planner._usage_hours(w, 1.0, 2.0) == pytest.approx(schedule / 2, rel=0.01)
    assert planner._usage_hours(_lora_workload(runs=12), 6.0, 2.0) == 12 * 6.0
    # the reference hour: an A100 at 312 dense BF16 TFLOPS (gpu-catalogue.md §2) and 40-48 % MFU (GT-26)
    hours = planner.reference_run_hours(312e12 * 3600)
    assert 1 / 0.48 <= hours <= 1 / 0.33


def test_serving_a_working_day_service_rents_a_third_of_the_clock() -> None:
    kb = knowledge()
    base = Profile(task="inference", model="llama-3.1-8b", concurrency=20, horizon_days=365)
    w = planner.workload_from_profile(base, kb)
    office = planner.workload_from_profile(base.model_copy(update={"utilization": 50 / 168}), kb)
    assert planner._usage_hours(w, None) == pytest.approx(8_760)
    assert planner._usage_hours(office, None) == pytest.approx(8_760 * 50 / 168)


def test_a_one_off_run_rents_and_three_busy_years_buy() -> None:
    # exp-05's shape (a one-off 7B LoRA) against the same job run every day for three years.
    once = Profile(task="lora", model="mistral-7b", tokens=10_000_000, seq_len=1024, epochs=3, runs=1,
                   rack_kw=12, deployment="on-prem", language="en")
    rec = recommend(once)
    assert rec.recommendations[0].acquisition == "rent"  # a room does not make a 4-hour job worth buying for
    busy = recommend(once.model_copy(update={"runs": None, "horizon_days": 3 * 365, "utilization": 0.7}))
    assert busy.recommendations[0].acquisition == "buy"


def test_examine_prices_the_gpu_at_the_count_asked() -> None:
    profile = Profile(task="lora", model="mistral-7b", budget_usd=30_000, rack_kw=12, deployment="on-prem",
                      acquisition="buy", language="en")
    eight = examine(profile, "H100", 8)
    assert eight is not None and eight.gpu == "h100-sxm" and eight.count == 8
    assert any(f.rule_id == "cost.over-budget" and f.reject for f in eight.findings)
    # No count: the count that works best; a 7B LoRA fits one 48 GB card.
    one = examine(profile, "rtx-6000-ada")
    assert one is not None and one.count == 1 and not any(f.reject for f in one.findings)
    # A count the search does not build (5) is taken to the next one it does (6).
    assert examine(profile, "L40S", 5).count == 6
    assert examine(profile, "GTX 9999") is None
