"""Helpers shared by primitive implementations (arrays only, never tensors)."""
from __future__ import annotations

from typing import Any

import numpy as np


def xp_of(x: Any):
    """NumPy for NumPy arrays and Python scalars, CuPy for CuPy arrays."""
    if isinstance(x, (np.ndarray, np.generic)) or not hasattr(x, "__cuda_array_interface__"):
        return np
    import cupy

    return cupy


def filled_view(cell: Any, shape: tuple) -> np.ndarray:
    """A read-only view of ``shape`` whose every element is the one NumPy value ``cell`` (a
    NumPy scalar, or a 0-d or one-element array): what ``np.broadcast_to`` gives, built
    directly (its Python-level checks cost more than a small eager reverse rule). A
    negative size raises NumPy's ValueError."""
    out = np.ndarray(shape, cell.dtype, buffer=cell, strides=(0,) * len(shape))
    out.flags.writeable = False
    return out


def shape_of(x: Any) -> tuple:
    return tuple(getattr(x, "shape", ()))


def broadcast_error(name: str, x: Any, y: Any) -> ValueError:
    return ValueError(f"For '{name}', the shapes of x {list(shape_of(x))} and y "
                      f"{list(shape_of(y))} can not broadcast.")


def checked_binary(name: str, fn: Any):
    """Wrap a NumPy binary function so that a broadcast failure names the op and shapes."""

    def impl(x: Any, y: Any) -> Any:
        try:
            return fn(x, y)
        except ValueError:
            raise broadcast_error(name, x, y) from None

    impl.__name__ = name
    return impl
