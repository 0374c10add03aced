"""Elementwise primitives without gradients on integers and on the bits of floats: ``Gcd``,
``Lcm``, ``LeftShift``, ``RightShift``, ``Invert``, ``PopulationCount``, ``NextAfter`` and
the integer ``TruncateDiv``. Broadcasting, batched elementwise (``nondiff``: their values
are piecewise constant, or integers)."""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..core.primitive import Primitive
from . import structural as S
from ._util import checked_binary, xp_of


def _elementwise(name: str, fn: Callable, binary: bool = True) -> Primitive:
    prim = Primitive(name, checked_binary(name, fn) if binary else fn, nondiff=True)
    prim.batch = S.elementwise(prim)
    return prim


def _popcount_impl(x):
    xp = xp_of(x)
    # the bits of the two's-complement pattern: the unsigned view (NumPy's bitwise_count
    # of a negative signed integer counts the bits of its absolute value)
    u = x.view(np.dtype(f"u{x.dtype.itemsize}"))
    if hasattr(xp, "bitwise_count"):
        return xp.bitwise_count(u).astype(np.uint8)
    total = xp.zeros(x.shape, np.uint8)  # CuPy without bitwise_count: one bit at a time
    for shift in range(8 * x.dtype.itemsize):
        total += ((u >> shift) & 1).astype(np.uint8)
    return total


def _truncate_div_impl(x, y):
    """Integer division rounding toward zero (C's ``/``): floor division, plus one where
    the remainder is non-zero and the signs differ."""
    xp = xp_of(x)
    if x.dtype.kind == "f":
        return xp.trunc(xp.true_divide(x, y)).astype(x.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = xp.floor_divide(x, y)
        r = x - q * y
    if x.dtype.kind == "u":
        return q
    fix = (r != 0) & ((x < 0) != (y < 0))
    return q + fix.astype(q.dtype)


gcd = _elementwise("Gcd", np.gcd)
lcm = _elementwise("Lcm", np.lcm)
left_shift = _elementwise("LeftShift", np.left_shift)
right_shift = _elementwise("RightShift", np.right_shift)
next_after = _elementwise("NextAfter", np.nextafter)
truncate_div = _elementwise("TruncateDiv", _truncate_div_impl)
invert = _elementwise("Invert", np.invert, binary=False)
population_count = _elementwise("PopulationCount", _popcount_impl, binary=False)
