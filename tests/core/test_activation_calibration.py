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


# --------------------------------------------------------------------------------------------
# Encoders (BERT): tests/core/data/encoder_activation_calibration.json, written by
# `tools/calibrate_activations.py --encoders` (transformers BertForSequenceClassification, random init,
# dropout 0, fp32 and bf16, eager and sdpa, with and without gradient checkpointing)

ENCODER = json.loads(
    (Path(__file__).parent / "data" / "encoder_activation_calibration.json").read_text(encoding="utf-8")
)["shapes"]


def _encoder_estimate(row: dict) -> float:
    shape = Shape(kind="encoder", params=1, active_params=1, layers=row["layers"], hidden=row["hidden"],
                  heads=row["heads"], kv_heads=row["heads"], head_dim=row["hidden"] // row["heads"],
                  ffn=row["ffn"], vocab=row["vocab"], tied=True, gated_mlp=False)
    return activation_bytes(shape, row["batch"], row["seq"], attention=row["attention"],
                            checkpointing=row["checkpointing"], element_bytes=4 if row["dtype"] == "fp32" else 2,
                            dropout=False).saved


def test_encoder_data_covers_both_element_sizes_and_kernels() -> None:
    checks = [r for r in ENCODER if r["role"] == "check"]
    assert {r["dtype"] for r in checks} == {"fp32", "bf16"}
    assert {r["attention"] for r in checks} == {"sdpa", "eager"}
    assert {r["checkpointing"] for r in checks} == {"none", "full"}


@pytest.mark.parametrize("row", [r for r in ENCODER if r["role"] == "check"],
                         ids=lambda r: f"bert-h{r['hidden']}-{r['dtype']}-{r['attention']}-{r['checkpointing']}")
def test_encoder_held_out_shapes_within_2_percent(row: dict) -> None:
    # the count is op by op, so it should be nearly exact, not just within the decoder's 10 %
    assert _encoder_estimate(row) == pytest.approx(row["saved_bytes"], rel=0.02)


def test_an_fp32_encoder_keeps_twice_the_bytes_of_a_bf16_one() -> None:
    # Same shape measured in both dtypes: every saved tensor is a float, so the ratio is 2 (ids aside)
    fp32 = next(r for r in ENCODER if r["dtype"] == "fp32" and r["attention"] == "eager" and r["hidden"] == 256)
    bf16 = next(r for r in ENCODER if r["dtype"] == "bf16" and r["attention"] == "eager" and r["hidden"] == 256)
    assert fp32["saved_bytes"] / bf16["saved_bytes"] == pytest.approx(2.0, rel=0.01)
    assert _encoder_estimate(fp32) / _encoder_estimate(bf16) == pytest.approx(2.0, rel=0.01)
