"""Turn the research file of measured peaks into the validation set `tests/core/data/measured_peaks.json`.

Why this exists: the measured peaks (research/peaks/cases.json, transcribed from public READMEs, docs
and logs, each with its quote and URL) describe every run in the source's own words ("bf16-true",
"bitsandbytes PagedAdamW8bit", "FSDP full shard"). The validation set needs the same runs as
`gpu-advisor estimate` flags, so that `tools/peaks.py` (and anyone) can re-run each case exactly as a
user would. This script is that translation, one visible rule per source phrasing, so a reader can
check each mapping; the measured values are copied, never computed.

Run: `python3 tools/peaks_import.py /path/to/research/peaks/cases.json` (rewrites the data file).
Cases a flag cannot express yet are kept with `"skip": "<why>"`, so the gap stays visible.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "core" / "data" / "measured_peaks.json"
CONFIGS = "tests/core/data/peak_configs"

UNITS = {"GB": 1e9, "GiB": 2**30, "MiB": 2**20, "MB": 1e6}

# Hugging Face id -> catalogue id, or a config.json in the repository.
MODELS: dict[str, list[str]] = {
    "meta-llama/Llama-2-7b-hf": ["--model", "llama-2-7b"],
    "lmsys/vicuna-7b-v1.5": ["--model", "llama-2-7b"],
    "meta-llama/Llama-2-13b-hf": ["--model", "llama-2-13b"],
    "meta-llama/Llama-2-70b-hf": ["--model", "llama-2-70b"],
    "meta-llama/Llama-3.2-3B": ["--model", "llama-3.2-3b"],
    "meta-llama/Llama-3.1-8B": ["--model", "llama-3.1-8b"],
    "meta-llama/Meta-Llama-3-8B": ["--model", "llama-3-8b"],
    "meta-llama/Llama-3.1-70B": ["--model", "llama-3.1-70b"],
    "meta-llama/Llama-3.1-405B": ["--model", "llama-3.1-405b"],
    "mistralai/Mistral-7B-v0.1": ["--model", "mistral-7b"],
    "mistralai/Mistral-7B-v0.2": ["--model", "mistral-7b"],
    "codellama/CodeLlama-34b-hf": ["--model", "codellama-34b"],
    "01-ai/Yi-34B": ["--model", "yi-34b"],
    "google/gemma-2b": ["--model", "gemma-2b"],
    "google-bert/bert-large-uncased": ["--model", "bert-large-uncased"],
    "huggyllama/llama-30b": ["--config", f"{CONFIGS}/llama-30b.json"],
    "huggyllama/llama-7b": ["--config", f"{CONFIGS}/llama-7b.json"],
    "huggyllama/llama-13b": ["--config", f"{CONFIGS}/llama-13b.json"],
    "TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T": [
        "--config",
        f"{CONFIGS}/tinyllama-1.1b-intermediate-step-1431k-3t.json",
    ],
    "Qwen/Qwen-1_8B-Chat": ["--config", f"{CONFIGS}/qwen-1_8b-chat.json"],
    "Qwen/Qwen-7B-Chat": ["--config", f"{CONFIGS}/qwen-7b-chat.json"],
    "Qwen/Qwen-7B": ["--config", f"{CONFIGS}/qwen-7b-chat.json"],
    "Qwen/Qwen-14B-Chat": ["--config", f"{CONFIGS}/qwen-14b-chat.json"],
    "Qwen/Qwen-72B-Chat": ["--config", f"{CONFIGS}/qwen-72b-chat.json"],
    "deepseek-ai/deepseek-coder-33b-base": ["--config", f"{CONFIGS}/deepseek-coder-33b-base.json"],
    # architectures read by advisor/core/params.py, fixtures checked against transformers (tests/core/configs)
    "tiiuae/falcon-7b": ["--config", "tests/core/configs/falcon-7b.json"],
    "tiiuae/falcon-40b": ["--config", "tests/core/configs/falcon-40b.json"],
    "microsoft/phi-1_5": ["--config", "tests/core/configs/phi-1_5.json"],
    "microsoft/phi-2": ["--config", "tests/core/configs/phi-2.json"],
    "stabilityai/stablelm-base-alpha-3b": ["--config", "tests/core/configs/stablelm-base-alpha-3b.json"],
    "bigcode/octocoder": ["--config", "tests/core/configs/starcoder.json"],
    "bigscience/T0_3B": ["--config", "tests/core/configs/t0-3b.json"],
    "bigscience/mt0-xxl": ["--config", "tests/core/configs/mt0-xxl.json"],
    "bigscience/bloomz-7b1": ["--config", "tests/core/configs/bloomz-7b1.json"],
    "mosaicml/mpt-7b": ["--config", "tests/core/configs/mpt-7b.json"],
}

TARGETS = {
    "query": "q", "key": "k", "value": "v", "projection": "o", "q_proj": "q", "k_proj": "k", "v_proj": "v",
    "o_proj": "o", "output_proj": "o", "gate_proj": "gate", "up_proj": "up", "down_proj": "down",
    "c_attn": "q,k,v", "c_proj": "o,down", "w1": "gate", "w2": "up", "mlp": "gate,up,down", "q": "q", "v": "v",
    "all-linear": "all-linear", "query_key_value": "q,k,v",
}  # fmt: skip
"""Source module names -> ours. Qwen v1's `c_proj` names both the attention output and the MLP's
down projection (its fine-tuning script adapts both); LitGPT's `mlp` is the whole MLP."""


