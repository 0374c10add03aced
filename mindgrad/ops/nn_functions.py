"""MindSpore's neural-network functions: the loss functions (``ops.mse_loss``,
``ops.cross_entropy``, ``ops.binary_cross_entropy_with_logits``, ...), ``ops.dense``,
``ops.bias_add`` and the activations the core does not have (``hardtanh``, ``selu``, ...).

Each is a composition of differentiable operators, so its derivatives (reverse, forward,
vmap, Taylor) are those of the operators it is made of. ``reduction`` is ``'mean'`` (over
all elements), ``'sum'`` or ``'none'``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.tensor import Tensor
from ..prims import binary_cross_entropy as BCE
from ..prims import indexing as IX
from . import functional as F
from .functional import _composite

_REDUCTIONS = ("mean", "sum", "none")


def _float(x: Any, op: str, arg: str) -> Tensor:
    t = F._tensor(x, op, arg)
    if t._data.dtype.kind != "f":
        raise TypeError(f"For '{op}', '{arg}' must be a float Tensor, but got {t.dtype}.")
    return t


def _reduction(reduction: Any, op: str, allowed: tuple = _REDUCTIONS) -> str:
    if reduction not in allowed:
        raise ValueError(f"For '{op}', 'reduction' must be one of {list(allowed)}, but got "
                         f"{reduction!r}.")
    return reduction


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return F.reduce_mean(loss)
    if reduction == "sum":
        return F.reduce_sum(loss)
    return loss


def _pair(input: Any, target: Any, op: str, a: str = "input", b: str = "target",
          same: bool = True) -> tuple:
    x, y = _float(input, op, a), _float(target, op, b)
    if same and x.shape != y.shape:
        raise ValueError(f"For '{op}', '{a}' and '{b}' must have the same shape, but got "
                         f"{list(x.shape)} and {list(y.shape)}.")
    if x.dtype != y.dtype:  # the wider float of the two
        wide = np.promote_types(x._data.dtype, y._data.dtype)
        x, y = F.cast(x, wide), F.cast(y, wide)
    return x, y


def _positive(v: Any, op: str, arg: str, allow_zero: bool = False) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or \
            v < 0 or (v == 0 and not allow_zero):
        raise ValueError(f"For '{op}', '{arg}' must be a {'non-negative' if allow_zero else 'positive'}"
                         f" finite number, but got {v!r}.")
    return float(v)


# --- losses -----------------------------------------------------------------------------------
@_composite
def binary_cross_entropy_with_logits(input: Any, target: Any, weight: Any = None,
                                     pos_weight: Any = None, reduction: str = "mean") -> Tensor:
    """Binary cross entropy of ``sigmoid(input)`` against ``target``, computed stably as
    ``weight * (pos_weight * target * softplus(-input) + (1 - target) * softplus(input))``;
    ``weight`` and ``pos_weight`` broadcast with the input."""
    op = "binary_cross_entropy_with_logits"
    x, y = _pair(input, target, op)
    reduction = _reduction(reduction, op)
    pos = F.mul(y, F.softplus(F.neg(x)))
    if pos_weight is not None:
        pw = _float(pos_weight, op, "pos_weight")
        F._broadcast_shapes(op, ("input", x), ("pos_weight", pw))
        pos = F.mul(pos, F.cast(pw, x.dtype))
    loss = F.add(pos, F.mul(F.sub(1.0, y), F.softplus(x)))
    if weight is not None:
        w = _float(weight, op, "weight")
        F._broadcast_shapes(op, ("input", x), ("weight", w))
        loss = F.mul(loss, F.cast(w, x.dtype))
    return _reduce(loss, reduction)


@_composite
def binary_cross_entropy(logits: Any, labels: Any, weight: Any = None,
                         reduction: str = "mean") -> Tensor:
    """Binary cross entropy of probabilities ``logits`` against ``labels``:
    ``-weight * (y log x + (1 - y) log(1 - x))``, with ``x`` and ``1 - x`` held at 1e-12 or
    more inside the logarithms and MindSpore's derivatives, finite at 0 and 1
    (``prims.binary_cross_entropy``)."""
    op = "binary_cross_entropy"
    x, y = _pair(logits, labels, op, "logits", "labels")
    reduction = _reduction(reduction, op)
    loss = BCE.binary_cross_entropy(x, y)
    if weight is not None:
        w = _float(weight, op, "weight")
        F._broadcast_shapes(op, ("logits", x), ("weight", w))
        loss = F.mul(loss, F.cast(w, x.dtype))
    return _reduce(loss, reduction)


@_composite
def mse_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    """``(input - target)**2`` (the two broadcast), reduced."""
    x, y = _pair(input, target, "mse_loss", same=False)
    return _reduce(F.square(F.sub(x, y)), _reduction(reduction, "mse_loss"))


@_composite
def l1_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    """``|input - target|`` (the two broadcast), reduced."""
    x, y = _pair(input, target, "l1_loss", same=False)
    return _reduce(F.abs(F.sub(x, y)), _reduction(reduction, "l1_loss"))


def _huber(d: Tensor, delta: float) -> Tensor:
    """``0.5 d**2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``."""
    a = F.abs(d)
    return F.select(F.less(a, delta), F.mul(F.square(d), 0.5),
                    F.mul(F.sub(a, 0.5 * delta), delta))


@_composite
def smooth_l1_loss(input: Any, target: Any, beta: float = 1.0,
                   reduction: str = "none") -> Tensor:
    """``0.5 d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``
    (``d = input - target``); MindSpore's default reduction here is ``'none'``."""
    x, y = _pair(input, target, "smooth_l1_loss")
    beta = _positive(beta, "smooth_l1_loss", "beta")
    reduction = _reduction(reduction, "smooth_l1_loss")
    return _reduce(F.div(_huber(F.sub(x, y), beta), beta), reduction)


