"""MindSpore's operator classes of loops (``ForiLoop``, ``WhileLoop``), conversions
(``ScalarToTensor``, ``TupleToArray``, ``TensorShape``, ``DType``), checks
(``CheckNumerics``) and of assorted math (``LogSpace``, ``NthElement``, ``NuclearNorm``,
``ListDiff``, ``TridiagonalMatMul``, ``MatrixSolveLs``, ``EmbeddingLookup``, ``IndexPut``,
``CTCLossV2``) and draws (``RandpermV2``, ``NonDeterministicInts``, ``Cauchy``). Each is a
composition of the functions of ``mindgrad.ops``; a loop runs its Python body eagerly (and
is traced through under ``jit``)."""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...prims.random import draw
from .. import families
from .. import functional as F
from ..primitive import Primitive

_fn = families.function


def _callable(op: str, name: str, f: Any) -> Callable:
    if not callable(f):
        raise TypeError(f"For '{op}', '{name}' must be callable, but got {type(f).__name__}.")
    return f


def _int(op: str, name: str, v: Any) -> int:
    if isinstance(v, Tensor) and v.size == 1 and not v.dtype.is_floating:
        return int(v.asnumpy().reshape(-1)[0])
    if not F._is_int(v):
        raise TypeError(f"For '{op}', '{name}' must be an int, but got {type(v).__name__}.")
    return int(v)


def _real(op: str, name: str, v: Any) -> float:
    """A number, or a Tensor of one real element."""
    if isinstance(v, Tensor) and v.size == 1 and v.dtype != mstype.bool_ and \
            v.dtype.np_dtype.kind in "iuf":
        return float(v.asnumpy().reshape(-1)[0])
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
        return float(v)
    raise TypeError(f"For '{op}', '{name}' must be a number or a Tensor of one element, but "
                    f"got {v!r}.")


class ForiLoop(Primitive):
    """``ForiLoop()(lower, upper, loop_func, init_val, unroll=True)``: ``val = init_val``,
    then ``val = loop_func(i, val)`` for ``i`` from ``lower`` to ``upper - 1``; returns
    ``val``."""

    def __call__(self, lower: Any, upper: Any, loop_func: Any, init_val: Any,
                 unroll: bool = True) -> Any:
        op = "ForiLoop"
        f = _callable(op, "loop_func", loop_func)
        val = init_val
        for i in range(_int(op, "lower", lower), _int(op, "upper", upper)):
            val = f(i, val)
        return val


class WhileLoop(Primitive):
    """``WhileLoop()(cond_func, loop_func, init_val)``: ``val = loop_func(val)`` while
    ``cond_func(val)`` holds; returns ``val``."""

    def __call__(self, cond_func: Any, loop_func: Any, init_val: Any) -> Any:
        cond = _callable("WhileLoop", "cond_func", cond_func)
        body = _callable("WhileLoop", "loop_func", loop_func)
        val = init_val
        while bool(cond(val)):
            val = body(val)
        return val


def _dtype(op: str, dtype: Any) -> Any:
    if not isinstance(dtype, mstype.DType):
        raise TypeError(f"For '{op}', 'dtype' must be a mindspore dtype, but got {dtype!r}.")
    return dtype


class ScalarToTensor(Primitive):
    """``ScalarToTensor()(input_x, dtype=mindspore.float32)``: a 0-D tensor of the number
    ``input_x``."""

    def __call__(self, input_x: Any, dtype: Any = mstype.float32) -> Tensor:
        if isinstance(input_x, bool) or not isinstance(input_x, (int, float)):
            raise TypeError(f"For 'ScalarToTensor', 'input_x' must be an int or a float, but "
                            f"got {type(input_x).__name__}.")
        return Tensor(np.array(input_x, _dtype("ScalarToTensor", dtype).np_dtype))


class TupleToArray(Primitive):
    """``TupleToArray()(input_x)``: the 1-D tensor of a tuple of numbers (Int32 for ints,
    Float32 otherwise)."""

    def __call__(self, input_x: Any) -> Tensor:
        if not isinstance(input_x, (tuple, list)) or not input_x or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in input_x):
            raise TypeError(f"For 'TupleToArray', 'input_x' must be a non-empty tuple of "
                            f"numbers, but got {input_x!r}.")
        ints = all(isinstance(v, int) for v in input_x)
        return Tensor(np.array(input_x, np.int32 if ints else np.float32))


