"""Exact parameter counts from a model's dimensions, and model specs from what users give us.

Everything downstream (weights, gradients, optimizer state, FLOPs, cost) scales with the
parameter count, so it has to be exact, not "about 7B". The count is computed term by term from
the architecture (the form of Megatron-LM `theoretical_memory_usage.py`, extended to the details
that make real checkpoints differ: GQA and multi-query attention, gated MLPs, QKV biases,
LayerNorm biases, learned and relative positions, token-type embeddings, tied embeddings and head
biases, parallel attention+MLP blocks, encoder-decoders, MoE experts and routers). Tests compare it
with independently published totals (shared/reference/numeric-anchors.md §4) and, for architectures
without one, with transformers' own count of the same config.json (tools/hf_param_counts.py).

Users name a model in three ways and this module turns each into a `ModelSpec`:
a catalogue name (resolved in `advisor.knowledge`), a Hugging Face `config.json`
(`spec_from_hf_config`, `load_hf_config`) or a bare size such as "7B" (`spec_from_param_count`).

Pure functions, no pydantic validation in the hot paths: `param_count` reads attributes only.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from advisor.fsutil import InputFileError, format_limit, read_text_bounded

TYPE_CHECKING = False  # not `typing`'s: counting a catalogue model's parameters imports no pydantic
if TYPE_CHECKING:
    from pydantic import ValidationError

    from advisor.models import ModelSpec

__all__ = [
    "ConfigError",
    "LORA_TARGETS",
    "SUPPORTED_MODEL_TYPES",
    "active_param_count",
    "load_hf_config",
    "lora_trainable_params",
    "param_count",
    "spec_from_hf_config",
    "spec_from_param_count",
]

LORA_TARGETS: tuple[str, ...] = ("q", "k", "v", "o", "gate", "up", "down")
"""Projection names LoRA may adapt (Hugging Face module names without `_proj`)."""


class ConfigError(Exception):
    """A model config the advisor cannot use: missing file, bad JSON, missing keys, unknown model type.

    `str(err)` is a complete English sentence. For other languages, `key` names a UI string in
    `knowledge/ui/model_config.yaml` and `values` fills its placeholders: ``t(err.key, locale, **err.values)``.
    """

    def __init__(self, message: str, key: str = "config_error.invalid", **values: Any):
        super().__init__(message)
        self.key = key
        self.values = {name: str(value) for name, value in values.items()}


# --------------------------------------------------------------------------------------------
# Counting


def _head_dim(spec: ModelSpec) -> int:
    if spec.head_dim:
        return spec.head_dim
    return spec.hidden_size // spec.num_heads  # type: ignore[operator]


def _has_dims(spec: ModelSpec) -> bool:
    return bool(spec.hidden_size and spec.num_layers and spec.num_heads)


def _norm_params(spec: ModelSpec, width: int) -> int:
    """One norm over `width` features: RMSNorm has a weight, LayerNorm a weight and a bias (MPT: none)."""
    return 2 * width if spec.norm == "layernorm" and spec.norm_bias else width


def _mlp_params(spec: ModelSpec, ffn: int) -> int:
    """One MLP of width `ffn`: gated (gate, up, down) or plain (up, down), with optional biases."""
    h = spec.hidden_size
    assert h is not None  # callers check _has_dims first
    if spec.mlp == "gelu":
        weights = 2 * h * ffn
        biases = ffn + h if spec.mlp_bias else 0
    else:
        weights = 3 * h * ffn
        biases = 2 * ffn + h if spec.mlp_bias else 0
    return weights + biases


def _attention_params(spec: ModelSpec) -> int:
    """W_q (h x a*d), W_k and W_v (h x kv*d each, GQA), W_o (a*d x h), biases and q/k norms."""
    h = spec.hidden_size or 0
    a = spec.num_heads or 0
    kv = spec.num_kv_heads or a
    d = _head_dim(spec)
    q_out, kv_out = a * d, kv * d
    total = h * q_out + 2 * h * kv_out + q_out * h
    if spec.attention_bias:
        total += q_out + 2 * kv_out + h
    elif spec.qkv_bias:
        total += q_out + 2 * kv_out
    if spec.qk_norm == "head":
        total += 2 * _norm_params(spec, d)
    elif spec.qk_norm == "full":
        total += _norm_params(spec, q_out) + _norm_params(spec, kv_out)
    return total


def _ffn_block_params(spec: ModelSpec, experts_used: int | None) -> int:
    """The feed-forward part of one block: a dense MLP, or routed experts + router + shared expert.

    `experts_used` None counts every expert (total); a number counts that many (active per token).
    """
    if not spec.num_experts:
        return _mlp_params(spec, spec.intermediate_size or 4 * spec.hidden_size)  # type: ignore[operator]
    h = spec.hidden_size or 0
    width = spec.moe_intermediate_size or spec.intermediate_size or 4 * h
    experts = spec.num_experts if experts_used is None else experts_used
    total = experts * _mlp_params(spec, width) + h * spec.num_experts  # router: h x E, always run
    if spec.shared_expert_intermediate_size:
        total += _mlp_params(spec, spec.shared_expert_intermediate_size)
        if spec.shared_expert_gate:
            total += h
    return total


def _vit_params(spec: ModelSpec) -> int:
    """ViT (Dosovitskiy et al.; torchvision `vision_transformer.py`): a pre-LN BERT-style encoder
    over patches, plus patch projection, class token, position table and classifier."""
    h = spec.hidden_size or 0
    p = spec.patch_size or 0
    channels = spec.num_channels or 3
    side = spec.input_resolution or 224
    tokens = (side // p) ** 2 + 1
    embed = channels * p * p * h + h + h + tokens * h  # conv weight + bias, class token, positions
    block = _attention_params(spec) + _mlp_params(spec, spec.intermediate_size or 4 * h)
    block += spec.norms_per_layer * _norm_params(spec, h)
    head = (h * spec.num_labels + spec.num_labels) if spec.num_labels else 0
    final = _norm_params(spec, h) if spec.final_norm else 0
    return embed + (spec.num_layers or 0) * block + final + head


def _transformer_params(spec: ModelSpec, experts_used: int | None) -> int:
    h = spec.hidden_size or 0
    vocab = spec.vocab_size or 0
    embed = vocab * h
    if spec.position == "learned":
        embed += (spec.max_position_embeddings or spec.max_context or 0) * h
    embed += spec.type_vocab_size * h
    if spec.embedding_norm:
        embed += _norm_params(spec, h)
    block = _attention_params(spec) + _ffn_block_params(spec, experts_used)
    block += spec.norms_per_layer * _norm_params(spec, h)
    total = embed + (spec.num_layers or 0) * block
    if spec.final_norm:
        total += _norm_params(spec, h)
    if spec.pooler:
        total += h * h + h
    # An encoder (BERT) has no LM head here; a decoder has one unless it reuses the embedding.
    if spec.kind in ("decoder", "moe"):
        total += _lm_head_params(spec)
    return total


def _lm_head_params(spec: ModelSpec) -> int:
    """The output projection: vocab x h unless tied to the embedding, plus a bias where there is one
    (Phi's lm_head is `nn.Linear(h, vocab, bias=True)`; a tied head still has its own bias)."""
    vocab, h = spec.vocab_size or 0, spec.hidden_size or 0
    return (0 if spec.tie_embeddings else vocab * h) + (vocab if spec.lm_head_bias else 0)


def _seq2seq_params(spec: ModelSpec) -> int:
    """An encoder-decoder (T5, mT5; transformers `T5ForConditionalGeneration`, Raffel et al.
    arXiv:1910.10683): one shared embedding; encoder blocks of self-attention + MLP, decoder blocks
    with a cross-attention (q, k, v, o like self-attention, own norm) between them; each stack a
    final norm and, in its first block only, a relative-position table of buckets x heads
    (`has_relative_attention_bias=bool(i == 0)`); then the LM head unless tied.

    `num_layers` counts the blocks of both stacks and `decoder_layers` the decoder's; the encoder
    gets the rest. `norms_per_layer` is the encoder block's count (T5: 2); a decoder block has one more.
    """
    h = spec.hidden_size or 0
    layers = spec.num_layers or 0
    decoder = spec.decoder_layers or 0
    encoder = layers - decoder
    attention = _attention_params(spec)
    norm = _norm_params(spec, h)
    encoder_block = attention + _mlp_params(spec, spec.intermediate_size or 4 * h) + spec.norms_per_layer * norm
    decoder_block = encoder_block + attention + norm
    total = (spec.vocab_size or 0) * h + encoder * encoder_block + decoder * decoder_block
    stacks = (encoder > 0) + (decoder > 0)
    if spec.position == "relative":
        total += stacks * (spec.relative_attention_buckets or 32) * (spec.num_heads or 0)
    if spec.final_norm:
        total += stacks * norm
    return total + _lm_head_params(spec)


def param_count(spec: ModelSpec) -> int:
    """Total parameters, exact from the dimensions for transformers (decoder, MoE, encoder, seq2seq, ViT).

    CNNs, diffusion UNets, entries without dimensions and stand-ins for a bare size return the
    published `spec.params`. Rotary `inv_freq` buffers are not parameters and are not counted
    (Hugging Face safetensors totals of Llama 1/2 include them: + head_dim/2 per layer).
    """
    if spec.stand_in:
        return spec.params
    if spec.kind == "vit":
        return _vit_params(spec) if (_has_dims(spec) and spec.patch_size) else spec.params
    if spec.kind == "seq2seq":
        return _seq2seq_params(spec) if (_has_dims(spec) and spec.vocab_size) else spec.params
    if spec.kind in ("decoder", "moe", "encoder") and _has_dims(spec) and spec.vocab_size:
        return _transformer_params(spec, None)
    return spec.params


def active_param_count(spec: ModelSpec) -> int:
    """Parameters used per token: for MoE, `experts_per_token` of `num_experts` (router and shared
    expert always); for dense models, the total."""
    if not spec.num_experts:
        return param_count(spec)
    if spec.stand_in or not (_has_dims(spec) and spec.vocab_size):
        return spec.active_params or spec.params
    return _transformer_params(spec, spec.experts_per_token or spec.num_experts)


def lora_trainable_params(spec: ModelSpec, rank: int, targets: Iterable[str]) -> int:
    """Parameters LoRA adds: r·(d_in + d_out) per adapted matrix, in every layer (Hu et al.,
    arXiv:2106.09685; PEFT `LoraLayer`: A is r x d_in, B is d_out x r, no bias).

    `targets` among q, k, v, o, gate, up, down (`q_proj`-style names, `all` and `all-linear`
    accepted). GQA: k and v project h -> kv_heads·head_dim. A plain GELU MLP has no gate (skipped).
    Fused matrices (`fused_qkv`: GPT-2 c_attn, Phi-3 qkv_proj; `fused_gate_up`: Phi-3 gate_up_proj)
    are one module to PEFT: naming any of their parts adapts the whole, with one shared A.
    MoE: gate/up/down are adapted in every expert and in the shared expert. seq2seq (T5): q, k, v, o
    are adapted in the decoder's cross-attention too (PEFT matches the module names `q`, `k`, `v`,
    `o` in both `SelfAttention` and `EncDecAttention`); gate, up, down are T5's wi_0, wi_1, wo.
    Raises ValueError for a rank < 1, an unknown target or a model without transformer dimensions.
    """
    if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
        raise ValueError(f"LoRA rank must be a positive whole number, got {rank!r}")
    wanted = _lora_targets(targets)
    if not (_has_dims(spec) and spec.kind in ("decoder", "moe", "encoder", "seq2seq", "vit")):
        raise ValueError(f"LoRA needs a transformer's dimensions; {spec.name} ({spec.kind}) has none")
    h = spec.hidden_size
    a = spec.num_heads
    kv = spec.num_kv_heads or a
    d = _head_dim(spec)
    q_out, kv_out = a * d, kv * d  # type: ignore[operator]
    per_layer = 0
    if spec.fused_qkv and wanted & {"q", "k", "v"}:
        per_layer += rank * (h + q_out + 2 * kv_out)  # type: ignore[operator]
    else:
        for name, d_out in (("q", q_out), ("k", kv_out), ("v", kv_out)):
            if name in wanted:
                per_layer += rank * (h + d_out)  # type: ignore[operator]
    if "o" in wanted:
        per_layer += rank * (q_out + h)  # type: ignore[operator]
    cross_attention = per_layer * (spec.decoder_layers or 0) if spec.kind == "seq2seq" else 0

    def mlp_lora(ffn: int) -> int:
        total = 0
        gated = spec.mlp != "gelu"
        if gated and spec.fused_gate_up and wanted & {"gate", "up"}:
            total += rank * (h + 2 * ffn)  # type: ignore[operator]
        else:
            for name in ("gate", "up"):
                if name in wanted and (name == "up" or gated):
                    total += rank * (h + ffn)  # type: ignore[operator]
        if "down" in wanted:
            total += rank * (ffn + h)  # type: ignore[operator]
        return total

    if spec.num_experts:
        width = spec.moe_intermediate_size or spec.intermediate_size or 4 * h  # type: ignore[operator]
        per_layer += spec.num_experts * mlp_lora(width)
        if spec.shared_expert_intermediate_size:
            per_layer += mlp_lora(spec.shared_expert_intermediate_size)
    else:
        per_layer += mlp_lora(spec.intermediate_size or 4 * h)  # type: ignore[operator]
    return per_layer * spec.num_layers + cross_attention  # type: ignore[operator]


def _lora_targets(targets: Iterable[str]) -> set[str]:
    if isinstance(targets, str):
        targets = targets.replace(";", ",").split(",")
    wanted: set[str] = set()
    for raw in targets:
        name = str(raw).strip().lower()
        if not name:
            continue
        if name in ("all", "all-linear", "all_linear"):
            wanted.update(LORA_TARGETS)
            continue
        name = name.removesuffix("_proj")
        if name not in LORA_TARGETS:
            raise ValueError(f"unknown LoRA target {raw!r}; choose among {', '.join(LORA_TARGETS)}")
        wanted.add(name)
    if not wanted:
        raise ValueError(f"no LoRA target given; choose among {', '.join(LORA_TARGETS)}")
    return wanted


# --------------------------------------------------------------------------------------------
# A stand-in for a bare "7B"

# Shapes of real models (config.json): (hidden, layers, heads, kv_heads, ffn, vocab, tied, max_context).
# The stand-in takes the nearest one in log-size and adjusts the layer count to land on n.
_STAND_IN_SHAPES: tuple[tuple[str, int, int, int, int, int, int, bool, int], ...] = (
    ("SmolLM2-135M", 576, 30, 9, 3, 1536, 49152, True, 8192),
    ("SmolLM2-360M", 960, 32, 15, 5, 2560, 49152, True, 8192),
    ("Llama-3.2-1B", 2048, 16, 32, 8, 8192, 128256, True, 131072),
    ("Llama-3.2-3B", 3072, 28, 24, 8, 8192, 128256, True, 131072),
    ("Mistral-7B-v0.1", 4096, 32, 32, 8, 14336, 32000, False, 32768),
    ("Llama-3.1-8B", 4096, 32, 32, 8, 14336, 128256, False, 131072),
    ("Llama-2-13B (with 8 KV heads)", 5120, 40, 40, 8, 13824, 32000, False, 4096),
    ("CodeLlama-34B", 8192, 48, 64, 8, 22016, 32000, False, 16384),
    ("Llama-3.1-70B", 8192, 80, 64, 8, 28672, 128256, False, 131072),
    ("Llama-3.1-405B", 16384, 126, 128, 8, 53248, 128256, False, 131072),
)


def _shape_spec(row: tuple[str, int, int, int, int, int, int, bool, int], layers: int, n: int) -> ModelSpec:
    from advisor.models import ModelSpec

    label, h, _, a, kv, ffn, vocab, tied, ctx = row
    return ModelSpec.model_construct(
        id=f"custom-{n}",
        name=_human_size(n),
        family="llama",
        kind="decoder",
        params=n,
        hidden_size=h,
        num_layers=layers,
        num_heads=a,
        num_kv_heads=kv,
        head_dim=h // a,
        intermediate_size=ffn,
        vocab_size=vocab,
        max_context=ctx,
        tie_embeddings=tied,
        stand_in=True,
        source=f"stand-in for a bare size: {label} shape with {layers} layers (about {n:,} parameters as stated)",
    )


def _human_size(n: int) -> str:
    for scale, suffix in ((1e9, "B"), (1e6, "M")):
        if n >= scale:
            value = n / scale
            return f"{value:,.0f}{suffix} model" if value >= 100 else f"{value:.3g}{suffix} model"
    return f"{n:,}-parameter model"


def spec_from_param_count(n: int) -> ModelSpec:
    """A plausible Llama-shaped stand-in for a model known only by its size ("7B", "70亿").

    `params` is `n` exactly; hidden size, heads, KV heads, FFN and vocabulary come from the real
    model nearest in size, and the layer count is chosen so that the dimensions add up to about
    `n` — so activation and KV-cache estimates are those of a real model of that size.
    Raises ValueError for n <= 0.
    """
    if isinstance(n, bool) or not isinstance(n, (int, float)) or not math.isfinite(n) or n <= 0:
        raise ValueError(f"a model size must be a positive number of parameters, got {n!r}")
    n = int(round(n))
    if n <= 0:
        raise ValueError("a model size must be at least one parameter")
    best = None
    for row in _STAND_IN_SHAPES:
        spec = _shape_spec(row, row[2], n)
        size = _transformer_params(spec, None)
        distance = abs(math.log(n / size))
        if best is None or distance < best[0]:
            best = (distance, row, spec)
    assert best is not None
    _, row, spec = best
    h, layers = row[1], row[2]
    per_layer = _attention_params(spec) + _ffn_block_params(spec, None) + 2 * h
    fixed = _transformer_params(spec, None) - layers * per_layer
    wanted = round((n - fixed) / per_layer) if n > fixed else 1
    adjusted = max(1, layers // 3, min(2 * layers, wanted))
    from advisor.models import ModelSpec

    return ModelSpec.model_validate(_shape_spec(row, adjusted, n).model_dump())


# --------------------------------------------------------------------------------------------
# Hugging Face config.json

# model_type -> (family, kind, reader). Each is read by `_read_<reader>` below (`_READERS`).
_MODEL_TYPES: dict[str, tuple[str, str, str]] = {
    "llama": ("llama", "decoder", "llama"),
    "mistral": ("mistral", "decoder", "llama"),
    "mixtral": ("mixtral", "moe", "llama"),
    "qwen2": ("qwen2", "decoder", "llama"),
    "qwen2_moe": ("qwen2", "moe", "llama"),
    "qwen3": ("qwen3", "decoder", "llama"),
    "gemma": ("gemma", "decoder", "llama"),
    "gemma2": ("gemma", "decoder", "llama"),
    "phi3": ("phi3", "decoder", "llama"),
    "olmo2": ("olmo", "decoder", "llama"),
    "gpt2": ("gpt2", "decoder", "gpt2"),
    "gpt_bigcode": ("starcoder", "decoder", "gpt_bigcode"),
    "phi": ("phi", "decoder", "phi"),
    "stablelm": ("stablelm", "decoder", "stablelm"),
    "gpt_neox": ("gpt-neox", "decoder", "gpt_neox"),
    "falcon": ("falcon", "decoder", "falcon"),
    "bloom": ("bloom", "decoder", "bloom"),
    "mpt": ("mpt", "decoder", "mpt"),
    "t5": ("t5", "seq2seq", "t5"),
    "mt5": ("t5", "seq2seq", "t5"),
    "bert": ("bert", "encoder", "bert"),
    "vit": ("vit", "vit", "vit"),
}
SUPPORTED_MODEL_TYPES: tuple[str, ...] = tuple(_MODEL_TYPES)

# Config-class defaults for tie_word_embeddings when a config.json omits the key (transformers).
_TIED_BY_DEFAULT = {"gemma", "gemma2", "gpt2", "qwen3"}


def _int_field(config: Mapping[str, Any], key: str, *, minimum: int = 1) -> int | None:
    value = config.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or value < minimum:
        raise ConfigError(
            f"config.json: {key} must be a whole number of at least {minimum}, got {value!r}",
            "config_error.bad_value",
            field=key,
            value=repr(value),
        )
    return int(value)


def _first(config: Mapping[str, Any], *keys: str) -> tuple[str, Any]:
    for key in keys:
        if config.get(key) is not None:
            return key, config[key]
    return keys[0], None


_DECODER_DIMS: dict[str, tuple[str, ...]] = {
    "hidden_size": ("hidden_size",),
    "num_layers": ("num_hidden_layers",),
    "num_heads": ("num_attention_heads",),
    "intermediate_size": ("intermediate_size",),
    "vocab_size": ("vocab_size",),
}
"""The dimensions every Llama-style config.json names the same way (transformers `PretrainedConfig`)."""


def _require(config: Mapping[str, Any], wanted: dict[str, tuple[str, ...]], model_type: str) -> dict[str, int]:
    """Read each required dimension (any of its spellings); name every missing one at once."""
    out: dict[str, int] = {}
    missing: list[str] = []
    for field, keys in wanted.items():
        key, value = _first(config, *keys)
        if value is None:
            missing.append(" or ".join(keys))
            continue
        out[field] = _int_field(config, key)  # type: ignore[assignment]
    if missing:
        raise ConfigError(
            f"config.json ({model_type}) is missing {', '.join(missing)}",
            "config_error.missing_keys",
            model_type=model_type,
            keys=", ".join(missing),
        )
    return out


def _bool_field(config: Mapping[str, Any], key: str, default: bool) -> bool:
    value = config.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ConfigError(
            f"config.json: {key} must be true or false, got {value!r}",
            "config_error.bad_value",
            field=key,
            value=repr(value),
        )
    return value


def spec_from_hf_config(config: dict, name: str = "custom") -> ModelSpec:
    """A `ModelSpec` from a Hugging Face `config.json` dict.

    model_type llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, gemma, gemma2, phi3, olmo2,
    gpt2, gpt_bigcode, phi, stablelm, gpt_neox, falcon, bloom, mpt, t5, mt5, bert, vit. `params`
    is the exact count from the dimensions (each reader names the transformers modules it mirrors).
    Raises `ConfigError` naming every missing key, a bad value, an unknown model_type (with the
    supported ones) or a variant whose extra parameters we do not count.
    """
    if not isinstance(config, Mapping):
        raise ConfigError(
            f"a model config must be a JSON object of settings, got {type(config).__name__}",
            "config_error.not_object",
        )
    model_type = config.get("model_type")
    if not model_type and isinstance(config.get("text_config"), Mapping):
        config = config["text_config"]
        model_type = config.get("model_type")
    supported = ", ".join(SUPPORTED_MODEL_TYPES)
    if not model_type:
        raise ConfigError(
            f"config.json has no model_type; supported model types: {supported}",
            "config_error.missing_keys",
            model_type="?",
            keys="model_type",
        )
    model_type = str(model_type)
    if model_type not in _MODEL_TYPES:
        raise ConfigError(
            f"model_type {model_type!r} is not supported; supported model types: {supported}",
            "config_error.unknown_model_type",
            model_type=model_type,
            supported=supported,
        )
    family, kind, reader = _MODEL_TYPES[model_type]
    fields: dict[str, Any] = {"family": family, "kind": kind}
    fields.update(_READERS[reader](config, model_type))
    ident = "custom-" + "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-") if name else "custom"
    from pydantic import ValidationError

    from advisor.models import ModelSpec

    draft = ModelSpec.model_construct(
        id=ident, name=name or "custom", source="Hugging Face config.json", params=1, **fields
    )
    total = param_count(draft)
    active = active_param_count(draft) if draft.num_experts else None
    try:
        return ModelSpec(
            id=ident,
            name=name or "custom",
            params=total,
            active_params=active,
            source="Hugging Face config.json (parameters counted from its dimensions)",
            **fields,
        )
    except ValidationError as exc:  # a value outside what a model can be (models.py bounds): one line
        raise _bad_value(exc, fields) from None


def _bad_value(exc: ValidationError, fields: Mapping[str, Any]) -> ConfigError:
    """The first problem of a `ModelSpec` built from a config.json, as one `config_error.bad_value` line."""
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"])
    if not field and fields.get("experts_per_token") is not None:  # the experts check spans two fields
        field, value = "num_experts_per_tok", f"{fields['experts_per_token']} > {fields.get('num_experts')}"
    else:
        value = repr(err.get("input"))[:40]
    message = str(err.get("msg", "invalid")).splitlines()[0]
    return ConfigError(
        f"config.json: {field or 'value'} = {value} cannot describe a model ({message})",
        "config_error.bad_value",
        field=field or "?",
        value=value,
    )


def _heads(
    config: Mapping[str, Any], dims: Mapping[str, int], kv_key: str = "num_key_value_heads", kv: int | None = None
) -> tuple[int, int]:
    """(KV heads, head_dim): `kv`, else `kv_key` (default: one per query head); head_dim as given,
    else hidden / heads, which must then divide. Heads must be a multiple of KV heads (GQA groups)."""
    kv = kv or _int_field(config, kv_key) or dims["num_heads"]
    head_dim = _int_field(config, "head_dim")
    if head_dim is None:
        if dims["hidden_size"] % dims["num_heads"]:
            raise ConfigError(
                f"config.json: hidden_size {dims['hidden_size']} is not divisible by num_attention_heads "
                f"{dims['num_heads']} and no head_dim is given",
                "config_error.bad_value",
                field="head_dim",
                value="null",
            )
        head_dim = dims["hidden_size"] // dims["num_heads"]
    if dims["num_heads"] % kv:
        raise ConfigError(
            f"config.json: num_attention_heads {dims['num_heads']} is not a multiple of {kv_key} {kv}",
            "config_error.bad_value",
            field=kv_key,
            value=kv,
        )
    return kv, head_dim


def _unsupported(model_type: str, key: str, value: Any, why: str) -> ConfigError:
    """A variant whose extra (or missing) parameters the count does not model: better refused than miscounted."""
    return ConfigError(
        f"config.json ({model_type}): {key} = {value!r} is not supported ({why})",
        "config_error.unsupported_variant",
        model_type=model_type,
        field=key,
        value=repr(value),
    )


def _read_llama(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    dims = _require(config, _DECODER_DIMS, model_type)
    if model_type == "qwen2_moe":
        dims.update(
            _require(
                config,
                {"num_experts": ("num_experts",), "moe_intermediate_size": ("moe_intermediate_size",)},
                model_type,
            )
        )
    if model_type == "mixtral":
        dims.update(_require(config, {"num_experts": ("num_local_experts",)}, model_type))
    kv, head_dim = _heads(config, dims)
    out: dict[str, Any] = {
        **dims,
        "num_kv_heads": kv,
        "head_dim": head_dim,
        "tie_embeddings": _bool_field(config, "tie_word_embeddings", model_type in _TIED_BY_DEFAULT),
        "max_context": _int_field(config, "max_position_embeddings"),
        "attention_bias": _bool_field(config, "attention_bias", False),
        "mlp_bias": _bool_field(config, "mlp_bias", False),
    }
    if model_type in ("qwen2", "qwen2_moe"):
        out["qkv_bias"] = True  # Qwen2 attention: q, k, v with bias, o without (transformers Qwen2Attention)
        out["attention_bias"] = False
    if model_type == "phi3":
        out["fused_qkv"] = out["fused_gate_up"] = True  # Phi3Attention.qkv_proj, Phi3MLP.gate_up_proj
    if model_type in ("gemma", "gemma2"):
        out["mlp"] = "geglu"
    if model_type == "gemma2":
        out["norms_per_layer"] = 4  # input, post-attention, pre-feedforward, post-feedforward
    if model_type == "olmo2":
        out["qk_norm"] = "full"  # q_norm over heads·head_dim, k_norm over kv_heads·head_dim
    if model_type == "qwen3":
        out["qk_norm"] = "head"
    if model_type in ("mixtral", "qwen2_moe"):
        out["experts_per_token"] = _int_field(config, "num_experts_per_tok") or 2
    if model_type == "qwen2_moe":
        shared = _int_field(config, "shared_expert_intermediate_size")
        if shared:
            out["shared_expert_intermediate_size"] = shared
            out["shared_expert_gate"] = True
        sparse_step = _int_field(config, "decoder_sparse_step") or 1
        if sparse_step != 1 or config.get("mlp_only_layers"):
            raise ConfigError(
                "config.json: Qwen-MoE with dense layers mixed in (decoder_sparse_step > 1 or mlp_only_layers) "
                "is not supported",
                "config_error.bad_value",
                field="decoder_sparse_step",
                value=sparse_step,
            )
    return out


def _read_gpt2(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    dims = _require(
        config,
        {
            "hidden_size": ("n_embd", "hidden_size"),
            "num_layers": ("n_layer", "num_hidden_layers"),
            "num_heads": ("n_head", "num_attention_heads"),
            "vocab_size": ("vocab_size",),
            "max_context": ("n_positions", "n_ctx", "max_position_embeddings"),
        },
        "gpt2",
    )
    inner = _int_field(config, "n_inner") or 4 * dims["hidden_size"]
    return {
        **dims,
        "num_kv_heads": dims["num_heads"],
        "head_dim": dims["hidden_size"] // dims["num_heads"],
        "intermediate_size": inner,
        "max_position_embeddings": dims["max_context"],
        "tie_embeddings": _bool_field(config, "tie_word_embeddings", True),
        "mlp": "gelu",
        "norm": "layernorm",
        "attention_bias": True,
        "mlp_bias": True,
        "position": "learned",
        "fused_qkv": True,  # c_attn
    }


def _read_bert(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    dims = _require(
        config,
        {
            "hidden_size": ("hidden_size",),
            "num_layers": ("num_hidden_layers",),
            "num_heads": ("num_attention_heads",),
            "intermediate_size": ("intermediate_size",),
            "vocab_size": ("vocab_size",),
            "max_context": ("max_position_embeddings",),
        },
        "bert",
    )
    type_vocab = config.get("type_vocab_size", 2)
    return {
        **dims,
        "num_kv_heads": dims["num_heads"],
        "head_dim": dims["hidden_size"] // dims["num_heads"],
        "max_position_embeddings": dims["max_context"],
        "type_vocab_size": _int_field({"type_vocab_size": type_vocab}, "type_vocab_size", minimum=0) or 0,
        "tie_embeddings": True,
        "mlp": "gelu",
        "norm": "layernorm",
        "attention_bias": True,
        "mlp_bias": True,
        "position": "learned",
        "embedding_norm": True,
        "final_norm": False,
        "pooler": True,
    }


def _read_vit(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    dims = _require(
        config,
        {
            "hidden_size": ("hidden_size",),
            "num_layers": ("num_hidden_layers",),
            "num_heads": ("num_attention_heads",),
            "intermediate_size": ("intermediate_size",),
            "patch_size": ("patch_size",),
        },
        "vit",
    )
    labels = config.get("id2label")
    num_labels = len(labels) if isinstance(labels, Mapping) else (_int_field(config, "num_labels", minimum=0) or 0)
    return {
        **dims,
        "num_kv_heads": dims["num_heads"],
        "head_dim": dims["hidden_size"] // dims["num_heads"],
        "input_resolution": _int_field(config, "image_size") or 224,
        "num_channels": _int_field(config, "num_channels") or 3,
        "num_labels": num_labels,
        "mlp": "gelu",
        "norm": "layernorm",
        "attention_bias": _bool_field(config, "qkv_bias", True),
        "mlp_bias": True,
        "position": "learned",
    }


def _read_gpt_bigcode(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    """StarCoder, SantaCoder-style GPT-2 with multi-query attention (transformers `GPTBigCodeModel`):
    learned positions `wpe` (n_positions x h), `c_attn` h -> h + 2·kv_dim with bias (kv_dim = head_dim
    under multi_query, else h), `c_proj`, `c_fc`/`c_proj` MLP (n_inner, default 4h) with biases,
    LayerNorms ln_1, ln_2, ln_f; head tied by default (GPTBigCodeConfig)."""
    dims = _require(
        config,
        {
            "hidden_size": ("n_embd", "hidden_size"),
            "num_layers": ("n_layer", "num_hidden_layers"),
            "num_heads": ("n_head", "num_attention_heads"),
            "vocab_size": ("vocab_size",),
            "max_context": ("n_positions", "max_position_embeddings"),
        },
        model_type,
    )
    multi_query = _bool_field(config, "multi_query", True)
    kv, head_dim = _heads({}, dims, kv=1 if multi_query else None)
    return {
        **dims,
        "num_kv_heads": kv,
        "head_dim": head_dim,
        "intermediate_size": _int_field(config, "n_inner") or 4 * dims["hidden_size"],
        "max_position_embeddings": dims["max_context"],
        "tie_embeddings": _bool_field(config, "tie_word_embeddings", True),
        "mlp": "gelu",
        "norm": "layernorm",
        "attention_bias": True,
        "mlp_bias": True,
        "position": "learned",
        "fused_qkv": True,  # c_attn
    }


def _read_phi(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    """Phi-1, Phi-1.5, Phi-2 (transformers `PhiModel`): one LayerNorm per block feeding attention and
    MLP in parallel; q, k, v and `dense` with biases; `fc1`/`fc2` GELU MLP with biases; partial
    rotary (no parameters); optional per-head q/k LayerNorms; untied `lm_head` with a bias."""
    dims = _require(config, _DECODER_DIMS, model_type)
    kv, head_dim = _heads(config, dims)
    return {
        **dims,
        "num_kv_heads": kv,
        "head_dim": head_dim,
        "max_context": _int_field(config, "max_position_embeddings"),
        "tie_embeddings": _bool_field(config, "tie_word_embeddings", False),
        "mlp": "gelu",
        "norm": "layernorm",
        "norms_per_layer": 1,  # input_layernorm only: attention and MLP read the same normalised input
        "qk_norm": "head" if _bool_field(config, "qk_layernorm", False) else "none",
        "attention_bias": True,
        "mlp_bias": True,
        "lm_head_bias": True,
    }


def _read_stablelm(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    """StableLM-3B-4E1T, StableLM 2 (transformers `StableLmModel`): a Llama block with LayerNorms
    (weight and bias), optional q/k/v biases (`use_qkv_bias`), partial rotary; with
    `use_parallel_residual` the post-attention norm is absent. Untied head by default."""
    dims = _require(config, _DECODER_DIMS, model_type)
    if _bool_field(config, "qk_layernorm", False):
        # StableLmLayerNormPerHead: one bias-free LayerNorm per head (q and k), not modelled here.
        raise _unsupported(model_type, "qk_layernorm", True, "per-head q/k LayerNorms without bias")
    # StableLmAttention: head_dim is always hidden / heads (o_proj is h x h), whatever the config says.
    kv, head_dim = _heads({}, dims, kv=_int_field(config, "num_key_value_heads"))
    return {
        **dims,
        "num_kv_heads": kv,
        "head_dim": head_dim,
        "max_context": _int_field(config, "max_position_embeddings"),
        "tie_embeddings": _bool_field(config, "tie_word_embeddings", False),
        "norm": "layernorm",
        "norms_per_layer": 1 if _bool_field(config, "use_parallel_residual", False) else 2,
        "qkv_bias": _bool_field(config, "use_qkv_bias", False),
    }


def _read_gpt_neox(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    """GPT-NeoX, Pythia, StableLM-Alpha (transformers `GPTNeoXModel`): fused `query_key_value`
    h -> 3h and `dense`, biased unless `attention_bias` is false; GELU MLP with biases; two LayerNorms
    per block even with the parallel residual; partial rotary; untied `embed_out` by default."""
    dims = _require(config, _DECODER_DIMS, model_type)
    _, head_dim = _heads({}, dims)
    return {
        **dims,
        "num_kv_heads": dims["num_heads"],
        "head_dim": head_dim,
        "max_context": _int_field(config, "max_position_embeddings"),
        "tie_embeddings": _bool_field(config, "tie_word_embeddings", False),
        "mlp": "gelu",
        "norm": "layernorm",
        "attention_bias": _bool_field(config, "attention_bias", True),
        "mlp_bias": True,
        "fused_qkv": True,  # query_key_value
    }


def _read_falcon(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    """Falcon (transformers `FalconModel`). Attention `query_key_value` projects h -> (a + 2·kv)·d:
    the new decoder architecture (Falcon-40B/180B) has `num_kv_heads` KV heads, the old one multi-query
    (1 KV head, Falcon-7B) or full multi-head. Norms per block: 2 (ln_attn, ln_mlp) in the new
    architecture (`num_ln_in_parallel_attn` 2, its default there) or without parallel attention,
    else 1. GELU MLP `ffn_hidden_size` (default 4h); `bias` applies to every linear layer; LayerNorms
    have biases; rotary or ALiBi (no parameters); head tied by default (FalconConfig)."""
    dims = _require(
        config,
        {
            "hidden_size": ("hidden_size", "n_embed"),
            "num_layers": ("num_hidden_layers",),
            "num_heads": ("num_attention_heads",),
            "vocab_size": ("vocab_size",),
        },
        model_type,
    )
    new_architecture = _bool_field(config, "new_decoder_architecture", False)
    if new_architecture:
        kv, head_dim = _heads({}, dims, "num_kv_heads", _int_field(config, "num_kv_heads"))
    else:  # FalconAttention: num_kv_heads only counts in the new architecture
        kv, head_dim = _heads({}, dims, kv=1 if _bool_field(config, "multi_query", True) else None)
    norms_in_parallel = _int_field(config, "num_ln_in_parallel_attn") or (2 if new_architecture else 1)
    parallel = _bool_field(config, "parallel_attn", True)
    bias = _bool_field(config, "bias", False)
    return {
        **dims,
        "num_kv_heads": kv,
        "head_dim": head_dim,
        "intermediate_size": _int_field(config, "ffn_hidden_size") or 4 * dims["hidden_size"],
        "max_context": _int_field(config, "max_position_embeddings") or 2048,  # FalconConfig default
        "tie_embeddings": _bool_field(config, "tie_word_embeddings", True),
        "mlp": "gelu",
        "norm": "layernorm",
        "norms_per_layer": 2 if (not parallel or norms_in_parallel == 2) else 1,
        "attention_bias": bias,
        "mlp_bias": bias,
        "position": "alibi" if _bool_field(config, "alibi", False) else "rope",
        "fused_qkv": True,  # query_key_value
    }


def _read_bloom(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    """BLOOM, BLOOMZ (transformers `BloomModel`; Le Scao et al., arXiv:2211.05100): LayerNorm right
    after the embedding, fused `query_key_value` h -> 3h and `dense` with biases, GELU MLP 4h with
    biases, two LayerNorms per block, ALiBi (no parameters), tied head."""
    dims = _require(
        config,
        {
            "hidden_size": ("hidden_size", "n_embed"),
            "num_layers": ("n_layer", "num_hidden_layers"),
            "num_heads": ("n_head", "num_attention_heads"),
            "vocab_size": ("vocab_size",),
        },
        model_type,
    )
    _, head_dim = _heads({}, dims)
    return {
        **dims,
        "num_kv_heads": dims["num_heads"],
        "head_dim": head_dim,
        "intermediate_size": 4 * dims["hidden_size"],  # BloomMLP: dense_h_to_4h
        # ALiBi has no table to read a window from; BLOOM was trained on 2048-token sequences.
        "max_context": _int_field(config, "seq_length") or 2048,
        "tie_embeddings": _bool_field(config, "tie_word_embeddings", True),
        "mlp": "gelu",
        "norm": "layernorm",
        "attention_bias": True,
        "mlp_bias": True,
        "position": "alibi",
        "embedding_norm": True,
        "fused_qkv": True,  # query_key_value
    }


def _read_mpt(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    """MPT (transformers `MptModel`; MosaicML llm-foundry): fused `Wqkv` h -> 3h and `out_proj`,
    GELU MLP of expansion_ratio·h, no biases anywhere — not even in the LayerNorms (`no_bias`:
    llm-foundry removes every bias, and transformers sets `norm.bias = None` to match the
    checkpoints) — ALiBi, tied head. Variants transformers' MPT does not build (biases, learned
    positions instead of ALiBi, q/k LayerNorms, multi-query attention) are refused."""
    dims = _require(
        config,
        {
            "hidden_size": ("d_model", "hidden_size"),
            "num_layers": ("n_layers", "num_hidden_layers"),
            "num_heads": ("n_heads", "num_attention_heads"),
            "vocab_size": ("vocab_size",),
        },
        model_type,
    )
    raw_attn = config.get("attn_config")
    attn: Mapping[str, Any] = raw_attn if isinstance(raw_attn, Mapping) else {}
    if not _bool_field(config, "no_bias", True):
        raise _unsupported(model_type, "no_bias", False, "biases in every linear layer and LayerNorm")
    if not _bool_field(attn, "alibi", True):
        raise _unsupported(model_type, "attn_config.alibi", False, "a learned position table instead of ALiBi")
    if _bool_field(attn, "qk_ln", False):
        raise _unsupported(model_type, "attn_config.qk_ln", True, "LayerNorms on queries and keys")
    attn_type = attn.get("attn_type", "multihead_attention")
    if attn_type != "multihead_attention":
        raise _unsupported(model_type, "attn_config.attn_type", attn_type, "fewer key/value heads than query heads")
    ratio = _int_field(config, "expansion_ratio") or 4
    _, head_dim = _heads({}, dims)
    return {
        **dims,
        "num_kv_heads": dims["num_heads"],
        "head_dim": head_dim,
        "intermediate_size": ratio * dims["hidden_size"],  # MptMLP up_proj / down_proj
        "max_context": _int_field(config, "max_seq_len"),
        "tie_embeddings": _bool_field(config, "tie_word_embeddings", True),
        "mlp": "gelu",
        "norm": "layernorm",
        "norm_bias": False,
        "position": "alibi",
        "fused_qkv": True,  # Wqkv
    }


def _read_t5(config: Mapping[str, Any], model_type: str) -> dict[str, Any]:
    """T5, T5 v1.1, mT5, T0, mT0 (transformers `T5ForConditionalGeneration`, Raffel et al.,
    arXiv:1910.10683; Xue et al., arXiv:2010.11934): see `_seq2seq_params` for the blocks. Weight-only
    RMS norms (T5LayerNorm), no biases, attention width num_heads·d_kv (3B: 32 x 128 = 4096 on a
    1024-wide model), MLP per `feed_forward_proj`: 'relu' (T5 v1.0: wi, wo) or 'gated-gelu'
    (v1.1, mT5: wi_0, wi_1, wo). The head is tied unless tie_word_embeddings is false (T5 v1.1, mT5,
    T0: their checkpoints hold their own lm_head; MT5Config defaulted to untied before transformers 5).

    Memory and time treat the model as one stack of encoder + decoder blocks (`num_layers` holds
    both), which is how advisor/core/memory.py approximates a seq2seq model's activations: each block
    at the same sequence length, cross-attention and the encoder/decoder length split not modelled.
    """
    dims = _require(
        config,
        {
            "hidden_size": ("d_model", "hidden_size"),
            "encoder_layers": ("num_layers",),
            "num_heads": ("num_heads", "num_attention_heads"),
            "head_dim": ("d_kv",),
            "intermediate_size": ("d_ff",),
            "vocab_size": ("vocab_size",),
        },
        model_type,
    )
    encoder_layers = dims.pop("encoder_layers")
    decoder_layers = _int_field(config, "num_decoder_layers") or encoder_layers
    projection = config.get("feed_forward_proj", "gated-gelu" if model_type == "mt5" else "relu")
    parts = projection.split("-") if isinstance(projection, str) else []
    if not parts or len(parts) > 2 or (len(parts) == 2 and parts[0] != "gated"):
        raise ConfigError(
            f"config.json: feed_forward_proj must be an activation or 'gated-<activation>', got {projection!r}",
            "config_error.bad_value",
            field="feed_forward_proj",
            value=repr(projection),
        )
    if len(parts) == 1:
        mlp = "gelu"  # two matrices (the 'gelu' shape), whatever the activation
    else:
        mlp = "swiglu" if parts[1] in ("silu", "swish") else "geglu"
    return {
        **dims,
        "num_layers": encoder_layers + decoder_layers,
        "decoder_layers": decoder_layers,
        "num_kv_heads": dims["num_heads"],
        "max_context": _int_field(config, "n_positions"),
        "tie_embeddings": _bool_field(config, "tie_word_embeddings", model_type == "t5"),
        "mlp": mlp,
        "position": "relative",
        "relative_attention_buckets": _int_field(config, "relative_attention_num_buckets") or 32,
    }


# reader name in _MODEL_TYPES -> the function that reads such a config.json into ModelSpec fields.
_READERS: dict[str, Callable[[Mapping[str, Any], str], dict[str, Any]]] = {
    "llama": _read_llama,
    "gpt2": _read_gpt2,
    "gpt_bigcode": _read_gpt_bigcode,
    "phi": _read_phi,
    "stablelm": _read_stablelm,
    "gpt_neox": _read_gpt_neox,
    "falcon": _read_falcon,
    "bloom": _read_bloom,
    "mpt": _read_mpt,
    "t5": _read_t5,
    "bert": _read_bert,
    "vit": _read_vit,
}

CONFIG_MAX_BYTES = 8 << 20
"""The largest config.json read (the largest real ones, with long label tables, are under 2 MB)."""


def load_hf_config(path: str | Path) -> ModelSpec:
    """Read a Hugging Face `config.json` (or a folder holding one) into a `ModelSpec`.

    Raises `ConfigError` for a missing file, unreadable or invalid JSON, and everything
    `spec_from_hf_config` rejects. The spec is named after `_name_or_path` or the folder.
    """
    file = Path(str(path)).expanduser()
    if file.is_dir():
        file = file / "config.json"
    if not os.path.exists(file):
        raise ConfigError(f"config file not found: {file}", "config_error.missing_file", path=file)
    try:
        text = read_text_bounded(file, CONFIG_MAX_BYTES)  # a regular file only: no FIFO, no /dev/zero
    except InputFileError as exc:
        if exc.reason == "too_large":
            raise ConfigError(
                f"{file} is larger than {format_limit(CONFIG_MAX_BYTES)}; a config.json is a few kilobytes",
                "config_error.too_large",
                path=file,
                limit=format_limit(CONFIG_MAX_BYTES),
            ) from None
        raise ConfigError(
            f"{file} is not a regular file (a device, a pipe or a socket)", "config_error.not_regular", path=file
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        problem = getattr(exc, "strerror", None) or exc
        raise ConfigError(
            f"cannot read {file}: {problem}", "config_error.unreadable", path=file, problem=problem
        ) from None
    try:
        config = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"{file} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})",
            "config_error.bad_json",
            path=file,
            line=exc.lineno,
            column=exc.colno,
        ) from None
    if not isinstance(config, dict):
        raise ConfigError(
            f"{file} must hold a JSON object of settings, not a {type(config).__name__}",
            "config_error.not_object",
        )
    name = config.get("_name_or_path") if isinstance(config.get("_name_or_path"), str) else None
    if not name:
        name = file.parent.name if file.name == "config.json" and file.parent.name else file.stem
    return spec_from_hf_config(config, name=name)
