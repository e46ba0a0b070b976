"""Modal screens of the TUI: save the report, confirm (overwrite, resume), help, and the command palette.

Each is a `ModalScreen` that returns its answer through `dismiss`, so the app decides what to do
with it. Every word comes from knowledge/ui/tui.yaml in the current locale.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from rich.align import Align
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.command import CommandList, CommandPalette
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.visual import VisualType
from textual.widgets import Button, Input, Label, RadioButton, RadioSet
from textual.widgets.option_list import Option

from advisor.i18n import t
from advisor.models import Locale
from advisor.tui.widgets import MarkdownText

SAVE_FORMATS: tuple[str, ...] = ("md", "html", "json")
_Handler = TypeVar("_Handler", bound=Callable[..., Any])
_Result = TypeVar("_Result")


def while_shown(handler: _Handler) -> _Handler:
    """For a dialog's on_mount: a dialog closed in the frame it opened in (F1 and Escape in one read of the
    terminal, found by feeding the app random keys) has no children left when its on_mount runs; then there
    is nothing to focus, and no NoMatches must end the app."""

    @functools.wraps(handler)
    def guarded(*args: Any) -> Any:
        try:
            return handler(*args)
        except NoMatches:
            return None

    return guarded  # type: ignore[return-value]

SUFFIX = {"md": ".md", "html": ".html", "json": ".json"}


class OnceDialog(ModalScreen[_Result]):
    """A modal screen dismissed at most once: a second Escape or Enter that reaches it in the frame before it
    is gone (random keys in tmux) is ignored, instead of setting its result twice (InvalidStateError) and
    popping the screen below it."""

    _dismissed = False

    def dismiss(self, result: _Result | None = None) -> AwaitComplete:
        if self._dismissed:
            async def nothing() -> None:
                return None

            return AwaitComplete(nothing())
        self._dismissed = True
        return super().dismiss(result)


class ConfirmDialog(OnceDialog[bool]):
    """A yes/no question; dismisses with True for yes."""

    BINDINGS = [Binding("escape", "no", show=False), Binding("y", "yes", show=False), Binding("n", "no", show=False)]

    def __init__(self, question: str, yes: str, no: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.question, self.yes, self.no = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="question", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(self.yes, id="yes", variant="primary")
                yield Button(self.no, id="no")

    @while_shown
    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    @on(Button.Pressed, "#yes")
    def action_yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_no(self) -> None:
        self.dismiss(False)


class ResumeDialog(ConfirmDialog):
    """"Continue your last consultation?" at launch. Someone who starts typing before reading it wants to talk,
    not to answer a dialog: a printable key continues (nothing is discarded) and becomes the first character of
    the message, handed to `typed`. So no single letter answers it ("n" of "need a GPU…" would have started
    afresh); Escape or the second button starts afresh."""

    def __init__(self, question: str, yes: str, no: str, typed: Callable[[str], None], **kwargs) -> None:
        super().__init__(question, yes, no, **kwargs)
        self.typed = typed

    def on_key(self, event: events.Key) -> None:
        if event.is_printable and event.character and not self._dismissed:
            event.stop()
            event.prevent_default()
            self.typed(event.character)
            self.dismiss(True)


class SaveDialog(OnceDialog[Path | None]):
    """Ask where to save the report and in which format; confirms before overwriting.

    `save(path_text, fmt)` does the writing and returns the written path, or raises `ReportError`
    (shown in the dialog, localized, and the dialog stays open). Dismisses with the written Path,
    or None when cancelled.
    """

    BINDINGS = [Binding("escape", "cancel", show=False)]

    def __init__(
        self,
        locale: Locale,
        default_path: str,
        save: Callable[[str, str], Path],
        exists: Callable[[str], bool],
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.locale = locale
        self.default_path = default_path
        self._save = save
        self._exists = exists

    def compose(self) -> ComposeResult:
        loc = self.locale
        fmt = _format_of(self.default_path)
        with Vertical(classes="dialog", id="save-dialog"):
            yield Label(t("tui.save.title", loc), classes="title")
            yield Label(t("tui.save.path_label", loc))
            yield Input(value=self.default_path, id="save-path")
            yield Label(t("tui.save.format_label", loc))
            with RadioSet(id="save-format"):
                for name in SAVE_FORMATS:
                    yield RadioButton(t(f"tui.save.format.{name}", loc), value=name == fmt, id=f"fmt-{name}")
            yield Label("", id="save-error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(t("tui.save.save", loc), id="save", variant="primary")
                yield Button(t("tui.save.cancel", loc), id="cancel")

    @while_shown
    def on_mount(self) -> None:
        path_input = self.query_one("#save-path", Input)
        path_input.focus()
        path_input.cursor_position = len(path_input.value)

    @property
    def fmt(self) -> str:
        pressed = self.query_one("#save-format", RadioSet).pressed_button
        return pressed.id.removeprefix("fmt-") if pressed and pressed.id else "md"

    @on(RadioSet.Changed, "#save-format")
    def _format_changed(self, event: RadioSet.Changed) -> None:
        """Keep the file name's suffix in step with the chosen format."""
        path_input = self.query_one("#save-path", Input)
        fmt = event.pressed.id.removeprefix("fmt-") if event.pressed.id else "md"
        text = path_input.value.strip()
        if text and not text.endswith(("/", "\\")):
            stem, dot, suffix = text.rpartition(".")
            base = (
                stem
                if dot and "/" not in suffix and suffix.lower() in ("md", "markdown", "html", "htm", "json")
                else text
            )
            path_input.value = base + SUFFIX[fmt]

    @on(Input.Submitted, "#save-path")
    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        text = final_path(self.query_one("#save-path", Input).value.strip(), self.fmt)
        if text and self._exists(text):
            question = t("tui.confirm.overwrite", self.locale, path=text)
            self.app.push_screen(
                ConfirmDialog(question, t("tui.confirm.yes", self.locale), t("tui.confirm.no", self.locale)),
                lambda yes: self._write(text) if yes else None,
            )
            return
        self._write(text)

    def _write(self, text: str) -> None:
        from advisor.report import ReportError

        try:
            written = self._save(text, _format_of(text) if text else self.fmt)
        except ReportError as err:
            self.query_one("#save-error", Label).update(err.message(self.locale))
            self.query_one("#save-path", Input).focus()
            return
        self.dismiss(written)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def final_path(text: str, fmt: str) -> str:
    """The file to write: a name that ends in a report suffix keeps it (the typed suffix wins over the
    radio buttons); any other name gets the chosen format's suffix. A folder and '' are left as typed
    (saving then explains the problem)."""
    if not text or text.endswith(("/", "\\")) or _is_dir(text):
        return text
    if text.lower().endswith((".md", ".markdown", ".html", ".htm", ".json")):
        return text
    return text + SUFFIX[fmt]


