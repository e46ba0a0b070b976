"""One writer per session file, through the real entry point (issue #12): `python -m advisor.cli chat` in
subprocesses.

- a second `chat` on a session file that a running one holds is told who holds it (pid, host), in the
  user's language, and saves to a separate file; the first one's file is not touched; `--resume` continues
  from a copy;
- a lock left by a process killed with SIGKILL is taken over without a word;
- temporary files beside a session that a live process holds are its own, and are left alone;
- a what-if in progress survives a resume (the issue's "a what-if is lost on resume").

Every subprocess has a timeout.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env["GPU_ADVISOR_STATE"] = str(tmp_path / "state")
    env["LANG"] = "C.UTF-8"
    for var in ("GPU_ADVISOR_DEBUG", "GPU_ADVISOR_LANG", "LC_ALL", "LC_MESSAGES"):
        env.pop(var, None)
    return env


def _chat(tmp_path: Path, *args: str, stdin: bytes = b"", timeout: float = 90) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "advisor.cli", "chat", "--answers", "-", *args], input=stdin,
                          capture_output=True, cwd=tmp_path, env=_env(tmp_path), timeout=timeout)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8"),
                                       proc.stderr.decode("utf-8"))


def _wait_for(predicate, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def _user_answers(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [e["text"] for e in data["transcript"] if e["role"] == "user"]


@pytest.fixture
def holder(tmp_path: Path):
    """A running `gpu-advisor chat` that has answered 'LoRA' and waits for its next answer on a pipe."""
    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", "chat", "--answers", "-", "--lang", "en"],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            cwd=tmp_path, env=_env(tmp_path))
    session = tmp_path / "state" / "session.json"
    assert proc.stdin is not None
    proc.stdin.write(b"LoRA\n")
    proc.stdin.flush()
    try:
        _wait_for(lambda: session.is_file() and _user_answers(session) == ["LoRA"])
        yield proc, session
    finally:
        proc.kill()
        proc.wait(timeout=30)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "is in use by another gpu-advisor"), ("zh-Hans", "正被另一个 gpu-advisor 使用"),
     ("zh-Hant", "正由另一個 gpu-advisor 使用")],
)
def test_a_second_chat_on_a_held_session_is_told_and_saves_separately(tmp_path, holder, lang, words) -> None:
    proc, session = holder
    before = session.read_bytes()
    second = _chat(tmp_path, "--lang", lang, stdin=b"QLoRA Llama 3 8B\n")
    assert second.returncode == 0, second.stderr
    assert "Traceback" not in second.stderr
    lines = [line for line in second.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and words in lines[0], second.stderr
    assert str(proc.pid) in lines[0] and socket.gethostname() in lines[0]
    separate = tmp_path / "state" / "session-2.json"
    assert str(separate) in lines[0]
    assert session.read_bytes() == before  # the first one's answers are untouched
    assert _user_answers(separate)[0] == "QLoRA Llama 3 8B"
    assert proc.poll() is None  # and it still runs
    # The first one goes on saving its own file.
    assert proc.stdin is not None
    proc.stdin.write(b"Mistral 7B\n")
    proc.stdin.flush()
    _wait_for(lambda: _user_answers(session) == ["LoRA", "Mistral 7B"])


def test_resuming_a_held_session_continues_from_a_copy(tmp_path, holder) -> None:
    _proc, session = holder
    before = session.read_bytes()
    second = _chat(tmp_path, "--resume", "--lang", "en", stdin=b"Mistral 7B\n")
    assert second.returncode == 0, second.stderr
    assert "answers so far: 1)" in second.stdout, second.stdout[:400]
    assert session.read_bytes() == before
    assert _user_answers(tmp_path / "state" / "session-2.json")[:2] == ["LoRA", "Mistral 7B"]


def test_a_live_holders_temporary_files_are_left_alone(tmp_path, holder) -> None:
    _proc, session = holder
    writing = session.parent / ".session.json.wr1t1ng.tmp"
    writing.write_text("{", encoding="utf-8")
    second = _chat(tmp_path, "--lang", "en", stdin=b"LoRA\n")
    assert second.returncode == 0, second.stderr
    assert writing.exists()


def test_a_lock_left_by_a_killed_process_is_taken_over(tmp_path, holder) -> None:
    proc, session = holder
    lock = session.with_name("session.json.lock")
    assert json.loads(lock.read_text(encoding="utf-8"))["pid"] == proc.pid
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert lock.exists()  # what a crash leaves
    again = _chat(tmp_path, "--resume", "--lang", "en", stdin=b"Mistral 7B\n")
    assert again.returncode == 0, again.stderr
    assert again.stderr.strip() == ""
    assert _user_answers(session)[:2] == ["LoRA", "Mistral 7B"]
    assert not (session.parent / "session-2.json").exists()
    assert not lock.exists()  # released when it ended


def test_a_what_if_in_progress_survives_a_resume(tmp_path) -> None:
    first = _chat(tmp_path, "--lang", "en", stdin=(
        "LoRA Mistral 7B, 50M tokens, budget 30000 USD, rent in the cloud\n"
        "\n" * 8 + "what if the budget doubles?\n").encode())
    assert first.returncode == 0, first.stderr
    assert "keep it" in first.stdout
    session = tmp_path / "state" / "session.json"
    assert json.loads(session.read_text(encoding="utf-8"))["whatif"]["budget_usd"] == 60_000  # 2 × 30,000
    again = _chat(tmp_path, "--resume", "--lang", "en", stdin=b"keep it\n")
    assert again.returncode == 0, again.stderr
    assert "the change is now part of your answers" in again.stdout
    saved = json.loads(session.read_text(encoding="utf-8"))
    assert saved["profile"]["budget_usd"] == 60_000 and saved["whatif"] is None
