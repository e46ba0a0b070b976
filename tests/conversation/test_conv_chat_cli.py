"""`gpu-advisor chat` as a user runs it: a real process, answers on stdin or from a file, the transcript
on stdout, the report and profile written; and a process killed with SIGKILL mid-conversation loses
no answer once `--resume` continues it, its session file never corrupt in between."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from advisor.conversation import session

REPO = Path(__file__).resolve().parents[2]
DESIGN_PROFILE_KEYS = {"language", "task", "params", "tokens", "epochs", "concurrency", "context_tokens",
                       "requests_per_second", "budget_usd", "budget_amount", "budget_currency", "deadline_days",
                       "deployment", "rack_kw", "cooling", "owned_gpus"}


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["GPU_ADVISOR_STATE"] = str(tmp_path / "state")
    env["PYTHONPATH"] = str(REPO)  # run this checkout (the process starts in tmp_path, not in the repository)
    env.pop("GPU_ADVISOR_DEBUG", None)
    return env


def _chat(tmp_path: Path, *args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor.cli", "chat", *args], input=stdin, text=True,
                          capture_output=True, cwd=tmp_path, env=_env(tmp_path), timeout=timeout)


def test_one_line_on_stdin(tmp_path: Path) -> None:
    line = "我想用 LoRA 微调 Mistral 7B，预算三万美元，机房单个机柜 12 千瓦，风冷\n"
    out = _chat(tmp_path, "--report", "report.json", "--profile-out", "profile.json", stdin=line)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    assert "> 我想用 LoRA" in out.stdout and "报告已保存到" in out.stdout
    profile = json.loads((tmp_path / "profile.json").read_text(encoding="utf-8"))
    assert DESIGN_PROFILE_KEYS <= set(profile)
    assert profile["language"] == "zh-Hans" and profile["task"] == "lora" and profile["model"] == "mistral-7b"
    assert 7.2e9 <= profile["params"] <= 7.3e9  # Mistral 7B: 7.24B parameters (model card)
    assert (profile["budget_usd"], profile["budget_amount"], profile["budget_currency"]) == (30000, 30000, "USD")
    assert (profile["deployment"], profile["rack_kw"], profile["cooling"]) == ("on-prem", 12, "air")
    # The data question's default, the planner's: 50,000 examples packed into 2,048-token sequences, one epoch.
    assert profile["tokens"] == 102_400_000 and profile["epochs"] == 1
    assert {"tokens", "samples", "seq_len", "epochs", "precision", "deadline_days"} <= set(profile["assumed"])
    assert "budget_usd" not in profile["assumed"] and "task" not in profile["assumed"]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["schema_version"] >= 1 and report["recommendations"]
    assert report["profile"]["task"] == "lora"


def test_answers_file_with_forced_language(tmp_path: Path) -> None:
    (tmp_path / "answers.txt").write_text("serve Llama 3 8B\n64 concurrent users at 8k context\n\n\nbudget 40k\ncloud\n",
                                          encoding="utf-8")
    out = _chat(tmp_path, "--answers", "answers.txt", "--lang", "zh-Hant", "--report", "r.md",
                "--profile-out", "p.json")
    assert out.returncode == 0, out.stderr
    assert "我理解的情況如下" in out.stdout and "報告已儲存至" in out.stdout  # Traditional, as forced
    profile = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    assert profile["language"] == "zh-Hant"
    assert (profile["task"], profile["concurrency"], profile["context_tokens"]) == ("inference", 64, 8192)
    assert (profile["budget_usd"], profile["deployment"]) == (40000, "cloud")
    assert (tmp_path / "r.md").read_text(encoding="utf-8").strip()


def test_missing_answers_file_is_one_clear_line(tmp_path: Path) -> None:
    out = _chat(tmp_path, "--answers", "nope.txt")
    assert out.returncode == 2
    assert "cannot read answers from nope.txt" in out.stderr and "Traceback" not in out.stderr


def test_unwritable_report_is_a_localized_error(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("x")
    out = _chat(tmp_path, "--report", "blocker/r.md", stdin="LoRA on Llama 3 8B\n")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "blocker" in out.stderr


def _wait_for_answers(path: Path, n: int, timeout_s: float = 60) -> tuple[dict, int]:
    """Poll the session file until it records `n` user answers; every read must be a valid session."""
    deadline = time.monotonic() + timeout_s
    reads = 0
    while time.monotonic() < deadline:
        try:
            data = session.load(path)  # raises SessionError if the file were ever half-written
            reads += 1
        except FileNotFoundError:
            data = None
        if data is not None and sum(1 for e in data["transcript"] if e["role"] == "user") >= n:
            return data, reads
        time.sleep(0.01)
    raise AssertionError(f"the session file never recorded {n} answers")


ANSWERS = ["full fine-tune", "Qwen2.5-7B", "500M tokens, 2 epochs", "fp16", "within 10 days", "budget 50k, rent",
           "cloud"]


@pytest.mark.parametrize("killed_after", [3, 5])
def test_sigkill_then_resume_loses_no_answer(tmp_path: Path, killed_after: int) -> None:
    state = tmp_path / "session.json"
    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", "chat", "--state", str(state)],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env=_env(tmp_path))
    try:
        total_reads = 0
        for i, answer in enumerate(ANSWERS[:killed_after]):
            proc.stdin.write(answer + "\n")
            proc.stdin.flush()
            _, reads = _wait_for_answers(state, i + 1)  # answers are fed slowly: one once the last is saved
            total_reads += reads
        # One more answer, and the kill right behind it: it may or may not have been read.
        proc.stdin.write(ANSWERS[killed_after] + "\n")
        proc.stdin.flush()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    data = session.load(state)  # never corrupt, even after SIGKILL
    recorded = [e["text"] for e in data["transcript"] if e["role"] == "user"]
    if data.get("inbox") is not None:
        recorded.append(data["inbox"])
    assert recorded == ANSWERS[:len(recorded)] and len(recorded) >= killed_after
    assert total_reads >= killed_after

    rest = "".join(a + "\n" for a in ANSWERS[len(recorded):])
    out = _chat(tmp_path, "--resume", "--state", str(state), "--profile-out", "p.json", stdin=rest)
    assert out.returncode == 0, out.stderr
    assert "Welcome back" in out.stdout
    p = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    assert (p["task"], p["model"], p["tokens"], p["epochs"]) == ("finetune", "qwen2.5-7b", 500_000_000, 2)
    assert (p["precision"], p["deadline_days"]) == ("fp16-mixed", 10)
    assert (p["budget_usd"], p["acquisition"], p["deployment"]) == (50_000, "rent", "cloud")