class TensorShape(Primitive):
    """``TensorShape()(input_x)``: the shape as a 1-D Int64 tensor."""

    def __call__(self, input_x: Any) -> Tensor:
        x = F._tensor(input_x, "TensorShape", "input_x")
        return Tensor(np.array(x.shape, np.int64))


class DType(Primitive):
    """``DType()(input_x)``: the dtype of a tensor."""

    def __call__(self, input_x: Any) -> Any:
        return F._tensor(input_x, "DType", "input_x").dtype


class CheckNumerics(Primitive):
    """``CheckNumerics()(x)``: ``x`` itself, or a ValueError when it holds NaN or an
    infinity."""

    def __call__(self, x: Any) -> Tensor:
        t = F._tensor(x, "CheckNumerics")
        if not t.dtype.is_floating:
            raise TypeError(f"For 'CheckNumerics', 'x' must be a float Tensor, but got "
                            f"{t.dtype}.")
        if not bool(np.all(np.isfinite(t.asnumpy()))):
            raise ValueError("For 'CheckNumerics', the input has NaN or infinite values.")
        return t


class Assert(Primitive):
    """``Assert(summarize=3)(condition, input_data)``: nothing when ``condition`` (a bool or
    a Bool tensor of one element) holds; else a ValueError showing the first ``summarize``
    values of each tensor of ``input_data``."""

    def __init__(self, summarize: int = 3) -> None:
        super().__init__()
        self.summarize = _int("Assert", "summarize", summarize)

    def __call__(self, condition: Any, input_data: Any) -> None:
        if isinstance(condition, Tensor):
            if condition.size != 1 or condition.dtype != mstype.bool_:
                raise TypeError(f"For 'Assert', 'condition' must be a bool or a Bool Tensor of "
                                f"one element, but got {condition.dtype}"
                                f"{list(condition.shape)}.")
            condition = bool(condition.asnumpy().reshape(-1)[0])
        if not isinstance(condition, (bool, np.bool_)):
            raise TypeError(f"For 'Assert', 'condition' must be a bool, but got "
                            f"{type(condition).__name__}.")
        if not isinstance(input_data, (tuple, list)):
            raise TypeError(f"For 'Assert', 'input_data' must be a tuple or list of Tensors, "
                            f"but got {type(input_data).__name__}.")
        if not condition:
            shown = [np.asarray(t.asnumpy() if isinstance(t, Tensor) else t).reshape(-1)
                     [:self.summarize].tolist() for t in input_data]
            raise ValueError(f"For 'Assert', the assertion failed; input_data: {shown}.")


class identity(Primitive):  # noqa: N801  (MindSpore's name)
    """``identity()(x)``: ``x`` itself."""

    def __call__(self, x: Any) -> Any:
        return x


class LogSpace(Primitive):
    """``LogSpace(steps=10, base=10, dtype=mindspore.float32)(start, end)``: ``steps``
    numbers ``base ** p`` for ``p`` evenly from ``start`` to ``end``."""

    def __init__(self, steps: int = 10, base: int = 10, dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.steps = _int("LogSpace", "steps", steps)
        self.base = _int("LogSpace", "base", base)
        self.dtype = _dtype("LogSpace", dtype)

    def __call__(self, start: Any, end: Any) -> Tensor:
        s, e = (_real("LogSpace", n, v) for n, v in (("start", start), ("end", end)))
        return _fn("logspace")(s, e, self.steps, self.base, dtype=self.dtype)


class NthElement(Primitive):
    """``NthElement(reverse=False)(input, n)``: the ``n``-th smallest (largest with
    ``reverse``) value along the last axis."""

    def __init__(self, reverse: bool = False) -> None:
        super().__init__()
        self.reverse = F._flag(reverse, "NthElement", "reverse")

    def __call__(self, input: Any, n: Any) -> Tensor:  # noqa: A002
        x = F._tensor(input, "NthElement", "input")
        k = _int("NthElement", "n", n)
        if x.ndim < 1 or not 0 <= k < x.shape[-1]:
            top = x.shape[-1] if x.ndim else 0
            raise ValueError(f"For 'NthElement', 'n' must be in [0, {top}) for 'input' of "
                             f"shape {list(x.shape)}, but got {k}.")
        values = _fn("sort")(x, -1, self.reverse)[0]
        return F.squeeze(F.gather(values, Tensor(np.array([k])), x.ndim - 1), x.ndim - 1)


class NuclearNorm(Primitive):
    """``NuclearNorm(dim=None, keepdim=False)(input)``: the sum of the singular values over
    the two axes ``dim`` (the last two by default)."""

    def __init__(self, dim: Any = None, keepdim: bool = False) -> None:
        super().__init__()
        self.dim = (0, 1) if dim is None else tuple(dim)
        self.keepdim = F._flag(keepdim, "NuclearNorm", "keepdim")

    def __call__(self, input: Any) -> Tensor:  # noqa: A002
        x = F._tensor(input, "NuclearNorm", "input")
        return _fn("matrix_norm")(x, "nuc", self.dim, self.keepdim)


class ListDiff(Primitive):
    """``ListDiff(out_idx=mindspore.int32)(x, y)``: the tuple ``(out, idx)`` of the values
    of the 1-D ``x`` that are not in ``y``, in order, and their positions in ``x``."""

    def __init__(self, out_idx: Any = mstype.int32) -> None:
        super().__init__()
        if not isinstance(out_idx, mstype.DType) or out_idx not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'ListDiff', 'out_idx' must be mindspore.int32 or "
                            f"mindspore.int64, but got {out_idx!r}.")
        self.out_idx = out_idx

    def __call__(self, x: Any, y: Any) -> tuple:
        a, b = F._tensor(x, "ListDiff", "x"), F._tensor(y, "ListDiff", "y")
        if a.ndim != 1 or b.ndim != 1 or a.dtype != b.dtype:
            raise ValueError(f"For 'ListDiff', 'x' and 'y' must be 1-D of one dtype, but got "
                             f"{a.dtype}{list(a.shape)} and {b.dtype}{list(b.shape)}.")
        keep = np.flatnonzero(~np.isin(a.asnumpy(), b.asnumpy()))
        idx = Tensor(keep.astype(self.out_idx.np_dtype))
        return F.gather(a, idx, 0), idx


