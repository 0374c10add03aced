"""``nn.Lamb``: Adam moments with a layer-wise trust ratio (You et al., "Large Batch
Optimization for Deep Learning: Training BERT in 76 minutes")."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...ops import functional as F
from ...prims.optim import apply_gradient_descent
from .optimizer import Optimizer


def _check_open_unit(value: Any, name: str, who: str) -> None:
    """``value`` must be a float strictly between 0 and 1 (MindSpore accepts no int)."""
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError(f"For '{who}', the type of '{name}' must be float, but got "
                        f"{type(value).__name__}.")
    if not 0.0 < value < 1.0:
        raise ValueError(f"For '{who}', '{name}' must be in range (0.0, 1.0), but got {value}.")


def widened(x: Any) -> Any:
    """``x`` in float32 if it is float16 (a float16 sum of squares overflows past 65504;
    MindSpore's kernels compute these optimizers in float32 too), else ``x``."""
    return F.cast(x, mstype.float32) if x.dtype == mstype.float16 else x


def cast_to(x: Any, dtype: Any) -> Any:
    """``x`` as ``dtype`` (itself when it already is)."""
    return x if x.dtype == dtype else F.cast(x, dtype)


def l2_norm(x: Any) -> Any:
    """The Euclidean norm of all of ``x``'s elements, a scalar Tensor (float32 for a float16
    ``x``)."""
    return F.sqrt(F.reduce_sum(F.square(widened(x))))


class Lamb(Optimizer):
    """LAMB. Each step ``t`` (``global_step`` after this step's increment, so 1 at the first
    step) updates every parameter ``w`` with gradient ``g``:

    ``m = beta1 m + (1 - beta1) g``, ``v = beta2 v + (1 - beta2) g^2``,
    ``r = (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + eps)``,
    ``u = r + weight_decay * w`` (the decay term only for parameters that decay: without
    groups, those whose name has neither 'beta' nor 'gamma'),
    ``ratio = ||w|| / ||u||`` (1 when either norm is 0) and ``w = w - lr * ratio * u``.

    The state is MindSpore's, name for name: ``lamb_m.<name>`` and ``lamb_v.<name>`` (zeros)
    besides ``global_step``, whose value gives ``t``, so a checkpoint resumes the bias
    correction where it was. Float16 parameters keep float16 state; their step is computed
    in float32, as MindSpore's kernels do."""

    def __init__(self, params: Any, learning_rate: Any, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-6, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_open_unit(beta1, "beta1", "Lamb")
        _check_open_unit(beta2, "beta2", "Lamb")
        if isinstance(eps, bool) or not isinstance(eps, float):
            raise TypeError(f"For 'Lamb', the type of 'eps' must be float, but got "
                            f"{type(eps).__name__}.")
        if eps <= 0.0:
            raise ValueError(f"For 'Lamb', 'eps' must be a positive float, but got {eps}.")
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        # MindSpore keeps the hyper-parameters as float32 Tensors: the powers are float32
        self._b1 = Tensor(np.float32(beta1))
        self._b2 = Tensor(np.float32(beta2))
        self.params = self.parameters
        self.moments1 = self._state("lamb_m")
        self.moments2 = self._state("lamb_v")

    def construct(self, gradients: Any) -> bool:
        grads = self._prepare(gradients, decay=False)
        lrs = self._lrs()  # reads the rate at the old step, then advances global_step
        t = F.reshape(F.cast(self.global_step, mstype.float32), ())
        c1 = F.sub(1.0, F.pow(self._b1, t))
        c2 = F.sub(1.0, F.pow(self._b2, t))
        b1, b2 = self.beta1, self.beta2
        for p, g, m, v, lr, wd in zip(self.parameters, grads, self.moments1, self.moments2,
                                      lrs, self._decays):
            w, g = widened(p), widened(g)
            m_new = F.add(F.mul(widened(m), b1), F.mul(g, 1.0 - b1))
            v_new = F.add(F.mul(widened(v), b2), F.mul(F.square(g), 1.0 - b2))
            m.set_data(cast_to(m_new, m.dtype))
            v.set_data(cast_to(v_new, v.dtype))
            update = F.div(F.div(m_new, c1), F.add(F.sqrt(F.div(v_new, c2)), self.eps))
            if wd:
                update = F.add(update, F.mul(w, wd))
            w_norm, u_norm = l2_norm(w), l2_norm(update)
            # the trust ratio, 1 where either norm vanishes (a zero-initialised parameter
            # takes a plain Adam-like step; a zero update changes nothing either way)
            both = F.logical_and(F.greater(w_norm, 0.0), F.greater(u_norm, 0.0))
            ratio = F.select(both, F.div(w_norm, F.select(both, u_norm, F.ones_like(u_norm))),
                             F.ones_like(w_norm))
            p.set_data(cast_to(apply_gradient_descent(w, F.mul(lr, ratio), update), p.dtype))
        return True


__all__ = ["Lamb"]
