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
from ..core import tensor as tensor_module
from ..core.primitive import bind
from ..core.tensor import Tensor
from ..prims import arith as A
from ..prims import structural as S
from . import families, names
from . import functional as F
from . import linalg_functions as LF
from . import sorting as SO
from . import tensor_attributes, tensor_extras, tensor_inplace


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


class _Methods:
    """The methods written out here (their arguments are not the function's), put on
    Tensor by ``install`` under the same names."""

    def float(self): return F.cast(self, mstype.float32)
    def int(self): return F.cast(self, mstype.int32)
    def sum(self, axis=None, keepdims=False, dtype=None):
        out = F.reduce_sum(self, axis, keepdims)
        return out if dtype is None else F.cast(out, dtype)
    def max(self, axis=None, keepdims=False): return F.reduce_max(self, axis, keepdims)
    def min(self, axis=None, keepdims=False): return F.reduce_min(self, axis, keepdims)
    def argmax(self, axis=None, keepdims=False): return F.argmax(self, axis, keepdims)
    def reshape(self, *shape):
        return F.reshape(self, shape[0] if len(shape) == 1 and not isinstance(shape[0], int)
                         else shape)
    def view(self, *shape):
        """The same elements in a new shape; or, given a dtype, the same bytes read as that
        dtype (the last axis rescaled by the ratio of the item sizes; no gradient)."""
        if len(shape) == 1 and isinstance(shape[0], mstype.DType):
            to = mstype.to_numpy(shape[0], "view")
            a = self._data
            if a.ndim == 0 and to.itemsize != a.dtype.itemsize or a.ndim and \
                    (a.shape[-1] * a.dtype.itemsize) % to.itemsize:
                raise ValueError(f"For 'view', a tensor of shape {list(self.shape)} and dtype "
                                 f"{self.dtype} can not be read as {shape[0]}.")
            xp_a = a if a.flags.c_contiguous else a.copy()
            return Tensor._wrap(xp_a.view(to))
        return self.reshape(*shape)
    def flatten(self, start_dim=0, end_dim=-1, *, order=None):
        """Join axes ``start_dim`` to ``end_dim`` (all of them by default). MindSpore's other
        form ``flatten(order='C', *, start_dim=0, end_dim=-1)`` works too; 'F' order joins
        the axes of the transposed tensor."""
        if isinstance(start_dim, str):
            order, start_dim = start_dim, 0
        if order not in (None, "C", "F"):
            raise ValueError(f"For 'flatten', 'order' must be 'C' or 'F', but got {order!r}.")
        return F.flatten(F.transpose(self) if order == "F" else self, start_dim, end_dim)
    def ravel(self): return F.reshape(self, (-1,))
    def transpose(self, *axes):
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = axes[0]
        return F.transpose(self, tuple(axes) if axes else None)
    def permute(self, *axes): return self.transpose(*axes)
    @property
    def T(self): return F.transpose(self, None)
    def swapaxes(self, a, b): return F.swapaxes(self, a, b)
    def unsqueeze(self, dim=None, *, axis=None):
        return F.expand_dims(self, axis if dim is None else dim)
    def expand_as(self, other): return F.broadcast_to(self, other.shape)
    def pow(self, e): return F.pow(self, e)
    def matmul(self, o): return F.matmul(self, o)
    def clip(self, lo=None, hi=None): return F.clamp(self, lo, hi)
    def norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):
        return F.norm(self, ord, dim, keepdim, dtype=dtype)
    def cumsum(self, axis=None, dtype=None):  # axis None: over the flattened tensor
        return F.cumsum(self, axis, dtype) if axis is not None else \
            F.cumsum(F.reshape(self, (-1,)), 0, dtype)
    def tile(self, *reps):
        """``tile(2)``, ``tile(2, 2)`` and ``tile((2, 2))`` alike."""
        if len(reps) == 1 and not isinstance(reps[0], int):
            reps = reps[0]
        return F.tile(self, reps)
    def copy(self):
        """A copy with its own array; differentiable (the identity's gradient)."""
        out = S.reshape(self, shape=self.shape)
        if type(out) is Tensor:  # eager: an array of its own (a reshape may be a view)
            out._data = out._data.copy()
        return out
    def fill(self, value): return F.fill(self.dtype, self.shape, value)
    def zeros_like(self): return F.zeros_like(self)
    def ones_like(self): return F.ones_like(self)
    def add(self, other): return F.add(self, other)
    def mul(self, value): return F.mul(self, value)
    def remainder(self, divisor): return F.remainder(self, divisor)
    def floor_divide(self, value): return F.floor_div(self, value)
    def maximum(self, other): return F.maximum(self, other)
    def minimum(self, other): return F.minimum(self, other)
    def atan2(self, other): return F.atan2(self, other)
    def equal(self, other): return F.equal(self, other)
    def not_equal(self, other): return F.not_equal(self, other)
    def greater(self, other): return F.greater(self, other)
    def greater_equal(self, other): return F.greater_equal(self, other)
    def less(self, other): return F.less(self, other)
    def less_equal(self, other): return F.less_equal(self, other)
    eq, ne, gt, ge, lt, le = equal, not_equal, greater, greater_equal, less, less_equal
    def logical_and(self, other): return F.logical_and(self, other)
    def logical_or(self, other): return F.logical_or(self, other)
    def logical_xor(self, other): return F.logical_xor(self, other)
    def isclose(self, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
        return F.isclose(self, x2, rtol, atol, equal_nan)
    def logsumexp(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        return F.logsumexp(self, dim, keepdim if keepdims is None else keepdims, axis=axis)
    def softmax(self, axis, dtype=None): return F.softmax(self, axis, dtype=dtype)
    def gather(self, input_indices, axis): return F.gather(self, input_indices, axis)
    def outer(self, vec2): return F.outer(self, vec2)


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
    gets its methods then. Returns the names installed.

    It also gives the Tensor module the front end its operators (``x + y``, ``x[i]``, ...)
    and ``Tensor(traced)`` call: ``ops.functional`` (``F``), with the primitive ``add``,
    ``sub``, ... (``_P``) and ``bind`` that the fast paths of ``+ - * /`` use."""
    tensor_module.F, tensor_module._P, tensor_module._bind = F, A, bind
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
    for name, fn in vars(_Methods).items():
        if name.startswith("__"):
            continue
        if isinstance(fn, FunctionType) and fn.__qualname__.startswith("_Methods."):
            # Python's own argument errors name it as before (``Tensor.sum() got ...``)
            fn.__qualname__ = f"Tensor.{fn.__name__}"
        _set(cls, name, fn)
        added.append(name)
    _set(cls, "mT", _MT)
    added.append("mT")
    for module in (tensor_inplace, tensor_extras, tensor_attributes):
        for name, fn in module.METHODS.items():
            if isinstance(fn, FunctionType) and fn.__name__ in ("<lambda>", name + "_"):
                fn.__name__ = fn.__qualname__ = name
            _set(cls, name, fn)
            added.append(name)
    return added
