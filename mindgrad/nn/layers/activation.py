"""Activation Cells (``nn.ReLU()``, ``nn.GELU()``, ...) and ``get_activation(name)``.
Each is a thin Cell over the functional operator of the same meaning."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...common.parameter import Parameter
from ...core.tensor import Tensor
from ...ops import functional as F
from ...ops import layer_functions as LF
from ...ops import nn_functions as NF
from ..cell import Cell


class ReLU(Cell):
    """``max(x, 0)``."""

    def construct(self, x: Tensor) -> Tensor:
        return F.relu(x)


class ReLU6(Cell):
    """``min(max(x, 0), 6)``."""

    def construct(self, x: Tensor) -> Tensor:
        return F.relu6(x)


class Sigmoid(Cell):
    """``1 / (1 + exp(-x))``."""

    def construct(self, x: Tensor) -> Tensor:
        return F.sigmoid(x)


class Tanh(Cell):
    """Hyperbolic tangent."""

    def construct(self, x: Tensor) -> Tensor:
        return F.tanh(x)


class GELU(Cell):
    """Gaussian error linear unit. MindSpore's default ``approximate=True`` uses the tanh
    form ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``; ``False`` uses ``erf``."""

    def __init__(self, approximate: bool = True) -> None:
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError(f"For 'GELU', 'approximate' must be bool, but got "
                            f"{type(approximate).__name__}.")
        self.approximate = approximate

    def construct(self, x: Tensor) -> Tensor:
        return F.gelu(x, "tanh" if self.approximate else "none")


class SiLU(Cell):
    """``x * sigmoid(x)``."""

    def construct(self, x: Tensor) -> Tensor:
        return F.silu(x)


class Mish(Cell):
    """``x * tanh(softplus(x))``."""

    def construct(self, x: Tensor) -> Tensor:
        return F.mish(x)


class HSwish(Cell):
    """Hard swish: ``x * relu6(x + 3) / 6``."""

    def construct(self, x: Tensor) -> Tensor:
        return F.hardswish(x)


class HSigmoid(Cell):
    """Hard sigmoid: ``relu6(x + 3) / 6``."""

    def construct(self, x: Tensor) -> Tensor:
        return F.div(F.relu6(F.add(x, 3.0)), 6.0)


class LeakyReLU(Cell):
    """``x`` for positive inputs, ``alpha * x`` otherwise."""

    def __init__(self, alpha: float = 0.2) -> None:
        super().__init__()
        self.alpha = F._float_param(alpha, "LeakyReLU", "alpha")

    def construct(self, x: Tensor) -> Tensor:
        return F.leaky_relu(x, self.alpha)


class ELU(Cell):
    """``x`` for positive inputs, ``alpha * (exp(x) - 1)`` otherwise."""

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = F._float_param(alpha, "ELU", "alpha")

    def construct(self, x: Tensor) -> Tensor:
        return F.elu(x, self.alpha)


class Softplus(Cell):
    """``log(1 + exp(beta x)) / beta``, and ``x`` where ``beta x > threshold``."""

    def __init__(self, beta: float = 1, threshold: float = 20) -> None:
        super().__init__()
        self.beta = float(beta)
        self.threshold = float(threshold)

    def construct(self, x: Tensor) -> Tensor:
        if self.beta == 1.0 and math.isinf(self.threshold):
            return F.softplus(x)
        bx = F.mul(x, self.beta)
        soft = F.div(F.softplus(bx), self.beta)
        return F.select(F.greater(bx, self.threshold), x, soft)


class Softmax(Cell):
    """``exp(x) / sum(exp(x))`` along ``axis``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Tensor) -> Tensor:
        return F.softmax(x, self.axis)


