"""Cost: buying GPUs and the servers around them, renting them by the hour, paying for electricity,
and when buying beats renting.

Why this module exists: the recommendation has to say what each option costs in money, with ranges
(prices disagree and move: the cheapest 8 x H100 node rose 42 % in six months, gpu-catalogue.md §4)
and with the break-even that decides buy vs rent. USD everywhere; the catalogue dates its prices.

Sources (shared/reference/advisory-anchors.md "AA" §4, gpu-catalogue.md "GC" §4):
- GPU street prices and cloud $/GPU-hour ranges come from the catalogue (`GpuSpec.price`,
  `GpuSpec.cloud_hourly`).
- Server around 8 SXM GPUs: SemiAnalysis' DGX H100 bill of materials puts the non-GPU parts at
  $32,010 (CPUs, memory, NICs, NVSwitch board, storage, chassis; epoch-research/training-cost-trends);
  Thinkmate quoted an 8 x H100 HGX server with 8 x 400 Gb/s InfiniBand at $317k in Aug 2024, i.e.
  ~$77k beyond 8 x $30k GPUs. Range $32k-77k per node.
- Desktop/workstation: Dettmers' 2020 build with one RTX 3090 cost $2,200 against a $1,500 card -> $700
  for the rest; a 2026 build (8-core CPU, board, 64 GB, 1,000 W PSU, case, SSD) is $900-1,600 (our
  assumption); more GPUs need a bigger platform (PSU, board, CPU lanes): $300-1,000 per extra GPU, so four
  cards (Threadripper-class, two PSUs) come to $1,800-4,600 beyond the GPUs (platforms.md §1).
- Break-even: Dettmers' D* = C / (24 · u · (p_cloud - kW · e)), which reproduces his 293-day result.
"""

from __future__ import annotations

import math
from typing import NamedTuple

SXM_SERVER_USD = (32_010.0, 77_000.0)
"""Non-GPU cost of an 8-GPU SXM/OAM server, USD (low, high) — see the module docstring."""

DATACENTER_PCIE_SERVER_USD = (15_000.0, 40_000.0)
"""Non-GPU cost of a full PCIe GPU server (dual CPU, 8 slots, 100-200 Gb/s NIC), USD — our assumption,
below the HGX figure because it has no NVSwitch baseboard and a smaller network."""

DATACENTER_PCIE_SMALL_USD = (6_000.0, 12_000.0)
"""Non-GPU cost of a 1-2 slot PCIe server (single CPU, 2U, 25 Gb/s NIC), USD — our assumption. A server
grows from this towards the full 8-slot figure in steps per GPU slot, so one L40S is not charged for a
chassis built for eight."""

DESKTOP_BASE_USD = (900.0, 1_600.0)
DESKTOP_SECOND_GPU_USD = (150.0, 500.0)
"""A second card on a consumer board (x8/x8 slots, a 1,200-1,600 W PSU instead of 1,000 W): our assumption
from the 2x RTX 5090 builds on one 1,600 W PSU (platforms.md §1)."""
DESKTOP_HEDT_USD = (1_800.0, 4_600.0)
"""Three or four cards need a workstation platform (Threadripper/Xeon W/EPYC, 4 x16 slots, two PSUs): the
whole machine beyond the GPUs (platforms.md §1; an EPYC 7252 + ROMED8-2T + 1,600 W rig came to ~$1,300)."""


class Range(NamedTuple):
    """A money range, USD."""

    low: float
    high: float

    @property
    def mid(self) -> float:
        return (self.low + self.high) / 2

    def scale(self, factor: float) -> Range:
        return Range(self.low * factor, self.high * factor)

    def plus(self, other: Range) -> Range:
        return Range(self.low + other.low, self.high + other.high)


SXM4_SERVER_USD = (20_000.0, 45_000.0)
"""Non-GPU cost of a 4-GPU SXM server (HGX 4-GPU board without NVSwitch, e.g. Dell XE8640), USD — our
assumption between a PCIe server and the 8-GPU HGX figure (platforms.md §9: barebones prices not found)."""


def _sxm(gpu) -> bool:
    form = gpu.form_factor
    return form in ("sxm", "oam", "sxm2", "sxm4", "sxm5") or "superchip" in form


