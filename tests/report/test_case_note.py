"""Knowledge answers tied to the user's case (#17): after a recommendation, "what does NVLink do?" ends with a
sentence about the top pick's own link, memory or power, with its numbers (gpus.yaml figures)."""

from __future__ import annotations

import pytest

from advisor.models import Profile
from advisor.recommend import recommend
from advisor.report import case_note


@pytest.fixture(scope="module")
def rec_4090():
    # QLoRA of an 8B model on the user's own RTX 4090: the top pick is that one card
    return recommend(Profile(language="en", task="qlora", model="llama-3-8b", params=8_030_261_248,
                             tokens=20_000_000, owned_gpus=[{"gpu": "rtx-4090", "count": 1}],
                             acquisition="buy", deployment="on-prem"))


def test_link_question_about_a_single_gpu(rec_4090) -> None:
    top = rec_4090.recommendations[0]
    assert (top.gpu, top.count) == ("rtx-4090", 1)
    note = case_note(rec_4090, "does NVLink matter?", "en")
    assert note is not None and "single GPU" in note and "RTX 4090" in note


@pytest.mark.parametrize("locale", ["en", "zh-Hans", "zh-Hant"])
def test_memory_question_names_the_picks_numbers(rec_4090, locale: str) -> None:
    top = rec_4090.recommendations[0]
    note = case_note(rec_4090, "显存不够怎么办 / out of memory?", locale)  # type: ignore[arg-type]
    assert note is not None
    assert f"{top.memory_per_gpu.total / 2**30:.1f} GiB" in note and f"{top.capacity_bytes / 2**30:.1f} GiB" in note


def test_pcie_cards_say_their_link() -> None:
    rec = recommend(Profile(language="zh-Hant", task="finetune", model="llama-3-8b", params=8_030_261_248,
                            tokens=100_000_000, owned_gpus=[{"gpu": "rtx-4090", "count": 4}],
                            acquisition="buy", deployment="on-prem"))
    top = rec.recommendations[0]
    if top.count == 1:
        pytest.fail(f"expected a multi-GPU pick for a full fine-tune of 8B on 24 GB cards, got {top}")
    note = case_note(rec, "NVLink 有什麼用？", "zh-Hant")
    # the RTX 4090 has no NVLink: PCIe 4.0 x16, 31 GB/s per direction (gpus.yaml)
    assert note is not None and "沒有 NVLink" in note and "31 GB/s" in note and "PCIe 4.0 x16" in note


def test_no_topic_no_note(rec_4090) -> None:
    assert case_note(rec_4090, "who makes the best coffee?", "en") is None
