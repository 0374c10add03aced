"""The functions behind more of ``mindspore.nn``'s layers: activations (``prelu``,
``rrelu``, ``soft_shrink``, ``fast_gelu``), normalisations (``group_norm``, ``lrn``;
MindSpore's CPU build has no kernel for ``layer_norm``), channel dropouts
(``dropout1d``, ``dropout2d``, ``dropout3d``), ``clip_by_norm`` and ``bidense``.

Each is a composition of differentiable operators, so its derivatives (reverse, forward,
vmap, Taylor) are those of the operators it is made of."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..core.tensor import Tensor
from . import functional as F
from .functional import _composite
from .math_functions import dropout
from .nn_functions import _float, softshrink
from .random_ops import uniform


def _number(v: Any, op: str, arg: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"For '{op}', '{arg}' must be an int or a float, but got "
                        f"{type(v).__name__}.")
    return float(v)


# --- activations ------------------------------------------------------------------------------
@_composite
def prelu(input: Any, weight: Any) -> Tensor:
    """``input`` where positive, else ``weight * input``; ``weight`` is 1-D with one slope
    (shared) or one per channel (axis 1 of ``input``)."""
    x, w = _float(input, "prelu", "input"), _float(weight, "prelu", "weight")
    channels = x.shape[1] if x.ndim >= 2 else 1
    if w.ndim > 1 or w.size not in (1, channels):
        raise ValueError(f"For 'prelu', 'weight' must be 1-D of size 1 or of the channels of "
                         f"'input' ({channels}, axis 1 of shape {list(x.shape)}), but got "
                         f"shape {list(w.shape)}.")
    if w.dtype != x.dtype:
        raise TypeError(f"For 'prelu', 'weight' must have the dtype of 'input', {x.dtype}, "
                        f"but got {w.dtype}.")
    if x.ndim >= 2 and w.size > 1:
        w = F.reshape(w, (-1,) + (1,) * (x.ndim - 2))
    elif w.ndim:
        w = F.reshape(w, ())
    return F.select(F.greater(x, 0.0), x, F.mul(w, x))


def _slopes(lower: Any, upper: Any, op: str) -> tuple:
    lo, hi = _number(lower, op, "lower"), _number(upper, op, "upper")
    if lo > hi:
        raise ValueError(f"For '{op}', 'lower' must not exceed 'upper', but got lower={lo} "
                         f"and upper={hi}.")
    return lo, hi


@_composite
def rrelu(input: Any, lower: float = 1.0 / 8, upper: float = 1.0 / 3) -> Tensor:
    """``input`` where non-negative, else ``a * input`` with ``a`` drawn uniformly from
    ``[lower, upper)`` for each element (on every call, as MindSpore does, in training and
    inference alike); the gradient is the drawn slope."""
    x = _float(input, "rrelu", "input")
    lo, hi = _slopes(lower, upper, "rrelu")
    a = uniform(tuple(x.shape), Tensor(lo, x.dtype), Tensor(hi, x.dtype), dtype=x.dtype)
    return F.select(F.greater_equal(x, 0.0), x, F.mul(a, x))


@_composite
def soft_shrink(input: Any, lambd: float = 0.5) -> Tensor:
    """MindSpore's other name of ``softshrink``."""
    return softshrink(input, lambd)


@_composite
def fast_gelu(x: Any) -> Tensor:
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``: GELU through a sigmoid."""
    t = _float(x, "fast_gelu", "x")
    if t._data.dtype not in (np.float16, np.float32):
        raise TypeError(f"For 'fast_gelu', 'x' must be a float16 or float32 Tensor, but got "
                        f"{t.dtype}.")
    a = F.abs(t)
    return F.mul(F.div(t, F.add(F.exp(F.mul(a, -1.702)), 1.0)),
                 F.exp(F.mul(F.sub(t, a), 0.851)))


# --- normalisation ----------------------------------------------------------------------------
def _standardize(x: Tensor, axes: tuple, eps: float) -> Tensor:
    """``(x - mean) / sqrt(var + eps)`` over ``axes`` (the biased variance)."""
    mean = F.reduce_mean(x, axes, True)
    centred = F.sub(x, mean)
    var = F.reduce_mean(F.square(centred), axes, True)
    return F.mul(centred, F.rsqrt(F.add(var, eps)))


def _affine(y: Tensor, weight: Any, bias: Any, shape: tuple, op: str) -> Tensor:
    """``y * weight + bias``, each (when given) of ``shape``'s size, reshaped to ``shape``."""
    for arg, v in (("weight", weight), ("bias", bias)):
        if v is None:
            continue
        t = _float(v, op, arg)
        if t.size != _size(shape):
            raise ValueError(f"For '{op}', '{arg}' must have {_size(shape)} elements (shape "
                             f"{[s for s in shape if s != 1]}), but got shape {list(t.shape)}.")
        t = F.reshape(F.cast(t, y.dtype), shape)
        y = F.mul(y, t) if arg == "weight" else F.add(y, t)
    return y


