"""Score the advisor's top pick against expert consultations written before the tool ran.

Why: an advisor is worth as much as its top pick. `tests/advice/expert_cases.yaml` holds consultations,
each with an expert's bounds on the best answer (acceptable GPUs and counts, refused picks, buy or rent,
power and cost ceilings) and the arithmetic and sources behind them. This script runs each profile
through the real pipeline (`advisor.recommend.recommend`) and prints, per case, which bounds hold.
`tests/advice/test_expert_cases.py` asserts the same checks.

    .venv/bin/python tools/advice_cases.py [--case exp-07] [--verbose]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CASES = ROOT / "tests" / "advice" / "expert_cases.yaml"


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return list(data["cases"])


def profile_of(case: dict[str, Any]):
    from advisor.conversation.parsers import extract
    from advisor.models import Profile

    fields = dict(case["profile"])
    fields.setdefault("language", case.get("language", "en"))
    if case.get("message"):  # what the message says that the case's writer had no key for, as the parser reads it
        read = extract(case["message"], fields["language"])
        fields.setdefault("preferred_gpus", read.get("preferred_gpus", ()))
        fields.setdefault("company", read.get("company", False))
        fields.setdefault("redundant", read.get("redundant", False))
    return Profile.model_validate(fields)


def check(case: dict[str, Any], rec) -> dict[str, bool | None]:
    """Each bound of the expert's answer: True (holds), False (broken), None (not stated)."""
    exp = case["expert"]
    top = rec.recommendations[0] if rec.recommendations else None
    nothing = top is None or any(f.rule_id == "outcome.near-misses" for f in rec.findings)
    out: dict[str, bool | None] = {}
    if exp.get("expect_feasible") is False:
        out["infeasible"] = nothing
        return out
    out["feasible"] = not nothing
    if top is None:
        return out
    if exp.get("gpu_any_of"):
        out["gpu"] = top.gpu in exp["gpu_any_of"]
    if exp.get("gpu_none_of"):
        out["not_refused"] = top.gpu not in exp["gpu_none_of"]
    if exp.get("count_range"):
        lo, hi = exp["count_range"]
        out["count"] = lo <= top.count <= hi
    acq = exp.get("acquisition")
    if acq in ("buy", "rent") and not exp.get("uses_owned"):
        out["acquisition"] = top.acquisition == acq
    if exp.get("uses_owned"):
        owned = {o["gpu"] for o in case["profile"].get("owned_gpus", [])}
        out["uses_owned"] = top.gpu in owned
    if exp.get("max_power_kw") is not None:
        out["power"] = top.power_w <= exp["max_power_kw"] * 1000 * 1.0001
    if exp.get("cost_usd_max") is not None:
        out["cost"] = top.cost_usd <= exp["cost_usd_max"] * 1.0001 + (1.0 if exp["cost_usd_max"] == 0 else 0.0)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case")
    parser.add_argument("--cases", type=Path, default=CASES, help="the consultations file (default: %(default)s)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    from advisor.recommend import recommend

    passed = 0
    cases = [c for c in load_cases(args.cases) if not args.case or c["id"] == args.case]
    for case in cases:
        try:
            rec = recommend(profile_of(case))
        except Exception as exc:  # noqa: BLE001 - a case that cannot run is reported, not raised
            print(f"{case['id']:7} ERROR {type(exc).__name__}: {exc}")
            continue
        result = check(case, rec)
        ok = all(v is not False for v in result.values())
        passed += ok
        top = rec.recommendations[0] if rec.recommendations else None
        pick = (f"{top.count}x {top.gpu} {top.strategy} {top.acquisition} ${top.cost_usd:,.0f} "
                f"{top.power_w / 1000:.1f}kW") if top else "nothing"
        bad = [k for k, v in result.items() if v is False]
        print(f"{case['id']:7} {'PASS' if ok else 'FAIL'}  {pick:60} {' '.join(bad)}")
        if args.verbose:
            print(f"        expert: {case['expert']}")
            for c in rec.recommendations[1:]:
                print(f"        alt: {c.count}x {c.gpu} {c.strategy} {c.acquisition} ${c.cost_usd:,.0f}")
    print(f"{passed}/{len(cases)} consultations answered within the expert's bounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
