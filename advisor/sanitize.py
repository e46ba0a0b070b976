"""Text from outside (typed, piped, resumed, read from a config.json) without raw control characters.

Why: a C0 or C1 control character (ESC, BEL, CSI U+009B, NUL, ...) that reaches the terminal can clear
the screen, retitle the window or move the cursor; in a saved Markdown or HTML report it is at best
invisible garbage. `clean_text` keeps newlines and tabs, turns CR LF into LF, replaces lone surrogates
(what Python's `surrogateescape` makes of an invalid UTF-8 byte) with U+FFFD so the text can always be
encoded again, and drops every other control character. `one_line` is the same for text that must stay
on one line (a path in an error message). Both are applied where outside text enters: the consultation's
`handle` and resume, the models' name fields, the command-line front ends.
"""

from __future__ import annotations

import re

# C0 except \t (09) and \n (0A); DEL; C1 (80-9F).
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROLS_AND_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """`text` without control characters other than newline and tab; lone surrogates become U+FFFD."""
    if not text:
        return text
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    text = _SURROGATES.sub("\ufffd", text)
    return _CONTROLS.sub("", text)


def one_line(text: str) -> str:
    """`text` on one line: newlines and tabs become spaces, other controls go (for paths in messages)."""
    if not text:
        return text
    text = _SURROGATES.sub("\ufffd", text.replace("\r\n", "\n"))
    return _CONTROLS_AND_BREAKS.sub(lambda m: " " if m.group() in "\n\t\r\u2028\u2029" else "", text)


def has_controls(text: str) -> bool:
    """Whether `text` holds a character `clean_text` would remove or replace."""
    return bool(_CONTROLS.search(text) or _SURROGATES.search(text) or "\r" in text)
