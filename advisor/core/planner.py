"""Candidate configurations and their numbers: the contract between the numeric core and `recommend`.

Why this module exists: a recommendation compares many ways to do one job — GPU model x count x
parallelism strategy — and every comparison needs the same numbers (memory per GPU, time, power,
cost). `workload_from_profile` turns what the conversation collected into a `Workload` (a frozen
dataclass with every default decided and written down in `assumptions`); `sweep(workload, gpus)`
evaluates every GPU x count x strategy that makes sense for the task and returns `CandidateMetrics`,
plain frozen dataclasses (no pydantic in the hot loop: the sweep must reach >= 100,000
evaluations/s). `advisor.recommend` shortlists them, asks the rules, ranks.

Speed: memory terms depend on the configuration but not on the GPU model, so they are computed once
per (count, strategy, variant) and shared by every GPU; power and cost are computed once per
(GPU, count); what is left per candidate is a few multiplications. Choosing a configuration's variant
compares expected seconds only (`compute.time_expected_from`, the same float as the middle of the range),
works out once per GPU memory size which variants fit, and skips a variant whose run volumes equal an
earlier one's (equal seconds can never win), so the search picks exactly what timing every variant would
(tests/core/test_search_shortcuts.py).

The field names of `MemoryTerms` and `CandidateMetrics` are the contract; fields added later come
at the end with defaults.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from advisor.core import TIGHT_HEADROOM, compute, cost, memory, power
from advisor.core.memory import Shape


@dataclass(frozen=True, slots=True)
class MemoryTerms:
    """Peak memory per GPU, term by term, bytes (same names as models.MemoryBreakdown)."""

    weights: int
    gradients: int
    optimizer: int
    activations: int
    kv_cache: int
    overhead: int

    @property
    def total(self) -> int:
        return self.weights + self.gradients + self.optimizer + self.activations + self.kv_cache + self.overhead


@dataclass(frozen=True, slots=True)
class CandidateMetrics:
    """One configuration's numbers. Units in names; None where the task makes a figure meaningless."""

    gpu_id: str  # GPU catalogue id
    count: int  # GPUs in total
    nodes: int  # servers (ceil(count / gpu.max_per_node))
    strategy: str  # 'single', 'ddp', 'zero1', 'zero2', 'zero3', 'fsdp', 'tp4', 'tp8-pp2', 'replicas', ...
    tp: int  # tensor-parallel degree
    pp: int  # pipeline-parallel degree
    dp: int  # data-parallel degree (replicas for inference)
    checkpointing: str  # 'none' | 'selective' | 'full'
    memory: MemoryTerms  # per GPU, bytes
    capacity_bytes: int  # usable memory of one GPU, bytes
    fits: bool  # memory.total <= capacity_bytes
    headroom_bytes: int  # capacity_bytes - memory.total (negative when it does not fit)
    time_s: float | None  # training: expected wall-clock seconds for the whole run
    time_s_low: float | None  # optimistic end of the range
    time_s_high: float | None  # pessimistic end of the range
    mfu: float | None  # model FLOPs utilization assumed (training)
    tokens_per_s: float | None  # inference: aggregate decode tokens/s of the configuration
    max_concurrency: int | None  # inference: sequences at the profile's context that fit in the KV cache, all replicas
    power_w: float  # IT power: GPUs + host share, W
    facility_w: float  # power_w x PUE, W
    node_power_w: float  # one full server's IT power, W
    energy_kwh: float | None  # training: facility energy for the run, kWh
    buy_usd: float | None  # capex: GPUs + servers around them, USD (None when no price is known)
    rent_usd_per_hour: float | None  # cloud on-demand for all GPUs, USD/h
    rent_usd: float | None  # rent for the hours of use (`usage_hours`: the runs, or the horizon), USD
    energy_usd: float | None  # electricity for the same hours when owned, USD
    crosses_pcie_tp: bool  # tensor parallelism over PCIe (no NVLink) or across nodes
    # --- added after the first contract (all defaulted)
    buy_usd_low: float | None = None  # capex range, USD
    buy_usd_high: float | None = None
    rent_usd_low: float | None = None  # rent range for the same period as rent_usd, USD
    rent_usd_high: float | None = None
    ttft_s: float | None = None  # inference: prefill of one full context on one replica, s
    host_ram_bytes: int = 0  # CPU RAM per node needed by offloaded state, bytes
    break_even_hours: float | None = None  # hours of use after which buying beats renting (mid prices)
    rent_usd_per_hour_low: float | None = None  # cloud rate range for all GPUs, USD/h
    rent_usd_per_hour_high: float | None = None
    average_power_w: float | None = None  # expected average draw under load (IT), W
    micro_batch: int = 1  # training: sequences (or images) per GPU per step chosen
    optimizer: str = "adamw"  # training: optimizer chosen (adamw | adamw-8bit | ...)
    offload: bool = False  # training: optimizer state (and ZeRO-3 parameters) on the CPU
    weights_dtype: str | None = None  # serving: weight format chosen
    kv_dtype: str | None = None  # serving: KV-cache format chosen
    usage_hours: float | None = None  # hours of use over the horizon that rent and energy are for
    precision: str | None = None  # training: the precision regime chosen when the plan changed it (else None)
    chunked_loss: bool = False  # training: the loss is computed in chunks (no whole-sequence fp32 logits)


def _fast_constructor(cls: type) -> Any:
    """A positional constructor for the frozen, slotted dataclass `cls` that makes the same object several
    times faster.

    A frozen dataclass's `__init__` stores each field through `object.__setattr__` (its own `__setattr__`
    refuses); with the 46 fields of `CandidateMetrics` that is most of what a sweep candidate costs. This one
    fills an instance of a plain (unfrozen) twin dataclass with the same slots, in the same order, then gives it
    `cls` as its class (CPython allows `__class__` assignment between classes of the same slot layout): the
    result is a `cls` equal to `cls(*values)`, as frozen, with every field given (defaults are not applied)."""
    names = [f.name for f in dataclasses.fields(cls)]
    twin = dataclasses.make_dataclass(f"_{cls.__name__}Slots", names, slots=True, eq=False, repr=False)

    def make(*values: Any) -> Any:
        obj = twin(*values)
        obj.__class__ = cls
        return obj

    return make


_new_metrics = _fast_constructor(CandidateMetrics)


TRAINING_TASKS = ("pretrain", "finetune", "lora", "qlora")
TASKS = (*TRAINING_TASKS, "inference")

DEFAULT_SEQ = memory.DEFAULT_SEQ  # see advisor.core.memory.DEFAULT_SEQ

# ------------------------------------------------------------------------------------------------
# Defaults: the one place that decides what a consultation assumes when the user does not say. The
# dialogue shows these (and records in `Profile.assumed` which ones it took); `recommend --profile`
# with the same fields missing assumes the same.

DEFAULT_TASK = "lora"
"""The most common request: adapting an open model to one's own data."""

DEFAULT_MODEL = "llama-3-8b"
"""Llama 3 8B: the reference open model of its size (Meta's config.json, numeric-anchors.md §4)."""

DEFAULT_FINETUNE_SAMPLES = 50_000
"""Examples in a fine-tuning set when the user gives none: about Alpaca's 52K instructions (Taori et al.,
2023), packed into sequences of the default length (`memory.DEFAULT_SEQ`): ~100M tokens at 2,048."""

DEFAULT_EPOCHS = 1.0

CHINCHILLA_TOKENS_PER_PARAM = 20
"""Pretraining tokens when none are given: ~20 per parameter, compute-optimal (Hoffmann et al. 2022,
arXiv:2203.15556)."""

DEFAULT_IMAGES = 1_000_000
"""Images per epoch for vision training when none are given (ImageNet-1k has 1.28M)."""

DEFAULT_LORA_RANK = 16
DEFAULT_LORA_TARGETS = frozenset({"q", "k", "v", "o", "gate", "up", "down"})
"""LoRA on every linear layer: the QLoRA paper found adapting all linear layers necessary to match full
fine-tuning (arXiv:2305.14314 §4); rank 16 is the common modern default (PEFT's own default is 8 on q, v)."""

DEFAULT_CONCURRENCY = 32
"""Serving: concurrent sequences when the user gives none — a small team's internal assistant."""

DEFAULT_CONTEXT = 8192
"""Serving: tokens per sequence (prompt + answer) when the user gives none, capped at the model's window."""

DEFAULT_IMAGE_BATCH = 32

TRAINING_UTILIZATION = 0.2
"""Share of a horizon that training GPUs are busy when the user gives a horizon but no schedule: between a
personal machine (5-15 %) and a shared lab cluster (35-60 %), nearer the first since most who ask are
individuals and small teams — Dettmers' utilization figures (shared/reference/advisory-anchors.md §1)."""

RENT_MIN_HOURS = 1.0
"""Every rental is billed for at least this long: starting the instance, pulling the model and data, and
hourly billing at many providers (our assumption) — so three GPUs for twelve minutes do not look cheaper
than one for half an hour."""

SERVING_HORIZON_DAYS = 365
"""A service is priced over a year of round-the-clock use unless the user says how long it will run."""

OWNERSHIP_HORIZON_DAYS = 3 * 365
"""The horizon when the user says how much the hardware will work ("10 hours a week") but not for how long:
three years, the low end of the 3-5 years TCO write-ups use (advisory-anchors.md §4)."""


def default_seq_len(task: str, max_context: int | None) -> int:
    """Training sequence length when none is given (`memory.DEFAULT_SEQ`), capped at the model's window."""
    seq = DEFAULT_SEQ.get(task, 2048)
    return min(seq, max_context) if max_context else seq


def default_context(max_context: int | None) -> int:
    """Serving context when none is given, capped at the model's window."""
    return min(DEFAULT_CONTEXT, max_context) if max_context else DEFAULT_CONTEXT


