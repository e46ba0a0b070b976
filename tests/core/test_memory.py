"""Memory arithmetic against published figures (sources named per test; shared/reference/numeric-anchors.md)."""

from __future__ import annotations

import math

import pytest

from advisor.core import memory
from advisor.core.memory import GIB, Shape

# ------------------------------------------------------------------------------------------------
# ZeRO (Rajbhandari et al., arXiv:1910.02054) Table 1: GB per device of model states, K = 12,
# columns P_os / P_os+g / P_os+g+p. Transcribed in numeric-anchors.md GT-02.

ZERO_TABLE_1 = {
    7.5e9: {1: ("120", "120", "120"), 4: ("52.5", "41.3", "30"), 16: ("35.6", "21.6", "7.5"),
            64: ("31.4", "16.6", "1.88"), 256: ("30.4", "15.4", "0.47"), 1024: ("30.1", "15.1", "0.12")},
    128e9: {1: ("2048", "2048", "2048"), 4: ("896", "704", "512"), 16: ("608", "368", "128"),
            64: ("536", "284", "32"), 256: ("518", "263", "8"), 1024: ("513", "257", "2")},
    1e12: {1: ("16000", "16000", "16000"), 4: ("7000", "5500", "4000"), 16: ("4750", "2875", "1000"),
           64: ("4187", "2218", "250"), 256: ("4046", "2054", "62.5"), 1024: ("4011", "2013", "15.6")},
}


def _close_to_printed(value: float, printed: str) -> bool:
    """Within 1 %, or within the rounding of the printed cell (0.12 stands for 0.1172)."""
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    target = float(printed)
    return abs(value - target) <= max(0.01 * target, 0.5 * 10 ** -decimals + 1e-12)


@pytest.mark.parametrize("params", sorted(ZERO_TABLE_1))
def test_zero_paper_table_1(params: float) -> None:
    state = memory.state_bytes_per_param("bf16-mixed", "adamw")
    assert state.total == 16  # 2 + 2 + K, K = 12
    for dp, cells in ZERO_TABLE_1[params].items():
        for stage, printed in zip((1, 2, 3), cells, strict=True):
            gb = sum(memory.zero_model_states(params, state, stage, dp)) / 1e9
            assert _close_to_printed(gb, printed), (params, dp, stage, gb, printed)


def test_zero_figure_1_and_baseline() -> None:
    # ZeRO Figure 1: 7.5B on 64 GPUs -> 120 / 31.4 / 16.6 / 1.9 GB per device (GT-01).
    state = memory.state_bytes_per_param("fp16-mixed", "adamw")
    got = [sum(memory.zero_model_states(7.5e9, state, stage, 64)) / 1e9 for stage in (0, 1, 2, 3)]
    assert got[0] == pytest.approx(120, rel=0.01)
    assert got[1] == pytest.approx(31.4, rel=0.01)
    assert got[2] == pytest.approx(16.6, rel=0.01)
    assert got[3] == pytest.approx(1.9, rel=0.02)


@pytest.mark.parametrize(
    ("precision", "optimizer", "fp32_grads", "expected"),
    [
        ("bf16-mixed", "adamw", True, 18),   # Megatron-LM / DeepSpeed / ml-engineering accounting
        ("bf16", "adamw", False, 8),         # pure bf16 AdamW: ml-engineering "only 8 bytes per parameter"
        ("fp32", "adamw", False, 16),        # 4 + 4 + 8
        ("bf16-mixed", "adamw-8bit", False, 10),  # ml-engineering: 8-bit AdamW saves 6 of the 18 / 16 -> 10
        ("fp32", "sgd", False, 12),          # weights 4, grads 4, momentum 4 (ml-engineering "SGD 4")
    ],
)
def test_bytes_per_param_regimes(precision: str, optimizer: str, fp32_grads: bool, expected: float) -> None:
    assert memory.state_bytes_per_param(precision, optimizer, fp32_grads=fp32_grads).total == expected


def test_unknown_precision_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown precision"):
        memory.state_bytes_per_param("int3", "adamw")


