"""Learning rates as Python lists, one value per step (``nn.piecewise_constant_lr``,
``nn.exponential_decay_lr``, ...): pass the list to an optimizer as ``learning_rate``.
``epoch = floor(step / step_per_epoch)`` throughout."""
from __future__ import annotations

import math
from typing import Sequence


def _check(learning_rate: float, total_step: int, step_per_epoch: int, epochs: int,
           epochs_name: str, who: str) -> None:
    if isinstance(learning_rate, bool) or not isinstance(learning_rate, float) \
            or learning_rate < 0:
        raise ValueError(f"For '{who}', 'learning_rate' must be a non-negative float, but got "
                         f"{learning_rate!r}.")
    for name, v in (("total_step", total_step), ("step_per_epoch", step_per_epoch),
                    (epochs_name, epochs)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"For '{who}', '{name}' must be a positive int, but got {v!r}.")


def piecewise_constant_lr(milestone: Sequence[int], learning_rates: Sequence[float]) -> list:
    """``learning_rates[t]`` for the steps in ``[milestone[t-1], milestone[t])``."""
    if not isinstance(milestone, (tuple, list)) or not isinstance(learning_rates, (tuple, list)):
        raise TypeError("For 'piecewise_constant_lr', 'milestone' and 'learning_rates' must be "
                        "lists or tuples.")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For 'piecewise_constant_lr', the size of 'milestone' must be same "
                         f"with the size of 'learning_rates', but got 'milestone' size: "
                         f"{len(milestone)}, 'learning_rates' size: {len(learning_rates)}.")
    lr: list = []
    last = 0
    for i, (m, rate) in enumerate(zip(milestone, learning_rates)):
        if isinstance(m, bool) or not isinstance(m, int) or m <= 0 or m < last:
            raise ValueError(f"For 'piecewise_constant_lr', milestone[{i}] must be a positive "
                             f"int not smaller than the previous one, but got {m!r}.")
        lr += [rate] * (m - last)
        last = m
    return lr


def exponential_decay_lr(learning_rate: float, decay_rate: float, total_step: int,
                         step_per_epoch: int, decay_epoch: int, is_stair: bool = False) -> list:
    """``learning_rate * decay_rate ** (epoch / decay_epoch)`` (exponent floored if stair)."""
    _check(learning_rate, total_step, step_per_epoch, decay_epoch, "decay_epoch",
           "exponential_decay_lr")
    out = []
    for i in range(total_step):
        p = math.floor(i / step_per_epoch) / decay_epoch
        out.append(learning_rate * decay_rate ** (math.floor(p) if is_stair else p))
    return out


def natural_exp_decay_lr(learning_rate: float, decay_rate: float, total_step: int,
                         step_per_epoch: int, decay_epoch: int, is_stair: bool = False) -> list:
    """``learning_rate * e ** (-decay_rate * epoch)``; with ``is_stair`` the epoch is rounded
    down to a multiple of ``decay_epoch``."""
    _check(learning_rate, total_step, step_per_epoch, decay_epoch, "decay_epoch",
           "natural_exp_decay_lr")
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        out.append(learning_rate * math.e ** (-decay_rate * epoch))
    return out


def inverse_decay_lr(learning_rate: float, decay_rate: float, total_step: int,
                     step_per_epoch: int, decay_epoch: int, is_stair: bool = False) -> list:
    """``learning_rate / (1 + decay_rate * epoch / decay_epoch)`` (ratio floored if stair)."""
    _check(learning_rate, total_step, step_per_epoch, decay_epoch, "decay_epoch",
           "inverse_decay_lr")
    out = []
    for i in range(total_step):
        p = math.floor(i / step_per_epoch) / decay_epoch
        out.append(learning_rate / (1 + decay_rate * (math.floor(p) if is_stair else p)))
    return out


def cosine_decay_lr(min_lr: float, max_lr: float, total_step: int, step_per_epoch: int,
                    decay_epoch: int) -> list:
    """``min_lr + 0.5 (max_lr - min_lr) (1 + cos(pi * min(epoch, decay_epoch) / decay_epoch))``."""
    _check(max_lr, total_step, step_per_epoch, decay_epoch, "decay_epoch", "cosine_decay_lr")
    if not isinstance(min_lr, float) or not 0 <= min_lr < max_lr:
        raise ValueError(f"For 'cosine_decay_lr', 'min_lr' must be a float in [0, max_lr), but "
                         f"got {min_lr!r}.")
    delta = 0.5 * (max_lr - min_lr)
    return [min_lr + delta * (1 + math.cos(math.pi * min(math.floor(i / step_per_epoch),
                                                         decay_epoch) / decay_epoch))
            for i in range(total_step)]


def polynomial_decay_lr(learning_rate: float, end_learning_rate: float, total_step: int,
                        step_per_epoch: int, decay_epoch: int, power: float,
                        update_decay_epoch: bool = False) -> list:
    """``(learning_rate - end) * (1 - e / D) ** power + end`` with ``e = min(epoch,
    decay_epoch)`` and ``D = decay_epoch``; with ``update_decay_epoch``, ``e = epoch`` and
    ``D = decay_epoch * max(ceil(epoch / decay_epoch), 1)``."""
    _check(learning_rate, total_step, step_per_epoch, decay_epoch, "decay_epoch",
           "polynomial_decay_lr")
    if not isinstance(end_learning_rate, float) or end_learning_rate < 0 or power <= 0:
        raise ValueError("For 'polynomial_decay_lr', 'end_learning_rate' must be a "
                         "non-negative float and 'power' positive.")
    delta = learning_rate - end_learning_rate
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if update_decay_epoch:
            total, e = decay_epoch * max(math.ceil(epoch / decay_epoch), 1), epoch
        else:
            total, e = decay_epoch, min(epoch, decay_epoch)
        out.append(delta * (1 - e / total) ** power + end_learning_rate)
    return out


def warmup_lr(learning_rate: float, total_step: int, step_per_epoch: int,
              warmup_epoch: int) -> list:
    """``learning_rate * min(epoch, warmup_epoch) / warmup_epoch``."""
    _check(learning_rate, total_step, step_per_epoch, warmup_epoch, "warmup_epoch",
           "warmup_lr")
    return [learning_rate * min(math.floor(i / step_per_epoch), warmup_epoch) / warmup_epoch
            for i in range(total_step)]


__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr",
           "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]
