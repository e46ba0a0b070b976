"""Reports: one `Recommendation` rendered as a chat bubble, a Markdown file, a self-contained HTML page or JSON.

Why a module of its own: every front end (the TUI, `gpu-advisor chat`, `gpu-advisor recommend`)
shows the same answer, and a user who saves it must get the same numbers in every format. The
shapes live in `templates/` (Jinja2, one `Environment`, `StrictUndefined`, HTML autoescaped); the
words come from `knowledge/ui/report.yaml`; the templates receive finished strings and do no
arithmetic — formatting (bytes, hours, dollars, large counts the Chinese way) and chart geometry
are computed here, in Python, once, through `advisor.format` (numbers) and `advisor.words`
(findings, strategies, citations). A `Recommendation` carries no words: everything shown is worded
here, in the language asked for, so a language switch only renders again.

Besides the report formats, the answers to "why?", "why not the 4090?", "what if …?" and the
results tab's details are templates too (`why.md.j2`, `whynot.md.j2`, `whatif.md.j2`,
`details.md.j2`), built from the same view.

Units as shown: GPU memory in GiB (2^30 bytes) — the unit behind a vendor's "80GB" of HBM or GDDR
and behind nvidia-smi's MiB — always labelled "GiB"; power in W / kW; time in minutes, hours or
days; money in the user's currency (the budget's, else the language's), US dollars beside it where
it matters, at the dated rate stated in the assumptions.
"""

from __future__ import annotations

import datetime
import errno
import functools
import json
import math
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from advisor import __version__, currency, words
from advisor import format as fmt
from advisor.core import TIGHT_HEADROOM
from advisor.currency import RATES_DATE, USD_PER_UNIT
from advisor.i18n import t
from advisor.knowledge import knowledge
from advisor.models import LOCALES, Candidate, Finding, Locale, Profile, Recommendation

FORMATS: tuple[str, ...] = ("md", "html", "json", "chat", "why", "details")
SUFFIX_FORMATS: dict[str, str] = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".json": "json"}
TEMPLATES: dict[str, str] = {
    "md": "report.md.j2",
    "html": "report.html.j2",
    "chat": "chat.md.j2",
    "why": "why.md.j2",
    "details": "details.md.j2",
}
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
    "vram",
    "precision",
    "activations",
    "optimizer",
    "kv_cache",
    "lora",
    "zero",
    "tensor_parallel",
    "mfu",
    "tdp",
    "pue",
    "nvlink",
)
REPORT_TOP = 5


class ReportError(Exception):
    """A report could not be written. `.key` is a UI string key in knowledge/ui/report.yaml ({path} filled)."""

    def __init__(self, key: str, path: str | os.PathLike[str]):
        self.key, self.path = key, str(path)
        super().__init__(f"{key}: {self.path}")

    def message(self, locale: Locale = "en") -> str:
        """The localized sentence for the user."""
        from advisor.sanitize import one_line

        return _t(self.key, locale, path=one_line(self.path))  # a pasted path may hold controls or a NUL


def _t(key: str, locale: Locale, **values: Any) -> str:
    return t(key, locale, **values)


def _t_or(key: str, locale: Locale, fallback: str, **values: Any) -> str:
    """A UI string when the catalogue has it, else `fallback` (for open-ended keys such as assumptions)."""
    if key in knowledge().ui:
        return t(key, locale, **values)
    return fallback


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")


def md_escape(text: Any) -> str:
    """Text a user typed, made inert in Markdown: backslash before every Markdown punctuation mark."""
    return _MD_SPECIAL.sub(r"\\\1", str(text)).replace("\n", " ")


