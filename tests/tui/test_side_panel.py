"""The side panel lists what the user said: every profile item they gave shows, none they did not."""

from __future__ import annotations

from types import SimpleNamespace

from advisor.models import Profile
from advisor.report import profile_rows
from advisor.tui.app import known_rows


def test_limits_horizon_and_machine_the_user_gave_are_listed() -> None:
    # A Taiwan user asked for the first token within 2 s and 20 tokens/s each, for three years, on cards for
    # the computer they have (seen in a session: the panel left out the first-token limit the reply had echoed).
    profile = Profile(task="inference", model="llama-3.1-70b", concurrency=40, context_tokens=8192,
                      max_ttft_s=2.0, min_tokens_per_s_per_user=20.0, horizon_days=1095, host_owned=True,
                      preferred_gpus=("rtx-4090",), language="zh-Hant")
    conversation = SimpleNamespace(profile=profile, answered={"task", "model", "serving"}, defaulted=set())
    rows = known_rows(conversation, profile_rows(profile, "zh-Hant"))
    keys = {r["key"] for r in rows}
    assert {"max_ttft_s", "min_tokens_per_s_per_user", "usage", "machine", "preferred"} <= keys
    assert "2 s" in {r["value"] for r in rows}
    # a default nobody stated stays out
    assert "pue" not in keys and "electricity" not in keys
