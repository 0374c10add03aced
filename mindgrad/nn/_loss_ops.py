"""``SoftmaxCrossEntropy``: one primitive for the cross entropy of ``softmax(logits)``
against class probabilities (or a one-hot mask), classes on the last axis, as MindSpore's
kernel of the same name. Per sample: ``lse(x) * sum(y) - sum(y * x)``.

Fusing the forward pass into one primitive keeps the eager training step short; the
reverse and forward rules are written in differentiable operations, so derivatives of any
order still work."""
from __future__ import annotations

from typing import Any

from ..core.primitive import Primitive
from ..ops import functional as F
from ..prims import structural as B
from ..prims import structural as S
from ..prims._util import xp_of


def _impl(logits: Any, labels: Any) -> Any:
    xp = xp_of(logits)
    m = logits.max(-1, keepdims=True)
    lse = xp.log(xp.exp(logits - m).sum(-1)) + m[..., 0]
    return lse * labels.sum(-1) - (labels * logits).sum(-1)


def _d_logits(logits: Any, labels: Any) -> Any:
    """d loss / d logits: ``softmax(x) * sum(y) - y``."""
    return F.sub(F.mul(F.softmax(logits, -1), F.reduce_sum(labels, -1, True)), labels)


def _d_labels(logits: Any) -> Any:
    """d loss / d labels: ``lse(x) - x``."""
    return F.sub(F.logsumexp(logits, -1, True), logits)


def _expand(g: Any) -> Any:
    return F.expand_dims(g, -1)


def _batch(args: list, dims: list) -> tuple:
    # Batch axes in front; NumPy's right-aligned broadcasting handles an unbatched operand.
    logits, labels = (a if d is None else B.to_front(a, d) for a, d in zip(args, dims))
    if dims[0] is None:
        logits = B.broadcast_batch(logits, S.shape_of(labels)[0])
    return softmax_cross_entropy(logits, labels), 0


softmax_cross_entropy = Primitive("SoftmaxCrossEntropy", _impl)
softmax_cross_entropy.vjp = (
    lambda g, ans, x, y: F.mul(_expand(g), _d_logits(x, y)),
    lambda g, ans, x, y: S.unbroadcast(F.mul(_expand(g), _d_labels(x)), y),
)
softmax_cross_entropy.jvp = (
    lambda t, ans, x, y: F.reduce_sum(F.mul(t, _d_logits(x, y)), -1),
    lambda t, ans, x, y: F.reduce_sum(F.mul(t, _d_labels(x)), -1),
)
softmax_cross_entropy.batch = _batch
