"""Number formatting (advisor.format, advisor.words), checked against figures written out by hand from published numbers."""

from __future__ import annotations

import pytest

from advisor import format as fmt
from advisor import report, words


@pytest.mark.parametrize(
    ("n_bytes", "shown"),
    [
        # Mistral-7B-v0.1: 7,241,732,096 parameters (HF model card) x 2 bytes (bf16) = 14,483,464,192 bytes
        # = 13.49 GiB.
        (14_483_464_192, "13.5 GiB"),
        # H100 "80GB": 80 GiB of HBM3 (NVIDIA datasheet; nvidia-smi reports 81,559 MiB = 79.6 GiB usable).
        (80 * 2**30, "80.0 GiB"),
        (81_559 * 2**20, "79.6 GiB"),
        (512 * 2**20, "512 MiB"),
        (1.5 * 2**40, "1.5 TiB"),
        (999, "999 B"),
    ],
)
def test_bytes_are_binary_and_labelled(n_bytes: int, shown: str) -> None:
    assert fmt.size(n_bytes) == shown


@pytest.mark.parametrize(
    ("n_bytes", "shown"),
    [(24 * 2**30, "24.0 GiB"), (40_000_000, "0.04 GiB"), (240_000_000, "0.22 GiB"), (0, "0 GiB"),
     (1_000_000, "<0.01 GiB")],
)
def test_gib_column_keeps_small_terms_visible(n_bytes: int, shown: str) -> None:
    assert fmt.gib(n_bytes) == shown


@pytest.mark.parametrize(
    ("hours", "locale", "shown"),
    [
        (3.2, "en", "3.2 h"),
        (3.2, "zh-Hans", "3.2 小时"),
        (3.2, "zh-Hant", "3.2 小時"),
        (0.5, "en", "30 min"),
        (0.5, "zh-Hant", "30 分鐘"),
        (108, "en", "4.5 days"),  # 108 h / 24 = 4.5 days
        (108, "zh-Hans", "4.5 天"),
        (20.0, "en", "20 h"),
        (None, "en", "—"),
    ],
)
def test_hours(hours: float | None, locale: str, shown: str) -> None:
    assert fmt.hours(hours, locale) == shown  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("usd", "shown"),
    [(12_345, "$12,300"), (12_300, "$12,300"), (1_234_567, "$1,230,000"), (840, "$840"), (2.49, "$2.49"),
     (None, "—")],
)
def test_usd(usd: float | None, shown: str) -> None:
    assert fmt.money(usd, "en") == shown


@pytest.mark.parametrize(("watts", "shown"), [(450, "450 W"), (7_200, "7.2 kW"), (10_200, "10.2 kW"), (135_000, "135 kW")])
def test_power(watts: float, shown: str) -> None:
    # 10.2 kW: DGX H100 maximum input (NVIDIA DGX H100 user guide); 135 kW: GB300 NVL72 rack budget (NVIDIA).
    assert fmt.power(watts) == shown


@pytest.mark.parametrize(
    ("n", "locale", "shown"),
    [
        (7_241_732_096, "en", "7.24 B"),
        (7_241_732_096, "zh-Hans", "72.4 亿"),  # 1 亿 = 10^8
        (7_241_732_096, "zh-Hant", "72.4 億"),
        (50_000_000, "zh-Hans", "5000 万"),
        (1_200_000_000_000, "zh-Hans", "1.2 万亿"),
        (1_200_000_000_000, "zh-Hant", "1.2 兆"),  # Taiwan: 兆 = 10^12
        (1_200_000_000_000, "en", "1.2 T"),
    ],
)
def test_large_counts_the_local_way(n: int, locale: str, shown: str) -> None:
    assert fmt.count(n, locale) == shown  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("strategy", "locale", "shown"),
    [
        ("zero3", "en", "ZeRO-3 (everything sharded)"),
        ("single", "zh-Hant", "單卡"),
        ("ddp", "zh-Hans", "数据并行（DDP）"),
        ("tp8-pp2", "en", "tensor parallel ×8 + pipeline parallel ×2"),
        ("tp4", "zh-Hant", "張量平行 ×4"),
        ("something-new", "en", "something-new"),
    ],
)
def test_strategy_labels(strategy: str, locale: str, shown: str) -> None:
    assert words.strategy_label(strategy, locale) == shown  # type: ignore[arg-type]


