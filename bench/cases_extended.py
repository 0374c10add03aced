"""Benchmark cases for the operators beyond the core set: products, padding and indexing,
einsum and matrix functions, convolution and pooling, and the activation composites."""
from __future__ import annotations

import numpy as np
from scipy.special import erf  # the gelu reference; pip install -e '.[bench]'

from opbench import F32, T, Case, distinct, near_one, normal, ones_cot, sigmoid
from mindgrad import ops


# --- NumPy hand-written forward + backward -------------------------------------------------
def ref_prod(x, cot=ones_cot):
    y = x.prod(1)
    g = cot(y)
    return (y * g).sum(), [(g * y)[:, None] / x]  # the textbook rule (no zeros here)


def ref_cumprod(x, cot=ones_cot):
    y = np.cumprod(x, 1)
    g = cot(y)
    return (y * g).sum(), [np.cumsum((g * y)[:, ::-1], 1)[:, ::-1] / x]


def ref_pad(x, cot=ones_cot):
    y = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    g = cot(y)
    return (y * g).sum(), [g[:, :, 1:-1, 1:-1]]


def _scatter_sum(values, idx, shape):
    """Zeros of ``shape`` with ``values`` added at the (row, column) pairs ``idx``, summed in
    float64 by ``bincount`` and rounded once (the precise idiom; mindgrad sums in float64
    too, so both compute the same numbers)."""
    flat = idx[:, 0] * shape[1] + idx[:, 1]
    sums = np.bincount(flat, weights=values, minlength=shape[0] * shape[1])
    return sums.astype(values.dtype).reshape(shape)


def ref_gather_nd(x, idx, cot=ones_cot):
    i, j = idx[:, 0], idx[:, 1]
    y = x[i, j]
    g = cot(y)
    return (y * g).sum(), [_scatter_sum(g, idx, x.shape)]


def ref_scatter_nd(u, idx, cot=ones_cot):
    i, j = idx[:, 0], idx[:, 1]
    y = _scatter_sum(u, idx, (512, 512))
    g = cot(y)
    return (y * g).sum(), [g[i, j]]


def ref_scatter_add(x, u, idx, cot=ones_cot):
    i, j = idx[:, 0], idx[:, 1]
    y = x + _scatter_sum(u, idx, x.shape)
    g = cot(y)
    return (y * g).sum(), [g, g[i, j]]


def ref_scatter_update(x, u, idx, cot=ones_cot):
    i, j = idx[:, 0], idx[:, 1]
    y = x.copy()
    y[i, j] = u
    g = cot(y)
    gx = g.copy()
    gx[i, j] = 0
    lin = i * x.shape[1] + j
    owner = np.full(x.size, -1)
    owner[lin] = np.arange(len(lin))
    return (y * g).sum(), [gx, np.where(owner[lin] == np.arange(len(lin)), g[i, j], 0)]


def ref_masked_fill(x, mask, cot=ones_cot):
    y = np.where(mask, F32(0.5), x)
    g = cot(y)
    return (y * g).sum(), [np.where(mask, F32(0), g)]


def ref_index_select(x, idx, cot=ones_cot):
    y = x[idx]
    g = cot(y)
    gx = np.zeros_like(x)
    np.add.at(gx, idx, g)
    return (y * g).sum(), [gx]


def ref_einsum(a, b, cot=ones_cot):
    y = a @ b
    g = cot(y)
    return (y * g).sum(), [g @ np.swapaxes(b, 1, 2), np.swapaxes(a, 1, 2) @ g]


def ref_inverse(a, cot=ones_cot):
    inv = np.linalg.inv(a)
    g = cot(inv)
    it = np.swapaxes(inv, 1, 2)
    return (inv * g).sum(), [-(it @ g @ it)]


def ref_det(a, cot=ones_cot):
    d = np.linalg.det(a)
    g = cot(d)
    return (d * g).sum(), [(g * d)[:, None, None] * np.swapaxes(np.linalg.inv(a), 1, 2)]


