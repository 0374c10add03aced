"""More of MindSpore's loss Cells: ``HuberLoss``, ``KLDivLoss``, ``MarginRankingLoss``,
``CosineEmbeddingLoss``, ``HingeEmbeddingLoss``, ``MultiMarginLoss``,
``MultiLabelSoftMarginLoss``, ``PoissonNLLLoss``, ``GaussianNLLLoss``, ``CTCLoss``,
``DiceLoss``, ``MultiClassDiceLoss``, ``FocalLoss``, ``RMSELoss`` and ``MAELoss``: thin Cells
over the loss functions of ``mindspore.ops`` (or compositions of its operators), with
MindSpore's arguments, defaults and checks."""
from __future__ import annotations

from typing import Any

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..ops import functional as F
from ..ops import loss_functions as LF
from ..ops import nn_functions as NF
from ..prims import structural as S
from .cell import Cell
from .layers.activation import get_activation
from .loss import LossBase, MSELoss


def _tensor(x: Any, who: str, arg: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{who}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _float_arg(v: Any, who: str, arg: str, ints: bool = False) -> float:
    kinds = (int, float) if ints else (float,)
    if isinstance(v, bool) or not isinstance(v, kinds):
        raise TypeError(f"For '{who}', the type of '{arg}' must be "
                        f"{'int or float' if ints else 'float'}, but got {type(v).__name__}.")
    return float(v)


class HuberLoss(LossBase):
    """``0.5 d^2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``, with
    ``d = logits - labels``."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction)
        self.delta = _float_arg(delta, "HuberLoss", "delta", ints=True)
        if self.delta <= 0:
            raise ValueError(f"For 'HuberLoss', 'delta' must be positive, but got {delta}.")

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return NF.huber_loss(logits, labels, self.reduction, self.delta)


class KLDivLoss(Cell):
    """``labels * (log(labels) - logits)`` (0 where ``labels`` is 0), reduced; ``logits``
    are log-probabilities."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return NF.kl_div(logits, labels, self.reduction)


class MarginRankingLoss(Cell):
    """``max(0, -target (input1 - input2) + margin)``, reduced."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__()
        self.margin = _float_arg(margin, "MarginRankingLoss", "margin", ints=True)
        self.reduction = NF._reduction(reduction, "MarginRankingLoss")

    def construct(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return NF.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class CosineEmbeddingLoss(LossBase):
    """``1 - cos`` where ``labels`` is 1 and ``max(0, cos - margin)`` where it is -1, with
    ``cos`` the cosine similarity along axis 1."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        m = _float_arg(margin, "CosineEmbeddingLoss", "margin")
        if not -1.0 <= m <= 1.0:
            raise ValueError(f"For 'CosineEmbeddingLoss', 'margin' must be in range [-1.0, "
                             f"1.0], but got {m}.")
        self.margin = m

    def construct(self, logits_x1: Tensor, logits_x2: Tensor, labels: Tensor) -> Tensor:
        return LF.cosine_embedding_loss(logits_x1, logits_x2, labels, self.margin,
                                        self.reduction)


class HingeEmbeddingLoss(Cell):
    """``logits`` where ``labels`` is 1, ``max(0, margin - logits)`` where it is -1."""

    def __init__(self, margin: float = 1.0, reduction: str = "mean") -> None:
        super().__init__()
        self.margin = _float_arg(margin, "HingeEmbeddingLoss", "margin", ints=True)
        self.reduction = NF._reduction(reduction, "HingeEmbeddingLoss")

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return LF.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class MultiMarginLoss(LossBase):
    """The multi-class hinge loss (see ``ops.multi_margin_loss``); ``weight`` (per class)
    may be given here or to each call."""

    def __init__(self, p: int = 1, margin: float = 1.0, reduction: str = "mean",
                 weight: Tensor | None = None) -> None:
        super().__init__()
        if p not in (1, 2) or isinstance(p, bool):
            raise ValueError(f"For 'MultiMarginLoss', 'p' must be 1 or 2, but got {p!r}.")
        self.p, self.margin = p, _float_arg(margin, "MultiMarginLoss", "margin", ints=True)
        self.reduction = NF._reduction(reduction, "MultiMarginLoss")
        self.weight = weight

    def construct(self, x: Tensor, target: Tensor, weight: Tensor | None = None) -> Tensor:
        w = self.weight if self.weight is not None else weight
        return LF.multi_margin_loss(x, target, self.p, self.margin, w, self.reduction)


class MultiLabelSoftMarginLoss(LossBase):
    """``mean_c(y log(1 + exp(-x)) + (1 - y) log(1 + exp(x)))`` per sample (``weight`` per
    class), reduced."""

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x: Tensor, target: Tensor) -> Tensor:
        return LF.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class PoissonNLLLoss(LossBase):
    """``exp(x) - t x`` (``log_input``) or ``x - t log(x + eps)``; ``full`` adds Stirling's
    approximation ``t log t - t + 0.5 log(2 pi t)`` where ``t > 1``."""

    def __init__(self, log_input: bool = True, full: bool = False, eps: float = 1e-08,
                 reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        t = F.cast(_tensor(target, "PoissonNLLLoss", "target"), input.dtype)
        return LF.poisson_nll_loss(input, t, self.log_input, self.full, self.eps,
                                   self.reduction)


class GaussianNLLLoss(LossBase):
    """``0.5 (log(max(var, eps)) + (logits - labels)^2 / max(var, eps))`` (plus
    ``0.5 log(2 pi)`` with ``full``), reduced."""

    def __init__(self, *, full: bool = False, eps: float = 1e-6,
                 reduction: str = "mean") -> None:
        super().__init__(reduction)
        if not isinstance(full, bool):
            raise TypeError(f"For 'GaussianNLLLoss', 'full' must be a bool, but got "
                            f"{type(full).__name__}.")
        if _float_arg(eps, "GaussianNLLLoss", "eps") <= 0:
            raise ValueError(f"For 'GaussianNLLLoss', 'eps' must be positive, but got {eps}.")
        self.full, self.eps = full, eps

    def construct(self, logits: Tensor, labels: Tensor, var: Tensor) -> Tensor:
        return LF.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class CTCLoss(LossBase):
    """The CTC loss of ``log_probs`` (``(T, N, C)``, or ``(T, C)`` for one sample) against
    ``targets``; see ``ops.ctc_loss``."""

    def __init__(self, blank: int = 0, reduction: str = "mean",
                 zero_infinity: bool = False) -> None:
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def construct(self, log_probs: Tensor, targets: Tensor, input_lengths: Any,
                  target_lengths: Any) -> Tensor:
        if log_probs.ndim == 2:
            if targets.ndim > 2 or (targets.ndim == 2 and targets.shape[0] != 1):
                raise ValueError(f"For CTCLoss, when log_probs is (T, C), targets must be 1-D "
                                 f"or (1, S), but got shape {list(targets.shape)}.")
            if targets.ndim == 1:
                targets = F.expand_dims(targets, 0)
            loss, _ = LF.ctc_loss(F.expand_dims(log_probs, -2), targets, input_lengths,
                                  target_lengths, self.blank, self.reduction,
                                  self.zero_infinity)
            return F.squeeze(loss, 0) if loss.ndim else loss
        loss, _ = LF.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                              self.reduction, self.zero_infinity)
        return loss


