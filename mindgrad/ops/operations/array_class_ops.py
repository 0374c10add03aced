"""MindSpore's array-manipulation operator classes whose constructor, inputs or outputs
differ from the functional operators' (``DepthToSpace``, ``Diag`` of any rank,
``Meshgrid(indexing)(inputs)``, ``TrilIndices(row, col)()``, ``FillDiagonal``, ...). Each
keeps its configuration and calls the functions of ``mindgrad.ops``."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core import dtype as mstype
from ...core.tensor import Tensor
from .. import families
from .. import functional as F
from ..primitive import Primitive

_fn = families.function


def _flag(op: str, name: str, v: Any) -> bool:
    return F._flag(v, op, name)


def _int_attr(op: str, name: str, v: Any) -> int:
    if not F._is_int(v):
        raise TypeError(f"For '{op}', '{name}' must be an int, but got {type(v).__name__}.")
    return int(v)


# --- array manipulation -------------------------------------------------------------------
class DepthToSpace(Primitive):
    """``DepthToSpace(block_size)(x)`` of (N, C, H, W): blocks of ``block_size ** 2``
    channels become ``block_size`` x ``block_size`` patches (channel blocks outermost)."""

    def __init__(self, block_size: int) -> None:
        super().__init__()
        self.block_size = _int_attr(type(self).__name__, "block_size", block_size)
        if self.block_size < 2:
            raise ValueError(f"For '{type(self).__name__}', 'block_size' must be >= 2, but got "
                             f"{block_size}.")

    def __call__(self, x: Any) -> Tensor:
        op, b = "DepthToSpace", self.block_size
        x = F._tensor(x, op)
        if x.ndim != 4 or x.shape[1] % (b * b):
            raise ValueError(f"For '{op}', 'x' must be 4-D with channels divisible by "
                             f"block_size ** 2 = {b * b}, but got shape {list(x.shape)}.")
        n, c, h, w = x.shape
        y = F.reshape(x, (n, b, b, c // (b * b), h, w))
        y = F.transpose(y, (0, 3, 4, 1, 5, 2))
        return F.reshape(y, (n, c // (b * b), h * b, w * b))


class SpaceToDepth(DepthToSpace):
    """``SpaceToDepth(block_size)(x)`` of (N, C, H, W): the inverse of ``DepthToSpace``."""

    def __call__(self, x: Any) -> Tensor:
        op, b = "SpaceToDepth", self.block_size
        x = F._tensor(x, op)
        if x.ndim != 4 or x.shape[2] % b or x.shape[3] % b:
            raise ValueError(f"For '{op}', 'x' must be 4-D with height and width divisible by "
                             f"block_size {b}, but got shape {list(x.shape)}.")
        n, c, h, w = x.shape
        y = F.reshape(x, (n, c, h // b, b, w // b, b))
        y = F.transpose(y, (0, 3, 5, 1, 2, 4))
        return F.reshape(y, (n, c * b * b, h // b, w // b))


class Diag(Primitive):
    """``Diag()(input_x)`` of shape ``s``: the tensor of shape ``s + s`` with ``input_x`` on
    its diagonal and zeros elsewhere."""

    def __call__(self, input_x: Any) -> Tensor:
        x = F._tensor(input_x, "Diag", "input_x")
        if x.ndim == 0:
            raise ValueError("For 'Diag', 'input_x' must have rank >= 1, but got 0-D.")
        n = int(np.prod(x.shape))
        return F.reshape(_fn("diag")(F.reshape(x, (n,))), tuple(x.shape) * 2)


class DiagPart(Primitive):
    """``DiagPart()(input_x)`` of shape ``s + s``: the diagonal, of shape ``s``."""

    def __call__(self, input_x: Any) -> Tensor:
        x = F._tensor(input_x, "DiagPart", "input_x")
        k = x.ndim // 2
        if x.ndim == 0 or x.ndim % 2 or tuple(x.shape[:k]) != tuple(x.shape[k:]):
            raise ValueError(f"For 'DiagPart', 'input_x' must have a shape s + s, but got "
                             f"{list(x.shape)}.")
        n = int(np.prod(x.shape[:k]))
        flat = F.reshape(x, (n * n,))
        return F.reshape(F.gather(flat, Tensor(np.arange(n) * (n + 1)), 0), tuple(x.shape[:k]))


class Flatten(Primitive):
    """``Flatten()(input_x)``: (N, ...) to (N, the product of the rest)."""

    def __call__(self, input_x: Any) -> Tensor:
        x = F._tensor(input_x, "Flatten", "input_x")
        if x.ndim == 0:
            raise ValueError("For 'Flatten', 'input_x' must have rank >= 1, but got 0-D.")
        return F.reshape(x, (x.shape[0], -1))


class GatherV2(Primitive):
    """``GatherV2()(input_params, input_indices, axis, batch_dims=0)``: ``Gather``."""

    def __call__(self, input_params: Any, input_indices: Any, axis: int,
                 batch_dims: int = 0) -> Tensor:
        if batch_dims:
            raise ValueError(f"For 'GatherV2', mindgrad supports 'batch_dims' 0 only, but got "
                             f"{batch_dims}.")
        return F.gather(input_params, input_indices, axis)


class Meshgrid(Primitive):
    """``Meshgrid(indexing='xy')(inputs)``: the coordinate grids of the 1-D tensors of the
    tuple ``inputs``."""

    def __init__(self, indexing: str = "xy") -> None:
        super().__init__()
        if not isinstance(indexing, str) or indexing not in ("xy", "ij"):
            raise ValueError(f"For 'Meshgrid', 'indexing' must be 'xy' or 'ij', but got "
                             f"{indexing!r}.")
        self.indexing = indexing

    def __call__(self, inputs: Any) -> tuple:
        if not isinstance(inputs, (tuple, list)):
            raise TypeError(f"For 'Meshgrid', 'inputs' must be a tuple of Tensors, but got "
                            f"{type(inputs).__name__}.")
        return _fn("meshgrid")(*inputs, indexing=self.indexing)


class Pack(Primitive):
    """``Pack(axis=0)(x)``: ``Stack``, MindSpore's older name."""

    def __init__(self, axis: int = 0) -> None:
        super().__init__()
        self.axis = _int_attr("Pack", "axis", axis)

    def __call__(self, x: Any) -> Tensor:
        return F.stack(x, self.axis)


