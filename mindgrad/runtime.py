"""``mindspore.runtime``: device synchronization."""
from __future__ import annotations


def synchronize() -> None:
    """Wait for queued GPU work (no-op on the CPU)."""
    from .context import array_module

    xp = array_module()
    if xp.__name__ == "cupy":
        xp.cuda.Device().synchronize()
