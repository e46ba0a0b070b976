"""Atomic file writes, and bounded reads of files the user names.

Writes: a report or a session file is either the old one or the whole new one. Write to a temporary
file in the same folder, flush and fsync it, then `os.replace` it over the target (atomic on POSIX and
Windows). A failure removes the temporary file and re-raises; one left by a process that was killed
mid-write is removed later by `remove_stale_temps`. A device, FIFO or socket at the target is refused,
never replaced.

Reads: `read_bounded` reads a regular file of at most `limit` bytes. A folder, a FIFO, a device
(/dev/zero, /dev/urandom, a terminal) or a socket is refused before anything is read (a FIFO would
block, a device never ends), and so is a file larger than the limit (checked before reading and again
while reading, in case it grows), each with an `InputFileError` that says which.
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from pathlib import Path
from typing import Literal

Refusal = Literal["directory", "not_regular", "too_large"]


class InputFileError(OSError):
    """A file the user named that is not read: `reason` is directory, not_regular or too_large.

    `str(err)` is an English sentence; front ends word it in the user's language from `reason`,
    `path` and `limit` (bytes)."""

    def __init__(self, reason: Refusal, path: str | os.PathLike[str], limit: int | None = None):
        self.reason: Refusal = reason
        self.path = str(path)
        self.limit = limit
        words = {
            "directory": "is a folder, not a file",
            "not_regular": "is not a regular file (a device, a pipe or a socket)",
            "too_large": f"is larger than {format_limit(limit or 0)}",
        }[reason]
        super().__init__(f"{self.path} {words}")
        self.strerror = words


def format_limit(limit: int) -> str:
    """A byte limit in words: '8 MiB', '512 KiB'."""
    if limit >= 2**20 and limit % 2**20 == 0:
        return f"{limit // 2**20} MiB"
    if limit >= 2**10 and limit % 2**10 == 0:
        return f"{limit // 2**10} KiB"
    return f"{limit} bytes"


def check_regular(path: str | os.PathLike[str], limit: int | None = None) -> os.stat_result:
    """The stat of `path` (symlinks followed) when it is a regular file within `limit`; else InputFileError.
    FileNotFoundError (and other OSErrors of stat) pass through."""
    st = os.stat(path)
    _refuse(st, path, limit)
    return st


def _refuse(st: os.stat_result, path: str | os.PathLike[str], limit: int | None) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise InputFileError("directory", path)
    if not stat.S_ISREG(st.st_mode):
        raise InputFileError("not_regular", path)
    if limit is not None and st.st_size > limit:
        raise InputFileError("too_large", path, limit)


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; InputFileError otherwise."""
    check_regular(path, limit)  # before open: opening a FIFO blocks, opening some devices acts
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        _refuse(os.fstat(fd), path, limit)  # the same file that was checked (it may have been swapped)
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise InputFileError("too_large", path, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text_bounded(path: str | os.PathLike[str], limit: int) -> str:
    """`read_bounded` decoded as UTF-8 (a byte-order mark is dropped); UnicodeDecodeError when it is not."""
    return read_bounded(path, limit).decode("utf-8-sig")


NAME_MAX = 255
"""The longest file name (bytes) on the file systems we write to (ext4, xfs, btrfs, APFS, tmpfs)."""
_TEMP_EXTRA = 8 + len(".tmp")  # mkstemp's random part, and the suffix


def temp_prefix(name: str) -> str:
    """The start of the temporary file names `atomic_write_bytes` uses for a target called `name`:
    `.<name>.`, or for a name so long that the temporary name would pass NAME_MAX bytes, `.<name cut>~.`
    (cut on a character boundary), so that any name the file system takes can be written atomically."""
    prefix = f".{name}."
    if len(os.fsencode(prefix)) + _TEMP_EXTRA <= NAME_MAX:
        return prefix
    room = NAME_MAX - _TEMP_EXTRA - len(".~.")
    cut = name
    while len(os.fsencode(cut)) > room:
        cut = cut[:-1]
    return f".{cut}~."


def remove_stale_temps(target: str | os.PathLike[str], older_than_s: float = 600.0) -> list[Path]:
    """Remove the temporary files `atomic_write_bytes` left beside `target` when a process died mid-write
    (`temp_prefix(name)*.tmp`, regular files not modified for `older_than_s`: a younger one may be another
    process's write in progress; 0 when the caller holds the session's lock). Returns the removed paths;
    errors are ignored."""
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    prefix = temp_prefix(target.name)
    removed: list[Path] = []
    now = time.time()
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return removed
    for name in names:
        candidate = folder / name
        try:
            st = os.lstat(candidate)
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime >= older_than_s:
                os.unlink(candidate)
                removed.append(candidate)
        except OSError:
            continue
    return removed


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write `data` to `path` atomically; return the resolved path. A target that is (or links to) a
    device, a FIFO or a socket is refused with InputFileError("not_regular"): `os.replace` would put a
    regular file in its place (as root, `--report /dev/null` would replace /dev/null)."""
    target = Path(path)
    try:
        st = os.stat(target)  # symlinks followed: a link to a regular file is replaced, never followed
    except OSError:
        st = None
    if st is not None and not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
        raise InputFileError("not_regular", target)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(target.name), suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return target.resolve()


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write `text` as UTF-8 to `path` atomically; return the resolved path."""
    return atomic_write_bytes(path, text.encode("utf-8"))
