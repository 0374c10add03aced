"""MindSpore's math, reduction, segment, search and sort operator classes whose
constructor, inputs or outputs differ from the functional operators' (``Rint``,
``ReduceStd`` giving ``(std, mean)``, ``SegmentSum`` over sorted ids, ``LowerBound``,
``Sort(axis, descending)`` with Int32 indices, ...). Each keeps its configuration and calls
the functions of ``mindgrad.ops``, composing them where MindSpore's class does more than
one of them."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core import dtype as mstype
from ...core.tensor import Tensor
from .. import families
from .. import functional as F
from ..primitive import Primitive

_fn = families.function


def _flag(op: str, name: str, v: Any) -> bool:
    return F._flag(v, op, name)


def _int_attr(op: str, name: str, v: Any) -> int:
    if not F._is_int(v):
        raise TypeError(f"For '{op}', '{name}' must be an int, but got {type(v).__name__}.")
    return int(v)


# --- elementwise math ---------------------------------------------------------------------
class MulNoNan(Primitive):
    """``MulNoNan()(x, y)``: ``x * y``, and 0 where ``y`` is 0 (even for an infinite or NaN
    ``x``)."""

    def __call__(self, x: Any, y: Any) -> Tensor:
        prod = F.mul(x, y)
        zero = F.equal(F.broadcast_to(F._tensor(y, "MulNoNan", "y"), tuple(prod.shape)), 0)
        return F.select(zero, F.zeros_like(prod), prod)


class SquaredDifference(Primitive):
    """``SquaredDifference()(x, y)``: ``(x - y) ** 2``."""

    def __call__(self, x: Any, y: Any) -> Tensor:
        return F.square(F.sub(x, y))


class Rint(Primitive):
    """``Rint()(input_x)``: the nearest integer, halves to the even one."""

    def __call__(self, input_x: Any) -> Tensor:
        x = F._tensor(input_x, "Rint", "input_x")
        # floor(x + 0.5) except at exact halves of odd floors, which go down
        up = F.floor(F.add(x, 0.5))
        half = F.equal(F.sub(up, x), 0.5)
        odd = F.not_equal(F.floor_mod(up, 2.0), 0.0)
        return F.select(F.logical_and(half, odd), F.sub(up, 1.0), up)


class Logit(Primitive):
    """``Logit(eps=-1.0)(x)``: ``log(x / (1 - x))``, ``x`` clamped to ``[eps, 1 - eps]``
    unless ``eps`` is negative."""

    def __init__(self, eps: float = -1.0) -> None:
        super().__init__()
        if isinstance(eps, bool) or not isinstance(eps, (int, float)):
            raise TypeError(f"For 'Logit', 'eps' must be a float, but got {type(eps).__name__}.")
        self.eps = float(eps)

    def __call__(self, x: Any) -> Tensor:
        return _fn("logit")(x, None if self.eps < 0 else self.eps)


class NanToNum(Primitive):
    """``NanToNum(nan=None, posinf=None, neginf=None)(x)``: NaN by ``nan`` (0 when None) and
    the infinities by the given values (the dtype's extremes when None)."""

    def __init__(self, nan: Any = None, posinf: Any = None, neginf: Any = None) -> None:
        super().__init__()
        self.nan, self.posinf, self.neginf = nan, posinf, neginf

    def __call__(self, x: Any) -> Tensor:
        return _fn("nan_to_num")(x, 0.0 if self.nan is None else self.nan, self.posinf,
                                 self.neginf)


class Cross(Primitive):
    """``Cross(dim=-65530)(x1, x2)``: the cross product along ``dim`` (by default the first
    axis of length 3)."""

    def __init__(self, dim: int = -65530) -> None:
        super().__init__()
        self.dim = _int_attr("Cross", "dim", dim)

    def __call__(self, x1: Any, x2: Any) -> Tensor:
        return _fn("cross")(x1, x2, None if self.dim == -65530 else self.dim)


class Gelu(Primitive):
    """``Gelu()(x)``: MindSpore's other name of ``GeLU`` (the tanh approximation)."""

    def __call__(self, x: Any) -> Tensor:
        return F.gelu(x, "tanh")


class MatrixPower(Primitive):
    """``MatrixPower(n)(x)``: the ``n``-th power of the (batched) square matrices ``x``
    (a negative ``n`` a power of the inverse)."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = _int_attr("MatrixPower", "n", n)

    def __call__(self, x: Any) -> Tensor:
        return _fn("matrix_power")(x, self.n)


class RaggedRange(Primitive):
    """``RaggedRange(Tsplits)(starts, limits, deltas)``: the ranges ``starts[i],
    starts[i] + deltas[i], ...`` below ``limits[i]`` (above, for a negative delta) as a
    ragged tensor: the tuple ``(rt_nested_splits, rt_dense_values)``, the row boundaries of
    dtype ``Tsplits`` and the values one after another."""

    def __init__(self, Tsplits: Any) -> None:  # noqa: N803
        super().__init__()
        if not isinstance(Tsplits, mstype.DType) or Tsplits not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'RaggedRange', 'Tsplits' must be mindspore.int32 or "
                            f"mindspore.int64, but got {Tsplits!r}.")
        self.Tsplits = Tsplits

    def __call__(self, starts: Any, limits: Any, deltas: Any) -> tuple:
        op = "RaggedRange"
        a, b, d = (F._tensor(v, op, n) for v, n in ((starts, "starts"), (limits, "limits"),
                                                    (deltas, "deltas")))
        if a.ndim > 1 or tuple(b.shape) != tuple(a.shape) or tuple(d.shape) != tuple(a.shape) \
                or not (a.dtype == b.dtype == d.dtype):
            raise ValueError(f"For '{op}', 'starts', 'limits' and 'deltas' must be 0-D or 1-D "
                             f"of one shape and dtype, but got {a.dtype}{list(a.shape)}, "
                             f"{b.dtype}{list(b.shape)} and {d.dtype}{list(d.shape)}.")
        sa, sb, sd = (np.atleast_1d(t.asnumpy()) for t in (a, b, d))
        if np.any(sd == 0):
            raise ValueError(f"For '{op}', 'deltas' must not be 0, but got {sd.tolist()}.")
        counts = np.maximum(np.ceil((sb - sa) / sd), 0).astype(np.int64)
        splits = np.concatenate([[0], np.cumsum(counts)])
        rows = np.repeat(np.arange(len(counts)), counts)
        steps = np.arange(int(splits[-1])) - np.repeat(splits[:-1], counts)
        first = Tensor(rows.astype(np.int64))
        values = F.add(F.gather(F.reshape(a, (-1,)), first, 0),
                       F.mul(F.gather(F.reshape(d, (-1,)), first, 0),
                             Tensor(steps.astype(a.dtype.np_dtype))))
        return Tensor(splits.astype(self.Tsplits.np_dtype)), values


class CompareAndBitpack(Primitive):
    """``CompareAndBitpack()(x, threshold)``: ``x > threshold`` packed 8 to a byte along the
    last axis (first element in the highest bit), as UInt8."""

    def __call__(self, x: Any, threshold: Any) -> Tensor:
        t = F._tensor(x, "CompareAndBitpack")
        if t.ndim < 1 or t.shape[-1] % 8:
            raise ValueError(f"For 'CompareAndBitpack', the last axis of 'x' must be a "
                             f"multiple of 8, but got shape {list(t.shape)}.")
        th = F._tensor(threshold, "CompareAndBitpack", "threshold")
        if th.size != 1:
            raise ValueError(f"For 'CompareAndBitpack', 'threshold' must have one element, but "
                             f"got shape {list(th.shape)}.")
        bits = F.cast(F.greater(t, F.reshape(F.cast(th, t.dtype), ())), mstype.int32)
        bits = F.reshape(bits, tuple(t.shape[:-1]) + (t.shape[-1] // 8, 8))
        weights = Tensor(np.array([128, 64, 32, 16, 8, 4, 2, 1], np.int32))
        return F.cast(F.reduce_sum(F.mul(bits, weights), -1), mstype.uint8)


class SquareSumAll(Primitive):
    """``SquareSumAll()(x, y)``: the tuple ``(sum(x ** 2), sum(y ** 2))``."""

    def __call__(self, x: Any, y: Any) -> tuple:
        x, y = F._tensor(x, "SquareSumAll", "x"), F._tensor(y, "SquareSumAll", "y")
        if tuple(x.shape) != tuple(y.shape):
            raise ValueError(f"For 'SquareSumAll', 'x' and 'y' must have one shape, but got "
                             f"{list(x.shape)} and {list(y.shape)}.")
        if not (x.dtype.is_floating and y.dtype.is_floating):
            raise TypeError(f"For 'SquareSumAll', 'x' and 'y' must be float Tensors, but got "
                            f"{x.dtype} and {y.dtype}.")
        return F.reduce_sum(F.square(x)), F.reduce_sum(F.square(y))


class EqualCount(Primitive):
    """``EqualCount()(x, y)``: the number of equal elements, as a tensor of shape (1,) of
    ``x``'s dtype."""

    def __call__(self, x: Any, y: Any) -> Tensor:
        x, y = F._tensor(x, "EqualCount", "x"), F._tensor(y, "EqualCount", "y")
        if tuple(x.shape) != tuple(y.shape) or x.dtype != y.dtype:
            raise ValueError(f"For 'EqualCount', 'x' and 'y' must have one shape and dtype, "
                             f"but got {x.dtype}{list(x.shape)} and {y.dtype}{list(y.shape)}.")
        n = F.reduce_sum(F.cast(F.equal(x, y), mstype.int64))
        return F.reshape(F.cast(n, x.dtype), (1,))


# --- reductions ---------------------------------------------------------------------------
def _axes(axis: Any, ndim: int) -> Any:
    if isinstance(axis, Tensor):
        axis = tuple(int(v) for v in axis.asnumpy().reshape(-1))
    if isinstance(axis, (tuple, list)):
        return tuple(axis) if axis else tuple(range(ndim))
    return axis


class _Logical(Primitive):
    _which = "all"

    def __init__(self, keep_dims: bool = False) -> None:
        super().__init__()
        self.keep_dims = _flag(type(self).__name__, "keep_dims", keep_dims)

    def __call__(self, x: Any, axis: Any = ()) -> Tensor:
        x = F._tensor(x, type(self).__name__)
        if x.dtype != mstype.bool_:
            raise TypeError(f"For '{type(self).__name__}', 'x' must be a bool Tensor, but got "
                            f"{x.dtype}.")
        return _fn(self._which)(x, _axes(axis, x.ndim), self.keep_dims)


class ReduceAll(_Logical):
    """``ReduceAll(keep_dims=False)(x, axis=())``: logical AND over ``axis`` (all axes when
    empty)."""
    _which = "all"


class ReduceAny(_Logical):
    """``ReduceAny(keep_dims=False)(x, axis=())``: logical OR over ``axis``."""
    _which = "any"


class ReduceStd(Primitive):
    """``ReduceStd(axis=(), unbiased=True, keep_dims=False)(input_x)``: the tuple
    ``(std, mean)`` over ``axis`` (all axes when empty)."""

    def __init__(self, axis: Any = (), unbiased: bool = True, keep_dims: bool = False) -> None:
        super().__init__()
        self.axis = axis
        self.unbiased = _flag("ReduceStd", "unbiased", unbiased)
        self.keep_dims = _flag("ReduceStd", "keep_dims", keep_dims)

    def __call__(self, input_x: Any) -> tuple:
        x = F._tensor(input_x, "ReduceStd", "input_x")
        axis = _axes(self.axis, x.ndim)
        return _fn("std_mean")(x, axis, 1 if self.unbiased else 0, self.keep_dims)


class LpNorm(Primitive):
    """``LpNorm(axis, p=2, keep_dims=False, epsilon=1e-12)(input)``: the ``p``-norm over
    ``axis``."""

    def __init__(self, axis: Any, p: int = 2, keep_dims: bool = False,
                 epsilon: float = 1e-12) -> None:
        super().__init__()
        self.axis = tuple(axis) if isinstance(axis, (tuple, list)) else (
            _int_attr("LpNorm", "axis", axis),)
        self.p = _int_attr("LpNorm", "p", p)
        self.keep_dims = _flag("LpNorm", "keep_dims", keep_dims)
        self.epsilon = float(epsilon)

    def __call__(self, input: Any) -> Tensor:  # noqa: A002
        return _fn("vector_norm")(input, self.p, self.axis, self.keep_dims)


class CumulativeLogsumexp(Primitive):
    """``CumulativeLogsumexp(exclusive=False, reverse=False)(x, axis)``: running
    ``log(sum(exp(x)))`` along ``axis``; exclusive ones start from -inf, reverse ones run
    from the end."""

    def __init__(self, exclusive: bool = False, reverse: bool = False) -> None:
        super().__init__()
        self.exclusive = _flag("CumulativeLogsumexp", "exclusive", exclusive)
        self.reverse = _flag("CumulativeLogsumexp", "reverse", reverse)

    def __call__(self, x: Any, axis: Any) -> Tensor:
        op = "CumulativeLogsumexp"
        x = F._tensor(x, op)
        if isinstance(axis, Tensor):
            axis = int(axis.asnumpy())
        ax = F._axis(axis, x.ndim, op)
        y = F.flip(x, (ax,)) if self.reverse else x
        out = _fn("logcumsumexp")(y, ax)
        if self.exclusive:
            n = out.shape[ax]
            # MindSpore starts from the dtype's lowest finite value, not -inf
            head = F.fill(out.dtype, tuple(1 if a == ax else s for a, s in enumerate(out.shape)),
                          float(np.finfo(out.dtype.np_dtype).min))
            body = F.gather(out, Tensor(np.arange(max(n - 1, 0))), ax)
            out = F.concat((head, body), ax)
        return F.flip(out, (ax,)) if self.reverse else out


# --- segments, searching ------------------------------------------------------------------
class _Segment(Primitive):
    """``Name()(input_x, segment_ids)``: the reduction of the rows of each segment over
    sorted ``segment_ids`` (``segment_ids[-1] + 1`` segments; an empty one gives 0)."""
    _kind = "sum"

    def __call__(self, input_x: Any, segment_ids: Any) -> Tensor:
        op = type(self).__name__
        x = F._tensor(input_x, op, "input_x")
        ids = F._tensor(segment_ids, op, "segment_ids")
        raw = np.asarray(ids.asnumpy())
        if raw.ndim != 1 or raw.shape[0] != (x.shape[0] if x.ndim else -1) or \
                raw.dtype.kind not in "iu":
            raise ValueError(f"For '{op}', 'segment_ids' must be 1-D integers, one per row of "
                             f"'input_x' {list(x.shape)}, but got {raw.dtype}{list(raw.shape)}.")
        if raw.size and (raw[0] < 0 or np.any(np.diff(raw) < 0)):
            raise ValueError(f"For '{op}', 'segment_ids' must be sorted and non-negative, but "
                             f"got {raw.tolist()}.")
        n = int(raw[-1]) + 1 if raw.size else 0
        if self._kind == "mean":
            total = _fn("unsorted_segment_sum")(x, ids, n)
            count = np.bincount(raw, minlength=n).astype(x.dtype.np_dtype)
            shape = (n,) + (1,) * (x.ndim - 1)
            return F.div(total, Tensor(np.maximum(count, 1).reshape(shape)))
        out = _fn(f"unsorted_segment_{self._kind}")(x, ids, n)
        if self._kind in ("max", "min"):
            empty = np.bincount(raw, minlength=n) == 0
            if empty.any():  # MindSpore gives 0 for an empty segment
                mask = Tensor(empty.reshape((n,) + (1,) * (x.ndim - 1)))
                out = F.select(F.broadcast_to(mask, tuple(out.shape)), F.zeros_like(out), out)
        return out


class SegmentSum(_Segment):
    _kind = "sum"


class SegmentMean(_Segment):
    _kind = "mean"


class SegmentMax(_Segment):
    _kind = "max"


class SegmentMin(_Segment):
    _kind = "min"


class SegmentProd(_Segment):
    _kind = "prod"


class SearchSorted(Primitive):
    """``SearchSorted(dtype=mindspore.int64, right=False)(sorted_sequence, values)``."""

    def __init__(self, dtype: Any = mstype.int64, right: bool = False) -> None:
        super().__init__()
        if not isinstance(dtype, mstype.DType) or \
                dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'SearchSorted', 'dtype' must be mindspore.int32 or "
                            f"mindspore.int64, but got {dtype}.")
        self.dtype, self.right = dtype, _flag("SearchSorted", "right", right)

    def __call__(self, sorted_sequence: Any, values: Any) -> Tensor:
        return _fn("searchsorted")(sorted_sequence, values,
                                   out_int32=self.dtype == mstype.int32, right=self.right)


