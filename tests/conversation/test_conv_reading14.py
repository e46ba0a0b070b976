"""Readings added after the sixteenth blind table (issue #17), each tested on phrasings other than the table's.

Every expectation is what the sentence says, worked out by hand: a count said in words is that count, 两千多条 is
"two thousand and some" (2,000), a 亿 is 10^8, two circuits of 220 V x 30 A at the 80 % continuous rule are
2 x 5.28 kW, 200 GB of text at 0.25 tokens per byte is 5 x 10^10 tokens, dates count from Tuesday 2026-12-01."""

from __future__ import annotations

import pytest

from advisor.conversation.numbers import fix_task_typos
from advisor.conversation.parsers import extract


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")


def _read(text: str, locale: str = "en") -> dict:
    return extract(text, locale)  # type: ignore[arg-type]


def _owned(got: dict) -> list[tuple[str, int]]:
    return sorted((o["gpu"], o["count"]) for o in got.get("owned_gpus", ()))


# ---------------------------------------------------------------- numbers

@pytest.mark.parametrize(("text", "epochs"), [
    ("SFT of Llama 3 8B for three epochs", 3.0),
    ("train it for five epochs on 20k samples", 5.0),
    ("one epoch is enough", 1.0),
])
def test_a_small_count_in_words_before_epochs_is_the_count(text: str, epochs: float) -> None:
    assert _read(text)["epochs"] == epochs


@pytest.mark.parametrize(("text", "locale", "samples"), [
    ("微调数据有三千多条，每条500 token左右", "zh-Hans", 3000),
    ("資料 1500多筆，每筆大概 800 token", "zh-Hant", 1500),
    ("标注好的样本一万多条", "zh-Hans", 10000),
])
def test_a_round_figure_with_more_is_that_figure(text: str, locale: str, samples: int) -> None:
    assert _read(text, locale)["samples"] == samples


@pytest.mark.parametrize(("text", "locale", "amount"), [
    ("总预算三个亿，想建一个训练集群", "zh-Hans", 3e8),
    ("預算大概一個億台幣", "zh-Hant", 1e8),
])
def test_hundreds_of_millions_counted_with_a_measure_word(text: str, locale: str, amount: float) -> None:
    assert _read(text, locale)["budget_amount"] == amount


@pytest.mark.parametrize(("text", "locale", "owned"), [
    ("实验室有两台双卡A6000的工作站", "zh-Hans", [("rtx-a6000", 4)]),
    ("我們有一台雙卡 4090 的主機", "zh-Hant", [("rtx-4090", 2)]),
])
def test_dual_card_machines_hold_two(text: str, locale: str, owned: list) -> None:
    assert _owned(_read(text, locale)) == owned


@pytest.mark.parametrize(("text", "locale", "owned"), [
    # machines x cards corrected to a total the writer states
    ("三台服务器每台8张H800，哦不对，其中一台只有4张，一共20张", "zh-Hans", [("h800", 20)]),
    ("we've got 4 boxes with 8x A100 each - sorry, two of them are 4-GPU boxes, so 24 GPUs total", "en",
     [("a100-80gb-sxm", 24)]),
    # a named system counted once: "8 GPUs each" restates the HGX board
    ("our team owns three DGX H100 systems, 8 GPUs each", "en", [("h100-sxm", 24)]),
    # the form factor said after the memory
    ("we run 4x V100 16GB PCIe in the lab", "en", [("v100-pcie-16gb", 4)]),
])
def test_owned_counts_as_stated(text: str, locale: str, owned: list) -> None:
    assert _owned(_read(text, locale)) == owned


def test_how_many_asked_before_what_they_have_counts_only_what_they_have() -> None:
    got = _read("跑 Qwen2.5-72B 推論要幾張 L40S？我們現在有一台 4 卡 L40S 的伺服器", "zh-Hant")
    assert _owned(got) == [("l40s", 4)]


# ---------------------------------------------------------------- task words