def _size(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _eps(eps: Any, op: str) -> float:
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or eps <= 0:
        raise ValueError(f"For '{op}', 'eps' must be a positive number, but got {eps!r}.")
    return float(eps)


@_composite
def group_norm(input: Any, num_groups: int, weight: Any = None, bias: Any = None,
               eps: float = 1e-5) -> Tensor:
    """``input`` (``(N, C, ...)``) normalised over each group of ``C / num_groups``
    channels together with the other axes, then scaled by ``weight`` and shifted by ``bias``
    (one value per channel)."""
    op = "group_norm"
    x = _float(input, op, "input")
    if x.ndim < 2:
        raise ValueError(f"For '{op}', 'input' must have shape (N, C, ...), but got "
                         f"{list(x.shape)}.")
    if not F._is_int(num_groups) or num_groups <= 0 or x.shape[1] % num_groups:
        raise ValueError(f"For '{op}', 'num_groups' must be a positive int dividing the "
                         f"{x.shape[1]} channels of 'input' {list(x.shape)}, but got "
                         f"{num_groups!r}.")
    n, c = x.shape[0], x.shape[1]
    g = F.reshape(x, (n, num_groups, -1))
    y = F.reshape(_standardize(g, (2,), _eps(eps, op)), tuple(x.shape))
    return _affine(y, weight, bias, (c,) + (1,) * (x.ndim - 2), op)


@_composite
def lrn(x: Any, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0,
        beta: float = 0.5, norm_region: str = "ACROSS_CHANNELS") -> Tensor:
    """Local response normalisation of ``(N, C, H, W)`` ``x`` across channels:
    ``x / (bias + alpha * s) ** beta``, with ``s`` the sum of squares over the channels
    within ``depth_radius`` of each channel."""
    op = "lrn"
    t = _float(x, op, "x")
    if t.ndim != 4:
        raise ValueError(f"For '{op}', 'x' must be 4-D (N, C, H, W), but got shape "
                         f"{list(t.shape)}.")
    if not F._is_int(depth_radius) or depth_radius < 0:
        raise ValueError(f"For '{op}', 'depth_radius' must be a non-negative int, but got "
                         f"{depth_radius!r}.")
    b, a, p = _number(bias, op, "bias"), _number(alpha, op, "alpha"), _number(beta, op, "beta")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For '{op}', 'norm_region' must be 'ACROSS_CHANNELS', but got "
                         f"{norm_region!r}.")
    c, r = t.shape[1], int(depth_radius)
    sq = F.pad(F.square(t), (0, 0, 0, 0, r, r))  # the last axis first
    window = F.reduce_sum(F.stack([sq[:, k:k + c] for k in range(2 * r + 1)], 0), 0)
    return F.div(t, F.pow(F.add(F.mul(window, a), b), p))


# --- channel dropout --------------------------------------------------------------------------
def _channel_dropout(input: Any, p: float, training: bool, op: str, ranks: tuple) -> Tensor:
    """Whole channels (axis 1 of a batch, axis 0 without one) zeroed with probability
    ``p`` and the rest scaled by ``1 / (1 - p)``, while ``training``."""
    x = _float(input, op, "input")
    if x.ndim not in ranks:
        raise ValueError(f"For '{op}', 'input' must have rank {' or '.join(map(str, ranks))}, "
                         f"but got shape {list(x.shape)}.")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise ValueError(f"For '{op}', 'p' must be a number in [0, 1], but got {p!r}.")
    if not F._flag(training, op, "training") or p == 0:
        return x
    lead = 2 if x.ndim == max(ranks) else 1
    keep = dropout(F.ones(tuple(x.shape[:lead]) + (1,) * (x.ndim - lead), x.dtype), p, True)
    return F.mul(x, keep)


