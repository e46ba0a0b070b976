"""Hostile input through the real entry point (issue #12): `python -m advisor.cli` in a subprocess.

- every file the user names is read only when it is a regular file under a stated limit: /dev/zero,
  /dev/urandom, a FIFO, a folder, a 300 MB (sparse) file are refused with one line, exit status 2, fast;
- stdin is bounded (`chat < /dev/zero` ends);
- one invalid byte on stdin neither costs the answer nor switches off the session file;
- `estimate --config` refuses absurd dimensions (hidden_size 1e30, more experts per token than experts);
- `--state` that is a folder, a FIFO or a device is refused and left exactly as it was; temporary files
  that a killed process left beside the session file are cleaned;
- no raw control character from typed text or a config's `_name_or_path` reaches stdout, stderr or a report.

Every subprocess has a timeout, so a regression (a read that blocks on a FIFO) fails instead of hanging.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "tests" / "core" / "configs"
CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
EVIL = "evil\x1b[2J\x1b]0;pwned\x07\x9b31m\x00name\r"


def _cli(tmp_path: Path, *args: str, stdin: bytes | None = b"", stdin_file: str | None = None,
         timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)  # this checkout, not whatever is installed
    env["GPU_ADVISOR_STATE"] = str(tmp_path / "state")
    env["LANG"] = "C.UTF-8"
    for var in ("GPU_ADVISOR_DEBUG", "GPU_ADVISOR_LANG", "LC_ALL", "LC_MESSAGES"):
        env.pop(var, None)
    command = [sys.executable, "-m", "advisor.cli", *args]
    if stdin_file is not None:
        with open(stdin_file, "rb") as handle:
            return subprocess.run(command, stdin=handle, capture_output=True, cwd=tmp_path, env=env, timeout=timeout)
    return subprocess.run(command, input=stdin, capture_output=True, cwd=tmp_path, env=env, timeout=timeout)


def _one_line_error(proc: subprocess.CompletedProcess[bytes]) -> str:
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == 2, (proc.returncode, err)
    assert "Traceback" not in err and "unexpected error" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as handle:
        handle.truncate(size)  # st_size is 300 MB; nothing is written to disk
    return path


# ---------------------------------------------------------------------------------------------- 1. reads


@pytest.mark.parametrize("kind", ["/dev/zero", "/dev/urandom", "fifo", "folder", "huge"])
def test_recommend_profile_must_be_a_small_regular_file(tmp_path: Path, fifo: Path, kind: str) -> None:
    target = {"fifo": str(fifo), "folder": str(tmp_path),
              "huge": str(_sparse(tmp_path / "huge.json", 300 << 20))}.get(kind, kind)
    start = time.monotonic()
    line = _one_line_error(_cli(tmp_path, "recommend", "--profile", target, timeout=30))
    assert time.monotonic() - start < 20
    assert target in line
    expected = {"folder": "is a folder", "huge": "larger than 4 MiB"}.get(kind, "not a regular file")
    assert expected in line


def test_recommend_refusal_is_localized(tmp_path: Path) -> None:
    line = _one_line_error(_cli(tmp_path, "recommend", "--profile", "/dev/zero", "--lang", "zh-Hant"))
    assert "不是一般檔案" in line


@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "huge"])
def test_chat_answers_file_must_be_a_small_regular_file(tmp_path: Path, fifo: Path, kind: str) -> None:
    target = {"fifo": str(fifo), "folder": str(tmp_path),
              "huge": str(_sparse(tmp_path / "answers.txt", 300 << 20))}.get(kind, kind)
    line = _one_line_error(_cli(tmp_path, "chat", "--answers", target, timeout=30))
    assert target in line
    assert not (tmp_path / "state" / "session.json").exists(), "refused before the conversation started"


def test_chat_answers_refusal_in_the_chosen_language(tmp_path: Path) -> None:
    line = _one_line_error(_cli(tmp_path, "chat", "--lang", "zh-Hans", "--answers", "/dev/zero"))
    assert "不是普通文件" in line


def test_chat_stdin_is_bounded(tmp_path: Path) -> None:
    start = time.monotonic()
    line = _one_line_error(_cli(tmp_path, "chat", "--answers", "-", stdin_file="/dev/zero", timeout=30))
    assert time.monotonic() - start < 20
    assert "stdin" in line and "4 MiB" in line


@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "huge"])
def test_estimate_config_must_be_a_small_regular_file(tmp_path: Path, fifo: Path, kind: str) -> None:
    target = {"fifo": str(fifo), "huge": str(_sparse(tmp_path / "config.json", 300 << 20))}.get(kind, kind)
    line = _one_line_error(_cli(tmp_path, "estimate", "--config", target, "--task", "lora", timeout=30))
    assert target in line
    assert ("larger than 8 MiB" if kind == "huge" else "not a regular file") in line


# ----------------------------------------------------------------------------------- 4. a stray byte


@pytest.mark.parametrize("via", ["stdin", "file"])
def test_a_stray_byte_keeps_the_answer_and_the_session_file(tmp_path: Path, via: str) -> None:
    data = b"lora llama 3 8b \xff\n"
    if via == "file":
        (tmp_path / "answers.txt").write_bytes(data)
        proc = _cli(tmp_path, "chat", "--answers", "answers.txt", "--profile-out", "p.json", stdin=None)
    else:
        proc = _cli(tmp_path, "chat", "--answers", "-", "--profile-out", "p.json", stdin=data)
    out = proc.stdout.decode("utf-8")  # valid UTF-8: the byte became U+FFFD, not a raw 0xFF
    assert proc.returncode == 0, proc.stderr.decode()
    assert "could not save" not in out and "Traceback" not in out
    assert "> lora llama 3 8b \ufffd" in out
    saved = json.loads((tmp_path / "state" / "session.json").read_text(encoding="utf-8"))
    assert saved["transcript"] and any("llama 3 8b" in e["text"] for e in saved["transcript"] if e["role"] == "user")
    profile = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    assert profile["task"] == "lora" and profile["model"] == "llama-3-8b"


# ------------------------------------------------------------------------------------ 5. config bounds


def _config(tmp_path: Path, source: str, **changes) -> Path:
    config = json.loads((CONFIGS / source).read_text(encoding="utf-8"))
    config.update(changes)
    path = tmp_path / f"{source}.edited.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("source", "changes", "field"),
    [
        ("llama-3.1-8b.json", {"hidden_size": 1e30}, "hidden_size"),
        ("llama-3.1-8b.json", {"num_hidden_layers": 10**9}, "num_layers"),
        ("mixtral-8x7b-v0.1.json", {"num_experts_per_tok": 16}, "num_experts_per_tok"),
    ],
)
def test_estimate_refuses_absurd_dimensions(tmp_path: Path, source: str, changes: dict, field: str) -> None:
    path = _config(tmp_path, source, **changes)
    line = _one_line_error(_cli(tmp_path, "estimate", "--config", str(path), "--task", "lora", "--json"))
    assert field in line and "cannot describe a model" in line


@pytest.mark.parametrize(("flag", "value"), [("--params", "1e30"), ("--batch", "1e12"), ("--seq", "1e30")])
def test_estimate_refuses_absurd_sizes(tmp_path: Path, flag: str, value: str) -> None:
    args = ["estimate", "--task", "lora", "--json", flag, value] + ([] if flag == "--params" else ["--params", "7B"])
    line = _one_line_error(_cli(tmp_path, *args))
    assert flag in line and "at most" in line


# ----------------------------------------------------------------------------------- 6. --state


@pytest.mark.parametrize(("kind", "resume"), [("folder", False), ("folder", True), ("fifo", True), ("device", True)])
def test_state_that_is_not_a_regular_file_is_refused_and_left_alone(tmp_path: Path, kind: str, resume: bool) -> None:
    if kind == "folder":
        target = tmp_path / "session-folder"
        target.mkdir()
        (target / "keep.txt").write_text("mine", encoding="utf-8")
    elif kind == "fifo":
        target = tmp_path / "session.fifo"
        os.mkfifo(target)
    else:  # a link to a device: safe to test even if refusing regressed (the link, not /dev/null, is renamed)
        target = tmp_path / "session-link"
        target.symlink_to("/dev/null")
    args = ["chat", "--state", str(target), "--answers", "-"] + (["--resume"] if resume else [])
    line = _one_line_error(_cli(tmp_path, *args, stdin=b"lora llama 3 8b\n", timeout=30))
    assert str(target) in line and "--state" in line
    if kind == "folder":
        assert target.is_dir() and [p.name for p in target.iterdir()] == ["keep.txt"]
    elif kind == "fifo":
        assert stat.S_ISFIFO(os.lstat(target).st_mode)
    else:
        assert target.is_symlink() and os.readlink(target) == "/dev/null"
    assert sorted(p.name for p in tmp_path.iterdir() if "corrupt" in p.name) == []


def test_stale_temporary_session_files_are_cleaned(tmp_path: Path) -> None:
    state = tmp_path / "s" / "session.json"
    state.parent.mkdir()
    stale = state.parent / ".session.json.k1ll3d.tmp"
    stale.write_text('{"half": ', encoding="utf-8")
    hour_ago = time.time() - 3600
    os.utime(stale, (hour_ago, hour_ago))
    # A crash a moment ago leaves a young one: the lock holder is the only writer, so it goes as well (a
    # process that holds the lock keeps its own: tests/test_session_lock.py).
    fresh = state.parent / ".session.json.wr1t1ng.tmp"
    fresh.write_text("{", encoding="utf-8")
    other = state.parent / ".notes.txt.abc.tmp"  # not ours
    other.write_text("x", encoding="utf-8")
    os.utime(other, (hour_ago, hour_ago))
    proc = _cli(tmp_path, "chat", "--state", str(state), "--answers", "-", stdin=b"lora llama 3 8b\n")
    assert proc.returncode == 0, proc.stderr.decode()
    assert not stale.exists() and not fresh.exists() and other.exists()
    assert json.loads(state.read_text(encoding="utf-8"))["format"] == "gpu-advisor-session"


# --------------------------------------------------------------------------------- 3. control characters


def test_no_control_characters_reach_the_terminal_or_the_reports(tmp_path: Path) -> None:
    config = _config(tmp_path, "llama-3.1-8b.json", _name_or_path=EVIL)
    answers = f"lora with {config}\x1b[31m \x07\x9b\n".encode() + b"budget 40k\x1b]0;x\x07\n"
    proc = _cli(tmp_path, "chat", "--answers", "-", "--report", "r.md", stdin=answers, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode("utf-8") + proc.stderr.decode("utf-8")
    assert not CONTROLS.findall(out), sorted(set(CONTROLS.findall(out)))
    assert "> lora with " in out and "[31m" in out  # the answer is kept, less its control characters
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert config.name in md and not CONTROLS.findall(md)
    session = (tmp_path / "state" / "session.json").read_text(encoding="utf-8")
    assert "\\u001b" not in session and "\x1b" not in session

    profile = tmp_path / "profile.json"
    profile.write_text(json.dumps({"language": "en", "task": "lora", "model_text": str(config),
                                   "params": 8_030_261_248, "budget_usd": 40_000}), encoding="utf-8")
    proc = _cli(tmp_path, "recommend", "--profile", str(profile), "-o", "r.html")
    assert proc.returncode == 0, proc.stderr.decode()
    report = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert not CONTROLS.findall(report)


def test_estimate_prints_no_control_characters_from_a_config_name(tmp_path: Path) -> None:
    config = _config(tmp_path, "llama-3.1-8b.json", _name_or_path=EVIL)
    for extra in ([], ["--json"]):
        proc = _cli(tmp_path, "estimate", "--config", str(config), "--task", "lora", *extra)
        assert proc.returncode == 0, proc.stderr.decode()
        out = proc.stdout.decode("utf-8")
        assert "evil[2J" in out and not CONTROLS.findall(out)


def test_a_path_with_control_characters_is_shown_on_one_clean_line(tmp_path: Path) -> None:
    line = _one_line_error(_cli(tmp_path, "recommend", "--profile", "no\x1b[2Jsuch\nfile.json"))
    assert "no[2Jsuch file.json" in line


# ------------------------------------------------------------------------- the helpers, directly (fast)


def test_read_bounded_limits_and_refusals(tmp_path: Path, fifo: Path) -> None:
    from advisor.fsutil import InputFileError, read_bounded

    small = tmp_path / "small.txt"
    small.write_bytes(b"x" * 100)
    assert read_bounded(small, 100) == b"x" * 100
    for path, limit, reason in [(small, 99, "too_large"), (fifo, 100, "not_regular"),
                                (Path("/dev/zero"), 100, "not_regular"), (tmp_path, 100, "directory")]:
        with pytest.raises(InputFileError) as info:
            read_bounded(path, limit)
        assert info.value.reason == reason and str(path) in str(info.value)
    with pytest.raises(FileNotFoundError):
        read_bounded(tmp_path / "absent", 100)


def test_session_module_never_moves_or_replaces_a_special_file(tmp_path: Path, fifo: Path) -> None:
    from advisor.conversation import session

    for target in (fifo, tmp_path / "folder"):
        if not target.exists():
            target.mkdir()
        for call in (lambda t=target: session.load(t), lambda t=target: session.move_aside(t),
                     lambda t=target: session.save(t, {"transcript": []})):
            with pytest.raises(session.SessionRefused):
                call()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and (tmp_path / "folder").is_dir()
    assert not [p for p in tmp_path.iterdir() if "corrupt" in p.name]


@pytest.mark.parametrize(
    ("text", "clean"),
    [("a\x1b[2Jb", "a[2Jb"), ("tab\tand\nnewline", "tab\tand\nnewline"), ("crlf\r\nline", "crlf\nline"),
     ("c1\x9b\x85x", "c1x"), ("nul\x00del\x7f", "nuldel"), ("bad \udcff byte", "bad \ufffd byte"), ("", "")],
)
def test_clean_text(text: str, clean: str) -> None:
    from advisor.sanitize import clean_text, one_line

    assert clean_text(text) == clean
    assert one_line(text) == clean.replace("\n", " ").replace("\t", " ")


@pytest.mark.parametrize("flag", ["--report", "--profile-out"])
def test_chat_never_replaces_a_device_or_a_fifo_with_its_output(tmp_path: Path, fifo: Path, flag: str) -> None:
    link = tmp_path / "out-link.md"
    link.symlink_to("/dev/null")  # a link, so that a regression replaces the link, never /dev/null itself
    for target in (link, fifo):
        proc = _cli(tmp_path, "chat", "--answers", "-", flag, str(target), stdin=b"lora llama 3 8b\n", timeout=120)
        err = proc.stderr.decode("utf-8")
        assert proc.returncode == 2 and "Traceback" not in err and str(target) in err, err
    assert link.is_symlink() and os.readlink(link) == "/dev/null"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
