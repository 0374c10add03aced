"""The Tensor-method cases, recorded with the real MindSpore by
``tools/record_catalogue.py --suite tensormethods`` into ``tests/fixtures/tensormethods.json``
and compared with mindgrad by ``tests/test_tensormethods.py``. Each case is a ``Case`` of
``tests/catalogue_cases.py``: a call ``fn(ms, ops, *inputs)``, its inputs and the inputs whose
gradient is recorded.

The in-place methods are called on a computed tensor (``x * 1``) so that the recorded
gradient reaches the input; their results are compared (MindSpore 2.10's CPU build returns
the result without writing it into the tensor, except for ``copy_`` and ``assign_value``:
``tests/test_tensormethods.py`` checks mindgrad's in-place behaviour itself)."""
from __future__ import annotations

import numpy as np

from catalogue_cases import Case, _i, _r

A = _r(301, (2, 3))
B = _r(302, (2, 3))
C = _r(303, (3, 4))
D = _r(304, (2, 3, 4))
SQ = _r(305, (3, 3))
POS = _r(306, (2, 3), lo=0.2, hi=3.0)
NZ = np.where(np.abs(B) < 0.3, 0.7, B).astype(np.float32)  # no divisor near zero
I4 = np.array([1, 2, 3, 3], np.int32)
MASK = np.array([[True, False, True], [False, True, True]])
SRC = _r(307, (5,))
ROW = _r(308, (3,))
TIES = np.array([[3., 1., 3.], [-1., 5., -1.]], np.float32)

def _spd3() -> np.ndarray:
    a = _r(329, (3, 3)).astype(np.float64)
    return (a @ a.T + 3 * np.eye(3)).astype(np.float32)


