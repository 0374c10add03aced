"""Statistics and counting: ``cov``, ``corrcoef``, ``bincount``, the histograms and the set
functions ``intersect1d`` and ``setdiff1d``. Covariances are differentiable; counts are
integer results; the histogram counts are float32 as MindSpore's are."""
from __future__ import annotations

import builtins as _builtins
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from .. import ops
from ._utils import as_float, common, to_tensor, with_dtype

__all__ = ["cov", "corrcoef", "bincount", "histogram_bin_edges", "histogram", "histogram2d",
           "histogramdd", "intersect1d", "setdiff1d"]


def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: Any = None,
        fweights: Any = None, aweights: Any = None, dtype: Any = None) -> Tensor:
    """The covariance matrix of the variables in the rows (``rowvar``) or columns of ``m``
    (and ``y``), with frequency and analytic weights."""
    x = as_float(to_tensor(m, "cov", "m"))
    if x.ndim > 2:
        raise ValueError(f"For 'cov', 'm' must be 1-D or 2-D, but got shape {x.shape}.")
    x = ops.reshape(x, (1, -1)) if x.ndim < 2 else (x if rowvar else ops.transpose(x, (1, 0)))
    if y is not None:
        yy = as_float(to_tensor(y, "cov", "y"))
        yy = ops.reshape(yy, (1, -1)) if yy.ndim < 2 else (yy if rowvar else
                                                           ops.transpose(yy, (1, 0)))
        x, yy = common([x, yy])
        x = ops.concat([x, yy], 0)
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = as_float(to_tensor(fweights, "cov", "fweights")).astype(x.dtype)
    if aweights is not None:
        a = as_float(to_tensor(aweights, "cov", "aweights")).astype(x.dtype)
        w = a if w is None else w * a
    if ddof is None:
        ddof = 0 if bias else 1
    if w is None:
        avg = ops.mean(x, 1, True)
        fact = float(n - ddof)
        xc = x - avg
        out = ops.matmul(xc, xc, False, True) / fact
    else:
        w_sum = ops.sum(w)
        avg = ops.sum(x * w, 1, True) / w_sum
        if aweights is None or ddof == 0:
            fact = w_sum - float(ddof)
        else:
            fact = w_sum - float(ddof) * ops.sum(w * a) / w_sum
        xc = x - avg
        out = ops.matmul(xc * w, xc, False, True) / fact
    if out.shape == (1, 1):
        out = ops.reshape(out, ())
    return with_dtype(out, dtype, "cov")


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, dtype: Any = None) -> Tensor:
    """The Pearson correlation coefficients (the covariance scaled by the deviations)."""
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return with_dtype(c / c, dtype, "corrcoef")
    d = ops.sqrt(ops.diagonal(c, 0, 0, 1))
    out = c / ops.reshape(d, (-1, 1)) / ops.reshape(d, (1, -1))
    return with_dtype(ops.clip(out, -1.0, 1.0), dtype, "corrcoef")


def bincount(x: Any, weights: Any = None, minlength: int = 0, length: Any = None) -> Tensor:
    """The number of occurrences of each value of the non-negative 1-D integer ``x``
    (summed ``weights`` instead of counts when given); float32 as in MindSpore."""
    t = to_tensor(x, "bincount", "x")
    if t.ndim != 1 or t.dtype.np_dtype.kind not in "iu":
        raise TypeError(f"For 'bincount', 'x' must be a 1-D integer tensor, but got "
                        f"{t.dtype} of shape {t.shape}.")
    v = t.asnumpy()
    if v.size and v.min() < 0:
        raise ValueError("For 'bincount', 'x' must not hold negative values.")
    n = int(max(int(v.max()) + 1 if v.size else 0, int(minlength)))
    if length is not None:
        n = int(length)
    w = ops.ones_like(as_float(t)) if weights is None else as_float(
        to_tensor(weights, "bincount", "weights"))
    if w.shape != t.shape:
        raise ValueError(f"For 'bincount', 'weights' must have the shape of 'x' {t.shape}, "
                         f"but got {w.shape}.")
    if v.size and int(v.max()) >= n:  # values beyond an explicit length are dropped
        keep = ops.lt(t, ops.full_like(t, n))
        t = ops.where(keep, t, ops.zeros_like(t))
        w = ops.where(keep, w, ops.zeros_like(w))
    return ops.tensor_scatter_add(ops.zeros((n,), w.dtype), ops.reshape(
        t.astype(mstype.int64), (-1, 1)), w)


def _range(a: np.ndarray, rng: Any) -> tuple:
    if rng is not None:
        lo, hi = float(rng[0]), float(rng[1])
    elif a.size:
        lo, hi = float(a.min()), float(a.max())
    else:
        lo, hi = 0.0, 1.0
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None,  # noqa: A002
                        weights: Any = None) -> Tensor:
    """The edges of the histogram bins of ``a``: ``bins`` equal ones over ``range`` (the
    data's range), or the given edges."""
    t = ops.reshape(as_float(to_tensor(a, "histogram_bin_edges", "a")), (-1,))
    if isinstance(bins, (int, np.integer)):
        if bins < 1:
            raise ValueError(f"For 'histogram_bin_edges', 'bins' must be positive, got {bins}.")
        lo, hi = _range(t.asnumpy(), range)
        edges = np.linspace(lo, hi, int(bins) + 1)
        return Tensor(edges.astype(t.dtype.np_dtype))
    return as_float(to_tensor(bins, "histogram_bin_edges", "bins"))


