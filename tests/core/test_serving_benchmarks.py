"""Serving speed against NVIDIA's published TensorRT-LLM measurements (#11).

Source: NVIDIA/TensorRT-LLM `docs/source/performance.md` (v0.6.1 throughput tables, v0.5 first-token tables;
read at commit 138f96d45f90b9667426f7c47297d8c06bafac73). The throughput rows are static batches
(`gptSessionBenchmark`): `batch` sequences prefill `isl` prompt tokens and then decode `osl` tokens together; the
figure is output tokens/s per GPU (the H100 table says so; the L40S and A100 rows used here run on one GPU, where
per GPU and in all are the same). The first-token rows are batch 1.

None of these figures set a constant: the decode bandwidth efficiency (0.76) and the prefill efficiency (0.68) were
fitted on FasterTransformer's 13B runs on an A100 (test_compute.py), so every row here is held out.

What the rows show:
- Decode-bound runs on one GPU (long outputs) land within 10 % on three GPU generations and two precisions.
- The Llama-2-70B rows run at about half the speed a grouped-query cache allows. They were measured before
  TensorRT-LLM's grouped-query decode kernel (XQA, later releases): the attention kernel of v0.6 read the KV
  cache once per *query* head. Reading it 8 times (64 query heads / 8 KV heads) reproduces them within 25 %,
  which is the check that the explanation, not a fudge factor, accounts for the gap. The planner keeps the
  once-per-KV-head read of current engines (vLLM, SGLang, TensorRT-LLM since XQA).
- First token for a 2,048-token prompt is within 15 % on A100 (FP16). On H100 and L40S the runs used FP8 while
  the planner prices prefill at the 16-bit rate (FP8 prefill rarely reaches its 2x in practice: the H100 rows
  run 1.3x faster than 16-bit, not 2x): it errs on the long side, by up to 1.75x on the L40S.
"""

from __future__ import annotations

import pytest

from advisor.core import compute, memory
from advisor.core.planner import workload_from_profile
from advisor.knowledge import knowledge
from advisor.models import Profile

KB = knowledge()


def _shape(model: str):
    return workload_from_profile(Profile(task="inference", model=model, concurrency=1, context_tokens=2048), KB).shape


def _static_batch_tokens_per_s_per_gpu(model: str, gpu_id: str, precision: str, tp: int, batch: int, isl: int,
                                       osl: int, kv_reads: float = 1.0) -> float:
    """Output tokens/s per GPU of a static batch: prefill all prompts, then `osl` decode steps whose context
    grows from `isl` (summed in strides of 16 steps)."""
    shape, gpu = _shape(model), KB.gpus[gpu_id]
    kv_dtype = "fp8" if precision == "fp8" else "bf16"
    k = compute.decode_constants(shape, gpu, weights_bytes=memory.shape_weight_bytes(shape, precision),
                                 kv_bytes_per_token=memory.kv_bytes_per_token(shape, kv_dtype) * kv_reads, tp=tp)
    decode_s = 16 * sum(compute.decode_step_from(k, isl + i, batch) for i in range(0, osl, 16))
    prefill_s = compute.prefill_seconds(shape, gpu, tokens=isl * batch, tp=tp, precision=precision)
    return batch * osl / (decode_s + prefill_s) / tp


# (model, GPU, precision, TP, batch, input length, output length, published output tokens/s per GPU)
ONE_GPU_DECODE = [
    ("llama-2-7b", "h100-sxm", "fp8", 1, 112, 128, 2048, 6818),
    ("llama-2-7b", "h100-sxm", "fp8", 1, 48, 2048, 2048, 2740),
    ("llama-2-7b", "l40s", "fp8", 1, 64, 128, 2048, 1622),
    ("llama-2-7b", "l40s", "fp8", 1, 16, 2048, 2048, 531),
    ("llama-2-7b", "a100-80gb-sxm", "bf16", 1, 60, 128, 2048, 1928),
]


@pytest.mark.parametrize(("model", "gpu", "precision", "tp", "batch", "isl", "osl", "published"), ONE_GPU_DECODE)
def test_decode_throughput_at_a_stated_batch(model, gpu, precision, tp, batch, isl, osl, published) -> None:
    ours = _static_batch_tokens_per_s_per_gpu(model, gpu, precision, tp, batch, isl, osl)
    assert ours == pytest.approx(published, rel=0.15)


# Llama-2-70B (64 query heads, 8 KV heads) on several GPUs, decode-bound rows.
GQA_70B = [
    ("llama-2-70b", "h100-sxm", "fp8", 4, 480, 128, 2048, 1486),
    ("llama-2-70b", "h100-sxm", "fp8", 2, 64, 2048, 2048, 547),
    ("llama-2-70b", "a100-80gb-sxm", "bf16", 4, 240, 128, 2048, 525),
]


@pytest.mark.parametrize(("model", "gpu", "precision", "tp", "batch", "isl", "osl", "published"), GQA_70B)
def test_70b_rows_predate_the_grouped_query_decode_kernel(model, gpu, precision, tp, batch, isl, osl,
                                                          published) -> None:
    shape = _shape(model)
    per_query_head = shape.heads / shape.kv_heads
    assert per_query_head == 8
    then = _static_batch_tokens_per_s_per_gpu(model, gpu, precision, tp, batch, isl, osl, kv_reads=per_query_head)
    assert then == pytest.approx(published, rel=0.25)
    now = _static_batch_tokens_per_s_per_gpu(model, gpu, precision, tp, batch, isl, osl)
    assert now > 1.9 * published  # the planner's (current engines') once-per-KV-head read


# (model, GPU, TP, prompt tokens, published first-token latency in ms, bound on ours / published)
FIRST_TOKEN = [
    ("llama-2-7b", "a100-80gb-sxm", 1, 2048, 133, (0.85, 1.15)),
    ("llama-2-70b", "a100-80gb-sxm", 4, 2048, 377, (0.85, 1.15)),
    ("llama-2-70b", "h100-sxm", 4, 2048, 109, (0.95, 1.35)),  # measured in FP8, priced at the 16-bit rate
    ("llama-2-7b", "h100-sxm", 1, 2048, 36, (0.95, 1.35)),
    ("llama-2-7b", "l40s", 1, 2048, 73, (1.0, 1.8)),
]


@pytest.mark.parametrize(("model", "gpu", "tp", "tokens", "published_ms", "bounds"), FIRST_TOKEN)
def test_first_token_for_a_long_prompt(model, gpu, tp, tokens, published_ms, bounds) -> None:
    ours_ms = 1000 * compute.prefill_seconds(_shape(model), KB.gpus[gpu], tokens=tokens, tp=tp)
    low, high = bounds
    assert low * published_ms <= ours_ms <= high * published_ms
