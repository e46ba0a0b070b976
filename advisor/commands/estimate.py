"""`gpu-advisor estimate`: the calculator — memory per GPU term by term, time, power and cost of one
configuration, and when it does not fit, the one change that would make it fit.

Why this module exists: the conversation answers "what should I buy"; this command answers "what
does this exact setup need", scriptably (`--json`) and fast (it loads only the GPU and model
catalogues, never Textual or the rules engine). Flags are DESIGN.md's contract. Bad input ends with
one clear line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from typing import Any, NoReturn

TASKS = ("pretrain", "finetune", "lora", "qlora", "inference")
STRATEGIES = ("ddp", "zero1", "zero2", "zero3", "fsdp")
PRECISIONS = ("bf16-mixed", "fp16-mixed", "bf16", "fp32", "fp8-mixed")
OPTIMIZERS = ("adamw", "adamw-8bit", "sgd", "adafactor")
CHECKPOINTING = ("none", "selective", "full")
ATTENTION = ("sdpa", "eager", "flash")
MEASURES = ("allocated", "reserved", "smi")
ENGINES = ("vllm", "hf", "awq-fused")
ADAPTER_DTYPES = ("fp32", "bf16", "fp16")
STACKS_CHOICES = ("hf", "torchtune", "litgpt", "answerai", "torchtitan")


class InputError(Exception):
    """Bad input: the message is the one line the user sees."""


def add_arguments(parser: argparse.ArgumentParser, name: str = "estimate") -> None:
    """The flags of DESIGN.md. Values are validated in `run` so that every mistake gets one clear line."""

    def one_line_error(message: str) -> NoReturn:  # argparse prints usage + message; one clear line instead
        if "expected one argument" in message:
            message += " (a value that starts with '-' is written --flag=VALUE, and sizes must be positive)"
        print(f"gpu-advisor {name}: {message}; see `gpu-advisor {name} --help`", file=sys.stderr)
        raise SystemExit(2)

    parser.error = one_line_error  # type: ignore[method-assign]  # argparse has no hook for its one-line errors
    parser.epilog = (
        "Sizes accept suffixes: 7B, 500M, 1.5T; lengths 8k = 8,192 tokens. "
        "Memory is printed in GB (10^9 bytes) and GiB (2^30 bytes); --json gives bytes."
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--model", metavar="NAME", help="model from the catalogue (id or alias), e.g. llama-3-8b")
    what.add_argument("--config", metavar="CONFIG.json", help="a Hugging Face config.json (or its folder)")
    what.add_argument("--params", metavar="N", help="a bare parameter count, e.g. 7B")
    parser.add_argument("--task", metavar="TASK", default="finetune", help=f"{' | '.join(TASKS)} (default finetune)")
    parser.add_argument("--batch", metavar="N", help="sequences (or images) per GPU per step (default 1; images 32)")
    parser.add_argument("--seq", metavar="TOKENS", help="training sequence length (default 2048; 4096 for pretrain)")
    parser.add_argument("--gpus", metavar="N", default="1", help="GPUs in total (default 1)")
    parser.add_argument("--gpu", metavar="NAME", help="GPU from the catalogue: adds capacity, fit, time, power, cost")
    parser.add_argument("--strategy", metavar="S", help=f"{' | '.join(STRATEGIES)} (default ddp on several GPUs)")
    parser.add_argument("--tp", metavar="N", default="1", help="tensor-parallel degree (default 1)")
    parser.add_argument("--pp", metavar="N", default="1", help="pipeline-parallel degree (default 1)")
    parser.add_argument("--checkpointing", metavar="MODE", help="none | selective | full (default none)")
    parser.add_argument("--attention", metavar="IMPL", help="training: sdpa | eager | flash (default sdpa)")
    parser.add_argument("--tokens", metavar="N", help="training tokens (all epochs), e.g. 2B: adds time")
    parser.add_argument(
        "--precision",
        metavar="P",
        help=f"{' | '.join(PRECISIONS)} (default bf16-mixed; for inference it names the weights' format)",
    )
    parser.add_argument("--optimizer", metavar="O", help=f"training: {' | '.join(OPTIMIZERS)} (default adamw)")
    parser.add_argument("--lora-rank", metavar="R", help="LoRA rank (default 16)")
    parser.add_argument(
        "--lora-targets",
        metavar="LIST",
        help="adapted projections (default q,k,v,o,gate,up,down)",
    )
    parser.add_argument(
        "--stack",
        metavar="S",
        help="training stack whose memory defaults apply: hf (transformers + PEFT, default) | torchtune | litgpt | "
        "answerai (Answer.AI fsdp_qlora train.py) | torchtitan (per-op selective checkpointing)",
    )
    parser.add_argument(
        "--adapter-dtype",
        metavar="DTYPE",
        help="LoRA adapters: fp32 (PEFT, the default) | bf16 (torchtune, LitGPT)",
    )
    parser.add_argument(
        "--paged-optimizer", action="store_true", help="bitsandbytes paged optimizer (state in unified memory)"
    )
    parser.add_argument(
        "--optimizer-in-backward", action="store_true", help="step and free each gradient in backward (torchtune)"
    )
    parser.add_argument(
        "--chunked-loss", action="store_true", help="cross-entropy over 8 chunks of the logits (torchtune)"
    )
    parser.add_argument("--compile", action="store_true", help="torch.compile (fused norms and SwiGLU save less)")
    parser.add_argument(
        "--activation-offload", action="store_true", help="stream saved activations to CPU memory (torchtune)"
    )
    parser.add_argument(
        "--weights-dtype",
        metavar="DTYPE",
        help="inference weights: fp16 | bf16 | fp8 | int8 | int4 | q4_k_m | ... (default bf16)",
    )
    parser.add_argument(
        "--kv-dtype", metavar="DTYPE", help="inference KV cache: bf16 | fp8 | int8 | ... (default bf16)"
    )
    parser.add_argument(
        "--context",
        metavar="TOKENS",
        help="inference: tokens per sequence (default 8192, or the model's window if shorter)",
    )
    parser.add_argument(
        "--concurrency", metavar="N", help="inference: concurrent sequences (default 1; --batch means the same)"
    )
    parser.add_argument(
        "--engine",
        metavar="E",
        help="inference: vllm (a serving engine, default) | hf (transformers generate) | awq-fused "
        "(AutoAWQ fuse_layers: --context sizes its preallocated cache)",
    )
    parser.add_argument(
        "--prompt-tokens", metavar="N", help="inference with --engine hf or awq-fused: prompt tokens prefilled at once"
    )
    parser.add_argument(
        "--measure",
        metavar="KIND",
        help="which peak `total` reports: allocated | reserved | smi (default: smi, what the card must hold)",
    )
    parser.add_argument("--offload", action="store_true", help="DeepSpeed CPU offload (with zero2 or zero3)")
    parser.add_argument("--json", action="store_true", help="print JSON (bytes, seconds, watts, USD)")


# ------------------------------------------------------------------------------------------------
# Input parsing

_SUFFIX = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
_SUFFIX_TOKENS = {"k": 1024, "m": 1 << 20}
"""Sequence and context lengths: "8k" means 8,192 tokens, as model cards write context windows."""
_NUMBER = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*([kmbgt]?)\s*$", re.IGNORECASE)


SIZE_LIMITS: dict[str, float] = {
    "--params": 1e14,        # 100 trillion parameters: ~50x the largest model ever described
    "--tokens": 1e15,        # a quadrillion training tokens: ~30x the largest reported corpus
    "--batch": 1e6, "--concurrency": 1e7, "--gpus": 1e6, "--tp": 1024, "--pp": 1024, "--lora-rank": 65_536,
    "--seq": 1e8, "--context": 1e8, "--prompt-tokens": 1e8,  # 100M-token sequences: ~100x the longest context
}
"""The largest value each size flag accepts: a figure beyond is a typo ("1e30"), refused in one line."""


def parse_size(
    text: str | None, flag: str, *, integer: bool = True, minimum: float = 1, binary_k: bool = False
) -> float | int | None:
    """'7B' -> 7e9, '500M' -> 5e8, '1,000' -> 1000; with `binary_k` (lengths) '8k' -> 8192.
    Raises InputError with a one-line message."""
    if text is None:
        return None
    cleaned = str(text).replace(",", "").replace("_", "")
    match = _NUMBER.match(cleaned)
    if not match and _NUMBER.match(cleaned.strip().lstrip("-")):
        raise InputError(f"{flag} must be positive, got {text!r}")
    if not match:
        raise InputError(f"{flag} expects a number such as 7B, 500M or 4096, got {text!r}")
    suffix = match.group(2).lower()
    scale = _SUFFIX_TOKENS.get(suffix) if binary_k else None
    value = float(match.group(1)) * (scale or _SUFFIX.get(suffix, 1.0))
    if not math.isfinite(value) or value < minimum:
        raise InputError(f"{flag} must be at least {minimum:g}, got {text!r}")
    if value > SIZE_LIMITS.get(flag, 1e15):
        raise InputError(f"{flag} must be at most {SIZE_LIMITS.get(flag, 1e15):g}, got {text!r}")
    if integer:
        if abs(value - round(value)) > 1e-6 * max(1.0, value):
            raise InputError(f"{flag} must be a whole number, got {text!r}")
        return int(round(value))
    return value


def _choice(value: str, flag: str, allowed: tuple[str, ...]) -> str:
    v = (value or "").strip().lower()
    if v not in allowed:
        raise InputError(f"{flag} must be one of {', '.join(allowed)}; got {value!r}")
    return v


# ------------------------------------------------------------------------------------------------
# Catalogue lookups (the knowledge snapshot: no pydantic unless a config.json or --params is given)


def _suggest(name: str, known: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name.lower(), known, n=3, cutoff=0.5)
    return f" (did you mean {', '.join(close)}?)" if close else ""


def resolve_model(args):
    from advisor.core import params as params_mod

    if args.config:
        try:
            return params_mod.load_hf_config(args.config)
        except params_mod.ConfigError as exc:
            raise InputError(str(exc)) from None
    if args.params:
        return params_mod.spec_from_param_count(int(parse_size(args.params, "--params") or 0))
    if args.model:
        from advisor import snapshot

        spec = snapshot.find(snapshot.models(), args.model)
        if spec is None:
            raise InputError(
                f"unknown model {args.model!r}{_suggest(args.model, list(snapshot.models()))}; "
                "see `gpu-advisor models`, or pass --config CONFIG.json or --params 7B"
            )
        return spec
    raise InputError("name a model: --model NAME, --config CONFIG.json or --params 7B")


def resolve_gpu(name: str | None):
    if not name:
        return None
    from advisor import snapshot

    spec = snapshot.find(snapshot.gpus(), name)
    if spec is None:
        raise InputError(f"unknown GPU {name!r}{_suggest(name, list(snapshot.gpus()))}; see `gpu-advisor gpus`")
    return spec


# ------------------------------------------------------------------------------------------------
# The calculation


def _settings(args, spec) -> dict[str, Any]:
    from advisor.core import planner

    task = _choice(args.task, "--task", TASKS)
    s: dict[str, Any] = {"task": task}
    s["gpus"] = parse_size(args.gpus, "--gpus")
    s["tp"] = parse_size(args.tp, "--tp")
    s["pp"] = parse_size(args.pp, "--pp")
    if s["gpus"] % (s["tp"] * s["pp"]):
        raise InputError(f"--gpus {s['gpus']} is not a multiple of --tp {s['tp']} x --pp {s['pp']}")
    if spec.num_heads and s["tp"] > 1 and spec.num_heads % s["tp"]:
        raise InputError(f"--tp {s['tp']} does not divide the model's {spec.num_heads} attention heads")
    if spec.num_layers and s["pp"] > spec.num_layers:
        raise InputError(f"--pp {s['pp']} is more pipeline stages than the model's {spec.num_layers} layers")
    if args.strategy:
        strategy = _choice(args.strategy, "--strategy", STRATEGIES)
    else:
        strategy = "single" if s["gpus"] // (s["tp"] * s["pp"]) == 1 else "ddp"
    if strategy != "single" and s["gpus"] == 1:
        strategy = "single" if strategy == "ddp" else strategy
    s["strategy"] = strategy
    s["checkpointing"] = _choice(args.checkpointing or "none", "--checkpointing", CHECKPOINTING)
    s["attention"] = _choice(args.attention or "sdpa", "--attention", ATTENTION)
    s["precision"] = _choice(args.precision or "bf16-mixed", "--precision", PRECISIONS)
    s["optimizer"] = _choice(args.optimizer or "adamw", "--optimizer", OPTIMIZERS)
    image = spec.kind in ("cnn", "vit", "diffusion")
    s["batch"] = parse_size(args.batch, "--batch") if args.batch else (planner.DEFAULT_IMAGE_BATCH if image else 1)
    seq_default = planner.default_seq_len(task, spec.max_context)
    s["seq"] = parse_size(args.seq, "--seq", binary_k=True) if args.seq else seq_default
    s["tokens"] = parse_size(args.tokens, "--tokens") if args.tokens else None
    s["lora_rank"] = parse_size(args.lora_rank or "16", "--lora-rank")
    s["lora_targets"] = args.lora_targets or "q,k,v,o,gate,up,down"
    s["stack"] = _choice(args.stack or "hf", "--stack", STACKS_CHOICES)
    s["adapter_dtype"] = (
        _choice(args.adapter_dtype, "--adapter-dtype", ADAPTER_DTYPES) if args.adapter_dtype else None
    )
    s["measure"] = _choice(args.measure, "--measure", MEASURES) if args.measure else None
    s["engine"] = _choice(args.engine or "vllm", "--engine", ENGINES)
    prompt = args.prompt_tokens
    s["prompt_tokens"] = parse_size(prompt, "--prompt-tokens", binary_k=True) if prompt else None
    _refuse_flags(args, task)
    s["offload"] = bool(args.offload)
    if s["offload"] and strategy not in ("zero2", "zero3", "fsdp"):
        raise InputError("--offload needs --strategy zero2 or zero3 (DeepSpeed offloads ZeRO state)")
    if s["offload"] and task == "inference":
        raise InputError("--offload applies to training")
    if s["offload"] and task in ("lora", "qlora") and strategy not in ("fsdp", "zero3"):
        raise InputError("--offload with LoRA offloads the frozen base (FSDP or ZeRO-3): add --strategy fsdp")
    for key in ("paged_optimizer", "optimizer_in_backward", "chunked_loss", "activation_offload", "compile"):
        s[key] = bool(getattr(args, key))
    s["weights_dtype"] = _choice(args.weights_dtype or "bf16", "--weights-dtype", planner.WEIGHT_DTYPES)
    if task == "inference" and args.precision:  # a serving precision is the weights' format
        mapped = _SERVING_WEIGHTS[s["precision"]]
        if args.weights_dtype and s["weights_dtype"] != mapped:
            raise InputError(
                f"--precision {s['precision']} means --weights-dtype {mapped} for inference, "
                f"not {s['weights_dtype']}; give one of them"
            )
        s["weights_dtype"] = mapped
    s["kv_dtype"] = _choice(args.kv_dtype or "bf16", "--kv-dtype", planner.KV_DTYPES)
    ctx_default = planner.default_context(spec.max_context)
    s["context"] = parse_size(args.context, "--context", binary_k=True) if args.context else ctx_default
    s["concurrency"] = parse_size(args.concurrency or "1", "--concurrency")
    if task == "inference" and args.batch:  # a batch of sequences being generated is the concurrency
        batch = parse_size(args.batch, "--batch")
        if args.concurrency and batch != s["concurrency"]:
            raise InputError(f"--batch {batch} and --concurrency {s['concurrency']} disagree; for inference give one")
        s["concurrency"] = batch
    warnings = []
    longest = s["context"] if task == "inference" else s["seq"]
    if spec.max_context and longest > spec.max_context:
        what = "--context" if task == "inference" else "--seq"
        warnings.append(f"{what} {longest:,} is longer than the model's maximum context ({spec.max_context:,} tokens)")
    s["warnings"] = warnings
    return s


_TRAINING_ONLY = (
    ("seq", "--seq"), ("checkpointing", "--checkpointing"), ("tokens", "--tokens"), ("optimizer_in_backward",
    "--optimizer-in-backward"), ("chunked_loss", "--chunked-loss"), ("activation_offload", "--activation-offload"),
    ("paged_optimizer", "--paged-optimizer"), ("compile", "--compile"), ("stack", "--stack"),
    ("optimizer", "--optimizer"), ("attention", "--attention"),
)  # fmt: skip
_SERVING_WEIGHTS = {"bf16-mixed": "bf16", "bf16": "bf16", "fp16-mixed": "fp16", "fp32": "fp32", "fp8-mixed": "fp8"}
"""`--precision` given for inference: the weights' storage format it names."""
_LORA_ONLY = (("lora_rank", "--lora-rank"), ("lora_targets", "--lora-targets"), ("adapter_dtype", "--adapter-dtype"))
_INFERENCE_ONLY = (
    ("context", "--context"), ("concurrency", "--concurrency"), ("engine", "--engine"),
    ("prompt_tokens", "--prompt-tokens"), ("kv_dtype", "--kv-dtype"),
)  # fmt: skip


