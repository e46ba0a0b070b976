"""Currencies: the dated default exchange rates, and which currency a user means when they name none.

Why a module of its own: the parsers convert what the user typed to USD (the catalogue's currency),
the formatting module shows money back in the user's own currency, and both must use the same rate
and say which date it is from. A profile keeps the amount as typed (`budget_amount`,
`budget_currency`) beside the converted `budget_usd`.

Rates: approximate mid-market rates of June 2025, USD per unit (the last month the sources in
shared/reference agree on); every converted amount is shown with this date.
"""

from __future__ import annotations

from advisor.locales import Locale

RATES_DATE = "2025-06"

USD_PER_UNIT: dict[str, float] = {
    "USD": 1.0,
    "CNY": 1 / 7.18,   # USD/CNY about 7.16-7.20 in June 2025
    "TWD": 1 / 29.5,   # USD/TWD about 29.2-30.0 in June 2025
    "EUR": 1.15,       # EUR/USD about 1.14-1.17 in June 2025
    "HKD": 1 / 7.85,   # HKD is pegged in the 7.75-7.85 band; it sat at 7.85 in June 2025
    "JPY": 1 / 144.0,  # USD/JPY about 142-146 in June 2025
    "GBP": 1.36,       # GBP/USD about 1.34-1.37 in June 2025
    "CAD": 1 / 1.37,   # USD/CAD about 1.36-1.38 in June 2025
    "AUD": 0.65,       # AUD/USD about 0.64-0.66 in June 2025
    "SGD": 1 / 1.28,   # USD/SGD about 1.27-1.29 in June 2025
    "CHF": 1 / 0.815,  # USD/CHF about 0.80-0.83 in June 2025
    "KRW": 1 / 1370.0,  # USD/KRW about 1,350-1,390 in June 2025
    "INR": 1 / 85.8,   # USD/INR about 85.4-86.3 in June 2025
    "MYR": 1 / 4.23,   # USD/MYR about 4.21-4.26 in June 2025
}

LOCALE_CURRENCY: dict[str, str] = {"en": "USD", "zh-Hans": "CNY", "zh-Hant": "TWD"}
"""The currency of an amount typed without one: mainland readers mean yuan, Taiwan readers New Taiwan
dollars, English readers US dollars (DESIGN.md, "Money is the user's")."""


def to_usd(amount: float, currency: str) -> float:
    """`amount` in ISO `currency`, converted to USD at the dated default rate."""
    return amount * USD_PER_UNIT[currency]


def from_usd(usd: float, currency: str) -> float:
    """`usd` converted to ISO `currency` at the dated default rate."""
    return usd / USD_PER_UNIT[currency]


def default_currency(locale: Locale) -> str:
    """The currency a user writing in `locale` means by a bare amount."""
    return LOCALE_CURRENCY.get(locale, "USD")


def currency_of(budget_currency: str | None, locale: Locale) -> str:
    """The currency money is shown in: the one the user gave their budget in, else their language's."""
    code = (budget_currency or "").upper()
    return code if code in USD_PER_UNIT else default_currency(locale)
