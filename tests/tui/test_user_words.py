"""What a Chinese reader sees holds no internal ids and no English words that are not names or units.

Realistic consultations (a LoRA fine-tune on one card, a 70B pretrain on a cluster, a 70B inference service)
run through the real consultation service in Simplified and Traditional Chinese; what is scanned is what the
user reads: every screen of the TUI (each page of the chat, the results table with each row's details, the
help, the command palette) as Textual renders it, the /why and why-not answers, and the Markdown and HTML
reports (tags, styles and scripts removed).

Internal ids: strategy ids (zero3, single, tp8, replicas…), GPU and model catalogue ids (rtx-4090,
mistral-7b), architecture ids (blackwell), rule ids and knowledge-entry ids, matched case-sensitively as
whole words (so the name "LoRA" is not the entry id "lora"). Checked in English too.

English words in Chinese text: every Latin word must be a name (a GPU, model, vendor, architecture or product
name from the catalogue, or the technical names below), a unit, a file name, a key, or a gloss: an English
term in full-width brackets right after the Chinese word it explains, as in 批量大小（batch size）.
"""

from __future__ import annotations

import asyncio
import functools
import html
import io
import re

import pytest
from rich.console import Console
from textual.widgets import DataTable

from advisor.consultation import Consultation
from advisor.knowledge import knowledge
from advisor.report import build_view, render
from advisor.rules_engine import load_rules
from advisor.tui.app import create_app

CASES = {
    "zh-Hans": [
        "用 LoRA 微调 Mistral 7B，5000 万 token、2 轮、序列长度 4096，BF16 混合精度，两周内完成；预算 21 万人民币；"
        "自有机房，单机柜 12 kW，风冷；打算用三年",
        "从头预训练 Llama 3 70B，1 万亿 token，BF16 混合精度，三个月内完成；预算 3000 万人民币，租用云",
        "部署 Llama 3 70B 推理服务，200 个并发用户，上下文 8000 token，FP8，预算 200 万人民币购买；"
        "自有机房，单机柜 30 kW，液冷",
    ],
    "zh-Hant": [
        "用 QLoRA 微調 Llama 3 8B，1000 萬 token、3 輪，BF16 混合精度，一週內完成；預算 15 萬新台幣；"
        "放在辦公室，一般插座，氣冷；用兩年",
        "從頭預訓練 Llama 3 70B，1 兆 token，BF16 混合精度，三個月內完成；預算 1 億新台幣，租用雲端",
        "部署 Llama 3 70B 推論服務，200 個同時使用者，上下文 8000 token，FP8，預算 800 萬新台幣購買；"
        "自有機房，單機櫃 30 kW，液冷",
    ],
    "en": [
        "LoRA fine-tune Mistral 7B on 50M tokens, 2 epochs at 4096 tokens, bf16 mixed, within two weeks; "
        "budget 30,000 USD; our own room, 12 kW rack, air cooled; 3 years",
        "pretrain Llama 3 70B from scratch on 1T tokens, bf16 mixed, within 3 months; budget 4 million USD, rent",
    ],
}
WHY = {"zh-Hans": ["为什么？", "为什么不用 RTX 4090？"], "zh-Hant": ["為什麼？", "為什麼不用 RTX 4090？"],
       "en": ["why?", "why not the RTX 4090?"]}

