"""Every rule, through real durable-rules: one fact on which it fires, one close fact on which it does not.

Each row changes a quiet, complete fact (the `make_fact` fixture in conftest.py) just enough to trigger the rule, and
the "silent" column moves one condition back across its threshold — so a row fails if a bound
flips, a field is misnamed, or a rule is widened or narrowed by mistake. A rule added without a row
fails `test_every_rule_has_a_row`. A rule with several conditions worth pinning gets several rows.
"""

from __future__ import annotations

import pytest

from advisor import rules_engine

# (rule id, scope, overrides that make it fire, overrides on top of those that keep it silent)
ROWS: list[tuple[str, str, dict, dict]] = [
    # memory
    ("memory.does-not-fit", "candidate", {"fits": False}, {"fits": True}),
    ("memory.tight-headroom", "candidate", {"headroom_frac": 0.03}, {"headroom_frac": 0.06}),
    ("memory.batch-accumulation", "candidate", {"headroom_frac": 0.1}, {"task": "inference", "is_training": False}),
    ("memory.full-checkpointing", "candidate", {"checkpointing": "full"}, {"checkpointing": "selective"}),
    ("memory.selective-checkpointing", "candidate", {"checkpointing": "selective"}, {"checkpointing": "none"}),
    ("memory.zero3-sharding", "candidate", {"zero_stage": 3, "count": 8}, {"zero_stage": 2}),
    ("memory.zero12-sharding", "candidate", {"zero_stage": 2, "count": 4}, {"zero_stage": 3}),
    ("memory.model-states", "profile", {"is_full_training": True, "task": "finetune"}, {"is_full_training": False}),
    ("memory.nothing-fits", "profile", {"nothing_fits": True}, {"nothing_fits": False}),
    ("memory.remedy-lora", "profile", {"alt_lora_available": True}, {"alt_lora_available": False}),
    ("memory.remedy-qlora", "profile", {"alt_qlora_available": True}, {"alt_qlora_available": False}),
    ("memory.remedy-offload", "profile", {"is_full_training": True, "fits_single_node": False},
     {"fits_single_node": True}),
    # precision
    ("precision.no-bf16", "candidate", {"bf16_supported": False, "architecture": "volta"},
     {"wants_bf16": False, "precision": "fp16-mixed"}),
    ("inference.too-few-requests", "candidate", {"task": "inference", "is_training": False, "fits": True,
                                               "too_few_requests": True, "max_requests_per_s": 1.4,
                                               "requests_per_second": 2.0}, {"too_few_requests": False}),
    ("precision.no-bf16", "candidate", {"bf16_supported": False, "architecture": "volta"},  # serving runs FP16 there
     {"task": "inference", "is_training": False}),
    ("precision.fp8-unsupported", "candidate", {"wants_fp8": True, "precision": "fp8-mixed", "wants_bf16": False},
     {"fp8_supported": True}),
    ("precision.fp8-available", "candidate", {"fp8_supported": True}, {"params_b": 3.0}),
    ("precision.fp32", "profile", {"precision": "fp32", "wants_bf16": False}, {"precision": "bf16-mixed"}),
    ("precision.fp16-loss-scaling", "profile", {"precision": "fp16-mixed", "wants_bf16": False},
     {"task": "inference", "is_training": False}),
    ("precision.pure-bf16", "profile", {"precision": "bf16", "is_full_training": True}, {"is_full_training": False}),
    # interconnect
    ("interconnect.tp-over-pcie", "candidate", {"crosses_pcie_tp": True, "tp": 4, "count": 4, "nvlink": False},
     {"crosses_pcie_tp": False}),
    ("interconnect.nvlink-tp", "candidate", {"tp": 8, "count": 8}, {"tp": 1}),
    ("interconnect.multi-node", "candidate", {"multi_node": True, "nodes": 2, "count": 16}, {"multi_node": False}),
    ("interconnect.ddp-over-pcie", "candidate", {"nvlink": False, "dp": 2, "count": 2, "strategy": "ddp"},
     {"multi_node": True}),
    ("interconnect.zero3-over-pcie", "candidate", {"zero_stage": 3, "nvlink": False, "count": 4},
     {"nvlink": True}),
    ("interconnect.many-consumer-cards", "candidate", {"is_consumer": True, "count": 8}, {"count": 4}),
    # reliability
    ("reliability.no-ecc-long-run", "candidate", {"ecc": False, "long_run": True}, {"ecc": True}),
    ("reliability.no-ecc-serving", "candidate", {"ecc": False, "task": "inference", "is_training": False},
     {"task": "lora", "is_training": True}),
    ("reliability.checkpoint-often", "candidate", {"long_run": True}, {"long_run": False}),
    ("reliability.consumer-transients", "candidate", {"is_consumer": True, "on_prem": True, "acquisition": "buy"},
     {"on_prem": False}),
    ("reliability.non-nvidia-software", "candidate", {"vendor": "amd"}, {"vendor": "nvidia"}),
    # facility
    ("facility.exceeds-rack", "candidate", {"exceeds_rack": True, "on_prem": True, "host_owned": False},
     {"exceeds_rack": False}),
    ("facility.exceeds-rack", "candidate", {"exceeds_rack": True, "on_prem": True, "host_owned": False,
                                            "power_w": 675.0, "rack_w": 650.0}, {"host_owned": True}),
    ("facility.exceeds-psu", "candidate", {"exceeds_rack": True, "on_prem": True, "host_owned": True, "power_w": 675.0,
                                           "rack_w": 650.0}, {"exceeds_rack": False}),
    ("facility.near-rack-limit", "candidate", {"on_prem": True, "rack_load_frac": 0.85, "power_limited": False,
                                               "host_owned": False}, {"rack_load_frac": 0.75}),
    ("facility.near-rack-limit", "candidate", {"on_prem": True, "rack_load_frac": 0.85, "power_limited": False,
                                               "host_owned": False},
     {"power_limited": True, "power_limit_w": 280.0, "power_w": 605.0, "rack_w": 650.0}),
    ("facility.air-limit", "candidate", {"on_prem": True, "rack_density_kw": 60.0}, {"cooling": "liquid"}),
    ("facility.air-band", "candidate", {"on_prem": True, "rack_density_kw": 40.0}, {"rack_density_kw": 29.0}),
    ("facility.pue", "candidate", {"on_prem": True}, {"on_prem": False}),
    ("facility.circuit", "candidate", {"on_prem": True, "has_rack": False, "segment": "workstation", "power_kw": 1.8},
     {"power_kw": 1.2}),
    ("facility.circuit", "candidate", {"on_prem": True, "has_rack": False, "segment": "workstation", "power_kw": 1.8},
     {"segment": "datacenter"}),
    ("facility.dense-air-rack", "profile", {"rack_kw": 40.0}, {"rack_kw": 25.0}),
    ("facility.high-pue", "profile", {"pue": 1.7}, {"deployment": "cloud"}),
    # cost and time
    ("cost.over-budget", "candidate", {"over_budget": True}, {"over_budget": False}),
    ("cost.near-budget", "candidate", {"budget_frac": 0.9}, {"acquisition": "buy"}),
    ("cost.deadline-missed", "candidate", {"misses_deadline": True}, {"misses_deadline": False}),
    ("cost.deadline-tight", "candidate", {"deadline_frac": 0.9}, {"deadline_frac": 0.7}),
    ("cost.rent-cheaper-for-run", "candidate", {"acquisition": "buy", "on_prem": True, "rent_vs_buy": 0.2},
     {"rent_vs_buy": 0.6}),
    ("cost.buy-breakeven", "candidate", {"acquisition": "buy", "breakeven_days": 400.0, "rent_vs_buy": 0.9},
     {"owned": True}),
    ("cost.rent-serving-long", "candidate", {"task": "inference", "is_training": False, "breakeven_days": 200.0},
     {"breakeven_days": 400.0}),
    ("cost.owned", "candidate", {"owned": True, "acquisition": "buy"}, {"owned": False}),
    ("cost.rent-when-budget-short", "profile", {"budget_below_cheapest_buy": True}, {"rent_within_budget": False}),
    ("cost.nothing-within-budget", "profile", {"budget_below_cheapest_buy": True, "rent_within_budget": False},
     {"rent_within_budget": True}),
    ("cost.no-budget", "profile", {"has_budget": False}, {"has_budget": True}),
    ("cost.price-volatility", "profile", {"has_rent_fit": True}, {"has_rent_fit": False}),
    ("cost.geforce-datacenter", "candidate", {"licence_blocked": True}, {"licence_blocked": False}),
    ("cost.export-controlled", "candidate", {"export_blocked": True}, {"export_blocked": False}),
    ("cost.china-market-only", "candidate", {"china_only_blocked": True}, {"china_only_blocked": False}),
    ("facility.power-limited", "candidate", {"power_limited": True, "power_limit_w": 280.0, "power_w": 605.0, "rack_w": 650.0},
     {"power_limited": False}),
    ("cost.export-controlled-rent", "candidate",
     {"in_mainland_china": True, "acquisition": "rent", "export_controlled_cn": True, "rented_in_china": False},
     {"rented_in_china": True}),  # an H800 on AutoDL is rented where it is: nothing to warn of
    ("cost.bought-used", "candidate", {"bought_used": True, "acquisition": "buy"}, {"acquisition": "rent"}),
    ("cost.used-for-company", "candidate", {"bought_used": True, "acquisition": "buy", "company": True},
     {"company": False}),
    ("cost.horizon-unknown", "profile", {"has_horizon": False, "buy_allowed": True, "rent_allowed": True},
     {"has_horizon": True}),
    ("facility.passive-card-in-desk", "candidate", {"passive_in_desk": True}, {"passive_in_desk": False}),
    ("memory.eight-bit-optimizer", "candidate", {"eight_bit_optimizer": True}, {"fits": False}),
    ("memory.cpu-offload-plan", "candidate", {"cpu_offload": True}, {"cpu_offload": False}),
    ("memory.pure-bf16", "candidate", {"pure_bf16": True}, {"pure_bf16": False}),
    ("memory.fp8-base", "candidate", {"fp8_base": True}, {"fits": False}),
    ("model.data-pipeline-bound", "candidate",
     {"decodes_jpeg": True, "images_per_s_node": 2470.0, "images_per_s_node_fmt": "2,470", "decode_vcpus_node": 23,
      "read_mb_per_s_node_fmt": "272"}, {"images_per_s_node": 900.0}),
    ("cost.adds-to-owned", "candidate", {"adds_to_owned": True, "owned_kept": 2, "gpus_added": 2},
     {"adds_to_owned": False}),
    ("cost.in-own-host", "candidate", {"in_own_host": True}, {"in_own_host": False}),
    ("cost.more-gpus-than-wanted", "candidate", {"more_gpus_than_wanted": True, "count": 2, "max_gpus": 1},
     {"more_gpus_than_wanted": False}),
    ("memory.chunked-loss", "candidate", {"chunked_loss": True}, {"chunked_loss": False}),
    ("inference.batch-prefill-bound", "profile", {"task": "inference", "is_batch_job": True, "batch_tokens_b": 25.0,
                                                  "context_window": 512}, {"is_batch_job": False}),
    ("reliability.qlora-non-nvidia", "candidate", {"vendor": "amd", "task": "qlora"}, {"task": "lora"}),
    ("reliability.lora-non-nvidia", "candidate", {"vendor": "amd", "task": "lora"}, {"vendor": "nvidia"}),
    # model
    ("model.moe-total-vs-active", "profile", {"is_moe": True, "params_b": 46.7, "active_params_b": 12.9},
     {"is_moe": False}),
    ("model.consumer-ok-small", "candidate", {"is_consumer": True}, {"params_b": 13.0}),
    ("model.consumer-large-full-training", "candidate",
     {"is_consumer": True, "is_full_training": True, "task": "finetune", "params_b": 13.0}, {"params_b": 7.0}),
    ("model.entry-16gb", "candidate", {"gpu_memory_gb": 16.0}, {"gpu_memory_gb": 24.0}),
    ("model.entry-24gb", "candidate", {"gpu_memory_gb": 24.0}, {"count": 2}),
    ("model.pretrain-compute", "profile", {"task": "pretrain"}, {"tokens_b": None}),
    ("model.oversized-gpu", "candidate", {"acquisition": "buy", "params_b": 1.5, "gpu_memory_gb": 80.0},
     {"gpu_memory_gb": 48.0}),
    # serving
    ("inference.kv-dominates", "candidate", {"task": "inference", "is_training": False, "kv_share": 0.7},
     {"kv_share": 0.4}),
    ("inference.kv-dominates", "candidate", {"task": "inference", "is_training": False, "kv_share": 0.7},
     {"kv_8bit": True}),
    ("inference.kv-dominates-8bit", "candidate", {"task": "inference", "is_training": False, "kv_share": 0.7,
                                                  "kv_8bit": True}, {"kv_8bit": False}),
    ("inference.kv-exceeds-weights", "profile", {"task": "inference", "is_training": False, "kv_exceeds_weights": True,
                                                 "context_avg_given": False}, {"kv_exceeds_weights": False}),
    ("inference.kv-exceeds-weights", "profile", {"task": "inference", "is_training": False, "kv_exceeds_weights": True,
                                                 "context_avg_given": False}, {"context_avg_given": True}),
    ("inference.kv-exceeds-weights-avg", "profile", {"task": "inference", "is_training": False,
                                                     "kv_exceeds_weights": True, "context_avg_given": True},
     {"context_avg_given": False}),
    ("inference.long-context", "profile", {"task": "inference", "is_training": False, "context_tokens": 32768},
     {"context_tokens": 16384}),
    ("inference.replicas", "candidate", {"task": "inference", "is_training": False, "dp": 4, "count": 4},
     {"dp": 1}),
    ("inference.concurrency-short", "candidate",
     {"task": "inference", "is_training": False, "serves_concurrency": False}, {"serves_concurrency": True}),
    ("inference.too-slow-per-user", "candidate",
     {"task": "inference", "is_training": False, "too_slow_per_user": True, "user_tokens_per_s": 8.0,
      "min_tokens_per_s_per_user": 20.0}, {"too_slow_per_user": False}),
    ("inference.ttft-too-long", "candidate",
     {"task": "inference", "is_training": False, "ttft_too_long": True, "ttft_s": 3.0, "max_ttft_s": 1.0},
     {"ttft_too_long": False}),
    ("inference.bandwidth-bound", "candidate", {"task": "inference", "is_training": False}, {"tokens_per_s": 0.0}),
    ("inference.quantized-to-fit", "profile", {"quantized_to_fit": True}, {"quantized_to_fit": False}),
    ("inference.quantized-serving", "profile", {"alt_quant_available": True}, {"alt_quant_available": False}),
    # outcome (second pass)
    ("outcome.near-misses", "profile", {"nothing_survives": True}, {"nothing_survives": False}),
]


