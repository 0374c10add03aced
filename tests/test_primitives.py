"""One table drives the checks of every primitive and op.

Each row is ``Case(name, fn, ref, gen, order)``:
- ``fn``: a function of mindgrad Tensors (the op under test);
- ``ref``: the same computation in NumPy (for the forward value, dtype and shape);
- ``gen(rng)``: float64 NumPy inputs inside the op's valid domain;
- ``order``: how many orders of derivatives ``check_grads`` verifies (3 unless slow).

For every row: forward against NumPy in float32 and float64 (values, dtype and shape),
forward and reverse derivatives against central differences up to ``order``, float32
derivatives keep float32 and agree with float64, and GRAPH-mode (compiled) gradients equal
PYNATIVE ones.
"""
from __future__ import annotations

import math
import warnings
from typing import Callable, NamedTuple

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops
from mindgrad.core.tree import flatten

from conftest import real_gpu
from gradcheck import check_graph_matches, check_grads


class Case(NamedTuple):
    name: str
    fn: Callable
    ref: Callable
    gen: Callable
    order: int = 3


# --- input generators (float64, inside each op's domain) --------------------------------------
def U(lo, hi, *shapes):
    """Uniform inputs in [lo, hi), one array per shape."""
    return lambda rng: [rng.uniform(lo, hi, s) for s in shapes]


def N(*shapes):
    return lambda rng: [rng.standard_normal(s) for s in shapes]


def away0(*shapes, lo=0.3, hi=1.5):
    """Values with |x| in [lo, hi) and a random sign (abs, relu, ... away from their kink)."""
    return lambda rng: [rng.uniform(lo, hi, s) * rng.choice([-1.0, 1.0], s) for s in shapes]


def distinct_pair(shape_x, shape_y):
    """x and y (y broadcasting to x's shape) whose elements differ by at least 0.2
    (maximum/minimum: no ties)."""
    assert np.broadcast_shapes(shape_x, shape_y) == shape_x

    def gen(rng):
        y = rng.uniform(-1, 1, shape_y)
        gap = rng.uniform(0.2, 1.0, shape_x) * rng.choice([-1.0, 1.0], shape_x)
        return [y + gap, y]
    return gen


def away_from(kinks, lo, hi, *shapes, gap=0.3):
    """Uniform values in [lo, hi) at least ``gap`` from every kink (piecewise operators)."""
    def gen(rng):
        out = []
        for s in shapes:
            x = rng.uniform(lo, hi, s)
            for k in kinks:
                near = np.abs(x - k) < gap
                x[near] = k + np.where(x[near] < k, -gap, gap)
            out.append(x)
        return out
    return gen


def off_multiples(rng, shape_x, shape_y):
    """x and y (broadcasting to x) with x / y at least 0.2 from every integer (floor_mod and
    floor_div away from their jumps); a 0-d shape_y means y = 0.7 (a Python number)."""
    y = rng.uniform(0.5, 1.5, shape_y) * rng.choice([-1.0, 1.0], shape_y) if shape_y else 0.7
    q = rng.integers(-3, 3, shape_x) + rng.uniform(0.2, 0.8, shape_x)
    return [q * y, y]


def with_zero(*shapes):
    """Normal values with an exact zero first (pow at x = 0)."""
    def gen(rng):
        out = [rng.standard_normal(s) for s in shapes]
        out[0].flat[0] = 0.0
        return out
    return gen


def fmod_pair(shape):
    """x and y with x / y at least 0.2 from every integer (fmod's jumps), of either sign."""
    def gen(rng):
        y = rng.uniform(0.8, 1.6, shape) * rng.choice([-1.0, 1.0], shape)
        q = rng.integers(-3, 3, shape) + rng.uniform(0.2, 0.8, shape)
        return [q * y, y]
    return gen


def distinct(*shape):
    """Distinct values (reduce_max/min without ties)."""
    n = int(np.prod(shape))
    return lambda rng: [rng.permutation(np.linspace(-1.0, 1.0, n)).reshape(shape)
                        + rng.uniform(-0.01, 0.01, shape)]


# --- constants used inside some rows ---------------------------------------------------------
COND = np.array([[True, False, True], [False, False, True]])
MASK = np.array([True, False, True, True])
IDX = np.array([0, 2, 2, 1, 0])  # repeated indices: gradients accumulate
IDX_ROWS = np.array([2, 0, 2, 1, 2])  # setitem: repeated rows, the last write is kept


def _set(x, index, v):
    """``x[index] = v`` (rebinding the argument) then a nonlinear use of the result."""
    x[index] = v
    return x * x


def _set_ref(x, index, v):
    x = x.copy()
    x[index] = v
    return x * x


np_erf = np.vectorize(math.erf, otypes=[np.float64])
np_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _erf_ref(x):
    return np_erf(x).astype(x.dtype)


def _softplus_ref(x):
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


