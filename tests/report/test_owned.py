"""A GPU the user already owns reads as owned, never at its list price, in every report format and in the
results table (issue #14: the headline said NT$0 while the comparison table showed NT$91,400 to "buy" it).

Reproduced through the real pipeline: `gpu-advisor recommend --profile` with one owned RTX 4090 and a
QLoRA fine-tune of Llama 3.1 8B, which fits that card (about 11 GiB of its 24 GiB)."""

from __future__ import annotations

import json
import re

import pytest

from advisor import report
from advisor.cli import main
from advisor.currency import from_usd
from advisor.format import amount
from advisor.knowledge import knowledge
from advisor.models import LOCALES, OwnedGpus, Profile
from advisor.recommend import recommend

PROFILE_YAML = """\
language: {language}
task: qlora
model: llama-3.1-8b
owned_gpus:
  - gpu: rtx-4090
    count: 1
"""
# Written by hand: what an owned card reads as, in the acquisition and purchase-price cells.
OWNED = {"en": "owned", "zh-Hans": "已有", "zh-Hant": "已有"}
CURRENCY = {"en": "USD", "zh-Hans": "CNY", "zh-Hant": "TWD"}
ROW = re.compile(r"^\| 1 \| 1 × NVIDIA GeForce RTX 4090 \|.*$", re.M)


def _list_prices(locale: str) -> list[str]:
    """The RTX 4090's catalogue prices as the reader would see them (low and high of the dated range)."""
    price = knowledge().gpus["rtx-4090"].price
    assert price is not None
    currency = CURRENCY[locale]
    return [amount(from_usd(usd, currency) if currency != "USD" else usd, currency, locale)
            for usd in (price.low_usd, price.high_usd)]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_owned_card_reads_as_owned_in_the_markdown_report(tmp_path, capsys, locale: str) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text(PROFILE_YAML.format(language=locale), encoding="utf-8")
    out = tmp_path / "r.md"
    assert main(["recommend", "--profile", str(profile), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    row = ROW.search(text)
    assert row is not None, text[:2000]
    cells = [cell.strip() for cell in row.group(0).strip("|").split("|")]
    # # | configuration | strategy | acquisition | memory | fits | time | power | buy | rent
    assert cells[3] == OWNED[locale] and cells[8] == OWNED[locale]
    for price in _list_prices(locale):
        assert price not in row.group(0)
    headline = next(line for line in text.splitlines() if "RTX 4090" in line and "·" in line)
    assert OWNED[locale] in headline and ".00" not in headline  # "NT$0", not "NT$0.00"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_owned_card_reads_as_owned_in_the_html_report(tmp_path, capsys, locale: str) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text(PROFILE_YAML.format(language=locale), encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["recommend", "--profile", str(profile), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    first = re.search(r"<tr><td class=\"num rank\">1</td><td class=\"title\"[^>]*>1 × NVIDIA GeForce RTX 4090</td>.*?</tr>",
                      page, re.S)
    assert first is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", first.group(0), re.S)
    assert cells[3] == OWNED[locale] and cells[8] == OWNED[locale]
    for price in _list_prices(locale):
        assert price not in first.group(0)


def test_the_json_report_keeps_buy_and_says_owned() -> None:
    rec = recommend(Profile(task="qlora", model="llama-3.1-8b", owned_gpus=(OwnedGpus(gpu="rtx-4090", count=1),)))
    data = json.loads(report.render(rec, "json"))
    top = data["recommendations"][0]
    assert top["gpu"] == "rtx-4090" and top["acquisition"] == "buy" and top["owned"] is True
    assert top["cost_usd"] == 0
    assert all(c["owned"] is False for c in data["recommendations"][1:] if c["gpu"] != "rtx-4090")


def test_a_second_card_of_the_owned_model_is_not_owned() -> None:
    """Owning one 4090 does not make two of them owned: 2 × 4090 bought is priced."""
    rec = recommend(Profile(task="qlora", model="llama-3.1-8b", owned_gpus=(OwnedGpus(gpu="4090", count=1),)))
    assert report.is_owned(rec.recommendations[0], rec.profile)
    for c in (*rec.recommendations, *rec.alternatives):
        if c.gpu == "rtx-4090" and c.count > 1:
            assert not report.is_owned(c, rec.profile)


@pytest.mark.parametrize("locale", ["en", "zh-Hant"])
def test_the_results_table_says_owned(locale: str) -> None:
    """The TUI's results table (ResultsPane in a tiny host app) shows "owned" in the purchase-price column."""
    import asyncio

    from textual.app import App
    from textual.widgets import DataTable

    from advisor.tui.app import ResultsPane

    rec = recommend(Profile(language=locale, task="qlora", model="llama-3.1-8b",
                            owned_gpus=(OwnedGpus(gpu="rtx-4090", count=1),)))

    class Host(App[None]):
        def compose(self):
            yield ResultsPane()

    async def run() -> list[str]:
        app = Host()
        async with app.run_test(size=(160, 40)) as pilot:
            await app.query_one(ResultsPane).show(rec, locale)  # type: ignore[arg-type]
            await pilot.pause()
            table = app.query_one("#candidates", DataTable)
            headers = [str(c.label) for c in table.ordered_columns]
            row = [str(cell) for cell in table.get_row_at(0)]
            return [dict(zip(headers, row, strict=True))[report._t("report.col.buy", locale)]]  # type: ignore[arg-type]

    assert asyncio.run(run()) == [OWNED[locale]]
