"""Reports: one `Recommendation` rendered as a chat bubble, a Markdown file, a self-contained HTML page or JSON.

Why a module of its own: every front end (the TUI, `gpu-advisor chat`, `gpu-advisor recommend`)
shows the same answer, and a user who saves it must get the same numbers in every format. The
shapes live in `templates/` (Jinja2, one `Environment`, `StrictUndefined`, HTML autoescaped); the
words come from `knowledge/ui/report.yaml`; the templates receive finished strings and do no
arithmetic — formatting (bytes, hours, dollars, large counts the Chinese way) and chart geometry
are computed here, in Python, once.

Units as shown: GPU memory in GiB (2^30 bytes) — the unit behind a vendor's "80GB" of HBM or GDDR
and behind nvidia-smi's MiB — always labelled "GiB"; power in W / kW; time in minutes, hours or
days; money in US dollars.
"""

from __future__ import annotations

import errno
import functools
import json
import math
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from advisor.models import LOCALES, Candidate, Finding, Locale, Profile, Recommendation

FORMATS: tuple[str, ...] = ("md", "html", "json", "chat")
SUFFIX_FORMATS: dict[str, str] = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".json": "json"}
TEMPLATES: dict[str, str] = {"md": "report.md.j2", "html": "report.html.j2", "chat": "chat.md.j2"}
MEMORY_TERMS: tuple[str, ...] = ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead")
# Colour per memory term in the HTML charts (colour-blind-safe Okabe-Ito palette).
TERM_COLOURS: dict[str, str] = {
    "weights": "#0072B2",
    "gradients": "#E69F00",
    "optimizer": "#009E73",
    "activations": "#CC79A7",
    "kv_cache": "#56B4E9",
    "overhead": "#999999",
}
GLOSSARY_TERMS: tuple[str, ...] = (
    "vram", "precision", "activations", "optimizer", "kv_cache", "lora", "zero", "tensor_parallel",
    "mfu", "tdp", "pue", "nvlink",
)
REPORT_TOP = 5


class ReportError(Exception):
    """A report could not be written. `.key` is a UI string key in knowledge/ui/report.yaml ({path} filled)."""

    def __init__(self, key: str, path: str | os.PathLike[str]):
        self.key, self.path = key, str(path)
        super().__init__(f"{key}: {self.path}")

    def message(self, locale: Locale = "en") -> str:
        """The localized sentence for the user."""
        return _t(self.key, locale, path=self.path)


# --------------------------------------------------------------------------------------------
# Words


def _t(key: str, locale: Locale, **values: Any) -> str:
    from advisor.i18n import t

    return t(key, locale, **values)


def _t_or(key: str, locale: Locale, fallback: str, **values: Any) -> str:
    """A UI string when the catalogue has it, else `fallback` (for open-ended keys such as assumptions)."""
    from advisor.knowledge import knowledge

    if key in knowledge().ui:
        return _t(key, locale, **values)
    return fallback


# --------------------------------------------------------------------------------------------
# Number formatting: the only place where figures become text.


def sig(value: float, digits: int = 3) -> str:
    """`value` to `digits` significant figures, no exponent, no trailing zeros: 7.241e9 -> '7240000000'."""
    if value == 0:
        return "0"
    if not math.isfinite(value):
        return str(value)
    decimals = digits - 1 - math.floor(math.log10(abs(value)))
    rounded = round(value, decimals)
    if decimals <= 0:
        return str(int(rounded))
    return f"{rounded:.{decimals}f}".rstrip("0").rstrip(".")


GIB = 2**30


def fmt_bytes(n_bytes: float | int | None) -> str:
    """Memory in binary units, labelled: 14_483_464_192 -> '13.5 GiB'; 512 * 2**20 -> '512 MiB'."""
    if n_bytes is None:
        return "—"
    n = float(n_bytes)
    for unit, scale in (("TiB", 2.0**40), ("GiB", 2.0**30), ("MiB", 2.0**20), ("KiB", 2.0**10)):
        if abs(n) >= scale:
            value = n / scale
            text = f"{value:.1f}" if abs(value) < 100 else f"{value:.0f}"
            return f"{text} {unit}"
    return f"{int(n)} B"


