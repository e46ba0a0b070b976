"""Numbers as people type them: "30,000", "2.5万", "七十亿", "三百五十亿", "兩千", "16k", "1.5 billion".

Every slot parser (money, parameters, tokens, power, durations) starts from a number, and users
mix Arabic digits, Chinese numerals and magnitude words freely, often in one message. This module
turns those spellings into floats and nothing else: no units, no slots. Unparseable text gives
None, never an exception.

`NUMBER_RE` is the regular-expression fragment (one named group ``num``) that the parsers embed
before their unit words; `parse_number` evaluates what it matched.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any, cast


class LazyPattern:
    """A regular expression compiled on first use; until then only `pattern` is known. Once compiled,
    its methods sit on the instance, so a call costs what a compiled pattern's costs.

    The conversation's few hundred patterns embed `NUMBER_RE` (~900 characters each) and together take
    half a second to compile on a small machine: compiled at import, the terminal app would greet late
    and every `gpu-advisor chat` would pay for patterns its messages never reach."""

    _METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner")
    _ALL: list[LazyPattern] = []

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self._flags = pattern, flags
        LazyPattern._ALL.append(self)

    def __getattr__(self, name: str) -> Any:  # reached only before the first compile
        from advisor.regex_cache import compile_pattern  # the program an earlier run compiled, when there is one

        compiled = compile_pattern(self.pattern, self._flags)
        for method in self._METHODS:
            setattr(self, method, getattr(compiled, method))
        self.flags, self.groups, self.groupindex = compiled.flags, compiled.groups, compiled.groupindex
        return getattr(compiled, name)

    @classmethod
    def compile_all(cls) -> int:
        """Compile every pattern not compiled yet (the terminal app does it after its first paint) and keep
        the programs for the next run (advisor/regex_cache.py); returns how many were compiled."""
        from advisor.regex_cache import save

        todo = [p for p in cls._ALL if "search" not in p.__dict__]
        for p in todo:
            p.search  # noqa: B018 - the attribute access compiles it
        save()
        return len(todo)


def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile`, deferred to the pattern's first use (`LazyPattern`); reads as a compiled pattern."""
    return cast(re.Pattern[str], LazyPattern(pattern, flags))

# Chinese digits (both scripts; 两/兩 are the "two" used before measure words and magnitudes).
CN_DIGITS: dict[str, int] = {
    "零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4,
    "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
}
# Small units inside a section, and the big section units (万/萬 = 1e4, 亿/億 = 1e8).
CN_SMALL_UNITS: dict[str, int] = {"十": 10, "百": 100, "千": 1000}
CN_BIG_UNITS: dict[str, int] = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}

# Magnitude suffixes after an Arabic number. Case matters for single letters only where it must:
# "m"/"M" both mean million in "50M tokens" and "$2m".
EN_MAGNITUDES: dict[str, float] = {
    "k": 1e3, "thousand": 1e3, "m": 1e6, "mm": 1e6, "mn": 1e6, "mil": 1e6, "million": 1e6, "millions": 1e6,
    "b": 1e9, "bn": 1e9, "billion": 1e9, "billions": 1e9, "t": 1e12, "tn": 1e12, "trillion": 1e12, "trillions": 1e12,
    "thousands": 1e3, "hundred": 1e2,
}
# Chinese magnitudes after an Arabic number: "2.5万", "3千", "600 亿", "1.2万亿".
CN_MAGNITUDES: dict[str, float] = {
    "十": 10, "百": 100, "千": 1e3, "万": 1e4, "萬": 1e4, "亿": 1e8, "億": 1e8,
    "万亿": 1e12, "萬億": 1e12, "千万": 1e7, "千萬": 1e7, "百万": 1e6, "百萬": 1e6,
    "十万": 1e5, "十萬": 1e5, "百亿": 1e10, "百億": 1e10, "千亿": 1e11, "千億": 1e11, "十亿": 1e9, "十億": 1e9,
}

_CN_CHARS = "零〇一二两兩三四五六七八九十百千万萬亿億"
_ARABIC = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?|\.\d+"
_EN_MAG = r"(?:thousands?|millions?|billions?|trillions?|hundred|mil|mm|mn|bn|tn|[kmbt])(?![a-z])"
_CN_MAG = r"(?:万亿|萬億|千万|千萬|百万|百萬|十万|十萬|百亿|百億|千亿|千億|十亿|十億|[十百千万萬亿億])"

