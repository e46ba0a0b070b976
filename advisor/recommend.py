"""Orchestration: Profile -> candidate configurations -> facts -> findings -> Recommendation.

Why this module exists: the numeric core knows what each configuration costs in memory, time,
power and money; the rules know what those numbers mean; the knowledge base knows how to say it in
three languages. `recommend` ties them together and ranks what survives:

1. `workload_from_profile` + `sweep` (advisor.core.planner): every sensible GPU x count x strategy.
2. Options: each configuration under each way to acquire it that the profile allows — bought
   (capex), rented (cloud rate for the hours of use: the run, or the horizon) or already owned (no capex).
3. Shortlist (tens, not thousands: durable-rules costs ~0.25 ms a fact): per GPU model and
   acquisition, the cheapest configuration that meets the budget, deadline and facility and the
   best-balanced one by the numeric part of the score (or, when none meets them, the cheapest
   that fits); for a GPU model on which nothing fits (and for owned GPUs that cannot do the job),
   its nearest miss.
4. Facts: one flat fact per shortlisted option (profile fields + metrics + derived booleans) and
   one profile fact with the remedies sized by extra small sweeps (LoRA, QLoRA, 4-bit serving).
5. `rules_engine.evaluate` -> findings: rule id, severity, bound fact values, citations — no words
   (`advisor.words` words them in whatever language the reader has, when they are shown).
6. Options a `reject` rule fired on are rejected; the rest are ranked by `_score`.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from advisor import rules_engine
from advisor.core import TIGHT_HEADROOM, compute, cost, memory, planner, power
from advisor.knowledge import KnowledgeBase, knowledge
from advisor.models import (
    Candidate,
    Finding,
    GpuSpec,
    Locale,
    MemoryBreakdown,
    Profile,
    Recommendation,
    Rejected,
)

GIB = 1 << 30
GB = 1e9
TOP_N = 3
"""Recommendations shown; the other survivors go to `Recommendation.alternatives`."""

LONG_RUN_DAYS = 7.0
"""A training run this long or longer counts as long (ECC, checkpoint findings)."""

SERVERS_PER_RACK = 4
"""Servers per rack when packing densely (four 8U HGX servers, or four 4U-10U GPU servers, in 42U):
used only for the per-rack density the air-cooling rules look at."""

TIME_FLOOR_S = 86_400.0
"""Ranking treats any training run shorter than this (one day) as equally fast."""

DEADLINE_SLACK = 0.25
"""With a deadline, runs finishing within this share of it rank as equally fast: the rest of the time
is room for the reruns a real project needs, and beating it further is worth nothing to this user
(so eight GPUs in one server are not passed over for 32 in four servers to save three days of six weeks)."""


def _time_floor_s(profile: Profile) -> float:
    """Training time below which ranking does not reward speed, seconds."""
    if profile.deadline_days:
        return max(TIME_FLOOR_S, DEADLINE_SLACK * profile.deadline_days * 86_400.0)
    return TIME_FLOOR_S

QLORA_CARD_GB = 24
"""The "with QLoRA this fits one 24 GB card" remedy is sized on the catalogue's 24 GB cards, fastest first."""

REFERENCE_GPU_GB = 80
"""The other remedies are sized on the fastest 80 GB datacenter GPU of the catalogue (today an H100 SXM)."""

SEVERITY_ORDER = {"critical": 0, "warning": 1, "tip": 2, "info": 3}


class RecommendError(ValueError):
    """The profile cannot be turned into a recommendation; `.key` names a UI string in knowledge/ui."""

    def __init__(self, key: str, detail: str = "", **values: str):
        self.key, self.detail, self.values = key, detail, {"detail": detail, **values}
        super().__init__(f"{key}: {detail}" if detail else key)

    def message(self, locale: Locale, kb: KnowledgeBase | None = None) -> str:
        """The error in the user's language."""
        kb = kb or knowledge()
        entry = kb.ui.get(self.key)
        if entry is None:
            return self.detail or self.key
        try:
            return entry.get(locale).format(**self.values)
        except (KeyError, IndexError, ValueError):
            return self.detail or entry.get(locale)


@dataclass(slots=True)
class _Option:
    """One configuration under one way of acquiring it, with everything the fact and ranking need."""

    m: planner.CandidateMetrics
    gpu: GpuSpec
    acquisition: str  # buy | rent
    owned: bool
    cost_usd: float
    fact_id: str = ""
    findings: list[Finding] = dataclasses.field(default_factory=list)
    rejected: bool = False
    score: float = 0.0
    horizon_days: float | None = None  # what the option is costed over (None: the runs alone)
    utilization: float = planner.TRAINING_UTILIZATION  # share of the horizon it works
    owned_used: int = 0  # a purchase that adds to GPUs of this model the user owns: how many of those it keeps
    in_host: bool = False  # bought to go into the computer the user has: its base is not in the price
    power_limit_w: float | None = None  # each card held to this many watts (nvidia-smi -pl) to fit the circuit

    @property
    def time_s(self) -> float | None:
        return self.m.time_s

    @property
    def on_prem(self) -> bool:
        return self.acquisition == "buy"

    @property
    def energy_usd(self) -> float:
        return (self.m.energy_usd or 0.0) if self.on_prem else 0.0

    @property
    def years(self) -> float:
        """The horizon the option is costed over, years (the run itself when no horizon was given)."""
        return (self.m.usage_hours or 0.0) / 8760.0 if self.horizon_days is None else self.horizon_days / 365.0

    @property
    def total_usd(self) -> float:
        """What the option costs over the horizon: owning (purchase + electricity + upkeep; owned GPUs:
        electricity and upkeep of nothing new) or renting the same hours, USD."""
        if not self.on_prem:
            return self.cost_usd
        return cost.ownership_usd(self.cost_usd, self.energy_usd, self.years)

    @property
    def label(self) -> str:
        return f"{self.m.count}× {self.gpu.name} ({self.m.strategy})"


# ------------------------------------------------------------------------------------------------
# Options and the shortlist


def _owned_counts(profile: Profile, kb: KnowledgeBase) -> dict[str, int]:
    """GPUs the user owns, by catalogue id (aliases such as '4090' resolved)."""
    out: dict[str, int] = {}
    for item in profile.owned_gpus:
        spec = kb.gpu(item.gpu)
        if spec is not None:
            out[spec.id] = out.get(spec.id, 0) + item.count
    return out


def _options(metrics: list[planner.CandidateMetrics], profile: Profile, kb: KnowledgeBase,
             w: planner.Workload) -> list[_Option]:
    """Every configuration under every acquisition the profile allows (owned GPUs always). More GPUs of a model the
    user owns are bought as an addition: the owned cards and their machine stay, and the price is what the larger
    configuration costs beyond the one they have (`cost.capex_usd` of both: the cards added and the bigger chassis,
    PSU or second server they need) — nobody buys their own GPUs again to add two."""
    owned = _owned_counts(profile, kb)
    may_buy, may_rent = buy_allowed(profile), rent_allowed(profile)
    horizon, util = planner.usage_horizon_days(w), planner.usage_utilization(w)
    gpus = kb.gpus
    # Cards for the computer the user has: its base is not bought again. More of a model they own are an addition
    # (below), whose price already leaves their machine out; another model (an upgrade: "目前插一張 3060，想升級")
    # gets the credit.
    host = profile.host_owned
    owned_capex = {}
    for gpu_id, n in owned.items():
        kept = cost.capex_usd(gpus[gpu_id], n) if gpu_id in gpus else None
        owned_capex[gpu_id] = kept.mid if kept is not None else 0.0
    out: list[_Option] = []
    append = out.append
    # A second pass when nothing the profile allows is priced: offer everything priced, so the rules say why.
    for contradictory in (False, True) if (may_buy or may_rent) else (False,):
        buy, rent = may_buy or contradictory, may_rent or contradictory
        for m in metrics:
            gpu = gpus.get(m.gpu_id)
            if gpu is None:
                continue
            # _Option(m, gpu, acquisition, owned, cost_usd, fact_id, findings, rejected, score, horizon_days,
            # utilization), positional: this runs for every configuration of the sweep.
            have = owned.get(m.gpu_id, 0) if not contradictory else 0
            if have >= m.count:
                append(_Option(m, gpu, "buy", True, 0.0, "", [], False, 0.0, horizon, util))
            elif buy and m.buy_usd is not None:
                if have:  # an addition to the user's own cards; data-centre cards into the server they have (its
                    # free slots, blind11-04: "two free double-width slots") need no bigger server
                    added = max(0.0, m.buy_usd - owned_capex[m.gpu_id])
                    if host and m.nodes == 1 and gpu.segment == "datacenter" and \
                            (cards := cost.cards_usd(gpu, m.count - have)) is not None:
                        added = min(added, cards)
                    append(_Option(m, gpu, "buy", False, added, "", [], False, 0.0, horizon, util, have))
                elif host and m.nodes == 1 and (credit := cost.existing_host_credit_usd(gpu, m.count)):
                    append(_Option(m, gpu, "buy", False, max(0.0, m.buy_usd - credit), "", [], False, 0.0, horizon,
                                   util, 0, True))
                else:
                    append(_Option(m, gpu, "buy", False, m.buy_usd, "", [], False, 0.0, horizon, util))
            if rent and m.rent_usd is not None:
                append(_Option(m, gpu, "rent", False, m.rent_usd, "", [], False, 0.0, horizon, util))
        if out:
            break
    if host and profile.rack_kw is not None:  # the power supply of the computer they have
        out = [_in_small_host(o, profile.rack_kw * 1000.0) if o.in_host or o.owned_used or o.owned else o for o in out]
    if profile.rack_kw is not None and profile.deployment != "cloud":
        out.extend(_power_limited(o) for o in list(out) if _can_power_limit(o, profile))
    return out


