"""`gpu-advisor gpus` and `gpu-advisor models`: print the GPU or model catalogue as a table or as JSON.

Why it exists: users (and scripts) need to see what the advisor knows — which GPUs with which dense
TFLOPS, links, power and dated prices; which models with which shapes — and the ids and aliases they
can type. The table is for people (headers in the chosen language, units on every number, "—" where
the reference found nothing); `--json` is for programs (units in every key name, all fields).
Only the knowledge snapshot is read (advisor/snapshot.py): no pydantic, no Textual, no rules engine.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from typing import Any

from advisor.locales import LOCALES, Locale

TYPE_CHECKING = False  # not `typing`'s: the catalogue commands import no pydantic
if TYPE_CHECKING:
    from advisor.models import GpuSpec, ModelSpec
    from advisor.snapshot import GpuRecord, ModelRecord

_DASH = "—"


def _t(key: str, locale: Locale, **values: Any) -> str:
    """The command's words (knowledge/ui/commands.yaml, keys `catalog.*`)."""
    from advisor.i18n import t

    return t(f"catalog.{key}", locale, **values)


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Options of `gpu-advisor gpus` / `gpu-advisor models`."""
    parser.add_argument("--json", action="store_true", help="print JSON (units in the key names) instead of a table")
    # SUPPRESS: do not overwrite a `--lang` given before the subcommand (gpu-advisor --lang zh-Hans gpus).
    parser.add_argument("--lang", choices=list(LOCALES), default=argparse.SUPPRESS, help="language of the table")
    parser.set_defaults(catalog=name)


# --- JSON --------------------------------------------------------------------------------------------


def gpu_record(gpu: GpuRecord) -> dict[str, Any]:
    """One GPU as plain JSON data; units in the key names (memory_gb and memory_bytes, tdp_w, *_usd ...)."""
    record = dict(gpu.json)  # as pydantic dumped it, by alias
    record["memory_bytes"] = gpu.memory_bytes
    record["bandwidth_bytes_per_s"] = gpu.bandwidth_bytes_per_s
    return record


def model_record(model: ModelRecord) -> dict[str, Any]:
    """One model as plain JSON data (parameter counts are plain counts)."""
    return dict(model.json)


# --- table -------------------------------------------------------------------------------------------


def _width(text: str) -> int:
    """Columns a string takes in a terminal (CJK and full-width characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def render_table(headers: list[str], rows: list[list[str]], right: set[int] = frozenset()) -> str:  # type: ignore[assignment]
    """A plain-text table; columns in `right` are right-aligned (numbers)."""
    widths = [max(_width(cell) for cell in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        out = []
        for i, (cell, width) in enumerate(zip(cells, widths, strict=True)):
            pad = " " * (width - _width(cell))
            out.append(pad + cell if i in right else cell + pad)
        return "  ".join(out).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


def _num(value: float) -> str:
    """1.555 -> '1.555', 15.75 -> '15.75', 154.85 -> '155', 1979 -> '1,979' (no trailing zeros)."""
    if value >= 100 or float(value).is_integer():
        return f"{value:,.0f}"
    text = f"{value:.3f}" if value < 10 else f"{value:.2f}"
    return text.rstrip("0").rstrip(".")


def _money(low: float, high: float, decimals: int) -> str:
    fmt = f"{{:,.{decimals}f}}"
    return f"${fmt.format(low)}" if low == high else f"${fmt.format(low)}–{fmt.format(high)}"


def gpus_table(gpus: list[GpuSpec], locale: Locale) -> str:
    """The GPU catalogue as a table in `locale`."""
    headers = [
        _t(k, locale)
        for k in (
            "col.id",
            "col.name",
            "col.memory",
            "col.bandwidth",
            "col.bf16",
            "col.fp8",
            "col.power",
            "col.ecc",
            "col.link",
            "col.price",
            "col.cloud",
        )
    ]
    rows = []
    for g in gpus:
        bf16 = f"{_num(g.bf16_tflops)} TFLOPS" if g.bf16_tflops else _t("fp16-only", locale, fp16=_num(g.fp16_tflops))
        fp8 = f"{_num(g.fp8_tflops)} TFLOPS" if g.fp8_tflops else _DASH
        link = g.interconnect.split(" (")[0]  # a product name (NVLink 4, PCIe 4.0 x16): the same in every language
        price = f"{_money(g.price.low_usd, g.price.high_usd, 0)} ({g.price.date})" if g.price else _DASH
        cloud = (
            f"{_money(g.cloud_hourly.low_usd, g.cloud_hourly.high_usd, 2)} ({g.cloud_hourly.date})"
            if g.cloud_hourly
            else _DASH
        )
        rows.append(
            [
                g.id,
                g.name,
                f"{_num(g.memory_gb)} GB",
                f"{_num(g.bandwidth_tbps)} TB/s",
                bf16,
                fp8,
                f"{_num(g.tdp_w)} W",
                _t("yes" if g.ecc else "no", locale),
                f"{link} {_num(g.interconnect_gbps)} GB/s",
                price,
                cloud,
            ]
        )
    return render_table(headers, rows, right={2, 3, 6}) + "\n\n" + _t("gpus.note", locale, count=len(gpus))


def _count(n: int | None) -> str:
    if not n:
        return _DASH
    if n >= 1e9:
        return f"{n / 1e9:,.2f} B"
    return f"{n / 1e6:,.1f} M"


def models_table(models: list[ModelSpec], locale: Locale) -> str:
    """The model catalogue as a table in `locale`."""
    headers = [
        _t(k, locale)
        for k in (
            "col.id",
            "col.name",
            "col.kind",
            "col.params",
            "col.active",
            "col.layers",
            "col.hidden",
            "col.heads",
            "col.context",
        )
    ]
    rows = []
    for m in models:
        heads = _DASH
        if m.num_heads:
            heads = f"{m.num_heads} ({m.num_kv_heads or m.num_heads})"
        kind = _t(f"kind.{m.kind}", locale)
        rows.append(
            [
                m.id,
                m.name,
                kind,
                _count(m.params),
                _count(m.active_params) if m.active_params else _DASH,
                str(m.num_layers) if m.num_layers else _DASH,
                str(m.hidden_size) if m.hidden_size else _DASH,
                heads,
                _t("tokens", locale, n=f"{m.max_context:,}") if m.max_context else _DASH,
            ]
        )
    return render_table(headers, rows, right={3, 4, 5, 6}) + "\n\n" + _t("models.note", locale, count=len(models))


def run(args: argparse.Namespace) -> int:
    """Print the catalogue named by the subcommand (`gpus` or `models`)."""
    from advisor import snapshot

    locale: Locale = getattr(args, "lang", None) or "en"
    which = getattr(args, "catalog", "gpus")
    if which == "models":
        models = list(snapshot.models().values())
        if args.json:
            text = json.dumps([model_record(m) for m in models], ensure_ascii=False, indent=2)
        else:
            text = models_table(models, locale) if models else _t("empty", locale)
    else:
        gpus = list(snapshot.gpus().values())
        if args.json:
            text = json.dumps([gpu_record(g) for g in gpus], ensure_ascii=False, indent=2)
        else:
            text = gpus_table(gpus, locale) if gpus else _t("empty", locale)
    sys.stdout.write(text + "\n")
    return 0
