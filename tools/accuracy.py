"""`make accuracy`: how close the numeric core comes to published figures, printed as a Markdown table.

Why this exists: tests/core/ already assert that advisor/core reproduces published memory, time and
parameter figures within a tolerance, but a pass/fail does not tell a reader *how* close we are, nor
how that compares with the estimators people already use. This script computes every estimate live,
calling the same core functions the tests call with the same inputs, and prints one row per published
case: the figure as published (typed in below from shared/reference/numeric-anchors.md, source named
per row, never computed by the core), our estimate, the relative error, and, where numeric-anchors.md
gives one, a peer tool's figure on the same case with its error. README.md "## Accuracy" pastes this
output; tests/test_accuracy_tool.py runs it and checks every error cell against the tests' tolerances.

Run: `.venv/bin/python tools/accuracy.py` (a second or two; imports neither Textual nor torch).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from advisor.core import compute, memory  # noqa: E402
from advisor.core.memory import GIB, Shape  # noqa: E402
from advisor.core.params import (  # noqa: E402
    LORA_TARGETS,
    active_param_count,
    lora_trainable_params,
    param_count,
    spec_from_hf_config,
)
from advisor.models import GpuSpec, ModelSpec  # noqa: E402

DAY_S = 86_400
CALIBRATION = ROOT / "tests" / "core" / "data" / "activation_calibration.json"

HEADER = ("published case", "source", "published figure", "our estimate", "error", "peer (tool) and its error")


# ------------------------------------------------------------------------------------------------
# Formatting


def _num(text: str) -> float:
    """The first number in a published cell ("31.4 GB", "< 48 GB", "8,030,261,248")."""
    match = re.search(r"\d[\d,]*(?:\.\d+)?", text)
    if not match:
        raise ValueError(f"no number in {text!r}")
    return float(match.group().replace(",", ""))


def _decimals(published: str) -> int:
    match = re.search(r"\d[\d,]*(?:\.(\d+))?", published)
    return len(match.group(1) or "") if match else 0


def _fmt(value: float, published: str = "") -> str:
    """Ours with one digit more than the published cell, so the error can be re-read from the table;
    whole numbers of 10,000 and more (parameters, GPU-hours, bytes) without decimals."""
    places = _decimals(published)
    if places == 0 and abs(value) >= 10_000:
        return f"{value:,.0f}"
    return f"{value:,.{min(places + 1, 4)}f}"


def _pct(ours: float, published: float) -> str:
    return f"{(ours - published) / published * 100:+.2f} %"


ROWS: list[tuple[str, ...]] = []


def row(case: str, source: str, published: str, ours: float, unit: str, *, peer: str = "", note: str = "") -> None:
    """One table row. `published` is typed from numeric-anchors.md; "< X" and "> X" are bounds."""
    target = _num(published)
    if published.lstrip().startswith(("<", ">")):
        below = published.lstrip().startswith("<")
        ok = ours < target if below else ours > target
        error = ("meets bound" if ok else "MISSES bound") + f" ({_pct(ours, target)})"
    else:
        error = _pct(ours, target)
    ours_cell = f"{_fmt(ours, published)} {unit}".strip() + (f" {note}" if note else "")
    ROWS.append((case, source, published, ours_cell, error, peer or "—"))


def peer(tool: str, value: float | str, unit: str, published: str) -> str:
    """A peer's figure on the same case: typed as the peer printed it (a string), or a float computed
    from the peer's formula as numeric-anchors.md quotes it."""
    shown = value if isinstance(value, str) else _fmt(value, published)
    return f"{tool}: " + f"{shown} {unit}".strip() + f" ({_pct(_num(shown), _num(published))})"


# ------------------------------------------------------------------------------------------------
# Shapes and GPUs built exactly as tests/core/ builds them


def _gpt(layers: int, hidden: int, heads: int, *, n: int | None = None, vocab: int = 51200) -> Shape:
    n = 12 * layers * hidden * hidden if n is None else n
    return Shape(
        kind="decoder",
        params=n,
        active_params=n,
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=heads,
        head_dim=hidden // heads,
        ffn=4 * hidden,
        vocab=vocab,
        tied=True,
        gated_mlp=False,
    )