def _refuse_flags(args, task: str) -> None:
    """A flag that does not apply to the task is an error, never silently dropped."""
    groups: list[tuple[tuple[tuple[str, str], ...], str]] = []
    if task == "inference":
        groups.append((_TRAINING_ONLY + _LORA_ONLY, "training"))
    else:
        groups.append((_INFERENCE_ONLY, "inference"))
        if task not in ("lora", "qlora"):
            groups.append((_LORA_ONLY, "--task lora or qlora"))
    for flags, applies in groups:
        for attr, flag in flags:
            if getattr(args, attr, None):
                raise InputError(f"{flag} applies to {applies}, not to --task {task}")
    if task == "inference" and args.strategy:
        raise InputError("--strategy applies to training; a served model is split with --tp and copied over --gpus")
    if args.weights_dtype and args.weights_dtype != "bf16" and task not in ("inference", "qlora"):
        raise InputError(f"--weights-dtype applies to inference and qlora (the frozen base), not to --task {task}")
    if getattr(args, "prompt_tokens", None) and (args.engine or "vllm") == "vllm":
        raise InputError("--prompt-tokens applies to --engine hf or awq-fused (a serving engine prefills in chunks)")


def _lora_target_set(text: str, known: tuple[str, ...]) -> frozenset[str]:
    """'q,k,v' / 'q_proj,v_proj' / 'all-linear' -> the projection names (validity is checked when the
    workload counts its adapters, which raises on an unknown name)."""
    names = {part.strip().lower().removesuffix("_proj") for part in text.replace(";", ",").split(",") if part.strip()}
    if names & {"all", "all-linear", "all_linear"}:
        return frozenset(known)
    return frozenset(names)


