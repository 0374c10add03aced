"""``nn.Conv2dBnAct`` and ``nn.DenseBnAct``: a convolution or dense layer, then an optional
batch normalization (``has_bn``) and activation (a name, a Cell, or 'leakyrelu' with slope
``alpha``), under MindSpore's child names ``conv`` / ``dense``, ``batchnorm`` and
``activation``. ``after_fake`` is a quantization hint MindSpore keeps and never reads."""
from __future__ import annotations

from typing import Any

from ...core.tensor import Tensor
from ..cell import Cell
from .activation import LeakyReLU, get_activation
from .basic import Dense
from .conv import Conv2d
from .normalization import BatchNorm1d, BatchNorm2d


def _flag(value: Any, name: str, who: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{who}', the type of '{name}' must be bool, but got "
                        f"{type(value).__name__}.")
    return value


def _activation(activation: Any, alpha: float, who: str) -> Any:
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    if isinstance(activation, str):
        return get_activation(activation, who)
    if activation is not None and not callable(activation):
        raise TypeError(f"For '{who}', the 'activation' must be str or Cell or Primitive, but "
                        f"got {type(activation).__name__}.")
    return activation


class _BnAct(Cell):
    layer_name = ""

    def _finish(self, has_bn: bool, bn: Any, activation: Any, alpha: float,
                after_fake: bool) -> None:
        who = type(self).__name__
        self.has_bn = _flag(has_bn, "has_bn", who)
        self.has_act = activation is not None
        self.after_fake = _flag(after_fake, "after_fake", who)
        if has_bn:
            self.batchnorm = bn()
        act = _activation(activation, alpha, who)
        if act is not None:
            self.activation = act

    def construct(self, x: Tensor) -> Tensor:
        x = getattr(self, self.layer_name)(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class Conv2dBnAct(_BnAct):
    """``activation(batchnorm(conv(x)))``: an ``nn.Conv2d``, an ``nn.BatchNorm2d(out_channels,
    eps, momentum)`` when ``has_bn``, and the activation."""

    layer_name = "conv"

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = "normal", bias_init: Any = "zeros",
                 has_bn: bool = False, momentum: float = 0.997, eps: float = 1e-5,
                 activation: Any = None, alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride,
                           pad_mode=pad_mode, padding=padding, dilation=dilation, group=group,
                           has_bias=has_bias, weight_init=weight_init, bias_init=bias_init)
        self._finish(has_bn, lambda: BatchNorm2d(out_channels, eps, momentum), activation,
                     alpha, after_fake)


class DenseBnAct(_BnAct):
    """``activation(batchnorm(dense(x)))``: an ``nn.Dense``, an ``nn.BatchNorm1d(out_channels,
    eps, momentum)`` when ``has_bn``, and the activation."""

    layer_name = "dense"

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal",
                 bias_init: Any = "zeros", has_bias: bool = True, has_bn: bool = False,
                 momentum: float = 0.9, eps: float = 1e-5, activation: Any = None,
                 alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self._finish(has_bn, lambda: BatchNorm1d(out_channels, eps, momentum), activation,
                     alpha, after_fake)


__all__ = ["Conv2dBnAct", "DenseBnAct"]
