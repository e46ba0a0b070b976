"""The HF-flavour activation estimate against bytes measured with torch's saved_tensors_hooks.

tests/core/data/activation_calibration.json was written by tools/calibrate_activations.py (torch and
transformers run on small random-init bf16 Llama/Mistral/Qwen2 decoders; nothing downloaded). The
"calibrate" shapes were inspected tensor by tensor while writing `layer_activation_bytes_per_token_hf`
(they settled that sdpa keeps K/V at kv_heads width); the "check" shapes are held out: different
widths, depths, vocabularies, batches, sequence lengths, GQA ratios, eager attention and full
checkpointing, and LoRA adapters (PEFT) on a frozen base with and without autocast. DESIGN.md:
activations = bytes kept for backward by one forward, loss included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.core.memory import Shape, activation_bytes

DATA = json.loads((Path(__file__).parent / "data" / "activation_calibration.json").read_text(encoding="utf-8"))
ROWS = DATA["shapes"]


def _estimate(row: dict) -> float:
    shape = Shape(kind="decoder", params=1, active_params=1, layers=row["layers"], hidden=row["hidden"],
                  heads=row["heads"], kv_heads=row["kv_heads"], head_dim=row["hidden"] // row["heads"],
                  ffn=row["ffn"], vocab=row["vocab"])
    lora = None
    if "lora_rank" in row:
        lora = (frozenset(row["lora_targets"].split(",")), row["lora_rank"], row["autocast"])
    return activation_bytes(shape, row["batch"], row["seq"], attention=row["attention"],
                            checkpointing=row["checkpointing"], lora=lora).saved


def test_the_data_covers_held_out_shapes() -> None:
    checks = [r for r in ROWS if r["role"] == "check"]
    assert len(checks) >= 5
    lora = [r for r in checks if "lora_rank" in r]
    assert len(lora) >= 4 and {r["autocast"] for r in lora} == {True, False}
    assert {r["attention"] for r in checks} >= {"sdpa", "eager"}
    assert {r["checkpointing"] for r in checks} >= {"none", "full"}
    assert len({r["family"] for r in checks}) >= 3


@pytest.mark.parametrize("row", [r for r in ROWS if r["role"] == "check"],
                         ids=lambda r: f"{r['family']}-h{r['hidden']}-{r['attention']}-{r['checkpointing']}"
                                       + (f"-lora-{r['lora_targets']}" if "lora_rank" in r else ""))
def test_held_out_shapes_within_10_percent(row: dict) -> None:
    assert _estimate(row) == pytest.approx(row["saved_bytes"], rel=0.10)


def test_eager_attention_costs_the_score_matrices() -> None:
    # Same model and shape, sdpa vs eager: the difference is the fp32 softmax output and its bf16
    # copy (6 bytes x heads x seq per token per layer) plus the repeated K/V and the o_proj copy.
    sdpa = next(r for r in ROWS if r["role"] == "calibrate" and r["kv_heads"] == 2 and r["attention"] == "sdpa"
                and r["checkpointing"] == "none")
    eager = next(r for r in ROWS if r["role"] == "calibrate" and r["attention"] == "eager")
    assert eager["saved_bytes"] > sdpa["saved_bytes"]
    assert _estimate(eager) - _estimate(sdpa) == pytest.approx(eager["saved_bytes"] - sdpa["saved_bytes"], rel=0.02)


def test_lora_saves_less_than_full_training_on_the_same_model() -> None:
    # A frozen base keeps no linear-layer inputs: with adapters on q and v only, the measured bytes are
    # well below full training of the same shape (same model, batch and length in both rows).
    full = next(r for r in ROWS if "lora_rank" not in r and r["family"] == "qwen2")
    lora = next(r for r in ROWS if r.get("lora_targets") == "q,v" and r["family"] == "qwen2")
    assert (full["hidden"], full["seq"], full["batch"]) == (lora["hidden"], lora["seq"], lora["batch"])
    assert lora["saved_bytes"] < 0.95 * full["saved_bytes"]
    assert _estimate(lora) < 0.95 * _estimate(full)
