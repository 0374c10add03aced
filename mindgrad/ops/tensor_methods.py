"""The Tensor methods of the operator catalogue (``x.sort()``, ``x.topk(2)``, ``x.tril()``,
``x.new_zeros(...)``, ...), each the function of ``mindgrad.ops`` of the same name with
MindSpore's method arguments. ``install`` puts them on ``Tensor`` (the Tensor class lives
below the operators): the methods the name table (``names.py``) lists, which are the
functions themselves, and the ones written here, whose arguments differ from the
function's. ``mindgrad.ops`` calls it once, when it is imported."""
from __future__ import annotations

from types import FunctionType
from typing import Any, Callable

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from . import families, names
from . import functional as F
from . import linalg_functions as LF
from . import sorting as SO


def _searchsorted(self, v, side="left", sorter=None):
    # the method's positions are Int32 in MindSpore (the function's Int64)
    return SO.searchsorted(self, v, side=side, sorter=sorter, out_int32=True)


def _trace(self, offset=0, axis1=0, axis2=1, dtype=None):
    if (offset, axis1, axis2) != (0, 0, 1) or self.ndim != 2:
        x = F.transpose(self, tuple(a for a in range(self.ndim) if a not in (
            F._axis(axis1, self.ndim, "trace"), F._axis(axis2, self.ndim, "trace"))) + (
            F._axis(axis1, self.ndim, "trace"), F._axis(axis2, self.ndim, "trace")))
        n, m = x.shape[-2:]
        rows = np.arange(n)
        cols = rows + offset
        keep = (cols >= 0) & (cols < m)
        r, c = Tensor(rows[keep].astype(np.int64)), Tensor(cols[keep].astype(np.int64))
        out = F.reduce_sum(F.getitem(x, (Ellipsis, r, c)), -1)
    else:
        out = LF.trace(self)
    return out if dtype is None else F.cast(out, dtype)


def _new(fill):
    def method(self, size, *, dtype=None):
        return F._fill(dtype if dtype is not None else self.dtype, size, fill, "new_" + (
            "zeros" if fill == 0 else "ones"))
    return method


def _new_full(self, size, fill_value, *, dtype=None):
    return F._fill(dtype if dtype is not None else self.dtype, size, fill_value, "new_full")


def _t(self):
    if self.ndim > 2:
        raise ValueError(f"For 't', the input must have rank <= 2, but got shape "
                         f"{list(self.shape)}.")
    return F.transpose(self) if self.ndim == 2 else self


def _mT(self):
    if self.ndim < 2:
        raise ValueError(f"For 'mT', the input must have rank >= 2, but got shape "
                         f"{list(self.shape)}.")
    return F.swapaxes(self, -1, -2)


_MT = property(_mT)

# methods with arguments of their own (MindSpore's method names and defaults)
_METHODS: dict[str, Any] = {
    "searchsorted": _searchsorted,
    "bmm": lambda self, mat2: F.batch_matmul(self, mat2),
    "trace": _trace,
    "swapdims": lambda self, dim0, dim1: F.swapaxes(self, dim0, dim1),
    "new_zeros": _new(0),
    "new_ones": _new(1),
    "new_full": _new_full,
    "t": _t,
    "clone": lambda self: self.copy(),
    "type_as": lambda self, other: F.cast(self, other.dtype),
    "double": lambda self: F.cast(self, mstype.float64),
    "half": lambda self: F.cast(self, mstype.float16),
    "long": lambda self: F.cast(self, mstype.int64),
    "short": lambda self: F.cast(self, mstype.int16),
    "byte": lambda self: F.cast(self, mstype.uint8),
    "bool": lambda self: F.cast(self, mstype.bool_),
    "nelement": lambda self: self.size,
    "ndimension": lambda self: self.ndim,
}


def _shape_of_other(op: str):
    def method(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"For '{op}', 'other' must be a Tensor, but got "
                            f"{type(other).__name__}.")
        return F.reshape(self, other.shape)
    return method


_METHODS.update({
    "reshape_as": _shape_of_other("reshape_as"),
    "view_as": _shape_of_other("view_as"),
    "expand": lambda self, *size: F.broadcast_to(
        self, size[0] if len(size) == 1 and not isinstance(size[0], int) else size),
    # (MindSpore 2.10's CPU build refuses Tensor.repeat; here it is tile)
    "repeat": lambda self, *reps: F.tile(
        self, reps[0] if len(reps) == 1 and not isinstance(reps[0], int) else reps),
    "is_signed": lambda self: self._data.dtype.kind in "if",
})


def _direct(fn: Callable) -> Callable:
    """``fn`` itself as a method when it is a plain Python function (``x.m(...)`` is then
    ``fn(x, ...)`` with no call in between), else a method calling it."""
    if isinstance(fn, FunctionType):
        return fn

    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = getattr(fn, "__name__", "method")
    return method


def _set(cls: type, name: str, method: Any) -> None:
    owner = next((k for k in cls.__mro__ if name in vars(k)), None)
    if owner is not None and vars(owner)[name] is not method:
        raise TypeError(f"Tensor method {name!r} is both defined by {owner.__name__} and "
                        f"installed by mindgrad.ops: one of the two must go.")
    setattr(cls, name, method)


def install(cls: type = Tensor) -> list:
    """Put the methods of the operator catalogue on ``cls`` (the Tensor class): those the
    name table (``names.py``) lists, each its function itself, and the ones written here.
    Called once, by ``mindgrad.ops`` when it is imported; a row added to the table later
    gets its methods then. Returns the names installed."""
    added = []

    def define(row: names.Row) -> None:
        for name in row.method:
            _set(cls, name, _direct(families.function(row.name)))
            added.append(name)

    names.each_row(define)
    for name, fn in _METHODS.items():
        fn.__name__ = fn.__qualname__ = name
        _set(cls, name, fn)
        added.append(name)
    _set(cls, "mT", _MT)
    added.append("mT")
    return added
