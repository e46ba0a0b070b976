"""Compiled regular expressions kept between runs, as Python keeps compiled modules.

The conversation reads messages with ~290 regular expressions, most of them embedding the
900-character number pattern; compiling them costs half a second on a small machine, on every run,
because `re` caches compiled patterns only inside one process. What `re.compile` spends that time on
is turning the pattern into the regex engine's program (`re._parser.parse`, `re._compiler._code`); the
program itself is a list of integers that the engine validates when it is loaded (`_sre.compile`
rejects a malformed one). So the programs are kept in the cache folder, in one `marshal` file per
interpreter build (the file name holds `sys.implementation.cache_tag`, the engine's `MAGIC` and code
size and a digest of `sys.version`: the same trust and the same keying as the byte-code in
`__pycache__`), written atomically when a run compiled something new.

Anything unexpected (another Python implementation, an engine whose internals differ, an unreadable
or corrupt file, a program the engine refuses) falls back to `re.compile`: the cache can only make a
run faster, never change what a pattern matches.
"""

from __future__ import annotations

import atexit
import hashlib
import marshal
import re
import sys
import threading
from pathlib import Path
from typing import Any

CACHE_LIMIT = 32 << 20
"""Largest cache file read back, bytes (today's is ~1.4 MB)."""

_LOCK = threading.Lock()
_ENTRIES: dict[tuple[str, int], tuple[Any, ...]] | None = None
_DIRTY = False


def _path() -> Path | None:
    if sys.implementation.name != "cpython":
        return None
    import _sre

    from advisor.snapshot import cache_dir

    build = hashlib.sha256(sys.version.encode()).hexdigest()[:10]
    return cache_dir() / f"regex-{sys.implementation.cache_tag}-{_sre.MAGIC}-{_sre.CODESIZE}-{build}.marshal"


def _entries() -> dict[tuple[str, int], tuple[Any, ...]]:
    global _ENTRIES
    if _ENTRIES is None:
        _ENTRIES = {}
        path = _path()
        if path is not None:
            from advisor.fsutil import read_bounded

            try:
                data = marshal.loads(read_bounded(path, CACHE_LIMIT))
            except (OSError, ValueError, EOFError, TypeError):
                data = None
            if isinstance(data, dict):  # entries of the expected shape only; the engine checks the rest
                _ENTRIES = {k: v for k, v in data.items() if isinstance(k, tuple) and len(k) == 2
                            and isinstance(k[0], str) and isinstance(v, tuple) and len(v) == 5}
    return _ENTRIES


def _program(pattern: str, flags: int) -> tuple[Any, ...]:
    """What `re._compiler.compile` hands the engine, for `pattern`: (flags, code, groups, groupindex, indexgroup)."""
    from re import _compiler, _parser  # type: ignore[attr-defined]

    tree = _parser.parse(pattern, flags)
    code = [int(op) for op in _compiler._code(tree, flags)]
    groupindex = dict(tree.state.groupdict)
    indexgroup: list[str | None] = [None] * tree.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return int(flags | tree.state.flags), code, tree.state.groups - 1, groupindex, tuple(indexgroup)


def compile_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, from the program kept by an earlier run when there is one."""
    global _DIRTY
    key = (pattern, int(flags))
    try:
        import _sre

        with _LOCK:
            program = _entries().get(key)
        if program is not None:
            try:
                return _sre.compile(pattern, *program)
            except Exception:  # noqa: BLE001 - a program this engine refuses: compile it again below
                pass
        program = _program(pattern, int(flags))
        compiled = _sre.compile(pattern, *program)
        with _LOCK:
            _entries()[key] = program
            if not _DIRTY:
                _DIRTY = True
                atexit.register(save)
        return compiled
    except Exception:  # noqa: BLE001 - not CPython's engine as we know it: the public way
        return re.compile(pattern, flags)


def save() -> None:
    """Write the programs compiled so far, if any are new (atomic; a read-only cache folder is no error)."""
    global _DIRTY
    with _LOCK:
        if not _DIRTY or _ENTRIES is None:
            return
        path = _path()
        data = marshal.dumps(_ENTRIES)
        _DIRTY = False
    if path is None:
        return
    from advisor.fsutil import atomic_write_bytes

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, data)
    except OSError:
        pass
