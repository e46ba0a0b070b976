"""The chat's "ruled out" line: one reason per option, and options ruled out for the same reason share it."""

from __future__ import annotations

from advisor import report
from advisor.models import Profile
from advisor.recommend import recommend

# A mainland buyer serving a 32B model with room in the budget (so that what is over it does not come first): the
# export rule rules out several NVIDIA data-centre cards at once
# (the export-controlled list is in knowledge/findings.yaml, cost.export-controlled).
MAINLAND = Profile.model_validate({
    "language": "zh-Hans", "task": "inference", "model": "qwen2.5-32b", "concurrency": 60,
    "context_tokens": 16384, "budget_amount": 1500000, "budget_currency": "CNY", "budget_usd": 208900,
    "acquisition": "buy", "deployment": "on-prem", "rack_kw": 8, "cooling": "air", "horizon_days": 1095,
})


def _rejected_line(text: str, label: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"**{label}**"))


def test_the_same_reason_is_said_once_for_the_options_it_rules_out() -> None:
    rec = recommend(MAINLAND)
    line = _rejected_line(report.render(rec, "chat"), "已排除")
    shown = rec.rejected[:3]
    for r in shown:
        assert f"{r.count} × {r.gpu_name}" in line
    export = [r for r in shown if r.reasons and r.reasons[0].rule_id == "cost.export-controlled"]
    assert len(export) >= 2, "the case must rule out several cards by the export rule to test anything"
    assert line.count("ECCN") <= 1 and line.count("出口") == 1, line


def test_over_budget_options_keep_each_their_own_price() -> None:
    profile = MAINLAND.model_copy(update={"language": "en", "budget_currency": "USD", "budget_amount": 40000,
                                          "budget_usd": 40000})
    rec = recommend(profile)
    line = _rejected_line(report.render(rec, "chat", "en"), "Ruled out")
    over = [r for r in rec.rejected[:3] if r.reasons and r.reasons[0].rule_id.startswith("cost.over")]
    assert len(over) >= 2, line
    assert line.count("above your budget") == len(over), line


def test_options_sharing_a_reason_are_listed_as_one_group() -> None:
    # "A；B（需要出口许可证）" reads as if A had no reason at all; "A、B（…）" groups them under the one reason.
    rec = recommend(MAINLAND)
    line = _rejected_line(report.render(rec, "chat"), "已排除")
    first, second = rec.rejected[0], rec.rejected[1]
    assert first.reasons[0].rule_id == second.reasons[0].rule_id == "cost.export-controlled", line
    assert f"{first.count} × {first.gpu_name}、{second.count} × {second.gpu_name}" in line, line