PHASES_NOT_MODELLED = {
    "litgpt-hub-gemma2b-full": "LitGPT FSDP with state_dict_type='full' gathers the whole model at each save",
    "litgpt-hub-phi2-full": "LitGPT FSDP with state_dict_type='full' gathers the whole model at each save",
    "litgpt-hub-stablelm3b-full": "LitGPT FSDP with state_dict_type='full' gathers the whole model at each save",
    "litgpt-rt-lora-llama2-7b-2gpu": "LitGPT FSDP with state_dict_type='full' gathers the whole model at each save",
    "litgpt-rt-lora-llama2-13b-4gpu": "LitGPT FSDP with state_dict_type='full' gathers the whole model at each save",
    "litgpt-rt-lora-stablelm-2gpu": "LitGPT FSDP with state_dict_type='full' gathers the whole model at each save",
    "litgpt-tut-": "the 2023 tutorial's micro-batch disagrees with the same runs in LitGPT's resource tables",
    "torchtune-2409-8b-full-a6000": "optimizer not stated (the default config cannot fit AdamW on 48 GB)",
    "torchtune-2407-70b-lora-8xa100": "seq 4096 caps a dynamically padded Alpaca batch, checkpointing not stated",
    "peft-metamathqa-llama32-3b-full": "the peak is set by the periodic evaluation generate (batch 50), not training",
}
"""Cases whose measured peak comes from a phase or a setup we cannot read from the source."""


def _precision(case: dict) -> str:
    text = (case["precision"] or "").lower()
    if "fp32" in text and "bf16" not in text:
        return "fp32"
    if "fp16" in text and ("amp" in text or "fp16=true" in text):
        return "fp16-mixed"
    if "mixed" in text or "amp" in text:
        return "bf16-mixed"
    return "bf16"


def _optimizer(case: dict) -> list[str]:
    text = (case["optimizer"] or "").lower()
    flags = ["--optimizer", "adamw-8bit" if "8bit" in text else "adafactor" if "adafactor" in text else "adamw"]
    if "paged" in text:
        flags.append("--paged-optimizer")
    if "in_bwd" in text or "in-backward" in text or "in_backward" in text:
        flags.append("--optimizer-in-backward")
    return flags


def _quant(q: dict) -> str:
    scheme = q["scheme"].lower()
    if "nf4" in scheme:
        return "nf4-dq" if q.get("double_quant") else "nf4"
    if "fp4" in scheme:
        return "fp4"
    if "int8" in scheme:
        return "llm-int8"
    if "gptq" in scheme or "awq" in scheme:
        kind = "awq" if "awq" in scheme else "gptq"
        group = q.get("group_size")
        return f"{kind}-int{q['bits']}" + (f"-g{group}" if group else "")
    raise ValueError(scheme)


def _strategy(case: dict) -> list[str]:
    text = (case["sharding"] or "none").lower()
    offload = "offload" in text and "no offload" not in text  # "FSDP FULL_SHARD, no offload" is none
    if case["gpus"] == 1 and not offload:
        return []
    if "ddp" in text:
        return ["--strategy", "ddp"]
    if "zero-3" in text or "zero3" in text:
        flags = ["--strategy", "zero3"]
    elif "zero-2" in text:
        flags = ["--strategy", "zero2"]
    elif "fsdp" in text:
        flags = ["--strategy", "fsdp"]
    else:
        return []
    if offload:
        flags.append("--offload")
    return flags


