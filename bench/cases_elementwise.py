"""Benchmark cases for the elementwise operators: arithmetic with and without broadcasting,
the unary math functions, activations, piecewise and rounding operators, and selection.
Every input is float32 512x512 (a broadcasting operand is 512), inside the operator's domain.

Each reference is the forward and backward a NumPy programmer would write by hand for speed:
derivatives from the output where that saves work (exp, tanh, sigmoid, sqrt, softplus), one
division where the derivative is a reciprocal (log, atan, ...), the second cotangent of a
selection as ``g - first`` (maximum, where)."""
from __future__ import annotations

import math

import numpy as np
from scipy.special import erf, erfc  # pip install -e '.[bench]'

from opbench import F32, T, Case, normal, normals, ones_cot, sigmoid, unary, uniform
from mindgrad import ops

S = "512x512"
S2 = "512x512 (2)"
SB = "512x512, 512"
LN2, LN10 = F32(math.log(2.0)), F32(math.log(10.0))
TWO_OVER_SQRT_PI = F32(2 / math.sqrt(math.pi))


# --- inputs -------------------------------------------------------------------------------------
def pair(make_x, make_y):
    """Two inputs from two input makers (their first arrays)."""
    return lambda rng: ([make_x(rng)[0][0], make_y(rng)[0][0]], {})


def away0(*shape, lo=0.5, hi=2.0):
    """|x| in [lo, hi) with a random sign (divisors, atan2's second argument)."""
    return lambda rng: ([(rng.uniform(lo, hi, shape) * rng.choice([-1, 1], shape)).astype(F32)],
                        {})


NX = normal(512, 512)
NB = normal(512)
POS = uniform(0.5, 2.0, 512, 512)


# --- references: binary arithmetic ---------------------------------------------------------------
def _sum0(gb, b):
    """The cotangent of a broadcast operand: summed over the broadcast (leading) axis."""
    return gb if gb.shape == b.shape else gb.sum(0)


def ref_add(a, b, cot=ones_cot):
    y = a + b
    g = cot(y)
    return (y * g).sum(), [g, _sum0(g, b)]


def ref_sub(a, b, cot=ones_cot):
    y = a - b
    g = cot(y)
    return (y * g).sum(), [g, _sum0(-g, b)]


def ref_mul(a, b, cot=ones_cot):
    y = a * b
    g = cot(y)
    return (y * g).sum(), [g * b, _sum0(g * a, b)]


def ref_div(a, b, cot=ones_cot):
    y = a / b
    g = cot(y)
    ga = g / b
    return (y * g).sum(), [ga, _sum0(-(ga * y), b)]


def ref_pow(x, e, cot=ones_cot):
    y = x ** e
    g = cot(y)
    gy = g * y
    return (y * g).sum(), [gy * e / x, gy * np.log(x)]  # x > 0 here


def ref_pow3(x, cot=ones_cot):
    y = x ** 3.0
    g = cot(y)
    return (y * g).sum(), [3.0 * (x * x) * g]


def ref_pow25(x, cot=ones_cot):
    y = x ** 2.5
    g = cot(y)
    return (y * g).sum(), [2.5 * (y / x) * g]  # x > 0 here


def ref_atan2(a, b, cot=ones_cot):
    y = np.arctan2(a, b)
    g = cot(y)
    r = g / (a * a + b * b)
    return (y * g).sum(), [r * b, -(r * a)]


# Backward passes take a product with the boolean mask, not np.where(mask, g, 0): np.where
# branches per element and takes about 1 ms on an irregular 512x512 mask here, ten times more.
def ref_maximum(a, b, cot=ones_cot):
    y = np.maximum(a, b)
    g = cot(y)
    ga = g * (a >= b)
    return (y * g).sum(), [ga, _sum0(g - ga, b)]


def ref_minimum(a, b, cot=ones_cot):
    y = np.minimum(a, b)
    g = cot(y)
    ga = g * (a <= b)
    return (y * g).sum(), [ga, _sum0(g - ga, b)]


def ref_where(a, b, cond, cot=ones_cot):
    y = np.where(cond, a, b)
    g = cot(y)
    ga = g * cond
    return (y * g).sum(), [ga, g - ga]


