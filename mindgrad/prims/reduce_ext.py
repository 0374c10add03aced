"""Products: reduce_prod, cumprod, and the linear recurrence that gives both exact gradients.

Gradients of products are usually written ``g * prod / x``, which divides by zero wherever an
input is 0. Here they are written without division:

- ``reduce_prod``: d prod / d x_i = (product of the elements before i) * (product of those
  after i): an exclusive cumprod from each end.
- ``cumprod``: (J^T g)_i = (prod_{j<i} x_j) * sum_{k>=i} g_k prod_{i<j<=k} x_j. The sum is a
  first-order linear recurrence ``r_i = g_i + x_{i+1} r_{i+1}``, the primitive ``linrec``.

``linrec``'s own rules are again linrec, shifts and products, so the whole family is closed
under differentiation: every order is exact, zeros included.
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
def _linrec_impl(b, a, axis, reverse):
    """Solve the recurrence by recursive doubling: after the step with distance d each r_k
    holds sum over the last 2d terms and A_k the product of the matching 2d coefficients.
    log2(n) vectorized passes, no division (so zeros and tiny values are exact)."""
    xp = xp_of(b)
    dt = np.result_type(b.dtype, a.dtype)
    r = xp.moveaxis(b, axis, -1).astype(dt, copy=True)
    c = xp.moveaxis(a, axis, -1).astype(dt, copy=True)
    if reverse:
        r, c = r[..., ::-1], c[..., ::-1]
    n = r.shape[-1]
    d = 1
    while d < n:
        r[..., d:] += c[..., d:] * r[..., :-d]
        if 2 * d < n:  # the coefficients are needed for one more step only
            c[..., d:] = c[..., d:] * c[..., :-d]
        d *= 2
    if reverse:
        r = r[..., ::-1]
    return xp.ascontiguousarray(xp.moveaxis(r, -1, axis))


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


def _others(x, axis):
    """For every element, the product of the other elements over the reduced ``axis``
    (a tuple of axes, or None for all): exclusive products from both ends, no division."""
    shape = S.shape_of(x)
    ndim = len(shape)
    axes = tuple(range(ndim)) if axis is None else tuple(axis)
    if len(axes) == 1:
        a = axes[0]
        return A.mul(shift(cumprod(x, axis=a, reverse=False), a, 1, 1.0),
                     shift(cumprod(x, axis=a, reverse=True), a, -1, 1.0))
    # several axes: bring them to the end as one axis, and back afterwards
    keep = tuple(i for i in range(ndim) if i not in axes)
    perm = keep + axes
    moved = S.transpose(x, perm=perm) if perm != tuple(range(ndim)) else x
    flat_shape = tuple(shape[i] for i in keep) + (math.prod(shape[i] for i in axes),)
    y = S.reshape(moved, shape=flat_shape)
    o = _others(y, (len(keep),))
    o = S.reshape(o, shape=tuple(shape[i] for i in perm))
    if perm != tuple(range(ndim)):
        o = S.transpose(o, perm=tuple(np.argsort(perm).tolist()))
    return o


def _prod_vjp(g, ans, x, axis, keepdims):
    spread = S.broadcast_to(R._expand_back(g, x, axis, keepdims), shape=S.shape_of(x))
    return A.mul(spread, _others(x, axis))


reduce_prod.vjp = (_prod_vjp,)
reduce_prod.jvp = (lambda t, ans, x, axis, keepdims:
                   R.reduce_sum(A.mul(t, _others(x, axis)), axis=axis, keepdims=keepdims),)
