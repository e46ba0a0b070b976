"""Numbers as people read them: counts, parameters, bytes, durations, power, money and list punctuation per locale.

Why one module: a figure must read the same in the chat, the results tab, every report format and
every finding, so that "$10,600" and "$10,650" never stand for one amount on one screen. Everything
that turns a number into text for a user goes through here; the numeric core works in bytes,
watts, seconds and USD, and this module is where those become "13.5 GiB", "3.2 小時" or
"NT$600,000（約 US$20,300）".

Conventions: GPU memory in binary units (GiB, what a vendor's "80 GB" of HBM and nvidia-smi mean);
money to three significant figures from 1,000 up; large counts the Chinese way in Chinese (万/亿,
萬/億/兆); Chinese text uses full-width punctuation (："；（）) and never a bare "$".
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable

from advisor.currency import from_usd
from advisor.locales import Locale

GIB = 2**30

# ------------------------------------------------------------------------------------------------
# Plain numbers


def sig(value: float, digits: int = 3) -> str:
    """`value` to `digits` significant figures, no exponent, no trailing zeros: 7.241e9 -> '7240000000'."""
    if value == 0:
        return "0"
    if not math.isfinite(value):
        return str(value)
    decimals = digits - 1 - math.floor(math.log10(abs(value)))
    rounded = round(value, decimals)
    if decimals <= 0:
        return str(int(rounded))
    return f"{rounded:.{decimals}f}".rstrip("0").rstrip(".")


def number(value: float | int, digits: int = 1) -> str:
    """Thousands separators; up to `digits` decimals below 100, none from 100 up; no trailing zeros:
    12.0 -> '12', 3.25 -> '3.2' (digits=1), 1234.5 -> '1,234'."""
    if isinstance(value, bool):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    if abs(value) >= 100 or digits <= 0:
        return f"{value:,.0f}"
    text = f"{value:,.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def plain(value: float | int) -> str:
    """Whole numbers with separators ('2,048'), fractions to three significant figures ('0.12')."""
    if isinstance(value, bool):
        return str(value)
    if float(value).is_integer() and abs(value) >= 1:
        return f"{int(value):,}"
    return sig(float(value), 3)


_COUNT_STEPS: dict[str, tuple[tuple[float, str], ...]] = {
    "en": ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")),
    "zh-Hans": ((1e12, "万亿"), (1e8, "亿"), (1e4, "万")),
    "zh-Hant": ((1e12, "兆"), (1e8, "億"), (1e4, "萬")),
}


def count(n: float | int | None, locale: Locale) -> str:
    """A large count: en '7.24 B' / '500 M'; zh-Hans '72.4 亿' / '500 万'; zh-Hant '72.4 億', 10^12 = '兆'."""
    if n is None:
        return "—"
    value = float(n)
    for scale, unit in _COUNT_STEPS[locale]:
        if abs(value) >= scale:
            return f"{sig(value / scale, 3)} {unit}"
    return sig(value, 3) if value != int(value) else f"{int(value):,}"


def context(tokens: int) -> str:
    """A context window as model cards write it: 16,384 -> '16k', 128,000 -> '128k', 512 -> '512'."""
    if tokens >= 1000:
        k = tokens / 1024 if tokens % 1024 == 0 else tokens / 1000
        return f"{number(k, 1)}k"
    return str(tokens)


# ------------------------------------------------------------------------------------------------
# Bytes, time, power


def size(n_bytes: float | int | None) -> str:
    """Memory in binary units, labelled: 14_483_464_192 -> '13.5 GiB'; 512 * 2**20 -> '512 MiB'."""
    if n_bytes is None:
        return "—"
    n = float(n_bytes)
    for unit, scale in (("TiB", 2.0**40), ("GiB", 2.0**30), ("MiB", 2.0**20), ("KiB", 2.0**10)):
        if abs(n) >= scale:
            value = n / scale
            text = f"{value:.1f}" if abs(value) < 100 else f"{value:.0f}"
            return f"{text} {unit}"
    return f"{int(n)} B"


def gib(n_bytes: float | int) -> str:
    """Always in GiB so that a column compares: 2**30 -> '1.0 GiB'; below 1 GiB two decimals ('0.04 GiB');
    a non-zero term too small to show -> '<0.01 GiB'; zero -> '0 GiB'."""
    value = n_bytes / GIB
    if value == 0:
        return "0 GiB"
    if abs(value) < 0.005:
        return "<0.01 GiB" if value > 0 else "-<0.01 GiB"
    if abs(value) < 1:
        return f"{value:.2f} GiB"
    return f"{value:.1f} GiB"


def hours(value: float | None, locale: Locale) -> str:
    """Duration: '45 min' under an hour, '3.2 h' under two days, '4.5 days' under two years, then years."""
    from advisor.i18n import t

    if value is None:
        return "—"
    if value < 1:
        return t("report.unit.minutes", locale, n=max(1, round(value * 60)))
    if value < 48:
        return t("report.unit.hours", locale, n=f"{value:.1f}" if value < 10 else f"{value:.0f}")
    days = value / 24
    if days < 365 * 2:
        return t("report.unit.days", locale, n=f"{days:.1f}" if days < 10 else f"{days:.0f}")
    return t("report.unit.years", locale, n=f"{days / 365:.1f}")


def seconds(value: float | None, locale: Locale) -> str:
    """A short wait: '0.35 s', '1.9 s', '42 s', then minutes ('2.5 min'); '—' when unknown."""
    from advisor.i18n import t

    if value is None:
        return "—"
    if value >= 120:
        return t("report.unit.minutes", locale, n=f"{value / 60:.1f}")
    n = f"{value:.2f}" if value < 1 else (f"{value:.1f}" if value < 10 else f"{value:.0f}")
    return t("report.unit.seconds", locale, n=n)


def hours_range(low: float | None, mid: float | None, high: float | None, locale: Locale) -> str:
    """'3.2 h (range 2.5 h – 4.1 h)' when a range is known, else the single figure."""
    from advisor.i18n import t

    text = hours(mid, locale)
    if mid is not None and low is not None and high is not None and (low != mid or high != mid):
        return t("report.range", locale, mid=text, low=hours(low, locale), high=hours(high, locale))
    return text


def days(value: float, locale: Locale) -> str:
    """A number of days: '14 days', '1 day', '14 天'."""
    from advisor.i18n import t

    return t("report.unit.day" if value == 1 else "report.unit.days", locale, n=plain(round(value, 1)))


def power(watts: float | None) -> str:
    """Power: '450 W' below a kilowatt, '7.2 kW' above."""
    if watts is None:
        return "—"
    if abs(watts) >= 1000:
        kw = watts / 1000
        return f"{kw:.1f} kW" if kw < 100 else f"{kw:.0f} kW"
    return f"{watts:.0f} W"


# ------------------------------------------------------------------------------------------------
# Money

_SYMBOLS: dict[str, dict[str, str]] = {
    # A bare "$" means NT$ to a Taiwan reader and is ambiguous on the mainland: Chinese text says US$.
    "USD": {"en": "$", "zh-Hans": "US$", "zh-Hant": "US$"},
    "CNY": {"en": "CN¥", "zh-Hans": "¥", "zh-Hant": "人民幣 ¥"},
    "TWD": {"en": "NT$", "zh-Hans": "NT$", "zh-Hant": "NT$"},
    "HKD": {"en": "HK$", "zh-Hans": "HK$", "zh-Hant": "HK$"},
    "EUR": {"en": "€", "zh-Hans": "€", "zh-Hant": "€"},
    "GBP": {"en": "£", "zh-Hans": "£", "zh-Hant": "£"},
    "JPY": {"en": "JP¥", "zh-Hans": "日元 ¥", "zh-Hant": "日圓 ¥"},
    "CAD": {"en": "CA$", "zh-Hans": "CA$", "zh-Hant": "CA$"},
    "AUD": {"en": "A$", "zh-Hans": "A$", "zh-Hant": "A$"},
    "SGD": {"en": "S$", "zh-Hans": "S$", "zh-Hant": "S$"},
    "CHF": {"en": "CHF ", "zh-Hans": "CHF ", "zh-Hant": "CHF "},
    "KRW": {"en": "₩", "zh-Hans": "₩", "zh-Hant": "₩"},
    "INR": {"en": "₹", "zh-Hans": "₹", "zh-Hant": "₹"},
    "MYR": {"en": "RM", "zh-Hans": "RM", "zh-Hant": "RM"},
}
_ABOUT = {"en": "about {}", "zh-Hans": "约 {}", "zh-Hant": "約 {}"}


def symbol(currency: str, locale: Locale) -> str:
    """The sign written before an amount in `currency` for a `locale` reader: '$', 'US$', 'NT$', '¥'."""
    return _SYMBOLS.get(currency, {}).get(locale) or f"{currency} "


def amount(value: float | None, currency: str, locale: Locale, digits: int = 3) -> str:
    """An amount already in `currency`, with its symbol: 'NT$600,000', '¥1,200,000', '$12,300', 'US$2.49'.
    `digits` significant figures from 1,000 up, whole units from 10 up, cents below; nothing is 'NT$0'."""
    if value is None:
        return "—"
    sign = "-" if value < 0 else ""
    value = abs(value)
    if value >= 1000:
        text = f"{int(float(sig(value, digits))):,}"
    elif value >= 10 or value == 0:
        text = f"{value:,.0f}"
    else:
        text = f"{value:,.2f}"
    return f"{sign}{symbol(currency, locale)}{text}"


def money(usd: float | None, locale: Locale, currency: str = "USD", digits: int = 3) -> str:
    """`usd` shown in the user's `currency` (converted at the dated default rate)."""
    if usd is None:
        return "—"
    if currency == "USD" or currency not in _SYMBOLS:
        return amount(usd, "USD", locale, digits)
    return amount(from_usd(usd, currency), currency, locale, digits)


