"""Slot filling from free text: what a message says about the task, model, data, load, money, time and room.

People answer in English, Simplified or Traditional Chinese, several answers in one message, with
Arabic or Chinese numerals, currencies, circuits instead of kilowatts and typos in model names.
`extract(text, locale)` returns only the Profile fields the text states; `extract_detailed` also
returns what was wrong (a negative budget, an unknown model) so that the dialogue can re-ask with
a reason. Parsers are pure: no I/O except reading a `config.json` the user names, no exception
escapes for any input (the property tests feed them arbitrary text).

Parsers run in a fixed order and *consume* the spans they read, so that a later parser does not
read "80GB" of "8x A100 80GB" as a model size or "512 tokens" of "10k examples of 512 tokens" as
the data set size.
"""

from __future__ import annotations

import difflib
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from advisor.conversation.numbers import NUMBER_RE, YI_WORD, find_numbers, lazy_compile, normalize_text, number_value
from advisor.core import planner, power
from advisor.currency import default_currency, to_usd
from advisor.locales import Locale

# --------------------------------------------------------------------------------------------
# Currencies. Default conversion rates: approximate mid-market rates of June 2025 (USD per unit).
# They are stated to the user whenever a budget is converted; the original amount is kept.

# (the rates and their date live in advisor.currency)

# Chinese family names and nicknames users type for catalogue families.
FAMILY_SYNONYMS: dict[str, str] = {
    "通义千问": "qwen ", "通義千問": "qwen ", "千问": "qwen ", "千問": "qwen ", "通义": "qwen ", "通義": "qwen ",
    "羊驼": "llama ", "羊駝": "llama ", "美洲驼": "llama ", "米斯特拉尔": "mistral ", "深度求索": "deepseek ",
}

# --------------------------------------------------------------------------------------------
# Result type


@dataclass
class Extraction:
    """What one message says: Profile fields (only `Profile` keys), what it says beyond them (an explicit
    "no deadline" or "no budget", a count of images, an amount with no currency), and problems (UI string
    keys with values)."""

    fields: dict[str, Any] = field(default_factory=dict)
    problems: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    no_deadline: bool = False
    no_budget: bool = False
    images: bool = False
    more_slots: int | None = None  # "还空着4个槽": cards that fit beyond the ones they have (max_gpus once those are read)
    currency_assumed: bool = False
    unknown_model: str | None = None
    unknown_gpu: str | None = None
    gpu_mentions: list[str] = field(default_factory=list)
    monthly_budget: tuple[float, str, float] | None = None  # (amount, currency, usd) a month, no term said yet
    per_run_budget: bool = False  # "每次預算 NT$5,000": the budget is one run's; times the runs when they are said

    def says_anything(self) -> bool:
        """A value, or an explicit "no deadline" / "no budget"."""
        return bool(self.fields) or self.no_deadline or self.no_budget

    def problem(self, code: str, **values: Any) -> None:
        if all(k != code for k, _ in self.problems):
            self.problems.append((code, values))


_QWEN_DASH = lazy_compile(r"(?i)\b(qwen)[\s-](2\.5|2|3)(?=[\s-])")


class _Work:
    """The normalized message plus a mask of consumed characters (`text` keeps `orig`'s positions)."""

    def __init__(self, text: str):
        orig = apply_corrections(normalize_text(text))
        for word, repl in FAMILY_SYNONYMS.items():
            if word in orig:
                orig = orig.replace(word, repl)
        orig = _QWEN_DASH.sub(lambda m: m.group(1) + m.group(2) + " " * (len(m.group(0)) - len(m.group(1) + m.group(2))),
                              orig)  # "qwen-2.5-coder 14b" is a Qwen2.5 (same length: positions stay)
        self.orig = orig
        # Lower-case character by character so that positions in `text` and `orig` agree.
        lowered = "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in orig)
        self.text = _blank_negations(lowered)

    def consume(self, start: int, end: int) -> None:
        start, end = max(0, start), max(start, min(end, len(self.text)))
        self.text = self.text[:start] + " " * (end - start) + self.text[end:]

    def finditer(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        return list(pattern.finditer(self.text))


def _num(name: str) -> str:
    """NUMBER_RE with its group renamed, so that one pattern can hold several numbers."""
    return NUMBER_RE.replace("(?P<num>", f"(?P<{name}>")


NUM = NUMBER_RE
_FLAGS = re.IGNORECASE


def _numtext(m: re.Match[str]) -> str | None:
    """The text of the first number group that took part in the match (groups named num*)."""
    for name, value in m.groupdict().items():
        if name.startswith("num") and value:
            return value
    return None


def _c(pattern: str) -> re.Pattern[str]:
    return lazy_compile(pattern, _FLAGS)


# --------------------------------------------------------------------------------------------
# Negation: "not 8B, 70B", "不是 LoRA，是 QLoRA", "use 70B rather than 8B" — the negated phrase is
# blanked out before the slots are read.

_NEG = _c(
    r"(?:\bnot\b|\bisn't\b|\bno longer\b|\binstead of\b|\brather than\b|\bdon't use\b|\bwithout\b|"
    r"\bno\b(?!\s+(?:more|less|later|longer|earlier|sooner|fewer)\b)|(?<!有)(?:没有|沒有)|\bcan'?t\s+use\b|\bnot\s+allowed\b|"
    r"不(?:能|准|可|想|打算|考虑|考慮|会|會)?(?:自建|上云|上雲|用云|用雲|上公有云|上公有雲)|不想(?=租|买|買)|不(?=租|买|買)|"
    r"先别|先別|别上|別上|不上(?=\s*[a-z])|"
    r"不是|不要|不用|而不是|而非|别用|別用|并非|並非|不再|不想(?:用|要|做|跑|上)|不考虑|不考慮|不打算用|"
    r"唔使|唔駛|唔想(?:用|要|做|跑|上)?|唔要|唔用|(?<!係)唔係|(?<!有)冇|"
    r"\b(?:don'?t|do\s+not)\s+want\s+(?:to\s+(?:use|do|run|go\s+with)\b|(?!to\b))|"
    r"\brather\s+not\s+(?:use|do|go\s+with)\b|\bavoid(?:ing)?\b|"
    r"(?:还|還)(?:没|沒)(?:有)?(?:要|打算|决定|決定)?|不打算|暂时不|暫時不|先不|"
    r"\bnot\s+(?:buying|renting|going\s+to\s+(?:buy|rent)|planning\s+to\s+(?:buy|rent))\b(?:\s+(?:anything|yet|now))?|"
    r"\bno\s+more\b|\bstop\s+(?:renting|paying)\b|\bthan\s+keep\s+(?:paying|renting|using)\b)(?:\s*(?:用|使用|use\b|using\b|the\b|an?\b))?"
)
_NEG_STOP = _c(r"[,;:.!?()（）]|\bbut\b|\buse\b|\bto\b|\bit's\b|\bits\b|而是|是|改|换成|換成|用|要|，|；|but|\band\b|"
               r"\bso\b|\bhence\b|\btherefore\b|\bthus\b|所以|因此")


# Corrections inside one message: "40 users - scratch that, more like 90", "预算8w，哦不对，老板批了12w",
# "4 張 RTX 6000 Ada，欸不對，是 6 張". The corrected number replaces the earlier one (the nearest before the
# marker with the same unit word, else the nearest; never one inside a GPU or model name), a corrected model name
# replaces the earlier one, and the correcting clause is dropped (the rest of its sentence stays).
_CORRECTION = _c(
    r"(?:\bscratch\s+that\b|\bno\s+wait\b|\bwait,?\s+no\b|\bcorrection\s*:|\bsorry,?\s+i\s+meant?\b|\bi\s+meant\b|"
    r"(?<=[-–—,])\s*sorry\b|(?<=[-–—,]\s)sorry\b|(?<=[-–—]\s)wait\b,?|(?<=[-–—])wait\b,?|(?<=[-–—,]\s)actually\b(?=\s*\d)|\bactually\s+no\b|\bno,?\s+actually\b|\bmake\s+(?:it|that)\b(?=\s*[~$]?\s*\d)|\boops\b|"
    r"(?<![对對])(?:[哦噢喔啊欸诶誒呃]\s*)?(?:不对|不對)(?=\s*[,:是]|\s*$)|(?:[哦噢喔啊欸诶誒呃阿]\s*)(?:不是)(?=\s*[,:是])|"
    r"说错了|說錯了|打错了|打錯了|(?:抱歉|不好意思)?\s*打(?:错|錯)(?=\s*[,:是])|更正一下|更正\s*[,:]|"
    r"(?<=[,，]\s)[^,，。]{0,8}?(?:说|說)?\s*(?:砍到|砍成|降到|减到|減到|缩到|縮到)(?=\s*\d)|"
    r"算了\s*,?\s*(?=还是|還是)|(?<=[-–—])\s*no\s*,(?=\s*\d)|"  # "72b，算了还是32b吧", "2 more - no, 3 more"
    r"(?:后来|後來|现在|現在|最后|最後)\s*(?:又)?\s*(?:改成|改为|改為|变成|變成|提高到|加到|调到|調到|砍到|降到)|"  # "一开始说30万，后来改成50万"
    r"\b(?:later|since)\s+(?:raised|bumped|increased|changed|cut|lowered)\s+(?:it\s+)?to\b|"
    r"\b(?:got|was|has\s+been)\s+(?:raised|bumped(?:\s+up)?|increased|cut|lowered)\s+to\b)"
)
_CARDS_TOTAL = _c(rf"(?:一共|总共|總共|合计|合計|总计|總計|共|\bin\s+total\b|\btotal\s+of\b|\bso\b)\s*(?:是|有|就是)?\s*{NUM}\s*"
                  r"(?:张|張|块|塊|颗|顆|片|卡|gpus?\b|cards?\b)|"
                  rf"{_num('num2')}\s*(?:gpus?|cards?)\s+(?:total|in\s+total|in\s+all|altogether)\b")
_SIZE_FIX = lazy_compile(r"[\s,:]*(?:i\s+meant?\s+)?(?:还是|還是|改成|改用|换成|換成|用|make\s+it|use|the)?\s*(\d+(?:\.\d+)?)\s*b\b",
                         re.IGNORECASE)
_CARD_UNIT = lazy_compile(r"\s*(?:张|張|块|塊|颗|顆|片|x\b|×|cards?\b|gpus?\b)", re.IGNORECASE)
_ASIDE_END = lazy_compile(r"\s[-–—]\s|[–—]")
_SIZE_LATER = lazy_compile(r"(?<![\w.-])(?:the\s+)?(\d+(?:\.\d+)?)\s*b\b(?!\s*(?:tokens?|params?|parameters?))", re.IGNORECASE)
_SIZE_IN_NAME = lazy_compile(r"(\d+(?:\.\d+)?)\s*b\b", re.IGNORECASE)
_SENTENCE_END = lazy_compile(r"[;!?]|\.(?!\d)|$")
_UNIT_AFTER = lazy_compile(r"\s*([a-z]+|[\u4e00-\u9fff])", re.IGNORECASE)
_UNIT_FOLD = str.maketrans("張個條臺萬", "张个条台万")


def _unit_after(text: str, end: int) -> str:
    m = _UNIT_AFTER.match(text, end)
    return m.group(1).lower().rstrip("s").translate(_UNIT_FOLD) if m else ""


def _clause_end(text: str, pos: int) -> int:
    m = _CLAUSE_EDGE.search(text, pos)
    return m.start() if m else len(text)


_EDIT_MARK = lazy_compile(r"(?:^|\n)\s*(?:edit|update|upd|ps|p\.s\.|补充|補充|更正|修正|(?:第\s*\d+\s*(?:条|條)\s*)?附言|追记|追記)\s*\d*\s*[:：]",
                          re.IGNORECASE)
_TOKEN = r"(?:[~$¥€£]?\s*\d[\d,.]*\s*(?:k|w|万|萬|m)?(?![a-z0-9_]|\.\d)|[a-z]{1,4}\d{2,4}[a-z]?(?![a-z0-9_]|\.\d))"
_NOT_THAT = lazy_compile(rf"(?P<new>{_TOKEN})[^,，.。;；\n]{{0,40}}?[,，]?\s*(?:\bnot\b|而?不是|并非|並非)\s*(?P<old>{_TOKEN})",
                         re.IGNORECASE)
"""In an EDIT or 補充 line, the figure or card that replaces one said earlier: "EDIT: it's ~25k tickets after dedup,
not 40k", "補充：機器其實是 H200 不是 H100"."""


def _apply_edit(text: str) -> str:
    """`text` with what its EDIT / 補充 lines correct written back where the old figure or card was said, and the
    correcting clause dropped. A figure replaces only one said with the same word after it ("2 A100s, not 4" changes
    "4 A100s", not "a 4 week deadline")."""
    mark = _EDIT_MARK.search(text)
    if mark is None:
        return text
    pos = mark.end()
    for _ in range(6):  # an edit corrects a few things at most
        fix = _NOT_THAT.search(text, pos)
        if fix is None:
            break
        pos = fix.end()
        new, old = fix.group("new").strip().rstrip(".,"), fix.group("old").strip().rstrip(".,")
        if new.lower() == old.lower() or new[-1].isdigit() != old[-1].isdigit():
            continue  # a figure for a figure, a card for a card
        unit = re.match(r"\s*([a-z][a-z0-9]*)", text[fix.start("new") + len(fix.group("new").rstrip(".,")):],
                        re.IGNORECASE) if new[-1].isdigit() else None
        after_old = rf"(?=\s+(?:\S+\s+)?{re.escape(unit.group(1)[:4])})" if unit and unit.group(1).lower() != "not" else ""
        said = re.compile(rf"(?<![a-z0-9_.]){re.escape(old)}(?![a-z0-9_]|\.\d){after_old}", re.IGNORECASE)
        head = said.sub(new, text[: mark.start()])
        if head == text[: mark.start()]:
            continue
        shift = len(head) - mark.start()
        text = head + text[mark.start(): fix.start()] + text[fix.end():]
        pos = fix.start() + shift
    return text


def apply_corrections(text: str) -> str:
    """`text` with each in-message correction applied (see _CORRECTION); text without one is returned as is.
    A marker that corrects nothing ("Hi all, long post, sorry.") is passed over, not the end of the search."""
    text = _apply_edit(text)
    pos = 0
    for _ in range(6):  # a message corrects itself a few times at most
        marker = _CORRECTION.search(text, pos)
        if not marker:
            break
        fixed = _apply_correction(text, marker)
        text, pos = (fixed, 0) if fixed is not None else (text, marker.end())
    return text


_STATED_AS = lazy_compile(r"(?:是|为|為|\bis\b|\bare\b|=|→|->)\s*$", re.IGNORECASE)


def _apply_correction(text: str, marker: re.Match[str]) -> str | None:
    """`text` with the correction at `marker` applied, or None when it corrects nothing."""
    stop = _SENTENCE_END.search(text, marker.end())  # "$" always matches; mypy cannot know it
    end = stop.start() if stop else len(text)
    low = text.lower()
    named = [(a.ident, s, e) for a, s, e in _scan_aliases(low, _catalogue_index("model"))]
    fixed_models = [n for n in named if marker.end() <= n[1] < end]
    earlier_models = [n for n in named if n[2] <= marker.start()]
    if fixed_models and earlier_models:  # "先用 Mixtral 8x7B，啊不對，改用 Qwen2.5-14B 好了"
        _, s, e = earlier_models[-1]
        _, fs, fe = fixed_models[0]
        return text[:s] + text[fs:fe] + text[e: marker.start()] + text[_clause_end(text, fe):]
    size = _SIZE_FIX.match(low, marker.end(), end) or _SIZE_LATER.search(low, marker.end(), end)
    sizes = list(_SIZE_IN_NAME.finditer(text, earlier_models[-1][1], earlier_models[-1][2])) if earlier_models else []
    if size and sizes and not fixed_models:  # "想部署 qwen2.5 72b，算了还是 32b 吧": the same model, another size
        last = sizes[-1]
        return (text[:last.start(1)] + size.group(1) + text[last.end(1): marker.start()]
                + text[_clause_end(text, size.end()):])
    gpus = _gpu_spans(low)
    fixed_gpus = [g for g in gpus if marker.end() <= g[4] < end]
    earlier_gpus = [g for g in gpus if g[5] <= marker.start()]
    total = _CARDS_TOTAL.search(low, marker.end(), end)
    if total and earlier_gpus and not fixed_gpus and not fixed_models:
        # "4台服务器，每台8张4090，哦不对，有一台是4卡的，一共28张", "3 servers w/ 8 each - sorry, … so 20 cards
        # total": the total they state replaces the machines × cards said before
        _, _, a_s, a_e, s, e = earlier_gpus[-1]
        n = _numtext(total) or ""
        return text[:s] + f"{n} x " + text[a_s:a_e] + text[e: marker.start()] + text[_clause_end(text, total.end()):]
    if fixed_gpus and earlier_gpus and not fixed_models:  # "4 張 3090，喔不是，是 4 張 A6000", "2x 3090, sorry, 2x 4090"
        same_gpu = [g for g in earlier_gpus if _family(g[0]) == _family(fixed_gpus[0][0])]  # "4 L40S and 2 A6000 - wait, 3 L40S"
        if not (same_gpu and fixed_gpus[0][1] is None):  # not "8x V100 … bf16 - wait, V100 has no bf16": named again
            _, _, _, _, s, e = (same_gpu or earlier_gpus)[-1]
            _, _, _, _, fs, fe = fixed_gpus[0]
            return text[:s] + text[fs:fe] + text[e: marker.start()] + text[_clause_end(text, fe):]
    if fixed_gpus and not earlier_gpus and not fixed_models and fixed_gpus[0][1] is not None:
        # "每台4张L20……不对，是4张L40S": the card first named is one the catalogue lacks; the corrected one
        # replaces it with its count (from the last count said before the marker)
        counts = [n for n in find_numbers(text[: marker.start()]) if _CARD_UNIT.match(text, n[2])]
        if counts:
            _, _, _, _, fs, fe = fixed_gpus[0]
            return text[:counts[-1][1]] + text[fs:fe] + text[_clause_end(text, fe):]
    names = named + [(a.ident, s, e) for a, s, e in _scan_aliases(low, _catalogue_index("gpu"))]
    fixes = [(v, s + marker.end(), e + marker.end()) for v, s, e in find_numbers(text[marker.end():end])]
    before = [n for n in find_numbers(text[: marker.start()]) if not any(a <= n[1] < b for _, a, b in names)]
    fixes = [n for n in fixes if not any(a <= n[1] < b for _, a, b in names)]
    if not fixes or not before:
        return None
    near = _unit_after(text, before[-1][2])
    alike = [f for f in fixes if near and _unit_after(text, f[2]) == near]
    # "不对，有一张坏了，能用的是5张": of several counts of the same kind, the one stated as what it is
    _, fs, fe = next((f for f in alike if _STATED_AS.search(text[max(0, f[1] - 6): f[1]])), (alike or fixes)[0])
    mag = re.match(r"[wWkK](?![a-zA-Z])", text[fe:])
    fe += mag.end() if mag else 0  # "是45w": the magnitude goes with the number
    end = _clause_end(text, fe)  # "不对，是峰值50人同时用，int8量化": the rest of the sentence stays
    dash = _ASIDE_END.search(text, fe, end)
    end = dash.start() if dash else end  # "$80k - sorry, $85k now that … came through - on hardware for LoRA"
    unit = _unit_after(text, fe)
    same = [n for n in before if unit and _unit_after(text, n[2]) == unit]
    if unit and not same and any(_unit_after(text, n[2]) for n in before[-1:]):
        return None  # "8 张卡, 不对, 是 40 个人": a number of another kind corrects nothing
    _, s, e = (same or before)[-1]
    was = re.match(r"[wWkK](?![a-zA-Z])", text[e:])
    e += was.end() if was else 0  # "预算8w，哦不对，…12w": the old magnitude goes with the old number
    return text[:s] + text[fs:fe] + text[e: marker.start()] + text[end:]


_NEG_AFTER = _c(r"(?P<what>fp8|fp16|bf16|int8|int4|fp4|nvfp4|q4|q8|lora|qlora|液冷|水冷|云端?|雲端?|cloud)\s*(?:的话|的話)?\s*"
                r"(?:先|就|暂时|暫時|也)?\s*(?:不考虑|不考慮|不折腾|不折騰|不用了?|不要了?|免了|不上|别上|別上|pass)")


_ABANDONED = _c(
    r"(?:本来|本來|原本|原来|原來|原先|一开始|一開始)\s*(?:是)?\s*(?:打算|想|计划|計劃|要|准备|準備)[^。！？!?；;]{0,30}?"
    r"(?=算了|后来|後來|不过|不過|但|还是|還是|换成|換成|改成|改为|改為|现在|現在)|"
    r"\b(?:i|we)\s+(?:was|were|had\s+been)\s+(?:originally\s+)?(?:going|planning)\s+to\s+[^.;!?]{0,50}?(?=\bbut\b|\binstead\b|\bnow\b)|"
    r"\boriginally\s+(?:wanted|planned|meant)\s+to\s+[^.;!?]{0,50}?(?=\bbut\b|\binstead\b|\bnow\b)")
"""A plan given up in the same message ("本来打算自己攒机，算了还是换成租的吧", "we were going to buy a box but now we'll
rent"): what replaced it counts, not the plan."""


_ELSEWHERE = _c(
    # a past job's project: "at my previous job we full fine-tuned Llama-2-13B on 8x A100", "去年在上家公司用 16 张 A100…"
    r"\b(?:at|in)\s+(?:my|our)\s+(?:previous|last|old|former)\s+(?:job|company|employer|team|lab|role)\b|"
    r"\b(?:my|our)\s+(?:previous|last|old|former)\s+(?:job|company|employer|team|lab)\b|"
    r"上家公司|上一家公司|前東家|前东家|老東家|老东家|上一份工作|之前的公司|以前的公司|"
    # a friend's or acquaintance's team: "朋友在一家大厂，他们组用 8 张 H800…", "a friend at a big lab says they use…";
    # not a friend asked for ("帮朋友问一下：他们公司有…"), greeted ("各位朋友好") or in business with the writer
    r"(?:^|(?<=[\s。！？.!?]))(?![^。！？.!?\n，,]{0,8}?(?:帮|幫|替|代|各位|大家))[^。！？.!?\n，,]{0,8}?"
    r"(?<![跟和同与與])(?:朋友|同学|同學|学长|學長|学姐|學姐)(?![们們好])"
    r"(?=[^。！？.!?\n]{0,40}?(?:他们|他們|她们|她們|他的|她的|佢哋|佢|(?:间|間|家)公司))"
    r"(?![^。！？.!?\n]{0,40}?(?:借给我|借給我|借我|送我|卖给我|賣給我|俾我|[跟和同与與]我(?:一起|合)))|"
    r"(?<!for\s)\b(?:a|my)\s+friend\b(?!\s+and\s+i\b)(?=[^.!?\n]{0,60}?\b(?:they|their|his|her)\b)"
    r"(?![^.!?\n]{0,60}?\b(?:lent|gave|sold|gives|lends)\b)"
)
"""A sentence about another job or another person's team ("at my previous job we …", "朋友…他們組用 8 張 H800"): its GPUs,
model, data and days are not this consultation's. The sentence is blanked before the slots are read — unless it also
says what the writer has ("I left my previous job … and we have 4x A100")."""
_WRITERS_OWN = _c(r"\bwe\s+(?:have|own|got)\b|\bour\s+(?:only\s+)?(?:gpus?|cards?|lab|server|budget)\b|\bi\s+(?:have|own)\b|"
                  r"我们有|我們有|我哋有|我有|我们的|我們的|我哋嘅")
_SENTENCE_STOP = _c(r"[。！？!?\n]|\.(?!\d)\s")


def _blank_elsewhere(text: str) -> str:
    for m in list(_ELSEWHERE.finditer(text)):
        start = max((s.end() for s in _SENTENCE_STOP.finditer(text, 0, m.start())), default=0)
        stop = _SENTENCE_STOP.search(text, m.end())
        end = stop.start() if stop else len(text)
        if not _WRITERS_OWN.search(text, start, end):
            text = text[:start] + " " * (end - start) + text[end:]
    return text


def _blank_negations(text: str) -> str:
    out = _blank_elsewhere(text)
    text = out
    for m in _ABANDONED.finditer(text):
        out = out[: m.start()] + " " * (m.end() - m.start()) + out[m.end():]
    text = out
    for m in _NEG_AFTER.finditer(text):
        out = out[: m.start()] + " " * (m.end() - m.start()) + out[m.end():]
    text = out
    for m in reversed(list(_NEG.finditer(text))):
        stop = _NEG_STOP.search(text, m.end(), m.end() + 40)
        end = stop.start() if stop else len(text)
        # A negation that ends at once ("not sure", "不用了") blanks nothing useful; keep it bounded.
        end = min(end, m.end() + 40)
        out = out[: m.start()] + " " * (end - m.start()) + out[end:]
    return out


# --------------------------------------------------------------------------------------------
# Task

_TASKS: list[tuple[str, re.Pattern[str]]] = [
    ("qlora", _c(r"\bq[\s-]?loras?\b|4[\s-]?bit\s*lora|量化\s*lora")),
    ("lora", _c(r"(?<![a-z])loras?\b|低秩|adapters?\b|peft\b")),
    ("pretrain", _c(
        r"pre[\s-]?tr(?:ai|ia|a)n(?!ed\b)|from\s+scratch|train\s+(?:a\s+|our\s+own\s+|an?\s+)?(?:new\s+)?(?:base\s+)?model\s+from|"
        r"从头训|從頭訓|从零|從零|从头开始|從頭開始|(?:预训练|預訓練)(?!\s*(?:好的|過的|过的|的)?\s*(?:权重|權重|模型|checkpoint|[a-z]))|"
        r"重新训练一个|base\s+model\s+training")),
    ("finetune", _c(
        r"full[\s-]*(?:parameter\s*|param\s*)?fine[\s-]?tun|full\s+ft\b|full\s+sft\b|全参数|全參數|全量|全参|全參|"
        r"fine[\s-]?tun|fine[\s-]?tu?nn?i|finetuing|\bsft\b|微调|微調|精调|精調|微條|微条")),
    ("inference", _c(
        r"inference|\bserv(?:e|ing)\b|\bdeploy|\bhost(?:ing)?\b|chatbot|\bapi\b|推理|推論|部署|(?<!同时)(?<!同時)(?:上线|上線)|"
        r"在线服务|線上服務|提供服务|提供服務|跑模型给|对外服务|對外服務|\brun\s+it\s+for\s+users|"
        r"\binfe?ra?n?ce\b|\binfer\w{0,2}ce\b|\binfrence\b|\brag\b|知识库|知識庫|(?<![筆笔条條组組份])(?:问答|問答)(?!对|對|数据|資料|语料|語料|样本|樣本|pairs?)|"
        r"客服|机器人|機器人|聊天|\bchat(?:bot|ting)?\b|assistant|助手|助理|customer\s+(?:support|service)|support\s+(?:bot|agent)|"
        r"(?:给|給)\s*(?:大家|员工|員工|同事|同仁|全公司|全院|全校|团队|團隊|客户|客戶|用户|用戶)\s*(?:们|們)?\s*(?:用|使用)|"
        r"\brun(?:ning)?\s+(?:it\s+|them\s+|llms?\s+|models?\s+)?(?:at\s+home|locally|local|internally|in[\s-]?house)|本地跑|跑本地|本地大模型|"
        r"跑满血|跑滿血|(?:给|給)自己用|转成向量|轉成向量|\bembed\b|(?:做|算|跑|生成)\s*embeddings?|向量化|批次(?:推論|推理)|离线推理|離線推論|batch\s+(?:inference|embedding)|offline\s+inference|"
        r"撑多少并发|撐多少並發|出图|出圖|生图|生圖|文生图|文生圖|画图|畫圖|generat(?:e|ing)\s+(?:images?|pictures?|pics|art)|image\s+generation|"
        r"\brun(?:ning)?\s+(?:a\s+|the\s+)?(?:qwen|llama|mistral|mixtral|gemma|deepseek|phi|gpt-oss|glm|yi-|flux|sdxl|sd\s*[123]|stable\s+diffusion)|"
        r"(?:导入|導入|引入|落地|上)\s*(?:一?[个個套])?\s*(?:地端|本地|私有化|内部|內部)?\s*(?:的)?\s*(?:llm|大模型|大語言模型|大语言模型|gpt)")),
]
_TRAIN_THEN_SERVE = _c(
    r"(?:lora|微调|微調|fine[\s-]?tun\w*|训练|訓練|\btrain\w*|\bsft\b)(?:[^.;!?。；！？]|\.(?=\d)){0,40}?"
    r"(?:\+|＋|\band\s+(?:then\s+)?(?:subsequent(?:ly)?\s+|later\s+)?|\bthen\s+|及|以及|并|並|之后|之後|然后|然後|后续|後續|[,，]\s*再)\s*"
    r"(?:再|要|会|會|還要|还要|也要)?\s*(?:上线|上線|提供|对外|對外|serv\w*|deploy\w*|inference|推理|推論|部署|host\w*)")
"""A job of two parts, training and then serving, neither said to be the main one."""
_MAIN_TASK = _c(r"(?:主要|主要是|主要用来|主要用來|mainly|mostly|primarily|main\s+use\s+is)\s*(?:for\s+|是|用来|用來|拿来|拿來)?\s*$")
_SIDE_TASK = _c(r"(?:偶尔|偶爾|顺便|順便|有时|有時|occasionally|sometimes|maybe|perhaps|later\s+maybe|now\s+and\s+then|或许|或許|也许|也許)\s*(?:也)?\s*(?:\S+\s*)?$|"
                r"\b(?:(?:drop|fall\s+back|downgrade|resort|go\s+down)\s+to|settle\s+for)\s*$|退而求其次(?:用|改用)?\s*$")
_TRAIN_WORD = _c(r"\btrain(?:ing)?\b|\btrain?n?ing\b|训练|訓練|訓鍊|训炼")


def parse_task(text: str) -> str | None:
    """'LoRA 微调' -> lora, '從頭訓練' -> pretrain, 'serve' -> inference; None when unsaid."""
    return _task(_Work(text))


_DESCRIBED = _c(r"\b(?:a|an|our|the|my|their|your|this)\s+(?:custom\s+|domain\s+)?fine[\s-]?tuned\b|微[调調](?:过|過)?的(?=\s*[a-z0-9])|"
                r"(?<=[a-z0-9])\s+fine[\s-]?tuned\s+(?:in[\s-]?house|by\s+us|ourselves|internally|on\s+our\s+(?:own\s+)?data)\b|"
                r"(?:q?lora|微调|微調)\s*(?:过|過)的")  # "bert-large fine-tuned in-house", "自己 LoRA 過的 Gemma": what it is


_PREFERENCE_TUNING = _c(r"(?<![a-z])(?:dpo|orpo|kto|simpo|ipo|rlhf|ppo|grpo)(?![a-z])")
_FULL_PARAMS = _c(r"全参|全參|全量|full[\s-]*(?:params?|parameters?|weights|fine[\s-]?tun\w*|ft)\b")


_SERVICE_TARGET = _c(r"\btok(?:en)?s?\s*/\s*s(?:ec)?\b|\btokens?\s+(?:per|a)\s+second\b|\bttft\b|time\s+to\s+first\s+token|"
                     r"\b(?:req|requests?)\s*/\s*(?:s(?:ec)?|min(?:ute)?)\b|\brequests?\s+(?:per|a)\s+(?:second|minute)\b|\bqps\b|"
                     r"first\s+token|首字延迟|首字延遲|首\s*token")


_TRAINING_SPEED = _c(r"\btrain(?:ing)?\b|训练|訓練|吞吐|throughput|\bmfu\b|每卡|per\s+gpu")
"""Before a tokens-per-second figure: the speed of a training run ("training at ~310k tokens/s", "训练吞吐每卡 3000
token/s"), not a service's target."""


def _task(w: _Work, bare_train: bool = True) -> str | None:
    text = _DESCRIBED.sub(lambda m: " " * len(m.group(0)), w.text)  # "we serve a fine-tuned llama": what it is
    pref = _PREFERENCE_TUNING.search(text)
    if pref:  # "下一步想做DPO全参", "DPO on llama-3.1-8b ... full params": preference tuning of every weight
        near = text[max(0, pref.start() - 12): pref.end() + 80]
        if _FULL_PARAMS.search(near):
            return "finetune"
    found = [name for name, pattern in _TASKS if pattern.search(text)]
    if not found:
        if bare_train and any(not _TRAINING_SPEED.search(text[max(0, m.start() - 40): m.start()])
                              for m in _SERVICE_TARGET.finditer(text)):  # "every user must see 30 tok/s, TTFT p99 <= 500 ms": a service's
            return "inference"  # targets, whatever else the message trains ("nodes busy with training")
        # "train a 7B model" with no task known yet reads as training from scratch; once a task is
        # known, "训练 3 轮" in an answer about data must not change it.
        return "pretrain" if bare_train and _TRAIN_WORD.search(text) else None
    if len(found) > 1:
        # "主要是推理 qwen2.5 32b，偶尔 lora 一下 7b", "mostly inference, maybe a LoRA later": the main one
        main = [name for name, pattern in _TASKS
                for m in pattern.finditer(text) if _MAIN_TASK.search(text[max(0, m.start() - 8): m.start()])]
        side = {name for name, pattern in _TASKS
                for m in pattern.finditer(text) if _SIDE_TASK.search(text[max(0, m.start() - 16): m.start()])}
        if main:
            return main[0]
        found = [name for name in found if name not in side] or found
        if "inference" in found and len(found) > 1 and _TRAIN_THEN_SERVE.search(text):
            return None  # "LoRA 微调 + 之后上线推论", "LoRA fine-tuning and subsequent inference": two jobs; the question asks
    # Training words beat serving words ("deploy on-prem" in a pretraining message).
    for name in ("qlora", "lora", "pretrain", "finetune"):
        if name in found:
            if name == "lora" and "qlora" in found:
                return "qlora"
            return name
    return found[0]


# --------------------------------------------------------------------------------------------
# Money

_PRE_CUR = (
    r"(?P<pre>us\s?\$|usd|nt\s?\$|ntd|twd|hk\s?\$|hkd|rmb|cny|eur|jpy|gbp|€|£|"
    r"(?<![a-z])(?:ca|c|can|au|a|s|sg)\s?\$|(?<![a-z])(?:cad|aud|sgd|chf|krw|inr|myr)(?![a-z])|(?<![a-z])(?:rm|rs\.?)(?=\s?\d)|"
    r"₩|₹|\$|¥|"
    r"新台币|新台幣|新臺幣|台币|台幣|臺幣|人民币|人民幣|美元|美金|欧元|歐元|港币|港幣|港元)"
)
_SUF_CUR = (
    r"(?P<SUF>美元|美金|usd|us\s+dollars?|(?:canadian|australian|aussie|singapore)\s+dollars?|cad|aud|sgd|"
    r"swiss\s+francs?|chf|francs?|krw|won|korean\s+won|inr|rupees?|myr|ringgit|令吉|马币|馬幣|蚊|"
    r"加元|加币|加幣|澳元|澳币|澳幣|新加坡元|新加坡币|新加坡幣|新币|新幣|瑞士法郎|韩元|韓元|韓圜|卢比|盧比|₩|₹|dollars?|bucks|刀|人民币|人民幣|rmb|cny|yuan|块钱|塊錢|"
    r"新台币|新台幣|新臺幣|台币|台幣|臺幣|twd|ntd|nt\s+dollars?|欧元|歐元|eur|euros?|港币|港幣|港元|hkd|"
    r"yen|jpy|日元|日圓|日幣|円|gbp|pounds?(?:\s+sterling)?|英镑|英鎊|元|块|塊|€|£)"
)
_SIGN = r"(?:(?P<sign>-|−|负|負|minus\s)\s*)?"
_MONEY = _c(
    rf"{_SIGN}(?:{_PRE_CUR}\s*(?P<sign2>-|−)?\s*{_num('num1')}(?:\s*{_SUF_CUR.replace('SUF', 'suf1')})?"
    rf"|{_num('num2')}\s*{_SUF_CUR.replace('SUF', 'suf2')})(?![a-z])"
)
_PER_ENERGY = _c(r"^\s*(?:/|per|每|一)\s*(?:kwh|kw·h|kw-h|度|千瓦时|千瓦時)")
_PER_HOUR = _c(r"^\s*(?:/|per|an?|每|一)\s*(?:h|hr|hour|gpu[\s-]?h(?:ou)?r|小时|小時|卡时|卡時)(?![a-z])")
_HOUR_BEFORE = _c(r"(?:一|每|per|an?)\s*(?:个|個)?\s*(?:小时|小時|hour|hr|h)\s*(?:要|大概|大约|大約|约|約|才|只要|差不多)?\s*$")
_ENERGY_CUE = _c(r"(?:电价|電價|电费|電費|electricity|power\s+(?:price|cost)|per\s+kwh|/\s*kwh|每度|一度|台電|台电)")
_BUDGET_WORDS = (r"(?:最多|顶多|頂多|总共|總共|一共)\s*(?:只能|可以|能)?\s*(?:花|抓)|budget|ceiling|\bsigned\s+off\s+on|预算|預算|经费|經費|资金|資金|(?:can|could|able\s+to|willing\s+to|allowed\s+to)\s+spend|"
                 r"(?:(?:want|plan|hope|like)\s+to|wanna|rather\s+not|won'?t|can'?t)\s+spend\s+(?:over|more\s+than|above|up\s+to|at\s+most|under|about|around)?|"
                 r"(?:雲端|云端|算力|計算|计算)?(?:額度|额度)|拨了?|撥了?|批了|批准了?|核准了?|批下[来來]|(?:能|可以|会|會)批(?!量|次|处|處|改|评|評|注)|可以花|能花|愿意花|願意花|"
                 r"(?:可以|能|愿意|願意|肯)出(?=\s*(?:\d|[一二两兩三四五六七八九十]))")
# The budget line that counts where a message gives several: the hardware line of a grant, or the figure it works
# its way to ("so call it 48k for the GPUs").
_BUDGET_THAT_COUNTS = _c(r"硬體費|硬件费|硬體預算|硬件预算|硬體經費|硬件经费|设备费|設備費|hardware\s+budget|for\s+(?:the\s+)?(?:gpus|hardware|cards)|"
                         r"买卡的预算|買卡的預算|gpu\s*预算|gpu\s*預算|so\s+call\s+it|call\s+it|effectively|i\.e\.|net\s+of")
_BUDGET_CUE = _c(rf"{_BUDGET_WORDS}|编了|編了|spend|\bcap\b|最多|不超过|不超過|花费|花費|投入|capex|预计花|預計花")
_BUDGET_BARE = _c(
    rf"(?:{_BUDGET_WORDS})(?:{YI_WORD}|[^0-9一二两兩三四五六七八九十$¥€\-−负負,.;，。；]){{0,36}}?{_SIGN}{NUM}(?![a-z%\d])"
    r"(?!\s*(?:台|张|張|个|個|块|塊|卡|人|位|天|日|月|年|周|週|号|號|小时|小時|半|/\s*\d|gpus?\b|cards?\b|users?\b|people\b|days?\b|"
    r"weeks?\b|months?\b|years?\b|tokens?\b|b\b))"  # "經費要在 12/20 前核銷完": a date, not NT$12; "预算还剩一半": a share
)
_AMOUNT_ALL_IN = _c(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?\s*k)\s+(?:all[\s-]in|in\s+total|total|tops|max(?:imum)?)\b"
                    r"(?!\s+(?:[a-z]+\s+)?(?:[a-z]+s|context|ctx|tokens?)\b)")  # not "100k total documents", "128k max context"
