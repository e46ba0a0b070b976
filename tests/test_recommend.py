"""`recommend` end to end — the real catalogue, the real numeric core, the real rules through
durable-rules — on the journeys DESIGN.md promises, checked against published figures."""

from __future__ import annotations

import re

import pytest

from advisor.knowledge import knowledge
from advisor.models import OwnedGpus, Profile
from advisor.recommend import RecommendError, examine, recommend
from advisor.report import render_why_not as explain_gpu
from advisor.words import finding_words
from advisor.rules_engine import rules_by_id

GB = 1e9

# Exact parameter count of Llama 3.1 70B / Llama 3 70B (same architecture), Hugging Face
# safetensors total (shared/reference/numeric-anchors.md §1.1).
LLAMA_70B_PARAMS = 70_553_706_496
# Mixed-precision AdamW model states: 16 bytes per parameter (ZeRO, Rajbhandari et al.,
# arXiv:1910.02054, K = 12).
ZERO_BYTES_PER_PARAM = 16
# Llama 3.x 70B KV cache in 16-bit: 327,680 bytes per token (2 x 80 layers x 8 KV heads x 128 x 2 B;
# numeric-anchors.md §1.5).
LLAMA_70B_KV_BYTES_PER_TOKEN = 327_680


def _ids(findings) -> set[str]:
    return {f.rule_id for f in findings}


def _rejecting(findings) -> set[str]:
    rules = rules_by_id()
    assert all(f.reject == rules[f.rule_id].reject for f in findings)
    return {f.rule_id for f in findings if f.reject}


@pytest.fixture(scope="module")
def lora_mistral_rack():
    profile = Profile(task="lora", model="mistral-7b", budget_usd=30_000, rack_kw=12, cooling="air",
                      deployment="on-prem", acquisition="buy")
    return recommend(profile)


def test_lora_mistral_7b_in_a_12kw_air_rack_on_30k(lora_mistral_rack) -> None:
    rec = lora_mistral_rack
    assert rec.recommendations
    for cand in rec.recommendations:
        assert cand.fits and cand.count <= 8
        assert cand.acquisition == "buy"  # bought for the room, as asked
        assert cand.cost_usd <= 30_000
        assert cand.power_w <= 12_000
        assert cand.memory_per_gpu.total <= cand.capacity_bytes
        assert not _rejecting(cand.findings)
    # A 12 kW rack is a server room: GeForce cards are out (NVIDIA's driver licence excludes datacenter
    # deployment, platforms.md §7), though a 7.2B model would fit one (seed article: <= 7B on an RTX 4090).
    assert not [c for c in rec.recommendations if knowledge().gpus[c.gpu].segment == "consumer"]
    geforce = [r for r in rec.rejected if knowledge().gpus[r.gpu].segment == "consumer"]
    assert geforce and all("cost.geforce-datacenter" in _ids(r.reasons) for r in geforce)
    # An H100 SXM alone is ~$30,000 street (gpu-catalogue.md §4 [HF]); with a server it cannot fit a $30k budget.
    h100 = [r for r in rec.rejected if r.gpu == "h100-sxm"]
    assert h100 and "cost.over-budget" in _ids(h100[0].reasons)


def test_lora_mistral_either_way_stays_small_and_in_budget() -> None:
    rec = recommend(Profile(task="lora", model="mistral-7b", budget_usd=30_000, rack_kw=12, cooling="air"))
    assert rec.recommendations
    assert all(c.count <= 8 and c.cost_usd <= 30_000 and c.fits for c in rec.recommendations)


def test_why_not_the_h100_is_answered_from_the_rejected_list(lora_mistral_rack) -> None:
    text = explain_gpu(lora_mistral_rack, "H100 SXM", "en")
    assert "NVIDIA H100 SXM5 80GB" in text and "Over budget" in text and "$30,000" in text
    assert "ZeRO" not in text or "zero3" not in text  # strategies in words, never their ids
    zh = explain_gpu(lora_mistral_rack, "h100-sxm", "zh-Hant")
    assert "超出預算" in zh
    ranked = lora_mistral_rack.recommendations[0]
    assert "#1" in explain_gpu(lora_mistral_rack, ranked.gpu, "en")
    assert "GTX 9999" in explain_gpu(lora_mistral_rack, "GTX 9999", "en")


def test_full_fine_tune_of_70b_needs_the_model_states_spread_over_many_gpus() -> None:
    rec = recommend(Profile(task="finetune", model="llama-3.1-70b"))
    states_bytes = LLAMA_70B_PARAMS * ZERO_BYTES_PER_PARAM  # 1,128.9 GB before activations
    assert rec.recommendations
    for cand in list(rec.recommendations) + list(rec.alternatives):
        assert cand.fits
        # 8-bit AdamW keeps 10 bytes per parameter (2 + 2 + 4 fp32 master + 2 moments); offload moves them out
        per_param = ZERO_BYTES_PER_PARAM if cand.optimizer == "adamw" else 10
        if not cand.offload:
            assert cand.count * cand.capacity_bytes >= LLAMA_70B_PARAMS * per_param, f"{cand.count}x {cand.gpu}"
        assert cand.count >= 8
    found = {f.rule_id: f for f in rec.findings}
    assert found["memory.model-states"].bindings["model_states_gb"] == pytest.approx(states_bytes / GB)
    assert "1,129 GB" in finding_words(found["memory.model-states"], "en")[1]
    assert "memory.remedy-lora" in found
    # LoRA trains ~0.1 % of the weights: the 16-bit base (141 GB) fits on a couple of 80 GB cards.
    assert found["memory.remedy-lora"].bindings["alt_lora_gpus"] <= 4


