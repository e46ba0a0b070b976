"""The sweep's shortcuts (issue #13/#16 speed) change no result: the expected time alone is the same float as
the middle of the whole range, and the search that skips variants picks, on every configuration and GPU, the
variant the plain search over every variant picks."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.core import compute, planner
from advisor.knowledge import knowledge
from advisor.models import Profile

_POSITIVE = st.floats(min_value=1e3, max_value=1e24, allow_nan=False, allow_infinity=False)
_VOLUME = st.one_of(st.just(0.0), _POSITIVE)


@settings(max_examples=300, deadline=None)
@given(
    vol=st.builds(compute.TrainingVolumes, _POSITIVE, _VOLUME, _VOLUME, _VOLUME,
                  st.floats(min_value=0.0, max_value=0.9), st.sampled_from([0.5, 2.0 / 3.0]), _VOLUME,
                  st.one_of(st.just(0.0), st.floats(min_value=1.0, max_value=1e7))),
    count=st.integers(min_value=1, max_value=16384),
    peak=st.floats(min_value=1e12, max_value=5e15),
    mfu=st.tuples(st.floats(0.05, 0.3), st.floats(0.3, 0.5), st.floats(0.5, 0.75)),
    tp_link=st.one_of(st.just(math.inf), st.floats(1e9, 1e12)),
    dp_link=st.floats(1e9, 1e12),
    hbm=st.floats(1e11, 5e12),
)
def test_expected_time_is_the_middle_of_the_range_to_the_bit(vol, count, peak, mfu, tp_link, dp_link, hbm) -> None:
    whole = compute.time_range_s(vol, count, peak, mfu, tp_link, dp_link, hbm)
    assert whole == _plain_time_range(vol, count, peak, mfu, tp_link, dp_link, hbm)
    assert compute.time_expected_s(vol, count, peak, mfu, tp_link, dp_link, hbm) == whole[1]


def _plain_time_range(v, count, peak_flops_per_s, mfu, tp_link_bytes_per_s, dp_link_bytes_per_s, hbm_bytes_per_s):
    """`compute.time_range_s` as it was written before the planner needed it fast (a loop, `max`)."""
    link = compute.LINK_EFFICIENCY
    tp_s = v.tp_bytes / (tp_link_bytes_per_s * link) if v.tp_bytes else 0.0
    dp_s = v.dp_bytes / (dp_link_bytes_per_s * link) if v.dp_bytes else 0.0
    shard_s = v.shard_bytes / (dp_link_bytes_per_s * link) if v.shard_bytes else 0.0
    fixed = tp_s + (v.dequant_bytes / (hbm_bytes_per_s * compute.DECODE_BANDWIDTH_EFFICIENCY)
                    if v.dequant_bytes else 0.0)
    work = v.flops / (count * peak_flops_per_s)
    keep = 1.0 - v.bubble
    share = v.backward_share
    out = []
    for eff in (mfu[2], mfu[1], mfu[0]):
        busy = work / eff
        exposed = max(0.0, dp_s - busy * share) + max(0.0, shard_s - busy)
        out.append((busy + fixed) / keep + exposed + v.host_s)
    return out[0], out[1], out[2]


def _plain_pick(w: planner.Workload, gpu, count: int, tp: int, recs: list, cap: int) -> tuple:
    """The search before the shortcuts: every variant that fits is timed over its whole range."""
    best, best_s = None, math.inf
    host_limit = planner.HOST_RAM_BYTES_SERVER if gpu.segment != "consumer" else planner.HOST_RAM_BYTES_WORKSTATION
    mfu = planner._gpu_count_consts(w, gpu, count)[5]
    tp_link, dp_link = compute.gpu_links(gpu, count, tp)
    peak = planner._gpu_consts(w, gpu)["peak"]
    for rec in recs:
        if rec[2] > cap or rec[4] > host_limit:
            continue
        if rec[3] is None:
            return rec
        seconds = compute.time_range_s(rec[3], count, peak, mfu, tp_link, dp_link, gpu.bandwidth_tbps * 1e12)[1]
        if seconds < best_s * (1.0 - planner.HEAVIER_VARIANT_GAIN):
            best, best_s = rec, seconds
    if best is not None:
        return best
    feasible = [r for r in recs if r[4] <= host_limit] or recs
    return min(feasible, key=lambda r: r[2])


PROFILES = [
    {"task": "finetune", "model": "llama-3-8b", "tokens": 200_000_000},
    {"task": "pretrain", "params": 3_000_000_000, "tokens": 60_000_000_000},
    {"task": "lora", "model": "mistral-7b", "tokens": 50_000_000},
    {"task": "qlora", "model": "llama-3-70b", "tokens": 20_000_000},
    {"task": "finetune", "model": "qwen2.5-3b", "tokens": 10_000_000, "precision": "bf16"},
]


@pytest.mark.parametrize("fields", PROFILES, ids=lambda f: f"{f['task']}-{f.get('model', f.get('params'))}")
def test_the_search_picks_the_variant_the_plain_search_picks(fields) -> None:
    kb = knowledge()
    w = planner.workload_from_profile(Profile(language="en", **fields), kb)
    swept = iter(planner.sweep(w, list(kb.gpus.values())))
    for gpu in kb.gpus.values():
        cap = planner._gpu_consts(w, gpu)["cap"]
        for count, rows in planner._training_plan(w):
            for strategy, tp, pp, dp, recs in rows:
                if tp > max(1, gpu.max_per_node):
                    continue
                plain = _plain_pick(w, gpu, count, tp, recs, cap)
                expected = planner._training_metrics(w, gpu, count, strategy, tp, pp, dp, plain, cap, {})
                assert next(swept) == expected, (gpu.id, count, strategy)
    assert next(swept, None) is None


def test_a_fresh_copy_of_a_workload_sweeps_the_same() -> None:
    kb = knowledge()
    w = planner.workload_from_profile(Profile(language="en", task="finetune", model="llama-3-8b"), kb)
    gpus = list(kb.gpus.values())
    assert planner.sweep(w, gpus) == planner.sweep(dataclasses.replace(w), gpus) == planner.sweep(w, gpus)


def _plain_serving_pick(w: planner.Workload, gpu, count: int, ladder: list[tuple]) -> planner.CandidateMetrics:
    """The serving pick without the shortcut: every rung's numbers built; the first that serves everyone with
    `TIGHT_HEADROOM` of the card free, else the first that serves everyone at all, else the last rung."""
    built = [planner._inference_metrics(w, gpu, count, option) for option in ladder]
    serving = [m for m in built if m.fits and (m.max_concurrency is None or m.max_concurrency >= w.concurrency)]
    roomy = [m for m in serving if m.headroom_bytes >= planner.TIGHT_HEADROOM * m.capacity_bytes]
    return (roomy or serving or built[-1:])[0]


SERVING = [
    {"task": "inference", "model": "llama-3-70b", "concurrency": 500, "context_tokens": 16_384},
    {"task": "inference", "model": "qwen2.5-7b", "concurrency": 20, "context_tokens": 8_192},
    {"task": "inference", "model": "llama-3-8b", "concurrency": 4, "weights_dtype": "int4"},
    {"task": "inference", "model": "llama-3-70b", "concurrency": 64, "context_tokens": 128_000},
]


@pytest.mark.parametrize("fields", SERVING, ids=lambda f: f"{f['model']}-{f['concurrency']}")
def test_the_serving_pick_matches_building_every_rung(fields, monkeypatch) -> None:
    kb = knowledge()
    w = planner.workload_from_profile(Profile(language="en", **fields), kb)
    gpus = list(kb.gpus.values())
    swept = planner.sweep(w, gpus)
    monkeypatch.setattr(planner, "_serving_pick", _plain_serving_pick)
    assert swept == planner.sweep(dataclasses.replace(w), gpus)


def test_the_fast_constructor_makes_the_same_frozen_candidate() -> None:
    kb = knowledge()
    w = planner.workload_from_profile(Profile(language="en", task="lora", model="mistral-7b"), kb)
    for m in planner.sweep(w, [kb.gpus["h100-sxm"], kb.gpus["rtx-4090"]])[:50]:
        values = [getattr(m, f.name) for f in dataclasses.fields(m)]
        plain = planner.CandidateMetrics(*values)
        fast = planner._new_metrics(*values)
        assert type(fast) is planner.CandidateMetrics
        assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
        assert dataclasses.asdict(fast) == dataclasses.asdict(plain)
        assert dataclasses.replace(fast, count=7) == dataclasses.replace(plain, count=7)
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.count = 3  # type: ignore[misc]
