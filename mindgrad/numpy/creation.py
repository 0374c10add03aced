"""Array creation: ``array``, ``zeros``, ``arange``, ``linspace``, ``eye``, the triangles
and diagonals, grids and index arrays, Vandermonde matrices and the window functions.

As in MindSpore's module, Python floats give float32 and Python ints int32; the functions
that take a ``dtype`` default to float32 where MindSpore's do (``zeros``, ``ones``, ``eye``
...). Values built from Tensor arguments (``linspace`` of Tensor ends, ``diag``, ``tril``
...) are compositions of differentiable operators."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from .. import ops
from ._utils import (as_float, axis_arg, ms_dtype, np_dtype, shape_arg, to_tensor,
                     with_dtype)

__all__ = ["array", "asarray", "asfarray", "zeros", "ones", "full", "empty",
           "zeros_like", "ones_like", "full_like", "empty_like", "arange", "linspace",
           "logspace", "geomspace", "eye", "identity", "tri", "tril", "triu", "diag",
           "diagflat", "diag_indices", "indices", "meshgrid", "mgrid", "ogrid", "ix_",
           "vander", "tril_indices", "triu_indices", "tril_indices_from",
           "triu_indices_from", "bartlett", "blackman", "hamming", "hanning"]


def array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> Tensor:
    """A Tensor from a Tensor, a number or a (nested) list or tuple, cast to ``dtype`` and
    given at least ``ndmin`` dimensions (new ones in front)."""
    t = to_tensor(obj, "array", "obj")
    if copy and t is obj:
        t = t.copy()
    t = with_dtype(t, dtype, "array")
    if not isinstance(ndmin, int) or isinstance(ndmin, bool):
        raise TypeError(f"For 'array', 'ndmin' must be an int, but got {ndmin!r}.")
    if t.ndim < ndmin:
        t = ops.reshape(t, (1,) * (ndmin - t.ndim) + t.shape)
    return t


def asarray(a: Any, dtype: Any = None) -> Tensor:
    """``a`` as a Tensor (the same Tensor when it is one of ``dtype`` already)."""
    return with_dtype(to_tensor(a, "asarray", "a"), dtype, "asarray")


def asfarray(a: Any, dtype: Any = mstype.float32) -> Tensor:
    """``a`` as a floating Tensor; an integer ``dtype`` becomes float32."""
    if np_dtype(dtype, "asfarray").kind != "f":
        dtype = mstype.float32
    return with_dtype(to_tensor(a, "asfarray", "a"), dtype, "asfarray")


def _filled(shape: Any, value: Any, dtype: Any, op: str) -> Tensor:
    shape = shape_arg(shape, op)
    return Tensor(np.full(shape, value, dtype=np_dtype(dtype, op)))


def zeros(shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """A Tensor of zeros."""
    return _filled(shape, 0, dtype, "zeros")


def ones(shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """A Tensor of ones."""
    return _filled(shape, 1, dtype, "ones")


def empty(shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """A Tensor of the shape; its values are zeros (MindSpore's are unspecified)."""
    return _filled(shape, 0, dtype, "empty")


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """A Tensor filled with ``fill_value``: a number, or a Tensor broadcast to ``shape``
    (differentiable in it). Without ``dtype``: bool, int32 or float32 by the value's type,
    or the Tensor's dtype."""
    shape = shape_arg(shape, "full")
    v = to_tensor(fill_value, "full", "fill_value")
    if isinstance(fill_value, Tensor):
        return with_dtype(ops.broadcast_to(v, shape), dtype, "full")
    dt = v.dtype if dtype is None else ms_dtype(dtype, "full")
    return Tensor(np.broadcast_to(v.asnumpy().astype(dt.np_dtype), shape).copy())


def _like(a: Any, dtype: Any, shape: Any, op: str) -> tuple:
    t = to_tensor(a, op, "a")
    sh = t.shape if shape is None else shape_arg(shape, op)
    return sh, (t.dtype if dtype is None else dtype)


def zeros_like(a: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """Zeros of ``a``'s shape and dtype (or the ones given)."""
    sh, dt = _like(a, dtype, shape, "zeros_like")
    return _filled(sh, 0, dt, "zeros_like")


def ones_like(a: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """Ones of ``a``'s shape and dtype (or the ones given)."""
    sh, dt = _like(a, dtype, shape, "ones_like")
    return _filled(sh, 1, dt, "ones_like")


def empty_like(prototype: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """A Tensor of ``prototype``'s shape and dtype (zeros)."""
    sh, dt = _like(prototype, dtype, shape, "empty_like")
    return _filled(sh, 0, dt, "empty_like")


def full_like(a: Any, fill_value: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """``fill_value`` in ``a``'s shape and dtype (or the ones given)."""
    sh, dt = _like(a, dtype, shape, "full_like")
    return full(sh, fill_value, dt)


def _number(v: Any, op: str, arg: str) -> Any:
    if isinstance(v, Tensor):
        if v.size != 1:
            raise ValueError(f"For '{op}', '{arg}' must be a scalar, but got shape {v.shape}.")
        return v.asnumpy().reshape(()).item()
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"For '{op}', '{arg}' must be a number, but got {type(v).__name__}.")
    return v.item() if isinstance(v, np.generic) else v


def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> Tensor:
    """Evenly spaced values in ``[start, stop)``; int32 when every bound is an int, float32
    otherwise (unless ``dtype``)."""
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    vals = [_number(v, "arange", n) for v, n in ((start, "start"), (stop, "stop"),
                                                    (step, "step"))]
    if vals[2] == 0:
        raise ValueError("For 'arange', 'step' must not be zero.")
    ints = all(isinstance(v, int) for v in vals)
    out = np.arange(*vals, dtype=np.int64 if ints else np.float64)
    dt = (mstype.int32 if ints else mstype.float32) if dtype is None else ms_dtype(dtype, "arange")
    return Tensor(out.astype(dt.np_dtype))


def _ends(start: Any, stop: Any, op: str) -> tuple:
    """The two ends as float Tensors of one shape (differentiable when given as Tensors)."""
    a = as_float(to_tensor(start, op, "start"))
    b = as_float(to_tensor(stop, op, "stop"))
    shape = np.broadcast_shapes(a.shape, b.shape)
    return ops.broadcast_to(a, shape), ops.broadcast_to(b, shape)


def _count(num: Any, op: str) -> int:
    if isinstance(num, bool) or not isinstance(num, (int, np.integer)) or num < 0:
        raise ValueError(f"For '{op}', 'num' must be a non-negative int, but got {num!r}.")
    return int(num)


def _spaced(start: Any, stop: Any, num: int, endpoint: bool, axis: int, op: str) -> tuple:
    a, b = _ends(start, stop, op)
    div = (num - 1) if endpoint else num
    step = (b - a) / div if div > 0 else b - a
    k = Tensor(np.arange(num, dtype=a.dtype.np_dtype).reshape((num,) + (1,) * a.ndim))
    out = ops.expand_dims(a, 0) + k * ops.expand_dims(step, 0)
    if endpoint and num > 1:  # the last point is exactly ``stop``
        out = ops.concat([out[:-1], ops.expand_dims(b, 0)], 0)
    ax = axis_arg(axis, out.ndim, op)
    if ax:
        out = ops.moveaxis(out, 0, ax)
    return out, step


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True,
             retstep: bool = False, dtype: Any = None, axis: int = 0) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop`` (Tensor ends give one row per
    element along ``axis``); float32 by default; ``retstep`` also returns the spacing."""
    num = _count(num, "linspace")
    out, step = _spaced(start, stop, num, endpoint, axis, "linspace")
    # an integer dtype truncates toward zero, as MindSpore's cast does (NumPy 2 floors)
    out = with_dtype(out, dtype, "linspace")
    return (out, step) if retstep else out


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: Any = 10.0,
             dtype: Any = None, axis: int = 0) -> Tensor:
    """``base`` to the powers ``linspace(start, stop, num)``."""
    num = _count(num, "logspace")
    exps, _ = _spaced(start, stop, num, endpoint, axis, "logspace")
    return with_dtype(ops.pow(as_float(to_tensor(base, "logspace", "base")), exps), dtype,
                      "logspace")


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> Tensor:
    """``num`` values in geometric progression from ``start`` to ``stop``."""
    num = _count(num, "geomspace")
    a, b = _ends(start, stop, "geomspace")
    # two negative ends: the progression between their magnitudes, negated (ends of
    # opposite signs give NaN between them, as in NumPy)
    both_negative = ops.logical_and(ops.lt(a, ops.zeros_like(a)), ops.lt(b, ops.zeros_like(b)))
    sign = ops.where(both_negative, -ops.ones_like(a), ops.ones_like(a))
    exps, _ = _spaced(ops.log(a * sign), ops.log(b * sign), num, endpoint, 0, "geomspace")
    out = ops.exp(exps) * sign
    if num:  # the ends exactly
        pieces = [ops.expand_dims(a, 0)]
        if endpoint and num > 1:
            pieces += [out[1:-1], ops.expand_dims(b, 0)]
        else:
            pieces.append(out[1:])
        out = ops.concat(pieces, 0)
    ax = axis_arg(axis, out.ndim, "geomspace")
    if ax:
        out = ops.moveaxis(out, 0, ax)
    return with_dtype(out, dtype, "geomspace")


def _dim(v: Any, op: str, arg: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
        raise ValueError(f"For '{op}', '{arg}' must be a non-negative int, but got {v!r}.")
    return int(v)


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = mstype.float32) -> Tensor:
    """Ones on the ``k``-th diagonal of an ``N`` x ``M`` matrix."""
    n = _dim(N, "eye", "N")
    m = n if M is None else _dim(M, "eye", "M")
    return Tensor(np.eye(n, m, int(k), dtype=np_dtype(dtype, "eye")))


def identity(n: int, dtype: Any = mstype.float32) -> Tensor:
    """The ``n`` x ``n`` identity matrix."""
    return eye(n, dtype=dtype)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = mstype.float32) -> Tensor:
    """Ones on and below the ``k``-th diagonal."""
    n = _dim(N, "tri", "N")
    m = n if M is None else _dim(M, "tri", "M")
    return Tensor(np.tri(n, m, int(k), dtype=np_dtype(dtype, "tri")))


def _triangle(m: Any, k: int, lower: bool, op: str) -> Tensor:
    t = to_tensor(m, op, "m")
    if t.ndim < 2:
        if t.ndim == 0:
            raise ValueError(f"For '{op}', 'm' must have rank >= 1, but got a scalar.")
        t = ops.broadcast_to(t, (t.shape[0], t.shape[0]))
    return ops.tril(t, int(k)) if lower else ops.triu(t, int(k))


def tril(m: Any, k: int = 0) -> Tensor:
    """``m`` with the elements above the ``k``-th diagonal zeroed (1-D: of its square)."""
    return _triangle(m, k, True, "tril")


def triu(m: Any, k: int = 0) -> Tensor:
    """``m`` with the elements below the ``k``-th diagonal zeroed (1-D: of its square)."""
    return _triangle(m, k, False, "triu")


def diag(v: Any, k: int = 0) -> Tensor:
    """The ``k``-th diagonal of a 2-D ``v``, or the matrix with 1-D ``v`` on it."""
    t = to_tensor(v, "diag", "v")
    k = int(k)
    if t.ndim == 1:
        n = t.shape[0] + abs(k)
        rows = np.arange(t.shape[0]) + max(-k, 0)
        cols = np.arange(t.shape[0]) + max(k, 0)
        flat = Tensor((rows * n + cols).reshape(-1, 1).astype(np.int64))
        return ops.reshape(ops.scatter_nd(flat, t, (n * n,)), (n, n))
    if t.ndim == 2:
        return ops.diagonal(t, k, 0, 1)
    raise ValueError(f"For 'diag', 'v' must be 1-D or 2-D, but got shape {t.shape}.")


def diagflat(v: Any, k: int = 0) -> Tensor:
    """The matrix with the flattened ``v`` on its ``k``-th diagonal."""
    return diag(ops.reshape(to_tensor(v, "diagflat", "v"), (-1,)), k)


def diag_indices(n: int, ndim: int = 2) -> tuple:
    """The index arrays of the main diagonal of an ``n``-sided ``ndim``-D array."""
    i = Tensor(np.arange(_dim(n, "diag_indices", "n"), dtype=np.int32))
    return tuple(i for _ in range(_dim(ndim, "diag_indices", "ndim")))


def indices(dimensions: Any, dtype: Any = mstype.int32, sparse: bool = False) -> Any:
    """The grid of indices of an array of shape ``dimensions``: one array per axis (of the
    full shape, or with ``sparse`` broadcastable ones), in a tuple as MindSpore returns
    them (NumPy stacks the full ones)."""
    dims = shape_arg(dimensions, "indices")
    grids = np.indices(dims, dtype=np_dtype(dtype, "indices"), sparse=bool(sparse))
    return tuple(Tensor(np.ascontiguousarray(g)) for g in grids)


def meshgrid(*xi: Any, sparse: bool = False, indexing: str = "xy") -> tuple:
    """Coordinate matrices from coordinate vectors (``xy``: Cartesian, ``ij``: matrix)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'meshgrid', 'indexing' must be 'xy' or 'ij', but got "
                         f"{indexing!r}.")
    ts = [ops.reshape(to_tensor(x, "meshgrid", "xi"), (-1,)) for x in xi]
    n = len(ts)
    shapes = []
    for i, t in enumerate(ts):
        sh = [1] * n
        sh[i] = t.shape[0]
        if indexing == "xy" and n >= 2 and i < 2:
            sh[0], sh[1] = sh[1], sh[0]
        shapes.append(tuple(sh))
    out = [ops.reshape(t, s) for t, s in zip(ts, shapes)]
    if sparse:
        return tuple(out)
    full_shape = tuple(max(s[d] for s in shapes) for d in range(n))
    return tuple(ops.broadcast_to(t, full_shape) for t in out)


class _Grid:
    """``mgrid[...]`` / ``ogrid[...]``: grids from slices (a complex step is a count)."""

    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, key: Any) -> Any:
        one = not isinstance(key, tuple)
        keys = (key,) if one else key
        axes = []
        for s in keys:
            if not isinstance(s, slice):
                raise TypeError(f"'{'ogrid' if self.sparse else 'mgrid'}' takes slices, "
                                f"but got {type(s).__name__}.")
            start = 0 if s.start is None else s.start
            step = 1 if s.step is None else s.step
            if isinstance(step, complex):
                axes.append(linspace(start, s.stop, int(abs(step))))
            else:
                axes.append(arange(start, s.stop, step))
        if one:
            return axes[0]
        dt = mstype.float32 if any(a.dtype.is_floating for a in axes) else mstype.int32
        axes = [a.astype(dt) for a in axes]
        grids = meshgrid(*axes, sparse=self.sparse, indexing="ij")
        return list(grids) if self.sparse else ops.stack(list(grids), 0)


mgrid = _Grid(False)
ogrid = _Grid(True)


def ix_(*args: Any) -> tuple:
    """Open-mesh index arrays from 1-D sequences: the k-th keeps its values along axis k."""
    n = len(args)
    out = []
    for k, a in enumerate(args):
        t = to_tensor(a, "ix_", "args")
        if t.ndim != 1:
            raise ValueError(f"For 'ix_', every argument must be 1-D, but argument {k} has "
                             f"shape {t.shape}.")
        out.append(ops.reshape(t, (1,) * k + (t.shape[0],) + (1,) * (n - k - 1)))
    return tuple(out)


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of 1-D ``x``: columns are powers of ``x`` (highest first
    unless ``increasing``)."""
    t = to_tensor(x, "vander", "x")
    if t.ndim != 1:
        raise ValueError(f"For 'vander', 'x' must be 1-D, but got shape {t.shape}.")
    n = t.shape[0] if N is None else _dim(N, "vander", "N")
    powers = np.arange(n)
    if not increasing:
        powers = powers[::-1]
    cols = [ops.ones_like(t) if p == 0 else t ** int(p) for p in powers]
    return ops.stack(cols, 1) if cols else Tensor(np.zeros((t.shape[0], 0), t.dtype.np_dtype))


def _tri_indices(n: int, k: int, m: Any, lower: bool, op: str) -> tuple:
    n = _dim(n, op, "n")
    m = n if m is None else _dim(m, op, "m")
    rows, cols = (np.tril_indices if lower else np.triu_indices)(n, int(k), m)
    return Tensor(rows.astype(np.int32)), Tensor(cols.astype(np.int32))


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple:
    """The row and column indices of the lower triangle of an ``n`` x ``m`` matrix."""
    return _tri_indices(n, k, m, True, "tril_indices")


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple:
    """The row and column indices of the upper triangle of an ``n`` x ``m`` matrix."""
    return _tri_indices(n, k, m, False, "triu_indices")


def _from(arr: Any, op: str) -> tuple:
    t = to_tensor(arr, op, "arr")
    if t.ndim != 2:
        raise ValueError(f"For '{op}', 'arr' must be 2-D, but got shape {t.shape}.")
    return t.shape


def tril_indices_from(arr: Any, k: int = 0) -> tuple:
    """``tril_indices`` for the shape of the 2-D ``arr``."""
    n, m = _from(arr, "tril_indices_from")
    return tril_indices(n, k, m)


def triu_indices_from(arr: Any, k: int = 0) -> tuple:
    """``triu_indices`` for the shape of the 2-D ``arr``."""
    n, m = _from(arr, "triu_indices_from")
    return triu_indices(n, k, m)


def _window(M: Any, fn: Any, op: str) -> Tensor:
    if isinstance(M, bool) or not isinstance(M, (int, np.integer)):
        raise TypeError(f"For '{op}', 'M' must be an int, but got {type(M).__name__}.")
    if M < 1:
        return Tensor(np.zeros(0, np.float32))
    if M == 1:
        return Tensor(np.ones(1, np.float32))
    return Tensor(fn(int(M)).astype(np.float32))


def bartlett(M: int) -> Tensor:
    """The Bartlett (triangular) window of ``M`` points."""
    return _window(M, np.bartlett, "bartlett")


def blackman(M: int) -> Tensor:
    """The Blackman window of ``M`` points."""
    return _window(M, np.blackman, "blackman")


def hamming(M: int) -> Tensor:
    """The Hamming window of ``M`` points."""
    return _window(M, np.hamming, "hamming")


def hanning(M: int) -> Tensor:
    """The Hann window of ``M`` points."""
    return _window(M, np.hanning, "hanning")