def _a100(**over) -> GpuSpec:
    """A100-40GB SXM4 from its datasheet (312 dense BF16 TFLOPS, 1.555 TB/s, NVLink 3, 400 W)."""
    base = dict(
        id="a100-40gb-sxm",
        name="A100 40GB SXM4",
        vendor="nvidia",
        architecture="ampere",
        segment="datacenter",
        memory_gb=40,
        memory_type="HBM2",
        bandwidth_tbps=1.555,
        bf16_tflops=312,
        fp16_tflops=312,
        tdp_w=400,
        ecc=True,
        interconnect="NVLink 3",
        interconnect_gbps=300,
        nvlink=True,
        form_factor="sxm",
        max_per_node=8,
        launch_year=2020,
        source="datasheet",
    )
    base.update(over)
    return GpuSpec(**base)


def _llama_cfg(
    h: int, layers: int, heads: int, kv: int, ffn: int, vocab: int, model_type: str = "llama", **extra
) -> dict:
    return {
        "model_type": model_type,
        "hidden_size": h,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": kv,
        "intermediate_size": ffn,
        "vocab_size": vocab,
        "tie_word_embeddings": False,
        **extra,
    }


# ------------------------------------------------------------------------------------------------
# The cases


def zero() -> None:
    """ZeRO (arXiv:1910.02054) model states per device, K = 12 (numeric-anchors GT-01/GT-02)."""
    src_t1 = "ZeRO paper Table 1 (arXiv:1910.02054)"
    state = memory.state_bytes_per_param("fp16-mixed", "adamw")

    def gb(params: float, stage: int, dp: int) -> float:
        return sum(memory.zero_model_states(params, state, stage, dp)) / 1e9

    psi, n = 7.5e9, 64
    # Peers on the same case, from the formulas numeric-anchors.md §1.2/§2 quotes: accelerate
    # estimate-memory reports the largest component (8 B/param for fp16 Adam); DeepSpeed's current
    # ZeRO-2 estimator 2Ψ + 18Ψ/N; its ZeRO-3 estimator 18Ψ/N + 4 x largest layer (not given here).
    row(
        "7.5B, 64 GPUs, baseline DDP (16Ψ)",
        "ZeRO paper Figure 1",
        "120 GB",
        gb(psi, 0, n),
        "GB",
        peer=peer("accelerate estimate-memory fp16 (max component, 8 B/param)", 8 * psi / 1e9, "GB", "120"),
    )
    row(
        "7.5B, 64 GPUs, P_os (ZeRO-1)",
        src_t1,
        "31.4 GB",
        gb(psi, 1, n),
        "GB",
        peer="DeepSpeed: no ZeRO-1 estimator (DeepSpeed#5102)",
    )
    row(
        "7.5B, 64 GPUs, P_os+g (ZeRO-2)",
        src_t1,
        "16.6 GB",
        gb(psi, 2, n),
        "GB",
        peer=peer("DeepSpeed ZeRO-2 estimator 2Ψ+18Ψ/N", (2 * psi + 18 * psi / n) / 1e9, "GB", "16.6"),
    )
    row(
        "7.5B, 64 GPUs, P_os+g+p (ZeRO-3)",
        src_t1,
        "1.88 GB",
        gb(psi, 3, n),
        "GB",
        peer=peer(
            "DeepSpeed ZeRO-3 estimator 18Ψ/N + 4·largest layer (not given)",
            "≥ " + _fmt(18 * psi / n / 1e9, "1.88"),
            "GB",
            "1.88",
        ),
    )
    for stage, printed, label in ((1, "4011 GB", "P_os"), (2, "2013 GB", "P_os+g"), (3, "15.6 GB", "P_os+g+p")):
        row(f"1T, 1024 GPUs, {label}", src_t1, printed, gb(1e12, stage, 1024), "GB")


KORTHIKANTI = {  # name: (layers, hidden, heads, pp, interleave v, micro-batch, global batch, act TP, act TP+SP+sel)
    "22B": (48, 6144, 64, 1, 1, 4, 4, "59.25", "9.5625"),
    "175B": (96, 12288, 96, 8, 3, 1, 64, "66.84375", "12.3515625"),
    "530B": (105, 20480, 128, 35, 3, 1, 280, "114.0234375", "23.076171875"),
    "1T": (128, 25600, 160, 64, 1, 1, 512, "131.25", "26.5625"),
}


