"""MindSpore's sparse matrices: ``COOTensor`` (coordinate list) and ``CSRTensor`` (compressed
rows), both 2-D, with MindSpore's constructors, properties and checks.

The index tensors are data; the values may be traced, so every operation that produces a
dense Tensor or new values (``to_dense``, ``mv``, ``mm``, ``sum``, products with a dense
Tensor) is a composition of differentiable operators: gradients reach the values in both
modes. Row numbers of a CSR matrix are found from ``indptr`` with ``searchsorted``, so a
compiled function reads them from its inputs too."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .sorting import searchsorted


def _index_tensor(x: Any, cls: str, arg: str, ndim: int) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For {cls}, '{arg}' must be a Tensor, but got {type(x).__name__}.")
    if x.dtype not in (mstype.int32, mstype.int64, mstype.int16):
        raise TypeError(f"For {cls}, '{arg}' must have an integer dtype (int16, int32 or "
                        f"int64), but got {x.dtype}.")
    if x.ndim != ndim:
        raise ValueError(f"For {cls}, '{arg}' must be a {ndim}-D Tensor, but got shape "
                         f"{list(x.shape)}.")
    return x


def _values(x: Any, cls: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For {cls}, 'values' must be a Tensor, but got {type(x).__name__}.")
    if x.ndim != 1:
        raise ValueError(f"For {cls}, 'values' must be a 1-D Tensor, but got shape "
                         f"{list(x.shape)}.")
    return x


def _shape(shape: Any, cls: str) -> tuple:
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s > 0 for s in shape):
        raise TypeError(f"For {cls}, 'shape' must be a tuple of positive ints, but got "
                        f"{shape!r}.")
    if len(shape) != 2:
        raise ValueError(f"For {cls}, the length of 'shape' must be 2, but got {tuple(shape)}.")
    return tuple(int(s) for s in shape)


class _Sparse:
    """What both formats share: the values, the dense shape, dtype conversions and the
    elementwise operations that act on the values alone."""

    _values: Tensor
    _shape: tuple

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def shape(self) -> tuple:
        return self._shape

    @property
    def dtype(self) -> Any:
        return self._values.dtype

    @property
    def size(self) -> int:
        """The number of stored values."""
        return int(self._values.shape[0])

    @property
    def itemsize(self) -> int:
        return self._values.itemsize

    @property
    def ndim(self) -> int:
        return len(self._shape)

    def _with_values(self, values: Tensor) -> Any:
        raise NotImplementedError

    def astype(self, dtype: Any) -> Any:
        return self._with_values(F.cast(self._values, dtype))

    def abs(self) -> Any:
        return self._with_values(F.abs(self._values))

    def __neg__(self) -> Any:
        return self._with_values(F.neg(self._values))

    def _at_entries(self, other: Any, op: str) -> Tensor:
        """``other`` (a dense Tensor broadcasting to the shape) read at the stored entries."""
        if not isinstance(other, Tensor):
            raise TypeError(f"For {type(self).__name__} {op}, the other operand must be a "
                            f"Tensor, but got {type(other).__name__}.")
        try:
            fits = np.broadcast_shapes(tuple(other.shape), self._shape) == self._shape
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"For {type(self).__name__} {op}, a Tensor of shape "
                             f"{list(other.shape)} does not broadcast to the sparse shape "
                             f"{list(self._shape)}.")
        dense = F.broadcast_to(other, self._shape)
        return F.gather_nd(dense, self._coordinates())

    def __mul__(self, other: Any) -> Any:
        return self._with_values(F.mul(self._values, self._at_entries(other, "mul")))

    def __truediv__(self, other: Any) -> Any:
        return self._with_values(F.div(self._values, self._at_entries(other, "div")))

    def _coordinates(self) -> Tensor:
        raise NotImplementedError

    def to_dense(self) -> Tensor:
        """The dense Tensor (repeated coordinates add up)."""
        return F.scatter_nd(self._coordinates(), self._values, self._shape)


class COOTensor(_Sparse):
    """A 2-D sparse matrix as a coordinate list: ``indices`` (N, 2) of row and column numbers
    and ``values`` (N,); ``COOTensor(coo_tensor=other)`` copies one."""

    def __init__(self, indices: Any = None, values: Any = None, shape: Any = None,
                 coo_tensor: Any = None) -> None:
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise TypeError(f"For COOTensor, 'coo_tensor' must be a COOTensor, but got "
                                f"{type(coo_tensor).__name__}.")
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        self._indices = _index_tensor(indices, "COOTensor", "indices", 2)
        self._values = _values(values, "COOTensor")
        self._shape = _shape(shape, "COOTensor")
        if self._indices.shape[1] != 2:
            raise ValueError(f"For COOTensor, 'indices' must have 2 columns (row, column), but "
                             f"got shape {list(self._indices.shape)}.")
        if self._indices.shape[0] != self._values.shape[0]:
            raise ValueError(f"For COOTensor, 'indices.shape[0]' must be equal to "
                             f"'values.shape[0]', but got {self._indices.shape[0]} and "
                             f"{self._values.shape[0]}.")

    @property
    def indices(self) -> Tensor:
        return self._indices

    def _with_values(self, values: Tensor) -> "COOTensor":
        return COOTensor(self._indices, values, self._shape)

    def _coordinates(self) -> Tensor:
        return self._indices

    def to_tuple(self) -> tuple:
        return self._indices, self._values, self._shape

    def coalesce(self) -> "COOTensor":
        """The same matrix with its coordinates sorted by row, then column, and repeated
        ones added up."""
        idx = self._indices.asnumpy().astype(np.int64)
        flat = idx[:, 0] * self._shape[1] + idx[:, 1]
        keys, first, slot = np.unique(flat, return_index=True, return_inverse=True)
        new_idx = Tensor(idx[first].astype(self._indices.asnumpy().dtype))
        values = F.scatter_nd(Tensor(slot.reshape(-1, 1).astype(np.int64)), self._values,
                              (len(keys),))
        return COOTensor(new_idx, values, self._shape)

    def to_csr(self) -> "CSRTensor":
        """The CSR form (coordinates sorted and repeated ones added up first)."""
        coo = self.coalesce()
        rows = coo.indices.asnumpy()[:, 0]
        indptr = np.searchsorted(rows, np.arange(self._shape[0] + 1), side="left")
        kind = coo.indices.asnumpy().dtype
        return CSRTensor(Tensor(indptr.astype(kind)), Tensor(coo.indices.asnumpy()[:, 1]),
                         coo.values, self._shape)

    def __add__(self, other: Any) -> Any:
        """With a COOTensor of the same shape: their sum, coalesced; with a dense Tensor: a
        dense Tensor."""
        if isinstance(other, COOTensor):
            if other.shape != self._shape:
                raise ValueError(f"For COOTensor add, the shapes must be equal, but got "
                                 f"{list(self._shape)} and {list(other.shape)}.")
            if other.dtype != self.dtype:
                raise TypeError(f"For COOTensor add, the dtypes must be equal, but got "
                                f"{self.dtype} and {other.dtype}.")
            both = COOTensor(F.concat((self._indices, F.cast(other.indices, self._indices.dtype)),
                                      0),
                             F.concat((self._values, other.values), 0), self._shape)
            return both.coalesce()
        if isinstance(other, Tensor):
            return F.add(self.to_dense(), other)
        raise TypeError(f"For COOTensor add, the other operand must be a COOTensor or a "
                        f"Tensor, but got {type(other).__name__}.")

    def __sub__(self, other: Any) -> Any:
        if isinstance(other, (COOTensor, Tensor)):
            return self + (-other)
        raise TypeError(f"For COOTensor sub, the other operand must be a COOTensor or a "
                        f"Tensor, but got {type(other).__name__}.")

    def __repr__(self) -> str:
        return (f"COOTensor(shape={list(self._shape)}, dtype={self.dtype}, "
                f"indices={self._indices!r}, values={self._values!r})")


class CSRTensor(_Sparse):
    """A 2-D sparse matrix in compressed rows: row ``r`` holds the columns
    ``indices[indptr[r]:indptr[r + 1]]`` with those ``values``; ``CSRTensor(csr_tensor=
    other)`` copies one."""

    def __init__(self, indptr: Any = None, indices: Any = None, values: Any = None,
                 shape: Any = None, csr_tensor: Any = None) -> None:
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError(f"For CSRTensor, 'csr_tensor' must be a CSRTensor, but got "
                                f"{type(csr_tensor).__name__}.")
            indptr, indices = csr_tensor.indptr, csr_tensor.indices
            values, shape = csr_tensor.values, csr_tensor.shape
        self._indptr = _index_tensor(indptr, "CSRTensor", "indptr", 1)
        self._indices = _index_tensor(indices, "CSRTensor", "indices", 1)
        self._values = _values(values, "CSRTensor")
        self._shape = _shape(shape, "CSRTensor")
        if self._indptr.shape[0] != self._shape[0] + 1:
            raise ValueError(f"For CSRTensor, 'indptr' must have length 1 + shape[0] = "
                             f"{self._shape[0] + 1}, but got {self._indptr.shape[0]}.")
        if self._indices.shape[0] != self._values.shape[0]:
            raise ValueError(f"For CSRTensor, 'indices' and 'values' must have one length, but "
                             f"got {self._indices.shape[0]} and {self._values.shape[0]}.")

    @property
    def indptr(self) -> Tensor:
        return self._indptr

    @property
    def indices(self) -> Tensor:
        return self._indices

    def _with_values(self, values: Tensor) -> "CSRTensor":
        return CSRTensor(self._indptr, self._indices, values, self._shape)

    def _rows(self) -> Tensor:
        """The row of each stored value: the number of row ends at or before its slot."""
        slots = F.arange(0, self.size, dtype=self._indptr.dtype)
        return searchsorted(self._indptr[1:], slots, right=True)

    def _coordinates(self) -> Tensor:
        rows = F.cast(self._rows(), self._indices.dtype)
        return F.stack((rows, self._indices), 1)

    def to_tuple(self) -> tuple:
        return self._indptr, self._indices, self._values, self._shape

    def to_coo(self) -> COOTensor:
        return COOTensor(self._coordinates(), self._values, self._shape)

    def mm(self, matrix: Tensor) -> Tensor:
        """The dense product with a (shape[1], k) matrix: (shape[0], k)."""
        if not isinstance(matrix, Tensor) or matrix.ndim != 2 or matrix.shape[0] != self._shape[1]:
            got = list(matrix.shape) if isinstance(matrix, Tensor) else type(matrix).__name__
            raise ValueError(f"For CSRTensor.mm, the matrix must be a 2-D Tensor with "
                             f"{self._shape[1]} rows, but got {got}.")
        terms = F.mul(F.expand_dims(self._values, 1), F.gather(matrix, self._indices, 0))
        rows = F.expand_dims(F.cast(self._rows(), mstype.int64), 1)
        return F.scatter_nd(rows, terms, (self._shape[0], matrix.shape[1]))

    def mv(self, vector: Tensor) -> Tensor:
        """The dense product with a (shape[1], 1) column (or (shape[1],) vector): a column
        (shape[0], 1) (or a vector)."""
        if isinstance(vector, Tensor) and vector.ndim == 1:
            return F.reshape(self.mm(F.expand_dims(vector, 1)), (self._shape[0],))
        if not isinstance(vector, Tensor) or vector.ndim != 2 or vector.shape[1] != 1:
            got = list(vector.shape) if isinstance(vector, Tensor) else type(vector).__name__
            raise ValueError(f"For CSRTensor.mv, the vector must have shape "
                             f"[{self._shape[1]}, 1], but got {got}.")
        return self.mm(vector)

    def sum(self, axis: int) -> Tensor:
        """The sums along ``axis`` (0 or 1, negative counted from the end), as a dense
        Tensor keeping that axis with length 1."""
        if not isinstance(axis, int) or isinstance(axis, bool) or not -2 <= axis < 2:
            raise ValueError(f"For CSRTensor.sum, 'axis' must be 0, 1, -1 or -2, but got "
                             f"{axis!r}.")
        return F.reduce_sum(self.to_dense(), axis % 2, keep_dims=True)

    def __add__(self, other: Any) -> Any:
        """With a CSRTensor of the same shape: their sum (a CSRTensor)."""
        if not isinstance(other, CSRTensor):
            raise TypeError(f"For CSRTensor add, the other operand must be a CSRTensor, but "
                            f"got {type(other).__name__}.")
        return (self.to_coo() + other.to_coo()).to_csr()

    def __sub__(self, other: Any) -> Any:
        if not isinstance(other, CSRTensor):
            raise TypeError(f"For CSRTensor sub, the other operand must be a CSRTensor, but "
                            f"got {type(other).__name__}.")
        return self + (-other)

    def __repr__(self) -> str:
        return (f"CSRTensor(shape={list(self._shape)}, dtype={self.dtype}, "
                f"indptr={self._indptr!r}, indices={self._indices!r}, values={self._values!r})")


__all__ = ["COOTensor", "CSRTensor"]
