"""MindSpore's functional operators (``ops.sin``, ``ops.matmul``, ...). Each validates and
normalizes its arguments, then binds a primitive; composite operators (mean, softmax, ...)
are written in terms of primitives so that they are differentiable to any order."""
from __future__ import annotations

import builtins
import functools
import math
import numbers
from typing import Any, Callable, Sequence

import numpy as np

from ..core import dtype as mstype
from ..common import dtype_rules as _rules
from ..core import tensor as _tensor_module
from ..core.tensor import Tensor
from ..core.device import device_of as _device_of, to_device as _to_device
from ..core import device as _device
from ..core.primitive import Tracer as _Tracer
from ..core.primitive import bind as _bind
from ..prims import arith as A
from ..prims import compare as C
from ..prims import linalg as L
from ..prims import reduce as R
from ..prims import structural as S
from ..prims import getitem as G
from ..prims import unary as U
from ..prims import conv as CV
from ..prims import indexing as IX
from ..prims import linalg_ext as LX
from ..prims import products as PR
from ..prims import reduce_fused as RF


def _operand(x: Any, op: str, arg: str = "x") -> Any:
    """Tensors and Python numbers pass; arrays and lists become Tensors; others fail."""
    if isinstance(x, (Tensor, int, float, bool)):
        return x
    if isinstance(x, (np.ndarray, np.generic, list, tuple)):
        return _converted(x, op, arg)
    raise TypeError(f"For '{op}', '{arg}' must be a Tensor or a number, but got "
                    f"{type(x).__name__}.")


def _tensor(x: Any, op: str, arg: str = "x") -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (np.ndarray, np.generic, list, tuple, int, float, bool)):
        return _converted(x, op, arg)
    raise TypeError(f"For '{op}', '{arg}' must be a Tensor, but got {type(x).__name__}.")


def _near(t: Any, ref: Any) -> Any:
    """``t``, just made from Python or NumPy data, on the device of the tensor ``ref`` it
    meets (data goes with the tensor, wherever ``device_target`` puts new tensors). Only
    once CuPy is in use; before, every array is a NumPy one."""
    if _device.mixed and isinstance(ref, Tensor) and isinstance(t, Tensor):
        want = _device_of(ref._data)
        if _device_of(t._data) != want:
            return Tensor._wrap(_to_device(t._data, want, "Tensor"))
    return t


def _converted(x: Any, op: str, arg: str) -> Tensor:
    """A NumPy array or (nested) list as a Tensor; a ragged list or one of strings or other
    objects is refused naming the op and argument."""
    try:
        t = Tensor(x)
    except (TypeError, ValueError) as e:
        raise TypeError(f"For '{op}', '{arg}' must be a Tensor or a rectangular list of "
                        f"numbers, but got a {type(x).__name__} that does not convert: "
                        f"{e}") from None
    if t._data.dtype.kind not in "biufc":
        raise TypeError(f"For '{op}', '{arg}' must hold numbers or bools, but got a "
                        f"{type(x).__name__} of dtype {t._data.dtype}.")
    return t


def _binary(prim, name: str, promote: bool = False):
    """The front-end of a binary primitive; ``promote``: arithmetic, with MindSpore's weak
    float scalars (``promote_scalar``). An op with a dtype rule (``dtype_rules``) applies it
    to each tensor operand."""
    rule = _rules.RULES.get(name)
    accept = "" if rule is None else rule.accept
    bool_result = name in _rules.BOOL_RESULT

    def op(x: Any, y: Any) -> Tensor:
        xt, yt = isinstance(x, Tensor), isinstance(y, Tensor)
        x, y = _operand(x, name, "x"), _operand(y, name, "y")
        if xt != yt:  # an array or list converted: it goes with the tensor
            x, y = (x, _near(y, x)) if xt else (_near(x, y), y)
        if promote:
            x, y = promote_scalar(x, y)
        if accept:
            if isinstance(x, Tensor) and x._data.dtype.kind not in accept:
                x = _in_dtype(x, name, "x")
            if isinstance(y, Tensor) and y._data.dtype.kind not in accept:
                y = _in_dtype(y, name, "y")
        if bool_result and S.dtype_of(x).kind == "b" and S.dtype_of(y).kind == "b":
            return S.cast(prim(x, y), dtype=np.dtype(np.bool_))
        return prim(x, y)

    _name_front_end(op, name)
    op.__doc__ = f"Elementwise {prim.name} with broadcasting."
    return op


def promote_scalar(x: Any, y: Any) -> tuple:
    """MindSpore's scalars are weakly typed: a float one (a NumPy float64 scalar too) takes
    the tensor's float dtype, and an integer or bool tensor meeting one becomes float32
    (NumPy would give float64); a bool tensor meeting a Python int becomes int64. Integer
    tensors divided by integers give float32 (``div``'s rule in ``dtype_rules``)."""
    if isinstance(y, float):
        if isinstance(x, Tensor):
            return _float_tensor(x), float(y)
    elif isinstance(x, float):
        if isinstance(y, Tensor):
            return float(x), _float_tensor(y)
    elif type(y) is int and isinstance(x, Tensor):
        return _int_from_bool(x), y
    elif type(x) is int and isinstance(y, Tensor):
        return x, _int_from_bool(y)
    return x, y


def _float_tensor(t: Tensor) -> Tensor:
    return S.cast(t, dtype=np.dtype(np.float32)) if t._data.dtype.kind in "biu" else t


def _int_from_bool(t: Tensor) -> Tensor:
    return S.cast(t, dtype=_rules.BOOL_WITH_INT) if t._data.dtype.kind == "b" else t


def _in_dtype(x: Tensor, op: str, arg: str = "input", shown: str | None = None) -> Tensor:
    """``x`` in the dtype ``op`` computes it in (``dtype_rules``): unchanged, converted to
    float32, or refused with a TypeError naming the op (``shown``: the name it was called
    by, when the rule is another's) and the dtype."""
    to = _rules.input_dtype(op, S.dtype_of(x), arg, shown)
    return x if to is None else S.cast(x, dtype=to)


def _in_dtype_of(x: Any, op: str, arg: str, rule: Any) -> Any:
    """``_in_dtype`` for an operand that may be a Python number (left as it is)."""
    if isinstance(x, Tensor) and x._data.dtype.kind not in rule.accept:
        return _in_dtype(x, op, arg)
    return x


def _composite(fn: Callable | None = None, *, name: str | None = None) -> Callable:
    """For an operator built from others (mish from softplus, tanh and mul): an argument
    error raised by one of those, which names only it (``For 'Softplus', ...``), is raised
    again naming the operator the user called first (``name``, or the function's)."""
    if fn is None:
        return lambda f: _composite(f, name=name)
    name = name or fn.__name__

    @functools.wraps(fn)
    def op(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError, IndexError) as e:
            msg = str(e)
            if type(e) not in (TypeError, ValueError, IndexError) or f"'{name}'" in msg \
                    or msg.startswith(f"{name}()"):
                raise
            raise type(e)(f"For '{name}', {msg[:1].lower()}{msg[1:]}") from e

    return op


def _name_front_end(op: Callable, name: str) -> None:
    """Give a generated front end the MindSpore function's name. Python's own argument
    errors use ``__qualname__`` (``sin() got an unexpected keyword argument 'foo'``), and
    tracebacks and ``repr`` the name, so both are set."""
    op.__name__ = op.__qualname__ = name


def _unary(prim, name: str):
    rule = _rules.RULES.get(name)
    if rule is None:
        def op(x: Any) -> Tensor:
            return prim(_tensor(x, name))
    else:
        accept = rule.accept

        def op(x: Any) -> Tensor:
            x = _tensor(x, name)
            # the common case (a dtype the op takes as it is) costs one attribute test
            return prim(x if x._data.dtype.kind in accept else _in_dtype(x, name))

    _name_front_end(op, name)
    op.__doc__ = f"Elementwise {prim.name}."
    return op


# --- elementwise ----------------------------------------------------------------------------
add = _binary(A.add, "add", promote=True)
sub = _binary(A.sub, "sub", promote=True)
mul = _binary(A.mul, "mul", promote=True)
div = _binary(A.div, "div", promote=True)
# x / y with 0 where y == 0
div_no_nan = _binary(A.div_no_nan, "div_no_nan", promote=True)
maximum = _binary(A.maximum, "maximum", promote=True)
minimum = _binary(A.minimum, "minimum", promote=True)
floor_div = _binary(A.floor_div, "floor_div", promote=True)
floor_mod = _binary(A.floor_mod, "floor_mod", promote=True)
# the truncated remainder (np.fmod: the sign of x); MindSpore's ops.fmod and ops.Mod
fmod = _binary(A.mod, "fmod", promote=True)
atan2 = _binary(A.atan2, "atan2", promote=True)
equal = _binary(C.equal, "equal")
not_equal = _binary(C.not_equal, "not_equal")
less = _binary(C.less, "less")
less_equal = _binary(C.less_equal, "less_equal")
greater = _binary(C.greater, "greater")
greater_equal = _binary(C.greater_equal, "greater_equal")
logical_and = _binary(C.logical_and, "logical_and")
logical_or = _binary(C.logical_or, "logical_or")
logical_xor = _binary(C.logical_xor, "logical_xor")
logical_not = _unary(C.logical_not, "logical_not")
isnan = _unary(C.isnan, "isnan")
isinf = _unary(C.isinf, "isinf")
isfinite = _unary(C.isfinite, "isfinite")
realdiv = truediv = divide = div
multiply, subtract = mul, sub
ge, gt, le, lt, eq, ne = greater_equal, greater, less_equal, less, equal, not_equal
floordiv = floor_divide = floor_div
floormod = remainder = floor_mod

neg = _unary(A.neg, "neg")
negative = neg
exp = _unary(U.exp, "exp")
log = _unary(U.log, "log")
sin = _unary(U.sin, "sin")
cos = _unary(U.cos, "cos")
tan = _unary(U.tan, "tan")
sinh = _unary(U.sinh, "sinh")
cosh = _unary(U.cosh, "cosh")
tanh = _unary(U.tanh, "tanh")
asin = _unary(U.asin, "asin")
acos = _unary(U.acos, "acos")
atan = _unary(U.atan, "atan")
asinh = _unary(U.asinh, "asinh")
acosh = _unary(U.acosh, "acosh")
atanh = _unary(U.atanh, "atanh")
arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh
sqrt = _unary(U.sqrt, "sqrt")
rsqrt = _unary(U.rsqrt, "rsqrt")
square = _unary(U.square, "square")
reciprocal = _unary(U.reciprocal, "reciprocal")
abs = _unary(U.abs_, "abs")
absolute = abs
expm1 = _unary(U.expm1, "expm1")
log1p = _unary(U.log1p, "log1p")
erf = _unary(U.erf, "erf")
sigmoid = _unary(U.sigmoid, "sigmoid")
relu = _unary(U.relu, "relu")
sign = _unary(U.sign, "sign")
floor = _unary(U.floor, "floor")
ceil = _unary(U.ceil, "ceil")
round = _unary(U.round_, "round")