def _lse_ref(x, axis=None, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _softmax_ref(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _np_svd(x):
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    return s, u, np.swapaxes(vh, -1, -2)


def _svd_signless(svd):
    """s, and u and v squared elementwise: each pair of singular vectors is unique up to a
    common sign, which squaring removes."""
    s, u, v = svd
    return s, u * u, v * v


INF = float("inf")
T = lambda x: x.T  # noqa: E731
MM = ops.MatMul
sel = ms.Tensor(COND)


CASES = [
    # elementwise binary, same shapes and broadcasting
    Case("add", lambda x, y: x + y, np.add, N((2, 3), (2, 3))),
    Case("add_fn_bcast_row", ops.add, np.add, N((2, 3), (3,))),
    Case("add_bcast_outer", lambda x, y: x + y, np.add, N((2, 1), (1, 3))),
    Case("add_bcast_0d", lambda x, y: x + y, np.add, N((), (2, 3))),
    Case("add_python_scalar", lambda x: x + 2.5, lambda x: x + 2.5, N((2, 3))),
    Case("radd_python_int", lambda x: 3 + x, lambda x: 3 + x, N((3,))),
    Case("sub", lambda x, y: x - y, np.subtract, N((2, 3), (2, 3))),
    Case("sub_bcast_outer", ops.sub, np.subtract, N((2, 1), (1, 3))),
    Case("rsub_python_scalar", lambda x: 3.0 - x, lambda x: 3.0 - x, N((2, 3))),
    Case("mul", lambda x, y: x * y, np.multiply, N((2, 3), (2, 3))),
    Case("mul_bcast_row", ops.mul, np.multiply, N((2, 3), (3,))),
    Case("mul_bcast_outer", ops.Mul(), np.multiply, N((2, 1), (1, 3))),
    Case("mul_python_scalar", lambda x: x * 1.5, lambda x: x * 1.5, N((2, 3))),
    Case("div", lambda x, y: x / y, np.divide, lambda r: N((2, 3))(r) + away0((2, 3))(r)),
    Case("div_bcast", ops.div, np.divide, lambda r: N((3,))(r) + away0((2, 1))(r)),
    Case("div_no_nan", ops.DivNoNan(), np.divide, lambda r: N((2, 3))(r) + away0((3,))(r)),
    Case("rdiv_python_scalar", lambda x: 2.0 / x, lambda x: 2.0 / x, away0((2, 3))),
    Case("neg", lambda x: -x, np.negative, N((2, 3))),
    Case("neg_op", ops.Neg(), np.negative, N((2, 3))),
    Case("square", ops.square, np.square, N((2, 3))),
    Case("pow_tensor", lambda x, y: x ** y, np.power,
         lambda r: U(0.5, 2.0, (2, 3))(r) + U(-1.5, 1.5, (2, 3))(r)),
    Case("pow_tensor_bcast", ops.pow, np.power,
         lambda r: U(0.5, 2.0, (2, 3))(r) + U(-1.5, 1.5, (3,))(r)),
    Case("pow_scalar_float", lambda x: x ** 3.0, lambda x: x ** 3.0, N((2, 3))),
    Case("pow_scalar_int", lambda x: ops.pow(x, 2), lambda x: x ** 2, N((2, 3))),
    Case("pow_scalar_frac", lambda x: x ** 0.5, lambda x: x ** 0.5, U(0.5, 2.0, (2, 3))),
    Case("rpow_python_base", lambda x: 2.0 ** x, lambda x: 2.0 ** x, N((2, 3))),
    # x ** y with y - 1 outside NumPy's cheap powers: the derivative is ans / x (PowMinusOne)
    Case("pow_scalar_2_5", lambda x: x ** 2.5, lambda x: x ** 2.5, U(0.5, 2.0, (2, 3))),
    Case("pow_scalar_neg", lambda x: ops.pow(x, -1.5), lambda x: x ** -1.5, U(0.5, 2.0, (2, 3))),
    Case("pow_scalar_4_at_zero", lambda x: x ** 4.0, lambda x: x ** 4.0, with_zero((2, 3))),
    Case("pow_scalar_sqrt_fast", lambda x: x ** 0.5 + x ** 2 + x ** -1,
         lambda x: x ** 0.5 + x ** 2 + x ** -1, U(0.5, 2.0, (2, 3))),
    Case("pow_tensor_exponent_neg_base", lambda x: x ** ms.Tensor(np.full((2, 3), 3.0), x.dtype),
         lambda x: x ** 3.0, N((2, 3))),
    Case("maximum", ops.maximum, np.maximum, distinct_pair((2, 3), (2, 3))),
    Case("maximum_bcast", ops.Maximum(), np.maximum, distinct_pair((2, 3), (3,))),
    Case("minimum", ops.minimum, np.minimum, distinct_pair((2, 3), (2, 3))),
    Case("minimum_bcast", ops.Minimum(), np.minimum, distinct_pair((2, 3), (3,))),
    Case("floor_mod", ops.floor_mod, np.mod, lambda r: off_multiples(r, (2, 3), (2, 3))),
    Case("floor_mod_bcast", lambda x, y: x % y, np.mod, lambda r: off_multiples(r, (2, 3), (3,))),
    Case("floor_mod_python_y", lambda x: ops.floor_mod(x, 0.7), lambda x: np.mod(x, 0.7),
         lambda r: off_multiples(r, (2, 3), ())[:1]),
    Case("floor_div", ops.floor_div, np.floor_divide, lambda r: off_multiples(r, (2, 3), (3,))),
    Case("fmod", ops.fmod, np.fmod, fmod_pair((2, 3))),
    Case("mod_op_python_y", lambda x: ops.Mod()(x, 0.7), lambda x: np.fmod(x, 0.7),
         away_from([-2.1, -1.4, -0.7, 0.0, 0.7, 1.4, 2.1], -2.4, 2.4, (2, 3), gap=0.15)),
    Case("atan2", ops.atan2, np.arctan2, lambda r: N((2, 3))(r) + away0((2, 3))(r)),
    Case("atan2_bcast", ops.atan2, np.arctan2, lambda r: away0((2, 3))(r) + away0((3,))(r)),
    Case("atan2_python_y", lambda x: ops.atan2(x, 0.7), lambda x: np.arctan2(x, 0.7), N((2, 3))),
    Case("atan2_python_x", lambda y: ops.atan2(0.7, y), lambda y: np.arctan2(0.7, y),
         away0((2, 3))),
    Case("maximum_python_scalar", lambda x: ops.maximum(x, 0.1), lambda x: np.maximum(x, 0.1),
         away_from([0.1], -2, 2, (2, 3))),
    Case("minimum_python_scalar_left", lambda x: ops.minimum(0.1, x),
         lambda x: np.minimum(0.1, x), away_from([0.1], -2, 2, (2, 3))),
    Case("minimum_bcast_y_only", lambda y: ops.minimum(ms.Tensor(COND * 1.0 - 0.5, y.dtype), y),
         lambda y: np.minimum((COND * 1.0 - 0.5).astype(y.dtype), y),
         away_from([-0.5, 0.5], -2, 2, (3,))),
    Case("div_python_numerator", lambda y: 1.5 / y, lambda y: 1.5 / y, away0((2, 3))),
    Case("div_constant_denominator", lambda x: x / ms.Tensor(COND * 1.0 + 1.0),
         lambda x: x / (COND * 1.0 + 1.0), N((2, 3))),
    Case("select", lambda x, y: ops.select(sel, x, y), lambda x, y: np.where(COND, x, y),
         N((2, 3), (2, 3))),
    Case("where_bcast", lambda x, y: ops.where(sel, x, y), lambda x, y: np.where(COND, x, y),
         N((2, 3), (3,))),
    Case("select_bcast_cond", lambda x, y: ops.select(ms.Tensor(COND[:, :1]), x, y),
         lambda x, y: np.where(COND[:, :1], x, y), N((2, 3), (3,))),
    Case("concat_with_constant", lambda x: ops.concat((x, ms.Tensor(COND * 1.0)), 1),
         lambda x: np.concatenate((x, COND * 1.0), 1), N((2, 2))),
    Case("stack_with_constant", lambda x: ops.stack((ms.Tensor(COND * 1.0), x)),
         lambda x: np.stack((COND * 1.0, x)), N((2, 3))),
    # 64 x 64: large enough for select's bitwise blend
    Case("select_large", lambda x, y: ops.select(x > y, x * x, y),
         lambda x, y: np.where(x > y, x * x, y), distinct_pair((64, 64), (64, 64)), 2),
    Case("select_large_bcast", lambda x, y: ops.select(x > 0.3, x, y),
         lambda x, y: np.where(x > 0.3, x, y), lambda r: [r.uniform(0.5, 1, (64, 64))
                                                          * r.choice([-1, 1], (64, 64)),
                                                          r.standard_normal((64,))], 2),
    Case("select_op", lambda x, y: ops.Select()(x > y, x * x, y),
         lambda x, y: np.where(x > y, x * x, y), distinct_pair((2, 3), (2, 3))),
    # elementwise unary
    Case("sqrt", ops.sqrt, np.sqrt, U(0.5, 2.0, (2, 3))),
    Case("exp", ops.exp, np.exp, N((2, 3))),
    Case("log", ops.log, np.log, U(0.5, 2.0, (2, 3))),
    Case("sin", ops.Sin(), np.sin, N((2, 3))),
    Case("cos", ops.cos, np.cos, N((2, 3))),
    Case("tan", ops.tan, np.tan, U(-1.0, 1.0, (2, 3))),
    Case("sinh", ops.sinh, np.sinh, N((2, 3))),
    Case("cosh", ops.cosh, np.cosh, N((2, 3))),
    Case("tanh", ops.tanh, np.tanh, N((2, 3))),
    Case("atanh", ops.atanh, np.arctanh, U(-0.7, 0.7, (2, 3))),
    Case("asin", ops.asin, np.arcsin, U(-0.7, 0.7, (2, 3))),
    Case("acos", ops.acos, np.arccos, U(-0.7, 0.7, (2, 3))),
    Case("atan", ops.atan, np.arctan, N((2, 3))),
    Case("asinh", ops.asinh, np.arcsinh, N((2, 3))),
    Case("acosh", ops.acosh, np.arccosh, U(1.3, 3.0, (2, 3))),
    Case("abs", ops.abs, np.abs, away0((2, 3))),
    Case("abs_method", lambda x: abs(x), np.abs, away0((2, 3))),
    Case("rsqrt", ops.rsqrt, lambda x: 1 / np.sqrt(x), U(0.5, 2.0, (2, 3))),
    Case("reciprocal", ops.reciprocal, np.reciprocal, away0((2, 3))),
    Case("expm1", ops.expm1, np.expm1, N((2, 3))),
    Case("log1p", ops.log1p, np.log1p, U(-0.5, 2.0, (2, 3))),
    Case("sigmoid", ops.sigmoid, lambda x: 1 / (1 + np.exp(-x)), N((2, 3))),
    Case("relu", ops.relu, lambda x: np.maximum(x, 0), away0((2, 3))),
    Case("relu_op", ops.ReLU(), lambda x: np.maximum(x, 0), away0((2, 3))),
    Case("softplus", ops.softplus, _softplus_ref, N((2, 3))),
    Case("erf", ops.erf, _erf_ref, N((2, 3))),
    Case("erfc", ops.erfc, lambda x: np_erfc(x).astype(x.dtype), N((2, 3))),
    Case("gelu", ops.gelu, lambda x: 0.5 * x * (1 + _erf_ref(x / math.sqrt(2.0))), N((2, 3))),
    Case("silu", ops.silu, lambda x: x / (1 + np.exp(-x)), N((2, 3))),
    Case("leaky_relu", lambda x: ops.leaky_relu(x, 0.1),
         lambda x: np.where(x > 0, x, 0.1 * x), away0((2, 3))),
    Case("exp2", ops.exp2, np.exp2, N((2, 3))),
    Case("log2", ops.log2, np.log2, U(0.5, 2.0, (2, 3))),
    Case("log10", ops.log10, np.log10, U(0.5, 2.0, (2, 3))),
    Case("relu6", ops.relu6, lambda x: np.clip(x, 0, 6), away_from([0, 6], -2, 8, (2, 3))),
    Case("leaky_relu_default", ops.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x),
         away0((2, 3))),
    Case("leaky_relu_alpha_above_1", lambda x: ops.leaky_relu(x, 1.5),
         lambda x: np.where(x > 0, x, 1.5 * x), away0((2, 3))),
    Case("leaky_relu_alpha_negative", lambda x: ops.leaky_relu(x, -0.5),
         lambda x: np.where(x > 0, x, -0.5 * x), away0((2, 3))),
    Case("leaky_relu_alpha_0", lambda x: ops.leaky_relu(x, 0.0),
         lambda x: np.maximum(x, 0), away0((2, 3))),
    Case("elu", ops.elu, lambda x: np.where(x > 0, x, np.expm1(x)), away0((2, 3))),
    Case("elu_alpha", lambda x: ops.elu(x, 0.5), lambda x: np.where(x > 0, x, 0.5 * np.expm1(x)),
         away0((2, 3))),
    Case("hardswish", ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6,
         away_from([-3, 3], -5, 5, (2, 3))),
    Case("mish", ops.mish, lambda x: x * np.tanh(_softplus_ref(x)), N((2, 3))),
    Case("clamp_min_only", lambda x: ops.clamp(x, -0.5), lambda x: np.maximum(x, -0.5),
         away_from([-0.5], -2, 2, (2, 3))),
    Case("clamp_max_only", lambda x: ops.clip_by_value(x, max=1), lambda x: np.minimum(x, 1.0),
         away_from([1], -2, 2, (2, 3))),
    Case("clamp", lambda x: ops.clamp(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5),
         lambda r: [np.array([[-1.2, -0.3, 0.1], [0.2, 0.9, 1.4]])]),
    # matrix products
    Case("matmul_2d", ops.matmul, np.matmul, N((2, 3), (3, 4))),
    Case("matmul_operator", lambda a, b: a @ b, np.matmul, N((2, 3), (3, 2))),
    Case("MatMul", MM(), np.matmul, N((2, 3), (3, 4))),
    Case("MatMul_transpose_a", MM(transpose_a=True), lambda a, b: a.T @ b, N((3, 2), (3, 4))),
    Case("MatMul_transpose_b", MM(transpose_b=True), lambda a, b: a @ b.T, N((2, 3), (4, 3))),
    Case("MatMul_transpose_ab", MM(transpose_a=True, transpose_b=True),
         lambda a, b: a.T @ b.T, N((3, 2), (4, 3))),
    Case("matmul_batched_bcast", ops.matmul, np.matmul, N((2, 1, 2, 3), (3, 3, 2))),
    Case("matmul_batched_2d", ops.matmul, np.matmul, N((2, 2, 3), (3, 4))),
    Case("matmul_1d_2d", ops.matmul, np.matmul, N((3,), (3, 4))),
    Case("matmul_2d_1d", ops.matmul, np.matmul, N((2, 3), (3,))),
    Case("matmul_1d_1d", ops.matmul, np.matmul, N((3,), (3,))),
    Case("matmul_batched_1d", ops.matmul, np.matmul, N((2, 2, 3), (3,))),
    Case("matmul_1d_batched", ops.matmul, np.matmul, N((3,), (2, 3, 2))),
    Case("BatchMatMul", ops.BatchMatMul(), np.matmul, N((2, 2, 3), (2, 3, 4))),
    Case("BatchMatMul_transpose_b", ops.BatchMatMul(transpose_b=True),
         lambda a, b: a @ np.swapaxes(b, -1, -2), N((2, 2, 3), (2, 4, 3))),
    Case("outer", ops.outer, np.outer, N((3,), (2,))),
    # reductions
    Case("reduce_sum_all", ops.reduce_sum, np.sum, N((2, 3))),
    Case("ReduceSum_default_axis", lambda x: ops.ReduceSum()(x), np.sum, N((2, 3))),
    Case("reduce_sum_axis", lambda x: ops.reduce_sum(x, 1), lambda x: x.sum(1), N((2, 3))),
    Case("reduce_sum_neg_axis", lambda x: ops.reduce_sum(x, -2), lambda x: x.sum(-2),
         N((2, 3, 2))),
    Case("reduce_sum_tuple", lambda x: ops.reduce_sum(x, (0, 2)), lambda x: x.sum((0, 2)),
         N((2, 3, 2))),
    Case("reduce_sum_keep", lambda x: ops.ReduceSum(keep_dims=True)(x, 1),
         lambda x: x.sum(1, keepdims=True), N((2, 3))),
    Case("reduce_sum_keep_all", lambda x: ops.reduce_sum(x, None, True),
         lambda x: x.sum(keepdims=True), N((2, 3))),
    Case("sum_method", lambda x: x.sum(axis=0), lambda x: x.sum(0), N((2, 3))),
    Case("reduce_mean_all", ops.reduce_mean, np.mean, N((2, 3))),
    Case("reduce_mean_axis", lambda x: ops.reduce_mean(x, 0), lambda x: x.mean(0), N((2, 3))),
    Case("reduce_mean_tuple_keep", lambda x: ops.ReduceMean(keep_dims=True)(x, (0, 1)),
         lambda x: x.mean((0, 1), keepdims=True), N((2, 3, 2))),
    Case("mean_method", lambda x: x.mean(), np.mean, N((2, 3))),
    Case("reduce_max_all", ops.reduce_max, np.max, distinct(2, 3)),
    Case("reduce_max_axis", lambda x: ops.ReduceMax()(x, 1), lambda x: x.max(1), distinct(2, 3)),
    Case("reduce_max_keep", lambda x: ops.reduce_max(x, 0, True),
         lambda x: x.max(0, keepdims=True), distinct(2, 3)),
    Case("reduce_min_all", ops.reduce_min, np.min, distinct(2, 3)),
    Case("reduce_min_axis", lambda x: ops.ReduceMin()(x, 0), lambda x: x.min(0), distinct(2, 3)),
    Case("reduce_prod", lambda x: ops.reduce_prod(x, 1), lambda x: x.prod(1), N((2, 3))),
    Case("cumsum_0", lambda x: ops.cumsum(x, 0), lambda x: np.cumsum(x, 0), N((3, 2))),
    Case("cumsum_1", lambda x: ops.cumsum(x, 1), lambda x: np.cumsum(x, 1), N((2, 3))),
    Case("cumsum_neg", lambda x: ops.cumsum(x, -1), lambda x: np.cumsum(x, -1), N((2, 3))),
    Case("softmax", ops.softmax, _softmax_ref, N((2, 3))),
    Case("softmax_axis0", ops.Softmax(axis=0), lambda x: _softmax_ref(x, 0), N((2, 3))),
    Case("log_softmax", ops.log_softmax, lambda x: np.log(_softmax_ref(x)), N((2, 3))),
    Case("logsumexp_all", ops.logsumexp, _lse_ref, N((2, 3))),
    Case("logsumexp_axis", lambda x: ops.logsumexp(x, 1), lambda x: _lse_ref(x, 1), N((2, 3))),
    Case("logsumexp_keep", lambda x: ops.logsumexp(x, 0, True),
         lambda x: _lse_ref(x, 0, True), N((2, 3))),
    Case("var_all", ops.var, np.var, N((2, 3))),
    Case("var_axis_ddof", lambda x: ops.var(x, 1, ddof=1), lambda x: np.var(x, 1, ddof=1),
         N((2, 3))),
    Case("std_axis", lambda x: ops.std(x, 0), lambda x: np.std(x, 0), N((3, 2))),
    Case("std_keep", lambda x: x.std(axis=1, keepdims=True),
         lambda x: np.std(x, 1, keepdims=True), N((2, 3))),
    Case("norm_all", ops.norm, lambda x: np.sqrt((x * x).sum()), N((2, 3))),
    Case("norm_dim", lambda x: ops.norm(x, dim=1), lambda x: np.sqrt((x * x).sum(1)), N((2, 3))),
    # a 2-D input with ord set: matrix norms (the largest column / row sum of |x|)
    Case("norm_l1", lambda x: ops.norm(x, 1), lambda x: np.linalg.norm(x, 1), away0((2, 3))),
    Case("norm_inf", lambda x: ops.norm(x, INF), lambda x: np.linalg.norm(x, INF),
         lambda r: [np.array([[0.3, -1.7, 0.9], [1.1, -0.2, 0.5]])]),
    Case("norm_neg_inf", lambda x: ops.norm(x, -INF), lambda x: np.linalg.norm(x, -INF),
         lambda r: [np.array([[0.3, -1.7, 0.9], [1.1, -0.2, 0.5]])]),
    Case("norm_neg1_dims_swapped", lambda x: ops.norm(x, -1, dim=(1, 0)),
         lambda x: np.linalg.norm(x, -1, axis=(1, 0)), away0((3, 4))),
    Case("norm_inf_batch_keep", lambda x: ops.norm(x, INF, dim=(1, 2), keepdim=True),
         lambda x: np.linalg.norm(x, INF, axis=(1, 2), keepdims=True), away0((2, 3, 4))),
    Case("norm_fro", lambda x: ops.norm(x, "fro"), lambda x: np.linalg.norm(x, "fro"), N((2, 3))),
    Case("norm_fro_dims_keep", lambda x: x.norm("fro", dim=(2, 0), keepdim=True),
         lambda x: np.linalg.norm(x, "fro", axis=(2, 0), keepdims=True), N((2, 3, 2))),
    Case("norm_nuc", lambda x: ops.norm(x, "nuc"), lambda x: np.linalg.norm(x, "nuc"),
         N((3, 2))),
    Case("norm_nuc_batch", lambda x: ops.norm(x, "nuc", dim=(1, 2)),
         lambda x: np.linalg.norm(x, "nuc", axis=(1, 2)), N((2, 3, 4)), 2),
    Case("norm_spectral", lambda x: ops.norm(x, 2), lambda x: np.linalg.norm(x, 2), N((3, 4))),
    Case("norm_spectral_min_dims", lambda x: ops.norm(x, -2, dim=(0, 2)),
         lambda x: np.linalg.norm(x, -2, axis=(0, 2)), N((3, 2, 4)), 2),
    # vector norms: an int dim or a 1-D input
    Case("norm_vec_l1_dim", lambda x: ops.norm(x, 1, dim=1),
         lambda x: np.linalg.norm(x, 1, axis=1), away0((2, 3))),
    Case("norm_vec_inf_dim", lambda x: ops.norm(x, INF, dim=0),
         lambda x: np.linalg.norm(x, INF, axis=0), lambda r: [np.array([[0.3, -1.7], [1.1, -0.2]])]),
    Case("norm_vec_neg_inf", lambda x: ops.norm(x, -INF), lambda x: np.linalg.norm(x, -INF),
         lambda r: [np.array([0.3, -1.7, -0.2, 1.1])]),
    Case("norm_vec_0", lambda x: ops.norm(x, 0, dim=-1), lambda x: np.linalg.norm(x, 0, axis=-1),
         away0((2, 3))),
    Case("norm_p3", lambda x: ops.norm(x, 3.0), lambda x: np.linalg.norm(x, 3.0), away0((6,)), 2),
    Case("norm_p_neg_dim_keep", lambda x: ops.norm(x, -1.5, dim=1, keepdim=True),
         lambda x: np.linalg.norm(x, -1.5, axis=1, keepdims=True), away0((2, 3, 2)), 2),
    Case("norm_vec_2_tuple1", lambda x: ops.norm(x, 2, dim=(-1,)),
         lambda x: np.linalg.norm(x, 2, axis=-1), N((2, 3))),
    # singular values and vectors (functions of u and v that do not depend on their signs)
    Case("svd_values", lambda x: ops.svd(x, compute_uv=False),
         lambda x: np.linalg.svd(x, compute_uv=False), N((4, 3))),
    Case("svd_tall", lambda x: _svd_signless(ops.svd(x)),
         lambda x: _svd_signless(_np_svd(x)), N((4, 3))),
    Case("svd_wide_batch", lambda x: _svd_signless(ops.svd(x)),
         lambda x: _svd_signless(_np_svd(x)), N((2, 2, 3)), 2),
    Case("svd_square_full", lambda x: _svd_signless(ops.svd(x, full_matrices=True)),
         lambda x: _svd_signless(_np_svd(x)), N((3, 3))),
    # shapes
    Case("reshape", lambda x: ops.reshape(x, (3, 2)), lambda x: x.reshape(3, 2), N((2, 3))),
    Case("reshape_minus1", lambda x: ops.Reshape()(x, (-1,)), lambda x: x.reshape(-1),
         N((2, 3))),
    Case("reshape_method", lambda x: x.reshape(1, 6, 1), lambda x: x.reshape(1, 6, 1),
         N((2, 3))),
    Case("transpose_perm", lambda x: ops.transpose(x, (1, 2, 0)),
         lambda x: x.transpose(1, 2, 0), N((2, 3, 2))),
    Case("transpose_op", lambda x: ops.Transpose()(x, (1, 0)), lambda x: x.T, N((2, 3))),
    Case("transpose_T", T, T, N((2, 3))),
    Case("expand_dims", lambda x: ops.expand_dims(x, 1), lambda x: np.expand_dims(x, 1),
         N((2, 3))),
    Case("expand_dims_neg", lambda x: ops.ExpandDims()(x, -1), lambda x: x[..., None],
         N((2, 3))),
    Case("squeeze_all", ops.squeeze, np.squeeze, N((1, 3, 1))),
    Case("squeeze_axis", lambda x: ops.squeeze(x, 2), lambda x: np.squeeze(x, 2), N((1, 3, 1))),
    Case("Squeeze_op", ops.Squeeze(0), lambda x: np.squeeze(x, 0), N((1, 3, 1))),
    Case("Squeeze_op_tuple", ops.Squeeze((0, 2)), np.squeeze, N((1, 3, 1))),
    Case("broadcast_to", lambda x: ops.broadcast_to(x, (2, 3)),
         lambda x: np.broadcast_to(x, (2, 3)), N((3,))),
    Case("broadcast_to_op", lambda x: ops.BroadcastTo((2, 2, 3))(x),
         lambda x: np.broadcast_to(x, (2, 2, 3)), N((2, 1, 3))),
    Case("cast_to_f64", lambda x: ops.cast(x, ms.float64) * ops.sin(x),
         lambda x: x.astype(np.float64) * np.sin(x), N((2, 3))),
    Case("astype_f64", lambda x: x.astype(ms.float64) * x.astype(ms.float64),
         lambda x: x.astype(np.float64) ** 2, N((2, 3))),
    # indexing
    Case("getitem_int", lambda x: x[1], lambda x: x[1], N((3, 2))),
    Case("getitem_int_int", lambda x: x[0][1], lambda x: x[0][1], N((2, 3))),
    Case("getitem_neg", lambda x: x[-1, -2], lambda x: x[-1, -2], N((2, 3))),
    Case("getitem_slice_step", lambda x: x[::2, 1:], lambda x: x[::2, 1:], N((4, 3))),
    Case("getitem_neg_step", lambda x: x[::-2, -2:], lambda x: x[::-2, -2:], N((4, 3))),
    Case("getitem_none", lambda x: x[None, :, 1], lambda x: x[None, :, 1], N((2, 3))),
    Case("getitem_ellipsis", lambda x: x[..., 0], lambda x: x[..., 0], N((2, 2, 3))),
    Case("getitem_ellipsis_none", lambda x: x[0, ..., None], lambda x: x[0, ..., None],
         N((2, 2, 3))),
    Case("getitem_bool_mask", lambda x: x[MASK], lambda x: x[MASK], N((4, 2))),
    Case("getitem_bool_tensor", lambda x: x[ms.Tensor(MASK)], lambda x: x[MASK], N((4,))),
    Case("getitem_int_array", lambda x: x[IDX], lambda x: x[IDX], N((3, 2))),
    Case("getitem_int_tensor_axis1", lambda x: x[:, ms.Tensor(IDX)], lambda x: x[:, IDX],
         N((2, 3))),
    Case("getitem_list", lambda x: x[[1, 1, 0]], lambda x: x[[1, 1, 0]], N((3,))),
    Case("gather", lambda x: ops.gather(x, ms.Tensor(IDX), 1), lambda x: x[:, IDX], N((2, 3))),
    Case("Gather_op", lambda x: ops.Gather()(x, ms.Tensor(IDX), 0), lambda x: x[IDX],
         N((3, 2))),
    Case("StridedSlice", lambda x: ops.StridedSlice()(x, (0, 1), (2, 3), (1, 2)),
         lambda x: x[0:2:1, 1:3:2], N((3, 3))),
    Case("setitem_int", lambda x, v: _set(x, 1, v), lambda x, v: _set_ref(x, 1, v),
         N((3, 2), (2,))),
    Case("setitem_slice_broadcast", lambda x, v: _set(x, (slice(None), slice(1, 3)), v),
         lambda x, v: _set_ref(x, (slice(None), slice(1, 3)), v), N((2, 4), (2, 1))),
    Case("setitem_mask", lambda x, v: _set(x, ms.Tensor(MASK), v),
         lambda x, v: _set_ref(x, MASK, v), N((4, 2), (2,))),
    Case("setitem_int_array_repeats", lambda x, v: _set(x, ms.Tensor(IDX_ROWS), v),
         lambda x, v: _set_ref(x, IDX_ROWS, v), N((3, 2), (5, 2))),
    Case("setitem_ellipsis_scalar", lambda x, v: _set(x, (Ellipsis, 0), v),
         lambda x, v: _set_ref(x, (Ellipsis, 0), v), N((2, 2, 3), ())),
    # joining and splitting
    Case("concat_0", lambda x, y: ops.concat((x, y)), lambda x, y: np.concatenate((x, y)),
         N((2, 3), (1, 3))),
    Case("concat_1", lambda x, y: ops.Concat(1)([x, y]),
         lambda x, y: np.concatenate((x, y), 1), N((2, 3), (2, 2))),
    Case("concat_3", lambda x, y, z: ops.concat((x, y, z), -1),
         lambda x, y, z: np.concatenate((x, y, z), -1), N((2, 1), (2, 2), (2, 1))),
    Case("stack_0", lambda x, y: ops.stack((x, y)), lambda x, y: np.stack((x, y)),
         N((2, 3), (2, 3))),
    Case("stack_neg", lambda x, y: ops.Stack(-1)((x, y)), lambda x, y: np.stack((x, y), -1),
         N((2, 3), (2, 3))),
    Case("split_equal", lambda x: ops.split(x, 1, 0), lambda x: tuple(np.split(x, 2, 0)),
         N((2, 3))),
    Case("split_sizes", lambda x: ops.split(x, [1, 2], 1),
         lambda x: tuple(np.split(x, [1], 1)), N((2, 3))),
    Case("split_used", lambda x: ops.Split(1, 3)(x)[2] * ops.Split(1, 3)(x)[0],
         lambda x: x[:, 2:3] * x[:, 0:1], N((2, 3))),
    Case("tile", lambda x: ops.tile(x, (2, 3)), lambda x: np.tile(x, (2, 3)), N((2, 2))),
    Case("tile_short_reps", lambda x: ops.tile(x, (3,)), lambda x: np.tile(x, (3,)), N((2, 2))),
    Case("tile_rank_up", lambda x: ops.Tile()(x, (2, 1, 2)), lambda x: np.tile(x, (2, 1, 2)),
         N((2, 3))),
    Case("flip", lambda x: ops.flip(x, (0,)), lambda x: np.flip(x, 0), N((3, 2))),
    Case("flip_both", lambda x: ops.flip(x, (0, 1)), lambda x: np.flip(x, (0, 1)), N((2, 3))),
    # composites mixing several ops
    Case("composite_mlp", lambda x, w: ops.tanh(x @ w).sum(axis=1) * ops.exp(x[:, 0]),
         lambda x, w: np.tanh(x @ w).sum(1) * np.exp(x[:, 0]), N((2, 3), (3, 2))),
]

IDS = [c.name for c in CASES]
assert len(set(IDS)) == len(IDS), "duplicate case names"


def _inputs(case: Case, dtype=np.float64, seed: int = 0) -> list:
    return [np.asarray(a, dtype) for a in case.gen(np.random.default_rng(seed))]


def _outs(x) -> list:
    return flatten(x)[0]


# --- forward values --------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_forward_matches_numpy(case: Case, dtype) -> None:
    arrays = _inputs(case, dtype)
    got = case.fn(*[ms.Tensor(a) for a in arrays])
    want = case.ref(*[a.copy() for a in arrays])
    got_l = _outs(got)
    want_l = list(want) if isinstance(want, tuple) else [want]
    assert len(got_l) == len(want_l)
    tol = dict(rtol=2e-6, atol=2e-6) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
    for g, w in zip(got_l, want_l):
        w = np.asarray(w)
        assert isinstance(g, ms.Tensor)
        assert g.shape == w.shape, f"{case.name}: shape {g.shape} != {w.shape}"
        assert g.asnumpy().dtype == w.dtype, f"{case.name}: dtype {g.dtype} != {w.dtype}"
        np.testing.assert_allclose(g.asnumpy(), w, **tol)
    # inputs are never modified
    for t, a in zip([ms.Tensor(a) for a in arrays], arrays):
        np.testing.assert_array_equal(t.asnumpy(), a)


# --- derivatives against central differences -----------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_derivatives_against_finite_differences(case: Case) -> None:
    arrays = _inputs(case)
    check_grads(case.fn, [ms.Tensor(a) for a in arrays], order=case.order)


# --- float32 derivatives keep float32 and agree with float64 ---------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_float32_derivative_dtypes(case: Case) -> None:
    a64 = [ms.Tensor(a) for a in _inputs(case, np.float64)]
    a32 = [ms.Tensor(a) for a in _inputs(case, np.float32)]
    rng = np.random.default_rng(1)
    u = [rng.standard_normal(a.shape) for a in a64]
    res = {}
    for name, args in (("f32", a32), ("f64", a64)):
        dt = args[0].asnumpy().dtype
        out, tan = ops.jvp(case.fn, tuple(args), tuple(ms.Tensor(x.astype(dt)) for x in u))
        for o, t in zip(_outs(out), _outs(tan)):
            assert t.dtype == o.dtype and t.shape == o.shape
        v = [ms.Tensor(np.ones(o.shape, o.asnumpy().dtype)) for o in _outs(out)]
        _, vjp_fn = ops.vjp(case.fn, *args)
        grads = vjp_fn(*v)
        for g, a in zip(grads, args):
            assert g.dtype == a.dtype and g.shape == a.shape
        res[name] = [t.asnumpy() for t in _outs(tan)] + [g.asnumpy() for g in grads]
    for g32, g64 in zip(res["f32"], res["f64"]):
        np.testing.assert_allclose(g32.astype(np.float64), g64, rtol=2e-4, atol=2e-4)


# --- GRAPH mode equals PYNATIVE --------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_graph_matches_pynative(case: Case) -> None:
    arrays = _inputs(case)
    check_graph_matches(case.fn, [ms.Tensor(a) for a in arrays], order=case.order)


# --- rows that central differences cannot check -----------------------------------------------
def test_stop_gradient_zero_derivatives() -> None:
    x = ms.Tensor(np.array([0.5, -1.0, 2.0]))
    np.testing.assert_array_equal(ops.stop_gradient(x).asnumpy(), x.asnumpy())
    f = lambda x: ops.stop_gradient(x * x) + 3 * x  # noqa: E731
    g = ops.grad(f)
    np.testing.assert_array_equal(g(x).asnumpy(), [3.0, 3.0, 3.0])
    np.testing.assert_array_equal(ops.grad(lambda x: g(x).sum())(x).asnumpy(), [0, 0, 0])
    _, tan = ops.jvp(f, (x,), (ms.Tensor(np.ones(3)),))
    np.testing.assert_array_equal(tan.asnumpy(), [3.0, 3.0, 3.0])
    only = ops.grad(lambda x: ops.stop_gradient(x).sum())
    np.testing.assert_array_equal(only(x).asnumpy(), [0, 0, 0])
    np.testing.assert_array_equal(ms.jit(only)(x).asnumpy(), [0, 0, 0])
    np.testing.assert_array_equal(ms.jit(g)(x).asnumpy(), [3.0, 3.0, 3.0])
    check_graph_matches(f, [x], order=2)


@pytest.mark.parametrize("src,dst", [(np.float32, ms.float64), (np.float64, ms.float32)])
def test_cast_gradient_keeps_input_dtype(src, dst) -> None:
    x = ms.Tensor(np.array([0.5, -1.5, 2.0], src))
    y = ops.cast(x, dst)
    assert y.dtype == dst
    g = ops.grad(lambda x: ops.square(ops.cast(x, dst)))(x)
    assert g.asnumpy().dtype == src
    np.testing.assert_allclose(g.asnumpy(), [1.0, -3.0, 4.0], rtol=1e-6)
    gg = ops.grad(lambda x: ops.grad(lambda x: ops.cast(x, dst) ** 3)(x))(x)
    assert gg.asnumpy().dtype == src
    np.testing.assert_allclose(gg.asnumpy(), 6 * x.asnumpy(), rtol=1e-6)
    _, t = ops.jvp(lambda x: ops.cast(x, dst) * 2, x, ms.Tensor(np.ones(3, src)))
    assert t.dtype == dst
    np.testing.assert_allclose(t.asnumpy(), [2.0, 2.0, 2.0])


def test_int_index_gradient_accumulates_repeats() -> None:
    x = ms.Tensor(np.arange(3.0))
    g = ops.grad(lambda x: (x[IDX] * ms.Tensor(np.arange(1.0, 6.0))).sum())(x)
    # IDX = [0, 2, 2, 1, 0] weighted by 1..5: x0 gets 1+5, x1 gets 4, x2 gets 2+3
    np.testing.assert_array_equal(g.asnumpy(), [6.0, 4.0, 5.0])


def test_maximum_tie_is_shared() -> None:
    x = ms.Tensor(np.array([1.0, 2.0]))
    y = ms.Tensor(np.array([1.0, 3.0]))
    gx, gy = ops.grad(ops.maximum, (0, 1))(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), [0.5, 0.0])
    np.testing.assert_array_equal(gy.asnumpy(), [0.5, 1.0])


