"""Forward + backward of the recurrent and attention layers against the same computation
hand-written in NumPy: ``nn.LSTM`` and ``nn.GRU`` (the gradient of ``sum(output * v)`` with
respect to the input and every weight, through time) and ``nn.MultiheadAttention`` (with respect to the
query, key, value and the projections). Results are checked to agree; times are medians
over rounds timed round-robin (mindgrad, then NumPy, in each round).

    python bench/bench_nn_layers.py [--repeats N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import mindgrad as ms  # noqa: E402
from mindgrad import Tensor, nn  # noqa: E402


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def lstm_numpy(x, w_ih, w_hh, b_ih, b_hh, v):
    """Forward of one LSTM layer and the backward of ``sum(out * v)`` through time."""
    t_len, b, _ = x.shape
    hid = w_hh.shape[1]
    gi = x @ w_ih.T + b_ih + b_hh
    h = np.zeros((b, hid), x.dtype)
    c = np.zeros((b, hid), x.dtype)
    cache, outs = [], []
    for t in range(t_len):
        g = gi[t] + h @ w_hh.T
        i, f, gg, o = _sigmoid(g[:, :hid]), _sigmoid(g[:, hid:2 * hid]), \
            np.tanh(g[:, 2 * hid:3 * hid]), _sigmoid(g[:, 3 * hid:])
        c_new = f * c + i * gg
        tc = np.tanh(c_new)
        cache.append((h, c, i, f, gg, o, tc))
        h, c = o * tc, c_new
        outs.append(h)
    out = np.stack(outs)
    dgates = np.empty_like(gi)
    dh_next = np.zeros((b, hid), x.dtype)
    dc_next = np.zeros((b, hid), x.dtype)
    dw_hh = np.zeros_like(w_hh)
    for t in reversed(range(t_len)):
        h_prev, c_prev, i, f, gg, o, tc = cache[t]
        dh = v[t] + dh_next
        do = dh * tc
        dc = dh * o * (1 - tc * tc) + dc_next
        di, df, dg = dc * gg, dc * c_prev, dc * i
        dgt = np.concatenate([di * i * (1 - i), df * f * (1 - f), dg * (1 - gg * gg),
                              do * o * (1 - o)], axis=1)
        dgates[t] = dgt
        dw_hh += dgt.T @ h_prev
        dh_next = dgt @ w_hh
        dc_next = dc * f
    flat = dgates.reshape(t_len * b, -1)
    dx = (flat @ w_ih).reshape(x.shape)
    dw_ih = flat.T @ x.reshape(t_len * b, -1)
    db = flat.sum(0)
    return out, (dx, dw_ih, dw_hh, db, db)


def gru_numpy(x, w_ih, w_hh, b_ih, b_hh, v):
    """Forward of one GRU layer and the backward of ``sum(out * v)`` through time."""
    t_len, b, _ = x.shape
    hid = w_hh.shape[1]
    gi = x @ w_ih.T + b_ih
    h = np.zeros((b, hid), x.dtype)
    cache, outs = [], []
    for t in range(t_len):
        gh = h @ w_hh.T + b_hh
        r = _sigmoid(gi[t, :, :hid] + gh[:, :hid])
        z = _sigmoid(gi[t, :, hid:2 * hid] + gh[:, hid:2 * hid])
        hn = gh[:, 2 * hid:]
        n = np.tanh(gi[t, :, 2 * hid:] + r * hn)
        cache.append((h, r, z, n, hn))
        h = n + z * (h - n)
        outs.append(h)
    out = np.stack(outs)
    dgi = np.empty_like(gi)
    dgh = np.empty_like(gi)
    dh_next = np.zeros((b, hid), x.dtype)
    dw_hh = np.zeros_like(w_hh)
    for t in reversed(range(t_len)):
        h_prev, r, z, n, hn = cache[t]
        dh = v[t] + dh_next
        dan = dh * (1 - z) * (1 - n * n)
        dar = dan * hn * r * (1 - r)
        daz = dh * (h_prev - n) * z * (1 - z)
        dgi[t] = np.concatenate([dar, daz, dan], axis=1)
        dgh[t] = np.concatenate([dar, daz, dan * r], axis=1)
        dw_hh += dgh[t].T @ h_prev
        dh_next = dh * z + dgh[t] @ w_hh
    flat = dgi.reshape(t_len * b, -1)
    dx = (flat @ w_ih).reshape(x.shape)
    dw_ih = flat.T @ x.reshape(t_len * b, -1)
    return out, (dx, dw_ih, dw_hh, flat.sum(0), dgh.reshape(t_len * b, -1).sum(0))


def mha_numpy(q, k, v, w_in, b_in, w_out, b_out, heads, g):
    """Forward of multi-head self/cross attention and the backward of ``sum(out * g)``."""
    lq, n, e = q.shape
    ls = k.shape[0]
    hd = e // heads
    wq, wk, wv = w_in[:e], w_in[e:2 * e], w_in[2 * e:]
    bq, bk, bv = b_in[:e], b_in[e:2 * e], b_in[2 * e:]
    qp, kp, vp = q @ wq.T + bq, k @ wk.T + bk, v @ wv.T + bv

    def split(t, length):  # (L, N, E) -> (N, H, L, hd)
        return t.reshape(length, n, heads, hd).transpose(1, 2, 0, 3)

    qh, kh, vh = split(qp, lq), split(kp, ls), split(vp, ls)
    scale = 1 / np.sqrt(hd)
    s = qh @ kh.transpose(0, 1, 3, 2) * scale
    s = s - s.max(-1, keepdims=True)
    a = np.exp(s)
    a /= a.sum(-1, keepdims=True)
    ctx = a @ vh                                               # (N, H, Lq, hd)
    merged = ctx.transpose(2, 0, 1, 3).reshape(lq, n, e)
    out = merged @ w_out.T + b_out
    dmerged = g @ w_out
    dw_out = g.reshape(-1, e).T @ merged.reshape(-1, e)
    db_out = g.reshape(-1, e).sum(0)
    dctx = dmerged.reshape(lq, n, heads, hd).transpose(1, 2, 0, 3)
    da = dctx @ vh.transpose(0, 1, 3, 2)
    dvh = a.transpose(0, 1, 3, 2) @ dctx
    ds = a * (da - (da * a).sum(-1, keepdims=True)) * scale
    dqh = ds @ kh
    dkh = ds.transpose(0, 1, 3, 2) @ qh

    def merge(t, length):
        return t.transpose(2, 0, 1, 3).reshape(length, n, e)

    dqp, dkp, dvp = merge(dqh, lq), merge(dkh, ls), merge(dvh, ls)
    grads = []
    for dp, x_in, w in ((dqp, q, wq), (dkp, k, wk), (dvp, v, wv)):
        grads.append((dp @ w, dp.reshape(-1, e).T @ x_in.reshape(-1, e), dp.reshape(-1, e).sum(0)))
    dw_in = np.concatenate([gr[1] for gr in grads])
    db_in = np.concatenate([gr[2] for gr in grads])
    return out, (grads[0][0], grads[1][0], grads[2][0], dw_in, db_in, dw_out, db_out)


def _time(fn, repeats: int) -> list:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def _bench_recurrent(layer, reference, repeats: int) -> tuple:
    """A one-layer recurrent ``layer`` (nn.LSTM or nn.GRU) against its NumPy ``reference``."""
    rng = np.random.default_rng(0)
    t_len, b, i, h = 32, 16, 64, 128
    net = layer(i, h)
    x = rng.normal(size=(t_len, b, i)).astype(np.float32)
    v = rng.normal(size=(t_len, b, h)).astype(np.float32)
    params = {p.name: p.asnumpy() for p in net.get_parameters()}
    weights = net.trainable_params()
    tv = Tensor(v)
    grad = ms.grad(lambda a: (net(a)[0] * tv).sum(), grad_position=0, weights=weights)

    def mine():
        return grad(Tensor(x))

    def numpy_():
        return reference(x, params["weight_ih_l0"], params["weight_hh_l0"],
                         params["bias_ih_l0"], params["bias_hh_l0"], v)

    dx, dws = mine()
    _, ref = numpy_()
    np.testing.assert_allclose(dx.asnumpy(), ref[0], rtol=1e-3, atol=1e-4)
    for got, want in zip(dws, ref[1:], strict=True):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-3, atol=1e-3)
    return _rounds(mine, numpy_, repeats)


def bench_lstm(repeats: int) -> tuple:
    return _bench_recurrent(nn.LSTM, lstm_numpy, repeats)


def bench_gru(repeats: int) -> tuple:
    return _bench_recurrent(nn.GRU, gru_numpy, repeats)


def bench_mha(repeats: int) -> tuple:
    rng = np.random.default_rng(1)
    lq, ls, n, e, heads = 64, 64, 8, 128, 8
    net = nn.MultiheadAttention(e, heads)
    q, k, v = (rng.normal(size=(ln, n, e)).astype(np.float32) for ln in (lq, ls, ls))
    g = rng.normal(size=(lq, n, e)).astype(np.float32)
    p = {name: prm.asnumpy() for name, prm in net.parameters_and_names()}
    tg = Tensor(g)
    grad = ms.grad(lambda a, b_, c: (net(a, b_, c)[0] * tg).sum(), grad_position=(0, 1, 2),
                   weights=net.trainable_params())

    def mine():
        return grad(Tensor(q), Tensor(k), Tensor(v))

    def numpy_():
        return mha_numpy(q, k, v, p["in_proj_weight"], p["in_proj_bias"],
                         p["out_proj.weight"], p["out_proj.bias"], heads, g)

    (dq, _, _), dws = mine()
    _, ref = numpy_()
    np.testing.assert_allclose(dq.asnumpy(), ref[0], rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(dws[0].asnumpy(), ref[3], rtol=1e-3, atol=1e-3)
    return _rounds(mine, numpy_, repeats)


def _rounds(mine, numpy_, repeats: int) -> tuple:
    a, b = [], []
    for _ in range(repeats):  # interleaved, so that machine load hits both alike
        a += _time(mine, 1)
        b += _time(numpy_, 1)
    return statistics.median(a), statistics.median(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    print(f"{'layer':<28}{'mindgrad ms':>12}{'numpy ms':>10}{'ratio':>8}")
    for name, fn in (("LSTM(64, 128) T=32 B=16", bench_lstm),
                     ("GRU(64, 128) T=32 B=16", bench_gru),
                     ("MultiheadAttention(128, 8)", bench_mha)):
        mine, ref = fn(args.repeats)
        print(f"{name:<28}{mine * 1e3:>12.2f}{ref * 1e3:>10.2f}{mine / ref:>8.2f}")


if __name__ == "__main__":
    main()
