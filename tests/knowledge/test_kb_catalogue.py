"""The GPU catalogue (knowledge/gpus.yaml): complete, sourced, dated, and true to the reference figures.

Expected numbers are copied from ../shared/reference/gpu-catalogue.md (the compiled datasheet table;
its source tags are named per row), never computed from the catalogue under test.
"""

from __future__ import annotations

import re

import pytest

from advisor.knowledge import knowledge, normalize_name

KB = knowledge()
GPUS = KB.gpus

REQUIRED_IDS = {
    "v100-pcie-16gb", "v100-sxm2-16gb", "t4", "a10", "a10g", "l4", "l40s",
    "a100-40gb-pcie", "a100-40gb-sxm", "a100-80gb-pcie", "a100-80gb-sxm",
    "h100-pcie", "h100-sxm", "h100-nvl", "h200", "b200", "gb200",
    "rtx-3090", "rtx-4090", "rtx-5090", "rtx-a6000", "rtx-6000-ada", "rtx-pro-6000",
    "mi250x", "mi300x", "mi325x", "gaudi2", "gaudi3",
}


def test_every_reference_gpu_is_catalogued() -> None:
    assert len(GPUS) >= 25
    assert REQUIRED_IDS <= set(GPUS), sorted(REQUIRED_IDS - set(GPUS))


def test_ids_are_lowercase_dashed() -> None:
    bad = [i for i in GPUS if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i)]
    assert bad == []


# (id, memory GB, bandwidth TB/s, dense BF16 TFLOPS or None, dense FP16, FP8 or None, max W) —
# gpu-catalogue.md §2 (memory, bandwidth, dense tensor rates) and §3 (power), tags as noted.
SPEC_TABLE = [
    ("h100-sxm", 80, 3.35, 989, 989, 1979, 700),  # [ME-acc, HPCT, TT]
    ("h100-pcie", 80, 2.0, 756, 756, 1513, 350),  # [ME-acc, HPCT]
    ("h200", 141, 4.8, 989, 989, 1979, 700),  # [ME-acc, MLC]
    ("a100-80gb-sxm", 80, 2.039, 312, 312, None, 400),  # [LA, GS, ME-acc]
    ("a100-40gb-pcie", 40, 1.555, 312, 312, None, 250),  # [LA, GS, GM]
    ("b200", 180, 7.7, 2250, 2250, 4500, 1000),  # [DS, ME-acc]
    ("rtx-4090", 24, 1.008, 165, 165, 330, 450),  # [OSM, GM]: 165 is the FP32-accumulate rate
    ("rtx-3090", 24, 0.936, 71, 71, None, 350),  # [OSM, VD]: 71 FP32-accumulate, not 142
    ("rtx-5090", 32, 1.792, 210, 210, 419, 575),  # [GM, aig]
    ("mi300x", 192, 5.3, 1300, 1300, 2610, 750),  # [ME-acc]
    ("mi250x", 128, 3.28, 383, 383, None, 560),  # [ME-acc]: two dies x 191.5
    ("l4", 24, 0.30, 121, 121, 242, 72),  # [GS, GM]: not the sparse 242/485
    ("l40s", 48, 0.864, 362, 362, 733, 350),  # [ME-acc]
    ("rtx-6000-ada", 48, 0.96, 364, 364, 728, 300),  # [DS, GM]
    ("gaudi3", 128, 3.7, 1677, 459, 1677, 900),  # [ME-acc]: FP16 only 459
    ("v100-sxm2-16gb", 16, 0.90, None, 125, None, 300),  # [LA, GS]: no BF16
    ("t4", 16, 0.30, None, 65, None, 70),  # [GS]: no BF16
]


