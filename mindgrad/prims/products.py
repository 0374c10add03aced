"""Products: reduce_prod, cumprod and the linear recurrence that gives both exact
gradients.

Gradients of products are usually written ``g * prod / x``, which divides by zero wherever an
input is 0. Here the rules are written without division:

- ``reduce_prod``: d prod / d x_i = (product of the elements before i) * (product of those
  after i), the primitive ``prod_others`` (times the incoming cotangent, so the reverse rule
  is one primitive), whose rules go through exclusive cumprods.
- ``cumprod``: (J^T g)_i = (prod_{j<i} x_j) * sum_{k>=i} g_k prod_{i<j<=k} x_j, the primitive
  ``cumprod_grad``. The sum is a first-order linear recurrence ``r_i = g_i + x_{i+1} r_{i+1}``,
  the primitive ``linrec``.

``linrec``'s own rules are again linrec, shifts and products, and those of ``prod_others``
and ``cumprod_grad`` are written with them, so the whole family is closed under
differentiation: every order is exact, zeros included. The implementations (arrays only)
divide where that is exact to rounding (no zero, no under- or overflow in the products):
(g * prod) / x_i for reduce_prod, a running sum of g * cumprod divided by x for cumprod, a
two-pass closed form for linrec; and take a division-free algorithm otherwise.
"""
from __future__ import annotations

import math

import numpy as np

from ..core.primitive import Primitive
from ._util import reduce_with, xp_of
from . import arith as A
from . import reduce as R
from . import structural as S
from .indexing import shift
from ..ad.taylor import from_jvp


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
    p = a1.cumprod(axis=-1)
    with np.errstate(all="ignore"):
        r = p * (b[flip] / p).cumsum(axis=-1)
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
        return x.cumprod(axis=axis, dtype=x.dtype)  # the method: see reduce_with
    idx = (slice(None),) * axis + (slice(None, None, -1),)
    return xp.ascontiguousarray(x[idx].cumprod(axis=axis, dtype=x.dtype)[idx])


cumprod = Primitive("CumProd", _cumprod_impl)


def _exclusive(ans, axis, reverse):
    """prod_{j<i} x_j (prod_{j>i} x_j when reverse) from the inclusive products."""
    return shift(ans, axis, -1 if reverse else 1, 1.0)


def _normal(xp, v, dt) -> bool:
    """Every element of ``v`` is a finite number of at least the smallest normal magnitude."""
    return bool(xp.isfinite(v).all()) and float(xp.abs(v).min()) >= np.finfo(dt).tiny


def _cumprod_grad_impl(g, x, y, axis, reverse):
    """(J^T g)_i for y = cumprod(x): (prod_{j<i} x_j) * sum_{k>=i} g_k prod_{i<j<=k} x_j
    (mirrored when reverse). While every running product is a finite normal number (so no
    x_i is zero) that is (sum_{k>=i} g_k y_k) / x_i: one running sum. Otherwise the
    division-free form with the linear recurrence, exact with zeros."""
    xp = xp_of(x)
    dt = np.result_type(g.dtype, x.dtype)
    n = x.shape[axis]
    if dt.kind == "f" and n and _normal(xp, y, dt):
        flip = (slice(None),) * axis + (slice(None, None, -1),)
        gy = g * y
        tail = gy.cumsum(axis=axis) if reverse else gy[flip].cumsum(axis=axis)[flip]
        return xp.divide(tail, x, dtype=dt)
    xm, gm, ym = (xp.moveaxis(v, axis, -1) for v in (x, g, y))
    a = xp.zeros(xm.shape, dt)  # x shifted towards the start (the end when reverse), 0 fill
    excl = xp.ones(ym.shape, dt)
    if n > 1:
        if reverse:
            a[..., 1:] = xm[..., :-1]
            excl[..., :-1] = ym[..., 1:]
        else:
            a[..., :-1] = xm[..., 1:]
            excl[..., 1:] = ym[..., :-1]
    out = excl * _linrec_impl(gm, a, -1, not reverse)
    return xp.moveaxis(out, -1, axis)


cumprod_grad = Primitive("CumProdGrad", _cumprod_grad_impl)


def _cumprod_vjp(g, ans, x, axis, reverse):
    return cumprod_grad(g, x, ans, axis=axis, reverse=reverse)


def _cumprod_jvp(t, ans, x, axis, reverse):
    # (J t)_k = sum_{i<=k} t_i excl_i prod_{i<j<=k} x_j
    return linrec(A.mul(t, _exclusive(ans, axis, reverse)), x, axis=axis, reverse=reverse)


cumprod.vjp = (_cumprod_vjp,)
cumprod.jvp = (_cumprod_jvp,)


