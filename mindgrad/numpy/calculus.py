"""Differences, integrals and signals: ``diff``, ``ediff1d``, ``gradient``, ``trapz``,
``interp``, ``unwrap``, ``convolve``, ``correlate`` and the polynomial functions
(``polyval``, ``polyadd``, ``polymul``, ``polyder``, ``polyint`` ...), all differentiable
in their floating inputs."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from .. import ops
from ._utils import as_float, axes_arg, axis_arg, common, to_tensor

__all__ = ["diff", "ediff1d", "gradient", "trapz", "interp", "unwrap", "convolve",
           "correlate", "polyval", "polyadd", "polysub", "polymul", "polyder", "polyint"]


def _slice(t: Tensor, ax: int, s: slice) -> Tensor:
    idx = [slice(None)] * t.ndim
    idx[ax] = s
    return t[tuple(idx)]


def diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
    """The ``n``-th discrete difference along ``axis`` (after joining ``prepend`` and
    ``append``)."""
    t = to_tensor(a, "diff", "a")
    if t.ndim == 0:
        raise ValueError("For 'diff', 'a' must have rank >= 1, but got a scalar.")
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"For 'diff', 'n' must be a non-negative int, but got {n!r}.")
    ax = axis_arg(axis, t.ndim, "diff")
    parts = []
    for extra, first in ((prepend, True), (append, False)):
        if extra is None:
            continue
        e = to_tensor(extra, "diff", "prepend" if first else "append")
        if e.ndim == 0:
            shape = list(t.shape)
            shape[ax] = 1
            e = ops.broadcast_to(e, tuple(shape))
        parts.append((first, e))
    before = [e for f, e in parts if f]
    after = [e for f, e in parts if not f]
    if before or after:
        t = ops.concat(common(before + [t] + after), ax)
    for _ in range(n):
        if t.dtype.np_dtype.kind == "b":
            t = ops.logical_xor(_slice(t, ax, slice(1, None)), _slice(t, ax, slice(None, -1)))
        else:
            t = _slice(t, ax, slice(1, None)) - _slice(t, ax, slice(None, -1))
    return t


def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Tensor:
    """The differences of the flattened array, with ``to_begin`` and ``to_end`` joined."""
    t = ops.reshape(to_tensor(ary, "ediff1d", "ary"), (-1,))
    d = t[1:] - t[:-1]
    parts = []
    if to_begin is not None:
        parts.append(ops.reshape(to_tensor(to_begin, "ediff1d", "to_begin"), (-1,)))
    parts.append(d)
    if to_end is not None:
        parts.append(ops.reshape(to_tensor(to_end, "ediff1d", "to_end"), (-1,)))
    return ops.concat(common(parts), 0) if len(parts) > 1 else d


def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    """The gradient by central differences inside and one-sided (``edge_order`` 1) ones at
    the ends, along each axis (or the listed ones), for unit or given scalar spacings."""
    t = as_float(to_tensor(f, "gradient", "f"))
    axes = axes_arg(axis, t.ndim, "gradient")
    axes = tuple(range(t.ndim)) if axes is None else axes
    if edge_order != 1:
        raise ValueError("For 'gradient', only edge_order=1 is supported.")
    if len(varargs) == 0:
        spacing = [1.0] * len(axes)
    elif len(varargs) == 1:
        spacing = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        spacing = list(varargs)
    else:
        raise TypeError(f"For 'gradient', give one spacing or one per axis ({len(axes)}), "
                        f"but got {len(varargs)}.")
    out = []
    for ax, h in zip(axes, spacing):
        if isinstance(h, Tensor) and h.ndim > 0:
            raise ValueError("For 'gradient', coordinate arrays are not supported; give "
                             "scalar spacings.")
        h = float(h.asnumpy()) if isinstance(h, Tensor) else float(h)
        if t.shape[ax] < 2:
            raise ValueError(f"For 'gradient', axis {ax} needs at least 2 points, but shape "
                             f"is {t.shape}.")
        first = (_slice(t, ax, slice(1, 2)) - _slice(t, ax, slice(0, 1))) / h
        last = (_slice(t, ax, slice(-1, None)) - _slice(t, ax, slice(-2, -1))) / h
        mid = (_slice(t, ax, slice(2, None)) - _slice(t, ax, slice(None, -2))) / (2.0 * h)
        out.append(ops.concat([first, mid, last], ax))
    return out[0] if len(out) == 1 else out


def trapz(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> Tensor:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule (points ``x`` or
    spacing ``dx``)."""
    t = as_float(to_tensor(y, "trapz", "y"))
    ax = axis_arg(axis, t.ndim, "trapz")
    avg = (_slice(t, ax, slice(1, None)) + _slice(t, ax, slice(None, -1))) / 2.0
    if x is None:
        return ops.sum(avg, ax) * float(dx)
    xs = as_float(to_tensor(x, "trapz", "x"))
    if xs.ndim == 1:
        d = xs[1:] - xs[:-1]
        shape = [1] * t.ndim
        shape[ax] = d.shape[0]
        d = ops.reshape(d, tuple(shape))
    else:
        d = _slice(xs, ax, slice(1, None)) - _slice(xs, ax, slice(None, -1))
    return ops.sum(avg * d, ax)


