"""The TUI survives its surroundings (issue #12), through Pilot with the real consultation:

- a second TUI on a session file that another gpu-advisor holds is told who has it and offered a separate
  session (or leaves), in the user's language; a lock left by a dead process is taken over silently, and
  the temporary files of a crashed write are cleaned on start;
- the state folder deleted while the app runs, a folder that cannot be made again, a full disk: a message
  in the user's language, never a traceback, and no typed answer lost (saving resumes by itself);
- resize storms, idle and while a turn runs;
- file names for /save up to the file system's limit save; longer ones get a clear message.
"""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.events import Resize
from textual.geometry import Size
from textual.widgets import Input, Label

from advisor.tui.app import create_app
from advisor.tui.screens import ConfirmDialog, SaveDialog
from advisor.tui.widgets import AdvisorMessage, UserMessage

from .fakes import FakeConversation
from .terminal import PtyApp
from .test_chat import SIZE, _send, sync

ROOT = Path(__file__).resolve().parents[2]


def _user_answers(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [e["text"] for e in data["transcript"] if e["role"] == "user"]


def _errors(app) -> list[str]:
    return [m.source for m in app.main.query(AdvisorMessage) if m.kind == "error"]


def _texts(app) -> list[str]:
    return [m.source for m in app.main.query(AdvisorMessage)]


@pytest.fixture
def held(tmp_path):
    """`gpu-advisor chat` running on the default session file (so holding its lock), waiting on a pipe."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), GPU_ADVISOR_STATE=str(tmp_path / "state"), LANG="C.UTF-8")
    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", "chat", "--answers", "-", "--lang", "en"],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=tmp_path, env=env)
    state = tmp_path / "state" / "session.json"
    assert proc.stdin is not None
    proc.stdin.write(b"LoRA\n")
    proc.stdin.flush()
    end = time.monotonic() + 30
    while not (state.is_file() and _user_answers(state) == ["LoRA"]):
        assert time.monotonic() < end and proc.poll() is None, "the holder did not start"
        time.sleep(0.05)
    try:
        yield proc, state
    finally:
        proc.kill()
        proc.wait(timeout=30)


@pytest.mark.parametrize(
    ("lang", "words", "answer"),
    [("en", "already open in another gpu-advisor", "QLoRA"),
     ("zh-Hans", "已在另一个 gpu-advisor 中打开", "我想用 QLoRA 微调"),
     ("zh-Hant", "已在另一個 gpu-advisor 中開啟", "我想用 QLoRA 微調")],
)
@sync
async def test_a_second_tui_on_a_held_session_offers_a_separate_one(held, lang, words, answer) -> None:
    proc, state = held
    before = state.read_bytes()
    app = create_app(lang=lang, state_path=state)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        question = app.screen.query_one(".question", Label).render().plain
        assert words in question and str(proc.pid) in question
        await pilot.click("#yes")
        await app.workers.wait_for_complete()
        await pilot.pause()
        separate = state.with_name("session-2.json")
        assert app.state_path == separate
        await _send(app, pilot, answer)
        assert _user_answers(separate) == [answer]
        assert state.read_bytes() == before  # the other one's answers are untouched
    assert not separate.with_name("session-2.json.lock").exists()  # released when the app ended
    assert proc.poll() is None


@sync
async def test_a_second_tui_may_leave_instead(held) -> None:
    _proc, state = held
    before = state.read_bytes()
    app = create_app(lang="zh-Hant", state_path=state)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert app.screen.query_one("#no").render().plain.strip() == "離開"  # type: ignore[attr-defined]
        await pilot.click("#no")
        await pilot.pause()
    assert app.return_value == 0
    assert state.read_bytes() == before


@sync
async def test_a_dead_processs_lock_is_taken_over_and_crash_leftovers_cleaned(tmp_path) -> None:
    state = tmp_path / "state" / "session.json"
    state.parent.mkdir(parents=True)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    lock = state.with_name("session.json.lock")
    lock.write_text(json.dumps({"pid": pid, "host": "vm", "since": "2026-01-01T00:00:00"}), encoding="utf-8")
    leftover = state.parent / ".session.json.k1ll3d.tmp"  # a write cut short a second ago
    leftover.write_text('{"half": ', encoding="utf-8")
    other = state.parent / ".notes.md.abc.tmp"  # not ours
    other.write_text("x", encoding="utf-8")
    app = create_app(lang="en", state_path=state)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmDialog)
        assert json.loads(lock.read_text(encoding="utf-8"))["pid"] == os.getpid()
        assert not leftover.exists() and other.exists()
        await _send(app, pilot, "LoRA")
        assert _user_answers(state) == ["LoRA"]


def _still_locked(state: Path) -> bool:
    """Whether another process is refused the session (the lock file, made again, is really held)."""
    code = ("import sys; from advisor.conversation import session as S\n"
            "try:\n    S.SessionLock.acquire(sys.argv[1])\nexcept S.SessionLocked:\n    print('locked')\n")
    out = subprocess.run([sys.executable, "-c", code, str(state)], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    return out.stdout.strip() == "locked"


@sync
async def test_the_state_folder_deleted_while_the_app_runs(tmp_path) -> None:
    folder = tmp_path / "state"
    state = folder / "session.json"
    app = create_app(lang="zh-Hans", state_path=state)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await _send(app, pilot, "我想用 LoRA 微调")
        shutil.rmtree(folder)  # rm -rf of the state folder
        await _send(app, pilot, "Mistral 7B")
        assert _user_answers(state) == ["我想用 LoRA 微调", "Mistral 7B"]  # made again, nothing lost
        assert _still_locked(state)
        assert _errors(app) == []
        shutil.rmtree(folder)
        folder.write_text("not a folder", encoding="utf-8")  # now it cannot be made again
        await _send(app, pilot, "5000 万 token")
        errors = _errors(app)
        assert len(errors) == 1 and "所在的文件夹不存在，也无法创建" in errors[0] and "Errno" not in errors[0], errors
        await _send(app, pilot, "bf16")  # still failing: said once
        assert len(_errors(app)) == 1
        folder.unlink()
        await _send(app, pilot, "两天内")
        assert any("保存已恢复" in text for text in _texts(app))
        assert _user_answers(state) == ["我想用 LoRA 微调", "Mistral 7B", "5000 万 token", "bf16", "两天内"]
        assert app.is_running


@sync
async def test_a_full_disk_is_said_in_the_users_language_and_loses_nothing(tmp_path, monkeypatch) -> None:
    state = tmp_path / "state" / "session.json"
    app = create_app(lang="zh-Hant", state_path=state)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await _send(app, pilot, "我想用 LoRA 微調")

        def full(_fd: int) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "fsync", full)  # every write of the session file now fails as on a full disk
        await _send(app, pilot, "Mistral 7B")
        await _send(app, pilot, "五千萬個 token")
        errors = _errors(app)
        assert len(errors) == 1 and "磁碟已滿" in errors[0] and "Errno" not in errors[0], errors
        assert _user_answers(state) == ["我想用 LoRA 微調"]  # the old file is intact, not torn
        assert not [p for p in state.parent.iterdir() if p.name.endswith(".tmp")]
        monkeypatch.undo()  # space is back
        await _send(app, pilot, "bf16")
        assert any("儲存已恢復" in text for text in _texts(app))
        assert _user_answers(state) == ["我想用 LoRA 微調", "Mistral 7B", "五千萬個 token", "bf16"]
        assert app.is_running


class SlowConversation(FakeConversation):
    def handle(self, text: str):
        time.sleep(0.4)  # the worker thread: a turn in progress while the terminal is resized
        return super().handle(text)


def _storm(app, rng: random.Random, count: int) -> None:
    """`count` resizes posted at once, as a window manager dragging a corner sends them (1×1 included)."""
    for _ in range(count):
        size = Size(rng.choice([1, 2, 5, 20, 40, 79, 80, 100, 160, 400]), rng.choice([1, 2, 3, 10, 24, 50, 120]))
        app._driver._size = size  # what the headless driver reports, as Pilot.resize_terminal sets it
        app.post_message(Resize(size, size))


@sync
async def test_resize_storms_never_crash(tmp_path) -> None:
    rng = random.Random(12)
    app = create_app(lang="en", state_path=None, conversation_factory=SlowConversation)
    async with app.run_test(size=SIZE) as pilot:
        _storm(app, rng, 150)  # while starting
        await app.workers.wait_for_complete()
        await pilot.pause()
        for width, height in [(1, 1), (3, 2), (200, 60), (10, 5), (120, 40)]:
            await pilot.resize_terminal(width, height)
        prompt = app.main.query_one("#prompt", Input)
        prompt.insert_text_at_cursor("LoRA Mistral 7B")
        await pilot.press("enter")
        _storm(app, rng, 300)  # while the turn runs
        await pilot.pause()
        await pilot.press("f2")  # the results table, then back, mid-storm
        _storm(app, rng, 100)
        await pilot.press("f2")
        await app.workers.wait_for_complete()
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert app.is_running
        assert [m.text for m in app.main.query(UserMessage)] == ["LoRA Mistral 7B"]
        assert any(m.kind == "recommendation" for m in app.main.query(AdvisorMessage))


@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
@sync
async def test_long_file_names_for_save(tmp_path, lang) -> None:
    app = create_app(lang=lang, state_path=None, conversation_factory=FakeConversation)
    longest = "r" * 252 + ".md"  # 255 bytes: the longest name ext4, xfs, btrfs and tmpfs take
    chinese = "報告" * 40 + ".md"  # 243 bytes in UTF-8
    too_long = "r" * 300 + ".md"
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await _send(app, pilot, "LoRA Mistral 7B")
        for name in (longest, chinese):
            await _send(app, pilot, f"/save {tmp_path / name}")
            assert (tmp_path / name).read_text(encoding="utf-8").strip()
        await _send(app, pilot, f"/save {tmp_path / too_long}")
        error = _errors(app)[-1]
        assert ("too long" if lang == "en" else "文件名") in error and "255" in error, error
        await pilot.press("ctrl+s")
        await pilot.pause()
        box = app.screen.query_one("#save-path", Input)
        box.value = str(tmp_path / ("長" * 100 + ".html"))  # 300 bytes
        await pilot.click("#save")
        await pilot.pause()
        assert isinstance(app.screen, SaveDialog), "the dialog stays open so the user can shorten the name"
        shown = app.screen.query_one("#save-error", Label).render().plain
        assert "255" in shown
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith((".md", ".html"))) == sorted([longest, chinese])
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@sync
async def test_closing_the_command_palette_mid_search_does_not_end_the_app(tmp_path) -> None:
    # Random keys in tmux (issue #12) ended the app: the palette closed while its search still ran (slow, the
    # recommendation was computing), and the search's last step, `_show_busy = False`, ran Textual's watcher,
    # which looks up the palette's children, already gone (NoMatches). Here that step is taken by hand.
    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        palette._show_busy = True  # the search has run for more than 0.5 s
        await pilot.pause()
        await pilot.press("escape")
        for _ in range(3):
            await pilot.pause()
        palette._show_busy = False  # the search ends after the palette closed
        palette._list_visible = False
        await pilot.pause(0.2)
        assert app.is_running and len(app.screen_stack) == 1


@pytest.mark.parametrize("which", ["help", "confirm", "save"])
@sync
async def test_a_dialog_closed_in_the_frame_it_opened_in_does_not_end_the_app(tmp_path, which) -> None:
    # Random keys in tmux (issue #12) ended the app: F1 and Escape in one read of the terminal closed the help
    # before its on_mount ran, which then looked for its children (NoMatches). The same for each dialog.
    from advisor.tui.screens import HelpScreen

    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        for _ in range(3):
            screen = {"help": lambda: HelpScreen("en"),
                      "confirm": lambda: ConfirmDialog("?", "yes", "no"),
                      "save": lambda: SaveDialog("en", "r.md", lambda text, fmt: Path(text), lambda text: False)}[which]()
            app.push_screen(screen)
            screen.dismiss()  # no await: in the same frame
            await pilot.pause()
            await pilot.pause()
        assert app.is_running and len(app.screen_stack) == 1
        # Two Escapes (or Enters) reaching one dialog before it is gone: one result, nothing popped below it.
        answers: list[object] = []
        app.push_screen(HelpScreen("en"))
        await pilot.pause()
        screen = {"help": lambda: HelpScreen("en"),
                  "confirm": lambda: ConfirmDialog("?", "yes", "no"),
                  "save": lambda: SaveDialog("en", "r.md", lambda text, fmt: Path(text), lambda text: False)}[which]()
        app.push_screen(screen, answers.append)
        await pilot.pause()
        screen.dismiss()
        screen.dismiss()
        await pilot.pause()
        assert app.is_running and len(answers) == 1
        assert isinstance(app.screen, HelpScreen) and len(app.screen_stack) == 2


@sync
async def test_a_message_sent_as_the_app_quits_is_dropped_not_a_crash(tmp_path) -> None:
    # Random keys in tmux (issue #12): Enter in the same read as the palette's Quit mounted the user's bubble
    # on a closing app (MountError, a traceback after the app had ended).
    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.exit(0)
        assert app.start_turn("LoRA Mistral 7B") is None
        await app._after_turn([])
        app._saved(tmp_path / "r.md")
    assert app.return_value == 0


@sync
async def test_page_keys_in_the_palette_before_its_list_is_laid_out(tmp_path) -> None:
    # Random keys in tmux (issue #12): Page Up in the palette before its list had laid out any line ended the
    # app (KeyError in Textual's OptionList).
    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("ctrl+p")
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        palette.query_one(CommandList).add_option("x")  # an option whose line is not laid out yet, highlighted
        palette.query_one(CommandList).highlighted = 0
        palette.query_one(CommandList).styles.height = 0
        await pilot.pause()
        for key in ("pageup", "pagedown", "pageup"):
            await pilot.press(key)
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running


def test_the_real_app_runs_where_no_state_folder_can_be_made(tmp_path) -> None:
    # `gpu-advisor` in a pseudo-terminal with its state folder under a regular file (what a read-only home
    # does for a normal user): it used to stop at start with "unexpected error"; now it runs, says why the
    # consultation cannot be saved, in the user's language, and quits cleanly.
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    with PtyApp(["--lang", "zh-Hant"], blocker / "state") as app:
        assert app.read(30, until=b"LoRA"), app.tail(2000)
        app.write(b"LoRA\r")
        assert app.read(30, until="無法建立".encode()), app.tail()
        status = app.quit(15)
        assert status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
        assert b"Traceback" not in app.seen and b"unexpected error" not in app.seen
