"""MindSpore's random sampling functions (``ops.rand``, ``ops.randn``, ``ops.randint``,
``ops.uniform``, ``ops.normal``, ``ops.multinomial``, ...).

The draws are primitives (``prims/random.py``) marked ``effect=True`` (a compiled function
draws new values on every call) and ``nondiff``. They come from the stream
``mindspore.set_seed`` seeds, or, for a call given ``seed=``, from that seed's own stream
(``common.random.op_generator``): a program that sets its seeds repeats its numbers run
after run. The numbers themselves are NumPy's, not those of MindSpore's Philox generator.
``uniform`` and ``normal`` scale a standard draw by their (Tensor) bounds, mean and
deviation, so they are differentiable in those, as a reparametrized sample is."""
from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..prims import indexing as IX
from ..prims.random import draw, multinomial_p, permutation
from ..prims import structural as S
from . import functional as F
from .functional import _composite


# --- argument checks --------------------------------------------------------------------------
def _seed(seed: Any, op: str) -> int | None:
    if seed is None:
        return None
    if not F._is_int(seed) or seed < 0:
        raise TypeError(f"For '{op}', 'seed' must be None or a non-negative int, but got "
                        f"{seed!r}.")
    return int(seed)


def _size_args(size: tuple, op: str) -> tuple:
    """``rand(2, 3)`` and ``rand((2, 3))`` alike."""
    if len(size) == 1 and isinstance(size[0], (tuple, list, Tensor)):
        size = size[0]
    return F._sizes(F._shape_arg(tuple(size) if isinstance(size, (tuple, list)) else size,
                                 op, "size"), op, "size")


def _float_dtype(dtype: Any, op: str) -> np.dtype:
    dt = mstype.to_numpy(dtype if dtype is not None else mstype.float32, op)
    if dt.kind != "f":
        raise TypeError(f"For '{op}', 'dtype' must be a float type, but got {dtype}.")
    return dt


def _int_dtype(dtype: Any, op: str) -> np.dtype:
    dt = mstype.to_numpy(dtype if dtype is not None else mstype.int64, op)
    if dt.kind not in "iu":
        raise ValueError(f"For '{op}', the 'dtype' must be an int type, but got {dtype}.")
    return dt


def _int_bound(v: Any, op: str, arg: str) -> int:
    if isinstance(v, Tensor) and v.size == 1 and v._data.dtype.kind in "iu":
        v = v.asnumpy().reshape(()).item()
    if not F._is_int(v):
        raise TypeError(f"For '{op}', '{arg}' must be an int, but got {type(v).__name__}.")
    return int(v)


# --- the functions ----------------------------------------------------------------------------
def rand(*size: Any, dtype: Any = None, seed: Any = None) -> Tensor:
    """Numbers drawn uniformly from [0, 1), of shape ``size`` (Float32 by default)."""
    return draw(shape=_size_args(size, "rand"), kind="uniform",
                dtype=_float_dtype(dtype, "rand"), seed=_seed(seed, "rand"))


def randn(*size: Any, dtype: Any = None, seed: Any = None) -> Tensor:
    """Numbers drawn from the standard normal distribution, of shape ``size``."""
    return draw(shape=_size_args(size, "randn"), kind="normal",
                dtype=_float_dtype(dtype, "randn"), seed=_seed(seed, "randn"))


def standard_normal(shape: Any, seed: Any = None) -> Tensor:
    """Float32 numbers drawn from the standard normal distribution."""
    return draw(shape=_size_args((shape,), "standard_normal"), kind="normal",
                dtype=np.dtype(np.float32), seed=_seed(seed, "standard_normal"))


def randint(low: Any, high: Any, size: Any, seed: Any = None, *, dtype: Any = None) -> Tensor:
    """Integers drawn uniformly from [low, high), of shape ``size`` (Int64 by default)."""
    lo, hi = _int_bound(low, "randint", "low"), _int_bound(high, "randint", "high")
    if lo >= hi:
        raise ValueError(f"For 'randint', 'low' must be less than 'high', but got {lo} and "
                         f"{hi}.")
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"For 'randint', 'size' must be a tuple of ints, but got "
                        f"{type(size).__name__}.")
    dt = _int_dtype(dtype, "randint")
    return draw(shape=_size_args((size,), "randint"), kind="int", dtype=dt,
                seed=_seed(seed, "randint"), low=lo, high=hi)


