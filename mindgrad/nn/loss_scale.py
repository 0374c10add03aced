"""Loss scaling for float16 training: ``TrainOneStepWithLossScaleCell`` and the update
cells ``DynamicLossScaleUpdateCell`` / ``FixedLossScaleUpdateCell``.

The loss is multiplied by the scale before the backward pass (as the sensitivity), the
gradients are divided by it, and a step whose gradients hold an inf or NaN (an overflow)
skips the optimizer update. The dynamic cell halves the scale on an overflow and doubles it
after ``scale_window`` steps without one."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..ad.api import reverse
from ..core import dtype as mstype
from ..common.parameter import Parameter
from ..core.tensor import Tensor
from ..ops import functional as F
from .cell import Cell
from .wrap import TrainOneStepCell


def grads_overflow(grads: Any) -> Tensor:
    """A bool scalar Tensor: whether any gradient holds an inf or a NaN."""
    finite = [F.all(F.isfinite(g)) for g in grads]
    if not finite:
        return Tensor(False)
    ok = finite[0]
    for f in finite[1:]:
        ok = F.logical_and(ok, f)
    return F.logical_not(ok)


class DynamicLossScaleUpdateCell(Cell):
    """``cell(loss_scale, overflow)`` updates the Parameter ``loss_scale`` in place: on an
    overflow it becomes ``max(scale / scale_factor, 1)``; after ``scale_window`` steps
    without one it is multiplied by ``scale_factor``. Returns ``overflow``."""

    def __init__(self, loss_scale_value: float, scale_factor: int, scale_window: int) -> None:
        super().__init__()
        self.scale_window = Tensor(scale_window, dtype=mstype.int32)
        self.scale_factor = Tensor(scale_factor, dtype=mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, dtype=mstype.int32), name="current_iterator_step",
                                  requires_grad=False)
        self.last_overflow_iter = Parameter(Tensor(0, dtype=mstype.int32),
                                            name="last_overflow_iterator_step",
                                            requires_grad=False)
        self.minimum_loss_scale = Tensor(1.0, dtype=mstype.float32)

    def get_loss_scale(self) -> float:
        return self.loss_scale_value

    def construct(self, loss_scale: Parameter, overflow: Tensor) -> Tensor:
        on_overflow = F.select(overflow,
                               F.maximum(loss_scale / self.scale_factor, self.minimum_loss_scale),
                               loss_scale)
        should_inc = F.less_equal(self.scale_window, self.cur_iter - self.last_overflow_iter)
        reset = F.logical_or(overflow, should_inc)
        self.last_overflow_iter.set_data(F.select(reset, self.cur_iter,
                                                  self.last_overflow_iter))
        grow = F.logical_and(should_inc, F.logical_not(overflow))
        loss_scale.set_data(F.select(grow, on_overflow * self.scale_factor, on_overflow))
        self.cur_iter.set_data(self.cur_iter + 1)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """A constant loss scale: ``cell(loss_scale, overflow)`` returns ``overflow``."""

    def __init__(self, loss_scale_value: float) -> None:
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self) -> float:
        return self.loss_scale_value

    def construct(self, _: Any, overflow: Tensor) -> Tensor:
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """One training step with loss scaling; returns ``(loss, overflow, scale)``.

    ``scale_sense`` is an update cell (Dynamic/FixedLossScaleUpdateCell) or a Tensor of
    shape () or (1,) holding a fixed scale (changeable with ``set_sense_scale``). The
    optimizer is not called on a step whose gradients overflow."""

    def __init__(self, network: Cell, optimizer: Cell, scale_sense: Any) -> None:
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(),
                                                dtype=mstype.float32),
                                         name="scale_sense", requires_grad=False)
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((1,), ()):
                raise ValueError(f"For 'TrainOneStepWithLossScaleCell', the shape of "
                                 f"'scale_sense' must be (1,) or (), but got "
                                 f"{scale_sense.shape}.")
            self.scale_sense = Parameter(scale_sense, name="scale_sense", requires_grad=False)
        else:
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be "
                            f"Cell or Tensor, but got 'scale_sense' type: "
                            f"{type(scale_sense)}.")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # an overflow is what this cell detects and handles: no NumPy warnings for it
        with np.errstate(over="ignore", invalid="ignore"):
            return super().__call__(*args, **kwargs)

    def construct(self, *inputs: Any) -> tuple:
        pullback = reverse(self.network, inputs, (), list(self.weights))
        loss = pullback.out
        scaling_sens = self.scale_sense
        sens = F.ones_like(loss) * F.cast(scaling_sens, loss.dtype)
        _, grads = pullback([sens])
        inv = F.reciprocal(scaling_sens)
        grads = tuple(g * F.cast(inv, g.dtype) for g in grads)
        grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(None, grads)
        overflow = self.process_loss_scale(cond)
        if not overflow:
            self.optimizer(grads)
        return loss, cond, F.reshape(scaling_sens, scaling_sens.shape)

    def set_sense_scale(self, sens: Tensor) -> None:
        """Set a new loss scale (a Tensor)."""
        if not isinstance(sens, Tensor):
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be "
                            f"Tensor, but got {type(sens)}")
        self.scale_sense.set_data(sens)

    def start_overflow_check(self, pre_cond: Any, compute_input: Any) -> tuple:
        """No status registers to clear on CPU/GPU: returns ``(None, compute_input)``."""
        return None, compute_input

    def get_overflow_status(self, status: Any, compute_output: Any) -> Tensor:
        """Whether any of ``compute_output`` (the gradients) holds an inf or NaN."""
        return grads_overflow(compute_output)

    def process_loss_scale(self, overflow: Tensor) -> Tensor:
        """Update the scale through the update cell, if there is one."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow


__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
           "TrainOneStepWithLossScaleCell"]