class LowerBound(Primitive):
    """``LowerBound(out_type=mindspore.int32)(sorted_x, values)``: per row, the first
    position of ``sorted_x`` whose value is not less than each of ``values``."""
    _right = False

    def __init__(self, out_type: Any = mstype.int32) -> None:
        super().__init__()
        if not isinstance(out_type, mstype.DType) or \
                out_type not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{type(self).__name__}', 'out_type' must be mindspore.int32 "
                            f"or mindspore.int64, but got {out_type}.")
        self.out_type = out_type

    def __call__(self, sorted_x: Any, values: Any) -> Tensor:
        op = type(self).__name__
        s, v = F._tensor(sorted_x, op, "sorted_x"), F._tensor(values, op, "values")
        if s.ndim != 2 or v.ndim != 2 or s.shape[0] != v.shape[0]:
            raise ValueError(f"For '{op}', 'sorted_x' and 'values' must be 2-D with one number "
                             f"of rows, but got {list(s.shape)} and {list(v.shape)}.")
        out = _fn("searchsorted")(s, v, right=self._right)
        return F.cast(out, self.out_type)


class UpperBound(LowerBound):
    """``UpperBound(out_type=mindspore.int32)(sorted_x, values)``: per row, the first
    position whose value is greater than each of ``values``."""
    _right = True


