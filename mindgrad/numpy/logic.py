"""Comparisons, logical operators, the value tests (``isnan``, ``isfinite`` ...),
whole-array tests (``array_equal``, ``isclose``), membership (``isin``, ``in1d``) and
``sometrue``. Results are bool tensors (no gradient)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from .. import ops
from ._utils import axes_arg, is_float, operands, to_tensor, with_dtype

__all__ = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
           "logical_and", "logical_or", "logical_xor", "logical_not", "isfinite", "isnan",
           "isinf", "isposinf", "isneginf", "signbit", "isclose", "array_equal",
           "array_equiv", "isin", "in1d", "isscalar", "sometrue"]


def _compare(name: str, fn: Callable, doc: str) -> Callable:
    def f(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
        a, b = operands(x1, x2, name)
        return with_dtype(fn(a, b), dtype, name)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


equal = _compare("equal", ops.equal, "Elementwise ``x1 == x2``.")
not_equal = _compare("not_equal", ops.not_equal, "Elementwise ``x1 != x2``.")
less = _compare("less", ops.less, "Elementwise ``x1 < x2``.")
less_equal = _compare("less_equal", ops.less_equal, "Elementwise ``x1 <= x2``.")
greater = _compare("greater", ops.greater, "Elementwise ``x1 > x2``.")
greater_equal = _compare("greater_equal", ops.greater_equal, "Elementwise ``x1 >= x2``.")


def _truth(x: Any, op: str, arg: str) -> Tensor:
    t = to_tensor(x, op, arg)
    return t if t.dtype == mstype.bool_ else ops.ne(t, ops.zeros_like(t))


def _logical(name: str, fn: Callable) -> Callable:
    def f(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
        return with_dtype(fn(_truth(x1, name, "x1"), _truth(x2, name, "x2")), dtype, name)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"The elementwise logical {name.split('_')[1].upper()} of the truth values."
    return f


logical_and = _logical("logical_and", ops.logical_and)
logical_or = _logical("logical_or", ops.logical_or)
logical_xor = _logical("logical_xor", ops.logical_xor)


def logical_not(a: Any, dtype: Any = None) -> Tensor:
    """The elementwise logical NOT of the truth values."""
    return with_dtype(ops.logical_not(_truth(a, "logical_not", "a")), dtype, "logical_not")


def _test(name: str, fn: Callable, default: bool, doc: str) -> Callable:
    """A value test; integer and bool input has no NaN or infinity (``default``)."""
    def f(x: Any, dtype: Any = None) -> Tensor:
        t = to_tensor(x, name, "x")
        out = fn(t) if is_float(t) else ops.full_like(t, default).astype(mstype.bool_)
        return with_dtype(out, dtype, name)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


isfinite = _test("isfinite", ops.isfinite, True, "Elementwise: neither infinite nor NaN.")
isnan = _test("isnan", ops.isnan, False, "Elementwise: NaN.")
isinf = _test("isinf", ops.isinf, False, "Elementwise: positive or negative infinity.")


def isposinf(x: Any) -> Tensor:
    """Elementwise: positive infinity."""
    return _test("isposinf", ops.isposinf, False, "")(x)


def isneginf(x: Any) -> Tensor:
    """Elementwise: negative infinity."""
    return _test("isneginf", ops.isneginf, False, "")(x)


def signbit(x: Any, dtype: Any = None) -> Tensor:
    """Elementwise: the sign bit is set (negative numbers and -0.0)."""
    t = to_tensor(x, "signbit", "x")
    if t.dtype == mstype.bool_ or t.dtype.np_dtype.kind == "u":
        out = ops.zeros_like(t).astype(mstype.bool_)
    elif is_float(t):
        out = ops.signbit(t)
    else:
        out = ops.lt(t, ops.zeros_like(t))
    return with_dtype(out, dtype, "signbit")


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (NaNs equal with ``equal_nan``)."""
    x, y = to_tensor(a, "isclose", "a"), to_tensor(b, "isclose", "b")
    if not is_float(x) and not is_float(y):
        x, y = x.astype(mstype.float32), y.astype(mstype.float32)
    return ops.isclose(x, y, float(rtol), float(atol), bool(equal_nan))


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    """True if the arrays have one shape and equal elements (NaNs equal with
    ``equal_nan``)."""
    x, y = to_tensor(a1, "array_equal", "a1"), to_tensor(a2, "array_equal", "a2")
    if x.shape != y.shape:
        return False
    eq = ops.equal(x, y)
    if equal_nan and (is_float(x) or is_float(y)):
        nan_x = ops.isnan(x) if is_float(x) else ops.zeros_like(eq)
        nan_y = ops.isnan(y) if is_float(y) else ops.zeros_like(eq)
        eq = ops.logical_or(eq, ops.logical_and(nan_x, nan_y))
    return bool(ops.all(eq).asnumpy())


def array_equiv(a1: Any, a2: Any) -> bool:
    """True if the arrays broadcast to one shape and are equal there."""
    x, y = to_tensor(a1, "array_equiv", "a1"), to_tensor(a2, "array_equiv", "a2")
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return False
    return bool(ops.all(ops.equal(x, y)).asnumpy())


def isin(element: Any, test_elements: Any, invert: bool = False) -> Tensor:
    """Elementwise: ``element``'s value occurs in ``test_elements`` (of ``element``'s
    shape)."""
    e = to_tensor(element, "isin", "element")
    t = ops.reshape(to_tensor(test_elements, "isin", "test_elements"), (-1,))
    if t.shape[0] == 0:
        found = ops.zeros_like(e).astype(mstype.bool_)
    else:
        found = ops.any(ops.equal(ops.expand_dims(e, -1), t), -1)
    return ops.logical_not(found) if invert else found


def in1d(ar1: Any, ar2: Any, invert: bool = False) -> Tensor:
    """``isin`` of the flattened ``ar1``."""
    return isin(ops.reshape(to_tensor(ar1, "in1d", "ar1"), (-1,)), ar2, invert)


def isscalar(element: Any) -> bool:
    """True for a Python or NumPy scalar (a Tensor, even 0-D, is not one)."""
    return isinstance(element, (bool, int, float, complex, str, bytes, np.generic))


def sometrue(a: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Whether any element over ``axis`` is true."""
    t = _truth(a, "sometrue", "a")
    ax = axes_arg(axis, t.ndim, "sometrue")
    return ops.any(t, ax if ax is not None else tuple(range(t.ndim)), bool(keepdims))
