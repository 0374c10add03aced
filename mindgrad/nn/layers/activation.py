"""Activation Cells (``nn.ReLU()``, ``nn.GELU()``, ...) and ``get_activation(name)``.
Each is a thin Cell over the functional operator of the same meaning."""
from __future__ import annotations

import math
from typing import Any

from ...core.tensor import Tensor
from ...ops import functional as F
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
