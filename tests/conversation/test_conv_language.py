"""Language detection (advisor.i18n.detect_language): English vs Chinese, Simplified vs Traditional, and
no switch for messages made only of names, units and numbers."""

from __future__ import annotations

import pytest

from advisor.i18n import SIMPLIFIED_ONLY, TRADITIONAL_ONLY, detect_language

CASES = [
    # (text, current locale, expected)
    ("我想用 LoRA 微调 Mistral 7B", "en", "zh-Hans"),
    ("我們想用 LoRA 微調 Llama 3 8B", "en", "zh-Hant"),
    ("什么是显存碎片？", "zh-Hant", "zh-Hans"),
    ("什麼是顯存碎片？", "zh-Hans", "zh-Hant"),
    ("預算新台幣 100 萬", "zh-Hans", "zh-Hant"),
    ("两周内", "zh-Hant", "zh-Hans"),
    ("兩週內", "zh-Hans", "zh-Hant"),
    ("推論", "zh-Hans", "zh-Hant"),            # Taiwan word, characters shared by both scripts
    ("资料", "zh-Hant", "zh-Hans"),
    ("好", "zh-Hant", "zh-Hant"),              # no evidence either way: keep the current Chinese
    ("好", "en", "zh-Hans"),
    ("LoRA 微調", "en", "zh-Hant"),
    ("Serve Llama 3 70B to 500 users", "zh-Hans", "en"),
    ("what if the budget doubles?", "zh-Hant", "en"),
    ("why ECC?", "zh-Hans", "en"),
    ("ok", "zh-Hans", None),                  # a one-word reply Chinese writers use too
    ("Llama 3 8B", "zh-Hant", None),          # a name
    ("2B tokens, bf16", "zh-Hans", None),     # units
    ("QLoRA", "zh-Hant", None),
    ("ECC", "zh-Hans", None),
    ("12", "zh-Hans", None),
    ("/lang en", "zh-Hans", None),            # a command carries no signal
    ("", "en", None),
    ("🙂", "zh-Hans", None),
    ("Llama 3 8B", "en", "en"),
]


@pytest.mark.parametrize("text,current,expected", CASES)
def test_detect_language(text: str, current: str, expected: str | None) -> None:
    assert detect_language(text, current) == expected


def test_script_sets_are_disjoint_and_real() -> None:
    assert not SIMPLIFIED_ONLY & TRADITIONAL_ONLY
    for ch in "显数据训练预机柜并发亿万两们这":
        assert ch in SIMPLIFIED_ONLY, ch
    for ch in "顯數據訓練預機櫃並發億萬兩們這週":
        assert ch in TRADITIONAL_ONLY, ch
    # Characters written the same way in both scripts are no evidence.
    for ch in "算卡台周":
        assert ch not in SIMPLIFIED_ONLY and ch not in TRADITIONAL_ONLY, ch
