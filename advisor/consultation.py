"""The consultation service: the one object both front ends drive, and the only one that acts.

Why: the dialogue (`advisor.conversation.dialogue`) is pure — it reads what the user typed and says
what to do next as a typed intent. This service does it: it runs the recommender (injected, so
tests pass a fake one instead of monkeypatching), keeps the last recommendation and the what-if in
progress, answers "why", "why not" and knowledge questions through the rendering layer, saves
reports, and writes the session file atomically before (the answer being handled, `inbox`) and
after every turn, so nothing typed is lost if the program dies. No exception escapes `start` or
`handle`: a failure becomes a localized error reply and the answers are kept.

The TUI and `gpu-advisor chat` see it through `ConsultationLike`, a small Protocol.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from advisor.conversation import dialogue as D
from advisor.conversation import session as S
from advisor.conversation.dialogue import Reply
from advisor.i18n import normalize_locale, t
from advisor.models import Candidate, Locale, Profile, Recommendation
from advisor.sanitize import clean_text, one_line

MAX_TRANSCRIPT = 600

Recommender = Callable[[Profile], Recommendation]
Searcher = Callable[[str, Locale], str | None]
"""A knowledge question and the reader's language -> the answer as Markdown, or None when nothing is relevant."""
Examiner = Callable[[Profile, str, int | None], Candidate | None]
"""The profile, a GPU the user asked about and the count they named -> that GPU's best option, judged by the
rules (`advisor.recommend.examine`), or None when it cannot be built."""

_FALLBACK_ERROR = "Something went wrong while handling that message. Your answers are kept; please try again."


class ConsultationLike(Protocol):
    """What a front end needs from a consultation."""

    @property
    def locale(self) -> Locale: ...

    @property
    def profile(self) -> Profile: ...

    @property
    def recommendation(self) -> Recommendation | None: ...

    @property
    def collected(self) -> frozenset[str]: ...

    @property
    def transcript(self) -> list[dict[str, str]]: ...

    def start(self) -> list[Reply]: ...

    def handle(self, text: str) -> list[Reply]: ...


def default_recommender(profile: Profile) -> Recommendation:
    """The real recommender (imported on first use: the TUI greets before the rules engine loads)."""
    from advisor.recommend import recommend

    return recommend(profile)


def default_examiner(profile: Profile, gpu: str, count: int | None) -> Candidate | None:
    """The real examiner: the GPU asked about, through the same pipeline as the recommendation."""
    from advisor.recommend import examine

    return examine(profile, gpu, count)


def default_searcher(query: str, locale: Locale) -> str | None:
    """The knowledge base's best entries for `query`, rendered."""
    from advisor.kb_search import search
    from advisor.report import render_knowledge

    results = search(query, locale, k=3)
    return render_knowledge([entry for entry, _score in results], locale) if results else None


