"""Elementwise functional operators: arithmetic, comparisons and logic, the unary math
functions, the activations (``relu``, ``gelu``, ``softplus``, ...), clipping and selection."""
from __future__ import annotations

import builtins
import math
from typing import Any

from ...core import dtype as mstype
from ...common import dtype_rules as _rules
from ...core.tensor import Tensor
from ...prims import arith as A
from ...prims import compare as C
from ...prims import structural as S
from ...prims import unary as U
from ._args import (_binary, _broadcast_shapes, _check_bounds, _composite, _float_param,
                    _in_dtype, _in_dtype_of, _number, _operand, _public_names, _tensor, _unary,
                    promote_scalar)
from .. import names
from .creation import cast


def _define(row: names.Row) -> None:
    """The function of a row of the name table that has a primitive (``unary_op``,
    ``binary_op``, ``arith_op``), under its name and its aliases."""
    if row.prim is None:
        return
    fn = _unary(row.prim, row.name) if row.kind == "unary" else \
        _binary(row.prim, row.name, promote=row.kind == "arith")
    for name in (row.name, *row.alias):
        globals()[name] = fn
        if "__all__" in globals() and name not in __all__:
            __all__.append(name)


# add, sub, ..., sin, exp, ..., relu: the elementwise operators of the name table
names.each_row(_define)


