"""MindSpore's decompositions and solvers beyond the core's: ``qr``, ``eig``, ``eigvals``,
``pinv``, ``lstsq``, ``matrix_solve``, ``cholesky_inverse``, ``cholesky_solve``,
``log_matrix_determinant``, ``geqrf``, ``orgqr``, ``ormqr``, ``matrix_exp``,
``matrix_norm``, ``lu_unpack`` and ``lu_solve``.

``qr`` is a primitive with its own derivative rules; the rest are compositions of
differentiable operations (``svd``, ``solve``, ``matmul``, ...), so their derivatives follow.
``eig`` / ``eigvals`` and ``geqrf`` give values only."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..prims import decomp as DC
from . import functional as F
from .functional import _composite
from .array_functions import tril, triu
from .linalg_functions import slogdet


def _matrix(x: Any, op: str, arg: str = "input", square: bool = False) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    if x._data.dtype not in (np.float32, np.float64):
        raise TypeError(f"For '{op}', '{arg}' must be a float32 or float64 Tensor, but got "
                        f"{x.dtype}.")
    if x.ndim < 2 or (square and x.shape[-1] != x.shape[-2]):
        kind = "a (batch of) square matrix" if square else "at least 2-D"
        raise ValueError(f"For '{op}', '{arg}' must be {kind}, but got shape "
                         f"{list(x.shape)}.")
    return x


def _mT(x: Tensor) -> Tensor:
    return F.swapaxes(x, -1, -2)


def _eye_like(x: Tensor, n: int) -> Tensor:
    return F.cast(F.eye(n, n, x.dtype), x.dtype)


# --- QR ---------------------------------------------------------------------------------------
def qr(input: Any, mode: str = "reduced") -> tuple:  # noqa: A002
    """``(Q, R)`` with ``input = Q R``, Q with orthonormal columns and R upper triangular:
    ``mode='reduced'`` gives Q (m, k), R (k, n) with k = min(m, n); ``'complete'`` gives
    Q (m, m), R (m, n). Differentiable (except 'complete' with m > n)."""
    x = _matrix(input, "qr")
    if mode not in ("reduced", "complete"):
        raise TypeError(f"For qr, the arg mode must be 'reduced' or 'complete', but got "
                        f"{mode}.")
    return DC.qr(x, complete=mode == "complete")


def geqrf(input: Any) -> tuple:  # noqa: A002
    """LAPACK's Householder QR: ``(a, tau)``, R in the upper triangle of ``a`` and the
    reflectors' vectors below it (their leading 1 implied), ``tau`` their scales."""
    return DC.geqrf(_matrix(input, "geqrf"))


@_composite
def orgqr(input: Any, input2: Any) -> Tensor:  # noqa: A002
    """The first n columns of the product of the Householder reflectors
    ``H_i = I - tau_i v_i v_i^T`` given as ``geqrf`` returns them."""
    a = _matrix(input, "orgqr")
    tau = _float_like(input2, a, "orgqr", "input2")
    m, n = a.shape[-2:]
    if n > m or tau.shape[-1] > n or tau.shape[:-1] != a.shape[:-2]:
        raise ValueError(f"For 'orgqr', 'input' (*, m, n) needs m >= n and 'input2' (*, k) "
                         f"k <= n with the same batch, but got shapes {list(a.shape)} and "
                         f"{list(tau.shape)}.")
    q = _eye_like(a, m)[:, :n]
    q = F.broadcast_to(q, a.shape[:-2] + (m, n))
    for i in reversed(range(tau.shape[-1])):
        q = _apply_reflector(q, a, tau, i, m)
    return q


def _reflector(a: Tensor, i: int, m: int) -> Tensor:
    """The Householder vector ``v_i`` (m,): zeros above ``i``, 1 at ``i``, then ``a``'s
    column ``i`` below the diagonal."""
    col = a[..., :, i]
    mask = Tensor(np.arange(m) > i)
    one = Tensor(np.arange(m) == i)
    return F.add(F.select(F.broadcast_to(mask, col.shape), col, F.zeros_like(col)),
                 F.cast(F.broadcast_to(one, col.shape), a.dtype))


