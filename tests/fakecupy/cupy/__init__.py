"""A strict stand-in for CuPy, for mindgrad's tests on machines without a GPU.

Importable as ``cupy`` only when the tests put this folder on ``sys.path`` (see
``tests/conftest.py``); it is never installed. Its ``ndarray`` keeps its data in a NumPy
array but refuses every implicit conversion to NumPy, as CuPy's does, so that code which
would silently copy to the host, or mix host and device arrays, fails here exactly where it
would fail on a GPU. The module exposes the names CuPy 14.2 has and no others."""
from __future__ import annotations

import sys as _sys

from . import _functions
from ._core import TRANSFERS, ndarray

globals().update(_functions.TOP)

from . import cuda, fft, lib, linalg, random  # noqa: E402  (submodules use the table above)

__version__ = "14.2.0+standin"
STANDIN = True  # real CuPy has no such attribute: tests use it to tell the two apart


def reset_transfers() -> None:
    """Zero the host<->device copy counters (``TRANSFERS``)."""
    TRANSFERS["to_device"] = TRANSFERS["to_host"] = 0


def __getattr__(name: str):
    raise AttributeError(f"module 'cupy' has no attribute {name!r}")
