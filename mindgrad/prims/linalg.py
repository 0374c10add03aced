"""Linear algebra beyond matmul: einsum, inverse, det, solve, cholesky, svd and svdvals.

Every reverse and forward rule is a textbook identity written with these primitives and
matmul, so the rules are differentiable in turn:

- einsum: the cotangent of an operand is an einsum of the output cotangent with the other
  operands, into the operand's subscripts (broadcast over labels found nowhere else, put back
  on the diagonal for repeated labels);
- inverse: d(A^-1) = -A^-1 dA A^-1;
- det: d det = det * tr(A^-1 dA);
- solve: X = A^-1 B, dX = A^-1 (dB - dA X);
- cholesky: dL = L Phi(L^-1 dA L^-T), Phi = lower triangle with the diagonal halved;
- svd (thin, A = U diag(s) V^T): with dP = U^T dA V, ds = diag(dP),
  dU = U (F o (dP S + S dP^T)) + (I - U U^T) dA V S^-1,
  dV = V (F o (S dP + dP^T S)) + (I - V V^T) dA^T U S^-1, F_ij = 1 / (s_j^2 - s_i^2) off the
  diagonal and 0 on it; its reverse rule is the transpose. svdvals: ds = diag(U^T dA V),
  gA = U diag(g) V^T. These hold while the singular values are distinct and nonzero (U and V
  are then smooth up to the sign of each pair of columns, which the rules keep fixed).
"""
from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from ..core.primitive import Primitive
from ._util import xp_of
from . import arith as A
from . import reduce as R
from . import structural as S
from .matmul import matmul, swap_last
from ..core.tensor import Tensor
from ..ad.batching import per_example


# --- einsum -------------------------------------------------------------------------------
def blas_ready(xp: Any, x: Any) -> Any:
    """A broadcast operand (zero strides, e.g. the cotangent of a sum) as a contiguous array:
    matmul only hands operands with unit stride along one of the last two axes to BLAS."""
    return xp.ascontiguousarray(x) if 0 in x.strides else x


@functools.lru_cache(maxsize=1024)
def _pair_plan(equation: str, shape_a: tuple, shape_b: tuple):
    """How ``_einsum_pair`` maps a two-operand equation onto one batched matmul (cached: the
    same equation and shapes recur every step). None when it does not fit."""
    (sa, sb), out = _parse(equation)
    if len(set(sa)) != len(sa) or len(set(sb)) != len(sb):
        return None  # a diagonal is read
    own_a = tuple(i for i, c in enumerate(sa) if c not in sb and c not in out)
    own_b = tuple(i for i, c in enumerate(sb) if c not in sa and c not in out)
    size = dict(zip(sa, shape_a))
    size.update(zip(sb, shape_b))
    sa = "".join(c for i, c in enumerate(sa) if i not in own_a)
    sb = "".join(c for i, c in enumerate(sb) if i not in own_b)
    batch = [c for c in out if c in sa and c in sb]
    left = [c for c in out if c in sa and c not in sb]
    right = [c for c in out if c in sb and c not in sa]
    contr = [c for c in sa if c in sb and c not in out]
    nb, nl, nr, nk = (math.prod(size[c] for c in part) for part in (batch, left, right, contr))
    if nk > 1 and nl == 1 and nr == 1:
        return None  # batched dot products: einsum's own loop beats many 1x1 GEMMs
    order = batch + left + right
    perm = tuple(order.index(c) for c in out)
    return (own_a, own_b,
            tuple(sa.index(c) for c in batch + left + contr), (nb, nl, nk),
            tuple(sb.index(c) for c in batch + contr + right), (nb, nk, nr),
            nk, tuple(size[c] for c in order),
            None if perm == tuple(range(len(perm))) else perm)