# cumprod_grad(g, x, y) = E(y) * L(g, a(x)) with E(y) = the exclusive products (y shifted,
# fill 1), a(x) = x shifted the other way (fill 0) and L = linrec(g, a) running the other
# way than the products. Its rules are the partial derivatives of that expression in g, x and
# y (y = cumprod(x) gets its own cotangent, which then flows into cumprod's rule).
def _cg_parts(g, x, y, axis, reverse):
    a = shift(x, axis, 1 if reverse else -1, 0.0)
    return a, linrec(g, a, axis=axis, reverse=not reverse)


def _cumprod_grad_vjp(h, ans, g, x, y, axis, reverse):
    e = _exclusive(y, axis, reverse)
    he = A.mul(h, e)
    a, lin = _cg_parts(g, x, y, axis, reverse)
    d_g = _cumprod_jvp(h, y, x, axis, reverse)  # the transpose of J^T is J
    d_a = A.mul(_prev(lin, axis, not reverse), _linrec_vjp_b(he, lin, g, a, axis, not reverse))
    d_x = shift(d_a, axis, -1 if reverse else 1, 0.0)  # the transpose of the shift in a(x)
    d_y = shift(A.mul(h, lin), axis, 1 if reverse else -1, 0.0)  # ... and of the one in E(y)
    return [d_g, d_x, d_y]


def _cumprod_grad_jvp(primals, tangents, axis, reverse):
    g, x, y = primals
    tg, tx, ty = tangents
    out = cumprod_grad(g, x, y, axis=axis, reverse=reverse)
    terms = []
    if tg is not None:
        terms.append(cumprod_grad(tg, x, y, axis=axis, reverse=reverse))
    if tx is not None or ty is not None:
        a, lin = _cg_parts(g, x, y, axis, reverse)
        if ty is not None:
            terms.append(A.mul(shift(ty, axis, -1 if reverse else 1, 0.0), lin))
        if tx is not None:
            ta = shift(tx, axis, 1 if reverse else -1, 0.0)
            dl = linrec(A.mul(ta, _prev(lin, axis, not reverse)), a, axis=axis,
                        reverse=not reverse)
            terms.append(A.mul(_exclusive(y, axis, reverse), dl))
    tout = None
    for term in terms:
        tout = term if tout is None else A.add(tout, term)
    return out, tout


cumprod_grad.vjp_all = _cumprod_grad_vjp
cumprod_grad.jvp_all = _cumprod_grad_jvp


# --- reduce_prod --------------------------------------------------------------------------
def _prod_impl(x, axis, keepdims):
    return reduce_with(np.multiply, x, axis, keepdims, x.dtype)


reduce_prod = Primitive("ReduceProd", _prod_impl)


def _others_impl(x, total, scale, axis):
    """For every element, ``scale`` times the product of the other elements along ``axis``.
    ``total`` is the full product (keepdims) when the caller already has it, else None;
    ``scale`` (keepdims, typically the incoming cotangent) is None for 1."""
    xp = xp_of(x)
    n = x.shape[axis]
    if x.dtype.kind == "f" and n:
        # (scale * total) / x_i: one pass, valid while the product is a finite normal number
        # (so no input is zero and nothing under- or overflowed), and scale * total too
        # where scale is not 0
        if total is None:
            total = reduce_with(np.multiply, x, axis, True, x.dtype)
        if _normal(xp, total, x.dtype):
            s = total if scale is None else scale * total
            if scale is None or (bool(xp.isfinite(s).all()) and bool(
                    ((xp.abs(s) >= np.finfo(s.dtype).tiny) | (scale == 0)).all())):
                return xp.divide(s, x, dtype=np.result_type(s.dtype, x.dtype))
    # exclusive running products from both ends, no division: exact with zeros
    fwd = xp.moveaxis(x.cumprod(axis=axis, dtype=x.dtype), axis, -1)
    rev = xp.moveaxis(_cumprod_impl(x, axis, True), axis, -1)
    out = xp.ones(fwd.shape, dtype=x.dtype)
    if n > 1:
        out[..., 1:] = fwd[..., :-1]
        out[..., :-1] *= rev[..., 1:]
    out = xp.moveaxis(out, -1, axis)
    return out if scale is None else out * scale


# ``total`` only saves the implementation a pass: the value depends on x alone and the rules
# for x give its whole derivative, so ``total`` has no rule (None). The value is linear in
# ``scale``.
prod_others = Primitive("ProdOthers", _others_impl)


