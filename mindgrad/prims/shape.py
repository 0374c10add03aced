"""Shape, dtype and indexing primitives: cast, reshape, transpose, broadcast_to, getitem and
its transpose index_add, concat, zeros_like / ones_like / full (constants), stop_gradient.
Also ``unbroadcast``, the one helper reverse rules use to undo broadcasting."""
from __future__ import annotations

import math
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
        raise IndexError(f"For 'getitem', index {_show_index(index, arrays)} is out of range "
                         f"for a tensor of shape {list(x.shape)}: {e}") from None
    except ValueError as e:  # a slice step of zero
        raise ValueError(f"For 'getitem', index {_show_index(index, arrays)} is not valid "
                         f"for a tensor of shape {list(x.shape)}: {e}") from None


def _show_index(template: Any, arrays: tuple) -> str:
    """The index of an error message, with each index tensor shown by its dtype and shape
    instead of its slot in the template."""
    parts = template if isinstance(template, tuple) else (template,)
    shown = [f"<{arrays[p.pos].dtype} tensor of shape {list(arrays[p.pos].shape)}>"
             if isinstance(p, ArraySlot) else repr(p) for p in parts]
    return shown[0] if not isinstance(template, tuple) else f"({', '.join(shown)})"


_FULL = slice(None)


def _take_axis(index: Any, arrays: tuple, ndim: int) -> tuple | None:
    """``(axis, indices)`` when the index is one integer array with only full slices and at
    most one ``...`` around it (a ``take`` along one axis: gather, index_select,
    ``x[:, idx]``, ``x[..., idx]``)."""
    parts = index if isinstance(index, tuple) else (index,)
    slots = [i for i, p in enumerate(parts) if isinstance(p, ArraySlot)]
    if len(slots) != 1:
        return None
    pos = slots[0]
    arr = arrays[parts[pos].pos]
    if getattr(arr, "dtype", None) is None or arr.dtype.kind not in "iu":
        return None
    rest = parts[:pos] + parts[pos + 1:]
    if any(p != _FULL and p is not Ellipsis for p in rest) or \
            sum(p is Ellipsis for p in rest) > 1:
        return None
    if any(p is Ellipsis for p in parts[:pos]):
        return ndim - (len(parts) - pos), arr
    return pos, arr


def _take_transpose(g, axis: int, idx, shape: tuple):
    """The transpose of ``take(x, idx, axis)`` (NumPy arrays): the slices of ``g`` summed
    into the positions they were taken from. Sorting the indices and summing each run of
    equal ones with ``add.reduceat`` is about twice as fast as ``add.at``; when the slices
    are tiny (a few elements) the per-run cost of reduceat loses, so ``add.at`` is kept."""
    n = shape[axis]
    pre = math.prod(shape[:axis])
    post = math.prod(shape[axis + 1:])
    flat = idx.reshape(-1)
    if flat.size and flat.min() < 0:
        flat = np.where(flat < 0, flat + n, flat)
    out = np.zeros((pre, n, post), g.dtype)
    g3 = g.reshape(pre, flat.size, post)
    if pre * post == 1:  # single elements: add.at's fast path takes 1-D operands only
        np.add.at(out.reshape(n), flat, g3.reshape(flat.size))
        return out.reshape(shape)
    if pre * post < 8 or g.dtype.kind not in "fc":
        np.add.at(out, (_FULL, flat), g3)
        return out.reshape(shape)
    order = np.argsort(flat, kind="stable")
    s = flat[order]
    new_run = np.empty(s.size, bool)
    new_run[:1] = True
    np.not_equal(s[1:], s[:-1], out=new_run[1:])
    starts = np.flatnonzero(new_run)
    if starts.size == s.size:  # no repeated index: a plain assignment
        out[:, flat] = g3
    else:
        out[:, s[starts]] = np.add.reduceat(g3[:, order], starts, axis=1)
    return out.reshape(shape)


def _index_add_impl(g, *arrays, index, shape):
    xp = xp_of(g)
    if _has_int_array(index, arrays):
        if xp is np:
            take = _take_axis(index, arrays, len(shape))
            if take is not None:
                return _take_transpose(g, take[0], take[1], tuple(shape))
        out = xp.zeros(shape, g.dtype)
        xp.add.at(out, build_index(index, arrays), g)  # repeated positions accumulate
        return out
    out = xp.zeros(shape, g.dtype)
    out[build_index(index, arrays)] = g
    return out


getitem = Primitive("StridedSlice", _getitem_impl)
index_add = Primitive("IndexAdd", _index_add_impl)
def _inverse_view(index: Any, shape: tuple) -> Any:
    """When ``x[index]`` keeps every element of ``x`` exactly once (only ``None``,
    ``...``, full slices with step 1 or -1, and ints on axes of size 1), the index that
    takes ``x[index]`` back to ``x``; otherwise None. Such a getitem is a view (a flip,
    an added or removed axis), and so is its transpose: no zero-filled buffer is needed."""
    parts = index if isinstance(index, tuple) else (index,)
    consumed = sum(1 for p in parts if p is not None and p is not Ellipsis)
    if consumed > len(shape) or sum(p is Ellipsis for p in parts) > 1:
        return None
    inverse, axis = [], 0
    for p in parts:
        if p is None:
            inverse.append(0)
        elif p is Ellipsis:
            inverse.append(p)
            axis += len(shape) - consumed
        elif isinstance(p, slice):
            d = shape[axis]
            start, stop, step = p.indices(d)
            if not ((step == 1 and start == 0 and stop == d)
                    or (step == -1 and start == d - 1 and stop == -1)):
                return None
            inverse.append(_FULL if step == 1 else slice(None, None, -1))
            axis += 1
        elif type(p) is int and shape[axis] == 1:
            inverse.append(None)
            axis += 1
        else:
            return None
    return tuple(inverse)


def _getitem_vjp(g, ans, x, *arrays, index):
    if not arrays:
        inverse = _inverse_view(index, shape_of(x))
        if inverse is not None:
            return getitem(g, index=inverse)
    return index_add(g, *arrays, index=index, shape=shape_of(x))


getitem.vjp = (_getitem_vjp,)
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
getitem.batch = _batch_getitem
index_add.batch = _batch_index_add
concat.batch = _batch_concat

from . import taylor_rules as T  # noqa: E402

for _p in (cast, reshape, transpose, broadcast_to, getitem, index_add):
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
