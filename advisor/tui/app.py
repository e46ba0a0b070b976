"""The Textual app: a chat with the advisor beside the profile collected so far, and a results view.

Why it is shaped this way: the consultation service (`advisor.consultation.Consultation`, over the
pure dialogue) holds all the logic and also runs headless (`gpu-advisor chat`); this app is a thin
shell over it (`ConsultationLike`), in the style of Textual's `examples/mother.py`. A turn runs in
a thread worker (the consultation may run the recommendation), with a busy indicator; the replies
come back as Markdown bubbles. One factory, `create_app`, builds the app for the CLI, the tests
and the benchmark.
"""

from __future__ import annotations

import codecs
import gc
import importlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, cast

from textual import on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.command import CommandList, CommandPalette
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import (
    DataTable,
    Footer,
    Header,
    Input,
    Label,
    LoadingIndicator,
    Static,
    TabbedContent,
    TabPane,
)
from textual.worker import Worker

from advisor.conversation.dialogue import command_name
from advisor.i18n import t
from advisor.models import LOCALES, Locale, Recommendation
from advisor.sanitize import clean_text
from advisor.tui.screens import ConfirmDialog, HelpScreen, LocalizedCommandPalette, ResumeDialog, SaveDialog
from advisor.tui.widgets import (
    AdvisorMessage,
    MemoryBar,
    ProfilePanel,
    QuickReplies,
    RenderedMarkdown,
    UserMessage,
    UserRow,
)

DEFAULT_REPORT_NAME = "gpu-advisor-report.md"

# (keys, action, UI string key for the description, shown in the footer, priority)
BINDING_TABLE: tuple[tuple[str, str, str, bool, bool], ...] = (
    ("ctrl+s", "save_dialog", "tui.binding.save", True, True),
    ("f1", "help", "tui.binding.help", True, False),
    ("question_mark", "help", "tui.binding.help", False, False),
    ("f2", "toggle_results", "tui.binding.results", True, False),
    ("f3", "toggle_panel", "tui.binding.panel", True, False),
    ("ctrl+n", "new_consultation", "tui.binding.new", True, False),
    ("ctrl+t", "toggle_theme", "tui.binding.theme", False, False),
    ("ctrl+q", "quit", "tui.binding.quit", True, True),
    ("ctrl+p", "command_palette", "tui.binding.palette", False, True),  # the footer shows it on the right
    ("pageup", "scroll_chat(-1)", "tui.binding.scroll", False, False),
    ("pagedown", "scroll_chat(1)", "tui.binding.scroll", False, False),
)

# factory(locale, state_path, auto_language=...) -> a Conversation; resume(path, locale=..., auto_language=...)
ConversationFactory = Callable[..., Any]
ResumeFactory = Callable[..., Any]


def _default_conversation(locale: Locale | None, state_path: Path | None, *, auto_language: bool = True) -> Any:
    from advisor.consultation import Consultation

    return Consultation(locale, state_path, persist=state_path is not None, auto_language=auto_language)


def _default_resume(path: Path, *, locale: Locale | None = None, auto_language: bool = True) -> Any:
    from advisor.consultation import Consultation

    return Consultation.resume(path, locale=locale, auto_language=auto_language)


# Which side-panel items each of the conversation's questions fills (its `answered`/`defaulted` keys).
QUESTION_ROWS: dict[str, tuple[str, ...]] = {
    "task": ("task",),
    "model": ("model", "params", "active_params"),
    "data": ("tokens", "samples", "seq_len", "epochs"),
    "serving": ("concurrency", "context_tokens", "requests_per_second"),
    "horizon": ("usage",),
    "precision": ("precision",),
    "deadline": ("deadline",),
    "budget": ("budget", "acquisition"),
    "facility": ("deployment", "rack", "cooling"),
}
# Side-panel item -> the Profile fields behind it (an item whose fields differ from the defaults is known).
ROW_FIELDS: dict[str, tuple[str, ...]] = {
    "task": ("task",),
    "model": ("model", "model_text"),
    "params": ("params",),
    "active_params": ("active_params",),
    "tokens": ("tokens",),
    "samples": ("samples",),
    "seq_len": ("seq_len",),
    "epochs": ("epochs",),
    "concurrency": ("concurrency",),
    "context_tokens": ("context_tokens",),
    "requests_per_second": ("requests_per_second",),
    "max_ttft_s": ("max_ttft_s",),
    "min_tokens_per_s_per_user": ("min_tokens_per_s_per_user",),
    "redundant": ("redundant",),
    "precision": ("precision",),
    "weights_dtype": ("weights_dtype",),
    "kv_dtype": ("kv_dtype",),
    "budget": ("budget_usd",),
    "acquisition": ("acquisition",),
    "deadline": ("deadline_days",),
    "deployment": ("deployment",),
    "rack": ("rack_kw",),
    "psu": ("rack_kw",),
    "machine": ("host_owned", "max_gpus"),
    "preferred": ("preferred_gpus",),
    "usage": ("horizon_days", "utilization", "runs"),
    "cooling": ("cooling",),
    "electricity": ("electricity_usd_per_kwh",),
    "pue": ("pue",),
    "owned": ("owned_gpus",),
}


