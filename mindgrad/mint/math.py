"""``mindspore.mint``'s elementwise functions: the unary ones of one tensor ``input`` and the
binary ones of ``input`` and ``other`` (broadcasting), comparisons and logical functions.

Each is a new spelling of a mindgrad operator (``ops``), so it keeps its dtype rules and is
differentiable; the table ``_UNARY``/``_BINARY`` names the operator behind each mint name."""
from __future__ import annotations

from typing import Any, Callable

from .. import ops
from ..core import dtype as mstype
from ..core.mutation import rebind
from ..numpy import math as numpy_math
from ._utils import tensor_arg

# mint name -> the ops function computing it on one tensor ``input``
_UNARY = {
    "abs": "abs", "neg": "neg", "negative": "neg", "sign": "sign", "square": "square",
    "sqrt": "sqrt", "rsqrt": "rsqrt", "reciprocal": "reciprocal", "exp": "exp",
    "exp2": "exp2", "expm1": "expm1", "log": "log", "log2": "log2", "log10": "log10",
    "log1p": "log1p", "sin": "sin", "cos": "cos", "tan": "tan", "asin": "asin",
    "acos": "acos", "atan": "atan", "arcsin": "asin", "arccos": "acos", "arctan": "atan",
    "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "asinh", "acosh": "acosh",
    "atanh": "atanh", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
    "sinc": "sinc", "erf": "erf", "erfc": "erfc", "ceil": "ceil", "floor": "floor",
    "frac": "frac", "sigmoid": "sigmoid", "isfinite": "isfinite", "isinf": "isinf",
    "isnan": "isnan", "isneginf": "isneginf", "logical_not": "logical_not",
    "inverse": "inverse", "trace": "trace", "ravel": None,
}

# mint name -> the ops function computing it on ``input`` and ``other``
_BINARY = {
    "sub": None, "mul": "mul", "maximum": "maximum", "minimum": "minimum",
    "atan2": "atan2", "arctan2": "atan2",
    "fmod": "fmod", "remainder": "remainder", "floor_divide": "floor_divide",
    "logaddexp": "logaddexp", "logaddexp2": "logaddexp2", "xlogy": "xlogy",
    "eq": "eq", "ne": "ne", "not_equal": "ne", "gt": "gt", "greater": "gt",
    "ge": "ge", "greater_equal": "ge", "lt": "lt", "less": "lt", "le": "le",
    "less_equal": "le", "logical_and": "logical_and", "logical_or": "logical_or",
    "logical_xor": "logical_xor", "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or",
    "bitwise_xor": "bitwise_xor", "matmul": "matmul",
    "dot": "dot", "outer": None, "mv": None,
}


def _make_unary(name: str, op: Callable) -> Callable:
    def f(input: Any) -> Any:  # noqa: A002 - MindSpore's argument name
        return op(input)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``mint.{name}(input)``: elementwise ``ops.{op.__name__}`` of ``input``."
    return f


def _make_binary(name: str, op: Callable) -> Callable:
    def f(input: Any, other: Any) -> Any:  # noqa: A002
        return op(input, other)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``mint.{name}(input, other)``: ``ops.{op.__name__}`` of ``input`` and "
                 "``other`` (broadcasting).")
    return f


for _name, _op in _UNARY.items():
    if _op is not None:
        globals()[_name] = _make_unary(_name, getattr(ops, _op))
for _name, _op in _BINARY.items():
    if _op is not None:
        globals()[_name] = _make_binary(_name, getattr(ops, _op))


def ravel(input: Any) -> Any:  # noqa: A002
    """The elements of ``input`` as a 1-D tensor."""
    return ops.reshape(input, (-1,))


def addr_(input: Any, vec1: Any, vec2: Any, beta: Any = 1,  # noqa: A002
          alpha: Any = 1) -> Any:
    """``input`` made ``beta * input + alpha * outer(vec1, vec2)`` in place (through the
    mutation protocol) and returned."""
    tensor_arg(input, "addr_")
    shape = (tensor_arg(vec1, "addr_", "vec1").shape[0],
             tensor_arg(vec2, "addr_", "vec2").shape[0])
    if tuple(input.shape) != shape:
        raise ValueError(f"mint.addr_: outer(vec1, vec2) of shape {shape} does not fit "
                         f"'input' of shape {tuple(input.shape)}")
    new = ops.add(ops.mul(input, beta), ops.mul(ops.outer(vec1, vec2), alpha))
    rebind(input, ops.cast(new, input.dtype))
    return input


