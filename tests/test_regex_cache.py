"""Compiled regular expressions kept between runs (advisor/regex_cache.py, issue #13): a pattern from the
cache matches exactly what `re.compile` matches, a warm cache compiles nothing, and a corrupt or tampered
cache only costs the speed."""

from __future__ import annotations

import json
import marshal
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from advisor import regex_cache
from advisor.conversation import dialogue, parsers, questions  # noqa: F401 - they define the patterns
from advisor.conversation.numbers import LazyPattern

ROOT = Path(__file__).resolve().parent.parent


def _messages(n: int = 60) -> list[str]:
    cases = yaml.safe_load((ROOT / "tests/conversation/data/phrasing_cases.yaml").read_text(encoding="utf-8"))
    texts = [c["text"] for c in cases if isinstance(c, dict) and isinstance(c.get("text"), str)]
    return texts[:: max(1, len(texts) // n)][:n] + ["预算 3 万，下周五前训练完", "about a hundred users, 8k context"]


def _matches(pattern: re.Pattern[str], texts: list[str]) -> list[tuple]:
    return [(m.span(), m.groups()) for text in texts for m in pattern.finditer(text.lower())]


def test_programs_built_for_the_cache_match_as_re_compile_does() -> None:
    texts = _messages()
    for lazy in LazyPattern._ALL:
        program = regex_cache._program(lazy.pattern, int(lazy._flags))
        import _sre

        ours = _sre.compile(lazy.pattern, *program)
        theirs = re.compile(lazy.pattern, lazy._flags)
        assert (ours.flags, ours.groups, ours.groupindex) == (theirs.flags, theirs.groups, theirs.groupindex)
        assert _matches(ours, texts) == _matches(theirs, texts), lazy.pattern[:80]


_CHILD = r"""
import json, re, sys
import advisor.conversation.dialogue, advisor.conversation.questions
from advisor.conversation.numbers import LazyPattern
from advisor.conversation.parsers import extract
parse = re._parser.parse
if sys.argv[1] == "warm":
    def refuse(*args, **kwargs):
        raise AssertionError("compiled a pattern although the cache holds it")
    re._parser.parse = refuse
LazyPattern.compile_all()
re._parser.parse = parse  # the patterns written inline in functions are re's own business
print(json.dumps([extract(t, "zh-Hans" if any(ord(c) > 0x2e80 for c in t) else "en") for t in json.loads(sys.argv[2])],
                 sort_keys=True, default=str))
"""


def _child(mode: str, cache: Path, texts: list[str]) -> str:
    env = {**os.environ, "GPU_ADVISOR_CACHE": str(cache), "GPU_ADVISOR_TODAY": "2026-12-01"}
    out = subprocess.run([sys.executable, "-c", _CHILD, mode, json.dumps(texts)], capture_output=True, text=True,
                         env=env, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_a_warm_cache_compiles_nothing_and_reads_the_same(tmp_path: Path) -> None:
    texts = _messages(30)
    cold = _child("cold", tmp_path, texts)
    (path,) = tmp_path.glob("regex-*.marshal")
    assert len(marshal.loads(path.read_bytes())) == len({(p.pattern, int(p._flags)) for p in LazyPattern._ALL})
    assert _child("warm", tmp_path, texts) == cold


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong shape", "tampered program"])
def test_a_damaged_cache_only_costs_speed(tmp_path: Path, damage: str) -> None:
    texts = _messages(20)
    cold = _child("cold", tmp_path, texts)
    (path,) = tmp_path.glob("regex-*.marshal")
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"\x00not marshal at all\xff" * 10)
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 3])
    elif damage == "wrong shape":
        path.write_bytes(marshal.dumps({("x", 0): "not a program", "y": 1}))
    else:  # every program's code cut short: the engine refuses it, the pattern is compiled again
        entries = marshal.loads(data)
        path.write_bytes(marshal.dumps({k: (v[0], v[1][:3], *v[2:]) for k, v in entries.items()}))
    assert _child("cold", tmp_path, texts) == cold
    assert _child("warm", tmp_path, texts) == cold  # rewritten whole by the run before
