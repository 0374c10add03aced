"""MindSpore's segment reductions (``unsorted_segment_sum/max/min/prod``,
``sparse_segment_mean``), the scatters beyond addition and update (``tensor_scatter_mul``,
``_div``, ``_max``, ``_min``; ``scatter_nd_*`` and ``scatter_*``, which also update a
Parameter in place), the row updates (``index_add``, ``inplace_add``, ``inplace_sub``,
``inplace_update``, ``inplace_index_add``) and the assignments (``assign``, ``assign_add``,
``assign_sub``).

Everything is a composition of differentiable operators. A segment reduction groups the
rows of its operand with a constant membership mask (rows x groups) and reduces over the
rows with the matching reduction (sum, prod, max, min), so its gradient is the reduction's
own: ties of max and min share the gradient equally, as in MindSpore (a sum is a
scatter-add instead, with no such temporary). The groups are the
distinct targets when the indices are known (no transformation traces them), every
position of the target otherwise."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common.parameter import Parameter
from ..core import dtype as mstype
from ..core import mutation
from ..core.tensor import Tensor
from ..prims import indexing as IX
from . import functional as F
from .functional import _composite

_KINDS = ("sum", "prod", "max", "min")


def _fill_value(dtype: np.dtype, kind: str) -> Any:
    """The value of an empty group: 0, 1, the lowest (max) or highest (min) of the dtype."""
    if kind == "sum":
        return 0
    if kind == "prod":
        return 1
    info = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    return info.min if kind == "max" else info.max


def _reduce_groups(rows: Tensor, member: Tensor, kind: str) -> Tensor:
    """``out[k] = reduce_{j: member[j, k]} rows[j]`` for ``rows`` of shape (J, *S) and the
    boolean ``member`` (J, K); a group without rows gets ``_fill_value``."""
    j, k = member.shape
    tail = tuple(rows.shape[1:])
    full = (j, k) + tail
    mask = F.broadcast_to(F.reshape(member, (j, k) + (1,) * len(tail)), full)
    spread = F.broadcast_to(F.reshape(rows, (j, 1) + tail), full)
    fill = F.zeros_like(spread) + Tensor(np.array(_fill_value(rows.dtype.np_dtype, kind),
                                                  rows.dtype.np_dtype))
    picked = F.select(mask, spread, fill)
    reduce = {"sum": F.reduce_sum, "prod": F.reduce_prod, "max": F.reduce_max,
              "min": F.reduce_min}[kind]
    out = reduce(picked, 0)
    if kind == "sum" and out.dtype != rows.dtype:
        out = F.cast(out, rows.dtype)
    return out


def _known(t: Tensor) -> bool:
    return IX.is_eager(t) and isinstance(t._data, np.ndarray)


# --- segments --------------------------------------------------------------------------------
def _segment_args(x: Any, segment_ids: Any, num_segments: Any, op: str) -> tuple:
    x = F._tensor(x, op, "x")
    ids = F._int_tensor(segment_ids, op, "segment_ids")
    if isinstance(num_segments, Tensor):
        num_segments = num_segments.asnumpy().item()
    if not F._is_int(num_segments) or num_segments <= 0:
        raise ValueError(f"For '{op}', 'num_segments' must be a positive int, but got "
                         f"{num_segments!r}.")
    if tuple(x.shape[:ids.ndim]) != tuple(ids.shape):
        raise ValueError(f"For '{op}', the shape of 'segment_ids' must be a prefix of the "
                         f"shape of 'x', but got {list(ids.shape)} and {list(x.shape)}.")
    return x, ids, int(num_segments)


def _segment(x: Any, segment_ids: Any, num_segments: Any, kind: str, op: str) -> Tensor:
    x, ids, n = _segment_args(x, segment_ids, num_segments, op)
    j = int(np.prod(ids.shape, dtype=np.int64))
    tail = tuple(x.shape[ids.ndim:])
    rows = F.reshape(x, (j,) + tail)
    flat = F.reshape(ids, (j, 1))
    if kind == "sum":
        # a scatter-add into zeros: no (rows x segments) temporary
        F._sizes((n,) + tail, op, "num_segments")
        valid = F.logical_and(F.greater_equal(flat, 0), F.less(flat, n))
        kept = F.select(F.broadcast_to(F.reshape(valid, (j,) + (1,) * len(tail)), (j,) + tail),
                        rows, F.zeros_like(rows))
        zeros = F._fill(x.dtype, (n,) + tail, 0, op)
        return F.tensor_scatter_add(zeros, F.select(valid, flat, F.zeros_like(flat)), kept)
    # the membership of every row in every segment is formed at once
    F._sizes((j, n) + tail, op, "num_segments")
    # ids outside [0, n) belong to no segment (MindSpore drops them)
    member = F.equal(flat, Tensor(np.arange(n, dtype=ids.dtype.np_dtype)[None, :]))
    return _reduce_groups(rows, member, kind)


@_composite
def unsorted_segment_sum(input_x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
    """``out[k] = sum of input_x[j...]`` over the ``j`` with ``segment_ids[j] == k``, for
    ``k < num_segments``; rows with ids outside ``[0, num_segments)`` are dropped."""
    return _segment(input_x, segment_ids, num_segments, "sum", "unsorted_segment_sum")


@_composite
def unsorted_segment_prod(x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
    """The product of each segment's rows (1 for an empty segment)."""
    return _segment(x, segment_ids, num_segments, "prod", "unsorted_segment_prod")


