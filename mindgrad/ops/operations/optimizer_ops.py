"""MindSpore's optimizer-update operator classes (``ApplyMomentum``, ``ApplyAdagrad``, ...,
``Adam``, ``SGD``, ``SparseApplyAdagrad``, ...): one call is one step of the update rule, and,
as in MindSpore, it writes the new values into the Parameters it is given (``var`` and the
optimizer's slots) and returns them.

Every new value is computed before any Parameter is written, so a refused call (shapes that
do not match, a wrong type) leaves every Parameter unchanged. The updates are not
differentiable in MindSpore either; the returned values carry no gradient.

The rules are MindSpore 2.10's (its CPU kernels), in the order of its arguments; where
MindSpore's CPU kernel returns values other than the updated Parameters (``ApplyRMSProp``,
``ApplyCenteredRMSProp``, ``Adam``, ``AdamWeightDecay``), the documented outputs are
returned: the updated Parameters."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ...core.tensor import Tensor
from .. import families
from .. import functional as F
from .. import scatter_functions as SF
from ..primitive import Primitive


def _state(op: str, names: Sequence[str], values: Sequence[Any]) -> list:
    """The tensors ``values`` (the variable, its slots and the gradient): all Tensors of
    the first one's shape and a floating dtype."""
    out = []
    for name, v in zip(names, values):
        if not isinstance(v, Tensor):
            raise TypeError(f"For '{op}', '{name}' must be a Parameter or Tensor, but got "
                            f"{type(v).__name__}.")
        out.append(v)
    first = out[0]
    if not first.dtype.is_floating:
        raise TypeError(f"For '{op}', '{names[0]}' must have a floating dtype, but got "
                        f"{first.dtype}.")
    for name, v in zip(names[1:], out[1:]):
        if tuple(v.shape) != tuple(first.shape):
            raise ValueError(f"For '{op}', the shape of '{name}' must be the shape of "
                             f"'{names[0]}' {list(first.shape)}, but got {list(v.shape)}.")
        if v.dtype != first.dtype:
            raise TypeError(f"For '{op}', '{name}' must have the dtype of '{names[0]}' "
                            f"({first.dtype}), but got {v.dtype}.")
    return out


def _scalar(op: str, name: str, v: Any, like: Tensor) -> Any:
    """A hyper-parameter: a number, or a Tensor of one element (cast to ``like``'s dtype)."""
    if isinstance(v, bool):
        raise TypeError(f"For '{op}', '{name}' must be a number or a Tensor, but got bool.")
    if isinstance(v, (int, float, np.floating, np.integer)):
        return float(v)
    if isinstance(v, Tensor):
        if v.size != 1:
            raise ValueError(f"For '{op}', '{name}' must have one element, but got shape "
                             f"{list(v.shape)}.")
        return F.cast(F.reshape(v, ()), like.dtype)
    raise TypeError(f"For '{op}', '{name}' must be a number or a Tensor, but got "
                    f"{type(v).__name__}.")


def _commit(pairs: Sequence[tuple]) -> tuple:
    """Write every new value into its Parameter (after all are computed); the new values."""
    news = tuple(F.stop_gradient(new) for _, new in pairs)
    for (param, _), new in zip(pairs, news):
        SF.assign(param, new)
    return news


def _sub(a: Any, b: Any) -> Any:
    return F.sub(a, b)


class _Update(Primitive):
    """An optimizer update with a ``use_locking`` flag (unused: calls run one at a time)."""

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = F._flag(use_locking, type(self).__name__, "use_locking")


class ApplyMomentum(Primitive):
    """``ApplyMomentum(use_nesterov=False, use_locking=False, gradient_scale=1.0)(variable,
    accumulation, learning_rate, gradient, momentum)``: with ``g = gradient_scale *
    gradient``, ``accumulation = momentum * accumulation + g``, then ``variable -= lr *
    accumulation`` (Nesterov: ``variable -= lr * (g + momentum * accumulation)``). Returns
    the new ``variable``. (MindSpore's CPU kernel ignores ``use_nesterov`` and
    ``gradient_scale``; this follows their documented meaning.)"""

    def __init__(self, use_nesterov: bool = False, use_locking: bool = False,
                 gradient_scale: float = 1.0) -> None:
        super().__init__()
        self.use_nesterov = F._flag(use_nesterov, "ApplyMomentum", "use_nesterov")
        self.use_locking = F._flag(use_locking, "ApplyMomentum", "use_locking")
        if isinstance(gradient_scale, bool) or not isinstance(gradient_scale, (int, float)):
            raise TypeError(f"For 'ApplyMomentum', 'gradient_scale' must be a float, but got "
                            f"{type(gradient_scale).__name__}.")
        self.gradient_scale = float(gradient_scale)

    def __call__(self, variable: Any, accumulation: Any, learning_rate: Any, gradient: Any,
                 momentum: Any) -> Tensor:
        op = "ApplyMomentum"
        var, acc, g = _state(op, ("variable", "accumulation", "gradient"),
                             (variable, accumulation, gradient))
        lr = _scalar(op, "learning_rate", learning_rate, var)
        mom = _scalar(op, "momentum", momentum, var)
        if self.gradient_scale != 1.0:
            g = F.mul(g, self.gradient_scale)
        acc_new = F.add(F.mul(acc, mom), g)
        if self.use_nesterov:
            step = F.add(F.mul(g, lr), F.mul(F.mul(acc_new, mom), lr))
        else:
            step = F.mul(acc_new, lr)
        return _commit(((variable, _sub(var, step)), (accumulation, acc_new)))[0]