class Sort(Primitive):
    """``Sort(axis=-1, descending=False)(x)``: the tuple ``(values, indices)``, Int32
    indices."""

    def __init__(self, axis: int = -1, descending: bool = False) -> None:
        super().__init__()
        self.axis = _int_attr("Sort", "axis", axis)
        self.descending = _flag("Sort", "descending", descending)

    def __call__(self, x: Any) -> tuple:
        values, indices = _fn("sort")(x, self.axis, self.descending)
        return values, F.cast(indices, mstype.int32)


class Unique(Primitive):
    """``Unique()(input_x)`` of a 1-D tensor: the tuple ``(y, idx)``, ``y`` the distinct
    values in sorted order and ``idx`` each element's position in ``y``."""

    def __call__(self, input_x: Any) -> tuple:
        x = F._tensor(input_x, "Unique", "input_x")
        if x.ndim != 1:
            raise ValueError(f"For 'Unique', 'input_x' must be 1-D, but got shape "
                             f"{list(x.shape)}.")
        y, idx = _fn("unique")(x)
        return y, F.cast(idx, mstype.int32 if x.dtype != mstype.int64 else mstype.int64)


class InvertPermutation(Primitive):
    """``InvertPermutation()(input_x)`` of a tuple or list of ints: the inverse permutation,
    of the same kind."""

    def __call__(self, input_x: Any) -> Any:
        if isinstance(input_x, Tensor) or not isinstance(input_x, (tuple, list)):
            raise TypeError(f"For 'InvertPermutation', 'input_x' must be a tuple or list of "
                            f"ints (not a Tensor), but got {type(input_x).__name__}.")
        if sorted(input_x) != list(range(len(input_x))):
            raise ValueError(f"For 'InvertPermutation', 'input_x' must be a permutation of "
                             f"0..{len(input_x) - 1}, but got {input_x!r}.")
        out = [0] * len(input_x)
        for k, v in enumerate(input_x):
            out[v] = k
        return type(input_x)(out)


