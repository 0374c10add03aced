"""Reductions: reduce_sum, reduce_mean, reduce_max / reduce_min (ties share the gradient
evenly, as in MindSpore) with their cotangent primitive extreme_grad, argmax / argmin (no
gradient), cumsum. Products are in products, variance, norms and softmax in reduce_fused."""
from __future__ import annotations

import math

import numpy as np

from ..core.primitive import Primitive
from ._util import reduce_with, xp_of
from . import arith as A
from . import compare as C
from . import structural as S
from . import getitem as G
from .structural import broadcastable, expand_back, kept_shape, reduce_sum, spread  # noqa: F401


def count(shape: tuple, axis: tuple | None) -> int:
    """How many elements a reduction over ``axis`` (None: all) combines into each result."""
    return math.prod(shape) if axis is None else math.prod(shape[a] for a in axis)


def _mean_impl(x, axis, keepdims):
    # the sum divided by the count, rounded as sum-then-divide always was: one operation
    # where the front end used to bind two (a mean is a common eager step)
    return xp_of(x).true_divide(reduce_with(np.add, x, axis, keepdims), count(x.shape, axis))


reduce_mean = Primitive("ReduceMean", _mean_impl)
reduce_mean.vjp = (lambda g, ans, x, axis, keepdims:
                   spread(A.div(g, count(S.shape_of(x), axis)), x, axis, keepdims),)
reduce_mean.jvp = (lambda t, ans, x, axis, keepdims: reduce_mean(t, axis=axis, keepdims=keepdims),)


# --- max / min ----------------------------------------------------------------------------
def _extreme_mask(x, ans, axis, keepdims):
    hit = S.cast(C.equal(x, expand_back(ans, x, axis, keepdims)), S.dtype_of(x))
    return A.div(hit, reduce_sum(hit, axis=axis, keepdims=True))


