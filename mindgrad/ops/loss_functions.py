"""More of MindSpore's loss functions: ``gaussian_nll_loss``, ``hinge_embedding_loss``,
``multi_margin_loss``, ``multilabel_soft_margin_loss``, ``cosine_embedding_loss`` and
``ctc_loss``, with one the nn loss Cells use (``poisson_nll_loss``). (MindSpore's CPU build
has no kernel for ``multilabel_margin_loss`` and ``triplet_margin_loss``; they are left out.)

Each is a composition of differentiable operators (``ctc_loss`` runs its forward recursion
as one operation per time step), so its derivatives are those of the operators it is made
of. ``reduction`` is ``'mean'`` (over all elements), ``'sum'`` or ``'none'``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.tensor import Tensor
from ..prims import indexing as IX
from . import functional as F
from .functional import _composite
from .nn_functions import _float, _pair, _reduce, _reduction
from .sorting import gather_elements

# a log-probability that stands for log(0) in the CTC recursion: finite, so that gradients
# through unreachable paths are exact zeros rather than NaN
_LOG_ZERO = -1e30


def _int_targets(t: Any, op: str, arg: str = "target") -> Tensor:
    t = F._tensor(t, op, arg)
    if t._data.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', '{arg}' must be an integer Tensor, but got {t.dtype}.")
    return t


def _margin(v: Any, op: str, arg: str = "margin") -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"For '{op}', '{arg}' must be a float, but got {type(v).__name__}.")
    return float(v)


@_composite
def gaussian_nll_loss(x: Any, target: Any, var: Any, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    """``0.5 (log(max(var, eps)) + (x - target)**2 / max(var, eps))`` (plus
    ``0.5 log(2 pi)`` with ``full``); ``var`` may lack the last axis of ``x``."""
    op = "gaussian_nll_loss"
    a, t = _pair(x, target, op, "x", "target", same=False)
    v = _float(var, op, "var")
    if not isinstance(full, bool):
        raise TypeError(f"For '{op}', 'full' must be a bool, but got {type(full).__name__}.")
    if isinstance(eps, bool) or not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For '{op}', 'eps' must be a positive float, but got {eps!r}.")
    reduction = _reduction(reduction, op)
    if v.shape != a.shape and a.ndim and v.shape == a.shape[:-1]:
        v = F.expand_dims(v, -1)
    F._broadcast_shapes(op, ("x", a), ("var", v))
    v = F.maximum(F.cast(v, a.dtype), eps)
    loss = F.mul(F.add(F.log(v), F.div(F.square(F.sub(a, t)), v)), 0.5)
    if full:
        loss = F.add(loss, 0.5 * math.log(2 * math.pi))
    return _reduce(loss, reduction)


@_composite
def hinge_embedding_loss(inputs: Any, targets: Any, margin: float = 1.0,
                         reduction: str = "mean") -> Tensor:
    """``inputs`` where ``targets`` is 1 and ``max(0, margin - inputs)`` where it is -1."""
    op = "hinge_embedding_loss"
    x, y = _pair(inputs, targets, op, "inputs", "targets", same=False)
    m = _margin(margin, op)
    reduction = _reduction(reduction, op)
    pos = F.cast(F.greater(y, 0.0), x.dtype)
    neg = F.cast(F.less(y, 0.0), x.dtype)
    loss = F.add(F.mul(pos, x), F.relu(F.mul(neg, F.sub(m, x))))
    return _reduce(loss, reduction)


def _class_mask(t: Tensor, x: Tensor, op: str) -> Tensor:
    """The one-hot float mask of class indices ``t`` (``(N,)``) over ``x``'s ``(N, C)``."""
    if t.shape != x.shape[:1]:
        raise ValueError(f"For '{op}', 'target' must have shape [{x.shape[0]}] (one class per "
                         f"row of 'input' {list(x.shape)}), but got {list(t.shape)}.")
    IX.checked_indices(t, x.shape[1], op, "each value of 'target'")
    return F.cast(F.one_hot(t, x.shape[1], 1, 0, -1), x.dtype)


@_composite
def multi_margin_loss(input: Any, target: Any, p: int = 1, margin: float = 1,
                      weight: Any = None, reduction: str = "mean") -> Tensor:
    """Per row ``sum_{j != y} max(0, margin - x[y] + x[j])**p / C``, times ``weight[y]``."""
    op = "multi_margin_loss"
    x = _float(input, op, "input")
    if x.ndim != 2:
        raise ValueError(f"For '{op}', 'input' must be 2-D (N, C), but got shape "
                         f"{list(x.shape)}.")
    if p not in (1, 2) or isinstance(p, bool):
        raise ValueError(f"For '{op}', 'p' must be 1 or 2, but got {p!r}.")
    m = _margin(margin, op)
    reduction = _reduction(reduction, op)
    mask = _class_mask(_int_targets(target, op), x, op)
    xy = F.reduce_sum(F.mul(x, mask), 1, True)
    z = F.relu(F.add(F.sub(x, xy), m))
    if p == 2:
        z = F.square(z)
    z = F.mul(z, F.sub(1.0, mask))
    if weight is not None:
        w = _float(weight, op, "weight")
        if w.shape != (x.shape[1],):
            raise ValueError(f"For '{op}', 'weight' must have shape [{x.shape[1]}], but got "
                             f"{list(w.shape)}.")
        z = F.mul(z, F.reduce_sum(F.mul(mask, F.cast(w, x.dtype)), 1, True))
    return _reduce(F.div(F.reduce_sum(z, 1), float(x.shape[1])), reduction)


