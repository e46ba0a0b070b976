"""Measure real peak GPU memory for a handful of training and inference shapes, as calibration cases.

Why this exists: tests/core/data/measured_peaks.json holds published peaks; whenever a CUDA machine
is at hand this script adds first-hand ones, with the exact setup known (no guessing a source's batch
or sequence length). Each shape is a random-init Hugging Face model built from a config (nothing is
downloaded), run for two optimizer steps (the second step's peak includes the optimizer state), and
reported as `torch.cuda.max_memory_allocated()` and `max_memory_reserved()` next to the
`gpu-advisor estimate` flags that describe it, so a row can be pasted into the validation set (with
"source": "measured on <GPU> with tools/measure_peaks.py"). Nothing in the advisor imports this file
and no test needs a GPU.

Run on a CUDA machine (torch and transformers installed; peft for the LoRA shapes):
  python tools/measure_peaks.py --out /tmp/peaks.json [--only NAME] [--estimate]
`--estimate` also prints our figure per shape (needs the advisor importable: PYTHONPATH=.).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

# A Llama-shaped model of ~0.5B parameters: big enough that activations and states dominate the
# CUDA context, small enough to run on any 16 GB card.
LLAMA = {
    "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1536, "intermediate_size": 4096,
    "num_hidden_layers": 12, "num_attention_heads": 12, "num_key_value_heads": 4, "vocab_size": 32000,
    "max_position_embeddings": 4096, "rms_norm_eps": 1e-5, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
}  # fmt: skip
BERT = {
    "model_type": "bert", "architectures": ["BertForSequenceClassification"], "hidden_size": 1024,
    "intermediate_size": 4096, "num_hidden_layers": 12, "num_attention_heads": 16, "vocab_size": 30522,
    "max_position_embeddings": 512, "type_vocab_size": 2,
}  # fmt: skip

# name, config, kind, settings; `argv` is what `gpu-advisor estimate` reads for the same run.
SHAPES = [
    ("llama-full-amp", LLAMA, "train", {"dtype": "fp32", "amp": True, "batch": 2, "seq": 1024, "ckpt": False},
     ["--task", "finetune", "--precision", "bf16-mixed", "--batch", "2", "--seq", "1024"]),
    ("llama-full-bf16", LLAMA, "train", {"dtype": "bf16", "amp": False, "batch": 2, "seq": 1024, "ckpt": False},
     ["--task", "finetune", "--precision", "bf16", "--batch", "2", "--seq", "1024"]),
    ("llama-full-bf16-ckpt", LLAMA, "train", {"dtype": "bf16", "amp": False, "batch": 4, "seq": 2048, "ckpt": True},
     ["--task", "finetune", "--precision", "bf16", "--batch", "4", "--seq", "2048", "--checkpointing", "full"]),
    ("llama-lora-bf16", LLAMA, "lora", {"dtype": "bf16", "amp": False, "batch": 4, "seq": 1024, "ckpt": False},
     ["--task", "lora", "--precision", "bf16", "--batch", "4", "--seq", "1024", "--lora-rank", "16"]),
    ("bert-fp32-eager", BERT, "train", {"dtype": "fp32", "amp": False, "batch": 8, "seq": 512, "ckpt": False,
                                        "attn": "eager"},
     ["--task", "finetune", "--precision", "fp32", "--batch", "8", "--seq", "512", "--attention", "eager"]),
    ("bert-amp-sdpa", BERT, "train", {"dtype": "fp32", "amp": True, "batch": 8, "seq": 512, "ckpt": False},
     ["--task", "finetune", "--precision", "fp16-mixed", "--batch", "8", "--seq", "512"]),
    ("llama-generate-bs4", LLAMA, "generate", {"dtype": "bf16", "batch": 4, "prompt": 512, "new": 512},
     ["--task", "inference", "--engine", "hf", "--concurrency", "4", "--context", "1024", "--prompt-tokens", "512"]),
]  # fmt: skip


def _model(config: dict, settings: dict):
    import torch
    import transformers

    cfg = transformers.AutoConfig.for_model(**{k: v for k, v in config.items() if k not in ("architectures",)})
    if "attn" in settings:
        cfg._attn_implementation = settings["attn"]
    cls = getattr(transformers, config["architectures"][0])
    torch.manual_seed(0)
    model = cls(cfg).to(torch.bfloat16 if settings["dtype"] == "bf16" else torch.float32)
    return model.cuda()


def run_shape(config: dict, kind: str, settings: dict) -> dict:
    import contextlib

    import torch

    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    model = _model(config, settings)
    vocab = config["vocab_size"]
    bert = config["model_type"] == "bert"
    if kind == "generate":
        model.eval()
        ids = torch.randint(0, vocab, (settings["batch"], settings["prompt"]), device="cuda")
        with torch.no_grad():
            model.generate(ids, max_new_tokens=settings["new"], min_new_tokens=settings["new"], do_sample=False)
    else:
        if kind == "lora":
            from peft import LoraConfig, get_peft_model

            targets = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
            model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, target_modules=targets, lora_dropout=0.0))
        if settings["ckpt"]:
            model.gradient_checkpointing_enable()
        model.train()
        opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-5)
        cast = torch.autocast("cuda", dtype=torch.bfloat16 if not bert else torch.float16) if settings["amp"] \
            else contextlib.nullcontext()
        for _ in range(2):
            ids = torch.randint(0, vocab, (settings["batch"], settings["seq"]), device="cuda")
            with cast:
                if bert:
                    out = model(input_ids=ids, labels=torch.zeros(settings["batch"], dtype=torch.long, device="cuda"))
                else:
                    out = model(input_ids=ids, labels=ids)
            loss = out.loss
            del out  # as HF Trainer's compute_loss: only the loss survives into backward
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    free, total = torch.cuda.mem_get_info()
    result = {
        "allocated_bytes": torch.cuda.max_memory_allocated(),
        "reserved_bytes": torch.cuda.max_memory_reserved(),
        "device_used_now_bytes": total - free,  # what nvidia-smi shows at the end (context + cache)
    }
    del model
    torch.cuda.empty_cache()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="measured_peaks_here.json")
    parser.add_argument("--only", help="run the shapes whose name contains this text")
    parser.add_argument("--estimate", action="store_true", help="print gpu-advisor's figure beside each")
    args = parser.parse_args(argv)
    import torch
    import transformers

    if not torch.cuda.is_available():
        print("measure_peaks: no CUDA device; this script measures real GPU peaks only", file=sys.stderr)
        return 2
    rows = []
    configs = Path(tempfile.mkdtemp(prefix="peaks-configs-"))
    for name, config, kind, settings, argv_tail in SHAPES:
        if args.only and args.only not in name:
            continue
        path = configs / f"{name}.json"
        path.write_text(json.dumps(config), encoding="utf-8")
        started = time.time()
        try:
            measured = run_shape(config, kind, settings)
        except Exception as exc:  # noqa: BLE001 - one shape's failure (OOM, missing peft) must not stop the rest
            print(f"{name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        row = {"id": f"here-{name}", "argv": ["--config", str(path), *argv_tail], "config": config, **measured,
               "seconds": round(time.time() - started, 1)}  # fmt: skip
        if args.estimate:
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
            from tools import peaks

            for kind_ in ("allocated", "reserved"):
                case = {"argv": [*row["argv"], "--measure", kind_], "peak_kind": kind_, "component": "total_per_gpu"}
                row[f"ours_{kind_}_bytes"] = peaks.estimate_case(case)
        rows.append(row)
        print(json.dumps({k: v for k, v in row.items() if k != "config"}), file=sys.stderr)
    doc = {
        "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__, "transformers": transformers.__version__,
        "cuda": torch.version.cuda, "rows": rows,
    }  # fmt: skip
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