SMALL_HOST_PSU_SHARE = 0.5
"""A computer draws on its own at most about this share of its power supply's rating (supplies are sized to run at
50-80 % load, advisory-anchors §3a): an industrial PC on a 250-300 W supply is not the 250 W platform of a GPU
workstation (`power.HOST_BASE_W_PCIE`). Two blind experts put such a PC at 100-150 W (blind4-11, blind8-12)."""


def _in_small_host(o: _Option, psu_w: float) -> _Option:
    """`o` in the user's own computer whose power supply is too small for a GPU workstation's platform: the
    platform's power is what that supply allows it (`SMALL_HOST_PSU_SHARE`), so a 72 W L4 is weighed against what
    the PC itself draws, not against 250 W of workstation."""
    m = o.m
    saved = power.HOST_BASE_W_PCIE - min(power.HOST_BASE_W_PCIE, SMALL_HOST_PSU_SHARE * psu_w)
    if saved <= 0 or m.nodes != 1 or o.gpu.form_factor != "pcie" or m.power_w <= saved:
        return o
    return dataclasses.replace(o, m=_less_power(m, saved))


POWER_LIMIT_SHARE = 0.8
"""The share of its rated power a PCIe card is held to when that lets a plan run off the circuit or power supply the
user has: Puget Systems held four RTX 3090s at 280 W of 350 W (80 %) and kept more than 95 % of their training
throughput, on one PSU and one US 110 V / 15 A circuit (advisory-anchors.md §1, §3a)."""

POWER_LIMITED_SPEED = 0.95
"""Throughput kept at `POWER_LIMIT_SHARE` of the rated power (the same Puget measurement: "more than 95 %")."""

POWER_LIMIT_MIN_TDP_W = 250.0
"""Cards rated below this are not power-limited: the evidence is for 350 W cards, and a small card's driver floor
(a T4's 70 W, an L4's) leaves little or nothing to take off."""


def _can_power_limit(o: _Option, profile: Profile) -> bool:
    """A plan on the user's premises that draws more than their circuit or PSU allows, on PCIe cards (one server or
    desktop: SXM boards are sized with their server), which would fit at `POWER_LIMIT_SHARE` of the cards' power."""
    m, limit_w = o.m, (profile.rack_kw or 0.0) * 1000.0
    if not (o.on_prem and o.gpu.form_factor == "pcie" and o.gpu.tdp_w >= POWER_LIMIT_MIN_TDP_W and m.nodes == 1
            and m.power_w > limit_w):
        return False
    return m.power_w - _power_limit_saves_w(o) <= limit_w


def _power_limit_saves_w(o: _Option) -> float:
    """Watts taken off the configuration by holding every card to `POWER_LIMIT_SHARE` of its rated power."""
    return (1.0 - POWER_LIMIT_SHARE) * o.gpu.tdp_w * o.m.count


def _power_limited(o: _Option) -> _Option:
    """`o` with every card held to `POWER_LIMIT_SHARE` of its rated power: less power, a little less speed. The
    hours of use grow with the run when they are the run's (no horizon); over a horizon (a service, a schedule) they
    stay, and only the power falls."""
    m = o.m
    slow = 1.0 / POWER_LIMITED_SPEED
    runs_only = m.time_s is not None and o.horizon_days is None  # the hours billed are the run's own

    def longer(s: float | None) -> float | None:
        return s * slow if s is not None else None

    limited = dataclasses.replace(
        _less_power(m, _power_limit_saves_w(o), slow if runs_only else 1.0),
        usage_hours=m.usage_hours * slow if runs_only and m.usage_hours is not None else m.usage_hours,
        time_s=longer(m.time_s), time_s_low=longer(m.time_s_low), time_s_high=longer(m.time_s_high),
        ttft_s=longer(m.ttft_s),
        tokens_per_s=m.tokens_per_s * POWER_LIMITED_SPEED if m.tokens_per_s is not None else None)
    return dataclasses.replace(o, m=limited, findings=[], power_limit_w=round(o.gpu.tdp_w * POWER_LIMIT_SHARE))


def _less_power(m: planner.CandidateMetrics, saved_w: float, hours_factor: float = 1.0) -> planner.CandidateMetrics:
    """`m` drawing `saved_w` less at its maximum (and the same share less on average), for `hours_factor` times
    as long: power, facility power and energy scaled together."""
    share = (m.power_w - saved_w) / m.power_w
    hours = share * hours_factor  # energy: power x hours
    return dataclasses.replace(
        m, power_w=m.power_w - saved_w, facility_w=m.facility_w * share, node_power_w=m.node_power_w - saved_w,
        average_power_w=m.average_power_w * share if m.average_power_w is not None else None,
        energy_kwh=m.energy_kwh * hours if m.energy_kwh is not None else None,
        energy_usd=m.energy_usd * hours if m.energy_usd is not None else None)


def _air_limit_kw() -> float:
    """The rack density above which air cooling rejects an option: the threshold of the rule that says so
    (rules/facility.yaml, `facility.air-limit`), so the pre-check below and the rule never disagree."""
    rule = rules_engine.rules_by_id().get("facility.air-limit")
    test = rule.when.get("rack_density_kw") if rule is not None else None
    return float(test["gt"]) if isinstance(test, dict) and "gt" in test else math.inf


def _hard_ok(o: _Option, profile: Profile) -> bool:
    """Numeric pre-check used only to pick which configurations to show the rules (they decide)."""
    f = _derived(o, profile)
    return not (f["over_budget"] or f["misses_deadline"] or f["exceeds_rack"] or not f["serves_concurrency"]
                or f["more_gpus_than_wanted"]
                or f["too_slow_per_user"] or f["ttft_too_long"] or f["too_few_requests"]
                or f["licence_blocked"] or f["export_blocked"] or f["china_only_blocked"]
                or (f["on_prem"] and profile.cooling == "air" and f["rack_density_kw"] > _air_limit_kw()))


def _hard_ok_for(profile: Profile):
    """`_hard_ok` for one profile, as a function of the option: the same answer (tests/advice hold them equal on
    every option of the expert cases), without building `_derived`'s whole dict for each of the thousands of
    options, and stopping at the first limit broken. Keep the two in step."""
    cloud = profile.deployment == "cloud"
    budget, deadline, rack_kw = profile.budget_usd, profile.deadline_days, profile.rack_kw
    inference = profile.task == "inference"
    wanted = profile.concurrency or 1
    users = max(1, profile.concurrency or 1)
    min_tps, max_ttft = profile.min_tokens_per_s_per_user, profile.max_ttft_s
    rps = profile.requests_per_second if inference else None
    share = planner.prompt_share(profile.avg_context_tokens, profile.context_tokens)
    datacenter, multi_user = datacenter_deployment(profile), multi_user_service(profile)
    china = in_mainland_china(profile)
    air_limit = _air_limit_kw() if profile.cooling == "air" else None

    max_gpus = profile.max_gpus

    def ok(o: _Option) -> bool:
        m = o.m
        on_prem = o.acquisition == "buy" and not cloud
        power_kw = m.power_w / 1000.0
        if budget is not None and o.cost_usd > budget:
            return False
        if max_gpus is not None and m.count > max_gpus:
            return False
        if deadline is not None and m.time_s is not None and m.time_s / 86400.0 > deadline:
            return False
        if on_prem and rack_kw is not None and power_kw > rack_kw:
            return False
        if inference:
            if m.max_concurrency is not None and not m.max_concurrency >= wanted:
                return False
            if min_tps and m.tokens_per_s and m.tokens_per_s / users < min_tps:
                return False
        if max_ttft and m.ttft_s is not None and m.ttft_s > max_ttft:
            return False
        if rps and (most := planner.max_requests_per_s(m, share, profile.redundant)) is not None and most < rps:
            return False
        if not o.owned:
            gpu = o.gpu
            if gpu.segment == "consumer" and ((on_prem and (datacenter or m.nodes > 1)) or multi_user):
                return False
            if on_prem and ((gpu.export_controlled_cn and china) or china_only_elsewhere(gpu, profile)):
                return False
        if on_prem and air_limit is not None:
            density = m.node_power_w / 1000.0 * min(m.nodes, SERVERS_PER_RACK) if m.nodes > 1 else power_kw
            if density > air_limit:
                return False
        return True

    return ok


