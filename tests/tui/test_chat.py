"""Pilot tests of the chat screen: the real consultation in Simplified Chinese end to end, then the shell's
own behaviour (quick replies, side panel, busy indicator, errors, language, resume) against a fake conversation."""

from __future__ import annotations

import asyncio
import functools
import threading

from textual.widgets import Button, DataTable, Input

from advisor.conversation import session
from advisor.tui.app import create_app
from advisor.tui.screens import ConfirmDialog
from advisor.tui.widgets import AdvisorMessage, ProfileItem, QuickReplies, UserMessage

from .fakes import FakeConversation

SIZE = (120, 40)


def sync(test):
    """Run an async Pilot test with asyncio (no pytest async plugin needed)."""

    @functools.wraps(test)
    def wrapper(*args, **kwargs):
        asyncio.run(test(*args, **kwargs))

    return wrapper
CHINESE = "我想用 LoRA 微调 Mistral 7B，预算三万美元，机房单个机柜 12 千瓦，风冷"


async def _send(app, pilot, text: str) -> None:
    """Type `text` as a user would (full-width punctuation via insert_text_at_cursor) and press Enter."""
    prompt = app.main.query_one("#prompt", Input)
    prompt.value = ""
    prompt.insert_text_at_cursor(text)
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()


def _bubbles(app, kind: str | None = None) -> list[AdvisorMessage]:
    return [m for m in app.main.query(AdvisorMessage) if kind is None or m.kind == kind]


@sync
async def test_simplified_chinese_consultation_end_to_end(tmp_path) -> None:
    app = create_app(state_path=tmp_path / "session.json")
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert _bubbles(app, "question"), "the advisor opens with a question"
        await _send(app, pilot, CHINESE)
        assert app.title == "GPU 选型顾问"  # the shell follows the conversation into Simplified Chinese
        assert app.main.query_one("#prompt", Input).placeholder.startswith("输入回答")
        for _ in range(8):  # accept every default until the recommendation comes
            if app.conversation.recommendation is not None:
                break
            await _send(app, pilot, "")
        rec = app.conversation.recommendation
        assert rec is not None and rec.recommendations
        best = rec.recommendations[0]
        shown = _bubbles(app, "recommendation")[-1].source
        # 我的推荐, like conv.rec.intro and 推荐配置; a tip is now 提示 (shared/reference/zh-review.md §3, §6 row 27)
        assert "我的推荐" in shown and best.gpu_name in shown
        # The side panel shows what was collected; the results table lists the candidates.
        panel = [item.value for item in app.main.query(ProfileItem)]
        assert "LoRA 微调" in panel and "12 kW" in panel
        assert app.main.query_one("#candidates", DataTable).row_count == len(rec.recommendations) + len(rec.alternatives)
        # Enter on an empty line after the advice answers nothing: no "(default)" bubble, no repeated hint.
        users, advisor = len(app.main.query(UserMessage)), len(_bubbles(app))
        await _send(app, pilot, "")
        assert (len(app.main.query(UserMessage)), len(_bubbles(app))) == (users, advisor)

        await _send(app, pilot, "/save tmp/r.md")
        report = (tmp_path / "tmp" / "r.md").read_text(encoding="utf-8")
        assert _bubbles(app, "saved")
        # Lines are broken for the screen only (advisor.tui.wrap): nothing is inserted into what is kept.
        session_text = (tmp_path / "session.json").read_text(encoding="utf-8")
        assert "\u200b" not in report and "\u200b" not in session_text and "\\u200b" not in session_text
    assert "# GPU 选型建议" in report and "## 推荐配置" in report
    assert f"{best.count} × {best.gpu_name}" in report
    # Per-GPU memory in GiB, computed here from the bytes (1 GiB = 2^30 bytes).
    assert f"{best.memory_per_gpu.total / 2**30:.1f} GiB" in report
    assert "小时" in report or "天" in report
    assert "$" in report and "每卡显存" in report