def gcd(input: Any, other: Any) -> Any:  # noqa: A002
    """The elementwise greatest common divisor of the integer ``input`` and ``other``."""
    return numpy_math.gcd(input, other)


def vdot(input: Any, other: Any) -> Any:  # noqa: A002
    """The dot product of the 1-D real ``input`` and ``other``."""
    return ops.sum(ops.mul(input, other))


def bitwise_not(input: Any) -> Any:  # noqa: A002
    """The bitwise complement of an integer ``input`` (logical not of a bool one)."""
    tensor_arg(input, "bitwise_not")
    if input.dtype == mstype.bool_:
        return ops.logical_not(input)
    if ops.is_floating_point(input):
        raise TypeError(f"mint.bitwise_not: 'input' must be an integer or bool tensor, got "
                        f"{input.dtype}")
    return ops.sub(ops.neg(input), 1)  # two's complement: ~x == -x - 1


def index_add(input: Any, dim: int, index: Any, source: Any, *,  # noqa: A002
              alpha: Any = 1) -> Any:
    """``input`` with ``alpha * source``'s slices along ``dim`` added at the positions
    ``index`` (repeated positions accumulate); differentiable in ``input`` and ``source``."""
    tensor_arg(input, "index_add")
    n = input.shape[dim]
    # (n, k) matrix summing the source slices into their positions
    scatter = ops.cast(ops.transpose(ops.one_hot(index, n, 1, 0), (1, 0)), input.dtype)
    src = ops.movedim(source, dim, 0)
    added = ops.reshape(ops.matmul(scatter, ops.reshape(src, (src.shape[0], -1))),
                        (n,) + tuple(src.shape[1:]))
    return ops.add(input, ops.mul(ops.movedim(added, 0, dim), alpha))


def mm(input: Any, mat2: Any) -> Any:  # noqa: A002
    """The matrix product of the 2-D ``input`` and ``mat2``."""
    return ops.mm(input, mat2)


def bmm(input: Any, mat2: Any) -> Any:  # noqa: A002
    """The batched matrix product of the 3-D ``input`` and ``mat2``."""
    return ops.bmm(input, mat2)


def float_power(input: Any, exponent: Any) -> Any:  # noqa: A002
    """``input ** exponent`` computed in double precision (float64)."""
    return ops.float_power(input, exponent)


def outer(input: Any, vec2: Any) -> Any:  # noqa: A002
    """The outer product of the vectors ``input`` and ``vec2``."""
    return ops.outer(input, vec2)


def mv(input: Any, vec: Any) -> Any:  # noqa: A002
    """The product of the matrix ``input`` and the vector ``vec``."""
    return ops.mv(input, vec)


def add(input: Any, other: Any, *, alpha: Any = 1) -> Any:  # noqa: A002
    """``input + alpha * other``."""
    return ops.add(input, other if alpha == 1 else ops.mul(other, alpha))


def sub(input: Any, other: Any, *, alpha: Any = 1) -> Any:  # noqa: A002
    """``input - alpha * other``."""
    return ops.sub(input, other if alpha == 1 else ops.mul(other, alpha))


def div(input: Any, other: Any, *, rounding_mode: str | None = None) -> Any:  # noqa: A002
    """``input / other``; ``rounding_mode`` ``"floor"`` or ``"trunc"`` rounds the quotient."""
    if rounding_mode is None:
        return ops.div(input, other)
    if rounding_mode == "floor":
        return ops.floor_divide(input, other)
    if rounding_mode == "trunc":
        return ops.trunc(ops.div(input, other))
    raise ValueError(f"mint.div: rounding_mode must be None, 'floor' or 'trunc', "
                     f"got {rounding_mode!r}")