def convert(case: dict, models: dict[str, list[str]] = MODELS) -> dict:
    out = {
        key: case[key]
        for key in ("id", "source", "url", "quote", "model_id", "params", "framework", "gpu", "notes")
    }
    out["peak_kind"] = case["peak_kind"]
    out["component"] = case["component"]
    out["measured_bytes"] = case["peak_value"] * UNITS[case["peak_unit"]]
    skip = []
    model = models.get(case["model_id"])
    if model is None:
        skip.append(f"model {case['model_id']} has no catalogue entry or config here")
        model = ["--params", str(case["params"])]
    argv = [*model, "--task", case["task"]]
    if case["task"] != "inference" and case["source"] in ("torchtune", "LitGPT (Lightning-AI/litgpt)"):
        argv += ["--stack", "torchtune" if case["source"] == "torchtune" else "litgpt"]
    if case["gpus"] > 1:
        argv += ["--gpus", str(case["gpus"])]
    argv += _strategy(case)
    text = f"{case['framework']} {case['notes']}".lower()
    if case["task"] == "inference":
        prompt = case["prompt_tokens"] or 0
        new = case["new_tokens"] or 0
        if prompt + new == 0:
            skip.append("no sequence length given")
        argv += ["--context", str(max(1, prompt + new)), "--concurrency", str(case["batch"] or 1)]
        if prompt:
            argv += ["--prompt-tokens", str(prompt)]
        engine = "vllm" if "vllm" in text else "hf"
        argv += ["--engine", engine]
        precision = (case["precision"] or "").lower()
        if case["quant"]:
            argv += ["--weights-dtype", _quant(case["quant"])]
        else:
            argv += ["--weights-dtype", "fp16" if "fp16" in precision else "bf16"]
    else:
        argv += ["--batch", str(case["batch"]), "--precision", _precision(case), *_optimizer(case)]
        if case["seq_len"]:
            argv += ["--seq", str(case["seq_len"])]
        else:
            skip.append("no sequence length given")
        # torchtune's recipes turn activation checkpointing on by default (the notes: config_inferred)
        if case["grad_checkpointing"] or (case["grad_checkpointing"] is None and case["source"] == "torchtune"):
            argv += ["--checkpointing", "full"]
        adapter = case["adapter"]
        if adapter:
            names = []
            for name in adapter["targets"]:
                if name in ("head",):
                    skip.append("LoRA on the LM head")
                    continue
                names += TARGETS.get(name, name).split(",")
            argv += ["--lora-rank", str(adapter["rank"]), "--lora-targets", ",".join(dict.fromkeys(names))]
            if adapter.get("dtype"):
                argv += ["--adapter-dtype", {"fp16": "bf16"}.get(adapter["dtype"], adapter["dtype"])]
            if adapter.get("variant"):
                skip.append(f"adapter variant {adapter['variant']}")
            if adapter.get("modules_to_save"):
                skip.append("trainable embeddings (modules_to_save)")
        if case["quant"]:
            argv += ["--weights-dtype", _quant(case["quant"])]
    # torchtune's optimization-flags table applies its techniques cumulatively (the notes list them)
    tail = case["id"].removeprefix("torchtune-flags-3b-") if case["id"].startswith("torchtune-flags") else ""
    if tail in ("full-chunkedce", "full-ac", "full-optinbwd", "full-actoffload", "full-adamw8bit", "lora", "qlora"):
        argv += ["--chunked-loss"]
    if tail in ("full-actoffload", "full-adamw8bit", "lora", "qlora"):
        argv += ["--activation-offload"]
    if (tail and tail != "full-packed") or "compile on" in text or "compile=true" in text:
        argv += ["--compile"]
    if case["id"].startswith("torchtune-2409"):  # torchtune 0.3 configs: CEWithChunkedOutputLoss
        argv += ["--chunked-loss"]
    for prefix, why in PHASES_NOT_MODELLED.items():
        if case["id"].startswith(prefix):
            skip.append(why)
    if case["peak_kind"] != "unknown":
        argv += ["--measure", case["peak_kind"]]
    out["argv"] = argv
    if skip:
        out["skip"] = "; ".join(skip)
    return out


def main(path: str) -> int:
    cases = json.loads(Path(path).read_text(encoding="utf-8"))
    rows = [convert(case) for case in cases]
    OUT.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    kept = sum(1 for r in rows if "skip" not in r)
    print(f"{len(rows)} cases, {kept} expressible, written to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "research/peaks/cases.json"))