def _by_position(x, axis) -> bool:
    """Whether an extreme over ``axis`` is found faster as x[arg-extreme]: over the last,
    contiguous axis of many rows, NumPy's argmax/argmin beat its max/min reductions."""
    n = x.shape[-1] if x.ndim else 0
    return (axis is not None and axis == (x.ndim - 1,) and x.dtype.kind == "f" and n > 0
            and x.size // n >= 32 and x.strides[-1] == x.itemsize)


def extreme_impl(x, axis, keepdims, biggest):
    """max (``biggest``) or min of ``x`` over ``axis`` (a tuple, or None for all). NaN
    propagates either way: argmax/argmin pick the first NaN."""
    xp = xp_of(x)
    if _by_position(x, axis):
        i = (xp.argmax if biggest else xp.argmin)(x, axis=-1, keepdims=True)
        out = xp.take_along_axis(x, i, axis=-1)
        return out if keepdims else out.reshape(out.shape[:-1])
    return (xp.max if biggest else xp.min)(x, axis=axis, keepdims=keepdims)


def _extreme_grad_impl(g, x, ans, axis, keepdims):
    """spread(g) * (x == ans) / (number of elements equal to the extreme), the cotangent of
    reduce_max / reduce_min: one comparison, then a selection into zeros. Every reduced
    slice has a single extreme when the hits are as many as the slices (a NaN-free slice
    has at least one), and then the division is skipped too."""
    xp = xp_of(x)
    shape = kept_shape(x.shape, axis)
    m, gk = ans.reshape(shape), g.reshape(shape)
    dt = np.result_type(x.dtype, g.dtype)
    hit = x == m
    if int(xp.count_nonzero(hit)) != m.size or (
            m.dtype.kind in "fc" and bool(xp.isnan(m).any())):
        with np.errstate(divide="ignore", invalid="ignore"):
            gk = gk / hit.sum(axis=axis, keepdims=True, dtype=dt)  # a NaN slice: 0 / 0
    if not bool(xp.isfinite(gk).all()):
        # 0 * inf and 0 * NaN are NaN off the extremes too, as in spread(g) * mask
        with np.errstate(invalid="ignore"):
            return (hit * gk).astype(dt, copy=False)
    out = xp.zeros(x.shape, dt)
    xp.copyto(out, xp.broadcast_to(gk, x.shape), where=hit)
    return out


extreme_grad = Primitive("ExtremeGrad", _extreme_grad_impl)
# Linear in g; the selection is piecewise constant in x (and in the extreme), so the
# derivatives along x and ans are zero.
extreme_grad.vjp = (lambda h, ans, g, x, m, axis, keepdims:
                    reduce_sum(A.mul(h, _extreme_mask(x, m, axis, keepdims)), axis=axis,
                               keepdims=keepdims), None, None)
extreme_grad.jvp = (lambda t, ans, g, x, m, axis, keepdims:
                    extreme_grad(t, x, m, axis=axis, keepdims=keepdims), None, None)


def _extreme(name, biggest):
    p = Primitive(name, lambda x, axis, keepdims: extreme_impl(x, axis, keepdims, biggest))
    p.vjp = (lambda g, ans, x, axis, keepdims:
             extreme_grad(g, x, ans, axis=axis, keepdims=keepdims),)
    p.jvp = (lambda t, ans, x, axis, keepdims:
             reduce_sum(A.mul(t, _extreme_mask(x, ans, axis, keepdims)), axis=axis,
                        keepdims=keepdims),)
    return p


reduce_max = _extreme("ReduceMax", True)
reduce_min = _extreme("ReduceMin", False)

def _arg_extreme(fn):
    def impl(x, axis, keepdims, dtype=None):
        # dtype: the index dtype wanted (argmin's Int32), cast here rather than by a
        # second primitive
        if axis in (0, -1) and getattr(x, "ndim", None) == 0 and type(x) is not np.ndarray:
            # CuPy refuses an axis on a 0-d array, where NumPy answers 0
            return xp_of(x).zeros((), dtype or np.int64)
        out = fn(x, axis=axis, keepdims=keepdims)
        return out if dtype is None else out.astype(dtype, copy=False)

    return impl


argmax = Primitive("Argmax", _arg_extreme(np.argmax), nondiff=True)
argmin = Primitive("Argmin", _arg_extreme(np.argmin), nondiff=True)


def _flip(x, axis):
    index = (slice(None),) * axis + (slice(None, None, -1),)
    return G.getitem(x, index=index)


# integer sums keep their dtype (NumPy would widen int32 to int64), as MindSpore's do
# (the array's own method: np.cumsum's Python frame would take floating-point warnings)
cumsum = Primitive("CumSum", lambda x, axis: x.cumsum(
    axis=axis, dtype=x.dtype if x.dtype.kind in "iu" else None))
# The transpose of a running sum is the running sum taken from the other end.
cumsum.vjp = (lambda g, ans, x, axis: _flip(cumsum(_flip(g, axis), axis=axis), axis),)
cumsum.jvp = (lambda t, ans, x, axis: cumsum(t, axis=axis),)

# --- batching -------------------------------------------------------------------------------


def _batch_arg_reduce(prim):
    def rule(args, dims, axis, keepdims, dtype=None):
        x = S.to_front(args[0], dims[0])
        s = S.shape_of(x)
        if axis is not None:
            return prim(x, axis=axis + 1, keepdims=keepdims, dtype=dtype), 0
        out = prim(S.reshape(x, shape=(s[0], -1 if len(s) > 1 else 1)), axis=1, keepdims=False,
                   dtype=dtype)
        return (S.reshape(out, shape=(s[0],) + (1,) * (len(s) - 1)) if keepdims else out), 0

    return rule


def batch_front(args, dims):
    """The arguments with their batch axis in front, unbatched tensors broadcast to the
    batch (for primitives whose inputs must agree in shape); None stays None."""
    size = next(S.shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
    return [a if a is None else S.broadcast_batch(a, size) if d is None else S.to_front(a, d)
            for a, d in zip(args, dims)]


def _batch_extreme_grad(args, dims, axis, keepdims):
    g, x, m = batch_front(args, dims)
    ndim = len(S.shape_of(x)) - 1
    return extreme_grad(g, x, m, axis=S.shift_axis(axis, ndim), keepdims=keepdims), 0


for _p in (reduce_mean, reduce_max, reduce_min):
    _p.batch = S.axis_reduce(_p)
for _p in (argmax, argmin):
    _p.batch = _batch_arg_reduce(_p)
extreme_grad.batch = _batch_extreme_grad
cumsum.batch = lambda args, dims, axis: (cumsum(S.to_front(args[0], dims[0]), axis=axis + 1), 0)



def _extreme_grad_taylor(primals, series, axis, keepdims):
    # linear in g, constant in x and the extreme (see the rules above)
    g, x, m = primals
    out = extreme_grad(g, x, m, axis=axis, keepdims=keepdims)
    gs = series[0] or [None] * S.series_order(series)
    return out, [None if c is None else extreme_grad(c, x, m, axis=axis, keepdims=keepdims)
                 for c in gs]


reduce_mean.taylor = S.linear(reduce_mean)
cumsum.taylor = S.linear(cumsum)
extreme_grad.taylor = _extreme_grad_taylor
