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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from advisor import format as fmt
from advisor.conversation.numbers import lazy_compile, normalize_text, parse_number, strip_approx
from advisor.conversation.parsers import MAX_BUDGET_USD, Extraction
from advisor.core import planner
from advisor.currency import RATES_DATE, currency_of, default_currency, to_usd
from advisor.i18n import t
from advisor.knowledge import knowledge
from advisor.models import Locale, Profile
from advisor.words import machine_phrase, usage_phrase

TRAINING_TASKS = planner.TRAINING_TASKS


def _is_training(p: Profile) -> bool:
    return (p.task or planner.DEFAULT_TASK) in TRAINING_TASKS


@dataclass(frozen=True)
class Question:
    """One question: its key, whether it applies, which extracted fields answer it, its default."""

    key: str
    applies: Callable[[Profile], bool]
    answered_by: Callable[[Extraction], bool]
    default: Callable[[Profile], dict[str, Any]]
    default_text: Callable[[Profile, Locale], str]
    choices: Callable[[Locale], tuple[str, ...]]
    variant: Callable[[Profile, Locale], tuple[str, tuple[str, ...]] | None] = lambda p, loc: None
    """A wording and quick replies of its own for some profiles (a service asked for weight formats)."""

    def text(self, profile: Profile, locale: Locale) -> str:
        own = self.variant(profile, locale)
        return own[0] if own else t(f"conv.q.{self.key}", locale, default=self.default_text(profile, locale))

    def options(self, profile: Profile, locale: Locale) -> tuple[str, ...]:
        """The quick replies offered with the question."""
        own = self.variant(profile, locale)
        return own[1] if own else self.choices(locale)


SERVING_WEIGHT_CHOICES = ("bf16", "fp8", "int4")
"""The weight formats offered to a service, in the order of their quick replies (a bare 1-3 picks one)."""


def _serving_precision(p: Profile, locale: Locale) -> tuple[str, tuple[str, ...]] | None:
    """A service chooses weight formats, not a training regime."""
    if p.task != "inference":
        return None
    text = t("conv.q.precision_serving", locale, default=t("conv.precision.serving_default", locale))
    return text, tuple(t(f"conv.choice.weights.{d}", locale) for d in SERVING_WEIGHT_CHOICES)

# ---------------------------------------------------------------------------- defaults (advisor.core.planner's)


def _model_default(_: Profile) -> dict[str, Any]:
    spec = knowledge().models.get(planner.DEFAULT_MODEL)
    if spec is None:  # a catalogue without the default model: the planner's stand-in for its size
        return {"params": 8_030_261_248, "model_text": "Llama 3 8B"}
    return {"model": spec.id, "model_text": spec.name, "params": spec.params}


def _model_default_text(p: Profile, locale: Locale) -> str:
    return str(_model_default(p).get("model_text"))


def _max_context(p: Profile) -> int | None:
    spec = knowledge().models.get(p.model) if p.model else None
    return spec.max_context if spec else None


def _data_default(p: Profile) -> dict[str, Any]:
    task = p.task or planner.DEFAULT_TASK
    seq = p.seq_len or planner.default_seq_len(task, _max_context(p))
    return planner.default_data(task, p.params or _model_default(p)["params"], seq)


def _data_default_text(p: Profile, locale: Locale) -> str:
    d = _data_default(p)
    if (p.task or planner.DEFAULT_TASK) == "pretrain":
        return t("conv.default.data_pretrain", locale, tokens=fmt.count(d["tokens"], locale))
    return t(
        "conv.default.data_finetune",
        locale,
        samples=fmt.count(d["samples"], locale),
        seq=fmt.plain(d["seq_len"]),
        epochs=fmt.plain(d["epochs"]),
    )


def _serving_default(p: Profile) -> dict[str, Any]:
    return {"concurrency": planner.DEFAULT_CONCURRENCY, "context_tokens": planner.default_context(_max_context(p))}


