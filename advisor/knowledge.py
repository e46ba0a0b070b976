"""Load and validate `knowledge/` once: GPU and model catalogues, knowledge entries, finding texts, UI strings.

Knowledge is data. Every file is validated by pydantic on load; a broken file stops start-up with
a `KnowledgeError` that names the file, the entry and the problem. Lookups by id and alias live
here so that every layer resolves names the same way.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field, ValidationError

from advisor.models import Frozen, GpuSpec, Localized, ModelSpec
from advisor.paths import data_dir


class KnowledgeError(Exception):
    """A knowledge or rules file is broken: which file, which entry, what is wrong."""

    def __init__(self, file: Path | str, entry: str, problem: str):
        self.file, self.entry, self.problem = str(file), entry, problem
        super().__init__(f"{self.file}: entry {entry!r}: {problem}")


class KnowledgeEntry(Frozen):
    """One piece of domain knowledge, citable by a finding."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")
    tags: tuple[str, ...] = ()
    title: Localized
    text: Localized
    source: str = Field(min_length=1, description="Where it comes from: the seed article, a reference file, a paper.")
    correction: Localized | None = Field(
        default=None, description="When the seed's figure is marketing or outdated: the sourced figure."
    )


class FindingText(Frozen):
    """The words of one finding; `{name}` placeholders are filled from the fact that fired it."""

    id: str
    title: Localized
    text: Localized


class KnowledgeBase(Frozen):
    """Everything in `knowledge/`, validated."""

    gpus: dict[str, GpuSpec]
    models: dict[str, ModelSpec]
    entries: dict[str, KnowledgeEntry]
    findings: dict[str, FindingText]
    ui: dict[str, Localized]

    @functools.cached_property
    def _gpu_index(self) -> dict[str, GpuSpec]:
        return _alias_index(self.gpus)

    @functools.cached_property
    def _model_index(self) -> dict[str, ModelSpec]:
        return _alias_index(self.models)

    def gpu(self, name: str) -> GpuSpec | None:
        """A GPU by id or alias (case, spaces and dashes ignored)."""
        return self.gpus.get(name) or self._gpu_index.get(normalize_name(name))

    def model(self, name: str) -> ModelSpec | None:
        """A model by id or alias (case, spaces and dashes ignored)."""
        return self.models.get(name) or self._model_index.get(normalize_name(name))


def normalize_name(text: str) -> str:
    """Lower-case and drop spaces, dashes, underscores and dots: 'Llama-3 8B' -> 'llama38b'."""
    return re.sub(r"[\s\-_./]+", "", text.strip().lower())


def _alias_index(table: dict[str, Any]) -> dict[str, Any]:
    index: dict[str, Any] = {}
    for ident, spec in table.items():
        for alias in (ident, getattr(spec, "name", ident), *getattr(spec, "aliases", ())):
            index.setdefault(normalize_name(alias), spec)
    return index


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: ~10x faster start-up when present


def read_yaml(path: Path) -> Any:
    """Parse one YAML data file safely (no object construction); a broken file is a KnowledgeError."""
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise KnowledgeError(path, "-", f"not valid YAML: {exc}") from None
    except OSError as exc:
        raise KnowledgeError(path, "-", f"cannot be read: {exc}") from None


def _format_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "(entry)"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def _load_list(path: Path, model: type[Frozen], key: str = "id") -> dict[str, Any]:
    """A YAML file holding a list of mappings, each validated as `model`, keyed by `key`."""
    raw = read_yaml(path)
    if not isinstance(raw, list):
        raise KnowledgeError(path, "-", "expected a list of entries")
    out: dict[str, Any] = {}
    for position, item in enumerate(raw):
        name = str(item.get(key, f"#{position + 1}")) if isinstance(item, dict) else f"#{position + 1}"
        try:
            spec = model.model_validate(item)
        except ValidationError as exc:
            raise KnowledgeError(path, name, _format_error(exc)) from None
        ident = getattr(spec, key)
        if ident in out:
            raise KnowledgeError(path, ident, "duplicate id")
        out[ident] = spec
    return out


