"""Knowledge search: questions in English, Simplified and Traditional Chinese find the right entry first;
unrelated questions find nothing; script folding agrees with OpenCC; queries are fast."""

from __future__ import annotations

from pathlib import Path

import opencc
import pytest

from advisor import kb_search
from advisor.kb_search import KnowledgeIndex, fold, search, tokenize
from advisor.knowledge import KnowledgeEntry, _load_list
from advisor.paths import data_dir

# The ranking tables run on the seed and guide entries (this suite's own files), so that entries other
# files add later cannot reorder them; a few end-to-end checks below run on the whole knowledge base.
_ENTRY_DIR = data_dir("knowledge") / "entries"
OWN = KnowledgeIndex(
    entry
    for path in sorted([*_ENTRY_DIR.glob("seed-*.yaml"), _ENTRY_DIR / "guides.yaml"])
    for entry in _load_list(Path(path), KnowledgeEntry).values()
)

# (query, locale, expected first entry)
RANKING = [
    # English
    ("why ECC?", "en", "ecc-memory"),
    ("what is memory fragmentation", "en", "memory-fragmentation"),
    ("what is mixed precision", "en", "mixed-precision"),
    ("Is the H100 really 30 times faster than the A100?", "en", "h100-cost"),
    ("can I fine-tune with QLoRA on 4-bit weights", "en", "qlora"),
    ("tensor parallel over NVLink", "en", "tensor-parallel-needs-nvlink"),
    ("buy or rent", "en", "buy-vs-rent-utilization"),
    ("KV cache", "en", "kv-cache-gqa"),
    ("MoE total vs active parameters", "en", "moe-total-vs-active"),
    ("does the V100 support BF16", "en", "no-bf16-volta-turing"),
    ("what is PUE", "en", "pue"),
    ("breaker 80% continuous load", "en", "nec-80-percent"),
    ("ZeRO stage 3", "en", "zero-stages"),
    ("activation checkpointing", "en", "activation-checkpointing"),
    ("batch size larger than 128", "en", "batch-size-diminishing-returns"),
    # Simplified Chinese
    ("什么是混合精度？", "zh-Hans", "mixed-precision"),
    ("什么是显存碎片？", "zh-Hans", "memory-fragmentation"),
    ("为什么需要 ECC", "zh-Hans", "ecc-memory"),
    ("机柜功率超过30kW需要液冷吗", "zh-Hans", "liquid-cooling-density"),
    ("显存不够怎么办", "zh-Hans", "vram-shortage-effects"),
    ("MoE 显存", "zh-Hans", "moe-total-vs-active"),
    ("张量并行需要 NVLink 吗", "zh-Hans", "tensor-parallel-needs-nvlink"),
    ("买还是租", "zh-Hans", "buy-vs-rent-utilization"),
    ("什么是 PUE", "zh-Hans", "pue"),
    ("参数服务器", "zh-Hans", "parameter-server-vs-allreduce"),
    # Traditional Chinese (Taiwan wording)
    ("為什麼需要 ECC", "zh-Hant", "ecc-memory"),
    ("記憶體碎片是什麼", "zh-Hant", "memory-fragmentation"),
    ("什麼是混合精度", "zh-Hant", "mixed-precision"),
    ("張量平行需要 NVLink 嗎", "zh-Hant", "tensor-parallel-needs-nvlink"),
    ("買還是租比較划算", "zh-Hant", "buy-vs-rent-utilization"),
    ("遊戲顯示卡和工作站顯示卡差在哪", "zh-Hant", "gaming-vs-workstation"),
    ("資料平行需要完整模型嗎", "zh-Hant", "data-parallel-full-copy"),
    ("推論時 KV 快取", "zh-Hant", "kv-cache-gqa"),
]


@pytest.mark.parametrize(("query", "locale", "expected"), RANKING)
def test_the_right_entry_comes_first(query: str, locale: str, expected: str) -> None:
    hits = OWN.search(query, 3)
    assert hits, f"no result for {query!r}"
    assert hits[0][0].id == expected, [(e.id, s) for e, s in hits]