# Technical names, units and keys that Chinese engineers write in Latin letters.
NAMES = set("""
GPU GPUs CPU AI IT MLP PUE MFU TDP ECC ECCN HBM HBM2 HBM2e HBM3 HBM3e GDDR GDDR6 GDDR6X GDDR7 VRAM KV GQA MQA MoE OOM
NVLink NVSwitch NVL PCIe SXM OAM HGX DGX NVL72 XGMI InfiniBand RoCE Ethernet CUDA ROCm DeepSpeed ZeRO ZeRO-1 ZeRO-2
ZeRO-3 ZeRO-Offload ZeRO-1/2 FSDP DDP LoRA QLoRA NF4 BF16 FP16 FP8 FP32 TF32 INT8 INT4 FP4 AdamW AdamW8bit Adafactor SGD
bitsandbytes Transformer Engine FlashAttention PyTorch Megatron Hugging Face Chinchilla MIG IB RDMA API US NT HK
GiB MiB KiB TiB GB TB MB Gb W kW kWh MW V A FLOPs FLOP TFLOPS PFLOPS token tokens s ms h
gpu-advisor nvidia-smi Markdown HTML JSON md html json config.json Ctrl Enter Esc Tab PageUp PageDown Shift Alt
F1 F2 F3 Ctrl+S Ctrl+Q Ctrl+P Ctrl+N Ctrl+T Ctrl+C en zh-Hans zh-Hant AWS GCP Azure Lambda RunPod Vast.ai CoreWeave
Grace Superchip NVIDIA AMD Intel Instinct Gaudi GeForce Tesla Quadro RTX PRO Ada Lovelace Generation Hopper Blackwell
Ampere Volta Turing CDNA CDNA2 CDNA3 RDNA Infinity Fabric 12V-2x6 x16 x8 SFT RLHF DPO PgUp PgDn English
""".split()) | {f"f{n}" for n in range(1, 13)}
GLOSS = re.compile(r"[\u3400-\u9fff][（(]([A-Za-z][A-Za-z0-9 .,+/\-]*)[）)]")
# A word with a Latin letter (digits before it belong to it: 12V-2x6, 3A090, 80GB, 7B).
LATIN = re.compile(r"(?<![A-Za-z0-9_])[0-9]*[A-Za-z][A-Za-z0-9_+\-]*(?:\.[A-Za-z0-9]+)*")
# In English "single", "replicas" and "offload" are words; the ids that are not words are still caught.
STRATEGY_IDS_EN = re.compile(r"(?<![\w\-])(zero[123]|(?:tp|pp|dp|ep)\d+(?:-(?:tp|pp|dp|ep)\d+)*)(?![\w\-])")
FILE = re.compile(r"^[\w\-]+\.(md|html|json)$")
STRATEGY_IDS = re.compile(r"(?<![\w\-])(zero[123]|ddp|fsdp|single|replicas|offload|(?:tp|pp|dp|ep)\d+(?:-(?:tp|pp|dp|ep)\d+)*)"
                          r"(?![\w\-])")


@functools.cache
def catalogue_names() -> set[str]:
    kb = knowledge()
    words: set[str] = set()
    for spec in [*kb.gpus.values(), *kb.models.values()]:
        words.update(re.findall(r"[A-Za-z0-9][A-Za-z0-9.\-+]*", spec.name))
        words.update(re.findall(r"[A-Za-z0-9][A-Za-z0-9.\-+]*", " ".join(getattr(spec, "aliases", []) or [])))
    return {w for w in words if not w.islower() or any(c.isdigit() for c in w)}


@functools.cache
def internal_ids(locale: str) -> re.Pattern[str]:
    kb = knowledge()
    ids = {*kb.gpus, *kb.models, *kb.findings, *(r.id for r in load_rules())}
    if locale != "en":  # knowledge-entry and architecture ids are English words too ("mixed-precision", "ada")
        ids |= {*kb.entries, "volta", "turing", "ampere", "ada", "hopper", "blackwell", "cdna2", "cdna3", "gaudi2",
                "gaudi3"}
    # An id that is also an ordinary word or name in lower case (a knowledge entry called "pue") is still an id
    # when it appears in lower case; the names are written otherwise ("PUE").
    ids = {i for i in ids if len(i) > 2}
    alternation = "|".join(sorted((re.escape(i) for i in ids), key=len, reverse=True))
    return re.compile(rf"(?<![\w\-./])({alternation})(?![\w\-])")


def visible_text(page: str) -> str:
    """An HTML page as its reader sees the words: no style, script, tags or entities."""
    page = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


def english_words(text: str) -> list[str]:
    """Latin words of a Chinese text that are not names, units, file names, keys or glosses."""
    text = GLOSS.sub(" ", text)
    names = NAMES | catalogue_names()
    found = []
    for match in LATIN.finditer(text):
        word = match.group(0)
        before, after = text[match.start() - 1:match.start()], text[match.end():match.end() + 1]
        # /help, ^q (a key), a table cell cut short (…) or a word cut by a dialog's border (█ ▊ │) over it
        if before in ("/", "^", "-") or after == "…" or "\u2500" <= after <= "\u259f":
            continue
        if word in names or FILE.match(word) or re.fullmatch(r"\d+(\.\d+)?[KMBTk]|\d+GB|\w+_proj", word):
            continue
        if len(word) == 1 and (word.isupper() or word in "xs"):  # formula symbols (6·N·D), units (V, A)
            continue
        if re.fullmatch(r"[A-Z]+\d+[A-Za-z0-9]*", word) or re.fullmatch(r"\d*[A-Z]\d+\w*", word):  # H100, 3A090
            continue
        found.append(word)
    return found


def _around(text: str, start: int, end: int) -> str:
    return re.sub(r"\s+", " ", text[max(0, start - 30):end + 20])


