"""The run-time settings the lower layers read: the execution mode, the device target (and so
the array module new tensors are made with), the compile-cache size. ``mindgrad.context``
(``set_context`` / ``get_context``) checks and sets them; everything below it reads them
here."""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from . import device

GRAPH_MODE = 0
PYNATIVE_MODE = 1

state: dict[str, Any] = {"mode": PYNATIVE_MODE, "device_target": "CPU", "device_id": 0,
                         "jit_cache_size": 64}
# Filled by `select_backend`: the array module new tensors are made with.
_backend: dict[str, Any] = {"xp": None}


def select_backend(target: str) -> None:
    """Make new tensors live on ``target`` ("CPU", or "GPU"/"Ascend": CuPy when it and a
    GPU are present, else NumPy after a one-line warning)."""
    xp = np
    if target in ("GPU", "Ascend"):
        xp = device.gpu_module() or np  # CuPy missing, or no CUDA device: fall back
        if xp is not np:
            device.mixed = True  # NumPy and CuPy arrays may now meet
        if xp is np and not _backend.get("warned"):
            # One line on stderr, once: seed scripts that ask for a GPU still run.
            sys.stderr.write(f"mindgrad: device_target={target!r} is not available here "
                             "(needs CuPy and a GPU); running on the CPU with NumPy.\n")
            _backend["warned"] = True
    _backend["xp"] = xp


def is_graph_mode() -> bool:
    return state["mode"] == GRAPH_MODE


def array_module():
    """NumPy or CuPy: the module new tensors are created with."""
    xp = _backend["xp"]
    if xp is None:
        select_backend(state["device_target"])
        xp = _backend["xp"]
    return xp
