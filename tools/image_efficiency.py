"""Image and diffusion training throughput against published figures: the fit of the per-architecture
utilisation in `advisor.core.compute` (IMAGE_MFU, IMAGE_VOLTA_TRANSFORMER, IMAGE_DATA_PARALLEL) and the error of
the planner on every figure, fitted or held out (tests/core/data/image_training.json, each with its source).

    python tools/image_efficiency.py          # the table
    python tools/image_efficiency.py --fit    # what the fit figures imply (the constants are these, rounded)

The planner is asked what `gpu-advisor` would plan: the catalogue model, the catalogue GPU, the figure's GPU count
and micro-batch, no checkpointing, the published precision (AMP on V100 = fp16 mixed, on A100 = bf16/fp16 mixed:
the same peak).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = ROOT / "tests" / "core" / "data" / "image_training.json"


def load() -> list[dict]:
    return json.loads(DATA.read_text(encoding="utf-8"))


def _spec(kb, name: str):
    """The catalogue model, or `id@resolution` for the same network at another input size (ViT: forward FLOPs
    from its dimensions at that size)."""
    model, _, res = name.partition("@")
    spec = kb.model(model)
    if res:
        spec = spec.model_copy(update={"input_resolution": int(res), "forward_flops_per_sample": None,
                                       "activation_bytes_per_sample": None})
    return spec


def predict(case: dict, kb=None) -> dict:
    """The planner's expected throughput (img/s, all GPUs) and, for a timed figure, hours, on the case's setup."""
    from advisor.core import planner
    from advisor.knowledge import knowledge

    kb = kb or knowledge()
    spec = _spec(kb, case["model"])
    gpu = kb.gpu(case["gpu"])
    samples = float(case.get("samples") or 1_000_000) * float(case.get("epochs") or 1)
    batch = case.get("batch_per_gpu") or 32
    w = planner.workload_for(spec, task=case.get("task", "pretrain"), seq_len=1, micro_batch=batch, samples=samples,
                             precision=case["precision"], optimizer=case.get("optimizer", "adamw"),
                             trainable_params=int(spec.params * 0.005) if case.get("task") == "lora" else None)
    count = case["count"]
    ev = planner.evaluate_training(w, count, "single" if count == 1 else "ddp",
                                   checkpointing=case.get("checkpointing", "none"), gpu=gpu)
    seconds = ev.metrics.time_s
    rate = samples / seconds
    return {"img_per_s": rate, "hours": seconds / 3600.0, "s_per_it": batch * count / rate, "mfu": ev.metrics.mfu,
            "train_flops_per_image": ev.volumes.flops / samples}


def measured(case: dict, p: dict) -> float:
    """The prediction on the case's own metric: img/s, hours or seconds per step."""
    return {"img/s": p["img_per_s"], "hours": p["hours"], "s/it": p["s_per_it"]}[case["metric"]]


def error(case: dict, kb=None) -> float:
    """Relative error of the prediction on the case's own metric (img/s or hours)."""
    return measured(case, predict(case, kb)) / case["value"] - 1.0


def implied(case: dict, kb=None) -> float:
    """The utilisation the published figure implies: achieved training FLOP/s per GPU / dense 16-bit peak."""
    from advisor.core import compute
    from advisor.knowledge import knowledge

    kb = kb or knowledge()
    p = predict(case, kb)
    gpu = kb.gpu(case["gpu"])
    samples = float(case.get("samples") or 1_000_000) * float(case.get("epochs") or 1)
    rate = {"img/s": case["value"], "hours": samples / (case["value"] * 3600.0),
            "s/it": (case.get("batch_per_gpu") or 32) * case["count"] / case["value"]}[case["metric"]]
    return rate * p["train_flops_per_image"] / (case["count"] * compute.peak_flops(gpu, case["precision"]))


def fit(cases: list[dict]) -> dict[str, float]:
    """The constants the fit figures imply (geometric means), before rounding."""
    from advisor.core import compute
    from advisor.knowledge import knowledge

    kb = knowledge()

    def gmean(xs: list[float]) -> float:
        return math.exp(sum(math.log(x) for x in xs) / len(xs))

    by_id = {c["id"]: c for c in cases}
    out: dict[str, float] = {}

    def scale(c: dict) -> float:
        return compute.mamf_efficiency(kb.gpu(c["gpu"]).architecture) / compute._MAMF_REFERENCE

    # cnn: two unknowns (utilisation, memory bytes per forward FLOP) from its two fit figures, per image on one GPU:
    # 1/rate = train FLOPs / (peak x scale x u) + bytes x forward FLOPs / (bandwidth x DECODE_BANDWIDTH_EFFICIENCY)
    rows = []
    for c in cases:
        if c["role"] == "fit" and c["model"].startswith("resnet"):
            gpu = kb.gpu(c["gpu"])
            fwd = kb.model("resnet-50").forward_flops_per_sample
            a = 3.0 * fwd / (compute.peak_flops(gpu, c["precision"]) * scale(c))
            b = fwd / (gpu.bandwidth_tbps * 1e12 * compute.DECODE_BANDWIDTH_EFFICIENCY)
            rows.append((a, b, 1.0 / c["value"]))
    (a1, b1, t1), (a2, b2, t2) = rows
    inv_u = (t1 * b2 - t2 * b1) / (a1 * b2 - a2 * b1)
    out["IMAGE_MFU[cnn]"] = 1.0 / inv_u
    out["CNN_HBM_BYTES_PER_FORWARD_FLOP"] = (t1 - a1 * inv_u) / b1
    for kind, model_prefix in (("vit", "vit"), ("diffusion", "sd")):
        xs = [implied(c, kb) / scale(c) for c in cases if c["role"] == "fit" and c["model"].startswith(model_prefix)]
        out[f"IMAGE_MFU[{kind}]"] = gmean(xs)
    ratios = []
    for c in cases:
        if c["role"] == "fit-dp":
            single = by_id[c["id"].replace("_8gpu", "_1gpu")]
            ratios.append(c["value"] / (single["value"] * c["count"]))
    out["IMAGE_DATA_PARALLEL"] = gmean(ratios)
    xs = [implied(c, kb) / scale(c) / compute.IMAGE_MFU["vit"] for c in cases if c["role"] == "fit-volta"]
    out["IMAGE_VOLTA_TRANSFORMER"] = gmean(xs)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", action="store_true", help="print what the fit figures imply")
    args = parser.parse_args(argv)
    cases = load()
    if args.fit:
        for k, v in fit(cases).items():
            print(f"{k:28} {v:.3f}")
        return 0
    from advisor.knowledge import knowledge

    kb = knowledge()
    print(f"{'figure':44} {'role':9} {'published':>12} {'planner':>10} {'error':>7}")
    worst = 0.0
    for c in cases:
        got = measured(c, predict(c, kb))
        err = got / c["value"] - 1.0
        if c["role"] == "held-out":
            worst = max(worst, abs(err))
        print(f"{c['id']:44} {c['role']:9} {c['value']:>8,.1f} {c['metric']:>5} {got:>8,.1f} {err:>+7.1%}")
    print(f"worst held-out error: {worst:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
