"""Whole messages: one message in any of the three languages fills every slot it states, correctly,
in one turn; only the questions it leaves open are asked afterwards."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.consultation import Consultation as Conversation
from tests.conversation.test_conv_parsers import LLAMA3_70B, LLAMA3_8B, MISTRAL_7B, QWEN25_72B, _check


def _one_turn(text: str) -> Conversation:
    conv = Conversation("en", persist=False)
    conv.start()
    conv.handle(text)
    return conv


def test_pretrain_message_in_simplified_chinese() -> None:
    conv = _one_turn("我们打算从零预训练一个 30 亿参数的模型，大约 600 亿 token，预算 8 万美元，六周内要完成")
    p = conv.profile
    assert conv.locale == "zh-Hans" and p.language == "zh-Hans"
    assert p.task == "pretrain"
    assert p.params == 3_000_000_000
    assert p.tokens == 60_000_000_000
    assert p.budget_usd == 80_000 and p.budget_amount == 80_000 and p.budget_currency == "USD"
    assert p.deadline_days == 42
    # Stated: task, model, data, deadline, budget. Still open: precision, then facility.
    assert conv.pending == "precision"
    assert {"task", "model", "data", "deadline", "budget"} <= conv.answered


def test_serving_message_in_english() -> None:
    conv = _one_turn("Serve Llama 3 70B to 500 concurrent users at 16k context, budget $300k, on-prem with liquid cooling")
    p = conv.profile
    assert conv.locale == "en"
    assert p.task == "inference"
    assert p.model == "llama-3-70b" and LLAMA3_70B[0] <= p.params <= LLAMA3_70B[1]
    assert p.concurrency == 500 and p.context_tokens == 16_384
    assert p.budget_usd == 300_000
    assert p.deployment == "on-prem" and p.cooling == "liquid"
    assert conv.pending == "precision"  # the only question it leaves open


MESSAGES: list[tuple[str, str, dict[str, Any], str | None]] = [
    # (message, locale detected, profile fields, next question or None for the summary)
    ("我想用 LoRA 微调 Mistral 7B，预算三万美元，机房单个机柜 12 千瓦，风冷", "zh-Hans",
     {"task": "lora", "model": "mistral-7b", "params": MISTRAL_7B, "budget_usd": 30_000.0, "rack_kw": 12.0,
      "cooling": "air", "deployment": "on-prem"}, "data"),
    ("用 QLoRA 微调通义千问 72B，10 万条样本，每条约 1000 token，训练 2 轮，两周内完成，预算 5 万美元，云上租卡", "zh-Hans",
     {"task": "qlora", "model": "qwen2.5-72b", "params": QWEN25_72B, "samples": 100_000, "tokens": 100_000_000,
      "epochs": 2.0, "deadline_days": 14.0, "budget_usd": 50_000.0, "deployment": "cloud", "acquisition": "rent"},
     "precision"),
    ("部署 Llama 3 70B 做推理，200 并发，上下文 32k，每秒 20 个请求，预算 50 万人民币，租用，云上", "zh-Hans",
     {"task": "inference", "model": "llama-3-70b", "concurrency": 200, "context_tokens": 32_768,
      "requests_per_second": 20.0, "budget_amount": 500_000.0, "budget_currency": "CNY", "acquisition": "rent",
      "deployment": "cloud"}, "precision"),
    ("全参数微调 Qwen2.5-7B，数据 5 亿 token，3 个 epoch，用 FP16，10 天内，预算 ¥300,000，买卡，自建机房 380 伏 32 安 三相，液冷",
     "zh-Hans",
     {"task": "finetune", "model": "qwen2.5-7b", "tokens": 500_000_000, "epochs": 3.0, "precision": "fp16-mixed",
      "deadline_days": 10.0, "budget_amount": 300_000.0, "budget_currency": "CNY", "acquisition": "buy",
      "deployment": "on-prem", "rack_kw": (16.8, 16.9), "cooling": "liquid"}, None),
    ("我们有 4 张 A100，想全参数微调 70 亿参数的模型，2 亿 token，一周内完成", "zh-Hans",
     {"task": "finetune", "params": 7_000_000_000, "tokens": 200_000_000, "deadline_days": 7.0,
      "owned_gpus": [{"gpu": "a100-80gb-sxm", "count": 4}]}, "precision"),
    ("手上只有一张 RTX 4090，想用 QLoRA 微调 Llama 3 8B，5 万条样本，平均 800 token，不赶时间，不限预算", "zh-Hans",
     {"task": "qlora", "model": "llama-3-8b", "params": LLAMA3_8B, "samples": 50_000, "tokens": 40_000_000,
      "owned_gpus": [{"gpu": "rtx-4090", "count": 1}]}, "precision"),
    ("推理部署 Mixtral 8x7B，1000 人同时在线，上下文 8k，FP8，阿里云", "zh-Hans",
     {"task": "inference", "model": "mixtral-8x7b", "concurrency": 1000, "context_tokens": 8192,
      "weights_dtype": "fp8", "deployment": "cloud"}, "budget"),
    ("我們想用 LoRA 微調 Llama 3 8B，預算新台幣 100 萬，兩週內完成", "zh-Hant",
     {"task": "lora", "model": "llama-3-8b", "budget_amount": 1_000_000.0, "budget_currency": "TWD",
      "deadline_days": 14.0}, "data"),
    ("從頭訓練一個 70 億參數的模型，資料約 1,400 億 token，三個月內，租用雲端", "zh-Hant",
     {"task": "pretrain", "params": 7_000_000_000, "tokens": 140_000_000_000, "deadline_days": 90.0,
      "acquisition": "rent", "deployment": "cloud"}, "precision"),
    ("部署 Qwen2.5-32B 推論服務，同時在線 300 人，上下文 16K，預算 NT$5,000,000，自有機房，氣冷", "zh-Hant",
     {"task": "inference", "model": "qwen2.5-32b", "concurrency": 300, "context_tokens": 16_384,
      "budget_amount": 5_000_000.0, "budget_currency": "TWD", "deployment": "on-prem", "cooling": "air"}, "precision"),
    ("手上只有一張 RTX 4090，想做 QLoRA 微調 Mistral 7B，5 萬筆樣本，每筆平均 600 token，訓練 3 輪", "zh-Hant",
     {"task": "qlora", "model": "mistral-7b", "samples": 50_000, "tokens": 30_000_000, "epochs": 3.0,
      "owned_gpus": [{"gpu": "rtx-4090", "count": 1}]}, "precision"),
    ("全參數微調 Llama 3 8B，資料 10 億 token，預算 300 萬元，機櫃 8 千瓦，風冷，一個月內", "zh-Hant",
     {"task": "finetune", "model": "llama-3-8b", "tokens": 1_000_000_000, "budget_amount": 3_000_000.0,
      "budget_currency": "TWD", "rack_kw": 8.0, "cooling": "air", "deadline_days": 30.0}, "precision"),
    ("推論部署 Llama 3 8B，並發 64，上下文 8k，每秒 10 個請求，雲端", "zh-Hant",
     {"task": "inference", "model": "llama-3-8b", "concurrency": 64, "context_tokens": 8192,
      "requests_per_second": 10.0, "deployment": "cloud"}, "precision"),
    ("我們有兩張 4090 和 220 伏 30 安 單相電，想用 LoRA 微調 13B 模型", "zh-Hant",
     {"task": "lora", "params": 13_000_000_000, "rack_kw": 5.28, "owned_gpus": [{"gpu": "rtx-4090", "count": 2}]},
     "data"),
    ("I want to fine-tune Llama 3.1 8B with QLoRA on 20,000 examples averaging 800 tokens for 2 epochs", "en",
     {"task": "qlora", "model": "llama-3.1-8b", "samples": 20_000, "tokens": 16_000_000, "epochs": 2.0},
     "precision"),
    ("We need to pretrain a 7B model on 1.4 trillion tokens within 3 months, budget $2M, cloud", "en",
     {"task": "pretrain", "params": 7_000_000_000, "tokens": 1_400_000_000_000, "deadline_days": 90.0,
      "budget_usd": 2_000_000.0, "deployment": "cloud"}, "precision"),
    ("serve mistral 7b, 200 concurrent users, 32K context, 50 requests per second, rent in the cloud", "en",
     {"task": "inference", "model": "mistral-7b", "concurrency": 200, "context_tokens": 32_768,
      "requests_per_second": 50.0, "acquisition": "rent", "deployment": "cloud"}, "precision"),
    ("Full fine-tune of Qwen2.5-14B, 500M tokens, 3 epochs, fp16, deadline 10 days, budget €200k", "en",
     {"task": "finetune", "model": "qwen2.5-14b", "tokens": 500_000_000, "epochs": 3.0, "precision": "fp16-mixed",
      "deadline_days": 10.0, "budget_amount": 200_000.0, "budget_currency": "EUR"}, "facility"),
    ("LoRA on a 13B model, 100k samples x 1024 tokens, bf16, within two weeks, our own room: 208V 30A three-phase, air cooled",
     "en",
     {"task": "lora", "params": 13_000_000_000, "samples": 100_000, "tokens": 102_400_000,
      "precision": "bf16-mixed", "deadline_days": 14.0, "rack_kw": 8.646, "cooling": "air", "deployment": "on-prem"},
     "budget"),
    ("We have 8x A100 80GB in our colo, 17 kW per rack; we want to full fine-tune Mistral 7B on 2B tokens", "en",
     {"task": "finetune", "model": "mistral-7b", "tokens": 2_000_000_000, "rack_kw": 17.0, "deployment": "on-prem",
      "owned_gpus": [{"gpu": "a100-80gb-sxm", "count": 8}]}, "precision"),
    ("deploy gemma 2 9b for 1000 users at once, 8k context, budget 50k, buy", "en",
     {"task": "inference", "model": "gemma-2-9b", "concurrency": 1000, "context_tokens": 8192,
      "budget_usd": 50_000.0, "acquisition": "buy"}, "precision"),
    ("Pretrain a 125M parameter model on 2.5B tokens in 48 hours, fp32", "en",
     {"task": "pretrain", "params": 125_000_000, "tokens": 2_500_000_000, "deadline_days": 2.0,
      "precision": "fp32"}, "budget"),
    ("QLoRA on lama3 8b with 2B tokens, I already have an RTX 3090, no deadline, no budget", "en",
     {"task": "qlora", "model": "llama-3-8b", "tokens": 2_000_000_000,
      "owned_gpus": [{"gpu": "rtx-3090", "count": 1}]}, "precision"),
    ("inference for qwen 2.5-72b, concurrency of 64 at 128k context, HK$780,000, on-prem, liquid", "en",
     {"task": "inference", "model": "qwen2.5-72b", "concurrency": 64, "context_tokens": 131_072,
      "budget_amount": 780_000.0, "budget_currency": "HKD", "deployment": "on-prem", "cooling": "liquid"},
     "precision"),
]


@pytest.mark.parametrize("text,locale,fields,next_question", MESSAGES)
def test_one_message_fills_many_slots(text: str, locale: str, fields: dict[str, Any], next_question: str | None) -> None:
    conv = _one_turn(text)
    assert conv.locale == locale
    _check(conv.profile.model_dump(), fields)
    if next_question is None:
        assert conv.stage == "confirm"
    else:
        assert conv.stage == "collect" and conv.pending == next_question


def test_enough_messages() -> None:
    assert len(MESSAGES) >= 20
    assert {loc for _, loc, _, _ in MESSAGES} == {"en", "zh-Hans", "zh-Hant"}