def md_cell(text: Any) -> str:
    """A Markdown table cell: pipes escaped, no line breaks."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def currency_of(profile: Profile, locale: Locale) -> str:
    """`currency.currency_of` for a profile: the currency its money is shown in."""
    return currency.currency_of(profile.budget_currency, locale)


# --------------------------------------------------------------------------------------------
# The view: everything the templates show, as finished strings.


class _Money:
    """Money for one reader: their currency first (`__call__`), or with US dollars beside it (`both`)."""

    def __init__(self, locale: Locale, currency: str):
        self.locale, self.currency = locale, currency

    def __call__(self, usd: float | None) -> str:
        return fmt.money(usd, self.locale, self.currency)

    def both(self, usd: float | None) -> str:
        return fmt.money_both(usd, self.locale, self.currency)


def profile_rows(profile: Profile, locale: Locale) -> list[dict[str, Any]]:
    """{key, label, value, user, assumed} for every profile field the user set or that matters to the answer;
    `key` names the item (task, model, params, tokens, budget, rack, ...), `user` marks text the user typed,
    `assumed` a default the user did not state (DESIGN.md: `Profile.assumed`)."""
    rows: list[tuple[str, str, str, bool]] = []
    money = _Money(locale, currency_of(profile, locale))

    def add(key: str, value: str | None, user: bool = False) -> None:
        if value not in (None, ""):
            rows.append((key, _t(f"report.profile.{key}", locale), str(value), user))

    p = profile
    add("task", _t(f"report.task.{p.task}", locale) if p.task else None)
    if p.model_text:
        add("model", p.model_text, user=True)
    elif p.model:
        spec = knowledge().models.get(p.model)
        add("model", spec.name if spec else p.model, user=spec is None)
    add("params", fmt.count(p.params, locale) if p.params else None)
    if p.active_params and p.active_params != p.params:
        add("active_params", fmt.count(p.active_params, locale))
    add("tokens", fmt.count(p.tokens, locale) if p.tokens else None)
    add("samples", fmt.count(p.samples, locale) if p.samples else None)
    add("seq_len", f"{p.seq_len:,}" if p.seq_len else None)
    if p.task and p.task != "inference":
        add("epochs", fmt.plain(p.epochs))
    add("concurrency", f"{p.concurrency:,}" if p.concurrency else None)
    context = f"{p.context_tokens:,}" if p.context_tokens else None
    if context and p.avg_context_tokens and p.avg_context_tokens < (p.context_tokens or 0):
        context = _t("report.value.context_avg", locale, n=context, avg=f"{p.avg_context_tokens:,}")
    add("context_tokens", context)
    add("requests_per_second", fmt.sig(p.requests_per_second, 3) if p.requests_per_second else None)
    add("max_ttft_s", f"{fmt.plain(p.max_ttft_s)} s" if p.max_ttft_s else None)
    add("min_tokens_per_s_per_user", _t("report.unit.tokens_per_s", locale, n=fmt.plain(p.min_tokens_per_s_per_user))
        if p.min_tokens_per_s_per_user else None)
    add("redundant", _t("report.value.redundant", locale) if p.redundant and p.task == "inference" else None)
    if p.task != "inference":  # a service's precision is its weight and KV formats
        add("precision", _t_or(f"report.precision.{p.precision}", locale, p.precision))
    add("weights_dtype", p.weights_dtype.upper() if p.weights_dtype else None)
    add("kv_dtype", p.kv_dtype.upper() if p.kv_dtype else None)
    if p.budget_usd:
        if p.budget_currency and p.budget_currency.upper() not in ("USD", "") and p.budget_amount:
            code = p.budget_currency.upper()
            budget = fmt.amount(p.budget_amount, code, locale) + fmt.paren(
                _t("report.about_usd", locale, usd=fmt.amount(p.budget_usd, "USD", locale)), locale
            )
        else:
            budget = fmt.amount(p.budget_usd, "USD", locale)
        add("budget", budget)
    add("acquisition", _t(f"report.acquisition.{p.acquisition}", locale))
    add("deadline", fmt.days(p.deadline_days, locale) if p.deadline_days else None)
    if p.host_owned:  # a desktop they have: its power supply, not a room's rack
        add("deployment", _t("report.deployment.own_computer", locale))
        add("psu", f"{p.rack_kw * 1000:,.0f} W" if p.rack_kw else None)
    else:
        add("deployment", _t(f"report.deployment.{p.deployment}", locale))
        add("rack", f"{fmt.sig(p.rack_kw, 3)} kW" if p.rack_kw else None)
    add("cooling", _t(f"report.cooling.{p.cooling}", locale))
    add("electricity", fmt.rate_per_kwh(p.electricity_usd_per_kwh, locale, money.currency))
    add("pue", f"{p.pue:.2f}")
    add("usage", words.usage_phrase(p, locale))
    add("machine", words.machine_phrase(p, locale))
    if p.owned_gpus:
        add("owned", fmt.join((f"{o.count} × {_gpu_name(o.gpu)}" for o in p.owned_gpus), locale))
    if p.preferred_gpus:
        add("preferred", fmt.join((_gpu_name(g) for g in p.preferred_gpus), locale))
    assumed = _assumed_rows(p)
    return [
        {"key": key, "label": label, "value": value, "user": user, "assumed": key in assumed}
        for key, label, value, user in rows
    ]


# Profile field -> the row that shows it.
_ROW_OF_FIELD = {
    "task": "task",
    "model": "model",
    "model_text": "model",
    "params": "params",
    "tokens": "tokens",
    "samples": "samples",
    "seq_len": "seq_len",
    "epochs": "epochs",
    "concurrency": "concurrency",
    "context_tokens": "context_tokens",
    "precision": "precision",
    "budget_usd": "budget",
    "acquisition": "acquisition",
    "deadline_days": "deadline",
    "deployment": "deployment",
    "rack_kw": "rack",
    "host_owned": "machine",
    "max_gpus": "machine",
    "cooling": "cooling",
    "electricity_usd_per_kwh": "electricity",
    "pue": "pue",
    "max_ttft_s": "max_ttft_s",
    "min_tokens_per_s_per_user": "min_tokens_per_s_per_user",
    "redundant": "redundant",
    "horizon_days": "usage",
    "utilization": "usage",
    "runs": "usage",
}


def _assumed_rows(profile: Profile) -> set[str]:
    return {_ROW_OF_FIELD[name] for name in profile.assumed if name in _ROW_OF_FIELD}


def _gpu_name(gpu_id: str) -> str:
    spec = knowledge().gpus.get(gpu_id)
    return spec.name if spec else gpu_id


def _assumption_rows(rec: Recommendation, locale: Locale, money: _Money) -> list[dict[str, str]]:
    """The recommendation's assumptions, the exchange rate, then the dated prices of every GPU it names."""
    rows = []
    for key, value in rec.assumptions.items():
        label = _t_or(f"report.assumption.{key}", locale, key.replace("_", " "))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if key.endswith("_usd"):
                shown = money(value)
            elif key.endswith("_usd_per_kwh"):
                shown = fmt.rate_per_kwh(value, locale, money.currency)
            elif key.endswith("_bytes"):
                shown = fmt.size(value)
            elif key.endswith("_w"):
                shown = fmt.power(value)
            elif key.endswith("_kw"):
                shown = f"{fmt.sig(value, 3)} kW"
            elif key == "mfu" or "utilization" in key or key.endswith("_fraction"):
                shown = f"{value * 100:.0f}%" if 0 <= value <= 1 else fmt.plain(value)
            else:
                shown = fmt.plain(value)
        else:
            # A note written by the planner: its localized wording when the catalogue has one.
            shown = _planner_note(key, str(value), locale) or _t_or(
                f"report.assumption_value.{key}", locale, _t_or(f"report.value.{value}", locale, str(value)))
        rows.append({"label": label, "value": shown})
    if money.currency != "USD":
        rows.append(
            {
                "label": _t("report.assumption.fx", locale),
                "value": _t(
                    "report.assumption.fx_value",
                    locale,
                    unit=fmt.amount(1, money.currency, locale),
                    usd=f"US${USD_PER_UNIT[money.currency]:.4f}",
                    date=RATES_DATE,
                ),
            }
        )
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
            rows.append(
                {
                    "label": _t("report.assumption.price_of", locale, gpu=spec.name),
                    "value": _t(
                        "report.assumption.price_value",
                        locale,
                        date=spec.price.date,
                        price=_range(money(spec.price.low_usd), money(spec.price.high_usd)),
                    ),
                }
            )
        if spec.cloud_hourly:
            rows.append(
                {
                    "label": _t("report.assumption.rent_of", locale, gpu=spec.name),
                    "value": _t(
                        "report.assumption.rent_value",
                        locale,
                        date=spec.cloud_hourly.date,
                        price=_range(money(spec.cloud_hourly.low_usd), money(spec.cloud_hourly.high_usd)),
                    ),
                }
            )
    return rows