def korthikanti() -> None:
    """Activation GiB per GPU, seq 2048, TP 8 (arXiv:2205.05198 Fig. 1, via calculon `seqsel_fig1`; GT-04)."""
    src = "Korthikanti et al. Fig. 1 (arXiv:2205.05198)"
    for name, (layers, hidden, heads, pp, v, micro, global_batch, act_tp, act_sel) in KORTHIKANTI.items():
        shape = _gpt(layers, hidden, heads)
        seq, tp = 2048, 8
        factor = memory.pipeline_inflight_factor(pp, global_batch // micro, v)
        tokens = micro * seq
        tp_only = memory.layer_activation_bytes_per_token_megatron(shape, seq, attention="eager", tp=tp, sp=False)
        sel = memory.layer_activation_bytes_per_token_megatron(
            shape, seq, attention="eager", tp=tp, sp=True, recompute="selective"
        )
        row(f"GPT {name} activations, TP 8", src, f"{act_tp} GiB", tp_only * tokens * layers * factor / GIB, "GiB")
        row(
            f"GPT {name} activations, TP 8 + SP + selective",
            src,
            f"{act_sel} GiB",
            sel * tokens * layers * factor / GIB,
            "GiB",
        )


MEGATRON = [  # (label, layers, hidden, heads, GPUs, achieved TFLOPS per GPU, reported days)
    ("175B PTD-P, 384 A100s at 153 TFLOPS", 96, 12288, 96, 384, 153, "84"),
    ("175B PTD-P, 1536 A100s at 141 TFLOPS", 96, 12288, 96, 1536, 141, "23"),
    ("530B PTD-P, 560 A100s at 171 TFLOPS", 105, 20480, 128, 560, 171, "156"),
    ("175B ZeRO-3, 384 A100s at 144 TFLOPS", 96, 12288, 96, 384, 144, "90"),
    ("530B ZeRO-3, 1120 A100s at 98 TFLOPS", 105, 20480, 128, 1120, 98, "136"),
]


def megatron() -> None:
    """Training days for 300B tokens given the reported throughput (arXiv:2104.04473 Table 2; GT-08)."""
    src = "Megatron-LM 2021 Table 2 (arXiv:2104.04473)"
    for label, layers, hidden, heads, gpus, tflops, days in MEGATRON:
        shape = _gpt(layers, hidden, heads, n=12 * layers * hidden * hidden + 51200 * hidden)
        flops = compute.training_flops(shape, 300e9, 2048, task="pretrain", checkpointing="full")
        got = compute.time_from_achieved(flops, gpus, tflops * 1e12) / DAY_S
        row(f"{label}, 300B tokens: days", src, f"{days} days", got, "days")


def qlora() -> None:
    """QLoRA headlines (arXiv:2305.14314; GT-10) in the paper's setting: NF4 + DQ, r = 64 on every
    linear layer, bf16 adapters, paged AdamW, full checkpointing, batch 1, length 512."""
    src = "QLoRA paper (arXiv:2305.14314)"

    def llama1(layers: int, hidden: int, heads: int, ffn: int) -> ModelSpec:
        return ModelSpec(
            id="llama1",
            name="LLaMA",
            family="llama",
            kind="decoder",
            params=1,
            hidden_size=hidden,
            num_layers=layers,
            num_heads=heads,
            num_kv_heads=heads,
            head_dim=hidden // heads,
            intermediate_size=ffn,
            vocab_size=32000,
            source="LLaMA paper Table 2 dims",
        )

    targets = frozenset(LORA_TARGETS)
    for name, dims, bound in (
        ("LLaMA 65B", (80, 8192, 64, 22016), "< 48 GB"),
        ("LLaMA 33B", (60, 6656, 52, 17920), "< 24 GB"),
    ):
        spec = llama1(*dims)
        shape = memory.shape_from_spec(spec)
        est = memory.training_memory(
            shape,
            task="qlora",
            batch=1,
            seq=512,
            checkpointing="full",
            lora_rank=64,
            lora_targets=targets,
            trainable_params=lora_trainable_params(spec, 64, targets),
            adapter_bytes=2,
            paged_optimizer=True,
        )
        row(f"{name} QLoRA fine-tune fits one {_num(bound):.0f} GB GPU: peak", src, bound, est.total / 1e9, "GB")
    shape = memory.shape_from_spec(llama1(80, 8192, 64, 22016))
    full = memory.training_memory(shape, task="finetune", batch=1, seq=512, checkpointing="full")
    row("LLaMA 65B 16-bit full fine-tune: peak", src, "> 780 GB", full.total / 1e9, "GB")


# name: (layers, KV heads as the blog computed, head_dim, params, hidden, blog GiB at 128k, Meta's KV heads)
LLAMA31_KV = {
    "8B": (32, 8, 128, 8_030_261_248, 4096, "15.62", 8),
    "70B": (80, 8, 128, 70_553_706_496, 8192, "39.06", 8),
    "405B": (126, 16, 128, 405_853_388_800, 16384, "123.05", 8),
}


def kv_cache() -> None:
    """KV cache at 128,000 tokens, FP16, GiB (huggingface/blog llama31.md; GT-24)."""
    src = "HF Llama 3.1 blog (llama31.md)"
    tokens = 128_000
    for name, (layers, kv, d, params, hidden, gib, meta_kv) in LLAMA31_KV.items():
        shape = Shape(
            kind="decoder",
            params=params,
            active_params=params,
            layers=layers,
            hidden=kv * d * 4,
            heads=32,
            kv_heads=kv,
            head_dim=d,
        )
        ours = memory.kv_cache_bytes(shape, tokens, 1, "fp16") / GIB
        note = ""
        case = f"Llama 3.1 {name} KV cache, 128k tokens, FP16"
        if kv != meta_kv:
            real = memory.kv_cache_bytes(shape._replace(kv_heads=meta_kv), tokens, 1, "fp16") / GIB
            case += f" (the blog's row implies {kv} KV heads)"
            note = f"(with Meta's {meta_kv} KV heads: {_fmt(real)} GiB)"
        # gpu_poor's HF/vLLM-mode KV: 8·ctx·h·L bytes, no GQA (numeric-anchors.md §2).
        poor = 8 * tokens * hidden * layers / GIB
        row(
            case, src, f"{gib} GiB", ours, "GiB", note=note, peer=peer("gpu_poor (8·ctx·h·L, no GQA)", poor, "GiB", gib)
        )


def parameter_counts() -> None:
    """Exact counts from config dimensions (numeric-anchors.md §1.1/§4) against published totals."""
    hf = "HF safetensors total (numeric-anchors §4)"
    cases = [
        ("Llama 3.1 8B", _llama_cfg(4096, 32, 32, 8, 14336, 128256), hf, "8,030,261,248"),
        ("Llama 3.1 70B", _llama_cfg(8192, 80, 64, 8, 28672, 128256), hf, "70,553,706,496"),
        ("Llama 3.1 405B", _llama_cfg(16384, 126, 128, 8, 53248, 128256), hf, "405,853,388,800"),
        ("Qwen2.5 7B (QKV bias)", _llama_cfg(3584, 28, 28, 4, 18944, 152064, "qwen2"), hf, "7,615,616,512"),
        (
            "Mistral 7B v0.1",
            _llama_cfg(4096, 32, 32, 8, 14336, 32000, "mistral"),
            'HF model page "7.24B" (numeric-anchors §4 has only "7B")',
            "7.24 B",
        ),
        (
            "GPT-2 (124M)",
            {
                "model_type": "gpt2",
                "n_embd": 768,
                "n_layer": 12,
                "n_head": 12,
                "vocab_size": 50257,
                "n_positions": 1024,
            },
            "transformers GPT2Model num_parameters() (tests/core/test_params.py)",
            "124,439,808",
        ),
        (
            "BERT-base-uncased",
            {
                "model_type": "bert",
                "hidden_size": 768,
                "num_hidden_layers": 12,
                "num_attention_heads": 12,
                "intermediate_size": 3072,
                "vocab_size": 30522,
                "max_position_embeddings": 512,
                "type_vocab_size": 2,
            },
            'BERT paper (arXiv:1810.04805) "110M"',
            "110 M",
        ),
    ]
    for name, config, source, published in cases:
        n = param_count(spec_from_hf_config(config, name))
        scale = 1e9 if published.endswith(" B") else 1e6 if published.endswith(" M") else 1
        unit = {1e9: "B", 1e6: "M", 1: ""}[scale]
        ours = n / scale
        row(f"{name} parameters", source, published, ours, unit, note="" if scale == 1 else f"({n:,})")
    mixtral = spec_from_hf_config(
        _llama_cfg(4096, 32, 32, 8, 14336, 32000, "mixtral", num_local_experts=8, num_experts_per_tok=2), "mixtral"
    )
    total, active = param_count(mixtral), active_param_count(mixtral)
    row(
        "Mixtral 8x7B total parameters",
        'HF model page "46.7B"; Mixtral paper "47B"',
        "46.7 B",
        total / 1e9,
        "B",
        note=f"({total:,})",
    )
    row(
        "Mixtral 8x7B active parameters per token",
        'Mixtral paper (arXiv:2401.04088) "13B"',
        "13 B",
        active / 1e9,
        "B",
        note=f"({active:,})",
    )
    # accelerate docs (GT-20): bert-base-cased fp32 load, binary MB; accelerate's own estimate 413.18.
    cased = spec_from_hf_config(
        {
            "model_type": "bert",
            "hidden_size": 768,
            "num_hidden_layers": 12,
            "num_attention_heads": 12,
            "intermediate_size": 3072,
            "vocab_size": 28996,
            "max_position_embeddings": 512,
            "type_vocab_size": 2,
        },
        "bert-base-cased",
    )
    row(
        "bert-base-cased fp32 weights loaded on CUDA",
        "accelerate docs, measured (numeric-anchors GT-20)",
        "413.68 MiB",
        param_count(cased) * 4 / 2**20,
        "MiB",
        peer=peer("accelerate estimate-memory", "413.18", "MiB", "413.68"),
    )


def _llama(layers: int, hidden: int, heads: int, kv: int, ffn: int, params: int) -> Shape:
    return Shape(
        kind="decoder",
        params=params,
        active_params=params,
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv,
        head_dim=hidden // heads,
        ffn=ffn,
        vocab=32000,
        embedding_params=32000 * hidden,
    )


GPU_HOURS = [  # (name, shape, tokens, seq, published GPU-hours, source, llm-analysis (fe 0.5, hbme 0.9) or None)
    (
        "LLaMA-7B",
        _llama(32, 4096, 32, 32, 11008, 6_738_415_616),
        1.0e12,
        2048,
        "82,432",
        "LLaMA paper Table 15 (arXiv:2302.13971)",
        "77,832",
    ),
    (
        "LLaMA-13B",
        _llama(40, 5120, 40, 40, 13824, 13_015_864_320),
        1.0e12,
        2048,
        "135,168",
        "LLaMA paper Table 15 (arXiv:2302.13971)",
        "148,047",
    ),
    (
        "LLaMA-33B",
        _llama(60, 6656, 52, 52, 17920, 32_528_943_616),
        1.4e12,
        2048,
        "530,432",
        "LLaMA paper Table 15 (arXiv:2302.13971)",
        "510,213",
    ),
    (
        "LLaMA-65B",
        _llama(80, 8192, 64, 64, 22016, 65_285_660_672),
        1.4e12,
        2048,
        "1,022,362",
        "LLaMA paper Table 15 (arXiv:2302.13971)",
        "1,015,701",
    ),
    (
        "Llama-2-7B",
        _llama(32, 4096, 32, 32, 11008, 6_738_415_616),
        2.0e12,
        4096,
        "184,320",
        "Llama 2 paper (arXiv:2307.09288)",
        None,
    ),
    (
        "Llama-2-70B",
        _llama(80, 8192, 64, 8, 28672, 68_976_648_192),
        2.0e12,
        4096,
        "1,720,320",
        "Llama 2 paper (arXiv:2307.09288)",
        None,
    ),
]


def gpu_hours() -> None:
    """Pre-training A100-80GB GPU-hours predicted from our MFU priors (not from the runs' throughput),
    2048 GPUs, TP 8, ZeRO-1 (GT-22/GT-26)."""
    a100 = _a100(id="a100-80gb-sxm", memory_gb=80, bandwidth_tbps=2.039)
    for name, shape, tokens, seq, published, source, peer_hours in GPU_HOURS:
        t = compute.training_time(shape, a100, tokens=tokens, seq=seq, count=2048, task="pretrain", tp=8, zero_stage=1)
        low, mid, high = (s * 2048 / 3600 for s in (t.low_s, t.expected_s, t.high_s))
        row(
            f"{name} pre-training, {tokens / 1e12:g}T tokens: A100 GPU-hours",
            source,
            published,
            mid,
            "",
            note=f"(range {low:,.0f}–{high:,.0f})",
            peer=peer("llm-analysis (fe 0.5)", peer_hours, "", published) if peer_hours else "",
        )


def decode() -> None:
    """FasterTransformer 13B fp16 on A100-40GB, context 512, batch 1 (kipply via llm-analysis; GT-21)."""
    src = "FasterTransformer, kipply (via llm-analysis examples)"
    ft13b = _gpt(40, 5120, 40, n=12 * 40 * 5120 * 5120 + 50272 * 5120, vocab=50272)
    kv = 2 * 40 * 5120 * 2
    one = compute.decode_step_seconds(
        ft13b, _a100(), weights_bytes=ft13b.params * 2, context=512, batch=1, kv_bytes_per_token=kv
    )
    two = compute.decode_step_seconds(
        ft13b, _a100(), weights_bytes=ft13b.params * 2, context=512, batch=1, kv_bytes_per_token=kv, tp=2
    )
    prefill = compute.prefill_seconds(ft13b, _a100(), tokens=512)
    row(
        "13B decode, 1 A100-40GB: ms/token (η 0.76 was fitted to this run)",
        src,
        "22.0 ms",
        one * 1000,
        "ms",
        peer=peer("llm-analysis (hbme 0.9)", "18.97", "ms", "22.0"),
    )
    row(
        "13B prefill of 512 tokens, 1 A100-40GB (η 0.68 fitted to this run)",
        src,
        "63.17 ms",
        prefill * 1000,
        "ms",
        peer=peer("llm-analysis (fe 0.7)", "62.15", "ms", "63.17"),
    )
    row(
        "13B decode, 2 A100-40GB TP 2 (held out): ms/token",
        src,
        "13.5 ms",
        two * 1000,
        "ms",
        peer="llm-analysis: -23.5 % (numeric-anchors §2)",
    )


def activation_calibration() -> None:
    """The held-out shapes of tests/core/data/activation_calibration.json: bytes saved for backward,
    measured with torch's saved_tensors_hooks (the data file, not this script, ran torch)."""
    data = json.loads(CALIBRATION.read_text(encoding="utf-8"))
    checks = [r for r in data["shapes"] if r["role"] == "check"]
    errors = []
    for r in checks:
        shape = Shape(
            kind="decoder",
            params=1,
            active_params=1,
            layers=r["layers"],
            hidden=r["hidden"],
            heads=r["heads"],
            kv_heads=r["kv_heads"],
            head_dim=r["hidden"] // r["heads"],
            ffn=r["ffn"],
            vocab=r["vocab"],
        )
        lora = None
        if "lora_rank" in r:
            lora = (frozenset(r["lora_targets"].split(",")), r["lora_rank"], r["autocast"])
        est = memory.activation_bytes(
            shape, r["batch"], r["seq"], attention=r["attention"], checkpointing=r["checkpointing"], lora=lora
        ).saved
        errors.append((abs(est - r["saved_bytes"]) / r["saved_bytes"], est, r))
    mean = sum(e for e, _, _ in errors) / len(errors)
    worst, est, r = max(errors, key=lambda x: x[0])
    what = f"{r['family']} h{r['hidden']} {r['attention']} ckpt-{r['checkpointing']}" + (
        f" LoRA {r['lora_targets']}" if "lora_rank" in r else ""
    )
    row(
        f"Activation bytes, worst of {len(checks)} held-out shapes ({what}); mean |error| {mean * 100:.2f} %",
        "torch saved_tensors_hooks (tests/core/data/activation_calibration.json)",
        f"{r['saved_bytes']:,} B",
        est,
        "B",
    )


def main() -> int:
    for block in (
        zero,
        korthikanti,
        megatron,
        qlora,
        kv_cache,
        parameter_counts,
        gpu_hours,
        decode,
        activation_calibration,
    ):
        block()
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in r) + " |" for r in ROWS]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
