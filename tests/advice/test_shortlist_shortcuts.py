"""The shortlist's shortcut (issue #13/#16 speed) changes no result: the per-profile limit check the shortlist uses
(`_hard_ok_for`) answers as `_hard_ok`, which reads the same fields the rules get (`_derived`), on every option of
the expert consultations and of profiles built to break each limit."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from advisor import recommend as rec
from advisor.core import planner
from advisor.knowledge import knowledge
from advisor.models import Profile
from tools.advice_cases import load_cases, profile_of

LIMITS = [
    {"task": "inference", "model": "llama-3-8b", "concurrency": 64, "min_tokens_per_s_per_user": 30.0,
     "max_ttft_s": 0.5, "budget_usd": 40_000, "deployment": "on-prem", "cooling": "air", "rack_kw": 6,
     "budget_currency": "CNY"},
    {"task": "finetune", "model": "llama-3-8b", "tokens": 1_000_000_000, "deadline_days": 3, "rack_kw": 3.0,
     "cooling": "air", "region": "cn"},
    {"task": "lora", "model": "mistral-7b", "deployment": "cloud", "budget_usd": 50},
    {"task": "inference", "model": "qwen2.5-7b", "concurrency": 4, "max_ttft_s": 0.05},
    {"task": "inference", "model": "llama-3-70b", "concurrency": 64, "min_tokens_per_s_per_user": 20.0},
]


def _profiles() -> list[tuple[str, Profile]]:
    out = [(c["id"], profile_of(c)) for c in load_cases()]
    out += [(f"limits-{i}", Profile(language="en", **fields)) for i, fields in enumerate(LIMITS)]
    return out


@pytest.mark.parametrize(("name", "profile"), _profiles(), ids=lambda v: v if isinstance(v, str) else "")
def test_the_shortlist_limit_check_answers_as_the_facts_do(name: str, profile: Profile) -> None:
    kb = knowledge()
    w = rec._workload(profile, kb)  # every profile here names a usable model
    options = rec._options(planner.sweep(w, list(kb.gpus.values())), profile, kb, w)
    fast = rec._hard_ok_for(profile)
    assert options
    for o in options:
        assert fast(o) == rec._hard_ok(o, profile), (name, o.label, o.acquisition)
