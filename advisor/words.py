"""Words for what the program decided: findings, strategies, architectures, severities and citations, per locale.

Why a module of its own: a `Recommendation` carries no words (a finding is a rule id, a severity,
the fact values it bound and the knowledge it cites), so one recommendation can be shown in any
language and re-shown after `/lang`. This is the one place that turns those ids and values into
text; every front end and report format goes through it (and through `advisor.format` for numbers).

Finding texts (`knowledge/findings.yaml`) fill `{field:spec}` placeholders from the bindings:

| spec       | value                          | en                | zh-Hant            |
|------------|--------------------------------|-------------------|--------------------|
| (none)     | as it is (names, counts)       | `8`               | `8`                |
| `num`      | number, up to 1 decimal        | `12.5`            | `12.5`             |
| `num0`     | whole number                   | `1,250`           | `1,250`            |
| `num2`     | up to 2 decimals               | `1.4`             | `1.4`              |
| `money`    | USD, shown in the user's currency | `$12,300`      | `NT$363,000`       |
| `billions` | a count given in billions      | `7.24 B`          | `72.4 億`          |
| `ktok`     | tokens as a context length     | `16k`             | `16k`              |
| `strategy` | a strategy id                  | `ZeRO-3 (…)`      | `ZeRO-3（…）`      |
| `arch`     | a GPU architecture id          | `Hopper`          | `Hopper`           |
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from advisor import format as fmt
from advisor.i18n import t
from advisor.knowledge import KnowledgeBase, knowledge
from advisor.models import Finding, Locale

SEVERITY_ORDER = {"critical": 0, "warning": 1, "tip": 2, "info": 3}

ARCHITECTURES = {
    "volta": "Volta", "turing": "Turing", "ampere": "Ampere", "ada": "Ada Lovelace", "hopper": "Hopper",
    "blackwell": "Blackwell", "cdna2": "CDNA 2", "cdna3": "CDNA 3", "cdna4": "CDNA 4", "gaudi2": "Gaudi 2",
    "gaudi3": "Gaudi 3", "rdna3": "RDNA 3",
}
"""Architecture ids as their vendors write them (names, the same in every language)."""


def strategy_label(strategy: str, locale: Locale) -> str:
    """'zero3' -> 'ZeRO-3 (everything sharded)'; 'tp8-pp2' -> 'tensor parallel ×8 + pipeline parallel ×2'."""
    s = strategy.strip().lower()
    known = {"single", "ddp", "zero1", "zero2", "zero3", "fsdp", "replicas", "offload"}
    if s in known:
        return t(f"report.strategy.{s}", locale)
    parts = re.findall(r"(tp|pp|dp|ep)(\d+)", s)
    if parts and "".join(f"{a}{b}" for a, b in parts) == re.sub(r"[-+_\s]", "", s):
        return " + ".join(t(f"report.strategy.{kind}", locale, n=n) for kind, n in parts)
    return strategy


def architecture_label(arch: str) -> str:
    """'hopper' -> 'Hopper'; an unknown id is shown capitalized."""
    return ARCHITECTURES.get(arch, arch[:1].upper() + arch[1:])


FORMAT_LABELS = {
    "bf16": "BF16", "fp16": "FP16", "fp32": "FP32", "fp8": "FP8", "int8": "INT8", "int4": "INT4", "fp6": "FP6",
    "nf4": "NF4", "nf4-dq": "NF4", "fp4": "FP4", "llm-int8": "LLM.int8()", "gptq-int4-g128": "GPTQ INT4",
    "gptq-int8-g128": "GPTQ INT8", "gptq-int4": "GPTQ INT4", "gptq-int8": "GPTQ INT8", "awq-int4-g128": "AWQ INT4",
    "mxfp8": "MXFP8", "mxfp6": "MXFP6", "mxfp4": "MXFP4", "f16": "GGUF F16",
}
"""Weight and KV-cache formats as serving engines and model cards write them (the same in every language)."""


def format_label(dtype: str) -> str:
    """'awq-int4-g128' -> 'AWQ INT4', 'q4_k_m' -> 'GGUF Q4_K_M'; an unknown id is shown in capitals."""
    d = dtype.strip().lower()
    if d in FORMAT_LABELS:
        return FORMAT_LABELS[d]
    if re.fullmatch(r"q\d_k(_[sml])?|q\d_\d", d):
        return f"GGUF {d.upper()}"
    return d.upper()


def short_gpu_name(name: str) -> str:
    """A catalogue name without the vendor words a narrow table can spare: 'NVIDIA GeForce RTX 4090' -> 'RTX 4090'."""
    for word in ("NVIDIA ", "GeForce ", "AMD Instinct ", "AMD ", "Intel "):
        name = name.replace(word, "")
    return name.strip()


def severity_label(severity: str, locale: Locale) -> str:
    """'warning' -> 'Warning' / '警告'."""
    return t(f"report.severity.{severity}", locale)


def sorted_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Most serious first; rule id breaks ties so the order is stable."""
    return sorted(findings, key=lambda f: (SEVERITY_ORDER.get(f.severity, 9), f.rule_id))


