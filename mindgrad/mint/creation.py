"""``mindspore.mint``'s creation and random functions: ``zeros``, ``full``, ``arange``,
``eye``, ``*_like``, ``rand``, ``randn``, ``randint``, ``randperm``, ``normal``,
``bernoulli``, ``multinomial`` (the random ones draw from mindgrad's seeded generator)."""
from __future__ import annotations

from typing import Any, Sequence

from .. import ops
from ..core import dtype as mstype
from ._utils import tensor_arg

__all__ = ["zeros", "ones", "zeros_like", "ones_like", "full", "full_like", "arange", "eye",
           "empty", "empty_like", "rand", "randn", "rand_like", "randn_like", "randint",
           "randint_like", "randperm", "normal", "bernoulli", "multinomial"]


def _size(size: Any) -> tuple:
    """``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])`` all mean the shape ``(2, 3)``."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    return tuple(int(s) for s in size)


def zeros(size: Any, *, dtype: Any = None) -> Any:
    """A tensor of zeros of shape ``size`` (float32 by default)."""
    return ops.zeros(tuple(size) if isinstance(size, (list, tuple)) else size,
                     dtype or mstype.float32)


def ones(size: Any, *, dtype: Any = None) -> Any:
    """A tensor of ones of shape ``size`` (float32 by default)."""
    return ops.ones(tuple(size) if isinstance(size, (list, tuple)) else size,
                    dtype or mstype.float32)


def zeros_like(input: Any, *, dtype: Any = None) -> Any:  # noqa: A002
    """Zeros of ``input``'s shape and (by default) dtype."""
    return ops.zeros_like(input, dtype)


def ones_like(input: Any, *, dtype: Any = None) -> Any:  # noqa: A002
    """Ones of ``input``'s shape and (by default) dtype."""
    return ops.ones_like(input, dtype)


def full(size: Any, fill_value: Any, *, dtype: Any = None) -> Any:
    """A tensor of shape ``size`` filled with ``fill_value``."""
    return ops.full(tuple(size), fill_value, dtype=dtype)


def full_like(input: Any, fill_value: Any, *, dtype: Any = None) -> Any:  # noqa: A002
    """A tensor of ``input``'s shape (and dtype) filled with ``fill_value``."""
    return ops.full_like(input, fill_value, dtype=dtype)


def arange(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None) -> Any:
    """The numbers ``start, start + step, ...`` below ``end`` (``arange(n)``: 0 .. n-1)."""
    return ops.arange(start, end, step, dtype=dtype)


def eye(n: int, m: int | None = None, dtype: Any = None) -> Any:
    """The ``n x m`` identity matrix (float32 by default)."""
    return ops.eye(n, m, dtype or mstype.float32)


def empty(*size: Any, dtype: Any = None, device: Any = None) -> Any:
    """A tensor of shape ``size`` (mindgrad fills it with zeros)."""
    return ops.zeros(_size(size), dtype or mstype.float32)


def empty_like(input: Any, *, dtype: Any = None, device: Any = None) -> Any:  # noqa: A002
    """A tensor of ``input``'s shape (mindgrad fills it with zeros)."""
    return ops.zeros_like(input, dtype)


def rand(*size: Any, generator: Any = None, dtype: Any = None, device: Any = None) -> Any:
    """Uniform samples in [0, 1) of shape ``size``."""
    return ops.rand(*_size(size), dtype=dtype or mstype.float32)


def randn(*size: Any, generator: Any = None, dtype: Any = None, device: Any = None) -> Any:
    """Standard normal samples of shape ``size``."""
    return ops.randn(*_size(size), dtype=dtype or mstype.float32)


def rand_like(input: Any, *, dtype: Any = None, device: Any = None) -> Any:  # noqa: A002
    """Uniform samples in [0, 1) of ``input``'s shape."""
    return ops.rand_like(input, dtype=dtype)


def randn_like(input: Any, *, dtype: Any = None, device: Any = None) -> Any:  # noqa: A002
    """Standard normal samples of ``input``'s shape."""
    return ops.randn_like(input, dtype=dtype)


def randint(low: int, high: int | None = None, size: Any = None, *, generator: Any = None,
            dtype: Any = None, device: Any = None) -> Any:
    """Integers uniform in ``[low, high)`` of shape ``size`` (``randint(high, size)``
    counts from 0); int64 by default."""
    if size is None:
        if high is None:
            raise TypeError("mint.randint: 'size' is required")
        low, high, size = 0, low, high
    return ops.randint(low, high, tuple(size), dtype=dtype or mstype.int64)


def randint_like(input: Any, low: int, high: int | None = None, *,  # noqa: A002
                 dtype: Any = None, device: Any = None) -> Any:
    """Integers uniform in ``[low, high)`` of ``input``'s shape."""
    if high is None:
        low, high = 0, low
    return ops.randint_like(input, low, high, dtype=dtype or input.dtype)


def randperm(n: int, *, generator: Any = None, dtype: Any = mstype.int64) -> Any:
    """A random permutation of ``0 .. n-1``."""
    return ops.cast(ops.argsort(ops.rand(n)), dtype)


def normal(mean: Any = 0.0, std: Any = 1.0, size: Sequence[int] | None = None,
           generator: Any = None) -> Any:
    """Normal samples of mean ``mean`` and deviation ``std`` (tensors broadcast, or
    numbers with ``size``)."""
    if size is None:
        shape = _broadcast_shape(mean, std)
    else:
        shape = tuple(size)
    return ops.add(mean, ops.mul(std, ops.randn(*shape)))


def _broadcast_shape(*xs: Any) -> tuple:
    shape: tuple = ()
    for x in xs:
        s = tuple(getattr(x, "shape", ()))
        n = max(len(shape), len(s))
        a, b = (1,) * (n - len(shape)) + shape, (1,) * (n - len(s)) + s
        shape = tuple(max(i, j) for i, j in zip(a, b))
    return shape


def bernoulli(input: Any, *, generator: Any = None) -> Any:  # noqa: A002
    """1 with probability ``input`` (elementwise), else 0, in ``input``'s dtype."""
    tensor_arg(input, "bernoulli")
    return ops.cast(ops.lt(ops.rand_like(input), input), input.dtype)


def multinomial(input: Any, num_samples: int, replacement: bool = False, *,  # noqa: A002
                generator: Any = None) -> Any:
    """``num_samples`` category indices drawn from the weights in each row of ``input``."""
    return ops.multinomial(input, num_samples, replacement)