class ApplyAdagrad(Primitive):
    """``ApplyAdagrad(update_slots=True)(var, accum, lr, grad)``: ``accum += grad ** 2``
    (with ``update_slots``; MindSpore's CPU kernel updates it always),
    ``var -= lr * grad / sqrt(accum)``. Returns ``(var, accum)``."""

    _eps: Any = None

    def __init__(self, update_slots: bool = True) -> None:
        super().__init__()
        self.update_slots = F._flag(update_slots, type(self).__name__, "update_slots")

    def __call__(self, var: Any, accum: Any, lr: Any, grad: Any) -> tuple:
        op = type(self).__name__
        v, a, g = _state(op, ("var", "accum", "grad"), (var, accum, grad))
        lr = _scalar(op, "lr", lr, v)
        a_new = F.add(a, F.square(g)) if self.update_slots else a
        den = F.sqrt(a_new) if self._eps is None else F.add(F.sqrt(a_new), self._eps)
        return _commit(((var, _sub(v, F.div(F.mul(g, lr), den))), (accum, a_new)))


class ApplyAdagradV2(ApplyAdagrad):
    """``ApplyAdagradV2(epsilon, update_slots=True)(var, accum, lr, grad)``: as
    ``ApplyAdagrad`` with ``var -= lr * grad / (sqrt(accum) + epsilon)``."""

    def __init__(self, epsilon: float, update_slots: bool = True) -> None:
        super().__init__(update_slots)
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)):
            raise TypeError(f"For 'ApplyAdagradV2', 'epsilon' must be a float, but got "
                            f"{type(epsilon).__name__}.")
        self.epsilon = self._eps = float(epsilon)


class ApplyAdadelta(Primitive):
    """``ApplyAdadelta()(var, accum, accum_update, lr, rho, epsilon, grad)``:
    ``accum = rho * accum + (1 - rho) * grad ** 2``, ``update = sqrt(accum_update + eps) /
    sqrt(accum + eps) * grad``, ``accum_update = rho * accum_update + (1 - rho) *
    update ** 2``, ``var -= lr * update``. Returns ``(var, accum, accum_update)``."""

    def __call__(self, var: Any, accum: Any, accum_update: Any, lr: Any, rho: Any,
                 epsilon: Any, grad: Any) -> tuple:
        op = "ApplyAdadelta"
        v, a, u, g = _state(op, ("var", "accum", "accum_update", "grad"),
                            (var, accum, accum_update, grad))
        lr, rho, eps = (_scalar(op, n, x, v) for n, x in
                        (("lr", lr), ("rho", rho), ("epsilon", epsilon)))
        a_new = F.add(F.mul(a, rho), F.mul(F.square(g), F.sub(1.0, rho)))
        upd = F.mul(F.div(F.sqrt(F.add(u, eps)), F.sqrt(F.add(a_new, eps))), g)
        u_new = F.add(F.mul(u, rho), F.mul(F.square(upd), F.sub(1.0, rho)))
        return _commit(((var, _sub(v, F.mul(upd, lr))), (accum, a_new),
                        (accum_update, u_new)))


class ApplyAdaMax(Primitive):
    """``ApplyAdaMax()(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad)``:
    ``m = beta1 * m + (1 - beta1) * grad``, ``v = max(beta2 * v, |grad|)``,
    ``var -= lr / (1 - beta1_power) * m / (v + epsilon)``. Returns ``(var, m, v)``."""

    def __call__(self, var: Any, m: Any, v: Any, beta1_power: Any, lr: Any, beta1: Any,
                 beta2: Any, epsilon: Any, grad: Any) -> tuple:
        op = "ApplyAdaMax"
        x, m_, v_, g = _state(op, ("var", "m", "v", "grad"), (var, m, v, grad))
        b1p, lr, b1, b2, eps = (_scalar(op, n, s, x) for n, s in (
            ("beta1_power", beta1_power), ("lr", lr), ("beta1", beta1), ("beta2", beta2),
            ("epsilon", epsilon)))
        m_new = F.add(F.mul(m_, b1), F.mul(g, F.sub(1.0, b1)))
        v_new = F.maximum(F.mul(v_, b2), F.abs(g))
        step = F.mul(F.div(lr, F.sub(1.0, b1p)), F.div(m_new, F.add(v_new, eps)))
        return _commit(((var, _sub(x, step)), (m, m_new), (v, v_new)))