def fmt_gib(n_bytes: float | int) -> str:
    """Always in GiB so that a column compares: 2**30 -> '1.0 GiB'; below 1 GiB two decimals ('0.04 GiB');
    a non-zero term too small to show -> '<0.01 GiB'; zero -> '0 GiB'."""
    gib = n_bytes / GIB
    if gib == 0:
        return "0 GiB"
    if abs(gib) < 0.005:
        return "<0.01 GiB" if gib > 0 else "-<0.01 GiB"
    if abs(gib) < 1:
        return f"{gib:.2f} GiB"
    return f"{gib:.1f} GiB"


def fmt_hours(hours: float | None, locale: Locale) -> str:
    """Duration: '45 min' under an hour, '3.2 h' under two days, '4.5 days' beyond (localized units)."""
    if hours is None:
        return "—"
    if hours < 1:
        minutes = max(1, round(hours * 60))
        return _t("report.unit.minutes", locale, n=minutes)
    if hours < 48:
        return _t("report.unit.hours", locale, n=f"{hours:.1f}" if hours < 10 else f"{hours:.0f}")
    days = hours / 24
    if days < 365 * 2:
        return _t("report.unit.days", locale, n=f"{days:.1f}" if days < 10 else f"{days:.0f}")
    return _t("report.unit.years", locale, n=f"{days / 365:.1f}")


def fmt_hours_range(low: float | None, mid: float | None, high: float | None, locale: Locale) -> str:
    """'3.2 h (2.5 h – 4.1 h)' when a range is known, else the single figure."""
    text = fmt_hours(mid, locale)
    if mid is not None and low is not None and high is not None and (low != mid or high != mid):
        return _t("report.range", locale, mid=text, low=fmt_hours(low, locale), high=fmt_hours(high, locale))
    return text


def fmt_usd(usd: float | None) -> str:
    """Money in US dollars: '$12,300' (3 significant figures from $1,000), '$840', '$2.49'."""
    if usd is None:
        return "—"
    sign = "-" if usd < 0 else ""
    usd = abs(usd)
    if usd >= 1000:
        return f"{sign}${int(float(sig(usd, 3))):,}"
    if usd >= 10:
        return f"{sign}${usd:,.0f}"
    return f"{sign}${usd:,.2f}"


def fmt_power(watts: float | None) -> str:
    """Power: '450 W' below a kilowatt, '7.2 kW' above."""
    if watts is None:
        return "—"
    if abs(watts) >= 1000:
        kw = watts / 1000
        return f"{kw:.1f} kW" if kw < 100 else f"{kw:.0f} kW"
    return f"{watts:.0f} W"


def fmt_count(n: float | int | None, locale: Locale) -> str:
    """A large count: en '7.24 B' / '500 M'; zh-Hans '72.4 亿' / '500 万'; zh-Hant '72.4 億', 10^12 = '兆'."""
    if n is None:
        return "—"
    n = float(n)
    if locale == "en":
        steps = ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K"))
    elif locale == "zh-Hans":
        steps = ((1e12, "万亿"), (1e8, "亿"), (1e4, "万"))
    else:
        steps = ((1e12, "兆"), (1e8, "億"), (1e4, "萬"))
    for scale, unit in steps:
        if abs(n) >= scale:
            return f"{sig(n / scale, 3)} {unit}"
    return sig(n, 3) if n != int(n) else f"{int(n):,}"


def fmt_number(value: float | int) -> str:
    """A plain number as shown in assumptions: integers with separators, floats to 3 significant figures."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int) or float(value).is_integer() and abs(value) >= 1:
        return f"{int(value):,}"
    return sig(float(value), 3)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")


def md_escape(text: Any) -> str:
    """Text a user typed, made inert in Markdown: backslash before every Markdown punctuation mark."""
    return _MD_SPECIAL.sub(r"\\\1", str(text)).replace("\n", " ")


def md_cell(text: Any) -> str:
    """A Markdown table cell: pipes escaped, no line breaks."""
    return str(text).replace("|", "\\|").replace("\n", " ")


# --------------------------------------------------------------------------------------------
# Localized labels


def strategy_label(strategy: str, locale: Locale) -> str:
    """'zero3' -> 'ZeRO-3'; 'tp8-pp2' -> 'tensor parallel ×8 + pipeline ×2' (localized); unknown -> as given."""
    s = strategy.strip().lower()
    known = {"single", "ddp", "zero1", "zero2", "zero3", "fsdp", "replicas", "offload"}
    if s in known:
        return _t(f"report.strategy.{s}", locale)
    parts = re.findall(r"(tp|pp|dp|ep)(\d+)", s)
    if parts and "".join(f"{a}{b}" for a, b in parts) == re.sub(r"[-+_\s]", "", s):
        return " + ".join(_t(f"report.strategy.{kind}", locale, n=n) for kind, n in parts)
    return strategy


def short_gpu_name(name: str) -> str:
    """A catalogue name without the vendor words a narrow table can spare: 'NVIDIA GeForce RTX 4090' -> 'RTX 4090'."""
    for word in ("NVIDIA ", "GeForce ", "AMD Instinct ", "AMD ", "Intel "):
        name = name.replace(word, "")
    return name.strip()


def severity_label(severity: str, locale: Locale) -> str:
    return _t_or(f"report.severity.{severity}", locale, severity)


def _worded(finding: Finding, locale: Locale, written_in: Locale) -> Finding:
    """The finding as written when `locale` is the language it was made in, else re-worded by
    `advisor.recommend.localize_finding` from its rule's words and the same bindings."""
    if locale == written_in:
        return finding
    from advisor.recommend import localize_finding

    return localize_finding(finding, locale)


