"""Crash counts of a durable-rules build: the workloads behind vendor/durable_rules/PATCHES.md.

Each workload is a small script run in a child process by the interpreter under test, which needs
only `durable` (upstream's or our build) importable. A run ends `ok`, `crash` (death by a signal),
`wrong` (a rule fired where it must not, or did not fire where it must: exit code 3) or `error`
(anything else, e.g. upstream not importing on 3.13). tests/rules/test_vendored_engine.py runs each
workload once against the installed engine.

    python tools/engine_crashes.py [--runs 30] [--workload NAME ...] PYTHON...

prints one line per interpreter and workload: `PYTHON  WORKLOAD  ok N  crash N  wrong N  error N`.
Not a test; it takes about a minute for three interpreters on a 2-core machine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter

# Upstream #381's own rules, through durable.lang as the issue wrote them: first the issue's two
# events (a segfault upstream on every run; left out with --random-only), then random events in
# many sessions, never deleted.
# The second rule's last test (`amount < first.amount`) failing made reduceExpressionSequence
# read past the node pool.
ISSUE_381 = r'''
import random, sys
from durable.lang import ruleset, when_all, c, m, post
from durable.engine import MessageNotHandledException

def wrong(*what):
    print("wrong:", *what, file=sys.stderr)
    sys.exit(3)

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

if "--random-only" not in sys.argv:
    post("metrics", {"metric": "met-A", "amount": 100})
    post("metrics", {"metric": "met-B", "amount": 200})
    if hits != [("gt", 100, 200)]:
        wrong(hits)
rng = random.Random(int(sys.argv[1]))
for e in range(int(sys.argv[2])):
    for j in range(rng.randint(2, 6)):
        try:
            post("metrics", {"sid": f"s{e}", "id": f"{e}-{j}", "metric": rng.choice(["met-A", "met-B"]),
                             "amount": rng.randint(0, 300)})
        except MessageNotHandledException:
            pass
for kind, first, second in hits:
    if not ((second > first) if kind == "gt" else (first > 50 and second < first)):
        wrong(kind, first, second)
print(len(hits))
'''

# Joins with $and, $or and a nested $or followed by another test, on a quiet host (as
# advisor/rules_engine.py runs it), each session deleted after its facts. Every firing must satisfy
# its rule, and a rule that can fire on the facts must fire. Upstream let `nest` fire whatever
# `level` was: a nested group did not consume its END, so the test after it was never evaluated.
JOINS = r'''
import random, sys
from durable import engine

def wrong(*what):
    print("wrong:", *what, file=sys.stderr)
    sys.exit(3)

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
        if a == b or not (first(facts[a]) and second(facts[a], facts[b])):
            wrong("fired", name, facts[a], facts[b])
    for name, (first, second) in ORACLE.items():
        if any(first(x) and second(x, y) for x in facts.values() for y in facts.values() if x is not y):
            if not any(f[0] == name for f in fired):
                wrong("missed", name, facts, fired)
    total += len(fired)
    host.delete_state("joins", sid)
print(total)
'''

# One rule, and sessions that each receive one fact it does not handle, then are deleted: upstream
# freed the session's never-initialised action buffers ("free(): invalid pointer", segfault).
UNHANDLED = r'''
import sys
from durable import engine

class Quiet(engine.Host):
    def _run(self):
        return None
    def get_action(self, name):
        return lambda c: None

host = Quiet()
host.set_rulesets({"one": {"r": {"all": [{"m": {"kind": "candidate"}}], "run": "r"}}})
unhandled = 0
for e in range(int(sys.argv[2])):
    sid = f"s{e}"
    try:
        host.assert_fact("one", {"sid": sid, "id": f"{sid}-0", "kind": "profile", "x": e})
    except engine.MessageNotHandledException:
        unhandled += 1
    host.delete_state("one", sid)
if unhandled != int(sys.argv[2]):
    sys.exit(3)
print(unhandled)
'''

# name -> (script, evaluations per run, more arguments)
WORKLOADS: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "issue381": (ISSUE_381, 250, ()),
    "issue381-random": (ISSUE_381, 250, ("--random-only",)),
    "joins": (JOINS, 300, ()),
    "unhandled": (UNHANDLED, 800, ()),
}


def run_once(python: str, workload: str, seed: int, *, warnings: str = "ignore",
             timeout: float = 120) -> tuple[str, subprocess.CompletedProcess[str]]:
    """Run `workload` once under `python`; ('ok'|'crash'|'wrong'|'error', the finished process)."""
    script, evaluations, more = WORKLOADS[workload]
    proc = subprocess.run([python, "-W", warnings, "-c", script, str(seed), str(evaluations), *more],
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode < 0:
        return "crash", proc
    if proc.returncode == 3:
        return "wrong", proc
    return ("ok" if proc.returncode == 0 else "error"), proc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pythons", nargs="*", default=[sys.executable], metavar="PYTHON")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--workload", action="append", choices=sorted(WORKLOADS))
    args = parser.parse_args(argv)
    for python in args.pythons:
        for workload in args.workload or list(WORKLOADS):
            counts = Counter(run_once(python, workload, seed)[0] for seed in range(1, args.runs + 1))
            tally = "  ".join(f"{outcome} {counts[outcome]}" for outcome in ("ok", "crash", "wrong", "error"))
            print(f"{python}  {workload:15}  {tally}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