def _workload(spec, s: dict[str, Any]):
    """The planner's workload for these flags: the same object the advisor's sweep evaluates."""
    from advisor.core import params as params_mod
    from advisor.core import planner

    task = s["task"]
    targets = _lora_target_set(s["lora_targets"], params_mod.LORA_TARGETS)
    try:
        return planner.workload_for(
            spec,
            task=task,
            seq_len=s["seq"],
            micro_batch=s["batch"],
            tokens=s["tokens"],
            precision=s["precision"],
            optimizer=s["optimizer"],
            attention=s["attention"],
            lora_rank=s["lora_rank"],
            lora_targets=targets or planner.DEFAULT_LORA_TARGETS,
            concurrency=s["concurrency"],
            context_tokens=s["context"],
            weights_dtype=s["weights_dtype"],
            kv_dtype=s["kv_dtype"],
            offload=s["offload"],
            stack=planner.stack(
                s["stack"],
                **({"adapter_bytes": 4.0 if s["adapter_dtype"] == "fp32" else 2.0} if s["adapter_dtype"] else {}),
                paged_optimizer=s["paged_optimizer"],
                optimizer_in_backward=s["optimizer_in_backward"],
                chunked_loss=s["chunked_loss"],
                activation_offload=s["activation_offload"],
                compiled=s["compile"],
                engine=s["engine"],
                prompt_tokens=s["prompt_tokens"],
            ),
        )
    except ValueError as exc:
        raise InputError(str(exc)) from None