def citation_titles(ids: Iterable[str], locale: Locale, kb: KnowledgeBase | None = None) -> list[dict[str, str]]:
    """[{id, title}] for the cited knowledge entries; an unknown id keeps its id as the title."""
    entries = (kb or knowledge()).entries
    out = []
    for ident in ids:
        entry = entries.get(ident)
        out.append({"id": ident, "title": entry.title.get(locale) if entry else ident})
    return out


class _Filler(string.Formatter):
    """Fills `{field:spec}` from a finding's bindings, formatted for one reader (see the module table)."""

    def __init__(self, locale: Locale, currency: str, money_digits: int = 3):
        super().__init__()
        self.locale, self.currency, self.money_digits = locale, currency, money_digits

    def format_field(self, value: Any, format_spec: str) -> str:
        if value is None:
            return "?"
        loc = self.locale
        if format_spec == "money":
            return fmt.money(float(value), loc, self.currency, self.money_digits)
        if format_spec in ("num", "num0", "num2"):
            return fmt.number(float(value), {"num": 1, "num0": 0, "num2": 2}[format_spec])
        if format_spec == "billions":
            return fmt.count(float(value) * 1e9, loc)
        if format_spec == "ktok":
            return fmt.context(int(value))
        if format_spec == "strategy":
            return strategy_label(str(value), loc)
        if format_spec == "arch":
            return architecture_label(str(value))
        if format_spec:
            raise ValueError(f"unknown placeholder spec {format_spec!r}")
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{value:,}"
        return str(value)


@dataclass(frozen=True, slots=True)
class Worded:
    """A finding in one language: its severity and label, title, text and cited entries."""

    rule_id: str
    severity: str
    severity_label: str
    title: str
    text: str
    cites: tuple[dict[str, str], ...]


def finding_words(finding: Finding, locale: Locale, currency: str = "USD",
                  kb: KnowledgeBase | None = None) -> tuple[str, str]:
    """(title, text) of `finding` in `locale`, its numbers formatted for the reader."""
    kb = kb or knowledge()
    words = kb.findings.get(finding.words)
    if words is None:
        return finding.rule_id, finding.rule_id
    values = dict(finding.bindings)
    amounts = [float(value) for template in (words.title.get(locale), words.text.get(locale))
               for _, name, spec, _ in string.Formatter().parse(template)
               if spec == "money" and isinstance(value := values.get(name or ""), (int, float))]
    filler = _Filler(locale, currency, fmt.money_digits(amounts, locale, currency))
    try:
        return filler.format(words.title.get(locale), **values), filler.format(words.text.get(locale), **values)
    except (KeyError, IndexError, ValueError):
        return words.title.get(locale), words.text.get(locale)


def word(finding: Finding, locale: Locale, currency: str = "USD", kb: KnowledgeBase | None = None) -> Worded:
    """Everything a template shows of one finding."""
    kb = kb or knowledge()
    title, text = finding_words(finding, locale, currency, kb)
    return Worded(finding.rule_id, finding.severity, severity_label(finding.severity, locale), title, text,
                  tuple(citation_titles(finding.cites, locale, kb)))


PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::([a-z0-9]+))?\}")
SPECS = frozenset({"", "num", "num0", "num2", "money", "billions", "ktok", "strategy", "arch"})


def placeholders(text: str) -> set[str]:
    """The field names of the `{field}` / `{field:spec}` placeholders in a finding text."""
    return {m.group(1) for m in PLACEHOLDER.finditer(text)}


def placeholder_specs(text: str) -> set[str]:
    """The specs used by the placeholders of a finding text ('' for none)."""
    return {m.group(2) or "" for m in PLACEHOLDER.finditer(text)}


def machine_phrase(profile: Any, locale: Locale) -> str | None:
    """The computer the GPUs go into and the most there may be ("into the computer you have · one GPU only");
    None when the user said neither."""
    parts: list[str] = []
    if profile.host_owned:
        parts.append(t("machine.host", locale))
    if profile.max_gpus is not None:
        parts.append(t("machine.one_gpu", locale) if profile.max_gpus == 1
                     else t("machine.max_gpus", locale, n=fmt.plain(profile.max_gpus)))
    return fmt.join(parts, locale) if parts else None


def span_phrase(days: float, locale: Locale) -> str:
    """A span of days as people say it: "3 years", "6 months", "45 days"."""
    if days >= 365 and round(days / 365, 1) == round(days / 365):
        years = round(days / 365)
        return t("usage.year" if years == 1 else "usage.years", locale, n=fmt.plain(years))
    if days >= 28 and days % 30 < 3:
        months = round(days / 30)
        return t("usage.month" if months == 1 else "usage.months", locale, n=fmt.plain(months))
    return t("usage.days", locale, n=fmt.plain(days))


def usage_phrase(profile: Any, locale: Locale) -> str | None:
    """How long and how much the hardware is used, as the user said it ("3 years · about 10 h a week",
    "a one-off run"); None when they said nothing about it."""
    parts: list[str] = []
    if profile.horizon_days:
        parts.append(span_phrase(profile.horizon_days, locale))
    u = profile.utilization
    if u is not None:
        parts.append(t("usage.around_clock", locale) if u >= 0.999
                     else t("usage.hours_week", locale, n=fmt.plain(round(u * 168))))
    if profile.runs is not None:
        parts.append(t("usage.one_off", locale) if profile.runs == 1
                     else t("usage.runs", locale, n=fmt.plain(profile.runs)))
    return fmt.join(parts, locale) if parts else None
