"""The operators real networks need beyond the core set: products, padding and indexing,
einsum and matrix functions, convolution and pooling, and the activation composites.

One table drives the checks. Each row is ``Row(name, fn, ref, gen, order, graph_order)``:
the forward value against a NumPy reference (float64 and float32), forward and reverse
derivatives against central differences up to ``order`` (``check_grads``: every mixed path of
reverse and forward mode), and GRAPH-mode (compiled) gradients equal to PYNATIVE ones up to
``graph_order``. Convolution and pooling references are written with explicit loops over
output positions, on tiny shapes. Then come targeted tests (zeros in products, ties, repeated
scatter indices, op classes) and the error messages for bad arguments.
"""
from __future__ import annotations

import math
from typing import Callable, NamedTuple

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops
from mindgrad.core.tree import flatten

from conftest import real_gpu
from gradcheck import check_graph_matches, check_grads

T = ms.Tensor


class Row(NamedTuple):
    name: str
    fn: Callable
    ref: Callable
    gen: Callable
    order: int = 3
    graph_order: int = 2


def N(*shapes):
    return lambda rng: [rng.standard_normal(s) for s in shapes]


def with_zeros(shape, positions):
    """Normal values with exact zeros at ``positions`` (products: the division-free rules)."""
    def gen(rng):
        x = rng.standard_normal(shape)
        for p in positions:
            x[p] = 0.0
        return [x]
    return gen


def spd(n, batch=()):
    def gen(rng):
        m = rng.standard_normal(batch + (n, n))
        return [m @ np.swapaxes(m, -1, -2) + n * np.eye(n)]
    return gen


def well_conditioned(*shapes):
    """Square matrices (first shape) shifted away from singularity, then plain normals."""
    def gen(rng):
        a = rng.standard_normal(shapes[0]) + 3 * np.eye(shapes[0][-1])
        return [a] + [rng.standard_normal(s) for s in shapes[1:]]
    return gen


def distinct(*shape):
    """Distinct values (max pooling without ties)."""
    n = int(np.prod(shape))
    return lambda rng: [rng.permutation(np.linspace(-1.0, 1.0, n)).reshape(shape)]


