"""Products and linear algebra: ``dot``, ``matmul``, ``inner``, ``outer``, ``tensordot``,
``kron``, ``multi_dot``, ``cross``, ``trace`` and ``norm`` (vector and matrix norms)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.tensor import Tensor
from .. import ops
from ._utils import as_float, axes_arg, axis_arg, common, to_tensor, with_dtype

__all__ = ["dot", "matmul", "inner", "outer", "tensordot", "kron", "multi_dot", "cross",
           "trace", "norm"]


def _pair(a: Any, b: Any, op: str) -> tuple:
    return tuple(common([to_tensor(a, op, "a"), to_tensor(b, op, "b")]))


def dot(a: Any, b: Any) -> Tensor:
    """NumPy's ``dot``: products of scalars, inner product of vectors, matrix product, and
    for N-D the sum over the last axis of ``a`` and the second-to-last of ``b``."""
    x, y = _pair(a, b, "dot")
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    if y.ndim == 1:
        return ops.tensor_dot(x, y, ((x.ndim - 1,), (0,)))
    return ops.tensor_dot(x, y, ((x.ndim - 1,), (y.ndim - 2,)))


def matmul(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The matrix product with broadcasting over leading axes (1-D operands as vectors)."""
    x, y = _pair(x1, x2, "matmul")
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("For 'matmul', the operands must not be scalars.")
    return with_dtype(ops.matmul(x, y), dtype, "matmul")


def inner(a: Any, b: Any) -> Tensor:
    """The sum of products over the last axes of ``a`` and ``b``."""
    x, y = _pair(a, b, "inner")
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"For 'inner', the last axes of shapes {x.shape} and {y.shape} "
                         f"must agree.")
    return ops.tensor_dot(x, y, ((x.ndim - 1,), (y.ndim - 1,)))


def outer(a: Any, b: Any) -> Tensor:
    """The outer product of the flattened ``a`` and ``b``."""
    x, y = _pair(a, b, "outer")
    return ops.reshape(x, (-1, 1)) * ops.reshape(y, (1, -1))


def tensordot(a: Any, b: Any, axes: Any = 2) -> Tensor:
    """The sum of products over the last ``axes`` axes of ``a`` and the first of ``b`` (an
    int), or over the axes listed as ``(axes_a, axes_b)``."""
    x, y = _pair(a, b, "tensordot")
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0 or n > min(x.ndim, y.ndim):
            raise ValueError(f"For 'tensordot', 'axes' {n} exceeds the ranks of shapes "
                             f"{x.shape} and {y.shape}.")
        axes = (tuple(range(x.ndim - n, x.ndim)), tuple(range(n)))
    else:
        aa, bb = axes
        axes = ((aa,) if isinstance(aa, int) else tuple(aa),
                (bb,) if isinstance(bb, int) else tuple(bb))
    if not axes[0]:
        return ops.reshape(x, x.shape + (1,) * y.ndim) * y
    return ops.tensor_dot(x, y, axes)


def kron(a: Any, b: Any) -> Tensor:
    """The Kronecker product."""
    x, y = _pair(a, b, "kron")
    n = max(x.ndim, y.ndim)
    x = ops.reshape(x, (1,) * (n - x.ndim) + x.shape)
    y = ops.reshape(y, (1,) * (n - y.ndim) + y.shape)
    inter = []
    for i in range(n):
        inter += [x.shape[i], 1]
    yshape = []
    for i in range(n):
        yshape += [1, y.shape[i]]
    prod = ops.reshape(x, tuple(inter)) * ops.reshape(y, tuple(yshape))
    return ops.reshape(prod, tuple(x.shape[i] * y.shape[i] for i in range(n)))


def multi_dot(arrays: Any) -> Tensor:
    """The chained matrix product of the arrays (the first and last may be 1-D)."""
    ts = common([to_tensor(a, "multi_dot", "arrays") for a in arrays])
    if len(ts) < 2:
        raise ValueError("For 'multi_dot', at least two arrays are needed.")
    out = ts[0]
    for t in ts[1:]:
        out = dot(out, t)
    return out