@pytest.mark.parametrize(("text", "fixed"), [
    ("full finetuen of llama", "full finetune of llama"),
    ("fine-tuen it", "finetune it"),
    ("just inferecne", "just inference"),
    ("pretrainig from scratch", "pretraining from scratch"),
    ("it was raining all week", "it was raining all week"),  # one key from "training", which is left alone
    ("we referenced the docs", "we referenced the docs"),
])
def test_task_words_one_key_off_are_fixed(text: str, fixed: str) -> None:
    assert fix_task_typos(text) == fixed


@pytest.mark.parametrize(("text", "locale", "task"), [
    ("want to finetunning mistral 7b on our tickets", "en", "finetune"),
    ("mostly infrerence for 20 people, llama 3.1 8b", "en", "inference"),
    ("想用 LoRA 微條 Qwen2.5-7B", "zh-Hant", "lora"),
])
def test_misspelt_task_words_keep_the_task(text: str, locale: str, task: str) -> None:
    assert _read(text, locale)["task"] == task


# ---------------------------------------------------------------- when

@pytest.mark.parametrize(("text", "days"), [
    ("we'd like the LoRA finished by New Year", 31.0),          # 2027-01-01
    ("start after Christmas, done by New Year's", 31.0),
    ("Happy new year! it has to be trained by Jan 20", 50.0),   # the greeting is no date
])
def test_new_year_as_a_deadline(text: str, days: float) -> None:
    assert _read(text)["deadline_days"] == days


@pytest.mark.parametrize(("text", "locale"), [
    ("last time the same job ran for 4 days on two 3090s", "en"),
    ("it took about a week on my 4090", "en"),
    ("上次用两张3090训了五天才跑完", "zh-Hans"),
    ("之前單卡跑了整整兩天", "zh-Hant"),
])
def test_how_long_a_past_run_took_is_no_deadline(text: str, locale: str) -> None:
    assert "deadline_days" not in _read(text, locale)


def test_a_demo_date_is_a_deadline() -> None:
    assert _read("微調好的模型 12/24 要 demo 給老闆看", "zh-Hant")["deadline_days"] == 23.0


# ---------------------------------------------------------------- where and how

@pytest.mark.parametrize(("text", "locale"), [
    ("records must never leave the hospital network", "en"),
    ("everything has to stay on-site", "en"),
    ("the servers sit in our new data hall", "en"),
    ("公司規定不得使用公有雲", "zh-Hant"),
    ("电脑放在我的卧室里", "zh-Hans"),
])
def test_where_it_must_run_is_their_own_place(text: str, locale: str) -> None:
    assert _read(text, locale)["deployment"] == "on-prem"


def test_self_hosting_on_a_named_cloud_is_the_cloud() -> None:
    got = _read("all our infra is on GCP and we want to self-host Llama 3.1 70B there")
    assert got["deployment"] == "cloud" and got["acquisition"] == "rent"


@pytest.mark.parametrize(("text", "locale"), [
    ("we don't want to maintain servers ourselves, serve Qwen3-8B", "en"),
    ("我们不想养机器，只想跑推理", "zh-Hans"),
])
def test_refusing_to_keep_hardware_rents(text: str, locale: str) -> None:
    assert _read(text, locale)["acquisition"] == "rent"


@pytest.mark.parametrize(("text", "locale"), [
    ("要不要租 H100 來跑？", "zh-Hant"),
    ("要不要买新卡？", "zh-Hans"),
])
def test_asking_whether_refuses_nothing(text: str, locale: str) -> None:
    assert _read(text, locale).get("acquisition") in (None, "either")


def test_renting_offered_as_the_other_answer_decides_nothing() -> None:
    got = _read("手上有一張 4090，QLoRA 7B 兩週內跑得完嗎？還是得去租雲端 H100？", "zh-Hant")
    assert got.get("acquisition") is None and got.get("deployment") is None


def test_building_a_machine_buys() -> None:
    assert _read("想搭建一台机器跑推理，预算3w", "zh-Hans")["acquisition"] == "buy"


