"""MindSpore's element scatter and index helpers: ``ops.scatter``,
``tensor_scatter_elements``, ``gather_d``, ``tril_indices``, ``triu_indices``, ``range``, and
the integer ``bitwise_and`` / ``bitwise_or`` / ``bitwise_xor``.

The scatters turn the per-element ``index`` into full coordinates and call
``tensor_scatter_update`` / ``tensor_scatter_add``, so their derivatives are those
primitives' (with repeated indices, an update's gradient goes to the write that is kept;
MindSpore's ``scatter`` gives every repeated update the gradient of that position)."""
from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..core.primitive import Primitive
from ..prims import bitwise as BW
from ..prims import indexing as IX
from . import functional as F
from .functional import _composite
from .sorting import gather_elements


def _coordinates(x: Tensor, idx: Tensor, axis: int, op: str) -> Tensor:
    """``(..., rank)`` coordinates: ``idx`` on ``axis``, each other axis its own position."""
    n = x.shape[axis]
    idx = IX.checked_indices(idx, n, op, "each value of 'index'", lo=-n,
                             what=f" (axis {axis} of an input of shape {list(x.shape)})",
                             error=IndexError)
    idx = F.cast(F.select(F.less(idx, 0), F.add(idx, n), idx), mstype.int64)
    parts = []
    for a in builtins.range(x.ndim):
        if a == axis:
            parts.append(idx)
        else:
            shape = [1] * x.ndim
            shape[a] = idx.shape[a]
            grid = Tensor(np.arange(idx.shape[a], dtype=np.int64).reshape(shape))
            parts.append(F.broadcast_to(grid, idx.shape))
    return F.stack(parts, -1)


def _scatter_args(input_x: Any, indices: Any, updates: Any, axis: Any, op: str) -> tuple:
    x = F._tensor(input_x, op, "input")
    idx = F._int_tensor(indices, op, "index")
    u = F._tensor(updates, op, "src")
    if x.ndim == 0 or idx.ndim != x.ndim or u.ndim != x.ndim:
        raise ValueError(f"For '{op}', 'index' and 'src' must have the rank of 'input' (at "
                         f"least 1), but got shapes {list(x.shape)}, {list(idx.shape)} and "
                         f"{list(u.shape)}.")
    a = F._axis(axis, x.ndim, op)
    if u.shape != idx.shape or any(i > d for k, (i, d) in enumerate(zip(idx.shape, x.shape))
                                   if k != a):
        raise ValueError(f"For '{op}', 'src' must have the shape of 'index', and 'index' "
                         f"must not be longer than 'input' {list(x.shape)} on an axis other "
                         f"than {a}, but got shapes {list(idx.shape)} and {list(u.shape)}.")
    if u.dtype != x.dtype:
        raise TypeError(f"For '{op}', 'src' must have the dtype of 'input', {x.dtype}, but got "
                        f"{u.dtype}.")
    return x, idx, u, a


@_composite
def tensor_scatter_elements(input_x: Any, indices: Any, updates: Any, axis: int = 0,
                            reduction: str = "none") -> Tensor:
    """``input_x`` with ``updates[i][j]`` written (``'none'``) or added (``'add'``) at
    ``[indices[i][j]][j]`` (axis 0), ``[i][indices[i][j]]`` (axis 1), ..."""
    op = "tensor_scatter_elements"
    if reduction not in ("none", "add"):
        raise ValueError(f"For '{op}', 'reduction' must be 'none' or 'add', but got "
                         f"{reduction!r}.")
    x, idx, u, a = _scatter_args(input_x, indices, updates, axis, op)
    coords = _coordinates(x, idx, a, op)
    if reduction == "add":
        return F.tensor_scatter_add(x, coords, u)
    return F.tensor_scatter_update(x, coords, u)


@_composite
def scatter(input: Any, axis: int, index: Any, src: Any) -> Tensor:
    """``input`` with ``src[i][j]`` written at ``[index[i][j]][j]`` (axis 0), ...; a number
    ``src`` is written everywhere ``index`` points."""
    x = F._tensor(input, "scatter", "input")
    if isinstance(src, (int, float)) and not isinstance(src, bool):
        idx = F._int_tensor(index, "scatter", "index")
        src = F.cast(F.full(idx.shape, src), x.dtype)
    return tensor_scatter_elements(x, index, src, axis)


