"""Power, facility and cost arithmetic against the published figures in
shared/reference/advisory-anchors.md (sources named per test)."""

from __future__ import annotations

import math

import pytest

from advisor.core import cost, power
from advisor.models import GpuSpec, PriceRange


def _gpu(**over) -> GpuSpec:
    base = dict(id="h100-sxm", name="H100 SXM", vendor="nvidia", architecture="hopper", segment="datacenter",
                memory_gb=80, memory_type="HBM3", bandwidth_tbps=3.35, bf16_tflops=989, fp16_tflops=989,
                tdp_w=700, ecc=True, interconnect="NVLink 4", interconnect_gbps=450, nvlink=True, form_factor="sxm",
                max_per_node=8, launch_year=2022, source="datasheet",
                price=PriceRange(low_usd=25_000, high_usd=35_000, date="2026-08", source="test"),
                cloud_hourly=PriceRange(low_usd=2.0, high_usd=4.0, date="2026-08", source="test"))
    base.update(over)
    return GpuSpec(**base)


# HP "Power basics for IT professionals" Table 4 (NEC 80 % continuous rule), AA §3a.
@pytest.mark.parametrize(
    ("volts", "amps", "phases", "kw"),
    [
        (208, 30, 3, 8.646),   # 208 V three-phase 30 A: 8,646 VA
        (208, 60, 3, 17.292),  # 60 A: 17,292 VA
        (208, 20, 3, 5.764),
        (240, 30, 1, 5.760),   # 240 V single-phase 30 A: 5,760 VA
        (120, 20, 1, 1.920),
        (208, 30, 1, 4.992),   # 208 V x 30 A single-phase x 0.8
    ],
)
def test_circuit_capacity_nec_80_percent(volts, amps, phases, kw) -> None:
    assert power.circuit_kw(volts, amps, phases) == pytest.approx(kw, abs=0.001)


def test_circuit_power_factor_derating() -> None:
    # AusNOG example (AA §3a): 30 A x 0.8 x 230 V x PF 0.9 = 4,968 W
    assert power.circuit_kw(230, 30, 1, power_factor=0.9) == pytest.approx(4.968)
    assert power.circuit_kw(230, 32, 1, continuous=False) == pytest.approx(7.36)  # printed without derating


def test_dgx_nodes_from_the_host_share() -> None:
    # DGX H100: 10.2 kW max for 8 x 700 W; DGX B200: 14.3 kW max for 8 x 1,000 W (AA §3b).
    # One host share (0.8 of GPU power) reproduces both within 3 %.
    assert power.node_power_w(_gpu(), 8) == pytest.approx(10_200, rel=0.03)
    assert power.node_power_w(_gpu(tdp_w=1000, id="b200"), 8) == pytest.approx(14_300, rel=0.03)


def test_workstation_host_share() -> None:
    # 4 x RTX 3090 limited to 300 W each drew 1,717 W at the wall (thefpsreview.com, AA §1)
    rtx = _gpu(id="rtx-3090", segment="consumer", form_factor="pcie", nvlink=False, tdp_w=300, max_per_node=4)
    assert power.node_power_w(rtx, 4) == pytest.approx(1717, rel=0.05)


def test_dgx_h100_needs_a_60_amp_circuit() -> None:
    # Worked check (AA §3b): one DGX H100 at 10.2 kW exceeds 208 V/30 A three-phase (8.6 kW): two such
    # circuits or one 60 A (17.3 kW); one 60 A circuit does not carry two DGX H100 at maximum.
    node_w = power.node_power_w(_gpu(), 8)
    assert power.circuits_needed(node_w, power.circuit_kw(208, 30, 3)) == 2
    assert power.circuits_needed(node_w, power.circuit_kw(208, 60, 3)) == 1
    assert power.circuits_needed(2 * node_w, power.circuit_kw(208, 60, 3)) == 2


def test_configuration_power_counts_servers() -> None:
    total, node, nodes = power.configuration_power_w(_gpu(), 16)
    assert nodes == 2 and total == pytest.approx(2 * node)
    total3, _, nodes3 = power.configuration_power_w(_gpu(id="l40s", form_factor="pcie", nvlink=False,
                                                         tdp_w=350, max_per_node=8), 12)
    assert nodes3 == 2 and total3 == pytest.approx(12 * 350 + 2 * 250 + 12 * 75)


