"""Batching (vmap) rules shared by the primitives, written with primitives. A primitive's
rule is assigned next to its definition (``prim.batch = ...``); this module holds the common
shapes of rule: elementwise, axis-parameterized, and the helpers they need."""
from __future__ import annotations

from typing import Any, Callable

from . import shape as S


def moveaxis(x: Any, src: int, dst: int) -> Any:
    n = len(S.shape_of(x))
    dst = dst % n
    if src == dst:
        return x
    perm = [i for i in range(n) if i != src]
    perm.insert(dst, src)
    return S.transpose(x, perm=tuple(perm))


def to_front(x: Any, bdim: int | None) -> Any:
    return x if bdim is None or bdim == 0 else moveaxis(x, bdim, 0)


def take(x: Any, i: int, bdim: int) -> Any:
    return S.getitem(x, index=(slice(None),) * bdim + (i,))


def stack0(xs: list) -> Any:
    parts = [S.reshape(x, shape=(1,) + S.shape_of(x)) for x in xs]
    return parts[0] if len(parts) == 1 else S.concat(*parts, axis=0)


def broadcast_batch(x: Any, size: int) -> Any:
    s = S.shape_of(x)
    return S.broadcast_to(S.reshape(x, shape=(1,) + s), shape=(size,) + s)


def _rank_up(x: Any, rank: int) -> Any:
    """Give a front-batched value ``rank`` non-batch dimensions (1s after the batch axis),
    so that NumPy's right-aligned broadcasting lines its axes up with the other operands."""
    s = S.shape_of(x)
    missing = rank - (len(s) - 1)
    return x if missing <= 0 else S.reshape(x, shape=s[:1] + (1,) * missing + s[1:])


def elementwise(prim: Any) -> Callable:
    """Rule for elementwise primitives (any arity, NumPy broadcasting)."""

    def rule(args, dims, **params):
        rank = max(len(S.shape_of(a)) - (d is not None) for a, d in zip(args, dims))
        moved = [a if d is None else _rank_up(to_front(a, d), rank) for a, d in zip(args, dims)]
        return prim(*moved, **params), 0

    return rule


def front(dims: list) -> int:
    return next(d for d in dims if d is not None)


def shift_axis(axis: Any, ndim_without_batch: int) -> Any:
    """A reduction/axis parameter seen with the batch axis in front."""
    if axis is None:
        return tuple(range(1, ndim_without_batch + 1))
    if isinstance(axis, tuple):
        return tuple(a + 1 for a in axis)
    return axis + 1


def defelementwise(*prims: Any) -> None:
    for p in prims:
        p.batch = elementwise(p)
