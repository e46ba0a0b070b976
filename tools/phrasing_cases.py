"""Score the conversation's reading of real users' messages against a hand-written table.

Why: people write "預算抓 30 萬", "2w条数据", "这个月底前", "三台機器每台 4 張 A6000"; the advisor is only as good
as its reading of them. `tests/conversation/data/phrasing_cases.yaml` (398 messages in zh-Hans, zh-Hant and en,
modelled on public posts listed in phrasing_sources.md, expectations written by hand before any parser ran)
holds, per message, what a careful human reads from it. This script sends each message through the real
dialogue (`advisor.conversation.dialogue`), as a first message, as the answer to a question, or as a follow-up
after a recommendation, and compares the profile it builds with the expectation — the keys listed must
match, the keys not listed must stay unset. `tests/conversation/test_phrasing_cases.py` asserts the same.

    .venv/bin/python tools/phrasing_cases.py [--case hant-001] [--locale zh-Hant] [--fails] [--half even|odd]
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import math
import os
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CASES = Path(os.environ.get("PHRASING_CASES", ROOT / "tests" / "conversation" / "data" / "phrasing_cases.yaml"))

TODAY = "2026-12-01"
"""The cases count calendar deadlines from this day (a Tuesday); GPU_ADVISOR_TODAY pins the parser to it."""

PROFILE_KEYS = (
    "task", "model", "params", "tokens", "samples", "seq_len", "epochs", "concurrency", "context_tokens",
    "requests_per_second", "precision", "weights_dtype", "kv_dtype", "acquisition", "deployment", "cooling",
    "rack_kw", "budget_amount", "budget_currency", "deadline_days", "horizon_days", "owned_gpus",
    "electricity_usd_per_kwh", "min_tokens_per_s_per_user", "max_ttft_s", "host_owned", "max_gpus",
)
"""Keys compared. Keys not in `expect` must keep the value the profile had before the message."""

DERIVED = {
    "samples": ("tokens", "seq_len"),
    "concurrency": ("context_tokens",),
    "context_tokens": ("concurrency",),
    "requests_per_second": ("concurrency", "context_tokens"),
    "max_ttft_s": ("concurrency", "context_tokens"),
    "min_tokens_per_s_per_user": ("concurrency", "context_tokens"),
}
"""A partial answer takes the rest of its question from the default (the dialogue's documented behaviour:
"10 萬筆對話" gets the default sequence length, "30 users" the default context): those keys are not misread."""

BASE_FOLLOWUP = {"task": "lora", "model": "llama-3-8b", "params": 8_030_261_248, "language": "en"}
"""The profile a follow-up is sent after (a recommendation was made for it); a serving one when the follow-up
changes serving figures (people correct the load of a service, not of a training run)."""
SERVING_KEYS = {"concurrency", "context_tokens", "requests_per_second", "weights_dtype", "kv_dtype",
                "min_tokens_per_s_per_user", "max_ttft_s"}


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    return list(yaml.safe_load(path.read_text(encoding="utf-8")))


def _profile_value(profile: Any, key: str) -> Any:
    if key == "owned_gpus":
        return sorted((o.gpu, o.count) for o in profile.owned_gpus)
    return getattr(profile, key, None)


def _expected_value(expect: dict[str, Any], key: str) -> Any:
    if key == "owned_gpus":
        return sorted((o["gpu"], o["count"]) for o in expect["owned_gpus"])
    return expect[key]


def _same(got: Any, want: Any, tol: float | None) -> bool:
    if want is None:
        return got is None
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            return False
        rel = tol if tol is not None else 1e-6
        return math.isclose(float(got), float(want), rel_tol=rel, abs_tol=1e-9)
    if isinstance(want, str) and isinstance(got, str):
        return got.lower() == want.lower()
    return got == want


def _electricity(expect: dict[str, Any]) -> float | None:
    from advisor.currency import to_usd

    if "electricity_amount" in expect:
        return to_usd(float(expect["electricity_amount"]), expect.get("electricity_currency") or "USD")
    return None


def run_case(case: dict[str, Any]) -> tuple[dict[str, tuple[Any, Any]], Any]:
    """Send the case's message through the dialogue; return ({key: (got, want)} of the mismatches, the turn)."""
    os.environ["GPU_ADVISOR_TODAY"] = TODAY
    from advisor.conversation import dialogue as D
    from advisor.models import Profile

    locale = case["locale"]
    kind, question = case["kind"], case.get("question")
    if kind == "followup":
        serving = bool(SERVING_KEYS & set(case.get("expect") or {}))
        fields = {**BASE_FOLLOWUP, "language": locale, **({"task": "inference"} if serving else {})}
        base = Profile.model_validate(fields)
        state = D.State(locale=locale, profile=base, stage="advise", pending=None, started=True,
                        answered=frozenset(q.key for q in _questions()), auto_language=False)
    else:
        state = D.start(D.State.new(locale, auto_language=False)).state
        base = state.profile
        if kind == "answer" and question and question != "owned":
            state = dataclasses.replace(state, pending=question)
    turn = D.handle(state, case["text"])
    after = turn.state.whatif or turn.state.profile
    expect = dict(case.get("expect") or {})
    tol = case.get("tolerance") or {}
    misses: dict[str, tuple[Any, Any]] = {}
    refuse_field = expect.pop("refuse_field", None) if expect.pop("refuse", False) else None
    if refuse_field:
        field = "budget_amount" if refuse_field in ("budget_usd",) else refuse_field
        errors = [r for r in turn.replies if r.kind == "error"] or [
            r for r in turn.replies if r.kind == "question" and r.text]
        if _profile_value(after, field) not in (None, _profile_value(base, field)) or not errors:
            misses[f"refuse:{field}"] = (_profile_value(after, field), "re-ask")
    want_kwh = _electricity(expect)
    expect.pop("electricity_amount", None)
    expect.pop("electricity_currency", None)
    if want_kwh is not None:
        expect["electricity_usd_per_kwh"] = want_kwh
        tol.setdefault("electricity_usd_per_kwh", 0.03)
    derived = {d for k in expect for d in DERIVED.get(k, ())}
    for key in PROFILE_KEYS:
        if key == refuse_field or (key in derived and key not in expect):
            continue
        got = _profile_value(after, key)
        if key in expect:
            want = _expected_value(expect, key)
            t = tol.get(key)
            if key == "params" and t is None:
                t = 0.1  # "32B" is 32.8 B when the catalogue knows the model
            if not _same(got, want, t):
                misses[key] = (got, want)
        elif key not in ("electricity_usd_per_kwh",) or want_kwh is None:
            before = _profile_value(base, key)
            if got != before and not (key == "params" and "model" in expect) \
                    and not (key == "budget_amount" and "budget_amount" in expect):
                misses[key] = (got, "unchanged")
    return misses, turn