ALL_LORA_TARGETS = "q,k,v,o,gate,up,down"
# The planner's notes are written in English with figures in them (advisor/core/planner.py); each one a
# reader sees is worded here, in the reader's language: (key, pattern, UI string, its values from the match).
_PLANNER_NOTES: tuple[tuple[str, re.Pattern[str], str, Any], ...] = (
    ("lora", re.compile(rf"rank (\d+) on {re.escape(ALL_LORA_TARGETS)}$"), "lora_all", lambda m, loc: {"rank": m[1]}),
    ("lora", re.compile(r"rank (\d+) on (.+)$"), "lora_some",
     lambda m, loc: {"rank": m[1], "targets": (", " if loc == "en" else "、").join(m[2].split(","))}),
    ("tokens", re.compile(r"(\d+) samples x (\d+) tokens$"), "samples_tokens",
     lambda m, loc: {"samples": fmt.count(int(m[1]), loc), "seq": f"{int(m[2]):,}"}),
    ("tokens", re.compile(r"(\d+) per parameter \(Chinchilla\)$"), "chinchilla", lambda m, loc: {"n": m[1]}),
    ("samples", re.compile(r"([\d,]+) images$"), "images",
     lambda m, loc: {"n": fmt.count(int(m[1].replace(",", "")), loc)}),
    ("trainable_params", re.compile(r"([\d.]+) % of the model"), "trainable_share", lambda m, loc: {"pct": m[1]}),
)


def _planner_note(key: str, value: str, locale: Locale) -> str | None:
    """The planner's English note `value` for assumption `key`, worded in `locale`; None when not one of them."""
    key = key.rsplit(".", 1)[-1]  # "workload.lora" -> "lora"
    if key.endswith("_dates") and locale != "en" and re.fullmatch(r"\d{4}-\d{2}(, \d{4}-\d{2})*", value):
        return _months(value.split(", "))
    for note_key, pattern, name, values in _PLANNER_NOTES:
        match = pattern.match(value) if note_key == key else None
        if match:
            return _t(f"report.assumption_note.{name}", locale, **values(match, locale))
    return None


def _months(isos: list[str]) -> str:
    """['2026-01', '2026-03', '2027-02'] as Chinese readers write them: '2026 年 1 月、3 月，2027 年 2 月'."""
    years: dict[str, list[str]] = {}
    for iso in isos:
        year, month = iso.split("-")
        years.setdefault(year, []).append(f"{int(month)} 月")
    return "，".join(f"{year} 年 " + "、".join(months) for year, months in years.items())


def _range(low: str, high: str) -> str:
    """'$1,600–$3,000', or one figure when the sources agree."""
    return low if low == high else f"{low}–{high}"


def paren(text: str, locale: Locale) -> str:
    """An aside in the locale's brackets (see `advisor.format.paren`)."""
    return fmt.paren(text, locale)


def _worded(findings: Iterable[Finding], locale: Locale, money: _Money) -> list[words.Worded]:
    return [words.word(f, locale, money.currency) for f in words.sorted_findings(findings)]


def is_owned(c: Candidate, profile: Profile) -> bool:
    """Whether option `c` runs on GPUs the user already has: bought at no cost, on a model of which the
    profile owns at least `c.count` (the rule `advisor.recommend` offers owned options by; its `cost.owned`
    finding says the same)."""
    if c.acquisition != "buy":
        return False
    if any(f.rule_id == "cost.owned" for f in c.findings):
        return True
    kb = knowledge()
    have = 0
    for item in profile.owned_gpus:
        spec = kb.gpu(item.gpu)
        if spec is not None and spec.id == c.gpu:
            have += item.count
    return have >= c.count and c.cost_usd == 0


def _acquisition_id(c: Candidate, owned: bool) -> str:
    """buy | rent | owned: the key of the words for how the option gets its GPUs."""
    return "owned" if owned else c.acquisition


def _option_text(c: Candidate, locale: Locale, money: _Money, owned: bool = False) -> str:
    """One line for an option: '2 × NVIDIA RTX 4090, data parallel (DDP), buy $5,000, 3.2 h'."""
    key = "conv.option" if c.time_hours is not None else "conv.option.serving"
    return _t(
        key,
        locale,
        count=c.count,
        gpu=c.gpu_name,
        strategy=words.strategy_label(c.strategy, locale),
        acquisition=_t(f"conv.acq.{_acquisition_id(c, owned)}", locale),
        cost=money(c.cost_usd),
        time=fmt.hours(c.time_hours, locale),
    )


def _serving_load(profile: Profile) -> tuple[int, int, int | None] | None:
    """(users at once, context tokens, the average context when shorter) of a service; None for training."""
    if profile.task != "inference":
        return None
    context, avg = profile.context_tokens or 0, profile.avg_context_tokens
    return max(1, profile.concurrency or 1), context, avg if avg and avg < context else None


def _serving_parts(c: Candidate, load: tuple[int, int, int | None], locale: Locale) -> list[str]:
    """A serving option's service figures: time to the first token for a full prompt, tokens/s per user and in
    all, the sequences its KV cache holds (the longest and the rest at the average, when an average was said),
    and the weight and KV-cache formats it relies on."""
    users, context, avg = load
    ctx = f"{context:,}"
    parts = []
    if c.ttft_s is not None and context:
        parts.append(_t("report.serving.ttft", locale, s=fmt.seconds(c.ttft_s, locale), context=ctx))
    if c.tokens_per_s:
        per_user = c.tokens_per_s / users
        n = f"{per_user:,.0f}" if per_user >= 10 else f"{per_user:.1f}"
        parts.append(_t("report.serving.per_user", locale, n=n, users=f"{users:,}"))
        parts.append(_t("report.serving.total", locale, n=f"{c.tokens_per_s:,.0f}"))
    if c.max_concurrency is not None and context:
        if avg:
            parts.append(_t("report.serving.room_avg", locale, n=f"{c.max_concurrency:,}", avg=f"{avg:,}",
                            context=ctx))
        else:
            parts.append(_t("report.serving.room", locale, n=f"{c.max_concurrency:,}", context=ctx))
    if c.weights_dtype and c.kv_dtype:
        parts.append(_t("report.serving.formats", locale, weights=words.format_label(c.weights_dtype),
                        kv=words.format_label(c.kv_dtype)))
    return parts