def test_llama3_70b_serving_500_users_at_16k_is_sized_by_the_kv_cache() -> None:
    rec = recommend(Profile(task="inference", model="llama-3-70b", concurrency=500, context_tokens=16_384))
    kv_bytes = LLAMA_70B_KV_BYTES_PER_TOKEN * 16_384 * 500  # 2,684 GB
    weights_bytes = LLAMA_70B_PARAMS * 2
    found = {f.rule_id: f for f in rec.findings}
    kv = found["inference.kv-exceeds-weights"].bindings
    assert kv["kv_per_seq_gb"] == pytest.approx(kv_bytes / 500 / GB)
    assert kv["kv_total_gb"] == pytest.approx(kv_bytes / GB) and kv["weights_gb"] == pytest.approx(weights_bytes / GB)
    text = finding_words(found["inference.kv-exceeds-weights"], "en")[1]
    assert "5.37" in text and "2,684" in text and "141" in text
    assert rec.recommendations
    for cand in rec.recommendations:
        assert cand.fits and cand.tokens_per_s and cand.tokens_per_s > 0
        # the KV cache in the format the plan chose (16-bit, or 8-bit when that is what makes it fit)
        kv_plan = kv_bytes * (1 if cand.kv_dtype in ("fp8", "int8") else 2) / 2
        weights_plan = weights_bytes * (1 if cand.weights_dtype in ("fp8", "int8") else 2) / 2
        assert cand.count * cand.capacity_bytes >= kv_plan + weights_plan
        # an 8-bit cache already: the finding no longer suggests one
        dominates = "inference.kv-dominates-8bit" if cand.kv_dtype in ("fp8", "int8") else "inference.kv-dominates"
        assert dominates in _ids(cand.findings)
        assert cand.time_hours is None
    # 70B in 16-bit split over at most 4 RTX 4090s (4 per server) is 35 GB per 24 GB card.
    rtx = [r for r in rec.rejected if r.gpu == "rtx-4090"]
    assert rtx and "memory.does-not-fit" in _ids(rtx[0].reasons)


def test_a_tiny_budget_points_to_renting_and_qlora() -> None:
    rec = recommend(Profile(task="finetune", model="llama-3.1-8b", budget_usd=500))
    found = {f.rule_id: f for f in rec.findings}
    assert "cost.rent-when-budget-short" in found
    assert found["memory.remedy-qlora"].bindings["alt_qlora_gpu_name"] in {
        g.name for g in knowledge().gpus.values() if g.memory_gb == 24}
    assert rec.recommendations
    assert all(c.acquisition == "rent" and c.cost_usd <= 500 for c in rec.recommendations)


def test_when_nothing_survives_the_nearest_misses_come_with_what_to_change() -> None:
    rec = recommend(Profile(task="finetune", model="llama-3.1-8b", budget_usd=2))
    ids = _ids(rec.findings)
    assert {"outcome.near-misses", "cost.nothing-within-budget", "memory.remedy-qlora"} <= ids
    assert rec.recommendations and not rec.alternatives
    for cand in rec.recommendations:
        assert "cost.over-budget" in _rejecting(cand.findings)
    text = explain_gpu(rec, rec.recommendations[0].gpu, "en")
    assert "Nothing passed every check" in text


def test_an_owned_rtx_4090_comes_first_at_no_capex() -> None:
    rec = recommend(Profile(task="lora", model="mistral-7b", owned_gpus=(OwnedGpus(gpu="rtx-4090", count=1),)))
    top = rec.recommendations[0]
    assert (top.gpu, top.count, top.cost_usd) == ("rtx-4090", 1, 0.0)
    owned = [f for f in top.findings if f.rule_id == "cost.owned"]
    assert owned and "NVIDIA GeForce RTX 4090" in finding_words(owned[0], "en")[1]
    assert top.energy_usd is not None and top.energy_usd > 0


def test_an_owned_card_that_cannot_do_the_job_says_why() -> None:
    rec = recommend(Profile(task="finetune", model="llama-3.1-70b", owned_gpus=(OwnedGpus(gpu="4090", count=1),)))
    mine = [r for r in rec.rejected if r.gpu == "rtx-4090" and r.count == 1]
    assert mine and "memory.does-not-fit" in _ids(mine[0].reasons)
    text = explain_gpu(rec, "4090", "en")
    assert "left out" in text and "Does not fit" in text


def test_a_deadline_rejects_the_slow_owned_card() -> None:
    # One RTX 4090 (165 dense TFLOPS) needs most of a day for 100M tokens of LoRA on a 7B model.
    rec = recommend(Profile(task="lora", model="mistral-7b", deadline_days=0.25,
                            owned_gpus=(OwnedGpus(gpu="rtx-4090", count=1),)))
    mine = [r for r in rec.rejected if r.gpu == "rtx-4090" and r.count == 1]
    assert mine and "cost.deadline-missed" in _ids(mine[0].reasons)
    assert all(c.time_hours is not None and c.time_hours <= 6 for c in rec.recommendations)


def test_a_rack_too_small_rejects_big_purchases() -> None:
    rec = recommend(Profile(task="finetune", model="llama-3.1-70b", acquisition="buy", rack_kw=12, cooling="air"))
    assert all(c.power_w <= 12_000 for c in rec.recommendations)
    # Eight B200s draw up to 14.3 kW (DGX B200 user guide, advisory-anchors.md §3b): above 12 kW.
    b200 = [r for r in rec.rejected if r.gpu == "b200"]
    assert b200 and "facility.exceeds-rack" in _ids(b200[0].reasons)


