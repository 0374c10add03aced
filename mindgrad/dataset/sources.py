"""Sources in memory or in Python: ``GeneratorDataset``, ``NumpySlicesDataset``; the base of
every random-access source (sampling, shuffling, sharding) and ``Dataset.split``."""
from __future__ import annotations

import copy
import itertools
from typing import Any, Sequence

import numpy as np

from . import config
from .map_op import WorkerPool
from ..core import dtype as mstype
from .datasets import MAKERS, Dataset, _count, _names
from .rows import as_row, to_array
from .samplers import (DistributedSampler, RandomSampler, Sampler, SequentialSampler,
                       SubsetRandomSampler, SubsetSampler, as_sampler)


class Shuffle:
    """``mindspore.dataset.Shuffle``: how a file-based source shuffles (every level shuffles
    all rows here, since the files are read into memory)."""
    GLOBAL = "global"
    FILES = "files"
    INFILE = "infile"


def _shard_args(name: str, num_shards: Any, shard_id: Any) -> tuple:
    if num_shards is None and shard_id is None:
        return None, None
    if num_shards is None or shard_id is None:
        raise ValueError(f"For '{name}', num_shards and shard_id must be given together, but "
                         f"got num_shards={num_shards}, shard_id={shard_id}.")
    num_shards = _count(num_shards, "num_shards", name)
    shard_id = _count(shard_id, "shard_id", name, 0)
    if shard_id >= num_shards:
        raise ValueError(f"For '{name}', shard_id must be in [0, num_shards), but got "
                         f"shard_id={shard_id}, num_shards={num_shards}.")
    return num_shards, shard_id


def build_sampler(name: str, num_samples: Any, shuffle: Any, sampler: Any, num_shards: Any,
                  shard_id: Any) -> Sampler:
    """The sampler a source's arguments describe, with MindSpore's rules: ``sampler`` excludes
    ``shuffle`` and sharding; sharding gives a DistributedSampler; otherwise the rows are
    shuffled unless ``shuffle=False``."""
    num_samples = _count(num_samples, "num_samples", name, 0, allow_none=True) or None
    num_shards, shard_id = _shard_args(name, num_shards, shard_id)
    if shuffle is not None and not isinstance(shuffle, (bool, str)):
        raise TypeError(f"For '{name}', shuffle must be a bool, but got "
                        f"{type(shuffle).__name__}.")
    if sampler is not None:
        if shuffle is not None:
            raise RuntimeError(f"For '{name}', sampler and shuffle cannot be given together.")
        if num_shards is not None:
            raise RuntimeError(f"For '{name}', sampler and num_shards/shard_id cannot be given "
                               f"together (use a DistributedSampler).")
        s = as_sampler(sampler)
        if num_samples is not None:
            s = copy.copy(s)
            s.num_samples = num_samples if s.num_samples is None else \
                min(num_samples, s.num_samples)
        return s
    do_shuffle = shuffle is None or bool(shuffle)
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, do_shuffle, num_samples)
    return RandomSampler(num_samples=num_samples) if do_shuffle else \
        SequentialSampler(num_samples=num_samples)


class MappableSource(Dataset):
    """A source whose rows can be read by index; a sampler picks each epoch's indices.
    Subclasses define ``get_col_names``, ``_length`` (rows in the source) and ``_load(i)``."""

    def __init__(self, num_samples: Any = None, shuffle: Any = None, sampler: Any = None,
                 num_shards: Any = None, shard_id: Any = None) -> None:
        super().__init__()
        self.sampler = build_sampler(self._name, num_samples, shuffle, sampler, num_shards,
                                     shard_id)

    def _length(self) -> int:
        raise NotImplementedError

    def _load(self, i: int) -> tuple:
        raise NotImplementedError

    def _num_rows(self):
        return self.sampler.size(self._length())

    def _indices(self, epoch) -> np.ndarray:
        n = self._length()
        s = self.sampler
        rng = epoch.shared_rng() if isinstance(s, DistributedSampler) else epoch.rng(self)
        return s.indices(n, rng)

    def _rows(self, epoch):
        load = self._load
        for i in self._indices(epoch).tolist():
            yield load(i)

    def use_sampler(self, sampler: Any) -> None:
        """Replace the sampler (MindSpore's ``use_sampler``)."""
        self.sampler = as_sampler(sampler)
        self.reset()

    def add_sampler(self, sampler: Any) -> None:
        self.use_sampler(sampler)