def server_usd(gpu, gpus_in_node: int) -> Range:
    """What one server around `gpus_in_node` GPUs costs, GPUs excluded, USD."""
    if _sxm(gpu):
        return Range(*(SXM4_SERVER_USD if gpus_in_node <= 4 else SXM_SERVER_USD))
    if gpu.segment == "datacenter":
        small, full = DATACENTER_PCIE_SMALL_USD, DATACENTER_PCIE_SERVER_USD
        share = min(1.0, max(0, gpus_in_node - 2) / 6)  # 1-2 GPUs: small server; 8: the full one
        return Range(small[0] + (full[0] - small[0]) * share, small[1] + (full[1] - small[1]) * share)
    if gpus_in_node <= 1:
        return Range(*DESKTOP_BASE_USD)
    if gpus_in_node == 2:
        return Range(*DESKTOP_BASE_USD).plus(Range(*DESKTOP_SECOND_GPU_USD))
    if gpus_in_node <= WORKSTATION_MAX_CARDS:
        return Range(*DESKTOP_HEDT_USD)
    return Range(*CARD_SERVER_USD)

WORKSTATION_MAX_CARDS = 4
"""Cards a workstation holds: the 4 x16 slots of a Threadripper PRO / Xeon W board and two PSUs (platforms.md §1:
the vendors' 4 x RTX 5090 and 4 x RTX PRO 6000 builds)."""

CARD_SERVER_USD = (8_000.0, 20_000.0)
"""Five to eight GeForce or workstation cards: a rack server, not a desktop — the vendor's 8-card build is two EPYC
9004 on a GENOA2D24G-2L+ board in a 5U chassis with four 2,000 W CRPS supplies (platforms.md §1), or a 4U 8-slot
PCIe server (§2). Its price without GPUs is not published (§2: `?`); our assumption from parts: board ~$1.2k, two
CPUs $2-6k, 256-512 GB ECC $1.5-4k, chassis, risers and supplies $2-5k, NIC and storage $1-3k."""


def purchase_price(gpu):
    """(the dated price range one pays per GPU, bought used) — new when the card is still sold new, else
    second-hand; None when neither is known."""
    if gpu.price is not None:
        return gpu.price, False
    if gpu.price_used is not None:
        return gpu.price_used, True
    return None


def sold_in(gpu, count: int) -> bool:
    """Whether `count` GPUs of this model can be bought: SXM/OAM parts come only on whole baseboards."""
    board = gpu.board or (8 if _sxm(gpu) else None)
    return board is None or count % board == 0


def capex_usd(gpu, count: int) -> Range | None:
    """Buying `count` GPUs and the servers that hold them, USD; None when the catalogue has no price or
    the count is not a whole number of baseboards (SXM/OAM)."""
    price = purchase_price(gpu)
    if price is None or count < 1 or not sold_in(gpu, count):
        return None
    per_node = max(1, gpu.max_per_node)
    full, rest = divmod(count, per_node)
    servers = server_usd(gpu, per_node).scale(full)
    if rest:
        servers = servers.plus(server_usd(gpu, rest))
    return Range(price[0].low_usd * count, price[0].high_usd * count).plus(servers)


def cards_usd(gpu, count: int) -> float | None:
    """The cards alone, `count` of them, at the midpoint of the price one pays (no server around them), USD."""
    price = purchase_price(gpu)
    return None if price is None or count < 0 else Range(price[0].low_usd, price[0].high_usd).mid * count


HOST_CARDS = 2
"""Cards a computer the user already has can take: a desktop board has two x16 (x8/x8) slots; three or four
need a workstation platform (`DESKTOP_HEDT_USD`), which is a new machine, not the old one (platforms.md §1)."""


def existing_host_credit_usd(gpu, count: int) -> float:
    """What a purchase of `count` PCIe GPUs saves when they go into a computer the user already has, USD: the
    machine `capex_usd` charges around one or two cards, at its midpoint — a desktop base (CPU, board, memory,
    case, power supply) for a GeForce or workstation card, the small server for a data-centre card (an L4 or T4 in
    the user's own PC is not sold with a server). A second GeForce or workstation card still pays its own upgrade
    (`DESKTOP_SECOND_GPU_USD`); SXM/OAM boards and three or more cards need a new machine: no credit."""
    if _sxm(gpu) or not 1 <= count <= HOST_CARDS:
        return 0.0
    if gpu.segment == "datacenter":
        return server_usd(gpu, count).mid
    return min(Range(*DESKTOP_BASE_USD).mid, server_usd(gpu, count).mid)


