"""Consultations an expert answered before the tool ran (tests/advice/expert_cases.yaml: 40 cases, each with the
expert's bounds on the best answer and the sources of the reasoning — Dettmers' guide, vendor platform specs,
published training reports, shared/reference), through the real pipeline, checked by tools/advice_cases.py.

28 of 40 are within the expert's bounds today; the test holds those and the issue-#16 behaviours by name. The
others fail for reasons recorded in the issue's closing notes (workstation cards the expert left out of the list:
the RTX 6000 Ada beside the L40S it shares a chip with, A6000s where the expert named datacenter cards; memory estimates of quantised serving and sharded LoRA that the
memory model owns; counts where the expert planned more cards than the job needs)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from advisor.recommend import recommend
from tools.advice_cases import check, load_cases, profile_of

CASES = {c["id"]: c for c in load_cases()}
BLIND = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind.yaml"))}
BLIND2 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind2.yaml"))}
BLIND3 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind3.yaml"))}
BLIND4 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind4.yaml"))}

# exp-19 (ResNet-50, 90 epochs of ImageNet in 24 h, cheapest) left the list with issue #11's calibrated image times:
# one RTX 4090 now takes 26 h (was 5.5 h-class times), so the cheapest pick is a rented RTX 5090 (17 h, $12), a card
# the expert's list (A100/H100/L40S/V100/RTX 4090) does not name.
WITHIN_BOUNDS = ["exp-01", "exp-03", "exp-05", "exp-06", "exp-07", "exp-08", "exp-10", "exp-11", "exp-13", "exp-14",
                 "exp-16", "exp-17", "exp-18", "exp-20", "exp-21", "exp-22", "exp-23", "exp-24", "exp-25", "exp-28", "exp-29", "exp-30",
                 "exp-31", "exp-33", "exp-35", "exp-36", "exp-38", "exp-39"]


# tests/advice/expert_cases_blind.yaml: 14 consultations a helper wrote from shared/reference and published figures
# without seeing the advisor or the other cases. 8 of 14 were within bounds on the first run; the two desktop cases
# then got the host the message states (host_owned), and ranking learnt the deadline margin and the QLoRA-on-AMD
# risk their reasoning names (13/14). blind-07 (a Beijing company) came in when a company stopped being sold used
# cards (the RTX A6000 is only sold second-hand) and the serving sweep reached a whole H20 baseboard (14/14).
BLIND_WITHIN_BOUNDS = [f"blind-{i:02d}" for i in range(1, 15)]

# tests/advice/expert_cases_blind2.yaml: 12 more, written the same way (sixth stop of 2026-12-01). 10 of 12 on the
# first run; blind2-11 (a Hsinchu company, gpt-oss-120b for 40 engineers) came in with the company rule and with a
# tight fit no longer outranking a faster one with room (11/12). blind2-10 (6 x A10 with an 8-bit optimizer at 95 %
# of a 45-day deadline, its slow end past it, at ~1/4 of the H20 board's price) came in when a plan on the edge of
# its schedule stopped outranking one on time within budget (recommend.ROBUST_COST_RATIO; 12/12).
BLIND2_WITHIN_BOUNDS = [f"blind2-{i:02d}" for i in range(1, 13)]

# expert_cases_blind3.yaml and expert_cases_blind4.yaml: 12 each, written the same way (seventh stop). blind3: 10 of
# 12 on the first run; blind3-02 (full DeepSeek-V3 FP8 for 100 users in mainland China, 16 x H20 across two
# servers) came in with pipeline-parallel serving; blind3-07 stays out (a quarterly 8B fine-tune in Taiwan: the
# expert rents an H100-class card, the tool rents 6 x RTX 6000 Ada at a similar price). blind4: 11 of 12 on the
# first run; blind3-07 came in on 2026-12-03 when a vendor's quote ("有廠商報價一台 8 卡 H100") stopped being read as
# eight H100s owned; blind4-11 (a 75 W slot-powered factory edge box on a 300 W supply) came in on 2026-12-03, when a PC's
# own draw was bounded by its supply (recommend.SMALL_HOST_PSU_SHARE) and a small card's overhead by its own power.
BLIND3_WITHIN_BOUNDS = [f"blind3-{i:02d}" for i in range(1, 13)]  # blind3-07: see below
BLIND4_WITHIN_BOUNDS = [f"blind4-{i:02d}" for i in range(1, 13)]

# expert_cases_blind5.yaml: 12 more, written the same way (2026-12-03; buy vs rent over a horizon, levers, real
# platforms, licence and export rules, facilities, SLOs). 8 of 12 on the first run; blind5-09 (a Beijing company's
# 32B full fine-tune: the expert buys an 8 x H20 board, the tool had 6 x A10 with CPU offload at a quarter of its
# price) came in with ROBUST_COST_RATIO; blind5-03 with mainland-China cloud rates (cloud_hourly_cn). Out:
# blind5-08 (the expert sizes the 4-card 4090D box the user names; the tool finds 3 cards enough), blind5-07
# (2 x RTX A6000 for a 24/7 API, a licensed workstation card the expert's list leaves out).
BLIND5 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind5.yaml"))}
BLIND5_WITHIN_BOUNDS = [f"blind5-{i:02d}" for i in range(1, 13) if i not in (7, 8)]

# expert_cases_blind6.yaml: 12 more (2026-12-03: plans to check, owned clusters that suffice, KV-bound serving, batch
# jobs, power-limited desktops). 8 of 12 on the first run; blind6-07 (SDXL LoRA on a 650 W PSU) came in with the
# power-limit lever (a used 3090 at 280 W). Out: blind6-04 (a 30 kW liquid rack for three years of back-to-back 8B
# pretraining: the expert buys 16 x B200, the tool rents 96 x H100 — the case's profile leaves out the "back to back"
# schedule its message states; with it the tool buys the 16 B200, tests/test_recommend.py), blind6-10 (an owned 3090
# plus a second one for 70B at 4 bits: the memory model puts the pair 1 GiB over the 90 % a serving engine uses).
# blind6-08 (a 12-hour batch job in mainland China) came in with mainland-China cloud rates: 8 x H800 on AutoDL.
BLIND6 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind6.yaml"))}
BLIND6_WITHIN_BOUNDS = [f"blind6-{i:02d}" for i in range(1, 13) if i not in (4, 10)]

# expert_cases_blind7.yaml: 12 more (2026-12-03: serving SLOs, MoE on one tower, a Flux LoRA on an owned 4090D, a
# one-off mainland LoRA, a 10 kW rack, a Taiwan factory, batch summarisation). 9 of 12 on the first run; blind7-04
# (a Beijing LoRA of Qwen2.5-72B in 3 days: 128 rented RTX 4090s led, the only named card with a rate) and
# blind7-11 (500 students on Qwen2.5-7B in mainland China: one rented MI300X) came in with mainland-China cloud rates
# (A800, H800, H20, RTX 4090 at AutoDL's rates) and a named card no longer leading with over four times the GPUs of
# the best. Out: blind7-07 (a biotech "buying one 8-GPU server" for a 10 kW rack: the expert sizes eight cards, the
# tool finds three RTX PRO 6000 enough — the case's profile leaves out the 8-GPU server the message names).
BLIND7 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind7.yaml"))}
BLIND7_WITHIN_BOUNDS = [f"blind7-{i:02d}" for i in range(1, 13) if i != 7]

# expert_cases_blind8.yaml: 12 more (2026-12-03: small pretraining in mainland China, 64k-context full fine-tune,
# KV-bound serving in Taipei, owned cards that suffice or do not, 3 years in Munich, one-off embeddings, ViT-L, a line
# PC). 8 of 12 on the first run; blind8-12 (an L4 in a line PC on a 250 W supply) came in with blind4-11. Out:
# blind8-02 (Qwen2.5-14B at 64k tokens: the expert rules out 80 GB cards because the user's FSDP has no sequence
# parallelism; the tool plans tensor parallelism on 8 x H100, which the profile does not exclude), blind8-03 (70B in
# BF16 for 60 users at 32k on one 11 kW server: the tool buys 8 x MI250X, cheaper than the expert's H200/MI300X),
# blind8-10 (ViT-L on ImageNet-21k in 3 days: the tool rents 8 x H100 NVL, which the expert's list leaves out).
BLIND8 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind8.yaml"))}
BLIND8_WITHIN_BOUNDS = [f"blind8-{i:02d}" for i in range(1, 13) if i not in (2, 3, 10)]

# expert_cases_blind9.yaml: 12 everyday consultations written after this session's advice fixes (2026-12-03): 10 of 12
# on the first run; blind9-11 (a Mixtral LoRA in 2 days; "a colleague says a single L40S will do") came in when a card
# someone else claims is enough stopped counting as the writer's choice. Out: blind9-09 (pretraining 1B on 100B tokens
# in 3 weeks: the tool rents 8 x RTX 6000 Ada, which the expert's list leaves out, at $1,334 and on time).
BLIND9 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind9.yaml"))}
BLIND9_WITHIN_BOUNDS = [f"blind9-{i:02d}" for i in range(1, 13) if i != 9]

# expert_cases_blind10.yaml: 12 consultations each decided by one lever (2026-12-03, third session): 8 of 12 on the
# first run. blind10-12 came in when "国内买不到 H100" stopped naming the H100 as wanted, blind10-06 when a service that
# fits nowhere in 16 or 8 bits is planned at 4 bits, blind10-09 when eight workstation cards were priced with a server.
# Out: blind10-04 (an 8B full fine-tune every month within 7 days in a 5 kW rack: the tool buys 3 x RTX PRO 6000 at
# 4.9 days, 6.9 at the slow end, with 8 GiB of 95 free; the expert sizes 4 to 8 cards).
BLIND10 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind10.yaml"))}
BLIND10_WITHIN_BOUNDS = [f"blind10-{i:02d}" for i in range(1, 13) if i != 4]

# expert_cases_blind11.yaml: 12 everyday consultations of small and mid-sized buyers (2026-12-03, third session): 8 of
# 12 on the first run. blind11-12 came in when a peak request rate started sizing the replicas, blind11-04 when data-
# centre cards added to the user's own server stopped paying for a bigger one, blind11-11 (ViT-L frame classification
# at 2,400 frames/s) when an image's 197 patches, not a chat context, became a ViT request's prompt. Out: blind11-10 (a
# 14B full fine-tune in 36 h in Shenzhen: the tool rents 4 x H800 at ~18 h, the expert 8-16 cards).
BLIND11 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind11.yaml"))}
BLIND11_WITHIN_BOUNDS = [f"blind11-{i:02d}" for i in range(1, 13) if i != 10]

# expert_cases_blind12.yaml: 12 serving-heavy consultations (2026-12-04): 10 of 12 on the first run (the same on the
# code before that day's serving change). Out: blind12-09 (Llama 3.1 405B FP8 for 30 analysts at 16k on NT$13M: the
# tool buys 8 x RTX PRO 6000 at ~17 tok/s a user over PCIe, which this expert calls too slow for 405B and
# blind11-03's expert accepts at the same speed for 70B — taste, not a bound we can hold both ways) and blind12-10 (a
# monthly Gemma 2 27B LoRA on NT$5,000 a run: the case's profile has the per-run budget as the whole budget and no
# run count; read from the message — 24 runs, NT$120,000 — the tool rents 2 x MI300X at ~$31 a run, within the
# expert's GPUs, but the bound compares one run's budget with the two years' rent).
BLIND12 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind12.yaml"))}
BLIND12_WITHIN_BOUNDS = [f"blind12-{i:02d}" for i in range(1, 13) if i not in (9, 10)]

# expert_cases_blind13.yaml: 12 training-heavy consultations decided by levers (2026-12-04): 7 of 12 on the first run
# (the same on the code before that day). blind13-02 came in when a colleague's plan the writer asks about ("our
# engineer priced a rented 8x L40S box … is that the right plan?") stopped counting as the writer's choice. Out:
# blind13-03 and -05 (the tool rents 8 and 32 H100 NVL, cheaper than the SXM parts the expert lists, without saying
# why NVL is left out), blind13-08 (a second RTX PRO 6000 on a 110 V outlet needs both cards at ~70 % power; we model
# Puget's 80 %, 1.36 kW against 1.32), blind13-09 (4 x RTX 5090 in a company workstation against the expert's 2 x RTX
# PRO 6000: GeForce is allowed on a desk, the expert prefers workstation cards).
BLIND13 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind13.yaml"))}
BLIND13_WITHIN_BOUNDS = [f"blind13-{i:02d}" for i in range(1, 13) if i not in (3, 5, 8, 9)]

# expert_cases_blind14.yaml: 12 consultations small teams bring, half serving (2026-12-04, second stop): 5 of 12 on
# the first run. blind14-12 came in when a colleague's "一张 4090D 就能训" stopped counting as the writer's choice.
# Out: blind14-04 (rent 2 x H200 over two years against buying 2-4 RTX PRO 6000: our LoRA time, 4ND, makes a job
# ~2x shorter than the writer's own 60 % use of one H200 says, so renting looks cheaper), blind14-05 (192 H100 rented
# at the cost of 48, finishing in a quarter of the deadline; the expert keeps to the 32-80 of the user's quotes, and
# a deadline slack of one half instead of a quarter costs seven cases elsewhere), blind14-06 (48 H100 rented for a 32B
# full fine-tune due in 4 days, done in ~29 h, where the expert keeps to 16-40; it rented 96 RTX PRO 6000 until the
# boss's wish for that server, doubted by the writer, stopped counting as the writer's choice),
# blind14-08 (two 75 W low-profile slots without power cables: a per-card power limit the profile cannot say; N+1
# now gives the expert's two cards, but RTX 4090s), blind14-09 (one RTX PRO 6000 at 95 % of the serving pool: ours
# is 0.9 x 96 GiB, the expert's 0.9 x 96 GB, which it overflows), blind14-11 (GeForce's licence keeps 4090D out of
# a server room; the expert accepts the grey zone and picks 8 of them over our 4 x RTX A6000).
BLIND14 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind14.yaml"))}
BLIND14_WITHIN_BOUNDS = [f"blind14-{i:02d}" for i in range(1, 13) if i not in (4, 5, 6, 8, 9, 11)]

# expert_cases_blind15.yaml: 12 of the consultations a general advisor gets most (2026-12-04, second stop): 6 of 12 on
# the first run. blind15-07 came in when a colleague who "wants us to buy" 4 x RTX 5090, questioned by the writer
# ("Does it [pay for itself]?"), stopped counting as the writer's choice. Out: blind15-02 (Llama 3.3 70B at 4 bits
# with a 32k context for one user on $3,500: the expert's ~4.25-bit weights and 8-bit cache fit two used 3090s; our
# INT4 with its group scales does not, and the near miss is 2 x RTX A6000 over budget), blind15-04 (FLUX.1-dev in FP8
# on one 24 GB card; we find nothing within CNY 20k), blind15-08 and -09 (MI300X, the cheapest in our catalogue, where
# the expert lists only NVIDIA parts: a customer API and a university lab's shared cluster), blind15-11 (192 H100
# rented at the cost of 72-96, as blind14-05).
BLIND15 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind15.yaml"))}
BLIND15_WITHIN_BOUNDS = [f"blind15-{i:02d}" for i in range(1, 13) if i not in (2, 4, 8, 9, 11)]

# expert_cases_blind16.yaml: 12 consultations decided by the room and the money (2026-12-04, third stop): 8 of 12 on the
# first run. blind16-05 came in when a card praised by others and asked about ("听说 H20 显存大、价格便宜，租一张 H20 可以
# 吗？") stopped counting as the writer's choice. Out: blind16-04 (a tax season of six weeks a year for three years,
# written as a 126-day horizon: we resell the bought cards after 126 days, the expert keeps them three years idle
# most of the time and rents), blind16-10 (a home LoRA four times a week for two years at NT$8.46/kWh: buying one
# RTX 4090 and renting an RTX 6000 Ada come out within a few dollars over the horizon; we rank the faster rental with
# more memory to spare first, the expert buys), blind16-12 (an 80,000-book batch job on two owned RTX 4090 in two
# workstations at night: our serving plan sizes a batch by concurrency and finds the 24 GB cards too small for FP8
# weights with 9k contexts; the expert runs FP8 or 4-bit weights on each card as its own replica).
BLIND16 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind16.yaml"))}
BLIND16_WITHIN_BOUNDS = [f"blind16-{i:02d}" for i in range(1, 13) if i not in (4, 10, 12)]

# expert_cases_blind17.yaml: 12 consultations on serving as it really runs and mixture-of-experts (2026-12-04, third
# stop): 4 of 12 on the first run, recorded as they stand. Out: blind17-04 (a one-off full fine-tune of Qwen3-30B-A3B:
# we rent 4 MI300X where the expert wants 8-16 GPUs), blind17-05 and -08 (a KV cache the profile states as BF16: we
# keep it, so the owned 2 x A800 and RTX 4070 Ti do not fit; the expert proposes an 8-bit cache — and 4-bit weights on
# the 12 GB card — as the lever; trying FP8 beside a stated BF16 cache lost three older experts' cases, blind6/7),
# blind17-06 (a LoRA of DeepSeek-V3 on mainland clouds: MI300X, not the H800/A800/H20 the expert can rent there),
# blind17-07 (a RAG service whose reranker and embedding load the profile cannot carry: H20 where the expert wants
# H800 or 4090D for the compute), blind17-09 (N+1 across two hosts: 2 x 2 L40S where the expert wants RTX PRO 6000 or
# H100 NVL for the per-user speed), blind17-11 (a gpt-oss-20b LoRA: MI300X where the expert lists NVIDIA 80 GB cards,
# as blind15-08/09), blind17-12 (a semester of gpt-oss-120b batch runs: 4 x RTX 6000 Ada where the expert rents one
# 80 GB-class GPU).
BLIND17 = {c["id"]: c for c in load_cases(Path(__file__).with_name("expert_cases_blind17.yaml"))}
BLIND17_WITHIN_BOUNDS = [f"blind17-{i:02d}" for i in (1, 2, 3, 10, 11)]
_ALL = {**CASES, **BLIND, **BLIND2, **BLIND3, **BLIND4, **BLIND5, **BLIND6, **BLIND7, **BLIND8, **BLIND9, **BLIND10,
        **BLIND11, **BLIND12, **BLIND13, **BLIND14, **BLIND15, **BLIND16, **BLIND17}


@pytest.mark.parametrize("case_id", WITHIN_BOUNDS + BLIND_WITHIN_BOUNDS + BLIND2_WITHIN_BOUNDS + BLIND3_WITHIN_BOUNDS
                         + BLIND4_WITHIN_BOUNDS + BLIND5_WITHIN_BOUNDS + BLIND6_WITHIN_BOUNDS + BLIND7_WITHIN_BOUNDS
                         + BLIND8_WITHIN_BOUNDS + BLIND9_WITHIN_BOUNDS + BLIND10_WITHIN_BOUNDS
                         + BLIND11_WITHIN_BOUNDS + BLIND12_WITHIN_BOUNDS + BLIND13_WITHIN_BOUNDS
                         + BLIND14_WITHIN_BOUNDS + BLIND15_WITHIN_BOUNDS + BLIND16_WITHIN_BOUNDS
                         + BLIND17_WITHIN_BOUNDS)
def test_top_pick_is_within_the_experts_bounds(case_id: str) -> None:
    case = _ALL[case_id]
    rec = recommend(profile_of(case))
    broken = {k: v for k, v in check(case, rec).items() if v is False}
    top = rec.recommendations[0] if rec.recommendations else None
    assert not broken, f"{case_id} ({case['title']}): {broken}; top pick {top and (top.count, top.gpu, top.acquisition)}"


def test_the_one_off_short_run_rents_and_the_long_service_buys() -> None:
    # exp-05: a 7B LoRA done once by Friday; exp-07: an assistant served 24/7 for three years from a server room.
    assert recommend(profile_of(CASES["exp-05"])).recommendations[0].acquisition == "rent"
    assert recommend(profile_of(CASES["exp-07"])).recommendations[0].acquisition == "buy"


def test_no_option_anyone_sees_is_absurd() -> None:
    # Issue #16: nothing says "1024 x RTX 5090"; a single SXM GPU is never bought (boards of 4 or 8).
    from advisor.knowledge import knowledge

    kb = knowledge()
    for case_id in ("exp-02", "exp-08", "exp-10", "exp-28"):
        rec = recommend(profile_of(CASES[case_id]))
        shown = list(rec.recommendations) + list(rec.alternatives)
        assert all(r.count <= 64 for r in rec.rejected), case_id
        for c in shown:
            gpu = kb.gpus[c.gpu]
            if c.acquisition == "buy" and gpu.form_factor in ("sxm", "sxm2", "sxm4", "sxm5", "oam"):
                assert c.count % (gpu.board or 8) == 0, (case_id, c.count, c.gpu)


def test_a_gpu_the_user_names_leads_when_it_is_a_reasonable_choice() -> None:
    # exp-29: "$2,000 of credits on an MI300X cloud": the expert answers on the MI300X (with the ROCm caveat)
    rec = recommend(profile_of(CASES["exp-29"]))
    assert rec.recommendations[0].gpu == "mi300x"
    # exp-06: "someone wants to buy an H100 PCIe" for 10 GPU-hours a week, no budget: the H100 (bought:
    # no cloud price) costs ~30x the best rental, so the advice does not follow the name
    rec = recommend(profile_of(CASES["exp-06"]))
    assert rec.recommendations[0].gpu != "h100-pcie" and rec.recommendations[0].acquisition == "rent"


def test_owned_gpus_that_lead_stay_ahead_of_a_named_one() -> None:
    from advisor.models import Profile

    # a QLoRA of an 8B model on the user's own 4090, asking about an H100: the owned card still leads
    profile = Profile(language="en", task="qlora", model="llama-3-8b", params=8_030_261_248, tokens=20_000_000,
                      owned_gpus=[{"gpu": "rtx-4090", "count": 1}], preferred_gpus=("h100-sxm",), budget_usd=5000)
    rec = recommend(profile)
    assert rec.recommendations[0].gpu == "rtx-4090"
    assert rec.recommendations[1].gpu == "h100-sxm"


def test_a_card_for_the_desktop_one_has_is_priced_alone_and_a_one_card_limit_holds() -> None:
    # exp-03: $1,500 for a card in an existing 850 W desktop -> a used RTX 3090 ($500-800, platforms.md §4), not
    # a card plus a new $900-1,600 machine; exp-14: "只買一張卡" -> one 96 GB card, never two 48 GB ones.
    top = recommend(profile_of(CASES["exp-03"])).recommendations[0]
    assert (top.gpu, top.count) == ("rtx-3090", 1) and 500 <= top.cost_usd <= 800
    assert any(f.rule_id == "cost.in-own-host" for f in top.findings)
    without = profile_of(CASES["exp-03"]).model_copy(update={"host_owned": False})
    assert all(c.cost_usd > 1_200 for c in recommend(without).recommendations if c.gpu == "rtx-3090")
    rec = recommend(profile_of(CASES["exp-14"]))
    assert all(c.count == 1 for c in rec.recommendations + rec.alternatives)


def test_a_plan_with_no_room_for_a_rerun_is_not_the_pick() -> None:
    # blind-04: 20B tokens on Llama 3.1 8B within 3 weeks. 3 x RTX PRO 6000 would take ~19.6 of the 21 days by our
    # own estimate (93 %): one crash and the deadline is gone; the pick keeps the run under 80 % of it.
    case = BLIND["blind-04"]
    top = recommend(profile_of(case)).recommendations[0]
    assert top.time_hours is not None and top.time_hours / 24 <= 0.8 * case["profile"]["deadline_days"]


def test_qlora_goes_to_nvidia_first() -> None:
    # blind-13: bitsandbytes' 4-bit kernels on ROCm are not a given (knowledge entry qlora-bitsandbytes-support);
    # a rented MI300X is not the first answer for a QLoRA when NVIDIA cards do it within the budget.
    rec = recommend(profile_of(BLIND["blind-13"]))
    from advisor.knowledge import knowledge

    assert knowledge().gpus[rec.recommendations[0].gpu].vendor == "nvidia"


def _shown(rec):
    return [*rec.recommendations, *rec.alternatives]


def test_a_tight_fit_never_outranks_a_faster_plan_with_room() -> None:
    # Issue #16: "a card with 0.5 GiB to spare never outranks a faster one with room" (at up to four times its cost)
    # — on every consultation of the three tables. blind2-11 was the case: 1 x RTX PRO 6000 holding gpt-oss-120b for 40 users at 0.5 GiB free
    # (fp8 KV) led 2 x RTX PRO 6000 with room and twice the tokens per second.
    from advisor.core import TIGHT_HEADROOM

    for case in [*CASES.values(), *BLIND.values(), *BLIND2.values()]:
        rec = recommend(profile_of(case))
        if any(f.rule_id == "outcome.near-misses" for f in rec.findings):
            continue  # nothing passes: what is shown are the nearest misses, not a ranking of plans
        shown = _shown(rec)
        for i, c in enumerate(shown):
            spare = (c.capacity_bytes - c.memory_per_gpu.total) / c.capacity_bytes
            if c.cost_usd == 0 or not 0 <= spare < TIGHT_HEADROOM:
                continue  # owned GPUs are what the user has
            for later in shown[i + 1:]:
                if later.cost_usd + 1 > 4 * (c.cost_usd + 1):
                    continue  # more than two doublings dearer: the tight plan may stay ahead (TIGHT_FIT_COST_RATIO)
                room = (later.capacity_bytes - later.memory_per_gpu.total) / later.capacity_bytes
                faster = (later.time_hours < c.time_hours if later.time_hours and c.time_hours
                          else bool(later.tokens_per_s and c.tokens_per_s and later.tokens_per_s > c.tokens_per_s))
                assert not (room >= TIGHT_HEADROOM and faster), (case["id"], c.count, c.gpu, later.count, later.gpu)


def test_a_plan_on_the_edge_never_outranks_one_on_time_within_budget() -> None:
    # Issue #16: a plan whose optimizer waits on the CPU, or whose run takes more than 80 % of the deadline or whose
    # slow end misses it, never leads a passing plan that keeps its states on the GPUs and is on time with room,
    # at up to eight times its cost (ROBUST_COST_RATIO) — on every consultation of the seven tables.
    from advisor.core import TIGHT_HEADROOM

    for case in _ALL.values():
        rec = recommend(profile_of(case))
        if any(f.rule_id == "outcome.near-misses" for f in rec.findings):
            continue  # nothing passes: the nearest misses are shown, not a ranking of plans
        deadline_h = (rec.profile.deadline_days or 0) * 24 or None
        shown = _shown(rec)

        def on_time(c) -> bool:
            return deadline_h is None or not c.time_hours or (
                c.time_hours <= 0.8 * deadline_h and (c.time_hours_high or 0) <= deadline_h)

        for i, c in enumerate(shown):
            if c.cost_usd == 0 or (not c.offload and on_time(c)):
                continue  # owned GPUs are what the user has; a robust plan may lead
            for later in shown[i + 1:]:
                room = (later.capacity_bytes - later.memory_per_gpu.total) / later.capacity_bytes
                if later.offload or not on_time(later) or room < TIGHT_HEADROOM or later.cost_usd == 0:
                    continue
                if later.cost_usd + 1 > 8 * (c.cost_usd + 1):
                    continue
                faster = bool(later.time_hours and c.time_hours and later.time_hours < c.time_hours)
                assert not (c.offload or faster), (case["id"], c.count, c.gpu, later.count, later.gpu)


def test_a_company_buys_new_and_is_told_why_a_used_only_card_is_left_out() -> None:
    # blind2-11: a Hsinchu company. The RTX A6000 is sold only second-hand in 2026 (platforms.md §4: $2,800 used,
    # no new price), and a company buys with a warranty and an invoice: no plan buys it; the same profile for a
    # person keeps it among the options.
    case = BLIND2["blind2-11"]
    company = recommend(profile_of(case))
    assert company.recommendations and all(
        not (c.gpu in ("rtx-a6000", "rtx-3090") and c.acquisition == "buy") for c in _shown(company))
    assert any(f.rule_id == "cost.used-for-company" for r in company.rejected for f in r.reasons)
    person = recommend(profile_of(case).model_copy(update={"company": False}))
    assert any(c.gpu == "rtx-a6000" and c.acquisition == "buy" for c in [*_shown(person)]) or any(
        r.gpu == "rtx-a6000" and all(f.rule_id != "cost.used-for-company" for f in r.reasons) for r in person.rejected)


def test_serving_on_sxm_parts_reaches_a_whole_baseboard() -> None:
    # blind-07: Qwen2.5-72B for 50 users in Beijing. Two H20s hold it, but H20s are sold only on 8-GPU HGX boards
    # (platforms.md §7, gpu-catalogue board: 8): the sweep must go on to 8 so the board can be bought and compared;
    # it used to stop one count past 2 and the H20 never appeared.
    rec = recommend(profile_of(BLIND["blind-07"]))
    assert any(c.gpu == "h20" and c.count == 8 and c.acquisition == "buy" for c in _shown(rec))


def test_ranking_caps_settle_on_every_consultation() -> None:
    # The caps of `recommend._rank` (a tight fit below a faster plan with room, a plan on the edge below a robust one,
    # a plan below one that beats it on every count) must never form a cycle: blind12-11 had one (a CPU-offload plan
    # "dominating" 24 rented RTX 5090s, which capped it in turn) and its alternatives fell in an arbitrary order.
    # Settled means every capped option ends below each plan that caps it.
    from advisor import recommend as R
    from advisor.core import planner
    from advisor.knowledge import knowledge

    for case in _ALL.values():
        profile = profile_of(case)
        kb = knowledge()
        if R.in_mainland_china(profile):
            kb = R.mainland_rates(kb)
        w = R._workload(profile, kb)
        shortlist = R._shortlist(R._options(planner.sweep(w, list(kb.gpus.values())), profile, kb, w), profile)
        R._judge(shortlist, profile, R._profile_fields(profile, w))
        survivors = [o for o in shortlist if not o.rejected]
        R._rank(survivors, profile)
        roomy = [o for o in survivors if not R._memory_tight(o)]
        for o in survivors:
            for r in R._cappers(o, roomy, R._tight_s(profile)):
                assert o.score < r.score, (case["id"], o.gpu.id, o.m.count, r.gpu.id, r.m.count)
