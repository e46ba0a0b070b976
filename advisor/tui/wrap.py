"""Line breaking for Chinese prose in the terminal.

Why a module of its own: Rich (and so every bubble, the help and the results details) breaks lines only at
spaces. Chinese puts no spaces between words, so a sentence that does not fit the rest of a line moved whole
to the next one and left half-empty lines; a long one was cut at the width, and a line could start with "，".
Here a line may break between any two CJK characters and where CJK meets Latin script, never before closing
punctuation (。，、；：？！）」』% …) nor after opening punctuation (「『（ …); Latin words and numbers stay whole;
text without CJK characters breaks exactly where Rich breaks it (the same greedy algorithm, the same chunks).

The break points are computed here and the lines cut with Rich's own `Text.divide`, so nothing is inserted
into the text: no zero-width spaces (Rich does not break at them anyway, and they would end up in a copied
or saved transcript).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rich.cells import cell_len, chop_cells
from rich.containers import Lines
from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, JustifyMethod, OverflowMethod
    from rich.measure import Measurement

# No line starts with one of these (closing brackets and quotes, sentence and clause punctuation, %, the
# ellipsis and the dash, the iteration mark, small kana): CJK typesetting rules (JIS X 4051, GB/T 15834).
NO_BREAK_BEFORE = frozenset(
    "。，、；：？！）」』】〕〗〙〛》〉”’｝］％.,;:?!)]}%…‥—–〜～・·ー々ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
)
# No line ends with one of these (opening brackets and quotes).
NO_BREAK_AFTER = frozenset("（「『【〔〖〘〚《〈“‘｛［([{")


def is_wide(char: str) -> bool:
    """A character set in a full-width cell (Han, kana, Hangul, full-width punctuation): a break may
    fall before or after it."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def _units(text: str) -> Iterator[tuple[int, str]]:
    """(start, unit): runs of whitespace, single wide characters, and runs of other characters (a Latin
    word, a number with its unit sign, a dash)."""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        j = i + 1
        if ch.isspace():
            while j < n and text[j].isspace():
                j += 1
        elif not is_wide(ch):
            while j < n and not text[j].isspace() and not is_wide(text[j]):
                j += 1
        yield i, text[i:j]
        i = j


def break_opportunities(text: str) -> list[int]:
    """Indices (0 < i < len(text)) at which a line may break: after whitespace (as Rich does), between two
    units where one is a CJK character, unless the next starts with closing or the previous ends with opening
    punctuation. Never before the first non-space character."""
    out: list[int] = []
    prev: str | None = None
    seen_text = False
    for start, unit in _units(text):
        if prev is not None and seen_text and not unit[0].isspace():
            after_space = prev[0].isspace()
            cjk = (is_wide(prev[-1]) or is_wide(unit[0])) and unit[0] not in NO_BREAK_BEFORE \
                and prev[-1] not in NO_BREAK_AFTER
            if after_space or cjk:
                out.append(start)
        seen_text = seen_text or not unit[0].isspace()
        prev = unit
    return out


def _chunks(text: str) -> Iterator[tuple[int, str]]:
    """(start, chunk): the text cut at every break opportunity; a chunk carries its trailing whitespace."""
    start = 0
    for cut in break_opportunities(text):
        yield start, text[start:cut]
        start = cut
    if start < len(text) or not text:
        yield start, text[start:]


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """The offsets at which to cut one line of `text` to fit `width` cells: Rich's `rich._wrap.divide_line`
    (same greedy fill, same folding of a chunk wider than the line), over CJK-aware chunks instead of
    space-separated words."""
    breaks: list[int] = []
    offset = 0
    for start, chunk in _chunks(text):
        length = cell_len(chunk.rstrip())
        if width - offset >= length:
            offset += cell_len(chunk)
        elif length > width:
            if fold:
                pieces = chop_cells(chunk, width=width)
                for index, piece in enumerate(pieces):
                    if start:
                        breaks.append(start)
                    if index == len(pieces) - 1:
                        offset = cell_len(piece)
                    else:
                        start += len(piece)
            else:
                if start:
                    breaks.append(start)
                offset = cell_len(chunk)
        elif offset and start:
            breaks.append(start)
            offset = cell_len(chunk)
    return breaks


def wrap_plain(text: str, width: int) -> list[str]:
    """`text` broken into lines of at most `width` cells (trailing spaces of a broken line dropped)."""
    lines: list[str] = []
    for line in text.split("\n"):
        cuts = [0, *divide_line(line, width), len(line)]
        lines += [line[a:b].rstrip(" ") if b < len(line) else line[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]
    return lines


class CJKText(Text):
    """A Rich `Text` that wraps with `divide_line` above; everything else is Rich's."""

    @classmethod
    def of(cls, text: Text) -> CJKText:
        """The same text, styles and settings, wrapping CJK-aware."""
        new = cls(justify=text.justify, overflow=text.overflow, no_wrap=text.no_wrap, end=text.end,
                  tab_size=text.tab_size)
        new.append_text(text)
        return new

    def wrap(
        self,
        console: Console,
        width: int,
        *,
        justify: JustifyMethod | None = None,
        overflow: OverflowMethod | None = None,
        tab_size: int = 8,
        no_wrap: bool | None = None,
    ) -> Lines:
        """`Text.wrap` (Rich 13-15) with the CJK-aware `divide_line`."""
        wrap_justify = justify or self.justify or "default"
        wrap_overflow = overflow or self.overflow or "fold"
        no_wrap = bool(no_wrap if no_wrap is not None else self.no_wrap) or overflow == "ignore"
        lines = Lines()
        for line in self.split(allow_blank=True):
            if "\t" in line:
                line.expand_tabs(tab_size)
            if no_wrap:
                if overflow == "ignore":
                    lines.append(line)
                    continue
                new_lines = Lines([line])
            else:
                new_lines = line.divide(divide_line(str(line), width, fold=wrap_overflow == "fold"))
                for part in new_lines:
                    part.rstrip_end(width)
            if wrap_justify:
                new_lines.justify(console, width, justify=wrap_justify, overflow=wrap_overflow)
            for part in new_lines:
                part.truncate(width, overflow=wrap_overflow)
            lines.extend(new_lines)
        return lines


class Wrapped:
    """Plain text as a Rich renderable that wraps CJK-aware. (Textual turns a bare `Text` into its own
    `Content`, which breaks only at spaces; anything else Rich renders is left to Rich.)"""

    def __init__(self, text: str) -> None:
        self.text = CJKText(text)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[CJKText]:
        yield self.text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """As wide as the longest line; at least the widest unbreakable chunk (a Latin word, or one CJK
        character with the punctuation that may not be parted from it)."""
        from rich.measure import Measurement

        plain = self.text.plain
        widest = max((cell_len(line) for line in plain.split("\n")), default=0)
        narrowest = max((cell_len(chunk.rstrip()) for line in plain.split("\n") for _, chunk in _chunks(line)),
                        default=0)
        return Measurement(min(narrowest, options.max_width), min(widest, options.max_width))