def _load_many(folder: Path, model: type[Frozen]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path in sorted(folder.glob("*.yaml")):
        for ident, spec in _load_list(path, model).items():
            if ident in out:
                raise KnowledgeError(path, ident, "duplicate id (also defined in another file)")
            out[ident] = spec
    return out


def _load_ui(folder: Path) -> dict[str, Localized]:
    """Every `ui/*.yaml`: a mapping of message key -> {en, zh-Hans, zh-Hant}; keys unique across files."""
    out: dict[str, Localized] = {}
    for path in sorted(folder.glob("*.yaml")):
        raw = read_yaml(path)
        if not isinstance(raw, dict):
            raise KnowledgeError(path, "-", "expected a mapping of message keys to texts")
        for key, value in raw.items():
            if str(key) in out:
                raise KnowledgeError(path, str(key), "duplicate message key (also defined in another file)")
            try:
                out[str(key)] = Localized.model_validate(value)
            except ValidationError as exc:
                raise KnowledgeError(path, str(key), _format_error(exc)) from None
    return out


def load_knowledge(root: Path | None = None) -> KnowledgeBase:
    """Read and validate every file under `root` (default: the installed `knowledge/`)."""
    root = root or data_dir("knowledge")
    kb = KnowledgeBase(
        gpus=_load_list(root / "gpus.yaml", GpuSpec),
        models=_load_list(root / "models.yaml", ModelSpec),
        entries=_load_many(root / "entries", KnowledgeEntry),
        findings=_load_list(root / "findings.yaml", FindingText),
        ui=_load_ui(root / "ui"),
    )
    return kb


@functools.lru_cache(maxsize=1)
def knowledge() -> KnowledgeBase:
    """The knowledge base, loaded once per process."""
    return load_knowledge()


# ------------------------------------------------------------------------------------------------
# Catalogue lookups without loading the whole knowledge base (`gpu-advisor estimate` starts fast):
# one catalogue file, the entries whose text could hold the name parsed and validated one by one.

_TEXT_CACHE: dict[str, str] = {}
_PARSED_CACHE: dict[str, list[dict]] = {}


def _catalogue_text(filename: str) -> str:
    if filename not in _TEXT_CACHE:
        path = data_dir("knowledge") / filename
        try:
            _TEXT_CACHE[filename] = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise KnowledgeError(path, "-", f"cannot be read: {exc}") from None
    return _TEXT_CACHE[filename]


def catalogue_entries(filename: str) -> list[dict]:
    """Every entry of a catalogue file (`gpus.yaml`, `models.yaml`), parsed but not validated; cached."""
    if filename not in _PARSED_CACHE:
        try:
            raw = yaml.load(_catalogue_text(filename), Loader=_LOADER)
        except yaml.YAMLError as exc:
            raise KnowledgeError(filename, "-", f"not valid YAML: {exc}") from None
        if not isinstance(raw, list):
            raise KnowledgeError(filename, "-", "expected a list of entries")
        _PARSED_CACHE[filename] = [item for item in raw if isinstance(item, dict)]
    return _PARSED_CACHE[filename]


def _candidate_entries(filename: str, wanted: str) -> list[dict]:
    """Entries whose text could hold the name: the file split at its top-level `- ` items, kept when the
    normalised text contains the normalised name, and only those parsed (parsing the whole catalogue
    costs more than the rest of `estimate`); an empty list sends the caller to the full parse."""
    chunks = re.split(r"(?m)^(?=- )", _catalogue_text(filename))
    out: list[dict] = []
    for chunk in chunks:
        if chunk.startswith("- ") and wanted in normalize_name(chunk):
            try:
                parsed = yaml.load(chunk, Loader=_LOADER)
            except yaml.YAMLError:
                return []
            if isinstance(parsed, list):
                out.extend(item for item in parsed if isinstance(item, dict))
    return out


def find_in_catalogue(filename: str, name: str, model: type[Frozen]) -> tuple[Any, list[str]]:
    """(the validated entry of `filename` whose id, name or alias is `name`, []) or (None, every id)."""
    wanted = normalize_name(name)

    def match(entries: list[dict]) -> dict | None:
        hit = next((e for e in entries if e.get("id") == name), None)
        if hit is None:
            for entry in entries:
                names = [entry.get("id", ""), entry.get("name", ""), *(entry.get("aliases") or ())]
                if any(normalize_name(str(n)) == wanted for n in names):
                    return entry
        return hit

    hit = match(_candidate_entries(filename, wanted)) if wanted else None
    if hit is None:
        entries = catalogue_entries(filename)
        hit = match(entries)
        if hit is None:
            return None, [str(e.get("id")) for e in entries]
    try:
        return model.model_validate(hit), []
    except ValidationError as exc:
        raise KnowledgeError(filename, str(hit.get("id")), _format_error(exc)) from None


def catalogue_gpus() -> list[GpuSpec]:
    """Every valid GPU of the catalogue (a broken entry is the catalogue tests' business), without the
    rest of the knowledge base."""
    out = []
    for entry in catalogue_entries("gpus.yaml"):
        try:
            out.append(GpuSpec.model_validate(entry))
        except ValidationError:
            continue
    return out