def ref_solve(a, b, cot=ones_cot):
    x = np.linalg.solve(a, b)
    g = cot(x)
    gb = np.linalg.solve(np.swapaxes(a, 1, 2), g)
    return (x * g).sum(), [-(gb @ np.swapaxes(x, 1, 2)), gb]


def ref_cholesky(a, cot=ones_cot):
    low = np.linalg.cholesky(a)
    g = cot(low)
    n = a.shape[-1]
    phi = np.tril(np.ones((n, n), F32), -1) + 0.5 * np.eye(n, dtype=F32)
    lt = np.swapaxes(low, 1, 2)
    p = (lt @ g) * phi
    y = np.linalg.solve(lt, p)
    abar = np.swapaxes(np.linalg.solve(lt, np.swapaxes(y, 1, 2)), 1, 2)
    return (low * g).sum(), [(abar + np.swapaxes(abar, 1, 2)) * phi]


def _im2col(xp, kh, kw, s, ho, wo):
    win = np.lib.stride_tricks.sliding_window_view(xp, (kh, kw), axis=(2, 3))
    return win[:, :, ::s, ::s][:, :, :ho, :wo]  # (N, C, Ho, Wo, kh, kw)


def ref_conv2d(x, w, stride, pad, cot=ones_cot):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ho, wo = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    cols = _im2col(xp, kh, kw, stride, ho, wo)
    y = np.tensordot(cols, w, axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2)
    g = cot(y)
    gw = np.tensordot(g, cols, axes=([0, 2, 3], [0, 2, 3]))          # (O, C, kh, kw)
    gcols = np.tensordot(g, w, axes=([1], [0]))                       # (N, Ho, Wo, C, kh, kw)
    gxp = np.zeros_like(xp)
    for i in range(kh):
        for j in range(kw):
            gxp[:, :, i:i + stride * ho:stride, j:j + stride * wo:stride] += \
                gcols[..., i, j].transpose(0, 3, 1, 2)
    return (y * g).sum(), [gxp[:, :, pad:pad + h, pad:pad + wd], gw]


def ref_maxpool_2x2(x, cot=ones_cot):
    n, c, h, w = x.shape
    r = x.reshape(n, c, h // 2, 2, w // 2, 2)
    y = r.max(axis=(3, 5))
    g = cot(y)
    hit = r == y[:, :, :, None, :, None]  # inputs are distinct: one maximum per window
    return (y * g).sum(), [(hit * g[:, :, :, None, :, None]).reshape(x.shape)]


def ref_maxpool_3x3(x, cot=ones_cot):
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    ho, wo = (h - 1) // 2 + 1, (w - 1) // 2 + 1
    win = _im2col(xp, 3, 3, 2, ho, wo).reshape(n, c, ho, wo, 9)
    k = win.argmax(-1)
    y = np.take_along_axis(win, k[..., None], -1)[..., 0]
    g = cot(y)
    rows = (np.arange(ho) * 2 - 1)[:, None] + k // 3
    cols = (np.arange(wo) * 2 - 1)[None, :] + k % 3
    flat = (np.arange(n * c).reshape(n, c, 1, 1) * h + rows) * w + cols
    gx = np.bincount(flat.ravel(), g.ravel(), x.size).astype(F32).reshape(x.shape)
    return (y * g).sum(), [gx]


def ref_avgpool_2x2(x, cot=ones_cot):
    n, c, h, w = x.shape
    y = x.reshape(n, c, h // 2, 2, w // 2, 2).mean(axis=(3, 5))
    g = cot(y)
    return (y * g).sum(), [np.repeat(np.repeat(g / 4, 2, 2), 2, 3)]


def ref_avgpool_3x3(x, cot=ones_cot):
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    ho, wo = (h - 1) // 2 + 1, (w - 1) // 2 + 1
    y = _im2col(xp, 3, 3, 2, ho, wo).sum(axis=(4, 5)) / 9
    g = cot(y)
    gxp = np.zeros_like(xp)
    for i in range(3):
        for j in range(3):
            gxp[:, :, i:i + 2 * ho:2, j:j + 2 * wo:2] += g / 9
    return (y * g).sum(), [gxp[:, :, 1:-1, 1:-1]]


def ref_gelu(x, cot=ones_cot):
    c = 0.5 * (1 + erf(x / np.sqrt(F32(2))))
    y = x * c
    g = cot(y)
    return (y * g).sum(), [g * (c + x * np.exp(-0.5 * x * x) / np.sqrt(F32(2 * np.pi)))]


def ref_silu(x, cot=ones_cot):
    s = sigmoid(x)
    y = x * s
    g = cot(y)
    return (y * g).sum(), [g * s * (1 + x * (1 - s))]


def ref_mish(x, cot=ones_cot):
    sp = np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))  # softplus without overflow
    t = np.tanh(sp)
    y = x * t
    g = cot(y)
    s = -np.expm1(-sp)  # sigmoid(x) = 1 - exp(-softplus(x))
    return (y * g).sum(), [g * (t + x * (1 - t * t) * s)]


