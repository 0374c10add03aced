"""Benchmark cases for the shape, indexing and core linear algebra operators: reshape and
friends, concat / stack / split, flip, gather and the forms of ``x[index]``, and the matrix
products. (Pad, gather_nd, the scatters, index_select and einsum are in ``cases_extended``.)

Many shape operators are pure views in NumPy: their reference costs little beyond making the
cotangent and ``(y * g).sum()``, so these rows mostly measure the fixed cost of a
``value_and_grad`` call rather than the operator (an identity "operator" scores the same as
reshape: about 30 us of dispatch per call in PYNATIVE, and with ``--live-cotangent`` also the
backward multiply ``ones * v`` of the loss, which the NumPy reference does not need).
References are the fast hand-written forms: gather's backward sorts the indices and sums runs
with ``add.reduceat`` (about twice as fast as ``np.add.at``), a broadcast batch of matrix
products sums the weight gradient as one product."""
from __future__ import annotations

import numpy as np

from opbench import F32, T, Case, normal, normals, ones_cot
from mindgrad import ops


# --- NumPy hand-written forward + backward -------------------------------------------------
def ref_reshape(x, cot=ones_cot):
    y = x.reshape(256, 1024)
    g = cot(y)
    return (y * g).sum(), [g.reshape(x.shape)]


def ref_expand_dims(x, cot=ones_cot):
    y = x[:, None]
    g = cot(y)
    return (y * g).sum(), [g[:, 0]]


def ref_squeeze(x, cot=ones_cot):
    y = x[:, 0]
    g = cot(y)
    return (y * g).sum(), [g[:, None]]


def ref_transpose(x, cot=ones_cot):
    y = x.T
    g = cot(y)
    return (y * g).sum(), [g.T]


def ref_permute(x, cot=ones_cot):
    y = x.transpose(1, 2, 0)
    g = cot(y)
    return (y * g).sum(), [g.transpose(2, 0, 1)]


def ref_broadcast_to(x, cot=ones_cot):
    y = np.broadcast_to(x, (512, 512))
    g = cot(y)
    return (y * g).sum(), [g.sum(0)]


def ref_tile(x, cot=ones_cot):
    y = np.tile(x, (2, 2))
    g = cot(y)
    return (y * g).sum(), [g.reshape(2, 256, 2, 256).sum((0, 2))]


def ref_concat(a, b, c, cot=ones_cot):
    y = np.concatenate([a, b, c], 1)
    g = cot(y)
    return (y * g).sum(), [g[:, :128], g[:, 128:384], g[:, 384:]]


def ref_stack(a, b, c, d, cot=ones_cot):
    y = np.stack([a, b, c, d], 1)
    g = cot(y)
    return (y * g).sum(), [g[:, 0], g[:, 1], g[:, 2], g[:, 3]]


def ref_split(x, cot=ones_cot):
    p = np.split(x, 4, 1)
    y = p[0] + p[1] + p[2] + p[3]
    g = cot(y)
    return (y * g).sum(), [np.tile(g, (1, 4))]


def ref_flip(x, cot=ones_cot):
    y = x[:, ::-1]
    g = cot(y)
    return (y * g).sum(), [g[:, ::-1]]


