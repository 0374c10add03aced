"""1-D, adaptive and power-average pooling layers: ``MaxPool1d``, ``AvgPool1d``,
``AdaptiveAvgPool1d/2d/3d``, ``AdaptiveMaxPool1d/2d/3d``, ``LPPool1d``, ``LPPool2d``, over
the functions of ``ops.pooling_functions`` (so differentiable). Arguments, checks and the
``print`` form follow MindSpore 2.10 (``MaxPool1d(kernel_size=(1, 2), stride=(1, 2),
pad_mode=VALID)``)."""
from __future__ import annotations

from typing import Any

from ...core.tensor import Tensor
from ...ops import functional as F
from ...ops import pooling_functions as P
from ..cell import Cell


def _int(value: Any, name: str, who: str, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{who}', the type of '{name}' must be int, but got "
                        f"{type(value).__name__}.")
    if value < low:
        raise ValueError(f"For '{who}', '{name}' must be >= {low}, but got {value}.")
    return value


def _int_or_one(value: Any, name: str, who: str) -> int:
    """An int, or a tuple of one int (MindSpore's pools take both)."""
    if isinstance(value, tuple) and len(value) == 1:
        value = value[0]
    return _int(value, name, who)


def _mode(pad_mode: Any, who: str) -> str:
    if not isinstance(pad_mode, str):
        raise TypeError(f"For '{who}', the type of 'pad_mode' must be str, but got "
                        f"{type(pad_mode).__name__}.")
    if pad_mode.upper() not in ("VALID", "SAME", "PAD"):
        raise ValueError(f"For '{who}', the 'pad_mode' must be one of ['VALID', 'SAME', 'PAD'], "
                         f"but got {pad_mode}.")
    return pad_mode.upper()


