"""A hand-built Recommendation for the report tests: the reports are checked on known figures, not on the
output of `recommend` (which is tested on its own).

Figures used:
- Mistral-7B-v0.1 has 7,241,732,096 parameters (Hugging Face model card, safetensors metadata);
  in bf16 its weights are 2 bytes each = 14,483,464,192 bytes = 13.49 GiB.
- The H100 SXM5 "80GB" (NVIDIA H100 datasheet) carries 80 GiB of HBM3 = 85,899,345,920 bytes
  (nvidia-smi shows 81,559 MiB of it); the fixture uses the full 80 GiB as the capacity.
- The RTX 4090 "24GB" (NVIDIA product page) carries 24 GiB of GDDR6X = 25,769,803,776 bytes.
"""

from __future__ import annotations

import pytest

from advisor.knowledge import knowledge
from advisor.models import Candidate, Finding, MemoryBreakdown, Profile, Recommendation, Rejected

MISTRAL_7B_PARAMS = 7_241_732_096
MISTRAL_7B_BF16_WEIGHTS_BYTES = 2 * MISTRAL_7B_PARAMS


def cite_id() -> str:
    """A knowledge entry that exists (the first one), so citations resolve to a real title."""
    return next(iter(knowledge().entries))


# Findings as `recommend` makes them — rule, severity, the fact values bound, citations — and no words: the
# reports word them from knowledge/findings.yaml in the reader's language.
FINDINGS = {
    "fits": dict(rule_id="precision.fp8-available", severity="tip", words="precision.fp8-available",
                 bindings={"gpu_name": "NVIDIA H100 SXM5 80GB", "architecture": "hopper"}),
    "no-ecc": dict(rule_id="reliability.no-ecc-long-run", severity="warning", words="reliability.no-ecc-long-run",
                   bindings={"gpu_name": "NVIDIA GeForce RTX 4090", "time_days": 5.4}),
    "does-not-fit": dict(rule_id="memory.does-not-fit", severity="critical", words="memory.does-not-fit", reject=True,
                         bindings={"gpu_name": "NVIDIA T4", "count": 1, "strategy": "single", "mem_total_gib": 24.3,
                                   "capacity_gib": 14.6}),
    "volatility": dict(rule_id="cost.price-volatility", severity="info", words="cost.price-volatility", bindings={}),
}


def make_recommendation(language: str = "en", model_text: str = "Mistral 7B") -> Recommendation:
    cite = cite_id()
    profile = Profile(
        language=language, task="lora", model="mistral-7b", model_text=model_text, params=MISTRAL_7B_PARAMS,
        tokens=50_000_000, epochs=2, seq_len=4096, budget_usd=30_000, budget_amount=210_000, budget_currency="CNY",
        acquisition="either", deployment="on-prem", rack_kw=12, cooling="air",
    )
    h100 = Candidate(
        gpu="h100-sxm", gpu_name="NVIDIA H100 SXM5 80GB", count=1, strategy="single", acquisition="rent",
        memory_per_gpu=MemoryBreakdown(
            weights=MISTRAL_7B_BF16_WEIGHTS_BYTES, gradients=40_000_000, optimizer=240_000_000,
            activations=9_800_000_000, kv_cache=0, overhead=1_500_000_000,
        ),
        capacity_bytes=85_899_345_920, fits=True,
        time_hours=3.2, time_hours_low=2.5, time_hours_high=4.1,
        power_w=1_200, facility_w=1_680, cost_usd=12_345, buy_usd=42_000, rent_usd=12_345, energy_usd=0.65,
        findings=(
            Finding(**FINDINGS["fits"], cites=(cite,)),
        ),
    )
    rtx = Candidate(
        gpu="rtx-4090", gpu_name="NVIDIA GeForce RTX 4090", count=2, strategy="ddp", acquisition="buy",
        memory_per_gpu=MemoryBreakdown(
            weights=MISTRAL_7B_BF16_WEIGHTS_BYTES, gradients=40_000_000, optimizer=240_000_000,
            activations=6_100_000_000, kv_cache=0, overhead=1_200_000_000,
        ),
        capacity_bytes=25_769_803_776, fits=True,
        time_hours=130.0, time_hours_low=100.0, time_hours_high=160.0,
        power_w=1_500, facility_w=2_100, cost_usd=6_900, buy_usd=6_900, rent_usd=100, energy_usd=33,
        findings=(
            Finding(**FINDINGS["no-ecc"], cites=(cite, "no-such-entry")),
        ),
    )
    rejected = (
        Rejected(gpu="t4", gpu_name="NVIDIA T4", count=1, strategy="single", reasons=(
            Finding(**FINDINGS["does-not-fit"], cites=(cite,)),
        )),
    )
    findings = (
        Finding(**FINDINGS["volatility"], cites=(cite,)),
    )
    return Recommendation(
        profile=profile, recommendations=(h100, rtx), rejected=rejected, findings=findings,
        assumptions={"mfu": 0.4, "exchange_rates": "1 USD = 7.0 CNY (2026-08)", "checkpointing": "selective"},
    )


@pytest.fixture
def rec() -> Recommendation:
    return make_recommendation()
