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
  for the rest; more GPUs need a bigger platform (PSU, board, CPU lanes): our assumption, $700 + $300 per
  extra GPU (low) to $2,000 + $1,000 per extra GPU (high).
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

DESKTOP_BASE_USD = (700.0, 2_000.0)
DESKTOP_PER_EXTRA_GPU_USD = (300.0, 1_000.0)


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


def server_usd(gpu, gpus_in_node: int) -> Range:
    """What one server around `gpus_in_node` GPUs costs, GPUs excluded, USD."""
    form = gpu.form_factor
    if form in ("sxm", "oam", "sxm2", "sxm4", "sxm5") or "superchip" in form:
        return Range(*SXM_SERVER_USD)
    if gpu.segment == "datacenter":
        small, full = DATACENTER_PCIE_SMALL_USD, DATACENTER_PCIE_SERVER_USD
        share = min(1.0, max(0, gpus_in_node - 2) / 6)  # 1-2 GPUs: small server; 8: the full one
        return Range(small[0] + (full[0] - small[0]) * share, small[1] + (full[1] - small[1]) * share)
    extra = max(0, gpus_in_node - 1)
    return Range(DESKTOP_BASE_USD[0] + DESKTOP_PER_EXTRA_GPU_USD[0] * extra,
                 DESKTOP_BASE_USD[1] + DESKTOP_PER_EXTRA_GPU_USD[1] * extra)


def capex_usd(gpu, count: int) -> Range | None:
    """Buying `count` GPUs and the servers that hold them, USD; None when the catalogue has no price."""
    if gpu.price is None or count < 1:
        return None
    per_node = max(1, gpu.max_per_node)
    full, rest = divmod(count, per_node)
    servers = server_usd(gpu, per_node).scale(full)
    if rest:
        servers = servers.plus(server_usd(gpu, rest))
    return Range(gpu.price.low_usd * count, gpu.price.high_usd * count).plus(servers)


def rent_usd_per_hour(gpu, count: int) -> Range | None:
    """Cloud on-demand for `count` GPUs, USD/h (the catalogue's dated range); None when unknown."""
    if gpu.cloud_hourly is None or count < 1:
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
