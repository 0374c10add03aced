"""The stand-in's ``cupyx``: ``scatter_add`` / ``scatter_max`` / ``scatter_min`` on device
arrays (unbuffered, so repeated indices accumulate), and ``cupyx.scipy.special``."""
from __future__ import annotations

from typing import Any

import numpy as np
from cupy._core import dev, dev_index, ndarray, wrap_around


def _scatter(ufunc: np.ufunc, name: str):
    def scatter(a: ndarray, slices: Any, value: Any) -> None:
        if type(a) is not ndarray:
            raise TypeError(f"Argument 'a' has incorrect type (expected cupy.ndarray, got "
                            f"{type(a).__name__})")
        # out-of-range indices wrap around, as in CuPy (measured)
        ufunc.at(a._a, wrap_around(dev_index(slices), a._a.shape), dev(value))

    scatter.__name__ = name
    return scatter


class errstate:
    """``cupyx.errstate(linalg="raise")``: make the linear-algebra solvers check."""

    def __init__(self, *, linalg: str | None = None) -> None:
        self._linalg = linalg

    def __enter__(self) -> "errstate":
        from cupy._functions import LINALG_ERRORS

        self._old = LINALG_ERRORS["linalg"]
        if self._linalg is not None:
            LINALG_ERRORS["linalg"] = self._linalg
        return self

    def __exit__(self, *exc: Any) -> None:
        from cupy._functions import LINALG_ERRORS

        LINALG_ERRORS["linalg"] = self._old


scatter_add = _scatter(np.add, "scatter_add")
scatter_max = _scatter(np.maximum, "scatter_max")
scatter_min = _scatter(np.minimum, "scatter_min")

try:
    from . import scipy  # noqa: E402,F401
except ImportError:  # SciPy missing: cupyx.scipy.special is then unavailable, as without it
    pass