_SETTING_FLAGS = {
    "checkpointing": "--checkpointing",
    "strategy": "--strategy",
    "count": "--gpus",
    "task": "--task",
    "gpu": "--gpu",
    "tp": "--tp",
    "kv_dtype": "--kv-dtype",
    "weights_dtype": "--weights-dtype",
    "concurrency": "--concurrency",
}
_FLAG_ORDER = ("task", "count", "tp", "strategy", "checkpointing", "kv_dtype", "weights_dtype", "concurrency", "gpu")


def _flags(settings: dict[str, Any]) -> str:
    """A fix's settings as the flags that ask for them:
    {'count': 4, 'strategy': 'zero3'} -> '--gpus 4 --strategy zero3'."""
    return " ".join(f"{_SETTING_FLAGS[k]} {settings[k]}" for k in _FLAG_ORDER if k in settings)


def _fix_json(fixes: list[Any]) -> dict[str, Any]:
    if not fixes:
        return {"change": "none_found", "flags": "", "total_bytes": None, "alternatives": []}
    rows = [{"change": f.change, "flags": _flags(f.settings), "total_bytes": f.total_bytes} for f in fixes]
    return {**rows[0], "alternatives": rows[1:]}


def _terms(m: Any) -> dict[str, int]:
    terms = {
        "weights": int(m.weights),
        "gradients": int(m.gradients),
        "optimizer": int(m.optimizer),
        "activations": int(m.activations),
        "kv_cache": int(m.kv_cache),
        "overhead": int(m.overhead),
    }
    terms["total"] = sum(terms.values())
    return terms


