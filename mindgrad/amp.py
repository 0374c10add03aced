"""``mindspore.amp``: mixed precision (``auto_mixed_precision``, ``build_train_network``),
loss scale managers, and the functional loss scalers (``StaticLossScaler``,
``DynamicLossScaler``, ``all_finite``) for training loops written by hand::

    scaler = DynamicLossScaler(scale_value=2**16, scale_factor=2, scale_window=50)
    loss, grads = grad_fn(x, y)           # grad_fn differentiates scaler.scale(loss)
    grads = scaler.unscale(grads)
    if all_finite(grads):
        optimizer(grads)
    scaler.adjust(all_finite(grads))
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from .core import dtype as mstype
from .common.parameter import Parameter
from .core.tensor import Tensor
from .core.tree import flatten, tree_map
from .nn.loss_scale import grads_overflow
from .ops import functional as F
from .train.amp import (auto_mixed_precision, build_train_network,  # noqa: F401
                        custom_mixed_precision, get_black_list, get_white_list)
from .train.loss_scale_manager import (DynamicLossScaleManager,  # noqa: F401
                                       FixedLossScaleManager, LossScaleManager)


def all_finite(inputs: Any) -> Tensor:
    """A bool scalar Tensor: True when no Tensor in ``inputs`` (a Tensor or a nested
    tuple/list) holds an inf or a NaN."""
    leaves = flatten(inputs)[0]
    return F.logical_not(grads_overflow(leaves))


def _check_scale(scale_value: Any) -> None:
    if isinstance(scale_value, bool) or not isinstance(scale_value, (int, float)):
        raise TypeError(f"For the loss scaler, 'scale_value' must be a float or int, but got "
                        f"{type(scale_value).__name__}.")
    if scale_value < 1.0:
        raise ValueError(f"The argument 'scale_value' must be > 1, but got {scale_value}")


class LossScaler(ABC):
    """Base class of the loss scalers: ``scale``, ``unscale`` and ``adjust``."""

    @abstractmethod
    def scale(self, inputs: Any) -> Any:
        """Multiply ``inputs`` (a Tensor or a nested tuple of them) by the scale."""

    @abstractmethod
    def unscale(self, inputs: Any) -> Any:
        """Divide ``inputs`` by the scale."""

    @abstractmethod
    def adjust(self, grads_finite: Any) -> Any:
        """Update the scale after a step."""

    def _times(self, inputs: Any, factor: Tensor) -> Any:
        return tree_map(lambda g: g * F.cast(factor, g.dtype), inputs)


class StaticLossScaler(LossScaler):
    """A fixed scale (the float32 Parameter ``scale_value``); ``adjust`` returns False."""

    def __init__(self, scale_value: float) -> None:
        _check_scale(scale_value)
        self.scale_value = Parameter(Tensor(scale_value, dtype=mstype.float32),
                                     name="scale_value", requires_grad=False)

    def scale(self, inputs: Any) -> Any:
        return self._times(inputs, self.scale_value)

    def unscale(self, inputs: Any) -> Any:
        return self._times(inputs, F.reciprocal(self.scale_value))

    def adjust(self, grads_finite: Any) -> bool:
        return False


class DynamicLossScaler(LossScaler):
    """A scale that ``adjust(grads_finite)`` divides by ``scale_factor`` (not below 1) after
    a step with non-finite gradients, and multiplies by it after ``scale_window`` finite
    steps in a row (if the product is finite). Returns True."""

    def __init__(self, scale_value: float, scale_factor: int, scale_window: int) -> None:
        _check_scale(scale_value)
        for name, v in (("scale_window", scale_window), ("scale_factor", scale_factor)):
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise ValueError(f"For 'DynamicLossScaler', '{name}' must be a positive int, "
                                 f"but got {v!r}.")
        self.scale_value = Parameter(Tensor(scale_value, dtype=mstype.float32),
                                     name="scale_value", requires_grad=False)
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.counter = Parameter(Tensor(0, dtype=mstype.int32), name="counter",
                                 requires_grad=False)

    def scale(self, inputs: Any) -> Any:
        return self._times(inputs, self.scale_value)

    def unscale(self, inputs: Any) -> Any:
        return self._times(inputs, F.reciprocal(self.scale_value))

    def adjust(self, grads_finite: Any) -> bool:
        finite = grads_finite if isinstance(grads_finite, Tensor) else Tensor(bool(grads_finite))
        one = F.ones((), self.scale_value.dtype)
        grown = self.scale_value * self.scale_factor
        at_window = F.equal(self.counter, self.scale_window - 1)
        keep_or_grow = F.select(at_window, F.select(F.isfinite(grown), grown, self.scale_value),
                                self.scale_value)
        shrunk = F.maximum(one, self.scale_value / self.scale_factor)
        self.scale_value.set_data(F.select(finite, keep_or_grow, shrunk))
        counter = (self.counter + 1) % self.scale_window * F.cast(finite, mstype.int32)
        self.counter.set_data(counter)
        return True


__all__ = ["DynamicLossScaleManager", "LossScaleManager", "FixedLossScaleManager",
           "build_train_network", "DynamicLossScaler", "StaticLossScaler", "LossScaler",
           "auto_mixed_precision", "all_finite", "custom_mixed_precision", "get_white_list",
           "get_black_list"]
