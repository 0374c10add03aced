"""``nn.SGD`` and ``nn.Momentum``."""
from __future__ import annotations

from typing import Any

from ...ops import functional as F
from ...prims.optim import apply_gradient_descent
from .optimizer import Optimizer


def _non_negative(value: Any, name: str, who: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{who}', the argument '{name}' must be float type, but got "
                        f"{type(value).__name__}.")
    if value < 0.0:
        raise ValueError(f"For '{who}', the argument '{name}' must be at least 0.0, but got "
                         f"{value}.")
    return float(value)


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum, as MindSpore's SGD kernel:

    ``g = grad + weight_decay * p``; with ``momentum > 0``:
    ``v = g`` on the first step, then ``v = momentum * v + (1 - dampening) * g``, and
    ``g = g + momentum * v`` (nesterov) or ``g = v``; finally ``p = p - lr * g``.
    The weight decay of SGD applies to every parameter.

    The state is MindSpore's, name for name, so checkpoints interchange: the ``momentum``
    scalar, ``accum.<name>`` (v, zeros) and ``stat.<name>`` (ones until the first step with
    momentum, then zeros), even with ``momentum=0``, where neither changes."""

    def __init__(self, params: Any, learning_rate: Any = 0.1, momentum: float = 0.0,
                 dampening: float = 0.0, weight_decay: float = 0.0, nesterov: bool = False,
                 loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self._m = _non_negative(momentum, "momentum", "SGD")
        self.dampening = _non_negative(dampening, "dampening", "SGD")
        if not isinstance(nesterov, bool):
            raise TypeError(f"For 'SGD', 'nesterov' must be bool, but got "
                            f"{type(nesterov).__name__}.")
        if nesterov and (self._m <= 0.0 or self.dampening != 0.0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and "
                             f"'dampening' must equal to 0.0, but got 'momentum' {momentum}, "
                             f"'dampening' {dampening}.")
        self.nesterov = nesterov
        n = len(self.parameters)
        self._sgd_decays = list(self.weight_decay) if self.is_group else [self.weight_decay] * n
        # the ``momentum`` Parameter holds the value for checkpoints; steps use the float
        self._scalar("momentum", self._m)
        self.accum = self._state("accum")
        self.stat = self._state("stat", "ones")

    def _drop_weight_decay(self) -> None:
        super()._drop_weight_decay()
        self._sgd_decays = [0.0] * len(self._sgd_decays)

    def construct(self, gradients: Any) -> bool:
        grads = self._prepare(gradients, decay=False)
        lrs = self._lrs()
        m = self._m
        d = self.dampening
        for i, (p, g, lr) in enumerate(zip(self.parameters, grads, lrs)):
            wd = self._sgd_decays[i]
            if wd:
                g = F.add(g, F.mul(p, wd))
            if m > 0.0:
                # MindSpore's kernel: v = g where stat is set (then stat = 0), else
                # v = m * v + (1 - d) * g. v is zero wherever stat is set (both change
                # together), so one rule does both: g's factor is 1 + d * (stat - 1).
                v, s = self.accum[i], self.stat[i]
                coef = F.add(F.mul(s, d), 1.0 - d) if d else None
                v_new = F.add(F.mul(v, m), g if coef is None else F.mul(g, coef))
                v.set_data(v_new)
                s.set_data(F.zeros_like(s))
                g = F.add(g, F.mul(v_new, m)) if self.nesterov else v_new
            p.set_data(apply_gradient_descent(p, lr, g))
        return True


class Momentum(Optimizer):
    """Momentum SGD: ``v = momentum * v + g``; ``p = p - lr * v``, or with ``use_nesterov``
    ``p = p - lr * (g + momentum * v)``. Weight decay (``g + wd * p``) skips parameters whose
    name contains 'beta' or 'gamma' unless parameter groups set it."""

    def __init__(self, params: Any, learning_rate: Any, momentum: float,
                 weight_decay: float = 0.0, loss_scale: float = 1.0,
                 use_nesterov: bool = False) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self._m = _non_negative(momentum, "momentum", "Momentum")
        if not isinstance(use_nesterov, bool):
            raise TypeError(f"For 'Momentum', 'use_nesterov' must be bool, but got "
                            f"{type(use_nesterov).__name__}.")
        self.use_nesterov = use_nesterov
        self._scalar("momentum", self._m)  # MindSpore's Parameter, for checkpoints
        self.moments = self._state("moments")

    def construct(self, gradients: Any) -> bool:
        grads = self._prepare(gradients)
        lrs = self._lrs()
        m = self._m
        for p, g, v, lr in zip(self.parameters, grads, self.moments, lrs):
            v_new = F.add(F.mul(v, m), g)
            v.set_data(v_new)
            step = F.add(g, F.mul(v_new, m)) if self.use_nesterov else v_new
            p.set_data(apply_gradient_descent(p, lr, step))
        return True


__all__ = ["SGD", "Momentum"]
