"""MindSpore's random operator classes configured by ``(seed, seed2)``
(``StandardNormal``, ``UniformReal``, ``UniformInt``, ``TruncatedNormal``, ``Multinomial``,
``RandomShuffle``): the draws of ``mindgrad.ops``'s random functions, from the global
stream when both seeds are 0 and from a stream of their own otherwise."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...prims.random import draw
from .. import families
from .. import functional as F
from ..primitive import Primitive

_fn = families.function


# --- random draws -------------------------------------------------------------------------
def _seed_of(seed: int, seed2: int) -> Any:
    """MindSpore's (seed, seed2): both 0 draws from the global stream."""
    return None if not seed and not seed2 else int(seed) * 1000003 + int(seed2)


def _shape_of(op: str, shape: Any) -> tuple:
    if isinstance(shape, Tensor):
        shape = tuple(int(v) for v in shape.asnumpy().reshape(-1))
    return F._sizes(F._shape_arg(shape, op, "shape"), op, "shape")


class _Seeded(Primitive):
    def __init__(self, seed: int = 0, seed2: int = 0) -> None:
        super().__init__()
        op = type(self).__name__
        for name, v in (("seed", seed), ("seed2", seed2)):
            if not F._is_int(v) or v < 0:
                raise ValueError(f"For '{op}', '{name}' must be a non-negative int, but got "
                                 f"{v!r}.")
        self.seed, self.seed2 = seed, seed2
        self._stream = _seed_of(seed, seed2)


def _bound(op: str, name: str, v: Any) -> int:
    """An int, or a Tensor of one integer."""
    if isinstance(v, Tensor) and v.size == 1 and not v.dtype.is_floating:
        return int(v.asnumpy().reshape(-1)[0])
    if F._is_int(v):
        return int(v)
    raise TypeError(f"For '{op}', '{name}' must be an int or an integer Tensor of one element, "
                    f"but got {v!r}.")


class StandardNormal(_Seeded):
    """``StandardNormal(seed=0, seed2=0)(shape)``: Float32 draws from N(0, 1)."""

    def __call__(self, shape: Any) -> Tensor:
        return draw(shape=_shape_of("StandardNormal", shape), kind="normal",
                    dtype=np.dtype(np.float32), seed=self._stream)


class UniformReal(_Seeded):
    """``UniformReal(seed=0, seed2=0)(shape)``: Float32 draws from [0, 1)."""

    def __call__(self, shape: Any) -> Tensor:
        return draw(shape=_shape_of("UniformReal", shape), kind="uniform",
                    dtype=np.dtype(np.float32), seed=self._stream)


class UniformInt(_Seeded):
    """``UniformInt(seed=0, seed2=0)(shape, minval, maxval)``: Int32 draws from
    ``[minval, maxval)``."""

    def __call__(self, shape: Any, minval: Any, maxval: Any) -> Tensor:
        lo, hi = (_bound("UniformInt", n, v) for n, v in (("minval", minval),
                                                          ("maxval", maxval)))
        if lo >= hi:
            raise ValueError(f"For 'UniformInt', 'minval' must be less than 'maxval', but got "
                             f"{lo} and {hi}.")
        return _fn("randint")(lo, hi, _shape_of("UniformInt", shape), self._stream,
                              dtype=mstype.int32)


class TruncatedNormal(_Seeded):
    """``TruncatedNormal(dtype=mindspore.float32, seed=0, seed2=0)(shape)``: draws from
    N(0, 1) restricted to [-2, 2]."""

    def __init__(self, dtype: Any = mstype.float32, seed: int = 0, seed2: int = 0) -> None:
        super().__init__(seed, seed2)
        if not isinstance(dtype, mstype.DType) or \
                dtype not in (mstype.float16, mstype.float32, mstype.float64):
            raise TypeError(f"For 'TruncatedNormal', 'dtype' must be a float type, but got "
                            f"{dtype}.")
        self.dtype = dtype

    def __call__(self, shape: Any) -> Tensor:
        u = draw(shape=_shape_of("TruncatedNormal", shape), kind="uniform",
                 dtype=np.dtype(np.float64), seed=self._stream)
        # the inverse of the normal CDF over [Phi(-2), Phi(2)]
        lo = 0.5 * math.erfc(2 / math.sqrt(2))
        p = F.add(F.mul(u, 1.0 - 2 * lo), lo)
        z = F.mul(_fn("erfinv")(F.sub(F.mul(p, 2.0), 1.0)), math.sqrt(2))
        return F.cast(F.minimum(F.maximum(z, -2.0), 2.0), self.dtype)


