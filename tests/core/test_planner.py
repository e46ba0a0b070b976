"""The planner: workloads from profiles, and the sweep's candidates (contract fields, honest choices, speed)."""

from __future__ import annotations

from dataclasses import fields

import pytest

from advisor.core import memory
from advisor.core.planner import COUNTS, TIGHT_HEADROOM, CandidateMetrics, MemoryTerms, sweep, workload_from_profile
from advisor.knowledge import KnowledgeBase, knowledge
from advisor.models import GpuSpec, ModelSpec, PriceRange, Profile

LLAMA3_8B = ModelSpec(id="llama-3-8b", name="Llama 3 8B", aliases=("llama3 8b",), family="llama", kind="decoder",
                      params=8_030_261_248, hidden_size=4096, num_layers=32, num_heads=32, num_kv_heads=8,
                      head_dim=128, intermediate_size=14336, vocab_size=128256, max_context=8192,
                      source="meta-llama/Meta-Llama-3-8B config.json")
LLAMA3_70B = ModelSpec(id="llama-3-70b", name="Llama 3 70B", family="llama", kind="decoder", params=70_553_706_496,
                       hidden_size=8192, num_layers=80, num_heads=64, num_kv_heads=8, head_dim=128,
                       intermediate_size=28672, vocab_size=128256, max_context=8192, source="config.json")
RESNET = ModelSpec(id="resnet-50", name="ResNet-50", family="resnet", kind="cnn", params=25_557_032,
                   input_resolution=224, activation_bytes_per_sample=43_757_568, forward_flops_per_sample=8.2e9,
                   source="torchvision")


def _gpu(gid: str, **over) -> GpuSpec:
    base = dict(id=gid, name=gid, vendor="nvidia", architecture="hopper", segment="datacenter", memory_gb=80,
                memory_type="HBM3", bandwidth_tbps=3.35, bf16_tflops=989, fp16_tflops=989, fp8_tflops=1979,
                tdp_w=700, ecc=True, interconnect="NVLink 4", interconnect_gbps=450, nvlink=True, form_factor="sxm",
                max_per_node=8, launch_year=2022, source="datasheet",
                price=PriceRange(low_usd=25_000, high_usd=35_000, date="2026-08", source="test"),
                cloud_hourly=PriceRange(low_usd=2.0, high_usd=5.0, date="2026-08", source="test"))
    base.update(over)
    return GpuSpec(**base)


H100 = _gpu("h100-sxm")
RTX4090 = _gpu("rtx-4090", architecture="ada", segment="consumer", memory_gb=24, memory_type="GDDR6X",
               bandwidth_tbps=1.008, bf16_tflops=165, fp16_tflops=165, fp8_tflops=330, tdp_w=450, ecc=False,
               interconnect="PCIe 4.0", interconnect_gbps=31, nvlink=False, form_factor="pcie", max_per_node=4,
               price=PriceRange(low_usd=1600, high_usd=3000, date="2026-03", source="test"),
               cloud_hourly=PriceRange(low_usd=0.34, high_usd=0.39, date="2026-08", source="test"))
GPUS = [H100, RTX4090]
KB = KnowledgeBase(gpus={g.id: g for g in GPUS}, models={m.id: m for m in (LLAMA3_8B, LLAMA3_70B, RESNET)},
                   entries={}, findings={}, ui={})


def test_contract_field_names_are_kept() -> None:
    assert [f.name for f in fields(MemoryTerms)] == ["weights", "gradients", "optimizer", "activations", "kv_cache",
                                                     "overhead"]
    names = [f.name for f in fields(CandidateMetrics)]
    assert names[:27] == [
        "gpu_id", "count", "nodes", "strategy", "tp", "pp", "dp", "checkpointing", "memory", "capacity_bytes", "fits",
        "headroom_bytes", "time_s", "time_s_low", "time_s_high", "mfu", "tokens_per_s", "max_concurrency", "power_w",
        "facility_w", "node_power_w", "energy_kwh", "buy_usd", "rent_usd_per_hour", "rent_usd", "energy_usd",
        "crosses_pcie_tp"]


def test_workload_defaults_are_recorded() -> None:
    w = workload_from_profile(Profile(task="lora", model="llama-3-8b"), KB)
    assert w.params == 8_030_261_248 and 0 < w.trainable_params < w.params / 100
    # planner.DEFAULT_FINETUNE_SAMPLES examples packed into the default 2,048-token sequences
    assert w.seq_len == 2048 and w.tokens == 50_000 * 2048
    keys = dict(w.assumptions)
    assert {"seq_len", "tokens", "lora"} <= set(keys)
    pre = workload_from_profile(Profile(task="pretrain", params=1_000_000_000), KB)
    assert pre.seq_len == 4096
    assert pre.tokens == pytest.approx(20 * pre.params)  # Chinchilla default
    with pytest.raises(ValueError):
        workload_from_profile(Profile(task="lora"), KB)
    with pytest.raises(ValueError):
        workload_from_profile(Profile(task="lora", model="no-such-model"), KB)