YI_WORD = r"一(?:开始|開始|直|起|定|般|样|樣|旦|些|切|边|邊|方面|向|再|律)"
"""Words that begin with 一 and count nothing: "预算一开始说30万" is not a budget of 1."""

#: A number as typed: Arabic with an optional magnitude ("2.5万", "16k", "1.5 billion"), or a run of
#: Chinese numerals ("三百五十亿"). The match is in group ``num``.
NUMBER_RE = (
    rf"(?P<num>(?<![A-Za-z0-9.,])(?:{_ARABIC})(?:\s?(?:{_CN_MAG})|\s?{_EN_MAG})?"
    rf"|(?!{YI_WORD})(?=[{_CN_CHARS}]{{0,19}}[一二两兩三四五六七八九十])(?>[{_CN_CHARS}]{{1,20}}))"
)
_NUMBER_ONLY = lazy_compile(rf"^\s*(?:[-+]\s*)?{NUMBER_RE}\s*$", re.IGNORECASE)

# Full-width and CJK punctuation that NFKC would fold into ASCII glued to digits ("500，16k").
_PUNCT = str.maketrans({"，": ", ", "、": ", ", "。": ". ", "；": "; ", "：": ": ", "！": "! ", "？": "? ",
                        "（": " (", "）": ") ", "～": "~", "〜": "~"})


_CJK_LATIN = lazy_compile(r"(?<=[\u4e00-\u9fff])(?=[A-Za-z0-9$])|(?<=[A-Za-z0-9%])(?=[\u4e00-\u9fff])")
_WAN_W = lazy_compile(r"(?<![A-Za-z])(\d+(?:\.\d+)?)\s*[wW](?=\s*(?:[条條笔筆张張个個人块塊元以左上的预預]|tokens?\b|"
                      r"(?:samples?|examples?|records?|rows?|pairs?|rmb|cny|yuan)\b))", re.IGNORECASE)
""""5w条", "5w samples", "30w RMB": w is 万 (10,000) before a count's or yuan's word, never watts there."""
_ODD_BEFORE_MEASURE = lazy_compile(  # "两千多条", "2000多条", "三百来人", "30多G": the round figure the writer gives
    r"(?<=[\d〇零一二两兩三四五六七八九十百千万萬亿億])(?<![^\d〇零二两兩三四五六七八九十百千万萬亿億]一)\s*[多来來]\s*"
    r"(?=[条條个個张張台臺人位份篇句字块塊元笔筆段则則万萬亿億千百]|[A-Za-z])")
_ODD_AFTER_NUMBER = lazy_compile(r"(?<=\d)-?(?:odd|ish)\b|(?<=\d)\s+odd\b", re.IGNORECASE)
""""3,000-odd pairs", "60-ish engineers": the round figure the writer gives."""
_CODE_GLUED = lazy_compile(r"(?<![A-Za-z])(RM|MYR|INR|SGD|HKD|USD|NTD|TWD|CNY|RMB|EUR|GBP|JPY|AUD|CAD)(?=\d)",
                           re.IGNORECASE)
""""RM200k", "USD5000": a currency code typed against its amount is read as "RM 200k"."""
_EURO_GROUPS = lazy_compile(r"(?<=€)\s?[1-9]\d{0,2}(?:\.\d{3})+(?![\d,/])|"
                            r"(?<![\d.])[1-9]\d{0,2}(?:\.\d{3})+(?=\s?(?:€|eur\b|euros?\b)(?!\s*/))", re.IGNORECASE)
""""€45.000", "45.000 euro": a European writer's thousands separator is a dot."""
_DECIMAL_COMMA = lazy_compile(r"(?<![\d,])(\d{1,3}),(\d{1,2})(?=\s*(?:billion|million|thousand|bn|mln|mio|mrd)\b)",
                              re.IGNORECASE)
