"""One LSTM time step fused into one primitive, and its reverse rule into another.

``lstm_step(gi, h, c, w_hh) -> (h', c', a)``: from the input part of the gates ``gi``
(..., 4H, biases included), the state ``(h, c)`` (..., H) and the hidden weight ``w_hh``
(4H, H), the gates stacked as (input, forget, cell, output)::

    z = gi + h w_hh^T
    a = (i, f, g, o) = sigmoid(z_i), sigmoid(z_f), tanh(z_g), sigmoid(z_o)
    c' = f c + i g,   h' = o tanh(c')

The activated gates ``a`` are an output so that the reverse rule reads them instead of
computing them again (a layer uses ``h'`` and ``c'`` only; a cotangent of ``a`` is honoured).

Written as operators a time step is eleven operations forward and some thirty backward; a
recurrence of T steps pays each one's dispatch T times. Fused, the step is one primitive
forward (``lstm_step``) and one backward (``lstm_step_vjp``), computing the same values in
the same order as the composite.

Both primitives name their composite in ``hints["composite"]`` (written with other
primitives): the reverse rule of ``lstm_step_vjp``, the forward rules and the Taylor rules
of both differentiate the composite, so derivatives of any order, vmap and Taylor mode see
the same function. Only the first reverse pass, the one training runs, takes the fused path.

(The reverse trace imports the primitives, and these rules call it: this family is imported
by the layers that use it, ``nn/layers/rnns.py``, not by ``prims/__init__``.)
"""
from __future__ import annotations

from typing import Callable

from ..core.primitive import Primitive
from ..ad.api import forward, reverse
from ..ad.taylor import taylor_call
from ._util import xp_of
from . import arith as A
from . import matmul as M
from . import structural as S
from . import unary as U
from .matmul import _matmul_impl
from .unary import _sigmoid_impl


def _activate(xp, z):
    """The activated gates, stacked like the pre-activations ``z``."""
    hid = z.shape[-1] // 4
    a = _sigmoid_impl(z)  # (the cell block is overwritten: one call, no slicing of z)
    a[..., 2 * hid:3 * hid] = xp.tanh(z[..., 2 * hid:3 * hid])
    return a


def _blocks(a):
    hid = a.shape[-1] // 4
    return a[..., :hid], a[..., hid:2 * hid], a[..., 2 * hid:3 * hid], a[..., 3 * hid:]


def _step_impl(gi, h, c, w_hh):
    xp = xp_of(gi)
    a = _activate(xp, gi + _matmul_impl(h, w_hh, transpose_b=True))
    i, f, g, o = _blocks(a)
    c_new = f * c + i * g
    return o * xp.tanh(c_new), c_new, a


def _step_vjp_impl(gh, gc, h, c, w_hh, c_new, a, *ga):
    """``(dgi, dh, dc, dw_hh)`` from the cotangents ``gh``, ``gc`` of ``h'``, ``c'`` and
    ``ga`` of the activated gates ``a`` (absent when ``a`` got none: the usual case)."""
    xp = xp_of(a)
    i, f, g, o = _blocks(a)
    tc = xp.tanh(c_new)
    dc_new = gh * o * (1 - tc * tc) + gc
    da = xp.concatenate([dc_new * g, dc_new * c, dc_new * i, gh * tc], axis=-1)
    if ga:
        da += ga[0]
    slope = a * (1 - a)  # the sigmoid's derivative; the cell block's is tanh's, 1 - g^2
    hid = a.shape[-1] // 4
    slope[..., 2 * hid:3 * hid] = 1 - g * g
    dz = da * slope
    dw = _matmul_impl(dz, h, transpose_a=True)
    if dw.ndim > w_hh.ndim:  # rows stacked in more leading axes than the weight has
        dw = dw.sum(axis=tuple(range(dw.ndim - w_hh.ndim)))
    return dz, _matmul_impl(dz, w_hh), dc_new * f, dw