def _like(input: Any, op: str) -> Tensor:
    return F._tensor(input, op, "input")


@_composite
def rand_like(input: Any, seed: Any = None, *, dtype: Any = None) -> Tensor:
    """``rand`` of ``input``'s shape (and dtype, unless ``dtype`` is given)."""
    x = _like(input, "rand_like")
    return rand(x.shape, dtype=dtype if dtype is not None else x.dtype, seed=seed)


@_composite
def randn_like(input: Any, seed: Any = None, *, dtype: Any = None) -> Tensor:
    """``randn`` of ``input``'s shape (and dtype, unless ``dtype`` is given)."""
    x = _like(input, "randn_like")
    return randn(x.shape, dtype=dtype if dtype is not None else x.dtype, seed=seed)


@_composite
def randint_like(input: Any, low: Any, high: Any, seed: Any = None, *,
                 dtype: Any = None) -> Tensor:
    """``randint`` of ``input``'s shape (and dtype, unless ``dtype`` is given, which must
    be an integer type)."""
    x = _like(input, "randint_like")
    return randint(low, high, x.shape, seed, dtype=dtype if dtype is not None else x.dtype)


def _broadcast(op: str, *named: tuple) -> tuple:
    """The broadcast of ``(name, shape)`` pairs, or a ValueError naming the op."""
    try:
        return np.broadcast_shapes(*(s for _, s in named))
    except ValueError:
        shapes = ", ".join(f"'{n}' {list(s)}" for n, s in named)
        raise ValueError(f"For '{op}', the shapes of {shapes} can not broadcast.") from None


def _bound(v: Any, op: str, arg: str) -> Tensor:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return Tensor(np.float32(v))
    return F._tensor(v, op, arg)


def uniform(shape: Any, minval: Any, maxval: Any, seed: Any = None,
            dtype: Any = mstype.float32) -> Tensor:
    """Numbers drawn uniformly from [minval, maxval) (Tensors, broadcast with ``shape``):
    ``minval + (maxval - minval) * u`` with ``u`` from [0, 1), so the result is
    differentiable in the bounds. An integer ``dtype`` draws integers (the bounds Int32)."""
    size = _size_args((shape,), "uniform")
    lo, hi = _bound(minval, "uniform", "minval"), _bound(maxval, "uniform", "maxval")
    dt = mstype.to_numpy(dtype, "uniform")
    if dt.kind in "iu":
        if lo.dtype != dtype or hi.dtype != dtype:
            raise TypeError(f"For 'uniform', 'minval' and 'maxval' must have the dtype "
                            f"'dtype' gives, {dtype}, but got {lo.dtype} and {hi.dtype}.")
        if lo.size != 1 or hi.size != 1:
            raise ValueError("For 'uniform', integer 'minval' and 'maxval' must have one "
                             "element each.")
        return randint(lo, hi, size, seed, dtype=dtype)
    if dt.kind != "f":
        raise TypeError(f"For 'uniform', 'dtype' must be a float or int type, but got {dtype}.")
    _broadcast("uniform", ("shape", size), ("minval", lo.shape), ("maxval", hi.shape))
    u = draw(shape=size, kind="uniform", dtype=dt, seed=_seed(seed, "uniform"))
    lo, hi = F.cast(lo, u.dtype), F.cast(hi, u.dtype)
    return F.add(lo, F.mul(F.sub(hi, lo), u))


def normal(shape: Any, mean: Any, stddev: Any, seed: Any = None) -> Tensor:
    """Numbers drawn from N(mean, stddev**2) (Tensors or numbers, broadcast with
    ``shape``): ``mean + stddev * z``, differentiable in ``mean`` and ``stddev``."""
    size = _size_args((shape,), "normal")
    m, s = _bound(mean, "normal", "mean"), _bound(stddev, "normal", "stddev")
    out_shape = _broadcast("normal", ("shape", size), ("mean", m.shape), ("stddev", s.shape))
    # float32, or float64 when the mean or deviation is (so the sample keeps their precision)
    dt = np.dtype(np.float64 if np.float64 in (m._data.dtype, s._data.dtype) else np.float32)
    z = draw(shape=tuple(out_shape), kind="normal", dtype=dt, seed=_seed(seed, "normal"))
    return F.add(F.cast(m, z.dtype), F.mul(F.cast(s, z.dtype), z))


