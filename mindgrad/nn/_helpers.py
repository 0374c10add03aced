"""Small helpers shared by layers and losses: a float one-hot mask (over ``ops.one_hot``),
'same'-mode padding amounts and argument checks."""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..core.tensor import Tensor
from ..core.device import to_device
from ..ops import functional as F
from ..prims import indexing as IX
from ..prims import structural as S


def one_hot_mask(indices: Tensor, depth: int, axis: int, dtype: Any, who: str, arg: str,
                 what: str = "", ignore: Any = None) -> Tensor:
    """``1`` where the position along the new ``axis`` equals the index, ``0`` elsewhere; no
    gradient flows through it. An index outside ``[0, depth)`` is an error of ``who`` naming
    ``arg`` (see ``checked_indices``), except ``ignore``, which gives an all-zero row."""
    if S.dtype_of(indices).kind not in "iu":
        raise TypeError(f"For '{who}', {arg} must be an integer Tensor, but got "
                        f"{indices.dtype}.")
    indices = IX.checked_indices(indices, depth, who, f"each value of {arg}", what=what,
                                 ignore=ignore)
    axis = axis % (indices.ndim + 1)
    on, off = _on_off(np.dtype(dtype), type(indices._data))
    return F.one_hot(indices, depth, on, off, -1 if axis == indices.ndim else axis)


@functools.lru_cache(maxsize=None)
def _on_off(dtype: np.dtype, array_type: type) -> tuple:
    """The 1 and 0 of ``dtype`` as Tensors of ``array_type`` (NumPy's or CuPy's array: the
    indices' device), made once."""
    device = "CPU" if array_type is np.ndarray else "GPU"
    return (Tensor._wrap(to_device(np.ones((), dtype), device, "one_hot")),
            Tensor._wrap(to_device(np.zeros((), dtype), device, "one_hot")))


def same_pads(size: tuple, kernel: tuple, stride: tuple, dilation: tuple = (1, 1)) -> tuple:
    """``(left, right, top, bottom)`` padding of 'same' mode (the order ``ops.pad`` takes for
    the last two axes): the output has ``ceil(size / stride)`` positions; the odd element of
    padding goes at the end."""
    amounts = []
    for n, k, s, d in zip(size, kernel, stride, dilation):
        total = max((-(-n // s) - 1) * s + (k - 1) * d + 1 - n, 0)
        amounts.append((total // 2, total - total // 2))
    (top, bottom), (left, right) = amounts
    return left, right, top, bottom


def pair(value: Any, name: str, who: str) -> tuple:
    """An int or a pair of positive ints as a pair."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value, value)
    if not isinstance(value, (tuple, list)) or len(value) != 2 or any(
            isinstance(v, bool) or not isinstance(v, int) or v <= 0 for v in value):
        raise ValueError(f"For '{who}', '{name}' must be a positive int or a tuple of two "
                         f"positive ints, but got {value!r}.")
    return tuple(value)
