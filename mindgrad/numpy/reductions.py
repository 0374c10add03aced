"""Reductions and running reductions: ``sum``, ``mean``, ``amax``/``amin`` (with
``initial`` and ``where``), ``var``, ``std``, ``ptp``, ``average``, the NaN-ignoring forms,
``cumsum``/``cumprod``, ``argmax``/``argmin`` and ``count_nonzero``."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from .. import ops
from ._utils import as_float, axes_arg, axis_arg, is_float, to_tensor, with_dtype

__all__ = ["sum", "mean", "amax", "amin", "max", "min", "var", "std", "ptp", "average",
           "nansum", "nanmean", "nanmax", "nanmin", "nanvar", "nanstd", "cumsum", "cumprod",
           "nancumsum", "argmax", "argmin", "count_nonzero"]


def _reduce_axes(t: Tensor, axis: Any, op: str) -> tuple:
    ax = axes_arg(axis, t.ndim, op)
    return tuple(range(t.ndim)) if ax is None else ax


def sum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False,  # noqa: A001
        initial: Any = None) -> Tensor:
    """The sum over ``axis`` (all axes by default), plus ``initial``. Integer and bool
    input sums in int64 as MindSpore's does, unless ``dtype``."""
    t = to_tensor(a, "sum", "a")
    ax = _reduce_axes(t, axis, "sum")
    if t.dtype == mstype.bool_:
        t = t.astype(mstype.int32)
    out = ops.sum(t, ax, bool(keepdims)) if ax else t
    if initial is not None:
        out = out + initial
    return with_dtype(out, dtype, "sum")


