"""The operations whose dtype rules are recorded from MindSpore (``tools/record_dtype_rules.py``)
and checked against mindgrad (``tests/test_dtype_rules.py``).

Each case is ``name -> fn(ms, x)``: ``ms`` is the framework module (``mindspore`` or
``mindgrad``), ``x`` an input Tensor of the dtype under test, built by ``make_input``. Only
public API that both frameworks share is used, so one list serves both sides.
"""
from __future__ import annotations

import numpy as np

# The dtypes every case is tried with (NumPy names; both frameworks accept the arrays).
DTYPES = ("int32", "int64", "bool", "float16", "float32", "float64", "complex64", "complex128")

# Values inside every op's domain where possible (asin/acos/atanh need |x| < 1, log x > 0);
# integer and bool inputs cannot be, which only changes values, not dtypes.
_VALUES = {
    "f": [0.25, 0.5, 0.75, 0.125, 0.375, 0.625],
    "c": [0.25 + 0.5j, 0.5 - 0.25j, 0.75 + 0.125j, 0.125, 0.375j, 0.625 - 0.5j],
    "i": [1, 2, 3, 4, 5, 6],
    "b": [True, False, True, True, False, True],
}


def make_input(tensor_cls, dtype: str, shape: tuple = (2, 3)):
    """A Tensor of ``dtype`` and ``shape`` (at most 6 elements) from the values above."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    return tensor_cls(np.array(_VALUES[dt.kind][:n], dtype=dt).reshape(shape))


def _unary(name):
    return lambda ms, x: getattr(ms.ops, name)(x)


def _binary(name):
    return lambda ms, x: getattr(ms.ops, name)(x, x)


UNARY = ("abs", "neg", "square", "sqrt", "rsqrt", "reciprocal", "exp", "exp2", "expm1", "log",
         "log2", "log10", "log1p", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos",
         "atan", "asinh", "acosh", "atanh", "erf", "erfc", "sigmoid", "relu", "relu6",
         "softplus", "elu", "leaky_relu", "gelu", "silu", "mish", "hardswish", "sign", "floor",
         "ceil", "round", "logical_not", "isnan", "isinf", "isfinite")
BINARY = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "floor_div", "floor_mod",
          "fmod", "atan2", "equal", "less", "logical_and")

CASES: dict = {}
CASES.update({name: _unary(name) for name in UNARY})
CASES.update({name: _binary(name) for name in BINARY})
CASES.update({
    # Python scalars meeting a tensor
    "add_float_scalar": lambda ms, x: x + 1.5,
    "mul_int_scalar": lambda ms, x: x * 2,
    "div_int_scalar": lambda ms, x: x / 2,
    "pow_int_scalar": lambda ms, x: x ** 2,
    "pow_float_scalar": lambda ms, x: x ** 0.5,
    "matmul": lambda ms, x: ms.ops.matmul(x, ms.ops.transpose(x, (1, 0))),
    # reductions
    "sum": lambda ms, x: ms.ops.sum(x),
    "sum_axis": lambda ms, x: ms.ops.sum(x, 1),
    "mean": lambda ms, x: ms.ops.mean(x),
    "prod": lambda ms, x: ms.ops.prod(x),
    "amax": lambda ms, x: ms.ops.amax(x),
    "amin": lambda ms, x: ms.ops.amin(x),
    "max_axis_values": lambda ms, x: ms.ops.max(x, 1)[0],
    "max_axis_indices": lambda ms, x: ms.ops.max(x, 1)[1],
    "min_axis_indices": lambda ms, x: ms.ops.min(x, 1)[1],
    "argmax": lambda ms, x: ms.ops.argmax(x),
    "argmax_axis": lambda ms, x: ms.ops.argmax(x, 1),
    "argmin": lambda ms, x: ms.ops.argmin(x),
    "argmin_axis": lambda ms, x: ms.ops.argmin(x, 1),
    "all": lambda ms, x: ms.ops.all(x),
    "any": lambda ms, x: ms.ops.any(x),
    "var": lambda ms, x: ms.ops.var(x),
    "var_axis": lambda ms, x: ms.ops.var(x, 1),
    "std": lambda ms, x: ms.ops.std(x),
    "norm": lambda ms, x: ms.ops.norm(x),
    "norm_dim": lambda ms, x: ms.ops.norm(x, dim=1),
    "norm_ord1": lambda ms, x: ms.ops.norm(x, 1, dim=1),
    "logsumexp": lambda ms, x: ms.ops.logsumexp(x, 1),
    "softmax": lambda ms, x: ms.ops.softmax(x, -1),
    "log_softmax": lambda ms, x: ms.ops.log_softmax(x, -1),
    "cumsum": lambda ms, x: ms.ops.cumsum(x, 1),
    "cumprod": lambda ms, x: ms.ops.cumprod(x, 1),
    "Tensor.mean": lambda ms, x: x.mean(),
    "Tensor.sum": lambda ms, x: x.sum(),
    # layers
    "nn.Dense": lambda ms, x: ms.nn.Dense(3, 2)(x),
})


def result_dtype(out) -> str:
    """The MindSpore name of a result's dtype (``Float32``)."""
    return str(out.dtype)