class ApplyRMSProp(_Update):
    """``ApplyRMSProp()(var, mean_square, moment, learning_rate, grad, decay, momentum,
    epsilon)``: ``mean_square = decay * mean_square + (1 - decay) * grad ** 2``,
    ``moment = momentum * moment + lr * grad / sqrt(mean_square + epsilon)``,
    ``var -= moment``. Returns the new ``var``."""

    def __call__(self, var: Any, mean_square: Any, moment: Any, learning_rate: Any, grad: Any,
                 decay: Any, momentum: Any, epsilon: Any) -> Tensor:
        op = "ApplyRMSProp"
        x, ms_, mom, g = _state(op, ("var", "mean_square", "moment", "grad"),
                                (var, mean_square, moment, grad))
        lr, dec, mo, eps = (_scalar(op, n, s, x) for n, s in (
            ("learning_rate", learning_rate), ("decay", decay), ("momentum", momentum),
            ("epsilon", epsilon)))
        ms_new = F.add(F.mul(ms_, dec), F.mul(F.square(g), F.sub(1.0, dec)))
        mom_new = F.add(F.mul(mom, mo), F.div(F.mul(g, lr), F.sqrt(F.add(ms_new, eps))))
        return _commit(((var, _sub(x, mom_new)), (mean_square, ms_new), (moment, mom_new)))[0]


class ApplyCenteredRMSProp(_Update):
    """``ApplyCenteredRMSProp()(var, mean_gradient, mean_square, moment, grad,
    learning_rate, decay, momentum, epsilon)``: RMSProp with the variance
    ``mean_square - mean_gradient ** 2`` in place of ``mean_square``. Returns the new
    ``var``."""

    def __call__(self, var: Any, mean_gradient: Any, mean_square: Any, moment: Any, grad: Any,
                 learning_rate: Any, decay: Any, momentum: Any, epsilon: Any) -> Tensor:
        op = "ApplyCenteredRMSProp"
        x, mg, ms_, mom, g = _state(op, ("var", "mean_gradient", "mean_square", "moment",
                                         "grad"), (var, mean_gradient, mean_square, moment,
                                                   grad))
        lr, dec, mo, eps = (_scalar(op, n, s, x) for n, s in (
            ("learning_rate", learning_rate), ("decay", decay), ("momentum", momentum),
            ("epsilon", epsilon)))
        mg_new = F.add(F.mul(mg, dec), F.mul(g, F.sub(1.0, dec)))
        ms_new = F.add(F.mul(ms_, dec), F.mul(F.square(g), F.sub(1.0, dec)))
        den = F.sqrt(F.add(F.sub(ms_new, F.square(mg_new)), eps))
        mom_new = F.add(F.mul(mom, mo), F.div(F.mul(g, lr), den))
        return _commit(((var, _sub(x, mom_new)), (mean_gradient, mg_new),
                        (mean_square, ms_new), (moment, mom_new)))[0]


def _ftrl(v: Tensor, a: Tensor, lin: Tensor, g: Tensor, lr: Any, l1: Any, l2: Any,
          lr_power: Any, l2_shrinkage: Any = 0.0) -> tuple:
    """One FTRL-proximal step: the new ``(var, accum, linear)``."""
    a_new = F.add(a, F.square(g))
    p_new, p_old = F.pow(a_new, F.neg(lr_power)), F.pow(a, F.neg(lr_power))
    g_shr = F.add(g, F.mul(F.mul(v, l2_shrinkage), 2.0)) if l2_shrinkage else g
    lin_new = F.sub(F.add(lin, g_shr), F.mul(F.div(F.sub(p_new, p_old), lr), v))
    quad = F.add(F.div(p_new, lr), F.mul(l2, 2.0))
    shrunk = F.sub(F.mul(F.sign(lin_new), l1), lin_new)
    v_new = F.select(F.greater(F.abs(lin_new), l1), F.div(shrunk, quad), F.zeros_like(v))
    return v_new, a_new, lin_new


class ApplyFtrl(_Update):
    """``ApplyFtrl()(var, accum, linear, grad, lr, l1, l2, lr_power)``: one FTRL-proximal
    step (``accum += grad ** 2``; ``linear += grad - (accum_new ** -lr_power - accum **
    -lr_power) / lr * var``; ``var = (sign(linear) * l1 - linear) / (accum_new **
    -lr_power / lr + 2 * l2)`` where ``|linear| > l1``, else 0). Returns the new ``var``.
    (MindSpore's CPU kernel of this class adds ``l1`` with the wrong sign; this is the
    documented rule, which its ``SparseApplyFtrl`` kernel follows.)"""

    def __call__(self, var: Any, accum: Any, linear: Any, grad: Any, lr: Any, l1: Any,
                 l2: Any, lr_power: Any) -> Tensor:
        op = "ApplyFtrl"
        v, a, lin, g = _state(op, ("var", "accum", "linear", "grad"), (var, accum, linear, grad))
        lr, l1, l2, lp = (_scalar(op, n, s, v) for n, s in (
            ("lr", lr), ("l1", l1), ("l2", l2), ("lr_power", lr_power)))
        v_new, a_new, lin_new = _ftrl(v, a, lin, g, lr, l1, l2, lp)
        return _commit(((var, v_new), (accum, a_new), (linear, lin_new)))[0]


