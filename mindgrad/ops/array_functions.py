"""MindSpore's array and elementwise functions beyond the core's: creation (``full_like``),
triangles and diagonals (``tril``, ``triu``, ``diag``), slicing and masking (``narrow``,
``masked_select``, ``nonzero``, ``argwhere``), ``count_nonzero``, and the elementwise
``logaddexp``, ``lerp``, ``xlogy``, ``isposinf``, ``isneginf``; plus
``tensor_scatter_sub``; stacking and splitting (``hstack``, ``vstack``, ``atleast_2d``,
``tensor_split``, ``rot90``, ``repeat_interleave``, ...). Each is a composition of
differentiable operators (the index queries, whose size depends on the values, run
eagerly)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..prims import indexing as IX
from . import functional as F
from .functional import _composite


@_composite
def full_like(input: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:
    """A tensor of ``input``'s shape filled with ``fill_value``, of ``input``'s dtype unless
    ``dtype`` is given."""
    x = F._tensor(input, "full_like", "input")
    return F._fill(dtype if dtype is not None else x.dtype, x.shape, fill_value, "full_like")


def _triangle(input: Any, diagonal: Any, op: str, lower: bool) -> Tensor:
    x = F._tensor(input, op, "input")
    if x.ndim < 2:
        raise ValueError(f"For '{op}', 'input' must have rank >= 2, but got shape "
                         f"{list(x.shape)}.")
    if not F._is_int(diagonal):
        raise TypeError(f"For '{op}', 'diagonal' must be an int, but got "
                        f"{type(diagonal).__name__}.")
    n, m = x.shape[-2:]
    keep = np.tri(n, m, int(diagonal), dtype=bool) if lower else \
        ~np.tri(n, m, int(diagonal) - 1, dtype=bool)
    return F.select(F.broadcast_to(Tensor(keep), x.shape), x, F.zeros_like(x))


@_composite
def tril(input: Any, diagonal: int = 0) -> Tensor:
    """``input`` with the elements above the ``diagonal``-th diagonal set to 0."""
    return _triangle(input, diagonal, "tril", True)


@_composite
def triu(input: Any, diagonal: int = 0) -> Tensor:
    """``input`` with the elements below the ``diagonal``-th diagonal set to 0."""
    return _triangle(input, diagonal, "triu", False)


@_composite
def diag(input: Any) -> Tensor:
    """The square matrix with the 1-D ``input`` on its diagonal."""
    x = F._tensor(input, "diag", "input")
    if x.ndim != 1:
        raise ValueError(f"For 'diag', 'input' must be 1-D, but got shape {list(x.shape)}.")
    n = x.shape[0]
    on = Tensor(np.eye(n, dtype=bool))
    return F.select(on, F.broadcast_to(F.reshape(x, (1, n)), (n, n)),
                    F.zeros_like(F.broadcast_to(F.reshape(x, (1, n)), (n, n))))


@_composite
def narrow(input: Any, axis: int, start: int, length: int) -> Tensor:
    """The ``length`` elements of ``input`` from ``start`` along ``axis``."""
    x = F._tensor(input, "narrow", "input")
    if x.ndim == 0:
        raise ValueError("For 'narrow', 'input' must have rank >= 1, but got a 0-D Tensor.")
    a = F._axis(axis, x.ndim, "narrow")
    n = x.shape[a]
    for arg, v in (("start", start), ("length", length)):
        if not F._is_int(v):
            raise TypeError(f"For 'narrow', '{arg}' must be an int, but got {type(v).__name__}.")
    s = int(start) + n if start < 0 else int(start)
    if not 0 <= s <= n or length < 0 or s + length > n:
        raise ValueError(f"For 'narrow', 'start' {start} and 'length' {length} must select "
                         f"within axis {a} of size {n}.")
    return F.getitem(x, (slice(None),) * a + (slice(s, s + int(length)),))


def _eager(x: Tensor, op: str) -> None:
    if not IX.is_eager(x):
        raise ValueError(f"For '{op}', the result's size depends on the values, so it can "
                         f"not be traced (jit, vmap, grad through the mask).")


@_composite
def masked_select(input: Any, mask: Any) -> Tensor:
    """The 1-D tensor of the elements of ``input`` where ``mask`` (broadcast with it) is
    True; differentiable in ``input``."""
    x = F._tensor(input, "masked_select", "input")
    m = F._tensor(mask, "masked_select", "mask")
    if m._data.dtype.kind != "b":
        raise TypeError(f"For 'masked_select', 'mask' must be a bool Tensor, but got {m.dtype}.")
    _eager(m, "masked_select")
    shape = F._broadcast_shapes("masked_select", ("input", x), ("mask", m))
    x = F.broadcast_to(x, shape)
    sel = Tensor(np.broadcast_to(m.asnumpy(), shape).copy())
    return F.getitem(x, sel)


def nonzero(input: Any, *, as_tuple: bool = False) -> Any:
    """The positions of the non-zero elements, one row each (Int64); with ``as_tuple``, one
    1-D tensor per axis."""
    x = F._tensor(input, "nonzero", "input")
    as_tuple = F._flag(as_tuple, "nonzero", "as_tuple")
    _eager(x, "nonzero")
    pos = np.argwhere(x.asnumpy().reshape(x.shape or (1,)) != 0).astype(np.int64)
    if as_tuple:
        return tuple(Tensor(pos[:, k].copy()) for k in range(pos.shape[1]))
    return Tensor(pos)


def argwhere(input: Any) -> Tensor:
    """The positions of the non-zero (True) elements, one row each (Int64)."""
    x = F._tensor(input, "argwhere", "input")
    _eager(x, "argwhere")
    return Tensor(np.argwhere(x.asnumpy()).astype(np.int64))


def count_nonzero(x: Any, axis: Any = (), keep_dims: bool = False,
                  dtype: Any = mstype.int32) -> Tensor:
    """How many elements are non-zero over ``axis`` (all of them for ``()``), as ``dtype``."""
    t = F._tensor(x, "count_nonzero", "x")
    keep_dims = F._flag(keep_dims, "count_nonzero", "keep_dims")
    mstype.to_numpy(dtype, "count_nonzero")
    nz = F.cast(F.not_equal(t, 0), mstype.int64)
    return F.cast(F.reduce_sum(nz, axis, keep_dims), dtype)


def _floats(input: Any, other: Any, op: str, a: str = "input", b: str = "other") -> tuple:
    x, y = F._operand(input, op, a), F._operand(other, op, b)
    x, y = F.promote_scalar(x, y)
    tensors = [t for t in (x, y) if isinstance(t, Tensor)]
    if not tensors:
        raise TypeError(f"For '{op}', '{a}' or '{b}' must be a Tensor.")
    for t, name in ((x, a), (y, b)):
        if isinstance(t, Tensor) and t._data.dtype.kind not in "biuf":
            raise TypeError(f"For '{op}', '{name}' must be a real Tensor, but got {t.dtype}.")
    if isinstance(x, Tensor) and x._data.dtype.kind in "biu":
        x = F.cast(x, np.float32)
    if isinstance(y, Tensor) and y._data.dtype.kind in "biu":
        y = F.cast(y, np.float32)
    return x, y


@_composite
def logaddexp(input: Any, other: Any) -> Tensor:
    """``log(exp(input) + exp(other))``, shifted by the larger of the two to stay in range."""
    x, y = _floats(input, other, "logaddexp")
    m = F.stop_gradient(F.maximum(x, y))
    m = F.select(F.isfinite(m), m, F.zeros_like(m))
    return F.add(F.log(F.add(F.exp(F.sub(x, m)), F.exp(F.sub(y, m)))), m)


@_composite
def lerp(input: Any, end: Any, weight: Any) -> Tensor:
    """``input + weight * (end - input)``. As in MindSpore, ``input`` and ``end`` are float
    Tensors of one dtype (no promotion: float32 beside float64 is a TypeError), and a
    ``weight`` Tensor of any float dtype is read in theirs."""
    # (MindSpore's CPU kernel also lacks float64; mindgrad computes it)
    tensors = [(t, n) for t, n in ((input, "input"), (end, "end")) if isinstance(t, Tensor)]
    for t, n in tensors:
        if t._data.dtype.kind != "f":
            raise TypeError(f"For 'lerp', '{n}' must be a float16, float32 or float64 Tensor, "
                            f"but got {t.dtype}.")
    if len(tensors) == 2 and input.dtype != end.dtype:
        raise TypeError(f"For 'lerp', 'input' and 'end' must have the same dtype, but got "
                        f"{input.dtype} and {end.dtype}.")
    x, e = _floats(input, end, "lerp", "input", "end")
    # MindSpore takes a float or a Tensor here (an int, a bool or a sequence is refused),
    # and the result keeps the inputs' dtype whatever the weight Tensor's dtype is
    if isinstance(weight, bool) or not isinstance(weight, (float, Tensor)):
        raise TypeError(f"For 'lerp', 'weight' must be a float or a Tensor, but got "
                        f"{type(weight).__name__}.")
    diff = F.sub(e, x)
    if isinstance(weight, Tensor):
        if weight._data.dtype.kind != "f":
            raise TypeError(f"For 'lerp', 'weight' must be a float Tensor, but got "
                            f"{weight.dtype}.")
        F._broadcast_shapes("lerp", ("input - end", diff), ("weight", weight))
        weight = F.cast(weight, diff.dtype)
    return F.add(x, F.mul(weight, diff))


@_composite
def xlogy(input: Any, other: Any) -> Tensor:
    """``input * log(other)``, 0 where ``input`` is 0 (whatever ``other`` is)."""
    x, y = _floats(input, other, "xlogy")
    dt = np.result_type(*(t._data.dtype for t in (x, y) if isinstance(t, Tensor)))
    x, y = (t if isinstance(t, Tensor) else Tensor(np.asarray(t, dt)) for t in (x, y))
    shape = F._broadcast_shapes("xlogy", ("input", x), ("other", y))
    x, y = F.broadcast_to(F.cast(x, dt), shape), F.broadcast_to(F.cast(y, dt), shape)
    # where x is 0 and log(y) is not finite, log(1) instead: the product is 0 there, and
    # elsewhere d/dx is log(y) (at x = 0 too, as in MindSpore)
    bad = F.logical_and(F.equal(x, 0), F.logical_not(F.greater(y, 0)))
    return F.mul(x, F.log(F.select(bad, F.ones_like(y), y)))


@_composite
def isposinf(input: Any) -> Tensor:
    """Where ``input`` is +inf."""
    x = F._tensor(input, "isposinf", "input")
    return F.logical_and(F.isinf(x), F.greater(x, 0)) if x._data.dtype.kind == "f" else \
        F.cast(F.zeros_like(x), mstype.bool_)


@_composite
def isneginf(input: Any) -> Tensor:
    """Where ``input`` is -inf."""
    x = F._tensor(input, "isneginf", "input")
    return F.logical_and(F.isinf(x), F.less(x, 0)) if x._data.dtype.kind == "f" else \
        F.cast(F.zeros_like(x), mstype.bool_)


@_composite
def tensor_scatter_sub(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """``input_x`` with ``updates`` subtracted at ``indices`` (repeated indices subtract
    each of their updates)."""
    u = F._tensor(updates, "tensor_scatter_sub", "updates")
    return F.tensor_scatter_add(input_x, indices, F.neg(u))


@_composite
def movedim(x: Any, source: Any, destination: Any) -> Tensor:
    """``x`` with the axes ``source`` (an int or a tuple) moved to ``destination``."""
    t = F._tensor(x, "movedim", "x")
    src = (source,) if F._is_int(source) else source
    dst = (destination,) if F._is_int(destination) else destination
    if not isinstance(src, (tuple, list)) or not isinstance(dst, (tuple, list)) or \
            len(src) != len(dst):
        raise ValueError(f"For 'movedim', 'source' and 'destination' must be ints or equally "
                         f"long tuples of ints, but got {source!r} and {destination!r}.")
    src = [F._axis(a, t.ndim, "movedim", "source") for a in src]
    dst = [F._axis(a, t.ndim, "movedim", "destination") for a in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"For 'movedim', 'source' and 'destination' must not repeat an axis, "
                         f"but got {source!r} and {destination!r}.")
    rest = iter(a for a in range(t.ndim) if a not in src)
    where = dict(zip(dst, src))
    return F.transpose(t, tuple(where[i] if i in where else next(rest) for i in range(t.ndim)))


moveaxis = movedim


@_composite
def chunk(input: Any, chunks: int, axis: int = 0) -> tuple:
    """``input`` cut into ``chunks`` pieces along ``axis``, each of ``ceil(n / chunks)``
    elements but the last (fewer pieces when ``n`` runs out)."""
    x = F._tensor(input, "chunk", "input")
    if x.ndim == 0:
        raise ValueError("For 'chunk', 'input' must have rank >= 1, but got a 0-D Tensor.")
    if not F._is_int(chunks) or chunks <= 0:
        raise ValueError(f"For 'chunk', 'chunks' must be a positive int, but got {chunks!r}.")
    a = F._axis(axis, x.ndim, "chunk")
    n = x.shape[a]
    step = max(-(-n // int(chunks)), 1)
    return tuple(F.getitem(x, (slice(None),) * a + (slice(i, min(i + step, n)),))
                 for i in range(0, max(n, 1), step))


@_composite
def unbind(input: Any, dim: int = 0) -> tuple:
    """The slices of ``input`` along ``dim``."""
    return F.unstack(input, dim)


@_composite
def diagonal(input: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The ``offset``-th diagonal of the planes of ``dim1`` and ``dim2``, as the last axis
    of the result (the other axes first, in order)."""
    x = F._tensor(input, "diagonal", "input")
    if x.ndim < 2:
        raise ValueError(f"For 'diagonal', 'input' must have rank >= 2, but got shape "
                         f"{list(x.shape)}.")
    if not F._is_int(offset):
        raise TypeError(f"For 'diagonal', 'offset' must be an int, but got "
                        f"{type(offset).__name__}.")
    a, b = F._axis(dim1, x.ndim, "diagonal", "dim1"), F._axis(dim2, x.ndim, "diagonal", "dim2")
    if a == b:
        raise ValueError(f"For 'diagonal', 'dim1' and 'dim2' must differ, but got {dim1} and "
                         f"{dim2}.")
    rest = tuple(i for i in range(x.ndim) if i not in (a, b))
    t = F.transpose(x, rest + (a, b))
    n, m = x.shape[a], x.shape[b]
    rows = np.arange(n)
    cols = rows + int(offset)
    keep = (cols >= 0) & (cols < m)
    r = Tensor(rows[keep].astype(np.int64))
    c = Tensor(cols[keep].astype(np.int64))
    return F.getitem(t, (Ellipsis, r, c))