class LogSoftmax(Cell):
    """``x - logsumexp(x)`` along ``axis``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Tensor) -> Tensor:
        return F.log_softmax(x, self.axis)


_ACTIVATIONS: dict[str, type] = {
    "relu": ReLU, "relu6": ReLU6, "sigmoid": Sigmoid, "tanh": Tanh, "gelu": GELU,
    "silu": SiLU, "swish": SiLU, "mish": Mish, "hswish": HSwish, "hsigmoid": HSigmoid,
    "leakyrelu": LeakyReLU, "elu": ELU, "softplus": Softplus, "softmax": Softmax,
    "logsoftmax": LogSoftmax,
}


def get_activation(name: Any, prim_name: str | None = None) -> Cell | None:
    """The activation Cell for ``name`` (e.g. ``'relu'``); None gives None; a Cell or other
    callable is returned unchanged."""
    if name is None or callable(name):
        return name
    if not isinstance(name, str):
        raise TypeError(f"For '{prim_name or 'get_activation'}', the activation must be a str, "
                        f"a Cell or None, but got {type(name).__name__}.")
    cls = _ACTIVATIONS.get(name.lower())
    if cls is None:
        raise KeyError(f"For '{prim_name or 'get_activation'}', unknown activation {name!r}; "
                       f"choose one of {sorted(_ACTIVATIONS)}.")
    return cls()


__all__ = ["ReLU", "ReLU6", "Sigmoid", "Tanh", "GELU", "SiLU", "Mish", "HSwish", "HSigmoid",
           "LeakyReLU", "ELU", "Softplus", "Softmax", "LogSoftmax", "get_activation"]


# --- more of MindSpore's activation Cells -----------------------------------------------------
class CELU(Cell):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = F._float_param(alpha, "CELU", "alpha")
        if self.alpha == 0:
            raise ValueError("For 'CELU', 'alpha' must not be 0.")

    def construct(self, x: Tensor) -> Tensor:
        return NF.celu(x, self.alpha)


class PReLU(Cell):
    """``x`` where positive, else ``w * x``, with ``w`` a trainable Parameter of ``channel``
    slopes (one per channel, axis 1; or one shared), initialised from ``w`` (a number, a
    list or a Tensor)."""

    def __init__(self, channel: int = 1, w: Any = 0.25) -> None:
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int) or channel < 1:
            raise ValueError(f"For 'PReLU', 'channel' must be a positive int, but got "
                             f"{channel!r}.")
        if isinstance(w, (int, float)) and not isinstance(w, bool):
            value = np.full((channel,), float(w), np.float32)
        elif isinstance(w, (list, tuple)):
            value = np.asarray(w, np.float32)
        elif isinstance(w, Tensor):
            value = w.asnumpy().astype(np.float32)
        else:
            raise TypeError(f"For 'PReLU', 'w' must be a float, a list or a Tensor, but got "
                            f"{type(w).__name__}.")
        if value.ndim != 1 or value.shape[0] != channel:
            raise ValueError(f"For 'PReLU', 'w' must have {channel} values ('channel'), but "
                             f"got shape {list(value.shape)}.")
        self.channel = channel
        self.w = Parameter(Tensor(value))

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim >= 2 or self.channel == 1:
            return LF.prelu(x, F.cast(self.w, x.dtype))
        raise ValueError(f"For 'PReLU', the input must have a channel axis (rank >= 2) for "
                         f"{self.channel} channels, but got shape {list(x.shape)}.")


class GLU(Cell):
    """``a * sigmoid(b)`` for the two halves ``a``, ``b`` of the input along ``axis``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.dim = axis

    def construct(self, x: Tensor) -> Tensor:
        return NF.glu(x, self.dim)


class Hardtanh(Cell):
    """The input clipped to ``[min_val, max_val]``."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0) -> None:
        super().__init__()
        self.min_val = F._float_param(min_val, "Hardtanh", "min_val")
        self.max_val = F._float_param(max_val, "Hardtanh", "max_val")
        if self.min_val > self.max_val:
            raise ValueError(f"For 'Hardtanh', 'min_val' must not exceed 'max_val', but got "
                             f"{min_val} and {max_val}.")

    def construct(self, x: Tensor) -> Tensor:
        return NF.hardtanh(x, self.min_val, self.max_val)


class HShrink(Cell):
    """``x`` where ``|x| > lambd``, else 0."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = F._float_param(lambd, "HShrink", "lambd")

    def construct(self, x: Tensor) -> Tensor:
        return NF.hardshrink(x, self.lambd)


