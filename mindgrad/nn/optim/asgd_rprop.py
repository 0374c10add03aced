"""``nn.ASGD`` (averaged stochastic gradient descent), ``nn.Rprop`` (resilient
back-propagation) and ``nn.LazyAdam`` (Adam; its lazy row updates concern sparse gradients,
which mindgrad does not make, so every step is a dense Adam step), with MindSpore's updates
and state names."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...common.parameter import Parameter
from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...ops import functional as F
from .adagrad import StepOptimizer, check_bool, check_float


class ASGD(StepOptimizer):
    """ASGD. At step ``t`` (from 1), with ``eta`` set to ``lr`` on the first step:
    ``p = p (1 - lambd eta) - eta g``; the average ``ax`` becomes ``p`` while ``mu`` is 1,
    else ``ax += (p - ax) mu``; then ``eta = lr / (1 + lambd lr t)^alpha`` and
    ``mu = 1 / max(1, t - t0)``. ``mu_<name>`` and ``eta_<name>`` are scalar Parameters
    per parameter, ``ax_.<name>`` the averages."""

    def __init__(self, params: Any, learning_rate: Any = 0.1, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        self.lambd = check_float(lambd, "lambd", "ASGD", None)
        self.alpha = check_float(alpha, "alpha", "ASGD", None)
        self.t0 = check_float(t0, "t0", "ASGD", None)
        self.mu = self._scalars("mu_", 1.0)
        self.eta = self._scalars("eta_", 0.0)
        self.ax = self._state("ax_", "zeros")

    def _scalars(self, prefix: str, value: float) -> tuple:
        out = []
        for p in self.parameters:
            s = Parameter(Tensor(value, mstype.float32), name=f"{prefix}{p.name}",
                          requires_grad=False)
            self.insert_param_to_cell(s.name, s)
            out.append(s)
        return tuple(out)

    def construct(self, gradients: Any) -> bool:
        grads = self._prepare(gradients)
        lrs = self.step_lrs()
        step = F.cast(F.reshape(self.global_step, ()), mstype.float32)
        first = F.equal(step, 1.0)
        for p, g, mu, eta, ax, lr in zip(self.parameters, grads, self.mu, self.eta, self.ax,
                                         lrs):
            lr = F.reshape(lr, ())
            eta_now = F.select(first, lr, eta)
            new = F.sub(F.mul(p, F.sub(1.0, F.mul(eta_now, self.lambd))),
                        F.mul(F.cast(eta_now, p.dtype), g))
            p.set_data(new)
            averaged = F.add(ax, F.mul(F.sub(new, ax), F.cast(mu, ax.dtype)))
            ax.set_data(F.select(F.equal(mu, 1.0), F.cast(new, ax.dtype), averaged))
            eta.set_data(F.div(lr, F.pow(F.add(F.mul(F.mul(lr, step), self.lambd), 1.0),
                                         self.alpha)))
            mu.set_data(F.div(1.0, F.maximum(F.sub(step, self.t0), 1.0)))
        return True


class Rprop(StepOptimizer):
    """Rprop: each element's step size (``lr`` at the first step) grows by ``etaplus`` while
    its gradient keeps its sign, shrinks by ``etaminus`` when the sign flips (and that step
    is skipped: the gradient counts as 0), stays when either is 0, clipped to
    ``step_sizes``; ``p -= sign(g) step``. States ``prev.<name>``, ``step_size.<name>``."""

    def __init__(self, params: Any, learning_rate: Any = 0.1, etas: tuple = (0.5, 1.2),
                 step_sizes: tuple = (1e-6, 50.), weight_decay: float = 0.) -> None:
        super().__init__(learning_rate, params, weight_decay)
        for name, v in (("etas", etas), ("step_sizes", step_sizes)):
            if not isinstance(v, tuple):
                raise TypeError(f"For Rprop, {name} must be a tuple, but got {type(v)}.")
            if len(v) != 2:
                raise ValueError(f"For Rprop, {name} must be a tuple with the size of 2, but "
                                 f"got {len(v)}.")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError(f"For Rprop, maximal step size should not be less than minimal "
                             f"step size, but got {step_sizes[0]} > {step_sizes[1]}.")
        self.etaminus = check_float(etas[0], "etaminus", "Rprop", 0.0, 1.0, True, True)
        self.etaplus = check_float(etas[1], "etaplus", "Rprop", None)
        if self.etaplus <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus "
                             f"{self.etaplus}.")
        self.step_size_min = check_float(step_sizes[0], "min_step_sizes", "Rprop", None)
        self.step_size_max = check_float(step_sizes[1], "max_step_sizes", "Rprop", None)
        self.prev = self._state("prev", "zeros")
        self.step_size = self._state("step_size", "zeros")

    def construct(self, gradients: Any) -> bool:
        grads = self._prepare(gradients)
        lrs = self.step_lrs()
        first = F.equal(F.reshape(self.global_step, ()), 1)
        for p, g, prev, state, lr in zip(self.parameters, grads, self.prev, self.step_size, lrs):
            size = F.select(first, F.mul(F.ones_like(state), F.cast(lr, state.dtype)), state)
            s = F.sign(F.mul(g, prev))
            one = F.ones_like(s)
            factor = F.select(F.greater(s, 0), F.mul(one, self.etaplus),
                              F.select(F.less(s, 0), F.mul(one, self.etaminus), one))
            new_size = F.clamp(F.mul(size, factor), self.step_size_min, self.step_size_max)
            flipped = F.less(s, 0)
            g_used = F.select(flipped, F.zeros_like(g), g)
            p.set_data(F.sub(p, F.mul(F.sign(g_used), new_size)))
            prev.set_data(g_used)
            state.set_data(new_size)
        return True


class LazyAdam(StepOptimizer):
    """Adam as MindSpore's kernel computes it (see ``nn.Adam``): with ``t`` the step,
    ``m = m + (g - m)(1 - beta1)``, ``v = v + (g^2 - v)(1 - beta2)``,
    ``p -= lr sqrt(1 - beta2^t) / (1 - beta1^t) m / (sqrt(v) + eps)`` (nesterov:
    ``beta1 m + (1 - beta1) g`` for ``m``). The powers are ``beta1_power`` and
    ``beta2_power`` (shape [1]), the moments ``moment1.<name>`` and ``moment2.<name>``."""

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-8, use_locking: bool = False,
                 use_nesterov: bool = False, weight_decay: float = 0.0,
                 loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        who = "LazyAdam"
        self.beta1 = check_float(beta1, "beta1", who, 0.0, 1.0, True, True)
        self.beta2 = check_float(beta2, "beta2", who, 0.0, 1.0, True, True)
        self.eps = check_float(eps, "eps", who, 0.0, None, True)
        self.use_locking = check_bool(use_locking, "use_locking", who)
        self.use_nesterov = check_bool(use_nesterov, "use_nesterov", who)
        for name in ("beta1_power", "beta2_power"):
            setattr(self, name, Parameter(Tensor(np.ones(1, np.float32)), name=name,
                                          requires_grad=False))
        self.moment1 = self._state("moment1")
        self.moment2 = self._state("moment2")

    def construct(self, gradients: Any) -> bool:
        grads = self._prepare(gradients)
        lrs = self.step_lrs()
        b1, b2 = self.beta1, self.beta2
        b1p = F.mul(self.beta1_power, b1)
        b2p = F.mul(self.beta2_power, b2)
        self.beta1_power.set_data(b1p)
        self.beta2_power.set_data(b2p)
        correction = F.reshape(F.div(F.sqrt(F.sub(1.0, b2p)), F.sub(1.0, b1p)), ())
        for p, m, v, g, lr in zip(self.parameters, self.moment1, self.moment2, grads, lrs):
            m_new = F.add(m, F.mul(F.sub(g, m), 1.0 - b1))
            v_new = F.add(v, F.mul(F.sub(F.square(g), v), 1.0 - b2))
            m.set_data(m_new)
            v.set_data(v_new)
            num = F.add(F.mul(m_new, b1), F.mul(g, 1.0 - b1)) if self.use_nesterov else m_new
            step = F.div(num, F.add(F.sqrt(v_new), self.eps))
            p.set_data(F.sub(p, F.mul(F.mul(lr, correction), step)))
        return True


__all__ = ["ASGD", "Rprop", "LazyAdam"]
