"""Benchmark cases for the operator families added with the catalogue (reciprocals,
quantiles, unpooling, the softmax cross-entropy operator class): forward and backward
against the same hand-written in NumPy."""
from __future__ import annotations

import numpy as np

from opbench import F32, T, Case, normal, ones_cot, uniform, unary
from mindgrad import ops


def ref_quantile(x, cot=ones_cot, q=0.3):
    """Linear interpolation between the two order statistics around ``q (n - 1)`` of each
    row; the gradient goes to those two elements."""
    n = x.shape[1]
    pos = q * (n - 1)
    lo, frac = int(np.floor(pos)), pos - np.floor(pos)
    order = np.argsort(x, 1, kind="stable")
    s = np.take_along_axis(x, order, 1)
    y = (s[:, lo] * (1 - frac) + s[:, min(lo + 1, n - 1)] * frac).astype(F32)
    g = cot(y)
    ds = np.zeros_like(x)
    ds[:, lo] += g * (1 - frac)
    ds[:, min(lo + 1, n - 1)] += g * frac
    dx = np.zeros_like(x)
    np.put_along_axis(dx, order, ds, 1)
    return (y * g).sum(), [dx.astype(F32)]


def with_pool_indices(rng):
    """A (8, 16, 64, 64) map of pooled values and the flat indices of their 2x2 windows'
    maxima, as max_pool2d with return_indices gives them."""
    n, c, h, w = 8, 16, 64, 64
    x = rng.standard_normal((n, c, h, w)).astype(F32)
    dy, dx_ = rng.integers(0, 2, (2, n, c, h, w))
    rows = 2 * np.arange(h)[:, None] + dy
    cols = 2 * np.arange(w)[None, :] + dx_
    return [x], {"indices": (rows * (2 * w) + cols).astype(np.int64)}


def ref_max_unpool2d(x, cot=ones_cot, indices=None):
    n, c, h, w = x.shape
    y = np.zeros((n, c, 4 * h * w), F32)
    flat = indices.reshape(n, c, -1)
    np.put_along_axis(y, flat, x.reshape(n, c, -1), 2)
    y = y.reshape(n, c, 2 * h, 2 * w)
    g = cot(y)
    dx = np.take_along_axis(g.reshape(n, c, -1), flat, 2).reshape(x.shape)
    return (y * g).sum(), [dx]


def with_probabilities(rng):
    logits = rng.standard_normal((4096, 64)).astype(F32)
    p = rng.random((4096, 64)).astype(F32)
    return [logits], {"labels": p / p.sum(1, keepdims=True)}


def ref_softmax_ce_logits(x, cot=ones_cot, labels=None):
    m = x.max(1, keepdims=True)
    e = np.exp(x - m)
    s = e.sum(1, keepdims=True)
    y = (-(labels * (x - m - np.log(s))).sum(1)).astype(F32)
    g = cot(y)
    return (y * g).sum(), [((e / s - labels) * g[:, None]).astype(F32)]


_SCE = ops.SoftmaxCrossEntropyWithLogits()

CASES = [
    unary("inv", "512x512", uniform(0.5, 2.0, 512, 512), ops.inv, lambda x: 1 / x,
          lambda x, y: -y * y),
    Case("quantile (q=0.3, axis 1)", "512x512", normal(512, 512),
         lambda x: ops.quantile(x, 0.3, axis=1), ref_quantile),
    Case("max_unpool2d (2x2)", "8x16x64x64", with_pool_indices,
         lambda x, indices: ops.max_unpool2d(x, T(indices), 2), ref_max_unpool2d),
    Case("SoftmaxCrossEntropyWithLogits", "4096x64", with_probabilities,
         lambda x, labels: _SCE(x, T(labels))[0], ref_softmax_ce_logits),
]