def finding_text(finding: Finding, locale: Locale, written_in: Locale) -> str:
    """The finding's text in `locale`."""
    return _worded(finding, locale, written_in).text


def finding_title(finding: Finding, locale: Locale, written_in: Locale) -> str:
    """The finding's short title in `locale` ('' when it has none)."""
    return _worded(finding, locale, written_in).title if finding.title else ""


def citation_titles(ids: Iterable[str], locale: Locale) -> list[dict[str, str]]:
    """[{id, title}] for the cited knowledge entries; an unknown id keeps its id as the title."""
    from advisor.knowledge import knowledge

    entries = knowledge().entries
    out = []
    for ident in ids:
        entry = entries.get(ident)
        out.append({"id": ident, "title": entry.title.get(locale) if entry else ident})
    return out


# --------------------------------------------------------------------------------------------
# The view: everything the templates show, as finished strings.


def profile_rows(profile: Profile, locale: Locale) -> list[dict[str, Any]]:
    """{key, label, value, user} for every profile field the user set or that matters to the answer;
    `key` names the item (task, model, params, tokens, budget, rack, ...), `user` marks text the user typed."""
    rows: list[tuple[str, str, str, bool]] = []

    def add(key: str, value: str | None, user: bool = False) -> None:
        if value not in (None, ""):
            rows.append((key, _t(f"report.profile.{key}", locale), value, user))

    p = profile
    add("task", _t(f"report.task.{p.task}", locale) if p.task else None)
    if p.model_text:
        add("model", p.model_text, user=True)
    elif p.model:
        from advisor.knowledge import knowledge

        spec = knowledge().models.get(p.model)
        add("model", spec.name if spec else p.model, user=spec is None)
    add("params", fmt_count(p.params, locale) if p.params else None)
    if p.active_params and p.active_params != p.params:
        add("active_params", fmt_count(p.active_params, locale))
    add("tokens", fmt_count(p.tokens, locale) if p.tokens else None)
    add("samples", fmt_count(p.samples, locale) if p.samples else None)
    add("seq_len", f"{p.seq_len:,}" if p.seq_len else None)
    if p.task and p.task != "inference":
        add("epochs", fmt_number(p.epochs))
    add("concurrency", f"{p.concurrency:,}" if p.concurrency else None)
    add("context_tokens", f"{p.context_tokens:,}" if p.context_tokens else None)
    add("requests_per_second", sig(p.requests_per_second, 3) if p.requests_per_second else None)
    add("precision", _t_or(f"report.precision.{p.precision}", locale, p.precision))
    add("weights_dtype", p.weights_dtype.upper() if p.weights_dtype else None)
    add("kv_dtype", p.kv_dtype.upper() if p.kv_dtype else None)
    if p.budget_usd:
        budget = fmt_usd(p.budget_usd)
        if p.budget_currency and p.budget_currency.upper() != "USD" and p.budget_amount:
            budget += paren(f"{fmt_number(p.budget_amount)} {p.budget_currency.upper()}", locale)
        add("budget", budget)
    add("acquisition", _t(f"report.acquisition.{p.acquisition}", locale))
    add("deadline", _t("report.unit.days", locale, n=fmt_number(p.deadline_days)) if p.deadline_days else None)
    add("deployment", _t(f"report.deployment.{p.deployment}", locale))
    add("rack", f"{sig(p.rack_kw, 3)} kW" if p.rack_kw else None)
    add("cooling", _t(f"report.cooling.{p.cooling}", locale))
    add("electricity", f"${p.electricity_usd_per_kwh:.2f}/kWh")
    add("pue", f"{p.pue:.2f}")
    if p.owned_gpus:
        add("owned", ", ".join(f"{o.count} × {_gpu_name(o.gpu)}" for o in p.owned_gpus))
    return [{"key": key, "label": label, "value": value, "user": user} for key, label, value, user in rows]


