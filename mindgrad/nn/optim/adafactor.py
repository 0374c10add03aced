"""``nn.AdaFactor``: Adam-like steps whose second moment of a matrix is kept factored, as a
running mean of its rows and one of its columns (Shazeer and Stern, 2018), with MindSpore's
update and state names."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...common.initializer import initializer
from ...common.parameter import Parameter
from ...core.tensor import Tensor
from ...ops import functional as F
from .adagrad import check_bool, check_float
from .optimizer import Optimizer


def _rms(x: Tensor) -> Tensor:
    return F.sqrt(F.reduce_mean(F.square(x)))


class AdaFactor(Optimizer):
    """AdaFactor. At step ``t`` (from 1), ``beta2t = 1 - t^-decay_rate`` and, with
    ``u = g^2 + eps[0]``: for a parameter of rank >= 2 the row and column means of ``u``
    are averaged into ``exp_avg_sq_row_<name>`` and ``exp_avg_sq_col_<name>`` and the
    update is ``g / sqrt(row / mean(row) * col)``; for a vector ``u`` is averaged into
    ``exp_avg_sq_<name>`` and the update is ``g / sqrt(that)``. The update is divided by
    ``max(1, rms(update) / clip_threshold)`` and scaled by the rate: with
    ``relative_step`` ``min(1e-2, 1 / sqrt(t))`` (``warmup_init``: ``min(1e-6 t,
    1 / sqrt(t))``), else ``learning_rate``, times ``max(eps[1], rms(p))`` with
    ``scale_parameter``. With ``beta1`` the update is averaged into ``exp_avg.<name>``;
    weight decay subtracts ``weight_decay * rate * p``. Gradients are used as given (the
    loss scale is not removed, as in MindSpore)."""

    def __init__(self, params: Any, learning_rate: Any = None, eps: tuple = (1e-30, 1e-3),
                 clip_threshold: float = 1.0, decay_rate: float = 0.8, beta1: Any = 0.9,
                 weight_decay: float = 0.0, scale_parameter: bool = True,
                 relative_step: bool = True, warmup_init: bool = False,
                 compression: bool = False, loss_scale: float = 1.0) -> None:
        who = "AdaFactor"
        if learning_rate is not None and relative_step:
            raise ValueError(f"For '{who}', a manual 'learning_rate' cannot be combined with "
                             f"relative_step=True, but got learning_rate={learning_rate!r}.")
        if warmup_init and not relative_step:
            raise ValueError(f"For '{who}', warmup_init requires relative_step=True.")
        if learning_rate is None and not relative_step:
            raise ValueError(f"For '{who}', 'learning_rate' cannot be None with "
                             f"relative_step=False.")
        lr = 0.0 if learning_rate is None else learning_rate
        beta1 = 0.0 if beta1 is None else beta1
        # a rate schedule is used as it is (no relative step, no parameter scale)
        self_scale_lr = isinstance(lr, (int, float)) and not isinstance(lr, bool)
        super().__init__(lr, params, weight_decay, loss_scale)
        if not isinstance(eps, (list, tuple)) or len(eps) != 2:
            raise ValueError(f"For '{who}', 'eps' must have 2 values (eps1, eps2), but got "
                             f"{eps!r}.")
        self.eps = tuple(check_float(e, f"eps{i}", who) for i, e in enumerate(eps))
        self.clip_threshold = check_float(clip_threshold, "clip_threshold", who)
        self.decay_rate = check_float(decay_rate, "decay_rate", who, 0.0, 1.0, True, True)
        if not 0.0 <= weight_decay < 1.0:
            raise ValueError(f"For '{who}', 'weight_decay' must be in range [0, 1), but got "
                             f"{weight_decay}.")
        self.wd = float(weight_decay)
        self.scale_parameter = check_bool(scale_parameter, "scale_parameter", who)
        self.relative_step = check_bool(relative_step, "relative_step", who)
        self.compression = check_bool(compression, "compression", who)
        self.warmup_init = bool(warmup_init)
        if isinstance(beta1, bool) or not isinstance(beta1, (int, float)) or beta1 < 0:
            raise ValueError(f"For '{who}', 'beta1' must be a non-negative number or None, "
                             f"but got {beta1!r}.")
        self.beta1 = float(beta1)
        self.scale_lr = self_scale_lr
        if not self.scale_lr:
            self.scale_parameter = False
        self.use_first_moment = self.beta1 > 0
        if self.use_first_moment:
            self.exp_avg = self._state("exp_avg")
        else:  # one shared unused scalar, as MindSpore keeps (and checkpoints)
            unused = Parameter(Tensor(np.zeros((), np.float32)), name="exp_avg_unused",
                               requires_grad=False)
            self.insert_param_to_cell("exp_avg_unused", unused)
            self.exp_avg = (unused,) * len(self.parameters)
        # all rows, then all columns, then the unfactored moments (MindSpore's order)
        self.exp_avg_sq_row = self._moments("row", lambda s: s[:-1])
        self.exp_avg_sq_col = self._moments("col", lambda s: s[:-2] + s[-1:])
        self.exp_avg_sq = self._moments("", None)
        self.step = Parameter(Tensor(np.zeros(1, np.float32)), name="step",
                              requires_grad=False)

    def _moments(self, kind: str, factored_shape: Any) -> list:
        """A zero Parameter per parameter: of ``factored_shape(shape)`` for a matrix
        (``kind`` 'row' or 'col') or of the parameter's shape for a vector (``kind`` '');
        shape (1,) where unused."""
        out = []
        for p in self.parameters:
            shape = tuple(p.shape)
            if kind:
                s = factored_shape(shape) if len(shape) > 1 else (1,)
            else:
                s = (1,) if len(shape) > 1 else shape
            name = f"exp_avg_sq_{kind}_{p.name}" if kind else f"exp_avg_sq_{p.name}"
            q = Parameter(initializer(0, list(s), p.dtype), name=name, requires_grad=False)
            self.insert_param_to_cell(name, q)
            out.append(q)
        return out

    def construct(self, gradients: Any) -> bool:
        grads = self._check_grads(gradients)
        lrs = self._lrs()
        step = F.add(self.step, 1.0)
        self.step.set_data(step)
        t = F.reshape(step, ())
        if self.scale_lr and self.relative_step:
            low = F.mul(t, 1e-6) if self.warmup_init else 1e-2
            relative = F.minimum(low, F.rsqrt(t))
            lrs = [relative] * len(lrs)
        beta2t = F.sub(1.0, F.pow(t, -self.decay_rate))
        keep = F.sub(1.0, beta2t)
        eps1, eps2 = self.eps
        for i, (p, g, lr) in enumerate(zip(self.parameters, grads, lrs)):
            rate = F.reshape(lr, ())
            if self.scale_parameter:
                rate = F.mul(rate, F.maximum(_rms(p), eps2))
            u = F.add(F.square(g), eps1)
            if p.ndim > 1:
                row, col = self.exp_avg_sq_row[i], self.exp_avg_sq_col[i]
                row_new = F.add(F.mul(row, beta2t), F.mul(F.reduce_mean(u, -1), keep))
                col_new = F.add(F.mul(col, beta2t), F.mul(F.reduce_mean(u, -2), keep))
                row.set_data(row_new)
                col.set_data(col_new)
                r = F.rsqrt(F.div(row_new, F.reduce_mean(row_new, -1, True)))
                update = F.mul(F.mul(F.expand_dims(r, -1), F.rsqrt(F.expand_dims(col_new, -2))),
                               g)
            else:
                sq = self.exp_avg_sq[i]
                sq_new = F.add(F.mul(sq, beta2t), F.mul(u, keep))
                sq.set_data(sq_new)
                update = F.mul(F.rsqrt(sq_new), g)
            coef = F.maximum(F.div(_rms(update), self.clip_threshold), 1.0)
            update = F.mul(F.div(update, coef), rate)
            if self.use_first_moment:
                m = self.exp_avg[i]
                update = F.add(F.mul(m, self.beta1), F.mul(update, 1.0 - self.beta1))
                m.set_data(update)
            new = p
            if self.wd:
                new = F.add(new, F.mul(F.mul(p, -self.wd), rate))
            p.set_data(F.sub(new, update))
        return True


__all__ = ["AdaFactor"]
