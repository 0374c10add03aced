"""Learning-rate schedules: Cells mapping the optimizer's ``global_step`` (an int Tensor) to
the learning rate of that step, written in tensor operations so that they also run inside a
compiled (GRAPH-mode / ``jit``) training step."""
from __future__ import annotations

import math
from typing import Any

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..ops import functional as F
from .cell import Cell


def _positive_float(value: Any, name: str, who: str, allow_zero: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError(f"For '{who}', '{name}' must be a float, but got "
                        f"{type(value).__name__}.")
    if value < 0 or (value == 0 and not allow_zero):
        kind = "non-negative" if allow_zero else "positive"
        raise ValueError(f"For '{who}', '{name}' must be {kind}, but got {value!r}.")
    return value


def _positive_int(value: Any, name: str, who: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{who}', '{name}' must be an int, but got {type(value).__name__}.")
    if value < 1:
        raise ValueError(f"For '{who}', '{name}' must be at least 1, but got {value}.")
    return value


def _step(global_step: Tensor) -> Tensor:
    return F.cast(global_step, mstype.float32)


class LearningRateSchedule(Cell):
    """Base class: ``construct(global_step)`` returns the learning rate (a float32 Tensor)."""

    def construct(self, global_step: Tensor) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} must define construct(global_step).")


class _DecayLR(LearningRateSchedule):
    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int,
                 is_stair: bool = False) -> None:
        super().__init__()
        who = type(self).__name__
        self.learning_rate = _positive_float(learning_rate, "learning_rate", who)
        self.decay_rate = _positive_float(decay_rate, "decay_rate", who)
        self.decay_steps = _positive_int(decay_steps, "decay_steps", who)
        if not isinstance(is_stair, bool):
            raise TypeError(f"For '{who}', 'is_stair' must be bool, but got "
                            f"{type(is_stair).__name__}.")
        self.is_stair = is_stair

    def _p(self, global_step: Tensor) -> Tensor:
        p = F.div(_step(global_step), float(self.decay_steps))
        return F.floor(p) if self.is_stair else p


class ExponentialDecayLR(_DecayLR):
    """``learning_rate * decay_rate ** p`` with ``p = step / decay_steps`` (floored when
    ``is_stair``)."""

    def construct(self, global_step: Tensor) -> Tensor:
        return F.mul(self.learning_rate, F.pow(self.decay_rate, self._p(global_step)))


class NaturalExpDecayLR(_DecayLR):
    """``learning_rate * exp(-decay_rate * p)``. As MindSpore computes it, ``p`` is the step
    itself (with ``is_stair``: the step rounded down to a multiple of ``decay_steps``)."""

    def construct(self, global_step: Tensor) -> Tensor:
        p = _step(global_step)
        if self.is_stair:
            p = F.mul(F.floor(F.div(p, float(self.decay_steps))), float(self.decay_steps))
        return F.mul(self.learning_rate, F.exp(F.mul(p, -self.decay_rate)))


class InverseDecayLR(_DecayLR):
    """``learning_rate / (1 + decay_rate * p)`` with ``p`` as in ExponentialDecayLR."""

    def construct(self, global_step: Tensor) -> Tensor:
        return F.div(self.learning_rate, F.add(F.mul(self._p(global_step), self.decay_rate), 1.0))


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + 0.5 (max_lr - min_lr) (1 + cos(pi * min(step, decay_steps) / decay_steps))``."""

    def __init__(self, min_lr: float, max_lr: float, decay_steps: int) -> None:
        super().__init__()
        self.min_lr = _positive_float(min_lr, "min_lr", "CosineDecayLR", allow_zero=True)
        self.max_lr = _positive_float(max_lr, "max_lr", "CosineDecayLR")
        self.decay_steps = _positive_int(decay_steps, "decay_steps", "CosineDecayLR")
        if min_lr >= max_lr:
            raise ValueError(f"For 'CosineDecayLR', the 'max_lr' must be greater than the "
                             f"'min_lr', but got 'max_lr' value: {max_lr}, 'min_lr' value: "
                             f"{min_lr}.")
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step: Tensor) -> Tensor:
        p = _step(F.minimum(global_step, self.decay_steps))
        cos = F.cos(F.mul(p, math.pi / self.decay_steps))
        return F.add(F.mul(F.add(cos, 1.0), self.delta), self.min_lr)


class PolynomialDecayLR(LearningRateSchedule):
    """``(learning_rate - end_learning_rate) * (1 - t / T) ** power + end_learning_rate``
    with ``t = min(step, decay_steps)`` and ``T = decay_steps``; with ``update_decay_steps``,
    ``t = step`` and ``T = decay_steps * max(ceil(step / decay_steps), 1)``."""

    def __init__(self, learning_rate: float, end_learning_rate: float, decay_steps: int,
                 power: float, update_decay_steps: bool = False) -> None:
        super().__init__()
        who = "PolynomialDecayLR"
        self.start_learning_rate = _positive_float(learning_rate, "learning_rate", who)
        self.end_learning_rate = _positive_float(end_learning_rate, "end_learning_rate", who,
                                                 allow_zero=True)
        self.decay_steps = _positive_int(decay_steps, "decay_steps", who)
        self.power = _positive_float(power, "power", who)
        if not isinstance(update_decay_steps, bool):
            raise TypeError(f"For '{who}', 'update_decay_steps' must be bool.")
        self.update_decay_steps = update_decay_steps
        self.diff_learning_rate = learning_rate - end_learning_rate

    def construct(self, global_step: Tensor) -> Tensor:
        step = _step(global_step)
        total: Any = float(self.decay_steps)
        if self.update_decay_steps:
            total = F.mul(F.maximum(F.ceil(F.div(step, total)), 1.0), total)
        else:
            step = F.minimum(step, total)
        frac = F.sub(1.0, F.div(step, total))
        return F.add(F.mul(F.pow(frac, self.power), self.diff_learning_rate),
                     self.end_learning_rate)


class WarmUpLR(LearningRateSchedule):
    """``learning_rate * min(step, warmup_steps) / warmup_steps``."""

    def __init__(self, learning_rate: float, warmup_steps: int) -> None:
        super().__init__()
        self.learning_rate = _positive_float(learning_rate, "learning_rate", "WarmUpLR",
                                             allow_zero=True)
        self.warmup_steps = _positive_int(warmup_steps, "warmup_steps", "WarmUpLR")

    def construct(self, global_step: Tensor) -> Tensor:
        frac = F.div(_step(F.minimum(global_step, self.warmup_steps)), float(self.warmup_steps))
        return F.mul(frac, self.learning_rate)


__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR",
           "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR"]
