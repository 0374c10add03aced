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
    Case("top_k", lambda ms, ops, x: x.top_k(2), [A], (0,)),
    # (the order of an unsorted result is unspecified: compared sorted)
    Case("top_k_unsorted", lambda ms, ops, x: ops.sort(x.top_k(2, False)[0])[0], [C], (0,)),
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
    # --- attributes -----------------------------------------------------------------------
    Case("stride", lambda ms, ops, x: ms.Tensor(x.stride()), [D]),
    Case("stride_dim", lambda ms, ops, x: ms.Tensor(x.stride(1)), [D]),
    Case("storage_offset", lambda ms, ops, x: ms.Tensor(x.storage_offset()), [D]),
    Case("is_contiguous", lambda ms, ops, x: ms.Tensor(x.is_contiguous()), [D]),
    Case("type_name", lambda ms, ops, x: ms.Tensor(x.type() == "Float32"), [A]),
    Case("type_name_int", lambda ms, ops, x: ms.Tensor(x.type() == "Int32"), [I4]),
    Case("get_bytes", lambda ms, ops, x: ms.Tensor(np.frombuffer(x.get_bytes(), np.uint8)),
         [A]),
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
    Case("H_3d_error", lambda ms, ops, x: x.H, [D]),
    Case("take_raise_error", lambda ms, ops, x, i: x.take(i, mode="raise"),
         [A, np.array([0], np.int64)]),
    Case("itemset_one_arg_error", lambda ms, ops, x: x.itemset(1.0), [A]),
]

__all__ = ["CASES"]