@_composite
def dropout1d(input: Any, p: float = 0.5, training: bool = True) -> Tensor:
    """Channel dropout of ``(N, C, L)`` or ``(C, L)`` ``input``."""
    return _channel_dropout(input, p, training, "dropout1d", (2, 3))


@_composite
def dropout2d(input: Any, p: float = 0.5, training: bool = True) -> Tensor:
    """Channel dropout of ``(N, C, H, W)`` ``input``."""
    return _channel_dropout(input, p, training, "dropout2d", (4,))


@_composite
def dropout3d(input: Any, p: float = 0.5, training: bool = True) -> Tensor:
    """Channel dropout of ``(N, C, D, H, W)`` ``input``."""
    return _channel_dropout(input, p, training, "dropout3d", (5,))


# --- clipping and bilinear layers -------------------------------------------------------------
@_composite
def clip_by_norm(x: Any, max_norm: float, norm_type: float = 2.0,
                 error_if_nonfinite: bool = False) -> Any:
    """``x`` (a Tensor or a tuple / list of them) scaled by
    ``min(1, max_norm / (total_norm + 1e-6))``, with ``total_norm`` the ``norm_type``-norm
    of all elements of all of them together."""
    op = "clip_by_norm"
    many = isinstance(x, (tuple, list))
    xs = [_float(t, op, "x") for t in (x if many else (x,))]
    m = _number(max_norm, op, "max_norm")
    p = _number(norm_type, op, "norm_type")
    norms = F.stack([F.norm(F.reshape(t, (-1,)), p) for t in xs])
    total = F.norm(norms, p)
    if error_if_nonfinite and not bool(F.isfinite(total).asnumpy()):
        raise RuntimeError(f"For '{op}', the total norm of order {p} of 'x' is not finite.")
    coef = F.clamp(F.div(m, F.add(total, 1e-6)), None, 1.0)
    out = [F.mul(t, F.cast(coef, t.dtype)) for t in xs]
    return type(x)(out) if many else out[0]


@_composite
def bidense(input1: Any, input2: Any, weight: Any, bias: Any = None) -> Tensor:
    """``y[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] + bias[o]``."""
    op = "bidense"
    a, b = _float(input1, op, "input1"), _float(input2, op, "input2")
    w = _float(weight, op, "weight")
    if w.ndim != 3 or a.ndim == 0 or b.ndim == 0 or a.shape[-1] != w.shape[1] or \
            b.shape[-1] != w.shape[2] or a.shape[:-1] != b.shape[:-1]:
        raise ValueError(f"For '{op}', 'weight' must be (out, in1, in2) with 'input1' "
                         f"(..., in1) and 'input2' (..., in2), but got shapes "
                         f"{list(a.shape)}, {list(b.shape)} and {list(w.shape)}.")
    lead = tuple(a.shape[:-1])
    a2, b2 = F.reshape(a, (-1, a.shape[-1])), F.reshape(b, (-1, b.shape[-1]))
    # (n, in1) @ (in1, out * in2) -> (n, out, in2), then the inner product with input2
    t = F.matmul(a2, F.reshape(F.transpose(w, (1, 0, 2)), (w.shape[1], -1)))
    t = F.reshape(t, (-1, w.shape[0], w.shape[2]))
    y = F.reduce_sum(F.mul(t, F.expand_dims(b2, 1)), 2)
    if bias is not None:
        c = _float(bias, op, "bias")
        if c.shape != (w.shape[0],):
            raise ValueError(f"For '{op}', 'bias' must have shape [{w.shape[0]}], but got "
                             f"{list(c.shape)}.")
        y = F.add(y, c)
    return F.reshape(y, lead + (w.shape[0],))


__all__ = ["prelu", "rrelu", "soft_shrink", "fast_gelu", "group_norm", "lrn",
           "dropout1d", "dropout2d", "dropout3d", "clip_by_norm", "bidense"]
