"""Tensor methods that compute a new tensor and have no ``mindgrad.ops`` function of their
own (``x.argmax_with_value()``, ``x.ptp()``, ``x.choose(...)``, ``x.sum_to_size(...)``,
``x.H``, ...), each a composition of differentiable operations with MindSpore 2.10's method
arguments. ``tensor_methods.install`` puts them on ``Tensor``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from . import families
from . import functional as F
from . import random_ops as R
from . import sorting as SO


def _tensor(x: Any, op: str, name: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'Tensor.{op}', '{name}' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    return x


def _sizes(size: tuple, op: str) -> tuple:
    """``f(2, 3)`` and ``f((2, 3))`` alike."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in size):
        raise TypeError(f"For 'Tensor.{op}', the sizes must be ints, but got {size}.")
    return tuple(size)


def _extreme_with_value(x: Tensor, axis: Any, keep_dims: bool, largest: bool, op: str):
    # MindSpore's (values, Int64 indices); the gradient goes to the first extreme, as
    # ops.max / ops.min give it
    # (with axis None MindSpore gives the extreme of all elements and index 0, as ops.max)
    return F.max(x, axis, keep_dims) if largest else F.min(x, axis, keep_dims)


def argmax_with_value(self, axis: Any = 0, keep_dims: bool = False) -> tuple:
    """``(maxima, their Int64 indices)`` along ``axis`` (with None: the maximum of all
    elements and index 0, as MindSpore gives)."""
    return _extreme_with_value(self, axis, keep_dims, True, "argmax_with_value")


def argmin_with_value(self, axis: Any = 0, keep_dims: bool = False) -> tuple:
    """``(minima, their Int64 indices)`` along ``axis`` (with None: the minimum of all
    elements and index 0, as MindSpore gives)."""
    return _extreme_with_value(self, axis, keep_dims, False, "argmin_with_value")


def ptp(self, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The range ``max - min`` along ``axis`` (all axes when None)."""
    return F.sub(F.reduce_max(self, axis, keepdims), F.reduce_min(self, axis, keepdims))


def choose(self, choices: Any, mode: str = "clip") -> Tensor:
    """``choices[self[i]][i]`` for every position ``i`` (the index tensor and the choices
    broadcast together). ``mode`` 'clip' clips the indices to ``[0, n)``, 'wrap' takes them
    modulo ``n``; differentiable in the choices."""
    if mode not in ("clip", "wrap"):
        raise ValueError(f"For 'Tensor.choose', 'mode' must be 'clip' or 'wrap', but got "
                         f"{mode!r}.")
    if self.dtype not in (mstype.int8, mstype.int16, mstype.int32, mstype.int64,
                          mstype.uint8):
        raise TypeError(f"For 'Tensor.choose', the index tensor must have an integer dtype, "
                        f"but got {self.dtype}.")
    if isinstance(choices, Tensor):
        choices = F.unstack(choices, 0)
    choices = [c if isinstance(c, Tensor) else Tensor(c) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("For 'Tensor.choose', 'choices' must not be empty.")
    dt = choices[0].dtype
    shape = np.broadcast_shapes(tuple(self.shape), *(tuple(c.shape) for c in choices))
    if self.ndim == 0 or not shape:
        raise ValueError(f"For 'Tensor.choose', the index tensor and the choices must not be "
                         f"scalars, but got index shape {list(self.shape)} and choices of "
                         f"shape {list(shape)}.")
    stacked = F.stack([F.broadcast_to(F.cast(c, dt) if c.dtype != dt else c, shape)
                       for c in choices], 0)
    idx = self._data
    idx = np.clip(idx, 0, n - 1) if mode == "clip" else np.mod(idx, n)
    index = Tensor(np.broadcast_to(idx.astype(np.int64), shape)[None])
    return F.squeeze(SO.gather_elements(stacked, 0, index), 0)


def fill_diagonal(self, fill_value: Any, wrap: bool = False) -> Tensor:
    """A copy with the main diagonal set to ``fill_value`` (a tensor of rank >= 2; above 2
    every axis must have the same length). ``wrap`` continues the diagonal of a tall matrix
    every ``cols + 1`` rows, as NumPy's ``fill_diagonal`` does."""
    shape = tuple(self.shape)
    if len(shape) < 2:
        raise ValueError(f"For 'Tensor.fill_diagonal', the tensor must have rank >= 2, but "
                         f"got shape {list(shape)}.")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise ValueError(f"For 'Tensor.fill_diagonal', every axis must have the same length "
                         f"when the rank is above 2, but got shape {list(shape)}.")
    mask = np.zeros(shape, bool)
    np.fill_diagonal(mask, True, wrap=bool(wrap))
    return F.masked_fill(self, Tensor(mask), fill_value)


def masked_scatter(self, mask: Any, source: Any) -> Tensor:
    """A copy with the positions where ``mask`` (broadcast to this shape) is True taking the
    first elements of ``source`` in order; differentiable in both."""
    mask = _tensor(mask, "masked_scatter", "mask")
    source = _tensor(source, "masked_scatter", "source")
    if mask.dtype != mstype.bool_:
        raise TypeError(f"For 'Tensor.masked_scatter', 'mask' must be a bool Tensor, but got "
                        f"{mask.dtype}.")
    m = np.broadcast_to(mask._data, tuple(self.shape)) if tuple(mask.shape) != \
        tuple(self.shape) else mask._data
    n = int(m.sum())
    if n > source.size:
        raise ValueError(f"For 'Tensor.masked_scatter', 'source' has {source.size} elements "
                         f"but 'mask' selects {n}.")
    flat_positions = np.flatnonzero(m)
    picked = F.reshape(source, (-1,))[:n] if n else None
    if picked is None:
        return self
    if picked.dtype != self.dtype:
        picked = F.cast(picked, self.dtype)
    index = Tensor(flat_positions.astype(np.int64).reshape(-1, 1))
    flat = F.tensor_scatter_update(F.reshape(self, (-1,)), index, picked)
    return F.reshape(flat, tuple(self.shape))


def sum_to_size(self, *size: Any) -> Tensor:
    """The sum of this tensor down to ``size`` (which must broadcast to the tensor's shape):
    the reduction that undoes a broadcast."""
    size = _sizes(size, "sum_to_size")
    shape = tuple(self.shape)
    lead = len(shape) - len(size)
    if lead < 0 or any(s not in (1, n) for s, n in zip(size, shape[lead:])):
        raise ValueError(f"For 'Tensor.sum_to_size', size {list(size)} is not expandable to "
                         f"the tensor's shape {list(shape)}.")
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size)
                                      if s == 1 and shape[lead + i] != 1)
    out = F.reduce_sum(self, axes, True) if axes else self
    return F.reshape(out, size)