def _einsum_pair(xp, equation, a, b):
    """A two-operand contraction as one batched matmul (BLAS), which NumPy's einsum does not
    do for batch labels: sum the labels only one side has, transpose to (batch, free,
    contracted) and back. None when a diagonal is read or matmul is a poor fit."""
    plan = _pair_plan(equation, a.shape, b.shape)
    if plan is None:
        return None
    own_a, own_b, perm_a, shape_a, perm_b, shape_b, nk, shape_out, perm_out = plan
    if own_a:
        a = a.sum(axis=own_a)
    if own_b:
        b = b.sum(axis=own_b)
    am = a.transpose(perm_a).reshape(shape_a)
    bm = b.transpose(perm_b).reshape(shape_b)
    if nk == 1:  # no contraction: a broadcast product
        cm = am * bm
    else:
        cm = xp.matmul(blas_ready(xp, am), blas_ready(xp, bm))
    res = cm.reshape(shape_out)
    return res if perm_out is None else res.transpose(perm_out)


def _einsum_impl(*operands, equation):
    xp = xp_of(operands[0])
    if len(operands) == 2:
        out = _einsum_pair(xp, equation, *operands)
        if out is not None:
            return out
    # The optimized path contracts pairs through tensordot (BLAS); its planning costs tens of
    # microseconds, so small problems use the direct loops.
    big = len(operands) > 2 or any(o.size > 4096 for o in operands)
    return xp.einsum(equation, *operands, optimize="greedy" if big else False)


einsum = Primitive("Einsum", _einsum_impl)


def _parse(equation: str) -> tuple[list[str], str]:
    lhs, out = equation.split("->")
    return lhs.split(","), out


def _fresh(used: set, count: int) -> list[str]:
    letters = [c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in used]
    if len(letters) < count:
        raise ValueError("For 'Einsum', the equation uses too many distinct labels.")
    return letters[:count]


def _einsum_operand_ct(g, ans, operands, equation: str, i: int):
    """The cotangent of operand ``i``: einsum of g with the others into operand i's labels."""
    ins, out = _parse(equation)
    target = ins[i]
    sizes: dict = {}
    for sub, op in zip(ins, operands):
        for c, d in zip(sub, S.shape_of(op)):
            sizes[c] = d
    unique = "".join(dict.fromkeys(target))
    available = set(out) | {c for j, s in enumerate(ins) if j != i for c in s}
    present = "".join(c for c in unique if c in available)
    others = [op for j, op in enumerate(operands) if j != i]
    other_subs = [s for j, s in enumerate(ins) if j != i]
    ct = einsum(g, *others, equation=",".join([out] + other_subs) + "->" + present)
    if present != unique:
        # labels summed inside operand i alone: every element got the same cotangent
        kept = tuple(sizes[c] if c in available else 1 for c in unique)
        ct = S.broadcast_to(S.reshape(ct, shape=kept), shape=tuple(sizes[c] for c in unique))
    if unique != target:
        # repeated labels (a diagonal was read): put the cotangent back on the diagonal
        used = set(equation)
        renamed, eyes, eye_subs = [], [], []
        seen: set = set()
        new = iter(_fresh(used, len(target)))
        for c in target:
            if c in seen:
                m = next(new)
                renamed.append(m)
                eyes.append(_eye(sizes[c], S.dtype_of(ct), ct))
                eye_subs.append(c + m)
            else:
                seen.add(c)
                renamed.append(c)
        ct = einsum(ct, *eyes, equation=",".join([unique] + eye_subs) + "->" + "".join(renamed))
    return ct


def _eye(n: int, dtype, like):
    return Tensor._wrap(xp_of(getattr(like, "_data", like)).eye(n, dtype=dtype))


def _einsum_vjp(g, ans, *operands, equation):
    return [_einsum_operand_ct(g, ans, operands, equation, i) for i in range(len(operands))]


def _einsum_jvp(primals, tangents, equation):
    out = einsum(*primals, equation=equation)
    tout = None
    for i, t in enumerate(tangents):
        if t is None:
            continue
        args = list(primals)
        args[i] = t
        term = einsum(*args, equation=equation)
        tout = term if tout is None else A.add(tout, term)
    return out, tout


einsum.vjp_all = _einsum_vjp
einsum.jvp_all = _einsum_jvp


