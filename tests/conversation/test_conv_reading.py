"""Readings that the tenth blind table (tests/conversation/data/holdout_fresh10.yaml, 24 of 45 first run) showed
missing, each checked here on phrasings other than the table's.

Why: the held-out messages are not ours to see; what generalises is the kind of reading — what to rent being
asked is a decision to rent, "有在考慮" is not having, a purchase date is not the job's deadline, "出图" is
generating images, "air-gapped" is on premises (and says nothing about cooling)."""

from __future__ import annotations

import pytest

from advisor.conversation.parsers import extract


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    # dates are counted from a fixed Tuesday (as in the blind tables), not from the day the suite runs
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")


def _read(text: str, locale: str) -> dict:
    return extract(text, locale)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "locale"), [
    ("Our office has no servers; which A100 instance should we rent on Azure?", "en"),
    ("What GPU should I rent for a weekend LoRA run?", "en"),
    ("租哪家的卡比较便宜，想跑 qwen 14b", "zh-Hans"),
    ("Renting is fine since we don't own any GPUs", "en"),
    ("沒有自己的伺服器，租的也可以，想微調 llama 3 8b", "zh-Hant"),
])
def test_asking_what_to_rent_or_having_nothing_to_run_on_rents(text: str, locale: str) -> None:
    assert _read(text, locale).get("acquisition") == "rent"


@pytest.mark.parametrize(("text", "locale"), [
    ("Should we just rent?", "en"),                        # asks whether: still open
    ("Renting is fine, but we also have a server room", "en"),
])
def test_whether_to_rent_stays_a_question(text: str, locale: str) -> None:
    assert _read(text, locale).get("acquisition") == "either"


@pytest.mark.parametrize(("text", "locale", "gpus"), [
    ("目前有在評估 H200 跟 B200，要跑 llama 3.1 70b 推論", "zh-Hant", {"h200", "b200"}),
    ("公司已經有預算買 8 張 H100，想訓練自己的模型", "zh-Hant", {"h100-sxm"}),
    ("我们有考虑 4 张 L40S，部署 qwen2.5 32b", "zh-Hans", {"l40s"}),
    ("Is an H200 worth it over two H100s for serving qwen 72b?", "en", {"h200", "h100-sxm"}),
])
def test_a_gpu_under_consideration_or_budgeted_is_not_owned(text: str, locale: str, gpus: set[str]) -> None:
    fields = _read(text, locale)
    assert "owned_gpus" not in fields, fields
    assert set(fields.get("preferred_gpus", ())) == gpus


@pytest.mark.parametrize(("text", "locale", "gpu", "count"), [
    ("服务器上装了4张A100，想部署 qwen2.5 72b，能撑多少并发？", "zh-Hans", "a100-80gb-sxm", 4),
    ("实验室就一张3090，能 lora 吗", "zh-Hans", "rtx-3090", 1),
    ("can a 3090 do qlora of qwen 14b? it's the only gpu i have", "en", "rtx-3090", 1),
    ("機箱裡插著兩張 4090，想跑 qwen2.5 32b 給自己用，夠嗎？", "zh-Hant", "rtx-4090", 2),
])
def test_cards_installed_or_the_only_one_they_have_are_owned(text: str, locale: str, gpu: str, count: int) -> None:
    assert _read(text, locale).get("owned_gpus") == [{"gpu": gpu, "count": count}]


@pytest.mark.parametrize(("text", "locale", "days"), [
    ("採購案年底前要送出，訓練希望三月底前完成", "zh-Hant", 120),  # 2027-03-31 from 2026-12-01
    ("we need to place the order by Friday but training must be done by end of January", "en", 61),
])
def test_a_purchase_date_is_not_the_deadline_of_the_job(text: str, locale: str, days: int) -> None:
    assert _read(text, locale).get("deadline_days") == days


@pytest.mark.parametrize(("text", "locale"), [
    ("采购方案下个月底前要报上去，帮忙估一下 8 张 H20 训 7B 要多久", "zh-Hans"),
    ("PO has to be placed before Christmas; how long would 16 H100s take to pretrain a 3B model?", "en"),
])
def test_a_purchase_date_alone_leaves_the_deadline_open(text: str, locale: str) -> None:
    assert "deadline_days" not in _read(text, locale)


@pytest.mark.parametrize(("text", "locale"), [
    ("跑 SDXL 生图，一张 4070 够吗", "zh-Hans"),
    ("只是想用 flux dev 出圖，3060 可以嗎", "zh-Hant"),
    ("generating pics with flux dev at home", "en"),
    ("running qwen2.5-72b at 4-bit on two 3090s", "en"),
])
def test_generating_images_or_running_a_named_model_is_inference(text: str, locale: str) -> None:
    assert _read(text, locale).get("task") == "inference"