def _like_draw(self: Tensor, op: str) -> Tensor:
    if self._data.dtype.kind != "f":
        raise TypeError(f"For 'Tensor.{op}', the tensor must have a float dtype, but got "
                        f"{self.dtype}.")
    return self


def cauchy(self, median: float = 0.0, sigma: float = 1.0) -> Tensor:
    """A tensor of this one's shape and dtype drawn from the Cauchy distribution
    ``median + sigma * tan(pi * (u - 1/2))`` (``u`` uniform in [0, 1))."""
    _like_draw(self, "cauchy")
    u = R.rand(tuple(self.shape), dtype=self.dtype)
    return F.add(F.mul(F.tan(F.mul(F.sub(u, 0.5), math.pi)), float(sigma)), float(median))


def log_normal(self, mean: float = 1.0, std: float = 2.0) -> Tensor:
    """A tensor of this one's shape and dtype drawn from the log-normal distribution
    ``exp(mean + std * z)`` (``z`` standard normal)."""
    _like_draw(self, "log_normal")
    z = F.cast(R.standard_normal(tuple(self.shape)), self.dtype)
    return F.exp(F.add(F.mul(z, float(std)), float(mean)))


def allclose(self, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """Whether every element is close to ``other``'s (``isclose``), as a Python bool."""
    return bool(F.all(F.isclose(self, other, rtol, atol, equal_nan)))


def take(self, indices: Any, axis: Any = None, mode: str = "clip") -> Tensor:
    """The elements at ``indices`` along ``axis`` (of the flattened tensor when None), the
    indices clipped to the axis ('clip') or taken modulo its length ('wrap')."""
    if mode not in ("clip", "wrap"):
        raise ValueError(f"For 'Tensor.take', 'mode' must be 'clip' or 'wrap' ('raise' is "
                         f"not supported), but got {mode!r}.")
    indices = _tensor(indices, "take", "indices")
    x = F.reshape(self, (-1,)) if axis is None else self
    a = 0 if axis is None else F._axis(axis, x.ndim, "take")
    n = x.shape[a]
    i = indices._data
    i = np.clip(i, 0, n - 1) if mode == "clip" else np.mod(i, n)
    return F.gather(x, Tensor(i.astype(np.int64)), a)


def select(self, dim: Any, index: Any) -> Tensor:
    """The slice at ``index`` along ``dim`` (that axis removed). MindSpore's other form
    ``select(condition, y)`` is ``where(condition, self, y)``."""
    if isinstance(dim, Tensor) and dim.dtype == mstype.bool_:
        return F.select(dim, self, index)
    a = F._axis(dim, self.ndim, "select")
    n = self.shape[a]
    i = int(index)
    if not -n <= i < n:
        raise IndexError(f"For 'Tensor.select', index {i} is out of range for dimension "
                         f"{dim} of size {n}.")
    return F.getitem(self, (slice(None),) * a + (i % n,))


def where(self, condition: Any, y: Any) -> Tensor:
    """``self`` where ``condition`` is True, else ``y``."""
    return F.where(condition, self, y)


def type_(self, dtype: Any = None) -> Any:
    """The dtype's name (``'Float32'``) when ``dtype`` is None, else the tensor cast to
    ``dtype``."""
    if dtype is None:
        return str(self.dtype)
    return F.cast(self, dtype)


def new_empty(self, size: Any, *, dtype: Any = None, device: Any = None) -> Tensor:
    """A new tensor of shape ``size`` (of this tensor's dtype unless ``dtype`` is given),
    filled with zeros (its values are unspecified in MindSpore)."""
    if device not in (None, "CPU", "GPU", "Ascend") and not isinstance(device, str):
        raise TypeError(f"For 'Tensor.new_empty', 'device' must be a str, but got "
                        f"{type(device).__name__}.")
    size = size if isinstance(size, (tuple, list)) else (size,)
    return F._fill(dtype if dtype is not None else self.dtype, tuple(size), 0, "new_empty")


def resize(self, *new_shape: Any) -> Tensor:
    """A new tensor of shape ``new_shape`` holding this tensor's elements in order,
    truncated or padded with zeros (the tensor itself is unchanged)."""
    shape = _sizes(new_shape, "resize")
    n = int(np.prod(shape)) if shape else 1
    flat = F.reshape(self, (-1,))
    if n <= self.size:
        flat = flat[:n]
    else:
        flat = F.concat((flat, F._fill(self.dtype, (n - self.size,), 0, "resize")), 0)
    return F.reshape(flat, shape)


def itemset(self, *args: Any) -> Tensor:
    """A copy with one element replaced: ``itemset(value)`` for a one-element tensor,
    ``itemset(flat_index, value)`` or ``itemset((i, j, ...), value)``. The tensor itself is
    unchanged (as in MindSpore)."""
    if len(args) == 1:
        if self.size != 1:
            raise IndexError(f"For 'Tensor.itemset', one argument (the value) needs a tensor "
                             f"of one element, but the tensor has shape {list(self.shape)}.")
        index, value = (0,) * self.ndim, args[0]
    elif len(args) == 2:
        index, value = args
        if isinstance(index, int):
            if not -self.size <= index < self.size:
                raise IndexError(f"For 'Tensor.itemset', index {index} is out of range for "
                                 f"a tensor of {self.size} elements.")
            index = np.unravel_index(index % self.size, tuple(self.shape))
        index = tuple(int(i) for i in index)
    else:
        raise TypeError(f"For 'Tensor.itemset', give the value, or an index and the value, "
                        f"but got {len(args)} arguments.")
    out = F.reshape(self, tuple(self.shape))
    out = Tensor._wrap(out._data.copy()) if type(out) is Tensor else out
    out[index] = value
    return out


def _check_matrix(self: Tensor, op: str, exact: bool) -> None:
    if (self.ndim != 2) if exact else (self.ndim < 2):
        want = "only a 2-D Tensor is supported" if exact else "the rank must be >= 2"
        raise ValueError(f"For 'Tensor.{op}', {want}, but got a {self.ndim}-D Tensor.")


def _adjoint(x: Tensor) -> Tensor:
    t = F.swapaxes(x, -1, -2)
    return families.function("conj")(t) if x._data.dtype.kind == "c" else t


def _H(self) -> Tensor:
    _check_matrix(self, "H", True)
    return _adjoint(self)


def _mH(self) -> Tensor:
    _check_matrix(self, "mH", False)
    return _adjoint(self)


def contiguous(self) -> Tensor:
    """This tensor when its elements are laid out in row-major order, else a copy that is
    (differentiable: the identity)."""
    a = self._data
    if self._trace is not None or a.flags.c_contiguous:
        return self
    return self.copy()


# name -> method or property, put on Tensor by ``tensor_methods.install``
METHODS = {"argmax_with_value": argmax_with_value, "argmin_with_value": argmin_with_value,
           "ptp": ptp, "choose": choose, "fill_diagonal": fill_diagonal,
           "masked_scatter": masked_scatter, "sum_to_size": sum_to_size, "cauchy": cauchy,
           "log_normal": log_normal, "allclose": allclose, "take": take, "select": select,
           "where": where, "type": type_, "new_empty": new_empty, "resize": resize,
           "itemset": itemset, "contiguous": contiguous,
           "H": property(_H), "mH": property(_mH)}

__all__: list = []
