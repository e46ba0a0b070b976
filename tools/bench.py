"""`make bench`: how fast and how lean gpu-advisor is, printed as a table (not a test).

Every figure is measured where its label says (issue #13):
- "process": a fresh process, wall time from spawn to exit, medians over runs interleaved with the
  interpreter's own floor (`python -c pass`) and, for the estimate, with llm-analysis on the identical
  question; byte-code compiled first (as a pip install leaves it) and the knowledge snapshot warm,
  except the row that says "cold snapshot" (the first run after an install or an edit);
- "TUI": a fresh process running the app headless (Textual's Pilot): launch = spawn to the greeting
  painted; an answer = the text submitted to its reply painted (a refresh callback, not Pilot's idle
  waits), after the greeting's warm-up, as a user reading it would leave time for;
- "in process": recommendation latency over varied profiles; candidate evaluations per second with a
  fresh copy of each workload per sweep (nothing reused from the sweep before);
- "RSS": the peak resident set (VmHWM) read by a fresh child itself, before and after the runs.

Targets are issue #13's, set on a machine where `python -c pass` takes ~9 ms; the floor row says how
much slower this one is. `--only processes,tui` runs some parts (processes, recommend, sweep, tui,
rss); `--quick` fewer runs.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import platform
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
    print(f"{name:<50} {median:10.3f} {p95_s} {spread_s}  {unit:<8} {target}")


def _spawn(cmd: list[str], env: dict[str, str] | None = None, stdin: bytes | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env, input=stdin)
    return time.perf_counter() - start


def _llm_analysis_python() -> str | None:
    """An interpreter that has llm-analysis: $LLM_ANALYSIS_PYTHON, `make peers`' environment, or this one."""
    for candidate in (os.environ.get("LLM_ANALYSIS_PYTHON"), str(ROOT / ".venv-peers-la" / "bin" / "python"),
                      sys.executable):
        if candidate and Path(candidate).exists():
            probe = subprocess.run([candidate, "-c", "import llm_analysis"], capture_output=True)
            if probe.returncode == 0:
                return candidate
    return None


# The estimate both tools answer: full fine-tune of Llama 2 7B on one A100-SXM-80GB, 1M tokens
# (llm-analysis ships this model's config; HF_HUB_OFFLINE keeps it from reaching for the hub).
ESTIMATE = ["estimate", "--model", "llama-2-7b", "--task", "finetune", "--gpu", "a100-80gb-sxm", "--tokens", "1000000",
            "--json"]
LLM_ANALYSIS = ["-m", "llm_analysis.analysis", "train", "--model_name", "NousResearch_Llama-2-7b-hf", "--gpu_name",
                "a100-sxm-80gb", "--total_num_tokens", "1000000", "--log_level", "ERROR"]


def bench_processes(tmp: Path, runs: int) -> None:
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "advisor")], check=True,
                   capture_output=True)
    profile = tmp / "profile.json"
    profile.write_text(json.dumps(PROFILES[0]), encoding="utf-8")
    answers = tmp / "answers.txt"
    answers.write_text("I want to LoRA fine-tune Mistral 7B\n", encoding="utf-8")
    env = {**os.environ, "GPU_ADVISOR_CACHE": str(tmp / "cache"), "GPU_ADVISOR_STATE": str(tmp / "state"),
           "HF_HUB_OFFLINE": "1"}
    cases: list[tuple[str, list[str], str]] = [
        ("process: python -c pass (the floor)", [sys.executable, "-c", "pass"], "(9 ms there)"),
        ("process: gpu-advisor --version", [str(BIN), "--version"], "<= 40 ms"),
        ("process: estimate --json (llama-2-7b finetune)", [str(BIN), *ESTIMATE], "<= 60 ms"),
        ("process: gpus", [str(BIN), "gpus"], "-"),
        ("process: recommend --profile --format json", [str(BIN), "recommend", "--profile", str(profile),
                                                        "--format", "json"], "<= 150 ms"),
        ("process: chat, one message", [str(BIN), "chat", "--answers", str(answers)], "<= 250 ms"),
    ]
    peer = _llm_analysis_python()
    if peer is not None:
        cases.append(("process: llm-analysis train (same estimate)", [peer, *LLM_ANALYSIS], "-"))
    for _, cmd, _ in cases:  # warm: the snapshot, the OS file cache
        subprocess.run(cmd, capture_output=True, env=env)
    samples: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    cold: list[float] = []
    for r in range(runs):  # interleaved: a slow moment of the machine is shared by every row
        for name, cmd, _ in cases:
            samples[name].append(_spawn(cmd, env))
        cold.append(_spawn([str(BIN), *ESTIMATE], {**env, "GPU_ADVISOR_CACHE": str(tmp / f"cold-{r}")}))
    for name, _, target in cases:
        med, p95, spread = _stats(samples[name])
        _row(name, "ms", med * 1000, p95 * 1000, spread * 1000, target)
    med, p95, spread = _stats(cold)
    _row("process: the same estimate, cold snapshot", "ms", med * 1000, p95 * 1000, spread * 1000, "-")
    if peer is None:
        print("llm-analysis: not installed; side by side skipped (`make peers`, or LLM_ANALYSIS_PYTHON)")
    else:
        ours = statistics.median(samples[cases[2][0]])
        theirs = statistics.median(samples[cases[-1][0]])
        _row("process: estimate, ours / llm-analysis's", "ratio", ours / theirs, None, None, "<= 0.2")


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
    _row("in process: recommendation (varied profiles)", "ms", med, p95, spread, "p50 <= 15, p95 <= 40")


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
    _row("in process: eval/s, the same workload again", "eval/s", med, None, spread, "(its cache warm)")
    # The same with a fresh copy of each workload every time, as a recommendation sweeps: nothing the
    # workload's own cache holds (its configurations' memory and volumes) is reused from the sweep before.
    rates = []
    for workload in workloads:
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / len(workloads):
            count += len(sweep(dataclasses.replace(workload), gpus))
        rates.append(count / (time.perf_counter() - start))
    med, p95, spread = _stats(rates)
    _row("in process: eval/s, a fresh workload per sweep", "eval/s", med, None, spread, ">= 250,000")


