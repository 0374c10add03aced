"""Elementwise arithmetic and mathematical functions: the unary functions of one tensor
(``sin``, ``exp``, ``sqrt`` ...), the binary ones with broadcasting (``add``, ``power``,
``arctan2`` ...), rounding, integer arithmetic (``gcd``, ``lcm``, bitwise) and ``clip``.

Each takes MindSpore's optional ``dtype`` for its result. Transcendental functions of
integer or bool input compute in float32 (MindSpore's default float type)."""
from __future__ import annotations

import math as _math
from typing import Any, Callable

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from .. import ops
from ._utils import as_float, common, is_float, operand, operands, to_tensor, with_dtype

__all__ = ["absolute", "abs", "fabs", "negative", "positive", "sign", "square", "sqrt", "cbrt",
           "reciprocal", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin",
           "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
           "arccosh", "arctanh", "deg2rad", "radians", "rad2deg", "ceil", "floor", "trunc",
           "fix", "rint", "add", "subtract", "multiply", "divide", "true_divide",
           "floor_divide", "power", "float_power", "mod", "remainder", "fmod", "divmod",
           "maximum", "minimum", "arctan2", "hypot", "copysign", "heaviside", "logaddexp",
           "logaddexp2", "gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor",
           "bitwise_not", "invert", "clip"]


def _unary(name: str, fn: Callable, doc: str, floats: bool = True) -> Callable:
    """A ``name(x, dtype=None)`` applying ``fn``; with ``floats``, integer input is computed
    in float32."""
    def f(x: Any, dtype: Any = None) -> Tensor:
        t = to_tensor(x, name, "x")
        if floats:
            t = as_float(t)
        return with_dtype(fn(t), dtype, name)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