def ref_clamp(x, cot=ones_cot):
    y = np.clip(x, F32(-1), F32(1))
    g = cot(y)
    return (y * g).sum(), [g * (y == x)]  # the gradient passes where x is unclipped


def zero_grad(fn):
    """Rounding and integer-division operators: piecewise constant, zero gradients."""
    def ref(*xs, cot=ones_cot):
        y = fn(*xs)
        g = cot(y)
        return (y * g).sum(), [np.zeros_like(x) for x in xs]
    return ref


def ref_floor_mod(a, b, cot=ones_cot):
    """MindSpore's FloorMod gradient: g for a, -g * floor(a / b) for b (divmod gives both)."""
    q, y = np.divmod(a, b)
    g = cot(y)
    return (y * g).sum(), [g, -(g * q)]


# --- references: unary functions whose backward is a division -----------------------------------
def quotient(f, den):
    """``y = f(x)``, ``dx = g / den(x, y)``."""
    def ref(x, cot=ones_cot):
        y = f(x)
        g = cot(y)
        return (y * g).sum(), [g / den(x, y)]
    return ref


def ref_softplus(x, cot=ones_cot):
    y = np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))
    g = cot(y)
    return (y * g).sum(), [g * -np.expm1(-y)]  # sigmoid(x) = 1 - exp(-softplus(x))


def ref_relu(x, cot=ones_cot):
    y = np.maximum(x, 0)
    g = cot(y)
    return (y * g).sum(), [g * (x > 0)]


def ref_relu6(x, cot=ones_cot):
    y = np.clip(x, F32(0), F32(6))
    g = cot(y)
    return (y * g).sum(), [g * ((x > 0) & (x < 6))]


def ref_neg(x, cot=ones_cot):
    y = -x
    g = cot(y)
    return (y * g).sum(), [-g]


def _ref_erf(f, c):
    def ref(x, cot=ones_cot):
        y = f(x)
        g = cot(y)
        return (y * g).sum(), [g * (c * np.exp(-(x * x)))]
    return ref


def ref_sigmoid(x, cot=ones_cot):
    y = sigmoid(x)
    g = cot(y)
    return (y * g).sum(), [g * (y * (1 - y))]


# --- inputs for the piecewise and selection cases -------------------------------------------------
def with_cond(rng):
    a, b = (rng.standard_normal((512, 512)).astype(F32) for _ in range(2))
    return [a, b], {"cond": rng.random((512, 512)) < 0.5}


def spread(rng):
    """Values in [-8, 8): both sides of every kink of relu6 and clamp."""
    return [rng.uniform(-8, 8, (512, 512)).astype(F32)], {}


