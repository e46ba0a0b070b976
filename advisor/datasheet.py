"""Figures derived from a GPU's datasheet fields, shared by the pydantic `GpuSpec` and the snapshot's
pydantic-free `GpuRecord` (advisor/snapshot.py), so both read the same to the numeric core."""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing`'s (mypy reads the name the same): nothing imported for it


class GpuFigures:
    """`memory_bytes` and `bandwidth_bytes_per_s` from `memory_gb` and `bandwidth_tbps`."""

    if TYPE_CHECKING:
        memory_gb: float
        bandwidth_tbps: float

    @property
    def memory_bytes(self) -> int:
        """Installed memory in bytes: the vendor's figure read as GiB (gpu-catalogue.md convention 3)."""
        return int(round(self.memory_gb * 2**30))

    @property
    def bandwidth_bytes_per_s(self) -> float:
        """Memory bandwidth, bytes/s."""
        return self.bandwidth_tbps * 1e12