class TridiagonalMatMul(Primitive):
    """``TridiagonalMatMul()(superdiag, maindiag, subdiag, rhs)``: the product of the
    tridiagonal matrices given by their three diagonals (each of shape (..., 1, M); the
    super-diagonal's last and the sub-diagonal's first entry unused) with ``rhs``
    (..., M, N)."""

    def __call__(self, superdiag: Any, maindiag: Any, subdiag: Any, rhs: Any) -> Tensor:
        op = "TridiagonalMatMul"
        up, mid, low = (F._tensor(v, op, n) for v, n in ((superdiag, "superdiag"),
                                                         (maindiag, "maindiag"),
                                                         (subdiag, "subdiag")))
        r = F._tensor(rhs, op, "rhs")
        if up.ndim < 2 or r.ndim < 2 or any(tuple(t.shape) != tuple(up.shape)
                                            for t in (mid, low)) or \
                up.shape[-2] != 1 or up.shape[-1] != r.shape[-2]:
            raise ValueError(f"For '{op}', the diagonals must have one shape (..., 1, M) and "
                             f"'rhs' (..., M, N), but got {list(up.shape)}, {list(mid.shape)}, "
                             f"{list(low.shape)} and {list(r.shape)}.")
        m = r.shape[-2]
        col = (lambda t: F.swapaxes(t, -1, -2))  # (..., M, 1)
        out = F.mul(col(mid), r)
        if m > 1:
            below = F.gather(r, Tensor(np.arange(1, m)), r.ndim - 2)
            above = F.gather(r, Tensor(np.arange(m - 1)), r.ndim - 2)
            zero = F.zeros_like(F.gather(r, Tensor(np.array([0])), r.ndim - 2))
            up_part = F.mul(col(up), F.concat((below, zero), r.ndim - 2))
            low_part = F.mul(col(low), F.concat((zero, above), r.ndim - 2))
            out = F.add(out, F.add(up_part, low_part))
        return out


class MatrixSolveLs(Primitive):
    """``MatrixSolveLs(fast=True)(matrix, rhs, l2)``: the least-squares solution of
    ``matrix @ x = rhs`` with the ridge term ``l2``, from the normal equations
    ``(A^T A + l2 I) x = A^T b``."""

    def __init__(self, fast: bool = True) -> None:
        super().__init__()
        self.fast = F._flag(fast, "MatrixSolveLs", "fast")

    def __call__(self, matrix: Any, rhs: Any, l2: Any) -> Tensor:
        op = "MatrixSolveLs"
        a, b = F._tensor(matrix, op, "matrix"), F._tensor(rhs, op, "rhs")
        if a.ndim < 2 or b.ndim < 2 or a.shape[-2] != b.shape[-2]:
            raise ValueError(f"For '{op}', 'matrix' (..., M, N) and 'rhs' (..., M, K) must "
                             f"have one number of rows, but got {list(a.shape)} and "
                             f"{list(b.shape)}.")
        lam = _real(op, "l2", l2)
        at = F.swapaxes(a, -1, -2)
        gram = F.matmul(at, a)
        if lam:
            gram = F.add(gram, Tensor(lam * np.eye(a.shape[-1], dtype=a.dtype.np_dtype)))
        return _fn("matrix_solve")(gram, F.matmul(at, b))