def ref_hardswish(x, cot=ones_cot):
    r = np.clip(x + 3, 0, 6) / 6
    y = x * r
    g = cot(y)
    return (y * g).sum(), [g * (r + (x / 6) * ((x > -3) & (x < 3)))]


# The activations below avoid np.where on a data-dependent mask: it branches per element
# and takes about 1 ms for 512x512 here, ten times a product with the mask.
def ref_elu(x, cot=ones_cot):
    y = np.maximum(x, 0) + np.expm1(np.minimum(x, 0))
    g = cot(y)
    return (y * g).sum(), [g * (np.minimum(y, 0) + 1)]  # 1 for x > 0, e^x = y + 1 elsewhere


def ref_leaky_relu(x, cot=ones_cot):
    y = np.maximum(x, F32(0.2) * x)
    g = cot(y)
    return (y * g).sum(), [g * ((x > 0) * F32(0.8) + F32(0.2))]


# --- inputs -------------------------------------------------------------------------------------
def matrices(batch, n, extra=False, sym=False):
    def make(rng):
        a = rng.standard_normal((batch, n, n)).astype(F32)
        a = a @ np.swapaxes(a, 1, 2) + n * np.eye(n, dtype=F32) if sym else a + 3 * np.eye(n, dtype=F32)
        arrays = [a] + ([rng.standard_normal((batch, n, n)).astype(F32)] if extra else [])
        return arrays, {}
    return make


def with_pairs(extra_update=False, only_update=False):
    def make(rng):
        x = rng.standard_normal((512, 512)).astype(F32)
        idx = rng.integers(0, 512, (100_000, 2))
        u = [rng.standard_normal(100_000).astype(F32)] if extra_update or only_update else []
        return ([] if only_update else [x]) + u, {"idx": idx}
    return make


def conv_inputs(stride):
    def make(rng):
        x = rng.standard_normal((8, 16, 32, 32)).astype(F32)
        w = (rng.standard_normal((32, 16, 3, 3)) / 12).astype(F32)
        return [x, w], {"stride": stride, "pad": 1}
    return make


