"""Where a Tensor's array lives, and the explicit moves between devices.

A Tensor is on the CPU when its array is a NumPy array and on the GPU when it is a CuPy
array; ``set_context(device_target=...)`` decides where *new* tensors are made. mindgrad
never moves an operand implicitly: an operation whose tensor inputs live on different
devices raises a TypeError naming the operation and both devices (as PyTorch does, where
MindSpore, with one device per process, copies to its device target). ``Tensor.move_to``
makes the copy explicit.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

DEVICES = ("Ascend", "GPU", "CPU")


def device_of(arr: Any) -> str:
    """"GPU" for a CuPy array, "CPU" for NumPy arrays, NumPy scalars and Python values."""
    if isinstance(arr, (np.ndarray, np.generic)) or not hasattr(arr, "__cuda_array_interface__"):
        return "CPU"
    return "GPU"


def gpu_module() -> Any:
    """CuPy, when it is installed and sees a GPU; None otherwise."""
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            return cupy
    except Exception:  # not installed, no driver, no device
        pass
    return None


def to_device(arr: Any, target: str, op: str) -> Any:
    """``arr`` on ``target`` ("CPU" or "GPU"): the same array when it is there already,
    otherwise a copy (device to host with ``get()``, host to device with
    ``cupy.asarray``)."""
    if device_of(arr) == target:
        return arr
    if target == "CPU":
        return arr.get()
    cupy = gpu_module() if target == "GPU" else None
    if cupy is None:
        raise RuntimeError(f"For '{op}', device {target!r} is not available here (the GPU "
                           f"needs CuPy and a CUDA device; there is no Ascend backend).")
    return cupy.asarray(arr)


def mixed_devices_error(op: str, arrays: Sequence) -> TypeError:
    """The error for an operation whose tensor inputs live on different devices."""
    where = [f"input {i} on {device_of(a)}" for i, a in enumerate(arrays)
             if isinstance(a, np.ndarray) or hasattr(a, "__cuda_array_interface__")]
    return TypeError(f"For '{op}', all tensor inputs must be on the same device, but got "
                     f"{', '.join(where)} (CPU and GPU). Copy one explicitly with "
                     f"Tensor.move_to('CPU') or Tensor.move_to('GPU').")


# Set once CuPy becomes a backend (``core.config``): from then on NumPy and CuPy arrays may
# meet, and each eager operation checks that its inputs share a device. Until then there
# are only NumPy arrays and the check costs nothing.
mixed = False


def check_same_device(op: str, arrays: Sequence) -> None:
    """Raise ``mixed_devices_error`` when ``arrays`` hold both NumPy and CuPy arrays
    (scalars and other values go with either)."""
    cpu = gpu = False
    for a in arrays:
        if isinstance(a, np.ndarray):
            cpu = True
        elif hasattr(a, "__cuda_array_interface__"):
            gpu = True
    if cpu and gpu:
        raise mixed_devices_error(op, arrays)