class _Columns(MappableSource):
    """Rows from a list of equal-length column arrays."""

    def _setup(self, columns: list[np.ndarray], names: list[str]) -> None:
        self._arrays = columns
        self._names = names

    def get_col_names(self):
        return list(self._names)

    def _length(self):
        return len(self._arrays[0]) if self._arrays else 0

    def _load(self, i):
        return tuple(a[i, ...] for a in self._arrays)


class NumpySlicesDataset(_Columns):
    """Rows sliced from NumPy arrays or Python lists along their first axis: a list or array
    gives one column, a tuple one column per element, a dict one column per key."""

    def __init__(self, data: Any, column_names: Any = None, num_samples: Any = None,
                 num_parallel_workers: int = 1, shuffle: Any = None, sampler: Any = None,
                 num_shards: Any = None, shard_id: Any = None) -> None:
        super().__init__(num_samples, shuffle, sampler, num_shards, shard_id)
        if isinstance(data, dict):
            keys = list(data)
            cols = [data[k] for k in keys]
            default = [str(k) for k in keys]
        elif isinstance(data, tuple):
            cols, default = list(data), [f"column_{i}" for i in range(len(data))]
        else:
            cols, default = [data], ["column_0"]
        arrays = []
        for k, c in enumerate(cols):
            # a private read-only copy: rows are views of it, and the caller's array may
            # change later
            arr = np.array(to_array(c, "NumpySlicesDataset"))
            arr.setflags(write=False)
            if arr.ndim == 0:
                raise ValueError(f"For 'NumpySlicesDataset', column {k} is a scalar; every "
                                 f"column needs a first axis to slice rows from.")
            arrays.append(arr)
        if len({len(a) for a in arrays}) > 1:
            raise ValueError(f"For 'NumpySlicesDataset', the columns have different lengths "
                             f"{[len(a) for a in arrays]}.")
        names = _names(column_names, "column_names", "NumpySlicesDataset") or default
        if len(names) != len(arrays):
            raise ValueError(f"For 'NumpySlicesDataset', column_names {names} names "
                             f"{len(names)} columns but the data has {len(arrays)}.")
        self._setup(arrays, names)


def _source_kind(source: Any) -> str:
    if hasattr(source, "__getitem__") and hasattr(source, "__len__"):
        return "random"
    if hasattr(source, "__iter__"):
        return "iterable"
    if callable(source):
        return "callable"
    raise TypeError(f"For 'GeneratorDataset', source must be a random-access object "
                    f"(__getitem__ and __len__), an iterable or a generator function, but got "
                    f"{type(source).__name__}.")


