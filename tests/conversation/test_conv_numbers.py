"""Numbers as people type them: Arabic with separators and magnitudes, Chinese numerals in both scripts."""

from __future__ import annotations

import pytest

from advisor.conversation.numbers import find_numbers, parse_chinese_integer, parse_number

NUMBERS = [
    # Arabic
    ("30000", 30000), ("30,000", 30000), ("2,000,000", 2_000_000), ("1.5", 1.5), (".5", 0.5), ("-5000", -5000),
    ("３０", 30),  # full-width digits
    # English magnitudes
    ("16k", 16_000), ("300k", 300_000), ("2M", 2_000_000), ("1.5B", 1.5e9), ("1.5 billion", 1.5e9),
    ("2 trillion", 2e12), ("1T", 1e12), ("50m", 50e6), ("7 thousand", 7000), ("3bn", 3e9), ("10 million", 1e7),
    # Arabic with Chinese magnitudes
    ("2.5万", 25_000), ("3千", 3000), ("600 亿", 6e10), ("15万亿", 1.5e13), ("1.2億", 1.2e8), ("300萬", 3e6),
    ("5千万", 5e7), ("8 万", 80_000),
    # Chinese numerals (Simplified and Traditional)
    ("七十亿", 7e9), ("三百五十亿", 3.5e10), ("两千", 2000), ("兩千", 2000), ("四十万", 400_000), ("三万", 30_000),
    ("十二", 12), ("十", 10), ("一百零五", 105), ("一亿三千万", 1.3e8), ("三万亿", 3e12), ("七十億", 7e9),
    ("三百五十億", 3.5e10), ("四十萬", 400_000), ("兩萬", 20_000), ("二十", 20), ("九千九百九十九", 9999),
    # Colloquial abbreviations: the digit after a unit is the next lower unit
    ("三千五", 3500), ("一万二", 12_000), ("两百五", 250), ("一亿五", 1.5e8),
    # Digit strings
    ("二零二五", 2025),
]


@pytest.mark.parametrize("text,expected", NUMBERS)
def test_parse_number(text: str, expected: float) -> None:
    assert parse_number(text) == pytest.approx(expected)


@pytest.mark.parametrize("text", ["", "abc", "万", "亿", "k", "1.2.3", "twelve apples", "--5", "3x"])
def test_not_a_number(text: str) -> None:
    assert parse_number(text) is None


def test_chinese_integer_rejects_other_characters() -> None:
    assert parse_chinese_integer("三个") is None
    assert parse_chinese_integer("") is None


def test_find_numbers_skips_digits_inside_names() -> None:
    # "A100" and "llama3" hold digits that are not quantities; "8x" and "70b" are.
    values = [v for v, _, _ in find_numbers("8x a100 80gb and llama3 70b")]
    assert values == [8, 80, 70e9]
