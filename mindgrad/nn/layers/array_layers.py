"""Small array and math layers of ``mindspore.nn``: ``PixelShuffle``, ``PixelUnshuffle``,
``Unflatten``, ``Tril``, ``Triu``, ``Range``, ``OneHot``, ``Norm``, ``Moments`` and
``ReduceLogSumExp``, each a call of differentiable operators with MindSpore's arguments (and
its quirks: ``Moments``'s variance stops the gradient through the mean; ``Norm`` and
``Moments`` with the default ``axis=()`` reduce everything)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core import dtype as mstype
from ...core.tensor import Tensor
from ... import ops
from ...ops import functional as F
from ..cell import Cell


class PixelShuffle(Cell):
    """``(..., C r^2, H, W)`` to ``(..., C, H r, W r)`` (``ops.pixel_shuffle``)."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input: Tensor) -> Tensor:  # noqa: A002
        return ops.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """``(..., C, H r, W r)`` to ``(..., C r^2, H, W)`` (``ops.pixel_unshuffle``)."""

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, input: Tensor) -> Tensor:  # noqa: A002
        return ops.pixel_unshuffle(input, self.downscale_factor)


class Unflatten(Cell):
    """Axis ``axis`` of the input reshaped into ``unflattened_size``."""

    def __init__(self, axis: int, unflattened_size: Any) -> None:
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'Unflatten', the 'axis' must be int, but got "
                            f"{type(axis).__name__}.")
        if not isinstance(unflattened_size, (list, tuple)):
            raise TypeError(f"For 'Unflatten', the type of 'unflattended_size' must be list or "
                            f"tuple, but got {type(unflattened_size).__name__}.")
        self.axis, self.unflattened_size = axis, tuple(unflattened_size)

    def construct(self, input_x: Tensor) -> Tensor:
        shape = tuple(input_x.shape)
        rest = shape[self.axis + 1:] if self.axis != -1 else ()
        return F.reshape(input_x, shape[:self.axis] + self.unflattened_size + rest)


class _Triangle(Cell):
    keep_lower = True

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        fn = ops.tril if self.keep_lower else ops.triu
        return fn(x, k)


class Tril(_Triangle):
    """The lower triangle (from diagonal ``k``, a call argument) of the last two axes."""


class Triu(_Triangle):
    """The upper triangle (from diagonal ``k``, a call argument) of the last two axes."""

    keep_lower = False


class Range(Cell):
    """``arange(start, limit, delta)`` made once; Float32 when any argument is a float,
    Int32 otherwise."""

    def __init__(self, start: Any, limit: Any = None, delta: Any = 1) -> None:
        super().__init__()
        if delta == 0:
            raise ValueError("For 'Range', the 'delta' can not be zero.")
        data = np.arange(start, limit, delta)
        dtype = np.float32 if data.dtype == np.float64 else np.int32
        self.result_tensor = Tensor(data.astype(dtype))

    def construct(self) -> Tensor:
        return self.result_tensor


class OneHot(Cell):
    """``on_value`` at each index along a new axis ``axis`` of size ``depth``,
    ``off_value`` elsewhere, of ``dtype``."""

    def __init__(self, axis: int = -1, depth: int = 1, on_value: Any = 1.0,
                 off_value: Any = 0.0, dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.axis, self.depth, self.dtype = axis, depth, dtype
        self.on_value, self.off_value = on_value, off_value

    def construct(self, indices: Tensor) -> Tensor:
        on = Tensor(np.asarray(self.on_value, self.dtype.np_dtype))
        off = Tensor(np.asarray(self.off_value, self.dtype.np_dtype))
        return F.one_hot(indices, self.depth, on, off, self.axis)


def _squeezed(x: Tensor, axis: Any) -> Tensor:
    """MindSpore's ``Squeeze(axis)``: ``()`` drops every axis of size 1."""
    if axis == () or axis == []:
        return F.reshape(x, tuple(d for d in x.shape if d != 1))
    return F.squeeze(x, axis)


class Norm(Cell):
    """``sqrt(sum(x ** 2))`` over ``axis`` (``()``: all axes)."""

    def __init__(self, axis: Any = (), keep_dims: bool = False) -> None:
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'Norm', the 'keep_dims' must be bool, but got "
                            f"{type(keep_dims).__name__}.")
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x: Tensor) -> Tensor:
        out = F.sqrt(F.reduce_sum(F.square(x), self.axis, True))
        return out if self.keep_dims else _squeezed(out, self.axis)

    def extend_repr(self) -> str:
        return f"axis={self.axis}, keep_dims={self.keep_dims}"


class Moments(Cell):
    """``(mean, variance)`` over ``axis`` (``None`` / ``()``: all axes); the variance is
    taken about the mean with its gradient stopped, and Float16 is computed in Float32."""

    def __init__(self, axis: Any = None, keep_dims: Any = None) -> None:
        super().__init__()
        axis = () if axis is None else axis
        if isinstance(axis, bool) or not isinstance(axis, (int, tuple)) or (
                isinstance(axis, tuple) and not all(isinstance(a, int) for a in axis)):
            raise TypeError(f"For 'Moments', the 'axis' must be an int or a tuple of ints, but "
                            f"got {axis!r}.")
        keep_dims = False if keep_dims is None else keep_dims
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'Moments', the 'keep_dims' must be bool, but got "
                            f"{type(keep_dims).__name__}.")
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x: Tensor) -> tuple:
        if x.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"For 'Moments', the 'input x' must be Float16 or Float32, but got "
                            f"{x.dtype}.")
        half = x.dtype == mstype.float16
        if half:
            x = F.cast(x, mstype.float32)
        mean = F.reduce_mean(x, self.axis, True)
        diff = F.sub(x, F.stop_gradient(mean))
        var = F.reduce_mean(F.mul(diff, diff), self.axis, True)
        if not self.keep_dims:
            mean, var = _squeezed(mean, self.axis), _squeezed(var, self.axis)
        if half:
            mean, var = F.cast(mean, mstype.float16), F.cast(var, mstype.float16)
        return mean, var


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x)))`` over ``axis``, shifted by the maximum for stability."""

    def __init__(self, axis: Any, keep_dims: bool = False) -> None:
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, (int, list, tuple)):
            raise TypeError(f"For 'ReduceLogSumExp', the 'axis' must be int, list or tuple, but "
                            f"got {type(axis).__name__}.")
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'ReduceLogSumExp', the 'keep_dims' must be bool, but got "
                            f"{type(keep_dims).__name__}.")
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x: Tensor) -> Tensor:
        shift = F.reduce_max(x)
        total = F.reduce_sum(F.exp(F.sub(x, shift)), self.axis, self.keep_dims)
        return F.add(F.log(total), shift)


__all__ = ["PixelShuffle", "PixelUnshuffle", "Unflatten", "Tril", "Triu", "Range", "OneHot",
           "Norm", "Moments", "ReduceLogSumExp"]


class Upsample(Cell):
    """``ops.interpolate(x, size, scale_factor, mode, align_corners,
    recompute_scale_factor)``."""

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: Any = None, recompute_scale_factor: Any = None) -> None:
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, x: Tensor) -> Tensor:
        return ops.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                               self.recompute_scale_factor)


__all__ += ["Upsample"]