def _candidate_view(rank: int, c: Candidate, locale: Locale, money: _Money,
                    serving: tuple[int, int, int | None] | None = None, owned: bool = False,
                    span: float | None = None) -> dict[str, Any]:
    """One candidate as finished strings. `serving` (`_serving_load`): a service's users and context; it shows
    throughput where training shows time, and the service figures. `owned` (see `is_owned`): the GPUs are the
    user's, so the purchase price reads "owned", not the list price. `span`: the days rent is summed over
    (`_costed_over_days`), named beside a rented option's cost."""
    mem = c.memory_per_gpu
    acquisition = _acquisition_id(c, owned)
    time_text = (
        _t("report.unit.tokens_per_s", locale, n=f"{c.tokens_per_s:,.0f}")
        if c.tokens_per_s
        else fmt.hours(c.time_hours, locale)
    )
    headroom = c.capacity_bytes - mem.total
    terms = [
        {
            "key": k,
            "label": _t(f"report.memory.{k}", locale),
            "bytes": getattr(mem, k),
            "value": fmt.gib(getattr(mem, k)),
            "colour": TERM_COLOURS[k],
        }
        for k in MEMORY_TERMS
    ]
    tight = c.fits and headroom < TIGHT_HEADROOM * c.capacity_bytes
    fit_class = ("tight" if tight else "fits") if c.fits else "nofit"
    fits_text = (
        _t(f"report.fits.{'tight' if tight else 'yes'}", locale, headroom=fmt.gib(headroom))
        if c.fits
        else _t("report.fits.no", locale, over=fmt.gib(-headroom))
    )
    of_capacity = _t("report.memory.of_capacity", locale, used=fmt.gib(mem.total), capacity=fmt.gib(c.capacity_bytes))
    short_title = f"{c.count} × {words.short_gpu_name(c.gpu_name)}"
    return {
        "rank": rank,
        "gpu": c.gpu,
        "gpu_name": c.gpu_name,
        "count": c.count,
        "title": f"{c.count} × {c.gpu_name}",
        "short_title": short_title,
        "option": _option_text(c, locale, money, owned),
        "strategy": words.strategy_label(c.strategy, locale),
        "acquisition": _t(f"report.acquisition.{acquisition}", locale),
        # the table's first column says how it is had: "3 × RTX 4090（租）" reads right where the money is off screen
        "short_title_had": short_title + fmt.paren(_t(f"report.acquisition_short.{acquisition}", locale), locale),
        "owned": owned,
        "memory_short": f"{fmt.gib(mem.total).removesuffix(' GiB')} / {fmt.gib(c.capacity_bytes)}",
        "fits_short": (f"! +{fmt.gib(headroom)}" if tight else f"✓ +{fmt.gib(headroom)}") if c.fits
        else f"✗ −{fmt.gib(-headroom)}",
        "memory_total": fmt.gib(mem.total),
        "capacity": fmt.gib(c.capacity_bytes),
        "memory_of_capacity": of_capacity,
        "fits": c.fits,
        "fit_class": fit_class,
        "fits_text": fits_text,
        "memory_line": of_capacity + fmt.paren(fits_text, locale),
        "headroom": fmt.gib(headroom),
        # no "gradients 0 GiB" for a service, no "KV cache 0 GiB" for a training run
        "terms": [term for term in terms if term["bytes"] > 0 or term["key"] == "weights"],
        "term_values": {term["key"]: term["value"] for term in terms},
        "acquisition_id": acquisition,
        "time": time_text if serving else fmt.hours_range(c.time_hours_low, c.time_hours, c.time_hours_high, locale),
        "time_short": time_text if serving else fmt.hours(c.time_hours, locale),
        "cost_label": _t("report.col.cost_over", locale, span=words.span_phrase(span, locale))
        if span is not None and c.acquisition == "rent" else _t("report.col.cost", locale),
        "has_time": c.time_hours is not None,
        "tokens_per_s": f"{c.tokens_per_s:,.0f}" if c.tokens_per_s else None,
        "power": fmt.power(c.power_w),
        "facility_power": fmt.power(c.facility_w),
        "power_text": _t("report.power_text", locale, it=fmt.power(c.power_w), facility=fmt.power(c.facility_w)),
        "cost": money(c.cost_usd),
        "cost_both": money.both(c.cost_usd),
        "buy": _t("report.acquisition.owned", locale) if owned else money(c.buy_usd),
        "rent": money(c.rent_usd),
        "energy": money(c.energy_usd),
        "has_energy": c.energy_usd is not None,
        "findings": _worded(c.findings, locale, money),
        "serving_parts": (parts := _serving_parts(c, serving, locale) if serving else []),
        "serving": " · ".join(parts),
    }


def _memory_chart(cands: list[dict[str, Any]], recs: tuple[Candidate, ...]) -> dict[str, Any]:
    """The stacked memory bars, in percent of the widest bar (the largest memory or capacity shown): one row per
    candidate, its segments and its capacity tick."""
    scale_bytes = max([max(c.memory_per_gpu.total, c.capacity_bytes) for c in recs] + [1])
    rows = []
    for view, cand in zip(cands, recs, strict=True):
        x = 0.0
        segments = []
        for term in view["terms"]:
            w = term["bytes"] / scale_bytes * 100.0
            if w > 0:
                segments.append({"x": f"{x:.2f}", "w": f"{w:.2f}", "colour": term["colour"],
                                 "tip": f"{term['label']}: {term['value']}"})
            x += w
        rows.append({
            "label": f"{view['rank']}. {view['short_title']}",
            "segments": segments,
            "cap_x": f"{cand.capacity_bytes / scale_bytes * 100.0:.2f}",
            "total": view["memory_of_capacity"],
            "fits": view["fits"],
        })
    return {"rows": rows}


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
    ("minutes", 1 / 60, 1.0),
    ("hours", 1.0, 48.0),
    ("days", 24.0, 24 * 365 * 2),
    ("years", 24 * 365, math.inf),
)


def _cost_ticks(top_usd: float, locale: Locale = "en", currency: str = "USD") -> list[tuple[float, str]]:
    """(value in USD, label) of the cost axis, on round steps of the reader's currency: '$0', '$5,000',
    '$10,000'; 'NT$0', 'NT$200,000'; cents only when the step needs them."""
    from advisor.currency import from_usd, to_usd

    ticks = nice_ticks(from_usd(top_usd, currency))
    decimals = 2 if _tick_decimals(ticks) else 0
    symbol = fmt.symbol(currency, locale)
    return [(to_usd(v, currency), f"{symbol}{v:,.{decimals}f}" if v else f"{symbol}0") for v in ticks]


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


CHART_LINE_PX = 18.0
"""One line of a point's name in the cost-time chart (the names are 12-13 px text)."""
CHART_NAME_PX = 260.0
"""How far apart two points must be across for their names not to collide (a name is up to ~250 px wide)."""


