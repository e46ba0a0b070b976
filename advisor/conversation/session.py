"""The saved conversation: every answer reaches disk, atomically, before and after it is handled.

Why: DESIGN.md promises that nothing the user typed is lost if the program dies. The session file
is JSON in `advisor.paths.state_dir()` (or a path the caller gives), written with
`advisor.fsutil.atomic_write_text` so that it is always either the previous or the next complete
state. A file that cannot be read back is moved aside (renamed, never deleted) so that the user
can inspect it, and the conversation starts afresh with a message saying where it went.

Only a regular file is a session file: a folder, a FIFO or a device (`--state /dev/null`) is neither read
(`load` raises `SessionRefused`, before opening it), nor moved aside, nor replaced by `save`. Temporary
files that a killed process left beside the session file are removed on the first save, and all of them
when the session's lock is taken (the lock holder is the only writer).

One writer per session file: `SessionLock` holds `<session file>.lock` (an advisory `flock`, released by
the kernel when the process ends, however it ends) and writes the holder's pid, host and start time into
it, so that a second TUI or `chat` on the same file learns who has it (`SessionLocked`) and can offer a
separate session (`separate_session`) instead of two processes overwriting each other's answers. A lock
file left by a process that died is simply taken over. If the state folder is deleted while a session is
open, the next `save` creates it again, together with the lock file.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows, which the project does not support: no locking
    fcntl = None  # type: ignore[assignment]

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
LOCK_SUFFIX = ".lock"
MAX_SEPARATE = 50
"""Separate sessions tried (`session-2.json` … `session-50.json`) before giving up."""


@dataclass(frozen=True)
class Holder:
    """Who holds a session's lock, as its lock file says (pid 0 / empty host when it cannot be read)."""

    pid: int
    host: str
    since: str = ""


class SessionLocked(SessionError):
    """Another live process holds the session file's lock; `holder` says which."""

    def __init__(self, path: Path, holder: Holder):
        super().__init__(f"{path} is in use by process {holder.pid} on {holder.host or '?'}")
        self.path = path
        self.holder = holder


def lock_path(path: str | os.PathLike[str]) -> Path:
    """`<session file>.lock`, beside it."""
    target = Path(path)
    return target.with_name(target.name + LOCK_SUFFIX)


def _this_host() -> str:
    try:
        return socket.gethostname()
    except OSError:
        return ""


def _read_holder(fd: int) -> Holder:
    try:
        raw = os.pread(fd, 4096, 0)
        data = json.loads(raw.decode("utf-8"))
        return Holder(int(data.get("pid", 0)), str(data.get("host", ""))[:200], str(data.get("since", ""))[:40])
    except (OSError, ValueError, TypeError, AttributeError):
        return Holder(0, "")


class SessionLock:
    """The one-writer lock of a session file. `acquire` takes it or raises `SessionLocked`; `release` gives
    it back (the kernel does, too, when the process ends). Raises OSError when no lock file can be made
    there (a read-only folder): the caller carries on unlocked, and saving says what is wrong."""

    _held: dict[Path, SessionLock] = {}
    _guard = threading.Lock()

    def __init__(self, path: Path, fd: int):
        self.path = path
        self.fd: int | None = fd

    @classmethod
    def acquire(cls, path: str | os.PathLike[str]) -> SessionLock:
        target = Path(path).absolute()
        with cls._guard:
            held = cls._held.get(target)
            if held is not None and held.fd is not None:
                raise SessionLocked(target, Holder(os.getpid(), _this_host()))  # this process, another window
            lock = cls(target, _take(target))
            cls._held[target] = lock
        remove_stale_temps(target, older_than_s=0)  # the only writer now: every temporary file is a leftover
        return lock

    def release(self) -> None:
        with self._guard:
            fd, self.fd = self.fd, None
            if self._held.get(self.path) is self:
                del self._held[self.path]
        if fd is None:
            return
        with contextlib.suppress(OSError):
            if _same_file(fd, lock_path(self.path)):
                os.unlink(lock_path(self.path))  # while still locked: nobody else holds this inode
        with contextlib.suppress(OSError):
            os.close(fd)

    def refresh(self) -> None:
        """After the lock file vanished (the state folder was deleted), lock a new one. Raises SessionLocked
        when another process took the session meanwhile; OSError when the lock file cannot be made."""
        if self.fd is None or _same_file(self.fd, lock_path(self.path)):
            return  # released (the app is closing while a last save runs), or still in place
        fd = _take(self.path)
        old, self.fd = self.fd, fd
        with contextlib.suppress(OSError):
            os.close(old)

    @classmethod
    def held(cls, path: str | os.PathLike[str]) -> SessionLock | None:
        return cls._held.get(Path(path).absolute())


def _same_file(fd: int, path: Path) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _take(target: Path) -> int:
    """Open and lock `target`'s lock file; return the descriptor. SessionLocked when another process has it."""
    where = lock_path(target)
    where.parent.mkdir(parents=True, exist_ok=True)
    for _attempt in range(20):
        fd = os.open(where, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise SessionLocked(target, holder) from None
        except BaseException:
            os.close(fd)
            raise
        if not _same_file(fd, where):  # the holder released (and unlinked) it between our open and our lock
            os.close(fd)
            continue
        info = {"pid": os.getpid(), "host": _this_host(), "since": time.strftime("%Y-%m-%dT%H:%M:%S")}
        with contextlib.suppress(OSError):  # a full disk: still locked, only nameless
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(info).encode("utf-8"), 0)
        return fd
    raise OSError(f"cannot lock {where}")


def separate_session(path: str | os.PathLike[str]) -> tuple[Path, SessionLock]:
    """A session file beside `path` that no other process holds (`session-2.json`, `session-3.json`, …),
    locked. An unfinished consultation saved there before is kept (the caller may offer to resume it)."""
    target = Path(path)
    stem, suffix = target.stem, target.suffix
    for n in range(2, MAX_SEPARATE + 1):
        candidate = target.with_name(f"{stem}-{n}{suffix}")
        try:
            check_path(candidate)
            return candidate, SessionLock.acquire(candidate)
        except SessionError:
            continue
    raise SessionLocked(target, Holder(0, ""))


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
    target.parent.mkdir(parents=True, exist_ok=True)  # created again if it was deleted while the session ran
    lock = SessionLock.held(target)
    if lock is not None:
        with contextlib.suppress(OSError):
            lock.refresh()  # SessionLocked: another process took the session while our lock file was gone
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
