"""The general-purpose ``mindspore.ops`` and ``mindspore.mint`` functions of the opsfns
family (MindSpore's primitive-instance spellings ``tensor_add`` ... ``tensor_muls``,
``pows``, ``reshape_``, the ``*_ext`` functions, ``inv``, ``eps``, ``gumbel_softmax``,
``cond``, ``clip_by_global_norm``, the scalar conversions and ``mint.erfinv`` / ``polar`` /
``real`` / ``imag``), recorded with the real MindSpore by
``tools/record_catalogue.py --suite opsfns`` into ``tests/fixtures/opsfns.json`` and compared
with mindgrad by ``tests/test_opsfns.py``. Each case is a ``Case`` of
``tests/catalogue_cases.py``.

A function returning a Python number is recorded as ``Tensor(result)`` (Int64 for an int,
Float32 for a float, Bool for a bool), so its type is compared too. Random draws
(``gumbel_softmax``) are compared through what does not depend on the draw: shapes, dtypes,
sums along the softmax axis."""
from __future__ import annotations

import numpy as np

from catalogue_cases import Case, _r

X = _r(501, (2, 3))
Y = _r(502, (2, 3), lo=0.5, hi=2.5)
V = _r(503, (5,))
POS = _r(504, (2, 3), lo=0.3, hi=2.0)
UNIT = _r(505, (2, 3), lo=-0.9, hi=0.9)
ANG = _r(506, (2, 3), lo=-3.0, hi=3.0)
I = np.array([[7, -7, 7], [-7, 0, 5]], np.int32)
J = np.array([[2, 2, -2], [-2, 3, 4]], np.int32)
IZ = np.array([1, -1, 2, -3, 0, 5, -5, 0], np.int32)
DZ = np.array([1, 1, 2, 2, 0, 0, 0, 3], np.int32)
A3 = _r(507, (3, 3)) + 3 * np.eye(3, dtype=np.float32)
A23 = np.stack([_r(508, (3, 3)) + 2 * np.eye(3, dtype=np.float32),
                _r(509, (3, 3)) + 4 * np.eye(3, dtype=np.float32)])
L4 = _r(510, (2, 4), lo=-1, hi=1)
NAN = np.array([1.0, np.nan, -np.inf, 0.0], np.float32)


def _o(name, *pre, **kw):
    """A call of ``ops.<name>(*inputs, **kw)``, static leading arguments ``pre`` first."""
    return lambda ms, ops, *xs: getattr(ops, name)(*pre, *xs, **kw)


def _m(name, **kw):
    """A call of ``mint.<name>(*inputs, **kw)``."""
    return lambda ms, ops, *xs: getattr(ms.mint, name)(*xs, **kw)