def test_reduce_max_ties_share_gradient() -> None:
    x = ms.Tensor(np.array([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]]))
    g = ops.grad(lambda x: ops.reduce_max(x, 1).sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), [[0, 0.5, 0.5], [0.5, 0, 0.5]])


@pytest.mark.parametrize("sx,sy", [((2, 3), (3,)), ((2, 1), (1, 3)), ((3,), (2, 1)),
                                   ((), (2, 3)), ((1, 3), (2, 1, 1))])
def test_binary_broadcast_gradient_shapes(sx, sy) -> None:
    rng = np.random.default_rng(3)
    x = ms.Tensor(rng.standard_normal(sx))
    y = ms.Tensor(rng.uniform(0.5, 2.0, sy))
    for op, ref in ((ops.add, np.add), (ops.sub, np.subtract), (ops.mul, np.multiply),
                    (ops.div, np.divide), (ops.pow, None)):
        if op is ops.pow:
            x_, y_ = y, x  # positive base
        else:
            x_, y_ = x, y
        out = op(x_, y_)
        assert out.shape == np.broadcast_shapes(x_.shape, y_.shape)
        if ref is not None:
            np.testing.assert_allclose(out.asnumpy(), ref(x_.asnumpy(), y_.asnumpy()))
        gx, gy = ops.grad(op, (0, 1))(x_, y_)
        assert gx.shape == x_.shape and gy.shape == y_.shape
    # add: the gradient is the number of elements each input was broadcast over
    gx, gy = ops.grad(ops.add, (0, 1))(x, y)
    n = int(np.prod(np.broadcast_shapes(sx, sy)))
    np.testing.assert_array_equal(gx.asnumpy(), np.full(sx, n / max(1, x.size)))
    np.testing.assert_array_equal(gy.asnumpy(), np.full(sy, n / max(1, y.size)))


