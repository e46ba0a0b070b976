"""Fixtures for the conversation tests: a fast stand-in recommender and a private state folder."""

from __future__ import annotations

import pytest

from advisor.consultation import Consultation as Conversation
from advisor.models import Candidate, Finding, MemoryBreakdown, Profile, Recommendation

GIB = 1024**3


def fake_recommend(profile: Profile) -> Recommendation:
    """A stand-in with the real types: 8 x H100 when the budget reaches $100k, else one RTX 4090."""
    big = (profile.budget_usd or 0) >= 100_000
    gpu, name, count, cost = ("h100-sxm", "NVIDIA H100 SXM5 80GB", 8, 250_000.0) if big else \
        ("rtx-4090", "NVIDIA GeForce RTX 4090", 1, 2_500.0)
    memory = MemoryBreakdown(weights=14 * GIB, gradients=0, optimizer=0, activations=4 * GIB, kv_cache=0,
                             overhead=GIB)
    cand = Candidate(
        gpu=gpu, gpu_name=name, count=count, strategy="fsdp" if big else "single", acquisition="buy",
        memory_per_gpu=memory, capacity_bytes=(80 if big else 24) * 10**9, fits=True, time_hours=12.0,
        power_w=600.0 * count, facility_w=840.0 * count, cost_usd=cost,
        findings=(Finding(rule_id="memory.tight-headroom", severity="tip", words="memory.tight-headroom",
                          bindings={"gpu_name": name, "mem_total_gib": 19.0, "capacity_gib": 22.4, "headroom_gib": 3.4},
                          cites=("vram-components",)),),
    )
    return Recommendation(profile=profile, recommendations=(cand,))


class FakeConsultation(Conversation):
    """The consultation service with the stand-in recommender injected (as the TUI or a test would)."""

    def __init__(self, *args, **kwargs):
        if kwargs.get("recommender") is None:
            kwargs["recommender"] = fake_recommend
        if kwargs.get("examiner") is None:  # "why not X?" answered from the stand-in's recommendation alone
            kwargs["examiner"] = lambda profile, gpu, count: None
        super().__init__(*args, **kwargs)


@pytest.fixture(autouse=True)
def _state_dir(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """Every test saves its session under its own tmp folder, never in the user's home."""
    monkeypatch.setenv("GPU_ADVISOR_STATE", str(tmp_path / "state"))
    return tmp_path / "state"
