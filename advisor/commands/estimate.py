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
from typing import Any

TASKS = ("pretrain", "finetune", "lora", "qlora", "inference")
STRATEGIES = ("ddp", "zero1", "zero2", "zero3", "fsdp")
PRECISIONS = ("bf16-mixed", "fp16-mixed", "bf16", "fp32", "fp8-mixed")
OPTIMIZERS = ("adamw", "adamw-8bit", "sgd", "adafactor")
CHECKPOINTING = ("none", "selective", "full")
ATTENTION = ("sdpa", "eager", "flash")


class InputError(Exception):
    """Bad input: the message is the one line the user sees."""


def add_arguments(parser: argparse.ArgumentParser, name: str = "estimate") -> None:
    """The flags of DESIGN.md. Values are validated in `run` so that every mistake gets one clear line."""
    def one_line_error(message: str) -> None:  # argparse prints usage + message; one clear line instead
        if "expected one argument" in message:
            message += " (a value that starts with '-' is written --flag=VALUE, and sizes must be positive)"
        print(f"gpu-advisor {name}: {message}; see `gpu-advisor {name} --help`", file=sys.stderr)
        raise SystemExit(2)

    parser.error = one_line_error  # type: ignore[method-assign]
    parser.epilog = (
        "Sizes accept suffixes: 7B, 500M, 1.5T; lengths 8k = 8,192 tokens. Memory is printed in GB (10^9 bytes) and GiB (2^30 bytes); "
        "--json gives bytes."
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
    parser.add_argument("--checkpointing", metavar="MODE", default="none", help="none | selective | full (default none)")
    parser.add_argument("--attention", metavar="IMPL", default="sdpa", help="sdpa | eager | flash (default sdpa)")
    parser.add_argument("--tokens", metavar="N", help="training tokens (all epochs), e.g. 2B: adds time")
    parser.add_argument("--precision", metavar="P", default="bf16-mixed", help=f"{' | '.join(PRECISIONS)} (default bf16-mixed)")
    parser.add_argument("--optimizer", metavar="O", default="adamw", help=f"{' | '.join(OPTIMIZERS)} (default adamw)")
    parser.add_argument("--lora-rank", metavar="R", default="16", help="LoRA rank (default 16)")
    parser.add_argument("--lora-targets", metavar="LIST", default="q,k,v,o,gate,up,down",
                        help="adapted projections (default q,k,v,o,gate,up,down)")
    parser.add_argument("--weights-dtype", metavar="DTYPE", default="bf16",
                        help="inference weights: fp16 | bf16 | fp8 | int8 | int4 | q4_k_m | ... (default bf16)")
    parser.add_argument("--kv-dtype", metavar="DTYPE", default="bf16", help="inference KV cache: bf16 | fp8 | int8 | ... (default bf16)")
    parser.add_argument("--context", metavar="TOKENS", help="inference: tokens per sequence (default 4096)")
    parser.add_argument("--concurrency", metavar="N", default="1", help="inference: concurrent sequences (default 1)")
    parser.add_argument("--offload", action="store_true", help="DeepSpeed CPU offload (with zero2 or zero3)")
    parser.add_argument("--json", action="store_true", help="print JSON (bytes, seconds, watts, USD)")


# ------------------------------------------------------------------------------------------------
# Input parsing

_SUFFIX = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
_SUFFIX_TOKENS = {"k": 1024, "m": 1 << 20}
"""Sequence and context lengths: "8k" means 8,192 tokens, as model cards write context windows."""
_NUMBER = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*([kmbgt]?)\s*$", re.IGNORECASE)


def parse_size(text: str | None, flag: str, *, integer: bool = True, minimum: float = 1,
               binary_k: bool = False) -> float | int | None:
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
# Catalogue lookups: only gpus.yaml / models.yaml, validated entry by entry (fast start)


def _yaml_load(text: str):
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


_TEXT_CACHE: dict[str, str] = {}
_PARSED_CACHE: dict[str, list[dict]] = {}


def _catalogue_text(filename: str) -> str:
    from advisor.knowledge import KnowledgeError
    from advisor.paths import data_dir

    if filename not in _TEXT_CACHE:
        path = data_dir("knowledge") / filename
        try:
            _TEXT_CACHE[filename] = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise KnowledgeError(path, "-", f"cannot be read: {exc}") from None
    return _TEXT_CACHE[filename]


def _catalogue(filename: str) -> list[dict]:
    """Every entry of a catalogue file, parsed (not validated), cached for the process."""
    import yaml

    from advisor.knowledge import KnowledgeError

    if filename not in _PARSED_CACHE:
        try:
            raw = _yaml_load(_catalogue_text(filename))
        except yaml.YAMLError as exc:
            raise KnowledgeError(filename, "-", f"not valid YAML: {exc}") from None
        if not isinstance(raw, list):
            raise KnowledgeError(filename, "-", "expected a list of entries")
        _PARSED_CACHE[filename] = [item for item in raw if isinstance(item, dict)]
    return _PARSED_CACHE[filename]


def _candidate_entries(filename: str, wanted: str) -> list[dict]:
    """Entries whose text could hold the name: the file split at its top-level `- ` items, kept when the
    normalised text contains the normalised name, and only those parsed. Parsing the whole catalogue
    costs more than the rest of `estimate`; a miss falls back to the full parse."""
    import yaml

    from advisor.knowledge import normalize_name

    text = _catalogue_text(filename)
    chunks = re.split(r"(?m)^(?=- )", text)
    out: list[dict] = []
    for chunk in chunks:
        if chunk.startswith("- ") and wanted in normalize_name(chunk):
            try:
                parsed = _yaml_load(chunk)
            except yaml.YAMLError:
                return []
            if isinstance(parsed, list):
                out.extend(item for item in parsed if isinstance(item, dict))
    return out


def _find(filename: str, name: str, model_type):
    from pydantic import ValidationError

    from advisor.knowledge import KnowledgeError, normalize_name

    wanted = normalize_name(name)

    def match(entries: list[dict]):
        hit = next((e for e in entries if e.get("id") == name), None)
        if hit is None:
            for entry in entries:
                names = [entry.get("id", ""), entry.get("name", ""), *(entry.get("aliases") or ())]
                if any(normalize_name(str(n)) == wanted for n in names):
                    return entry
        return hit

    hit = match(_candidate_entries(filename, wanted)) if wanted else None
    if hit is None:
        entries = _catalogue(filename)
        hit = match(entries)
        if hit is None:
            return None, [str(e.get("id")) for e in entries]
    try:
        return model_type.model_validate(hit), []
    except ValidationError as exc:
        raise KnowledgeError(filename, str(hit.get("id")), str(exc).splitlines()[0]) from None


def _suggest(name: str, known: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name.lower(), known, n=3, cutoff=0.5)
    return f" (did you mean {', '.join(close)}?)" if close else ""


def resolve_model(args):
    from advisor.core import params as params_mod
    from advisor.models import ModelSpec

    if args.config:
        try:
            return params_mod.load_hf_config(args.config)
        except params_mod.ConfigError as exc:
            raise InputError(str(exc)) from None
    if args.params:
        n = parse_size(args.params, "--params")
        return params_mod.spec_from_param_count(n)
    if args.model:
        spec, known = _find("models.yaml", args.model, ModelSpec)
        if spec is None:
            raise InputError(f"unknown model {args.model!r}{_suggest(args.model, known)}; "
                             "see `gpu-advisor models`, or pass --config CONFIG.json or --params 7B")
        return spec
    raise InputError("name a model: --model NAME, --config CONFIG.json or --params 7B")


def resolve_gpu(name: str | None):
    from advisor.models import GpuSpec

    if not name:
        return None
    spec, known = _find("gpus.yaml", name, GpuSpec)
    if spec is None:
        raise InputError(f"unknown GPU {name!r}{_suggest(name, known)}; see `gpu-advisor gpus`")
    return spec


# ------------------------------------------------------------------------------------------------
# The calculation


def _settings(args, spec) -> dict[str, Any]:
    from advisor.core.memory import DEFAULT_SEQ

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
    s["checkpointing"] = _choice(args.checkpointing, "--checkpointing", CHECKPOINTING)
    s["attention"] = _choice(args.attention, "--attention", ATTENTION)
    s["precision"] = _choice(args.precision, "--precision", PRECISIONS)
    s["optimizer"] = _choice(args.optimizer, "--optimizer", OPTIMIZERS)
    image = spec.kind in ("cnn", "vit", "diffusion")
    s["batch"] = parse_size(args.batch, "--batch") if args.batch else (32 if image else 1)
    seq_default = DEFAULT_SEQ.get(task, 2048)
    if spec.max_context:
        seq_default = min(seq_default, spec.max_context)
    s["seq"] = parse_size(args.seq, "--seq", binary_k=True) if args.seq else seq_default
    s["tokens"] = parse_size(args.tokens, "--tokens") if args.tokens else None
    s["lora_rank"] = parse_size(args.lora_rank, "--lora-rank")
    s["lora_targets"] = args.lora_targets
    s["offload"] = bool(args.offload)
    if s["offload"] and strategy not in ("zero2", "zero3", "fsdp"):
        raise InputError("--offload needs --strategy zero2 or zero3 (DeepSpeed offloads ZeRO state)")
    if s["offload"] and task not in ("pretrain", "finetune"):
        raise InputError("--offload applies to full training (pretrain, finetune); LoRA state is already small")
    from advisor.core.memory import KV_BITS, WEIGHT_BITS

    s["weights_dtype"] = _choice(args.weights_dtype, "--weights-dtype", tuple(WEIGHT_BITS))
    s["kv_dtype"] = _choice(args.kv_dtype, "--kv-dtype", tuple(KV_BITS))
    ctx_default = min(4096, spec.max_context or 4096)
    s["context"] = parse_size(args.context, "--context", binary_k=True) if args.context else ctx_default
    s["concurrency"] = parse_size(args.concurrency, "--concurrency")
    warnings = []
    longest = s["context"] if task == "inference" else s["seq"]
    if spec.max_context and longest > spec.max_context:
        what = "--context" if task == "inference" else "--seq"
        warnings.append(f"{what} {longest:,} is longer than the model's maximum context ({spec.max_context:,} tokens)")
    s["warnings"] = warnings
    return s


def _lora_target_set(text: str, known: tuple[str, ...]) -> frozenset[str]:
    """'q,k,v' / 'q_proj,v_proj' / 'all-linear' -> the projection names (validity is checked by
    `params.lora_trainable_params`, which runs first and raises on an unknown name)."""
    names = {part.strip().lower().removesuffix("_proj") for part in text.replace(";", ",").split(",") if part.strip()}
    if names & {"all", "all-linear", "all_linear"}:
        return frozenset(known)
    return frozenset(names & set(known))


def _training(spec, shape, s, gpu) -> dict[str, Any]:
    from advisor.core import compute, memory, power
    from advisor.core import params as params_mod

    task = s["task"]
    trainable = shape.params
    targets = frozenset()
    if task in ("lora", "qlora"):
        try:
            trainable = params_mod.lora_trainable_params(spec, s["lora_rank"], s["lora_targets"])
            targets = _lora_target_set(s["lora_targets"], params_mod.LORA_TARGETS)
        except ValueError as exc:
            raise InputError(str(exc)) from None

    def mem_for(**over) -> memory.TrainingMemory:
        kw = dict(task=task, batch=s["batch"], seq=s["seq"], count=s["gpus"], strategy=s["strategy"], tp=s["tp"],
                  pp=s["pp"], checkpointing=s["checkpointing"], attention=s["attention"], precision=s["precision"],
                  optimizer=s["optimizer"], lora_rank=s["lora_rank"], lora_targets=targets,
                  trainable_params=trainable, offload=s["offload"])
        kw.update(over)
        if kw["task"] in ("lora", "qlora") and not kw["lora_targets"]:
            kw["trainable_params"] = params_mod.lora_trainable_params(spec, 16, params_mod.LORA_TARGETS)
            kw["lora_targets"] = frozenset(params_mod.LORA_TARGETS)
        if kw["count"] == 1 and kw["strategy"] != "single":
            kw["strategy"] = "single"
        return memory.training_memory(shape, **kw)

    try:
        mem = mem_for()
    except ValueError as exc:
        raise InputError(str(exc)) from None
    megatron = s["tp"] > 1 or s["pp"] > 1
    out: dict[str, Any] = {
        "trainable_params": int(trainable),
        "activation_model": {"hf": f"hugging-face transformers ({s['attention']})"
                                   + (", frozen base + PEFT adapters" if task in ("lora", "qlora") else ""),
                             "megatron": "megatron (Korthikanti et al.)",
                             "per-sample": "measured bytes per sample"}[memory.activation_model(shape, s["tp"], s["pp"])],
        "sequence_parallel": s["tp"] > 1,
        "memory_per_gpu": _terms(mem.weights, mem.gradients, mem.optimizer, mem.activations, 0, mem.overhead),
        "overhead_detail": {
            "transient": int(mem.transient), "cuda_context": int(mem.cuda_context),
            "communication": int(mem.communication), "allocator_margin": int(mem.allocator_margin),
        },
        "host_ram_bytes": int(mem.host_ram),
    }
    if gpu is not None:
        cap = memory.usable_bytes(gpu.memory_gb)
        total = out["memory_per_gpu"]["total"]
        out["capacity_bytes"] = cap
        out["fits"] = total <= cap
        out["headroom_bytes"] = cap - total
        if total > cap:
            out["suggestion"] = _training_fix(mem_for, s, gpu, cap, spec)
        it_w, node_w, nodes = power.configuration_power_w(gpu, s["gpus"])
        out["power"] = {"it_w": it_w, "node_w": node_w, "nodes": nodes, "average_w": power.average_power_w(it_w)}
    tokens = s["tokens"]
    if tokens is not None and shape.is_transformer and shape.kind not in ("vit",):
        flops = compute.training_flops(shape, tokens, s["seq"], task=task, checkpointing=s["checkpointing"],
                                       trainable_params=trainable)
        timing: dict[str, Any] = {"tokens": tokens, "flops": flops}
        if gpu is not None:
            t = compute.training_time(
                shape, gpu, tokens=tokens, seq=s["seq"], count=s["gpus"], task=task, precision=s["precision"],
                checkpointing=s["checkpointing"], tp=s["tp"], pp=s["pp"],
                zero_stage=memory.ZERO_STAGE.get(s["strategy"], 1 if megatron else 0),
                micro_batch=s["batch"], trainable_params=trainable,
            )
            timing.update({"seconds_low": t.low_s, "seconds": t.expected_s, "seconds_high": t.high_s,
                           "hours": t.expected_s / 3600, "mfu": t.mfu})
        out["time"] = timing
    return out


def _training_fix(mem_for, s, gpu, cap: int, spec) -> dict[str, Any]:
    """The one change that makes a training configuration fit, least disruptive first, with the other
    changes that also work as `alternatives`: checkpointing; a ZeRO stage (several GPUs); more GPUs
    with ZeRO-3 for the same task; LoRA, then QLoRA (a different method: after more GPUs for full
    training, before them for LoRA); a larger card."""
    from advisor.core import memory

    megatron = s["tp"] > 1 or s["pp"] > 1
    lora_task = s["task"] in ("lora", "qlora")
    tries: list[tuple[str, str, dict]] = []
    order = ["selective", "full"] if (megatron or s["attention"] == "eager") else ["full"]
    for ck in order:
        if CHECKPOINTING.index(ck) > CHECKPOINTING.index(s["checkpointing"]):
            tries.append(("checkpointing", f"--checkpointing {ck}", {"checkpointing": ck}))
    if s["gpus"] > 1 and not megatron:
        for st in ("zero2", "zero3"):
            if memory.ZERO_STAGE.get(s["strategy"], 0) < memory.ZERO_STAGE[st]:
                tries.append(("zero", f"--strategy {st}", {"strategy": st}))
                tries.append(("zero", f"--strategy {st} --checkpointing full", {"strategy": st, "checkpointing": "full"}))
    methods: list[tuple[str, str, dict]] = []
    if s["task"] in ("finetune", "pretrain"):
        methods.append(("lora", "--task lora --checkpointing full",
                        {"task": "lora", "checkpointing": "full", "lora_targets": frozenset()}))
    if s["task"] in ("finetune", "pretrain", "lora"):
        keep = {} if s["task"] == "lora" else {"lora_targets": frozenset()}  # LoRA users keep their targets
        methods.append(("qlora", "--task qlora --checkpointing full", {"task": "qlora", "checkpointing": "full", **keep}))
    more: list[tuple[str, str, dict]] = []
    if not megatron:
        n = max(2, s["gpus"] * 2)
        while n <= 1024:
            more.append(("more_gpus", f"--gpus {n} --strategy zero3 --checkpointing full",
                         {"count": n, "strategy": "zero3", "checkpointing": "full"}))
            n *= 2
    tries += (methods + more) if lora_task else (more + methods)
    found: list[dict[str, Any]] = []
    seen_kinds: set[str] = set()
    for kind, flags, over in tries:
        if kind in seen_kinds:
            continue
        try:
            m = mem_for(**over)
        except ValueError:
            continue
        if m.total <= cap:
            found.append({"change": kind, "flags": flags, "total_bytes": int(m.total)})
            seen_kinds.add(kind)
    current = mem_for().total
    best = None
    for entry in _catalogue("gpus.yaml"):
        try:
            from advisor.models import GpuSpec

            g = GpuSpec.model_validate(entry)
        except Exception:  # a broken entry is the catalogue tests' business, not this suggestion's
            continue
        if s["precision"] in ("bf16-mixed", "bf16") and not g.bf16_tflops:
            continue  # no bf16 on this card (V100, T4): not a fix for a bf16 run
        if memory.usable_bytes(g.memory_gb) >= current and (best is None or g.memory_gb < best.memory_gb):
            best = g
    if best is not None:
        found.append({"change": "larger_gpu", "flags": f"--gpu {best.id}", "total_bytes": int(current)})
    if not found:
        return {"change": "none_found", "flags": "", "total_bytes": int(current), "alternatives": []}
    first = dict(found[0])
    first["alternatives"] = found[1:]
    return first


def _inference(spec, shape, s, gpu) -> dict[str, Any]:
    from advisor.core import compute, memory, power

    tp = s["tp"]
    if s["pp"] > 1:
        raise InputError("--pp applies to training; serve with --tp and replicas")
    replicas = s["gpus"] // tp
    per_replica = -(-s["concurrency"] // replicas)
    try:
        mem = memory.inference_memory(shape, context=s["context"], concurrency=per_replica,
                                      weights_dtype=s["weights_dtype"], kv_dtype=s["kv_dtype"], tp=tp)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    out: dict[str, Any] = {
        "trainable_params": 0,
        "replicas": replicas,
        "sequences_per_replica": per_replica,
        "kv_bytes_per_token": memory.kv_bytes_per_token(shape, s["kv_dtype"]) if shape.generates else 0,
        "memory_per_gpu": _terms(mem.weights, 0, 0, 0, mem.kv_cache, mem.overhead),
        "overhead_detail": {"workspace": int(mem.workspace), "cuda_context": int(mem.cuda_context),
                            "communication": int(mem.communication), "allocator_margin": int(mem.allocator_margin)},
    }
    if gpu is not None:
        cap = int(memory.usable_bytes(gpu.memory_gb) * memory.SERVING_MEMORY_FRACTION)
        total = out["memory_per_gpu"]["total"]
        out["capacity_bytes"] = cap
        out["capacity_note"] = "90 % of usable memory: serving engines pre-allocate gpu_memory_utilization=0.9"
        out["fits"] = total <= cap
        out["headroom_bytes"] = cap - total
        kw = dict(weights_dtype=s["weights_dtype"], kv_dtype=s["kv_dtype"], tp=tp)
        max_seq = memory.max_sequences(shape, cap, context=s["context"], **kw) if shape.generates else 0
        out["max_concurrency"] = max_seq * replicas
        # GPUs for the requested concurrency at this context: tp-way replicas, each holding max_seq sequences
        out["gpus_needed"] = tp * -(-s["concurrency"] // max_seq) if max_seq > 0 else None
        out["max_context"] = memory.max_context(shape, cap, concurrency=per_replica, **kw) if shape.generates else 0
        if shape.generates and max_seq > 0:
            batch = min(per_replica, max_seq)
            step = compute.decode_step_seconds(shape, gpu, weights_bytes=memory.weight_bytes(shape.params, s["weights_dtype"]),
                                               context=s["context"], batch=batch,
                                               kv_bytes_per_token=memory.kv_bytes_per_token(shape, s["kv_dtype"]), tp=tp)
            out["decode_tokens_per_s"] = replicas * batch / step
            out["decode_tokens_per_s_per_sequence"] = 1 / step
            out["ttft_s"] = compute.prefill_seconds(shape, gpu, tokens=s["context"], tp=tp)
        if total > cap:
            out["suggestion"] = _inference_fix(shape, s, gpu, cap, max_seq * replicas)
        it_w, node_w, nodes = power.configuration_power_w(gpu, s["gpus"])
        out["power"] = {"it_w": it_w, "node_w": node_w, "nodes": nodes, "average_w": power.average_power_w(it_w)}
    return out


def _inference_fix(shape, s, gpu, cap: int, max_conc: int) -> dict[str, Any]:
    from advisor.core import memory

    per_replica = -(-s["concurrency"] // (s["gpus"] // s["tp"]))

    def fits(**over) -> int | None:
        kw = dict(context=s["context"], concurrency=per_replica, weights_dtype=s["weights_dtype"],
                  kv_dtype=s["kv_dtype"], tp=s["tp"])
        kw.update(over)
        total = memory.inference_memory(shape, **kw).total
        return int(total) if total <= cap else None

    if s["kv_dtype"] in ("bf16", "fp16", "fp32") and (t := fits(kv_dtype="fp8")):
        return {"change": "kv_dtype", "flags": "--kv-dtype fp8", "total_bytes": t}
    for dt in ("fp8", "int4"):
        if memory.WEIGHT_BITS[dt] < memory.WEIGHT_BITS[s["weights_dtype"]] and (t := fits(weights_dtype=dt)):
            return {"change": "weights_dtype", "flags": f"--weights-dtype {dt}", "total_bytes": t}
    for tp in (2, 4, 8):
        if tp > s["tp"] and tp <= gpu.max_per_node and (t := fits(tp=tp)):
            return {"change": "more_gpus", "flags": f"--gpus {tp * (s['gpus'] // s['tp'])} --tp {tp}", "total_bytes": t}
    # more replicas of the same shape, until each holds few enough sequences
    for tp in sorted({s["tp"], 2, 4, 8}):
        if tp < s["tp"] or tp > gpu.max_per_node:
            continue
        per_replica_max = memory.max_sequences(shape, cap, context=s["context"], weights_dtype=s["weights_dtype"],
                                               kv_dtype=s["kv_dtype"], tp=tp)
        if per_replica_max > 0:
            replicas = -(-s["concurrency"] // per_replica_max)
            t = fits(tp=tp, concurrency=-(-s["concurrency"] // replicas))
            if t:
                return {"change": "more_gpus", "flags": f"--gpus {tp * replicas} --tp {tp}", "total_bytes": t}
    if max_conc > 0:
        return {"change": "fewer_sequences", "flags": f"--concurrency {max_conc}", "total_bytes": None}
    return {"change": "larger_gpu", "flags": "", "total_bytes": None}


def _terms(w, g, o, a, kv, overhead) -> dict[str, int]:
    terms = {"weights": int(w), "gradients": int(g), "optimizer": int(o), "activations": int(a),
             "kv_cache": int(kv), "overhead": int(overhead)}
    terms["total"] = sum(terms.values())
    return terms


def _money(gpu, s, out: dict[str, Any]) -> None:
    from advisor.core import cost

    buy = cost.capex_usd(gpu, s["gpus"])
    rate = cost.rent_usd_per_hour(gpu, s["gpus"])
    money: dict[str, Any] = {}
    if buy is not None:
        money["buy_usd_low"], money["buy_usd_high"] = buy.low, buy.high
        money["price_date"] = gpu.price.date
    if rate is not None:
        money["rent_usd_per_hour_low"], money["rent_usd_per_hour_high"] = rate.low, rate.high
        money["rent_date"] = gpu.cloud_hourly.date
        hours = out.get("time", {}).get("hours")
        if hours is not None:
            money["rent_usd_low"], money["rent_usd_high"] = rate.low * hours, rate.high * hours
    if buy is not None and rate is not None and "power" in out:
        from advisor.models import Profile

        defaults = Profile()
        avg_kw = out["power"]["average_w"] / 1000
        hours = cost.break_even_hours(buy.mid, rate.mid, avg_kw, defaults.electricity_usd_per_kwh, defaults.pue)
        money["break_even_hours"] = hours if math.isfinite(hours) else None
        money["assumed_usd_per_kwh"], money["assumed_pue"] = defaults.electricity_usd_per_kwh, defaults.pue
        run_hours = out.get("time", {}).get("hours")
        if run_hours is not None:
            kwh = avg_kw * run_hours * defaults.pue
            money["energy_kwh"], money["energy_usd"] = kwh, kwh * defaults.electricity_usd_per_kwh
    if money:
        out["cost"] = money


def estimate(args) -> dict[str, Any]:
    """Everything `estimate` prints, as a JSON-ready dict (bytes, seconds, watts, USD)."""
    from advisor.core import memory

    spec = resolve_model(args)
    s = _settings(args, spec)
    gpu = resolve_gpu(args.gpu)
    shape = memory.shape_from_spec(spec)
    out: dict[str, Any] = {
        "model": {"id": spec.id, "name": spec.name, "kind": spec.kind, "stand_in": bool(getattr(spec, "stand_in", False))},
        "task": s["task"],
        "params": int(shape.params),
        "active_params": int(shape.active_params),
        "config": {k: s[k] for k in ("gpus", "strategy", "tp", "pp", "batch", "seq", "checkpointing", "attention",
                                     "precision", "optimizer")},
    }
    if s["task"] == "inference":
        out["config"].update({k: s[k] for k in ("weights_dtype", "kv_dtype", "context", "concurrency")})
        out.update(_inference(spec, shape, s, gpu))
    else:
        if s["task"] in ("lora", "qlora"):
            out["config"].update({"lora_rank": s["lora_rank"], "lora_targets": s["lora_targets"]})
        out.update(_training(spec, shape, s, gpu))
    if gpu is not None:
        out["gpu"] = {"id": gpu.id, "name": gpu.name, "memory_gb": gpu.memory_gb}
        _money(gpu, s, out)
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
    lines.append(f"{m['name']}{note}: {r['params']:,} parameters"
                 + (f", {r['active_params']:,} active per token" if r["active_params"] != r["params"] else ""))
    c = r["config"]
    if r["task"] == "inference":
        lines.append(f"Serving: {c['gpus']} GPU(s), tp {c['tp']} x {r['replicas']} replica(s); "
                     f"{c['concurrency']} sequence(s) of {c['context']:,} tokens; weights {c['weights_dtype']}, "
                     f"KV {c['kv_dtype']}")
    else:
        share = r["trainable_params"] / r["params"] * 100 if r["params"] else 0
        lines.append(f"Task: {r['task']}; trainable {r['trainable_params']:,} ({share:.2f} %)")
        per_gpu = (f"{c['batch']} sample(s) per GPU" if m["kind"] in ("cnn", "vit", "diffusion")
                   else f"{c['batch']} x {c['seq']:,} tokens per GPU")
        lines.append(f"Configuration: {c['gpus']} GPU(s), {c['strategy']}, tp {c['tp']}, pp {c['pp']}; batch "
                     f"{per_gpu}; {c['precision']}, {c['optimizer']}, "
                     f"{c['attention']} attention, checkpointing {c['checkpointing']}")
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
    lines.append(f"  {'total':<26}{_gb(mem['total'])}  {_gib(mem['total']):>12}")
    if r.get("host_ram_bytes"):
        lines.append(f"  CPU RAM per node for offload: {r['host_ram_bytes'] / 1e9:.1f} GB")
    if "gpu" in r:
        g = r["gpu"]
        lines.append(f"  {'usable capacity':<26}{_gb(r['capacity_bytes'])}  {_gib(r['capacity_bytes']):>12}"
                     f"   {g['name']}")
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
        lines.append(f"Most sequences at {c['context']:,} tokens: {r['max_concurrency']:,}; "
                     f"longest context at {r['sequences_per_replica']} sequence(s) per replica: {r['max_context']:,} tokens")
        if r.get("gpus_needed"):
            lines.append(f"GPUs for {c['concurrency']:,} sequence(s) at this context: {r['gpus_needed']:,} "
                         f"(tp {c['tp']} replicas)")
        if "decode_tokens_per_s" in r:
            lines.append(f"Decode: {r['decode_tokens_per_s']:,.0f} tokens/s in all "
                         f"({r['decode_tokens_per_s_per_sequence']:.1f} per sequence); prefill of the full context "
                         f"{r['ttft_s']:.2f} s")
    t = r.get("time")
    if t:
        if "seconds" in t:
            lines.append(f"Time for {t['tokens']:,.0f} tokens: {_hours(t['seconds'])} expected "
                         f"({_hours(t['seconds_low'])} to {_hours(t['seconds_high'])}), MFU {t['mfu'] * 100:.0f} %; "
                         f"{t['flops']:.3g} FLOPs")
        else:
            lines.append(f"Compute for {t['tokens']:,.0f} tokens: {t['flops']:.3g} FLOPs (name a --gpu for time)")
    p = r.get("power")
    if p:
        lines.append(f"Power: {p['it_w'] / 1000:.2f} kW at most for {p['nodes']} server(s) "
                     f"(average {p['average_w'] / 1000:.2f} kW), before cooling (x PUE)")
    money = r.get("cost")
    if money:
        parts = []
        if "buy_usd_low" in money:
            parts.append(f"buy ${money['buy_usd_low']:,.0f}-{money['buy_usd_high']:,.0f} with servers ({money['price_date']})")
        if "rent_usd_per_hour_low" in money:
            parts.append(f"rent ${money['rent_usd_per_hour_low']:,.2f}-{money['rent_usd_per_hour_high']:,.2f}/h "
                         f"({money['rent_date']})")
        if "rent_usd_low" in money:
            parts.append(f"this run ${money['rent_usd_low']:,.0f}-{money['rent_usd_high']:,.0f} rented")
        lines.append("Cost: " + "; ".join(parts))
        if money.get("energy_usd") is not None:
            lines.append(f"Electricity for this run if owned: {money['energy_kwh']:,.0f} kWh, "
                         f"${money['energy_usd']:,.0f} (at ${money['assumed_usd_per_kwh']}/kWh, PUE {money['assumed_pue']})")
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

    try:
        result = estimate(args)
    except InputError as exc:
        print(f"gpu-advisor estimate: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:  # from the core: a combination it cannot compute
        print(f"gpu-advisor estimate: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(render_text(result))
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m advisor.commands.estimate ...`: the same command without the other subcommands' imports."""
    parser = argparse.ArgumentParser(prog="gpu-advisor estimate", description="Memory, time, power and cost of one configuration.")
    add_arguments(parser, "estimate")
    args = parser.parse_args(argv)
    from advisor.knowledge import KnowledgeError

    try:
        return run(args)
    except KnowledgeError as exc:
        print(f"gpu-advisor: the knowledge base is broken — {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
