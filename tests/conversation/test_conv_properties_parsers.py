"""Property tests for the pure parsers: arbitrary text never raises, and whatever is read makes a
valid Profile with catalogue ids; problems are UI string keys."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.conversation.numbers import find_numbers, parse_number
from advisor.conversation.parsers import extract_detailed, gpu_mentions, parse_duration_days, parse_relative
from advisor.conversation.questions import read_bare
from advisor.i18n import detect_language
from advisor.knowledge import knowledge
from advisor.models import LOCALES, Profile
from tests.conversation.strategies import EXAMPLES, HUGE, LOCALE, MESSAGE, PROFILE_FIELDS, RANDOM_TEXT, STRUCTURED, _public


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
        bare, problem = read_bare(key, text, Profile())
        Profile.model_validate(_public(bare.fields))
        assert problem is None or problem in knowledge().ui


@settings(max_examples=EXAMPLES["numbers"], deadline=None, database=None)
@given(text=st.one_of(HUGE, RANDOM_TEXT, STRUCTURED))
def test_numbers_on_arbitrary_text(text: str) -> None:
    value = parse_number(text)
    assert value is None or math.isfinite(value)
    for number, start, end in find_numbers(text):
        assert math.isfinite(number) and 0 <= start < end <= len(text)
