"""Comparisons and logical operations (no gradient) and ``select`` (where)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.primitive import Primitive
from ._util import checked_binary, xp_of
from . import structural as S
from .structural import coeff_at, series_order


def _nondiff_binary(name: str, fn) -> Primitive:
    return Primitive(name, checked_binary(name, fn), nondiff=True)


equal = _nondiff_binary("Equal", np.equal)
not_equal = _nondiff_binary("NotEqual", np.not_equal)
less = _nondiff_binary("Less", np.less)
less_equal = _nondiff_binary("LessEqual", np.less_equal)
greater = _nondiff_binary("Greater", np.greater)
greater_equal = _nondiff_binary("GreaterEqual", np.greater_equal)
def _truth(v):
    """``v`` for a logical ufunc: CuPy's refuse complex numbers, which NumPy's read as
    ``v != 0``; give CuPy that."""
    if type(v) is not np.ndarray and getattr(getattr(v, "dtype", None), "kind", "") == "c":
        return v != 0
    return v


def _logical(fn):
    if fn.nin == 1:
        return lambda x: fn(_truth(x))
    return lambda x, y: fn(_truth(x), _truth(y))


logical_and = _nondiff_binary("LogicalAnd", _logical(np.logical_and))
logical_or = _nondiff_binary("LogicalOr", _logical(np.logical_or))
logical_xor = _nondiff_binary("LogicalXor", _logical(np.logical_xor))
logical_not = Primitive("LogicalNot", _logical(np.logical_not), nondiff=True)
isnan = Primitive("IsNan", np.isnan, nondiff=True)
isinf = Primitive("IsInf", np.isinf, nondiff=True)
isfinite = Primitive("IsFinite", np.isfinite, nondiff=True)


_BLEND_MIN_SIZE = 4096


def _blend(cond, x, y):
    """np.where(cond, x, y) as bit operations on integers of the result's width:
    y ^ ((x ^ y) & -cond). Exact (the bits of the chosen value), and for large arrays several
    times faster than np.where, whose branch per element stalls on irregular masks. None
    where it does not apply (then np.where does it)."""
    if not (isinstance(cond, np.ndarray) and cond.dtype == np.bool_
            and cond.size >= _BLEND_MIN_SIZE):
        return None
    for a in (x, y):
        if not isinstance(a, (np.ndarray, np.generic, int, float, bool)):
            return None  # a CuPy array (np.where is not a bottleneck there) or an object
    dt = np.result_type(x, y)
    if dt.kind not in "biufc" or dt.itemsize not in (1, 2, 4, 8):
        return None
    it = np.dtype(f"i{dt.itemsize}")
    xi = np.asarray(x, dt).view(it)
    yi = np.asarray(y, dt).view(it)
    if yi.ndim == 0 and yi == 0:  # select(cond, g, 0): the reverse rule's form
        m = cond.astype(it)
        np.negative(m, out=m)  # 0 / all bits set
        return np.bitwise_and(xi, m).view(dt)
    if xi.ndim == 0 and xi == 0:
        m = cond.astype(it)
        m -= 1  # all bits set where cond is False
        return np.bitwise_and(yi, m).view(dt)
    m = cond.astype(it)
    np.negative(m, out=m)
    d = np.bitwise_xor(xi, yi)
    d = np.bitwise_and(d, m, out=d if d.shape == np.broadcast_shapes(d.shape, m.shape) else None)
    return np.bitwise_xor(d, yi, out=d).view(dt)


def _select_impl(cond, x, y):
    try:
        out = _blend(cond, x, y)
        return xp_of(cond).where(cond, x, y) if out is None else out
    except ValueError:
        raise ValueError(f"For 'Select', the shapes of condition {list(np.shape(cond))}, x "
                         f"{list(np.shape(x))} and y {list(np.shape(y))} can not broadcast."
                         ) from None


select = Primitive("Select", _select_impl)


def _zeros_where(cond, g, keep_when):
    # a Python 0 rather than zeros_like(g): no array to fill, and _blend masks g in one pass
    return select(cond, g, 0) if keep_when else select(cond, 0, g)


select.vjp = (None,
              lambda g, ans, c, x, y: S.unbroadcast(_zeros_where(c, g, True), x),
              lambda g, ans, c, x, y: S.unbroadcast(_zeros_where(c, g, False), y))
select.jvp = (None,
              lambda t, ans, c, x, y: S.broadcast_like(_zeros_where(c, S.broadcast_like(t, ans), True), ans),
              lambda t, ans, c, x, y: S.broadcast_like(_zeros_where(c, S.broadcast_like(t, ans), False), ans))


S.defelementwise(equal, not_equal, less, less_equal, greater, greater_equal, logical_and,
                 logical_or, logical_xor, logical_not, isnan, isinf, isfinite, select)

def _choose(mask: Any, out: Any, xs: list, ys: list) -> list:
    coeffs = []
    for a, b in zip(xs, ys):
        if a is None and b is None:
            coeffs.append(None)
            continue
        a = S.zeros_like(out) if a is None else S.broadcast_like(a, out)
        b = S.zeros_like(out) if b is None else S.broadcast_like(b, out)
        coeffs.append(select(mask, a, b))
    return coeffs


def select_rule(primals, series):
    """select(cond, x, y) is linear in (x, y) for a fixed condition."""
    c, x, y = primals
    out = select(c, x, y)
    n = series_order(series)
    return out, _choose(c, out, [coeff_at(series[1], x, k) for k in range(1, n + 1)],
                        [coeff_at(series[2], y, k) for k in range(1, n + 1)])


select.taylor = select_rule
