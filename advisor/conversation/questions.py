"""The questions the advisor asks, in order, each with the default the user can accept, and the words
that show a profile back to the user (acknowledgements and the summary).

Why a module of its own: the dialogue (`flow.py`) decides *when* to ask; this module says *what* is
asked, which Profile fields answer it, what the default is for the profile so far, and how a bare
answer ("30000", "70", "3") is read in the context of one question. All wording comes from
`knowledge/ui/conversation.yaml`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable

from advisor.conversation.numbers import normalize_text, parse_number
from advisor.conversation.parsers import RATES_DATE, context_tokens_from
from advisor.i18n import t
from advisor.models import Locale, Profile

TRAINING_TASKS = ("pretrain", "finetune", "lora", "qlora")
DEFAULT_MODEL_ID = "llama-3-8b"
DEFAULT_MODEL_PARAMS = 8_030_261_248  # Llama 3 8B, Meta's config.json (numeric-anchors.md §4)
FINETUNE_SAMPLES = 50_000             # about Alpaca's 52K instructions (Taori et al., 2023)
FINETUNE_SEQ_LEN = 512
FINETUNE_EPOCHS = 3.0
CHINCHILLA_TOKENS_PER_PARAM = 20      # Hoffmann et al. 2022, compute-optimal tokens per parameter
DEFAULT_CONCURRENCY = 32
DEFAULT_CONTEXT = 8192


def _is_training(p: Profile) -> bool:
    return (p.task or "lora") in TRAINING_TASKS


@dataclass(frozen=True)
class Question:
    """One question: its key, whether it applies, which extracted fields answer it, its default."""

    key: str
    applies: Callable[[Profile], bool]
    answered_by: Callable[[dict[str, Any]], bool]
    default: Callable[[Profile], dict[str, Any]]
    default_text: Callable[[Profile, Locale], str]
    choices: Callable[[Locale], tuple[str, ...]]

    def text(self, profile: Profile, locale: Locale) -> str:
        return t(f"conv.q.{self.key}", locale, default=self.default_text(profile, locale))


# ---------------------------------------------------------------------------- defaults


def _model_default(_: Profile) -> dict[str, Any]:
    from advisor.knowledge import knowledge

    spec = knowledge().models.get(DEFAULT_MODEL_ID)
    if spec is None:
        return {"params": DEFAULT_MODEL_PARAMS, "model_text": "Llama 3 8B"}
    return {"model": spec.id, "model_text": spec.name, "params": spec.params}


def _model_default_text(p: Profile, locale: Locale) -> str:
    d = _model_default(p)
    return str(d.get("model_text"))


def _data_default(p: Profile) -> dict[str, Any]:
    if p.task == "pretrain":
        params = p.params or DEFAULT_MODEL_PARAMS
        return {"tokens": int(params * CHINCHILLA_TOKENS_PER_PARAM), "epochs": 1.0}
    return {
        "samples": FINETUNE_SAMPLES,
        "seq_len": FINETUNE_SEQ_LEN,
        "tokens": FINETUNE_SAMPLES * FINETUNE_SEQ_LEN,
        "epochs": FINETUNE_EPOCHS,
    }


def _data_default_text(p: Profile, locale: Locale) -> str:
    if p.task == "pretrain":
        return t("conv.default.data_pretrain", locale, tokens=fmt_count(_data_default(p)["tokens"], locale))
    return t("conv.default.data_finetune", locale)


def _model_context(p: Profile) -> int:
    from advisor.knowledge import knowledge

    spec = knowledge().models.get(p.model) if p.model else None
    if spec and spec.max_context:
        return min(DEFAULT_CONTEXT, spec.max_context)
    return DEFAULT_CONTEXT


def _serving_default(p: Profile) -> dict[str, Any]:
    return {"concurrency": DEFAULT_CONCURRENCY, "context_tokens": _model_context(p)}


def _serving_default_text(p: Profile, locale: Locale) -> str:
    return t("conv.default.serving", locale, context=f"{_model_context(p):,}")


QUESTIONS: tuple[Question, ...] = (
    Question(
        "task",
        applies=lambda p: True,
        answered_by=lambda f: "task" in f,
        default=lambda p: {"task": "lora"},
        default_text=lambda p, loc: t("conv.task.lora", loc),
        choices=lambda loc: tuple(t(f"conv.task.{k}", loc) for k in ("pretrain", "finetune", "lora", "qlora", "inference")),
    ),
    Question(
        "model",
        applies=lambda p: True,
        answered_by=lambda f: "params" in f,
        default=_model_default,
        default_text=_model_default_text,
        choices=lambda loc: (),
    ),
    Question(
        "data",
        applies=_is_training,
        answered_by=lambda f: "tokens" in f or "samples" in f,
        default=_data_default,
        default_text=_data_default_text,
        choices=lambda loc: (),
    ),
    Question(
        "serving",
        applies=lambda p: not _is_training(p),
        answered_by=lambda f: "concurrency" in f or "context_tokens" in f or "requests_per_second" in f,
        default=_serving_default,
        default_text=_serving_default_text,
        choices=lambda loc: (),
    ),
    Question(
        "precision",
        applies=lambda p: True,
        answered_by=lambda f: "precision" in f or "weights_dtype" in f,
        default=lambda p: {"precision": "bf16-mixed"},
        default_text=lambda p, loc: t("conv.precision.bf16-mixed", loc),
        choices=lambda loc: tuple(t(f"conv.precision.{k}", loc).split("（")[0].split(" (")[0]
                                  for k in ("bf16-mixed", "fp16-mixed", "fp8-mixed", "fp32")),
    ),
    Question(
        "deadline",
        applies=_is_training,
        answered_by=lambda f: "deadline_days" in f or "_no_deadline" in f,
        default=lambda p: {"deadline_days": None},
        default_text=lambda p, loc: t("conv.default.no_deadline", loc),
        choices=lambda loc: (t("conv.default.no_deadline", loc),),
    ),
    Question(
        "budget",
        applies=lambda p: True,
        answered_by=lambda f: "budget_usd" in f or "_no_budget" in f,
        default=lambda p: {"budget_usd": None, "budget_amount": None, "budget_currency": None},
        default_text=lambda p, loc: t("conv.default.no_budget", loc),
        choices=lambda loc: tuple(t(f"conv.acq.{k}", loc) for k in ("buy", "rent", "either")),
    ),
    Question(
        "facility",
        applies=lambda p: True,
        answered_by=lambda f: bool({"deployment", "rack_kw", "cooling"} & set(f)),
        default=lambda p: {},
        default_text=lambda p, loc: t("conv.default.facility", loc),
        choices=lambda loc: tuple(t(f"conv.deploy.{k}", loc) for k in ("cloud", "on-prem", "either")),
    ),
)
BY_KEY: dict[str, Question] = {q.key: q for q in QUESTIONS}

def complete_partial(key: str, profile: Profile, fields: dict[str, Any]) -> dict[str, Any]:
    """Sub-fields a question takes from its default when the user answered it only in part
    ("500 concurrent users" with no context: the context takes its default)."""
    if key == "serving":
        return {k: v for k, v in _serving_default(profile).items() if getattr(profile, k) is None}
    if key == "data" and profile.samples and not profile.tokens and not fields.get("_images"):
        seq = profile.seq_len or FINETUNE_SEQ_LEN
        return {"tokens": int(profile.samples * seq), "seq_len": seq}
    return {}


# ---------------------------------------------------------------------------- bare answers

_BARE = re.compile(r"^\s*[-+−]?\s*[\d.,一二两兩三四五六七八九十百千万萬亿億零〇]+\s*(?:[kmbt]|bn|k\s*tokens?)?\s*$", re.IGNORECASE)


def bare_number(text: str) -> float | None:
    """A whole answer that is just a number ("30000", "2.5万", "70", "-5")."""
    cleaned = normalize_text(text).strip().rstrip("。.!！")
    if not cleaned or len(cleaned) > 40 or not _BARE.match(cleaned):
        return None
    cleaned = cleaned.replace("−", "-")
    return parse_number(cleaned)


def read_bare(key: str, text: str, profile: Profile) -> tuple[dict[str, Any], str | None]:
    """Interpret a bare number as the answer to question `key`: (fields, problem key or None)."""
    if key == "facility" and re.fullmatch(r"\s*(either|both|any|whichever|都行|都可以|都比较|都比較|两者都比较|兩者都比較)\s*[.!。！]?\s*",
                                          normalize_text(text).lower()):
        return {"deployment": "either"}, None
    value = bare_number(text)
    if value is None:
        return {}, None
    if not math.isfinite(value):
        return {}, "conv.reask"
    if key == "model":
        if value <= 0:
            return {}, "conv.problem.params_range"
        n = value * 1e9 if value < 10_000 else value
        if n > 1e14:
            return {}, "conv.problem.params_range"
        return {"params": int(n), "model_text": text.strip()[:60]}, None
    if key == "data":
        if value <= 0:
            return {}, "conv.problem.data_positive"
        if value < 1000:
            return {}, "conv.problem.data_ambiguous"
        if value > 1e16:
            return {}, "conv.problem.data_positive"
        return {"tokens": int(value)}, None
    if key == "serving":
        if value < 1 or value >= 1e9:
            return {}, "conv.problem.load_positive"
        return {"concurrency": int(round(value))}, None
    if key == "deadline":
        if value <= 0:
            return {}, "conv.problem.deadline_positive"
        if value > 36500:
            return {}, "conv.problem.deadline_huge"
        return {"deadline_days": float(value)}, None
    if key == "budget":
        if round(value, 2) <= 0:
            return {}, "conv.problem.budget_positive"
        if value > 1e13:
            return {}, "conv.problem.budget_huge"
        return {"budget_usd": float(value), "budget_amount": float(value), "budget_currency": "USD",
                "_budget_currency_assumed": True}, None
    if key == "facility":
        if value <= 0:
            return {}, "conv.problem.power_positive"
        if value > 100_000:
            return {}, "conv.problem.power_huge"
        return {"rack_kw": float(value), "deployment": "on-prem"}, None
    if key == "task":
        options = ("pretrain", "finetune", "lora", "qlora", "inference")
        if float(value).is_integer() and 1 <= value <= len(options):
            return {"task": options[int(value) - 1]}, None
        return {}, "conv.problem.task_unknown"
    if key == "precision":
        options = ("bf16-mixed", "fp16-mixed", "fp8-mixed", "fp32")
        if float(value).is_integer() and 1 <= value <= len(options):
            return {"precision": options[int(value) - 1]}, None
        if value in (16.0,):
            return {"precision": "bf16-mixed"}, None
        if value in (32.0,):
            return {"precision": "fp32"}, None
        if value in (8.0,):
            return {"precision": "fp8-mixed"}, None
        return {}, "conv.problem.precision_unknown"
    return {}, None


# ---------------------------------------------------------------------------- formatting


def _sig(value: float, digits: int = 3) -> str:
    if value == 0 or not math.isfinite(value):
        return "0"
    text = f"{value:.{digits}g}"
    if "e" in text:
        text = f"{value:.0f}"
    return text


def fmt_count(n: float | int | None, locale: Locale) -> str:
    """A large count: en '7.24B', zh-Hans '72.4 亿', zh-Hant '72.4 億'."""
    if n is None:
        return "—"
    n = float(n)
    if locale == "en":
        steps = ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K"))
        sep = ""
    elif locale == "zh-Hans":
        steps = ((1e12, " 万亿"), (1e8, " 亿"), (1e4, " 万"))
        sep = ""
    else:
        steps = ((1e12, " 兆"), (1e8, " 億"), (1e4, " 萬"))
        sep = ""
    for scale, unit in steps:
        if abs(n) >= scale:
            return f"{_sig(n / scale)}{sep}{unit}"
    return f"{int(n):,}" if float(n).is_integer() else _sig(n)


def fmt_money(value: float) -> str:
    """'30,000' or '1,250.5' — a money amount with separators, no currency."""
    if value >= 100 or float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:,.2f}"


def fmt_plain(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else _sig(value)


def field_items(fields: dict[str, Any], profile: Profile, locale: Locale) -> list[str]:
    """Short localized phrases for the fields just captured ("budget $30,000", "Mistral 7B")."""
    items: list[str] = []
    if "task" in fields:
        items.append(t(f"conv.task.{fields['task']}", locale))
    if "params" in fields:
        items.append(_model_phrase(profile, locale))
    if "tokens" in fields or "samples" in fields or "epochs" in fields:
        items.append(_data_phrase(profile, locale))
    if {"concurrency", "context_tokens", "requests_per_second"} & set(fields) and not _is_training(profile):
        items.append(_serving_phrase(profile, locale))
    elif "seq_len" in fields and not ({"tokens", "samples"} & set(fields)):
        items.append(t("conv.fmt.seq_len", locale, n=fmt_plain(profile.seq_len or 0)))
    if "precision" in fields:
        items.append(t(f"conv.precision.{fields['precision']}", locale))
    if "weights_dtype" in fields and profile.weights_dtype:
        items.append(f"{t('conv.label.weights_dtype', locale)} {dtype_name(profile.weights_dtype)}")
    if "kv_dtype" in fields and profile.kv_dtype:
        items.append(f"{t('conv.label.kv_dtype', locale)} {dtype_name(profile.kv_dtype)}")
    if "deadline_days" in fields and profile.deadline_days:
        items.append(f"{t('conv.label.deadline', locale)} {t('conv.fmt.days', locale, n=fmt_plain(profile.deadline_days))}")
    if "budget_usd" in fields or "acquisition" in fields:
        items.append(f"{t('conv.label.budget', locale)} {_budget_phrase(profile, locale, fields)}")
    if {"deployment", "rack_kw", "cooling", "electricity_usd_per_kwh", "pue"} & set(fields):
        items.append(_facility_phrase(profile, locale))
    if "owned_gpus" in fields:
        items.append(f"{t('conv.label.owned', locale)}: {_owned_phrase(profile, locale)}")
    return items


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~#])")


def dtype_name(dtype: str) -> str:
    """A serving storage format as engines print it: 'int4' -> 'INT4', 'bf16' -> 'BF16'."""
    return dtype.upper()


def md_escape(text: str) -> str:
    """Text the user typed, made inert in Markdown (it is echoed back inside Markdown replies)."""
    return _MD_SPECIAL.sub(r"\\\1", str(text)).replace("\n", " ")


def _model_phrase(p: Profile, locale: Locale) -> str:
    size = t("conv.fmt.params", locale, n=fmt_count(p.params, locale))
    name = p.model_text or ""
    if p.model:
        from advisor.knowledge import knowledge

        spec = knowledge().models.get(p.model)
        name = spec.name if spec else p.model
    if name and not re.fullmatch(r"[\d.,\s]*[bBmM]?|[\d\s.]+(?:亿|億)?\s*(?:参数|參數)?", name.strip()):
        name = md_escape(name)
        return f"{name} ({size})" if locale == "en" else f"{name}（{size}）"
    return size


def _data_phrase(p: Profile, locale: Locale) -> str:
    parts = []
    if p.samples:
        key = "conv.fmt.samples"
        parts.append(t(key, locale, n=fmt_count(p.samples, locale)))
        if p.seq_len and p.tokens:
            parts.append(t("conv.fmt.seq_len", locale, n=fmt_plain(p.seq_len)))
    if p.tokens:
        parts.append(t("conv.fmt.tokens", locale, n=fmt_count(p.tokens, locale)))
    parts.append(t("conv.fmt.epoch" if p.epochs == 1 else "conv.fmt.epochs", locale, n=fmt_plain(p.epochs)))
    return _join(parts, locale)


def _serving_phrase(p: Profile, locale: Locale) -> str:
    parts = []
    if p.concurrency:
        parts.append(t("conv.fmt.concurrency", locale, n=f"{p.concurrency:,}"))
    if p.context_tokens:
        parts.append(t("conv.fmt.context", locale, n=f"{p.context_tokens:,}"))
    if p.requests_per_second:
        parts.append(t("conv.fmt.rps", locale, n=fmt_plain(p.requests_per_second)))
    return _join(parts, locale) or t("conv.value.unset", locale)


def _budget_phrase(p: Profile, locale: Locale, fields: dict[str, Any] | None = None) -> str:
    acq = t(f"conv.acq.{p.acquisition}", locale)
    if p.budget_usd is None:
        money = t("conv.default.no_budget", locale) if p.acquisition == "either" else t("conv.value.unset", locale)
        return money if p.acquisition == "either" else _join([money, acq], locale)
    if p.budget_currency and p.budget_currency != "USD" and p.budget_amount:
        money = t("conv.fmt.converted", locale, amount=fmt_money(p.budget_amount), currency=p.budget_currency,
                  usd=fmt_money(p.budget_usd), date=RATES_DATE)
    else:
        money = t("conv.fmt.usd", locale, n=fmt_money(p.budget_usd))
        if fields and fields.get("_budget_currency_assumed"):
            money += f" ({t('conv.fmt.assumed_usd', locale)})" if locale == "en" else f"（{t('conv.fmt.assumed_usd', locale)}）"
    return _join([money, acq], locale)


def _facility_phrase(p: Profile, locale: Locale) -> str:
    parts = [t(f"conv.deploy.{p.deployment}", locale)]
    if p.rack_kw:
        parts.append(t("conv.fmt.rack_kw", locale, n=fmt_plain(round(p.rack_kw, 2))))
    parts.append(t(f"conv.cooling.{p.cooling}", locale))
    if p.electricity_usd_per_kwh != Profile.model_fields["electricity_usd_per_kwh"].default:
        parts.append(f"{t('conv.label.electricity', locale)} {t('conv.fmt.kwh', locale, n=_sig(p.electricity_usd_per_kwh))}")
    return _join(parts, locale)


def _owned_phrase(p: Profile, locale: Locale) -> str:
    from advisor.knowledge import knowledge

    kb = knowledge()
    out = []
    for o in p.owned_gpus:
        spec = kb.gpus.get(o.gpu)
        out.append(t("conv.fmt.gpu_count", locale, count=o.count, name=spec.name if spec else o.gpu))
    return _join(out, locale)


def _join(parts: list[str], locale: Locale) -> str:
    parts = [x for x in parts if x]
    return (", " if locale == "en" else "，").join(parts)


def summary_lines(p: Profile, locale: Locale) -> list[tuple[str, str]]:
    """(label, value) rows of the summary, in question order."""
    rows = [
        (t("conv.label.task", locale), t(f"conv.task.{p.task}", locale) if p.task else t("conv.value.unset", locale)),
        (t("conv.label.model", locale), _model_phrase(p, locale) if p.params else t("conv.value.unset", locale)),
    ]
    if _is_training(p):
        rows.append((t("conv.label.data", locale), _data_phrase(p, locale)))
    else:
        rows.append((t("conv.label.serving", locale), _serving_phrase(p, locale)))
    rows.append((t("conv.label.precision", locale), t(f"conv.precision.{p.precision}", locale)))
    if p.weights_dtype:
        rows.append((t("conv.label.weights_dtype", locale), dtype_name(p.weights_dtype)))
    if p.kv_dtype:
        rows.append((t("conv.label.kv_dtype", locale), dtype_name(p.kv_dtype)))
    if _is_training(p):
        rows.append((t("conv.label.deadline", locale),
                     t("conv.fmt.days", locale, n=fmt_plain(p.deadline_days)) if p.deadline_days
                     else t("conv.default.no_deadline", locale)))
    rows.append((t("conv.label.budget", locale), _budget_phrase(p, locale)))
    rows.append((t("conv.label.facility", locale), _facility_phrase(p, locale)))
    if p.owned_gpus:
        rows.append((t("conv.label.owned", locale), _owned_phrase(p, locale)))
    return rows


def summary_markdown(p: Profile, locale: Locale) -> str:
    lines = [t("conv.summary.title", locale), ""]
    lines += [f"- **{label}**: {value}" if locale == "en" else f"- **{label}**：{value}"
              for label, value in summary_lines(p, locale)]
    lines += ["", t("conv.summary.confirm", locale)]
    return "\n".join(lines)
