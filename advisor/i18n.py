"""Languages: the message catalogue (`knowledge/ui/*.yaml`) and language detection from what users type.

`t(key, locale, **values)` formats a UI string in one of the three locales. `detect_language`
tells English from Chinese, and Simplified from Traditional by characters that exist in only one
of the two scripts; text with no such character keeps the caller's current Chinese locale.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.models import LOCALES, Locale

# Characters that occur only in one script. Common, unambiguous pairs (simplified, traditional).
_PAIRS = (
    "这這 个個 们們 为為 么麼 时時 问問 题題 现現 显顯 计計 训訓 练練 数數 据據 参參 预預 "
    "样樣 张張 条條 轮輪 亿億 万萬 两兩 千千 发發 并並 线線 机機 柜櫃 风風 电電 价價 钱錢 币幣 "
    "湾灣 图圖 书書 读讀 说說 话話 请請 还還 没沒 为為 会會 从從 头頭 开開 关關 应應 该該 "
    "买買 卖賣 租租 选選 择擇 推推 荐薦 内內 存存 带帶 宽寬 务務 网網 络絡 边邊 试試 验驗 "
    "进進 运運 转轉 换換 帮幫 吗嗎 谢謝 么麼 级級 类類 优優 质質 实實 际際 压壓 热熱 冷冷 "
    "国國 东東 长長 门門 间間 对對 个個 们們 双雙 单單 卡卡 显顯 资資 讯訊 软軟 硬硬 体體 "
    "议議 节節 约約 总總 结結 论論 报報 告告 载載 缓緩 储儲 读讀 写寫 调調 华華 为為 "
)


def _build_sets() -> tuple[frozenset[str], frozenset[str]]:
    simp, trad = set(), set()
    for pair in _PAIRS.split():
        s, t = pair[0], pair[1]
        if s != t:
            simp.add(s)
            trad.add(t)
    # A character present in both sets (e.g. 台 is used in both scripts) is not evidence.
    both = simp & trad
    return frozenset(simp - both), frozenset(trad - both)


SIMPLIFIED_ONLY, TRADITIONAL_ONLY = _build_sets()
_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def detect_language(text: str, current: Locale = "en") -> Locale | None:
    """The locale `text` is written in, or None when it carries no signal (numbers, a slash command).

    Any Han character makes it Chinese ("LoRA 微調" is Chinese). Simplified vs Traditional is decided
    by script-only characters; without any, the current Chinese locale is kept (zh-Hans if none).
    """
    if not text or text.lstrip().startswith("/"):
        return None
    if _HAN.search(text):
        simp = sum(1 for ch in text if ch in SIMPLIFIED_ONLY)
        trad = sum(1 for ch in text if ch in TRADITIONAL_ONLY)
        if trad > simp:
            return "zh-Hant"
        if simp > trad:
            return "zh-Hans"
        return current if current != "en" else "zh-Hans"
    if _LATIN_WORD.search(text):
        return "en"
    return None


def t(key: str, locale: Locale, **values: Any) -> str:
    """The UI string `key` in `locale`, with `{name}` placeholders filled from `values`."""
    from advisor.knowledge import knowledge

    entry = knowledge().ui.get(key)
    if entry is None:
        raise KeyError(f"UI string {key!r} is missing from knowledge/ui/")
    text = entry.get(locale)
    return text.format(**values) if values else text


def normalize_locale(value: str) -> Locale | None:
    """Accept en, zh-Hans, zh-Hant and common spellings (zh-CN, zh_TW, 简体, 繁體, 中文...)."""
    v = value.strip().lower().replace("_", "-")
    table = {
        "en": "en", "english": "en", "英文": "en", "英语": "en", "英語": "en",
        "zh-hans": "zh-Hans", "zh-cn": "zh-Hans", "zh": "zh-Hans", "cn": "zh-Hans", "简体": "zh-Hans",
        "简体中文": "zh-Hans", "中文": "zh-Hans", "简中": "zh-Hans",
        "zh-hant": "zh-Hant", "zh-tw": "zh-Hant", "tw": "zh-Hant", "繁體": "zh-Hant", "繁体": "zh-Hant",
        "繁體中文": "zh-Hant", "繁中": "zh-Hant",
    }
    found = table.get(v)
    return found if found in LOCALES else None  # type: ignore[return-value]
