"""Shape and dtype primitives: cast, reshape, transpose, broadcast_to, concat, split,
stack / unstack, zeros_like / ones_like / full (constants), stop_gradient. Also
``unbroadcast``, the one helper reverse rules use to undo broadcasting. The indexing
primitives (getitem, index_add, setitem) are in getitem.py and re-exported here."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.primitive import Primitive
from ._util import filled_view, xp_of
from . import reduce as R


def dtype_of(x: Any) -> np.dtype:
    """The NumPy dtype of a tensor, tracer, array or Python scalar."""
    data = getattr(x, "_data", x)
    dt = getattr(data, "dtype", None)
    return dt if dt is not None else np.result_type(x)


def shape_of(x: Any) -> tuple:
    return tuple(getattr(x, "shape", ()))


# --- cast ---------------------------------------------------------------------------------
def _cast_impl(x, dtype):
    return x.astype(dtype) if x.dtype != dtype else x


cast = Primitive("Cast", _cast_impl)
cast.vjp = (lambda g, ans, x, dtype: cast(g, dtype=dtype_of(x)),)
cast.jvp = (lambda t, ans, x, dtype: cast(t, dtype=dtype),)


# --- reshape / transpose / broadcast --------------------------------------------------------
reshape = Primitive("Reshape", lambda x, shape: x.reshape(shape))
reshape.vjp = (lambda g, ans, x, shape: reshape(g, shape=shape_of(x)),)
reshape.jvp = (lambda t, ans, x, shape: reshape(t, shape=shape),)

transpose = Primitive("Transpose", lambda x, perm: x.transpose(perm))
def _inverse_perm(perm: tuple) -> tuple:
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


transpose.vjp = (lambda g, ans, x, perm: transpose(g, perm=_inverse_perm(perm)),)
transpose.jvp = (lambda t, ans, x, perm: transpose(t, perm=perm),)


def _broadcast_impl(x, shape):
    """np.broadcast_to, with a direct path for the NumPy arrays that reverse rules broadcast:
    NumPy scalars and 0-d arrays, arrays that hold one value everywhere (the cotangent of a
    sum) and C-contiguous ones (a reduction's cotangent). np.broadcast_to's Python-level
    checks cost more than the rest of an eager sum's reverse rule; the direct path builds
    the same read-only view, stride 0 along the broadcast axes."""
    shape = tuple(shape)
    try:
        if isinstance(x, np.generic) or (type(x) is np.ndarray and not x.ndim):
            return filled_view(x, shape)
        if type(x) is np.ndarray and x.size and len(shape) >= x.ndim:
            strides = _broadcast_strides(x, shape)
            if strides is not None:  # (not broadcastable: np.broadcast_to raises below)
                if not any(x.strides):  # one value everywhere: a view of its single cell
                    return filled_view(x[(0,) * x.ndim], shape)
                if x.flags.c_contiguous:
                    out = np.ndarray(shape, x.dtype, buffer=x, strides=strides)
                    out.flags.writeable = False
                    return out
    except ValueError:
        pass  # a negative size: np.broadcast_to raises the error below
    try:
        return xp_of(x).broadcast_to(x, shape)
    except ValueError:
        raise ValueError(f"For 'BroadcastTo', input shape {list(np.shape(x))} can not be "
                         f"broadcast to {list(shape)}.") from None


def _broadcast_strides(x, shape: tuple) -> tuple | None:
    """The strides of ``x`` broadcast to ``shape`` (0 along new and stretched axes), or None
    when the shapes do not broadcast."""
    strides = [0] * (len(shape) - x.ndim)
    for d, st, s in zip(x.shape, x.strides, shape[len(strides):]):
        if d == s:
            strides.append(st)
        elif d == 1:
            strides.append(0)
        else:
            return None
    return tuple(strides)


broadcast_to = Primitive("BroadcastTo", _broadcast_impl)
broadcast_to.vjp = (lambda g, ans, x, shape: unbroadcast(g, x),)
broadcast_to.jvp = (lambda t, ans, x, shape: broadcast_to(t, shape=shape),)


def unbroadcast(g: Any, x: Any) -> Any:
    """Sum ``g`` over the dimensions along which ``x`` was broadcast, giving x's shape and
    dtype. The one place reverse rules undo broadcasting."""
    gd, xd = g._data, x._data
    if gd.shape == xd.shape and gd.dtype == xd.dtype:
        return g
    xs, gs = tuple(xd.shape), tuple(gd.shape)
    if gs != xs:
        lead = len(gs) - len(xs)
        axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(xs)
                                          if d == 1 and gs[i + lead] != 1)
        if axes:
            g = R.reduce_sum(g, axis=axes, keepdims=False)
        if shape_of(g) != xs:
            g = reshape(g, shape=xs)
    if gd.dtype != xd.dtype and xd.dtype.kind == "f":
        g = cast(g, dtype=xd.dtype)
    return g


def broadcast_like(t: Any, ans: Any) -> Any:
    """Broadcast a tangent to the output's shape (forward rules of broadcasting ops)."""
    s = shape_of(ans)
    return t if shape_of(t) == s else broadcast_to(t, shape=s)


# --- constants ----------------------------------------------------------------------------
zeros_like = Primitive("ZerosLike", lambda x: xp_of(x).zeros_like(x), nondiff=True)
ones_like = Primitive("OnesLike", lambda x: xp_of(x).ones_like(x), nondiff=True)


def _full_impl(shape, value, dtype):
    from ..context import array_module

    return array_module().full(shape, value, dtype)


full = Primitive("Fill", _full_impl, nondiff=True)
stop_gradient = Primitive("StopGradient", lambda x: x, nondiff=True)


# --- concat -------------------------------------------------------------------------------
def _concat_impl(*xs, axis):
    try:
        return xp_of(xs[0]).concatenate(xs, axis=axis)
    except ValueError:
        raise ValueError(f"For 'Concat', all inputs must have the same shape except along "
                         f"axis {axis}, but got shapes "
                         f"{[list(np.shape(x)) for x in xs]}.") from None


def _concat_vjp(g, ans, *xs, axis):
    return list(split(g, axis=axis, sizes=tuple(shape_of(x)[axis] for x in xs)))


def _concat_jvp(primals, tangents, axis):
    ts = [zeros_like(p) if t is None else t for p, t in zip(primals, tangents)]
    return concat(*primals, axis=axis), concat(*ts, axis=axis)


concat = Primitive("Concat", _concat_impl)
concat.vjp_all = _concat_vjp
concat.jvp_all = _concat_jvp


# --- split (the transpose of concat) --------------------------------------------------------
def _split_impl(x, axis, sizes):
    """Consecutive pieces of ``sizes`` along ``axis``: views, no copies."""
    lead = (slice(None),) * axis
    out, start = [], 0
    for n in sizes:
        out.append(x[lead + (slice(start, start + n),)])
        start += n
    return tuple(out)


def _split_vjp(gs, ans, x, axis, sizes):
    # Pieces that received no cotangent arrive as zeros (filled by the reverse trace).
    return [gs[0] if len(gs) == 1 else concat(*gs, axis=axis)]


def _split_jvp(primals, tangents, axis, sizes):
    return split(primals[0], axis=axis, sizes=sizes), split(tangents[0], axis=axis, sizes=sizes)


split = Primitive("Split", _split_impl, multiple_results=True)
split.vjp_all = _split_vjp
split.jvp_all = _split_jvp


# --- stack / unstack (each the transpose of the other) --------------------------------------
def _stack_impl(*xs, axis):
    try:
        return xp_of(xs[0]).stack(xs, axis=axis)
    except ValueError:
        raise ValueError(f"For 'Stack', all inputs must have the same shape, but got shapes "
                         f"{[list(np.shape(x)) for x in xs]}.") from None


def _stack_jvp(primals, tangents, axis):
    ts = [zeros_like(p) if t is None else t for p, t in zip(primals, tangents)]
    return stack(*primals, axis=axis), stack(*ts, axis=axis)


def _unstack_impl(x, axis):
    """The slices of ``x`` along ``axis`` (views)."""
    lead = (slice(None),) * axis
    return tuple(x[lead + (i,)] for i in range(x.shape[axis]))


stack = Primitive("Stack", _stack_impl)
stack.vjp_all = lambda g, ans, *xs, axis: list(unstack(g, axis=axis))
stack.jvp_all = _stack_jvp

unstack = Primitive("Unstack", _unstack_impl, multiple_results=True)
# Slices that received no cotangent arrive as zeros (filled by the reverse trace).
unstack.vjp_all = lambda gs, ans, x, axis: [stack(*gs, axis=axis)]
unstack.jvp_all = lambda primals, tangents, axis: (unstack(primals[0], axis=axis),
                                                   unstack(tangents[0], axis=axis))


# --- batching -------------------------------------------------------------------------------
from . import batch_rules as B  # noqa: E402

B.defelementwise(cast, zeros_like, ones_like, stop_gradient)


def _batch_reshape(args, dims, shape):
    x = B.to_front(args[0], dims[0])
    return reshape(x, shape=shape_of(x)[:1] + tuple(shape)), 0


def _batch_transpose(args, dims, perm):
    x = B.to_front(args[0], dims[0])
    return transpose(x, perm=(0,) + tuple(p + 1 for p in perm)), 0


def _batch_broadcast(args, dims, shape):
    x = B.to_front(args[0], dims[0])
    x = B._rank_up(x, len(shape))
    return broadcast_to(x, shape=shape_of(x)[:1] + tuple(shape)), 0


def _batch_concat(args, dims, axis):
    size = next(shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
    parts = [B.broadcast_batch(a, size) if d is None else B.to_front(a, d)
             for a, d in zip(args, dims)]
    return concat(*parts, axis=axis + 1), 0


def _batch_split(args, dims, axis, sizes):
    return split(B.to_front(args[0], dims[0]), axis=axis + 1, sizes=sizes), 0


def _batch_stack(args, dims, axis):
    size = next(shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
    parts = [B.broadcast_batch(a, size) if d is None else B.to_front(a, d)
             for a, d in zip(args, dims)]
    return stack(*parts, axis=axis + 1), 0


def _batch_unstack(args, dims, axis):
    return unstack(B.to_front(args[0], dims[0]), axis=axis + 1), 0


reshape.batch = _batch_reshape
split.batch = _batch_split
stack.batch = _batch_stack
unstack.batch = _batch_unstack
transpose.batch = _batch_transpose
broadcast_to.batch = _batch_broadcast
concat.batch = _batch_concat

from . import taylor_rules as T  # noqa: E402

for _p in (cast, reshape, transpose, broadcast_to):
    _p.taylor = T.linear(_p)
concat.taylor = T.concat_rule




def _split_taylor(primals, series, axis, sizes):
    """Linear: split every coefficient; output j's series is the j-th pieces."""
    out = split(primals[0], axis=axis, sizes=sizes)
    pieces = [None if c is None else split(c, axis=axis, sizes=sizes) for c in series[0]]
    return out, [[None if p is None else p[j] for p in pieces] for j in range(len(sizes))]


split.taylor = _split_taylor


def _stack_taylor(primals, series, axis):
    """Linear in all of its inputs: stack each coefficient."""
    out = stack(*primals, axis=axis)
    coeffs = []
    for k in range(max(len(s) for s in series if s is not None)):
        parts = [None if s is None else s[k] for s in series]
        if all(q is None for q in parts):
            coeffs.append(None)
            continue
        coeffs.append(stack(*[zeros_like(p) if q is None else q for q, p in zip(parts, primals)],
                            axis=axis))
    return out, coeffs


def _unstack_taylor(primals, series, axis):
    out = unstack(primals[0], axis=axis)
    pieces = [None if c is None else unstack(c, axis=axis) for c in series[0]]
    return out, [[None if p is None else p[j] for p in pieces] for j in range(len(out))]


stack.taylor = _stack_taylor
unstack.taylor = _unstack_taylor

# the indexing primitives, where the rest of the package has always found them
from .getitem import (ArraySlot, build_index, getitem, index_add, setitem,  # noqa: E402,F401
                      setitem_winners, target_rank)
