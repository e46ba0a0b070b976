"""The chat screen's building blocks: message bubbles, quick replies, the profile side panel, the memory bar.

Widgets take finished strings (from `advisor.report` and `advisor.i18n`) as attributes and post
messages up when the user acts on them (attributes down, messages up); none of them knows the
conversation or does arithmetic beyond laying out a bar.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import Heading as RichHeading
from rich.markdown import ListItem as RichListItem
from rich.markdown import Markdown as RichMarkdown
from rich.markdown import Paragraph as RichParagraph
from rich.segment import Segment
from rich.text import Text
from rich.theme import Theme
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Label, ListItem, ListView, Static

from advisor.i18n import t
from advisor.models import Locale
from advisor.tui.wrap import CJKText, Wrapped


class UserMessage(Static):
    """What the user typed, shown literally (no markup), right-aligned."""

    def __init__(self, text: str, **kwargs: Any) -> None:
        super().__init__(Wrapped(text), markup=False, **kwargs)  # literal text, lines broken the Chinese way too
        self.text = text


class UserRow(Horizontal):
    """Holds a UserMessage against the right edge."""


# Markdown styles of the bubbles: plain attributes only (no fixed colours), so that they read well on the
# bubble's background in the dark and the light theme alike. Rich's defaults (cyan on black code,
# magenta headings) would clash with the app's theme.
BUBBLE_THEME = Theme({
    "markdown.code": "bold",
    "markdown.code_block": "none",
    "markdown.h1": "bold underline",
    "markdown.h2": "bold underline",
    "markdown.h3": "bold",
    "markdown.h4": "bold italic",
    "markdown.list": "none",
    "markdown.item.bullet": "bold",
    "markdown.item.number": "bold",
    "markdown.block_quote": "italic",
    "markdown.link": "underline",
    "markdown.link_url": "underline",
    "markdown.table.border": "dim",
    "markdown.table.header": "bold",
}, inherit=True)


class _ListItem(RichListItem):
    """A list item whose number reads " 1. " (Rich writes a bare "1", which runs into the text)."""

    def render_number(self, console: Console, options: ConsoleOptions, number: int,
                      last_number: int) -> RenderResult:
        number_width = len(str(last_number)) + 3  # " 1. ", in line with Rich's " • "
        lines = console.render_lines(self.elements, options.update(width=options.max_width - number_width),
                                     style=self.style)
        number_style = console.get_style("markdown.item.number", default="none")
        numeral = Segment(f"{number}.".rjust(number_width - 1) + " ", number_style)
        padding = Segment(" " * number_width, number_style)
        for index, line in enumerate(lines):
            yield numeral if index == 0 else padding
            yield from line
            yield Segment("\n")


class _Paragraph(RichParagraph):
    """A paragraph that breaks lines the Chinese way too (advisor.tui.wrap), not only at spaces."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        self.text.justify = self.justify
        yield CJKText.of(self.text)


class _Heading(RichHeading):
    """A heading that breaks lines the Chinese way too (advisor.tui.wrap)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = CJKText.of(self.text)
        text.justify = self.LEVEL_ALIGN.get(self.tag, "left")
        yield text


class _Markdown(RichMarkdown):
    elements = {**RichMarkdown.elements, "list_item_open": _ListItem, "paragraph_open": _Paragraph,
                "heading_open": _Heading}


class RenderedMarkdown:
    """A Rich renderable of Markdown that lays itself out once per width and then replays the result.

    Textual asks a widget for its height and then for its lines, and again whenever the layout is
    recomputed; caching the segments per width means a bubble's Markdown is parsed and wrapped once,
    however long the transcript grows."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._markdown = _Markdown(source, hyperlinks=False)
        self._cache: dict[tuple[int, bool], list[Segment]] = {}

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        key = (options.max_width, options.ascii_only)
        segments = self._cache.get(key)
        if segments is None:
            with console.use_theme(BUBBLE_THEME):
                segments = list(console.render(self._markdown, options.update(height=None)))
            if len(self._cache) > 8:  # a few widths (resizes) are plenty
                self._cache.clear()
            self._cache[key] = segments
        yield from segments


class MarkdownText(Static):
    """Markdown shown as one widget (`RenderedMarkdown`): the help text, the results details. `.source` is the
    Markdown it shows."""

    def __init__(self, source: str, **kwargs: Any) -> None:
        super().__init__(RenderedMarkdown(source), **kwargs)
        self.source = source


class AdvisorMessage(Static):
    """One advisor reply: Markdown, styled by its kind (question, error, recommendation, ...).

    One widget per bubble (a Static holding the rendered Markdown), not Textual's `Markdown`, which
    builds a widget per paragraph and list item: with dozens of bubbles that made every new message
    re-lay out and re-render the whole transcript."""

    def __init__(self, text: str, kind: str, locale: Locale, *, classes: str = "", **kwargs: Any) -> None:
        # The kind's class goes in with the others: adding it afterwards would restyle the widget once more.
        classes = " ".join(dict.fromkeys([*classes.split(), f"kind-{kind}"]))
        super().__init__(RenderedMarkdown(text), classes=classes, **kwargs)
        self.source = text
        self.kind = kind
        self.border_title = t("tui.advisor", locale)


