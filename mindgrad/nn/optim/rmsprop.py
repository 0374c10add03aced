"""``nn.RMSProp``."""
from __future__ import annotations

from typing import Any

from ...ops import functional as F
from .optimizer import Optimizer


class RMSProp(Optimizer):
    """RMSProp: ``s = decay s + (1 - decay) g^2`` (``s`` starts at 1, as in MindSpore),
    ``mom = momentum mom + lr g / sqrt(s + eps)`` and ``p = p - mom``. With ``centered``,
    ``gm = decay gm + (1 - decay) g`` and the denominator is ``sqrt(s - gm^2 + eps)``."""

    def __init__(self, params: Any, learning_rate: Any = 0.1, decay: float = 0.9,
                 momentum: float = 0.0, epsilon: float = 1e-10, use_locking: bool = False,
                 centered: bool = False, loss_scale: float = 1.0,
                 weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, v in (("decay", decay), ("momentum", momentum)):
            if isinstance(v, bool) or not isinstance(v, float) or v < 0:
                raise ValueError(f"For 'RMSProp', '{name}' must be a non-negative float, but "
                                 f"got {v!r}.")
        if isinstance(epsilon, bool) or not isinstance(epsilon, float) or epsilon <= 0:
            raise ValueError(f"For 'RMSProp', 'epsilon' must be a positive float, but got "
                             f"{epsilon!r}.")
        if not isinstance(centered, bool):
            raise TypeError("For 'RMSProp', 'centered' must be bool.")
        self.decay, self.momentum, self.epsilon = decay, momentum, epsilon
        self.centered = centered
        if centered:
            self.mg = self._state("mean_grad")
        self.ms = self._state("mean_square", "ones")
        self.moment = self._state("moment")

    def construct(self, gradients: Any) -> bool:
        grads = self._prepare(gradients)
        lrs = self._lrs()
        d = self.decay
        for i, (p, g, lr) in enumerate(zip(self.parameters, grads, lrs)):
            s_new = F.add(F.mul(self.ms[i], d), F.mul(F.square(g), 1.0 - d))
            self.ms[i].set_data(s_new)
            denom = s_new
            if self.centered:
                gm_new = F.add(F.mul(self.mg[i], d), F.mul(g, 1.0 - d))
                self.mg[i].set_data(gm_new)
                denom = F.sub(s_new, F.square(gm_new))
            step = F.div(F.mul(g, lr), F.sqrt(F.add(denom, self.epsilon)))
            mom = F.add(F.mul(self.moment[i], self.momentum), step)
            self.moment[i].set_data(mom)
            p.set_data(F.sub(p, mom))
        return True


__all__ = ["RMSProp"]