def _peaks(mem: Any) -> dict[str, int]:
    """The three peaks people measure: `torch.cuda.max_memory_allocated`, `max_memory_reserved`, and
    nvidia-smi's figure for the process (reserved + CUDA context + NCCL) — the one the fit test uses."""
    return {"allocated": int(mem.allocated), "reserved": int(mem.reserved), "smi": int(mem.smi)}


def _report_measure(out: dict[str, Any], measure: str) -> None:
    """`--measure`: `memory_per_gpu.total` reports that peak; the overhead term absorbs the difference."""
    mem = out["memory_per_gpu"]
    total = out["peak_bytes"][measure]
    mem["overhead"] += total - mem["total"]
    mem["total"] = total


def _power_and_money(m: Any, gpu: Any, out: dict[str, Any]) -> None:
    """Power and cost of the configuration, from the planner's metrics."""
    from advisor.core import planner

    out["power"] = {"it_w": m.power_w, "node_w": m.node_power_w, "nodes": m.nodes, "average_w": m.average_power_w}
    money: dict[str, Any] = {}
    if m.buy_usd_low is not None:
        money["buy_usd_low"], money["buy_usd_high"] = m.buy_usd_low, m.buy_usd_high
        money["price_date"] = gpu.price.date
    if m.rent_usd_per_hour_low is not None:
        money["rent_usd_per_hour_low"], money["rent_usd_per_hour_high"] = (
            m.rent_usd_per_hour_low,
            m.rent_usd_per_hour_high,
        )
        money["rent_date"] = gpu.cloud_hourly.date
        if m.rent_usd_low is not None and m.time_s is not None:
            money["rent_usd_low"], money["rent_usd_high"] = m.rent_usd_low, m.rent_usd_high
    if m.buy_usd_low is not None and m.rent_usd_per_hour_low is not None:
        defaults = planner.Workload.__dataclass_fields__
        money["break_even_hours"] = m.break_even_hours
        money["assumed_usd_per_kwh"] = defaults["electricity_usd_per_kwh"].default
        money["assumed_pue"] = defaults["pue"].default
        if m.energy_kwh is not None and m.time_s is not None:
            money["energy_kwh"], money["energy_usd"] = m.energy_kwh, m.energy_usd
    if money:
        out["cost"] = money


