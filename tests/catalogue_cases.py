"""The operator-catalogue cases, shared by the recorder (``tools/record_catalogue.py``, run
with the real MindSpore) and ``tests/test_catalogue.py`` (run with mindgrad).

A case is a call ``fn(ms, ops, *inputs)`` written once for both libraries, its inputs
(made here from a fixed seed and stored in the fixture with the results), and the inputs
whose gradient is recorded: the gradient of ``sum(w * first_output)`` for fixed weights
``w``. ``values=False``: only the shapes and dtypes are compared (random draws)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np


@dataclass
class Case:
    name: str
    fn: Callable
    inputs: list
    grad: tuple = ()
    values: bool = True
    rtol: float = 1e-5
    # record in a fresh MindSpore process: its SearchSorted kernel keeps the output size of
    # an earlier call of another dtype and then fails
    fresh: bool = False


def _r(seed: int, shape: tuple, dtype: Any = np.float32, lo: float = -2, hi: float = 2) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (lo + (hi - lo) * rng.random(shape)).astype(dtype)


def _i(seed: int, shape: tuple, hi: int, dtype: Any = np.int32) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, hi, size=shape).astype(dtype)


def _spd(seed: int, n: int) -> np.ndarray:
    a = _r(seed, (n, n)).astype(np.float64)
    return (a @ a.T + n * np.eye(n)).astype(np.float32)


X23 = _r(1, (2, 3))
X234 = _r(2, (2, 3, 4))
P23 = _r(3, (2, 3), lo=0.05, hi=0.95)
T23 = _r(4, (2, 3), lo=0.0, hi=1.0)
TIES = np.array([[3., 1., 2., 1.], [0., 5., -1., 5.]], np.float32)

CASES: list[Case] = [
    # --- the names the issue lists as stopping real programs --------------------------------
    Case("bce_with_logits", lambda ms, ops, x, y: ops.binary_cross_entropy_with_logits(x, y),
         [X23, T23], (0, 1)),
    Case("bce_with_logits_weights_none",
         lambda ms, ops, x, y, w, p: ops.binary_cross_entropy_with_logits(x, y, w, p, "none"),
         [X23, T23, _r(5, (2, 3), lo=0.5), _r(6, (3,), lo=0.5)], (0, 2, 3)),
    Case("bce_with_logits_sum",
         lambda ms, ops, x, y: ops.binary_cross_entropy_with_logits(x, y, reduction="sum"),
         [X23, T23], (0,)),
    Case("randn_shape", lambda ms, ops: ops.randn(2, 3), [], values=False),
    Case("randn_tuple_f64", lambda ms, ops: ops.randn((2, 3), dtype=ms.float64), [],
         values=False),
    Case("rand", lambda ms, ops: ops.rand(4, 1), [], values=False),
    Case("randint", lambda ms, ops: ops.randint(0, 5, (2, 3)), [], values=False),
    Case("uniform", lambda ms, ops, a, b: ops.uniform((2, 3), a, b),
         [np.array(0.0, np.float32), np.array(2.0, np.float32)], values=False),
    Case("normal", lambda ms, ops, m, s: ops.normal((2, 3), m, s),
         [np.array(1.0, np.float32), np.array(0.5, np.float32)], values=False),
    Case("multinomial_1d", lambda ms, ops, p: ops.multinomial(p, 4),
         [np.array([0.1, 0.9], np.float32)], values=False),
    Case("multinomial_2d", lambda ms, ops, p: ops.multinomial(p, 2, False),
         [np.array([[0.1, 0.9, 0.3], [0.5, 0.5, 0.2]], np.float32)], values=False),
    Case("standard_normal", lambda ms, ops: ops.standard_normal((3, 2)), [], values=False),
    Case("rand_like", lambda ms, ops, x: ops.rand_like(x), [X23], values=False),
    Case("randperm", lambda ms, ops: ops.randperm(5), [], values=False),
    Case("mm", lambda ms, ops, a, b: ops.mm(a, b), [X23, _r(7, (3, 4))], (0, 1)),
    Case("tensor_dot_pairs", lambda ms, ops, a, b: ops.tensor_dot(a, b, ((1, 2), (0, 1))),
         [X234, _r(8, (3, 4, 5))], (0, 1)),
    Case("tensor_dot_int", lambda ms, ops, a, b: ops.tensor_dot(a, b, 1),
         [X234, _r(9, (4, 2))], (0, 1)),
    Case("dense", lambda ms, ops, x, w, b: ops.dense(x, w, b),
         [X23, _r(10, (4, 3)), _r(11, (4,))], (0, 1, 2)),
    Case("dense_1d_nobias", lambda ms, ops, x, w: ops.dense(x, w),
         [_r(12, (3,)), _r(10, (4, 3))], (0, 1)),
    Case("bias_add", lambda ms, ops, x, b: ops.bias_add(x, b), [X234, _r(13, (3,))], (0, 1)),
    Case("tensor_from_numpy", lambda ms, ops, x: ms.Tensor.from_numpy(x.asnumpy()), [X23]),
    Case("dot_3d", lambda ms, ops, a, b: ops.dot(a, b), [X234, _r(14, (3, 4, 5))], (0, 1)),
    Case("copy_grad", lambda ms, ops, x: x.copy() * x, [X23], (0,)),
    Case("tile_1", lambda ms, ops, x: x.tile(1), [X234], (0,)),
    Case("unsqueeze_axis", lambda ms, ops, x: x.unsqueeze(axis=1), [X23], (0,)),
    Case("logsumexp_dim", lambda ms, ops, x: x.logsumexp(dim=1), [X234], (0,)),
    Case("ops_logsumexp_dim_keep", lambda ms, ops, x: ops.logsumexp(x, dim=2, keepdim=True),
         [X234], (0,)),
    Case("view_dtype", lambda ms, ops, x: x.view(ms.int32), [X23]),
    Case("squeeze_not_one", lambda ms, ops, x: x.squeeze(2), [X234], (0,)),
    # --- losses and nn functions --------------------------------------------------------------
    Case("binary_cross_entropy", lambda ms, ops, p, y: ops.binary_cross_entropy(p, y),
         [P23, T23], (0,)),
    Case("binary_cross_entropy_w_none",
         lambda ms, ops, p, y, w: ops.binary_cross_entropy(p, y, w, "none"),
         [P23, T23, _r(15, (2, 3), lo=0.5)], (0,)),
    Case("mse_loss", lambda ms, ops, x, y: ops.mse_loss(x, y), [X23, _r(16, (2, 3))], (0, 1)),
    Case("mse_loss_none", lambda ms, ops, x, y: ops.mse_loss(x, y, "none"),
         [X23, _r(16, (2, 3))], (0,)),
    Case("l1_loss_sum", lambda ms, ops, x, y: ops.l1_loss(x, y, "sum"), [X23, _r(17, (2, 3))],
         (0,)),
    Case("smooth_l1_loss", lambda ms, ops, x, y: ops.smooth_l1_loss(x, y),
         [X23, _r(18, (2, 3))], (0,)),
    Case("smooth_l1_loss_beta_mean",
         lambda ms, ops, x, y: ops.smooth_l1_loss(x, y, 0.5, "mean"),
         [X23, _r(18, (2, 3))], (0,)),
    Case("huber_loss", lambda ms, ops, x, y: ops.huber_loss(x, y, "mean", 0.7),
         [X23, _r(19, (2, 3))], (0,)),
    Case("soft_margin_loss", lambda ms, ops, x, y: ops.soft_margin_loss(x, y),
         [X23, np.sign(_r(20, (2, 3)))], (0,)),
    Case("margin_ranking_loss", lambda ms, ops, a, b, y: ops.margin_ranking_loss(a, b, y, 0.3),
         [_r(21, (4,)), _r(22, (4,)), np.sign(_r(23, (4,)))], (0, 1)),
    Case("kl_div_mean", lambda ms, ops, x, y: ops.kl_div(x, y),
         [np.log(P23), T23], (0,)),
    Case("kl_div_batchmean", lambda ms, ops, x, y: ops.kl_div(x, y, "batchmean"),
         [np.log(P23), T23], (0,)),
    Case("kl_div_sum", lambda ms, ops, x, y: ops.kl_div(x, y, "sum"), [np.log(P23), T23], (0,)),
    Case("nll_loss", lambda ms, ops, x, t: ops.nll_loss(x, t),
         [_r(24, (4, 3)), _i(25, (4,), 3)], (0,)),
    Case("nll_loss_weight_ignore",
         lambda ms, ops, x, t, w: ops.nll_loss(x, t, w, ignore_index=1),
         [_r(24, (4, 3)), np.array([0, 1, 2, 2], np.int32), _r(26, (3,), lo=0.5)], (0,)),
    Case("nll_loss_none_4d", lambda ms, ops, x, t: ops.nll_loss(x, t, reduction="none"),
         [_r(27, (2, 3, 2, 2)), _i(28, (2, 2, 2), 3)], (0,)),
    Case("cross_entropy", lambda ms, ops, x, t: ops.cross_entropy(x, t),
         [_r(29, (4, 5)), _i(30, (4,), 5)], (0,)),
    Case("cross_entropy_smooth_weight",
         lambda ms, ops, x, t, w: ops.cross_entropy(x, t, w, label_smoothing=0.2),
         [_r(29, (4, 5)), _i(30, (4,), 5), _r(31, (5,), lo=0.5)], (0,)),
    Case("cross_entropy_probs", lambda ms, ops, x, t: ops.cross_entropy(x, t),
         [_r(32, (3, 4)), _r(33, (3, 4), lo=0.0, hi=0.5)], (0, 1)),
    Case("cross_entropy_sum_4d", lambda ms, ops, x, t: ops.cross_entropy(x, t, reduction="sum"),
         [_r(34, (2, 3, 2, 2)), _i(35, (2, 2, 2), 3)], (0,)),
    Case("cosine_similarity", lambda ms, ops, a, b: ops.cosine_similarity(a, b),
         [X23, _r(36, (2, 3))], (0, 1)),
    Case("hardtanh", lambda ms, ops, x: ops.hardtanh(x, -0.5, 1.2), [X23], (0,)),
    Case("softsign", lambda ms, ops, x: ops.softsign(x), [X23], (0,)),
    Case("selu", lambda ms, ops, x: ops.selu(x), [X23], (0,)),
    Case("celu", lambda ms, ops, x: ops.celu(x, 0.7), [X23], (0,)),
    Case("logsigmoid", lambda ms, ops, x: ops.logsigmoid(x), [X23], (0,)),
    Case("hardsigmoid", lambda ms, ops, x: ops.hardsigmoid(x), [X23 * 3], (0,)),
    Case("softmin", lambda ms, ops, x: ops.softmin(x, 0), [X23], (0,)),
    Case("softshrink", lambda ms, ops, x: ops.softshrink(x, 0.6), [X23], (0,)),
    Case("hardshrink", lambda ms, ops, x: ops.hardshrink(x, 0.6), [X23], (0,)),
    Case("tanhshrink", lambda ms, ops, x: ops.tanhshrink(x), [X23], (0,)),
    Case("glu", lambda ms, ops, x: ops.glu(x, 1), [_r(37, (2, 4))], (0,)),
    Case("threshold", lambda ms, ops, x: ops.threshold(x, 0.2, -1.0), [X23], (0,)),
    # --- sorting and searching ------------------------------------------------------------
    Case("gather_elements", lambda ms, ops, x, i: ops.gather_elements(x, 1, i),
         [TIES, np.array([[0, 0], [1, 3]], np.int64)], (0,)),
    Case("gather_elements_dim0", lambda ms, ops, x, i: ops.gather_elements(x, 0, i),
         [TIES, np.array([[0, 1, 1, 0]], np.int32)], (0,)),
    Case("sort", lambda ms, ops, x: ops.sort(x), [TIES], (0,)),
    Case("sort_desc_axis0", lambda ms, ops, x: ops.sort(x, 0, True), [TIES], (0,)),
    Case("sort_int", lambda ms, ops, x: ops.sort(x), [np.array([3, 1, 2, 1], np.int32)]),
    Case("argsort_desc", lambda ms, ops, x: ops.argsort(x, descending=True), [TIES]),
    Case("topk", lambda ms, ops, x: ops.topk(x, 2), [TIES], (0,)),
    Case("topk_smallest_dim0", lambda ms, ops, x: ops.topk(x, 1, dim=0, largest=False), [TIES],
         (0,)),
    Case("unique", lambda ms, ops, x: ops.unique(x), [np.array([3, 1, 3, 2, 1], np.int32)]),
    Case("unique_2d", lambda ms, ops, x: ops.unique(x), [TIES]),
    Case("searchsorted", lambda ms, ops, s, v: ops.searchsorted(s, v),
         [np.array([1., 2., 2., 3.], np.float32), np.array([2., 0.5, 4.], np.float32)]),
    Case("searchsorted_right", lambda ms, ops, s, v: ops.searchsorted(s, v, right=True),
         [np.array([1., 2., 2., 3.], np.float32), np.array([2., 0.5, 4.], np.float32)]),
    Case("searchsorted_2d", lambda ms, ops, s, v: ops.searchsorted(s, v),
         [np.array([[1., 2., 3.], [0., 4., 8.]], np.float32),
          np.array([[2.5, 0.], [5., 9.]], np.float32)]),
    Case("cummax", lambda ms, ops, x: ops.cummax(x, 1), [TIES]),
    Case("cummin", lambda ms, ops, x: ops.cummin(x, 0), [TIES]),
    Case("cummax_random", lambda ms, ops, x: ops.cummax(x, 0), [X234]),
    Case("logcumsumexp", lambda ms, ops, x: ops.logcumsumexp(x, 1), [X234], (0,)),
    # --- linear algebra -------------------------------------------------------------------
    Case("slogdet", lambda ms, ops, x: ops.slogdet(x), [_spd(38, 3) - 4 * np.eye(3, dtype=np.float32)]),
    Case("slogdet_batch", lambda ms, ops, x: ops.slogdet(x), [np.stack([_spd(39, 2), _spd(40, 2)])]),
    Case("matrix_power_3", lambda ms, ops, x: ops.matrix_power(x, 3), [_r(41, (3, 3))], (0,)),
    Case("matrix_power_0", lambda ms, ops, x: ops.matrix_power(x, 0), [_r(41, (3, 3))]),
    Case("matrix_power_neg", lambda ms, ops, x: ops.matrix_power(x, -2), [_spd(42, 3)], (0,),
         rtol=1e-4),
    Case("cdist", lambda ms, ops, a, b: ops.cdist(a, b), [_r(43, (3, 2)), _r(44, (4, 2))],
         (0, 1)),
    Case("cdist_p1_batch", lambda ms, ops, a, b: ops.cdist(a, b, 1.0),
         [_r(45, (2, 3, 2)), _r(46, (2, 4, 2))], (0, 1)),
    Case("cdist_inf", lambda ms, ops, a, b: ops.cdist(a, b, float("inf")),
         [_r(47, (3, 2)), _r(48, (2, 2))]),
    Case("inner", lambda ms, ops, a, b: ops.inner(a, b), [X23, _r(49, (4, 3))], (0, 1)),
    Case("addmm", lambda ms, ops, x, a, b: ops.addmm(x, a, b, beta=2, alpha=0.5),
         [_r(50, (2, 4)), X23, _r(51, (3, 4))], (0, 1, 2)),
    Case("kron", lambda ms, ops, a, b: ops.kron(a, b), [_r(52, (2, 2)), X23], (0, 1)),
    Case("trace", lambda ms, ops, x: ops.trace(x), [_r(53, (3, 4))], (0,)),
    # --- array and elementwise functions ---------------------------------------------------
    Case("full_like", lambda ms, ops, x: ops.full_like(x, 2), [X23]),
    Case("full_like_int_float", lambda ms, ops, x: ops.full_like(x, 2.5),
         [np.ones(3, np.int32)]),
    Case("tril", lambda ms, ops, x: ops.tril(x), [_r(54, (3, 4))], (0,)),
    Case("triu_k", lambda ms, ops, x: ops.triu(x, 1), [_r(55, (2, 3, 3))], (0,)),
    Case("tril_neg_k", lambda ms, ops, x: ops.tril(x, -1), [_r(56, (4, 3))], (0,)),
    Case("diag", lambda ms, ops, x: ops.diag(x), [_r(57, (3,))], (0,)),
    Case("narrow", lambda ms, ops, x: ops.narrow(x, 1, 1, 2), [X234], (0,)),
    Case("masked_select", lambda ms, ops, x, m: ops.masked_select(x, m),
         [X23, X23 > 0], (0,)),
    Case("masked_select_broadcast", lambda ms, ops, x, m: ops.masked_select(x, m),
         [X23, np.array([True, False, True])], (0,)),
    Case("nonzero", lambda ms, ops, x: ops.nonzero(x), [np.array([[1, 0], [0, 3]], np.int32)]),
    Case("argwhere", lambda ms, ops, x: ops.argwhere(x), [X23 > 0]),
    Case("count_nonzero", lambda ms, ops, x: ops.count_nonzero(x),
         [np.array([[1, 0, 2], [0, 0, 3]], np.float32)]),
    Case("count_nonzero_axis", lambda ms, ops, x: ops.count_nonzero(x, 1, True),
         [np.array([[1, 0, 2], [0, 0, 3]], np.float32)]),
    Case("logaddexp", lambda ms, ops, a, b: ops.logaddexp(a, b), [X23, _r(58, (2, 3))], (0, 1)),
    Case("lerp", lambda ms, ops, a, b: ops.lerp(a, b, 0.3), [X23, _r(59, (2, 3))], (0, 1)),
    Case("lerp_tensor_weight", lambda ms, ops, a, b, w: ops.lerp(a, b, w),
         [X23, _r(59, (2, 3)), _r(60, (3,), lo=0, hi=1)], (0, 1, 2)),
    Case("xlogy", lambda ms, ops, a, b: ops.xlogy(a, b),
         [np.array([[0.0, 1.5, 2.0], [0.5, 0.0, 3.0]], np.float32), _r(61, (2, 3), lo=0.1)],
         (0, 1)),
    Case("isposinf", lambda ms, ops, x: ops.isposinf(x),
         [np.array([1.0, np.inf, -np.inf, np.nan], np.float32)]),
    Case("isneginf", lambda ms, ops, x: ops.isneginf(x),
         [np.array([1.0, np.inf, -np.inf, np.nan], np.float32)]),
    Case("tensor_scatter_sub", lambda ms, ops, x, u: ops.tensor_scatter_sub(
        x, ms.Tensor(np.array([[0], [2], [0]], np.int32)), u),
         [_r(62, (3, 2)), _r(63, (3, 2))], (0, 1)),
    Case("movedim", lambda ms, ops, x: ops.movedim(x, 0, 2), [X234], (0,)),
    Case("movedim_tuple", lambda ms, ops, x: ops.movedim(x, (0, 1), (2, 0)), [X234], (0,)),
    Case("chunk", lambda ms, ops, x: ops.chunk(x, 3, 0), [_r(64, (5, 2))], (0,)),
    Case("unbind", lambda ms, ops, x: ops.unbind(x, 1), [X23], (0,)),
    # --- Tensor methods -----------------------------------------------------------------------
    Case("method_sort", lambda ms, ops, x: x.sort(0, True), [TIES], (0,)),
    Case("method_topk", lambda ms, ops, x: x.topk(1, 0), [TIES], (0,)),
    Case("method_gather_elements", lambda ms, ops, x, i: x.gather_elements(1, i),
         [TIES, np.array([[3, 0], [2, 2]], np.int64)], (0,)),
    Case("method_tril_triu", lambda ms, ops, x: x.tril(1) + x.triu(), [_r(65, (3, 3))], (0,)),
    Case("method_new_zeros", lambda ms, ops, x: x.new_zeros((2, 2)), [np.ones(3, np.int32)]),
    Case("method_new_ones", lambda ms, ops, x: x.new_ones((2,), dtype=ms.float64), [X23]),
    Case("method_trace_offset", lambda ms, ops, x: x.trace(1), [_r(66, (3, 4))], (0,)),
    Case("method_t_mT", lambda ms, ops, x: x.t() * x.mT, [_r(67, (3, 3))], (0,)),
    Case("method_mm_inner", lambda ms, ops, a, b: a.mm(b.t()) + a.inner(b), [X23, _r(68, (2, 3))],
         (0, 1)),
    Case("method_searchsorted", lambda ms, ops, s, v: s.searchsorted(v, side="right"),
         [np.array([1., 2., 2., 3.], np.float32), np.array([2., 0.5, 4.], np.float32)],
         fresh=True),
    Case("method_count_nonzero_double", lambda ms, ops, x: x.count_nonzero().double(),
         [np.maximum(X23, 0)]),
    Case("method_cummin_logcumsumexp", lambda ms, ops, x: x.cummin(1)[0] + x.logcumsumexp(1),
         [X234], (0,)),
]
