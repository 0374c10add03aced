"""``nn.MaxPool2d`` and ``nn.AvgPool2d`` over the functional ``ops.max_pool2d`` /
``ops.avg_pool2d``. ``pad_mode='same'`` pads here (with -inf for max pooling; average
pooling then divides by the number of real, unpadded elements in each window)."""
from __future__ import annotations

from typing import Any

from ...core.tensor import Tensor
from ...ops import functional as F
from .._helpers import pair, same_pads
from ..cell import Cell


class _Pool2d(Cell):
    def __init__(self, kernel_size: Any, stride: Any, pad_mode: str, padding: Any,
                 data_format: str) -> None:
        super().__init__()
        name = type(self).__name__
        self.kernel_size = pair(kernel_size, "kernel_size", name)
        self.stride = pair(stride, "stride", name)
        mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
        if mode not in ("same", "valid", "pad"):
            raise ValueError(f"For '{name}', 'pad_mode' must be 'same', 'valid' or 'pad', but "
                             f"got {pad_mode!r}.")
        pad = (padding, padding) if isinstance(padding, int) and not isinstance(padding, bool) \
            else padding
        if not isinstance(pad, (tuple, list)) or len(pad) != 2 or any(
                isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in pad):
            raise ValueError(f"For '{name}', 'padding' must be a non-negative int or a pair of "
                             f"them, but got {padding!r}.")
        if mode != "pad" and any(pad):
            raise ValueError(f"For '{name}', 'padding' must be 0 unless pad_mode is 'pad', but "
                             f"got {padding!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{name}', only data_format='NCHW' is supported, but got "
                             f"{data_format!r}.")
        self.pad_mode, self.padding = mode, tuple(pad)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim not in (3, 4):
            raise ValueError(f"For '{type(self).__name__}', the input must have shape "
                             f"(N, C, H, W) or (C, H, W), but got {list(x.shape)}.")
        if x.ndim == 3:
            return F.squeeze(self._pool(F.expand_dims(x, 0)), 0)
        return self._pool(x)

    def _pool(self, x: Tensor) -> Tensor:
        raise NotImplementedError

    def extend_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}")


class MaxPool2d(_Pool2d):
    """Maximum over ``kernel_size`` windows moved by ``stride``."""

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid",
                 padding: Any = 0, dilation: Any = 1, return_indices: bool = False,
                 ceil_mode: bool = False, data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, padding, data_format)
        self.dilation = pair(dilation, "dilation", "MaxPool2d")
        self.return_indices, self.ceil_mode = bool(return_indices), bool(ceil_mode)

    def _pool(self, x: Tensor) -> Tensor:
        extra: dict = {}
        if self.dilation != (1, 1):
            extra["dilation"] = self.dilation
        if self.ceil_mode:
            extra["ceil_mode"] = True
        if self.return_indices:
            extra["return_indices"] = True
        padding: Any = self.padding if any(self.padding) else 0
        if self.pad_mode == "same":
            pads = same_pads(x.shape[2:], self.kernel_size, self.stride, self.dilation)
            x = F.pad(x, pads, "constant", float("-inf"))
            padding = 0
        return F.max_pool2d(x, self.kernel_size, self.stride, padding, **extra)


class AvgPool2d(_Pool2d):
    """Mean over ``kernel_size`` windows moved by ``stride``."""

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid",
                 padding: Any = 0, ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None, data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, padding, data_format)
        self.ceil_mode, self.count_include_pad = bool(ceil_mode), bool(count_include_pad)
        self.divisor_override = divisor_override

    def _pool(self, x: Tensor) -> Tensor:
        if self.pad_mode == "same":
            pads = same_pads(x.shape[2:], self.kernel_size, self.stride)
            if not any(pads):
                return F.avg_pool2d(x, self.kernel_size, self.stride, 0)
            total = F.avg_pool2d(F.pad(x, pads), self.kernel_size, self.stride, 0)
            ones = F.ones((1, 1) + tuple(x.shape[2:]), x.dtype)
            count = F.avg_pool2d(F.pad(ones, pads), self.kernel_size, self.stride, 0)
            return F.div(total, count)
        extra: dict = {}
        if self.ceil_mode:
            extra["ceil_mode"] = True
        if not self.count_include_pad:
            extra["count_include_pad"] = False
        if self.divisor_override is not None:
            extra["divisor_override"] = self.divisor_override
        padding = self.padding if any(self.padding) else 0
        return F.avg_pool2d(x, self.kernel_size, self.stride, padding, **extra)


__all__ = ["MaxPool2d", "AvgPool2d"]
