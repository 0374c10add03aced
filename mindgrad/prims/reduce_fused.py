"""Reductions fused into one primitive each: variance, 2-norm, softmax.

``reduce_var`` (its reverse rule 2 (x - mean) g / (n - ddof) through the linear primitive
``centered``), ``reduce_norm`` (x g / |x|) and ``softmax`` (y (g - sum(g y))) replace chains of
elementwise operations whose reverse passes cost several more passes over the data; each
has rules in differentiable operations, a batching rule and a Taylor rule through the
composite it stands for.
"""
from __future__ import annotations

import math

import numpy as np

from ..core.primitive import Primitive
from ._util import xp_of
from . import arith as A
from . import reduce as R
from . import structural as S
from . import unary as U
from ..ad.taylor import taylor_call


# --- sums of squares: var and the 2-norm ----------------------------------------------------
_EINSUM_MAX = 8192  # longest reduction summed by einsum (sequential partial sums lose
#                      accuracy with length; NumPy's pairwise sum does not)


def _letters(ndim: int, axis) -> tuple[str, str]:
    """einsum subscripts of an array and of its reduction over ``axis``."""
    letters = "abcdefghijklmnopqrstuvwxyz"[:ndim]
    return letters, "".join(c for i, c in enumerate(letters) if axis is not None and i not in axis)


def _sumsq(xp, d, axis, keepdims):
    """sum(d * d) over ``axis`` without the squared temporary: a dot product over all axes,
    an einsum over some."""
    n = R.count(d.shape, axis)
    if d.dtype.kind != "f" or d.size == 0 or d.ndim > 26:
        return (d * d).sum(axis=axis, keepdims=keepdims)
    if axis is None:
        flat = d.reshape(-1)
        out = xp.dot(flat, flat)
        return out.reshape((1,) * d.ndim) if keepdims else out
    if n > _EINSUM_MAX:
        return (d * d).sum(axis=axis, keepdims=keepdims)
    letters, kept = _letters(d.ndim, axis)
    out = xp.einsum(f"{letters},{letters}->{kept}", d, d)
    return out.reshape(R.kept_shape(d.shape, axis)) if keepdims else out


def _centered_impl(x, axis):
    """x minus its mean over ``axis``; the sum by einsum where that is exact enough (any
    rounding of the mean cancels in the variance to first order)."""
    xp = xp_of(x)
    n = R.count(x.shape, axis)
    if x.dtype.kind == "f" and 0 < n <= _EINSUM_MAX and x.ndim <= 26:
        letters, kept = _letters(x.ndim, axis)
        total = xp.einsum(f"{letters}->{kept}", x).reshape(R.kept_shape(x.shape, axis))
        return x - total / x.dtype.type(n)
    return x - x.mean(axis=axis, keepdims=True)


# x - mean(x): linear and self-adjoint (I - 11^T / n), so it is its own reverse rule
centered = Primitive("Centered", _centered_impl)
centered.vjp = (lambda g, ans, x, axis: centered(g, axis=axis),)
centered.jvp = (lambda t, ans, x, axis: centered(t, axis=axis),)


def _dof(shape, axis, ddof):
    """The divisor of a variance, ``n - ddof``, never below 0 (as NumPy's): a ``ddof`` of
    ``n`` or more gives inf or NaN, not a negative variance."""
    return max(R.count(shape, axis) - ddof, 0)


def _twice_over(shape, axis, ddof):
    """``2 / (n - ddof)``, the scale of the variance's derivative; inf when the divisor is
    0 (a Python division would raise)."""
    dof = _dof(shape, axis, ddof)
    return 2.0 / dof if dof else math.inf


