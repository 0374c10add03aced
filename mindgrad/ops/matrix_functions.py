"""MindSpore's matrix-building and batched-product functions: ``matrix_band_part``,
``matrix_diag``, ``matrix_diag_part``, ``matrix_set_diag``, ``block_diag``, ``cov``,
``addbmm``, ``baddbmm``, ``batch_dot``, ``pdist``, ``renorm`` and ``vander``; each a
composition of differentiable operations (masks, gathers, products)."""
from __future__ import annotations

import string
from typing import Any

import numpy as np

from ..core.tensor import Tensor
from . import functional as F
from .functional import _composite
from .functional._args import _scalar_value


def _t(x: Any, op: str, arg: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _at_least(x: Tensor, n: int, op: str, arg: str) -> Tensor:
    if x.ndim < n:
        raise ValueError(f"For '{op}', '{arg}' must have at least {n} dimensions, but got "
                         f"shape {list(x.shape)}.")
    return x


def _int_value(v: Any, op: str, arg: str) -> int:
    if isinstance(v, Tensor):
        if v._data.dtype.kind not in "iu" or v.size != 1:
            raise TypeError(f"For '{op}', '{arg}' must be an int or a one-element integer "
                            f"Tensor, but got {v.dtype} of shape {list(v.shape)}.")
        return int(v.asnumpy().reshape(()))
    if not F._is_int(v):
        raise TypeError(f"For '{op}', '{arg}' must be an int, but got {type(v).__name__}.")
    return int(v)


def _number_value(v: Any, op: str, arg: str) -> Any:
    if isinstance(v, Tensor):
        if v.size != 1:
            raise ValueError(f"For '{op}', '{arg}' must have one element, but got shape "
                             f"{list(v.shape)}.")
        return v.asnumpy().reshape(()).item()
    return _scalar_value(v, op, arg)


# --- bands and diagonals ----------------------------------------------------------------------
@_composite
def matrix_band_part(x: Any, lower: Any, upper: Any) -> Tensor:
    """``x`` with every element outside the band ``-lower <= j - i <= upper`` set to 0 (a
    negative bound keeps that whole triangle)."""
    t = _at_least(_t(x, "matrix_band_part", "x"), 2, "matrix_band_part", "x")
    lo = _int_value(lower, "matrix_band_part", "lower")
    hi = _int_value(upper, "matrix_band_part", "upper")
    m, n = t.shape[-2:]
    d = np.arange(n)[None, :] - np.arange(m)[:, None]
    keep = np.ones((m, n), bool)
    if lo >= 0:
        keep &= d >= -lo
    if hi >= 0:
        keep &= d <= hi
    return F.select(F.broadcast_to(Tensor(keep), t.shape), t, F.zeros_like(t))


def _diag_index(m: int, n: int, k: int) -> tuple:
    """For an (m, n) matrix: where diagonal ``k`` lies, and the position along it of each
    element (0 off the diagonal)."""
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    on = (j - i) == k
    pos = np.where(on, np.minimum(i, j), 0)
    return on, pos


def _align(align: str, op: str) -> None:
    if align not in ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"):
        raise ValueError(f"For '{op}', 'align' must be one of 'RIGHT_LEFT', 'LEFT_RIGHT', "
                         f"'LEFT_LEFT', 'RIGHT_RIGHT', but got {align!r}.")


def _one_k(k: Any, op: str) -> int:
    if isinstance(k, Tensor) and k.size > 1 or isinstance(k, (tuple, list)):
        raise ValueError(f"For '{op}', mindgrad supports a single diagonal 'k' (an int or a "
                         f"one-element Tensor), but got a range {k!r}.")
    return _int_value(k, op, "k")


def _take_along_diag(v: Tensor, on: np.ndarray, pos: np.ndarray, fill: Tensor) -> Tensor:
    """The (…, m, n) matrix with ``v[..., pos]`` on the diagonal ``on`` and ``fill`` off
    it."""
    got = F.gather(v, Tensor(pos.reshape(-1).astype(np.int64)), v.ndim - 1)
    got = F.reshape(got, v.shape[:-1] + on.shape)
    return F.select(F.broadcast_to(Tensor(on), got.shape), got, fill)


@_composite
def matrix_diag(x: Any, k: Any = 0, num_rows: Any = -1, num_cols: Any = -1,
                padding_value: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """Matrices with ``x``'s last axis on their diagonal ``k``, ``padding_value``
    elsewhere; the smallest fitting size unless ``num_rows`` / ``num_cols`` are given."""
    t = _at_least(_t(x, "matrix_diag", "x"), 1, "matrix_diag", "x")
    _align(align, "matrix_diag")
    kk = _one_k(k, "matrix_diag")
    size = t.shape[-1]
    rows = _int_value(num_rows, "matrix_diag", "num_rows")
    cols = _int_value(num_cols, "matrix_diag", "num_cols")
    rows = size + max(-kk, 0) if rows == -1 else rows
    cols = size + max(kk, 0) if cols == -1 else cols
    if min(rows + min(kk, 0), cols - max(kk, 0)) != size:
        raise ValueError(f"For 'matrix_diag', a ({rows}, {cols}) matrix has no diagonal {kk} "
                         f"of length {size} (the length of the last axis of 'x' "
                         f"{list(t.shape)}).")
    on, pos = _diag_index(rows, cols, kk)
    fill = F.cast(Tensor(np.asarray(_number_value(padding_value, "matrix_diag",
                                                  "padding_value"))), t.dtype)
    return _take_along_diag(t, on, pos, fill)


@_composite
def matrix_diag_part(x: Any, k: Any, padding_value: Any, align: str = "RIGHT_LEFT") -> Tensor:
    """Diagonal ``k`` of the last two axes of ``x``."""
    t = _at_least(_t(x, "matrix_diag_part", "x"), 2, "matrix_diag_part", "x")
    _align(align, "matrix_diag_part")
    kk = _one_k(k, "matrix_diag_part")
    _number_value(padding_value, "matrix_diag_part", "padding_value")
    m, n = t.shape[-2:]
    if not -m < kk < n:
        raise ValueError(f"For 'matrix_diag_part', 'k' must be in ({-m}, {n}) for a matrix "
                         f"of shape ({m}, {n}), but got {kk}.")
    length = min(m + min(kk, 0), n - max(kk, 0))
    i = np.arange(length) + max(-kk, 0)
    j = np.arange(length) + max(kk, 0)
    flat = F.reshape(t, t.shape[:-2] + (m * n,))
    return F.gather(flat, Tensor((i * n + j).astype(np.int64)), t.ndim - 2)


@_composite
def matrix_set_diag(x: Any, diagonal: Any, k: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """``x`` with its diagonal ``k`` replaced by ``diagonal``."""
    t = _at_least(_t(x, "matrix_set_diag", "x"), 2, "matrix_set_diag", "x")
    d = _t(diagonal, "matrix_set_diag", "diagonal")
    _align(align, "matrix_set_diag")
    kk = _one_k(k, "matrix_set_diag")
    m, n = t.shape[-2:]
    length = min(m + min(kk, 0), n - max(kk, 0))
    if d.shape != t.shape[:-2] + (length,):
        raise ValueError(f"For 'matrix_set_diag', 'diagonal' must have shape "
                         f"{list(t.shape[:-2]) + [length]} for 'x' {list(t.shape)} and k={kk}, "
                         f"but got {list(d.shape)}.")
    on, pos = _diag_index(m, n, kk)
    return _take_along_diag(F.cast(d, t.dtype), on, pos, t)


@_composite
def block_diag(*inputs: Any) -> Tensor:
    """The block-diagonal matrix of the given 0-, 1- or 2-D tensors (a 0-D one is 1 x 1, a
    1-D one a row)."""
    if not inputs:
        raise ValueError("For 'block_diag', at least one input is required.")
    mats = []
    for k, x in enumerate(inputs):
        t = _t(x, "block_diag", f"inputs[{k}]")
        if t.ndim > 2:
            raise ValueError(f"For 'block_diag', each input must be at most 2-D, but input {k} "
                             f"has shape {list(t.shape)}.")
        mats.append(F.reshape(t, (1, 1) if t.ndim == 0 else (1, t.shape[0]) if t.ndim == 1
                              else t.shape))
    dt = mats[0].dtype
    width = sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        right = width - left - m.shape[1]
        rows.append(F.pad(F.cast(m, dt), (left, right)))
        left += m.shape[1]
    return F.concat(rows, 0)


# --- statistics and batched products ----------------------------------------------------------
@_composite
def cov(input: Any, *, correction: int = 1, fweights: Any = None,  # noqa: A002
        aweights: Any = None) -> Tensor:
    """The covariance of the variables in the rows of ``input`` (observations in columns),
    with frequency weights ``fweights`` and observation weights ``aweights``;
    ``correction`` 1 is Bessel's, 0 the population covariance."""
    x = _t(input, "cov", "input")
    if x.ndim > 2:
        raise ValueError(f"For 'cov', 'input' must be at most 2-D, but got shape "
                         f"{list(x.shape)}.")
    if not F._is_int(correction):
        raise TypeError(f"For 'cov', 'correction' must be an int, but got "
                        f"{type(correction).__name__}.")
    if x._data.dtype.kind != "f":
        x = F.cast(x, np.float32)
    x = F.reshape(x, (1, -1)) if x.ndim < 2 else x
    n = x.shape[1]
    if n == 0:  # no observations: no mean, no covariance (NaN, as NumPy's)
        nan = F.fill(x.dtype, (x.shape[0], x.shape[0]), float("nan"))
        return F.reshape(nan, ()) if input.ndim < 2 else nan
    w = None
    for arg, v in (("fweights", fweights), ("aweights", aweights)):
        if v is None:
            continue
        t = _t(v, "cov", arg)
        if t.shape != (n,):
            raise ValueError(f"For 'cov', '{arg}' must have shape [{n}] (one per observation), "
                             f"but got {list(t.shape)}.")
        t = F.cast(t, x.dtype)
        w = t if w is None else F.mul(w, t)
    if w is None:
        avg = F.reduce_mean(x, 1, True)
        fact = float(n - correction)
        xc = F.sub(x, avg)
        c = F.matmul(xc, F.swapaxes(xc, 0, 1))
    else:
        wsum = F.reduce_sum(w)
        avg = F.div(F.reduce_sum(F.mul(x, w), 1, True), wsum)
        if aweights is None or correction == 0:
            fact = F.sub(wsum, float(correction))
        else:
            aw = F.cast(aweights, x.dtype)
            fact = F.sub(wsum, F.mul(F.div(F.reduce_sum(F.mul(w, aw)), wsum),
                                     float(correction)))
        xc = F.sub(x, avg)
        c = F.matmul(F.mul(xc, w), F.swapaxes(xc, 0, 1))
    c = F.div(c, fact)
    return F.reshape(c, ()) if input.ndim < 2 or c.shape == (1, 1) and input.ndim < 2 else c


def _scale_arg(v: Any, op: str, arg: str) -> Any:
    if isinstance(v, bool) or not isinstance(v, (int, float, Tensor)):
        raise TypeError(f"For '{op}', '{arg}' must be a number, but got {type(v).__name__}.")
    return v


def _bmm_pair(b1: Any, b2: Any, op: str) -> tuple:
    a, b = _t(b1, op, "batch1"), _t(b2, op, "batch2")
    if a.ndim != 3 or b.ndim != 3 or a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise ValueError(f"For '{op}', 'batch1' (b, n, m) and 'batch2' (b, m, p) must be 3-D "
                         f"and agree, but got shapes {list(a.shape)} and {list(b.shape)}.")
    return a, b


@_composite
def addbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1,  # noqa: A002
           alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * sum_i batch1[i] @ batch2[i]``."""
    a, b = _bmm_pair(batch1, batch2, "addbmm")
    x = _t(input, "addbmm", "input")
    prod = F.reduce_sum(F.matmul(a, b), 0)
    return F.add(F.mul(x, _scale_arg(beta, "addbmm", "beta")),
                 F.mul(prod, _scale_arg(alpha, "addbmm", "alpha")))


@_composite
def baddbmm(input: Any, batch1: Any, batch2: Any, beta: Any = 1,  # noqa: A002
            alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)``, batch by batch."""
    a, b = _bmm_pair(batch1, batch2, "baddbmm")
    x = _t(input, "baddbmm", "input")
    return F.add(F.mul(x, _scale_arg(beta, "baddbmm", "beta")),
                 F.mul(F.matmul(a, b), _scale_arg(alpha, "baddbmm", "alpha")))


@_composite
def batch_dot(x1: Any, x2: Any, axes: Any = None) -> Tensor:
    """For each index of the first axis, the dot product of ``x1[i]`` and ``x2[i]`` over
    the axes ``axes`` (an int for both, or a pair; by default the last of ``x1`` and the
    last, or for 3-D and higher the second last, of ``x2``). A result with one axis gets a
    second of size 1."""
    a, b = _t(x1, "batch_dot", "x1"), _t(x2, "batch_dot", "x2")
    if a.ndim < 2 or b.ndim < 2 or a.shape[0] != b.shape[0]:
        raise ValueError(f"For 'batch_dot', 'x1' and 'x2' must be at least 2-D with the same "
                         f"first (batch) axis, but got shapes {list(a.shape)} and "
                         f"{list(b.shape)}.")
    if a.dtype != b.dtype:
        raise TypeError(f"For 'batch_dot', 'x1' and 'x2' must have the same dtype, but got "
                        f"{a.dtype} and {b.dtype}.")
    if axes is None:
        axes = (a.ndim - 1, b.ndim - 1 if b.ndim == 2 else b.ndim - 2)
    elif F._is_int(axes):
        axes = (axes, axes)
    if not isinstance(axes, (tuple, list)) or len(axes) != 2:
        raise ValueError(f"For 'batch_dot', 'axes' must be None, an int or a pair of ints, "
                         f"but got {axes!r}.")
    ax = F._axis(axes[0], a.ndim, "batch_dot", "axes")
    bx = F._axis(axes[1], b.ndim, "batch_dot", "axes")
    if ax == 0 or bx == 0 or a.shape[ax] != b.shape[bx]:
        raise ValueError(f"For 'batch_dot', 'axes' {tuple(axes)} must name non-batch axes of "
                         f"equal length, but got shapes {list(a.shape)} and {list(b.shape)}.")
    letters = iter(string.ascii_letters[1:])
    sa = ["a"] + [next(letters) for _ in range(a.ndim - 1)]
    sb = ["a"] + [next(letters) for _ in range(b.ndim - 1)]
    sb[bx] = sa[ax]
    out = [c for c in sa if c != sa[ax]] + [c for c in sb[1:] if c != sa[ax]]
    r = F.einsum(f"{''.join(sa)},{''.join(sb)}->{''.join(out)}", a, b)
    return F.expand_dims(r, 1) if r.ndim == 1 else r


@_composite
def pdist(input: Any, p: float = 2.0) -> Tensor:  # noqa: A002
    """The ``p``-norm distances between every pair of rows ``i < j`` of ``input`` (N, M):
    (N (N - 1) / 2,), in row-major order of the pairs."""
    x = _t(input, "pdist", "input")
    if x.ndim != 2:
        raise ValueError(f"For 'pdist', 'input' must be 2-D (N, M), but got shape "
                         f"{list(x.shape)}.")
    if x._data.dtype.kind != "f":
        raise TypeError(f"For 'pdist', 'input' must be a float Tensor, but got {x.dtype}.")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0:
        raise ValueError(f"For 'pdist', 'p' must be a non-negative number, but got {p!r}.")
    n = x.shape[-2]
    i, j = np.triu_indices(n, 1)
    xi = F.gather(x, Tensor(i.astype(np.int64)), x.ndim - 2)
    xj = F.gather(x, Tensor(j.astype(np.int64)), x.ndim - 2)
    diff = F.sub(xi, xj)
    if p == 2:  # 0 (not NaN) as the derivative at a zero distance
        sq = F.reduce_sum(F.square(diff), -1)
        zero = F.equal(sq, 0)
        return F.select(zero, F.zeros_like(sq), F.sqrt(F.select(zero, F.ones_like(sq), sq)))
    return F.norm(diff, float(p), -1)


@_composite
def renorm(input: Any, p: int, axis: int, maxnorm: float) -> Tensor:  # noqa: A002
    """Each slice of ``input`` along ``axis`` whose ``p``-norm exceeds ``maxnorm``, scaled
    down to norm ``maxnorm`` (the others unchanged)."""
    x = _t(input, "renorm", "input")
    if x._data.dtype.kind != "f":
        raise TypeError(f"For 'renorm', 'input' must be a float Tensor, but got {x.dtype}.")
    if not F._is_int(p) or p <= 0:
        raise ValueError(f"For 'renorm', 'p' must be a positive int, but got {p!r}.")
    mx = F._float_param(maxnorm, "renorm", "maxnorm")
    if mx < 0:
        raise ValueError(f"For 'renorm', 'maxnorm' must be non-negative, but got {maxnorm}.")
    ax = F._axis(axis, x.ndim, "renorm", "axis")
    others = tuple(d for d in range(x.ndim) if d != ax)
    absx = F.abs(x)
    norm = F.pow(F.reduce_sum(F.pow(absx, float(p)) if p != 1 else absx, others, True),
                 1.0 / p) if others else absx
    over = F.greater(norm, mx)
    scale = F.select(over, F.div(mx, F.add(norm, 1e-7)), F.ones_like(norm))
    return F.mul(x, scale)


@_composite
def vander(x: Any, N: Any = None) -> Tensor:  # noqa: N803
    """The Vandermonde matrix of the 1-D ``x``: columns ``x^(N-1), ..., x, 1`` (``N``
    defaults to ``len(x)``)."""
    t = _t(x, "vander", "x")
    if t.ndim != 1:
        raise ValueError(f"For 'vander', 'x' must be 1-D, but got shape {list(t.shape)}.")
    n = t.shape[0] if N is None else N
    if not F._is_int(n) or n < 0:
        raise ValueError(f"For 'vander', 'N' must be a non-negative int, but got {N!r}.")
    if n == 0:
        return F.zeros((t.shape[0], 0), t.dtype)
    cols = [F.ones_like(t)]
    for _ in range(1, n):
        cols.append(F.mul(cols[-1], t))
    return F.stack(cols[::-1], 1)


__all__ = ["matrix_band_part", "matrix_diag", "matrix_diag_part", "matrix_set_diag",
           "block_diag", "cov", "addbmm", "baddbmm", "batch_dot", "pdist", "renorm", "vander"]