@_composite
def gather_d(x: Any, dim: int, index: Any) -> Tensor:
    """``gather_elements`` under MindSpore's other name."""
    return gather_elements(x, dim, index)


def _index_pairs(row: Any, col: Any, offset: Any, dtype: Any, op: str, lower: bool) -> Tensor:
    for arg, v in (("row", row), ("col", col), ("offset", offset)):
        if not F._is_int(v):
            raise TypeError(f"For '{op}', '{arg}' must be an int, but got {type(v).__name__}.")
    if row < 0 or col < 0:
        raise ValueError(f"For '{op}', 'row' and 'col' must be non-negative, but got {row} and "
                         f"{col}.")
    F._sizes((int(row), int(col)), op, "row, col")
    dt = mstype.to_numpy(dtype, op)
    if dt not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"For '{op}', 'dtype' must be Int32 or Int64, but got {dtype}.")
    make = np.tril_indices if lower else np.triu_indices
    return Tensor(np.stack(make(int(row), int(offset), int(col))).astype(dt))


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = mstype.int64) -> Tensor:
    """The ``(2, N)`` coordinates of the lower triangle of a ``row`` x ``col`` matrix (up to
    the ``offset``-th diagonal)."""
    return _index_pairs(row, col, offset, dtype, "tril_indices", True)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = mstype.int64) -> Tensor:
    """The ``(2, N)`` coordinates of the upper triangle of a ``row`` x ``col`` matrix (from
    the ``offset``-th diagonal)."""
    return _index_pairs(row, col, offset, dtype, "triu_indices", False)


def range(start: Any, end: Any, step: Any, maxlen: int = 1000000) -> Tensor:
    """The numbers from ``start`` to ``end`` (exclusive) in steps of ``step``: Int64 when
    all three are integers, else Float32; at most ``maxlen`` of them."""
    vals = []
    for arg, v in (("start", start), ("end", end), ("step", step)):
        if isinstance(v, Tensor) and v.size == 1:
            v = v.asnumpy().reshape(()).item()
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise TypeError(f"For 'range', '{arg}' must be a number or a one-element Tensor, "
                            f"but got {type(v).__name__}.")
        vals.append(v)
    if not F._is_int(maxlen) or maxlen <= 0:
        raise ValueError(f"For 'range', 'maxlen' must be a positive int, but got {maxlen!r}.")
    s, e, d = vals
    if not all(math.isfinite(v) for v in vals) or d == 0 or (e - s) * d < 0:
        raise ValueError(f"For 'range', 'step' {d} must be non-zero and lead from 'start' {s} "
                         f"to 'end' {e}.")
    n = max(math.ceil((e - s) / d), 0)
    if n > maxlen:
        raise ValueError(f"For 'range', the result has {n} elements, more than 'maxlen' "
                         f"{maxlen}.")
    ints = all(isinstance(v, (int, np.integer)) for v in vals)
    return Tensor(np.arange(s, e, d, dtype=np.int64 if ints else np.float32)[:n])


def _bitwise_front(prim: Primitive, op: str):
    def fn(input: Any, other: Any) -> Tensor:
        x = F._tensor(input, op, "input")
        y = F._tensor(other, op, "other")
        for t, arg in ((x, "input"), (y, "other")):
            if t._data.dtype.kind not in "biu":
                raise TypeError(f"For '{op}', '{arg}' must be an integer or bool Tensor, but "
                                f"got {t.dtype}.")
        if x.dtype != y.dtype:
            raise TypeError(f"For '{op}', 'input' and 'other' must have the same dtype, but got "
                            f"{x.dtype} and {y.dtype}.")
        F._broadcast_shapes(op, ("input", x), ("other", y))
        return prim(x, y)
    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = f"Elementwise {op.split('_')[1].upper()} of the bits (integers or bools)."
    return fn


bitwise_and = _bitwise_front(BW.bitwise_and, "bitwise_and")
bitwise_or = _bitwise_front(BW.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise_front(BW.bitwise_xor, "bitwise_xor")

__all__ = ["tensor_scatter_elements", "scatter", "gather_d", "tril_indices", "triu_indices",
           "range", "bitwise_and", "bitwise_or", "bitwise_xor"]