@pytest.mark.parametrize(("text", "locale", "dtype"), [
    ("running llama 3.1 70b at 4-bit for my team of 5", "en", "int4"),
    ("Is one RTX PRO 6000 worth it over two 5090s for running qwen2.5-72b at 8-bit?", "en", "int8"),
])
def test_a_bit_width_after_a_dotted_model_name_is_read(text: str, locale: str, dtype: str) -> None:
    fields = _read(text, locale)
    assert fields.get("weights_dtype") == dtype and "owned_gpus" not in fields, fields


@pytest.mark.parametrize(("text", "locale"), [
    ("資料不能離開醫院，要微調 llama 3 8b", "zh-Hant"),
    ("数据绝对不能出园区，想做 qwen 7b 的 lora", "zh-Hans"),
    ("it has to be air-gapped, serving llama 3 70b to 50 users", "en"),
    ("只能在公司内网跑，部署 glm-4-9b 给研发用", "zh-Hans"),
])
def test_data_that_cannot_leave_runs_on_premises(text: str, locale: str) -> None:
    fields = _read(text, locale)
    assert fields.get("deployment") == "on-prem", fields
    assert "cooling" not in fields  # "air-gapped" is not air cooling


def test_a_room_only_if_they_buy_leaves_where_it_runs_open() -> None:
    fields = _read("Rent or buy? If we buy, it would sit in our server room", "en")
    assert fields.get("acquisition") == "either" and "deployment" not in fields


@pytest.mark.parametrize(("text", "locale", "field", "value"), [
    ("個人用而已，想跑 gemma 3 12b", "zh-Hant", "concurrency", 1),
    ("TTFT 要在 800ms 以內", "zh-Hant", "max_ttft_s", 0.8),
    ("TTFT最好2秒内，并发 20", "zh-Hans", "max_ttft_s", 2.0),
    ("lora on ~150 pics of my cat", "en", "samples", 150),
    ("大约 2 万份病历要拿来微调", "zh-Hans", "samples", 20000),
    ("纯文本大约 20GB，想继续预训练", "zh-Hans", "tokens", 5_000_000_000),  # 0.25 tokens per byte
])
def test_serving_limits_and_data_sizes_people_write(text: str, locale: str, field: str, value: float) -> None:
    assert _read(text, locale).get(field) == pytest.approx(value)


@pytest.mark.parametrize(("text", "locale", "acq"), [
    ("準備升級成 5090，現在是 3080，預算五萬", "zh-Hant", "buy"),
    ("i have a 3060 12gb, is that enough or should i just get a 4090? budget 1800", "en", "buy"),
    ("sd1.5 出圖而已，我的 3060 12G 還夠用嗎？還是要升級", "zh-Hant", None),  # an open question
    ("机房不够用了，打算换成租的", "zh-Hans", "rent"),  # changing to renting is no card upgrade
])
def test_an_upgrade_they_mean_to_make_buys(text: str, locale: str, acq: str | None) -> None:
    assert _read(text, locale).get("acquisition") == acq


@pytest.mark.parametrize(("text", "locale"), [
    ("我们是杭州一家做电商的公司，想私有化部署 qwen2.5 32b", "zh-Hans"),
    ("敝公司想導入地端 LLM，預算 300 萬", "zh-Hant"),
    ("本公司计划采购 8 卡服务器做微调", "zh-Hans"),
    ("We're a regional bank and want to self-host llama 3.1 70b", "en"),
    ("our company needs an internal chatbot for 300 staff", "en"),
])
def test_a_company_or_an_institution_is_read_as_the_buyer(text: str, locale: str) -> None:
    assert _read(text, locale).get("company") is True


@pytest.mark.parametrize(("text", "locale"), [
    ("I use my company laptop at work but want a 3090 at home for fun", "en"),
    ("公司的电脑只有核显，下班想自己玩 sd", "zh-Hans"),
    ("個人用，想跑 qwen 7b", "zh-Hant"),
    ("our lab has 4 A100s", "en"),
])
def test_a_person_is_not_a_company(text: str, locale: str) -> None:
    assert "company" not in _read(text, locale)


# Readings the eleventh blind table (holdout_fresh11.yaml, 25 of 45 first run) and the leftovers of fresh8/9 showed
# missing, on other phrasings.