def divide(input: Any, other: Any, *, rounding_mode: str | None = None) -> Any:  # noqa: A002
    """The same as ``div``."""
    return div(input, other, rounding_mode=rounding_mode)


def pow(input: Any, exponent: Any) -> Any:  # noqa: A001,A002
    """``input ** exponent`` (broadcasting)."""
    return ops.pow(input, exponent)


def clamp(input: Any, min: Any = None, max: Any = None) -> Any:  # noqa: A002
    """``input`` limited to ``[min, max]`` (either may be None)."""
    if min is None and max is None:
        raise ValueError("mint.clamp: at least one of 'min' and 'max' must be given")
    return ops.clamp(input, min, max)


def round(input: Any, *, decimals: int = 0) -> Any:  # noqa: A001,A002
    """``input`` rounded half to even to ``decimals`` decimal places."""
    if decimals == 0:
        return ops.round(input)
    scale = 10.0 ** decimals
    return ops.div(ops.round(ops.mul(input, scale)), scale)


def lerp(input: Any, end: Any, weight: Any) -> Any:  # noqa: A002
    """``input + weight * (end - input)``."""
    return ops.lerp(input, end, weight)


def addcdiv(input: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:  # noqa: A002
    """``input + value * tensor1 / tensor2``."""
    return ops.add(input, ops.mul(ops.div(tensor1, tensor2), value))


def addmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:  # noqa: A002
    """``beta * input + alpha * (mat1 @ mat2)``."""
    return ops.add(ops.mul(input, beta), ops.mul(ops.mm(mat1, mat2), alpha))


def addmv(input: Any, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:  # noqa: A002
    """``beta * input + alpha * (mat @ vec)``."""
    return ops.add(ops.mul(input, beta), ops.mul(ops.mv(mat, vec), alpha))


def baddbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1,  # noqa: A002
            alpha: Any = 1) -> Any:
    """``beta * input + alpha * bmm(batch1, batch2)``."""
    return ops.add(ops.mul(input, beta), ops.mul(ops.bmm(batch1, batch2), alpha))


def addbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1,  # noqa: A002
           alpha: Any = 1) -> Any:
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    return ops.add(ops.mul(input, beta),
                   ops.mul(ops.sum(ops.bmm(batch1, batch2), 0), alpha))


def isclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,  # noqa: A002
            equal_nan: bool = False) -> Any:
    """Elementwise ``|input - other| <= atol + rtol * |other|``."""
    return ops.isclose(input, other, rtol, atol, equal_nan)


def allclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,  # noqa: A002
             equal_nan: bool = False) -> bool:
    """Whether ``isclose`` holds everywhere (a Python bool)."""
    return bool(ops.all(ops.isclose(input, other, rtol, atol, equal_nan)).asnumpy())


def where(condition: Any, input: Any = None, other: Any = None) -> Any:  # noqa: A002
    """``input`` where ``condition`` holds, else ``other``; with only ``condition``, the
    tuple of its nonzero indices per dimension."""
    if input is None and other is None:
        return ops.nonzero(condition, as_tuple=True)
    if input is None or other is None:
        raise TypeError("mint.where: give both 'input' and 'other', or neither")
    return ops.where(condition, input, other)


def nan_to_num(input: Any, nan: float | None = None, posinf: float | None = None,  # noqa: A002
               neginf: float | None = None) -> Any:
    """``input`` with NaN, +inf and -inf replaced (by 0 and the dtype's extremes)."""
    return ops.nan_to_num(input, 0.0 if nan is None else nan, posinf, neginf)


__all__ = sorted([n for n, o in _UNARY.items() if o is not None]
                 + [n for n, o in _BINARY.items() if o is not None]
                 + ["addr_", "gcd", "vdot", "bitwise_not", "index_add", "ravel", "mm", "bmm",
                    "float_power", "outer", "mv", "add", "sub", "div", "divide", "pow",
                    "clamp", "round",
                    "lerp", "addcdiv", "addmm", "addmv", "baddbmm", "addbmm", "isclose",
                    "allclose", "where", "nan_to_num"])