def test_the_decision_does_not_depend_on_the_language() -> None:
    profile = Profile(task="lora", model="mistral-7b", budget_usd=30_000, rack_kw=12, deployment="on-prem")
    en = recommend(profile)
    hant = recommend(profile.model_copy(update={"language": "zh-Hant"}))
    key = [(c.gpu, c.count, c.strategy, sorted(_ids(c.findings))) for c in en.recommendations]
    assert key == [(c.gpu, c.count, c.strategy, sorted(_ids(c.findings))) for c in hant.recommendations]
    # Findings carry no words: each language words the same finding from its bindings.
    han = re.compile(r"[\u4e00-\u9fff]")
    for c in en.recommendations:
        for f in c.findings:
            assert not han.search(" ".join(finding_words(f, "en")))
            for loc in ("zh-Hans", "zh-Hant"):
                title, text = finding_words(f, loc)
                assert han.search(title) and han.search(text) and "{" not in text


def test_assumptions_carry_price_dates_and_the_facility_figures() -> None:
    rec = recommend(Profile(task="lora", model="mistral-7b", budget_usd=200_000, budget_amount=1_400_000,
                            budget_currency="CNY"))
    a = rec.assumptions
    assert re.fullmatch(r"\d{4}-\d{2}(, \d{4}-\d{2})*", str(a["cloud_rate_dates"]))
    assert a["pue"] == 1.4 and a["electricity_usd_per_kwh"] == 0.12
    assert "workload.tokens" in a  # the planner's defaults are reported, not hidden


def test_the_recommendation_serializes_to_json() -> None:
    rec = recommend(Profile(task="inference", model="llama-3.1-8b", concurrency=8, context_tokens=8192))
    text = rec.model_dump_json()
    assert '"recommendations"' in text and '"rejected"' in text and '"findings"' in text


def test_bad_profiles_get_a_localized_error_not_a_traceback() -> None:
    with pytest.raises(RecommendError) as info:
        recommend(Profile(task="lora"))
    assert info.value.key == "recommend.error.no_model"
    assert "模型" in info.value.message("zh-Hans") and "模型" in info.value.message("zh-Hant")
    with pytest.raises(RecommendError) as info:
        recommend(Profile(task="lora", model="no-such-model"))
    assert info.value.key == "recommend.error.bad_profile" and "no-such-model" in info.value.message("en")
    with pytest.raises(RecommendError) as info:
        recommend(Profile(task="lora", model="mistral-7b", owned_gpus=(OwnedGpus(gpu="voodoo-5", count=1),)))
    assert info.value.key == "recommend.error.unknown_owned" and "voodoo-5" in info.value.message("en")


KIND_EXAMPLES = ("llama-1-33b", "mixtral-8x7b", "bert-base-uncased", "resnet-50", "vit-b-16", "sd15-unet")


@pytest.mark.parametrize("model", KIND_EXAMPLES)
@pytest.mark.parametrize("task", ["pretrain", "finetune", "lora", "qlora", "inference"])
def test_every_model_kind_and_task_gets_an_answer(model: str, task: str) -> None:
    # Unconstrained, and squeezed by a small budget, a one-day deadline and a 5 kW rack: either way
    # an answer (or near misses) comes back, with every fact valid for the rules.
    free = recommend(Profile(task=task, model=model))
    tight = recommend(Profile(task=task, model=model, budget_usd=1_000, deadline_days=1, rack_kw=5,
                              acquisition="buy"))
    for rec in (free, tight):
        assert rec.recommendations
        assert all(c.memory_per_gpu.total > 0 for c in rec.recommendations)
    assert all(c.acquisition == "buy" for c in tight.recommendations)


def test_a_comfortable_deadline_prefers_one_server_over_a_faster_cluster() -> None:
    """Issue #5's pretraining message: 3B parameters, 60B tokens, $80k, six weeks. Renting scales
    linearly, so 8 or 32 GPUs cost about the same; with six weeks allowed, the advisor should not
    trade one server for four to save a few days (recommend.DEADLINE_SLACK)."""
    from advisor.knowledge import knowledge

    profile = Profile(task="pretrain", params=3_000_000_000, tokens=60_000_000_000, budget_usd=80_000,
                      deadline_days=42)
    rec = recommend(profile)
    kb = knowledge()
    assert rec.recommendations
    for c in rec.recommendations:
        assert c.count <= kb.gpus[c.gpu].max_per_node, (c.gpu, c.count)
        assert c.time_hours is not None and c.time_hours < 42 * 24
    # without a deadline, speed counts again and multi-server options may lead
    fast = recommend(profile.model_copy(update={"deadline_days": None}))
    assert max(c.count for c in fast.recommendations) > max(c.count for c in rec.recommendations)


