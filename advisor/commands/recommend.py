"""`gpu-advisor recommend --profile PATH`: a recommendation from a saved profile, without a conversation.

Why: a profile written by `gpu-advisor chat --profile-out` (or by hand, or the `profile` inside a JSON
report) should give the same answer in a script or CI job as in the TUI. The profile file is JSON or
YAML; the report goes to stdout or to `-o PATH` (format from `--format` or the suffix). Bad input —
a missing file, broken YAML, a field with a wrong value, a folder, a device or a FIFO (/dev/zero,
/dev/urandom, a named pipe: refused before anything is read), a file over `MAX_PROFILE_BYTES` — ends with
one clear line in the user's language and exit status 2; no traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

MAX_PROFILE_BYTES = 4 << 20
"""The largest profile file read: a profile is a few kilobytes, a JSON report holding one a few hundred."""


def add_arguments(parser: argparse.ArgumentParser, name: str = "recommend") -> None:
    parser.add_argument("--profile", required=True, metavar="PATH",
                        help="profile file, JSON or YAML (as written by `gpu-advisor chat --profile-out`)")
    parser.add_argument("--lang", dest="rec_lang", choices=["en", "zh-Hans", "zh-Hant"],
                        help="language of the report (default: the profile's language)")
    parser.add_argument("--format", dest="rec_format", choices=["md", "html", "json"],
                        help="report format (default: from the -o suffix, else md)")
    parser.add_argument("-o", "--output", metavar="PATH", help="write the report here instead of stdout")


def _say(key: str, locale: str, **values: Any) -> None:
    from advisor.i18n import t
    from advisor.sanitize import one_line

    clean = {name: one_line(str(value)) for name, value in values.items()}  # a path may hold terminal controls
    print(f"gpu-advisor recommend: {t(key, locale, **clean)}", file=sys.stderr)  # type: ignore[arg-type]


def read_profile_data(path: Path) -> Any:
    """The parsed file: JSON when it parses as JSON, else YAML. Raises OSError (`InputFileError` for a
    folder, a special file or one over MAX_PROFILE_BYTES), UnicodeDecodeError, ValueError (with detail)."""
    import json

    import yaml

    from advisor.fsutil import read_text_bounded

    text = read_text_bounded(path, MAX_PROFILE_BYTES)
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        raise ValueError(f"{where}{getattr(exc, 'problem', None) or exc}") from None


def _field_problems(exc: Any) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "(profile)"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts[:5])


def run(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from advisor.fsutil import InputFileError, format_limit
    from advisor.i18n import normalize_locale
    from advisor.models import Profile
    from advisor.report import ReportError, render, save_report

    forced = getattr(args, "rec_lang", None) or getattr(args, "lang", None)
    locale = normalize_locale(forced) if forced else None
    say_in = locale or "en"
    path = Path(args.profile).expanduser()
    if path.is_dir():
        _say("report.cli.profile_is_directory", say_in, path=str(path))
        return 2
    try:
        data = read_profile_data(path)
    except FileNotFoundError:
        _say("report.cli.no_profile", say_in, path=str(path))
        return 2
    except InputFileError as exc:
        if exc.reason == "directory":
            _say("report.cli.profile_is_directory", say_in, path=str(path))
        elif exc.reason == "too_large":
            _say("report.cli.profile_too_large", say_in, path=str(path), limit=format_limit(MAX_PROFILE_BYTES))
        else:
            _say("report.cli.profile_not_regular", say_in, path=str(path))
        return 2
    except (OSError, UnicodeDecodeError) as exc:
        _say("report.cli.cannot_read", say_in, path=str(path), detail=getattr(exc, "strerror", None) or str(exc))
        return 2
    except ValueError as exc:
        _say("report.cli.not_json_or_yaml", say_in, path=str(path), detail=str(exc))
        return 2
    if isinstance(data, dict) and isinstance(data.get("profile"), dict) and "recommendations" in data:
        data = data["profile"]  # a JSON report: take the profile it was made from
    if not isinstance(data, dict):
        _say("report.cli.not_a_profile", say_in, path=str(path))
        return 2
    language = normalize_locale(str(data.get("language", ""))) if data.get("language") else None
    say_in = locale or language or "en"
    if language:
        data = {**data, "language": language}
    try:
        profile = Profile.model_validate(data)
    except ValidationError as exc:
        _say("report.cli.bad_profile", say_in, path=str(path), detail=_field_problems(exc))
        return 2
    locale = locale or profile.language

    from advisor.recommend import RecommendError, recommend

    try:
        rec = recommend(profile)
    except RecommendError as exc:
        print(f"gpu-advisor recommend: {exc.message(locale)}", file=sys.stderr)
        return 2
    if args.output:
        try:
            written = save_report(rec, args.output, fmt=getattr(args, "rec_format", None), locale=locale)
        except ReportError as exc:
            print(f"gpu-advisor recommend: {exc.message(locale)}", file=sys.stderr)
            return 2
        _say("report.cli.written", locale, path=str(written))
        return 0
    sys.stdout.write(render(rec, getattr(args, "rec_format", None) or "md", locale))
    return 0
