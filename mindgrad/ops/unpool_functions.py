"""Unpooling and fractional max pooling: ``ops.max_unpool1d`` / ``2d`` / ``3d`` (the values
of a max pooling written back at the positions its indices give, zeros elsewhere) and
``ops.fractional_max_pool2d`` / ``3d`` (max pooling over windows of a fixed size whose start
positions advance by a pseudo-random fractional stride, Graham's scheme as PyTorch draws it).

Unpooling is a scatter of the values into a zero volume, whose cotangent is the gather at
the same positions; fractional pooling gathers every window element, finds each window's first
maximum (``argmax``) and gathers it again, so its gradient goes to that element, as a max
pooling's does. All are operations, so they run under vmap and in GRAPH mode."""
from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..prims import indexing as IX
from ..prims.random import draw
from . import functional as F
from .functional import _composite
from .indexing_functions import tensor_scatter_elements
from .sorting import take_along

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _ints(v: Any, n: int, op: str, arg: str, lo: int) -> tuple:
    """An int or ``n`` ints (a 1-tuple counts for every axis), each at least ``lo``."""
    vals = tuple(v) if isinstance(v, (tuple, list)) else (v,)
    if len(vals) == 1:
        vals = vals * n
    if len(vals) != n or not all(F._is_int(i) and i >= lo for i in vals):
        raise ValueError(f"For '{op}', '{arg}' must be an int or {n} ints, each at least {lo}, "
                         f"but got {v!r}.")
    return tuple(int(i) for i in vals)


def _max_unpool(x: Any, indices: Any, kernel_size: Any, stride: Any, padding: Any,
                output_size: Any, nd: int, op: str) -> Tensor:
    t = F._tensor(x, op, "x")
    idx = F._int_tensor(indices, op, "indices")
    if t.ndim not in (nd + 1, nd + 2) or tuple(idx.shape) != tuple(t.shape):
        raise ValueError(f"For '{op}', 'x' must be {nd + 1}-D or {nd + 2}-D and 'indices' of "
                         f"its shape, but got {list(t.shape)} and {list(idx.shape)}.")
    k = _ints(kernel_size, nd, op, "kernel_size", 1)
    s = k if stride is None else _ints(stride, nd, op, "stride", 1)
    p = _ints(padding, nd, op, "padding", 0)
    spatial = tuple(t.shape[-nd:])
    default = tuple((n - 1) * si - 2 * pi + ki for n, ki, si, pi in zip(spatial, k, s, p))
    if output_size is None or (isinstance(output_size, (tuple, list)) and not output_size):
        size = default
    else:
        if not isinstance(output_size, (tuple, list)) or len(output_size) not in (
                nd, t.ndim) or not all(F._is_int(v) for v in output_size):
            raise ValueError(f"For '{op}', 'output_size' must hold {nd} or {t.ndim} ints, but "
                             f"got {output_size!r}.")
        size = tuple(int(v) for v in output_size[-nd:])
        lo = tuple(d - si for d, si in zip(default, s))
        hi = tuple(d + si for d, si in zip(default, s))
        if any(not a < v < b for a, v, b in zip(lo, size, hi)):
            raise ValueError(f"For '{op}', the spatial sizes of 'output_size' {list(size)} "
                             f"must be strictly between {list(lo)} and {list(hi)}.")
    if min(default) < 1 or min(size) < 1:
        raise ValueError(f"For '{op}', the output size {list(size)} must be positive for "
                         f"input {list(t.shape)}, kernel {list(k)}, stride {list(s)}, padding "
                         f"{list(p)}.")
    lead = tuple(t.shape[:-nd])
    total = math.prod(F._sizes(size, op, "output_size"))
    F._sizes(lead + (total,), op, "output_size")
    flat_idx = F.reshape(idx, lead + (-1,))
    # a check recorded as an operation, so it runs under vmap and in GRAPH mode too
    flat_idx = IX.checked_indices(flat_idx, total, op, "each value of 'indices'",
                                  what=f" (an output of spatial size {list(size)})")
    zeros = F.zeros(lead + (total,), t.dtype)
    out = tensor_scatter_elements(zeros, F.cast(flat_idx, mstype.int64),
                                  F.reshape(t, lead + (-1,)), t.ndim - nd)
    return F.reshape(out, lead + size)