# --- the composites, in primitives ---------------------------------------------------------
def _split4(x):
    return S.split(x, axis=len(S.shape_of(x)) - 1, sizes=(S.shape_of(x)[-1] // 4,) * 4)


def _step_composite(gi, h, c, w_hh):
    zi, zf, zg, zo = _split4(A.add(gi, M.matmul(h, w_hh, transpose_b=True)))
    i, f, g, o = U.sigmoid(zi), U.sigmoid(zf), U.tanh(zg), U.sigmoid(zo)
    c_new = A.add(A.mul(f, c), A.mul(i, g))
    return A.mul(o, U.tanh(c_new)), c_new, S.concat(i, f, g, o, axis=len(S.shape_of(zi)) - 1)


def _slope(s):
    """The derivative ``s (1 - s)`` of a sigmoid from its value."""
    return A.mul(s, A.sub(1, s))


def _step_vjp_composite(gh, gc, h, c, w_hh, c_new, a, *ga):
    i, f, g, o = _split4(a)
    tc = U.tanh(c_new)
    dc_new = A.add(A.mul(A.mul(gh, o), A.sub(1, A.mul(tc, tc))), gc)
    da = [A.mul(dc_new, g), A.mul(dc_new, c), A.mul(dc_new, i), A.mul(gh, tc)]
    if ga:
        da = [A.add(d, part) for d, part in zip(da, _split4(ga[0]))]
    dz = S.concat(A.mul(da[0], _slope(i)), A.mul(da[1], _slope(f)),
                  A.mul(da[2], A.sub(1, A.mul(g, g))), A.mul(da[3], _slope(o)),
                  axis=len(S.shape_of(a)) - 1)
    dw = M.matmul(dz, h, transpose_a=True)
    extra = len(S.shape_of(dw)) - len(S.shape_of(w_hh))
    if extra > 0:
        dw = S.reduce_sum(dw, axis=tuple(range(extra)), keepdims=False)
    return dz, M.matmul(dz, w_hh), A.mul(dc_new, f), dw


# --- rules through the composite -----------------------------------------------------------
def _composite_vjp(composite: Callable) -> Callable:
    def rule(gs, ans, *xs):
        cts, _ = reverse(composite, xs, range(len(xs)))(list(gs))
        return cts
    return rule


def _composite_jvp(composite: Callable) -> Callable:
    def rule(primals, tangents):
        ts = [S.zeros_like(p) if t is None else t for p, t in zip(primals, tangents)]
        return forward(composite, primals, ts)
    return rule


def _composite_taylor(composite: Callable) -> Callable:
    def rule(primals, series):
        return taylor_call(composite, primals, series, S.series_order(series))
    return rule


def _batch(prim: Primitive) -> Callable:
    """Every operand given the batch axis in front (the primitives act on the last axis and
    need operands of one shape)."""
    def rule(args, dims):
        size = next(S.shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
        moved = [S.broadcast_batch(a, size) if d is None else S.to_front(a, d)
                 for a, d in zip(args, dims)]
        return prim(*moved), 0
    return rule


lstm_step = Primitive("LSTMStep", _step_impl, multiple_results=True)
lstm_step_vjp = Primitive("LSTMStepGrad", _step_vjp_impl, multiple_results=True)


def _step_vjp(gs, ans, gi, h, c, w_hh):
    # the reverse pass leaves a missing cotangent None (hint below): no zeros are made for
    # the gates, which a layer never uses
    gh, gc = [S.zeros_like(o) if g is None else g for g, o in zip(gs[:2], ans[:2])]
    extra = () if gs[2] is None else (gs[2],)
    return list(lstm_step_vjp(gh, gc, h, c, w_hh, ans[1], ans[2], *extra))


lstm_step.vjp_all = _step_vjp
lstm_step.hints["missing_cotangents"] = True
lstm_step_vjp.vjp_all = _composite_vjp(_step_vjp_composite)
for _prim, _composite in ((lstm_step, _step_composite), (lstm_step_vjp, _step_vjp_composite)):
    _prim.jvp_all = _composite_jvp(_composite)
    _prim.taylor = _composite_taylor(_composite)
    _prim.batch = _batch(_prim)
    _prim.hints["composite"] = _composite