def default_data(task: str, params: int, seq_len: int) -> dict[str, float | int]:
    """Profile fields of the data a training run assumes when the user gives none: pretraining
    Chinchilla-optimal tokens; fine-tuning `DEFAULT_FINETUNE_SAMPLES` packed sequences; one epoch."""
    if task == "pretrain":
        return {"tokens": int(CHINCHILLA_TOKENS_PER_PARAM * params), "epochs": DEFAULT_EPOCHS}
    return {
        "samples": DEFAULT_FINETUNE_SAMPLES,
        "seq_len": seq_len,
        "tokens": DEFAULT_FINETUNE_SAMPLES * seq_len,
        "epochs": DEFAULT_EPOCHS,
    }


@dataclass(frozen=True, slots=True)
class Workload:
    """One job, fully specified: what to train or serve, on how much data, at which precision.

    Built by `workload_from_profile`; every default it chose is listed in `assumptions`. Vary it
    with `dataclasses.replace(workload, weights_dtype="int4")` ("what if"): the private per-workload
    cache of the sweep is not carried over to the copy.
    """

    task: str  # pretrain | finetune | lora | qlora | inference
    model_id: str  # catalogue id (or 'custom-<n>' / the config's name)
    model_name: str
    shape: Shape
    params: int  # total parameters
    active_params: int  # parameters per token (MoE)
    trainable_params: int  # what the optimizer updates (LoRA: adapters only; inference: 0)
    tokens: float | None  # training tokens, epochs included (LLMs)
    samples: float | None  # training samples, epochs included (images)
    seq_len: int  # training sequence length, tokens
    micro_batch: int  # sequences (or images) per GPU per step
    precision: str = "bf16-mixed"
    optimizer: str = "adamw"
    attention: str = "sdpa"
    lora_rank: int = DEFAULT_LORA_RANK
    lora_targets: frozenset[str] = DEFAULT_LORA_TARGETS
    concurrency: int = 1  # serving: concurrent sequences
    context_tokens: int = DEFAULT_CONTEXT  # serving: tokens per sequence
    weights_dtype: str = "bf16"  # serving weights
    kv_dtype: str = "bf16"  # serving KV cache
    pue: float = 1.4
    electricity_usd_per_kwh: float = 0.12
    forward_flops_per_sample: float | None = None  # non-LLM
    offload: bool = False  # DeepSpeed CPU offload of the model states (ZeRO-2/3, full training)
    horizon_days: float | None = None  # how long the hardware is used (None: training = this run; serving = a year)
    serving_precision_given: bool = False  # the user named the weight/KV formats: the sweep keeps them
    utilization: float | None = None  # share of the horizon the GPUs work (None: training 0.2, serving 1)
    runs: int | None = None  # training: runs like this one over the horizon (1: a one-off job)
    spec: Any = field(default=None, compare=False, repr=False)  # the ModelSpec (adapter counts for other methods)
    stack: memory.Stack = memory.Stack()  # the framework's memory choices (calculator flags; defaults: HF + PEFT)
    max_gpus: int = 1024
    assumptions: tuple[tuple[str, str], ...] = ()
    kv_dtype_given: bool = True  # the user (or the calculator's flags) named the KV-cache format
    batch_tokens: float | None = None  # serving: an offline batch job's prompt tokens (None: a live service)
    max_ttft_s: float | None = None  # serving targets the user stated: first token within, s
    requests_per_second: float | None = None  # peak request rate
    min_tokens_per_s_per_user: float | None = None  # decode speed each concurrent user must see
    avg_context_tokens: int | None = None  # the average request, when shorter than the longest (context_tokens)
    redundant: bool = False  # serving: N+1, the peak carried with one replica down
    _cache: dict = field(default_factory=dict, init=False, compare=False, hash=False, repr=False)

    @property
    def typical_context(self) -> int:
        """Serving: the tokens an average sequence holds — the stated average when shorter than the longest
        (`context_tokens`), else the longest."""
        avg = self.avg_context_tokens
        return avg if avg and avg < self.context_tokens else self.context_tokens

    @property
    def is_training(self) -> bool:
        return self.task != "inference"


def _model_spec(profile, kb):
    from advisor.core import params as params_mod

    if profile.model:
        spec = kb.model(profile.model)
        if spec is None:
            raise ValueError(f"unknown model {profile.model!r}")
        return spec
    text = (profile.model_text or "").strip()
    if text.lower().endswith(".json"):
        return params_mod.load_hf_config(text)
    if profile.params:
        return params_mod.spec_from_param_count(profile.params)
    if text:
        spec = kb.model(text)
        if spec is not None:
            return spec
    raise ValueError("the profile names no model and no parameter count")


def workload_from_profile(profile, kb) -> Workload:
    """A `Workload` from a `Profile` and the knowledge base.

    Model: `profile.model` via `kb.model`, else a config.json path in `model_text`, else a
    Llama-shaped stand-in for `profile.params`. Missing figures take the defaults above and are
    recorded in `assumptions` (key, value) for the report. Raises ValueError when no model is known.
    """
    from advisor.core import params as params_mod

    spec = _model_spec(profile, kb)
    shape = memory.shape_from_spec(spec)
    notes: list[tuple[str, str]] = []
    task = profile.task
    if task is None:
        task = DEFAULT_TASK
        notes.append(("task", DEFAULT_TASK))
    llm = spec.kind in ("decoder", "moe", "encoder", "seq2seq")
    seq = profile.seq_len
    if seq is None:
        seq = default_seq_len(task, spec.max_context)
        if llm and task != "inference":
            notes.append(("seq_len", str(seq)))
    epochs = profile.epochs or 1.0
    tokens = samples = None
    if task != "inference":
        if llm:
            if profile.tokens:
                tokens = profile.tokens * epochs
            elif profile.samples:
                tokens = profile.samples * seq * epochs
                notes.append(("tokens", f"{profile.samples} samples x {seq} tokens"))
            elif task == "pretrain":
                tokens = CHINCHILLA_TOKENS_PER_PARAM * shape.params * epochs
                notes.append(("tokens", f"{CHINCHILLA_TOKENS_PER_PARAM} per parameter (Chinchilla)"))
            else:
                tokens = DEFAULT_FINETUNE_SAMPLES * seq * epochs
                notes.append(("tokens", f"{DEFAULT_FINETUNE_SAMPLES} samples x {seq} tokens"))
        else:
            samples = (profile.samples or DEFAULT_IMAGES) * epochs
            if not profile.samples:
                notes.append(("samples", f"{DEFAULT_IMAGES:,} images"))
    micro_batch = 1 if llm or spec.kind == "moe" else DEFAULT_IMAGE_BATCH
    if not llm and task != "inference":
        notes.append(("micro_batch", str(micro_batch)))
    trainable = None
    if task in ("lora", "qlora"):
        try:
            params_mod.lora_trainable_params(spec, DEFAULT_LORA_RANK, DEFAULT_LORA_TARGETS)
        except ValueError:
            trainable = int(shape.params * 0.005)
            notes.append(("trainable_params", "0.5 % of the model (no transformer dimensions)"))
        notes.append(("lora", f"rank {DEFAULT_LORA_RANK} on q,k,v,o,gate,up,down"))
    context = profile.context_tokens or default_context(spec.max_context)
    if task == "inference" and not profile.context_tokens:
        notes.append(("context_tokens", str(context)))
    concurrency = profile.concurrency or DEFAULT_CONCURRENCY
    if task == "inference" and not profile.concurrency:
        notes.append(("concurrency", str(DEFAULT_CONCURRENCY)))
    weights_dtype = {"fp8-mixed": "fp8", "fp32": "fp32", "fp16-mixed": "fp16"}.get(profile.precision, "bf16")
    kv_dtype = None
    if task == "inference":
        # Serving precisions the user named (AWQ int4, fp8 KV cache, ...) override the precision's default.
        weights_dtype = profile.weights_dtype or weights_dtype
        kv_dtype = profile.kv_dtype
    if kv_dtype is None:
        kv_dtype = "fp8" if weights_dtype == "fp8" else "bf16"
    serving = task == "inference"  # a service's targets and request lengths; a training run has none
    return workload_for(
        spec,
        task=task,
        seq_len=int(seq),
        micro_batch=micro_batch,
        tokens=tokens,
        samples=samples,
        precision=profile.precision,
        concurrency=int(concurrency),
        context_tokens=int(context),
        weights_dtype=weights_dtype,
        kv_dtype=kv_dtype,
        pue=profile.pue,
        electricity_usd_per_kwh=profile.electricity_usd_per_kwh,
        trainable_params=trainable,
        assumptions=tuple(notes),
        horizon_days=profile.horizon_days,
        utilization=profile.utilization,
        runs=profile.runs,
        serving_precision_given=profile.weights_dtype is not None or profile.kv_dtype is not None,
        kv_dtype_given=profile.kv_dtype is not None,
        batch_tokens=(profile.tokens * epochs) if serving and profile.tokens else None,
        max_ttft_s=profile.max_ttft_s if serving else None,
        requests_per_second=profile.requests_per_second if serving else None,
        min_tokens_per_s_per_user=profile.min_tokens_per_s_per_user if serving else None,
        avg_context_tokens=profile.avg_context_tokens if serving else None,
        redundant=bool(profile.redundant) and serving and not profile.tokens,
    )


WEIGHT_DTYPES: tuple[str, ...] = tuple(memory.WEIGHT_BITS)
"""Serving weight formats the memory model knows (bf16, fp8, int4, GGUF quantizations, ...)."""
KV_DTYPES: tuple[str, ...] = tuple(memory.KV_BITS)

