"""MindSpore's other spellings of operators mindgrad already has: the primitive instances
``ops.tensor_add``, ``ops.pows``, ``ops.reshape_``, ... (called with the primitive's argument
names), the ``*_ext`` functions of MindSpore's Ascend kernels (``diff_ext``, ``einsum_ext``,
``baddbmm_ext``, ``mse_loss_ext``, ``isnan_ext``), and the small functions ``inv``, ``eps``,
``type_as``, ``fills`` and ``accumulate_n``.

Each calls the operator it spells, so it keeps that operator's dtype rules and gradient;
where MindSpore's spelling differs (``tensor_div`` of integers divides and truncates, as
the RealDiv primitive does; ``tensor_muls`` takes only a number as ``other``; ``diff_ext``
returns its input for ``n <= 0``) the difference is written here."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .functional import _composite
from .math_functions import addn, diff
from .matrix_functions import baddbmm
from .nn_functions import mse_loss


# --- the primitive instances (ops.tensor_add is MindSpore's P.Add(), ...) ---------------------
def _not_both_bool(x: Any, y: Any, op: str) -> None:
    """MindSpore's Add and RealDiv primitives take no pair of bool tensors (its ``ops.add``
    does; Mul's takes them)."""
    if isinstance(x, Tensor) and isinstance(y, Tensor) and x.dtype == y.dtype == mstype.bool_:
        raise TypeError(f"For '{op}', the operands must not both be bool Tensors (cast them "
                        f"to a number type first).")


@_composite
def tensor_add(input: Any, other: Any) -> Tensor:  # noqa: A002 - MindSpore's names
    """``input + other`` (MindSpore's Add primitive)."""
    _not_both_bool(input, other, "tensor_add")
    return F.add(input, other)


@_composite
def tensor_sub(*args: Any) -> Tensor:
    """``x - y`` (MindSpore's Sub primitive, called with two positional operands)."""
    if len(args) != 2:
        raise TypeError(f"For 'tensor_sub', two operands are required, but got {len(args)}.")
    return F.sub(*args)