def _scatter_chart(
    cands: list[dict[str, Any]], recs: tuple[Candidate, ...], locale: Locale, money: _Money
) -> dict[str, Any] | None:
    """Cost (x) against time (y) per candidate, on axes with round ticks; None when fewer than two
    candidates have a time."""
    pts = [(v, c, c.time_hours) for v, c in zip(cands, recs, strict=True) if c.time_hours is not None]
    if len(pts) < 2:
        return None
    # Wide enough to read at a desktop's width; the time axis' title sits above it, horizontal.
    left, right, top, bottom, w, h = 96, 30, 36, 50, 880, 380
    # A little room beyond the largest point, so that it does not sit on the axis' end.
    x_ticks = _cost_ticks(max(c.cost_usd for _, c, _h in pts) * 1.05, locale, money.currency)
    y_ticks = _time_ticks(max(hours for _, _c, hours in pts) * 1.05, locale)
    x_max, y_max = x_ticks[-1][0], y_ticks[-1][0]

    def px(usd: float) -> float:
        return left + usd / x_max * (w - left - right)

    def py(hours: float) -> float:
        return h - bottom - hours / y_max * (h - top - bottom)

    points = []
    placed: list[tuple[float, float]] = []  # (x, y) of the names written so far
    circles = [(px(c.cost_usd), py(hours)) for _, c, hours in pts]
    for v, c, hours in pts:
        x, y = px(c.cost_usd), py(hours)
        name_y = y
        # Two options at about the same cost and time (a rented H100 NVL and three RTX 6000 Ada, both ~NT$920 and
        # 12 h) would write their names over each other: each name moves down a line until it has one to itself.
        while any(abs(name_y - y_) < CHART_LINE_PX and abs(x - x_) < CHART_NAME_PX for x_, y_ in placed):
            name_y += CHART_LINE_PX
        placed.append((x, name_y))
        # A name starts after the last circle on its line close to its right, not under it; in the right half of
        # the plot it ends before the first circle to its left instead, so that it is not cut off at the edge.
        right_half = x > (left + w - right) / 2
        if right_half:
            name_x = min([x] + [cx for cx, cy in circles
                                if x - 3 * CHART_LINE_PX < cx <= x and abs(cy - name_y) < CHART_LINE_PX]) - 26
        else:
            name_x = max([x] + [cx for cx, cy in circles
                                if x <= cx < x + 3 * CHART_LINE_PX and abs(cy - name_y) < CHART_LINE_PX])
        points.append(
            {
                "x": f"{x:.1f}",
                "y": f"{y:.1f}",
                "label": str(v["rank"]),
                "name": f"{v['rank']}. {v['short_title']}",  # written beside the point, with its number
                "name_x": f"{name_x + 13:.1f}",
                "name_anchor": "end" if right_half else "start",
                "name_y": f"{name_y:.1f}",
                "tip": f"{v['rank']}. {v['title']}: {v['cost']}, {v['time_short']}",
                "fits": v["fits"],
            }
        )
    points.reverse()  # the first option drawn last, on top of any it covers
    ticks_x = [{"x": f"{px(value):.1f}", "label": label} for value, label in x_ticks]
    ticks_y = [{"y": f"{py(value):.1f}", "label": label} for value, label in y_ticks]
    return {
        "points": points,
        "width": w,
        "height": h,
        "left": left,
        "right": w - right,
        "top": top,
        "bottom": h - bottom,
        "ticks_x": ticks_x,
        "ticks_y": ticks_y,
        "label_y": h - bottom + 18,
        "tick_end_y": h - bottom + 5,
        "tick_start_x": left - 5,
        "y_title_y": top - 16,
        "x_label": _t("report.chart.cost_axis", locale),
        "y_label": _t("report.chart.time_axis", locale),
    }


def _rejected_view(rec: Recommendation, locale: Locale, money: _Money) -> list[dict[str, Any]]:
    out = []
    for r in rec.rejected:
        out.append(
            {
                "gpu": r.gpu,
                "title": f"{r.count} × {r.gpu_name}",
                "strategy": words.strategy_label(r.strategy, locale),
                "reasons": (reasons := _worded(r.reasons, locale, money)),
                # the first reason less the option's own name: options whose reasons agree on it share one
                "reason_key": reasons[0].text.replace(r.gpu_name, "") if reasons else "",
            }
        )
    return out


def build_view(rec: Recommendation, locale: Locale | None = None) -> dict[str, Any]:
    """Everything a template shows, as finished strings, in `locale` (default: the profile's language)."""
    locale = _locale(rec, locale)
    money = _Money(locale, currency_of(rec.profile, locale))
    top = rec.recommendations[:REPORT_TOP]
    serving = _serving_load(rec.profile)
    profile = rec.profile
    span = _costed_over_days(rec)
    cands = [_candidate_view(i + 1, c, locale, money, serving, is_owned(c, profile), span)
             for i, c in enumerate(top)]
    all_cites: dict[str, str] = {}
    for f in _all_findings(rec):
        for cite in words.citation_titles(f.cites, locale):
            all_cites.setdefault(cite["id"], cite["title"])
    return {
        "locale": locale,
        "html_lang": {"en": "en", "zh-Hans": "zh-Hans", "zh-Hant": "zh-Hant-TW"}[locale],
        "profile": profile_rows(rec.profile, locale),
        "assumptions": _assumption_rows(rec, locale, money),
        "candidates": cands,
        "alternatives": [
            _candidate_view(len(top) + i + 1, c, locale, money, serving, is_owned(c, profile), span)
            for i, c in enumerate(rec.alternatives)
        ],
        "best": cands[0] if cands else None,
        "headline": _headline(rec, locale, money),
        # what holds for the whole plan and changes it ("only 4-bit weights fit these limits"), under the top pick
        "caveats": [f for f in _worded(rec.findings, locale, money) if f.severity == "warning"] if top else [],
        "findings": _worded(rec.findings, locale, money),
        "rejected": _rejected_view(rec, locale, money),
        "references": [{"id": k, "title": v} for k, v in all_cites.items()],
        "glossary": [
            {"term": _t(f"report.glossary.{k}.term", locale), "text": _t(f"report.glossary.{k}.text", locale)}
            for k in GLOSSARY_TERMS
        ],
        "memory_chart": _memory_chart(cands, top),
        "scatter": _scatter_chart(cands, top, locale, money),
        "legend": [{"label": _t(f"report.memory.{k}", locale), "colour": TERM_COLOURS[k]} for k in MEMORY_TERMS
                   if any(getattr(c.memory_per_gpu, k) > 0 for c in top)],
        "schema_version": rec.schema_version,
        "made": _t("report.made", locale, date=fmt.calendar_date(_today(), locale), version=__version__),
        "made_iso": _today().isoformat(),
        "version": __version__,
        "list_sep": "; " if locale == "en" else "；",  # citation titles hold commas of their own
        "group_sep": ", " if locale == "en" else "、",  # between ruled-out options that share one reason
        "time_header": _t("report.col.throughput" if serving else "report.col.time", locale),
        "rent_header": _rent_header(rec, locale),
        "nothing_passes": _nothing_passes(rec),
        "why_findings": _why_findings(rec, locale, money),
    }


