"""The HTML report's cost-against-time chart: round axis ticks (steps of 1, 2 or 5 times a power of ten, from
0, the last one just past the largest point), money labels without stray cents, and the time axis in one
unit, in the reader's language."""

from __future__ import annotations

import math
import re

import pytest

from advisor.report import _cost_ticks, _time_ticks, nice_ticks, render

from .conftest import make_recommendation


@pytest.mark.parametrize("top, ticks", [
    (4020, [0, 1000, 2000, 3000, 4000, 5000]),
    (2.53, [0, 1, 2, 3]),
    (12_962, [0, 5000, 10_000, 15_000]),
    (95, [0, 20, 40, 60, 80, 100]),
    (100, [0, 20, 40, 60, 80, 100]),  # a top that is a tick is the last tick
    (250_000, [0, 50_000, 100_000, 150_000, 200_000, 250_000]),
    (1, [0, 0.2, 0.4, 0.6, 0.8, 1]),
    (0.07, [0, 0.02, 0.04, 0.06, 0.08]),
    (0.3, [0, 0.1, 0.2, 0.3]),  # 3 x 0.1 reads 0.3
    (7.3e6, [0, 2e6, 4e6, 6e6, 8e6]),
])
def test_nice_ticks(top, ticks) -> None:
    assert nice_ticks(top) == ticks


@pytest.mark.parametrize("top", [0.013, 0.9, 1.7, 3.3, 47, 99.9, 1234.5, 98_765, 4.2e7])
def test_nice_ticks_cover_the_top_in_at_most_five_round_steps(top) -> None:
    ticks = nice_ticks(top)
    step = ticks[1]
    assert ticks[0] == 0 and ticks[-2] < top <= ticks[-1] and 2 <= len(ticks) <= 6
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 9) in (1, 2, 5)
    assert all(abs(b - a - step) < step * 1e-9 for a, b in zip(ticks, ticks[1:], strict=False))


@pytest.mark.parametrize("top, labels", [
    (4020, ["$0", "$1,000", "$2,000", "$3,000", "$4,000", "$5,000"]),
    (2.53, ["$0", "$1", "$2", "$3"]),
    (0.9, ["$0", "$0.20", "$0.40", "$0.60", "$0.80", "$1.00"]),
])
def test_cost_tick_labels(top, labels) -> None:
    assert [label for _, label in _cost_ticks(top)] == labels


@pytest.mark.parametrize("hours, locale, labels", [
    (0.4, "en", ["0", "5 min", "10 min", "15 min", "20 min", "25 min"]),
    (3.4, "en", ["0", "1 h", "2 h", "3 h", "4 h"]),
    (47, "zh-Hans", ["0", "10 小时", "20 小时", "30 小时", "40 小时", "50 小时"]),
    (60, "en", ["0", "0.5 days", "1 day", "1.5 days", "2 days", "2.5 days"]),
    (136.5, "zh-Hant", ["0", "2 天", "4 天", "6 天"]),
    (40_000, "en", ["0", "1 year", "2 years", "3 years", "4 years", "5 years"]),
])
def test_time_tick_labels_share_one_unit(hours, locale, labels) -> None:
    ticks = _time_ticks(hours, locale)
    assert [label for _, label in ticks] == labels
    assert ticks[-1][0] >= hours  # values come back in hours, the last one past the top


# The fixture's budget is in yuan: the axis runs in yuan. Its top, 1.05 x US$12,345 x 7.18 CNY/USD = CN¥93,068,
# is reached in five steps of 20,000.
CNY_TICKS = ["0", "20,000", "40,000", "60,000", "80,000", "100,000"]


@pytest.mark.parametrize("locale, x_labels, y_labels", [
    ("en", ["CN¥" + v for v in CNY_TICKS], ["0", "2 days", "4 days", "6 days"]),
    ("zh-Hant", ["人民幣 ¥" + v for v in CNY_TICKS], ["0", "2 天", "4 天", "6 天"]),
])
def test_scatter_chart_in_the_html_report_has_round_ticks(locale, x_labels, y_labels) -> None:
    # The fixture's candidates: $12,345 for 3.2 h and $6,900 for 130 h (5.4 days).
    html = render(make_recommendation(locale), "html", locale)
    svg = html.split("<svg")[1].split("</svg>")[0]  # the one SVG chart: cost against time (the memory bars are HTML)
    x_ticks = re.findall(r'<text x="([\d.]+)" y="348" text-anchor="middle">([^<]+)</text>', svg)
    y_ticks = re.findall(r'<text x="88" y="([\d.]+)" text-anchor="end" dominant-baseline="middle">([^<]+)</text>', svg)
    assert [label for _, label in x_ticks] == x_labels
    assert [label for _, label in y_ticks] == y_labels
    # The ticks span the axes (left to right end, bottom to top), evenly.
    xs = [float(x) for x, _ in x_ticks]
    ys = [float(y) for y, _ in y_ticks]
    assert xs[0] == 96 and xs[-1] == 850 and ys[0] == 330 and ys[-1] == 36
    assert max(abs((b - a) - (xs[1] - xs[0])) for a, b in zip(xs, xs[1:], strict=False)) < 0.2
    # Every point lies inside the plot.
    for cx, cy in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)"', svg):
        assert 96 < float(cx) < 850 and 36 < float(cy) < 330


def test_names_of_points_at_the_same_cost_and_time_do_not_overlap() -> None:
    """Found on a zh-Hant report: a rented H100 NVL and three RTX 6000 Ada at ~NT$920 and 12 h wrote their names
    over each other. Two candidates at the same cost and time: their circles coincide, their names (with the
    option's number) stand a line apart, and the first option is drawn last (on top)."""
    rec = make_recommendation("en")
    first, second = rec.recommendations
    twin = second.model_copy(update={"cost_usd": first.cost_usd, "time_hours": first.time_hours})
    html = render(rec.model_copy(update={"recommendations": (first, twin)}), "html", "en")
    svg = html.split("<svg")[1].split("</svg>")[0]
    names = re.findall(r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="\w+" dominant-baseline="central" '
                       r'class="point-name">([^<]+)</text>', svg)
    assert [n[:3] for _, _, n in names] == ["2. ", "1. "]
    (x2, y2, _), (x1, y1, _) = names
    assert x1 == x2 and abs(float(y2) - float(y1)) >= 18


def test_names_of_points_in_the_right_half_end_at_their_point() -> None:
    """On a phone the chart is scaled down and a name that starts right of a point near the right edge was cut off:
    in the right half of the plot a name ends at its point (text-anchor end), in the left half it starts there."""
    html = render(make_recommendation("en"), "html", "en")
    svg = html.split("<svg")[1].split("</svg>")[0]
    points = re.findall(r'<circle cx="([\d.]+)"', svg)
    anchors = re.findall(r'text-anchor="(\w+)" dominant-baseline="central" class="point-name"', svg)
    assert len(points) == len(anchors) == 2
    for cx, anchor in zip(points, anchors, strict=True):
        assert anchor == ("end" if float(cx) > (96 + 850) / 2 else "start")