class Unstack(Primitive):
    """``Unstack(axis=0, num=None)(input_x)``: the tuple of slices along ``axis``."""

    def __init__(self, axis: int = 0, num: Any = None) -> None:
        super().__init__()
        self.axis = _int_attr(type(self).__name__, "axis", axis)
        self.num = num

    def __call__(self, input_x: Any) -> tuple:
        out = _fn("unstack")(input_x, self.axis)
        if self.num is not None and len(out) != self.num:
            raise ValueError(f"For '{type(self).__name__}', 'num' is {self.num} but the axis "
                             f"has length {len(out)}.")
        return out


class Unpack(Unstack):
    """``Unpack(axis=0)(x)``: ``Unstack``, MindSpore's older name."""

    def __init__(self, axis: int = 0) -> None:
        super().__init__(axis)


class _Indices(Primitive):
    _which = "tril_indices"

    def __init__(self, row: int, col: int, offset: int = 0, dtype: Any = mstype.int32) -> None:
        super().__init__()
        op = type(self).__name__
        self.row, self.col = _int_attr(op, "row", row), _int_attr(op, "col", col)
        self.offset = _int_attr(op, "offset", offset)
        if not isinstance(dtype, mstype.DType) or \
                dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{op}', 'dtype' must be mindspore.int32 or mindspore.int64, "
                            f"but got {dtype}.")
        self.dtype = dtype

    def __call__(self) -> Tensor:
        return _fn(self._which)(self.row, self.col, self.offset, dtype=self.dtype)


class TrilIndices(_Indices):
    """``TrilIndices(row, col, offset=0, dtype=mindspore.int32)()``: the (2, K) coordinates of
    the lower triangle."""
    _which = "tril_indices"


class TriuIndices(_Indices):
    """``TriuIndices(row, col, offset=0, dtype=mindspore.int32)()``: those of the upper
    triangle."""
    _which = "triu_indices"


class Svd(Primitive):
    """``Svd(full_matrices=False, compute_uv=True)(a)``: the tuple ``(s, u, v)``; without
    ``compute_uv`` only ``s`` is computed and ``u``, ``v`` are a zero of shape (1,) each
    (MindSpore's place holders)."""

    def __init__(self, full_matrices: bool = False, compute_uv: bool = True) -> None:
        super().__init__()
        self.full_matrices = _flag("Svd", "full_matrices", full_matrices)
        self.compute_uv = _flag("Svd", "compute_uv", compute_uv)

    def __call__(self, a: Any) -> tuple:
        if self.compute_uv:
            return _fn("svd")(a, self.full_matrices, True)
        s = _fn("svd")(a, self.full_matrices, False)
        hold = Tensor(np.zeros((1,), s.dtype.np_dtype))
        return s, hold, hold


class Range(Primitive):
    """``Range(maxlen=1000000)(start, limit, delta)``: ``start, start + delta, ...`` below
    ``limit``."""

    def __init__(self, maxlen: int = 1000000) -> None:
        super().__init__()
        self.maxlen = _int_attr("Range", "maxlen", maxlen)

    def __call__(self, start: Any, limit: Any, delta: Any) -> Tensor:
        return _fn("range")(start, limit, delta, self.maxlen)


