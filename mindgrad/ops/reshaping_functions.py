"""MindSpore's array-manipulation functions beyond the core's: shapes and views (``expand``,
``expand_as``, ``swapdims``, ``t``, ``ravel``, ``reverse``, ``view_as``, ``deepcopy``),
slicing (``slice``, ``strided_slice`` with its masks), diagonals
(``diag_embed``, ``diagflat``, ``diagonal_scatter``), slice updates (``select_scatter``,
``slice_scatter``, ``index_fill``), repeats, masks and combinatorics (``repeat_elements``,
``sequence_mask``, ``cartesian_prod``, ``combinations``, ``reverse_sequence``), the
consecutive-unique queries and the channel shuffle. Each is a composition of
differentiable operators; the queries whose output size depends on the values
(``unique_consecutive``, ``unique_with_pad``) run eagerly."""
from __future__ import annotations

import builtins
import itertools
import math
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..prims import indexing as IX
from . import array_functions as AF
from . import indexing_functions as IF
from . import functional as F
from . import sorting
from .functional import _composite


# --- shapes and views -------------------------------------------------------------------------
@_composite
def expand(input_x: Any, size: Any) -> Tensor:
    """``input_x`` broadcast to ``size`` (a 1-D int Tensor; -1 keeps an axis)."""
    x = F._tensor(input_x, "expand", "input_x")
    s = F._int_tensor(size, "expand", "size") if isinstance(size, Tensor) else size
    shape = tuple(int(v) for v in (s.asnumpy().reshape(-1) if isinstance(s, Tensor) else s))
    return F.broadcast_to(x, shape)


@_composite
def expand_as(input: Any, other: Any) -> Tensor:
    """``input`` broadcast to the shape of ``other``."""
    x = F._strict_tensor(input, "expand_as", "input")
    o = F._tensor(other, "expand_as", "other")
    return F.broadcast_to(x, tuple(o.shape))


@_composite
def swapdims(input: Any, dim0: int, dim1: int) -> Tensor:
    """``input`` with axes ``dim0`` and ``dim1`` exchanged."""
    return F.swapaxes(F._tensor(input, "swapdims", "input"), dim0, dim1)


def t(input: Any) -> Tensor:
    """The transpose of a 2-D tensor; a tensor of another rank is returned as is (as
    MindSpore's does)."""
    x = F._tensor(input, "t", "input")
    return F.transpose(x, (1, 0)) if x.ndim == 2 else x


def ravel(input: Any) -> Tensor:
    """``input`` flattened to 1-D."""
    return F.reshape(F._tensor(input, "ravel", "input"), (-1,))


@_composite
def reverse(x: Any, axis: Any) -> Tensor:
    """``x`` reversed along the axes ``axis`` (MindSpore's ReverseV2)."""
    return F.flip(F._tensor(x, "reverse", "x"), tuple(axis) if isinstance(axis, list) else axis)


@_composite
def view_as(input: Any, other: Any) -> Tensor:
    """``input`` reshaped to the shape of ``other``."""
    o = F._tensor(other, "view_as", "other")
    return F.reshape(F._tensor(input, "view_as", "input"), tuple(o.shape))


def deepcopy(input_x: Any) -> Tensor:
    """A copy of ``input_x`` (its gradient passes through)."""
    return F._tensor(input_x, "deepcopy", "input_x").copy()


def identity(x: Any) -> Tensor:
    """A copy of ``x`` (MindSpore's ``ops.identity``, the Identity primitive)."""
    return F._tensor(x, "identity", "x").copy()


def shape_(input_x: Any) -> tuple:
    """The shape of ``input_x`` (MindSpore's Shape primitive, as ``ops.shape``)."""
    return tuple(F._tensor(input_x, "shape_", "input_x").shape)


@_composite
def tensor_range(start: Any, limit: Any, delta: Any) -> Tensor:
    """``ops.range`` as MindSpore's Range primitive (``maxlen`` 1000000)."""
    return IF.range(start, limit, delta)


