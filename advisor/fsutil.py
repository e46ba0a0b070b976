"""Atomic file writes: a report or a session file is either the old one or the whole new one.

Write to a temporary file in the same folder, flush and fsync it, then `os.replace` it over the
target (atomic on POSIX and Windows). A failure removes the temporary file and re-raises.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write `data` to `path` atomically; return the resolved path."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
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
