"""Sorting and searching primitives, without gradients: ``ArgSort`` (stable positions
that sort an axis), ``RunningArgExtreme`` (where the running maximum or minimum sits) and
``SearchSorted`` (insertion points). The front end (``ops.sort``, ``topk``, ``cummax``,
``searchsorted``, ...) gathers values with differentiable indexing at these positions."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.primitive import Primitive
from ._util import xp_of
from . import structural as S


def _argsort_impl(x: Any, axis: int, descending: bool) -> Any:
    """Stable positions that sort ``x`` along ``axis`` (equal values keep their order, in
    both directions, as MindSpore's sort does)."""
    xp = xp_of(x)
    if descending:
        key = x.astype(np.int64) if x.dtype.kind in "ub" else x
        # negating keeps equal values in order; NaN (largest to MindSpore) sorts first
        key = xp.where(xp.isnan(key), -xp.inf, -key) if key.dtype.kind == "f" else -key
        return xp.argsort(key, axis=axis, kind="stable")
    return xp.argsort(x, axis=axis, kind="stable")


argsort_p = Primitive("ArgSort", _argsort_impl, nondiff=True)
argsort_p.batch = lambda args, dims, axis, descending: (
    argsort_p(S.to_front(args[0], dims[0]), axis=axis + 1, descending=descending), 0)


def _running_arg_impl(x: Any, axis: int, biggest: bool) -> Any:
    """For each position along ``axis``, where the running maximum (minimum) so far sits:
    the last position of an equal extreme, as MindSpore's cummax / cummin give it."""
    xp = xp_of(x)
    moved = xp.moveaxis(x, axis, -1)
    n = moved.shape[-1]
    out = xp.zeros(moved.shape, np.int64)
    if n:
        best = moved[..., 0].copy()
        idx = xp.zeros(moved.shape[:-1], np.int64)
        for i in range(n):
            v = moved[..., i]
            take = (v >= best) if biggest else (v <= best)
            take = take | xp.isnan(v) if v.dtype.kind == "f" else take
            best = xp.where(take, v, best)
            idx = xp.where(take, i, idx)
            out[..., i] = idx
    return xp.moveaxis(out, -1, axis)


running_arg = Primitive("RunningArgExtreme", _running_arg_impl, nondiff=True)
running_arg.batch = lambda args, dims, axis, biggest: (
    running_arg(S.to_front(args[0], dims[0]), axis=axis + 1, biggest=biggest), 0)


def _searchsorted_impl(seq: Any, v: Any, right: bool, dtype: Any) -> Any:
    xp = xp_of(seq)
    side = "right" if right else "left"
    if seq.ndim == 1:
        return xp.searchsorted(seq, v, side=side).astype(dtype)
    flat_s = seq.reshape(-1, seq.shape[-1])
    flat_v = v.reshape(flat_s.shape[0], -1)
    out = xp.stack([xp.searchsorted(s, r, side=side) for s, r in zip(flat_s, flat_v)])
    return out.reshape(v.shape).astype(dtype)


searchsorted_p = Primitive("SearchSorted", _searchsorted_impl, nondiff=True)


def _searchsorted_batch(args, dims, right, dtype):
    seq, v = args
    size = next(S.shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
    seq = S.broadcast_batch(seq, size) if dims[0] is None else S.to_front(seq, dims[0])
    v = S.broadcast_batch(v, size) if dims[1] is None else S.to_front(v, dims[1])
    if len(S.shape_of(seq)) == 2 and len(S.shape_of(v)) > 2:
        vs = S.shape_of(v)
        v2 = S.reshape(v, shape=(vs[0], -1))
        return S.reshape(searchsorted_p(seq, v2, right=right, dtype=dtype), shape=vs), 0
    return searchsorted_p(seq, v, right=right, dtype=dtype), 0


searchsorted_p.batch = _searchsorted_batch

