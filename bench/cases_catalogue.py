"""Benchmark cases for the catalogue's families (sorting, losses, running extremes,
distances): forward and backward against the same hand-written in NumPy."""
from __future__ import annotations

import numpy as np

from opbench import F32, T, Case, normal, ones_cot, sigmoid
from mindgrad import ops


def ref_sort(x, cot=ones_cot):
    i = np.argsort(x, 1, kind="stable")
    y = np.take_along_axis(x, i, 1)
    g = cot(y)
    dx = np.zeros_like(x)
    np.put_along_axis(dx, i, g, 1)
    return (y * g).sum(), [dx]


def ref_topk(x, cot=ones_cot, k=8):
    i = np.argsort(-x, 1, kind="stable")[:, :k]
    y = np.take_along_axis(x, i, 1)
    g = cot(y)
    dx = np.zeros_like(x)
    np.put_along_axis(dx, i, g, 1)
    return (y * g).sum(), [dx]


def ref_bce_logits(x, t, cot=ones_cot):
    y = np.mean(t * np.logaddexp(0, -x) + (1 - t) * np.logaddexp(0, x)).astype(F32)
    g = cot(y)
    return (y * g).sum(), [((sigmoid(x) - t) * g / x.size).astype(F32)]


def ref_cross_entropy(x, labels, cot=ones_cot):
    m = x.max(1, keepdims=True)
    e = np.exp(x - m)
    s = e.sum(1, keepdims=True)
    logp = x - m - np.log(s)
    n = x.shape[0]
    y = np.asarray(-logp[np.arange(n), labels].mean(), F32)
    g = cot(y)
    dx = e / s
    dx[np.arange(n), labels] -= 1
    return (y * g).sum(), [(dx * g / n).astype(F32)]


def ref_logcumsumexp(x, cot=ones_cot):
    m = x.max(1, keepdims=True)
    c = np.cumsum(np.exp(x - m), 1)
    y = np.log(c) + m
    g = cot(y)
    # d y_j / d x_i = exp(x_i - y_j) for i <= j: a reversed running sum
    w = g / c
    dx = np.exp(x - m) * np.cumsum(w[:, ::-1], 1)[:, ::-1]
    return (y * g).sum(), [dx]


def ref_cdist(a, b, cot=ones_cot):
    d = a[:, None, :] - b[None, :, :]
    y = np.sqrt((d * d).sum(-1))
    g = cot(y)
    w = g / np.where(y == 0, 1, y)
    return (y * g).sum(), [(w[:, :, None] * d).sum(1), -(w[:, :, None] * d).sum(0)]


def with_labels(rng):
    return [rng.standard_normal((4096, 64)).astype(F32)], {"labels": rng.integers(0, 64, 4096)}


def with_targets(rng):
    return [rng.standard_normal((512, 512)).astype(F32)], {
        "t": rng.random((512, 512)).astype(F32)}


def two(rng):
    return [rng.standard_normal((512, 64)).astype(F32),
            rng.standard_normal((256, 64)).astype(F32)], {}


CASES = [
    Case("sort (axis 1)", "512x512", normal(512, 512), lambda x: ops.sort(x, 1)[0], ref_sort),
    Case("topk (k=8)", "512x512", normal(512, 512), lambda x: ops.topk(x, 8)[0], ref_topk),
    Case("binary_cross_entropy_with_logits", "512x512", with_targets,
         lambda x, t: ops.binary_cross_entropy_with_logits(x, T(t)), ref_bce_logits),
    Case("cross_entropy", "4096x64", with_labels,
         lambda x, labels: ops.cross_entropy(x, T(labels)), ref_cross_entropy),
    Case("logcumsumexp (axis 1)", "512x512", normal(512, 512),
         lambda x: ops.logcumsumexp(x, 1), ref_logcumsumexp),
    Case("cdist", "512x64, 256x64", two, lambda a, b: ops.cdist(a, b), ref_cdist),
]