TUI_ANSWERS = ["I want to LoRA fine-tune Mistral 7B", "50M tokens", "", "", "$30k"]


def tui_child(spawned_at: float) -> None:
    """In a fresh process (`bench.py --tui-child T`): launch to greeting painted, then each answer to
    its reply painted; prints JSON. `spawned_at` is the parent's `time.time()` just before the spawn."""
    from advisor.tui.app import create_app

    async def painted(app) -> None:
        done = asyncio.Event()
        app.call_after_refresh(done.set)
        await done.wait()

    async def run() -> dict[str, object]:
        app = create_app(lang="en", state_path=Path(tempfile.mkdtemp()) / "session.json")
        out: dict[str, object] = {}
        async with app.run_test(size=(120, 40)):
            while not app.query(".advisor"):
                await asyncio.sleep(0.001)
            await painted(app)
            out["launch_s"] = time.time() - spawned_at
            await app.workers.wait_for_complete()  # the warm-up after the greeting, while the user reads it
            answers_ms = []
            for text in TUI_ANSWERS:
                before = len(app.query(".advisor"))
                start = time.perf_counter()
                app.start_turn(text)
                while app.busy or len(app.query(".advisor")) <= before:
                    await asyncio.sleep(0.001)
                await painted(app)
                answers_ms.append((time.perf_counter() - start) * 1000)
            out["answers_ms"] = answers_ms
        return out

    print(json.dumps(asyncio.run(run())))


def bench_tui(rounds: int) -> None:
    launches, answers, advice = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "GPU_ADVISOR_CACHE": tmp}
        subprocess.run([str(BIN), "gpus"], capture_output=True, env=env)  # the snapshot, as after a first run
        for _ in range(rounds):
            out = subprocess.run([sys.executable, __file__, "--tui-child", repr(time.time())], check=True,
                                 capture_output=True, text=True, env=env)
            result = json.loads(out.stdout.strip().splitlines()[-1])
            launches.append(result["launch_s"] * 1000)
            answers.extend(result["answers_ms"][:-1])
            advice.append(result["answers_ms"][-1])  # the last answer runs the recommendation
    _row("TUI: launch to greeting painted (process)", "ms", *_stats(launches), "<= 400 ms")
    _row("TUI: answer to reply painted", "ms", *_stats(answers), "p50 <= 50 ms")
    _row("TUI: answer that runs the recommendation", "ms", *_stats(advice), "<= 150 ms")


def bench_rss(count: int) -> None:
    code = (
        "import json\n"
        "def hwm():\n"
        "    with open('/proc/self/status') as f:\n"
        "        return next(int(line.split()[1]) for line in f if line.startswith('VmHWM:'))\n"
        "from advisor.models import Profile\n"
        "from advisor.recommend import recommend\n"
        f"ps = [Profile.model_validate(p) for p in {PROFILES!r}]\n"
        "for p in ps:\n"
        "    recommend(p)\n"
        "before = hwm()\n"
        f"for i in range({count}):\n"
        "    recommend(ps[i % len(ps)])\n"
        "print(json.dumps([before, hwm()]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    before, after = json.loads(out.stdout.strip().splitlines()[-1])
    _row("RSS: peak after warm-up (VmHWM, fresh child)", "MB", before / 1024, None, None, "-")
    _row(f"RSS: peak growth over {count} recommendations", "MB", (after - before) / 1024, None, None, "< 5 MB")


def main() -> int:
    if "--tui-child" in sys.argv:
        tui_child(float(sys.argv[sys.argv.index("--tui-child") + 1]))
        return 0
    quick = "--quick" in sys.argv
    # --only recommend,sweep: just those parts (processes, recommend, sweep, tui, rss)
    only = set(sys.argv[sys.argv.index("--only") + 1].split(",")) if "--only" in sys.argv else None

    def wanted(part: str) -> bool:
        return only is None or part in only

    runs = 3 if quick else 9
    print(f"gpu-advisor bench — {platform.node()} · {platform.processor() or platform.machine()} · "
          f"{os.cpu_count()} cores · Python {platform.python_version()}")
    print(f"{'figure':<50} {'median':>10} {'p95':>10} {'spread':>10}  {'unit':<8} target")
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