@_composite
def huber_loss(input: Any, target: Any, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    """``0.5 d**2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``."""
    x, y = _pair(input, target, "huber_loss", same=False)
    delta = _positive(delta, "huber_loss", "delta")
    return _reduce(_huber(F.sub(x, y), delta), _reduction(reduction, "huber_loss"))


@_composite
def soft_margin_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    """``log(1 + exp(-target * input))``, reduced."""
    x, y = _pair(input, target, "soft_margin_loss")
    return _reduce(F.softplus(F.neg(F.mul(y, x))), _reduction(reduction, "soft_margin_loss"))


@_composite
def margin_ranking_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                        reduction: str = "mean") -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``, reduced."""
    op = "margin_ranking_loss"
    a, b = _pair(input1, input2, op, "input1", "input2")
    _, y = _pair(input1, target, op, "input1", "target")
    if not isinstance(margin, (int, float)) or isinstance(margin, bool):
        raise TypeError(f"For '{op}', 'margin' must be a float, but got {type(margin).__name__}.")
    loss = F.relu(F.add(F.neg(F.mul(y, F.sub(a, b))), float(margin)))
    return _reduce(loss, _reduction(reduction, op))


@_composite
def kl_div(logits: Any, labels: Any, reduction: str = "mean") -> Tensor:
    """The Kullback-Leibler divergence of ``labels`` (probabilities) from ``logits``
    (log-probabilities): ``labels * (log(labels) - logits)``, 0 where ``labels`` is 0.
    ``'batchmean'`` divides the sum by the size of the first axis."""
    op = "kl_div"
    x, y = _pair(logits, labels, op, "logits", "labels")
    reduction = _reduction(reduction, op, ("mean", "sum", "none", "batchmean"))
    positive = F.greater(y, 0)
    safe = F.select(positive, y, F.ones_like(y))
    loss = F.select(positive, F.mul(y, F.sub(F.log(safe), x)), F.mul(y, F.neg(x)))
    if reduction == "batchmean":
        n = x.shape[0] if x.ndim else 1
        return F.div(F.reduce_sum(loss), float(n))
    return _reduce(loss, reduction)


def _class_targets(x: Tensor, target: Any, op: str, ignore_index: int) -> tuple:
    """The one-hot of integer ``target`` along axis 1 of ``x`` (``(N, C, ...)``), and 1/0
    for the targets counted / ignored."""
    t = F._tensor(target, op, "target")
    if t._data.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', 'target' must be an integer Tensor of class indices, "
                        f"but got {t.dtype}.")
    if x.ndim < 1 or t.shape != x.shape[:1] + x.shape[2:]:
        raise ValueError(f"For '{op}', 'input' must have shape (N, C, ...) and 'target' "
                         f"(N, ...), but got {list(x.shape)} and {list(t.shape)}.")
    n_cls = x.shape[1]
    if IX.is_eager(t):
        bad = t.asnumpy()
        bad = bad[(bad != ignore_index) & ((bad < 0) | (bad >= n_cls))]
        if bad.size:
            raise IndexError(f"For '{op}', each value of 'target' must be in [0, {n_cls}) or "
                             f"ignore_index {ignore_index}, but got {int(bad.reshape(-1)[0])}.")
    valid = F.not_equal(t, ignore_index)
    idx = F.select(valid, t, F.zeros_like(t))
    mask = F.cast(F.one_hot(idx, n_cls, 1, 0, 1), x.dtype)
    return mask, F.cast(valid, x.dtype)


def _weights(weight: Any, x: Tensor, op: str) -> Tensor | None:
    if weight is None:
        return None
    w = _float(weight, op, "weight")
    if w.shape != (x.shape[1],):
        raise ValueError(f"For '{op}', 'weight' must have shape [{x.shape[1]}] (one per "
                         f"class), but got {list(w.shape)}.")
    return F.reshape(F.cast(w, x.dtype), (1, -1) + (1,) * (x.ndim - 2))


def _nll(logp: Tensor, target: Any, weight: Any, ignore_index: int, reduction: str,
         label_smoothing: float, op: str) -> Tensor:
    """The negative log likelihood of log-probabilities ``logp`` (``(N, C, ...)``) at the
    class indices ``target``; ``'mean'`` divides by the total weight of the counted
    targets; ``label_smoothing`` mixes in the uniform distribution."""
    if not F._is_int(ignore_index):
        raise TypeError(f"For '{op}', 'ignore_index' must be an int, but got "
                        f"{type(ignore_index).__name__}.")
    if isinstance(label_smoothing, bool) or not isinstance(label_smoothing, (int, float)) or \
            not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"For '{op}', 'label_smoothing' must be a float in [0, 1], but got "
                         f"{label_smoothing!r}.")
    reduction = _reduction(reduction, op)
    mask, valid = _class_targets(logp, target, op, int(ignore_index))
    w = _weights(weight, logp, op)
    wmask = mask if w is None else F.mul(mask, w)
    wn = F.mul(F.reduce_sum(wmask, 1), valid)                  # each target's weight
    loss = F.neg(F.mul(F.reduce_sum(F.mul(logp, mask), 1), wn))
    eps = float(label_smoothing)
    if eps:
        wlogp = logp if w is None else F.mul(logp, w)
        smooth = F.neg(F.mul(F.reduce_sum(wlogp, 1), valid))
        loss = F.add(F.mul(loss, 1 - eps), F.mul(smooth, eps / logp.shape[1]))
    if reduction == "mean":
        return F.div(F.reduce_sum(loss), F.reduce_sum(wn))
    return F.reduce_sum(loss) if reduction == "sum" else loss


def _batched(x: Tensor, target: Any, op: str) -> tuple:
    """A 1-D input (one sample of C classes) as a batch of one."""
    if x.ndim == 1:
        t = F._tensor(target, op, "target")
        return F.expand_dims(x, 0), F.expand_dims(t, 0), True
    return x, target, False


@_composite
def nll_loss(inputs: Any, target: Any, weight: Any = None, ignore_index: int = -100,
             reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Negative log likelihood of the log-probabilities ``inputs`` (``(N, C)`` or
    ``(N, C, d1, ...)``, or ``(C,)``) at the class indices ``target``."""
    x = _float(inputs, "nll_loss", "inputs")
    x, target, one = _batched(x, target, "nll_loss")
    out = _nll(x, target, weight, ignore_index, reduction, label_smoothing, "nll_loss")
    return F.squeeze(out, 0) if one and reduction == "none" else out