# --- slicing ---------------------------------------------------------------------------------
def _int_tuple(v: Any, op: str, arg: str) -> tuple:
    if isinstance(v, Tensor):
        v = tuple(v.asnumpy().reshape(-1).tolist())
    if isinstance(v, list):
        v = tuple(v)
    if not isinstance(v, tuple) or not all(F._is_int(i) for i in v):
        raise TypeError(f"For '{op}', '{arg}' must be a tuple of ints, but got {v!r}.")
    return tuple(int(i) for i in v)


@_composite
def slice(input_x: Any, begin: Any, size: Any) -> Tensor:  # noqa: A001  (MindSpore's name)
    """The block of ``input_x`` starting at ``begin`` of extent ``size`` (-1: to the
    end)."""
    x = F._tensor(input_x, "slice", "input_x")
    b = _int_tuple(begin, "slice", "begin")
    s = _int_tuple(size, "slice", "size")
    if not len(b) == len(s) == x.ndim:
        raise ValueError(f"For 'slice', 'begin' and 'size' must have one entry per axis of "
                         f"'input_x' (rank {x.ndim}), but got {len(b)} and {len(s)}.")
    index = []
    for a, (start, n, dim) in enumerate(zip(b, s, x.shape)):
        stop = dim if n == -1 else start + n
        if not 0 <= start <= dim or n < -1 or stop > dim:
            raise ValueError(f"For 'slice', on axis {a} the block [{start}, {stop}) must lie "
                             f"within [0, {dim}] ('begin' {list(b)}, 'size' {list(s)}, shape "
                             f"{list(x.shape)}).")
        index.append(builtins.slice(start, stop))
    return F.getitem(x, tuple(index))


@_composite
def tensor_slice(input_x: Any, begin: Any, size: Any) -> Tensor:
    """``ops.slice`` as MindSpore's Slice primitive."""
    return slice(input_x, begin, size)


def _bits(mask: Any, op: str, arg: str) -> int:
    if not F._is_int(mask) or mask < 0:
        raise TypeError(f"For '{op}', '{arg}' must be a non-negative int, but got {mask!r}.")
    return int(mask)


@_composite
def strided_slice(input_x: Any, begin: Any, end: Any, strides: Any, begin_mask: int = 0,
                  end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                  shrink_axis_mask: int = 0) -> Tensor:
    """``input_x[begin:end:strides]`` with MindSpore's masks: bit ``i`` of ``begin_mask``
    (``end_mask``) ignores ``begin[i]`` (``end[i]``); of ``ellipsis_mask`` makes entry ``i``
    an Ellipsis; of ``new_axis_mask`` inserts an axis there; of ``shrink_axis_mask`` takes
    the single index ``begin[i]`` (dropping the axis). Axes beyond the entries are kept
    whole."""
    op = "strided_slice"
    x = F._tensor(input_x, op, "input_x")
    b, e, s = (_int_tuple(v, op, n) for v, n in ((begin, "begin"), (end, "end"),
                                                  (strides, "strides")))
    if not len(b) == len(e) == len(s):
        raise ValueError(f"For '{op}', 'begin', 'end' and 'strides' must have the same "
                         f"length, but got {len(b)}, {len(e)} and {len(s)}.")
    if 0 in s:
        raise ValueError(f"For '{op}', 'strides' must not contain 0, but got {list(s)}.")
    bm, em, elm, nm, sm = (_bits(m, op, n) for m, n in (
        (begin_mask, "begin_mask"), (end_mask, "end_mask"), (ellipsis_mask, "ellipsis_mask"),
        (new_axis_mask, "new_axis_mask"), (shrink_axis_mask, "shrink_axis_mask")))
    index: list = []
    axis = 0  # the input axis entry i refers to
    n_real = sum(1 for i in range(len(b)) if not (nm >> i) & 1 and not (elm >> i) & 1)
    for i in range(len(b)):
        if (elm >> i) & 1:
            index.append(Ellipsis)
            axis += x.ndim - n_real
        elif (nm >> i) & 1:
            index.append(None)
        elif (sm >> i) & 1:
            dim = x.shape[axis] if axis < x.ndim else 1
            if not -dim <= b[i] < dim:
                raise ValueError(f"For '{op}', the index {b[i]} taken on axis {axis} "
                                 f"(shrink_axis_mask) is out of range for size {dim}.")
            index.append(b[i])
            axis += 1
        else:
            start = None if (bm >> i) & 1 else b[i]
            stop = None if (em >> i) & 1 else e[i]
            index.append(builtins.slice(start, stop, s[i]))
            axis += 1
    if axis > x.ndim:
        raise ValueError(f"For '{op}', 'begin' has {len(b)} entries, more than the rank "
                         f"{x.ndim} of 'input_x'.")
    return F.getitem(x, tuple(index))