# --- Jacobians (batched through vmap) against central differences ---------------------------
def _numerical_jacobians(fn, arrays, eps=1e-6) -> list:
    """[[d out_k / d in_p for p] for k], each of shape out.shape + in.shape."""
    outs = _outs(fn(*[ms.Tensor(a) for a in arrays]))
    jac = [[np.zeros(o.shape + a.shape) for a in arrays] for o in outs]
    for p, a in enumerate(arrays):
        for idx in np.ndindex(a.shape):
            hi, lo = [x.copy() for x in arrays], [x.copy() for x in arrays]
            hi[p][idx] += eps
            lo[p][idx] -= eps
            fh = _outs(fn(*[ms.Tensor(x) for x in hi]))
            fl = _outs(fn(*[ms.Tensor(x) for x in lo]))
            for k, (h, l) in enumerate(zip(fh, fl)):
                jac[k][p][(...,) + idx] = (h.asnumpy() - l.asnumpy()) / (2 * eps)
    return jac


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_jacfwd_jacrev_against_finite_differences(case: Case) -> None:
    arrays = _inputs(case)
    args = [ms.Tensor(a) for a in arrays]
    pos = tuple(range(len(args)))
    want = _numerical_jacobians(case.fn, arrays)
    multi = isinstance(case.fn(*args), tuple)
    for jac in (ops.jacfwd, ops.jacrev):
        got = jac(case.fn, pos)(*args)
        per_out = list(got) if multi else [got]
        assert len(per_out) == len(want)
        for g_out, w_out in zip(per_out, want):
            if len(pos) == 1:  # a 1-tuple position gives a bare Jacobian, as grad does
                assert isinstance(g_out, ms.Tensor)
                g_out = (g_out,)
            assert isinstance(g_out, tuple) and len(g_out) == len(w_out)
            for g, w in zip(g_out, w_out):
                assert g.shape == w.shape, (jac.__name__, g.shape, w.shape)
                np.testing.assert_allclose(g.asnumpy(), w, rtol=1e-6, atol=1e-6,
                                           err_msg=jac.__name__)


