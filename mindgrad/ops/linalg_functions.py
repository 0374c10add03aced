"""MindSpore's matrix functions beyond the core's: ``ops.mm``, ``tensor_dot``, ``inner``,
``addmm``, ``kron``, ``trace``, ``slogdet``, ``matrix_power`` and ``cdist``, each a
composition of differentiable operators."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.tensor import Tensor
from . import functional as F
from .functional import _composite
from .functional.linalg import tensor_dot  # noqa: F401  (ops.tensor_dot, built on there)


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


@_composite
def inner(input: Any, other: Any) -> Tensor:
    """The sum of products over the last axes of ``input`` and ``other``."""
    a, b = F._strict_tensor(input, "inner", "input"), F._strict_tensor(other, "inner", "other")
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
    if isinstance(input, (bool, int, float)):
        # a Python number is a weak scalar, as in MindSpore: the product's dtype decides
        # (Tensor(-3) would be Int64 and make a float32 product float64)
        return F.add(F.mul(mm(mat1, mat2), alpha), input * beta)
    x = F._tensor(input, "addmm", "input")
    prod = mm(mat1, mat2)
    F._broadcast_shapes("addmm", ("input", x), ("mat1 @ mat2", prod))
    return F.add(F.mul(x, beta), F.mul(prod, alpha))


@_composite
def kron(input: Any, other: Any) -> Tensor:
    """The Kronecker product: block ``(i, j, ...)`` is ``input[i, j, ...] * other``."""
    a, b = F._strict_tensor(input, "kron", "input"), F._strict_tensor(other, "kron", "other")
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