# ------------------------------------------------------------------------------------------------
# Korthikanti et al. (arXiv:2205.05198) Figure 1, transcribed in calculon-ai/calculon
# `calculon/llm/validation.py` (seqsel_fig1); GiB per GPU, fp16, seq 2048, TP 8 (GT-04).

GPT = {  # name: (layers, hidden, heads, pp, interleave v, micro-batch, global batch, act TP, act TP+SP+sel)
    "22B": (48, 6144, 64, 1, 1, 4, 4, 59.25, 9.5625),
    "175B": (96, 12288, 96, 8, 3, 1, 64, 66.84375, 12.3515625),
    "530B": (105, 20480, 128, 35, 3, 1, 280, 114.0234375, 23.076171875),
    "1T": (128, 25600, 160, 64, 1, 1, 512, 131.25, 26.5625),
}


def _gpt(layers: int, hidden: int, heads: int) -> Shape:
    return Shape(kind="decoder", params=12 * layers * hidden * hidden, active_params=12 * layers * hidden * hidden,
                 layers=layers, hidden=hidden, heads=heads, kv_heads=heads, head_dim=hidden // heads,
                 ffn=4 * hidden, vocab=51200, tied=True, gated_mlp=False)


@pytest.mark.parametrize("name", sorted(GPT))
def test_korthikanti_figure_1_activations(name: str) -> None:
    layers, hidden, heads, pp, v, micro, global_batch, act_tp, act_sel = GPT[name]
    shape = _gpt(layers, hidden, heads)
    seq, tp = 2048, 8
    microbatches = global_batch // micro
    factor = memory.pipeline_inflight_factor(pp, microbatches, v)
    tokens = micro * seq
    tp_only = memory.layer_activation_bytes_per_token_megatron(shape, seq, attention="eager", tp=tp, sp=False)
    assert tp_only * tokens * layers * factor / GIB == pytest.approx(act_tp, rel=0.01)
    sel = memory.layer_activation_bytes_per_token_megatron(shape, seq, attention="eager", tp=tp, sp=True,
                                                            recompute="selective")
    assert sel * tokens * layers * factor / GIB == pytest.approx(act_sel, rel=0.01)


def test_korthikanti_no_parallelism_formula() -> None:
    # Table 2: sbh(34 + 5as/h) per layer without parallelism; 2sbh with full recompute.
    shape = _gpt(1, 4096, 32)
    s, h, a = 2048, 4096, 32
    assert memory.layer_activation_bytes_per_token_megatron(shape, s) == pytest.approx(h * (34 + 5 * a * s / h))
    assert memory.layer_activation_bytes_per_token_megatron(shape, s, recompute="full") == 2 * h


@pytest.mark.parametrize(
    ("name", "params_opt_gib"),
    [("22B", 45.5625), ("175B", 45.5625), ("530B", 31.640625), ("1T", 32.958984375)],
)
def test_korthikanti_figure_1_model_states(name: str, params_opt_gib: float) -> None:
    # Same figure, params + optimizer: the 18-byte regime (fp32 gradients) over TP x PP shards (5 %).
    layers, hidden, heads, pp, *_ = GPT[name]
    n = 12 * layers * hidden * hidden + 13 * layers * hidden + (51200 + 2048) * hidden + 2 * hidden
    state = memory.state_bytes_per_param("fp16-mixed", "adamw", fp32_grads=True)
    gib = sum(memory.zero_model_states(n / (8 * pp), state, 0, 1)) / GIB
    assert gib == pytest.approx(params_opt_gib, rel=0.05)


# ------------------------------------------------------------------------------------------------
# QLoRA (Dettmers et al., arXiv:2305.14314): NF4 + double quantisation, 65B on one 48 GB GPU,
# 33B on a 24 GB consumer GPU; >780 GB for 16-bit full fine-tuning (GT-10).

def _llama1(layers: int, hidden: int, heads: int, ffn: int):
    from advisor.models import ModelSpec

    return ModelSpec(id="llama1", name="LLaMA", family="llama", kind="decoder", params=1, hidden_size=hidden,
                     num_layers=layers, num_heads=heads, num_kv_heads=heads, head_dim=hidden // heads,
                     intermediate_size=ffn, vocab_size=32000, source="LLaMA paper Table 2 dims")