def money_digits(values: Iterable[float], locale: Locale, currency: str = "USD") -> int:
    """The fewest significant figures (3 or more) at which different amounts shown together read differently:
    "costs $50,100, above your budget of $50,000", not "costs $50,000, above your budget of $50,000"."""
    distinct = {round(v, 2) for v in values}
    for digits in range(3, 9):
        if len({money(v, locale, currency, digits) for v in distinct}) == len(distinct):
            return digits
    return 9


def money_both(usd: float | None, locale: Locale, currency: str = "USD") -> str:
    """The user's currency first and US dollars beside it: 'NT$600,000 (about $20,300)'; USD alone for USD."""
    if usd is None or currency == "USD" or currency not in _SYMBOLS:
        return money(usd, locale)
    return money(usd, locale, currency) + paren(_ABOUT[locale].format(amount(usd, "USD", locale)), locale)


def rate_per_kwh(usd: float, locale: Locale, currency: str = "USD") -> str:
    """An electricity price: '$0.12/kWh', 'NT$3.54/kWh'."""
    local = usd if currency == "USD" or currency not in _SYMBOLS else from_usd(usd, currency)
    return f"{symbol(currency if currency in _SYMBOLS else 'USD', locale)}{local:.2f}/kWh"


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def calendar_date(day: datetime.date, locale: Locale) -> str:
    """A day as readers write it: '5 March 2026'; '2026 年 3 月 5 日' in Chinese (not the ISO form)."""
    if locale == "en":
        return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"
    return f"{day.year} 年 {day.month} 月 {day.day} 日"


# ------------------------------------------------------------------------------------------------
# Punctuation


def paren(text: str, locale: Locale) -> str:
    """An aside: ' (text)' in English, '（text）' with full-width brackets in Chinese."""
    return f" ({text})" if locale == "en" else f"（{text}）"


def sep(locale: Locale) -> str:
    """Label-value separator: ': ' in English, '：' in Chinese."""
    return ": " if locale == "en" else "："


def join(items: Iterable[str], locale: Locale, *, strong: bool = False) -> str:
    """A list in one sentence: ', ' / '，' — or, with `strong` (items that hold commas), '; ' / '；'."""
    parts = [item for item in items if item]
    if locale == "en":
        return ("; " if strong else ", ").join(parts)
    return ("；" if strong else "，").join(parts)


def enumerate_names(items: Iterable[str], locale: Locale) -> str:
    """Names listed as a series: 'A, B' in English, 'A、B' in Chinese (the enumeration comma)."""
    return (", " if locale == "en" else "、").join(item for item in items if item)