def mean(a: Any, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Tensor:
    """The arithmetic mean over ``axis`` (all axes by default)."""
    t = to_tensor(a, "mean", "a")
    ax = _reduce_axes(t, axis, "mean")
    if t.dtype == mstype.bool_:
        t = t.astype(mstype.float32)
    out = ops.mean(t, ax, bool(keepdims)) if ax else t
    return with_dtype(out, dtype, "mean")


def _extreme(a: Any, axis: Any, keepdims: bool, initial: Any, where: Any, op: str,
             largest: bool) -> Tensor:
    t = to_tensor(a, op, "a")
    ax = _reduce_axes(t, axis, op)
    fn = ops.amax if largest else ops.amin
    if where is not True:
        if initial is None:
            raise ValueError(f"For '{op}', 'initial' must be given together with 'where'.")
        mask = to_tensor(where, op, "where")
        fill = ops.full_like(t, initial)
        t = ops.where(ops.broadcast_to(mask, t.shape), t, fill)
    if any(t.shape[i] == 0 for i in ax) and initial is None:
        raise ValueError(f"For '{op}', the reduction over an empty axis needs 'initial', "
                         f"shape {t.shape}, axis {axis}.")
    if t.size == 0 and ax:  # only 'initial' is left (checked above)
        shape = tuple(1 if i in ax else n for i, n in enumerate(t.shape) if keepdims or
                      i not in ax)
        return ops.full(shape, initial, dtype=t.dtype)
    out = fn(t, ax, bool(keepdims)) if ax else t
    if initial is not None:
        out = (ops.maximum if largest else ops.minimum)(out, ops.full_like(out, initial))
    return out


def amax(a: Any, axis: Any = None, keepdims: bool = False, initial: Any = None,
         where: Any = True) -> Tensor:
    """The maximum over ``axis``; at least ``initial``; only where ``where`` is true."""
    return _extreme(a, axis, keepdims, initial, where, "amax", True)


def amin(a: Any, axis: Any = None, keepdims: bool = False, initial: Any = None,
         where: Any = True) -> Tensor:
    """The minimum over ``axis``; at most ``initial``; only where ``where`` is true."""
    return _extreme(a, axis, keepdims, initial, where, "amin", False)


def max(a: Any, axis: Any = None, keepdims: bool = False, initial: Any = None,  # noqa: A001
        where: Any = True) -> Tensor:
    """The maximum over ``axis`` (``amax``)."""
    return _extreme(a, axis, keepdims, initial, where, "max", True)


def min(a: Any, axis: Any = None, keepdims: bool = False, initial: Any = None,  # noqa: A001
        where: Any = True) -> Tensor:
    """The minimum over ``axis`` (``amin``)."""
    return _extreme(a, axis, keepdims, initial, where, "min", False)


def _var(t: Tensor, ax: tuple, ddof: int, keepdims: bool) -> Tensor:
    t = as_float(t)
    if not ax:  # no axis reduced: each element is its own mean
        d = t - t
        return d * d / float(1 - ddof)
    return ops.var(t, ax, ddof, bool(keepdims))


def var(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """The variance over ``axis`` with ``ddof`` delta degrees of freedom."""
    t = to_tensor(x, "var", "x")
    return _var(t, _reduce_axes(t, axis, "var"), int(ddof), keepdims)


def std(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """The standard deviation over ``axis`` with ``ddof`` delta degrees of freedom."""
    t = to_tensor(x, "std", "x")
    ax = _reduce_axes(t, axis, "std")
    if not ax:
        return ops.sqrt(_var(t, ax, int(ddof), keepdims))
    return ops.std(as_float(t), ax, int(ddof), bool(keepdims))


def ptp(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The range (maximum minus minimum) over ``axis``."""
    return amax(x, axis, keepdims) - amin(x, axis, keepdims)


def average(x: Any, axis: Any = None, weights: Any = None, returned: bool = False) -> Any:
    """The mean over ``axis`` weighted by ``weights`` (of ``x``'s shape, or 1-D along a
    single ``axis``); ``returned`` also gives the sum of the weights."""
    t = to_tensor(x, "average", "x")
    ax = _reduce_axes(t, axis, "average")
    if weights is None:
        out = mean(t, ax)
        scale = ops.full_like(out, float(np.prod([t.shape[i] for i in ax])))
        return (out, scale) if returned else out
    w = to_tensor(weights, "average", "weights")
    if w.shape != t.shape:
        if w.ndim != 1 or len(ax) != 1 or w.shape[0] != t.shape[ax[0]]:
            raise ValueError(f"For 'average', 'weights' of shape {w.shape} must match 'x' "
                             f"{t.shape} or be 1-D along the one axis {axis}.")
        shape = [1] * t.ndim
        shape[ax[0]] = w.shape[0]
        w = ops.reshape(w, tuple(shape))
    t, w = as_float(t), as_float(w)
    wsum = ops.sum(ops.broadcast_to(w, t.shape), ax)
    out = ops.sum(t * w, ax) / wsum
    return (out, wsum) if returned else out


def _nan_filled(a: Any, value: float, op: str) -> tuple:
    t = to_tensor(a, op, "a")
    if not is_float(t):
        return t, None
    mask = ops.isnan(t)
    return ops.where(mask, ops.full_like(t, value), t), mask


def nansum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """The sum over ``axis`` counting NaNs as zero (integers keep their dtype, as in
    MindSpore, where ``sum`` gives int64)."""
    t, _ = _nan_filled(a, 0.0, "nansum")
    out = sum(t, axis, None, keepdims)
    if dtype is None and not is_float(t) and t.dtype != mstype.bool_:
        out = out.astype(t.dtype)
    return with_dtype(out, dtype, "nansum")


def _nan_count(t: Tensor, mask: Any, ax: tuple, keepdims: bool) -> Tensor:
    ok = ops.logical_not(mask).astype(t.dtype) if mask is not None else ops.ones_like(t)
    return ops.sum(ok, ax, bool(keepdims))


def nanmean(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """The mean over ``axis`` ignoring NaNs."""
    t, mask = _nan_filled(a, 0.0, "nanmean")
    t = as_float(t)
    ax = _reduce_axes(t, axis, "nanmean")
    out = ops.sum(t, ax, bool(keepdims)) / _nan_count(t, mask, ax, keepdims)
    return with_dtype(out, dtype, "nanmean")


def nanvar(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0,
           keepdims: bool = False) -> Tensor:
    """The variance over ``axis`` ignoring NaNs."""
    t, mask = _nan_filled(a, 0.0, "nanvar")
    t = as_float(t)
    ax = _reduce_axes(t, axis, "nanvar")
    n = _nan_count(t, mask, ax, True)
    mu = ops.sum(t, ax, True) / n
    d = t - mu
    if mask is not None:
        d = ops.where(mask, ops.zeros_like(d), d)
    ss = ops.sum(d * d, ax, bool(keepdims))
    count = n if keepdims else ops.reshape(n, ss.shape)
    return with_dtype(ss / (count - float(ddof)), dtype, "nanvar")


def nanstd(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0,
           keepdims: bool = False) -> Tensor:
    """The standard deviation over ``axis`` ignoring NaNs."""
    return with_dtype(ops.sqrt(nanvar(a, axis, None, ddof, keepdims)), dtype, "nanstd")


def nanmax(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """The maximum over ``axis`` ignoring NaNs (NaN where a slice is all NaN)."""
    t, mask = _nan_filled(a, -np.inf, "nanmax")
    out = amax(t, axis, keepdims)
    if mask is not None:
        ax = _reduce_axes(t, axis, "nanmax")
        out = ops.where(ops.all(mask, ax, bool(keepdims)), ops.full_like(out, np.nan), out)
    return with_dtype(out, dtype, "nanmax")


def nanmin(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """The minimum over ``axis`` ignoring NaNs (NaN where a slice is all NaN)."""
    t, mask = _nan_filled(a, np.inf, "nanmin")
    out = amin(t, axis, keepdims)
    if mask is not None:
        ax = _reduce_axes(t, axis, "nanmin")
        out = ops.where(ops.all(mask, ax, bool(keepdims)), ops.full_like(out, np.nan), out)
    return with_dtype(out, dtype, "nanmin")


def _running(a: Any, axis: Any, dtype: Any, op: str, fn: Any) -> Tensor:
    t = to_tensor(a, op, "a")
    if axis is None:
        t, axis = ops.reshape(t, (-1,)), 0
    ax = axis_arg(axis, t.ndim, op)
    if t.dtype == mstype.bool_:
        t = t.astype(mstype.int32)
    return with_dtype(fn(t, ax), dtype, op)


def cumsum(a: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """The running sum along ``axis`` (of the flattened input without one)."""
    return _running(a, axis, dtype, "cumsum", ops.cumsum)


def cumprod(a: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """The running product along ``axis`` (of the flattened input without one); integers
    keep their dtype, as in MindSpore."""
    def keep(t: Tensor, ax: int) -> Tensor:
        out = ops.cumprod(t, ax)
        return out if out.dtype == t.dtype else out.astype(t.dtype)
    return _running(a, axis, dtype, "cumprod", keep)


def nancumsum(a: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """The running sum along ``axis`` counting NaNs as zero."""
    t, _ = _nan_filled(a, 0.0, "nancumsum")
    return _running(t, axis, dtype, "nancumsum", ops.cumsum)


def _arg(a: Any, axis: Any, op: str, largest: bool) -> Tensor:
    t = to_tensor(a, op, "a")
    if axis is None:
        t, axis = ops.reshape(t, (-1,)), 0
    ax = axis_arg(axis, t.ndim, op)
    if t.shape[ax] == 0:
        raise ValueError(f"For '{op}', the axis {axis} of shape {t.shape} is empty.")
    if t.dtype == mstype.bool_:
        t = t.astype(mstype.int32)
    out = ops.argmax(t, ax) if largest else ops.argmin(t, ax)
    # MindSpore's numpy gives int64 indices for argmax and int32 for argmin
    want = mstype.int64 if largest else mstype.int32
    return out if out.dtype == want else out.astype(want)


def argmax(a: Any, axis: Any = None) -> Tensor:
    """The index of the (first) maximum along ``axis`` (of the flattened input without)."""
    return _arg(a, axis, "argmax", True)


def argmin(a: Any, axis: Any = None) -> Tensor:
    """The index of the (first) minimum along ``axis`` (of the flattened input without);
    int32, where ``argmax`` gives int64, as in MindSpore."""
    return _arg(a, axis, "argmin", False)


def count_nonzero(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The number of non-zero elements over ``axis`` (int32)."""
    t = to_tensor(x, "count_nonzero", "x")
    ax = _reduce_axes(t, axis, "count_nonzero")
    nz = ops.ne(t, ops.zeros_like(t)).astype(mstype.int32)
    out = ops.sum(nz, ax, bool(keepdims)) if ax else nz
    return out.astype(mstype.int32)
