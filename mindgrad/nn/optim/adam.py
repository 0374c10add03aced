"""``nn.Adam`` and ``nn.AdamWeightDecay``."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...common.parameter import Parameter
from ...core.tensor import Tensor

from ...ops import functional as F
from ...prims.optim import apply_gradient_descent
from .optimizer import Optimizer


def _check_betas(beta1: float, beta2: float, eps: float, who: str) -> None:
    for name, v, lo in (("beta1", beta1, 0.0), ("beta2", beta2, 0.0)):
        if isinstance(v, bool) or not isinstance(v, float) or not lo < v < 1.0:
            raise ValueError(f"For '{who}', '{name}' must be a float in range (0.0, 1.0), but "
                             f"got {v!r}.")
    if isinstance(eps, bool) or not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For '{who}', 'eps' must be a positive float, but got {eps!r}.")


class Adam(Optimizer):
    """Adam (MindSpore's kernel): with ``t`` the step count,
    ``m = m + (g - m)(1 - beta1)``, ``v = v + (g^2 - v)(1 - beta2)``,
    ``lr_t = lr sqrt(1 - beta2^t) / (1 - beta1^t)`` and
    ``p = p - lr_t m / (sqrt(v) + eps)`` (nesterov: ``m`` replaced by
    ``beta1 m + (1 - beta1) g``; amsgrad: ``v`` by its running maximum). Weight decay adds
    ``wd * p`` to the gradient (not to 'beta'/'gamma' parameters unless grouped)."""

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-8, use_locking: bool = False,
                 use_nesterov: bool = False, weight_decay: float = 0.0, loss_scale: float = 1.0,
                 use_amsgrad: bool = False) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas(beta1, beta2, eps, "Adam")
        if use_nesterov and use_amsgrad:
            raise ValueError("For 'Adam', 'use_nesterov' and 'use_amsgrad' can not both be True.")
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.use_nesterov, self.use_amsgrad = bool(use_nesterov), bool(use_amsgrad)
        self.beta1_power = self._scalar("beta1_power", 1.0)
        self.beta2_power = self._scalar("beta2_power", 1.0)
        self.moment1 = self._state("moment1")
        self.moment2 = self._state("moment2")
        if self.use_amsgrad:
            self.vhat = self._state("vhat")

    def construct(self, gradients: Any) -> bool:
        grads = self._prepare(gradients)
        lrs = self._lrs()
        b1, b2 = self.beta1, self.beta2
        b1p, b2p = self._advance_powers()
        correction = F.div(F.sqrt(F.sub(1.0, b2p)), F.sub(1.0, b1p))
        lr_t: dict = {}  # bias-corrected rate per distinct learning rate
        for i, (p, g, lr) in enumerate(zip(self.parameters, grads, lrs)):
            if id(lr) not in lr_t:
                lr_t[id(lr)] = F.mul(lr, correction)
            m, v = self.moment1[i], self.moment2[i]
            m_new = F.add(F.mul(m, b1), F.mul(g, 1.0 - b1))
            v_new = F.add(F.mul(v, b2), F.mul(F.square(g), 1.0 - b2))
            m.set_data(m_new)
            v.set_data(v_new)
            if self.use_amsgrad:
                v_new = F.maximum(self.vhat[i], v_new)
                self.vhat[i].set_data(v_new)
            num = F.add(F.mul(m_new, b1), F.mul(g, 1.0 - b1)) if self.use_nesterov else m_new
            step = F.div(num, F.add(F.sqrt(v_new), self.eps))
            p.set_data(apply_gradient_descent(p, lr_t[id(lr)], step))
        return True


class AdamWeightDecay(Optimizer):
    """Adam with decoupled weight decay, without bias correction (as in MindSpore):
    ``m = beta1 m + (1 - beta1) g``, ``v = beta2 v + (1 - beta2) g^2``,
    ``u = m / (sqrt(v) + eps) + wd * p`` (the decay term skips 'beta'/'gamma' parameters
    unless grouped) and ``p = p - lr u``."""

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-6, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_betas(beta1, beta2, eps, "AdamWeightDecay")
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.moments1 = self._state("adam_m")
        self.moments2 = self._state("adam_v")

    def construct(self, gradients: Any) -> bool:
        grads = self._prepare(gradients, decay=False)
        lrs = self._lrs()
        b1, b2 = self.beta1, self.beta2
        for p, g, m, v, lr, wd in zip(self.parameters, grads, self.moments1, self.moments2,
                                      lrs, self._decays):
            m_new = F.add(F.mul(m, b1), F.mul(g, 1.0 - b1))
            v_new = F.add(F.mul(v, b2), F.mul(F.square(g), 1.0 - b2))
            m.set_data(m_new)
            v.set_data(v_new)
            update = F.div(m_new, F.add(F.sqrt(v_new), self.eps))
            if wd:
                update = F.add(update, F.mul(p, wd))
            p.set_data(apply_gradient_descent(p, lr, update))
        return True


__all__ = ["Adam", "AdamWeightDecay"]


class AdamOffload(Adam):
    """Adam whose update MindSpore computes on the host (``AdamNoUpdateParam`` on the CPU,
    then added to the parameter); mindgrad's parameters already live where NumPy / CuPy
    keeps them, so the update is ``nn.Adam``'s (without amsgrad) and the state has the
    same names (``beta1_power``, ``beta2_power``, ``moment1.*``, ``moment2.*``)."""

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-8, use_locking: bool = False,
                 use_nesterov: bool = False, weight_decay: float = 0.0,
                 loss_scale: float = 1.0) -> None:
        for name, v in (("use_locking", use_locking), ("use_nesterov", use_nesterov)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'AdamOffload', the type of '{name}' must be bool, but "
                                f"got {type(v).__name__}.")
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov,
                         weight_decay, loss_scale)

    def _scalar(self, name: str, value: float) -> Parameter:
        """MindSpore keeps this optimizer's powers as shape-(1,) Parameters (checkpoints)."""
        p = Parameter(Tensor(np.full(1, value, np.float32)), name=name, requires_grad=False)
        setattr(self, name, p)
        return p


__all__ += ["AdamOffload"]
