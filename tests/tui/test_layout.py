"""Layout at the two sizes that matter (80x24, 120x40) in English and Traditional Chinese: the chat and the
results views keep the input, the footer and the key figures on screen. (test_snapshots.py holds pictures of
the same screens; these check the layout itself, so that a failure says what broke.)"""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Footer, Input

from advisor.tui.app import create_app
from advisor.tui.widgets import MemoryBar

from .fakes import FakeConversation
from .test_chat import sync

WORDS = {
    "en": {"tab": "Results", "memory": "Memory per GPU", "time": "Time", "save": "Save report"},
    # 每張卡記憶體, not the mainland 顯存 (shared/reference/zh-review.md §2.3)
    "zh-Hant": {"tab": "結果", "memory": "每張卡記憶體", "time": "耗時", "save": "儲存報告"},
}


def _inside(widget, size) -> bool:
    region = widget.region
    return region.width > 0 and region.height > 0 and region.right <= size[0] and region.bottom <= size[1]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("locale", ["en", "zh-Hant"])
@sync
async def test_chat_and_results_fit(size, locale) -> None:
    app = create_app(lang=locale, state_path=None, conversation_factory=FakeConversation)
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await app.submit_text("LoRA Mistral 7B" if locale == "en" else "用 LoRA 微調 Mistral 7B")
        await pilot.pause()
        prompt = app.main.query_one("#prompt", Input)
        assert _inside(prompt, size) and _inside(app.main.query_one(Footer), size)
        panel_shown = app.main.query_one("#profile-panel").display and app.main.query_one("#profile-panel").region.width
        assert bool(panel_shown) == (size[0] >= 100), "the side panel only where there is room for it"
        chat_svg = app.export_screenshot()
        assert WORDS[locale]["save"].replace(" ", "&#160;") in chat_svg  # the footer, localized

        await pilot.press("f2")
        await pilot.pause()
        table = app.main.query_one("#candidates", DataTable)
        assert _inside(table, size) and table.row_count == 2
        # Configuration, memory, fit and time are the first columns: all on screen even at 80 columns.
        widths = [col.get_render_width(table) for col in table.ordered_columns[:5]]
        assert table.region.x + sum(widths) <= size[0]
        assert [str(c.label) for c in table.ordered_columns][2] == WORDS[locale]["memory"]
        bar = app.main.query_one(MemoryBar)
        assert _inside(bar, size)
        svg = app.export_screenshot()
        assert "24.3&#160;GiB" in svg  # the selected candidate's per-GPU total, beside its bar