@_composite
def cross_entropy(input: Any, target: Any, weight: Any = None, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Cross entropy of ``softmax(input)`` (classes on axis 1, or axis 0 of a 1-D input)
    against class indices, or against class probabilities of the input's shape."""
    op = "cross_entropy"
    x = _float(input, op, "input")
    t = F._tensor(target, op, "target")
    if t._data.dtype.kind == "f":
        x1 = x.ndim == 1
        if x1:
            x, t = F.expand_dims(x, 0), F.expand_dims(t, 0)
        if x.shape != t.shape:
            raise ValueError(f"For '{op}', class probabilities 'target' must have the "
                             f"input's shape {list(x.shape)}, but got {list(t.shape)}.")
        reduction = _reduction(reduction, op)
        if isinstance(label_smoothing, bool) or not isinstance(label_smoothing, (int, float)) \
                or not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For '{op}', 'label_smoothing' must be a float in [0, 1], but "
                             f"got {label_smoothing!r}.")
        eps, n_cls = float(label_smoothing), x.shape[1]
        t = F.cast(t, x.dtype)
        if eps:
            t = F.add(F.mul(t, 1 - eps), eps / n_cls)
        w = _weights(weight, x, op)
        if w is not None:
            t = F.mul(t, w)
        loss = F.neg(F.reduce_sum(F.mul(F.log_softmax(x, 1), t), 1))
        if reduction == "mean":
            # per sample, averaged over the samples (and spatial positions)
            return F.reduce_mean(loss)
        out = _reduce(loss, reduction)
        return F.squeeze(out, 0) if x1 and reduction == "none" else out
    x, t, one = _batched(x, t, op)
    out = _nll(F.log_softmax(x, 1), t, weight, ignore_index, reduction, label_smoothing, op)
    return F.squeeze(out, 0) if one and reduction == "none" else out


