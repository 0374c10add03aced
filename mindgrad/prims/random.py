"""Random primitives: ``RandomDraw`` (uniform, normal or integer draws of a shape),
``Multinomial`` (category indices drawn by the rows of a probability table), ``Randperm``
and ``DropoutMask`` (an inverted-dropout mask). Each is marked ``effect=True``, so the
GRAPH-mode compiler never folds, merges or removes one and a compiled function draws new
values on every call, and ``nondiff``. The numbers come from the seeded streams of
``common.random``: the global one, or that of a seed given to the call."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common.random import generator, op_generator
from ..core.config import array_module
from ..core.primitive import Primitive
from . import structural as S


def _on_device(a: np.ndarray) -> Any:
    """A NumPy draw as an array of the module new tensors are made with."""
    xp = array_module()
    return a if xp is np else xp.asarray(a)


def _draw_impl(shape: tuple, kind: str, dtype: Any, seed: Any, low: int = 0,
               high: int = 1) -> Any:
    gen = op_generator(seed)
    if kind == "normal":
        a = gen.standard_normal(shape)
    elif kind == "uniform":
        a = gen.random(shape)
    else:  # "int": integers in [low, high)
        a = gen.integers(low, high, size=shape)
    return _on_device(np.asarray(a, dtype))


draw = Primitive("RandomDraw", _draw_impl, nondiff=True, effect=True)


def _multinomial_impl(p: Any, num_samples: int, replacement: bool, seed: Any) -> Any:
    """Row-wise draws of category indices with probabilities proportional to ``p``'s rows
    (2-D), with or without replacement; Int32 as in MindSpore."""
    gen = op_generator(seed)
    probs = np.asarray(p.get() if hasattr(p, "get") else p, np.float64)
    out = np.empty((probs.shape[0], num_samples), np.int32)
    for r, row in enumerate(probs):
        w = row / row.sum()
        out[r] = gen.choice(row.size, size=num_samples, replace=replacement, p=w)
    return _on_device(out)


multinomial_p = Primitive("Multinomial", _multinomial_impl, nondiff=True, effect=True)


def _multinomial_batch(args, dims, num_samples, replacement, seed):
    p = S.to_front(args[0], dims[0])
    s = S.shape_of(p)
    flat = S.reshape(p, shape=(-1, s[-1]))
    out = multinomial_p(flat, num_samples=num_samples, replacement=replacement, seed=seed)
    return S.reshape(out, shape=s[:-1] + (num_samples,)), 0


multinomial_p.batch = _multinomial_batch


def _permutation_impl(n: int, dtype: Any, seed: Any) -> Any:
    return _on_device(op_generator(seed).permutation(n).astype(dtype))


permutation = Primitive("Randperm", _permutation_impl, nondiff=True, effect=True)


def _dropout_mask_impl(shape: tuple, keep_prob: float, dtype: Any) -> Any:
    """An inverted-dropout mask: ``1/keep_prob`` with probability ``keep_prob``, else 0."""
    keep = generator().random(shape) < keep_prob
    return _on_device(keep.astype(dtype) * np.asarray(1.0 / keep_prob, dtype))


dropout_mask = Primitive("DropoutMask", _dropout_mask_impl, nondiff=True, effect=True)