@sync
async def test_quick_replies_side_panel_and_change_prefill() -> None:
    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        buttons = app.main.query_one(QuickReplies).query(Button)
        assert [str(b.label) for b in buttons] == ["LoRA", "QLoRA", "inference"]
        await pilot.click("#choice-1")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.conversation.handled == ["QLoRA"]
        assert [m.text for m in app.main.query(UserMessage)] == ["QLoRA"]
        assert not app.main.query(QuickReplies), "used quick replies leave the transcript with the answer"
        items = list(app.main.query(ProfileItem))
        assert ("Task", "LoRA fine-tuning") in [(i.label, i.value) for i in items]
        await pilot.click(ProfileItem)  # the first item: Task
        await pilot.pause()
        prompt = app.main.query_one("#prompt", Input)
        assert prompt.value == "change Task to " and app.focused is prompt


@sync
async def test_busy_indicator_while_a_turn_runs_and_errors_become_bubbles() -> None:
    gate = threading.Event()

    class Slow(FakeConversation):
        def handle(self, text):
            if text == "slow":
                gate.wait(5)
            return super().handle(text)

    app = create_app(lang="en", state_path=None, conversation_factory=Slow)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        prompt = app.main.query_one("#prompt", Input)
        prompt.insert_text_at_cursor("slow")
        await pilot.press("enter")
        await pilot.pause()
        assert app.busy and "thinking…" in str(prompt.border_title)
        assert prompt.placeholder == "Working on it…"
        assert [q.disabled for q in app.main.query(QuickReplies)] == [True]  # greyed out while the turn runs
        prompt.insert_text_at_cursor("second")
        await pilot.press("enter")  # refused while busy, and not lost
        await pilot.pause()
        assert prompt.value == "second"
        gate.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not app.busy and not prompt.border_title
        assert not app.main.query(QuickReplies)  # and gone with the answer
        await _send(app, pilot, "boom")  # the conversation raises: one clear bubble, the app goes on
        error = _bubbles(app, "error")[-1].source
        assert "RuntimeError: engine exploded" in error and "Traceback" not in error
        assert not app.busy and app.focused is prompt


@sync
async def test_language_follows_the_conversation_and_palette_is_localized() -> None:
    app = create_app(lang="en", state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Language: 繁體中文（台灣）" in titles and "Save report" in titles
        app.switch_language("zh-Hant")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.conversation.handled == ["/lang zh-Hant"]
        assert app.title == "GPU 選購顧問"
        assert str(app.main.query_one("#tabs").get_tab("chat-tab").label) == "對話"
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "儲存報告" in titles and "新諮詢" in titles
        footer_words = {b.binding.description for b in app.screen.active_bindings.values()}
        assert "說明" in footer_words and "儲存報告" in footer_words


@sync
async def test_offers_to_resume_an_unfinished_session(tmp_path) -> None:
    state = tmp_path / "session.json"
    session.save(state, {"locale": "zh-Hant", "transcript": [{"role": "user", "text": "用 QLoRA"}]})
    app = create_app(state_path=state, conversation_factory=FakeConversation, resume_factory=FakeConversation.resume)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.click("#yes")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert getattr(app.conversation, "resumed", False)
        assert app.title == "GPU 選購顧問"
        assert "Llama 3 8B" in [i.value for i in app.main.query(ProfileItem)]
        assert [m.text for m in app.main.query(UserMessage)] == ["用 QLoRA"]  # the transcript is shown again


@sync
async def test_starting_afresh_keeps_the_language_of_the_unfinished_session(tmp_path) -> None:
    state = tmp_path / "session.json"
    session.save(state, {"locale": "zh-Hant", "transcript": [{"role": "user", "text": "用 QLoRA"}]})
    app = create_app(state_path=state, conversation_factory=FakeConversation, resume_factory=FakeConversation.resume)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "上次的諮詢" in str(app.screen.query_one(".question").render())  # asked in the saved language
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not getattr(app.conversation, "resumed", False)
        assert app.conversation.locale == "zh-Hant" and app.title == "GPU 選購顧問"
        assert not app.main.query(UserMessage)
        await pilot.press("f2")
        await pilot.pause()
        assert "還沒有建議結果" in str(app.main.query_one("#results-empty").render())


@sync
async def test_typing_at_the_resume_question_continues_and_keeps_every_key(tmp_path) -> None:
    """Found in tmux: a returning user who starts typing before reading the question lost the message, and the
    'n' of "need" answered "start afresh". Now the first printable key continues (nothing is discarded) and
    every key lands in the input, the later ones while the old consultation is being restored."""
    state = tmp_path / "session.json"
    session.save(state, {"locale": "en", "transcript": [{"role": "user", "text": "用 QLoRA"}]})
    app = create_app(state_path=state, conversation_factory=FakeConversation, resume_factory=FakeConversation.resume)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press(*"need a GPU")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmDialog)
        assert getattr(app.conversation, "resumed", False)
        assert app.main.query_one("#prompt", Input).value == "need a GPU"
        assert [m.text for m in app.main.query(UserMessage)] == ["用 QLoRA"]  # restored, nothing sent yet


