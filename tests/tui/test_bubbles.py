"""The advisor's chat bubble in a tiny host app: one widget per reply (not a widget per paragraph), and the
Markdown it shows stays readable — numbered and nested lists, tables, emphasis, Chinese text wrapped inside
the bubble."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Region

from advisor.tui import widgets
from advisor.tui.widgets import AdvisorMessage, RenderedMarkdown

from .test_chat import sync

RECOMMENDATION = """### My recommendation

1. **1 × NVIDIA GeForce RTX 4090** — single GPU · buy
   - Memory per GPU: 19.0 GiB / 23.6 GiB (fits, 4.6 GiB spare)
   - Time: 9.1 h · Power (IT): 775 W · Cost: $3,650
2. **1 × NVIDIA H100 SXM5 80GB** — single GPU · rent

| GPU | Memory | Time |
|---|---|---|
| RTX 4090 | 19.0 GiB | 9.1 h |
| H100 | 19.0 GiB | 2.2 h |

Ask *why not the A100?*, or `/save report.md`.
"""
CHINESE = ("我理解的情况如下：\n\n- 預算：30,000 美元，購買或租用都比較\n- 機房與部署：自建機房，單機櫃可用 12 千瓦，風冷\n\n"
           "這樣對嗎？回答對即可得到推薦，也可以直接用一句話改任何一項（如 預算改成 5 萬美元、改用 QLoRA）。" * 2)


class Host(App[None]):
    CSS_PATH = Path(widgets.__file__).with_name("app.tcss")  # the bubbles as the app styles them

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield AdvisorMessage(self.text, "recommendation", "en")


def _lines(widget) -> list[str]:
    """The widget's lines as the screen shows them, border included."""
    return [strip.text for strip in widget.render_lines(Region(0, 0, *widget.region.size))]


@pytest.mark.parametrize("width", [60, 100])
@sync
async def test_recommendation_bubble_is_one_widget_with_readable_lists_and_tables(width) -> None:
    app = Host(RECOMMENDATION)
    async with app.run_test(size=(width, 40)) as pilot:
        await pilot.pause()
        bubble = app.query_one(AdvisorMessage)
        assert bubble.source == RECOMMENDATION and not bubble.children
        text = "\n".join(_lines(bubble))
        assert " 1. 1 × NVIDIA GeForce RTX 4090" in text and " 2. 1 × NVIDIA H100" in text
        assert "• Memory per GPU: 19.0 GiB / 23.6 GiB" in text
        assert "RTX 4090" in text and "H100" in text and "9.1 h" in text
        assert "`" not in text and "**" not in text and "|---" not in text  # Markdown, not its syntax
        assert bubble.region.height == bubble.content_region.height + 2  # the border hugs the content


@pytest.mark.parametrize("width", [40, 80])
@sync
async def test_chinese_text_wraps_inside_the_bubble(width) -> None:
    app = Host(CHINESE)
    async with app.run_test(size=(width, 80)) as pilot:
        await pilot.pause()
        bubble = app.query_one(AdvisorMessage)
        lines = _lines(bubble)
        assert {cell_len(line) for line in lines} == {bubble.region.width}  # no line runs past the border
        shown = "".join(line.strip("│╭╮╰╯─ ") for line in lines[1:-1]).replace(" ", "").replace("•", "")
        assert CHINESE.replace("\n", "").replace(" ", "").replace("-", "") == shown, "nothing lost or split"


def test_rendered_markdown_is_laid_out_once_per_width() -> None:
    markdown = RenderedMarkdown(RECOMMENDATION)
    console = Console(width=70, record=True)
    console.print(markdown)
    console.print(markdown)
    assert console.export_text().count("My recommendation") == 2
    assert list(markdown._cache) == [(70, False)]