# --- inverse ------------------------------------------------------------------------------
def _linalg_call(name: str, fn, *arrays):
    """``fn(*arrays)`` with a singular or indefinite matrix as a ValueError naming ``name``.
    LAPACK has no float16 routines: float16 matrices are solved in float32 and the results
    rounded back to float16, as MindSpore's CPU kernels do for det and cholesky. NumPy's
    RuntimeWarnings (a NaN matrix) are raised inside numpy.linalg's own frames, where the
    mindgrad-only filter of ``core.fp_warnings`` does not reach them: silenced here."""
    if any(a.dtype == np.float16 for a in arrays):
        out = _linalg_call(name, fn, *(a.astype(np.float32) for a in arrays))
        return tuple(o.astype(np.float16) for o in out) if isinstance(out, tuple) else \
            out.astype(np.float16)
    try:
        if xp_of(arrays[0]) is np:
            # silence what would only warn; an error state the user set to raise stays
            quiet = {k: "ignore" for k, v in np.geterr().items() if v == "warn"}
            with np.errstate(**quiet):
                return fn(*arrays)
        import cupyx

        # CuPy's solvers return NaN/inf for a singular or indefinite matrix unless asked
        # to check: ask, so that the GPU raises the same error as the CPU
        with cupyx.errstate(linalg="raise"):
            return fn(*arrays)
    except np.linalg.LinAlgError as e:
        raise ValueError(f"For '{name}', the input matrix is singular or not suitable "
                         f"({e}); input shape {list(arrays[0].shape)}.") from None


def _inv_impl(a):
    return _linalg_call("MatrixInverse", xp_of(a).linalg.inv, a)


inverse = Primitive("MatrixInverse", _inv_impl)
inverse.vjp = (lambda g, ans, a: A.neg(matmul(matmul(swap_last(ans), g), swap_last(ans))),)
inverse.jvp = (lambda t, ans, a: A.neg(matmul(matmul(ans, t), ans)),)


# --- det ----------------------------------------------------------------------------------
def _det_impl(a):
    return _linalg_call("MatrixDeterminant", xp_of(a).linalg.det, a)


det = Primitive("MatrixDeterminant", _det_impl)


def _mat(v):
    """A batch of scalars as a batch of 1x1 matrices (for broadcasting against matrices)."""
    return S.reshape(v, shape=S.shape_of(v) + (1, 1))


det.vjp = (lambda g, ans, a: A.mul(_mat(A.mul(g, ans)), swap_last(inverse(a))),)
det.jvp = (lambda t, ans, a: A.mul(ans, R.reduce_sum(A.mul(swap_last(inverse(a)), t),
                                                      axis=(len(S.shape_of(a)) - 2,
                                                            len(S.shape_of(a)) - 1),
                                                      keepdims=False)),)


# --- solve --------------------------------------------------------------------------------
def _solve_impl(a, b):
    # b is always a (batch of) matrix here: the functional front-end turns vectors into
    # one-column matrices, so NumPy's vector/matrix ambiguity never arises.
    xp = xp_of(a)
    if xp is not np and a.shape[:-2] != b.shape[:-2]:
        # CuPy's solve wants equal batch shapes where NumPy's broadcasts them
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        a = xp.broadcast_to(a, batch + a.shape[-2:])
        b = xp.broadcast_to(b, batch + b.shape[-2:])
    return _linalg_call("Solve", xp.linalg.solve, a, b)


solve = Primitive("Solve", _solve_impl)


def _solve_vjp(g, ans, a, b):
    # one solve with A^T serves both cotangents: gB = A^-T g, gA = -gB X^T
    gb = solve(swap_last(a), g)
    return [S.unbroadcast(A.neg(matmul(gb, swap_last(ans))), a), S.unbroadcast(gb, b)]


solve.vjp_all = _solve_vjp
solve.jvp = (lambda t, ans, a, b: S.broadcast_like(solve(a, A.neg(matmul(t, ans))), ans),
             lambda t, ans, a, b: S.broadcast_like(solve(a, t), ans))


# --- cholesky -----------------------------------------------------------------------------
def _cholesky_impl(a):
    # LAPACK reads only the lower triangle: the function differentiated is
    # A -> chol(tril(A) + tril(A, -1)^T), and the rules below are that function's.
    return _linalg_call("Cholesky", xp_of(a).linalg.cholesky, a)


cholesky = Primitive("Cholesky", _cholesky_impl)