class ApplyGradientDescent(Primitive):
    """``ApplyGradientDescent()(var, alpha, delta)``: ``var -= alpha * delta``; returns the
    new ``var``."""

    def __call__(self, var: Any, alpha: Any, delta: Any) -> Tensor:
        op = "ApplyGradientDescent"
        v, d = _state(op, ("var", "delta"), (var, delta))
        return _commit(((var, _sub(v, F.mul(d, _scalar(op, "alpha", alpha, v)))),))[0]


def _proximal(prox: Tensor, rate: Any, l1: Any, l2: Any) -> Tensor:
    """``sign(prox) * max(|prox| - rate * l1, 0) / (1 + rate * l2)``."""
    shrunk = F.maximum(F.sub(F.abs(prox), F.mul(rate, l1)), 0.0)
    return F.div(F.mul(F.sign(prox), shrunk), F.add(F.mul(rate, l2), 1.0))


class ApplyProximalAdagrad(_Update):
    """``ApplyProximalAdagrad()(var, accum, lr, l1, l2, grad)``: ``accum += grad ** 2``;
    with the rate ``r = lr / sqrt(accum)``, ``prox = var - r * grad`` and
    ``var = sign(prox) * max(|prox| - r * l1, 0) / (1 + r * l2)``. Returns
    ``(var, accum)``."""

    def __call__(self, var: Any, accum: Any, lr: Any, l1: Any, l2: Any, grad: Any) -> tuple:
        op = "ApplyProximalAdagrad"
        v, a, g = _state(op, ("var", "accum", "grad"), (var, accum, grad))
        lr, l1, l2 = (_scalar(op, n, s, v) for n, s in (("lr", lr), ("l1", l1), ("l2", l2)))
        a_new = F.add(a, F.square(g))
        rate = F.div(lr, F.sqrt(a_new))
        v_new = _proximal(F.sub(v, F.mul(rate, g)), rate, l1, l2)
        return _commit(((var, v_new), (accum, a_new)))


class ApplyProximalGradientDescent(Primitive):
    """``ApplyProximalGradientDescent()(var, alpha, l1, l2, delta)``: with
    ``prox = var - alpha * delta``, ``var = sign(prox) * max(|prox| - alpha * l1, 0) /
    (1 + alpha * l2)``. Returns the new ``var``."""

    def __call__(self, var: Any, alpha: Any, l1: Any, l2: Any, delta: Any) -> Tensor:
        op = "ApplyProximalGradientDescent"
        v, d = _state(op, ("var", "delta"), (var, delta))
        alpha, l1, l2 = (_scalar(op, n, s, v) for n, s in
                         (("alpha", alpha), ("l1", l1), ("l2", l2)))
        return _commit(((var, _proximal(F.sub(v, F.mul(d, alpha)), alpha, l1, l2)),))[0]


class ApplyAddSign(Primitive):
    """``ApplyAddSign()(var, m, lr, alpha, sign_decay, beta, grad)``:
    ``m = beta * m + (1 - beta) * grad``, ``var -= lr * (alpha + sign_decay * sign(grad) *
    sign(m)) * grad``. Returns ``(var, m)``."""

    def _factor(self, alpha: Any, s: Tensor) -> Tensor:
        return F.add(s, alpha)

    def __call__(self, var: Any, m: Any, lr: Any, alpha: Any, sign_decay: Any, beta: Any,
                 grad: Any) -> tuple:
        op = type(self).__name__
        v, m_, g = _state(op, ("var", "m", "grad"), (var, m, grad))
        first = "logbase" if op == "ApplyPowerSign" else "alpha"
        lr, alpha, sd, beta = (_scalar(op, n, s, v) for n, s in (
            ("lr", lr), (first, alpha), ("sign_decay", sign_decay), ("beta", beta)))
        m_new = F.add(F.mul(m_, beta), F.mul(g, F.sub(1.0, beta)))
        s = F.mul(F.mul(F.sign(g), F.sign(m_new)), sd)
        step = F.mul(F.mul(self._factor(alpha, s), g), lr)
        return _commit(((var, _sub(v, step)), (m, m_new)))


class ApplyPowerSign(ApplyAddSign):
    """``ApplyPowerSign()(var, m, lr, logbase, sign_decay, beta, grad)``: as
    ``ApplyAddSign`` with the factor ``exp(logbase * sign_decay * sign(grad) * sign(m))``.
    Returns ``(var, m)``."""

    def _factor(self, alpha: Any, s: Tensor) -> Tensor:
        return F.exp(F.mul(s, alpha))


