"""Products: reduce_prod, cumprod, and the linear recurrence that gives both exact gradients.

Gradients of products are usually written ``g * prod / x``, which divides by zero wherever an
input is 0. Here the rules are written without division:

- ``reduce_prod``: d prod / d x_i = (product of the elements before i) * (product of those
  after i), the primitive ``prod_others``, whose rules go through exclusive cumprods.
- ``cumprod``: (J^T g)_i = (prod_{j<i} x_j) * sum_{k>=i} g_k prod_{i<j<=k} x_j. The sum is a
  first-order linear recurrence ``r_i = g_i + x_{i+1} r_{i+1}``, the primitive ``linrec``.

``linrec``'s own rules are again linrec, shifts and products, so the whole family is closed
under differentiation: every order is exact, zeros included. The implementations (arrays
only) take a two-pass closed form with division where that is exact to rounding (no zero,
no under- or overflow in the running products) and a division-free algorithm otherwise.
"""
from __future__ import annotations

import math

import numpy as np

from ..core.primitive import Primitive
from ._util import xp_of
from . import arith as A
from . import reduce as R
from . import shape as S
from .indexing import shift


# --- linrec: r_k = b_k + a_k * r_{k-1} (or r_{k+1} when reverse) ---------------------------
def _linrec_divide(xp, b, a, dt, reverse):
    """The closed form r_k = P_k * sum_{i<=k} b_i / P_i with P the running product of a
    (a's first coefficient multiplies r_{-1} = 0, so it is left out): two accumulate passes.
    Valid only while every P_k is a finite normal number; returns None otherwise."""
    if dt.kind != "f" or a.shape[-1] == 0:
        return None
    flip = (Ellipsis, slice(None, None, -1)) if reverse else (Ellipsis,)
    a1 = a[flip].astype(dt, copy=True)
    a1[..., 0] = 1
    p = xp.cumprod(a1, axis=-1)
    with np.errstate(all="ignore"):
        r = p * xp.cumsum(b[flip] / p, axis=-1)
    if not bool(xp.isfinite(r).all()) or float(xp.abs(p).min()) < np.finfo(dt).tiny:
        return None  # a zero, an underflow or an overflow in the running product
    return r[flip]


def _linrec_doubling(xp, b, a, dt, reverse):
    """Recursive doubling: after the step with distance d, r_k holds the sum over the last 2d
    terms and c_k the product of the matching 2d coefficients. log2(n) vectorized passes and
    no division, so zeros and tiny values are exact."""
    r = b.astype(dt, copy=True)
    c = a.astype(dt, copy=True)
    n = r.shape[-1]
    d = 1
    while d < n:
        if reverse:
            r[..., :-d] += c[..., :-d] * r[..., d:]
            if 2 * d < n:  # the coefficients are needed for one more step only
                c[..., :-d] = c[..., :-d] * c[..., d:]
        else:
            r[..., d:] += c[..., d:] * r[..., :-d]
            if 2 * d < n:
                c[..., d:] = c[..., d:] * c[..., :-d]
        d *= 2
    return r


def _linrec_impl(b, a, axis, reverse):
    xp = xp_of(b)
    dt = np.result_type(b.dtype, a.dtype)
    b, a = xp.moveaxis(b, axis, -1), xp.moveaxis(a, axis, -1)
    r = _linrec_divide(xp, b, a, dt, reverse)
    if r is None:
        r = _linrec_doubling(xp, b, a, dt, reverse)
    return xp.moveaxis(r, -1, axis)


linrec = Primitive("LinearRecurrence", _linrec_impl)


def _linrec_vjp_b(g, ans, b, a, axis, reverse):
    # The transpose runs the recurrence the other way with coefficients shifted by one.
    return linrec(g, shift(a, axis, 1 if reverse else -1, 0.0), axis=axis, reverse=not reverse)


def _prev(r, axis, reverse):
    """r_{k-1} (r_{k+1} when reverse), 0 past the start: what a_k multiplies."""
    return shift(r, axis, -1 if reverse else 1, 0.0)


linrec.vjp = (_linrec_vjp_b,
              lambda g, ans, b, a, axis, reverse:
              A.mul(_prev(ans, axis, reverse), _linrec_vjp_b(g, ans, b, a, axis, reverse)))
linrec.jvp = (lambda t, ans, b, a, axis, reverse: linrec(t, a, axis=axis, reverse=reverse),
              lambda t, ans, b, a, axis, reverse:
              linrec(A.mul(t, _prev(ans, axis, reverse)), a, axis=axis, reverse=reverse))


# --- cumprod ------------------------------------------------------------------------------
def _cumprod_impl(x, axis, reverse):
    xp = xp_of(x)
    if not reverse:
        return xp.cumprod(x, axis=axis, dtype=x.dtype)
    idx = (slice(None),) * axis + (slice(None, None, -1),)
    return xp.ascontiguousarray(xp.cumprod(x[idx], axis=axis, dtype=x.dtype)[idx])


cumprod = Primitive("CumProd", _cumprod_impl)


def _exclusive(ans, axis, reverse):
    """prod_{j<i} x_j (prod_{j>i} x_j when reverse) from the inclusive products."""
    return shift(ans, axis, -1 if reverse else 1, 1.0)


