"""The product's three languages, as a type: importable without pydantic (light commands use it)."""

from __future__ import annotations

from typing import Literal

Locale = Literal["en", "zh-Hans", "zh-Hant"]
LOCALES: tuple[Locale, ...] = ("en", "zh-Hans", "zh-Hant")