def _bin_index(t: Tensor, edges: Tensor) -> Tensor:
    """The bin of each value (the last bin closed), -1 outside the edges."""
    nb = edges.shape[0] - 1
    k = ops.searchsorted(edges, t, right=True, out_int32=True) - 1
    k = ops.where(ops.eq(t, edges[-1]), ops.full_like(k, nb - 1), k)
    out = ops.logical_or(ops.lt(t, edges[0]), ops.gt(t, edges[-1]))
    return ops.where(out, ops.full_like(k, -1), k)


def histogram(a: Any, bins: Any = 10, range: Any = None, weights: Any = None,  # noqa: A002
              density: bool = False) -> tuple:
    """The histogram of ``a``: counts (float32; weighted sums with ``weights``, a density
    with ``density``) and the bin edges."""
    t = ops.reshape(as_float(to_tensor(a, "histogram", "a")), (-1,))
    edges = histogram_bin_edges(t, bins, range)
    t, edges = common([t, edges])
    counts = _counts([_bin_index(t, edges)], [edges.shape[0] - 1], weights, t, "histogram")
    if density:
        counts = counts / ops.sum(counts) / (edges[1:] - edges[:-1])
    return counts, edges


def _counts(idx: list, nbins: list, weights: Any, ref: Tensor, op: str) -> Tensor:
    w = ops.ones_like(ref) if weights is None else ops.reshape(
        as_float(to_tensor(weights, op, "weights")), (-1,)).astype(ref.dtype)
    inside = ops.ones_like(idx[0]).astype(mstype.bool_)
    flat = ops.zeros_like(idx[0])
    for k, n in zip(idx, nbins):
        inside = ops.logical_and(inside, ops.ge(k, ops.zeros_like(k)))
        flat = flat * n + ops.clip(k, 0, None)
    total = int(np.prod(nbins))
    w = ops.where(inside, w, ops.zeros_like(w))
    counts = ops.tensor_scatter_add(ops.zeros((total,), w.dtype),
                                    ops.reshape(flat.astype(mstype.int64), (-1, 1)), w)
    return ops.reshape(counts, tuple(nbins))


def histogramdd(sample: Any, bins: Any = 10, range: Any = None, weights: Any = None,  # noqa: A002
                density: bool = False) -> tuple:
    """The D-dimensional histogram of the ``(N, D)`` ``sample``: counts and a list of the
    edges of each dimension."""
    s = as_float(to_tensor(sample, "histogramdd", "sample"))
    if s.ndim == 1:
        s = ops.reshape(s, (-1, 1))
    if isinstance(sample, (list, tuple)) and all(isinstance(v, Tensor) for v in sample):
        s = ops.transpose(s, (1, 0))
    d = s.shape[1]
    per_bins = bins if isinstance(bins, (list, tuple)) else [bins] * d
    per_range = range if range is not None else [None] * d
    edges = [histogram_bin_edges(s[:, i], per_bins[i], per_range[i]) for i in _builtins.range(d)]
    idx = [_bin_index(s[:, i], e.astype(s.dtype)) for i, e in enumerate(edges)]
    counts = _counts(idx, [e.shape[0] - 1 for e in edges], weights, s[:, 0], "histogramdd")
    if density:
        counts = counts / ops.sum(counts)
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = e.shape[0] - 1
            counts = counts / ops.reshape(e[1:] - e[:-1], tuple(shape))
    return counts, edges


def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None,  # noqa: A002
                weights: Any = None, density: bool = False) -> tuple:
    """The 2-D histogram of the points ``(x, y)``: counts and the edges along x and y."""
    xs, ys = common([as_float(to_tensor(x, "histogram2d", "x")),
                     as_float(to_tensor(y, "histogram2d", "y"))])
    counts, edges = histogramdd(ops.stack([ops.reshape(xs, (-1,)), ops.reshape(ys, (-1,))],
                                          1), bins, range, weights, density)
    return counts, edges[0], edges[1]


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False,
                return_indices: bool = False) -> Any:
    """The sorted values present in both arrays (with ``return_indices``, their first
    positions in each flattened array)."""
    a = ops.reshape(to_tensor(ar1, "intersect1d", "ar1"), (-1,))
    b = ops.reshape(to_tensor(ar2, "intersect1d", "ar2"), (-1,))
    vals, ia, ib = np.intersect1d(a.asnumpy(), b.asnumpy(), return_indices=True)
    out = ops.gather(a, Tensor(ia.astype(np.int64)), 0) if vals.size else a[:0]
    if return_indices:
        return out, Tensor(ia.astype(np.int32)), Tensor(ib.astype(np.int32))
    return out


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Tensor:
    """The sorted unique values of ``ar1`` that are not in ``ar2``."""
    a = ops.reshape(to_tensor(ar1, "setdiff1d", "ar1"), (-1,))
    vals, first = np.unique(a.asnumpy(), return_index=True)
    a = ops.gather(a, Tensor(first.astype(np.int64)), 0)
    b = ops.reshape(to_tensor(ar2, "setdiff1d", "ar2"), (-1,))
    keep = ~np.isin(a.asnumpy(), b.asnumpy())
    return ops.gather(a, Tensor(np.flatnonzero(keep).astype(np.int64)), 0)