# --- loop references for convolution and pooling (tiny shapes only) ---------------------------
def conv_ref(x, w, stride=(1, 1), pads=((0, 0), (0, 0)), dil=(1, 1), groups=1, bias=None):
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple(pads))
    n, _, h, wd = xp.shape
    o, cg, kh, kw = w.shape
    ho = (h - dil[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (wd - dil[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, ho, wo), x.dtype)
    per = o // groups
    for b in range(n):
        for oc in range(o):
            g = oc // per
            for i in range(ho):
                for j in range(wo):
                    hs, ws = i * stride[0], j * stride[1]
                    patch = xp[b, g * cg:(g + 1) * cg,
                               hs:hs + dil[0] * (kh - 1) + 1:dil[0],
                               ws:ws + dil[1] * (kw - 1) + 1:dil[1]]
                    out[b, oc, i, j] = (patch * w[oc]).sum()
    if bias is not None:
        out += bias.reshape(1, -1, 1, 1)
    return out


def _pool_len(n, k, s, p, d, ceil):
    span = n + 2 * p - d * (k - 1) - 1
    o = (-(-span // s) if ceil else span // s) + 1
    if ceil and (o - 1) * s >= n + p:
        o -= 1
    return o


def maxpool_ref(x, k, s=None, p=(0, 0), d=(1, 1), ceil=False):
    s = s or k
    n, c, h, w = x.shape
    ho, wo = (_pool_len(h, k[0], s[0], p[0], d[0], ceil), _pool_len(w, k[1], s[1], p[1], d[1], ceil))
    out = np.zeros((n, c, ho, wo), x.dtype)
    for i in range(ho):
        for j in range(wo):
            best = np.full((n, c), -np.inf)
            for a in range(k[0]):
                for b in range(k[1]):
                    r, q = i * s[0] - p[0] + a * d[0], j * s[1] - p[1] + b * d[1]
                    if 0 <= r < h and 0 <= q < w:
                        best = np.maximum(best, x[:, :, r, q])
            out[:, :, i, j] = best
    return out


def avgpool_ref(x, k, s, p=(0, 0), ceil=False, include_pad=True, divisor=None):
    """PyTorch/MindSpore semantics: windows clipped to the padded input count its padding
    (include_pad) but not the ceil-mode overhang."""
    n, c, h, w = x.shape
    ho, wo = _pool_len(h, k[0], s[0], p[0], 1, ceil), _pool_len(w, k[1], s[1], p[1], 1, ceil)
    out = np.zeros((n, c, ho, wo), x.dtype)
    for i in range(ho):
        for j in range(wo):
            hs, ws = i * s[0] - p[0], j * s[1] - p[1]
            he, we = min(hs + k[0], h + p[0]), min(ws + k[1], w + p[1])
            size = (he - hs) * (we - ws)
            hs, ws, he, we = max(hs, 0), max(ws, 0), min(he, h), min(we, w)
            total = x[:, :, hs:he, ws:we].sum(axis=(2, 3))
            if divisor:
                size = divisor
            elif not include_pad:
                size = (he - hs) * (we - ws)
            out[:, :, i, j] = total / size
    return out


def same_pads(hw, k, s):
    out = []
    for n, ki, si in zip(hw, k, s):
        total = max((-(-n // si) - 1) * si + ki - n, 0)
        out.append((total // 2, total - total // 2))
    return tuple(out)


def pool_same_ref(x, k, s, kind):
    (pt, pb), (pl, pr) = same_pads(x.shape[2:], k, s)
    h, w = x.shape[2:]
    ho, wo = -(-h // s[0]), -(-w // s[1])
    out = np.zeros(x.shape[:2] + (ho, wo), x.dtype)
    for i in range(ho):
        for j in range(wo):
            hs, ws = i * s[0] - pt, j * s[1] - pl
            win = x[:, :, max(hs, 0):min(hs + k[0], h), max(ws, 0):min(ws + k[1], w)]
            out[:, :, i, j] = win.max(axis=(2, 3)) if kind == "max" else win.mean(axis=(2, 3))
    return out


# --- small NumPy references ------------------------------------------------------------------
def cumprod_ext_ref(x, axis, exclusive, reverse):
    y = np.flip(x, axis) if reverse else x
    c = np.cumprod(y, axis)
    if exclusive:
        c = np.concatenate([np.ones_like(np.take(c, [0], axis)),
                            np.take(c, range(c.shape[axis] - 1), axis)], axis)
    return np.flip(c, axis) if reverse else c


def softmax_ref(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def lse_ref(x, axis, keepdims=False):
    m = x.max(axis=axis, keepdims=True)
    out = np.log(np.exp(x - m).sum(axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def scatter_add_ref(x, idx, u):
    out = x.copy()
    np.add.at(out, tuple(np.moveaxis(idx, -1, 0)), u)
    return out


def scatter_update_ref(x, idx, u):
    out = x.copy()
    out[tuple(np.moveaxis(idx, -1, 0))] = u
    return out


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x).astype(x.dtype)


def _softplus(x):
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


ND_IDX = np.array([[0, 1], [2, 3], [0, 1], [1, 0]])  # repeated (0, 1): scatters accumulate
ROW_IDX = np.array([[0], [2]])
UPD_IDX = np.array([[0, 1], [2, 3], [0, 1]])         # repeated: the last update wins
MASK = np.array([[True, False, True, False], [False, False, True, True], [True, True, False, False]])
ROWS = np.array([2, 0, 2])
NDI, ROWI, UPDI, MASKT, ROWST = T(ND_IDX), T(ROW_IDX), T(UPD_IDX), T(MASK), T(ROWS)
EMPTY_IDX = np.zeros((2, 1, 0), np.int64)  # index tuples of length 0: each is the whole input
EMPTYI = T(EMPTY_IDX)

ROWS_TABLE = [
    # activation composites (verify values and derivatives)
    Row("exp2", ops.exp2, np.exp2, N((2, 3))),
    Row("log2", ops.log2, np.log2, lambda r: [r.uniform(0.5, 2.0, (2, 3))]),
    Row("log10_method", lambda x: x.log10(), np.log10, lambda r: [r.uniform(0.5, 2.0, (2, 3))]),
    Row("hardswish", ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6,
        lambda r: [np.array([[-4.0, -2.5, -0.7], [0.4, 2.0, 3.5]])]),
    Row("mish", ops.mish, lambda x: x * np.tanh(_softplus(x)), N((2, 3))),
    Row("gelu", ops.gelu, lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))), N((2, 3))),
    Row("gelu_tanh", lambda x: ops.gelu(x, "tanh"),
        lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))),
        N((2, 3))),
    Row("elu", lambda x: ops.elu(x, 0.7), lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)),
        lambda r: [np.array([[-1.5, -0.4, 0.3], [0.8, -0.2, 1.1]])]),
    Row("leaky_relu", lambda x: ops.leaky_relu(x, 0.2), lambda x: np.where(x > 0, x, 0.2 * x),
        lambda r: [np.array([[-1.5, -0.4, 0.3], [0.8, -0.2, 1.1]])]),
    Row("silu", ops.silu, lambda x: x / (1 + np.exp(-x)), N((2, 3))),
    # one primitive each: ReLU6, Elu, LeakyReLU, HSwish, Softplus, ClipByValue
    Row("ReLU6_op", ops.ReLU6(), lambda x: np.clip(x, 0, 6),
        lambda r: [np.array([[-1.5, 0.4, 2.3], [5.5, 6.8, 3.1]])]),
    Row("elu_default_alpha", ops.elu, lambda x: np.where(x > 0, x, np.expm1(x)),
        lambda r: [np.array([[-1.5, -0.4, 0.3], [0.8, -0.2, 1.1]])]),
    Row("leaky_relu_slope_above_1", lambda x: ops.leaky_relu(x, 2.0),
        lambda x: np.where(x > 0, x, 2.0 * x),
        lambda r: [np.array([[-1.5, -0.4, 0.3], [0.8, -0.2, 1.1]])]),
    Row("hardswish_middle", ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6,
        lambda r: [r.uniform(-2.8, 2.8, (3, 4))]),
    Row("softplus_wide", ops.softplus, _softplus, lambda r: [r.uniform(-30, 30, (2, 3))]),
    Row("clip_by_value_scalars", lambda x: ops.clip_by_value(x, -0.5, 0.7),
        lambda x: np.clip(x, -0.5, 0.7),
        lambda r: [np.array([[-1.2, -0.3, 0.1], [0.2, 0.9, 1.4]])]),
    Row("clamp_tensor_bounds", lambda x, lo, hi: ops.clamp(x, lo, hi), np.clip,
        lambda r: [np.array([[-1.2, -0.3, 0.1], [0.2, 0.9, 1.4]]), np.array([-0.5, -0.1, 0.0]),
                   np.array([[0.6], [0.5]])]),
    # products
    Row("prod_axis", lambda x: ops.prod(x, 1), lambda x: x.prod(1), N((3, 4))),
    Row("prod_zeros", lambda x: ops.prod(x, 1), lambda x: x.prod(1),
        with_zeros((3, 4), [(0, 1), (2, 0), (2, 3)])),
    Row("prod_all_zero", ops.prod, np.prod, with_zeros((2, 3), [(1, 1)])),
    Row("prod_axes_keep", lambda x: ops.ReduceProd(True)(x, (0, 2)),
        lambda x: x.prod((0, 2), keepdims=True), with_zeros((2, 3, 2), [(0, 1, 1)])),
    Row("prod_method", lambda x: x.prod(0), lambda x: x.prod(0), N((3, 2))),
    Row("cumprod", lambda x: ops.cumprod(x, 1), lambda x: np.cumprod(x, 1),
        with_zeros((3, 5), [(0, 2), (1, 1), (1, 3), (2, 4)])),
    Row("cumprod_axis0", lambda x: x.cumprod(0), lambda x: np.cumprod(x, 0), N((4, 2))),
    Row("cumprod_excl_rev", lambda x: ops.CumProd(True, True)(x, -1),
        lambda x: cumprod_ext_ref(x, 1, True, True), with_zeros((2, 4), [(0, 2)])),
    Row("cumprod_excl", lambda x: ops.CumProd(exclusive=True)(x, 0),
        lambda x: cumprod_ext_ref(x, 0, True, False), N((3, 2))),
    # reductions: max / min (the by-position forward over many rows, the gradient primitive),
    # variance, 2-norm and softmax primitives, the logsumexp / log_softmax composites
    Row("amax_rows_last_axis", lambda x: ops.amax(x, -1), lambda x: x.max(-1), distinct(40, 3)),
    Row("amin_keep_axis0", lambda x: ops.amin(x, 0, True), lambda x: x.min(0, keepdims=True),
        distinct(3, 4)),
    Row("reduce_max_axes", lambda x: ops.reduce_max(x, (0, 2)), lambda x: x.max((0, 2)),
        distinct(2, 3, 2)),
    Row("var_axes_keep_ddof", lambda x: ops.var(x, (0, 2), 1, True),
        lambda x: np.var(x, (0, 2), ddof=1, keepdims=True), N((2, 3, 2))),
    Row("var_rows", lambda x: ops.var(x, 1), lambda x: np.var(x, 1), N((40, 3))),
    Row("std_all", ops.std, np.std, N((2, 3))),
    Row("norm_axes_keep", lambda x: ops.norm(x, dim=(0, 2), keepdim=True),
        lambda x: np.sqrt((x * x).sum((0, 2), keepdims=True)), N((2, 3, 2))),
    Row("softmax_rows", lambda x: ops.softmax(x, -1), lambda x: softmax_ref(x, -1), N((40, 3))),
    Row("softmax_axes", lambda x: ops.softmax(x, (0, 2)), lambda x: softmax_ref(x, (0, 2)),
        N((2, 3, 2))),
    Row("log_softmax_axis0", lambda x: ops.log_softmax(x, 0),
        lambda x: np.log(softmax_ref(x, 0)), N((3, 2))),
    Row("logsumexp_axes", lambda x: ops.logsumexp(x, (0, 2)), lambda x: lse_ref(x, (0, 2)),
        N((2, 3, 2))),
    Row("logsumexp_keep_rows", lambda x: ops.logsumexp(x, 1, True),
        lambda x: lse_ref(x, 1, True), N((40, 3))),
    # padding and indexing
    Row("pad_constant", lambda x: ops.pad(x, (1, 2, 0, 1), value=0.5),
        lambda x: np.pad(x, ((0, 1), (1, 2)), constant_values=0.5), N((2, 3))),
    Row("pad_crop", lambda x: ops.pad(x, (-1, 2)), lambda x: np.pad(x[:, 1:], ((0, 0), (0, 2))),
        N((2, 3))),
    Row("pad_reflect", lambda x: ops.pad(x, (2, 1), mode="reflect"),
        lambda x: np.pad(x, ((0, 0), (2, 1)), mode="reflect"), N((2, 4)), 2),
    Row("pad_replicate", lambda x: ops.pad(x, (1, 1, 2, 0), mode="replicate"),
        lambda x: np.pad(x, ((2, 0), (1, 1)), mode="edge"), N((2, 3)), 2),
    Row("pad_circular", lambda x: ops.pad(x, (1, 2), mode="circular"),
        lambda x: np.pad(x, ((0, 0), (1, 2)), mode="wrap"), N((2, 3)), 2),
    Row("Pad_op", lambda x: ops.Pad(((1, 0), (0, 2)))(x), lambda x: np.pad(x, ((1, 0), (0, 2))),
        N((2, 3))),
    Row("gather_nd_elements", lambda x: ops.gather_nd(x, NDI),
        lambda x: x[tuple(ND_IDX.T)], N((3, 4))),
    Row("gather_nd_rows", lambda x: ops.GatherNd()(x, ROWI), lambda x: x[ROW_IDX[:, 0]],
        N((3, 2, 2))),
    Row("scatter_nd", lambda u: ops.scatter_nd(NDI, u, (3, 4)),
        lambda u: scatter_add_ref(np.zeros((3, 4)), ND_IDX, u), N((4,))),
    Row("ScatterNd_rows", lambda u: ops.ScatterNd()(ROWI, u, (3, 2)),
        lambda u: scatter_add_ref(np.zeros((3, 2)), ROW_IDX, u), N((2, 2))),
    Row("tensor_scatter_add", lambda x, u: ops.tensor_scatter_add(x, NDI, u),
        lambda x, u: scatter_add_ref(x, ND_IDX, u), N((3, 4), (4,))),
    Row("tensor_scatter_add_rows", lambda x, u: ops.TensorScatterAdd()(x, ROWI, u),
        lambda x, u: scatter_add_ref(x, ROW_IDX, u), N((3, 2), (2, 2))),
    Row("tensor_scatter_update", lambda x, u: ops.tensor_scatter_update(x, UPDI, u),
        lambda x, u: scatter_update_ref(x, UPD_IDX, u), N((3, 4), (3,))),
    Row("scatter_add", lambda x, u: ops.scatter_add(x, T(np.array([1, 1, 0])), u),
        lambda x, u: scatter_add_ref(x, np.array([[1], [1], [0]]), u), N((3, 2), (3, 2))),
    Row("scatter_add_method", lambda x, u: x.scatter_add(NDI, u),
        lambda x, u: scatter_add_ref(x, ND_IDX, u), N((3, 4), (4,))),
    Row("gather_nd_empty_tuples", lambda x: ops.gather_nd(x, EMPTYI),
        lambda x: np.broadcast_to(x, (2, 1) + x.shape).copy(), N((3, 2))),
    Row("scatter_nd_empty_tuples", lambda u: ops.scatter_nd(EMPTYI, u, (3, 2)),
        lambda u: u.sum((0, 1)), N((2, 1, 3, 2))),
    Row("tensor_scatter_add_empty_tuples", lambda x, u: ops.tensor_scatter_add(x, EMPTYI, u),
        lambda x, u: x + u.sum((0, 1)), N((3, 2), (2, 1, 3, 2))),
    Row("tensor_scatter_update_empty_tuples",
        lambda x, u: ops.tensor_scatter_update(x, EMPTYI, u), lambda x, u: u[-1, -1],
        N((3, 2), (2, 1, 3, 2))),
    Row("masked_fill_scalar", lambda x: ops.masked_fill(x, MASKT, 0.25),
        lambda x: np.where(MASK, 0.25, x), N((3, 4))),
    Row("masked_fill_tensor", lambda x, v: x.masked_fill(T(MASK[0]), v),
        lambda x, v: np.where(MASK[0], v, x), N((3, 4), ())),
    Row("index_select", lambda x: ops.index_select(x, 1, ROWST), lambda x: x[:, ROWS], N((2, 3))),
    Row("index_select_method", lambda x: x.index_select(0, ROWST), lambda x: x[ROWS], N((3, 2))),
    Row("getitem_mixed", lambda x: x[1:, None, ROWST - 1, ::-1],
        lambda x: x[1:, None, ROWS - 1, ::-1], N((3, 3, 2))),
    Row("getitem_bool_tensor", lambda x: x[MASKT], lambda x: x[MASK], N((3, 4))),
    Row("getitem_ellipsis", lambda x: x[..., 1, None], lambda x: x[..., 1, None], N((2, 3, 2))),
    # einsum and matrix functions
    Row("einsum_matmul", lambda a, b: ops.einsum("ij,jk->ik", a, b), lambda a, b: a @ b,
        N((2, 3), (3, 4))),
    Row("einsum_batch_ellipsis", lambda a, b: ops.einsum("...ij,...jk", a, b), np.matmul,
        N((2, 2, 3), (1, 3, 2))),
    Row("einsum_trace", lambda a: ops.einsum("ii", a), np.trace, N((3, 3))),
    Row("einsum_diag_outer", lambda a, b: ops.einsum("iij,k->ijk", a, b),
        lambda a, b: np.einsum("iij,k->ijk", a, b), N((2, 2, 3), (2,))),
    Row("einsum_sum_only", lambda a, b: ops.einsum("ij,kl->i", a, b),
        lambda a, b: np.einsum("ij,kl->i", a, b), N((2, 3), (2, 2))),
    Row("einsum_outer_batch", lambda a, b: ops.einsum("bi,bj->bij", a, b),
        lambda a, b: a[:, :, None] * b[:, None, :], N((2, 3), (2, 2))),
    Row("einsum_batched_dot", lambda a, b: ops.einsum("bi,bi->b", a, b),
        lambda a, b: (a * b).sum(1), N((3, 4), (3, 4))),
    Row("einsum_hadamard_transposed", lambda a, b: ops.einsum("ij,ji->ij", a, b),
        lambda a, b: a * b.T, N((2, 3), (3, 2))),
    Row("einsum_transpose_one", lambda a: ops.einsum("ijk->kji", a),
        lambda a: a.transpose(2, 1, 0), N((2, 3, 2))),
    Row("einsum_three", lambda a, b, c: ops.Einsum("ab,bc,cd->ad")((a, b, c)),
        lambda a, b, c: a @ b @ c, N((2, 3), (3, 2), (2, 2)), 2),
    Row("inverse", ops.inverse, np.linalg.inv, well_conditioned((3, 3))),
    Row("inverse_batch_method", lambda a: a.inverse(), np.linalg.inv, well_conditioned((2, 3, 3))),
    Row("MatrixInverse_adjoint", ops.MatrixInverse(True), lambda a: np.linalg.inv(a).T,
        well_conditioned((3, 3))),
    Row("det", ops.det, np.linalg.det, well_conditioned((3, 3))),
    Row("det_batch", ops.MatrixDeterminant(), np.linalg.det, well_conditioned((2, 3, 3))),
    Row("solve_matrix", ops.solve, np.linalg.solve, well_conditioned((3, 3), (3, 2))),
    Row("solve_vector", ops.solve, lambda a, b: np.linalg.solve(a, b[:, None])[:, 0],
        well_conditioned((3, 3), (3,))),
    Row("solve_batch_bcast", ops.solve, np.linalg.solve, well_conditioned((2, 3, 3), (3, 2)), 2),
    Row("cholesky", ops.cholesky, np.linalg.cholesky, spd(3)),
    Row("cholesky_upper_batch", ops.Cholesky(upper=True),
        lambda a: np.swapaxes(np.linalg.cholesky(a), -1, -2), spd(3, (2,)), 2),
    Row("dot", ops.dot, np.dot, N((2, 3), (3,))),
    Row("outer", ops.outer, np.outer, N((3,), (2,))),
    # convolution
    Row("conv2d_valid", lambda x, w: ops.conv2d(x, w), conv_ref, N((2, 3, 5, 4), (4, 3, 3, 2))),
    Row("conv2d_bias", lambda x, w, b: ops.conv2d(x, w, b),
        lambda x, w, b: conv_ref(x, w, bias=b), N((1, 2, 4, 4), (3, 2, 2, 2), (3,))),
    Row("conv2d_stride_pad_dil_groups",
        lambda x, w: ops.conv2d(x, w, stride=(2, 1), pad_mode="pad", padding=(1, 0, 1, 2),
                                dilation=(1, 2), groups=2),
        lambda x, w: conv_ref(x, w, (2, 1), ((1, 0), (1, 2)), (1, 2), 2),
        N((2, 4, 5, 6), (6, 2, 3, 2))),
    Row("conv2d_same_stride2", lambda x, w: ops.conv2d(x, w, stride=2, pad_mode="same"),
        lambda x, w: conv_ref(x, w, (2, 2), same_pads((5, 6), (3, 3), (2, 2))),
        N((1, 2, 5, 6), (2, 2, 3, 3)), 2),
    Row("conv2d_depthwise", lambda x, w: ops.conv2d(x, w, padding=1, pad_mode="pad", groups=3),
        lambda x, w: conv_ref(x, w, pads=((1, 1), (1, 1)), groups=3),
        N((1, 3, 4, 4), (3, 1, 3, 3)), 2),
    Row("Conv2D_op", lambda x, w: ops.Conv2D(4, (2, 2), pad_mode="pad", pad=(0, 1, 1, 0),
                                             stride=(1, 1, 2, 2))(x, w),
        lambda x, w: conv_ref(x, w, (2, 2), ((0, 1), (1, 0))), N((1, 3, 5, 5), (4, 3, 2, 2)), 2),
    # pooling
    Row("max_pool2d", lambda x: ops.max_pool2d(x, 2), lambda x: maxpool_ref(x, (2, 2)),
        distinct(2, 2, 4, 6)),
    Row("max_pool2d_overlap_pad", lambda x: ops.max_pool2d(x, 3, 2, 1),
        lambda x: maxpool_ref(x, (3, 3), (2, 2), (1, 1)), distinct(1, 2, 5, 6)),
    Row("max_pool2d_dil_ceil", lambda x: ops.max_pool2d(x, (2, 3), (2, 1), (1, 1), (2, 1),
                                                        ceil_mode=True),
        lambda x: maxpool_ref(x, (2, 3), (2, 1), (1, 1), (2, 1), True), distinct(1, 2, 6, 5)),
    Row("MaxPool_same", ops.MaxPool(3, 2, "same"), lambda x: pool_same_ref(x, (3, 3), (2, 2), "max"),
        distinct(1, 2, 5, 6)),
    Row("avg_pool2d", lambda x: ops.avg_pool2d(x, 2, 2), lambda x: avgpool_ref(x, (2, 2), (2, 2)),
        N((2, 2, 4, 6))),
    Row("avg_pool2d_pad_exclude_ceil",
        lambda x: ops.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
        lambda x: avgpool_ref(x, (3, 3), (2, 2), (1, 1), True, False), N((1, 2, 6, 5))),
    Row("avg_pool2d_pad_include_ceil", lambda x: ops.avg_pool2d(x, 3, 2, 1, ceil_mode=True),
        lambda x: avgpool_ref(x, (3, 3), (2, 2), (1, 1), True, True), N((1, 2, 6, 5))),
    Row("avg_pool2d_divisor", lambda x: ops.avg_pool2d(x, (2, 3), 1, divisor_override=4),
        lambda x: avgpool_ref(x, (2, 3), (1, 1), divisor=4), N((1, 1, 3, 4))),
    Row("AvgPool_same", ops.AvgPool(3, 2, "same"), lambda x: pool_same_ref(x, (3, 3), (2, 2), "avg"),
        N((1, 2, 5, 6))),
    # a small network: conv -> relu -> pool -> einsum head
    Row("lenet_block", lambda x, w, v: ops.einsum(
            "nchw,kc->nk", ops.max_pool2d(ops.relu(ops.conv2d(x, w, pad_mode="same")), 2), v),
        lambda x, w, v: np.einsum("nchw,kc->nk", maxpool_ref(np.maximum(
            conv_ref(x, w, pads=((1, 1), (1, 1))), 0), (2, 2)), v),
        N((1, 2, 4, 4), (3, 2, 3, 3), (2, 3)), 2, 1),
]

IDS = [r.name for r in ROWS_TABLE]
assert len(set(IDS)) == len(IDS), "duplicate row names"


def _inputs(row: Row, dtype=np.float64) -> list:
    return [np.asarray(a, dtype) for a in row.gen(np.random.default_rng(0))]


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("row", ROWS_TABLE, ids=IDS)
def test_forward_matches_numpy(row: Row, dtype) -> None:
    arrays = _inputs(row, dtype)
    got = flatten(row.fn(*[T(a) for a in arrays]))[0]
    want = row.ref(*[a.astype(np.float64) for a in arrays])
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape == w.shape, (g.shape, w.shape)
        assert g.asnumpy().dtype == dtype
        tol = 1e-12 if dtype == np.float64 else 2e-5
        np.testing.assert_allclose(g.asnumpy(), w, rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("row", ROWS_TABLE, ids=IDS)
def test_derivatives_against_finite_differences(row: Row) -> None:
    check_grads(row.fn, [T(a) for a in _inputs(row)], row.order)


@pytest.mark.parametrize("row", ROWS_TABLE, ids=IDS)
def test_graph_matches_pynative(row: Row) -> None:
    check_graph_matches(row.fn, [T(a) for a in _inputs(row)], row.graph_order)


# --- targeted checks ---------------------------------------------------------------------------
def test_prod_gradient_with_zeros_is_product_of_others() -> None:
    x = np.array([[2.0, 0.0, 3.0, 0.5], [0.0, 0.0, 4.0, 1.0], [1.0, 2.0, 3.0, 4.0]])
    g = ops.grad(lambda t: ops.prod(t, 1).sum())(T(x)).asnumpy()
    want = np.array([[np.prod(np.delete(r, i)) for i in range(4)] for r in x])
    np.testing.assert_array_equal(g, want)
    # second derivative across two zeros: d2/dx0 dx1 prod = product of the remaining ones
    h = ops.grad(lambda t: ops.grad(lambda u: ops.prod(u, 1).sum())(t)[1, 0])(T(x)).asnumpy()
    assert h[1, 1] == 4.0 and h[1, 0] == 0.0


def test_cumprod_gradient_with_zeros() -> None:
    x = np.array([1.5, 0.0, 2.0, 0.0, 3.0])
    g = ops.grad(lambda t: ops.cumprod(t, 0).sum())(T(x)).asnumpy()
    want = [sum(np.prod(np.delete(x[:k + 1], i)) for k in range(i, 5)) for i in range(5)]
    np.testing.assert_allclose(g, want, rtol=0, atol=0)


def _linrec_loop(b, a, reverse):
    r = np.zeros_like(b)
    idx = range(b.shape[-1] - 1, -1, -1) if reverse else range(b.shape[-1])
    prev = np.zeros(b.shape[:-1])
    for k in idx:
        prev = b[..., k] + a[..., k] * prev
        r[..., k] = prev
    return r


@pytest.mark.parametrize("reverse", [False, True])
def test_linrec_algorithms_agree(reverse) -> None:
    """The recurrence's closed form (two accumulate passes) and recursive doubling (taken
    when a running product has a zero or leaves the normal range) give the same values."""
    from mindgrad.prims import products as RX

    rng = np.random.default_rng(3)
    b, a = rng.standard_normal((3, 37)), rng.uniform(0.5, 1.5, (3, 37))
    want = _linrec_loop(b, a, reverse)
    f64 = np.dtype(np.float64)
    np.testing.assert_allclose(RX._linrec_divide(np, b, a, f64, reverse), want, rtol=1e-12)
    np.testing.assert_allclose(RX._linrec_doubling(np, b, a, f64, reverse), want, rtol=1e-12)
    a[1, 20] = 0.0
    assert RX._linrec_divide(np, b, a, f64, reverse) is None
    np.testing.assert_allclose(RX._linrec_impl(b.T, a.T, 0, reverse), _linrec_loop(b, a, reverse).T,
                               rtol=1e-12)


def test_prod_gradient_when_the_product_underflows() -> None:
    """float32 product 1e-45 is not a normal number: the division-free path gives the other
    elements' product (1e-30) instead of 0 / x."""
    x = T(np.full((1, 3), 1e-15, np.float32))
    g = ops.grad(lambda t: ops.prod(t, 1).sum())(x).asnumpy()
    np.testing.assert_allclose(g, np.full((1, 3), 1e-30), rtol=1e-5)


@pytest.mark.parametrize("fn", [ops.reduce_max, ops.reduce_min, ops.amax])
def test_extreme_ties_share_gradient_evenly(fn) -> None:
    x = T(np.array([[1.0, 3.0, 3.0, 3.0], [2.0, 2.0, -1.0, 0.0]]))
    g = ops.grad(lambda t: fn(t * 2.0, 1).sum())(x).asnumpy()
    if fn is ops.reduce_min:
        np.testing.assert_allclose(g, [[2.0, 0, 0, 0], [0, 0, 2.0, 0]])
    else:
        np.testing.assert_allclose(g, [[0, 2 / 3, 2 / 3, 2 / 3], [1.0, 1.0, 0, 0]])


def test_extreme_gradient_with_nan_and_inf() -> None:
    """A NaN maximum gives its whole slice a NaN gradient and an infinite cotangent gives NaN
    off the maximum (0 * inf), as the mask formula spread(g) * (x == max) / count does; the
    forward over many rows (by position) propagates NaN like NumPy's max."""
    x = np.random.default_rng(4).standard_normal((40, 5))
    x[3, 2] = np.nan
    np.testing.assert_array_equal(ops.amax(T(x), 1).asnumpy(), x.max(1))
    np.testing.assert_array_equal(ops.amin(T(x), 1).asnumpy(), x.min(1))
    g = ops.grad(lambda t: ops.amax(t, 1).sum())(T(x)).asnumpy()
    assert np.isnan(g[3]).all() and not np.isnan(np.delete(g, 3, 0)).any()
    np.testing.assert_array_equal(np.delete(g, 3, 0).sum(1), np.ones(39))
    y = T(np.array([[1.0, 3.0, 2.0], [0.5, 0.1, 0.2]]))
    g = ops.grad(lambda t: (ops.amax(t, 1) * T(np.array([np.inf, 2.0]))).sum())(y).asnumpy()
    assert g[0, 1] == np.inf and np.isnan(g[0, [0, 2]]).all()
    np.testing.assert_array_equal(g[1], [2.0, 0.0, 0.0])


def test_prod_gradient_when_cotangent_times_product_underflows() -> None:
    """g * prod underflows although g * (product of the others) does not: the one-pass
    (g * prod) / x would give 0, the division-free path gives the value."""
    x = T(np.array([[1e-15, 1e-15, 1.0]], np.float32))
    g = ops.grad(lambda t: (ops.prod(t, 1) * 1e-20).sum())(x).asnumpy()
    np.testing.assert_allclose(g, [[1e-35, 1e-35, 0.0]], rtol=1e-5, atol=0)  # 1e-50 is 0


def test_cumprod_gradient_when_the_running_product_underflows() -> None:
    """The running products 1e-20, 1e-40 (subnormal), 0, ...: the one-pass form
    (sum_k g_k y_k) / x_i would give 0 for the third element, whose gradient is 1e-40."""
    x = np.full((1, 6), 1e-20, np.float32)
    g = ops.grad(lambda t: ops.cumprod(t, 1).sum())(T(x)).asnumpy()
    want = [sum(np.prod(np.delete(x[0].astype(np.float64)[:k + 1], i)) for k in range(i, 6))
            for i in range(6)]
    if real_gpu():  # the GPU's scan flushes the subnormal 1e-40 to 0
        np.testing.assert_allclose(g[0], np.float32(want), rtol=1e-4,
                                   atol=np.finfo(np.float32).tiny)
        return
    np.testing.assert_allclose(g[0], np.float32(want), rtol=1e-4, atol=0)
    assert g[0, 2] > 0


def _reduction_fns():
    c = T(np.random.default_rng(5).standard_normal((3, 4)))
    return {
        "prod": lambda u: ops.prod(u, 1),
        "prod_all": lambda u: ops.prod(u),
        "cumprod": lambda u: ops.cumprod(u, 1) * c,
        "cumprod_rev": lambda u: ops.CumProd(False, True)(u, 0) * c,
        "amax": lambda u: ops.amax(u, 1),
        "amin_keep": lambda u: ops.amin(u, 0, True),
        "var": lambda u: ops.var(u, 1, 1),
        "std_all": lambda u: ops.std(u),
        "norm": lambda u: ops.norm(u, dim=0),
        "norm_all": lambda u: ops.norm(u),
        "norm_nuc": lambda u: ops.norm(u, "nuc"),
        "norm_spectral": lambda u: ops.norm(u, 2) * c,
        "norm_l1_matrix": lambda u: ops.norm(u, 1) * c,
        "svd_vectors": lambda u: ops.svd(u)[1] ** 2 * c[:, :3] + (ops.svd(u)[2] ** 2).sum(),
        "softmax": lambda u: ops.softmax(u, -1) * c,
        "log_softmax": lambda u: ops.log_softmax(u, 0) * c,
    }


@pytest.mark.parametrize("name", list(_reduction_fns()))
def test_reduction_vmap_of_derivatives_matches_loop(name) -> None:
    """vmap of first and second derivatives (the batch rules of the gradient primitives)
    against one call per example, with zeros in some examples (products)."""
    f = _reduction_fns()[name]
    xs = np.random.default_rng(6).standard_normal((4, 3, 4))
    xs[1, 0, 2] = xs[2, 1, 1] = xs[2, 1, 3] = 0.0
    d1 = ops.grad(lambda u: (f(u) ** 2).sum())
    d2 = ops.grad(lambda u: (d1(u) * ops.sin(u)).sum())
    for fn in (f, d1, d2):
        got = ops.vmap(fn)(T(xs)).asnumpy()
        want = np.stack([fn(T(x)).asnumpy() for x in xs])
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", list(_reduction_fns()))
def test_reduction_jet_matches_nested_derivatives(name) -> None:
    """Taylor mode through the reduction primitives and their gradient primitives: the jet
    of x -> f(x * c + d) and of its gradient against nested reverse mode."""
    rng = np.random.default_rng(7)
    c, d = T(rng.standard_normal((3, 4))), T(rng.standard_normal((3, 4)))
    f = _reduction_fns()[name]
    grad_f = ops.grad(lambda u: (f(u) ** 2).sum())
    for h in (f, grad_f):
        def g(s, h=h):
            return h(s * c + d)

        x, order = T(np.array([0.3])), 3
        _, series = ops.jet(g, x, T(np.array([[1.0]] + [[0.0]] * (order - 1))))
        want_fn = g
        for k in range(order):
            want_fn = (lambda w: lambda y: ops.grad(lambda z: ops.reduce_sum(w(z)))(y))(want_fn)
            want = want_fn(x).asnumpy().sum()
            np.testing.assert_allclose(series.asnumpy()[k].sum(), want, rtol=1e-8, atol=1e-10)


def test_tensor_scatter_update_repeated_index_last_wins() -> None:
    x, u = T(np.zeros((3, 4))), T(np.array([1.0, 2.0, 3.0]))
    out = ops.tensor_scatter_update(x, UPDI, u)
    assert out.asnumpy()[0, 1] == 3.0
    gx, gu = ops.grad(lambda a, b: (ops.tensor_scatter_update(a, UPDI, b) * 2).sum(), (0, 1))(x, u)
    np.testing.assert_array_equal(gu.asnumpy(), [0.0, 2.0, 2.0])
    assert gx.asnumpy()[0, 1] == 0 and gx.asnumpy()[2, 3] == 0 and gx.asnumpy()[1, 1] == 2


def test_index_tuples_of_length_zero_select_the_whole_input() -> None:
    """indices of shape (..., 0), as in TensorFlow and MindSpore: gather_nd gives one copy of
    x per index tuple, the scatters add (or write, the last one winning) every update to the
    whole tensor, and the gradients follow: d/dx sum(w * gather_nd(x, idx)) = sum of w."""
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    idx = T(np.zeros((3, 0), np.int32))
    u = np.arange(12.0).reshape(3, 2, 2)
    out = ops.gather_nd(T(x), idx).asnumpy()
    assert out.shape == (3, 2, 2)
    np.testing.assert_array_equal(out, [x, x, x])
    np.testing.assert_array_equal(ops.gather_nd(T(x), T(np.zeros(0, np.int64))).asnumpy(), x)
    np.testing.assert_array_equal(ops.gather_nd(T(np.float32(5.0)), idx).asnumpy(), [5, 5, 5])
    np.testing.assert_array_equal(ops.scatter_nd(idx, T(u), (2, 2)).asnumpy(),
                                  [[12.0, 15.0], [18.0, 21.0]])
    np.testing.assert_array_equal(ops.tensor_scatter_add(T(x), idx, T(u)).asnumpy(),
                                  [[13.0, 17.0], [21.0, 25.0]])
    np.testing.assert_array_equal(ops.tensor_scatter_update(T(x), idx, T(u)).asnumpy(), u[2])
    w = T(u)
    gx = ops.grad(lambda a: (ops.gather_nd(a, idx) * w).sum())(T(x))
    np.testing.assert_array_equal(gx.asnumpy(), u.sum(0))
    gx, gu = ops.grad(lambda a, b: (ops.tensor_scatter_update(a, idx, b) * T(x)).sum(),
                      (0, 1))(T(x), T(u))
    np.testing.assert_array_equal(gx.asnumpy(), np.zeros((2, 2)))
    np.testing.assert_array_equal(gu.asnumpy(), [np.zeros((2, 2)), np.zeros((2, 2)), x])
    # no index tuples at all: an empty result, and scatters that leave x as it is
    none = T(np.zeros((0, 0), np.int64))
    assert ops.gather_nd(T(x), none).shape == (0, 2, 2)
    np.testing.assert_array_equal(
        ops.tensor_scatter_add(T(x), none, T(np.zeros((0, 2, 2)))).asnumpy(), x)


def test_one_hot_values_and_no_gradient() -> None:
    idx = T(np.array([[0, 2], [3, -1]]))
    out = ops.one_hot(idx, 3, T(2.0), T(-1.0))
    want = np.where(np.array([[0, 2], [3, -1]])[..., None] == np.arange(3), 2.0, -1.0)
    np.testing.assert_array_equal(out.asnumpy(), want)
    assert out.dtype == ms.float32
    axis0 = ops.OneHot(axis=0)(idx, 3, T(1.0), T(0.0))
    np.testing.assert_array_equal(axis0.asnumpy(), np.moveaxis(np.maximum(want, 0) / 2, -1, 0))
    assert ops.one_hot(T(np.array([1])), 2).dtype == ms.int64
    g = ops.grad(lambda x: (ops.one_hot(idx, 3, T(1.0), T(0.0)) * x).sum())(T(np.ones((2, 2, 3))))
    np.testing.assert_array_equal(g.asnumpy(), np.where(want > 0, 1.0, 0.0))


def test_scatter_add_updates_parameter() -> None:
    p = ms.Parameter(T(np.zeros((3, 2), np.float32)), name="p")
    out = ops.ScatterAdd()(p, T(np.array([2, 2])), T(np.ones((2, 2), np.float32)))
    np.testing.assert_array_equal(p.asnumpy()[2], [2.0, 2.0])
    np.testing.assert_array_equal(out.asnumpy(), p.asnumpy())


def test_max_pool2d_indices_and_first_tie() -> None:
    x = np.array([[[[1.0, 5.0, 5.0, 0.0], [2.0, 5.0, 1.0, 7.0]]]])
    out, idx = ops.max_pool2d(T(x), 2, return_indices=True)
    np.testing.assert_array_equal(out.asnumpy(), [[[[5.0, 7.0]]]])
    np.testing.assert_array_equal(idx.asnumpy(), [[[[1, 7]]]])
    g = ops.grad(lambda t: ops.max_pool2d(t, 2).sum())(T(x)).asnumpy()
    assert g.sum() == 2.0 and g[0, 0, 0, 1] == 1.0 and g[0, 0, 1, 3] == 1.0


def test_max_pool2d_overlapping_windows_accumulate() -> None:
    x = np.zeros((1, 1, 3, 3))
    x[0, 0, 1, 1] = 1.0  # the centre is the maximum of all four 2x2 windows
    g = ops.grad(lambda t: ops.max_pool2d(t, 2, 1).sum())(T(x)).asnumpy()
    assert g[0, 0, 1, 1] == 4.0 and g.sum() == 4.0


def test_float32_gradients_keep_dtype() -> None:
    rng = np.random.default_rng(1)
    x = T(rng.standard_normal((1, 2, 5, 5)).astype(np.float32))
    w = T(rng.standard_normal((3, 2, 3, 3)).astype(np.float32))

    def net(x, w):
        y = ops.max_pool2d(ops.conv2d(x, w, pad_mode="same"), 2)
        return ops.avg_pool2d(ops.pad(y, (1, 1, 1, 1)), 2).prod() + ops.cumprod(y, 3).sum()

    for g in ops.grad(net, (0, 1))(x, w):
        assert g.dtype == ms.float32


@pytest.mark.parametrize("name,op", [
    ("conv2d", lambda x, w: ops.conv2d(x, w, stride=2, pad_mode="pad", padding=1, dilation=(1, 2))),
    ("conv2d_groups", lambda x, w: ops.conv2d(x, w[:, :1], groups=2)),
    ("max_pool2d", lambda x, w: ops.max_pool2d(x * w[0, 0, 0, 0], 2, 1)),
    ("avg_pool2d", lambda x, w: ops.avg_pool2d(x * w[0, 0, 0, 0], 2, 1, 1)),
])
def test_nonlinear_after_conv_and_pool(name, op) -> None:
    """Cubing the output makes the cotangent reaching each primitive depend on the inputs, so
    the higher orders run the rules of conv2d_input_grad / conv2d_weight_grad (and of the
    pooling scatters) with respect to *every* argument."""
    rng = np.random.default_rng(2)
    x, w = T(rng.standard_normal((1, 2, 4, 4))), T(rng.standard_normal((2, 2, 2, 2)))

    def f(x, w):
        y = op(x, w)
        return y * y * y

    check_grads(f, [x, w], 3)
    check_graph_matches(lambda x, w: f(x, w).sum(), [x, w], 3)


# --- clear errors --------------------------------------------------------------------------------
X4 = T(np.zeros((1, 2, 4, 4)))
W4 = T(np.zeros((3, 2, 3, 3)))
M33 = T(np.eye(3))

ERRORS = [
    ("conv2d_rank", lambda: ops.conv2d(T(np.zeros((2, 4, 4))), W4), ValueError, "4-D"),
    ("conv2d_channels", lambda: ops.conv2d(X4, T(np.zeros((3, 3, 3, 3)))), ValueError, "channels"),
    ("conv2d_dtype", lambda: ops.conv2d(X4, T(np.zeros((3, 2, 3, 3), np.float32))), TypeError,
     "same dtype"),
    ("conv2d_pad_mode", lambda: ops.conv2d(X4, W4, pad_mode="full"), ValueError, "pad_mode"),
    ("conv2d_valid_padding", lambda: ops.conv2d(X4, W4, padding=1), ValueError, "pad_mode='pad'"),
    ("conv2d_kernel_too_big", lambda: ops.conv2d(X4, T(np.zeros((1, 2, 5, 5)))), ValueError,
     "smaller than"),
    ("conv2d_bias", lambda: ops.conv2d(X4, W4, T(np.zeros(2))), ValueError, "bias"),
    ("conv2d_stride", lambda: ops.conv2d(X4, W4, stride=0), ValueError, "stride"),
    ("Conv2D_kernel", lambda: ops.Conv2D(3, 2)(X4, W4), ValueError, "kernel_size"),
    ("max_pool_padding", lambda: ops.max_pool2d(X4, 2, 1, 2), ValueError, "padding"),
    ("max_pool_rank", lambda: ops.max_pool2d(T(np.zeros((4, 4))), 2), ValueError, "4-D"),
    ("avg_pool_kernel", lambda: ops.avg_pool2d(X4, 5), ValueError, "smaller than"),
    ("pool_pad_mode", lambda: ops.MaxPool(2, 2, "pad"), ValueError, "pad_mode"),
    ("gather_nd_range", lambda: ops.gather_nd(M33, T(np.array([[0, 3]]))), IndexError,
     "out of range"),
    ("gather_nd_negative", lambda: ops.gather_nd(M33, T(np.array([[-1, 0]]))), IndexError,
     "out of range"),
    ("gather_nd_float", lambda: ops.gather_nd(M33, T(np.array([[0.0, 1.0]]))), TypeError,
     "integer"),
    ("gather_nd_depth", lambda: ops.gather_nd(M33, T(np.array([[0, 1, 2]]))), ValueError,
     "last dimension"),
    ("scatter_nd_shape_type", lambda: ops.scatter_nd(NDI, T(np.zeros(4)), [3, 0]), TypeError,
     "positive ints"),
    ("scatter_nd_updates", lambda: ops.scatter_nd(NDI, T(np.zeros(3)), (3, 4)), ValueError,
     "'updates' must have shape"),
    ("scatter_nd_range", lambda: ops.scatter_nd(NDI, T(np.zeros(4)), (2, 4)), IndexError,
     "out of range"),
    ("scatter_updates_shape", lambda: ops.tensor_scatter_add(M33, T(np.array([[0, 1]])),
                                                             T(np.zeros(2))), ValueError,
     "updates"),
    ("scatter_dtype", lambda: ops.tensor_scatter_update(M33, T(np.array([[0, 1]])),
                                                        T(np.zeros(1, np.float32))), TypeError,
     "dtype"),
    ("scatter_range", lambda: ops.tensor_scatter_add(M33, T(np.array([[5, 1]])), T(np.zeros(1))),
     IndexError, "out of range"),
    ("index_select_range", lambda: ops.index_select(M33, 0, T(np.array([0, 3]))), IndexError,
     "index"),
    ("index_select_rank", lambda: ops.index_select(M33, 0, T(np.array([[0]]))), ValueError,
     "1-D"),
    ("index_select_axis", lambda: ops.index_select(M33, 2, T(np.array([0]))), ValueError, "axis"),
    ("one_hot_float", lambda: ops.one_hot(T(np.array([0.5])), 3), TypeError, "integer"),
    ("one_hot_axis", lambda: ops.one_hot(T(np.array([0])), 3, axis=3), ValueError, "axis"),
    ("one_hot_depth", lambda: ops.one_hot(T(np.array([0])), -2), ValueError, "depth"),
    ("masked_fill_mask_dtype", lambda: ops.masked_fill(M33, T(np.ones(3)), 0.0), TypeError,
     "bool"),
    ("masked_fill_mask_shape", lambda: ops.masked_fill(M33, T(np.ones((2, 3), bool)), 0.0),
     ValueError, "broadcast"),
    ("pad_odd", lambda: ops.pad(M33, (1, 2, 3)), TypeError, "even length"),
    ("pad_mode", lambda: ops.pad(M33, (1, 1), mode="mirror"), ValueError, "mode"),
    ("pad_reflect_size", lambda: ops.pad(M33, (3, 0), mode="reflect"), ValueError, "smaller"),
    ("pad_too_many_axes", lambda: ops.pad(M33, (1, 1, 1, 1, 1, 1)), ValueError, "more axes"),
    ("einsum_count", lambda: ops.einsum("ij,jk->ik", M33), ValueError, "operand"),
    ("einsum_sizes", lambda: ops.einsum("ij,jk->ik", M33, T(np.zeros((2, 2)))), ValueError,
     "sizes"),
    ("einsum_rank", lambda: ops.einsum("ijk->i", M33), ValueError, "rank"),
    ("einsum_output", lambda: ops.einsum("ij->iz", M33), ValueError, "output"),
    ("einsum_chars", lambda: ops.einsum("i1->i", M33), ValueError, "invalid"),
    ("inverse_square", lambda: ops.inverse(T(np.zeros((2, 3)))), ValueError, "square"),
    ("inverse_singular", lambda: ops.inverse(T(np.zeros((2, 2)))), ValueError, "singular"),
    ("det_int", lambda: ops.det(T(np.eye(2, dtype=np.int64))), TypeError, "float"),
    ("cholesky_not_pd", lambda: ops.cholesky(T(-np.eye(2))), ValueError, "Cholesky"),
    ("solve_shape", lambda: ops.solve(M33, T(np.zeros((2, 2)))), ValueError, "'b'"),
    ("norm_fro_int_dim", lambda: ops.norm(M33, "fro", dim=1), ValueError, "2-tuple 'dim'"),
    ("norm_nuc_1d", lambda: ops.norm(T(np.ones(3)), "nuc"), ValueError, "vector norm"),
    ("norm_dim_3_tuple", lambda: ops.norm(T(np.ones((2, 2, 2))), dim=(0, 1, 2)), ValueError,
     "2-tuple"),
    ("norm_ord_3d_no_dim", lambda: ops.norm(T(np.ones((2, 2, 2))), 1), ValueError, "1-D or 2-D"),
    ("norm_matrix_ord", lambda: ops.norm(M33, 3), ValueError, "matrix norm"),
    ("norm_matrix_ord_0", lambda: ops.norm(M33, 0, dim=(0, 1)), ValueError, "matrix norm"),
    ("norm_vector_ord_str", lambda: ops.norm(M33, "max", dim=0), ValueError, "vector norm"),
    ("norm_same_dims", lambda: ops.norm(M33, 2, dim=(1, -1)), ValueError, "differ"),
    ("norm_dim_range", lambda: ops.norm(M33, dim=2), ValueError, "out of range"),
    ("norm_dim_type", lambda: ops.norm(M33, dim=1.0), TypeError, "'dim'"),
    ("svd_vector", lambda: ops.svd(T(np.ones(3))), ValueError, "matrix"),
    ("svd_int", lambda: ops.svd(T(np.eye(2, dtype=np.int64))), TypeError, "float"),
    ("svd_full_grad", lambda: ops.grad(lambda a: ops.svd(a, True)[1].sum())(
        T(np.ones((3, 2)))), ValueError, "full_matrices"),
    ("cumprod_axis", lambda: ops.cumprod(M33, 2), ValueError, "axis"),
    ("prod_axis", lambda: ops.prod(M33, -3), ValueError, "axis"),
]


@pytest.mark.parametrize("fn,exc,text", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_clear_errors(fn, exc, text) -> None:
    with pytest.raises(exc, match=text) as info:
        fn()
    assert "For '" in str(info.value)


def test_tensor_methods_and_aliases() -> None:
    a = np.array([[2.0, 1.0], [0.5, 3.0]])
    x = T(a)
    np.testing.assert_allclose(x.det().asnumpy(), np.linalg.det(a))
    np.testing.assert_allclose(ops.matrix_determinant(x).asnumpy(), np.linalg.det(a))
    np.testing.assert_allclose(x.log2().asnumpy(), np.log2(a))
    y = T(np.array([-1.5, -0.5, 0.4, 2.6]))
    for name, ref in (("floor", np.floor), ("ceil", np.ceil), ("round", np.round)):
        np.testing.assert_array_equal(getattr(y, name)().asnumpy(), ref(y.asnumpy()))
        g = ops.grad(lambda t, name=name: (getattr(t, name)() * t).sum())(y).asnumpy()
        np.testing.assert_array_equal(g, ref(y.asnumpy()))  # zero gradient through the op


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_scatter_nd_keeps_dtype_and_accumulates(dtype):
    updates = np.array([1, 2, 3, 4], dtype)
    out = ops.scatter_nd(NDI, T(updates), (3, 4))
    want = np.zeros((3, 4), dtype)
    np.add.at(want, tuple(ND_IDX.T), updates)
    assert out.asnumpy().dtype == dtype
    np.testing.assert_array_equal(out.asnumpy(), want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_scatters_sum_repeats_without_losing_digits(dtype):
    """Many repeats of one index accumulate in float64 and round once: float16 add.at
    would stop at 2048, and float32 drifts by about 1% over 2**20 additions of 0.1."""
    idx = T(np.zeros((5000, 1), np.int32))
    ones = T(np.ones(5000, dtype))
    assert float(ops.tensor_scatter_add(T(np.zeros(1, dtype)), idx, ones)[0]) == 5000
    grad = ops.grad(lambda a: ops.gather_nd(a, idx).sum())(T(np.zeros(3, dtype)))
    assert grad.asnumpy().tolist() == [5000, 0, 0] and grad.asnumpy().dtype == dtype
    count = 2 ** 20 if dtype == np.float32 else 2 ** 12  # float16's sum stays finite
    many = T(np.zeros((count, 1), np.int64))
    tenths = np.full(count, 0.1, dtype)
    got = ops.scatter_nd(many, T(tenths), (2,)).asnumpy()
    assert got[0] == dtype(tenths.astype(np.float64).sum()) and got[1] == 0


def test_logsumexp_of_infinite_rows() -> None:
    """A row of -inf sums to nothing (-inf), a +inf entry gives +inf, the others stay exact."""
    x = ms.Tensor(np.array([[-np.inf, -np.inf], [1.0, np.inf], [0.0, np.log(3.0)]]))
    with np.errstate(divide="ignore"):
        out = ops.logsumexp(x, 1).asnumpy()
    np.testing.assert_array_equal(out[:2], [-np.inf, np.inf])
    np.testing.assert_allclose(out[2], np.log(4.0), rtol=1e-15)
