"""Benchmark cases for the reductions: sums and means, max / min, variance and norms,
logsumexp, running sums, softmax and log-softmax, and argmax / argmin used through a gather.

Each reference is the forward and backward a NumPy programmer would write by hand for the
same function. Max and min run on distinct values, and their references compute MindSpore's
backward (tied extremes share the gradient evenly; tests/test_ops_edge_cases.py checks the
ties): the mask of the extremes divided by its count per slice, with the maximum along the
last axis found through argmax (NumPy's fast route there). argmax / argmin through a gather
send the whole gradient to the one position, as NumPy's scatter does. The gradients of sums
and means are the broadcast cotangent, a view as NumPy gives it.
"""
from __future__ import annotations

import numpy as np

from opbench import F32, T, Case, normal, ones_cot
from mindgrad import ops

ROWS = np.arange(512)


def distinct(*shape):
    """Distinct float32 values in [0, 1) (no ties for max, min, argmax, argmin)."""
    n = int(np.prod(shape))
    return lambda rng: ([(rng.permutation(n).reshape(shape) / n).astype(F32)], {})


# --- NumPy hand-written forward + backward -------------------------------------------------
def ref_sum_all(x, cot=ones_cot):
    y = x.sum()
    g = cot(y)
    return (y * g).sum(), [np.broadcast_to(g, x.shape)]


def ref_sum_axis0(x, cot=ones_cot):
    y = x.sum(0)
    g = cot(y)
    return (y * g).sum(), [np.broadcast_to(g, x.shape)]


def ref_sum_axis1_keep(x, cot=ones_cot):
    y = x.sum(1, keepdims=True)
    g = cot(y)
    return (y * g).sum(), [np.broadcast_to(g, x.shape)]


def ref_mean_all(x, cot=ones_cot):
    y = x.mean()
    g = cot(y)
    return (y * g).sum(), [np.broadcast_to(g / F32(x.size), x.shape)]


def ref_mean_axis1(x, cot=ones_cot):
    y = x.mean(1)
    g = cot(y)
    return (y * g).sum(), [np.broadcast_to((g / F32(x.shape[1]))[:, None], x.shape)]


def ref_max_axis1(x, cot=ones_cot):
    y = x[ROWS, x.argmax(1)]  # NumPy's fast route to a maximum along the last axis
    g = cot(y)
    hit = x == y[:, None]  # tied maxima share the gradient evenly, as in MindSpore
    return (y * g).sum(), [hit * (g / hit.sum(1, dtype=x.dtype))[:, None]]


def ref_min_axis0(x, cot=ones_cot):
    y = x.min(0)  # argmin over a strided axis is slow in NumPy; min is not
    g = cot(y)
    hit = x == y
    return (y * g).sum(), [hit * (g / hit.sum(0, dtype=x.dtype))]


def ref_var_axis1(x, cot=ones_cot):
    n = x.shape[1]
    d = x - x.mean(1, keepdims=True)
    y = (d * d).sum(1) / F32(n)
    g = cot(y)
    return (y * g).sum(), [d * (g * F32(2 / n))[:, None]]


def ref_std_axis1(x, cot=ones_cot):
    n = x.shape[1]
    d = x - x.mean(1, keepdims=True)
    y = np.sqrt((d * d).sum(1) / F32(n))
    g = cot(y)
    return (y * g).sum(), [d * (g / (F32(n) * y))[:, None]]


def ref_norm_axis1(x, cot=ones_cot):
    y = np.linalg.norm(x, axis=1)
    g = cot(y)
    return (y * g).sum(), [x * (g / y)[:, None]]


def ref_norm_all(x, cot=ones_cot):
    y = np.linalg.norm(x)  # a BLAS dot for the whole array
    g = cot(y)
    return (y * g).sum(), [x * (g / y)]