CASES = [
    Case("prod (axis 1)", "512x512", near_one(512, 512), lambda x: ops.prod(x, 1), ref_prod),
    Case("cumprod (axis 1)", "512x512", near_one(512, 512), lambda x: ops.cumprod(x, 1),
         ref_cumprod),
    Case("pad (H, W by 1)", "8x32x32x32", normal(8, 32, 32, 32),
         lambda x: ops.pad(x, (1, 1, 1, 1)), ref_pad),
    Case("gather_nd", "512x512, 100k idx", with_pairs(),
         lambda x, idx: ops.gather_nd(x, T(idx)), ref_gather_nd),
    Case("scatter_nd", "100k -> 512x512", with_pairs(only_update=True),
         lambda u, idx: ops.scatter_nd(T(idx), u, (512, 512)), ref_scatter_nd),
    Case("tensor_scatter_add", "512x512, 100k idx", with_pairs(True),
         lambda x, u, idx: ops.tensor_scatter_add(x, T(idx), u), ref_scatter_add),
    Case("tensor_scatter_update", "512x512, 100k idx", with_pairs(True),
         lambda x, u, idx: ops.tensor_scatter_update(x, T(idx), u), ref_scatter_update),
    Case("masked_fill", "512x512",
         lambda rng: ([rng.standard_normal((512, 512)).astype(F32)],
                      {"mask": rng.random((512, 512)) < 0.3}),
         lambda x, mask: ops.masked_fill(x, T(mask), 0.5), ref_masked_fill),
    Case("index_select (axis 0)", "512x512, 512 idx",
         lambda rng: ([rng.standard_normal((512, 512)).astype(F32)],
                      {"idx": rng.integers(0, 512, 512)}),
         lambda x, idx: ops.index_select(x, 0, T(idx)), ref_index_select),
    Case("einsum bij,bjk->bik", "2 x 64x64x64", lambda rng: (
        [rng.standard_normal((64, 64, 64)).astype(F32) for _ in range(2)], {}),
         lambda a, b: ops.einsum("bij,bjk->bik", a, b), ref_einsum),
    Case("inverse", "4096x8x8", matrices(4096, 8), ops.inverse, ref_inverse),
    Case("det", "4096x8x8", matrices(4096, 8), ops.det, ref_det),
    Case("solve", "4096x8x8 (2)", matrices(4096, 8, extra=True), ops.solve, ref_solve),
    Case("cholesky", "4096x8x8", matrices(4096, 8, sym=True), ops.cholesky, ref_cholesky),
    Case("conv2d 3x3 s1 p1", "8x16x32x32 *32", conv_inputs(1),
         lambda x, w, stride, pad: ops.conv2d(x, w, stride=stride, pad_mode="pad", padding=pad),
         ref_conv2d),
    Case("conv2d 3x3 s2 p1", "8x16x32x32 *32", conv_inputs(2),
         lambda x, w, stride, pad: ops.conv2d(x, w, stride=stride, pad_mode="pad", padding=pad),
         ref_conv2d),
    Case("max_pool2d 2x2 s2", "8x32x32x32", distinct(8, 32, 32, 32),
         lambda x: ops.max_pool2d(x, 2, 2), ref_maxpool_2x2),
    Case("max_pool2d 3x3 s2 p1", "8x32x32x32", distinct(8, 32, 32, 32),
         lambda x: ops.max_pool2d(x, 3, 2, 1), ref_maxpool_3x3),
    Case("avg_pool2d 2x2 s2", "8x32x32x32", normal(8, 32, 32, 32),
         lambda x: ops.avg_pool2d(x, 2, 2), ref_avgpool_2x2),
    Case("avg_pool2d 3x3 s2 p1", "8x32x32x32", normal(8, 32, 32, 32),
         lambda x: ops.avg_pool2d(x, 3, 2, 1), ref_avgpool_3x3),
    Case("gelu", "512x512", normal(512, 512), ops.gelu, ref_gelu),
    Case("silu", "512x512", normal(512, 512), ops.silu, ref_silu),
    Case("mish", "512x512", normal(512, 512), ops.mish, ref_mish),
    Case("hardswish", "512x512", normal(512, 512), ops.hardswish, ref_hardswish),
    Case("elu", "512x512", normal(512, 512), ops.elu, ref_elu),
    Case("leaky_relu", "512x512", normal(512, 512), lambda x: ops.leaky_relu(x, 0.2),
         ref_leaky_relu),
]