_MAGNITUDE_AMOUNT = _c(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?\s*(?:k|m|万|萬))(?![a-z])")
_LENGTH_BEFORE = _c(r"(?:\bctx|\bcontext|上下文|\bseq(?:uence)?|序列|\bcutoff)\s*(?:长度|長度|length|len)?\s*[:=]?\s*$")
_AMOUNT_BEFORE_BUDGET = _c(rf"{_SIGN}{NUM}\s*(?:的)?\s*(?:budget|预算|預算|经费|經費|設備費|设备费|硬體費|硬件费|to\s+spend|可以花|能花|"
                           r"(?:max|tops|ceiling|(?:hard\s+|budget\s+)?cap)\b(?!\s+(?:context|ctx|tokens?|seq|sequence|length|users?|concurren))|上限|封顶|封頂)")
_CAP_AMOUNT = _c(rf"(?:最多|不超过|不超過|上限|封顶|封頂|顶多|頂多|\bat\s+most\b|\bmax(?:imum)?\b|hard\s+(?:cap|ceiling|limit)|"
                 rf"capped\s+at|no\s+more\s+than)\s*(?:是|为|為|of|is|at|:)?\s*(?:最多|不超过|不超過)?\s*(?:us\s?\$|\$|¥)?\s*{NUM}")
_AMOUNT_RANGE = _c(  # "$5-6k", "~100-150k", "80 到 100 萬", "三到五百万": the middle of the range
    r"(?P<pre>us\s?\$|nt\s?\$|hk\s?\$|\$|¥|€|£)?\s*(?P<a>\d+(?:\.\d+)?|[一二两兩三四五六七八九十]{1,3})\s*(?:-|–|~|～|to|到|至)\s*"
    r"(?:us\s?\$|nt\s?\$|hk\s?\$|\$|¥|€|£)?\s*(?P<b>\d+(?:\.\d+)?|[一二两兩三四五六七八九十]{1,3})\s*"
    r"(?P<mag>k|m|mil|万|萬|十万|十萬|百万|百萬|千万|千萬|亿|億)(?![a-z])"
)
_PER_MONTH = _c(r"^\s*(?:/\s*(?:month|mo|月)|per\s+month|a\s+month|monthly)|(?:每月|每个月|每個月|月预算|月預算|monthly)\s*(?:预算|預算)?\s*$")
_MONTH_IN_CLAUSE = _c(r"(?:每月|每个月|每個月|\bmonthly\b|\bper\s+month\b|\beach\s+month\b)\s*(?:的)?[^,;.!?，；。\d]{0,8}?"
                      r"(?:费用|費用|预算|預算|花费|花費|开销|開銷|支出|budget|spend|bill|cost)[^,;.!?，；。\d]{0,8}$")
_TERM = _c(r"(?:签|簽|合约|合約|commit(?:ment)?|contract|term)\s*(?:of\s+)?(?P<n>\d+|an?|one|two|three|four|five|[一二两兩三四五六七八九十])\s*(?:-\s*)?(?P<u>年|个月|個月|years?|yrs?|months?)")
_CJK = lazy_compile(r"[\u4e00-\u9fff]")
_SELF_CORRECTION = _c(
    rf"(?:認真說|认真说|說真的|说真的|其實|其实|正經|正经|actually|seriously|jk|j/k|lol|kidding)[^0-9一二两兩三四五六七八九十]{{0,12}}{NUM}"
)
_WAN_AMOUNT = _c(
    rf"{_SIGN}(?<![a-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?:个|個)?\s*w(?![a-z])\s*(?P<cur>人民币|人民幣|rmb|块|塊|元|台币|台幣|新台币|新台幣)?"
)
_AMOUNT_WITHIN = _c(  # "5w以内，想买一台机器", "3w够吗": a cap in 万 is money ("万" is never a duration)
    r"(?<![\d.])(?P<num>\d+(?:\.\d+)?\s*(?:[万萬]|w(?![a-z])))\s*(?:以内|以內|之内|之內|(?:的话|的話)?\s*"
    r"(?:够吗|夠嗎|够不够|夠不夠|够用吗|夠用嗎|够了吗|夠了嗎|能搞定吗|能搞定嗎|搞得定吗|搞得定嗎))")
_JAPAN = _c(r"\bjapan(?:ese)?\b|\btokyo\b|\bosaka\b|\bkyoto\b|\byokohama\b|\bfukuoka\b|\bnagoya\b|日本|东京|東京|大阪")
_YUAN_SAID = _c(r"人民币|人民幣|\brmb\b|\bcny\b|\byuan\b|元|块|塊")
_CUR_CODES = {
    "usd": "USD", "$": "USD", "us$": "USD", "美元": "USD", "美金": "USD", "dollar": "USD", "dollars": "USD",
    "us dollar": "USD", "us dollars": "USD", "bucks": "USD", "刀": "USD",
    "rmb": "CNY", "cny": "CNY", "¥": "CNY", "人民币": "CNY", "人民幣": "CNY", "yuan": "CNY", "块钱": "CNY",
    "塊錢": "CNY",
    "twd": "TWD", "ntd": "TWD", "nt$": "TWD", "新台币": "TWD", "新台幣": "TWD", "新臺幣": "TWD", "台币": "TWD",
    "台幣": "TWD", "臺幣": "TWD", "nt dollar": "TWD", "nt dollars": "TWD",
    "eur": "EUR", "€": "EUR", "欧元": "EUR", "歐元": "EUR", "euro": "EUR", "euros": "EUR",
    "hkd": "HKD", "hk$": "HKD", "港币": "HKD", "港幣": "HKD", "港元": "HKD",
    "jpy": "JPY", "yen": "JPY", "日元": "JPY", "日圓": "JPY", "日幣": "JPY", "円": "JPY",
    "gbp": "GBP", "£": "GBP", "pound": "GBP", "pounds": "GBP", "pound sterling": "GBP", "pounds sterling": "GBP",
    "英镑": "GBP", "英鎊": "GBP",
    "cad": "CAD", "ca$": "CAD", "c$": "CAD", "can$": "CAD", "canadian dollar": "CAD", "canadian dollars": "CAD",
    "加元": "CAD", "加币": "CAD", "加幣": "CAD",
    "aud": "AUD", "au$": "AUD", "a$": "AUD", "australian dollar": "AUD", "australian dollars": "AUD",
    "aussie dollars": "AUD", "aussie dollar": "AUD", "澳元": "AUD", "澳币": "AUD", "澳幣": "AUD",
    "sgd": "SGD", "s$": "SGD", "sg$": "SGD", "singapore dollar": "SGD", "singapore dollars": "SGD",
    "新加坡元": "SGD", "新加坡币": "SGD", "新加坡幣": "SGD", "新币": "SGD", "新幣": "SGD",
    "chf": "CHF", "swiss franc": "CHF", "swiss francs": "CHF", "franc": "CHF", "francs": "CHF", "瑞士法郎": "CHF",
    "krw": "KRW", "won": "KRW", "korean won": "KRW", "₩": "KRW", "韩元": "KRW", "韓元": "KRW", "韓圜": "KRW",
    "inr": "INR", "rupee": "INR", "rupees": "INR", "₹": "INR", "卢比": "INR", "盧比": "INR",
    "rs": "INR", "rs.": "INR", "myr": "MYR", "rm": "MYR", "ringgit": "MYR", "令吉": "MYR", "马币": "MYR", "馬幣": "MYR", "马来西亚令吉": "MYR",
    "蚊": "HKD",  # Cantonese for a dollar: "八萬蚊" is HK$80,000
}


def _currency(token: str | None, locale: Locale) -> str | None:
    if not token:
        return None
    key = re.sub(r"\s+", " ", token.strip().lower()).replace("$ ", "$")
    key = key.replace("us $", "us$").replace("nt $", "nt$").replace("hk $", "hk$")
    if key in _CUR_CODES:
        return _CUR_CODES[key]
    if key in ("元", "块", "塊"):
        # "元/块" is the local unit: yuan on the mainland, NT dollars in Taiwan.
        return "TWD" if locale == "zh-Hant" else "CNY"
    return None


@dataclass(frozen=True)
class Money:
    """An amount as typed, its ISO currency, and its value in USD."""

    amount: float
    currency: str
    usd: float


def parse_money(text: str, locale: Locale = "en") -> Money | None:
    """The first amount of money in `text`: '三万美元' -> 30000 USD, '新台幣 300 萬' -> 3e6 TWD."""
    w = _Work(text)
    for m in w.finditer(_MONEY):
        value = number_value(_numtext(m) or "")
        cur = _currency(m.group("pre"), locale) or _currency(m.group("suf1") or m.group("suf2"), locale)
        if value is None or cur is None:
            continue
        if m.group("sign"):
            value = -value
        return Money(value, cur, to_usd(value, cur))
    return None


_BARE_TARIFF = _c(
    rf"(?:电费|電費|电价|電價|power|electricity)?\s*(?:填|是|为|為|约|約|大概|大约|大約|is|at|here\s+is)?\s*{_SIGN}{NUM}\s*"
    r"(?P<mao>毛多?|角)?\s*(?:元|块|塊|cents?|c|¢)?\s*(?P<code>cad|aud|usd|eur|gbp|sgd|chf|jpy|twd|cny|rmb|nt\$?)?\s*"
    r"(?:/|per|每|一|an?\b)\s*(?:kwh|kw·h|kw-h|度|千瓦时|千瓦時)"
)


_TARIFF_CENTS = _c(  # "power is 11 cents", "electricity ~14c": cents with no unit are per kWh
    rf"(?:power|electricity|energy)\s+(?:is|costs?|at|runs|=|:)?\s*(?:about|around|~)?\s*{_SIGN}{NUM}\s*"
    r"(?P<mao>)(?:cents?|c\b|¢)")  # (an empty "mao" group: _tariff reads it in every tariff pattern)
_TARIFF_AFTER = _c(  # "cost per kWh is 22 cents", "每度电 0.6 元", "電費一度 3 塊"
    rf"(?:per\s+kwh|/\s*kwh|a\s+kwh|每度电?|每度電|一度电?|一度電)\s*(?:is|=|:|costs?|about|around|~|约|約|是|大概|大约|大約|要|算|大概算)*\s*"
    rf"{_SIGN}{NUM}\s*(?P<mao>毛多?|角)?\s*(?:元|块|塊|cents?|c\b|¢|(?=[\s，,。；;]|\.(?!\d)|$))")  # "电费一度0.55"


def _tariff(w: _Work, ex: Extraction, locale: Locale) -> None:
    """An electricity price with no currency sign: '0.45/度', '6 毛多一度', '0.31/kWh', '6c/kWh' (writer's money)."""
    m = _BARE_TARIFF.search(w.text) or _TARIFF_AFTER.search(w.text) or _TARIFF_CENTS.search(w.text)
    if not m:
        return
    value = number_value(_numtext(m) or "")
    if value is None:
        return
    said = m.group(0).lower()
    if m.group("mao"):
        value = (value + (0.5 if m.group("mao").endswith("多") else 0)) / 10  # 毛/角 = 0.1 yuan; 6 毛多 ≈ 0.65
    elif re.search(r"\d\s*(?:cents?|c|¢)\s*(?:[a-z]{3}\s*)?(?:/|per\b|an?\b|$)", said):
        value /= 100
    code = m.groupdict().get("code")  # "7 cents CAD per kWh": the currency said with it
    cur = (_currency(code, locale) or "USD") if code else "USD" if re.search(r"kwh|cents?|¢", said) and not _CJK.search(said) else (
        default_currency(locale) if _CJK.search(w.orig) else "USD")
    w.consume(m.start(), m.end())
    if m.group("sign") or value <= 0:
        ex.problem("conv.problem.electricity_positive")
        return
    ex.fields["electricity_usd_per_kwh"] = round(to_usd(value, cur), 4)


_WATTS_BEFORE = _c(r"(?:功耗|功率|电源|電源|電供|供电|供電|tdp|psu|draws?|pulls?|rated|耗电|耗電)\s*(?:是|为|為|只有|约|約|大概|is|of|at)?\s*$")


def _money(w: _Work, ex: Extraction, locale: Locale, answering_budget: bool = False) -> None:
    _spending_periods(w)
    candidates: list[tuple[float, str, int, int]] = []
    # A bare amount is in the writer's own money: yuan or NT dollars when they write Chinese, dollars when
    # they write English (also in a Chinese session: "budget 40k").
    local = default_currency(locale) if _CJK.search(w.orig) else "USD"
    if _BUDGET_CUE.search(w.text):
        for m in w.finditer(_AMOUNT_RANGE):
            a, b = number_value(m.group("a")) or 0.0, number_value(m.group("b")) or 0.0
            mag = {"k": 1e3, "m": 1e6, "mil": 1e6, "万": 1e4, "萬": 1e4, "十万": 1e5, "十萬": 1e5, "百万": 1e6,
                   "百萬": 1e6, "千万": 1e7, "千萬": 1e7, "亿": 1e8, "億": 1e8}[m.group("mag").lower()]
            if 0 < a < b:
                said_cur = _currency(m.group("pre"), locale)
                ex.currency_assumed = said_cur is None
                cap = _CAP_AMOUNT.search(w.text)
                cap_value = number_value(_numtext(cap) or "") if cap else None
                if cap and cap_value and a * mag <= cap_value <= b * mag * 1.001:
                    mid = cap_value  # "3-5万预算，最多不超过5万": the stated cap, not the middle of the range
                    w.consume(cap.start(), cap.end())
                else:
                    mid = (a + b) / 2 * mag
                candidates.append((mid, said_cur or local, m.start(), m.end()))
                w.consume(m.start(), m.end())
    for m in w.finditer(_MONEY):
        value = number_value(_numtext(m) or "")
        pre, suf = m.group("pre"), m.group("suf1") or m.group("suf2")
        cur = _currency(pre, locale) or _currency(suf, locale)
        if value is None or cur is None:
            continue
        after = w.text[m.end(): m.end() + 20]
        before = w.text[max(0, m.start() - 20): m.start()]
        if _PER_ENERGY.match(after) or (_ENERGY_CUE.search(before) and value < 50):
            if m.group("sign") or value <= 0:
                ex.problem("conv.problem.electricity_positive")
            elif round(to_usd(value, cur), 4) > 0:
                ex.fields["electricity_usd_per_kwh"] = round(to_usd(value, cur), 4)
            unit = _PER_ENERGY.match(after)
            w.consume(m.start(), m.end() + (unit.end() if unit else 0))
            continue
        if _PER_HOUR.match(after):
            w.consume(m.start(), m.end())
            continue
        hour = _HOUR_BEFORE.search(before)
        if hour:  # "4090 一小时两块多": a rental rate, the hour with it
            w.consume(m.start() - len(before) + hour.start(), m.end())
            continue
        if m.group("sign") or m.group("sign2"):
            value = -value
        candidates.append((value, cur, m.start(), m.end()))
    candidates = [c for c in candidates if not _spent_or_quoted(w, c[2], c[3])]  # "(a 4090 goes for ~$2k)": not a budget
    if candidates and all(_said_monthly(w, c[2], c[3]) for c in candidates):
        for m in w.finditer(_BARE_TOTAL):  # "预算每个月 5000 块左右，总共不超过 2 万": the total, in the same money
            value = number_value(_numtext(m) or "")
            if value:
                candidates.append((value, candidates[0][1], m.start("num"), m.end()))
    if not candidates and (locale != "en" or _CJK.search(w.orig)):
        # "预算 5w", "1 个 w", "80w 人民币": w is 万 in mainland and Taiwan shorthand (never watts next to money);
        # in English "450W" is watts ("4090 is 450W, budget 3k")
        for m in w.finditer(_WAN_AMOUNT):
            value = number_value(m.group("num"))
            if value is None or not (_BUDGET_CUE.search(w.text) or m.group("cur")):
                continue
            if _WATTS_BEFORE.search(w.text[max(0, m.start() - 12): m.start()]):
                continue  # "4090 功耗 450w", "tdp 350w": watts
            value *= 1e4
            if m.group("sign"):
                value = -value
            cur = _currency(m.group("cur"), locale) or local
            ex.currency_assumed = not m.group("cur")
            candidates.append((value, cur, m.start(), m.end()))
    if not candidates and _CJK.search(w.orig):
        for m in w.finditer(_AMOUNT_WITHIN):
            num = m.group("num")
            wan = number_value(num[:-1]) if num[-1] in "wW" else None
            value = wan * 1e4 if wan else number_value(num)
            if value is not None:
                candidates.append((value, local, m.start(), m.end()))
                ex.currency_assumed = True
    if not candidates and not answering_budget:  # an answer's amounts are weighed below
        for m in w.finditer(_AMOUNT_ALL_IN):  # "somewhere around 4 grand all in": a total with a magnitude is money
            value = number_value(m.group("num"))
            if value is not None:
                candidates.append((value, local, m.start(), m.end()))
                ex.currency_assumed = True
    if not candidates:
        for m in w.finditer(_AMOUNT_BEFORE_BUDGET):
            value = number_value(_numtext(m) or "")
            if _LENGTH_BEFORE.search(w.text[max(0, m.start() - 16): m.start()]):
                continue  # "ctx 32k 預算抓80萬": a context length, then the budget
            if value is not None:
                candidates.append((-value if m.group("sign") else value, local, m.start(), m.end()))
                ex.currency_assumed = True
    candidates = [c for c in candidates if not _spent_or_quoted(w, c[2], c[3])]
    # A bare amount right after a budget word is the budget even beside amounts with a currency that are not
    # ("quoted $32k for one H100 ... our total budget is 20k", "AWS bill ~$9k/month ... budget 60k").
    bare_at: set[int] = set()
    if answering_budget and not candidates and _BUDGET_THAT_COUNTS.search(w.text):
        # "60k total, but 12k of that is earmarked for storage, so call it 48k for the GPUs": amounts with a
        # magnitude, in an answer to the budget question; the one the hardware words point at is chosen below
        for m in w.finditer(_MAGNITUDE_AMOUNT):
            value = number_value(m.group("num"))
            if value:
                candidates.append((value, local, m.start(), m.end()))
                bare_at.add(m.start())
    for m in w.finditer(_BUDGET_BARE):
        value = number_value(_numtext(m) or "")
        if value is None or any(s < m.end() and m.start("num") < e for _, _, s, e in candidates):
            continue
        if m.group("sign"):
            value = -value
        candidates.append((value, local, m.start("num"), m.end()))
        bare_at.add(m.start("num"))
    if candidates and all(c[0] < 0 for c in candidates):
        fix = _SELF_CORRECTION.search(w.text, candidates[-1][3])
        value = number_value(_numtext(fix) or "") if fix else None
        if fix and value:
            candidates.append((value, candidates[-1][1], fix.start(), fix.end()))
    if not candidates:
        return
    # Several amounts: the one nearest a budget word wins, else the first; a negative amount followed by a
    # positive one is a joke corrected ("預算負 20 萬（笑），認真說大概 20 萬").
    positive = [c for c in candidates if c[0] > 0]
    if positive and len(positive) < len(candidates) and candidates[-1][0] > 0:
        candidates = positive
    chosen = candidates[0]
    cues = [c.start() for c in _BUDGET_THAT_COUNTS.finditer(w.text)] or [c.start() for c in _BUDGET_CUE.finditer(w.text)]
    by_month = any(_PER_MONTH.search(w.text[c[3]: c[3] + 12]) for c in candidates)  # "$8k a month, $20k total"
    totals = [c for c in candidates if _TOTAL_BEFORE.search(w.text[max(0, c[2] - 16): c[2]])
              or (by_month and _TOTAL_AFTER.match(w.text, c[3]))]
    if totals and len(candidates) > 1:
        chosen = totals[0]  # "每次最多花200块，一年下来总共不超过1万": the total, beside a run's share of it
    elif cues and len(candidates) > 1:
        chosen = min(candidates, key=lambda c: min(abs(c[2] - q) for q in cues))
    value, cur, start, end = chosen
    if start in bare_at:
        ex.currency_assumed = True
    for _, _, s, e in candidates:
        w.consume(s, e)
    if value <= 0 or not math.isfinite(value):
        ex.problem("conv.problem.budget_positive")
        return
    usd = to_usd(value, cur)
    if round(usd, 2) <= 0:
        ex.problem("conv.problem.budget_positive")
        return
    if usd > MAX_BUDGET_USD:
        ex.problem("conv.problem.budget_huge")
        return
    monthly = _said_monthly(w, start, end)
    # "预算每月3万，签一年": the month's amount over the term; not "每个月 6000 左右，这一单总共最多花 1500" (the total)
    month_after = _PER_MONTH.search(w.text[end: end + 12])
    if month_after:  # "rent a GPU on vast for ~$150 a month": the month is the amount's, no month-long rental
        w.consume(end, end + month_after.end())
    if monthly and not (totals and chosen in totals):
        term = _TERM.search(w.orig.lower())
        if not term:
            if _BUDGET_CUE.search(w.orig.lower()[max(0, start - 40): end + 20]):  # not "burning ~$11k/mo"
                ex.monthly_budget = (float(value), cur, usd)  # a total once the message says for how long
            return
        n = _EN_WORD_NUMBERS.get(term.group("n")) or number_value(term.group("n")) or 0
        months = n * (12 if re.match(r"年|y", term.group("u")) else 1)
        if not months:
            return
        value, usd = value * months, usd * months
    share = _budget_share(w.orig.lower()[end: end + 120])
    if share:
        value, usd = value * share, usd * share
    ex.fields["budget_amount"] = float(value)
    ex.fields["budget_currency"] = cur
    ex.fields["budget_usd"] = round(usd, 2)
    ex.per_run_budget = bool(_PER_RUN_BEFORE.search(w.text[max(0, start - 16): start]) or _PER_RUN_AFTER.match(w.text, end))


_BUDGET_PART = (r"(?P<sh>half|a\s+third|two[\s-]thirds|a\s+quarter|three[\s-]quarters|\d{1,2}(?:\.\d+)?\s*%|一半|"
          r"[一二两兩三四五六七八九]\s*成|百分之\s*\d{1,2}|三分之[一二]|四分之[一三])")
_FOR_GPUS = r"(?:the\s+)?(?:compute|gpus?|hardware|servers?|box|cloud|rentals?|renting|显卡|顯卡|gpu|算力|卡|伺服器|服务器|服務器|硬件|硬體|机器|機器|租卡|云|雲)"
_FOR_OTHER = (r"(?:the\s+)?(?:storage|network(?:ing)?|salar(?:y|ies)|staff|people|software|licen[cs]es|other|overhead|"
              r"(?:training\s+)?data|annotation|label+ing|标注|標註|数据|資料|储存|儲存|存储|存儲|"
              r"网络|網路|網絡|人力|人事|薪水|工资|工資|软件|軟體|其他|其它|电费|電費|机房|機房)")
_BUDGET_SHARE = _c(
    rf"(?:about|roughly|around|~|only|maybe|其中|里面|裡面|当中|當中|大概|大约|大約|约|約|\s)*{_BUDGET_PART}\s*"
    r"(?:of\s+(?:that|it|this|which|the\s+(?:budget|total|money))\s+)?(?:[a-z']+\s+){0,3}?"
    r"(?:要|得|会|會|可以|能|预计|預計)?\s*"
    r"(?:go(?:es)?\s+(?:to|into|on|towards?)|(?:is\s+|are\s+)?(?:earmarked\s+|reserved\s+|set\s+aside\s+)?for|on|"
    r"留给|留給|留作|用于|用於|用来|用來|拿来|拿來|花在|给|給|投入|投在)\s*(?:买|買|租|采购|採購|购买|購買)?\s*"
    rf"(?:(?P<gpu>{_FOR_GPUS})|(?P<other>{_FOR_OTHER}))"
)
_SHARE_VALUE = {"half": 0.5, "a third": 1 / 3, "two thirds": 2 / 3, "two-thirds": 2 / 3, "a quarter": 0.25,
                "three quarters": 0.75, "three-quarters": 0.75, "一半": 0.5, "三分之一": 1 / 3, "三分之二": 2 / 3,
                "四分之一": 0.25, "四分之三": 0.75}


def _budget_share(after: str) -> float | None:
    """The part of a stated budget that goes to the GPUs, said just after it: "$120k, about half of that can go to
    compute" (0.5), "總預算 150 萬，其中三成要留給儲存" (0.7). None when the text names no share."""
    m = _BUDGET_SHARE.search(after)
    if not m:
        return None
    said = re.sub(r"\s+", " ", m.group("sh"))
    if said in _SHARE_VALUE:
        share = _SHARE_VALUE[said]
    elif said.endswith("成"):
        share = _CN_TENTHS[said[0]] / 10
    else:
        share = float(re.sub(r"[^\d.]", "", said)) / 100
    if not 0 < share < 1:
        return None
    return share if m.group("gpu") else 1 - share


_A_MONTH = _c(r"\ba\s+month\b|\bper\s+month\b|/\s*mo\b|\bmonthly\b|每个月|每個月|每月")
def _said_monthly(w: _Work, start: int, end: int) -> bool:
    """The amount at start..end is a month's: "$8k a month", "预算每个月 5000 块", "每個月雲端費用最多5萬台幣"."""
    return bool(_PER_MONTH.search(w.text[end: end + 12]) or _PER_MONTH.search(w.text[max(0, start - 8): start])
                or _MONTH_IN_CLAUSE.search(w.text[max(0, start - 24): start]))


_BARE_TOTAL = _c(rf"(?:总共|總共|合计|合計|一共|总计|總計|\bin\s+total\b|\btotal\b)\s*(?:不超过|不超過|最多|顶多|頂多|at\s+most|of|is|:)?\s*"
                 rf"{NUM}(?=\s*(?:[万萬]|w\b|k\b|块|塊|元)?\s*(?:[，。,.;；!?！？)]|$|以内|以內|左右|上下|at\s+most|max\b))")
""""总共不超过 2 万", "20k in total": a total said with no currency, beside amounts a month that have one."""
_TOTAL_AFTER = _c(r"\s*(?:total|in\s+total|all[\s-]in|overall|altogether)\b")
_TOTAL_BEFORE = _c(r"(?:总共|總共|合计|合計|一共|总计|總計|总预算|總預算|\bin\s+total|\btotal|\boverall|\baltogether)"
                   r"[^0-9,.;，。；]{0,8}$")
_PER_RUN_BEFORE = _c(r"(?:每次|每一次|每回|單次|单次)\s*(?:的)?\s*(?:训练|訓練|微调|微調)?\s*(?:预算|預算|经费|經費|花费|花費|成本)?\s*"
                     r"(?:最多|大概|大约|大約|约|約|是|为|為|抓|花|:)*\s*$|"
                     r"\b(?:per|each|a)\s+(?:run|job|fine[\s-]?tune)\b\s*(?:budget)?\s*(?:of|is|:)?\s*$")
_PER_RUN_AFTER = _c(r"\s*(?:/\s*run\b|per\s+run\b|a\s+run\b|each\s+run\b|一次)")
"""Before or after an amount: the budget is for one run ("每次預算新台幣 5,000 元", "$150 per run")."""


_SPENT = _c(r"\bbill(?:ed|s)?\b|\bspent\b|\b(?:been|are|were|we're|i'm)\s+spending\b|\bburn(?:ing|ed|s)?\b|\bcost\s+(?:us|me)\b|"
            r"\binvoices?\b|\bquoted?\b|\bquotes\b|\bquoting\b|\basking\s+(?:price|for)\b|报价|報價|报了|報了|开价|開價|要价|要價|"
            r"账单|帳單|花了|花掉|烧了?|燒了?|开销|開銷|电费|電費|\b(?:electricity|power|utility)\s+bill|"
            r"\b(?:goes|going|sells?|selling|retails?|listed)\s+for\b|\bon\s+(?:ebay|craigslist|amazon|newegg|marketplace|fb\s+marketplace)\s+for\b|\bpriced\s+at\b|\bstreet\s+price\b|市价|市價|售价|售價|行情价|行情價|"
            r"(?:一张|一張|一块|一塊)\s*(?:要|大概|大约|大約)")
_SPENT_PERIOD = _c(r"(?:(?:一|1|两|兩|2|三|3|这两|這兩|这几|這幾|上|每)\s*(?:个|個)?\s*月|last\s+month|this\s+month|per\s+month|"
                   r"a\s+month|monthly)\s*(?:的|都|已经|已經|大概|大约|大約|就)?\s*$")


def _spent_or_quoted(w: _Work, at: int, end: int | None = None) -> bool:
    """The amount at `at` is money spent or quoted ("AWS bill hit $21k last month", "一個月大概燒 NT$18 萬", "經銷商報價
    ... NT$1,050 萬"): a cue earlier in its sentence and no budget word after the cue."""
    if end is not None and _TOTAL_AFTER.match(w.text, end) and _A_MONTH.search(w.text[max(0, at - 40): at]):
        return False  # "we can burn $8k a month, $20k total at most": the total is the budget
    sentence_start = max((m.end() for m in re.finditer(r"[.!?。！？]\s", w.text[:at])), default=0)
    cue = next(reversed(list(_SPENT.finditer(w.text, sentence_start, at))), None)
    return cue is not None and not _BUDGET_CUE.search(w.text, cue.end(), at)


def _spending_periods(w: _Work) -> None:
    """The period of money spent ("一个月账单七万多", "这两个月已经花了一万二") is no deadline: consumed."""
    for cue in list(_SPENT.finditer(w.text)):
        start = max(0, cue.start() - 16)
        period = _SPENT_PERIOD.search(w.text[start: cue.start()])
        if period:
            w.consume(start + period.start(), cue.start())


MAX_BUDGET_USD = 1e12
"""A budget above a trillion dollars is a typo or a joke (the largest announced AI build-outs are a few hundred
billion over several years); it is re-asked."""

_ACQ = [
    ("either", _c(r"\beither\b(?!\s+(?:the\s+)?[a-z]*\d)(?<!buying\seither)(?<!buy\seither)|buy\s+or\s+rent|rent\s+or\s+buy|both\s+options|买或租|租或买|買或租|租或買|买还是租|買還是租|租还是买|租還是買|都可以考虑|都可以考慮|"
               r"(?:自建|自购|自購|买卡|買卡|购买|購買)\s*(?:或|或者|还是|還是)\s*(?:上云|上雲|租|云端|雲端|用云|用雲)|"
               r"(?:上云|上雲|租|云端|雲端|用云|用雲)\s*(?:或|或者|还是|還是)\s*(?:自建|自购|自購|买卡|買卡|购买|購買)|"
               # "想換 5090 但怕電供撐不住，還是乾脆租雲端？": a card to buy, or renting instead
               r"(?:换|換|升级|升級|加卡|买|買)[^。？?!！]{0,24}?(?:还是|還是)\s*(?:干脆|乾脆|直接)?\s*(?:去)?\s*(?:租|上云|上雲)")),
    ("rent", _c(r"\brent(?:ed|ing|al)?\b(?!\s+(?:an?\s+|my\s+|the\s+)?(?:apartment|flat|house|room|place|studio)\b)|\blease\b|"
                r"\bspend\b[^.;!?]{0,40}?\bon\s+(?:cloud|rented)\s+(?:gpus?|compute|instances?|credits?|time)\b|"
                r"\bleasing\b|租用|租赁|租賃|(?<!出)租(?!或|的?(?:房子|房|屋|公寓|套房|雅房))(?<!房租)")),
    ("buy", _c(r"\bbuy(?:ing)?\b|\bpurchas|\bprocure|\bupgrade\s+to\b|\bown\s+(?:the\s+)?(?:hw|hardware)\b|rather\s+own|"
               r"(?<!have\s)(?<!own\s)\bused\s+(?:cards?|gpus?)|(?<!有)(?<!有[两兩一二三四五六七八\d]张)(?<!有[两兩一二三四五六七八\d]張)(?<!上[两兩一二三四五六七八\d]张)(?<!上[两兩一二三四五六七八\d]張)二手|second[\s-]?hand|(?<!colo\s)(?<!colocation\s)\bquote\b|报价|報價|grants?\s+for\s+(?:gpu\s+|new\s+)?(?:gpus|hardware|servers?)|"
               r"\bfor\s+a\s+new\s+(?:card|gpu|rig|box|machine|server|workstation|pc|build)\b|\bbuild\s+(?:it\s+|this\s+)?around\b|\b(?:whole|entire|full|complete)\s+build\b|"
               r"标案|標案|招标|招標|自购|自購|自行采购|自行採購|自建(?!的|机房|機房|数据中心|數據中心|資料中心|idc)|\bcapex\b|买(?!了|的|过|過|不到|不起)|買(?!了|的|过|過|不到|不起)|购买|購買|采购|採購|购置|購置|加购|加購|"
               r"\bbuild(?:ing)?\s+(?:it|one|a|my|our|the)\b(?!\s+(?:[\w-]+\s+)?(?:rag|chat\s*bot|bot|assistant|app|application|pipeline|"
               r"model|dataset|service|tool|agent|search|product|demo|prototype|poc|api|website|platform|feature|knowledge\s+base)s?\b)|i'?ll\s+build|\bbuild\s+myself|组一台|組一台|攒一台|攢一台|搭一台|搭建一台|搭一套|配出|配一台|配一套|砌(?:一)?部機|砌機|自己\s*build|\bbuild\s*(?:一|1)\s*(?:台|臺)|"
               r"架(?:設|设)?\s*(?:一|1|两|兩|二|幾|几)?\s*台[^，。,.;；]{0,12}?(?:伺服器|服务器|主機|主机|機器|机器|工作站)|"
               r"自己组|自己組|自己攒|自己攢|组装|組裝|装机|裝機|塞(?:两|兩|一|三|四|\d)\s*(?:张|張)|插\s*\d+\s*v|"

               r"\b(?:off|on|from)\s+(?:ebay|craigslist|fb\s+marketplace)\b|闲鱼|閒魚|咸鱼|鹹魚|\bthinking\s+(?:of\s+|about\s+)?(?:getting|buying|grabbing)\b|"
               r"\bplan(?:ning)?\s+(?:an?|our|my)\s+(?:own\s+)?(?:new\s+)?(?:on[\s-]?prem(?:ise)?s?\s+)?(?:gpu\s+)?(?:cluster|server|rig|workstation)\b|"
               r"(?:put|keep|place)\s+(?:it|them|the\s+\w+)?\s*(?:in|under)\s+(?:our|my|the)\s+(?:server\s+room|office|rack|desk|closet|lab)|"
               # money for a machine, capital spending, cards added: "forty grand to spend on a box"
               r"\b(?:spend|budget)\b[^.;!?]{0,40}?\b(?:on|for)\s+(?:an?|one|the|our|my)?\s*(?:new\s+)?"
               r"(?:box|workstation|server|rig|machine|tower)\b|\bcapital\s+(?:budget|expenditure|spend)|"
               r"\b(?:equipment|hardware)\s+(?:budget|funds?|money)\b|\bwhat\s+(?:do|should|would)\s+(?:i|we)\s+buy\b|"
               r"\bfor\s+(?:gpu\s+|new\s+)?hardware\b|"
               r"\b(?:has|have|needs?)\s+to\s+be\s+(?:hardware|on[\s-]?prem)\b|\b(?:the\s+)?po\s+(?:has\s+to|must|needs\s+to)\b|\bpurchase\s+order\b|"
               r"\bpo\s+for\s+(?:the\s+|a\s+|our\s+|new\s+)*(?:server|box|machine|workstation|gpus?|cards?|hardware|node)s?\b|"
               r"\bspend\b(?:(?!/\s*mo|per\s+month|a\s+month|monthly|/\s*h)[^.;!?]){0,60}?\bon\s+(?:new\s+)?(?:hardware|gpus|cards|servers)\b|"
               r"设备费|設備費|设备预算|設備預算|硬件预算|硬體預算|硬件经费|硬體經費|"
               r"\bwhat\s+(?:should|could|do)\s+(?:i|we)\s+add\b|"
               r"\badd\s+(?:a|another|one|a\s+(?:second|third|fourth)|\d+)\s+(?:new\s+)?(?:box|server|node|machine|workstation)s?\b")),
]
_CLOUD_ONLY_SAID = _c(r"直接用云|直接用雲|直接上云|直接上雲|只用云|只用雲|云端就好|雲端就好|cloud\s+only|only\s+cloud|cheapest\s+cloud|"
                      r"cloud\s+is\s+fine|不想管硬件|不想管硬體|没有机房|沒有機房|no\s+(?:server\s+)?room")
