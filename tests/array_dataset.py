"""A minimal array-backed dataset with the methods ``Model`` reads from a
``mindspore.dataset`` dataset (``create_tuple_iterator``, ``create_dict_iterator``,
``get_dataset_size``, ``get_col_names``), for the training tests."""
from __future__ import annotations

import numpy as np

from mindgrad import Tensor


class ArrayDataset:
    """Columns of equal length, cut into batches of ``batch_size`` (the last one may be
    smaller) in order. One iterator serves ``num_epochs`` passes, as MindSpore's does."""

    def __init__(self, columns: dict, batch_size: int, as_tensor: bool = True) -> None:
        self.columns = {k: np.asarray(v) for k, v in columns.items()}
        self.batch_size = batch_size
        self.as_tensor = as_tensor
        self.n = len(next(iter(self.columns.values())))
        self.iterators_made = 0

    def get_dataset_size(self) -> int:
        return -(-self.n // self.batch_size)

    def get_col_names(self) -> list:
        return list(self.columns)

    def _batches(self):
        for start in range(0, self.n, self.batch_size):
            cols = [v[start:start + self.batch_size] for v in self.columns.values()]
            yield [Tensor(c) if self.as_tensor else c for c in cols]

    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False,
                              do_copy=True):
        self.iterators_made += 1
        return _EpochIter(self, tuple, num_epochs)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        self.iterators_made += 1
        return _EpochIter(self, dict, num_epochs)


class _EpochIter:
    """Each ``for`` pass yields one epoch; after ``num_epochs`` passes it is exhausted."""

    def __init__(self, ds: ArrayDataset, kind: type, num_epochs: int) -> None:
        self.ds, self.kind, self.left = ds, kind, num_epochs
        self._gen = None

    def __iter__(self):
        return self

    def __next__(self):
        if self._gen is None:
            if self.left == 0:
                raise StopIteration
            self.left -= 1
            self._gen = self.ds._batches()
        try:
            cols = next(self._gen)
        except StopIteration:
            self._gen = None
            raise
        if self.kind is dict:
            return dict(zip(self.ds.columns, cols))
        return cols


class DictOnlyDataset(ArrayDataset):
    """A dataset that only offers ``create_dict_iterator``."""

    create_tuple_iterator = None

    def __getattribute__(self, name):
        if name == "create_tuple_iterator":
            raise AttributeError(name)
        return object.__getattribute__(self, name)