def ref_logsumexp(x, cot=ones_cot):
    m = x.max(1, keepdims=True)
    e = np.exp(x - m)
    s = e.sum(1, keepdims=True)
    y = (np.log(s) + m)[:, 0]
    g = cot(y)
    return (y * g).sum(), [e * (g[:, None] / s)]


def ref_cumsum(x, cot=ones_cot):
    y = np.cumsum(x, 1)
    g = cot(y)
    return (y * g).sum(), [np.cumsum(g[:, ::-1], 1)[:, ::-1]]


def ref_softmax(x, cot=ones_cot):
    e = np.exp(x - x.max(1, keepdims=True))
    y = e / e.sum(1, keepdims=True)
    g = cot(y)
    return (y * g).sum(), [y * (g - (g * y).sum(1, keepdims=True))]


def ref_log_softmax(x, cot=ones_cot):
    z = x - x.max(1, keepdims=True)
    e = np.exp(z)
    s = e.sum(1, keepdims=True)
    y = z - np.log(s)
    g = cot(y)
    return (y * g).sum(), [g - e * (g.sum(1, keepdims=True) / s)]


def _ref_gather_at(pick):
    """Forward + backward of x[rows, pick(x)]: the whole cotangent goes to the picked one."""
    def ref(x, cot=ones_cot):
        i = pick(x)
        y = x[ROWS, i]
        g = cot(y)
        gx = np.zeros_like(x)
        gx[ROWS, i] = g
        return (y * g).sum(), [gx]
    return ref


ref_argmax_gather = _ref_gather_at(lambda x: x.argmax(1))
ref_argmin_gather = _ref_gather_at(lambda x: x.argmin(1))


_ROWS_T = T(ROWS)

CASES = [
    Case("sum (all)", "512x512", normal(512, 512), lambda x: ops.sum(x), ref_sum_all),
    Case("sum (axis 0)", "512x512", normal(512, 512), lambda x: ops.sum(x, 0), ref_sum_axis0),
    Case("sum (axis 1, keep)", "512x512", normal(512, 512), lambda x: ops.sum(x, 1, True),
         ref_sum_axis1_keep),
    Case("mean (all)", "512x512", normal(512, 512), lambda x: ops.mean(x), ref_mean_all),
    Case("mean (axis 1)", "512x512", normal(512, 512), lambda x: ops.mean(x, 1), ref_mean_axis1),
    Case("max (axis 1)", "512x512", distinct(512, 512), lambda x: ops.amax(x, 1), ref_max_axis1),
    Case("min (axis 0)", "512x512", distinct(512, 512), lambda x: ops.amin(x, 0), ref_min_axis0),
    Case("var (axis 1)", "512x512", normal(512, 512), lambda x: ops.var(x, 1), ref_var_axis1),
    Case("std (axis 1)", "512x512", normal(512, 512), lambda x: ops.std(x, 1), ref_std_axis1),
    Case("norm (axis 1)", "512x512", normal(512, 512), lambda x: ops.norm(x, dim=1),
         ref_norm_axis1),
    Case("norm (all)", "512x512", normal(512, 512), lambda x: ops.norm(x), ref_norm_all),
    Case("logsumexp (axis 1)", "512x512", normal(512, 512), lambda x: ops.logsumexp(x, 1),
         ref_logsumexp),
    Case("cumsum (axis 1)", "512x512", normal(512, 512), lambda x: ops.cumsum(x, 1), ref_cumsum),
    Case("softmax (axis -1)", "512x512", normal(512, 512), lambda x: ops.softmax(x, -1),
         ref_softmax),
    Case("log_softmax (axis -1)", "512x512", normal(512, 512), lambda x: ops.log_softmax(x, -1),
         ref_log_softmax),
    Case("argmax + gather (ax 1)", "512x512", distinct(512, 512),
         lambda x: x[_ROWS_T, ops.argmax(x, 1)], ref_argmax_gather),
    Case("argmin + gather (ax 1)", "512x512", distinct(512, 512),
         lambda x: x[_ROWS_T, ops.argmin(x, 1)], ref_argmin_gather),
]