class EmbeddingLookup(Primitive):
    """``EmbeddingLookup()(input_params, input_indices, offset)``: the rows
    ``input_indices - offset`` of ``input_params``; rows outside the table are zeros."""

    def __call__(self, input_params: Any, input_indices: Any, offset: Any) -> Tensor:
        op = "EmbeddingLookup"
        p = F._tensor(input_params, op, "input_params")
        i = F._tensor(input_indices, op, "input_indices")
        if i.dtype.is_floating or p.ndim < 1:
            raise TypeError(f"For '{op}', 'input_indices' must be integers and 'input_params' "
                            f"at least 1-D, but got {i.dtype} and {list(p.shape)}.")
        j = F.sub(i, _int(op, "offset", offset))
        inside = F.logical_and(F.greater_equal(j, 0), F.less(j, p.shape[0]))
        rows = F.gather(p, F.select(inside, j, F.zeros_like(j)), 0)
        mask = F.reshape(inside, tuple(inside.shape) + (1,) * (p.ndim - 1))
        return F.select(F.broadcast_to(mask, tuple(rows.shape)), rows, F.zeros_like(rows))


class IndexPut(Primitive):
    """``IndexPut(accumulate=0)(x1, x2, indices)``: ``x1`` with the elements at the index
    tensors ``indices`` (one per leading axis) set to ``x2`` (added with ``accumulate``)."""

    def __init__(self, accumulate: int = 0) -> None:
        super().__init__()
        if accumulate not in (0, 1) or isinstance(accumulate, float):
            raise ValueError(f"For 'IndexPut', 'accumulate' must be 0 or 1, but got "
                             f"{accumulate!r}.")
        self.accumulate = int(accumulate)

    def __call__(self, x1: Any, x2: Any, indices: Any) -> Tensor:
        op = "IndexPut"
        x, v = F._tensor(x1, op, "x1"), F._tensor(x2, op, "x2")
        if not isinstance(indices, (tuple, list)) or not indices or \
                len(indices) > x.ndim or not all(isinstance(t, Tensor) and
                                                 not t.dtype.is_floating for t in indices):
            raise TypeError(f"For '{op}', 'indices' must be a tuple of at most {x.ndim} "
                            f"integer Tensors, but got {indices!r}.")
        idx = F.stack([F.cast(t, mstype.int64) for t in indices], -1)
        target = tuple(idx.shape[:-1]) + tuple(x.shape[len(indices):])
        try:
            if np.broadcast_shapes(tuple(v.shape), target) != target:
                raise ValueError
        except ValueError:
            raise ValueError(f"For '{op}', 'x2' of shape {list(v.shape)} can not be broadcast "
                             f"to the indexed shape {list(target)}.") from None
        upd = F.broadcast_to(F.cast(v, x.dtype), target)
        if self.accumulate:
            return F.tensor_scatter_add(x, idx, upd)
        return F.tensor_scatter_update(x, idx, upd)


class CTCLossV2(Primitive):
    """``CTCLossV2(blank=0, reduction='none', zero_infinity=False)(log_probs, targets,
    input_lengths, target_lengths)``: the tuple ``(neg_log_likelihood, log_alpha)``."""

    def __init__(self, blank: int = 0, reduction: str = "none",
                 zero_infinity: bool = False) -> None:
        super().__init__()
        self.blank = _int("CTCLossV2", "blank", blank)
        if not isinstance(reduction, str) or reduction not in ("none", "mean", "sum"):
            raise ValueError(f"For 'CTCLossV2', 'reduction' must be 'none', 'mean' or 'sum', "
                             f"but got {reduction!r}.")
        self.reduction = reduction
        self.zero_infinity = F._flag(zero_infinity, "CTCLossV2", "zero_infinity")

    def __call__(self, log_probs: Any, targets: Any, input_lengths: Any,
                 target_lengths: Any) -> tuple:
        return _fn("ctc_loss")(log_probs, targets, input_lengths, target_lengths, self.blank,
                               self.reduction, self.zero_infinity)


