"""Convolution layers: ``nn.Conv2d`` and ``nn.Conv1d`` over the functional ``ops.conv2d``,
``nn.Conv2dTranspose`` and ``nn.Conv1dTranspose`` over the transposed convolution (the
input-gradient primitive of ``conv2d``). As in MindSpore, the 1-D layers keep a 4-D weight
``(out, in / group, 1, k)`` (``(in, out / group, 1, k)`` when transposed), so checkpoints
interchange."""
from __future__ import annotations

import math
from typing import Any

from ...core import dtype as mstype
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...core.tensor import Tensor
from ...ops import functional as F
from ...ops.functional.conv import _conv2d_transpose_to, _deconv_length
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


class _Conv(Cell):
    """What the convolution layers share: argument checks, the weight (``transposed``: of
    shape ``(in, out / group, *kernel)``), the bias and MindSpore's ``print`` form."""

    def _setup(self, in_channels: int, out_channels: int, kernel: tuple, stride: tuple,
               pad_mode: str, padding: Any, dilation: tuple, group: int, has_bias: bool,
               weight_init: Any, bias_init: Any, transposed: bool, dtype: Any) -> None:
        who = type(self).__name__
        self.in_channels = check_positive_int(in_channels, "in_channels", who)
        self.out_channels = check_positive_int(out_channels, "out_channels", who)
        self.group = check_positive_int(group, "group", who)
        if in_channels % group or out_channels % group:
            raise ValueError(f"For '{who}', in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must be divisible by group ({group}).")
        if pad_mode not in ("same", "valid", "pad"):
            raise ValueError(f"For '{who}', 'pad_mode' must be 'same', 'valid' or 'pad', but "
                             f"got {pad_mode!r}.")
        if not isinstance(has_bias, bool):
            raise TypeError(f"For '{who}', 'has_bias' must be a bool, but got "
                            f"{type(has_bias).__name__}.")
        self.kernel_size, self.stride, self.dilation = kernel, stride, dilation
        self.pad_mode, self.padding, self.has_bias = pad_mode, padding, has_bias
        self.data_format = "NCHW"
        shape = ([in_channels, out_channels // group, *kernel] if transposed
                 else [out_channels, in_channels // group, *kernel])
        self.weight_init = HeUniform(math.sqrt(5)) if weight_init is None else weight_init
        self.weight = Parameter(initializer(self.weight_init, shape, dtype), name="weight")
        self.bias_init, self.bias = bias_init, None
        if has_bias:
            if bias_init is None:
                fan_in = math.prod(shape[1:])
                self.bias_init = Uniform(1 / math.sqrt(fan_in)) if fan_in else "zeros"
            self.bias = Parameter(initializer(self.bias_init, [out_channels], dtype),
                                  name="bias")

    def _check_input(self, x: Any, ndim: int) -> None:
        who = type(self).__name__
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{who}', the input must be a Tensor, but got "
                            f"{type(x).__name__}.")
        if x.ndim != ndim or x.shape[1] != self.in_channels:
            dims = "(N, C, L)" if ndim == 3 else "(N, C, H, W)"
            raise ValueError(f"For '{who}', the input must be {ndim}-D {dims} with "
                             f"C={self.in_channels}, but got shape {list(x.shape)}.")

    def _add_bias(self, out: Tensor) -> Tensor:
        if self.bias is None:
            return out
        shape = (1, self.out_channels) + (1,) * (out.ndim - 2)
        return F.add(out, F.reshape(F.cast(self.bias, out.dtype), shape))

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={self.weight_init}, bias_init={self.bias_init}, "
                f"format={self.data_format}")


def _int_arg(value: Any, name: str, who: str, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{who}', the type of '{name}' must be int, but got "
                        f"{type(value).__name__}.")
    if value < low:
        raise ValueError(f"For '{who}', '{name}' must be >= {low}, but got {value}.")
    return value


def _lift_weight_init(weight_init: Any, who: str) -> Any:
    """A 3-D Tensor ``weight_init`` of a 1-D layer as the 4-D weight it stores."""
    if isinstance(weight_init, Tensor):
        if weight_init.ndim != 3:
            raise ValueError(f"For '{who}', a Tensor 'weight_init' must be 3-D, but got shape "
                             f"{list(weight_init.shape)}.")
        return F.expand_dims(weight_init, 2)
    return weight_init


class Conv1d(_Conv):
    """1-D convolution over ``(N, C_in, L)``: a ``Conv2d`` over a height of one, with the
    4-D weight ``(out_channels, in_channels // group, 1, kernel_size)``. ``padding`` (an
    int, both ends) only with ``pad_mode='pad'``."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding: int = 0, dilation: int = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        who = "Conv1d"
        k, s = _int_arg(kernel_size, "kernel_size", who), _int_arg(stride, "stride", who)
        p, d = _int_arg(padding, "padding", who, 0), _int_arg(dilation, "dilation", who)
        if pad_mode != "pad" and p:
            raise ValueError(f"For '{who}', 'padding' must be 0 when pad_mode is {pad_mode!r}, "
                             f"but got {padding}.")
        self._setup(in_channels, out_channels, (1, k), (1, s), pad_mode, (0, 0, p, p), (1, d),
                    group, has_bias, _lift_weight_init(weight_init, who), bias_init, False,
                    dtype)

    def construct(self, x: Tensor) -> Tensor:
        self._check_input(x, 3)
        out = F.conv2d(F.expand_dims(x, 2), self.weight, stride=self.stride,
                       pad_mode=self.pad_mode, padding=self.padding, dilation=self.dilation,
                       groups=self.group)
        return F.squeeze(self._add_bias(out), 2)


def _pads4(padding: Any, who: str) -> tuple:
    if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
        raise TypeError(f"For '{who}', the type of 'padding' must be int or tuple(int), but got "
                        f"{type(padding).__name__}.")
    pads = (padding,) * 4 if isinstance(padding, int) else padding
    if len(pads) != 4:
        raise ValueError(f"For '{who}', the length of 'padding' must be 4, but got "
                         f"{len(pads)}.")
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in pads):
        raise ValueError(f"For '{who}', the values of 'padding' must be non-negative ints, "
                         f"but got {padding!r}.")
    return pads


class Conv2dTranspose(_Conv):
    """2-D transposed convolution over ``(N, C_in, H, W)``, with weight
    ``(in_channels, out_channels // group, kh, kw)``. Output size: ``H * stride`` ('same'),
    ``H * stride + max(dilated_k - stride, 0)`` ('valid'), or ``H * stride - pads +
    dilated_k - stride`` ('pad'); ``output_padding`` (only with 'pad') appends zeros at
    the bottom and right, after the bias, as MindSpore does."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, output_padding: Any = 0,
                 dilation: Any = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = None, bias_init: Any = None,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        who = "Conv2dTranspose"
        pads = _pads4(padding, who)
        if isinstance(output_padding, bool) or not isinstance(output_padding, (int, tuple)) \
                or (isinstance(output_padding, tuple) and len(output_padding) != 2):
            raise TypeError(f"For '{who}', 'output_padding' must be an int or a tuple of 2 "
                            f"ints, but got {output_padding!r}.")
        self._setup(in_channels, out_channels, pair(kernel_size, "kernel_size", who),
                    pair(stride, "stride", who), pad_mode, padding,
                    pair(dilation, "dilation", who), group, has_bias, weight_init, bias_init,
                    True, dtype)
        self._pads, self.output_padding = pads, output_padding

    def _out_hw(self, hw: tuple) -> tuple:
        p = self._pads
        return tuple(_deconv_length(self.pad_mode, n, k, s, d, lo + hi)
                     for n, k, s, d, (lo, hi) in zip(hw, self.kernel_size, self.stride,
                                                     self.dilation, ((p[0], p[1]), (p[2], p[3]))))

    def _extra(self) -> tuple:
        op = self.output_padding
        op = (op, op) if isinstance(op, int) else op
        for v, s, d in zip(op, self.stride, self.dilation):
            if v < 0 or v >= max(s, d):
                raise ValueError("output_padding must be in range of [0, max(stride, "
                                 "dilation)).")
        if self.pad_mode != "pad" and any(op):
            raise ValueError("when output_padding is not zero, pad_mode must be 'pad'")
        return op

    def construct(self, x: Tensor) -> Tensor:
        self._check_input(x, 4)
        return self._transpose(x)

    def _transpose(self, x: Tensor) -> Tensor:
        if x.dtype.np_dtype.kind != "f":
            raise TypeError(f"For '{type(self).__name__}', the input must be a float Tensor, "
                            f"but got {x.dtype}.")
        out = _conv2d_transpose_to(x, F.cast(self.weight, x.dtype), self._out_hw(x.shape[2:]),
                                   self.stride, self.pad_mode, self._pads, self.dilation,
                                   self.group)
        out = self._add_bias(out)
        oh, ow = self._extra()
        return F.pad(out, (0, ow, 0, oh)) if oh or ow else out


class Conv1dTranspose(Conv2dTranspose):
    """1-D transposed convolution over ``(N, C_in, L)``, with the 4-D weight
    ``(in_channels, out_channels // group, 1, kernel_size)``."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding: int = 0, dilation: int = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None,
                 dtype: Any = mstype.float32) -> None:
        Cell.__init__(self)
        who = "Conv1dTranspose"
        k, s = _int_arg(kernel_size, "kernel_size", who), _int_arg(stride, "stride", who)
        p, d = _int_arg(padding, "padding", who, 0), _int_arg(dilation, "dilation", who)
        self._setup(in_channels, out_channels, (1, k), (1, s), pad_mode, (0, 0, p, p), (1, d),
                    group, has_bias, _lift_weight_init(weight_init, who), bias_init, True,
                    dtype)
        self._pads, self.output_padding = (0, 0, p, p), 0

    def construct(self, x: Tensor) -> Tensor:
        self._check_input(x, 3)
        return F.squeeze(self._transpose(F.expand_dims(x, 2)), 2)


__all__ = ["Conv2d", "Conv1d", "Conv1dTranspose", "Conv2dTranspose"]