@pytest.mark.parametrize(("text", "locale"), [
    ("買一張 4070 Ti 插進我現在的電腦", "zh-Hant"),
    ("想买张卡装到家里的主机上", "zh-Hans"),
])
def test_a_card_put_into_the_computer_they_have(text: str, locale: str) -> None:
    assert _read(text, locale)["host_owned"] is True


def test_room_for_one_more_card_beside_an_unknown_one() -> None:
    got = _read("機殼裡已經有一張 1080 Ti，只能再塞一張", "zh-Hant")
    assert got["host_owned"] is True and got["max_gpus"] == 1


def test_a_third_card_and_the_slots_in_all() -> None:
    got = _read("have two 4090s in my pc, want to add a third card; the motherboard has 3 slots total")
    assert got["acquisition"] == "buy" and got["max_gpus"] == 3 and got["host_owned"] is True


# ---------------------------------------------------------------- amounts, loads, data

def test_a_total_with_a_magnitude_is_the_budget() -> None:
    got = _read("LoRA box for my home office, 6k total")
    assert got["budget_amount"] == 6000.0 and got["budget_currency"] == "USD"


def test_a_monthly_cap_said_before_the_amount_is_no_total() -> None:
    assert "budget_amount" not in _read("在 Azure 上跑推理，每月費用上限 8 萬台幣", "zh-Hant")


def test_two_circuits_said_without_a_measure_word() -> None:
    assert _read("機櫃有 220V 30A 兩迴路", "zh-Hant")["rack_kw"] == pytest.approx(10.56)


def test_requests_counted_with_bi_are_a_rate_not_a_data_set() -> None:
    got = _read("尖峰每秒 25 筆請求，Qwen2.5-14B 推論", "zh-Hant")
    assert got["requests_per_second"] == 25.0 and "samples" not in got


def test_a_long_context_said_with_chang() -> None:
    assert _read("Llama 3.1 8B 推理，要支持64k长上下文", "zh-Hans")["context_tokens"] == 65536


def test_text_size_after_cleaning() -> None:
    assert _read("预训练语料去重后大约 40GB", "zh-Hans")["tokens"] == pytest.approx(1e10)


def test_the_length_of_one_sample_said_with_yi() -> None:
    got = _read("資料 3 萬筆，平均一筆 600 token", "zh-Hant")
    assert got["samples"] == 30000 and got["tokens"] == 18_000_000


# ---------------------------------------------------------------- after the seventeenth blind table

@pytest.mark.parametrize(("text", "owned"), [
    ("the department has 3 DGX-2 boxes (16x V100 32GB each)", [("v100-sxm2-32gb", 48)]),
    ("we run four servers with 2x L40S each", [("l40s", 8)]),
])
def test_machines_in_words_or_named_systems_multiply_their_cards(text: str, owned: list) -> None:
    assert _owned(_read(text)) == owned


def test_a_cluster_one_may_apply_for_is_not_owned() -> None:
    got = _read("可以申請學校的 A100，但我們自己有 2 台 8 卡 A100", "zh-Hant")
    assert _owned(got) == [("a100-80gb-sxm", 16)]


def test_a_machine_one_means_to_set_up_is_not_owned() -> None:
    got = _read("打算在工作室放一台双卡 4090 的机器跑推理", "zh-Hans")
    assert "owned_gpus" not in got and got["preferred_gpus"] == ["rtx-4090"]


