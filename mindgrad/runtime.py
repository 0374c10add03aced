"""``mindspore.runtime``: device synchronization."""
from __future__ import annotations

from .core.config import array_module


def synchronize() -> None:
    """Wait for queued GPU work (no-op on the CPU)."""
    xp = array_module()
    if xp.__name__ == "cupy":
        xp.cuda.Device().synchronize()