def problems(text: str, locale: str, where: str) -> list[str]:
    out = []
    for m in STRATEGY_IDS.finditer(text) if locale != "en" else STRATEGY_IDS_EN.finditer(text):
        out.append(f"{where}: strategy id {m.group(0)!r} in …{_around(text, m.start(), m.end())}…")
    for m in internal_ids(locale).finditer(text):
        out.append(f"{where}: internal id {m.group(0)!r} in …{_around(text, m.start(), m.end())}…")
    if locale != "en":
        for word in sorted(set(english_words(text))):
            i = text.find(word)
            out.append(f"{where}: English word {word!r} in …{_around(text, i, i + len(word))}…")
    return out


def screen_text(app) -> str:
    """The screen as Textual paints it (the text of `App.export_screenshot`)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, color_system="truecolor",
                      record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def _consult(locale: str, answer: str) -> Consultation:
    conv = Consultation(locale, None, persist=False, auto_language=False)
    conv.start()
    conv.handle(answer)
    for _ in range(8):
        if conv.recommendation is not None:
            break
        conv.handle("")
    assert conv.recommendation is not None, answer
    return conv


@pytest.mark.parametrize("locale", list(CASES))
def test_reports_and_answers(locale) -> None:
    found: list[str] = []
    for n, answer in enumerate(CASES[locale]):
        conv = _consult(locale, answer)
        rec = conv.recommendation
        texts = {"md report": render(rec, "md", locale), "html report": visible_text(render(rec, "html", locale)),
                 "chat": render(rec, "chat", locale)}
        for question in WHY[locale]:
            texts[question] = "\n".join(r.text for r in conv.handle(question))
        for where, text in texts.items():
            found += problems(text, locale, f"case {n}, {where}")
    assert not found, "\n".join(found)


def _screens(locale: str, answer: str) -> list[tuple[str, str]]:
    """Every screen of one consultation in the TUI at 120×40: chat pages, results rows, help, palette."""
    shots: list[tuple[str, str]] = []

    async def run() -> None:
        app = create_app(lang=locale, state_path=None)  # type: ignore[arg-type]
        async with app.run_test(size=(120, 40)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            await app.submit_text(answer)
            for _ in range(8):
                if app.conversation.recommendation is not None:
                    break
                await app.submit_text("")
            await pilot.pause()
            assert app.conversation.recommendation is not None
            chat = app.main.query_one("#chat-view")
            chat.scroll_home(animate=False)
            await pilot.pause()
            for page in range(40):
                shots.append((f"chat page {page}", screen_text(app)))
                if chat.scroll_y >= chat.max_scroll_y:
                    break
                chat.scroll_page_down(animate=False)
                await pilot.pause()
            await pilot.press("f2")
            await pilot.pause()
            table = app.main.query_one("#candidates", DataTable)
            rows = len(build_view(app.conversation.recommendation, locale)["candidates"]) + 1  # and one alternative
            for row in range(min(rows, table.row_count)):
                table.move_cursor(row=row)
                await pilot.pause()
                shots.append((f"results row {row}", screen_text(app)))
            await pilot.press("f2", "f1")
            await pilot.pause()
            shots.append(("help", screen_text(app)))
            await pilot.press("escape", "ctrl+p")
            await pilot.pause()
            shots.append(("palette", screen_text(app)))

    asyncio.run(run())
    return shots


@pytest.mark.parametrize(("locale", "case"), [("zh-Hans", 1), ("zh-Hant", 0)])
def test_tui_screens(locale, case) -> None:
    """One consultation per script (the TUI's words are the reports' words; what it adds is its own: table
    cells, the side panel, the footer, help and palette): a 70B pretrain on a cluster, a QLoRA in an office."""
    found: list[str] = []
    for where, text in _screens(locale, CASES[locale][case]):
        found += problems(text, locale, f"case {case}, {where}")
    assert not found, "\n".join(dict.fromkeys(found))


def test_the_scan_finds_what_it_must() -> None:
    """The scanner itself: each kind of leak is caught, and names, units, glosses and file names pass."""
    assert problems("并行策略：zero3；（4 張，tp8）", "zh-Hant", "x")
    assert problems("显卡 rtx-4090 放得下", "zh-Hans", "x")
    assert problems("- `memory.tight-headroom` 在", "zh-Hant", "x") or not any(
        r.id == "memory.tight-headroom" for r in load_rules())
    assert english_words("LoRA 适配器：rank 16 on q,k,v") == ["rank", "on", "q", "k", "v"]
    assert english_words("显存占用随 batch size 线性增长") == ["batch", "size"]
    assert english_words("NVIDIA GeForce RTX 4090 · 24 GiB · 450 W · 批量大小（batch size）· /save report.md") == []