def _ends(x, axis):
    """(exclusive products from the front, from the back), as differentiable expressions."""
    return (shift(cumprod(x, axis=axis, reverse=False), axis, 1, 1.0),
            shift(cumprod(x, axis=axis, reverse=True), axis, -1, 1.0))


def _others_vjp(h, ans, x, total, scale, axis):
    # others = front * back, front = shift_right(cumprod(x)), back = shift_left(rcumprod(x));
    # the transpose of a shift is the opposite shift with zero fill.
    if scale is not None:
        h = A.mul(h, scale)
    front, back = _ends(x, axis)
    c = cumprod(x, axis=axis, reverse=False)
    rc = cumprod(x, axis=axis, reverse=True)
    return A.add(_cumprod_vjp(shift(A.mul(h, back), axis, -1, 0.0), c, x, axis, False),
                 _cumprod_vjp(shift(A.mul(h, front), axis, 1, 0.0), rc, x, axis, True))


def _others_jvp(t, ans, x, total, scale, axis):
    front, back = _ends(x, axis)
    c = cumprod(x, axis=axis, reverse=False)
    rc = cumprod(x, axis=axis, reverse=True)
    out = A.add(A.mul(shift(_cumprod_jvp(t, c, x, axis, False), axis, 1, 0.0), back),
                A.mul(front, shift(_cumprod_jvp(t, rc, x, axis, True), axis, -1, 0.0)))
    return out if scale is None else A.mul(out, scale)


prod_others.vjp = (_others_vjp, None,
                   lambda h, ans, x, total, scale, axis: S.unbroadcast(
                       A.mul(h, prod_others(x, total, None, axis=axis)), scale))
prod_others.jvp = (_others_jvp, None,
                   lambda t, ans, x, total, scale, axis: prod_others(x, total, t, axis=axis))


def _others(x, axis, total=None, scale=None):
    """prod_others over the reduced ``axis`` (a tuple of axes, or None for all), given the
    product with keepdims if known, times ``scale`` (keepdims) if given: several axes are
    brought to the end as one axis, and back afterwards."""
    shape = S.shape_of(x)
    ndim = len(shape)
    axes = tuple(range(ndim)) if axis is None else tuple(axis)
    if len(axes) == 1:
        return prod_others(x, total, scale, axis=axes[0])
    keep = tuple(i for i in range(ndim) if i not in axes)
    perm = keep + axes
    moved = S.transpose(x, perm=perm) if perm != tuple(range(ndim)) else x
    flat_shape = tuple(shape[i] for i in keep) + (math.prod(shape[i] for i in axes),)
    if total is not None:
        total = S.reshape(total, shape=flat_shape[:-1] + (1,))
    if scale is not None:
        scale = S.reshape(scale, shape=flat_shape[:-1] + (1,))
    o = prod_others(S.reshape(moved, shape=flat_shape), total, scale, axis=len(keep))
    o = S.reshape(o, shape=tuple(shape[i] for i in perm))
    if perm != tuple(range(ndim)):
        o = S.transpose(o, perm=tuple(np.argsort(perm).tolist()))
    return o


def _prod_vjp(g, ans, x, axis, keepdims):
    # g * (the product of the others), the cotangent folded into the one pass
    return _others(x, axis, S.expand_back(ans, x, axis, keepdims),
                   S.expand_back(g, x, axis, keepdims))


reduce_prod.vjp = (_prod_vjp,)
reduce_prod.jvp = (lambda t, ans, x, axis, keepdims: R.reduce_sum(
    A.mul(t, _others(x, axis, S.expand_back(ans, x, axis, keepdims))), axis=axis,
    keepdims=keepdims),)


# --- batching and Taylor rules ------------------------------------------------------------


reduce_prod.batch = S.axis_reduce(reduce_prod)
cumprod.batch = lambda args, dims, axis, reverse: (
    cumprod(S.to_front(args[0], dims[0]), axis=axis + 1, reverse=reverse), 0)
linrec.batch = lambda args, dims, axis, reverse: (
    linrec(*R.batch_front(args, dims), axis=axis + 1, reverse=reverse), 0)
cumprod_grad.batch = lambda args, dims, axis, reverse: (
    cumprod_grad(*R.batch_front(args, dims), axis=axis + 1, reverse=reverse), 0)
prod_others.batch = lambda args, dims, axis: (
    prod_others(*R.batch_front(args, dims), axis=axis + 1), 0)


def _from_jvp(prim):
    """Taylor mode through the primitive's own forward rules (the generic construction)."""
    def rule(primals, series, **params):
        return from_jvp(prim)(primals, series, **params)

    return rule


for _p in (linrec, cumprod, cumprod_grad, reduce_prod, prod_others):
    _p.taylor = _from_jvp(_p)
