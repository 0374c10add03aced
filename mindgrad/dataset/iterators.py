"""Iterators over a pipeline: ``create_tuple_iterator`` / ``create_dict_iterator``.

An iterator runs ``num_epochs`` epochs (-1: as many as asked for). Each epoch ends with
``StopIteration``; iterating the same iterator again starts the next epoch, whose random
choices differ from the previous one's. Values come out as Tensors, or as NumPy arrays with
``output_numpy=True`` (string columns always stay NumPy arrays)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from . import config
from ..core.tensor import Tensor
from .datasets import MAKERS, Dataset, Epoch


def _to_tensor(arr: np.ndarray) -> Any:
    if arr.dtype.kind in "USO":
        return arr
    return Tensor(arr)


class _Iterator:
    def __init__(self, dataset: Dataset, columns: Sequence[str] | None, num_epochs: int,
                 output_numpy: bool) -> None:
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, int) or \
                (num_epochs < 1 and num_epochs != -1):
            raise ValueError(f"num_epochs must be -1 or a positive int, but got {num_epochs!r}.")
        self.dataset = dataset
        self.num_epochs = num_epochs
        self.output_numpy = bool(output_numpy)
        self._cols = dataset.get_col_names()
        self._pick = None
        if columns is not None:
            names = [columns] if isinstance(columns, str) else list(columns)
            self._pick = dataset._col_index(names, "create_tuple_iterator")
            self._cols = names
        self._seed = config.get_seed()
        self._epoch = 0
        self._gen = None
        self._done = False

    def _next_row(self) -> tuple:
        if self._gen is None:
            if self._done or (self.num_epochs != -1 and self._epoch >= self.num_epochs):
                self._done = True
                raise StopIteration
            self._gen = self.dataset._rows(Epoch(self._seed, (self._epoch,), root=self.dataset))
        try:
            row = next(self._gen)
        except StopIteration:
            self._gen = None
            self._epoch += 1
            raise
        if self._pick is not None:
            row = tuple(row[i] for i in self._pick)
        return row

    def _convert(self, row: tuple) -> list:
        if self.output_numpy:
            return list(row)
        return [_to_tensor(a) for a in row]

    def __iter__(self):
        return self

    def stop(self) -> None:
        """End the iterator (closes worker processes of a running epoch)."""
        if self._gen is not None:
            self._gen.close()
            self._gen = None
        self._done = True

    def __del__(self):
        gen = getattr(self, "_gen", None)
        if gen is not None:
            try:
                gen.close()
            except Exception:
                pass

    def get_col_names(self) -> list[str]:
        return list(self._cols)


class TupleIterator(_Iterator):
    """Rows as lists, one value per column."""

    def __next__(self) -> list:
        return self._convert(self._next_row())


class DictIterator(_Iterator):
    """Rows as dicts from column name to value."""

    def __next__(self) -> dict:
        return dict(zip(self._cols, self._convert(self._next_row())))


MAKERS.update(TupleIterator=TupleIterator, DictIterator=DictIterator)  # (see datasets.MAKERS)