def _gpu_name(gpu_id: str) -> str:
    from advisor.knowledge import knowledge

    spec = knowledge().gpus.get(gpu_id)
    return spec.name if spec else gpu_id


def _assumption_rows(rec: Recommendation, locale: Locale) -> list[dict[str, str]]:
    """The recommendation's assumptions, then the dated prices of every GPU it names."""
    from advisor.knowledge import knowledge

    rows = []
    for key, value in rec.assumptions.items():
        label = _t_or(f"report.assumption.{key}", locale, key.replace("_", " "))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if key.endswith("_usd"):
                shown = fmt_usd(value)
            elif key.endswith(("_usd_per_hour", "_usd_per_kwh")):
                shown = f"${value:.2f}"
            elif key.endswith("_bytes"):
                shown = fmt_bytes(value)
            elif key.endswith("_w"):
                shown = fmt_power(value)
            elif key.endswith("_kw"):
                shown = f"{sig(value, 3)} kW"
            elif key == "mfu" or "utilization" in key or key.endswith("_fraction"):
                shown = f"{value * 100:.0f}%" if 0 <= value <= 1 else fmt_number(value)
            else:
                shown = fmt_number(value)
        else:
            # A note written in English by the planner: its localized wording when the catalogue has one.
            shown = _t_or(f"report.assumption_value.{key}", locale,
                          _t_or(f"report.value.{value}", locale, str(value)))
        rows.append({"label": label, "value": shown})
    seen: list[str] = []
    for item in rec.recommendations[:REPORT_TOP]:
        if item.gpu not in seen:
            seen.append(item.gpu)
    kb = knowledge()
    for gpu_id in seen:
        spec = kb.gpus.get(gpu_id)
        if spec is None:
            continue
        if spec.price:
            rows.append({
                "label": _t("report.assumption.price_of", locale, gpu=spec.name),
                "value": _t("report.assumption.price_value", locale, date=spec.price.date,
                            price=_range(fmt_usd(spec.price.low_usd), fmt_usd(spec.price.high_usd))),
            })
        if spec.cloud_hourly:
            rows.append({
                "label": _t("report.assumption.rent_of", locale, gpu=spec.name),
                "value": _t("report.assumption.rent_value", locale, date=spec.cloud_hourly.date,
                            price=_range(f"${spec.cloud_hourly.low_usd:.2f}", f"${spec.cloud_hourly.high_usd:.2f}")),
            })
    return rows


def _range(low: str, high: str) -> str:
    """'$1,600–$3,000', or one figure when the sources agree."""
    return low if low == high else f"{low}–{high}"


def paren(text: str, locale: Locale) -> str:
    """An aside: ' (text)' in English, '（text）' with full-width brackets in Chinese."""
    return f" ({text})" if locale == "en" else f"（{text}）"


def _finding_view(f: Finding, locale: Locale, written_in: Locale) -> dict[str, Any]:
    return {
        "rule_id": f.rule_id,
        "severity": f.severity,
        "severity_label": severity_label(f.severity, locale),
        "title": finding_title(f, locale, written_in),
        "text": finding_text(f, locale, written_in),
        "cites": citation_titles(f.cites, locale),
    }


_SEVERITY_ORDER = {"critical": 0, "warning": 1, "tip": 2, "info": 3}


def _sorted_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: _SEVERITY_ORDER.get(f.severity, 9))