def pow(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent``; either may be a Python number."""
    x, y = promote_scalar(_operand(input, "pow", "input"), _operand(exponent, "pow", "exponent"))
    rule = _rules.RULES["pow"]
    return A.pow_(_in_dtype_of(x, "pow", "input", rule), _in_dtype_of(y, "pow", "exponent", rule))


power = pow


exp2 = _unary(U.exp2, "exp2")
log2 = _unary(U.log2, "log2")
log10 = _unary(U.log10, "log10")
erfc = _unary(U.erfc, "erfc")


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


# min(max(x, 0), 6); the gradient passes where 0 < x < 6
relu6 = _unary(U.relu6, "relu6")


def _float_param(v: Any, op: str, arg: str) -> float:
    """A number parameter of an op (not a tensor operand) as a float."""
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"For '{op}', '{arg}' must be a number, but got {type(v).__name__}.")
    if not math.isfinite(v):
        raise ValueError(f"For '{op}', '{arg}' must be finite, but got {v}.")
    return float(v)


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


def _is_int(v: Any) -> bool:
    """A Python or NumPy int, not a bool."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _flag(v: Any, op: str, arg: str) -> bool:
    """A bool argument (keep_dims, transpose_a, ...): MindSpore refuses any other type, and
    so does this (a truthy list or number would silently change the result)."""
    if not isinstance(v, (bool, np.bool_)):
        raise TypeError(f"For '{op}', '{arg}' must be a bool, but got {type(v).__name__}.")
    return bool(v)


def _broadcast_shapes(op: str, *named: tuple) -> tuple:
    """The broadcast shape of ``(name, tensor)`` pairs, or a ValueError naming the op."""
    try:
        return np.broadcast_shapes(*(t.shape for _, t in named))
    except ValueError:
        shapes = ", ".join(f"'{n}' {list(t.shape)}" for n, t in named)
        raise ValueError(f"For '{op}', the shapes of {shapes} can not broadcast.") from None


def _check_bounds(op: str, x: Tensor, *bounds: tuple) -> None:
    """Clipping bounds ``(name, value)``: None, a number, or a Tensor that broadcasts
    against ``x``. A NaN bound is refused: NumPy's clip gives NaN everywhere, MindSpore's
    the other bound, and neither is what a caller meant."""
    dt = S.dtype_of(x)
    for arg, v in bounds:
        if isinstance(v, float) and math.isnan(v):
            raise ValueError(f"For '{op}', '{arg}' must not be NaN.")
        if type(v) is int and dt.kind in "iu" and not np.iinfo(dt).min <= v <= np.iinfo(dt).max:
            # it would wrap around in the tensor's dtype
            raise ValueError(f"For '{op}', '{arg}' {v} is out of the range of 'x''s dtype "
                             f"{x.dtype}.")
        if v is None or _number(v):
            continue
        if not isinstance(v, Tensor):
            raise TypeError(f"For '{op}', '{arg}' must be a number, a Tensor or None, but got "
                            f"{type(v).__name__}.")
        _broadcast_shapes(op, ("x", x), (arg, v))


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


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


# --- dtype and constants ---------------------------------------------------------------------
def cast(x: Any, dtype: Any) -> Tensor:
    """Convert ``x`` to ``dtype`` (a mindspore dtype, NumPy dtype or Python type)."""
    return S.cast(_tensor(x, "cast"), dtype=mstype.to_numpy(dtype, "cast"))


def dtype(x: Tensor) -> mstype.DType:
    return _tensor(x, "dtype").dtype


def zeros_like(x: Any, dtype: Any = None) -> Tensor:
    out = S.zeros_like(_tensor(x, "zeros_like"))
    return out if dtype is None else cast(out, dtype)


def ones_like(x: Any, dtype: Any = None) -> Tensor:
    out = S.ones_like(_tensor(x, "ones_like"))
    return out if dtype is None else cast(out, dtype)


def _int_scalar(v: Any) -> bool:
    """A one-element integer Tensor, which may stand for a dimension."""
    return isinstance(v, Tensor) and v.size == 1 and v._data.dtype.kind in "iu"


def _shape_arg(shape: Any, op: str, arg: str = "shape") -> tuple:
    """A shape given as an int, a tuple or list of ints, or an integer Tensor; a float
    (``(2.5, 2)``) is a TypeError, as in MindSpore, not truncated."""
    if _is_int(shape):
        return (int(shape),)
    if isinstance(shape, Tensor):
        if shape._data.dtype.kind not in "iu" or shape.ndim > 1:
            raise TypeError(f"For '{op}', '{arg}' must be a 0-D or 1-D integer Tensor, but got "
                            f"{shape.dtype} of shape {list(shape.shape)}.")
        return tuple(int(v) for v in shape.asnumpy().reshape(-1))
    if isinstance(shape, (tuple, list)) and builtins.all(_is_int(d) or _int_scalar(d)
                                                         for d in shape):
        return tuple(int(d) for d in shape)
    raise TypeError(f"For '{op}', '{arg}' must be an int or a tuple of ints, but got "
                    f"{shape!r}.")


_MAX_BYTES = 2 ** 40  # 1 TiB: more than any one array here can be


def _sizes(shape: tuple, op: str, arg: str = "shape", itemsize: int = 8) -> tuple:
    """A shape of a new tensor: no negative sizes, and no absurd size (a clear error naming
    the op, rather than a MemoryError from deep inside NumPy)."""
    if builtins.any(d < 0 for d in shape):
        raise ValueError(f"For '{op}', each size in '{arg}' must be >= 0, but got {shape}.")
    if math.prod(shape) * itemsize > _MAX_BYTES:
        raise ValueError(f"For '{op}', '{arg}' {shape} asks for {math.prod(shape)} "
                         f"elements, more than can be allocated.")
    return shape


def _scalar_value(v: Any, op: str, arg: str) -> Any:
    """A fill value: a number, a bool or a one-element Tensor."""
    if isinstance(v, Tensor) and v.size == 1:
        return v.asnumpy().reshape(()).item()
    if isinstance(v, (bool, int, float, complex, np.generic)):
        return v
    raise TypeError(f"For '{op}', '{arg}' must be a number, a bool or a one-element Tensor, "
                    f"but got {type(v).__name__}.")


def fill(type: Any, shape: Any, value: Any) -> Tensor:
    """A tensor of ``shape`` filled with ``value`` (MindSpore's ``ops.fill(type, shape, value)``)."""
    return _fill(type, shape, value, "fill")


def _fill(type: Any, shape: Any, value: Any, op: str) -> Tensor:
    dt = mstype.to_numpy(type, op)
    return S.full(shape=_sizes(_shape_arg(shape, op), op), value=_scalar_value(value, op, "value"),
                  dtype=dt)


def full(size: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:
    """A tensor of shape ``size`` filled with ``fill_value`` (its dtype follows the value
    when ``dtype`` is None)."""
    fill_value = _scalar_value(fill_value, "full", "fill_value")
    if dtype is None:
        dtype = mstype.float32 if isinstance(fill_value, float) else (
            mstype.bool_ if isinstance(fill_value, bool) else mstype.int64)
    return _fill(dtype, size, fill_value, "full")


def zeros(shape: Any, dtype: Any = None) -> Tensor:
    return _fill(dtype or mstype.float32, shape, 0, "zeros")


def ones(shape: Any, dtype: Any = None) -> Tensor:
    return _fill(dtype or mstype.float32, shape, 1, "ones")


def eye(n: int, m: int | None = None, dtype: Any = None) -> Tensor:
    """The ``n`` x ``m`` (``n`` x ``n``) matrix with ones on the diagonal."""
    for arg, v in (("n", n), ("m", m)):
        if (v is not None or arg == "n") and (not _is_int(v) or v < 0):
            raise TypeError(f"For 'eye', '{arg}' must be a non-negative int, but got {v!r}.")
    _sizes((n, n if m is None else m), "eye", "n, m")
    return Tensor(np.eye(n, m, dtype=mstype.to_numpy(dtype or mstype.float32, "eye")))


def arange(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None) -> Tensor:
    """The numbers from ``start`` (inclusive) to ``end`` (exclusive) in steps of ``step``;
    ``arange(n)`` counts from 0. A zero step, or one leading away from ``end``, is a
    ValueError, as in MindSpore."""
    if end is None:
        start, end = 0, start
    bounds = {"start": start, "end": end, "step": step}
    for arg, v in bounds.items():
        if isinstance(v, Tensor) and v.ndim == 0:
            v = bounds[arg] = v.item()
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise TypeError(f"For 'arange', '{arg}' must be an int, a float or a 0-D Tensor, "
                            f"but got {type(v).__name__}.")
    start, end, step = bounds["start"], bounds["end"], bounds["step"]
    if not builtins.all(math.isfinite(v) for v in (start, end, step)):
        raise ValueError(f"For 'arange', 'start', 'end' and 'step' must be finite, but got "
                         f"{start}, {end} and {step}.")
    if step == 0:
        raise ValueError("For 'arange', 'step' must not be 0.")
    if (end - start) * step < 0:
        raise ValueError(f"For 'arange', 'step' {step} leads away from 'end': it must be "
                         f"{'positive' if end > start else 'negative'} to go from {start} "
                         f"to {end}.")
    _sizes((builtins.max(math.ceil((end - start) / step), 0),), "arange", "end")
    arr = np.arange(start, end, step)
    return Tensor(arr, dtype=dtype) if dtype is not None else Tensor(arr.tolist() if arr.size else arr)


def linspace(start: float, end: float, steps: int) -> Tensor:
    """``steps`` evenly spaced Float32 numbers from ``start`` to ``end`` (both included)."""
    bounds = {"start": start, "end": end}
    for arg, v in bounds.items():
        if isinstance(v, Tensor) and v.size == 1:
            bounds[arg] = v.asnumpy().reshape(()).item()
        elif not _number(v) and not isinstance(v, (np.integer, np.floating)):
            raise TypeError(f"For 'linspace', '{arg}' must be a number or a one-element "
                            f"Tensor, but got {type(v).__name__}.")
    if not _is_int(steps) or steps < 0:
        raise TypeError(f"For 'linspace', 'steps' must be a non-negative int, but got "
                        f"{steps!r}.")
    _sizes((steps,), "linspace", "steps")
    return Tensor(np.linspace(bounds["start"], bounds["end"], steps, dtype=np.float32))


def depend(value: Any, expr: Any) -> Any:
    """``value``, after ``expr`` has been computed. mindgrad runs operations in program order
    in both modes (and keeps Parameter updates in GRAPH mode), so this only returns value."""
    return value


def stop_gradient(x: Any) -> Any:
    """The identity whose gradient is zero; works on tensors and on (nested) tuples."""
    if isinstance(x, (tuple, list)):
        return type(x)(stop_gradient(v) for v in x)
    if isinstance(x, Tensor):
        return S.stop_gradient(x)
    return x


# --- shapes ---------------------------------------------------------------------------------
def _axis(axis: int, ndim: int, op: str, arg: str = "axis") -> int:
    """One axis of a tensor of rank ``ndim``, normalized to ``[0, ndim)``. A 0-d tensor
    takes 0 and -1 (as MindSpore's reductions do) and gives 0."""
    if not _is_int(axis):
        raise TypeError(f"For '{op}', '{arg}' must be an int, but got {type(axis).__name__}.")
    n = builtins.max(ndim, 1)
    if not -n <= axis < n:
        raise ValueError(f"For '{op}', '{arg}' must be in range [{-n}, {n}), but got {axis} "
                         f"(out of range for a tensor of rank {ndim}).")
    return int(axis) % n


def _axis_given(axis: Any, op: str) -> None:
    """For the ops that normalize along axes (softmax): None or () would mean every axis
    to a reduction, but here name no axis; MindSpore refuses them."""
    if axis is None or isinstance(axis, (tuple, list)) and not axis:
        raise ValueError(f"For '{op}', 'axis' must be an int or a non-empty tuple of ints, "
                         f"but got {axis!r}.")


def _axes(axis: Any, ndim: int, op: str) -> tuple | None:
    """Normalize a reduction axis spec: None or () means all axes. A 0-d tensor has only
    itself to reduce: its axes 0 and -1 are all of it (None)."""
    if axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0):
        return None
    if ndim == 0:
        for a in (axis if isinstance(axis, (tuple, list)) else (axis,)):
            _axis(a, 0, op)
        return None
    if isinstance(axis, (tuple, list)):
        axes = [_axis(a, ndim, op) for a in axis]
        out = tuple(sorted(set(axes)))
        if len(out) != len(axes):
            dup = next(a for a in out if axes.count(a) > 1)
            raise ValueError(f"For '{op}', 'axis' must not repeat an axis, but got "
                             f"{tuple(axis)}: axis {dup} of a tensor of rank {ndim} appears "
                             f"{axes.count(dup)} times.")
    else:
        out = (_axis(axis, ndim, op),)
    return out


def shape(x: Tensor) -> tuple:
    return _tensor(x, "shape").shape


def rank(x: Tensor) -> int:
    return _tensor(x, "rank").ndim


def size(x: Tensor) -> int:
    return _tensor(x, "size").size


def reshape(x: Any, shape: Any) -> Tensor:
    """Reshape; one dimension may be -1."""
    x = _tensor(x, "reshape")
    new = list(_shape_arg(shape, "reshape"))
    n = x.size
    if new.count(-1) > 1:
        raise ValueError(f"For 'reshape', only one dimension may be -1, but got {tuple(new)}.")
    if -1 in new:
        rest = math.prod(d for d in new if d != -1)
        if rest == 0 or n % rest:
            raise ValueError(f"For 'reshape', a tensor of shape {list(x.shape)} can not be "
                             f"reshaped to {tuple(new)}.")
        new[new.index(-1)] = n // rest
    if math.prod(new) != n:
        raise ValueError(f"For 'reshape', a tensor of shape {list(x.shape)} ({n} elements) "
                         f"can not be reshaped to {tuple(new)}.")
    new_t = tuple(new)
    return x if new_t == x.shape else S.reshape(x, shape=new_t)


def transpose(x: Any, input_perm: Any = None) -> Tensor:
    """Permute the axes (reverse them when ``input_perm`` is None)."""
    x = _tensor(x, "transpose")
    n = x.ndim
    if input_perm is not None and not isinstance(input_perm, (tuple, list)):
        raise TypeError(f"For 'transpose', 'input_perm' must be a tuple of ints, but got "
                        f"{type(input_perm).__name__}.")
    perm = tuple(range(n - 1, -1, -1)) if input_perm is None else tuple(
        _axis(p, n, "transpose", "input_perm") for p in input_perm)
    if sorted(perm) != list(range(n)):
        raise ValueError(f"For 'transpose', 'input_perm' {tuple(input_perm)} is not a "
                         f"permutation of the {n} axes of a tensor of shape {list(x.shape)}.")
    return x if perm == tuple(range(n)) else S.transpose(x, perm=perm)


permute = transpose


def swapaxes(x: Any, axis0: int, axis1: int) -> Tensor:
    x = _tensor(x, "swapaxes")
    if x.ndim == 0:
        raise ValueError("For 'swapaxes', 'x' must have rank >= 1, but got a 0-D Tensor.")
    perm = list(range(x.ndim))
    a, b = _axis(axis0, x.ndim, "swapaxes"), _axis(axis1, x.ndim, "swapaxes")
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


def expand_dims(x: Any, axis: int) -> Tensor:
    x = _tensor(x, "expand_dims")
    a = _axis(axis, x.ndim + 1, "expand_dims")
    s = list(x.shape)
    s.insert(a, 1)
    return S.reshape(x, shape=tuple(s))


def unsqueeze(input: Any, dim: int) -> Tensor:  # noqa: A002  (MindSpore's names)
    """``input`` with a size-1 axis inserted at ``dim`` (``expand_dims`` by 2.x's names)."""
    return expand_dims(input, dim)


def squeeze(x: Any, axis: Any = None) -> Tensor:
    """``x`` without the size-1 axes in ``axis``; all of them when ``axis`` is None or
    empty (as in MindSpore, whose ``Squeeze()`` default is ``axis=()``)."""
    x = _tensor(x, "squeeze")
    axes = _axes(axis, x.ndim, "squeeze")
    if axes is None:
        new = tuple(d for d in x.shape if d != 1)
    else:  # an axis of another size stays, as in MindSpore 2.10 (which returns it as is)
        new = tuple(d for i, d in enumerate(x.shape) if i not in axes or d != 1)
    return reshape(x, new)


def broadcast_to(x: Any, shape: Any) -> Tensor:
    x = _tensor(x, "broadcast_to")
    target = list(_shape_arg(shape, "broadcast_to"))
    lead = len(target) - x.ndim
    for i, d in enumerate(target):  # -1 keeps the input's size
        if d == -1 and i >= lead:
            target[i] = x.shape[i - lead]
    target_t = tuple(target)
    if target_t == x.shape:
        return x
    if builtins.all(d >= 0 for d in target_t):  # (a negative size: the primitive's error)
        _sizes(target_t, "broadcast_to")  # a view at first, but any use would allocate it
    return S.broadcast_to(x, shape=target_t)


def flatten(x: Any, start_dim: int = 1, end_dim: int = -1) -> Tensor:
    """MindSpore's ``ops.flatten`` keeps the batch axis by default."""
    x = _tensor(x, "flatten")
    if x.ndim == 0:
        return reshape(x, (1,))
    s = _axis(start_dim, x.ndim, "flatten")
    e = _axis(end_dim, x.ndim, "flatten")
    new = x.shape[:s] + (math.prod(x.shape[s:e + 1]),) + x.shape[e + 1:]
    return reshape(x, new)


def tile(input: Any, dims: Sequence[int]) -> Tensor:
    """Repeat ``input`` ``dims[i]`` times along axis ``i``, built from broadcast_to and
    reshape."""
    x = _tensor(input, "tile", "input")
    if not isinstance(dims, (tuple, list)) or builtins.any(
            isinstance(d, bool) or not isinstance(d, (int, np.integer)) for d in dims):
        raise TypeError(f"For 'tile', 'dims' must be a tuple of ints, but got {dims!r}.")
    if builtins.any(d < 0 for d in dims):
        raise ValueError(f"For 'tile', each element of 'dims' must be >= 0, but got {dims!r}.")
    reps = tuple(int(d) for d in dims)
    if not reps and x.ndim == 0:
        return x
    if len(reps) < x.ndim:
        reps = (1,) * (x.ndim - len(reps)) + reps
    xs = (1,) * (len(reps) - x.ndim) + x.shape
    _sizes(tuple(r * d for r, d in zip(reps, xs)), "tile", "dims", x._data.dtype.itemsize)
    inter = tuple(v for r, d in zip(reps, xs) for v in (1, d))
    wide = tuple(v for r, d in zip(reps, xs) for v in (r, d))
    out = broadcast_to(reshape(x, inter), wide)
    return reshape(out, tuple(r * d for r, d in zip(reps, xs)))


def concat(tensors: Sequence[Any], axis: int = 0) -> Tensor:
    """Join tensors along ``axis``."""
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError("For 'concat', 'tensors' must be a non-empty tuple or list of Tensors.")
    ts = [_tensor(t, "concat", f"tensors[{i}]") for i, t in enumerate(tensors)]
    ndim = ts[0].ndim
    for i, t in enumerate(ts):
        if t.ndim != ndim:
            raise ValueError(f"For 'concat', all tensors must have the same rank, but "
                             f"tensors[0] has shape {list(ts[0].shape)} and tensors[{i}] has "
                             f"shape {list(t.shape)}.")
    if len(ts) == 1:
        return ts[0]
    return S.concat(*ts, axis=_axis(axis, ndim, "concat"))


cat = concat


def stack(tensors: Sequence[Any], axis: int = 0) -> Tensor:
    """Join tensors of equal shape along a new axis."""
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError("For 'stack', 'tensors' must be a non-empty tuple or list of Tensors.")
    ts = [_tensor(t, "stack", f"tensors[{i}]") for i, t in enumerate(tensors)]
    for i, t in enumerate(ts):
        if t.shape != ts[0].shape:
            raise ValueError(f"For 'stack', all tensors must have the same shape, but "
                             f"tensors[0] has shape {list(ts[0].shape)} and tensors[{i}] has "
                             f"shape {list(t.shape)}.")
    return S.stack(*ts, axis=_axis(axis, ts[0].ndim + 1, "stack"))


def unstack(input_x: Any, axis: int = 0) -> tuple:
    """The slices of ``input_x`` along ``axis``, as a tuple (the inverse of ``stack``)."""
    x = _tensor(input_x, "unstack", "input_x")
    if x.ndim == 0:
        raise ValueError("For 'unstack', 'input_x' must have rank >= 1, but got a scalar.")
    a = _axis(axis, x.ndim, "unstack")
    if x.shape[a] == 0:
        return ()
    return S.unstack(x, axis=a)


def split(x: Any, split_size_or_sections: Any, axis: int = 0) -> tuple:
    """Split into chunks of a given size, or of the sizes in a list."""
    x = _tensor(x, "split")
    if x.ndim == 0:
        raise ValueError("For 'split', 'x' must have rank >= 1, but got a scalar.")
    a = _axis(axis, x.ndim, "split")
    n = x.shape[a]
    chunk = split_size_or_sections
    if _is_int(chunk):
        if chunk <= 0:
            raise ValueError(f"For 'split', 'split_size_or_sections' must be a positive int "
                             f"(the size of each chunk), but got {chunk}.")
        sizes = [int(chunk)] * (n // chunk)
        if n % chunk or not n:  # an empty axis is one empty chunk, as in MindSpore
            sizes.append(n % chunk)
    elif isinstance(chunk, (tuple, list)):
        sizes = list(chunk)
        if builtins.any(not _is_int(s) or s < 0 for s in sizes):
            raise ValueError(f"For 'split', sections must be non-negative ints, but got "
                             f"{sizes}.")
    else:
        raise TypeError(f"For 'split', 'split_size_or_sections' must be an int or a tuple or "
                        f"list of ints, but got {type(chunk).__name__}.")
    if builtins.sum(sizes) != n:
        raise ValueError(f"For 'split', sections {sizes} do not add up to the size {n} of "
                         f"axis {a} of a tensor of shape {list(x.shape)}.")
    if not sizes:
        return ()
    return S.split(x, axis=a, sizes=tuple(int(s) for s in sizes))


def flip(x: Any, dims: Any) -> Tensor:
    """``x`` reversed along each axis in ``dims`` (an empty tuple reverses none, as in
    MindSpore; None reverses all)."""
    x = _tensor(x, "flip")
    if isinstance(dims, (tuple, list)) and not dims:
        return x
    axes = _axes(dims, x.ndim, "flip") or tuple(range(x.ndim))
    index = tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(x.ndim))
    return G.getitem(x, index=index)


def _index_part(i: Any, arrays: list, x: Tensor) -> Any:
    if isinstance(i, Tensor):
        arrays.append(i)
        return G.ArraySlot(len(arrays) - 1)
    if isinstance(i, (list, np.ndarray)):
        arrays.append(_near(_converted(i, "getitem", "index"), x))
        return G.ArraySlot(len(arrays) - 1)
    if isinstance(i, (int, np.integer, slice)) or i is None or i is Ellipsis:
        return int(i) if isinstance(i, np.integer) else i
    if isinstance(i, bool):
        return i
    raise IndexError(f"For 'getitem', unsupported index element {i!r} of type "
                     f"{type(i).__name__}.")


def getitem(x: Tensor, index: Any) -> Tensor:
    """``x[index]`` with ints, slices (with steps), None, Ellipsis, bool masks and integer
    arrays."""
    arrays: list = []
    x = _tensor(x, "getitem")
    if isinstance(index, tuple):
        template = tuple(_index_part(i, arrays, x) for i in index)
    else:
        template = _index_part(index, arrays, x)
    return G.getitem(x, *arrays, index=template)


def _setitem_value(value: Any, dt: np.dtype, x: Tensor) -> Tensor:
    """The assigned value as a Tensor of the target's dtype (MindSpore casts it), data on
    the target's device."""
    if isinstance(value, Tensor):
        return value if value._data.dtype == dt else S.cast(value, dtype=dt)
    if isinstance(value, (list, tuple)) and builtins.any(isinstance(v, Tensor) for v in value):
        return S.stack(*[_setitem_value(v, dt, x) for v in value], axis=0)  # keeps gradients
    if isinstance(value, (bool, numbers.Number, np.ndarray, np.generic, list, tuple)):
        try:
            return _near(Tensor(np.asarray(value).astype(dt)), x)
        except (TypeError, ValueError):
            pass
    raise TypeError(f"For 'setitem', the value must be a number, bool, list, tuple, "
                    f"numpy.ndarray or Tensor, but got {type(value).__name__}: {value!r}.")


def _setitem(x: Tensor, index: Any, value: Any) -> Tensor:
    """A new tensor equal to ``x`` with ``x[index] = value`` (what ``Tensor.__setitem__``
    computes before it rebinds the name): the value is cast to x's dtype and broadcast to
    the shape of ``x[index]``. Gradients flow to x (except at the assigned positions) and
    to the value."""
    arrays: list = []
    if isinstance(index, tuple):
        template = tuple(_index_part(i, arrays, x) for i in index)
    else:
        template = _index_part(index, arrays, x)
    v = _setitem_value(value, x._data.dtype, x)
    vs = v.shape
    if vs and vs[0] == 1:  # NumPy and MindSpore drop extra leading 1s of the value
        extra = len(vs) - G.target_rank(x.ndim, template, tuple(arrays))
        if extra > 0 and builtins.all(d == 1 for d in vs[:extra]):
            v = S.reshape(v, shape=vs[extra:])
    return G.setitem(x, v, *arrays, index=template)


def gather(x: Any, indices: Any, axis: int = 0) -> Tensor:
    """Take the slices of ``x`` at ``indices`` along ``axis``."""
    x = _tensor(x, "gather")
    if x.ndim == 0:
        raise ValueError("For 'gather', 'input_params' must have rank >= 1, but got a 0-D "
                         "Tensor.")
    a = _axis(axis, x.ndim, "gather")
    idx = _tensor(indices, "gather", "input_indices")
    if idx.dtype.np_dtype.kind not in "iu":
        raise TypeError(f"For 'gather', 'input_indices' must be an integer Tensor, but got "
                        f"{idx.dtype}.")
    index = (slice(None),) * a + (G.ArraySlot(0),)
    if IX.is_eager(idx) and isinstance(idx._data, np.ndarray):
        try:  # NumPy's own bounds check finds a bad index at no cost (CuPy has none)
            return G.getitem(x, idx, index=index)
        except IndexError:
            _gather_indices(x, idx, a)  # raises the clear message
            raise
    return G.getitem(x, _gather_indices(x, idx, a), index=index)


def _gather_indices(x: Tensor, idx: Tensor, axis: int) -> Tensor:
    n = x.shape[axis]
    return IX.checked_indices(idx, n, "gather", "each value of 'input_indices'", lo=-n,
                              what=f" (axis {axis} of an input of shape {list(x.shape)})",
                              error=IndexError)


def _int_tensor(x: Any, op: str, arg: str) -> Tensor:
    t = _tensor(x, op, arg)
    if t.dtype.np_dtype.kind not in "iu":
        raise TypeError(f"For '{op}', '{arg}' must be an integer Tensor, but got {t.dtype}.")
    return t


def index_select(input: Any, axis: int, index: Any) -> Tensor:
    """The slices of ``input`` at the 1-D integer ``index`` along ``axis``."""
    x = _tensor(input, "index_select", "input")
    if x.ndim == 0:
        raise ValueError("For 'index_select', 'input' must have rank >= 1, but got a 0-D "
                         "Tensor.")
    a = _axis(axis, x.ndim, "index_select")
    idx = _int_tensor(index, "index_select", "index")
    if idx.ndim != 1:
        raise ValueError(f"For 'index_select', 'index' must be 1-D, but got shape "
                         f"{list(idx.shape)}.")
    idx = IX.checked_indices(idx, x.shape[a], "index_select", "each value of 'index'",
                             what=f" (axis {a} of an input of shape {list(x.shape)})",
                             error=IndexError)
    return G.getitem(x, idx, index=(slice(None),) * a + (G.ArraySlot(0),))


def gather_nd(input_x: Any, indices: Any) -> Tensor:
    """``out[i...] = input_x[indices[i..., 0], ..., indices[i..., k-1]]`` (slices when k is
    less than the rank)."""
    x = _tensor(input_x, "gather_nd", "input_x")
    return IX.gather_nd(x, _int_tensor(indices, "gather_nd", "indices"))


def scatter_nd(indices: Any, updates: Any, shape: Any) -> Tensor:
    """A zero tensor of ``shape`` with ``updates`` added at the index tuples in ``indices``
    (repeated indices accumulate); the transpose of ``gather_nd``."""
    u = _tensor(updates, "scatter_nd", "updates")
    if isinstance(shape, Tensor) or not isinstance(shape, (tuple, list)) or not shape or \
            builtins.any(isinstance(d, bool) or not isinstance(d, int) or d <= 0 for d in shape):
        raise TypeError(f"For 'scatter_nd', 'shape' must be a non-empty tuple of positive "
                        f"ints, but got {shape!r}.")
    return IX.scatter_nd(_int_tensor(indices, "scatter_nd", "indices"), u, shape=tuple(shape))


def _scatter_args(input_x: Any, indices: Any, updates: Any, op: str) -> tuple:
    x = _tensor(input_x, op, "input_x")
    u = _tensor(updates, op, "updates")
    if u.dtype != x.dtype:
        raise TypeError(f"For '{op}', 'updates' must have the dtype of 'input_x' ({x.dtype}), "
                        f"but got {u.dtype}.")
    return x, _int_tensor(indices, op, "indices"), u


def tensor_scatter_add(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """A copy of ``input_x`` with ``updates`` added at the index tuples in ``indices``
    (repeated indices accumulate)."""
    x, idx, u = _scatter_args(input_x, indices, updates, "tensor_scatter_add")
    return IX.tensor_scatter_add(x, idx, u)


def tensor_scatter_update(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """A copy of ``input_x`` with the slices at ``indices`` replaced by ``updates`` (for
    repeated indices the last update is kept and alone receives a gradient)."""
    x, idx, u = _scatter_args(input_x, indices, updates, "tensor_scatter_update")
    return IX.tensor_scatter_update(x, idx, u)


@_composite
def scatter_add(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """MindSpore's ``scatter_add``: ``updates[i...]`` is added to row ``indices[i...]`` of
    ``input_x``; returns the sum, and a Parameter ``input_x`` takes it as its new value."""
    from ..common.parameter import Parameter

    x, idx, u = _scatter_args(input_x, indices, updates, "scatter_add")
    out = IX.tensor_scatter_add(x, S.reshape(idx, shape=idx.shape + (1,)), u)
    if isinstance(input_x, Parameter):  # MindSpore updates the Parameter in place
        input_x.set_data(out)
    return out


def one_hot(indices: Any, depth: int, on_value: Any = 1, off_value: Any = 0,
            axis: int = -1) -> Tensor:
    """One-hot encoding along a new ``axis``; indices outside ``[0, depth)`` give all
    ``off_value``. The output has ``on_value``'s dtype; no gradient flows."""
    idx = _int_tensor(indices, "one_hot", "indices")
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise ValueError(f"For 'one_hot', 'depth' must be a non-negative int, but got "
                         f"{depth!r}.")
    _sizes(idx.shape + (int(depth),), "one_hot", "depth")
    _sizes((int(depth),), "one_hot", "depth")  # (one row of it is made even for no index)
    if not _is_int(axis):
        raise TypeError(f"For 'one_hot', 'axis' must be an int, but got {type(axis).__name__}.")
    if not -1 <= axis <= idx.ndim:
        raise ValueError(f"For 'one_hot', 'axis' must be in [-1, {idx.ndim}], but got {axis}.")
    on = _tensor(on_value, "one_hot", "on_value")
    off = _tensor(off_value, "one_hot", "off_value")
    for arg, v in (("on_value", on), ("off_value", off)):
        if v.size != 1:
            raise ValueError(f"For 'one_hot', '{arg}' must be a number or a one-element "
                             f"Tensor, but got shape {list(v.shape)}.")
    return IX.one_hot(idx, on, off, depth=int(depth), axis=idx.ndim if axis == -1 else axis)


def masked_fill(input_x: Any, mask: Any, value: Any) -> Tensor:
    """``input_x`` with ``value`` where ``mask`` is True (mask broadcasts). A Tensor
    ``value`` receives the gradient of the filled positions."""
    x = _tensor(input_x, "masked_fill", "input_x")
    m = _tensor(mask, "masked_fill", "mask")
    if m.dtype != mstype.bool_:
        raise TypeError(f"For 'masked_fill', 'mask' must be a bool Tensor, but got {m.dtype}.")
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ValueError(f"For 'masked_fill', 'value' must be a number or a 0-D Tensor, "
                             f"but got shape {list(value.shape)}.")
        v = value if value.dtype == x.dtype else cast(value, x.dtype)
    elif isinstance(value, (int, float, bool)):
        v = _near(Tensor(np.asarray(value, dtype=x.dtype.np_dtype)), x)
    else:
        raise TypeError(f"For 'masked_fill', 'value' must be a number or a Tensor, but got "
                        f"{type(value).__name__}.")
    try:
        fits = np.broadcast_shapes(m.shape, x.shape) == x.shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"For 'masked_fill', 'mask' of shape {list(m.shape)} can not "
                         f"broadcast to 'input_x' of shape {list(x.shape)}.")
    return C.select(m, v, x)


def _pad_pairs(padding: Any, ndim: int, op: str) -> list:
    """MindSpore/PyTorch-style flat padding (last axis first) as per-axis (lo, hi) pairs."""
    if isinstance(padding, Tensor):
        padding = padding.asnumpy().tolist()
    if not isinstance(padding, (tuple, list)) or len(padding) % 2 or \
            not builtins.all(isinstance(p, (int, np.integer)) and not isinstance(p, bool)
                             for p in padding):
        raise TypeError(f"For '{op}', 'padding' must be a tuple of ints of even length, but "
                        f"got {padding!r}.")
    if len(padding) // 2 > ndim:
        raise ValueError(f"For '{op}', 'padding' of length {len(padding)} pads more axes "
                         f"than the input has ({ndim}).")
    pairs = [(0, 0)] * ndim
    for k in range(len(padding) // 2):
        pairs[ndim - 1 - k] = (int(padding[2 * k]), int(padding[2 * k + 1]))
    return pairs


_PAD_MODES = {"constant": None, "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def pad(input_x: Any, padding: Any, mode: str = "constant", value: Any = None) -> Tensor:
    """Pad (or, with negative amounts, crop) the last ``len(padding) // 2`` axes; padding is
    ``(left, right)`` of the last axis, then of the one before, and so on. Modes:
    'constant' (with ``value``, default 0), 'reflect', 'replicate', 'circular'."""
    x = _tensor(input_x, "pad", "input_x")
    if mode not in _PAD_MODES:
        raise ValueError(f"For 'pad', 'mode' must be one of {list(_PAD_MODES)}, but got "
                         f"{mode!r}.")
    pairs = _pad_pairs(padding, x.ndim, "pad")
    # negative amounts crop first
    crop = tuple(slice(builtins.max(-lo, 0), d - builtins.max(-hi, 0)) for (lo, hi), d in zip(pairs, x.shape))
    if builtins.any(lo < 0 or hi < 0 for lo, hi in pairs):
        if builtins.any(c.stop <= c.start for c in crop):
            raise ValueError(f"For 'pad', negative padding {padding!r} removes the whole of an "
                             f"axis of the input of shape {list(x.shape)}.")
        x = G.getitem(x, index=crop)
    pos = tuple((builtins.max(lo, 0), builtins.max(hi, 0)) for lo, hi in pairs)
    if not builtins.any(lo or hi for lo, hi in pos):
        return x
    if mode == "constant":
        fill = 0 if value is None else value
        if isinstance(fill, Tensor):
            fill = fill.item()
        return IX.pad(x, paddings=pos, value=fill)
    if value is not None:
        raise ValueError(f"For 'pad', 'value' is only used with mode 'constant', not {mode!r}.")
    for a, (lo, hi) in enumerate(pos):
        if not (lo or hi):
            continue
        n = x.shape[a]
        if mode == "reflect" and (lo >= n or hi >= n):
            raise ValueError(f"For 'pad', 'reflect' padding ({lo}, {hi}) must be smaller than "
                             f"the size {n} of axis {a}.")
        # the source position of every output position along this axis, as NumPy pads
        src = np.pad(np.arange(n), (lo, hi), mode=_PAD_MODES[mode])
        x = G.getitem(x, Tensor(src), index=(slice(None),) * a + (G.ArraySlot(0),))
    return x


# --- reductions ------------------------------------------------------------------------------
def _reduces_nothing(x: Tensor) -> bool:
    """Whether summing (or averaging) ``x`` over all of its axes gives ``x`` itself: a 0-d
    float tensor (integer sums widen their dtype). Such a sum, like ``loss.sum()`` of an
    already scalar loss, then costs no operation in either mode. Only plain tensors and
    tracers: the result must not be a mutable Parameter itself."""
    return (type(x) is Tensor or isinstance(x, _Tracer)) and x.ndim == 0 \
        and x._data.dtype.kind in "fc"


def reduce_sum(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_sum(x, axis, keep_dims, "reduce_sum")


def _reduce_sum(x: Any, axis: Any, keep_dims: bool, op: str) -> Tensor:
    x = _tensor(x, op)
    axes = _axes(axis, x.ndim, op)
    if axes is None and _reduces_nothing(x):
        return x
    return R.reduce_sum(x, axis=axes, keepdims=_flag(keep_dims, op, "keep_dims"))


def reduce_mean(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_mean(x, axis, keep_dims, "reduce_mean")


def _reduce_mean(x: Any, axis: Any, keep_dims: bool, op: str) -> Tensor:
    x = _in_dtype(_tensor(x, op), "mean", "x", op)
    axes = _axes(axis, x.ndim, op)
    keep = _flag(keep_dims, op, "keep_dims")
    if axes is None and _reduces_nothing(x):
        return x
    if x._data.dtype.kind in "fc":
        return R.reduce_mean(x, axis=axes, keepdims=keep)
    # an integer mean keeps the input's dtype, as MindSpore's: the float64 quotient of the
    # widened sum, truncated
    total = R.reduce_sum(x, axis=axes, keepdims=keep)
    return S.cast(A.div(S.cast(total, dtype=np.dtype(np.float64)), R.count(x.shape, axes)),
                  dtype=x._data.dtype)


def _empty_slices(x: Tensor, axes: tuple | None) -> bool:
    """Whether reducing ``x`` over ``axes`` (all when None) reduces empty slices: then
    there is no maximum, minimum or arg of one, though the sum (0) and product (1) exist."""
    if x.size:
        return False
    if axes is None:
        return True
    return builtins.any(x.shape[a] == 0 for a in axes)


def _nonempty(x: Tensor, axes: tuple | None, op: str) -> None:
    if _empty_slices(x, axes):
        where = "" if axes is None else f" along axis {axes[0] if len(axes) == 1 else axes}"
        raise ValueError(f"For '{op}', the input of shape {list(x.shape)} has no element "
                         f"to reduce{where}: the reduction of an empty slice is undefined.")


def _reduce_extreme(x: Any, axis: Any, keep_dims: bool, op: str, prim: Any) -> Tensor:
    # the dtype rule is amax's or amin's, whichever name the op was called by
    x = _in_dtype(_tensor(x, op), "amax" if prim is R.reduce_max else "amin", "x", op)
    axes = _axes(axis, x.ndim, op)
    _nonempty(x, axes, op)
    return prim(x, axis=axes, keepdims=_flag(keep_dims, op, "keep_dims"))


def reduce_max(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_extreme(x, axis, keep_dims, "reduce_max", R.reduce_max)


def reduce_min(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_extreme(x, axis, keep_dims, "reduce_min", R.reduce_min)


def reduce_prod(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Product over ``axis`` (all axes when None). Its gradient is the product of the other
    elements, computed without division, so it is exact where inputs are zero."""
    return _reduce_prod(x, axis, keep_dims, "reduce_prod")


def _reduce_prod(x: Any, axis: Any, keep_dims: bool, op: str) -> Tensor:
    x = _tensor(x, op)
    wide = _rules.result_of_sum(S.dtype_of(x))
    if wide != S.dtype_of(x):  # bool and narrow integers multiply in int64, as MindSpore's
        x = S.cast(x, dtype=wide)
    return PR.reduce_prod(x, axis=_axes(axis, x.ndim, op),
                          keepdims=_flag(keep_dims, op, "keep_dims"))


def sum(x: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    out = _reduce_sum(x, dim, keepdim, "sum")
    return out if dtype is None else cast(out, dtype)


def mean(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_mean(x, axis, keep_dims, "mean")


def prod(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return _reduce_prod(x, axis, keep_dims, "prod")


def amax(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _reduce_extreme(x, axis, keepdims, "amax", R.reduce_max)


def amin(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _reduce_extreme(x, axis, keepdims, "amin", R.reduce_min)


def _truth(x: Any, op: str) -> Tensor:
    t = _tensor(x, op, "input")
    return t if t.dtype == mstype.bool_ else not_equal(t, 0)


def all(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Logical AND over ``axis`` (all axes when None), as a bool Tensor: no element is
    False (so an empty input gives True)."""
    b = _truth(input, "all")
    false_count = R.reduce_sum(C.logical_not(b), axis=_axes(axis, b.ndim, "all"),
                               keepdims=_flag(keep_dims, "all", "keep_dims"))
    return equal(false_count, 0)


def any(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Logical OR over ``axis`` (all axes when None), as a bool Tensor."""
    b = _truth(input, "any")
    true_count = R.reduce_sum(b, axis=_axes(axis, b.ndim, "any"),
                              keepdims=_flag(keep_dims, "any", "keep_dims"))
    return greater(true_count, 0)


def argmax(input: Any, dim: Any = None, keepdim: bool = False, *, axis: Any = None,
           keepdims: Any = None) -> Tensor:
    """Indices (Int64) of the maxima along ``dim`` (of the flattened input when None).
    ``axis`` and ``keepdims`` are accepted as other names of ``dim`` and ``keepdim``."""
    x = _in_dtype(_tensor(input, "argmax", "input"), "argmax")
    if axis is not None:
        if dim is not None:
            raise TypeError("For 'argmax', give 'dim' or 'axis', not both.")
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    a = None if dim is None else _axis(dim, x.ndim, "argmax")
    _nonempty(x, None if a is None else (a,), "argmax")
    return R.argmax(x, axis=a, keepdims=_flag(keepdim, "argmax", "keepdim"))


def argmin(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Indices of the minima along ``axis`` (of the flattened input when None), as Int32
    (MindSpore's ``ops.argmin`` gives Int32 where ``argmax`` gives Int64)."""
    return _argmin64(_tensor(x, "argmin"), axis, keepdims, dtype=_rules.INT32)


def _argmin64(x: Tensor, axis: Any = None, keepdims: bool = False,
              dtype: Any = None) -> Tensor:
    """argmin's indices, Int64 unless ``dtype`` is given."""
    x = _in_dtype(x, "argmin", "x")
    a = None if axis is None else _axis(axis, x.ndim, "argmin")
    _nonempty(x, None if a is None else (a,), "argmin")
    return R.argmin(x, axis=a, keepdims=_flag(keepdims, "argmin", "keepdims"), dtype=dtype)


def _full_like(x: Tensor, value: Any) -> Tensor:
    return S.full(shape=tuple(x.shape), value=value, dtype=mstype.to_numpy(x.dtype))


def _extreme_with_index(x: Any, axis: Any, keepdims: bool, initial: Any, where: Any,
                        op: str, reduce: Callable, arg: Callable, pick: Callable) -> tuple:
    """MindSpore 2.x ``ops.max`` / ``ops.min``: ``(values, indices)``. Along an axis the
    gradient goes to the first extreme of each slice (as ArgMaxWithValue's does); with
    ``axis=None`` the value is the reduction of every element (ties share the gradient) and
    the index is 0. ``where`` (which needs ``initial``) replaces the unselected elements by
    ``initial``; ``initial`` also bounds the result."""
    x = _in_dtype(_tensor(x, op, "input"), op)
    keepdims = _flag(keepdims, op, "keepdims")
    if where is not None:
        if initial is None:
            raise ValueError(f"For '{op}', 'initial' must be given when 'where' is.")
        x = select(_tensor(where, op, "where"), x, _full_like(x, initial))
    if x.ndim == 0 and axis is not None:  # a 0-d input's axis 0 (or -1) is all of it
        _axis(axis, 0, op)
        axis = None
    _nonempty(x, None if axis is None else (_axis(axis, x.ndim, op),), op)
    if axis is None:
        values, index = reduce(x), _near(Tensor(np.array(0, np.int64)), x)
    else:
        a = _axis(axis, x.ndim, op)
        index = arg(x, a, True)
        positions = reshape(arange(x.shape[a], dtype=index.dtype),
                            tuple(-1 if i == a else 1 for i in builtins.range(x.ndim)))
        values = reduce_sum(select(equal(positions, index), x, zeros_like(x)), a, True)
        if values.dtype != x.dtype:  # an integer sum widens: the values keep x's dtype
            values = cast(values, x.dtype)
        if not keepdims:
            values, index = squeeze(values, a), squeeze(index, a)
    if initial is not None:
        values = pick(values, _full_like(values, initial))
    return values, index


def max(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None,
        where: Any = None) -> tuple:
    """``(maximum values, their indices)`` along ``axis`` (MindSpore 2.x)."""
    return _extreme_with_index(input, axis, keepdims, initial, where, "max", reduce_max,
                               argmax, maximum)


def min(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None,
        where: Any = None) -> tuple:
    """``(minimum values, their indices)`` along ``axis`` (MindSpore 2.x)."""
    return _extreme_with_index(input, axis, keepdims, initial, where, "min", reduce_min,
                               _argmin64, minimum)


def cumsum(x: Any, axis: int, dtype: Any = None) -> Tensor:
    """Running sum along ``axis``, after casting to ``dtype`` when it is given."""
    return _cumsum_ext(x, axis, False, False, dtype, "cumsum")


def _cumsum_ext(x: Any, axis: int, exclusive: bool = False, reverse: bool = False,
                dtype: Any = None, op: str = "CumSum") -> Tensor:
    """MindSpore's ``CumSum(exclusive, reverse)``: exclusive sums start from 0; reverse ones
    run from the end (the running sum of the flipped input, flipped back)."""
    def scan(t: Tensor, a: int) -> Tensor:
        return flip(R.cumsum(flip(t, a), axis=a), a) if reverse else R.cumsum(t, axis=a)

    return _running(x, axis, exclusive, reverse, dtype, op, scan, 0)


def _running(x: Any, axis: int, exclusive: bool, reverse: bool, dtype: Any, op: str,
             scan: Callable, unit: int) -> Tensor:
    """A running sum or product ``scan(x, axis)``; an exclusive one is the inclusive one
    shifted by one place, ``unit`` (0 or 1) coming in at the start."""
    x = _tensor(x, op)
    if dtype is not None:
        x = cast(x, dtype)
    if unit == 0:
        x = _in_dtype(x, "cumsum", "x")
    else:  # bool and narrow integers multiply in int64, as MindSpore's CumProd
        wide = _rules.result_of_sum(S.dtype_of(x))
        x = x if wide == S.dtype_of(x) else S.cast(x, dtype=wide)
    if x.ndim == 0:
        return (zeros_like(x) if unit == 0 else ones_like(x)) if exclusive else x
    a = _axis(axis, x.ndim, op)
    out = scan(x, a)
    if exclusive and x.shape[a]:
        out = IX.shift(out, a, -1 if reverse else 1, unit)
    return out


def cumprod(input: Any, dim: int, dtype: Any = None) -> Tensor:
    """Running product along ``dim``; gradients are exact at zeros, to every order."""
    return _cumprod_ext(input, dim, False, False, dtype, "cumprod")


def _cumprod_ext(x: Any, axis: int, exclusive: bool = False, reverse: bool = False,
                dtype: Any = None, op: str = "CumProd") -> Tensor:
    """MindSpore's ``CumProd(exclusive, reverse)``: exclusive products start from 1; reverse
    ones run from the end."""
    def scan(t: Tensor, a: int) -> Tensor:
        return PR.cumprod(t, axis=a, reverse=bool(reverse))

    return _running(x, axis, exclusive, reverse, dtype, op, scan, 1)


def var(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """The variance over ``axis`` (all axes when None), divided by ``N - ddof``. Float
    tensors only (MindSpore refuses integer, bool and complex ones)."""
    return _var(x, axis, ddof, keepdims, "var")


def _var(x: Any, axis: Any, ddof: Any, keepdims: bool, op: str) -> Tensor:
    x = _in_dtype(_tensor(x, op), op, "x")
    if x.ndim == 0 and not (axis is None or isinstance(axis, (tuple, list)) and not axis):
        # MindSpore's var and std take no axis of a 0-d input (its sum and mean do)
        raise ValueError(f"For '{op}', a 0-D input has no axis, but got 'axis' {axis!r}; "
                         f"give axis=None.")
    if not _is_int(ddof):
        raise TypeError(f"For '{op}', 'ddof' must be an int, but got {type(ddof).__name__}.")
    # a Python int: a NumPy int64 divisor would widen a float32 variance to float64
    return RF.reduce_var(x, axis=_axes(axis, x.ndim, op), keepdims=_flag(keepdims, op, "keepdims"),
                         ddof=int(ddof))


@_composite
def std(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """The standard deviation (the square root of ``var``); float tensors only."""
    return sqrt(_var(x, axis, ddof, keepdims, "std"))


_INF = float("inf")
_MATRIX_ORDS = ("fro", "nuc", _INF, -_INF, 1, -1, 2, -2)


@_composite
def norm(A: Any, ord: Any = None, dim: Any = None, keepdim: bool = False, *,
         dtype: Any = None) -> Tensor:
    """MindSpore's ``ops.norm``: a vector norm over an int ``dim`` (or of a 1-D ``A``), a matrix
    norm over a 2-tuple ``dim`` (rows, columns) or of a 2-D ``A`` when ``ord`` is given; with
    neither ``ord`` nor ``dim``, the 2-norm of all elements."""
    x = _tensor(A, "norm", "A")
    if dtype is not None:
        x = cast(x, dtype)
    x = _in_dtype(x, "norm", "A")  # integers in float32, bool refused
    if S.dtype_of(x).kind == "c":
        # a complex tensor's norms are those of its moduli (real, as NumPy's), except the
        # matrix norms of singular values, which need the complex SVD
        matrix = (isinstance(dim, (tuple, list)) and len(dim) == 2) or (
            dim is None and ord is not None and x.ndim == 2)
        if matrix and isinstance(ord, (str, int)) and ord in ("nuc", 2, -2):
            raise TypeError(f"For 'norm', the matrix norm ord={ord!r} of a complex Tensor "
                            f"({x.dtype}) is not supported.")
        x = abs(x)
    keep = _flag(keepdim, "norm", "keepdim")
    if dim is None:
        if ord is None:
            return RF.reduce_norm(x, axis=None, keepdims=keep)
        if x.ndim not in (1, 2):
            raise ValueError(f"For 'norm', 'A' must be 1-D or 2-D when 'ord' is given and "
                             f"'dim' is None, but got shape {list(x.shape)}.")
        dim = 0 if x.ndim == 1 else (0, 1)
    if isinstance(dim, (tuple, list)):
        if len(dim) == 2:
            return _matrix_norm(x, ord, _norm_dim(dim[0], x), _norm_dim(dim[1], x), keep)
        if len(dim) != 1:
            raise ValueError(f"For 'norm', 'dim' must be an int (vector norm) or a 2-tuple "
                             f"(matrix norm), but got {dim}.")
        dim = dim[0]
    return _vector_norm(x, ord, _norm_dim(dim, x), keep)


def _norm_dim(d: Any, x: Tensor) -> int:
    if not _is_int(d):
        raise TypeError(f"For 'norm', 'dim' must be an int or a tuple of ints, but got "
                        f"{type(d).__name__}.")
    return _axis(d, x.ndim, "norm", "dim")


def _vector_norm(x: Tensor, ord: Any, d: int, keep: bool) -> Tensor:
    if isinstance(ord, bool) or not (ord is None or isinstance(ord, numbers.Real)):
        raise ValueError(f"For 'norm', 'ord' of a vector norm (an int 'dim' or a 1-D 'A') must "
                         f"be a number, inf or -inf, but got {ord!r}; 'fro' and 'nuc' need a "
                         f"2-tuple 'dim'.")
    axis = (d,) if x.ndim else None  # a 0-d A: its only element
    if ord in (_INF, -_INF):
        _nonempty(x, axis, "norm")
    if ord is None or ord == 2:
        return RF.reduce_norm(x, axis=axis, keepdims=keep)
    if ord == _INF:
        return R.reduce_max(abs(x), axis=axis, keepdims=keep)
    if ord == -_INF:
        return R.reduce_min(abs(x), axis=axis, keepdims=keep)
    if ord == 0:  # the count of nonzero elements: piecewise constant, no gradient
        return R.reduce_sum(cast(C.not_equal(x, 0), x.dtype), axis=axis, keepdims=keep)
    if ord == 1:
        return R.reduce_sum(abs(x), axis=axis, keepdims=keep)
    p = float(ord)
    return pow(R.reduce_sum(pow(abs(x), p), axis=axis, keepdims=keep), 1.0 / p)


def _matrix_norm(x: Tensor, ord: Any, row: int, col: int, keep: bool) -> Tensor:
    if row == col:
        raise ValueError(f"For 'norm', the two dims of a matrix norm must differ, but got "
                         f"({row}, {col}) for 'A' of shape {list(x.shape)}.")
    if isinstance(ord, bool) or not (ord is None or ord in _MATRIX_ORDS):
        raise ValueError(f"For 'norm', 'ord' of a matrix norm (a 2-tuple 'dim' or a 2-D 'A') "
                         f"must be one of 'fro', 'nuc', inf, -inf, 1, -1, 2, -2, but got "
                         f"{ord!r}.")
    if ord is None or ord == "fro":
        return RF.reduce_norm(x, axis=tuple(sorted((row, col))), keepdims=keep)
    if ord in ("nuc", 2, -2):
        # the singular values of the matrices (row, col), moved to the last two axes
        perm = tuple(i for i in range(x.ndim) if i not in (row, col)) + (row, col)
        sv = LX.svdvals(S.transpose(x, perm=perm) if perm != tuple(range(x.ndim)) else x)
        last = (sv.ndim - 1,)
        reduce = {"nuc": R.reduce_sum, 2: R.reduce_max, -2: R.reduce_min}[ord]
        out = reduce(sv, axis=last, keepdims=False)
    else:
        # 1: the largest column sum of |x| (summed over the rows); inf: the largest row sum
        inner, outer = (row, col) if ord in (1, -1) else (col, row)
        extreme = R.reduce_max if ord > 0 else R.reduce_min
        sums = R.reduce_sum(abs(x), axis=(inner,), keepdims=True)
        out = extreme(sums, axis=(outer,), keepdims=True)
    reduced = (row, col)
    if keep:
        return S.reshape(out, shape=tuple(1 if i in reduced else n for i, n in enumerate(x.shape)))
    return S.reshape(out, shape=tuple(n for i, n in enumerate(x.shape) if i not in reduced))


@_composite
def logsumexp(input: Any, dim: Any = None, keepdim: bool = False, *, axis: Any = None,
              keep_dims: Any = None) -> Tensor:
    """``log(sum(exp(input)))`` over ``dim`` (MindSpore 2.x's names; 1.x's ``axis`` and
    ``keep_dims`` are accepted as keywords)."""
    x = _in_dtype(_tensor(input, "logsumexp", "input"), "logsumexp", "input")
    if axis is not None:
        if dim is not None:
            raise TypeError("For 'logsumexp', give 'dim' or 'axis', not both.")
        dim = axis
    axis = dim
    if keep_dims is not None:
        keepdim = keep_dims
    keep_dims = keepdim
    axes = _axes(axis, x.ndim, "logsumexp")
    # the shift by the maximum only keeps exp in range: it is a constant for the derivatives;
    # an infinite maximum shifts by 0 instead (all -inf gives -inf, not -inf - -inf = NaN),
    # and so does an empty slice, which has no maximum (its sum of exps is 0: -inf)
    if _empty_slices(x, axes):
        m = R.reduce_sum(S.stop_gradient(A.mul(x, 0)), axis=axes, keepdims=True)
    else:
        m = R.reduce_max(S.stop_gradient(x), axis=axes, keepdims=True)
        m = C.select(C.isfinite(m), m, 0)
    keep_dims = _flag(keep_dims, "logsumexp", "keep_dims")
    total = R.reduce_sum(U.exp(A.sub(x, m)), axis=axes, keepdims=keep_dims)
    return A.add(U.log(total), m if keep_dims else S.reshape(m, shape=total.shape))


def softmax(input: Any, axis: Any = -1, *, dtype: Any = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``axis``, after casting to ``dtype`` when given."""
    x = _tensor(input, "softmax", "input")
    if dtype is not None:
        x = cast(x, dtype)
    x = _in_dtype(x, "softmax")
    if x.ndim == 0:
        raise ValueError("For 'softmax', 'input' must have rank >= 1, but got a 0-D Tensor.")
    _axis_given(axis, "softmax")
    axes = _axes(axis, x.ndim, "softmax")
    return RF.softmax(x, axis=tuple(range(x.ndim)) if axes is None else axes)


@_composite
def log_softmax(x: Any, axis: Any = -1) -> Tensor:
    x = _in_dtype(_tensor(x, "log_softmax"), "log_softmax", "x")
    _axis_given(axis, "log_softmax")
    axes = _axes(axis, x.ndim, "log_softmax")
    if x.size == 0:  # an empty input gives an empty result (the shift has no maximum)
        return A.sub(x, S.stop_gradient(x))
    z = A.sub(x, R.reduce_max(S.stop_gradient(x), axis=axes, keepdims=True))
    # z + (-log sum exp z): the cotangent of the small term is summed before it is negated
    return A.add(z, A.neg(U.log(R.reduce_sum(U.exp(z), axis=axes, keepdims=True))))


# --- linear algebra --------------------------------------------------------------------------
def matmul(x: Any, y: Any, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    """Matrix product with NumPy's rules (1-D operands, broadcast batch dimensions)."""
    a = _in_dtype(_tensor(x, "matmul", "x"), "matmul", "x")
    b = _in_dtype(_tensor(y, "matmul", "y"), "matmul", "y")
    transpose_a = _flag(transpose_a, "matmul", "transpose_a")
    transpose_b = _flag(transpose_b, "matmul", "transpose_b")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"For 'matmul', the inputs must not be scalars, but got shapes "
                         f"{list(a.shape)} and {list(b.shape)}.")
    if a.ndim >= 2 and b.ndim >= 2:
        return L.mm(a, b, transpose_a, transpose_b)
    for flag, arg, t in ((transpose_a, "x", a), (transpose_b, "y", b)):
        if flag and t.ndim < 2:  # a vector has no second axis to swap with
            raise ValueError(f"For 'matmul', transposing '{arg}' needs a matrix (rank >= 2), "
                             f"but got shape {list(t.shape)}.")
    if transpose_a:
        a = L.swap_last(a)
    if transpose_b:
        b = L.swap_last(b)
    a2 = S.reshape(a, shape=(1,) + a.shape) if a.ndim == 1 else a
    b2 = S.reshape(b, shape=b.shape + (1,)) if b.ndim == 1 else b
    out = L.matmul(a2, b2)
    if a.ndim == 1:  # drop the axis added to a (second to last), then the one added to b
        out = S.reshape(out, shape=out.shape[:-2] + out.shape[-1:])
    if b.ndim == 1:
        out = S.reshape(out, shape=out.shape[:-1])
    return out


def batch_matmul(x: Any, y: Any, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    return matmul(x, y, transpose_a, transpose_b)


bmm = batch_matmul


def dot(input: Any, other: Any) -> Tensor:
    """NumPy's ``dot`` (as MindSpore's): the last axis of ``input`` against the second to
    last of ``other``, e.g. (2, 3, 4) . (3, 4, 5) -> (2, 3, 3, 5)."""
    from .linalg_functions import np_dot  # built on this module

    return np_dot(input, other)


def outer(x: Any, y: Any) -> Tensor:
    """``x[i] * y[j]``, as a product of a column and a row: the backward pass is then two
    matrix-vector products (BLAS) instead of a full-size multiply and a reduction each."""
    x, y = _tensor(x, "outer", "x"), _tensor(y, "outer", "y")
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"For 'outer', 'x' and 'y' must be 1-D, but got shapes "
                         f"{list(x.shape)} and {list(y.shape)}.")
    return L.matmul(S.reshape(x, shape=(x.size, 1)), S.reshape(y, shape=(1, y.size)))


_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _einsum_normalize(equation: str, shapes: list) -> tuple[str, list]:
    """An explicit equation without '...' or spaces, and for every operand the shape it must
    be broadcast to (size-1 dimensions against larger ones, which einsum allows)."""
    eq = equation.replace(" ", "")
    if eq.count("->") > 1:
        raise ValueError(f"For 'einsum', the equation {equation!r} has more than one '->'.")
    lhs, arrow, out = eq.partition("->")
    subs = lhs.split(",")
    if len(subs) != len(shapes):
        raise ValueError(f"For 'einsum', the equation {equation!r} names {len(subs)} "
                         f"operand(s) but {len(shapes)} were given.")
    for s in subs + ([out] if arrow else []):
        bad = set(s.replace("...", "")) - set(_LABELS)
        if bad or s.count("...") > 1 or s.replace("...", "").count(".") > 0:
            raise ValueError(f"For 'einsum', invalid subscripts {s!r} in {equation!r}: use "
                             f"letters and at most one '...'.")
    used = set(eq) & set(_LABELS)
    spare = [c for c in _LABELS if c not in used]
    n_ell = 0
    for s, shp in zip(subs, shapes):
        letters = len(s.replace("...", ""))
        if "..." in s:
            n_ell = builtins.max(n_ell, len(shp) - letters)
        if len(shp) < letters or ("..." not in s and len(shp) != letters):
            raise ValueError(f"For 'einsum', subscripts {s!r} do not match an operand of rank "
                             f"{len(shp)} (shape {list(shp)}) in {equation!r}.")
    ell = "".join(spare[:n_ell])
    full = []
    for s, shp in zip(subs, shapes):
        k = len(shp) - len(s.replace("...", ""))
        full.append(s.replace("...", ell[n_ell - k:] if k else ""))
    if not arrow:  # implicit output: '...' first, then labels seen once, alphabetically
        counts: dict = {}
        for s in subs:
            for c in s.replace("...", ""):
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1))
    else:
        out = out.replace("...", ell)
    sizes: dict = {}
    for s, shp in zip(full, shapes):
        for c, d in zip(s, shp):
            if c in sizes and d != sizes[c] and 1 not in (d, sizes[c]):
                raise ValueError(f"For 'einsum', label {c!r} has sizes {sizes[c]} and {d} in "
                                 f"{equation!r} (shapes {[list(x) for x in shapes]}).")
            sizes[c] = builtins.max(sizes.get(c, d), d)
    if len(set(out)) != len(out) or set(out) - set("".join(full)):
        raise ValueError(f"For 'einsum', the output subscripts of {equation!r} must be "
                         f"distinct labels that appear in the inputs.")
    targets = []
    for s, shp in zip(full, shapes):
        # a repeated label reads a diagonal, so it cannot broadcast within one operand
        targets.append(tuple(sizes[c] if c not in s[:i] else d for i, (c, d) in
                             enumerate(zip(s, shp))))
    return ",".join(full) + "->" + out, targets


def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation (``'ij,jk->ik'``; implicit outputs and '...' supported). Its
    gradient with respect to each operand is again an einsum."""
    if not isinstance(equation, str):
        raise TypeError(f"For 'einsum', 'equation' must be a str, but got "
                        f"{type(equation).__name__}.")
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("For 'einsum', at least one operand is required.")
    ts = [_tensor(o, "einsum", f"operands[{i}]") for i, o in enumerate(operands)]
    eq, targets = _einsum_normalize(equation, [t.shape for t in ts])
    ts = [t if t.shape == tgt else S.broadcast_to(t, shape=tgt) for t, tgt in zip(ts, targets)]
    return LX.einsum(*ts, equation=eq)


def _square_batch(x: Tensor, op: str) -> None:
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For '{op}', the input must be a (batch of) square matrix of shape "
                         f"(..., n, n), but got {list(x.shape)}.")
    if x.dtype.np_dtype.kind != "f":
        raise TypeError(f"For '{op}', the input must be a float Tensor, but got {x.dtype}.")


def inverse(input: Any) -> Tensor:
    """The inverse of a (batch of) square matrix."""
    x = _tensor(input, "inverse", "input")
    _square_batch(x, "inverse")
    return LX.inverse(x)


def det(input: Any) -> Tensor:
    """The determinant of a (batch of) square matrix."""
    x = _tensor(input, "det", "input")
    _square_batch(x, "det")
    return LX.det(x)


matrix_determinant = det


def solve(a: Any, b: Any) -> Tensor:
    """``X`` with ``a @ X = b``; ``b`` is (a batch of) vectors ``(..., n)`` or matrices
    ``(..., n, k)``, batch dimensions broadcast."""
    a_ = _tensor(a, "solve", "a")
    b_ = _tensor(b, "solve", "b")
    _square_batch(a_, "solve")
    n = a_.shape[-1]
    vector = b_.ndim == a_.ndim - 1 and b_.shape[-1:] == (n,)
    bm = reshape(b_, b_.shape + (1,)) if vector else b_
    if bm.ndim < 2 or bm.shape[-2] != n:
        raise ValueError(f"For 'solve', 'b' must have shape (..., {n}) or (..., {n}, k) to "
                         f"match 'a' of shape {list(a_.shape)}, but got {list(b_.shape)}.")
    try:
        np.broadcast_shapes(a_.shape[:-2], bm.shape[:-2])
    except ValueError:
        raise ValueError(f"For 'solve', the batch dimensions of 'a' {list(a_.shape)} and 'b' "
                         f"{list(b_.shape)} can not broadcast.") from None
    if bm.dtype != a_.dtype:
        raise TypeError(f"For 'solve', 'a' and 'b' must have the same dtype, but got "
                        f"{a_.dtype} and {bm.dtype}.")
    out = LX.solve(a_, bm)
    return reshape(out, out.shape[:-1]) if vector else out


def cholesky(input_x: Any, upper: bool = False) -> Tensor:
    """The Cholesky factor of a symmetric positive-definite (batch of) matrix: lower ``L``
    with ``A = L L^T`` (only the lower triangle of A is read), or upper ``U = L^T`` reading
    the upper triangle."""
    x = _tensor(input_x, "cholesky", "input_x")
    _square_batch(x, "cholesky")
    upper = _flag(upper, "cholesky", "upper")
    if not upper:
        return LX.cholesky(x)
    return L.swap_last(LX.cholesky(L.swap_last(x)))


def svd(input: Any, full_matrices: bool = False, compute_uv: bool = True) -> Any:
    """The singular values ``s`` (descending) of a (batch of) matrix, and with ``compute_uv``
    the tuple ``(s, u, v)`` with ``input = u diag(s) v^T`` (``v`` itself, as MindSpore gives
    it). Derivatives need distinct nonzero singular values; those of ``u`` and ``v`` also
    need ``full_matrices=False`` unless the matrices are square. Where only ``s`` is needed,
    ``compute_uv=False`` also spares its gradient the terms for ``u`` and ``v``."""
    x = _tensor(input, "svd", "input")
    compute_uv = _flag(compute_uv, "svd", "compute_uv")
    if x.ndim < 2:
        raise ValueError(f"For 'svd', the input must be a (batch of) matrix of shape (..., m, n), "
                         f"but got {list(x.shape)}.")
    if x.dtype.np_dtype.kind != "f":
        raise TypeError(f"For 'svd', the input must be a float Tensor, but got {x.dtype}.")
    if not compute_uv:
        return LX.svdvals(x)
    return LX.svd(x, full_matrices=_flag(full_matrices, "svd", "full_matrices"))


# --- convolution and pooling -----------------------------------------------------------------
def _int_pair(v: Any, op: str, arg: str, allow_four: bool = False) -> tuple:
    """An int or a tuple of 2 ints (or of 4, MindSpore's (1, 1, h, w) form) as (h, w)."""
    vals = (v, v) if isinstance(v, (int, np.integer)) and not isinstance(v, bool) else v
    if isinstance(vals, (tuple, list)) and allow_four and len(vals) == 4:
        vals = tuple(vals[2:])
    if not isinstance(vals, (tuple, list)) or len(vals) != 2 or not builtins.all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in vals):
        raise TypeError(f"For '{op}', '{arg}' must be an int or a tuple of 2 ints, but got "
                        f"{v!r}.")
    return int(vals[0]), int(vals[1])


def _positive(pair: tuple, op: str, arg: str) -> tuple:
    if builtins.min(pair) < 1:
        raise ValueError(f"For '{op}', '{arg}' must be positive, but got {pair}.")
    return pair


def _explicit_padding(padding: Any, op: str) -> tuple:
    """int, (h, w) or (top, bottom, left, right) as ((top, bottom), (left, right))."""
    if isinstance(padding, (int, np.integer)) and not isinstance(padding, bool):
        p = ((int(padding),) * 2,) * 2
    elif isinstance(padding, (tuple, list)) and len(padding) == 2:
        h, w = _int_pair(tuple(padding), op, "padding")
        p = ((h, h), (w, w))
    elif isinstance(padding, (tuple, list)) and len(padding) == 4 and builtins.all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in padding):
        p = ((int(padding[0]), int(padding[1])), (int(padding[2]), int(padding[3])))
    else:
        raise TypeError(f"For '{op}', 'padding' must be an int or a tuple of 2 or 4 ints, but "
                        f"got {padding!r}.")
    if builtins.min(p[0] + p[1]) < 0:
        raise ValueError(f"For '{op}', 'padding' must be non-negative, but got {padding!r}.")
    return p


def _same_padding(hw: tuple, kernel: tuple, stride: tuple, dilation: tuple) -> tuple:
    """'same': output ceil(n / stride); the total padding is split with the extra row or
    column at the end, as MindSpore does."""
    out = []
    for n, k, s, d in zip(hw, kernel, stride, dilation):
        total = builtins.max((-(-n // s) - 1) * s + d * (k - 1) + 1 - n, 0)
        out.append((total // 2, total - total // 2))
    return tuple(out)


def _nchw(x: Tensor, op: str, arg: str = "x") -> None:
    if x.ndim != 4:
        raise ValueError(f"For '{op}', '{arg}' must be 4-D (N, C, H, W), but got shape "
                         f"{list(x.shape)}.")
    if x.dtype.np_dtype.kind != "f":
        raise TypeError(f"For '{op}', '{arg}' must be a float Tensor, but got {x.dtype}.")


def _check_out_size(x: Tensor, kernel: tuple, stride: tuple, padding: tuple, dilation: tuple,
                    op: str) -> None:
    for n, k, s, (lo, hi), d, name in zip(x.shape[2:], kernel, stride, padding, dilation, "HW"):
        if CV.out_size(n, k, s, lo + hi, d) < 1:
            raise ValueError(f"For '{op}', the padded input size {n + lo + hi} along {name} is "
                             f"smaller than the dilated kernel size {d * (k - 1) + 1}; input "
                             f"shape {list(x.shape)}.")


def conv2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, pad_mode: str = "valid",
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """2-D convolution (cross-correlation) of ``input`` (N, C, H, W) with ``weight``
    (O, C / groups, kh, kw). ``pad_mode``: 'valid' (no padding), 'same' (output
    ceil(H / stride)) or 'pad' (explicit ``padding``: int, (h, w) or (top, bottom, left,
    right)); ``padding`` may also be the string 'same' or 'valid'."""
    op = "conv2d"
    x = _tensor(input, op, "input")
    w = _tensor(weight, op, "weight")
    _nchw(x, op, "input")
    _nchw(w, op, "weight")
    if w.dtype != x.dtype:
        raise TypeError(f"For '{op}', 'input' and 'weight' must have the same dtype, but got "
                        f"{x.dtype} and {w.dtype}.")
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 1:
        raise ValueError(f"For '{op}', 'groups' must be a positive int, but got {groups!r}.")
    if x.shape[1] != w.shape[1] * groups or w.shape[0] % groups:
        raise ValueError(f"For '{op}', 'input' has {x.shape[1]} channels but 'weight' of shape "
                         f"{list(w.shape)} with groups={groups} expects "
                         f"{w.shape[1] * groups}, and its {w.shape[0]} output channels must "
                         f"be divisible by groups.")
    st = _positive(_int_pair(stride, op, "stride", True), op, "stride")
    dl = _positive(_int_pair(dilation, op, "dilation", True), op, "dilation")
    kernel = tuple(w.shape[2:])
    if isinstance(padding, str):
        pad_mode, padding = padding, 0
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode == "same":
        pads = _same_padding(x.shape[2:], kernel, st, dl)
    elif mode in ("valid", "pad"):
        pads = _explicit_padding(padding, op)
        if mode == "valid" and pads != ((0, 0), (0, 0)):
            raise ValueError(f"For '{op}', 'padding' must be 0 when pad_mode is 'valid', but "
                             f"got {padding!r}; use pad_mode='pad'.")
    else:
        raise ValueError(f"For '{op}', 'pad_mode' must be 'same', 'valid' or 'pad', but got "
                         f"{pad_mode!r}.")
    _check_out_size(x, kernel, st, pads, dl, op)
    out = CV.conv2d(x, w, stride=st, padding=pads, dilation=dl, groups=int(groups))
    if bias is not None:
        b = _tensor(bias, op, "bias")
        if b.shape != (w.shape[0],):
            raise ValueError(f"For '{op}', 'bias' must have shape [{w.shape[0]}], but got "
                             f"{list(b.shape)}.")
        out = A.add(out, S.reshape(b, shape=(1, w.shape[0], 1, 1)))
    return out


def _pool_geometry(x: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
                   ceil_mode: bool, op: str) -> tuple:
    """(kernel, stride, padding incl. ceil-mode overhang, dilation, user padding)."""
    _nchw(x, op)
    k = _positive(_int_pair(kernel_size, op, "kernel_size", True), op, "kernel_size")
    s = k if stride is None else _positive(_int_pair(stride, op, "stride", True), op, "stride")
    d = _positive(_int_pair(dilation, op, "dilation"), op, "dilation")
    p = _int_pair(padding, op, "padding")
    for pi, ki in zip(p, k):
        if pi < 0 or 2 * pi > ki:
            raise ValueError(f"For '{op}', 'padding' must be in [0, kernel_size / 2], but got "
                             f"padding {p} for kernel_size {k}.")
    pads = []
    for n, ki, si, pi, di in zip(x.shape[2:], k, s, p, d):
        span = n + 2 * pi - di * (ki - 1) - 1
        if span < 0:
            raise ValueError(f"For '{op}', the padded input of shape {list(x.shape)} is smaller "
                             f"than the (dilated) kernel {k}.")
        extra = 0
        if ceil_mode:
            o = -(-span // si) + 1
            if (o - 1) * si >= n + pi:  # the last window must start inside the input
                o -= 1
            extra = builtins.max((o - 1) * si + di * (ki - 1) + 1 - (n + 2 * pi), 0)
        pads.append((pi, pi + extra))
    return k, s, tuple(pads), d, p


def max_pool2d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False) -> Any:
    """2-D max pooling over (N, C, H, W). The gradient goes to the first maximum of each
    window; with ``return_indices`` the flat positions (in each H*W plane) come too."""
    x = _tensor(x, "max_pool2d")
    k, s, pads, d, _ = _pool_geometry(x, kernel_size, stride, padding, dilation, ceil_mode,
                                      "max_pool2d")
    out, idx = CV.max_pool2d(x, k, s, pads, d)
    return (out, idx) if return_indices else out


def _pool2d_same(x: Any, kernel_size: Any, strides: Any, kind: str, op: str) -> Tensor:
    """Pooling with TensorFlow/MindSpore 'same' padding (output ceil(H / stride), padding
    split with the extra row at the end); averages count only real elements."""
    x = _tensor(x, op)
    _nchw(x, op)
    k = _positive(_int_pair(kernel_size, op, "kernel_size", True), op, "kernel_size")
    s = _positive(_int_pair(strides, op, "strides", True), op, "strides")
    pads = _same_padding(x.shape[2:], k, s, (1, 1))
    if kind == "max":
        return CV.max_pool2d(x, k, s, pads, (1, 1))[0]
    total = CV.sum_pool2d(x, kernel=k, stride=s, padding=pads)
    counts = np.outer(*(np.minimum(np.arange(o) * si - lo + ki, n) - np.maximum(
        np.arange(o) * si - lo, 0) for n, ki, si, (lo, _), o in
        zip(x.shape[2:], k, s, pads, total.shape[2:])))
    return div(total, Tensor(counts.astype(x.dtype.np_dtype)))


def _window_counts(n: int, k: int, s: int, pad: int, extra: int, include_pad: bool) -> np.ndarray:
    """How many elements each window along one axis averages over."""
    o = (n + 2 * pad + extra - k) // s + 1
    start = np.arange(o) * s - pad
    lo, hi = (-pad, n + pad) if include_pad else (0, n)
    return np.minimum(start + k, hi) - np.maximum(start, lo)


def avg_pool2d(input_x: Any, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: Any = None) -> Tensor:
    """2-D average pooling over (N, C, H, W): window sums (a linear primitive) divided by the
    window size, by the number of real elements (``count_include_pad=False``), or by
    ``divisor_override``."""
    x = _tensor(input_x, "avg_pool2d", "input_x")
    k, s, pads, _, p = _pool_geometry(x, kernel_size, stride, padding, 1, ceil_mode,
                                      "avg_pool2d")
    total = CV.sum_pool2d(x, kernel=k, stride=s, padding=pads)
    if divisor_override:
        return div(total, float(divisor_override))
    ch, cw = (_window_counts(n, ki, si, pi, hi - pi, count_include_pad)
              for n, ki, si, pi, (_, hi) in zip(x.shape[2:], k, s, p, pads))
    counts = np.outer(ch, cw)
    if (counts == counts.flat[0]).all():
        return div(total, float(counts.flat[0]))
    return div(total, Tensor(counts.astype(x.dtype.np_dtype)))


def _public_names(namespace: dict) -> list:
    """The names a module of mindgrad.ops offers users (its ``__all__``): those it defines
    or re-exports from mindgrad, without private names, the modules it imports (np, math,
    the primitive modules A, C, S, ...) or typing helpers."""
    return sorted(n for n, v in namespace.items() if not n.startswith("_")
                  and getattr(v, "__module__", "").startswith("mindgrad."))


__all__ = _public_names(globals())

_tensor_module.F = __import__(__name__, fromlist=["_"])
_tensor_module._P = A
_tensor_module._bind = _bind

# MindSpore's ``ops.functional`` (``F``) also holds the transformations and structure helpers.
# They are built on this module (in ``composite``, ``taylor`` and ``multitype``), so they are
# looked up in the package on first use rather than imported here.
_FROM_PACKAGE = frozenset({"grad", "value_and_grad", "get_grad", "vjp", "jvp", "jacfwd", "jacrev",
                           "hessian", "vmap", "jet", "derivative", "laplacian", "linearize",
                           "GradOperation", "HyperMap", "Map", "MultitypeFuncGraph", "partial"})


def __getattr__(name: str) -> Any:
    if name in _FROM_PACKAGE:
        import importlib

        return getattr(importlib.import_module(__package__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
