"""``nn.SparseToDense`` and ``nn.SparseTensorDenseMatmul``: a COO sparse tensor made dense,
and a sparse (indices, values, shape) matrix times a dense one, both by scattering the
values (``ops.scatter_nd``, which sums repeated indices) so that gradients reach the values
and the dense operand."""
from __future__ import annotations

from typing import Any

from ...core.tensor import Tensor
from ... import ops
from ...ops import functional as F
from ..cell import Cell


def _dense_of(indices: Tensor, values: Tensor, shape: Any, who: str) -> Tensor:
    shape = tuple(int(s) for s in shape)
    if not isinstance(indices, Tensor) or indices.ndim != 2 or indices.shape[1] != len(shape):
        raise ValueError(f"For '{who}', 'indices' must be a 2-D Tensor of shape (n, "
                         f"{len(shape)}), but got shape {list(getattr(indices, 'shape', ()))}.")
    if not isinstance(values, Tensor) or tuple(values.shape) != (indices.shape[0],):
        raise ValueError(f"For '{who}', 'values' must be a 1-D Tensor of {indices.shape[0]} "
                         f"elements, but got shape {list(getattr(values, 'shape', ()))}.")
    return ops.scatter_nd(indices, values, shape)


class SparseToDense(Cell):
    """The dense Tensor of a ``COOTensor`` (repeated indices summed)."""

    def construct(self, sparse_tensor: Any) -> Tensor:
        if not all(hasattr(sparse_tensor, a) for a in ("indices", "values", "shape")):
            raise TypeError(f"For 'SparseToDense', the input must be a COOTensor, but got "
                            f"{type(sparse_tensor).__name__}.")
        return _dense_of(sparse_tensor.indices, sparse_tensor.values, sparse_tensor.shape,
                         "SparseToDense")


class SparseTensorDenseMatmul(Cell):
    """``op(A) @ op(B)`` for the 2-D sparse ``A`` given by ``indices``, ``values`` and
    ``sparse_shape`` and the dense 2-D ``B``; ``op`` transposes (``adjoint_st`` /
    ``adjoint_dt``; the inputs are real, so the adjoint is the transpose)."""

    def __init__(self, adjoint_st: bool = False, adjoint_dt: bool = False) -> None:
        super().__init__()
        for name, v in (("adjoint_st", adjoint_st), ("adjoint_dt", adjoint_dt)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'SparseTensorDenseMatmul', the type of '{name}' must be "
                                f"bool, but got {type(v).__name__}.")
        self.adj_st, self.adj_dt = adjoint_st, adjoint_dt

    def construct(self, indices: Tensor, values: Tensor, sparse_shape: Any,
                  dense: Tensor) -> Tensor:
        who = "SparseTensorDenseMatmul"
        if len(tuple(sparse_shape)) != 2 or not isinstance(dense, Tensor) or dense.ndim != 2:
            raise ValueError(f"For '{who}', 'sparse_shape' and 'dense' must be 2-D, but got "
                             f"{tuple(sparse_shape)} and shape "
                             f"{list(getattr(dense, 'shape', ()))}.")
        a = _dense_of(indices, values, sparse_shape, who)
        if values.dtype != dense.dtype:
            raise TypeError(f"For '{who}', 'values' and 'dense' must have the same dtype, but "
                            f"got {values.dtype} and {dense.dtype}.")
        inner_a = a.shape[0] if self.adj_st else a.shape[1]
        inner_b = dense.shape[1] if self.adj_dt else dense.shape[0]
        if inner_a != inner_b:
            raise ValueError(f"For '{who}', the inner dimensions must agree, but got sparse "
                             f"shape {tuple(sparse_shape)} (adjoint_st={self.adj_st}) and "
                             f"dense shape {tuple(dense.shape)} (adjoint_dt={self.adj_dt}).")
        return F.matmul(a, dense, transpose_a=self.adj_st, transpose_b=self.adj_dt)


__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]