def _candidate_view(rank: int, c: Candidate, locale: Locale, written_in: Locale, serving: bool = False) -> dict[str, Any]:
    """One candidate as finished strings. `serving`: show throughput where training shows time, and
    money per 30 days of rent (what `advisor.recommend` computes for inference)."""
    mem = c.memory_per_gpu
    time_text = (_t("report.unit.tokens_per_s", locale, n=f"{c.tokens_per_s:,.0f}") if c.tokens_per_s
                 else fmt_hours(c.time_hours, locale))
    headroom = c.capacity_bytes - mem.total
    terms = [
        {"key": k, "label": _t(f"report.memory.{k}", locale), "bytes": getattr(mem, k),
         "value": fmt_gib(getattr(mem, k)), "colour": TERM_COLOURS[k]}
        for k in MEMORY_TERMS
    ]
    fits_text = (
        _t("report.fits.yes", locale, headroom=fmt_gib(headroom)) if c.fits
        else _t("report.fits.no", locale, over=fmt_gib(-headroom))
    )
    return {
        "rank": rank,
        "gpu": c.gpu,
        "gpu_name": c.gpu_name,
        "count": c.count,
        "title": f"{c.count} × {c.gpu_name}",
        "short_title": f"{c.count} × {short_gpu_name(c.gpu_name)}",
        "strategy": strategy_label(c.strategy, locale),
        "acquisition": _t(f"report.acquisition.{c.acquisition}", locale),
        "memory_short": f"{fmt_gib(mem.total).removesuffix(' GiB')} / {fmt_gib(c.capacity_bytes)}",
        "fits_short": f"✓ +{fmt_gib(headroom)}" if c.fits else f"✗ −{fmt_gib(-headroom)}",
        "memory_total": fmt_gib(mem.total),
        "capacity": fmt_gib(c.capacity_bytes),
        "memory_of_capacity": _t("report.memory.of_capacity", locale, used=fmt_gib(mem.total),
                                 capacity=fmt_gib(c.capacity_bytes)),
        "fits": c.fits,
        "fits_text": fits_text,
        "memory_line": _t("report.memory.of_capacity", locale, used=fmt_gib(mem.total),
                          capacity=fmt_gib(c.capacity_bytes)) + paren(fits_text, locale),
        "headroom": fmt_gib(headroom),
        "terms": terms,
        "time": time_text if serving else fmt_hours_range(c.time_hours_low, c.time_hours, c.time_hours_high, locale),
        "time_short": time_text if serving else fmt_hours(c.time_hours, locale),
        "cost_label": _t("report.col.cost_month" if serving and c.acquisition == "rent" else "report.col.cost", locale),
        "has_time": c.time_hours is not None,
        "tokens_per_s": f"{c.tokens_per_s:,.0f}" if c.tokens_per_s else None,
        "power": fmt_power(c.power_w),
        "facility_power": fmt_power(c.facility_w),
        "power_text": _t("report.power_text", locale, it=fmt_power(c.power_w), facility=fmt_power(c.facility_w)),
        "cost": fmt_usd(c.cost_usd),
        "buy": fmt_usd(c.buy_usd),
        "rent": fmt_usd(c.rent_usd),
        "energy": fmt_usd(c.energy_usd),
        "has_energy": c.energy_usd is not None,
        "findings": [_finding_view(f, locale, written_in) for f in _sorted_findings(c.findings)],
    }


def _memory_chart(cands: list[dict[str, Any]], recs: tuple[Candidate, ...]) -> dict[str, Any]:
    """Geometry of the stacked memory bars (SVG user units): one row per candidate, capacity tick."""
    label_w, bar_w, row_h, bar_h, top = 230, 470, 34, 20, 10
    scale_bytes = max([max(c.memory_per_gpu.total, c.capacity_bytes) for c in recs] + [1])
    rows = []
    for i, (view, cand) in enumerate(zip(cands, recs)):
        y = top + i * row_h
        x = float(label_w)
        segments = []
        for term in view["terms"]:
            w = term["bytes"] / scale_bytes * bar_w
            if w > 0:
                segments.append({"x": f"{x:.1f}", "w": f"{w:.1f}", "colour": term["colour"],
                                 "tip": f"{term['label']}: {term['value']}"})
            x += w
        cap_x = label_w + cand.capacity_bytes / scale_bytes * bar_w
        rows.append({
            "y": y, "bar_y": y + (row_h - bar_h) // 2, "text_y": y + row_h // 2 + 5,
            "label": f"{view['rank']}. {view['short_title']}", "segments": segments,
            "cap_x": f"{cap_x:.1f}", "total_x": f"{min(max(x, cap_x), label_w + bar_w) + 6:.1f}",
            "total": view["memory_of_capacity"], "fits": view["fits"],
        })
    return {"rows": rows, "width": label_w + bar_w + 150, "height": top * 2 + row_h * len(rows),
            "bar_h": 20, "label_w": label_w}