def _amsgrad(x: Tensor, m_: Tensor, v_: Tensor, vh: Tensor, b1p: Any, b2p: Any, lr: Any,
             b1: Any, b2: Any, eps: Any, g: Tensor) -> tuple:
    m_new = F.add(F.mul(m_, b1), F.mul(g, F.sub(1.0, b1)))
    v_new = F.add(F.mul(v_, b2), F.mul(F.square(g), F.sub(1.0, b2)))
    vh_new = F.maximum(vh, v_new)
    rate = F.div(F.mul(lr, F.sqrt(F.sub(1.0, b2p))), F.sub(1.0, b1p))
    step = F.div(F.mul(m_new, rate), F.add(F.sqrt(vh_new), eps))
    return F.sub(x, step), m_new, v_new, vh_new


class ApplyAdamWithAmsgrad(_Update):
    """``ApplyAdamWithAmsgrad(beta1=0.9, beta2=0.999, epsilon=1e-8)(var, m, v, vhat,
    beta1_power, beta2_power, lr, grad)``: Adam whose denominator uses the running maximum
    ``vhat`` of ``v``. Returns ``(var, m, v, vhat)``."""

    def __init__(self, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 use_locking: bool = False) -> None:
        super().__init__(use_locking)
        for name, val in (("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)):
            if isinstance(val, bool) or not isinstance(val, (int, float)):
                raise TypeError(f"For 'ApplyAdamWithAmsgrad', '{name}' must be a float, but "
                                f"got {type(val).__name__}.")
        self.beta1, self.beta2, self.epsilon = float(beta1), float(beta2), float(epsilon)

    def __call__(self, var: Any, m: Any, v: Any, vhat: Any, beta1_power: Any,
                 beta2_power: Any, lr: Any, grad: Any) -> tuple:
        op = "ApplyAdamWithAmsgrad"
        x, m_, v_, vh, g = _state(op, ("var", "m", "v", "vhat", "grad"), (var, m, v, vhat, grad))
        b1p, b2p, lr = (_scalar(op, n, s, x) for n, s in (
            ("beta1_power", beta1_power), ("beta2_power", beta2_power), ("lr", lr)))
        new = _amsgrad(x, m_, v_, vh, b1p, b2p, lr, self.beta1, self.beta2, self.epsilon, g)
        return _commit(tuple(zip((var, m, v, vhat), new)))


class ApplyAdamWithAmsgradV2(_Update):
    """``ApplyAdamWithAmsgradV2()(var, m, v, vhat, beta1_power, beta2_power, lr, beta1,
    beta2, epsilon, grad)``: ``ApplyAdamWithAmsgrad`` with the betas and epsilon as inputs.
    Returns ``(var, m, v, vhat)``."""

    def __call__(self, var: Any, m: Any, v: Any, vhat: Any, beta1_power: Any,
                 beta2_power: Any, lr: Any, beta1: Any, beta2: Any, epsilon: Any,
                 grad: Any) -> tuple:
        op = "ApplyAdamWithAmsgradV2"
        x, m_, v_, vh, g = _state(op, ("var", "m", "v", "vhat", "grad"), (var, m, v, vhat, grad))
        b1p, b2p, lr, b1, b2, eps = (_scalar(op, n, s, x) for n, s in (
            ("beta1_power", beta1_power), ("beta2_power", beta2_power), ("lr", lr),
            ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)))
        new = _amsgrad(x, m_, v_, vh, b1p, b2p, lr, b1, b2, eps, g)
        return _commit(tuple(zip((var, m, v, vhat), new)))


class ApplyAdagradDA(_Update):
    """``ApplyAdagradDA()(var, gradient_accumulator, gradient_squared_accumulator, grad, lr,
    l1, l2, global_step)``: the accumulators add ``grad`` and ``grad ** 2``, then
    ``var = -lr * sign(acc) * max(|acc| - l1 * step, 0) / (l2 * step * lr + sqrt(acc2))``.
    Returns the new ``var``. (MindSpore's CPU kernel subtracts ``l1 * step`` also from
    negative accumulators, growing them; this is the documented rule.)"""

    def __call__(self, var: Any, gradient_accumulator: Any, gradient_squared_accumulator: Any,
                 grad: Any, lr: Any, l1: Any, l2: Any, global_step: Any) -> Tensor:
        op = "ApplyAdagradDA"
        v, ga, gs, g = _state(op, ("var", "gradient_accumulator",
                                   "gradient_squared_accumulator", "grad"),
                              (var, gradient_accumulator, gradient_squared_accumulator, grad))
        lr, l1, l2, step = (_scalar(op, n, s, v) for n, s in (
            ("lr", lr), ("l1", l1), ("l2", l2), ("global_step", global_step)))
        ga_new, gs_new = F.add(ga, g), F.add(gs, F.square(g))
        shrunk = F.mul(F.sign(ga_new), F.maximum(F.sub(F.abs(ga_new), F.mul(l1, step)), 0.0))
        den = F.add(F.mul(F.mul(l2, step), lr), F.sqrt(gs_new))
        v_new = F.div(F.mul(F.neg(shrunk), lr), den)
        return _commit(((var, v_new), (gradient_accumulator, ga_new),
                        (gradient_squared_accumulator, gs_new)))[0]


def _adam_moments(m_: Tensor, v_: Tensor, g: Tensor, b1: Any, b2: Any) -> tuple:
    return (F.add(F.mul(m_, b1), F.mul(g, F.sub(1.0, b1))),
            F.add(F.mul(v_, b2), F.mul(F.square(g), F.sub(1.0, b2))))


class Adam(Primitive):
    """``Adam(use_locking=False, use_nesterov=False)(var, m, v, beta1_power, beta2_power,
    lr, beta1, beta2, epsilon, gradient)``: the moments move towards ``gradient`` and
    ``gradient ** 2``; ``var -= lr * sqrt(1 - beta2_power) / (1 - beta1_power) * m /
    (sqrt(v) + epsilon)`` (Nesterov: ``beta1 * m + (1 - beta1) * gradient`` in place of
    ``m``). Returns ``(var, m, v)``."""

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__()
        self.use_locking = F._flag(use_locking, type(self).__name__, "use_locking")
        self.use_nesterov = F._flag(use_nesterov, type(self).__name__, "use_nesterov")

    def _step(self, op: str, x: Tensor, m_: Tensor, v_: Tensor, beta1_power: Any,
              beta2_power: Any, lr: Any, beta1: Any, beta2: Any, epsilon: Any,
              g: Tensor) -> tuple:
        b1p, b2p, lr, b1, b2, eps = (_scalar(op, n, s, x) for n, s in (
            ("beta1_power", beta1_power), ("beta2_power", beta2_power), ("lr", lr),
            ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)))
        m_new, v_new = _adam_moments(m_, v_, g, b1, b2)
        rate = F.div(F.mul(lr, F.sqrt(F.sub(1.0, b2p))), F.sub(1.0, b1p))
        num = F.add(F.mul(m_new, b1), F.mul(g, F.sub(1.0, b1))) if self.use_nesterov else m_new
        return F.div(F.mul(num, rate), F.add(F.sqrt(v_new), eps)), m_new, v_new

    def __call__(self, var: Any, m: Any, v: Any, beta1_power: Any, beta2_power: Any, lr: Any,
                 beta1: Any, beta2: Any, epsilon: Any, gradient: Any) -> tuple:
        op = "Adam"
        x, m_, v_, g = _state(op, ("var", "m", "v", "gradient"), (var, m, v, gradient))
        step, m_new, v_new = self._step(op, x, m_, v_, beta1_power, beta2_power, lr, beta1,
                                        beta2, epsilon, g)
        return _commit(((var, F.sub(x, step)), (m, m_new), (v, v_new)))