# --- diagonals -------------------------------------------------------------------------------
def _diag_positions(m: int, offset: int, n1: int, n2: int) -> np.ndarray:
    """(m, n1, n2) one-hot planes: plane k marks diagonal element k at ``offset``."""
    p = np.zeros((m, n1, n2), bool)
    k = np.arange(m)
    p[k, k + max(-offset, 0), k + max(offset, 0)] = True
    return p


def _embed(src: Tensor, offset: int, n1: int, n2: int) -> Tensor:
    """(..., m) -> (..., n1, n2) with the last axis on the ``offset`` diagonal, zeros
    elsewhere."""
    m = src.shape[-1]
    planes = Tensor(_diag_positions(m, offset, n1, n2))
    spread = F.reshape(src, tuple(src.shape) + (1, 1))
    full = tuple(src.shape) + (n1, n2)
    picked = F.select(F.broadcast_to(planes, full), F.broadcast_to(spread, full),
                      F.zeros_like(F.broadcast_to(spread, full)))
    return F.reduce_sum(picked, src.ndim - 1) if src.dtype.np_dtype.kind in "fc" else \
        F.cast(F.reduce_sum(picked, src.ndim - 1), src.dtype)


def _plane(dim1: Any, dim2: Any, ndim: int, op: str) -> tuple:
    d1, d2 = F._axis(dim1, ndim, op), F._axis(dim2, ndim, op)
    if d1 == d2:
        raise ValueError(f"For '{op}', 'dim1' and 'dim2' must be different axes, but both "
                         f"are {d1}.")
    return d1, d2


