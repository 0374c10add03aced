"""``cupy.cuda``: the device and runtime calls mindgrad makes, for one pretend GPU."""
from __future__ import annotations

import types
from typing import Any


class Device:
    """``cupy.cuda.Device(id)``: device 0 is the only one."""

    def __init__(self, device: Any = None) -> None:
        self.id = 0 if device is None else int(device)
        if self.id != 0:
            raise runtime.CUDARuntimeError("cudaErrorInvalidDevice: invalid device ordinal")

    def synchronize(self) -> None:
        """Nothing runs asynchronously here."""

    def use(self) -> None:
        pass

    def __enter__(self) -> "Device":
        return self

    def __exit__(self, *exc: Any) -> None:
        pass

    @property
    def compute_capability(self) -> str:
        return "90"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        return f"<CUDA Device {self.id}>"


class _CUDARuntimeError(RuntimeError):
    pass


runtime = types.ModuleType("cupy.cuda.runtime")
runtime.CUDARuntimeError = _CUDARuntimeError
runtime.getDeviceCount = lambda: 1
runtime.getDevice = lambda: 0
runtime.deviceSynchronize = lambda: None
runtime.is_hip = False


def is_available() -> bool:
    return True