class AdamNoUpdateParam(Adam):
    """``AdamNoUpdateParam()(m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
    gradient)``: ``Adam``'s moment updates (in place) and the change ``Adam`` would add to
    the variable, returned rather than applied."""

    def __call__(self, m: Any, v: Any, beta1_power: Any, beta2_power: Any, lr: Any,
                 beta1: Any, beta2: Any, epsilon: Any, gradient: Any) -> Tensor:
        op = "AdamNoUpdateParam"
        m_, v_, g = _state(op, ("m", "v", "gradient"), (m, v, gradient))
        step, m_new, v_new = self._step(op, m_, m_, v_, beta1_power, beta2_power, lr, beta1,
                                        beta2, epsilon, g)
        _commit(((m, m_new), (v, v_new)))
        return F.neg(F.stop_gradient(step))


class AdamWeightDecay(_Update):
    """``AdamWeightDecay()(var, m, v, lr, beta1, beta2, epsilon, decay, gradient)``: the Adam
    moments without bias correction, ``var -= lr * (m / (sqrt(v) + epsilon) + decay *
    var)``. Returns ``(var, m, v)``."""

    def __call__(self, var: Any, m: Any, v: Any, lr: Any, beta1: Any, beta2: Any,
                 epsilon: Any, decay: Any, gradient: Any) -> tuple:
        op = "AdamWeightDecay"
        x, m_, v_, g = _state(op, ("var", "m", "v", "gradient"), (var, m, v, gradient))
        lr, b1, b2, eps, dec = (_scalar(op, n, s, x) for n, s in (
            ("lr", lr), ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon),
            ("decay", decay)))
        m_new, v_new = _adam_moments(m_, v_, g, b1, b2)
        upd = F.add(F.div(m_new, F.add(F.sqrt(v_new), eps)), F.mul(x, dec))
        return _commit(((var, F.sub(x, F.mul(upd, lr))), (m, m_new), (v, v_new)))