@pytest.mark.parametrize("use_scipy", [True, False])
def test_erf_erfc_exact_in_the_tails(use_scipy, monkeypatch) -> None:
    """erfc is its own primitive: 1 - erf(x) would round erfc(6) ~ 2e-17 to 0. Both the SciPy
    path and the per-element ``math`` fallback agree with ``math`` to the last bits."""
    from mindgrad.prims import unary

    if use_scipy:
        pytest.importorskip("scipy")
    else:
        monkeypatch.setattr(unary, "_scipy_special", lambda: None)
    xs = np.array([-3.0, -0.5, 0.0, 1e-3, 2.0, 6.0, 10.0, 25.0])
    for op, ref in ((ops.erf, math.erf), (ops.erfc, math.erfc)):
        for dtype in (np.float64, np.float32):
            got = op(ms.Tensor(xs.astype(dtype))).asnumpy()
            want = np.array([ref(float(v)) for v in xs.astype(dtype)], dtype)
            assert got.dtype == dtype
            # real GPUs flush float32 subnormal results (erfc(10)) to zero
            atol = np.finfo(dtype).tiny if real_gpu() else 0
            np.testing.assert_allclose(got, want, rtol=4 * np.finfo(dtype).eps, atol=atol)
    assert ops.erfc(ms.Tensor(10.0, ms.float64)).asnumpy() > 0
    # 0-d input and the derivative of erfc: -2/sqrt(pi) exp(-x^2)
    g = ops.grad(ops.erfc)(ms.Tensor(0.5, ms.float64)).asnumpy()
    np.testing.assert_allclose(g, -2 / math.sqrt(math.pi) * math.exp(-0.25), rtol=1e-15)


