"""Sorting, searching and running extremes: ``ops.sort``, ``argsort``, ``topk``, ``unique``,
``searchsorted``, ``cummax``, ``cummin``, ``logcumsumexp``, and ``gather_elements`` (which
the others use to pick their values).

The positions come from primitives without gradients (``ArgSort``, ``RunningArgExtreme``,
``SearchSorted``, in ``prims/sorting.py``); the values are then gathered from the input with
differentiable indexing, so their derivatives in every mode are those of the gather (the
cotangent goes back to the positions the values came from)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.tensor import Tensor
from ..prims import indexing as IX
from ..prims import structural as S
from ..prims import getitem as G
from ..prims.sorting import argsort_p, running_arg, searchsorted_p
from . import functional as F
from .functional import _composite


def take_along(x: Tensor, idx: Tensor, axis: int) -> Tensor:
    """``out[..., i, ...] = x[..., idx[..., i, ...], ...]`` along ``axis`` (``idx`` has
    ``x``'s rank and non-negative positions; its other axes index ``x``'s directly)."""
    arrays, template = [], []
    for a in range(x.ndim):
        if a == axis:
            arrays.append(idx)
        else:
            shape = [1] * x.ndim
            shape[a] = idx.shape[a]
            arrays.append(Tensor(np.arange(idx.shape[a], dtype=np.int64).reshape(shape)))
        template.append(G.ArraySlot(a))
    return G.getitem(x, *arrays, index=tuple(template))


def _input(x: Any, op: str, arg: str = "input") -> Tensor:
    t = F._tensor(x, op, arg)
    if t._data.dtype.kind not in "biuf":
        raise TypeError(f"For '{op}', '{arg}' must be a real Tensor, but got {t.dtype}.")
    return t


@_composite
def gather_elements(input: Any, dim: int, index: Any) -> Tensor:
    """``out[i][j] = input[index[i][j]][j]`` (dim 0), ``input[i][index[i][j]]`` (dim 1), ...:
    ``index`` has ``input``'s rank and no axis longer than its; negative positions count
    from the end."""
    x = _input(input, "gather_elements")
    idx = F._int_tensor(index, "gather_elements", "index")
    if x.ndim == 0 or idx.ndim != x.ndim:
        raise ValueError(f"For 'gather_elements', 'index' must have the rank of 'input' (at "
                         f"least 1), but got shapes {list(x.shape)} and {list(idx.shape)}.")
    d = F._axis(dim, x.ndim, "gather_elements", "dim")
    if any(i > n for a, (i, n) in enumerate(zip(idx.shape, x.shape)) if a != d):
        raise ValueError(f"For 'gather_elements', each axis of 'index' other than 'dim' must "
                         f"not be longer than the input's, but got shapes {list(x.shape)} and "
                         f"{list(idx.shape)}.")
    n = x.shape[d]
    idx = IX.checked_indices(idx, n, "gather_elements", "each value of 'index'", lo=-n,
                             what=f" (axis {d} of an input of shape {list(x.shape)})",
                             error=IndexError)
    idx = F.select(F.less(idx, 0), F.add(idx, n), idx)
    return take_along(x, idx, d)


def _positions(x: Tensor, axis: int, descending: bool) -> Tensor:
    return argsort_p(S.stop_gradient(x), axis=axis, descending=descending)


@_composite
def sort(input_x: Any, axis: int = -1, descending: bool = False) -> tuple:
    """``(values, indices)``: ``input_x`` sorted along ``axis`` (stable), indices Int32."""
    x = _input(input_x, "sort", "input_x")
    descending = F._flag(descending, "sort", "descending")
    if x.ndim == 0:
        F._axis(axis, 0, "sort")
        return x, Tensor(np.array(0, np.int32))
    a = F._axis(axis, x.ndim, "sort")
    idx = _positions(x, a, descending)
    return take_along(x, idx, a), F.cast(idx, np.int32)


@_composite
def argsort(input: Any, axis: int = -1, descending: bool = False) -> Tensor:
    """The Int32 positions that sort ``input`` along ``axis``."""
    return sort(input, axis, descending)[1]


@_composite
def topk(input: Any, k: int, dim: Any = None, largest: bool = True, sorted: bool = True) -> tuple:
    """``(values, indices)`` of the ``k`` largest (smallest) elements along ``dim`` (the
    last axis by default), largest first (smallest first); indices Int32."""
    x = _input(input, "topk")
    largest = F._flag(largest, "topk", "largest")
    F._flag(sorted, "topk", "sorted")
    if x.ndim == 0:
        raise ValueError("For 'topk', 'input' must have rank >= 1, but got a 0-D Tensor.")
    a = F._axis(-1 if dim is None else dim, x.ndim, "topk", "dim")
    if not F._is_int(k) or not 0 <= k <= x.shape[a]:
        raise ValueError(f"For 'topk', 'k' must be an int in [0, {x.shape[a]}] (the size of "
                         f"axis {a}), but got {k!r}.")
    idx = _positions(x, a, largest)
    idx = G.getitem(idx, index=(slice(None),) * a + (slice(0, int(k)),))
    return take_along(x, idx, a), F.cast(idx, np.int32)


def unique(input: Any) -> tuple:
    """``(values, positions)``: the distinct elements of ``input`` in the order they first
    appear (as MindSpore's CPU kernel gives them), and for each element of ``input`` the
    position of its value among them (Int32, ``input``'s shape). Eager only: its size
    depends on the values."""
    x = _input(input, "unique")
    if not IX.is_eager(x):
        raise ValueError("For 'unique', the result's size depends on the values, so it can "
                         "not be traced (jit, vmap, grad).")
    a = x.asnumpy().reshape(-1)
    values, first, inverse = np.unique(a, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return (Tensor(values[order]), Tensor(rank[inverse].reshape(x.shape).astype(np.int32)))


def searchsorted(sorted_sequence: Any, values: Any, *, out_int32: bool = False,
                 right: bool = False, side: Any = None, sorter: Any = None) -> Tensor:
    """Where each of ``values`` would be inserted in ``sorted_sequence`` (along its last
    axis; leading axes match ``values``') to keep it sorted: before equal elements, or
    after them with ``right=True`` / ``side='right'``. Int64 (Int32 with ``out_int32``)."""
    op = "searchsorted"
    seq = _input(sorted_sequence, op, "sorted_sequence")
    v = _input(values, op, "values")
    out_int32 = F._flag(out_int32, op, "out_int32")
    right = F._flag(right, op, "right")
    if side is not None:
        if side not in ("left", "right"):
            raise ValueError(f"For '{op}', 'side' must be 'left' or 'right', but got {side!r}.")
        if right and side == "left":
            raise ValueError(f"For '{op}', 'side' 'left' contradicts 'right=True'.")
        right = side == "right"
    if seq.ndim == 0:
        raise ValueError(f"For '{op}', 'sorted_sequence' must have rank >= 1, but got a 0-D "
                         f"Tensor.")
    if seq.ndim > 1 and seq.shape[:-1] != v.shape[:-1]:
        raise ValueError(f"For '{op}', the leading axes of 'sorted_sequence' and 'values' must "
                         f"agree, but got shapes {list(seq.shape)} and {list(v.shape)}.")
    if sorter is not None:
        order = F._int_tensor(sorter, op, "sorter")
        if order.shape != seq.shape:
            raise ValueError(f"For '{op}', 'sorter' must have the shape of "
                             f"'sorted_sequence', {list(seq.shape)}, but got {list(order.shape)}.")
        seq = take_along(seq, order, seq.ndim - 1)
    dt = np.dtype(np.int32 if out_int32 else np.int64)
    if v.dtype != seq.dtype:
        v = F.cast(v, seq.dtype)
    return searchsorted_p(S.stop_gradient(seq), S.stop_gradient(v), right=right, dtype=dt)


def _running_extreme(input: Any, axis: int, biggest: bool, op: str, index_dtype: Any) -> tuple:
    x = _input(input, op)
    if x.ndim == 0:
        raise ValueError(f"For '{op}', 'input' must have rank >= 1, but got a 0-D Tensor.")
    a = F._axis(axis, x.ndim, op)
    idx = running_arg(S.stop_gradient(x), axis=a, biggest=biggest)
    return take_along(x, idx, a), F.cast(idx, index_dtype)


@_composite
def cummax(input: Any, axis: int) -> tuple:
    """``(values, indices)``: the running maximum along ``axis`` and where it sits (Int64);
    the gradient goes to that position."""
    return _running_extreme(input, axis, True, "cummax", np.int64)


@_composite
def cummin(input: Any, axis: int) -> tuple:
    """``(values, indices)``: the running minimum along ``axis`` and where it sits (Int32,
    as in MindSpore)."""
    return _running_extreme(input, axis, False, "cummin", np.int32)


@_composite
def logcumsumexp(input: Any, axis: int) -> Tensor:
    """``log(cumsum(exp(input)))`` along ``axis``, shifted by the maximum of each slice to
    keep ``exp`` in range (the shift is a constant to the derivatives)."""
    x = _input(input, "logcumsumexp")
    if x._data.dtype.kind != "f":
        raise TypeError(f"For 'logcumsumexp', 'input' must be a float Tensor, but got "
                        f"{x.dtype}.")
    if x.ndim == 0:
        F._axis(axis, 0, "logcumsumexp")
        return x
    a = F._axis(axis, x.ndim, "logcumsumexp")
    if x.size == 0:
        return x
    m = F.reduce_max(S.stop_gradient(x), a, True)
    m = F.select(F.isfinite(m), m, F.zeros_like(m))
    return F.add(F.log(F.cumsum(F.exp(F.sub(x, m)), a)), m)


__all__ = ["gather_elements", "sort", "argsort", "topk", "unique", "searchsorted", "cummax",
           "cummin", "logcumsumexp"]