MAX_GPUS = {"pretrain": 16384, "finetune": 512, "lora": 128, "qlora": 64, "inference": 1024}
"""The largest configuration the sweep considers per task."""


def stack(name: str = "hf", **choices) -> memory.Stack:
    """The memory choices of a fine-tuning stack (`memory.Stack.preset`), for the calculator's flags."""
    return memory.Stack.preset(name, **choices)


def workload_for(
    spec,
    *,
    task: str,
    seq_len: int,
    micro_batch: int = 1,
    tokens: float | None = None,
    samples: float | None = None,
    precision: str = "bf16-mixed",
    optimizer: str = "adamw",
    attention: str = "sdpa",
    lora_rank: int = DEFAULT_LORA_RANK,
    lora_targets: frozenset[str] = DEFAULT_LORA_TARGETS,
    concurrency: int = 1,
    context_tokens: int = DEFAULT_CONTEXT,
    weights_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    offload: bool = False,
    pue: float = 1.4,
    electricity_usd_per_kwh: float = 0.12,
    trainable_params: int | None = None,
    assumptions: tuple[tuple[str, str], ...] = (),
    horizon_days: float | None = None,
    utilization: float | None = None,
    runs: int | None = None,
    serving_precision_given: bool = True,
    stack: memory.Stack | None = None,
    kv_dtype_given: bool = True,
    batch_tokens: float | None = None,
    max_ttft_s: float | None = None,
    requests_per_second: float | None = None,
    min_tokens_per_s_per_user: float | None = None,
    avg_context_tokens: int | None = None,
    redundant: bool = False,
) -> Workload:
    """A `Workload` with every choice given: what `workload_from_profile` builds for the advisor and
    `gpu-advisor estimate` builds from its flags. Trainable parameters follow the task (LoRA: the
    adapters, exact; inference: none) unless `trainable_params` is given. Raises ValueError for LoRA
    targets or a rank the model cannot take."""
    from advisor.core import params as params_mod

    shape = memory.shape_from_spec(spec)
    if trainable_params is None:
        if task in ("lora", "qlora"):
            trainable_params = params_mod.lora_trainable_params(spec, lora_rank, lora_targets)
        elif task == "inference":
            trainable_params = 0
        else:
            trainable_params = shape.params
    workload = Workload(
        task=task,
        model_id=spec.id,
        model_name=spec.name,
        shape=shape,
        params=shape.params,
        active_params=shape.active_params,
        trainable_params=int(trainable_params),
        tokens=tokens,
        samples=samples,
        seq_len=int(seq_len),
        micro_batch=micro_batch,
        precision=precision,
        optimizer=optimizer,
        attention=attention,
        lora_rank=lora_rank,
        lora_targets=frozenset(lora_targets),
        concurrency=int(concurrency),
        context_tokens=int(context_tokens),
        weights_dtype=weights_dtype,
        kv_dtype=kv_dtype,
        pue=pue,
        electricity_usd_per_kwh=electricity_usd_per_kwh,
        forward_flops_per_sample=getattr(spec, "forward_flops_per_sample", None),
        offload=offload,
        spec=spec,
        max_gpus=MAX_GPUS[task],
        assumptions=assumptions,
        horizon_days=horizon_days,
        utilization=utilization,
        runs=runs,
        serving_precision_given=serving_precision_given,
        stack=stack or memory.Stack(),
        kv_dtype_given=kv_dtype_given,
        batch_tokens=batch_tokens,
        max_ttft_s=max_ttft_s,
        requests_per_second=requests_per_second,
        min_tokens_per_s_per_user=min_tokens_per_s_per_user,
        avg_context_tokens=avg_context_tokens,
        redundant=redundant,
    )
    return workload


# ------------------------------------------------------------------------------------------------
# Sweep


COUNTS: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768,
                           1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384)
"""GPU counts the sweep considers: the counts a chassis is usually filled with (1, 2, 3, 4, 6, 8), then whole
servers in steps of about 1.5x (three 8-GPU servers in a 40 kW rack are a real option; 2^k alone skips them)."""


def _counts(limit: int) -> list[int]:
    return [n for n in COUNTS if n <= limit]