def _seed_pair(op: str, seed: Any, offset: Any) -> Any:
    for name, v in (("seed", seed), ("offset", offset)):
        if not F._is_int(v) or v < 0:
            raise ValueError(f"For '{op}', '{name}' must be a non-negative int, but got {v!r}.")
    return None if not seed and not offset else int(seed) * 1000003 + int(offset)


class RandpermV2(Primitive):
    """``RandpermV2(seed=0, offset=0, dtype=mindspore.int64)(n)``: a random permutation of
    ``0 .. n - 1``."""

    def __init__(self, seed: int = 0, offset: int = 0, dtype: Any = mstype.int64) -> None:
        super().__init__()
        self.seed, self.offset = seed, offset
        self._stream = _seed_pair("RandpermV2", seed, offset)
        self.dtype = _dtype("RandpermV2", dtype)

    def __call__(self, n: Any) -> Tensor:
        k = _int("RandpermV2", "n", n)
        if k < 0:
            raise ValueError(f"For 'RandpermV2', 'n' must be non-negative, but got {k}.")
        F._sizes((k,), "RandpermV2", "n")
        u = draw(shape=(k,), kind="uniform", dtype=np.dtype(np.float64), seed=self._stream)
        return F.cast(_fn("sort")(u)[1], self.dtype)


class NonDeterministicInts(Primitive):
    """``NonDeterministicInts(dtype=mindspore.int64)(shape)``: integers drawn uniformly
    over the whole range of ``dtype`` (Int32 or Int64)."""

    def __init__(self, dtype: Any = mstype.int64) -> None:
        super().__init__()
        if not isinstance(dtype, mstype.DType) or dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'NonDeterministicInts', 'dtype' must be mindspore.int32 or "
                            f"mindspore.int64, but got {dtype!r}.")
        self.dtype = dtype

    def __call__(self, shape: Any) -> Tensor:
        if isinstance(shape, Tensor):
            shape = tuple(int(v) for v in shape.asnumpy().reshape(-1))
        size = F._sizes(F._shape_arg(shape, "NonDeterministicInts", "shape"),
                        "NonDeterministicInts", "shape")
        info = np.iinfo(self.dtype.np_dtype)
        return draw(shape=size, kind="integers", dtype=np.dtype(self.dtype.np_dtype), seed=None,
                    low=int(info.min), high=int(info.max))


class Cauchy(Primitive):
    """``Cauchy(size, median=0.0, sigma=1.0)()``: Float32 draws from the Cauchy
    distribution, ``median + sigma * tan(pi * (u - 1/2))``."""

    def __init__(self, size: Any, median: float = 0.0, sigma: float = 1.0) -> None:
        super().__init__()
        if not isinstance(size, list) or not all(F._is_int(v) and v > 0 for v in size):
            raise TypeError(f"For 'Cauchy', 'size' must be a list of positive ints, but got "
                            f"{size!r}.")
        for name, v in (("median", median), ("sigma", sigma)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"For 'Cauchy', '{name}' must be a float, but got "
                                f"{type(v).__name__}.")
        self.size, self.median, self.sigma = list(size), float(median), float(sigma)

    def __call__(self) -> Tensor:
        u = draw(shape=tuple(self.size), kind="uniform", dtype=np.dtype(np.float32), seed=None)
        return F.add(F.mul(F.tan(F.mul(F.sub(u, 0.5), math.pi)), self.sigma), self.median)


class ParallelConcat(Primitive):
    """``ParallelConcat()(values)``: the tensors of ``values``, each of first axis 1,
    concatenated along that axis."""

    def __call__(self, values: Any) -> Tensor:
        if not isinstance(values, (tuple, list)) or not values or not all(
                isinstance(t, Tensor) and t.ndim >= 1 and t.shape[0] == 1 for t in values):
            raise ValueError("For 'ParallelConcat', 'values' must be a tuple of Tensors whose "
                             "first axis has length 1.")
        return F.concat(tuple(values), 0)


__all__ = ["Assert", "identity", "ForiLoop", "WhileLoop", "ScalarToTensor", "TupleToArray",
           "TensorShape", "DType", "CheckNumerics", "LogSpace", "NthElement",
           "NuclearNorm", "ListDiff", "TridiagonalMatMul", "MatrixSolveLs",
           "EmbeddingLookup", "IndexPut", "CTCLossV2", "RandpermV2",
           "NonDeterministicInts", "Cauchy", "ParallelConcat"]