def test_more_of_a_gpu_the_user_owns_is_priced_as_what_is_added() -> None:
    from advisor.recommend import examine

    # Two owned RTX A6000s in a workstation; four of them are two more cards ($2,800 each: sold used only,
    # platforms.md §4) and the step from a two-card desktop to a four-slot workstation platform: $1,800-4,600
    # against $900-1,600 + $150-500 (platforms.md §1; advisor.core.cost) -> 5,600 + 3,200 - 1,575 = $7,225, not
    # the $14,400 of four cards in a new machine.
    profile = Profile(language="en", task="finetune", model="mistral-7b", tokens=2_000_000_000, seq_len=4096,
                      acquisition="buy", deployment="on-prem", owned_gpus=[OwnedGpus(gpu="rtx-a6000", count=2)])
    four = examine(profile, "rtx-a6000", 4)
    assert four is not None and four.acquisition == "buy"
    assert four.cost_usd == pytest.approx(7_225, abs=1) and four.buy_usd == pytest.approx(14_400, abs=1)
    added = next(f for f in four.findings if f.rule_id == "cost.adds-to-owned")
    assert added.bindings["owned_kept"] == 2 and added.bindings["gpus_added"] == 2
    assert examine(profile, "rtx-a6000", 2).cost_usd == 0  # the two they have cost nothing


def test_a_one_off_batch_job_rents_and_is_costed_for_its_hours() -> None:
    # exp-37's job (25B prompt tokens through Llama 3.1 8B in 3 days) with buying allowed: a ~30-hour job is no
    # reason to buy (a bought card would be costed as used for those hours, not for a year of service), and the
    # rental bill is hours x rate (hundreds of dollars: 4.1e20 FLOP at FP8, expert_cases.yaml exp-37), not 8,760 h.
    profile = Profile(language="en", task="inference", model="llama-3.1-8b", tokens=25_000_000_000,
                      context_tokens=512, deadline_days=3)
    top = recommend(profile).recommendations[0]
    assert top.acquisition == "rent" and top.time_hours is not None and top.time_hours <= 72
    assert top.usage_hours == pytest.approx(top.time_hours) and 100 <= top.cost_usd <= 1_000
    assert top.weights_dtype == "fp8"


def test_near_misses_are_cards_a_changed_limit_would_let_through_nearest_first() -> None:
    # A mainland company serving Qwen2.5-32B to 20 users at 16k with a 1 s first token on ¥300,000 (seen in a
    # session): nothing passes. The near misses were an export-controlled MI250X at 3.2x the budget as the second
    # pick — a card no changed limit makes buyable — and the order ignored how far each one overshoots.
    profile = Profile(task="inference", model="qwen2.5-32b", concurrency=20, context_tokens=16_384, max_ttft_s=1.0,
                      budget_usd=41_783, budget_amount=300_000, budget_currency="CNY", acquisition="buy",
                      deployment="on-prem", company=True)
    rec = recommend(profile)
    assert "outcome.near-misses" in _ids(rec.findings)
    shown = rec.recommendations
    assert shown and not any(f.rule_id in ("cost.export-controlled", "cost.used-for-company")
                             for c in shown for f in c.findings)
    # fewest limits broken first; among equals, each overshoots its budget or first-token limit no less than the
    # one before it (an 8 x H20 in FP8 that breaks only the budget comes before 8 x A10 that break budget and TTFT)
    order = [(sum(1 for f in c.findings if f.reject),
              round(max(c.cost_usd / profile.budget_usd, (c.ttft_s or 0) / profile.max_ttft_s), 1)) for c in shown]
    assert order == sorted(order)
    # the export-controlled cards are still listed as ruled out, with their reason (what "why not the H100?" asks)
    assert any(f.rule_id == "cost.export-controlled" for r in rec.rejected[:3] for f in r.reasons)


@pytest.mark.parametrize("profile", [
    # seen in a TUI walk: a rented RTX 6000 Ada at $6.84 for 7.7 h ranked above an H100 NVL at $6.45 for 2.5 h
    Profile(task="qlora", model="qwen2.5-14b", samples=50_000, seq_len=1000, tokens=50_000_000, deadline_days=10,
            owned_gpus=(OwnedGpus(gpu="rtx-4090", count=1),)),
    Profile(task="lora", model="llama-3.1-8b", tokens=200_000_000, acquisition="rent", deployment="cloud"),
    Profile(task="finetune", model="qwen2.5-7b", tokens=300_000_000, deadline_days=5, acquisition="rent"),
])
def test_no_option_ranks_above_one_that_beats_it_on_cost_and_time(profile: Profile) -> None:
    rec = recommend(profile)
    ranked = list(rec.recommendations) + list(rec.alternatives)

    def concerns(c) -> int:
        return sum(1 for f in c.findings if f.severity in ("warning", "critical"))

    def roomy(c) -> bool:
        return c.capacity_bytes - c.memory_per_gpu.total >= 0.05 * c.capacity_bytes

    for i, worse in enumerate(ranked):
        if worse.cost_usd == 0:  # the user's own cards lead on their own terms
            continue
        for better in ranked[i + 1:]:
            dominates = (better.acquisition == worse.acquisition and better.count <= worse.count and roomy(better)
                         and better.cost_usd <= worse.cost_usd + 0.01 and better.time_hours < worse.time_hours
                         and concerns(better) <= concerns(worse))
            assert not dominates, (worse.count, worse.gpu, worse.cost_usd, worse.time_hours, "above",
                                   better.count, better.gpu, better.cost_usd, better.time_hours)