def _costed_over_days(rec: Recommendation) -> float | None:
    """The days rent and running costs are summed over (the horizon the advisor used), None for one run."""
    days = rec.assumptions.get("costed_over_days")
    return float(days) if isinstance(days, (int, float)) and not isinstance(days, bool) else None


def _rent_header(rec: Recommendation, locale: Locale) -> str:
    """"Rent" for one run, "Rent (1 year)" when rent is summed over the horizon (a service: a year unless said)."""
    span = _costed_over_days(rec)
    if span is None:
        return _t("report.col.rent", locale)
    return _t("report.col.rent_over", locale, span=words.span_phrase(span, locale))


def _headline(rec: Recommendation, locale: Locale, money: _Money) -> str:
    """One sentence under the top pick saying where it stands among every option that fits: the cheapest,
    the fastest, both, or neither (then what the cheapest and the fastest would cost and take instead).
    Facts about the ranked options only; the ranking itself is the recommender's."""
    if not rec.recommendations:
        return ""
    if _nothing_passes(rec):  # nearest misses: none is "the cheapest of the feasible ones"
        return _t("report.headline.near_miss", locale)
    best = rec.recommendations[0]
    options = [*rec.recommendations, *rec.alternatives]
    if len(options) == 1:
        return _t("report.headline.only", locale)

    def name(c: Candidate) -> str:
        return f"{c.count} × {words.short_gpu_name(c.gpu_name)}"

    cheapest = min(options, key=lambda c: c.cost_usd)
    timed = [c for c in options if c.time_hours is not None]
    fastest = min(timed, key=lambda c: c.time_hours or 0.0) if timed else None
    is_cheapest = best.cost_usd <= cheapest.cost_usd * 1.001
    fastest_hours = fastest.time_hours if fastest is not None else None
    is_fastest = fastest_hours is not None and best.time_hours is not None and best.time_hours <= fastest_hours * 1.001
    values: dict[str, Any] = {"n": len(options)}
    if fastest is not None and not is_fastest:
        values.update(fast=name(fastest), fast_cost=money(fastest.cost_usd), fast_time=fmt.hours(fastest.time_hours,
                                                                                                locale))
    if not is_cheapest:
        values.update(cheap=name(cheapest), cheap_cost=money(cheapest.cost_usd), cost=money(best.cost_usd))
    if is_cheapest and (is_fastest or fastest is None):
        key = "cheapest_fastest" if fastest is not None else "cheapest"
    elif is_cheapest:
        key = "cheapest_not_fastest"
    elif is_fastest:
        key = "fastest"
    elif fastest is None:  # serving: no run time to compare
        key = "balanced_untimed"
    else:
        key = "balanced"
    return _t(f"report.headline.{key}", locale, **values)


def _today() -> datetime.date:
    """The day a report is made (a function, so that tests can fix it)."""
    return datetime.date.today()


def _why_findings(rec: Recommendation, locale: Locale, money: _Money) -> list[words.Worded]:
    """What "why?" lists: the top option's findings (or, when nothing passed, the first reason of the
    first three rejected options), then the profile-wide ones; each rule once."""
    found: list[Finding] = []
    if rec.recommendations:
        found += rec.recommendations[0].findings
    else:
        for r in rec.rejected[:3]:
            found += r.reasons[:1]
    seen: set[str] = set()
    out = []
    for f in found + list(rec.findings):
        if f.rule_id not in seen:
            seen.add(f.rule_id)
            out.append(words.word(f, locale, money.currency))
    return out


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


def _nothing_passes(rec: Recommendation) -> bool:
    """No option passes every check: the ones shown are the nearest misses."""
    return any(f.rule_id == "outcome.near-misses" for f in rec.findings)


def _side_by_side(examined: Candidate, rec: Recommendation, asked: int | None, locale: Locale,
                  money: _Money) -> dict[str, Any]:
    """"Why not N × X?": X at the count asked (or the count that works best) beside the top pick, number by
    number, and what rules X out or counts against it."""
    serving = _serving_load(rec.profile)
    span = _costed_over_days(rec)
    mine = _candidate_view(0, examined, locale, money, serving, is_owned(examined, rec.profile), span)
    top = rec.recommendations[0] if rec.recommendations else None
    theirs = (_candidate_view(1, top, locale, money, serving, is_owned(top, rec.profile), span)
              if top is not None else None)
    same = top is not None and (examined.gpu, examined.count, examined.strategy, examined.acquisition) == (
        top.gpu, top.count, top.strategy, top.acquisition)
    rejected = any(f.reject for f in examined.findings)
    shown = [f for f in examined.findings if f.reject] if rejected else [
        f for f in examined.findings if f.severity in ("critical", "warning")]
    keys = [("acquisition", _t("report.col.acquisition", locale)),
            ("memory_line", _t("report.col.memory_per_gpu", locale)),
            ("time_short", _t("report.col.throughput" if serving else "report.col.time", locale)),
            ("power", _t("report.col.power", locale)),
            ("buy", _t("report.col.buy", locale)),
            ("rent", _rent_header(rec, locale))]
    rows = [{"label": label, "mine": mine[k], "theirs": theirs[k] if theirs else ""} for k, label in keys]
    return {
        "kind": "top" if same else ("rejected" if rejected else "passes"),
        "title": mine["title"], "strategy": mine["strategy"], "cost": mine["cost"],
        "best": theirs["title"] if theirs else "", "best_cost": theirs["cost"] if theirs else "",
        "asked": asked, "adjusted": asked is not None and asked != examined.count,
        "count": examined.count, "rows": rows if theirs and not same else [],
        "reasons": _worded(tuple(shown), locale, money),
    }