"""The cloud as the only place said outright (not merely a provider named)."""
_CLOUD_ONLY = _c(rf"{_CLOUD_ONLY_SAID.pattern}|autodl|阿里云|阿里雲|腾讯云|騰訊雲|runpod|vast\.ai|\bon\s+vast\b|lambda|\baws\b|\bgcp\b|azure")
_RACKED = _c(r"机柜|機櫃|机架|機架|\bracks?\b")
_PLACED = _c(r"放(?:在)?(?:家里|家裡|家中|办公室|辦公室|公司|系上|实验室|實驗室|研究室|工作室|桌下|身边|身邊)|家里|家裡|办公室|辦公室|"
             r"\bat\s+home\b|\bhome\b|\boffice\b|\bbuild\b|组一台|組一台|攒一台|攢一台|自己组|自己組|自己攒|自己攢")
_RENT_ALLOWED = _c(r"(?:rent(?:ing|al)?|cloud)\s+(?:is|would\s+be|'s)\s+(?:also\s+)?(?:fine|ok|okay|an\s+option|acceptable)|"
                   r"(?:ok|fine|open)\s+(?:to|with)\s+rent|could\s+(?:also\s+)?rent|"
                   r"租(?:的|用|卡|云端|雲端|云|雲)?\s*也(?:可以|行|ok|可|能接受)|也可以租|也可(?:以)?考虑租|也可(?:以)?考慮租|租的也可以考[虑慮]")
_DECIDED = _c(r"\b(?:we'?ll|we\s+will|i'?ll|i\s+will|we'?re\s+going\s+to|going\s+to|decided\s+to)\s+(?:just\s+)?(?:(?P<rent>rent)|buy)\b|"
              r"(?:决定|決定|打算|就)(?:(?P<rent2>租)|买|買)(?!或|还是|還是)")
_RENT_THEN_BUY = _c(r"rent\b.{0,40}\bthen\s+buy|租.{0,20}(?:再买|再買|然后买|然後買|之后买|之後買)")
_COMPANY = _c(
    r"\b(?:our|my|the|a|an)\s+(?:[\w-]+\s+){0,2}?(?:company|firm|enterprise|corporation|bank|hospital|insurer|manufacturer|"
    r"law\s+firm|hedge\s+fund|agency|ministry)\b(?!(?:'s)?\s+(?:laptop|pc|computer|desktop|card|account|email|vpn|credit))|\bwe\s+are\s+an?\s+(?:[\w-]+\s+){0,3}?(?:company|firm|enterprise|bank|"
    r"hospital|manufacturer|corporation)\b|\benterprise\b|\bcorporate\b|\bour\s+employer\b|"
    r"(?:我们|我們|我司|本公司|敝公司|咱们|咱們)(?:是)?[^，。,.!?！？]{0,16}?(?:公司|企业|企業|集团|集團|银行|銀行|医院|醫院|工厂|工廠|厂|廠)|"
    r"(?:我们|我們)(?:公司|企业|企業|单位|單位|集团|集團)|我司|本公司|敝公司|公司(?:要|想|打算|准备|準備|计划|計劃|内部|內部|机房|機房|内网|內網|采购|採購|自建|现有|現有|已有)|"
    r"(?:企业|企業|集团|集團|国企|國企|央企|银行|銀行|医院|醫院)(?:要|想|打算|准备|準備|内部|內部|私有化|采购|採購|级|級)")
""""我们是深圳的一家公司", "公司要導入", "our company", "enterprise": a company or an institution buys, not a person."""
_PERSONAL = _c(r"个人|個人|自己玩|自己用|\bhobby|\bpersonal\b|side\s+project|下班|业余|業餘|\bfor\s+fun\b")
_IF_BUY = _c(r"\bif\s+(?:we|i)\s+(?:do\s+)?(?:buy|purchase|go\s+(?:with\s+)?buying)\b|(?:如果|要是|假如|若)(?:要|是)?(?:买|買|自购|自購)")
_HOME = _c(r"\bat\s+home\b|\bmy\s+desk\b|home\s*lab|\bapartment\b|家里|家裡|家中|在家|宿舍|屋企|dorm")
_NEED_TO_BUY_Q = _c(r"\b(?:do|would|will|should)\s+(?:i|we)\s+(?:need|have)\s+to\s+buy\s+(?:anything|something|more|another)\b|"
                    r"\bwould\s+buying\b|\bif\s+(?:we|i)\s+bought\b|"
                    r"(?:要不要|需不需要|需要)(?:再)?(?:买|買)(?:什么|什麼|东西|東西)?(?:吗|嗎|\?)")
"""Whether to buy anything asked, not decided: "do i need to buy anything?", "需不需要再买"."""
_ACQ_QUESTION = _c(r"(?:should\s+(?:we|i)\s+(?:just\s+)?rent|(?:do|would|will)\s+(?:i|we)\s+(?:need|have)\s+to\s+rent|要不要租|是不是租|"
                   r"租比较好吗|租比較好嗎|还是该租|還是該租|还是要租|還是要租|要租吗|要租嗎|該租嗎|该租吗|buy\s+or\s+cloud|cloud\s+or\s+buy)")
_WHICH_TO_RENT = _c(r"\b(?:which|what)\s+(?:\w+\s+){0,3}(?:should|do|would|can)\s+(?:we|i)\s+rent\b|"
                    r"(?:租|租用)(?:哪|什么|什麼|啥)(?:个|個|种|種|款|家|张|張)?|(?:该|該|要)租(?:哪|什么|什麼|啥)")
_NOTHING_OWNED = _c(r"\bno\s+(?:hardware|gpus?|servers?|machines?)\s+of\s+(?:our|my)\s+own\b|\b(?:we|i)\s+(?:don'?t|do\s+not)\s+(?:own|have)\s+(?:any\s+)?(?:hardware|gpus?|servers?)\b|"
                    r"没有(?:自己的)?(?:硬件|显卡|顯卡|服务器|伺服器|机器|機器|gpu)|沒有(?:自己的)?(?:硬體|顯卡|伺服器|機器|gpu)")
_RATHER = _c(r"rather\s+(?P<a>rent|buy)\b[^.;!?]{0,30}?\bthan\s+(?:rent|buy)|prefer\s+(?:to\s+)?(?P<b>rent|buy)(?:ing)?|宁可(?P<c>租|买)|寧可(?P<d>租|買)|倾向(?P<e>租|买)|傾向(?P<f>租|買)")


_COST_COMPARED = _c(r"比較省|比较省|更省|省錢嗎|省钱吗|划算|划得來|划得来|比較便宜|比较便宜|回本|\bcheaper\b|\bpay\s+off\b|"
                    r"\bbreak[\s-]?even\b|\bworth\s+it\b|\bkeep\s+renting\b|继续租|繼續租")
"""Renting now and buying weighed against it as a question of cost: neither is decided."""
_OWN_KIT = _c(r"\bown\s+(?:servers?|hardware)\b")
"""'Our own servers' says who owns them, not where they stand."""
_NO_TIME_TO_BUY = _c(r"来不及买|來不及買|\bno\s+time\s+to\s+(?:buy|order|procure)\b")
_REFUSE_RENT = _c(r"\bnot\s+rent(?:ing)?\b(?!(?:\s+\w+){0,2}\s+yet\b)|\bno\s+rent(?:ing|als?)?\b|\b(?:won'?t|don'?t\s+want\s+to|rather\s+not|do\s+not\s+want\s+to)\s+"
                  r"rent\b|(?<!要)不(?:考虑|考慮|想|要|打算|用|会|會|能)?\s*(?:租|租用|租卡|租赁|租賃)(?!的也|也)")
"""Renting refused: "not renting", "buy, not rent", "不考虑租", "不想租": of the two ways, buying is left."""
_REFUSE_BUY = _c(r"\bnot\s+buy(?:ing)?\b(?!(?:\s+\w+){0,2}\s+yet\b)|\b(?:won'?t|don'?t\s+want\s+to|rather\s+not|do\s+not\s+want\s+to|can'?t)\s+buy\b|"
                 r"\bno\s+(?:capex|hardware\s+purchases?)\b|(?<!要)不(?:想|要|打算|考虑|考慮|会|會|能)\s*(?:再)?(?:花钱|花錢)?\s*(?:买|買|购买|購買|采购|採購)|"
                 # owning refused as upkeep: "we really don't want to manage any hardware", "不想自己维护硬件"
                 r"\b(?:don'?t|do\s+not|rather\s+not|won'?t)\s+(?:really\s+)?(?:want\s+to\s+)?(?:manage|maintain|babysit|deal\s+with|look\s+after|own)\s+"
                 r"(?:any\s+|our\s+own\s+|the\s+|physical\s+)?(?:hardware|servers?|machines|gpu\s+boxes|infra(?:structure)?)\b|"
                 r"不(?:想|要|愿意|願意)\s*(?:自己)?\s*(?:维护|維護|管|运维|運維|养|養)\s*(?:硬件|硬體|机器|機器|服务器|伺服器|设备|設備)")
"""Buying refused: "not buying", "不想買硬體", "不打算买卡": renting is left (or the cards they have)."""


def _blank_refusals(text: str) -> str:
    return _REFUSE_BUY.sub(" ", _REFUSE_RENT.sub(" ", text))


_IF_SHORT = _c(r"(?:不够|不夠|吃紧|吃緊|跑不动|跑不動|放不下|装不下|裝不下|爆了?|不行)\s*的[话話]|(?:实在|實在)?不行(?:就|再)|(?:不够|不夠)\s*(?:再|就)|"
               # "這樣來得及嗎？還是要去租雲端的A100？": renting as the other answer to whether theirs will do
               r"(?:(?<=[吗嗎?])|(?<=[吗嗎?]\s))(?:还是|還是)\s*(?:要|得|该|該|需要)?\s*(?:去|改)?\s*租|"
               r"\botherwise\b|\bif\s+(?:all\s+)?else\s+fails\b|\bif\s+(?:we|i)\s+do\b|\bif\s+(?:so|not)\b|\bif\s*(?=,)|\bif\s+(?:needed|necessary)\b|"
               r"\bif\s+(?:it|that|they|those|mine|ours)\s+(?:doesn'?t|does\s+not|won'?t|can'?t|isn'?t|aren'?t)\b|"
               # ("if ," is "if not," once the negation is blanked)
               # "if that's too slow we could rent", "要是太慢就去阿里云租", "如果記憶體不夠再考慮租"
               r"\bif\s+(?:it|that|this|they|those)(?:'s|'re|\s+is|\s+are|\s+turns?\s+out)?\s+(?:too\s+(?:slow|small)|not\s+enough|"
               r"insufficient)\b|\bin\s+case\s+(?:it|that|they|we)\b|"
               r"(?:(?<!主)(?<!只)(?<!就)要是|如果|万一|萬一|假如|若是)[^，。,.；;!?！？]{0,12}?(?:太慢|不够|不夠|不行|放不下|装不下|裝不下|跑不动|跑不動|不足|"
               r"超过|超過|太久|来不及|來不及)|\bif\s+(?:it|that|this)\s+takes\s+(?:more|longer)\s+than\b")


def _without_fallbacks(text: str) -> str:
    """`text` with its fallback clauses blanked ("不够的话再去AutoDL租"): what they would do if their own cards
    fall short says neither where the job runs nor how it gets its GPUs."""
    for m in _IF_SHORT.finditer(text):
        start, end = _clause_span(text, m.start())  # the clause itself, not the first text that reads like it
        if not text[m.end():end].strip() and end < len(text):
            end = _clause_span(text, end + 1)[1]  # "If we do, we'd rent the extra": the condition, then what follows it
        text = text[:start] + " " * (end - start) + text[end:]
    return text


_DISPUTED = _c(r"太誇張|太夸张|誇張了|夸张了|沒必要|没必要|不需要吧|不太認同|不太认同|不同意|\boverkill\b|\bseems\s+excessive\b|"
               r"\bi\s+disagree\b|\bnot\s+convinced\b|\bsounds\s+like\s+(?:a\s+lot|too\s+much)\b")


def _blank_disputed(text: str) -> str:
    """`text` without the sentences that report someone else's claim the writer then disputes."""
    for m in list(_HEARSAY.finditer(text)):
        end = _SENTENCE_END.search(text, m.end())
        stop = end.end() if end else len(text)
        if _DISPUTED.search(text, m.end(), min(len(text), stop + 30)):
            text = text[:m.start()] + " " * (stop - m.start()) + text[stop:]
    return text


def _acquisition(w: _Work) -> str | None:
    text = _blank_disputed(w.text)  # "主管說一定要買 8 張 H100，我覺得太誇張": their claim, not the plan
    low = _blank_disputed(w.orig.lower())
    no_rent, no_buy = _REFUSE_RENT.search(low), _REFUSE_BUY.search(low)
    if no_rent and not no_buy:
        return "buy"  # "要買斷，不考慮租", "Not renting - our data can't leave the building"
    if no_buy and not no_rent:
        return "rent"  # "不想買硬體", "not buying anything"
    if _NO_TIME_TO_BUY.search(low) and _ACQ[1][1].search(low):
        return "rent"  # "来不及买机器了，先在 AutoDL 上租卡": renting, for want of time to buy
    decided = _DECIDED.search(text)
    if decided and not _IF_SHORT.search(_clause_at(text, decided.start())):  # not "实在不行就租": a fallback  # "cloud is fine, we'll rent", "决定买": a decision said outright
        return "rent" if decided.group("rent") or decided.group("rent2") else "buy"
    said = _without_fallbacks(_NEED_TO_BUY_Q.sub(lambda m: " " * len(m.group(0)), text))
    # ("if that's too slow we could rent more on lambda" allows nothing yet; "do i need to buy anything?" asks)
    if _RENT_ALLOWED.search(said) and _CLOUD.search(said) and not _ACQ_QUESTION.search(said) \
            and not _ACQ[2][1].search(said) and not _ONPREM.search(said):
        return "rent"  # "fine with renting on aws", nothing of their own: renting is the only way said
    if _WHICH_TO_RENT.search(said) and not _ACQ[2][1].search(said):
        return "rent"  # "which gpu instance should we rent?": what to rent is asked, not whether
    if _RENT_ALLOWED.search(said) and _NOTHING_OWNED.search(low) and not _ACQ[2][1].search(said):
        return "rent"  # "Renting is fine, no hardware of our own": renting is the only way they have
    if _ACQ_QUESTION.search(said) or _RENT_ALLOWED.search(said):
        return "either"  # "should we just rent?" asks, "renting is fine" allows: neither decides
    pref = _RATHER.search(text)
    if pref:  # "I'd rather rent than buy": the preference decides
        word = next(g for g in pref.groups() if g)
        return "rent" if word in ("rent", "租") else "buy"
    if _RENT_THEN_BUY.search(text):
        return "rent"  # "rent for the pilot, then buy if it works": this consultation rents
    for name, pattern in _ACQ:
        if name == "buy" and all(_PAST.search(_clause_at(text, m.start())) for m in pattern.finditer(text)):
            continue  # "去年幫團隊買 MacBook 就花了 7 萬", "bought in 2024": what they bought before
        if name != "either" and all(_IF_SHORT.search(_clause_at(text, m.start())) or said[m.start()] != text[m.start()]
                                    for m in pattern.finditer(text)):
            continue  # "不够的话再去AutoDL租": a fallback if their own cards fall short decides nothing
        if pattern.search(text):
            if name == "rent" and _ACQ[2][1].search(text):
                if all(_NOW.search(_clause_at(text, m.start())) for m in pattern.finditer(text)):
                    if _COST_COMPARED.search(text):
                        return "either"  # "目前在台智雲租…改成自己買…會比較省嗎？": which is cheaper, asked
                    return "buy"  # "現在每個月租雲端要花 15 萬，…撥 200 萬買": renting is what they do now
                return "either"
            return name
    return None


# --------------------------------------------------------------------------------------------
# Facility: power, circuit, cooling, deployment

MAX_RACK_KW = 250.0
"""The most one rack can draw: the densest shipping racks (GB200 NVL72) are ~120-132 kW; a figure above 250 kW
for a rack is a typo or a whole room, and is re-asked."""
_KW = _c(rf"{NUM}\s*(?:kw|kilowatts?|千瓦|瓩|kva)(?!\s*h|·h|-h|时|時|[a-z])")
_W = _c(rf"{NUM}\s*(?:w|watts?|瓦)(?![a-z/]|时|時|特)")
_OUTLET = _c(r"插座|插头|插頭|\boutlets?\b|\bwall\s+sockets?\b|\bsockets?\b|\breceptacles?\b|\bwall\s+plugs?\b")
_VOLT = _c(rf"{NUM}\s*(?:v|volts?|伏特?)(?![a-z0-9])")
_AMP = _c(rf"{NUM}(?:\s*(?:amps?|amperes?|安培?)|a|\s+a(?!\s+(?!circuit|breaker|line|feed|outlet|socket|plug|single|three|dedicated)[a-z]))"
          r"(?![a-z0-9]|装|裝|全|排)")  # not "a few hundred a day" (300 a day): an article, not amperes
_PHASE3 = _c(r"three[\s-]?phase|3[\s-]?phase|\b3ph\b|三相|3\s*相")
_PHASE1 = _c(r"single[\s-]?phase|1[\s-]?phase|单相|單相")
_CIRCUITS = _c(rf"{_num('n')}\s*(?:x|×|\*)\s*{_num('amp')}\s*(?:a|amps?)(?![a-z])|{_num('n2')}\s*(?:circuits|路(?!\s*(?:并发|並發|同时|同時|用户|用戶|请求|請求|会话|會話|对话|對話))|条线路|條線路|(?:个|個)?\s*(?:回路|迴路))|"
               rf"(?:(?<![\d.])(?P<n3>\d{{1,2}})(?:\s*[x×]\s*|\s+)|\b(?P<w3>two|three|four|five|six|eight)\s+)(?=(?:\d+\s*[av]\s*[/,]?\s*){{1,2}}"
               r"(?:(?:single|three|1|3)[\s-]?phase\s+|dedicated\s+|separate\s+)?(?:circuits|feeds|lines)\b)|"
               r"\b(?P<w5>two|three|four|five|six|eight)\s+(?:separate\s+|dedicated\s+)?circuits\b|"
               rf"\b(?P<w6>two|three|four|five|six|eight)\s+(?=\d+\s*v\s+\d+\s*a\s+(?:feeds|circuits|lines|whips|pdus)\b)|"
               rf"(?P<n4>[\d两兩二三四五六八]{{1,2}})\s*(?:条|條|迴路|回路|路|个|個|组|組)\s*(?=(?:\d+\s*v\s*)?\d+\s*a(?![a-z]))")
_STREAMS_BEFORE = _c(r"(?:并发|並發|同时|同時|concurren\w*)\s*(?:数|數|量)?\s*(?:大概|大约|大約|约|約|差不多|预计|預計|有|是)?\s*$")
_FACILITY_CUE = _c(r"rack|cabinet|circuit|outlet|socket|机柜|機櫃|机架|機架|供电|供電|电路|電路|功率|电力|電力|power|room|机房|機房|"
                   r"插座|插蘇|迴路|回路")
_LIQUID = _c(r"liquid|water[\s-]?cool|direct[\s-]?to[\s-]?chip|immersion|液冷|水冷|冷板|浸没|浸沒|浸沒式")
_NO_LIQUID = _c(r"(?:上不了|做不了|装不了|裝不了|用不了|弄不了|搞不了|(?:没|沒)(?:办|辦)?法\s*(?:上|弄|做|装|裝|用|搞)|无法上?|無法上?|不能上|不能用|can'?t\s+(?:do|have|get)|"
                r"no\s+(?:way\s+to\s+(?:do|get)\s+)?)\s*(?:液冷|水冷|liquid(?:\s+cooling)?)|"
                r"(?:液冷|水冷|liquid(?:\s+cooling)?)\s*(?:也|都|是|目前|现在|現在|暂时|暫時|还|還)*\s*(?:上不了|做不到|做不了|装不了|裝不了|弄不了|搞不了|不行|不可能|不能|没有|沒有|"
                r"没办法|沒辦法|不支持|不支援|isn'?t\s+(?:possible|an\s+option|available)|is\s+not|not\s+(?:possible|available))")
_AIR = _c(r"\bair\b(?![\s-]*gap)|air[\s-]?cool|风冷|風冷|氣冷|空冷|分離式|分体式|分體式|\bsplit\s+(?:ac|a/c|unit)\b|"
         r"(?:冷氣|冷气|空调|空調)(?:是|只有|就是)?\s*(?:一般|普通)")
"""Air cooling, said or implied by the room's air conditioner ("冷氣是一般分離式", "空调就是普通的")."""
_CLOUD = _c(r"\bcloud\b|\baws\b|\bgcp\b|\bazure\b|\blambda(?:\s+labs)?\b|runpod|vast\.ai|\bon\s+vast\b|\bcolab\b|\bkaggle\b|coreweave|"
            r"paperspace|autodl|恒源云|火山引擎|volcengine|\btwcc\b|國網中心|国网中心|云|雲|\bcloud[\s-]?based")
_NO_CLOUD = _c(r"cloud\s+is\s+(?:a\s+)?no[\s-]?go|\bcloud\s+is\s+(?:out|off\s+the\s+table|not\s+an\s+option)\b|(?:别|別|不要)(?:给我|給我)?(?:推荐|推薦)(?:云|雲)|(?:won'?t|wont|doesn'?t|does\s+not|will\s+not|can'?t|cannot|isn'?t\s+allowed\s+to|not\s+allowed\s+to)\s+"
               r"(?:let|allow)\s+(?:the\s+|our\s+|any\s+)?data\s+(?:to\s+)?(?:go|leave|be\s+(?:sent|uploaded))\s+(?:to|into|in)\s+(?:the\s+|a\s+|any\s+)?(?:public\s+)?cloud|(?:can(?:'?t|not)|must\s+not|never|won'?t|may\s+not)\s+(?:go|be\s+sent|be\s+uploaded|leave)\s+"
               r"(?:to|into|for)\s+(?:a\s+|any\s+|the\s+)?(?:public\s+)?cloud|(?<!要)不(?:想|要|考虑|考慮|用|上|租|许|許|准|準|能|可以|得)\s*(?:用|上|使用)?\s*(?:云端|雲端|公有云|公有雲|云|雲)|\bno\s+cloud|cloud\s+(?:is\s+)?not\s+allowed|\bnot\s+(?:in\s+)?the\s+cloud|can(?:'?t|not)\s+(?:use\s+|go\s+to\s+)?(?:the\s+)?cloud|"
               r"不(?:能|准|可|会|會)?(?:上云|上雲|用云|用雲|上公有云|上公有雲)|禁止上[云雲]")
_ONPREM = _c(
    r"on[\s-]?prem|(?<!tuned\s)(?<!trained\s)(?<!built\s)(?<!developed\s)(?<!made\s)in[\s-]?house|self[\s-]?host|(?:stays?|remains?|kept|staying)\s+(?:in|inside|within|on)\s+(?:the|our|my)\s+(?:own\s+)?(?:building|premises|network|site|hospital|campus|office)\b|own\s+(?:data\s*cent(?:er|re)|servers?|room|racks?|hardware|facility|dc|premises)|"
    r"data\s*cent(?:er|re)|\bcolo(?:cation)?\b|\bour\s+(?:dc|server\s+room|racks?|cluster\s+room)\b|自建|机房|機房|本地|自有|私有化|数据中心|資料中心|地端|\bidc\b|托管|託管|自己的服务器|自己的伺服器|"
    r"home\s*lab|\bat\s+home\b|\blocally\b|\bmy\s+(?:desk|gaming\s+pc|pc|computer|desktop|apartment|basement)\b|server\s+room|"
    r"放(?:在)?(?:家里|家裡|家中|办公室|辦公室|公司|机房|機房|系上|实验室|實驗室|研究室|桌下|身边|身邊|厂里|廠裡|厂内|廠內)|想放(?!\s*(?:在|到)?\s*(?:aws|gcp|azure|lambda|runpod|autodl|云|雲|阿里|腾讯|騰訊|华为|華為|台智|國網|国网))|"
    r"(?:擺|摆|放)(?:在)?(?:会议室|會議室|机柜|機櫃|茶水间|茶水間|角落|办公区|辦公區)|(?:机柜|機櫃)(?:里|裡)|"
    r"在(?:办公室|辦公室|家里|家裡|公司|机房|機房|实验室|實驗室|廠內|厂内|廠區|厂区|園區|园区|現場|现场|所里|所裡|院內|院内)\s*(?:放|架|装|裝|摆|擺|建|搭)|"
    r"\b(?:put|stick|place|keep)\s+(?:it|them)\s+in\s+(?:the|our)\s+(?:office|lab)\b|"
    r"内网|內網|\bintranet\b|air[\s-]?gapped|智算中心|算力中心|超算中心|"
    r"(?:不能|不可以|不准|不得|不可|絕對不能|绝对不能)\s*(?:离开|離開|出)\s*(?:厂区|廠區|园区|園區|公司|内网|內網|机房|機房|本地|校园|校園|医院|醫院|院内|院內|"
    r"所(?!有|以|謂|谓|需|在)|院(?!校|系)|厂|廠)|"
    r"gaming\s+pc|leave\s+the\s+building|closet\b|(?:房間|房间|臥室|卧室)(?:裡|里|的|是)|\bdata\s+hall\b|\bon[\s-]?site\b|\bon\s+(?:our|the)\s+(?:own\s+)?premises\b|"
    r"(?:leave|leaving|go\s+outside|outside|off)\s+(?:of\s+)?(?:our|the|my)\s+(?:own\s+)?(?:network|premises|site|firewall|campus|hospital|office|building)\b|"
    r"书房|書房|宿舍|\b(?:our|my|the)\s+(?:basement|garage|dorm(?:\s+room)?|(?:spare\s+)?bedroom|spare\s+room|home\s+office|living\s+room)\b|自己的(?:電腦|电脑|工作站|桌機|桌机|主機|主机)|我的(?:電腦|电脑)|家里|家裡|家中|在家|屋企"
)
_NO_QLORA = _c(r"(?:不想用|不想|不考虑|不考慮|不要|不用|别用|別用|\bno\b|\bnot\b|\bwithout\b|\bavoid(?:ing)?\b|"
               r"\b(?:don'?t|do\s+not|won'?t)\s+(?:want\s+(?:to\s+(?:use|do)\s+)?|use\s+))\s*(?:to\s+)?q\s*-?\s*lora")
"""QLoRA refused ("不想用QLoRA", "no QLoRA", "we don't want to use QLoRA"), whatever task the message then names."""
_REDUNDANT = _c(
    r"\bn\s*\+\s*1\b|\bhigh[\s-]availability\b|\bfail[\s-]?over\b|\bredundan(?:t|cy)\b|\bno\s+single\s+point\s+of\s+failure\b|"
    r"\bsurvive\s+(?:the\s+)?(?:loss|failure)\s+of\b|\b(?:if|when)\s+(?:one|a)\s+(?:card|gpu|server|node|box|machine)\s+"
    r"(?:dies|fails|goes\s+down)\b|"
    r"冗余|冗餘|备援|備援|容灾|容災|热备|熱備|高可用|"
    r"(?:一|某)(?:张|張|台|臺|块|塊)(?:卡|gpu|显卡|顯卡|机器|機器|服务器|伺服器)?\s*(?:坏了|壞了|挂了|掛了|故障|当机|當機|宕机|宕機)"
    r"[^。！？!?]{0,12}?(?:也|仍|还|還|都)(?:要|得|能|可以)?\s*(?:不能停|不能断|不能斷|不中断|不中斷|能用|能跑|撑得住|撐得住|继续|繼續)")
"""The service must outlive one failed card or server (N+1, 双机热备, "a failed card must not stop it"); a question
whether a second box is worth it is not the requirement ("should we buy a second box for failover?" asks)."""
_SPARE_ASKED = _c(r"\bshould\s+(?:we|i)\b|\bis\s+it\s+worth\b|\bdo\s+(?:we|i)\s+need\b|要不要|需不需要|值不值得|有没有必要|有沒有必要|是否(?:需要|要)")
_SELF_PROVIDER = _c(r"(?:我們是|我们是|\bwe'?re\s+an?|\bwe\s+are\s+an?)[^，。,.;]{0,12}?(?:雲端服務商|云服务商|云厂商|雲端廠商|雲端業者|"
                    r"cloud\s+(?:service\s+)?provider|neocloud|gpu\s+cloud)")
_SELF_HOST = _c(r"self[\s-]?host(?:ed|ing)?")
_EITHER_DEPLOY = _c(r"cloud\s+or\s+on[\s-]?prem|on[\s-]?prem\s+or\s+cloud|buy\s+or\s+cloud|cloud\s+or\s+buy|云或|雲或|或云|或雲|都行|都可以|"
                    r"\beither\s+(?:way|option|one|is|works|would|will|could)\b|\bboth\s+(?:are|work|would|could|options?|ways?)\b|"
                    r"\bopen\s+to\s+(?:both|either)\b|\b(?:both|either)(?:\s+(?:is|are))?\s+(?:fine|ok|okay)\b|\b(?:either|both)\s*[.?!]?\s*$")
_PUE = _c(rf"pue\s*(?:of|=|:|is|为|為|是)?\s*{NUM}")


_PAST = _c(r"去年|前年|之前|以前|当初|當初|上个月|上個月|last\s+(?:year|month)|\bago\b|\bin\s+20[12]\d\b|20[12]\d\s*年")
_NOW = _c(r"\bright\s+now\b|\bcurrently\b|\bat\s+the\s+moment\b|\btoday\b|现在|現在|目前|当前|當前")
_CLAUSE_EDGE = lazy_compile(r"[,;:!?\n]|\.(?!\d)")  # a line of its own (a bullet) is a clause too


def _clause_span(text: str, pos: int) -> tuple[int, int]:
    """Where the clause (between commas or sentence ends) of `text` around position `pos` starts and ends."""
    start = max((m.end() for m in _CLAUSE_EDGE.finditer(text, 0, pos)), default=0)
    end = _CLAUSE_EDGE.search(text, pos)
    return start, end.start() if end else len(text)


def _clause_at(text: str, pos: int) -> str:
    """The clause (between commas or sentence ends) of `text` around position `pos`."""
    start, end = _clause_span(text, pos)
    return text[start:end]


def circuit_kw(volts: float, amps: float, three_phase: bool, circuits: int = 1) -> float:
    """Usable continuous kW of `circuits` circuits (advisor.core.power.circuit_kw: V x A, x sqrt 3 for
    three-phase, x 0.8 by the NEC 80 % rule)."""
    return power.circuit_kw(volts, amps, 3 if three_phase else 1) * circuits


_POWER_LIMIT_BEFORE = _c(r"(?:power[\s-]?limit(?:ed|ing)?|capped|undervolted|限(?:制)?(?:功耗|功率)?|锁功耗|鎖功耗|功耗(?:限制|墙|牆)?)"
                         r"\s*(?:to|at|of|到|在|为|為)?\s*(?:about|~|约|約)?\s*$")
_DRAW_BEFORE = _c(r"(?:\bpulls?|\bpulling|\bdraws?|\bdrawing|\bconsumes?|\bconsuming|\bburns|功耗|耗电|耗電|满载|滿載|吃)"
                  r"\s*(?:about|around|up\s+to|~|≈|约|約|大概|大约|大約|是|为|為)?\s*$")
_DRAW_AFTER = _c(r"\s*(?:under\s+load|at\s+(?:full\s+)?load|full\s+load|at\s+peak|peak|满载|滿載|峰值)")
"""What a card or machine draws ("it pulls ~450W under load", "4090 满载 450W"): not what the room supplies."""
_PER_CARD_AFTER = _c(r"\s*(?:each|per\s+(?:card|gpu)|a\s+card|apiece|/\s*(?:card|gpu)|每张|每張|一张|一張)")
_PSU_NAME = r"(?:psu|power\s+supply|电源|電源供應器|電源|電供)"
_PSU_W = _c(rf"{_num('num1')}\s*(?:w|watts?|瓦)\s*(?:的)?\s*(?:gold\s+|platinum\s+|金牌|白金)?\s*{_PSU_NAME}|"
            rf"{_PSU_NAME}\s*(?:is|of|:|：|是|为|為|只有|only|has)?\s*(?:an?\s+|only\s+)?{_num('num2')}\s*(?:w|watts?|瓦)(?![a-z])")
"""A power supply's rating ("850 W PSU", "电源 750W", "電供只有 650W"): the most the machine it powers can draw."""

_HOST = _c(r"\b(?:psu|power\s+supply)\s+(?:that'?s\s+)?(?:already\s+)?in\s+my\s+(?:case|pc|tower|rig|desktop|build)\b|"
           r"\balready\s+in\s+my\s+(?:case|pc|tower|rig|desktop|build)\b|"
           r"\b(?:my|our)\s+(?:existing|current|present|old|gaming)\s+(?:desktop|pc|rig|tower|computer|workstation|machine|"
           r"box|build)\b|\b(?:existing|current)\s+(?:desktop|pc|rig|tower|computer|workstation|build)\b|"
           r"\b(?:in|into)\s+my\s+(?:desktop|pc|rig|tower|computer|workstation|machine|box)\b|"
           r"\bupgrad(?:e|ing)\s+(?:the\s+)?(?:gpu|graphics\s+card|card)\s+(?:in|of|on)\s+my\b|"
           r"\bupgrad(?:e|ing)\s+my\s+(?:desktop|pc|rig|tower|computer)\b|"
           r"\bmy\s+(?:desktop|pc|rig|tower|computer)\s+(?:has|already\s+has|with)\s+(?:an?\s+)?\d+\s*w\b|"
           r"现有的?(?:电脑|主机|台式机|工作站|机器)|現有的?(?:電腦|主機|桌機|桌上型電腦|工作站|機器)|"
           r"(?:我|我们|我們)(?:的|家的|家里的|家裡的)(?:电脑|主机|台式机|電腦|主機|桌機)|"
           r"(?:家里|家裡|原来|原來|原本|手上|手边|手邊)的?(?:电脑|主机|台式机|電腦|主機|桌機)|"
           r"\b(?:i|we)\s+(?:already\s+)?(?:have|own|got)\s+(?:a|an|my)\s+(?:gaming\s+)?(?:desktop|pc|rig|tower|workstation)\b|"
           r"(?:小弟|我|我们|我們)(?:的|家)?(?:桌機|电脑|電腦|主机|主機|台式机)|自己(?:的)?(?:电脑|電腦|主机|主機|桌機|台式机)(?:上|里|裡)|"
           r"(?:放|装|裝|插)(?:在|到|进|進)\s*(?:我|我们|我們)?自己的?(?:电脑|電腦|主机|主機|桌機|桌机|台式机|工作站)|"
           r"\b(?:have|got)\s+an?\s+(?:\w+\s+){0,2}(?:box|desktop|pc|rig|tower|workstation|server)\s+(?:at\s+home\s+|in\s+\w+\s+)?with\s+(?:an?|one|two|\d)\s|"
           r"升级显卡|升級顯卡|换(?:一张|张|块)?显卡|換(?:一張|張)?顯卡|"
           r"(?:电脑|主机|台式机|電腦|主機|桌機)(?:里|裡|上)?(?:加|插|装|裝)(?:一|两|兩|1|2)?(?:张|張|块|塊)?(?:卡|显卡|顯卡|gpu)|"
           r"(?:给|幫|帮|替)(?:我的)?(?:电脑|主机|台式机|電腦|主機|桌機)(?:加|配|换|換|升级|升級)|"
           r"(?:那台|这台|這台|我那台)(?:电脑|電腦|主机|主機|桌機|台式机|工作站)(?:里|裡|上)?(?:已经|已經|目前|现在|現在)?(?:有|插了|装了|裝了)|"
           r"(?:装进|裝進|装到|裝到|插进|插進|插到|放进|放進)\s*(?:我|我们|我們)?(?:的|现在的|現在的|目前的|原本的|原来的|原來的|家里的|家裡的)?\s*"
           r"(?:电脑|電腦|主机|主機|桌機|桌机|台式机|工作站)")
"""The GPUs go into a computer the writer has: "my existing desktop", "put a 4090 in my PC", "现有的主机",
"給桌機換顯卡"."""

_UPGRADE = _c(r"\b(?:put|add|drop|install|upgrad(?:e|ing))\b|升级|升級|换(?:一张|张|块)?显卡|換(?:一張|張)?顯卡")
"""Words of a card bought for a machine the writer has: put in, upgrade, 换显卡 (one more card: `_ADD_CARD`)."""

_ASKS = _c(r"[?？]|吗|嗎|\bshould\s+(?:i|we)\b|\bdo\s+(?:i|we)\s+need\b|需要再|要不要|\bor\b|还是|還是")
"""A clause that asks: adding a card is then a question, not a plan."""
_DESKTOP = _c(r"桌機|桌机|台式机|台式機|主机|主機|電腦|电脑|\bdesktop\b|\bpc\b|\btower\b|\brig\b|\bworkstation\b|工作站")
_UPGRADE_INTENT = _c(r"(?:打算|想要?|准备|準備|计划|計劃|决定|決定|plan(?:ning)?\s+to|going\s+to|gonna|want\s+to|will)\s*(?:要)?\s*"
                     r"(?:升级|升級|换|換|upgrade)(?!\s*(?:成|为|為)?\s*(?:租|云|雲|the\s+cloud|cloud|rent))")