# --- the faster elementwise implementations keep their exact results --------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.int64,
                                   np.bool_, np.complex64])
def test_select_blend_is_np_where_bit_for_bit(dtype) -> None:
    """select's bitwise blend (large boolean masks) gives exactly np.where's bits: NaN
    payloads, -0.0, broadcasting, Python numbers on either side and the zero fast paths."""
    from mindgrad.prims.compare import _select_impl

    rng = np.random.default_rng(5)
    cond = rng.random((64, 80)) < 0.5
    x = (rng.standard_normal((64, 80)) * 100).astype(dtype)
    y = (rng.standard_normal((80,)) * 100).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[0, :3] = [np.nan, -0.0, np.inf]
        y[:2] = [-np.nan, -0.0]
    cases = [(cond, x, y), (cond, y, x), (cond[:1], x, y), (cond, x, 0), (cond, 0, x),
             (cond, x, -0.0), (cond, 1, y), (cond, True, False), (cond[:, :1], x, x[0])]
    for c, a, b in cases:
        got, want = _select_impl(c, a, b), np.where(c, a, b)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == np.ascontiguousarray(want).tobytes()


def test_maximum_minimum_against_python_numbers_match_numpy() -> None:
    x = np.array([-2.0, -0.5, 0.0, 0.5, np.nan, np.inf, -np.inf] * 3, np.float32)
    for op, ref in ((ops.maximum, np.maximum), (ops.minimum, np.minimum)):
        for v in (0, 0.5, -1):
            for a, b in ((x, v), (v, x)):
                got = op(ms.Tensor(a) if a is x else a, ms.Tensor(b) if b is x else b)
                assert got.dtype == ms.float32
                np.testing.assert_array_equal(got.asnumpy(), ref(a, b))