ALIASES = [
    Case("tensor_add", _o("tensor_add"), [X, Y], (0, 1)),
    Case("tensor_add_scalar", lambda ms, ops, x: ops.tensor_add(x, 2), [I]),
    Case("tensor_add_kw", lambda ms, ops, x, y: ops.tensor_add(input=x, other=y), [X, Y]),
    Case("tensor_sub", _o("tensor_sub"), [X, Y[0]], (0, 1)),
    Case("tensor_sub_int_float", lambda ms, ops, x: ops.tensor_sub(x, 1.5), [I]),
    Case("tensor_mul", _o("tensor_mul"), [X, Y], (0, 1)),
    Case("tensor_mul_int", _o("tensor_mul"), [I, J]),
    Case("tensor_div", _o("tensor_div"), [X, Y], (0, 1)),
    Case("tensor_div_int", _o("tensor_div"), [I, J]),
    Case("tensor_div_int_zero", _o("tensor_div"), [IZ, DZ]),
    Case("tensor_div_int64_zero", _o("tensor_div"), [IZ.astype(np.int64), DZ.astype(np.int64)]),
    Case("tensor_div_uint8", _o("tensor_div"), [np.array([7, 9], np.uint8),
                                                np.array([2, 4], np.uint8)]),
    Case("tensor_div_int_by_float", lambda ms, ops, x: ops.tensor_div(x, 2.0), [I]),
    Case("tensor_floordiv", _o("tensor_floordiv"), [X, Y], (0, 1)),
    Case("tensor_floordiv_int", _o("tensor_floordiv"), [I, J]),
    Case("tensor_mod", _o("tensor_mod"), [X, Y], (0, 1)),
    Case("tensor_mod_int", _o("tensor_mod"), [I, J]),
    Case("tensor_pow", _o("tensor_pow"), [POS, X], (0, 1)),
    Case("tensor_pow_scalar", lambda ms, ops, x: ops.tensor_pow(x, 3), [X], (0,)),
    Case("tensor_pow_int", lambda ms, ops, x: ops.tensor_pow(x, 2), [I]),
    Case("pows", _o("pows"), [POS, X], (0, 1)),
    Case("pows_kw", lambda ms, ops, x: ops.pows(input=x, exponent=2.0), [X], (0,)),
    Case("pows_int", _o("pows"), [np.abs(J), np.array([2, 1, 3], np.int32)]),
    Case("tensor_exp", _o("tensor_exp"), [X], (0,)),
    Case("tensor_exp_f16", _o("tensor_exp"), [X.astype(np.float16)]),
    Case("tensor_exp_int32", _o("tensor_exp"), [I]),
    Case("tensor_expm1", _o("tensor_expm1"), [X], (0,)),
    Case("tensor_expm1_f64", _o("tensor_expm1"), [X.astype(np.float64)], (0,)),
    Case("tensor_ge", _o("tensor_ge"), [X, Y[0]]),
    Case("tensor_ge_scalar", lambda ms, ops, x: ops.tensor_ge(x, 0.5), [X]),
    Case("tensor_gt", _o("tensor_gt"), [X, Y]),
    Case("tensor_gt_kw", lambda ms, ops, x: ops.tensor_gt(input=x, other=0.0), [X]),
    Case("tensor_le", _o("tensor_le"), [I, J]),
    Case("tensor_lt", _o("tensor_lt"), [X, Y]),
    Case("tensor_lt_int_scalar", lambda ms, ops, x: ops.tensor_lt(x, 1), [I]),
    *[Case(n + "_bools", _o(n), [np.array([True, False, True]), np.array([True, True, False])])
      for n in ("tensor_add", "tensor_sub", "tensor_mul", "tensor_div", "tensor_floordiv",
                "tensor_mod", "tensor_pow", "tensor_ge", "tensor_lt")],
    Case("tensor_muls", lambda ms, ops, x: ops.tensor_muls(x, 2.5), [X], (0,)),
    Case("tensor_muls_int_float", lambda ms, ops, x: ops.tensor_muls(x, 2.5), [I]),
    Case("tensor_muls_int_int", lambda ms, ops, x: ops.tensor_muls(x, 3), [I]),
    Case("tensor_muls_int8_wraps", lambda ms, ops, x: ops.tensor_muls(x, 3),
         [np.array([100, -50, 7], np.int8)]),
    Case("tensor_muls_bool_other", lambda ms, ops, x: ops.tensor_muls(x, True), [X]),
    Case("tensor_muls_f16", lambda ms, ops, x: ops.tensor_muls(x, 1.5), [X.astype(np.float16)]),
    Case("tensor_muls_tensor_other", _o("tensor_muls"), [X, Y]),
    Case("reshape_", lambda ms, ops, x: ops.reshape_(x, (3, 2)), [X], (0,)),
    Case("reshape__minus_one", lambda ms, ops, x: ops.reshape_(x, (-1,)), [X], (0,)),
    Case("reshape__list", lambda ms, ops, x: ops.reshape_(x, [1, 6]), [X]),
    Case("reshape__kw", lambda ms, ops, x: ops.reshape_(input=x, shape=(6, 1)), [X]),
    Case("reshape__bad", lambda ms, ops, x: ops.reshape_(x, (4,)), [X]),
    Case("isnan_ext", _o("isnan_ext"), [NAN]),
    Case("isnan_ext_int", _o("isnan_ext"), [I]),
    Case("isnan_ext_kw", lambda ms, ops, x: ops.isnan_ext(tensor=x), [NAN]),
    Case("diff_ext", _o("diff_ext"), [V], (0,)),
    Case("diff_ext_n2", lambda ms, ops, x: ops.diff_ext(x, 2), [V], (0,)),
    Case("diff_ext_dim0", lambda ms, ops, x: ops.diff_ext(x, 1, 0), [X], (0,)),
    Case("diff_ext_prepend_append", lambda ms, ops, x, p, a: ops.diff_ext(x, 1, -1, p, a),
         [V, np.array([5.0], np.float32), np.array([-1.0, 2.0], np.float32)], (0, 1, 2)),
    Case("diff_ext_n0", lambda ms, ops, x: ops.diff_ext(x, 0), [V]),
    Case("diff_ext_negative_n", lambda ms, ops, x: ops.diff_ext(x, -1), [V]),
    Case("diff_ext_n_too_large", lambda ms, ops, x: ops.diff_ext(x, 7), [V]),
    Case("diff_ext_int", _o("diff_ext"), [I]),
    Case("diff_ext_bool", _o("diff_ext"), [np.array([True, False, False, True])]),
    Case("diff_ext_kw", lambda ms, ops, x: ops.diff_ext(input=x, n=1, dim=0), [V]),
    Case("diff_ext_0d", _o("diff_ext"), [np.array(1.0, np.float32)]),
    Case("diff_ext_bad_dim", lambda ms, ops, x: ops.diff_ext(x, 1, 1), [V]),
    Case("diff_ext_prepend_other_dtype", lambda ms, ops, x, p: ops.diff_ext(x, 1, -1, p),
         [V, np.array([5], np.int32)]),
]

