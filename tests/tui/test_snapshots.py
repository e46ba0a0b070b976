"""Snapshots (pytest-textual-snapshot) of the chat screen and the results screen, in English and Traditional
Chinese, at 80x24 and 120x40, once a scripted conversation has reached its recommendation.

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
    "zh-Hant": ["用 LoRA 微調 Mistral 7B，5000 萬 token、2 輪、序列長度 4096；預算 21 萬人民幣；"
                "自有機房，單機櫃 12 kW，氣冷；打算用三年", "對"],
}


def _consultation(locale: str, results: bool):
    """The app, and what to do before the picture is taken: answer, wait, and show the results if asked."""
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

    return app, run_before


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("locale", ["en", "zh-Hant"])
def test_chat_screen(snap_compare, locale, size) -> None:
    app, run_before = _consultation(locale, results=False)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("locale", ["en", "zh-Hant"])
def test_results_screen(snap_compare, locale, size) -> None:
    app, run_before = _consultation(locale, results=True)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