@_composite
def multilabel_soft_margin_loss(input: Any, target: Any, weight: Any = None,
                                reduction: str = "mean") -> Tensor:
    """``mean_c(y log(1 + exp(-x)) + (1 - y) log(1 + exp(x)))`` (weighted per class) over
    the last axis, then reduced."""
    op = "multilabel_soft_margin_loss"
    x, y = _pair(input, target, op)
    reduction = _reduction(reduction, op)
    loss = F.add(F.mul(y, F.softplus(F.neg(x))), F.mul(F.sub(1.0, y), F.softplus(x)))
    if weight is not None:
        w = _float(weight, op, "weight")
        F._broadcast_shapes(op, ("input", x), ("weight", w))
        loss = F.mul(loss, F.cast(w, x.dtype))
    c = x.shape[-1] if x.ndim else 1
    return _reduce(F.div(F.reduce_sum(loss, -1 if x.ndim else ()), float(c)), reduction)


@_composite
def cosine_embedding_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                          reduction: str = "mean") -> Tensor:
    """``1 - cos`` where ``target`` is 1 and ``max(0, cos - margin)`` where it is -1, with
    ``cos`` the cosine similarity of the inputs along axis 1."""
    op = "cosine_embedding_loss"
    a, b = _pair(input1, input2, op, "input1", "input2")
    y = F._tensor(target, op, "target")
    if a.ndim < 2 or y.shape != a.shape[:1] + a.shape[2:]:
        raise ValueError(f"For '{op}', 'target' must have the shape of 'input1' "
                         f"{list(a.shape)} without axis 1, but got {list(y.shape)}.")
    m = _margin(margin, op)
    if not -1.0 <= m <= 1.0:
        raise ValueError(f"For '{op}', 'margin' must be in [-1, 1], but got {m}.")
    reduction = _reduction(reduction, op)
    dot = F.reduce_sum(F.mul(a, b), 1)
    cos = F.div(dot, F.mul(F.sqrt(F.reduce_sum(F.square(a), 1)),
                           F.sqrt(F.reduce_sum(F.square(b), 1))))
    zero = F.zeros_like(cos)
    loss = F.add(F.select(F.equal(y, 1), F.sub(1.0, cos), zero),
                 F.select(F.equal(y, -1), F.relu(F.sub(cos, m)), zero))
    return _reduce(loss, reduction)


@_composite
def poisson_nll_loss(input: Any, target: Any, log_input: bool = True, full: bool = False,
                     eps: float = 1e-8, reduction: str = "mean") -> Tensor:
    """``exp(x) - t x`` (``log_input``) or ``x - t log(x + eps)``; ``full`` adds Stirling's
    ``t log t - t + 0.5 log(2 pi t)`` where ``t > 1``."""
    op = "poisson_nll_loss"
    x, t = _pair(input, target, op, same=False)
    reduction = _reduction(reduction, op)
    if log_input:
        loss = F.sub(F.exp(x), F.mul(t, x))
    else:
        loss = F.sub(x, F.mul(t, F.log(F.add(x, float(eps)))))
    if full:
        big = F.greater(t, 1.0)
        safe = F.select(big, t, F.ones_like(t))
        stirling = F.add(F.sub(F.mul(safe, F.log(safe)), safe),
                         F.mul(F.log(F.mul(safe, 2 * math.pi)), 0.5))
        loss = F.add(loss, F.select(big, stirling, F.zeros_like(stirling)))
    return _reduce(loss, reduction)


# --- CTC --------------------------------------------------------------------------------------
def _ctc_args(log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any,
              blank: int, reduction: str, op: str) -> tuple:
    lp = _float(log_probs, op, "log_probs")
    if lp.ndim != 3:
        raise ValueError(f"For '{op}', 'log_probs' must be 3-D (T, N, C), but got shape "
                         f"{list(lp.shape)}.")
    tt = _int_targets(targets, op, "targets")
    n, c = lp.shape[1], lp.shape[2]
    if tt.ndim != 2 or tt.shape[0] != n:
        raise ValueError(f"For '{op}', 'targets' must be 2-D (N, S) with N = {n}, but got "
                         f"shape {list(tt.shape)}.")
    lens = []
    for arg, v, top in (("input_lengths", input_lengths, lp.shape[0]),
                        ("target_lengths", target_lengths, tt.shape[1])):
        a = np.asarray(v.asnumpy() if isinstance(v, Tensor) else v).reshape(-1)
        if a.dtype.kind not in "iu" or a.shape != (n,) or (a < 0).any() or (a > top).any():
            raise ValueError(f"For '{op}', '{arg}' must hold {n} integers in [0, {top}], "
                             f"but got {a.tolist()}.")
        lens.append(a.astype(np.int64))
    if not F._is_int(blank) or not 0 <= blank < c:
        raise ValueError(f"For '{op}', 'blank' must be an int in [0, {c}), but got {blank!r}.")
    IX.checked_indices(tt, c, op, "each value of 'targets'")
    return lp, tt, lens[0], lens[1], _reduction(reduction, op)