LLAMA1_65B = (80, 8192, 64, 22016)
LLAMA1_33B = (60, 6656, 52, 17920)


def test_nf4_double_quant_bits() -> None:
    # 4 + 8/64 + 32/(64*256) = 4.127 bits; double quantisation saves ~0.37 bits/param (~3 GB for 65B).
    assert pytest.approx(4.127, abs=0.001) == memory.QLORA_NF4_BITS
    saving_bits = (4 + 32 / 64) - memory.QLORA_NF4_BITS
    assert saving_bits == pytest.approx(0.37, abs=0.01)
    assert 65.2e9 * saving_bits / 8 / 1e9 == pytest.approx(3.0, abs=0.1)


@pytest.mark.parametrize(("dims", "card_gb"), [(LLAMA1_65B, 48), (LLAMA1_33B, 24)])
def test_qlora_headline_fits(dims, card_gb: int) -> None:
    from advisor.core.params import LORA_TARGETS, lora_trainable_params

    spec = _llama1(*dims)
    shape = memory.shape_from_spec(spec)
    targets = frozenset(LORA_TARGETS)
    # The paper's setting: r = 64 on every linear layer, LoRA modules cast to bf16 (qlora.py), paged
    # AdamW (states in unified memory), gradient checkpointing, small batch; Guanaco length 512.
    paper = memory.training_memory(
        shape, task="qlora", batch=1, seq=512, checkpointing="full", lora_rank=64, lora_targets=targets,
        trainable_params=lora_trainable_params(spec, 64, targets), adapter_bytes=2, paged_optimizer=True)
    assert paper.total < card_gb * 1e9
    # Our defaults (rank 16, fp32 adapters and optimizer on the GPU) fit too.
    ours = memory.training_memory(
        shape, task="qlora", batch=1, seq=512, checkpointing="full", lora_rank=16, lora_targets=targets,
        trainable_params=lora_trainable_params(spec, 16, targets))
    assert ours.total < card_gb * 1e9


def test_qlora_65b_full_finetune_is_over_780_gb() -> None:
    shape = memory.shape_from_spec(_llama1(*LLAMA1_65B))
    full = memory.training_memory(shape, task="finetune", batch=1, seq=512, checkpointing="full")
    assert full.total > 780e9
    # and the 4-bit base is about a quarter of the 16-bit weights (QLoRA: 65B -> ~33.6 GB of NF4)
    q = memory.training_memory(shape, task="qlora", batch=1, seq=512, checkpointing="full",
                               trainable_params=0, lora_targets=frozenset())
    assert q.weights / 1e9 == pytest.approx(34.5, rel=0.03)


# ------------------------------------------------------------------------------------------------
# Inference: Hugging Face Llama 3.1 blog (huggingface/blog llama31.md), GT-24. The KV table is in GiB
# with 1k = 1024 and 16k/128k = 16,000/128,000 tokens; its 405B row implies 16 KV heads, not 8.

LLAMA31 = {  # name: (layers, kv heads as the blog computed, head_dim, params)
    "8B": (32, 8, 128, 8_030_261_248),
    "70B": (80, 8, 128, 70_553_706_496),
    "405B": (126, 16, 128, 405_853_388_800),
}
BLOG_KV_GIB = {"8B": (0.125, 1.95, 15.62), "70B": (0.313, 4.88, 39.06), "405B": (0.984, 15.38, 123.05)}
BLOG_WEIGHTS_GB = {"8B": (16, 8, 4), "70B": (140, 70, 35), "405B": (810, 405, 203)}


@pytest.mark.parametrize("name", sorted(LLAMA31))
def test_llama31_kv_cache_gib(name: str) -> None:
    layers, kv, d, params = LLAMA31[name]
    shape = Shape(kind="decoder", params=params, active_params=params, layers=layers, hidden=kv * d * 4,
                  heads=32, kv_heads=kv, head_dim=d)
    for tokens, gib in zip((1024, 16_000, 128_000), BLOG_KV_GIB[name], strict=True):
        assert memory.kv_cache_bytes(shape, tokens, 1, "fp16") / GIB == pytest.approx(gib, rel=0.01)