@sync
async def test_a_consultation_with_its_recommendation_is_offered_to_be_opened_not_continued(tmp_path) -> None:
    """Issue #14: a finished consultation was offered as one to continue "where you left off"."""
    state = tmp_path / "session.json"
    session.save(state, {"locale": "zh-Hans", "stage": "advise", "transcript": [{"role": "user", "text": "用 QLoRA"}]})
    app = create_app(state_path=state, conversation_factory=FakeConversation, resume_factory=FakeConversation.resume)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        question = str(app.screen.query_one(".question").render())
        assert "已经有推荐结果" in question and "停下的地方" not in question
        assert "打开" in str(app.screen.query_one("#yes").render())


@sync
async def test_no_resume_offer_for_an_empty_session(tmp_path) -> None:
    state = tmp_path / "session.json"
    session.save(state, {"locale": "en", "transcript": [{"role": "assistant", "text": "Hello"}]})
    app = create_app(state_path=state, conversation_factory=FakeConversation)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmDialog)
        assert not getattr(app.conversation, "resumed", False)


@sync
async def test_textuals_own_words_palette_placeholder_and_quit_notice_are_localized() -> None:
    """Textual writes "Search for commands…" and "Do you want to quit? Press ctrl+q…" in English; the app
    passes its own words through Textual's public API (CommandPalette's placeholder, App.notify)."""
    from textual.command import CommandPalette

    from textual.command import CommandList

    expected = {
        "en": ("Search for commands…", "Do you want to quit?", "No matches found"),
        "zh-Hans": ("搜索命令…", "要退出吗？", "没有匹配的命令"),
        "zh-Hant": ("搜尋指令…", "要離開嗎？", "沒有符合的指令"),
    }
    for locale, (placeholder, title, no_matches) in expected.items():
        app = create_app(lang=locale, state_path=None, conversation_factory=FakeConversation)  # type: ignore[arg-type]
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)
            assert app.screen.query_one(Input).placeholder == placeholder
            await pilot.press(*"qqqzzz")  # matches no command: Textual says so after half a second
            await pilot.pause(0.8)
            shown = [str(o.prompt.renderable) for o in app.screen.query_one(CommandList).options]
            assert shown == [no_matches]
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("f2")  # the results table has focus: Ctrl+C reaches the app (the input copies)
            await pilot.pause()
            await pilot.press("ctrl+c")
            await pilot.pause()
            notes = list(app._notifications)
            assert [n.title for n in notes] == [title]
            assert "Ctrl+Q" in notes[0].message and "ctrl+q" not in notes[0].message