def why_not_view(rec: Recommendation, gpu_query: str, locale: Locale,
                 examined: Candidate | None = None, asked: int | None = None) -> dict[str, Any]:
    """What "why not the 4090?" shows. With `examined` (the GPU's best option at the count asked, from
    `advisor.recommend.examine`): that option beside the top pick. Without: where the GPU named by
    `gpu_query` (id or alias) ranks in `rec`, and why any of its options were left out (an owned card that
    cannot do the job is always explained)."""
    kb = knowledge()
    query = (gpu_query or "").strip()
    gpu = kb.gpu(query) if query else None
    view: dict[str, Any] = {"query": md_escape(query[:60]), "known": gpu is not None, "ranked": None, "rejected": [],
                            "examined": None}
    if gpu is None:
        return view
    money = _Money(locale, currency_of(rec.profile, locale))
    view["gpu_name"] = gpu.name
    if examined is not None and examined.gpu == gpu.id:
        view["examined"] = _side_by_side(examined, rec, asked, locale, money)
        return view
    ranked = list(rec.recommendations) + list(rec.alternatives)
    for rank, cand in enumerate(ranked, start=1):
        if cand.gpu != gpu.id:
            continue
        top = rank <= len(rec.recommendations)
        kind = ("near_miss" if _nothing_passes(rec) else "recommended") if top else "outranked"
        first = rec.recommendations[0]
        view["ranked"] = {
            "kind": kind,
            "rank": rank,
            "count": cand.count,
            "strategy": words.strategy_label(cand.strategy, locale),
            "cost": money(cand.cost_usd),
            "best": f"{first.count}× {first.gpu_name}",
            "best_cost": money(first.cost_usd),
            "findings": [f for f in _worded(cand.findings, locale, money) if f.severity in ("critical", "warning")],
        }
        break
    for item in rec.rejected:
        if item.gpu == gpu.id:
            view["rejected"].append(
                {
                    "count": item.count,
                    "strategy": words.strategy_label(item.strategy, locale),
                    "reasons": _worded(item.reasons, locale, money),
                }
            )
    return view


def what_if_view(
    before: Recommendation | None, after: Recommendation, change: list[str] | None, locale: Locale
) -> dict[str, Any]:
    """What a what-if shows: the change, the top option before and after, whether the top choice moved.
    `change` None: a correction already made (no title, no "keep it")."""

    def top(rec: Recommendation | None) -> str:
        if rec is None or not rec.recommendations:
            return _t("conv.whatif.none_fits", locale)
        first = rec.recommendations[0]
        money = _Money(locale, currency_of(rec.profile, locale))
        return _option_text(first, locale, money, is_owned(first, rec.profile))

    same = False
    if before is not None and before.recommendations and after.recommendations:
        a, b = before.recommendations[0], after.recommendations[0]
        same = (a.gpu, a.count, a.strategy, a.acquisition) == (b.gpu, b.count, b.strategy, b.acquisition)
    elif before is not None and not before.recommendations and not after.recommendations:
        same = True
    return {
        "change": fmt.join(change or [], locale, strong=True),
        "before": top(before),
        "after": top(after),
        "same": same,
        "hypothetical": change is not None,
    }


# --------------------------------------------------------------------------------------------
# Templates


def _template_cache(folder: Path) -> Path:
    """The folder for compiled templates, made if need be; the system's temporary folder when it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    except OSError:
        import tempfile

        return Path(tempfile.gettempdir())


def keep_with_unit(text: Any) -> str:
    """A number and the unit after it held on one line (a no-break space): '4.3 GiB', '44 小時', '2.6 天'."""
    return re.sub(r"(?<=\d) (?=\S)", "\u00a0", str(text))


@functools.lru_cache(maxsize=1)
def environment() -> Any:
    """The one Jinja2 Environment: templates/ folder, StrictUndefined, autoescape for *.html templates;
    built once per process (it compiles each template once) and keeping the compiled templates between runs."""
    import jinja2

    from advisor.paths import data_dir
    from advisor.snapshot import cache_dir

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        # compiled templates kept between runs (Jinja checks each against its source's modification time)
        bytecode_cache=jinja2.FileSystemBytecodeCache(str(_template_cache(cache_dir() / "templates"))),
        undefined=jinja2.StrictUndefined,
        autoescape=lambda name: name is not None and ".html" in name,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = md_escape
    env.filters["cell"] = md_cell
    env.filters["nb"] = keep_with_unit
    return env


def _render_template(name: str, locale: Locale, **context: Any) -> str:
    template = environment().get_template(name)
    return template.render(
        t=functools.partial(_t, locale=locale),
        sep=fmt.sep(locale),
        paren=functools.partial(fmt.paren, locale=locale),
        locale=locale,
        **context,
    )


def render(rec: Recommendation, fmt_name: str, locale: Locale | None = None) -> str:
    """The recommendation as `md`, `html`, `json`, `chat` (compact Markdown for a chat bubble), `why`
    (the answer to "why?") or `details` (the results tab's reasons of the top option)."""
    if fmt_name not in FORMATS:
        raise ValueError(f"unknown report format {fmt_name!r}; expected one of {', '.join(FORMATS)}")
    loc = _locale(rec, locale)
    if fmt_name == "json":
        return json.dumps(to_json(rec, loc), ensure_ascii=False, indent=2) + "\n"
    return _render_template(TEMPLATES[fmt_name], loc, v=build_view(rec, loc))


def render_details(rec: Recommendation, index: int | None, locale: Locale) -> str:
    """The results tab's details: reasons of candidate `index` (0-based over the top picks then the
    alternatives; None: none selected), the profile-wide findings and the rejected options."""
    view = build_view(rec, locale)
    rows = view["candidates"] + view["alternatives"]
    chosen = rows[index] if index is not None and 0 <= index < len(rows) else None
    return _render_template("details.md.j2", locale, v=view, c=chosen)


def render_why_not(rec: Recommendation, gpu_query: str, locale: Locale,
                   examined: Candidate | None = None, asked: int | None = None) -> str:
    """The answer to "why not the 4090?" (or "why not 8 × H100?": `asked` 8) as Markdown; see `why_not_view`."""
    return _render_template("whynot.md.j2", locale, w=why_not_view(rec, gpu_query, locale, examined, asked)).strip()


def render_what_if(
    before: Recommendation | None, after: Recommendation, change: list[str] | None, locale: Locale
) -> str:
    """The answer to "what if …?" (or, with `change` None, to a correction) as Markdown: before and after."""
    return _render_template("whatif.md.j2", locale, w=what_if_view(before, after, change, locale)).strip()


_CASE_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("link", re.compile(r"nvlink|nvswitch|pcie|interconnect|infiniband|\bib\b|all[\s-]?reduce|multi[\s-]?gpu|"
                        r"互联|互聯|带宽|頻寬|通信|通訊|多卡|平行|并行|並行", re.IGNORECASE)),
    ("memory", re.compile(r"memory|vram|kv[\s-]*cache|oom|out\s+of\s+memory|fit|"
                          r"显存|顯存|記憶體|内存|放得下", re.IGNORECASE)),
    ("power", re.compile(r"power|watt|\bkw\b|circuit|cooling|"
                         r"电源|電源|功耗|供电|供電|散热|散熱|电路|電路|機櫃|机柜", re.IGNORECASE)),
)


