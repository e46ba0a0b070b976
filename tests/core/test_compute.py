"""Time arithmetic against published runs (sources named per test; shared/reference/numeric-anchors.md)."""

from __future__ import annotations

import pytest

from advisor.core import compute
from advisor.core.memory import Shape
from advisor.models import GpuSpec

DAY_S = 86_400


def _gpu(**over) -> GpuSpec:
    """An A100-40GB SXM4 from its datasheet (gpu-catalogue.md §2-3): 312 dense BF16 TFLOPS, 1.555 TB/s,
    NVLink 3 at 300 GB/s per direction, 400 W."""
    base = dict(id="a100-40gb-sxm", name="A100 40GB SXM4", vendor="nvidia", architecture="ampere",
                segment="datacenter", memory_gb=40, memory_type="HBM2", bandwidth_tbps=1.555, bf16_tflops=312,
                fp16_tflops=312, tdp_w=400, ecc=True, interconnect="NVLink 3", interconnect_gbps=300, nvlink=True,
                form_factor="sxm", max_per_node=8, launch_year=2020, source="datasheet")
    base.update(over)
    return GpuSpec(**base)


def _gpt(layers: int, hidden: int, heads: int, vocab: int = 51200) -> Shape:
    n = 12 * layers * hidden * hidden + vocab * hidden
    return Shape(kind="decoder", params=n, active_params=n, layers=layers, hidden=hidden, heads=heads,
                 kv_heads=heads, head_dim=hidden // heads, ffn=4 * hidden, vocab=vocab, tied=True, gated_mlp=False)


# Megatron-LM 2021 (Narayanan et al., arXiv:2104.04473) Table 2, as encoded in cli99/llm-analysis
# tests/test_training.py (GT-08): 300B tokens, full recompute, A100, achieved TFLOPS/GPU -> days.
MEGATRON_TABLE_2 = [
    # (layers, hidden, heads, GPUs, achieved TFLOPS per GPU, reported days)
    (96, 12288, 96, 384, 153, 84),     # 175B, PTD-P
    (96, 12288, 96, 1536, 141, 23),    # 175B, PTD-P
    (105, 20480, 128, 560, 171, 156),  # 530B, PTD-P
    (96, 12288, 96, 384, 144, 90),     # 175B, ZeRO-3 without model parallelism
    (105, 20480, 128, 1120, 98, 136),  # 530B, ZeRO-3
]


@pytest.mark.parametrize(("layers", "hidden", "heads", "gpus", "tflops", "days"), MEGATRON_TABLE_2)
def test_megatron_table_2_training_days(layers, hidden, heads, gpus, tflops, days) -> None:
    shape = _gpt(layers, hidden, heads)
    flops = compute.training_flops(shape, 300e9, 2048, task="pretrain", checkpointing="full")
    got = compute.time_from_achieved(flops, gpus, tflops * 1e12) / DAY_S
    assert got == pytest.approx(days, rel=0.05)


def test_megatron_175b_inside_our_predicted_range() -> None:
    # The same run predicted from our MFU priors (not from its reported throughput): 175B, 384 A100s,
    # TP8 x PP12, full recompute. The reported 84 days must fall inside our (low, high) range.
    shape = _gpt(96, 12288, 96)
    t = compute.training_time(shape, _gpu(), tokens=300e9, seq=2048, count=384, task="pretrain",
                              checkpointing="full", tp=8, pp=12, zero_stage=1)
    assert t.low_s / DAY_S < 84 < t.high_s / DAY_S
    assert 0.6 < (t.expected_s / DAY_S) / 84 < 1.4


def test_six_and_eight_nd() -> None:
    # Kaplan et al.: C = 6·N·D; with full recompute 8·N·D (ml-engineering). Attention adds 12·L·s·a·d.
    shape = _gpt(24, 2048, 16)
    n = shape.params - 0  # tied: the embedding is the LM head, which does FLOPs
    attn = 12 * 24 * 1024 * 2048
    assert compute.training_flops_per_token(shape, 1024) == pytest.approx(6 * n + attn)
    assert compute.training_flops_per_token(shape, 1024, checkpointing="full") == pytest.approx(8 * n + attn * 16 / 12)
    # LoRA: frozen weights skip their weight gradient -> 4·N (+ attention, which has no weights)
    assert compute.training_flops_per_token(shape, 1024, task="lora") == pytest.approx(4 * n + attn)


def test_mfu_priors_match_published_runs() -> None:
    # Llama 3 405B on H100: 38-43 % (arXiv:2407.21783 Table 4) at 8K-16K GPUs (1,000-2,000 nodes)
    lo, mid, hi = compute.mfu_range("hopper", nodes=2048)
    assert lo < 0.38 and 0.36 <= mid <= 0.43 and hi > 0.43
    # LLaMA-65B on 2048 A100-80GB: 380 tokens/s/GPU -> 6·65.2e9·380/312e12 = 47.6 % (GT-22/26)
    lo, mid, hi = compute.mfu_range("ampere", nodes=256)
    assert lo < 0.476 < hi
    # MI300X reaches 51 % of peak matmul vs H100's 80 % (ml-engineering MAMF): its prior is lower
    assert compute.mfu_range("cdna3")[1] < compute.mfu_range("hopper")[1] * 0.7


# FasterTransformer decode (kipply "Transformer Inference Arithmetic" via cli99/llm-analysis
# examples/fastertransformer/README.md; GT-21): 13B (40 L, h 5120, 40 heads, V 50272), fp16,
# A100-40GB, context 512, batch 1: 1 GPU 22.0 ms/token decode, 63.17 ms prefill; TP2 13.5 ms decode.
FT13B = _gpt(40, 5120, 40, vocab=50272)


def test_decode_efficiency_anchor_one_gpu() -> None:
    # 0.76 was derived from this very run (22.0 ms measured vs 16.7 ms ideal): this pins the constant.
    kv = 2 * 40 * 5120 * 2
    step = compute.decode_step_seconds(FT13B, _gpu(), weights_bytes=FT13B.params * 2, context=512, batch=1,
                                       kv_bytes_per_token=kv)
    assert step * 1000 == pytest.approx(22.0, rel=0.05)
    prefill = compute.prefill_seconds(FT13B, _gpu(), tokens=512)
    assert prefill * 1000 == pytest.approx(63.17, rel=0.08)


def test_decode_tp2_is_an_independent_check() -> None:
    # Not used to set any constant: two GPUs with NVLink measured 13.5 ms/token.
    kv = 2 * 40 * 5120 * 2
    step = compute.decode_step_seconds(FT13B, _gpu(), weights_bytes=FT13B.params * 2, context=512, batch=1,
                                       kv_bytes_per_token=kv, tp=2)
    assert step * 1000 == pytest.approx(13.5, rel=0.15)


def test_pcie_tensor_parallel_is_penalised() -> None:
    shape = _gpt(32, 4096, 32)
    nvlink = _gpu()
    pcie = _gpu(nvlink=False, interconnect="PCIe 4.0", interconnect_gbps=31, form_factor="pcie")
    kw = dict(tokens=1e9, seq=2048, count=4, task="finetune", tp=4)
    t_nv = compute.training_time(shape, nvlink, **kw).expected_s
    t_pcie = compute.training_time(shape, pcie, **kw).expected_s
    zero3 = dict(tokens=1e9, seq=2048, count=4, task="finetune", zero_stage=3)
    t_dp = compute.training_time(shape, pcie, micro_batch=8, **zero3).expected_s
    assert t_pcie > 1.3 * t_nv   # tensor parallelism over 31 GB/s PCIe is much slower ...
    assert t_dp < t_pcie         # ... than sharded data parallelism on the same cards at a micro-batch of 8,
    # while at a micro-batch of 1 ZeRO-3 gathers the 6.7B parameters (13 GB) twice for each 2,048 tokens:
    # over 31 GB/s that is ~0.8 s per micro-step against ~0.5 s of compute, so it is slower than at 8.
    assert compute.training_time(shape, pcie, micro_batch=1, **zero3).expected_s > 1.2 * t_dp


def test_zero3_gathers_the_frozen_base_of_lora_every_micro_step() -> None:
    # Hand check, LoRA on a 32-layer 4096-wide model (6.7B) over 8 GPUs: each micro-step gathers the 16-bit
    # base twice, 2 x 7/8 x 13.4 GB = 23.5 GB per GPU, whatever the adapters' size.
    shape = _gpt(32, 4096, 32)
    v = compute.training_volumes(shape, tokens=2048 * 8, seq=2048, count=8, task="lora", zero_stage=3,
                                 trainable_params=20e6)
    one_micro_step = 2 * 7 / 8 * shape.params * 2 + 7 / 8 * 20e6 * 2
    assert v.shard_bytes == pytest.approx(one_micro_step, rel=1e-9) and v.dp_bytes == 0


def test_time_range_is_ordered_and_scales_with_gpus() -> None:
    shape = _gpt(32, 4096, 32)
    one = compute.training_time(shape, _gpu(), tokens=1e9, seq=2048, count=1)
    eight = compute.training_time(shape, _gpu(), tokens=1e9, seq=2048, count=8, zero_stage=2)
    assert one.low_s < one.expected_s < one.high_s
    assert 6 < one.expected_s / eight.expected_s <= 8.0001


def test_qlora_dequantisation_costs_time() -> None:
    shape = Shape(kind="decoder", params=7_000_000_000, active_params=7_000_000_000, layers=32, hidden=4096,
                  heads=32, kv_heads=32, head_dim=128, ffn=11008, vocab=32000, linear_params=6_476_005_376)
    kw = dict(tokens=1e8, seq=2048, count=1, trainable_params=40_000_000)
    lora = compute.training_time(shape, _gpu(), task="lora", **kw)
    qlora = compute.training_time(shape, _gpu(), task="qlora", **kw)
    assert 1.05 < qlora.expected_s / lora.expected_s < 1.6


def test_fp8_uses_the_fp8_rate_where_there_is_one() -> None:
    h100 = _gpu(architecture="hopper", bf16_tflops=989, fp16_tflops=989, fp8_tflops=1979)
    assert compute.peak_flops(h100, "fp8-mixed") == 1979e12
    assert compute.peak_flops(_gpu(), "fp8-mixed") == 312e12  # A100: no FP8 hardware


# Published GPU-hours (numeric-anchors.md GT-22 / GT-26): LLaMA (arXiv:2302.13971 Table 15) and Llama 2
# (arXiv:2307.09288) on A100-80GB. Predicted from our MFU priors, not from the runs' throughput, with a
# Megatron-style layout (TP 8 inside a node, data parallel across 256 nodes).
def _llama(layers, hidden, heads, kv, ffn, params) -> Shape:
    return Shape(kind="decoder", params=params, active_params=params, layers=layers, hidden=hidden, heads=heads,
                 kv_heads=kv, head_dim=hidden // heads, ffn=ffn, vocab=32000, embedding_params=32000 * hidden)


PUBLISHED_GPU_HOURS = [
    ("LLaMA-7B", _llama(32, 4096, 32, 32, 11008, 6_738_415_616), 1.0e12, 2048, 82_432),
    ("LLaMA-13B", _llama(40, 5120, 40, 40, 13824, 13_015_864_320), 1.0e12, 2048, 135_168),
    ("LLaMA-33B", _llama(60, 6656, 52, 52, 17920, 32_528_943_616), 1.4e12, 2048, 530_432),
    ("LLaMA-65B", _llama(80, 8192, 64, 64, 22016, 65_285_660_672), 1.4e12, 2048, 1_022_362),
    ("Llama-2-7B", _llama(32, 4096, 32, 32, 11008, 6_738_415_616), 2.0e12, 4096, 184_320),
    ("Llama-2-70B", _llama(80, 8192, 64, 8, 28672, 68_976_648_192), 2.0e12, 4096, 1_720_320),
]


@pytest.mark.parametrize(("name", "shape", "tokens", "seq", "gpu_hours"), PUBLISHED_GPU_HOURS,
                         ids=[c[0] for c in PUBLISHED_GPU_HOURS])
def test_published_gpu_hours_inside_our_range(name, shape, tokens, seq, gpu_hours) -> None:
    a100 = _gpu(id="a100-80gb-sxm", memory_gb=80, bandwidth_tbps=2.039)
    t = compute.training_time(shape, a100, tokens=tokens, seq=seq, count=2048, task="pretrain", tp=8, zero_stage=1)
    low, mid, high = (s * 2048 / 3600 for s in (t.low_s, t.expected_s, t.high_s))
    assert low < gpu_hours < high
    assert mid == pytest.approx(gpu_hours, rel=0.3)
