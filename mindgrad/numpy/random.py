"""Random sampling: ``rand``, ``randn`` and ``randint``, drawn from mindgrad's seeded
generator (``mindspore.set_seed`` repeats them)."""
from __future__ import annotations

from typing import Any

from ..core import dtype as mstype
from ..core.tensor import Tensor
from .. import ops
from ._utils import ms_dtype, shape_arg

__all__ = ["rand", "randn", "randint"]


def _shape(shape: tuple, op: str) -> tuple:
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        shape = tuple(shape[0])
    return shape_arg(shape, op)


def _float_dtype(dtype: Any, op: str) -> mstype.DType:
    dt = ms_dtype(dtype, op)
    if not dt.is_floating:
        raise TypeError(f"For '{op}', 'dtype' must be a float type, but got {dt}.")
    return dt


def rand(*shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """Uniform samples in ``[0, 1)`` of the given shape (ints or one tuple)."""
    return ops.rand(*_shape(shape, "rand"), dtype=_float_dtype(dtype, "rand"))


def randn(*shape: Any, dtype: Any = mstype.float32) -> Tensor:
    """Standard normal samples of the given shape (ints or one tuple)."""
    return ops.randn(*_shape(shape, "randn"), dtype=_float_dtype(dtype, "randn"))


def randint(minval: int, maxval: Any = None, shape: Any = None,
            dtype: Any = mstype.int32) -> Tensor:
    """Uniform integers in ``[minval, maxval)`` (``[0, minval)`` without ``maxval``)."""
    if maxval is None:
        minval, maxval = 0, minval
    for v, n in ((minval, "minval"), (maxval, "maxval")):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"For 'randint', '{n}' must be an int, but got {type(v).__name__}.")
    if maxval <= minval:
        raise ValueError(f"For 'randint', 'maxval' ({maxval}) must be greater than 'minval' "
                         f"({minval}).")
    dt = ms_dtype(dtype, "randint")
    if dt.np_dtype.kind not in "iu":
        raise TypeError(f"For 'randint', 'dtype' must be an integer type, but got {dt}.")
    size = () if shape is None else shape_arg(shape, "randint")
    return ops.randint(minval, maxval, size, dtype=dt)
