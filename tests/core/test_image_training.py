"""Image and diffusion training against published figures (issue #11): each figure in
tests/core/data/image_training.json names its source and quotes it; the planner is asked for the same setup
(tools/image_efficiency.py, which also prints the table). The per-architecture utilisation in
advisor.core.compute was fitted on the figures marked 'fit' (the tool's --fit reproduces the constants); every
other figure is held out. Tolerance: 25 % on throughput and time, as the issue asks; the figures we miss by more
are listed with the bound they are held to and why, so a change that makes them worse fails too.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from advisor.core import compute, planner
from advisor.knowledge import knowledge
from advisor.models import OwnedGpus, Profile
from advisor.recommend import recommend
from tools import image_efficiency

CASES = {c["id"]: c for c in image_efficiency.load()}

TOLERANCE = 0.25
OUTLIERS = {
    # MXNet DLE 90-epoch convergence runs (DALI, batch 512): NVIDIA's fastest stack, 30-67 % faster than we plan
    "dle_mxnet_rn50_a100_80g_amp_1gpu_90e": 0.55,
    "dle_mxnet_rn50_a100_80g_amp_8gpu_90e": 0.70,
    "dle_mxnet_rn50_v100_16g_1gpu_90e_amp": 0.35,
    # the README's "~3 hours" for 8 A100s is 1.6x its own 16,621 img/s (1.9 h): warm-up and evaluation
    "dle_pt_rn50_a100_amp_8gpu_90e": 0.40,
    # TensorFlow + XLA on 8 V100s scales better (0.94) than the PyTorch table we fit the data-parallel loss on
    "dle_tf_rn50_v100_16g_amp_xla_8gpu": 0.30,
    # DeiT's 2-node run scales to 0.72 of one node over 2020 InfiniBand; its 384-px fine-tune is slower per FLOP
    "deit_b_300ep_2node": 0.32,
    "deit_b_384_finetune": 0.32,
    # ViT-B at 384 px (577 tokens) on PyTorch 1.12: eager attention, which the FLOPs do not see
    "timm_train_rtx3090_vit_base_patch16_384": 0.30,
    # the two batch-1 user reports the small-batch factor is the geometric mean of (0.26x and 0.41x)
    "kohya_1288_sdxl_lora_4090_b1": 0.30,
    "onetrainer_164_sdxl_full_4090_b1": 0.30,
}


def test_every_figure_names_its_source_and_quotes_it() -> None:
    assert len(CASES) >= 30
    for c in CASES.values():
        assert c["source"] and c["quote"], c["id"]
        assert c["role"] in ("fit", "fit-dp", "fit-volta", "fit-batch", "held-out"), c["id"]
    held_out = [c for c in CASES.values() if c["role"] == "held-out"]
    assert len(held_out) >= 2 * (len(CASES) - len(held_out)) - 4  # fit on few, judge on many


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_planner_against_published_figure(case_id: str) -> None:
    case = CASES[case_id]
    err = image_efficiency.error(case)
    bound = OUTLIERS.get(case_id, TOLERANCE)
    assert abs(err) <= bound, f"{case_id}: {err:+.1%} against {case['value']} {case['metric']} ({case['source']})"


def test_the_outliers_are_still_outliers() -> None:
    # an outlier that has come within 25 % belongs back under the common tolerance
    for case_id in OUTLIERS:
        assert abs(image_efficiency.error(CASES[case_id])) > TOLERANCE - 0.05, case_id


def test_nvidia_resnet50_on_one_a100_and_deit_on_one_v100_node() -> None:
    # The two cases. NVIDIA DLE PyTorch: 2,470 img/s, "~14 hours" for 90 epochs on one A100 80GB (AMP);
    # DeiT (arXiv:2012.12877 §5.6): DeiT-B, 300 epochs, "53 hours on a single node" of 8 V100s.
    rn = image_efficiency.predict(CASES["dle_pt_rn50_a100_amp_1gpu_90e"])
    assert rn["hours"] == pytest.approx(14, rel=0.25)
    assert rn["img_per_s"] == pytest.approx(2470, rel=0.25)
    deit = image_efficiency.predict(CASES["deit_b_300ep_1node"])
    assert deit["hours"] == pytest.approx(53, rel=0.25)


def test_the_constants_are_what_the_fit_figures_give() -> None:
    got = image_efficiency.fit(list(CASES.values()))
    assert got["IMAGE_MFU[cnn]"] == pytest.approx(compute.IMAGE_MFU["cnn"], abs=0.0015)
    assert got["CNN_HBM_BYTES_PER_FORWARD_FLOP"] == pytest.approx(compute.CNN_HBM_BYTES_PER_FORWARD_FLOP, rel=0.01)
    assert got["IMAGE_MFU[vit]"] == pytest.approx(compute.IMAGE_MFU["vit"], abs=0.0015)
    assert got["IMAGE_MFU[diffusion]"] == pytest.approx(compute.IMAGE_MFU["diffusion"], abs=0.0015)
    assert got["IMAGE_DATA_PARALLEL"] == pytest.approx(compute.IMAGE_DATA_PARALLEL, abs=0.0015)
    assert got["IMAGE_VOLTA_TRANSFORMER"] == pytest.approx(compute.IMAGE_VOLTA_TRANSFORMER, abs=0.0015)


def test_a_cnn_is_held_back_by_memory_bandwidth() -> None:
    # The H100 SXM has 3.17x the A100 80GB's dense 16-bit FLOPs (989 vs 312 TFLOPS) and 1.64x its bandwidth (3.35 vs
    # 2.04 TB/s; shared/reference/gpu-catalogue.md): a CNN, partly memory-bound, speeds up by less than the FLOPs
    # and more than the bandwidth; a ViT, mostly matmuls, by the FLOPs (times the MAMF ratio, 0.803 / 0.869).
    kb = knowledge()
    a100, h100 = kb.gpu("a100-80gb-sxm"), kb.gpu("h100-sxm")
    flops = h100.bf16_tflops / a100.bf16_tflops
    bandwidth = h100.bandwidth_tbps / a100.bandwidth_tbps

    def speedup(model: str) -> float:
        w = planner.workload_for(kb.model(model), task="pretrain", seq_len=1, micro_batch=64, samples=1e7)
        t = [planner.evaluate_training(w, 1, "single", gpu=g).metrics.time_s for g in (a100, h100)]
        return t[0] / t[1]

    assert bandwidth < speedup("resnet-50") < 0.8 * flops
    assert speedup("vit-b-16") == pytest.approx(flops * 0.803 / 0.869, rel=0.01)


def test_diffusion_models_get_times_and_rentals() -> None:
    # SD 1.5, SDXL and FLUX.1-dev have forward FLOPs (catalogue), so a fine-tune has a time and a rental price
    for model, task in (("sd15-unet", "finetune"), ("sdxl-unet", "lora"), ("flux-1-dev", "lora")):
        rec = recommend(Profile(language="en", task=task, model=model, samples=2000, epochs=5, acquisition="rent"))
        top = rec.recommendations[0]
        assert top.time_hours is not None and top.time_hours > 0, model
        assert top.acquisition == "rent" and top.rent_usd is not None, model


def test_sdxl_full_fine_tune_fits_the_owned_4090_on_a_300_dollar_budget() -> None:
    # Issue #11: it asked for a $69,505 MI300X. kohya-ss/sd-scripts README ("Tips for SDXL training"): the fine-tune
    # "can be done with 24GB GPU memory with the batch size of 1" with gradient checkpointing; the levers that get
    # there are pure bf16 weights (--full_bf16), 8-bit AdamW, full checkpointing, batch 1.
    profile = Profile(language="en", task="finetune", model="sdxl-unet", samples=5000, epochs=10, budget_usd=300,
                      owned_gpus=(OwnedGpus(gpu="rtx-4090", count=1),))
    top = recommend(profile).recommendations[0]
    assert (top.gpu, top.count, top.cost_usd) == ("rtx-4090", 1, 0)
    assert top.fits and top.micro_batch == 1 and top.optimizer == "adamw-8bit" and top.checkpointing == "full"
    assert top.memory_per_gpu.total < 24 * 2**30
    # 50,000 images at OneTrainer issue #164's "1.16-1.20s/it" on a 4090 (batch 1, bf16): ~16.4 h, within 30 %
    assert top.time_hours == pytest.approx(50_000 * 1.18 / 3600, rel=0.30)


def test_pure_bf16_is_the_last_image_lever_and_only_when_mixed_precision_does_not_fit() -> None:
    kb = knowledge()
    w = planner.workload_for(kb.model("sdxl-unet"), task="finetune", seq_len=1, micro_batch=1, samples=1000)
    variants = planner._variants(w, 1, "single", 1, 1)
    pure = [i for i, v in enumerate(variants) if v.precision == planner.IMAGE_PURE_BF16]
    assert pure and min(pure) > max(i for i, v in enumerate(variants) if v.precision is None)
    # on an 80 GB card mixed precision fits: the plan keeps it
    big = [m for m in planner.sweep(w, [kb.gpu("a100-80gb-sxm")]) if m.count == 1][0]
    assert big.fits and big.precision is None
    small = [m for m in planner.sweep(w, [kb.gpu("rtx-4090")]) if m.count == 1][0]
    assert small.fits and small.precision == "bf16"
    # a language model never gets it
    lm = planner.workload_for(kb.model("llama-3.2-3b"), task="finetune", seq_len=2048, tokens=1e7)
    assert all(v.precision is None for v in planner._variants(lm, 1, "single", 1, 1))


def test_the_input_pipeline_finding_names_the_decode_rate_a_run_needs() -> None:
    # ternaus/imread_benchmark: a whole 16-vCPU VM decodes 1,521-2,800 ImageNet JPEGs/s in a PyTorch DataLoader.
    # ResNet-50 on one A100 at NVIDIA's 2,470 img/s needs more; on one V100 (1,200 img/s) it does not.
    def findings(gpu: str) -> dict:
        rec = recommend(Profile(language="en", task="pretrain", model="resnet-50", samples=1_281_167, epochs=90,
                                owned_gpus=(OwnedGpus(gpu=gpu, count=1),)))
        top = rec.recommendations[0]
        assert top.gpu == gpu
        return {f.rule_id: f for f in top.findings}

    a100 = findings("a100-80gb-sxm")["model.data-pipeline-bound"]
    rate = float(a100.bindings["images_per_s_node_fmt"].replace(",", ""))
    assert rate == pytest.approx(2470, rel=0.25)
    assert a100.bindings["decode_vcpus_node"] == pytest.approx(rate / 110, abs=1)
    assert "model.data-pipeline-bound" not in findings("v100-sxm2-16gb")
    # a diffusion fine-tune reads cached latents, not JPEGs
    sdxl = recommend(Profile(language="en", task="finetune", model="sdxl-unet", samples=5000, epochs=10,
                             acquisition="rent"))
    assert all(f.rule_id != "model.data-pipeline-bound" for c in sdxl.recommendations for f in c.findings)


def test_a_flux_lora_fits_an_owned_24gb_card_on_an_8_bit_base() -> None:
    # ostris/ai-toolkit config/examples/train_lora_flux_24gb.yaml: FLUX.1-dev LoRA on 24 GB with "quantize: true  #
    # run 8bit mixed precision", batch_size 1, gradient_checkpointing, adamw8bit. Its bf16 base alone is 23.8 GB.
    profile = Profile(language="en", task="lora", model="flux-1-dev", samples=40, epochs=100,
                      owned_gpus=(OwnedGpus(gpu="rtx-4090", count=1),))
    top = recommend(profile).recommendations[0]
    assert (top.gpu, top.count, top.cost_usd) == ("rtx-4090", 1, 0)
    assert top.fits and top.micro_batch == 1 and top.checkpointing == "full"
    # 1 byte per frozen weight, plus the small fp32 adapters
    assert top.memory_per_gpu.weights == pytest.approx(11_901_408_320, rel=0.03)
    assert "memory.fp8-base" in {f.rule_id for f in top.findings}