@pytest.mark.parametrize(("gpu_id", "mem_gb", "bw_tbps", "bf16", "fp16", "fp8", "tdp_w"), SPEC_TABLE)
def test_specs_match_gpu_catalogue_md(gpu_id, mem_gb, bw_tbps, bf16, fp16, fp8, tdp_w) -> None:
    g = GPUS[gpu_id]
    assert g.memory_gb == mem_gb
    assert g.bandwidth_tbps == pytest.approx(bw_tbps)
    assert g.bf16_tflops == bf16
    assert g.fp16_tflops == fp16
    assert g.fp8_tflops == fp8
    assert g.tdp_w == tdp_w


def test_h100_sxm_bytes_and_link() -> None:
    g = GPUS["h100-sxm"]
    assert g.memory_bytes == 85_899_345_920  # 80 GiB of HBM3: "80 GB" is binary (gpu-catalogue.md convention 3)
    assert g.bandwidth_bytes_per_s == pytest.approx(3.35e12)
    # NVLink 4: 900 GB/s bidirectional = 450 per direction (gpu-catalogue.md §3 [HPCT, ME-net]).
    assert g.nvlink and g.interconnect_gbps == 450


def test_no_bf16_before_ampere_and_fp8_only_from_hopper_ada() -> None:
    for g in GPUS.values():
        if g.architecture in ("volta", "turing"):
            assert g.bf16_tflops is None, g.id
        else:
            assert g.bf16_tflops is not None, g.id
        if g.architecture in ("volta", "turing", "ampere", "cdna2"):
            assert g.fp8_tflops is None, g.id
        if g.architecture in ("hopper", "ada", "blackwell", "cdna3"):
            assert g.fp8_tflops is not None, g.id


def test_dense_tensor_rates_dwarf_fp32_on_datacenter_parts() -> None:
    # gpu-catalogue.md §7 pitfall: tensor >= 4x non-tensor FP32 for Ampere and later data-center parts;
    # a non-tensor or sparse figure slipped in would break this.
    for g in GPUS.values():
        if g.segment == "datacenter" and g.fp32_tflops and g.architecture in ("ampere", "hopper", "blackwell"):
            assert g.fp16_tflops >= 4 * g.fp32_tflops, g.id


def test_geforce_cards_have_no_ecc_and_no_nvlink() -> None:
    # gpu-catalogue.md §5: GeForce 3090 Ti/4090/5090 ECC not supported; workstation cards support it.
    for gid in ("rtx-3090", "rtx-4090", "rtx-5090"):
        assert GPUS[gid].ecc is False and GPUS[gid].nvlink is False
    for gid in ("rtx-a6000", "rtx-6000-ada", "rtx-pro-6000", "l4", "l40s", "a10"):
        assert GPUS[gid].ecc is True


def test_pcie_only_cards_use_the_pcie_rate() -> None:
    # gpu-catalogue.md §3: ~31 GB/s per direction at Gen4 x16, ~63 at Gen5 x16 [ME-net].
    for g in GPUS.values():
        if not g.nvlink:
            assert g.interconnect_gbps in (15.75, 31, 63), g.id
    assert GPUS["rtx-4090"].interconnect_gbps == 31
    assert GPUS["rtx-pro-6000"].interconnect_gbps == 63


def test_max_per_node_follows_the_form_factor() -> None:
    for g in GPUS.values():
        if g.form_factor.startswith("sxm") or g.form_factor == "oam":
            assert g.max_per_node == 8, g.id
        if g.segment == "consumer":
            assert g.max_per_node == 4, g.id


def test_every_gpu_is_sourced_and_prices_are_dated_ranges() -> None:
    for g in GPUS.values():
        # the reference files, or the vendor's own document for cards listed only so that owners are understood
        assert any(k in g.source for k in ("gpu-catalogue.md", "platforms.md", "datasheet", "whitepaper", "spec page")), g.id
        for price in (g.price, g.cloud_hourly):
            if price is None:
                continue
            assert re.fullmatch(r"20\d\d-(0[1-9]|1[0-2])", price.date), (g.id, price.date)
            assert price.low_usd <= price.high_usd, g.id
            assert price.source.strip(), g.id
        if g.price is None or g.cloud_hourly is None:
            # Say why a price is missing.
            assert re.search(r"no (purchase )?price|neither|not (sold|captured|separate)|no cloud|no separate|no per-GPU",
                             g.notes, re.I), g.id


