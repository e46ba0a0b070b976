"""Start-up: a broken knowledge or rules file stops every front end with one line naming the file,
the entry and the problem (issue #4, #7) — never a traceback, never a conversation that fails later."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "advisor.cli"]


def _broken_copy(tmp_path: Path, folder: str, file: str, old: str, new: str) -> Path:
    for name in ("knowledge", "rules", "templates"):
        shutil.copytree(ROOT / name, tmp_path / name)
    path = tmp_path / folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("args", [[], ["chat", "--answers", "-"], ["gpus"]])
def test_broken_gpu_entry_stops_start_up(tmp_path, args) -> None:
    data = _broken_copy(tmp_path, "knowledge", "gpus.yaml", "memory_gb: 80", "memory_gb: -80")
    env = {**os.environ, "GPU_ADVISOR_DATA": str(data), "GPU_ADVISOR_STATE": str(tmp_path / "state")}
    out = subprocess.run(CLI + args, input="hello\n", capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 2
    assert "gpus.yaml" in out.stderr and "memory_gb" in out.stderr and "greater than 0" in out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    assert out.stdout.strip() == ""  # no conversation started


def test_broken_rule_stops_start_up(tmp_path) -> None:
    data = _broken_copy(tmp_path, "rules", "memory.yaml", "severity: warning", "severity: awful")
    env = {**os.environ, "GPU_ADVISOR_DATA": str(data), "GPU_ADVISOR_STATE": str(tmp_path / "state")}
    out = subprocess.run(CLI + ["chat", "--answers", "-"], input="", capture_output=True, text=True, env=env,
                         timeout=60)
    assert out.returncode == 2
    assert "memory.yaml" in out.stderr and "severity" in out.stderr and "awful" not in out.stdout
    assert "Traceback" not in out.stderr
