"""Power: what a configuration draws from the wall and the room, and what a circuit or rack can carry.

Why this module exists: the seed article's facility questions (350-700 W cards, 30-60 A circuits at
208-240 V, cooling adding 30-40 %, racks above ~30 kW needing liquid) decide whether a purchase can
be switched on at all. Watts, volts, amps, kW for circuits; the rules decide, this module only
computes.

Sources (shared/reference/advisory-anchors.md "AA" §3, numeric-anchors.md "NA" §1.8):
- DGX H100: 10.2 kW maximum for 8 x 700 W GPUs, typical 6.5-8.5 kW; DGX B200: 14.3 kW maximum for
  8 x 1,000 W GPUs (NVIDIA user guides, AA §3b).
- 4 x RTX 3090 at 300 W each peaked at 1,717 W from the wall (thefpsreview.com 2020, AA §1).
- NEC 80 % continuous-load rule; kVA = V x A x sqrt(3) x 0.8 for three-phase (HP "Power basics",
  AA §3a): 208 V / 30 A three-phase -> 8,646 VA.
The air-cooling limits (~30 kW per rack, rear-door heat exchangers to ~50 kW, AA §3c) are the rules'
(rules/facility.yaml), not this module's.
"""

from __future__ import annotations

import math

HOST_SHARE_OF_GPU_POWER_SXM = 0.8
"""Server power beyond the GPUs (CPUs, memory, NICs, NVSwitches, fans, PSU losses) as a share of the
GPUs' TDP, at maximum, for SXM/OAM servers: DGX H100 (10.2 kW - 8 x 0.7 kW) / 5.6 kW = 0.82; DGX B200
(14.3 kW - 8 x 1.0 kW) / 8.0 kW = 0.79 (AA §3b)."""

HOST_BASE_W_PCIE = 250.0
HOST_PER_GPU_W_PCIE = 75.0
"""PCIe servers and workstations: 250 W for the platform + 75 W per GPU (fans, PCIe switches, PSU
loss). Check: 4 x RTX 3090 at 300 W measured 1,717 W at the wall -> 517 W beyond the cards
(250 + 4 x 75 = 550, AA §1); 2 x RTX 5090 on a Xeon W5 draw 1,550 W -> 400 W beyond the cards (250 + 2 x 75,
platforms.md §1)."""

HOST_PER_GPU_SHARE = 0.25
"""The per-GPU overhead is at most this share of the card's own power: fans and PSU losses grow with what the card
draws, so a 72 W slot-powered L4 adds ~18 W, not the 75 W of a 300-575 W card (which the builds above measure)."""

TYPICAL_OF_MAX = 7.5 / 10.2
"""Average draw of a training server as a share of its maximum: DGX H100 typical 6.5-8.5 kW (midpoint
7.5) of 10.2 kW maximum (AA §3b). Used for energy, never for circuit sizing."""

CONTINUOUS_LOAD_FACTOR = 0.8
"""NEC: breakers are derated to 80 % for loads running more than 3 hours (AA §3a)."""


def _sxm_like(gpu) -> bool:
    return gpu.form_factor in ("sxm", "oam", "sxm2", "sxm4", "sxm5") or "superchip" in gpu.form_factor


def node_power_w(gpu, gpus_in_node: int) -> float:
    """Maximum IT power of one server holding `gpus_in_node` GPUs (for circuits and racks), W."""
    gpus_w = gpu.tdp_w * gpus_in_node
    if _sxm_like(gpu):
        # Boards are bought whole (4 or 8 GPUs, advisor.core.cost.sold_in); fewer GPUs is a rented slice of
        # such a server, which draws its share of the host.
        return gpus_w * (1.0 + HOST_SHARE_OF_GPU_POWER_SXM)
    return gpus_w + HOST_BASE_W_PCIE + per_gpu_overhead_w(gpu) * gpus_in_node


def per_gpu_overhead_w(gpu) -> float:
    """Host power a PCIe card adds beyond its own (`HOST_PER_GPU_W_PCIE`, at most `HOST_PER_GPU_SHARE` of it), W."""
    return min(HOST_PER_GPU_W_PCIE, HOST_PER_GPU_SHARE * gpu.tdp_w)


def configuration_power_w(gpu, count: int) -> tuple[float, float, int]:
    """(IT power of all servers at maximum W, one full server's maximum W, number of servers)."""
    per_node = max(1, gpu.max_per_node)
    nodes = math.ceil(count / per_node)
    full, rest = divmod(count, per_node)
    total = full * node_power_w(gpu, per_node) + (node_power_w(gpu, rest) if rest else 0.0)
    return total, node_power_w(gpu, min(count, per_node)), nodes


def average_power_w(max_power_w: float) -> float:
    """Average draw of servers under a training load (TYPICAL_OF_MAX x maximum), W."""
    return max_power_w * TYPICAL_OF_MAX






def circuit_kw(volts: float, amps: float, phases: int = 1, *, continuous: bool = True,
               power_factor: float = 1.0) -> float:
    """Usable power of one branch circuit, kW.

    Single-phase: V x A; three-phase (line-to-line volts): V x A x sqrt(3); x 0.8 for continuous
    loads (NEC), x power factor when the load's is known (AusNOG example: PF 0.9).
    208 V / 30 A three-phase -> 8.646 kW; 208 V / 30 A single-phase -> 4.992 kW.
    """
    if volts <= 0 or amps <= 0:
        raise ValueError("volts and amps must be positive")
    if phases not in (1, 3):
        raise ValueError("a circuit is single-phase (1) or three-phase (3)")
    va = volts * amps * (math.sqrt(3) if phases == 3 else 1.0)
    if continuous:
        va *= CONTINUOUS_LOAD_FACTOR
    return va * power_factor / 1000.0


def circuits_needed(load_w: float, circuit_capacity_kw: float) -> int:
    """Circuits of `circuit_capacity_kw` needed to carry `load_w` (no redundancy), at least 1."""
    if circuit_capacity_kw <= 0:
        raise ValueError("circuit capacity must be positive")
    return max(1, math.ceil(load_w / (circuit_capacity_kw * 1000.0) - 1e-9))
