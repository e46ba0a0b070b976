"""Load and validate `knowledge/` once: GPU and model catalogues, knowledge entries, finding texts, UI strings.

Knowledge is data. Every file is validated by pydantic on load; a broken file stops start-up with
a `KnowledgeError` that names the file, the entry and the problem. What was validated is kept as a
snapshot in the cache folder (advisor/snapshot.py), so later runs neither parse the YAML nor
validate it again. Lookups by id and alias live here so that every layer resolves names the same way.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field, ValidationError

from advisor.models import Frozen, GpuSpec, Localized, ModelSpec, PriceRange
from advisor.paths import KnowledgeError as KnowledgeError
from advisor.paths import data_dir
from advisor.snapshot import alias_index, normalize_name


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
        return alias_index(self.gpus)

    @functools.cached_property
    def _model_index(self) -> dict[str, ModelSpec]:
        return alias_index(self.models)

    def gpu(self, name: str) -> GpuSpec | None:
        """A GPU by id or alias (case, spaces and dashes ignored)."""
        return self.gpus.get(name) or self._gpu_index.get(normalize_name(name))

    def model(self, name: str) -> ModelSpec | None:
        """A model by id or alias (case, spaces and dashes ignored)."""
        return self.models.get(name) or self._model_index.get(normalize_name(name))


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


def validated_data(root: Path) -> dict[str, Any]:
    """Every file under `root` validated, as JSON data (what `advisor.snapshot` caches): entries as
    pydantic dumps them (by alias, computed fields included), `ui` as key -> texts."""
    kb = load_knowledge(root)

    def dump(table: Mapping[str, Frozen]) -> list[dict[str, Any]]:
        return [spec.model_dump(mode="json", by_alias=True) for spec in table.values()]

    return {
        "gpus": dump(kb.gpus), "models": dump(kb.models), "entries": dump(kb.entries),
        "findings": dump(kb.findings), "ui": {k: v.model_dump(by_alias=True) for k, v in kb.ui.items()},
    }


def _localized(data: dict[str, Any] | None) -> Localized | None:
    return None if data is None else Localized.model_construct(None, **data)


def _price(data: dict[str, Any] | None) -> PriceRange | None:
    if data is None:
        return None
    return PriceRange.model_construct(**{k: v for k, v in data.items() if k != "mid_usd"})  # mid_usd is computed


def _tuples(data: dict[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}


def from_snapshot(data: dict[str, Any]) -> KnowledgeBase:
    """The knowledge base from already validated JSON data (`validated_data`), without validating it again."""
    gpus = {}
    for item in data["gpus"]:
        fields = _tuples(item)
        for name in ("price", "cloud_hourly", "cloud_hourly_cn", "price_used"):
            fields[name] = _price(fields.get(name))
        gpus[item["id"]] = GpuSpec.model_construct(**fields)
    entries = {}
    for item in data["entries"]:
        fields = _tuples(item)
        for name in ("title", "text", "correction"):
            fields[name] = _localized(fields.get(name))
        entries[item["id"]] = KnowledgeEntry.model_construct(**fields)
    return KnowledgeBase.model_construct(
        gpus=gpus,
        models={item["id"]: ModelSpec.model_construct(**_tuples(item)) for item in data["models"]},
        entries=entries,
        findings={
            item["id"]: FindingText.model_construct(
                id=item["id"], title=_localized(item["title"]), text=_localized(item["text"])
            )
            for item in data["findings"]
        },
        ui={key: Localized.model_construct(None, **texts) for key, texts in data["ui"].items()},
    )


@functools.lru_cache(maxsize=1)
def knowledge() -> KnowledgeBase:
    """The knowledge base, once per process: validated on the first run after a file changed, then
    read back from the snapshot in the cache folder (advisor/snapshot.py)."""
    from advisor.snapshot import snapshot_data

    return from_snapshot(snapshot_data())