class Consultation:
    """One consultation. `start()` greets; `handle(text)` answers each message.

    `state_path` is the session file (default `state_dir()/session.json`); `persist=False` keeps
    everything in memory. `auto_language=False` keeps `locale` whatever the user writes in."""

    def __init__(
        self,
        locale: Locale | str | None = None,
        state_path: str | os.PathLike[str] | None = None,
        *,
        persist: bool = True,
        auto_language: bool = True,
        recommender: Recommender | None = None,
        searcher: Searcher | None = None,
        examiner: Examiner | None = None,
    ):
        chosen = normalize_locale(locale) if isinstance(locale, str) else None
        self.state = D.State.new(chosen or D.env_locale(), auto_language=auto_language)
        self.persist = persist
        self._state_path: Path | None = Path(state_path) if state_path is not None else None
        self.recommend = recommender or default_recommender
        self.search = searcher or default_searcher
        self.examine = examiner or default_examiner
        self.recommendation: Recommendation | None = None
        self._whatif_rec: Recommendation | None = None
        self.transcript: list[dict[str, str]] = []
        self._notice: tuple[str, dict[str, Any]] | None = None
        self._replay: str | None = None
        self._save_state = "ok"  # ok | failed (tell the user once) | told | back (saving works again: say so)
        self._save_error: BaseException | None = None

    # ------------------------------------------------------------------ what front ends read

    @property
    def locale(self) -> Locale:
        return self.state.locale

    @property
    def profile(self) -> Profile:
        return self.state.profile

    @property
    def stage(self) -> str:
        return self.state.stage

    @property
    def pending(self) -> str | None:
        return self.state.pending

    @property
    def answered(self) -> set[str]:
        return set(self.state.answered)

    @property
    def defaulted(self) -> set[str]:
        return set(self.state.defaulted)

    @property
    def collected(self) -> frozenset[str]:
        """The questions the user answered or took the default of."""
        return self.state.answered | self.state.defaulted

    @property
    def history(self) -> tuple[D.Snapshot, ...]:
        return self.state.history

    @property
    def auto_language(self) -> bool:
        return self.state.auto_language

    @property
    def whatif(self) -> tuple[Profile, Recommendation] | None:
        """The hypothetical profile and its recommendation, until the user keeps it or moves on."""
        if self.state.whatif is None or self._whatif_rec is None:
            return None
        return self.state.whatif, self._whatif_rec

    @property
    def state_path(self) -> Path | None:
        """The session file, or None when the consultation is not saved."""
        if not self.persist:
            return None
        if self._state_path is None:
            try:
                self._state_path = S.default_path()
            except OSError:
                return None
        return self._state_path

    # ------------------------------------------------------------------ resume

    @classmethod
    def resume(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        locale: Locale | str | None = None,
        persist: bool = True,
        auto_language: bool = True,
        recommender: Recommender | None = None,
        searcher: Searcher | None = None,
        examiner: Examiner | None = None,
    ) -> Consultation:
        """Restore the consultation saved at `path` (default: the state folder's session file).

        A missing file gives a fresh consultation that says so; a corrupt one is moved aside (renamed,
        never deleted) and the fresh consultation's first reply names where it went."""
        options: dict[str, Any] = {
            "persist": persist,
            "auto_language": auto_language,
            "recommender": recommender,
            "searcher": searcher,
            "examiner": examiner,
        }
        conv = cls(locale, path, **options)
        target = conv.state_path if path is None else Path(path)
        if target is None:
            conv._notice = ("conv.resume_none", {})
            return conv
        try:
            data = S.load(target)
            state = D.State.from_json(data)
            forced = normalize_locale(str(locale)) if locale is not None else None
            if forced:
                state = replace(state, locale=forced, profile=state.profile.model_copy(update={"language": forced}))
            conv.state = state
            conv.transcript = _transcript(data.get("transcript", []))
            inbox = data.get("inbox")
            conv._replay = clean_text(inbox) if isinstance(inbox, str) else None
            conv._notice = ("conv.resumed", {"count": sum(1 for e in conv.transcript if e.get("role") == "user")})
            conv._refresh_recommendation()
        except FileNotFoundError:
            conv._notice = ("conv.resume_none", {})
        except Exception:  # noqa: BLE001 - unreadable, not JSON, wrong shape, invalid values: keep it, start afresh
            fresh = cls(locale, path, **options)
            try:
                moved = S.move_aside(target)
                fresh._notice = ("conv.resume_corrupt", {"moved": str(moved)})
            except (OSError, S.SessionError):  # not a regular file (a folder, a FIFO, a device): left alone
                fresh._notice = ("conv.resume_none", {})
            return fresh
        return conv

    # ------------------------------------------------------------------ turns

    def prompt(self) -> list[Reply]:
        """The question (or summary) the consultation is waiting on, as it would be asked now."""
        return list(D.prompt(self.state))

    def start(self) -> list[Reply]:
        """The opening replies: the greeting (or the resume notice) and the first open question."""
        try:
            replies: list[Reply] = []
            if self._notice:
                key, values = self._notice
                replies.append(
                    Reply("error" if key == "conv.resume_corrupt" else "text", t(key, self.locale, **values))
                )
                self._notice = None
            self._refresh_recommendation()
            if self._replay is not None:
                text, self._replay = self._replay, None
                self.state = replace(self.state, started=True)
                return replies + self.handle(text)
            turn = D.start(self.state)
            self.state = turn.state
            replies += list(turn.replies)
            self._log_assistant(replies)
            self._save()
            return replies
        except Exception as exc:  # noqa: BLE001 - never a traceback for the user
            return [self._error_reply(exc)]

    def handle(self, text: str) -> list[Reply]:
        """Answer one message. Never raises; the state is saved before and after."""
        text = "" if text is None else clean_text(str(text))  # no terminal controls in replies, transcript, reports
        self._save(inbox=text)
        try:
            replies = self._handle(text)
        except Exception as exc:  # noqa: BLE001 - a failure is a reply, and the answers are kept
            replies = [self._error_reply(exc)]
        self.transcript.append({"role": "user", "text": text[: D.MAX_INPUT_CHARS]})
        self._log_assistant(replies)
        self._save()
        if self._save_state == "failed":
            self._save_state = "told"
            detail = save_problem(self._save_error, self.locale)
            replies.append(
                Reply("error", t("conv.error.save_session", self.locale, path=str(self._state_path), detail=detail))
            )
        elif self._save_state == "back":
            self._save_state = "ok"
            replies.append(Reply("text", t("conv.save_session.resumed", self.locale, path=str(self._state_path))))
        return replies

    def _handle(self, text: str) -> list[Reply]:
        turn = D.handle(self.state, text)
        previous = self.state
        self.state = turn.state
        try:
            middle = self._execute(turn.intent, previous)
        except _Failed as failure:
            fallback = turn.on_failure or D.Turn(previous)
            self.state = fallback.state
            return list(fallback.replies) + [failure.reply] + list(fallback.after)
        if self.state.whatif is None:
            self._whatif_rec = None
        self._refresh_recommendation()
        return list(turn.replies) + middle + list(turn.after)

    # ------------------------------------------------------------------ intents

    def _execute(self, intent: D.Intent, previous: D.State) -> list[Reply]:
        from advisor import report

        locale = self.locale
        if isinstance(intent, D.Recommend):
            before = self.recommendation
            rec = self._run(intent.profile)
            self.recommendation, self._whatif_rec = rec, None
            shown = self._show(rec)
            if intent.correction:
                return [Reply("answer", report.render_what_if(before, rec, None, locale))] + shown
            return shown
        if isinstance(intent, D.WhatIf):
            rec = self._run(intent.profile)
            self._whatif_rec = rec
            return [Reply("answer", report.render_what_if(self.recommendation, rec, list(intent.change), locale))]
        if isinstance(intent, D.KeepWhatIf):
            rec = self._whatif_rec if self._whatif_rec is not None else self._run(intent.profile)
            self.recommendation, self._whatif_rec = rec, None
            return self._show(rec)
        if isinstance(intent, D.Why):
            if self.recommendation is None:
                return [Reply("answer", t("conv.why.none", locale))]
            return [Reply("answer", report.render(self.recommendation, "why", locale).strip())]
        if isinstance(intent, D.WhyNot):
            if self.recommendation is None:
                return [Reply("answer", t("conv.why.none", locale))]
            gpu = intent.gpu
            if gpu is None:  # "why not 8?": the top pick's GPU at the count named
                if not self.recommendation.recommendations:
                    return [Reply("answer", t("conv.whynot.unknown", locale))]
                gpu = self.recommendation.recommendations[0].gpu
            try:
                examined = self.examine(self.recommendation.profile, gpu, intent.count)
            except Exception:  # noqa: BLE001 - without the side-by-side, the answer still says where it ranks
                examined = None
            why_not = report.render_why_not(self.recommendation, gpu, locale, examined, intent.count)
            return [Reply("answer", why_not)]
        if isinstance(intent, D.Save):
            return [self._save_report(intent.path, intent.fmt)]
        if isinstance(intent, D.Knowledge):
            try:
                answer = self.search(intent.query, locale)
            except Exception:  # noqa: BLE001 - the knowledge base failing is "nothing found", not a crash
                answer = None
            note = None
            if answer and self.recommendation is not None:
                try:
                    note = report.case_note(self.recommendation, intent.query, locale)
                except Exception:  # noqa: BLE001 - the general answer stands without the personal line
                    note = None
            text = (answer + "\n\n" + note) if answer and note else answer
            return [Reply("answer", text or t("conv.kb.none", locale))]
        if isinstance(intent, D.Reset):
            self.recommendation, self._whatif_rec = None, None
        return []

    def _run(self, profile: Profile) -> Recommendation:
        try:
            return self.recommend(profile)
        except Exception as exc:
            message = getattr(exc, "message", None)
            detail = message(self.locale) if callable(message) else _short(exc)
            raise _Failed(Reply("error", t("conv.error.engine", self.locale, detail=detail))) from exc

    def _show(self, rec: Recommendation) -> list[Reply]:
        from advisor.report import render

        replies = [Reply("recommendation", render(rec, "chat", self.locale))]
        if not rec.recommendations:
            replies.append(Reply("text", t("conv.rec.empty", self.locale)))
        return replies

    def _refresh_recommendation(self) -> None:
        """The recommendation is kept only while the dialogue is advising, for the profile it advises on
        (after /back or a resume it is computed again: prices and rules may have changed)."""
        if self.state.stage != "advise":
            self.recommendation, self._whatif_rec = None, None
            return
        rec = self.recommendation
        if rec is None or not _same_question(rec.profile, self.state.profile):
            try:
                self.recommendation = self.recommend(self.state.profile)
            except Exception:  # noqa: BLE001 - cannot recompute: back to the summary, answers kept
                self.recommendation = None
                self.state = replace(self.state, stage="confirm", pending=None)
                return
        if self.state.whatif is not None and self._whatif_rec is None:  # a what-if in progress, resumed
            try:
                self._whatif_rec = self.recommend(self.state.whatif)
            except Exception:  # noqa: BLE001 - "keep it" computes it again, and says so if it fails
                self._whatif_rec = None

    def _save_report(self, path: str, fmt: str | None) -> Reply:
        from advisor.report import ReportError, save_report

        if self.recommendation is None:
            return Reply("error", t("conv.save.none", self.locale))
        try:
            written = save_report(self.recommendation, path, fmt=fmt, locale=self.locale)
        except ReportError as exc:
            return Reply("error", t("conv.save.failed", self.locale, path=path, detail=exc.message(self.locale)))
        except Exception as exc:  # noqa: BLE001 - any other failure is named, never raised
            return Reply("error", t("conv.save.failed", self.locale, path=path, detail=_short(exc)))
        return Reply("saved", t("conv.saved", self.locale, path=str(written)))

    # ------------------------------------------------------------------ the session file

    def to_state(self) -> dict[str, Any]:
        """Everything needed to resume, as plain JSON-able data (the session file's keys)."""
        return {**self.state.to_json(), "transcript": self.transcript[-MAX_TRANSCRIPT:]}

    def _save(self, inbox: str | None = None) -> None:
        path = self.state_path
        if path is None:
            return
        state = self.to_state()
        if inbox is not None:
            state["inbox"] = inbox[: D.MAX_INPUT_CHARS]
        try:
            S.save(path, state)
        except (OSError, ValueError, S.SessionError) as exc:  # SessionRefused: a folder, a FIFO, a device
            # Everything stays in memory, and every later turn tries again (a full disk gets space back, a
            # deleted state folder is created again): the first save that works writes all of it.
            if self._save_state in ("ok", "back"):
                self._save_state = "failed"
                self._save_error = exc
        else:
            if self._save_state == "told":
                self._save_state = "back"
            elif self._save_state == "failed":  # failed and recovered within one turn: nothing to tell
                self._save_state = "ok"

    def _log_assistant(self, replies: list[Reply]) -> None:
        for r in replies:
            self.transcript.append({"role": "assistant", "kind": r.kind, "text": r.text})
        del self.transcript[:-MAX_TRANSCRIPT]

    def _error_reply(self, exc: BaseException) -> Reply:
        try:
            return Reply("error", t("conv.error.internal", self.locale, detail=_short(exc)))
        except Exception:  # noqa: BLE001 - even the words failed: plain English
            return Reply("error", _FALLBACK_ERROR)