UPKEEP_FRACTION_PER_YEAR = 0.05
"""Yearly cost of keeping owned hardware running (spares, extended warranty, an admin's time), as a share
of its purchase price — our assumption, beside OEM warranties of 3-5 years and support contracts of
~20 % a year for DGX systems (platforms.md §6)."""


RESALE_AT_ONCE = 0.8
"""What hardware fetches second-hand right after it is bought, as a share of what was paid: the dealer's and
the buyer's margins (our assumption; platforms.md §6 has no figure for a one-month-old card)."""

RESALE_DECAY_PER_YEAR = 0.25
"""How fast resale value falls, per year (value x exp(-0.25 years)). Fitted by eye to the resale table of
platforms.md §6: H100 60-65 % / 40-45 % / 25-35 % after 1/2/3 years (GLRI), RTX A6000 ~60 % after 5, RTX 3090
33-53 % after 5.5, A100 80GB 27-60 % after 5.5, V100 ~0 after 9. With `RESALE_AT_ONCE` this gives 62 / 49 /
38 / 23 / 20 / 8 % at 1 / 2 / 3 / 5 / 5.5 / 9 years: within 10 points of the H100 index's midpoints, about
25 points under the A6000 and 3090 (workstation cards hold value better), 10 over the V100."""


def resale_fraction(years: float) -> float:
    """The share of the purchase price owned hardware sells for after `years` of use."""
    return RESALE_AT_ONCE * math.exp(-RESALE_DECAY_PER_YEAR * max(years, 0.0))


def ownership_usd(capex: float, energy_usd: float, years: float) -> float:
    """What owning costs over a horizon: the purchase less what it resells for at the end, the electricity,
    and the upkeep per year, USD."""
    years = max(years, 0.0)
    return capex * (1.0 - resale_fraction(years) + UPKEEP_FRACTION_PER_YEAR * years) + energy_usd


RENTED_BOARD_SLICES = (1, 2, 4)
"""Instance sizes below a whole baseboard that clouds rent SXM/OAM GPUs in: 1, 2 or 4 GPUs of an 8-GPU board
(Lambda and most neoclouds; AWS rents H100 as 1 or 8 and H200/B200 only as 8, platforms.md §5); above a board,
whole boards. Three or six GPUs of a board are no instance anyone sells."""


def rented_in(gpu, count: int) -> bool:
    """Whether `count` GPUs of this model are an instance size a cloud rents: any count of PCIe cards; SXM/OAM
    parts in slices of one board (`RENTED_BOARD_SLICES`) or whole boards."""
    if not _sxm(gpu):
        return True
    board = gpu.board or 8
    return count in RENTED_BOARD_SLICES or count % board == 0


def rent_usd_per_hour(gpu, count: int) -> Range | None:
    """Cloud on-demand for `count` GPUs, USD/h (the catalogue's dated range); None when unknown, or when no cloud
    rents that many of an SXM/OAM part as one instance (`rented_in`)."""
    if gpu.cloud_hourly is None or count < 1 or not rented_in(gpu, count):
        return None
    return Range(gpu.cloud_hourly.low_usd * count, gpu.cloud_hourly.high_usd * count)






def break_even_hours(capex: float, rent_per_hour: float, power_kw: float, usd_per_kwh: float,
                     pue: float = 1.0) -> float:
    """Hours of use after which owning costs less than renting: capex / (rent/h - electricity/h).
    Infinite when renting costs less per hour than the electricity alone."""
    margin = rent_per_hour - power_kw * pue * usd_per_kwh
    if margin <= 0:
        return math.inf
    return capex / margin


def break_even_days(capex: float, rent_per_hour: float, power_kw: float, usd_per_kwh: float,
                    utilization: float, pue: float = 1.0) -> float:
    """Calendar days to break even at a utilisation: Dettmers' D* = C / (24·u·(p - kW·e)).
    $2,200 desktop, $2.14/h cloud, 0.45 kW, $0.12/kWh, 15 % -> 293 days."""
    if not 0 < utilization <= 1:
        raise ValueError("utilization must be in (0, 1]")
    return break_even_hours(capex, rent_per_hour, power_kw, usd_per_kwh, pue) / (24.0 * utilization)