def _masks(n: int, dtype, like):
    """Constant (n, n) masks: the lower triangle with its diagonal halved (Phi), the strictly
    lower triangle, and the lower triangle with the diagonal."""

    xp = xp_of(getattr(like, "_data", like))
    strict = xp.tril(xp.ones((n, n), dtype=dtype), -1)
    eye = xp.eye(n, dtype=dtype)
    return Tensor._wrap(strict + 0.5 * eye), Tensor._wrap(strict), Tensor._wrap(strict + eye)


def _cholesky_vjp(g, ans, a):
    phi, _, _ = _masks(S.shape_of(a)[-1], S.dtype_of(ans), ans)
    lt = swap_last(ans)
    p = A.mul(matmul(lt, g), phi)                  # Phi(L^T G)
    y = solve(lt, p)                               # L^-T Phi
    abar = swap_last(solve(lt, swap_last(y)))      # L^-T Phi L^-1
    # its symmetric part, folded onto the lower triangle that was read
    return A.mul(A.add(abar, swap_last(abar)), phi)


def _cholesky_jvp(t, ans, a):
    phi, strict, lower = _masks(S.shape_of(a)[-1], S.dtype_of(ans), ans)
    # the symmetric matrix that the lower triangle of t stands for
    sym = A.add(A.mul(t, lower), swap_last(A.mul(t, strict)))
    z = solve(ans, sym)                            # L^-1 dA
    w = solve(ans, swap_last(z))                   # L^-1 dA L^-T  (dA symmetric)
    return matmul(ans, A.mul(w, phi))


cholesky.vjp = (_cholesky_vjp,)
cholesky.jvp = (_cholesky_jvp,)


# --- singular value decomposition ---------------------------------------------------------
def _svd_impl(a, full_matrices):
    xp = xp_of(a)
    u, s, vh = _linalg_call("Svd", lambda m: xp.linalg.svd(m, full_matrices=full_matrices), a)
    return s, u, xp.swapaxes(vh, -1, -2)  # MindSpore's order and V itself, not V^T


# (s, u, v) with a = u diag(s) v^T, batched over leading dimensions
svd = Primitive("Svd", _svd_impl, multiple_results=True)


def _row(s):
    """(..., k) as (..., 1, k): multiplying a matrix by it scales its columns."""
    shape = S.shape_of(s)
    return S.reshape(s, shape=shape[:-1] + (1, shape[-1]))


def _col(s):
    """(..., k) as (..., k, 1): multiplying a matrix by it scales its rows."""
    return S.reshape(s, shape=S.shape_of(s) + (1,))


def _inverse_gaps(s):
    """F_ij = 1 / (s_j^2 - s_i^2) off the diagonal, 0 on it; written in s (1 is added to the
    zero diagonal before dividing and taken off after), so that it is differentiable too."""
    eye = _eye(S.shape_of(s)[-1], S.dtype_of(s), s)
    sq = A.mul(s, s)
    return A.sub(A.div(1.0, A.add(A.sub(_row(sq), _col(sq)), eye)), eye)


def _thin_only(a, full_matrices):
    m, n = S.shape_of(a)[-2:]
    if full_matrices and m != n:
        raise ValueError(f"For 'svd', derivatives with full_matrices=True need square "
                         f"matrices (the extra columns of U or V are not unique), but got "
                         f"shape {list(S.shape_of(a))}.")
    return m, n


def _svd_jvp(primals, tangents, full_matrices):
    a, da = primals[0], tangents[0]
    m, n = _thin_only(a, full_matrices)
    s, u, v = out = svd(a, full_matrices=full_matrices)
    ut = swap_last(u)
    dp = matmul(matmul(ut, da), v)
    dpt = swap_last(dp)
    eye = _eye(S.shape_of(s)[-1], S.dtype_of(s), s)
    ds = R.reduce_sum(A.mul(dp, eye), axis=(len(S.shape_of(dp)) - 1,), keepdims=False)
    f = _inverse_gaps(s)
    sr, sc = _row(s), _col(s)
    du = matmul(u, A.mul(f, A.add(A.mul(dp, sr), A.mul(sc, dpt))))
    dv = matmul(v, A.mul(f, A.add(A.mul(sc, dp), A.mul(dpt, sr))))
    if m > n:  # the part of dA V outside the span of U
        dav = matmul(da, v)
        du = A.add(du, A.div(A.sub(dav, matmul(u, matmul(ut, dav))), sr))
    elif n > m:
        datu = matmul(swap_last(da), u)
        dv = A.add(dv, A.div(A.sub(datu, matmul(v, matmul(swap_last(v), datu))), sr))
    return out, (ds, du, dv)


