"""MindSpore's order statistics and counting (``median``, ``nanmedian``, ``aminmax``,
``histc``, ``bincount``, ``bucketize``, ``top_k``, ``intopk``) and the random draws beyond
the core's (``bernoulli``, ``standard_laplace``, ``laplace``, ``random_poisson``,
``random_gamma``, ``random_categorical``, ``multinomial_with_replacement``).

``median`` and ``nanmedian`` take the lower middle element (as MindSpore does) through a
stable sort, so their values are differentiable: the gradient goes to the element chosen.
Among tied elements MindSpore's kernel may report another index than the first one.
The draws come from the seeded streams of ``common.random`` (the numbers are NumPy's, not
those of MindSpore's Philox generator): Laplace draws are the inverse distribution function
of a uniform draw, Poisson, gamma and categorical draws are NumPy's samplers."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..prims import indexing as IX
from ..prims.random import draw, multinomial_p
from ..prims import structural as S
from . import functional as F
from . import random_ops as R
from . import sorting
from .functional import _composite


# --- order statistics -------------------------------------------------------------------------
def _median(input: Any, axis: Any, keepdims: bool, skip_nan: bool, op: str) -> tuple:
    x = F._tensor(input, op, "input")
    keepdims = F._flag(keepdims, op, "keepdims")
    if x.ndim == 0:
        F._axis(axis, 1, op)
        return x, Tensor(np.array(0, np.int64))
    a = F._axis(axis, x.ndim, op)
    order = sorting._positions(x, a, False)  # stable: NaN last
    n = x.shape[a]
    if skip_nan:
        count = F.reduce_sum(F.cast(F.logical_not(F.isnan(S.stop_gradient(x))), mstype.int64),
                             a, True)
        # the lower middle of the numbers; a slice of NaNs gives NaN (its first element)
        pos = F.select(F.greater(count, 0), F.floor_div(count - 1, 2),
                       F.zeros_like(count))
    else:
        shape = list(x.shape)
        shape[a] = 1
        pos = Tensor(np.full(shape, (n - 1) // 2, np.int64))
    idx = sorting.take_along(order, pos, a)
    if not skip_nan:
        # a slice holding NaN has median NaN, at its first NaN
        has_nan = F.any(F.isnan(S.stop_gradient(x)), a, True) \
            if x.dtype.np_dtype.kind == "f" else None
        if has_nan is not None:
            first_nan = F.cast(F.argmax(F.cast(F.isnan(S.stop_gradient(x)), mstype.int32),
                                        a, True), idx.dtype)
            idx = F.select(has_nan, first_nan, idx)
    values = sorting.take_along(x, idx, a)
    idx = F.cast(idx, mstype.int64)
    if not keepdims:
        values, idx = F.squeeze(values, a), F.squeeze(idx, a)
    return values, idx


@_composite
def median(input: Any, axis: int = -1, keepdims: bool = False) -> tuple:
    """``(values, indices)``: the lower median along ``axis`` and its position (Int64)."""
    return _median(input, axis, keepdims, False, "median")


@_composite
def nanmedian(input: Any, axis: int = -1, keepdims: bool = False) -> tuple:
    """``median`` ignoring NaN (NaN where a slice holds nothing else)."""
    return _median(input, axis, keepdims, True, "nanmedian")


@_composite
def aminmax(input: Any, *, axis: int = 0, keepdims: bool = False) -> tuple:
    """``(minimum, maximum)`` along ``axis``."""
    x = F._tensor(input, "aminmax", "input")
    a = F._axis(axis, max(x.ndim, 1), "aminmax") if x.ndim else None
    return F.amin(x, a, keepdims), F.amax(x, a, keepdims)


@_composite
def top_k(input_x: Any, k: int, sorted: bool = True) -> tuple:
    """``(values, indices)`` of the ``k`` largest elements of the last axis (``ops.topk``)."""
    return sorting.topk(input_x, k, None, True, sorted)


@_composite
def intopk(x1: Any, x2: Any, k: int) -> Tensor:
    """Whether the entry ``x1[i, x2[i]]`` is among the ``k`` largest of row ``i`` (Bool):
    fewer than ``k`` entries of the row are larger."""
    a = F._tensor(x1, "intopk", "x1")
    t = F._int_tensor(x2, "intopk", "x2")
    if a.ndim != 2 or t.ndim != 1 or t.shape[0] != a.shape[0]:
        raise ValueError(f"For 'intopk', 'x1' must be 2-D and 'x2' 1-D with one target per "
                         f"row, but got shapes {list(a.shape)} and {list(t.shape)}.")
    if not F._is_int(k):
        raise TypeError(f"For 'intopk', 'k' must be an int, but got {type(k).__name__}.")
    a = S.stop_gradient(a)
    idx = IX.checked_indices(t, a.shape[1], "intopk", "each value of 'x2'", error=ValueError)
    target = sorting.take_along(a, F.reshape(F.cast(idx, mstype.int64), (-1, 1)), 1)
    larger = F.reduce_sum(F.cast(F.greater(a, target), mstype.int32), 1)
    return F.less(larger, int(k))


def histc(input: Any, bins: int = 100, min: float = 0.0, max: float = 0.0) -> Tensor:  # noqa: A002
    """Counts of ``input`` in ``bins`` equal bins over [min, max] (the data's range when
    both are 0); values outside are not counted. Float32, as MindSpore's."""
    x = F._tensor(input, "histc", "input")
    if not F._is_int(bins) or bins <= 0:
        raise ValueError(f"For 'histc', 'bins' must be a positive int, but got {bins!r}.")
    F._sizes((int(bins),), "histc", "bins")
    for arg, v in (("min", min), ("max", max)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v):
            raise TypeError(f"For 'histc', '{arg}' must be a finite number, but got {v!r}.")
    lo, hi = float(min), float(max)
    if lo > hi:
        raise ValueError(f"For 'histc', 'min' must not exceed 'max', but got {lo} and {hi}.")
    a = x.asnumpy().astype(np.float64).reshape(-1)
    if lo == hi and a.size:
        lo, hi = float(a.min()), float(a.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    counts, _ = np.histogram(a, int(bins), (lo, hi))
    return Tensor(counts.astype(np.float32))


def bincount(input: Any, weights: Any = None, minlength: int = 0) -> Tensor:
    """How often each value ``0 .. max(input)`` occurs in the 1-D non-negative ``input``
    (or the sum of its ``weights``), at least ``minlength`` of them. Float32 without
    weights (as MindSpore's), the weights' dtype with them."""
    x = F._int_tensor(input, "bincount", "input")
    if x.ndim != 1:
        raise ValueError(f"For 'bincount', 'input' must be 1-D, but got shape "
                         f"{list(x.shape)}.")
    if not F._is_int(minlength) or minlength < 0:
        raise ValueError(f"For 'bincount', 'minlength' must be a non-negative int, but got "
                         f"{minlength!r}.")
    a = x.asnumpy()
    if (a < 0).any():
        raise ValueError("For 'bincount', 'input' must not hold negative values.")
    n = int(max(int(a.max()) + 1 if a.size else 0, int(minlength)))
    F._sizes((max(a.size, 1), n), "bincount", "minlength")
    if weights is None:
        return Tensor(np.bincount(a, minlength=n).astype(np.float32))
    w = F._tensor(weights, "bincount", "weights")
    if tuple(w.shape) != tuple(x.shape):
        raise ValueError(f"For 'bincount', 'weights' must have the shape of 'input' "
                         f"{list(x.shape)}, but got {list(w.shape)}.")
    from_ids = Tensor(a.reshape(-1, 1) == np.arange(n)[None, :])
    return F.reduce_sum(F.select(from_ids, F.broadcast_to(F.reshape(w, (-1, 1)), (a.size, n)),
                                 F.zeros_like(F.broadcast_to(F.reshape(w, (-1, 1)),
                                                             (a.size, n)))), 0)



def bucketize(input: Any, boundaries: Any, *, right: bool = False) -> Tensor:
    """For each element, the index of the bucket of the sorted list ``boundaries`` it falls
    in: the number of boundaries below it (``right=False``) or at most it (Int32)."""
    x = F._tensor(input, "bucketize", "input")
    if not isinstance(boundaries, (list, tuple)) or not all(
            isinstance(b, (int, float)) and not isinstance(b, bool) for b in boundaries):
        raise TypeError(f"For 'bucketize', 'boundaries' must be a list of numbers, but got "
                        f"{boundaries!r}.")
    edges = np.asarray(boundaries, np.float64)
    if np.any(np.diff(edges) < 0):
        raise ValueError(f"For 'bucketize', 'boundaries' must be sorted, but got "
                         f"{list(boundaries)}.")
    seq = Tensor(edges.astype(x.dtype.np_dtype if x.dtype.np_dtype.kind == "f" else np.float64))
    vals = F.cast(S.stop_gradient(x), seq.dtype)
    flat = F.reshape(vals, (-1,))
    out = sorting.searchsorted(seq, flat, out_int32=True, right=F._flag(right, "bucketize",
                                                                        "right"))
    return F.reshape(out, tuple(x.shape))


# --- random draws -------------------------------------------------------------------------------
def _shape(shape: Any, op: str) -> tuple:
    return R._size_args((shape,), op)


def bernoulli(input: Any, p: Any = 0.5, seed: Any = None) -> Tensor:
    """0 or 1 of ``input``'s shape and dtype, 1 with probability ``p`` (a number or a
    Tensor broadcast to ``input``)."""
    x = F._tensor(input, "bernoulli", "input")
    if isinstance(p, Tensor):
        prob = F.cast(S.stop_gradient(p), mstype.float64)
    elif isinstance(p, (int, float)) and not isinstance(p, bool):
        prob = Tensor(np.float64(p))
    else:
        raise TypeError(f"For 'bernoulli', 'p' must be a float or a Tensor, but got "
                        f"{type(p).__name__}.")
    if IX.is_eager(prob) and ((prob.asnumpy() < 0) | (prob.asnumpy() > 1)).any():
        raise ValueError("For 'bernoulli', 'p' must lie in [0, 1].")
    u = draw(shape=tuple(x.shape), kind="uniform", dtype=np.dtype(np.float64),
             seed=R._seed(seed, "bernoulli"))
    return F.cast(F.less(u, prob), x.dtype)


def _laplace_unit(shape: tuple, seed: Any, op: str, dtype: Any = np.float32) -> Tensor:
    u = draw(shape=shape, kind="uniform", dtype=np.dtype(dtype), seed=R._seed(seed, op))
    c = u - 0.5  # in [-0.5, 0.5): the inverse distribution function of Laplace(0, 1)
    return -F.sign(c) * F.log1p(-2.0 * F.abs(c))


def standard_laplace(shape: Any, seed: Any = None) -> Tensor:
    """Draws from the Laplace distribution of location 0 and scale 1 (Float32)."""
    return _laplace_unit(_shape(shape, "standard_laplace"), seed, "standard_laplace")


def laplace(shape: Any, mean: Any, lambda_param: Any, seed: Any = None) -> Tensor:
    """Draws from Laplace(``mean``, ``lambda_param``) (Tensors broadcast with ``shape``):
    ``mean + lambda_param * z``, differentiable in both."""
    size = _shape(shape, "laplace")
    m = F._tensor(mean, "laplace", "mean")
    b = F._tensor(lambda_param, "laplace", "lambda_param")
    out = R._broadcast("laplace", ("shape", size), ("mean", m.shape),
                       ("lambda_param", b.shape))
    # float32, or float64 when the mean or scale is (the sample keeps their precision)
    dt = np.float64 if np.float64 in (m._data.dtype, b._data.dtype) else np.float32
    z = _laplace_unit(tuple(out), seed, "laplace", dt)
    return F.add(F.cast(m, z.dtype), F.mul(F.cast(b, z.dtype), z))


def _sampled(shape: Any, param: Any, op: str, arg: str, sample: Any, dtype: Any,
             seed: Any) -> Tensor:
    """``shape + param.shape`` draws from NumPy's ``sample(generator, param)``."""
    size = _shape(shape, op)
    p = F._tensor(param, op, arg)
    if p.dtype.np_dtype.kind != "f":
        raise TypeError(f"For '{op}', '{arg}' must be a float Tensor, but got {p.dtype}.")
    pn = p.asnumpy().astype(np.float64)
    if (pn < 0).any() or not np.isfinite(pn).all():
        raise ValueError(f"For '{op}', '{arg}' must be finite and non-negative.")
    shape_all = tuple(size) + tuple(p.shape)
    gen = _rng(seed, op)  # keyed by a draw from the op's stream: set_seed repeats it
    out = sample(gen, np.broadcast_to(pn, shape_all))
    return Tensor(np.asarray(out).astype(mstype.to_numpy(dtype, op)))


def random_poisson(shape: Any, rate: Any, seed: Any = None, dtype: Any = mstype.float32) -> Tensor:
    """``shape + rate.shape`` Poisson draws of the rates ``rate``."""
    if mstype.to_numpy(dtype, "random_poisson").kind not in "iuf":
        raise TypeError(f"For 'random_poisson', 'dtype' must be a number type, but got "
                        f"{dtype}.")
    return _sampled(shape, rate, "random_poisson", "rate", lambda g, r: g.poisson(r), dtype,
                    seed)


def random_gamma(shape: Any, alpha: Any, seed: Any = None) -> Tensor:
    """``shape + alpha.shape`` draws from Gamma(``alpha``, 1), of ``alpha``'s dtype."""
    a = F._tensor(alpha, "random_gamma", "alpha")
    return _sampled(shape, a, "random_gamma", "alpha",
                    lambda g, k: g.gamma(np.maximum(k, 1e-30)), a.dtype, seed)


def random_categorical(logits: Any, num_sample: int, seed: int = 0,
                       dtype: Any = mstype.int64) -> Tensor:
    """For each row of the 2-D ``logits``, ``num_sample`` categories drawn with
    probabilities ``softmax(row)``."""
    x = F._tensor(logits, "random_categorical", "logits")
    if x.ndim != 2:
        raise ValueError(f"For 'random_categorical', 'logits' must be 2-D, but got shape "
                         f"{list(x.shape)}.")
    dt = R._int_dtype(dtype, "random_categorical")
    if not F._is_int(num_sample) or num_sample <= 0:
        raise ValueError(f"For 'random_categorical', 'num_sample' must be a positive int, but "
                         f"got {num_sample!r}.")
    F._sizes((x.shape[0], int(num_sample)), "random_categorical", "num_sample")
    if x.shape[1] == 0:
        raise ValueError("For 'random_categorical', 'logits' must have at least one category, "
                         f"but got shape {list(x.shape)}.")
    if IX.is_eager(x) and not np.isfinite(x.asnumpy()).all():
        raise ValueError("For 'random_categorical', 'logits' must be finite.")
    p = F.softmax(F.cast(S.stop_gradient(x), mstype.float64), -1)
    s = R._seed(seed, "random_categorical")
    out = multinomial_p(p, num_samples=int(num_sample), replacement=True,
                        seed=None if not s else s)
    return F.cast(out, mstype.int64 if dt == np.int64 else mstype.int32) \
        if dt in (np.int64, np.int32) else F.cast(out, dt)


@_composite
def multinomial_with_replacement(x: Any, seed: Any, offset: Any, numsamples: int,
                                 replacement: bool = False) -> Tensor:
    """For each row of ``x`` (weights), ``numsamples`` category indices (Int64), with or
    without replacement. ``seed`` and ``offset`` are Int64 Tensors; a seed of 0 draws from
    the global stream."""
    op = "multinomial_with_replacement"
    for arg, v in (("seed", seed), ("offset", offset)):
        t_ = F._int_tensor(v, op, arg)
        if t_.size != 1:
            raise ValueError(f"For '{op}', '{arg}' must hold one integer, but got shape "
                             f"{list(t_.shape)}.")
    s = int(F._int_tensor(seed, op, "seed").asnumpy().item())
    out = R.multinomial(x, numsamples, replacement, None if not s else R._seed(s, op))
    return F.cast(out, mstype.int64)


def choice_with_mask(input_x: Any, count: int = 256, seed: Any = None) -> tuple:
    """``count`` positions of True elements of the Bool ``input_x`` in random order, as an
    Int32 (count, rank) index table, and a Bool mask that is False on the rows past the
    number of True elements (those rows are zeros)."""
    op = "choice_with_mask"
    x = F._tensor(input_x, op, "input_x")
    if x.dtype != mstype.bool_:
        raise TypeError(f"For '{op}', 'input_x' must be a Bool Tensor, but got {x.dtype}.")
    if not 1 <= x.ndim <= 5:
        raise ValueError(f"For '{op}', 'input_x' must have rank 1 to 5, but got shape "
                         f"{list(x.shape)}.")
    if not F._is_int(count) or count <= 0:
        raise ValueError(f"For '{op}', 'count' must be a positive int, but got {count!r}.")
    F._sizes((int(count), x.ndim), op, "count")
    where = np.argwhere(x.asnumpy())
    order = draw(shape=(max(len(where), 1),), kind="uniform", dtype=np.dtype(np.float64),
                 seed=R._seed(seed, op)).asnumpy()[:len(where)].argsort(kind="stable")
    picked = where[order][:int(count)]
    index = np.zeros((int(count), x.ndim), np.int32)
    index[:len(picked)] = picked
    mask = np.arange(int(count)) < len(picked)
    return Tensor(index), Tensor(mask)


def _rng(seed: Any, op: str) -> np.random.Generator:
    """A NumPy generator keyed by a draw from the op's stream (``set_seed`` repeats it)."""
    key = draw(shape=(2,), kind="int", dtype=np.dtype(np.int64), seed=R._seed(seed, op),
               low=0, high=2 ** 62).asnumpy()
    return np.random.default_rng([int(k) for k in key])


def _candidates(true_classes: Any, num_true: Any, num_sampled: Any, unique: Any,
                range_max: Any, seed: Any, op: str, prob: Any, sample: Any) -> tuple:
    """The candidate samplers: ``num_sampled`` classes of ``[0, range_max)`` drawn with the
    probabilities ``prob(k)`` (distinct ones with ``unique``), and the expected number of
    times each true and each sampled class is drawn in as many tries as were made."""
    t = F._int_tensor(true_classes, op, "true_classes")
    for arg, v, lo in (("num_true", num_true, 1), ("num_sampled", num_sampled, 1),
                       ("range_max", range_max, 1)):
        if not F._is_int(v) or v < lo:
            raise ValueError(f"For '{op}', '{arg}' must be a positive int, but got {v!r}.")
    unique = F._flag(unique, op, "unique")
    if t.ndim != 2 or t.shape[1] != num_true:
        raise ValueError(f"For '{op}', 'true_classes' must be 2-D with 'num_true' "
                         f"({num_true}) columns, but got shape {list(t.shape)}.")
    if unique and num_sampled > range_max:
        raise ValueError(f"For '{op}', with 'unique' 'num_sampled' ({num_sampled}) must not "
                         f"exceed 'range_max' ({range_max}).")
    F._sizes((int(num_sampled),), op, "num_sampled")
    gen = _rng(seed or None, op)
    if unique:
        picked: list = []
        seen: set = set()
        tries = 0
        while len(picked) < num_sampled:
            k = int(sample(gen, 1)[0])
            tries += 1
            if k not in seen:
                seen.add(k)
                picked.append(k)
        values = np.asarray(picked, np.int64)
    else:
        tries = int(num_sampled)
        values = sample(gen, int(num_sampled)).astype(np.int64)

    def expected(k: np.ndarray) -> np.ndarray:
        p = prob(k.astype(np.float64))
        if tries == num_sampled:
            return (p * num_sampled).astype(np.float32)
        return (-np.expm1(tries * np.log1p(-p))).astype(np.float32)

    classes = t.asnumpy()
    return (Tensor(values.astype(classes.dtype)), Tensor(expected(classes)),
            Tensor(expected(values)))


def uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                              range_max: int, seed: int = 0,
                              remove_accidental_hits: bool = False) -> tuple:
    """``(sampled_candidates, true_expected_count, sampled_expected_count)``: classes drawn
    uniformly from ``[0, range_max)`` and their expected counts."""
    op = "uniform_candidate_sampler"
    F._flag(remove_accidental_hits, op, "remove_accidental_hits")
    return _candidates(true_classes, num_true, num_sampled, unique, range_max, seed, op,
                       lambda k: np.full(k.shape, 1.0 / range_max),
                       lambda g, n: g.integers(0, range_max, size=n))


def log_uniform_candidate_sampler(true_classes: Any, num_true: int = 1, num_sampled: int = 5,
                                  unique: bool = True, range_max: int = 5,
                                  seed: int = 0) -> tuple:
    """The candidate sampler of the log-uniform (Zipfian) distribution
    ``P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``."""
    op = "log_uniform_candidate_sampler"
    if not F._is_int(range_max) or range_max < 1:
        raise ValueError(f"For '{op}', 'range_max' must be a positive int, but got "
                         f"{range_max!r}.")
    log_range = np.log(range_max + 1.0)
    return _candidates(true_classes, num_true, num_sampled, unique, range_max, seed, op,
                       lambda k: np.log((k + 2.0) / (k + 1.0)) / log_range,
                       lambda g, n: np.minimum(np.floor(np.exp(g.random(n) * log_range)) - 1,
                                               range_max - 1))


__all__ = ["uniform_candidate_sampler", "log_uniform_candidate_sampler", "choice_with_mask",
           "median", "nanmedian", "aminmax", "top_k", "intopk", "histc", "bincount",
           "bucketize", "bernoulli", "standard_laplace", "laplace", "random_poisson",
           "random_gamma", "random_categorical", "multinomial_with_replacement"]