_GET_A_CARD = _c(r"\b(?:get|grab|pick\s+up)\s+(?:a|an|one|two|another)\s+(?:used\s+|new\s+|second[\s-]hand\s+)?"
                 r"(?:rtx\s*|gtx\s*|rx\s*)?(?:\d{4}|pro\s+6000|a\d{2,4}|h\d{2,3}|l40s?|mi\d{3})\b")
_ADD_CARD = _c(r"\badd\s+(?:a\s+(?:second|third|fourth|2nd|3rd|4th)|another|one\s+more|more|two\s+more|\d\s+more)\s+(?:cards?|gpus?|\w+\s+cards?)|"
               r"\badd\s+(?:cards|gpus)\b|\bwhat\s+(?:can|could|should)\s+(?:i|we)\s+add\b|\bfill\s+(?:those|the|its|my|our)\s+(?:empty\s+|free\s+)?slots\b|"
               r"\b(?:second|2nd|third|3rd)\s+(?:card|gpu)\b|"
               r"再加(?:[一二两兩三四1-4])?(?:张|張|块|塊)|再加卡|加卡|加第[二三四2-4](?:张|張|块|塊)|加(?:一|1)(?:张|張|块|塊)(?:卡|显卡|顯卡)?|再(?:买|買)(?:一|1)(?:张|張|块|塊)")
"""One more card for a machine the writer has: "add a second card", "想再加一张"."""

_NEW_MACHINE = _c(r"\bnew\s+(?:build|pc|rig|machine|desktop|workstation|server|box)\b|\bbuild(?:ing)?\s+(?:a|an|my)\b|"
                  r"组一台|組一台|攒一台|攢一台|配一台|组装一台|組裝一台|新(?:电脑|主机|電腦|主機|桌機)|整机|整機")
"""A machine still to be built or bought: its base is part of the price."""

_MAX_GPUS = _c(r"\b(?:only|just)\s+(?:(?:buy|get|want|afford|fit|need)(?:ing|s)?\s+|have\s+room\s+for\s+|room\s+for\s+)?"
               r"(?P<n1>one|two|three|four|a\s+single|1|2|3|4)\s+(?:more\s+)?(?:cards?|gpus?)\b|"
               r"\b(?P<n2>one|a\s+single|1)\s+(?:card|gpu)\s+only\b|"
               r"\b(?:at\s+most|no\s+more\s+than|max(?:imum)?(?:\s+of)?|up\s+to)\s+(?P<n3>\d{1,3}|one|two|three|four|six|eight)\s+"
               r"(?:cards|gpus)\b|"
               r"只(?:买|買|要|能放|放得下|插得下|装得下|裝得下|能插|能装|能裝|打算买|打算買|想买|想買)\s*(?P<n4>[一二两兩三四1-4])\s*(?:张|張|块|塊)|"
               r"最多\s*(?:只能|只可以|可以|能)?\s*(?:买|買|放|插|装|裝|用|塞|上)?\s*(?:得下)?\s*(?P<n5>[一二两兩三四五六八1-8])\s*(?:张|張|块|塊)")
"""A cap on the GPU count the writer will have: "only one card", "at most 4 GPUs", "只買一張卡", "最多放两张"."""

_SLOTS_TOTAL = _c(r"\b(?:case|chassis|board|motherboard|mobo|box|tower|server)\s+(?:only\s+)?(?:takes|fits|holds|supports|has\s+room\s+for)\s+"
                  r"(?:up\s+to\s+)?(?P<n>\d|one|two|three|four|six|eight)\s+(?:gpus?|cards?)(?:\s+total|\s+in\s+total|\s+max)?\b|"
                  r"\b(?:case|chassis|board|motherboard|mobo|box|tower|server)\s+(?:only\s+)?has\s+(?:only\s+)?"
                  r"(?P<n3>\d|one|two|three|four|six|eight)\s+(?:pcie\s+|gpu\s+|x16\s+)?slots?\s+(?:total|in\s+total|in\s+all)\b|"
                  # a capacity, not what is installed ("一台伺服器裝 4 張 L40S" says what they have)
                  r"(?:机箱|機殼|機箱|主板|主機板|机器|機器|服务器|伺服器)\s*(?:(?:总共|總共|一共)\s*(?:只能|最多)?\s*(?:放|插|装|裝|塞)(?:\s*得下)?|"
                  r"(?:只能|最多)\s*(?:放|插|装|裝|塞)(?:\s*得下)?|(?:放|插|装|裝|塞)\s*得下)\s*"
                  r"(?P<n2>[一二两兩三四六八1-8])\s*(?:张|張|块|塊)")
_SLOTS_MORE = _c(r"(?:还|還)?空[着著]?\s*(?P<n>[一二两兩三四五六七八\d])\s*(?:个|個)\s*(?:pcie\s*)?(?:x\s*(?:16|8)\s*)?(?:槽|插槽|卡槽|位置)|"
                 r"(?:还|還)?有\s*(?P<n6>[一二两兩三四五六七八\d])\s*(?:个|個)\s*空(?:的|着的|著的)?\s*(?:pcie\s*)?(?:x\s*(?:16|8)\s*)?"
                 r"(?:槽|插槽|卡槽)|"
                 r"(?:最多(?:只能)?|(?:主板|主機板|机箱|機箱|機殼)?\s*(?:只能|只可以))(?:再|還能|还能)(?:插|加|装|裝|放|塞)\s*(?P<n2>[一二两兩三1-3])\s*(?:张|張|块|塊)|"
                 r"(?:只|仅|僅)(?:剩|剩下|有)\s*(?P<n5>[一二两兩三1-3])\s*(?:个|個)\s*(?:pcie\s*)?(?:槽|插槽|卡槽|空槽|位置)|"
                 r"\broom\s+for\s+(?P<n3>one|two|three|four|\d)\s+more\s+(?:cards?|gpus?)\b|\b(?P<n4>one|two|three|four|\d)\s+(?:free|empty|open|spare)\s+(?:pcie\s+)?(?:x(?:16|8)\s+)?slots?\b")
_CN_COUNT = {"一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "八": 8}


def _machine(w: _Work, ex: Extraction) -> None:
    """The computer the GPUs go into, and a cap on how many there may be."""
    low = w.orig.lower()
    psu_and_more = _PSU_W.search(low) and (_ADD_CARD.search(low) or _UPGRADE.search(low))
    if (_HOST.search(low) or psu_and_more) and not _NEW_MACHINE.search(low):
        ex.fields["host_owned"] = True  # named, or "850W 電源，想加一張卡": one more card for the box with that PSU
    total, more = _card_count(_SLOTS_TOTAL.search(low)), _card_count(_SLOTS_MORE.search(low))
    if total is not None:
        ex.fields["max_gpus"] = total  # "the case only takes 3 gpus total"
    elif more is not None:
        ex.more_slots = more  # "还空着4个槽", "最多再插一張": that many beyond the cards they have (added once those are read)
    elif (cap := _card_count(_MAX_GPUS.search(low))) is not None:
        ex.fields["max_gpus"] = cap  # "only one card", "最多放两张"


def _card_count(m: re.Match[str] | None) -> int | None:
    """The number of cards a cap or slot phrase says (its first group that matched), 1-64; else None."""
    if m is None:
        return None
    raw = next(g for g in m.groups() if g)
    n = _EN_WORD_NUMBERS.get(raw) or _CN_COUNT.get(raw) or (1 if raw.startswith("a") else number_value(raw))
    return int(n) if n and float(n).is_integer() and 1 <= n <= 64 else None


_PSU_REPLACED = _c(r"[^,;.!?，；。！？]{0,12}?(?:要换|要換|得换|得換|换掉|換掉|换个|換個|换一个|換一個|会换|會換|"
                   r"will\s+(?:be\s+)?replace|(?:i'?ll|we'?ll|going\s+to|gonna|have\s+to|need\s+to)\s+(?:replace|upgrade|swap)|"
                   r"(?:is|will\s+be)\s+(?:getting\s+)?replaced)")


def _psu(w: _Work, ex: Extraction) -> None:
    """"850 W PSU": what the machine may draw (read before amounts, so its watts never become a budget)."""
    for m in w.finditer(_PSU_W):
        v = number_value(_numtext(m) or "")
        replaced = _PSU_REPLACED.match(w.text, m.end())  # "电源1300W肯定不够要换": the wall limits, not this PSU
        if v is not None and 100 <= v <= 5000 and "rack_kw" not in ex.fields and not replaced:
            ex.fields["rack_kw"] = v / 1000
        w.consume(m.start(), m.end())


def _facility(w: _Work, ex: Extraction) -> None:
    psu_kw = ex.fields.pop("rack_kw", None)
    kw: float | None = None
    for m in w.finditer(_KW):
        v = number_value(_numtext(m) or "")
        if v is not None and kw is None:
            kw = v
        w.consume(m.start(), m.end())
    if kw is None:
        for m in w.finditer(_W):
            v = number_value(_numtext(m) or "")
            if v is None or re.search(r"[bmt]\s*$", _numtext(m) or "", re.IGNORECASE):
                continue  # "8b w/ lora" is a model size, not 8 GW
            before = w.text[max(0, m.start() - 40): m.start()]
            if _POWER_LIMIT_BEFORE.search(before[-24:]) or _PER_CARD_AFTER.match(w.text[m.end(): m.end() + 12]) or \
                    ((_DRAW_BEFORE.search(before[-24:]) or _DRAW_AFTER.match(w.text, m.end()))
                     and not _FACILITY_CUE.search(before)):
                w.consume(m.start(), m.end())
                continue  # "3090 power limited to 250W", "每张限 300W", "it pulls ~450W under load": a card, not the room
            if v >= 1000 or _FACILITY_CUE.search(w.orig.lower()):
                kw = v / 1000
                w.consume(m.start(), m.end())
                break
    volts = amps = None
    circuits = 1
    for m in w.finditer(_CIRCUITS):
        if _STREAMS_BEFORE.search(w.text[max(0, m.start() - 10): m.start()]):
            continue  # "并发大概 30 路": 30 streams of a service, not 30 circuits
        n = number_value(m.group("n") or m.group("n2") or m.group("n3") or m.group("n4") or "") or \
            _EN_WORD_NUMBERS.get(m.group("w3") or m.group("w5") or m.group("w6") or "")
        if n and 1 <= n <= 64 and float(n).is_integer():
            circuits = int(n)
        if m.group("amp"):
            amps = number_value(m.group("amp"))
        w.consume(m.start(), m.end())
    for m in w.finditer(_VOLT):
        volts = volts or number_value(_numtext(m) or "")
        w.consume(m.start(), m.end())
    for m in w.finditer(_AMP):
        amps = amps or number_value(_numtext(m) or "")
        w.consume(m.start(), m.end())
    if volts and not amps and _OUTLET.search(w.orig.lower()):
        # "一般110V插座", "a normal 230V wall socket": a household outlet's rating — 15 A at 100-127 V (NEMA 5-15,
        # the outlet of Taiwan, the US and Japan), 10 A at 220-250 V (GB 2099 in mainland China, IEC 60884)
        amps = 15.0 if volts <= 127 else 10.0
    three = bool(_PHASE3.search(w.text)) and not _PHASE1.search(w.text)  # "2x 208V 30A single-phase … or 3-phase?"
    if kw is None and volts and amps:
        kw = circuit_kw(volts, amps, three, circuits)
    if psu_kw is not None:  # the power supply or the circuit, whichever allows less
        kw = psu_kw if kw is None else min(kw, psu_kw)
    if kw is not None:
        if kw <= 0 or not math.isfinite(kw):
            ex.problem("conv.problem.power_positive")
        elif kw > MAX_RACK_KW:
            ex.problem("conv.problem.power_huge")
        else:
            ex.fields["rack_kw"] = round(kw, 3)
    elif (volts and not amps) or (amps and not volts):
        ex.problem("conv.problem.circuit_incomplete")
    no_liquid = False
    for m in _NO_LIQUID.finditer(w.orig.lower()):  # "液冷上不了", "liquid isn't possible": what they cannot have
        w.consume(m.start(), m.end())
        no_liquid = True
    if _LIQUID.search(w.text):
        ex.fields["cooling"] = "liquid"
    elif _AIR.search(w.text) or no_liquid:  # "液冷目前還沒有": air is what they have
        ex.fields["cooling"] = "air"
    cloud = bool(_CLOUD.search(_SELF_PROVIDER.sub(" ", _without_fallbacks(w.text))))  # not "我們是雲端服務商"
    onprem = bool(_ONPREM.search(_REFUSE_BUY.sub(" ", w.text)))  # not "we don't want to own hardware"
    if cloud and onprem and not _ONPREM.search(_SELF_HOST.sub(" ", w.text)):
        onprem = False  # "running everything on AWS, want to self-host gpt-oss": their own model server, in the cloud
    if cloud and onprem and all(_NOW.search(_clause_at(w.text, m.start())) for m in _CLOUD.finditer(w.text)):
        cloud = False  # "our AWS bill is $9k/month right now … buy our own box": the cloud is what they leave
    if _NO_CLOUD.search(w.orig.lower()):
        cloud, onprem = False, True  # "No cloud allowed (NDA)", "不能上云": where it runs is theirs
        ex.fields["cloud_refused"] = True
    either = _EITHER_DEPLOY.search(w.text) and (onprem or _ACQ[2][1].search(w.text))
    if (cloud and onprem) or (either and (cloud or onprem)):  # not "國網 TWCC 或 GCP 台灣區都可以": clouds only
        ex.fields["deployment"] = "either"
    elif cloud:
        ex.fields["deployment"] = "cloud"
    elif onprem:
        ex.fields["deployment"] = "on-prem"  # a rack's power alone says nothing of where it runs
    for m in w.finditer(_PUE):
        v = number_value(_numtext(m) or "")
        if v is not None and 1.0 <= v <= 3.0:
            ex.fields["pue"] = v
        w.consume(m.start(), m.end())


# --------------------------------------------------------------------------------------------
# Durations

_EN_WORD_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "a couple of": 2, "couple of": 2, "a pair of": 2, "a few": 3, "several": 3, "sixteen": 16, "hundred": 100,
}
_EN_WORD = r"(?P<word>a couple of|couple of|a pair of|a few|several|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|sixteen|twenty|thirty|forty|fifty|sixty|hundred)"
_DUR_UNITS = {
    "day": 1, "days": 1, "d": 1, "天": 1, "日": 1,
    "week": 7, "weeks": 7, "wk": 7, "wks": 7, "周": 7, "週": 7, "星期": 7, "个星期": 7, "個星期": 7,
    "礼拜": 7, "禮拜": 7, "个礼拜": 7, "個禮拜": 7,
    "month": 30, "months": 30, "mo": 30, "mos": 30, "个月": 30, "個月": 30, "月": 30,
    "hour": 1 / 24, "hours": 1 / 24, "h": 1 / 24, "hr": 1 / 24, "hrs": 1 / 24, "小时": 1 / 24, "小時": 1 / 24,
    "个小时": 1 / 24, "個小時": 1 / 24, "钟头": 1 / 24, "鐘頭": 1 / 24,
    "year": 365, "years": 365, "yr": 365, "yrs": 365, "年": 365,
    # working days: five to a calendar week ("10 working days" is two weeks)
    "working day": 1.4, "working days": 1.4, "business day": 1.4, "business days": 1.4, "工作天": 1.4, "个工作天": 1.4,
    "個工作天": 1.4, "工作日": 1.4, "个工作日": 1.4, "個工作日": 1.4,
}
_DUR_UNIT_RE = (
    r"(?P<unit>(?:working|business)\s+days?|(?:个|個)?工作(?:天|日)|days?|d(?![a-z0-9])|天|weeks?|wks?|个星期|個星期|星期|个礼拜|個禮拜|礼拜|禮拜|周|週|"
    r"months?|mos?(?![a-z])|个月|個月|hours?|hrs?|h(?![a-z0-9])|个小时|個小時|小时|小時|钟头|鐘頭|years?|yrs?|年)"
)
_DURATION = _c(rf"(?:{NUM}|\b{_EN_WORD}\b)\s*(?:and\s+a\s+half\s+)?{_DUR_UNIT_RE}(?P<half>半)?")
_HALF_SPECIAL = [
    (_c(r"半年"), 182.0), (_c(r"半个月|半個月"), 15.0), (_c(r"一个半月|一個半月"), 45.0),
    (_c(r"half\s+a\s+year"), 182.0), (_c(r"half\s+a\s+month"), 15.0), (_c(r"a\s+month\s+and\s+a\s+half"), 45.0),
    (_c(r"\bovernight\b(?![^.;!?]{0,30}?\d+(?:\.\d+)?\s*(?:hours?|hrs?|h\b))"), 0.5),  # not "overnight, 10 hours max"
    (_c(r"\bfortnight\b"), 14.0), (_c(r"一周半|一週半"), 10.5),
    (_c(r"(?:by|before|until|till)\s+(?:the\s+)?(?:end\s+of\s+)?next\s+week|下周|下週|下星期|下个星期|下個星期|下礼拜|下禮拜"), 7.0),
    (_c(r"(?:by|before|until|till)\s+(?:the\s+)?(?:end\s+of\s+)?next\s+month|下个月|下個月"), 30.0),
    (_c(r"(?:by|before|until|till)\s+(?:the\s+)?end\s+of\s+(?:the|this)\s+week|this\s+week|本周|本週|这周|這週"), 5.0),
]
_DEADLINE_CUE = _c(r"within|deadline|\bin\b|\bby\b|\bdone\b|finish|内|內|之内|之內|以内|以內|完成|搞定|截止|期限|交付")
_NO_BUDGET = _c(
    r"no\s+(?:fixed\s+)?budget|(?:don't|do\s+not)\s+have\s+a\s+budget|unlimited\s+budget|budget\s+(?:is\s+)?(?:not\s+an?\s+|no\s+)(?:issue|concern|limit)|"
    r"不限预算|预算不限|不限預算|預算不限|没有预算|沒有預算|预算没有上限|預算沒有上限|预算无上限|預算無上限|不设预算|不設預算"
)
_NO_DEADLINE = _c(r"no\s+(?:hard\s+)?deadline|no\s+time\s+limit|no\s+rush|没有期限|沒有期限|不赶|不趕|时间不限|時間不限|不限时|不限時|没有截止|沒有截止")


_MEDIA = _c(r"\s*(?:的|of)?\s*(?:[a-z-]+\s+){0,2}[\u4e00-\u9fff]{0,4}?(?:录音|錄音|音频|音訊|语音|語音|影片|视频|視頻|audio|speech|video|recordings?|footage)")
_PER_DAY_REQUESTS = _c(
    rf"(?:每天|每日|一天|日均|每天平均|per\s+day|a\s+day|daily)\s*(?:大约|大概|大約|约|約|about|~)?\s*{_num('num1')}\s*(?:个|個|次)?\s*"
    r"(?:请求|請求|查询|查詢|调用|調用|requests?|queries|calls)"
    rf"|{_num('num2')}\s*(?:个|個|次)?\s*(?:请求|請求|requests?|queries|calls)\s*(?:每天|每日|一天|per\s+day|a\s+day|/\s*day)"
)
_PEAK_FACTOR = _c(rf"(?:高峰|峰值|尖峰|peak)[^0-9，,。.]{{0,12}}?{NUM}\s*(?:倍|x\b|×|times)")
_PEAK_HOURS = _c(rf"(?:集中在|都在|within|over|during|in)\s*(?:上班|工作|business|working|office)?\s*{NUM}\s*(?:个|個)?\s*(?:小时|小時|hours?|h)\b")


def _daily_requests(w: _Work, ex: Extraction) -> None:
    """'每天大约 5 万次请求，集中在上班 8 小时' -> 1.74 requests/s: the day's requests over the hours they come in."""
    m = _PER_DAY_REQUESTS.search(w.text)
    if not m:
        return
    n = number_value(_numtext(m) or "")
    if not n or n <= 0:
        return
    w.consume(m.start(), m.end())
    hours = 24.0
    peak = _PEAK_HOURS.search(w.text)
    if peak:
        h = number_value(_numtext(peak) or "")
        if h and 0 < h <= 24:
            hours = h
        w.consume(peak.start(), peak.end())
    factor = _PEAK_FACTOR.search(w.text)  # "高峰大概是平均的 3 倍", "peak is 3x the average"
    k = number_value(_numtext(factor) or "") if factor else None
    if factor:
        w.consume(factor.start(), factor.end())
    ex.fields["requests_per_second"] = round(n / (hours * 3600.0) * (k if k and 1 < k <= 100 else 1), 2)


def parse_duration_days(text: str) -> float | None:
    """A duration in days: '两周内' -> 14, 'within two weeks' -> 14, '半年' -> 182, '3 个月' -> 90."""
    ex = Extraction()
    _duration(_Work(text), ex)
    return ex.fields.get("deadline_days")


_COST_QUESTION = _c(r"\s*(?:的)?\s*(?:要|得|会|會|大概|大约|大約|需要)*\s*(?:花|用)?\s*(?:多少|几|幾)\s*(?:钱|錢|块|塊)?|\s*(?:的)?\s*(?:费用|費用|成本|租金|电费|電費)|"
                    r"\s*(?:would|will|of\s+(?:rent|renting)\s+)?\s*cost|\s+(?:of\s+)?(?:rent|renting)\s+(?:cost|costs|would\s+cost)")
_PRICE_AFTER = _c(r"\s*(?:大概|大约|大約|约|約|要|差不多|才|只要|~|about|around)?\s*(?:us\s?\$|nt\s?\$|\$|¥)?\s*"
                  r"[\d.一二两兩三四五六七八九十百千]+\s*多?\s*(?:块|塊|元|台币|台幣|美元|美金|刀|bucks|dollars|usd|\$)")


_MONEY_BEFORE = _c(r"(?:\d[\d,.]*\s*(?:k|m|grand)?|dollars?|bucks|usd|eur|euros?|pounds?|元|块|塊|美元|美金|台币|台幣)\s*$")


def _duration(w: _Work, ex: Extraction) -> None:
    for pattern, days in _HALF_SPECIAL:
        m = pattern.search(w.text)
        if m:
            ex.fields["deadline_days"] = days
            w.consume(m.start(), m.end())
            return
    best: tuple[int, float, int, int] | None = None
    for m in w.finditer(_DURATION):
        unit = m.group("unit").lower()
        said = _numtext(m)
        if unit == "月" and not (said and not said[0].isdigit()):
            continue  # "3月" is March; "三月" too — only "个月/個月" mean a span
        if unit in ("月",):
            continue
        if _numtext(m):
            value = number_value(_numtext(m) or "")
        else:
            value = float(_EN_WORD_NUMBERS.get(m.group("word").lower(), 0)) or None
        if value is None:
            continue
        if unit in ("年", "year", "years", "yr", "yrs") and value >= 1900:
            continue  # a calendar year
        if re.match(r"\s*(?:前(?!完成|要|交)|ago\b|old\b)", w.text[m.end(): m.end() + 6]):
            continue  # "三年前买的" / "two years ago": when, not how long
        if re.search(r"(?:每|every|each)\s*$", w.text[max(0, m.start() - 6): m.start()]):
            continue  # "每兩週微調一次", "every 2 weeks": how often, not by when
        if _MEDIA.match(w.text[m.end(): m.end() + 32]):
            continue  # "800 小時的台語錄音", "500 hours of audio": data, not a deadline
        if _COST_QUESTION.match(w.text[m.end(): m.end() + 12]):
            continue  # "一個月要花多少", "what would a month cost": a span priced, not a deadline
        if _PRICE_AFTER.match(w.text[m.end(): m.end() + 16]):
            continue  # "4090 一小时两块多", "H100 一小時大概一百多台幣": a price per hour, not a deadline
        if re.match(r"(?:an?|per|each|every)\b|/", m.group(0)) and _MONEY_BEFORE.search(w.orig[max(0, m.start() - 24): m.start()]):
            continue  # "2000 dollars a month", "$3k per month": a rate, not a deadline
        if re.match(r"\s*(?:計|计|算|來算|来算)", w.text[m.end(): m.end() + 4]) and re.search(
                r"(?:以|按|用|照)\s*$", w.text[max(0, m.start() - 3): m.start()]):
            continue  # "以 3 年計": the span costs are reckoned over (a horizon), not a deadline
        if _IF_OVER_BEFORE.search(w.text[max(0, m.start() - 40): m.start()]):
            continue  # "如果超過兩週就考慮租", "if it takes longer than a week": a condition, not a deadline
        if _PAST_SPAN_BEFORE.search(w.text[max(0, m.start() - 60): m.start()]):
            continue  # "it ran for 3 days and barely made a dent", "之前跑了3天": how long it took, not a deadline
        if re.match(r"(?:an?|per|each|every)\b|/", m.group(0)) and _COUNT_PER_SPAN.search(
                w.orig.lower()[max(0, m.start() - 24): m.start()]):
            continue  # "we summarize ~2M docs a day", "500 requests per hour": a rate, not a deadline
        if _HOW_OFTEN_IN_SPAN.match(w.orig.lower(), m.end()):
            continue  # "一个月大概跑十来次", "一天大概 2 亿 token": how often or how much, not a deadline
        if _SUPPORT_TERM.match(w.orig.lower(), m.end()):
            continue  # "含三年維護", "3-year warranty": a support term, not a deadline or a horizon
        if _RENT_SPAN_BEFORE.search(w.text[max(0, m.start() - 64): m.start()]):
            continue  # "or should i just rent an a100 for a day": how long a rental lasts, not a deadline
        days = value * _DUR_UNITS.get(unit, _DUR_UNITS.get(unit.rstrip("s"), 1))
        if m.group("half") or "and a half" in m.group(0):
            days += 0.5 * _DUR_UNITS.get(unit, 1)
        cue = 1 if _DEADLINE_CUE.search(w.text[max(0, m.start() - 12): m.end() + 6]) else 0
        if best is None or cue > best[0]:
            best = (cue, days, m.start(), m.end())
    if best is None:
        return
    cue, days, start, end = best
    w.consume(start, end)
    if not cue and days >= 365 and "horizon_days" not in ex.fields and math.isfinite(days) and days <= 36500:
        ex.fields["horizon_days"] = float(round(days))  # "NT$350萬，三年，地端": years with no deadline word are use
        return
    if not math.isfinite(days) or round(days, 3) <= 0:  # ".01 h" rounds to no time at all
        ex.problem("conv.problem.deadline_positive")
    elif days > 36500:
        ex.problem("conv.problem.deadline_huge")
    else:
        ex.fields["deadline_days"] = round(days, 3)


# --------------------------------------------------------------------------------------------
# Usage: how long and how much the hardware will work (buy vs rent), and how many runs are planned

_YEAR_UNIT = r"(?P<unit>years?|yrs?|months?|年|个月|個月)"
_HORIZON = [
    # "for the next two years", "over 3 years", "for at least 3 years", "a 3-year horizon"
    _c(rf"(?:for|over|during|across)\s+(?:the\s+next\s+|at\s+least\s+|about\s+|around\s+|~\s*)?"
       rf"(?:{NUM}|\b{_EN_WORD}\b)\s*{_YEAR_UNIT}|"
       r"(?:for|over|during)\s+the\s+(?:next|coming)\s+(?P<unit4>year)\b"),  # one of them
    _c(rf"(?:{NUM}|\b{_EN_WORD}\b)[\s-]*(?P<unit>years?|yrs?|months?)[\s-]+(?:horizon|lifetime|plan|of\s+use|use|service|pilot|trial|project|poc|"
       r"program(?:me)?|degree|phd|masters?)"),
    # 用三年, 先做一年, 跑 3 年, 至少用 2 年, 打算用五年
    _c(rf"(?:用|先做|先跑|做|跑|运行|運行|使用|规划|規劃|打算用|计划用|計畫用|預計用|预计用|至少用|至少(?:要)?|要用)\s*(?:个|個)?\s*"
       rf"{NUM}\s*(?P<unit>年|个月|個月)(?!半)"
       r"(?!\s*(?:内|內|之内|之內|以内|以內)?\s*(?:就要|要)?\s*(?:完成|做完|训完|訓完|搞定|交付|跑完|结束|結束|出结果|出結果))"),
    # 預計用半年, 先用半年, 连续用一年半; "needs to last us 4 years"
    _c(r"(?:用|先做|先跑|跑|使用|打算用|计划用|計畫用|預計用|预计用|至少用|要用|預計做|预计做|打算做|计划做|計畫做|持續|持续)\s*"
       r"(?P<half>半|一年半|1\.5\s*年)\s*(?P<unit>年)?"
       r"(?!\s*(?:内|內)?\s*(?:完成|做完|跑完))|"
       rf"\blast\s+(?:us|me|them|(?:my|our|the|his|her|their)\s+(?:whole\s+|entire\s+)?)?\s*(?:at\s+least\s+)?(?:{_num('n2')}|\b(?P<w2>two|three|four|five|six|seven|eight|ten)\b)\s*(?P<unit2>years?|yrs?)"),
    # "service life is five (5) years", "使用年限 5 年", "设备寿命三年"
    _c(rf"(?:service\s+life|useful\s+life|life\s*span|lifespan|lifetime)\s+(?:is|of|will\s+be|=|:)?\s*(?:expected\s+to\s+be\s+)?"
       rf"(?:about\s+|around\s+|~\s*)?(?:{_num('n2')}|\b(?P<w2>one|two|three|four|five|six|seven|eight|ten)\b)\s*(?:\(\s*\d+\s*\)\s*)?"
       rf"(?P<unit2>years?|yrs?)|(?:使用年限|使用寿命|使用壽命|寿命|壽命)\s*(?:为|為|是|约|約)?\s*{NUM}\s*(?P<unit>年)"),
    # 三年内都会用, 3 年都要用, 未来两年
    _c(rf"(?:未来|未來|接下来|接下來)?\s*{NUM}\s*(?P<unit>年|个月|個月)\s*(?:内|內|之内|之內)?\s*"
       r"(?:都会|都會|都要|持续|持續|一直|会|會)+\s*(?:用|使用|跑|运行|運行)"),
    _c(rf"(?:未来|未來|接下来|接下來)\s*{NUM}\s*(?P<unit>年|个月|個月)"),
    # a term: 签一年, 合約兩年, a 1-year contract, commit for 12 months
    _c(rf"(?:签|簽|签约|簽約|合约|合約)\s*{NUM}\s*(?P<unit>年|个月|個月)|"
       rf"(?:{_num('n2')}|\b(?P<w2>an?|one|two|three|four|five)\b)[\s-]*(?P<unit2>years?|months?)[\s-]+(?:contract|commitment|commit|term|lease)|"
       rf"commit(?:ted)?\s+(?:for\s+)?(?:{_num('n3')})\s*(?P<unit3>years?|months?)"),
    # written off over years: 分三年攤提, 3 year depreciation, amortized over 4 years, keep it 5 yrs; 以 3 年計
    _c(rf"(?:分)?\s*{NUM}\s*(?P<unit>年)\s*(?:攤提|摊提|攤銷|摊销|折旧|折舊|攤|摊)|"
       rf"(?:以|按|照)\s*{_num('num4')}\s*(?P<unit5>年|个月|個月)\s*(?:計|计|算|來算|来算)|"
       rf"{_num('num5')}\s*(?P<unit6>年)\s*(?:的)?\s*(?:周期|週期|期间|期間|总成本|總成本|tco)|"
       rf"(?:{_num('n2')}|\b(?P<w2>one|two|three|four|five|six|seven|eight|ten)\b)[\s-]*(?P<unit2>years?|yrs?)[\s-]+(?:depreciation|amorti[sz]ation|write[\s-]?off)|"
       rf"(?:keep|use|run)\s+(?:it|them|the\s+\w+)\s+(?:for\s+)?(?:{_num('n3')}|\b(?P<w3>one|two|three|four|five|six|seven|eight|ten)\b)\s*(?P<unit3>years?|yrs?)"),
    # a rental period: 先租三个月, rent for the pilot (2 months)
    _c(rf"租\s*{NUM}\s*(?P<unit>个月|個月|年)|租\s*(?P<half>半|一年半)\s*年?|"
       rf"rent(?:ing)?\s+(?:it\s+)?for\s+(?:the\s+)?(?:pilot|poc|trial|first)?\s*\(?\s*(?:{_num('n3')}|\b(?P<w3>one|two|three|four|six)\b)\s*(?P<unit3>months?|years?)|"
       r"rent(?:ing)?\s+(?:\S+\s+){0,3}?for\s+(?:a|one|the)\s+(?P<weekend>weekend)\b"),
]
_SUPPORT_TERM = _c(r"\s*(?:的)?\s*(?:維護|维护|保固|保修|質保|质保|原厂服务|原廠服務|warranty|support|maintenance|service\s+contract)")
_LONG_TERM = _c(r"\blong[\s-]?term\b|for\s+years\b|长期|長期|长久|長久")
_AROUND_CLOCK = _c(r"24\s*/\s*7|7\s*[x×*]\s*24|24\s*[x×*]\s*7|around\s+the\s+clock|round[\s-]the[\s-]clock|"
                   r"24\s*(?:hours?|h)\s*(?:a|per)\s*day|全天候|全天|不间断|不間斷|24\s*小[时時]|"
                   r"全年无休|全年無休|全年不停|不(?:关|關)(?:机|機)|不停(?:机|機)|always[\s-]on")
_BACK_TO_BACK = _c(r"(?<!\btwo\s)(?<!\bthree\s)(?<!\d\s)\bback[\s-]to[\s-]back\b|\bnon[\s-]?stop\b|一个接一个|一個接一個|"
                   r"连续不断|連續不斷")
"""Runs one after another — around the clock only over a horizon the message gives ("back to back for the next 3
years"), not "two back-to-back LoRA runs" or a card that "一直在跑" today."""
_BUSINESS_HOURS = _c(r"business\s+hours|office\s+hours|working\s+hours|work\s+hours|上班时间|上班時間|工作时间|工作時間|"
                     r"办公时间|辦公時間|上班的时候|上班的時候")
_HOURS_PER = [
    # "10 GPU-hours a week", "8 hours per day", "10h/day"
    _c(rf"{NUM}\s*(?:gpu[\s-]?)?(?:hours?|hrs?|h)\s*(?:a|an|per|each|every|/)\s*(?P<per>day|week|month|d|wk|mo)\b"),
    # 每天 10 小时, 每週大約 10 個小時, 一天 8 小时
    _c(rf"(?:每|一)\s*(?P<per>天|日|周|週|星期|礼拜|禮拜|个月|個月|月)\s*(?:白天|晚上|上班|工作)?\s*(?:大约|大概|大約|约|約|差不多|跑|用|开|開){{0,2}}\s*"
       rf"{NUM}\s*(?:个|個)?\s*(?:小时|小時|钟头|鐘頭|h)"),
]
_WEEKDAYS = _c(r"weekdays?|workdays?|working\s+days?|monday\s+to\s+friday|工作日|上班日|周一到周五|週一到週五")
_PER_HOURS = {"day": 24, "d": 24, "天": 24, "日": 24, "week": 168, "wk": 168, "周": 168, "週": 168, "星期": 168,
              "礼拜": 168, "禮拜": 168, "month": 730, "mo": 730, "个月": 730, "個月": 730, "月": 730}
_ONE_OFF = _c(r"\bone[\s-]?(?:off|time)\b|\bonce\b(?!\s+(?:a|an|per|every|each)\b)|just\s+(?:this|one)\s+(?:run|job|time)|a\s+single\s+run|"
              r"一次性|只(?:跑|用|做|训练|訓練)?(?:这|這)?一次|就(?:跑|用|做)?(?:这|這)?一次|跑一次就|一次就好|(?:这|這)一次就好|单次|單次")
_RUNS = _c(rf"(?:{NUM}|\b{_EN_WORD}\b)\s*(?:training\s+)?(?:runs|times)\b|"
           rf"(?:跑|训练|訓練|做|微调|微調)\s*{_num('num2')}\s*次")
_RECURRING = _c(r"(?:每|每一)\s*(?P<n>两|兩|二|三|四|[2-6])?\s*(?:个|個)?\s*(?P<unit>月|周|週|星期|季度|季)|"
                r"\bevery\s+(?:(?P<n2>two|three|four|[2-6])\s+)?(?P<unit2>month|week|quarter)s?\b|"
                r"\b(?P<unit3>monthly|weekly|quarterly|biweekly|fortnightly)\b|\bonce\s+a\s+(?P<unit4>month|week|quarter)\b")
_PERIOD_DAYS = {"biweekly": 14.0, "fortnightly": 14.0, "月": 30.4, "month": 30.4, "周": 7.0, "週": 7.0, "星期": 7.0,
                "week": 7.0, "季": 91.3, "quarter": 91.3}
"""A job repeated every month, week or quarter: its period in days (the first unit found in the match's text)."""
_EVERY_N = {"两": 2, "兩": 2, "二": 2, "三": 3, "四": 4, "two": 2, "three": 3, "four": 4, **{str(n): n for n in range(2, 7)}}
_SHARE_OF_TIME = _c(r"(?P<tenth>[一二两兩三四五六七八九])\s*成\s*(?:的)?\s*(?:時間|时间)|"
                    r"(?P<pct>\d{1,3}(?:\.\d+)?)\s*%\s*(?:的\s*)?(?:時間|时间|of\s+the\s+(?:time|year|hours|week|day|clock)\b)"
                    r"(?:\s+(?:in|of)\s+(?:a|the|each)\s+(?:week|day|month|year)\b)?")
_JOBS_PER_PERIOD = _c(rf"{NUM}\s+(?:[\w-]+\s+){{0,3}}?(?:jobs|runs|fine[\s-]?tunes|trainings|experiments|adapters)\s+"
                      r"(?:a|per|each|every)\s+(?P<unit>week|month|day)\b")