SMALL = [
    Case("inv", _o("inv"), [X], (0,)),
    Case("inv_f16", _o("inv"), [Y.astype(np.float16)]),
    Case("inv_f64", _o("inv"), [Y.astype(np.float64)], (0,)),
    Case("inv_zero", _o("inv"), [np.array([0.0, -0.0, 4.0], np.float32)]),
    Case("inv_int32", _o("inv"), [IZ]),
    Case("inv_int64", _o("inv"), [IZ.astype(np.int64)]),
    Case("inv_kw", lambda ms, ops, x: ops.inv(x=x), [X]),
    Case("inv_0d", _o("inv"), [np.array(4.0, np.float32)]),
    Case("inv_bool", _o("inv"), [np.array([True, False])]),
    Case("inv_int8", _o("inv"), [np.array([1, 2], np.int8)]),
    Case("inv_list", lambda ms, ops: ops.inv([1.0, 2.0]), []),
    Case("eps", _o("eps"), [X], (0,)),
    Case("eps_f16", _o("eps"), [X.astype(np.float16)]),
    Case("eps_f64", _o("eps"), [X.astype(np.float64)]),
    Case("eps_int", _o("eps"), [I]),
    Case("eps_kw", lambda ms, ops, x: ops.eps(x=x), [X]),
]

GUMBEL = [
    Case("gumbel_softmax_shape", _o("gumbel_softmax"), [L4], values=False),
    Case("gumbel_softmax_rows_sum_to_one", lambda ms, ops, x: ops.gumbel_softmax(x).sum(-1),
         [L4]),
    Case("gumbel_softmax_dim0_sum", lambda ms, ops, x: ops.gumbel_softmax(x, 0.5, False, 0)
         .sum(0), [L4]),
    Case("gumbel_softmax_hard_sum_max", lambda ms, ops, x: ops.stack(
        [ops.gumbel_softmax(x, 1.0, True).sum(-1), ops.amax(ops.gumbel_softmax(x, 1.0, True), -1)]),
        [L4]),
    Case("gumbel_softmax_3d_shape", lambda ms, ops, x: ops.gumbel_softmax(x, 2.0, False, 1),
         [_r(511, (2, 3, 4))], values=False),
    Case("gumbel_softmax_f16_shape", _o("gumbel_softmax"), [L4.astype(np.float16)],
         values=False),
    Case("gumbel_softmax_empty", _o("gumbel_softmax"), [np.zeros((0, 3), np.float32)]),
    Case("gumbel_softmax_int", _o("gumbel_softmax"), [I]),
    Case("gumbel_softmax_f64", _o("gumbel_softmax"), [L4.astype(np.float64)]),
    Case("gumbel_softmax_tau_zero", lambda ms, ops, x: ops.gumbel_softmax(x, 0.0), [L4]),
    Case("gumbel_softmax_tau_int", lambda ms, ops, x: ops.gumbel_softmax(x, 1), [L4]),
    Case("gumbel_softmax_hard_int", lambda ms, ops, x: ops.gumbel_softmax(x, 1.0, 1), [L4]),
    Case("gumbel_softmax_dim_out", lambda ms, ops, x: ops.gumbel_softmax(x, dim=2), [L4]),
    Case("gumbel_softmax_dim_float", lambda ms, ops, x: ops.gumbel_softmax(x, dim=1.0), [L4]),
    Case("gumbel_softmax_0d", _o("gumbel_softmax"), [np.array(1.0, np.float32)]),
]

