"""Benchmark cases for ``mindspore.numpy`` (``mindgrad/numpy``): forward and backward of
its compositions against the same hand-written in NumPy. The thin wrappers (``add``,
``exp``, ``sum``) time the cost of the module's argument handling over the operator."""
from __future__ import annotations

import numpy as np

from opbench import F32, Case, normal, normals, ones_cot, uniform, unary
import mindgrad.numpy as mnp


def ref_add(x, y, cot=ones_cot):
    z = x + y
    g = cot(z)
    return (z * g).sum(), [g, g]


def ref_sum0(x, cot=ones_cot):
    y = x.sum(0)
    g = cot(y)
    return (y * g).sum(), [np.broadcast_to(g, x.shape).copy()]


def ref_var1(x, cot=ones_cot):
    m = x.mean(1, keepdims=True)
    y = ((x - m) ** 2).mean(1)
    g = cot(y)
    return (y * g).sum(), [(2.0 * (x - m) * g[:, None] / x.shape[1]).astype(F32)]


def ref_clip(x, cot=ones_cot):
    y = np.clip(x, -0.5, 0.5)
    g = cot(y)
    return (y * g).sum(), [g * ((x >= -0.5) & (x <= 0.5))]


def ref_concat(x, y, cot=ones_cot):
    z = np.concatenate([x, y], 1)
    g = cot(z)
    return (z * g).sum(), [g[:, :x.shape[1]], g[:, x.shape[1]:]]


def ref_pad_reflect(x, cot=ones_cot):
    y = np.pad(x, 2, "reflect")
    g = cot(y)
    n, m = x.shape
    ri = np.pad(np.arange(n), 2, "reflect")
    ci = np.pad(np.arange(m), 2, "reflect")
    dx = np.zeros_like(x)
    np.add.at(dx, (ri[:, None], ci[None, :]), g)
    return (y * g).sum(), [dx]


def ref_cov(x, cot=ones_cot):
    xc = x - x.mean(1, keepdims=True)
    n = x.shape[1]
    y = (xc @ xc.T / (n - 1)).astype(F32)
    g = cot(y)
    dx = ((g + g.T) @ xc / (n - 1)).astype(F32)
    return (y * g).sum(), [dx]


def ref_tensordot(a, b, cot=ones_cot):
    y = np.tensordot(a, b, 1)
    g = cot(y)
    return (y * g).sum(), [g @ b.T, a.T @ g]


CASES = [
    Case("mnp.add", "512x512 x2", normals(2, 512, 512), lambda x, y: mnp.add(x, y), ref_add),
    unary("mnp.exp", "512x512", normal(512, 512), lambda x: mnp.exp(x), np.exp,
          lambda x, y: y),
    Case("mnp.sum (axis 0)", "512x512", normal(512, 512), lambda x: mnp.sum(x, 0), ref_sum0),
    Case("mnp.var (axis 1)", "512x512", normal(512, 512), lambda x: mnp.var(x, 1), ref_var1),
    Case("mnp.clip", "512x512", uniform(-1, 1, 512, 512), lambda x: mnp.clip(x, -0.5, 0.5),
         ref_clip),
    Case("mnp.concatenate (axis 1)", "512x256 x2", normals(2, 512, 256),
         lambda x, y: mnp.concatenate((x, y), 1), ref_concat),
    Case("mnp.pad (reflect)", "512x512", normal(512, 512),
         lambda x: mnp.pad(x, 2, "reflect"), ref_pad_reflect),
    Case("mnp.cov", "64x4096", normal(64, 4096), lambda x: mnp.cov(x), ref_cov),
    Case("mnp.tensordot (axes=1)", "512x256, 256x512", lambda rng: (
        [rng.standard_normal((512, 256)).astype(F32),
         rng.standard_normal((256, 512)).astype(F32)], {}),
         lambda a, b: mnp.tensordot(a, b, 1), ref_tensordot),
]
