"""How ``Model`` reads a dataset: any object with ``create_tuple_iterator`` (or
``create_dict_iterator``) and ``get_dataset_size``, as ``mindspore.dataset`` datasets
have, or a re-iterable Python sequence of samples (a list of ``(data, label)`` tuples).

MindSpore's protocol: one iterator is made for all epochs (``num_epochs``) and each pass of
``for`` over it yields one epoch. An iterator that yields nothing on a later pass (a plain
generator) is made anew for that epoch."""
from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from ..core.tensor import Tensor


def dataset_size(dataset: Any, who: str) -> int:
    """The number of batches per epoch."""
    if hasattr(dataset, "get_dataset_size"):
        size = dataset.get_dataset_size()
    elif hasattr(dataset, "__len__"):
        size = len(dataset)
    else:
        raise TypeError(f"For '{who}', the dataset must have get_dataset_size() (a "
                        f"mindspore.dataset dataset) or be a sequence, but got "
                        f"{type(dataset).__name__}.")
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 0:
        raise ValueError(f"For '{who}', get_dataset_size() must return a non-negative int, but "
                         f"got {size!r}.")
    return int(size)


def _as_tensor(value: Any) -> Any:
    if isinstance(value, Tensor) or value is None:
        return value
    if isinstance(value, (np.ndarray, np.generic)):
        return Tensor(value)
    if isinstance(value, (int, float, bool, list)):
        return Tensor(value)
    return value


def as_inputs(element: Any) -> tuple:
    """One batch as the tuple of network inputs (Tensors; a dict gives its values)."""
    if isinstance(element, dict):
        element = tuple(element.values())
    elif isinstance(element, list):
        element = tuple(element)
    elif not isinstance(element, tuple):
        element = (element,)
    return tuple(_as_tensor(v) for v in element)


class EpochIterator:
    """Yields the batches of one epoch at a time: ``for batch in it.epoch(): ...``."""

    def __init__(self, dataset: Any, num_epochs: int, who: str) -> None:
        self.dataset = dataset
        self.num_epochs = num_epochs
        self.who = who
        self._it = None
        self._epochs_started = 0

    def _make(self) -> Any:
        ds = self.dataset
        if hasattr(ds, "create_tuple_iterator"):
            return ds.create_tuple_iterator(num_epochs=self.num_epochs)
        if hasattr(ds, "create_dict_iterator"):
            return ds.create_dict_iterator(num_epochs=self.num_epochs)
        if hasattr(ds, "__iter__"):
            return None  # a sequence: iterated afresh each epoch
        raise TypeError(f"For '{self.who}', the dataset must have create_tuple_iterator() or "
                        f"create_dict_iterator(), or be iterable, but got "
                        f"{type(ds).__name__}.")

    def epoch(self) -> Iterator[tuple]:
        if self._epochs_started == 0:
            self._it = self._make()
        self._epochs_started += 1
        source = self.dataset if self._it is None else self._it
        produced = False
        for element in source:
            produced = True
            yield as_inputs(element)
        if not produced and self._it is not None and self._epochs_started > 1:
            self._it = self._make()  # a one-pass iterator: a new one for this epoch
            for element in self._it:
                yield as_inputs(element)


__all__ = ["EpochIterator", "dataset_size", "as_inputs"]
