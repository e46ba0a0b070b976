"""Serving quantization in the three languages: weight precision ('4-bit', 'AWQ', 'INT8 量化', '以 FP8 推論')
and KV-cache precision ('8-bit KV', 'KV 缓存 FP8'), read only when the task is serving."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.consultation import Consultation as Conversation
from advisor.conversation.parsers import extract, extract_detailed
from advisor.models import Profile
from advisor.report import profile_rows

CASES: list[tuple[str, str, str | None, dict[str, Any]]] = [
    # text, locale, the conversation's task so far, fields expected
    ("serve Llama 3 70B in 4-bit", "en", None, {"task": "inference", "model": "llama-3-70b", "weights_dtype": "int4"}),
    ("deploy it with AWQ", "en", None, {"task": "inference", "weights_dtype": "int4"}),
    ("GPTQ 4bit", "en", "inference", {"weights_dtype": "int4"}),
    ("GPTQ 8-bit", "en", "inference", {"weights_dtype": "int8"}),
    ("a Q4_K_M gguf", "en", "inference", {"weights_dtype": "int4"}),
    ("int8 weights", "en", "inference", {"weights_dtype": "int8"}),
    # FP8 in a serving message is how the weights are stored; the training precision is not touched
    # (phrasing_cases.yaml convention: hant-070, en-138)
    ("serve in FP8", "en", None, {"task": "inference", "weights_dtype": "fp8"}),
    ("serve llama 3 8b with an 8-bit KV cache", "en", None, {"kv_dtype": "int8", "model": "llama-3-8b"}),
    ("fp8 kv cache, int4 weights", "en", "inference", {"kv_dtype": "fp8", "weights_dtype": "int4"}),
    ("用 INT8 部署 Qwen2.5 72B", "zh-Hans", None, {"task": "inference", "model": "qwen2.5-72b", "weights_dtype": "int8"}),
    ("用INT8量化部署", "zh-Hans", None, {"task": "inference", "weights_dtype": "int8"}),
    ("4 位量化推理", "zh-Hans", None, {"task": "inference", "weights_dtype": "int4"}),
    ("量化到 4 比特", "zh-Hans", "inference", {"weights_dtype": "int4"}),
    ("KV 缓存 FP8", "zh-Hans", "inference", {"kv_dtype": "fp8"}),
    ("以 FP8 推論", "zh-Hant", None, {"task": "inference", "weights_dtype": "fp8"}),
    ("4 位元量化部署 Llama 3 70B", "zh-Hant", None, {"task": "inference", "weights_dtype": "int4", "model": "llama-3-70b"}),
    ("KV 快取 FP8，權重 INT4", "zh-Hant", "inference", {"kv_dtype": "fp8", "weights_dtype": "int4"}),
    ("8 位元 KV 快取", "zh-Hant", "inference", {"kv_dtype": "int8"}),
]


@pytest.mark.parametrize("text,locale,task,expected", CASES)
def test_serving_quantization_is_read(text: str, locale: str, task: str | None, expected: dict[str, Any]) -> None:
    got = extract(text, locale, task=task)  # type: ignore[arg-type]
    for key, want in expected.items():
        assert got.get(key) == want, f"{text!r}: {key}={got.get(key)!r}, want {want!r} ({got})"


@pytest.mark.parametrize("text,locale,task,absent", [
    ("fine-tune llama 3 8b in fp8", "en", None, "weights_dtype"),       # training: fp8 stays the precision
    ("QLoRA 4-bit on llama 3 8b", "en", None, "weights_dtype"),         # 4-bit here is QLoRA
    ("4-bit", "en", "finetune", "weights_dtype"),
    ("serve it by Q4", "en", None, "weights_dtype"),                    # a quarter, not a format
    ("部署 Qwen2.5 72B，4 位同事用", "zh-Hans", None, "weights_dtype"),  # "4 位" counts people
])
def test_quantization_words_outside_serving_are_left_alone(text: str, locale: str, task: str | None, absent: str) -> None:
    assert absent not in extract(text, locale, task=task)  # type: ignore[arg-type]


def test_training_fp8_stays_the_training_precision() -> None:
    assert extract("fine-tune llama 3 8b in fp8", "en")["precision"] == "fp8-mixed"


def test_no_negated_quantization() -> None:
    assert extract("serve llama 3 70b, not 4-bit, 8-bit", "en")["weights_dtype"] == "int8"


@pytest.mark.parametrize("locale,text,labels", [
    ("en", "serve Llama 3 70B in 4-bit with an fp8 KV cache, 50 concurrent users, 8k context",
     ("**Weights (serving)**: INT4", "**KV cache**: FP8")),
    ("zh-Hans", "用 INT8 部署 Qwen2.5 72B，并发 50，上下文 8k，KV 缓存 FP8", ("**推理权重精度**：INT8", "**KV 缓存精度**：FP8")),
    ("zh-Hant", "以 FP8 推論 Llama 3 8B，並發 64，上下文 8k，KV 快取 FP8", ("**推論權重精度**：FP8", "**KV 快取精度**：FP8")),
])
def test_summary_shows_serving_precisions(locale: str, text: str, labels: tuple[str, ...]) -> None:
    conv = Conversation(locale, persist=False, auto_language=False)  # type: ignore[arg-type]
    conv.start()
    replies = conv.handle(text)
    assert conv.pending != "precision"  # a stated weight precision answers the precision question
    while conv.stage == "collect":
        replies = conv.handle("")  # accept the defaults
    summary = [r.text for r in replies if r.kind == "summary"][-1]
    for label in labels:
        assert label in summary


def test_report_profile_rows_show_serving_precisions() -> None:
    p = Profile(task="inference", model="llama-3-70b", weights_dtype="int4", kv_dtype="fp8")
    for locale, label in (("en", "Serving weights"), ("zh-Hans", "推理权重精度"), ("zh-Hant", "推論權重精度")):
        rows = {r["key"]: r for r in profile_rows(p, locale)}  # type: ignore[arg-type]
        assert rows["weights_dtype"]["value"] == "INT4" and rows["weights_dtype"]["label"] == label
        assert rows["kv_dtype"]["value"] == "FP8"
    plain = {r["key"] for r in profile_rows(Profile(task="inference", model="llama-3-70b"), "en")}
    assert not {"weights_dtype", "kv_dtype"} & plain


@pytest.mark.parametrize(("text", "locale", "question", "expected"), [
    # what only a service has says the task when no task word is there
    ("8-bit KV cache", "en", None, {"task": "inference", "kv_dtype": "int8"}),
    ("qwen2.5 14b gptq，给 12 个人用", "zh-Hans", None, {"task": "inference", "weights_dtype": "int4", "concurrency": 12}),
    # an answer to the precision question fills the formats and leaves the task to its own question
    ("weights fp8, kv cache int8", "en", "precision", {"weights_dtype": "fp8", "kv_dtype": "int8"}),
])
def test_serving_implied(text: str, locale: str, question: str | None, expected: dict[str, object]) -> None:
    got = extract_detailed(text, locale, question=question).fields  # type: ignore[arg-type]
    keys = ("task", "weights_dtype", "kv_dtype", "concurrency")
    assert {k: got[k] for k in keys if k in got} == expected
