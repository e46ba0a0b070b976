"""tools/accuracy.py prints the accuracy table README.md shows; this keeps that table honest.

Why this exists: the table is computed live from advisor/core, so a change to the core could make a
row drift past the tolerance its own test allows, or leave README.md quoting numbers the code no
longer gives. Here the script runs in a subprocess (as `make accuracy` runs it), every row must
carry an error within the tolerance of the test in tests/core/ that checks the same figure, every
error cell must agree with the two numbers beside it, the script must not load Textual or torch,
and README.md's "## Accuracy" table must be the script's current output.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "accuracy.py"
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.(\d+))?")

# (pattern searched in "case | source", tolerance as a fraction, the test in tests/core/ it mirrors).
# First match wins; a row that matches none fails, so a new row must be given its tolerance here.
TOLERANCES = [
    (r"ZeRO paper", 0.01, "test_memory.py::test_zero_paper_table_1 / test_zero_figure_1_and_baseline"),
    (r"Korthikanti", 0.01, "test_memory.py::test_korthikanti_figure_1_activations"),
    (r"Megatron-LM", 0.05, "test_compute.py::test_megatron_table_2_training_days"),
    (r"QLoRA paper", None, "test_memory.py::test_qlora_headline_fits / ..._over_780_gb (bounds)"),
    (r"Llama 3\.1 blog", 0.01, "test_memory.py::test_llama31_kv_cache_gib"),
    (r"parameters|weights loaded", 0.005, "test_params.py (exact counts; rounded cards to their rounding)"),
    (r"GPU-hours", 0.30, "test_compute.py::test_published_gpu_hours_inside_our_range"),
    (r"prefill", 0.08, "test_compute.py::test_decode_efficiency_anchor_one_gpu (prefill)"),
    (r"decode, 1 A100", 0.05, "test_compute.py::test_decode_efficiency_anchor_one_gpu"),
    (r"decode, 2 A100", 0.15, "test_compute.py::test_decode_tp2_is_an_independent_check"),
    (r"Activation bytes", 0.10, "test_activation_calibration.py::test_held_out_shapes_within_10_percent"),
]


def _number(cell: str) -> tuple[float, int]:
    """First number in a cell and its decimal places."""
    match = NUMBER.search(cell)
    assert match, f"no number in {cell!r}"
    return float(match.group().replace(",", "")), len(match.group(1) or "")


def _table(text: str) -> list[list[str]]:
    lines = [line for line in text.splitlines() if line.startswith("|")]
    rows = [[c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]
    return rows[2:]  # after the header and separator


@pytest.fixture(scope="module")
def run() -> tuple[subprocess.CompletedProcess, float]:
    # Run the script and report which heavy modules it loaded (it must load neither).
    code = (
        "import runpy, sys\n"
        f"sys.argv = [{str(SCRIPT)!r}]\n"
        "try:\n"
        f"    runpy.run_path({str(SCRIPT)!r}, run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "else:\n"
        "    code = 0\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'torch'})\n"
        "sys.stderr.write('HEAVY=' + ','.join(heavy) + '\\n')\n"
        "sys.exit(code)\n"
    )
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    return out, time.perf_counter() - start


def test_script_exits_zero_fast_and_light(run) -> None:
    out, seconds = run
    assert out.returncode == 0, out.stderr
    assert "HEAVY=\n" in out.stderr, out.stderr
    assert seconds < 30


def test_every_error_is_within_its_tests_tolerance(run) -> None:
    out, _ = run
    rows = _table(out.stdout)
    assert len(rows) >= 40
    failures = []
    for case, source, published, ours_cell, error, _peer in rows:
        where = f"{case} | {source}"
        rule = next((r for r in TOLERANCES if re.search(r[0], where)), None)
        if rule is None:
            failures.append(f"no tolerance for row: {where}")
            continue
        _, tol, mirrors = rule
        target, places = _number(published)
        ours, ours_places = _number(ours_cell)
        if tol is None:  # a published bound: "< 48 GB", "> 780 GB"
            below = published.startswith("<")
            ok = ours < target if below else ours > target
            if not (ok and error.startswith("meets bound")):
                failures.append(f"{where}: {ours} vs bound {published} ({mirrors})")
            continue
        printed = float(NUMBER.search(error).group())
        # as tests/core/test_memory.py::_close_to_printed: the tolerance, or the printed rounding
        allowed = max(tol, 0.5 * 10 ** -places / target) * 100
        if abs(printed) > allowed + 1e-9:
            failures.append(f"{where}: error {error} beyond ±{allowed:.3g} % ({mirrors})")
        # the error cell must be what the two numbers beside it say (to the rounding of ours)
        recomputed = (ours - target) / target * 100
        slack = 0.5 * 10 ** -ours_places / target * 100 + 0.006
        if abs(recomputed - printed) > slack:
            failures.append(f"{where}: error cell {error} but the cells give {recomputed:+.3f} %")
        range_match = re.search(r"range ([\d,]+)–([\d,]+)", ours_cell)
        if range_match:
            low, high = (float(g.replace(",", "")) for g in range_match.groups())
            if not low < target < high:
                failures.append(f"{where}: published {published} outside our range {low:,.0f}–{high:,.0f}")
    assert not failures, "\n".join(failures)


def test_readme_table_is_the_scripts_current_output(run) -> None:
    out, _ = run
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## Accuracy" in readme
    section = readme.split("## Accuracy", 1)[1].split("\n## ", 1)[0]
    shown = [line for line in section.splitlines() if line.startswith("|")]
    printed = [line for line in out.stdout.splitlines() if line.startswith("|")]
    assert shown == printed, (
        "README.md's Accuracy table differs from `.venv/bin/python tools/accuracy.py`; "
        "run `make accuracy` and paste its output into README.md")