@_composite
def diag_embed(input: Any, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """A tensor whose planes (``dim1``, ``dim2``) hold the last axis of ``input`` on their
    ``offset`` diagonal (zeros elsewhere); the result has one axis more."""
    x = F._tensor(input, "diag_embed", "input")
    if x.ndim == 0:
        raise ValueError("For 'diag_embed', 'input' must have rank >= 1, but got a 0-D "
                         "Tensor.")
    if not F._is_int(offset):
        raise TypeError(f"For 'diag_embed', 'offset' must be an int, but got "
                        f"{type(offset).__name__}.")
    d1, d2 = _plane(dim1, dim2, x.ndim + 1, "diag_embed")
    n = x.shape[-1] + abs(int(offset))
    out = _embed(x, int(offset), n, n)
    return AF.movedim(out, (-2, -1), (d1, d2))


@_composite
def diagflat(input: Any, offset: int = 0) -> Tensor:
    """The square matrix with the flattened ``input`` on its ``offset`` diagonal."""
    x = F._tensor(input, "diagflat", "input")
    return diag_embed(F.reshape(x, (-1,)), offset)


@_composite
def diagonal_scatter(input: Any, src: Any, offset: int = 0, dim1: int = 0,
                     dim2: int = 1) -> Tensor:
    """``input`` with the ``offset`` diagonal of its planes (``dim1``, ``dim2``) replaced by
    ``src`` (shaped as ``ops.diagonal(input, offset, dim1, dim2)``)."""
    op = "diagonal_scatter"
    x = F._tensor(input, op, "input")
    v = F._tensor(src, op, "src")
    if x.ndim < 2:
        raise ValueError(f"For '{op}', 'input' must have rank >= 2, but got shape "
                         f"{list(x.shape)}.")
    d1, d2 = _plane(dim1, dim2, x.ndim, op)
    want = tuple(AF.diagonal(x, offset, d1, d2).shape)
    if tuple(v.shape) != want:
        raise ValueError(f"For '{op}', 'src' must have the shape of the diagonal, "
                         f"{list(want)}, but got {list(v.shape)}.")
    if v.dtype != x.dtype:
        v = F.cast(v, x.dtype)
    moved = AF.movedim(x, (d1, d2), (-2, -1))
    n1, n2 = moved.shape[-2:]
    on = Tensor(_diag_positions(want[-1], int(offset), n1, n2).any(0))
    new = F.select(F.broadcast_to(on, tuple(moved.shape)), _embed(v, int(offset), n1, n2),
                   moved)
    return AF.movedim(new, (-2, -1), (d1, d2))


# --- slice updates ----------------------------------------------------------------------------
def _replace_along(x: Tensor, axis: int, positions: np.ndarray, v: Tensor, op: str) -> Tensor:
    """``x`` with the slices ``positions`` along ``axis`` replaced by those of ``v``."""
    want = tuple(x.shape[:axis]) + (len(positions),) + tuple(x.shape[axis + 1:])
    if tuple(v.shape) != want:
        raise ValueError(f"For '{op}', 'src' must have shape {list(want)}, but got "
                         f"{list(v.shape)}.")
    if v.dtype != x.dtype:
        v = F.cast(v, x.dtype)
    perm = (axis,) + tuple(a for a in range(x.ndim) if a != axis)
    back = tuple(int(i) for i in np.argsort(perm))
    idx = Tensor(np.asarray(positions, np.int64).reshape(-1, 1))
    out = F.tensor_scatter_update(F.transpose(x, perm), idx, F.transpose(v, perm))
    return F.transpose(out, back)


@_composite
def select_scatter(input: Any, src: Any, axis: int, index: int) -> Tensor:
    """``input`` with its slice ``index`` along ``axis`` replaced by ``src`` (which lacks
    that axis)."""
    x = F._tensor(input, "select_scatter", "input")
    v = F._tensor(src, "select_scatter", "src")
    a = F._axis(axis, x.ndim, "select_scatter")
    n = x.shape[a]
    if not F._is_int(index) or not -n <= index < n:
        raise IndexError(f"For 'select_scatter', 'index' must be an int in [{-n}, {n}), but "
                         f"got {index!r}.")
    return _replace_along(x, a, np.array([int(index) % n]), F.expand_dims(v, a),
                          "select_scatter")


@_composite
def slice_scatter(input: Any, src: Any, axis: int = 0, start: Any = None, end: Any = None,
                  step: int = 1) -> Tensor:
    """``input`` with the slices ``start:end:step`` along ``axis`` replaced by ``src``."""
    x = F._tensor(input, "slice_scatter", "input")
    v = F._tensor(src, "slice_scatter", "src")
    a = F._axis(axis, x.ndim, "slice_scatter")
    for arg, val in (("start", start), ("end", end), ("step", step)):
        if val is not None and not F._is_int(val):
            raise TypeError(f"For 'slice_scatter', '{arg}' must be an int, but got {val!r}.")
    if step is None or step <= 0:
        raise ValueError(f"For 'slice_scatter', 'step' must be positive, but got {step!r}.")
    positions = np.arange(x.shape[a])[builtins.slice(start, end, step)]
    return _replace_along(x, a, positions, v, "slice_scatter")


@_composite
def index_fill(x: Any, axis: int, index: Any, value: Any) -> Tensor:
    """``x`` with its slices ``index`` along ``axis`` set to ``value`` (a number or a 0-D
    Tensor)."""
    op = "index_fill"
    t_ = F._tensor(x, op, "x")
    if isinstance(axis, Tensor):
        axis = axis.asnumpy().item()
    a = F._axis(axis, max(t_.ndim, 1), op)
    idx = F._int_tensor(index, op, "index")
    if idx.ndim > 1:
        raise ValueError(f"For '{op}', 'index' must be 0-D or 1-D, but got shape "
                         f"{list(idx.shape)}.")
    n = t_.shape[a] if t_.ndim else 1
    i = idx.asnumpy().reshape(-1)
    if ((i < -n) | (i >= n)).any():
        raise ValueError(f"For '{op}', each value of 'index' must be in [{-n}, {n}), but got "
                         f"{i.tolist()}.")
    hit = np.zeros(n, bool)
    hit[i % n if n else i] = True
    shape = [1] * t_.ndim
    if t_.ndim:
        shape[a] = n
    mask = F.broadcast_to(Tensor(hit.reshape(shape)), tuple(t_.shape))
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ValueError(f"For '{op}', a Tensor 'value' must be 0-D, but got shape "
                             f"{list(value.shape)}.")
        # as in MindSpore, the filled positions pass no gradient to a Tensor value
        v = F.stop_gradient(F.cast(value, t_.dtype) if value.dtype != t_.dtype else value)
    elif isinstance(value, (int, float, bool)):
        try:
            with np.errstate(all="raise"):
                v = Tensor(np.asarray(value, t_.dtype.np_dtype))
        except (OverflowError, ValueError, FloatingPointError):
            raise ValueError(f"For '{op}', 'value' {value!r} does not fit the dtype of 'x', "
                             f"{t_.dtype}.") from None
    else:
        raise TypeError(f"For '{op}', 'value' must be a number or a 0-D Tensor, but got "
                        f"{type(value).__name__}.")
    return F.select(mask, F.broadcast_to(v, tuple(t_.shape)), t_)


# --- repeats, masks, combinatorics --------------------------------------------------------------
@_composite
def repeat_elements(x: Any, rep: int, axis: int = 0) -> Tensor:
    """Each element of ``x`` repeated ``rep`` times along ``axis``."""
    t_ = F._tensor(x, "repeat_elements", "x")
    if not F._is_int(rep) or rep <= 0:
        raise ValueError(f"For 'repeat_elements', 'rep' must be a positive int, but got "
                         f"{rep!r}.")
    return AF.repeat_interleave(t_, int(rep), F._axis(axis, t_.ndim, "repeat_elements"))


def sequence_mask(lengths: Any, maxlen: Any = None) -> Tensor:
    """``out[..., j] = j < lengths[...]`` for ``j < maxlen`` (Bool; ``maxlen`` defaults to
    the largest length)."""
    n = F._int_tensor(lengths, "sequence_mask", "lengths")
    if maxlen is None:
        maxlen = int(n.asnumpy().max()) if n.size else 0
    if not F._is_int(maxlen) or maxlen <= 0:
        raise ValueError(f"For 'sequence_mask', 'maxlen' must be a positive int, but got "
                         f"{maxlen!r}.")
    F._sizes(tuple(n.shape) + (int(maxlen),), "sequence_mask", "maxlen")
    steps = Tensor(np.arange(int(maxlen), dtype=n.dtype.np_dtype))
    return F.less(steps, F.expand_dims(n, n.ndim))


@_composite
def cartesian_prod(*inputs: Any) -> Tensor:
    """The Cartesian product of 1-D tensors: one row per combination, the last input
    varying fastest."""
    xs = [F._tensor(v, "cartesian_prod", "inputs") for v in inputs]
    if not xs or any(v.ndim != 1 for v in xs):
        raise ValueError("For 'cartesian_prod', the inputs must be one or more 1-D Tensors, "
                         f"but got shapes {[list(v.shape) for v in xs]}.")
    if len(xs) == 1:
        return xs[0]
    sizes = tuple(v.shape[0] for v in xs)
    cols = []
    for k, v in enumerate(xs):
        shape = [1] * len(xs)
        shape[k] = sizes[k]
        cols.append(F.reshape(F.broadcast_to(F.reshape(v, tuple(shape)), sizes), (-1,)))
    return F.stack(cols, 1)


@_composite
def combinations(input: Any, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The ``r``-element combinations of the 1-D ``input`` as rows (in
    ``itertools.combinations`` order)."""
    x = F._tensor(input, "combinations", "input")
    if x.ndim != 1:
        raise ValueError(f"For 'combinations', 'input' must be 1-D, but got shape "
                         f"{list(x.shape)}.")
    if not F._is_int(r) or r < 0:
        raise ValueError(f"For 'combinations', 'r' must be a non-negative int, but got {r!r}.")
    with_replacement = F._flag(with_replacement, "combinations", "with_replacement")
    n = x.shape[0]
    count = math.comb(n + int(r) - 1, int(r)) if with_replacement and n else math.comb(n, int(r))
    F._sizes((count, int(r)), "combinations", "r")
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    rows = np.array(list(pick(range(n), int(r))) if count else [], np.int64).reshape(-1, int(r))
    if rows.size == 0:
        return F.reshape(x[:0], (0,)) if r else x[:0]
    return F.gather(x, Tensor(rows), 0)


@_composite
def reverse_sequence(x: Any, seq_lengths: Any, seq_dim: int, batch_dim: int = 0) -> Tensor:
    """For each batch entry ``b``, the first ``seq_lengths[b]`` elements along ``seq_dim``
    reversed (the rest kept)."""
    op = "reverse_sequence"
    t_ = F._tensor(x, op, "x")
    n = F._int_tensor(seq_lengths, op, "seq_lengths")
    sd, bd = F._axis(seq_dim, t_.ndim, op), F._axis(batch_dim, t_.ndim, op)
    if sd == bd:
        raise ValueError(f"For '{op}', 'seq_dim' and 'batch_dim' must differ, but both are "
                         f"{sd}.")
    if n.ndim != 1 or n.shape[0] != t_.shape[bd]:
        raise ValueError(f"For '{op}', 'seq_lengths' must be 1-D of length {t_.shape[bd]} "
                         f"(axis {bd} of 'x'), but got shape {list(n.shape)}.")
    if IX.is_eager(n) and ((n.asnumpy() < 0) | (n.asnumpy() > t_.shape[sd])).any():
        raise ValueError(f"For '{op}', each value of 'seq_lengths' must be in [0, "
                         f"{t_.shape[sd]}], but got {n.asnumpy().tolist()}.")
    shape_s = [1] * t_.ndim
    shape_s[sd] = t_.shape[sd]
    shape_b = [1] * t_.ndim
    shape_b[bd] = t_.shape[bd]
    s = Tensor(np.arange(t_.shape[sd], dtype=np.int64).reshape(shape_s))
    length = F.reshape(F.cast(n, mstype.int64), tuple(shape_b))
    full = tuple(t_.shape)
    s, length = F.broadcast_to(s, full), F.broadcast_to(length, full)
    idx = F.select(F.less(s, length), length - 1 - s, s)
    return sorting.gather_elements(t_, sd, idx)


# --- consecutive uniques ------------------------------------------------------------------------
def unique_consecutive(input: Any, return_inverse: bool = False, return_counts: bool = False,
                       dim: Any = None) -> Any:
    """The runs of equal elements (or slices along ``dim``) of ``input`` collapsed to one,
    with the run index of each element and the run lengths when asked (Int64)."""
    op = "unique_consecutive"
    x = F._tensor(input, op, "input")
    AF._eager(x, op)
    a = x.asnumpy()
    if dim is None:
        flat = a.reshape(-1)
        new = np.ones(flat.shape[0], bool)
        new[1:] = flat[1:] != flat[:-1]
        out = flat[new]
        inverse_shape = a.shape
    else:
        d = F._axis(dim, x.ndim, op)
        moved = np.moveaxis(a, d, 0).reshape(a.shape[d], -1)
        new = np.ones(moved.shape[0], bool)
        new[1:] = (moved[1:] != moved[:-1]).any(1)
        out = np.compress(new, a, axis=d)
        inverse_shape = (a.shape[d],)
    inverse = (np.cumsum(new) - 1).astype(np.int64).reshape(inverse_shape)
    starts = np.flatnonzero(new)
    counts = np.diff(np.append(starts, new.shape[0])).astype(np.int64)
    result = [Tensor(out)]
    if return_inverse:
        result.append(Tensor(inverse))
    if return_counts:
        result.append(Tensor(counts))
    return result[0] if len(result) == 1 else tuple(result)


def unique_with_pad(x: Any, pad_num: int) -> tuple:
    """The distinct values of the 1-D ``x`` in order of first appearance, padded to the
    length of ``x`` with ``pad_num``, and each element's position among them."""
    op = "unique_with_pad"
    t_ = F._tensor(x, op, "x")
    AF._eager(t_, op)
    if t_.ndim != 1:
        raise ValueError(f"For '{op}', 'x' must be 1-D, but got shape {list(t_.shape)}.")
    if isinstance(pad_num, bool) or not isinstance(pad_num, (int, float, np.integer,
                                                              np.floating)):
        raise TypeError(f"For '{op}', 'pad_num' must be a number, but got "
                        f"{type(pad_num).__name__}.")
    a = t_.asnumpy()
    if not np.can_cast(np.asarray(pad_num).dtype, a.dtype, "same_kind") or (
            a.dtype.kind in "iu" and not np.iinfo(a.dtype).min <= pad_num <= np.iinfo(a.dtype).max):
        raise TypeError(f"For '{op}', 'pad_num' ({pad_num!r}) must fit the dtype of 'x', "
                        f"{t_.dtype}.")
    values, first, inverse = np.unique(a, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    out = np.full(a.shape, pad_num, a.dtype)
    out[:order.size] = values[order]
    return Tensor(out), Tensor(rank[inverse.reshape(-1)].astype(a.dtype))


# --- channel shuffle ------------------------------------------------------------------------------
def _factor(v: Any, op: str, arg: str) -> int:
    if not F._is_int(v) or v <= 0:
        raise ValueError(f"For '{op}', '{arg}' must be a positive int, but got {v!r}.")
    return int(v)


@_composite
def channel_shuffle(x: Any, groups: int) -> Tensor:
    """(N, C, *) with its channels, split into ``groups`` groups, interleaved group by
    group."""
    t_ = F._tensor(x, "channel_shuffle", "x")
    g = _factor(groups, "channel_shuffle", "groups")
    if t_.ndim < 3 or t_.shape[1] % g:
        raise ValueError(f"For 'channel_shuffle', 'x' must have rank >= 3 and a channel count "
                         f"(axis 1) divisible by {g}, but got shape {list(t_.shape)}.")
    n, c, *rest = t_.shape
    y = F.reshape(t_, (n, g, c // g) + tuple(rest))
    y = F.swapaxes(y, 1, 2)
    return F.reshape(y, tuple(t_.shape))


__all__ = ["identity", "shape_", "tensor_range", "tensor_slice", "expand", "expand_as",
           "swapdims", "t", "ravel", "reverse", "view_as", "deepcopy", "slice",
           "strided_slice", "diag_embed", "diagflat", "diagonal_scatter", "select_scatter",
           "slice_scatter", "index_fill", "repeat_elements", "sequence_mask", "cartesian_prod",
           "combinations", "reverse_sequence", "unique_consecutive", "unique_with_pad",
           "channel_shuffle"]
