"""MindSpore's fused row-sparse optimizer updates (``FusedSparseAdam``,
``FusedSparseLazyAdam``, ``FusedSparseFtrl``, ``FusedSparseProximalAdagrad``): one step of
the rule for a gradient given as rows ``grad`` at ``indices`` (repeated rows added first),
written into the Parameters in place. As MindSpore's kernels, they return placeholders (a
zero of shape (1,) per updated Parameter); the updated values are the Parameters."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core.tensor import Tensor
from .. import functional as F
from ..primitive import Primitive
from .optimizer_ops import (_adam_moments, _commit, _float_attr, _ftrl, _proximal, _put, _rows,
                            _scalar, _sparse_state)


def _placeholders(like: Tensor, n: int) -> tuple:
    zero = Tensor(np.zeros((1,), like.dtype.np_dtype))
    return (zero,) * n


class FusedSparseAdam(Primitive):
    """``FusedSparseAdam(use_locking=False, use_nesterov=False)(var, m, v, beta1_power,
    beta2_power, lr, beta1, beta2, epsilon, grad, indices)``: ``Adam`` with the gradient
    zero outside the rows ``indices``: every row's moments decay and every row of ``var``
    moves."""

    _lazy = False

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__()
        self.use_locking = F._flag(use_locking, type(self).__name__, "use_locking")
        self.use_nesterov = F._flag(use_nesterov, type(self).__name__, "use_nesterov")

    def __call__(self, var: Any, m: Any, v: Any, beta1_power: Any, beta2_power: Any, lr: Any,
                 beta1: Any, beta2: Any, epsilon: Any, grad: Any, indices: Any) -> tuple:
        op = type(self).__name__
        x, m_, v_ = _sparse_state(op, ("var", "m", "v"), (var, m, v), grad)
        b1p, b2p, lr, b1, b2, eps = (_scalar(op, n, s, x) for n, s in (
            ("beta1_power", beta1_power), ("beta2_power", beta2_power), ("lr", lr),
            ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)))
        u, g = _rows(op, x, grad, indices)
        rate = F.div(F.mul(lr, F.sqrt(F.sub(1.0, b2p))), F.sub(1.0, b1p))
        if self._lazy:  # only the named rows
            xr, mr, vr = (F.gather(t, u, 0) for t in (x, m_, v_))
        else:
            xr, mr, vr = x, m_, v_
            g = _put(F.zeros_like(x), u, g)
        mr, vr = _adam_moments(mr, vr, g, b1, b2)
        num = F.add(F.mul(mr, b1), F.mul(g, F.sub(1.0, b1))) if self.use_nesterov else mr
        xr = F.sub(xr, F.div(F.mul(num, rate), F.add(F.sqrt(vr), eps)))
        if self._lazy:
            xr, mr, vr = (_put(t, u, r) for t, r in ((x, xr), (m_, mr), (v_, vr)))
        _commit(((var, xr), (m, mr), (v, vr)))
        return _placeholders(x, 3)


class FusedSparseLazyAdam(FusedSparseAdam):
    """``FusedSparseLazyAdam``: ``FusedSparseAdam`` on the rows ``indices`` only (the other
    rows and their moments stay)."""

    _lazy = True


class FusedSparseFtrl(Primitive):
    """``FusedSparseFtrl(lr, l1, l2, lr_power, use_locking=False)(var, accum, linear, grad,
    indices)``: ``SparseApplyFtrl``'s update."""

    def __init__(self, lr: float, l1: float, l2: float, lr_power: float,
                 use_locking: bool = False) -> None:
        super().__init__()
        op = "FusedSparseFtrl"
        self.lr, self.l1, self.l2, self.lr_power = (_float_attr(op, n, x) for n, x in (
            ("lr", lr), ("l1", l1), ("l2", l2), ("lr_power", lr_power)))
        self.use_locking = F._flag(use_locking, op, "use_locking")

    def __call__(self, var: Any, accum: Any, linear: Any, grad: Any, indices: Any) -> tuple:
        op = "FusedSparseFtrl"
        v, a, lin = _sparse_state(op, ("var", "accum", "linear"), (var, accum, linear), grad)
        u, g = _rows(op, v, grad, indices)
        rows = [F.gather(t, u, 0) for t in (v, a, lin)]
        new = _ftrl(*rows, g, self.lr, self.l1, self.l2, self.lr_power)
        _commit(tuple((p, _put(t, u, r)) for p, t, r in
                      zip((var, accum, linear), (v, a, lin), new)))
        return _placeholders(v, 3)


class FusedSparseProximalAdagrad(Primitive):
    """``FusedSparseProximalAdagrad(use_locking=False)(var, accum, lr, l1, l2, grad,
    indices)``: ``ApplyProximalAdagrad``'s update on the rows ``indices``."""

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = F._flag(use_locking, "FusedSparseProximalAdagrad", "use_locking")

    def __call__(self, var: Any, accum: Any, lr: Any, l1: Any, l2: Any, grad: Any,
                 indices: Any) -> tuple:
        op = "FusedSparseProximalAdagrad"
        v, a = _sparse_state(op, ("var", "accum"), (var, accum), grad)
        lr, l1, l2 = (_scalar(op, n, s, v) for n, s in (("lr", lr), ("l1", l1), ("l2", l2)))
        u, g = _rows(op, v, grad, indices)
        vr, ar = F.gather(v, u, 0), F.add(F.gather(a, u, 0), F.square(g))
        rate = F.div(lr, F.sqrt(ar))
        vr = _proximal(F.sub(vr, F.mul(rate, g)), rate, l1, l2)
        _commit(((var, _put(v, u, vr)), (accum, _put(a, u, ar))))
        return _placeholders(v, 2)


__all__ = ["FusedSparseAdam", "FusedSparseLazyAdam", "FusedSparseFtrl",
           "FusedSparseProximalAdagrad"]
