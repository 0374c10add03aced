"""Selection and indexing: ``take``, ``take_along_axis``, ``choose``, ``select``, ``where``,
``unique``, flat/multi-index conversion, ``argwhere``, ``searchsorted``, ``digitize``,
``diagonal``, and the function-applying helpers (``apply_along_axis``,
``apply_over_axes``, ``piecewise``). Gathers are differentiable in the gathered values."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from .. import ops
from ._utils import axis_arg, common, operand, shape_arg, to_tensor

__all__ = ["take", "take_along_axis", "choose", "select", "where", "unique",
           "unravel_index", "ravel_multi_index", "argwhere", "searchsorted", "digitize",
           "diagonal", "apply_along_axis", "apply_over_axes", "piecewise"]


def _index_tensor(i: Any, op: str, arg: str = "indices") -> Tensor:
    t = to_tensor(i, op, arg)
    if t.dtype.np_dtype.kind not in "iu":
        raise TypeError(f"For '{op}', '{arg}' must be an integer tensor, but got {t.dtype}.")
    return t


def _fix_mode(idx: Tensor, n: int, mode: str, op: str, from_end: bool = False) -> Tensor:
    if mode == "clip":
        if from_end:  # MindSpore's take counts a negative index from the end first
            idx = ops.where(ops.lt(idx, ops.zeros_like(idx)), idx + n, idx)
        return ops.clip(idx, 0, n - 1)
    if mode == "wrap":
        return ops.remainder(idx, n)
    if mode == "raise":
        v = idx.asnumpy()
        if v.size and (v.min() < -n or v.max() >= n):
            raise IndexError(f"For '{op}', an index is out of range for size {n}.")
        return ops.remainder(idx, n)
    raise ValueError(f"For '{op}', 'mode' must be 'clip', 'wrap' or 'raise', but got "
                     f"{mode!r}.")


def take(a: Any, indices: Any, axis: Any = None, mode: str = "clip") -> Tensor:
    """The elements of ``a`` at ``indices`` along ``axis`` (of the flattened array when
    None); out-of-range indices are clipped (``mode='clip'``, negative ones counting from
    the end first, as in MindSpore) or wrapped (``'wrap'``)."""
    t = to_tensor(a, "take", "a")
    idx = _index_tensor(indices, "take")
    if axis is None:
        t, axis = ops.reshape(t, (-1,)), 0
    ax = axis_arg(axis, t.ndim, "take")
    idx = _fix_mode(idx, t.shape[ax], mode, "take", from_end=True)
    return ops.gather(t, idx.astype(mstype.int64), ax)


def take_along_axis(arr: Any, indices: Any, axis: Any) -> Tensor:
    """The values of ``arr`` at ``indices`` along ``axis``, the other axes matched by
    broadcasting (the flattened array when ``axis`` is None)."""
    t = to_tensor(arr, "take_along_axis", "arr")
    idx = _index_tensor(indices, "take_along_axis")
    if axis is None:
        t, axis = ops.reshape(t, (-1,)), 0
    ax = axis_arg(axis, t.ndim, "take_along_axis")
    if idx.ndim != t.ndim:
        raise ValueError(f"For 'take_along_axis', 'indices' must have the rank of 'arr' "
                         f"({t.ndim}), but got shape {idx.shape}.")
    shape = list(np.broadcast_shapes(tuple(s for i, s in enumerate(t.shape) if i != ax),
                                     tuple(s for i, s in enumerate(idx.shape) if i != ax)))
    ts, ishape = list(shape), list(shape)
    ts.insert(ax, t.shape[ax])
    ishape.insert(ax, idx.shape[ax])
    idx = ops.remainder(idx.astype(mstype.int64), t.shape[ax])
    return ops.gather_elements(ops.broadcast_to(t, tuple(ts)), ax,
                               ops.broadcast_to(idx, tuple(ishape)))


def choose(a: Any, choices: Any, mode: str = "clip") -> Tensor:
    """Elementwise, the value of ``choices[a]`` (all broadcast together)."""
    idx = _index_tensor(a, "choose", "a")
    cs = common([to_tensor(c, "choose", "choices") for c in choices])
    n = len(cs)
    idx = _fix_mode(idx, n, mode, "choose")
    shape = np.broadcast_shapes(idx.shape, *(c.shape for c in cs))
    stacked = ops.stack([ops.broadcast_to(c, shape) for c in cs], 0)
    idx = ops.expand_dims(ops.broadcast_to(idx, shape).astype(mstype.int64), 0)
    return ops.squeeze(ops.gather_elements(stacked, 0, idx), 0)


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Tensor:
    """Elementwise, the value from the first choice whose condition holds; ``default``
    where none does."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"For 'select', 'condlist' ({len(condlist)}) and 'choicelist' "
                         f"({len(choicelist)}) must have one length.")
    if not condlist:
        raise ValueError("For 'select', 'condlist' must not be empty.")
    conds = [to_tensor(c, "select", "condlist") for c in condlist]
    choices = common([to_tensor(c, "select", "choicelist") for c in choicelist])
    shape = np.broadcast_shapes(*(c.shape for c in conds), *(c.shape for c in choices))
    out = ops.full(shape, default, dtype=choices[0].dtype) if not isinstance(default, Tensor) \
        else ops.broadcast_to(default.astype(choices[0].dtype), shape)
    for c, v in zip(reversed(conds), reversed(choices)):
        c = c if c.dtype == mstype.bool_ else ops.ne(c, ops.zeros_like(c))
        out = ops.where(ops.broadcast_to(c, shape), ops.broadcast_to(v, shape), out)
    return out


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """Elementwise ``x`` where ``condition`` holds, else ``y``; with the condition alone,
    the indices of its true elements (a tuple, one per axis)."""
    c = to_tensor(condition, "where", "condition")
    if c.dtype != mstype.bool_:
        c = ops.ne(c, ops.zeros_like(c))
    if x is None and y is None:
        idx = np.nonzero(c.asnumpy())
        return tuple(Tensor(i.astype(np.int64)) for i in idx)
    if x is None or y is None:
        raise ValueError("For 'where', 'x' and 'y' must be given together.")
    a, b = operand(x, "where", "x"), operand(y, "where", "y")
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = to_tensor(a, "where", "x")
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        a, b = common([a, b])
    elif isinstance(a, Tensor):
        b = ops.full_like(a, b) if not isinstance(b, float) or a.dtype.is_floating \
            else ops.full_like(a.astype(mstype.float32), b)
        a = a.astype(b.dtype)
    else:
        a = ops.full_like(b, a) if not isinstance(a, float) or b.dtype.is_floating \
            else ops.full_like(b.astype(mstype.float32), a)
        b = b.astype(a.dtype)
    return ops.where(c, a, b)