def _training(w: Any, s: dict[str, Any], gpu: Any) -> dict[str, Any]:
    from advisor.core import planner

    try:
        ev = planner.evaluate_training(w, s["gpus"], s["strategy"], s["tp"], s["pp"], s["checkpointing"], gpu)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    mem = ev.memory
    out: dict[str, Any] = {
        "trainable_params": int(w.trainable_params),
        "activation_model": {
            "hf": f"hugging-face transformers ({s['attention']})"
            + (", frozen base + PEFT adapters" if s["task"] in ("lora", "qlora") else ""),
            "megatron": "megatron (Korthikanti et al.)",
            "encoder": f"hugging-face transformers encoder ({s['attention']})",
            "per-sample": "measured bytes per sample",
        }[ev.activation_model],
        "sequence_parallel": s["tp"] > 1,
        "memory_per_gpu": _terms(ev.metrics.memory if ev.metrics else _AsTerms(mem)),
        "overhead_detail": {
            "transient": int(mem.transient),
            "cuda_context": int(mem.cuda_context),
            "communication": int(mem.communication),
            "allocator_margin": int(mem.allocator_margin),
        },
        "host_ram_bytes": int(mem.host_ram),
        "peak_bytes": _peaks(mem),
    }
    m = ev.metrics
    if m is not None:
        out["capacity_bytes"] = m.capacity_bytes
        out["fits"] = m.fits
        out["headroom_bytes"] = m.headroom_bytes
        if not m.fits:
            from advisor import snapshot

            out["suggestion"] = _fix_json(
                planner.training_fixes(
                    w, gpu, s["gpus"], s["strategy"], s["tp"], s["pp"], s["checkpointing"],
                    list(snapshot.gpus().values()),
                )
            )
        _power_and_money(m, gpu, out)
    if s["tokens"] is not None and ev.volumes is not None:
        timing: dict[str, Any] = {"tokens": s["tokens"], "flops": ev.volumes.flops}
        if m is not None and m.time_s is not None:
            timing.update(
                {
                    "seconds_low": m.time_s_low,
                    "seconds": m.time_s,
                    "seconds_high": m.time_s_high,
                    "hours": m.time_s / 3600,
                    "mfu": m.mfu,
                }
            )
        out["time"] = timing
    return out


class _AsTerms:
    """A TrainingMemory read as memory terms (no GPU named: no metrics)."""

    def __init__(self, mem: Any):
        self.weights, self.gradients, self.optimizer = mem.weights, mem.gradients, mem.optimizer
        self.activations, self.kv_cache, self.overhead = mem.activations, 0, mem.overhead


