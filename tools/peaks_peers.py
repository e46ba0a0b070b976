"""Run a peer estimator (llm-analysis or fitcheck-llm) on the measured-peak cases it can express.

Why this exists: the issue asks that our estimator beat the estimators people already use on the same
measured peaks. The two peers cannot share one environment (their pins conflict) and this script must
not import the advisor there, so it reads plain JSON that `tools/peaks.py --peer-inputs` wrote (each
case's model dimensions and the settings its flags mean) and prints the peer's figure per case as JSON
for `tools/peaks.py --peers`. A case a peer cannot express (LoRA for llm-analysis; several GPUs,
biases, GELU MLPs or inference for fitcheck-llm; fp32 or 8-bit optimizers; a framework option such as
a paged optimizer or CPU offload) is left out, never approximated. The figure compared is the peer's
total per GPU, as its user would read it.

Run (each peer in its own virtual environment, both from PyPI):
  python -m venv /tmp/la && /tmp/la/bin/pip install llm-analysis==0.2.2
  python -m venv /tmp/fc && /tmp/fc/bin/pip install fitcheck-llm==0.3.1
  .venv/bin/python tools/peaks.py --peer-inputs /tmp/in.json
  /tmp/la/bin/python tools/peaks_peers.py llm-analysis /tmp/in.json > /tmp/la.json
  /tmp/fc/bin/python tools/peaks_peers.py fitcheck /tmp/in.json > /tmp/fc.json
  .venv/bin/python tools/peaks.py --peers /tmp/la.json /tmp/fc.json
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import sys
from importlib.metadata import version

_FITCHECK_GPUS = (
    ("4090", "4090"), ("3090", "3090"), ("a6000", "a6000"), ("a10g", "a10"), ("a10 ", "a10"), ("t4", "t4"),
    ("l4", "l4"), ("v100", "v100-16"), ("h100", "h100"), ("a100-sxm4-40", "a100-40"), ("a100 40", "a100-40"),
    ("a100", "a100-80"),
)  # fmt: skip
"""Case GPU text (lower case) -> fitcheck's GPU key; its overhead model depends on the card."""


_LLM_ANALYSIS_WEIGHTS = {
    "bf16": "w16a16e16", "fp16": "w16a16e16", "int8": "w8a16e16", "llm-int8": "w8a16e16", "int4": "w4a16e16",
    "gptq-int4": "w4a16e16", "awq-int4-g128": "w4a16e16", "gptq-int4-g128": "w4a16e16", "nf4": "w4a16e16",
    "nf4-dq": "w4a16e16",
}  # fmt: skip
"""Our weight formats -> llm-analysis's dtype configs (weight bits, 16-bit activations and embeddings)."""


def _llama_like(model: dict) -> bool:
    return (
        model["kind"] == "decoder"
        and model["mlp"] == "swiglu"
        and not model["attention_bias"]
        and not model["mlp_bias"]
        and bool(model["hidden_size"])
    )


def fitcheck(case: dict) -> float | None:
    from fitcheck.config_parser import ModelConfig
    from fitcheck.estimator import TrainingConfig, estimate
    from fitcheck.gpu_db import get_gpu

    m, s = case["model"], case["settings"]
    if s["task"] not in ("finetune", "lora", "qlora") or s["gpus"] != 1 or s["extras"] or not _llama_like(m):
        return None
    if s["optimizer"] not in ("adamw", "adamw-8bit", "sgd") or s["stack"] not in ("hf", "litgpt", "answerai"):
        return None
    quant, double = "none", False
    if s["task"] == "qlora":
        if s["weights_dtype"] not in ("nf4", "nf4-dq", "bf16"):
            return None
        quant, double = "nf4", s["weights_dtype"] != "nf4"
    gpu = next((key for text, key in _FITCHECK_GPUS if text in (case["gpu"] or "").lower() + " "), "4090")
    names = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "o_proj", "gate": "gate_proj", "up": "up_proj",
             "down": "down_proj"}  # fmt: skip
    training = TrainingConfig(
        precision={"fp32": "fp32", "fp16-mixed": "fp16"}.get(s["precision"], "bf16"),
        quantization=quant,
        double_quant=double,
        optimizer={"adamw": "adamw", "adamw-8bit": "adam8bit", "sgd": "sgd-momentum"}[s["optimizer"]],
        optimizer_dtype="bf16" if s["precision"] == "bf16" else "fp32",
        batch_size=s["batch"],
        seq_len=s["seq"],
        lora_rank=s["lora_rank"] if s["task"] != "finetune" else None,
        lora_targets=[names[t] for t in s["lora_targets"]] if s["task"] != "finetune" else [],
        grad_checkpoint=s["checkpointing"] == "full",
        flash_attn=s["attention"] in ("sdpa", "flash"),
    )
    model = ModelConfig(
        name=case["id"], num_params=m["params"], hidden_size=m["hidden_size"], num_layers=m["num_layers"],
        num_attention_heads=m["num_heads"], num_kv_heads=m["num_kv_heads"] or m["num_heads"],
        intermediate_size=m["intermediate_size"], vocab_size=m["vocab_size"],
        head_dim=m["head_dim"] or m["hidden_size"] // m["num_heads"], tie_word_embeddings=bool(m["tie_embeddings"]),
    )  # fmt: skip
    return estimate(model, training, get_gpu(gpu)).total_mib * 2**20


