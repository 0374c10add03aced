"""``nn.Embedding``: a lookup table of vectors indexed by integer ids."""
from __future__ import annotations

from typing import Any

from ...core import dtype as mstype
from ...common.initializer import initializer
from ...common.parameter import Parameter
from ...core.tensor import Tensor
from ...ops import functional as F
from ...prims import indexing as IX
from ...prims import structural as S
from .._helpers import one_hot_mask
from ..cell import Cell
from .basic import check_positive_int


class Embedding(Cell):
    """``Embedding(vocab_size, embedding_size)(ids)`` has shape ``ids.shape +
    (embedding_size,)``: row ``ids[...]`` of ``embedding_table``.

    With ``use_one_hot`` the lookup is a one-hot matrix product (same values and gradients).
    ``padding_idx`` zeroes that row of the initial table."""

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table: Any = "normal", dtype: Any = mstype.int32,
                 padding_idx: int | None = None) -> None:
        super().__init__()
        self.vocab_size = check_positive_int(vocab_size, "vocab_size", "Embedding")
        self.embedding_size = check_positive_int(embedding_size, "embedding_size", "Embedding")
        self.use_one_hot = bool(use_one_hot)
        self.dtype = dtype
        table = initializer(embedding_table, [vocab_size, embedding_size], mstype.float32)
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, int) \
                    or not -vocab_size <= padding_idx < vocab_size:
                raise ValueError(f"For 'Embedding', 'padding_idx' must be an int in range "
                                 f"[{-vocab_size}, {vocab_size}), but got {padding_idx!r}.")
            arr = table.asnumpy()
            arr[padding_idx] = 0
            table = Tensor(arr)
        self.padding_idx = padding_idx
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids: Tensor) -> Tensor:
        what = f" (vocab_size {self.vocab_size})"
        if self.use_one_hot:
            mask = one_hot_mask(ids, self.vocab_size, -1, S.dtype_of(self.embedding_table),
                                "Embedding", "the input ids", what)
            return F.matmul(mask, self.embedding_table)
        if S.dtype_of(ids).kind not in "iu":
            raise TypeError(f"For 'Embedding', the input ids must be an integer Tensor, but "
                            f"got {ids.dtype}.")
        # checked here, not by gather: a negative id must not pick a row from the end
        ids = IX.checked_indices(ids, self.vocab_size, "Embedding",
                                 "each value of the input ids", what=what)
        return F.gather(self.embedding_table, ids, 0)

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")


__all__ = ["Embedding"]
