"""`gpu-advisor gpus` and `gpu-advisor models`: print the GPU or model catalogue as a table or as JSON.

Why it exists: users (and scripts) need to see what the advisor knows — which GPUs with which dense
TFLOPS, links, power and dated prices; which models with which shapes — and the ids and aliases they
can type. The table is for people (headers in the chosen language, units on every number, "—" where
the reference found nothing); `--json` is for programs (units in every key name, all fields).
Only the knowledge loader is imported: no Textual, no rules engine.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from typing import Any

from advisor.models import LOCALES, GpuSpec, Locale, Localized, ModelSpec

_L = Localized.model_validate
_TEXT: dict[str, Localized] = {
    "help.json": _L({
        "en": "print JSON (units in the key names) instead of a table",
        "zh-Hans": "输出 JSON（键名带单位），而不是表格",
        "zh-Hant": "輸出 JSON（鍵名帶單位），而非表格",
    }),
    "help.lang": _L({"en": "language of the table", "zh-Hans": "表格语言", "zh-Hant": "表格語言"}),
    "col.id": _L({"en": "ID", "zh-Hans": "ID", "zh-Hant": "ID"}),
    "col.name": _L({"en": "Name", "zh-Hans": "名称", "zh-Hant": "名稱"}),
    "col.memory": _L({"en": "Memory", "zh-Hans": "显存", "zh-Hant": "顯存"}),
    "col.bandwidth": _L({"en": "Bandwidth", "zh-Hans": "带宽", "zh-Hant": "頻寬"}),
    "col.bf16": _L({"en": "BF16 dense", "zh-Hans": "BF16 稠密", "zh-Hant": "BF16 稠密"}),
    "col.fp8": _L({"en": "FP8 dense", "zh-Hans": "FP8 稠密", "zh-Hant": "FP8 稠密"}),
    "col.power": _L({"en": "Power", "zh-Hans": "功耗", "zh-Hant": "功耗"}),
    "col.ecc": _L({"en": "ECC", "zh-Hans": "ECC", "zh-Hant": "ECC"}),
    "col.link": _L({"en": "GPU link (per direction)", "zh-Hans": "GPU 互连（单向）", "zh-Hant": "GPU 互連（單向）"}),
    "col.price": _L({"en": "Price per GPU", "zh-Hans": "单卡价格", "zh-Hant": "單卡價格"}),
    "col.cloud": _L({"en": "Cloud per GPU-hour", "zh-Hans": "云端每卡小时", "zh-Hant": "雲端每卡小時"}),
    "col.kind": _L({"en": "Kind", "zh-Hans": "类型", "zh-Hant": "類型"}),
    "col.params": _L({"en": "Parameters", "zh-Hans": "参数量", "zh-Hant": "參數量"}),
    "col.active": _L({"en": "Active", "zh-Hans": "激活参数", "zh-Hant": "活躍參數"}),
    "col.layers": _L({"en": "Layers", "zh-Hans": "层数", "zh-Hant": "層數"}),
    "col.hidden": _L({"en": "Hidden", "zh-Hans": "隐藏维度", "zh-Hant": "隱藏維度"}),
    "col.heads": _L({"en": "Heads (KV)", "zh-Hans": "注意力头（KV）", "zh-Hant": "注意力頭（KV）"}),
    "col.context": _L({"en": "Context", "zh-Hans": "上下文", "zh-Hant": "上下文"}),
    "yes": _L({"en": "yes", "zh-Hans": "是", "zh-Hant": "是"}),
    "no": _L({"en": "no", "zh-Hans": "否", "zh-Hant": "否"}),
    "fp16-only": _L({"en": "none (FP16 {fp16})", "zh-Hans": "无（FP16 {fp16}）", "zh-Hant": "無（FP16 {fp16}）"}),
    "tokens": _L({"en": "{n} tokens", "zh-Hans": "{n} token", "zh-Hant": "{n} token"}),
    "gpus.note": _L({
        "en": (
            "{count} GPUs. TFLOPS are dense tensor figures (datasheets print 2:4-sparse ones, twice as high); "
            "GeForce cards at the FP32-accumulate rate used by mixed-precision training. Prices are ranges with "
            "the month they were seen; — means the sources gave none. Sources: `gpu-advisor gpus --json`."
        ),
        "zh-Hans": (
            "共 {count} 款 GPU。TFLOPS 均为稠密张量算力（规格表印的是 2:4 稀疏值，高一倍）；GeForce 显卡按混合精度训练"
            "使用的 FP32 累加速率计。价格为区间，并注明查得的年月；— 表示资料来源未提供。来源见 `gpu-advisor gpus --json`。"
        ),
        "zh-Hant": (
            "共 {count} 款 GPU。TFLOPS 均為稠密張量算力（規格表印的是 2:4 稀疏值，高一倍）；GeForce 顯示卡以混合精度訓練"
            "使用的 FP32 累加速率計。價格為區間，並註明查得的年月；— 表示資料來源未提供。來源見 `gpu-advisor gpus --json`。"
        ),
    }),
    "models.note": _L({
        "en": "{count} models. Parameters are exact counts where published; B = 10^9. Sources: `gpu-advisor models --json`.",
        "zh-Hans": "共 {count} 个模型。参数量为已公布的精确值；B = 10^9。来源见 `gpu-advisor models --json`。",
        "zh-Hant": "共 {count} 個模型。參數量為已公布的精確值；B = 10^9。來源見 `gpu-advisor models --json`。",
    }),
    "empty": _L({"en": "The catalogue is empty.", "zh-Hans": "目录为空。", "zh-Hant": "目錄為空。"}),
}

_KINDS: dict[str, Localized] = {
    "decoder": _L({"en": "decoder LLM", "zh-Hans": "解码器 LLM", "zh-Hant": "解碼器 LLM"}),
    "moe": _L({"en": "mixture of experts", "zh-Hans": "混合专家", "zh-Hant": "混合專家"}),
    "encoder": _L({"en": "encoder", "zh-Hans": "编码器", "zh-Hant": "編碼器"}),
    "cnn": _L({"en": "CNN", "zh-Hans": "CNN", "zh-Hant": "CNN"}),
    "vit": _L({"en": "vision transformer", "zh-Hans": "视觉 Transformer", "zh-Hant": "視覺 Transformer"}),
    "diffusion": _L({"en": "diffusion", "zh-Hans": "扩散模型", "zh-Hant": "擴散模型"}),
}

_DASH = "—"


def _t(key: str, locale: Locale, **values: Any) -> str:
    text = _TEXT[key].get(locale)
    return text.format(**values) if values else text


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Options of `gpu-advisor gpus` / `gpu-advisor models`."""
    parser.add_argument("--json", action="store_true", help=_t("help.json", "en"))
    # SUPPRESS: do not overwrite a `--lang` given before the subcommand (gpu-advisor --lang zh-Hans gpus).
    parser.add_argument("--lang", choices=list(LOCALES), default=argparse.SUPPRESS, help=_t("help.lang", "en"))
    parser.set_defaults(catalog=name)