COND = [
    Case("cond", _o("cond"), [A3], (0,)),
    Case("cond_2", lambda ms, ops, a: ops.cond(a, 2), [A3], (0,)),
    Case("cond_m2", lambda ms, ops, a: ops.cond(a, -2), [A3], (0,), rtol=1e-4),
    Case("cond_fro", lambda ms, ops, a: ops.cond(a, "fro"), [A3], (0,)),
    Case("cond_nuc", lambda ms, ops, a: ops.cond(a, "nuc"), [A3], (0,), rtol=1e-4),
    Case("cond_1", lambda ms, ops, a: ops.cond(a, 1), [A3], (0,)),
    Case("cond_m1", lambda ms, ops, a: ops.cond(a, -1), [A3], (0,)),
    Case("cond_inf", lambda ms, ops, a: ops.cond(a, float("inf")), [A3], (0,)),
    Case("cond_minf", lambda ms, ops, a: ops.cond(a, -float("inf")), [A3], (0,)),
    Case("cond_batch", _o("cond"), [A23], (0,)),
    Case("cond_f64", lambda ms, ops, a: ops.cond(a, 1), [A3.astype(np.float64)], (0,)),
    Case("cond_int", _o("cond"), [np.eye(3, dtype=np.int32)]),
    Case("cond_f16", _o("cond"), [np.eye(3, dtype=np.float16)]),
    Case("cond_1d", _o("cond"), [V]),
    Case("cond_not_square", _o("cond"), [X]),
    Case("cond_bad_p", lambda ms, ops, a: ops.cond(a, 3), [A3]),
    Case("cond_bad_p_str", lambda ms, ops, a: ops.cond(a, "abc"), [A3]),
]

CLIP = [
    Case("clip_by_global_norm", lambda ms, ops, a, b: ops.clip_by_global_norm((a, b), 1.0),
         [X, V], (0, 1)),
    Case("clip_by_global_norm_second", lambda ms, ops, a, b:
         ops.clip_by_global_norm((a, b), 1.0)[1], [X, V], (0, 1)),
    Case("clip_by_global_norm_unclipped", lambda ms, ops, a, b:
         ops.clip_by_global_norm([a, b], 100.0), [X, V], (0, 1)),
    Case("clip_by_global_norm_tensor", lambda ms, ops, a: ops.clip_by_global_norm(a, 0.5),
         [X], (0,)),
    Case("clip_by_global_norm_int_clip", lambda ms, ops, a: ops.clip_by_global_norm((a,), 1),
         [X]),
    Case("clip_by_global_norm_tensor_clip", lambda ms, ops, a, c:
         ops.clip_by_global_norm((a,), c), [X, np.array(0.7, np.float32)]),
    Case("clip_by_global_norm_f64", lambda ms, ops, a: ops.clip_by_global_norm((a,), 1.0),
         [X.astype(np.float64)], (0,)),
    Case("clip_by_global_norm_f16", lambda ms, ops, a: ops.clip_by_global_norm((a,), 1.0),
         [X.astype(np.float16)], rtol=1e-3),
    Case("clip_by_global_norm_mixed", lambda ms, ops, a, b:
         ops.clip_by_global_norm((a, b), 1.0), [X.astype(np.float64), V]),
    Case("clip_by_global_norm_int32", lambda ms, ops, a: ops.clip_by_global_norm((a,), 5.0),
         [I]),
    Case("clip_by_global_norm_zeros", lambda ms, ops, a: ops.clip_by_global_norm((a,), 1.0),
         [np.zeros((2, 2), np.float32)]),
    Case("clip_by_global_norm_use_norm", lambda ms, ops, a:
         ops.clip_by_global_norm((a,), 1.0, 2.0), [X]),
    Case("clip_by_global_norm_zero_clip", lambda ms, ops, a:
         ops.clip_by_global_norm((a,), 0.0), [X]),
    Case("clip_by_global_norm_negative_clip", lambda ms, ops, a:
         ops.clip_by_global_norm((a,), -1.0), [X]),
    Case("clip_by_global_norm_empty", lambda ms, ops: ops.clip_by_global_norm((), 1.0), []),
]