class QuickReplies(Horizontal):
    """Buttons for a choice question; pressing one posts `QuickReplies.Chosen` with the text to send."""

    class Chosen(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, choices: tuple[Any, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.choices = [_choice(c) for c in choices]

    def compose(self) -> ComposeResult:
        for index, (_value, label) in enumerate(self.choices):
            yield Button(label, id=f"choice-{index}", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id and event.button.id.startswith("choice-"):
            value, _label = self.choices[int(event.button.id.removeprefix("choice-"))]
            self.disabled = True
            self.post_message(self.Chosen(value))


def _choice(item: Any) -> tuple[str, str]:
    """A choice as (text to send, label): a plain string is both; a pair or an object with value/label is split."""
    if isinstance(item, (tuple, list)) and len(item) == 2:
        return str(item[0]), str(item[1])
    value = getattr(item, "value", None)
    label = getattr(item, "label", None)
    if value is not None and label is not None:
        return str(value), str(label)
    return str(item), str(item)


class ProfileItem(ListItem):
    """One collected answer; selecting it asks the app to pre-fill 'change X to'."""

    def __init__(self, label: str, value: str, **kwargs: Any) -> None:
        super().__init__(Label(self._text(label, value)), **kwargs)
        self.label = label
        self.value = value

    @staticmethod
    def _text(label: str, value: str) -> Text:
        return Text.assemble((label, "bold"), "\n", value)

    def set(self, label: str, value: str) -> None:
        """Show another answer in place (cheaper than remounting the item)."""
        if (label, value) != (self.label, self.value):
            self.label, self.value = label, value
            self.query_one(Label).update(self._text(label, value))


class ProfilePanel(Vertical):
    """Side panel: the profile collected so far; updated in place after every turn."""

    class ChangeRequested(Message):
        def __init__(self, label: str) -> None:
            super().__init__()
            self.label = label

    def compose(self) -> ComposeResult:
        yield Label("", id="profile-title")
        yield ListView(id="profile-list")

    async def show(self, title: str, rows: list[dict[str, Any]], empty: str) -> None:
        """Show `rows` ({label, value}); `empty` when there is nothing yet. Existing items are reused."""
        title_label = self.query_one("#profile-title", Label)
        if title_label.content != title:  # an update, even to the same words, would lay the screen out again
            title_label.update(title)
        view = self.query_one("#profile-list", ListView)
        items = list(view.query(ProfileItem))
        if not rows or len(items) != len(view.children):  # the "nothing yet" line is not a ProfileItem
            await view.clear()
            items = []
            if not rows:
                await view.append(ListItem(Label(empty), disabled=True))
                return
        for item, row in zip(items, rows, strict=False):
            item.set(row["label"], row["value"])
        for item in items[len(rows):]:
            await item.remove()
        if len(rows) > len(items):
            await view.extend(ProfileItem(r["label"], r["value"]) for r in rows[len(items):])

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        event.stop()
        if isinstance(event.item, ProfileItem):
            self.post_message(self.ChangeRequested(event.item.label))


class MemoryBar(Static):
    """A stacked bar of one candidate's memory per GPU, scaled to the GPU's capacity, with a legend."""

    BAR_CELLS = 48
    _shown: tuple[Any, ...] | None = None

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)

    def show(self, terms: list[dict[str, Any]], capacity_bytes: int, total_text: str, capacity_label: str) -> None:
        """`terms`: [{label, value, bytes, colour}] from advisor.report.build_view. Laid out for the
        widget's width (the app's while the widget is hidden), and again whenever it is resized."""
        from rich.cells import cell_len

        self._shown = (terms, capacity_bytes, total_text, capacity_label)

        total = sum(term["bytes"] for term in terms)
        scale = max(total, capacity_bytes, 1)
        width = self.size.width or max(self.app.size.width - 4, 20)
        bar_cells = max(12, min(self.BAR_CELLS, width - cell_len(total_text) - 3))
        bar = Text()
        used_cells = 0
        for term in terms:
            cells = round(term["bytes"] / scale * bar_cells)
            if term["bytes"] and not cells:
                cells = 1
            cells = min(cells, bar_cells - used_cells)
            bar.append("█" * cells, style=term["colour"])
            used_cells += cells
        cap_cell = round(capacity_bytes / scale * bar_cells)
        if used_cells < cap_cell:
            bar.append("░" * (cap_cell - used_cells), style="dim")
        bar.append("▏", style="bold")
        bar.append(f" {total_text}")
        # The legend, packed into lines by hand so that a colour square never parts from its label.
        entries = [Text.assemble(("■ ", term["colour"]), f"{term['label']} {term['value']}") for term in terms]
        entries.append(Text(f"▏{capacity_label}", style="dim"))
        lines: list[Text] = [Text()]
        for entry in entries:
            if lines[-1].cell_len and lines[-1].cell_len + 3 + entry.cell_len > width:
                lines.append(Text())
            if lines[-1].cell_len:
                lines[-1].append("   ")
            lines[-1].append_text(entry)
        legend = Text("\n").join(lines)
        self.update(Text("\n").join([bar, legend]))