def _apply_reflector(c: Tensor, a: Tensor, tau: Tensor, i: int, m: int) -> Tensor:
    """``H_i c = c - tau_i v_i (v_i^T c)``."""
    v = _reflector(a, i, m)
    vc = F.matmul(F.expand_dims(v, -2), c)                  # (*, 1, n)
    t = F.expand_dims(F.expand_dims(tau[..., i], -1), -1)   # (*, 1, 1)
    return F.sub(c, F.mul(t, F.matmul(F.expand_dims(v, -1), vc)))


def _float_like(x: Any, like: Tensor, op: str, arg: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    if x.dtype != like.dtype:
        raise TypeError(f"For '{op}', '{arg}' must have the dtype of 'input' ({like.dtype}), "
                        f"but got {x.dtype}.")
    return x


@_composite
def ormqr(input: Any, tau: Any, other: Any, left: bool = True,  # noqa: A002
          transpose: bool = False) -> Tensor:
    """``Q other`` (``left``) or ``other Q``, with Q (or Q^T when ``transpose``) the product
    of the Householder reflectors of ``input`` and ``tau`` (as ``geqrf`` gives them)."""
    a = _matrix(input, "ormqr")
    t = _float_like(tau, a, "ormqr", "tau")
    c = _float_like(other, a, "ormqr", "other")
    left = F._flag(left, "ormqr", "left")
    transpose = F._flag(transpose, "ormqr", "transpose")
    m = a.shape[-2]
    if c.ndim < 2 or c.shape[-2 if left else -1] != m:
        raise ValueError(f"For 'ormqr', 'other' must have {m} {'rows' if left else 'columns'}"
                         f" to meet 'input' {list(a.shape)}, but got shape {list(c.shape)}.")
    k = t.shape[-1]
    # Q = H_0 H_1 ... H_(k-1); Q c applies H_(k-1) first
    order = list(range(k))
    if left != transpose:
        order.reverse()
    if not left:
        c = _mT(c)  # c Q = (Q^T c^T)^T and c Q^T = (Q c^T)^T
    for i in order:
        c = _apply_reflector(c, a, t, i, m)
    return c if left else _mT(c)


# --- eigenvalues ------------------------------------------------------------------------------
def eig(A: Any) -> tuple:
    """The eigenvalues and right eigenvectors (columns, unit norm) of a square matrix, both
    complex (complex64 for float32 input). Values only: no gradient."""
    x = _matrix(A, "eig", "A", square=True)
    return DC.eig(x, vectors=True)


def eigvals(A: Any) -> Tensor:
    """The (complex) eigenvalues of a square matrix. Values only: no gradient."""
    x = _matrix(A, "eigvals", "A", square=True)
    return DC.eig(x, vectors=False)[0]


# --- inverses and solves ----------------------------------------------------------------------
@_composite
def pinv(x: Any, *, atol: Any = None, rtol: Any = None, hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse from the SVD, singular values at or below
    ``max(atol, rtol * largest)`` treated as zero (``rtol`` defaults to ``eps * max(m, n)``
    when neither is given). With ``hermitian``, ``x`` is the symmetric matrix of its lower
    triangle."""
    a = _matrix(x, "pinv", "x")
    if F._flag(hermitian, "pinv", "hermitian"):
        # a symmetric matrix given by its lower triangle (the upper one is not read)
        a = F.add(tril(a), _mT(tril(a, -1)))
    m, n = a.shape[-2:]
    s, u, v = F.svd(a, full_matrices=False)
    smax = F.reduce_max(s, -1, True) if s.shape[-1] else s
    eps = float(np.finfo(a._data.dtype).eps)
    if rtol is None:
        rtol = eps * max(m, n) if atol is None else 0.0
    cut = F.mul(F.stop_gradient(smax), float(rtol) if not isinstance(rtol, Tensor) else rtol)
    if atol is not None:
        cut = F.maximum(cut, atol if isinstance(atol, Tensor) else float(atol))
    keep = F.greater(s, cut)
    inv = F.select(keep, F.div(1.0, F.select(keep, s, F.ones_like(s))), F.zeros_like(s))
    return F.matmul(F.mul(v, F.expand_dims(inv, -2)), _mT(u))


@_composite
def lstsq(input: Any, A: Any) -> Tensor:
    """The least-squares solution X of ``input @ X = A`` (``input`` (m, n) of full rank,
    ``A`` (m,) or (m, k)), from the pseudo-inverse."""
    a = _matrix(input, "lstsq")
    b = _float_like(A, a, "lstsq", "A")
    if a.ndim != 2 or b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise ValueError(f"For 'lstsq', 'input' must be (m, n) and 'A' (m,) or (m, k), but "
                         f"got shapes {list(a.shape)} and {list(b.shape)}.")
    if b.ndim == 1:  # a vector right-hand side gives a one-column solution
        b = F.expand_dims(b, 1)
    return F.matmul(pinv(a), b)


@_composite
def matrix_solve(matrix: Any, rhs: Any, adjoint: bool = False) -> Tensor:
    """The solution X of ``matrix @ X = rhs`` (of ``matrix^T @ X = rhs`` with
    ``adjoint``), batched over leading axes."""
    a = _matrix(matrix, "matrix_solve", "matrix", square=True)
    b = _float_like(rhs, a, "matrix_solve", "rhs")
    if F._flag(adjoint, "matrix_solve", "adjoint"):
        a = _mT(a)
    return F.solve(a, b)


def _factor(x: Any, upper: Any, op: str, arg: str) -> Tensor:
    """The lower Cholesky factor from ``x`` (given upper: its transpose)."""
    l = _matrix(x, op, arg, square=True)
    return _mT(l) if F._flag(upper, op, "upper") else l


@_composite
def cholesky_inverse(input_x: Any, upper: bool = False) -> Tensor:
    """The inverse of ``L L^T`` (``U^T U`` with ``upper``) from the Cholesky factor."""
    l = _factor(input_x, upper, "cholesky_inverse", "input_x")
    linv = F.solve(l, F.broadcast_to(_eye_like(l, l.shape[-1]), l.shape))
    return F.matmul(_mT(linv), linv)


@_composite
def cholesky_solve(input: Any, input2: Any, upper: bool = False) -> Tensor:  # noqa: A002
    """The solution X of ``(L L^T) X = input`` from the Cholesky factor ``input2``."""
    l = _factor(input2, upper, "cholesky_solve", "input2")
    b = _float_like(input, l, "cholesky_solve", "input")
    return F.solve(_mT(l), F.solve(l, b))


def log_matrix_determinant(input: Any) -> tuple:  # noqa: A002
    """``(sign, log|det|)`` of a (batch of) square matrix (``slogdet``)."""
    _matrix(input, "log_matrix_determinant", square=True)
    return slogdet(input)


# --- the matrix exponential -------------------------------------------------------------------
# Pade (13, 13) coefficients of exp (Higham 2005), with scaling and squaring
_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
           129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
           40840800., 960960., 16380., 182., 1.)
_THETA13 = 5.371920351148152


@_composite
def matrix_exp(input: Any) -> Tensor:  # noqa: A002
    """The matrix exponential, by scaling and squaring with a (13, 13) Pade approximant
    (Higham 2005): matrix products and one solve, so it is differentiable."""
    a = _matrix(input, "matrix_exp", square=True)
    n = a.shape[-1]
    norm1 = float(np.abs(a._data).sum(-2).max()) if a.size else 0.0
    s = max(0, int(math.ceil(math.log2(norm1 / _THETA13)))) if norm1 > _THETA13 else 0
    x = F.mul(a, 1.0 / 2 ** s) if s else a
    b = _PADE13
    eye = F.broadcast_to(_eye_like(a, n), a.shape)
    x2 = F.matmul(x, x)
    x4 = F.matmul(x2, x2)
    x6 = F.matmul(x4, x2)
    u_in = F.add(F.add(F.mul(x6, b[13]), F.mul(x4, b[11])), F.mul(x2, b[9]))
    u = F.matmul(x, F.add(F.matmul(x6, u_in), F.add(F.add(F.mul(x6, b[7]), F.mul(x4, b[5])),
                                                    F.add(F.mul(x2, b[3]), F.mul(eye, b[1])))))
    v_in = F.add(F.add(F.mul(x6, b[12]), F.mul(x4, b[10])), F.mul(x2, b[8]))
    v = F.add(F.matmul(x6, v_in), F.add(F.add(F.mul(x6, b[6]), F.mul(x4, b[4])),
                                        F.add(F.mul(x2, b[2]), F.mul(eye, b[0]))))
    r = F.solve(F.sub(v, u), F.add(v, u))
    for _ in range(s):
        r = F.matmul(r, r)
    return r


# --- norms ------------------------------------------------------------------------------------
@_composite
def matrix_norm(A: Any, ord: Any = "fro", axis: tuple = (-2, -1),  # noqa: A002
                keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    """The matrix norm over the two axes ``axis``: 'fro', 'nuc', inf, -inf, 1, -1, 2, -2."""
    if not isinstance(A, Tensor):
        raise TypeError(f"For 'matrix_norm', 'A' must be a Tensor, but got "
                        f"{type(A).__name__}.")
    if ord not in ("fro", "nuc", math.inf, -math.inf, 1, -1, 2, -2):
        raise ValueError(f"For 'matrix_norm', 'ord' must be 'fro', 'nuc', inf, -inf, 1, -1, "
                         f"2 or -2, but got {ord!r}.")
    if not isinstance(axis, (tuple, list)) or len(axis) != 2:
        raise TypeError(f"For 'matrix_norm', 'axis' must be a 2-tuple of ints, but got "
                        f"{axis!r}.")
    return F.norm(A, ord, tuple(axis), keepdims, dtype=dtype)


# --- LU ---------------------------------------------------------------------------------------
def _permutation(pivots: np.ndarray, m: int) -> np.ndarray:
    """The permutation matrices P of LAPACK's 1-based row swaps (``A = P L U``)."""
    batch = pivots.shape[:-1]
    flat = pivots.reshape((-1, pivots.shape[-1]))
    out = np.zeros((flat.shape[0], m, m))
    for b, piv in enumerate(flat):
        perm = list(range(m))
        for i, p in enumerate(piv):
            j = int(p) - 1
            perm[i], perm[j] = perm[j], perm[i]
        out[b, perm, np.arange(m)] = 1.0
    return out.reshape(batch + (m, m))


def _pivots(p: Any, a: Tensor, op: str) -> np.ndarray:
    if not isinstance(p, Tensor) or p._data.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', 'LU_pivots' must be an integer Tensor, but got "
                        f"{getattr(p, 'dtype', type(p).__name__)}.")
    m, n = a.shape[-2:]
    piv = p.asnumpy()
    if piv.shape[-1] != min(m, n) or piv.shape[:-1] != a.shape[:-2]:
        raise ValueError(f"For '{op}', 'LU_pivots' must have shape "
                         f"{list(a.shape[:-2]) + [min(m, n)]}, but got {list(piv.shape)}.")
    if piv.size and (piv.min() < 1 or piv.max() > m):
        raise ValueError(f"For '{op}', 'LU_pivots' must lie in [1, {m}], but got values from "
                         f"{piv.min()} to {piv.max()}.")
    return piv


@_composite
def lu_unpack(LU_data: Any, LU_pivots: Any, unpack_data: bool = True,  # noqa: N803
              unpack_pivots: bool = True) -> tuple:
    """``(P, L, U)`` from a packed LU factorization: L unit lower triangular (m, k), U upper
    (k, n), P the permutation of the 1-based ``LU_pivots``."""
    a = _matrix(LU_data, "lu_unpack", "LU_data")
    piv = _pivots(LU_pivots, a, "lu_unpack")
    m, n = a.shape[-2:]
    k = min(m, n)
    p = Tensor(_permutation(piv, m).astype(a._data.dtype))
    low = F.add(tril(a[..., :, :k], -1), F.broadcast_to(
        F.cast(Tensor(np.eye(m, k)), a.dtype), a.shape[:-2] + (m, k)))
    up = triu(a[..., :k, :])
    return p, low, up


@_composite
def lu_solve(b: Any, LU_data: Any, LU_pivots: Any) -> Tensor:  # noqa: N803
    """The solution X of ``A X = b`` from A's packed LU factorization (``A = P L U``)."""
    a = _matrix(LU_data, "lu_solve", "LU_data", square=True)
    rhs = _float_like(b, a, "lu_solve", "b")
    p, low, up = lu_unpack(a, LU_pivots)
    return F.solve(up, F.solve(low, F.matmul(_mT(p), rhs)))


__all__ = ["qr", "geqrf", "orgqr", "ormqr", "eig", "eigvals", "pinv", "lstsq", "matrix_solve",
           "cholesky_inverse", "cholesky_solve", "log_matrix_determinant", "matrix_exp",
           "matrix_norm", "lu_unpack", "lu_solve"]