SCALARS = [
    Case("scalar_cast_int", lambda ms, ops: ms.Tensor(ops.scalar_cast(3.7, ms.int64)), []),
    Case("scalar_cast_int_negative", lambda ms, ops: ms.Tensor(ops.scalar_cast(-3.7, ms.int64)),
         []),
    Case("scalar_cast_float", lambda ms, ops: ms.Tensor(ops.scalar_cast(3, ms.float64)), []),
    Case("scalar_cast_bool_float", lambda ms, ops: ms.Tensor(ops.scalar_cast(True, ms.float64)),
         []),
    Case("scalar_cast_bool", lambda ms, ops: ms.Tensor(ops.scalar_cast(2.5, ms.bool_)), []),
    Case("scalar_cast_bool_zero", lambda ms, ops: ms.Tensor(ops.scalar_cast(0, ms.bool_)), []),
    Case("scalar_cast_kw", lambda ms, ops: ms.Tensor(ops.scalar_cast(input_x=2,
                                                                     input_y=ms.float64)), []),
    Case("scalar_cast_int32", lambda ms, ops: ms.Tensor(ops.scalar_cast(3, ms.int32)), []),
    Case("scalar_cast_python_type", lambda ms, ops: ms.Tensor(ops.scalar_cast(3, int)), []),
    Case("scalar_cast_tensor", lambda ms, ops, x: ms.Tensor(ops.scalar_cast(x, ms.int64)),
         [np.array(3.0, np.float32)]),
    Case("scalar_cast_str", lambda ms, ops: ms.Tensor(ops.scalar_cast("a", ms.int64)), []),
    Case("scalar_to_tensor", lambda ms, ops: ops.scalar_to_tensor(3), []),
    Case("scalar_to_tensor_int32", lambda ms, ops: ops.scalar_to_tensor(3.7, ms.int32), []),
    Case("scalar_to_tensor_int8_negative", lambda ms, ops: ops.scalar_to_tensor(-3.7, ms.int8),
         []),
    Case("scalar_to_tensor_bool", lambda ms, ops: ops.scalar_to_tensor(True), []),
    Case("scalar_to_tensor_to_bool", lambda ms, ops: ops.scalar_to_tensor(3, ms.bool_), []),
    Case("scalar_to_tensor_int64", lambda ms, ops: ops.scalar_to_tensor(3, ms.int64), []),
    Case("scalar_to_tensor_f16", lambda ms, ops: ops.scalar_to_tensor(2.5, ms.float16), []),
    Case("scalar_to_tensor_f64", lambda ms, ops: ops.scalar_to_tensor(0.1, ms.float64), []),
    Case("scalar_to_tensor_wraps", lambda ms, ops: ops.scalar_to_tensor(2 ** 40 + 5, ms.int32),
         []),
    Case("scalar_to_tensor_tensor", lambda ms, ops, x: ops.scalar_to_tensor(x),
         [np.array(3.0, np.float32)]),
    Case("scalar_to_tensor_list", lambda ms, ops: ops.scalar_to_tensor([3.0]), []),
    Case("scalar_to_tensor_str", lambda ms, ops: ops.scalar_to_tensor("a"), []),
    Case("scalar_to_tensor_dtype_str", lambda ms, ops: ops.scalar_to_tensor(3, "float32"), []),
    Case("tuple_to_array_ints", lambda ms, ops: ops.tuple_to_array((1, 2, -3)), []),
    Case("tuple_to_array_floats", lambda ms, ops: ops.tuple_to_array((1.5, 2)), []),
    Case("tuple_to_array_bools", lambda ms, ops: ops.tuple_to_array((True, False)), []),
    Case("tuple_to_array_int_first", lambda ms, ops: ops.tuple_to_array((1, 2.5, True)), []),
    Case("tuple_to_array_nested", lambda ms, ops: ops.tuple_to_array(((1, 2), (3, 4))), []),
    Case("tuple_to_array_single", lambda ms, ops: ops.tuple_to_array((3,)), []),
    Case("tuple_to_array_wraps", lambda ms, ops: ops.tuple_to_array((2 ** 40 + 7, 1)), []),
    Case("tuple_to_array_tensor_first", lambda ms, ops, t: ops.tuple_to_array((t, 2)),
         [np.array(1.0, np.float32)]),
    Case("tuple_to_array_empty", lambda ms, ops: ops.tuple_to_array(()), []),
    Case("tuple_to_array_str", lambda ms, ops: ops.tuple_to_array(("a", "b")), []),
    Case("tuple_to_array_int", lambda ms, ops: ops.tuple_to_array(3), []),
]