class GeneratorDataset(MappableSource):
    """Rows from Python: ``source`` is a random-access object (``__getitem__`` and
    ``__len__``; sampled, shuffled and sharded like any random-access source), an iterable,
    or a callable returning an iterator (a generator function). Each item is a tuple with
    one value per column (or a single value for one column)."""

    def __init__(self, source: Any, column_names: Any = None, column_types: Any = None,
                 schema: Any = None, num_samples: Any = None, num_parallel_workers: int = 1,
                 shuffle: Any = None, sampler: Any = None, num_shards: Any = None,
                 shard_id: Any = None, python_multiprocessing: bool = True,
                 max_rowsize: Any = None) -> None:
        self._kind = _source_kind(source)
        names = _names(column_names, "column_names", "GeneratorDataset")
        if names is None and schema is not None and hasattr(schema, "columns"):
            names = [c["name"] for c in schema.columns]
        if not names:
            raise ValueError("For 'GeneratorDataset', column_names (or schema) must be given.")
        if self._kind == "random":
            super().__init__(num_samples, shuffle, sampler, num_shards, shard_id)
        else:
            Dataset.__init__(self)
            if sampler is not None:
                raise ValueError("For 'GeneratorDataset', a sampler needs a random-access "
                                 "source (__getitem__ and __len__), but source is iterable.")
            if shuffle:
                raise ValueError("For 'GeneratorDataset', shuffle=True needs a random-access "
                                 "source (__getitem__ and __len__), but source is iterable.")
            self._num_samples = _count(num_samples, "num_samples", "GeneratorDataset", 0,
                                       allow_none=True) or None
            self._shards = _shard_args("GeneratorDataset", num_shards, shard_id)
        self.source = source
        self._names = names
        self._types = None
        self.num_parallel_workers = _count(num_parallel_workers, "num_parallel_workers",
                                           "GeneratorDataset")
        self.python_multiprocessing = bool(python_multiprocessing)
        if column_types is not None:
            types = list(column_types)
            if len(types) != len(names):
                raise ValueError(f"For 'GeneratorDataset', column_types has {len(types)} "
                                 f"entries but column_names {names} has {len(names)}.")
            self._types = [mstype.to_numpy(t, "GeneratorDataset") if not isinstance(t, type)
                           or not issubclass(t, np.generic) else np.dtype(t) for t in types]

    def get_col_names(self):
        return list(self._names)

    def _length(self):
        return len(self.source)

    def _row(self, item: Any) -> tuple:
        row = as_row(item, "GeneratorDataset")
        if len(row) != len(self._names):
            raise RuntimeError(f"GeneratorDataset: the source gave a row of {len(row)} "
                               f"value(s) but column_names {self._names} names "
                               f"{len(self._names)}.")
        if self._types is not None:
            row = tuple(a.astype(t, copy=False) for a, t in zip(row, self._types))
        return row

    def _load(self, i):
        try:
            item = self.source[i]
        except Exception as exc:
            raise RuntimeError(f"GeneratorDataset: source[{i}] raised {type(exc).__name__}: "
                               f"{exc}") from exc
        return self._row(item)

    def _num_rows(self):
        if self._kind == "random":
            return super()._num_rows()
        return None

    def _rows(self, epoch):
        if self._kind == "random":
            if self.num_parallel_workers > 1 and self.python_multiprocessing:
                # rows are read by worker processes (the source is inherited by fork)
                pool = WorkerPool(_Loader(self), self.num_parallel_workers)
                try:
                    yield from pool.run(iter(self._indices(epoch).tolist()))
                finally:
                    pool.close()
                return
            yield from super()._rows(epoch)
            return
        it = iter(self.source() if self._kind == "callable" else self.source)
        num_shards, shard_id = self._shards
        if num_shards is not None:
            it = itertools.islice(it, shard_id, None, num_shards)
        if self._num_samples is not None:
            it = itertools.islice(it, self._num_samples)
        for item in it:
            yield self._row(item)


class _Loader:
    """A random-access GeneratorDataset's reads, for worker processes."""

    def __init__(self, ds: GeneratorDataset) -> None:
        self.ds = ds

    def chunk(self, indices: list) -> list:
        return [self.ds._load(i) for i in indices]


def _split_sizes(sizes: Sequence[Any], n: int) -> list[int]:
    sizes = list(sizes)
    if not sizes:
        raise ValueError("For 'split', sizes must not be empty.")
    if all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in sizes):
        if any(s < 1 for s in sizes) or sum(sizes) != n:
            raise ValueError(f"For 'split', integer sizes must be positive and add up to the "
                             f"dataset size {n}, but got {sizes}.")
        return [int(s) for s in sizes]
    if all(isinstance(s, float) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
            raise ValueError(f"For 'split', fractional sizes must be in (0, 1] and add up to "
                             f"1, but got {sizes}.")
        out = [int(round(s * n)) for s in sizes]
        out[0] += n - sum(out)  # rounding remainder goes to the first part
        if any(s < 1 for s in out):
            raise ValueError(f"For 'split', sizes {sizes} of {n} rows leave an empty part.")
        return out
    raise TypeError(f"For 'split', sizes must be all ints or all floats, but got {sizes}.")


def split_dataset(ds: Dataset, sizes: Sequence[Any], randomize: bool) -> list[Dataset]:
    n = ds.get_dataset_size()
    counts = _split_sizes(sizes, n)
    bounds = np.cumsum([0] + counts)
    if isinstance(ds, MappableSource) and not (isinstance(ds, GeneratorDataset)
                                              and ds._kind != "random"):
        ids = ds.sampler.indices(ds._length(), np.random.default_rng(config.get_seed()))
        if randomize:
            ids = np.random.default_rng([config.get_seed(), 0x5917]).permutation(ids)
        parts = []
        for a, b in zip(bounds[:-1], bounds[1:]):
            part = copy.copy(ds)
            part.sampler = (SubsetRandomSampler if randomize else SubsetSampler)(ids[a:b])
            part.reset()
            parts.append(part)
        return parts
    if randomize:
        raise RuntimeError(f"For 'split', randomize=True needs a random-access source as the "
                           f"dataset itself, but got {ds._name}; pass randomize=False.")
    return [ds.skip(int(a)).take(int(b - a)) if b > a else None
            for a, b in zip(bounds[:-1], bounds[1:])]


MAKERS.update(split_dataset=split_dataset)  # (see datasets.MAKERS)
