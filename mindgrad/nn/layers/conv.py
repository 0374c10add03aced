"""``nn.Conv2d`` over the functional ``ops.conv2d``."""
from __future__ import annotations

import math
from typing import Any

from ...core import dtype as mstype
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...core.tensor import Tensor
from ...ops import functional as F
from .._helpers import pair
from ..cell import Cell
from .basic import check_positive_int


def _padding(padding: Any, pad_mode: str) -> Any:
    """Validate ``padding``: an int or a ``(top, bottom, left, right)`` tuple, non-zero only
    with ``pad_mode='pad'``."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        values = (padding,)
    elif isinstance(padding, (tuple, list)) and len(padding) == 4:
        values = tuple(padding)
    else:
        raise ValueError(f"For 'Conv2d', 'padding' must be an int or a tuple of four ints "
                         f"(top, bottom, left, right), but got {padding!r}.")
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values):
        raise ValueError(f"For 'Conv2d', the values of 'padding' must be non-negative ints, "
                         f"but got {padding!r}.")
    if pad_mode != "pad" and any(values):
        raise ValueError(f"For 'Conv2d', 'padding' must be 0 when pad_mode is {pad_mode!r}, "
                         f"but got {padding!r}.")
    return padding if isinstance(padding, int) else tuple(padding)


class Conv2d(Cell):
    """2-D convolution over ``(N, C_in, H, W)`` inputs (NCHW).

    ``weight`` has shape ``(out_channels, in_channels // group, kh, kw)``. ``pad_mode`` is
    ``'same'`` (output ``ceil(H / stride)``), ``'valid'`` (no padding) or ``'pad'`` (explicit
    ``padding``). Defaults follow MindSpore 2.x: no bias, ``HeUniform(sqrt(5))`` weights and a
    ``Uniform(1/sqrt(fan_in))`` bias when ``has_bias``."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None,
                 data_format: str = "NCHW", dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.in_channels = check_positive_int(in_channels, "in_channels", "Conv2d")
        self.out_channels = check_positive_int(out_channels, "out_channels", "Conv2d")
        self.group = check_positive_int(group, "group", "Conv2d")
        if in_channels % group or out_channels % group:
            raise ValueError(f"For 'Conv2d', in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must be divisible by group ({group}).")
        self.kernel_size = pair(kernel_size, "kernel_size", "Conv2d")
        self.stride = pair(stride, "stride", "Conv2d")
        self.dilation = pair(dilation, "dilation", "Conv2d")
        if pad_mode not in ("same", "valid", "pad"):
            raise ValueError(f"For 'Conv2d', 'pad_mode' must be 'same', 'valid' or 'pad', but "
                             f"got {pad_mode!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For 'Conv2d', only data_format='NCHW' is supported, but got "
                             f"{data_format!r}.")
        self.pad_mode, self.padding = pad_mode, _padding(padding, pad_mode)
        self.data_format, self.has_bias = data_format, bool(has_bias)
        shape = [out_channels, in_channels // group, *self.kernel_size]
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)) if weight_init is None
                                            else weight_init, shape, dtype), name="weight")
        self.bias = None
        if self.has_bias:
            fan_in = shape[1] * shape[2] * shape[3]
            self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)) if bias_init is None
                                              else bias_init, [out_channels], dtype), name="bias")

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim != 4 or x.shape[1] != self.in_channels:
            raise ValueError(f"For 'Conv2d', the input must have shape (N, {self.in_channels}, "
                             f"H, W), but got {list(x.shape)}.")
        out = F.conv2d(x, self.weight, stride=self.stride, pad_mode=self.pad_mode,
                       padding=self.padding, dilation=self.dilation, groups=self.group)
        if self.bias is not None:
            out = F.add(out, F.reshape(self.bias, (1, self.out_channels, 1, 1)))
        return out

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, has_bias={self.has_bias}")


__all__ = ["Conv2d"]
