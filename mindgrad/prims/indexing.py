"""Padding and index-driven primitives: pad (constant), gather_nd and its transpose
scatter_nd, tensor_scatter_add, tensor_scatter_update, one_hot (no gradient), and
check_range, the bounds check of index and label arguments.

gather_nd and scatter_nd are transposes of one another, so each one's reverse rule is the
other: every order of derivative stays inside these two primitives. Index arguments are
integer tensors that carry no gradient (their rule slots are ``None``)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..ad.batching import per_example
from ..core.primitive import Primitive, graph_tracing
from ..core.tensor import Tensor
from ._util import last_writes, scatter_sums, xp_of
from . import compare as C
from . import structural as S
from . import getitem as G


# --- pad ----------------------------------------------------------------------------------
def inner_index(paddings: tuple, shape: tuple) -> tuple:
    """The slices of a padded array that hold the original one."""
    return tuple(slice(lo, lo + d) for (lo, _), d in zip(paddings, shape))


def _pad_impl(x, paddings, value):
    # full + one slice assignment: a single pass, cheaper than np.pad's per-axis copies
    xp = xp_of(x)
    shape = tuple(d + lo + hi for d, (lo, hi) in zip(x.shape, paddings))
    out = xp.full(shape, value, dtype=x.dtype)
    out[inner_index(paddings, x.shape)] = x
    return out


pad = Primitive("Pad", _pad_impl)
# The constant border does not depend on x: the cotangent is the inner block of g.
pad.vjp = (lambda g, ans, x, paddings, value:
           G.getitem(g, index=inner_index(paddings, S.shape_of(x))),)
pad.jvp = (lambda t, ans, x, paddings, value: pad(t, paddings=paddings, value=0),)


def _batch_pad(args, dims, paddings, value):
    # the batch axis in front, not padded
    return pad(S.to_front(args[0], dims[0]), paddings=((0, 0),) + tuple(paddings),
               value=value), 0


pad.batch = _batch_pad


def shift(x: Any, axis: int, step: int, fill: float) -> Any:
    """Shift ``x`` by one along ``axis`` (step=+1: ``out[i] = x[i-1]``; step=-1:
    ``out[i] = x[i+1]``), filling the freed end with ``fill``. Differentiable (getitem + pad)."""
    n = S.shape_of(x)[axis]
    ndim = len(S.shape_of(x))
    keep = slice(0, n - 1) if step > 0 else slice(1, n)
    part = G.getitem(x, index=(slice(None),) * axis + (keep,))
    pads = tuple(((1, 0) if step > 0 else (0, 1)) if i == axis else (0, 0) for i in range(ndim))
    return pad(part, paddings=pads, value=fill)


# --- gather_nd / scatter ------------------------------------------------------------------
def _rows(x_shape: tuple, indices, name: str):
    """Linear row numbers of the index tuples in ``indices`` (last axis = one tuple) over the
    first ``k`` axes of ``x``, after checking rank and bounds. An empty tuple (``k == 0``)
    selects the whole input, as in TensorFlow and MindSpore: every row number is 0 of 1."""
    xp = xp_of(indices)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"For '{name}', 'indices' must be an integer tensor, but got "
                        f"{indices.dtype}.")
    if indices.ndim == 0:
        raise ValueError(f"For '{name}', 'indices' must have rank >= 1, but got a scalar.")
    k = indices.shape[-1]
    if k > len(x_shape):
        raise ValueError(f"For '{name}', the last dimension of 'indices' ({k}) must not exceed "
                         f"the rank of the input ({len(x_shape)}); indices shape "
                         f"{list(indices.shape)}, input shape {list(x_shape)}.")
    dims = tuple(x_shape[:k])
    # The row count is given, not -1: with k == 0 (an empty tuple, which selects the whole
    # input as its one row) reshape could not infer it.
    flat = indices.reshape(math.prod(indices.shape[:-1]), k)
    if xp is np and flat.shape[0] and k:
        lin = _linear_rows(flat, dims)  # faster than np.ravel_multi_index's checks
        if lin is not None:
            return lin, k
        # out of range (or negative): find the culprit for the message below
    if flat.shape[0]:
        bad = (flat < 0) | (flat >= xp.asarray(dims, dtype=flat.dtype))
        if bool(bad.any()):
            row = int(xp.argmax(bad.any(axis=1)))
            raise IndexError(f"For '{name}', index {flat[row].tolist()} is out of range for "
                             f"the first {k} dimension(s) {list(dims)} of an input of shape "
                             f"{list(x_shape)}.")
    lin = xp.zeros(flat.shape[0], dtype=np.int64)
    for d, col in zip(dims, range(k)):  # k is the index depth (<= rank), not an element loop
        lin = lin * d + flat[:, col]
    return lin, k


def _linear_rows(flat, dims: tuple):
    """Row numbers of the index tuples (rows of ``flat``) over ``dims``, or None when one
    is out of range. The bounds cost a minimum over all entries and a maximum per column
    after the first; the first column is bounded by the maximum of the result."""
    cols = flat.T.astype(np.int64, copy=False)
    if cols.min() < 0:
        return None
    lin = cols[0].copy()
    for col, d in zip(cols[1:], dims[1:]):
        if col.max() >= d:
            return None
        lin *= d
        lin += col
    return lin if lin.max() < math.prod(dims) else None


def _check_updates(name: str, x_shape: tuple, indices, updates,
                   target: str = "input_x.shape") -> tuple:
    want = tuple(indices.shape[:-1]) + tuple(x_shape[indices.shape[-1]:])
    if tuple(updates.shape) != want:
        raise ValueError(f"For '{name}', 'updates' must have shape indices.shape[:-1] + "
                         f"{target}[indices.shape[-1]:] = {list(want)}, but got "
                         f"{list(updates.shape)} ({target} {list(x_shape)}, indices "
                         f"{list(indices.shape)}).")
    return want


def _gather_nd_impl(x, indices):
    lin, k = _rows(x.shape, indices, "GatherNd")
    rest = x.shape[k:]
    x2 = x.reshape((math.prod(x.shape[:k]),) + rest)
    return x2[lin].reshape(tuple(indices.shape[:-1]) + rest)


def _scatter_add_impl(x, indices, updates):
    lin, k = _rows(x.shape, indices, "TensorScatterAdd")
    _check_updates("TensorScatterAdd", x.shape, indices, updates)
    rows = updates.reshape(1, lin.shape[0], math.prod(x.shape[k:]))
    sums = scatter_sums(lin, rows, math.prod(x.shape[:k]))
    return xp_of(x).add(x.reshape(sums.shape), sums, dtype=x.dtype).reshape(x.shape)


def _scatter_nd_impl(indices, updates, shape):
    """Zeros of ``shape`` with ``updates`` added at the index tuples (a gather_nd's
    transpose). Built directly, not as zeros + tensor_scatter_add: on a reverse pass over
    a large gather that saves a full-size temporary and a pass."""
    shape = tuple(shape)
    lin, k = _rows(shape, indices, "ScatterNd")
    _check_updates("ScatterNd", shape, indices, updates, target="shape")
    rows = updates.reshape(1, lin.shape[0], math.prod(shape[k:]))
    sums = scatter_sums(lin, rows, math.prod(shape[:k]))
    return sums.astype(updates.dtype, copy=False).reshape(shape)


def _scatter_update_impl(x, indices, updates):
    lin, k = _rows(x.shape, indices, "TensorScatterUpdate")
    _check_updates("TensorScatterUpdate", x.shape, indices, updates)
    nrows = math.prod(x.shape[:k])
    out = x.reshape(nrows, -1).copy() if x.size else x.copy()
    if x.size and lin.shape[0]:  # (no index: nothing to write, and no row length to infer)
        rows = updates.reshape(lin.shape[0], -1)
        if xp_of(x) is not np:  # a GPU scatter keeps any of the repeats: pick the last
            keep = last_writes(lin)
            lin, rows = lin[keep], rows[keep]
        out[lin] = rows  # repeated rows: the last one wins
    return out.reshape(x.shape)


def _scatter_winners_impl(indices, x_shape):
    """True for the updates a tensor_scatter_update keeps (the last of repeated indices):
    found by scattering the update numbers the same way the update itself does."""
    xp = xp_of(indices)
    lin, k = _rows(tuple(x_shape), indices, "TensorScatterUpdate")
    if xp is not np:  # see _scatter_update_impl
        won = xp.zeros(lin.shape[0], dtype=bool)
        won[last_writes(lin)] = True
        return won.reshape(indices.shape[:-1])
    owner = xp.full(math.prod(x_shape[:k]), -1, dtype=np.int64)
    order = xp.arange(lin.shape[0], dtype=np.int64)
    owner[lin] = order
    return (owner[lin] == order).reshape(indices.shape[:-1])


gather_nd = Primitive("GatherNd", _gather_nd_impl)
scatter_nd = Primitive("ScatterNd", _scatter_nd_impl)
tensor_scatter_add = Primitive("TensorScatterAdd", _scatter_add_impl)
tensor_scatter_update = Primitive("TensorScatterUpdate", _scatter_update_impl)
scatter_winners = Primitive("ScatterWinners", _scatter_winners_impl, nondiff=True)

gather_nd.vjp = (lambda g, ans, x, idx: scatter_nd(idx, g, shape=S.shape_of(x)), None)
gather_nd.jvp = (lambda t, ans, x, idx: gather_nd(t, idx), None)

scatter_nd.vjp = (None, lambda g, ans, idx, u, shape: gather_nd(g, idx))
scatter_nd.jvp = (None, lambda t, ans, idx, u, shape: scatter_nd(idx, t, shape=shape))

tensor_scatter_add.vjp = (lambda g, ans, x, idx, u: g, None,
                          lambda g, ans, x, idx, u: gather_nd(g, idx))
tensor_scatter_add.jvp = (lambda t, ans, x, idx, u: t, None,
                          lambda t, ans, x, idx, u: scatter_nd(idx, t, shape=S.shape_of(ans)))


def _kept_updates(g, idx, u):
    """Cotangent of ``updates`` of a tensor_scatter_update: g at the written positions, for
    the updates that were actually kept (repeated indices: only the last)."""
    picked = gather_nd(g, idx)
    won = scatter_winners(idx, x_shape=S.shape_of(g))
    won = S.reshape(won, shape=S.shape_of(won) + (1,) * (len(S.shape_of(u)) - len(S.shape_of(won))))
    return C.select(won, picked, S.zeros_like(picked))


tensor_scatter_update.vjp = (
    lambda g, ans, x, idx, u: tensor_scatter_update(g, idx, S.zeros_like(u)), None,
    lambda g, ans, x, idx, u: _kept_updates(g, idx, u))
tensor_scatter_update.jvp = (
    lambda t, ans, x, idx, u: tensor_scatter_update(t, idx, S.zeros_like(u)), None,
    lambda t, ans, x, idx, u: tensor_scatter_update(S.zeros_like(ans), idx, t))


# --- batching: an unbatched index list addresses the same slots of every example, so the
# batch axis of the operand moves just behind the indexed axes; batched index tuples get the
# example number prepended and address the examples stacked in front.
def _batch_size(args, dims) -> int:
    return next(S.shape_of(a)[d] for a, d in zip(args, dims) if d is not None)


def _with_example(idx, idx_dim, size):
    """Batched index tuples (an unbatched list is shared by every example), batch axis in
    front, each tuple with its example number prepended."""
    idx = S.broadcast_batch(idx, size) if idx_dim is None else S.to_front(idx, idx_dim)
    s = S.shape_of(idx)
    number = Tensor(np.arange(size, dtype=S.dtype_of(idx)).reshape((size,) + (1,) * (len(s) - 1)))
    return S.concat(S.broadcast_to(number, shape=s[:-1] + (1,)), idx, axis=-1)


def _behind(x, d, size, k):
    """A batched operand with its batch axis right after its first ``k`` axes (broadcast if
    unbatched)."""
    x = S.broadcast_batch(x, size) if d is None else S.to_front(x, d)
    return S.moveaxis(x, 0, k)


def _batch_gather_nd(args, dims):
    (x, idx), (xd, idd) = args, dims
    size = _batch_size(args, dims)
    if xd is None:  # index tuples per example over a shared input: more leading index axes
        return gather_nd(x, S.to_front(idx, idd)), 0
    if idd is None:  # shared tuples: gather every example's slot at once
        k = S.shape_of(idx)[-1]
        return gather_nd(_behind(x, xd, size, k), idx), len(S.shape_of(idx)) - 1
    return gather_nd(S.to_front(x, xd), _with_example(idx, idd, size)), 0


def _batch_scatter_nd(args, dims, shape):
    (idx, u), (idd, ud) = args, dims
    size = _batch_size(args, dims)
    shape = tuple(shape)
    if idd is None:  # shared tuples: scatter every example's update rows at once
        k, lead = S.shape_of(idx)[-1], len(S.shape_of(idx)) - 1
        return scatter_nd(idx, _behind(u, ud, size, lead),
                          shape=shape[:k] + (size,) + shape[k:]), k
    u = S.broadcast_batch(u, size) if ud is None else S.to_front(u, ud)
    return scatter_nd(_with_example(idx, idd, size), u, shape=(size,) + shape), 0


def _batch_tensor_scatter(prim):
    def rule(args, dims):
        (x, idx, u), (xd, idd, ud) = args, dims
        size = _batch_size(args, dims)
        if idd is None:
            k, lead = S.shape_of(idx)[-1], len(S.shape_of(idx)) - 1
            return prim(_behind(x, xd, size, k), idx, _behind(u, ud, size, lead)), k
        x = S.broadcast_batch(x, size) if xd is None else S.to_front(x, xd)
        u = S.broadcast_batch(u, size) if ud is None else S.to_front(u, ud)
        return prim(x, _with_example(idx, idd, size), u), 0
    return rule


gather_nd.batch = _batch_gather_nd
scatter_nd.batch = _batch_scatter_nd
tensor_scatter_add.batch = _batch_tensor_scatter(tensor_scatter_add)
tensor_scatter_update.batch = _batch_tensor_scatter(tensor_scatter_update)
# only the index tuples are an operand (and so batched): the examples' winners are apart
scatter_winners.batch = lambda args, dims, x_shape: (scatter_winners(
    _with_example(args[0], dims[0], _batch_size(args, dims)),
    x_shape=(_batch_size(args, dims),) + tuple(x_shape)), 0)


# --- one_hot ------------------------------------------------------------------------------
def _one_hot_impl(indices, on_value, off_value, depth, axis):
    xp = xp_of(indices)
    hit = indices[..., None] == xp.arange(depth, dtype=indices.dtype)
    if axis != indices.ndim:
        hit = xp.moveaxis(hit, -1, axis)
    on = xp.asarray(on_value)
    return xp.where(hit, on, xp.asarray(off_value, dtype=on.dtype)).astype(on.dtype, copy=False)


# No gradient, as MindSpore's OneHot (its bprop returns zeros for on_value and off_value).
one_hot = Primitive("OneHot", _one_hot_impl, nondiff=True)


def _batch_one_hot(args, dims, depth, axis):
    (idx, on, off), (idd, ond, offd) = args, dims
    if ond is not None or offd is not None:  # per-example on/off values: rare, one each
        return per_example(one_hot, list(args), list(dims), {"depth": depth, "axis": axis},
                     _batch_size(args, dims))
    return one_hot(S.to_front(idx, idd), on, off, depth=depth, axis=axis + 1), 0


one_hot.batch = _batch_one_hot


# --- check_range --------------------------------------------------------------------------
_UNSIGNED = {n: np.dtype(f"u{n}") for n in (1, 2, 4, 8)}


def _check_range_impl(idx, *, lo, hi, ignore, who, arg, what, error):
    """``idx`` itself, once every value is in ``[lo, hi)`` or equals ``ignore``."""
    if not idx.size:
        return idx
    if lo == 0 and idx.dtype.kind == "i":
        # one pass instead of two: seen unsigned, a negative value is larger than any bound
        ok = idx.view(_UNSIGNED[idx.itemsize]).max() < hi
    else:
        ok = idx.min() >= lo and idx.max() < hi
    if not ok:
        bad = (idx < lo) | (idx >= hi)
        if ignore is not None:
            bad &= idx != ignore
        if bad.any():
            also = "" if ignore is None else f" or equal to ignore_index {ignore}"
            raise error(f"For '{who}', {arg} must be in [{lo}, {hi}){what}{also}, but got "
                        f"{int(idx[bad][0])}.")
    return idx


# A primitive, so that a compiled GRAPH-mode function repeats the check on every call and
# vmap checks every element of a batch; the values carry no gradient.
check_range = Primitive("CheckRange", _check_range_impl, nondiff=True)
check_range.batch = lambda args, dims, **params: (check_range(args[0], **params), dims[0])


def checked_indices(idx: Any, hi: int, who: str, arg: str, *, lo: int = 0, ignore: Any = None,
                    what: str = "", error: type = ValueError) -> Any:
    """``idx`` after checking its values against ``[lo, hi)`` (values equal to ``ignore``
    pass too); otherwise ``error`` names ``who``, ``arg``, the bounds and the first bad value.
    ``what`` explains the bound (" (3 classes)")."""
    params = {"lo": lo, "hi": hi, "ignore": ignore, "who": who, "arg": arg, "what": what,
              "error": error}
    if is_eager(idx):
        _check_range_impl(idx._data, **params)  # nothing to record
        return idx
    return check_range(idx, **params)


def is_eager(t: Any) -> bool:
    """Whether an operation on ``t`` alone runs at once (no transformation sees it)."""
    return getattr(t, "_trace", None) is None and graph_tracing() is None