def _time_key(o: _Option) -> float:
    """Faster first: training seconds, or minus serving tokens/s."""
    if o.m.time_s is not None:
        return o.m.time_s
    return -(o.m.tokens_per_s or 0.0)


def _effective_cost(o: _Option) -> float:
    """Cost used for ranking: what the option costs over the horizon (`_Option.total_usd`: owning = purchase
    + electricity + upkeep, renting = the same hours rented; owned GPUs: their electricity), plus $1, USD."""
    return o.total_usd + 1.0


SENSIBLE_COUNT = 64
"""The largest count a ruled-out option is shown at: "1,024 × RTX 4090" informs nobody; "4 × RTX 4090 does not fit,
35 GB a card" does."""

FRAGILE_PLAN_PENALTY = 12.5
"""What ranking takes off a plan that works only on the edge — less than `TIGHT_HEADROOM` free, or CPU
offload — as much as half a doubling of cost: an expert never picks 0.5 GiB to spare, or a host-bound
optimizer step, over a faster configuration with room."""

OFFLOAD_PENALTY = 25.0
"""What ranking takes off a plan that keeps the model states in CPU memory (DeepSpeed ZeRO-Offload): as much as a
doubling of cost. Every step waits on the host's memory and PCIe link, and the plan needs hundreds of GB of host
RAM (DeepSpeed's own estimate is ~18 bytes per parameter x 1.5 for ZeRO-3, numeric-anchors.md §1.2) that a
desktop rarely has: the experts' consultations (tests/advice/expert_cases.yaml exp-13, exp-27, exp-30) reach
for it only when no GPU plan within reach fits, and rent or add GPUs first."""


def _tight_s(profile: Profile) -> tuple[float, float] | None:
    """(the run time above which a plan has no room for a rerun, the deadline), seconds: the first is the deadline
    times the share at which the rule that warns of it fires (rules/cost.yaml, `cost.deadline-tight`), so ranking
    and the warning never disagree; None without a deadline."""
    if not profile.deadline_days:
        return None
    rule = rules_engine.rules_by_id().get("cost.deadline-tight")
    test = rule.when.get("deadline_frac") if rule is not None else None
    share = float(test["gt"]) if isinstance(test, dict) and "gt" in test else 1.0
    deadline_s = profile.deadline_days * 86_400.0
    return share * deadline_s, deadline_s


def _base_score(o: _Option, best_cost: float = 1.0, best_time_s: float | None = None,
                best_tps: float | None = None, time_floor_s: float = TIME_FLOOR_S,
                tight_s: tuple[float, float] | None = None) -> float:
    """The numeric part of `_score` (cost, time or throughput, servers, headroom); see `_score`."""
    score = 100.0 - 25.0 * math.log2(_effective_cost(o) / best_cost)
    if o.m.time_s:
        floor = max(best_time_s or 0.0, time_floor_s)
        score -= 10.0 * math.log2(max(o.m.time_s, time_floor_s) / floor)
        if tight_s is not None and (o.m.time_s > tight_s[0] or (o.m.time_s_high or 0.0) > tight_s[1]):
            # one crash, or the slow end of the estimate's own range, and the deadline is gone
            score -= FRAGILE_PLAN_PENALTY
    if o.m.tokens_per_s:
        score -= 10.0 * math.log2((best_tps or o.m.tokens_per_s) / o.m.tokens_per_s)
    score -= 5.0 * math.log2(max(1, o.m.nodes))
    score -= 3.0 * math.log2(max(1, o.m.count))  # every extra GPU is more to set up, debug and keep running
    frac = o.m.headroom_bytes / o.m.capacity_bytes if o.m.capacity_bytes else 0.0
    score += 10.0 * max(0.0, min(frac, 0.3)) / 0.3
    if 0.0 <= frac < TIGHT_HEADROOM:
        score -= FRAGILE_PLAN_PENALTY
    if o.m.offload:
        score -= OFFLOAD_PENALTY  # every step waits on the host: a last resort, not a plan
    return score


def _shortlist(options: list[_Option], profile: Profile) -> list[_Option]:
    """Per GPU model and acquisition: the cheapest option that passes the numeric limits and the
    best-balanced one (by `_base_score`), or — when none passes — the cheapest that fits, so the
    rules can say why; per GPU model with nothing fitting (and per owned GPU that cannot do the
    job), its nearest miss."""
    groups: dict[tuple[str, str, bool], list[_Option]] = {}
    for o in options:
        groups.setdefault((o.gpu.id, o.acquisition, o.owned), []).append(o)
    chosen: dict[int, _Option] = {}
    misses: dict[tuple[str, bool], _Option] = {}
    hard_ok = _hard_ok_for(profile)
    time_floor_s = _time_floor_s(profile)
    tight_s = _tight_s(profile)
    for (gpu_id, _acq, owned), group in groups.items():
        fitting = [o for o in group if o.m.fits]
        considered = [o for o in group if o.m.count <= SENSIBLE_COUNT] or group
        if not fitting:
            best = max(considered, key=lambda o: (o.m.headroom_bytes / max(1, o.m.capacity_bytes), -o.cost_usd))
            prev = misses.get((gpu_id, owned))
            if prev is None or (best.acquisition == "rent" and prev.acquisition != "rent"):
                misses[(gpu_id, owned)] = best
            continue
        feasible = [o for o in fitting if hard_ok(o)]
        if feasible:
            best = min(feasible, key=lambda o: (o.cost_usd, o.m.count, _time_key(o)))
            chosen[id(best)] = best
            top_tps = max((o.m.tokens_per_s or 0.0 for o in feasible), default=0.0) or None
            balanced = max(feasible, key=lambda o: (_base_score(o, best_tps=top_tps, time_floor_s=time_floor_s,
                                                                tight_s=tight_s), -o.m.count))
            chosen[id(balanced)] = balanced
        else:  # nothing passes the limits: the cheapest fitting one, so the rules can say why — or, when that
            # takes more GPUs than anyone would buy, the nearest miss at a count a person would consider
            cheapest = min(fitting, key=lambda o: (o.cost_usd, o.m.count, _time_key(o)))
            if cheapest.m.count > SENSIBLE_COUNT and any(o.m.count <= SENSIBLE_COUNT for o in group):
                cheapest = max(considered, key=lambda o: (o.m.headroom_bytes / max(1, o.m.capacity_bytes), -o.cost_usd))
            chosen[id(cheapest)] = cheapest
    fitting_gpus = {o.gpu.id for o in chosen.values()}
    owned_fitting = {o.gpu.id for o in chosen.values() if o.owned}
    for (gpu_id, owned), miss in misses.items():
        if (owned and gpu_id not in owned_fitting) or gpu_id not in fitting_gpus:
            chosen[id(miss)] = miss
    out = sorted(chosen.values(), key=lambda o: (o.gpu.id, o.acquisition, o.owned, o.m.count, o.m.strategy))
    for i, o in enumerate(out):
        o.fact_id = f"c{i}"
    return out


# ------------------------------------------------------------------------------------------------
# Facts


def _derived(o: _Option, profile: Profile) -> dict[str, Any]:
    """The comparisons rules would otherwise need across facts, on one option."""
    m = o.m
    power_kw = m.power_w / 1000.0
    node_kw = m.node_power_w / 1000.0
    on_prem = o.on_prem and profile.deployment != "cloud"
    share = planner.prompt_share(profile.avg_context_tokens, profile.context_tokens)
    has_rack = profile.rack_kw is not None
    density = node_kw * min(m.nodes, SERVERS_PER_RACK) if m.nodes > 1 else power_kw
    time_days = m.time_s / 86400.0 if m.time_s is not None else None
    user_tps = per_user_tps(m, profile)
    return {
        "on_prem": on_prem,
        "power_kw": power_kw,
        "node_kw": node_kw,
        "rack_density_kw": density,
        "exceeds_rack": bool(on_prem and has_rack and power_kw > profile.rack_kw),  # type: ignore[operator]
        "rack_load_frac": (power_kw / profile.rack_kw) if (on_prem and has_rack) else None,  # type: ignore[operator]
        "over_budget": bool(profile.budget_usd is not None and o.cost_usd > profile.budget_usd),
        "more_gpus_than_wanted": bool(profile.max_gpus is not None and m.count > profile.max_gpus),
        "budget_frac": (o.cost_usd / profile.budget_usd) if profile.budget_usd else None,
        "misses_deadline": bool(profile.deadline_days is not None and time_days is not None
                                and time_days > profile.deadline_days),
        "deadline_frac": (time_days / profile.deadline_days) if (profile.deadline_days and time_days is not None)
        else None,
        "time_days": time_days,
        "serves_concurrency": (m.max_concurrency is None or profile.task != "inference"
                               or m.max_concurrency >= (profile.concurrency or 1)),
        "user_tokens_per_s": user_tps,
        "too_slow_per_user": bool(profile.min_tokens_per_s_per_user and user_tps is not None
                                  and user_tps < profile.min_tokens_per_s_per_user),
        "ttft_too_long": bool(profile.max_ttft_s and m.ttft_s is not None and m.ttft_s > profile.max_ttft_s),
        "max_requests_per_s": planner.max_requests_per_s(m, share, profile.redundant) if profile.task == "inference"
        else None,
        "too_few_requests": bool(profile.task == "inference" and profile.requests_per_second
                                 and (most := planner.max_requests_per_s(m, share, profile.redundant)) is not None
                                 and most < profile.requests_per_second),
        # GeForce cards bought for a server room, or running a multi-user service anywhere: the driver
        # licence excludes datacenter deployment and commercial hosting.
        "licence_blocked": bool(not o.owned and o.gpu.segment == "consumer"
                                and ((on_prem and (datacenter_deployment(profile) or m.nodes > 1))
                                     or multi_user_service(profile))),
        # Buying a card that needs a US export licence for mainland China, for a buyer there.
        "export_blocked": bool(on_prem and not o.owned and o.gpu.export_controlled_cn and in_mainland_china(profile)),
        # Buying a China-market card (RTX 4090D) outside mainland China, where the full card is what is sold.
        "china_only_blocked": bool(on_prem and not o.owned and china_only_elsewhere(o.gpu, profile)),
    }