def known_rows(conversation: Any, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The profile items the user has actually given (or accepted a default for): defaults not yet
    asked about are left out of the side panel, so that it shows what was collected, not what is assumed."""
    from advisor.models import Profile

    profile = getattr(conversation, "profile", None)
    questions = set(getattr(conversation, "answered", ()) or ()) | set(getattr(conversation, "defaulted", ()) or ())
    if profile is None:
        return []
    keys = {row for q in questions for row in QUESTION_ROWS.get(q, ())}
    fields = Profile.model_fields
    for row, names in ROW_FIELDS.items():
        if any(getattr(profile, n) != fields[n].default for n in names if n in fields and n != "language"):
            keys.add(row)
    return [r for r in rows if r.get("key") in keys]


def unfinished_session(path: Path | None) -> tuple[bool, Locale | None, bool]:
    """(True, its language, whether it already reached its recommendation) when `path` holds a session in which the
    user already said something; an unreadable file counts too (resuming moves it aside and says so, instead of
    silently overwriting it)."""
    if path is None or not path.is_file():
        return False, None, False
    try:
        from advisor.conversation import session

        data = session.load(path)
    except Exception:  # noqa: BLE001 - unreadable: still offered (resuming moves it aside and says so)
        return True, None, False
    from advisor.i18n import normalize_locale

    transcript = data.get("transcript") or []
    said = bool(data.get("inbox")) or any(isinstance(e, dict) and e.get("role") == "user" for e in transcript)
    locale = normalize_locale(str(data.get("locale") or "")) if said else None
    return said, locale, said and data.get("stage") == "advise"


def has_unfinished(path: Path | None) -> bool:
    """True when `path` holds a session worth offering to resume (see `unfinished_session`)."""
    return unfinished_session(path)[0]


def default_state_path() -> Path:
    """Where the unfinished consultation is kept between runs."""
    from advisor.paths import state_dir

    try:
        return state_dir() / "session.json"
    except OSError:  # cannot be made now (a read-only home): the app runs, and saving says why each time it fails
        return state_dir(create=False) / "session.json"


class ResultsPane(Vertical):
    """The results view: candidates table, memory bar of the selected row, its reasons, the rejected options."""

    def compose(self) -> ComposeResult:
        yield Label("", id="results-empty")
        yield DataTable(id="candidates", cursor_type="row", zebra_stripes=True)
        yield Label("", id="memory-title", classes="section")
        yield MemoryBar(id="memory-bar")
        with VerticalScroll(id="results-details"):
            yield Static("", id="reasons")  # Markdown, rendered as one widget (see AdvisorMessage)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._view: dict[str, Any] | None = None
        self._rec: Recommendation | None = None
        self._locale: Locale = "en"
        self._capacities: list[int] = []
        self._rows: list[dict] = []

    async def show(self, rec: Recommendation | None, locale: Locale) -> None:
        from advisor.report import build_view

        self._locale = locale
        table = self.query_one("#candidates", DataTable)
        table.clear(columns=True)
        empty = self.query_one("#results-empty", Label)
        if rec is None:
            self._view, self._rows = None, []
            empty.update(t("tui.results.empty", locale))
            empty.display = True
            table.display = False
            self.query_one("#memory-title", Label).update("")
            self.query_one("#memory-bar", MemoryBar).update("")
            self.query_one("#reasons", Static).update("")
            return
        view = build_view(rec, locale)
        self._view, self._rec = view, rec
        # The top picks, then the passing alternatives (one per GPU model), in one table.
        self._rows = view["candidates"] + view["alternatives"]
        self._capacities = [c.capacity_bytes for c in (*rec.recommendations, *rec.alternatives)]
        empty.display = not view["candidates"]
        empty.update(t("report.none_fit", locale))
        table.display = bool(view["candidates"])
        # Most telling first, so that a narrow terminal still shows memory, fit, time and money.
        cols = ["#", "configuration", "memory_per_gpu", "fits", "time", "buy", "rent", "power", "strategy"]
        headers = {"#": "#", "time": view["time_header"], "rent": view["rent_header"]}
        table.add_columns(*(headers.get(c) or t(f"report.col.{c}", locale) for c in cols))
        for c in self._rows:
            table.add_row(
                str(c["rank"]),
                c["short_title_had"],
                c["memory_short"],
                c["fits_short"],
                c["time_short"],
                c["buy"],
                c["rent"],
                c["power"],
                c["strategy"],
                key=str(c["rank"]),
            )
        await self.select(0)

    async def select(self, index: int) -> None:
        """Show the memory bar and the reasons of candidate `index` (0-based)."""
        view, locale = self._view, self._locale
        if not view:
            return
        from advisor.report import render_details

        chosen: int | None = None
        if 0 <= index < len(self._rows):
            chosen = index
            c = self._rows[index]
            self.query_one("#memory-title", Label).update(
                f"{t('report.chart.memory_title', locale)} — {c['rank']}. {c['title']}"
            )
            self.query_one("#memory-bar", MemoryBar).show(
                c["terms"], self._capacities[index], c["memory_line"], t("report.chart.capacity", locale)
            )
        assert self._rec is not None
        self.query_one("#reasons", Static).update(RenderedMarkdown(render_details(self._rec, chosen, locale)))

    @on(DataTable.RowHighlighted, "#candidates")
    async def _row(self, event: DataTable.RowHighlighted) -> None:
        await self.select(event.cursor_row)


class ChatScreen(Screen):
    """The one main screen: tabs Chat | Results, the profile side panel, the input, the footer."""

    AUTO_FOCUS = "#prompt"

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with TabbedContent(id="tabs", initial="chat-tab"):
                with TabPane("Chat", id="chat-tab"), Vertical(id="chat-column"):
                    yield VerticalScroll(id="chat-view", can_focus=False)
                    yield Input(id="prompt")
                with TabPane("Results", id="results-tab"):
                    yield ResultsPane(id="results")
            yield ProfilePanel(id="profile-panel")
        yield Footer()

    def on_mount(self) -> None:
        app = self.app
        if isinstance(app, GpuAdvisorApp):
            app.screen_ready()


def key_label(key: str) -> str:
    """A key as the help writes it: 'ctrl+q' -> 'Ctrl+Q', 'f1' -> 'F1'."""
    return "+".join(part.upper() if len(part) == 1 or part[0] == "f" and part[1:].isdigit() else part.capitalize()
                    for part in key.split("+"))


def localized_bindings() -> list[BindingType]:
    """Every key bound once per language with that language's description (Textual's "dynamic actions":
    `GpuAdvisorApp.check_action` lets only the current language's binding act and show in the footer)."""
    return [
        Binding(keys, f"localized({locale!r}, {action!r})", t(key, locale), show=show, priority=priority)
        for locale in LOCALES
        for keys, action, key, show, priority in BINDING_TABLE
    ]


class SafeCommandPalette(LocalizedCommandPalette):
    """Textual's command palette, except that two races found by feeding the app random keys in tmux no longer
    end the app: a search still running when the palette closes (its busy and list watchers look up the
    palette's children, gone by then: NoMatches), and a page key before the list has laid out its lines."""

    def _watch__show_busy(self) -> None:  # type: ignore[override]  # async in Textual, awaiting nothing
        try:
            self.query_one(LoadingIndicator).set_class(self._show_busy, "--visible")
            self.query_one(CommandList).set_class(self._show_busy, "--populating")
        except NoMatches:
            pass

    def _watch__list_visible(self) -> None:
        try:
            super()._watch__list_visible()
        except NoMatches:
            pass

    def _action_command_list(self, action: str) -> None:
        """Page Up / Page Down / Home / End in the list: before the list has laid out its lines (a key in the
        same read as the letters that filled it), Textual's OptionList looks up a line it has not made yet
        (KeyError); the key then does nothing."""
        try:
            super()._action_command_list(action)
        except (KeyError, IndexError, NoMatches):
            pass


class GpuAdvisorApp(App[int]):
    """gpu-advisor's terminal UI. Build it with `create_app`."""

    BINDINGS = localized_bindings()

    def pop_screen(self) -> AwaitComplete:
        """Textual's pop, except that a second dismiss of a screen already gone (two Enters in the command
        palette within one frame, found by feeding the app random keys) leaves the chat in place instead of
        raising ScreenStackError and ending the app."""
        if len(self.screen_stack) <= 1:
            async def nothing() -> None:
                return None

            return AwaitComplete(nothing())
        return super().pop_screen()

    CSS_PATH = "app.tcss"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    def __init__(
        self,
        *,
        lang: Locale | None = None,
        resume: bool = False,
        state_path: Path | None = None,
        conversation_factory: ConversationFactory | None = None,
        resume_factory: ResumeFactory | None = None,
        report_dir: Path | None = None,
    ) -> None:
        super().__init__()
        self.forced_locale = lang
        self.auto_language = lang is None  # --lang forces a language; otherwise it follows what the user writes
        self.locale: Locale = lang or "en"
        self.resume_requested = resume
        self.state_path = state_path
        self._new_conversation = conversation_factory or _default_conversation
        self._resume_conversation = resume_factory or _default_resume
        self.report_dir = report_dir
        self.conversation: Any = None
        self._start_locale: Locale | None = lang
        self.main: ChatScreen
        self.busy = False
        self._spinner: Any = None
        self._spin_frame = 0
        self._shown_rec: Recommendation | None = None
        self._last_saved: str | None = None
        self._lock: Any = None  # the session file's SessionLock while this app writes it

    # ---------------------------------------------------------------- start-up

    def on_unmount(self) -> None:
        gc.unfreeze()  # see _freeze_startup_heap: what the app held may be collected again once it is gone
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def get_default_screen(self) -> Screen:
        self.main = ChatScreen(id="chat")
        return self.main

    def screen_ready(self) -> None:
        """The chat screen is composed: words, the session file's lock (or the offer of a separate session
        when another gpu-advisor has it), then the conversation (or the offer to resume one)."""
        self.apply_locale(self.locale)
        self.main.query_one("#chat-view", VerticalScroll).anchor()
        self.call_after_refresh(self._compile_patterns)
        self.call_later(self.main.query_one(ResultsPane).show, None, self.locale)
        if self.state_path is not None:
            from advisor.conversation import session

            try:
                self._lock = session.SessionLock.acquire(self.state_path)
            except session.SessionLocked as busy:
                holder = busy.holder
                question = t("tui.lock.question", self.locale, pid=str(holder.pid or "?"),
                             host=clean_text(holder.host) or "?")
                self.push_screen(
                    ConfirmDialog(question, t("tui.lock.separate", self.locale), t("tui.lock.quit", self.locale)),
                    self._locked_answered,
                )
                return
            except (OSError, session.SessionError):  # no lock file can be made there: saving will say why
                self._lock = None
        self._open_session()

    @work(thread=True, group="warm-up")
    def _compile_patterns(self) -> None:
        """After the first paint, while the user reads the greeting: compile the conversation's regular
        expressions (lazy, advisor/conversation/numbers.py), so that the first answer does not pay for them."""
        from advisor.conversation.numbers import LazyPattern

        LazyPattern.compile_all()

    def _locked_answered(self, separate: bool | None) -> None:
        """Another gpu-advisor holds the session file: continue in a separate one, or leave."""
        if not separate:
            self.exit(0)
            return
        from advisor.conversation import session

        assert self.state_path is not None
        try:
            self.state_path, self._lock = session.separate_session(self.state_path)
            self.notify(t("tui.lock.separate_at", self.locale, path=str(self.state_path)), markup=False)
        except (OSError, session.SessionError):
            self.state_path, self._lock = None, None  # in memory only, and said so
            self.notify(t("tui.lock.unsaved", self.locale), severity="warning", markup=False)
        self._open_session()

    def _open_session(self) -> None:
        unfinished, saved_locale, advised = unfinished_session(self.state_path)
        if unfinished:
            if self.resume_requested:
                self.begin(resume=True)
            else:
                if saved_locale and not self.forced_locale:
                    self.apply_locale(saved_locale)
                    self._start_locale = saved_locale  # starting afresh keeps the language of the last one
                # a consultation that has its recommendation is offered to be opened again, not "continued"
                question = t("tui.resume.question_done" if advised else "tui.resume.question", self.locale)
                yes = t("tui.resume.yes_done" if advised else "tui.resume.yes", self.locale)
                self.push_screen(
                    ResumeDialog(question, yes, t("tui.resume.no", self.locale), self._typed_early),
                    self._resume_answered,
                )
        else:
            self.begin(resume=False)

    def begin(self, resume: bool) -> Worker[None]:
        """Create (or restore) the conversation and show its opening replies."""
        self._set_busy(True)
        return self._begin_worker(resume)

    @work(thread=True, exclusive=True, group="turn")
    def _begin_worker(self, resume: bool) -> None:
        replies: list[Any] = []
        try:
            auto = self.auto_language
            if resume and self.state_path is not None:
                try:
                    self.conversation = self._resume_conversation(
                        self.state_path, locale=self.forced_locale, auto_language=auto
                    )
                except Exception:  # noqa: BLE001 - a broken or old session file: start afresh, and say so
                    self.conversation = self._new_conversation(self._start_locale, self.state_path, auto_language=auto)
                    replies.append(_LocalReply("error", t("tui.resume.failed", self.locale)))
            else:
                self.conversation = self._new_conversation(self._start_locale, self.state_path, auto_language=auto)
            if resume:
                self.call_from_thread(self._replay, list(getattr(self.conversation, "transcript", []) or []))  # type: ignore[arg-type]  # coroutine callbacks
            replies.extend(self.conversation.start())
        except Exception as exc:  # noqa: BLE001 - never a traceback: one clear bubble
            replies.append(_LocalReply("error", t("tui.error.internal", self.locale, error=_summary(exc))))
        _freeze_startup_heap()
        self.call_from_thread(self._after_turn, replies)  # type: ignore[arg-type]  # coroutine callbacks

    def _typed_early(self, character: str) -> None:
        """A key typed into the resume question starts the first message (ResumeDialog)."""
        prompt = self.main.query_one("#prompt", Input)
        prompt.insert_text_at_cursor(character)
        prompt.focus()

    def _resume_answered(self, yes: bool | None) -> None:
        self.begin(resume=bool(yes))

    REPLAY_LIMIT = 40

    async def _replay(self, transcript: list[dict[str, Any]]) -> None:
        """Show the restored conversation's last messages, so that resuming looks like where one left off."""
        if self.exiting():
            return
        chat = self.main.query_one("#chat-view", VerticalScroll)
        locale = getattr(self.conversation, "locale", self.locale)
        widgets: list[Any] = []
        for entry in transcript[-self.REPLAY_LIMIT :]:
            if not isinstance(entry, dict):
                continue
            text = clean_text(str(entry.get("text", "")))
            if entry.get("role") == "user":
                widgets.append(UserRow(UserMessage(text or t("tui.default_answer", locale), classes="user")))
            elif text:
                kind = str(entry.get("kind", "text"))
                widgets.append(AdvisorMessage(text, kind, locale, classes=f"advisor kind-{kind} replayed"))
        if widgets:
            await chat.mount_all(widgets, before=0)

    # ---------------------------------------------------------------- turns

    async def submit_text(self, text: str) -> None:
        """Send `text` as if typed, and wait until the advisor has answered (tests, benchmark)."""
        worker = self.start_turn(text)
        if worker is not None:
            await worker.wait()
        await self.workers.wait_for_complete()

    def start_turn(self, text: str) -> Worker[None] | None:
        """Show the user's message and run the conversation's turn in a worker; None when handled locally."""
        text = clean_text(text).strip()  # no terminal controls in the bubble, the transcript or a report
        # A bare /help or /save (in any of the dialogue's spellings) opens the help screen or the save dialog.
        bare = command_name(text) if " " not in text else None
        if bare == "help":
            self.action_help()
            return None
        if bare == "save":
            self.action_save_dialog()
            return None
        if self.busy or self.conversation is None:
            self.notify(t("tui.busy", self.locale), severity="warning", markup=False)
            return None
        if not text and getattr(self.conversation, "stage", None) == "advise":
            return None  # Enter on an empty line after the advice: no question is waiting for a default
        from advisor.report import existing_save_target

        target = existing_save_target(text)
        if target is not None:
            # "/save PATH" onto an existing file asks first, as the save dialog does.
            question = t("tui.confirm.overwrite", self.locale, path=target)
            self.push_screen(
                ConfirmDialog(question, t("tui.confirm.yes", self.locale), t("tui.confirm.no", self.locale)),
                lambda yes: self._overwrite_answered(text, target, bool(yes)),
            )
            return None
        return self._run_turn(text)

    def _overwrite_answered(self, text: str, target: str, yes: bool) -> None:
        """After "replace it?": yes saves; no keeps the file and gives the command back to edit the path."""
        if yes:
            self._run_turn(text)
            return
        self.notify(t("tui.save.kept", self.locale, path=target))
        prompt = self.main.query_one("#prompt", Input)
        prompt.value = text
        prompt.cursor_position = len(text)
        prompt.focus()

    def exiting(self) -> bool:
        """True once the app is closing (Ctrl+Q, the palette's Quit): nothing can be mounted any more, and a
        message sent or a reply arriving in that moment (random keys in tmux did both) is dropped instead of
        ending the app with a MountError. A message sent is already in the session file's inbox."""
        return bool(getattr(self, "_exit", False)) or not self.is_running

    def _run_turn(self, text: str) -> Worker[None] | None:
        if self.exiting():
            return None
        if self.busy or self.conversation is None:
            self.notify(t("tui.busy", self.locale), severity="warning")
            return None
        self._disable_quick_replies()  # greyed at once; removed with the answer, in the same layout pass
        chat = self.main.query_one("#chat-view", VerticalScroll)
        shown = text if text else t("tui.default_answer", self.locale)
        chat.mount(UserRow(UserMessage(shown, classes="user")))
        self._set_busy(True)
        return self._turn_worker(text)

    @work(thread=True, exclusive=True, group="turn")
    def _turn_worker(self, text: str) -> None:
        try:
            replies = list(self.conversation.handle(text))
        except Exception as exc:  # noqa: BLE001 - never a traceback: one clear bubble, and the conversation goes on
            replies = [_LocalReply("error", t("tui.error.internal", self.locale, error=_summary(exc)))]
        self.call_from_thread(self._after_turn, replies)  # type: ignore[arg-type]  # coroutine callbacks

    async def _after_turn(self, replies: Iterable[Any]) -> None:
        """Back on the UI thread: bubbles, quick replies, language, side panel, results."""
        if self.exiting():
            return
        conv = self.conversation
        if conv is not None and getattr(conv, "locale", None) in LOCALES and conv.locale != self.locale:
            self.apply_locale(conv.locale)
        chat = self.main.query_one("#chat-view", VerticalScroll)
        widgets: list[Any] = []
        for reply in replies:
            kind = getattr(reply, "kind", "text")
            widgets.append(
                AdvisorMessage(getattr(reply, "text", str(reply)), kind, self.locale, classes=f"advisor kind-{kind}")
            )
            choices = tuple(getattr(reply, "choices", ()) or ())
            if choices:
                widgets.append(QuickReplies(choices, classes="quick-replies"))
            if kind == "saved":
                self._last_saved = getattr(reply, "text", "")
        # One batch, so that the screen is laid out once for the whole turn: used quick replies go, the
        # bubbles come, the side panel updates in place.
        with self.batch_update():
            used = [q for q in chat.query(QuickReplies) if q.disabled]
            if used:
                await chat.remove_children(used)
            if widgets:
                await chat.mount_all(widgets)
            self._set_busy(False)
            await self.refresh_side_panels()
        chat.scroll_end(animate=False)
        self.main.query_one("#prompt", Input).focus()

    async def refresh_side_panels(self) -> None:
        """Rebuild the profile panel and, when the recommendation changed, the results view."""
        from advisor.report import profile_rows

        conv = self.conversation
        profile = getattr(conv, "profile", None)
        rows = known_rows(conv, profile_rows(profile, self.locale)) if profile is not None else []
        await self.main.query_one(ProfilePanel).show(
            t("tui.panel.profile", self.locale), rows, t("tui.panel.empty", self.locale)
        )
        rec = getattr(conv, "recommendation", None)
        if rec is not self._shown_rec:
            self._shown_rec = rec
            await self.main.query_one(ResultsPane).show(rec, self.locale)

    SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

    def _set_busy(self, busy: bool) -> None:
        """The busy indicator: a spinner and 'thinking…' in the input's border, and a busy placeholder.
        (Shown on the input rather than as a new bubble: nothing in the transcript has to move.)"""
        self.busy = busy
        prompt = self.main.query_one("#prompt", Input)
        prompt.placeholder = t("tui.input.busy" if busy else "tui.input.placeholder", self.locale)
        if busy:
            self._spin_frame = 0
            self._tick_spinner()
            if self._spinner is None:
                self._spinner = self.set_interval(0.1, self._tick_spinner)
            else:
                self._spinner.resume()
        else:
            if self._spinner is not None:
                self._spinner.pause()
            prompt.border_title = None

    def _tick_spinner(self) -> None:
        if not self.busy:
            return
        frame = self.SPINNER[self._spin_frame % len(self.SPINNER)]
        self._spin_frame += 1
        self.main.query_one("#prompt", Input).border_title = f"{frame} {t('tui.thinking', self.locale)}"

    def _disable_quick_replies(self) -> None:
        for replies in self.main.query(QuickReplies):
            replies.disabled = True

    @on(Input.Submitted, "#prompt")
    def _submitted(self, event: Input.Submitted) -> None:
        if self.busy:
            self.notify(t("tui.busy", self.locale), severity="warning", markup=False)
            return
        event.input.clear()
        self.start_turn(event.value)

    @on(QuickReplies.Chosen)
    def _chosen(self, event: QuickReplies.Chosen) -> None:
        self.start_turn(event.text)

    @on(ProfilePanel.ChangeRequested)
    def _change(self, event: ProfilePanel.ChangeRequested) -> None:
        prompt = self.main.query_one("#prompt", Input)
        prompt.value = t("tui.change_prefix", self.locale, item=event.label)
        prompt.cursor_position = len(prompt.value)
        self.main.query_one("#tabs", TabbedContent).active = "chat-tab"
        prompt.focus()

    # ---------------------------------------------------------------- language

    def apply_locale(self, locale: Locale) -> None:
        """Switch every visible word of the shell to `locale` (the conversation's bubbles stay as written)."""
        self.locale = locale
        self.title = t("app.title", locale)
        self.sub_title = t("tui.subtitle", locale)
        try:
            tabs = self.main.query_one("#tabs", TabbedContent)
            tabs.get_tab("chat-tab").label = t("tui.tab.chat", locale)
            tabs.get_tab("results-tab").label = t("tui.tab.results", locale)
            self.main.query_one("#prompt", Input).placeholder = t(
                "tui.input.busy" if self.busy else "tui.input.placeholder", locale
            )
            for bubble in self.main.query(AdvisorMessage):
                bubble.border_title = t("tui.advisor", locale)
            self.call_later(self.main.query_one(ResultsPane).show, self._shown_rec, locale)
        except Exception:  # noqa: BLE001 - before the screen is composed there is nothing to re-word
            pass
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "localized":
            return bool(parameters) and parameters[0] == self.locale
        return True

    async def action_localized(self, locale: str, action: str) -> None:
        """A key bound for `locale` (see `localized_bindings`): run the action it names."""
        await self.run_action(action)

    def switch_language(self, locale: Locale) -> None:
        """Ask the conversation to switch (it owns the language), as the user would with /lang."""
        self.start_turn(f"/lang {locale}")

    # ---------------------------------------------------------------- actions

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.locale))

    def action_toggle_results(self) -> None:
        tabs = self.main.query_one("#tabs", TabbedContent)
        to_results = tabs.active != "results-tab"
        tabs.active = "results-tab" if to_results else "chat-tab"
        target = self.main.query_one("#candidates" if to_results else "#prompt")
        self.call_after_refresh(target.focus)

    @on(TabbedContent.TabActivated, "#tabs")
    def _tab_changed(self, event: TabbedContent.TabActivated) -> None:
        """The results need the width: the side panel steps aside while they are shown."""
        self.main.set_class(event.pane.id == "results-tab", "-results")

    def action_scroll_chat(self, direction: int) -> None:
        """Page Up / Page Down scroll the transcript while the input keeps the focus."""
        chat = self.main.query_one("#chat-view", VerticalScroll)
        if direction < 0:
            chat.scroll_page_up()
        else:
            chat.scroll_page_down()

    def action_toggle_panel(self) -> None:
        panel = self.main.query_one(ProfilePanel)
        panel.set_class(not panel.has_class("-hidden"), "-hidden")
        panel.set_class(not panel.has_class("-shown"), "-shown")

    def action_command_palette(self) -> None:
        """Textual's command palette, with its placeholder and "No matches found" in the user's language."""
        if self.use_command_palette and not CommandPalette.is_open(cast("App[object]", self)):
            self.push_screen(SafeCommandPalette(self.locale, id="--command-palette"))

    def action_help_quit(self) -> None:
        """Ctrl+C (bound by Textual) no longer quits: say, in the user's language, which key does. (Textual's
        own notice is in English and looks for a binding to the bare `quit` action, which ours are not.)"""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit") or active.binding.action.endswith("'quit')"):
                self.notify(t("tui.quit_notice.text", self.locale, keys=f"[b]{key_label(key)}[/b]"),
                            title=t("tui.quit_notice.title", self.locale))
                return

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def action_new_consultation(self) -> None:
        if self.busy:
            self.notify(t("tui.busy", self.locale), severity="warning", markup=False)
            return
        self.main.query_one("#chat-view", VerticalScroll).remove_children()
        self._shown_rec = None
        self.call_later(self.main.query_one(ResultsPane).show, None, self.locale)
        self._start_locale = self.locale
        if self.state_path is not None:
            try:
                self.state_path.unlink()
            except OSError:
                pass
        self.begin(resume=False)

    def action_save_dialog(self) -> None:
        rec = getattr(self.conversation, "recommendation", None)
        if rec is None:
            self.notify(t("tui.save.nothing", self.locale), severity="warning", markup=False)
            return
        if isinstance(self.screen, SaveDialog):
            return
        default = str((self.report_dir / DEFAULT_REPORT_NAME) if self.report_dir else DEFAULT_REPORT_NAME)

        def save(text: str, fmt: str) -> Path:
            from advisor.report import save_report

            return save_report(rec, text, fmt=fmt, locale=self.locale)

        def exists(text: str) -> bool:
            try:
                return Path(text).expanduser().is_file()
            except (OSError, ValueError):
                return False

        self.push_screen(SaveDialog(self.locale, default, save, exists), self._saved)

    def _saved(self, path: Path | None) -> None:
        if path is None or self.exiting():
            return
        self._last_saved = str(path)
        message = t("tui.save.saved", self.locale, path=str(path))
        self.notify(message, markup=False)  # a path such as ~/[draft]/r.md is not Textual markup
        self.main.query_one("#chat-view", VerticalScroll).mount(
            AdvisorMessage(message, "saved", self.locale, classes="advisor kind-saved")
        )

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        loc = self.locale
        names = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文（台灣）"}
        for target in LOCALES:
            yield SystemCommand(
                t("tui.palette.lang", loc, language=names[target]),
                t("tui.palette.lang.help", loc),
                lambda target=target: self.switch_language(target),
            )
        yield SystemCommand(t("tui.palette.save", loc), t("tui.palette.save.help", loc), self.action_save_dialog)
        yield SystemCommand(t("tui.palette.new", loc), t("tui.palette.new.help", loc), self.action_new_consultation)
        yield SystemCommand(t("tui.palette.theme", loc), t("tui.palette.theme.help", loc), self.action_toggle_theme)
        yield SystemCommand(
            t("tui.palette.results", loc), t("tui.palette.results.help", loc), self.action_toggle_results
        )
        yield SystemCommand(t("tui.palette.help", loc), t("tui.palette.help.help", loc), self.action_help)
        yield SystemCommand(t("tui.palette.quit", loc), t("tui.palette.quit.help", loc), self.exit)


