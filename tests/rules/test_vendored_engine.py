"""Our build of durable-rules (vendor/durable_rules, PATCHES.md there): it is the one installed, and
each thing it fixes stays fixed. The crash tests run in a child process and fail if it dies by a
signal; on upstream 2.0.28 each of them crashed (PATCHES.md has the counts)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

from advisor.rules_engine import RuleEngine

REPO = Path(__file__).resolve().parents[2]
SCHEMA = (REPO / "rules" / "_facts.yaml").read_text(encoding="utf-8")


def _run_child(script: str, *args: str, timeout: float = 60) -> str:
    proc = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True,
                          cwd=REPO, timeout=timeout)
    assert proc.returncode >= 0, f"durable-rules died by signal {-proc.returncode}: {proc.stderr[-2000:]}"
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_the_installed_engine_is_our_build() -> None:
    import durable_rules_engine
    from durable import engine, lang  # noqa: F401 - the names advisor/rules_engine.py uses

    assert metadata.version("durable-rules").endswith("+gpuadvisor.1")
    assert hasattr(engine, "Host") and hasattr(engine, "MessageNotHandledException")
    assert Path(durable_rules_engine.__file__).suffix in (".so", ".pyd")


# Upstream #381's own rules, through durable.lang as the issue wrote them, fed random events. The
# second rule's last test (`amount < first.amount`) failing made reduceExpressionSequence read past
# the node pool: upstream crashed in 24 of 30 such runs on Python 3.11.
JOIN_381 = r'''
import random, sys, warnings
warnings.simplefilter("error")  # no DeprecationWarning either (utcfromtimestamp on 3.12+)
from durable.lang import ruleset, when_all, c, m, post
from durable.engine import MessageNotHandledException

hits = []
with ruleset("metrics"):
    @when_all(c.first << (m.metric == "met-A") & (m.amount > 10),
              c.second << (m.metric == "met-B") & (m.amount > c.first.amount))
    def detected(c):
        hits.append(("gt", c.first.amount, c.second.amount))

    @when_all(c.first << (m.metric == "met-A") & (m.amount > 50),
              c.second << (m.metric == "met-B") & (m.amount < c.first.amount))
    def detected2(c):
        hits.append(("lt", c.first.amount, c.second.amount))

post("metrics", {"metric": "met-A", "amount": 100})  # the issue's two events: a segfault upstream
post("metrics", {"metric": "met-B", "amount": 200})
assert hits == [("gt", 100, 200)], hits
rng = random.Random(int(sys.argv[1]))
for e in range(int(sys.argv[2])):
    for j in range(rng.randint(2, 6)):
        try:
            post("metrics", {"sid": f"s{e}", "id": f"{e}-{j}", "metric": rng.choice(["met-A", "met-B"]),
                             "amount": rng.randint(0, 300)})
        except MessageNotHandledException:
            pass
for kind, first, second in hits:
    assert (second > first) if kind == "gt" else (first > 50 and second < first), (kind, first, second)
print(len(hits))
'''


def test_joins_across_facts_do_not_crash() -> None:
    out = _run_child(JOIN_381, "20261201", "250")
    assert int(out) > 100


# Joins with $and, $or and a nested $or followed by another test, on a quiet host (as
# advisor/rules_engine.py runs it), sessions deleted after each evaluation. Every firing must
# satisfy its rule, and a rule that can fire on the facts does. Upstream let the `nest` rule fire
# whatever `level` was (a nested group did not consume its END) and crashed 28 of 30 such runs on 3.12.
JOIN_RULES = r'''
import random, sys, warnings
warnings.simplefilter("error")
from durable import engine

RULES = {"joins": {
    "gt": {"all": [{"first": {"$and": [{"metric": "A"}, {"$gt": {"amount": 10}}]}},
                   {"second": {"$and": [{"metric": "B"}, {"$gt": {"amount": {"first": "amount"}}}]}}], "run": "gt"},
    "or": {"all": [{"first": {"$and": [{"metric": "C"}]}},
                   {"second": {"$and": [{"metric": "D"}, {"$or": [{"$lt": {"amount": {"first": "amount"}}},
                                                                  {"$gt": {"score": {"first": "score"}}}]}]}}],
           "run": "or"},
    "nest": {"all": [{"first": {"metric": "E"}},
                     {"second": {"$and": [{"metric": "F"},
                                          {"$or": [{"$lt": {"amount": {"first": "amount"}}},
                                                   {"$gt": {"score": {"first": "score"}}}]},
                                          {"$gte": {"level": {"first": "level"}}}]}}], "run": "nest"},
    "seen": {"all": [{"m": {"$gte": {"amount": -1}}}], "run": "seen"},
}}
ORACLE = {
    "gt": (lambda a: a["metric"] == "A" and a["amount"] > 10,
           lambda a, b: b["metric"] == "B" and b["amount"] > a["amount"]),
    "or": (lambda a: a["metric"] == "C",
           lambda a, b: b["metric"] == "D" and (b["amount"] < a["amount"] or b["score"] > a["score"])),
    "nest": (lambda a: a["metric"] == "E",
             lambda a, b: b["metric"] == "F" and (b["amount"] < a["amount"] or b["score"] > a["score"])
             and b["level"] >= a["level"]),
}
fired = []

class Quiet(engine.Host):
    def _run(self):
        return None
    def get_action(self, name):
        if name == "seen":
            return lambda c: None
        return lambda c: fired.append((name, c.first["id"], c.second["id"]))

host = Quiet()
host.set_rulesets(RULES)
rng = random.Random(int(sys.argv[1]))
total = 0
for e in range(int(sys.argv[2])):
    sid = f"s{e}"
    facts = {f"f{j}": {"sid": sid, "id": f"f{j}", "metric": rng.choice("ABCDEF"), "amount": rng.randint(0, 100),
                       "score": rng.randint(0, 10), "level": rng.randint(0, 3)} for j in range(rng.randint(1, 6))}
    fired.clear()
    for fact in facts.values():
        host.assert_fact("joins", fact)
    for name, a, b in fired:
        first, second = ORACLE[name]
        assert a != b and first(facts[a]) and second(facts[a], facts[b]), (name, facts[a], facts[b])
    for name, (first, second) in ORACLE.items():
        if any(first(x) and second(x, y) for x in facts.values() for y in facts.values() if x is not y):
            assert any(f[0] == name for f in fired), (name, facts, fired)
    total += len(fired)
    host.delete_state("joins", sid)
print(total)
'''


def test_joins_with_and_or_and_nested_groups_fire_right_and_do_not_crash() -> None:
    out = _run_child(JOIN_RULES, "20261201", "300")
    assert int(out) > 50


# One rule, and sessions that each receive one fact it does not handle, then are deleted: upstream
# freed the session's never-initialised action buffers ("free(): invalid pointer", segfault) and
# crashed in 30 of 30 such runs of 500 sessions on Python 3.11.
UNHANDLED = r'''
import sys, warnings
warnings.simplefilter("error")
from durable import engine

class Quiet(engine.Host):
    def _run(self):
        return None
    def get_action(self, name):
        return lambda c: None

host = Quiet()
host.set_rulesets({"one": {"r": {"all": [{"m": {"kind": "candidate"}}], "run": "r"}}})
unhandled = 0
for e in range(int(sys.argv[1])):
    sid = f"s{e}"
    try:
        host.assert_fact("one", {"sid": sid, "id": f"{sid}-0", "kind": "profile", "x": e})
    except engine.MessageNotHandledException:
        unhandled += 1
    host.delete_state("one", sid)
print(unhandled)
'''


def test_deleting_sessions_that_got_an_unhandled_fact_does_not_crash() -> None:
    assert int(_run_child(UNHANDLED, "800")) == 800


def test_exponents_without_a_fraction_are_accepted(tmp_path: Path, make_fact) -> None:
    # json.dumps writes 1e-06, 1e-09 and 1e+16 with no decimal point; upstream refused both the
    # rule (error 204 from create_ruleset) and the fact (error 204 from assert_fact).
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "_facts.yaml").write_text(SCHEMA, encoding="utf-8")
    (folder / "tiny.yaml").write_text(textwrap.dedent("""
        - id: test.tiny-headroom
          scope: candidate
          when: {headroom_frac: {lt: 0.000001}}
          finding: memory.does-not-fit
          severity: info
          bind: [headroom_frac]
          cites: [vram-components]
        - id: test.huge-budget
          scope: profile
          when: {budget_usd: {gte: 10000000000000000.0}}
          finding: memory.does-not-fit
          severity: info
          bind: [budget_usd]
          cites: [vram-components]
        """), encoding="utf-8")
    engine = RuleEngine(folder)
    facts = [make_fact("candidate", "tiny", headroom_frac=1e-09), make_fact("candidate", "small", headroom_frac=2e-06),
             make_fact("candidate", "neg", headroom_frac=-3e-07), make_fact("profile", "rich", budget_usd=2e+16),
             make_fact("profile", "poor", budget_usd=5e15)]
    fired = {(f.rule_id, f.fact_id): f.bindings for f in engine.evaluate(facts)}
    assert fired == {
        ("test.tiny-headroom", "tiny"): {"headroom_frac": 1e-09},
        ("test.tiny-headroom", "neg"): {"headroom_frac": -3e-07},
        ("test.huge-budget", "rich"): {"budget_usd": 2e+16},
    }