def test_price_spot_checks() -> None:
    # platforms.md §4 (street prices of 2026): RTX 4090 $1,700 new [LLM3090], H100 SXM $25-30k new and
    # $22-25k used [DG, RLA], H100 PCIe $25-30k [SPE] — no longer dearer than the SXM part; RTX 3090 only used,
    # $500-800 [LLM3090]. gpu-catalogue.md §4: RTX 4090 cloud $0.34-0.39 (Runpod, CloudRift, 2026-08) [AT-price];
    # MI300X Crusoe $3.45 [GH-crusoe]. SXM/OAM parts come on baseboards (platforms.md §0.3): MI300X only 8.
    assert GPUS["rtx-4090"].price.low_usd == 1700
    assert (GPUS["h100-sxm"].price.low_usd, GPUS["h100-sxm"].price.high_usd) == (25000, 30000)
    assert (GPUS["h100-sxm"].price_used.low_usd, GPUS["h100-sxm"].price_used.high_usd) == (22000, 25000)
    assert GPUS["h100-pcie"].price.high_usd <= GPUS["h100-sxm"].price.high_usd
    assert GPUS["rtx-3090"].price is None and (GPUS["rtx-3090"].price_used.low_usd, GPUS["rtx-3090"].price_used.high_usd) == (500, 800)
    assert GPUS["mi300x"].board == 8 and GPUS["h100-pcie"].board is None
    assert (GPUS["rtx-4090"].cloud_hourly.low_usd, GPUS["rtx-4090"].cloud_hourly.high_usd) == (0.34, 0.39)
    assert GPUS["mi300x"].cloud_hourly.low_usd == 3.45
    assert GPUS["gaudi3"].price is None and GPUS["mi325x"].cloud_hourly is None


ALIASES = [
    ("H100", "h100-sxm"),
    ("h100 80g", "h100-sxm"),
    ("H100 SXM5", "h100-sxm"),
    ("H100 PCIe", "h100-pcie"),
    ("H100 NVL", "h100-nvl"),
    ("A100", "a100-80gb-sxm"),
    ("A100 80GB", "a100-80gb-sxm"),
    ("A100 40GB", "a100-40gb-sxm"),
    ("a100-40gb-pcie", "a100-40gb-pcie"),
    ("4090", "rtx-4090"),
    ("RTX4090", "rtx-4090"),
    ("rtx 4090", "rtx-4090"),
    ("3090", "rtx-3090"),
    ("5090", "rtx-5090"),
    ("MI300", "mi300x"),
    ("mi300x", "mi300x"),
    ("L40s", "l40s"),
    ("l40S", "l40s"),
    ("V100", "v100-sxm2-16gb"),
    ("T4", "t4"),
    ("A6000", "rtx-a6000"),
    ("RTX 6000 Ada", "rtx-6000-ada"),
    ("RTX PRO 6000", "rtx-pro-6000"),
    ("Gaudi 3", "gaudi3"),
    ("NVIDIA H100 SXM5 80GB", "h100-sxm"),
]


@pytest.mark.parametrize(("typed", "gpu_id"), ALIASES)
def test_aliases_resolve(typed: str, gpu_id: str) -> None:
    found = KB.gpu(typed)
    assert found is not None and found.id == gpu_id


@pytest.mark.parametrize("typed", ["H300", "RTX 6000", "A200", ""])
def test_unknown_names_do_not_resolve(typed: str) -> None:
    assert KB.gpu(typed) is None


def test_no_alias_collides() -> None:
    owner: dict[str, str] = {}
    clashes = []
    for gid, g in GPUS.items():
        for name in {gid, g.name, *g.aliases}:
            key = normalize_name(name)
            if owner.setdefault(key, gid) != gid:
                clashes.append((name, gid, owner[key]))
    assert clashes == []
