"""CJK-aware line breaking (advisor.tui.wrap) checked on real rendering: Rich consoles at 20 and 40 columns,
a user bubble in a Pilot app, and the saved report and session file, which must hold no inserted characters.

What a good break looks like (CJK typesetting practice, GB/T 15834 and JIS X 4051): a line may end between any
two Han characters and where Han meets Latin script; no line starts with closing punctuation and none ends
with opening punctuation; Latin words and numbers are never cut; lines are filled (the greedy fill leaves at
most a character and its attached punctuation, so no line but a paragraph's last is under half the width).
"""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich._wrap import divide_line as rich_divide_line
from rich.cells import cell_len
from rich.console import Console
from rich.markdown import Markdown as RichMarkdown

from advisor.tui.widgets import RenderedMarkdown, UserMessage
from advisor.tui.wrap import break_opportunities, divide_line, wrap_plain

from .test_chat import sync

# Sentences written for the test, in each script, with Latin words, numbers, brackets and quotes among the Han.
SAMPLES = {
    "zh-Hans": [
        "你好！我帮你挑选 GPU——选哪种卡、几张、要花多少钱，都会算给你看。",
        "用 LoRA 微调 Mistral 7B，预算三万美元，机房单个机柜 12 千瓦，风冷。显存（VRAM）不够时，可以改用「QLoRA」"
        "或者 8 位优化器；训练 3 轮大约需要 5.4 天，占用约 80% 的显存。",
    ],
    "zh-Hant": [
        "你好！我幫你挑選 GPU——選哪種卡、幾張、要花多少錢，都會算給你看。",
        "用 QLoRA 微調 Llama 3.1 8B，預算新台幣 60 萬元；自有機房，單機櫃 12 kW，氣冷。GPU 記憶體（VRAM）不足時，"
        "請改用『梯度檢查點』或 8 位元最佳化器：推論時每秒約 4,360 token，延遲約 120 ms？",
    ],
}
CLOSING = set("。，、；：？！）」』%")
OPENING = set("「『（")
LATIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.,%]*[A-Za-z0-9%]|[A-Za-z0-9]")


def _render(source: str, width: int, markdown=RenderedMarkdown) -> list[str]:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(markdown(source))
    return console.export_text().rstrip("\n").split("\n")


def _check_lines(lines: list[str], width: int, sentence: str) -> None:
    body = [line.rstrip() for line in lines]
    assert all(len(line) > 0 for line in body)
    for i, line in enumerate(body):
        assert line[0] not in CLOSING, (i, body)
        assert line[-1] not in OPENING, (i, body)
        if i < len(body) - 1:  # filled: a line shorter than half the width wastes the bubble
            assert cell_len(line) >= width / 2, (i, body)
            assert cell_len(line) <= width
    # Nothing lost or added (a space at a break becomes the break).
    assert re.sub(r"\s", "", "".join(body)) == re.sub(r"\s", "", sentence)
    # Latin words and numbers whole: each appears, unbroken, on one line.
    for word in LATIN.findall(sentence):
        assert any(word in line for line in body), (word, body)


@pytest.mark.parametrize("width", [20, 40])
@pytest.mark.parametrize("locale", list(SAMPLES))
def test_chinese_paragraphs_break_between_characters_not_before_closing_punctuation(locale: str, width: int) -> None:
    for sentence in SAMPLES[locale]:
        lines = _render(sentence, width)
        _check_lines(lines, width, sentence)
        assert "\u200b" not in "".join(lines)


@pytest.mark.parametrize("width", [20, 40])
def test_rich_alone_leaves_half_empty_lines(width: int) -> None:
    """The bug, for the record: Rich breaks the same paragraph only at spaces (or cuts it anywhere)."""
    lines = _render(SAMPLES["zh-Hant"][1], width, markdown=RichMarkdown)
    with pytest.raises(AssertionError):
        _check_lines(lines, width, SAMPLES["zh-Hant"][1])


@pytest.mark.parametrize("width", [20, 40])
def test_list_items_and_headings_wrap_the_same_way(width: int) -> None:
    source = f"### {SAMPLES['zh-Hans'][0]}\n\n- **提示**：{SAMPLES['zh-Hans'][1]}\n"
    lines = [line.rstrip() for line in _render(source, width)]
    blank = lines.index("")
    heading, item = lines[:blank], [line for line in lines[blank + 1:] if line]
    _check_lines(heading, width, SAMPLES["zh-Hans"][0])
    assert item[0].startswith(" • ") and all(line.startswith("   ") for line in item[1:])
    _check_lines([line[3:] for line in item], width - 3, "提示：" + SAMPLES["zh-Hans"][1])


ENGLISH = [
    "Hello! I help you choose GPUs: which card, how many, and what it will cost. The answer comes with reasons.",
    "With QLoRA, Llama 3.1 8B fits one 24 GB card (about 11 GiB per GPU); 8 × H100 would finish in 3.2 h.",
    "- **Tip**: supercalifragilisticexpialidocious-words-longer-than-the-line are folded as before.",
]


@pytest.mark.parametrize("width", [20, 33, 40, 80])
def test_english_wraps_exactly_as_rich_wraps_it(width: int) -> None:
    for text in ENGLISH:
        assert _render(text, width) == _render(text, width, markdown=RichMarkdown)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab cdefg  .,;-\t")), max_size=80), st.integers(1, 30))
def test_without_cjk_the_breaks_are_riches(text: str, width: int) -> None:
    text = text.replace("\t", " ")
    assert divide_line(text, width) == rich_divide_line(text, width)
    assert divide_line(text, width, fold=False) == rich_divide_line(text, width, fold=False)


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("中文", "中|文"),
        ("GPU显存", "GPU|显|存"),  # at the script boundary; "GPU" whole
        ("好。你", "好。|你"),  # after the full stop, not before it
        ("「好」，对", "「好」，|对"),  # the brackets and the comma cling to the character
        ("（VRAM）不足", "（VRAM）|不|足"),
        ("80%的", "80%|的"),
        ("约 8 GiB", "约 |8 |GiB"),
        ("GPU——选卡……吧", "GPU——|选|卡……|吧"),  # no line starts with a dash or an ellipsis
        ("  缩进", "  缩|进"),  # never before the first character
    ],
)
def test_break_opportunities(text: str, cut: str) -> None:
    cuts = break_opportunities(text)
    shown = "|".join(text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True))
    assert shown == cut


def test_wrap_plain_keeps_the_text() -> None:
    sentence = SAMPLES["zh-Hant"][1]
    for width in (10, 20, 40):
        lines = wrap_plain(sentence, width)
        assert "".join(lines).replace(" ", "") == sentence.replace(" ", "")


@sync
async def test_a_chinese_user_bubble_is_filled(tmp_path) -> None:
    """The user's own Chinese message, in its bubble at 40 columns, breaks the Chinese way; the widget keeps
    the text as typed."""
    from textual.app import App
    from textual.geometry import Region

    sentence = SAMPLES["zh-Hans"][1]

    class Host(App[None]):
        CSS = "UserMessage { width: 40; height: auto; }"

        def compose(self):
            yield UserMessage(sentence)

    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        widget = app.query_one(UserMessage)
        assert widget.text == sentence
        inner = widget.content_size.width
        assert inner <= 40
        lines = [strip.text.rstrip() for strip in widget.render_lines(Region(0, 0, *widget.size))]
        lines = [line.strip("│╭╮╰╯─ ") for line in lines]
        _check_lines([line for line in lines if line], inner, sentence)