def _is_dir(text: str) -> bool:
    try:
        return Path(text).expanduser().is_dir()
    except (OSError, ValueError):  # a name too long for the file system, a NUL: saving says what is wrong
        return False


def _format_of(path: str) -> str:
    lower = path.lower()
    if lower.endswith((".html", ".htm")):
        return "html"
    if lower.endswith(".json"):
        return "json"
    return "md"


class HelpScreen(OnceDialog[None]):
    """Commands and key bindings in the current language; Escape, F1 or q closes it."""

    BINDINGS = [Binding("escape,f1,q,question_mark", "close", show=False)]

    def __init__(self, locale: Locale, **kwargs) -> None:
        super().__init__(**kwargs)
        self.locale = locale

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="help-dialog"):
            with VerticalScroll(id="help-scroll"):
                # One Rich-rendered widget (Textual's Markdown breaks Chinese lines only at spaces).
                yield MarkdownText(help_markdown(self.locale), id="help-text")
            with Horizontal(classes="buttons"):
                yield Button(t("tui.help.close", self.locale), id="close", variant="primary")

    @while_shown
    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()  # arrows and Page Up/Down scroll the help at once

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)


HELP_COMMANDS: tuple[tuple[str, str], ...] = (
    ("/save {path}", "save"),
    ("/lang en / zh-Hans / zh-Hant", "lang"),
    ("/back", "back"),
    ("/reset", "reset"),
    ("/why", "why"),
    ("/help", "help"),
)
HELP_KEYS: tuple[tuple[str, str], ...] = (
    ("Enter", "send"),
    ("Ctrl+S", "save"),
    ("F1, ?", "help"),
    ("F2", "results"),
    ("F3", "panel"),
    ("Ctrl+N", "new"),
    ("Ctrl+P", "palette"),
    ("Ctrl+T", "theme"),
    ("PgUp, PgDn", "scroll"),
    ("Ctrl+Q", "quit"),
)


def help_markdown(locale: Locale) -> str:
    """The help text: how to answer, the slash commands, the key bindings (lists: they fit 80 columns)."""
    lines = [
        f"## {t('tui.help.title', locale)}",
        "",
        t("tui.help.intro", locale),
        "",
        f"### {t('tui.help.commands', locale)}",
        "",
    ]
    path = t("tui.help.path", locale)  # the placeholder is a word: PATH, 路径, 路徑
    lines += [f"- `{cmd.format(path=path)}` — {t(f'tui.help.cmd.{key}', locale)}" for cmd, key in HELP_COMMANDS]
    lines += ["", f"### {t('tui.help.keys', locale)}", ""]
    lines += [f"- **{keys}** — {t(f'tui.binding.{key}', locale)}" for keys, key in HELP_KEYS]
    return "\n".join(lines) + "\n"


class LocalizedCommandPalette(CommandPalette):
    """Textual's command palette with its two words in the user's language: the search field's placeholder
    (Textual's public `placeholder` argument) and "No matches found". Textual offers no argument for the
    latter: it adds a disabled option with the palette's no-matches id to its `CommandList`, so the list's
    public `add_option` is wrapped to give that option our words instead (tests/tui/test_chat.py fails if a
    Textual release stops showing them)."""

    def __init__(self, locale: Locale, **kwargs) -> None:
        super().__init__(placeholder=t("tui.palette.placeholder", locale), **kwargs)
        self._no_matches_text = t("tui.palette.no_matches", locale)

    def on_mount(self) -> None:
        commands = self.query_one(CommandList)
        add_option = commands.add_option
        no_matches_id = CommandPalette._NO_MATCHES

        def localized_add_option(option: Option | VisualType | None = None) -> CommandList:
            if isinstance(option, Option) and option.id == no_matches_id:
                option = Option(Align.center(Text(self._no_matches_text, style="not bold")), disabled=True,
                                id=no_matches_id)
            return add_option(option)

        commands.add_option = localized_add_option  # type: ignore[method-assign]
