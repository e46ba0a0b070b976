"""The saved conversation: every answer reaches disk, atomically, before and after it is handled.

Why: DESIGN.md promises that nothing the user typed is lost if the program dies. The session file
is JSON in `advisor.paths.state_dir()` (or a path the caller gives), written with
`advisor.fsutil.atomic_write_text` so that it is always either the previous or the next complete
state. A file that cannot be read back is moved aside (renamed, never deleted) so that the user
can inspect it, and the conversation starts afresh with a message saying where it went.

Only a regular file is a session file: a folder, a FIFO or a device (`--state /dev/null`) is neither read
(`load` raises `SessionRefused`, before opening it), nor moved aside, nor replaced by `save`. Temporary
files that a killed process left beside the session file are removed on the first save.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from advisor.fsutil import InputFileError, atomic_write_text, check_regular, read_text_bounded, remove_stale_temps

FORMAT = "gpu-advisor-session"
VERSION = 1
FILE_NAME = "session.json"
MAX_BYTES = 20_000_000  # a session file larger than this is not ours


class SessionError(Exception):
    """A session file that cannot be used: unreadable, not JSON, or not a session."""


class SessionRefused(SessionError):
    """The session path is not a regular file (a folder, a FIFO, a device): it is left exactly as it is."""

    def __init__(self, problem: InputFileError):
        super().__init__(str(problem))
        self.problem = problem


_swept: set[Path] = set()


def check_path(path: str | os.PathLike[str]) -> None:
    """Raise `SessionRefused` when `path` exists and is not a regular file (a symlink to one is fine)."""
    try:
        check_regular(path)
    except InputFileError as exc:
        raise SessionRefused(exc) from None
    except OSError:
        pass  # absent (or unreachable): saving will create it or say why not


def default_path() -> Path:
    """`state_dir()/session.json`."""
    from advisor.paths import state_dir

    return state_dir() / FILE_NAME


def save(path: str | os.PathLike[str], state: dict[str, Any]) -> Path:
    """Write `state` atomically as the session file at `path` (folders created)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if os.path.lexists(target) and not os.path.islink(target):
        check_path(target)  # never replace a folder, a FIFO or a device with a session file
    if target not in _swept:
        _swept.add(target)
        remove_stale_temps(target)
    data = {"format": FORMAT, "version": VERSION, "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S"), **state}
    return atomic_write_text(target, json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False))


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a session file. Raises FileNotFoundError when absent and SessionError when unusable."""
    target = Path(path)
    try:
        text = read_text_bounded(target, MAX_BYTES)
    except FileNotFoundError:
        raise
    except InputFileError as exc:
        if exc.reason == "too_large":
            raise SessionError("session file too large") from None
        raise SessionRefused(exc) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SessionError(f"cannot read the session file: {exc}") from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise SessionError(f"the session file is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SessionError("not a gpu-advisor session file")
    if data.get("version") != VERSION:
        raise SessionError(f"unsupported session version {data.get('version')!r}")
    return data


def move_aside(path: str | os.PathLike[str]) -> Path:
    """Rename a broken session file to `<name>.corrupt-<time>[-n]` beside it; return the new path.
    Only a regular file (or a symlink) is moved: anything else raises `SessionRefused`."""
    target = Path(path)
    if not os.path.islink(target):
        check_path(target)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = target.with_name(f"{target.name}.corrupt-{stamp}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = target.with_name(f"{target.name}.corrupt-{stamp}-{n}")
    os.replace(target, candidate)
    return candidate