""""2,5 billion tokens": a decimal comma before a scale word (2,500 billion would have three digits)."""
_DUAL_CARD = lazy_compile(r"[双雙]卡")
_MEASURE_BEFORE_MAGNITUDE = lazy_compile(  # "5 个亿", "一个亿" are 5 亿, 一亿
    r"(\d(?:\.\d+)?)\s*[个個]\s*([亿億万萬])|(?<![一二两兩三四五六七八九十百千零〇])([一两兩三四五六七八九十半])\s*[个個]\s*([亿億])")
_W_AND_DIGIT = lazy_compile(r"(?<![A-Za-z\d.])(\d+)\s*[wW](\d)(?![\d.]|\s*[千百十万萬kKwW])")
_COMPOUND_MAGNITUDE = lazy_compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*([亿億])\s*(\d+(?:\.\d+)?)\s*(千万|千萬|百万|百萬|万|萬)(?!\s*[万萬亿億])|"
    r"(?<![\d.])(\d+)\s*([万萬])\s*(\d)\s*([千百])(?!\s*[万萬亿億])")
"""Digits with two magnitudes: "1億2千萬 token" is 120,000,000, "3 万 2 千条" 32,000."""
_MAGNITUDE_OF = {"亿": 1e8, "億": 1e8, "千万": 1e7, "千萬": 1e7, "百万": 1e6, "百萬": 1e6, "万": 1e4, "萬": 1e4,
                 "千": 1e3, "百": 1e2}


def _compound(m: re.Match[str]) -> str:
    if m.group(1):
        value = float(m.group(1)) * 1e8 + float(m.group(3)) * _MAGNITUDE_OF[m.group(4)]
    else:
        value = float(m.group(5)) * 1e4 + float(m.group(7)) * _MAGNITUDE_OF[m.group(8)]
    return f"{value:.0f}"


_WAN_AND_DIGIT = lazy_compile(r"(?<![\d.])(\d+)\s*([万萬])\s*(\d)"
                            r"(?![\d.]|\s*[千百十万萬亿億kKwW]|\s*(?:个|個|张|張|条|條|人|位))")
_YUAN_AND_JIAO = lazy_compile(r"(?<![\d.])([0-9]|[一二两兩三四五六七八九十])\s*[块塊]\s*([0-9一二三四五六七八九])"
                            r"(?![0-9万萬千百十])")


def _yuan_jiao(m: re.Match[str]) -> str:
    digits = {**CN_DIGITS, "十": 10}
    whole = int(m.group(1)) if m.group(1).isdigit() else digits[m.group(1)]
    tenth = int(m.group(2)) if m.group(2).isdigit() else digits[m.group(2)]
    return f"{whole}.{tenth}元"


# 兆 before counts is 10^12 (Taiwan usage, and the mainland's formal one); 兆瓦/兆赫/兆字节 are mega units and stay.
_ZHAO = lazy_compile(r"(\d+(?:\.\d+)?|[一二两兩三四五六七八九十]+)\s*兆"
                   r"(?=\s*(?:个|個)?\s*(?:token|tok|参数|參數|笔|筆|条|條|字(?!节|節)|"
                   r"元|美元|美金|台币|台幣|新台币|新台幣|人民币|人民幣|[,.;!?]|$))", re.IGNORECASE)
_INDIAN_GROUPS = lazy_compile(r"(?<![\d,.])\d{1,2}(?:,\d{2})+,\d{3}(?![\d,])")  # "20,00,000" is 2,000,000
_LAKH_CRORE = lazy_compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(lakhs?|lacs?|crores?)\b", re.IGNORECASE)


def _lakh_crore(m: re.Match[str]) -> str:
    value = float(m.group(1)) * (1e7 if m.group(2).lower().startswith("cr") else 1e5)
    return f"{value:.0f}"


_FROM_TO = lazy_compile(r"(?:从|從)\s*[^，,。；;从從]{1,16}?\s*"
                        r"(?:换成|換成|改成|改为|改為|涨到|漲到|增加到|提高到|加到|降到|减到|減到|变成|變成|砍到)\s*")