@pytest.mark.parametrize(("text", "locale", "gpu", "count"), [
    ("實驗室有 8 張 V100，喔不是，是 8 張 A100 40G", "zh-Hant", "a100-40gb-sxm", 8),
    ("we have 4x 3090, sorry, 4x 4090", "en", "rtx-4090", 4),
    ("机房有两台服务器，每台 8 颗 H20", "zh-Hans", "h20", 16),
    ("公司有一台 L4 伺服器（4 張 L4）", "zh-Hant", "l4", 4),
    ("our A100s are old; we have 16x A100 40GB", "en", "a100-40gb-sxm", 16),
    ("现有一台工作站插了2张A100 80G PCIe", "zh-Hans", "a100-80gb-pcie", 2),
])
def test_owned_gpus_corrected_restated_or_counted_per_server(text: str, locale: str, gpu: str, count: int) -> None:
    assert _read(text, locale).get("owned_gpus") == [{"gpu": gpu, "count": count}]


@pytest.mark.parametrize(("text", "locale"), [
    ("聽說 H100 一張大概 3 萬美金，想租來跑 70B 推論", "zh-Hant"),
    ("a 5090 goes for about $2,800 now, worth it for llama 8b?", "en"),
    ("thinking 2x used 3090s off ebay for a home rig", "en"),
])
def test_a_gpu_priced_or_shopped_for_is_not_owned(text: str, locale: str) -> None:
    assert "owned_gpus" not in _read(text, locale)


@pytest.mark.parametrize(("text", "locale", "days"), [
    ("Need it trained by mid-January.", "en", 45),     # 2027-01-15 from 2026-12-01
    ("by early March please", "en", 94),             # 2027-03-05
    ("月中之前要有结果", "zh-Hans", 14),               # 2026-12-15
    ("2月初要交", "zh-Hans", 66),                     # early in the month = the 5th: 2027-02-05
])
def test_parts_of_a_month_are_dates(text: str, locale: str, days: int) -> None:
    assert _read(text, locale).get("deadline_days") == days


@pytest.mark.parametrize(("text", "locale"), [
    ("fine-tune whisper on ~1,500 hours of customer-call audio", "en"),
    ("租雲端 H100 跑推論，一個月大概要花多少？", "zh-Hant"),
    ("设备采购明年3月底前要完成", "zh-Hans"),
])
def test_audio_hours_a_monthly_bill_and_a_purchase_date_are_no_deadline(text: str, locale: str) -> None:
    assert "deadline_days" not in _read(text, locale)


@pytest.mark.parametrize(("text", "locale", "fields"), [
    ("box at home with one 4090 in it, want to add two more cards, the case only takes 3 gpus total", "en",
     {"host_owned": True, "max_gpus": 3, "acquisition": "buy"}),
    ("伺服器目前插了 2 張 L40S，還空著 2 個槽，想再加卡", "zh-Hant", {"host_owned": True, "max_gpus": 4, "acquisition": "buy"}),
    ("主机里一张3090，主板最多再插一张，想加第二张跑推理", "zh-Hans", {"host_owned": True, "max_gpus": 2, "acquisition": "buy"}),
])
def test_cards_added_to_a_box_they_have_are_bought_for_it_within_its_slots(text: str, locale: str, fields: dict) -> None:
    read = _read(text, locale)
    assert {k: read.get(k) for k in fields} == fields, read


@pytest.mark.parametrize(("text", "locale"), [
    ("got a 4090 in my gaming pc, can it do sdxl lora?", "en"),
    ("I have one 4090 already, is it enough or should I get a second card?", "en"),
    ("机房里有两台 8 卡 H200，还需要再加卡吗？", "zh-Hans"),
])
def test_cards_they_have_with_nothing_added_leave_the_machine_and_the_purchase_open(text: str, locale: str) -> None:
    read = _read(text, locale)
    assert "host_owned" not in read and read.get("acquisition") is None, read


@pytest.mark.parametrize(("text", "locale", "field", "value"), [
    ("serving qwen 14b to ~25 engineers at once", "en", "concurrency", 25),
    ("就几个人用用，4张3090能跑吗", "zh-Hans", "concurrency", None),   # a few people, not one
    ("主機電源是1200W的，想跑推論", "zh-Hant", "rack_kw", 1.2),       # watts, not 1,200 萬
    ("30k support tickets, ~500 tokens each", "en", "samples", 30000),
    ("我们有 5 万张商品图要做微调", "zh-Hans", "samples", 50000),
    ("ViT-L/16 微调，图片 100 万张", "zh-Hans", "samples", 1_000_000),
])
def test_people_power_and_data_as_written(text: str, locale: str, field: str, value) -> None:
    assert _read(text, locale).get(field) == (pytest.approx(value) if value is not None else None)


@pytest.mark.parametrize(("text", "locale", "acq"), [
    ("We're buying either A100 or H100 for this", "en", "buy"),
    ("别推荐4090，买不到，直接用阿里云", "zh-Hans", "rent"),
    ("procurement wants a quote for an on-prem cluster", "en", "buy"),
])
def test_buying_read_from_what_is_bought(text: str, locale: str, acq: str) -> None:
    assert _read(text, locale).get("acquisition") == acq
