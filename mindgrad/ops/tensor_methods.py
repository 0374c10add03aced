"""The Tensor methods of the operator catalogue (``x.sort()``, ``x.topk(2)``, ``x.tril()``,
``x.new_zeros(...)``, ...), each the function of ``mindgrad.ops`` of the same name with
MindSpore's method arguments. They are installed on ``Tensor`` when ``mindgrad.ops`` is
imported (the Tensor class lives below the operators)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from . import array_functions as AF
from . import functional as F
from . import linalg_functions as LF
from . import nn_functions as NF
from . import random_ops as RO
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


_METHODS: dict[str, Any] = {
    "sort": lambda self, axis=-1, descending=False: SO.sort(self, axis, descending),
    "argsort": lambda self, axis=-1, descending=False: SO.argsort(self, axis, descending),
    "topk": lambda self, k, dim=None, largest=True, sorted=True:
        SO.topk(self, k, dim, largest, sorted),
    "gather_elements": lambda self, dim, index: SO.gather_elements(self, dim, index),
    "cummax": lambda self, axis: SO.cummax(self, axis),
    "cummin": lambda self, axis: SO.cummin(self, axis),
    "logcumsumexp": lambda self, axis: SO.logcumsumexp(self, axis),
    "searchsorted": _searchsorted,
    "slogdet": lambda self: LF.slogdet(self),
    "matrix_power": lambda self, n: LF.matrix_power(self, n),
    "mm": lambda self, mat2: LF.mm(self, mat2),
    "bmm": lambda self, mat2: F.batch_matmul(self, mat2),
    "inner": lambda self, other: LF.inner(self, other),
    "addmm": lambda self, mat1, mat2, *, beta=1, alpha=1: LF.addmm(self, mat1, mat2, beta=beta,
                                                                  alpha=alpha),
    "kron": lambda self, other: LF.kron(self, other),
    "trace": _trace,
    "tril": lambda self, diagonal=0: AF.tril(self, diagonal),
    "triu": lambda self, diagonal=0: AF.triu(self, diagonal),
    "diag": lambda self: AF.diag(self),
    "narrow": lambda self, axis, start, length: AF.narrow(self, axis, start, length),
    "masked_select": lambda self, mask: AF.masked_select(self, mask),
    "nonzero": lambda self, *, as_tuple=False: AF.nonzero(self, as_tuple=as_tuple),
    "argwhere": lambda self: AF.argwhere(self),
    "count_nonzero": lambda self, axis=(), keep_dims=False, dtype=mstype.int32:
        AF.count_nonzero(self, axis, keep_dims, dtype),
    "lerp": lambda self, end, weight: AF.lerp(self, end, weight),
    "logaddexp": lambda self, other: AF.logaddexp(self, other),
    "xlogy": lambda self, other: AF.xlogy(self, other),
    "isposinf": lambda self: AF.isposinf(self),
    "isneginf": lambda self: AF.isneginf(self),
    "movedim": lambda self, source, destination: AF.movedim(self, source, destination),
    "moveaxis": lambda self, source, destination: AF.movedim(self, source, destination),
    "swapdims": lambda self, dim0, dim1: F.swapaxes(self, dim0, dim1),
    "chunk": lambda self, chunks, axis=0: AF.chunk(self, chunks, axis),
    "unbind": lambda self, dim=0: AF.unbind(self, dim),
    "hardshrink": lambda self, lambd=0.5: NF.hardshrink(self, lambd),
    "multinomial": lambda self, num_samples, replacement=True, seed=None:
        RO.multinomial(self, num_samples, replacement, seed),
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


# methods that are the function of the same name with the tensor as its first argument
_FORWARDED = ("absolute", "addcdiv", "addcmul", "addmv", "addr", "adjoint", "amax", "amin",
              "arctan2", "bitwise_and", "bitwise_or", "bitwise_xor", "cholesky", "copysign",
              "deg2rad", "diff", "divide", "dot", "dsplit", "fliplr", "flipud", "float_power",
              "fmax", "fmin", "fmod", "frac", "ger", "heaviside", "hsplit", "hypot", "isfinite",
              "isinf", "isnan", "logaddexp2", "logdet", "logit", "matrix_determinant", "msort",
              "multiply", "nan_to_num", "nanmean", "nansum", "negative", "positive", "rad2deg",
              "repeat_interleave", "rot90", "scatter", "sgn", "signbit", "sinc", "split",
              "subtract", "svd", "tensor_split", "true_divide", "trunc", "vsplit", "is_complex",
              "diagonal", "roll", "cross")


def _forward(name: str) -> Any:
    from importlib import import_module

    fn = getattr(import_module(__package__), name)

    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__doc__ = f"``ops.{name}(self, ...)``."
    return method


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


def install() -> list:
    """Add the methods Tensor does not have yet; return their names."""
    added = []
    for name, fn in _METHODS.items():
        if not hasattr(Tensor, name):
            fn.__name__ = fn.__qualname__ = name
            setattr(Tensor, name, fn)
            added.append(name)
    for name in _FORWARDED:
        if not hasattr(Tensor, name):
            fn = _forward(name)
            fn.__name__ = fn.__qualname__ = name
            setattr(Tensor, name, fn)
            added.append(name)
    if not hasattr(Tensor, "mT"):
        Tensor.mT = property(_mT)
        added.append("mT")
    return added


INSTALLED = install()
