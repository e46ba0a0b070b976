"""Real users' messages (tests/conversation/data/phrasing_cases.yaml: 398 messages in zh-Hans, zh-Hant and en,
modelled on the public posts in phrasing_sources.md, each reading written by hand before any parser ran)
through the real dialogue, scored by tools/phrasing_cases.py.

The table is not all passing yet (the failing keys are listed by `python tools/phrasing_cases.py --fails`):
these tests hold the floor reached so that no change reads people worse, and check by hand the phrasings
issue #17 names (Taiwan and mainland money, calendar deadlines, horizons, concurrency, owned hardware)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools import phrasing_cases as P  # noqa: E402

CASES = P.load_cases()
BY_ID = {c["id"]: c for c in CASES}

FLOOR = {"en": 135, "zh-Hans": 118, "zh-Hant": 116}
"""Messages per locale read right when this floor was set, less two (137 / 120 / 118 of 144 / 128 / 126: 375 of
398; 127 before issue #17's work). Raise it when the reading improves."""

FRESH = {
    "holdout_fresh.yaml": 58,   # 26 read right at the start of the session that added it, 60 now
    "holdout_fresh2.yaml": 58,  # 26 at the start, 47 when first run blind, 60 now
    "holdout_fresh3.yaml": 43,  # 14 at the start, 27 when first run blind, 45 now
    "holdout_fresh4.yaml": 43,  # 27 of 45 when first run blind (2026-12-01), 45 now
    "holdout_fresh5.yaml": 41,  # 24 of 45 when first run blind (2026-12-01, after fresh4's fixes), 43 now
    "holdout_fresh6.yaml": 42,  # 22 of 45 when first run blind (2026-12-01, after fresh5's fixes), 44 now
    "holdout_fresh7.yaml": 42,  # 32 of 45 when first run blind (2026-12-01, after fresh6's fixes), 44 now
    "holdout_fresh8.yaml": 34,  # 25 of 45 when first run blind (2026-12-01, fifth stop), 36, 35 now (想架一台…機器 reads as buying, fresh24's convention)
    "holdout_fresh9.yaml": 41,  # 18 of 45 when first run blind (written knowing host_owned/max_gpus), 43 now
    "holdout_fresh10.yaml": 41,  # 24 of 45 when first run blind (2026-12-01, sixth stop), 43 now
    "holdout_fresh11.yaml": 40,  # 25 of 45 when first run blind (2026-12-01, sixth stop, after fresh10's fixes), 43 now
    "holdout_fresh12.yaml": 36,  # 18 of 45 when first run blind (2026-12-01, seventh stop), 38 now
    "holdout_fresh13.yaml": 34,  # 21 of 45 when first run blind (2026-12-01, seventh stop, after fresh12's fixes), 36 now
    "holdout_fresh14.yaml": 30,  # 13 of 45 when first run blind (2026-12-01, seventh stop, after fresh13's fixes), 32 now
    "holdout_fresh15.yaml": 36,  # 26 of 45 when first run blind (2026-12-02, after this session's number words), 38 now
    "holdout_fresh16.yaml": 35,  # 24 of 45 when first run blind (2026-12-03, after fresh14's fixes), 38 now
    "holdout_fresh17.yaml": 26,  # 11 of 45 when first run blind (2026-12-03, after fresh16's fixes), 30 now
    "holdout_fresh18.yaml": 27,  # 22 of 45 when first run blind (2026-12-03, after fresh17's fixes), 30 now
    "holdout_fresh19.yaml": 41,  # 29 of 45 when first run blind (2026-12-03, after fresh18's fixes), 43 now
    "holdout_fresh20.yaml": 32,  # 20 of 45 when first run blind (2026-12-03, after fresh19's fixes), 34 now
    "holdout_fresh21.yaml": 40,  # 37 of 45 when first run blind (2026-12-03, after fresh20's fixes), 42 now
    "holdout_fresh22.yaml": 28,  # 19 of 45 when first run blind (2026-12-03, after fresh21's and fresh17's fixes), 32 now
    "holdout_fresh23.yaml": 21,  # 7 of 45 when first run blind (2026-12-03, third session: people mid-project), 25 now
    "holdout_fresh24.yaml": 29,  # 25 of 45 when first run blind (2026-12-03, third session: an ordinary mix), 31 now
    "holdout_fresh25.yaml": 38,  # 27 of 45 when first run blind (2026-12-04: serving), 40 now
    "holdout_fresh26.yaml": 28,  # 22 of 45 when first run blind (2026-12-04: recurring training jobs), 31 now
    "holdout_fresh27.yaml": 38,  # 32 of 45 when first run blind (2026-12-04: messy typing, traps), 40 now
    "holdout_fresh28.yaml": 43,  # 41 of 45 when first run blind (2026-12-04: answers to questions, follow-ups), 45 now
    "holdout_fresh29.yaml": 42,  # 39 of 45 when first run blind (2026-12-04: an ordinary inbox, fifteen traps), 44 now
    "holdout_fresh30.yaml": 40,  # 18 of 45 when first run blind (2026-12-04: numbers and units every way), 42 now
    "holdout_fresh31.yaml": 37,  # 26 of 45 when first run blind (2026-12-04, third stop: forum posts), 39 now
    "holdout_fresh32.yaml": 34,  # 20 of 45 when first run blind (2026-12-04, third stop: HK, SG/MY, IN, EU writers), 36 now
    "holdout_fresh33.yaml": 30,  # 20 of 45 when first run blind (2026-12-04, third stop: beyond chat models), 32 now
}
"""Tables of 45-60 first messages each written by a separate session from forum styles without seeing the parser;
the floor is the count read right when it was set, less two."""


@pytest.fixture(scope="module")
def scored() -> dict[str, dict]:
    return {c["id"]: P.run_case(c)[0] for c in CASES}


def test_the_table_is_read_at_least_as_well_as_before(scored) -> None:
    for locale, floor in FLOOR.items():
        ok = sum(1 for c in CASES if c["locale"] == locale and not scored[c["id"]])
        assert ok >= floor, f"{locale}: {ok} messages read right, floor {floor}"


# Each id below passes today; its expectation is the hand-written one in the table (quoted in the comment).
MUST_READ = [
    "hans-001",  # 预算5w以内 -> 50,000 CNY; 这个月底前 -> 30 days; 自己攒一台放办公室 -> buy, on-prem
    "hans-010",  # 年底前 -> 30 days
    "hans-016",  # 打算用三年 -> a 1,095-day horizon, not a deadline
    "hans-034",  # 预算一百二十万 -> 1,200,000 CNY
    "hans-046",  # 并发改成 200
    "hans-066",  # 0.45/度, 24小时跑, 用 5 年, 同时 100 人
    "hant-004",  # 手上有兩張 3090 ... 下週五前要交報告 -> owned 2 x 3090, 10 days
    "hant-012",  # 大概三四十萬 -> 350,000 TWD
    "hant-017",  # 這個月底前 -> 30 days
    "hant-019",  # 過年前 -> 67 days (2027-02-06)
    "hant-020",  # 明年第一季結束前 -> 120 days
    "hant-052",  # 同時上線改成 80 人
    "hant-059",  # 員工 500 人，估計一成會同時使用 -> 50 concurrent
    "hant-062",  # 一台 DGX A100 -> 8 x A100 80GB owned; 明年 4 月 1 日前 -> 121 days
    "hant-078",  # 預算負 20 萬（笑），認真說大概 20 萬 -> 200,000 TWD
    "hant-092",  # 卡是 V100 32G 八張 -> 8 x V100 32GB owned
    "en-002",    # ~45 ppl at once, budget 30k, on prem
    "en-028",    # ttft < 500ms and at least 20 tok/s per user
    "en-078",    # ~2000 employees, maybe 5% active at once -> 100 concurrent
]


@pytest.mark.parametrize("case_id", MUST_READ)
def test_named_phrasings_are_read_as_a_person_reads_them(case_id: str, scored) -> None:
    assert scored[case_id] == {}, f"{case_id} {BY_ID[case_id]['text']!r}: {scored[case_id]}"


@pytest.mark.parametrize(("name", "floor"), FRESH.items())
def test_the_fresh_tables_are_read_at_least_as_well_as_before(name: str, floor: int) -> None:
    cases = P.load_cases(P.ROOT / "tests" / "conversation" / "data" / name)
    ok = sum(1 for c in cases if not P.run_case(c)[0])
    assert ok >= floor, f"{name}: {ok} of {len(cases)} fresh messages read right, floor {floor}"
