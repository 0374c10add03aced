"""The accumulator optimizers: ``nn.Adagrad``, ``nn.ProximalAdagrad``, ``nn.Adadelta``,
``nn.AdaMax`` and ``nn.FTRL``, each with MindSpore's update (its CPU kernel's formula), its
state Parameters under MindSpore's names (``accum.<param>``, ``moment1.<param>``, ...) so
that checkpoints interchange, parameter groups, weight decay, loss scale and learning-rate
schedules from the ``Optimizer`` base.

Like MindSpore's, each step first adds the weight decay to the gradients, then removes the
loss scale, and advances ``global_step`` by one."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...common.parameter import Parameter
from ...core.tensor import Tensor
from ...ops import functional as F
from .optimizer import Optimizer


def check_float(v: Any, name: str, who: str, low: float | None = 0.0, high: float | None = None,
                low_open: bool = False, high_open: bool = False) -> float:
    """``v`` as a float (MindSpore takes only Python floats here) within the bounds."""
    if isinstance(v, bool) or not isinstance(v, float):
        raise TypeError(f"For '{who}', the type of '{name}' must be float, but got "
                        f"{type(v).__name__}.")
    if low is not None and (v < low or (low_open and v == low)) or \
            high is not None and (v > high or (high_open and v == high)):
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(f"For '{who}', '{name}' must be in range {'(' if low_open else '['}"
                         f"{lo}, {hi}{')' if high_open else ']'}, but got {v}.")
    return v


def check_bool(v: Any, name: str, who: str) -> bool:
    if not isinstance(v, bool):
        raise TypeError(f"For '{who}', the type of '{name}' must be bool, but got "
                        f"{type(v).__name__}.")
    return v


class StepOptimizer(Optimizer):
    """An optimizer whose every step advances ``global_step`` once, as MindSpore's do."""

    def step_lrs(self) -> list:
        """This step's learning rate per parameter; ``global_step`` moves on by one (the
        base's ``_lrs`` advances it for every rate, constant or dynamic)."""
        return self._lrs()


class Adagrad(StepOptimizer):
    """Adagrad: ``accum += g^2`` (unless ``update_slots=False``) and
    ``p -= lr g / sqrt(accum)``; ``accum`` starts at ``accum``."""

    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001,
                 update_slots: bool = True, loss_scale: float = 1.0,
                 weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_float(accum, "accum", "Adagrad")
        self.update_slots = check_bool(update_slots, "update_slots", "Adagrad")
        self.accum = self._state("accum", accum)

    def construct(self, grads: Any) -> bool:
        grads = self._prepare(grads)
        for p, a, g, lr in zip(self.parameters, self.accum, grads, self.step_lrs()):
            acc = F.add(a, F.square(g)) if self.update_slots else a
            a.set_data(acc)
            p.set_data(F.sub(p, F.mul(lr, F.mul(g, F.rsqrt(acc)))))
        return True


class ProximalAdagrad(StepOptimizer):
    """Proximal Adagrad: ``accum += g^2``, ``a = lr / sqrt(accum)``, ``v = p - a g`` and
    ``p = sign(v) max(|v| - a l1, 0) / (1 + a l2)``."""

    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001,
                 l1: float = 0.0, l2: float = 0.0, use_locking: bool = False,
                 loss_scale: float = 1.0, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        who = "ProximalAdagrad"
        check_float(accum, "accum", who)
        self.l1, self.l2 = check_float(l1, "l1", who), check_float(l2, "l2", who)
        self.use_locking = check_bool(use_locking, "use_locking", who)
        self.accum = self._state("accum", accum)

    def construct(self, grads: Any) -> bool:
        grads = self._prepare(grads)
        for p, a, g, lr in zip(self.parameters, self.accum, grads, self.step_lrs()):
            acc = F.add(a, F.square(g))
            a.set_data(acc)
            rate = F.mul(lr, F.rsqrt(acc))  # the per-element rate of the step and the prox
            v = F.sub(p, F.mul(rate, g))
            shrunk = F.relu(F.sub(F.abs(v), F.mul(rate, self.l1)))
            p.set_data(F.div(F.mul(F.sign(v), shrunk), F.add(F.mul(rate, self.l2), 1.0)))
        return True


