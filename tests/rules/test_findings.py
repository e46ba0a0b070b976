"""The words behind the rules: every finding exists in three languages, fills only what its rule
binds, cites knowledge that exists, and reads as mainland or Taiwan Chinese as it should."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from advisor.i18n import SIMPLIFIED_ONLY, TRADITIONAL_ONLY
from advisor.knowledge import load_knowledge
from advisor.models import LOCALES, Finding
from advisor.rules_engine import load_rules
from advisor.words import SPECS, finding_words, placeholder_specs, placeholders

REPO = Path(__file__).resolve().parents[2]
KB = load_knowledge()
RULES = load_rules()

# Terms that mark the other variety (shared/reference/advisory-anchors.md §6; DESIGN.md conventions).
MAINLAND_ONLY_TERMS = ("推理", "集群", "软件", "軟件", "默认", "默認", "支持", "优化", "優化", "内存", "內存",
                       "带宽", "帶寬", "数据", "數據", "视频", "服务器", "服務器", "信息")
TAIWAN_ONLY_TERMS = ("推論", "叢集", "軟體", "預設", "支援", "最佳化", "頻寬", "記憶體", "資料", "伺服器", "資訊")


def _texts_of_mine() -> list[tuple[str, str, str]]:
    """(where, locale, text) for every string this piece owns: findings, recommend UI, rules entries."""
    out = []
    for f in KB.findings.values():
        for loc in LOCALES:
            out.append((f"finding {f.id} title", loc, f.title.get(loc)))
            out.append((f"finding {f.id} text", loc, f.text.get(loc)))
    ui = yaml.safe_load((REPO / "knowledge" / "ui" / "recommend.yaml").read_text(encoding="utf-8"))
    for key in ui:
        for loc in LOCALES:
            out.append((f"ui {key}", loc, KB.ui[key].get(loc)))
    entries = yaml.safe_load((REPO / "knowledge" / "entries" / "rules.yaml").read_text(encoding="utf-8"))
    for item in entries:
        entry = KB.entries[item["id"]]
        for loc in LOCALES:
            out.append((f"entry {entry.id}", loc, entry.title.get(loc) + entry.text.get(loc)))
    return out


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_finding_exists_in_three_languages_and_uses_only_bound_fields(rule) -> None:
    words = KB.findings.get(rule.finding)
    assert words is not None, f"{rule.id}: finding {rule.finding!r} missing from knowledge/findings.yaml"
    seen = set()
    for loc in LOCALES:
        title, text = words.title.get(loc), words.text.get(loc)
        assert title.strip() and text.strip()
        used = placeholders(title) | placeholders(text)
        assert used <= set(rule.bind), f"{rule.id} [{loc}] uses {used - set(rule.bind)} that the rule does not bind"
        assert placeholder_specs(title + text) <= SPECS, f"{rule.id} [{loc}]: unknown placeholder spec"
        seen |= used
        # worded with numbers for every bound value, it leaves no brace behind
        finding = Finding(rule_id=rule.id, severity=rule.severity, words=rule.finding,
                          bindings={name: 7.5 for name in rule.bind})
        filled = " ".join(finding_words(finding, loc))
        assert "{" not in filled and "}" not in filled
    assert seen == set(rule.bind), f"{rule.id} binds {set(rule.bind) - seen} that no text uses"


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_every_cited_knowledge_entry_exists(rule) -> None:
    missing = [c for c in rule.cites if c not in KB.entries]
    assert not missing, f"{rule.id} cites unknown knowledge ids {missing}"


def test_no_finding_text_is_orphaned() -> None:
    assert set(KB.findings) == {r.finding for r in RULES}


def test_locales_use_their_own_script_and_vocabulary() -> None:
    problems = []
    for where, loc, text in _texts_of_mine():
        if loc == "zh-Hant":
            bad = [ch for ch in text if ch in SIMPLIFIED_ONLY] + [t for t in MAINLAND_ONLY_TERMS if t in text]
        elif loc == "zh-Hans":
            bad = [ch for ch in text if ch in TRADITIONAL_ONLY] + [t for t in TAIWAN_ONLY_TERMS if t in text]
        else:
            bad = [ch for ch in text if "\u4e00" <= ch <= "\u9fff"]
        if bad:
            problems.append(f"{where} [{loc}]: {bad}")
    assert not problems, "\n".join(problems)


def test_severity_and_reject_are_consistent() -> None:
    # An option can only be rejected by a rule that says how bad it is; facts the rules reject
    # on are the hard limits of DESIGN.md (memory, budget, deadline, rack power, cooling, users), the serving
    # targets the user set (speed per user, time to first token, the most GPUs they will have), the two legal
    # ones (the GeForce driver licence, US export rules for mainland China) and a company's purchasing (new, with
    # a warranty: no second-hand cards).
    rejecting = {r.id for r in RULES if r.reject}
    assert rejecting == {"memory.does-not-fit", "cost.over-budget", "cost.deadline-missed", "facility.exceeds-rack",
                         "facility.exceeds-psu",
                         "cost.more-gpus-than-wanted", "cost.used-for-company",
                         "facility.air-limit", "inference.concurrency-short", "cost.geforce-datacenter",
                         "cost.export-controlled", "cost.china-market-only", "inference.too-slow-per-user",
                         "inference.ttft-too-long", "inference.too-few-requests"}
    for r in RULES:
        if r.reject:
            assert r.severity in ("warning", "critical")
