"""Loss scale managers for ``Model(..., loss_scale_manager=...)`` and
``build_train_network``: ``FixedLossScaleManager`` and ``DynamicLossScaleManager``."""
from __future__ import annotations

from typing import Any

from ..nn.loss_scale import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell


class LossScaleManager:
    """Base class: ``get_loss_scale``, ``update_loss_scale(overflow)``,
    ``get_update_cell`` (a Cell that updates the scale inside the training step, or None)."""

    def get_loss_scale(self) -> Any:
        """The current loss scale."""

    def update_loss_scale(self, overflow: bool) -> None:
        """Adjust the scale after a step (``overflow``: whether its gradients overflowed)."""

    def get_update_cell(self) -> Any:
        """The update cell for ``TrainOneStepWithLossScaleCell``, or None."""

    def get_drop_overflow_update(self) -> bool:
        """Whether a step whose gradients overflow skips the update."""
        return False


class FixedLossScaleManager(LossScaleManager):
    """A constant ``loss_scale``. With ``drop_overflow_update=True`` the training step checks
    the gradients and skips an update that overflows (``TrainOneStepWithLossScaleCell``);
    with False the loss scale is only multiplied in and divided out (the optimizer's
    ``loss_scale`` must then equal it, as in MindSpore)."""

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True) -> None:
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, (int, float)) \
                or loss_scale < 1:
            raise ValueError(f"The argument 'loss_scale' must be >= 1, but got {loss_scale!r}")
        self._loss_scale = loss_scale
        self._drop_overflow_update = bool(drop_overflow_update)

    def get_loss_scale(self) -> float:
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        return self._drop_overflow_update

    def update_loss_scale(self, overflow: bool) -> None:
        """A fixed scale does not change."""

    def get_update_cell(self) -> Any:
        if not self._drop_overflow_update:
            return None
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale starting at ``init_loss_scale`` (2**24), divided by ``scale_factor`` on
    an overflow (not below 1) and multiplied by it after ``scale_window`` steps without
    one."""

    def __init__(self, init_loss_scale: float = 2 ** 24, scale_factor: int = 2,
                 scale_window: int = 2000) -> None:
        if isinstance(init_loss_scale, bool) or not isinstance(init_loss_scale, (int, float)) \
                or init_loss_scale < 1.0:
            raise ValueError(f"The argument 'init_loss_scale' must be > 1, but got "
                             f"{init_loss_scale!r}")
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) \
                or scale_window <= 0:
            raise ValueError(f"For 'DynamicLossScaleManager', 'scale_window' must be a positive "
                             f"int, but got {scale_window!r}.")
        if isinstance(scale_factor, bool) or not isinstance(scale_factor, (int, float)) \
                or scale_factor <= 0:
            raise ValueError(f"The argument 'scale_factor' must be > 0, but got "
                             f"{scale_factor!r}")
        self.loss_scale = init_loss_scale
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self) -> float:
        return self.loss_scale

    def update_loss_scale(self, overflow: bool) -> None:
        """Host-side bookkeeping of the scale (the update cell does the same in the step)."""
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError(f"Dynamic loss scale: {self.bad_step} overflowing steps in a "
                               f"row, more than the maximum {self.bad_step_max}.")
        self.cur_iter += 1

    def get_drop_overflow_update(self) -> bool:
        return True

    def get_update_cell(self) -> Any:
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)


__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]
