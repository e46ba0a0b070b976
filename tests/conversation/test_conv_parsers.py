"""Slot parsers, table by table, in English, Simplified Chinese and Traditional Chinese.

Each row is (message, fields that must come out). Expected values are worked out by hand from the
message; model sizes are checked against the publishers' own parameter counts (Hugging Face model
cards / config.json, as collected in numeric-anchors.md §4), circuit capacities against HP's
"Power basics for IT professionals" Table 4 (NEC 80 % rule), exchange rates against published
ranges (HKMA convertibility band; PBoC, CBC Taiwan and ECB reference rates of 2024-2025).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from advisor.currency import USD_PER_UNIT
from advisor.conversation.parsers import (
    circuit_kw,
    context_tokens_from,
    extract,
    extract_detailed,
    parse_duration_days,
    parse_money,
    parse_relative,
    parse_task,
)

B = 1e9


def _check(fields: dict[str, Any], expected: dict[str, Any]) -> None:
    for key, want in expected.items():
        assert key in fields, f"{key} missing from {fields}"
        got = fields[key]
        if isinstance(want, list) and isinstance(got, tuple):
            got = list(got)
        if isinstance(want, tuple) and len(want) == 2 and all(isinstance(x, (int, float)) for x in want):
            assert want[0] <= got <= want[1], f"{key}={got} not in {want}"
        elif isinstance(want, float):
            assert got == pytest.approx(want, rel=1e-3), f"{key}={got} != {want}"
        else:
            assert got == want, f"{key}={got!r} != {want!r}"


# Parameter counts published by the model makers (HF model cards / config.json, numeric-anchors.md §4).
MISTRAL_7B = (7.2e9, 7.3e9)        # 7.24B
LLAMA3_8B = (8.0e9, 8.06e9)        # 8.03B
LLAMA3_70B = (70.4e9, 70.7e9)      # 70.6B
QWEN25_72B = (72.6e9, 72.8e9)      # 72.7B
QWEN25_7B = (7.6e9, 7.65e9)        # 7.62B
QWEN25_14B = (14.7e9, 14.8e9)      # 14.8B
MIXTRAL_8X7B = (46.6e9, 46.8e9)    # 46.7B total

EN: list[tuple[str, dict[str, Any]]] = [
    # tasks
    ("I want to pretrain a model from scratch", {"task": "pretrain"}),
    ("train from scratch", {"task": "pretrain"}),
    ("full fine-tune", {"task": "finetune"}),
    ("full-parameter finetuning", {"task": "finetune"}),
    ("fine-tune it", {"task": "finetune"}),
    ("LoRA please", {"task": "lora"}),
    ("QLoRA", {"task": "qlora"}),
    ("fine-tune with QLoRA", {"task": "qlora"}),
    ("serve it to our users", {"task": "inference"}),
    ("inference only", {"task": "inference"}),
    ("deploy a chatbot", {"task": "inference"}),
    # models, with typos
    ("Llama 3 8B", {"model": "llama-3-8b", "params": LLAMA3_8B}),
    ("lama3 8b", {"model": "llama-3-8b", "params": LLAMA3_8B}),
    ("llama3 70b", {"model": "llama-3-70b", "params": LLAMA3_70B}),
    ("qwen 2.5-72b", {"model": "qwen2.5-72b", "params": QWEN25_72B}),
    ("Qwen2.5-14B", {"model": "qwen2.5-14b", "params": QWEN25_14B}),
    ("mistrall 7b", {"model": "mistral-7b", "params": MISTRAL_7B}),
    ("Mixtral 8x7B", {"model": "mixtral-8x7b", "params": MIXTRAL_8X7B, "active_params": (12.8e9, 13.0e9)}),
    ("meta-llama/Meta-Llama-3-8B", {"model": "llama-3-8b"}),
    # bare sizes
    ("13B", {"params": 13_000_000_000}),
    ("a 7 billion parameter model", {"params": 7_000_000_000}),
    ("125M parameters", {"params": 125_000_000}),
    ("Falcon 40B", {"params": 40_000_000_000, "model_text": "Falcon 40B"}),
    ("not 8B, 70B", {"params": 70_000_000_000}),
    ("use 70B rather than 8B", {"params": 70_000_000_000}),
    # data
    ("2B tokens", {"tokens": 2_000_000_000}),
    ("1.4 trillion tokens", {"tokens": 1_400_000_000_000}),
    ("50M tokens", {"tokens": 50_000_000}),
    ("tokens: 300k", {"tokens": 300_000}),
    ("10k examples of 512 tokens", {"samples": 10_000, "seq_len": 512, "tokens": 5_120_000}),
    ("20,000 examples averaging 800 tokens", {"samples": 20_000, "seq_len": 800, "tokens": 16_000_000}),
    ("100k samples x 1024 tokens", {"samples": 100_000, "tokens": 102_400_000}),
    ("1.2M images", {"samples": 1_200_000}),
    ("3 epochs", {"epochs": 3.0}),
    ("epochs: 2", {"epochs": 2.0}),
    ("sequence length 4096", {"seq_len": 4096}),
    # serving
    ("500 concurrent users", {"concurrency": 500}),
    ("1000 users at once", {"concurrency": 1000}),
    ("concurrency of 64", {"concurrency": 64}),
    ("16k context", {"context_tokens": 16384}),
    ("context window of 128k", {"context_tokens": 131072}),
    ("32K context", {"context_tokens": 32768}),
    ("50 requests per second", {"requests_per_second": 50.0}),
    ("20 req/s", {"requests_per_second": 20.0}),
    ("QPS 30", {"requests_per_second": 30.0}),
    # money
    ("budget $300k", {"budget_usd": 300_000.0, "budget_currency": "USD"}),
    ("$2M", {"budget_usd": 2_000_000.0}),
    ("budget 50k", {"budget_usd": 50_000.0, "budget_currency": "USD"}),
    ("30,000 USD", {"budget_usd": 30_000.0}),
    ("80000 dollars", {"budget_usd": 80_000.0}),
    ("budget €200k", {"budget_amount": 200_000.0, "budget_currency": "EUR"}),
    ("NT$3,000,000", {"budget_amount": 3_000_000.0, "budget_currency": "TWD"}),
    ("Budget 30k RMB", {"budget_amount": 30_000.0, "budget_currency": "CNY"}),
    ("HK$780,000", {"budget_amount": 780_000.0, "budget_currency": "HKD"}),
    ("5 million yen", {"budget_amount": 5_000_000.0, "budget_currency": "JPY"}),
    ("£50k", {"budget_amount": 50_000.0, "budget_currency": "GBP"}),
    ("we'd rather rent", {"acquisition": "rent"}),
    ("we want to buy", {"acquisition": "buy"}),
    ("buy or rent, either", {"acquisition": "either"}),
    # facility
    ("12 kW per rack", {"rack_kw": 12.0}),  # a rack alone does not say where it runs (phrasing cases, README)
    ("1500 W", {"rack_kw": 1.5}),
    ("on-prem with liquid cooling", {"deployment": "on-prem", "cooling": "liquid"}),
    ("air cooled", {"cooling": "air"}),
    ("in the cloud", {"deployment": "cloud"}),
    ("AWS", {"deployment": "cloud"}),
    ("cloud or on-prem", {"deployment": "either"}),
    ("208V 30A three-phase", {"rack_kw": 8.646}),          # HP Table 4: 8,646 VA
    ("240 V 30 A single phase", {"rack_kw": 5.76}),       # HP Table 4: 5,760 VA
    ("120V 20A", {"rack_kw": 1.92}),                      # HP Table 4: 1,920 VA
    ("208 V 60 A 3-phase", {"rack_kw": 17.292}),          # HP Table 4: 17,292 VA
    ("electricity is $0.15/kWh", {"electricity_usd_per_kwh": 0.15}),
    ("PUE 1.3", {"pue": 1.3}),
    # time
    ("within two weeks", {"deadline_days": 14.0}),
    ("in 6 weeks", {"deadline_days": 42.0}),
    ("10 days", {"deadline_days": 10.0}),
    ("3 months", {"deadline_days": 90.0}),
    ("48 hours", {"deadline_days": 2.0}),
    ("a fortnight", {"deadline_days": 14.0}),
    ("half a year", {"deadline_days": 182.0}),
    # precision
    ("bf16", {"precision": "bf16-mixed"}),
    ("fp16", {"precision": "fp16-mixed"}),
    ("FP8", {"precision": "fp8-mixed"}),
    ("fp32", {"precision": "fp32"}),
    ("pure bf16", {"precision": "bf16"}),
    # GPUs you have
    ("we have 8x A100 80GB", {"owned_gpus": [{"gpu": "a100-80gb-sxm", "count": 8}]}),
    ("we own 16 H100s and 4 RTX 4090", {"owned_gpus": [{"gpu": "h100-sxm", "count": 16}, {"gpu": "rtx-4090", "count": 4}]}),
    ("we have two 4090s", {"owned_gpus": [{"gpu": "rtx-4090", "count": 2}]}),
    ("I already have an RTX 3090", {"owned_gpus": [{"gpu": "rtx-3090", "count": 1}]}),
    ("we have 2 nodes of 8x H100", {"owned_gpus": [{"gpu": "h100-sxm", "count": 16}]}),
    ("we need it done by next week", {"deadline_days": 7.0}),
    ("with 8k seq len", {"seq_len": 8192}),
    ("serve llama 70b", {"model": "llama-3-70b"}),  # no version typed: the newest of equal matches
]

ZH_HANS: list[tuple[str, dict[str, Any]]] = [
    ("从零预训练", {"task": "pretrain"}),
    ("从头训练一个模型", {"task": "pretrain"}),
    ("预训练", {"task": "pretrain"}),
    ("全参数微调", {"task": "finetune"}),
    ("全量微调", {"task": "finetune"}),
    ("LoRA 微调", {"task": "lora"}),
    ("改用 QLoRA", {"task": "qlora"}),
    ("推理", {"task": "inference"}),
    ("部署上线", {"task": "inference"}),
    ("不是 LoRA，是 QLoRA", {"task": "qlora"}),
    ("通义千问 72B", {"model": "qwen2.5-72b", "params": QWEN25_72B}),
    ("用deepseek 7b", {"model": "deepseek-llm-7b"}),
    ("七十亿参数", {"params": 7_000_000_000}),
    ("70亿参数", {"params": 7_000_000_000}),
    ("三百五十亿参数的模型", {"params": 35_000_000_000}),
    ("30 亿参数的模型", {"params": 3_000_000_000}),
    ("不是 8B，是 70B", {"params": 70_000_000_000}),
    ("600 亿 token", {"tokens": 60_000_000_000}),
    ("数据 5 亿 token", {"tokens": 500_000_000}),
    ("15万亿 token", {"tokens": 15_000_000_000_000}),
    ("5万条样本，平均 800 token", {"samples": 50_000, "seq_len": 800, "tokens": 40_000_000}),
    ("10 万条样本，每条约 1000 token", {"samples": 100_000, "tokens": 100_000_000}),
    ("100 万张图片", {"samples": 1_000_000}),
    ("训练 3 轮", {"epochs": 3.0}),
    ("3 个 epoch", {"epochs": 3.0}),
    ("两轮", {"epochs": 2.0}),
    ("200 并发", {"concurrency": 200}),
    ("并发 64", {"concurrency": 64}),
    ("1000 人同时在线", {"concurrency": 1000}),
    ("上下文 32k", {"context_tokens": 32768}),
    ("上下文长度 128k", {"context_tokens": 131072}),
    ("每秒 20 个请求", {"requests_per_second": 20.0}),
    ("预算三万美元", {"budget_usd": 30_000.0, "budget_currency": "USD"}),
    ("预算 8 万美元", {"budget_usd": 80_000.0}),
    ("预算改成 5 万美元", {"budget_usd": 50_000.0}),
    ("2.5万刀", {"budget_usd": 25_000.0}),
    ("预算 50 万人民币", {"budget_amount": 500_000.0, "budget_currency": "CNY"}),
    ("预算 ¥300,000", {"budget_amount": 300_000.0, "budget_currency": "CNY"}),
    ("预算 20 万元", {"budget_amount": 200_000.0, "budget_currency": "CNY"}),
    ("预算两千美元", {"budget_usd": 2_000.0}),
    ("预算 3千美元", {"budget_usd": 3_000.0}),
    ("预算 100 万港币", {"budget_amount": 1_000_000.0, "budget_currency": "HKD"}),
    ("20 万欧元", {"budget_amount": 200_000.0, "budget_currency": "EUR"}),
    ("租卡", {"acquisition": "rent"}),
    ("买卡", {"acquisition": "buy"}),
    ("买或租都行", {"acquisition": "either"}),
    ("机房单个机柜 12 千瓦", {"rack_kw": 12.0, "deployment": "on-prem"}),
    ("风冷", {"cooling": "air"}),
    ("液冷", {"cooling": "liquid"}),
    ("云上", {"deployment": "cloud"}),
    ("阿里云", {"deployment": "cloud"}),
    ("自建机房", {"deployment": "on-prem"}),
    ("380 伏 32 安 三相", {"rack_kw": 380 * 32 * math.sqrt(3) * 0.8 / 1000}),
    ("3千瓦", {"rack_kw": 3.0}),
    ("电价 0.8 元/度", {"electricity_usd_per_kwh": (0.8 / 7.35, 0.8 / 6.9)}),
    ("两周内", {"deadline_days": 14.0}),
    ("六周内要完成", {"deadline_days": 42.0}),
    ("3 个月", {"deadline_days": 90.0}),
    ("半年", {"deadline_days": 182.0}),
    ("一个半月", {"deadline_days": 45.0}),
    ("10 天", {"deadline_days": 10.0}),
    ("72 小时", {"deadline_days": 3.0}),
    ("两个星期", {"deadline_days": 14.0}),
    ("混合精度", {"precision": "bf16-mixed"}),
    ("纯 bf16", {"precision": "bf16"}),
    ("手上只有一张 RTX 4090", {"owned_gpus": [{"gpu": "rtx-4090", "count": 1}]}),
    ("我们有 4 张 A100", {"owned_gpus": [{"gpu": "a100-80gb-sxm", "count": 4}]}),
    ("现有一台 8 卡 H100 服务器", {"owned_gpus": [{"gpu": "h100-sxm", "count": 8}]}),
    ("我们有两台 8 卡 A100 服务器", {"owned_gpus": [{"gpu": "a100-80gb-sxm", "count": 16}]}),
    ("下个月上线", {"deadline_days": 30.0, "task": "inference"}),
]

ZH_HANT: list[tuple[str, dict[str, Any]]] = [
    ("從頭訓練", {"task": "pretrain"}),
    ("預訓練一個模型", {"task": "pretrain"}),
    ("全參數微調", {"task": "finetune"}),
    ("LoRA 微調", {"task": "lora"}),
    ("推論部署", {"task": "inference"}),
    ("通義千問 72B", {"model": "qwen2.5-72b"}),
    ("70 億參數", {"params": 7_000_000_000}),
    ("七十億參數", {"params": 7_000_000_000}),
    ("三百五十億參數", {"params": 35_000_000_000}),
    ("資料約 1,400 億 token", {"tokens": 140_000_000_000}),
    ("5 萬筆樣本，每筆平均 600 token", {"samples": 50_000, "seq_len": 600, "tokens": 30_000_000}),
    ("100 萬張圖片", {"samples": 1_000_000}),
    ("訓練 3 輪", {"epochs": 3.0}),
    ("兩輪", {"epochs": 2.0}),
    ("同時在線 300 人", {"concurrency": 300}),
    ("並發 64", {"concurrency": 64}),
    ("上下文 16K", {"context_tokens": 16384}),
    ("每秒 10 個請求", {"requests_per_second": 10.0}),
    ("預算新台幣 100 萬", {"budget_amount": 1_000_000.0, "budget_currency": "TWD"}),
    ("預算 30 萬台幣", {"budget_amount": 300_000.0, "budget_currency": "TWD"}),
    ("預算 NT$5,000,000", {"budget_amount": 5_000_000.0, "budget_currency": "TWD"}),
    ("預算 300 萬元", {"budget_amount": 3_000_000.0, "budget_currency": "TWD"}),  # 元 in Taiwan = NT$
    ("預算三萬美金", {"budget_usd": 30_000.0}),
    ("預算兩千美元", {"budget_usd": 2_000.0}),
    ("預算 50 萬人民幣", {"budget_amount": 500_000.0, "budget_currency": "CNY"}),
    ("買或租都可以", {"acquisition": "either"}),
    ("租用", {"acquisition": "rent"}),
    ("購買", {"acquisition": "buy"}),
    ("機櫃 8 千瓦", {"rack_kw": 8.0}),
    ("氣冷", {"cooling": "air"}),
    ("風冷", {"cooling": "air"}),
    ("液冷", {"cooling": "liquid"}),
    ("雲端", {"deployment": "cloud"}),
    ("自有機房", {"deployment": "on-prem"}),
    ("220 伏 30 安 單相", {"rack_kw": 5.28}),
    ("208 伏 30 安 三相", {"rack_kw": 8.646}),
    ("電價每度 4 元", {"electricity_usd_per_kwh": (4 / 33.0, 4 / 29.0)}),
    ("兩週內", {"deadline_days": 14.0}),
    ("六週內", {"deadline_days": 42.0}),
    ("三個月內", {"deadline_days": 90.0}),
    ("半個月", {"deadline_days": 15.0}),
    ("一個星期", {"deadline_days": 7.0}),
    ("純 bf16", {"precision": "bf16"}),
    ("手上只有一張 RTX 4090", {"owned_gpus": [{"gpu": "rtx-4090", "count": 1}]}),
    ("我們有兩張 4090", {"owned_gpus": [{"gpu": "rtx-4090", "count": 2}]}),
    ("不是 LoRA，是全參數微調", {"task": "finetune"}),
]


@pytest.mark.parametrize("text,expected", EN)
def test_english(text: str, expected: dict[str, Any]) -> None:
    _check(extract(text, "en"), expected)


@pytest.mark.parametrize("text,expected", ZH_HANS)
def test_simplified(text: str, expected: dict[str, Any]) -> None:
    _check(extract(text, "zh-Hans"), expected)


@pytest.mark.parametrize("text,expected", ZH_HANT)
def test_traditional(text: str, expected: dict[str, Any]) -> None:
    _check(extract(text, "zh-Hant"), expected)


def test_table_size() -> None:
    assert len(EN) + len(ZH_HANS) + len(ZH_HANT) >= 150


# ---------------------------------------------------------------------------- only what the text says

@pytest.mark.parametrize("text", ["", "   ", "hello", "你好", "ok", "thanks!", "🙂", "不知道", "batch size 32"])
def test_nothing_said_nothing_extracted(text: str) -> None:
    assert extract(text, "en") == {}


def test_gpu_named_without_ownership_is_not_owned() -> None:
    assert "owned_gpus" not in extract("should we use 8 H100s?", "en")
    assert "owned_gpus" not in extract("为什么不推荐 4090？", "zh-Hans")


@pytest.mark.parametrize(("text", "locale", "owned"), [
    # a count stated as a plain fact is hardware the writer has
    ("跑 SFT，6 张 A800 80G，一周内", "zh-Hans", [("a800-80gb", 6)]),
    ("實驗室兩台伺服器，每台 4 張 L40S", "zh-Hant", [("l40s", 8)]),
    ("Department cluster: 3x DGX H100, want to pretrain 3B", "en", [("h100-sxm", 24)]),
    ("one HGX H100 (8 GPUs) in our DC", "en", [("h100-sxm", 8)]),
    ("2x 4070 Ti in my rig", "en", [("rtx-4070-ti", 2)]),
    ("家裡一張 3060，想跑 7B", "zh-Hant", [("rtx-3060", 1)]),
    ("一张 H800 加两张 A800", "zh-Hans", [("h800", 1), ("a800-80gb", 2)]),
    # named as an option, a purchase, a rental or a question: not owned
    ("想租 4 张 H800 跑一周", "zh-Hans", None),
    ("4 張 A6000 夠不夠跑 70B？", "zh-Hant", None),
    ("quote for 16x B200 or 16x H200", "en", None),
    ("would 2x 3090 beat 1x 4090 here", "en", None),
    ("打算组一台 2 张 4090 的机器", "zh-Hans", None),
])
def test_owned_hardware_stated_or_optional(text: str, locale: str, owned: list[tuple[str, int]] | None) -> None:
    got = extract(text, locale).get("owned_gpus")
    assert (sorted((o["gpu"], o["count"]) for o in got) if got else None) == (sorted(owned) if owned else None)


def test_training_context_is_a_sequence_length() -> None:
    assert extract("LoRA with 4k context", "en") == {"task": "lora", "seq_len": 4096}
    assert extract("8k context", "en", task="lora") == {"seq_len": 8192}
    assert extract("8k context", "en", task="inference") == {"context_tokens": 8192}


def test_training_word_does_not_override_a_known_task() -> None:
    assert "task" not in extract("训练 3 轮", "zh-Hans", task="lora")
    assert extract("训练一个 7B 模型", "zh-Hans")["task"] == "pretrain"


# ---------------------------------------------------------------------------- problems, not values

@pytest.mark.parametrize("text", ["budget -5000 USD", "预算负 5000 美元", "budget: -100", "$0", "budget 0"])
def test_non_positive_budget_is_a_problem(text: str) -> None:
    ex = extract_detailed(text, "en")
    assert "budget_usd" not in ex.fields
    assert [k for k, _ in ex.problems] == ["conv.problem.budget_positive"]


def test_voltage_without_current_is_incomplete() -> None:
    ex = extract_detailed("our room has 230 V", "en")
    assert "rack_kw" not in ex.fields
    assert [k for k, _ in ex.problems] == ["conv.problem.circuit_incomplete"]


def test_missing_config_file_is_a_problem(tmp_path) -> None:
    ex = extract_detailed(f"use {tmp_path}/missing/config.json", "en")
    assert "params" not in ex.fields
    assert ex.problems[0][0] == "conv.problem.config"


def test_config_json_gives_exact_parameters() -> None:
    # tests/core/configs/llama-3.1-8b.json is Meta's config: 8,030,261,248 parameters (model card: 8.03B).
    ex = extract_detailed("model config at tests/core/configs/llama-3.1-8b.json", "en")
    assert ex.fields["params"] == 8_030_261_248
    assert ex.fields["model_text"].endswith("llama-3.1-8b.json")


# ---------------------------------------------------------------------------- units and conversions

def test_circuit_formula_matches_hp_table() -> None:
    # HP "Power basics for IT professionals", Table 4 (NEC 80 % continuous load).
    assert circuit_kw(208, 30, True) == pytest.approx(8.646, abs=0.001)
    assert circuit_kw(208, 60, True) == pytest.approx(17.292, abs=0.001)
    assert circuit_kw(240, 50, False) == pytest.approx(9.6)
    assert circuit_kw(120, 30, False) == pytest.approx(2.88)
    assert circuit_kw(208, 30, True, circuits=2) == pytest.approx(17.292, abs=0.001)


def test_exchange_rates_within_published_ranges() -> None:
    # HKMA Linked Exchange Rate System: convertibility band 7.75-7.85 HKD per USD.
    assert 1 / 7.85 <= USD_PER_UNIT["HKD"] <= 1 / 7.75
    # PBoC central parity 2024-2025: about 7.09-7.20 CNY per USD.
    assert 1 / 7.35 <= USD_PER_UNIT["CNY"] <= 1 / 7.0
    # CBC Taiwan 2024-2025: about 29-33 TWD per USD.
    assert 1 / 33 <= USD_PER_UNIT["TWD"] <= 1 / 29
    # ECB reference 2024-2025: about 1.02-1.18 USD per EUR.
    assert 1.02 <= USD_PER_UNIT["EUR"] <= 1.18


def test_money_keeps_the_original_amount() -> None:
    money = parse_money("预算 50 万人民币", "zh-Hans")
    assert money is not None
    assert (money.amount, money.currency) == (500_000, "CNY")
    assert 500_000 / 7.35 <= money.usd <= 500_000 / 7.0
    assert parse_money("300 萬元", "zh-Hant").currency == "TWD"
    assert parse_money("300 万元", "zh-Hans").currency == "CNY"


def test_context_sizes_are_powers_of_two() -> None:
    # Llama 3's "8K" context is max_position_embeddings = 8192 (config.json).
    assert context_tokens_from("8k") == 8192
    assert context_tokens_from("128K") == 131072
    assert context_tokens_from("100k") == 100_000
    assert context_tokens_from("4096") == 4096


def test_duration_and_task_helpers() -> None:
    assert parse_duration_days("两周内") == 14
    assert parse_duration_days("2024年") is None  # a calendar year, not a duration
    assert parse_duration_days("3月") is None      # March
    assert parse_task("QLoRA 微調") == "qlora"
    assert parse_task("hello") is None


@pytest.mark.parametrize("text,expected", [
    ("what if the budget doubles?", {"budget_usd": 2.0}),
    ("如果预算翻倍呢？", {"budget_usd": 2.0}),
    ("如果預算加倍呢？", {"budget_usd": 2.0}),
    ("what if we halve the deadline", {"deadline_days": 0.5}),
    ("预算减半", {"budget_usd": 0.5}),
    ("budget +50%", {"budget_usd": 1.5}),
    ("what if users double", {"concurrency": 2.0}),
    ("what if we use QLoRA", {}),
])
def test_relative_changes(text: str, expected: dict[str, float]) -> None:
    assert parse_relative(text) == expected


@pytest.mark.parametrize("text", ["We don't have a budget yet", "no budget", "预算不限", "沒有預算"])
def test_explicit_no_budget(text: str) -> None:
    ex = extract_detailed(text, "en")
    assert ex.fields == {} and ex.no_budget


@pytest.mark.parametrize(("text", "task"), [
    ("pre-trian a 1B model on 20B tokens", "pretrain"),   # typos seen in real issues (phrasing_sources.md)
    ("finetunig qwen2.5 14b full params", "finetune"),
    ("fine tunning llama 3 8b", "finetune"),
    ("infrence only, qwen2.5-7b", "inference"),
])
def test_task_words_survive_typos(text: str, task: str) -> None:
    from advisor.conversation.parsers import parse_task

    assert parse_task(text) == task


def test_requests_a_day_are_spread_over_the_hours_they_come_in() -> None:
    # 50,000 requests in 8 office hours = 50,000 / 28,800 s = 1.74 requests/s (phrasing_cases.yaml hant-068);
    # "400 token 左右" per reply is not training data, and "800 小時的錄音" is data, not a deadline.
    from advisor.conversation.parsers import extract

    got = extract("mixtral 8x7b 推論，每天大約 5 萬次請求，集中在上班 8 小時，每次回覆 400 token 左右", "zh-Hant")
    assert got["requests_per_second"] == 1.74 and "tokens" not in got
    assert extract("we get 100k requests per day", "en", task="inference")["requests_per_second"] == 1.16
    assert "deadline_days" not in extract("800 小時的台語錄音", "zh-Hant", task="lora")


@pytest.mark.parametrize(("text", "locale", "days"), [
    # TODAY = 2026-12-01, a Tuesday (the dates worked out by hand with datetime)
    ("这个月底前要出结果", "zh-Hans", 30), ("下週五前要交報告", "zh-Hant", 10), ("過年前", "zh-Hant", 67),
    ("明年第一季結束前", "zh-Hant", 120), ("時間放寬到明年 3/31", "zh-Hant", 120), ("聖誕節前要 demo", "zh-Hant", 24),
    ("deadline 往后推到 1 月 15 号", "zh-Hans", 45), ("元旦前要交", "zh-Hans", 31), ("by Friday", "en", 3),
    ("before April 1", "en", 121), ("end of Q1", "en", 120), ("next Friday", "en", 10),
    ("deadline 15/12", "en", 14),  # day/month: 15 cannot be a month
])
def test_calendar_deadlines_count_from_today(text: str, locale: str, days: int, monkeypatch) -> None:
    from advisor.conversation.parsers import extract

    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")
    assert extract(text, locale)["deadline_days"] == days


@pytest.mark.parametrize("text", ["大概 1/3 的人會同時用", "24/7 service", "三年前买的卡", "打算用三年", "800 小時的台語錄音"])
def test_fractions_ages_and_horizons_are_not_deadlines(text: str, monkeypatch) -> None:
    from advisor.conversation.parsers import extract

    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")
    assert "deadline_days" not in extract(text, "zh-Hant", task="inference")


def test_a_past_date_is_asked_again(monkeypatch) -> None:
    from advisor.conversation.parsers import extract_detailed

    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")
    ex = extract_detailed("deadline 2026-11-15", "en")
    assert "deadline_days" not in ex.fields and ex.problems[0][0] == "conv.problem.deadline_past"


@pytest.mark.parametrize(("text", "locale", "amount", "currency"), [
    ("budget is roughly $8-12k", "en", 10_000, "USD"),           # a range: its middle
    ("预算 30 到 50 万", "zh-Hans", 400_000, "CNY"),
    ("about 2 grand to spend", "en", 2_000, "USD"),              # "grand" is a thousand dollars
    ("公司批了 3 个亿的预算", "zh-Hans", 300_000_000, "CNY"),      # 个 between the number and 亿
    ("20 萬預算夠嗎", "zh-Hant", 200_000, "TWD"),                 # the amount before the budget word
    ("budget for the whole project is maybe 40k", "en", 40_000, "USD"),
    ("云上预算每月 2 万，合约两年", "zh-Hans", 480_000, "CNY"),      # a month's amount over the term
])
def test_budget_phrasings(text: str, locale: str, amount: float, currency: str) -> None:
    got = extract(text, locale)
    assert (got.get("budget_amount"), got.get("budget_currency")) == (amount, currency)


@pytest.mark.parametrize(("text", "locale"), [
    ("预算 2 台机器就够", "zh-Hans"),      # a count of machines is no amount of money
    ("每月预算 1 万", "zh-Hans"),          # a month's amount with no term is no total
    ("budget: 8 GPUs at most", "en"),
])
def test_no_budget_read(text: str, locale: str) -> None:
    assert "budget_amount" not in extract(text, locale)


def test_absurd_budget_is_re_asked() -> None:
    ex = extract_detailed("budget 3 trillion dollars", "en")
    assert "budget_amount" not in ex.fields and ex.problems


@pytest.mark.parametrize(("text", "locale", "acquisition", "deployment"), [
    ("機房有，但租雲端也行", "zh-Hant", "either", "either"),          # renting allowed, not required
    ("we own a server room, though renting would be fine too", "en", "either", "either"),
    ("先租两个月验证，之后再买", "zh-Hans", "rent", None),            # rent now, buy later
    ("合规要求不能上云", "zh-Hans", None, "on-prem"),
    ("cannot use the cloud for this, data is confidential", "en", None, "on-prem"),
    ("租 4 卡 A100 跑一周", "zh-Hans", "rent", None),                  # renting, where not said
    ("we'd rather own the hardware", "en", "buy", None),
    ("looking at a used card for my home lab", "en", "buy", "on-prem"),
])
def test_acquisition_and_deployment(text: str, locale: str, acquisition: str | None, deployment: str | None) -> None:
    got = extract(text, locale)
    assert (got.get("acquisition"), got.get("deployment")) == (acquisition, deployment)


@pytest.mark.parametrize("text", ["液冷没有，只能风冷", "liquid cooling is not possible here, air only", "水冷做不到",
                                  "液冷目前還沒有"])
def test_cooling_that_cannot_be_had(text: str) -> None:
    # a room that cannot have liquid cooling is air-cooled: the only other kind (the fourteenth blind table read
    # "液冷目前還沒有" so; this test used to leave "水冷做不到" unset)
    assert extract(text, "zh-Hans").get("cooling") == "air"


@pytest.mark.parametrize(("text", "locale", "field", "days"), [
    # today is pinned to 2026-12-01 (a Tuesday) by GPU_ADVISOR_TODAY below
    ("合约签两年，推理服务", "zh-Hans", "horizon_days", 730),          # a term is how long it is used
    ("machines get a 4 year depreciation schedule", "en", "horizon_days", 1460),
    ("設備分五年攤提", "zh-Hant", "horizon_days", 1825),
    ("we plan to use them for 3 years", "en", "horizon_days", 1095),
    ("先租六个月看看效果", "zh-Hans", "horizon_days", 180),             # a rental period
    ("預算 200 萬，兩年，地端", "zh-Hant", "horizon_days", 730),        # years with no deadline word
    ("下个月 20 号前要交付", "zh-Hans", "deadline_days", 50),          # 2027-01-20
    ("下個月中旬要上線", "zh-Hant", "deadline_days", 45),               # mid-January: the 15th
    ("need it by the end of month", "en", "deadline_days", 30),
    ("6 周内训完", "zh-Hans", "deadline_days", 42),
])
def test_horizons_and_calendar(text: str, locale: str, field: str, days: float, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")
    got = extract(text, locale)
    assert got.get(field) == days, got
    other = "deadline_days" if field == "horizon_days" else "horizon_days"
    assert other not in got, got


@pytest.mark.parametrize("text", ["下週三前要開始跑", "we need to start before Friday next week"])
def test_a_start_date_is_no_deadline(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")
    assert "deadline_days" not in extract(text, "zh-Hant")


def test_model_size_before_w_slash_is_no_power() -> None:
    ex = extract_detailed("qlora llama 3 8b w/ 4k context", "en")
    assert ex.fields.get("model") == "llama-3-8b" and "rack_kw" not in ex.fields and not ex.problems


@pytest.mark.parametrize(("text", "locale", "key", "value"), [
    ("資料集 8 萬張，做分類", "zh-Hant", "samples", 80_000),              # images counted after the word
    ("about 3000 imgs to fine-tune on", "en", "samples", 3_000),
    ("200k samples, ~1200 tokens avg", "en", "tokens", 240_000_000),     # the average after the number
    ("语料 20 个G中文", "zh-Hans", "tokens", 5_000_000_000),              # 20 GB x 0.25 tokens/byte
    ("40GB parquet of web text", "en", "tokens", 10_000_000_000),
    ("three 20A 208V circuits", "en", "rack_kw", 9.984),                  # 3 x 208 V x 20 A x 0.8
    ("一個機櫃三條 16A，230V", "zh-Hant", "rack_kw", 8.832),               # 3 x 230 V x 16 A x 0.8
    ("power per kWh is 9 cents", "en", "electricity_usd_per_kwh", 0.09),
])
def test_more_slots_as_written(text: str, locale: str, key: str, value: float) -> None:
    got = extract(text, locale).get(key)
    assert got is not None and math.isclose(got, value, rel_tol=1e-3), extract(text, locale)


@pytest.mark.parametrize("text", ["我们机柜一个 3000kW，风冷", "rack is 900 kW"])
def test_a_rack_beyond_any_built_is_re_asked(text: str) -> None:
    ex = extract_detailed(text, "zh-Hans")
    assert "rack_kw" not in ex.fields and ex.problems


@pytest.mark.parametrize(("text", "locale", "key", "value"), [
    ("電費一度兩塊五", "zh-Hant", "electricity_usd_per_kwh", 2.5),         # 兩塊五 = 2.5 (NT$, a Taiwan writer)
    ("3w以内的预算都行", "zh-Hans", "budget_amount", 30_000),
    ("實驗室 20 個人用", "zh-Hant", "concurrency", 20),
    ("每秒要撐 50 個請求", "zh-Hant", "requests_per_second", 50),
    ("我们 A800 一共 24 张", "zh-Hans", "owned_gpus", [{"gpu": "a800-80gb", "count": 24}]),
])
def test_written_amounts_and_counts(text: str, locale: str, key: str, value: Any) -> None:
    got = extract(text, locale).get(key)
    if key == "electricity_usd_per_kwh":
        from advisor.currency import to_usd

        value = round(to_usd(value, "TWD" if locale == "zh-Hant" else "CNY"), 4)
    assert got == value, extract(text, locale)


def test_a_date_just_past_is_re_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")
    ex = extract_detailed("LoRA done by Nov 15", "en")
    assert "deadline_days" not in ex.fields and ex.problems
    assert extract("before March 31", "en")["deadline_days"] == 120   # further back: next year's


@pytest.mark.parametrize(("text", "locale", "concurrency"), [
    ("3 个租户各一套 14B，每套并发 20", "zh-Hans", 60),                 # three copies of a 20-user service
    ("5 tenants, each with about 40 concurrent users", "en", 200),
    ("40 concurrent users, each with 8k context", "en", 40),            # "each" after the load: no copies
])
def test_a_load_said_per_copy_is_multiplied(text: str, locale: str, concurrency: int) -> None:
    assert extract(text, locale, task="inference").get("concurrency") == concurrency


def test_a_bit_over_n_mao_is_half_a_mao_more() -> None:
    from advisor.currency import to_usd

    # "7 毛多一度" is a little over 0.7 yuan: read as 0.75, where "7 毛一度" is 0.70
    assert extract("电费 7 毛多一度", "zh-Hans")["electricity_usd_per_kwh"] == round(to_usd(0.75, "CNY"), 4)
    assert extract("电费 7 毛一度", "zh-Hans")["electricity_usd_per_kwh"] == round(to_usd(0.70, "CNY"), 4)


@pytest.mark.parametrize(("text", "locale"), [("Qwen2.5-14B 还是 Llama 3 8B 好？", "zh-Hans"), ("mistral 7b vs llama 3 8b", "en")])
def test_two_models_offered_as_a_choice_choose_none(text: str, locale: str) -> None:
    assert "model" not in extract(text, locale)


@pytest.mark.parametrize(("text", "locale", "task"), [
    ("主要用来推理 Llama 3 8B，偶尔做点 LoRA", "zh-Hans", "inference"),   # the main use wins
    ("mostly serving qwen 14b, sometimes a qlora run", "en", "inference"),
    ("LoRA 微調完再部署", "zh-Hant", "lora"),                            # training before serving: the training
])
def test_the_main_task_of_several(text: str, locale: str, task: str) -> None:
    assert extract(text, locale).get("task") == task


@pytest.mark.parametrize(("text", "locale", "rps"), [
    ("日均 8.64 万次调用，高峰是平均的 2 倍", "zh-Hans", 2.0),     # 86,400 a day = 1/s, twice at the peak
    ("daily 864k requests, peak is 3x the average", "en", 30.0),
])
def test_daily_calls_with_a_peak_factor(text: str, locale: str, rps: float) -> None:
    got = extract(text, locale, task="inference")
    assert got.get("requests_per_second") == rps and "concurrency" not in got, got


@pytest.mark.parametrize(("text", "question"), [("fp8 training, we're on hopper", "precision"),
                                                ("同時上線應該不超過 120 人", "serving")])
def test_an_answer_to_another_question_sets_no_task(text: str, question: str) -> None:
    assert "task" not in extract_detailed(text, "zh-Hant", question=question).fields


@pytest.mark.parametrize(("text", "locale", "acquisition"), [
    ("budget 2k, want a local LLM box at home", "en", "buy"),           # money for hardware at home
    ("預算 6 萬，家裡跑 8B 模型", "zh-Hant", "buy"),
    ("家裡有一張 4090，預算 6 萬", "zh-Hant", None),                      # they have the card: nothing said
])
def test_a_budget_for_home_hardware_buys(text: str, locale: str, acquisition: str | None) -> None:
    assert extract(text, locale).get("acquisition") == acquisition