@_composite
def max_unpool1d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The inverse of a 1-D max pooling: ``x`` (N, C, L) or (C, L) written at the positions
    ``indices`` (as ``max_pool1d`` returns them) of a zero output of length
    ``(L - 1) * stride - 2 * padding + kernel_size`` (or ``output_size``)."""
    return _max_unpool(x, indices, kernel_size, stride, padding, output_size, 1,
                       "max_unpool1d")


@_composite
def max_unpool2d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The inverse of a 2-D max pooling: ``x`` (N, C, H, W) or (C, H, W) written at the flat
    positions ``indices`` of each zero output plane."""
    return _max_unpool(x, indices, kernel_size, stride, padding, output_size, 2,
                       "max_unpool2d")


@_composite
def max_unpool3d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The inverse of a 3-D max pooling: ``x`` (N, C, D, H, W) or (C, D, H, W) written at the
    flat positions ``indices`` of each zero output volume."""
    return _max_unpool(x, indices, kernel_size, stride, padding, output_size, 3,
                       "max_unpool3d")


# --- fractional max pooling ------------------------------------------------------------------
def _starts(u: Tensor, n: int, out: int, k: int) -> Tensor:
    """Window starts (N, C, out) along one axis for the samples ``u`` (N, C): PyTorch's
    intervals ``floor((i + u) * alpha) - floor(u * alpha)``, the last ``n - k``, computed in
    the samples' float type as its kernels do."""
    last = F.fill(mstype.int64, tuple(u.shape) + (1,), n - k)
    if out == 1:
        return last
    ft = u.dtype.np_dtype.type
    alpha = float(ft(n - k) / ft(out - 1))
    i = Tensor(np.arange(out - 1, dtype=u.dtype.np_dtype))
    seq = F.sub(F.floor(F.mul(F.add(F.expand_dims(u, -1), i), alpha)),
                F.expand_dims(F.floor(F.mul(u, alpha)), -1))
    return F.concat([F.cast(seq, mstype.int64), last], -1)


