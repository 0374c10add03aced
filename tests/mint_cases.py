"""The ``mindspore.mint`` cases, recorded with the real MindSpore by
``tools/record_catalogue.py --suite mint`` into ``tests/fixtures/mint.json`` and compared
with mindgrad by ``tests/test_mint.py``. Each case is a ``Case`` of
``tests/catalogue_cases.py``: a call ``fn(ms, ops, *inputs)`` (``ms.mint`` is the module
under test), its inputs and the inputs whose gradient is recorded."""
from __future__ import annotations

import numpy as np

from catalogue_cases import Case, _i, _r

A = _r(201, (2, 3))
B = _r(202, (2, 3))
C = _r(203, (3, 4))
D = _r(204, (2, 3, 4))
E = _r(205, (2, 4, 5))
V = _r(206, (4,))
W3 = _r(207, (3,))
POS = _r(208, (2, 3), lo=0.2, hi=3.0)
UNIT = _r(209, (2, 3), lo=-0.9, hi=0.9)
BIG = _r(210, (2, 3), lo=1.1, hi=3.0)
PROB = _r(211, (2, 3), lo=0.05, hi=0.95)
IMG = _r(212, (2, 3, 6, 6))
KER = _r(213, (4, 3, 3, 3))
LOGITS = _r(214, (4, 5))
LABELS = _i(215, (4,), 5).astype(np.int64)
I23 = _i(216, (2, 3), 7) - 3
IDX = _i(217, (2, 3), 2).astype(np.int64)
SEQ = np.sort(_r(218, (6,)))
M = _r(219, (3, 5))
T = np.where(_r(220, (2,)) > 0, 1.0, -1.0).astype(np.float32)


def _m(name, **kw):
    return lambda ms, ops, *xs: getattr(ms.mint, name)(*xs, **kw)


def _f(name, **kw):
    return lambda ms, ops, *xs: getattr(ms.mint.nn.functional, name)(*xs, **kw)


UNARY = {"abs": A, "neg": A, "negative": A, "square": A, "sqrt": POS, "rsqrt": POS,
         "reciprocal": POS, "exp": A, "exp2": A, "expm1": A, "log": POS, "log2": POS,
         "log10": POS, "log1p": POS, "sin": A, "cos": A, "tan": UNIT, "asin": UNIT,
         "acos": UNIT, "atan": A, "arcsin": UNIT, "arccos": UNIT, "arctan": A, "sinh": A,
         "cosh": A, "tanh": A, "asinh": A, "acosh": BIG, "atanh": UNIT, "arcsinh": A,
         "arccosh": BIG, "arctanh": UNIT, "sinc": A, "erf": A, "erfc": A, "sigmoid": A,
         "frac": A}
NO_GRAD_UNARY = {"sign": A, "ceil": A, "floor": A, "isfinite": A, "isinf": A, "isnan": A,
                 "isneginf": A, "logical_not": A > 0, "ravel": D}
BINARY = {"add": (A, B), "sub": (A, B), "mul": (A, B), "div": (A, POS),
          "divide": (A, POS), "maximum": (A, B), "minimum": (A, B), "atan2": (A, B),
          "arctan2": (A, B), "pow": (POS, B), "float_power": (POS, B),
          "logaddexp": (A, B), "logaddexp2": (A, B), "xlogy": (POS, B),
          "matmul": (A, C), "mm": (A, C), "bmm": (D, E), "outer": (W3, V),
          "mv": (C, V), "dot": (V, V)}
NO_GRAD_BINARY = {"eq": (A, A * (A > 0)), "ne": (A, A * (A > 0)), "gt": (A, B),
                  "greater": (A, B), "greater_equal": (A, B), "lt": (A, B), "less": (A, B),
                  "le": (A, B), "less_equal": (A, B), "not_equal": (A, B),
                  "logical_and": (A > 0, B > 0), "logical_or": (A > 0, B > 0),
                  "logical_xor": (A > 0, B > 0), "bitwise_and": (I23, I23 + 1),
                  "bitwise_or": (I23, I23 + 1), "bitwise_xor": (I23, I23 + 1),
                  "fmod": (A, POS), "remainder": (A, POS), "floor_divide": (A, POS),
                  "isclose": (A, A + 1e-7)}