def multinomial(input: Any, num_samples: int, replacement: bool = True,
                seed: Any = None) -> Tensor:
    """For each row of ``input`` (1-D or 2-D, non-negative weights), ``num_samples``
    category indices drawn with probabilities proportional to the weights (Int32)."""
    p = F._tensor(input, "multinomial", "input")
    if p.ndim not in (1, 2):
        raise ValueError(f"For 'multinomial', 'input' must be 1-D or 2-D, but got shape "
                         f"{list(p.shape)}.")
    if p._data.dtype.kind not in "f":
        raise TypeError(f"For 'multinomial', 'input' must be a float Tensor, but got "
                        f"{p.dtype}.")
    if not F._is_int(num_samples) or num_samples <= 0:
        raise ValueError(f"For 'multinomial', 'num_samples' must be a positive int, but got "
                         f"{num_samples!r}.")
    replacement = F._flag(replacement, "multinomial", "replacement")
    # a huge num_samples: a clear error before the sampler tries to allocate the result
    F._sizes((p.shape[0] if p.ndim == 2 else 1, int(num_samples)), "multinomial",
             "num_samples")
    if p.size == 0 or p.shape[-1] == 0:
        raise ValueError(f"For 'multinomial', 'input' must not be empty, but got shape "
                         f"{list(p.shape)}.")
    if IX.is_eager(p):
        w = p.asnumpy()
        if not np.all(np.isfinite(w)) or np.any(w < 0) or np.any(w.sum(-1) <= 0):
            raise ValueError("For 'multinomial', 'input' must hold finite non-negative "
                             "weights with a positive sum in each row.")
        if not replacement and num_samples > int(np.min(np.count_nonzero(w, -1))):
            raise ValueError(f"For 'multinomial', without replacement 'num_samples' "
                             f"({num_samples}) must not exceed the number of categories "
                             f"of non-zero weight in a row.")
    p2 = S.reshape(p, shape=(1, p.size)) if p.ndim == 1 else p
    out = multinomial_p(S.stop_gradient(p2), num_samples=int(num_samples),
                        replacement=replacement, seed=_seed(seed, "multinomial"))
    return S.reshape(out, shape=(int(num_samples),)) if p.ndim == 1 else out


def randperm(n: int, seed: int = 0, offset: int = 0, dtype: Any = mstype.int64) -> Tensor:
    """A random permutation of ``0 .. n-1``. ``seed`` 0 (the default) draws from the
    global stream; ``offset`` is accepted and checked, as MindSpore does, but only shifts
    nothing here."""
    if not F._is_int(n) or n < 0:
        raise ValueError(f"For 'randperm', 'n' must be a non-negative int, but got {n!r}.")
    if not F._is_int(offset) or offset < 0:
        raise ValueError(f"For 'randperm', 'offset' must be a non-negative int, but got "
                         f"{offset!r}.")
    dt = mstype.to_numpy(dtype, "randperm")
    if dt.kind not in "iuf":
        raise TypeError(f"For 'randperm', 'dtype' must be a number type, but got {dtype}.")
    s = _seed(seed, "randperm")
    return permutation(n=int(F._sizes((int(n),), "randperm", "n")[0]), dtype=dt,
                       seed=None if not s else s)


def shuffle(x: Any, seed: Any = None) -> Tensor:
    """``x`` with its first axis in a random order (differentiable: a gather)."""
    t = F._tensor(x, "shuffle", "x")
    if t.ndim == 0:
        raise ValueError("For 'shuffle', 'x' must have rank >= 1, but got a 0-D Tensor.")
    order = permutation(n=t.shape[0], dtype=np.dtype(np.int64), seed=_seed(seed, "shuffle"))
    return F.gather(t, order, 0)


__all__ = ["rand", "randn", "randint", "rand_like", "randn_like", "randint_like",
           "standard_normal", "uniform", "normal", "multinomial", "randperm", "shuffle"]
del builtins, math
