"""`/save PATH` in `gpu-advisor chat` onto a file that is already there: asked at a terminal (as the TUI asks),
refused when the answers come from a pipe; a new file is written as before."""

from __future__ import annotations

import io
import sys

import pytest

from advisor.cli import main

ANSWERS = ["用 LoRA 微调 Mistral 7B，5000 万 token、2 轮、序列长度 4096，BF16 混合精度，两周内完成；"
           "预算 21 万人民币；自有机房，单机柜 12 kW，风冷；打算用三年", "对"]
OLD = "my notes, not a report\n"


class _Stdin:
    """stdin whose byte stream says whether it is a terminal."""

    def __init__(self, text: str, tty: bool) -> None:
        self.buffer = _Bytes(text.encode("utf-8"), tty)


class _Bytes(io.BytesIO):
    def __init__(self, data: bytes, tty: bool) -> None:
        super().__init__(data)
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def _chat(monkeypatch, tmp_path, lines: list[str], tty: bool) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin("\n".join(lines) + "\n", tty))
    assert main(["chat", "--state", str(tmp_path / "session.json")]) == 0


@pytest.fixture
def existing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GPU_ADVISOR_STATE", str(tmp_path / "state"))
    target = tmp_path / "r.md"
    target.write_text(OLD, encoding="utf-8")
    return target


def test_a_pipe_never_replaces_a_file(existing, tmp_path, monkeypatch, capsys) -> None:
    _chat(monkeypatch, tmp_path, [*ANSWERS, f"/save {existing}", "/save new.md"], tty=False)
    out = capsys.readouterr().out
    assert existing.read_text(encoding="utf-8") == OLD
    assert f"未保存：{existing} 已存在，而从文件或管道读入的回答不会覆盖已有文件。" in out
    assert (tmp_path / "new.md").read_text(encoding="utf-8").startswith("# GPU 选型建议")  # a new name still saves


@pytest.mark.parametrize(("answer", "replaced"), [("y", True), ("覆盖", True), ("", False), ("n", False)])
def test_a_terminal_is_asked(existing, tmp_path, monkeypatch, capsys, answer, replaced) -> None:
    _chat(monkeypatch, tmp_path, [*ANSWERS, f"/save {existing}", answer], tty=True)
    out = capsys.readouterr().out
    assert f"{existing} 已存在，要覆盖吗？（输入 y 覆盖，直接回车保留原文件）" in out
    text = existing.read_text(encoding="utf-8")
    if replaced:
        assert text.startswith("# GPU 选型建议")
    else:
        assert text == OLD
        assert f"未保存：{existing} 保持原样。" in out