class SGD(Primitive):
    """``SGD(dampening=0.0, weight_decay=0.0, nesterov=False)(parameters, gradient,
    learning_rate, accum, momentum, stat)``: with ``g = gradient + weight_decay *
    parameters``, ``accum = g`` where ``stat`` is positive (the first step, which then sets
    ``stat`` to 0) and ``momentum * accum + (1 - dampening) * g`` elsewhere;
    ``parameters -= lr * accum`` (Nesterov: ``lr * (g + momentum * accum)``). Returns the
    new ``parameters``."""

    def __init__(self, dampening: float = 0.0, weight_decay: float = 0.0,
                 nesterov: bool = False) -> None:
        super().__init__()
        for name, val in (("dampening", dampening), ("weight_decay", weight_decay)):
            if isinstance(val, bool) or not isinstance(val, (int, float)):
                raise TypeError(f"For 'SGD', '{name}' must be a float, but got "
                                f"{type(val).__name__}.")
        self.nesterov = F._flag(nesterov, "SGD", "nesterov")
        if self.nesterov and dampening != 0:
            raise ValueError(f"For 'SGD', 'dampening' must be 0 when 'nesterov' is True, but "
                             f"got {dampening}.")
        self.dampening, self.weight_decay = float(dampening), float(weight_decay)

    def __call__(self, parameters: Any, gradient: Any, learning_rate: Any, accum: Any,
                 momentum: Any, stat: Any) -> Tensor:
        op = "SGD"
        p, g, a, st = _state(op, ("parameters", "gradient", "accum", "stat"),
                             (parameters, gradient, accum, stat))
        lr, mo = _scalar(op, "learning_rate", learning_rate, p), _scalar(op, "momentum",
                                                                         momentum, p)
        if self.weight_decay:
            g = F.add(g, F.mul(p, self.weight_decay))
        later = F.add(F.mul(a, mo), F.mul(g, 1.0 - self.dampening))
        a_new = F.select(F.greater(st, 0.0), g, later)
        step = F.add(g, F.mul(a_new, mo)) if self.nesterov else a_new
        return _commit(((parameters, F.sub(p, F.mul(step, lr))), (accum, a_new),
                        (stat, F.zeros_like(st))))[0]


# --- the row-sparse updates: only the rows named by ``indices`` change ------------------------
def _rows(op: str, var: Tensor, grad: Tensor, indices: Any) -> tuple:
    """The distinct rows ``u`` named by ``indices`` and the gradient rows summed per row
    (MindSpore adds the gradients of repeated indices before the update)."""
    idx = F._tensor(indices, op, "indices")
    if idx.dtype.is_floating or idx.ndim != 1:
        raise TypeError(f"For '{op}', 'indices' must be a 1-D integer Tensor, but got "
                        f"{idx.dtype} of shape {list(idx.shape)}.")
    want = (idx.shape[0],) + tuple(var.shape[1:])
    if var.ndim < 1 or tuple(grad.shape) != want:
        raise ValueError(f"For '{op}', 'grad' must have the shape {list(want)} (one row per "
                         f"index, rows of 'var' {list(var.shape)}), but got "
                         f"{list(grad.shape)}.")
    raw = np.asarray(idx.asnumpy()).astype(np.int64)
    if raw.size and (raw.min() < 0 or raw.max() >= var.shape[0]):
        raise ValueError(f"For '{op}', 'indices' must be in [0, {var.shape[0]}), but got "
                         f"{raw.tolist()}.")
    u, inv = np.unique(raw, return_inverse=True)
    if len(u) != len(raw):
        summed = families.function("unsorted_segment_sum")(grad, Tensor(inv.astype(np.int32)),
                                                            len(u))
    else:
        summed = F.gather(grad, Tensor(np.argsort(raw, kind="stable")), 0)
    return Tensor(u.astype(np.int32)), summed


def _put(var: Tensor, u: Tensor, rows: Tensor) -> Tensor:
    return F.tensor_scatter_update(var, F.reshape(u, (-1, 1)), rows)


def _sparse_state(op: str, names: Sequence[str], values: Sequence[Any], grad: Any) -> list:
    state = _state(op, names, values)
    if not isinstance(grad, Tensor):
        raise TypeError(f"For '{op}', 'grad' must be a Tensor, but got {type(grad).__name__}.")
    if grad.dtype != state[0].dtype:
        raise TypeError(f"For '{op}', 'grad' must have the dtype of '{names[0]}' "
                        f"({state[0].dtype}), but got {grad.dtype}.")
    return state


def _float_attr(op: str, name: str, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"For '{op}', '{name}' must be a float, but got {type(v).__name__}.")
    return float(v)


class SparseApplyAdagrad(Primitive):
    """``SparseApplyAdagrad(lr, update_slots=True, use_locking=False)(var, accum, grad,
    indices)``: ``ApplyAdagrad`` on the rows ``indices`` of ``var`` and ``accum`` (``grad``
    has one row per index). Returns ``(var, accum)``."""

    _eps: Any = None

    def __init__(self, lr: float, update_slots: bool = True, use_locking: bool = False) -> None:
        super().__init__()
        self.lr = _float_attr(type(self).__name__, "lr", lr)
        self.update_slots = F._flag(update_slots, type(self).__name__, "update_slots")
        self.use_locking = F._flag(use_locking, type(self).__name__, "use_locking")

    def __call__(self, var: Any, accum: Any, grad: Any, indices: Any) -> tuple:
        op = type(self).__name__
        v, a = _sparse_state(op, ("var", "accum"), (var, accum), grad)
        u, g = _rows(op, v, grad, indices)
        vr, ar = F.gather(v, u, 0), F.gather(a, u, 0)
        ar = F.add(ar, F.square(g)) if self.update_slots else ar
        den = F.sqrt(ar) if self._eps is None else F.add(F.sqrt(ar), self._eps)
        vr = F.sub(vr, F.div(F.mul(g, self.lr), den))
        return _commit(((var, _put(v, u, vr)), (accum, _put(a, u, ar))))