class DiceLoss(LossBase):
    """``1 - 2 sum(x y) / (sum(x^2) + sum(y^2) + smooth)`` over all elements."""

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        self.smooth = _float_arg(smooth, "DiceLoss", "smooth")
        if self.smooth <= 0:
            raise ValueError(f"For 'DiceLoss', 'smooth' must be positive, but got {smooth}.")

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        if logits.shape != label.shape:
            raise ValueError(f"For 'DiceLoss', 'logits' and 'labels' must have the same shape, "
                             f"but got {list(logits.shape)} and {list(label.shape)}.")
        x, y = F.reshape(logits, (-1,)), F.reshape(label, (-1,))
        inter = F.reduce_sum(F.mul(x, y))
        union = F.add(F.reduce_sum(F.mul(x, x)), F.reduce_sum(F.mul(y, y)))
        return F.sub(1.0, F.div(F.mul(inter, 2.0), F.add(union, self.smooth)))


class MultiClassDiceLoss(LossBase):
    """The mean over the classes (axis 1) of ``DiceLoss`` of each class's channel, after
    ``activation`` (``'softmax'`` by default); ``weights[i]`` scales class ``i``'s loss and
    ``ignore_indiex`` (MindSpore's spelling) leaves a class out of the sum."""

    _ACTIVATIONS = ("softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid")

    def __init__(self, weights: Tensor | None = None, ignore_indiex: int | None = None,
                 activation: Any = "softmax") -> None:
        super().__init__()
        who = "MultiClassDiceLoss"
        if weights is not None and (not isinstance(weights, Tensor) or weights.ndim != 2):
            raise ValueError(f"For '{who}', 'weights' must be a 2-D Tensor, but got "
                             f"{weights!r}.")
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool)
                                          or not isinstance(ignore_indiex, int)):
            raise TypeError(f"For '{who}', 'ignore_indiex' must be an int, but got "
                            f"{type(ignore_indiex).__name__}.")
        if isinstance(activation, str) and activation not in self._ACTIVATIONS:
            raise ValueError(f"For '{who}', the 'activation' must be in "
                             f"{list(self._ACTIVATIONS)}, but got {activation}.")
        self.weights, self.ignore_indiex = weights, ignore_indiex
        self.binarydiceloss = DiceLoss(smooth=1e-5)
        self.activation = get_activation(activation) if isinstance(activation, str) \
            else activation

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        who = "MultiClassDiceLoss"
        if logits.shape != label.shape or logits.ndim < 2:
            raise ValueError(f"For '{who}', 'logits' and 'labels' must have the same shape of "
                             f"rank 2 or more, but got {list(logits.shape)} and "
                             f"{list(label.shape)}.")
        if self.activation is not None:
            logits = self.activation(logits)
        total: Any = 0.0
        for i in range(label.shape[1]):
            if i == self.ignore_indiex:
                continue
            loss = self.binarydiceloss(logits[:, i], label[:, i])
            if self.weights is not None:
                loss = F.mul(loss, self.weights[i])
            total = F.add(total, loss)
        return F.div(total, float(label.shape[1]))


