"""Property tests: arbitrary text — CJK, emoji, control characters, huge numbers, fragments of real
answers glued together — fed to every parser and to whole conversations. Nothing but a localized
reply ever comes out: no exception, no invalid profile, no hidden internal error.

Together the tests below draw well over 10,000 inputs per run (see EXAMPLES)."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.conversation.flow import REPLY_KINDS, Conversation, Reply
from advisor.conversation.numbers import find_numbers, parse_number
from advisor.conversation.parsers import extract_detailed, gpu_mentions, parse_duration_days, parse_relative
from advisor.conversation.questions import read_bare
from advisor.i18n import detect_language, t
from advisor.knowledge import knowledge
from advisor.models import LOCALES, Profile
from tests.conversation.conftest import fake_recommend

EXAMPLES = {"parsers": 5000, "numbers": 1500, "conversation": 1000}  # inputs: 5000 + 1500 + ~8000 messages

FRAGMENTS = [
    "LoRA", "QLoRA", "微调", "微調", "预训练", "從頭訓練", "推理", "推論", "serve", "pretrain", "fine-tune", "全参数",
    "Llama 3 8B", "lama3 70b", "qwen 2.5-72b", "通义千问", "Mistral 7B", "Mixtral 8x7B", "13B", "70亿参数", "七十億參數",
    "tokens", "token", "亿", "億", "万", "萬", "千", "k", "M", "B", "billion", "trillion", "examples", "条样本", "筆樣本",
    "张图片", "images", "epochs", "轮", "輪", "concurrent users", "并发", "同時在線", "context", "上下文", "8k", "32K",
    "req/s", "每秒", "budget", "预算", "預算", "$", "USD", "美元", "美金", "人民币", "元", "¥", "NT$", "新台幣", "€", "HKD",
    "kW", "千瓦", "W", "瓦", "V", "伏", "A", "安", "three-phase", "三相", "单相", "风冷", "氣冷", "液冷", "liquid", "air",
    "cloud", "云", "雲端", "on-prem", "机房", "機房", "days", "天", "weeks", "周", "週", "个月", "個月", "半年", "within",
    "内", "內", "bf16", "fp16", "FP8", "fp32", "纯 bf16", "buy", "rent", "买", "租", "either", "have", "手上只有", "张",
    "張", "x", "×", "RTX 4090", "A100 80GB", "H100", "not", "不是", "instead of", "而不是", "what if", "如果", "翻倍",
    "doubles", "减半", "%", "why", "为什么", "什么是", "?", "？", "，", ",", "。", ".", " ", "  ", "-", "−", "负", "0",
    "config.json", "/tmp/nope/config.json", "🙂", "🚀", "\u200b", "\t", "\n", "\u3000", "ＡＢＣ", "１２３", "PUE", "kWh",
    "/度", "电价", "per second", "QPS", "seq len", "序列长度", "ok", "默认", "預設", "跳过", "yes", "no", "没有",
]
HUGE = st.one_of(
    st.integers(min_value=-10**40, max_value=10**40).map(str),
    st.floats(allow_nan=True, allow_infinity=True, width=64).map(repr),
    st.integers(min_value=0, max_value=10**6).map(lambda n: f"{n:,}"),
    st.text(alphabet="零〇一二两兩三四五六七八九十百千万萬亿億", min_size=1, max_size=30),
    st.decimals(allow_nan=False, allow_infinity=False, places=3).map(str),
)
RANDOM_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), max_codepoint=0x1FAFF), max_size=120
)
STRUCTURED = st.lists(st.one_of(st.sampled_from(FRAGMENTS), HUGE, RANDOM_TEXT.map(lambda s: s[:8])),
                      min_size=1, max_size=14).map(" ".join)
MESSAGE = st.one_of(STRUCTURED, STRUCTURED.map(lambda s: s.replace(" ", "")), RANDOM_TEXT)
LOCALE = st.sampled_from(LOCALES)
PROFILE_FIELDS = set(Profile.model_fields)


def _public(fields: dict) -> dict:
    return {k: v for k, v in fields.items() if not k.startswith("_") and k != "model_config"}


@settings(max_examples=EXAMPLES["parsers"], deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=MESSAGE, locale=LOCALE, task=st.sampled_from([None, "pretrain", "finetune", "lora", "qlora", "inference"]))
def test_parsers_on_arbitrary_text(text: str, locale: str, task: str | None) -> None:
    ex = extract_detailed(text, locale, task=task)
    public = _public(ex.fields)
    assert set(public) <= PROFILE_FIELDS
    # Whatever was read makes a valid Profile: positive sizes, finite money, known ids.
    profile = Profile.model_validate(public)
    for gpu in profile.owned_gpus:
        assert gpu.gpu in knowledge().gpus
    if profile.model is not None:
        assert profile.model in knowledge().models
    for key, values in ex.problems:
        assert key in knowledge().ui
    # The other pure helpers never raise either.
    for factor in parse_relative(text).values():
        assert math.isfinite(factor) and factor > 0
    days = parse_duration_days(text)
    assert days is None or 0 < days <= 36500
    assert detect_language(text, locale) in (None, *LOCALES)
    assert all(g in knowledge().gpus for g in gpu_mentions(text))
    for key in ("task", "model", "data", "serving", "precision", "deadline", "budget", "facility"):
        fields, problem = read_bare(key, text, Profile())
        Profile.model_validate(_public(fields))
        assert problem is None or problem in knowledge().ui


@settings(max_examples=EXAMPLES["numbers"], deadline=None, database=None)
@given(text=st.one_of(HUGE, RANDOM_TEXT, STRUCTURED))
def test_numbers_on_arbitrary_text(text: str) -> None:
    value = parse_number(text)
    assert value is None or math.isfinite(value)
    for number, start, end in find_numbers(text):
        assert math.isfinite(number) and 0 <= start < end <= len(text)


_SAVE_DIR = Path(tempfile.mkdtemp(prefix="conv-props-"))
COMMAND = st.one_of(
    st.sampled_from(["/back", "/reset", "/help", "/why", "/lang zh-Hant", "/lang en", "/lang zh-Hans", "/lang ??",
                     "/语言 繁體", "/返回", "/save", "/nonsense", "yes", "对", "", "keep it", "就这样",
                     "what if the budget doubles?", "如果预算翻倍呢？", "why not the 4090?", "为什么不推荐 H100？",
                     "什么是显存碎片？", "why ECC?"]),
    st.text(alphabet="abcdefghij-_", min_size=1, max_size=12).map(lambda n: f"/save {_SAVE_DIR}/{n}.md"),
)


@settings(max_examples=EXAMPLES["conversation"], deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(locale=LOCALE, messages=st.lists(st.one_of(MESSAGE, COMMAND), min_size=1, max_size=6), walk=st.booleans())
def test_whole_conversation_only_replies(locale: str, messages: list[str], walk: bool) -> None:
    conv = Conversation(locale, persist=False)
    conv._run_recommend = lambda profile: fake_recommend(profile, conv.locale)  # type: ignore[method-assign]
    internal = {t("conv.error.internal", loc, detail="").split("(")[0].split("（")[0] for loc in LOCALES}
    replies = conv.start()
    if walk:  # reach the advice stage first, so that later messages exercise what-if, /why, corrections
        for _ in range(9):
            replies += conv.handle("")
    for message in messages:
        replies += conv.handle(message)
    for reply in replies:
        assert isinstance(reply, Reply) and reply.kind in REPLY_KINDS
        assert isinstance(reply.text, str) and reply.text.strip()
        assert not any(reply.text.startswith(prefix) for prefix in internal), reply.text
    assert conv.locale in LOCALES
    Profile.model_validate(conv.profile.model_dump())