def nice_ticks(top: float, most: int = 5) -> list[float]:
    """Axis ticks from 0 in steps of 1, 2 or 5 times a power of ten: the finest such step that reaches
    `top` in at most `most` intervals. nice_ticks(4020) -> [0, 1000, ..., 5000]; nice_ticks(2.53) -> [0, 1, 2, 3]."""
    if not math.isfinite(top) or top <= 0:
        return [0.0, 1.0]
    exponent = math.floor(math.log10(top / most))
    for power in (exponent - 1, exponent, exponent + 1):
        for mantissa in (1, 2, 5):
            step = mantissa * 10.0**power
            intervals = math.ceil(top / step - 1e-9)
            if intervals <= most:
                # Multiples of the step, rounded to its decimals so that 3 x 0.1 reads 0.3, not 0.30000000000000004.
                decimals = max(0, -math.floor(math.log10(step)))
                return [round(i * step, decimals) for i in range(intervals + 1)]
    return [0.0, top]  # unreachable: 10 x 10^(exponent+1) always covers `top` in one interval


def _tick_decimals(ticks: list[float]) -> int:
    """Decimals that show every tick exactly (the step's): 0 for 0, 5, 10; 1 for 0, 0.5, 1."""
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    return max(0, -math.floor(math.log10(step) + 1e-9)) if step > 0 else 0


# The time axis is labelled in one unit, chosen by the longest time: (unit key, hours per unit, up to hours).
TIME_AXIS_UNITS: tuple[tuple[str, float, float], ...] = (
    ("minutes", 1 / 60, 1.0), ("hours", 1.0, 48.0), ("days", 24.0, 24 * 365 * 2), ("years", 24 * 365, math.inf),
)


def _cost_ticks(top_usd: float) -> list[tuple[float, str]]:
    """(value in USD, label) of the cost axis: '$0', '$5,000', '$10,000'; cents only when the step needs them."""
    ticks = nice_ticks(top_usd)
    decimals = 2 if _tick_decimals(ticks) else 0
    return [(v, f"${v:,.{decimals}f}" if v else "$0") for v in ticks]


def _time_ticks(top_hours: float, locale: Locale) -> list[tuple[float, str]]:
    """(value in hours, label) of the time axis, every label in the same unit: '0', '2 days', '4 days'."""
    unit, per, _ = next(u for u in TIME_AXIS_UNITS if top_hours < u[2])
    ticks = nice_ticks(top_hours / per)
    decimals = _tick_decimals(ticks)
    singular = {"days": "day", "years": "year"}  # "1 day", not "1 days"

    def label(v: float) -> str:
        key = singular.get(unit, unit) if v == 1 else unit
        number = f"{v:,.{decimals}f}"
        number = number.rstrip("0").rstrip(".") if decimals else number  # 0.5, 1, 1.5 days
        return _t(f"report.unit.{key}", locale, n=number) if v else "0"

    return [(v * per, label(v)) for v in ticks]


def _scatter_chart(cands: list[dict[str, Any]], recs: tuple[Candidate, ...], locale: Locale) -> dict[str, Any] | None:
    """Cost (x) against time (y) per candidate, on axes with round ticks; None when fewer than two
    candidates have a time."""
    pts = [(v, c) for v, c in zip(cands, recs) if c.time_hours is not None and c.cost_usd is not None]
    if len(pts) < 2:
        return None
    left, right, top, bottom, w, h = 96, 30, 20, 50, 580, 300
    # A little room beyond the largest point, so that it does not sit on the axis' end.
    x_ticks = _cost_ticks(max(c.cost_usd for _, c in pts) * 1.05)  # type: ignore[type-var]
    y_ticks = _time_ticks(max(c.time_hours for _, c in pts) * 1.05, locale)  # type: ignore[type-var]
    x_max, y_max = x_ticks[-1][0], y_ticks[-1][0]

    def px(usd: float) -> float:
        return left + usd / x_max * (w - left - right)

    def py(hours: float) -> float:
        return h - bottom - hours / y_max * (h - top - bottom)

    points = []
    for v, c in pts:
        points.append({"x": f"{px(c.cost_usd):.1f}", "y": f"{py(c.time_hours):.1f}", "label": str(v["rank"]),  # type: ignore[arg-type]
                       "tip": f"{v['rank']}. {v['title']}: {v['cost']}, {v['time_short']}",
                       "fits": v["fits"]})
    ticks_x = [{"x": f"{px(value):.1f}", "label": label} for value, label in x_ticks]
    ticks_y = [{"y": f"{py(value):.1f}", "label": label} for value, label in y_ticks]
    return {"points": points, "width": w, "height": h, "left": left, "right": w - right, "top": top,
            "bottom": h - bottom, "ticks_x": ticks_x, "ticks_y": ticks_y,
            "label_y": h - bottom + 18, "tick_end_y": h - bottom + 5, "tick_start_x": left - 5,
            "x_label": _t("report.chart.cost_axis", locale), "y_label": _t("report.chart.time_axis", locale)}