def interp(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None) -> Tensor:
    """The piecewise-linear interpolant of the points ``(xp, fp)`` (``xp`` increasing) at
    ``x``; ``left``/``right`` (default the end values) outside."""
    xv = as_float(to_tensor(x, "interp", "x"))
    xs = as_float(to_tensor(xp, "interp", "xp"))
    fs = as_float(to_tensor(fp, "interp", "fp"))
    if xs.ndim != 1 or fs.shape != xs.shape or xs.shape[0] == 0:
        raise ValueError(f"For 'interp', 'xp' and 'fp' must be non-empty 1-D of one length, "
                         f"but got shapes {xs.shape} and {fs.shape}.")
    xv, xs, fs = common([xv, xs, fs])
    n = xs.shape[0]
    if n == 1:
        out = ops.full_like(xv, 0.0) + fs[0]
    else:
        # the segment of each x: the number of xp at or below it, kept within the interior
        k = ops.searchsorted(xs, xv, right=True)
        k = ops.clip(k, 1, n - 1).astype(mstype.int64)
        x0, x1 = ops.gather(xs, k - 1, 0), ops.gather(xs, k, 0)
        f0, f1 = ops.gather(fs, k - 1, 0), ops.gather(fs, k, 0)
        out = f0 + (f1 - f0) * (xv - x0) / (x1 - x0)
    lo = fs[0] if left is None else left
    hi = fs[-1] if right is None else right
    out = ops.where(ops.lt(xv, xs[0]), ops.zeros_like(out) + lo, out)
    return ops.where(ops.gt(xv, xs[-1]), ops.zeros_like(out) + hi, out)


def unwrap(p: Any, discont: float = math.pi, axis: int = -1) -> Tensor:
    """``p`` with jumps larger than ``discont`` along ``axis`` replaced by their
    ``2*pi`` complements."""
    t = as_float(to_tensor(p, "unwrap", "p"))
    ax = axis_arg(axis, t.ndim, "unwrap")
    d = _slice(t, ax, slice(1, None)) - _slice(t, ax, slice(None, -1))
    dm = ops.remainder(d + math.pi, 2 * math.pi) - math.pi
    dm = ops.where(ops.logical_and(ops.eq(dm, ops.full_like(dm, -math.pi)),
                                   ops.gt(d, ops.zeros_like(d))),
                   ops.full_like(dm, math.pi), dm)
    corr = ops.where(ops.lt(ops.abs(d), ops.full_like(d, float(discont))),
                     ops.zeros_like(d), dm - d)
    head = _slice(t, ax, slice(0, 1))
    return ops.concat([head, _slice(t, ax, slice(1, None)) + ops.cumsum(corr, ax)], ax)


def _full_convolve(a: Tensor, v: Tensor) -> Tensor:
    """The full 1-D convolution as the sum of shifted copies of ``a`` scaled by ``v``."""
    n, m = a.shape[0], v.shape[0]
    rows = []
    for j in range(m):
        rows.append(ops.pad(a * v[j], (j, m - 1 - j)))
    return ops.sum(ops.stack(rows, 0), 0) if n else a


def _mode_slice(full: Tensor, n: int, m: int, mode: str, op: str) -> Tensor:
    if mode == "full":
        return full
    if mode == "same":
        size = max(n, m)
        start = (min(n, m) - 1) // 2
        return full[start:start + size]
    if mode == "valid":
        size = max(n, m) - min(n, m) + 1
        start = min(n, m) - 1
        return full[start:start + size]
    raise ValueError(f"For '{op}', 'mode' must be 'full', 'same' or 'valid', got {mode!r}.")


def _vectors(a: Any, v: Any, op: str) -> tuple:
    x, y = common([to_tensor(a, op, "a"), to_tensor(v, op, "v")])
    if x.ndim != 1 or y.ndim != 1 or x.shape[0] == 0 or y.shape[0] == 0:
        raise ValueError(f"For '{op}', 'a' and 'v' must be non-empty 1-D, but got shapes "
                         f"{x.shape} and {y.shape}.")
    return x, y


