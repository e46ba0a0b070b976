"""Candidate configurations and their numbers: the contract between the numeric core and `recommend`.

`sweep(workload, gpus)` evaluates every GPU x count x strategy that makes sense for a workload and
returns `CandidateMetrics`, plain frozen dataclasses (no pydantic in the hot loop: the sweep must
reach >= 100,000 evaluations/s). `advisor.recommend` shortlists them, asks the rules, ranks.

THIS FILE IS A CONTRACT STUB: the numeric-core work fills in `Workload`, `workload_from_profile`
and `sweep`; the field names of `MemoryTerms` and `CandidateMetrics` are what `recommend` relies on.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MemoryTerms:
    """Peak memory per GPU, term by term, bytes (same names as models.MemoryBreakdown)."""

    weights: int
    gradients: int
    optimizer: int
    activations: int
    kv_cache: int
    overhead: int

    @property
    def total(self) -> int:
        return self.weights + self.gradients + self.optimizer + self.activations + self.kv_cache + self.overhead


@dataclass(frozen=True, slots=True)
class CandidateMetrics:
    """One configuration's numbers. Units in names; None where the task makes a figure meaningless."""

    gpu_id: str                 # GPU catalogue id
    count: int                  # GPUs in total
    nodes: int                  # servers (ceil(count / gpu.max_per_node))
    strategy: str               # 'single', 'ddp', 'zero1', 'zero2', 'zero3', 'fsdp', 'tp4', 'tp8-pp2', 'replicas', ...
    tp: int                     # tensor-parallel degree
    pp: int                     # pipeline-parallel degree
    dp: int                     # data-parallel degree (replicas for inference)
    checkpointing: str          # 'none' | 'selective' | 'full'
    memory: MemoryTerms         # per GPU, bytes
    capacity_bytes: int         # usable memory of one GPU, bytes
    fits: bool                  # memory.total <= capacity_bytes
    headroom_bytes: int         # capacity_bytes - memory.total (negative when it does not fit)
    time_s: float | None        # training: expected wall-clock seconds for the whole run
    time_s_low: float | None    # optimistic end of the range
    time_s_high: float | None   # pessimistic end of the range
    mfu: float | None           # model FLOPs utilization assumed (training)
    tokens_per_s: float | None  # inference: aggregate decode tokens/s of the configuration
    max_concurrency: int | None # inference: sequences at the profile's context that fit in the KV cache, all replicas
    power_w: float              # IT power: GPUs + host share, W
    facility_w: float           # power_w x PUE, W
    node_power_w: float         # one full server's IT power, W
    energy_kwh: float | None    # training: facility energy for the run, kWh
    buy_usd: float | None       # capex: GPUs + servers around them, USD (None when no price is known)
    rent_usd_per_hour: float | None  # cloud on-demand for all GPUs, USD/h
    rent_usd: float | None      # rent for the run (training) or for 30 days (inference), USD
    energy_usd: float | None    # electricity for the run (training) or 30 days (inference) when owned, USD
    crosses_pcie_tp: bool       # tensor parallelism over PCIe (no NVLink) or across nodes