@_composite
def tensor_mul(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input * other`` (MindSpore's Mul primitive)."""
    return F.mul(input, other)


def _full(like: Tensor, value: Any) -> Tensor:
    """A tensor of ``like``'s shape and dtype holding ``value``."""
    return F._fill(like.dtype, like.shape, value, "full")


def _int_limits(dt: np.dtype) -> tuple:
    info = np.iinfo(dt)
    return int(info.max), int(info.min)


@_composite
def tensor_div(x: Any, y: Any) -> Tensor:
    """``x / y`` (MindSpore's RealDiv primitive). Two integer tensors give an integer result
    truncated toward zero, and a division by zero the dtype's limit in the dividend's
    direction (0 for 0 / 0), as RealDiv's CPU kernel does; otherwise the true quotient."""
    a, b = F._operand(x, "tensor_div", "x"), F._operand(y, "tensor_div", "y")
    _not_both_bool(a, b, "tensor_div")
    if isinstance(a, Tensor) and isinstance(b, Tensor) and a._data.dtype.kind in "iu" \
            and b._data.dtype.kind in "iu":
        return _truncated_div(a, b)
    return F.div(a, b)


def _truncated_div(a: Tensor, b: Tensor) -> Tensor:
    dt = np.result_type(a._data.dtype, b._data.dtype)
    a, b = F.cast(a, mstype.from_numpy(dt)), F.cast(b, mstype.from_numpy(dt))
    zero = F.equal(b, 0)
    safe = F.select(zero, F.ones_like(b), b)
    # |a| // |b| with the sign of a * b: truncation toward zero, exact for every integer
    q = F.floor_div(F.abs(a), F.abs(safe))
    if dt.kind == "i":
        q = F.mul(q, F.mul(F.sign(a), F.sign(safe)))
    hi, lo = _int_limits(dt)
    limit = F.select(F.greater(a, 0), _full(a, hi),
                     F.select(F.less(a, 0), _full(a, lo), F.zeros_like(a)))
    return F.select(zero, limit, q)


@_composite
def tensor_floordiv(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``floor(input / other)`` (MindSpore's FloorDiv primitive)."""
    return F.floor_div(input, other)


@_composite
def tensor_mod(x: Any, y: Any) -> Tensor:
    """``x`` modulo ``y`` with the sign of ``y`` (MindSpore's FloorMod primitive)."""
    return F.floor_mod(x, y)


@_composite
def tensor_pow(input: Any, exponent: Any) -> Tensor:  # noqa: A002
    """``input ** exponent`` (MindSpore's Pow primitive)."""
    return F.pow(input, exponent)


@_composite
def pows(input: Any, exponent: Any) -> Tensor:  # noqa: A002
    """``input ** exponent`` (MindSpore's ``ops.pows``, another Pow primitive)."""
    return F.pow(input, exponent)


@_composite
def tensor_exp(input: Any) -> Tensor:  # noqa: A002
    """``e ** input`` (MindSpore's Exp primitive)."""
    return F.exp(input)


@_composite
def tensor_expm1(input: Any) -> Tensor:  # noqa: A002
    """``e ** input - 1`` (MindSpore's Expm1 primitive)."""
    return F.expm1(input)


@_composite
def tensor_ge(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input >= other`` (MindSpore's GreaterEqual primitive)."""
    return F.greater_equal(input, other)


@_composite
def tensor_gt(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input > other`` (MindSpore's ``ops.tensor_gt``, its ``greater``)."""
    return F.greater(input, other)


@_composite
def tensor_le(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input <= other`` (MindSpore's LessEqual primitive)."""
    return F.less_equal(input, other)


@_composite
def tensor_lt(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input < other`` (MindSpore's ``ops.tensor_lt``, its ``less``)."""
    return F.less(input, other)


@_composite
def tensor_muls(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input * other`` for a Tensor ``input`` and a Python number ``other`` (MindSpore's
    Muls): an integer tensor times a float gives float32, a bool number is 0 or 1."""
    x = F._strict_tensor(input, "tensor_muls", "input")
    if isinstance(other, Tensor) and other.ndim == 0:
        return F.mul(x, other)
    if not isinstance(other, (bool, int, float)):
        raise TypeError(f"For 'tensor_muls', 'other' must be a number, but got "
                        f"{type(other).__name__}.")
    if isinstance(other, bool):
        other = int(other)
    return F.mul(x, other)


@_composite
def reshape_(input: Any, shape: Any) -> Tensor:  # noqa: A002
    """``input`` with the shape ``shape`` (MindSpore's Reshape primitive)."""
    if isinstance(shape, Tensor):
        shape = tuple(int(d) for d in shape.asnumpy().reshape(-1))
    return F.reshape(input, tuple(shape) if isinstance(shape, list) else shape)


# --- the *_ext functions ------------------------------------------------------------------------
@_composite
def isnan_ext(tensor: Any) -> Tensor:
    """Where ``tensor`` is NaN (False everywhere for integer and bool tensors)."""
    return F.isnan(F._strict_tensor(tensor, "isnan_ext", "tensor"))


@_composite
def diff_ext(input: Any, n: int = 1, dim: int = -1, prepend: Any = None,  # noqa: A002
             append: Any = None) -> Tensor:
    """The ``n``-th forward difference along ``dim`` after joining ``prepend`` and
    ``append`` (of ``input``'s dtype); ``n <= 0`` gives ``input`` itself."""
    x = F._strict_tensor(input, "diff_ext", "input")
    if not F._is_int(n):
        raise TypeError(f"For 'diff_ext', 'n' must be an int, but got {type(n).__name__}.")
    if x.ndim == 0:
        raise IndexError("For 'diff_ext', 'input' must have rank >= 1, but got a 0-D Tensor.")
    ends = []
    for name, p in (("prepend", prepend), ("append", append)):
        t = None if p is None else F._strict_tensor(p, "diff_ext", name)
        if t is not None and t.dtype != x.dtype:
            raise TypeError(f"For 'diff_ext', '{name}' must have the dtype of 'input', "
                            f"{x.dtype}, but got {t.dtype}.")
        ends.append(t)
    if not F._is_int(dim):
        raise TypeError(f"For 'diff_ext', 'dim' must be an int, but got {type(dim).__name__}.")
    if not -x.ndim <= dim < x.ndim:
        raise IndexError(f"For 'diff_ext', 'dim' must be in [{-x.ndim}, {x.ndim}), but got "
                         f"{dim}.")
    if n <= 0:
        return x
    return diff(x, int(n), dim, *ends)


@_composite
def einsum_ext(equation: str, *operands: Any) -> Tensor:
    """Einstein summation, as ``ops.einsum``."""
    return F.einsum(equation, *operands)


@_composite
def baddbmm_ext(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1,  # noqa: A002
                alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)``, batch by batch (``ops.baddbmm``)."""
    return baddbmm(input, batch1, batch2, beta, alpha)


@_composite
def mse_loss_ext(input: Any, target: Any, reduction: str = "mean") -> Tensor:  # noqa: A002
    """The squared error of ``input`` and ``target`` (broadcast), reduced (``ops.mse_loss``)."""
    return mse_loss(input, target, reduction)


# --- small functions ------------------------------------------------------------------------------
_INV_DTYPES = ("float16", "float32", "float64", "int32", "int64", "complex64", "complex128")


@_composite
def inv(x: Any) -> Tensor:
    """``1 / x`` elementwise. An int32 or int64 tensor gives the reciprocal truncated toward
    zero in its dtype (``1 / 0``: the dtype's minimum), as MindSpore's Inv kernel does."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'inv', 'x' must be a Tensor, but got {type(x).__name__}.")
    t = x
    if t._data.dtype.name not in _INV_DTYPES:
        raise TypeError(f"For 'inv', 'x' must be a Tensor of float16, float32, float64, "
                        f"int32, int64, complex64 or complex128, but got {t.dtype}.")
    if t._data.dtype.kind != "i":
        return F.reciprocal(t)
    lo = _int_limits(t._data.dtype)[1]
    # 1 / x truncated: 1 for x = 1, -1 for x = -1, else 0; x = 0 gives the minimum
    q = F.select(F.equal(F.abs(t), 1), t, F.zeros_like(t))
    return F.select(F.equal(t, 0), _full(t, lo), q)


@_composite
def eps(x: Any) -> Tensor:
    """A tensor of ``x``'s shape and float dtype filled with that dtype's machine epsilon
    (its gradient is zero)."""
    t = F._strict_tensor(x, "eps", "x")
    if t._data.dtype.kind != "f":
        raise TypeError(f"For 'eps', 'x' must be a Tensor of float16, float32 or float64, "
                        f"but got {t.dtype}.")
    return _full(t, float(np.finfo(t._data.dtype).eps))


@_composite
def type_as(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input`` cast to the dtype of ``other``."""
    x = F._strict_tensor(input, "type_as", "input")
    y = F._strict_tensor(other, "type_as", "other")
    return F.cast(x, y.dtype)


@_composite
def fills(x: Any, value: Any) -> Tensor:
    """A tensor of ``x``'s shape and dtype filled with ``value`` (a number or a 0-D / one
    element Tensor); no gradient reaches ``x``."""
    t = F._strict_tensor(x, "fills", "x")
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"For 'fills', a Tensor 'value' must have one element, but got "
                             f"shape {list(value.shape)}.")
        value = value.asnumpy().reshape(()).item()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For 'fills', 'value' must be an int, a float or a one-element "
                        f"Tensor, but got {type(value).__name__}.")
    return _full(t, value)


def accumulate_n(x: Any) -> Tensor:
    """The elementwise sum of a list or tuple of tensors of one shape and dtype
    (``ops.addn``)."""
    try:
        return addn(x)
    except (TypeError, ValueError) as e:
        raise type(e)(str(e).replace("'AddN'", "'accumulate_n'")) from None


__all__ = ["tensor_add", "tensor_sub", "tensor_mul", "tensor_div", "tensor_floordiv",
           "tensor_mod", "tensor_pow", "pows", "tensor_exp", "tensor_expm1", "tensor_ge",
           "tensor_gt", "tensor_le", "tensor_lt", "tensor_muls", "reshape_", "isnan_ext",
           "diff_ext", "einsum_ext", "baddbmm_ext", "mse_loss_ext", "inv", "eps", "type_as",
           "fills", "accumulate_n"]