def convolve(a: Any, v: Any, mode: str = "full") -> Tensor:
    """The discrete linear convolution of two 1-D sequences (integers keep their dtype)."""
    x, y = _vectors(a, v, "convolve")
    if x.shape[0] < y.shape[0]:
        x, y = y, x
    out = _mode_slice(_full_convolve(x, y), x.shape[0], y.shape[0], mode, "convolve")
    return out if out.dtype == x.dtype else out.astype(x.dtype)


def correlate(a: Any, v: Any, mode: str = "valid") -> Tensor:
    """The cross-correlation of two 1-D sequences: ``sum_n a[n + k] * v[n]`` (float32 for
    integers)."""
    x, y = _vectors(a, v, "correlate")
    n, m = x.shape[0], y.shape[0]
    if n < m:  # the correlation of the swapped pair, reversed
        return ops.flip(correlate(y, x, mode), (0,))
    # integers give float32 here, as in MindSpore (where convolve keeps them integers)
    return as_float(_mode_slice(_full_convolve(x, ops.flip(y, (0,))), n, m, mode,
                                "correlate"))


def _poly(p: Any, op: str, arg: str = "p") -> Tensor:
    t = to_tensor(p, op, arg)
    if t.ndim != 1:
        raise ValueError(f"For '{op}', '{arg}' must be 1-D coefficients, got shape {t.shape}.")
    return t


def polyval(p: Any, x: Any) -> Tensor:
    """The polynomial with coefficients ``p`` (highest power first) at ``x`` (Horner)."""
    c = as_float(_poly(p, "polyval"))  # float32 for integers, as MindSpore's
    xv = as_float(to_tensor(x, "polyval", "x"))
    c, xv = common([c, xv])
    out = ops.zeros_like(xv)
    for i in range(c.shape[0]):
        out = out * xv + c[i]
    return out


def _aligned(a1: Any, a2: Any, op: str) -> tuple:
    a, b = common([_poly(a1, op, "a1"), _poly(a2, op, "a2")])
    n = max(a.shape[0], b.shape[0])
    a = ops.pad(a, (n - a.shape[0], 0)) if a.shape[0] < n else a
    b = ops.pad(b, (n - b.shape[0], 0)) if b.shape[0] < n else b
    return a, b


def polyadd(a1: Any, a2: Any) -> Tensor:
    """The sum of two polynomials."""
    a, b = _aligned(a1, a2, "polyadd")
    return a + b


def polysub(a1: Any, a2: Any) -> Tensor:
    """The difference of two polynomials."""
    a, b = _aligned(a1, a2, "polysub")
    return a - b


def polymul(a1: Any, a2: Any) -> Tensor:
    """The product of two polynomials."""
    a, b = common([_poly(a1, "polymul", "a1"), _poly(a2, "polymul", "a2")])
    return convolve(a, b)


def polyder(p: Any, m: int = 1) -> Tensor:
    """The ``m``-th derivative of a polynomial."""
    c = _poly(p, "polyder")
    if not isinstance(m, int) or m < 0:
        raise ValueError(f"For 'polyder', 'm' must be a non-negative int, got {m!r}.")
    for _ in range(m):
        n = c.shape[0] - 1
        if n <= 0:  # the derivative of a constant has no coefficients (as in NumPy)
            return c[:0]
        c = c[:-1] * Tensor(np.arange(n, 0, -1).astype(c.dtype.np_dtype))
    return c


def polyint(p: Any, m: int = 1, k: Any = None) -> Tensor:
    """The ``m``-th antiderivative of a polynomial, with integration constants ``k`` (0)."""
    c = as_float(_poly(p, "polyint"))
    if not isinstance(m, int) or m < 0:
        raise ValueError(f"For 'polyint', 'm' must be a non-negative int, got {m!r}.")
    ks = [0.0] * m if k is None else ([k] * m if not isinstance(k, (list, tuple)) else list(k))
    if len(ks) != m:
        raise ValueError(f"For 'polyint', 'k' must have {m} constants, got {len(ks)}.")
    for j in range(m):
        n = c.shape[0]
        scaled = c / Tensor(np.arange(n, 0, -1).astype(c.dtype.np_dtype))
        kk = to_tensor(ks[j], "polyint", "k").astype(c.dtype)
        c = ops.concat([scaled, ops.reshape(kk, (1,))], 0)
    return c