class Adadelta(StepOptimizer):
    """Adadelta: ``accum = rho accum + (1 - rho) g^2``,
    ``u = sqrt(accum_update + eps) / sqrt(accum + eps) g``,
    ``accum_update = rho accum_update + (1 - rho) u^2`` and ``p -= lr u``."""

    def __init__(self, params: Any, learning_rate: Any = 1.0, rho: float = 0.9,
                 epsilon: float = 1e-6, loss_scale: float = 1.0,
                 weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho = check_float(rho, "rho", "Adadelta", 0.0, 1.0)
        self.epsilon = check_float(epsilon, "epsilon", "Adadelta")
        self.accum = self._state("accum", "zeros")
        self.accum_update = self._state("accum_update", "zeros")

    def construct(self, grads: Any) -> bool:
        grads = self._prepare(grads)
        rho, eps = self.rho, self.epsilon
        for p, a, au, g, lr in zip(self.parameters, self.accum, self.accum_update, grads,
                                   self.step_lrs()):
            acc = F.add(F.mul(a, rho), F.mul(F.square(g), 1.0 - rho))
            u = F.mul(F.div(F.sqrt(F.add(au, eps)), F.sqrt(F.add(acc, eps))), g)
            a.set_data(acc)
            au.set_data(F.add(F.mul(au, rho), F.mul(F.square(u), 1.0 - rho)))
            p.set_data(F.sub(p, F.mul(lr, u)))
        return True


class AdaMax(StepOptimizer):
    """AdaMax: ``m = beta1 m + (1 - beta1) g``, ``v = max(beta2 v, |g|)`` and
    ``p -= lr / (1 - beta1^t) m / (v + eps)``."""

    def __init__(self, params: Any, learning_rate: Any = 0.001, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-08, weight_decay: float = 0.0,
                 loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        who = "AdaMax"
        self.beta1 = check_float(beta1, "beta1", who, 0.0, 1.0, True, True)
        self.beta2 = check_float(beta2, "beta2", who, 0.0, 1.0, True, True)
        self.eps = check_float(eps, "eps", who, 0.0, None, True)
        self.beta1_power = Parameter(Tensor(np.ones(1, np.float32)), name="beta1_power",
                                     requires_grad=False)
        self.moment1 = self._state("moment1")
        self.moment2 = self._state("moment2")

    def construct(self, gradients: Any) -> bool:
        grads = self._prepare(gradients)
        lrs = self.step_lrs()
        b1, b2 = self.beta1, self.beta2
        power = F.mul(self.beta1_power, b1)
        self.beta1_power.set_data(power)
        scale = F.reshape(F.sub(1.0, power), ())
        for p, m, v, g, lr in zip(self.parameters, self.moment1, self.moment2, grads, lrs):
            m_new = F.add(F.mul(m, b1), F.mul(g, 1.0 - b1))
            v_new = F.maximum(F.mul(v, b2), F.abs(g))
            m.set_data(m_new)
            v.set_data(v_new)
            step = F.div(m_new, F.add(v_new, self.eps))
            p.set_data(F.sub(p, F.mul(F.div(lr, scale), step)))
        return True


class FTRL(StepOptimizer):
    """Follow-the-regularized-leader: with ``n = moments + g^2``,
    ``linear += g - (n^-lr_power - moments^-lr_power) / lr p``, ``moments = n`` and
    ``p = (sign(linear) l1 - linear) / (n^-lr_power / lr + 2 l2)`` where
    ``|linear| > l1``, else 0. The learning rate is a fixed float, as in MindSpore."""

    def __init__(self, params: Any, initial_accum: float = 0.1, learning_rate: float = 0.001,
                 lr_power: float = -0.5, l1: float = 0.0, l2: float = 0.0,
                 use_locking: bool = False, loss_scale: float = 1.0,
                 weight_decay: float = 0.0) -> None:
        who = "FTRL"
        if isinstance(params, (list, tuple)) and params and isinstance(params[0], dict):
            for group in params:
                if "lr" in group:
                    raise ValueError(f"For '{who}', dynamic or grouped learning rates are not "
                                     f"supported; remove 'lr' from the parameter groups.")
        check_float(initial_accum, "initial_accum", who)
        check_float(learning_rate, "learning_rate", who, 0.0, None, True)
        check_float(lr_power, "lr_power", who, None, 0.0)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.lr_power = lr_power
        self.l1, self.l2 = check_float(l1, "l1", who), check_float(l2, "l2", who)
        self.use_locking = check_bool(use_locking, "use_locking", who)
        self.lr = learning_rate
        self.moments = self._state("moments", initial_accum)
        self.linear = self._state("linear", "zeros")

    def construct(self, grads: Any) -> bool:
        grads = self._prepare(grads)
        self.step_lrs()
        lr, power, l1, l2 = self.lr, -self.lr_power, self.l1, self.l2
        for p, n, lin, g in zip(self.parameters, self.moments, self.linear, grads):
            n_new = F.add(n, F.square(g))
            sigma = F.div(F.sub(F.pow(n_new, power), F.pow(n, power)), lr)
            lin_new = F.sub(F.add(lin, g), F.mul(sigma, p))
            quadratic = F.add(F.div(F.pow(n_new, power), lr), 2.0 * l2)
            value = F.div(F.sub(F.mul(F.sign(lin_new), l1), lin_new), quadratic)
            p.set_data(F.select(F.greater(F.abs(lin_new), l1), value, F.zeros_like(value)))
            n.set_data(n_new)
            lin.set_data(lin_new)
        return True


__all__ = ["Adagrad", "ProximalAdagrad", "Adadelta", "AdaMax", "FTRL"]
