"""The TUI survives hostile input (issue #12): a saved path that looks like Textual markup, an invalid
UTF-8 byte typed at the terminal (Pilot, and the real `gpu-advisor` in a pseudo-terminal), and control
characters in typed text or in a resumed transcript."""

from __future__ import annotations

import json
import os
import re

from textual.widgets import Input
from textual.widgets._toast import Toast

from advisor.consultation import Consultation
from advisor.tui.app import INPUT_DRIVERS, create_app
from advisor.tui.widgets import AdvisorMessage, UserMessage

from .fakes import FakeConversation
from .terminal import PtyApp
from .test_chat import SIZE, _send, sync

CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@sync
async def test_a_saved_path_that_looks_like_markup_is_shown_literally(tmp_path) -> None:
    folder = tmp_path / "[/x]" / "[draft]"
    folder.mkdir(parents=True)
    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await _send(app, pilot, "LoRA Mistral 7B")
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.screen.query_one("#save-path", Input).value = str(folder / "r.md")
        await pilot.click("#save")
        await pilot.pause(0.2)
        toasts = list(app.screen.query(Toast))
        assert toasts, "the notification is shown"
        assert "[/x]/[draft]/r.md" in str(toasts[0].render())  # rendered, not parsed as markup
    assert (folder / "r.md").read_text(encoding="utf-8").strip()


def test_the_input_drivers_decode_an_invalid_byte_as_a_replacement_character() -> None:
    import importlib

    create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    checked = 0
    for name in INPUT_DRIVERS:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        decode = module.getincrementaldecoder("utf-8")().decode
        assert decode(b"ok \xff") + decode(b"\xe4\xbd", final=False) + decode(b"\xa0", final=True) == "ok \ufffd你"
        checked += 1
    assert checked >= 1


def test_an_invalid_byte_typed_at_the_terminal_does_not_end_the_app(tmp_path) -> None:
    with PtyApp(["--lang", "en"], tmp_path / "state") as app:
        assert app.read(20, until=b"LoRA"), app.tail(2000)  # the first question is on screen
        app.write(b"\xff")
        assert app.read(1.0) and app.alive(), app.tail()
        assert b"UnicodeDecodeError" not in app.seen
        status = app.quit(10)
        assert status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status


@sync
async def test_control_characters_typed_never_reach_the_screen_or_the_conversation(tmp_path) -> None:
    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await _send(app, pilot, "LoRA \x1b[2J\x1b]0;pwned\x07Mistral\x9b 7B\x00")
        shown = [m.text for m in app.main.query(UserMessage)]
        assert shown == ["LoRA [2J]0;pwnedMistral 7B"]
        assert app.conversation.handled == ["LoRA [2J]0;pwnedMistral 7B"]


@sync
async def test_a_resumed_transcript_is_shown_without_control_characters(tmp_path) -> None:
    state = tmp_path / "session.json"
    conv = Consultation("en", state, recommender=lambda p: (_ for _ in ()).throw(RuntimeError("no")))
    conv.start()
    conv.handle("lora")
    data = json.loads(state.read_text(encoding="utf-8"))
    for entry in data["transcript"]:
        entry["text"] = entry["text"] + "\x1b[2J\x1b]0;pwned\x07\x9b1m\r"
    state.write_text(json.dumps(data), encoding="utf-8")
    app = create_app(lang="en", resume=True, state_path=state)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        users = [m.text for m in app.main.query(UserMessage)]
        advisor = [m.source for m in app.main.query(AdvisorMessage)]
        assert "lora[2J]0;pwned1m" in users
        assert advisor and not any(CONTROLS.search(text) for text in users + advisor)
    saved = json.loads(state.read_text(encoding="utf-8"))
    assert not any(CONTROLS.search(e["text"]) for e in saved["transcript"])


@sync
async def test_a_second_dismiss_does_not_end_the_app(tmp_path) -> None:
    # Random keys in tmux (issue #12) ended the app: two Enters in the command palette within one frame
    # dismissed it twice, and the second pop found only the chat screen (ScreenStackError).
    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(app.screen_stack) == 1
        await app.pop_screen()  # what the stale dismiss does
        await pilot.pause()
        assert len(app.screen_stack) == 1 and app.is_running
