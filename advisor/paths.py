"""Where the data folders are: `knowledge/`, `rules/`, `templates/`.

In a clone (editable install) they sit at the repository root beside `advisor/`; in an installed
wheel they travel inside the package as `advisor/_data/<name>` (see pyproject.toml). The
environment variable ``GPU_ADVISOR_DATA`` points somewhere else (tests of broken data use it).
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


class KnowledgeError(Exception):
    """A knowledge or rules file is broken: which file, which entry, what is wrong."""

    def __init__(self, file: Path | str, entry: str, problem: str):
        self.file, self.entry, self.problem = str(file), entry, problem
        super().__init__(f"{self.file}: entry {entry!r}: {problem}")


def data_dir(name: str) -> Path:
    """Return the folder `name` (knowledge, rules or templates), wherever it was installed."""
    override = os.environ.get("GPU_ADVISOR_DATA")
    if override:
        return Path(override) / name
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"gpu-advisor data folder {name!r} not found next to {_PACKAGE}")


def state_dir(create: bool = True) -> Path:
    """Folder for the saved conversation (resume after a crash); created on demand (OSError when it cannot
    be; `create=False` only names it)."""
    base = os.environ.get("GPU_ADVISOR_STATE") or os.environ.get("XDG_STATE_HOME")
    root = Path(base) if base else Path.home() / ".local" / "state"
    path = root / "gpu-advisor" if not os.environ.get("GPU_ADVISOR_STATE") else root
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path
