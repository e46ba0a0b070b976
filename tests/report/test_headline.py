"""The sentence under the top pick says where it stands among the options that fit (the fixture: 1 × H100 at
US$12,345 for 3.2 h, ranked first; 2 × RTX 4090 at US$6,900 for 130 h), in the report's words and currency."""

from __future__ import annotations

from advisor import report

from .conftest import make_recommendation


def test_the_fastest_pick_names_the_cheapest_instead() -> None:
    view = report.build_view(make_recommendation("en"), "en")
    cheap = report.build_view(make_recommendation("en"), "en")["candidates"][1]["cost"]
    assert view["headline"] == (f"Of the 2 options that fit, it is the fastest, for {view['best']['cost']}; "
                                f"the cheapest, 2 × RTX 4090, costs {cheap}.")


def test_a_pick_that_is_cheapest_and_fastest_says_so_and_the_only_one_says_that() -> None:
    rec = make_recommendation("zh-Hant")
    h100, rtx = rec.recommendations
    cheaper = h100.model_copy(update={"cost_usd": 5_000})
    both = rec.model_copy(update={"recommendations": (cheaper, rtx)})
    assert report.build_view(both, "zh-Hant")["headline"] == "在 2 個可行方案中，它既最便宜，也最快。"
    alone = rec.model_copy(update={"recommendations": (h100,), "alternatives": ()})
    assert report.build_view(alone, "zh-Hant")["headline"] == "這是唯一同時符合模型、預算與機房條件的方案。"


def test_the_headline_is_in_the_saved_reports() -> None:
    rec = make_recommendation("zh-Hans")
    line = report.build_view(rec, "zh-Hans")["headline"]
    assert line.startswith("在 2 个可行方案中，它最快")
    assert line in report.render(rec, "md", "zh-Hans") and line in report.render(rec, "html", "zh-Hans")


def test_a_warning_about_the_whole_plan_stands_under_the_top_pick() -> None:
    # "Only 4-bit weights fit these limits" changes every option shown: it is said where the pick is, in both formats,
    # and a plan-wide tip or note is not.
    from advisor.models import Finding

    rec = make_recommendation("zh-Hant")
    warned = rec.model_copy(update={"findings": rec.findings + (Finding(
        rule_id="inference.quantized-to-fit", severity="warning", words="inference.quantized-to-fit",
        bindings={"model_name": "Llama 3.1 70B"}, cites=("quantized-serving",)),)})
    view = report.build_view(warned, "zh-Hant")
    assert [f.title for f in view["caveats"]] == ["只有 4 位元量化權重才能符合這些限制"]
    html, md = report.render(warned, "html", "zh-Hant"), report.render(warned, "md", "zh-Hant")
    for text in (html, md):
        top, rest = text.split("只有 4 位元量化權重才能符合這些限制", 1)
        assert view["headline"] in top  # right after the pick's sentence, before the sections
    assert report.build_view(rec, "zh-Hant")["caveats"] == []  # the fixture's plan-wide finding is a note


def test_nearest_misses_are_not_called_feasible() -> None:
    # Seen in a zh-Hant walk: nothing met 10 requests a second, and the sentence under the top pick still read
    # "在 3 個可行方案中，它最便宜" ("the cheapest of 3 feasible options").
    from advisor.models import Finding

    rec = make_recommendation("zh-Hant")
    missed = rec.model_copy(update={"findings": rec.findings + (Finding(
        rule_id="outcome.near-misses", severity="warning", words="outcome.near-misses", bindings={}, cites=()),)})
    line = report.build_view(missed, "zh-Hant")["headline"]
    assert "可行方案" not in line and line.startswith("沒有方案能通過所有檢查")
    assert report.build_view(missed, "en")["headline"].startswith("No option passes every check")