def _fired(fact: dict) -> set[str]:
    return {f.rule_id for f in rules_engine.evaluate([fact])}


def test_every_rule_has_a_row() -> None:
    ids = {row[0] for row in ROWS}
    assert ids == {r.id for r in rules_engine.load_rules()}


def test_the_quiet_facts_are_quiet(make_fact) -> None:
    assert _fired(make_fact("profile")) == set()
    assert _fired(make_fact("candidate")) == set()


@pytest.mark.parametrize(("rule_id", "scope", "fire", "silent"), ROWS, ids=[f"{row[0]}-{i}" for i, row in enumerate(ROWS)])
def test_rule_fires_and_stays_silent(rule_id: str, scope: str, fire: dict, silent: dict, make_fact) -> None:
    firing = make_fact(scope, **fire)
    assert rule_id in _fired(firing), f"{rule_id} should fire on {fire}"
    quiet = make_fact(scope, **{**fire, **silent})
    assert rule_id not in _fired(quiet), f"{rule_id} should stay silent with {silent}"


@pytest.mark.parametrize(("rule_id", "scope", "fire", "silent"), ROWS, ids=[f"{row[0]}-{i}" for i, row in enumerate(ROWS)])
def test_a_rule_never_fires_on_the_other_kind_of_fact(rule_id: str, scope: str, fire: dict, silent: dict,
                                                     make_fact) -> None:
    # Same fields, other 'kind': the scope guard alone must keep the rule silent.
    other = "profile" if scope == "candidate" else "candidate"
    fact = {**make_fact(other), **make_fact(scope, **fire), "kind": other, "id": "other"}
    assert rule_id not in _fired(fact)


def test_bindings_carry_the_fact_values(make_fact) -> None:
    fact = make_fact("candidate", fits=False, gpu_name="NVIDIA GeForce RTX 4090", count=2,
                      mem_total_gib=31.2, capacity_gib=23.6)
    (fired,) = [f for f in rules_engine.evaluate([fact]) if f.rule_id == "memory.does-not-fit"]
    assert fired.fact_id == "candidate"
    assert fired.bindings == {"gpu_name": "NVIDIA GeForce RTX 4090", "count": 2, "strategy": "single",
                              "mem_total_gib": 31.2, "capacity_gib": 23.6}
