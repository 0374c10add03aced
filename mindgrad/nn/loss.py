"""Loss Cells: ``loss_fn(logits, labels)``. ``reduction`` is ``'mean'`` (over all elements),
``'sum'`` or ``'none'`` (elementwise / per sample)."""
from __future__ import annotations

from typing import Any

from ..core.tensor import Tensor
from ..ops import functional as F
from ..prims import structural as S
from ..prims.binary_cross_entropy import binary_cross_entropy
from ..prims.loss import softmax_cross_entropy
from ._helpers import one_hot_mask
from .cell import Cell

_REDUCTIONS = ("mean", "sum", "none")


class LossBase(Cell):
    """Base of the losses: holds ``reduction`` and applies it in ``get_loss``."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"For '{type(self).__name__}', the 'reduction' must be in "
                             f"['mean', 'sum', 'none'], but got {reduction!r}.")
        self.reduction = reduction

    def get_loss(self, x: Tensor, weights: Any = 1.0) -> Tensor:
        """Weight the elementwise loss ``x`` and reduce it."""
        if not (isinstance(weights, (int, float)) and weights == 1.0):
            x = F.mul(x, weights)
        if self.reduction == "mean":
            return F.reduce_mean(x)
        if self.reduction == "sum":
            return F.reduce_sum(x)
        return x

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        raise NotImplementedError


def _float_tensor(x: Any, who: str, arg: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{who}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    if S.dtype_of(x).kind != "f":
        raise TypeError(f"For '{who}', '{arg}' must be a float Tensor, but got {x.dtype}.")
    return x


def _same_shape(a: Tensor, b: Tensor, who: str) -> None:
    if a.shape != b.shape:
        raise ValueError(f"For '{who}', 'logits' and 'labels' must have the same shape, but got "
                         f"{list(a.shape)} and {list(b.shape)}.")


class L1Loss(LossBase):
    """``|logits - labels|``."""

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return self.get_loss(F.abs(F.sub(logits, labels)))


class MSELoss(LossBase):
    """``(logits - labels)^2``."""

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return self.get_loss(F.square(F.sub(logits, labels)))


class SmoothL1Loss(LossBase):
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta`` (``d = logits -
    labels``). MindSpore's default reduction here is ``'none'``."""

    def __init__(self, beta: float = 1.0, reduction: str = "none") -> None:
        super().__init__(reduction)
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or beta <= 0:
            raise ValueError(f"For 'SmoothL1Loss', 'beta' must be a positive number, but got "
                             f"{beta!r}.")
        self.beta = float(beta)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _same_shape(logits, labels, "SmoothL1Loss")
        d = F.abs(F.sub(logits, labels))
        quad = F.div(F.mul(F.square(d), 0.5), self.beta)
        return self.get_loss(F.select(F.less(d, self.beta), quad, F.sub(d, 0.5 * self.beta)))


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Cross entropy of ``softmax(logits)`` (classes on the last axis) against ``labels``:
    class indices with ``sparse=True``, else probabilities of the logits' shape. The
    per-sample loss has the logits' shape without the class axis; MindSpore's default
    reduction here is ``'none'``."""

    def __init__(self, sparse: bool = False, reduction: str = "none") -> None:
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'SoftmaxCrossEntropyWithLogits', 'sparse' must be bool, but "
                            f"got {type(sparse).__name__}.")
        self.sparse = sparse

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        who = "SoftmaxCrossEntropyWithLogits"
        _float_tensor(logits, who, "logits")
        if logits.ndim < 1:
            raise ValueError(f"For '{who}', 'logits' must have a class axis, but got a scalar.")
        if self.sparse:
            if labels.shape != logits.shape[:-1]:
                raise ValueError(f"For '{who}' with sparse=True, 'labels' must have shape "
                                 f"{list(logits.shape[:-1])}, but got {list(labels.shape)}.")
            labels = _class_mask(labels, logits, -1, who)
        else:
            _same_shape(logits, labels, who)
        return self.get_loss(softmax_cross_entropy(logits, labels))


class BCELoss(LossBase):
    """Binary cross entropy of probabilities: ``-w (y log x + (1 - y) log(1 - x))``, with
    1e-12 added inside the logarithms and MindSpore's derivatives
    (``prims.binary_cross_entropy``)."""

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _same_shape(logits, labels, "BCELoss")
        loss = binary_cross_entropy(logits, labels)
        return self.get_loss(loss, 1.0 if self.weight is None else self.weight)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy of ``sigmoid(logits)``, computed stably as
    ``w (pos_weight y softplus(-x) + (1 - y) softplus(x))``."""

    def __init__(self, reduction: str = "mean", weight: Tensor | None = None,
                 pos_weight: Tensor | None = None) -> None:
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _same_shape(logits, labels, "BCEWithLogitsLoss")
        _float_tensor(logits, "BCEWithLogitsLoss", "logits")
        pos = F.mul(labels, F.softplus(F.neg(logits)))
        if self.pos_weight is not None:
            pos = F.mul(pos, self.pos_weight)
        loss = F.add(pos, F.mul(F.sub(1.0, labels), F.softplus(logits)))
        return self.get_loss(loss, 1.0 if self.weight is None else self.weight)