@_composite
def cosine_similarity(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """``sum(x1 * x2) / max(|x1| |x2|, eps)`` along ``dim`` (the inputs broadcast)."""
    op = "cosine_similarity"
    a, b = _pair(x1, x2, op, "x1", "x2", same=False)
    shape = F._broadcast_shapes(op, ("x1", a), ("x2", b))
    d = F._axis(dim, len(shape), op, "dim")
    eps = _positive(eps, op, "eps")
    dotp = F.reduce_sum(F.mul(a, b), d)
    na = F.sqrt(F.reduce_sum(F.square(a), d))
    nb = F.sqrt(F.reduce_sum(F.square(b), d))
    return F.div(dotp, F.maximum(F.mul(na, nb), eps))


# --- dense and bias_add -----------------------------------------------------------------------
@_composite
def dense(input: Any, weight: Any, bias: Any = None) -> Tensor:
    """``input @ weight.T + bias``: ``weight`` ``(out, in)`` (or ``(in,)``), ``input``
    ``(..., in)``."""
    x, w = F._tensor(input, "dense", "input"), F._tensor(weight, "dense", "weight")
    if w.ndim not in (1, 2) or x.ndim == 0 or x.shape[-1] != w.shape[-1]:
        raise ValueError(f"For 'dense', 'weight' must be (out, in) or (in,) and 'input' "
                         f"(..., in), but got shapes {list(x.shape)} and {list(w.shape)}.")
    out = F.matmul(x, w, False, True) if w.ndim == 2 else F.matmul(x, w)
    if bias is not None:
        b = F._tensor(bias, "dense", "bias")
        if b.ndim > 1 or (b.ndim == 1 and b.shape[0] != (w.shape[0] if w.ndim == 2 else 1)):
            raise ValueError(f"For 'dense', 'bias' must have shape [{w.shape[0]}], but got "
                             f"{list(b.shape)}.")
        out = F.add(out, b)
    return out


@_composite
def bias_add(input_x: Any, bias: Any, data_format: str = "NCHW") -> Tensor:
    """``input_x`` (rank 2 to 5) plus the 1-D ``bias`` per channel: channels on axis 1 for
    ``data_format`` "NCHW" / "NCDHW", on the last axis for "NHWC"."""
    x, b = F._tensor(input_x, "bias_add", "input_x"), F._tensor(bias, "bias_add", "bias")
    if data_format not in ("NCHW", "NHWC", "NCDHW"):
        raise ValueError(f"For 'bias_add', 'data_format' must be 'NCHW', 'NHWC' or 'NCDHW', "
                         f"but got {data_format!r}.")
    if not 2 <= x.ndim <= 5:
        raise ValueError(f"For 'bias_add', 'input_x' must have rank 2 to 5, but got shape "
                         f"{list(x.shape)}.")
    ch = x.ndim - 1 if data_format == "NHWC" else 1
    if b.ndim != 1 or b.shape[0] != x.shape[ch]:
        raise ValueError(f"For 'bias_add', 'bias' must be 1-D of the size of axis {ch} of "
                         f"'input_x' ({x.shape[ch]}), but got shape {list(b.shape)}.")
    if b.dtype != x.dtype:
        raise TypeError(f"For 'bias_add', 'bias' must have the dtype of 'input_x', "
                        f"{x.dtype}, but got {b.dtype}.")
    return F.add(x, F.reshape(b, (-1,) + (1,) * (x.ndim - 1 - ch)))


# --- batch normalization ----------------------------------------------------------------------
def batch_norm_stats(x: Tensor, running_mean: Any, running_var: Any, training: bool,
                     momentum: float, eps: float, channel_axis: int,
                     op: str = "batch_norm") -> tuple[Tensor, Tensor, Tensor]:
    """``(normalized x, batch mean, batch variance)``: with ``training`` the statistics of
    the batch (over every axis but ``channel_axis``; the variance biased), and
    ``running_mean`` / ``running_var`` (Parameters) moved towards them as
    ``(1 - momentum) * running + momentum * batch`` (the unbiased variance, as MindSpore
    does); else the running statistics, and the batch ones returned as zeros."""
    c = x.shape[channel_axis]
    for arg, t in (("running_mean", running_mean), ("running_var", running_var)):
        if not isinstance(t, Tensor) or t.shape != (c,):
            raise ValueError(f"For '{op}', '{arg}' must be a Tensor of shape [{c}] (the "
                             f"channels of 'input_x' {list(x.shape)}), but got "
                             f"{list(getattr(t, 'shape', ()))}.")
    shape = tuple(c if a == channel_axis % x.ndim else 1 for a in range(x.ndim))
    if training:
        axes = tuple(a for a in range(x.ndim) if a != channel_axis % x.ndim)
        mean = F.reduce_mean(x, axes, True)
        var = F.reduce_mean(F.square(F.sub(x, mean)), axes, True)
        batch_mean, batch_var = F.reshape(mean, (c,)), F.reshape(var, (c,))
        n = x.size // c
        unbiased = F.mul(F.stop_gradient(batch_var), n / max(n - 1, 1))
        for running, batch in ((running_mean, F.stop_gradient(batch_mean)),
                               (running_var, unbiased)):
            if not hasattr(running, "set_data"):
                raise TypeError(f"For '{op}', the running statistics must be Parameters "
                                f"when training, but got {type(running).__name__}.")
            running.set_data(F.add(F.mul(running, 1 - momentum), F.mul(batch, momentum)))
    else:
        mean, var = F.reshape(running_mean, shape), F.reshape(running_var, shape)
        batch_mean = batch_var = F.zeros_like(running_mean)
    return F.mul(F.sub(x, mean), F.rsqrt(F.add(var, eps))), batch_mean, batch_var


@_composite
def batch_norm(input_x: Any, running_mean: Any, running_var: Any, weight: Any, bias: Any,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Batch normalization of ``input_x`` (N, C, ...) per channel, scaled by ``weight`` and
    shifted by ``bias`` (see ``batch_norm_stats`` for the statistics)."""
    x = _float(input_x, "batch_norm", "input_x")
    if x.ndim < 2:
        raise ValueError(f"For 'batch_norm', 'input_x' must have rank 2 or more, but got "
                         f"shape {list(x.shape)}.")
    y, _, _ = batch_norm_stats(x, running_mean, running_var, training, momentum, eps, 1)
    shape = (-1,) + (1,) * (x.ndim - 2)
    return F.add(F.mul(y, F.reshape(weight, shape)), F.reshape(bias, shape))


# --- activations ------------------------------------------------------------------------------
def _act(x: Any, op: str, arg: str = "input") -> Tensor:
    return _float(x, op, arg)


@_composite
def hardtanh(input: Any, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """``input`` clipped to [min_val, max_val]."""
    x = _act(input, "hardtanh")
    for arg, v in (("min_val", min_val), ("max_val", max_val)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"For 'hardtanh', '{arg}' must be a number, but got "
                            f"{type(v).__name__}.")
    if min_val > max_val:
        raise ValueError(f"For 'hardtanh', 'min_val' must not exceed 'max_val', but got "
                         f"{min_val} and {max_val}.")
    return F.clamp(x, float(min_val), float(max_val))


@_composite
def softsign(x: Any) -> Tensor:
    """``x / (1 + |x|)``."""
    t = _act(x, "softsign", "x")
    return F.div(t, F.add(F.abs(t), 1.0))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@_composite
def selu(input_x: Any) -> Tensor:
    """``scale * elu(x, alpha)`` with the self-normalizing constants."""
    x = _act(input_x, "selu", "input_x")
    return F.mul(F.elu(x, _SELU_ALPHA), _SELU_SCALE)


@_composite
def celu(x: Any, alpha: float = 1.0) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    t = _act(x, "celu", "x")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or alpha == 0:
        raise ValueError(f"For 'celu', 'alpha' must be a non-zero number, but got {alpha!r}.")
    neg = F.mul(F.expm1(F.div(F.minimum(t, 0.0), float(alpha))), float(alpha))
    return F.add(F.relu(t), neg)


@_composite
def logsigmoid(x: Any) -> Tensor:
    """``log(sigmoid(x)) = -softplus(-x)``, stable for large ``|x|``."""
    return F.neg(F.softplus(F.neg(_act(x, "logsigmoid", "x"))))


@_composite
def hardsigmoid(input: Any) -> Tensor:
    """``clip(x / 6 + 1 / 2, 0, 1)``."""
    x = _act(input, "hardsigmoid")
    return F.clamp(F.add(F.div(x, 6.0), 0.5), 0.0, 1.0)


@_composite
def softmin(x: Any, axis: Any = -1, *, dtype: Any = None) -> Tensor:
    """``softmax(-x)`` along ``axis``."""
    t = _act(x, "softmin", "x")
    if dtype is not None:
        t = F.cast(t, dtype)
    return F.softmax(F.neg(t), axis)


def _lambd(v: Any, op: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
        raise ValueError(f"For '{op}', 'lambd' must be a non-negative number, but got {v!r}.")
    return float(v)


@_composite
def softshrink(input: Any, lambd: float = 0.5) -> Tensor:
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""
    x = _act(input, "softshrink")
    lam = _lambd(lambd, "softshrink")
    return F.sub(x, F.clamp(x, -lam, lam))


@_composite
def hardshrink(input: Any, lambd: float = 0.5) -> Tensor:
    """``x`` where ``|x| > lambd``, else 0."""
    x = _act(input, "hardshrink")
    lam = _lambd(lambd, "hardshrink")
    return F.select(F.greater(F.abs(x), lam), x, F.zeros_like(x))


@_composite
def tanhshrink(input: Any) -> Tensor:
    """``x - tanh(x)``."""
    x = _act(input, "tanhshrink")
    return F.sub(x, F.tanh(x))


@_composite
def glu(x: Any, axis: int = -1) -> Tensor:
    """``a * sigmoid(b)`` for the two halves ``a``, ``b`` of ``x`` along ``axis``."""
    t = _act(x, "glu", "x")
    if t.ndim == 0:
        raise ValueError("For 'glu', 'x' must have rank >= 1, but got a 0-D Tensor.")
    a = F._axis(axis, t.ndim, "glu")
    if t.shape[a] % 2:
        raise ValueError(f"For 'glu', axis {a} of 'x' must have an even size, but got shape "
                         f"{list(t.shape)}.")
    first, second = F.split(t, t.shape[a] // 2, a)
    return F.mul(first, F.sigmoid(second))


@_composite
def threshold(input: Any, thr: float, value: float) -> Tensor:
    """``input`` where it is above ``thr``, else ``value``."""
    x = F._tensor(input, "threshold")
    for arg, v in (("thr", thr), ("value", value)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"For 'threshold', '{arg}' must be a number, but got "
                            f"{type(v).__name__}.")
    return F.select(F.greater(x, thr), x, F.cast(F.full(x.shape, value), x.dtype))


__all__ = ["batch_norm", "binary_cross_entropy_with_logits", "binary_cross_entropy",
           "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "soft_margin_loss",
           "margin_ranking_loss", "kl_div",
           "nll_loss", "cross_entropy", "cosine_similarity", "dense", "bias_add", "hardtanh",
           "softsign", "selu", "celu", "logsigmoid", "hardsigmoid", "softmin", "softshrink",
           "hardshrink", "tanhshrink", "glu", "threshold"]