def per_user_tps(m: planner.CandidateMetrics, profile: Profile) -> float | None:
    """Serving: the decode speed each of the concurrent users sees, tokens/s (aggregate over the users)."""
    if profile.task != "inference" or not m.tokens_per_s:
        return None
    return m.tokens_per_s / max(1, profile.concurrency or 1)


DATACENTER_CIRCUIT_KW = 4.0
"""A power limit this large is a server room's or a lab's circuit, not a household outlet (120 V/15 A gives
1.44 kW, 230 V/16 A 2.9 kW after the 80 % rule; a 208 V/30 A circuit 4.99 kW): where GeForce's licence bites."""

MULTI_USER_SERVICE = 8
"""Serving this many users at once is a shared service, not one person's desk."""


def multi_user_service(profile: Profile) -> bool:
    """Serving several users at once: a shared (often commercial) service, not one person's desk."""
    return profile.task == "inference" and (profile.concurrency or 0) >= MULTI_USER_SERVICE


def datacenter_deployment(profile: Profile) -> bool:
    """The hardware goes into a server room or runs a shared service: a rack or circuit budget beyond a
    household outlet, or serving several users (the GeForce driver licence's "datacenter deployment")."""
    if profile.deployment == "cloud":
        return False
    if profile.rack_kw is not None and profile.rack_kw >= DATACENTER_CIRCUIT_KW:
        return True
    return multi_user_service(profile)


def buy_allowed(profile: Profile) -> bool:
    """Buying is compared: the user did not say rent only, nor cloud only."""
    return profile.acquisition in ("buy", "either") and profile.deployment != "cloud"


def rent_allowed(profile: Profile) -> bool:
    """Renting is compared: the user did not say buy only; and for a service, did not put it on premises.
    A training job with a server room still compares renting (a room makes buying possible, it does not
    make a one-off run worth buying for); a service placed on premises stays there (its data and users are)."""
    if profile.acquisition not in ("rent", "either"):
        return False
    if profile.cloud_refused and profile.acquisition != "rent":
        return False  # "不能上云": the cloud is what they ruled out, whatever the job
    return profile.deployment != "on-prem" or (profile.acquisition == "either" and profile.task != "inference")


def mainland_rates(kb: KnowledgeBase) -> KnowledgeBase:
    """The catalogue as a renter in mainland China sees it: a card its clouds rent (A800, H800, H20, RTX 4090 …) at
    their rate (`GpuSpec.cloud_hourly_cn`); the others keep the rate of clouds abroad, where the rules warn."""
    gpus = {i: g.model_copy(update={"cloud_hourly": g.cloud_hourly_cn}) if g.cloud_hourly_cn else g
            for i, g in kb.gpus.items()}
    view = kb.model_copy(update={"gpus": gpus})
    view.__dict__.pop("_gpu_index", None)  # a cached alias index of the global catalogue must not carry over
    return view


def in_mainland_china(profile: Profile) -> bool:
    """The buyer is in mainland China: they said so, or they budget in yuan (platforms.md §7 applies)."""
    return profile.region == "cn" or (profile.region is None and (profile.budget_currency or "").upper() == "CNY")


def outside_mainland_china(profile: Profile) -> bool:
    """The buyer is known to be elsewhere: they said where, or they budget in another currency (unknown: False)."""
    if profile.region is not None:
        return profile.region != "cn"
    return (profile.budget_currency or "").upper() not in ("", "CNY")


def china_only_elsewhere(gpu: GpuSpec, profile: Profile) -> bool:
    """A China-market card for a buyer elsewhere — unless they named it themselves and said nowhere where they are
    (the currency may only have been assumed from their language)."""
    return gpu.china_only and outside_mainland_china(profile) and not (
        profile.region is None and gpu.id in profile.preferred_gpus)


def _profile_fields(profile: Profile, w: planner.Workload) -> dict[str, Any]:
    """Profile fields repeated on every fact (so no rule needs a join)."""
    task = w.task
    params = w.params
    active = w.active_params
    tokens = w.tokens
    cooling_pct = (profile.pue - 1.0) * 100.0
    fields: dict[str, Any] = {
        "task": task,
        "is_training": task != "inference",
        "is_full_training": task in ("pretrain", "finetune"),
        "decodes_jpeg": bool(task != "inference" and w.shape.kind in ("cnn", "vit") and w.samples),
        "model_name": w.model_name,
        "samples_total": float(w.samples or 0.0),
        "params_b": params / 1e9,
        "active_params_b": active / 1e9,
        "is_moe": active < params,
        "precision": profile.precision,
        "wants_bf16": profile.precision in ("bf16-mixed", "bf16"),
        # FP8 asked for: the training regime, or serving weights / KV cache stored in FP8
        "wants_fp8": profile.precision == "fp8-mixed" or (task == "inference" and "fp8" in (
            profile.weights_dtype, profile.kv_dtype)),
        "seq_len": w.seq_len,
        "tokens_b": tokens / 1e9 if tokens else None,
        "is_batch_job": bool(w.batch_tokens),
        "batch_tokens_b": w.batch_tokens / 1e9 if w.batch_tokens else None,
        "context_tokens": w.context_tokens if task == "inference" else None,
        "context_window": w.context_tokens if task == "inference" else w.seq_len,
        "concurrency": w.concurrency if task == "inference" else None,
        "min_tokens_per_s_per_user": profile.min_tokens_per_s_per_user,
        "max_ttft_s": profile.max_ttft_s,
        "requests_per_second": profile.requests_per_second if task == "inference" else None,
        "has_budget": profile.budget_usd is not None,
        "budget_usd": profile.budget_usd,
        "has_deadline": profile.deadline_days is not None,
        "deadline_days": profile.deadline_days,
        "deployment": profile.deployment,
        "acquisition_mode": profile.acquisition,
        "has_rack": profile.rack_kw is not None,
        "rack_kw": profile.rack_kw,
        "cooling": profile.cooling,
        "pue": profile.pue,
        "cooling_pct": cooling_pct,
        "owns_gpus": bool(profile.owned_gpus),
        "max_gpus": profile.max_gpus,
        "host_owned": profile.host_owned,
        "company": profile.company,
        "has_horizon": profile.horizon_days is not None or profile.utilization is not None or profile.runs is not None,
        "horizon_days": profile.horizon_days,
        "in_mainland_china": in_mainland_china(profile),
        "datacenter_deployment": datacenter_deployment(profile),
        "buy_allowed": buy_allowed(profile),
        "rent_allowed": rent_allowed(profile),
    }
    return fields