@pytest.mark.parametrize(
    ("query", "locale", "expected"),
    [
        ("什么是混合精度？", "zh-Hans", "mixed-precision"),
        ("為什麼需要 ECC", "zh-Hant", "ecc-memory"),
        ("why ECC?", "en", "ecc-memory"),
        ("what is memory fragmentation", "en", "memory-fragmentation"),
        ("什么是显存碎片？", "zh-Hans", "memory-fragmentation"),
    ],
)
def test_search_on_the_whole_knowledge_base(query: str, locale: str, expected: str) -> None:
    hits = search(query, locale)  # type: ignore[arg-type]
    assert hits and hits[0][0].id == expected, [(e.id, s) for e, s in hits]


@pytest.mark.parametrize(
    "query",
    [
        "what is the weather in Paris",
        "best pizza recipe",
        "stock market prediction",
        "今天天气怎么样",
        "如何做红烧肉",
        "我想学英语",
        "今天吃什麼",
        "hello",
        "什么是 GPU",  # "GPU" is in most entries: nothing in particular answers it
        "",
        "   ？？？  ",
    ],
)
def test_nothing_relevant_gives_nothing(query: str) -> None:
    assert OWN.search(query, 3) == []
    assert search(query, "en") == []


def test_results_are_sorted_and_limited() -> None:
    hits = search("cooling", "en", k=2)
    assert 1 <= len(hits) <= 2
    scores = [s for _, s in hits]
    assert scores == sorted(scores, reverse=True)
    assert search("cooling", "en", k=0) == []


def test_the_same_question_in_three_languages_agrees() -> None:
    for questions, expected in [
        (("What is memory fragmentation?", "什么是显存碎片？", "什麼是記憶體碎片？"), "memory-fragmentation"),
        (("Why do I need ECC?", "为什么需要 ECC？", "為什麼需要 ECC？"), "ecc-memory"),
        (("What is QLoRA?", "什么是 QLoRA？", "什麼是 QLoRA？"), "qlora"),
    ]:
        assert {OWN.search(q, 1)[0][0].id for q in questions} == {expected}


def test_unknown_locale_is_refused() -> None:
    with pytest.raises(ValueError):
        search("ECC", "fr")  # type: ignore[arg-type]


def test_folding_joins_traditional_and_simplified() -> None:
    assert fold("顯存碎片") == "显存碎片"
    assert fold("記憶體頻寬") == "内存带宽"
    assert fold("推論叢集") == "推理集群"
    assert tokenize("顯存") == tokenize("显存")


def test_a_traditional_only_text_is_found_from_simplified() -> None:
    entry = KnowledgeEntry.model_validate({
        "id": "only-hant", "source": "test",
        "title": {"en": "x", "zh-Hans": "甲", "zh-Hant": "乙"},
        "text": {"en": "y", "zh-Hans": "丙", "zh-Hant": "訓練時顯存碎片"},
    })
    other = KnowledgeEntry.model_validate({
        "id": "other", "source": "test",
        "title": {"en": "cooling", "zh-Hans": "散热", "zh-Hant": "散熱"},
        "text": {"en": "air", "zh-Hans": "风冷", "zh-Hant": "氣冷"},
    })
    index = KnowledgeIndex([entry, other])
    assert [e.id for e, _ in index.search("显存碎片")] == ["only-hant"]


def test_fold_table_agrees_with_opencc() -> None:
    # The embedded Traditional -> Simplified pairs were generated with OpenCC; check every one still agrees.
    tw2s, t2s = opencc.OpenCC("tw2s"), opencc.OpenCC("t2s")
    pairs = kb_search._FOLD_PAIRS.split()
    assert len(pairs) > 300
    bad = [p for p in pairs if p[1] not in (tw2s.convert(p[0]), t2s.convert(p[0]))]
    assert bad == []