@pytest.mark.parametrize(("text", "locale", "fields"), [
    ("i dont wanna spend more than 3k on this", "en", {"budget_amount": 3000.0}),
    ("requests: about 30 users at the same moment, 8k contexts each", "en", {"concurrency": 30}),
    ("serve it; contexts up to 32k", "en", {"context_tokens": 32768}),
    ("serve Qwen; the first token needs to show up in under 2 s", "en", {"max_ttft_s": 2.0}),
    ("KV cache 也上 INT8，权重 AWQ", "zh-Hans", {"kv_dtype": "int8"}),
    ("cutoff_len 設 4096，資料 5 萬筆", "zh-Hant", {"seq_len": 4096}),
    ("V100 doesn't do bf16 so fp16 mixed it is", "en", {"precision": "fp16-mixed"}),
    ("power is cheap, about 9 cents AUD per kWh", "en", {"electricity_usd_per_kwh": pytest.approx(0.09 * 0.65, abs=0.01)}),
    # after the eighteenth table
    ("chatbot on llama 3.1 8b, first token in under 2s", "en", {"max_ttft_s": 2.0}),
    ("we need Mistral 7B running in-house, the files cannot leave the building", "en",
     {"task": "inference", "deployment": "on-prem"}),
    ("工作室的書房裡放一台 4090 跑 SD", "zh-Hant", {"deployment": "on-prem"}),
    ("研究計畫有一百五十萬的設備費，想買伺服器", "zh-Hant", {"budget_amount": 1_500_000.0}),
    ("系上給的算力額度 20 萬，租雲端 A100 微調 Llama 3.1 8B", "zh-Hant", {"budget_amount": 200_000.0}),
])
def test_slots_said_in_other_words(text: str, locale: str, fields: dict) -> None:
    got = _read(text, locale)
    assert {k: got.get(k) for k in fields} == fields


@pytest.mark.parametrize(("text", "locale", "days"), [
    ("No hard deadline, but ideally finished by March 1", "en", 90.0),
    ("GPU 只能借到 1 月底，能在那之前训完吗", "zh-Hans", 61.0),
    ("論文口試 2/10，結果最晚 1/20 要跑出來", "zh-Hant", 50.0),
])
def test_the_deadline_that_is_meant(text: str, locale: str, days: float) -> None:
    assert _read(text, locale)["deadline_days"] == days


@pytest.mark.parametrize(("text", "locale"), [
    ("we index ~500k pages a day with it", "en"),
    ("要是超過十天就改租雲端", "zh-Hant"),
    ("if it runs longer than two weeks we'll rent", "en"),
])
def test_rates_and_conditions_are_no_deadline(text: str, locale: str) -> None:
    assert "deadline_days" not in _read(text, locale)


def test_describing_oneself_as_a_cloud_provider_is_not_the_cloud() -> None:
    got = _read("We're a GPU cloud provider building our own data hall, 40 kW racks, liquid cooled")
    assert got["deployment"] == "on-prem"


def test_clouds_offered_as_alternatives_are_the_cloud() -> None:
    assert _read("租 AWS 或 GCP 都可以，跑 Llama 3.1 8B 推理", "zh-Hans")["deployment"] == "cloud"


@pytest.mark.parametrize(("text", "locale"), [
    ("embed all 40 million support tickets with bge-large", "en"),
    ("把十年的公文全部做 embedding", "zh-Hant"),
])
def test_embedding_a_corpus_is_inference(text: str, locale: str) -> None:
    assert _read(text, locale)["task"] == "inference"


def test_a_model_fine_tuned_in_house_is_described_not_trained() -> None:
    got = _read("serve our support model (llama 3.1 8b fine-tuned in-house) to 50 agents")
    assert got["task"] == "inference" and got.get("deployment") is None


def test_costs_reckoned_over_years_are_a_horizon_not_a_deadline() -> None:
    got = _read("租雲端還是買伺服器放 IDC 比較划算？以 5 年計，推論 Qwen2.5-7B", "zh-Hant")
    assert got["horizon_days"] == 1825.0 and "deadline_days" not in got


def test_an_acceptance_date_is_no_deadline_and_a_tender_buys() -> None:
    got = _read("局裡要辦標案採購 GPU 伺服器跑 Llama 3.1 70B 推論，設備要在明年 3 月底前驗收", "zh-Hant")
    assert got["acquisition"] == "buy" and "deadline_days" not in got


def test_money_a_school_can_approve_is_a_budget() -> None:
    assert _read("系里能批 8 万，买卡跑 Qwen2.5-7B 的 LoRA", "zh-Hans")["budget_amount"] == 80000.0


