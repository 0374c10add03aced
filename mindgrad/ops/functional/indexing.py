"""Indexing: ``getitem`` and the in-place ``setitem`` step, ``gather``/``index_select``/
``gather_nd``, the scatters, ``one_hot`` and ``masked_fill``."""
from __future__ import annotations

import builtins
import numbers
from typing import Any

import numpy as np

from ...core import dtype as mstype
from ...common.parameter import Parameter as _Parameter  # (not one of the operators)
from ...core.tensor import Tensor
from ...prims import compare as C
from ...prims import getitem as G
from ...prims import structural as S
from ...prims import indexing as IX
from ._args import (_axis, _composite, _converted, _int_tensor, _is_int, _near, _public_names,
                    _sizes, _tensor)
from .creation import cast


def _index_part(i: Any, arrays: list, x: Tensor) -> Any:
    if isinstance(i, Tensor):
        arrays.append(i)
        return G.ArraySlot(len(arrays) - 1)
    if isinstance(i, (list, np.ndarray)):
        arrays.append(_near(_converted(i, "getitem", "index"), x))
        return G.ArraySlot(len(arrays) - 1)
    if isinstance(i, (int, np.integer, slice)) or i is None or i is Ellipsis:
        return int(i) if isinstance(i, np.integer) else i
    if isinstance(i, bool):
        return i
    raise IndexError(f"For 'getitem', unsupported index element {i!r} of type "
                     f"{type(i).__name__}.")


def getitem(x: Tensor, index: Any) -> Tensor:
    """``x[index]`` with ints, slices (with steps), None, Ellipsis, bool masks and integer
    arrays."""
    arrays: list = []
    x = _tensor(x, "getitem")
    if isinstance(index, tuple):
        template = tuple(_index_part(i, arrays, x) for i in index)
    else:
        template = _index_part(index, arrays, x)
    return G.getitem(x, *arrays, index=template)


def _setitem_value(value: Any, dt: np.dtype, x: Tensor) -> Tensor:
    """The assigned value as a Tensor of the target's dtype (MindSpore casts it), data on
    the target's device."""
    if isinstance(value, Tensor):
        return value if value._data.dtype == dt else S.cast(value, dtype=dt)
    if isinstance(value, (list, tuple)) and builtins.any(isinstance(v, Tensor) for v in value):
        return S.stack(*[_setitem_value(v, dt, x) for v in value], axis=0)  # keeps gradients
    if isinstance(value, (bool, numbers.Number, np.ndarray, np.generic, list, tuple)):
        try:
            return _near(Tensor(np.asarray(value).astype(dt)), x)
        except (TypeError, ValueError):
            pass
    raise TypeError(f"For 'setitem', the value must be a number, bool, list, tuple, "
                    f"numpy.ndarray or Tensor, but got {type(value).__name__}: {value!r}.")


def _setitem(x: Tensor, index: Any, value: Any) -> Tensor:
    """A new tensor equal to ``x`` with ``x[index] = value`` (what ``Tensor.__setitem__``
    computes before it rebinds the name): the value is cast to x's dtype and broadcast to
    the shape of ``x[index]``. Gradients flow to x (except at the assigned positions) and
    to the value."""
    arrays: list = []
    if isinstance(index, tuple):
        template = tuple(_index_part(i, arrays, x) for i in index)
    else:
        template = _index_part(index, arrays, x)
    v = _setitem_value(value, x._data.dtype, x)
    vs = v.shape
    if vs and vs[0] == 1:  # NumPy and MindSpore drop extra leading 1s of the value
        extra = len(vs) - G.target_rank(x.ndim, template, tuple(arrays))
        if extra > 0 and builtins.all(d == 1 for d in vs[:extra]):
            v = S.reshape(v, shape=vs[extra:])
    return G.setitem(x, v, *arrays, index=template)