# --- JSON --------------------------------------------------------------------------------------------


def gpu_record(gpu: GpuSpec) -> dict[str, Any]:
    """One GPU as plain JSON data; units in the key names (memory_gb and memory_bytes, tdp_w, *_usd ...)."""
    record = gpu.model_dump(mode="json", by_alias=True)
    record["memory_bytes"] = gpu.memory_bytes
    record["bandwidth_bytes_per_s"] = gpu.bandwidth_bytes_per_s
    return record


def model_record(model: ModelSpec) -> dict[str, Any]:
    """One model as plain JSON data (parameter counts are plain counts)."""
    return model.model_dump(mode="json", by_alias=True)


# --- table -------------------------------------------------------------------------------------------


def _width(text: str) -> int:
    """Columns a string takes in a terminal (CJK and full-width characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def render_table(headers: list[str], rows: list[list[str]], right: set[int] = frozenset()) -> str:  # type: ignore[assignment]
    """A plain-text table; columns in `right` are right-aligned (numbers)."""
    widths = [max(_width(cell) for cell in column) for column in zip(headers, *rows)]

    def line(cells: list[str]) -> str:
        out = []
        for i, (cell, width) in enumerate(zip(cells, widths)):
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
    headers = [_t(k, locale) for k in ("col.id", "col.name", "col.memory", "col.bandwidth", "col.bf16", "col.fp8",
                                       "col.power", "col.ecc", "col.link", "col.price", "col.cloud")]
    rows = []
    for g in gpus:
        bf16 = f"{_num(g.bf16_tflops)} TFLOPS" if g.bf16_tflops else _t("fp16-only", locale, fp16=_num(g.fp16_tflops))
        fp8 = f"{_num(g.fp8_tflops)} TFLOPS" if g.fp8_tflops else _DASH
        link = g.interconnect.split(" (")[0]  # a product name (NVLink 4, PCIe 4.0 x16): the same in every language
        price = f"{_money(g.price.low_usd, g.price.high_usd, 0)} ({g.price.date})" if g.price else _DASH
        cloud = f"{_money(g.cloud_hourly.low_usd, g.cloud_hourly.high_usd, 2)} ({g.cloud_hourly.date})" if g.cloud_hourly else _DASH
        rows.append([
            g.id, g.name, f"{_num(g.memory_gb)} GB", f"{_num(g.bandwidth_tbps)} TB/s", bf16, fp8, f"{_num(g.tdp_w)} W",
            _t("yes" if g.ecc else "no", locale), f"{link} {_num(g.interconnect_gbps)} GB/s", price, cloud,
        ])
    return render_table(headers, rows, right={2, 3, 6}) + "\n\n" + _t("gpus.note", locale, count=len(gpus))


def _count(n: int | None) -> str:
    if not n:
        return _DASH
    if n >= 1e9:
        return f"{n / 1e9:,.2f} B"
    return f"{n / 1e6:,.1f} M"


def models_table(models: list[ModelSpec], locale: Locale) -> str:
    """The model catalogue as a table in `locale`."""
    headers = [_t(k, locale) for k in ("col.id", "col.name", "col.kind", "col.params", "col.active", "col.layers",
                                       "col.hidden", "col.heads", "col.context")]
    rows = []
    for m in models:
        heads = _DASH
        if m.num_heads:
            heads = f"{m.num_heads} ({m.num_kv_heads or m.num_heads})"
        kind = _KINDS[m.kind].get(locale) if m.kind in _KINDS else m.kind
        rows.append([
            m.id, m.name, kind, _count(m.params), _count(m.active_params) if m.active_params else _DASH,
            str(m.num_layers) if m.num_layers else _DASH, str(m.hidden_size) if m.hidden_size else _DASH, heads,
            _t("tokens", locale, n=f"{m.max_context:,}") if m.max_context else _DASH,
        ])
    return render_table(headers, rows, right={3, 4, 5, 6}) + "\n\n" + _t("models.note", locale, count=len(models))


def run(args: argparse.Namespace) -> int:
    """Print the catalogue named by the subcommand (`gpus` or `models`)."""
    from advisor.knowledge import knowledge

    locale: Locale = getattr(args, "lang", None) or "en"
    kb = knowledge()
    which = getattr(args, "catalog", "gpus")
    if which == "models":
        models = list(kb.models.values())
        if args.json:
            text = json.dumps([model_record(m) for m in models], ensure_ascii=False, indent=2)
        else:
            text = models_table(models, locale) if models else _t("empty", locale)
    else:
        gpus = list(kb.gpus.values())
        if args.json:
            text = json.dumps([gpu_record(g) for g in gpus], ensure_ascii=False, indent=2)
        else:
            text = gpus_table(gpus, locale) if gpus else _t("empty", locale)
    sys.stdout.write(text + "\n")
    return 0
