"""Shape, dtype and indexing primitives: cast, reshape, transpose, broadcast_to, getitem and
its transpose index_add, concat, zeros_like / ones_like / full (constants), stop_gradient.
Also ``unbroadcast``, the one helper reverse rules use to undo broadcasting."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.primitive import Primitive
from ._util import xp_of
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
transpose.vjp = (lambda g, ans, x, perm: transpose(g, perm=tuple(np.argsort(perm).tolist())),)
transpose.jvp = (lambda t, ans, x, perm: transpose(t, perm=perm),)


def _broadcast_impl(x, shape):
    try:
        return xp_of(x).broadcast_to(x, shape)
    except ValueError:
        raise ValueError(f"For 'BroadcastTo', input shape {list(np.shape(x))} can not be "
                         f"broadcast to {list(shape)}.") from None


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


# --- indexing -----------------------------------------------------------------------------
class ArraySlot:
    """Marks where a tensor index sits inside a static index template."""

    __slots__ = ("pos",)

    def __init__(self, pos: int) -> None:
        self.pos = pos

    def __repr__(self) -> str:
        return f"ArraySlot({self.pos})"


def build_index(template: Any, arrays: tuple) -> Any:
    if isinstance(template, tuple):
        return tuple(arrays[t.pos] if isinstance(t, ArraySlot) else t for t in template)
    return arrays[template.pos] if isinstance(template, ArraySlot) else template


def _has_int_array(template: Any, arrays: tuple) -> bool:
    return any(getattr(a, "dtype", None) is not None and a.dtype.kind in "iu" for a in arrays)


def _getitem_impl(x, *arrays, index):
    try:
        return x[build_index(index, arrays)]
    except IndexError as e:
        raise IndexError(f"For 'getitem', index {index!r} is out of range for a tensor of "
                         f"shape {list(x.shape)}: {e}") from None


def _index_add_impl(g, *arrays, index, shape):
    out = xp_of(g).zeros(shape, g.dtype)
    idx = build_index(index, arrays)
    if _has_int_array(index, arrays):
        xp_of(g).add.at(out, idx, g)  # integer arrays may repeat positions: accumulate
    else:
        out[idx] = g
    return out


getitem = Primitive("StridedSlice", _getitem_impl)
index_add = Primitive("IndexAdd", _index_add_impl)
getitem.vjp = (lambda g, ans, x, *arrays, index: index_add(g, *arrays, index=index,
                                                           shape=shape_of(x)),)
getitem.jvp = (lambda t, ans, x, *arrays, index: getitem(t, *arrays, index=index),)
index_add.vjp = (lambda g, ans, x, *arrays, index, shape: getitem(g, *arrays, index=index),)
index_add.jvp = (lambda t, ans, x, *arrays, index, shape: index_add(t, *arrays, index=index,
                                                                    shape=shape),)


# --- concat -------------------------------------------------------------------------------
def _concat_impl(*xs, axis):
    try:
        return xp_of(xs[0]).concatenate(xs, axis=axis)
    except ValueError:
        raise ValueError(f"For 'Concat', all inputs must have the same shape except along "
                         f"axis {axis}, but got shapes "
                         f"{[list(np.shape(x)) for x in xs]}.") from None


def _concat_vjp(g, ans, *xs, axis):
    out, start = [], 0
    for x in xs:
        n = shape_of(x)[axis]
        index = (slice(None),) * axis + (slice(start, start + n),)
        out.append(getitem(g, index=index))
        start += n
    return out


def _concat_jvp(primals, tangents, axis):
    ts = [zeros_like(p) if t is None else t for p, t in zip(primals, tangents)]
    return concat(*primals, axis=axis), concat(*ts, axis=axis)


concat = Primitive("Concat", _concat_impl)
concat.vjp_all = _concat_vjp
concat.jvp_all = _concat_jvp


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


def _front_index(index: Any) -> Any | None:
    """The index with a leading full slice for the batch axis, or None when NumPy would move
    the advanced-index dimensions to the front (separated advanced indices)."""
    parts = index if isinstance(index, tuple) else (index,)
    adv = [i for i, p in enumerate(parts) if isinstance(p, ArraySlot)]
    if adv and adv[-1] - adv[0] + 1 != len(adv):
        return None
    return (slice(None),) + parts


def _batch_getitem(args, dims, index):
    new = _front_index(index)
    if new is None or any(d is not None for d in dims[1:]):
        from ..ad.batching import _loop

        return _loop(getitem, list(args), list(dims), {"index": index}, shape_of(args[0])[dims[0]])
    return getitem(B.to_front(args[0], dims[0]), *args[1:], index=new), 0


def _batch_index_add(args, dims, index, shape):
    new = _front_index(index)
    size = shape_of(args[0])[dims[0]] if dims[0] is not None else None
    if new is None or dims[0] is None or any(d is not None for d in dims[1:]):
        from ..ad.batching import _loop

        n = next(shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
        return _loop(index_add, list(args), list(dims), {"index": index, "shape": shape}, n)
    g = B.to_front(args[0], dims[0])
    return index_add(g, *args[1:], index=new, shape=(size,) + tuple(shape)), 0


def _batch_concat(args, dims, axis):
    size = next(shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
    parts = [B.broadcast_batch(a, size) if d is None else B.to_front(a, d)
             for a, d in zip(args, dims)]
    return concat(*parts, axis=axis + 1), 0


reshape.batch = _batch_reshape
transpose.batch = _batch_transpose
broadcast_to.batch = _batch_broadcast
getitem.batch = _batch_getitem
index_add.batch = _batch_index_add
concat.batch = _batch_concat

from . import taylor_rules as T  # noqa: E402

for _p in (cast, reshape, transpose, broadcast_to, getitem, index_add):
    _p.taylor = T.linear(_p)
concat.taylor = T.concat_rule
