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