def test_mul_by_broadcast_one_and_neg_of_broadcast() -> None:
    x = ms.Tensor(np.arange(6.0).reshape(2, 3))
    one = ops.broadcast_to(ms.Tensor(1.0, ms.float64), (2, 3))
    np.testing.assert_array_equal((one * x).asnumpy(), x.asnumpy())
    np.testing.assert_array_equal((x * one).asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(ops.neg(one).asnumpy(), -np.ones((2, 3)))
    negated = ops.neg(one)._data  # still one read-only cell, not a full array (on the CPU)
    if isinstance(negated, np.ndarray):
        assert negated.strides == (0, 0) and not negated.flags.writeable
    g1, g2 = ops.grad(lambda a, b: (a * b * b).sum(), (0, 1))(x, one)
    np.testing.assert_array_equal(g1.asnumpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(g2.asnumpy(), 2 * x.asnumpy())
    gs = ops.grad(lambda a, b: (a - b).sum(), (0, 1))(x, x)
    np.testing.assert_array_equal(gs[1].asnumpy(), -np.ones((2, 3)))


def test_pow_derivative_where_ans_over_x_is_not_exact() -> None:
    """pow's derivative in x is y * ans / x except at x = 0 and where x ** y overflows or
    underflows, which take y * x ** (y - 1) itself."""
    x = ms.Tensor(np.array([0.0, 2.0, 1e16, 1e-20, -1.5], np.float32))
    for y in (2.5, 4.0, 1.5):
        with np.errstate(all="ignore"):  # overflow to inf, NaN for a negative base
            g = ops.grad(lambda x: (x ** y).sum())(x).asnumpy()
            want = (y * x.asnumpy().astype(np.float64) ** (y - 1)).astype(np.float32)
        np.testing.assert_allclose(g, want, rtol=1e-6, atol=0)
    # a tensor exponent: both derivatives finite at x = 0
    base = ms.Tensor(np.array([0.0, 0.5, 2.0]))
    e = ms.Tensor(np.array([2.5, 3.0, 0.5]))
    gx, ge = ops.grad(lambda b, e: (b ** e).sum(), (0, 1))(base, e)
    b, ee = base.asnumpy(), e.asnumpy()
    np.testing.assert_allclose(gx.asnumpy(), ee * b ** (ee - 1), rtol=1e-14)
    np.testing.assert_allclose(ge.asnumpy(), [0.0, np.log(0.5) * 0.5 ** 3, np.log(2) * 2 ** 0.5],
                               rtol=1e-14)


def test_pow_higher_derivatives_at_zero_are_finite() -> None:
    """The third derivative of x ** 2 reaches x ** 0, whose slope is 0 also at x = 0 (it
    was 0 * 0 ** -1 = NaN); likewise a tensor exponent of 0. Found by the random
    compositions (``(x - y) ** 2`` with x == y)."""
    x = ms.Tensor(np.array([0.0, 1.5, -2.0]))
    third = ops.grad(ops.grad(ops.grad(lambda x: (x ** 2).sum())))(x)
    np.testing.assert_array_equal(third.asnumpy(), [0.0, 0.0, 0.0])
    one = ms.Tensor(np.ones(3))
    _, t3 = ops.jvp(lambda x: ops.jvp(lambda x: ops.jvp(lambda x: x ** 2, x, one)[1], x,
                                      one)[1], x, one)
    np.testing.assert_array_equal(t3.asnumpy(), [0.0, 0.0, 0.0])
    y = ms.Tensor(np.array([0.0, 0.0, 1.0]))
    gx = ops.grad(lambda a, b: (a ** b).sum())(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), [0.0, 0.0, 1.0])
    second = ops.grad(ops.grad(lambda a, b: (a ** b).sum()))(x, ms.Tensor(np.ones(3)))
    np.testing.assert_array_equal(second.asnumpy(), [0.0, 0.0, 0.0])


def test_relu6_and_clip_gradients_at_the_bounds() -> None:
    """relu6 passes the gradient strictly inside (0, 6) (MindSpore's ReLU6Grad); clamp with
    constant bounds passes it where x is unclipped, bounds included (ties go to x, as with
    maximum/minimum), and not at NaN."""
    x = ms.Tensor(np.array([-1.0, 0.0, 3.0, 6.0, 7.0, np.nan], np.float32))
    g = ops.grad(lambda x: ops.relu6(x).sum())(x).asnumpy()
    np.testing.assert_array_equal(g, [0, 0, 1, 0, 0, 0])
    g = ops.grad(lambda x: ops.clamp(x, 0.0, 6.0).sum())(x).asnumpy()
    np.testing.assert_array_equal(g, [0, 1, 1, 1, 0, 0])
    g = ops.grad(lambda x: ops.clamp(x, ms.Tensor(0.0), ms.Tensor(6.0)).sum())(x).asnumpy()
    np.testing.assert_array_equal(g[:5], [0, 1, 1, 1, 0])


NEW_UNARY = [
    ("exp2", ops.exp2, 0.3), ("log2", ops.log2, 1.3), ("log10", ops.log10, 1.3),
    ("relu6", ops.relu6, 0.7), ("leaky_relu", lambda x: ops.leaky_relu(x, 0.2), -0.7),
    ("leaky_relu_big", lambda x: ops.leaky_relu(x, 1.5), -0.7),
    ("leaky_relu_neg", lambda x: ops.leaky_relu(x, -0.5), -0.7),
    ("elu", ops.elu, -0.7), ("elu_alpha", lambda x: ops.elu(x, 0.5), -0.7),
    ("hardswish", ops.hardswish, 0.7), ("mish", ops.mish, 0.4), ("softplus", ops.softplus, -0.4),
    ("clamp", lambda x: ops.clamp(x, -1.0, 1.0), 0.4), ("pow2.5", lambda x: x ** 2.5, 1.3),
    ("pow_tensor", lambda x: ops.pow(x, x * 0.5 + 1), 1.3), ("pow4", lambda x: x ** 4.0, -0.7),
    ("max_min", lambda x: ops.minimum(ops.maximum(x, 0.1), x * x), 0.7),
    ("atan2_div", lambda x: ops.atan2(x, x + 2) / (x + 3), 0.7),
]


@pytest.mark.parametrize("name,f,x0", NEW_UNARY, ids=[u[0] for u in NEW_UNARY])
def test_jet_and_vmap_of_the_new_primitives(name, f, x0) -> None:
    """Taylor rules (parameters bound) agree with nested reverse mode; vmap with a loop."""
    def nested(fn, k):
        for _ in range(k):
            fn = (lambda h: lambda y: ops.grad(lambda z: ops.reduce_sum(h(z)))(y))(fn)
        return fn

    x = ms.Tensor(np.array([x0]))
    order = 3
    _, s = ops.jet(f, x, ms.Tensor(np.array([[1.0]] + [[0.0]] * (order - 1))))
    for k in range(1, order + 1):
        want = nested(f, k)(x).asnumpy().sum()
        np.testing.assert_allclose(s.asnumpy()[k - 1].sum(), want, rtol=1e-8, atol=1e-10,
                                   err_msg=f"{name} order {k}")
    xs = ms.Tensor(np.linspace(-0.9, 0.9, 12).reshape(3, 4) * np.sign(x0) + x0)
    got = ops.vmap(lambda r: ops.grad(lambda z: ops.reduce_sum(f(z)))(r))(xs).asnumpy()
    want = np.stack([ops.grad(lambda z: ops.reduce_sum(f(z)))(xs[i]).asnumpy() for i in range(3)])
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_floor_mod_gradient_follows_mindspore_and_floor_div_has_none() -> None:
    """d(x mod y) = dx - floor(x / y) dy (MindSpore's FloorMod bprop); FloorDiv: zeros. Taylor
    mode and vmap follow the same slopes."""
    x = ms.Tensor(np.array([2.5, -1.7, 4.0]))
    y = ms.Tensor(np.array([1.0, 0.7, -1.5]))
    gx, gy = ops.grad(lambda a, b: (a % b).sum(), (0, 1))(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(gy.asnumpy(), -np.floor(x.asnumpy() / y.asnumpy()))
    dx, dy = ops.grad(lambda a, b: ops.floor_div(a, b).sum(), (0, 1))(x, y)
    assert not dx.asnumpy().any() and not dy.asnumpy().any()
    # along y' = y'' = 1 both derivatives are the slope -floor(x / y) (piecewise linear)
    _, s = ops.jet(lambda b: ops.floor_mod(x, b), y, ms.Tensor(np.ones((2, 3))))
    np.testing.assert_array_equal(s.asnumpy(), [-np.floor(x.asnumpy() / y.asnumpy())] * 2)
    per_row = ops.vmap(ops.grad(lambda b: ops.floor_mod(x, b).sum()))(ms.Tensor(np.stack([y.asnumpy()] * 2)))
    np.testing.assert_array_equal(per_row.asnumpy()[1], gy.asnumpy())


def test_reduce_mean_primitive_jet_vmap_and_integer_inputs() -> None:
    """A float mean is one primitive: its Taylor rule (linear) matches the closed form, vmap
    of its gradient matches a loop, and an integer mean keeps its dtype (as MindSpore's)."""
    x = ms.Tensor(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]))
    # mean over axis 1 of z**2 along a path with z' = z'' = 1: derivatives mean(2 z) and
    # mean(2 z'**2 + 2 z z'') = 2 + mean(2 z)
    _, s = ops.jet(lambda z: ops.mean(z * z, 1), x, ms.Tensor(np.ones((2, 2, 3))))
    np.testing.assert_allclose(s.asnumpy()[0], (2 * x.asnumpy()).mean(1))
    np.testing.assert_allclose(s.asnumpy()[1], (2 * x.asnumpy()).mean(1) + 2.0)
    xs = ms.Tensor(np.arange(24.0).reshape(4, 2, 3) / 7)
    got = ops.vmap(ops.grad(lambda r: ops.mean(r * r, 0).sum()))(xs).asnumpy()
    np.testing.assert_allclose(got, xs.asnumpy())  # d/dr sum(mean(r**2, 0)) = 2 r / 2
    ints = ms.Tensor(np.array([[1, 2], [4, 4]], np.int32))
    m = ops.mean(ints, 1)  # MindSpore keeps an integer mean's dtype (truncated)
    assert m.asnumpy().dtype == np.int32
    np.testing.assert_array_equal(m.asnumpy(), [1, 4])
    h = ms.Tensor(np.array([0.1, 0.2, 0.7], np.float16))
    assert ops.mean(h).asnumpy().dtype == np.float16
    assert ops.mean(h).asnumpy() == np.float16(np.float16(1.0) / 3)