"""A value changed within the message ("从 7B 换成 14B"): only the new one stays."""
_QUARTER_MILLION = lazy_compile(r"\ba\s+quarter(?:\s+of\s+a)?\s+million\b|\bhalf\s+a\s+million\b", re.IGNORECASE)
_GRAND = lazy_compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)\s*grand\b", re.IGNORECASE)
_WORD_GRAND = lazy_compile(r"\b(a\s+couple|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|"
                           r"forty|fifty)\s+grand\b", re.IGNORECASE)
_GRAND_WORDS = {"a couple": 2, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
"""'three grand' is 3k: the thousands said in words (`_GRAND` takes the digits)."""
_POWER_WORD = lazy_compile(
    r"(?:功耗|功率|电源|電源|電供|供电|供電|tdp|psu|瓦)\s*(?:是|为|為|只有|约|約|大概|用的是|用)?\s*$", re.IGNORECASE
)


def _wan(m: re.Match[str]) -> str:
    if _POWER_WORD.search(m.string[max(0, m.start() - 8): m.start()]):
        return m.group(0)  # "功耗 350w 以内" is watts
    return m.group(1) + "万"


_EN_UNITS = {w: i for i, w in enumerate([
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"])}
_EN_TENS = {w: 10 * i for i, w in enumerate(
    ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], start=2)}
_EN_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_EN_TOKEN = re.compile(r"[a-z]+", re.IGNORECASE)
_VAGUE_MULTIPLIER = re.compile(r"(?:\ba\s+few|\bseveral|\ba\s+couple(?:\s+of)?)\s+$", re.IGNORECASE)


def _en_phrase(words: list[str]) -> tuple[float, int] | None:
    """The value of the number words that open `words` and how many words it took, or None when they
    do not open with one that is a number by itself (a teen, a tens word, hundred, a scale or dozen:
    a bare "one" or "ten" is left to the parsers, which read it in context). Words follow the order
    English writes them: "two hundred and fifty thousand", "twenty-five", "a dozen", "half a million",
    "one and a half million"; "twenty four seven" stops after "four"."""
    total, current, used, strong, last = 0.0, 0.0, 0, False, "start"
    i = 0
    while i < len(words):
        w = words[i].lower()
        nxt = words[i + 1].lower() if i + 1 < len(words) else ""
        if w in ("a", "an") and last in ("start", "scale") and nxt in ("hundred", "dozen", *_EN_SCALES):
            current, last = current + 1, "unit"
        elif w == "half" and last == "start" and nxt in ("a", "an") and i + 2 < len(words) \
                and words[i + 2].lower() in _EN_SCALES:
            current, last, i = 0.5, "unit", i + 1  # "half a million": the "a" is part of it
        elif w == "and" and nxt == "a" and i + 2 < len(words) and words[i + 2].lower() == "half" \
                and last in ("unit", "tens") and current:
            current, last, i = current + 0.5, "unit", i + 2  # "one and a half million"
        elif w == "and" and last == "hundred" and (nxt in _EN_UNITS or nxt in _EN_TENS):
            last = "and"
        elif w in _EN_UNITS and last in ("start", "tens", "hundred", "and", "scale") and not (
                last == "tens" and _EN_UNITS[w] >= 10):
            current, last = current + _EN_UNITS[w], "unit"
            strong = strong or _EN_UNITS[w] >= 13
        elif w in _EN_TENS and last in ("start", "hundred", "and", "scale"):
            current, last, strong = current + _EN_TENS[w], "tens", True
        elif w == "hundred" and last in ("start", "unit", "tens") and current < 100:
            current, last, strong = (current or 1) * 100, "hundred", True
        elif w == "dozen" and last in ("start", "unit"):
            current, last, strong = (current or 1) * 12, "dozen", True
        elif w in _EN_SCALES and last == "start":  # "a couple thousand", "several million": the caller multiplies
            total, last, strong = _EN_SCALES[w], "scale", True
        elif w in _EN_SCALES and last in ("unit", "tens", "hundred", "dozen") and current:
            total, current, last, strong = total + current * _EN_SCALES[w], 0.0, "scale", True
        else:
            break
        i += 1
        used = i
    if not strong or used == 0:
        return None
    while used and words[used - 1].lower() in ("and", "a", "an"):
        used -= 1
    return total + current, used


def english_number_words(text: str) -> str:
    """Number words as digits: "forty thousand dollars" -> "40000 dollars", "about a hundred users" ->
    "about 100 users", "twenty-five" -> "25", "a dozen 3090s" -> "12 3090s", "half a million" -> "500000"."""
    if not re.search(r"(?i)teen|ty\b|ty-|hundred|thousand|million|billion|trillion|dozen", text):
        return text
    tokens = list(_EN_TOKEN.finditer(text))
    out, at, i = [], 0, 0
    while i < len(tokens):
        # a phrase runs over words separated by spaces or hyphens only
        run = [tokens[i]]
        while i + len(run) < len(tokens):
            gap = text[run[-1].end(): tokens[i + len(run)].start()]
            if not re.fullmatch(r"[\s-]+", gap):
                break
            run.append(tokens[i + len(run)])
        vague = None
        if run[0].group().lower() in ("hundred", *_EN_SCALES):  # "5 million" is the parsers' (a digit's magnitude)
            vague = _VAGUE_MULTIPLIER.search(text, 0, run[0].start())
        found = _en_phrase([t.group() for t in run]) if vague or run[0].group().lower() not in (
            "hundred", *_EN_SCALES) else None
        if found is None:
            i += 1
            continue
        value, used = found
        start, end = run[0].start(), run[used - 1].end()
        if vague:  # "a few hundred users" is some 300, "a couple thousand" 2000
            value *= 2 if "couple" in vague.group().lower() else 3 if "few" in vague.group().lower() else 5
            start = vague.start()
        out.append(text[at:start])
        out.append(f"{value:g}" if value < 1e15 and value == int(value) and value < 1e6 else f"{value:.15g}")
        at, i = end, i + used
    out.append(text[at:])
    return "".join(out)


_SMALL_COUNT_BEFORE_UNIT = lazy_compile(  # "two epochs", "three servers with 8x A100 each": counts of things
    r"(?i)\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?=[\s-]+(?:epochs?|passes)\b)|"
    r"\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"(?=\s+(?:(?:gpu|dgx|hgx|[a-z]+-?gpu)\s+)?(?:servers|nodes|machines|boxes|workstations|rigs|hosts|systems)\b)|"
    # "two nodes of eight H100 SXM each", "four A6000s": a count of cards said in words
    r"(?<=\bof\s)(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"(?=\s+(?:nvidia\s+)?(?:[ahlbtv]\d{2,3}|rtx|mi\d{3}|\d{4})\w*\b)")


_TASK_WORDS = ("quantization", "pretraining", "concurrency", "finetuning", "pretrained", "concurrent", "finetuned",
               "inference", "quantized", "finetune", "pretrain")  # longest first: "pretraing" is "pretraining"
_LATIN_WORD = lazy_compile(r"(?<![A-Za-z])[A-Za-z]+(?:-[A-Za-z]+)?(?![A-Za-z])")


def _one_edit(a: str, b: str) -> bool:
    """Whether `a` becomes `b` by one deletion, insertion, substitution or swap of neighbours."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                   and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
    return short[i:] == long_[i + 1:]


def fix_task_typos(text: str) -> str:
    """Task words typed one key off become the word: "finetuen", "fine-tuen", "infernce", "pretrian"
    (not "training": "raining" is one key from it; the first letter is kept: "retrain" is no "pretrain")."""
    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        flat = word.replace("-", "").lower()
        if len(flat) < 7 or flat in _TASK_WORDS:
            return word
        return next((t for t in _TASK_WORDS if t[0] == flat[0] and _one_edit(flat, t)), word)  # not "retrain"
    return _LATIN_WORD.sub(fix, text)


_FINANCIAL = str.maketrans("壹贰貳叁參肆伍陆陸柒捌玖拾佰仟", "一二二三三四五六六七八九十百千")
_FINANCIAL_DIGIT = "[壹贰貳叁參肆伍陆陸柒捌玖零]"
_FINANCIAL_RUN = lazy_compile(
    rf"{_FINANCIAL_DIGIT}?(?:[拾佰仟]{_FINANCIAL_DIGIT}?)+(?=[万萬亿億元圓园]|$|[^\u4e00-\u9fff])")
"""Numerals as contracts and tenders write amounts ("人民币叁佰伍拾万元整", "新臺幣參佰萬元"): a run holding 拾,
佰 or 仟 (so 參 of 參數 or 參考 is never read as three)."""


def normalize_text(text: str) -> str:
    """Fold full-width digits/letters (NFKC), keep CJK punctuation from gluing numbers together, space Latin
    words and numbers off the Chinese they are glued to ("用QLoRA微调" -> "用 QLoRA 微调"), and read the
    mainland/Taiwan shorthand "5w" (5 万) before counts and amounts ("2w条", "5w以内")."""
    text = text.translate(_PUNCT)
    text = unicodedata.normalize("NFKC", text)
    text = _FINANCIAL_RUN.sub(lambda m: m.group().translate(_FINANCIAL), text)
    text = text.replace("\u00a0", " ").replace("\u3000", " ").replace("併發", "並發")  # 併發: a Taiwan variant
    text = _ODD_BEFORE_MEASURE.sub("", text)
    text = _ODD_AFTER_NUMBER.sub("", text)
    text = _CODE_GLUED.sub(r"\1 ", text)
    text = _EURO_GROUPS.sub(lambda m: m.group(0).replace(".", ""), text)
    text = _DECIMAL_COMMA.sub(r"\1.\2", text)
    text = _DUAL_CARD.sub("2卡", text)  # "一台双卡L40S的服务器" holds two
    text = _CJK_LATIN.sub(" ", text)
    text = _MEASURE_BEFORE_MAGNITUDE.sub(
        lambda m: (m.group(1) or ("0.5" if m.group(3) == "半" else m.group(3))) + (m.group(2) or m.group(4)), text)
    text = _COMPOUND_MAGNITUDE.sub(_compound, text)  # "1億2千萬" is 120000000, "4 萬 8 千" 48000
    text = _WAN_AND_DIGIT.sub(r"\1.\3\2", text)  # "2 萬 5" is 2.5 萬
    text = _W_AND_DIGIT.sub(r"\1.\2万", text)  # "1w5" is 1.5 万
    text = _YUAN_AND_JIAO.sub(_yuan_jiao, text)  # "一块二" is 1.2 元
    text = _FROM_TO.sub("", text)  # "数据从 2 万条涨到 8 万条" -> "数据 8 万条"
    text = english_number_words(text)  # "forty thousand dollars" is 40000 dollars
    text = fix_task_typos(text)
    text = _SMALL_COUNT_BEFORE_UNIT.sub(lambda m: str(_EN_UNITS[next(g for g in m.groups() if g).lower()]), text)
    text = _INDIAN_GROUPS.sub(lambda m: m.group().replace(",", ""), text)
    text = _LAKH_CRORE.sub(_lakh_crore, text)  # "1.5 lakh" is 150000, "2 crore" 20000000
    text = _GRAND.sub(r"\1k bucks", text)  # "3 grand" is 3k, and money
    text = _WORD_GRAND.sub(lambda m: str(_GRAND_WORDS[" ".join(m.group(1).lower().split())]) + "k bucks", text)
    text = _QUARTER_MILLION.sub(lambda m: "250000" if "quarter" in m.group(0).lower() else "500000", text)
    text = _ZHAO.sub(r"\1万亿", text)  # "2 兆 token" is 2 万亿
    return _WAN_W.sub(_wan, text)


def parse_chinese_integer(text: str) -> int | None:
    """Evaluate a run of Chinese numerals: 七十亿 -> 7e9, 三百五十亿 -> 3.5e10, 两千 -> 2000, 一万二 -> 12000.

    A trailing digit right after a unit is the colloquial abbreviation of the next lower unit
    ("三千五" = 3500, "一万二" = 12000, "两百五" = 250). Returns None for text that is not a numeral.
    """
    if not text or any(ch not in CN_DIGITS and ch not in CN_SMALL_UNITS and ch not in CN_BIG_UNITS for ch in text):
        return None
    result = 0   # parts already multiplied by 亿
    wan = 0      # parts below 亿 already multiplied by 万
    section = 0  # the part below 万
    number = 0   # the digit waiting for its unit
    pending = False
    for ch in text:
        if ch in CN_DIGITS:
            if pending and number and CN_DIGITS[ch]:
                return None  # "一二" is a list of digits, not a numeral
            number, pending = CN_DIGITS[ch], True
        elif ch in CN_SMALL_UNITS:
            section += (number if pending else 1) * CN_SMALL_UNITS[ch]
            number, pending = 0, False
        elif ch in ("万", "萬"):
            part = section + number
            wan += (part if part or pending else 1) * 10**4
            section, number, pending = 0, 0, False
        else:  # 亿 / 億
            part = wan + section + number
            result += (part if part or pending else 1) * 10**8
            wan, section, number, pending = 0, 0, 0, False
    if pending and len(text) >= 2:
        before = text[-2]
        scale = {"十": 1, "百": 10, "千": 100, "万": 1000, "萬": 1000, "亿": 10**7, "億": 10**7}.get(before)
        if scale:
            number *= scale
    return result + wan + section + number


def _digit_string(text: str) -> int | None:
    """'二零二五' read digit by digit (years, model numbers); None unless every char is a digit."""
    if len(text) >= 2 and all(ch in CN_DIGITS for ch in text):
        return int("".join(str(CN_DIGITS[ch]) for ch in text))
    return None


_APPROX_WORDS = lazy_compile(
    r"^\s*(?:大概|大约|大約|约|約|差不多|around|about|approx\.?|roughly|~)\s*|\s*(?:左右|上下|以内|以內|ish)\s*$",
    re.IGNORECASE,
)


def strip_approx(text: str) -> str:
    """A number without the words that only say it is rough: '大概三四十萬' -> '三四十萬', 'about 3k' -> '3k'."""
    return _APPROX_WORDS.sub("", text)


def parse_number(text: str) -> float | None:
    """The value of one number as typed, or None: '30,000' -> 30000, '2.5万' -> 25000, '1.5B' -> 1.5e9.

    A leading minus sign is kept (so that a negative budget can be refused with a reason).
    """
    if not text or len(text) > 200:
        return None
    text = strip_approx(normalize_text(text).strip())
    match = _NUMBER_ONLY.match(text)
    if not match:
        return None
    sign = -1.0 if text.lstrip().startswith("-") else 1.0
    value = number_value(match.group("num"))
    return None if value is None else sign * value


def number_value(raw: str) -> float | None:
    """Evaluate the text captured by NUMBER_RE's ``num`` group."""
    raw = raw.strip()
    if not raw:
        return None
    if raw[0].isdigit() or raw[0] == ".":
        m = re.match(_ARABIC, raw)
        if not m:
            return None
        try:
            base = float(m.group(0).replace(",", ""))
        except ValueError:
            return None
        rest = raw[m.end():].strip().lower()
        if rest:
            factor = CN_MAGNITUDES.get(rest) or EN_MAGNITUDES.get(rest)
            if factor is None:
                return None
            base *= factor
        return base if math.isfinite(base) else None
    approx = _APPROX_RANGE.match(raw)
    if approx and CN_DIGITS[approx.group(2)] == CN_DIGITS[approx.group(1)] + 1 and (
            approx.group(3) or CN_DIGITS[approx.group(1)] >= 2):
        # "三四十萬" is 30-40 万, "七八万" 7-8 万, "七八块" 7-8 (not "一二", a list of digits): the midpoint of the two
        # neighbouring numbers
        low = parse_chinese_integer(approx.group(1) + approx.group(3))
        high = parse_chinese_integer(approx.group(2) + approx.group(3))
        return None if low is None or high is None else (low + high) / 2
    value = _digit_string(raw)
    if value is None:
        value = parse_chinese_integer(raw)
    return None if value is None else float(value)


_APPROX_RANGE = lazy_compile(r"^([一二两兩三四五六七八])([二三四五六七八九])([十百千万萬亿億]*)$")


def find_numbers(text: str) -> list[tuple[float, int, int]]:
    """Every number in `text` with its span: [(value, start, end)], in order. Text is normalized first
    by the caller (spans refer to the text given)."""
    out = []
    for m in re.finditer(NUMBER_RE, text, re.IGNORECASE):
        value = number_value(m.group("num"))
        if value is not None:
            out.append((value, m.start("num"), m.end("num")))
    return out