@pytest.mark.parametrize("name", sorted(LLAMA31))
def test_llama31_weights_gb(name: str) -> None:
    params = LLAMA31[name][3]
    for dtype, gb in zip(("fp16", "fp8", "int4"), BLOG_WEIGHTS_GB[name], strict=True):
        assert memory.weight_bytes(params, dtype) / 1e9 == pytest.approx(gb, rel=0.015)


def test_kv_per_token_examples() -> None:
    # numeric-anchors.md §1.5: Llama-2-7B 524,288 B/token (MHA); Qwen2.5-7B 57,344 (4 KV heads of 128)
    llama2 = Shape(kind="decoder", params=1, active_params=1, layers=32, hidden=4096, heads=32, kv_heads=32, head_dim=128)
    qwen = Shape(kind="decoder", params=1, active_params=1, layers=28, hidden=3584, heads=28, kv_heads=4, head_dim=128)
    assert memory.kv_bytes_per_token(llama2) == 524_288
    assert memory.kv_bytes_per_token(qwen) == 57_344
    assert memory.kv_bytes_per_token(qwen, "fp8") == 57_344 / 2


def test_gguf_width_from_llama_cpp() -> None:
    # llama.cpp tools/quantize/README.md: Llama-3.1-8B Q4_K_M 4.8944 bits/weight -> 4.91 GB file
    assert memory.weight_bytes(8_030_261_248, "q4_k_m") / 1e9 == pytest.approx(4.913, rel=0.002)


def test_max_context_and_sequences_are_consistent() -> None:
    shape = Shape(kind="decoder", params=8_030_261_248, active_params=8_030_261_248, layers=32, hidden=4096,
                  heads=32, kv_heads=8, head_dim=128, ffn=14336, vocab=128256)
    cap = memory.usable_bytes(80) * memory.SERVING_MEMORY_FRACTION
    n = memory.max_sequences(shape, cap, context=8192)
    assert n > 0
    # n sequences fit, n + 1 do not
    assert memory.inference_memory(shape, context=8192, concurrency=n).total <= cap
    assert memory.inference_memory(shape, context=8192, concurrency=n + 1).total > cap
    ctx = memory.max_context(shape, cap, concurrency=n)
    assert ctx >= 8192
    assert memory.inference_memory(shape, context=ctx + 1024, concurrency=n).total > cap


# ------------------------------------------------------------------------------------------------
# Training memory as a whole: properties every configuration must have


def _llama3_8b() -> Shape:
    from advisor.models import ModelSpec

    return memory.shape_from_spec(ModelSpec(
        id="l", name="Llama 3 8B", family="llama", kind="decoder", params=1, hidden_size=4096, num_layers=32,
        num_heads=32, num_kv_heads=8, head_dim=128, intermediate_size=14336, vocab_size=128256, source="config.json"))


def test_checkpointing_and_zero_reduce_memory_monotonically() -> None:
    shape = _llama3_8b()
    totals = [memory.training_memory(shape, seq=4096, checkpointing=c).total for c in ("none", "full")]
    assert totals[1] < totals[0]
    per_stage = [memory.training_memory(shape, count=8, strategy=s).total for s in ("ddp", "zero1", "zero2", "zero3")]
    assert per_stage == sorted(per_stage, reverse=True)
    assert memory.training_memory(shape, count=8, strategy="fsdp").total == per_stage[3]


def test_ddp_bucket_copy_and_nccl_are_charged() -> None:
    shape = _llama3_8b()
    one = memory.training_memory(shape, count=1, strategy="single")
    ddp = memory.training_memory(shape, count=2, strategy="ddp")
    # PyTorch DDP docs: buckets copy every gradient unless gradient_as_bucket_view=True; NCCL ~1.5 GiB
    assert ddp.communication == pytest.approx(one.gradients + 1.5 * GIB)