class FocalLoss(LossBase):
    """``-(1 - p)^gamma log p`` of ``p = softmax(logits)`` along axis 1 at the labels
    (``(N, 1, ...)`` class indices; or ``(N, C, ...)`` weights of each class, then the mean is
    over the positions), each class scaled by ``weight``; per sample the mean over the
    positions, then reduced."""

    def __init__(self, weight: Tensor | None = None, gamma: float = 2.0,
                 reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.gamma = _float_arg(gamma, "FocalLoss", "gamma")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For 'FocalLoss', the type of 'weight' must be a Tensor, but got "
                            f"{type(weight).__name__}.")
        if isinstance(weight, Tensor) and weight.ndim != 1:
            raise ValueError(f"For 'FocalLoss', the dimension of 'weight' must be 1, but got "
                             f"{weight.ndim}.")
        self.weight = weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        who = "FocalLoss"
        if not 2 <= logits.ndim <= 4 or not 2 <= labels.ndim <= 4:
            raise ValueError(f"For '{who}', the dimensions of 'logits' and 'labels' must be in "
                             f"[2, 4], but got {logits.ndim} and {labels.ndim}.")
        if logits.ndim != labels.ndim:
            raise ValueError(f"For '{who}', the dimensions of 'logits' and 'labels' must be "
                             f"equal, but got dimension of 'logits' {logits.ndim} and dimension "
                             f"of 'labels' {labels.ndim}.")
        c = logits.shape[1]
        if c == 1 or labels.shape[1] not in (1, c):
            raise ValueError(f"For '{who}', 'labels'.shape[1] must be one or equal to "
                             f"'logits'.shape[1]: {c}, but got {labels.shape[1]}.")
        n = logits.shape[0]
        x = F.reshape(logits, (n, c, -1))
        y = F.reshape(labels, (n, labels.shape[1], -1))
        logp = F.log_softmax(x, 1)
        indices = labels.shape[1] == 1
        if indices:
            idx = F.cast(y, mstype.int32) if S.dtype_of(y).kind == "f" else y
            hot = F.cast(F.one_hot(F.squeeze(idx, 1), c, 1, 0, 1), logp.dtype)
            logp = F.reduce_sum(F.mul(logp, hot), 1)                    # (N, L)
        p = F.exp(logp)
        if self.weight is not None:
            w = F.reshape(F.cast(self.weight, logp.dtype), (1, c, 1))
            logp = F.mul(logp, F.reduce_sum(F.mul(hot, w), 1) if indices else w)
        focus = F.pow(F.sub(1.0, p), self.gamma)
        if indices:
            loss = F.reduce_mean(F.neg(F.mul(focus, logp)), 1)
        else:
            loss = F.reduce_mean(F.neg(F.mul(F.mul(focus, F.cast(y, logp.dtype)), logp)), -1)
        return self.get_loss(loss)


class RMSELoss(LossBase):
    """``sqrt(mean((logits - label)^2))``."""

    def __init__(self) -> None:
        super().__init__()
        self.MSELoss = MSELoss()

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        return F.sqrt(self.MSELoss(logits, label))


class MAELoss(LossBase):
    """``|logits - label|``, reduced."""

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        return self.get_loss(F.abs(F.sub(logits, label)))


__all__ = ["HuberLoss", "KLDivLoss", "MarginRankingLoss", "CosineEmbeddingLoss",
           "HingeEmbeddingLoss", "MultiMarginLoss", "MultiLabelSoftMarginLoss", "PoissonNLLLoss",
           "GaussianNLLLoss", "CTCLoss", "DiceLoss", "MultiClassDiceLoss", "FocalLoss",
           "RMSELoss", "MAELoss"]