REDUCE = {"sum": {}, "mean": {}, "prod": {}, "amax": {}, "amin": {}, "std": {},
          "var": {}, "logsumexp": {"dim": 1}, "norm": {}, "nansum": {}}
REDUCE_DIM = {"sum": {"dim": 1, "keepdim": True}, "mean": {"dim": (0, 2)},
              "prod": {"dim": -1}, "amax": {"dim": 2, "keepdim": True},
              "amin": {"dim": (1,)}, "std": {"dim": 1, "correction": 0},
              "var": {"dim": (0, 1), "keepdim": True}, "norm": {"p": 1, "dim": 2},
              "logsumexp": {"dim": (1, 2)}}
ACT = {"relu": {}, "relu6": {}, "sigmoid": {}, "tanh": {}, "silu": {}, "gelu": {},
       "elu": {"alpha": 0.7}, "leaky_relu": {"negative_slope": 0.1}, "hardtanh": {},
       "logsigmoid": {}, "softmax": {"dim": 1}, "log_softmax": {"dim": 0}, "glu": {"dim": 2},
       "threshold": {"threshold": 0.3, "value": -1.0}}


CASES: list[Case] = (
    [Case(f"m_{n}", _m(n), [x], (0,)) for n, x in UNARY.items()]
    + [Case(f"m_{n}", _m(n), [x]) for n, x in NO_GRAD_UNARY.items()]
    + [Case(f"m_{n}", _m(n), list(xy), (0, 1)) for n, xy in BINARY.items()]
    + [Case(f"m_{n}", _m(n), list(xy)) for n, xy in NO_GRAD_BINARY.items()]
    + [Case(f"r_{n}", _m(n, **kw), [D], (0,)) for n, kw in REDUCE.items()]
    + [Case(f"r_{n}_dim", _m(n, **kw), [D], (0,)) for n, kw in REDUCE_DIM.items()]
    + [Case(f"f_{n}", _f(n, **kw), [D], (0,)) for n, kw in ACT.items()]
    + [
        Case("m_add_alpha", _m("add", alpha=2.5), [A, B], (0, 1)),
        Case("m_sub_alpha", _m("sub", alpha=0.5), [A, B], (0, 1)),
        Case("m_div_floor", _m("div", rounding_mode="floor"), [A, POS]),
        Case("m_div_trunc", _m("div", rounding_mode="trunc"), [A, POS]),
        Case("m_clamp", _m("clamp", min=-0.5, max=0.7), [A], (0,)),
        Case("m_clamp_min", _m("clamp", min=-0.5), [A], (0,)),
        Case("m_round_decimals", _m("round", decimals=1), [A]),
        Case("m_lerp", _m("lerp"), [A, B, PROB], (0, 1, 2)),
        Case("m_addcdiv", _m("addcdiv", value=0.5), [A, B, POS], (0, 1, 2)),
        Case("m_addmm", _m("addmm", beta=0.5, alpha=2.0), [A[:, :1] * 0 + A[:, :1], A, C],
             (0, 1, 2)),
        Case("m_baddbmm", _m("baddbmm", alpha=0.5), [_r(230, (2, 3, 5)), D, E], (0, 1, 2)),
        Case("m_where", lambda ms, ops, c, x, y: ms.mint.where(c, x, y), [A > 0, A, B],
             (1, 2)),
        Case("m_max_all", _m("max"), [D], (0,)),
        Case("m_max_dim", _m("max", dim=1, keepdim=True), [A], (0,)),
        Case("m_min_dim", _m("min", dim=0), [A], (0,)),
        Case("m_max_other", lambda ms, ops, x, y: ms.mint.max(x, y), [A, B], (0, 1)),
        Case("m_argmax", _m("argmax", dim=1), [D]),
        Case("m_argmax_all", _m("argmax"), [D]),
        Case("m_argmin_keep", _m("argmin", dim=0, keepdim=True), [D]),
        Case("m_all", _m("all", dim=1), [A > 0]),
        Case("m_any", _m("any"), [A > 0]),
        Case("m_cumsum", _m("cumsum", dim=1), [D], (0,)),
        Case("m_cumprod", _m("cumprod", dim=0), [A], (0,)),
        Case("m_cummax", _m("cummax", dim=1), [A]),
        Case("m_count_nonzero", _m("count_nonzero", dim=1), [I23]),
        Case("m_std_mean", _m("std_mean", dim=1), [D]),
        Case("m_var_mean", _m("var_mean", dim=0, correction=0), [D]),
        Case("m_median", _m("median", dim=1), [_r(231, (3, 5))]),
        Case("m_median_all", _m("median"), [_r(232, (3, 5))]),
        Case("m_cat", lambda ms, ops, x, y: ms.mint.cat((x, y), dim=1), [A, B], (0, 1)),
        Case("m_concat", lambda ms, ops, x, y: ms.mint.concat([x, y]), [A, B], (0, 1)),
        Case("m_stack", lambda ms, ops, x, y: ms.mint.stack([x, y], dim=2), [A, B], (0, 1)),
        Case("m_hstack", lambda ms, ops, x, y: ms.mint.hstack([x, y]), [A, B], (0, 1)),
        Case("m_split", _m("split", split_size_or_sections=[1, 2], dim=1), [A], (0,)),
        Case("m_chunk", _m("chunk", chunks=2, dim=2), [D], (0,)),
        Case("m_unbind", _m("unbind", dim=1), [A], (0,)),
        Case("m_squeeze", _m("squeeze", dim=1), [_r(233, (2, 1, 3))], (0,)),
        Case("m_unsqueeze", _m("unsqueeze", dim=1), [A], (0,)),
        Case("m_flatten", _m("flatten"), [D], (0,)),
        Case("m_flatten_dims", _m("flatten", start_dim=1), [D], (0,)),
        Case("m_reshape", _m("reshape", shape=(4, -1)), [D], (0,)),
        Case("m_permute", _m("permute", dims=(2, 0, 1)), [D], (0,)),
        Case("m_transpose", _m("transpose", dim0=0, dim1=2), [D], (0,)),
        Case("m_swapaxes", _m("swapaxes", axis0=0, axis1=1), [A], (0,)),
        Case("m_t", _m("t"), [A], (0,)),
        Case("m_tile", _m("tile", dims=(2, 1)), [A], (0,)),
        Case("m_repeat_interleave", _m("repeat_interleave", repeats=2, dim=1), [A], (0,)),
        Case("m_roll", _m("roll", shifts=1, dims=1), [A], (0,)),
        Case("m_flip", _m("flip", dims=(0, 1)), [A], (0,)),
        Case("m_narrow", _m("narrow", dim=2, start=1, length=2), [D], (0,)),
        Case("m_broadcast_to", _m("broadcast_to", shape=(2, 3, 4)), [V], (0,)),
        Case("m_gather", lambda ms, ops, x, i: ms.mint.gather(x, 1, i), [A, IDX], (0,)),
        Case("m_index_select", lambda ms, ops, x, i: ms.mint.index_select(x, 1, i),
             [A, np.array([2, 0], np.int64)], (0,)),
        Case("m_scatter", lambda ms, ops, x, i, s: ms.mint.scatter(x, 1, i, s),
             [A, np.array([[0, 2], [1, 0]], np.int64), _r(234, (2, 2))]),
        Case("m_scatter_add", lambda ms, ops, x, i, s: ms.mint.scatter_add(x, 1, i, s),
             [A, np.array([[0, 0], [1, 2]], np.int64), _r(235, (2, 2))]),
        Case("m_take", lambda ms, ops, x, i: ms.mint.take(x, i),
             [A, np.array([0, 5, 3], np.int64)], (0,)),
        Case("m_masked_select", lambda ms, ops, x, m: ms.mint.masked_select(x, m),
             [A, A > 0], (0,)),
        Case("m_nonzero", _m("nonzero"), [I23]),
        Case("m_select", _m("select", dim=1, index=2), [D], (0,)),
        Case("m_sort", _m("sort", dim=1), [A], (0,)),
        Case("m_sort_desc", _m("sort", descending=True), [A], (0,)),
        Case("m_argsort", _m("argsort", dim=0), [A]),
        Case("m_topk", _m("topk", k=2), [D], (0,)),
        Case("m_topk_small", _m("topk", k=1, dim=0, largest=False), [A], (0,)),
        Case("m_tril", _m("tril", diagonal=-1), [C], (0,)),
        Case("m_triu", _m("triu", diagonal=1), [C], (0,)),
        Case("m_diag_vec", _m("diag"), [V], (0,)),
        Case("m_diag_vec_k", _m("diag", diagonal=1), [W3], (0,)),
        Case("m_diag_mat", _m("diag", diagonal=-1), [C], (0,)),
        Case("m_meshgrid", lambda ms, ops, x, y: ms.mint.meshgrid(x, y, indexing="ij"),
             [W3, V]),
        Case("m_einsum", lambda ms, ops, x, y: ms.mint.einsum("ij,jk->ik", x, y), [A, C],
             (0, 1)),
        Case("m_clone", _m("clone"), [A], (0,)),
        Case("m_cross", _m("cross", dim=1), [A, B], (0, 1)),
        Case("m_diff", _m("diff", dim=1), [D], (0,)),
        Case("m_cdist", _m("cdist"), [A, _r(236, (4, 3))], (0, 1)),
        Case("m_searchsorted", _m("searchsorted"), [SEQ, A]),
        Case("m_trace", _m("trace"), [C[:, :3]], (0,)),
        Case("m_inverse", _m("inverse"), [np.eye(3, dtype=np.float32) * 2 + C[:, :3] * .1],
             (0,)),
        Case("m_nan_to_num", _m("nan_to_num", nan=1.0, posinf=2.0, neginf=-2.0),
             [np.array([np.nan, np.inf, -np.inf, 1.5], np.float32)]),
        Case("c_zeros", lambda ms, ops: ms.mint.zeros((2, 3)), []),
        Case("c_zeros_int", lambda ms, ops: ms.mint.zeros((2,), dtype=ms.int32), []),
        Case("c_ones_like", _m("ones_like"), [I23]),
        Case("c_zeros_like", _m("zeros_like"), [A]),
        Case("c_full", lambda ms, ops: ms.mint.full((2, 2), 1.5), []),
        Case("c_full_int", lambda ms, ops: ms.mint.full((3,), 7), []),
        Case("c_full_like", _m("full_like", fill_value=2), [A]),
        Case("c_arange", lambda ms, ops: ms.mint.arange(5), []),
        Case("c_arange_float", lambda ms, ops: ms.mint.arange(0.5, 3, 0.5), []),
        Case("c_arange_step", lambda ms, ops: ms.mint.arange(1, 10, 3), []),
        Case("c_eye", lambda ms, ops: ms.mint.eye(2, 3), []),
        Case("f_linear", _f("linear"), [A, _r(240, (4, 3)), V], (0, 1, 2)),
        Case("f_linear_nobias", _f("linear"), [D, _r(241, (2, 4))], (0, 1)),
        Case("f_mse_loss", _f("mse_loss"), [A, B], (0, 1)),
        Case("f_mse_loss_sum", _f("mse_loss", reduction="sum"), [A, B], (0, 1)),
        Case("f_cross_entropy", _f("cross_entropy"), [LOGITS, LABELS], (0,)),
        Case("f_cross_entropy_smooth", _f("cross_entropy", label_smoothing=0.1,
                                          reduction="sum"), [LOGITS, LABELS], (0,)),
        Case("f_nll_loss", _f("nll_loss"), [LOGITS, LABELS], (0,)),
        Case("f_bce", _f("binary_cross_entropy"), [PROB, (B > 0).astype(np.float32)], (0,)),
        Case("f_bce_logits", _f("binary_cross_entropy_with_logits"),
             [A, (B > 0).astype(np.float32)], (0,)),
        Case("f_kl_div", _f("kl_div", reduction="batchmean"), [A, PROB], (0,)),
        Case("f_kl_div_log", _f("kl_div", log_target=True), [A, B], (0, 1)),
        Case("f_soft_margin_loss", _f("soft_margin_loss"),
             [A, np.sign(B).astype(np.float32)], (0,)),
        Case("f_cosine_embedding_loss", _f("cosine_embedding_loss", margin=0.1),
             [A, B, T], (0, 1)),
        Case("f_dropout_eval", _f("dropout", training=False), [A], (0,)),
        Case("f_dropout_p0", _f("dropout", p=0.0), [A], (0,)),
        Case("f_conv2d", _f("conv2d", padding=1), [IMG, KER, _r(242, (4,))], (0, 1, 2)),
        Case("f_conv2d_stride", _f("conv2d", stride=2), [IMG, KER], (0, 1)),
        Case("f_max_pool2d", _f("max_pool2d", kernel_size=2), [IMG], (0,)),
        Case("f_max_pool2d_stride", _f("max_pool2d", kernel_size=3, stride=1, padding=1),
             [IMG], (0,)),
        Case("f_avg_pool2d", _f("avg_pool2d", kernel_size=2), [IMG], (0,)),
        Case("f_pad", _f("pad", pad=(1, 2)), [A], (0,)),
        Case("f_pad_value", _f("pad", pad=(1, 0, 0, 1), value=3.0), [A], (0,)),
        Case("f_pad_reflect", _f("pad", pad=(1, 1), mode="reflect"), [D], (0,)),
        Case("f_layer_norm", lambda ms, ops, x, w, b: ms.mint.nn.functional.layer_norm(
            x, (4,), w, b), [D, V + 1, _r(243, (4,))], (0, 1, 2)),
        Case("f_layer_norm_2d", _f("layer_norm", normalized_shape=(3, 4)), [D], (0,)),
        Case("f_group_norm", lambda ms, ops, x, w, b: ms.mint.nn.functional.group_norm(
            x, 1, w, b), [IMG, W3, W3 * 2], (0, 1, 2)),
        Case("f_batch_norm_train", lambda ms, ops, x, m, v: ms.mint.nn.functional.batch_norm(
            x, ms.Tensor(m), ms.Tensor(v), training=True), [IMG, W3, W3 * 0 + 1], (0,)),
        Case("f_batch_norm_eval", _f("batch_norm"), [IMG, W3, np.abs(W3) + 0.5], (0,)),
        Case("f_normalize", _f("normalize"), [A], (0,)),
        Case("f_normalize_p1", _f("normalize", p=1.0, dim=0), [A], (0,)),
        Case("f_one_hot", _f("one_hot", num_classes=5), [LABELS]),
        Case("f_one_hot_auto", _f("one_hot"), [LABELS]),
        Case("f_embedding", lambda ms, ops, i, w: ms.mint.nn.functional.embedding(i, w),
             [np.array([[0, 2], [1, 1]], np.int64), M], (1,)),
        Case("f_prelu", _f("prelu"), [IMG, np.array([0.1, 0.2, 0.3], np.float32)], (0, 1)),
        Case("f_flatten", _f("flatten"), [D], (0,)),
        Case("f_gelu_tanh", _f("gelu", approximate="tanh"), [A], (0,)),
        Case("m_gcd", _m("gcd"), [np.array([4, 6, 9, 0], np.int64),
                                  np.array([6, 4, 3, 5], np.int64)]),
        Case("m_unique_consecutive", _m("unique_consecutive", return_inverse=True,
                                        return_counts=True),
             [np.array([1, 1, 2, 2, 3, 1, 1], np.int64)]),
        Case("m_histc", _m("histc", bins=4, min=0, max=4), [A + 2]),
        Case("m_histc_auto", _m("histc", bins=3), [A]),
    ]
)