def test_markdown_escape_makes_user_text_inert() -> None:
    assert report.md_escape("<b>x|y</b>") == "\\<b\\>x\\|y\\</b\\>"
    assert report.md_escape("Mistral 7B") == "Mistral 7B"


@pytest.mark.parametrize(
    ("usd", "locale", "currency", "shown"),
    [
        # A Taiwan budget of NT$600,000 at the dated rate of 29.5 TWD per USD (advisor.currency) is US$20,339.
        (600_000 / 29.5, "zh-Hant", "TWD", "NT$600,000"),
        (600_000 / 29.5, "zh-Hant", "USD", "US$20,300"),  # never a bare "$" in Chinese text
        (600_000 / 29.5, "en", "TWD", "NT$600,000"),
        # ¥1.2M at 7.18 CNY per USD = US$167,131.
        (1_200_000 / 7.18, "zh-Hans", "CNY", "¥1,200,000"),
        (1_200_000 / 7.18, "zh-Hans", "USD", "US$167,000"),
        (2.49, "zh-Hans", "USD", "US$2.49"),
    ],
)
def test_money_in_the_readers_currency(usd: float, locale: str, currency: str, shown: str) -> None:
    assert fmt.money(usd, locale, currency) == shown  # type: ignore[arg-type]


def test_money_both_puts_the_users_currency_first() -> None:
    assert fmt.money_both(600_000 / 29.5, "zh-Hant", "TWD") == "NT$600,000（約 US$20,300）"
    assert fmt.money_both(600_000 / 29.5, "en", "TWD") == "NT$600,000 (about $20,300)"
    assert fmt.money_both(12_345, "en", "USD") == "$12,300"


def test_list_punctuation_per_locale() -> None:
    assert fmt.join(["a", "b"], "en") == "a, b" and fmt.join(["a", "b"], "zh-Hant") == "a，b"
    assert fmt.join(["a", "b"], "zh-Hans", strong=True) == "a；b"
    assert fmt.paren("x", "en") == " (x)" and fmt.paren("x", "zh-Hans") == "（x）"


@pytest.mark.parametrize(
    ("locale", "shown"),
    [("en", "31 December 2025"), ("zh-Hans", "2025 年 12 月 31 日"), ("zh-Hant", "2025 年 12 月 31 日")],
)
def test_calendar_date(locale: str, shown: str) -> None:
    import datetime

    assert fmt.calendar_date(datetime.date(2025, 12, 31), locale) == shown  # type: ignore[arg-type]


def test_amounts_shown_together_read_differently() -> None:
    # An option $5 over the budget must not read "costs $50,000, above your budget of $50,000".
    assert fmt.money_digits([50_000.0, 50_004.9], "en") == 5
    assert fmt.money(50_004.9, "en", digits=5) == "$50,005"
    assert fmt.money_digits([50_000.0, 184_000.0], "en") == 3  # already apart: the usual three figures
    assert fmt.money_digits([36_500.0, 36_496.35], "zh-Hant", "TWD") >= 4
    assert fmt.money_digits([], "en") == 3


def test_a_finding_shows_its_two_amounts_apart() -> None:
    from advisor.models import Finding
    from advisor.words import finding_words

    finding = Finding(rule_id="cost.over-budget", severity="warning", words="cost.over-budget",
                      bindings={"cost_usd": 36_500.0, "budget_usd": 36_496.35}, cites=("tco-evaluation",))
    _, text = finding_words(finding, "en", "CAD")
    assert "CA$50,005" in text and "CA$50,000" in text