def _serving_default_text(p: Profile, locale: Locale) -> str:
    d = _serving_default(p)
    return t("conv.default.serving", locale, users=fmt.plain(d["concurrency"]), context=fmt.plain(d["context_tokens"]))


QUESTIONS: tuple[Question, ...] = (
    Question(
        "task",
        applies=lambda p: True,
        answered_by=lambda ex: "task" in ex.fields,
        default=lambda p: {"task": planner.DEFAULT_TASK},
        default_text=lambda p, loc: t(f"conv.task.{planner.DEFAULT_TASK}", loc),
        choices=lambda loc: tuple(
            t(f"conv.task.{k}", loc) for k in ("pretrain", "finetune", "lora", "qlora", "inference")
        ),
    ),
    Question(
        "model",
        applies=lambda p: True,
        answered_by=lambda ex: "params" in ex.fields,
        default=_model_default,
        default_text=_model_default_text,
        choices=lambda loc: (),
    ),
    Question(
        "data",
        applies=_is_training,
        answered_by=lambda ex: "tokens" in ex.fields or "samples" in ex.fields,
        default=_data_default,
        default_text=_data_default_text,
        choices=lambda loc: (),
    ),
    Question(
        "serving",
        applies=lambda p: not _is_training(p),
        answered_by=lambda ex: bool({"concurrency", "context_tokens", "requests_per_second", "max_ttft_s",
                                     "min_tokens_per_s_per_user"} & set(ex.fields)),
        default=_serving_default,
        default_text=_serving_default_text,
        choices=lambda loc: (),
    ),
    Question(
        "precision",
        applies=lambda p: True,
        answered_by=lambda ex: "precision" in ex.fields or "weights_dtype" in ex.fields,
        default=lambda p: {"precision": "bf16-mixed"},
        default_text=lambda p, loc: t("conv.precision.bf16-mixed", loc),
        choices=lambda loc: tuple(
            t(f"conv.precision.{k}", loc).split("（")[0].split(" (")[0]
            for k in ("bf16-mixed", "fp16-mixed", "fp8-mixed", "fp32")
        ),
        variant=_serving_precision,
    ),
    Question(
        "deadline",
        applies=_is_training,
        answered_by=lambda ex: "deadline_days" in ex.fields or ex.no_deadline,
        default=lambda p: {"deadline_days": None},
        default_text=lambda p, loc: t("conv.default.no_deadline", loc),
        choices=lambda loc: (t("conv.default.no_deadline", loc),),
    ),
    Question(
        "budget",
        applies=lambda p: True,
        answered_by=lambda ex: "budget_usd" in ex.fields or ex.no_budget,
        default=lambda p: {"budget_usd": None, "budget_amount": None, "budget_currency": None},
        default_text=lambda p, loc: t("conv.default.no_budget", loc),
        choices=lambda loc: tuple(t(f"conv.acq.{k}", loc) for k in ("buy", "rent", "either")),
    ),
    Question(
        "facility",
        applies=lambda p: True,
        answered_by=lambda ex: bool({"deployment", "rack_kw", "cooling"} & set(ex.fields)),
        default=lambda p: {},
        default_text=lambda p, loc: t("conv.default.facility", loc),
        choices=lambda loc: tuple(t(f"conv.deploy.{k}", loc) for k in ("cloud", "on-prem", "either")),
    ),
    Question(
        "horizon",
        # Only where buying is weighed against renting: how much the hardware works decides between them.
        applies=lambda p: p.acquisition == "either" and p.deployment != "cloud",
        answered_by=lambda ex: bool({"horizon_days", "utilization", "runs"} & set(ex.fields)),
        default=lambda p: {},
        default_text=lambda p, loc: t("conv.default.horizon_run" if _is_training(p) else "conv.default.horizon_service",
                                      loc),
        choices=lambda loc: (t("usage.one_off", loc), t("usage.years", loc, n=3), t("usage.around_clock", loc)),
    ),
)
BY_KEY: dict[str, Question] = {q.key: q for q in QUESTIONS}