class FillV2(Primitive):
    """``FillV2()(shape, value)``: a tensor of ``shape`` filled with the 0-D tensor
    ``value`` (its dtype)."""

    def __call__(self, shape: Any, value: Any) -> Tensor:
        v = F._tensor(value, "FillV2", "value")
        if v.size != 1:
            raise ValueError(f"For 'FillV2', 'value' must have one element, but got shape "
                             f"{list(v.shape)}.")
        if isinstance(shape, Tensor):
            shape = tuple(int(s) for s in shape.asnumpy().reshape(-1))
        return F.broadcast_to(F.reshape(v, ()), F._shape_arg(shape, "FillV2"))


class InplaceUpdateV2(Primitive):
    """``InplaceUpdateV2()(x, indices, v)``: ``x`` with the rows ``indices`` replaced by
    ``v``'s."""

    def __call__(self, x: Any, indices: Any, v: Any) -> Tensor:
        return _fn("inplace_update")(x, v, indices)


class ScatterAddWithAxis(Primitive):
    """``ScatterAddWithAxis(axis=0)(input_x, indices, updates)``: ``updates`` added at the
    positions ``indices`` along ``axis`` (``TensorScatterElements`` with 'add')."""

    def __init__(self, axis: int = 0) -> None:
        super().__init__()
        self.axis = _int_attr("ScatterAddWithAxis", "axis", axis)

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> Tensor:
        return _fn("tensor_scatter_elements")(input_x, indices, updates, self.axis, "add")


class IdentityN(Primitive):
    """``IdentityN()(x)``: the tuple or list of tensors ``x`` itself."""

    def __call__(self, x: Any) -> Any:
        if not isinstance(x, (tuple, list)) or not all(isinstance(t, Tensor) for t in x):
            raise TypeError(f"For 'IdentityN', 'x' must be a tuple or list of Tensors, but got "
                            f"{type(x).__name__}.")
        return type(x)(x)


class Eps(Primitive):
    """``Eps()(x)``: a tensor like ``x`` filled with the smallest positive normal number of
    its dtype."""

    def __call__(self, x: Any) -> Tensor:
        x = F._tensor(x, "Eps")
        if not x.dtype.is_floating:
            raise TypeError(f"For 'Eps', 'x' must be a float Tensor, but got {x.dtype}.")
        tiny = float(np.finfo(x.dtype.np_dtype).tiny)
        return F.fill(x.dtype, tuple(x.shape), tiny)


class FillDiagonal(Primitive):
    """``FillDiagonal(fill_value, wrap=False)(input_x)``: ``input_x`` with its main diagonal
    (all dimensions equal) set to ``fill_value``; with ``wrap`` a tall matrix's diagonal
    starts again below every square block (NumPy's ``fill_diagonal``)."""

    def __init__(self, fill_value: float, wrap: bool = False) -> None:
        super().__init__()
        if isinstance(fill_value, bool) or not isinstance(fill_value, (int, float)):
            raise TypeError(f"For 'FillDiagonal', 'fill_value' must be a float, but got "
                            f"{type(fill_value).__name__}.")
        self.fill_value, self.wrap = float(fill_value), _flag("FillDiagonal", "wrap", wrap)

    def __call__(self, input_x: Any) -> Tensor:
        x = F._tensor(input_x, "FillDiagonal", "input_x")
        if x.ndim < 2 or (x.ndim > 2 and len(set(x.shape)) != 1):
            raise ValueError(f"For 'FillDiagonal', 'input_x' must be 2-D, or have all "
                             f"dimensions equal, but got shape {list(x.shape)}.")
        mask = np.zeros(x.shape, bool)
        np.fill_diagonal(mask, True, wrap=self.wrap)
        return F.select(Tensor(mask), F.fill(x.dtype, tuple(x.shape), self.fill_value), x)


class MatrixTriangularSolve(Primitive):
    """``MatrixTriangularSolve(lower=True, adjoint=False)(matrix, rhs)``: the solution of
    ``matrix @ x = rhs`` using only ``matrix``'s lower (or upper) triangle; with ``adjoint``
    of its (conjugate) transpose."""

    def __init__(self, lower: bool = True, adjoint: bool = False) -> None:
        super().__init__()
        self.lower = _flag("MatrixTriangularSolve", "lower", lower)
        self.adjoint = _flag("MatrixTriangularSolve", "adjoint", adjoint)

    def __call__(self, matrix: Any, rhs: Any) -> Tensor:
        a = F._tensor(matrix, "MatrixTriangularSolve", "matrix")
        tri = _fn("tril")(a) if self.lower else _fn("triu")(a)
        return _fn("matrix_solve")(tri, rhs, self.adjoint)


__all__ = ["DepthToSpace", "SpaceToDepth", "Diag", "DiagPart", "Flatten", "GatherV2", "Meshgrid",
           "Pack", "Unstack", "Unpack", "TrilIndices", "TriuIndices", "Svd", "Range",
           "FillV2", "InplaceUpdateV2", "ScatterAddWithAxis", "IdentityN", "Eps",
           "FillDiagonal", "MatrixTriangularSolve"]
