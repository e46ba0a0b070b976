"""Our build of durable-rules (vendor/durable_rules, PATCHES.md there): it is the one installed, and
each thing it fixes stays fixed. The crash workloads (tools/engine_crashes.py) run in a child
process and fail if it dies by a signal; upstream 2.0.28 crashed or misfired on each of them
(PATCHES.md has the counts)."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

from advisor.rules_engine import RuleEngine

REPO = Path(__file__).resolve().parents[2]
SCHEMA = (REPO / "rules" / "_facts.yaml").read_text(encoding="utf-8")


def _workloads():
    spec = importlib.util.spec_from_file_location("engine_crashes", REPO / "tools" / "engine_crashes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ENGINE_CRASHES = _workloads()


def test_the_installed_engine_is_our_build() -> None:
    import durable_rules_engine
    from durable import engine, lang  # noqa: F401 - the names advisor/rules_engine.py uses

    assert metadata.version("durable-rules").endswith("+gpuadvisor.1")
    assert hasattr(engine, "Host") and hasattr(engine, "MessageNotHandledException")
    assert Path(durable_rules_engine.__file__).suffix in (".so", ".pyd")


# tools/engine_crashes.py has the workloads and says what each one did to upstream 2.0.28:
# issue381 - upstream #381's rules and events, then random events (segfault; issue381-random is
#   the same without the two events);
# joins - $and/$or/nested-group joins, every firing checked (wrong firings, segfaults);
# unhandled - deleted sessions that each got one fact no rule handled (heap corruption).
# Warnings are errors in the child: utcfromtimestamp's DeprecationWarning (3.12+) is gone too.
@pytest.mark.parametrize("workload", sorted(ENGINE_CRASHES.WORKLOADS))
def test_engine_workload_neither_crashes_nor_fires_wrong(workload: str) -> None:
    outcome, proc = ENGINE_CRASHES.run_once(sys.executable, workload, 20261201, warnings="error", timeout=60)
    if outcome == "crash":
        pytest.fail(f"durable-rules died by signal {-proc.returncode}: {proc.stderr[-2000:]}")
    assert outcome == "ok", proc.stderr[-2000:]
    assert int(proc.stdout) > (0 if workload == "joins" else 100)


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