def llm_analysis(case: dict) -> float | None:
    import dataclasses

    from llm_analysis.analysis import ActivationRecomputation, DSZeRO, LLMAnalysis
    from llm_analysis.config import ModelConfig, ParallelismConfig, get_dtype_config_by_name, get_gpu_config_by_name

    m, s = case["model"], case["settings"]
    if m["kind"] not in ("decoder",) or not m["hidden_size"] or s["extras"] or s["pp"] > 1:
        return None
    model = ModelConfig(
        name=case["id"], num_layers=m["num_layers"], n_head=m["num_heads"], hidden_dim=m["hidden_size"],
        vocab_size=m["vocab_size"], max_seq_len=max(m["max_context"] or 0, s["seq"], s["context"]),
        num_key_value_heads=m["num_kv_heads"] or m["num_heads"], ffn_embed_dim=m["intermediate_size"],
        expansion_ratio=m["intermediate_size"] / m["hidden_size"],
    )  # fmt: skip
    gpu = dataclasses.replace(get_gpu_config_by_name("a100-sxm-80gb"), mem_per_GPU_in_GB=1e9)  # no capacity check
    if s["task"] == "inference":
        weights = _LLM_ANALYSIS_WEIGHTS.get(s["weights_dtype"])
        if weights is None or s["kv_dtype"] not in ("bf16", "fp16") or s["gpus"] != s["tp"]:
            return None
        analysis = LLMAnalysis(model, gpu, get_dtype_config_by_name(weights), ParallelismConfig(tp_size=s["tp"]),
                               flops_efficiency=0.5, hbm_memory_efficiency=0.9)  # fmt: skip
        prompt = s["prompt_tokens"] or 1
        r = analysis.inference(batch_size_per_gpu=s["concurrency"], seq_len=prompt,
                               num_tokens_to_generate=max(1, s["context"] - prompt))  # fmt: skip
        act = max(r["prefill_activation_memory_per_gpu"], r["decode_activation_memory_per_gpu"])
        return r["weight_memory_per_gpu"] + r["kv_cache_memory_per_gpu"] + act
    if s["task"] not in ("finetune", "pretrain") or s["optimizer"] != "adamw" or s["precision"] == "fp32":
        return None
    if s["strategy"] in ("fsdp",):
        zero = DSZeRO.STAGE_3
    else:
        zero = {"single": DSZeRO.NONE, "ddp": DSZeRO.NONE, "zero1": DSZeRO.STAGE_1, "zero2": DSZeRO.STAGE_2,
                "zero3": DSZeRO.STAGE_3}[s["strategy"]]  # fmt: skip
    dp = s["gpus"] // (s["tp"] * s["pp"])
    analysis = LLMAnalysis(model, gpu, get_dtype_config_by_name("w16a16e16"),
                           ParallelismConfig(tp_size=s["tp"], dp_size=dp), flops_efficiency=0.5,
                           hbm_memory_efficiency=0.9)  # fmt: skip
    recompute = {"none": ActivationRecomputation.NONE, "selective": ActivationRecomputation.SELECTIVE,
                 "full": ActivationRecomputation.FULL}[s["checkpointing"]]  # fmt: skip
    r = analysis.training(
        batch_size_per_gpu=s["batch"], seq_len=s["seq"], gradient_accumulation_steps=1, ds_zero=zero,
        activation_recomputation=recompute, flash_attn=s["attention"] != "eager",
        mlp_gated_linear_units=m["mlp"] == "swiglu",
        master_weights_dtype_bytes=2 if s["precision"] == "bf16" else 4,
    )  # fmt: skip
    return r["(weight+op_state+grad+act)_memory_per_gpu"]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or argv[0] not in ("llm-analysis", "fitcheck"):
        print(__doc__, file=sys.stderr)
        return 2
    tool, path = argv
    run = llm_analysis if tool == "llm-analysis" else fitcheck
    logging.disable(logging.CRITICAL)
    estimates: dict[str, float] = {}
    failed: dict[str, str] = {}
    with open(path, encoding="utf-8") as handle:
        cases = json.load(handle)
    for case in cases:
        if case["component"] != "total_per_gpu":
            continue
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                value = run(case)
        except Exception as exc:  # noqa: BLE001 - a peer that refuses a case (its own validation) cannot run it
            failed[case["id"]] = f"{type(exc).__name__}: {exc}"[:200]
            continue
        if value is not None:
            estimates[case["id"]] = float(value)
    package = "llm-analysis" if tool == "llm-analysis" else "fitcheck-llm"
    print(json.dumps({"tool": f"{package} {version(package)}", "estimates": estimates, "refused": failed}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
