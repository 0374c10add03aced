"""Reductions and their relatives: sums, means, extremes (with indices), ``all``/``any``,
arg-extremes, running sums and products, ``var``/``std``, ``norm``, ``logsumexp`` and
``softmax``/``log_softmax``."""
from __future__ import annotations

import builtins
import numbers
from typing import Any, Callable

import numpy as np

from ...core import dtype as mstype
from ...common import dtype_rules as _rules
from ...core.tensor import Tensor
from ...core.primitive import Tracer as _Tracer
from ...prims import arith as A
from ...prims import compare as C
from ...prims import reduce as R
from ...prims import structural as S
from ...prims import unary as U
from ...prims import indexing as IX
from ...prims import linalg as LA
from ...prims import products as PR
from ...prims import reduce_fused as RF
from ._args import (_axes, _axis, _axis_given, _composite, _flag, _in_dtype, _is_int, _near,
                    _public_names, _tensor)
from .creation import arange, cast, ones_like, zeros_like
from .elementwise import abs, equal, greater, maximum, minimum, not_equal, pow, select, sqrt
from .shape import flip, reshape, squeeze


def _reduces_nothing(x: Tensor) -> bool:
    """Whether summing (or averaging) ``x`` over all of its axes gives ``x`` itself: a 0-d
    float tensor (integer sums widen their dtype). Such a sum, like ``loss.sum()`` of an
    already scalar loss, then costs no operation in either mode. Only plain tensors and
    tracers: the result must not be a mutable Parameter itself."""
    return (type(x) is Tensor or isinstance(x, _Tracer)) and x.ndim == 0 \
        and x._data.dtype.kind in "fc"