def _var_impl(x, axis, keepdims, ddof):
    xp = xp_of(x)
    d = _centered_impl(x, axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        return xp.asarray(_sumsq(xp, d, axis, keepdims) / _dof(x.shape, axis, ddof))


reduce_var = Primitive("ReduceVar", _var_impl)


def _var_vjp(g, ans, x, axis, keepdims, ddof):
    # d var / dx = 2 (x - mean) / (n - ddof): the mean's own term sums to zero
    scale = A.mul(R.broadcastable(g, x, axis, keepdims), _twice_over(S.shape_of(x), axis, ddof))
    return A.mul(centered(x, axis=axis), scale)


def _var_jvp(t, ans, x, axis, keepdims, ddof):
    c = _twice_over(S.shape_of(x), axis, ddof)
    return A.mul(R.reduce_sum(A.mul(t, centered(x, axis=axis)), axis=axis, keepdims=keepdims), c)


reduce_var.vjp = (_var_vjp,)
reduce_var.jvp = (_var_jvp,)


def _var_composite(x, axis, keepdims, ddof):
    n = R.count(S.shape_of(x), axis)
    d = A.sub(x, A.div(R.reduce_sum(x, axis=axis, keepdims=True), n))
    return A.div(R.reduce_sum(A.mul(d, d), axis=axis, keepdims=keepdims),
                 _dof(S.shape_of(x), axis, ddof))


def _norm_impl(x, axis, keepdims):
    xp = xp_of(x)
    return xp.sqrt(xp.asarray(_sumsq(xp, x, axis, keepdims)))


reduce_norm = Primitive("ReduceNorm", _norm_impl)
# d |x| / dx = x / |x|, and 0 at the zero vector (the subgradient MindSpore and PyTorch take):
# div_no_nan costs one comparison more than the division, over the reduced shape only. (Taylor
# mode keeps the composite sqrt(sum x**2), which is NaN at the zero vector.)
reduce_norm.vjp = (lambda g, ans, x, axis, keepdims:
                   A.mul(x, R.broadcastable(A.div_no_nan(g, ans), x, axis, keepdims)),)
reduce_norm.jvp = (lambda t, ans, x, axis, keepdims:
                   A.div_no_nan(R.reduce_sum(A.mul(t, x), axis=axis, keepdims=keepdims), ans),)


def _norm_composite(x, axis, keepdims):
    return U.sqrt(R.reduce_sum(A.mul(x, x), axis=axis, keepdims=keepdims))


# --- softmax ----------------------------------------------------------------------------------
def _softmax_impl(x, axis):
    xp = xp_of(x)
    if x.size == 0:  # an empty input has nothing to normalize (and no maximum to shift by)
        return xp.exp(x)
    e = x - R.extreme_impl(x, axis, True, True)
    if e.dtype.kind == "f":
        xp.exp(e, out=e)
        e /= e.sum(axis=axis, keepdims=True)
        return e
    e = xp.exp(e)
    return e / e.sum(axis=axis, keepdims=True)


softmax = Primitive("Softmax", _softmax_impl)


def _softmax_lin(t, ans, axis):
    """J t = J^T t = ans * (t - sum(t * ans)): the softmax Jacobian is symmetric."""
    return A.mul(ans, A.sub(t, R.reduce_sum(A.mul(t, ans), axis=axis, keepdims=True)))


softmax.vjp = (lambda g, ans, x, axis: _softmax_lin(g, ans, axis),)
softmax.jvp = (lambda t, ans, x, axis: _softmax_lin(t, ans, axis),)


def _softmax_composite(x, axis):
    e = U.exp(A.sub(x, S.stop_gradient(R.reduce_max(x, axis=axis, keepdims=True))))
    return A.div(e, R.reduce_sum(e, axis=axis, keepdims=True))


# --- batching and Taylor rules ------------------------------------------------------------


def _shifted(axis, x):
    """A reduction's axis parameter seen with the batch axis in front of ``x``."""
    return S.shift_axis(axis, len(S.shape_of(x)) - 1)


reduce_norm.batch = S.axis_reduce(reduce_norm)
reduce_var.batch = lambda args, dims, axis, keepdims, ddof: (reduce_var(
    S.to_front(args[0], dims[0]), axis=_shifted(axis, args[0]), keepdims=keepdims,
    ddof=ddof), 0)
centered.batch = lambda args, dims, axis: (
    centered(S.to_front(args[0], dims[0]), axis=_shifted(axis, args[0])), 0)
softmax.batch = lambda args, dims, axis: (
    softmax(S.to_front(args[0], dims[0]), axis=tuple(a + 1 for a in axis)), 0)


def _via(composite):
    """Taylor mode through the composite the primitive stands for (the same function)."""
    def rule(primals, series, **params):
        return taylor_call(lambda x: composite(x, **params), primals, series,
                           S.series_order(series))

    return rule


centered.taylor = S.linear(centered)
reduce_var.taylor = _via(_var_composite)
reduce_norm.taylor = _via(_norm_composite)
softmax.taylor = _via(_softmax_composite)

# The composites these fused primitives stand for: the primitive table checks that each
# agrees with its composite in value and derivatives.
centered.hints["composite"] = lambda x, axis: A.sub(
    x, A.div(R.reduce_sum(x, axis=axis, keepdims=True), R.count(S.shape_of(x), axis)))
reduce_var.hints["composite"] = _var_composite
reduce_norm.hints["composite"] = _norm_composite
softmax.hints["composite"] = _softmax_composite