def unique(x: Any, return_inverse: bool = False) -> Any:
    """The unique elements of the flattened ``x`` in the order of their first occurrence,
    as MindSpore's CPU build gives them (NumPy sorts them); with ``return_inverse`` also
    the index into them of each element."""
    t = ops.reshape(to_tensor(x, "unique", "x"), (-1,))
    # the positions are read from the values; the result gathers them, so a gradient
    # reaches the first occurrence of each value
    _, first, inv = np.unique(t.asnumpy(), return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    out = ops.gather(t, Tensor(first[order].astype(np.int64)), 0)
    if return_inverse:
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return out, Tensor(rank[inv.reshape(-1)].astype(np.int32))
    return out


def unravel_index(indices: Any, shape: Any, order: str = "C") -> tuple:
    """The multi-indices in an array of ``shape`` of the flat ``indices`` (clipped)."""
    idx = _index_tensor(indices, "unravel_index")
    dims = shape_arg(shape, "unravel_index")
    if order not in ("C", "F"):
        raise ValueError(f"For 'unravel_index', 'order' must be 'C' or 'F', got {order!r}.")
    total = int(np.prod(dims))
    idx = ops.clip(idx, 0, total - 1) if total else idx
    out = []
    walk = list(reversed(dims)) if order == "C" else list(dims)
    for d in walk:
        out.append(ops.remainder(idx, d))
        idx = ops.floor_divide(idx, d)
    return tuple(reversed(out)) if order == "C" else tuple(out)


def ravel_multi_index(multi_index: Any, dims: Any, mode: str = "clip",
                      order: str = "C") -> Tensor:
    """The flat indices in an array of ``dims`` of the multi-indices (one array per axis)."""
    dims = shape_arg(dims, "ravel_multi_index")
    if len(multi_index) != len(dims):
        raise ValueError(f"For 'ravel_multi_index', 'multi_index' must have {len(dims)} "
                         f"arrays, but got {len(multi_index)}.")
    if order not in ("C", "F"):
        raise ValueError(f"For 'ravel_multi_index', 'order' must be 'C' or 'F', got "
                         f"{order!r}.")
    idx = [_fix_mode(_index_tensor(i, "ravel_multi_index", "multi_index"), d, mode,
                     "ravel_multi_index") for i, d in zip(multi_index, dims)]
    strides = np.cumprod((1,) + tuple(reversed(dims[1:])))[::-1] if order == "C" \
        else np.cumprod((1,) + tuple(dims[:-1]))
    out = idx[0] * int(strides[0])
    for i, s in zip(idx[1:], strides[1:]):
        out = out + i * int(s)
    return out


def argwhere(a: Any) -> Tensor:
    """The indices of the non-zero elements, one row each (int64)."""
    t = to_tensor(a, "argwhere", "a")
    return Tensor(np.argwhere(t.asnumpy()).astype(np.int64))


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    """The indices at which inserting ``v`` into the sorted 1-D ``a`` keeps it sorted
    (``side='right'``: after equal elements); ``sorter`` sorts ``a`` first."""
    s = to_tensor(a, "searchsorted", "a")
    if s.ndim != 1:
        raise ValueError(f"For 'searchsorted', 'a' must be 1-D, but got shape {s.shape}.")
    if side not in ("left", "right"):
        raise ValueError(f"For 'searchsorted', 'side' must be 'left' or 'right', got {side!r}.")
    if sorter is not None:
        s = ops.gather(s, _index_tensor(sorter, "searchsorted", "sorter").astype(mstype.int64),
                       0)
    vals = to_tensor(v, "searchsorted", "v")
    s, vals = common([s, vals])
    return ops.searchsorted(s, vals, right=side == "right", out_int32=True)


def digitize(x: Any, bins: Any, right: bool = False) -> Tensor:
    """The index of the bin (of the monotonic 1-D ``bins``) each ``x`` falls into."""
    b = to_tensor(bins, "digitize", "bins")
    t = to_tensor(x, "digitize", "x")
    bv = b.asnumpy()
    increasing = bv.size < 2 or bv[-1] >= bv[0]
    if increasing:
        return searchsorted(b, t, "left" if right else "right")
    n = b.shape[0]
    return n - searchsorted(ops.flip(b, (0,)), t, "left" if right else "right")


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """The ``offset``-th diagonal of the planes of ``axis1`` and ``axis2`` (last axis)."""
    t = to_tensor(a, "diagonal", "a")
    if t.ndim < 2:
        raise ValueError(f"For 'diagonal', 'a' must have rank >= 2, got shape {t.shape}.")
    return ops.diagonal(t, int(offset), axis_arg(axis1, t.ndim, "diagonal", "axis1"),
                        axis_arg(axis2, t.ndim, "diagonal", "axis2"))


def apply_along_axis(func1d: Callable, axis: int, arr: Any, *args: Any, **kwargs: Any) -> Tensor:
    """``func1d`` applied to each 1-D slice of ``arr`` along ``axis``; its results take the
    place of that axis."""
    t = to_tensor(arr, "apply_along_axis", "arr")
    ax = axis_arg(axis, t.ndim, "apply_along_axis")
    moved = ops.moveaxis(t, ax, -1)
    lead = moved.shape[:-1]
    flat = ops.reshape(moved, (-1, moved.shape[-1]))
    res = [to_tensor(func1d(flat[i], *args, **kwargs), "apply_along_axis", "func1d's result")
           for i in range(flat.shape[0])]
    out = ops.stack(res, 0)
    out = ops.reshape(out, lead + out.shape[1:])
    if out.ndim == len(lead):
        return out
    dest = list(range(ax, ax + out.ndim - len(lead)))
    return ops.moveaxis(out, list(range(len(lead), out.ndim)), dest)


def apply_over_axes(func: Callable, a: Any, axes: Any) -> Tensor:
    """``func(a, axis)`` applied for each axis in turn, keeping the rank (a reduced axis is
    kept with size 1)."""
    t = to_tensor(a, "apply_over_axes", "a")
    for ax in ((axes,) if isinstance(axes, int) else axes):
        ax = axis_arg(ax, t.ndim, "apply_over_axes")
        r = to_tensor(func(t, ax), "apply_over_axes", "func's result")
        if r.ndim == t.ndim - 1:
            r = ops.expand_dims(r, ax)
        elif r.ndim != t.ndim:
            raise ValueError("For 'apply_over_axes', 'func' must keep the rank or remove "
                             "one axis.")
        t = r
    return t


def piecewise(x: Any, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> Tensor:
    """Elementwise, ``funclist[i]`` of ``x`` where ``condlist[i]`` holds (a number is a
    constant); one more function than conditions is the default."""
    t = to_tensor(x, "piecewise", "x")
    conds = [to_tensor(c, "piecewise", "condlist") for c in
             (condlist if isinstance(condlist, (list, tuple)) else [condlist])]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"For 'piecewise', 'funclist' must have {n} or {n + 1} entries, "
                         f"but got {len(funclist)}.")
    if len(funclist) == n + 1:
        rest = ops.logical_not(ops.any(ops.stack(
            [ops.broadcast_to(c, t.shape) for c in conds], 0), 0))
        conds.append(rest)

    def value(f: Any) -> Tensor:
        if callable(f):
            return ops.broadcast_to(to_tensor(f(t, *args, **kw), "piecewise", "funclist"),
                                    t.shape).astype(t.dtype)
        return ops.full_like(t, f)

    out = ops.zeros_like(t)
    for c, f in zip(conds, funclist):
        out = ops.where(ops.broadcast_to(c, t.shape), value(f), out)
    return out
