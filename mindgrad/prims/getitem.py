"""Indexing primitives: getitem (``x[index]``), its transpose index_add, and setitem
(``x[index] = value`` as a new value), with their batching (vmap) and Taylor rules.

An index is a static template (ints, slices, None, Ellipsis, Python bools) in which
``ArraySlot(k)`` marks where the k-th index tensor (an integer array or a boolean mask) sits;
the tensors themselves are the primitive's arguments after ``x``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.tensor import Tensor
from ..core.primitive import Primitive
from ._util import last_writes, scatter_sums, xp_of
from .structural import dtype_of, reshape, shape_of, unbroadcast, zeros_like
from . import structural as S
from . import compare as C
from ..ad.batching import per_example


# --- getitem and index_add ------------------------------------------------------------------
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


def _index_width(p: Any, arrays: tuple) -> int:
    """How many axes of the indexed array one index entry consumes."""
    if p is None or p is Ellipsis or isinstance(p, bool):
        return 0
    if isinstance(p, ArraySlot) and arrays[p.pos].dtype.kind == "b":
        return arrays[p.pos].ndim
    return 1


def check_array_bounds(index: Any, arrays: tuple, shape: tuple) -> None:
    """Raise NumPy's IndexError for an integer index array with a value outside its axis.
    CuPy wraps such values around instead of raising (a silently wrong result), so the GPU
    paths check first; NumPy checks by itself."""
    parts = index if isinstance(index, tuple) else (index,)
    axis = 0
    for p in parts:
        if p is Ellipsis:
            axis += len(shape) - sum(_index_width(q, arrays) for q in parts)
            continue
        if isinstance(p, ArraySlot) and arrays[p.pos].dtype.kind in "iu" \
                and axis < len(shape) and arrays[p.pos].size:
            a, n = arrays[p.pos], shape[axis]
            bad = (a < -n) | (a >= n)
            if bool(bad.any()):
                raise IndexError(f"index {int(a[bad].reshape(-1)[0])} is out of bounds for "
                                 f"axis {axis} with size {n}")
        axis += _index_width(p, arrays)


def _getitem_impl(x, *arrays, index):
    try:
        if arrays and xp_of(x) is not np:
            check_array_bounds(index, arrays, x.shape)
        return x[build_index(index, arrays)]
    except IndexError as e:
        raise IndexError(f"For 'getitem', index {describe_index(index, arrays)} is out of range "
                         f"for a tensor of shape {list(x.shape)}: {e}") from None
    except ValueError:  # a slice step of zero (in the words of neither NumPy nor CuPy)
        raise ValueError(f"For 'getitem', index {describe_index(index, arrays)} is not valid "
                         f"for a tensor of shape {list(x.shape)}: slice step cannot be "
                         f"zero") from None


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
    """The transpose of ``take(x, idx, axis)`` (NumPy or CuPy arrays): the slices of ``g`` summed
    into the positions they were taken from, with the scatters' precision (half and single
    precision summed in float64, rounded once)."""
    n = shape[axis]
    flat = idx.reshape(-1)
    if flat.size and flat.min() < 0:
        flat = np.where(flat < 0, flat + n, flat)
    g3 = g.reshape(math.prod(shape[:axis]), flat.size, math.prod(shape[axis + 1:]))
    return scatter_sums(flat, g3, n).astype(g.dtype, copy=False).reshape(shape)


def _index_add_impl(g, *arrays, index, shape):
    xp = xp_of(g)
    if _has_int_array(index, arrays):
        if xp is not np:
            check_array_bounds(index, arrays, tuple(shape))
        take = _take_axis(index, arrays, len(shape))
        if take is not None:
            return _take_transpose(g, take[0], take[1], tuple(shape))
        out = xp.zeros(shape, g.dtype)
        xp.add.at(out, build_index(index, arrays), g)  # repeated positions accumulate
        return out
    out = xp.zeros(shape, g.dtype)
    out[build_index(index, arrays)] = g
    return out


getitem = Primitive("StridedSlice", _getitem_impl, hints={
    # a boolean mask decides the result's shape by its values
    "value_shape": lambda vals: [i for i, v in enumerate(vals)
                                 if i and getattr(v, "dtype", None) == np.bool_]})
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



# --- setitem ------------------------------------------------------------------------------
def target_rank(ndim: int, index: Any, arrays: tuple, adims: tuple | None = None) -> int:
    """The rank of ``x[index]`` for an ``x`` of rank ``ndim`` (NumPy's rules, known from
    shapes and dtypes alone: a mask or a Python bool adds one axis whatever it holds).
    ``adims``: the batch axes of the index tensors inside vmap (not counted)."""
    parts = index if isinstance(index, tuple) else (index,)
    adims = adims or (None,) * len(arrays)
    adv = [1 if dtype_of(a) == np.bool_ else _example_ndim(a, d) for a, d in zip(arrays, adims)]
    adv += [1 for p in parts if isinstance(p, bool)]
    return ndim - _consumed(parts, arrays) + sum(p is None for p in parts) + max(adv, default=0)


def describe_index(index: Any, arrays: tuple) -> str:
    """An index as the user wrote it, with each index tensor shown by its shape and dtype."""
    def part(p: Any) -> str:
        if isinstance(p, ArraySlot):
            a = arrays[p.pos]
            return f"Tensor(shape={list(shape_of(a))}, dtype={dtype_of(a)})"
        if isinstance(p, slice):
            return ":".join("" if v is None else str(v) for v in (p.start, p.stop)) + \
                ("" if p.step is None else f":{p.step}")
        return "..." if p is Ellipsis else repr(p)
    parts = index if isinstance(index, tuple) else (index,)
    return "[" + ", ".join(part(p) for p in parts) + "]"


def _setitem_impl(x, value, *arrays, index):
    out = x.copy()  # a fresh array: the input (perhaps shared, or a read-only view) is kept
    try:
        xp = xp_of(x)
        if xp is not np and _has_int_array(index, arrays):
            check_array_bounds(index, arrays, x.shape)
            # the GPU writes repeated positions in no set order: keep the last write, as
            # NumPy (and the gradient rules) do
            pos = xp.arange(x.size).reshape(x.shape)[build_index(index, arrays)]
            vals = xp.broadcast_to(xp.asarray(value, dtype=x.dtype), pos.shape).reshape(-1)
            keep = last_writes(pos)
            out.reshape(-1)[pos.reshape(-1)[keep]] = vals[keep]
            return out
        out[build_index(index, arrays)] = value
    except IndexError as e:
        raise IndexError(f"For 'setitem', index {describe_index(index, arrays)} is out of "
                         f"range for a tensor of shape {list(x.shape)}: {e}") from None
    except ValueError:
        target = list(x[build_index(index, arrays)].shape)
        raise ValueError(f"For 'setitem', the value of shape {list(shape_of(value))} cannot "
                         f"be broadcast to the shape {target} that index "
                         f"{describe_index(index, arrays)} selects in a tensor of shape "
                         f"{list(x.shape)}.") from None
    return out


def _setitem_winners_impl(*arrays, index, shape):
    """True for the elements of ``x[index]`` whose assignment a ``x[index] = value`` keeps:
    with repeated integer indices only the last write to a position stays (found by
    assigning the element numbers the same way)."""
    xp = xp_of(arrays[0])
    idx = build_index(index, arrays)
    if xp is not np:  # the GPU assigns repeats in no set order: find the last writes
        pos = xp.arange(math.prod(shape)).reshape(tuple(shape))[idx]
        won = xp.zeros(pos.size, dtype=bool)
        won[last_writes(pos)] = True
        return won.reshape(pos.shape)
    owner = xp.full(tuple(shape), -1, dtype=np.int64)
    target = owner[idx].shape
    order = xp.arange(math.prod(target), dtype=np.int64).reshape(target)
    owner[idx] = order
    return owner[idx] == order


setitem = Primitive("SetItem", _setitem_impl)
setitem_winners = Primitive("SetItemWinners", _setitem_winners_impl, nondiff=True)


def _setitem_value_vjp(g, ans, x, value, *arrays, index):
    """The cotangent of the assigned value: g at the positions it was written to (only the
    kept writes when integer indices repeat), summed over the axes it was broadcast along."""
    picked = getitem(g, *arrays, index=index)
    if any(dtype_of(a).kind in "iu" for a in arrays):

        won = setitem_winners(*arrays, index=index, shape=shape_of(x))
        picked = C.select(won, picked, zeros_like(picked))
    return unbroadcast(picked, value)


def _assigned(x, cx, cv, arrays, index):
    """setitem is linear in (x, value) together: a tangent or Taylor coefficient of the
    result is the same assignment of the coefficients (None where both are zero)."""
    if cx is None and cv is None:
        return None
    return setitem(zeros_like(x) if cx is None else cx, 0 if cv is None else cv, *arrays,
                   index=index)


def _setitem_jvp(primals, tangents, index):
    x, value, *arrays = primals
    out = setitem(x, value, *arrays, index=index)
    return out, _assigned(x, tangents[0], tangents[1], arrays, index)


setitem.vjp = (lambda g, ans, x, value, *arrays, index: setitem(g, 0, *arrays, index=index),
               _setitem_value_vjp)
setitem.jvp_all = _setitem_jvp


# --- batching -------------------------------------------------------------------------------


def _advanced(parts: tuple) -> list:
    """Positions of the index parts NumPy treats as advanced: the arrays and, once there is
    one, the ints and Python bools too (so ``x[0, :, idx]`` has separated advanced parts)."""
    if not any(isinstance(p, ArraySlot) for p in parts):
        return []
    return [i for i, p in enumerate(parts) if isinstance(p, (ArraySlot, int))]


def _consumed(parts: tuple, arrays: tuple) -> int:
    """The axes of one example that the index parts use up (a mask: as many as it has)."""
    n = 0
    for p in parts:
        if isinstance(p, ArraySlot):
            a = arrays[p.pos]
            n += len(shape_of(a)) if dtype_of(a) == np.bool_ else 1
        elif isinstance(p, slice) or (isinstance(p, int) and not isinstance(p, bool)):
            n += 1
    return n


def _example_ndim(a: Any, d: int | None) -> int:
    return len(shape_of(a)) - (d is not None)


def _batch_index(index: Any, arrays: tuple, adims: tuple, ndim: int, size: int,
                 x_batched: bool) -> tuple:
    """How to index a whole batch at once. ``arrays`` are the index tensors of ``index``
    with their batch axes ``adims`` (None: shared by all examples; boolean ones are never
    batched here), ``ndim`` the rank of one example of the indexed value.

    Returns ``(index, arrays, x_axis, out_axis)``: the indexed value with its batch axis at
    ``x_axis`` (None: not batched), indexed by the new index and arrays, gives the batch of
    results with its batch axis at ``out_axis``."""
    parts = index if isinstance(index, tuple) else (index,)
    adv = _advanced(parts)
    adjacent = not adv or adv[-1] - adv[0] + 1 == len(adv)
    # the rank of the broadcast advanced indices of one example (a mask stands for 1-D ones)
    rank = max([1 if dtype_of(a) == np.bool_ else _example_ndim(a, d)
                for a, d in zip(arrays, adims)], default=0)
    if all(d is None for d in adims):
        # Only the value is batched: a full slice for its batch axis, which stays in front
        # unless NumPy moves separated advanced indices there.
        return (slice(None),) + parts, arrays, 0, 0 if adjacent else rank
    # Batched indices line up, batch axis first, with the shared ones (NumPy broadcasting);
    # the broadcast shape, batch axis first, lands where one example's advanced shape does:
    # in place of adjacent advanced parts, else in front.
    where = adv[0] if adjacent else 0
    spread = ndim - _consumed(parts, arrays)  # the axes an Ellipsis stands for
    lead = parts[:where]  # basic parts: slices, None, Ellipsis
    arrays = tuple(a if d is None else S.rank_up(S.to_front(a, d), rank)
                   for a, d in zip(arrays, adims))
    x_axis = sum(spread if p is Ellipsis else p is not None for p in lead)
    out_axis = sum(spread if p is Ellipsis else 1 for p in lead)
    if not x_batched:
        return index, arrays, None, out_axis
    # A batched value pairs example b with index b: an index arange(size) on its batch axis,
    # placed among the advanced parts so that they stay where they were.
    batch = Tensor(np.arange(size).reshape((size,) + (1,) * rank))
    new = parts[:where] + (ArraySlot(len(arrays)),) + parts[where:]
    return new, arrays + (batch,), x_axis, out_axis


def _batched_masks(arrays: tuple, adims: tuple) -> bool:
    return any(d is not None and dtype_of(a) == np.bool_ for a, d in zip(arrays, adims))


_MASK_HINT = ("a boolean-mask index inside vmap selects as many elements as each example "
              "has True values; keep the shape fixed with ops.select or ops.masked_fill instead")


def _batch_getitem(args, dims, index):
    x, arrays, xd, adims = args[0], tuple(args[1:]), dims[0], tuple(dims[1:])
    size = next(shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
    if _batched_masks(arrays, adims):  # per-example shapes that depend on the values

        return per_example(getitem, list(args), list(dims), {"index": index}, size, _MASK_HINT)
    new, arrays, x_axis, out_axis = _batch_index(index, arrays, adims,
                                                 _example_ndim(x, xd), size, xd is not None)
    if x_axis is not None:
        x = S.moveaxis(x, xd, x_axis)
    return getitem(x, *arrays, index=new), out_axis


def _batch_index_add(args, dims, index, shape):
    g, arrays, gd, adims = args[0], tuple(args[1:]), dims[0], tuple(dims[1:])
    size = next(shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
    if _batched_masks(arrays, adims):

        return per_example(index_add, list(args), list(dims), {"index": index, "shape": shape}, size)
    # the transpose of the batched getitem of a batched value of ``shape``
    new, arrays, x_axis, out_axis = _batch_index(index, arrays, adims, len(shape), size, True)
    g = S.broadcast_batch(g, size) if gd is None else g
    g = S.moveaxis(g, 0 if gd is None else gd, out_axis)
    out_shape = tuple(shape[:x_axis]) + (size,) + tuple(shape[x_axis:])
    return index_add(g, *arrays, index=new, shape=out_shape), x_axis


def _batch_setitem_winners(args, dims, index, shape):
    arrays, adims = tuple(args), tuple(dims)
    size = next(shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
    if _batched_masks(arrays, adims):
        return per_example(setitem_winners, list(args), list(dims),
                           {"index": index, "shape": shape}, size, _MASK_HINT)
    # the winners of the batched assignment into a batched x of ``shape``: each example's
    # writes land in its own slice, so repeats are told apart within an example only
    new, arrays, x_axis, out_axis = _batch_index(index, arrays, adims, len(shape), size, True)
    out_shape = tuple(shape[:x_axis]) + (size,) + tuple(shape[x_axis:])
    return setitem_winners(*arrays, index=new, shape=out_shape), out_axis


setitem_winners.batch = _batch_setitem_winners


def _batch_setitem(args, dims, index):
    x, value, arrays = args[0], args[1], tuple(args[2:])
    xd, vd, adims = dims[0], dims[1], tuple(dims[2:])
    size = next(shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
    if _batched_masks(arrays, adims):

        return per_example(setitem, list(args), list(dims), {"index": index}, size, _MASK_HINT)
    ndim = _example_ndim(x, xd)
    rank = target_rank(ndim, index, arrays, adims)  # of one example's x[index]
    # the batched x[index] has one example's target shape with the batch axis at out_axis
    new, arrays, x_axis, out_axis = _batch_index(index, arrays, adims, ndim, size, True)
    if xd is None:
        x, xd = S.broadcast_batch(x, size), 0
    x = S.moveaxis(x, xd, x_axis)
    if vd is None:
        if isinstance(value, Tensor):  # line its axes up with the target's, a 1 for the batch
            vs = shape_of(value)
            vs = (1,) * (rank - len(vs)) + vs
            value = reshape(value, shape=vs[:out_axis] + (1,) + vs[out_axis:])
    else:
        value = S.moveaxis(S.rank_up(S.to_front(value, vd), rank), 0, out_axis)
    return setitem(x, value, *arrays, index=new), x_axis


getitem.batch = _batch_getitem
index_add.batch = _batch_index_add
setitem.batch = _batch_setitem


getitem.taylor = S.linear(getitem)
index_add.taylor = S.linear(index_add)


def _setitem_taylor(primals, series, index):
    if any(s is not None for s in series[2:]):
        raise TypeError("Taylor mode for SetItem: the index tensors cannot vary.")
    x, value, *arrays = primals
    sx, sv = series[0], series[1]
    coeffs = [_assigned(x, None if sx is None else sx[k], None if sv is None else sv[k],
                        arrays, index) for k in range(len(sx if sx is not None else sv))]
    return setitem(x, value, *arrays, index=index), coeffs


setitem.taylor = _setitem_taylor