def case_note(rec: Recommendation, query: str, locale: Locale) -> str | None:
    """One sentence tying a knowledge answer to the user's top pick: its GPU link, its memory or its power,
    whichever the question is about ("your top pick, 2 × RTX 5090, has no NVLink: 63 GB/s over PCIe")."""
    if not rec.recommendations:
        return None
    top = rec.recommendations[0]
    topic = next((name for name, pattern in _CASE_TOPICS if pattern.search(query or "")), None)
    if topic is None:
        return None
    pick = t("report.case.pick", locale, count=top.count, gpu=top.gpu_name)
    if topic == "link":
        gpu = knowledge().gpus.get(top.gpu)
        if gpu is None:
            return None
        if top.count == 1:
            return t("report.case.link_single", locale, pick=pick)
        key = "report.case.link_nvlink" if gpu.nvlink else "report.case.link_pcie"
        link = re.sub(r"\s*\(.*?\)", "", gpu.interconnect)  # "PCIe 5.0 x16 (no NVLink)": the name, not the note
        return t(key, locale, pick=pick, link=link, gbps=fmt.plain(round(gpu.interconnect_gbps)))
    if topic == "memory":
        return t("report.case.memory", locale, pick=pick, need=fmt.gib(top.memory_per_gpu.total),
                 have=fmt.gib(top.capacity_bytes))
    limit = rec.profile.rack_kw
    key = "report.case.power_limit" if limit and top.facility_w <= limit * 1000 else "report.case.power"
    return t(key, locale, pick=pick, power=fmt.power(top.facility_w), limit=fmt.power((limit or 0) * 1000))


def render_knowledge(entries: list[Any], locale: Locale) -> str:
    """A knowledge answer: the best entry (and its sourced correction), the related ones by title."""
    best = entries[0]
    return _render_template("kb.md.j2", locale, entry=best, related=[e.title.get(locale) for e in entries[1:]]).strip()


def to_json(rec: Recommendation, locale: Locale | None = None) -> dict[str, Any]:
    """The JSON report (DESIGN.md): schema_version, profile, recommendations, alternatives, rejected, findings;
    bytes, hours, W, USD; finding texts in `locale`."""
    loc = _locale(rec, locale)
    currency = currency_of(rec.profile, loc)
    load = _serving_load(rec.profile)

    def finding(f: Finding) -> dict[str, Any]:
        title, text = words.finding_words(f, loc, currency)
        return {"rule_id": f.rule_id, "severity": f.severity, "title": title, "text": text, "cites": list(f.cites)}

    def candidate(c: Candidate) -> dict[str, Any]:
        return {
            "gpu": c.gpu,
            "gpu_name": c.gpu_name,
            "count": c.count,
            "strategy": c.strategy,
            "acquisition": c.acquisition,
            "owned": is_owned(c, rec.profile),
            "memory_per_gpu": c.memory_per_gpu.model_dump(mode="json"),
            "capacity_bytes": c.capacity_bytes,
            "fits": c.fits,
            "time_hours": c.time_hours,
            "time_hours_low": c.time_hours_low,
            "time_hours_high": c.time_hours_high,
            "tokens_per_s": c.tokens_per_s,
            "power_w": c.power_w,
            "facility_w": c.facility_w,
            "cost_usd": c.cost_usd,
            "buy_usd": c.buy_usd,
            "rent_usd": c.rent_usd,
            "energy_usd": c.energy_usd,
            **({
                "ttft_s": c.ttft_s,
                "tokens_per_s_per_user": c.tokens_per_s / load[0] if c.tokens_per_s else None,
                "max_concurrency": c.max_concurrency,
                "weights_dtype": c.weights_dtype,
                "kv_dtype": c.kv_dtype,
            } if load else {}),
            "findings": [finding(f) for f in c.findings],
        }

    return {
        "schema_version": rec.schema_version,
        "language": loc,
        "currency": currency,
        "profile": rec.profile.model_dump(mode="json", by_alias=True),
        "recommendations": [candidate(c) for c in rec.recommendations],
        "alternatives": [candidate(c) for c in rec.alternatives],
        "rejected": [
            {
                "gpu": r.gpu,
                "gpu_name": r.gpu_name,
                "count": r.count,
                "strategy": r.strategy,
                "reasons": [finding(f) for f in r.reasons],
            }
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
    try:
        is_dir = target.is_dir()
    except OSError as exc:  # a name longer than the file system takes, a path through a file, a loop of links
        if exc.errno == errno.ENAMETOOLONG:
            raise ReportError("report.error.name_too_long", target) from None
        is_dir = False  # writing will say what is wrong
    if is_dir or text.endswith(("/", os.sep)):
        raise ReportError("report.error.is_directory", target)
    return target


def existing_save_target(text: str) -> str | None:
    """The path a typed "/save PATH" names (as the dialogue reads it: quotes stripped) when a file is already
    there, else None: both front ends ask (the TUI) or refuse (`chat` reading a pipe) before replacing it."""
    from advisor.conversation.dialogue import command_name

    if command_name(text) != "save":
        return None
    parts = text.strip().split(None, 1)
    path = parts[1].strip().strip("\"'“”「」") if len(parts) == 2 else ""
    try:
        return path if path and Path(path).expanduser().is_file() else None
    except (OSError, ValueError):
        return None


def save_report(
    rec: Recommendation, path: str | os.PathLike[str], fmt: str | None = None, locale: Locale | None = None
) -> Path:
    """Write the report atomically to `path` (format from `fmt` or the suffix; `~` expanded; missing folders
    created) and return the resolved path. Raises ReportError with a UI key: report.error.is_directory,
    .unknown_format, .unwritable, .disk_full, .name_too_long, .no_path."""
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
    except ValueError:  # a NUL in the name (pasted into the save dialog): no file system takes it
        raise ReportError("report.error.unwritable", target) from None
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise ReportError("report.error.disk_full", target) from None
        if exc.errno == errno.ENAMETOOLONG:
            raise ReportError("report.error.name_too_long", target) from None
        raise ReportError("report.error.unwritable", target) from None