class SoftShrink(Cell):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = F._float_param(lambd, "SoftShrink", "lambd")

    def construct(self, x: Tensor) -> Tensor:
        return NF.softshrink(x, self.lambd)


class LogSigmoid(Cell):
    """``log(sigmoid(x))``, computed stably."""

    def construct(self, x: Tensor) -> Tensor:
        return NF.logsigmoid(x)


class SeLU(Cell):
    """``scale * elu(x, alpha)`` with the self-normalising constants."""

    def construct(self, x: Tensor) -> Tensor:
        return NF.selu(x)


class Softmin(Cell):
    """``softmax(-x)`` along ``axis``."""

    def __init__(self, axis: Any = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Tensor) -> Tensor:
        return NF.softmin(x, self.axis)


class Softmax2d(Cell):
    """Softmax over the channels (axis -3) of ``(N, C, H, W)`` or ``(C, H, W)`` input."""

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim not in (3, 4):
            raise ValueError(f"For 'Softmax2d', the input must be 3-D or 4-D, but got shape "
                             f"{list(x.shape)}.")
        return F.softmax(x, -3)


class Softsign(Cell):
    """``x / (1 + |x|)``."""

    def construct(self, x: Tensor) -> Tensor:
        return NF.softsign(x)


class Tanhshrink(Cell):
    """``x - tanh(x)``."""

    def construct(self, x: Tensor) -> Tensor:
        return NF.tanhshrink(x)


class Threshold(Cell):
    """``x`` where it is above ``threshold``, else ``value``."""

    def __init__(self, threshold: float, value: float) -> None:
        super().__init__()
        self.threshold = F._float_param(threshold, "Threshold", "threshold")
        self.value = F._float_param(value, "Threshold", "value")

    def construct(self, x: Tensor) -> Tensor:
        return NF.threshold(x, self.threshold, self.value)


class RReLU(Cell):
    """``x`` where non-negative, else ``a * x`` with ``a`` drawn from ``[lower, upper)`` per
    element on every call."""

    def __init__(self, lower: float = 1 / 8, upper: float = 1 / 3) -> None:
        super().__init__()
        for name, v in (("lower", lower), ("upper", upper)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"For 'RReLU', '{name}' must be an int or a float, but got "
                                f"{type(v).__name__}.")
        if lower > upper:
            raise ValueError(f"For 'RReLU', 'upper' must be greater than or equal to 'lower', "
                             f"but got upper: {upper}, lower: {lower}.")
        self.lower, self.upper = float(lower), float(upper)

    def construct(self, x: Tensor) -> Tensor:
        return LF.rrelu(x, self.lower, self.upper)


class FastGelu(Cell):
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``."""

    def construct(self, x: Tensor) -> Tensor:
        return LF.fast_gelu(x)


_ACTIVATIONS.update({
    "prelu": PReLU, "selu": SeLU, "softsign": Softsign, "logsigmoid": LogSigmoid,
    "tanhshrink": Tanhshrink, "hardtanh": Hardtanh, "hshrink": HShrink,
    "softshrink": SoftShrink, "fast_gelu": FastGelu, "celu": CELU, "rrelu": RReLU,
    "softmin": Softmin, "softmax2d": Softmax2d,
})

__all__ += ["CELU", "PReLU", "GLU", "Hardtanh", "HShrink", "SoftShrink", "LogSigmoid", "SeLU",
            "Softmin", "Softmax2d", "Softsign", "Tanhshrink", "Threshold", "RReLU", "FastGelu"]
