"""Samplers: which rows of a random-access source an epoch reads, in which order.

A sampler turns the source's row count into an array of row indices for one epoch;
``rng`` is the epoch's generator (see ``config``)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np


def _check_count(cls: str, name: str, value: Any, low: int = 1, allow_none: bool = True):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"For '{cls}', {name} must be an int, but got {type(value).__name__}.")
    if value < low:
        raise ValueError(f"For '{cls}', {name} must be >= {low}, but got {value}.")
    return int(value)


class Sampler:
    """Base class: ``indices(n, rng)`` gives the row indices of one epoch of an n-row source.

    A subclass that only overrides ``__iter__`` (a user's Python sampler, as MindSpore
    allows) yields the indices itself."""

    def __init__(self, num_samples: int | None = None) -> None:
        self.num_samples = _check_count(type(self).__name__, "num_samples", num_samples, 0)
        if self.num_samples == 0:
            self.num_samples = None  # 0 means "all", as in MindSpore

    def _order(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return np.fromiter((int(i) for i in self.__iter__()), np.int64)

    def indices(self, n: int, rng: np.random.Generator) -> np.ndarray:
        idx = self._order(n, rng)
        if self.num_samples is not None:
            idx = idx[:self.num_samples]
        return idx

    def size(self, n: int) -> int:
        """How many indices ``indices`` gives for an n-row source."""
        full = self._size(n)
        return full if self.num_samples is None else min(full, self.num_samples)

    def _size(self, n: int) -> int:
        return len(self._order(n, np.random.default_rng(0)))

    def get_num_samples(self) -> int | None:
        return self.num_samples

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__} must define __iter__ or _order")


class SequentialSampler(Sampler):
    """Rows in order from ``start_index`` (0 by default)."""

    def __init__(self, start_index: int | None = None, num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        self.start_index = _check_count("SequentialSampler", "start_index",
                                        0 if start_index is None else start_index, 0)

    def _order(self, n, rng):
        if self.start_index >= n and n > 0:
            raise ValueError(f"For 'SequentialSampler', start_index {self.start_index} is out "
                             f"of range for a dataset of {n} rows.")
        return np.arange(self.start_index, n, dtype=np.int64)

    def _size(self, n):
        return max(0, n - self.start_index)


class RandomSampler(Sampler):
    """Rows in a random order; with ``replacement=True`` each draw picks any row."""

    def __init__(self, replacement: bool = False, num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        if not isinstance(replacement, bool):
            raise TypeError("For 'RandomSampler', replacement must be a bool, but got "
                            f"{type(replacement).__name__}.")
        self.replacement = replacement

    def _order(self, n, rng):
        if self.replacement:
            return rng.integers(0, n, self.num_samples or n, dtype=np.int64) if n else \
                np.zeros(0, np.int64)
        return rng.permutation(n).astype(np.int64)

    def _size(self, n):
        return n


class DistributedSampler(Sampler):
    """Shard ``shard_id`` of ``num_shards``: every shard gets ceil(n / num_shards) rows, the
    last ones wrapping around to the start, so that all shards have the same length. With
    ``shuffle`` the order is drawn from the seed and the epoch alone, so the shards of one
    epoch (in different processes) split the same permutation."""

    def __init__(self, num_shards: int, shard_id: int, shuffle: bool = True,
                 num_samples: int | None = None, offset: int = -1) -> None:
        super().__init__(num_samples)
        self.num_shards = _check_count("DistributedSampler", "num_shards", num_shards, 1, False)
        self.shard_id = _check_count("DistributedSampler", "shard_id", shard_id, 0, False)
        if self.shard_id >= self.num_shards:
            raise ValueError(f"For 'DistributedSampler', shard_id must be in [0, num_shards), "
                             f"but got shard_id={shard_id}, num_shards={num_shards}.")
        self.shuffle = bool(shuffle)
        self.offset = offset
        self.shared_rng: np.random.Generator | None = None  # set per epoch by the source

    def _order(self, n, rng):
        base = np.arange(n, dtype=np.int64)
        if self.shuffle:
            base = (self.shared_rng or rng).permutation(n).astype(np.int64)
        per = self._size(n)
        pos = np.arange(per, dtype=np.int64) * self.num_shards + self.shard_id
        return base[pos % n] if n else base

    def _size(self, n):
        return -(-n // self.num_shards)


class SubsetSampler(Sampler):
    """The given row indices, in the given order."""

    def __init__(self, indices: Sequence[int], num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        arr = np.asarray(list(indices) if not isinstance(indices, np.ndarray) else indices)
        if arr.size and arr.dtype.kind not in "iu":
            raise TypeError(f"For '{type(self).__name__}', indices must be integers, but got "
                            f"{arr.dtype}.")
        self.indices_ = arr.astype(np.int64).ravel()

    def _order(self, n, rng):
        bad = self.indices_[(self.indices_ < 0) | (self.indices_ >= n)]
        if bad.size:
            raise IndexError(f"For '{type(self).__name__}', index {int(bad[0])} is out of range "
                             f"for a dataset of {n} rows.")
        return self.indices_.copy()

    def _size(self, n):
        return len(self.indices_)


class SubsetRandomSampler(SubsetSampler):
    """The given row indices in a random order."""

    def _order(self, n, rng):
        return rng.permutation(super()._order(n, rng))


class WeightedRandomSampler(Sampler):
    """``num_samples`` draws of row i with probability weights[i] / sum(weights)."""

    def __init__(self, weights: Sequence[float], num_samples: int | None = None,
                 replacement: bool = True) -> None:
        super().__init__(num_samples)
        w = np.asarray(weights, np.float64).ravel()
        if w.size == 0 or (w < 0).any() or w.sum() <= 0:
            raise ValueError("For 'WeightedRandomSampler', weights must be non-negative with a "
                             "positive sum.")
        self.weights = w / w.sum()
        self.replacement = replacement

    def _order(self, n, rng):
        count = self.num_samples or len(self.weights)
        return rng.choice(len(self.weights), count, replace=self.replacement,
                          p=self.weights).astype(np.int64)

    def _size(self, n):
        return self.num_samples or len(self.weights)


def as_sampler(sampler: Any) -> Sampler:
    """A ``sampler=`` argument as a Sampler: a Sampler stays, a list of indices becomes a
    ``SubsetSampler``."""
    if isinstance(sampler, Sampler):
        return sampler
    if isinstance(sampler, (list, tuple, np.ndarray, range)):
        return SubsetSampler(sampler)
    if hasattr(sampler, "__iter__"):
        return _IterSampler(sampler)
    raise TypeError(f"sampler must be a Sampler or a list of indices, but got "
                    f"{type(sampler).__name__}.")


class _IterSampler(Sampler):
    """A user's object whose ``__iter__`` yields row indices."""

    def __init__(self, obj: Any) -> None:
        super().__init__(None)
        self.obj = obj

    def _order(self, n, rng):
        return np.fromiter((int(i) for i in self.obj), np.int64)
