"""``mint.nn``'s 3-D convolution and pooling layers, ``ConvTranspose2d``, ``Fold`` /
``Unfold``, ``MaxUnpool2d`` and ``UpsamplingBilinear2d``, each over its
``mint.nn.functional`` function (``vision.py``), with PyTorch's constructor arguments and
weight initialisation."""
from __future__ import annotations

import math
from typing import Any

from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...core import dtype as mstype
from ...nn.cell import Cell
from . import functional as F
from .layers import AvgPool2d

__all__ = ["AdaptiveAvgPool3d", "AvgPool3d", "Conv3d", "ConvTranspose2d", "Fold", "Unfold",
           "MaxUnpool2d", "UpsamplingBilinear2d"]


def _ints(v: Any, n: int, name: str, who: str) -> tuple:
    vals = (v,) * n if isinstance(v, int) and not isinstance(v, bool) else tuple(v)
    if len(vals) != n or not all(isinstance(i, int) and not isinstance(i, bool) and i > 0
                                 for i in vals):
        raise ValueError(f"mint.nn.{who}: '{name}' must be a positive int or {n} of them, got "
                         f"{v!r}")
    return vals


def _weights(cell: Cell, shape: list, out_channels: int, bias: bool, dtype: Any) -> None:
    """PyTorch's initialisation: Kaiming-uniform weights (a = sqrt(5)) and a bias uniform in
    ``+-1 / sqrt(fan_in)``, fan_in being ``shape[1]`` times the kernel size."""
    dtype = dtype or mstype.float32
    cell.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype), name="weight")
    cell.bias = None
    if bias:
        fan_in = math.prod(shape[1:])
        cell.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)), [out_channels],
                                          dtype), name="bias")


class AdaptiveAvgPool3d(Cell):
    """``adaptive_avg_pool3d`` as a layer."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.adaptive_avg_pool3d(input, self.output_size)


class AvgPool3d(AvgPool2d):
    """3-D average pooling (``stride`` defaults to the kernel size)."""

    _pool = staticmethod(F.avg_pool3d)


class Conv3d(Cell):
    """The 3-D convolution of ``(N, C, D, H, W)`` inputs (``padding`` an int, three ints,
    ``"valid"`` or ``"same"``; ``padding_mode`` ``"zeros"``, ``"reflect"``,
    ``"replicate"`` or ``"circular"``)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", dtype: Any = None) -> None:
        super().__init__()
        k = _ints(kernel_size, 3, "kernel_size", "Conv3d")
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"mint.nn.Conv3d: in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must be divisible by groups ({groups})")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"mint.nn.Conv3d: 'padding_mode' must be 'zeros', 'reflect', "
                             f"'replicate' or 'circular', got {padding_mode!r}")
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups
        self.padding_mode = padding_mode
        _weights(self, [out_channels, in_channels // groups, *k], out_channels, bias, dtype)

    def construct(self, input: Any) -> Any:  # noqa: A002
        if self.padding_mode == "zeros" or isinstance(self.padding, str):
            return F.conv3d(input, self.weight, self.bias, self.stride, self.padding,
                            self.dilation, self.groups)
        pd, ph, pw = (self.padding,) * 3 if isinstance(self.padding, int) else self.padding
        x = F.pad(input, (pw, pw, ph, ph, pd, pd), self.padding_mode)
        return F.conv3d(x, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)


class ConvTranspose2d(Cell):
    """The transposed 2-D convolution (``conv_transpose2d``); weight
    ``(in_channels, out_channels / groups, kh, kw)``. ``construct(input, output_size)``
    may ask for one of the output sizes the stride allows (it picks ``output_padding``)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros", dtype: Any = None) -> None:
        super().__init__()
        if padding_mode != "zeros":
            raise ValueError(f"mint.nn.ConvTranspose2d: only padding_mode 'zeros' is "
                             f"supported, got {padding_mode!r}")
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"mint.nn.ConvTranspose2d: in_channels ({in_channels}) and "
                             f"out_channels ({out_channels}) must be divisible by groups "
                             f"({groups})")
        self.kernel_size = _ints(kernel_size, 2, "kernel_size", "ConvTranspose2d")
        self.stride = _ints(stride, 2, "stride", "ConvTranspose2d")
        self.dilation = _ints(dilation, 2, "dilation", "ConvTranspose2d")
        self.padding = (padding,) * 2 if isinstance(padding, int) else tuple(padding)
        self.output_padding = (output_padding,) * 2 if isinstance(output_padding, int) \
            else tuple(output_padding)
        self.groups = groups
        _weights(self, [in_channels, out_channels // groups, *self.kernel_size], out_channels,
                 bias, dtype)

    def _output_padding(self, input: Any, output_size: Any) -> tuple:  # noqa: A002
        if output_size is None:
            return self.output_padding
        want = tuple(output_size)[-2:]
        pads = []
        for n, w, k, s, p, d in zip(input.shape[-2:], want, self.kernel_size, self.stride,
                                    self.padding, self.dilation):
            smallest = (n - 1) * s - 2 * p + d * (k - 1) + 1
            if not smallest <= w < smallest + s:
                raise ValueError(f"mint.nn.ConvTranspose2d: requested output size {want} is "
                                 f"not between {smallest} and {smallest + s - 1} in each "
                                 f"dimension for input {tuple(input.shape)}")
            pads.append(w - smallest)
        return tuple(pads)

    def construct(self, input: Any, output_size: Any = None) -> Any:  # noqa: A002
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups,
                                  self.dilation)


class Fold(Cell):
    """``fold`` as a layer."""

    def __init__(self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.args = (output_size, kernel_size, dilation, padding, stride)

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.fold(input, *self.args)


class Unfold(Cell):
    """``unfold`` as a layer."""

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.args = (kernel_size, dilation, padding, stride)

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.unfold(input, *self.args)


class MaxUnpool2d(Cell):
    """``max_unpool2d`` as a layer (``stride`` defaults to the kernel size)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size, self.padding = kernel_size, padding
        self.stride = kernel_size if stride is None else stride

    def construct(self, input: Any, indices: Any, output_size: Any = None) -> Any:  # noqa: A002
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding,
                              output_size)


class UpsamplingBilinear2d(Cell):
    """Bilinear 2-D upsampling to ``size`` or by ``scale_factor``, corners aligned (as
    PyTorch's layer)."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__()
        self.size, self.scale_factor = size, scale_factor

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.interpolate(input, self.size, self.scale_factor, "bilinear", True)
