"""``mindspore.numpy``: NumPy-style functions on Tensors, differentiable like every mindgrad
operation (``import mindspore.numpy as mnp``).

This is a subset of MindSpore's module: array creation, joining, products, the common
elementwise functions and the reductions, with NumPy's argument names (``axis``,
``keepdims``). Python numbers and lists become Tensors as MindSpore makes them: integers
Int32, floats Float32, bools Bool. Names MindSpore has and this module lacks raise
AttributeError."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as _np

from . import ops as _ops
from .core import dtype as _mstype
from .core.tensor import Tensor

# MindSpore's dtype names, as NumPy exposes its own
bool_ = _mstype.bool_
int8, int16, int32, int64 = _mstype.int8, _mstype.int16, _mstype.int32, _mstype.int64
uint8, uint16, uint32, uint64 = _mstype.uint8, _mstype.uint16, _mstype.uint32, _mstype.uint64
float16, float32, float64 = _mstype.float16, _mstype.float32, _mstype.float64
int_, float_ = int64, float64
pi, e, inf, nan = _np.pi, _np.e, _np.inf, _np.nan
PINF, NINF = _np.inf, -_np.inf

_DEFAULTS = {"b": _mstype.bool_, "i": _mstype.int32, "u": _mstype.int32, "f": _mstype.float32}


def _kind_dtype(data: Any) -> Any:
    """MindSpore's dtype for Python data: Int32 for integers, Float32 for floats."""
    kind = _np.asarray(data).dtype.kind
    if kind not in _DEFAULTS:
        raise TypeError(f"For 'mindspore.numpy.array', the input data must be int, float, "
                        f"bool, Tensor, list or tuple, but got {type(data).__name__}.")
    return _DEFAULTS[kind]


def array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> Tensor:
    """A Tensor from a Tensor, number, bool or (nested) list/tuple; at least ``ndmin``
    dimensions (ones prepended)."""
    if isinstance(obj, Tensor):
        out = obj.copy() if copy else obj
        if dtype is not None and out.dtype != dtype:
            out = _ops.cast(out, dtype)
    else:
        if isinstance(obj, _np.ndarray):
            raise TypeError("For 'mindspore.numpy.array', the input data must be int, float, "
                            "bool, Tensor, list or tuple, but got numpy.ndarray.")
        out = Tensor(obj, dtype=dtype if dtype is not None else _kind_dtype(obj))
    while out.ndim < ndmin:
        out = _ops.expand_dims(out, 0)
    return out


def asarray(a: Any, dtype: Any = None) -> Tensor:
    """Like ``array``, without copying a Tensor that already has ``dtype``."""
    return array(a, dtype, copy=False)


def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> Tensor:
    """Evenly spaced values in [start, stop): Int32 for integer arguments, else Float32."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if dtype is None:
        dtype = _kind_dtype([start, stop, step])
    return _ops.arange(start, stop, step, dtype=dtype)


def zeros(shape: Any, dtype: Any = float32) -> Tensor:
    return _ops.zeros(shape, dtype)


def ones(shape: Any, dtype: Any = float32) -> Tensor:
    return _ops.ones(shape, dtype)


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """``shape`` filled with ``fill_value`` (its dtype by MindSpore's rules unless given)."""
    if dtype is None:
        dtype = fill_value.dtype if isinstance(fill_value, Tensor) else _kind_dtype(fill_value)
    return _ops.full(shape if isinstance(shape, (tuple, list)) else (shape,), fill_value,
                     dtype=dtype)


def zeros_like(a: Tensor, dtype: Any = None) -> Tensor:
    return zeros(a.shape, dtype or a.dtype)


def ones_like(a: Tensor, dtype: Any = None) -> Tensor:
    return ones(a.shape, dtype or a.dtype)


def full_like(a: Tensor, fill_value: Any, dtype: Any = None) -> Tensor:
    return full(a.shape, fill_value, dtype or a.dtype)


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = float32) -> Tensor:
    """Ones on the ``k``-th diagonal of an N x M matrix."""
    return Tensor(_np.eye(N, M, k), dtype=dtype)