def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: Any = None) -> Tensor:
    """The cross product of 3-vectors (2-vectors count z as 0; two 2-vectors give the z
    component) along the given axes."""
    x, y = _pair(a, b, "cross")
    if axis is not None:
        axisa = axisb = axisc = axis
    x = ops.moveaxis(x, axis_arg(axisa, x.ndim, "cross", "axisa"), -1)
    y = ops.moveaxis(y, axis_arg(axisb, y.ndim, "cross", "axisb"), -1)
    if x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise ValueError(f"For 'cross', the vector axes must have size 2 or 3, but got "
                         f"shapes {x.shape} and {y.shape}.")
    if x.shape[-1] == 2 and y.shape[-1] == 2:
        return x[..., 0] * y[..., 1] - x[..., 1] * y[..., 0]

    def comps(t: Tensor) -> list:
        cs = [t[..., i] for i in range(t.shape[-1])]
        return cs if len(cs) == 3 else cs + [ops.zeros_like(cs[0])]

    (a0, a1, a2), (b0, b1, b2) = comps(x), comps(y)
    out = ops.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], -1)
    return ops.moveaxis(out, -1, axis_arg(axisc, out.ndim, "cross", "axisc"))


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Tensor:
    """The sum along the ``offset``-th diagonal of the planes of ``axis1`` and ``axis2``."""
    t = to_tensor(a, "trace", "a")
    if t.ndim < 2:
        raise ValueError(f"For 'trace', 'a' must have rank >= 2, got shape {t.shape}.")
    d = ops.diagonal(t, int(offset), axis_arg(axis1, t.ndim, "trace", "axis1"),
                     axis_arg(axis2, t.ndim, "trace", "axis2"))
    return with_dtype(ops.sum(d, -1), dtype, "trace")


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Vector norms (``axis`` an int, or None for 1-D input) and matrix norms (two axes, or
    None for 2-D): ``ord`` as in NumPy (None: 2-norm / Frobenius)."""
    t = as_float(to_tensor(x, "norm", "x"))
    if axis is None:
        if ord is not None and t.ndim not in (1, 2):
            raise ValueError(f"For 'norm', 'ord' needs 1-D or 2-D input without 'axis', but "
                             f"got shape {t.shape}.")
        if ord is None:
            out = ops.sqrt(ops.sum(t * t))
            return ops.reshape(out, (1,) * t.ndim) if keepdims else out
        axis = tuple(range(t.ndim))
    ax = axes_arg(axis, t.ndim, "norm") if not isinstance(axis, (list, tuple)) else tuple(
        axis_arg(v, t.ndim, "norm") for v in axis)
    if len(ax) == 1:
        return _vector_norm(t, ord, ax[0], keepdims)
    if len(ax) == 2:
        return ops.norm(t, "fro" if ord is None else ord, ax, bool(keepdims))
    raise ValueError(f"For 'norm', 'axis' must name one or two axes, but got {axis}.")


def _vector_norm(t: Tensor, ord: Any, ax: int, keepdims: bool) -> Tensor:
    keep = bool(keepdims)
    if ord is None or ord == 2:
        return ops.sqrt(ops.sum(t * t, ax, keep))
    if ord == float("inf"):
        return ops.amax(ops.abs(t), ax, keep)
    if ord == -float("inf"):
        return ops.amin(ops.abs(t), ax, keep)
    if ord == 0:
        return ops.sum(ops.ne(t, ops.zeros_like(t)).astype(t.dtype), ax, keep)
    if ord == 1:
        return ops.sum(ops.abs(t), ax, keep)
    if isinstance(ord, str):
        raise ValueError(f"For 'norm', 'ord' {ord!r} is not a vector norm.")
    p = float(ord)
    return ops.pow(ops.sum(ops.pow(ops.abs(t), p), ax, keep), 1.0 / p)