def test_a_china_market_card_is_bought_only_in_mainland_china() -> None:
    # The RTX 4090D is the mainland-China version of the RTX 4090, cut to stay under the US export threshold
    # (platforms.md §7: 14,592 CUDA cores vs 16,384, TPP under 4,800); shops elsewhere sell the full card. A Taiwan
    # buyer (budget in NT$) is never offered it; a buyer budgeting in yuan still is, and nothing changes for renting.
    fields = dict(task="qlora", model="qwen2.5-7b", tokens=20_000_000, seq_len=1000, acquisition="buy",
                  deployment="on-prem", deadline_days=14)
    taiwan = recommend(Profile(language="zh-Hant", budget_amount=150_000, budget_currency="TWD",
                             budget_usd=4_838, **fields))
    shown = [*taiwan.recommendations, *taiwan.alternatives]
    assert shown and all(c.gpu != "rtx-4090d" for c in shown)
    mainland = recommend(Profile(language="zh-Hans", budget_amount=30_000, budget_currency="CNY",
                               budget_usd=4_167, **fields))
    assert any(c.gpu == "rtx-4090d" for c in [*mainland.recommendations, *mainland.alternatives])
    assert "cost.china-market-only" in rules_by_id() and rules_by_id()["cost.china-market-only"].reject


def test_a_card_held_to_a_lower_power_limit_runs_off_the_psu_they_have() -> None:
    # Puget Systems held RTX 3090s at 280 W of their 350 W and kept more than 95 % of the throughput (advisory-anchors.md
    # §1). A desktop with a 650 W power supply cannot run a used 3090 at full power with its host (350 W + the
    # platform), but can at 280 W: the plan says so, and it is slower by the 5 % Puget measured, not more.
    fields = dict(task="qlora", model="llama-3.1-8b", tokens=20_000_000, seq_len=2048, acquisition="buy",
                  deployment="on-prem", budget_usd=1_000, host_owned=True)
    rec = recommend(Profile(rack_kw=0.65, **fields))
    top = rec.recommendations[0]
    assert (top.gpu, top.count, top.power_limit_w) == ("rtx-3090", 1, 280)
    assert top.power_w <= 650 and "facility.power-limited" in _ids(top.findings)
    free = recommend(Profile(rack_kw=2.0, **fields)).recommendations[0]
    assert (free.gpu, free.power_limit_w) == ("rtx-3090", None) and free.power_w > 650
    assert top.time_hours == pytest.approx(free.time_hours / 0.95, rel=1e-6)


def test_upgrading_the_card_in_a_desktop_one_has_buys_only_the_card() -> None:
    # Seen walking through the app as a Taiwan hobbyist: "目前插一張 3060 12G，電供 650W，想升級來做 Qwen2.5-14B 的
    # QLoRA，預算抓 3 萬". A 3090 for the desktop they have costs the card (platforms.md §4: used RTX 3090 $500-800,
    # midpoint $650), not a new desktop around it; at 280 W it runs off their 650 W supply.
    profile = Profile(task="qlora", model="qwen2.5-14b", tokens=24_000_000, seq_len=800, acquisition="buy",
                      deployment="on-prem", rack_kw=0.65, budget_usd=1_017, host_owned=True,
                      owned_gpus=(OwnedGpus(gpu="rtx-3060", count=1),), deadline_days=28)
    top = recommend(profile).recommendations[0]
    assert (top.gpu, top.count, top.acquisition, top.cost_usd) == ("rtx-3090", 1, "buy", 650.0)
    assert top.power_limit_w == 280 and top.power_w <= 650


def test_training_back_to_back_for_years_keeps_what_is_bought_busy() -> None:
    # blind6-04 (tests/advice/expert_cases_blind6.yaml), with the schedule its message states ("for the next 3 years
    # we will pretrain 8B-class models, 1T tokens per run, back to back"): whatever is bought runs the whole horizon,
    # so renting the same GPUs costs 3 years of hours (the expert: 16 x B200 x 26,280 h x $6.11-6.79 = $2.6-2.9M)
    # against buying two B200 nodes (~$1.1-1.4M with power). The expert buys exactly 16 B200 (two nodes fit 30 kW).
    profile = Profile(task="pretrain", model="llama-3.1-8b", tokens=1_000_000_000_000, seq_len=4096,
                      budget_usd=1_600_000, deadline_days=60, deployment="on-prem", rack_kw=30, cooling="liquid",
                      electricity_usd_per_kwh=0.10, pue=1.2, horizon_days=1095, utilization=1.0)
    top = recommend(profile).recommendations[0]
    assert (top.gpu, top.count, top.acquisition) == ("b200", 16, "buy")
    assert top.usage_hours == pytest.approx(3 * 365 * 24)


def _lora_72b_in_three_days(**extra) -> Profile:
    """LoRA of Qwen2.5-72B on 5 x 10^8 tokens in three days, rented, with a budget: a job for one 8-GPU
    data-centre node (6ND = 2.2 x 10^20 FLOPs is about a day on eight H100-class GPUs, numeric-anchors §1.6)."""
    fields = {"task": "lora", "model": "qwen2.5-72b", "tokens": 250_000_000, "epochs": 2, "seq_len": 4096,
              "deadline_days": 3, "acquisition": "rent", "budget_usd": 7000}
    return Profile(**{**fields, **extra})


def test_a_gpu_named_does_not_lead_with_many_times_the_cards_of_the_best() -> None:
    """A budget says what they can spend, and a card they named leads when it is a reasonable choice; 100+ rented
    RTX 4090 across nodes beside eight data-centre GPUs is not (blind7-04: it led at 128 x RTX 4090, 75 kW)."""
    best = recommend(_lora_72b_in_three_days()).recommendations[0]
    named = recommend(_lora_72b_in_three_days(preferred_gpus=("rtx-4090",))).recommendations[0]
    assert best.gpu != "rtx-4090" and best.count <= 16
    assert named.gpu == best.gpu and named.count == best.count