def test_money_for_upgrades_buys() -> None:
    assert _read("I have a 3080 in my tower, $1,200 for upgrades, want to QLoRA a 7B")["acquisition"] == "buy"


@pytest.mark.parametrize(("text", "locale"), [
    ("we'll be training models back to back for the next two years", "en"),
    ("接下来两年会一个接一个地跑预训练", "zh-Hans"),
])
def test_runs_back_to_back_keep_the_hardware_busy(text: str, locale: str) -> None:
    assert _read(text, locale)["utilization"] == 1.0


# ---------------------------------------------------------------- what these readings must not take (a review's finds)

@pytest.mark.parametrize(("text", "locale", "key", "value"), [
    ("We retrain our 7B model every month", "en", "task", None),                 # "retrain" is no "pretrain"
    ("We have a retrained 13B model and want to serve it to 50 users", "en", "concurrency", 50),
    ("之前用4090一直在跑SD出图，现在想微调Qwen 7B", "zh-Hans", "utilization", None),  # running now, not 24/7 for years
    ("We'll do two back-to-back LoRA runs and then we're done", "en", "utilization", None),
    ("我们会批量处理20万条文档", "zh-Hans", "budget_amount", None),               # 批量 is no approval
    ("We have 100k total documents to embed", "en", "budget_amount", None),
    ("We update the model each month and have $40k for hardware", "en", "budget_amount", 40000.0),
    ("Starting in the new year we want to fine-tune Llama 3 8B", "en", "deadline_days", None),
    ("We can let it run for 3 days at most", "en", "deadline_days", 3.0),
    ("预算半个亿，建一个训练集群", "zh-Hans", "budget_amount", 5e7),
])
def test_readings_stay_where_they_belong(text: str, locale: str, key: str, value: object) -> None:
    assert _read(text, locale).get(key) == value


def test_asking_whether_to_use_the_cloud_refuses_nothing() -> None:
    assert _read("微调Qwen 7B，要不要上云？", "zh-Hans").get("deployment") != "on-prem"


# ---------------------------------------------------------------- after the eighteenth blind table

def test_a_model_name_holds_no_data_count() -> None:
    got = _read("serve gpt-oss-120b for summarising clinical notes")
    assert got["model"] == "gpt-oss-120b" and "samples" not in got


def test_a_count_of_ones_own_logs() -> None:
    got = _read("LoRA on ~5k of our own chat logs, about 400 tokens each")
    assert got["samples"] == 5000 and got["tokens"] == 2_000_000


def test_a_gpu_in_a_cloud_project_is_not_owned() -> None:
    got = _read("right now we only have an L4 in our GCP project")
    assert "owned_gpus" not in got and got["deployment"] == "cloud"


def test_actually_after_a_dash_corrects_a_count() -> None:
    assert _owned(_read("we own 6 RTX 3090s - actually 5, one is dead")) == [("rtx-3090", 5)]


@pytest.mark.parametrize(("text", "locale"), [
    ("笔记本是 3060 6G 的，想跑 7B", "zh-Hans"),      # the 6 GB laptop RTX 3060, not the 12 GB desktop card
    ("手上有两张 4090 48G 魔改版", "zh-Hans"),        # a modded card the catalogue does not have
])
def test_a_memory_the_catalogue_card_does_not_have_is_another_part(text: str, locale: str) -> None:
    assert "owned_gpus" not in _read(text, locale)


def test_a_memory_that_names_a_variant_still_picks_it() -> None:
    assert _owned(_read("有 4 张 A100 40G", "zh-Hans")) == [("a100-40gb-sxm", 4)]


def test_a_maximum_context_is_no_budget() -> None:
    got = _read("serve Llama 3.1 8B, 128k max context, 10 users")
    assert got["context_tokens"] == 131072 and "budget_amount" not in got
    assert _read("budget 20k max")["budget_amount"] == 20000.0
