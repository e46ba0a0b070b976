"""One word per concept in each Chinese locale: a small glossary, checked against every zh-Hans and zh-Hant text.

Why: shared/reference/zh-review.md (issue #14) found zh-Hant mixing 顯存 and 記憶體 for the same GPU memory,
mainland words left in the Taiwan text (同時在線, 並發, 啟用參數, 擴容, 依託 ...), two words for one thing
(適配器/轉接器, 密集/稠密, 推薦/建議) and calques (零頭, 嚴肅專案, 續跑, 步时). scriptcheck.py already rejects
wrong-script characters and the classic regional pairs (數據, 軟件, 內存 ...; 软体, 记忆体 ...); this glossary
adds the words the review fixed, so that a new or edited string cannot bring them back.

Each row names a concept, the one word zh-Hans uses, the one word zh-Hant uses, and the variants rejected in
each locale (the other region's word, in either script, and the calques). Rejected variants are regular
expressions so that right words containing them stay legal: 密集 is rejected but 記憶體密集型 is not,
推薦 is rejected in the app's own voice but not in the user's example question 為什麼不推薦 4090？, 命令 is
rejected but 命令選擇區 (the command palette, as VS Code zh-TW calls it) is not. Words that are right in one
sense stay out of the table: 資料 in zh-Hans means "sources" (保守的资料), 内存 in zh-Hans means system RAM
(CPU 内存, 内存墙), and 記憶體 in zh-Hant is both (系統記憶體, GPU 記憶體); only their GPU-memory misuses are
listed. 並行 is rejected in zh-Hant because concurrency there is written 同時 (同時上線使用者, 同時處理的序列),
which leaves 平行 as the only word for "parallel".

A failure names the file, the key path, the locale, the variant and the whole text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from advisor.knowledge import load_knowledge
from advisor.paths import data_dir

from scriptcheck import LocalizedText, localized_texts

ROOT = data_dir("knowledge").parent
TEXTS = localized_texts(ROOT)  # every localized mapping in knowledge/ (ui, findings, entries, catalogues) and rules/
ZH = ("zh-Hans", "zh-Hant")


@dataclass(frozen=True)
class Term:
    """A concept, the one word each locale writes for it, and the variants each locale must not use."""

    concept: str
    hans: str | None  # the zh-Hans word (a literal that occurs in the zh-Hans texts), None for "no single word"
    hant: str | None  # the zh-Hant word, likewise
    not_hans: tuple[str, ...] = ()  # regular expressions rejected in zh-Hans
    not_hant: tuple[str, ...] = ()  # regular expressions rejected in zh-Hant


GLOSSARY: tuple[Term, ...] = (
    # -- core vocabulary (DESIGN.md conventions; zh-review.md §2.1, §3)
    Term("GPU memory (VRAM)", "显存", "GPU 記憶體",
         ("记忆体", "記憶體", r"(?:GPU|显卡|板载的?) ?内存", "内存碎片"), ("顯存", "显存")),
    Term("bandwidth", "带宽", "頻寬", ("频宽", "頻寬"), ("帶寬", "带宽")),
    Term("inference", "推理", "推論", ("推论", "推論"), ("推理",)),
    Term("data", "数据", "資料", ("資料",), ("數據", "数据")),
    Term("cluster", "集群", "叢集", ("丛集", "叢集"), ("集群",)),
    Term("parallel (data/tensor/pipeline parallelism)", "并行", "平行", ("平行",), ("并行", "並行")),
    Term("concurrent users / sequences", "并发", "同時", (),
         ("並發", "并发", "併發", r"在線(?!上)", "在线")),
    Term("software", "软件", "軟體", ("软体", "軟體"), ("軟件", "软件")),
    Term("default", "默认", "預設", ("预设", "預設"), ("默認", "默认")),
    Term("support", "支持", "支援", ("支援",), ("支持",)),
    Term("server", "服务器", "伺服器", ("伺服器",), ("服務器", "服务器")),
    Term("performance", "性能", "效能", ("效能",), ("性能",)),
    Term("optimizer / optimize", "优化器", "最佳化器", ("最佳化",), ("優化", "优化")),
    Term("activations", "激活值", "啟動值", ("启动值", "啟動值"), ("激活",)),
    Term("active parameters (MoE)", "激活参数", "活躍參數", ("活跃参数", "活躍參數"), ("啟用參數", "激活參數")),
    Term("adapter (LoRA)", "适配器", "轉接器", ("转接器", "轉接器"), ("適配器", "适配器")),
    Term("dense (FLOPS)", "稠密", "稠密", (r"密集(?!型)",), (r"密集(?!型)",)),
    Term("network", "网络", "網路", ("网路", "網路"), ("網絡", "网络")),
    Term("cache", "缓存", "快取", ("快取",), ("緩存", "缓存")),
    Term("byte", "字节", "位元組", ("位元组", "位元組"), ("字節", "字节")),
    Term("communication (collectives)", "通信", "通訊", ("通讯", "通訊"), ("通信",)),
    Term("interconnect", "互连", "互連", ("互联",), ("互聯",)),
    Term("cloud (where it runs)", "云端", "雲端", ("云上",), ("雲上",)),
    Term("base model", "基础模型", "基礎模型", ("基座",), ("基座",)),
    Term("batch", "批量", "批次", ("微批次", "批大小"), ("批量",)),
    Term("electricity price unit", "美元/度", "美元/度", ("美元/千瓦时",), ("美元/千瓦時",)),
    Term("NVIDIA", "NVIDIA", "NVIDIA", ("英伟达", "英偉達"), ("輝達", "辉达")),
    # -- the app's own voice (zh-review.md §2.3)
    Term("recommend / recommendation", "推荐", "建議", (), (r"(?<!不)推薦", "推荐")),
    Term("command", "命令", "指令", ("指令",), (r"命令(?!選擇區)",)),
    Term("occupy (占用, 占去)", "占", "占", (), ("佔",)),
    # -- mainland words the review found in zh-Hant (zh-review.md §2.2)
    Term("scale out / scalability", "扩展", "擴充", (), ("擴展", "擴容", "扩展", "扩容")),
    Term("full-parameter training", "全参数", "全參數", (), ("全量",)),
    Term("choosing hardware", "选型", "選購", (), ("選型", "选型")),
    Term("sequential processing", "顺序处理", "循序處理", (), ("序列處理",)),
    Term("rely on", "依赖", "仰賴", (), ("依託", "依托")),
    Term("realize value (buzzword 落地)", None, "實現價值", (), ("落地",)),
    Term("provide", "给出", "提供", (), ("給出",)),
    Term("match / fit", "匹配", "符合", (), ("匹配",)),
    Term("NVLink domain", "NVLink 域", "互連範圍", (), ("網域",)),
    Term("exceed a limit", "超出", "超出", (r"突破了?(?:一项|的)限制", "它突破"), ("超標",)),
    # -- calques (zh-review.md §2.4, §3)
    Term("a fraction of the price", "几分之一", "幾分之一", ("零头",), ("零頭",)),
    Term("serious work", "正式", "正式專案", ("严肃",), ("嚴肅",)),
    Term("resume from a checkpoint", "恢复", "從檢查點恢復", ("续跑",), ("續跑",)),
    Term("step time", "每一步", "每一步", ("步时",), ("步時",)),
    Term("rank N among the recommendations", "排在推荐的第", "順位", (r"第 ?\{rank\} ?推荐",),
         (r"第 ?\{rank\} ?推薦", "排名較後")),
    Term("cloud rental price", "云端租用价格", "雲端租用價格", ("云租价", "云端租价"), ("雲端租價", "雲租價")),
    Term("silent (memory) error", "静默", "未被察覺", (), ("無聲的",)),
)

_COMPILED = {
    loc: [(term, re.compile(p)) for term in GLOSSARY for p in (term.not_hans if loc == "zh-Hans" else term.not_hant)]
    for loc in ZH
}


def glossary_problems(item: LocalizedText) -> list[str]:
    """'file: key [locale]: variant — why: text' for every rejected variant in one localized mapping."""
    out = []
    for loc in ZH:
        text = item.value.get(loc)
        if not isinstance(text, str):
            continue
        for term, pattern in _COMPILED[loc]:
            for m in pattern.finditer(text):
                word = term.hans if loc == "zh-Hans" else term.hant
                use = f" (use {word})" if word else ""
                out.append(f"{item.file}: {item.where} [{loc}]: {m.group(0)!r} is not the {loc} word for "
                           f"{term.concept!r}{use}: {text}")
    return out


@pytest.mark.parametrize("path", sorted({t.file for t in TEXTS}), ids=str)
def test_every_chinese_text_uses_its_locales_word(path: Path) -> None:
    found = [p for item in TEXTS if item.file == path for p in glossary_problems(item)]
    assert found == [], "\n" + "\n".join(found)


def test_the_scan_sees_every_text_the_loader_loads() -> None:
    # The project's own loader decides what the app shows: every UI key, finding and knowledge entry must be
    # among the scanned texts, with the same words.
    kb = load_knowledge()
    scanned = {(str(t.file), t.where): t.value for t in TEXTS}
    ui = {where: v for (file, where), v in scanned.items() if file.startswith("knowledge/ui/")}
    assert set(ui) == set(kb.ui)
    for key, words in kb.ui.items():
        assert all(ui[key][loc] == words.get(loc) for loc in ZH), key
    by_id = re.compile(r"^\[\d+:(?P<id>[^\]]+)\]\.(?P<field>title|text|correction)$")
    findings, entries = set(), set()
    for (file, where), value in scanned.items():
        m = by_id.match(where)
        if file == "knowledge/findings.yaml" and m:
            findings.add(m["id"])
            assert value["zh-Hant"] == getattr(kb.findings[m["id"]], m["field"]).get("zh-Hant")
        elif file.startswith("knowledge/entries/") and m:
            entries.add(m["id"])
            assert value["zh-Hans"] == getattr(kb.entries[m["id"]], m["field"]).get("zh-Hans")
    assert findings == set(kb.findings) and entries == set(kb.entries)


@pytest.mark.parametrize("term", GLOSSARY, ids=lambda t: t.concept)
def test_each_glossary_word_is_the_one_in_use_and_is_not_rejected(term: Term) -> None:
    for loc, word in (("zh-Hans", term.hans), ("zh-Hant", term.hant)):
        if word is None:
            continue
        # the chosen word is really used somewhere, so the table describes the texts rather than a wish ...
        assert any(word in (t.value.get(loc) or "") for t in TEXTS), f"{term.concept}: {word!r} unused in {loc}"
        # ... and no row of the glossary rejects it in its own locale
        clash = [p.pattern for _, p in _COMPILED[loc] if p.search(word)]
        assert clash == [], f"{term.concept}: the {loc} word {word!r} is rejected by {clash}"


def _check(value: dict[str, str]) -> list[str]:
    return glossary_problems(LocalizedText(Path("knowledge/x.yaml"), "k.x", {"en": "x", **value}))


def test_the_glossary_catches_the_other_regions_words() -> None:
    found = _check({"zh-Hans": "記憶體不足时改用推論服务", "zh-Hant": "顯存不足時，200 位同時在線使用者"})
    assert len(found) == 4 and all(p.startswith("knowledge/x.yaml: k.x [") for p in found)
    assert any("[zh-Hans]: '記憶體'" in p for p in found) and any("[zh-Hans]: '推論'" in p for p in found)
    assert any("[zh-Hant]: '顯存'" in p and "(use GPU 記憶體)" in p for p in found)
    assert any("[zh-Hant]: '在線'" in p for p in found)
    assert _check({"zh-Hant": "速度看啟用參數，LoRA 適配器，密集算力", "zh-Hans": "它突破的限制，零头的价格"}) != []


def test_the_glossary_leaves_the_right_words_alone() -> None:
    # 資料中心 and 記憶體 (also system RAM) are Taiwan words; 内存 is the mainland word for system RAM;
    # 密集型, the user's 為什麼不推薦…？ and 命令選擇區 are allowed; 線上 is "online", not 在線.
    assert _check({
        "zh-Hans": "资料来源未提供；CPU 内存与内存墙；显存密集型工作负载；为什么不推荐 4090？",
        "zh-Hant": "資料中心級 GPU 與系統記憶體；記憶體密集型工作負載；為什麼不推薦 4090？；命令選擇區；在線上購買",
    }) == []


_PERCENT = re.compile(r"[\d}] %")
_UNIT = re.compile(r"(?<![\w.])\d[\d,.–]*(?:W|kW|V|A)(?![\w-])")
# *380V/32A 三相* is what a user may type, written the way users type it (**bold** is skipped first).
_EXAMPLE = re.compile(r"\*\*[^*]+\*\*|\*[^*]+\*")


@pytest.mark.parametrize("loc", ZH)
def test_percent_and_units_are_set_the_chinese_way(loc: str) -> None:
    # zh-review.md §6 rows 39-40: "51%", not "51 %"; "700 W", not "700W" (outside *examples*).
    bad = []
    for t in TEXTS:
        text = t.value.get(loc)
        if isinstance(text, str):
            prose = _EXAMPLE.sub("", text)
            bad += [f"{t.file}: {t.where} [{loc}]: {m.group(0)!r}: {text}"
                    for pat in (_PERCENT, _UNIT) for m in pat.finditer(prose)]
    assert bad == [], "\n" + "\n".join(bad)
