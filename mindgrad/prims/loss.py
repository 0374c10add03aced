"""``SoftmaxCrossEntropy``: one primitive for the cross entropy of ``softmax(logits)``
against class probabilities (or a one-hot mask), classes on the last axis, as MindSpore's
kernel of the same name. Per sample: ``lse(x) * sum(y) - sum(y * x)``.

Fusing the forward pass into one primitive keeps the eager training step short; the
reverse and forward rules are written with primitives, so derivatives of any order still
work."""
from __future__ import annotations

from typing import Any

from ..core.primitive import Primitive
from ._util import xp_of
from . import arith as A
from . import compare as C
from . import reduce as R
from . import reduce_fused as RF
from . import structural as S
from . import unary as U


def _impl(logits: Any, labels: Any) -> Any:
    xp = xp_of(logits)
    m = logits.max(-1, keepdims=True)
    lse = xp.log(xp.exp(logits - m).sum(-1)) + m[..., 0]
    return lse * labels.sum(-1) - (labels * logits).sum(-1)


def _last(x: Any) -> tuple:
    return (len(S.shape_of(x)) - 1,)


def _d_logits(logits: Any, labels: Any) -> Any:
    """d loss / d logits: ``softmax(x) * sum(y) - y``."""
    total = R.reduce_sum(labels, axis=_last(labels), keepdims=True)
    return A.sub(A.mul(RF.softmax(logits, axis=_last(logits)), total), labels)


def _d_labels(logits: Any) -> Any:
    """d loss / d labels: ``lse(x) - x`` (the shift by the maximum only keeps exp in range:
    a constant for the derivatives, 0 where the maximum is not finite)."""
    axis = _last(logits)
    m = R.reduce_max(S.stop_gradient(logits), axis=axis, keepdims=True)
    m = C.select(C.isfinite(m), m, 0)
    lse = A.add(U.log(R.reduce_sum(U.exp(A.sub(logits, m)), axis=axis, keepdims=True)), m)
    return A.sub(lse, logits)


def _sum_last(x: Any) -> Any:
    return R.reduce_sum(x, axis=_last(x), keepdims=False)


def _expand(g: Any) -> Any:
    return S.reshape(g, shape=S.shape_of(g) + (1,))


def _batch(args: list, dims: list) -> tuple:
    # Batch axes in front; NumPy's right-aligned broadcasting handles an unbatched operand.
    logits, labels = (a if d is None else S.to_front(a, d) for a, d in zip(args, dims))
    if dims[0] is None:
        logits = S.broadcast_batch(logits, S.shape_of(labels)[0])
    return softmax_cross_entropy(logits, labels), 0


softmax_cross_entropy = Primitive("SoftmaxCrossEntropy", _impl)
softmax_cross_entropy.vjp = (
    lambda g, ans, x, y: A.mul(_expand(g), _d_logits(x, y)),
    lambda g, ans, x, y: S.unbroadcast(A.mul(_expand(g), _d_labels(x)), y),
)
softmax_cross_entropy.jvp = (
    lambda t, ans, x, y: _sum_last(A.mul(t, _d_logits(x, y))),
    lambda t, ans, x, y: _sum_last(A.mul(t, _d_labels(x))),
)
softmax_cross_entropy.batch = _batch


def _composite(logits: Any, labels: Any) -> Any:
    """What the fused primitive computes: ``sum(y) lse(x) - sum(y x)`` over the last axis."""
    lse = A.add(_d_labels(logits), logits)  # lse(x), broadcast along the last axis
    return A.sub(_sum_last(A.mul(labels, lse)), _sum_last(A.mul(labels, logits)))


softmax_cross_entropy.hints["composite"] = _composite