def _rejected_view(rec: Recommendation, locale: Locale, written_in: Locale) -> list[dict[str, Any]]:
    out = []
    for r in rec.rejected:
        out.append({
            "gpu": r.gpu,
            "title": f"{r.count} × {r.gpu_name}",
            "strategy": strategy_label(r.strategy, locale),
            "reasons": [_finding_view(f, locale, written_in) for f in _sorted_findings(r.reasons)],
        })
    return out


def build_view(rec: Recommendation, locale: Locale | None = None) -> dict[str, Any]:
    """Everything a template shows, as finished strings, in `locale` (default: the profile's language)."""
    locale = _locale(rec, locale)
    written_in = rec.profile.language
    top = rec.recommendations[:REPORT_TOP]
    serving = rec.profile.task == "inference"
    cands = [_candidate_view(i + 1, c, locale, written_in, serving) for i, c in enumerate(top)]
    all_cites: dict[str, str] = {}
    for f in _all_findings(rec):
        for cite in citation_titles(f.cites, locale):
            all_cites.setdefault(cite["id"], cite["title"])
    return {
        "locale": locale,
        "html_lang": {"en": "en", "zh-Hans": "zh-Hans", "zh-Hant": "zh-Hant"}[locale],
        "profile": profile_rows(rec.profile, locale),
        "assumptions": _assumption_rows(rec, locale),
        "candidates": cands,
        "best": cands[0] if cands else None,
        "more_count": max(len(rec.recommendations) - REPORT_TOP, 0),
        "findings": [_finding_view(f, locale, written_in) for f in _sorted_findings(rec.findings)],
        "rejected": _rejected_view(rec, locale, written_in),
        "references": [{"id": k, "title": v} for k, v in all_cites.items()],
        "glossary": [
            {"term": _t(f"report.glossary.{k}.term", locale), "text": _t(f"report.glossary.{k}.text", locale)}
            for k in GLOSSARY_TERMS
        ],
        "memory_chart": _memory_chart(cands, top),
        "scatter": _scatter_chart(cands, top, locale),
        "legend": [{"label": _t(f"report.memory.{k}", locale), "colour": TERM_COLOURS[k]} for k in MEMORY_TERMS],
        "schema_version": rec.schema_version,
        "list_sep": "; " if locale == "en" else "；",
        "time_header": _t("report.col.throughput" if serving else "report.col.time", locale),
        "rent_header": _t("report.col.rent_month" if serving else "report.col.rent", locale),
    }


def _all_findings(rec: Recommendation) -> Iterable[Finding]:
    yield from rec.findings
    for c in rec.recommendations[:REPORT_TOP]:
        yield from c.findings
    for r in rec.rejected:
        yield from r.reasons


def _locale(rec: Recommendation, locale: Locale | None) -> Locale:
    if locale is None:
        return rec.profile.language
    if locale not in LOCALES:
        raise ValueError(f"unknown locale {locale!r}; expected one of {', '.join(LOCALES)}")
    return locale


# --------------------------------------------------------------------------------------------
# Templates


@functools.lru_cache(maxsize=1)
def environment() -> Any:
    """The one Jinja2 Environment: templates/ folder, StrictUndefined, autoescape for *.html templates."""
    import jinja2

    from advisor.paths import data_dir

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        undefined=jinja2.StrictUndefined,
        autoescape=lambda name: bool(name) and ".html" in name,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = md_escape
    env.filters["cell"] = md_cell
    return env