@_composite
def roll(input: Any, shifts: Any, dims: Any = None) -> Tensor:
    """``input`` shifted by ``shifts`` along ``dims`` (of the flattened input for None),
    the elements that leave at one end coming back at the other."""
    x = F._tensor(input, "roll", "input")
    flat = dims is None
    if flat:
        shape, x, dims = x.shape, F.reshape(x, (-1,)), 0
    sh = (shifts,) if F._is_int(shifts) else shifts
    ds = (dims,) if F._is_int(dims) else dims
    if not isinstance(sh, (tuple, list)) or not isinstance(ds, (tuple, list)) or \
            len(sh) != len(ds) or not all(F._is_int(v) for v in sh):
        raise ValueError(f"For 'roll', 'shifts' and 'dims' must be ints or equally long tuples "
                         f"of ints, but got {shifts!r} and {dims!r}.")
    for k, d in zip(sh, ds):
        a = F._axis(d, x.ndim, "roll", "dims")
        n = x.shape[a] if x.ndim else 1
        if n and k % n:
            k %= n
            pre = (slice(None),) * a
            x = F.concat([F.getitem(x, pre + (slice(n - k, n),)),
                          F.getitem(x, pre + (slice(0, n - k),))], a)
    return F.reshape(x, shape) if flat else x