def identity(n: int, dtype: Any = float32) -> Tensor:
    return eye(n, dtype=dtype)


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True,
             dtype: Any = None) -> Tensor:
    """``num`` evenly spaced values from ``start`` to ``stop`` (included with ``endpoint``)."""
    if endpoint:
        out = _ops.linspace(float(start), float(stop), num)
    else:
        out = _ops.linspace(float(start), float(stop), num + 1)[:num]
    return out if dtype is None else _ops.cast(out, dtype)


def stack(arrays: Sequence[Tensor], axis: int = 0) -> Tensor:
    return _ops.stack(list(arrays), axis)


def concatenate(arrays: Sequence[Tensor], axis: int = 0) -> Tensor:
    return _ops.concat(list(arrays), axis)


def hstack(tup: Sequence[Tensor]) -> Tensor:
    return concatenate(tup, 0 if tup[0].ndim == 1 else 1)


def vstack(tup: Sequence[Tensor]) -> Tensor:
    return concatenate([t if t.ndim > 1 else t.reshape(1, -1) for t in tup], 0)


def dot(a: Tensor, b: Tensor) -> Tensor:
    """NumPy's dot: products of scalars, the inner product of vectors, else a sum over the
    last axis of ``a`` and the second-to-last of ``b`` (the last, for a vector ``b``)."""
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        raise TypeError(f"For 'mindspore.numpy.dot', both inputs must be Tensors, but got "
                        f"{type(a).__name__} and {type(b).__name__}.")
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    b_axis = 0 if b.ndim == 1 else b.ndim - 2
    if a.shape[-1] != b.shape[b_axis]:
        raise ValueError(f"For 'mindspore.numpy.dot', shapes {list(a.shape)} and "
                         f"{list(b.shape)} are not aligned.")
    return _ops.tensor_dot(a, b, ((a.ndim - 1,), (b_axis,)))


def matmul(a: Tensor, b: Tensor) -> Tensor:
    return _ops.matmul(a, b)


def inner(a: Tensor, b: Tensor) -> Tensor:
    """The sum over the last axes of ``a`` and ``b``."""
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return _ops.tensor_dot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


def outer(a: Tensor, b: Tensor) -> Tensor:
    return _ops.outer(a.reshape(-1), b.reshape(-1))


def sum(a: Tensor, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    out = _ops.sum(a, axis, keepdims)
    return out if dtype is None else _ops.cast(out, dtype)


def mean(a: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _ops.mean(a, axis, keepdims)


def amax(a: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _ops.amax(a, axis, keepdims)


def amin(a: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _ops.amin(a, axis, keepdims)


max = amax  # noqa: A001 (NumPy's names)
min = amin  # noqa: A001


def reshape(a: Tensor, newshape: Any) -> Tensor:
    return _ops.reshape(a, newshape)


def transpose(a: Tensor, axes: Any = None) -> Tensor:
    return _ops.transpose(a, tuple(reversed(range(a.ndim))) if axes is None else tuple(axes))


def squeeze(a: Tensor, axis: Any = None) -> Tensor:
    return _ops.squeeze(a, axis)


def expand_dims(a: Tensor, axis: int) -> Tensor:
    return _ops.expand_dims(a, axis)


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    if x is None and y is None:
        return tuple(Tensor(i, dtype=int32) for i in _np.nonzero(condition.asnumpy()))
    return _ops.where(condition, x, y)


def clip(a: Tensor, a_min: Any, a_max: Any) -> Tensor:
    return _ops.clip(a, a_min, a_max)


def _same(name: str) -> Any:
    fn = getattr(_ops, name)
    return fn


# elementwise functions whose NumPy and mindgrad signatures agree (positional tensors)
abs = absolute = _same("abs")  # noqa: A001
add, subtract, multiply = _same("add"), _same("sub"), _same("mul")
divide = true_divide = _same("div")
power, maximum, minimum = _same("pow"), _same("maximum"), _same("minimum")
exp, log, sqrt, square = _same("exp"), _same("log"), _same("sqrt"), _same("square")
sin, cos, tan, tanh = _same("sin"), _same("cos"), _same("tan"), _same("tanh")
negative, sign, floor, ceil = _same("neg"), _same("sign"), _same("floor"), _same("ceil")