def _fractional(input: Any, kernel_size: Any, output_size: Any, output_ratio: Any,  # noqa: A002
                return_indices: bool, samples: Any, nd: int, op: str) -> Any:
    x = F._tensor(input, op, "input")
    if x.dtype not in _FLOATS or x.ndim not in (nd + 1, nd + 2):
        raise TypeError(f"For '{op}', 'input' must be a {nd + 1}-D or {nd + 2}-D float Tensor, "
                        f"but got {x.dtype} of shape {list(x.shape)}.")
    batched = x.ndim == nd + 2
    if not batched:
        x = F.expand_dims(x, 0)
    n, c = x.shape[:2]
    dims = tuple(x.shape[2:])
    k = _ints(kernel_size, nd, op, "kernel_size", 1)
    if output_size is None and output_ratio is None:
        raise ValueError(f"For '{op}', 'output_size' or 'output_ratio' must be given.")
    if output_size is not None:
        out = _ints(output_size, nd, op, "output_size", 1)
    else:
        ratio = tuple(output_ratio) if isinstance(output_ratio, (tuple, list)) else \
            (output_ratio,) * nd
        if len(ratio) != nd or not all(isinstance(r, (int, float)) and not isinstance(r, bool)
                                       and 0 < r < 1 for r in ratio):
            raise ValueError(f"For '{op}', 'output_ratio' must be {nd} numbers in (0, 1), but "
                             f"got {output_ratio!r}.")
        out = tuple(int(d * r) for d, r in zip(dims, ratio))
    if any(o + ki - 1 > d or o < 1 for o, ki, d in zip(out, k, dims)):
        raise ValueError(f"For '{op}', the output size {list(out)} plus the kernel size "
                         f"{list(k)} less one must not exceed the input's spatial size "
                         f"{list(dims)}.")
    F._sizes((n, c, math.prod(out), math.prod(k)), op, "output_size")
    if samples is None:
        # a draw recorded as an operation: a compiled function draws anew on every call
        u = draw(shape=(n, c, nd), kind="uniform", dtype=x.dtype.np_dtype, seed=None)
    else:
        u = F._tensor(samples, op, "_random_samples")
        if u.dtype not in _FLOATS or tuple(u.shape) != (n, c, nd):
            raise ValueError(f"For '{op}', '_random_samples' must be a float Tensor of shape "
                             f"{[n, c, nd]}, but got {u.dtype} of shape {list(u.shape)}.")
    u = F.stop_gradient(u)
    # the samples list the width first for 2-D pooling, the depth first for 3-D (PyTorch's)
    order = (1, 0) if nd == 2 else (0, 1, 2)
    strides = [math.prod(dims[a + 1:]) for a in range(nd)]
    base = None  # flat position of each window's first element: (N, C, *out)
    for a in range(nd):
        st = _starts(F.getitem(u, (slice(None), slice(None), order[a])), dims[a], out[a], k[a])
        st = F.reshape(st, (n, c) + (1,) * a + (out[a],) + (1,) * (nd - a - 1))
        term = F.mul(st, strides[a])
        base = term if base is None else F.add(base, term)
    base = F.reshape(F.broadcast_to(base, (n, c) + out), (n, c, -1))
    offsets = np.array([sum(t * s for t, s in zip(tap, strides))
                        for tap in itertools.product(*(range(ki) for ki in k))], np.int64)
    # every window element, in row-major order: the first maximum wins, as in PyTorch
    cand = F.add(F.expand_dims(base, -1), Tensor(offsets))             # (N, C, P, K)
    flat_x = F.reshape(x, (n, c, -1))
    seen = take_along(F.stop_gradient(flat_x), F.reshape(cand, (n, c, -1)), 2)
    best = F.argmax(F.reshape(seen, tuple(cand.shape)), -1, True)      # (N, C, P, 1)
    idx = F.squeeze(take_along(cand, best, 3), -1)                       # (N, C, P)
    values = F.reshape(take_along(flat_x, idx, 2), (n, c) + out)
    index = F.reshape(idx, (n, c) + out)
    if not batched:
        values, index = F.squeeze(values, 0), F.squeeze(index, 0)
    return (values, index) if return_indices else values


@_composite
def fractional_max_pool2d(input: Any, kernel_size: Any, output_size: Any = None,  # noqa: A002
                          output_ratio: Any = None, return_indices: bool = False,
                          _random_samples: Any = None) -> Any:
    """Fractional max pooling of (N, C, H, W) or (C, H, W) to ``output_size`` (or
    ``output_ratio`` of the input size) with ``kernel_size`` windows; ``_random_samples``
    (N, C, 2) in [0, 1) place the windows (drawn from the seeded generator when None).
    With ``return_indices`` also the Int64 flat positions of the maxima."""
    return _fractional(input, kernel_size, output_size, output_ratio, return_indices,
                       _random_samples, 2, "fractional_max_pool2d")


@_composite
def fractional_max_pool3d(input: Any, kernel_size: Any, output_size: Any = None,  # noqa: A002
                          output_ratio: Any = None, return_indices: bool = False,
                          _random_samples: Any = None) -> Any:
    """Fractional max pooling of (N, C, D, H, W) or (C, D, H, W); ``_random_samples``
    (N, C, 3)."""
    return _fractional(input, kernel_size, output_size, output_ratio, return_indices,
                       _random_samples, 3, "fractional_max_pool3d")


__all__ = ["max_unpool1d", "max_unpool2d", "max_unpool3d", "fractional_max_pool2d",
           "fractional_max_pool3d"]