def _inference(w: Any, s: dict[str, Any], gpu: Any) -> dict[str, Any]:
    from advisor.core import planner

    tp = s["tp"]
    if s["pp"] > 1:
        raise InputError("--pp applies to training; serve with --tp and replicas")
    try:
        ev = planner.evaluate_inference(w, s["gpus"], tp, gpu)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    replicas = s["gpus"] // tp
    per_replica = -(-s["concurrency"] // replicas)
    mem = ev.memory
    out: dict[str, Any] = {
        "trainable_params": 0,
        "replicas": replicas,
        "sequences_per_replica": per_replica,
        "kv_bytes_per_token": ev.kv_bytes_per_token,
        "memory_per_gpu": _terms(ev.metrics.memory)
        if ev.metrics
        else {
            "weights": int(mem.weights),
            "gradients": 0,
            "optimizer": 0,
            "activations": 0,
            "kv_cache": int(mem.kv_cache),
            "overhead": int(mem.overhead),
            "total": int(mem.weights) + int(mem.kv_cache) + int(mem.overhead),
        },
        "overhead_detail": {
            "workspace": int(mem.workspace),
            "cuda_context": int(mem.cuda_context),
            "communication": int(mem.communication),
            "allocator_margin": int(mem.allocator_margin),
        },
        "peak_bytes": _peaks(mem),
    }
    m = ev.metrics
    if m is None:
        return out
    out["capacity_bytes"] = m.capacity_bytes
    out["capacity_note"] = "90 % of usable memory: serving engines pre-allocate gpu_memory_utilization=0.9"
    out["fits"] = m.fits
    out["headroom_bytes"] = m.headroom_bytes
    max_seq = ev.max_sequences_per_replica or 0
    out["max_concurrency"] = max_seq * replicas
    # GPUs for the requested concurrency at this context: tp-way replicas, each holding max_seq sequences
    out["gpus_needed"] = tp * -(-s["concurrency"] // max_seq) if max_seq > 0 else None
    out["max_context"] = ev.max_context_tokens or 0
    if ev.decode_s_per_token is not None:
        batch = min(per_replica, max_seq)
        out["decode_tokens_per_s"] = replicas * batch / ev.decode_s_per_token
        out["decode_tokens_per_s_per_sequence"] = 1 / ev.decode_s_per_token
        out["ttft_s"] = m.ttft_s
    if not m.fits:
        fix = planner.inference_fix(w, gpu, s["gpus"], tp)
        if fix is not None:
            out["suggestion"] = {"change": fix.change, "flags": _flags(fix.settings), "total_bytes": fix.total_bytes}
    _power_and_money(m, gpu, out)
    return out


def estimate(args) -> dict[str, Any]:
    """Everything `estimate` prints, as a JSON-ready dict (bytes, seconds, watts, USD)."""
    spec = resolve_model(args)
    s = _settings(args, spec)
    gpu = resolve_gpu(args.gpu)
    w = _workload(spec, s)
    out: dict[str, Any] = {
        "model": {
            "id": spec.id,
            "name": spec.name,
            "kind": spec.kind,
            "stand_in": bool(getattr(spec, "stand_in", False)),
        },
        "task": s["task"],
        "params": int(w.params),
        "active_params": int(w.active_params),
        "config": {
            k: s[k]
            for k in (
                "gpus",
                "strategy",
                "tp",
                "pp",
                "batch",
                "seq",
                "checkpointing",
                "attention",
                "precision",
                "optimizer",
            )
        },
    }
    if s["task"] == "inference":
        out["config"].update({k: s[k] for k in ("weights_dtype", "kv_dtype", "context", "concurrency")})
        out.update(_inference(w, s, gpu))
    else:
        if s["task"] in ("lora", "qlora"):
            out["config"].update({"lora_rank": s["lora_rank"], "lora_targets": s["lora_targets"]})
        out.update(_training(w, s, gpu))
    if s["measure"]:
        out["config"]["measure"] = s["measure"]
        _report_measure(out, s["measure"])
    if gpu is not None:
        out["gpu"] = {"id": gpu.id, "name": gpu.name, "memory_gb": gpu.memory_gb}
    out["warnings"] = s["warnings"]
    return out


# ------------------------------------------------------------------------------------------------
# Human output


def _gb(n: float) -> str:
    return f"{n / 1e9:10.2f}"


def _gib(n: float) -> str:
    return f"{n / (1 << 30):10.2f}"


def _hours(seconds: float) -> str:
    h = seconds / 3600
    return f"{h / 24:.1f} days" if h >= 48 else f"{h:.1f} h"


def render_text(r: dict[str, Any]) -> str:
    lines = []
    m = r["model"]
    note = " (stand-in shape for a bare size)" if m.get("stand_in") else ""
    lines.append(
        f"{m['name']}{note}: {r['params']:,} parameters"
        + (f", {r['active_params']:,} active per token" if r["active_params"] != r["params"] else "")
    )
    c = r["config"]
    if r["task"] == "inference":
        lines.append(
            f"Serving: {c['gpus']} GPU(s), tp {c['tp']} x {r['replicas']} replica(s); "
            f"{c['concurrency']} sequence(s) of {c['context']:,} tokens; weights {c['weights_dtype']}, "
            f"KV {c['kv_dtype']}"
        )
    else:
        share = r["trainable_params"] / r["params"] * 100 if r["params"] else 0
        lines.append(f"Task: {r['task']}; trainable {r['trainable_params']:,} ({share:.2f} %)")
        per_gpu = (
            f"{c['batch']} sample(s) per GPU"
            if m["kind"] in ("cnn", "vit", "diffusion")
            else f"{c['batch']} x {c['seq']:,} tokens per GPU"
        )
        lines.append(
            f"Configuration: {c['gpus']} GPU(s), {c['strategy']}, tp {c['tp']}, pp {c['pp']}; batch "
            f"{per_gpu}; {c['precision']}, {c['optimizer']}, "
            f"{c['attention']} attention, checkpointing {c['checkpointing']}"
        )
        lines.append(f"Activation model: {r['activation_model']}")
    lines.append("")
    lines.append(f"{'Memory per GPU':<28}{'GB (1e9 B)':>10}  {'GiB (2^30 B)':>12}")
    mem = r["memory_per_gpu"]
    for key in ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead"):
        if mem[key] or key in ("weights", "overhead"):
            lines.append(f"  {key.replace('_', ' '):<26}{_gb(mem[key])}  {_gib(mem[key]):>12}")
    for key, value in r.get("overhead_detail", {}).items():
        if value:
            lines.append(f"    {key.replace('_', ' '):<24}{_gb(value)}  {_gib(value):>12}")
    measure = r["config"].get("measure")
    lines.append(f"  {'total' + (f' ({measure})' if measure else ''):<26}{_gb(mem['total'])}  {_gib(mem['total']):>12}")
    peak = r.get("peak_bytes")
    if peak:
        lines.append(
            "  peaks: allocated {} GiB, reserved {} GiB, nvidia-smi {} GiB".format(
                *(f"{peak[k] / 2**30:.2f}" for k in ("allocated", "reserved", "smi"))
            )
        )
    if r.get("host_ram_bytes"):
        lines.append(f"  CPU RAM per node for offload: {r['host_ram_bytes'] / 1e9:.1f} GB")
    if "gpu" in r:
        g = r["gpu"]
        lines.append(
            f"  {'usable capacity':<26}{_gb(r['capacity_bytes'])}  {_gib(r['capacity_bytes']):>12}   {g['name']}"
        )
        if r.get("capacity_note"):
            lines.append(f"    ({r['capacity_note']})")
        if r["fits"]:
            lines.append(f"Fits: yes, {r['headroom_bytes'] / 1e9:.2f} GB to spare.")
        else:
            lines.append(f"Fits: no, short by {-r['headroom_bytes'] / 1e9:.2f} GB.")
            fix = r.get("suggestion")
            if fix and fix.get("flags"):
                tail = f" (total {fix['total_bytes'] / 1e9:.2f} GB)" if fix.get("total_bytes") else ""
                lines.append(f"To make it fit: {_FIX_WORDS.get(fix['change'], 'try')} `{fix['flags']}`{tail}.")
                for alt in fix.get("alternatives", [])[:3]:
                    lines.append(f"  or {_FIX_WORDS.get(alt['change'], 'try')} `{alt['flags']}`")
            elif fix:
                lines.append("No single change in our list makes it fit; it needs a larger card or more GPUs.")
    if r["task"] == "inference" and "max_concurrency" in r and r.get("kv_bytes_per_token"):
        lines.append(
            f"Most sequences at {c['context']:,} tokens: {r['max_concurrency']:,}; "
            f"longest context at {r['sequences_per_replica']} sequence(s) per replica: {r['max_context']:,} tokens"
        )
        if r.get("gpus_needed"):
            lines.append(
                f"GPUs for {c['concurrency']:,} sequence(s) at this context: {r['gpus_needed']:,} "
                f"(tp {c['tp']} replicas)"
            )
        if "decode_tokens_per_s" in r:
            lines.append(
                f"Decode: {r['decode_tokens_per_s']:,.0f} tokens/s in all "
                f"({r['decode_tokens_per_s_per_sequence']:.1f} per sequence); prefill of the full context "
                f"{r['ttft_s']:.2f} s"
            )
    t = r.get("time")
    if t:
        if "seconds" in t:
            lines.append(
                f"Time for {t['tokens']:,.0f} tokens: {_hours(t['seconds'])} expected "
                f"({_hours(t['seconds_low'])} to {_hours(t['seconds_high'])}), MFU {t['mfu'] * 100:.0f} %; "
                f"{t['flops']:.3g} FLOPs"
            )
        else:
            lines.append(f"Compute for {t['tokens']:,.0f} tokens: {t['flops']:.3g} FLOPs (name a --gpu for time)")
    p = r.get("power")
    if p:
        lines.append(
            f"Power: {p['it_w'] / 1000:.2f} kW at most for {p['nodes']} server(s) "
            f"(average {p['average_w'] / 1000:.2f} kW), before cooling (x PUE)"
        )
    money = r.get("cost")
    if money:
        parts = []
        if "buy_usd_low" in money:
            parts.append(
                f"buy ${money['buy_usd_low']:,.0f}-{money['buy_usd_high']:,.0f} with servers ({money['price_date']})"
            )
        if "rent_usd_per_hour_low" in money:
            parts.append(
                f"rent ${money['rent_usd_per_hour_low']:,.2f}-{money['rent_usd_per_hour_high']:,.2f}/h "
                f"({money['rent_date']})"
            )
        if "rent_usd_low" in money:
            parts.append(f"this run ${money['rent_usd_low']:,.0f}-{money['rent_usd_high']:,.0f} rented")
        lines.append("Cost: " + "; ".join(parts))
        if money.get("energy_usd") is not None:
            lines.append(
                f"Electricity for this run if owned: {money['energy_kwh']:,.0f} kWh, "
                f"${money['energy_usd']:,.0f} (at ${money['assumed_usd_per_kwh']}/kWh, PUE {money['assumed_pue']})"
            )
        if money.get("break_even_hours"):
            lines.append(f"Buying beats renting after {money['break_even_hours']:,.0f} hours of use (mid prices)")
    for warning in r.get("warnings", []):
        lines.append(f"Warning: {warning}")
    return "\n".join(lines)


_FIX_WORDS = {
    "checkpointing": "turn on activation checkpointing:",
    "zero": "shard the model states:",
    "lora": "train LoRA adapters instead of every weight:",
    "qlora": "use QLoRA (4-bit base):",
    "more_gpus": "spread it over more GPUs:",
    "larger_gpu": "use a larger card:",
    "kv_dtype": "store the KV cache in 8 bits:",
    "weights_dtype": "quantise the weights:",
    "fewer_sequences": "serve fewer sequences at once:",
}


def run(args) -> int:
    import json

    from advisor.sanitize import one_line

    try:
        result = estimate(args)
    except InputError as exc:
        print(f"gpu-advisor estimate: {one_line(str(exc))}", file=sys.stderr)  # a path may hold controls
        return 2
    except ValueError as exc:  # from the core: a combination it cannot compute
        print(f"gpu-advisor estimate: {one_line(str(exc))}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(render_text(result))
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m advisor.commands.estimate ...`: the same command without the other subcommands' imports."""
    parser = argparse.ArgumentParser(
        prog="gpu-advisor estimate", description="Memory, time, power and cost of one configuration."
    )
    add_arguments(parser, "estimate")
    args = parser.parse_args(argv)
    from advisor.paths import KnowledgeError

    try:
        return run(args)
    except KnowledgeError as exc:
        print(f"gpu-advisor: the knowledge base is broken — {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
