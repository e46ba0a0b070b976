"""Script and vocabulary checks for every trilingual text in `knowledge/` and `rules/`.

Why: DESIGN.md promises Traditional text written for Taiwan readers and Simplified text for the
mainland, and every human-facing string in three languages. Converters and hurried edits break that
silently (a 数 in zh-Hant, a 軟件 where Taiwan says 軟體, a missing zh-Hant), so these helpers walk
every YAML file, find each localized mapping ({en, zh-Hans, zh-Hant}) wherever it is nested, and
report file, key path and the offending characters or words.

Characters are classified with OpenCC (the `opencc` wheel), using its Taiwan-standard tables so that
峰 and 吃 (Taiwan standard; OpenCC's generic s2t prefers 峯 and 喫) pass: c is Simplified-only when
s2tw changes it and tw2s leaves it; Traditional-only when t2s (or tw2s) changes it and s2t (or s2tw)
leaves it. OpenCC converts some characters that are also correct Traditional (后 in 皇后, 台 in 台灣,
里 in 公里, 干 in 干擾 ...); those are listed in `HANT_ALLOWED` / `HANS_ALLOWED`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import opencc
import yaml

LANG_KEYS = ("en", "zh-Hans", "zh-Hant")

# Characters OpenCC's s2t rewrites but which are themselves standard Traditional (Taiwan MOE) in
# common words, so zh-Hant may contain them: 皇后, 公里, 台灣/平台, 干擾, 范(姓), 准許, 北斗, 茶几,
# 征服, 呼吁, 余(姓), 朴(姓), 丑(地支), 咸(皆), 游泳, 采(姓), 占卜/占用, 云云, 于(姓), 划船, 凶手,
# 岩石, 淀(淺水), 尸(尸位), 丰(丰采), 党(党項), 叶(叶韻), 冲(冲淡).
HANT_ALLOWED = frozenset("后里台干范准斗几征吁余朴丑咸游采占云于划凶岩淀尸丰党叶冲")
# Characters OpenCC rewrites towards Simplified but which are standard Simplified in some words: 乾坤, 显著/著名.
HANS_ALLOWED = frozenset("乾著")

# Mainland-only words that Taiwan writes differently (advisory-anchors.md §6; OpenCC TWPhrases).
HANT_FORBIDDEN_WORDS = {
    "數據": "資料",
    "質量": "品質",
    "軟件": "軟體",
    "硬件": "硬體",
    "默認": "預設",
    "支持": "支援",
    "網絡": "網路",
    "信息": "資訊",
    "視頻": "影片/視訊",
    "內存": "記憶體",
    "帶寬": "頻寬",
    "集群": "叢集",
    "服務器": "伺服器",
    "芯片": "晶片",
    "緩存": "快取",
    "推理": "推論",
    "顯卡": "顯示卡",
    "分佈式": "分散式",
    "程序員": "程式設計師",
    "字節": "位元組",
    "以太網": "乙太網路",
    "兼容": "相容",
    "調用": "呼叫",
}
# Taiwan-only words in Simplified characters that a mainland reader would not use.
HANS_FORBIDDEN_WORDS = {
    "软体": "软件",
    "硬体": "硬件",
    "记忆体": "内存/显存",
    "频宽": "带宽",
    "丛集": "集群",
    "预设": "默认",
    "网路": "网络",
    "资讯": "信息",
    "伺服器": "服务器",
    "晶片": "芯片",
    "快取": "缓存",
    "位元组": "字节",
    "显示卡": "显卡",
}

_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:[:!][^{}]*)?\}(?!\})")


@functools.lru_cache(maxsize=1)
def _converters() -> dict[str, Any]:
    return {name: opencc.OpenCC(name) for name in ("s2t", "t2s", "s2tw", "tw2s")}


@functools.lru_cache(maxsize=None)
def char_script(ch: str) -> str:
    """'simplified', 'traditional' or 'both' for one Han character, by OpenCC's character tables."""
    cv = {name: conv.convert(ch) for name, conv in _converters().items()}
    if cv["s2tw"] != ch and cv["tw2s"] == ch:
        return "simplified"
    if (cv["t2s"] != ch and cv["s2t"] == ch) or (cv["tw2s"] != ch and cv["s2tw"] == ch):
        return "traditional"
    return "both"