def _cumprod_vjp(g, ans, x, axis, reverse):
    # (J^T g)_i = excl_i * sum_{k>=i} g_k prod_{i<j<=k} x_j  (mirrored when reverse)
    tail = linrec(g, shift(x, axis, 1 if reverse else -1, 0.0), axis=axis, reverse=not reverse)
    return A.mul(_exclusive(ans, axis, reverse), tail)


def _cumprod_jvp(t, ans, x, axis, reverse):
    # (J t)_k = sum_{i<=k} t_i excl_i prod_{i<j<=k} x_j
    return linrec(A.mul(t, _exclusive(ans, axis, reverse)), x, axis=axis, reverse=reverse)


cumprod.vjp = (_cumprod_vjp,)
cumprod.jvp = (_cumprod_jvp,)


# --- reduce_prod --------------------------------------------------------------------------
def _prod_impl(x, axis, keepdims):
    return xp_of(x).prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


reduce_prod = Primitive("ReduceProd", _prod_impl)


def _others_impl(x, total, axis):
    """For every element, the product of the other elements along ``axis``. ``total`` is
    the full product (keepdims), when the caller already has it, else None."""
    xp = xp_of(x)
    n = x.shape[axis]
    if x.dtype.kind == "f" and n:
        # total / x_i: one pass, valid while the product is a finite normal number (so no
        # input is zero and nothing under- or overflowed)
        if total is None:
            total = xp.prod(x, axis=axis, keepdims=True, dtype=x.dtype)
        if bool(xp.isfinite(total).all()) and float(xp.abs(total).min()) >= np.finfo(x.dtype).tiny:
            with np.errstate(all="ignore"):
                out = total / x
            if bool(xp.isfinite(out.sum())):  # one pass; an overflowed sum just falls back
                return out
    # exclusive running products from both ends, no division: exact with zeros
    fwd = xp.moveaxis(xp.cumprod(x, axis=axis, dtype=x.dtype), axis, -1)
    rev = xp.moveaxis(_cumprod_impl(x, axis, True), axis, -1)
    out = xp.ones(fwd.shape, dtype=x.dtype)
    if n > 1:
        out[..., 1:] = fwd[..., :-1]
        out[..., :-1] *= rev[..., 1:]
    return xp.moveaxis(out, -1, axis)


# ``total`` only saves the implementation a pass: the value depends on x alone and the rules
# for x give its whole derivative, so ``total`` has no rule (None).
prod_others = Primitive("ProdOthers", _others_impl)


def _ends(x, axis):
    """(exclusive products from the front, from the back), as differentiable expressions."""
    return (shift(cumprod(x, axis=axis, reverse=False), axis, 1, 1.0),
            shift(cumprod(x, axis=axis, reverse=True), axis, -1, 1.0))


def _others_vjp(h, ans, x, total, axis):
    # others = front * back, front = shift_right(cumprod(x)), back = shift_left(rcumprod(x));
    # the transpose of a shift is the opposite shift with zero fill.
    front, back = _ends(x, axis)
    c = cumprod(x, axis=axis, reverse=False)
    rc = cumprod(x, axis=axis, reverse=True)
    return A.add(_cumprod_vjp(shift(A.mul(h, back), axis, -1, 0.0), c, x, axis, False),
                 _cumprod_vjp(shift(A.mul(h, front), axis, 1, 0.0), rc, x, axis, True))


def _others_jvp(t, ans, x, total, axis):
    front, back = _ends(x, axis)
    c = cumprod(x, axis=axis, reverse=False)
    rc = cumprod(x, axis=axis, reverse=True)
    return A.add(A.mul(shift(_cumprod_jvp(t, c, x, axis, False), axis, 1, 0.0), back),
                 A.mul(front, shift(_cumprod_jvp(t, rc, x, axis, True), axis, -1, 0.0)))


prod_others.vjp = (_others_vjp, None)
prod_others.jvp = (_others_jvp, None)


def _others(x, axis, total=None):
    """prod_others over the reduced ``axis`` (a tuple of axes, or None for all), given the
    product with keepdims if known: several axes are brought to the end as one axis, and
    back afterwards."""
    shape = S.shape_of(x)
    ndim = len(shape)
    axes = tuple(range(ndim)) if axis is None else tuple(axis)
    if len(axes) == 1:
        return prod_others(x, total, axis=axes[0])
    keep = tuple(i for i in range(ndim) if i not in axes)
    perm = keep + axes
    moved = S.transpose(x, perm=perm) if perm != tuple(range(ndim)) else x
    flat_shape = tuple(shape[i] for i in keep) + (math.prod(shape[i] for i in axes),)
    if total is not None:
        total = S.reshape(total, shape=flat_shape[:-1] + (1,))
    o = prod_others(S.reshape(moved, shape=flat_shape), total, axis=len(keep))
    o = S.reshape(o, shape=tuple(shape[i] for i in perm))
    if perm != tuple(range(ndim)):
        o = S.transpose(o, perm=tuple(np.argsort(perm).tolist()))
    return o


def _prod_vjp(g, ans, x, axis, keepdims):
    spread = S.broadcast_to(R._expand_back(g, x, axis, keepdims), shape=S.shape_of(x))
    return A.mul(spread, _others(x, axis, R._expand_back(ans, x, axis, keepdims)))


reduce_prod.vjp = (_prod_vjp,)
reduce_prod.jvp = (lambda t, ans, x, axis, keepdims: R.reduce_sum(
    A.mul(t, _others(x, axis, R._expand_back(ans, x, axis, keepdims))), axis=axis,
    keepdims=keepdims),)