@_composite
def unsorted_segment_max(x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
    """The maximum of each segment's rows (the dtype's lowest value for an empty segment);
    tied maxima share the gradient."""
    return _segment(x, segment_ids, num_segments, "max", "unsorted_segment_max")


@_composite
def unsorted_segment_min(x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
    """The minimum of each segment's rows (the dtype's highest value for an empty
    segment)."""
    return _segment(x, segment_ids, num_segments, "min", "unsorted_segment_min")


@_composite
def sparse_segment_mean(x: Any, indices: Any, segment_ids: Any) -> Tensor:
    """``out[k]`` = mean of ``x[indices[j]]`` over the ``j`` with ``segment_ids[j] == k``;
    ``segment_ids`` is sorted and the output has ``segment_ids[-1] + 1`` rows (0 for an
    empty one)."""
    op = "sparse_segment_mean"
    x = F._tensor(x, op, "x")
    if x.dtype.np_dtype.kind != "f":
        raise TypeError(f"For '{op}', 'x' must be a float Tensor, but got {x.dtype}.")
    idx = F._int_tensor(indices, op, "indices")
    seg = F._int_tensor(segment_ids, op, "segment_ids")
    if idx.ndim != 1 or seg.ndim != 1 or idx.shape != seg.shape:
        raise ValueError(f"For '{op}', 'indices' and 'segment_ids' must be 1-D of the same "
                         f"length, but got shapes {list(idx.shape)} and {list(seg.shape)}.")
    s = seg.asnumpy()
    if s.size and (np.any(np.diff(s) < 0) or s[0] < 0):
        raise ValueError(f"For '{op}', 'segment_ids' must be sorted and non-negative, but "
                         f"got {s.tolist()}.")
    n = int(s[-1]) + 1 if s.size else 0
    rows = F.gather(x, IX.checked_indices(idx, x.shape[0], op, "each value of 'indices'",
                                          error=ValueError), 0)
    total = _segment(rows, seg, n, "sum", op)
    count = np.maximum(np.bincount(s, minlength=n), 1).astype(x.dtype.np_dtype)
    return total / Tensor(count.reshape((n,) + (1,) * (x.ndim - 1)))


# --- scatters --------------------------------------------------------------------------------
def _nd_args(input_x: Any, indices: Any, updates: Any, op: str) -> tuple:
    x = F._tensor(input_x, op, "input_x")
    idx = F._int_tensor(indices, op, "indices")
    u = F._tensor(updates, op, "updates")
    if u.dtype != x.dtype:
        raise TypeError(f"For '{op}', 'updates' must have the dtype of 'input_x' ({x.dtype}), "
                        f"but got {u.dtype}.")
    k = idx.shape[-1] if idx.ndim else 0
    if idx.ndim < 1 or not 1 <= k <= x.ndim:
        raise ValueError(f"For '{op}', the last axis of 'indices' must be in [1, {x.ndim}] "
                         f"(the rank of 'input_x'), but got 'indices' of shape "
                         f"{list(idx.shape)}.")
    want = tuple(idx.shape[:-1]) + tuple(x.shape[k:])
    if tuple(u.shape) != want:
        raise ValueError(f"For '{op}', 'updates' must have shape {list(want)} (indices.shape"
                         f"[:-1] + input_x.shape[{k}:]), but got {list(u.shape)}.")
    dims = tuple(x.shape[:k])
    if _known(idx):
        i = idx.asnumpy().reshape(-1, k)
        bad = (i < 0) | (i >= np.asarray(dims))
        if bad.any():
            r = int(np.argwhere(bad.any(1))[0, 0])
            raise ValueError(f"For '{op}', each index tuple of 'indices' must lie within "
                             f"{list(dims)} (the first {k} axes of 'input_x'), but got "
                             f"{i[r].tolist()}.")
    return x, idx, u


def _scatter_groups(x: Tensor, idx: Tensor, u: Tensor, kind: str) -> tuple:
    """The distinct targets of the index tuples as a (K, k) index Tensor and the updates
    reduced per target (K, *slice)."""
    k = idx.shape[-1]
    dims = tuple(x.shape[:k])
    j = int(np.prod(idx.shape[:-1], dtype=np.int64))
    rows = F.reshape(u, (j,) + tuple(x.shape[k:]))
    if _known(idx):
        pos = np.ravel_multi_index(tuple(idx.asnumpy().reshape(j, k).T), dims)
        uniq, inv = np.unique(pos, return_inverse=True)
        member = Tensor(inv.reshape(-1)[:, None] == np.arange(uniq.size)[None, :])
        targets = np.stack(np.unravel_index(uniq, dims), -1).astype(idx.dtype.np_dtype)
    else:  # traced indices: every position of the target is a group
        strides = np.array([int(np.prod(dims[a + 1:], dtype=np.int64)) for a in range(k)])
        flat = F.reduce_sum(F.reshape(idx, (j, k)) * Tensor(strides.astype(
            idx.dtype.np_dtype)), 1, True)
        n = int(np.prod(dims, dtype=np.int64))
        member = F.equal(flat, Tensor(np.arange(n, dtype=idx.dtype.np_dtype)[None, :]))
        targets = np.stack(np.unravel_index(np.arange(n), dims), -1).astype(
            idx.dtype.np_dtype)
    return Tensor(targets.reshape(-1, k)), _reduce_groups(rows, member, kind)


def _combine(x: Tensor, idx: Tensor, u: Tensor, kind: str) -> Tensor:
    """``x`` with every targeted slice combined with its updates by ``kind`` (``mul``,
    ``div``, ``max``, ``min``), repeated targets taking all of theirs."""
    reduce = {"mul": "prod", "div": "prod", "max": "max", "min": "min"}[kind]
    targets, folded = _scatter_groups(x, idx, u, reduce)
    at = F.gather_nd(x, targets)
    new = {"mul": F.mul, "div": F.div, "max": F.maximum, "min": F.minimum}[kind](at, folded)
    return F.tensor_scatter_update(x, targets, new)


def _updated(input_x: Any, out: Tensor) -> Tensor:
    # MindSpore's scatters write into a Parameter operand; they return the new value
    if isinstance(input_x, Parameter):
        input_x.set_data(out)
    return out


def _tensor_scatter(kind: str, doc: str):
    op = f"tensor_scatter_{kind}"

    @_composite(name=op)
    def fn(input_x: Any, indices: Any, updates: Any) -> Tensor:
        x, idx, u = _nd_args(input_x, indices, updates, op)
        if kind == "div" and x.dtype.np_dtype.kind != "f":
            raise TypeError(f"For '{op}', 'input_x' must be a float Tensor, but got "
                            f"{x.dtype}.")
        return _combine(x, idx, u, kind)

    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = doc
    return fn


tensor_scatter_mul = _tensor_scatter("mul", "A copy of ``input_x`` with the slices at the "
                                     "index tuples ``indices`` multiplied by ``updates``.")
tensor_scatter_div = _tensor_scatter("div", "A copy of ``input_x`` with the slices at the "
                                     "index tuples ``indices`` divided by ``updates``.")
tensor_scatter_max = _tensor_scatter("max", "A copy of ``input_x`` with the slices at the "
                                     "index tuples ``indices`` raised to ``updates`` where "
                                     "those are larger.")
tensor_scatter_min = _tensor_scatter("min", "A copy of ``input_x`` with the slices at the "
                                     "index tuples ``indices`` lowered to ``updates`` where "
                                     "those are smaller.")


def _scatter_kind(x: Tensor, idx: Tensor, u: Tensor, kind: str) -> Tensor:
    """``x`` with the slices at the index tuples ``idx`` combined with ``u`` by ``kind``
    (add, sub, update, or one of ``_combine``'s)."""
    if kind == "add":
        return F.tensor_scatter_add(x, idx, u)
    if kind == "sub":
        return F.tensor_scatter_add(x, idx, -u)
    if kind == "update":
        return F.tensor_scatter_update(x, idx, u)
    return _combine(x, idx, u, kind)


def _scatter_nd(kind: str):
    op = f"scatter_nd_{kind}"

    @_composite(name=op)
    def fn(input_x: Any, indices: Any, updates: Any, use_locking: bool = False) -> Tensor:
        x, idx, u = _nd_args(input_x, indices, updates, op)
        return _updated(input_x, _scatter_kind(x, idx, u, kind))

    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = (f"MindSpore's ``{op}``: the slices of ``input_x`` at the index tuples "
                  f"``indices`` combined with ``updates`` ({kind}); a Parameter ``input_x`` "
                  f"takes the result as its new value, which is returned.")
    return fn


scatter_nd_add = _scatter_nd("add")
scatter_nd_sub = _scatter_nd("sub")
scatter_nd_mul = _scatter_nd("mul")
scatter_nd_div = _scatter_nd("div")
scatter_nd_max = _scatter_nd("max")
scatter_nd_min = _scatter_nd("min")
scatter_nd_update = _scatter_nd("update")


def _row_args(input_x: Any, indices: Any, updates: Any, op: str) -> tuple:
    x = F._tensor(input_x, op, "input_x")
    idx = F._int_tensor(indices, op, "indices")
    if x.ndim == 0:
        raise ValueError(f"For '{op}', 'input_x' must have rank >= 1, but got a 0-D Tensor.")
    return _nd_args(x, F.reshape(idx, tuple(idx.shape) + (1,)), updates, op)


def _scatter_rows(kind: str):
    op = f"scatter_{kind}"

    @_composite(name=op)
    def fn(input_x: Any, indices: Any, updates: Any) -> Tensor:
        x, idx, u = _row_args(input_x, indices, updates, op)
        return _updated(input_x, _scatter_kind(x, idx, u, kind))

    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = (f"MindSpore's ``{op}``: row ``indices[i...]`` of ``input_x`` combined with "
                  f"``updates[i...]`` ({kind}); a Parameter ``input_x`` takes the result as "
                  f"its new value, which is returned.")
    return fn


scatter_update = _scatter_rows("update")
scatter_sub = _scatter_rows("sub")
scatter_mul = _scatter_rows("mul")
scatter_div = _scatter_rows("div")
scatter_max = _scatter_rows("max")
scatter_min = _scatter_rows("min")


# --- row updates ------------------------------------------------------------------------------
def _along(x: Tensor, axis: int, idx: Tensor, v: Tensor, add: bool, op: str) -> Tensor:
    """``x`` with the slices ``idx`` along ``axis`` increased by (``add``) or set to the
    matching slices of ``v``."""
    perm = (axis,) + tuple(a for a in range(x.ndim) if a != axis)
    back = tuple(int(i) for i in np.argsort(perm))
    xt, vt = F.transpose(x, perm), F.transpose(v, perm)
    i2 = F.reshape(idx, (idx.shape[0], 1))
    out = F.tensor_scatter_add(xt, i2, vt) if add else F.tensor_scatter_update(xt, i2, vt)
    return F.transpose(out, back)


def _rows_index(indices: Any, n: int, op: str, arg: str = "indices") -> Tensor:
    if isinstance(indices, (int, np.integer)) and not isinstance(indices, bool):
        indices = (int(indices),)
    if isinstance(indices, (tuple, list)):
        if not all(F._is_int(i) and -2 ** 62 < i < 2 ** 62 for i in indices):
            raise TypeError(f"For '{op}', '{arg}' must be an int, a tuple of ints or an int "
                            f"Tensor, but got {indices!r}.")
        indices = Tensor(np.asarray(indices, np.int64).reshape(-1))
    idx = F._int_tensor(indices, op, arg)
    if idx.ndim > 1:
        raise ValueError(f"For '{op}', '{arg}' must be 0-D or 1-D, but got shape "
                         f"{list(idx.shape)}.")
    idx = F.reshape(idx, (-1,))
    if _known(idx):
        bad = (idx.asnumpy() < -n) | (idx.asnumpy() >= n)
        if bad.any():
            raise IndexError(f"For '{op}', each value of '{arg}' must be in [{-n}, {n}), but "
                             f"got {idx.asnumpy()[bad][0]}.")
        return Tensor(np.where(idx.asnumpy() < 0, idx.asnumpy() + n, idx.asnumpy()))
    return IX.checked_indices(idx, n, op, f"each value of '{arg}'", lo=-n, error=IndexError)


def _rows_update(x: Any, v: Any, indices: Any, axis: int, add: bool, op: str,
                 names: tuple = ("x", "v")) -> Tensor:
    x = F._tensor(x, op, names[0])
    v = F._tensor(v, op, names[1])
    if v.dtype != x.dtype:
        raise TypeError(f"For '{op}', '{names[1]}' must have the dtype of '{names[0]}' "
                        f"({x.dtype}), but got {v.dtype}.")
    if x.ndim == 0:
        raise ValueError(f"For '{op}', '{names[0]}' must have rank >= 1, but got a 0-D "
                         f"Tensor.")
    a = F._axis(axis, x.ndim, op)
    idx = _rows_index(indices, x.shape[a], op)
    want = tuple(x.shape[:a]) + (idx.shape[0],) + tuple(x.shape[a + 1:])
    if tuple(v.shape) != want:
        raise ValueError(f"For '{op}', '{names[1]}' must have shape {list(want)}, but got "
                         f"{list(v.shape)} (the indices select {idx.shape[0]} slices of "
                         f"'{names[0]}' of shape {list(x.shape)} along axis {a}).")
    return _along(x, a, idx, v, add, op)


@_composite
def index_add(x: Any, indices: Any, y: Any, axis: int, use_lock: bool = True,
              check_index_bound: bool = True) -> Tensor:
    """``x`` with slice ``j`` of ``y`` along ``axis`` added to slice ``indices[j]``
    (repeated indices accumulate); a Parameter ``x`` takes the result as its new value."""
    if isinstance(indices, Tensor) and indices.dtype != mstype.int32:
        raise TypeError(f"For 'index_add', 'indices' must be an Int32 Tensor, but got "
                        f"{indices.dtype}.")
    out = _rows_update(x, y, indices, axis, True, "index_add", ("x", "y"))
    return _updated(x, out)


@_composite
def inplace_add(x: Any, v: Any, indices: Any) -> Tensor:
    """``x`` with row ``v[j]`` added to row ``indices[j]`` (an int, a tuple of ints or an
    int Tensor)."""
    return _rows_update(x, v, indices, 0, True, "inplace_add")


@_composite
def inplace_sub(x: Any, v: Any, indices: Any) -> Tensor:
    """``x`` with row ``v[j]`` subtracted from row ``indices[j]``."""
    return _rows_update(x, -F._tensor(v, "inplace_sub", "v"), indices, 0, True, "inplace_sub")


@_composite
def inplace_update(x: Any, v: Any, indices: Any) -> Tensor:
    """``x`` with row ``indices[j]`` replaced by ``v[j]``."""
    return _rows_update(x, v, indices, 0, False, "inplace_update")


@_composite
def inplace_index_add(var: Any, indices: Any, updates: Any, axis: int) -> Tensor:
    """``var`` with slice ``j`` of ``updates`` along ``axis`` added to slice
    ``indices[j]``; a Parameter ``var`` takes the result as its new value."""
    out = _rows_update(var, updates, indices, axis, True, "inplace_index_add",
                       ("var", "updates"))
    return _updated(var, out)


# --- assignment ------------------------------------------------------------------------------
def _assign(variable: Any, value: Any, op: str, how: Any) -> Tensor:
    if not isinstance(variable, Tensor):
        raise TypeError(f"For '{op}', 'variable' must be a Parameter or a Tensor, but got "
                        f"{type(variable).__name__}.")
    v = F._tensor(value, op, "value")
    if v.ndim != variable.ndim:
        raise ValueError(f"For '{op}', 'value' must have the rank of 'variable' "
                         f"({variable.ndim}), but got shape {list(v.shape)} for a variable of "
                         f"shape {list(variable.shape)}.")
    if tuple(v.shape) != tuple(variable.shape):
        raise ValueError(f"For '{op}', 'value' must have the shape of 'variable' "
                         f"{list(variable.shape)}, but got {list(v.shape)}.")
    if v.dtype != variable.dtype:
        v = F.cast(v, variable.dtype)
    new = how(variable, v)
    if isinstance(variable, Parameter):
        variable.set_data(new)
    else:
        mutation.rebind(variable, new)
    return new


@_composite
def assign(variable: Any, value: Any) -> Tensor:
    """Give ``variable`` (a Parameter, or a Tensor) the value ``value`` (of its shape, cast
    to its dtype) and return the new value. As in MindSpore, the returned value carries no
    gradient to ``value`` (``assign_add`` and ``assign_sub``'s do)."""
    return _assign(variable, value, "assign", lambda var, v: F.stop_gradient(v))


@_composite
def assign_add(variable: Any, value: Any) -> Tensor:
    """``variable += value`` in place; returns the new value."""
    return _assign(variable, value, "assign_add", lambda var, v: F.add(var, v))


@_composite
def assign_sub(variable: Any, value: Any) -> Tensor:
    """``variable -= value`` in place; returns the new value."""
    return _assign(variable, value, "assign_sub", lambda var, v: F.sub(var, v))


__all__ = ["unsorted_segment_sum", "unsorted_segment_prod", "unsorted_segment_max",
           "unsorted_segment_min", "sparse_segment_mean", "tensor_scatter_mul",
           "tensor_scatter_div", "tensor_scatter_max", "tensor_scatter_min", "scatter_nd_add",
           "scatter_nd_sub", "scatter_nd_mul", "scatter_nd_div", "scatter_nd_max",
           "scatter_nd_min", "scatter_nd_update", "scatter_update", "scatter_sub",
           "scatter_mul", "scatter_div", "scatter_max", "scatter_min", "index_add",
           "inplace_add", "inplace_sub", "inplace_update", "inplace_index_add", "assign",
           "assign_add", "assign_sub"]
