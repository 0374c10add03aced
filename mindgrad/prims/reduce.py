"""Reductions: reduce_sum, reduce_max / reduce_min (ties share the gradient evenly, as in
MindSpore), argmax / argmin (no gradient), cumsum, reduce_prod."""
from __future__ import annotations

import numpy as np

from ..core.primitive import Primitive
from . import arith as A
from . import compare as C
from . import shape as S


def kept_shape(shape: tuple, axis: tuple | None) -> tuple:
    """The shape a reduction over ``axis`` has with keepdims=True."""
    if axis is None:
        return (1,) * len(shape)
    return tuple(1 if i in axis else d for i, d in enumerate(shape))


def _expand_back(g, x, axis, keepdims):
    """Give a reduced cotangent or output the rank of ``x`` again (for broadcasting)."""
    if not keepdims:
        g = S.reshape(g, shape=kept_shape(S.shape_of(x), axis))
    return g


def _spread(g, x, axis, keepdims):
    return S.broadcast_to(_expand_back(g, x, axis, keepdims), shape=S.shape_of(x))


reduce_sum = Primitive("ReduceSum", lambda x, axis, keepdims: x.sum(axis=axis, keepdims=keepdims))
reduce_sum.vjp = (lambda g, ans, x, axis, keepdims: _spread(g, x, axis, keepdims),)
reduce_sum.jvp = (lambda t, ans, x, axis, keepdims: reduce_sum(t, axis=axis, keepdims=keepdims),)


def _extreme_mask(x, ans, axis, keepdims):
    hit = S.cast(C.equal(x, _expand_back(ans, x, axis, keepdims)), S.dtype_of(x))
    return A.div(hit, reduce_sum(hit, axis=axis, keepdims=True))


def _extreme(name, fn):
    p = Primitive(name, lambda x, axis, keepdims: fn(x, axis=axis, keepdims=keepdims))
    p.vjp = (lambda g, ans, x, axis, keepdims:
             A.mul(_spread(g, x, axis, keepdims), _extreme_mask(x, ans, axis, keepdims)),)
    p.jvp = (lambda t, ans, x, axis, keepdims:
             reduce_sum(A.mul(t, _extreme_mask(x, ans, axis, keepdims)), axis=axis,
                        keepdims=keepdims),)
    return p


reduce_max = _extreme("ReduceMax", np.max)
reduce_min = _extreme("ReduceMin", np.min)

argmax = Primitive("Argmax", lambda x, axis, keepdims: np.argmax(x, axis=axis, keepdims=keepdims),
                   nondiff=True)
argmin = Primitive("Argmin", lambda x, axis, keepdims: np.argmin(x, axis=axis, keepdims=keepdims),
                   nondiff=True)


def _flip(x, axis):
    index = (slice(None),) * axis + (slice(None, None, -1),)
    return S.getitem(x, index=index)


cumsum = Primitive("CumSum", lambda x, axis: np.cumsum(x, axis=axis))
# The transpose of a running sum is the running sum taken from the other end.
cumsum.vjp = (lambda g, ans, x, axis: _flip(cumsum(_flip(g, axis), axis=axis), axis),)
cumsum.jvp = (lambda t, ans, x, axis: cumsum(t, axis=axis),)

# --- batching -------------------------------------------------------------------------------
from . import batch_rules as B  # noqa: E402


def _batch_axis_reduce(prim):
    def rule(args, dims, axis, keepdims):
        x = B.to_front(args[0], dims[0])
        return prim(x, axis=B.shift_axis(axis, len(S.shape_of(x)) - 1), keepdims=keepdims), 0

    return rule


def _batch_arg_reduce(prim):
    def rule(args, dims, axis, keepdims):
        x = B.to_front(args[0], dims[0])
        s = S.shape_of(x)
        if axis is not None:
            return prim(x, axis=axis + 1, keepdims=keepdims), 0
        out = prim(S.reshape(x, shape=(s[0], -1 if len(s) > 1 else 1)), axis=1, keepdims=False)
        return (S.reshape(out, shape=(s[0],) + (1,) * (len(s) - 1)) if keepdims else out), 0

    return rule


for _p in (reduce_sum, reduce_max, reduce_min):
    _p.batch = _batch_axis_reduce(_p)
for _p in (argmax, argmin):
    _p.batch = _batch_arg_reduce(_p)
cumsum.batch = lambda args, dims, axis: (cumsum(B.to_front(args[0], dims[0]), axis=axis + 1), 0)

from . import taylor_rules as T  # noqa: E402

reduce_sum.taylor = T.linear(reduce_sum)
cumsum.taylor = T.linear(cumsum)