def test_a_circuit_is_single_or_three_phase() -> None:
    with pytest.raises(ValueError):
        power.circuit_kw(208, 30, 2)


def test_dettmers_break_even_293_days() -> None:
    # Dettmers 2020 (AA §1): $2,200 desktop, AWS V100 $2.14/h, 350 W + 100 W, $0.12/kWh, 15 % use -> ~300
    # days; his formula D* = C / (24·u·(p - kW·e)) gives 293.
    days = cost.break_even_days(2200, 2.14, 0.45, 0.12, 0.15)
    assert days == pytest.approx(293, rel=0.01)
    assert math.isinf(cost.break_even_hours(1000, 0.05, 1.0, 0.12))  # renting cheaper than the power


def test_capex_includes_servers_and_rent_scales() -> None:
    gpu = _gpu()
    buy = cost.capex_usd(gpu, 16)
    assert buy.low == pytest.approx(16 * 25_000 + 2 * cost.SXM_SERVER_USD[0])
    assert buy.high == pytest.approx(16 * 35_000 + 2 * cost.SXM_SERVER_USD[1])
    rent = cost.rent_usd_per_hour(gpu, 8).scale(10)
    assert (rent.low, rent.high) == (160, 320)
    assert cost.capex_usd(gpu.model_copy(update={"price": None}), 8) is None


def test_a_card_for_a_computer_one_has_does_not_buy_its_base_again() -> None:
    # platforms.md §1: a 2026 desktop around one card (CPU, board, 64 GB, 1,000 W PSU, case, SSD) is $900-1,600;
    # one or two cards go into it, three or four need a workstation platform (a new machine).
    from advisor.knowledge import knowledge

    kb = knowledge()
    card = kb.gpus["rtx-3090"]
    assert cost.existing_host_credit_usd(card, 1) == pytest.approx((900 + 1_600) / 2)
    assert cost.existing_host_credit_usd(card, 2) == pytest.approx((900 + 1_600) / 2)  # the second card's PSU is still paid
    assert cost.existing_host_credit_usd(card, 3) == 0.0
    assert cost.existing_host_credit_usd(kb.gpus["h100-sxm"], 1) == 0.0  # an SXM board is never a desktop part
    one = cost.capex_usd(card, 1)
    assert one is not None and one.mid - cost.existing_host_credit_usd(card, 1) == pytest.approx((500 + 800) / 2)


def test_a_small_card_adds_host_power_in_proportion_not_a_big_cards_75_w() -> None:
    """A 72 W slot-powered L4 adds a quarter of its own power (fans, PSU losses): 250 + 72 + 18 = 340 W for one in a
    server; a 300 W card still adds 75 W, as the 4 x RTX 3090 build measured (1,717 W at the wall, AA §1)."""
    from advisor.knowledge import knowledge

    kb = knowledge()
    assert power.node_power_w(kb.gpus["l4"], 1) == pytest.approx(250 + 72 + 18)
    assert power.node_power_w(kb.gpus["rtx-3090"], 4) == pytest.approx(4 * 350 + 250 + 4 * 75)


def test_eight_workstation_cards_need_a_server_not_a_desktop() -> None:
    # platforms.md §1: the vendors' 4-card RTX PRO 6000 / RTX 5090 builds are workstations (Threadripper PRO, Xeon W);
    # their 8-card build is two EPYC 9004 on a server board in a 5U chassis with four 2,000 W supplies, and 8-slot
    # PCIe servers are 4U rack systems (§2). So 8 cards cost far more than their price plus a desktop's $1.8-4.6k.
    from advisor.knowledge import knowledge

    pro = knowledge().gpus["rtx-pro-6000"]
    cards = pro.price.low_usd, pro.price.high_usd  # type: ignore[union-attr]
    four, eight = cost.capex_usd(pro, 4), cost.capex_usd(pro, 8)
    assert four is not None and eight is not None
    assert four.low - 4 * cards[0] <= 4_600  # a workstation platform
    assert eight.low - 8 * cards[0] >= 8_000  # a GPU server
    assert eight.high - 8 * cards[1] <= 40_000  # not dearer than the data-centre 8-slot server
