"""Shared fixtures for the rules tests: complete, quiet facts that each test changes a little.

`make_fact(scope, **overrides)` returns a fact carrying every field of its scope in
`rules/_facts.yaml` with neutral values (a mid-sized job comfortably inside every limit), so a
test sets only the fields its rule looks at and every `bind` a rule names is present.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

_BOTH: dict[str, Any] = {
    "task": "lora", "is_training": True, "is_full_training": False, "decodes_jpeg": False, "samples_total": 0.0, "model_name": "Test 7B",
    "params_b": 7.0, "active_params_b": 7.0, "is_moe": False,
    "precision": "bf16-mixed", "wants_bf16": True, "wants_fp8": False, "seq_len": 2048, "tokens_b": 0.1, "context_tokens": 4096, "context_window": 4096, "concurrency": 1,
    "has_budget": True, "budget_usd": 100_000.0, "has_deadline": True,
    "deadline_days": 30.0, "deployment": "either", "acquisition_mode": "either",
    "has_rack": True, "rack_kw": 20.0, "cooling": "air", "pue": 1.3,
    "cooling_pct": 30.0, "owns_gpus": False, "has_horizon": True, "horizon_days": 365.0,
    "in_mainland_china": False, "datacenter_deployment": False, "buy_allowed": True, "rent_allowed": True, "gpus_considered": 10,
}

_PROFILE: dict[str, Any] = {
    "nothing_fits": False, "min_gpus_to_fit": 1, "fits_single_gpu": True, "fits_single_node": True,
    "model_states_gb": 112.0, "weights_gb": 14.0, "has_buy_fit": True, "cheapest_buy_usd": 3000.0, "has_rent_fit": False, "cheapest_rent_usd": 50.0, "budget_below_cheapest_buy": False, "rent_within_budget": True,
    "alt_lora_available": False, "alt_lora_gpus": 1, "alt_lora_gpu_name": "Ref GPU",
    "alt_qlora_available": False, "alt_qlora_gpu_name": "Card 24",
    "alt_quant_available": False, "alt_quant_gpus": 1, "alt_quant_gpus_now": 2, "alt_quant_gpu_name": "Ref GPU",
    "kv_per_seq_gb": 0.5, "kv_total_gb": 0.5, "kv_exceeds_weights": False, "context_avg_given": False,
    "context_avg": 4096,
}

_CANDIDATE: dict[str, Any] = {
    "gpu_id": "test-gpu", "gpu_name": "Test GPU", "architecture": "hopper", "vendor": "nvidia",
    "segment": "datacenter", "is_consumer": False, "ecc": True, "nvlink": True, "bf16_supported": True,
    "fp8_supported": False, "gpu_memory_gb": 48.0, "interconnect_gbps": 450.0, "interconnect_name": "NVLink 4", "count": 1, "nodes": 1,
    "strategy": "single", "tp": 1, "pp": 1, "dp": 1, "sharded": False, "zero_stage": 0, "checkpointing": "none",
    "acquisition": "rent", "owned": False, "on_prem": False, "fits": True, "mem_total_gib": 20.0, "capacity_gib": 44.0, "headroom_frac": 0.5,
    "headroom_gib": 24.0, "kv_share": 0.0, "kv_cache_gib": 0.0, "kv_8bit": False,
    "time_days": 1.0, "long_run": False,
    "misses_deadline": False, "deadline_frac": 0.03, "tokens_per_s": 100.0,
    "max_concurrency": 10, "serves_concurrency": True, "too_slow_per_user": False, "ttft_too_long": False,
    "power_kw": 1.0,
    "facility_kw": 1.3, "node_kw": 1.0, "exceeds_rack": False,
    "rack_load_frac": 0.05, "rack_density_kw": 1.0, "tdp_w": 300.0,
    "cost_usd": 100.0, "buy_usd": 30_000.0,
    "rent_usd": 100.0, "has_rent_price": True,
    "rent_vs_buy": 0.003, "breakeven_days": 5000.0, "utilization_pct": 50.0, "over_budget": False, "budget_frac": 0.001, "crosses_pcie_tp": False,
    "multi_node": False, "ownership_usd": 31_000.0, "licence_blocked": False, "export_blocked": False,
    "export_controlled_cn": False, "bought_used": False, "passive_in_desk": False, "eight_bit_optimizer": False,
    "cpu_offload": False, "micro_batch": 1, "pure_bf16": False, "fp8_base": False,
}


def build_fact(scope: str, fact_id: str | None = None, **overrides: Any) -> dict[str, Any]:
    """A complete quiet fact of `scope` ('profile' or 'candidate') with `overrides` applied."""
    extra = _PROFILE if scope == "profile" else _CANDIDATE
    fact = {**copy.deepcopy(_BOTH), **copy.deepcopy(extra), "kind": scope, "id": fact_id or scope}
    fact.update(overrides)
    return fact


@pytest.fixture
def make_fact() -> Callable[..., dict[str, Any]]:
    return build_fact
