"""`make bench`: how fast and how lean gpu-advisor is, printed as a table (not a test).

Figures (median and spread over repeated runs):
- whole-process wall time of `gpu-advisor --version`, `estimate --json`, `recommend` (none may import Textual);
- in-process recommendation latency p50/p95 over varied profiles;
- candidate configurations evaluated per second by the planner sweep (the same workload swept again, and a fresh
  copy of it each time, as a recommendation does);
- TUI time to first paint and per-answer response time, through Textual's Pilot;
- peak RSS of a process that runs many recommendations;
- `llm-analysis`, when installed, timed on the same estimate, with the ratio.

Targets (issue #7): estimate <= 0.35 s whole process; recommendation <= 100 ms p50; >= 100,000
candidate evaluations/s; TUI first paint <= 1.5 s; each answer <= 100 ms (recommendation excluded).
Run with `make bench`; it takes well under three minutes on a 2-core machine. `tools/bench.py --only
recommend,sweep` runs just the in-process figures (parts: processes, recommend, sweep, tui, rss, llm-analysis).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure this checkout's advisor, whichever environment's Python runs the script
BIN = Path(sys.executable).parent / "gpu-advisor"

PROFILES = [
    {"language": "en", "task": "lora", "model": "mistral-7b", "tokens": 50_000_000, "budget_usd": 30_000,
     "rack_kw": 12, "cooling": "air"},
    {"language": "zh-Hans", "task": "qlora", "model": "llama-3-70b", "tokens": 20_000_000, "budget_usd": 5_000},
    {"language": "zh-Hant", "task": "finetune", "model": "llama-3-8b", "tokens": 200_000_000, "deadline_days": 7},
    {"language": "en", "task": "pretrain", "params": 3_000_000_000, "tokens": 60_000_000_000,
     "budget_usd": 80_000, "deadline_days": 42},
    {"language": "en", "task": "inference", "model": "llama-3-70b", "concurrency": 500, "context_tokens": 16_384,
     "budget_usd": 300_000, "deployment": "on-prem", "cooling": "liquid"},
    {"language": "en", "task": "inference", "model": "qwen2.5-7b", "concurrency": 20, "context_tokens": 8_192,
     "acquisition": "rent"},
]


def _stats(samples: list[float]) -> tuple[float, float, float]:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(round(0.95 * (len(samples) - 1))))]
    return statistics.median(samples), p95, (samples[-1] - samples[0])


def _row(name: str, unit: str, median: float, p95: float | None, spread: float | None, target: str) -> None:
    p95_s = f"{p95:10.3f}" if p95 is not None else " " * 10
    spread_s = f"{spread:10.3f}" if spread is not None else " " * 10
    print(f"{name:<46} {median:10.3f} {p95_s} {spread_s}  {unit:<8} {target}")


def _process_times(args: list[str], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([str(BIN), *args], check=True, capture_output=True)
        out.append(time.perf_counter() - start)
    return out


def _profile_files(tmp: Path) -> Path:
    path = tmp / "profile.json"
    path.write_text(json.dumps(PROFILES[0]), encoding="utf-8")
    return path


def bench_processes(tmp: Path, runs: int) -> None:
    profile = _profile_files(tmp)
    cases = [
        ("process: gpu-advisor --version", ["--version"], "-"),
        ("process: estimate --json (llama-3-8b lora)",
         ["estimate", "--model", "llama-3-8b", "--task", "lora", "--gpu", "rtx-4090", "--json"], "<= 0.35 s"),
        ("process: recommend --format json", ["recommend", "--profile", str(profile), "--format", "json"], "-"),
    ]
    for name, args, target in cases:
        med, p95, spread = _stats(_process_times(args, runs))
        _row(name, "s", med, p95, spread, target)


def bench_recommend(rounds: int) -> None:
    from advisor.models import Profile
    from advisor.recommend import recommend

    profiles = [Profile.model_validate(p) for p in PROFILES]
    for p in profiles:  # warm-up: knowledge, rules, caches
        recommend(p)
    samples = []
    for _ in range(rounds):
        for p in profiles:
            start = time.perf_counter()
            recommend(p)
            samples.append((time.perf_counter() - start) * 1000)
    med, p95, spread = _stats(samples)
    _row("in-process recommend latency (varied profiles)", "ms", med, p95, spread, "p50 <= 100 ms")


def bench_sweep(seconds: float = 3.0) -> None:
    from advisor.core.planner import sweep, workload_from_profile
    from advisor.knowledge import knowledge
    from advisor.models import Profile

    kb = knowledge()
    gpus = list(kb.gpus.values())
    workloads = [workload_from_profile(Profile.model_validate(p), kb) for p in PROFILES]
    rates = []
    for workload in workloads:
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / len(workloads):
            count += len(sweep(workload, gpus))
        rates.append(count / (time.perf_counter() - start))
    med, p95, spread = _stats(rates)
    _row("planner: candidate evaluations per second", "eval/s", med, None, spread, ">= 100,000")
    # The same with a fresh copy of each workload every time, as a recommendation sweeps: nothing the
    # workload's own cache holds (its configurations' memory and volumes) is reused from the sweep before.
    rates = []
    for workload in workloads:
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / len(workloads):
            count += len(sweep(dataclasses.replace(workload), gpus))
        rates.append(count / (time.perf_counter() - start))
    med, p95, spread = _stats(rates)
    _row("planner: eval/s, a fresh workload per sweep", "eval/s", med, None, spread, "-")


def bench_tui(rounds: int) -> None:
    from advisor.tui.app import create_app

    answers = ["I want to LoRA fine-tune Mistral 7B", "50M tokens", "", "", "$30k"]

    async def one_run() -> tuple[float, list[float]]:
        start = time.perf_counter()
        app = create_app(lang="en", state_path=Path(tempfile.mkdtemp()) / "session.json")
        per_answer: list[float] = []
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            first_paint = time.perf_counter() - start
            for text in answers:
                t0 = time.perf_counter()
                await app.submit_text(text)
                await pilot.pause()
                per_answer.append((time.perf_counter() - t0) * 1000)
        return first_paint, per_answer

    paints, answers_ms = [], []
    for _ in range(rounds):
        paint, per = asyncio.run(one_run())
        paints.append(paint)
        answers_ms.extend(per[:-1])  # the last answer runs the recommendation
    med, p95, spread = _stats(paints)
    _row("TUI: time to first paint (Pilot, 120x40)", "s", med, p95, spread, "<= 1.5 s")
    med, p95, spread = _stats(answers_ms)
    _row("TUI: response per answer (recommendation excl.)", "ms", med, p95, spread, "<= 100 ms")


def bench_rss(count: int) -> None:
    code = (
        "import resource, json\n"
        "from advisor.models import Profile\n"
        "from advisor.recommend import recommend\n"
        f"ps = [Profile.model_validate(p) for p in {PROFILES!r}]\n"
        "recommend(ps[0])\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        f"for i in range({count}):\n"
        "    recommend(ps[i % len(ps)])\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(json.dumps([before, after]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    before, after = json.loads(out.stdout.strip().splitlines()[-1])
    _row("peak RSS after warm-up (KiB -> MB)", "MB", before / 1024, None, None, "-")
    _row(f"peak RSS growth over {count} recommendations", "MB", (after - before) / 1024, None, None, "< 10 MB")


def _llm_analysis_python() -> str | None:
    """An interpreter that has llm-analysis: $LLM_ANALYSIS_PYTHON, or this one."""
    candidate = os.environ.get("LLM_ANALYSIS_PYTHON") or sys.executable
    probe = subprocess.run([candidate, "-c", "import llm_analysis"], capture_output=True)
    return candidate if probe.returncode == 0 else None


def bench_llm_analysis(runs: int) -> None:
    python = _llm_analysis_python()
    if python is None:
        print("llm-analysis: not installed; side-by-side skipped "
              "(pip install llm-analysis, or set LLM_ANALYSIS_PYTHON to an interpreter that has it)")
        return
    # The same question to both: full fine-tune of Llama 2 7B on one A100-SXM-80GB, 1M tokens.
    # llm-analysis ships this model's config (no download; HF_HUB_OFFLINE keeps it from trying).
    ours = _stats(_process_times(["estimate", "--model", "llama-2-7b", "--task", "finetune", "--gpu",
                                  "a100-80gb-sxm", "--tokens", "1000000", "--json"], runs))[0]
    theirs = []
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([python, "-m", "llm_analysis.analysis", "train", "--model_name", "NousResearch_Llama-2-7b-hf",
                        "--gpu_name", "a100-sxm-80gb", "--total_num_tokens", "1000000", "--log_level", "ERROR"],
                       capture_output=True, check=True, env=env)
        theirs.append(time.perf_counter() - start)
    med = statistics.median(theirs)
    _row("process: llm-analysis train (same estimate)", "s", med, None, None, f"ours/theirs = {ours / med:.2f}")


def main() -> int:
    quick = "--quick" in sys.argv
    # --only recommend,sweep: just those parts (processes, recommend, sweep, tui, rss, llm-analysis)
    only = set(sys.argv[sys.argv.index("--only") + 1].split(",")) if "--only" in sys.argv else None

    def wanted(part: str) -> bool:
        return only is None or part in only

    runs = 3 if quick else 9
    print(f"gpu-advisor bench — {platform.node()} · {platform.processor() or platform.machine()} · "
          f"{os.cpu_count()} cores · Python {platform.python_version()}")
    print(f"{'figure':<46} {'median':>10} {'p95':>10} {'spread':>10}  {'unit':<8} target")
    if wanted("processes"):
        with tempfile.TemporaryDirectory() as tmp:
            bench_processes(Path(tmp), runs)
    if wanted("recommend"):
        bench_recommend(rounds=5 if quick else 20)
    if wanted("sweep"):
        bench_sweep()
    if wanted("tui"):
        bench_tui(rounds=1 if quick else 3)
    if wanted("rss"):
        bench_rss(count=300 if quick else 3000)
    if wanted("llm-analysis"):
        bench_llm_analysis(runs=runs)
    print(f"bench process peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