def _candidate_fact(o: _Option, profile: Profile, base: dict[str, Any]) -> dict[str, Any]:
    m, gpu = o.m, o.gpu
    d = _derived(o, profile)
    total = m.memory.total
    # What buying this configuration costs the user: the option's own price when it is a purchase (an addition to
    # their cards, or cards for the computer they have, pays only for what is added), else the list price.
    buy_usd = o.cost_usd if o.acquisition == "buy" and not o.owned else m.buy_usd
    ownership = cost.ownership_usd(buy_usd, m.energy_usd or 0.0, o.years) if buy_usd is not None else None
    time_days = d["time_days"]
    fact: dict[str, Any] = {
        **base,
        "id": o.fact_id,
        "kind": "candidate",
        "gpu_id": gpu.id,
        "gpu_name": gpu.name,
        "architecture": gpu.architecture,
        "vendor": gpu.vendor,
        "segment": gpu.segment,
        "is_consumer": gpu.segment == "consumer",
        "ecc": gpu.ecc,
        "nvlink": gpu.nvlink,
        "bf16_supported": gpu.bf16_tflops is not None,
        "fp8_supported": gpu.fp8_tflops is not None,
        "gpu_memory_gb": gpu.memory_gb,
        "interconnect_gbps": gpu.interconnect_gbps,
        # The link's name without the catalogue's English note: "PCIe 4.0 x16 (no NVLink)" -> "PCIe 4.0 x16".
        "interconnect_name": gpu.interconnect.split(" (")[0],
        "tdp_w": gpu.tdp_w,
        "count": m.count,
        "nodes": m.nodes,
        "strategy": m.strategy,
        "tp": m.tp,
        "pp": m.pp,
        "dp": m.dp,
        "sharded": m.strategy in ("zero1", "zero2", "zero3", "fsdp"),
        "zero_stage": {"zero1": 1, "zero2": 2, "zero3": 3, "fsdp": 3}.get(m.strategy, 0),
        "checkpointing": m.checkpointing if m.checkpointing in ("none", "selective", "full") else "none",
        "acquisition": o.acquisition,
        "owned": o.owned,
        "adds_to_owned": o.owned_used > 0,
        "owned_kept": o.owned_used,
        "gpus_added": m.count - o.owned_used if o.owned_used else 0,
        "in_own_host": o.in_host,
        "power_limited": o.power_limit_w is not None,
        "power_limit_w": o.power_limit_w or 0.0,
        "power_w": round(m.power_w),
        "rack_w": round((profile.rack_kw or 0.0) * 1000.0),
        "more_gpus_than_wanted": d["more_gpus_than_wanted"],
        "on_prem": d["on_prem"],
        "fits": m.fits,
        "mem_total_gib": total / GIB,
        "capacity_gib": m.capacity_bytes / GIB,
        "headroom_frac": m.headroom_bytes / m.capacity_bytes if m.capacity_bytes else None,
        "headroom_gib": max(0, m.headroom_bytes) / GIB,
        "kv_share": (m.memory.kv_cache / total) if total else None,
        "kv_cache_gib": m.memory.kv_cache / GIB,
        "kv_8bit": bool(m.kv_dtype) and memory.KV_BITS.get(m.kv_dtype or "", 16.0) < 9,
        "time_days": time_days,
        "long_run": bool(time_days is not None and time_days >= LONG_RUN_DAYS),
        "misses_deadline": d["misses_deadline"],
        "deadline_frac": d["deadline_frac"],
        "tokens_per_s": m.tokens_per_s,
        "max_concurrency": m.max_concurrency,
        "serves_concurrency": d["serves_concurrency"],
        "user_tokens_per_s": d["user_tokens_per_s"],
        "too_slow_per_user": d["too_slow_per_user"],
        "ttft_s": m.ttft_s,
        "ttft_too_long": d["ttft_too_long"],
        "max_requests_per_s": d["max_requests_per_s"],
        "too_few_requests": d["too_few_requests"],
        "power_kw": d["power_kw"],
        "facility_kw": m.facility_w / 1000.0,
        "node_kw": d["node_kw"],
        "rack_density_kw": d["rack_density_kw"],
        "exceeds_rack": d["exceeds_rack"],
        "rack_load_frac": d["rack_load_frac"],
        "cost_usd": o.cost_usd,
        "buy_usd": buy_usd,
        "rent_usd": m.rent_usd,
        "has_rent_price": m.rent_usd is not None,
        "rent_vs_buy": (m.rent_usd / ownership) if (m.rent_usd is not None and ownership) else None,
        "ownership_usd": ownership,
        "licence_blocked": d["licence_blocked"],
        "export_blocked": d["export_blocked"],
        "china_only_blocked": d["china_only_blocked"],
        "export_controlled_cn": gpu.export_controlled_cn,
        "rented_in_china": gpu.cloud_hourly_cn is not None,
        "bought_used": bool(o.on_prem and not o.owned and gpu.price is None and gpu.price_used is not None),
        "passive_in_desk": bool(d["on_prem"] and gpu.segment == "datacenter" and gpu.form_factor == "pcie"
                                and not datacenter_deployment(profile) and m.nodes == 1),
        "eight_bit_optimizer": m.optimizer == "adamw-8bit",
        "pure_bf16": m.precision == "bf16",
        "fp8_base": m.precision == planner.IMAGE_FP8_BASE,
        "cpu_offload": m.offload,
        "chunked_loss": m.chunked_loss,
        "micro_batch": m.micro_batch,
        "over_budget": d["over_budget"],
        "budget_frac": d["budget_frac"],
        "crosses_pcie_tp": m.crosses_pcie_tp,
        "multi_node": m.nodes > 1,
    }
    if base.get("decodes_jpeg") and m.time_s:
        # the input pipeline a vision run needs per server (advisor.core.compute.JPEG_DECODE_IMAGES_PER_S_PER_VCPU)
        per_node = base["samples_total"] / m.time_s / max(1, m.nodes)
        fact["images_per_s_node"] = per_node
        fact["images_per_s_node_fmt"] = f"{per_node:,.0f}"
        fact["decode_vcpus_node"] = math.ceil(per_node / compute.JPEG_DECODE_IMAGES_PER_S_PER_VCPU)
        fact["read_mb_per_s_node_fmt"] = f"{per_node * compute.JPEG_BYTES_PER_IMAGE / 1e6:,.0f}"
    be_hours = getattr(m, "break_even_hours", None)
    if be_hours is not None and math.isfinite(be_hours) and not o.owned:
        util = o.utilization
        days = be_hours / (24.0 * util)
        fact["breakeven_days"] = days
        fact["utilization_pct"] = util * 100
    return fact


# ------------------------------------------------------------------------------------------------
# Remedies: the same job done differently, sized with small extra sweeps


def _min_count(metrics: list[planner.CandidateMetrics], gpu_id: str) -> int | None:
    counts = [m.count for m in metrics if m.gpu_id == gpu_id and m.fits]
    return min(counts) if counts else None


def _fastest(gpus: list[GpuSpec]) -> list[GpuSpec]:
    return sorted(gpus, key=lambda g: (-(g.bf16_tflops or g.fp16_tflops), g.id))


def _reference_gpu(metrics: list[planner.CandidateMetrics], kb: KnowledgeBase,
                   profile: Profile | None = None) -> GpuSpec | None:
    """The GPU the remedies are sized on: the fastest 80 GB datacenter part the user may buy (in mainland China, none
    under export control: "2 × H100 would do at 4 bits" helps nobody there), else the smallest datacenter part above
    80 GB they may buy (the H20), else the first that fits."""
    china = profile is not None and in_mainland_china(profile)
    allowed = [g for g in kb.gpus.values() if g.segment == "datacenter" and not (china and g.export_controlled_cn)]
    eighty = _fastest([g for g in allowed if g.memory_gb == REFERENCE_GPU_GB])
    if eighty:
        return eighty[0]
    larger = sorted((g for g in allowed if g.memory_gb > REFERENCE_GPU_GB), key=lambda g: (g.memory_gb, g.id))
    if larger:
        return larger[0]
    fitting = [m for m in metrics if m.fits]
    return kb.gpus.get(fitting[0].gpu_id) if fitting else None


def _variant(profile: Profile, kb: KnowledgeBase, **update: Any) -> planner.Workload | None:
    try:
        return planner.workload_from_profile(profile.model_copy(update=update), kb)
    except Exception:  # noqa: BLE001 - a remedy that cannot be sized is simply not offered
        return None


