"""Turn the second research file of measured peaks into the held-out set `tests/core/data/measured_peaks_heldout.json`.

Why this exists: the constants of the memory model were chosen on the sources of `measured_peaks.json`. On
2026-12-04 a separate session collected 64 more measurements from ten other public sources (torchao, optimum,
torchtitan, the Qwen2.5 docs, Unsloth's notebooks, llama-recipes on an HPC guide, a BERT blog post, ChatGLM2, GaLore,
accelerate) without seeing the estimator. This script translates them into `gpu-advisor estimate` flags with the
rules of `tools/peaks_import.py` plus the few phrasings these sources add (torchao's weight-only formats, torchtitan's
selective checkpointing, a figure taken after the forward pass), so `tools/peaks.py --data` scores them exactly as
a user typing the flags would. Nothing was fitted on them; the first score is the honest one.

Run: `python3 tools/peaks_heldout.py RESEARCH_CASES.json` (rewrites the data file).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import tools.peaks_import as base  # noqa: E402

OUT = ROOT / "tests" / "core" / "data" / "measured_peaks_heldout.json"

MODELS = {
    "meta-llama/Llama-2-7b-chat-hf": ["--model", "llama-2-7b"],
    "meta-llama/Llama-2-13b-chat-hf": ["--model", "llama-2-13b"],
    "TheBloke/Llama-2-13B-chat-GPTQ": ["--model", "llama-2-13b"],
    "Qwen/Qwen2.5-7B-Instruct": ["--model", "qwen2.5-7b"],
    "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4": ["--model", "qwen2.5-7b"],
    "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8": ["--model", "qwen2.5-7b"],
    "Qwen/Qwen2.5-7B-Instruct-AWQ": ["--model", "qwen2.5-7b"],
    "Qwen/Qwen2.5-14B-Instruct": ["--model", "qwen2.5-14b"],
    "unsloth/Llama-3.1-8B": ["--model", "llama-3.1-8b"],
    "unsloth/Qwen2.5-7B": ["--model", "qwen2.5-7b"],
    "unsloth/gemma-2-2b": ["--model", "gemma-2-2b"],
    "unsloth/gemma-2-9b": ["--model", "gemma-2-9b"],
    "unsloth/Llama-3.2-3B-Instruct": ["--model", "llama-3.2-3b"],
    "unsloth/tinyllama-bnb-4bit": ["--config", f"{base.CONFIGS}/tinyllama-1.1b-intermediate-step-1431k-3t.json"],
    "bert-base-uncased": ["--model", "bert-base-uncased"],
    "bert-large-uncased": ["--model", "bert-large-uncased"],
    "timm/vit_huge_patch14_224.orig_in21k": ["--config", f"{base.CONFIGS}/vit-huge-patch14-224.json"],
}
"""Hugging Face ids of this set -> catalogue ids or configs (ViT-H/14: width 1280, depth 32, MLP 5120, 16 heads, the
ViT paper's Table 1; 630.8M parameters with a 45-class head, the README's "630M")."""

NOT_EXPRESSIBLE = {
    "unsloth-llama31": "sequence length not fixed (batches padded to the longest Alpaca sample)",
    "unsloth-mistral": "sequence length not fixed (batches padded to the longest Alpaca sample)",
    "unsloth-qwen25": "sequence length not fixed (batches padded to the longest Alpaca sample)",
    "unsloth-gemma2": "sequence length not fixed (batches padded to the longest Alpaca sample)",
    "unsloth-llama32": "sequence length not fixed (batches padded to the longest Alpaca sample)",
    "torchao-vit-g14": "ViT-g/14 (DINOv2) has no config here",
    "chatglm2": "ChatGLM2 has no config here",
    "galore": "GaLore's projected optimizer is not modelled",
    "accelerate-gptj": "GPT-J has no config here",
    "torchao-vit-h14-finetune-ao-adamw4bit": "4-bit AdamW states are not modelled",
}


def _weights(q: dict | None) -> str | None:
    """torchao's weight-only formats: int8 per channel, int4 with bf16 scales and zeros per group of 64."""
    if not q:
        return None
    scheme = q["scheme"].lower()
    if scheme.startswith("int8"):
        return "int8"
    if scheme == "int4":
        return "int4"
    if scheme.startswith(("gptq", "awq")):
        kind = "awq" if "awq" in scheme else "gptq"
        group = q.get("group_size") or (128 if kind == "awq" else None)  # AutoAWQ's only group size: 128
        return f"{kind}-int{q['bits']}" + (f"-g{group}" if group else "")
    return base._quant(q)


def convert(case: dict) -> dict:
    case = dict(case)
    skip = next((why for prefix, why in NOT_EXPRESSIBLE.items() if case["id"].startswith(prefix)), None)
    quant = None if skip else case.get("quant")
    torchao = case["source"].startswith("PyTorch torchao")
    if skip or (quant and (torchao or quant["scheme"].lower().startswith(("gptq", "awq")))):
        case["quant"] = None  # written below from `_weights`
    if case["component"].startswith("allocated after forward"):
        case["component"] = "forward"
    elif case["component"].startswith("model-loading"):
        case["component"] = "weights"
    elif case["component"].startswith("total_per_gpu ("):
        case["component"] = "total_per_gpu"
        case["peak_kind"] = "allocated+context"  # optimum: torch's allocated peak plus what nvidia-smi adds
    case["batch"] = case["batch"] or 1
    kind = case["peak_kind"]
    if kind == "allocated+context":
        case["peak_kind"] = "allocated"
    out = base.convert(case, models={**base.MODELS, **MODELS})
    out["peak_kind"] = kind
    argv = out["argv"]
    weights = _weights(quant)
    if weights:
        while "--weights-dtype" in argv:
            del argv[argv.index("--weights-dtype"): argv.index("--weights-dtype") + 2]
        argv += ["--weights-dtype", weights]
    cache = re.search(r"kvcache(\d+)$", case["id"])
    if cache:  # torchao's static KV cache, allocated for cache_size tokens whatever the prompt
        argv[argv.index("--context") + 1] = cache.group(1)
    if "compiled model" in case["notes"] or "model.compile" in case["notes"]:
        argv.append("--compile")
    if "torchtitan" in (case["source"] + case["framework"] + case["notes"]).lower() and case["task"] == "pretrain":
        argv[argv.index("--task") + 2: argv.index("--task") + 2] = ["--stack", "torchtitan"]
        if "selective" in case["notes"].lower() and "--checkpointing" in argv:
            argv[argv.index("--checkpointing") + 1] = "selective"  # torchtitan's default: selective (op) AC
    if "float8" in (case["precision"] or "").lower():
        argv[argv.index("--precision") + 1] = "fp8-mixed"
    if case["task"] == "lora" and weights:  # LoRA on an 8-bit base (PEFT prepare_model_for_int8_training): a
        argv[argv.index("--task") + 1] = "qlora"  # frozen quantized base, which --task qlora with its format is
    if case["component"] == "forward" and "--optimizer" in argv:
        argv[argv.index("--precision") + 1] = "fp32"
        argv += ["--attention", "eager"]  # pytorch_transformers in 2019: softmax(QK^T) in Python, no SDPA yet
    if skip:
        out["skip"] = skip
    return out


def main(path: str) -> int:
    rows = [convert(case) for case in json.loads(Path(path).read_text(encoding="utf-8"))]
    OUT.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    kept = sum(1 for r in rows if "skip" not in r)
    print(f"{len(rows)} cases, {kept} expressible, written to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
