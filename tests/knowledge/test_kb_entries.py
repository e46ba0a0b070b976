"""The knowledge entries: the whole base loads, the seed article is covered claim by claim, marketing figures
carry sourced corrections, and a broken file is reported by file and entry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from advisor.knowledge import KnowledgeError, knowledge, load_knowledge
from advisor.paths import data_dir

KB = knowledge()
ENTRIES = KB.entries
KNOWLEDGE_DIR = data_dir("knowledge")

# One id per topic the brief lists for the seed article; the rules cite these.
SEED_TOPICS = {
    "vram-components": "VRAM components",
    "batch-size-memory": "batch size scaling",
    "batch-size-12gb": "12 GB -> batch 8-16",
    "batch-size-diminishing-returns": "diminishing returns beyond 128",
    "mixed-precision": "precision",
    "fp8-and-attention-kernels": "FP8",
    "tensor-cores": "Tensor Cores, Transformer Engine",
    "hbm-bandwidth": "bandwidth and HBM",
    "nvlink-multi-gpu": "NVLink and multi-GPU",
    "data-parallel-full-copy": "data parallelism needs a full copy",
    "parameter-server-vs-allreduce": "parameter servers vs all-reduce",
    "memory-fragmentation": "memory fragmentation",
    "gpu-monitoring": "monitoring",
    "gpu-power-draw": "350-700 W",
    "rack-power-circuits": "208-240 V, 30-60 A",
    "cooling-overhead": "cooling +30-40 %",
    "liquid-cooling-density": ">30 kW liquid",
    "gaming-vs-workstation": "gaming vs workstation",
    "ecc-memory": "ECC",
    "a100-cost": "A100 cost",
    "h100-cost": "H100 cost",
    "rtx-4090-value": "RTX 4090 cost",
    "mi300-option": "MI300",
    "hybrid-cloud-onprem": "hybrid cloud and on-prem",
    "start-small-scale-out": "scalability planning",
    "vram-entry-points": "16 GB / 24 GB",
}

GUIDE_TOPICS = {
    "nec-80-percent", "air-cooling-limit", "pue", "buy-vs-rent-utilization", "memory-entry-points",
    "consumer-cards-small-models", "moe-total-vs-active", "zero-stages", "lora", "qlora", "kv-cache-gqa",
    "activation-checkpointing", "tensor-parallel-needs-nvlink", "multi-node-networking", "no-bf16-volta-turing",
    "fp8-hardware", "quantized-serving",
}


def test_the_whole_knowledge_base_loads() -> None:
    kb = load_knowledge(KNOWLEDGE_DIR)
    assert len(kb.entries) >= 60
    assert len(kb.gpus) >= 25


def test_seed_topics_are_all_covered() -> None:
    missing = sorted(set(SEED_TOPICS) - set(ENTRIES))
    assert missing == []


def test_guide_topics_are_all_covered() -> None:
    assert sorted(GUIDE_TOPICS - set(ENTRIES)) == []


def _ids_in(pattern: str) -> dict[str, str]:
    out = {}
    for path in sorted((KNOWLEDGE_DIR / "entries").glob(pattern)):
        for item in yaml.safe_load(path.read_text(encoding="utf-8")):
            out[item["id"]] = path.name
    return out


def test_seed_entries_cite_the_seed_and_guides_cite_a_reference() -> None:
    seed = _ids_in("seed-*.yaml")
    guides = _ids_in("guides.yaml")
    assert len(seed) >= 40 and len(guides) >= 25
    assert "vram-components" in seed  # the placeholder's id, cited by rules
    for ident in seed:
        assert ENTRIES[ident].source.startswith("seed article"), ident
    for ident in guides:
        assert any(ref in ENTRIES[ident].source for ref in ("advisory-anchors.md", "gpu-catalogue.md", "numeric-anchors.md")), ident


def test_seed_figures_are_kept_verbatim() -> None:
    # Figures the seed article states (../shared/seeds/000_*): 12 GB -> batch 8 or 16; returns drop beyond 128;
    # 350-700 W per card; 208-240 V, 30-60 A; cooling +30-40%; >30 kW per rack; 16 GB start, 24 GB serious.
    checks = {
        "batch-size-12gb": ("12", "8", "16"),
        "batch-size-diminishing-returns": ("128",),
        "gpu-power-draw": ("350", "700"),
        "rack-power-circuits": ("208", "240", "30", "60"),
        "cooling-overhead": ("30", "40"),
        "liquid-cooling-density": ("30",),
        "vram-entry-points": ("16", "24"),
    }
    for ident, figures in checks.items():
        for locale in ("en", "zh-Hans", "zh-Hant"):
            text = ENTRIES[ident].text.get(locale)
            for figure in figures:
                assert figure in text, (ident, locale, figure)


def test_marketing_claims_carry_sourced_corrections() -> None:
    # gpu-catalogue.md §5: "30x" is a vendor headline; dense BF16 989 vs 312 = 3.2x, achievable 794.5 vs 271.2 = 2.9x.
    h100 = ENTRIES["h100-cost"]
    assert h100.correction is not None
    for locale in ("en", "zh-Hans", "zh-Hant"):
        text = h100.correction.get(locale)
        assert "989" in text and "312" in text and "3.2" in text and "2.9" in text, locale
    # RTX 4090: $1,600-2,749 vs ~$30k is 5-9% (gpu-catalogue.md §5), not "< 20%".
    assert "5-9%" in ENTRIES["rtx-4090-value"].correction.en
    # AMD "lacks Tensor-Core-like acceleration": MI300X 192 GB, 1,300 dense BF16 (gpu-catalogue.md §2).
    amd = ENTRIES["amd-instinct-approach"].correction
    assert amd is not None and "192" in amd.en and "1,300" in amd.en
    # 700 W / 400 W are the SXM figures; PCIe is 300-350 / 250-300 W (gpu-catalogue.md §3, §5).
    assert "300-350" in ENTRIES["gpu-power-draw"].correction.en


def test_chinese_texts_follow_their_seed_versions() -> None:
    # zh-Hans from the mainland text, zh-Hant from the Taiwan text: their key terms differ.
    frag = ENTRIES["memory-fragmentation"]
    assert "显存" in frag.text.zh_Hans and "并行" in frag.text.zh_Hans
    assert "記憶體碎片" in frag.text.zh_Hant and "平行" in frag.text.zh_Hant
    assert "啟動值" in ENTRIES["vram-components"].text.zh_Hant  # the Taiwan seed's word for activations


def _copy_knowledge(tmp_path: Path) -> Path:
    root = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, root)
    return root


def test_a_broken_entry_is_reported_by_file_and_id(tmp_path: Path) -> None:
    root = _copy_knowledge(tmp_path)
    path = root / "entries" / "seed-memory.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    target = next(item for item in data if item["id"] == "memory-fragmentation")
    del target["text"]["zh-Hant"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(KnowledgeError) as info:
        load_knowledge(root)
    assert info.value.file.endswith("seed-memory.yaml")
    assert info.value.entry == "memory-fragmentation"
    assert "zh-Hant" in info.value.problem


def test_a_broken_gpu_is_reported_by_file_and_id(tmp_path: Path) -> None:
    root = _copy_knowledge(tmp_path)
    path = root / "gpus.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    next(g for g in data if g["id"] == "rtx-4090")["tdp_w"] = -450
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(KnowledgeError) as info:
        load_knowledge(root)
    assert info.value.file.endswith("gpus.yaml") and info.value.entry == "rtx-4090"
    assert "tdp_w" in info.value.problem


def test_a_duplicate_id_across_entry_files_is_reported(tmp_path: Path) -> None:
    root = _copy_knowledge(tmp_path)
    extra = [{
        "id": "ecc-memory", "title": {"en": "x", "zh-Hans": "x", "zh-Hant": "x"},
        "text": {"en": "x", "zh-Hans": "x", "zh-Hant": "x"}, "source": "test",
    }]
    (root / "entries" / "zz-extra.yaml").write_text(yaml.safe_dump(extra), encoding="utf-8")
    with pytest.raises(KnowledgeError) as info:
        load_knowledge(root)
    assert info.value.entry == "ecc-memory" and "duplicate" in info.value.problem


def test_invalid_yaml_is_reported_by_file(tmp_path: Path) -> None:
    root = _copy_knowledge(tmp_path)
    (root / "entries" / "guides.yaml").write_text("- id: [unclosed\n", encoding="utf-8")
    with pytest.raises(KnowledgeError) as info:
        load_knowledge(root)
    assert info.value.file.endswith("guides.yaml") and "YAML" in info.value.problem
