"""Measure the bytes a Hugging Face transformers decoder saves for backward, to check `advisor.core.memory`.

Why this exists: DESIGN.md defines `activations` as the bytes one training step's forward keeps for
the backward pass in the reference implementation (transformers, sdpa attention, LM head logits and
loss included). The estimator derives that op by op (`layer_activation_bytes_per_token_hf`); this
tool measures it on small, architecture-faithful models so the derivation is checked rather than
trusted. Dev-only: it needs torch, transformers and peft (random initialisation from a config, nothing is
downloaded) and is never imported by the advisor.

LoRA rows wrap the same models with PEFT adapters (`get_peft_model`, dropout 0), with and without
autocast, to check the frozen-base accounting.

How: `torch.autograd.graph.saved_tensors_hooks` sees every tensor autograd saves during the forward
pass (loss included). Tensors are de-duplicated by storage (one tensor saved by q, k and v
projections counts once), parameters and their views are excluded (they are weights, not
activations), and the bytes of each distinct storage are summed.

Run:  .venv/bin/python tools/calibrate_activations.py  [--out tests/core/data/activation_calibration.json]
Shapes marked "calibrate" decided the one modelling choice that is not derivable from the code
alone (whether sdpa keeps K/V at kv_heads width); the "check" shapes were never looked at while
writing the formula and are what tests/core/test_activation_calibration.py holds it to.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (role, family, hidden, layers, heads, kv_heads, ffn, vocab, batch, seq, attention, checkpointing)
SHAPES = [
    ("calibrate", "llama", 256, 2, 8, 8, 688, 1000, 2, 128, "sdpa", "none"),
    ("calibrate", "llama", 256, 2, 8, 2, 688, 1000, 2, 128, "sdpa", "none"),
    ("calibrate", "llama", 256, 2, 8, 2, 688, 1000, 2, 128, "eager", "none"),
    ("calibrate", "llama", 256, 2, 8, 2, 688, 1000, 2, 128, "sdpa", "full"),
    ("check", "llama", 512, 3, 8, 4, 1376, 32000, 1, 512, "sdpa", "none"),
    ("check", "llama", 384, 4, 6, 2, 1024, 8000, 3, 256, "sdpa", "none"),
    ("check", "mistral", 512, 2, 16, 4, 1792, 16000, 2, 384, "sdpa", "none"),
    ("check", "qwen2", 448, 3, 7, 1, 1216, 20000, 1, 640, "sdpa", "none"),
    ("check", "llama", 320, 3, 5, 5, 864, 12000, 2, 200, "eager", "none"),
    ("check", "llama", 512, 4, 8, 2, 1376, 32000, 2, 256, "sdpa", "full"),
    ("check", "llama", 768, 2, 12, 4, 2048, 50000, 1, 1024, "sdpa", "none"),
]


# LoRA (PEFT, dropout 0): (role, family, hidden, layers, heads, kv, ffn, vocab, batch, seq, attention, checkpointing,
# rank, targets, autocast). autocast=True is Trainer(bf16=True) on a bf16 model; False is plain bf16 training.
LORA_SHAPES = [
    ("calibrate", "llama", 256, 2, 8, 2, 688, 1000, 2, 128, "sdpa", "none", 8, "q,v,down", False),
    ("calibrate", "llama", 256, 2, 8, 2, 688, 1000, 2, 128, "sdpa", "none", 8, "q,v,down", True),
    ("check", "llama", 512, 3, 8, 4, 1376, 32000, 1, 512, "sdpa", "none", 16, "q,k,v,o,gate,up,down", True),
    ("check", "mistral", 384, 4, 6, 2, 1024, 8000, 2, 256, "sdpa", "none", 32, "q,k,v,o,gate,up,down", False),
    ("check", "qwen2", 448, 3, 7, 1, 1216, 20000, 1, 640, "sdpa", "none", 8, "q,v", True),
    ("check", "llama", 320, 3, 5, 5, 864, 12000, 2, 200, "eager", "none", 16, "o,gate,up", True),
    ("check", "llama", 512, 4, 8, 2, 1376, 32000, 2, 256, "sdpa", "full", 16, "q,k,v,o,gate,up,down", True),
    ("check", "llama", 384, 3, 6, 2, 1024, 16000, 2, 256, "sdpa", "none", 8, "down", True),
]


# Encoders (transformers BertForSequenceClassification, 2 labels) with dropout 0: on the CPU dropout keeps
# its mask in the input's dtype, on CUDA as 1-byte booleans (`native_dropout`), so the masks are left out
# of the measurement and the estimate is asked for the dropout-free layer (`dropout=False`).
# (role, hidden, layers, heads, ffn, vocab, batch, seq, attention, checkpointing, dtype)
ENCODER_SHAPES = [
    ("calibrate", 256, 2, 4, 1024, 1000, 2, 128, "eager", "none", "fp32"),
    ("check", 256, 2, 4, 1024, 1000, 2, 128, "sdpa", "none", "fp32"),
    ("check", 384, 3, 6, 1536, 5000, 3, 200, "eager", "none", "fp32"),
    ("check", 256, 2, 4, 1024, 1000, 2, 128, "eager", "none", "bf16"),
    ("check", 384, 3, 6, 1536, 5000, 3, 200, "sdpa", "none", "bf16"),
    ("check", 512, 2, 8, 2048, 8000, 1, 320, "eager", "full", "fp32"),
]


def measure_encoder(h: int, layers: int, heads: int, ffn: int, vocab: int, batch: int, seq: int, attention: str,
                    checkpointing: str, dtype: str) -> int:
    import torch
    import transformers

    config = transformers.BertConfig(
        hidden_size=h, num_hidden_layers=layers, num_attention_heads=heads, intermediate_size=ffn,
        vocab_size=vocab, max_position_embeddings=1024, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
    )
    config._attn_implementation = attention
    torch.manual_seed(0)
    model = transformers.BertForSequenceClassification(config).to(torch.float32 if dtype == "fp32" else torch.bfloat16)
    model.train()
    if checkpointing == "full":
        model.gradient_checkpointing_enable()
    ids = torch.randint(0, vocab, (batch, seq))
    saved, _ = _saved_for_backward(model, lambda: model(input_ids=ids, labels=torch.zeros(batch, dtype=torch.long)))
    return saved


def _saved_for_backward(model, forward) -> tuple[int, list[tuple[str, tuple, str]]]:
    """Bytes of the tensors autograd saves while `forward()` runs (each storage once, parameters left out), and
    their (dtype, shape, ""); the loss is then backpropagated so that the run is a whole training step."""
    import torch

    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen: dict[int, int] = {}
    shapes: list[tuple[str, tuple, str]] = []

    def pack(t):
        if isinstance(t, torch.Tensor) and t.device.type != "meta":
            try:
                storage = t.untyped_storage()
                ptr, size = storage.data_ptr(), storage.nbytes()
            except (RuntimeError, NotImplementedError):
                return t
            if ptr not in params and ptr not in seen:
                seen[ptr] = size
                shapes.append((str(t.dtype).replace("torch.", ""), tuple(t.shape), ""))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = forward()
    out.loss.backward()
    return sum(seen.values()), shapes


def build(family: str, h: int, layers: int, heads: int, kv: int, ffn: int, vocab: int, attention: str):
    import torch
    import transformers

    cls = {"llama": ("LlamaConfig", "LlamaForCausalLM"), "mistral": ("MistralConfig", "MistralForCausalLM"),
           "qwen2": ("Qwen2Config", "Qwen2ForCausalLM")}[family]
    config = getattr(transformers, cls[0])(
        hidden_size=h, intermediate_size=ffn, num_hidden_layers=layers, num_attention_heads=heads,
        num_key_value_heads=kv, vocab_size=vocab, max_position_embeddings=4096, tie_word_embeddings=False,
    )
    config._attn_implementation = attention
    torch.manual_seed(0)
    model = getattr(transformers, cls[1])(config).to(torch.bfloat16)
    model.train()
    return model


def add_lora(model, rank: int, targets: str):
    from peft import LoraConfig, get_peft_model

    modules = [f"{t.strip()}_proj" for t in targets.split(",")]
    return get_peft_model(model, LoraConfig(r=rank, lora_alpha=2 * rank, target_modules=modules, lora_dropout=0.0))


def measure(model, batch: int, seq: int, checkpointing: str, autocast: bool = False,
            ) -> tuple[int, list[tuple[str, tuple, str]]]:
    import contextlib

    import torch

    if checkpointing == "full":
        model.gradient_checkpointing_enable()
        if hasattr(model, "enable_input_require_grads"):
            model.enable_input_require_grads()  # what PEFT + Trainer do so that checkpointed LoRA gets gradients
    ids = torch.randint(0, model.config.vocab_size, (batch, seq))
    cast = torch.autocast("cpu", dtype=torch.bfloat16) if autocast else contextlib.nullcontext()

    def forward():
        with cast:
            return model(input_ids=ids, labels=ids, use_cache=False)

    return _saved_for_backward(model, forward)


def _version(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "tests/core/data/activation_calibration.json"))
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--encoders", metavar="OUT", help="measure the encoder shapes only and write them to OUT")
    args = parser.parse_args(argv)
    import torch
    import transformers

    if args.encoders:
        keys = ("role", "hidden", "layers", "heads", "ffn", "vocab", "batch", "seq", "attention", "checkpointing",
                "dtype")
        rows = []
        for values in ENCODER_SHAPES:
            row = dict(zip(keys, values, strict=True))
            row["saved_bytes"] = measure_encoder(*values[1:])
            rows.append(row)
            print(row, file=sys.stderr)
        doc = {
            "what": "bytes saved for backward by one forward (loss included) of random-init BERT sequence "
                    "classifiers with dropout 0, measured with torch.autograd.graph.saved_tensors_hooks",
            "tool": "tools/calibrate_activations.py --encoders",
            "torch": torch.__version__, "transformers": transformers.__version__,
            "python": platform.python_version(), "device": "cpu", "shapes": rows,
        }
        Path(args.encoders).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        return 0

    rows = []
    for role, family, h, layers, heads, kv, ffn, vocab, batch, seq, attention, ckpt in SHAPES:
        model = build(family, h, layers, heads, kv, ffn, vocab, attention)
        saved, shapes = measure(model, batch, seq, ckpt)
        rows.append({
            "role": role, "family": family, "hidden": h, "layers": layers, "heads": heads, "kv_heads": kv,
            "ffn": ffn, "vocab": vocab, "batch": batch, "seq": seq, "attention": attention,
            "checkpointing": ckpt, "saved_bytes": saved,
        })
        print(f"{role:9} {family:7} h={h:4} L={layers} a={heads:2}/{kv:2} f={ffn:5} V={vocab:6} b={batch} s={seq:4} "
              f"{attention:5} ckpt={ckpt:4} saved={saved:,}", file=sys.stderr)
        if args.verbose:
            for dtype, shape, _ in shapes:
                print("    ", dtype, shape, file=sys.stderr)
    try:
        import peft  # noqa: F401
    except ImportError:
        print("peft is not installed: LoRA shapes skipped", file=sys.stderr)
        lora_shapes = []
    else:
        lora_shapes = LORA_SHAPES
    for (role, family, h, layers, heads, kv, ffn, vocab, batch, seq, attention, ckpt, rank, targets,
         autocast) in lora_shapes:
        model = add_lora(build(family, h, layers, heads, kv, ffn, vocab, attention), rank, targets)
        model.train()
        saved, shapes = measure(model, batch, seq, ckpt, autocast)
        rows.append({
            "role": role, "family": family, "hidden": h, "layers": layers, "heads": heads, "kv_heads": kv,
            "ffn": ffn, "vocab": vocab, "batch": batch, "seq": seq, "attention": attention,
            "checkpointing": ckpt, "lora_rank": rank, "lora_targets": targets, "autocast": autocast,
            "saved_bytes": saved,
        })
        print(f"{role:9} {family:7} h={h:4} L={layers} a={heads:2}/{kv:2} f={ffn:5} V={vocab:6} b={batch} s={seq:4} "
              f"{attention:5} ckpt={ckpt:4} LoRA r={rank} {targets} autocast={autocast} saved={saved:,}",
              file=sys.stderr)
        if args.verbose:
            for dtype, shape, _ in shapes:
                print("    ", dtype, shape, file=sys.stderr)
    doc = {
        "what": "bytes saved for backward by one forward (loss included) of random-init bf16 decoders, "
                "measured with torch.autograd.graph.saved_tensors_hooks, parameters excluded, storages de-duplicated",
        "tool": "tools/calibrate_activations.py",
        "torch": torch.__version__, "transformers": transformers.__version__,
        "peft": _version("peft"),
        "python": platform.python_version(), "device": "cpu",
        "shapes": rows,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