def test_pipeline_first_stage_holds_all_layers_worth() -> None:
    # Korthikanti §4.2.3: 1F1B keeps p micro-batches of L/p layers on stage one = L layers' worth.
    assert memory.pipeline_inflight_factor(8, 64) == 1.0
    assert memory.pipeline_inflight_factor(8, 4) == 0.5
    assert memory.pipeline_inflight_factor(35, 280, 3) == pytest.approx(1 + 34 / 105)


def test_offload_moves_state_to_host() -> None:
    shape = _llama3_8b()
    on_gpu = memory.training_memory(shape, count=8, strategy="zero3")
    off = memory.training_memory(shape, count=8, strategy="zero3", offload=True)
    assert off.weights + off.gradients + off.optimizer == 0
    assert off.host_ram > 0 and off.total < on_gpu.total
    z2 = memory.training_memory(shape, count=8, strategy="zero2", offload=True)
    # DeepSpeed ZeRO-2 + optimizer offload keeps the 16-bit weights (2 bytes/param) on the GPU
    assert z2.weights == pytest.approx(2 * shape.params)
    assert z2.host_ram == pytest.approx(shape.params * max(4 * 8, 16) * 1.5)


def test_non_llm_uses_measured_bytes_per_sample() -> None:
    shape = Shape(kind="cnn", params=25_557_032, active_params=25_557_032, activation_bytes_per_sample=43_757_568)
    acts = memory.activation_bytes(shape, 32, 1)
    assert acts.saved == 32 * 43_757_568


def test_bad_sizes_raise() -> None:
    shape = _llama3_8b()
    with pytest.raises(ValueError):
        memory.training_memory(shape, batch=0)
    with pytest.raises(ValueError):
        memory.training_memory(shape, count=6, tp=4)
    with pytest.raises(ValueError):
        memory.inference_memory(shape, context=0)
    assert math.isfinite(memory.training_memory(shape).total)


def test_encoder_layer_in_16_bits_is_korthikanti_table_2() -> None:
    """Korthikanti et al. (arXiv:2205.05198) §4.1: a BERT/GPT layer with 16-bit activations and 1-byte
    dropout masks keeps s·b·h·(34 + 5·a·s/h) bytes; per token 34·h + 5·a·s (+16 for LayerNorms' fp32
    mean and rstd, which the paper leaves out). BERT-large: h 1024, a 16, s 512."""
    from advisor.core.memory import layer_activation_bytes_per_token_encoder

    bert = Shape(kind="encoder", params=1, active_params=1, layers=24, hidden=1024, heads=16, kv_heads=16,
                 head_dim=64, ffn=4096, vocab=30522, tied=True, gated_mlp=False)
    got = layer_activation_bytes_per_token_encoder(bert, 512, attention="eager", element_bytes=2)
    assert got == 34 * 1024 + 5 * 16 * 512 + 16
    # fp32: the same tensors at 4 bytes, masks still 1 byte: (34 - 2)·2 + 2 = 66·h, (5 - 1)·2 + 1 = 9·a·s
    got32 = layer_activation_bytes_per_token_encoder(bert, 512, attention="eager", element_bytes=4)
    assert got32 == 66 * 1024 + 9 * 16 * 512 + 16


def test_autocast_keeps_fp32_islands_in_an_encoder() -> None:
    """PyTorch CUDA autocast runs softmax and layer_norm in fp32 ("CUDA Ops that can autocast to
    float32", torch.amp docs) and caches casts of weights only: the fp32 residual stream is cast
    once per projection. Under fp16 AMP an encoder layer keeps 42·h + 7·a·s bytes per token —
    more than pure 16-bit (34·h + 5·a·s), less than fp32 (66·h + 9·a·s)."""
    from advisor.core.memory import layer_activation_bytes_per_token_encoder

    bert = Shape(kind="encoder", params=1, active_params=1, layers=24, hidden=1024, heads=16, kv_heads=16,
                 head_dim=64, ffn=4096, vocab=30522, tied=True, gated_mlp=False)
    amp = layer_activation_bytes_per_token_encoder(bert, 512, attention="eager", element_bytes=2, autocast=True)
    assert amp == 42 * 1024 + 7 * 16 * 512 + 16