def _rows_add(idx, g, nrows):
    """The transpose of ``table[idx]``: g's rows summed into the rows they were taken from
    (sort the indices, then one ``add.reduceat`` per run of equal rows)."""
    flat = idx.ravel()
    g2 = g.reshape(flat.size, -1)
    order = np.argsort(flat, kind="stable")
    s = flat[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    out = np.zeros((nrows, g2.shape[1]), g.dtype)
    out[s[starts]] = np.add.reduceat(g2[order], starts, axis=0)
    return out


def ref_gather(x, idx, cot=ones_cot):
    y = x[idx]
    g = cot(y)
    return (y * g).sum(), [_rows_add(idx, g, x.shape[0])]


def ref_slice_step(x, cot=ones_cot):
    y = x[::2, 1::3]
    g = cot(y)
    gx = np.zeros_like(x)
    gx[::2, 1::3] = g
    return (y * g).sum(), [gx]


def ref_negative(x, cot=ones_cot):
    y = x[-1, -200:, :-56]
    g = cot(y)
    gx = np.zeros_like(x)
    gx[-1, -200:, :-56] = g
    return (y * g).sum(), [gx]


def ref_ellipsis_none(x, cot=ones_cot):
    y = x[..., None, 1:]
    g = cot(y)
    gx = np.zeros_like(x)
    gx[..., 1:] = g[..., 0, :]
    return (y * g).sum(), [gx]


def ref_mask(x, mask, cot=ones_cot):
    y = x[mask]
    g = cot(y)
    gx = np.zeros_like(x)
    gx[mask] = g
    return (y * g).sum(), [gx]


def ref_int_array(x, idx, cot=ones_cot):
    y = x[:, idx]
    g = cot(y)
    return (y * g).sum(), [_rows_add(idx, g.T, x.shape[1]).T]


def ref_matmul(a, b, cot=ones_cot):
    y = a @ b
    g = cot(y)
    return (y * g).sum(), [g @ b.T, a.T @ g]


def ref_matmul_tb(a, b, cot=ones_cot):
    y = a @ b.T
    g = cot(y)
    return (y * g).sum(), [g @ b, g.T @ a]


def ref_bmm_broadcast(a, b, cot=ones_cot):
    y = a @ b
    g = cot(y)
    # b's gradient summed over the batch as one product: (sum_i a_i^T g_i) = A^T G
    k = a.shape[-1]
    return (y * g).sum(), [g @ b.T, a.reshape(-1, k).T @ g.reshape(-1, g.shape[-1])]


def ref_dot(a, v, cot=ones_cot):
    y = a @ v
    g = cot(y)
    return (y * g).sum(), [np.outer(g, v), g @ a]


def ref_outer(x, y_, cot=ones_cot):
    y = np.outer(x, y_)
    g = cot(y)
    return (y * g).sum(), [g @ y_, x @ g]


# --- inputs -------------------------------------------------------------------------------------
def with_rows(table, idx_shape):
    def make(rng):
        x = rng.standard_normal(table).astype(F32)
        return [x], {"idx": rng.integers(0, table[0], idx_shape)}
    return make


def with_mask(rng):
    return [rng.standard_normal((512, 512)).astype(F32)], {"mask": rng.random((512, 512)) < 0.5}


def with_columns(rng):
    return [rng.standard_normal((512, 512)).astype(F32)], {"idx": rng.integers(0, 512, 384)}


def matrix_vector(rng):
    return [rng.standard_normal((512, 512)).astype(F32),
            rng.standard_normal(512).astype(F32)], {}


def split_sum(x):
    a, b, c, d = ops.split(x, 128, 1)
    return a + b + c + d


def concat_inputs(rng):
    return [rng.standard_normal((512, n)).astype(F32) for n in (128, 256, 128)], {}


CASES = [
    Case("reshape", "512x512", normal(512, 512), lambda x: ops.reshape(x, (256, 1024)),
         ref_reshape),
    Case("expand_dims (axis 1)", "512x512", normal(512, 512), lambda x: ops.expand_dims(x, 1),
         ref_expand_dims),
    Case("squeeze (axis 1)", "512x1x512", normal(512, 1, 512), lambda x: ops.squeeze(x, 1),
         ref_squeeze),
    Case("transpose (2-D)", "512x512", normal(512, 512), ops.transpose, ref_transpose),
    Case("permute (1, 2, 0)", "64x64x64", normal(64, 64, 64),
         lambda x: ops.permute(x, (1, 2, 0)), ref_permute),
    Case("broadcast_to", "512 -> 512x512", normal(512),
         lambda x: ops.broadcast_to(x, (512, 512)), ref_broadcast_to),
    Case("tile (2, 2)", "256x256", normal(256, 256), lambda x: ops.tile(x, (2, 2)), ref_tile),
    Case("concat (axis 1)", "512x(128|256|128)", concat_inputs,
         lambda a, b, c: ops.concat((a, b, c), 1), ref_concat),
    Case("stack (axis 1)", "4 x 256x256", normals(4, 256, 256),
         lambda a, b, c, d: ops.stack((a, b, c, d), 1), ref_stack),
    Case("split (sum of 4)", "512x512", normal(512, 512), split_sum, ref_split),
    Case("flip (axis 1)", "512x512", normal(512, 512), lambda x: ops.flip(x, (1,)), ref_flip),
    Case("gather (axis 0)", "1024x256, 32x32 idx", with_rows((1024, 256), (32, 32)),
         lambda x, idx: ops.gather(x, T(idx), 0), ref_gather),
    Case("getitem [::2, 1::3]", "512x512", normal(512, 512), lambda x: x[::2, 1::3],
         ref_slice_step),
    Case("getitem [-1, -200:, :-56]", "4x256x256", normal(4, 256, 256),
         lambda x: x[-1, -200:, :-56], ref_negative),
    Case("getitem [..., None, 1:]", "64x64x64", normal(64, 64, 64), lambda x: x[..., None, 1:],
         ref_ellipsis_none),
    Case("getitem [bool mask]", "512x512", with_mask, lambda x, mask: x[T(mask)], ref_mask),
    Case("getitem [:, int array]", "512x512, 384 idx", with_columns,
         lambda x, idx: x[:, T(idx)], ref_int_array),
    Case("matmul", "512x512 @ 512x512", normals(2, 512, 512), ops.matmul, ref_matmul),
    Case("matmul transpose_b", "512x512 @ 512x512", normals(2, 512, 512),
         lambda a, b: ops.matmul(a, b, transpose_b=True), ref_matmul_tb),
    Case("batch matmul broadcast", "8x128x128 @ 128x128",
         lambda rng: ([rng.standard_normal((8, 128, 128)).astype(F32),
                       rng.standard_normal((128, 128)).astype(F32)], {}),
         ops.matmul, ref_bmm_broadcast),
    Case("dot (matrix . vector)", "512x512 . 512", matrix_vector, ops.dot, ref_dot),
    Case("outer", "512 x 512", normals(2, 512), ops.outer, ref_outer),
]
