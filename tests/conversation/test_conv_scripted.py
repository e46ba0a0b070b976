"""A scripted headless conversation with the real engine (numeric core, rules, reports): answers,
a correction, a what-if, /why, "why not …?", a domain question and /save — in English and Chinese."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.consultation import Consultation as Conversation
from advisor.words import finding_words
from advisor.i18n import t


def _say(conv: Conversation, text: str) -> str:
    replies = conv.handle(text)
    assert all(r.kind != "error" for r in replies), [r.text for r in replies]
    return "\n".join(r.text for r in replies)


def test_english_script_with_correction_what_if_and_why(tmp_path: Path) -> None:
    conv = Conversation("en", tmp_path / "s.json")
    conv.start()
    _say(conv, "full fine-tune Llama 3 8B on 100M tokens, budget $40k")
    while conv.stage != "confirm":
        _say(conv, "")
    _say(conv, "yes")
    first = conv.recommendation
    assert first is not None and first.recommendations
    assert first.profile.task == "finetune" and first.profile.budget_usd == 40_000

    # A what-if re-runs the engine without touching the answers, and says what changed.
    text = _say(conv, "what if we use QLoRA?")
    after = conv.whatif[1]
    assert conv.profile.task == "finetune" and conv.whatif[0].task == "qlora"
    top_before, top_after = first.recommendations[0], after.recommendations[0]
    assert top_before.gpu_name in text and top_after.gpu_name in text
    # QLoRA keeps 4-bit weights and no full optimizer state: far less memory per GPU than a full fine-tune.
    assert top_after.memory_per_gpu.total < top_before.memory_per_gpu.total
    _say(conv, "keep it")
    assert conv.profile.task == "qlora" and conv.recommendation is after

    # A correction in plain words changes that field only and re-runs.
    before = conv.profile.model_dump()
    _say(conv, "budget 80k")
    changed = {k for k, v in conv.profile.model_dump().items() if before[k] != v}
    assert changed == {"budget_usd", "budget_amount"}
    assert conv.recommendation.profile.budget_usd == 80_000

    # /why shows the top configuration's numbers and the rules that fired.
    why = _say(conv, "/why")
    top = conv.recommendation.recommendations[0]
    assert top.gpu_name in why
    for finding in top.findings:  # each finding in words, never its rule id (an internal name)
        assert finding_words(finding, "en")[1] in why and finding.rule_id not in why
    assert "Memory per GPU" in why and "weights" in why

    assert "H100" in _say(conv, "why not the H100?")
    assert "ECC" in _say(conv, "why ECC?")
    saved = conv.handle(f"/save {tmp_path}/report.json")
    assert saved[0].kind == "saved"
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["profile"]["task"] == "qlora" and report["profile"]["budget_usd"] == 80_000


def test_chinese_script(tmp_path: Path) -> None:
    conv = Conversation("zh-Hans", tmp_path / "s.json")
    conv.start()
    _say(conv, "我们打算从零预训练一个 30 亿参数的模型，大约 600 亿 token，预算 8 万美元，六周内要完成")
    while conv.stage != "confirm":
        _say(conv, "")
    summary = conv.prompt()[0].text
    assert "从零预训练" in summary and "US$80,000" in summary and "42 天" in summary  # no bare "$" in Chinese
    _say(conv, "对")
    assert conv.recommendation is not None
    text = _say(conv, "如果预算翻倍呢？")
    assert "160,000" in text and conv.profile.budget_usd == 80_000
    why = _say(conv, "为什么？")
    assert why.startswith(t("conv.why.title", "zh-Hans", choice="")[:5])
    # A Traditional message switches the replies to Traditional.
    answer = _say(conv, "什麼是顯存碎片？")
    assert conv.locale == "zh-Hant" and "碎片" in answer


def test_why_not_a_count_compares_the_top_picks_gpu_at_that_count(tmp_path: Path) -> None:
    # eight owned RTX A6000 in two machines; "why not all 8?" compares 8 of them with the top pick
    conv = Conversation("zh-Hant", tmp_path / "s.json", auto_language=False)
    conv.start()
    _say(conv, "兩台機器，每台 4 張 A6000，LoRA 微調 Qwen2.5-32B，資料 3 萬筆，長度 4096，只用自己的機器")
    while conv.stage != "confirm":
        _say(conv, "")
    _say(conv, "對")
    top = conv.recommendation.recommendations[0]
    assert top.gpu == "rtx-a6000"
    other = 8 if top.count != 8 else 4
    text = _say(conv, f"為什麼不用 {other} 張？")
    assert f"{other} × NVIDIA RTX A6000" in text and f"{top.count} × NVIDIA RTX A6000" in text