def complete_partial(key: str, profile: Profile, ex: Extraction) -> dict[str, Any]:
    """Sub-fields a question takes from its default when the user answered it only in part
    ("500 concurrent users" with no context: the context takes its default)."""
    if key == "serving":
        return {k: v for k, v in _serving_default(profile).items() if getattr(profile, k) is None}
    if key == "data" and profile.samples and not profile.tokens and not ex.images:
        seq = profile.seq_len or planner.default_seq_len(profile.task or planner.DEFAULT_TASK, _max_context(profile))
        return {"tokens": int(profile.samples * seq), "seq_len": seq}
    return {}


# ---------------------------------------------------------------------------- bare answers

_BARE = lazy_compile(
    r"^\s*[-+−]?\s*(?=[\d.一二两兩三四五六七八九十])[\d.,]*\s*[一二两兩三四五六七八九十百千万萬亿億零〇]*\s*"
    r"(?:[kmbt]|bn|mil|million|billion|thousand|k\s*tokens?)?\s*$", re.IGNORECASE
)


_QUALIFIER = lazy_compile(  # words around a number that do not change it: "抓兩百萬上下", "一百五十万左右，不含税"
    r"^\s*(?:预算|預算)?\s*(?:抓|估|大概抓|差不多抓|somewhere\s+around|roughly)\s*|"
    r"\s*,?\s*(?:不含税|含税|未税|未稅|含稅|不含稅|税前|稅前|税后|稅後|tax\s+(?:included|excluded|incl\.?|excl\.?)|"
    r"before\s+tax|after\s+tax|plus\s+tax|\+\s*tax|incl\.?\s+vat|excl\.?\s+vat|tops|max|at\s+most)\s*$|"
    r"\s*(?:吧|啦|呗|唄|哈|喔|哦|吧我想)\s*$",
    re.IGNORECASE)


def bare_number(text: str) -> float | None:
    """A whole answer that is just a number ("30000", "2.5万", "70", "-5")."""
    cleaned = strip_approx(_QUALIFIER.sub("", normalize_text(text).strip().rstrip("。.!！")))
    if not cleaned or len(cleaned) > 40 or not _BARE.match(cleaned):
        return None
    cleaned = cleaned.replace("−", "-")
    return parse_number(cleaned)


def read_bare(key: str, text: str, profile: Profile) -> tuple[Extraction, str | None]:
    """Interpret a bare number as the answer to question `key`: (what it says, problem key or None)."""
    fields, problem = _read_bare(key, text, profile)
    ex = Extraction(
        fields={k: v for k, v in fields.items() if k != "currency_assumed"},
        currency_assumed=bool(fields.get("currency_assumed")),
    )
    return ex, problem