def test_of_gpus_named_as_on_offer_the_best_ranked_leads() -> None:
    """"We can rent H200 or L40S": of what is on offer, the one the advisor ranks higher leads, ahead of a card
    not named (H100 SXM, the best without the list)."""
    plain = recommend(_lora_72b_in_three_days())
    order = [c.gpu for c in plain.recommendations + plain.alternatives]
    menu = ("l40s", "h200")
    top = recommend(_lora_72b_in_three_days(preferred_gpus=menu)).recommendations[0]
    assert order[0] not in menu
    assert top.gpu == next(g for g in order if g in menu)


# AutoDL's list prices, 2026-03 to 2026-09 (knowledge/gpus.yaml cloud_hourly_cn): H800 ¥8.88 and A800 ¥4.98 per GPU-hour
# against US$2.49+ for an H100 abroad. A renter in mainland China rents what its clouds have.
MAINLAND_CLOUD_GPUS = {"a800-80gb", "h800", "h20", "rtx-4090", "rtx-4090d", "a100-80gb-sxm", "a100-40gb-pcie",
                       "v100-sxm2-32gb", "rtx-3090"}


def test_a_renter_in_mainland_china_rents_what_its_clouds_have_at_their_rates() -> None:
    rec = recommend(_lora_72b_in_three_days(budget_amount=50_000, budget_currency="CNY", budget_usd=6944))
    top = rec.recommendations[0]
    assert top.gpu in MAINLAND_CLOUD_GPUS - {"rtx-4090", "rtx-4090d", "rtx-3090"} and top.acquisition == "rent"
    assert "cost.export-controlled-rent" not in _ids(top.findings)  # rented where it is: nothing to warn of
    # 6ND = 6 x 72.7e9 x 5e8 = 2.2e20 FLOPs; at ~35 % of an H800's 989 TFLOPS that is ~175 GPU-hours, ~¥1,550 at
    # ¥8.88: well under US$1,000 (an H100 abroad costs about three times as much).
    assert top.cost_usd < 1000


def test_mainland_only_rentals_are_not_offered_elsewhere() -> None:
    rec = recommend(_lora_72b_in_three_days())
    shown = rec.recommendations + rec.alternatives
    assert not {c.gpu for c in shown if c.acquisition == "rent"} & {"a800-80gb", "h800", "h20", "rtx-4090d"}


def test_a_training_job_whose_owner_ruled_the_cloud_out_is_not_rented() -> None:
    """A room alone still compares renting for a training job (a one-off run is cheaper rented); "不能上云" does
    not: the factory's ViT fine-tune of holdout_fresh2 (h2-hant-015) was offered cloud rentals."""
    base = {"task": "finetune", "model": "vit-b-16", "samples": 120_000, "epochs": 30, "budget_usd": 25_800,
            "deployment": "on-prem"}
    assert any(c.acquisition == "rent" for c in recommend(Profile(**base)).recommendations)
    refused = recommend(Profile(**base, cloud_refused=True))
    assert refused.recommendations and all(c.acquisition == "buy" for c in refused.recommendations + refused.alternatives)


def test_a_low_power_card_for_an_industrial_pc_on_a_small_supply() -> None:
    """ResNet-50 at 500 images/s in a line PC with one free slot and a 250 W supply (blind8-12, and blind4-11 on
    300 W): an L4 (72 W, slot-powered) fits — the PC draws ~100-150 W by two blind experts, not a GPU workstation's
    250 W — and is priced as a card, not with a server around it; a 150 W A10 or a 170 W RTX 3060 does not fit."""
    rec = recommend(Profile(task="inference", model="resnet-50", weights_dtype="fp16", requests_per_second=500,
                            budget_usd=3000, acquisition="buy", deployment="on-prem", rack_kw=0.25, host_owned=True))
    top = rec.recommendations[0]
    assert top.gpu in ("l4", "t4") and top.count == 1
    assert top.power_w <= 250 and top.cost_usd <= 3000
    assert all(c.gpu not in ("a10", "rtx-3060", "rtx-4090") for c in rec.recommendations + rec.alternatives)


def test_a_service_that_fits_nowhere_in_16_or_8_bits_is_offered_4_bit_weights() -> None:
    # Hand check (numeric-anchors §1.5 sizes): Llama 3 70B is 70.6e9 parameters, 141 GB in 16 bits, 70.6 GB in 8 bits
    # (two 48 GB cards, about $8,000 used), about 37-40 GB at 4 bits with group scales (one 48 GB card, about $4,000
    # used, platforms.md §4). With $5,000 and the weight format left open, an expert serves an AWQ/GPTQ build on one
    # 48 GB card and says so; with the format fixed by the user, or with money for 8 bits, nothing is quantized.
    def ask(**extra) -> object:
        return recommend(Profile.model_validate({
            "language": "en", "task": "inference", "model": "llama-3-70b", "concurrency": 4, "context_tokens": 4096,
            "acquisition": "buy", "deployment": "on-prem", **extra}))

    cheap = ask(budget_usd=5000)
    top = cheap.recommendations[0]
    assert top.weights_dtype == "int4" and top.cost_usd <= 5000
    assert top.count == 1 and knowledge().gpus[top.gpu].memory_gb >= 40
    assert "inference.quantized-to-fit" in {f.rule_id for f in cheap.findings}
    assert "outcome.near-misses" not in {f.rule_id for f in cheap.findings}

    fixed = ask(budget_usd=5000, weights_dtype="bf16")
    assert all(c.weights_dtype == "bf16" for c in fixed.recommendations)
    assert "outcome.near-misses" in {f.rule_id for f in fixed.findings}

    roomy = ask(budget_usd=60000)
    assert all(c.weights_dtype != "int4" for c in roomy.recommendations + roomy.alternatives)
    assert "inference.quantized-to-fit" not in {f.rule_id for f in roomy.findings}