def render(rec: Recommendation, fmt: str, locale: Locale | None = None) -> str:
    """The recommendation as `md`, `html`, `json` or `chat` (compact Markdown for a chat bubble)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}; expected one of {', '.join(FORMATS)}")
    loc = _locale(rec, locale)
    if fmt == "json":
        return json.dumps(to_json(rec, loc), ensure_ascii=False, indent=2) + "\n"
    view = build_view(rec, loc)
    template = environment().get_template(TEMPLATES[fmt])
    return template.render(v=view, t=functools.partial(_t, locale=loc), sep=_t("report.sep", loc),
                           paren=functools.partial(paren, locale=loc))


def to_json(rec: Recommendation, locale: Locale | None = None) -> dict[str, Any]:
    """The JSON report (DESIGN.md): schema_version, profile, recommendations, rejected, findings; bytes, hours, W, USD."""
    loc = _locale(rec, locale)
    written_in = rec.profile.language

    def finding(f: Finding) -> dict[str, Any]:
        return {"rule_id": f.rule_id, "severity": f.severity, "text": finding_text(f, loc, written_in),
                "cites": list(f.cites)}

    def candidate(c: Candidate) -> dict[str, Any]:
        return {
            "gpu": c.gpu, "gpu_name": c.gpu_name, "count": c.count, "strategy": c.strategy,
            "acquisition": c.acquisition,
            "memory_per_gpu": c.memory_per_gpu.model_dump(mode="json"),
            "capacity_bytes": c.capacity_bytes, "fits": c.fits,
            "time_hours": c.time_hours, "time_hours_low": c.time_hours_low, "time_hours_high": c.time_hours_high,
            "tokens_per_s": c.tokens_per_s,
            "power_w": c.power_w, "facility_w": c.facility_w,
            "cost_usd": c.cost_usd, "buy_usd": c.buy_usd, "rent_usd": c.rent_usd, "energy_usd": c.energy_usd,
            "findings": [finding(f) for f in c.findings],
        }

    return {
        "schema_version": rec.schema_version,
        "language": loc,
        "profile": rec.profile.model_dump(mode="json", by_alias=True),
        "recommendations": [candidate(c) for c in rec.recommendations],
        "rejected": [
            {"gpu": r.gpu, "gpu_name": r.gpu_name, "count": r.count, "strategy": r.strategy,
             "reasons": [finding(f) for f in r.reasons]}
            for r in rec.rejected
        ],
        "findings": [finding(f) for f in rec.findings],
        "assumptions": dict(rec.assumptions),
    }


# --------------------------------------------------------------------------------------------
# Saving


def format_for(path: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The file format: `fmt` when given, else from the suffix. Raises ReportError('report.error.unknown_format')."""
    if fmt is not None:
        if fmt in ("md", "html", "json"):
            return fmt
        raise ReportError("report.error.unknown_format", path)
    found = SUFFIX_FORMATS.get(Path(str(path)).suffix.lower())
    if found is None:
        raise ReportError("report.error.unknown_format", path)
    return found


def resolve_path(path: str | os.PathLike[str]) -> Path:
    """`~` expanded; a path that names an existing folder raises ReportError('report.error.is_directory')."""
    text = str(path).strip()
    if not text:
        raise ReportError("report.error.no_path", text)
    target = Path(text).expanduser()
    if target.is_dir() or text.endswith(("/", os.sep)):
        raise ReportError("report.error.is_directory", target)
    return target


def save_report(rec: Recommendation, path: str | os.PathLike[str], fmt: str | None = None,
                locale: Locale | None = None) -> Path:
    """Write the report atomically to `path` (format from `fmt` or the suffix; `~` expanded; missing folders
    created) and return the resolved path. Raises ReportError with a UI key: report.error.is_directory,
    .unknown_format, .unwritable, .disk_full, .no_path."""
    from advisor.fsutil import atomic_write_text

    target = resolve_path(path)
    kind = format_for(target, fmt)
    text = render(rec, kind, locale)
    try:
        mode = target.stat().st_mode & 0o777 if target.is_file() else 0o644
    except OSError:
        mode = 0o644
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        written = atomic_write_text(target, text)
        os.chmod(written, mode)  # a report is a document to share (the temporary file was private)
        return written
    except IsADirectoryError:
        raise ReportError("report.error.is_directory", target) from None
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise ReportError("report.error.disk_full", target) from None
        raise ReportError("report.error.unwritable", target) from None