def _read_bare(key: str, text: str, profile: Profile) -> tuple[dict[str, Any], str | None]:
    if key == "facility" and re.fullmatch(
        r"\s*(either|both|any|whichever|都行|都可以|都比较|都比較|两者都比较|兩者都比較)\s*[.!。！]?\s*",
        normalize_text(text).lower(),
    ):
        return {"deployment": "either"}, None
    value = bare_number(text)
    if value is None and key == "budget":  # "5w", "1.5w": 万, as mainland and Taiwan writers abbreviate it
        wan = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[wW]\s*", strip_approx(_QUALIFIER.sub("", normalize_text(text))))
        value = float(wan.group(1)) * 1e4 if wan else None
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
        currency = default_currency(profile.language)  # a bare amount is in the writer's own money
        if to_usd(float(value), currency) > MAX_BUDGET_USD:
            return {}, "conv.problem.budget_huge"
        return {
            "budget_usd": round(to_usd(float(value), currency), 2),
            "budget_amount": float(value),
            "budget_currency": currency,
            "currency_assumed": True,
        }, None
    if key == "facility":
        if value <= 0:
            return {}, "conv.problem.power_positive"
        if value > 100_000:
            return {}, "conv.problem.power_huge"
        return {"rack_kw": float(value), "deployment": "on-prem"}, None
    if key == "horizon":  # a bare number is years ("3"), or days when it is large ("90")
        if value <= 0:
            return {}, "conv.problem.horizon_positive"
        days = value * 365 if value <= 10 else value
        if days > 36_500:
            return {}, "conv.problem.horizon_positive"
        return {"horizon_days": float(round(days))}, None
    if key == "task":
        options = ("pretrain", "finetune", "lora", "qlora", "inference")
        if float(value).is_integer() and 1 <= value <= len(options):
            return {"task": options[int(value) - 1]}, None
        return {}, "conv.problem.task_unknown"
    if key == "precision" and profile.task == "inference":
        if float(value).is_integer() and 1 <= value <= len(SERVING_WEIGHT_CHOICES):
            return {"weights_dtype": SERVING_WEIGHT_CHOICES[int(value) - 1]}, None
        return {}, "conv.problem.precision_unknown"
    if key == "precision":
        regimes = ("bf16-mixed", "fp16-mixed", "fp8-mixed", "fp32")
        if float(value).is_integer() and 1 <= value <= len(regimes):
            return {"precision": regimes[int(value) - 1]}, None
        if value in (16.0,):
            return {"precision": "bf16-mixed"}, None
        if value in (32.0,):
            return {"precision": "fp32"}, None
        if value in (8.0,):
            return {"precision": "fp8-mixed"}, None
        return {}, "conv.problem.precision_unknown"
    return {}, None


# ---------------------------------------------------------------------------- words for what was collected


def field_items(
    fields: dict[str, Any], profile: Profile, locale: Locale, *, currency_assumed: bool = False
) -> list[str]:
    """Short localized phrases for the fields just captured ("budget $30,000", "Mistral 7B")."""
    items: list[str] = []
    if "task" in fields:
        items.append(t(f"conv.task.{fields['task']}", locale))
    if "params" in fields:
        items.append(_model_phrase(profile, locale))
    if "tokens" in fields or "samples" in fields or "epochs" in fields:
        items.append(_data_phrase(profile, locale))
    if {"concurrency", "context_tokens", "requests_per_second", "max_ttft_s", "min_tokens_per_s_per_user",
            "redundant"} & set(fields) and not _is_training(profile):
        items.append(_serving_phrase(profile, locale))
    elif "seq_len" in fields and not ({"tokens", "samples"} & set(fields)):
        items.append(t("conv.fmt.seq_len", locale, n=fmt.plain(profile.seq_len or 0)))
    if "precision" in fields:
        items.append(t(f"conv.precision.{fields['precision']}", locale))
    if "weights_dtype" in fields and profile.weights_dtype:
        items.append(f"{t('conv.label.weights_dtype', locale)} {dtype_name(profile.weights_dtype)}")
    if "kv_dtype" in fields and profile.kv_dtype:
        items.append(f"{t('conv.label.kv_dtype', locale)} {dtype_name(profile.kv_dtype)}")
    if "deadline_days" in fields and profile.deadline_days:
        items.append(
            f"{t('conv.label.deadline', locale)} {t('conv.fmt.days', locale, n=fmt.plain(profile.deadline_days))}"
        )
    if "budget_usd" in fields or "acquisition" in fields:
        items.append(f"{t('conv.label.budget', locale)} {_budget_phrase(profile, locale, currency_assumed)}")
    if {"deployment", "rack_kw", "cooling", "electricity_usd_per_kwh", "pue"} & set(fields):
        items.append(_facility_phrase(profile, locale))
    if {"horizon_days", "utilization", "runs"} & set(fields):
        items.append(f"{t('conv.label.horizon', locale)} {usage_phrase(profile, locale)}")
    if {"host_owned", "max_gpus"} & set(fields) and machine_phrase(profile, locale):
        items.append(f"{t('conv.label.machine', locale)}{fmt.sep(locale)}{machine_phrase(profile, locale)}")
    if "owned_gpus" in fields:
        items.append(f"{t('conv.label.owned', locale)}{fmt.sep(locale)}{_owned_phrase(profile, locale)}")
    if "preferred_gpus" in fields and profile.preferred_gpus:
        items.append(f"{t('conv.label.preferred', locale)}{fmt.sep(locale)}{_preferred_phrase(profile, locale)}")
    return items


