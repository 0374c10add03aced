"""Unpooling and fractional max pooling layers of ``mindspore.nn``: ``MaxUnpool1d`` /
``2d`` / ``3d`` and ``FractionalMaxPool2d`` / ``3d``, over ``ops.unpool_functions``."""
from __future__ import annotations

from typing import Any

from ...ops import unpool_functions as U
from ..cell import Cell

__all__ = ["MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d",
           "FractionalMaxPool3d"]


class _MaxUnpool(Cell):
    fn: Any = None

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size, self.padding = kernel_size, padding
        self.stride = kernel_size if stride is None else stride

    def construct(self, x: Any, indices: Any, output_size: Any = None) -> Any:
        who = type(self).__name__
        if output_size is not None:
            if not isinstance(output_size, tuple):
                raise ValueError(f"For {who}, output_size must be tuple, but type "
                                 f"{type(output_size)}.")
            if not output_size:
                raise ValueError(f"For {who}, the length of output_size must be positive, but "
                                 f"got 0.")
        return type(self).fn(x, indices, self.kernel_size, self.stride, self.padding,
                             output_size)


class MaxUnpool1d(_MaxUnpool):
    """``ops.max_unpool1d`` as a layer: ``construct(x, indices, output_size=None)``."""

    fn = staticmethod(U.max_unpool1d)


class MaxUnpool2d(_MaxUnpool):
    """``ops.max_unpool2d`` as a layer."""

    fn = staticmethod(U.max_unpool2d)


class MaxUnpool3d(_MaxUnpool):
    """``ops.max_unpool3d`` as a layer."""

    fn = staticmethod(U.max_unpool3d)


class _FractionalMaxPool(Cell):
    fn: Any = None

    def __init__(self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                 return_indices: bool = False, _random_samples: Any = None) -> None:
        super().__init__()
        self.kernel_size, self.output_size = kernel_size, output_size
        self.output_ratio, self.return_indices = output_ratio, return_indices
        self._random_samples = _random_samples

    def construct(self, input: Any) -> Any:  # noqa: A002
        return type(self).fn(input, self.kernel_size, self.output_size, self.output_ratio,
                             self.return_indices, self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPool):
    """``ops.fractional_max_pool2d`` as a layer (new window positions on each call unless
    ``_random_samples`` fixes them)."""

    fn = staticmethod(U.fractional_max_pool2d)


class FractionalMaxPool3d(_FractionalMaxPool):
    """``ops.fractional_max_pool3d`` as a layer."""

    fn = staticmethod(U.fractional_max_pool3d)
