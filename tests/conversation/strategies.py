"""Hypothesis strategies shared by the property tests: arbitrary text (CJK, emoji, control characters,
huge numbers) and fragments of real answers glued together.

EXAMPLES sets how many examples each property test draws; together they feed well over 10,000
inputs per run (5,000 parser texts + 1,500 number texts + 1,000 conversations of about 8 messages)."""

from __future__ import annotations

from hypothesis import strategies as st

from advisor.models import LOCALES, Profile

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
    return dict(fields)