def test_training_sweep_candidates_are_consistent() -> None:
    w = workload_from_profile(Profile(task="finetune", model="llama-3-8b", tokens=200_000_000), KB)
    cands = sweep(w, GPUS)
    assert cands
    for c in cands:
        assert c.count in COUNTS  # what a chassis holds, then whole servers in ~1.5x steps
        assert c.tp * c.pp * c.dp == c.count
        assert c.fits == (c.memory.total <= c.capacity_bytes)
        assert c.headroom_bytes == c.capacity_bytes - c.memory.total
        assert c.time_s_low <= c.time_s * (1 + 1e-12) and c.time_s <= c.time_s_high * (1 + 1e-12)
        assert c.facility_w == pytest.approx(c.power_w * w.pue)
        assert c.memory.kv_cache == 0
        assert c.nodes == -(-c.count // (8 if c.gpu_id == "h100-sxm" else 4))
    # full fine-tuning of 8B (16 B/param = 128 GB of states) does not fit one 80 GB card, fits with ZeRO-3 on 2+
    single = [c for c in cands if c.gpu_id == "h100-sxm" and c.count == 1]
    assert single and not single[0].fits and single[0].checkpointing == "full"
    assert any(c.fits for c in cands if c.gpu_id == "h100-sxm" and c.strategy == "zero3" and c.count == 2)
    # more GPUs of the same kind inside one NVLink server: less time (across servers the parameter gathers of
    # ZeRO-3 go over the network and can make a bigger count slower)
    z3 = sorted((c for c in cands if c.gpu_id == "h100-sxm" and c.strategy == "zero3" and c.count <= 8),
                key=lambda c: c.count)
    assert all(a.time_s > b.time_s for a, b in zip(z3, z3[1:], strict=False))


def test_checkpointing_is_chosen_only_when_it_makes_the_difference() -> None:
    w = workload_from_profile(Profile(task="lora", model="llama-3-8b"), KB)
    by = {(c.gpu_id, c.count, c.strategy): c for c in sweep(w, GPUS)}
    # LoRA 8B at 2K tokens: 16 GB of bf16 weights + ~20 GB of activations. An 80 GB card needs no
    # checkpointing; a 24 GB card fits only with it.
    assert by[("h100-sxm", 1, "single")].checkpointing == "none" and by[("h100-sxm", 1, "single")].fits
    card = by[("rtx-4090", 1, "single")]
    assert card.checkpointing == "full" and card.fits
    no_ckpt = memory.training_memory(w.shape, task="lora", seq=2048, lora_targets=w.lora_targets,
                                     trainable_params=w.trainable_params)
    assert no_ckpt.total > card.capacity_bytes


def test_tensor_parallel_over_pcie_is_flagged() -> None:
    w = workload_from_profile(Profile(task="finetune", model="llama-3-8b", tokens=100_000_000), KB)
    cands = sweep(w, GPUS)
    tp_pcie = [c for c in cands if c.gpu_id == "rtx-4090" and c.tp > 1]
    assert tp_pcie and all(c.crosses_pcie_tp for c in tp_pcie)
    assert not any(c.crosses_pcie_tp for c in cands if c.gpu_id == "h100-sxm")


def test_inference_sweep_serves_the_concurrency() -> None:
    w = workload_from_profile(Profile(task="inference", model="llama-3-70b", concurrency=64, context_tokens=8192), KB)
    cands = sweep(w, GPUS)
    h = [c for c in cands if c.gpu_id == "h100-sxm"]
    # 70B in bf16 is 141 GB: never one 80 GB card
    assert not any(c.fits for c in h if c.count == 1)
    served = [c for c in h if c.fits]
    assert served
    for c in served:
        assert c.max_concurrency >= 64
        assert c.memory.kv_cache > 0 and c.tokens_per_s > 0
        # a service is rented around the clock for the horizon (a year unless the user says otherwise), in the
        # instance sizes clouds sell SXM boards in: 1, 2 or 4 GPUs, or whole 8-GPU boards (platforms.md §5)
        assert c.usage_hours == 24 * 365
        if c.count in (1, 2, 4) or c.count % 8 == 0:
            assert c.rent_usd == pytest.approx(c.rent_usd_per_hour * 24 * 365)
        else:
            assert c.rent_usd is None and c.rent_usd_per_hour is None
    # memory per GPU: weights shard over tp
    widest = max(h, key=lambda c: c.tp)
    bytes_per_weight = {"bf16": 2, "fp8": 1}[widest.weights_dtype]
    assert widest.tp > 1 and widest.memory.weights == pytest.approx(70_553_706_496 * bytes_per_weight / widest.tp,
                                                                    rel=0.001)


def test_image_model_sweep() -> None:
    w = workload_from_profile(Profile(task="finetune", model="resnet-50", samples=1_000_000, epochs=2), KB)
    cands = sweep(w, GPUS)
    c = next(c for c in cands if c.gpu_id == "h100-sxm" and c.count == 1)
    assert c.fits and c.memory.activations == 32 * 43_757_568
    # 3 x forward FLOPs per image x 2M images at the CNN utilisation (Hopper: no MAMF scaling), plus the memory
    # traffic a CNN does not hide, read at the decode efficiency of the H100's 3.35 TB/s (advisor.core.compute)
    from advisor.core import compute

    assert c.mfu == pytest.approx(compute.IMAGE_MFU["cnn"])
    memory_s = compute.CNN_HBM_BYTES_PER_FORWARD_FLOP * 8.2e9 * 2e6 / (3.35e12 * compute.DECODE_BANDWIDTH_EFFICIENCY)
    assert c.time_s == pytest.approx(3 * 8.2e9 * 2e6 / (989e12 * c.mfu) + memory_s, rel=1e-6)


def test_what_if_copies_do_not_share_the_cache() -> None:
    import dataclasses

    w = workload_from_profile(Profile(task="inference", model="llama-3-70b", concurrency=8, context_tokens=4096), KB)
    w = dataclasses.replace(w, serving_precision_given=True)  # the formats are the user's: no FP8 ladder
    bf16 = sweep(w, [H100])
    int4 = sweep(dataclasses.replace(w, weights_dtype="int4"), [H100])
    one_bf16 = next(c for c in bf16 if c.count == 1)
    one_int4 = next(c for c in int4 if c.count == 1)
    # 4-bit linear layers; the embedding and LM head (128,256 x 8,192 each, Llama 3 config) and the
    # norms stay 16-bit, as AWQ/GPTQ/bitsandbytes leave them
    n, kept = LLAMA3_70B.params, 2 * 128_256 * 8_192 + (2 * 80 + 1) * 8_192
    assert one_int4.memory.weights == pytest.approx((n - kept) * 0.5 + kept * 2, rel=0.001)
    assert one_int4.fits and not one_bf16.fits  # 70B at 4 bits (35 GB) fits one 80 GB card; at 16 bits it does not


def test_serving_weights_dtype_from_profile() -> None:
    """Llama 3 70B served in int4 (AWQ/GPTQ): 0.5 byte per parameter of the linear layers, the embedding
    and LM head in 16 bits; int4 needs fewer GPUs than bf16 at the same load."""
    load = dict(task="inference", model="llama-3-70b", concurrency=64, context_tokens=8192)
    w4 = workload_from_profile(Profile(**load, weights_dtype="int4"), KB)
    w16 = workload_from_profile(Profile(**load, weights_dtype="bf16"), KB)
    assert (w4.weights_dtype, w4.kv_dtype) == ("int4", "bf16")
    n = LLAMA3_70B.params
    single = [m for m in sweep(w4, [H100]) if m.tp == 1]
    assert single
    kept = 2 * 128_256 * 8_192 + (2 * 80 + 1) * 8_192  # embedding, LM head and norms stay 16-bit
    for m in single:
        assert m.memory.weights == pytest.approx((n - kept) * 0.5 + kept * 2, rel=0.001)
    need4 = min(m.count for m in sweep(w4, [H100]) if m.fits)
    need16 = min(m.count for m in sweep(w16, [H100]) if m.fits)
    assert need4 < need16


def test_serving_dtypes_default_to_the_precision() -> None:
    """None keeps today's choice (fp8-mixed -> fp8 weights and fp8 KV); a stated KV dtype wins; training ignores them."""
    base = dict(task="inference", model="llama-3-70b")
    assert (lambda w: (w.weights_dtype, w.kv_dtype))(workload_from_profile(Profile(**base), KB)) == ("bf16", "bf16")
    fp8 = workload_from_profile(Profile(**base, precision="fp8-mixed"), KB)
    assert (fp8.weights_dtype, fp8.kv_dtype) == ("fp8", "fp8")
    kv = workload_from_profile(Profile(**base, precision="fp8-mixed", kv_dtype="bf16"), KB)
    assert (kv.weights_dtype, kv.kv_dtype) == ("fp8", "bf16")
    i8 = workload_from_profile(Profile(**base, weights_dtype="int8", kv_dtype="int8"), KB)
    assert (i8.weights_dtype, i8.kv_dtype) == ("int8", "int8")
    lora = workload_from_profile(Profile(task="lora", model="llama-3-70b", weights_dtype="int4"), KB)
    assert lora.weights_dtype == "bf16"


def test_an_offline_batch_job_is_timed_by_its_prefill_flops() -> None:
    # exp-37's shape: 25B prompt tokens of 512 (1-5 output tokens) through Llama 3.1 8B, in FP8 on an H100 SXM.
    w = workload_from_profile(Profile(task="inference", model="llama-3.1-8b", tokens=25_000_000_000,
                                      context_tokens=512, weights_dtype="fp8"), knowledge())
    h100 = knowledge().gpus["h100-sxm"]
    by_count = {c.count: c for c in sweep(w, [h100]) if c.tp == 1}
    # by hand: 2 x 8.03e9 x 2.5e10 = 4.0e20 FLOP (+ ~3 % causal attention at 512 tokens); dense FP8 1,979 TFLOPS
    # (gpu-catalogue.md §2) at prefill's 0.68 of peak measured on an A100 (GT-21), scaled by Hopper's matmul share
    # against Ampere's (0.803 / 0.869, GC §2a): 1.24e15 FLOP/s -> ~3.3e5 s on one GPU
    assert by_count[1].time_s == pytest.approx(4.12e20 / (1979e12 * 0.68 * 0.803 / 0.869), rel=0.05)
    assert by_count[4].time_s == pytest.approx(by_count[1].time_s / 4, rel=1e-6)
    # billed for the job's hours, not for a year of service; no per-user decode speed
    c = by_count[4]
    assert c.usage_hours == pytest.approx(c.time_s / 3600) and c.rent_usd == pytest.approx(c.rent_usd_per_hour * c.usage_hours)
    assert c.tokens_per_s is None
    # counts go as far as a deadline may need, not one past the first that holds the sequences
    assert max(by_count) >= 32


def test_the_serving_pick_leaves_room_when_an_fp8_cache_does() -> None:
    # exp-28's shape: Qwen2.5-14B, 64 x 4k. On one 96 GB RTX PRO 6000, 16-bit weights and a 16-bit cache fill the
    # card to within a few GB (29.5 GB + 51.5 GB, expert_cases.yaml exp-28); an FP8 cache halves the 51.5 GB.
    w = workload_from_profile(Profile(task="inference", model="qwen2.5-14b", concurrency=64, context_tokens=4096), knowledge())
    one = next(c for c in sweep(w, [knowledge().gpus["rtx-pro-6000"]]) if c.count == 1)
    assert one.fits and one.kv_dtype == "fp8"
    assert one.headroom_bytes >= TIGHT_HEADROOM * one.capacity_bytes


def test_a_model_bigger_than_a_server_is_served_across_servers() -> None:
    # DeepSeek-V3 in FP8 (671B parameters: arXiv:2412.19437) on H20 (96 GB, 8 per server): one server holds the
    # ~84 GB of weights per GPU and room for only a few 8k sequences, so 100 users at once need replicas that span
    # two servers — tensor parallel x8 inside each, two pipeline stages across them (how vLLM/SGLang serve it on
    # two 8 x H20 nodes). Each GPU then holds 1/16 of the weights and 1/2 of each sequence's share of the cache.
    from advisor.knowledge import knowledge
    from advisor.core import memory

    kb = knowledge()
    w = workload_from_profile(Profile(task="inference", model="deepseek-v3", weights_dtype="fp8", concurrency=100,
                                      context_tokens=8192), kb)
    h20 = kb.gpus["h20"]
    cands = {(c.count, c.strategy): c for c in sweep(w, [h20])}
    one_server = cands[(16, "tp8")]  # two separate 8-GPU replicas
    across = cands[(16, "tp8-pp2")]  # one replica over both servers
    assert not one_server.fits and across.fits and across.pp == 2 and across.tp == 8
    weights = memory.shape_weight_bytes(w.shape, "fp8")
    assert 660e9 < weights < 690e9  # 671B parameters, FP8 linear layers and 16-bit embeddings
    assert across.memory.weights == pytest.approx(weights / 16, rel=0.01)
    # MLA: 70,272 bytes per token in 16 bits (the report's 576 cached values x 61 layers x 2 bytes), 35,136 in FP8;
    # 100 sequences of 8,192 tokens over two stages
    assert across.memory.kv_cache == pytest.approx(35_136 * 8192 * 100 / 2, rel=0.02)
    assert across.max_concurrency >= 100 and across.tokens_per_s > one_server.tokens_per_s
