"""The session file: every answer saved atomically as it is given, restored by `resume`, a corrupt file
moved aside (renamed, never deleted), and an answer caught mid-turn replayed after a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.conversation import session
from advisor.consultation import Consultation as Conversation
from tests.conversation.conftest import FakeConsultation
from advisor.i18n import t


def _session(path: Path) -> dict:
    return session.load(path)


def test_every_answer_is_saved_as_it_is_given(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    conv = Conversation("en", path)
    conv.start()
    assert _session(path)["pending"] == "task"
    for answer, field, value in [("qlora", "task", "qlora"), ("Mistral 7B", "model", "mistral-7b"),
                                 ("2B tokens", "tokens", 2_000_000_000)]:
        conv.handle(answer)
        data = _session(path)
        assert data["profile"][field] == value
        assert [e["text"] for e in data["transcript"] if e["role"] == "user"][-1] == answer
        assert "inbox" not in data
    assert not list(tmp_path.glob("*.tmp"))  # atomic writes leave no temporary files


def test_default_path_is_in_the_state_folder(_state_dir: Path) -> None:
    conv = Conversation("en")
    conv.start()
    assert conv.state_path == _state_dir / "session.json"
    assert (_state_dir / "session.json").exists()


def test_resume_restores_everything(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    conv = Conversation("zh-Hant", path)
    conv.start()
    conv.handle("我們想用 LoRA 微調 Llama 3 8B")
    conv.handle("5 萬筆樣本，每筆平均 600 token")
    back = Conversation.resume(path)
    assert back.profile == conv.profile
    assert (back.stage, back.pending, back.locale) == (conv.stage, conv.pending, "zh-Hant")
    assert back.answered == conv.answered and len(back.history) == len(conv.history)
    replies = back.start()
    assert replies[0].text == t("conv.resumed", "zh-Hant", count=2)
    assert replies[-1].kind == "question" and back.pending == "precision"
    back.handle("/back")  # the history came back too
    assert back.pending == "data" and back.profile.tokens is None


def test_resume_after_the_recommendation(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    conv = FakeConsultation("en", path)
    conv.start()
    for _ in range(8):
        conv.handle("")
    conv.handle("yes")
    assert conv.recommendation is not None
    back = FakeConsultation.resume(path)
    assert back.recommendation == conv.recommendation and back.stage == "advise"
    back.start()
    assert "leaves only 3.4 GiB free" in back.handle("/why")[0].text  # the stand-in's finding, worded again


@pytest.mark.parametrize("content", [
    b"{not json",
    b"[1, 2, 3]",
    b'{"format": "something-else", "version": 1}',
    b'{"format": "gpu-advisor-session", "version": 99}',
    b'{"format": "gpu-advisor-session", "version": 1, "locale": "en", "profile": {"params": -5}}',
    b'{"format": "gpu-advisor-session", "version": 1, "locale": "xx", "profile": {}}',
    b'{"format": "gpu-advisor-session", "version": 1, "locale": "en", "profile": {}, "history": "nope"}',
    b"\xff\xfe\x00garbage",
    b"",
])
def test_corrupt_file_is_moved_aside_not_deleted(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(content)
    conv = Conversation.resume(path, locale="zh-Hans")
    moved = list(tmp_path.glob("s.json.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == content
    replies = conv.start()
    assert replies[0].kind == "error"
    assert replies[0].text == t("conv.resume_corrupt", "zh-Hans", moved=str(moved[0]))
    assert conv.profile.task is None and conv.pending == "task"
    assert _session(path)["pending"] == "task"  # a fresh, valid file replaces it


def test_two_corrupt_files_do_not_overwrite_each_other(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    for content in (b"first", b"second"):
        path.write_bytes(content)
        Conversation.resume(path)
    kept = sorted(p.read_bytes() for p in tmp_path.glob("s.json.corrupt-*"))
    assert kept == [b"first", b"second"]


def test_nothing_to_resume(tmp_path: Path) -> None:
    conv = Conversation.resume(tmp_path / "none.json", locale="en")
    replies = conv.start()
    assert replies[0].text == t("conv.resume_none", "en")
    assert replies[1].text == t("conv.greeting", "en")


def test_an_answer_caught_mid_turn_is_replayed(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    conv = Conversation("en", path)
    conv.start()
    conv.handle("LoRA")
    conv._save(inbox="Mistral 7B")  # what handle() writes before it starts working on an answer
    back = Conversation.resume(path)
    back.start()
    assert back.profile.model == "mistral-7b" and back.pending == "data"
    assert "inbox" not in _session(path)


def test_unwritable_state_is_reported_once_and_the_conversation_goes_on(tmp_path: Path) -> None:
    conv = Conversation("en", tmp_path)  # a folder where the file should be
    conv.start()
    first = conv.handle("LoRA")
    assert first[-1].kind == "error" and first[-1].text.startswith("Note: I could not save the conversation")
    second = conv.handle("Mistral 7B")
    assert all(not r.text.startswith("Note:") for r in second)
    assert conv.profile.task == "lora" and conv.profile.model == "mistral-7b"


def test_memory_only_conversation_writes_nothing(tmp_path: Path, _state_dir: Path) -> None:
    conv = Conversation("en", persist=False)
    conv.start()
    conv.handle("LoRA")
    assert conv.state_path is None and not _state_dir.exists()


def test_session_file_is_plain_json(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    conv = Conversation("en", path)
    conv.start()
    conv.handle("QLoRA on Qwen2.5-7B, 预算 20 万元")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "gpu-advisor-session" and data["version"] == 1
    assert data["profile"]["budget_currency"] == "CNY" and "预算 20 万元" in path.read_text(encoding="utf-8")
