"""Snapshots (pytest-textual-snapshot) of the chat, results, help and command-palette screens, in English,
Simplified and Traditional Chinese, at 80x24 and 120x40, once a scripted conversation has reached its
recommendation.

Deterministic by construction: the conversation is `fakes.ScriptedConversation` (a fixed profile and the
report tests' hand-built recommendation), nothing is saved (no session file, no path on screen), there is no
clock in the header, the busy spinner is stopped once the answer is in, and the input's cursor is kept from
blinking. After an intended change of the UI, regenerate with
`python -m pytest tests/tui/test_snapshots.py --snapshot-update` and look at the SVGs in __snapshots__/.
"""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Input

from advisor.tui.app import create_app

from .fakes import ScriptedConversation

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
ANSWERS = {
    "en": ["LoRA fine-tune Mistral 7B on 50M tokens, 2 epochs at 4096 tokens; budget 210,000 CNY; "
           "our own room, 12 kW rack, air cooled; we will use it for 3 years", "yes"],
    "zh-Hans": ["用 LoRA 微调 Mistral 7B，5000 万 token、2 轮、序列长度 4096；预算 21 万人民币；"
                "自有机房，单机柜 12 kW，风冷；打算用三年", "对"],
    "zh-Hant": ["用 LoRA 微調 Mistral 7B，5000 萬 token、2 輪、序列長度 4096；預算 21 萬人民幣；"
                "自有機房，單機櫃 12 kW，氣冷；打算用三年", "對"],
}


LOCALES = list(ANSWERS)


def _consultation(locale: str, results: bool = False, keys: tuple[str, ...] = ()):
    """The app, and what to do before the picture is taken: answer, wait, show the results if asked, then
    press `keys` (F1 for help, Ctrl+P for the palette)."""
    app = create_app(lang=locale, state_path=None, conversation_factory=ScriptedConversation)

    async def run_before(pilot) -> None:
        await app.workers.wait_for_complete()
        await pilot.pause()
        for answer in ANSWERS[locale]:
            await app.submit_text(answer)
            await pilot.pause()
        assert app.conversation.recommendation is not None and not app.busy
        app.main.query_one("#prompt", Input).cursor_blink = False  # a blinking cursor is a coin toss
        if results:
            await pilot.press("f2")
            await pilot.pause()
            assert app.focused is app.main.query_one("#candidates", DataTable)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        for field in app.screen.query(Input):
            field.cursor_blink = False
        await pilot.pause()

    return app, run_before


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("locale", LOCALES)
def test_chat_screen(snap_compare, locale, size) -> None:
    app, run_before = _consultation(locale, results=False)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("locale", LOCALES)
def test_results_screen(snap_compare, locale, size) -> None:
    app, run_before = _consultation(locale, results=True)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("locale", LOCALES)
def test_help_screen(snap_compare, locale, size) -> None:
    app, run_before = _consultation(locale, keys=("f1",))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("locale", LOCALES)
def test_palette_screen(snap_compare, locale, size) -> None:
    app, run_before = _consultation(locale, keys=("ctrl+p",))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
