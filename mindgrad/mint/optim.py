"""``mindspore.mint.optim``: PyTorch-style optimizers (``SGD``, ``Adam``, ``AdamW``,
``FusedAdamW``) over a list of Parameters (or group dicts), called with the gradients
(``optimizer(grads)``) like mindgrad's ``nn`` optimizers, whose bookkeeping they share."""
from __future__ import annotations

from typing import Any

from ..nn.optim import SGD as _NNSGD
from ..nn.optim.optimizer import Optimizer
from ..ops import functional as F

__all__ = ["SGD", "Adam", "AdamW", "FusedAdamW"]


def _betas(betas: Any, eps: float, who: str) -> tuple:
    if not (isinstance(betas, (tuple, list)) and len(betas) == 2
            and all(isinstance(b, (int, float)) and 0.0 <= b < 1.0 for b in betas)):
        raise ValueError(f"For '{who}', 'betas' must be two numbers in [0, 1), got {betas!r}")
    if not isinstance(eps, (int, float)) or eps < 0:
        raise ValueError(f"For '{who}', 'eps' must be a non-negative number, got {eps!r}")
    return float(betas[0]), float(betas[1])


class SGD(_NNSGD):
    """Stochastic gradient descent: ``g = grad + weight_decay * p``; with momentum
    ``v = g`` (first step), then ``v = momentum * v + (1 - dampening) * g``;
    ``g = g + momentum * v`` (nesterov) or ``v``; ``p = p - lr * g`` (``p + lr * g`` with
    ``maximize``)."""

    def __init__(self, params: Any, lr: Any, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *,
                 maximize: bool = False) -> None:
        super().__init__(params, lr, float(momentum), float(dampening), float(weight_decay),
                         nesterov)
        self.maximize = bool(maximize)

    def construct(self, gradients: Any) -> bool:
        grads = tuple(gradients)
        if self.maximize:
            grads = tuple(F.neg(g) for g in grads)
        return super().construct(grads)


class Adam(Optimizer):
    """Adam (PyTorch's form): ``g = grad + weight_decay * p``; ``m = b1 m + (1 - b1) g``;
    ``v = b2 v + (1 - b2) g^2``; ``p = p - lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t))
    + eps)`` (``v`` replaced by its running maximum with ``amsgrad``)."""

    _decoupled = False

    def __init__(self, params: Any, lr: Any = 0.001, betas: Any = (0.9, 0.999),
                 eps: float = 1e-08, weight_decay: float = 0.0, amsgrad: bool = False, *,
                 maximize: bool = False) -> None:
        super().__init__(lr, params, 0.0)
        who = type(self).__name__
        self.beta1, self.beta2 = _betas(betas, eps, who)
        self.eps = float(eps)
        self.wd = self._check_decay(weight_decay)
        self.amsgrad, self.maximize = bool(amsgrad), bool(maximize)
        self.beta1_power = self._scalar("beta1_power", 1.0)
        self.beta2_power = self._scalar("beta2_power", 1.0)
        self.exp_avg = self._state("exp_avg")
        self.exp_avg_sq = self._state("exp_avg_sq")
        if self.amsgrad:
            self.max_exp_avg_sq = self._state("max_exp_avg_sq")

    def construct(self, gradients: Any) -> bool:
        grads = self._check_grads(gradients)
        lrs = self._lrs()
        b1, b2 = self.beta1, self.beta2
        b1p, b2p = self._advance_powers()
        c1, c2 = F.sub(1.0, b1p), F.sub(1.0, b2p)
        for i, (p, g, lr) in enumerate(zip(self.parameters, grads, lrs)):
            if self.maximize:
                g = F.neg(g)
            w = p
            if self.wd:
                if self._decoupled:  # AdamW: shrink the parameter itself
                    w = F.mul(p, F.sub(1.0, F.mul(lr, self.wd)))
                else:
                    g = F.add(g, F.mul(p, self.wd))
            m, v = self.exp_avg[i], self.exp_avg_sq[i]
            m_new = F.add(F.mul(m, b1), F.mul(g, 1.0 - b1))
            v_new = F.add(F.mul(v, b2), F.mul(F.square(g), 1.0 - b2))
            m.set_data(m_new)
            v.set_data(v_new)
            if self.amsgrad:
                v_new = F.maximum(self.max_exp_avg_sq[i], v_new)
                self.max_exp_avg_sq[i].set_data(v_new)
            denom = F.add(F.sqrt(F.div(v_new, c2)), self.eps)
            step = F.div(F.div(m_new, c1), denom)
            p.set_data(F.cast(F.sub(w, F.mul(step, lr)), p.dtype))
        return True


class AdamW(Adam):
    """Adam with decoupled weight decay: ``p = p (1 - lr weight_decay)`` before the Adam
    step (``weight_decay`` 0.01 by default)."""

    _decoupled = True

    def __init__(self, params: Any, lr: Any = 0.001, betas: Any = (0.9, 0.999),
                 eps: float = 1e-08, weight_decay: float = 0.01, amsgrad: bool = False, *,
                 maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class FusedAdamW(AdamW):
    """``AdamW`` (MindSpore's fused kernel computes the same update)."""