class Multinomial(_Seeded):
    """``Multinomial(seed=0, seed2=0, dtype=mindspore.int32)(x, num_samples)``: category
    indices drawn (with replacement) by the rows of ``x``."""

    def __init__(self, seed: int = 0, seed2: int = 0, dtype: Any = mstype.int32) -> None:
        super().__init__(seed, seed2)
        if not isinstance(dtype, mstype.DType) or \
                dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'Multinomial', 'dtype' must be mindspore.int32 or "
                            f"mindspore.int64, but got {dtype}.")
        self.dtype = dtype

    def __call__(self, x: Any, num_samples: Any) -> Tensor:
        if isinstance(num_samples, Tensor):
            num_samples = int(num_samples.asnumpy())
        return F.cast(_fn("multinomial")(x, num_samples, True, self._stream), self.dtype)


class RandomShuffle(_Seeded):
    """``RandomShuffle(seed=0, seed2=0)(x)``: ``x`` with its rows (first axis) in a random
    order."""

    def __call__(self, x: Any) -> Tensor:
        return _fn("shuffle")(x, self._stream)


class LogNormalReverse(Primitive):
    """``LogNormalReverse(mean=1.0, std=2.0)(input)``: draws of ``exp(N(mean, std))`` of
    ``input``'s shape and dtype."""

    def __init__(self, mean: float = 1.0, std: float = 2.0) -> None:
        super().__init__()
        for name, v in (("mean", mean), ("std", std)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"For 'LogNormalReverse', '{name}' must be a float, but got "
                                f"{type(v).__name__}.")
        self.mean, self.std = float(mean), float(std)

    def __call__(self, input: Any) -> Tensor:  # noqa: A002
        x = F._tensor(input, "LogNormalReverse", "input")
        if not x.dtype.is_floating:
            raise TypeError(f"For 'LogNormalReverse', 'input' must be a float Tensor, but got "
                            f"{x.dtype}.")
        z = draw(shape=tuple(x.shape), kind="normal", dtype=np.dtype(x.dtype.np_dtype),
                 seed=None)
        return F.exp(F.add(F.mul(z, self.std), self.mean))


class ParameterizedTruncatedNormal(_Seeded):
    """``ParameterizedTruncatedNormal(seed=0, seed2=0)(shape, mean, stdevs, min, max)``:
    draws of ``shape`` (batch first) from N(mean, stdevs) restricted to [min, max], one set
    of parameters per batch row."""

    def __call__(self, shape: Any, mean: Any, stdevs: Any,
                 min: Any, max: Any) -> Tensor:  # noqa: A002
        op = "ParameterizedTruncatedNormal"
        size = _shape_of(op, shape)
        ps = [F._tensor(v, op, n) for v, n in ((mean, "mean"), (stdevs, "stdevs"),
                                               (min, "min"), (max, "max"))]
        if len(size) < 1 or any(p.ndim != 1 or p.shape[0] not in (1, size[0]) for p in ps):
            raise ValueError(f"For '{op}', the parameters must be 1-D of length 1 or "
                             f"{size[0] if size else '?'} (the batch of 'shape' {list(size)}).")
        m, s, lo, hi = (F.reshape(p, (-1,) + (1,) * (len(size) - 1)) for p in ps)
        u = draw(shape=size, kind="uniform", dtype=np.dtype(np.float64), seed=self._stream)
        # the inverse of the normal CDF over [cdf(lo), cdf(hi)] of the standardized bounds
        erf = _fn("erf")
        a = F.mul(F.add(erf(F.div(F.div(F.sub(lo, m), s), math.sqrt(2))), 1.0), 0.5)
        b = F.mul(F.add(erf(F.div(F.div(F.sub(hi, m), s), math.sqrt(2))), 1.0), 0.5)
        p = F.add(a, F.mul(F.cast(u, a.dtype), F.sub(b, a)))
        z = F.mul(_fn("erfinv")(F.sub(F.mul(p, 2.0), 1.0)), math.sqrt(2))
        return F.minimum(F.maximum(F.add(m, F.mul(z, s)), lo), hi)


__all__ = ["StandardNormal", "UniformReal", "UniformInt", "TruncatedNormal", "Multinomial",
           "RandomShuffle", "LogNormalReverse", "ParameterizedTruncatedNormal"]