def _training_configs(w: Workload, count: int) -> list[tuple[str, int, int]]:
    """(strategy, tp, pp) worth evaluating at `count` GPUs (tp within one 8-GPU node)."""
    if count == 1:
        return [("single", 1, 1)]
    lora = w.task in ("lora", "qlora")
    configs: list[tuple[str, int, int]] = [("ddp", 1, 1)]
    if lora:
        configs.append(("zero3", 1, 1))  # FSDP/ZeRO-3 sharding of the frozen base (FSDP + QLoRA)
        return configs
    configs += [("zero2", 1, 1), ("zero3", 1, 1)]
    if not w.shape.is_transformer or w.shape.kind in ("vit", "cnn", "diffusion"):
        return configs
    for t in (2, 4, 8):
        if t <= count and count % t == 0 and t <= w.shape.heads and w.shape.heads % t == 0:
            configs.append((f"tp{t}", t, 1))
    if count >= 16:
        t = 8
        p = 2
        while t * p <= count and p <= max(1, w.shape.layers // 2) and p <= 64:
            if count % (t * p) == 0:
                configs.append((f"tp{t}-pp{p}", t, p))
            p *= 2
    return configs


class Variant(NamedTuple):
    """The levers of one training configuration: activation checkpointing, micro-batch per GPU (gradient
    accumulation reaches the global batch), optimizer, CPU offload of the model states, and a chunked loss
    (the LM head and cross-entropy computed a slice of the sequence at a time, so the fp32 logits of the whole
    sequence never exist at once: torchtune's CEWithChunkedOutputLoss)."""

    checkpointing: str
    micro_batch: int
    optimizer: str
    offload: bool
    precision: str | None = None  # a regime other than the workload's (image/diffusion: pure bf16), else None
    chunked_loss: bool = False


LLM_MICRO_BATCHES = (1, 4)
"""Micro-batches tried for language models: 1 (least memory) and 4 (amortises ZeRO-3's parameter gathers
over more tokens, as practitioners do on PCIe boxes)."""

IMAGE_MICRO_BATCHES = (32, 8, 1)
"""Micro-batches tried for vision and diffusion models, largest (fastest) first; 1 is what fits an
SDXL fine-tune on a 24 GB card."""

IMAGE_PURE_BF16 = "bf16"
"""The regime a full image/diffusion fine-tune falls back to when mixed precision does not fit: weights, gradients
and optimizer state in bf16, no fp32 master copy (kohya-ss sd-scripts `--full_bf16`, OneTrainer's bf16 weight data
type). With 8-bit AdamW and full checkpointing at batch 1 it is how the SDXL UNet is fully fine-tuned on a 24 GB
card (kohya-ss/sd-scripts README, "Tips for SDXL training": fine-tuning "can be done with 24GB GPU memory with the
batch size of 1")."""

IMAGE_FP8_BASE = "fp8-base"
"""The last lever of a diffusion LoRA: the frozen base stored in 8 bits (ostris/ai-toolkit's 24 GB FLUX.1 LoRA
example, config/examples/train_lora_flux_24gb.yaml: "quantize: true  # run 8bit mixed precision", batch 1, gradient
checkpointing, adamw8bit; kohya-ss sd-scripts `--fp8_base`). It is how a 12B FLUX.1-dev LoRA trains on a 24 GB card."""


def is_image(w: Workload) -> bool:
    """A vision or diffusion model (micro-batches of images, the image utilisation, the image levers)."""
    return not w.shape.is_transformer or w.shape.kind in compute.IMAGE_KINDS


def _checkpoint_order(w: Workload, megatron: bool) -> tuple[str, ...]:
    if megatron or w.attention == "eager":
        return ("none", "selective", "full")
    return ("none", "full")


def _variants(w: Workload, count: int, strategy: str, tp: int, pp: int) -> list[Variant]:
    """The levers worth trying for one configuration, lightest first: checkpointing and micro-batch, then for
    full training an 8-bit optimizer and (ZeRO-2/3 inside one server) CPU offload. The sweep keeps, per GPU,
    the fastest variant that fits."""
    image = is_image(w)
    batches: tuple[int, ...] = IMAGE_MICRO_BATCHES if image else LLM_MICRO_BATCHES
    dp = count // (tp * pp)
    budget = compute.GLOBAL_BATCH_TOKENS.get(w.task, 262_144)
    if not image:
        batches = tuple(b for b in batches if b == 1 or dp * b * w.seq_len <= budget)
    full = w.task in ("pretrain", "finetune")
    out = []
    for ckpt in _checkpoint_order(w, tp > 1 or pp > 1):
        for b in batches if ckpt != "selective" else batches[-1:]:
            out.append(Variant(ckpt, b, w.optimizer, False))
    lightest = min(batches)  # the levers of last resort go with the least activation memory
    optimizer = w.optimizer
    if image and w.task == "lora" and w.shape.kind == "diffusion":
        out.append(Variant("full", lightest, w.optimizer, False, IMAGE_FP8_BASE))
    if full and w.optimizer == "adamw":
        optimizer = "adamw-8bit"
        out.append(Variant("full", lightest, optimizer, False))
        if image and w.precision == "bf16-mixed":
            # the image levers' last step, at batch 1: pure bf16 with 8-bit AdamW (its run volumes equal the mixed
            # batch-1 variant's, so it is only taken when that one does not fit)
            out.append(Variant("full", lightest, optimizer, False, IMAGE_PURE_BF16))
    if not image and w.shape.vocab and not w.stack.chunked_loss and count <= 8:
        # the logits of a 128k vocabulary are GBs at micro-batch 1 (numeric-anchors.md §1.3: 6 bytes per logit);
        # within one server, where a card's last gigabytes decide (across servers the states are sharded thin)
        out.append(Variant("full", lightest, optimizer, False, chunked_loss=True))
    if full and w.optimizer == "adamw" and strategy in ("zero2", "zero3") and count <= 8:
        out.append(Variant("full", lightest, optimizer, True))
    return out


def _as_variant(w: Workload, checkpointing: str) -> Variant:
    """The workload's own choices (the calculator's flags) at `checkpointing`."""
    return Variant(checkpointing, w.micro_batch, w.optimizer, w.offload)


def _training_memory(w: Workload, count: int, strategy: str, tp: int, pp: int, v: Variant) -> memory.TrainingMemory:
    """Per-GPU memory of one training configuration (cached per workload). `strategy` is a ZeRO/DDP name,
    or a sweep label of a tensor/pipeline-parallel split ('tp4', 'tp8-pp2'): a Megatron-style stack."""
    key = ("mem", count, strategy, tp, pp, v)
    hit = w._cache.get(key)
    if hit is None:
        task, precision = w.task, v.precision or w.precision
        stack_kwargs = w.stack.training_kwargs(w.task, w.weights_dtype)
        if v.precision == IMAGE_FP8_BASE:  # a LoRA on an 8-bit frozen base: QLoRA's memory with an fp8 base
            task, precision = "qlora", w.precision
            stack_kwargs["base_dtype"] = "fp8"
        hit = memory.training_memory(
            w.shape,
            task=task,
            batch=v.micro_batch,
            seq=w.seq_len,
            count=count,
            strategy=strategy if strategy in memory.ZERO_STAGE else "megatron",
            tp=tp,
            pp=pp,
            checkpointing=v.checkpointing,
            attention=w.attention,
            precision=precision,
            optimizer=v.optimizer,
            lora_rank=w.lora_rank,
            lora_targets=w.lora_targets,
            trainable_params=w.trainable_params,
            offload=v.offload,
            **(stack_kwargs | ({"chunked_loss": True} if v.chunked_loss else {})),
        )
        w._cache[key] = hit
    return hit


def _gpu_consts(w: Workload, gpu) -> dict:
    key = ("gpu", gpu.id)
    hit = w._cache.get(key)
    if hit is None:
        cap = memory.usable_bytes(gpu.memory_gb)
        hit = {
            "cap": cap,
            "serve_cap": int(cap * memory.SERVING_MEMORY_FRACTION),
            "peak": compute.peak_flops(gpu, w.precision),
        }
        w._cache[key] = hit
    return hit


def sweep(workload: Workload, gpus: Iterable) -> list[CandidateMetrics]:
    """Every sensible GPU x count x strategy for the workload, with its numbers.

    Training: counts 1, 2, 4, ... up to `workload.max_gpus` (and the GPU's node size times 2^k);
    strategies single / ddp / zero2 / zero3 (LoRA: ddp, zero3) and, for transformers, tensor
    parallelism inside a node (tp2, tp4, tp8) and tp8 x pipeline stages from 16 GPUs up. For each,
    activation checkpointing is chosen automatically: none if that fits, else selective (Megatron or
    eager attention), else full; when nothing fits the candidate carries full checkpointing and
    fits=False.
    Inference: replicas of tp1/tp2/tp4/tp8 groups; counts double until the concurrency is served
    (then one more), up to `workload.max_gpus`.
    """
    gpus = list(gpus)
    if workload.is_training:
        return _sweep_training(workload, gpus)
    return _sweep_inference(workload, gpus)


def _config_record(w: Workload, count: int, strategy: str, tp: int, pp: int, v: Variant):
    """GPU-independent numbers of one configuration: (variant, memory terms, total, run volumes, host RAM),
    cached per workload."""
    key = ("cfg", count, strategy, tp, pp, v)
    hit = w._cache.get(key)
    if hit is None:
        mem = _training_memory(w, count, strategy, tp, pp, v)
        terms = MemoryTerms(
            int(mem.weights), int(mem.gradients), int(mem.optimizer), int(mem.activations), 0, int(mem.overhead)
        )
        vol = None
        shape = w.shape
        vkey = ("vol", count, strategy, tp, pp, v.checkpointing, v.micro_batch, v.offload, v.precision)
        if vkey in w._cache:  # the optimizer and the loss's chunking change memory, not the run's volumes
            vol = w._cache[vkey]
        elif w.tokens is not None and shape.is_transformer and shape.kind != "vit":
            vol = compute.training_volumes(
                shape,
                tokens=w.tokens,
                seq=w.seq_len,
                count=count,
                task=w.task,
                precision=w.precision,
                checkpointing=v.checkpointing,
                tp=tp,
                pp=pp,
                zero_stage=memory.ZERO_STAGE.get(strategy, 1),
                micro_batch=v.micro_batch,
                trainable_params=w.trainable_params,
                offload=v.offload,
            )
        elif w.samples is not None:
            fwd = w.forward_flops_per_sample
            if fwd is None and shape.kind == "vit" and shape.tokens_per_sample:
                n = shape.tokens_per_sample
                # 2·N per token for the weights + 4·L·n·h for scores and values (PaLM-style), per image
                fwd = 2.0 * shape.params * n + 4.0 * shape.layers * n * n * shape.hidden
            if fwd is not None:
                vol = compute.image_training_volumes(fwd, w.samples, kind=shape.kind, task=w.task,
                                                     checkpointing=v.checkpointing, micro_batch=v.micro_batch,
                                                     count=count, family=getattr(w.spec, "family", "unet"))
        w._cache[vkey] = vol
        hit = (v, terms, terms.total, vol, int(mem.host_ram))
        w._cache[key] = hit
    return hit


_FLEET: dict[tuple[int, int], tuple] = {}
"""(id of a GPU spec, count) -> (the spec, its power, servers, MFU range, capex, rent): figures of the catalogue
alone, the same for every workload, so kept across recommendations (what-ifs and "why not" re-ask them)."""

_FLEET_LIMIT = 20_000


def _fleet(gpu, count: int) -> tuple:
    """Power (IT W, one server's W, servers, average kW), MFU range, capex and rent of `count` GPUs of one
    model, cached across workloads (a spec's figures never change: `GpuSpec` is frozen)."""
    key = (id(gpu), count)
    hit = _FLEET.get(key)
    if hit is not None and hit[0] is gpu:
        return hit[1]
    it_w, node_w, nodes = power.configuration_power_w(gpu, count)
    avg_kw = power.average_power_w(it_w) / 1000.0
    value = (it_w, node_w, nodes, avg_kw, compute.mfu_range(gpu.architecture, nodes), cost.capex_usd(gpu, count),
             cost.rent_usd_per_hour(gpu, count))
    if len(_FLEET) >= _FLEET_LIMIT:  # specs made on the fly (tests, config files) must not grow it forever
        _FLEET.clear()
    _FLEET[key] = (gpu, value)  # the spec is held with its figures, so its id is not reused while cached
    return value


def _gpu_count_consts(w: Workload, gpu, count: int) -> tuple:
    """Power, MFU range, capex and rent of `count` GPUs of one model (workload-wide PUE and tariff), cached."""
    key = ("gc", id(gpu), count)
    hit = w._cache.get(key)
    if hit is not None and hit[0] is gpu:
        return hit[1]
    it_w, node_w, nodes, avg_kw, mfu, buy, rate = _fleet(gpu, count)
    if w.shape.kind in compute.IMAGE_KINDS:  # image and diffusion training: utilisation calibrated per architecture
        mfu = compute.image_mfu_range(w.shape.kind, gpu.architecture, nodes)
    be = None
    if buy is not None and rate is not None:
        be = cost.break_even_hours(buy.mid, rate.mid, avg_kw, w.electricity_usd_per_kwh, w.pue)
        be = None if math.isinf(be) else be
    value = (it_w, node_w, nodes, avg_kw, it_w * w.pue, mfu, buy, rate, be)
    w._cache[key] = (gpu, value)
    return value


def _training_plan(w: Workload) -> list[tuple[int, list]]:
    """Per count: (strategy, tp, pp, dp, records of its variants, lightest first) — GPU-independent, cached."""
    plan = w._cache.get("plan")
    if plan is None:
        plan = []
        for count in _counts(w.max_gpus):
            rows = []
            for strategy, tp, pp in _training_configs(w, count):
                recs = [_config_record(w, count, strategy, tp, pp, v) for v in _variants(w, count, strategy, tp, pp)]
                rows.append((strategy, tp, pp, count // (tp * pp), recs))
            plan.append((count, rows))
        w._cache["plan"] = plan
    return plan


def usage_utilization(w: Workload) -> float:
    """Share of the horizon the hardware works: what the user said, else around the clock for a service and
    `TRAINING_UTILIZATION` for training."""
    if w.utilization is not None:
        return w.utilization
    return TRAINING_UTILIZATION if w.is_training else 1.0


def usage_horizon_days(w: Workload) -> float | None:
    """The days the hardware is costed over: the user's horizon; else a year for a service, three years when
    only a schedule was given, and None for training (and offline batch jobs) with neither (this run, or the runs
    said, alone)."""
    if w.horizon_days is not None:
        return w.horizon_days
    if w.batch_tokens:
        return None  # an offline batch job is a run, like a training run: costed over its hours
    if not w.is_training:
        return float(SERVING_HORIZON_DAYS)
    return float(OWNERSHIP_HORIZON_DAYS) if w.utilization is not None and w.runs is None else None


REFERENCE_GPU_FLOPS = 312e12
"""The GPU-hour a schedule is counted in ("10 GPU-hours a week", or the default busy share): one A100's hour, the
unit published training reports count in (Llama 2: 3.3M A100-80GB hours, numeric-anchors.md GT-26), at its dense
BF16 peak (gpu-catalogue.md §2) and the expected Ampere MFU (`compute.mfu_range`)."""


_REFERENCE_HOURS_PER_FLOP = 1.0 / (REFERENCE_GPU_FLOPS * compute.mfu_range("ampere")[1] * 3600.0)


def reference_run_hours(run_flops: float) -> float:
    """Hours the run's FLOPs take on the reference GPU (`REFERENCE_GPU_FLOPS` at Ampere's expected MFU)."""
    return run_flops * _REFERENCE_HOURS_PER_FLOP


def _usage_hours(w: Workload, run_hours: float | None, ref_hours: float | None = None) -> float:
    """Hours the hardware works over the horizon: the runs planned (one when not said) when there is no
    horizon, else the horizon at the utilization (never less than the runs); a service, the horizon at its
    utilization (around the clock unless said).

    A training schedule is work, not wall-clock: with `ref_hours` (the run on the reference GPU,
    `reference_run_hours`) the schedule's hours are reference GPU-hours, and a configuration that runs the job
    in `run_hours` works `schedule x run_hours / ref_hours` hours — so a card three times slower is busy (and
    rented, and powered) three times as long for the same fine-tunes, and a slow cheap rental does not look
    cheaper than a fast one only because both were billed for the same hours."""
    usage = w._cache.get("usage")
    if usage is None:  # what depends on the workload alone, once (the sweep asks for every candidate)
        horizon = usage_horizon_days(w)
        usage = w._cache["usage"] = (
            w.is_training,
            24.0 * usage_utilization(w) * (horizon or SERVING_HORIZON_DAYS),  # a service
            w.runs or 1,  # runs planned
            horizon is None or w.runs is not None,  # the runs alone
            usage_utilization(w) * 24.0 * horizon if horizon is not None else None,  # the horizon at the utilization
        )
    training, serving_hours, runs_planned, runs_alone, horizon_hours = usage
    if not training:
        return serving_hours
    runs = max(run_hours or 0.0, RENT_MIN_HOURS) * runs_planned
    if runs_alone or horizon_hours is None:  # (no horizon: the runs alone)
        return runs
    if ref_hours and run_hours and usage_utilization(w) < AROUND_THE_CLOCK:
        horizon_hours *= run_hours / ref_hours
    return max(runs, horizon_hours)


AROUND_THE_CLOCK = 0.99
"""A training schedule at or above this share ("back to back for three years", "24/7") keeps whatever is bought
busy the whole horizon: its hours are the configuration's wall clock, not an amount of work in reference GPU-hours
(run after run, as many as fit), so renting the same configuration costs the horizon's hours."""


def _training_metrics(
    w: Workload,
    gpu,
    count: int,
    strategy: str,
    tp: int,
    pp: int,
    dp: int,
    rec: tuple,
    cap: int,
    links: dict[int, tuple[float, float]],
) -> CandidateMetrics:
    """The numbers of one training configuration on one GPU model: memory (from `rec`, the cached
    configuration record), time from the run's volumes, power and money over the usage. The sweep and
    `evaluate_training` both come here, so the calculator and the advisor agree to the byte."""
    link = links.get(tp)
    if link is None:
        link = links[tp] = compute.gpu_links(gpu, count, tp)
    gc = _gpu_count_consts(w, gpu, count)
    rates = _rates(gpu, count, tp, _gpu_consts(w, gpu)["peak"], gc[5], link)
    return _metrics_of(w, gpu, count, strategy, tp, pp, dp, rec, cap, gc, _money(gc), rates)


def _rates(gpu, count: int, tp: int, peak: float, mfu: tuple, link: tuple[float, float]) -> tuple:
    """What `compute.time_range_from` takes besides the volumes, once per (GPU, count, tensor-parallel width):
    (peak FLOP/s of all the GPUs, MFU range, TP and DP link bytes/s achieved, HBM bytes/s achieved)."""
    return (count * peak, mfu, link[0] * compute.LINK_EFFICIENCY, link[1] * compute.LINK_EFFICIENCY,
            gpu.bandwidth_tbps * 1e12 * compute.DECODE_BANDWIDTH_EFFICIENCY)


def _money(gc: tuple) -> tuple:
    """(capex mid, low, high; rate mid, low, high) of one (GPU, count) from `_gpu_count_consts`, None where
    no price is known."""
    buy, rate = gc[6], gc[7]
    buy_t = (buy.mid, buy.low, buy.high) if buy else (None, None, None)
    rate_t = (rate.mid, rate.low, rate.high) if rate else (None, None, None)
    return buy_t + rate_t


def _metrics_of(w: Workload, gpu, count: int, strategy: str, tp: int, pp: int, dp: int, rec: tuple, cap: int,
                gc: tuple, money: tuple, rates: tuple) -> CandidateMetrics:
    """`_training_metrics` with the per-(GPU, count) constants `gc` (`_gpu_count_consts`) and `money`
    (`_money`), and `rates` (`_rates`) already worked out: the sweep hoists them out of its loops."""
    v, terms, total, vol, host_ram = rec
    it_w, node_w, nodes, avg_kw, facility, mfu, _buy, rate, be = gc
    buy_mid, buy_lo, buy_hi, rate_mid, rate_lo, rate_hi = money
    crosses = tp > 1 and not gpu.nvlink
    mid_s = low_s = high_s = None
    if vol is not None:
        low_s, mid_s, high_s = compute.time_range_from(vol, *rates)
    hours = _usage_hours(w, mid_s / 3600.0 if mid_s is not None else None,
                         vol.flops * _REFERENCE_HOURS_PER_FLOP if vol is not None else None)
    kwh = avg_kw * hours * w.pue if mid_s is not None or not w.is_training else None
    if rate is not None and (mid_s is not None or not w.is_training):
        rent_mid, rent_lo, rent_hi = rate_mid * hours, rate_lo * hours, rate_hi * hours
    else:
        rent_mid = rent_lo = rent_hi = None
    return _new_metrics(
        gpu.id, count, nodes, strategy, tp, pp, dp, v.checkpointing, terms, cap, total <= cap, cap - total,
        mid_s, low_s, high_s, mfu[1] if mid_s is not None else None, None, None, it_w, facility, node_w, kwh,
        buy_mid, rate_mid, rent_mid, kwh * w.electricity_usd_per_kwh if kwh is not None else None, crosses,
        buy_lo, buy_hi, rent_lo, rent_hi, None, host_ram, be,
        rate_lo, rate_hi, avg_kw * 1000.0,
        v.micro_batch, v.optimizer, v.offload, None, None, hours, v.precision, v.chunked_loss,
    )


HOST_RAM_BYTES_SERVER = 1 << 40
HOST_RAM_BYTES_WORKSTATION = 256 << 30
"""CPU memory an offload plan may ask of one node: 1 TiB in a GPU server, 256 GiB in a workstation (our
assumption: common configurations; two-socket servers take 2 TB and more at a price)."""

HEAVIER_VARIANT_GAIN = 0.1
"""A variant that needs more memory (a bigger micro-batch, no checkpointing) is taken only when it is at least
this much faster than the lighter one: the plan a user reads should not fill 70 GB for a 3 % gain."""


def _same_volumes(recs: list) -> tuple[int, ...]:
    """Per variant, the index of an earlier variant of the same configuration with equal run volumes (so the
    same seconds on every GPU: the 8-bit optimizer changes memory, not time), else -1."""
    out = []
    for i, rec in enumerate(recs):
        vol = rec[3]
        out.append(next((j for j in range(i) if vol is not None and recs[j][3] == vol), -1))
    return tuple(out)


def _fit_plan(recs: list, same: tuple[int, ...], cap: int, host_limit: int) -> tuple:
    """What choosing a variant comes to on a GPU of `cap` usable bytes in a host of `host_limit` bytes of RAM:
    (the variant when no timing decides, else None; the variants to time, in order; the variant taken when
    none fits). The search takes the fastest variant that fits, a heavier one only when it is
    `HEAVIER_VARIANT_GAIN` faster than the best before it; the first fitting variant without run volumes is
    taken as it is. A variant whose volumes equal an earlier fitting one's is not timed: equal seconds never
    beat the best by the gain, so it could not be picked. When none fits: the one that needs least GPU memory
    within the host's RAM."""
    timed = [False] * len(recs)
    to_time = []
    for i, rec in enumerate(recs):
        if rec[2] > cap or rec[4] > host_limit:
            continue
        if rec[3] is None:
            return rec, (), rec
        timed[i] = True
        j = same[i]
        if j < 0 or not timed[j]:
            to_time.append(rec)
    feasible = [r for r in recs if r[4] <= host_limit] or recs
    return None, tuple(to_time), min(feasible, key=lambda r: r[2])


def _search_plan(w: Workload) -> list[tuple[int, list]]:
    """`_training_plan` with, per configuration, `_same_volumes` of its variants and a cache of `_fit_plan`s
    by (GPU capacity, host RAM): GPUs of one memory size choose among the same variants (cached per workload)."""
    plan = w._cache.get("search")
    if plan is None:
        plan = w._cache["search"] = [
            (count, [(strategy, tp, pp, dp, recs, _same_volumes(recs), {}) for strategy, tp, pp, dp, recs in rows])
            for count, rows in _training_plan(w)
        ]
    return plan


def _sweep_training(w: Workload, gpus: list) -> list[CandidateMetrics]:
    out: list[CandidateMetrics] = []
    append = out.append
    plan = _search_plan(w)
    expected = compute.time_expected_from
    keep = 1.0 - HEAVIER_VARIANT_GAIN
    for gpu in gpus:
        consts = _gpu_consts(w, gpu)
        cap, peak = consts["cap"], consts["peak"]
        per_node = max(1, gpu.max_per_node)
        host_limit = HOST_RAM_BYTES_SERVER if gpu.segment != "consumer" else HOST_RAM_BYTES_WORKSTATION
        fit_key = (cap, host_limit)
        for count, rows in plan:
            gc = _gpu_count_consts(w, gpu, count)
            money = _money(gc)
            by_tp: dict[int, tuple] = {}
            for strategy, tp, pp, dp, recs, same, fits in rows:
                if tp > per_node:
                    continue
                fit = fits.get(fit_key)
                if fit is None:
                    fit = fits[fit_key] = _fit_plan(recs, same, cap, host_limit)
                rates = by_tp.get(tp)
                if rates is None:
                    rates = by_tp[tp] = _rates(gpu, count, tp, peak, gc[5], compute.gpu_links(gpu, count, tp))
                rec, to_time, fallback = fit
                if rec is None:
                    flops_per_s, mfu, tp_rate, dp_rate, hbm_rate = rates
                    mfu_mid = mfu[1]
                    best_s = math.inf
                    for r in to_time:
                        seconds = expected(r[3], flops_per_s, mfu_mid, tp_rate, dp_rate, hbm_rate)
                        if seconds < best_s * keep:
                            rec, best_s = r, seconds
                    if rec is None:
                        rec = fallback
                append(_metrics_of(w, gpu, count, strategy, tp, pp, dp, rec, cap, gc, money, rates))
    return out


def _inference_tp(w: Workload, tp: int, wdt: str, kvdt: str) -> tuple:
    """GPU-independent serving numbers of a tp-way replica with weights in `wdt` and the KV cache in `kvdt`:
    (memory at one sequence, KV bytes of the longest sequence, KV bytes per token on the whole replica, fixed bytes
    per GPU, KV bytes of an average sequence), cached."""
    key = ("inf", tp, wdt, kvdt)
    hit = w._cache.get(key)
    if hit is None:
        shape = w.shape
        base = memory.inference_memory(
            shape, context=w.context_tokens, concurrency=1, weights_dtype=wdt, kv_dtype=kvdt, tp=tp
        )
        kv_seq = memory.kv_cache_bytes(shape, w.context_tokens, 1, kvdt, tp) if shape.generates else 0.0
        kv_tok = memory.kv_bytes_per_token(shape, kvdt, tp=1) if shape.generates else 0.0
        typical = w.typical_context
        kv_avg = (memory.kv_cache_bytes(shape, typical, 1, kvdt, tp) if typical != w.context_tokens else kv_seq
                  ) if shape.generates else 0.0
        hit = (base, kv_seq, kv_tok, base.fixed, kv_avg)
        w._cache[key] = hit
    return hit


def _serving_precisions(w: Workload, gpu) -> list[tuple[str, str]]:
    """(weights, KV cache) formats tried, most faithful first: what the user named, else 16-bit; then an 8-bit
    KV cache (vLLM/TensorRT-LLM store it in FP8 on Ampere and later); then FP8 weights where the GPU has FP8
    tensor cores. 4-bit weights change the model's quality and stay a named alternative. Formats the user named
    are kept; when they named the weights only ("4-bit is fine"), an 8-bit KV cache is still tried (llama.cpp's
    q8_0 cache, vLLM's FP8 cache: the lever that makes 70B at 4 bits fit two 24 GB cards)."""
    modern = gpu.architecture not in ("volta", "turing")
    if w.serving_precision_given:
        given = [(w.weights_dtype, w.kv_dtype)]
        if not w.kv_dtype_given and modern and w.kv_dtype in ("bf16", "fp16"):
            given.append((w.weights_dtype, "fp8"))
        return given
    out = [(w.weights_dtype, w.kv_dtype)]
    if modern and w.kv_dtype in ("bf16", "fp16"):
        out.append((w.weights_dtype, "fp8"))
    if gpu.fp8_tflops and w.weights_dtype in ("bf16", "fp16"):
        out.append(("fp8", "fp8"))
    return out


PIPELINE_STAGES = (2, 4)
"""Servers one serving replica may span when the model fills more than half of a whole server (tensor parallel
inside each, pipeline parallel across them, as vLLM and SGLang serve DeepSeek-V3 on two 8 x H20/H800 nodes or
Llama 3.1 405B in 16-bit on two 8 x H100 nodes): one server would leave too little room for the KV cache."""
PIPELINE_HOP_S = 30e-6
"""One pipeline hop between servers per decode step (a small activation over InfiniBand/RoCE: latency-bound)."""


def _prompt_tokens(w: Workload) -> int:
    """Tokens one request puts through the model before its answer: an image's patches for a ViT (197 at 224 x 224
    and 16-pixel patches), else the context."""
    shape = w.shape
    return shape.tokens_per_sample if shape.kind == "vit" and shape.tokens_per_sample else w.context_tokens


def _inference_option(w: Workload, gpu, tp: int, wdt: str | None = None, kvdt: str | None = None,
                      pp: int = 1) -> tuple:
    """A replica of one GPU model in one serving precision, tp-way tensor parallel inside a server and `pp`
    pipeline stages across servers: memory constants, most sequences per replica, time to first token and decode
    constants (cached per workload). The tuple starts with the replica's width (tp x pp GPUs) and ends with pp.

    Pipeline stages hold 1/pp of the layers: of the weights and of every sequence's KV cache. A prompt passes
    the stages one after the other (first token as on one tp group, plus the hops); decode keeps every stage
    busy with micro-batches in flight, so throughput counts the bandwidth and compute of all tp x pp GPUs."""
    wdt, kvdt = wdt or w.weights_dtype, kvdt or w.kv_dtype
    key = ("opt", id(gpu), tp, wdt, kvdt, pp)
    hit = w._cache.get(key)
    if hit is not None and hit[0] is gpu:
        return hit[1]
    shape = w.shape
    cap = _gpu_consts(w, gpu)["serve_cap"]
    base, kv_seq, kv_tok, fixed, kv_avg = _inference_tp(w, tp, wdt, kvdt)
    if pp > 1:
        base = base._replace(weights=base.weights / pp, kv_cache=base.kv_cache / pp)
        kv_seq, kv_avg, fixed = kv_seq / pp, kv_avg / pp, base.fixed
    room = cap - fixed
    per_seq = kv_seq * (1 + memory.ALLOCATOR_MARGIN)
    if room <= 0 or room < per_seq:
        max_seq = 0
    elif per_seq <= 0:
        max_seq = w.concurrency
    else:  # paged attention holds what each sequence uses: the longest one, the others at the average
        max_seq = 1 + int((room - per_seq) // (kv_avg * (1 + memory.ALLOCATOR_MARGIN)))
    ttft = (
        # FP8 weights on FP8 tensor cores (vLLM's W8A8): the prompt at the FP8 rate
        compute.prefill_seconds(shape, gpu, tokens=_prompt_tokens(w), tp=tp,
                                precision="fp8" if wdt == "fp8" else "bf16")
        + (pp - 1) * PIPELINE_HOP_S
        if max_seq and shape.is_transformer
        else None
    )
    dk = compute.decode_constants(
        shape, gpu, weights_bytes=memory.shape_weight_bytes(shape, wdt), kv_bytes_per_token=kv_tok, tp=tp
    )
    if pp > 1:  # every stage busy: the bandwidth and compute of all tp x pp GPUs, plus a hop per stage boundary
        weights_b, active, share, kv_b, mem_rate, per_seq_s, comm_fixed, comm_per_seq = dk
        dk = (weights_b, active, share, kv_b, mem_rate * pp, per_seq_s / pp,
              comm_fixed + (pp - 1) * PIPELINE_HOP_S, comm_per_seq)
    value = (tp * pp, base, kv_seq, kv_tok, fixed, max_seq, ttft, dk, wdt, kvdt, pp, kv_avg)
    w._cache[key] = (gpu, value)
    return value


def serving_replicas(replicas: int, redundant: bool) -> int:
    """The replicas that carry the peak: all of them, or all but one when the service must survive the loss of one
    (N+1: a card or a server down, the others still serve every user)."""
    return replicas - 1 if redundant else replicas


def _inference_metrics(w: Workload, gpu, count: int, option: tuple) -> CandidateMetrics:
    """The numbers of `count` GPUs serving as replicas of one tp-way `option`: memory per GPU at the
    sequences each replica holds, decode throughput, power, money over the usage. The sweep and
    `evaluate_inference` both come here."""
    shape = w.shape
    cap = _gpu_consts(w, gpu)["serve_cap"]
    width, base, kv_seq, _kv_tok, fixed, max_seq, ttft, dk, wdt, kvdt, pp, _kv_avg = option
    tp = width // pp
    it_w, node_w, nodes, avg_kw, facility, _mfu, buy, rate, be = _gpu_count_consts(w, gpu, count)
    batch_s = _batch_seconds(w, gpu, wdt, count) if w.batch_tokens else None
    if batch_s is not None:  # an offline batch job is a run: billed for its hours (each run planned), not a year
        hours = max(batch_s / 3600.0, RENT_MIN_HOURS) * (w.runs or 1)
    else:
        hours = _usage_hours(w, None)
    kwh = avg_kw * hours * w.pue
    buy_mid, buy_lo, buy_hi = (buy.mid, buy.low, buy.high) if buy else (None, None, None)
    if rate is not None:
        rate_mid, rent_mid, rent_lo, rent_hi = rate.mid, rate.mid * hours, rate.low * hours, rate.high * hours
    else:
        rate_mid = rent_mid = rent_lo = rent_hi = None
    replicas = count // width
    active = max(1, serving_replicas(replicas, w.redundant))  # the replicas the peak falls on
    batch = -(-w.concurrency // active)  # sequences per replica
    terms = _serving_terms(w, option, batch)
    total = terms.total
    if not shape.generates or batch_s is not None:
        tps = None  # encoders, ViTs, CNNs: no token-by-token decode; a batch job is timed by its prefill
    elif max_seq > 0:
        eff_batch = batch if batch < max_seq else max_seq
        tps = active * eff_batch / compute.decode_step_from(dk, w.typical_context, eff_batch)
    else:
        tps = 0.0
    return _new_metrics(
        gpu.id,
        count,
        nodes,
        ("single" if count == 1 else "replicas" if tp == 1 else f"tp{tp}") + (f"-pp{pp}" if pp > 1 else ""),
        tp,
        pp,
        replicas,
        "none",
        terms,
        cap,
        total <= cap,
        cap - total,
        batch_s,
        batch_s,
        batch_s,
        None,
        tps,
        max_seq * active if shape.generates else None,
        it_w,
        facility,
        node_w,
        kwh,
        buy_mid,
        rate_mid,
        rent_mid,
        kwh * w.electricity_usd_per_kwh,
        tp > 1 and not gpu.nvlink,
        buy_lo,
        buy_hi,
        rent_lo,
        rent_hi,
        ttft,
        0,
        be,
        rate.low if rate else None,
        rate.high if rate else None,
        avg_kw * 1000.0,
        1,
        "adamw",
        False,
        wdt,
        kvdt,
        hours,
        None,
        False,
    )


BATCH_MAX_GPUS = 64
"""An offline batch job is swept up to this many GPUs (its cost hardly depends on the count; its time does)."""


def _batch_seconds(w: Workload, gpu, weights_dtype: str, count: int) -> float:
    """An offline batch job on `count` GPUs: its prompts prefilled at the compute rate (`compute.prefill_seconds`,
    one context-length document at a time, causal attention included) — a job of 25B prompt tokens with a few
    output tokens each is bound by FLOPs, not by decode bandwidth (numeric-anchors.md §1.5). FP8 weights run at the
    FP8 tensor rate where the GPU has one; other formats at the 16-bit rate (weight-only quantisation dequantises
    to 16 bits for the matmuls). Output tokens are not counted."""
    key = ("batch", id(gpu), weights_dtype)
    hit = w._cache.get(key)
    if hit is None or hit[0] is not gpu:
        precision = "fp8" if weights_dtype == "fp8" else ("fp16" if weights_dtype == "fp16" else "bf16")
        docs = (w.batch_tokens or 0.0) / max(1, w.context_tokens)
        per_doc = compute.prefill_seconds(w.shape, gpu, tokens=w.context_tokens, precision=precision)
        hit = w._cache[key] = (gpu, docs * per_doc)
    return hit[1] / count


def _serving_terms(w: Workload, option: tuple, batch: int) -> MemoryTerms:
    """Memory per GPU of a replica of `option` (`_inference_option`) holding `batch` sequences, cached."""
    width, base, kv_seq, _kv_tok, fixed = option[:5]
    wdt, kvdt, pp, kv_avg = option[8:12]
    key = ("terms", width, pp, batch, wdt, kvdt)
    terms = w._cache.get(key)
    if terms is None:
        kv_b = kv_seq + kv_avg * (batch - 1) if batch > 0 else 0.0  # the longest sequence, the others at the average
        terms = w._cache[key] = MemoryTerms(
            int(base.weights), 0, 0, 0, int(kv_b), int(fixed - base.weights + memory.ALLOCATOR_MARGIN * kv_b)
        )
    return terms


def _sweep_inference(w: Workload, gpus: list) -> list[CandidateMetrics]:
    out: list[CandidateMetrics] = []
    heads = w.shape.heads if w.shape.is_transformer else 8
    counts = _counts(w.max_gpus)
    for gpu in gpus:
        widths = [tp for tp in (1, 2, 4, 8) if tp <= max(1, gpu.max_per_node) and tp <= heads and heads % tp == 0]
        precisions = _serving_precisions(w, gpu)
        ladders = {tp: [_inference_option(w, gpu, tp, wdt, kvdt) for wdt, kvdt in precisions] for tp in widths}
        widest = max(widths)
        cap = _gpu_consts(w, gpu)["serve_cap"]
        if widest >= 4 and w.shape.layers >= 8 and min(option[4] for option in ladders[widest]) > 0.5 * cap:
            # the model fills more than half of a whole server: replicas may span servers (pipeline stages
            # across them), which leaves room for the KV cache that one server cannot hold
            for pp in PIPELINE_STAGES:
                ladders[widest * pp] = [_inference_option(w, gpu, widest, wdt, kvdt, pp) for wdt, kvdt in precisions]
                widths.append(widest * pp)
        served_at, buyable = None, False
        for i, count in enumerate(counts):
            if w.batch_tokens:
                if count > BATCH_MAX_GPUS:
                    break  # a batch job: every count a deadline may need, within reason
            elif served_at is not None and i > served_at + 1 and buyable:
                break  # one count past the first that serves everyone (and a whole baseboard of SXM parts)
            for width in widths:  # GPUs per replica: tp, or tp x pp across servers
                if width > count or count % width or (w.redundant and count // width < 2):
                    continue  # N+1 needs a second replica
                m = _serving_pick(w, gpu, count, ladders[width])
                out.append(m)
                if m.fits and served_at is None:
                    served_at = i
            buyable = buyable or (served_at is not None and cost.sold_in(gpu, count))
    return out




def _serving_pick(w: Workload, gpu, count: int, ladder: list[tuple]) -> CandidateMetrics:
    """The most faithful serving precision that holds every sequence with `TIGHT_HEADROOM` to spare; else the
    most faithful that holds them at all; when none does, the lightest. (Whether an option fits and holds every
    sequence is decided on its cached memory terms, as `_inference_metrics` decides it, so only the chosen
    option's numbers are built.) An expert serves with an FP8 KV cache and 40 % of the card free rather than a
    16-bit cache and 0.5 GiB free.

    Service targets the user stated (first token within, a peak request rate, tokens/s per user) come first: a
    format that meets them is taken before a more faithful one that misses them — FP8 weights read a prompt at
    twice the 16-bit rate, so 4 x RTX PRO 6000 meets "first token within 2 s" for a 16k prompt on a 72B model in
    FP8 where the same cards in BF16 take 2.25 s."""
    cap = _gpu_consts(w, gpu)["serve_cap"]
    roomy = cap * (1.0 - TIGHT_HEADROOM)
    generates = w.shape.generates
    if w.batch_tokens:  # a batch job: the fastest format of the ladder (FP8 on FP8 tensor cores), not the most faithful
        ladder = sorted(ladder, key=lambda option: _batch_seconds(w, gpu, option[8], 1))
    targets = bool(w.max_ttft_s or w.requests_per_second or w.min_tokens_per_s_per_user)
    ranked: list[tuple[int, int, int]] = []  # (misses a target, tight, position in the ladder): the least wins
    for i, option in enumerate(ladder):
        replicas = max(1, serving_replicas(count // option[0], w.redundant))
        if generates and option[5] * replicas < w.concurrency:
            continue
        total = _serving_terms(w, option, -(-w.concurrency // replicas)).total
        if total > cap:
            continue
        tight = int(total > roomy)
        if not targets:
            if not tight:
                return _inference_metrics(w, gpu, count, option)
            ranked.append((0, tight, i))
            continue
        m = _inference_metrics(w, gpu, count, option)
        misses = int(not meets_targets(w, m))
        if not misses and not tight:
            return m
        ranked.append((misses, tight, i))
    chosen = ladder[min(ranked)[2]] if ranked else ladder[-1]
    return _inference_metrics(w, gpu, count, chosen)


RPS_UTILIZATION = 0.7
"""The share of its prompt-processing capacity a service may be planned to use at peak: a queue of requests each
needing the whole replica for one prompt's prefill waits little below ~70 % load and long above it (M/D/1); a
blind expert kept "utilisation <= ~60-70 % for queueing" (blind11-12)."""


def max_requests_per_s(m: CandidateMetrics, prompt_share: float = 1.0, redundant: bool = False) -> float | None:
    """Serving: the requests per second the configuration takes at peak — each replica reads one prompt at a time,
    compute-bound (`ttft_s` for the longest; `prompt_share` of it for the average request), at `RPS_UTILIZATION`
    of that capacity; with N+1, on all replicas but one. None when there is no prompt time."""
    if not m.ttft_s or m.ttft_s <= 0:
        return None
    return max(1, serving_replicas(m.dp, redundant)) / (m.ttft_s * prompt_share) * RPS_UTILIZATION


def prompt_share(avg_context: int | None, context: int | None) -> float:
    """The average request's share of the longest one (1 when no average was said): what a request costs a replica
    in prefill against the first-token time of the longest prompt (linear in the tokens, the attention term aside)."""
    if not avg_context or not context or avg_context >= context:
        return 1.0
    return avg_context / context


def meets_targets(w: Workload, m: CandidateMetrics) -> bool:
    """Whether a serving configuration meets the targets the user stated (`Workload.max_ttft_s`,
    `requests_per_second`, `min_tokens_per_s_per_user`); the rules reject the ones that do not."""
    if w.max_ttft_s and m.ttft_s is not None and m.ttft_s > w.max_ttft_s:
        return False
    share = prompt_share(w.avg_context_tokens, w.context_tokens)
    if w.requests_per_second and (most := max_requests_per_s(m, share, w.redundant)) is not None \
            and most < w.requests_per_second:
        return False
    users = max(1, w.concurrency)
    return not (w.min_tokens_per_s_per_user and m.tokens_per_s is not None
                and m.tokens_per_s / users < w.min_tokens_per_s_per_user)


# ------------------------------------------------------------------------------------------------
# One configuration, evaluated: what `gpu-advisor estimate` prints (the same functions the sweep uses)


class TrainingEvaluation(NamedTuple):
    """One training configuration: memory in detail, the run's volumes, and — with a GPU — its metrics."""

    memory: memory.TrainingMemory
    volumes: compute.TrainingVolumes | None
    metrics: CandidateMetrics | None
    activation_model: str  # hf | megatron | per-sample: which activation model counted the bytes


class InferenceEvaluation(NamedTuple):
    """One serving configuration: memory in detail and — with a GPU — its metrics and serving figures."""

    memory: memory.InferenceMemory
    kv_bytes_per_token: float
    metrics: CandidateMetrics | None
    max_sequences_per_replica: int | None
    max_context_tokens: int | None
    decode_s_per_token: float | None


def evaluate_training(
    w: Workload, count: int, strategy: str, tp: int = 1, pp: int = 1, checkpointing: str = "none", gpu=None
) -> TrainingEvaluation:
    """One training configuration of `w` (raises ValueError for an impossible split)."""
    v = _as_variant(w, checkpointing)
    mem = _training_memory(w, count, strategy, tp, pp, v)
    rec = _config_record(w, count, strategy, tp, pp, v)
    metrics = None
    if gpu is not None:
        cap = _gpu_consts(w, gpu)["cap"]
        metrics = _training_metrics(w, gpu, count, strategy, tp, pp, count // (tp * pp), rec, cap, {})
    return TrainingEvaluation(mem, rec[3], metrics, memory.activation_model(w.shape, tp, pp))


def evaluate_inference(w: Workload, count: int, tp: int = 1, gpu=None) -> InferenceEvaluation:
    """One serving configuration of `w`: `count` GPUs as tp-way replicas (raises ValueError when tp
    does not divide count)."""
    if tp < 1 or count % tp:
        raise ValueError(f"{count} GPUs cannot be split into tensor-parallel groups of {tp}")
    shape = w.shape
    replicas = count // tp
    per_replica = -(-w.concurrency // replicas)
    mem = memory.inference_memory(
        shape,
        context=w.context_tokens,
        concurrency=per_replica,
        weights_dtype=w.weights_dtype,
        kv_dtype=w.kv_dtype,
        tp=tp,
        engine=w.stack.engine,
        prompt_tokens=w.stack.prompt_tokens,
    )
    kv_tok = memory.kv_bytes_per_token(shape, w.kv_dtype) if shape.generates else 0.0
    if gpu is None:
        return InferenceEvaluation(mem, kv_tok, None, None, None, None)
    option = _inference_option(w, gpu, tp)
    metrics = _inference_metrics(w, gpu, count, option)
    cap = metrics.capacity_bytes
    max_seq = option[5] if shape.generates else 0
    longest = (memory.max_context(shape, cap, concurrency=per_replica, weights_dtype=w.weights_dtype,
                                  kv_dtype=w.kv_dtype, tp=tp) if shape.generates else 0)
    step = None
    if shape.generates and max_seq > 0:
        step = compute.decode_step_from(option[7], w.typical_context, min(per_replica, max_seq))
    return InferenceEvaluation(mem, kv_tok, metrics, max_seq, longest, step)


# ------------------------------------------------------------------------------------------------
# The change that makes a configuration fit


class Fix(NamedTuple):
    """A change to a configuration that makes it fit: its kind, the settings it changes, and the
    memory per GPU it leads to (None when it cannot be sized on memory alone)."""

    change: (
        str  # checkpointing | zero | more_gpus | lora | qlora | larger_gpu | kv_dtype | weights_dtype | fewer_sequences
    )
    settings: dict  # the settings that change: checkpointing, strategy, count, task, gpu, tp, kv_dtype, ...
    total_bytes: int | None


CHECKPOINTING = ("none", "selective", "full")


def training_fixes(
    w: Workload, gpu, count: int, strategy: str, tp: int, pp: int, checkpointing: str, catalogue: Iterable = ()
) -> list[Fix]:
    """Changes that make a training configuration fit on `gpu`, least disruptive first, one per kind:
    checkpointing; a ZeRO stage (several GPUs); more GPUs with ZeRO-3 for the same task; LoRA, then
    QLoRA (another method: after more GPUs for full training, before them for LoRA); the smallest card
    of `catalogue` that holds it as it is (bf16 runs only on cards with bf16)."""
    cap = _gpu_consts(w, gpu)["cap"]
    megatron = tp > 1 or pp > 1
    lora_task = w.task in ("lora", "qlora")
    tries: list[tuple[str, dict]] = []
    order = ["selective", "full"] if (megatron or w.attention == "eager") else ["full"]
    for ck in order:
        if CHECKPOINTING.index(ck) > CHECKPOINTING.index(checkpointing):
            tries.append(("checkpointing", {"checkpointing": ck}))
    if count > 1 and not megatron:
        for st in ("zero2", "zero3"):
            if memory.ZERO_STAGE.get(strategy, 0) < memory.ZERO_STAGE[st]:
                tries.append(("zero", {"strategy": st}))
                tries.append(("zero", {"strategy": st, "checkpointing": "full"}))
    methods: list[tuple[str, dict]] = []
    if w.task in ("finetune", "pretrain"):
        methods.append(("lora", {"task": "lora", "checkpointing": "full"}))
    if w.task in ("finetune", "pretrain", "lora"):
        methods.append(("qlora", {"task": "qlora", "checkpointing": "full"}))
    more: list[tuple[str, dict]] = []
    if not megatron:
        n = max(2, count * 2)
        while n <= 1024:
            more.append(("more_gpus", {"count": n, "strategy": "zero3", "checkpointing": "full"}))
            n *= 2
    tries += (methods + more) if lora_task else (more + methods)
    found: list[Fix] = []
    for kind, change in tries:
        if any(f.change == kind for f in found):
            continue
        total = _fix_total(w, count, strategy, tp, pp, checkpointing, change)
        if total is not None and total <= cap:
            found.append(Fix(kind, change, int(total)))
    current = _training_memory(w, count, strategy, tp, pp, _as_variant(w, checkpointing)).total
    bf16 = w.precision in ("bf16-mixed", "bf16")
    larger = [g for g in catalogue if memory.usable_bytes(g.memory_gb) >= current and (g.bf16_tflops or not bf16)]
    if larger:
        best = min(larger, key=lambda g: g.memory_gb)
        found.append(Fix("larger_gpu", {"gpu": best.id}, int(current)))
    return found


def _fix_total(
    w: Workload, count: int, strategy: str, tp: int, pp: int, checkpointing: str, change: dict
) -> float | None:
    """Memory per GPU after `change` (a task change keeps the user's LoRA targets, or takes the default)."""
    target = w
    if "task" in change:
        task = change["task"]
        targets = w.lora_targets if w.task in ("lora", "qlora") else DEFAULT_LORA_TARGETS
        try:
            trainable = _lora_params(w, targets)
        except ValueError:
            return None
        target = _replace(w, task=task, lora_targets=targets, trainable_params=trainable, offload=False)
    n = change.get("count", count)
    try:
        return _training_memory(
            target, n, change.get("strategy", strategy), tp, pp,
            _as_variant(target, change.get("checkpointing", checkpointing))
        ).total
    except ValueError:
        return None


def _lora_params(w: Workload, targets: frozenset[str]) -> int:
    from advisor.core import params as params_mod

    if w.spec is None:
        raise ValueError("no model spec on this workload")
    return params_mod.lora_trainable_params(w.spec, w.lora_rank, targets)


def _replace(w: Workload, **changes) -> Workload:
    """A copy of `w` with `changes` (and its own empty cache)."""
    return dataclasses.replace(w, **changes)


def inference_fix(w: Workload, gpu, count: int, tp: int) -> Fix | None:
    """The first change that makes a serving configuration fit on `gpu`: an 8-bit KV cache; 8-bit, then
    4-bit weights; wider tensor parallelism; more replicas; else fewer sequences (or a larger card)."""
    cap = _gpu_consts(w, gpu)["serve_cap"]
    replicas = count // tp
    per_replica = -(-w.concurrency // replicas)

    def total(**over) -> int | None:
        kw: dict[str, Any] = {"context": w.context_tokens, "concurrency": per_replica,
                              "weights_dtype": w.weights_dtype, "kv_dtype": w.kv_dtype, "tp": tp, **over}
        t = memory.inference_memory(w.shape, **kw).total
        return int(t) if t <= cap else None

    if w.kv_dtype in ("bf16", "fp16", "fp32") and (t := total(kv_dtype="fp8")):
        return Fix("kv_dtype", {"kv_dtype": "fp8"}, t)
    for dt in ("fp8", "int4"):
        if memory.WEIGHT_BITS[dt] < memory.WEIGHT_BITS[w.weights_dtype] and (t := total(weights_dtype=dt)):
            return Fix("weights_dtype", {"weights_dtype": dt}, t)
    for wider in (2, 4, 8):
        if tp < wider <= gpu.max_per_node and (t := total(tp=wider)):
            return Fix("more_gpus", {"count": wider * replicas, "tp": wider}, t)
    kw: dict[str, Any] = {"context": w.context_tokens, "weights_dtype": w.weights_dtype, "kv_dtype": w.kv_dtype}
    for width in sorted({tp, 2, 4, 8}):
        if width < tp or width > gpu.max_per_node:
            continue
        most = memory.max_sequences(w.shape, cap, tp=width, **kw)
        if most > 0:
            reps = -(-w.concurrency // most)
            if t := total(tp=width, concurrency=-(-w.concurrency // reps)):
                return Fix("more_gpus", {"count": width * reps, "tp": width}, t)
    most = memory.max_sequences(w.shape, cap, tp=tp, **kw) * replicas
    if most > 0:
        return Fix("fewer_sequences", {"concurrency": most}, None)
    return Fix("larger_gpu", {}, None)
