"""``mindspore.mint``'s reductions and scans: ``sum``, ``mean``, ``prod``, ``max``/``min``
(over everything, along ``dim`` with indices, or elementwise of two tensors), ``amax``,
``argmax``, ``std``/``var`` with ``correction``, ``norm``, ``cumsum`` ... with torch-style
``dim``/``keepdim`` arguments, each composed of mindgrad operators."""
from __future__ import annotations

import builtins as _builtins  # max, min, sum, all, any are mint functions here
from typing import Any

from .. import ops
from ..core import dtype as mstype
from ..core.tensor import Tensor
from ._utils import tensor_arg

__all__ = ["sum", "mean", "prod", "amax", "amin", "all", "any", "max", "min", "argmax",
           "argmin", "std", "var", "std_mean", "var_mean", "logsumexp", "cumsum", "cumprod",
           "cummax", "cummin", "count_nonzero", "nansum", "norm", "median", "softmax", "kthvalue",
           "bincount", "histc", "unique_consecutive"]


def _cast(x: Any, dtype: Any) -> Any:
    return x if dtype is None else ops.cast(x, dtype)


def _dims(dim: Any) -> Any:
    """``None`` for all dimensions; a tuple stays a tuple (``()`` also means all)."""
    if isinstance(dim, list):
        dim = tuple(dim)
    return None if dim == () else dim


def sum(input: Any, dim: Any = None, keepdim: bool = False, *,  # noqa: A001,A002
        dtype: Any = None) -> Any:
    """The sum of ``input`` over ``dim`` (all dimensions when None)."""
    return ops.sum(_cast(input, dtype), _dims(dim), keepdim)


def mean(input: Any, dim: Any = None, keepdim: bool = False, *,  # noqa: A002
         dtype: Any = None) -> Any:
    """The mean of ``input`` over ``dim``."""
    return ops.mean(_cast(input, dtype), _dims(dim), keepdim)


def prod(input: Any, dim: Any = None, keepdim: bool = False, *,  # noqa: A002
         dtype: Any = None) -> Any:
    """The product of ``input`` over ``dim``."""
    return ops.prod(_cast(input, dtype), _dims(dim), keepdim)


def amax(input: Any, dim: Any = (), keepdim: bool = False) -> Any:  # noqa: A002
    """The largest value over ``dim`` (``()``: all dimensions)."""
    return ops.amax(input, _dims(dim), keepdim)


def amin(input: Any, dim: Any = (), keepdim: bool = False) -> Any:  # noqa: A002
    """The smallest value over ``dim`` (``()``: all dimensions)."""
    return ops.amin(input, _dims(dim), keepdim)