class _Failed(Exception):
    """An intent could not be carried out; `reply` says why."""

    def __init__(self, reply: Reply):
        super().__init__(reply.text)
        self.reply = reply


def _same_question(a: Profile, b: Profile) -> bool:
    """Whether two profiles ask the same thing (the language they were asked in, and which answers were
    defaults, aside)."""
    neutral = {"language": "en", "assumed": ()}
    return a.model_copy(update=neutral) == b.model_copy(update=neutral)


def _transcript(raw: Any) -> list[dict[str, str]]:
    if not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
        raise S.SessionError("bad transcript")
    return [
        {
            "role": str(e.get("role", "")),
            "text": clean_text(str(e.get("text", ""))),  # a hand-edited session file may hold terminal controls
            **({"kind": one_line(str(e["kind"]))} if "kind" in e else {}),
        }
        for e in raw
    ][-MAX_TRANSCRIPT:]


def save_problem(exc: BaseException | None, locale: Locale) -> str:
    """Why the session file could not be written, in the user's language (errno-based; else the error)."""
    import errno

    if isinstance(exc, S.SessionLocked):
        return t("session.problem.in_use", locale, pid=str(exc.holder.pid or "?"))
    if isinstance(exc, S.SessionRefused):
        return t("session.problem.not_regular", locale)
    code = getattr(exc, "errno", None)
    key = {
        errno.ENOSPC: "disk_full",
        getattr(errno, "EDQUOT", errno.ENOSPC): "disk_full",
        errno.EACCES: "permission",
        errno.EPERM: "permission",
        errno.EROFS: "read_only",
        errno.ENOENT: "folder",
        errno.ENOTDIR: "folder",
        errno.EEXIST: "folder",
        errno.ENAMETOOLONG: "name_too_long",
    }.get(code) if isinstance(code, int) else None
    if key is not None:
        return t(f"session.problem.{key}", locale)
    return one_line(_short(exc)) if exc is not None else "?"


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    name = type(exc).__name__
    return f"{name}: {text[:160]}" if text else name


__all__ = ["Consultation", "ConsultationLike", "Recommender", "Reply", "default_recommender"]