CASES = [
    # arithmetic, same shapes and broadcasting a row
    Case("add", S2, normals(2, 512, 512), ops.add, ref_add),
    Case("add (broadcast)", SB, pair(NX, NB), ops.add, ref_add),
    Case("sub", S2, normals(2, 512, 512), ops.sub, ref_sub),
    Case("sub (broadcast)", SB, pair(NX, NB), ops.sub, ref_sub),
    Case("mul", S2, normals(2, 512, 512), ops.mul, ref_mul),
    Case("mul (broadcast)", SB, pair(NX, NB), ops.mul, ref_mul),
    Case("div", S2, pair(NX, away0(512, 512)), ops.div, ref_div),
    Case("div (broadcast)", SB, pair(NX, away0(512)), ops.div, ref_div),
    Case("neg", S, NX, ops.neg, ref_neg),
    unary("square", S, NX, ops.square, np.square, lambda x, y: 2 * x),
    Case("pow (tensor exponent)", S2, pair(POS, uniform(-1.5, 1.5, 512, 512)), ops.pow, ref_pow),
    Case("pow (x ** 3.0)", S, NX, lambda x: ops.pow(x, 3.0), ref_pow3),
    Case("pow (x ** 2.5)", S, POS, lambda x: ops.pow(x, 2.5), ref_pow25),
    Case("atan2", S2, pair(NX, away0(512, 512)), ops.atan2, ref_atan2),
    Case("maximum", S2, normals(2, 512, 512), ops.maximum, ref_maximum),
    Case("maximum (broadcast)", SB, pair(NX, NB), ops.maximum, ref_maximum),
    Case("minimum", S2, normals(2, 512, 512), ops.minimum, ref_minimum),
    Case("clip_by_value [-1, 1]", S, NX, lambda x: ops.clip_by_value(x, -1.0, 1.0), ref_clamp),
    Case("where (bool mask)", S2, with_cond,
         lambda a, b, cond: ops.where(T(cond), a, b), ref_where),
    # unary
    unary("abs", S, NX, ops.abs, np.abs, lambda x, y: np.sign(x)),
    unary("sqrt", S, POS, ops.sqrt, np.sqrt, lambda x, y: 0.5 / y),
    unary("rsqrt", S, POS, ops.rsqrt, lambda x: 1 / np.sqrt(x), lambda x, y: -0.5 * y / x),
    unary("reciprocal", S, away0(512, 512), ops.reciprocal, np.reciprocal, lambda x, y: -(y * y)),
    unary("exp", S, NX, ops.exp, np.exp, lambda x, y: y),
    unary("exp2", S, NX, ops.exp2, np.exp2, lambda x, y: LN2 * y),
    unary("expm1", S, NX, ops.expm1, np.expm1, lambda x, y: y + 1),
    Case("log", S, POS, ops.log, quotient(np.log, lambda x, y: x)),
    Case("log2", S, POS, ops.log2, quotient(np.log2, lambda x, y: LN2 * x)),
    Case("log10", S, POS, ops.log10, quotient(np.log10, lambda x, y: LN10 * x)),
    Case("log1p", S, uniform(-0.5, 2.0, 512, 512), ops.log1p,
         quotient(np.log1p, lambda x, y: x + 1)),
    unary("sin", S, NX, ops.sin, np.sin, lambda x, y: np.cos(x)),
    unary("cos", S, NX, ops.cos, np.cos, lambda x, y: -np.sin(x)),
    unary("tan", S, uniform(-1.2, 1.2, 512, 512), ops.tan, np.tan, lambda x, y: 1 + y * y),
    Case("asin", S, uniform(-0.9, 0.9, 512, 512), ops.asin,
         quotient(np.arcsin, lambda x, y: np.sqrt(1 - x * x))),
    Case("acos", S, uniform(-0.9, 0.9, 512, 512), ops.acos,
         quotient(np.arccos, lambda x, y: -np.sqrt(1 - x * x))),
    Case("atan", S, NX, ops.atan, quotient(np.arctan, lambda x, y: 1 + x * x)),
    unary("sinh", S, NX, ops.sinh, np.sinh, lambda x, y: np.cosh(x)),
    unary("cosh", S, NX, ops.cosh, np.cosh, lambda x, y: np.sinh(x)),
    unary("tanh", S, NX, ops.tanh, np.tanh, lambda x, y: 1 - y * y),
    Case("asinh", S, NX, ops.asinh, quotient(np.arcsinh, lambda x, y: np.sqrt(x * x + 1))),
    Case("acosh", S, uniform(1.1, 3.0, 512, 512), ops.acosh,
         quotient(np.arccosh, lambda x, y: np.sqrt(x * x - 1))),
    Case("atanh", S, uniform(-0.9, 0.9, 512, 512), ops.atanh,
         quotient(np.arctanh, lambda x, y: 1 - x * x)),
    Case("erf", S, NX, ops.erf, _ref_erf(erf, TWO_OVER_SQRT_PI)),
    Case("erfc", S, NX, ops.erfc, _ref_erf(erfc, -TWO_OVER_SQRT_PI)),
    Case("sigmoid", S, NX, ops.sigmoid, ref_sigmoid),
    Case("softplus", S, NX, ops.softplus, ref_softplus),
    Case("relu", S, NX, ops.relu, ref_relu),
    Case("relu6", S, spread, ops.relu6, ref_relu6),
    # piecewise constant: zero gradients
    Case("sign", S, NX, ops.sign, zero_grad(np.sign)),
    Case("floor", S, spread, ops.floor, zero_grad(np.floor)),
    Case("ceil", S, spread, ops.ceil, zero_grad(np.ceil)),
    Case("round", S, spread, ops.round, zero_grad(np.round)),
    Case("mod (floor_mod)", S2, pair(spread, away0(512, 512)), ops.floor_mod, ref_floor_mod),
    Case("floor_div", S2, pair(spread, away0(512, 512)), ops.floor_div,
         zero_grad(np.floor_divide)),
]