def gather(x: Any, indices: Any, axis: int = 0) -> Tensor:
    """Take the slices of ``x`` at ``indices`` along ``axis``."""
    x = _tensor(x, "gather")
    if x.ndim == 0:
        raise ValueError("For 'gather', 'input_params' must have rank >= 1, but got a 0-D "
                         "Tensor.")
    a = _axis(axis, x.ndim, "gather")
    idx = _tensor(indices, "gather", "input_indices")
    if idx.dtype.np_dtype.kind not in "iu":
        raise TypeError(f"For 'gather', 'input_indices' must be an integer Tensor, but got "
                        f"{idx.dtype}.")
    index = (slice(None),) * a + (G.ArraySlot(0),)
    if IX.is_eager(idx) and isinstance(idx._data, np.ndarray):
        try:  # NumPy's own bounds check finds a bad index at no cost (CuPy has none)
            return G.getitem(x, idx, index=index)
        except IndexError:
            _gather_indices(x, idx, a)  # raises the clear message
            raise
    return G.getitem(x, _gather_indices(x, idx, a), index=index)


def _gather_indices(x: Tensor, idx: Tensor, axis: int) -> Tensor:
    n = x.shape[axis]
    return IX.checked_indices(idx, n, "gather", "each value of 'input_indices'", lo=-n,
                              what=f" (axis {axis} of an input of shape {list(x.shape)})",
                              error=IndexError)


def index_select(input: Any, axis: int, index: Any) -> Tensor:
    """The slices of ``input`` at the 1-D integer ``index`` along ``axis``."""
    x = _tensor(input, "index_select", "input")
    if x.ndim == 0:
        raise ValueError("For 'index_select', 'input' must have rank >= 1, but got a 0-D "
                         "Tensor.")
    a = _axis(axis, x.ndim, "index_select")
    idx = _int_tensor(index, "index_select", "index")
    if idx.ndim != 1:
        raise ValueError(f"For 'index_select', 'index' must be 1-D, but got shape "
                         f"{list(idx.shape)}.")
    idx = IX.checked_indices(idx, x.shape[a], "index_select", "each value of 'index'",
                             what=f" (axis {a} of an input of shape {list(x.shape)})",
                             error=IndexError)
    return G.getitem(x, idx, index=(slice(None),) * a + (G.ArraySlot(0),))


def gather_nd(input_x: Any, indices: Any) -> Tensor:
    """``out[i...] = input_x[indices[i..., 0], ..., indices[i..., k-1]]`` (slices when k is
    less than the rank)."""
    x = _tensor(input_x, "gather_nd", "input_x")
    return IX.gather_nd(x, _int_tensor(indices, "gather_nd", "indices"))


def scatter_nd(indices: Any, updates: Any, shape: Any) -> Tensor:
    """A zero tensor of ``shape`` with ``updates`` added at the index tuples in ``indices``
    (repeated indices accumulate); the transpose of ``gather_nd``."""
    u = _tensor(updates, "scatter_nd", "updates")
    if isinstance(shape, Tensor) or not isinstance(shape, (tuple, list)) or not shape or \
            builtins.any(isinstance(d, bool) or not isinstance(d, int) or d <= 0 for d in shape):
        raise TypeError(f"For 'scatter_nd', 'shape' must be a non-empty tuple of positive "
                        f"ints, but got {shape!r}.")
    return IX.scatter_nd(_int_tensor(indices, "scatter_nd", "indices"), u, shape=tuple(shape))


def _scatter_args(input_x: Any, indices: Any, updates: Any, op: str) -> tuple:
    x = _tensor(input_x, op, "input_x")
    u = _tensor(updates, op, "updates")
    if u.dtype != x.dtype:
        raise TypeError(f"For '{op}', 'updates' must have the dtype of 'input_x' ({x.dtype}), "
                        f"but got {u.dtype}.")
    return x, _int_tensor(indices, op, "indices"), u


