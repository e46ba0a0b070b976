"""`gpu-advisor chat`: the conversation without a terminal UI, for scripts, tests and pipes.

Why: the same consultation service (`advisor.consultation.Consultation`) the TUI drives runs
headless here. Answers come one per line from a file or stdin (read as they arrive, so a slow
pipe works and every answer is saved as it is given); when they run out, every remaining question
takes its default. The transcript goes to stdout, the report to `--report` (format from the suffix)
and the collected profile to `--profile-out` as JSON.
`--resume` continues the saved conversation.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

MAX_DEFAULT_TURNS = 40


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


def _lines(source: IO[str], prompt: IO[str] | None = None):
    """Answers one by one as they arrive (readline, so a slow pipe is read line by line).
    At a terminal a "> " prompt is shown instead of echoing the answer."""
    while True:
        if prompt is not None:
            prompt.write("> ")
            prompt.flush()
        line = source.readline()
        if not line:
            return
        yield line.rstrip("\r\n")


def run(args: argparse.Namespace) -> int:
    from advisor.consultation import Consultation
    from advisor.fsutil import atomic_write_text
    from advisor.i18n import t

    lang = getattr(args, "chat_lang", None) or getattr(args, "lang", None)
    resume = bool(getattr(args, "chat_resume", False) or getattr(args, "resume", False))
    state = getattr(args, "state", None)
    out = sys.stdout
    if resume:
        conv = Consultation.resume(state, locale=lang, auto_language=lang is None)
    else:
        conv = Consultation(lang, state, auto_language=lang is None)
    _print_replies(conv.start(), out)

    source: IO[str] | None
    answers = getattr(args, "answers", None)
    opened = None
    if answers in (None, "-"):
        source = sys.stdin
    else:
        try:
            opened = open(answers, encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as exc:
            print(f"gpu-advisor chat: cannot read answers from {answers}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        source = opened
    interactive = _isatty(source)
    try:
        for line in _lines(source, out if interactive else None):
            if interactive:
                out.write("\n")
            else:
                out.write(f"> {line}\n\n")
            _print_replies(conv.handle(line), out)
    except UnicodeDecodeError:
        print("gpu-advisor chat: the answers are not valid UTF-8 text", file=sys.stderr)
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


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _expand(path: str):
    from pathlib import Path

    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    return target