def _remedies(profile: Profile, w: planner.Workload, metrics: list[planner.CandidateMetrics],
              kb: KnowledgeBase) -> dict[str, Any]:
    out: dict[str, Any] = {"alt_lora_available": False, "alt_qlora_available": False, "alt_quant_available": False}
    ref = _reference_gpu(metrics, kb, profile)
    if w.task == "finetune" and ref is not None:
        now = _min_count(metrics, ref.id)
        lora_w = _variant(profile, kb, task="lora")
        if lora_w is not None:
            if now is not None:  # only fewer GPUs than the full fine-tune needs are worth reporting
                lora_w = dataclasses.replace(lora_w, max_gpus=max(1, now // 2))
            lora_n = _min_count(planner.sweep(lora_w, [ref]), ref.id)
            if lora_n is not None and (now is None or lora_n < now):
                out.update(alt_lora_available=True, alt_lora_gpus=lora_n, alt_lora_gpu_name=ref.name)
    if w.task in ("finetune", "lora") and not profile.qlora_refused:
        cards = _fastest([g for g in kb.gpus.values() if g.memory_gb == QLORA_CARD_GB])
        single_24 = any(m.fits and m.count == 1 and kb.gpus[m.gpu_id].memory_gb <= 24
                        for m in metrics if m.gpu_id in kb.gpus)
        if cards and not single_24:
            q_w = _variant(profile, kb, task="qlora")
            if q_w is not None:
                q_w = dataclasses.replace(q_w, max_gpus=1)  # the remedy is "one 24 GB card"
                q_metrics = [m for m in planner.sweep(q_w, cards) if m.count == 1 and m.fits]
                for card in cards:
                    if any(m.gpu_id == card.id for m in q_metrics):
                        out.update(alt_qlora_available=True, alt_qlora_gpu_name=card.name)
                        break
    if w.task == "inference" and ref is not None and w.weights_dtype in ("bf16", "fp16"):
        now = _min_count(metrics, ref.id)
        quant_w = dataclasses.replace(w, weights_dtype="int4")  # a fresh Workload: its memo cache starts empty
        quant_n = _min_count(planner.sweep(quant_w, [ref]), ref.id) if now is not None and now > 1 else None
        if now is not None and quant_n is not None and quant_n < now:
            out.update(alt_quant_available=True, alt_quant_gpus=quant_n, alt_quant_gpus_now=now,
                       alt_quant_gpu_name=ref.name)
    return out


def _profile_fact(profile: Profile, w: planner.Workload, metrics: list[planner.CandidateMetrics],
                  options: list[_Option], base: dict[str, Any], kb: KnowledgeBase) -> dict[str, Any]:
    fitting = [m for m in metrics if m.fits]
    buys = [o.cost_usd for o in options if o.acquisition == "buy" and not o.owned and o.m.fits]
    rents = [m.rent_usd for m in fitting if m.rent_usd is not None]
    budget = profile.budget_usd
    fact: dict[str, Any] = {
        **base,
        "id": "profile",
        "kind": "profile",
        "gpus_considered": len({o.gpu.id for o in options}),
        "nothing_fits": not fitting,
        "min_gpus_to_fit": min(m.count for m in fitting) if fitting else None,
        "fits_single_gpu": any(m.count == 1 for m in fitting),
        "fits_single_node": any(m.nodes == 1 for m in fitting),
        "has_buy_fit": bool(buys),
        "cheapest_buy_usd": min(buys) if buys else None,
        "has_rent_fit": bool(rents),
        "cheapest_rent_usd": min(rents) if rents else None,
        "budget_below_cheapest_buy": bool(budget is not None and buys and budget < min(buys)),
        "rent_within_budget": bool(budget is not None and rents and min(rents) <= budget),
    }
    if w.task in ("pretrain", "finetune"):
        state = memory.state_bytes_per_param(w.precision, w.optimizer)
        fact["model_states_gb"] = w.params * state.total / GB
    if w.task == "inference" and w.shape.is_transformer:
        kv_seq = memory.kv_cache_bytes(w.shape, w.context_tokens, 1, w.kv_dtype)
        typical = w.typical_context
        kv_avg = memory.kv_cache_bytes(w.shape, typical, 1, w.kv_dtype) if typical < w.context_tokens else kv_seq
        kv_total = kv_seq + kv_avg * (w.concurrency - 1)  # paged attention: the longest, the others at the average
        weights = memory.shape_weight_bytes(w.shape, w.weights_dtype)
        fact.update(
            kv_per_seq_gb=kv_avg / GB,
            kv_total_gb=kv_total / GB,
            weights_gb=weights / GB,
            kv_exceeds_weights=kv_total > weights,
            context_avg_given=typical < w.context_tokens,
            context_avg=typical,
        )
    fact.update(_remedies(profile, w, metrics, kb))
    return fact


# ------------------------------------------------------------------------------------------------
# Findings, ranking, the Recommendation


def _finding(fired: rules_engine.Fired) -> Finding:
    rule = rules_engine.rules_by_id()[fired.rule_id]
    return Finding(rule_id=rule.id, severity=rule.severity, words=rule.finding, reject=rule.reject, cites=rule.cites,
                   bindings=dict(fired.bindings))


def _sort_findings(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (SEVERITY_ORDER[f.severity], f.rule_id))


def _score(o: _Option, best_cost: float, best_time_s: float | None, best_tps: float | None,
           time_floor_s: float = TIME_FLOOR_S, tight_s: tuple[float, float] | None = None) -> float:
    """Rank of a surviving option; higher is better.

        score = 100
                - 25 · log2(effective cost / cheapest effective cost)
                - 10 · log2(max(time, floor) / max(fastest time, floor))      (training)
                - 10 · log2(best tokens/s / tokens/s)                           (serving)
                -  5 · log2(servers)
                + 10 · min(headroom fraction, 0.3) / 0.3                        (memory to spare)
                - 12.5 when less than `TIGHT_HEADROOM` is free, when the run takes more than 80 % of the
                  deadline (no room for a rerun) or the slow end of its time range misses the deadline, or
                  when a rule marks the plan fragile (QLoRA off NVIDIA)
                - 25 when the optimizer states wait on the CPU
                -  4 · warnings - 1 · tips                                      (what the rules flagged)

    Effective cost = the option's cost (capex, rent, or 0 for GPUs the user owns) + electricity
    for the run when it runs on premises + $1 (so owned GPUs compare finitely). Runs shorter than
    the floor count as equally fast: one day (`TIME_FLOOR_S`) — nobody should rent 256 GPUs to save an
    afternoon — or, with a deadline, a quarter of it (`DEADLINE_SLACK`).
    A doubling of cost weighs 2.5 doublings of time; a warning weighs about 12 % more cost.
    """
    score = _base_score(o, best_cost, best_time_s, best_tps, time_floor_s, tight_s)
    rules = rules_engine.rules_by_id()
    if any(rules[f.rule_id].fragile for f in o.findings if f.rule_id in rules):
        score -= FRAGILE_PLAN_PENALTY
    score -= 4.0 * sum(1 for f in o.findings if f.severity == "warning")
    score -= 1.0 * sum(1 for f in o.findings if f.severity == "tip")
    return round(score, 2)


def _rank(options: list[_Option], profile: Profile) -> None:
    if not options:
        return
    best_cost = min(_effective_cost(o) for o in options)
    times = [o.m.time_s for o in options if o.m.time_s]
    tps = [o.m.tokens_per_s for o in options if o.m.tokens_per_s]
    floor_s, tight_s = _time_floor_s(profile), _tight_s(profile)
    for o in options:
        o.score = _score(o, best_cost, min(times) if times else None, max(tps) if tps else None, floor_s, tight_s)
    # A fit with almost nothing to spare never outranks a faster passing plan that has room and costs at most
    # `TIGHT_FIT_COST_RATIO` times as much: cheaper by half is not worth one allocator hiccup from out-of-memory
    # (an expert sizes for the load, then adds margin).
    # Nor does a plan that both costs more and takes longer outrank one with room that beats it on both: a
    # rented RTX 6000 Ada at $6.84 for 7.7 h was shown above an H100 NVL at $6.45 for 2.5 h (more memory to
    # spare, both under the time floor). Both caps are applied until the order settles (one may move an option
    # the other placed).
    # Who may cap whom does not depend on the scores, so it is worked out once; then the caps are applied in
    # order until nothing moves.
    roomy = [o for o in options if not o.rejected and not _memory_tight(o)]
    cappers = [(o, _cappers(o, roomy, tight_s)) for o in options if not o.rejected]
    cappers = [(o, above) for o, above in cappers if above]
    for _ in range(len(options)):
        changed = False
        for o, above in cappers:
            lowest = min(r.score for r in above)
            if o.score >= lowest:
                o.score, changed = round(lowest - 0.01, 2), True
        if not changed:
            break


NEAR_MISS_RATIO = 5.0
"""A ruled-out option the user did not name is listed only when it is within this factor of every limit it breaks:
"an H100 board is 4.75 x your budget" still tells what the card people ask about costs; 8 x MI250X at 16 x the
budget and 6 x the circuit tells nothing."""


def _only_sold_elsewhere(o: _Option) -> bool:
    """Ruled out only because the card is sold in another market (an RTX 4090D outside mainland China): no near
    miss for someone who never asked about it."""
    return all(f.rule_id == "cost.china-market-only" for f in o.findings if f.reject)


def _cappers(o: _Option, roomy: list[_Option], tight_s: tuple[float, float] | None) -> list[_Option]:
    """The plans with room that `o` may not rank above (`_rank`)."""
    if _memory_tight(o):
        dearest = TIGHT_FIT_COST_RATIO * (o.cost_usd + 1.0)
        return [r for r in roomy if _faster(r, o) and r.cost_usd + 1.0 <= dearest]
    if o.owned:
        return []
    if o.m.offload or not _on_schedule(o, tight_s):
        dearest = ROBUST_COST_RATIO * (o.cost_usd + 1.0)
        return [r for r in roomy if r.cost_usd + 1.0 <= dearest and not r.m.offload
                and _on_schedule(r, tight_s) and (o.m.offload or _faster(r, o))]
    concerns = _concerns(o)  # (a plan on the edge never dominates one that is not: that made a cycle, blind12-11)
    return [r for r in roomy if r is not o and not r.m.offload and _on_schedule(r, tight_s)
            and _dominates(r, o, concerns)]


TIGHT_FIT_COST_RATIO = 4.0
"""How much more a faster plan with room may cost and still rank above a tight fit (two doublings of cost, 50 score
points): 2 x RTX PRO 6000 over one card at 0.5 GiB free, yes; a $400k board over a $9 rental, no."""


ROBUST_COST_RATIO = 8.0
"""How much more a passing plan may cost and still rank above one that works only on the edge of the job — its
optimizer waiting on the CPU (offload), or its run past 80 % of the deadline or its slow end past it — when the
dearer plan keeps the states on its GPUs and meets the deadline with room (three doublings). CPU offload is the
last resort of a memory that is too small, and a schedule with no room for a rerun is a schedule missed. Two blind
experts chose an 8 x H20 board within budget over 6 x A10 at a quarter of its price: blind2-10 (8-bit Adam, 95 %
of a 45-day deadline, slow end past it) and blind5-09 (CPU offload). A cheap plan stays ahead of a card five times
dearer only when that card is over the budget (rejected, so never above it)."""


def _on_schedule(o: _Option, tight_s: tuple[float, float] | None) -> bool:
    """The run leaves room for a rerun before the deadline, even at the slow end of its range (no deadline: yes)."""
    if tight_s is None or not o.m.time_s:
        return True
    return o.m.time_s <= tight_s[0] and (o.m.time_s_high or 0.0) <= tight_s[1]


def _memory_tight(o: _Option) -> bool:
    """Less than `TIGHT_HEADROOM` of the card free (GPUs the user owns are what they have: never demoted)."""
    return not o.owned and o.m.capacity_bytes > 0 and 0.0 <= o.m.headroom_bytes / o.m.capacity_bytes < TIGHT_HEADROOM


def _dominates(a: _Option, b: _Option, b_concerns: int) -> bool:
    """`a` uses no more GPUs than `b`, costs no more (within a cent), is faster, gets its GPUs the same way (more
    GPUs for the same rent is not simply better: servers, networking, sharding) and has no more concerns than `b`'s
    `b_concerns`."""
    return (a.acquisition == b.acquisition and a.m.count <= b.m.count and a.cost_usd <= b.cost_usd + 0.01
            and _faster(a, b) and _concerns(a) <= b_concerns)


def _concerns(o: _Option) -> int:
    """Warnings and critical findings on an option (what an expert would have to explain away)."""
    return sum(1 for f in o.findings if f.severity in ("warning", "critical"))


def _faster(a: _Option, b: _Option) -> bool:
    """`a` does the work sooner (training) or serves more tokens per second (serving) than `b`."""
    if a.m.time_s and b.m.time_s:
        return a.m.time_s < b.m.time_s
    return bool(a.m.tokens_per_s and b.m.tokens_per_s and a.m.tokens_per_s > b.m.tokens_per_s)


PREFERENCE_MARGIN = 40.0
"""Score points a GPU the user named may trail the best option by and still lead: 40 is about three times the
effective cost (25 points per doubling, `_score`). An expert answers with the card asked about when it is a
reasonable choice, and says no when another does the job for a fraction of its cost. With a budget the user
has said what they can spend, and every passing option is within it: the card they named leads — unless it
takes more than four times the GPUs of the best as well (128 rented RTX 4090s across nodes beside eight H100s,
blind7-04), which no expert would sign."""


def _prefer(ranked: list[_Option], profile: Profile) -> list[_Option]:
    """The best passing option on a GPU the user named ("how many H100 do I need?", "想上 H200") leads the
    list, after their own GPUs when those lead (what they have comes before what they asked about); the
    rest keep their rank and stay visible as the cheaper or faster alternatives. What the rules reject (a
    GeForce card in a data centre) never passes, so it never leads; warnings stay on the option."""
    wanted = next((o for o in ranked if o.gpu.id in profile.preferred_gpus and not o.owned), None)
    if wanted is None:
        return ranked
    if wanted.m.offload or _memory_tight(wanted) or not _on_schedule(wanted, _tight_s(profile)):
        return ranked  # a plan on the edge (states on the CPU, no room, no time for a rerun) does not lead for a name
    if (profile.budget_usd is None or wanted.m.count > ranked[0].m.count * 4) and \
            wanted.score < ranked[0].score - PREFERENCE_MARGIN:
        return ranked  # far worse than the best (an H100 bought for 10 GPU-hours a week, 128 x RTX 4090 beside
        # 8 x H100): the advice says so
    rest = [o for o in ranked if o is not wanted]
    lead = 0
    while lead < len(rest) and rest[lead].owned:
        lead += 1
    return rest[:lead] + [wanted] + rest[lead:]


def _best_per_gpu(ranked: list[_Option]) -> list[_Option]:
    """Keep the best-ranked option per (GPU model, acquisition, owned): a varied list of choices."""
    seen: set[tuple[str, str, bool]] = set()
    out = []
    for o in ranked:
        key = (o.gpu.id, o.acquisition, o.owned)
        if key not in seen:
            seen.add(key)
            out.append(o)
    return out


def _candidate(o: _Option) -> Candidate:
    m = o.m
    mem = m.memory

    def hours(s: float | None) -> float | None:
        return s / 3600.0 if s is not None else None

    return Candidate(
        gpu=o.gpu.id, gpu_name=o.gpu.name, count=m.count, strategy=m.strategy, acquisition=o.acquisition,  # type: ignore[arg-type]
        memory_per_gpu=MemoryBreakdown(weights=mem.weights, gradients=mem.gradients, optimizer=mem.optimizer,
                                       activations=mem.activations, kv_cache=mem.kv_cache, overhead=mem.overhead),
        capacity_bytes=m.capacity_bytes, fits=m.fits,
        time_hours=hours(m.time_s), time_hours_low=hours(m.time_s_low), time_hours_high=hours(m.time_s_high),
        tokens_per_s=m.tokens_per_s, power_w=m.power_w, facility_w=m.facility_w, cost_usd=o.cost_usd,
        buy_usd=m.buy_usd, rent_usd=m.rent_usd, energy_usd=m.energy_usd if o.on_prem else None,
        score=o.score, findings=tuple(_sort_findings(o.findings)),
        checkpointing=m.checkpointing, micro_batch=m.micro_batch, optimizer=m.optimizer, offload=m.offload,
        weights_dtype=m.weights_dtype, kv_dtype=m.kv_dtype, usage_hours=m.usage_hours,
        ownership_usd=o.total_usd if o.on_prem and not o.owned else None, ttft_s=m.ttft_s,
        max_concurrency=m.max_concurrency, host_ram_bytes=m.host_ram_bytes, power_limit_w=o.power_limit_w,
    )


def _rejected(o: _Option) -> Rejected:
    reasons = [f for f in o.findings if f.reject]
    return Rejected(gpu=o.gpu.id, gpu_name=o.gpu.name, count=o.m.count, strategy=o.m.strategy,
                    reasons=tuple(_sort_findings(reasons)))


def _assumptions(profile: Profile, w: planner.Workload, shown: list[_Option]) -> dict[str, str | float | int]:
    out: dict[str, str | float | int] = {}
    for key, value in w.assumptions:
        out[f"workload.{key}"] = value
    buy_dates = sorted({o.gpu.price.date for o in shown if o.gpu.price is not None})
    rent_dates = sorted({o.gpu.cloud_hourly.date for o in shown if o.gpu.cloud_hourly is not None})
    if buy_dates:
        out["price_dates"] = ", ".join(buy_dates)
    if rent_dates:
        out["cloud_rate_dates"] = ", ".join(rent_dates)
    mfus = [o.m.mfu for o in shown if o.m.mfu is not None]
    if mfus:
        out["mfu"] = round(mfus[0], 3)
    out["pue"] = profile.pue
    horizon = planner.usage_horizon_days(w)
    if horizon is not None:
        out["costed_over_days"] = horizon  # what rent, electricity and ownership are summed over
    out["electricity_usd_per_kwh"] = profile.electricity_usd_per_kwh
    out["buy_vs_rent_utilization"] = planner.TRAINING_UTILIZATION
    out["prices"] = "midpoint of each dated range; buy = GPUs + servers; rent = on-demand"
    if profile.rack_kw is not None:
        out["rack_kw"] = profile.rack_kw
        out["rack_scope"] = "the rack power is what this deployment may use"
    out["servers_per_rack_for_density"] = SERVERS_PER_RACK
    return out


def _miss_ratio(o: _Option, profile: Profile) -> float:
    """How far a ruled-out option is from the limits it breaks: the largest of cost / budget, power / rack,
    time / deadline, first token / its limit and memory / capacity (1 when it breaks none of those: a licence)."""
    ratios = [1.0]
    if profile.budget_usd:
        ratios.append(o.cost_usd / profile.budget_usd)
    if profile.rack_kw and o.on_prem:
        ratios.append(o.m.power_w / 1000.0 / profile.rack_kw)
    if profile.deadline_days and o.m.time_s:
        ratios.append(o.m.time_s / 86400.0 / profile.deadline_days)
    if profile.max_ttft_s and o.m.ttft_s:
        ratios.append(o.m.ttft_s / profile.max_ttft_s)
    if o.m.capacity_bytes and not o.m.fits:  # 64 T4s needing 88 GiB of 15 are no near miss
        ratios.append(o.m.memory.total / o.m.capacity_bytes)
    return max(ratios)


def _near_miss_key(o: _Option, profile: Profile) -> tuple:
    """Nearest miss first: none that no changed limit lets through (export controls, a buyer's policy), then
    fewest critical reasons, fewest reasons, the smallest overshoot of a budget, rack, deadline, first-token limit
    or card's memory (`_miss_ratio`: a card 20 % over budget before one at 3x it), and the better score."""
    reasons = [f for f in o.findings if f.reject]
    critical = sum(1 for f in reasons if f.severity == "critical")
    return (_forbidden(o), critical, len(reasons), round(_miss_ratio(o, profile), 1), -o.score)


def _forbidden(o: _Option) -> bool:
    """A rule that no changed limit gets past ruled the option out (export controls, a buyer's policy)."""
    rules = rules_engine.rules_by_id()
    return any(rules[f.rule_id].forbidden for f in o.findings if f.reject)


def _workload(profile: Profile, kb: KnowledgeBase) -> planner.Workload:
    """The profile's workload, or RecommendError (with a UI string key) when it names no usable model."""
    if not (profile.model or profile.params or profile.model_text):
        raise RecommendError("recommend.error.no_model")
    from advisor.core.params import ConfigError

    try:
        return planner.workload_from_profile(profile, kb)
    except ConfigError as exc:  # a config.json the advisor cannot read: its own localized message
        raise RecommendError(exc.key, str(exc), **exc.values) from None
    except (ValueError, KeyError) as exc:
        raise RecommendError("recommend.error.bad_profile", str(exc)) from None


def _judge(shortlist: list[_Option], profile: Profile, base: dict[str, Any],
           profile_fact: dict[str, Any] | None = None) -> list[Finding]:
    """Run the rules on the shortlisted options (and the profile fact): each option gets its findings and is
    rejected when a reject rule fired on it; returns the profile-wide findings."""
    facts = ([profile_fact] if profile_fact else []) + [_candidate_fact(o, profile, base) for o in shortlist]
    by_fact = {o.fact_id: o for o in shortlist}
    rules = rules_engine.rules_by_id()
    profile_findings: list[Finding] = []
    for f in rules_engine.evaluate(facts):
        finding = _finding(f)
        if f.fact_id == "profile":
            profile_findings.append(finding)
            continue
        option = by_fact[f.fact_id]
        option.findings.append(finding)
        if rules[f.rule_id].reject:
            option.rejected = True
    return profile_findings


def examine(profile: Profile, gpu: str, count: int | None = None, kb: KnowledgeBase | None = None) -> Candidate | None:
    """The best configuration on the GPU named `gpu` (id or alias) for `profile` — at `count` GPUs when given
    (the nearest count the search builds at or above it), else at whatever count works best — judged by the
    same rules as `recommend`: a passing option when there is one, else the nearest miss, its findings saying
    why. None when the GPU is unknown or cannot be acquired under the profile. "Why not 8 × H100?" asks this.

    Raises RecommendError like `recommend`.
    """
    kb = kb or knowledge()
    spec = kb.gpu(gpu)
    if spec is None:
        return None
    workload = _workload(profile, kb)
    metrics = planner.sweep(workload, [spec])
    if count is not None:
        counts = sorted({m.count for m in metrics})
        at = next((c for c in counts if c >= count), counts[-1] if counts else None)
        metrics = [m for m in metrics if m.count == at]
    shortlist = _shortlist(_options(metrics, profile, kb, workload), profile)
    if not shortlist:
        return None
    _judge(shortlist, profile, _profile_fields(profile, workload))
    _rank(shortlist, profile)
    passing = sorted((o for o in shortlist if not o.rejected), key=lambda o: -o.score)
    best = passing[0] if passing else min(shortlist, key=lambda o: _near_miss_key(o, profile))
    return _candidate(best)


def recommend(profile: Profile, kb: KnowledgeBase | None = None) -> Recommendation:
    """Ranked configurations for `profile`, rejected options with reasons, profile-wide findings.

    Raises RecommendError (with a UI string key) when the profile names no usable model.
    """
    kb = kb or knowledge()
    workload = _workload(profile, kb)
    unknown = [item.gpu for item in profile.owned_gpus if kb.gpu(item.gpu) is None]
    if unknown:
        raise RecommendError("recommend.error.unknown_owned", ", ".join(unknown))
    if in_mainland_china(profile):
        kb = mainland_rates(kb)
    rec, passed = _advise(profile, kb, workload)
    if not passed and _may_quantize_to_fit(workload):
        quantized, passed = _advise(profile, kb, dataclasses.replace(workload, weights_dtype="int4"), True)
        if passed:
            return quantized
    return rec


def _may_quantize_to_fit(w: planner.Workload) -> bool:
    """A service nothing passes for in 16 or 8 bits, whose weight format the user left open: an expert's next
    step is a 4-bit model (AWQ/GPTQ builds are published for the common open models), said as such
    (blind10-06: Qwen2.5-72B for 8 users on ¥10k a month, one 80-96 GB card at 4 bits)."""
    return w.task == "inference" and not w.serving_precision_given and w.weights_dtype in ("bf16", "fp16") \
        and w.shape.is_transformer


def _advise(profile: Profile, kb: KnowledgeBase, workload: planner.Workload,
            quantized_to_fit: bool = False) -> tuple[Recommendation, bool]:
    """`recommend` on `workload`, and whether any option passed."""
    metrics = planner.sweep(workload, list(kb.gpus.values()))
    options = _options(metrics, profile, kb, workload)
    shortlist = _shortlist(options, profile)
    base = _profile_fields(profile, workload)
    fact = _profile_fact(profile, workload, metrics, shortlist, base, kb)
    if quantized_to_fit:
        fact["quantized_to_fit"] = True
    profile_findings = _judge(shortlist, profile, base, fact)

    survivors = [o for o in shortlist if not o.rejected]
    losers = [o for o in shortlist if o.rejected]
    _rank(survivors, profile)
    _rank(losers, profile)
    survivors.sort(key=lambda o: -o.score)
    survivors = _prefer(_best_per_gpu(survivors), profile)
    if survivors:
        top = survivors[:TOP_N]
        alternatives = survivors[TOP_N:]
    else:
        losers.sort(key=lambda o: _near_miss_key(o, profile))
        top = losers[:TOP_N]
        alternatives = []
        second = {"id": "profile-2", "kind": "profile", "nothing_survives": True, "model_name": workload.model_name}
        profile_findings += [_finding(f) for f in rules_engine.evaluate([second])]
    # Rejected: for each GPU model without a recommended or alternative option, its best rejected one.
    shown_gpus = {o.gpu.id for o in top} | {o.gpu.id for o in alternatives}
    best_loser: dict[str, _Option] = {}
    owned_losers: dict[str, _Option] = {}
    for o in sorted(losers, key=lambda o: _near_miss_key(o, profile)):
        if o in top:
            continue
        if o.owned:  # the user's own GPUs: always say why they cannot do the job
            owned_losers.setdefault(o.gpu.id, o)
        elif o.gpu.id not in shown_gpus and (o.gpu.id in profile.preferred_gpus or (
                not _only_sold_elsewhere(o) and _miss_ratio(o, profile) <= NEAR_MISS_RATIO)):
            best_loser.setdefault(o.gpu.id, o)
    # The user's own cards first, then those they asked about, then the near misses: what a limit alone keeps
    # out, nearest to passing first ("the RTX 4090 is $200 over your budget"), the most capable among equals.
    rejected = list(owned_losers.values()) + sorted(
        best_loser.values(), key=lambda o: (o.gpu.id not in profile.preferred_gpus,
                                            sum(1 for f in o.findings if f.reject and f.severity == "critical"),
                                            round(_miss_ratio(o, profile), 1),
                                            -(o.gpu.bf16_tflops or o.gpu.fp16_tflops), -o.gpu.memory_gb, o.gpu.id))

    return Recommendation(
        profile=profile,
        recommendations=tuple(_candidate(o) for o in top),
        alternatives=tuple(_candidate(o) for o in alternatives),
        rejected=tuple(_rejected(o) for o in rejected),
        findings=tuple(_sort_findings(profile_findings)),
        assumptions=_assumptions(profile, workload, top + alternatives),
    ), bool(survivors)