_MD_SPECIAL = lazy_compile(r"([\\`*_\[\]<>|~#])")


def dtype_name(dtype: str) -> str:
    """A serving storage format as engines print it: 'int4' -> 'INT4', 'bf16' -> 'BF16'."""
    return dtype.upper()


def md_escape(text: str) -> str:
    """Text the user typed, made inert in Markdown (it is echoed back inside Markdown replies)."""
    return _MD_SPECIAL.sub(r"\\\1", str(text)).replace("\n", " ")


def _model_phrase(p: Profile, locale: Locale) -> str:
    size = t("conv.fmt.params", locale, n=fmt.count(p.params, locale))
    name = p.model_text or ""
    if p.model:
        spec = knowledge().models.get(p.model)
        name = spec.name if spec else p.model
    if name and not re.fullmatch(r"[\d.,\s]*[bBmM]?|[\d\s.]+(?:亿|億)?\s*(?:参数|參數)?", name.strip()):
        name = md_escape(name)
        return name + fmt.paren(size, locale)
    return size


def _data_phrase(p: Profile, locale: Locale) -> str:
    parts = []
    if p.samples:
        key = "conv.fmt.samples"
        parts.append(t(key, locale, n=fmt.count(p.samples, locale)))
        if p.seq_len and p.tokens:
            parts.append(t("conv.fmt.seq_len", locale, n=fmt.plain(p.seq_len)))
    if p.tokens:
        parts.append(t("conv.fmt.tokens", locale, n=fmt.count(p.tokens, locale)))
    parts.append(t("conv.fmt.epoch" if p.epochs == 1 else "conv.fmt.epochs", locale, n=fmt.plain(p.epochs)))
    return _join(parts, locale)


def _serving_phrase(p: Profile, locale: Locale) -> str:
    parts = []
    if p.concurrency:
        parts.append(t("conv.fmt.concurrency", locale, n=f"{p.concurrency:,}"))
    if p.context_tokens and p.avg_context_tokens and p.avg_context_tokens < p.context_tokens:
        parts.append(t("conv.fmt.context_avg", locale, n=f"{p.context_tokens:,}", avg=f"{p.avg_context_tokens:,}"))
    elif p.context_tokens:
        parts.append(t("conv.fmt.context", locale, n=f"{p.context_tokens:,}"))
    if p.requests_per_second:
        parts.append(t("conv.fmt.rps", locale, n=fmt.plain(p.requests_per_second)))
    if p.max_ttft_s:
        parts.append(t("conv.fmt.ttft", locale, n=fmt.plain(p.max_ttft_s)))
    if p.min_tokens_per_s_per_user:
        parts.append(t("conv.fmt.user_tps", locale, n=fmt.plain(p.min_tokens_per_s_per_user)))
    if p.redundant:
        parts.append(t("conv.fmt.redundant", locale))
    return _join(parts, locale) or t("conv.value.unset", locale)


def _budget_phrase(p: Profile, locale: Locale, currency_assumed: bool = False) -> str:
    acq = t(f"conv.acq.{p.acquisition}", locale)
    if p.budget_usd is None:
        money = t("conv.default.no_budget", locale) if p.acquisition == "either" else t("conv.value.unset", locale)
        return money if p.acquisition == "either" else _join([money, acq], locale)
    code = (p.budget_currency or "USD").upper()
    if code != "USD" and p.budget_amount:
        money = t(
            "conv.fmt.converted",
            locale,
            amount=fmt.amount(p.budget_amount, code, locale),
            usd=fmt.amount(p.budget_usd, "USD", locale),
            date=RATES_DATE,
        )
    else:
        money = fmt.amount(p.budget_usd, "USD", locale)
    if p.runs and p.runs > 1 and p.task not in (None, "inference"):  # "每次預算 NT$5,000", 24 runs: NT$120,000 in all
        money += fmt.paren(t("conv.fmt.budget_runs", locale, n=fmt.plain(p.runs)), locale)
    if currency_assumed:
        money += fmt.paren(t("conv.fmt.assumed_currency", locale, currency=t(f"conv.currency.{code}", locale)), locale)
    return _join([money, acq], locale)