def _llama7b() -> Shape:
    return Shape(kind="decoder", params=6_738_415_616, active_params=6_738_415_616, layers=32, hidden=4096,
                 heads=32, kv_heads=32, head_dim=128, ffn=11008, vocab=32000)


def test_the_loss_backward_peak_is_three_fp32_vocabulary_tensors() -> None:
    """At log_softmax's backward its saved fp32 output, the gradient from nll_loss and the one it
    allocates are alive together: 3 x 4·V bytes per token, of which the saved output is in `saved`
    (torch `log_softmax_backward_data(grad_output, output, ...)` allocates its result)."""
    shape, tokens = _llama7b(), 2 * 1024
    acts = memory.activation_bytes(shape, 2, 1024, lora=(frozenset({"q", "v"}), 8, False))
    assert acts.transient == tokens * 8 * 32000


def test_a_loop_that_keeps_the_outputs_holds_the_fp32_logits_through_backward() -> None:
    """Answer.AI fsdp_qlora train.py keeps `output` until after `loss.backward()`; transformers 4.38's
    Llama upcasts the logits to fp32 in `forward`: 4·V more bytes per token at the loss's peak."""
    shape = _llama7b()
    lora = (frozenset({"q", "v"}), 8, False)
    hf = memory.activation_bytes(shape, 2, 1024, lora=lora)
    aa = memory.activation_bytes(shape, 2, 1024, lora=lora, held_logits_bytes=4.0)
    assert aa.transient - hf.transient == 2 * 1024 * 4 * 32000
    assert memory.Stack.preset("answerai").held_logits_bytes == 4.0


def test_litgpt_chunked_head_keeps_16_bit_logits_and_log_softmax() -> None:
    """LitGPT `chunked_cross_entropy` on `lm_head_chunk_size=128` chunks: bf16 logits and a bf16
    log-softmax are kept (2·V + 2·V per token, the same bytes as one fp32 log-softmax) and no
    vocabulary-sized gradient exists for the whole batch at once."""
    shape = _llama7b()
    lora = (frozenset({"q", "v"}), 8, False)
    hf = memory.activation_bytes(shape, 1, 512, lora=lora)
    lit = memory.activation_bytes(shape, 1, 512, lora=lora, chunked_head=True)
    assert lit.saved == hf.saved and lit.transient == 0.0
    assert memory.Stack.preset("litgpt").chunked_head


def test_autoawq_fused_prefill_materialises_one_layers_scores() -> None:
    """AutoAWQ's fused attention at its README benchmarks (awq/modules/fused/attn.py, 5c7e368):
    `scores = matmul(q, k^T)` in fp16, then `softmax(scores.float())`: 2 + 4 + 4 bytes per head per
    prompt position pair per sequence, for one layer at a time; the cache is preallocated, so three
    sequences hold three caches and no grown copy. TinyLlama 1.1B: 32 heads, prompt 2048."""
    tiny = Shape(kind="decoder", params=1_100_048_384, active_params=1_100_048_384, layers=22, hidden=2048,
                 heads=32, kv_heads=4, head_dim=64, ffn=5632, vocab=32000)
    one = memory.inference_memory(tiny, context=2048, prompt_tokens=2048, engine="awq-fused")
    layers = memory.inference_workspace_bytes(tiny, tokens=2048, logits_rows=0)
    assert one.workspace - layers == 10 * 32 * 2048 * 2048
    three = memory.inference_memory(tiny, context=2048, prompt_tokens=2048, concurrency=3, engine="awq-fused")
    assert three.kv_cache == 3 * one.kv_cache == 3 * 2 * 22 * 4 * 64 * 2 * 2048
    assert three.workspace - memory.inference_workspace_bytes(tiny, tokens=3 * 2048, logits_rows=0) == (
        3 * 10 * 32 * 2048 * 2048
    )