def _batched(x: Any, who: str, ndim: int) -> tuple:
    """``x`` with a batch axis (and whether one was added): ``ndim`` or ``ndim - 1`` axes."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{who}', the input must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if x.ndim == ndim - 1:
        return F.expand_dims(x, 0), True
    if x.ndim != ndim:
        raise ValueError(f"For '{who}', the input must be {ndim - 1}-D or {ndim}-D, but got "
                         f"shape {list(x.shape)}.")
    return x, False


def _unbatch(out: Any, added: bool) -> Any:
    if not added:
        return out
    if isinstance(out, tuple):
        return tuple(F.squeeze(o, 0) for o in out)
    return F.squeeze(out, 0)


class MaxPool1d(Cell):
    """Maximum over ``kernel_size`` windows of ``(N, C, L)`` (or ``(C, L)``). 'valid' and
    'same' (output ``ceil(L / stride)``) take no other options; 'pad' takes ``padding``,
    ``dilation``, ``ceil_mode`` and ``return_indices`` (positions along L, Int64)."""

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid",
                 padding: int = 0, dilation: int = 1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        who = "MaxPool1d"
        self.pad_mode = _mode(pad_mode, who)
        k, s = _int_or_one(kernel_size, "kernel_size", who), _int_or_one(stride, "stride", who)
        self._k, self._s = k, s
        self.return_indices, self.ceil_mode = bool(return_indices), bool(ceil_mode)
        if self.pad_mode == "PAD":
            self._p = _int_or_one(padding, "padding", who) if padding else 0
            if self._p < 0 or 2 * self._p > k:
                raise ValueError(f"For '{who}', 'padding' must be in [0, kernel_size / 2], but "
                                 f"got {padding}.")
            self._d = _int_or_one(dilation, "dilation", who)
            self.kernel_size, self.stride = (1, 1, k), (1, 1, s)
        else:
            if padding != 0 or dilation != 1 or return_indices or ceil_mode:
                raise ValueError(f"For MaxPool1d, the parameter 'padding', 'dilation', "
                                 f"'return_indices', 'ceil_mode' can not be set to non-default "
                                 f"value when pad_mode is not 'pad', but got pad_mode:{pad_mode}.")
            self._p, self._d = 0, 1
            self.kernel_size, self.stride = (1, k), (1, s)

    def construct(self, x: Tensor) -> Any:
        x, added = _batched(x, "MaxPool1d", 3)
        out = P.max_pool1d_layer(x, self._k, self._s, self.pad_mode.lower(), self._p, self._d,
                                 self.ceil_mode, self.return_indices)
        return _unbatch(out, added)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class AvgPool1d(Cell):
    """Mean over ``kernel_size`` windows of ``(N, C, L)`` (or ``(C, L)``): 'valid', 'same'
    (windows cut at the ends average their real elements) or 'pad' with ``padding``,
    ``ceil_mode`` and ``count_include_pad``. As in MindSpore, a 'valid'/'same' input whose
    length leaves room for a single window gives the mean of its first ``kernel_size``
    elements."""

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid",
                 padding: int = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        who = "AvgPool1d"
        self.pad_mode = _mode(pad_mode, who)
        k, s = _int_or_one(kernel_size, "kernel_size", who), _int_or_one(stride, "stride", who)
        self._k, self._s = k, s
        self.ceil_mode, self.count_include_pad = bool(ceil_mode), bool(count_include_pad)
        self._general = (self.pad_mode == "PAD" or padding != 0 or self.ceil_mode
                         or not self.count_include_pad)
        self._p = _int_or_one(padding, "padding", who) if padding else 0
        if self._general:
            self.kernel_size, self.stride = k, s
        else:
            self.kernel_size, self.stride = (1, k), (1, s)

    def construct(self, x: Tensor) -> Tensor:
        x, added = _batched(x, "AvgPool1d", 3)
        k, s, width = self._k, self._s, x.shape[2]
        if self._general:
            out = P.avg_pool1d(x, k, s, self._p, self.ceil_mode, self.count_include_pad)
        elif width == k or (width > k and width - k < s):
            out = F.reduce_mean(F.getitem(x, (slice(None), slice(None), slice(0, k))), 2, True)
        elif self.pad_mode == "SAME":
            out = F.squeeze(F._pool2d_same(F.expand_dims(x, 2), (1, k), (1, s), "avg",
                                           "AvgPool1d"), 2)
        else:
            out = P.avg_pool1d(x, k, s)
        return _unbatch(out, added)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class _Adaptive(Cell):
    """An adaptive pool: ``fn(x, output_size[, return_indices])``."""

    fn: Any = None

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, x: Tensor) -> Any:
        if self.return_indices:
            return type(self).fn(x, self.output_size, True)
        return type(self).fn(x, self.output_size)


class AdaptiveAvgPool1d(_Adaptive):
    """Mean of ``(N, C, L)`` over ``output_size`` equal windows (``L`` divisible by it)."""

    fn = staticmethod(P.adaptive_avg_pool1d)

    def __init__(self, output_size: int) -> None:
        _int(output_size, "output_size", "AdaptiveAvgPool1d")
        super().__init__(output_size)


class AdaptiveMaxPool1d(_Adaptive):
    """Maximum of ``(N, C, L)`` over ``output_size`` equal windows (``L`` divisible by it)."""

    fn = staticmethod(P.adaptive_max_pool1d)

    def __init__(self, output_size: int) -> None:
        _int(output_size, "output_size", "AdaptiveMaxPool1d")
        super().__init__(output_size)


class AdaptiveAvgPool2d(_Adaptive):
    """Mean of the last two axes over adaptive windows (``output_size`` an int or ``(h, w)``,
    ``None`` keeping an axis)."""

    fn = staticmethod(P.adaptive_avg_pool2d)

    def __init__(self, output_size: Any) -> None:
        super().__init__(output_size)


class AdaptiveMaxPool2d(_Adaptive):
    """Maximum of the last two axes over adaptive windows, with the flat positions of the
    maxima when ``return_indices``."""

    fn = staticmethod(P.adaptive_max_pool2d)


class AdaptiveAvgPool3d(_Adaptive):
    """Mean of the last three axes over adaptive windows."""

    fn = staticmethod(P.adaptive_avg_pool3d)

    def __init__(self, output_size: Any) -> None:
        super().__init__(output_size)


class AdaptiveMaxPool3d(_Adaptive):
    """Maximum of the last three axes over adaptive windows (and, with ``return_indices``,
    the flat positions of the maxima in each ``D * H * W`` volume)."""

    fn = staticmethod(P.adaptive_max_pool3d)


class LPPool1d(Cell):
    """Power-average pooling ``(sum x ** p) ** (1 / p)`` over windows of ``(N, C, L)``."""

    def __init__(self, norm_type: float, kernel_size: int, stride: Any = None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def construct(self, x: Tensor) -> Tensor:
        return P.lp_pool1d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(LPPool1d):
    """Power-average pooling over windows of ``(N, C, H, W)``."""

    def construct(self, x: Tensor) -> Tensor:
        return P.lp_pool2d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


__all__ = ["MaxPool1d", "AvgPool1d", "AdaptiveAvgPool1d", "AdaptiveMaxPool1d",
           "AdaptiveAvgPool2d", "AdaptiveMaxPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d",
           "LPPool1d", "LPPool2d"]
