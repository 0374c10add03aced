"""``context.set_context`` / ``get_context``: execution mode and device target."""
from __future__ import annotations

import sys
from typing import Any

GRAPH_MODE = 0
PYNATIVE_MODE = 1

_DEVICES = ("CPU", "GPU", "Ascend")
_state: dict[str, Any] = {"mode": PYNATIVE_MODE, "device_target": "CPU", "device_id": 0,
                          "jit_cache_size": 64}
# Filled by `_select_backend`: the array module new tensors are made with.
_backend: dict[str, Any] = {"xp": None}


def _select_backend(target: str) -> None:
    import numpy as np

    xp = np
    if target in ("GPU", "Ascend"):
        try:
            import cupy

            if cupy.cuda.runtime.getDeviceCount() > 0:
                xp = cupy
        except Exception:  # cupy missing, or no CUDA device: fall back, as documented
            pass
        if xp is np and not _backend.get("warned"):
            # One line on stderr, once: seed scripts that ask for a GPU still run.
            sys.stderr.write(f"mindgrad: device_target={target!r} is not available here "
                             "(needs CuPy and a GPU); running on the CPU with NumPy.\n")
            _backend["warned"] = True
    _backend["xp"] = xp


def set_context(**kwargs: Any) -> None:
    """Set ``mode`` (GRAPH_MODE or PYNATIVE_MODE), ``device_target`` ("CPU", "GPU"),
    ``jit_cache_size`` (mindgrad's own: how many input signatures each compiled function or
    GRAPH-mode Cell keeps compiled, least recently used dropped first; default 64) and
    other MindSpore context keys (kept but without effect)."""
    for key, value in kwargs.items():
        if key == "mode":
            if value not in (GRAPH_MODE, PYNATIVE_MODE):
                raise ValueError(f"For 'set_context', 'mode' must be GRAPH_MODE (0) or "
                                 f"PYNATIVE_MODE (1), but got {value!r}.")
        elif key == "device_target":
            if value not in _DEVICES:
                raise ValueError(f"For 'set_context', 'device_target' must be one of "
                                 f"{_DEVICES}, but got {value!r}.")
            _select_backend(value)
        elif key == "jit_cache_size":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"For 'set_context', 'jit_cache_size' must be an int >= 1, "
                                 f"but got {value!r}.")
        _state[key] = value


def get_context(key: str) -> Any:
    """Return a context value set by `set_context` (``mode``, ``device_target``, ...)."""
    if key not in _state:
        raise ValueError(f"For 'get_context', unknown key {key!r}.")
    return _state[key]


def is_graph_mode() -> bool:
    return _state["mode"] == GRAPH_MODE


def array_module():
    """NumPy or CuPy: the module new tensors are created with."""
    xp = _backend["xp"]
    if xp is None:
        _select_backend(_state["device_target"])
        xp = _backend["xp"]
    return xp


class ParallelMode:
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Accepted for script compatibility; mindgrad runs on one device."""


def reset_auto_parallel_context() -> None:
    """Accepted for script compatibility."""
