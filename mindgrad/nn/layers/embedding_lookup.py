"""``nn.EmbeddingLookup`` and ``nn.MultiFieldEmbeddingLookup``: table lookups where (on
the 'CPU' target, as MindSpore's kernel does) an index outside ``[0, vocab_size)`` gives a
zero row, optionally clipped to ``max_norm``; the multi-field form pools the weighted rows of
each field by sum, mean or max. The slice modes only matter in MindSpore's auto-parallel
mode; standalone they are accepted and change nothing."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...common.initializer import initializer
from ...common.parameter import Parameter
from ...core import dtype as mstype
from ...core.tensor import Tensor
from ... import ops
from ...ops import functional as F
from ..cell import Cell
from .misc_cells import ClipByNorm

_FLOAT32_LOWEST = -3.402823466e38


def _positive_int(value: Any, name: str, who: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{who}', '{name}' must be a positive int, but got {value!r}.")
    return value


class EmbeddingLookup(Cell):
    """Rows of ``embedding_table`` (``(vocab_size, embedding_size)``) picked by integer
    indices of any shape: output shape ``indices.shape + (embedding_size,)``."""

    BATCH_SLICE = "batch_slice"
    FIELD_SLICE = "field_slice"
    TABLE_ROW_SLICE = "table_row_slice"
    TABLE_COLUMN_SLICE = "table_column_slice"
    who = "EmbeddingLookup"

    def __init__(self, vocab_size: int, embedding_size: int, param_init: Any = "normal",
                 target: str = "CPU", slice_mode: str = "batch_slice", manual_shapes: Any = None,
                 max_norm: float | None = None, sparse: bool = True,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        who = self.who
        if not isinstance(sparse, bool):
            raise TypeError(f"For '{who}', the type of 'sparse' must be bool, but got "
                            f"{type(sparse).__name__}.")
        self.vocab_size = _positive_int(vocab_size, "vocab_size", who)
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"For '{who}', 'target' must be 'CPU' or 'DEVICE', but got "
                             f"{target!r}.")
        if not sparse and target == "CPU":
            raise ValueError(f"For '{who}', 'sparse' must be True when 'target' is \"CPU\", but "
                             f"got 'sparse': {sparse} and 'target': {target}")
        self.target, self.sparse, self.slice_mode = target, sparse, slice_mode
        self.embedding_size = _positive_int(embedding_size, "embedding_size", who)
        self.embedding_table = Parameter(initializer(param_init, [vocab_size, embedding_size],
                                                     dtype), name="embedding_table")
        self.max_norm = None
        if max_norm is not None:
            if isinstance(max_norm, bool) or not isinstance(max_norm, (int, float)) \
                    or max_norm <= 0:
                raise ValueError(f"For '{who}', 'max_norm' must be a positive float, but got "
                                 f"{max_norm!r}.")
            self.max_norm = float(max_norm)

    def _lookup(self, indices: Tensor) -> Tensor:
        if not isinstance(indices, Tensor) or indices.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{self.who}', the indices must be an int32 or int64 Tensor, "
                            f"but got {getattr(indices, 'dtype', type(indices).__name__)}.")
        out = self._rows(indices)
        if self.max_norm is not None:
            axes = tuple(range(indices.ndim, out.ndim))
            out = ClipByNorm(axes)(out, Tensor(np.float32(self.max_norm)))
        return out

    def _rows(self, indices: Tensor) -> Tensor:
        """The looked-up rows, before any ``max_norm`` clipping (a subclass may watch them:
        ``nn.EmbeddingLookupThor``)."""
        if self.target == "DEVICE":
            return ops.gather(self.embedding_table, indices, 0)
        # the CPU kernel: an index out of range gives a zero row
        idx = indices.asnumpy()
        inside = (idx >= 0) & (idx < self.vocab_size)
        rows = ops.gather(self.embedding_table, Tensor(np.where(inside, idx, 0)), 0)
        mask = Tensor(np.broadcast_to(inside[..., None], tuple(rows.shape)))
        return F.select(mask, rows, F.zeros_like(rows))

    def construct(self, indices: Tensor) -> Tensor:
        return self._lookup(indices)


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """For ``(batch, seq)`` ``input_indices``, ``input_values`` (float32 weights) and
    ``field_ids`` (int32, in ``[0, field_size)``): the looked-up rows times their weights,
    pooled per sample and field by ``operator`` ('SUM', 'MEAN': divided by the sum of the
    absolute weights, 0 where that is 0; 'MAX': the maximum over the entries of nonzero
    weight, 0 for a field without any). Output ``(batch, field_size, embedding_size)``."""

    OPERATOR_SUM = "SUM"
    OPERATOR_MAX = "MAX"
    OPERATOR_MEAN = "MEAN"
    who = "MultiFieldEmbeddingLookup"

    def __init__(self, vocab_size: int, embedding_size: int, field_size: int,
                 param_init: Any = "normal", target: str = "CPU",
                 slice_mode: str = "batch_slice", feature_num_list: Any = None,
                 max_norm: float | None = None, sparse: bool = True, operator: str = "SUM",
                 dtype: Any = mstype.float32) -> None:
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode,
                         feature_num_list, max_norm, sparse, dtype=dtype)
        self.field_size = _positive_int(field_size, "field_size", self.who)
        if operator not in ("SUM", "MAX", "MEAN"):
            raise ValueError(f"For '{self.who}', 'operator' must be one of ['SUM', 'MAX', "
                             f"'MEAN'], but got {operator!r}.")
        self.operator = operator

    def _check(self, x: Any, name: str, dtypes: tuple) -> None:
        if not isinstance(x, Tensor) or x.ndim != 2:
            raise ValueError(f"For '{self.who}', '{name}' must be a 2-D Tensor, but got shape "
                             f"{list(getattr(x, 'shape', ()))}.")
        if x.dtype not in dtypes:
            raise TypeError(f"For '{self.who}', the dtype of '{name}' must be in "
                            f"{[str(d) for d in dtypes]}, but got {x.dtype}.")

    def construct(self, input_indices: Tensor, input_values: Tensor,
                  field_ids: Tensor) -> Tensor:
        self._check(input_indices, "input_indices", (mstype.int32, mstype.int64))
        self._check(input_values, "input_values", (mstype.float32,))
        self._check(field_ids, "field_ids", (mstype.int32,))
        batch, seq = input_indices.shape
        segments = batch * self.field_size
        # one segment per (sample, field)
        ids = F.add(field_ids, Tensor(np.arange(0, segments, self.field_size, dtype=np.int32)
                                      .reshape(batch, 1)))
        weights = F.reshape(input_values, (batch, seq, 1))
        embedding = F.mul(weights, self._lookup(input_indices))
        if self.operator == "MAX":
            # entries of weight 0 are padding: never the maximum
            pad = F.mul(F.cast(F.equal(weights, 0.0), mstype.float32), _FLOAT32_LOWEST)
            embedding = F.reshape(F.add(embedding, pad), (-1, self.embedding_size))
            flat_ids = F.reshape(ids, (-1,))
            merged = ops.unsorted_segment_max(embedding, flat_ids, segments)
            count = ops.unsorted_segment_sum(F.abs(F.reshape(input_values, (-1,))), flat_ids,
                                             segments)
            merged = F.mul(merged, F.expand_dims(F.cast(F.not_equal(count, 0.0),
                                                        mstype.float32), -1))
        else:
            merged = ops.unsorted_segment_sum(embedding, ids, segments)
            if self.operator == "MEAN":
                count = ops.unsorted_segment_sum(F.abs(input_values), ids, segments)
                merged = ops.div_no_nan(merged, F.expand_dims(count, -1))
        return F.reshape(merged, (batch, self.field_size, -1))


__all__ = ["EmbeddingLookup", "MultiFieldEmbeddingLookup"]
