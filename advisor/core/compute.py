"""Time: how long a training run takes on a configuration, and how fast a serving replica answers.

Why this module exists: after "does it fit", buyers ask "how long" and "how many users". Both come
from arithmetic that published runs can check: training FLOPs (6·N·D, 8·N·D with full recompute,
plus attention) divided by what the GPUs achieve (peak x model-FLOPs utilisation, a range by GPU
family and scale), plus the communication the overlap cannot hide; decode speed from memory
bandwidth (bytes read per token / (bandwidth x 0.76)); prefill from compute (x 0.68). Results are
(low, expected, high) ranges, never one point. Seconds, FLOP/s, bytes/s.

Sources (shared/reference/numeric-anchors.md "NA", gpu-catalogue.md "GC"):
- 6·N·D and the forward 2N + attention (Kaplan et al. arXiv:2001.08361; EleutherAI "Transformer Math
  101"); PaLM's 6N + 12·L·H·Q·T per token for attention; 8·N·D with full recompute
  (ml-engineering, Megatron-LM 2021) — NA §1.6.
- MFU priors: Llama 3 405B 38-43 % on H100; LLaMA/Llama 2 on A100 0.39-0.48 (implied); Megatron
  41.5-56.3 % — NA §1.6, GT-07, GT-26. Scaled per GPU family by achievable matmul (MAMF) / peak,
  GC §2a (A100 86.9 %, H100 80.3 %, B200 77.6 %, MI300X 51.4 %, Gaudi 2 96.9 %, Gaudi 3 74.1 %).
- Decode efficiency 0.76: FasterTransformer 13B fp16 on A100-40GB, 22.0 ms/token measured vs
  16.7 ms ideal; prefill 0.68: the same run's 63.17 ms prefill of 512 tokens vs 42.7 ms ideal (GT-21).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from advisor.core.memory import QLORA_NF4_BITS, Shape

DECODE_BANDWIDTH_EFFICIENCY = 0.76
"""Achieved / peak HBM bandwidth while decoding: FasterTransformer 13B fp16, A100-40GB, 22.0 ms/token
measured vs 26 GB / 1555 GB/s = 16.7 ms ideal (kipply via cli99/llm-analysis; NA GT-21)."""

PREFILL_FLOPS_EFFICIENCY = 0.68
"""Achieved / peak tensor FLOP/s in prefill: the same FasterTransformer run, 63.17 ms for 512 tokens vs
2 x 13e9 x 512 / 312 TFLOPS = 42.7 ms ideal (NA GT-21); llm-analysis: "up to 0.7 for inference"."""

LINK_EFFICIENCY = 0.8
"""Bus bandwidth NCCL collectives reach as a share of the link's per-direction peak (our assumption,
typical of nccl-tests on NVLink and InfiniBand); applied to every link below."""

COLLECTIVE_LATENCY_S = 10e-6
"""Fixed cost of one small all-reduce inside a node (our assumption: nccl-tests small-message latency
on NVLink is of the order of 10 us). Matters for TP decode, where each layer waits on two of them."""

MAMF_EFFICIENCY: dict[str, float] = {
    "ampere": 0.869, "hopper": 0.803, "blackwell": 0.776, "cdna3": 0.514,
    "gaudi2": 0.969, "gaudi3": 0.741,
}
"""Maximum achievable matmul FLOPS / theoretical dense BF16, by architecture (ml-engineering MAMF table,
GC §2a; MI325X 60.4 % is not separable by architecture, so cdna3 takes MI300X's 51.4 %)."""

_MAMF_REFERENCE = MAMF_EFFICIENCY["hopper"]
_MAMF_DEFAULT = 0.80  # architectures without a published MAMF figure (volta, turing, ada, cdna2): as Hopper

MFU_SINGLE_NODE = (0.30, 0.42, 0.55)
"""Model-FLOPs utilisation (low, expected, high) of a well-tuned run on Hopper. Llama 3 405B: 38-43 %
on H100 (arXiv:2407.21783 Table 4); implied 6ND MFU of LLaMA/Llama 2 on A100 0.39-0.48 (NA GT-26);
Megatron with SP + selective recompute 41.5-56.3 % and GPT-175B with FSDP 55-60 % on A100 (GT-07, NA
§1.6); MT-NLG 30 %, Gopher 32.5 % at the low end. Other families are scaled by their MAMF/peak ratio
relative to Hopper (A100: 0.33 / 0.45 / 0.60; MI300X: 0.19 / 0.27 / 0.35)."""

MFU_SCALE_PER_DOUBLING = 0.01
MFU_SCALE_FREE_NODES = 32
"""MFU lost per doubling of nodes beyond 32 (256 GPUs), floored at 0.9x: Llama 3 measured 43 % on 8K GPUs
and 41 % on 16K (arXiv:2407.21783 Table 4) — a point or two per doubling at the largest scale, while the
LLaMA/Llama 2 runs on 2,048 A100s still implied 0.39-0.48."""

NETWORK_BYTES_PER_S_PER_GPU_NVLINK_NODE = 50e9
"""Inter-node bandwidth per GPU in an NVLink (HGX/DGX-class) server: one 400 Gb/s InfiniBand/RoCE port
per GPU (DGX H100: eight ConnectX-7 400 Gb/s; supercluster.blog DGX H100 hardware)."""

NETWORK_BYTES_PER_NODE_OTHER = 25e9
"""Inter-node bandwidth of a PCIe server or workstation: 200 Gb/s per node (our assumption: one
dual-port 100 GbE or one 200 Gb/s NIC); Dettmers asks for >= 50 Gb/s InfiniBand beyond two machines."""

GLOBAL_BATCH_TOKENS = {"pretrain": 4_000_000, "finetune": 262_144, "lora": 262_144, "qlora": 262_144}
"""Tokens per optimizer step, which sets how often gradients are synchronised and the pipeline bubble:
Llama 2/3 pretraining used 4M-token batches; fine-tunes commonly 64-128 sequences of 2-4K tokens (our
assumption: 128 x 2048)."""


IMAGE_MFU: dict[str, float] = {"cnn": 0.490, "vit": 0.536, "diffusion": 0.342}
"""Expected model-FLOPs utilisation of image and diffusion training at 16-bit mixed precision on one GPU, per
model architecture, Hopper-equivalent (scaled per GPU family by MAMF as `MFU_SINGLE_NODE` is). Image models do not
run like language models (convolutions and normalisations are memory-bound; ViTs and diffusion networks are
mostly matmuls at modest sizes), so each is calibrated on published per-GPU figures instead of the LLM prior:
the geometric mean of the utilisation each fit figure implies (training FLOPs = 3 x the forward's; peak = dense
16-bit). `tools/image_efficiency.py` prints the fit and the error on the held-out figures
(tests/core/data/image_training.json, one source named per figure):
- cnn 0.490 with `CNN_HBM_BYTES_PER_FORWARD_FLOP` (memory traffic): solved from ResNet-50 v1.5 AMP at 2,470 img/s
  on one A100 80GB (NVIDIA DeepLearningExamples PyTorch 21.03) and 826 img/s on an RTX 3090 (timm). Held out: the
  V100 rows of the same DLE table, the TensorFlow and MXNet DLE tables.
- vit 0.536: timm's ViT-B/16 at 224 on an RTX 3090, AMP, 390.86 img/s. Held out: ViT-L/16 and ViT-B/16 at 384.
- diffusion 0.342: MosaicML's SD 2 base UNet at 512x512, micro-batch 16, latents precomputed, 290 img/s on 8 A100s
  (after `DIFFUSION_HALF_BATCH`, fitted together with it). Held out: its 16-128 GPU rows."""

IMAGE_VOLTA_TRANSFORMER = 0.466
"""Share of `IMAGE_MFU` that attention models (ViTs, diffusion networks) reach on Volta and Turing: no bf16, no
FlashAttention (sm80 and later), fp16 with loss scaling. Fitted on DeiT-B, 300 epochs of ImageNet in 53 h on one
8-GPU V100 node (Touvron et al. 2021, arXiv:2012.12877 §5.6); held out: its 2-node and 384-px runs. CNNs need no
such factor (the V100 ResNet-50 figures are in their fit)."""

CNN_HBM_BYTES_PER_FORWARD_FLOP = 0.0486
"""Memory traffic of CNN training that the compute does not hide, bytes per forward FLOP (ResNet-50: 398 MB per
image at 8.18 GFLOP), read at `DECODE_BANDWIDTH_EFFICIENCY` of the GPU's bandwidth. Convolution nets spend much of
a step in memory-bound batch norms and activations, so a card's FLOPs alone overrate it: one A100 (2 TB/s) trains
ResNet-50 3x faster than an RTX 3090 (0.94 TB/s) with 4.4x its tensor FLOPs. Solved with `IMAGE_MFU['cnn']` from
those two figures (`tools/image_efficiency.py --fit`)."""

IMAGE_DATA_PARALLEL = 0.854
"""Throughput per GPU of data-parallel image training relative to one GPU: 8 GPUs of ResNet-50 AMP reach 6.73x
(A100) and 6.94x (V100) one GPU's (NVIDIA DeepLearningExamples PyTorch); geometric mean of the two, 0.854. The
gradient all-reduce is small and hidden behind the backward pass; what is lost is the input pipeline and the
synchronisation of fast steps. Held out: the TensorFlow DLE tables (0.83-0.94)."""

IMAGE_KINDS = ("cnn", "vit", "diffusion")


def image_mfu_range(kind: str, architecture: str, nodes: int = 1) -> tuple[float, float, float]:
    """(low, expected, high) model-FLOPs utilisation of GPUs on `nodes` servers training an image or diffusion model of
    `kind` (cnn | vit | diffusion): `IMAGE_MFU` scaled per GPU family by MAMF, by `IMAGE_VOLTA_TRANSFORMER` for
    attention models on Volta/Turing and, as for LLMs, a point per doubling of nodes past 32 (the data-parallel
    loss, `IMAGE_DATA_PARALLEL`, is in `image_training_volumes`). The range keeps `MFU_SINGLE_NODE`'s proportions
    (0.71x-1.31x)."""
    mid = IMAGE_MFU.get(kind, IMAGE_MFU["vit"]) * mamf_efficiency(architecture) / _MAMF_REFERENCE
    if kind != "cnn" and architecture in ("volta", "turing"):
        mid *= IMAGE_VOLTA_TRANSFORMER
    if nodes > MFU_SCALE_FREE_NODES:
        mid *= max(0.9, 1.0 - MFU_SCALE_PER_DOUBLING * math.log2(nodes / MFU_SCALE_FREE_NODES))
    lo, ref, hi = MFU_SINGLE_NODE
    return (mid * lo / ref, mid, min(0.75, mid * hi / ref))


DIFFUSION_HALF_BATCH = 2.08
"""Micro-batch at which a diffusion network reaches half its large-batch utilisation: utilisation x b / (b + 2.08).
Consumer-card fine-tunes run at batch 1-8, below the 16 images per GPU of the `IMAGE_MFU` fit, and users report
batch 1 much slower per image. SDXL at 1024x1024 on an RTX 4090 with gradient checkpointing and cached latents:
LoRA at "about 1.4s/it" at batch 1 (bmaltais/kohya_ss issue #1288: 3 x 6.76 TFLOP per image, 8.8 % of the peak),
a full bf16 fine-tune at "about 1.16-1.20s/it" (Nerogar/OneTrainer issue #164: 4 x 6.76 TFLOP, 13.9 %). Against
the 34 % the fit expects of a large batch those are 0.26x and 0.41x; 2.08 gives their geometric mean, 0.32x, at
batch 1 (and `IMAGE_MFU['diffusion']` is refitted with it, a fixed point two iterations away)."""


def image_training_volumes(forward_flops: float, samples: float, *, kind: str, task: str = "pretrain",
                           checkpointing: str = "none", micro_batch: int = 1, count: int = 1,
                           family: str = "unet") -> TrainingVolumes:
    """What an image or diffusion run computes: per image the forward, a backward of twice it (once with a frozen
    base: LoRA computes no weight gradients) and a second forward with full checkpointing. Diffusion: one network
    call per image (a random timestep; latents and text embeddings cached, as fine-tuning tools do); a UNet's
    divided by its small-batch utilisation (`DIFFUSION_HALF_BATCH`, measured on UNets only: a diffusion
    transformer's batch-1 step is already thousands of tokens of large matmuls) so the time reflects it. CNNs add
    their memory traffic per GPU (`CNN_HBM_BYTES_PER_FORWARD_FLOP`, carried in the volumes' memory-bound term).
    Several GPUs lose `IMAGE_DATA_PARALLEL` of their throughput; no other communication is exposed."""
    passes = (2.0 if task in ("lora", "qlora") else 3.0) + (1.0 if checkpointing == "full" else 0.0)
    flops = passes * forward_flops * samples
    if kind == "diffusion" and family == "unet":
        flops *= (micro_batch + DIFFUSION_HALF_BATCH) / micro_batch
    hbm = CNN_HBM_BYTES_PER_FORWARD_FLOP * forward_flops * samples / count if kind == "cnn" else 0.0
    if count > 1:
        flops /= IMAGE_DATA_PARALLEL
        hbm /= IMAGE_DATA_PARALLEL
    return TrainingVolumes(flops, 0.0, 0.0, hbm, 0.0, 2.0 / 3.0)


JPEG_DECODE_IMAGES_PER_S_PER_VCPU = 110
"""ImageNet JPEGs a PyTorch DataLoader decodes per vCPU: 1,521-2,800 img/s on whole 16-vCPU VMs at the best worker
count (ternaus/imread_benchmark README: simplejpeg 1,754 on a Xeon Platinum 8581C, 1,521 on EPYC Zen 4, 2,421 on
Neoverse-V2; turbojpeg 2,800 on Zen 5), decode alone: 95-175 per vCPU; 110 is the Xeon's. Random crops and flips
come on top, so a server feeding GPUs faster than its vCPUs x 110 is limited by its input pipeline
(rules/model.yaml `model.data-pipeline-bound` fires above 1,521 img/s per server, the slowest whole VM)."""

JPEG_BYTES_PER_IMAGE = 110e3
"""Bytes read per training image: about ImageNet-1k's average JPEG (~140 GB for 1.28M images; our figure)."""


def mamf_efficiency(architecture: str) -> float:
    """Achievable / peak dense matmul FLOPS for an architecture (GC §2a), 0.80 when unpublished."""
    return MAMF_EFFICIENCY.get(architecture, _MAMF_DEFAULT)


def mfu_range(architecture: str, nodes: int = 1) -> tuple[float, float, float]:
    """(low, expected, high) MFU for a GPU family at a node count (see MFU_SINGLE_NODE)."""
    scale = mamf_efficiency(architecture) / _MAMF_REFERENCE
    if nodes > MFU_SCALE_FREE_NODES:
        scale *= max(0.9, 1.0 - MFU_SCALE_PER_DOUBLING * math.log2(nodes / MFU_SCALE_FREE_NODES))
    lo, mid, hi = MFU_SINGLE_NODE
    return (lo * scale, mid * scale, min(0.75, hi * scale))


def peak_flops(gpu, precision: str = "bf16-mixed") -> float:
    """Dense tensor FLOP/s a training or inference precision runs at on `gpu` (a GpuSpec).

    bf16/fp16 paths use the dense 16-bit tensor rate (FP32-accumulate on GeForce: the catalogue
    already stores it), fp8 uses the FP8 rate where the hardware has one, fp32 the non-tensor FP32
    rate (TF32 is not assumed: PyTorch leaves it off for matmuls by default).
    """
    if precision.startswith("fp8") and gpu.fp8_tflops:
        return gpu.fp8_tflops * 1e12
    if precision == "fp32":
        return (gpu.fp32_tflops or gpu.fp16_tflops / 8) * 1e12
    if precision.startswith("fp16"):
        return gpu.fp16_tflops * 1e12
    return (gpu.bf16_tflops or gpu.fp16_tflops) * 1e12


# ------------------------------------------------------------------------------------------------
# Training FLOPs


def training_flops_per_token(shape: Shape, seq: int, *, task: str = "pretrain", checkpointing: str = "none") -> float:
    """Training FLOPs per token.

    Weight matmuls: forward 2·N, backward 4·N (gradient w.r.t. inputs and w.r.t. weights), 6·N in
    all (Kaplan); N counts the parameters used per token (MoE: active) without the input embedding
    (a lookup). LoRA/QLoRA: the frozen base skips the weight gradient, so forward 2·N + backward
    2·N = 4·N, plus 6·T for the adapters (our derivation from the two backward matmuls of a
    linear layer). Full recompute runs the forward again: +2·N (8·N·D, ml-engineering).
    Attention scores and values: 12·L·s·(a·d) per token for forward + backward (PaLM's MFU formula,
    arXiv:2204.02311 App. B), +4·L·s·(a·d) when recomputed; the same for LoRA (attention has no weights).
    """
    n = float(shape.active_params)
    if shape.vocab and shape.kind in ("decoder", "moe", "seq2seq") and not shape.tied or shape.kind == "encoder":
        n -= shape.embedding_params
    lora = task in ("lora", "qlora")
    weight_factor = 4.0 if lora else 6.0
    if checkpointing == "full":
        weight_factor += 2.0
    attn = 0.0
    if shape.is_transformer and shape.kind != "cnn":
        s = shape.tokens_per_sample or seq
        attn = 12.0 * shape.layers * s * shape.heads * shape.head_dim
        if checkpointing in ("full", "selective"):
            attn *= 16.0 / 12.0
    return weight_factor * n + attn


def training_flops(shape: Shape, tokens: float, seq: int, *, task: str = "pretrain", checkpointing: str = "none",
                   trainable_params: float = 0.0) -> float:
    """Training FLOPs for `tokens` tokens (already multiplied by epochs)."""
    per_token = training_flops_per_token(shape, seq, task=task, checkpointing=checkpointing)
    if task in ("lora", "qlora"):
        per_token += 6.0 * trainable_params
    return per_token * tokens


# ------------------------------------------------------------------------------------------------
# Communication


def interconnect_bytes_per_s(gpu) -> float:
    """GPU-to-GPU bandwidth inside a node, per direction, bytes/s (NVLink, or PCIe when none)."""
    return gpu.interconnect_gbps * 1e9


def network_bytes_per_s_per_gpu(gpu) -> float:
    """Bandwidth each GPU gets to other nodes, bytes/s."""
    if gpu.nvlink and gpu.segment == "datacenter":
        return NETWORK_BYTES_PER_S_PER_GPU_NVLINK_NODE
    return NETWORK_BYTES_PER_NODE_OTHER / max(1, gpu.max_per_node)


def pipeline_bubble_fraction(pp: int, microbatches: int) -> float:
    """Idle share of a 1F1B pipeline: (p - 1) / (m + p - 1) (Narayanan et al. 2021, arXiv:2104.04473)."""
    if pp <= 1:
        return 0.0
    return (pp - 1) / (max(1, microbatches) + pp - 1)


# ------------------------------------------------------------------------------------------------
# Training time


class TrainingTime(NamedTuple):
    """Wall-clock range of a run, seconds, and the MFU assumed at the expected point."""

    low_s: float
    expected_s: float
    high_s: float
    mfu: float
    flops: float


class TrainingVolumes(NamedTuple):
    """What a run has to move and compute, independent of the GPU model (so the planner computes it
    once per configuration and reuses it for every GPU)."""

    flops: float                # model FLOPs of the whole run
    tp_bytes: float             # tensor-parallel traffic per GPU over the run, bytes (exposed)
    dp_bytes: float             # gradient-sync traffic per GPU over the run, bytes (overlappable with backward)
    dequant_bytes: float        # QLoRA: HBM traffic per GPU for NF4 dequantisation over the run, bytes
    bubble: float               # pipeline idle share
    backward_share: float       # share of compute in the backward pass (what DP sync can hide behind)
    shard_bytes: float = 0.0    # ZeRO-3/FSDP: parameter all-gathers + gradient reduce-scatters per GPU, bytes
                                # (prefetched, so overlappable with the whole forward and backward)
    host_s: float = 0.0         # CPU offload: serial seconds of the optimizer step on the host over the run


HOST_MEMORY_BYTES_PER_S = 100e9
"""Achieved DRAM bandwidth of one server's CPUs during DeepSpeed's CPU-Adam step (our assumption: a
dual-socket DDR5 server peaks at ~300-600 GB/s; a streaming optimizer reaches a fraction of it)."""

HOST_OPTIMIZER_BYTES_PER_PARAM = 32
"""Bytes CPU-Adam reads and writes per parameter and step: fp32 master weight, two moments and the
gradient, read and written (16 + 16)."""

HOST_LINK_BYTES_PER_S = 25e9
"""PCIe bandwidth a GPU gets to host memory for offloaded gradients and parameters (Gen4 x16 ~25 GB/s
achieved; our assumption)."""


def training_volumes(
    shape: Shape,
    *,
    tokens: float,
    seq: int,
    count: int,
    task: str = "pretrain",
    precision: str = "bf16-mixed",
    checkpointing: str = "none",
    tp: int = 1,
    pp: int = 1,
    zero_stage: int = 0,
    micro_batch: int = 1,
    trainable_params: float = 0.0,
    offload: bool = False,
) -> TrainingVolumes:
    """FLOPs and communication of a run (see `training_time` for how they become seconds).

    Tensor parallelism (Megatron): the layer output is all-reduced twice in forward and twice in
    backward (attention and MLP), e·h bytes per token each (three times forward with full
    recompute); a ring all-reduce moves 2(t-1)/t of it per GPU; sequence parallelism turns it into
    reduce-scatter + all-gather of the same volume. On the critical path: never overlapped.
    Data parallelism (DDP, ZeRO-1/2): once per optimizer step (GLOBAL_BATCH_TOKENS, gradient
    accumulation in between) a ring all-reduce moves 2(dp-1)/dp of the gradient bytes, overlapped
    with the backward pass.
    ZeRO-3/FSDP: every micro-step gathers the parameters of each layer in forward and again in
    backward (and in the recompute with full checkpointing), (dp-1)/dp of the parameter bytes each
    time, and reduce-scatters the gradients: 3Ψ per micro-step (ZeRO paper §7). With LoRA/QLoRA on a
    sharded base (FSDP + QLoRA) the gathered parameters are the frozen base's, 16-bit or NF4, so a
    PCIe box pays for them on every micro-step — what a larger micro-batch amortises.
    CPU offload (DeepSpeed): gradients go to the host and parameters come back every step, and
    CPU-Adam streams the optimizer state through the host's memory: serial time per step.
    """
    if tokens <= 0 or count < 1:
        raise ValueError("tokens and GPU count must be positive")
    dp = max(1, count // (tp * pp))
    element = 4 if precision == "fp32" else 2
    flops = training_flops(shape, tokens, seq, task=task, checkpointing=checkpointing,
                           trainable_params=trainable_params)
    tp_bytes = 0.0
    if tp > 1 and shape.is_transformer:
        per_layer = 6 if checkpointing == "full" else 4
        # a stage holds L/p layers; each TP group handles the tokens of its data-parallel replica
        per_token = per_layer * (shape.layers / pp) * element * shape.hidden * 2 * (tp - 1) / tp
        tp_bytes = per_token * tokens / dp
    lora = task in ("lora", "qlora")
    grad_bytes = (trainable_params if lora else shape.params) * element / (tp * pp)
    global_tokens = max(GLOBAL_BATCH_TOKENS.get(task, 262_144), dp * micro_batch * seq)
    steps = tokens / global_tokens
    micro_steps = tokens / (dp * micro_batch * seq)
    dp_bytes = shard_bytes = 0.0
    if dp > 1 and zero_stage >= 3:
        if task == "qlora" and shape.linear_params:
            params_bytes = shape.linear_params * QLORA_NF4_BITS / 8 + (shape.params - shape.linear_params) * 2
        else:
            params_bytes = shape.params * element
        gathers = 3 if checkpointing == "full" else 2
        per_micro = (dp - 1) / dp * (gathers * params_bytes / (tp * pp) + grad_bytes)
        shard_bytes = per_micro * micro_steps
    elif dp > 1:
        dp_bytes = 2.0 * (dp - 1) / dp * grad_bytes * steps
    microbatches = max(1, int(global_tokens / (dp * micro_batch * seq)))
    bubble = pipeline_bubble_fraction(pp, microbatches)
    dequant = 0.0
    if task == "qlora" and shape.linear_params:
        passes = 3 if checkpointing == "full" else 2
        per_pass = shape.linear_params / (tp * pp) * (QLORA_NF4_BITS / 8 + 2 + 2)
        dequant = passes * per_pass * micro_steps
    host_s = 0.0
    if offload and not lora:
        params_per_gpu = shape.params / count
        gpus_per_host = min(count, 8)
        per_step = (params_per_gpu * 4 / HOST_LINK_BYTES_PER_S
                    + params_per_gpu * gpus_per_host * HOST_OPTIMIZER_BYTES_PER_PARAM / HOST_MEMORY_BYTES_PER_S)
        host_s = per_step * steps
    return TrainingVolumes(flops, tp_bytes, dp_bytes, dequant, bubble, 0.5 if lora else 2.0 / 3.0,
                           shard_bytes, host_s)


def time_from_volumes(
    v: TrainingVolumes,
    *,
    count: int,
    peak_flops_per_s: float,
    mfu: tuple[float, float, float],
    tp_link_bytes_per_s: float,
    dp_link_bytes_per_s: float,
    hbm_bytes_per_s: float,
) -> TrainingTime:
    """Turn volumes into a (low, expected, high) wall-clock range on one GPU model."""
    low, mid, high = time_range_s(v, count, peak_flops_per_s, mfu, tp_link_bytes_per_s, dp_link_bytes_per_s,
                                  hbm_bytes_per_s)
    return TrainingTime(low, mid, high, mfu[1], v.flops)


def time_range_s(v: TrainingVolumes, count: int, peak_flops_per_s: float, mfu: tuple[float, float, float],
                 tp_link_bytes_per_s: float, dp_link_bytes_per_s: float, hbm_bytes_per_s: float,
                 ) -> tuple[float, float, float]:
    """(low, expected, high) seconds: compute at the high / expected / low MFU, plus exposed TP traffic
    and QLoRA dequantisation, over (1 - bubble), plus the DP traffic the backward pass cannot hide, the
    ZeRO-3 traffic the whole pass cannot hide, and the host's serial optimizer time (CPU offload)."""
    link = LINK_EFFICIENCY
    return time_range_from(v, count * peak_flops_per_s, mfu, tp_link_bytes_per_s * link,
                           dp_link_bytes_per_s * link, hbm_bytes_per_s * DECODE_BANDWIDTH_EFFICIENCY)


def time_range_from(v: TrainingVolumes, flops_per_s: float, mfu: tuple[float, float, float],
                    tp_bytes_per_s: float, dp_bytes_per_s: float, hbm_bytes_per_s: float,
                    ) -> tuple[float, float, float]:
    """`time_range_s` from the rates it multiplies out first — peak FLOP/s of all `count` GPUs, the TP and DP
    links at `LINK_EFFICIENCY`, HBM at `DECODE_BANDWIDTH_EFFICIENCY` — so the planner computes them once per
    (GPU, count, tensor-parallel width) and not once per variant. The same floats as `time_range_s`."""
    tp_s = v.tp_bytes / tp_bytes_per_s if v.tp_bytes else 0.0
    dp_s = v.dp_bytes / dp_bytes_per_s if v.dp_bytes else 0.0
    shard_s = v.shard_bytes / dp_bytes_per_s if v.shard_bytes else 0.0
    fixed = tp_s + (v.dequant_bytes / hbm_bytes_per_s if v.dequant_bytes else 0.0)
    work = v.flops / flops_per_s
    keep = 1.0 - v.bubble
    share = v.backward_share
    host = v.host_s
    # Unrolled over the three MFUs, max(0.0, x) written out (x if x > 0.0 else 0.0): the same values, fewer calls.
    fast = work / mfu[2]
    a, b = dp_s - fast * share, shard_s - fast
    low = (fast + fixed) / keep + ((a if a > 0.0 else 0.0) + (b if b > 0.0 else 0.0)) + host
    mid = work / mfu[1]
    a, b = dp_s - mid * share, shard_s - mid
    expected = (mid + fixed) / keep + ((a if a > 0.0 else 0.0) + (b if b > 0.0 else 0.0)) + host
    slow = work / mfu[0]
    a, b = dp_s - slow * share, shard_s - slow
    high = (slow + fixed) / keep + ((a if a > 0.0 else 0.0) + (b if b > 0.0 else 0.0)) + host
    return low, expected, high


def time_expected_s(v: TrainingVolumes, count: int, peak_flops_per_s: float, mfu: tuple[float, float, float],
                    tp_link_bytes_per_s: float, dp_link_bytes_per_s: float, hbm_bytes_per_s: float) -> float:
    """The expected end of `time_range_s` alone, seconds (the same float; a test holds them equal)."""
    link = LINK_EFFICIENCY
    return time_expected_from(v, count * peak_flops_per_s, mfu[1], tp_link_bytes_per_s * link,
                              dp_link_bytes_per_s * link, hbm_bytes_per_s * DECODE_BANDWIDTH_EFFICIENCY)


def time_expected_from(v: TrainingVolumes, flops_per_s: float, mfu_expected: float, tp_bytes_per_s: float,
                       dp_bytes_per_s: float, hbm_bytes_per_s: float) -> float:
    """The middle of `time_range_from` alone, seconds — the same arithmetic in the same order, so the same
    float. The planner's search compares a configuration's variants on this figure only, a third of the work
    of the whole range."""
    tp_s = v.tp_bytes / tp_bytes_per_s if v.tp_bytes else 0.0
    dp_s = v.dp_bytes / dp_bytes_per_s if v.dp_bytes else 0.0
    shard_s = v.shard_bytes / dp_bytes_per_s if v.shard_bytes else 0.0
    fixed = tp_s + (v.dequant_bytes / hbm_bytes_per_s if v.dequant_bytes else 0.0)
    mid = v.flops / flops_per_s / mfu_expected
    dp_exposed = dp_s - mid * v.backward_share  # max(0.0, x) written out: the same value, without the call
    shard_exposed = shard_s - mid
    return (mid + fixed) / (1.0 - v.bubble) + ((dp_exposed if dp_exposed > 0.0 else 0.0)
                                               + (shard_exposed if shard_exposed > 0.0 else 0.0)) + v.host_s


def gpu_links(gpu, count: int, tp: int) -> tuple[float, float]:
    """(TP link, DP link) bandwidth per direction for `count` GPUs, bytes/s: NVLink/PCIe inside a node,
    the network (or the slower of the two) once the group spans nodes.

    Tensor parallelism over NVLink inside a node is what the MFU priors were measured with (Megatron,
    Llama 3: TP8 on NVLink), so its traffic is already in them: the TP link is then infinite and
    only PCIe or cross-node tensor parallelism is charged — the "PCIe tensor-parallel penalty"."""
    per_node = max(1, gpu.max_per_node)
    intra = interconnect_bytes_per_s(gpu)
    net = network_bytes_per_s_per_gpu(gpu)
    if tp <= per_node:
        tp_link = math.inf if gpu.nvlink else intra
    else:
        tp_link = min(intra, net)
    dp_link = intra if count <= per_node else min(intra, net)
    return tp_link, dp_link


def training_time(
    shape: Shape,
    gpu,
    *,
    tokens: float,
    seq: int,
    count: int,
    task: str = "pretrain",
    precision: str = "bf16-mixed",
    checkpointing: str = "none",
    tp: int = 1,
    pp: int = 1,
    zero_stage: int = 0,
    micro_batch: int = 1,
    trainable_params: float = 0.0,
    offload: bool = False,
) -> TrainingTime:
    """Time to train on `tokens` tokens (epochs included) on `count` GPUs of one kind.

    compute = FLOPs / (count x peak x MFU); plus exposed TP communication (PCIe or across nodes
    makes it large), plus the part of gradient synchronisation that the backward pass cannot hide,
    all divided by (1 - pipeline bubble); QLoRA adds the NF4 dequantisation of every frozen weight
    in each forward and backward pass (read 4.127 bits + write and re-read 16 bits per weight,
    memory-bound). The range uses the MFU range; communication is the same at both ends.
    """
    v = training_volumes(shape, tokens=tokens, seq=seq, count=count, task=task, precision=precision,
                         checkpointing=checkpointing, tp=tp, pp=pp, zero_stage=zero_stage,
                         micro_batch=micro_batch, trainable_params=trainable_params, offload=offload)
    nodes = math.ceil(count / max(1, gpu.max_per_node))
    tp_link, dp_link = gpu_links(gpu, count, tp)
    return time_from_volumes(v, count=count, peak_flops_per_s=peak_flops(gpu, precision),
                             mfu=mfu_range(gpu.architecture, nodes), tp_link_bytes_per_s=tp_link,
                             dp_link_bytes_per_s=dp_link, hbm_bytes_per_s=gpu.bandwidth_tbps * 1e12)


def time_from_achieved(flops: float, count: int, achieved_flops_per_gpu: float) -> float:
    """Seconds to do `flops` on `count` GPUs that each achieve `achieved_flops_per_gpu` FLOP/s
    (Megatron-LM's end-to-end estimate 8·T·P / (n·X) when `flops` = 8·T·P)."""
    return flops / (count * achieved_flops_per_gpu)


# ------------------------------------------------------------------------------------------------
# Inference


def decode_step_seconds(
    shape: Shape,
    gpu,
    *,
    weights_bytes: float,
    context: int,
    batch: int = 1,
    kv_bytes_per_token: float,
    tp: int = 1,
) -> float:
    """One decode step of `batch` sequences at `context` tokens on a replica of `tp` GPUs.

    Memory-bound: (weights read + KV read) / (tp x bandwidth x 0.76); MoE reads the routed experts
    only (active share of the weights at batch 1, all experts once batch x top-k covers them).
    Compute-bound floor: 2·N_active·batch / (tp x peak x 0.68). TP adds two all-reduces per layer
    (latency-bound at decode sizes).
    """
    k = decode_constants(shape, gpu, weights_bytes=weights_bytes, kv_bytes_per_token=kv_bytes_per_token, tp=tp)
    return decode_step_from(k, context, batch)


def decode_constants(shape: Shape, gpu, *, weights_bytes: float, kv_bytes_per_token: float, tp: int = 1) -> tuple:
    """Everything in `decode_step_seconds` that does not depend on context and batch (the planner reuses it)."""
    active = shape.active_params / shape.params if (shape.experts and shape.params) else 1.0
    experts_share = (max(1, shape.experts_per_token) / shape.experts) if shape.experts else 0.0
    mem_rate = tp * gpu.bandwidth_tbps * 1e12 * DECODE_BANDWIDTH_EFFICIENCY
    compute_per_seq = 2.0 * shape.active_params / (tp * peak_flops(gpu, "bf16") * PREFILL_FLOPS_EFFICIENCY)
    comm_fixed = comm_per_seq = 0.0
    if tp > 1 and shape.is_transformer:
        comm_fixed = 2 * shape.layers * COLLECTIVE_LATENCY_S
        comm_per_seq = 2 * shape.layers * 2.0 * shape.hidden * 2 * (tp - 1) / tp / (
            interconnect_bytes_per_s(gpu) * LINK_EFFICIENCY)
    return (weights_bytes, active, experts_share, kv_bytes_per_token, mem_rate, compute_per_seq, comm_fixed,
            comm_per_seq)


def decode_step_from(k: tuple, context: int, batch: int) -> float:
    """Seconds of one decode step from `decode_constants`."""
    weights, active, experts_share, kv_tok, mem_rate, compute_per_seq, comm_fixed, comm_per_seq = k
    if active < 1.0:
        coverage = batch * experts_share if batch * experts_share < 1.0 else 1.0
        weights = weights * (active + (1.0 - active) * coverage)
    mem_s = (weights + kv_tok * context * batch) / mem_rate
    compute_s = compute_per_seq * batch
    return (mem_s if mem_s > compute_s else compute_s) + comm_fixed + comm_per_seq * batch


def prefill_seconds(shape: Shape, gpu, *, tokens: int, tp: int = 1, precision: str = "bf16") -> float:
    """Prefill of `tokens` prompt tokens: (2·N_active·n + 2·L·n²·a·d causal attention) / (tp x peak x efficiency).

    The efficiency is `PREFILL_FLOPS_EFFICIENCY`, measured on an A100, scaled by the architecture's achievable
    matmul share against Ampere's (`MAMF_EFFICIENCY`): an MI300X reaches 51 % of its peak on matmuls where an A100
    reaches 87 % (GC §2a), so its prefill runs at ~0.40 of peak, not 0.68."""
    flops = 2.0 * shape.active_params * tokens
    if shape.is_transformer:
        flops += 2.0 * shape.layers * tokens * tokens * shape.heads * shape.head_dim
    efficiency = PREFILL_FLOPS_EFFICIENCY * mamf_efficiency(gpu.architecture) / MAMF_EFFICIENCY["ampere"]
    return flops / (tp * peak_flops(gpu, precision) * efficiency)
