"""Readings added in the session of 2026-12-04 (issue #17), from a TUI walk and the twenty-fifth blind table (serving),
each tested on phrasings other than the ones seen.

Every expectation is worked out by hand from what the sentence says: dates count from Tuesday 2026-12-01."""

from __future__ import annotations

import pytest

from advisor.conversation.parsers import extract


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")


def _read(text: str, locale: str = "en") -> dict:
    return extract(text, locale)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "locale"), [
    ("預計用三年，全年無休", "zh-Hant"),  # the TUI walk: "all year without a day off"
    ("服务器要用两年，全年无休地跑推理", "zh-Hans"),
    ("打算用三年，機器不關機", "zh-Hant"),
    ("the box will be always-on for the next 3 years", "en"),
])
def test_hardware_that_never_stops_is_used_around_the_clock(text: str, locale: str) -> None:
    assert _read(text, locale)["utilization"] == 1.0