# MindSpore's CPU build refuses these (tools/data/left_out/cpu_refused_opsfns.txt): the
# records hold its refusal and tests/test_opsfns.py checks mindgrad against NumPy
CPU_REFUSED = [
    Case("type_as", _o("type_as"), [X, I]),
    Case("fills", lambda ms, ops, x: ops.fills(x, 2.5), [X]),
    Case("accumulate_n", lambda ms, ops, a, b: ops.accumulate_n([a, b, a]), [X, Y]),
    Case("einsum_ext", lambda ms, ops, a, b: ops.einsum_ext("ij,kj->ik", a, b), [X, Y]),
    Case("baddbmm_ext", lambda ms, ops, i, a, b: ops.baddbmm_ext(i, a, b, beta=0.5, alpha=2.0),
         [_r(512, (2, 2, 4)), _r(513, (2, 2, 3)), _r(514, (2, 3, 4))]),
    Case("mse_loss_ext", lambda ms, ops, a, b: ops.mse_loss_ext(a, b, "sum"), [X, Y[0]]),
    Case("quantile", lambda ms, ops, x: ops.quantile(x, 0.3), [X]),
    Case("quantile_levels_axis", lambda ms, ops, x, q: ops.quantile(x, q, 1, True),
         [X, np.array([0.0, 0.25, 0.9], np.float32)]),
    Case("nanquantile", lambda ms, ops, x, q: ops.nanquantile(x, q, 0),
         [np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 5.0], [2.0, 4.0, -1.0]], np.float32),
          np.array(0.5, np.float32)]),
]

MINT = [
    Case("mint_erfinv", _m("erfinv"), [UNIT], (0,)),
    Case("mint_erfinv_f16", _m("erfinv"), [UNIT.astype(np.float16)]),
    Case("mint_erfinv_f64", _m("erfinv"), [UNIT.astype(np.float64)], (0,)),
    Case("mint_erfinv_int", _m("erfinv"), [I]),
    Case("mint_polar", _m("polar"), [POS, ANG]),
    Case("mint_polar_real_grad", lambda ms, ops, r, t: ms.mint.real(ms.mint.polar(r, t))
         + 2 * ms.mint.imag(ms.mint.polar(r, t)), [POS, ANG], (0, 1)),
    Case("mint_polar_f64", _m("polar"), [POS.astype(np.float64), ANG.astype(np.float64)]),
    Case("mint_polar_kw", lambda ms, ops, r, t: ms.mint.polar(abs=r, angle=t), [POS, ANG]),
    Case("mint_polar_mixed_dtypes", _m("polar"), [POS.astype(np.float64), ANG]),
    Case("mint_polar_int", _m("polar"), [I, J]),
    Case("mint_polar_shapes_differ", _m("polar"), [POS, ANG[0]]),
    Case("mint_real", lambda ms, ops, r, t: ms.mint.real(ops.polar(r, t)), [POS, ANG], (0, 1)),
    Case("mint_imag", lambda ms, ops, r, t: ms.mint.imag(ops.polar(r, t)), [POS, ANG], (0, 1)),
    Case("mint_real_float", _m("real"), [X], (0,)),
    Case("mint_real_int", _m("real"), [I]),
    Case("mint_imag_float", _m("imag"), [X]),
    Case("mint_real_kw", lambda ms, ops, x: ms.mint.real(input=x), [X]),
]

CASES: list[Case] = ALIASES + SMALL + GUMBEL + COND + CLIP + SCALARS + CPU_REFUSED + MINT