def pow(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent``; either may be a Python number."""
    x, y = promote_scalar(_operand(input, "pow", "input"), _operand(exponent, "pow", "exponent"))
    rule = _rules.RULES["pow"]
    return A.pow_(_in_dtype_of(x, "pow", "input", rule), _in_dtype_of(y, "pow", "exponent", rule))


power = pow


@_composite
def softplus(input: Any, beta: float = 1, threshold: float = 20) -> Tensor:
    """``log(1 + e^(beta x)) / beta``, and ``x`` itself where ``beta * x > threshold``.

    The default (beta 1, threshold 20) is one primitive computing log(1 + e^x) without
    overflow at every x: above the threshold it differs from x by less than e^-20, which
    MindSpore's linear branch drops."""
    x = _in_dtype(_tensor(input, "softplus", "input"), "softplus")
    for arg, v in (("beta", beta), ("threshold", threshold)):
        if not _number(v):
            raise TypeError(f"For 'softplus', '{arg}' must be an int or a float, but got "
                            f"{type(v).__name__}.")
    if beta == 0:
        raise ValueError("For 'softplus', 'beta' must not be 0.")
    if beta == 1 and threshold == 20:
        return U.softplus(x)
    bx = x if beta == 1 else mul(x, beta)
    soft = U.softplus(bx) if beta == 1 else div(U.softplus(bx), beta)
    return C.select(greater(bx, threshold), x, soft)


def leaky_relu(x: Any, alpha: float = 0.2) -> Tensor:
    """x where x > 0, alpha * x elsewhere."""
    alpha = _float_param(alpha, "leaky_relu", "alpha")
    x = _in_dtype(_tensor(x, "leaky_relu"), "leaky_relu", "x")
    if S.dtype_of(x).kind in "biu":  # MindSpore keeps the dtype: x itself where x > 0
        return C.select(C.greater(x, 0), x, cast(mul(cast(x, mstype.float32), alpha), x.dtype))
    return U.leaky_relu(x, alpha=alpha)


def elu(x: Any, alpha: float = 1.0) -> Tensor:
    """x where x > 0, alpha * (e^x - 1) elsewhere."""
    x = _in_dtype(_tensor(x, "elu"), "elu", "x")
    return A.elu(x, alpha=_float_param(alpha, "elu", "alpha"))


@_composite
def gelu(input: Any, approximate: str = "none") -> Tensor:
    """``x * P(X <= x)`` for a standard normal X (``approximate='none'``), or its tanh
    approximation (``'tanh'``)."""
    x = _in_dtype(_tensor(input, "gelu", "input"), "gelu")
    if approximate not in ("none", "tanh"):
        raise ValueError(f"For 'gelu', 'approximate' must be 'none' or 'tanh', but got "
                         f"{approximate!r}.")
    if approximate == "tanh":
        inner = mul(math.sqrt(2 / math.pi), add(x, mul(0.044715, pow(x, 3))))
        return mul(mul(0.5, x), add(1, tanh(inner)))
    return mul(mul(0.5, x), add(1, erf(div(x, math.sqrt(2.0)))))


@_composite
def silu(x: Any) -> Tensor:
    x = _in_dtype(_tensor(x, "silu"), "silu", "x")
    return mul(x, sigmoid(x))


@_composite
def mish(x: Any) -> Tensor:
    x = _in_dtype(_tensor(x, "mish"), "mish", "x")
    return mul(x, tanh(softplus(x)))


def hardswish(x: Any) -> Tensor:
    """``x * relu6(x + 3) / 6``, one primitive."""
    x = _in_dtype(_tensor(x, "hardswish"), "hardswish", "x")
    if S.dtype_of(x).kind in "iu":  # MindSpore keeps an integer dtype (truncating)
        return cast(U.hswish(cast(x, mstype.float64)), x.dtype)
    return U.hswish(x)


@_composite
def clamp(x: Any, min: Any = None, max: Any = None) -> Tensor:
    """Clip ``x`` to ``[min, max]``; either bound may be None."""
    x = _tensor(x, "clamp")
    if min is None and max is None:
        raise ValueError("For 'clamp', at least one of 'min' and 'max' must be given.")
    _check_bounds("clamp", x, ("min", min), ("max", max))
    if (min is None or _number(min)) and (max is None or _number(max)) \
            and S.dtype_of(x).kind == "f":
        # constant bounds: one primitive (np.clip); the gradient passes where x is unclipped
        return U.clip(x, lo=None if min is None else float(min),
                      hi=None if max is None else float(max))
    # Tensor bounds: x keeps the gradient at a bound, and a bound gets it only where it
    # strictly clips, as in MindSpore (clip_by_value splits ties instead)
    out = x
    if min is not None:
        out = C.select(C.less(out, min), min, out)
    if max is not None:
        out = C.select(C.greater(out, max), max, out)
    return out


clip = clamp


def clip_by_value(x: Any, clip_value_min: Any = None, clip_value_max: Any = None, *,
                  min: Any = None, max: Any = None) -> Any:
    """Clip ``x`` (a Tensor, or a list or tuple of Tensors) to ``[clip_value_min,
    clip_value_max]``; either bound may be None. Where min > max every element is max.
    ``min`` and ``max`` (clamp's names, which this function once took) still work."""
    clip_value_min = min if clip_value_min is None else clip_value_min
    clip_value_max = max if clip_value_max is None else clip_value_max
    if isinstance(x, (tuple, list)) and x and builtins.all(isinstance(t, Tensor) for t in x):
        return type(x)(clip_by_value(t, clip_value_min, clip_value_max) for t in x)
    if clip_value_min is None and clip_value_max is None:
        raise ValueError("For 'clip_by_value', at least one of 'clip_value_min' and "
                         "'clip_value_max' must be given.")
    return _clip_by_value(x, clip_value_min, clip_value_max)


@_composite(name="clip_by_value")
def _clip_by_value(x: Any, lo: Any, hi: Any) -> Tensor:
    """maximum then minimum: a tie with a bound shares the gradient, as in MindSpore."""
    out = _tensor(x, "clip_by_value")
    _check_bounds("clip_by_value", out, ("clip_value_min", lo), ("clip_value_max", hi))
    if (lo is None or _number(lo)) and (hi is None or _number(hi)) \
            and S.dtype_of(out).kind == "f":
        # constant bounds: one primitive, with the composition's gradient
        return U.clip_split(out, lo=None if lo is None else float(lo),
                            hi=None if hi is None else float(hi))
    if lo is not None:
        out = maximum(out, lo)
    if hi is not None:
        out = minimum(out, hi)
    return out


def select(cond: Any, x: Any, y: Any) -> Tensor:
    """Elements of ``x`` where ``cond`` holds, of ``y`` elsewhere."""
    c = _tensor(cond, "select", "cond")
    if c.dtype != mstype.bool_:
        raise TypeError(f"For 'select', 'cond' must be a bool Tensor, but got {c.dtype}.")
    return C.select(c, _operand(x, "select", "x"), _operand(y, "select", "y"))


def where(condition: Any, x: Any, y: Any) -> Tensor:
    return select(condition, x, y)


@_composite
def isclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """Where ``|input - other| <= atol + rtol * |other|`` (as np.isclose): infinities of
    the same sign are close, NaNs only with ``equal_nan``."""
    x = _tensor(input, "isclose", "input")
    y = _tensor(other, "isclose", "other")
    _broadcast_shapes("isclose", ("input", x), ("other", y))
    if x.dtype != y.dtype:
        raise TypeError(f"For 'isclose', 'input' and 'other' must have the same dtype, but "
                        f"got {x.dtype} and {y.dtype}.")
    if not isinstance(equal_nan, bool):
        raise TypeError(f"For 'isclose', 'equal_nan' must be bool, but got "
                        f"{type(equal_nan).__name__}.")
    same = equal(x, y)
    # equal elements (infinities included: inf - inf would warn) count as a zero difference
    diff = abs(sub(select(same, 0, x), select(same, 0, y)))
    within = logical_and(less_equal(diff, add(atol, mul(rtol, abs(y)))), isfinite(diff))
    close = logical_or(same, within)
    if equal_nan:
        close = logical_or(close, logical_and(isnan(x), isnan(y)))
    return close


__all__ = _public_names(globals())