@pytest.mark.parametrize("fn", [lambda x, c: x / c, lambda x, c: ops.maximum(x, c),
                                lambda x, c: ops.atan2(x, c)])
def test_constant_second_operand_gets_no_cotangent_work(fn, monkeypatch) -> None:
    """The second operand's cotangent of div, maximum and atan2 is deferred: with that
    operand constant, the reverse pass runs none of its extra operations (neg / sub), and
    the gradients are unchanged when it is differentiated too."""
    from mindgrad.prims import arith as A

    calls = []
    for prim in (A.neg, A.sub):
        impl = prim.impl
        monkeypatch.setattr(prim, "impl", lambda *a, _impl=impl, **k: calls.append(1) or _impl(*a, **k))
    x = ms.Tensor(np.array([0.5, -2.0, 3.0], np.float32))
    c = ms.Tensor(np.array([1.5, 1.0, 4.0], np.float32))
    gx = ops.grad(lambda a: fn(a, c).sum())(x)
    assert calls == []
    gx2, gc = ops.grad(lambda a, b: fn(a, b).sum(), grad_position=(0, 1))(x, c)
    np.testing.assert_array_equal(gx.asnumpy(), gx2.asnumpy())
    assert calls and np.all(np.isfinite(gc.asnumpy()))


def test_div_no_nan_and_the_2_norm_at_zero() -> None:
    """div_no_nan gives 0 where the divisor is 0 (and a zero derivative there); through it,
    the gradient of the 2-norm at the zero vector is 0 (MindSpore's and PyTorch's subgradient),
    in both modes and over a reduced axis, with no warning."""
    x = ms.Tensor(np.array([-1.0, 0.0, 1.0, 5.0, 6.0], np.float32))
    y = ms.Tensor(np.array([0.0, 0.0, 0.0, 2.0, 3.0], np.float32))
    np.testing.assert_array_equal(ops.div_no_nan(x, y).asnumpy(), [0, 0, 0, 2.5, 2])
    gx, gy = ops.grad(lambda a, b: ops.div_no_nan(a, b).sum(), (0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), [0, 0, 0, 0.5, 1 / 3.0])
    np.testing.assert_allclose(gy.asnumpy(), [0, 0, 0, -1.25, -2 / 3.0])
    z = ms.Tensor(np.zeros(3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(ops.grad(ops.norm)(z).asnumpy(), np.zeros(3))
        _, t = ops.jvp(ops.norm, (z,), (ms.Tensor(np.ones(3)),))
        assert t.asnumpy() == 0.0
        m = ms.Tensor(np.array([[0.0, 0.0], [3.0, 4.0]]))
        g = ops.grad(lambda a: ops.norm(a, dim=1).sum())(m).asnumpy()
        np.testing.assert_allclose(g, [[0, 0], [0.6, 0.8]])
        gg = ms.jit(ops.grad(lambda a: ops.norm(a, dim=1).sum()))(m).asnumpy()
        np.testing.assert_array_equal(gg, g)


def test_norm_ord_0_counts_nonzeros_without_gradient() -> None:
    x = ms.Tensor(np.array([[0.0, 2.0, -0.5], [0.0, 0.0, 3.0]]))
    np.testing.assert_array_equal(ops.norm(x[0], 0).asnumpy(), 2.0)
    np.testing.assert_array_equal(ops.norm(x, 0, dim=1).asnumpy(), [2.0, 1.0])
    assert ops.norm(ms.Tensor(np.array([3.0, 4.0, 12.0], np.float32)), 0).dtype == ms.float32
    for f in (lambda a: ops.norm(a, 0, dim=1).sum(), ms.jit(lambda a: ops.norm(a, 0, dim=0).sum())):
        np.testing.assert_array_equal(ops.grad(f)(x).asnumpy(), np.zeros((2, 3)))


def test_norm_follows_mindspore_table() -> None:
    """Matrix norms of 2-D inputs with ord set and of 2-tuple dims; vector norms otherwise
    (the numbers of MindSpore's documented semantics, NumPy's np.linalg.norm)."""
    x = ms.Tensor(np.arange(12.0).reshape(3, 4) - 5)
    np.testing.assert_allclose(ops.norm(x, 2).asnumpy(), 11.4624012, rtol=1e-7)
    np.testing.assert_allclose(ops.norm(x, 1).asnumpy(), 10.0)
    a = x.asnumpy()
    for o in (None, "fro", "nuc", INF, -INF, 1, -1, 2):
        np.testing.assert_allclose(ops.norm(x, o).asnumpy(), np.linalg.norm(a, o), rtol=1e-12,
                                   err_msg=str(o))
    x3 = ms.Tensor(np.arange(24.0).reshape(2, 3, 4) - 5)
    np.testing.assert_allclose(ops.norm(x3, INF, dim=(1, 2)).asnumpy(), [18.0, 66.0])
    assert ops.norm(x3).shape == () and ops.norm(x3, keepdim=True).shape == (1, 1, 1)
    np.testing.assert_allclose(ops.norm(x3).asnumpy(), np.linalg.norm(x3.asnumpy().ravel()))
    np.testing.assert_allclose(ops.norm(x[0], -INF).asnumpy(), 2.0)  # min |x|, not max
    v = ms.Tensor(np.array([3.0, 4.0, 12.0], np.float32))
    assert [float(ops.norm(v, o).asnumpy()) for o in (None, 1, 0)] == [13.0, 19.0, 3.0]
    assert ops.norm(ms.Tensor(np.ones((2, 2), np.float32)), dtype=ms.float64).dtype == ms.float64
