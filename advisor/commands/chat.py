"""`gpu-advisor chat`: the conversation without a terminal UI, for scripts, tests and pipes.

Why: the same consultation service (`advisor.consultation.Consultation`) the TUI drives runs
headless here. Answers come one per line from a file or stdin (read as they arrive, so a slow
pipe works and every answer is saved as it is given); when they run out, every remaining question
takes its default. The transcript goes to stdout, the report to `--report` (format from the suffix)
and the collected profile to `--profile-out` as JSON.
`--resume` continues the saved conversation. `/save PATH` onto an existing file asks first at a terminal, as
the TUI does, and is refused when the answers come from a file or a pipe (nobody is there to answer).

Hostile input: answers are read as bytes and decoded with U+FFFD for an invalid byte (one stray byte
must not cost the answer, nor the session file, which cannot hold an undecodable character); control
characters are dropped. A line longer than `MAX_LINE_BYTES` is cut there, and more than
`MAX_ANSWERS_BYTES` in all (`chat < /dev/zero`) ends the command with one line. `--answers` must be a
regular file within that limit (not /dev/zero, not a FIFO) and `--state` a regular file or nothing yet
(not a folder, not a device): each is refused with one line in the user's language, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import IO, Any

MAX_DEFAULT_TURNS = 40
MAX_LINE_BYTES = 64 << 10
"""An answer longer than this is cut (the dialogue reads at most 4,000 characters of one anyway)."""
MAX_ANSWERS_BYTES = 4 << 20
"""All the answers of one run together, bytes: more is not a conversation."""
MAX_ANSWERS = 5_000
"""Answers in one run (`yes | gpu-advisor chat` ends)."""


class AnswersTooLarge(Exception):
    """More than MAX_ANSWERS_BYTES of answers, or more than MAX_ANSWERS of them."""


def add_arguments(parser: argparse.ArgumentParser, name: str = "chat") -> None:
    parser.add_argument("--answers", metavar="FILE|-", help="answers, one per line ('-' = stdin; default: stdin)")
    parser.add_argument(
        "--lang",
        dest="chat_lang",
        choices=["en", "zh-Hans", "zh-Hant"],
        help="reply in this language (default: follow the language of each answer)",
    )
    parser.add_argument("--report", metavar="PATH", help="write the report here (.md, .html or .json)")
    parser.add_argument("--profile-out", metavar="PATH", help="write the collected profile here as JSON")
    parser.add_argument(
        "--resume",
        dest="chat_resume",
        action="store_true",
        help="continue the unfinished conversation saved in the state folder",
    )
    parser.add_argument("--state", metavar="PATH", help="session file (default: the state folder's session.json)")


def _print_replies(replies: list[Any], out: IO[str]) -> None:
    for reply in replies:
        out.write(reply.text.rstrip() + "\n\n")
    out.flush()


def _lines(source: IO[bytes], prompt: IO[str] | None = None) -> Iterator[str]:
    """Answers one by one as they arrive (readline, so a slow pipe is read line by line), decoded with
    U+FFFD for invalid bytes and without control characters. At a terminal a "> " prompt is shown instead
    of echoing the answer. Raises AnswersTooLarge past MAX_ANSWERS_BYTES."""
    from advisor.sanitize import clean_text

    total = count = 0
    while True:
        if prompt is not None:
            prompt.write("> ")
            prompt.flush()
        raw = source.readline(MAX_LINE_BYTES)
        if not raw:
            return
        total += len(raw)
        rest = raw
        while not rest.endswith(b"\n") and len(rest) == MAX_LINE_BYTES:  # an over-long line: skip to its end
            if total > MAX_ANSWERS_BYTES:
                break
            rest = source.readline(MAX_LINE_BYTES)
            total += len(rest)
        count += 1
        if total > MAX_ANSWERS_BYTES or count > MAX_ANSWERS:
            raise AnswersTooLarge
        yield clean_text(raw.decode("utf-8", errors="replace").rstrip("\r\n")).rstrip("\n")


def _binary(stream: Any) -> IO[bytes] | None:
    """The byte stream under a text stream (sys.stdin.buffer), or None when there is none (stdin closed)."""
    if stream is None:
        return None
    buffer = getattr(stream, "buffer", None)
    return buffer if buffer is not None else stream


def _refusal(exc: Any, what: str, locale: str) -> str:
    """One line for an InputFileError about the answers file or the session file."""
    from advisor.fsutil import format_limit
    from advisor.i18n import t
    from advisor.sanitize import one_line

    path = one_line(exc.path)
    if exc.reason == "too_large":
        return t(f"conv.cli.{what}_too_large", locale, path=path, limit=format_limit(exc.limit or 0))  # type: ignore[arg-type]
    reason = "directory" if exc.reason == "directory" else "not_regular"
    return t(f"conv.cli.{what}_{reason}", locale, path=path)  # type: ignore[arg-type]


def run(args: argparse.Namespace) -> int:
    from advisor.consultation import Consultation
    from advisor.conversation import session as S
    from advisor.conversation.dialogue import env_locale
    from advisor.fsutil import InputFileError, atomic_write_text, check_regular
    from advisor.i18n import normalize_locale, t
    from advisor.sanitize import one_line

    lang = getattr(args, "chat_lang", None) or getattr(args, "lang", None)
    resume = bool(getattr(args, "chat_resume", False) or getattr(args, "resume", False))
    state = getattr(args, "state", None)
    out = sys.stdout
    say_in = (normalize_locale(lang) if lang else None) or env_locale()
    answers = getattr(args, "answers", None)
    # Refuse what cannot be read or written before the conversation starts (nothing is opened yet).
    if answers not in (None, "-"):
        try:
            check_regular(answers, MAX_ANSWERS_BYTES)
        except InputFileError as exc:
            print(f"gpu-advisor chat: {_refusal(exc, 'answers', say_in)}", file=sys.stderr)
            return 2
        except OSError as exc:
            detail = one_line(exc.strerror or str(exc))
            message = t("conv.cli.answers_unreadable", say_in, path=one_line(answers), detail=detail)
            print(f"gpu-advisor chat: {message}", file=sys.stderr)
            return 2
    if state is not None:
        try:
            S.check_path(state)
        except S.SessionRefused as exc:
            print(f"gpu-advisor chat: {_refusal(exc.problem, 'state', say_in)}", file=sys.stderr)
            return 2
    state, _lock = _lock_session(state, say_in, resume)  # held until the process ends
    if state is False:  # another gpu-advisor holds it and no separate file could be made: in memory only
        conv = Consultation(lang, None, persist=False, auto_language=lang is None)
    elif resume:
        conv = Consultation.resume(state, locale=lang, auto_language=lang is None)
    else:
        conv = Consultation(lang, state, auto_language=lang is None)
    _print_replies(conv.start(), out)

    source: IO[bytes] | None
    opened = None
    if answers in (None, "-"):
        source = _binary(sys.stdin)
    else:
        try:
            opened = open(answers, "rb")  # noqa: SIM115 (closed below)
        except OSError as exc:
            detail = one_line(exc.strerror or str(exc))
            message = t("conv.cli.answers_unreadable", conv.locale, path=one_line(answers), detail=detail)
            print(f"gpu-advisor chat: {message}", file=sys.stderr)
            return 2
        source = opened
    interactive = source is not None and _isatty(source)
    from advisor.report import existing_save_target

    try:
        lines = _lines(source, out if interactive else None) if source is not None else iter(())
        for line in lines:
            if interactive:
                out.write("\n")
            else:
                out.write(f"> {line}\n\n")
            target = existing_save_target(line)
            if target is not None and not _may_replace(target, lines, interactive, conv.locale, out):
                continue
            _print_replies(conv.handle(line), out)
    except AnswersTooLarge:
        from advisor.fsutil import format_limit

        limit = t("conv.cli.answers_limit", conv.locale, size=format_limit(MAX_ANSWERS_BYTES), count=f"{MAX_ANSWERS:,}")
        where = one_line(answers) if answers not in (None, "-") else "stdin"
        print(f"gpu-advisor chat: {t('conv.cli.answers_too_large', conv.locale, path=where, limit=limit)}",
              file=sys.stderr)
        return 2
    finally:
        if opened is not None:
            opened.close()

    # Answers ran out: every remaining question takes its default, then the summary is confirmed.
    turns = 0
    while conv.recommendation is None and turns < MAX_DEFAULT_TURNS:
        turns += 1
        was_confirming = conv.stage == "confirm"
        out.write(">\n\n")
        _print_replies(conv.handle(""), out)
        if was_confirming and conv.recommendation is None:
            break  # the recommendation failed; its error is in the transcript

    status = 0
    profile_out = getattr(args, "profile_out", None)
    if profile_out:
        data = conv.profile.model_dump(mode="json")
        try:
            atomic_write_text(_expand(profile_out), json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        except OSError as exc:
            print(
                f"gpu-advisor chat: cannot write the profile to {profile_out}: {exc.strerror or exc}", file=sys.stderr
            )
            status = 2
    report = getattr(args, "report", None)
    if report:
        if conv.recommendation is None:
            print(t("conv.save.none", conv.locale), file=sys.stderr)
            return 1
        from advisor.report import ReportError, save_report

        try:
            written = save_report(conv.recommendation, report, locale=conv.locale)
        except ReportError as exc:
            print(exc.message(conv.locale), file=sys.stderr)
            return 2
        out.write(t("conv.saved", conv.locale, path=str(written)) + "\n")
    if conv.recommendation is None:
        return 1
    return status


def _lock_session(state: str | None, locale: str, resume: bool) -> tuple[Any, Any]:
    """(the session file to use, its lock). When another gpu-advisor (a TUI, another `chat`) holds the session
    file, the conversation goes to a separate one (`session-2.json` …: for `--resume`, a copy of the one in
    use), said on stderr; (False, None) when none can be made. (path, None) when no lock can be taken there."""
    import atexit
    import shutil
    from pathlib import Path

    from advisor.conversation import session as S
    from advisor.i18n import t
    from advisor.sanitize import one_line

    try:
        path = Path(state) if state is not None else S.default_path()
    except OSError:
        return state, None
    try:
        lock = S.SessionLock.acquire(path)
        atexit.register(lock.release)  # the lock file goes with the run (the kernel frees the lock anyway)
        return state if state is not None else path, lock
    except S.SessionLocked as busy:
        holder = busy.holder
        words = {"path": one_line(str(path)), "pid": str(holder.pid or "?"), "host": one_line(holder.host) or "?"}
        try:
            separate, lock = S.separate_session(path)
            atexit.register(lock.release)
            if resume and path.is_file():  # --resume continues from a copy of the session in use
                shutil.copyfile(path, separate)
        except (OSError, S.SessionError):
            print(f"gpu-advisor chat: {t('conv.cli.state_locked_unsaved', locale, **words)}", file=sys.stderr)  # type: ignore[arg-type]
            return False, None
        message = t("conv.cli.state_locked", locale, separate=one_line(str(separate)), **words)  # type: ignore[arg-type]
        print(f"gpu-advisor chat: {message}", file=sys.stderr)
        return str(separate), lock
    except (OSError, S.SessionError):
        return state, None


YES_WORDS = frozenset({"y", "yes", "replace", "ok", "是", "是的", "对", "對", "好", "覆盖", "覆寫", "要"})


def _may_replace(target: str, lines: Iterator[str], interactive: bool, locale: str, out: IO[str]) -> bool:
    """`/save` onto an existing file: at a terminal, ask (the TUI asks too) and read the answer; from a file
    or a pipe nobody is there to ask, so the file is kept and the transcript says how to save elsewhere."""
    from advisor.i18n import t
    from advisor.sanitize import one_line

    path = one_line(target)
    if not interactive:
        out.write(t("chat.save.refused", locale, path=path) + "\n\n")  # type: ignore[arg-type]
        return False
    out.write(t("chat.save.ask", locale, path=path) + "\n")  # type: ignore[arg-type]
    answer = next(lines, "").strip().lower()
    out.write("\n")
    if answer in YES_WORDS:
        return True
    out.write(t("chat.save.kept", locale, path=path) + "\n\n")  # type: ignore[arg-type]
    return False


def _isatty(stream: IO[Any]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _expand(path: str):
    from pathlib import Path

    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    return target