def _class_weights(weight: Tensor | None, mask: Tensor, axis: int) -> Tensor | None:
    """The weight of each element's target class (``None`` when unweighted)."""
    if weight is None:
        return None
    shape = tuple(-1 if a == axis else 1 for a in range(mask.ndim))
    return F.reduce_sum(F.mul(mask, F.reshape(weight, shape)), axis)


class NLLLoss(LossBase):
    """Negative log likelihood of log-probabilities ``logits`` (``(N, C)`` or
    ``(N, C, d1, ...)``) at the integer ``labels`` (``(N,)`` or ``(N, d1, ...)``):
    ``-w[y] logits[y]``. Labels equal to ``ignore_index`` contribute nothing; ``'mean'``
    divides by the total weight of the counted labels."""

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100,
                 reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        mask, valid = _target_mask(logits, labels, self.ignore_index, "NLLLoss")
        picked = F.reduce_sum(F.mul(logits, mask), 1)
        w = _class_weights(self.weight, mask, 1)
        wn = valid if w is None else F.mul(w, valid)
        return _weighted_reduce(F.neg(F.mul(picked, wn)), wn, self.reduction)


def _target_mask(logits: Tensor, labels: Tensor, ignore_index: int, who: str) -> tuple:
    """One-hot of the labels along axis 1, and 1/0 for labels that count / are ignored."""
    _float_tensor(logits, who, "logits")
    if logits.ndim < 2 or labels.shape != logits.shape[:1] + logits.shape[2:]:
        raise ValueError(f"For '{who}', 'logits' must have shape (N, C, ...) and 'labels' "
                         f"(N, ...), but got {list(logits.shape)} and {list(labels.shape)}.")
    dt = S.dtype_of(logits)
    valid = F.cast(F.not_equal(labels, ignore_index), dt)
    return _class_mask(labels, logits, 1, who, ignore_index), valid


def _class_mask(labels: Tensor, logits: Tensor, axis: int, who: str,
                ignore_index: Any = None) -> Tensor:
    """The one-hot of class-index ``labels`` along the class ``axis`` of ``logits``; a label
    outside the classes (other than ``ignore_index``) is an error."""
    n_cls = logits.shape[axis]
    return one_hot_mask(labels, n_cls, axis, S.dtype_of(logits), who, "'labels'",
                        f" ({n_cls} classes)", ignore_index)


def _weighted_reduce(loss: Tensor, weights: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return F.div(F.reduce_sum(loss), F.reduce_sum(weights))
    return F.reduce_sum(loss) if reduction == "sum" else loss


class CrossEntropyLoss(LossBase):
    """Cross entropy of ``softmax(logits)`` (classes on axis 1, or axis 0 for a 1-D input)
    against class indices (with ``weight``, ``ignore_index``) or class probabilities of the
    logits' shape; ``label_smoothing`` mixes the target with the uniform distribution."""

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100,
                 reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(reduction)
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', 'label_smoothing' must be in [0, 1], "
                             f"but got {label_smoothing!r}.")
        self.weight, self.ignore_index = weight, ignore_index
        self.label_smoothing = float(label_smoothing)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        if logits.ndim == 1:  # one sample: add the batch axis
            out = self.construct(F.expand_dims(logits, 0), F.expand_dims(labels, 0))
            return F.squeeze(out, 0) if self.reduction == "none" else out
        _float_tensor(logits, "CrossEntropyLoss", "logits")
        logp = F.log_softmax(logits, 1)
        eps, n_cls = self.label_smoothing, logits.shape[1]
        wshape = (1, -1) + (1,) * (logits.ndim - 2)
        if S.dtype_of(labels).kind == "f":
            _same_shape(logits, labels, "CrossEntropyLoss")
            target = labels if eps == 0 else F.add(F.mul(labels, 1 - eps), eps / n_cls)
            if self.weight is not None:
                target = F.mul(target, F.reshape(self.weight, wshape))
            return self.get_loss(F.neg(F.reduce_sum(F.mul(logp, target), 1)))
        mask, valid = _target_mask(logits, labels, self.ignore_index, "CrossEntropyLoss")
        w = _class_weights(self.weight, mask, 1)
        wn = valid if w is None else F.mul(w, valid)
        loss = _weighted_reduce(F.neg(F.mul(F.reduce_sum(F.mul(logp, mask), 1), wn)), wn,
                                self.reduction)
        if eps == 0:
            return loss
        wlogp = logp if self.weight is None else F.mul(logp, F.reshape(self.weight, wshape))
        smooth = _weighted_reduce(F.neg(F.mul(F.reduce_sum(wlogp, 1), valid)), wn,
                                  self.reduction)
        return F.add(F.mul(loss, 1 - eps), F.mul(smooth, eps / n_cls))


__all__ = ["LossBase", "L1Loss", "MSELoss", "SmoothL1Loss", "SoftmaxCrossEntropyWithLogits",
           "BCELoss", "BCEWithLogitsLoss", "NLLLoss", "CrossEntropyLoss"]