""""about 20 bf16 LoRA jobs a week": a rate of runs, not a one-week deadline."""
_CN_TENTHS = {"一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
BUSINESS_HOURS_UTILIZATION = 50 / 168
"""Business hours: ten hours on five days, 50 of the week's 168 hours."""


def _usage(w: _Work, ex: Extraction, training: bool = False) -> None:
    """How long the hardware will be used (`horizon_days`), how much of that time (`utilization`), and how
    many runs are planned (`runs`; 1 for a one-off job). Runs before `_duration`, which would read "for two
    years" as a deadline."""
    for pattern in _HORIZON:
        m = pattern.search(w.text)
        if not m:
            continue
        g = m.groupdict()
        rental = "租" in m.group(0) or "rent" in m.group(0)
        if g.get("weekend") or (rental and _HYPOTHETICAL.search(w.text[m.end(): m.end() + 8])):
            w.consume(m.start(), m.end())  # "H800 租一个月够不够？", "rent something for a weekend or upgrade?":
            break  # an option's rental period, asked about: neither a horizon nor a deadline
        basis = g.get("unit5") or g.get("unit6")  # "以三年來算會比較省嗎？": the period costs are compared over
        if (_HYPOTHETICAL.search(w.text[m.end(): m.end() + 8]) and not basis) \
                or _SUPPORT_TERM.match(w.orig.lower(), m.end()):
            continue  # (and "含三年維護", "3-year warranty": a support term, not how long the hardware is used)
        said = _numtext(m) or g.get("n2") or g.get("n3")
        word = g.get("word") or g.get("w2") or g.get("w3") or ""
        half = g.get("half")
        value = (0.5 if half == "半" else 1.5) if half else (
            number_value(said) if said else float(_EN_WORD_NUMBERS.get(word.lower(), 0) or 0))
        if g.get("unit4"):
            value = 1.0  # "for the next year"
        unit = (g.get("unit") or g.get("unit2") or g.get("unit3") or g.get("unit4") or basis
                or ("年" if half else "")).lower()
        if value and value > 0:
            days = value * (30 if unit.startswith("month") or unit in ("个月", "個月") else 365)
            if days <= 36_500:
                ex.fields["horizon_days"] = float(round(days))
        w.consume(m.start(), m.end())
        break
    else:
        m = _LONG_TERM.search(w.text)
        if m:
            ex.fields["horizon_days"] = float(planner.OWNERSHIP_HORIZON_DAYS)
            w.consume(m.start(), m.end())
    m = _AROUND_CLOCK.search(w.text) or (_BACK_TO_BACK.search(w.text) if "horizon_days" in ex.fields else None)
    if m:
        ex.fields["utilization"] = 1.0
        w.consume(m.start(), m.end())
    else:
        for pattern in _HOURS_PER:
            m = pattern.search(w.text)
            if not m:
                continue
            hours = number_value(_numtext(m) or "")
            period = _PER_HOURS.get(m.group("per").lower(), 168)
            if hours and 0 < hours <= period:
                share = hours / period
                if period == 24 and _WEEKDAYS.search(w.text):
                    share *= 5 / 7
                ex.fields["utilization"] = round(share, 4)
            w.consume(m.start(), m.end())
            break
        else:
            m = _BUSINESS_HOURS.search(w.text)
            if m:
                ex.fields["utilization"] = round(BUSINESS_HOURS_UTILIZATION, 4)
                w.consume(m.start(), m.end())
            elif (m := _SHARE_OF_TIME.search(w.text)) is not None:  # "一年大概只有四成時間在跑", "busy 40% of the time"
                share = _CN_TENTHS.get(m.group("tenth") or "", 0) / 10 if m.group("tenth") else float(m.group("pct")) / 100
                if 0 < share <= 1:
                    ex.fields["utilization"] = round(share, 4)
                w.consume(max(0, m.start() - 12), m.end())  # and the span before it ("一年"): a period, no deadline
    m = _ONE_OFF.search(w.text)
    if m:
        ex.fields["runs"] = 1
        w.consume(m.start(), m.end())
        return
    rate = _JOBS_PER_PERIOD.search(w.text)
    if rate and training:
        n = number_value(_numtext(rate) or "")
        w.consume(rate.start(), rate.end())
        rate_days = {"week": 7.0, "month": 30.4, "day": 1.0}[rate.group("unit")]
        if n and ex.fields.get("horizon_days") and 1 <= (runs := round(n * ex.fields["horizon_days"] / rate_days)) <= 100_000:
            ex.fields["runs"] = runs  # 20 jobs a week over two years: 2,086 runs
            return
    every = _RECURRING.search(w.text)
    if every and training:
        w.consume(every.start(), every.end())  # "retrain once a month": how often, never a one-month deadline
    if every and training and ex.fields.get("horizon_days"):
        # "每個月…做一次 LoRA 微調，未來兩年都會這樣做": a run a month over two years is 24 runs, not a one-off
        every_days = next(days for unit, days in _PERIOD_DAYS.items() if unit in every.group(0).lower())
        every_days *= _EVERY_N.get((every.group("n") or every.group("n2") or "").lower(), 1)  # "每兩週", "every 2 weeks"
        times = _RUNS.search(w.text)
        per_period = (number_value(times.group("num") or times.group("num2") or "1") if times else None) or 1.0
        runs = round(per_period * ex.fields["horizon_days"] / every_days)
        if 1 <= runs <= 10_000:
            ex.fields["runs"] = runs
            return
    m = _RUNS.search(w.text)
    if m and not re.search(r"每|every|\bper\b|\ba\s+(?:week|month|year)", w.text[max(0, m.start() - 8): m.end() + 8]):
        said = m.group("num") or m.group("num2")
        n = number_value(said) if said else float(_EN_WORD_NUMBERS.get((m.group("word") or "").lower(), 0) or 0)
        if n and float(n).is_integer() and 1 <= n <= 10_000:
            ex.fields["runs"] = int(n)
            w.consume(m.start(), m.end())


# --------------------------------------------------------------------------------------------
# Calendar deadlines: "这个月底前", "下週五", "before April 1", "明年第一季結束前", "過年前"

LUNAR_NEW_YEAR = {2026: date(2026, 2, 17), 2027: date(2027, 2, 6), 2028: date(2028, 1, 26), 2029: date(2029, 2, 13),
                  2030: date(2030, 2, 3)}
"""Chinese New Year's day (春节 / 農曆新年), from the published calendars."""

_MONTHS_EN = {m: i for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
     "december"), start=1)}
_MONTHS_EN.update({m[:3]: i for m, i in list(_MONTHS_EN.items())})
_MONTHS_EN["sept"] = 9
_WEEKDAY_EN = {d[:3]: i for i, d in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                                                "sunday"))}
"""Weekdays by their first three letters: "friday", "fri"."""
_WEEKDAY_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_EN_MONTH_RE = "|".join(sorted(_MONTHS_EN, key=len, reverse=True))
_ZH_MONTH = r"(?P<month>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])\s*月"
_ZH_DAY = r"(?P<day>3[01]|[12]\d|0?[1-9]|三十一?|二十[一二三四五六七八九]?|十[一二三四五六七八九]?|[一二三四五六七八九])\s*(?:号|號|日)"

_CAL_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("lunar", _c(r"春节|春節|过年|過年|农历年|農曆年|农历新年|農曆新年|chinese\s+new\s+year|lunar\s+new\s+year|(?<![今明去\d一二两兩三四五六七八九十几幾多])年前(?!\d)")),
    ("christmas", _c(r"(?P<eve>christmas\s+eve|xmas\s+eve|圣诞夜|聖誕夜|平安夜)|christmas|xmas|圣诞|聖誕")),
    ("nye", _c(r"new\s+year'?s?\s+eve|\bnye\b|跨年")),
    ("new_year", _c(r"元旦|new\s+year'?s?\s+day|(?:\bby|\bbefore|\buntil|\btill|\bdue|\bdone)\s+(?:the\s+)?"
                    r"new\s+year'?s?'?(?!\s*(?:eve|day))\b")),
    ("quarter", _c(r"(?P<next>明年|next\s+year'?s?)?\s*(?:第\s*)?(?P<q>[一二三四1-4])\s*(?:季度?|季)\s*(?:末|底|结束|結束)?|"
                   r"(?:end\s+of\s+)?q(?P<q2>[1-4])(?:\s+(?P<next2>next\s+year))?|"
                   # "by end of quarter", "这季度末之前", "本季結束前": the quarter we are in
                   r"(?P<this>end\s+of\s+(?:the\s+|this\s+)?quarter|(?:这|這|本)\s*(?:个|個)?\s*(?:季度|季)\s*(?:末|底|结束|結束))")),
    ("year_end_of", _c(r"(?P<year>20\d\d)\s*年\s*(?:底|末|年底)|end\s+of\s+(?P<year2>20\d\d)")),
    ("ymd", _c(r"(?P<year>20\d\d)\s*[-/.年]\s*(?P<month>1[0-2]|0?[1-9])\s*[-/.月]\s*(?P<day>3[01]|[12]\d|0?[1-9])")),
    ("zh_md", _c(rf"(?P<next>明年|今年)?\s*{_ZH_MONTH}\s*{_ZH_DAY}")),
    ("zh_month_end", _c(rf"(?:(?P<year>20\d\d)\s*年\s*)?(?P<next>明年|今年)?\s*{_ZH_MONTH}\s*(?:底|末|尾|份结束|份結束)")),
    ("slash", _c(r"(?P<next>明年|next\s+year)?\s*(?<![\d./])(?P<a>3[01]|[12]\d|0?[1-9])\s*/\s*(?P<b>3[01]|[12]\d|0?[1-9])(?![\d/])")),
    # "12.20前训完": month.day as mainland and Taiwan users type it, only right before a deadline word (12.20 is a number too)
    ("dot", _c(r"(?<![\d.$¥A-Za-z])(?P<a>1[0-2]|0?[1-9])\.(?P<b>3[01]|[12]\d|0?[1-9])(?![\d.%])"
               r"(?=\s*(?:号|號|日)?\s*(?:前(?!的)|之前|以前|截止|交付|上线|上線))")),
    ("en_md", _c(rf"\b(?P<mname>{_EN_MONTH_RE})\.?\s+(?P<day>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?\b")),
    ("en_dm", _c(rf"\b(?P<day>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mname>{_EN_MONTH_RE})\b")),
    ("en_month_end", _c(rf"end\s+of\s+(?P<mname>{_EN_MONTH_RE})\b")),
    # "before the board meeting on the 18th": a day of this month (or the next, once it has passed)
    ("en_day_only", _c(r"\b(?:by|before|until|till|due)\s+(?:[a-z]+\s+){0,5}?the\s+"
                       r"(?P<day>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)\b"
                       r"(?=\s*(?:[,.;:!?)]|$|\s+(?:and|so|to|we|i|or|but|for|at|if|because|deadline|latest)\b))")),
    ("next_month_day", _c(rf"(?:下个?月|下個?月)\s*(?:{_ZH_DAY}|(?P<mid>中旬|中)|(?P<early>初|上旬)|(?P<late>下旬))|"
                          r"(?P<mid2>mid[\s-]+next\s+month|middle\s+of\s+next\s+month)|(?P<early2>early\s+next\s+month)")),
    ("next_month_end", _c(r"下个?月底|下個?月底|下个?月末|下個?月末|end\s+of\s+next\s+month")),
    ("zh_month_part", _c(rf"(?P<next>明年|今年)?\s*{_ZH_MONTH}\s*(?:(?P<mid>中旬|中)|(?P<early>初|上旬)|(?P<late>下旬))")),
    ("en_month_part", _c(rf"\b(?:(?P<mid>mid|middle\s+of)|(?P<early>early|beginning\s+of|start\s+of)|(?P<late>late))[\s-]*"
                         rf"(?P<mname>{_EN_MONTH_RE})\b")),
    ("this_month_part", _c(r"(?<![下个個上])(?:本月|这个?月|這個?月)?月中(?:旬)?|\bmid[\s-]+(?:this\s+)?month\b|\bmiddle\s+of\s+(?:the|this)\s+month\b")),
    ("month_end", _c(r"这个?月底|這個?月底|本月底|月底|月末|end\s+of\s+(?:the\s+|this\s+)?month|month[\s-]end|\beom\b")),
    ("year_end", _c(r"年底|今年内|今年內|年末|end\s+of\s+(?:the|this)\s+year|year[\s-]end|by\s+the\s+end\s+of\s+the\s+year|\beoy\b")),
    ("zh_weekday", _c(r"(?<![到至\-~])(?P<which>下下|下|这|這|本)?\s*(?:个|個)?\s*(?:周|週|星期|礼拜|禮拜)(?P<wd>[一二三四五六日天])"
                      r"(?!\s*(?:到|至|-|~))")),
    ("en_weekday", _c(r"(?P<pre>next|this|by|before|until|on)?\s*(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
                      r"(?<=next\s)(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b|(?<=by\s)(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b|"
                      r"(?<=before\s)(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b|(?<=until\s)(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b)"
                      r"(?P<post>\s+next\s+week)?")),
    ("tomorrow", _c(r"\btomorrow\b|明天|明日")),
    ("day_after", _c(r"后天|後天|day\s+after\s+tomorrow")),
]
_SLASH_CUE = _c(r"前|之前|以前|before|\bby\b|\bdue\b|\bready\b|deadline|截止|完成|交付|交|until|till|demo|展示|演示|上线|上線|跑出[来來]|放寬|放宽|推到|改到|延到|\bon\b|日期|date")
_LATEST_BEFORE = _c(r"(?:最晚|最迟|最遲|\blatest\b|\bno\s+later\s+than)\s*$")
_START_CUE = _c(r"\s*(?:前|之前|以前|before|by)?\s*(?:机器|機器|服务器|伺服器|设备|設備|集群|叢集|it|the\s+(?:box|machine|server|cluster))?\s*"
                r"(?:就|要|得|能|可以|必须|必須|need\s+to|must|we|to|should|can)?\s*(?:开始|開始|开跑|開跑|上线跑|start|kick\s*off|begin|be\s+up)")
_START_BEFORE = _c(r"(?:start|begin|kick\s*off)(?:ing)?\s+(?:it\s+|training\s+|the\s+run\s+)?(?:before|by|on|from|after)?\s*$")
_ACCEPTANCE = _c(r"[^.;!?。；！？]{0,8}?(?:交付|完成)[^.;!?。；！？]{0,8}?(?:验收|驗收)")  # "前完成交付、安装及验收"
_EARLIER_THAN = _c(r"\b(?P<n>a|an|one|two|three|\d+)\s+(?P<u>weeks?|days?)\s+(?:before|ahead\s+of|earlier\s+than)\s+(?:that|then|it|this)\b|"
                   r"(?:之前|以前)?\s*(?:提前|早)\s*(?P<zn>[一二两兩三四五六七\d]+)\s*(?P<zu>周|週|个星期|個星期|天)")
"""A deadline set before the date just said: "a week before that", "提前一周"."""


def _span_days(m: re.Match[str]) -> float:
    """Days in an `_EARLIER_THAN` match: "a week" -> 7, "提前 3 天" -> 3."""
    raw = (m.group("n") or m.group("zn") or "1").lower()
    n = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3}.get(raw) or number_value(raw) or 1
    unit = m.group("u") or m.group("zu") or ""
    return float(n) * (7 if unit.startswith("week") or unit in ("周", "週", "个星期", "個星期") else 1)


_PEAK_SEASON = _c(r"\s*(?:的|节|節|day)*\s*(?:檔期|档期|旺季|促销|促銷|大促|购物季|購物季|高峰|尖峰|peak|season|rush|sales?\b|holiday\s+traffic)")
_DELIVERY = _c(r"到货|到貨|交货|交貨|安装|安裝|上架|\bdeliver(?:y|ed)\s+(?:and|&)\s+install|"
               r"\b(?:hardware|servers?|machines?|gpus?|cards?|boxes)\s+(?:arrive|arrives|arriving|delivered|ships|shipped)\b")
"""When the hardware arrives or is installed ("元旦后才能到货", "完成交付、安装及验收"): a procurement date."""
_PROCURE = _c(r"采购|採購|验收|驗收|核销|核銷|报账|報帳|花完|用完|报上去|報上去|下单|下單|签约|簽約|请购|請購|招标|招標|标案|標案|\bpurchas|\bprocure|\bplace\s+(?:the\s+|an\s+)?order|"
               r"\bpo\b|budget\s+(?:request|approval|proposal)|预算申请|預算申請|报预算|報預算|"
               r"(?:经费|經費|预算|預算|钱|錢|款)[^，。,.;；]{0,12}?(?:批下来|批下來|批准|核准|到位|下来|下來|拨|撥)|"
               r"\b(?:funding|grant|money|budget)\b[^.;,]{0,20}?\b(?:approved|comes?\s+through|lands?|arrives?)\b|"
               r"\b(?:be\s+)?spent\s+(?:by|before|until)|\bspend\s+(?:it|the\s+money)\s+(?:by|before)")
_RENT_SPAN_BEFORE = _c(r"\bor\s+(?:should\s+(?:i|we)\s+)?(?:just\s+)?rent(?:ing)?\s+(?:(?:an?|one|two|\d+|some)\s+)?(?:[\w.-]+\s+){0,3}"
                       r"for\s+(?:a|an|one|about|~)?\s*$")  # an alternative asked about, not the job's time limit
_REPORT = _c(r"\b(?:send|get|give)\s+(?:me|us)\s+(?:some\s+)?(?:options|a\s+quote|quotes|a\s+proposal|recommendations?)|跟主管報告|跟主管报告|向主管報告|向领导汇报|向領導匯報|跟老板汇报|跟老闆匯報|汇报|匯報|报告给|報告給|"
             r"(?:要|得)?(?:跟|向)\s*(?:主管|老板|老闆|领导|領導|boss)\s*(?:報告|报告|提|说|說)|\bpresent\s+(?:to|it)|"
             r"\breport\s+(?:to|back)|\bpitch\b|方案(?:要)?(?:報|报|交)")
_FINISHED = _c(r"跑完|训完|訓完|完成|做完|上线|上線|交付|结果|結果|成果|\bdone\b|\bfinish|\bready\b|\blive\b|\bresults?\b")
_JOB_DONE = _c(r"训|訓|跑完|上线|上線|交付|结果|結果|demo|\btrain|\bresults?\b|\blive\b|\bserv(?:e|es|ed|ing)\b")
_COUNT_PER_SPAN = _c(r"(?<!\bin)(?<!\bwithin)(?<!\bfor)\s(?:~\s*)?\d[\d,.]*\s*[kmb]?\+?\s+(?:[a-z]+\s+){0,2}?"
                     r"(?:docs?|documents|requests|queries|calls|images|photos|pages|records|messages|tickets|emails|"
                     r"items|reviews|articles|transcripts|chats|conversations|users|jobs|runs|videos|files)\s+$")
_IF_OVER_BEFORE = _c(r"(?:如果|要是|假如|若是?)\s*(?:会|會|要|跑)?\s*(?:超过|超過|超出|多于|多於)\s*$|"
                     r"\bif\s+(?:it|that|this)\s+(?:takes|runs)\s+(?:more|longer)\s+than\s+$|\bif\s+(?:it'?s\s+)?over\s+$")
_PAST_SPAN_BEFORE = _c(r"(?:\bran|\btook|\bspent|\blasted|\bhad\s+(?:it\s+)?(?:running|run)|\bbeen\s+(?:running|training)|"
                       r"(?<!can\s)(?<!could\s)(?<!will\s)(?<!'ll\s)(?<!to\s)\blet\s+(?:it|a|an|the|my|our)\b[^.;,!?]{0,50}?\brun|"
                       r"\bwas\s+running)\s+(?:for\s+)?"
                       r"(?:about\s+|around\s+|almost\s+|nearly\s+|over\s+|~\s*)?$|"
                       r"(?:跑了|训了|訓了|练了|練了|花了|用了|耗了)\s*(?:大概|大约|大約|差不多|将近|將近|快|整整|足足)?\s*$")
_HOW_OFTEN_IN_SPAN = _c(
    r"(?:\s*(?:大概|大约|大約|约|約|要|会|會|有|会有|會有|差不多|平均|都|maybe|about|around|~|we\s+do|i\s+do)){0,3}\s*"
    r"(?:跑|训|訓|做|开|開|处理|處理|生成|推理|推論)?\s*"
    r"(?:(?:[\d一二两兩三四五六七八九十几幾]+|a\s+few)\s*(?:来|來|多)?\s*(?:次|轮|輪|个实验|個實驗|runs?\b|times\b|jobs\b|experiments\b)"
    rf"|{NUM}\s*(?:个|個|次|条|條|笔|筆)?\s*(?:tokens?|请求|請求|requests?|queries|docs?|documents|文档|文檔|images?|张图|張圖))")
"""What follows a span when it is a rate, not a deadline: runs ("一个月大概跑十来次") or a volume ("一天大概 2 亿 token")."""
_BEFORE_THEN = _c(r"(?:在|于|於)?\s*(?:这|這|那)\s*(?:之前|以前|前)|\bbefore\s+(?:then|that)\b|\bby\s+then\b")
_HORIZON_UNTIL = _c(r"用到|使用到|跑到|use\s+(?:it\s+)?until|run\s+(?:it\s+)?until|until\s+(?:the\s+)?end\s+of")


def today() -> date:
    """Today, or the date in GPU_ADVISOR_TODAY (YYYY-MM-DD: reproducible tests and reports)."""
    fixed = os.environ.get("GPU_ADVISOR_TODAY", "")
    try:
        return date.fromisoformat(fixed) if fixed else date.today()
    except ValueError:
        return date.today()


def _month_end(year: int, month: int) -> date:
    return date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)


def _cn_small(text: str) -> int | None:
    value = number_value(text)
    return int(value) if value is not None and float(value).is_integer() else None


RECENT_PAST_DAYS = 60
"""A date without a year that passed less than this many days ago is the past (re-asked: "by Nov 15" said on
Dec 1 is a mistake, not next November); one further back is next year's ("before March" in December)."""


def _future(d: date, now: date, next_year: bool) -> date:
    """A date without a year: this year's if still ahead, else next year's; "明年" forces next year."""
    if next_year:
        return d.replace(year=now.year + 1)
    if d >= now or (now - d).days <= RECENT_PAST_DAYS:
        return d
    return d.replace(year=now.year + 1)


