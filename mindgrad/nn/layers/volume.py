"""3-D layers over ``(N, C, D, H, W)``: ``Conv3d``, ``Conv3dTranspose``, ``MaxPool3d`` and
``AvgPool3d``, over the compositions of ``ops.volume_functions`` (so differentiable).
Weights, defaults and ``print`` forms follow MindSpore 2.10."""
from __future__ import annotations

from typing import Any

from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...ops import functional as F
from ...ops import volume_functions as V
from ...ops.functional.conv import _same_padding
from ..cell import Cell
from .conv import _Conv
from .pooling_1d_adaptive import _mode


def _triple(value: Any, name: str, who: str, low: int = 1) -> tuple:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * 3
    if not isinstance(value, tuple) or len(value) != 3 or any(
            isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise TypeError(f"For '{who}', the '{name}' must be an int or a tuple of three ints, "
                        f"but got {value!r}.")
    if any(v < low for v in value):
        raise ValueError(f"For '{who}', the values of '{name}' must be >= {low}, but got "
                         f"{value}.")
    return value


def _pads(padding: Any, who: str) -> tuple:
    if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
        raise TypeError(f"For '{who}', the type of 'padding' must be int or tuple(int), but got "
                        f"{type(padding).__name__}.")
    if isinstance(padding, tuple) and len(padding) != 6:
        raise ValueError(f"For '{who}', the length of 'padding' must be 6, but got "
                         f"{len(padding)}.")
    return V._pads6(padding, who)


def _volume(x: Any, who: str) -> tuple:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{who}', the input must be a Tensor, but got {type(x).__name__}.")
    if x.ndim == 4:
        return F.expand_dims(x, 0), True
    if x.ndim != 5:
        raise ValueError(f"For '{who}', the input must be 4-D or 5-D (N, C, D, H, W), but got "
                         f"shape {list(x.shape)}.")
    return x, False


class _Conv3dBase(_Conv):
    def _init3d(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any,
                pad_mode: str, padding: Any, dilation: Any, group: int, has_bias: bool,
                weight_init: Any, bias_init: Any, data_format: str, transposed: bool,
                dtype: Any) -> None:
        who = type(self).__name__
        if in_channels % group or out_channels % group:
            raise ValueError("The argument 'group' should be divisible by 'in_channels' and "
                             "'out_channels'")
        if data_format != "NCDHW":
            raise ValueError(f"For '{who}', the 'data_format' must be 'NCDHW', but got "
                             f"{data_format!r}.")
        self._pads = _pads(padding, who)
        if pad_mode != "pad" and any(any(p) for p in self._pads):
            raise ValueError(f"For '{who}', 'padding' must be 0 when pad_mode is {pad_mode!r}, "
                             f"but got {padding!r}.")
        self._setup(in_channels, out_channels, _triple(kernel_size, "kernel_size", who),
                    _triple(stride, "stride", who), pad_mode, padding,
                    _triple(dilation, "dilation", who), group, has_bias, weight_init, bias_init,
                    transposed, dtype)
        self.data_format = data_format

    def _check5(self, x: Any) -> None:
        who = type(self).__name__
        if not isinstance(x, Tensor) or x.ndim != 5 or x.shape[1] != self.in_channels:
            raise ValueError(f"For '{who}', the input must be a 5-D Tensor (N, "
                             f"{self.in_channels}, D, H, W), but got "
                             f"{list(getattr(x, 'shape', [])) or type(x).__name__}.")


class Conv3d(_Conv3dBase):
    """3-D convolution over ``(N, C_in, D, H, W)`` with weight ``(out_channels, in_channels //
    group, kd, kh, kw)``; ``padding`` an int or ``(head, tail, top, bottom, left, right)``
    with ``pad_mode='pad'``."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None,
                 data_format: str = "NCDHW", dtype: Any = mstype.float32) -> None:
        super().__init__()
        self._init3d(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                     dilation, group, has_bias, weight_init, bias_init, data_format, False,
                     dtype)

    def construct(self, x: Tensor) -> Tensor:
        self._check5(x)
        pads = (_same_padding(x.shape[2:], self.kernel_size, self.stride, self.dilation)
                if self.pad_mode == "same" else self._pads)
        out = V.conv3d_raw(x, F.cast(self.weight, x.dtype), self.stride, pads, self.dilation,
                           self.group)
        return self._add_bias(out)


class Conv3dTranspose(_Conv3dBase):
    """3-D transposed convolution with weight ``(in_channels, out_channels // group, kd, kh,
    kw)``: output ``D * stride`` ('same'), else ``(D - 1) * stride + dilated_k - pads +
    output_padding`` per axis."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 output_padding: Any = 0, has_bias: bool = False, weight_init: Any = None,
                 bias_init: Any = None, data_format: str = "NCDHW",
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.output_padding = _triple(output_padding, "output_padding", "Conv3dTranspose", 0)
        self._init3d(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                     dilation, group, has_bias, weight_init, bias_init, data_format, True,
                     dtype)

    def construct(self, x: Tensor) -> Tensor:
        self._check5(x)
        if self.pad_mode == "same":
            out = tuple(n * s for n, s in zip(x.shape[2:], self.stride))
            pads = _same_padding(out, self.kernel_size, self.stride, self.dilation)
        else:
            pads = self._pads
            out = tuple(V._deconv_size("pad", n, k, s, d, lo + hi, e) for n, k, s, d, (lo, hi), e
                        in zip(x.shape[2:], self.kernel_size, self.stride, self.dilation, pads,
                               self.output_padding))
        y = V.conv3d_transpose_to(x, F.cast(self.weight, x.dtype), out, self.stride, pads,
                                  self.dilation, self.group)
        return self._add_bias(y)


class _Pool3d(Cell):
    def _init_pool(self, kernel_size: Any, stride: Any, pad_mode: str, padding: Any) -> None:
        who = type(self).__name__
        self.pad_mode = _mode(pad_mode, who)
        self.kernel_size, self.stride = kernel_size, stride
        self._k = _triple(kernel_size, "kernel_size", who)
        self._s = _triple(stride, "stride", who)
        self._pads = _pads(padding, who)
        if self.pad_mode != "PAD" and any(any(p) for p in self._pads):
            raise ValueError(f"For '{who}', 'padding' must be 0 unless pad_mode is 'pad', but "
                             f"got {padding!r}.")

    def _same(self, x: Tensor) -> tuple:
        return (_same_padding(x.shape[2:], self._k, self._s, (1, 1, 1))
                if self.pad_mode == "SAME" else self._pads)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool3d(_Pool3d):
    """3-D max pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``; ``dilation`` and
    ``return_indices`` (Int64 positions in each D*H*W volume) need ``pad_mode='pad'``."""

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid",
                 padding: Any = 0, dilation: Any = 1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self._init_pool(kernel_size, stride, pad_mode, padding)
        if (dilation != 1 or return_indices) and self.pad_mode != "PAD":
            raise ValueError(f"For MaxPool3d, the pad_mode must be 'pad' when dilation is not 1 "
                             f"or return_indices is True, but got pad_mode:{pad_mode}.")
        self._d = _triple(dilation, "dilation", "MaxPool3d")
        self.return_indices, self.ceil_mode = bool(return_indices), bool(ceil_mode)

    def construct(self, x: Tensor) -> Any:
        x, added = _volume(x, "MaxPool3d")
        out = V._max_pool3d(x, self._k, self._s, self._same(x), self._d, self.ceil_mode,
                            self.return_indices, "MaxPool3d")
        if added:
            out = tuple(F.squeeze(o, 0) for o in out) if isinstance(out, tuple) \
                else F.squeeze(out, 0)
        return out


class AvgPool3d(_Pool3d):
    """3-D average pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` (see
    ``ops.avg_pool3d``)."""

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid",
                 padding: Any = 0, ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: Any = None) -> None:
        super().__init__()
        self._init_pool(kernel_size, stride, pad_mode, padding)
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For 'AvgPool3d', the 'divisor_override' must be > 0, but got "
                             f"{divisor_override}.")
        self.ceil_mode, self.count_include_pad = bool(ceil_mode), bool(count_include_pad)
        self.divisor_override = divisor_override

    def construct(self, x: Tensor) -> Tensor:
        x, added = _volume(x, "AvgPool3d")
        out = V._avg_pool3d(x, self._k, self._s, self._same(x), self.ceil_mode,
                            self.count_include_pad,
                            self.divisor_override or 0, "AvgPool3d")
        return F.squeeze(out, 0) if added else out


__all__ = ["Conv3d", "Conv3dTranspose", "MaxPool3d", "AvgPool3d"]