class SparseApplyAdagradV2(SparseApplyAdagrad):
    """``SparseApplyAdagradV2(lr, epsilon, use_locking=False, update_slots=True)(var, accum,
    grad, indices)``: ``SparseApplyAdagrad`` with ``sqrt(accum) + epsilon``."""

    def __init__(self, lr: float, epsilon: float, use_locking: bool = False,
                 update_slots: bool = True) -> None:
        super().__init__(lr, update_slots, use_locking)
        self.epsilon = self._eps = _float_attr("SparseApplyAdagradV2", "epsilon", epsilon)


class SparseApplyFtrl(Primitive):
    """``SparseApplyFtrl(lr, l1, l2, lr_power, use_locking=False)(var, accum, linear, grad,
    indices)``: ``ApplyFtrl`` on the rows ``indices``. Returns ``(var, accum, linear)``."""

    def __init__(self, lr: float, l1: float, l2: float, lr_power: float,
                 use_locking: bool = False) -> None:
        super().__init__()
        op = "SparseApplyFtrl"
        self.lr, self.l1, self.l2, self.lr_power = (_float_attr(op, n, x) for n, x in (
            ("lr", lr), ("l1", l1), ("l2", l2), ("lr_power", lr_power)))
        self.use_locking = F._flag(use_locking, op, "use_locking")

    def __call__(self, var: Any, accum: Any, linear: Any, grad: Any, indices: Any) -> tuple:
        op = "SparseApplyFtrl"
        v, a, lin = _sparse_state(op, ("var", "accum", "linear"), (var, accum, linear), grad)
        u, g = _rows(op, v, grad, indices)
        rows = [F.gather(t, u, 0) for t in (v, a, lin)]
        new = _ftrl(*rows, g, self.lr, self.l1, self.l2, self.lr_power)
        return _commit(tuple((p, _put(t, u, r)) for p, t, r in
                             zip((var, accum, linear), (v, a, lin), new)))


class SparseApplyRMSProp(Primitive):
    """``SparseApplyRMSProp(rho, momentum, epsilon, use_locking=False)(var, ms, mom, lr,
    grad, indices)``: ``ApplyRMSProp`` (decay ``rho``) on the rows ``indices``. Returns
    ``(var, ms, mom)``."""

    def __init__(self, rho: float, momentum: float, epsilon: float,
                 use_locking: bool = False) -> None:
        super().__init__()
        op = "SparseApplyRMSProp"
        self.rho, self.momentum, self.epsilon = (_float_attr(op, n, x) for n, x in (
            ("rho", rho), ("momentum", momentum), ("epsilon", epsilon)))
        self.use_locking = F._flag(use_locking, op, "use_locking")

    def __call__(self, var: Any, ms: Any, mom: Any, lr: Any, grad: Any, indices: Any) -> tuple:
        op = "SparseApplyRMSProp"
        v, s, mo = _sparse_state(op, ("var", "ms", "mom"), (var, ms, mom), grad)
        lr = _scalar(op, "lr", lr, v)
        u, g = _rows(op, v, grad, indices)
        vr, sr, mr = (F.gather(t, u, 0) for t in (v, s, mo))
        sr = F.add(F.mul(sr, self.rho), F.mul(F.square(g), 1.0 - self.rho))
        mr = F.add(F.mul(mr, self.momentum),
                   F.div(F.mul(g, lr), F.sqrt(F.add(sr, self.epsilon))))
        return _commit(((var, _put(v, u, F.sub(vr, mr))), (ms, _put(s, u, sr)),
                        (mom, _put(mo, u, mr))))


__all__ = ["ApplyMomentum", "ApplyAdagrad", "ApplyAdagradV2", "ApplyAdadelta", "ApplyAdaMax",
           "ApplyRMSProp", "ApplyCenteredRMSProp", "ApplyFtrl", "ApplyGradientDescent",
           "ApplyProximalAdagrad", "ApplyProximalGradientDescent", "ApplyAddSign",
           "ApplyPowerSign", "ApplyAdamWithAmsgrad", "ApplyAdamWithAmsgradV2",
           "ApplyAdagradDA", "Adam", "AdamNoUpdateParam", "AdamWeightDecay", "SGD",
           "SparseApplyAdagrad", "SparseApplyAdagradV2", "SparseApplyFtrl",
           "SparseApplyRMSProp"]
