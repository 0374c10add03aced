"""The time steps of the LSTM and GRU fused into one primitive each, and their reverse
rules into one more each.

``lstm_step(gi, h, c, w_hh) -> (h', c', a)``: from the input part of the gates ``gi``
(..., 4H, biases included), the state ``(h, c)`` (..., H) and the hidden weight ``w_hh``
(4H, H), the gates stacked as (input, forget, cell, output)::

    z = gi + h w_hh^T
    a = (i, f, g, o) = sigmoid(z_i), sigmoid(z_f), tanh(z_g), sigmoid(z_o)
    c' = f c + i g,   h' = o tanh(c')

``gru_step(gi, h, w_hh[, b_hh]) -> (h', a)``: the gates stacked as (reset, update, new)::

    q = h w_hh^T + b_hh
    r, u = sigmoid(gi_r + q_r), sigmoid(gi_u + q_u),   n = tanh(gi_n + r q_n)
    h' = n + u (h - n),   a = (r, u, n, q_n)

The saved values ``a`` are an output so that the reverse rule reads them instead of
computing them again (a layer uses ``h'`` and ``c'`` only; a cotangent of ``a`` is honoured).

Written as operators a time step is about ten operations forward and some thirty backward;
a recurrence of T steps pays each one's dispatch T times. Fused, the step is one primitive
forward and one backward, computing the same values in the same order as the composite.

Every primitive here names its composite in ``hints["composite"]`` (written with other
primitives): the reverse rules of the reverse primitives, the forward rules and the Taylor
rules differentiate the composites, so derivatives of any order, vmap and Taylor mode see
the same functions. Only the first reverse pass, the one training runs, takes the fused path.

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


def _sum_to(x, shape: tuple):
    """``x`` summed over the axes along which an operand of ``shape`` was broadcast (rows
    stacked in more axes than a weight has)."""
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + k for k, d in enumerate(shape)
                                      if d == 1 and x.shape[lead + k] != 1)
    return x.sum(axis=axes, keepdims=True).reshape(shape) if axes else x


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
    dw = _sum_to(_matmul_impl(dz, h, transpose_a=True), w_hh.shape)
    return dz, _matmul_impl(dz, w_hh), dc_new * f, dw


def _gru_impl(gi, h, w_hh, *b_hh):
    xp = xp_of(gi)
    q = _matmul_impl(h, w_hh, transpose_b=True)
    if b_hh:
        q += b_hh[0]
    hid = h.shape[-1]
    ru = _sigmoid_impl(gi[..., :2 * hid] + q[..., :2 * hid])
    r = ru[..., :hid]
    q_n = q[..., 2 * hid:]
    n = xp.tanh(gi[..., 2 * hid:] + r * q_n)
    return n + ru[..., hid:] * (h - n), xp.concatenate([ru, n, q_n], axis=-1)


def _gru_vjp_impl(gh, h, w_hh, a, *extra, bias):
    """``(dgi, dh, dw_hh[, db_hh])`` from the cotangent ``gh`` of ``h'``; ``extra`` is
    ``b_hh`` when ``bias``, then ``ga``, the cotangent of the saved values ``a``, when they
    got one."""
    xp = xp_of(a)
    b_hh = extra[0] if bias else None
    ga = extra[1 if bias else 0] if len(extra) > bias else None
    r, u, n, q_n = _blocks(a)
    dn = gh * (1 - u)
    du = gh * (h - n)
    if ga is not None:
        g_r, g_u, g_n, g_q = _blocks(ga)
        dn, du = dn + g_n, du + g_u
    dan = dn * (1 - n * n)
    dr = dan * q_n
    dq_n = dan * r
    if ga is not None:
        dr, dq_n = dr + g_r, dq_n + g_q
    dar = dr * (r * (1 - r))
    dau = du * (u * (1 - u))
    dgi = xp.concatenate([dar, dau, dan], axis=-1)
    dq = xp.concatenate([dar, dau, dq_n], axis=-1)
    out = [dgi, gh * u + _matmul_impl(dq, w_hh),
           _sum_to(_matmul_impl(dq, h, transpose_a=True), w_hh.shape)]
    if bias:
        out.append(_sum_to(dq, b_hh.shape))
    return tuple(out)


# --- the composites, in primitives ---------------------------------------------------------
def _split(x, parts: int):
    return S.split(x, axis=len(S.shape_of(x)) - 1, sizes=(S.shape_of(x)[-1] // parts,) * parts)


def _split4(x):
    return _split(x, 4)


def _concat(*xs):
    return S.concat(*xs, axis=len(S.shape_of(xs[0])) - 1)


def _step_composite(gi, h, c, w_hh):
    zi, zf, zg, zo = _split4(A.add(gi, M.matmul(h, w_hh, transpose_b=True)))
    i, f, g, o = U.sigmoid(zi), U.sigmoid(zf), U.tanh(zg), U.sigmoid(zo)
    c_new = A.add(A.mul(f, c), A.mul(i, g))
    return A.mul(o, U.tanh(c_new)), c_new, _concat(i, f, g, o)


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
    dz = _concat(A.mul(da[0], _slope(i)), A.mul(da[1], _slope(f)),
                 A.mul(da[2], A.sub(1, A.mul(g, g))), A.mul(da[3], _slope(o)))
    dw = S.unbroadcast(M.matmul(dz, h, transpose_a=True), w_hh)
    return dz, M.matmul(dz, w_hh), A.mul(dc_new, f), dw


def _gru_composite(gi, h, w_hh, *b_hh):
    q = M.matmul(h, w_hh, transpose_b=True)
    if b_hh:
        q = A.add(q, b_hh[0])
    gi_r, gi_u, gi_n = _split(gi, 3)
    q_r, q_u, q_n = _split(q, 3)
    r, u = U.sigmoid(A.add(gi_r, q_r)), U.sigmoid(A.add(gi_u, q_u))
    n = U.tanh(A.add(gi_n, A.mul(r, q_n)))
    return A.add(n, A.mul(u, A.sub(h, n))), _concat(r, u, n, q_n)


def _gru_vjp_composite(gh, h, w_hh, a, *extra, bias):
    b_hh = extra[0] if bias else None
    ga = extra[1 if bias else 0] if len(extra) > bias else None
    r, u, n, q_n = _split4(a)
    dn, du = A.mul(gh, A.sub(1, u)), A.mul(gh, A.sub(h, n))
    if ga is not None:
        g_r, g_u, g_n, g_q = _split4(ga)
        dn, du = A.add(dn, g_n), A.add(du, g_u)
    dan = A.mul(dn, A.sub(1, A.mul(n, n)))
    dr, dq_n = A.mul(dan, q_n), A.mul(dan, r)
    if ga is not None:
        dr, dq_n = A.add(dr, g_r), A.add(dq_n, g_q)
    dar, dau = A.mul(dr, _slope(r)), A.mul(du, _slope(u))
    dq = _concat(dar, dau, dq_n)
    out = [_concat(dar, dau, dan), A.add(A.mul(gh, u), M.matmul(dq, w_hh)),
           S.unbroadcast(M.matmul(dq, h, transpose_a=True), w_hh)]
    if bias:
        out.append(S.unbroadcast(dq, b_hh))
    return tuple(out)


# --- rules through the composite -----------------------------------------------------------
def _composite_vjp(composite: Callable) -> Callable:
    def rule(gs, ans, *xs, **params):
        cts, _ = reverse(lambda *a: composite(*a, **params), xs, range(len(xs)))(list(gs))
        return cts
    return rule


def _composite_jvp(composite: Callable) -> Callable:
    def rule(primals, tangents, **params):
        ts = [S.zeros_like(p) if t is None else t for p, t in zip(primals, tangents)]
        return forward(lambda *a: composite(*a, **params), primals, ts)
    return rule


def _composite_taylor(composite: Callable) -> Callable:
    def rule(primals, series, **params):
        return taylor_call(lambda *a: composite(*a, **params), primals, series,
                           S.series_order(series))
    return rule


def _batch(prim: Primitive) -> Callable:
    """Every operand given the batch axis in front and the rank of the others (the
    primitives act on the last axis and line their operands up from the right). A result
    shaped like an operand (a weight's or bias's cotangent) gets that operand's shape back."""
    def rule(args, dims, **params):
        size = next(S.shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
        rank = max(len(S.shape_of(a)) - (d is not None) for a, d in zip(args, dims))
        fronted = [S.broadcast_batch(a, size) if d is None else S.to_front(a, d)
                   for a, d in zip(args, dims)]
        out = list(prim(*[S.rank_up(a, rank) for a in fronted], **params))
        for k, j in _shaped_like(prim, params).items():
            out[k] = S.reshape(out[k], shape=S.shape_of(fronted[j]))
        return out, 0
    return rule


def _shaped_like(prim: Primitive, params: dict) -> dict:
    """``{result: operand}`` for the results of ``prim`` shaped like one of its operands
    that the batching rule may have given more axes (the GRU's hidden bias)."""
    if prim is gru_step_vjp and params["bias"]:
        return {3: 4}
    return {}


def _fused(prim: Primitive, composite: Callable) -> None:
    """The rules every primitive here takes from its composite."""
    prim.jvp_all = _composite_jvp(composite)
    prim.taylor = _composite_taylor(composite)
    prim.batch = _batch(prim)
    prim.hints["composite"] = composite


def _cotangents(gs: list, ans: tuple, used: int) -> tuple[list, tuple]:
    """The cotangents of the first ``used`` outputs (zeros for a missing one), and that of
    the saved values as a tuple of zero or one (the reverse pass leaves a missing cotangent
    None, hint ``missing_cotangents``: no zeros are made for values a layer never uses)."""
    first = [S.zeros_like(o) if g is None else g for g, o in zip(gs[:used], ans[:used])]
    return first, () if gs[used] is None else (gs[used],)


lstm_step = Primitive("LSTMStep", _step_impl, multiple_results=True)
lstm_step_vjp = Primitive("LSTMStepGrad", _step_vjp_impl, multiple_results=True)
gru_step = Primitive("GRUStep", _gru_impl, multiple_results=True)
gru_step_vjp = Primitive("GRUStepGrad", _gru_vjp_impl, multiple_results=True)


def _lstm_vjp(gs, ans, gi, h, c, w_hh):
    (gh, gc), ga = _cotangents(gs, ans, 2)
    return list(lstm_step_vjp(gh, gc, h, c, w_hh, ans[1], ans[2], *ga))


def _gru_vjp(gs, ans, gi, h, w_hh, *b_hh):
    (gh,), ga = _cotangents(gs, ans, 1)
    return list(gru_step_vjp(gh, h, w_hh, ans[1], *b_hh, *ga, bias=bool(b_hh)))


for _prim, _rule in ((lstm_step, _lstm_vjp), (gru_step, _gru_vjp)):
    _prim.vjp_all = _rule
    _prim.hints["missing_cotangents"] = True
for _prim, _composite in ((lstm_step, _step_composite), (lstm_step_vjp, _step_vjp_composite),
                          (gru_step, _gru_composite), (gru_step_vjp, _gru_vjp_composite)):
    _fused(_prim, _composite)
lstm_step_vjp.vjp_all = _composite_vjp(_step_vjp_composite)
gru_step_vjp.vjp_all = _composite_vjp(_gru_vjp_composite)