def _binary(name: str, fn: Callable, doc: str, floats: bool = False,
            scalar_to_tensor_dtype: bool = False) -> Callable:
    """A ``name(x1, x2, dtype=None)`` applying ``fn`` with broadcasting to the operands
    promoted as MindSpore's module does (``operands``)."""
    def f(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
        a, b = operands(x1, x2, name, scalar_to_tensor_dtype)
        if floats:
            a = as_float(a) if isinstance(a, Tensor) else float(a)
            b = as_float(b) if isinstance(b, Tensor) else float(b)
        return with_dtype(fn(a, b), dtype, name)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


def _cbrt(t: Tensor) -> Tensor:
    return ops.sign(t) * ops.pow(ops.abs(t), 1.0 / 3.0)


def _sign(t: Tensor) -> Tensor:
    # MindSpore's numpy sign gives float32 for integer input
    return ops.sign(as_float(t))


def _exp2(t: Tensor) -> Tensor:
    if is_float(t):
        return ops.exp2(t)
    # MindSpore's numpy keeps an integer input's dtype (negative powers truncate to 0)
    return ops.trunc(ops.exp2(t.astype(mstype.float32))).astype(t.dtype)


def _copysign(a: Any, b: Any) -> Tensor:
    out = ops.copysign(as_float(a) if isinstance(a, Tensor) else float(a),
                       as_float(b) if isinstance(b, Tensor) else float(b))
    if isinstance(a, Tensor) and a.dtype.np_dtype.kind in "iu":
        return out.astype(a.dtype)  # MindSpore keeps an integer magnitude's dtype
    return out


def _reciprocal(t: Tensor) -> Tensor:
    if is_float(t):
        return ops.reciprocal(t)
    # integer reciprocal keeps the dtype and truncates, as MindSpore's does
    return ops.trunc(ops.reciprocal(t.astype(mstype.float32))).astype(t.dtype)


absolute = _unary("absolute", ops.abs, "The elementwise absolute value.", floats=False)
abs = _unary("abs", ops.abs,  # noqa: A001  (MindSpore's name)
             "The elementwise absolute value (``absolute``).", floats=False)
fabs = _unary("fabs", ops.abs, "The elementwise absolute value (integers stay integers, as "
              "in MindSpore).", floats=False)
def negative(a: Any, dtype: Any = None) -> Tensor:
    """The elementwise negation."""
    return with_dtype(ops.neg(to_tensor(a, "negative", "a")), dtype, "negative")


def positive(a: Any, dtype: Any = None) -> Tensor:
    """A copy of the input (``+a``)."""
    return with_dtype(to_tensor(a, "positive", "a").copy(), dtype, "positive")
sign = _unary("sign", _sign, "-1, 0 or 1 by the sign of each element (float32 for integers).",
              floats=False)
square = _unary("square", ops.square, "The elementwise square.", floats=False)
sqrt = _unary("sqrt", ops.sqrt, "The elementwise non-negative square root.")
cbrt = _unary("cbrt", _cbrt, "The elementwise real cube root.")
reciprocal = _unary("reciprocal", _reciprocal, "The elementwise ``1 / x``.", floats=False)
exp = _unary("exp", ops.exp, "The elementwise exponential.")
exp2 = _unary("exp2", _exp2, "The elementwise ``2 ** x`` (integers stay integers).",
              floats=False)
expm1 = _unary("expm1", ops.expm1, "The elementwise ``exp(x) - 1``, exact for small x.")
log = _unary("log", ops.log, "The elementwise natural logarithm.")
log2 = _unary("log2", ops.log2, "The elementwise base-2 logarithm.")
log10 = _unary("log10", ops.log10, "The elementwise base-10 logarithm.")
log1p = _unary("log1p", ops.log1p, "The elementwise ``log(1 + x)``, exact for small x.")
sin = _unary("sin", ops.sin, "The elementwise sine.")
cos = _unary("cos", ops.cos, "The elementwise cosine.")
tan = _unary("tan", ops.tan, "The elementwise tangent.")
arcsin = _unary("arcsin", ops.asin, "The elementwise inverse sine.")
arctan = _unary("arctan", ops.atan, "The elementwise inverse tangent.")
sinh = _unary("sinh", ops.sinh, "The elementwise hyperbolic sine.")
cosh = _unary("cosh", ops.cosh, "The elementwise hyperbolic cosine.")
tanh = _unary("tanh", ops.tanh, "The elementwise hyperbolic tangent.")
arcsinh = _unary("arcsinh", ops.asinh, "The elementwise inverse hyperbolic sine.")
arccosh = _unary("arccosh", ops.acosh, "The elementwise inverse hyperbolic cosine.")
arctanh = _unary("arctanh", ops.atanh, "The elementwise inverse hyperbolic tangent.")
deg2rad = _unary("deg2rad", lambda t: t * (_math.pi / 180.0), "Degrees to radians.")
radians = _unary("radians", lambda t: t * (_math.pi / 180.0), "Degrees to radians.")
rad2deg = _unary("rad2deg", lambda t: t * (180.0 / _math.pi), "Radians to degrees.")
ceil = _unary("ceil", ops.ceil, "The elementwise ceiling.")
floor = _unary("floor", ops.floor, "The elementwise floor.")
trunc = _unary("trunc", ops.trunc, "Each element rounded toward zero.")
rint = _unary("rint", ops.round, "Each element rounded to the nearest integer (ties to even).")


def arccos(input: Any, dtype: Any = None) -> Tensor:  # noqa: A002  (MindSpore's name)
    """The elementwise inverse cosine."""
    return with_dtype(ops.acos(as_float(to_tensor(input, "arccos", "input"))), dtype, "arccos")


def fix(x: Any) -> Tensor:
    """Each element rounded toward zero, as a float."""
    return ops.trunc(as_float(to_tensor(x, "fix", "x")))


add = _binary("add", ops.add, "The elementwise sum ``x1 + x2``.")
subtract = _binary("subtract", ops.sub, "The elementwise difference ``x1 - x2``.")
multiply = _binary("multiply", ops.mul, "The elementwise product ``x1 * x2``.")
divide = _binary("divide", ops.div, "The elementwise true quotient ``x1 / x2``.")
true_divide = _binary("true_divide", ops.div, "The elementwise true quotient ``x1 / x2``.")
floor_divide = _binary("floor_divide", ops.floor_divide, "The elementwise ``x1 // x2``.")
power = _binary("power", ops.pow, "The elementwise ``x1 ** x2``.")
float_power = _binary("float_power", ops.pow,
                      "The elementwise ``x1 ** x2`` in floating point (integers as float32; "
                      "MindSpore keeps float32, where NumPy computes in float64).",
                      floats=True)
mod = _binary("mod", ops.remainder,
              "The elementwise remainder of floor division (the sign of ``x2``).")
remainder = _binary("remainder", ops.remainder,
                    "The elementwise remainder of floor division (the sign of ``x2``).")
fmod = _binary("fmod", ops.fmod, "The elementwise remainder of truncated division (the sign "
               "of ``x1``).")
def _larger(a: Tensor, b: Tensor) -> Tensor:
    if a.dtype == mstype.bool_ and b.dtype == mstype.bool_:
        return ops.logical_or(a, b)
    return ops.maximum(a, b)


def _smaller(a: Tensor, b: Tensor) -> Tensor:
    if a.dtype == mstype.bool_ and b.dtype == mstype.bool_:
        return ops.logical_and(a, b)
    return ops.minimum(a, b)


maximum = _binary("maximum", _larger, "The elementwise larger value (a Python number "
                  "is first cast to the Tensor's dtype, as in MindSpore).",
                  scalar_to_tensor_dtype=True)
minimum = _binary("minimum", _smaller, "The elementwise smaller value (a Python number "
                  "is first cast to the Tensor's dtype, as in MindSpore).",
                  scalar_to_tensor_dtype=True)
arctan2 = _binary("arctan2", ops.atan2, "The elementwise angle of the point ``(x2, x1)``.",
                  floats=True)
hypot = _binary("hypot", ops.hypot, "The elementwise ``sqrt(x1**2 + x2**2)``.", floats=True)


def copysign(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The magnitude of ``x1`` with the sign of ``x2`` (of ``x1``'s dtype when it is an
    integer Tensor, as in MindSpore)."""
    a, b = operand(x1, "copysign", "x1"), operand(x2, "copysign", "x2")
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = to_tensor(a, "copysign", "x1")
    return with_dtype(_copysign(a, b), dtype, "copysign")


def _heaviside(a: Any, b: Any) -> Tensor:
    out = ops.heaviside(as_float(a) if isinstance(a, Tensor) else float(a),
                        as_float(b) if isinstance(b, Tensor) else float(b))
    ref = a if isinstance(a, Tensor) else b
    other = b if isinstance(a, Tensor) else a
    if isinstance(other, float) and not is_float(ref):
        return out  # an integer Tensor with a Python float: float32
    # otherwise the result keeps the (promoted) input dtype, integers and bools included
    return out if out.dtype == ref.dtype else out.astype(ref.dtype)


heaviside = _binary("heaviside", _heaviside,
                    "The Heaviside step of ``x1``; ``x2`` where ``x1`` is zero (of the "
                    "inputs' dtype).")
logaddexp = _binary("logaddexp", ops.logaddexp, "The elementwise ``log(exp(x1) + exp(x2))``.",
                    floats=True)
logaddexp2 = _binary("logaddexp2", ops.logaddexp2,
                     "The elementwise ``log2(2**x1 + 2**x2)``.", floats=True)


def divmod(x1: Any, x2: Any, dtype: Any = None) -> tuple:  # noqa: A001  (MindSpore's name)
    """``(floor_divide(x1, x2), mod(x1, x2))``."""
    return floor_divide(x1, x2, dtype), mod(x1, x2, dtype)


def _int_pair(x1: Any, x2: Any, op: str) -> tuple:
    a, b = to_tensor(x1, op, "x1"), to_tensor(x2, op, "x2")
    for t, arg in ((a, "x1"), (b, "x2")):
        if t.dtype.np_dtype.kind not in "iu":
            raise TypeError(f"For '{op}', '{arg}' must be an integer tensor, but got "
                            f"{t.dtype}.")
    dt = mstype.from_numpy(np.promote_types(a.dtype.np_dtype, b.dtype.np_dtype))
    shape = np.broadcast_shapes(a.shape, b.shape)
    return ops.broadcast_to(a.astype(dt), shape), ops.broadcast_to(b.astype(dt), shape)


def _gcd(a: Tensor, b: Tensor) -> Tensor:
    a, b = ops.abs(a), ops.abs(b)
    zero = ops.zeros_like(b)
    # Euclid's algorithm takes fewer steps than the index of the first Fibonacci number
    # above the largest value; 92 steps cover every 64-bit integer
    steps = 47 if a.dtype.np_dtype.itemsize <= 4 else 92
    for _ in range(steps):
        nz = ops.ne(b, zero)
        safe = ops.where(nz, b, ops.ones_like(b))
        a, b = ops.where(nz, b, a), ops.where(nz, ops.remainder(a, safe), zero)
    return a


def gcd(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The elementwise greatest common divisor of integers (``gcd(0, 0)`` is 0)."""
    a, b = _int_pair(x1, x2, "gcd")
    return with_dtype(_gcd(a, b), dtype, "gcd")


def lcm(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """The elementwise least common multiple of integers (0 if either is 0)."""
    a, b = _int_pair(x1, x2, "lcm")
    g = _gcd(a, b)
    safe = ops.where(ops.eq(g, ops.zeros_like(g)), ops.ones_like(g), g)
    return with_dtype(ops.abs(ops.floor_divide(a, safe) * b), dtype, "lcm")


def _bitwise(name: str, fn: Callable, logical: Callable) -> Callable:
    def f(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
        a, b = to_tensor(x1, name, "x1"), to_tensor(x2, name, "x2")
        for t, arg in ((a, "x1"), (b, "x2")):
            if t.dtype.np_dtype.kind not in "iub":
                raise TypeError(f"For '{name}', '{arg}' must be an integer or bool tensor, "
                                f"but got {t.dtype}.")
        if a.dtype == mstype.bool_ and b.dtype == mstype.bool_:
            return with_dtype(logical(a, b), dtype, name)
        return with_dtype(fn(*common([a, b])), dtype, name)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"The elementwise {name.split('_')[1].upper()} of the bits of integers."
    return f


bitwise_and = _bitwise("bitwise_and", ops.bitwise_and, ops.logical_and)
bitwise_or = _bitwise("bitwise_or", ops.bitwise_or, ops.logical_or)
bitwise_xor = _bitwise("bitwise_xor", ops.bitwise_xor, ops.logical_xor)


def invert(x: Any, dtype: Any = None) -> Tensor:
    """The elementwise bitwise NOT of integers (logical NOT of bools)."""
    t = to_tensor(x, "invert", "x")
    kind = t.dtype.np_dtype.kind
    if kind == "b":
        return with_dtype(ops.logical_not(t), dtype, "invert")
    if kind not in "iu":
        raise TypeError(f"For 'invert', 'x' must be an integer or bool tensor, but got "
                        f"{t.dtype}.")
    ones = Tensor(np.array(-1).astype(t.dtype.np_dtype))
    return with_dtype(ops.bitwise_xor(t, ones), dtype, "invert")


def bitwise_not(x: Any, dtype: Any = None) -> Tensor:
    """The elementwise bitwise NOT of integers (``invert``)."""
    return invert(x, dtype)


def clip(x: Any, xmin: Any, xmax: Any, dtype: Any = None) -> Tensor:
    """``x`` limited to ``[xmin, xmax]`` (either bound may be None, not both)."""
    if xmin is None and xmax is None:
        raise ValueError("For 'clip', 'xmin' and 'xmax' cannot both be None.")
    t = to_tensor(x, "clip", "x")
    lo = None if xmin is None else operand(xmin, "clip", "xmin")
    hi = None if xmax is None else operand(xmax, "clip", "xmax")
    out = ops.clip(t, lo, hi)
    if dtype is None and not is_float(t) and out.dtype != t.dtype:
        out = out.astype(t.dtype)
    return with_dtype(out, dtype, "clip")