CASES: list[Case] = [
    # --- in-place arithmetic (results and gradients) ------------------------------------
    Case("add_", lambda ms, ops, x, y: (x * 1).add_(y), [A, B], (0, 1)),
    Case("add_alpha", lambda ms, ops, x, y: (x * 1).add_(y, alpha=2), [A, B], (0, 1)),
    Case("add_scalar", lambda ms, ops, x: (x * 1).add_(2.5), [A], (0,)),
    Case("add_broadcast", lambda ms, ops, x, r: (x * 1).add_(r), [A, ROW], (0, 1)),
    Case("sub_alpha", lambda ms, ops, x, y: (x * 1).sub_(y, alpha=0.5), [A, B], (0, 1)),
    Case("mul_", lambda ms, ops, x, y: (x * 1).mul_(y), [A, B], (0, 1)),
    Case("mul_scalar", lambda ms, ops, x: (x * 1).mul_(3), [A], (0,)),
    Case("div_", lambda ms, ops, x, y: (x * 1).div_(y), [A, NZ], (0, 1)),
    Case("div_floor", lambda ms, ops, x, y: (x * 1).div_(y, rounding_mode="floor"), [A, NZ]),
    Case("div_trunc", lambda ms, ops, x, y: (x * 1).div_(y, rounding_mode="trunc"), [A, NZ]),
    Case("div_method_floor", lambda ms, ops, x, y: x.div(y, rounding_mode="floor"), [A, NZ]),
    Case("exp_", lambda ms, ops, x: (x * 1).exp_(), [A], (0,)),
    Case("floor_divide_", lambda ms, ops, x, y: (x * 1).floor_divide_(y), [A, NZ]),
    Case("remainder_", lambda ms, ops, x, y: (x * 1).remainder_(y), [A, NZ], (0,)),
    Case("remainder_int", lambda ms, ops, x: x.remainder_(2), [I4]),
    Case("copy_", lambda ms, ops, x, y: (x * 1).copy_(y), [A, B], (0, 1)),
    # MindSpore's copy_ writes into the tensor: the product sees the copied value twice
    Case("copy_then_use", lambda ms, ops, x, y: (lambda a: a.copy_(y) * a)(x * 1), [A, B],
         (0, 1)),
    Case("assign_value", lambda ms, ops, x, y: (lambda a: a.assign_value(y) + a)(x * 1),
         [A, B]),
    # --- methods computing a new tensor -------------------------------------------------
    Case("argmax_with_value", lambda ms, ops, x: x.argmax_with_value(), [TIES], (0,)),
    Case("argmax_with_value_axis1_keep",
         lambda ms, ops, x: x.argmax_with_value(1, True), [D], (0,)),
    Case("argmax_with_value_none", lambda ms, ops, x: x.argmax_with_value(None), [A], (0,)),
    Case("argmin_with_value", lambda ms, ops, x: x.argmin_with_value(axis=1), [TIES], (0,)),
    Case("argmin_with_value_keep",
         lambda ms, ops, x: x.argmin_with_value(-1, keep_dims=True), [D], (0,)),
    Case("ptp", lambda ms, ops, x: x.ptp(), [A]),
    Case("ptp_axis", lambda ms, ops, x: x.ptp(1), [D]),
    Case("ptp_axis_keep", lambda ms, ops, x: x.ptp(0, True), [A]),
    # (MindSpore's choose passes the choices through Int32: whole numbers here, see the
    # test module for fractional ones)
    Case("choose_clip", lambda ms, ops, i, a, b: i.choose((a, b)),
         [np.array([0, 1, 2], np.int32), np.round(ROW * 4), np.round(_r(309, (3,)) * 4)]),
    Case("choose_wrap", lambda ms, ops, i, a, b: i.choose([a, b], "wrap"),
         [np.array([[0, 3], [1, -1]], np.int32), np.round(_r(310, (2, 2)) * 4),
          np.round(_r(311, (2,)) * 4)]),
    Case("choose_int_tensor", lambda ms, ops, i, c: i.choose(c),
         [np.array([[2, 0, 1]], np.int64), _i(314, (3, 2, 3), 9)]),
    Case("choose_0d_error", lambda ms, ops, i, a: i.choose((a, a)),
         [np.array(1, np.int32), ROW]),
    Case("fill_diagonal", lambda ms, ops, x: x.fill_diagonal(9.0), [SQ]),
    Case("fill_diagonal_wide", lambda ms, ops, x: x.fill_diagonal(-2.0), [A]),
    Case("fill_diagonal_tall_wrap", lambda ms, ops, x: x.fill_diagonal(5.0, True),
         [_r(312, (7, 2))]),
    Case("fill_diagonal_tall", lambda ms, ops, x: x.fill_diagonal(5.0), [_r(312, (7, 2))]),
    Case("fill_diagonal_3d", lambda ms, ops, x: x.fill_diagonal(1.5),
         [_r(313, (2, 2, 2))]),
    Case("masked_scatter", lambda ms, ops, x, m, s: x.masked_scatter(m, s), [A, MASK, SRC]),
    Case("masked_scatter_broadcast", lambda ms, ops, x, m, s: x.masked_scatter(m, s),
         [A, np.array([True, False, True]), SRC]),
    Case("sum_to_size", lambda ms, ops, x: x.sum_to_size(1, 3), [A], (0,)),
    Case("sum_to_size_tuple", lambda ms, ops, x: x.sum_to_size((3, 1)), [D[0].T.copy()],
         (0,)),
    Case("sum_to_size_lead", lambda ms, ops, x: x.sum_to_size(4), [D], (0,)),
    Case("sum_to_size_mixed", lambda ms, ops, x: x.sum_to_size(2, 1, 4), [D], (0,)),
    Case("allclose_false", lambda ms, ops, x, y: ms.Tensor(x.allclose(y)), [A, B]),
    Case("allclose_true", lambda ms, ops, x: ms.Tensor(x.allclose(x * 1.0000001)), [A]),
    Case("take_flat", lambda ms, ops, x, i: x.take(i), [A, np.array([0, 4, 9], np.int64)],
         (0,)),
    Case("take_axis_wrap", lambda ms, ops, x, i: x.take(i, 1, "wrap"),
         [A, np.array([[0, 4], [-1, 2]], np.int64)], (0,)),
    Case("select_dim", lambda ms, ops, x: x.select(1, -1), [D], (0,)),
    Case("select_dim0", lambda ms, ops, x: x.select(0, 1), [A], (0,)),
    Case("select_where", lambda ms, ops, x, y: x.select(x > 0, y), [A, B], (0, 1)),
    Case("where", lambda ms, ops, x, y: x.where(x > 0, y), [A, B], (0, 1)),
    Case("where_scalar", lambda ms, ops, x: x.where(x > 0, 1.0), [A], (0,)),
    Case("type_cast", lambda ms, ops, x: x.type(ms.int32), [A]),
    Case("new_empty_shape", lambda ms, ops, x: ms.Tensor(x.new_empty((2, 3)).shape), [A]),
    Case("new_empty_dtype", lambda ms, ops, x: x.new_empty((2,), dtype=ms.int32) * 0, [A]),
    Case("resize_smaller", lambda ms, ops, x: x.resize(4), [A]),
    Case("resize_larger", lambda ms, ops, x: x.resize(3, 3), [A]),
    Case("resize_tuple", lambda ms, ops, x: x.resize((2, 4)), [A]),
    Case("itemset_flat", lambda ms, ops, x: x.itemset(4, 7.5), [A]),
    Case("itemset_tuple", lambda ms, ops, x: x.itemset((1, 0), -3.0), [A]),
    Case("itemset_one", lambda ms, ops, x: x.itemset(2.0), [np.array([5.0], np.float32)]),
    Case("H", lambda ms, ops, x: x.H, [A], (0,)),
    Case("mH", lambda ms, ops, x: x.mH, [D], (0,)),
    Case("mH_2d", lambda ms, ops, x: x.mH * 2, [A], (0,)),
    Case("contiguous", lambda ms, ops, x: x.contiguous(), [A], (0,)),
    Case("contiguous_T", lambda ms, ops, x: x.T.contiguous(), [A], (0,)),
    Case("cauchy", lambda ms, ops, x: x.cauchy(), [A], values=False),
    Case("cauchy_args", lambda ms, ops, x: x.cauchy(1.0, 0.5), [A], values=False),
    Case("log_normal", lambda ms, ops, x: x.log_normal(), [A], values=False),
    Case("log_normal_f64", lambda ms, ops, x: x.log_normal(0.0, 0.3),
         [A.astype(np.float64)], values=False),
    Case("index_put", lambda ms, ops, x, i, j, v: x.index_put((i, j), v),
         [A, np.array([0, 1], np.int32), np.array([2, 0], np.int32), ROW[:2].copy()], (0, 3)),
    Case("index_put_rows", lambda ms, ops, x, i, v: x.index_put((i,), v),
         [A, np.array([1], np.int64), ROW], (0, 2)),
    Case("index_put_broadcast", lambda ms, ops, x, i, j, v: x.index_put([i, j], v),
         [A, np.array([[1], [0]], np.int64), np.array([0, 2], np.int64), ROW[:1].copy()],
         (0, 3)),
    Case("index_put_accumulate", lambda ms, ops, x, i, j, v: x.index_put((i, j), v, True),
         [A, np.array([0, 1, 1], np.int32), np.array([2, 0, 0], np.int32), ROW], (0, 3)),
    Case("index_put_negative", lambda ms, ops, x, i, v: x.index_put((i,), v, True),
         [D, np.array([-1, 0], np.int64), _r(315, (4,))], (0, 2)),
    Case("index_put_use", lambda ms, ops, x, i, j, v: x.index_put((i, j), v) * x,
         [A, np.array([0, 1], np.int32), np.array([2, 0], np.int32), ROW[:2].copy()], (0, 3)),
    Case("index_put_0d_values_error", lambda ms, ops, x, i: x.index_put((i,), ms.Tensor(5.0)),
         [A, np.array([1], np.int64)]),
    Case("index_put_dtype_error", lambda ms, ops, x, i: x.index_put((i,), i),
         [A, np.array([1], np.int64)]),
    Case("index_put_bool_error", lambda ms, ops, x, i, v: x.index_put((i,), v),
         [A, np.array([True, False]), ROW]),
    Case("set_", lambda ms, ops, x, y: (lambda a: a.set_(y * 2) + a)(x * 1), [A, B], (1,)),
    Case("inv", lambda ms, ops, x: x.inv(), [NZ], (0,)),
    Case("inv_int", lambda ms, ops, x: x.inv(), [np.array([1, -1, 2, 5], np.int32)]),
    # --- methods forwarding to functions of other families ------------------------------------
    Case("median", lambda ms, ops, x: x.median(), [A], (0,)),
    Case("median_axis_keep", lambda ms, ops, x: x.median(0, True), [D], (0,)),
    Case("median_int", lambda ms, ops, x: x.median(), [I4]),
    Case("histc", lambda ms, ops, x: x.histc(4, -1.0, 1.0), [A]),
    Case("histc_default", lambda ms, ops, x: x.histc(), [D]),
    Case("bincount", lambda ms, ops, x: x.bincount(), [I4]),
    Case("bincount_weights", lambda ms, ops, x, w: x.bincount(w, minlength=6),
         [I4, _r(316, (4,))]),
    Case("soft_shrink", lambda ms, ops, x: x.soft_shrink(), [A], (0,)),
    Case("soft_shrink_lambd", lambda ms, ops, x: x.soft_shrink(0.3), [A], (0,)),
    Case("unfold", lambda ms, ops, x: x.unfold(2), [_r(317, (1, 2, 4, 4))], (0,)),
    Case("unfold_args", lambda ms, ops, x: x.unfold((2, 3), 1, 1, 2), [_r(317, (1, 2, 4, 4))],
         (0,)),
    Case("fold", lambda ms, ops, x, s: x.fold(s, 2), [_r(318, (1, 8, 9)),
                                                     np.array([4, 4], np.int32)], (0,)),
    Case("col2im", lambda ms, ops, x, s: x.col2im(s, 2, 1, 0, 1),
         [_r(319, (1, 2, 4, 9)), np.array([4, 4], np.int32)], (0,)),
    Case("reverse_sequence", lambda ms, ops, x, l: x.reverse_sequence(l, seq_dim=1),
         [A, np.array([1, 3], np.int32)], (0,)),
    Case("reverse_sequence_dims", lambda ms, ops, x, l: x.reverse_sequence(l, 0, 1),
         [A, np.array([2, 1, 2], np.int64)], (0,)),
    Case("index_add", lambda ms, ops, x, i, y: x.index_add(i, y, 0), [A, np.array([1, 0],
                                                                                 np.int32), B],
         (0, 2)),
    Case("index_add_dim_form", lambda ms, ops, x, i, y: x.index_add(1, i, y, alpha=2),
         [A, np.array([2, 0], np.int32), _r(320, (2, 2))], (0, 2)),
    Case("to_coo", lambda ms, ops, x: (lambda c: (c.indices, c.values, c.to_dense()))(
        x.to_coo()), [np.array([[0, 1.5, 0], [2, 0, -1]], np.float32)], (0,)),
    Case("to_csr", lambda ms, ops, x: (lambda c: (c.values, c.indptr, c.indices,
                                                  c.to_dense()))(x.to_csr()),
         [np.array([[0, 1.5, 0], [0, 0, 0], [2, 0, -1]], np.float32)], (0,)),
    Case("to_coo_1d_error", lambda ms, ops, x: x.to_coo(), [ROW]),
    Case("conj", lambda ms, ops, x: x.conj(), [A], (0,)),
    Case("qr_reduced", lambda ms, ops, x: x.qr()[1], [_r(321, (3, 2))]),
    Case("qr_complete", lambda ms, ops, x: ops.abs(x.qr(False)[0]), [_r(321, (3, 2))]),
    Case("qr_some_kw", lambda ms, ops, x: ops.abs(x.qr(some=False)[1]), [_r(321, (3, 2))]),
    # the method forms of the special functions and matrix builders (values checked in
    # their own suite): MindSpore's method arguments reach the functions
    Case("method_lgamma_digamma", lambda ms, ops, x: x.lgamma() + x.digamma(), [POS], (0,)),
    Case("method_mvlgamma", lambda ms, ops, x: (x + 2).mvlgamma(p=2), [POS], (0,)),
    Case("method_erfinv_i0", lambda ms, ops, x: (x * 0.3).erfinv() + x.i0(), [A], (0,)),
    Case("method_igamma", lambda ms, ops, a, x: a.igamma(x) + a.igammac(x * 2), [POS, POS],
         (1,)),
    Case("method_gcd_lcm", lambda ms, ops, a, b: a.gcd(b) + a.lcm(b),
         [np.array([4, 6, 9], np.int32), np.array([6, 4, 3], np.int32)]),
    Case("method_shifts_invert", lambda ms, ops, a: a.bitwise_left_shift(a).invert() +
         a.bitwise_right_shift(1), [I4]),
    Case("method_xdivy_ldexp", lambda ms, ops, x, y, e: x.xdivy(y) + x.ldexp(e),
         [A, NZ, np.array([1, 0, 2], np.int32)], (0, 1)),
    Case("method_approximate_equal", lambda ms, ops, x, y: x.approximate_equal(y, 0.5),
         [A, A + 0.3 * B]),
    Case("method_real_imag_isreal", lambda ms, ops, x: (x.real(), x.imag(), x.isreal()),
         [A]),
    Case("method_cov", lambda ms, ops, x: x.cov(correction=0), [A], (0,)),
    Case("method_addbmm", lambda ms, ops, m, a, b: m.addbmm(a, b, beta=0.5, alpha=2),
         [_r(322, (3, 4)), D, _r(323, (2, 4, 4))],
         (0, 1, 2)),
    Case("method_baddbmm", lambda ms, ops, m, a, b: m.baddbmm(a, b, beta=2, alpha=0.5),
         [_r(324, (2, 3, 4)), D, _r(325, (2, 4, 4))], (0, 1, 2)),
    Case("method_renorm", lambda ms, ops, x: x.renorm(2, 0, 1.0), [D], (0,)),
    Case("method_lstsq", lambda ms, ops, b, a: b.lstsq(a), [_r(326, (4, 2)), _r(327, (4, 3))]),
    Case("method_cholesky_solve", lambda ms, ops, b, l: b.cholesky_solve(l),
         [_r(328, (3, 2)), np.linalg.cholesky(_spd3()).astype(np.float32)], (0,)),
    Case("method_log_matrix_determinant", lambda ms, ops, x: x.log_matrix_determinant()[1],
         [_spd3()], (0,)),
    # --- attributes -----------------------------------------------------------------------
    Case("stride", lambda ms, ops, x: ms.Tensor(x.stride()), [D]),
    Case("stride_dim", lambda ms, ops, x: ms.Tensor(x.stride(1)), [D]),
    Case("storage_offset", lambda ms, ops, x: ms.Tensor(x.storage_offset()), [D]),
    Case("is_contiguous", lambda ms, ops, x: ms.Tensor(x.is_contiguous()), [D]),
    Case("type_name", lambda ms, ops, x: ms.Tensor(x.type() == "Float32"), [A]),
    Case("type_name_int", lambda ms, ops, x: ms.Tensor(x.type() == "Int32"), [I4]),
    Case("get_bytes", lambda ms, ops, x: ms.Tensor(np.frombuffer(x.get_bytes(), np.uint8)),
         [A]),
    Case("storage", lambda ms, ops, x: ms.Tensor([x.untyped_storage().nbytes(),
                                                  x.storage().size(),
                                                  x.storage().element_size(),
                                                  x.untyped_storage().is_shared()]), [D]),
    Case("value_data", lambda ms, ops, x: x.value() + x.data, [A], (0,)),
    Case("flags", lambda ms, ops, x: ms.Tensor([x.has_init, x.const_arg, x.init_flag,
                                                 x.is_init(), x.init_finished, x.is_meta,
                                                 x.virtual_flag, x.is_pinned(),
                                                 x.is_shared(), x.init is None,
                                                 x.param_info is None,
                                                 x.symbolic_shape is None,
                                                 x.hooks() == [], x.delta_seed == 0]), [A]),
    Case("set_const_arg", lambda ms, ops, x: ms.Tensor(x.set_const_arg().const_arg), [A]),
    # --- errors ---------------------------------------------------------------------------
    Case("init_data_error", lambda ms, ops, x: x.init_data(), [A]),
    Case("H_3d_error", lambda ms, ops, x: x.H, [D]),
    Case("take_raise_error", lambda ms, ops, x, i: x.take(i, mode="raise"),
         [A, np.array([0], np.int64)]),
    Case("itemset_one_arg_error", lambda ms, ops, x: x.itemset(1.0), [A]),
]

__all__ = ["CASES"]