def simplified_only_chars(text: str) -> list[str]:
    """Characters of `text` that exist only in Simplified script (allowed exceptions removed)."""
    return sorted({c for c in text if _HAN.match(c) and c not in HANT_ALLOWED and char_script(c) == "simplified"})


def traditional_only_chars(text: str) -> list[str]:
    """Characters of `text` that exist only in Traditional script (allowed exceptions removed)."""
    return sorted({c for c in text if _HAN.match(c) and c not in HANS_ALLOWED and char_script(c) == "traditional"})


def forbidden_words(text: str, table: dict[str, str]) -> list[str]:
    """'word (use X)' for every forbidden word found in `text`."""
    return [f"{word} (use {better})" for word, better in table.items() if word in text]


def placeholders(text: str) -> set[str]:
    """The `{name}` format placeholders in `text` (doubled braces are literal)."""
    return set(_PLACEHOLDER.findall(text))


@dataclass(frozen=True)
class LocalizedText:
    """One localized mapping found in a YAML file."""

    file: Path
    where: str
    value: dict[str, Any]


def _label(item: Any, index: int) -> str:
    if isinstance(item, dict):
        for key in ("id", "key", "name"):
            if isinstance(item.get(key), str):
                return f"[{index}:{item[key]}]"
    return f"[{index}]"


def _walk(node: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        if any(k in node for k in LANG_KEYS):
            yield where, node
            return
        for key, value in node.items():
            yield from _walk(value, f"{where}.{key}" if where else str(key))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _walk(item, f"{where}{_label(item, index)}")


def localized_texts(root: Path, folders: tuple[str, ...] = ("knowledge", "rules")) -> list[LocalizedText]:
    """Every localized mapping in every YAML file under `root/<folder>` (recursively)."""
    found: list[LocalizedText] = []
    for folder in folders:
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted([*base.rglob("*.yaml"), *base.rglob("*.yml")]):
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            for where, value in _walk(data, ""):
                found.append(LocalizedText(path.relative_to(root), where or "(top)", value))
    return found


def problems(item: LocalizedText) -> list[str]:
    """Every problem with one localized mapping, each naming file, key path and the offence."""
    out: list[str] = []
    head = f"{item.file}: {item.where}"
    missing = [k for k in LANG_KEYS if not isinstance(item.value.get(k), str) or not item.value.get(k, "").strip()]
    if missing:
        out.append(f"{head}: missing or empty language(s) {missing}")
    hans = item.value.get("zh-Hans") if isinstance(item.value.get("zh-Hans"), str) else ""
    hant = item.value.get("zh-Hant") if isinstance(item.value.get("zh-Hant"), str) else ""
    if bad := simplified_only_chars(hant):
        out.append(f"{head}: zh-Hant has Simplified-only characters {''.join(bad)!r}")
    if bad := traditional_only_chars(hans):
        out.append(f"{head}: zh-Hans has Traditional-only characters {''.join(bad)!r}")
    if bad := forbidden_words(hant, HANT_FORBIDDEN_WORDS):
        out.append(f"{head}: zh-Hant uses mainland vocabulary: {', '.join(bad)}")
    if bad := forbidden_words(hans, HANS_FORBIDDEN_WORDS):
        out.append(f"{head}: zh-Hans uses Taiwan vocabulary: {', '.join(bad)}")
    texts = {k: item.value[k] for k in LANG_KEYS if isinstance(item.value.get(k), str)}
    if len(texts) == 3:
        sets = {k: placeholders(v) for k, v in texts.items()}
        if len({frozenset(s) for s in sets.values()}) > 1:
            out.append(f"{head}: placeholders differ between languages {sets}")
    return out