@_composite
def cross(input: Any, other: Any, dim: Any = None) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (the first axis of size 3 when None)."""
    for arg, v in (("input", input), ("other", other)):
        if not isinstance(v, Tensor):
            raise TypeError(f"For 'cross', '{arg}' must be a Tensor, but got "
                            f"{type(v).__name__}.")
    a, b = F._tensor(input, "cross", "input"), F._tensor(other, "cross", "other")
    shape = F._broadcast_shapes("cross", ("input", a), ("other", b))
    if dim is None:
        dim = next((i for i, d in enumerate(shape) if d == 3), None)
        if dim is None:
            raise ValueError(f"For 'cross', no axis of size 3 in shape {list(shape)}.")
    d = F._axis(dim, len(shape), "cross", "dim")
    if shape[d] != 3:
        raise ValueError(f"For 'cross', axis {d} must have size 3, but got shape "
                         f"{list(shape)}.")
    a, b = F.broadcast_to(a, shape), F.broadcast_to(b, shape)

    def part(t, i):
        return F.getitem(t, (slice(None),) * d + (slice(i, i + 1),))

    a0, a1, a2 = (part(a, i) for i in range(3))
    b0, b1, b2 = (part(b, i) for i in range(3))
    return F.concat([F.sub(F.mul(a1, b2), F.mul(a2, b1)), F.sub(F.mul(a2, b0), F.mul(a0, b2)),
                     F.sub(F.mul(a0, b1), F.mul(a1, b0))], d)


# --- stacking and splitting --------------------------------------------------------------------
def _atleast(inputs: tuple, n: int, op: str) -> Any:
    def one(t: Any) -> Tensor:
        x = F._tensor(t, op, "inputs")
        if x.ndim >= n:
            return x
        shape = {0: (1,) * n, 1: (1, x.size, 1)[:n] if n == 3 else (1, x.size),
                 2: x.shape + (1,)}[x.ndim] if n > 1 else (1,)
        return F.reshape(x, shape)

    ts = inputs[0] if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)) else inputs
    if len(inputs) == 1 and not isinstance(inputs[0], (tuple, list)):
        return one(inputs[0])
    # a list names several inputs, so each element must be a Tensor, as in MindSpore: a
    # list of numbers would otherwise silently become several 0-d tensors
    for i, t in enumerate(ts):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{op}', each element of 'inputs' must be a Tensor, but "
                            f"element {i} is {type(t).__name__}.")
    return tuple(one(t) for t in ts)


def atleast_1d(*inputs: Any) -> Any:
    """Each input with at least 1 axis."""
    return _atleast(inputs, 1, "atleast_1d")


def atleast_2d(*inputs: Any) -> Any:
    """Each input with at least 2 axes (a vector becomes a row)."""
    return _atleast(inputs, 2, "atleast_2d")


def atleast_3d(*inputs: Any) -> Any:
    """Each input with at least 3 axes."""
    return _atleast(inputs, 3, "atleast_3d")


def _seq(tensors: Any, op: str) -> list:
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError(f"For '{op}', 'tensors' must be a non-empty tuple or list of Tensors.")
    return [F._tensor(t, op, f"tensors[{i}]") for i, t in enumerate(tensors)]


@_composite
def hstack(tensors: Any) -> Tensor:
    """Joined along axis 1 (axis 0 for vectors)."""
    ts = [atleast_1d(t) for t in _seq(tensors, "hstack")]
    return F.concat(ts, 0 if ts[0].ndim == 1 else 1)


@_composite
def vstack(tensors: Any) -> Tensor:
    """Joined along axis 0, vectors as rows."""
    return F.concat([atleast_2d(t) for t in _seq(tensors, "vstack")], 0)


row_stack = vstack


@_composite
def dstack(tensors: Any) -> Tensor:
    """Joined along axis 2."""
    return F.concat([atleast_3d(t) for t in _seq(tensors, "dstack")], 2)


@_composite
def column_stack(tensors: Any) -> Tensor:
    """Vectors as columns (and matrices) joined along axis 1."""
    ts = _seq(tensors, "column_stack")
    return F.concat([F.reshape(t, (-1, 1)) if t.ndim <= 1 else t for t in ts], 1)


@_composite
def tensor_split(input: Any, indices_or_sections: Any, axis: int = 0) -> tuple:
    """``input`` split along ``axis`` into n nearly equal parts (an int) or at the given
    indices (a list or tuple)."""
    x = F._tensor(input, "tensor_split", "input")
    if x.ndim == 0:
        raise ValueError("For 'tensor_split', 'input' must have rank >= 1, but got a 0-D "
                         "Tensor.")
    a = F._axis(axis, x.ndim, "tensor_split")
    n = x.shape[a]
    if F._is_int(indices_or_sections):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError(f"For 'tensor_split', the number of sections must be positive, but "
                             f"got {k}.")
        F._sizes((k,), "tensor_split", "indices_or_sections")
        sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
        bounds = list(np.cumsum([0] + sizes))
    elif isinstance(indices_or_sections, (tuple, list)) and all(
            F._is_int(i) for i in indices_or_sections):
        bounds = [0] + [min(max(int(i) + (n if i < 0 else 0), 0), n)
                        for i in indices_or_sections] + [n]
    else:
        raise TypeError(f"For 'tensor_split', 'indices_or_sections' must be an int or a tuple "
                        f"of ints, but got {indices_or_sections!r}.")
    return tuple(F.getitem(x, (slice(None),) * a + (slice(int(lo), int(max(lo, hi))),))
                 for lo, hi in zip(bounds[:-1], bounds[1:]))


def _split_at(op: str, axis: int, min_rank: int):
    def fn(input: Any, indices_or_sections: Any) -> tuple:
        x = F._tensor(input, op, "input")
        if x.ndim < min_rank:
            raise ValueError(f"For '{op}', 'input' must have rank >= {min_rank}, but got shape "
                             f"{list(x.shape)}.")
        return tensor_split(x, indices_or_sections, axis if x.ndim > 1 or op != "hsplit" else 0)
    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = f"``tensor_split`` along axis {axis}."
    return _composite(fn)


hsplit = _split_at("hsplit", 1, 1)
vsplit = _split_at("vsplit", 0, 2)
dsplit = _split_at("dsplit", 2, 3)


@_composite
def fliplr(input: Any) -> Tensor:
    """``input`` with axis 1 reversed."""
    x = F._tensor(input, "fliplr", "input")
    if x.ndim < 2:
        raise ValueError(f"For 'fliplr', 'input' must have rank >= 2, but got shape "
                         f"{list(x.shape)}.")
    return F.flip(x, (1,))


@_composite
def flipud(input: Any) -> Tensor:
    """``input`` with axis 0 reversed."""
    x = F._tensor(input, "flipud", "input")
    if x.ndim < 1:
        raise ValueError("For 'flipud', 'input' must have rank >= 1, but got a 0-D Tensor.")
    return F.flip(x, (0,))


@_composite
def rot90(input: Any, k: int = 1, dims: Any = (0, 1)) -> Tensor:
    """``input`` rotated by ``k`` quarter turns in the plane of ``dims`` (from the first
    toward the second)."""
    x = F._tensor(input, "rot90", "input")
    if not F._is_int(k):
        raise TypeError(f"For 'rot90', 'k' must be an int, but got {type(k).__name__}.")
    if not isinstance(dims, (tuple, list)) or len(dims) != 2 or x.ndim < 2:
        raise ValueError(f"For 'rot90', 'dims' must be two axes of an input of rank >= 2, but "
                         f"got {dims!r} for shape {list(x.shape)}.")
    a, b = (F._axis(d, x.ndim, "rot90", "dims") for d in dims)
    if a == b:
        raise ValueError(f"For 'rot90', the two 'dims' must differ, but got {dims!r}.")
    k %= 4
    if k == 1:
        return F.swapaxes(F.flip(x, (b,)), a, b)
    if k == 2:
        return F.flip(x, (a, b))
    if k == 3:
        return F.flip(F.swapaxes(x, a, b), (b,))
    return x


@_composite
def repeat_interleave(input: Any, repeats: Any, axis: Any = None) -> Tensor:
    """Each element (slice along ``axis``; of the flattened input for None) repeated
    ``repeats`` times (an int, or one count per element)."""
    x = F._tensor(input, "repeat_interleave", "input")
    if axis is None:
        x, axis = F.reshape(x, (-1,)), 0
    a = F._axis(axis, x.ndim, "repeat_interleave")
    n = x.shape[a] if x.ndim else 1
    if F._is_int(repeats):
        counts = np.full(n, int(repeats))
    elif isinstance(repeats, (tuple, list, Tensor)):
        counts = np.asarray(repeats.asnumpy() if isinstance(repeats, Tensor) else repeats)
        if counts.dtype.kind not in "iu" or counts.shape not in ((n,), (1,)):
            raise ValueError(f"For 'repeat_interleave', 'repeats' must be an int or {n} ints, "
                             f"but got {repeats!r}.")
        counts = np.broadcast_to(counts, (n,))
    else:
        raise TypeError(f"For 'repeat_interleave', 'repeats' must be an int or a sequence of "
                        f"ints, but got {type(repeats).__name__}.")
    if (counts < 0).any():
        raise ValueError("For 'repeat_interleave', 'repeats' must not be negative.")
    F._sizes((int(counts.sum()),), "repeat_interleave", "repeats")
    idx = Tensor(np.repeat(np.arange(n), counts).astype(np.int64))
    return F.gather(x, idx, a)


__all__ = ["full_like", "tril", "triu", "diag", "narrow", "masked_select", "nonzero", "argwhere",
           "count_nonzero", "logaddexp", "lerp", "xlogy", "isposinf", "isneginf",
           "tensor_scatter_sub", "movedim", "moveaxis", "chunk", "unbind", "diagonal", "roll",
           "cross", "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "row_stack",
           "dstack", "column_stack", "tensor_split", "hsplit", "vsplit", "dsplit", "fliplr",
           "flipud", "rot90", "repeat_interleave"]
