"""MindSpore's matrix functions beyond the core's: ``ops.mm``, ``tensor_dot``, ``inner``,
``addmm``, ``kron``, ``trace``, ``slogdet``, ``matrix_power`` and ``cdist``, each a
composition of differentiable operators."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.tensor import Tensor
from . import functional as F
from .functional import _composite


@_composite
def mm(input: Any, mat2: Any) -> Tensor:
    """The product of two matrices (both 2-D)."""
    a, b = F._tensor(input, "mm", "input"), F._tensor(mat2, "mm", "mat2")
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"For 'mm', 'input' and 'mat2' must be 2-D, but got shapes "
                         f"{list(a.shape)} and {list(b.shape)}.")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"For 'mm', the columns of 'input' must match the rows of 'mat2', but "
                         f"got shapes {list(a.shape)} and {list(b.shape)}.")
    return F.matmul(a, b)


def _axes_pair(axes: Any, a: Tensor, b: Tensor) -> tuple:
    if F._is_int(axes):
        if not 0 <= axes <= min(a.ndim, b.ndim):
            raise ValueError(f"For 'tensor_dot', an int 'axes' must be in [0, "
                             f"{min(a.ndim, b.ndim)}], but got {axes}.")
        return tuple(range(a.ndim - axes, a.ndim)), tuple(range(axes))
    if isinstance(axes, (tuple, list)) and len(axes) == 2:
        xa, xb = ((ax,) if F._is_int(ax) else ax for ax in axes)
        if isinstance(xa, (tuple, list)) and isinstance(xb, (tuple, list)) and \
                len(xa) == len(xb):
            return (tuple(F._axis(i, a.ndim, "tensor_dot", "axes") for i in xa),
                    tuple(F._axis(i, b.ndim, "tensor_dot", "axes") for i in xb))
    raise TypeError(f"For 'tensor_dot', 'axes' must be an int or a pair of equally long "
                    f"tuples of ints, but got {axes!r}.")


@_composite
def tensor_dot(x1: Any, x2: Any, axes: Any) -> Tensor:
    """The sum over the paired ``axes`` of ``x1`` and ``x2`` of their products (NumPy's
    ``tensordot``): an int ``n`` pairs the last ``n`` axes of ``x1`` with the first ``n``
    of ``x2``."""
    a, b = F._tensor(x1, "tensor_dot", "x1"), F._tensor(x2, "tensor_dot", "x2")
    xa, xb = _axes_pair(axes, a, b)
    if len(set(xa)) != len(xa) or len(set(xb)) != len(xb):
        raise ValueError(f"For 'tensor_dot', 'axes' must not repeat an axis, but got {axes!r}.")
    for i, j in zip(xa, xb):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"For 'tensor_dot', axis {i} of 'x1' {list(a.shape)} and axis {j} "
                             f"of 'x2' {list(b.shape)} must have the same size.")
    free_a = [i for i in range(a.ndim) if i not in xa]
    free_b = [j for j in range(b.ndim) if j not in xb]
    k = math.prod(a.shape[i] for i in xa)
    am = F.reshape(F.transpose(a, tuple(free_a) + xa), (math.prod(a.shape[i] for i in free_a), k))
    bm = F.reshape(F.transpose(b, xb + tuple(free_b)), (k, math.prod(b.shape[j] for j in free_b)))
    out = F.matmul(am, bm)
    return F.reshape(out, tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b))


def np_dot(x: Any, y: Any) -> Tensor:
    """NumPy's ``dot``: the last axis of ``x`` against the second to last of ``y`` (its only
    one when 1-D); the free axes of ``x`` then those of ``y``."""
    a, b = F._tensor(x, "dot", "input"), F._tensor(y, "dot", "other")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"For 'dot', the inputs must not be scalars, but got shapes "
                         f"{list(a.shape)} and {list(b.shape)}.")
    if a.ndim <= 2 and b.ndim <= 2:
        return F.matmul(a, b)
    kb = b.ndim - 2 if b.ndim >= 2 else 0
    if a.shape[-1] != b.shape[kb]:
        raise ValueError(f"For 'dot', the last axis of 'input' {list(a.shape)} must match "
                         f"axis {kb} of 'other' {list(b.shape)}.")
    return tensor_dot(a, b, ((a.ndim - 1,), (kb,)))


@_composite
def inner(input: Any, other: Any) -> Tensor:
    """The sum of products over the last axes of ``input`` and ``other``."""
    a, b = F._tensor(input, "inner", "input"), F._tensor(other, "inner", "other")
    if a.ndim == 0 or b.ndim == 0:
        return F.mul(a, b)
    return tensor_dot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


@_composite
def addmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``."""
    for arg, v in (("beta", beta), ("alpha", alpha)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"For 'addmm', '{arg}' must be a number, but got "
                            f"{type(v).__name__}.")
    x = F._tensor(input, "addmm", "input")
    prod = mm(mat1, mat2)
    F._broadcast_shapes("addmm", ("input", x), ("mat1 @ mat2", prod))
    return F.add(F.mul(x, beta), F.mul(prod, alpha))


