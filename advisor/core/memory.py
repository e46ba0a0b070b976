"""GPU memory per device, term by term: what a training step or a serving replica keeps on each GPU.

Why this module exists: "will it fit?" is the first question every GPU purchase has to answer, and
the answer is only trustworthy when each term is visible and sourced (DESIGN.md; the style of
EleutherAI/cookbook `calc/calc_transformer_mem.py`). A peak is the persistent terms (weights,
gradients, optimizer state) plus the largest phase (the tensors saved for backward, the loss and
recompute transients), plus explicit overheads (CUDA context, communication buffers, allocator
margin). Bytes everywhere; the caller formats GB/GiB.

Sources (shared/reference/numeric-anchors.md, "NA" below):
- ZeRO (Rajbhandari et al., arXiv:1910.02054) model states, K = 12: 16 bytes/param, sharded per stage (NA §1.2).
- Korthikanti et al. (arXiv:2205.05198) activations per layer, TP/SP/selective/full recompute, pipeline
  in-flight micro-batches and the interleave penalty (NA §1.3) — the "megatron" flavour.
- The "hf" flavour: tensors that PyTorch autograd saves for backward in a Hugging Face transformers
  decoder (sdpa attention, RMSNorm upcast to fp32, unfused SwiGLU), derived op by op below and
  checked against measurements with `torch.autograd.graph.saved_tensors_hooks`
  (tools/calibrate_activations.py, tests/core/data/activation_calibration.json).
- Encoders (BERT, ViT): the same op-by-op count at the run's element size, with PyTorch autocast's
  fp32 ops (softmax, layer_norm) and CUDA dropout's 1-byte masks; checked against saved_tensors_hooks
  (tests/core/data/encoder_activation_calibration.json); Korthikanti's 34h + 5as in 16 bits.
- The loss's backward peak (torch `log_softmax_backward_data`), LitGPT's chunked head, Answer.AI's loop
  that keeps the logits, AutoAWQ's fused prefill: each where it is counted, with the code it reads.
- QLoRA NF4 + double quantisation 4.127 bits/param (Dettmers et al., arXiv:2305.14314; NA §1.4).
- Overheads: CUDA context, NCCL init (stas00/ml-engineering, NA §1.7); DDP bucket copy (PyTorch
  DistributedDataParallel docs, `gradient_as_bucket_view`); serving engines' 0.90 pre-allocation.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

GIB = 1 << 30
GB = 1_000_000_000

# ------------------------------------------------------------------------------------------------
# Constants, each with its source

CUDA_CONTEXT_BYTES = int(0.5 * GIB)
"""CUDA context + kernels per process: 0.47 GiB lazy loading (PyTorch 2.1.1, A100), 0.5-2 GiB
across versions (stas00/ml-engineering training/performance/README.md; NA §1.7)."""

NCCL_BYTES = int(1.5 * GIB)
"""torch.distributed / NCCL initialisation: +1.5 GiB after the first barrier (0.55 -> 2.00 GiB),
"~1-2GiB" (stas00/ml-engineering; NA §1.7). Charged whenever more than one GPU talks."""

ALLOCATOR_MARGIN = 0.05
"""Serving: the caching allocator's slack over the allocated peak (reserved - allocated). A serving
engine allocates its KV pool once, so little fragments; Megatron-LM `theoretical_memory_usage.py`
allows 1.05 for "optimizer and miscellaneous temporaries", vidur 10 % (NA §1.7)."""

TRAINING_RESERVED_SLACK = 0.17
"""Training on one GPU (or DDP): `max_memory_reserved` over `max_memory_allocated`, minus one. The
median over sources of the slack each source's reserved (or nvidia-smi less our context) figures imply
against our allocated estimate (`tools/peaks.py`, leave-one-source-out): torchtune 0.13, PEFT's method
comparison 0.12, Answer.AI 0.17, Qwen 0.18 (the transformers docs' 0.23 includes a CUDA context 0.8 GiB
larger than ours). Activations are freed and re-allocated every step in tensors of varying size, which
the caching allocator cannot always reuse."""

SHARDED_RESERVED_SLACK = 0.20
"""FSDP / ZeRO-3 over several GPUs: all-gathered flat parameters and reduce-scatter buffers come and
go every layer, so the allocator's cache grows further beyond the allocated peak. Where Answer.AI
printed both peaks of one run (Llama 2 7B LoRA, FSDP on 2 GPUs, batch 1) reserved/allocated is 1.24
and 1.12: we take 1.20. The sources' reserved-only runs, mostly at larger batches, imply more against
our allocated estimate (`tools/peaks.py`): Answer.AI 0.32 (14 runs), torchtune 0.29 (8), Qwen 0.23
(2), PEFT 0.41 (3) — the slack seems to grow with the activations freed and re-allocated each step,
which one constant cannot follow; the leave-one-source-out table refits it (0.29-0.33)."""

SERVING_MEMORY_FRACTION = 0.90
"""vLLM `gpu_memory_utilization` and TensorRT-LLM `free_gpu_memory_fraction` default to 0.9: a serving
engine plans its KV cache inside 90 % of the card (NA §1.5)."""

USABLE_FRACTION = 0.985
"""Memory a process can allocate, as a share of the vendor's figure read as GiB. PyTorch reports
"total capacity of 79.19 GiB" on an 80 GB H100 (0.990), 39.59 GiB on an A100-40GB (0.990) and
23.64 GiB on an RTX 4090 (0.985); the vendor's "80 GB" is 80 GiB of HBM (gpu-catalogue.md
convention 3: memory "GB" is often really GiB). We take the lower ratio."""

QLORA_NF4_BITS = 4 + 8 / 64 + 32 / (64 * 256)
"""NF4 with block-64 absmax, double-quantised to 8 bits with block-256 fp32 constants:
4 + 8/64 + 32/(64*256) = 4.127 bits/param (QLoRA, arXiv:2305.14314; NA §1.4)."""

WEIGHT_BITS: dict[str, float] = {
    # Nominal widths (stas00/ml-engineering inference/README.md, NA §1.5)
    "fp32": 32.0,
    "fp16": 16.0,
    "bf16": 16.0,
    "fp8": 8.0,
    "int8": 8.0,
    "int4": 4.0,
    "fp6": 6.0,
    "int3": 3.0,
    "int2": 2.0,
    # MX formats: one E8M0 scale per 32 values (ml-engineering)
    "mxfp8": 8.25,
    "mxfp6": 6.25,
    "mxfp4": 4.25,
    # bitsandbytes 4-bit (NF4 or FP4): blocks of 64 with an fp32 absmax, 4 + 32/64 = 4.5 bits; with
    # double quantisation the absmax is itself 8-bit (QLoRA's 4.127). `load_in_4bit` defaults to FP4
    # without double quantisation (transformers BitsAndBytesConfig).
    "nf4": 4 + 32 / 64,
    "nf4-dq": QLORA_NF4_BITS,
    "fp4": 4 + 32 / 64,
    # LLM.int8() (bitsandbytes `load_in_8bit`): int8 rows + one fp32 scale per row (~0 per weight)
    "llm-int8": 8.0,
    # GPTQ / AWQ packed weights: per group of 128 input values an fp16 scale and a 4-bit zero point
    # (AutoGPTQ `QuantLinear` qzeros/scales; AutoAWQ WQLinear) = (16 + 4)/128 bits per weight; GPTQ
    # with no grouping keeps one scale and zero per output column (~0 per weight).
    "gptq-int4-g128": 4 + 20 / 128,
    "gptq-int8-g128": 8 + 20 / 128,
    "gptq-int4": 4.0,
    "gptq-int8": 8.0,
    "awq-int4-g128": 4 + 20 / 128,
    # GGUF files as measured on Llama-3.1-8B (ggml-org/llama.cpp tools/quantize/README.md, NA §1.5)
    "q2_k": 3.1593,
    "q4_k_m": 4.8944,
    "q5_k_m": 5.7036,
    "q8_0": 8.5008,
    "f16": 16.0005,
}
"""Bits per weight by storage format."""

WHOLE_FILE_FORMATS = frozenset({"q2_k", "q4_k_m", "q5_k_m", "q8_0", "f16"})
"""Formats whose bits were measured on the whole file (embeddings and head included). Every other
format below 16 bits quantises the linear layers only: bitsandbytes, GPTQ, AWQ, and the FP8/INT8/INT4
schemes of vLLM and TensorRT-LLM skip the embeddings and the LM head (`lm_head` is in every
library's default skip list: transformers `llm_int8_skip_modules`, AutoGPTQ, AutoAWQ `modules_to_not_convert`),
which stay 16-bit; charging them at 4 bits undercounts a 4-bit 7B model by ~0.4 GB."""

KV_BITS: dict[str, float] = {
    "fp32": 32.0,
    "fp16": 16.0,
    "bf16": 16.0,
    "fp8": 8.0,
    "int8": 8.0,
    "int4": 4.0,
    # llama.cpp cache types: 32 values + one fp16 scale per block (q8_0: 34 bytes, q4_0: 18 bytes per 32)
    "q8_0": 8.5,
    "q4_0": 4.5,
}
"""Bits per KV-cache element by cache dtype."""

ENGINES = ("vllm", "hf", "awq-fused")
"""Inference engines: a serving engine (vLLM and its peers), Hugging Face transformers `generate`, or
AutoAWQ's fused layers (`fuse_layers=True`: a preallocated cache, eager attention in the prefill)."""

PRECISIONS = ("bf16-mixed", "fp16-mixed", "bf16", "fp32", "fp8-mixed")
OPTIMIZERS = ("adamw", "adamw-8bit", "sgd", "adafactor")
STRATEGIES = ("single", "ddp", "zero1", "zero2", "zero3", "fsdp")
CHECKPOINTING = ("none", "selective", "full")
ATTENTION = ("sdpa", "eager", "flash")

DEFAULT_SEQ: dict[str, int] = {"pretrain": 4096, "finetune": 2048, "lora": 2048, "qlora": 2048}
"""Training sequence length when the user gives none. Pretraining: 4096 — Llama 2 pretrained at 4K
and Llama 3 at 8K, so 4K is the modern floor; fine-tuning: 2048, the common SFT length (Alpaca-style
data fits; longer data needs the user's figure). Capped at the model's max context."""


def compile_saved_bytes(shape: Shape, e: int) -> float:
    """Bytes per token per layer torch.compile no longer saves in a HF/torchtune decoder layer: the
    fused RMSNorm keeps its 16-bit input instead of the fp32 upcast (2 norms x (4 - e)·h), and the
    fused SwiGLU saves its two inputs, not SiLU's output as well (e·f). Checked on torchtune's
    optimisation table (Llama 3.2 3B, 2 x 4096 tokens: 60.0 -> 51.0 GiB with compile; this gives
    -8.9 GiB)."""
    return 2 * (4 - e) * shape.hidden + (e * shape.ffn if shape.gated_mlp else 0)


CHUNKED_LOSS_CHUNKS = 8
"""torchtune `CEWithChunkedOutputLoss(num_output_chunks=8)`."""

ZERO_STAGE = {"single": 0, "ddp": 0, "zero1": 1, "zero2": 2, "zero3": 3, "fsdp": 3}
"""FSDP FULL_SHARD shards parameters, gradients and optimizer state like ZeRO-3 (llm-analysis README, NA §1.2)."""


# ------------------------------------------------------------------------------------------------
# Model states: bytes per parameter


class StateBytes(NamedTuple):
    """Bytes per parameter of the three model-state terms under one precision regime and optimizer."""

    weights: float  # the copy the forward pass reads (16-bit under mixed precision)
    gradients: float
    optimizer: float  # fp32 master weights (mixed precision) + the optimizer's moments

    @property
    def total(self) -> float:
        return self.weights + self.gradients + self.optimizer


def state_bytes_per_param(precision: str, optimizer: str, *, fp32_grads: bool = False, amp: bool = False) -> StateBytes:
    """Model-state bytes per parameter.

    Mixed precision (`bf16-mixed`, `fp16-mixed`): 16-bit weights (2) and gradients (2), fp32 master
    weights (4) + AdamW m and v (4 + 4): 16 bytes, the ZeRO paper's accounting (K = 12,
    arXiv:1910.02054). 18 bytes apply when gradients are kept in fp32 (Megatron-LM main_grads,
    DeepSpeed's FusedAdam conversion, ml-engineering's "18 bytes" anatomy; NA §1.2): pass
    `fp32_grads=True`.
    Pure `bf16` (a bf16 model with torch.optim.AdamW, as in PEFT's method comparison): 2 + 2 + 4
    (bf16 m, v) = 8 bytes. `fp32`: 4 + 4 + 8 = 16. `fp8-mixed` (Transformer Engine): as bf16-mixed
    plus an fp8 copy of the weights cached for the matmuls (+1 byte).
    Optimizers: AdamW keeps two moments; 8-bit AdamW (bitsandbytes) two 1-byte moments ("2 bytes *
    number of parameters", ml-engineering); SGD with momentum one; Adafactor a factored second
    moment (rows + columns, ~0 per parameter; we charge 0.05 byte to cover vectors and norms).
    `amp=True` is PyTorch autocast on an fp32 model (Hugging Face Trainer `fp16=True`/`bf16=True`
    without DeepSpeed or FSDP): the fp32 weights are the master copy (4), autocast caches a 16-bit
    cast of every weight for the step (2), gradients are fp32 (4), AdamW's moments fp32 (8): 18 bytes
    (the HF "Methods and tools for efficient training" guide: "18 bytes per parameter" for mixed
    precision AdamW).
    """
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision {precision!r}; choose among {', '.join(PRECISIONS)}")
    if optimizer not in OPTIMIZERS:
        raise ValueError(f"unknown optimizer {optimizer!r}; choose among {', '.join(OPTIMIZERS)}")
    if precision == "fp32":
        w, g, master, moment = 4.0, 4.0, 0.0, 4.0
    elif precision == "bf16":
        w, g, master, moment = 2.0, 2.0, 0.0, 2.0
    else:  # mixed: 16-bit compute copy, fp32 master weights in the optimizer
        w, g, master, moment = 2.0, 2.0, 4.0, 4.0
        if precision == "fp8-mixed":
            w += 1.0
    if amp and precision in ("bf16-mixed", "fp16-mixed"):
        w, g, master = 4.0 + 2.0, 4.0, 0.0
    if fp32_grads:
        g = 4.0
    if optimizer == "adamw":
        states = 2 * moment
    elif optimizer == "adamw-8bit":
        states = 2.0
    elif optimizer == "sgd":
        states = moment
    else:  # adafactor
        states = 0.05
    return StateBytes(w, g, master + states)


def zero_model_states(params: float, state: StateBytes, stage: int, dp: int) -> tuple[float, float, float]:
    """Per-device (weights, gradients, optimizer) bytes under ZeRO stage 0-3 over `dp` data-parallel ranks.

    ZeRO paper Table 1 / Figure 1 (K = 12): baseline (2 + 2 + K)Ψ; P_os 4Ψ + KΨ/N_d;
    P_os+g 2Ψ + (2 + K)Ψ/N_d; P_os+g+p (4 + K)Ψ/N_d.
    """
    dp = max(1, dp)
    w, g, o = params * state.weights, params * state.gradients, params * state.optimizer
    if stage >= 1:
        o /= dp
    if stage >= 2:
        g /= dp
    if stage >= 3:
        w /= dp
    return w, g, o


# ------------------------------------------------------------------------------------------------
# The model's shape, as the memory and time arithmetic needs it


class Shape(NamedTuple):
    """A model reduced to the numbers the arithmetic needs; built once per model (`shape_from_spec`)."""

    kind: str  # decoder, moe, encoder, seq2seq, vit, cnn, diffusion
    params: int  # total parameters
    active_params: int  # per token (MoE), else = params
    layers: int = 0
    hidden: int = 0
    heads: int = 0
    kv_heads: int = 0
    head_dim: int = 0
    ffn: int = 0  # per expert for MoE
    vocab: int = 0
    tied: bool = False
    gated_mlp: bool = True  # SwiGLU/GeGLU (three matrices) vs GELU (two)
    experts: int = 0
    experts_per_token: int = 0
    embedding_params: int = 0  # input embedding rows x hidden (no FLOPs: a lookup)
    largest_layer_params: int = 0
    activation_bytes_per_sample: int = 0  # non-LLM: measured bytes saved per sample
    tokens_per_sample: int = 0  # ViT: patches + class token
    linear_params: int = 0  # parameters in quantisable linear layers (everything but embeddings/head/norms)

    @property
    def is_transformer(self) -> bool:
        return self.kind in ("decoder", "moe", "encoder", "seq2seq", "vit") and self.layers > 0 and self.hidden > 0

    @property
    def generates(self) -> bool:
        """Autoregressive (decoder, MoE): serving keeps a KV cache and decodes token by token."""
        return self.kind in ("decoder", "moe") and self.layers > 0 and self.kv_heads > 0


def shape_from_spec(spec) -> Shape:  # spec: advisor.models.ModelSpec
    """A `Shape` from a `ModelSpec`, with exact counts from `advisor.core.params`."""
    from advisor.core.params import active_param_count, param_count

    total = param_count(spec)
    active = active_param_count(spec)
    if not (spec.hidden_size and spec.num_layers and spec.num_heads):
        return Shape(
            kind=spec.kind,
            params=total,
            active_params=active,
            layers=spec.num_layers or 0,  # a diffusion transformer's blocks (checkpointing keeps their inputs)
            activation_bytes_per_sample=spec.activation_bytes_per_sample or 0,
        )
    h, layers, a = spec.hidden_size, spec.num_layers, spec.num_heads
    kv = spec.num_kv_heads or a
    d = spec.head_dim or h // a
    experts = spec.num_experts or 0
    ffn = (
        (getattr(spec, "moe_intermediate_size", None) or spec.intermediate_size or 4 * h)
        if experts
        else (spec.intermediate_size or 4 * h)
    )
    vocab = spec.vocab_size or 0
    gated = getattr(spec, "mlp", "swiglu") != "gelu"
    embed = vocab * h
    head = 0 if (spec.tie_embeddings or spec.kind not in ("decoder", "moe", "seq2seq")) else vocab * h
    per_layer = (total - embed - head) / max(1, layers)
    tokens_per_sample = 0
    if spec.kind == "vit":
        patch = getattr(spec, "patch_size", None) or 16
        side = spec.input_resolution or 224
        tokens_per_sample = (side // patch) ** 2 + 1
        embed = 0
        per_layer = total / max(1, layers)
    linear = max(0, total - embed - head - layers * 2 * h)
    return Shape(
        kind=spec.kind,
        params=total,
        active_params=active,
        layers=layers,
        hidden=h,
        heads=a,
        kv_heads=kv,
        head_dim=d,
        ffn=ffn,
        vocab=vocab,
        tied=bool(spec.tie_embeddings),
        gated_mlp=gated,
        experts=experts,
        experts_per_token=spec.experts_per_token or (2 if experts else 0),
        embedding_params=embed,
        largest_layer_params=int(max(per_layer, embed, head)),
        activation_bytes_per_sample=spec.activation_bytes_per_sample or 0,
        tokens_per_sample=tokens_per_sample,
        linear_params=linear,
    )


# ------------------------------------------------------------------------------------------------
# Activations


def layer_activation_bytes_per_token_hf(
    shape: Shape,
    seq: int,
    *,
    attention: str = "sdpa",
    element_bytes: int = 2,
    repeat_kv: bool = False,
    frozen: bool = False,
) -> float:
    """Bytes one decoder layer of Hugging Face transformers saves for backward, per token (no TP).

    Derived op by op from the autograd graph of `LlamaDecoderLayer` (and its Mistral/Qwen2 siblings)
    in a 16-bit model (e = 2 bytes; e = 4 for an fp32 model), and confirmed tensor by tensor with
    tools/calibrate_activations.py (transformers 5.24, torch 2.13):
    - each RMSNorm: the fp32 upcast of its input (4h, saved by pow and mul), the fp32 rsqrt (4 bytes)
      and the normalised value cast back (e·h, saved by the weight multiply); two norms per layer;
    - q/k/v projections save their common input (e·h); gate/up theirs (e·h);
    - sdpa (flash or memory-efficient kernel) saves q, k, v (e each), its output (e·a·d, which is
      also o_proj's input: the kernel lays it out as (b, s, a, d), so `.contiguous()` copies
      nothing) and the fp32 log-sum-exp (4 bytes per head). K and V stay at kv_heads width: with no
      padding mask transformers passes `enable_gqa` (`use_gqa_in_sdpa`); `repeat_kv=True` models
      versions that expanded them first;
    - eager attention instead saves q, k and v repeated to all heads, the fp32 softmax output
      (4·a·s), its 16-bit copy (e·a·s), and a contiguous copy of the output for o_proj (e·a·d) —
      the a·s score terms that flash/sdpa avoid;
    - SwiGLU: SiLU saves the gate output, the product saves SiLU's output and the up output,
      down_proj saves the product: 4 tensors of f (e·4f); a GELU MLP saves 2 (e·2f);
    - MoE: the expert MLP part once per routed expert, plus the fp32 router probabilities.
    Residual adds save nothing; RoPE's cos/sin are shared by all layers (counted once, outside).

    `frozen=True` is the same layer with frozen weights (LoRA's base): autograd saves a tensor only
    for a gradient someone needs, so a frozen linear keeps no input (its input is needed only for
    the weight's gradient) and a norm keeps no normalised copy (needed only for the weight's
    gradient); the norms' fp32 inputs, the attention kernel's tensors and the activation functions'
    inputs stay (they carry the gradient back to earlier adapters). Measured the same way.
    """
    h, a, kv, d, f = shape.hidden, shape.heads, shape.kv_heads, shape.head_dim, shape.ffn
    e = element_bytes
    norms = 2 * (4 * h + 4 + (0 if frozen else e * h))
    inputs = 0 if frozen else e * h + e * h  # q/k/v input, gate/up input
    if attention == "eager":
        # q, k, v (repeated), softmax fp32 + its copy, and o_proj's contiguous input
        attn = e * a * d * 3 + (4 + e) * a * seq + (0 if frozen else e * a * d)
    else:
        kv_width = a * d if repeat_kv else kv * d
        attn = e * (2 * a * d + 2 * kv_width) + 4 * a  # q, output (= o_proj input), k, v + fp32 log-sum-exp
    if frozen:  # SiLU's input, the product's two inputs (down_proj keeps none) | GELU's input
        mlp = e * (3 if shape.gated_mlp else 1) * f
    else:
        mlp = e * (4 if shape.gated_mlp else 2) * f
    if shape.experts:
        mlp = mlp * max(1, shape.experts_per_token) + 4 * shape.experts  # router softmax output, fp32
    return float(norms + inputs + attn + mlp)


def layer_activation_bytes_per_token_encoder(
    shape: Shape,
    seq: int,
    *,
    attention: str = "sdpa",
    element_bytes: int = 2,
    autocast: bool = False,
    dropout: bool = True,
) -> float:
    """Bytes one encoder layer (Hugging Face `BertLayer`, `ViTLayer`: LayerNorm + biased projections +
    GELU MLP) saves for backward, per token, counted op by op from its autograd graph:
    - q/k/v projections save their input: one tensor (e·h) shared by the three in a plain 16- or
      32-bit model; under autocast each projection saves its own 16-bit cast of the fp32 residual
      stream (3 x 2·h: autocast caches weight casts only);
    - eager attention saves q, k, v (e·h each), the softmax output — fp32 under autocast, which
      runs softmax in fp32 — (4 or e)·a·s, the dropout mask (1 byte)·a·s and the 16-bit probabilities
      the second matmul reads (e·a·s; without dropout and autocast that is the softmax output
      itself), and the contiguous context for the output projection (e·h); sdpa keeps q, k, v, its
      output and an fp32 log-sum-exp per head (dropout inside the kernel keeps only its RNG state);
    - the two LayerNorms save their input (the residual stream: fp32 under autocast, as LayerNorm
      runs in fp32 there) and fp32 mean and rstd; the MLP's first projection saves its input (e·h),
      GELU its input (e·f) and the second projection GELU's output (e·f);
    - hidden dropout saves a 1-byte mask after each block's output projection (BERT: p = 0.1;
      ViT's config defaults to 0, `dropout=False`).
    In fp32 with eager attention and dropout this is 66·h + 9·a·s bytes, Korthikanti et al.'s
    34·h + 5·a·s (arXiv:2205.05198, 16-bit) with every 16-bit tensor at 4 bytes and the masks at 1.
    Checked with `torch.autograd.graph.saved_tensors_hooks` on BERT (tools/calibrate_activations.py).
    """
    h, a, f = shape.hidden, shape.heads, shape.ffn
    e = element_bytes
    r = 4 if autocast else e  # residual stream / LayerNorm dtype
    mask = 1 if dropout else 0
    qkv_inputs = 3 * 2 * h if autocast else e * h
    if attention == "eager":
        soft = 4 if autocast else e
        probs = e if (dropout or autocast) else 0  # the tensor the probs @ V matmul reads, when it is a new one
        attn = 3 * e * h + (soft + mask + probs) * a * seq + e * h
    else:
        attn = 4 * e * h + 4 * a
    norms = 2 * (r * h + 8)
    mlp = e * h + 2 * e * f
    return float(qkv_inputs + attn + norms + mlp + 2 * mask * h)


def layer_activation_bytes_per_token_megatron(
    shape: Shape,
    seq: int,
    *,
    attention: str = "eager",
    tp: int = 1,
    sp: bool = False,
    recompute: str = "none",
) -> float:
    """Bytes one transformer layer keeps, per token, in Megatron-LM (Korthikanti et al. Table 2).

    16-bit activations, 1-byte dropout masks. For a GPT layer (f = 4h, MHA) this is exactly
    sbh(34 + 5as/h) without parallelism; sbh(10 + 24/t + 5as/(ht)) with tensor parallelism;
    everything / t with sequence parallelism; the 5as/h score terms vanish with selective recompute
    or flash attention (which saves an fp32 log-sum-exp instead); full recompute keeps the layer
    input only, 2sbh (/t with SP). Generalised term by term: attention q (2·a·d), k and v
    (2·kv·d each, GQA), projection input (2·a·d); a gated MLP keeps its fused fc1 output (4f) and
    the SwiGLU output (2f) where GELU keeps 2f + 2f.
    Replicated across TP ranks without SP: the two LayerNorm inputs (4h), the QKV and MLP inputs
    (2h + 2h) and the two dropout masks (h + h) = 10h.
    """
    h, a, kv, d, f = shape.hidden, shape.heads, shape.kv_heads, shape.head_dim, shape.ffn
    t = max(1, tp)
    if recompute == "full":
        return 2.0 * h / (t if sp else 1)
    replicated = 10.0 * h
    mlp = (6 if shape.gated_mlp else 4) * f
    if shape.experts:
        mlp *= max(1, shape.experts_per_token)
    sharded = 2 * a * d + 4 * kv * d + 2 * a * d + mlp
    if attention == "eager" and recompute != "selective":
        sharded += 5 * a * seq
    elif attention != "eager":
        sharded += 4 * a  # flash log-sum-exp, fp32
    if sp:
        return (replicated + sharded) / t
    return replicated + sharded / t


def pipeline_inflight_factor(pp: int, microbatches: int | None = None, interleave: int = 1) -> float:
    """How many layers' worth of activations the first pipeline stage holds, as a multiple of L/p·p = L.

    1F1B: the first stage keeps min(p, m) micro-batches of its L/p layers, i.e. L·min(1, m/p) layers'
    worth (Korthikanti §4.2.3; Megatron `theoretical_memory_usage.py`); interleaving with v virtual
    stages multiplies by 1 + (p - 1)/(p·v) (applied when v > 1, as Megatron does).
    """
    if pp <= 1:
        return 1.0
    factor = 1.0 if microbatches is None else min(1.0, microbatches / pp)
    if interleave > 1:
        factor *= 1 + (pp - 1) / (pp * interleave)
    return factor


def activation_model(shape: Shape, tp: int = 1, pp: int = 1, framework: str = "hf") -> str:
    """Which activation model applies: 'per-sample' (CNNs, diffusion UNets, ViTs with a measured figure,
    anything without transformer dimensions), 'megatron' (tensor/pipeline parallelism — a Megatron-style
    stack; seq2seq: all its encoder and decoder blocks as one such stack, an approximation), else 'hf' (a Hugging Face
    decoder, DESIGN.md's reference), 'encoder' for a Hugging Face BERT/ViT encoder on one model-parallel
rank (`layer_activation_bytes_per_token_encoder`)."""
    if (
        not shape.is_transformer
        or shape.kind in ("cnn", "diffusion")
        or (shape.kind == "vit" and shape.activation_bytes_per_sample)
    ):
        return "per-sample"
    if framework == "megatron" or tp > 1 or pp > 1 or shape.kind == "seq2seq":
        return "megatron"
    if shape.kind in ("encoder", "vit"):
        return "encoder"
    return "hf"


class Activations(NamedTuple):
    """Activation memory of one micro-batch on the most loaded GPU, bytes."""

    saved: float  # kept for backward at the end of the forward pass (DESIGN's `activations`)
    transient: float  # extra at the worst moment: loss upcast, or the recomputed layer in backward


def activation_bytes(
    shape: Shape,
    batch: int,
    seq: int,
    *,
    framework: str = "hf",
    attention: str = "sdpa",
    checkpointing: str = "none",
    tp: int = 1,
    pp: int = 1,
    sp: bool = False,
    microbatches: int | None = None,
    element_bytes: int = 2,
    lora: tuple[frozenset[str], int, bool] | None = None,
    chunked_loss: bool = False,
    activation_offload: bool = False,
    compiled: bool = False,
    quantized_base: bool = False,
    autocast: bool = False,
    dropout: bool | None = None,
    chunked_head: bool = False,
    held_logits_bytes: float = 0.0,
    op_sac: bool = False,
) -> Activations:
    """Activations for one micro-batch of `batch` sequences of `seq` tokens on the most loaded GPU.

    Transformers: layers x per-layer bytes x pipeline factor (first stage), plus the ends of the
    model on that stage: embedding indices (int64), the final norm, the LM head input and the loss.
    HF's loss upcasts the logits to fp32 and `log_softmax` keeps its fp32 output (4·V per token);
    while the loss runs, the 16-bit logits and the fp32 copy are also alive (transient e·V + 4·V).
    Megatron: output layer + cross-entropy `4·s·b·h·(1 + V/h)` bytes (Megatron
    `theoretical_memory_usage.py`), vocabulary-parallel across TP ranks.
    fp8 training (Transformer Engine) keeps some inputs in 8 bits; we count them at 16 bits (an upper
    bound). Full recompute keeps each layer's input; the backward pass then rebuilds one layer at a time
    (transient: one layer's activations).
    `lora=(targets, rank, autocast)`: a frozen base with adapters (HF + PEFT). Layers save the frozen
    form (`layer_activation_bytes_per_token_hf(frozen=True)`) plus what the adapters keep
    (`lora_activation_bytes_per_token`); the embedding and LM head are frozen (no token ids, no head
    input), and the first layer saves nothing before its first adapted projection (nothing upstream
    needs a gradient). With full checkpointing PEFT makes the layer inputs require grad and the
    checkpoints are kept as usual.
    Non-LLM models (cnn, diffusion, and ViTs with a measured figure): `activation_bytes_per_sample`
    x batch, from the catalogue (measured at its reference resolution); full checkpointing keeps
    ~1/sqrt(depth) of it (Chen et al. 2016, arXiv:1604.06174, sqrt(n) checkpointing) — taken as
    1/4 for the 50-100-layer CNNs we list.
    """
    model = activation_model(shape, tp, pp, framework)
    if model == "per-sample":
        per_sample = float(shape.activation_bytes_per_sample or 0)
        if per_sample <= 0:
            # No measurement: a rough bound of 4 x the fp16 weights per sample (say so upstream).
            per_sample = 8.0 * shape.params
        saved = per_sample * batch
        if checkpointing == "full" and shape.kind == "diffusion" and shape.layers > 0:
            # a diffusion transformer (DiT/MMDiT) checkpointed per block, as diffusers does: each block keeps its
            # 2·h-byte input of the ~34·h bytes per token it saves unchecked (Korthikanti et al., fused attention),
            # and backward rebuilds one block at a time
            return Activations(saved * 2.0 / 34.0, saved / shape.layers)
        if checkpointing == "full":
            return Activations(saved / 4, saved / 4)
        return Activations(saved, 0.0)
    tokens = float(batch) * (shape.tokens_per_sample or seq) if shape.kind == "vit" else float(batch) * seq
    s_eff = (shape.tokens_per_sample or seq) if shape.kind == "vit" else seq
    h, V, L = shape.hidden, shape.vocab, shape.layers
    e = element_bytes
    if model == "encoder":
        # BERT trains with hidden and attention dropout (p = 0.1); ViT's config defaults both to 0
        drop = shape.kind == "encoder" if dropout is None else dropout
        full_layer = layer_activation_bytes_per_token_encoder(
            shape, s_eff, attention=attention, element_bytes=e, autocast=autocast, dropout=drop
        )
        r = 4 if autocast else e
        per_layer = float(r * h) if checkpointing == "full" else full_layer  # the checkpoint: the layer input
        # embedding sum -> LayerNorm (its input, fp32 parameters under autocast; mean, rstd) -> dropout
        # mask; token ids and token types (int64); the pooler reads the first token through a view, which
        # keeps the last layer's whole output alive; the classification head itself is ~0 per token
        ends = 2 * (4 if autocast else e) * h + 8.0 + (h if drop else 0) + 16.0
        saved = tokens * (per_layer * shape.layers + ends)
        transient = tokens * max(0.0, full_layer - ends) if checkpointing == "full" else 0.0
        return Activations(saved, transient)
    rebuilt = checkpointing == "full"  # a layer is rebuilt in backward (full, or torchtitan's per-op selective)
    if model == "megatron":
        rec = "selective" if checkpointing == "selective" else ("full" if checkpointing == "full" else "none")
        per_layer = layer_activation_bytes_per_token_megatron(
            shape, s_eff, attention=attention, tp=tp, sp=sp, recompute=rec
        )
        full_layer = layer_activation_bytes_per_token_megatron(
            shape, s_eff, attention=attention, tp=tp, sp=sp, recompute="selective" if rec == "selective" else "none"
        )
        ends = 0.0
        if shape.kind in ("decoder", "moe", "seq2seq") and V:
            ends = 4.0 * h * (1 + V / h) / max(1, tp) + 8.0  # output layer + CE; token ids
        elif shape.kind in ("encoder", "vit"):
            ends = 2.0 * h + 8.0
    else:
        frozen = lora is not None
        per_layer = layer_activation_bytes_per_token_hf(
            shape, s_eff, attention=attention, element_bytes=e, frozen=frozen
        )
        if checkpointing == "selective" and attention == "eager":
            per_layer -= (4 + e) * shape.heads * s_eff  # recompute the score path only
        if compiled:
            per_layer -= compile_saved_bytes(shape, e)
        first_layer_free = 0.0
        if lora is not None:
            targets, rank, autocast = lora
            per_layer += lora_activation_bytes_per_token(shape, targets, rank, autocast=autocast)
            first_layer_free = _lora_first_layer_free(shape, targets, s_eff, attention, e)
        full_layer = per_layer
        rebuilt = checkpointing == "full" or (checkpointing == "selective" and op_sac and lora is None)
        if checkpointing == "full":
            per_layer = float(e * h)  # the checkpoint keeps the layer input; the rest is rebuilt in backward
            first_layer_free = 0.0
        elif rebuilt:
            per_layer = float(e * op_sac_saved_per_token(shape))
        if frozen:  # final norm's fp32 input + rsqrt, fp32 log-softmax + labels (frozen head: no input kept)
            ends = (4 * h + 4) + (4.0 * V + 8.0 if V else 0.0)
        else:  # ids (int64), final norm (fp32 input, rsqrt, normalised), LM head input, fp32 log-softmax + labels
            ends = 8.0 + (4 * h + 4 + e * h) + e * h + (4.0 * V + 8.0 if V else 0.0)
    layers_held = L * pipeline_inflight_factor(pp, microbatches)
    if pp > 1:
        # The first stage is the most loaded (p micro-batches in flight); the loss sits on the last.
        ends = 8.0 * min(pp, microbatches or pp)
    saved = tokens * (per_layer * layers_held + ends)
    if model == "hf" and lora is not None:
        saved -= tokens * first_layer_free
        if quantized_base and checkpointing != "full":
            # bitsandbytes' MatMul4Bit (and AutoGPTQ's training kernels) keep each frozen layer's input
            # as a context attribute whenever it needs an input gradient: q/k/v's and gate/up's
            # inputs and down_proj's (o_proj's input is the attention output, already kept)
            saved += tokens * e * (2 * h + shape.ffn * (max(1, shape.experts_per_token) if shape.experts else 1)) * L
        if lora[2] and checkpointing != "full":  # autocast keeps a 16-bit cast of each adapter weight
            saved += 2.0 * _lora_params_per_layer(shape, lora[0], lora[1]) * L
    if framework != "megatron" and shape.kind in ("decoder", "moe") and checkpointing != "full":
        saved += 2.0 * s_eff * shape.head_dim * e  # RoPE cos and sin, shared by the batch and the layers
    # Transients: the loss or, with full recompute, one rebuilt layer.
    if model == "hf":
        # The loss's backward peak: log_softmax's saved fp32 output (in `saved`), the gradient arriving
        # from nll_loss and the one log_softmax_backward allocates (4·V each). The logits the model
        # returned are gone by then (HF Trainer's `compute_loss` drops the outputs; torchtune's recipes
        # `del logits` "otherwise it peaks backward memory"); in the forward the 16-bit logits, the
        # fp32 upcast and log_softmax's output coexist (e·V + 4·V beyond `saved`, never more).
        # A loop that keeps the model's output through `loss.backward()` adds those logits.
        loss_transient = 0.0 if pp > 1 else tokens * (8.0 + held_logits_bytes) * V
    else:  # Megatron: vocabulary-parallel cross-entropy, 16-bit logits and the fp32 upcast
        loss_transient = 0.0 if pp > 1 else tokens * ((e + (4 if e < 4 else 0)) * V) / max(1, tp)
    if chunked_head and model == "hf" and V:
        # LitGPT (`lm_head_chunk_size=128`, `chunked_cross_entropy`): the head and a 16-bit
        # cross-entropy run 128 positions at a time; the 16-bit logits chunks and their 16-bit
        # log-softmax stay for backward (e·V + e·V instead of the fp32 log-softmax), the gradients
        # exist one chunk at a time (~0 per token)
        saved -= tokens * (4.0 - 2 * e) * V
        loss_transient = 0.0
    if chunked_loss and model == "hf" and V:
        # 16-bit logits kept for the whole micro-batch instead of the fp32 log-softmax; the fp32
        # upcast and its log-softmax exist one chunk (of 8) at a time
        saved -= tokens * (4.0 - e) * V
        loss_transient /= CHUNKED_LOSS_CHUNKS
    if activation_offload and model == "hf":
        # only about two layers' saved tensors stay on the GPU; the ends (loss, head) stay
        saved -= tokens * per_layer * max(0.0, layers_held - 2)
    # The rebuilt layer exists in backward, after the loss and the head have freed what they kept
    # (the ends): it adds to the peak only beyond them.
    recompute_transient = tokens * (full_layer - ends) if rebuilt else 0.0
    return Activations(saved, max(loss_transient, recompute_transient, 0.0))


def op_sac_saved_per_token(shape: Shape) -> int:
    """Elements per token a decoder layer keeps under torchtitan's selective per-op checkpointing
    (`selective_ac_option = "op"`, torchtitan/models/llama/parallelize_llama.py, 2024-12): the block's input, the
    attention kernel's output, and the output of every other matmul in the order wq, wk, wv, wo, w1, w3, w2 — wq,
    wv, w1 and w2 are kept, wk, wo and w3 recomputed; norms and activations are recomputed."""
    h, q, kv = shape.hidden, shape.heads * shape.head_dim, shape.kv_heads * shape.head_dim
    return h + h + q + kv + shape.ffn + h


def _lora_params_per_layer(shape: Shape, targets, rank: int) -> float:
    """Adapter parameters in one layer: r·(d_in + d_out) per adapted projection (routed experts each)."""
    h, a, kv, d, f = shape.hidden, shape.heads, shape.kv_heads, shape.head_dim, shape.ffn
    dims = {
        "q": (h, a * d),
        "k": (h, kv * d),
        "v": (h, kv * d),
        "o": (a * d, h),
        "gate": (h, f),
        "up": (h, f),
        "down": (f, h),
    }
    total = 0.0
    for name in targets:
        if name not in dims or (name == "gate" and not shape.gated_mlp):
            continue
        mult = shape.experts if (shape.experts and name in ("gate", "up", "down")) else 1
        total += mult * rank * sum(dims[name])
    return total


def _lora_first_layer_free(shape: Shape, targets, seq: int, attention: str, e: int) -> float:
    """Bytes per token the first layer does not save under LoRA: everything before its first adapted
    projection (order: input norm, q/k/v, attention, o, post norm, gate/up, activation, down)."""
    h, f = shape.hidden, shape.ffn
    norm = 4 * h + 4
    full = layer_activation_bytes_per_token_hf(shape, seq, attention=attention, element_bytes=e, frozen=True)
    if targets & {"q", "k", "v"}:
        return float(norm)
    mlp = e * (3 if shape.gated_mlp else 1) * f * (max(1, shape.experts_per_token) if shape.experts else 1)
    attn = full - 2 * norm - mlp
    if "o" in targets:
        return float(norm + attn)
    if targets & {"gate", "up"}:
        return float(2 * norm + attn)
    return float(full)  # only down_proj adapted: its LoRA input is all the first layer keeps


def lora_activation_bytes_per_token(
    shape: Shape, targets: frozenset[str] | set[str], rank: int, *, autocast: bool = True
) -> float:
    """Extra bytes LoRA adapters save per token per layer (PEFT `lora.Linear.forward`).

    PEFT casts each adapted module's input to the adapter dtype (fp32 by default,
    `autocast_adapter_dtype=True`); under autocast (Trainer `bf16=True`) the matmul casts it back,
    so lora_A keeps a 16-bit copy of its input (2·d_in) and lora_B keeps lora_A's output (2·r);
    without autocast both stay fp32 (4·d_in, 4·r). Dropout 0 (PEFT's default) saves nothing.
    Measured with PEFT 0.21 by tools/calibrate_activations.py (within 0.2 %).
    """
    h, a, d, f = shape.hidden, shape.heads, shape.head_dim, shape.ffn
    d_in = {"q": h, "k": h, "v": h, "o": a * d, "gate": h, "up": h, "down": f}
    e = 2 if autocast else 4
    per_expert = {"gate", "up", "down"}
    total = 0.0
    for name in targets:
        if name not in d_in or (name == "gate" and not shape.gated_mlp):
            continue
        mult = max(1, shape.experts_per_token) if (shape.experts and name in per_expert) else 1
        total += mult * e * (d_in[name] + rank)
    return total


# ------------------------------------------------------------------------------------------------
# Inference


def weight_bytes(params: float, dtype: str, linear_params: float | None = None) -> float:
    """Weights at a storage format (`WEIGHT_BITS`), bytes. With `linear_params` (the quantisable
    linear layers, `Shape.linear_params`) a format below 16 bits applies to those only and the rest
    (embeddings, LM head, norms) stays 16-bit, as every quantisation library does (`WHOLE_FILE_FORMATS`
    excepted: their bits were measured on whole files)."""
    try:
        bits = WEIGHT_BITS[dtype]
    except KeyError:
        raise ValueError(f"unknown weights dtype {dtype!r}; choose among {', '.join(WEIGHT_BITS)}") from None
    if linear_params and bits < 16 and dtype not in WHOLE_FILE_FORMATS:
        linear = min(float(linear_params), float(params))
        return linear * bits / 8 + (params - linear) * 2
    return params * bits / 8


def shape_weight_bytes(shape: Shape, dtype: str) -> float:
    """`weight_bytes` of a whole model shape (linear layers quantised, the rest 16-bit)."""
    return weight_bytes(shape.params, dtype, shape.linear_params or None)


def kv_bytes_per_token(shape: Shape, kv_dtype: str = "fp16", tp: int = 1) -> float:
    """KV cache per token: 2 · L · kv_heads · head_dim · bytes (GQA enters through kv_heads only);
    with tensor parallelism each GPU holds max(1, kv/t) heads (llm-analysis; NA §1.5)."""
    try:
        bits = KV_BITS[kv_dtype]
    except KeyError:
        raise ValueError(f"unknown KV dtype {kv_dtype!r}; choose among {', '.join(KV_BITS)}") from None
    heads = max(1.0, shape.kv_heads / max(1, tp)) if tp > 1 else shape.kv_heads
    return 2.0 * shape.layers * heads * shape.head_dim * bits / 8


def kv_cache_bytes(shape: Shape, tokens: int, batch: int = 1, kv_dtype: str = "fp16", tp: int = 1) -> float:
    """KV cache for `batch` sequences of `tokens` tokens each, bytes (per GPU under TP)."""
    return kv_bytes_per_token(shape, kv_dtype, tp) * tokens * batch


INFERENCE_PREFILL_CHUNK_TOKENS = 2048
"""Tokens one prefill step processes: vLLM's chunked-prefill budget `max_num_batched_tokens` (2048
in its defaults for chunked prefill). Sets the forward workspace the engine profiles before sizing KV."""


def inference_workspace_bytes(
    shape: Shape, tp: int = 1, element_bytes: int = 2, *, tokens: int | None = None, logits_rows: int | None = None
) -> float:
    """Forward working set of one prefill step of `tokens` tokens (default one chunk of
    `INFERENCE_PREFILL_CHUNK_TOKENS`): one layer's live tensors (hidden states, q/k/v, MLP
    intermediates) plus the fp32 logits the sampler reads, for `logits_rows` positions (default every
    token of the chunk). Engines profile this before sizing KV."""
    if not shape.is_transformer:
        return 0.0
    c = INFERENCE_PREFILL_CHUNK_TOKENS if tokens is None else tokens
    rows = c if logits_rows is None else logits_rows
    h, f = shape.hidden, shape.ffn
    layer = element_bytes * (4 * h + (3 if shape.gated_mlp else 2) * f / max(1, tp))
    logits = 4.0 * shape.vocab / max(1, tp)
    return c * layer + rows * logits


def usable_bytes(memory_gb: float) -> int:
    """What one process can allocate on a card sold as `memory_gb` GB (read as GiB, x 0.985)."""
    return int(memory_gb * GIB * USABLE_FRACTION)


# ------------------------------------------------------------------------------------------------
# The framework's choices


STACKS = ("hf", "torchtune", "litgpt", "answerai", "torchtitan")
"""Fine-tuning stacks with different memory defaults (`Stack.preset`)."""


class Stack(NamedTuple):
    """How the user's software stack spends memory, where the common stacks differ (the calculator's
    flags; the defaults are Hugging Face transformers + PEFT + a serving engine)."""

    adapter_bytes: float = 4.0  # LoRA adapters: fp32 in PEFT; bf16 (2) in torchtune and LitGPT
    paged_optimizer: bool = False  # bitsandbytes paged optimizer state (unified memory)
    optimizer_in_backward: bool = False
    chunked_loss: bool = False
    activation_offload: bool = False
    compiled: bool = False  # torch.compile (fuses norms and SwiGLU: fewer saved tensors)
    keeps_quantized_inputs: bool = True  # 4-bit layers keep their input (bitsandbytes: yes; torchao: no)
    chunked_head: bool = False  # LitGPT: LM head + 16-bit cross-entropy 128 positions at a time
    held_logits_bytes: float = 0.0  # logits the training loop still holds during backward, bytes per vocab entry
    op_sac: bool = False  # "selective" checkpointing is torchtitan's per-op policy, not Megatron's attention recompute
    engine: str = "vllm"  # inference: vllm (a serving engine) | hf (transformers generate)
    prompt_tokens: int | None = None  # inference with hf: tokens prefilled at once per sequence

    @classmethod
    def preset(cls, name: str, **overrides) -> Stack:
        """The defaults of a stack: `hf` (transformers + PEFT + bitsandbytes: fp32 adapters, 4-bit
        layers keep their inputs), `torchtune` (bf16 adapters, torchao NF4 whose backward needs only
        the weight), `litgpt` (bf16 adapters under bf16-true, bitsandbytes; head and loss in chunks),
        `answerai` (Answer.AI fsdp_qlora `train.py`: bf16 adapters; its loop keeps `output` — fp32
        logits under transformers 4.38, whose Llama `forward` upcasts them — alive through `loss.backward()`),
        `torchtitan` (its "selective" checkpointing is per op: `op_sac_saved_per_token`)."""
        if name not in STACKS:
            raise ValueError(f"unknown stack {name!r}; choose among {', '.join(STACKS)}")
        presets: dict[str, dict[str, Any]] = {
            "hf": {},
            "torchtune": {"adapter_bytes": 2.0, "keeps_quantized_inputs": False},
            "litgpt": {"adapter_bytes": 2.0, "chunked_head": True},
            "answerai": {"adapter_bytes": 2.0, "held_logits_bytes": 4.0},
            "torchtitan": {"op_sac": True},
        }
        return cls(**{**presets[name], **overrides})

    def training_kwargs(self, task: str, weights_dtype: str) -> dict:
        """The `training_memory` keywords for these choices; under QLoRA a quantised `weights_dtype`
        names the frozen base's format (default NF4 with double quantisation)."""
        base = weights_dtype if task == "qlora" and WEIGHT_BITS.get(weights_dtype, 16) < 16 else "nf4-dq"
        return {
            "adapter_bytes": self.adapter_bytes,
            "paged_optimizer": self.paged_optimizer,
            "optimizer_in_backward": self.optimizer_in_backward,
            "chunked_loss": self.chunked_loss,
            "activation_offload": self.activation_offload,
            "compiled": self.compiled,
            "keeps_quantized_inputs": self.keeps_quantized_inputs,
            "chunked_head": self.chunked_head,
            "held_logits_bytes": self.held_logits_bytes,
            "op_sac": self.op_sac,
            "base_dtype": base,
        }


# ------------------------------------------------------------------------------------------------
# Convenience: one configuration's training memory, term by term


class TrainingMemory(NamedTuple):
    """Per-GPU training memory, term by term, with the overhead split out (bytes)."""

    weights: float
    gradients: float
    optimizer: float
    activations: float  # saved for backward (DESIGN's definition)
    transient: float  # largest phase transient: loss upcast / recomputed layer / gathered shards
    cuda_context: float
    communication: float
    allocator_margin: float
    host_ram: float = 0.0  # CPU RAM the offloaded state needs on each node
    nccl: float = 0.0  # the part of `communication` NCCL allocates outside PyTorch's allocator

    @property
    def overhead(self) -> float:
        return self.transient + self.cuda_context + self.communication + self.allocator_margin

    @property
    def total(self) -> float:
        """What the card must hold: the reserved peak plus the CUDA context and NCCL (= `smi`)."""
        return self.weights + self.gradients + self.optimizer + self.activations + self.overhead

    @property
    def allocated(self) -> float:
        """`torch.cuda.max_memory_allocated`: the tensors alive at the peak."""
        states = self.weights + self.gradients + self.optimizer
        return states + self.activations + self.transient + self.communication - self.nccl

    @property
    def reserved(self) -> float:
        """`torch.cuda.max_memory_reserved`: the allocated peak plus the caching allocator's slack."""
        return self.allocated + self.allocator_margin

    @property
    def smi(self) -> float:
        """What nvidia-smi shows for the process: reserved + CUDA context + NCCL's own buffers."""
        return self.total


def communication_bytes(strategy: str, count: int, grads_bytes: float, hidden: int) -> float:
    """Communication buffers on one GPU.

    NCCL initialisation (1.5 GiB, ml-engineering) once more than one GPU is involved. DDP keeps
    gradient buckets that copy every gradient unless `gradient_as_bucket_view=True` (PyTorch
    DistributedDataParallel docs: it "can reduce peak memory usage, where the saved memory size
    will be equal to the total gradients size"); we charge the default. ZeRO/FSDP reduce and
    prefetch buckets: DeepSpeed under accelerate's "auto" config sizes them h² and 0.9·h² elements
    (16-bit), ~4h² bytes.
    """
    if count <= 1:
        return 0.0
    extra = 0.0
    if strategy == "ddp":
        extra = grads_bytes
    elif strategy in ("zero1", "zero2", "zero3", "fsdp"):
        extra = 4.0 * hidden * hidden
    return NCCL_BYTES + extra


def training_memory(
    shape: Shape,
    *,
    task: str = "finetune",
    batch: int = 1,
    seq: int = 2048,
    count: int = 1,
    strategy: str = "single",
    tp: int = 1,
    pp: int = 1,
    sp: bool | None = None,
    checkpointing: str = "none",
    attention: str = "sdpa",
    precision: str = "bf16-mixed",
    optimizer: str = "adamw",
    lora_rank: int = 16,
    lora_targets: frozenset[str] | set[str] | None = None,
    trainable_params: int | None = None,
    offload: bool = False,
    fp32_grads: bool = False,
    adapter_bytes: float = 4.0,
    paged_optimizer: bool = False,
    base_dtype: str = "nf4-dq",
    optimizer_in_backward: bool = False,
    chunked_loss: bool = False,
    activation_offload: bool = False,
    compiled: bool = False,
    keeps_quantized_inputs: bool = True,
    chunked_head: bool = False,
    held_logits_bytes: float = 0.0,
    op_sac: bool = False,
) -> TrainingMemory:
    """Per-GPU peak training memory of one configuration, term by term.

    `task`: pretrain and finetune train every weight; lora trains adapters on a frozen 16-bit base;
    qlora on a frozen NF4 base (4.127 bits/param for linear layers, embeddings and head in 16-bit).
    LoRA adapters live in fp32 (PEFT `autocast_adapter_dtype=True`): 4 (weights) + 4 (gradients)
    + 8 (AdamW moments; 2 for 8-bit AdamW) bytes per trainable parameter; `adapter_bytes=2` models
    the QLoRA reference script, which casts the LoRA modules to bf16 (artidoro/qlora `qlora.py`).
    `paged_optimizer=True` (bitsandbytes paged optimizers, QLoRA's third ingredient) keeps the
    adapters' optimizer state in CUDA unified memory that pages out to the CPU under pressure: it is
    counted in `host_ram`, not on the GPU.
    Parallelism: data-parallel degree dp = count / (tp·pp); weights/gradients/optimizer divide by
    tp·pp (the most loaded pipeline stage also carries the embedding: (block/p + embedding)/t,
    Megatron); ZeRO stages shard over dp (`zero_model_states`); ZeRO-3/FSDP add the gathered
    layer (DeepSpeed's estimator: 4 bytes x largest layer). With tp/pp > 1 a Megatron-style stack is
    assumed (its activation model, distributed optimizer = ZeRO-1 over dp, sequence parallelism
    on unless `sp=False`).
    CPU offload (DeepSpeed): ZeRO-2 keeps 16-bit weights on the GPU and moves gradients and
    optimizer to the CPU; ZeRO-3 moves parameters too and keeps the gathered layers. Host RAM per
    node: ZeRO-2 P·max(4·gpus_per_node, 16)·1.5; ZeRO-3 P·18·1.5·(node share) (DeepSpeed estimators).
    With LoRA, `offload` is FSDP's CPU offload of the (frozen) parameters: the base lives in host RAM
    and one gathered layer at a time on the GPU (Answer.AI fsdp_qlora's `--use_cpu_offload`).
    Mixed precision on one GPU or DDP is PyTorch autocast over an fp32 model: 18 bytes/param
    (`state_bytes_per_param(amp=True)`); ZeRO/FSDP/Megatron keep the ZeRO paper's 16.
    `base_dtype`: the frozen base's format under QLoRA (nf4-dq = QLoRA's NF4 with double
    quantisation; nf4, fp4, or a GPTQ/AWQ checkpoint such as gptq-int4-g128); linear layers only.
    Memory-saving techniques of the common fine-tuning stacks (torchtune recipes):
    `optimizer_in_backward` steps each parameter as soon as its gradient exists and frees it, so only
    about one layer's gradients are alive (torchtune `optimizer_in_bwd`); `chunked_loss` projects and
    upcasts the logits a chunk at a time (torchtune `CEWithChunkedOutputLoss`, 8 chunks): the 16-bit
    logits stay, the fp32 copies exist one chunk at a time; `activation_offload` streams the saved
    activations to CPU memory (torchtune `enable_activation_offloading`), keeping about two layers'
    worth on the GPU.
    """
    if batch < 1 or seq < 1 or count < 1 or tp < 1 or pp < 1:
        raise ValueError("batch, seq, GPU count, tp and pp must all be at least 1")
    if count % (tp * pp):
        raise ValueError(f"{count} GPUs cannot be split into tensor-parallel {tp} x pipeline-parallel {pp}")
    if checkpointing not in CHECKPOINTING:
        raise ValueError(f"unknown checkpointing {checkpointing!r}; choose among {', '.join(CHECKPOINTING)}")
    if attention not in ATTENTION:
        raise ValueError(f"unknown attention {attention!r}; choose among {', '.join(ATTENTION)}")
    dp = count // (tp * pp)
    megatron = tp > 1 or pp > 1
    if strategy in ZERO_STAGE:
        stage = ZERO_STAGE[strategy]
    elif strategy == "megatron":
        stage = 1 if dp > 1 else 0  # Megatron's distributed optimizer shards optimizer state over dp
    else:
        raise ValueError(f"unknown strategy {strategy!r}; choose among {', '.join(STRATEGIES)}")
    if sp is None:
        sp = tp > 1
    amp = stage == 0 and not megatron and not offload
    state = state_bytes_per_param(precision, optimizer, fp32_grads=fp32_grads, amp=amp)
    element = 4 if precision == "fp32" else 2

    # Parameters on the most loaded model-parallel shard.
    P = float(shape.params)
    if pp > 1:
        block = P - shape.embedding_params - (0 if shape.tied else shape.embedding_params)
        shard = (block / pp + shape.embedding_params) / tp
    else:
        shard = P / tp
    lora = task in ("lora", "qlora")
    targets = frozenset(lora_targets or ())
    if lora:
        T = float(trainable_params or 0) / (tp * pp)
        if task == "qlora":
            frozen = weight_bytes(P, base_dtype, shape.linear_params or P) * shard / P
        else:
            frozen = shard * (4 if precision == "fp32" else 2)
        # AdamW keeps its moments in the adapters' dtype (fp32: 8 bytes; bf16 adapters: 4)
        adapter_opt = {"adamw": 2 * adapter_bytes, "adamw-8bit": 2.0, "sgd": adapter_bytes, "adafactor": 0.05}[
            optimizer
        ]
        w, g, o = frozen + adapter_bytes * T, adapter_bytes * T, adapter_opt * T
        if stage >= 1:
            o /= dp
        if stage >= 2:
            g /= dp
        if stage >= 3:
            w = frozen / dp + adapter_bytes * T / dp
    else:
        w, g, o = zero_model_states(shard, state, stage, dp)
    host_ram = 0.0
    if paged_optimizer:  # cudaMallocManaged pages: outside PyTorch's allocator, evicted to the CPU under pressure
        host_ram, o = o, 0.0
    if optimizer_in_backward and not lora:
        g = min(g, state.gradients * shape.largest_layer_params / tp)
    if offload and lora:  # FSDP CPU offload of the parameters: the base waits in host RAM
        host_ram += w
        w = adapter_bytes * T / dp
    if offload and not lora:
        per_node = min(count, 8)
        if stage >= 3:
            host_ram = P * 18 * 1.5 * per_node / count
            w = 0.0
            g = 0.0
            o = 0.0
        else:  # ZeRO-2 style optimizer offload: 16-bit weights stay
            host_ram = P * max(4 * per_node, 16) * 1.5
            g = 0.0
            o = 0.0
    gathered = 0.0
    if stage >= 3 and (dp > 1 or offload):
        gathered = 4.0 * shape.largest_layer_params / tp  # DeepSpeed estimate_zero3: 4 x largest layer
        if lora and task == "qlora":  # a gathered NF4 layer is dequantised one projection at a time
            gathered = weight_bytes(shape.largest_layer_params, base_dtype, shape.largest_layer_params) / tp

    # Activations
    lora_spec = (targets, lora_rank, precision.endswith("mixed")) if lora and shape.is_transformer else None
    acts = activation_bytes(
        shape,
        batch,
        seq,
        framework="megatron" if megatron else "hf",
        attention=attention,
        checkpointing=checkpointing,
        tp=tp,
        pp=pp,
        sp=sp,
        element_bytes=element,
        lora=lora_spec,
        chunked_loss=chunked_loss,
        activation_offload=activation_offload,
        compiled=compiled,
        quantized_base=task == "qlora" and keeps_quantized_inputs,
        autocast=amp and precision in ("bf16-mixed", "fp16-mixed"),
        chunked_head=chunked_head,
        held_logits_bytes=held_logits_bytes,
        op_sac=op_sac,
    )
    comm = communication_bytes(strategy if not megatron else "zero1", count, g, shape.hidden)
    nccl = float(NCCL_BYTES) if count > 1 else 0.0
    transient = max(acts.transient, gathered)
    allocated = w + g + o + acts.saved + transient + comm - nccl
    sharded = stage >= 3 and dp > 1
    margin = (SHARDED_RESERVED_SLACK if sharded else TRAINING_RESERVED_SLACK) * allocated
    return TrainingMemory(
        weights=w,
        gradients=g,
        optimizer=o,
        activations=acts.saved,
        transient=transient,
        cuda_context=float(CUDA_CONTEXT_BYTES),
        communication=comm,
        allocator_margin=margin,
        host_ram=host_ram,
        nccl=nccl,
    )


class InferenceMemory(NamedTuple):
    """Per-GPU serving memory (bytes)."""

    weights: float
    kv_cache: float
    workspace: float
    cuda_context: float
    communication: float
    allocator_margin: float

    @property
    def overhead(self) -> float:
        return self.workspace + self.cuda_context + self.communication + self.allocator_margin

    @property
    def total(self) -> float:
        """What the card must hold (= `smi`)."""
        return self.weights + self.kv_cache + self.overhead

    @property
    def allocated(self) -> float:
        return self.weights + self.kv_cache + self.workspace

    @property
    def fixed(self) -> float:
        """Everything but the KV cache, slack included: what is left of a card for sequences."""
        return (self.weights + self.workspace) * (1 + ALLOCATOR_MARGIN) + self.communication + self.cuda_context

    @property
    def reserved(self) -> float:
        return self.allocated + self.allocator_margin

    @property
    def smi(self) -> float:
        return self.total


def inference_memory(
    shape: Shape,
    *,
    context: int = 4096,
    concurrency: int = 1,
    weights_dtype: str = "bf16",
    kv_dtype: str = "fp16",
    tp: int = 1,
    engine: str = "vllm",
    prompt_tokens: int | None = None,
) -> InferenceMemory:
    """Per-GPU memory of one replica sharded over `tp` GPUs serving `concurrency` sequences of
    `context` tokens: weights/tp (linear layers at `weights_dtype`, the rest 16-bit), KV cache,
    the forward workspace, CUDA context, NCCL when tp > 1, the allocator's slack.

    `engine="vllm"` (a serving engine: vLLM, TensorRT-LLM, SGLang) prefills in chunks of
    `INFERENCE_PREFILL_CHUNK_TOKENS`; `engine="hf"` (transformers `generate`) prefills the whole
    prompt of every sequence in one forward pass (`prompt_tokens`, default the whole context)."""
    if context < 1 or concurrency < 1 or tp < 1:
        raise ValueError("context, concurrency and tp must all be at least 1")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose among {', '.join(ENGINES)}")
    w = shape_weight_bytes(shape, weights_dtype) / tp
    kv = kv_cache_bytes(shape, context, concurrency, kv_dtype, tp) if shape.generates else 0.0
    if engine == "hf":
        prompt = context if prompt_tokens is None else min(prompt_tokens, context)
        work = inference_workspace_bytes(shape, tp, tokens=max(1, prompt) * concurrency, logits_rows=concurrency)
        if concurrency > 1:
            # generate grows the cache by concatenation: every extra sequence costs about a second
            # copy of its cache at the peak (Qwen's README, Qwen-7B bf16, batch 1 -> 4 -> 16 -> 32)
            work += kv * (concurrency - 1) / concurrency
    elif engine == "awq-fused":
        # AutoAWQ fused attention (awq/modules/fused/attn.py at the README benchmarks, 5c7e368): the
        # cache is preallocated for `context` tokens per sequence (`max_seq_len`, from the
        # `max_new_tokens` given to `from_quantized`; it rolls when exceeded), so no copy grows; the
        # prompt is prefilled at once with eager attention: the fp16 scores, their fp32 copy and the
        # fp32 softmax of one layer (2 + 4 + 4 bytes x heads x prompt^2 per sequence) or, after the
        # last layer, the prompt's fp16 logits and their fp32 upcast (transformers' Llama head of
        # that time, 2 + 4 bytes x vocab per prompt token), whichever is larger
        prompt = context if prompt_tokens is None else min(prompt_tokens, context)
        rows = max(1, prompt) * concurrency
        layers_live = inference_workspace_bytes(shape, tp, tokens=rows, logits_rows=0)
        scores = 10.0 * shape.heads / max(1, tp) * prompt * prompt * concurrency
        logits = rows * 6.0 * shape.vocab / max(1, tp)
        work = layers_live + max(scores, logits)
    else:
        work = inference_workspace_bytes(shape, tp)
    comm = float(NCCL_BYTES) if tp > 1 else 0.0
    margin = ALLOCATOR_MARGIN * (w + kv + work)
    return InferenceMemory(w, kv, work, float(CUDA_CONTEXT_BYTES), comm, margin)


def max_sequences(
    shape: Shape,
    capacity_bytes: float,
    *,
    context: int,
    weights_dtype: str = "bf16",
    kv_dtype: str = "fp16",
    tp: int = 1,
) -> int:
    """Sequences of `context` tokens one replica can hold inside `capacity_bytes` per GPU (0 if the
    weights alone do not fit)."""
    base = inference_memory(
        shape, context=context, concurrency=1, weights_dtype=weights_dtype, kv_dtype=kv_dtype, tp=tp
    )
    fixed = base.fixed
    per_seq = kv_cache_bytes(shape, context, 1, kv_dtype, tp) * (1 + ALLOCATOR_MARGIN)
    room = capacity_bytes - fixed
    if room < per_seq or per_seq <= 0:
        return 0 if room < per_seq else 10**9
    return int(room // per_seq)


def max_context(
    shape: Shape,
    capacity_bytes: float,
    *,
    concurrency: int = 1,
    weights_dtype: str = "bf16",
    kv_dtype: str = "fp16",
    tp: int = 1,
) -> int:
    """Longest context (tokens) each of `concurrency` sequences can have inside `capacity_bytes` per GPU."""
    base = inference_memory(shape, context=1, concurrency=1, weights_dtype=weights_dtype, kv_dtype=kv_dtype, tp=tp)
    fixed = base.fixed
    per_token = kv_bytes_per_token(shape, kv_dtype, tp) * concurrency * (1 + ALLOCATOR_MARGIN)
    room = capacity_bytes - fixed
    if room <= 0 or per_token <= 0:
        return 0
    return int(math.floor(room / per_token))