def all(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001,A002
    """Whether every element over ``dim`` is nonzero."""
    return ops.all(input, _dims(dim), keepdim)


def any(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001,A002
    """Whether some element over ``dim`` is nonzero."""
    return ops.any(input, _dims(dim), keepdim)


def _extreme(name: str, input: Any, dim: Any, keepdim: bool) -> Any:  # noqa: A002
    reduce, arg = (ops.amax, ops.argmax) if name == "max" else (ops.amin, ops.argmin)
    if isinstance(dim, Tensor):  # max(input, other): the elementwise extreme
        return (ops.maximum if name == "max" else ops.minimum)(input, dim)
    if dim is None:
        return reduce(input)
    if not isinstance(dim, int):
        raise TypeError(f"mint.{name}: 'dim' must be an int or a Tensor, "
                        f"got {type(dim).__name__}")
    return reduce(input, dim, keepdim), ops.cast(arg(input, dim, keepdim), mstype.int64)


def max(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001,A002
    """``max(input)``: the largest element; ``max(input, dim, keepdim=False)``: the tuple
    (values, indices) along ``dim``; ``max(input, other)``: the elementwise maximum."""
    return _extreme("max", input, dim, keepdim)


def min(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001,A002
    """``min(input)``, ``min(input, dim, keepdim=False)`` -> (values, indices), or
    ``min(input, other)``: as ``max``."""
    return _extreme("min", input, dim, keepdim)


def argmax(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A002
    """The index of the largest value along ``dim`` (of the flattened tensor when None)."""
    return ops.argmax(input, dim, keepdim)


def argmin(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A002
    """The index of the smallest value along ``dim`` (of the flattened tensor when None)."""
    if dim is None:
        return ops.argmin(ops.reshape(input, (-1,)), 0, False)
    return ops.argmin(input, dim, keepdim)


def std(input: Any, dim: Any = None, *, correction: int = 1,  # noqa: A002
        keepdim: bool = False) -> Any:
    """The standard deviation over ``dim`` with ``correction`` (Bessel's: 1)."""
    return ops.std(input, _dims(dim), correction, keepdim)


def var(input: Any, dim: Any = None, *, correction: int = 1,  # noqa: A002
        keepdim: bool = False) -> Any:
    """The variance over ``dim`` with ``correction`` (Bessel's: 1)."""
    return ops.var(input, _dims(dim), correction, keepdim)


def std_mean(input: Any, dim: Any = None, *, correction: int = 1,  # noqa: A002
             keepdim: bool = False) -> tuple:
    """``(std, mean)`` over ``dim``."""
    return ops.std_mean(input, _dims(dim), correction, keepdim)


def var_mean(input: Any, dim: Any = None, *, correction: int = 1,  # noqa: A002
             keepdim: bool = False) -> tuple:
    """``(var, mean)`` over ``dim``."""
    return ops.var_mean(input, _dims(dim), correction, keepdim)


def logsumexp(input: Any, dim: Any, keepdim: bool = False) -> Any:  # noqa: A002
    """``log(sum(exp(input)))`` over ``dim``, computed stably."""
    return ops.logsumexp(input, dim, keepdim)


def cumsum(input: Any, dim: int, dtype: Any = None) -> Any:  # noqa: A002
    """The running sum along ``dim``."""
    return ops.cumsum(input, dim, dtype)


def cumprod(input: Any, dim: int, dtype: Any = None) -> Any:  # noqa: A002
    """The running product along ``dim``."""
    return ops.cumprod(input, dim, dtype)


def cummax(input: Any, dim: int) -> tuple:  # noqa: A002
    """``(values, indices)`` of the running maximum along ``dim``."""
    return ops.cummax(input, dim)


def cummin(input: Any, dim: int) -> tuple:  # noqa: A002
    """``(values, indices)`` of the running minimum along ``dim``."""
    return ops.cummin(input, dim)


def count_nonzero(input: Any, dim: Any = None) -> Any:  # noqa: A002
    """The number of nonzero elements over ``dim`` (int64, as MindSpore's mint)."""
    return ops.count_nonzero(input, () if dim is None else dim, False, mstype.int64)


def nansum(input: Any, dim: Any = None, keepdim: bool = False, *,  # noqa: A002
           dtype: Any = None) -> Any:
    """The sum over ``dim`` counting NaN as zero."""
    return ops.nansum(input, _dims(dim), keepdim, dtype=dtype)


def norm(input: Any, p: Any = "fro", dim: Any = None, keepdim: bool = False, *,  # noqa: A002
         dtype: Any = None) -> Any:
    """The ``p``-norm of ``input`` over ``dim`` (``"fro"``: the 2-norm of the elements)."""
    x = _cast(input, dtype)
    if p == "fro":
        p = 2
    return ops.vector_norm(x, p, _dims(dim), keepdim)


def median(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A002
    """The lower median of all elements, or ``(values, indices)`` along ``dim``."""
    tensor_arg(input, "median")
    if dim is None:
        flat = ops.sort(ops.reshape(input, (-1,)))[0]
        return flat[(flat.shape[0] - 1) // 2]
    values, indices = ops.sort(input, dim)
    k = (input.shape[dim] - 1) // 2
    v = ops.narrow(values, dim, k, 1)
    i = ops.narrow(indices, dim, k, 1)
    if not keepdim:
        v, i = ops.squeeze(v, dim), ops.squeeze(i, dim)
    return v, i


def softmax(input: Any, dim: int, *, dtype: Any = None) -> Any:  # noqa: A002
    """``exp(input)`` normalised to sum 1 along ``dim``."""
    return ops.softmax(_cast(input, dtype), dim)


def kthvalue(input: Any, k: int, dim: int = -1, keepdim: bool = False) -> tuple:  # noqa: A002
    """``(values, indices)`` of the ``k``-th smallest element (``k`` from 1) along
    ``dim``."""
    tensor_arg(input, "kthvalue")
    size = input.shape[dim] if input.ndim else 1
    if not 1 <= k <= size:
        raise ValueError(f"mint.kthvalue: 'k' must be in [1, {size}] for 'input' of shape "
                         f"{tuple(input.shape)} along dim {dim}, got {k}")
    values, indices = ops.sort(input, dim)
    v = ops.narrow(values, dim, k - 1, 1)
    i = ops.cast(ops.narrow(indices, dim, k - 1, 1), mstype.int64)
    if not keepdim:
        v, i = ops.squeeze(v, dim), ops.squeeze(i, dim)
    return v, i


def bincount(input: Any, weights: Any = None, minlength: int = 0) -> Any:  # noqa: A002
    """How often each value ``0 .. max(input)`` occurs in the 1-D non-negative integer
    ``input`` (summing ``weights`` instead of ones when given)."""
    tensor_arg(input, "bincount")
    if input.ndim != 1 or ops.is_floating_point(input):
        raise ValueError(f"mint.bincount: 'input' must be a 1-D integer tensor, got shape "
                         f"{tuple(input.shape)} and dtype {input.dtype}")
    if input.shape[0] and int(ops.amin(input).asnumpy()) < 0:
        raise ValueError("mint.bincount: 'input' must not hold negative values")
    n = _builtins.max(int(ops.amax(input).asnumpy()) + 1 if input.shape[0] else 0, minlength)
    hot = ops.one_hot(input, n, 1, 0)
    if weights is None:
        return ops.sum(ops.cast(hot, mstype.int64), 0)
    return ops.sum(ops.mul(ops.cast(hot, weights.dtype), ops.unsqueeze(weights, 1)), 0)


def histc(input: Any, bins: int = 100, min: float = 0, max: float = 0) -> Any:  # noqa: A001,A002
    """The counts of ``input``'s elements in ``bins`` equal bins over ``[min, max]`` (the
    data's range when both are 0), in ``input``'s dtype; elements outside are ignored and
    ``max`` itself falls in the last bin."""
    tensor_arg(input, "histc")
    if bins <= 0:
        raise ValueError(f"mint.histc: 'bins' must be positive, got {bins}")
    x = ops.reshape(ops.stop_gradient(input), (-1,))
    lo, hi = float(min), float(max)
    if lo == hi and x.shape[0]:
        lo, hi = float(ops.amin(x).asnumpy()), float(ops.amax(x).asnumpy())
    if lo == hi:  # one value (or none): PyTorch widens the range by one on each side
        lo, hi = lo - 1.0, hi + 1.0
    if lo > hi:
        raise ValueError(f"mint.histc: 'max' ({max}) must not be below 'min' ({min})")
    inside = ops.logical_and(ops.ge(x, lo), ops.le(x, hi))
    k = ops.cast(ops.floor(ops.mul(ops.sub(x, lo), bins / (hi - lo))), mstype.int64)
    k = ops.clamp(k, 0, bins - 1)
    hot = ops.mul(ops.cast(ops.one_hot(k, bins, 1, 0), input.dtype),
                  ops.unsqueeze(ops.cast(inside, input.dtype), 1))
    return ops.sum(hot, 0)


def unique_consecutive(input: Any, return_inverse: bool = False,  # noqa: A002
                       return_counts: bool = False, dim: int | None = None) -> Any:
    """The elements of the flattened ``input`` with each run of equal neighbours kept once;
    with ``return_inverse`` also each element's run number, with ``return_counts`` each
    run's length (int64)."""
    tensor_arg(input, "unique_consecutive")
    if dim is not None:
        raise ValueError("mint.unique_consecutive: mindgrad supports dim=None (the "
                         "flattened tensor) only")
    x = ops.reshape(input, (-1,))
    n = x.shape[0]
    starts = ops.cat((ops.ones((_builtins.min(n, 1),), mstype.bool_),
                      ops.ne(x[1:], x[:-1])), 0) if n else ops.zeros((0,), mstype.bool_)
    values = ops.masked_select(x, starts)
    out = [values]
    if return_inverse:
        inverse = ops.sub(ops.cumsum(ops.cast(starts, mstype.int64), 0), 1)
        out.append(ops.reshape(inverse, tuple(input.shape)))
    if return_counts:
        where = ops.reshape(ops.cast(ops.nonzero(starts), mstype.int64), (-1,))
        ends = ops.cat((where[1:], ops.full((1,), n, dtype=mstype.int64)), 0)
        out.append(ops.sub(ends, where))
    return out[0] if len(out) == 1 else tuple(out)