class UnravelIndex(Primitive):
    """``UnravelIndex()(indices, dims)``: the coordinates of the flat ``indices`` in an
    array of shape ``dims``, one row per axis."""

    def __call__(self, indices: Any, dims: Any) -> Tensor:
        op = "UnravelIndex"
        i, d = F._tensor(indices, op, "indices"), F._tensor(dims, op, "dims")
        if i.dtype.is_floating or d.dtype.is_floating or d.ndim != 1 or \
                i.ndim > 1:
            raise TypeError(f"For '{op}', 'indices' (0-D or 1-D) and 'dims' (1-D) must be "
                            f"integers, but got {i.dtype}{list(i.shape)} and "
                            f"{d.dtype}{list(d.shape)}.")
        dims_np = [int(v) for v in d.asnumpy()]
        raw = np.asarray(i.asnumpy())
        if raw.size and (raw.min() < 0 or raw.max() >= int(np.prod(dims_np))):
            raise ValueError(f"For '{op}', 'indices' must be in [0, {int(np.prod(dims_np))}), "
                             f"but got {raw.tolist()}.")
        rows, rest = [], i
        for n in reversed(dims_np):
            rows.append(F.floor_mod(rest, n))
            rest = F.floor_div(rest, n)
        return F.stack(rows[::-1], 0)


__all__ = ["RaggedRange", "CompareAndBitpack", "MatrixPower", "MulNoNan", "SquaredDifference",
           "Rint", "Logit", "NanToNum", "Cross", "Gelu", "SquareSumAll", "EqualCount",
           "ReduceAll", "ReduceAny", "ReduceStd", "LpNorm", "CumulativeLogsumexp",
           "SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd",
           "SearchSorted", "LowerBound", "UpperBound", "Sort", "Unique",
           "InvertPermutation", "UnravelIndex"]