def tensor_scatter_add(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """A copy of ``input_x`` with ``updates`` added at the index tuples in ``indices``
    (repeated indices accumulate)."""
    x, idx, u = _scatter_args(input_x, indices, updates, "tensor_scatter_add")
    return IX.tensor_scatter_add(x, idx, u)


def tensor_scatter_update(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """A copy of ``input_x`` with the slices at ``indices`` replaced by ``updates`` (for
    repeated indices the last update is kept and alone receives a gradient)."""
    x, idx, u = _scatter_args(input_x, indices, updates, "tensor_scatter_update")
    return IX.tensor_scatter_update(x, idx, u)


@_composite
def scatter_add(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """MindSpore's ``scatter_add``: ``updates[i...]`` is added to row ``indices[i...]`` of
    ``input_x``; returns the sum, and a Parameter ``input_x`` takes it as its new value."""
    x, idx, u = _scatter_args(input_x, indices, updates, "scatter_add")
    out = IX.tensor_scatter_add(x, S.reshape(idx, shape=idx.shape + (1,)), u)
    if isinstance(input_x, _Parameter):  # MindSpore updates the Parameter in place
        input_x.set_data(out)
    return out


def one_hot(indices: Any, depth: int, on_value: Any = 1, off_value: Any = 0,
            axis: int = -1) -> Tensor:
    """One-hot encoding along a new ``axis``; indices outside ``[0, depth)`` give all
    ``off_value``. The output has ``on_value``'s dtype; no gradient flows."""
    idx = _int_tensor(indices, "one_hot", "indices")
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise ValueError(f"For 'one_hot', 'depth' must be a non-negative int, but got "
                         f"{depth!r}.")
    _sizes(idx.shape + (int(depth),), "one_hot", "depth")
    _sizes((int(depth),), "one_hot", "depth")  # (one row of it is made even for no index)
    if not _is_int(axis):
        raise TypeError(f"For 'one_hot', 'axis' must be an int, but got {type(axis).__name__}.")
    if not -1 <= axis <= idx.ndim:
        raise ValueError(f"For 'one_hot', 'axis' must be in [-1, {idx.ndim}], but got {axis}.")
    on = _tensor(on_value, "one_hot", "on_value")
    off = _tensor(off_value, "one_hot", "off_value")
    for arg, v in (("on_value", on), ("off_value", off)):
        if v.size != 1:
            raise ValueError(f"For 'one_hot', '{arg}' must be a number or a one-element "
                             f"Tensor, but got shape {list(v.shape)}.")
    return IX.one_hot(idx, on, off, depth=int(depth), axis=idx.ndim if axis == -1 else axis)


def masked_fill(input_x: Any, mask: Any, value: Any) -> Tensor:
    """``input_x`` with ``value`` where ``mask`` is True (mask broadcasts). A Tensor
    ``value`` receives the gradient of the filled positions."""
    x = _tensor(input_x, "masked_fill", "input_x")
    m = _tensor(mask, "masked_fill", "mask")
    if m.dtype != mstype.bool_:
        raise TypeError(f"For 'masked_fill', 'mask' must be a bool Tensor, but got {m.dtype}.")
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ValueError(f"For 'masked_fill', 'value' must be a number or a 0-D Tensor, "
                             f"but got shape {list(value.shape)}.")
        v = value if value.dtype == x.dtype else cast(value, x.dtype)
    elif isinstance(value, (int, float, bool)):
        v = _near(Tensor(np.asarray(value, dtype=x.dtype.np_dtype)), x)
    else:
        raise TypeError(f"For 'masked_fill', 'value' must be a number or a Tensor, but got "
                        f"{type(value).__name__}.")
    try:
        fits = np.broadcast_shapes(m.shape, x.shape) == x.shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"For 'masked_fill', 'mask' of shape {list(m.shape)} can not "
                         f"broadcast to 'input_x' of shape {list(x.shape)}.")
    return C.select(m, v, x)


__all__ = _public_names(globals())