def _freeze_startup_heap() -> None:
    """Move what start-up allocated (Textual, the knowledge base, the catalogues: ~100,000 objects) out of
    the cyclic garbage collector's reach. They live as long as the app, and without this every full
    collection walks them all again (~60 ms on a 2-core machine), a visible hitch in a random answer.
    The app unfreezes them when it closes (tests and the benchmark run many apps in one process)."""
    gc.collect()
    gc.freeze()


class _LocalReply:
    """A reply made by the shell itself (an error), shaped like the conversation's `Reply`."""

    def __init__(self, kind: str, text: str, choices: tuple[Any, ...] = ()) -> None:
        self.kind, self.text, self.choices = kind, text, choices


def _summary(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:200] if text else type(exc).__name__


def _replacing_decoder(encoding: str) -> Callable[..., codecs.IncrementalDecoder]:
    """`codecs.getincrementaldecoder` whose decoders always replace an invalid byte with U+FFFD."""
    base = codecs.getincrementaldecoder(encoding)

    def make(errors: str = "replace") -> codecs.IncrementalDecoder:
        return base(errors="replace")

    return make


INPUT_DRIVERS = ("textual.drivers.linux_driver", "textual.drivers.linux_inline_driver", "textual.drivers.web_driver")


def robust_input_decoding() -> None:
    """One invalid UTF-8 byte typed at the terminal (or pasted, or sent by a misconfigured terminal) must not
    end the app: Textual's input threads decode stdin with `getincrementaldecoder("utf-8")()`, strict, and a
    UnicodeDecodeError there panics the app. Textual exposes that name as a global of each driver module;
    it is replaced by one whose decoders turn such a byte into U+FFFD. Idempotent."""
    for name in INPUT_DRIVERS:
        try:
            module = importlib.import_module(name)
        except ImportError:  # termios on Windows; the web driver's extras
            continue
        if hasattr(module, "getincrementaldecoder"):
            setattr(module, "getincrementaldecoder", _replacing_decoder)  # noqa: B010 - a module global, by name


def create_app(
    lang: Locale | None = None,
    resume: bool = False,
    state_path: Path | None = None,
    conversation_factory: ConversationFactory | None = None,
    resume_factory: ResumeFactory | None = None,
    report_dir: Path | None = None,
) -> GpuAdvisorApp:
    """The app, as the CLI, the tests and the benchmark build it."""
    robust_input_decoding()
    return GpuAdvisorApp(
        lang=lang,
        resume=resume,
        state_path=state_path,
        conversation_factory=conversation_factory,
        resume_factory=resume_factory,
        report_dir=report_dir,
    )


def run_app(lang: str | None, resume: bool) -> int:
    """Entry point of `gpu-advisor` (no subcommand): run the TUI until the user quits."""
    from advisor.i18n import normalize_locale

    locale = normalize_locale(lang) if lang else None
    state_path = default_state_path() if not os.environ.get("GPU_ADVISOR_NO_STATE") else None
    app = create_app(lang=locale, resume=resume, state_path=state_path)
    result = app.run()
    return int(result or 0)