def _questions():
    from advisor.conversation import questions as Q

    return Q.QUESTIONS


def score(cases: list[dict[str, Any]]) -> tuple[int, list[tuple[dict[str, Any], dict[str, tuple[Any, Any]]]]]:
    passed, fails = 0, []
    for case in cases:
        try:
            misses, _ = run_case(case)
        except Exception as exc:  # noqa: BLE001 - a crash is a failed case, reported as such
            misses = {"error": (f"{type(exc).__name__}: {exc}", "no error")}
        if misses:
            fails.append((case, misses))
        else:
            passed += 1
    return passed, fails


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case")
    parser.add_argument("--locale")
    parser.add_argument("--kind")
    parser.add_argument("--half", choices=("even", "odd"), help="cases whose number is even or odd")
    parser.add_argument("--fails", action="store_true", help="print every failing case")
    parser.add_argument("--file", type=Path, default=CASES, help="another table of the same schema")
    args = parser.parse_args(argv)
    cases = load_cases(args.file)
    if args.case:
        cases = [c for c in cases if c["id"] == args.case]
    if args.locale:
        cases = [c for c in cases if c["locale"] == args.locale]
    if args.kind:
        cases = [c for c in cases if c["kind"] == args.kind]
    if args.half:
        cases = [c for c in cases if int(c["id"].rsplit("-", 1)[1]) % 2 == (0 if args.half == "even" else 1)]
    passed, fails = score(cases)
    by_key: collections.Counter[str] = collections.Counter()
    for _, misses in fails:
        by_key.update(misses.keys())
    if args.fails or args.case:
        for case, misses in fails:
            print(f"{case['id']:9} [{case['kind']}/{case.get('question')}] {case['text'][:90]}")
            for key, (got, want) in misses.items():
                print(f"    {key}: got {got!r}, want {want!r}")
    print("failing keys:", ", ".join(f"{k} {n}" for k, n in by_key.most_common()))
    by_loc = collections.Counter(c["locale"] for c in cases)
    fail_loc = collections.Counter(c["locale"] for c, _ in fails)
    print("per locale:", ", ".join(f"{loc} {by_loc[loc] - fail_loc[loc]}/{by_loc[loc]}" for loc in sorted(by_loc)))
    print(f"{passed}/{len(cases)} messages read as a careful human reads them")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
