"""'to 50 users' / '给 500 个用户' name the serving load when the task is serving — and only then."""

from __future__ import annotations

import pytest

from advisor.conversation.parsers import extract

CASES = [
    ("serve Llama 3 70B in 4-bit to 50 users", "en", 50),
    ("Serve Qwen 7B for about 200 people", "en", 200),
    ("we want to serve 1,000 customers with Mistral 7B", "en", 1000),
    ("用 INT8 部署 Qwen2.5 72B，给 500 个用户用", "zh-Hans", 500),
    ("推理服务，服务大约 300 个用户", "zh-Hans", 300),
    ("部署 Llama 3 8B 服務 300 位使用者", "zh-Hant", 300),
    ("推論：給兩千位使用者", "zh-Hant", 2000),
]


@pytest.mark.parametrize(("text", "locale", "users"), CASES)
def test_users_are_the_serving_load(text: str, locale: str, users: int) -> None:
    fields = extract(text, locale)
    assert fields.get("task") == "inference"
    assert fields.get("concurrency") == users


@pytest.mark.parametrize(("text", "locale"), [
    ("LoRA fine-tune Llama 3 8B for 5 users", "en"),
    ("给 5 个用户做 QLoRA 微调 Qwen 7B", "zh-Hans"),
])
def test_users_do_not_become_concurrency_when_training(text: str, locale: str) -> None:
    assert "concurrency" not in extract(text, locale)
