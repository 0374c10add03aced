"""Matrix decompositions beyond ``linalg.py``'s: ``Qr`` (differentiable, reverse and
forward rules), ``Eig`` and ``Geqrf`` (values only: eig's outputs are complex and its
derivative needs complex matrix products the core does not differentiate; geqrf's
Householder form has no gradient in MindSpore either). All act on the last two axes and
batch over the leading ones."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.primitive import Primitive
from ..core.tensor import Tensor
from . import arith as A
from . import getitem as G
from . import structural as S
from ._util import xp_of
from .linalg import solve
from .matmul import matmul, swap_last


def _qr_impl(a, complete):
    xp = xp_of(a)
    q, r = xp.linalg.qr(a, mode="complete" if complete else "reduced")
    return q.astype(a.dtype, copy=False), r.astype(a.dtype, copy=False)


qr = Primitive("Qr", _qr_impl, multiple_results=True)


def _tri(n: int, k: int, dtype, like) -> Tensor:
    """The constant (n, n) mask of the lower triangle below diagonal ``k``."""
    return Tensor._wrap(xp_of(like._data).tril(xp_of(like._data).ones((n, n), dtype), k))


def _right_solve_rt(b, r):
    """``b R^-T``: the solution of X R^T = b."""
    return swap_last(solve(r, swap_last(b)))


def _right_solve_r(b, r):
    """``b R^-1``: the solution of X R = b."""
    return swap_last(solve(swap_last(r), swap_last(b)))


def _square_vjp(gq, gr, q, r):
    """The cotangent of A = QR for m >= n (reduced): with M = R gR^T - gQ^T Q and
    copyltu(M) its lower triangle mirrored upward, gA = (gQ + Q copyltu(M)) R^-T."""
    n = S.shape_of(r)[-1]
    dt = S.dtype_of(r)
    m = A.sub(matmul(r, swap_last(gr)), matmul(swap_last(gq), q))
    low = A.mul(m, _tri(n, 0, dt, m))
    strict = A.mul(m, _tri(n, -1, dt, m))
    sym = A.add(low, swap_last(strict))
    return _right_solve_rt(A.add(gq, matmul(q, sym)), r)


def _zeros_or(g, like):
    return S.zeros_like(like) if g is None else g


def _qr_vjp_all(g, ans, a, complete):
    gq, gr = g
    q, r = ans
    shape = S.shape_of(a)
    m, n = shape[-2], shape[-1]
    if complete and m > n:
        raise ValueError("For 'qr', the gradient of mode='complete' with more rows than "
                         "columns is not defined (the extra columns of Q are arbitrary); "
                         "use mode='reduced'.")
    gq, gr = _zeros_or(gq, q), _zeros_or(gr, r)
    if m >= n:
        return [_square_vjp(gq, gr, q, r)]
    # wide: A = [X | Y] with X = Q R1 square, R2 = Q^T Y
    idx_x = (Ellipsis, slice(0, m))
    idx_y = (Ellipsis, slice(m, n))
    r1, gr1 = G.getitem(r, index=idx_x), G.getitem(gr, index=idx_x)
    gr2 = G.getitem(gr, index=idx_y)
    y = G.getitem(a, index=idx_y)
    gx = _square_vjp(A.add(gq, matmul(y, swap_last(gr2))), gr1, q, r1)
    gy = matmul(q, gr2)
    return [S.concat(gx, gy, axis=len(shape) - 1)]


def _qr_square_jvp(da, q, r):
    """Forward rule for m >= n: C = Q^T dA R^-1, Omega = L - L^T with L = tril(C, -1);
    dR = (C - Omega) R and dQ = dA R^-1 - Q (C - Omega)."""
    n = S.shape_of(r)[-1]
    da_rinv = _right_solve_r(da, r)
    c = matmul(swap_last(q), da_rinv)
    low = A.mul(c, _tri(n, -1, S.dtype_of(r), c))
    upper_part = A.sub(c, A.sub(low, swap_last(low)))
    return A.sub(da_rinv, matmul(q, upper_part)), matmul(upper_part, r)


def _qr_jvp_all(primals, tangents, complete):
    (a,), (da,) = primals, tangents
    q, r = qr(a, complete=complete)
    shape = S.shape_of(a)
    m, n = shape[-2], shape[-1]
    if complete and m > n:
        raise ValueError("For 'qr', the derivative of mode='complete' with more rows than "
                         "columns is not defined (the extra columns of Q are arbitrary); "
                         "use mode='reduced'.")
    if m >= n:
        dq, dr = _qr_square_jvp(da, q, r)
        return (q, r), (dq, dr)
    idx_x, idx_y = (Ellipsis, slice(0, m)), (Ellipsis, slice(m, n))
    r1 = G.getitem(r, index=idx_x)
    y, dy = G.getitem(a, index=idx_y), G.getitem(da, index=idx_y)
    dq, dr1 = _qr_square_jvp(G.getitem(da, index=idx_x), q, r1)
    dr2 = A.add(matmul(swap_last(dq), y), matmul(swap_last(q), dy))
    return (q, r), (dq, S.concat(dr1, dr2, axis=len(shape) - 1))


qr.vjp_all = _qr_vjp_all
qr.jvp_all = _qr_jvp_all
qr.batch = lambda args, dims, **params: (qr(S.to_front(args[0], dims[0]), **params), 0)


# --- eigen-decomposition of general matrices (values only) -------------------------------------
_COMPLEX = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128,
            np.dtype(np.complex64): np.complex64, np.dtype(np.complex128): np.complex128}


def _eig_impl(a, vectors):
    xp = xp_of(a)
    if not bool(xp.isfinite(a).all()):  # (LAPACK's own error names nothing the user called)
        raise ValueError(f"For '{'eig' if vectors else 'eigvals'}', 'A' must not hold inf or "
                         f"NaN.")
    ct = _COMPLEX.get(np.dtype(a.dtype), np.complex64)
    if vectors:
        w, v = xp.linalg.eig(a) if xp is np else np.linalg.eig(xp.asnumpy(a))
        return xp.asarray(w).astype(ct), xp.asarray(v).astype(ct)
    w = xp.linalg.eigvals(a) if xp is np else np.linalg.eigvals(xp.asnumpy(a))
    return (xp.asarray(w).astype(ct),)


eig = Primitive("Eig", _eig_impl, multiple_results=True, nondiff=True)
eig.batch = lambda args, dims, **params: (eig(S.to_front(args[0], dims[0]), **params), 0)


# --- Householder QR (LAPACK's geqrf) -------------------------------------------------------------
def _geqrf_one(a: np.ndarray) -> tuple:
    h, tau = np.linalg.qr(a, mode="raw")
    return h.T, tau


def _geqrf_impl(a):
    xp = xp_of(a)
    host = a if xp is np else xp.asnumpy(a)
    batch = host.shape[:-2]
    m, n = host.shape[-2:]
    flat = host.reshape((-1, m, n)).astype(np.float64 if host.dtype == np.float64
                                           else np.float32)
    hs, taus = [], []
    for mat in flat:
        h, tau = _geqrf_one(mat)
        hs.append(h)
        taus.append(tau)
    h = np.stack(hs).reshape(batch + (m, n)) if hs else np.zeros(host.shape)
    tau = (np.stack(taus).reshape(batch + (min(m, n),)) if taus
           else np.zeros(batch + (min(m, n),)))
    return xp.asarray(h.astype(a.dtype)), xp.asarray(tau.astype(a.dtype))


geqrf = Primitive("Geqrf", _geqrf_impl, multiple_results=True, nondiff=True)
geqrf.batch = lambda args, dims, **params: (geqrf(S.to_front(args[0], dims[0])), 0)