def _facility_phrase(p: Profile, locale: Locale) -> str:
    if p.host_owned:  # a desktop they have: its power supply, not a server room's rack
        parts = [t("conv.deploy.own_computer", locale)]
        if p.rack_kw:
            parts.append(t("conv.fmt.machine_kw", locale, n=fmt.plain(round(p.rack_kw * 1000))))
    else:
        parts = [t(f"conv.deploy.{p.deployment}", locale)]
        if p.rack_kw:
            parts.append(t("conv.fmt.rack_kw", locale, n=fmt.plain(round(p.rack_kw, 2))))
    if p.deployment != "cloud":  # a rented GPU's cooling and power are the provider's
        parts.append(t(f"conv.cooling.{p.cooling}", locale))
    if p.electricity_usd_per_kwh != Profile.model_fields["electricity_usd_per_kwh"].default:
        parts.append(
            f"{t('conv.label.electricity', locale)} "
            f"{fmt.rate_per_kwh(p.electricity_usd_per_kwh, locale, currency_of(p.budget_currency, locale))}"
        )
    return _join(parts, locale)


def _owned_phrase(p: Profile, locale: Locale) -> str:
    kb = knowledge()
    out = []
    for o in p.owned_gpus:
        spec = kb.gpus.get(o.gpu)
        out.append(t("conv.fmt.gpu_count", locale, count=o.count, name=spec.name if spec else o.gpu))
    return _join(out, locale)


def _preferred_phrase(p: Profile, locale: Locale) -> str:
    kb = knowledge()
    return _join([kb.gpus[g].name if g in kb.gpus else g for g in p.preferred_gpus], locale)


def _join(parts: list[str], locale: Locale) -> str:
    return fmt.join(parts, locale)


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
    if _is_training(p):  # a service's precision is its weight and KV formats, below
        rows.append((t("conv.label.precision", locale), t(f"conv.precision.{p.precision}", locale)))
    if p.weights_dtype:
        rows.append((t("conv.label.weights_dtype", locale), dtype_name(p.weights_dtype)))
    if p.kv_dtype:
        rows.append((t("conv.label.kv_dtype", locale), dtype_name(p.kv_dtype)))
    if _is_training(p):
        rows.append(
            (
                t("conv.label.deadline", locale),
                t("conv.fmt.days", locale, n=fmt.plain(p.deadline_days))
                if p.deadline_days
                else t("conv.default.no_deadline", locale),
            )
        )
    rows.append((t("conv.label.budget", locale), _budget_phrase(p, locale)))
    rows.append((t("conv.label.facility", locale), _facility_phrase(p, locale)))
    if BY_KEY["horizon"].applies(p):
        rows.append((t("conv.label.horizon", locale),
                     usage_phrase(p, locale) or BY_KEY["horizon"].default_text(p, locale)))
    machine = machine_phrase(p, locale)
    if machine:
        rows.append((t("conv.label.machine", locale), machine))
    if p.owned_gpus:
        rows.append((t("conv.label.owned", locale), _owned_phrase(p, locale)))
    if p.preferred_gpus:
        rows.append((t("conv.label.preferred", locale), _preferred_phrase(p, locale)))
    return rows


def summary_markdown(p: Profile, locale: Locale) -> str:
    lines = [t("conv.summary.title", locale), ""]
    lines += [f"- **{label}**{fmt.sep(locale)}{value}" for label, value in summary_lines(p, locale)]
    lines += ["", t("conv.summary.confirm", locale)]
    return "\n".join(lines)