def test_a_peak_request_rate_sizes_the_replicas() -> None:
    # Hand check: a 4,096-token prompt on Llama 3.1 8B is 2 x 8.03e9 x 4,096 = 6.6e13 FLOPs (attention adds ~3 %);
    # an H100 SXM reads it in ~0.05 s at its dense FP8 rate (1,979 TFLOPS, gpu-catalogue.md; x 0.68 prefill
    # efficiency), so one card takes ~20 prompts a second, ~14 at a 70 % load that keeps queues short: 20 requests a
    # second at peak need two H100s. The same service with no rate stated is planned smaller.
    def ask(**extra) -> object:
        return recommend(Profile.model_validate({
            "task": "inference", "model": "llama-3.1-8b", "weights_dtype": "fp8", "concurrency": 16,
            "context_tokens": 4096, "acquisition": "rent", "budget_usd": 500_000, **extra}))

    def takes(c) -> float:  # requests a second at 70 % load: replicas / prompt time
        width = 1 if c.strategy in ("single", "replicas") else int(c.strategy[2:].split("-")[0])
        return (c.count // width) / c.ttft_s * 0.7 if c.ttft_s else 0.0

    calm = ask()
    assert takes(calm.recommendations[0]) < 20
    busy = ask(requests_per_second=20)
    shown = busy.recommendations + busy.alternatives
    assert shown and all(takes(c) >= 20 for c in shown)
    assert all(c.count >= 2 for c in shown if c.gpu == "h100-sxm")
    one_h100 = examine(Profile.model_validate({
        "task": "inference", "model": "llama-3.1-8b", "weights_dtype": "fp8", "concurrency": 16,
        "context_tokens": 4096, "acquisition": "rent", "budget_usd": 500_000, "requests_per_second": 20}), "h100-sxm", 1)
    assert one_h100 is not None and one_h100.count == 1
    assert "inference.too-few-requests" in {f.rule_id for f in one_h100.findings if f.reject}


def test_data_centre_cards_added_to_the_users_own_server_cost_the_cards_only() -> None:
    # Two L40S in the user's server with free slots (host_owned), 70B in BF16 (141 GB) needs four 48 GB cards: the
    # addition is two cards at the catalogue's price, not a bigger server. Without host_owned the bigger server is paid.
    gpu = knowledge().gpus["l40s"]
    card = (gpu.price.low_usd + gpu.price.high_usd) / 2  # type: ignore[union-attr]
    base = {"task": "inference", "model": "llama-3.1-70b", "weights_dtype": "bf16", "kv_dtype": "bf16",
            "concurrency": 4, "context_tokens": 4096, "acquisition": "buy", "deployment": "on-prem",
            "owned_gpus": [{"gpu": "l40s", "count": 2}]}
    inside = examine(Profile.model_validate({**base, "host_owned": True}), "l40s", 4)
    beside = examine(Profile.model_validate(base), "l40s", 4)
    assert inside is not None and beside is not None and inside.count == beside.count == 4
    assert inside.cost_usd == pytest.approx(2 * card)
    assert beside.cost_usd > inside.cost_usd


def test_an_image_classifier_is_sized_by_its_frames_per_second() -> None:
    # torchvision's ViT-L/16 model card: 61.55 GFLOPs (multiply-adds) per 224 x 224 image, i.e. ~123e9 FLOPs. 1,500
    # images a second are ~185 TFLOPS of sustained compute, more than any one card here delivers at a realistic share
    # of its dense BF16 peak; 10 images a second are nothing.
    def ask(rate: float) -> object:
        return recommend(Profile.model_validate({
            "task": "inference", "model": "vit-l-16", "requests_per_second": rate, "acquisition": "buy",
            "deployment": "on-prem", "budget_usd": 200_000}))

    kb = knowledge()
    busy = ask(1500).recommendations[0]
    peak = busy.count * (kb.gpus[busy.gpu].bf16_tflops or kb.gpus[busy.gpu].fp16_tflops) * 1e12
    assert peak * 0.9 >= 1500 * 123e9  # no plan counts on more than 90 % of the dense peak
    assert busy.count >= 2 or peak >= 2 * 1500 * 123e9
    assert ask(10).recommendations[0].count == 1


def test_a_first_token_limit_chooses_the_weight_format_that_meets_it() -> None:
    # Seen in a TUI walk (zh-Hant): Qwen2.5-72B for 40 users at 16k, first token within 2 s, NT$3M, 8 kW. Four RTX
    # PRO 6000 (96 GB) hold it in BF16 with room, so the sweep served them in BF16 — and BF16 reads a 16k prompt in
    # ~2.3 s: 2 x 72.7e9 x 16,384 = 2.38e15 FLOP of weights plus ~0.35e15 of causal attention (80 layers x 16k^2 x
    # 8,192 x 2) over 4 x 500 TFLOPS dense BF16 (gpus.yaml) at ~0.6-0.7 of peak. FP8 weights (1,000 TFLOPS) read it
    # in about half that, so the same four cards meet the limit; the search must try it before ruling them out.
    base = {"language": "en", "task": "inference", "model": "qwen2.5-72b", "concurrency": 40,
            "context_tokens": 16_384, "acquisition": "buy", "deployment": "on-prem", "budget_usd": 101_700,
            "rack_kw": 8, "cooling": "air", "company": True}
    free = examine(Profile.model_validate(base), "rtx-pro-6000", 4)
    limited = examine(Profile.model_validate({**base, "max_ttft_s": 2.0}), "rtx-pro-6000", 4)
    assert free is not None and limited is not None
    # in 16-bit BF16 the prompt takes more than 2 s on four cards; the limit makes the search take FP8 instead
    assert limited.count == 4 and limited.weights_dtype == "fp8" and limited.ttft_s is not None
    assert limited.ttft_s <= 2.0
    assert not any(f.reject for f in limited.findings)
    top = recommend(Profile.model_validate({**base, "max_ttft_s": 2.0})).recommendations[0]
    assert top.ttft_s is not None and top.ttft_s <= 2.0 and top.cost_usd <= 101_700


def test_remedies_are_sized_on_a_gpu_the_user_may_buy() -> None:
    # Seen in a zh-Hans walk: "改用 4 位量化权重推理，2× NVIDIA H100 SXM5 80GB 即可" told a mainland buyer to get a
    # card under US export control (knowledge/gpus.yaml export_controlled_cn). The remedies are sized on a card they can buy.
    from advisor.recommend import _reference_gpu

    kb = knowledge()
    base = {"task": "inference", "model": "llama-3.1-70b", "concurrency": 50, "context_tokens": 8192,
            "deployment": "on-prem"}
    mainland = Profile.model_validate({**base, "language": "zh-Hans", "budget_amount": 1_500_000,
                                       "budget_currency": "CNY", "budget_usd": 209_000})
    elsewhere = Profile.model_validate({**base, "language": "en", "budget_usd": 209_000})
    china_ref, us_ref = _reference_gpu([], kb, mainland), _reference_gpu([], kb, elsewhere)
    assert china_ref is not None and not china_ref.export_controlled_cn and china_ref.segment == "datacenter"
    assert us_ref is not None and us_ref.memory_gb == 80 and us_ref.export_controlled_cn


def test_a_request_rate_and_the_cache_are_taken_at_the_average_prompt() -> None:
    # 2 requests a second of prompts averaging 2k tokens but reaching 16k: each replica reads one prompt at a time, so
    # the rate it takes is replicas / (prefill of 2,048 tokens) x 0.7 — about 8x what 16k prompts would allow
    # (prefill is linear in the tokens, attention aside). The KV cache is paged (vLLM holds blocks for the tokens in
    # use), so 8 sequences hold one at 16k and seven at the 2k average. By hand from Llama 3.1 8B's config (32 layers,
    # 8 KV heads of 128, K and V) in an FP8 cache: 64 KiB a token; 8 x 16,384 tokens = 8 GiB at the longest, and
    # 16,384 + 7 x 2,048 = 30,720 tokens = 1.875 GiB with the average.
    base = {"language": "en", "task": "inference", "model": "llama-3.1-8b", "concurrency": 8, "context_tokens": 16_384,
            "requests_per_second": 2, "acquisition": "rent", "budget_usd": 500_000}
    longest = examine(Profile.model_validate(base), "l4", 1)
    typical = examine(Profile.model_validate({**base, "avg_context_tokens": 2_048}), "l4", 1)
    assert longest is not None and typical is not None and longest.ttft_s == typical.ttft_s
    assert "inference.too-few-requests" in {f.rule_id for f in longest.findings if f.reject}
    assert "inference.too-few-requests" not in {f.rule_id for f in typical.findings if f.reject}
    assert longest.kv_dtype == typical.kv_dtype == "fp8"
    assert longest.memory_per_gpu.kv_cache == pytest.approx(8 * 2**30, rel=1e-6)
    assert typical.memory_per_gpu.kv_cache == pytest.approx(1.875 * 2**30, rel=1e-6)
    assert typical.max_concurrency > longest.max_concurrency and typical.tokens_per_s > longest.tokens_per_s


def test_n_plus_one_serves_every_user_with_one_replica_down() -> None:
    # "A failed card must not stop the service": each replica but one must hold the whole peak. Llama 3.1 8B, 8 users
    # at 16k with an FP8 cache: 8 x 16,384 tokens x 64 KiB (32 layers, 8 KV heads of 128, K and V, 1 byte) = 8 GiB of KV
    # per replica. Without redundancy two L4 in one tensor-parallel replica serve it (4 GiB each); with N+1 it takes two
    # such replicas (4 L4), and two single-L4 replicas cannot, since one L4 alone would hold 8 GiB of KV beside 16 GB of
    # BF16 weights (more than its 21.3 GiB usable).
    base = {"language": "en", "task": "inference", "model": "llama-3.1-8b", "concurrency": 8, "context_tokens": 16_384,
            "kv_dtype": "fp8", "acquisition": "buy", "budget_usd": 500_000}
    single = examine(Profile.model_validate(base), "l4")
    spare = examine(Profile.model_validate({**base, "redundant": True}), "l4")
    pair = examine(Profile.model_validate({**base, "redundant": True}), "l4", 2)
    assert single is not None and spare is not None and pair is not None
    assert (single.count, single.strategy) == (2, "tp2")
    assert (spare.count, spare.strategy) == (4, "tp2") and spare.memory_per_gpu.kv_cache == pytest.approx(4 * 2**30)
    assert (pair.count, pair.strategy) == (2, "replicas") and pair.memory_per_gpu.kv_cache == pytest.approx(8 * 2**30)
    assert not pair.fits or (pair.max_concurrency or 0) < 8