def _svd_vjp(g, ans, a, full_matrices):
    m, n = _thin_only(a, full_matrices)
    gs, gu, gv = g
    s, u, v = ans
    ut, vt = swap_last(u), swap_last(v)
    f = _inverse_gaps(s)
    utgu, vtgv = matmul(ut, gu), matmul(vt, gv)
    eye = _eye(S.shape_of(s)[-1], S.dtype_of(s), s)
    # the cotangent of dP = U^T dA V: F o skew(U^T gU) S + S F o skew(V^T gV) + diag(gs)
    inner = A.add(A.mul(A.mul(f, A.sub(utgu, swap_last(utgu))), _row(s)),
                  A.mul(_col(s), A.mul(f, A.sub(vtgv, swap_last(vtgv)))))
    inner = A.add(inner, A.mul(_row(gs), eye))
    if m > n:
        left = A.add(matmul(u, inner), A.div(A.sub(gu, matmul(u, utgu)), _row(s)))
        return [matmul(left, vt)]
    if n > m:
        right = A.add(matmul(inner, vt), swap_last(A.div(A.sub(gv, matmul(v, vtgv)), _row(s))))
        return [matmul(u, right)]
    return [matmul(matmul(u, inner), vt)]


svd.jvp_all = _svd_jvp
svd.vjp_all = _svd_vjp


def _svdvals_impl(a):
    xp = xp_of(a)
    return _linalg_call("SvdVals", lambda m: xp.linalg.svd(m, compute_uv=False), a)


# the singular values alone (no U, V in the forward pass); the rules get U and V from svd,
# whose own rules then give the higher derivatives
svdvals = Primitive("SvdVals", _svdvals_impl)


def _svdvals_vjp(g, ans, a):
    _, u, v = svd(a, full_matrices=False)
    return matmul(A.mul(u, _row(g)), swap_last(v))


def _svdvals_jvp(t, ans, a):
    _, u, v = svd(a, full_matrices=False)
    # diag(U^T dA V)_i = sum_j (U^T dA)_ij (V^T)_ij
    prod = A.mul(matmul(swap_last(u), t), swap_last(v))
    return R.reduce_sum(prod, axis=(len(S.shape_of(prod)) - 1,), keepdims=False)


svdvals.vjp = (_svdvals_vjp,)
svdvals.jvp = (_svdvals_jvp,)


# --- batching: these primitives act on the last two axes, batched over the leading ones ----


def _batch_leading(prim):
    return lambda args, dims, **params: (prim(S.to_front(args[0], dims[0]), **params), 0)


svd.batch = _batch_leading(svd)
svdvals.batch = _batch_leading(svdvals)

# Stacked matrices: NumPy's (and CuPy's) linalg routines work on the last two axes, so the
# batch axis goes in front as one more stack dimension.
inverse.batch = _batch_leading(inverse)
det.batch = _batch_leading(det)
cholesky.batch = _batch_leading(cholesky)
# Two stacks of matrices: batch axes lined up in front, broadcast like matmul's.
solve.batch = S.elementwise(solve)


def _batch_einsum(args, dims, equation):
    """One more label, in front of every batched operand and of the output (the equation at
    the primitive is explicit and has no '...')."""
    lhs, out = equation.split("->")
    subs = lhs.split(",")
    label = next((c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                  if c not in equation), None)
    if label is None:  # every label taken: one contraction per example

        return per_example(einsum, list(args), list(dims), {"equation": equation},
                     next(S.shape_of(a)[d] for a, d in zip(args, dims) if d is not None))
    moved, new_subs = [], []
    for a, d, s in zip(args, dims, subs):
        if d is None:
            moved.append(a)
            new_subs.append(s)
        else:
            moved.append(S.to_front(a, d))
            new_subs.append(label + s)
    return einsum(*moved, equation=",".join(new_subs) + "->" + label + out), 0


einsum.batch = _batch_einsum