def _calendar_date(kind: str, m: re.Match[str], now: date) -> date | None:
    g = m.groupdict()
    nxt = bool(g.get("next") and g["next"].strip() in ("明年",) or (g.get("next") or "").lower().startswith("next"))
    try:
        if kind == "lunar":
            return next((d for y, d in sorted(LUNAR_NEW_YEAR.items()) if d > now), None)
        if kind == "christmas":  # Christmas Eve (平安夜, 聖誕夜) is the 24th
            return _future(date(now.year, 12, 24 if g.get("eve") else 25), now, False)
        if kind == "new_year":
            return date(now.year + 1, 1, 1)
        if kind == "nye":
            return _future(date(now.year, 12, 31), now, False)
        if kind == "quarter":
            q = (now.month - 1) // 3 + 1 if g.get("this") else int(_cn_small(g.get("q") or "") or int(g.get("q2") or 0))
            year = now.year + 1 if (nxt or g.get("next2")) else now.year
            end = _month_end(year, 3 * q)
            return end if end >= now else _month_end(year + 1, 3 * q)
        if kind == "year_end_of":
            return date(int(g.get("year") or g.get("year2") or now.year), 12, 31)
        if kind == "ymd":
            return date(int(g["year"]), int(g["month"]), int(g["day"]))
        if kind == "en_day_only":
            dom = int(g["day"])
            this = date(now.year, now.month, min(dom, _month_end(now.year, now.month).day))
            if this > now:
                return this
            nxt_end = _month_end(now.year + now.month // 12, now.month % 12 + 1)
            return nxt_end.replace(day=min(dom, nxt_end.day))
        if kind == "dot":
            return _future(date(now.year, int(g["a"]), int(g["b"])), now, nxt)
        if kind == "slash":  # month/day as in Taiwan, China and the US; day/month when the first cannot be a month
            a, b = int(g["a"]), int(g["b"])
            m_, d_ = (b, a) if a > 12 >= b else (a, b)
            return _future(date(now.year, m_, d_), now, nxt) if m_ <= 12 else None
        if kind in ("zh_md", "en_md", "en_dm"):
            month = _MONTHS_EN[g["mname"].lower().rstrip(".")] if g.get("mname") else _cn_small(g["month"])
            day = _cn_small(g["day"])
            if not month or not day:
                return None
            return _future(date(now.year, month, day), now, nxt)
        if kind in ("zh_month_end", "en_month_end"):
            month = _MONTHS_EN[g["mname"].lower()] if g.get("mname") else _cn_small(g["month"])
            if not month:
                return None
            if g.get("year"):  # "2025 年 12 月底": that month, even when it is past (re-asked)
                return _month_end(int(g["year"]), month)
            return _future(_month_end(now.year, month), now, nxt)
        if kind == "next_month_day":
            year, month = now.year + (now.month // 12), now.month % 12 + 1
            if g.get("day"):
                return date(year, month, _cn_small(g["day"]) or 1)
            return date(year, month, 5 if (g.get("early") or g.get("early2")) else 25 if g.get("late") else 15)
        if kind in ("zh_month_part", "en_month_part"):  # "1月中", "mid-January": the 15th (early 5th, late 25th)
            month = _MONTHS_EN[g["mname"].lower()] if g.get("mname") else _cn_small(g["month"])
            if not month:
                return None
            day = 5 if g.get("early") else 25 if g.get("late") else 15
            return _future(date(now.year, month, day), now, nxt)
        if kind == "this_month_part":  # "月中之前": the 15th of this month, or of the next once it is past
            mid = date(now.year, now.month, 15)
            return mid if mid > now else date(now.year + now.month // 12, now.month % 12 + 1, 15)
        if kind == "next_month_end":
            return _month_end(now.year + (now.month // 12), now.month % 12 + 1)
        if kind == "month_end":
            return _month_end(now.year, now.month)
        if kind == "year_end":
            return date(now.year, 12, 31)
        if kind == "zh_weekday":
            wd = _WEEKDAY_ZH[g["wd"]]
            weeks = {"下": 1, "下下": 2}.get(g.get("which") or "", 0)
            monday = now - timedelta(days=now.weekday())
            d = monday + timedelta(days=7 * weeks + wd)
            return d if d >= now else d + timedelta(days=7)
        if kind == "en_weekday":
            if not (g.get("pre") or g.get("post")):
                return None  # a bare "Friday" in passing is not a deadline
            wd = _WEEKDAY_EN[g["wd"].lower()[:3]]
            monday = now - timedelta(days=now.weekday())
            weeks = 1 if g.get("post") else 0
            d = monday + timedelta(days=7 * weeks + wd)
            if g.get("pre") and g["pre"].lower() == "next" and not g.get("post"):
                d += timedelta(days=7) if d - now < timedelta(days=7) and d.weekday() >= now.weekday() else timedelta(0)
            return d if d >= now else d + timedelta(days=7)
        if kind == "tomorrow":
            return now + timedelta(days=1)
        if kind == "day_after":
            return now + timedelta(days=2)
    except (ValueError, KeyError, TypeError):
        return None
    return None


def _calendar(w: _Work, ex: Extraction) -> None:
    """A deadline (or, after "用到 / use until", a horizon) written as a date: days from today."""
    now = today()
    for kind, pattern in _CAL_PATTERNS:
        for m in w.finditer(pattern):
            if kind == "slash" and not (_SLASH_CUE.search(w.text[max(0, m.start() - 14): m.end() + 8])
                                        or _LATEST_BEFORE.search(w.text[max(0, m.start() - 8): m.start()])):
                continue  # "1/3 的人", "3/4 of the GPUs": a fraction, not a date
            d = _calendar_date(kind, m, now)
            if d is None:
                continue
            days = (d - now).days
            until = _HORIZON_UNTIL.search(w.text[max(0, m.start() - 8): m.start() + 1]) and not _BEFORE_THEN.search(
                w.text[m.end(): m.end() + 24])  # "只能用到 2 月底，能不能在这之前跑完": the job must be done by then
            w.consume(m.start(), m.end())
            if _PEAK_SEASON.match(w.orig.lower(), m.end()):
                continue  # "年底檔期尖峰每秒 50 個請求": when the load peaks, not when a job is due
            if _START_CUE.match(w.text[m.end(): m.end() + 10]) or _START_BEFORE.search(w.text[max(0, m.start() - 24): m.start()]):
                continue  # "下週三前要開始跑": when it starts, not when it must be done
            clause = _clause_at(w.orig.lower(), m.start())
            delivery = _DELIVERY.search(clause) or _ACCEPTANCE.match(w.orig.lower(), m.end(), m.end() + 24)
            if delivery or (_PROCURE.search(clause) and not _JOB_DONE.search(clause)) or (
                    _REPORT.search(clause) and not _FINISHED.search(clause)):
                continue  # "采购方案月底前要报上去", "下週三要跟主管報告": when a purchase or a report is due
            earlier = _EARLIER_THAN.search(w.orig.lower(), m.end(), _clause_end(w.orig.lower(), m.end()) + 80)
            if earlier and not until:  # "due 2027-01-22 so the results need to be done a week before that"
                days -= int(_span_days(earlier))
            if days <= 0:
                ex.problem("conv.problem.deadline_past")
                return
            ex.fields["horizon_days" if until else "deadline_days"] = float(days)
            return


# --------------------------------------------------------------------------------------------
# Serving targets: time to the first token, decode speed per user

_TTFT = [
    _c(rf"(?:p\d+\s+)?(?:ttft|time\s+to\s+(?:the\s+)?first\s+token|(?:first|1st)[\s-]token(?:\s+latency)?)\s*(?:p\d+\s*)?"
       rf"(?:latency\s*)?(?:(?:has|needs|have|must|should)\s+(?:to\s+)?(?:stay|be|show\s+up|appear|arrive|come\s+back|land)\s+(?:in\s+)?)?"
       rf"(?:(?:<=|<|≤|under|below|within|of|at\s+most|max(?:imum)?|:|=|is|in)\s*){{0,2}}(?:about\s+|~\s*)?{NUM}\s*(?P<unit>ms|s|secs?|seconds?)\b"),
    _c(rf"(?:ttft|首字|首\s*token|首个\s*token|首個\s*token|第一个字|第一個字|第一个\s*token|第一個\s*token|首包)\s*"
       rf"(?:延迟|延遲|时间|時間|响应|響應|回應|回应)*\s*(?:p\d+\s*)?(?:要|需要|要求|希望|控制|能|最好|最多|得|壓|压|不超过|不超過|不要超过|不要超過)*\s*"
       rf"(?:在|要在)?\s*(?:<|<=|≤|小于|小於|低于|低於)?\s*{NUM}\s*(?P<unit>毫秒|ms|秒|s)"),
    # "first token under a second", "ttft within half a second": the second said in words
    _c(r"(?:ttft|time\s+to\s+(?:the\s+)?first\s+token|(?:first|1st)[\s-]token(?:\s+latency)?)\s*(?:latency\s*)?"
       r"(?:(?:has|needs|have|must|should)\s+(?:to\s+)?(?:stay|be|show\s+up|appear|arrive|come\s+back|land)\s+(?:in\s+)?)?"
       r"(?:under|below|within|in|at\s+most|<)\s*(?P<num>a|one|half\s+a)\s+(?P<unit>second)\b"),
]
_WORD_SECONDS = {"a": 1.0, "one": 1.0, "half a": 0.5}
_TPOT = _c(rf"(?:tpot|itl|time\s+per\s+output\s+token|inter[\s-]token\s+latency)\s*(?:<=|<|≤|under|below|of|:|=)?\s*{NUM}\s*(?:ms|毫秒)")
_USER_RATE = [
    _c(rf"(?:>=|≥|>|at\s+least|min(?:imum)?|~|about)?\s*{NUM}\s*\+?\s*(?:tok(?:en)?s?|字|词|詞)\s*/\s*(?:s|sec|second|秒)\b"),
    _c(rf"(?:每秒|每人每秒|每个人每秒|每個人每秒)\s*(?:至少|最少|要|大于|大於|>|能有|能|有)*\s*{NUM}\s*(?:个|個)?\s*(?:tokens?|字|词|詞)"),
    _c(rf"{NUM}\s*(?:tokens?|tok)\s*(?:per|a|/)\s*(?:second|sec|s)\b"),
]


def _slo(w: _Work, ex: Extraction) -> None:
    """What a service must feel like: the first token within so long, so many tokens/s for each user."""
    for pattern in _TTFT:
        m = _target_match(w.text, pattern)
        if m:
            raw = re.sub(r"\s+", " ", _numtext(m) or "")
            value = _WORD_SECONDS.get(raw) or number_value(raw)
            if value:
                seconds = value / 1000 if m.group("unit").lower() in ("ms", "毫秒") else value
                if 0 < seconds <= 3600:
                    ex.fields["max_ttft_s"] = round(seconds, 3)
            w.consume(m.start(), m.end())
            break
    m = _TPOT.search(w.text)
    if m:
        value = number_value(_numtext(m) or "")
        if value and value > 0:
            ex.fields["min_tokens_per_s_per_user"] = round(1000 / value, 2)
        w.consume(m.start(), m.end())
        return
    found = sorted((m for pattern in _USER_RATE for m in pattern.finditer(w.text)), key=lambda m: m.start())
    if found:
        m = next((m for m in found if _SLO_TARGET.search(w.text[max(0, m.start() - 24): m.end()])), found[0])
        value = number_value(_numtext(m) or "")
        if value and 0 < value <= 10_000:
            ex.fields["min_tokens_per_s_per_user"] = float(value)
        for f in found:
            w.consume(f.start(), f.end())


_SLO_TARGET = _c(r"目标|目標|希望|想要?|要求|压到|壓到|拉到|提高到|提升到|至少|最少|以内|以內|\bwant|\btarget|\bgoal|\bneed|"
                 r"\bat\s+least\b|\bshould\b|\bmust\b|\bunder\b|\bwithin\b|\bbelow\b|<|≤|>=|≥")
"""Near a speed or a latency: the one the service must reach ("目标是首字延迟2秒以内", "I want every user to see at least
40 tok/s"), not the one measured now ("首字延迟能到8秒", "it drops to ~18 tok/s")."""


def _target_match(text: str, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """The first match of `pattern` said as a target (`_SLO_TARGET`), else its first match."""
    found = list(pattern.finditer(text))
    return next((m for m in found if _SLO_TARGET.search(text[max(0, m.start() - 24): m.end()])),
                found[0] if found else None)


# --------------------------------------------------------------------------------------------
# Data: tokens, examples x length, images, epochs, sequence length

_TOKENS = _c(rf"{NUM}\s*(?:个|個)?\s*(?:tokens?|toks?\b|词元|詞元)")
_CONTEXT_WORD = _c(r"上下文|\bcontext\b|\bctx\b")
_TOKENS_AFTER = _c(rf"(?:tokens?|词元|詞元|token\s*数|token\s*數|数据量|資料量)\s*(?:[:=]|of|约|約|大约|大約|about|~|为|為|是|共|有)?\s*{NUM}(?!\s*(?:examples?|samples?|条|條|张|張|images?))")
_SAMPLES = _c(
    rf"(?<![a-z]-){NUM}\s*(?:(?:组|組|对|對)\s*(?=[a-z]))?(?:of\s+(?:my|our|the)\s+(?:own\s+)?)?(?:training\s+|(?:(?!(?:[kmgt]i?b|tokens?|epochs?|gpus?|cards?|of|concurrent|simultaneous|parallel|active|live|open)\b)[a-z][a-z/-]+\s+){{1,2}})?(?P<what>examples?|samples?|sampels?|smaples?|exmaples?|notes?|tickets?|emails?|transcripts?|articles?|reviews?|posts?|abstracts?|essays?|prompts?|summar(?:y|ies)|reports?|letters?|messages?|descriptions?|"
    r"stories|contracts?|questions?|threads?|tweets?|captions?|snippets?|comments?|conversations?|chats|dialogues?|instructions?|(?:qa\s+|q&a\s+)?pairs?|rows?|"
    r"records?|documents?|docs?|sentences?|convos?|(?:chat\s+)?logs|passages?|paragraphs?|chunks?|pages?|queries|(?:条|條|个|個|组|組|笔|筆|段)?\s*(?:样本|樣本|数据|資料|数据集样本|对话|對話|指令|问答|問答|语料|語料)|条|條|"
    r"(?:笔|筆)(?!\s*(?:经费|經費|钱|錢|预算|預算|资金|資金|款|补助|補助|订单|訂單))|对(?![比话照应齐])|對(?![比話照應齊])|"
    r"段(?=\s*(?:\d+\s*(?:秒|s|分钟|分鐘)\s*(?:的)?\s*)?(?:clips?|影片|视频|視頻|片段|音频|音頻|录音|錄音))|"
    r"篇|份\s*[\u4e00-\u9fff]{0,4}?(?:文件|文档|文檔|资料|資料|报告|報告|合同|合約|论文|論文|病历|病歷|公文|判决书|判決書))"
)
_RATE_BEFORE = _c(r"(?:每秒|每分钟|每分鐘|per\s+(?:second|minute))\s*(?:大概|大约|大約|约|約|有|要)?\s*$")
_AT_ONCE_BEFORE = _c(r"(?:同时|同時|并发|並發|concurrent(?:ly)?|simultaneous)\s*(?:大概|大约|大約|约|約|有|会有|會有|预计|預計)?\s*$")
_IMAGES = _c(
    rf"(?:图|圖)\s*(?:共|有|约|約|大约|大約|大概|差不多)?\s*{_num('num9')}\s*(?:张|張)|"
    rf"{_num('num7')}\s*(?:张|張)\s*[\u4e00-\u9fff]{{1,4}}?(?:图|圖|照片|图片|圖片|影像|图像|圖像)(?![卡])|"
    rf"(?:图文对|圖文對|图文|圖文)\s*(?:共|有|约|約|大约|大約|大概)?\s*{_num('num8')}\s*(?:张|張|对|對|组|組|条|條)|"
    rf"(?<![/a-z-]){NUM}\s*(?:of\s+(?:our|my|the|their)\s+)?(?:[a-z-]+\s+){{0,2}}(?:images?|imgs?\b|pictures?|pics\b|pix\b|photos?|张图片?|張圖片?|张图像|張圖像|张照片|張照片|幅图像?|幅圖像?|图片|圖片|图像|圖像)"
    rf"|(?:图片|圖片|图像|圖像|照片|影像|images?|imgs?|pictures?|photos?|资料|資料|数据|數據|数据集|資料集|素材|训练图|訓練圖)"
    rf"\s*(?:共|有|约|約|大约|大約|大概|差不多|只有|就|about|~|:)?\s*"
    rf"{_num('num2')}\s*(?:张|張|幅)(?!\s*(?:卡|显卡|顯示卡|gpu|4090|3090|a100|h100))"
)
_AVG_LEN = _c(
    rf"(?:avg\.?|average|averaging|on\s+average|each(?:\s+(?:about|around|of|with))?|of|at|x|×|\*|"
    rf"平均(?:每条|每條|长度|長度|约|約|一条|一條|一笔|一筆|一个|一個|一段)?|"
    rf"每条|每條|每个|每個|每段|每笔|每筆|每篇|每份|每则|每則|长度|長度|约|約|~)\s*(?:(?:about|around|~|约|約|为|為|是|maybe|probably|roughly|平均|大概|大约|大約)\s*){{0,2}}"
    rf"{NUM}\s*(?:个|個)?\s*(?:tokens?|toks?\b|词元|詞元|字|words?)"
    rf"(?:\s*(?:avg|average|on\s+average|each|apiece))?"
    rf"|(?:about|around|roughly|~)\s*{_num('num9')}\s*(?:tokens?|words?)\s+(?:each|apiece|per\s+(?:sample|example|item|log|doc(?:ument)?))\b"
    # "avg ticket + reply is about 1,200 tokens", "avg length maybe 3k tokens": the average, a few words later
    rf"|\b(?:avg\.?|average)\s+(?:[a-z+&/]+\s+){{0,5}}?(?:is\s+|are\s+|of\s+)?(?:about\s+|around\s+|maybe\s+|roughly\s+|~\s*)?"
    rf"{_num('num7')}\s*(?:tokens?|toks?)\b"
    # "平均长度1500左右", "average length ~1500": a length with no unit is in tokens
    rf"|(?:平均(?:长度|長度)|average\s+length|avg\.?\s+len(?:gth)?)\s*(?:(?:约|約|为|為|是|大概|大约|大約|~|of|about|around|maybe|:)\s*)*"
    rf"{_num('num8')}(?!\s*(?:字|words?|characters?|chars?|[kmg]b\b))"
)
_EPOCHS = _c(rf"{NUM}\s*(?:epochs?|eps?\b|(?:个|個)\s*epochs?|轮|輪|遍|passes|pass\b)")
_PER_SECOND = _c(r"\s*(?:/\s*(?:s|sec|秒)\b|/\s*秒|per\s+sec(?:ond)?|a\s+second|每秒|/\s*(?:gpu|卡)\s*/\s*s\b)")
"""After a token count: a speed ("310k tokens/s", "3000 token/s"), not a volume of data."""
_EPOCH_TIMING = _c(rf"[^,.;，。；!?！？]{{0,30}}?(?:要|需要|得|耗时|耗時|takes?|took|=|≈|~|costs?|runs?\s+for|lasts?)\s*"
                   rf"(?:跑|花|用)?\s*了?\s*(?:about|around|roughly|~|≈|约|約|大概|大约|大約|将近|將近|快)?\s*{NUM}\s*(?:多|幾|几)?\s*"
                   r"(?:个|個)?\s*(?:小时|小時|钟头|鐘頭|hours?|hrs?|h\b|天|days?|分钟|分鐘|min(?:ute)?s?|周|週|星期|weeks?)")
"""After "one epoch": how long it takes ("一个epoch要跑22个小时", "one epoch = ~19 hrs") — a measurement of the run they
have, neither the number of epochs wanted nor a deadline."""
_AN_EPOCH = _c(r"(?:\ban|\beach|\bevery|\bper|\bthe|每一?(?:个|個)?|这个|這個|单个|單個)\s*epoch")
_EPOCHS_AFTER = _c(rf"(?:epochs?|轮数|輪數|训练轮数|訓練輪數)\s*(?:[:=]|of|为|為|是)?\s*{NUM}")
_SEQ = _c(
    rf"(?:seq(?:uence)?[\s_-]*len(?:gth)?|cutoff(?:[\s_-]*len(?:gth)?)?|序列长度|序列長度|max[\s_-]*len(?:gth)?|(?<![a-z])seq(?:uence)?s?(?![a-z])|序列|(?<!上下文)(?<!輸入)(?<!输入)长度|(?<!上下文)(?<!輸入)(?<!输入)長度"
    rf")\s*(?:[:=]|of|为|為|是|约|約|大概|(?:打算|想|要|会|會)?\s*(?:设|設|开|開|抓|取|定|訂|订)(?:为|為|成|到|在)?|set\s+to)?\s*{_num('num1')}(?!\s*(?:条|條|筆|笔|samples?|examples?))"
    rf"|{_num('num2')}\s*(?:tokens?\s*)?(?:seq(?:uence)?[\s_-]*len(?:gth)?|序列长度|序列長度|seq\b)"
)


_SEQ_BUMP = _c(
    rf"(?:\b(?:bump(?:ing|ed)?|rais(?:e|ing)|increas(?:e|ing)|push(?:ing)?|go(?:ing)?|extend(?:ing)?|try(?:ing)?)\s+"
    rf"(?:it|that|this|the\s+(?:length|seq(?:uence)?\s*len(?:gth)?|context))?\s*(?:up\s+)?to|"
    rf"(?:长度|長度)?\s*(?:拉到|拉长到|拉長到|加到|加长到|加長到|提高到|提到|开到|開到|调到|調到|扩到|擴到|改到|改成))\s*{_num('num')}"
    r"(?!\s*(?:gpus?|cards?|nodes?|servers?|epochs?|张|張|卡|台|块|塊|个|個|x\b|×))"
)
"""After a sequence length that works: the one they want ("bumping it to 8192 OOMs", "想把长度拉到16k")."""


def context_tokens_from(raw: str) -> int | None:
    """'8k' -> 8192, '32K' -> 32768, '128k' -> 131072 (the sizes models print); '100k' -> 100000."""
    value = number_value(raw)
    if value is None or not math.isfinite(value):
        return None
    m = re.fullmatch(r"\s*(\d+)\s*k\s*", raw, re.IGNORECASE)
    if m:
        base = int(m.group(1))
        if base > 0 and (base & (base - 1)) == 0:
            return base * 1024
    return int(round(value))


TOKENS_PER_BYTE = 0.25
"""Tokens per byte of raw text, to read "5GB 的中文语料" or "200MB of text" as a token count: English runs
~4 bytes per token (BPE tokenizers), Chinese ~3 UTF-8 bytes per character at ~1.3-1.5 characters per token
(Llama 3 / Qwen tokenizers), so both land near 0.25 (phrasing_cases.yaml's convention, ±50 %)."""

_BYTE_UNITS = {"kb": 1e3, "k": 1e3, "mb": 1e6, "m": 1e6, "gb": 1e9, "g": 1e9, "tb": 1e12, "t": 1e12,
               "kib": 2.0**10, "mib": 2.0**20, "gib": 2.0**30, "tib": 2.0**40}
_TEXT_BYTES = _c(
    r"(?<![\d.])(?P<n>\d+(?:\.\d+)?)\s*(?:个|個)?\s*(?P<unit>kib|mib|gib|tib|kb|mb|gb|tb|g|t)\b\s*(?:左右|上下)?\s*(?:的|of)?\s*"
    r"(?:[\u4e00-\u9fff]{0,6}?(?:语料|語料|文本|文字|数据|資料|网页|網頁|英文|中文|繁中|代码|代碼|程式碼)|"
    r"(?:[\w/.-]+\s+){0,3}?(?:text|corpus|tickets|documents|docs|data|code|codebase|repos|repositories|jsonl|json|csv|parquet|txt|logs|transcripts|emails|"
    r"messages|notes|articles|books|papers|pdfs)\b)"
)


_TEXT_BYTES_AFTER = _c(
    r"(?:资料|資料|数据|數據|语料|語料|文本|纯文本|純文本|纯文字|純文字|文字|原始码|原始碼|源码|源碼|代码|代碼|程式碼|dataset|data|corpus|code)\s*"
    r"(?:清洗完|清洗后|清洗後|清完|去重后|去重後|整理完|after\s+(?:cleaning|dedup\w*))?\s*(?:是|为|為|有|共|大约|大概|大約|约|約|is|about|~|:)?\s*"
    r"(?<![\d.])(?P<n>\d+(?:\.\d+)?|[一二两兩三四五六七八九十百千]+)\s*(?:个|個)?\s*(?P<unit>kib|mib|gib|tib|kb|mb|gb|tb|g)\b"
)


CHARS_PER_TOKEN_ZH = 1.4
"""Chinese characters per token (Llama 3 / Qwen tokenizers: ~1.3-1.5), to read "3000 万字的法律文书" as tokens."""
TOKENS_PER_WORD_EN = 4 / 3
"""Tokens per English word (OpenAI's rule of thumb: a token is about three quarters of a word)."""
_LENGTH_UNIT = lazy_compile(r"(?P<zh>字)|(?P<en>words?)", re.IGNORECASE)


def _tokens_per_unit(said: str) -> float:
    """Tokens per unit a length was said in: characters (字) or words; tokens are 1."""
    m = _LENGTH_UNIT.search(said)
    if m is None:
        return 1.0
    return 1 / CHARS_PER_TOKEN_ZH if m.group("zh") else TOKENS_PER_WORD_EN

_TEXT_CHARS = _c(rf"{NUM}\s*(?:个|個)?\s*(?:汉字|漢字|中文字|字)(?!节|節|幕|体|體|型)")


def _text_bytes(w: _Work, ex: Extraction) -> None:
    for chars in w.finditer(_TEXT_CHARS):  # "约 700 萬字的客服對話紀錄": characters of Chinese text in all
        if re.search(r"每|平均|avg|each|per", w.text[max(0, chars.start() - 8): chars.start()]):
            continue  # "每条平均 800 字": one example's length, read with the example count
        n = number_value(_numtext(chars) or "")
        if n and n >= 10_000:
            w.consume(chars.start(), chars.end())
            ex.fields["tokens"] = int(round(n / CHARS_PER_TOKEN_ZH))
            return
    m = _TEXT_BYTES.search(w.text) or _TEXT_BYTES_AFTER.search(w.text)
    if not m:
        return
    nbytes = (number_value(m.group("n")) or 0.0) * _BYTE_UNITS[m.group("unit").lower()]
    w.consume(m.start(), m.end())
    if nbytes > 0:
        ex.fields["tokens"] = int(round(nbytes * TOKENS_PER_BYTE))


def _data(w: _Work, ex: Extraction, training: bool) -> None:
    if training or "tokens" not in ex.fields:
        _text_bytes(w, ex)
    samples = None
    for m in w.finditer(_IMAGES):
        v = number_value(_numtext(m) or "")
        if _PER_SECOND.match(w.text, m.end()):
            continue  # "~5 images/sec at peak", "2,470 images/sec on an A100": a rate, not a data set
        if v is not None:
            samples = v
            ex.images = True
            w.consume(m.start(), m.end())
            break
    if samples is None:
        for m in w.finditer(_SAMPLES):
            v = number_value(_numtext(m) or "")
            if _AT_ONCE_BEFORE.search(w.text[max(0, m.start() - 8): m.start()]):
                continue  # "同時大概 15 個對話": conversations at once are a load, not a data set
            if _RATE_BEFORE.search(w.text[max(0, m.start() - 12): m.start()]):
                continue  # "每秒60筆請求": a rate of requests, not a data set
            if v is not None:
                samples = v
                w.consume(m.start(), m.end())
                break
    if samples is not None:
        if samples < 1 or not math.isfinite(samples) or samples > 1e13:
            ex.problem("conv.problem.data_positive")
        else:
            ex.fields["samples"] = int(round(samples))
            for m in w.finditer(_AVG_LEN):
                v = number_value(_numtext(m) or "")
                if v and 1 <= v <= 10_000_000:
                    v *= _tokens_per_unit(m.group(0))  # "每筆 800 字": 800 characters, about 570 tokens
                    ex.fields["seq_len"] = int(round(v))
                    ex.fields["tokens"] = int(round(samples * v))
                    w.consume(m.start(), m.end())
                    break
    for m in w.finditer(_SEQ):
        v = context_tokens_from(_numtext(m) or "")
        if v and v > 0:
            ex.fields["seq_len"] = v
        w.consume(m.start(), m.end())
        bump = _SEQ_BUMP.search(w.text, m.end(), m.end() + 80)
        v = context_tokens_from(_numtext(bump) or "") if bump else None
        if bump and v and v > ex.fields.get("seq_len", 0):  # "works at 2048, but bumping it to 8192 OOMs": the length wanted
            ex.fields["seq_len"] = v
            w.consume(bump.start(), bump.end())
    if "tokens" not in ex.fields:
        for pattern in (_TOKENS, _TOKENS_AFTER):
            done = False
            for m in w.finditer(pattern):
                v = number_value(_numtext(m) or "")
                if v is None:
                    continue
                if not training and _CONTEXT_WORD.search(w.text[max(0, m.start() - 24): m.start()]):
                    continue  # "上下文大概會用到 2 萬 token": a context length, read with the serving load
                rate = _PER_SECOND.match(w.text, m.end())
                if rate or _RATE_BEFORE.search(w.text[max(0, m.start() - 12): m.start()]):
                    w.consume(m.start(), rate.end() if rate else m.end())  # "每卡3000 token/s": a speed, not data
                    continue
                w.consume(m.start(), m.end())
                if v < 1 or not math.isfinite(v) or v > 1e16:
                    ex.problem("conv.problem.data_positive")
                else:
                    ex.fields["tokens"] = int(round(v))
                done = True
                break
            if done:
                break
    for m in w.finditer(_AN_EPOCH):  # "an epoch takes about 2 days", "每个 epoch 要 6 小时": a run timed
        timing = _EPOCH_TIMING.match(w.text, m.end())
        if timing:
            w.consume(m.start(), timing.end())
    counts = []  # (epochs, timing): "one epoch takes 19 h" times an epoch, "3 epochs" is how many
    for pattern in (_EPOCHS, _EPOCHS_AFTER):
        for m in w.finditer(pattern):
            v = number_value(_numtext(m) or "")
            if v is None:
                continue
            timing = _EPOCH_TIMING.match(w.text, m.end())
            w.consume(m.start(), timing.end() if timing else m.end())  # a run's duration is no deadline
            counts.append((v, timing is not None))
        if counts:
            break
    if counts:
        v = next((v for v, timing in counts if not timing), counts[0][0])
        if 0 < v <= 10000:
            ex.fields["epochs"] = float(v)
        else:
            ex.problem("conv.problem.epochs_range")


# --------------------------------------------------------------------------------------------
# Serving load: concurrency, requests per second, context

_ZH_PEOPLE = (r"人|用户|用戶|使用者|同事|同仁|员工|員工|设计师|設計師|工程师|工程師|学生|學生|研究员|研究員|老师|老師|客服|人员|人員|"
              r"分析师|分析師|律师|律師|医生|醫生|医师|醫師|护士|護士|护理师|護理師|法务|法務|业务|業務|职员|職員|行员|行員")
"""People who use a service, as Chinese names them: with 同时 / 同時 before or after, how many use it at once."""
_CONC_BEFORE = _c(  # never a number inside a name: "gpt-oss-20b at the same time"
    rf"(?<![A-Za-z]-)(?!\d+(?:\.\d+)?\s*b\b){_num('num1')}\s*(?:个|個|位|名|路)?\s*(?:concurrent|conc\b|simultaneous|parallel|active)\s*(?:users?|sessions?|requests?|connections?|streams?|sequences?|chats?|clients?)?"
    rf"|(?<![A-Za-z]-)(?!\d+(?:\.\d+)?\s*b\b){_num('num2')}\s*(?:个|個|位|名|路)?\s*(?:用户|用戶|使用者|人|users?|ppl|people|persons?|sessions?|requests?|sequences?|clients?|"
    r"(?!gpus\b|cards\b|tokens\b|nodes\b|servers\b|machines\b|jobs\b)[a-z]{3,}s\b)?\s*"
    r"(?:(?:of\s+them\s+)?(?:hitting|using|use|on|online|querying|calling)\s+(?:it\s+)?)?"
    r"(?:同时在线|同時在線|同时|同時|并发|並發|concurrently|at\s+once|simultaneously|at\s+the\s+same\s+(?:time|moment)|in\s+parallel|"
    r"at\s+a\s+time)"
)
_CONC_AFTER = _c(
    rf"(?:concurrency|concurrent\s+(?:users|sessions|requests)|simultaneous\s+users|并发(?:数|量|用户数?|請求數)?|並發(?:數|量|使用者數?|用戶數?)?|"
    rf"同时在线(?:人数|用户)?|同時在線(?:人數|使用者)?)\s*(?:of|[:=]|为|為|是|约|約|大约|大約|大概|差不多|预计|預計|达到|達到|about|around|~|up\s+to|按|按照|算)?\s*{NUM}"
)
_CONC_WORD_FIRST = _c(  # "同时 100 人", "同時上線改成 80 人", "同时大概 60 个用户在用", "尖峰同時 40 人"
    r"(?:同时在线|同時在線|同时上线|同時上線|同时使用|同時使用|同时在用|同時在用|同一时刻在线|同一時刻在線|同一时刻|同一時刻|同时|同時|并发|並發)\s*"
    rf"(?:(?:用|在用|使用|上线|上線|在线|在線)?的?(?:人数|人數|{_ZH_PEOPLE})|(?:用|在用|使用)的|数|數|量|请求数?|請求數?|连线|連線|会话|會話)?\s*"
    r"(?:改成|改为|改為|调到|調到|调整为|調整為|提高到|降到|增加到|约|約|大约|大約|大概|最多|最高|有|达|達|到|会有|會有|预计|預計|估计|估計|也就|也|顶多|頂多|"
    r"只有|只|就|按|按照|算|应该|應該|不超过|不超過|差不多|可能|估|抓|预估|預估|預計會有|预计会有|大概會有|大概会有)*\s*"
    rf"{NUM}\s*(?:个|個|位|名|路)?\s*(?:人|用户|用戶|使用者|位使用者|对话|對話|会话|會話|連線|连接|users?|sessions?)?"
)
_CONC_PEAK = _c(  # "60-80 concurrent, peak maybe 120", "150 peak concurrent": the peak is what must be served
    rf"(?:peak|峰值|尖峰|高峰)\s*(?:of|is|at|maybe|probably|around|about|~|大概|可能|约|約|會到|会到|到)*\s*{_num('num1')}"
    r"(?!\s*(?:qps|rps|%|x\b|×|倍|times))"
    rf"|{_num('num2')}\s*(?:at\s+)?peak\s+(?:concurrent|users?|concurrency)")
_CONC_PLAIN_USERS = _c(  # "10 users", "~30 users", "for 50 ppl", "my team of 8", "1 user each" (a service's users at once)
    rf"(?<![\d.,]){_num('num1')}\s*(?:users?|ppl|people|persons)\b(?!\s*(?:/|per|a|each\s+day|every)\s*(?:day|d\b|month|week|year))"
    r"(?!\s+(?:in|at|across|of)\s+(?:the|our|my|a)\s+(?:company|org|organi[sz]ation|firm|office|team|department|school|university|hospital))"
    rf"|\bteam\s+of\s+{_num('num2')}"
    rf"|(?<![\d.,]){_num('num3')}\s*(?:devs?|developers?|engineers?|analysts?|agents?|staff(?:ers)?|employees|colleagues|folks|students|"
    r"researchers|people|users?)\s+(?:at\s+once|at\s+the\s+same\s+time|simultaneously|concurrently|in\s+parallel)\b"
    rf"|{_num('num4')}\s*(?:个|個|位|名)?\s*(?:{_ZH_PEOPLE})\s*(?:左右|上下)?\s*(?:会|會|将|將|可能|大概|也)?\s*(?:同时|同時)"
    rf"|(?<![\d.]){_num('num5')}\s*(?:个|個|位|名)\s*(?:人|同事|同仁|员工|員工|使用者|用户|用戶)\s*(?:左右|上下)?\s*(?:用|使用|在用)")
_CONC_LIKE = _c(rf"(?:concurrency|concurrent\s+users)\s+(?:is\s+|will\s+be\s+|should\s+be\s+)?(?:more\s+like|like|now|closer\s+to)\s+{NUM}")
_JUST_ME = _c(r"(?:单|單)(?:路|个|個|一)?(?:请求|請求|并发|並發|推理|推論)|\bsingle\s+(?:stream|request)\b|\bone\s+request\s+at\s+a\s+time\b|"
              r"就我一(?:个|個)人|(?:就|只有)我自己(?:在)?用|只有我一(?:个|個)人|just\s+(?:me|myself)(?!\s+and\b)|just\s+for\s+me\b|only\s+for\s+me\b|for\s+me\s+only|自己玩|自己写代码用|自己寫程式用|自己寫code用|\bsingle[\s-]user\b|\bone\s+user\b|单用户|單用戶|單一使用者|only\s+me|for\s+myself|by\s+myself|(?:给|給)?自己用|我自己用|一个人用|一個人用|个人使用|個人使用|(?<![几幾多两兩三四五六七八九十\d])(?:个人用|個人用)|personal\s+use|自用")
_ME_AND_ONE = _c(  # "for me and my wife", "我跟老婆用": two people
    r"\bme\s+and\s+(?:my\s+|a\s+)?(?:wife|husband|partner|gf|girlfriend|bf|boyfriend|friend|roommate|brother|sister|"
    r"son|daughter|kid|colleague|co-?worker|cofounder|co-founder)\b|"
    r"我(?:和|跟|与|與)(?:我)?(?:的)?(?:老婆|老公|太太|先生|女友|男友|女朋友|男朋友|朋友|室友|同学|同學|同事|搭档|搭檔)")
_HEADCOUNT = _c(
    rf"{_num('head1')}\s*(?:个|個|位|名)?\s*(?:[a-z-]+\s+)?(?:employees?|engineers?|staff|people|users?|人|员工|員工|工程师|工程師|同事|同仁|用户|用戶|使用者)"
    rf"|(?:employees?|staff|员工|員工|工程师|工程師|同事|同仁|全公司|公司)\s*(?:约|約|大约|大約|大概|有|共)?\s*{_num('head2')}\s*(?:人|位|名)?"
)
_SHARE = _c(
    r"(?P<pct>\d+(?:\.\d+)?)\s*%|(?P<cheng>[一二两兩三四五六七八九])\s*成|(?P<frac>\d)\s*/\s*(?P<den>\d{1,2})(?!\d)|"
    r"(?P<fden>[二三四五六七八九十])分之(?P<fnum>[一二三四五六七八九])|(?P<third>a\s+third|one\s+third)|(?P<half>half|一半)"
)
_SHARE_CUE = _c(r"at\s+once|concurrent|simultaneous|active|online|at\s+the\s+same\s+time|同时|同時|并发|並發|在线|在線|在用|使用")
_CONC_USERS = _c(  # "to 50 users", "for 500 people", "给 500 个用户", "服務 300 位使用者": serving only
    rf"(?:\bto|\bfor|\bserv(?:e|es|ing))\s+(?:about|around|roughly|up\s+to|~)?\s*{_num('num1')}\s*"
    r"(?:users?|people|customers?|clients?)\b(?!\s*(?:/|per|a|each|every)\s*(?:day|d\b|month|week|year))"
    r"(?!\s+(?:in|at|across|of)\s+(?:the|our|my|a)\s+(?:company|org|organi[sz]ation|firm|office|team|department|school|university|hospital))"
    rf"|(?:给|給|服务|服務|支撑|支撐|供)\s*[\u4e00-\u9fff]{{0,6}}?\s*(?:约|約|大约|大約)?\s*{_num('num2')}\s*(?:个|個|位|名)?\s*"
    r"(?:用户|用戶|使用者|同事|同仁|工程师|工程師|同学|同學|人)(?:用|使用)?"
)
_RPS = _c(
    rf"{_num('num1')}\s*(?:requests?|reqs?|queries|calls|images?|imgs?|pictures?|次请求|次請求|个请求|個請求|笔请求|筆請求|次查询|次查詢|张图|張圖|次)?\s*(?:/\s*s(?:ec(?:ond)?)?(?![a-z])|per\s+sec(?:ond)?\b|a\s+sec(?:ond)?\b|每秒)"
    rf"|{_num('num2')}\s*(?:qps|rps|req/s)(?![a-z])"
    rf"|(?:qps|rps|每秒请求数?|每秒請求數?|requests\s+per\s+second)(?:\s*(?:[:=]|of|约|約|为|為|是|about|around|~|大概|大约|大約|差不多|预计|預計|估计|估計|峰值|尖峰))*\s*{_num('num3')}"
    rf"|每秒\s*(?:大概|大约|大約|约|約|有|差不多|要|需要|得)?\s*(?:处理|處理|扛|撑|撐|支撑|支撐|跑)?\s*{_num('num4')}\s*(?:个|個|次|笔|筆)?\s*"
    r"(?:请求|請求|查询|查詢|requests?|reqs?|queries|calls)"
    rf"|(?:请求|請求|查询|查詢|调用|調用)\s*(?:量)?\s*每秒\s*(?:大概|大约|大約|约|約|有|差不多|要|需要|得)?\s*{_num('num5')}\s*(?:次|个|個|笔|筆)"
)
_PER_MINUTE = _c(  # "每分钟大概 600 个请求", "尖峰每分鐘 1200 則訊息", "600 requests per minute", "300 rpm": a rate, per second / 60
    rf"{_num('num1')}\s*(?:requests?|reqs?|queries|calls|messages|chats|次请求|次請求|个请求|個請求|笔请求|筆請求|則訊息|则消息|条消息|條訊息|次)\s*"
    r"(?:/\s*min(?:ute)?\b|per\s+min(?:ute)?\b|a\s+minute\b|每分钟|每分鐘)"
    rf"|{_num('num2')}\s*(?:rpm|req/min)(?![a-z])"
    rf"|(?:每分钟|每分鐘)\s*(?:大概|大约|大約|约|約|有|差不多|要|需要|得|最多|峰值|尖峰)?\s*(?:处理|處理|扛|撑|撐|进来|進來|收到)?\s*{_num('num3')}\s*"
    r"(?:个|個|次|笔|筆|则|則|条|條|封)?\s*(?:请求|請求|查询|查詢|调用|調用|訊息|讯息|消息|對話|对话|requests?|queries|calls|messages)"
)
_CONTEXT_BEFORE = _c(
    rf"{NUM}\s*(?:tokens?\s*(?:of\s*)?|token\s*的?)?\s*(?:max(?:imum)?\s+)?(?:的\s*)?(?:长|長|超长|超長)?\s*(?:context|ctx|上下文|context\s*window|context\s*length)"
)
_PROMPT_LEN = _c(rf"(?:(?:prompts?|inputs?)\s+|(?:chunks?|question|prompt|context|documents?)\s+(?:\w+\s+){{0,3}}?(?:come|comes|add\s+up|adds\s+up|total|totals)\s+(?:to\s+)?)"
                 rf"(?:are\s+|of\s+|around\s+|about\s+|~\s*|up\s+to\s+|averag\w*\s+|typically\s+|maybe\s+|roughly\s+)*{NUM}\s*tokens?")
_CONTEXT_AFTER = _c(
    rf"(?:contexts?(?:\s*windows?|\s*lengths?)?|ctx|上下文(?:长度|長度|窗口|視窗)?)(?:\s*(?:of|[:=]|为|為|是|长度|長度|要|需要|得|想|给到|給到|at|up\s+to|are|約|约|"
    rf"改到|改成|改为|改為|调到|調到|拉到|开到|開到|to|希望|希望有|最好|最好有|至少|起码|起碼|大概|大约|大約|约|約|"
    rf"抓|抓個|抓个|設|设|設為|设为|設成|设成|用|平均|average|avg|通常|一般|大多|typically|usually|"
    rf"不超过|不超過|最多|最长|最長|最大|≤|<=|會用到|会用到|用到|會到|会到|達到|达到|can\s+reach|reaches)){{0,3}}\s*{NUM}"
)


_PROMPT_OUTPUT = _c(  # "每次输入 2k 输出 500", "平均輸入 3000 token", "2k in / 500 out": a request's context
    rf"(?:输入|輸入|input|prompt)s?\s*(?:约|約|大概|about|~|of|:)?\s*{_num('inp')}\s*(?:tokens?|个|個)?"
    rf"(?:\s*[,，、/]?\s*(?:输出|輸出|output)s?\s*(?:约|約|大概|about|~|of|:)?\s*{_num('out')})?")


_ITEM_LEN = _c(  # an embedding or reranker service's inputs: "单条不超过512 token", "each input under 512 tokens"
    r"(?:(?:单条|單條|每条|每條)\s*(?:输入|輸入|文本)?\s*(?:不超过|不超過|最多|最长|最長)|"
    r"(?:each|per)\s+(?:input|text|query|doc(?:ument)?|passage|chunk|request)\s*(?:is\s+|are\s+)?"
    r"(?:under|up\s+to|at\s+most|<=?|≤))"
    rf"\s*{NUM}\s*(?:tokens?|token)")
_IN_OUT = _c(  # "~3k tokens in, ~500 out", "2k in / 500 out": a request's context is both
    rf"{_num('inp')}\s*(?:tokens?\s*)?(?:in|input)\b\s*(?:[,，/+]|and)?\s*(?:about|~|around)?\s*{_num('out')}\s*"
    r"(?:tokens?\s*)?(?:out|output)\b")


def _request_shape(w: _Work, ex: Extraction) -> None:
    m = _IN_OUT.search(w.text) or _PROMPT_OUTPUT.search(w.text)
    if m:
        tokens = [context_tokens_from(m.group(g)) if m.group(g) else 0 for g in ("inp", "out")]
        if tokens[0] and all(t is not None for t in tokens):
            ex.fields["context_tokens"] = sum(t or 0 for t in tokens)
            w.consume(m.start(), m.end())
        return
    m = _ITEM_LEN.search(w.text) or _PROMPT_LEN.search(w.text)  # "prompts around 6k tokens", "单条不超过512 token"
    v = context_tokens_from(_numtext(m) or "") if m else None
    if m and v and v > 0:
        ex.fields["context_tokens"] = v
        w.consume(m.start(), m.end())


_CONTEXT_CUE = _c(r"上下文|context|ctx|prompts?|输入|輸入|长度|長度|tokens?\b|对话|對話|\bchats?\b|文件|documents?|合同|合約|"
                  r"contracts?|reviews?")
_CONTEXT_MAX = _c(  # "平均 3k，最长 32k", "most chats ~6k, a few go up to 64k": the longest request must fit
    r"(?:最长|最長|最大|最多|max(?:imum)?|longest|up\s+to|peaks?\s+(?:at|of)|as\s+long\s+as|"
    r"(?:个别|個別|少数|少數|有些|有的|偶尔|偶爾)[^，。,.;；]{0,8}?(?:会|會|能|可以)?\s*(?:到|达到|達到|长到|長到))\s*"
    r"(?:的|是|为|為|可能|会|會|到|达到|達到|约|約|大概|会到|會到|:|=|of|at|~)*\s*"
    r"(?P<n>\d+(?:\.\d+)?\s*k\b|\d+(?:\.\d+)?\s*(?=[kK])|\d{4,7}(?=\s*tokens?))")
_MONEY_CUE = _c(r"budget|预算|預算|\$|美元|美金|台幣|台币|元|usd|twd|cny|rmb|price|cost|费用|費用")


def _context_max(w: _Work, ex: Extraction) -> None:
    """A service's context is its longest request, not its average: "上下文：平均 3k，最长 32k" sizes the KV cache for
    32k (an engine must admit the longest prompt; the average only fills the pool), as the blind tables read it.
    Not a ceiling in a clause about money ("预算最多 50k"); a context word nearby, or a context already read."""
    for m in _CONTEXT_MAX.finditer(w.text):
        if _MONEY_CUE.search(_clause_at(w.text, m.start())):
            continue
        if not (_CONTEXT_CUE.search(w.text[max(0, m.start() - 40): m.end()]) or "context_tokens" in ex.fields):
            continue
        raw = m.group("n").replace(" ", "")
        v = context_tokens_from(raw if raw.lower().endswith("k") or raw.isdigit() else raw + "k")
        if v and 256 <= v <= 10_000_000 and v > ex.fields.get("context_tokens", 0):
            before = ex.fields.get("context_tokens")
            if not before:  # "上下文平均 3k、最長 16k": the length said just before the longest is the average's
                said = _CONTEXT_AFTER.search(w.text, max(0, m.start() - 60), m.start())
                before = context_tokens_from(_numtext(said) or "") if said else None
            if before and 0 < before < v:
                ex.fields["avg_context_tokens"] = before
            ex.fields["context_tokens"] = v


def _serving(w: _Work, ex: Extraction, training_task: bool) -> None:
    for pattern in () if "context_tokens" in ex.fields else (_CONTEXT_BEFORE, _CONTEXT_AFTER):
        found = False
        for m in w.finditer(pattern):
            v = context_tokens_from(_numtext(m) or "")
            if v is None or 0 < v < 32:
                continue  # "Context: 12-person robotics company": a forum post's heading, then a headcount
            w.consume(m.start(), m.end())
            if v <= 0 or v > 100_000_000:
                ex.problem("conv.problem.context_range")
            elif training_task:
                ex.fields["seq_len"] = v
            else:
                ex.fields["context_tokens"] = v
            found = True
            break
        if found:
            break
    for pattern, per_s in ((_RPS, 1.0), (_PER_MINUTE, 1 / 60)):
        for m in w.finditer(pattern):
            raw = _numtext(m)
            rate = number_value(raw) if raw else None
            if rate is None:
                continue
            w.consume(m.start(), m.end())
            if 0 < rate < 1e9:
                ex.fields["requests_per_second"] = round(float(rate) * per_s, 4)
            else:
                ex.problem("conv.problem.load_positive")
            break
        if "requests_per_second" in ex.fields:
            break
    if not training_task and _share_of_headcount(w, ex):
        return
    serving_only = () if training_task else (_CONC_USERS, _CONC_PLAIN_USERS)
    for pattern in (_CONC_PEAK, _CONC_BEFORE, _CONC_AFTER, _CONC_WORD_FIRST, _CONC_LIKE) + serving_only:
        found = False
        for m in w.finditer(pattern):
            users = number_value(_numtext(m) or "")
            if users is None:
                continue
            num_at, num_end = next(m.span(g) for g, v in m.groupdict().items() if g.startswith("num") and v)
            upper = _RANGE_UPPER.match(w.text, num_end)
            upper_value = number_value(upper.group("num")) if upper else None
            if upper_value is not None and users < upper_value <= users * 10:
                users = upper_value  # "并发 20~30", "同时 20 到 30 人": sized for the top of the range
                w.consume(upper.start(), upper.end())  # type: ignore[union-attr]
            elif _NEGATIVE_BEFORE.search(w.text[max(0, num_at - 4): num_at]):
                users = -users  # "要服務 -200 個人同時在線": a sign typed, not a range
            w.consume(m.start(), m.end())
            copies = _copies(w, m.start())
            if copies and users:  # "10 个客户各部署一套，每套并发 10": the service carries all of them
                users *= copies
            if 1 <= users < 1e9:
                ex.fields["concurrency"] = int(round(users))
            else:
                ex.problem("conv.problem.load_positive")
            found = True
            break
        if found:
            break
    if "concurrency" not in ex.fields and not training_task:
        me = _JUST_ME.search(w.text)
        pair = _ME_AND_ONE.search(w.text)
        if me or pair:
            ex.fields["concurrency"] = 1 if me else 2
            w.consume(*(me or pair).span())  # type: ignore[union-attr]


_NEGATIVE_BEFORE = lazy_compile(r"(?<![\d\w.])[-−]\s*$")
_RANGE_UPPER = _c(rf"\s*(?:~|～|-|–|—|到|至|\bto\b)\s*{NUM}")
"""The top of a range said right after a number: "20~30", "20 到 30"."""
_EACH = _c(r"(?:\beach|\bper\s+(?:customer|tenant|model|instance|copy|deployment)|各|每套|每个|每個|每家|每份|每一套)\s*(?:\S+\s*){0,2}$")
_COPIES = _c(r"(?<![\d.])(?P<num>\d{1,3})\s*(?:个|個|家|位|套)?\s*(?:different\s+)?(?:\S+\s+)?"
             r"(?:customers|tenants|clients|models|instances|deployments|copies|客户|客戶|租户|租戶|套)")


def _copies(w: _Work, at: int) -> int | None:
    """How many separate copies a per-copy load is for: "4 different 8B models (one per customer), each ~25
    concurrent" -> 4; None when the load is not said per copy."""
    if not _EACH.search(w.orig.lower()[max(0, at - 16): at]):
        return None
    m = _COPIES.search(w.orig.lower()[:at])
    n = int(m.group("num")) if m else 0
    return n if 2 <= n <= 1000 else None


def _share_of_headcount(w: _Work, ex: Extraction) -> bool:
    """"2000 employees, maybe 5% active at once", "員工 500 人，估計一成會同時使用", "60 位工程師，尖峰 1/3 同時在用":
    concurrency is the headcount times the share said to be on at once (a headcount alone is not concurrency)."""
    head = _HEADCOUNT.search(w.text)
    share_m = _SHARE.search(w.text, head.end()) if head else None
    if not head or not share_m or not _SHARE_CUE.search(w.text, share_m.start(), share_m.end() + 32):
        return False
    n = number_value(head.group("head1") or head.group("head2") or "")
    g = share_m.groupdict()
    if g["pct"]:
        share = float(g["pct"]) / 100
    elif g["cheng"]:
        share = (number_value(g["cheng"]) or 0) / 10
    elif g["frac"]:
        share = int(g["frac"]) / max(1, int(g["den"]))
    elif g["fden"]:
        share = (number_value(g["fnum"]) or 0) / max(1.0, number_value(g["fden"]) or 1)
    else:
        share = 1 / 3 if g["third"] else 0.5
    if not n or not 0 < share <= 1:
        return False
    ex.fields["concurrency"] = max(1, int(round(n * share)))
    w.consume(head.start(), head.end())
    w.consume(share_m.start(), share_m.end())
    return True


# --------------------------------------------------------------------------------------------
# Precision

_PRECISION = [
    ("bf16", _c(r"(?:pure|plain|only|全|纯|純)\s*bf16|bf16\s*(?:only|everywhere)|纯\s*bf16|純\s*bf16")),
    ("fp8-mixed", _c(r"\bfp8\b|float8|\be4m3\b|8[\s-]?bit\s+float")),
    ("fp32", _c(r"\bfp32\b|float32|full\s+precision|single\s+precision|单精度|單精度|全精度|tf32")),
    ("fp16-mixed", _c(r"\bfp16\b|float16|half\s+precision|半精度|\bamp\b")),
    ("bf16-mixed", _c(r"\bbf16\b|bfloat16|mixed\s+precision|混合精度|bf16[\s-]?mixed")),
]


_WORTH_ASKING = _c(r"worth\s+it|even\s+worth|值得|有必要|划算吗|划算嗎|有用吗|有用嗎|有差吗|有差嗎")


_BASE_UNQUANTIZED = _c(r"\b(?:base|frozen|weights?)\b[^.;]{0,20}?\b(?:in\s+)?full\s+precision|q[\s-]?lora|quantiz|4[\s-]?bit|"
                       r"底模|基座|不量化")


def _precision(w: _Work) -> str | None:
    for name, pattern in _PRECISION:
        for m in pattern.finditer(w.text):
            sentence = re.split(r"[.!?。！？]", w.text[m.start():] + ".", maxsplit=1)[0]
            if _WORTH_ASKING.search(sentence):  # "is fp8 even worth it on L40S?" asks, it does not choose
                continue
            if name == "fp32" and _BASE_UNQUANTIZED.search(w.text[max(0, m.start() - 40): m.end()]):
                continue  # "LoRA (not qlora, i want the base in full precision)": an unquantized base, not FP32
            return name
    return None


# --------------------------------------------------------------------------------------------
# Serving quantization: "4-bit", "AWQ", "INT8 量化", "以 FP8 推論" (weights) and "8-bit KV", "KV 缓存 FP8"
# (KV cache). Read only for serving: in training, fp8 is the training precision above and 4-bit is QLoRA.
# ASCII look-arounds instead of \b, so that "用INT8量化" matches too (CJK letters are word characters).

_A0 = r"(?<![a-z0-9])"
_A1 = r"(?![a-z0-9])"
_CN_BITS = r"(?:位元|比特)"
_CN_WEIGHT_CTX = r"(?=\s*(?:量化|精度|权重|權重|整数|整數|模型|部署|推理|推論))"  # "4 位" alone is "4 people"


def _bits_pattern(n: str) -> str:
    return (rf"{_A0}(?:int{n}|{n}[\s-]?bits?){_A1}|(?<![\d.]){n}\s*{_CN_BITS}|(?<![\d.]){n}\s*位{_CN_WEIGHT_CTX}|"
            rf"量化\s*(?:到|为|為|成)?\s*{n}\s*位")


_KV_WORD = r"(?<![a-z])kv(?:[\s-]*(?:cache|缓存|快取))?"
_KV_VALUE = r"(?P<d>fp8|int8|bf16|fp16|8[\s-]?bits?|16[\s-]?bits?|8\s*(?:位元|位|比特))"
_KV_PATTERNS = (
    _c(rf"{_A0}{_KV_VALUE}\s*(?:的\s*)?{_KV_WORD}"),
    _c(rf"{_KV_WORD}\s*(?:也|还|還|都)?\s*(?:in|at|as|of|=|:|：|用|使用|采用|採用|为|為|是|改成|改为|改為|换成|換成|设为|設為|开|開|开成|開成|"
       r"上|跑|维持|維持|保持|keep|stays?\s+(?:at|in)?|"
       rf"量化(?:为|為|到|成)?)?\s*{_KV_VALUE}{_A1}"),
)
_WEIGHTS = [
    ("fp8", _c(rf"{_A0}(?:fp8|float8|e4m3){_A1}|8[\s-]?bit\s+float")),
    ("bf16", _c(rf"{_A0}(?:bf16|bfloat16){_A1}")),
    ("fp16", _c(rf"{_A0}(?:fp16|float16){_A1}|half\s+precision|半精度")),
    ("int4", _c(_bits_pattern("4") + rf"|{_A0}(?:w4a16|q4(?:_k(?:_[ms])?|_[01])){_A1}")),
    ("int8", _c(_bits_pattern("8") + rf"|{_A0}(?:w8a16|w8a8|q8(?:_0)?){_A1}")),
]
_Q4_BARE = _c(rf"{_A0}q4{_A1}")
_Q4_DATE = _c(r"(?:\bby|\bin|\bbefore|\buntil|\bduring|\bof|\bend)\s*$")
_AWQ = _c(rf"{_A0}(?:awq|gptq|exl2){_A1}")  # these formats are 4-bit unless a width is stated


def _kv_value(raw: str) -> str:
    raw = raw.lower()
    if raw.startswith("fp8"):
        return "fp8"
    if raw.startswith(("bf16", "fp16", "16")):
        return "bf16"
    return "int8"


def _quantization(w: _Work, ex: Extraction) -> None:
    for pattern in _KV_PATTERNS:
        m = pattern.search(w.text)
        if m:
            ex.fields["kv_dtype"] = _kv_value(m.group("d"))
            w.consume(m.start(), m.end())
            break
    found: list[tuple[int, str]] = []
    for name, pattern in _WEIGHTS:
        for m in w.finditer(pattern):
            found.append((m.start(), name))
            w.consume(m.start(), m.end())
    for m in w.finditer(_Q4_BARE):
        if not _Q4_DATE.search(w.text[max(0, m.start() - 12):m.start()]):  # "by Q4" is a quarter
            found.append((m.start(), "int4"))
            w.consume(m.start(), m.end())
    for m in w.finditer(_AWQ):
        if not found:
            found.append((m.start(), "int4"))
        w.consume(m.start(), m.end())
    found.sort()
    if len({name for _, name in found}) > 1 and _WEIGHED.search(w.text, found[0][0], found[1][0]):
        return  # "Is a 4-bit quant worth it vs 8-bit?", "int4 还是 int8": formats compared, none chosen yet
    if found:
        ex.fields["weights_dtype"] = found[0][1]  # a serving format: the training precision stays as it was


_WEIGHED = _c(r"\bvs\.?|\bversus\b|\bor\b|还是|還是|或者?|对比|對比|比较|比較")

# --------------------------------------------------------------------------------------------
# Catalogue names: models and GPUs, found by alias scanning and, for models, fuzzy matching.

_SEP = lazy_compile(r"[\s\-_./]")
_SIZE_TOKEN = lazy_compile(r"(?<![\d.vV])(\d+(?:\.\d+)?)\s*([bm])(?![a-z])", re.IGNORECASE)  # not "YOLOv8m"


@dataclass(frozen=True)
class _Alias:
    key: str            # normalized alias
    ident: str          # catalogue id
    size: float | None  # parameters the alias names, e.g. 8e9 for "8B"
    version: str        # the other digits in the alias, e.g. "3" in "Llama 3 8B"


def _alias_parts(alias: str) -> tuple[float | None, str]:
    low = alias.lower()
    size = None
    sizes = list(_SIZE_TOKEN.finditer(low))
    if sizes:
        last = sizes[-1]
        size = float(last.group(1)) * (1e9 if last.group(2).lower() == "b" else 1e6)
        low = low[: last.start()] + low[last.end():]
    version = "".join(re.findall(r"\d+", re.sub(r"\d+x(?=\s*$)", "", low)))
    return size, version


@lru_cache(maxsize=4)
def _index(kind: str, catalogue_key: int) -> tuple[_Alias, ...]:
    from advisor.knowledge import knowledge, normalize_name

    kb = knowledge()
    table = kb.models if kind == "model" else kb.gpus
    out: list[_Alias] = []
    seen: set[str] = set()
    for ident, spec in table.items():
        for alias in (ident, spec.name, *spec.aliases):
            key = normalize_name(alias)
            if len(key) < 2 or key in seen:
                continue
            seen.add(key)
            size, version = _alias_parts(alias)
            out.append(_Alias(key, ident, size, version))
    # aliases that carry a version or a size first, then the longest: "满血版 DeepSeek-V3" is V3, not what
    # "满血版 deepseek" alone means
    out.sort(key=lambda a: (not any(ch.isdigit() for ch in a.key), -len(a.key)))
    return tuple(out)


def _catalogue_index(kind: str) -> tuple[_Alias, ...]:
    from advisor.knowledge import knowledge

    kb = knowledge()
    return _index(kind, id(kb))


def _normalized_with_map(text: str) -> tuple[str, list[int]]:
    chars, positions = [], []
    for i, ch in enumerate(text):
        if _SEP.match(ch):
            continue
        chars.append(ch)
        positions.append(i)
    return "".join(chars), positions


def _is_word_char(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _scan_aliases(text: str, index: tuple[_Alias, ...]) -> list[tuple[_Alias, int, int]]:
    """Catalogue aliases found in `text` (lower-case): [(alias, start, end)] in the original text,
    in the index's order (aliases with a digit first, then the longest), non-overlapping, on word boundaries."""
    norm, pos = _normalized_with_map(text)
    taken = [False] * len(text)
    found: list[tuple[_Alias, int, int]] = []
    if not norm:
        return found
    for alias in index:
        start = norm.find(alias.key)
        while start != -1:
            end = start + len(alias.key)
            o_start, o_end = pos[start], pos[end - 1] + 1
            before = text[o_start - 1] if o_start > 0 else " "
            after = text[o_end] if o_end < len(text) else " "
            if after == "s" and not _is_word_char(text[o_end + 1] if o_end + 1 < len(text) else " "):
                after, o_end = " ", o_end + 1  # plural: "two 4090s"
            glued = before in "x×" and o_start >= 2 and text[o_start - 2].isdigit()  # "2x3090", "8×4090"
            counted = after in "x×" and o_end + 1 < len(text) and text[o_end + 1].isdigit() and (
                o_end + 2 >= len(text) or not text[o_end + 2].isalpha())  # "4090x2 跑 70b", not "4090x2b"
            if (glued or not _is_word_char(before)) and (counted or not _is_word_char(after)) \
                    and not any(taken[o_start:o_end]):
                found.append((alias, o_start, o_end))
                for i in range(o_start, o_end):
                    taken[i] = True
            start = norm.find(alias.key, start + 1)
    found.sort(key=lambda f: f[1])
    return found


_WORD_START = _c(r"(?<![a-z0-9])[a-z]{3,}")
_MODEL_CANDIDATE = _c(
    r"(?P<fam>[a-z]{3,24}[a-z0-9]{0,12})(?P<mid>(?:[\s\-_.]*v?\d+(?:\.\d+)?(?![\d.]*\s*[bm](?![a-z])))?[\s\-_.]*)"
    r"(?P<size>(?<![0-9.])\d+(?:\.\d+)?\s*[bm])(?![a-z])"
)
_PARAMS = _c(
    rf"{NUM}\s*(?:个|個)?\s*-?\s*(?:parameters?|params?|参数|參數)"
    rf"|(?P<bn>{_num('n2')})(?P<rest>\s*(?:的|规模的|規模的|级别的|級別的|级|級)?\s*(?:模型|大模型|llm|model))"
)
_BILLIONS = _c(r"(?<![a-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?P<mag>b|bn|billion)(?![a-z])(?!\s*tokens?)")
_MILLIONS = _c(r"(?<![a-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?P<mag>m|million)(?![a-z])\s*-?\s*(?:param|参数|參數|model|模型)")
_CONFIG_PATH = _c(r"(?:^|(?<=[\s\"'(=：:]))(?P<path>[^\s\"'，,;()]+\.json)(?![a-z0-9])")


_NOT_FAMILIES = frozenset(
    ["the", "and", "with", "for", "model", "models", "params", "parameters", "param", "about", "around", "tokens", "token", "budget", "use", "using", "serve", "train", "training", "finetune", "fine", "tune", "lora", "qlora", "only", "over", "under", "from", "than", "our", "have", "want", "need", "size", "llm", "base", "what", "not", "why", "how", "like", "run", "runs", "serving", "users", "context", "rack", "each", "per", "new", "maybe", "roughly", "approx", "approximately", "some", "than", "is", "be", "are", "was", "size", "sized", "class", "bigger", "smaller", "larger", "just", "fine", "tuning", "pretrain", "pretraining", "deploy", "host", "inference", "of", "on", "at", "in", "to", "a", "an", "or"]
)


def _version_value(version: str) -> float:
    """'3' -> 3, '31' (from "3.1") -> 3.1, '' -> 0: for preferring the newest of equal matches."""
    if not version:
        return 0.0
    return float(version[0] + ("." + version[1:] if len(version) > 1 else ""))


def _model_params(ident: str) -> int | None:
    from advisor.knowledge import knowledge

    spec = knowledge().models.get(ident)
    return spec.params if spec else None


def _size_near(text: str, end: int) -> float | None:
    m = re.match(r"[\s\-_.]*(\d+(?:\.\d+)?)\s*([bm])(?![a-z])", text[end: end + 12], re.IGNORECASE)
    if not m:
        return None
    return float(m.group(1)) * (1e9 if m.group(2).lower() == "b" else 1e6)


def _set_model(ex: Extraction, ident: str, text: str) -> None:
    from advisor.knowledge import knowledge

    spec = knowledge().models[ident]
    ex.fields["model"] = ident
    ex.fields["model_text"] = re.sub(r"\s+", " ", text).strip()[:120]
    ex.fields["params"] = spec.params
    if spec.active_params:
        ex.fields["active_params"] = spec.active_params


_DISTILL = _c(r"distill|蒸馏|蒸餾")
_UNDECIDED = _c(r"^[\s,，、]*(?:或者?|还是|還是|或是|\bor\b|\bvs\.?|versus|/|\band\b|&|\bplus\b|跟|和|与|與|及|以及|、)[\s,，、]*$")
_DISTILL_SIZE = _c(r"(?<![\d.])(\d+(?:\.\d+)?)\s*b(?![a-z])")


_PARAMS_SAID = _c(r"(?<![\w.])\d+(?:\.\d+)?\s*[mbk]?\s*(?:params?|parameters?|参数|參數)")
_SIZE_REFERENCE = _c(r"[\s-]*(?:sized|size|class|scale|级别|級別|规模|規模|那么大|那麼大|大小)\b")


_SWITCH_TO = _c(r"(?:换成|換成|换到|換到|升级到|升級到|升级成|升級成|改成|改用|改跑|换用|換用|切到|切换到|切換到|"
                r"\b(?:upgrade|move|switch|migrate|moving|switching|upgrading|migrating|go|going)\s+(?:up\s+)?to)\s*$")
_INSTEAD_AFTER = _c(r"[^,.;!?，。；！？]{0,8}?\binstead\b")
"""Next to a model: the one they mean to run from now on ("想换成 qwen2.5-32b", "wants llama 3.1 70B instead")."""


def _model(w: _Work, ex: Extraction) -> None:
    # 1. A config.json path (checked first: a path may contain a catalogue name).
    m = _CONFIG_PATH.search(w.orig)
    if m:
        _config(w, ex, m.group("path"))
        return
    # 2. A distilled model ("DeepSeek-R1-Distill-Qwen-7B", "r1 蒸馏的 32B") is the small student, not its
    # teacher and not the base it was distilled into: its size is what counts.
    d = _DISTILL.search(w.text)
    if d:
        sm = _DISTILL_SIZE.search(w.text, max(0, d.start() - 40))
        if sm:
            ex.fields["params"] = int(float(sm.group(1)) * 1e9)
            ex.fields["model_text"] = w.orig[min(d.start(), sm.start()): max(d.end(), sm.end())].strip()[:120]
            w.consume(min(d.start(), sm.start()), max(d.end(), sm.end()))
            return
    index = _catalogue_index("model")
    hits = _scan_aliases(w.text, index)
    if len({a.ident for a, _, _ in hits}) >= 2 and _UNDECIDED.search(w.text[hits[0][2]: hits[1][1]]):
        return  # "可能 Llama 3.1 70B 或 Qwen2.5-72B", "Mistral 7B 跟 Llama 3.1 8B 的 LoRA 實驗": no one model; the question asks
    # A model they are moving to ("线上跑 qwen2.5-7b，业务想换成 qwen2.5-32b", "wants llama 3.1 70B instead") is the
    # one to size, not the one running now.
    target = next((h for h in hits[1:] if h[0].ident != hits[0][0].ident and (
        _SWITCH_TO.search(w.text[max(0, h[1] - 14): h[1]]) or _INSTEAD_AFTER.match(w.text, h[2])
        or (re.search(r"\bfrom\s+$", w.text[max(0, hits[0][1] - 6): hits[0][1]])
            and re.fullmatch(r"\s*to\s+", w.text[hits[0][2]: h[1]])))), None)
    if target is not None:
        hits = [target] + [h for h in hits if h is not target]
    # 3. Exact aliases on word boundaries (longest first).
    for alias, start, end in hits:
        if _SIZE_REFERENCE.match(w.text, end) and _PARAMS_SAID.search(w.text):
            w.consume(start, end)  # "~335M params, bert-large sized": a size compared with, not the model
            continue
        params = _model_params(alias.ident)
        near = _size_near(w.text, end)
        if near and params and alias.size is None:
            if abs(near - params) / params > 0.25:
                continue  # "llama3 70b" must not become the 8B model through the alias "llama3"
            sm = re.match(r"[\s\-_.]*\d+(?:\.\d+)?\s*[bm]", w.text[end:], re.IGNORECASE)
            end += sm.end() if sm else 0
        _set_model(ex, alias.ident, w.orig[start:end])
        w.consume(start, end)
        return
    # 4. Fuzzy: a family word and a size, compared with aliases of the same size and version.
    best: tuple[tuple[float, float], _Alias, int, int] | None = None
    first: tuple[int, int, float] | None = None
    for word in w.finditer(_WORD_START):
        if word.group(0) in _NOT_FAMILIES:
            continue
        cm = _MODEL_CANDIDATE.match(w.text, word.start())
        if not cm:
            continue
        cand_text = cm.group(0)
        size, version = _alias_parts(cand_text)
        if size is None or size <= 0:
            continue
        if first is None:
            first = (cm.start(), cm.end(), size)
        key = _SEP.sub("", cand_text.lower())
        for alias in index:
            if alias.size is None or abs(alias.size - size) / size > 0.02:
                continue
            if version and alias.version and version != alias.version:
                continue
            if version and not alias.version and (known := _alias_parts(alias.ident)[1]) and known != version:
                continue  # "Qwen3-32B" is not Qwen2.5-32B through its versionless alias "qwen 32b"
            ratio = difflib.SequenceMatcher(None, key, alias.key).ratio()
            # Equal ratios (no version typed: "llama 70b"): the newest version wins.
            rank = (round(ratio, 6), _version_value(alias.version))
            if ratio >= 0.72 and (best is None or rank > best[0]):
                best = (rank, alias, cm.start(), cm.end())
    if best is not None:
        _, alias, start, end = best
        _set_model(ex, alias.ident, w.orig[start:end])
        w.consume(start, end)
        return
    # 5. A model we do not know, named with its size ("Falcon 40B"): the size is what counts.
    if first is not None:
        start, end, size = first
        ex.unknown_model = w.orig[start:end].strip()
        if 1000 <= size <= 1e14:
            ex.fields["params"] = int(round(size))
            ex.fields["model_text"] = ex.unknown_model
            w.consume(start, end)
            return
    # 6. A bare size: "13B", "70亿参数", "a 7 billion parameter model", "125M parameters".
    _params(w, ex)


def _config(w: _Work, ex: Extraction, path: str) -> None:
    """Parameters from a Hugging Face config.json the user names."""
    lo = w.text.find(path.lower())
    if lo >= 0:
        w.consume(lo, lo + len(path))
    try:
        import os

        from advisor.core import params as core_params

        spec = core_params.load_hf_config(path)
        n = core_params.param_count(spec)
        if n <= 0:
            raise ValueError("no parameters")
        ex.fields["params"] = int(n)
        ex.fields["model_text"] = os.path.abspath(os.path.expanduser(path))
    except Exception as exc:  # noqa: BLE001 - ConfigError or anything the reader raises: tell the user, never crash
        ex.problem("conv.problem.config", detail=_config_detail(exc), key=getattr(exc, "key", "") or "",
                   values=getattr(exc, "values", {}))


def _config_detail(exc: Exception) -> str:
    return str(exc)[:300]


def _params(w: _Work, ex: Extraction) -> None:
    for m in w.finditer(_PARAMS):
        raw = _numtext(m) or m.group("n2")
        v = number_value(raw) if raw else None
        if v is None:
            continue
        if m.group("n2") and not re.search(r"[亿億bm万萬千]|billion|million", m.group("n2"), re.IGNORECASE):
            continue  # "3 的模型" is not a size; "30亿的模型" is
        _set_params(w, ex, v, m)
        return
    for pattern, scale in ((_BILLIONS, 1e9), (_MILLIONS, 1e6)):
        for m in w.finditer(pattern):
            v = number_value(_numtext(m) or "")
            if v is None:
                continue
            _set_params(w, ex, v * scale, m)
            return


def _set_params(w: _Work, ex: Extraction, v: float, m: re.Match[str]) -> None:
    w.consume(m.start(), m.end())
    if v < 1000 or not math.isfinite(v):
        ex.problem("conv.problem.params_range")
        return
    if v > 1e14:
        ex.problem("conv.problem.params_range")
        return
    ex.fields["params"] = int(round(v))
    ex.fields["model_text"] = w.orig[m.start():m.end()].strip()


_OWN_CUE = _c(
    r"\bhave\b(?!\s+(?:a\s+|the\s+|some\s+)?(?:budget|money|funds|funding)\b)|\bhas\b|\bown\b|\bowned\b|\bgot\b(?!\s+(?:quoted|a\s+quote|offered))|\balready\b|\bexisting\b|\bour\b|\bwe've\b|\bi've\b|"
    r"手上|手头|手頭|手边|手邊|我那台|我那臺|我们那台|我們那臺|现有|現有|已有|已经有|已經有|我们有|我們有|我有|目前是|现在是|現在是|目前用|(?:台式机|台式機|桌机|桌機|电脑|電腦|笔记本|筆電|主机|主機)(?:里|裡)?(?:是|用的是|装的是|裝的是|插的是)|\bcurrently\s+(?:on|using|running|rocking)\b|(?<![没沒])有(?!没有|沒有)|拥有|擁有|闲置|閒置|在用|"
    r"\bmy\b|卡是|cards\s+are|gpus\s+are|用的是|只给|只給|给了|給了|分到|配了|配有|配备|配備|插了|插着|插著|装了|裝了|装着|裝著|"
    r"已经买了|已經買了|买了|買了|收了|入手了|already\s+bought|\bwe\s+bought|\bi\s+bought|家里|家裡|家中|宿舍|屋企|桌机|桌機|我的|我们的|我們的|我自己的|"
    r"\bin\s+(?:my|our)\b|\bon\s+(?:my|our)\b|gaming\s+pc|\btower\b|\brig\b|(?:uni|university|our|research)\s+lab\b|实验室|實驗室"
)
_HAVE_BEFORE = _c(r"(?:现在有|現在有|手上有|手头有|手頭有|现有|現有|已有|我们有|我們有|我有)(?!预算|預算|钱|錢|经费|經費|计划|計劃|在考)|"
                  r"\b(?:(?:we|i)\s+(?:have|own|got)|(?:lab|team|company|group)\s+has)\b"
                  r"(?!\s+(?:a\s+|the\s+)?(?:budget|money|funds|funding|plans?|to|\$|\d+\s*k\b))")
_NOT_OWNED = _c(  # a GPU said with intent or as an option: to rent, to buy, to compare, to quote
    r"\brent(?:ed|ing|al)?\b|\blease|租|\bbuy(?:ing)?\b|\bpurchas|\bget\b|买(?!了)|買(?!了)|购|購|采购|採購|quote|报价|報價|报了|報了|\boffer(?:ed|ing|s)?\b|"
    r"想|打算|准备|準備|计划|計劃|考虑|考慮|塞|\bplan|\bwant|\bwould\b|\bconsider|\bworth\b|\bthinking\b|组|組|攒|攢|\bbuild|\bassemble|"
    r"或|还是|還是|\bor\b|\bvs\.?(?![a-z])|versus|比较|比較|对比|對比|\bcompare|how\s+many|[几幾]\s*(?:张|張|颗|顆|块|塊|片|台|个|個)|多少|需要|\bneed|"
    r"\bcloud\b|云|雲|\bon\s+(?:aws|gcp|azure|lambda|runpod|vast)|申請|申请|\bapply\s+for\b"
)
_HYPOTHETICAL = _c(r"[?？]|吗|嗎|假如|假设|假設|如果|(?<!主)(?<!只)(?<!就)要是|\bif\s+(?:i|we)\s+had\b|\bsuppose\b|能不能|可不可以|够不够|夠不夠|行不行|是否|\bpossible\b|\benough\b|\bcan\s+(?:i|we|it|they)\b|"
                   r"\bcould\b|how\s+(?:long|much|many)|多久|多少")
_HAVE_OF_THEM = _c(r"(?:that'?s|thats|it'?s|its)\s+the\s+only\s+(?:card|gpu|one)\s+(?:i|we)\s+(?:have|own|got)|"
                   r"(?:that'?s|thats|it'?s|its)\s+(?:what|all)\s+(?:i'?m|im|i\s+am|we'?re|we\s+are|i|we)\s+(?:stuck\s+with|have|got)|"
                   r"(?:我|我家里|我家裡|家里|家裡|手上|手头|手頭)\s*(?:就|只有)\s*(?:一|1)\s*(?:张|張|块|塊)\s*(?:卡|显卡|顯卡)?\s*(?:而已|啦|了)?\s*(?:[，,。.!！]|$)|"
                   r"(?P<these>(?:卡|显卡|顯卡|这些卡|這些卡|(?:这|這)\s*[两兩二三四]\s*(?:张|張))\s*(?:都)?\s*是\s*(?:我的|我们的|我們的|自己的|"
                   r"(?:实验室|實驗室|研究室|公司|学校|學校|系上|所里|所裡|组里|組裡)(?:的|自己的|现有的|現有的)))|"
                   r"(?:我|手上|手头|手頭|手邊|手边)\s*(?:就|也)?\s*只有\s*(?:這|这)\s*(?:一)?\s*(?:张|張|块|塊)(?:卡)?|"
                   r"\b(?:i|we)\s*(?:have|own|got|'ve\s+got|already\s+have)\s+(?:(?P<n>\d+)|(?P<w>two|three|four|six|eight))\s+of\s+"
                   r"(?:them|those|these)\b")
_PRICE_TAIL = _c(r"\s*(?:一张|一張|每张|每張|a\s+card|each|per\s+card|apiece)?\s*(?:on\s+(?:ebay|craigslist|amazon|newegg|marketplace)\s+)?"
                 r"(?:大概|大约|大約|约|約|要|才|只要|is|costs?|goes\s+for|runs|sells\s+for|for|at|"
                 r"~|about|around)?\s*(?:~|about|around|≈)?\s*"
                 r"(?:(?:us\s?\$|nt\s?\$|\$|¥|€)\s*\d[\d,.]*\s*(?:k\b|万|萬)?|"
                 r"\d[\d,.]*\s*(?:k\b|万|萬)?\s*(?:美金|美元|元|块|塊|台币|台幣|刀|usd|twd|cny|rmb|bucks|dollars)|"
                 r"\d[\d,.]*\s*(?:w|万|萬)(?![a-z]))")  # "4090一张要1.6w": 万 after a card is its price
_PURPOSE_TAIL = _c(r"\s*(?:gpus?|cards?)?\s*(?:to|for)\s+(?:serve|serving|run|running|host|hosting|deploy\w*|train|training|"
                  r"fine[\s-]?tun\w*|pretrain\w*|power)\b|\s*(?:来|來|用来|用來|拿来|拿來)\s*(?:跑|训|訓|做|部署|推理|推論|服务|服務)")
""""8x H200 to serve DeepSeek-V3", "8 张 H20 来跑满血版": GPUs counted for a purpose are a plan, not cards had (a cue such
as "we have" still says they are)."""
_OPTION_LABEL = lazy_compile(
    r"(?:option|plan|choice|方案|选项|選項|配置)\s*(?P<n>[A-Da-d1-4一二三四甲乙丙])\s*[:：)）.、]|"
    r"(?:^|(?<=[\s。；;，,]))(?:[-*•·]\s*)?(?P<l>[A-D甲乙丙])\s*[:：)）](?!\\)", re.IGNORECASE)
"""An option's label ("- Option A: 2x used RTX 3090", "A：兩張 4090  B：一張 RTX 6000 Ada", "方案二："), on the text as typed:
a capital letter A-D (not "a)" of a question list, not the "C:" of a Windows path)."""


def _option_labels(orig: str) -> list[tuple[int, str]]:
    """The option labels of a message, (position, label), when it weighs at least two options; else none."""
    found = [(m.start(), (m.group("n") or m.group("l") or "").lower()) for m in _OPTION_LABEL.finditer(orig)
             if m.group("n") or (m.group("l") and m.group("l").isupper() or m.group("l") in "甲乙丙")]
    return found if len({label for _, label in found}) >= 2 else []


_BARE_PRICE_TAIL = _c(r"\s*(?:一张|一張|每张|每張)?\s*(?:(?:要|大概|大约|大約|约|約|才|只要)\s*\d[\d,]{2,}(?:\.\d+)?\s*"
                      r"(?:左右|上下|出头|出頭|元|块|塊)?|\d[\d,]{2,}(?:\.\d+)?\s*(?:左右|上下|出头|出頭|元|块|塊))"
                      r"(?!\s*[a-z0-9\u4e00-\u9fff])")
""""闲鱼 3090 一张 5500 左右": an amount of hundreds or more for one card, with a word that makes it a price
(要, 大概, 左右, 元) — not "两张 3090 一张 4090", which counts another card."""
_ONLY_BEFORE = _c(r"(?:就只有|只有|就|只)\s*$")
""""实验室穷，就两张3090": "just" right before the count says what they have."""
_HAVE_PLAN = _c(r"(?:已经|已經|我们|我們|我|公司|目前|现在|現在)?有\s*(?:在)?\s*(?:考虑|考慮|想|看|打算|规划|規劃|计划|計劃|预算|預算|意|兴趣|興趣|需要|需求|评估|評估)")
""""有在考慮 MI300X", "已經有預算買兩台 H100": a plan or a budget is had, not the GPU."""
_WANT_TO_GET = _c(r"(?:想|打算|准备|準備|计划|計劃)\s*(?:要|再)?\s*(?:放|买|買|配|组|組|攒|攢|装|裝|搭|上)")
""""家里书房想放一台 4 卡 5090 的机器": a machine they mean to get, wherever it will stand."""
_SUPPOSE = _c(r"假如|假设|假設|如果|要是|\bif\s+(?:i|we)\s+(?:had|got|bought)\b|\bsuppose\b|\bimagine\b")
_HEARSAY = _c(r"\b(?:colleague|coworker|co-worker|friend|boss|manager|vendor|salesman|(?:sales|account|[a-z]+)\s+rep|reseller|someone|people|"
              r"everyone|reddit|they|he|she)\s*(?:says?|said|told\s+(?:me|us)|claims?|recommends?|suggests?|insists?|pitch(?:es|ed)?|"
              r"wants\s+(?:us|me)\s+to|would\s+(?:like|have)\s+(?:us|me)\s+to|"
              r"(?:is|are|was)\s+(?:pushing|pitching|recommending|suggesting))\b|"
              # a colleague's plan put to the advisor: "our engineer priced a rented 8x L40S box … is that the right plan?"
              r"\b(?:engineer|intern|admin|ops\s+team|it\s+team|devops|architect|consultant|contractor|vendor|supplier|reseller|dealer|integrator)s?\s+"
              r"(?:priced|proposed|planned|plans|picked|chose|suggested|quoted|spec(?:ced|'d)|wants)\b|"
              r"(?:同事|朋友|老板|老闆|领导|領導|主管|上司|厂商|廠商|供应商|供應商|销售|銷售|业务|業務|有人|网上|網上|大家)\s*(?:都)?\s*"
              r"(?:说|說|推荐|推薦|建议|建議|报价|報價|认为|認為|觉得|覺得)|听说|聽說|据说|據說")
"""Someone else speaking before a GPU ("a colleague says a single L40S will do"): with `_ENOUGH_AFTER`, a claim to
check, not a card the writer has or chose."""
_ENOUGH_AFTER = _c(r"[^.!?。！？]{0,24}?(?:就够|就夠|足够|足夠|够用|夠用|就行|就可以|就能|就足以|可以吗|可以嗎|够吗|夠嗎|行吗|行嗎|可行吗|可行嗎|\bwill\s+do\b|\bis\s+enough\b|\bwould\s+be\s+enough\b|"
                   r"\bsuffices?\b|\bis\s+plenty\b|\bshould\s+(?:be\s+fine|do)\b)")
"""What a claim says of the card: that it is enough — the claim the writer wants checked ("一张 4090D 就够了"); a
vendor's recommendation or quote ("廠商推薦 8 卡 H100") is an option they weigh and stays among the GPUs asked about."""
_BOSS_WISH = _c(r"(?:主管|老板|老闆|领导|領導|\bmy\s+boss|\bour\s+(?:boss|manager|cto|ceo|pi))\s*(?:想|想要|打算|一直想|wants?\s+to|"
                r"is\s+(?:keen|set)\s+on)")
_DOUBTED_AFTER = _c(r"[^.!?。！？]{0,40}?[;；,，]\s*(?:不過|不过|但是|可是|但|\bbut\b|\bhowever\b)")
"""A superior's wish, then a "but" from the writer ("主管想乾脆花 300 萬買一台 8 卡 RTX PRO 6000 伺服器…；不過之後一年我們只會偶爾跑
推論"): the card is the plan put to the advisor, not the writer's choice."""
_PLAN_QUESTIONED = _c(r"\bis\s+(?:that|this|it)\s+(?:the\s+)?(?:right|a\s+good|a\s+sensible|the\s+best)\s+(?:plan|choice|call|setup)|"
                      r"\bdoes\s+it\s*[?,]|\bdoes\s+(?:it|that)\s+(?:really\s+)?(?:pay\s+off|pay\s+for\s+itself|make\s+sense|work)\b|"
                      r"\bis\s+(?:that|it)\s+(?:true|worth\s+it)\b|"
                      r"\bwould\s+(?:that|this|it)\s+work\b|这样(?:对|可行|合理)吗|這樣(?:對|可行|合理)嗎|(?:对|對)不(?:对|對)|可不可行")
"""The writer asks whether someone else's plan is right: the GPU in it is to be checked, not chosen."""
_UNAVAILABLE_BEFORE = _c(r"(?:买不到|買不到|拿不到|买不了|買不了|禁运|禁運|禁售|断供|斷供|\bcan'?t\s+(?:get|buy|import)|"
                         r"\bcannot\s+(?:get|buy|import)|\bunable\s+to\s+(?:get|buy)|\bno\s+access\s+to|"
                         r"\bnot\s+allowed\s+to\s+(?:buy|import))\s*(?:the\s+|any\s+)?$")
_UNAVAILABLE_AFTER = _c(r"(?:s\b)?\s*(?:(?:在国内|在國內|国内|國內|这边|這邊|都|也|已经|已經|根本|现在|現在)\s*)*"
                        r"(?:买不到|買不到|拿不到|买不了|買不了|禁运|禁運|禁售|被禁|断供|斷供)|"
                        r"(?:s\b)?\s*(?:(?:is|are)\s+(?:not\s+available|unavailable|banned|off\s+the\s+table|out\s+of\s+reach)|"
                        r"(?:aren'?t|isn'?t)\s+available)")
"""A GPU said to be out of the writer's reach ("国内买不到 H100", "H100 買不到", "we can't get H100s"): named, neither
had nor wanted."""
_OWN_SAID = _c(r"手上|手头|手頭|手邊|手边|我们有|我們有|我有|\bwe\s+(?:have|own|got)\b|\bi\s+(?:have|own|got)\b|\bcurrently\b")
_OWNED_TAIL = _c(r"^[^,;.!?，；。！？]*")
_RENTED_NEAR_AFTER = _c(r"\s*(?:s\b)?\s*(?:cloud|instances?|credits?|rented|rental|on\s+(?:aws|gcp|azure|lambda|runpod)|"
                        r"in\s+(?:our|my|the)\s+(?:gcp|aws|azure|cloud|colab|kaggle)\b|云|雲|租)")
_RENTED_NEAR_BEFORE = _c(r"credits?|rented|renting|\brent\b|租|云上|雲端上")
"""Next to a GPU, these make "we have … H100" a rental ("credits on an MI300X cloud"), not hardware owned."""
_SENTENCE_REST = _c(r"(?:[^.!?。！？]|\.(?=\S))*[.!?。！？]?")  # "qwen2.5-72b" ends no sentence
_COUNT_BEFORE = _c(
    rf"(?:{NUM}|\b{_EN_WORD}\b|\b(?:a\s+)?single\b|单|單)\s*(?:x|×|\*|张|張|块|塊|片|颗|顆|个|個|台|卡的?|pcs|pieces\s+of|pcs\s+of|units?\s+of|cards?\s+of|gpus?\s+of)?\s*(?:of\s+)?(?:the\s+)?"
    r"(?:(?:old|older|used|spare|idle|new|brand[\s-]new|second[\s-]hand|refurbished|aging|extra|旧的?|舊的?|闲置的?|閒置的?|二手的?)\s*)?"
    r"(?:nvidia|amd|intel|英伟达|英偉達|輝達|geforce|radeon|instinct|rtx|tesla|dgx|hgx)?\s*(?:geforce\s*)?$"
)
_PER_MACHINE_AFTER = _c(
    rf"\s*(?:工作站|服务器|伺服器|主机|主機|机器|機器|servers?|workstations?|boxes|machines?|nodes?)\s*[(,]?\s*"
    rf"(?:每台|每个|每個|各|each\s+with|with)\s*(?:有|装|裝|插)?\s*{NUM}\s*(?:张|張|块|塊|颗|顆|卡|gpus?|cards?)")
_GPUS_EACH_AFTER = _c(rf"\s*(?:sxm\d?\s*|pcie\s*)?(?:nodes?|servers?|boxes|machines?)\s*[(,]?\s*{NUM}\s*(?:gpus?|cards?)\s*(?:each|apiece)")
_CARDS_PER_MACHINE = _c(rf"\s*{NUM}\s*卡(?:机|機|的?(?:服务器|伺服器|机器|機器|主机|主機))")  # "2台H20八卡机"
_NODES_BEFORE = _c(
    rf"(?<!-){_num('nodes')}\s*(?:nodes?|servers?|machines?|boxes|workstations?|hosts?|rigs?|"
    r"台(?:服务器|伺服器|机器|機器|主机|主機|工作站)?|个节点|個節點)\s*(?:上跑|上|里|裡|[a-z\u4e00-\u9fff][\w\s-]{0,16}?[(（](?=\s*(?:每台|每个|每個|各|each)))?\s*"
    r"(?:of|with|w/|,|，|×|x|\*|[（(])?\s*(?:each\s+with|每台|每个|每個|各|each)?\s*(?:插|装|裝|配|有)?\s*"
    rf"{_num('per')}\s*(?:x|×|\*|张|張|块|塊|颗|顆|片|卡的?|gpus?\s+of|cards?\s+of)?\s*(?:nvidia|amd|英伟达|輝達|geforce|rtx|tesla)?\s*$"
)
_COUNT_LATER = _c(rf"^\s*[）)]?\s*(?:有|共|共有|一共|总共|總共|合计|合計|是|各)?\s*[（(]?\s*{NUM}\s*(?:张|張|块|塊|片|颗|顆|卡|gpus?\b|cards?\b)\s*[）)]?")
_SYSTEM = _c(r"(?:dgx|hgx)\s*$")
_BOXES_BEFORE = _c(rf"{NUM}\s+(?:[a-z0-9-]+\s+){{0,2}}(?:boxes|nodes|servers|machines|workstations|systems|rigs|hosts)\s*[(（]\s*$")
_EACH_CLOSE = _c(r"[^()（）]{0,30}?\beach\s*[)）]")
_TIMES = _c(r"[x×*]")
_MACHINES_OF = _c(rf"(?:{NUM}|\b{_EN_WORD}\b)\s*(?:x|×|\*)?\s*$")
_MACHINE_AFTER = _c(r"\s*(?:sxm\d?\s*|pcie\s*|nvl\s*)?(?:nodes?|servers?|boxes|machines?|systems?|hosts?|rigs?)\b")
GPUS_PER_SYSTEM = 8
"""One DGX/HGX system of the GPU named: eight on its baseboard (the 4-GPU HGX boards are named with a count)."""
_COUNT_AFTER = _c(r"^\s*(?:(?:gpus?\b|cards?\b|卡)\s*)?(?:x|×|\*)\s*(?P<num>\d{1,4})(?![\d.])")  # "3090 x2", "4090x1"


def _gpu_spans(text: str) -> list[tuple[str, float | None, int, int, int, int]]:
    """The GPUs `text` (lower-case) names: (catalogue id, the count said with it or None, alias start, alias
    end, span start, span end), the span taking in the count ("8 × H100", "兩台各 8 張 H100") and a memory
    size after the name ("A100 80GB")."""
    out = []
    for alias, start, end in _scan_aliases(text, _catalogue_index("gpu")):
        count = None
        mb = _COUNT_BEFORE.search(text[max(0, start - 24): start])
        consume_from = start
        if mb:
            count = number_value(mb.group("num")) if mb.group("num") else float(_EN_WORD_NUMBERS.get(mb.group("word"), 1))
            consume_from = max(0, start - 24) + mb.start()
        mn = _NODES_BEFORE.search(text[max(0, start - 40): start])
        if mn:
            nodes, per = number_value(mn.group("nodes") or ""), number_value(mn.group("per") or "")
            if nodes and per:
                count = nodes * per
                consume_from = max(0, start - 40) + mn.start()
        ma = _COUNT_AFTER.search(text[end: end + 12])
        consume_to = end
        if count is None and ma:
            count = number_value(ma.group("num"))
            consume_to = end + ma.end()
        ident = alias.ident
        each = _PER_MACHINE_AFTER.match(text, consume_to) or _CARDS_PER_MACHINE.match(text, consume_to) or \
            _GPUS_EACH_AFTER.match(text, consume_to)
        per_system = None
        if each and count:
            n = number_value(each.group("num"))  # "两台4090工作站（每台两张卡）": machines x cards in each
            if n:
                count *= n
                consume_to, per_system = each.end(), n
        mem = re.match(r"[\s-]*(\d+)\s*(?:gb|g)\b", text[consume_to:], re.IGNORECASE)
        if mem:
            consume_to += mem.end()
            gb = int(mem.group(1))
            if _SYSTEM.search(text[max(0, start - 6): start]) and gb % GPUS_PER_SYSTEM == 0 and \
                    not _memory_matches(ident, gb) and _memory_matches(_with_memory(ident, gb // GPUS_PER_SYSTEM), gb // GPUS_PER_SYSTEM):
                gb //= GPUS_PER_SYSTEM  # "DGX A100 640GB": the system's memory, eight cards of 80 GB
            ident = _with_memory(ident, gb)  # "V100 32G" is the 32 GB V100
            if not _memory_matches(ident, gb):
                continue  # "笔记本是3060 6G": a variant the catalogue does not have (the laptop part), not its card
            again = _COUNT_AFTER.search(text[consume_to: consume_to + 12]) if count is None else None
            if again:  # "3090 24G x2"
                count = number_value(again.group("num"))
                consume_to += again.end()
        form = re.match(r"\s*[（(]?\s*(?:pcie|pci-e)\b\s*[）)]?", text[consume_to:])
        pcie = re.sub(r"-sxm\d?(?=-|$)", "-pcie", ident)
        if form and pcie != ident and _known_gpu(pcie):
            ident, consume_to = pcie, consume_to + form.end()  # "A100 40G PCIe", "8x V100 32GB PCIe"
        machines = _MACHINES_OF.search(text[max(0, consume_from - 16): consume_from]) \
            if count and per_system is None and mb and _TIMES.search(mb.group(0)) and _MACHINE_AFTER.match(text, consume_to) else None
        if machines:  # "two 8x H100 SXM nodes", "2x 8xA100 servers": machines x the GPUs in each
            nodes = number_value(machines.group("num") or "") or float(_EN_WORD_NUMBERS.get(machines.group("word") or "", 0))
            if count and nodes and float(nodes).is_integer() and nodes <= 1024:
                count, per_system = count * nodes, count
                consume_from = max(0, consume_from - 16) + machines.start()
        boxes = _BOXES_BEFORE.search(text[max(0, consume_from - 48): consume_from]) if count else None
        if boxes and count and per_system is None and _EACH_CLOSE.match(text, consume_to):  # "2 DGX-1 boxes (8x V100 … each)"
            nodes = number_value(_numtext(boxes) or "")
            if nodes and float(nodes).is_integer() and nodes <= 1024:
                count, per_system = count * nodes, count
                consume_from = max(0, consume_from - 48) + boxes.start()
        later = _COUNT_LATER.match(text[consume_to: consume_to + 16])  # "A100 40G 八张", "H100 有 16 张", "（8 顆）"
        system = _SYSTEM.search(text[max(0, start - 6): start])  # a DGX/HGX system holds eight
        if later and (count is None or system):  # "一台 HGX H200（8 顆）": the GPUs counted, not the systems
            count = number_value(later.group("num"))
            consume_to += later.end()
        if system:  # "two HGX H200 nodes, 8 GPUs each": the eight already counted
            count = (count or 1) * GPUS_PER_SYSTEM if not (later or per_system) else count
            consume_from = min(consume_from, max(0, start - 6) + system.start())
        out.append((ident, count, start, end, consume_from, consume_to))
    return out


def _memory_matches(ident: str, gb: int) -> bool:
    """Whether the catalogue GPU `ident` carries about `gb` GB (a memory said beside a name that is not its own
    belongs to another part: the 6 GB laptop RTX 3060, a 48 GB modded 4090)."""
    from advisor.knowledge import knowledge

    gpu = knowledge().gpus.get(ident)
    return gpu is None or gb < 4 or abs(gpu.memory_gb - gb) <= 2


def _with_memory(ident: str, gb: int) -> str:
    """The catalogue GPU like `ident` (same name and form, memory aside) that carries `gb` GB, else `ident`."""
    from advisor.knowledge import knowledge

    base = re.sub(r"-?\d+gb", "", ident)
    gpus = knowledge().gpus
    if ident in gpus and abs(gpus[ident].memory_gb - gb) <= 2:
        return ident
    for other in gpus.values():
        if re.sub(r"-?\d+gb", "", other.id) == base and abs(other.memory_gb - gb) <= 2:
            return other.id
    return ident


def _known_gpu(ident: str) -> bool:
    from advisor.knowledge import knowledge

    return ident in knowledge().gpus


def _whole_count(count: float | None) -> int | None:
    """A count a person could mean (1 to 100,000 whole GPUs), else None."""
    return int(count) if count and float(count).is_integer() and 1 <= count <= 100_000 else None


def _gpus(w: _Work, ex: Extraction) -> None:
    """GPUs named, and those the writer has. A GPU is owned when a cue says so ("手上有", "we have", "in my
    tower", "已經買了"), when it continues a list of owned ones, or when it is stated with a count as a plain
    fact ("8 卡 A100 40G，两周内", "三台機器每台 4 張 A6000", "Uni lab: 4x A100 40GB") — unless its clause
    says it is an option (to rent, buy, build, compare, quote) or its sentence asks whether it would do."""
    owned: dict[str, int] = {}
    last_count: int | None = None  # the count said with the GPU named last
    last_before = ""  # the clause before it
    labels = _option_labels(w.orig)
    countless: set[str] = set()  # owned and said with no count: "our V100s"
    chosen: set[str] = set()  # not only named in what someone else claims ("a colleague says one L40S will do")
    last_owned_end = -1
    for ident, count, _start, end, consume_from, consume_to in _gpu_spans(w.text):
        ex.gpu_mentions.append(ident)
        last_count = _whole_count(count)
        last_before = re.split(r"[,;.!?，；。！？]", w.text[max(0, consume_from - 40):consume_from])[-1]
        said_before = re.split(r"[.!?。！？]\s", w.orig.lower()[:consume_from] + " ")[-1]
        claim = next(reversed(list(_HEARSAY.finditer(said_before))), None)
        enough = _ENOUGH_AFTER.match(w.orig.lower(), consume_to) or _PLAN_QUESTIONED.search(w.orig.lower(), consume_to)
        others = claim is not None and not _OWN_SAID.search(said_before, claim.end())
        unavailable = bool(_UNAVAILABLE_BEFORE.search(w.orig.lower()[max(0, consume_from - 24):consume_from])
                           or _UNAVAILABLE_AFTER.match(w.orig.lower(), consume_to))
        wish = _BOSS_WISH.search(said_before)
        doubted = wish is not None and _DOUBTED_AFTER.match(w.orig.lower(), consume_to) is not None
        # "Today we rent one H200 … would buying be cheaper?": what they rent now is the baseline, not the choice
        rented_now = bool(_NOW.search(said_before[-40:]) and _RENTED_NEAR_BEFORE.search(said_before[-24:]))
        disputed = others and _DISPUTED.search(w.orig.lower(), consume_to, consume_to + 60) is not None
        if not ((others and (enough or disputed)) or unavailable or doubted or rented_now):
            chosen.add(ident)
        if others or unavailable:  # "一张 4090D 就够了" says a colleague (to check), "廠商推薦 8 卡 H100" (an option): not theirs
            w.consume(consume_from, consume_to)
            continue
        clause = re.split(r"[,;.!?]|\bbut\b|，|；|。", w.text[max(0, consume_from - 80):consume_from])[-1]
        tail_match = _OWNED_TAIL.match(w.text[consume_to: consume_to + 40])
        tail = tail_match.group(0) if tail_match else ""
        sentence = re.split(r"[.!?。！？]\s", w.text[:consume_from] + " ")[-1] + \
            _SENTENCE_REST.match(w.text[consume_to:]).group(0)  # type: ignore[union-attr]
        # "A100 40G 八张、V100 32G 四张", "4x A100 + 2x V100": a list continues what the first item said
        listed = last_owned_end >= 0 and re.fullmatch(r"[\s,、+&和及與与跟]*(?:and|plus|加上?)?[\s\dx×*张張块塊颗顆a]*",
                                                       w.text[last_owned_end:consume_from]) is not None
        if _PRICE_TAIL.match(w.orig.lower()[consume_to: consume_to + 24]) or _BARE_PRICE_TAIL.match(w.orig, consume_to):
            ex.gpu_mentions.append(ident)  # "RTX PRO 6000 一張大概 8500 美金": a price quoted, not a card had
            w.consume(consume_from, consume_to)
            continue
        seg_start = max((m.end() for m in re.finditer(r"[\n。；;？?！!]|\.\s", w.text[:consume_from])), default=0)
        if any(seg_start <= at < consume_from for at, _ in labels):
            w.consume(consume_from, consume_to)  # "- Option B: 1x RTX 6000 Ada": weighed, not had
            continue
        intent = _NOT_OWNED.search(clause) and not _PAST.search(clause)  # "想買一張", not "去年买那台"
        after_cue = _OWN_CUE.search(w.text[end: end + 16]) and not intent  # not "想買一張 5090 放家裡"
        cue = (_OWN_CUE.search(_HAVE_PLAN.sub(" ", clause)) or _ONLY_BEFORE.search(clause) or after_cue) and not _SUPPOSE.search(clause) \
            and not _WANT_TO_GET.search(clause) and not (
            _RENTED_NEAR_AFTER.match(w.text[consume_to: consume_to + 16]) or _RENTED_NEAR_BEFORE.search(clause[-24:]))
        stated = (_whole_count(count) is not None
                  and not (_NOT_OWNED.search(clause + " " + tail) and not _PAST.search(clause))
                  and not _PURPOSE_TAIL.match(w.text, consume_to)
                  and not _HYPOTHETICAL.search(sentence))
        before = re.split(r"[.!?。！？]", w.orig.lower()[:consume_from])[-1]
        have = next(reversed(list(_HAVE_BEFORE.finditer(before))), None)  # the last said before the card
        # "實驗室現在有 2 台主機，一台 2 顆 3090…，記憶體會不會爆？": said as had earlier in the sentence, counted,
        # and nothing between says it is an option — the question is about the job, not whether they have them
        had = bool(have and _whole_count(count) and not _NOT_OWNED.search(before[have.end():]))
        if _RENTED_NEAR_AFTER.match(w.text[consume_to: consume_to + 24]):
            stated = had = False  # "all we have is a T4 in our GCP project": a cloud instance, not hardware owned
        if ident in owned and re.fullmatch(r"[^,;.!?，；。！？]{0,12}[(（]\s*", w.text[last_owned_end:consume_from]):
            owned[ident] = _whole_count(count) or owned[ident]  # "一台T4伺服器（2張T4）": the same cards restated
            countless.discard(ident)
            last_owned_end = consume_to
        elif listed or cue or stated or had:
            owned[ident] = owned.get(ident, 0) + (_whole_count(count) or 1)
            if _whole_count(count) is None:
                countless.add(ident)
            last_owned_end = consume_to
        w.consume(consume_from, consume_to)
    for _alias, start, end in _scan_aliases(w.text, _catalogue_index("gpu")):
        w.consume(start, end)  # "4090D 48G魔改版": a variant the catalogue lacks is still a GPU, not "4090 days"
    back = _HAVE_OF_THEM.search(w.text)
    if back and ex.gpu_mentions and owned.get(ex.gpu_mentions[-1], 1) == 1 and len(owned) <= 1:
        # "qlora 70b on 4090s?? i have 2 of them": the GPU just named, as many as they say
        n: float
        if back.group("these"):  # "卡是實驗室的": the cards just counted; not "想给公司买 2 张 H100…，卡是公司的"
            n = 0 if _NOT_OWNED.search(last_before) else (last_count or 1)
        elif back.group("n") is None and back.group("w") is None:
            n = 1
        else:
            n = number_value(back.group("n") or "") or _EN_WORD_NUMBERS.get(back.group("w") or "", 0)
        if n and float(n).is_integer() and 1 <= n <= 4096:
            owned[ex.gpu_mentions[-1]] = int(n)
    for ident in countless:  # "our V100s … we have 8x V100 32GB": the counted variant is the same cards
        if owned.get(ident) == 1 and any(g != ident and _family(g) == _family(ident) and g not in countless for g in owned):
            del owned[ident]
    if owned:
        ex.fields["owned_gpus"] = [{"gpu": g, "count": n} for g, n in owned.items()]
    families = {_family(g) for g in owned}  # "(V100 has no BF16) … 24 V100-SXM2-32G on hand": the cards had, not another
    wanted = [g for g in dict.fromkeys(ex.gpu_mentions) if g not in owned and g in chosen and _family(g) not in families]
    if wanted:  # named and not owned: what they ask about, rent, buy or compare ("how many H100?", "想上 H200")
        ex.fields["preferred_gpus"] = wanted[:8]


def _family(ident: str) -> str:
    """A catalogue id without its memory and form-factor variant: 'v100-sxm2-32gb' -> 'v100', 'rtx-4090d' -> 'rtx-4090d'."""
    parts = ident.split("-")
    return "-".join(parts[:2]) if parts[0] == "rtx" else parts[0]


def gpu_mentions(text: str) -> list[str]:
    """Catalogue ids of the GPUs `text` names, in order, negations included ("why not the 4090?")."""
    return [ident for ident, _count in gpu_mentions_counted(text)]


def gpu_mentions_counted(text: str) -> list[tuple[str, int | None]]:
    """The GPUs `text` names with the count said with each: "why not 8 H100s?" -> [("h100-sxm", 8)]."""
    try:
        w = normalize_text(text)
        low = "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in w)
        return [(ident, _whole_count(count)) for ident, count, *_ in _gpu_spans(low)]
    except Exception:  # noqa: BLE001 - a GPU name that cannot be scanned is no GPU mentioned
        return []


# --------------------------------------------------------------------------------------------
# Relative changes for what-if questions: "budget doubles", "预算翻倍", "deadline halves".

_DOUBLE = _c(r"doubl|twice|2x|x2|×2|翻倍|加倍|翻一倍|多一倍|增加一倍|两倍|兩倍")
_HALF = _c(r"\bhalve|\bhalf\b|cut\s+in\s+half|减半|減半|一半|砍半|少一半|砍掉一半")
_PERCENT = _c(r"(?:(?P<dir>\+|-|increase[sd]?\s+by|decrease[sd]?\s+by|up\s+by|down\s+by|more|less|增加|减少|減少|多|少|提高|降低)\s*)?(?P<pct>(?<![\d.])\d+(?:\.\d+)?)\s*%")
_REL_FIELDS: list[tuple[str, re.Pattern[str]]] = [
    ("budget_usd", _c(r"budget|money|spend|预算|預算|钱|錢|经费|經費")),
    ("deadline_days", _c(r"deadline|time\s*limit|\btime\b|schedule|期限|时间|時間|工期|截止")),
    ("concurrency", _c(r"users?|concurren|traffic|load|用户|用戶|使用者|并发|並發|流量")),
    ("context_tokens", _c(r"context|上下文")),
    ("tokens", _c(r"data|tokens?|dataset|数据|資料|数据量|資料量")),
    ("rack_kw", _c(r"power|rack|kw|功率|电力|電力|机柜|機櫃")),
]


def parse_relative(text: str) -> dict[str, float]:
    """Multiplicative changes named in `text`: {'budget_usd': 2.0} for 'what if the budget doubles'."""
    w = _Work(text)
    factor = None
    if _DOUBLE.search(w.text):
        factor = 2.0
    elif _HALF.search(w.text):
        factor = 0.5
    else:
        m = _PERCENT.search(w.text)
        if m:
            pct = float(m.group("pct"))
            direction = (m.group("dir") or "+").lower()
            down = any(word in direction for word in ("-", "decrease", "down", "less", "减少", "減少", "少", "降低"))
            factor = 1 - pct / 100 if down else 1 + pct / 100
    if factor is None or factor <= 0:
        return {}
    for name, pattern in _REL_FIELDS:
        if pattern.search(w.text):
            return {name: factor}
    return {}


# --------------------------------------------------------------------------------------------
# The whole message


_SERVING_SIGNAL = _c(  # what only a service has: users at once, request rates, a KV cache, a served weight format
    r"concurren|simultaneous|\bqps\b|\brps\b|req(?:uest)?s?\s*(?:/|per)\s*s|kv[\s-]*(?:cache|缓存|快取)|"
    r"并发|並發|同时在线|同時在線|同时使用|同時使用|同時用|同时用|同时上线|同時上線|"
    r"\b\d+\s*(?:users?|ppl|people)\b|\bteam\s+of\s+\d+|\bat\s+once\b|\bat\s+the\s+same\s+time\b|同时玩|同時玩|同时问|同時問|\bjust\s+me\b|"
    r"\btranscri(?:be|bing|ption)\b|转写|轉寫|转录|轉錄|转成字幕|轉成字幕|转成文字|轉成文字|逐字稿|语音转文字|語音轉文字|"
    # a batch or media job run on a model, with no training said: translate, summarise, label, speak, watch cameras
    r"\btranslat(?:e|ing|ion)\b|翻译|翻譯|翻成|\bsummari[sz](?:e|ing)\b|\blabel(?:l?ing)?\s+(?:~|about|around)?\s*\d|"
    r"\bzero[\s-]?shot\b|打标|打標|\btts\b|text[\s-]to[\s-]speech|语音合成|語音合成|配音|"
    r"\b(?:detect(?:ion|ing)?|tracking|track)\b[^.;!?]{0,40}?\b(?:cameras?|feeds?|streams?|video)\b|"
    r"(?:检测|檢測|偵測|侦测|追蹤|追踪)[^。；！？]{0,20}?(?:摄像头|攝影機|鏡頭|镜头|画面|畫面|视频|影片)|"
    r"(?:摄像头|攝影機|鏡頭|镜头|画面|畫面)[^。；！？]{0,20}?(?:检测|檢測|偵測|侦测|追蹤|追踪)|"
    r"\bembed(?:ding)?\s+(?:~|about|around)?\s*\d|(?:给|給)\s*\d+\s*(?:个|個|位)?\s*(?:人|用户|用戶|使用者)|"
    r"tok(?:ens?)?\s*/\s*s|(?<![a-z])(?:awq|gptq|gguf|exl2|q4|q5|q8)(?![a-z])|首\s*token|首字|\bttft\b|"
    r"\brun\s+(?:\S+\s+){0,3}locally|\bjust\s+for\s+(?:me|myself)\b|跑起来|跑起來|跑得起来|跑得起來|(?:就|只有)我自己(?:在)?用|\b(?:can|cna|cn|cann)\s+(?:i|we|u|you)\s+run\b|\brun\s+(?:\S+\s+){1,4}on\s+(?:my|our|a|an|one|two|\d)\b|跑得动|跑得動|跑不动|跑不動|running\s+on[\s-]?prem|"
    r"跑\s*(?:一下|个|個|起来|起來|得动|得動)?\s*(?:[a-z]|本地|大模型)")
_BATCH_JOB = _c(r"\bbatch\s+(?:job|run|inference)|\boffline\b|\bone[\s-]?off\b|\bembed(?:ding)?\s+(?:~|about|around)?\s*\d|"
                r"\bembed\s+(?:an?|the|our|all|every)\b|\bin\s+one\s+pass\b|"
                r"跑批|离线|離線|批量(?:推理|推論|处理|處理)|一次性|(?:全部|所有)[^，。,.]{0,8}(?:做|转成|轉成)\s*(?:embedding|向量)")
_PRETRAINED_ENCODER = _c(r"(?<![a-z])(?:bert|roberta|deberta|electra|macbert|ernie|xlm-?r|distilbert|albert)(?![a-z])")
_CLASSIFY = _c(r"分类|分類|classif(?:y|ier|ication)|(?<![a-z])ner(?![a-z])|命名实体|命名實體|情感|sentiment|意图|意圖")
"""A pretrained encoder (BERT and kin) trained to classify, tag or score: fine-tuning, whatever word it was said with."""
_TRAINING_SIGNAL = _c(r"train|tun(?:e|ing)|\bft\b|\bsft\b|lora|epoch|训|訓|微调|微調|调优|調優|语料|語料|数据集|資料集")
QUESTIONS_THAT_SET_TASK = (None, "task")
"""Answers to these questions may say the task by implication ("awq, 30 users" is a service); an answer to
another question (precision, data) fills that question and leaves the task to its own."""


def extract_detailed(text: str, locale: Locale = "en", *, task: str | None = None,
                     question: str | None = None) -> Extraction:
    """Everything `text` says, with problems. `task` (the conversation's task so far) decides
    whether a context length is a training sequence length or a serving context; `question` is the
    question being answered, if any."""
    ex = Extraction()
    if not isinstance(text, str) or not text.strip():
        return ex
    if len(text) > 4000:
        text = text[:4000]
    w = _Work(text)
    said = _Work(text)  # the message before any slot takes its words: "组一台 4090 主机" still says "buy"
    said_task = _task(w, bare_train=task is None and question in QUESTIONS_THAT_SET_TASK)
    implied = None
    if (said_task is None or (said_task == "pretrain" and not dict(_TASKS)["pretrain"].search(w.text))) and task is None \
            and _PRETRAINED_ENCODER.search(w.text) and _CLASSIFY.search(w.text) and _TRAINING_SIGNAL.search(w.text):
        said_task = "finetune"  # "用 bert-base-chinese 做文本分类，训 5 轮": a pretrained encoder trained for a task
    if not said_task and task is None and _SERVING_SIGNAL.search(w.text) and not _TRAINING_SIGNAL.search(w.text):
        implied = "inference"  # "qwen 72b awq, 50 QPS", "128k context for 3 ppl": a service, said without the word
        if question in QUESTIONS_THAT_SET_TASK:
            said_task = implied
    if said_task:
        ex.fields["task"] = said_task
    if _NO_QLORA.search(w.orig.lower()):
        ex.fields["qlora_refused"] = True  # "不想用 QLoRA（擔心品質）": a 4-bit base is no remedy to offer
    spare = _REDUNDANT.search(w.text)
    if spare and not _SPARE_ASKED.search(re.split(r"[.!?。！？]\s", w.text[:spare.start()] + " ")[-1]):
        ex.fields["redundant"] = True  # "一張卡壞了服務也不能停", "N+1", "双机热备": the peak with one replica down
    effective_task = said_task or task or implied
    training = effective_task in ("pretrain", "finetune", "lora", "qlora")
    steps: list[Callable[[], None]] = [
        lambda: _quantization(w, ex) if effective_task == "inference" else None,
        lambda: _psu(w, ex),
        lambda: _money(w, ex, locale, answering_budget=question == "budget"),
        lambda: _tariff(w, ex, locale) if "electricity_usd_per_kwh" not in ex.fields else None,
        lambda: _facility(w, ex),
        lambda: _machine(w, ex),
        lambda: _gpus(w, ex),
        lambda: _slo(w, ex) if not training else None,
        lambda: _daily_requests(w, ex) if not training else None,
        lambda: _request_shape(w, ex) if not training else None,
        lambda: _context_max(w, ex) if not training else None,
        lambda: _data(w, ex, training),
        lambda: _serving(w, ex, training),
        lambda: _usage(w, ex, training),
        lambda: _calendar(w, ex),
        lambda: _duration(w, ex) if "deadline_days" not in ex.fields else None,
        lambda: _model(w, ex),
    ]
    for step in steps:
        step()
    if ex.fields.get("budget_currency") == "CNY" and "¥" in w.orig and _JAPAN.search(w.orig.lower()) \
            and not _YUAN_SAID.search(w.orig.lower()):
        amount = ex.fields["budget_amount"]  # "small company in Tokyo, budget ¥3,000,000": yen, not yuan
        ex.fields.update(budget_currency="JPY", budget_usd=round(to_usd(amount, "JPY"), 2))
    runs = ex.fields.get("runs") or 1
    if ex.per_run_budget and runs > 1 and "budget_usd" in ex.fields and ex.fields["budget_usd"] * runs <= MAX_BUDGET_USD:
        ex.fields.update(budget_amount=ex.fields["budget_amount"] * runs,  # a run's budget, for every run planned
                         budget_usd=round(ex.fields["budget_usd"] * runs, 2))
    if ex.monthly_budget and "budget_usd" not in ex.fields and ex.fields.get("horizon_days"):
        months = ex.fields["horizon_days"] / 30.4  # "$2k a month for a year": the month's amount over the horizon
        value, cur, usd = ex.monthly_budget
        if usd * months <= MAX_BUDGET_USD:
            ex.fields.update(budget_amount=round(value * round(months), 2), budget_currency=cur,
                             budget_usd=round(usd * round(months), 2))
    if effective_task == "inference":  # "每次回覆 400 token", "15 tokens a reply": a service has no training data
        batch = ex.fields.get("tokens", 0) >= 1e6 and _BATCH_JOB.search(w.orig.lower())
        for key in ("epochs", "samples", "seq_len") if batch else ("tokens", "epochs", "samples", "seq_len"):
            ex.fields.pop(key, None)  # an offline job's volume stays: "embed ~40M documents (avg ~300 tokens)"
    acq = _acquisition(said)
    if acq is None and ex.fields.get("deployment") == "cloud" and _CLOUD_ONLY.search(_without_fallbacks(w.text)):
        acq = "rent"  # "直接用雲端", "cheapest cloud gpu": renting is what the cloud is
    if acq is None and "budget_amount" in ex.fields and "owned_gpus" not in ex.fields and _HOME.search(w.orig.lower()):
        acq = "buy"  # "3 grand budget, … on my desk at home": money for hardware at home buys it
    owned_n = sum(o["count"] for o in ex.fields.get("owned_gpus", ()))
    low = w.orig.lower()
    adding = not _NEW_MACHINE.search(low) and any(  # "想加第二張", not "should I get a second card?" (a question)
        not _ASKS.search(_clause_at(low, m.start()) + low[m.end(): m.end() + 2]) for m in _ADD_CARD.finditer(low))
    if owned_n == 1 and _UPGRADE_INTENT.search(low) and _DESKTOP.search(low) and not _NEW_MACHINE.search(low):
        ex.fields["host_owned"] = True  # "在家用桌機跑…目前是一張 3060，想升級 5090": the new card replaces it in their box
    if owned_n and (adding or ex.more_slots):
        ex.fields["host_owned"] = True  # "桌機目前插一張 4090…想加第二張", "服务器插了2张A100…再加卡": into the box they have
    if ex.more_slots and owned_n and "max_gpus" not in ex.fields:
        ex.fields["max_gpus"] = owned_n + ex.more_slots  # "插了2张…还空着4个槽": six in all
    if ex.more_slots and not owned_n and not _NEW_MACHINE.search(low):
        ex.fields["host_owned"] = True  # "機殼只能再塞一張" beside a card we do not know: their box, room for one more
        ex.fields.setdefault("max_gpus", ex.more_slots)
    if acq in (None, "either") and ex.fields.get("host_owned") and _ADD_CARD.search(w.orig.lower()):
        acq = "buy"  # "desktop with a 3090 … want to add a second card", "想再加一张": one more card, bought
    if acq == "rent" and "owned_gpus" in ex.fields and _REFUSE_BUY.search(w.orig.lower()) and not _ACQ[1][1].search(
            _blank_refusals(w.orig.lower())):
        acq = None  # "手上有4张4090，不想再花钱买卡了": no purchase, and no rental said either — their own cards
    if acq is None and ex.fields.get("host_owned") and "owned_gpus" not in ex.fields and (
            "budget_amount" in ex.fields or _UPGRADE.search(w.orig.lower())):
        acq = "buy"  # "$1,500 to put a GPU in my existing desktop", "给电脑换张显卡": a card bought for their machine
    if acq is None and (_UPGRADE_INTENT.search(w.orig.lower()) or (
            "budget_amount" in ex.fields and _GET_A_CARD.search(w.orig.lower()))):
        acq = "buy"  # "打算升級顯卡，換 5090", "should i just get a 5090? budget ~2k": a card they mean to buy
    if acq:
        ex.fields["acquisition"] = acq
    if ex.fields.get("host_owned") and owned_n and acq != "buy" and not _UPGRADE.search(w.orig.lower()) and not (
            acq == "either" and ex.fields.get("preferred_gpus")):
        del ex.fields["host_owned"]  # "got a 3090 in my gaming pc, will that work": their cards, nothing goes in
        # (kept for "would a used A6000 fix it, or rent? … the PSU already in my case": a card to get, for that box)
    if acq == "either" and ex.fields.get("deployment") == "cloud" and not _CLOUD_ONLY_SAID.search(w.text):
        del ex.fields["deployment"]  # "租云上的 A100 还是直接买卡？", "买卡还是租AutoDL": the cloud is one side
    if acq == "either" and ex.fields.get("deployment") == "on-prem" and _IF_BUY.search(w.text):
        del ex.fields["deployment"]  # "Rent or buy? If we buy it goes in our colo": the room only if they buy
    if acq == "either" and ex.fields.get("deployment") == "on-prem" and _RENT_ALLOWED.search(w.text):
        ex.fields["deployment"] = "either"  # "我們有機房，但用租的也可以": the room or the cloud
    if acq == "either" and ex.fields.get("deployment") == "on-prem" and not ex.fields.get("cloud_refused"):
        if not _ONPREM.search(_OWN_KIT.sub(" ", w.text)):
            del ex.fields["deployment"]  # "currently on Lambda; would buying our own servers pay off?": no room named
        elif _CLOUD.search(_SELF_PROVIDER.sub(" ", w.text)):
            ex.fields["deployment"] = "either"  # "目前在台智雲租…改成自己買伺服器放機房": the cloud now, or their room
    if "deployment" not in ex.fields and ex.fields.get("owned_gpus") and _RACKED.search(w.text):
        ex.fields["deployment"] = "on-prem"  # "现有4台8卡H800，机柜每柜限电12kW": their GPUs, in their racks
    if acq == "buy" and "deployment" not in ex.fields and _PLACED.search(w.text):
        ex.fields["deployment"] = "on-prem"  # bought and put somewhere of their own
    if _COMPANY.search(w.orig.lower()) and not _PERSONAL.search(w.orig.lower()):
        ex.fields["company"] = True  # "我们是深圳的一家公司", "our company wants…": it buys new, with an invoice
    prec = _precision(w)
    if prec and "precision" not in ex.fields:
        ex.fields["precision"] = prec
    if _NO_DEADLINE.search(w.orig.lower()) and "deadline_days" not in ex.fields:
        ex.no_deadline = True  # not "No rush, but I'd like it done by Feb 1": the date they give stands
    if "budget_usd" not in ex.fields and _NO_BUDGET.search(w.orig.lower()):
        ex.no_budget = True
    edit = _EDIT_MARK.search(text)
    if edit and _EDIT_CUE.search(text, edit.end()):  # "第 1 条附言：老板刚批了，预算提到 80 万": the writer's last word
        later = extract_detailed(text[edit.end():], locale, task=ex.fields.get("task") or task, question=question)
        for group in _EDIT_WINS:
            if group[0] in later.fields:
                for key in group:
                    ex.fields.pop(key, None)
                    if key in later.fields:
                        ex.fields[key] = later.fields[key]
    return ex


_EDIT_CUE = _c(r"\bnot\s+(?:[~$¥€£]?\d|[a-z]{1,4}\d)|\bactually\b|\binstead\b|\b(?:raised|bumped|cut|lowered|changed|moved|pushed|"
               r"increased|reduced)\s+(?:it\s+)?to\b|\bnow\s+(?:it'?s|is|we\s+have)\b|\bcorrection\b|其实|其實|不是|唔係|"
               r"改成|改为|改為|提到|提高到|降到|砍到|变成|變成|更正|修正|批了|批下來|批下来")
"""In an EDIT / 補充 / 附言 line, a word that says it corrects what was said: "actually", "raised to", "not 40k", "提到"."""
_EDIT_WINS = (("budget_amount", "budget_currency", "budget_usd"), ("deadline_days",), ("samples",), ("tokens",),
              ("epochs",), ("concurrency",), ("context_tokens",), ("seq_len",), ("model", "model_text", "params", "active_params"))
"""Slots an EDIT / 補充 / 附言 line overrides when it states them again."""


def extract(text: str, locale: Locale = "en", *, task: str | None = None) -> dict[str, Any]:
    """Profile fields that `text` states (keys of `advisor.models.Profile`), nothing else."""
    return dict(extract_detailed(text, locale, task=task).fields)
