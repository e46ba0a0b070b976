"""The knowledge, validated once: a JSON snapshot in the user's cache folder.

Validating `knowledge/` means parsing half a megabyte of YAML and importing pydantic, which is most
of what a light command (`estimate`, `gpus`, `models`, `kb search`) would otherwise spend starting
up. So the first run validates every file with pydantic (`advisor.knowledge.load_knowledge`) and
writes what it validated as plain JSON; later runs read that back. The snapshot is keyed by every
source file's path, size and modification time, by the files of the program that define and read
it, and by the version: an edited knowledge file or a new release makes a new snapshot, and a
missing, unreadable, corrupt or stale one is ignored and rebuilt (written atomically; a read-only
cache folder only costs the speed).

Light commands get `Record`s (the validated fields as attributes, plus the derived figures the
numeric core reads, such as `memory_bytes`) without importing pydantic; `advisor.knowledge`
builds the full pydantic knowledge base from the same data without validating it again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from advisor import __version__
from advisor.datasheet import GpuFigures
from advisor.paths import data_dir

SNAPSHOT_LIMIT = 64 << 20
"""Largest snapshot file read back, bytes (today's is ~0.5 MB)."""

_PROGRAM = ("models.py", "knowledge.py", "snapshot.py", "datasheet.py")
"""The files that define what a snapshot holds: editing one (a new field, a new default) makes a new one."""


def cache_dir() -> Path:
    """`GPU_ADVISOR_CACHE`, else `$XDG_CACHE_HOME/gpu-advisor`, else `~/.cache/gpu-advisor`."""
    override = os.environ.get("GPU_ADVISOR_CACHE")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "gpu-advisor"


def _signature(root: Path) -> str:
    """What the snapshot of `root` depends on: every file's path, size and modification time."""
    digest = hashlib.sha256(f"{__version__}\0{root.resolve()}".encode())
    program = Path(__file__).resolve().parent
    files = [program / name for name in _PROGRAM] + sorted(p for p in root.rglob("*") if p.is_file())
    for path in files:
        try:
            st = path.stat()
        except OSError:
            continue  # the load that follows names the file that cannot be read
        digest.update(f"\0{path}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    return digest.hexdigest()[:20]


def _read(path: Path, key: str) -> dict[str, Any] | None:
    from advisor.fsutil import read_bounded

    try:
        data = json.loads(read_bounded(path, SNAPSHOT_LIMIT))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key or not isinstance(data.get("ui"), dict):
        return None
    for part in ("gpus", "models", "entries", "findings"):
        if not isinstance(data.get(part), list) or not all(isinstance(e, dict) and "id" in e for e in data[part]):
            return None
    return data


def _write(folder: Path, path: Path, data: dict[str, Any]) -> None:
    from advisor.fsutil import atomic_write_text

    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        for old in folder.glob("knowledge-*.json"):  # snapshots of older versions of the files
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only or full cache folder: the next run validates again


_LOADED: dict[str | None, dict[str, Any]] = {}
"""`GPU_ADVISOR_DATA` (None: the installed data) -> its snapshot, once per process."""


def snapshot_data() -> dict[str, Any]:
    """The validated knowledge as JSON data: `gpus`, `models`, `entries`, `findings` (lists of
    entries as pydantic dumps them, by alias) and `ui` (message key -> texts). Once per process.
    A broken knowledge file raises `KnowledgeError`, as loading it directly does."""
    override = os.environ.get("GPU_ADVISOR_DATA")
    if override in _LOADED:  # the cheap check first: UI strings come through here a thousand times a turn
        return _LOADED[override]
    root = data_dir("knowledge")
    key = _signature(root)
    folder = cache_dir()
    path = folder / f"knowledge-{key}.json"
    data = _read(path, key)
    if data is None:
        from advisor.knowledge import validated_data

        data = {"key": key, **validated_data(root)}
        _write(folder, path, data)
    _LOADED[override] = data
    return data


# ------------------------------------------------------------------------------------------------
# Records: validated entries read back without pydantic


class Text:
    """One text in the three product languages (what `Localized` is, without pydantic)."""

    __slots__ = ("en", "zh_Hans", "zh_Hant")

    def __init__(self, data: dict[str, str]):
        self.en, self.zh_Hans, self.zh_Hant = data["en"], data["zh-Hans"], data["zh-Hant"]

    def get(self, locale: str) -> str:
        """The text in `locale`."""
        return {"en": self.en, "zh-Hans": self.zh_Hans, "zh-Hant": self.zh_Hant}[locale]


class Record:
    """A validated catalogue or knowledge entry: its fields as attributes (lists read as tuples,
    as the pydantic types hold them); `json` is the entry as the snapshot holds it."""

    _NESTED: dict[str, type] = {}
    """Fields holding a nested entry -> the record type that reads it."""

    def __init__(self, data: dict[str, Any]):
        self.json = data
        for name, value in data.items():
            if isinstance(value, list):
                value = tuple(value)
            elif isinstance(value, dict) and name in self._NESTED:
                value = self._NESTED[name](value)
            setattr(self, name.replace("-", "_"), value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.json.get('id')!r})"


class PriceRecord(Record):
    """A dated price range (`PriceRange`): low_usd, high_usd, mid_usd, date, source."""


class GpuRecord(Record, GpuFigures):
    """One GPU of the catalogue (`GpuSpec`), with its derived figures."""

    _NESTED = {"price": PriceRecord, "cloud_hourly": PriceRecord, "cloud_hourly_cn": PriceRecord,
               "price_used": PriceRecord}


class ModelRecord(Record):
    """One model of the catalogue (`ModelSpec`)."""


class EntryRecord(Record):
    """One knowledge entry (`KnowledgeEntry`): id, tags, title, text, source, correction."""

    _NESTED = {"title": Text, "text": Text, "correction": Text}


def normalize_name(text: str) -> str:
    """Lower-case and drop spaces, dashes, underscores and dots: 'Llama-3 8B' -> 'llama38b'."""
    import re

    return re.sub(r"[\s\-_./]+", "", text.strip().lower())


def alias_index(table: dict[str, Any]) -> dict[str, Any]:
    """normalised id, name and every alias -> entry; the first entry of the catalogue wins a clash."""
    index: dict[str, Any] = {}
    for ident, spec in table.items():
        for alias in (ident, getattr(spec, "name", ident), *getattr(spec, "aliases", ())):
            index.setdefault(normalize_name(alias), spec)
    return index


def _records(kind: str, record: type[Record]) -> dict[str, Any]:
    cache = _RECORDS.setdefault(os.environ.get("GPU_ADVISOR_DATA"), {})
    if kind not in cache:
        cache[kind] = {item["id"]: record(item) for item in snapshot_data()[kind]}
    return cache[kind]


_RECORDS: dict[str | None, dict[str, dict[str, Any]]] = {}


def gpus() -> dict[str, Any]:
    """Every GPU of the catalogue by id, as `GpuRecord`s (typed Any: they read as `GpuSpec`s)."""
    return _records("gpus", GpuRecord)


def models() -> dict[str, Any]:
    """Every model of the catalogue by id, as `ModelRecord`s (they read as `ModelSpec`s)."""
    return _records("models", ModelRecord)


def entries() -> dict[str, Any]:
    """Every knowledge entry by id, as `EntryRecord`s (they read as `KnowledgeEntry`s)."""
    return _records("entries", EntryRecord)


def find(table: dict[str, Any], name: str) -> Any:
    """The entry of `table` (`gpus()`, `models()`) whose id, name or alias is `name` (case, spaces and
    dashes ignored), or None."""
    return table.get(name) or alias_index(table).get(normalize_name(name))


def ui_text(key: str, locale: str) -> str | None:
    """The UI string `key` in `locale`, or None when no `knowledge/ui/` file defines it."""
    texts = snapshot_data()["ui"].get(key)
    return None if texts is None else texts[locale]
