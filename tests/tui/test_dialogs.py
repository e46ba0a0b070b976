"""Pilot tests of the save dialog (format, ~, overwrite, errors) and the help screen, in several languages."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Label

from advisor.tui.app import create_app
from advisor.tui.screens import ConfirmDialog, HelpScreen, SaveDialog
from advisor.tui.widgets import MarkdownText

from .fakes import FakeConversation
from .test_chat import SIZE, _send, sync


async def _with_recommendation(app, pilot) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()
    await _send(app, pilot, "LoRA Mistral 7B")
    assert app.conversation.recommendation is not None


async def _fill(pilot, app, text: str) -> None:
    box = app.screen.query_one("#save-path", Input)
    box.value = text
    await pilot.pause()


@sync
async def test_save_dialog_writes_the_chosen_format_and_expands_home(tmp_path) -> None:
    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await _with_recommendation(app, pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SaveDialog)
        assert app.screen.query_one("#save-path", Input).value == "gpu-advisor-report.md"
        await _fill(pilot, app, "~/out/report.md")
        await pilot.click("#fmt-html")  # the suffix follows the format
        await pilot.pause()
        assert app.screen.query_one("#save-path", Input).value == "~/out/report.html"
        await pilot.click("#save")
        await pilot.pause()
        assert not isinstance(app.screen, SaveDialog)
    written = Path.home() / "out" / "report.html"
    html = written.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "NVIDIA H100 SXM5 80GB" in html


@sync
async def test_save_dialog_asks_before_overwriting(tmp_path) -> None:
    target = tmp_path / "r.json"
    target.write_text("keep me", encoding="utf-8")
    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await _with_recommendation(app, pilot)
        await pilot.press("ctrl+s")
        await _fill(pilot, app, str(target))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert str(target) in str(app.screen.query_one(".question", Label).render())
        await pilot.click("#no")
        await pilot.pause()
        assert isinstance(app.screen, SaveDialog) and target.read_text(encoding="utf-8") == "keep me"
        await pilot.click("#save")
        await pilot.pause()
        await pilot.click("#yes")
        await pilot.pause()
        assert not isinstance(app.screen, SaveDialog)
    assert target.read_text(encoding="utf-8").lstrip().startswith("{")


@sync
async def test_save_dialog_shows_a_localized_error_for_an_unwritable_place(tmp_path) -> None:
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    app = create_app(lang="zh-Hant", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await _with_recommendation(app, pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen.query_one(".title", Label).render().plain == "儲存報告"
        await _fill(pilot, app, str(tmp_path / "a-file" / "r.md"))
        await pilot.click("#save")
        await pilot.pause()
        assert isinstance(app.screen, SaveDialog), "the dialog stays open so the user can fix the path"
        error = app.screen.query_one("#save-error", Label).render().plain
        assert "無法寫入" in error and "a-file" in error
        await _fill(pilot, app, str(tmp_path))  # a folder
        await pilot.click("#save")
        await pilot.pause()
        assert "資料夾" in app.screen.query_one("#save-error", Label).render().plain
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SaveDialog)


@sync
async def test_save_before_any_recommendation_says_so() -> None:
    app = create_app(lang="zh-Hans", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await _send(app, pilot, "/save")
        assert not isinstance(app.screen, SaveDialog)
        assert any("还没有可以保存" in str(n.message) for n in app._notifications)


@sync
async def test_help_screen_in_the_current_language() -> None:
    app = create_app(lang="zh-Hant", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one("#help-text", MarkdownText).source
        for word in ("指令", "快速鍵", "/save", "儲存報告", "Ctrl+S", "F1"):
            assert word in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        await _send(app, pilot, "/help")
        assert isinstance(app.screen, HelpScreen)
        assert app.conversation.handled == []  # handled by the shell, not sent to the conversation


@sync
async def test_slash_save_onto_an_existing_file_asks_first(tmp_path) -> None:
    """`/save PATH` typed in the chat does not silently replace a file: it asks, like the dialog; "keep it"
    leaves the file alone and gives the command back to edit; "replace" saves."""
    target = tmp_path / "r.md"
    target.write_text("keep me", encoding="utf-8")
    app = create_app(lang="zh-Hant", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await _with_recommendation(app, pilot)
        prompt = app.main.query_one("#prompt", Input)
        prompt.value = f"/save {target}"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "已存在，要覆寫嗎" in str(app.screen.query_one(".question", Label).render())
        await pilot.click("#no")
        await pilot.pause()
        assert target.read_text(encoding="utf-8") == "keep me"
        assert app.conversation.handled == ["LoRA Mistral 7B"]  # never reached the conversation
        assert any("未儲存" in str(n.message) for n in app._notifications)
        assert prompt.value == f"/save {target}" and app.focused is prompt
        await pilot.press("enter")
        await pilot.pause()
        await pilot.click("#yes")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.conversation.handled[-1] == f"/save {target}"
    assert target.read_text(encoding="utf-8").startswith("# ")


@sync
async def test_slash_save_to_a_new_file_does_not_ask(tmp_path) -> None:
    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await _with_recommendation(app, pilot)
        await _send(app, pilot, f"/save {tmp_path / 'new.md'}")
        assert not isinstance(app.screen, ConfirmDialog)
    assert (tmp_path / "new.md").is_file()