def ctc_forward(lp: Tensor, targets: Tensor, in_len: np.ndarray, tgt_len: np.ndarray,
                blank: int) -> tuple:
    """``(negative log likelihood per sample, log alpha (N, T, 2S + 1))`` of the CTC
    forward recursion over the blank-extended targets."""
    steps, n, c = lp.shape
    s_max = targets.shape[1]
    width = 2 * s_max + 1
    ext = np.full((n, width), blank, np.int64)              # blank, l1, blank, l2, ...
    tnp = np.asarray(targets.asnumpy(), np.int64)
    ext[:, 1::2] = tnp
    # where a path may skip the blank between two different labels
    skip = np.zeros((n, width), bool)
    skip[:, 3::2] = tnp[:, 1:] != tnp[:, :-1]
    pos = np.arange(width)
    live = pos[None, :] < (2 * tgt_len[:, None] + 1)         # positions of each sample
    emit = gather_elements(lp, 2, Tensor(np.broadcast_to(ext[None], (steps, n, width))
                                           .astype(np.int64)))  # (T, N, W)
    dt = lp.dtype
    neg = Tensor(np.full((n, width), _LOG_ZERO, np.dtype(lp._data.dtype)))
    start = np.zeros((n, width), bool)
    start[:, :2] = True
    start &= live
    alpha = F.select(Tensor(start), emit[0], neg)
    alphas = [alpha]
    skip_t, live_t = Tensor(skip), Tensor(live)
    pad1 = Tensor(np.full((n, 1), _LOG_ZERO, np.dtype(lp._data.dtype)))
    pad2 = Tensor(np.full((n, 2), _LOG_ZERO, np.dtype(lp._data.dtype)))
    for t in range(1, steps):
        prev1 = F.concat([pad1, alpha[:, :-1]], 1)
        prev2 = F.select(skip_t, F.concat([pad2, alpha[:, :-2]], 1), neg)
        new = F.add(F.logsumexp(F.stack([alpha, prev1, prev2], 0), 0), emit[t])
        new = F.select(live_t, new, neg)
        running = Tensor((t < in_len)[:, None] & np.ones((1, width), bool))
        alpha = F.select(running, new, alpha)
        alphas.append(F.select(running, new, neg))  # past a sample's input: log(0)
    last = np.zeros((n, width), bool)
    last[np.arange(n), 2 * tgt_len] = True
    last[np.arange(n), np.maximum(2 * tgt_len - 1, 0)] = True
    ends = F.select(Tensor(last), alpha, neg)
    nll = F.neg(F.logsumexp(ends, 1))
    # samples with no input steps have no path; unreachable ends stay near -_LOG_ZERO
    nll = F.select(F.greater(nll, -_LOG_ZERO / 2), F.cast(F.full(nll.shape, math.inf), dt),
                   nll)
    zero_steps = Tensor(in_len == 0)
    nll = F.select(zero_steps, F.cast(F.full(nll.shape, math.inf), dt), nll)
    log_alpha = F.stack(alphas, 1)
    log_alpha = F.select(F.less(log_alpha, _LOG_ZERO / 2),
                         F.cast(F.full(log_alpha.shape, -math.inf), dt), log_alpha)
    return nll, log_alpha


@_composite
def ctc_loss(log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any,
             blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> tuple:
    """The connectionist temporal classification loss of ``log_probs`` (``(T, N, C)``,
    log-probabilities) against padded ``targets`` (``(N, S)``): ``(loss, log_alpha)``.
    ``'mean'`` divides each sample's loss by its target length (at least 1) before the
    mean; ``zero_infinity`` gives 0 for impossible alignments."""
    op = "ctc_loss"
    lp, tt, in_len, tgt_len, reduction = _ctc_args(log_probs, targets, input_lengths,
                                                   target_lengths, blank, reduction, op)
    if not isinstance(zero_infinity, bool):
        raise TypeError(f"For '{op}', 'zero_infinity' must be a bool, but got "
                        f"{type(zero_infinity).__name__}.")
    nll, log_alpha = ctc_forward(lp, tt, in_len, tgt_len, int(blank))
    if zero_infinity:
        nll = F.select(F.isinf(nll), F.zeros_like(nll), nll)
    if reduction == "mean":
        nll = F.reduce_mean(F.div(nll, Tensor(np.maximum(tgt_len, 1).astype(
            np.dtype(lp._data.dtype)))))
    elif reduction == "sum":
        nll = F.reduce_sum(nll)
    return nll, log_alpha


__all__ = ["gaussian_nll_loss", "hinge_embedding_loss", "multi_margin_loss",
           "multilabel_soft_margin_loss", "cosine_embedding_loss", "ctc_loss"]