def reduce_sum(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_sum(x, axis, keep_dims, "reduce_sum")


def _reduce_sum(x: Any, axis: Any, keep_dims: bool, op: str) -> Tensor:
    x = _tensor(x, op)
    axes = _axes(axis, x.ndim, op)
    if axes is None and _reduces_nothing(x):
        return x
    return R.reduce_sum(x, axis=axes, keepdims=_flag(keep_dims, op, "keep_dims"))


def reduce_mean(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_mean(x, axis, keep_dims, "reduce_mean")


def _reduce_mean(x: Any, axis: Any, keep_dims: bool, op: str) -> Tensor:
    x = _in_dtype(_tensor(x, op), "mean", "x", op)
    axes = _axes(axis, x.ndim, op)
    keep = _flag(keep_dims, op, "keep_dims")
    if axes is None and _reduces_nothing(x):
        return x
    if x._data.dtype.kind in "fc":
        return R.reduce_mean(x, axis=axes, keepdims=keep)
    # an integer mean keeps the input's dtype, as MindSpore's: the float64 quotient of the
    # widened sum, truncated
    total = R.reduce_sum(x, axis=axes, keepdims=keep)
    return S.cast(A.div(S.cast(total, dtype=np.dtype(np.float64)), R.count(x.shape, axes)),
                  dtype=x._data.dtype)


def _empty_slices(x: Tensor, axes: tuple | None) -> bool:
    """Whether reducing ``x`` over ``axes`` (all when None) reduces empty slices: then
    there is no maximum, minimum or arg of one, though the sum (0) and product (1) exist."""
    if x.size:
        return False
    if axes is None:
        return True
    return builtins.any(x.shape[a] == 0 for a in axes)


def _nonempty(x: Tensor, axes: tuple | None, op: str) -> None:
    if _empty_slices(x, axes):
        where = "" if axes is None else f" along axis {axes[0] if len(axes) == 1 else axes}"
        raise ValueError(f"For '{op}', the input of shape {list(x.shape)} has no element "
                         f"to reduce{where}: the reduction of an empty slice is undefined.")


def _reduce_extreme(x: Any, axis: Any, keep_dims: bool, op: str, prim: Any) -> Tensor:
    # the dtype rule is amax's or amin's, whichever name the op was called by
    x = _in_dtype(_tensor(x, op), "amax" if prim is R.reduce_max else "amin", "x", op)
    axes = _axes(axis, x.ndim, op)
    _nonempty(x, axes, op)
    return prim(x, axis=axes, keepdims=_flag(keep_dims, op, "keep_dims"))


def reduce_max(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_extreme(x, axis, keep_dims, "reduce_max", R.reduce_max)


def reduce_min(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_extreme(x, axis, keep_dims, "reduce_min", R.reduce_min)


def reduce_prod(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Product over ``axis`` (all axes when None). Its gradient is the product of the other
    elements, computed without division, so it is exact where inputs are zero."""
    return _reduce_prod(x, axis, keep_dims, "reduce_prod")


def _reduce_prod(x: Any, axis: Any, keep_dims: bool, op: str) -> Tensor:
    x = _tensor(x, op)
    wide = _rules.result_of_sum(S.dtype_of(x))
    if wide != S.dtype_of(x):  # bool and narrow integers multiply in int64, as MindSpore's
        x = S.cast(x, dtype=wide)
    return PR.reduce_prod(x, axis=_axes(axis, x.ndim, op),
                          keepdims=_flag(keep_dims, op, "keep_dims"))


def sum(x: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    out = _reduce_sum(x, dim, keepdim, "sum")
    return out if dtype is None else cast(out, dtype)


def mean(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_mean(x, axis, keep_dims, "mean")


def prod(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_prod(x, axis, keep_dims, "prod")


def amax(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _reduce_extreme(x, axis, keepdims, "amax", R.reduce_max)


def amin(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _reduce_extreme(x, axis, keepdims, "amin", R.reduce_min)


def _truth(x: Any, op: str) -> Tensor:
    t = _tensor(x, op, "input")
    return t if t.dtype == mstype.bool_ else not_equal(t, 0)


def all(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Logical AND over ``axis`` (all axes when None), as a bool Tensor: no element is
    False (so an empty input gives True)."""
    b = _truth(input, "all")
    false_count = R.reduce_sum(C.logical_not(b), axis=_axes(axis, b.ndim, "all"),
                               keepdims=_flag(keep_dims, "all", "keep_dims"))
    return equal(false_count, 0)


def any(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Logical OR over ``axis`` (all axes when None), as a bool Tensor."""
    b = _truth(input, "any")
    true_count = R.reduce_sum(b, axis=_axes(axis, b.ndim, "any"),
                              keepdims=_flag(keep_dims, "any", "keep_dims"))
    return greater(true_count, 0)


def argmax(input: Any, dim: Any = None, keepdim: bool = False, *, axis: Any = None,
           keepdims: Any = None) -> Tensor:
    """Indices (Int64) of the maxima along ``dim`` (of the flattened input when None).
    ``axis`` and ``keepdims`` are accepted as other names of ``dim`` and ``keepdim``."""
    x = _in_dtype(_tensor(input, "argmax", "input"), "argmax")
    if axis is not None:
        if dim is not None:
            raise TypeError("For 'argmax', give 'dim' or 'axis', not both.")
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    a = None if dim is None else _axis(dim, x.ndim, "argmax")
    _nonempty(x, None if a is None else (a,), "argmax")
    return R.argmax(x, axis=a, keepdims=_flag(keepdim, "argmax", "keepdim"))


def argmin(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Indices of the minima along ``axis`` (of the flattened input when None), as Int32
    (MindSpore's ``ops.argmin`` gives Int32 where ``argmax`` gives Int64)."""
    return _argmin64(_tensor(x, "argmin"), axis, keepdims, dtype=_rules.INT32)


def _argmin64(x: Tensor, axis: Any = None, keepdims: bool = False,
              dtype: Any = None) -> Tensor:
    """argmin's indices, Int64 unless ``dtype`` is given."""
    x = _in_dtype(x, "argmin", "x")
    a = None if axis is None else _axis(axis, x.ndim, "argmin")
    _nonempty(x, None if a is None else (a,), "argmin")
    return R.argmin(x, axis=a, keepdims=_flag(keepdims, "argmin", "keepdims"), dtype=dtype)


def _full_like(x: Tensor, value: Any) -> Tensor:
    return S.full(shape=tuple(x.shape), value=value, dtype=mstype.to_numpy(x.dtype))


def _extreme_with_index(x: Any, axis: Any, keepdims: bool, initial: Any, where: Any,
                        op: str, reduce: Callable, arg: Callable, pick: Callable) -> tuple:
    """MindSpore 2.x ``ops.max`` / ``ops.min``: ``(values, indices)``. Along an axis the
    gradient goes to the first extreme of each slice (as ArgMaxWithValue's does); with
    ``axis=None`` the value is the reduction of every element (ties share the gradient) and
    the index is 0. ``where`` (which needs ``initial``) replaces the unselected elements by
    ``initial``; ``initial`` also bounds the result."""
    x = _in_dtype(_tensor(x, op, "input"), op)
    keepdims = _flag(keepdims, op, "keepdims")
    if where is not None:
        if initial is None:
            raise ValueError(f"For '{op}', 'initial' must be given when 'where' is.")
        x = select(_tensor(where, op, "where"), x, _full_like(x, initial))
    if x.ndim == 0 and axis is not None:  # a 0-d input's axis 0 (or -1) is all of it
        _axis(axis, 0, op)
        axis = None
    _nonempty(x, None if axis is None else (_axis(axis, x.ndim, op),), op)
    if axis is None:
        values, index = reduce(x), _near(Tensor(np.array(0, np.int64)), x)
    else:
        a = _axis(axis, x.ndim, op)
        index = arg(x, a, True)
        positions = reshape(arange(x.shape[a], dtype=index.dtype),
                            tuple(-1 if i == a else 1 for i in builtins.range(x.ndim)))
        values = reduce_sum(select(equal(positions, index), x, zeros_like(x)), a, True)
        if values.dtype != x.dtype:  # an integer sum widens: the values keep x's dtype
            values = cast(values, x.dtype)
        if not keepdims:
            values, index = squeeze(values, a), squeeze(index, a)
    if initial is not None:
        values = pick(values, _full_like(values, initial))
    return values, index


def max(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None,
        where: Any = None) -> tuple:
    """``(maximum values, their indices)`` along ``axis`` (MindSpore 2.x)."""
    return _extreme_with_index(input, axis, keepdims, initial, where, "max", reduce_max,
                               argmax, maximum)


def min(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None,
        where: Any = None) -> tuple:
    """``(minimum values, their indices)`` along ``axis`` (MindSpore 2.x)."""
    return _extreme_with_index(input, axis, keepdims, initial, where, "min", reduce_min,
                               _argmin64, minimum)


def cumsum(x: Any, axis: int, dtype: Any = None) -> Tensor:
    """Running sum along ``axis``, after casting to ``dtype`` when it is given."""
    return _cumsum_ext(x, axis, False, False, dtype, "cumsum")


def _cumsum_ext(x: Any, axis: int, exclusive: bool = False, reverse: bool = False,
                dtype: Any = None, op: str = "CumSum") -> Tensor:
    """MindSpore's ``CumSum(exclusive, reverse)``: exclusive sums start from 0; reverse ones
    run from the end (the running sum of the flipped input, flipped back)."""
    def scan(t: Tensor, a: int) -> Tensor:
        return flip(R.cumsum(flip(t, a), axis=a), a) if reverse else R.cumsum(t, axis=a)

    return _running(x, axis, exclusive, reverse, dtype, op, scan, 0)


def _running(x: Any, axis: int, exclusive: bool, reverse: bool, dtype: Any, op: str,
             scan: Callable, unit: int) -> Tensor:
    """A running sum or product ``scan(x, axis)``; an exclusive one is the inclusive one
    shifted by one place, ``unit`` (0 or 1) coming in at the start."""
    x = _tensor(x, op)
    if dtype is not None:
        x = cast(x, dtype)
    if unit == 0:
        x = _in_dtype(x, "cumsum", "x")
    else:  # bool and narrow integers multiply in int64, as MindSpore's CumProd
        wide = _rules.result_of_sum(S.dtype_of(x))
        x = x if wide == S.dtype_of(x) else S.cast(x, dtype=wide)
    if x.ndim == 0:
        return (zeros_like(x) if unit == 0 else ones_like(x)) if exclusive else x
    a = _axis(axis, x.ndim, op)
    out = scan(x, a)
    if exclusive and x.shape[a]:
        out = IX.shift(out, a, -1 if reverse else 1, unit)
    return out


def cumprod(input: Any, dim: int, dtype: Any = None) -> Tensor:
    """Running product along ``dim``; gradients are exact at zeros, to every order."""
    return _cumprod_ext(input, dim, False, False, dtype, "cumprod")


def _cumprod_ext(x: Any, axis: int, exclusive: bool = False, reverse: bool = False,
                dtype: Any = None, op: str = "CumProd") -> Tensor:
    """MindSpore's ``CumProd(exclusive, reverse)``: exclusive products start from 1; reverse
    ones run from the end."""
    def scan(t: Tensor, a: int) -> Tensor:
        return PR.cumprod(t, axis=a, reverse=bool(reverse))

    return _running(x, axis, exclusive, reverse, dtype, op, scan, 1)


def var(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """The variance over ``axis`` (all axes when None), divided by ``N - ddof``. Float
    tensors only (MindSpore refuses integer, bool and complex ones)."""
    return _var(x, axis, ddof, keepdims, "var")


def _var(x: Any, axis: Any, ddof: Any, keepdims: bool, op: str) -> Tensor:
    x = _in_dtype(_tensor(x, op), op, "x")
    if x.ndim == 0 and not (axis is None or isinstance(axis, (tuple, list)) and not axis):
        # MindSpore's var and std take no axis of a 0-d input (its sum and mean do)
        raise ValueError(f"For '{op}', a 0-D input has no axis, but got 'axis' {axis!r}; "
                         f"give axis=None.")
    if not _is_int(ddof):
        raise TypeError(f"For '{op}', 'ddof' must be an int, but got {type(ddof).__name__}.")
    # a Python int: a NumPy int64 divisor would widen a float32 variance to float64
    return RF.reduce_var(x, axis=_axes(axis, x.ndim, op), keepdims=_flag(keepdims, op, "keepdims"),
                         ddof=int(ddof))


@_composite
def std(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """The standard deviation (the square root of ``var``); float tensors only."""
    return sqrt(_var(x, axis, ddof, keepdims, "std"))


_INF = float("inf")


_MATRIX_ORDS = ("fro", "nuc", _INF, -_INF, 1, -1, 2, -2)


@_composite
def norm(A: Any, ord: Any = None, dim: Any = None, keepdim: bool = False, *,
         dtype: Any = None) -> Tensor:
    """MindSpore's ``ops.norm``: a vector norm over an int ``dim`` (or of a 1-D ``A``), a matrix
    norm over a 2-tuple ``dim`` (rows, columns) or of a 2-D ``A`` when ``ord`` is given; with
    neither ``ord`` nor ``dim``, the 2-norm of all elements."""
    x = _tensor(A, "norm", "A")
    if dtype is not None:
        x = cast(x, dtype)
    x = _in_dtype(x, "norm", "A")  # integers in float32, bool refused
    if S.dtype_of(x).kind == "c":
        # a complex tensor's norms are those of its moduli (real, as NumPy's), except the
        # matrix norms of singular values, which need the complex SVD
        matrix = (isinstance(dim, (tuple, list)) and len(dim) == 2) or (
            dim is None and ord is not None and x.ndim == 2)
        if matrix and isinstance(ord, (str, int)) and ord in ("nuc", 2, -2):
            raise TypeError(f"For 'norm', the matrix norm ord={ord!r} of a complex Tensor "
                            f"({x.dtype}) is not supported.")
        x = abs(x)
    keep = _flag(keepdim, "norm", "keepdim")
    if dim is None:
        if ord is None:
            return RF.reduce_norm(x, axis=None, keepdims=keep)
        if x.ndim not in (1, 2):
            raise ValueError(f"For 'norm', 'A' must be 1-D or 2-D when 'ord' is given and "
                             f"'dim' is None, but got shape {list(x.shape)}.")
        dim = 0 if x.ndim == 1 else (0, 1)
    if isinstance(dim, (tuple, list)):
        if len(dim) == 2:
            return _matrix_norm(x, ord, _norm_dim(dim[0], x), _norm_dim(dim[1], x), keep)
        if len(dim) != 1:
            raise ValueError(f"For 'norm', 'dim' must be an int (vector norm) or a 2-tuple "
                             f"(matrix norm), but got {dim}.")
        dim = dim[0]
    return _vector_norm(x, ord, _norm_dim(dim, x), keep)


def _norm_dim(d: Any, x: Tensor) -> int:
    if not _is_int(d):
        raise TypeError(f"For 'norm', 'dim' must be an int or a tuple of ints, but got "
                        f"{type(d).__name__}.")
    return _axis(d, x.ndim, "norm", "dim")


def _vector_norm(x: Tensor, ord: Any, d: int, keep: bool) -> Tensor:
    if isinstance(ord, bool) or not (ord is None or isinstance(ord, numbers.Real)):
        raise ValueError(f"For 'norm', 'ord' of a vector norm (an int 'dim' or a 1-D 'A') must "
                         f"be a number, inf or -inf, but got {ord!r}; 'fro' and 'nuc' need a "
                         f"2-tuple 'dim'.")
    axis = (d,) if x.ndim else None  # a 0-d A: its only element
    if ord in (_INF, -_INF):
        _nonempty(x, axis, "norm")
    if ord is None or ord == 2:
        return RF.reduce_norm(x, axis=axis, keepdims=keep)
    if ord == _INF:
        return R.reduce_max(abs(x), axis=axis, keepdims=keep)
    if ord == -_INF:
        return R.reduce_min(abs(x), axis=axis, keepdims=keep)
    if ord == 0:  # the count of nonzero elements: piecewise constant, no gradient
        return R.reduce_sum(cast(C.not_equal(x, 0), x.dtype), axis=axis, keepdims=keep)
    if ord == 1:
        return R.reduce_sum(abs(x), axis=axis, keepdims=keep)
    p = float(ord)
    return pow(R.reduce_sum(pow(abs(x), p), axis=axis, keepdims=keep), 1.0 / p)


def _matrix_norm(x: Tensor, ord: Any, row: int, col: int, keep: bool) -> Tensor:
    if row == col:
        raise ValueError(f"For 'norm', the two dims of a matrix norm must differ, but got "
                         f"({row}, {col}) for 'A' of shape {list(x.shape)}.")
    if isinstance(ord, bool) or not (ord is None or ord in _MATRIX_ORDS):
        raise ValueError(f"For 'norm', 'ord' of a matrix norm (a 2-tuple 'dim' or a 2-D 'A') "
                         f"must be one of 'fro', 'nuc', inf, -inf, 1, -1, 2, -2, but got "
                         f"{ord!r}.")
    if ord is None or ord == "fro":
        return RF.reduce_norm(x, axis=tuple(sorted((row, col))), keepdims=keep)
    if ord in ("nuc", 2, -2):
        # the singular values of the matrices (row, col), moved to the last two axes
        perm = tuple(i for i in range(x.ndim) if i not in (row, col)) + (row, col)
        if S.dtype_of(x) == np.float16:
            x = cast(x, np.float32)  # MindSpore's SVD norms of float16 come out in float32
        sv = LA.svdvals(S.transpose(x, perm=perm) if perm != tuple(range(x.ndim)) else x)
        last = (sv.ndim - 1,)
        reduce = {"nuc": R.reduce_sum, 2: R.reduce_max, -2: R.reduce_min}[ord]
        out = reduce(sv, axis=last, keepdims=False)
    else:
        # 1: the largest column sum of |x| (summed over the rows); inf: the largest row sum
        inner, outer = (row, col) if ord in (1, -1) else (col, row)
        extreme = R.reduce_max if ord > 0 else R.reduce_min
        sums = R.reduce_sum(abs(x), axis=(inner,), keepdims=True)
        out = extreme(sums, axis=(outer,), keepdims=True)
    reduced = (row, col)
    if keep:
        return S.reshape(out, shape=tuple(1 if i in reduced else n for i, n in enumerate(x.shape)))
    return S.reshape(out, shape=tuple(n for i, n in enumerate(x.shape) if i not in reduced))


@_composite
def logsumexp(input: Any, dim: Any = None, keepdim: bool = False, *, axis: Any = None,
              keep_dims: Any = None) -> Tensor:
    """``log(sum(exp(input)))`` over ``dim`` (MindSpore 2.x's names; 1.x's ``axis`` and
    ``keep_dims`` are accepted as keywords)."""
    x = _in_dtype(_tensor(input, "logsumexp", "input"), "logsumexp", "input")
    if axis is not None:
        if dim is not None:
            raise TypeError("For 'logsumexp', give 'dim' or 'axis', not both.")
        dim = axis
    axis = dim
    if keep_dims is not None:
        keepdim = keep_dims
    keep_dims = keepdim
    axes = _axes(axis, x.ndim, "logsumexp")
    # the shift by the maximum only keeps exp in range: it is a constant for the derivatives;
    # an infinite maximum shifts by 0 instead (all -inf gives -inf, not -inf - -inf = NaN),
    # and so does an empty slice, which has no maximum (its sum of exps is 0: -inf)
    if _empty_slices(x, axes):
        m = R.reduce_sum(S.stop_gradient(A.mul(x, 0)), axis=axes, keepdims=True)
    else:
        m = R.reduce_max(S.stop_gradient(x), axis=axes, keepdims=True)
        m = C.select(C.isfinite(m), m, 0)
    keep_dims = _flag(keep_dims, "logsumexp", "keep_dims")
    total = R.reduce_sum(U.exp(A.sub(x, m)), axis=axes, keepdims=keep_dims)
    return A.add(U.log(total), m if keep_dims else S.reshape(m, shape=total.shape))


def softmax(input: Any, axis: Any = -1, *, dtype: Any = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``axis``, after casting to ``dtype`` when given."""
    x = _tensor(input, "softmax", "input")
    if dtype is not None:
        x = cast(x, dtype)
    x = _in_dtype(x, "softmax")
    if x.ndim == 0:
        raise ValueError("For 'softmax', 'input' must have rank >= 1, but got a 0-D Tensor.")
    _axis_given(axis, "softmax")
    axes = _axes(axis, x.ndim, "softmax")
    return RF.softmax(x, axis=tuple(range(x.ndim)) if axes is None else axes)


@_composite
def log_softmax(x: Any, axis: Any = -1) -> Tensor:
    x = _in_dtype(_tensor(x, "log_softmax"), "log_softmax", "x")
    _axis_given(axis, "log_softmax")
    axes = _axes(axis, x.ndim, "log_softmax")
    if x.size == 0:  # an empty input gives an empty result (the shift has no maximum)
        return A.sub(x, S.stop_gradient(x))
    z = A.sub(x, R.reduce_max(S.stop_gradient(x), axis=axes, keepdims=True))
    # z + (-log sum exp z): the cotangent of the small term is summed before it is negated
    return A.add(z, A.neg(U.log(R.reduce_sum(U.exp(z), axis=axes, keepdims=True))))


__all__ = _public_names(globals())