@_composite
def kron(input: Any, other: Any) -> Tensor:
    """The Kronecker product: block ``(i, j, ...)`` is ``input[i, j, ...] * other``."""
    a, b = F._tensor(input, "kron", "input"), F._tensor(other, "kron", "other")
    n = max(a.ndim, b.ndim)
    a = F.reshape(a, (1,) * (n - a.ndim) + a.shape)
    b = F.reshape(b, (1,) * (n - b.ndim) + b.shape)
    wa = tuple(v for d in a.shape for v in (d, 1))
    wb = tuple(v for d in b.shape for v in (1, d))
    out = F.mul(F.reshape(a, wa), F.reshape(b, wb))
    return F.reshape(out, tuple(p * q for p, q in zip(a.shape, b.shape)))


@_composite
def trace(input: Any) -> Tensor:
    """The sum of the diagonal of a 2-D ``input``."""
    x = F._tensor(input, "trace", "input")
    if x.ndim != 2:
        raise ValueError(f"For 'trace', 'input' must be 2-D, but got shape {list(x.shape)}.")
    n = min(x.shape)
    if n == 0:
        return F.reduce_sum(F.reshape(x, (0,)))
    diag = Tensor(np.arange(n, dtype=np.int64))
    return F.reduce_sum(F.getitem(x, (diag, diag)))


@_composite
def slogdet(input: Any) -> tuple:
    """``(sign, log|det|)`` of a (batch of) square matrix."""
    d = F.det(input)
    return F.sign(F.stop_gradient(d)), F.log(F.abs(d))


@_composite
def matrix_power(input: Any, n: int) -> Tensor:
    """``input`` multiplied by itself ``n`` times (the identity for 0; the inverse's power
    for a negative ``n``), by repeated squaring."""
    x = F._tensor(input, "matrix_power", "input")
    if not F._is_int(n):
        raise TypeError(f"For 'matrix_power', 'n' must be an int, but got {type(n).__name__}.")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For 'matrix_power', 'input' must be a (batch of) square matrix, but "
                         f"got shape {list(x.shape)}.")
    if n < 0:
        x, n = F.inverse(x), -n
    eye = F.broadcast_to(F.cast(F.eye(x.shape[-1], x.shape[-1], x.dtype), x.dtype), x.shape)
    if n == 0:
        return eye
    out = None
    base = x
    while n:
        if n & 1:
            out = base if out is None else F.matmul(out, base)
        n >>= 1
        if n:
            base = F.matmul(base, base)
    return out


@_composite
def cdist(x1: Any, x2: Any, p: float = 2.0) -> Tensor:
    """The ``p``-norm distances between the rows of ``x1`` ``(..., P, M)`` and those of
    ``x2`` ``(..., R, M)``: ``(..., P, R)``."""
    a, b = F._tensor(x1, "cdist", "x1"), F._tensor(x2, "cdist", "x2")
    if a._data.dtype.kind != "f" or b._data.dtype.kind != "f":
        raise TypeError(f"For 'cdist', 'x1' and 'x2' must be float Tensors, but got {a.dtype} "
                        f"and {b.dtype}.")
    if a.ndim < 2 or b.ndim != a.ndim or a.shape[-1] != b.shape[-1] or \
            a.shape[:-2] != b.shape[:-2]:
        raise ValueError(f"For 'cdist', 'x1' (..., P, M) and 'x2' (..., R, M) must agree in "
                         f"rank, batch and M, but got shapes {list(a.shape)} and "
                         f"{list(b.shape)}.")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0:
        raise ValueError(f"For 'cdist', 'p' must be a non-negative number, but got {p!r}.")
    diff = F.sub(F.expand_dims(a, -2), F.expand_dims(b, -3))
    if p == 2:
        # sqrt of the sum of squares, with 0 (not NaN) as the derivative at a zero distance
        sq = F.reduce_sum(F.square(diff), -1)
        zero = F.equal(sq, 0)
        return F.select(zero, F.zeros_like(sq), F.sqrt(F.select(zero, F.ones_like(sq), sq)))
    return F.norm(diff, float(p), -1)


__all__ = ["mm", "tensor_dot", "inner", "addmm", "kron", "trace", "slogdet", "matrix_power",
           "cdist"]
