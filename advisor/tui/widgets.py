"""The chat screen's building blocks: message bubbles, quick replies, the profile side panel, the memory bar.

Widgets take finished strings (from `advisor.report` and `advisor.i18n`) as attributes and post
messages up when the user acts on them (attributes down, messages up); none of them knows the
conversation or does arithmetic beyond laying out a bar.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Label, ListItem, ListView, Markdown, Static

from advisor.i18n import t
from advisor.models import Locale


class UserMessage(Static):
    """What the user typed, shown literally (no markup), right-aligned."""

    def __init__(self, text: str, **kwargs: Any) -> None:
        super().__init__(text, markup=False, **kwargs)
        self.text = text


class UserRow(Horizontal):
    """Holds a UserMessage against the right edge."""


class AdvisorMessage(Markdown):
    """One advisor reply: Markdown, styled by its kind (question, error, recommendation, ...)."""

    def __init__(self, text: str, kind: str, locale: Locale, **kwargs: Any) -> None:
        super().__init__(text, **kwargs)
        self.kind = kind
        self.add_class(f"kind-{kind}")
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
        self.query_one("#profile-title", Label).update(title)
        view = self.query_one("#profile-list", ListView)
        items = list(view.query(ProfileItem))
        if not rows or len(items) != len(view.children):  # the "nothing yet" line is not a ProfileItem
            await view.clear()
            items = []
            if not rows:
                await view.append(ListItem(Label(empty), disabled=True))
                return
        for item, row in zip(items, rows):
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
