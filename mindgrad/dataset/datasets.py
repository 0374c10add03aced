"""The pipeline: ``Dataset`` and its operations (map, batch, shuffle, repeat, ...).

Every node knows its column names and produces the rows of one epoch as a generator
(``_rows(epoch)``); operations wrap their child's generator. Nothing runs until an iterator
asks for rows, and each iterator builds its generators afresh, so a dataset can be iterated
any number of times. ``epoch`` carries the seed and the epoch number from which each node
draws its own random generator, which makes every order reproducible."""
from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from . import config
from .rows import stack_column, to_array


# Constructors that Dataset's methods call but that live in the modules built on Dataset
# (iterators, map_op, sources): each of those registers its own here when it is imported,
# and the package imports them all (``dataset/__init__.py``).
MAKERS: dict[str, Any] = {}


class Epoch:
    """Where a generator stands: the seed, the path of epoch numbers (an iterator's epoch,
    then each enclosing ``repeat``'s repetition) and each node's position in the pipeline
    (depth-first from the iterated node), from which the node's random generator is drawn:
    two pipelines built alike give the same orders."""

    __slots__ = ("seed", "path", "ids")

    def __init__(self, seed: int, path: tuple = (), root: "Dataset | None" = None,
                 ids: dict | None = None) -> None:
        self.seed = seed
        self.path = path
        if ids is None:
            ids = {}
            stack = [root] if root is not None else []
            while stack:
                node = stack.pop()
                if id(node) not in ids:
                    ids[id(node)] = len(ids)
                    stack.extend(reversed(node.children))
        self.ids = ids

    def child(self, k: int) -> "Epoch":
        return Epoch(self.seed, self.path + (k,), ids=self.ids)

    def rng(self, node: "Dataset") -> np.random.Generator:
        """The random generator of ``node`` in this epoch."""
        return np.random.default_rng([self.seed, self.ids.get(id(node), 0), *self.path])

    def shared_rng(self) -> np.random.Generator:
        """A generator that depends on the seed and epoch alone (shards of one dataset in
        different processes draw the same permutation from it)."""
        return np.random.default_rng([self.seed, 0x5A4D, *self.path])

    @property
    def number(self) -> int:
        """A single epoch count: the iterator's epoch times enclosing repeats, flattened."""
        return self.path[-1] if self.path else 0


def _names(value: Any, what: str, where: str) -> list[str]:
    if value is None:
        return None
    names = [value] if isinstance(value, str) else list(value)
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"For '{where}', {what} must be a str or a list of str, but got "
                            f"{type(n).__name__} {n!r}.")
    if len(set(names)) != len(names):
        raise ValueError(f"For '{where}', {what} has duplicate names: {names}.")
    return names


def _count(value: Any, name: str, where: str, low: int = 1, allow_none: bool = False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"For '{where}', {name} must be an int, but got "
                        f"{type(value).__name__}.")
    if value < low:
        raise ValueError(f"For '{where}', {name} must be >= {low}, but got {value}.")
    return int(value)


class Dataset:
    """Base class of every source and operation of a pipeline."""

    def __init__(self, children: Sequence["Dataset"] = ()) -> None:
        self.children = list(children)
        self._size_cache: int | None = None
        self._meta_cache: tuple | None = None

    # --- what subclasses define ---------------------------------------------------------
    def get_col_names(self) -> list[str]:
        """The names of the columns, in order."""
        raise NotImplementedError

    def _rows(self, epoch: Epoch) -> Iterator[tuple]:
        raise NotImplementedError

    def _num_rows(self) -> int | None:
        """The number of rows of one epoch when known without running the pipeline."""
        return None

    @property
    def _name(self) -> str:
        return type(self).__name__

    def _col_index(self, names: list[str], op: str) -> list[int]:
        cols = self.get_col_names()
        out = []
        for n in names:
            if n not in cols:
                raise ValueError(f"For '{op}', column '{n}' does not exist in the dataset; its "
                                 f"columns are {cols}.")
            out.append(cols.index(n))
        return out

    # --- information ----------------------------------------------------------------------
    def get_dataset_size(self) -> int:
        """The number of rows (batches after ``batch``) of one epoch."""
        if self._size_cache is None:
            n = self._num_rows()
            if n is None:  # counting needs a run of the pipeline, as in MindSpore
                n = sum(1 for _ in self._rows(Epoch(config.get_seed(), root=self)))
            self._size_cache = n
        return self._size_cache

    def _first_row(self) -> tuple:
        if self._meta_cache is None:
            gen = self._rows(Epoch(config.get_seed(), root=self))
            try:
                row = next(gen)
            except StopIteration:
                raise RuntimeError(f"{self._name}: the dataset is empty, so it has no output "
                                   f"shapes or types.") from None
            finally:
                gen.close()
            self._meta_cache = row
        return self._meta_cache

    def output_shapes(self, estimate: bool = False) -> list[list[int]]:
        """The shape of each column, from the first row."""
        return [list(a.shape) for a in self._first_row()]

    def output_types(self) -> list[np.dtype]:
        """The NumPy dtype of each column, from the first row."""
        return [a.dtype for a in self._first_row()]

    def get_batch_size(self) -> int:
        """The batch size of the nearest ``batch`` (1 when there is none)."""
        node = self
        while node is not None:
            if isinstance(node, BatchDataset):
                return node.batch_size if isinstance(node.batch_size, int) else -1
            node = node.children[0] if node.children else None
        return 1

    def get_repeat_count(self) -> int:
        """The count of the nearest ``repeat`` (1 when there is none)."""
        node = self
        while node is not None:
            if isinstance(node, RepeatDataset):
                return node.count
            node = node.children[0] if node.children else None
        return 1

    def num_classes(self) -> int | None:
        node = self
        while node.children:
            node = node.children[0]
        return getattr(node, "_num_classes", lambda: None)()

    def reset(self) -> None:
        """Forget cached sizes and shapes (after the source changed)."""
        self._size_cache = self._meta_cache = None

    # --- iteration ------------------------------------------------------------------------
    def create_tuple_iterator(self, columns: Sequence[str] | None = None, num_epochs: int = -1,
                              output_numpy: bool = False, do_copy: bool = True):
        """An iterator over the rows as lists (of Tensors, or NumPy arrays with
        ``output_numpy``); ``num_epochs`` epochs, -1 for as many as asked for."""
        return MAKERS["TupleIterator"](self, columns, num_epochs, output_numpy)

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = False,
                             do_copy: bool = True):
        """An iterator over the rows as dicts from column name to value."""
        return MAKERS["DictIterator"](self, None, num_epochs, output_numpy)

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    # --- operations -----------------------------------------------------------------------
    def map(self, operations: Any = None, input_columns: Any = None,
            output_columns: Any = None, column_order: Any = None,
            num_parallel_workers: int | None = None, python_multiprocessing: bool = False,
            cache: Any = None, callbacks: Any = None, max_rowsize: Any = None,
            offload: Any = None) -> "Dataset":
        """Apply ``operations`` (a callable or a list run in sequence) to ``input_columns``
        (the first column by default), writing ``output_columns`` (the input columns by
        default) in their place."""
        out = MAKERS["MapDataset"](self, operations, input_columns, output_columns,
                         num_parallel_workers, python_multiprocessing)
        # column_order (MindSpore 1.x) selects and orders the columns after the map
        return out if column_order is None else out.project(column_order)

    def batch(self, batch_size: Any, drop_remainder: bool = False,
              num_parallel_workers: int | None = None, per_batch_map: Callable | None = None,
              input_columns: Any = None, output_columns: Any = None,
              python_multiprocessing: bool = False, max_rowsize: Any = None,
              **kwargs: Any) -> "BatchDataset":
        """Stack ``batch_size`` consecutive rows per column into one row."""
        return BatchDataset(self, batch_size, drop_remainder, per_batch_map, input_columns,
                            output_columns, kwargs.get("pad_info"))

    def padded_batch(self, batch_size: Any, drop_remainder: bool = False,
                     num_parallel_workers: int | None = None, pad_info: dict | None = None):
        """``batch`` that pads each column to the largest shape of the batch (or the shape
        and value given in ``pad_info``)."""
        return BatchDataset(self, batch_size, drop_remainder, None, None, None,
                            pad_info if pad_info is not None else {})

    def shuffle(self, buffer_size: int) -> "ShuffleDataset":
        """Shuffle rows through a buffer of ``buffer_size`` rows (a buffer at least as large
        as the dataset gives a uniform permutation)."""
        return ShuffleDataset(self, buffer_size)

    def repeat(self, count: int | None = None) -> "RepeatDataset":
        """The dataset ``count`` times (-1 or None: endlessly)."""
        return RepeatDataset(self, count)

    def take(self, count: int = -1) -> "TakeDataset":
        """The first ``count`` rows (-1: all)."""
        return TakeDataset(self, count)

    def skip(self, count: int) -> "SkipDataset":
        """All rows but the first ``count``."""
        return SkipDataset(self, count)

    def zip(self, datasets: Any) -> "ZipDataset":
        """Rows side by side with those of ``datasets`` (stops at the shortest)."""
        if isinstance(datasets, Dataset):
            datasets = (datasets,)
        return ZipDataset((self, *datasets))

    def concat(self, datasets: Any) -> "ConcatDataset":
        """The rows of this dataset, then those of ``datasets``."""
        if isinstance(datasets, Dataset):
            datasets = [datasets]
        return ConcatDataset([self, *datasets])

    def __add__(self, other: "Dataset") -> "ConcatDataset":
        return self.concat(other)

    def project(self, columns: Any) -> "ProjectDataset":
        """Keep only ``columns``, in the order given."""
        return ProjectDataset(self, columns)

    def rename(self, input_columns: Any, output_columns: Any) -> "RenameDataset":
        """Rename ``input_columns`` to ``output_columns``."""
        return RenameDataset(self, input_columns, output_columns)

    def filter(self, predicate: Callable, input_columns: Any = None,
               num_parallel_workers: int | None = None) -> "FilterDataset":
        """Keep the rows for which ``predicate(*columns)`` is true."""
        return FilterDataset(self, predicate, input_columns)

    def split(self, sizes: Sequence[Any], randomize: bool = True) -> list["Dataset"]:
        """Split into datasets of the given sizes (row counts, or fractions that sum to 1).
        With ``randomize`` (random-access sources only) the rows are split at random and each
        part is read in a new random order every epoch."""
        return MAKERS["split_dataset"](self, sizes, randomize)

    def device_que(self, send_epoch_end: bool = True, create_data_info_queue: bool = False):
        """Accepted for compatibility: there is no device queue, rows go through iterators."""
        return self

    def to_device(self, send_epoch_end: bool = True, create_data_info_queue: bool = False):
        return self

    def __repr__(self) -> str:
        return f"<{self._name} columns={self.get_col_names()}>"


class BatchInfo:
    """What ``per_batch_map`` and a callable ``batch_size`` receive: the batch number (within
    the epoch) and the epoch number."""

    def __init__(self, batch_num: int, epoch_num: int) -> None:
        self._batch_num = batch_num
        self._epoch_num = epoch_num

    def get_batch_num(self) -> int:
        return self._batch_num

    def get_epoch_num(self) -> int:
        return self._epoch_num


class BatchDataset(Dataset):
    def __init__(self, child: Dataset, batch_size: Any, drop_remainder: bool,
                 per_batch_map: Callable | None, input_columns: Any, output_columns: Any,
                 pad_info: dict | None = None) -> None:
        super().__init__([child])
        if not callable(batch_size):
            batch_size = _count(batch_size, "batch_size", "batch")
        self.batch_size = batch_size
        self.drop_remainder = bool(drop_remainder)
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError(f"For 'batch', per_batch_map must be callable, but got "
                            f"{type(per_batch_map).__name__}.")
        self.per_batch_map = per_batch_map
        self.input_columns = _names(input_columns, "input_columns", "batch")
        self.output_columns = _names(output_columns, "output_columns", "batch")
        self.pad_info = pad_info
        if self.input_columns is not None:
            self._in_idx = child._col_index(self.input_columns, "batch")
        elif per_batch_map is not None:
            self._in_idx = list(range(len(child.get_col_names())))
        if self.pad_info:
            child._col_index(list(self.pad_info), "padded_batch")

    def get_col_names(self):
        cols = self.children[0].get_col_names()
        if self.per_batch_map is None or self.output_columns is None:
            return list(cols)
        ins = [cols[i] for i in self._in_idx]
        return _replace_columns(cols, ins, self.output_columns)

    def _num_rows(self):
        if callable(self.batch_size):
            return None
        n = self.children[0]._num_rows()
        if n is None:
            return None
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def _rows(self, epoch):
        child = self.children[0]
        cols = child.get_col_names()
        where = "batch"
        num = 0
        it = child._rows(epoch)
        while True:
            size = self.batch_size
            if callable(size):
                size = _count(size(BatchInfo(num, epoch.number)), "batch_size (returned by the "
                              "callable)", "batch")
            rows = list(itertools.islice(it, size))
            if not rows or (self.drop_remainder and len(rows) < size):
                return
            columns = [[r[c] for r in rows] for c in range(len(cols))]
            if self.per_batch_map is not None:
                yield self._mapped(columns, cols, BatchInfo(num, epoch.number))
            else:
                if self.pad_info is not None:
                    columns = _pad_columns(columns, cols, self.pad_info)
                yield tuple(stack_column(v, cols[i], where) for i, v in enumerate(columns))
            num += 1

    def _mapped(self, columns, cols, info):
        ins = [columns[i] for i in self._in_idx]
        try:
            out = self.per_batch_map(*ins, info)
        except Exception as exc:
            raise RuntimeError(f"batch: per_batch_map raised {type(exc).__name__}: {exc}") \
                from exc
        out = out if isinstance(out, tuple) else (out,)
        out_names = self.output_columns or [cols[i] for i in self._in_idx]
        if len(out) != len(out_names):
            raise RuntimeError(f"batch: per_batch_map returned {len(out)} columns but "
                               f"{len(out_names)} were expected ({out_names}).")
        arrays = []
        for name, value in zip(out_names, out):
            if isinstance(value, (list, tuple)):
                value = stack_column([to_array(v, "batch") for v in value], name, "batch")
            arrays.append(to_array(value, "batch"))
        rest = {cols[i]: stack_column(columns[i], cols[i], "batch")
                for i in range(len(cols)) if i not in self._in_idx}
        new = dict(zip(out_names, arrays))
        return tuple(new[c] if c in new else rest[c] for c in self.get_col_names())


def _pad_columns(columns, cols, pad_info):
    out = []
    for name, values in zip(cols, columns):
        if name not in pad_info and pad_info:
            out.append(values)
            continue
        shape, value = pad_info.get(name) or (None, 0)
        target = list(np.max([v.shape for v in values], axis=0)) if values[0].ndim else []
        if shape is not None:
            target = [t if s is None else s for s, t in zip(shape, target)]
        padded = []
        for v in values:
            if any(s > t for s, t in zip(v.shape, target)):
                raise RuntimeError(f"padded_batch: a row of column '{name}' of shape {v.shape} "
                                   f"is larger than the pad shape {target}.")
            pad = [(0, t - s) for s, t in zip(v.shape, target)]
            padded.append(np.pad(v, pad, constant_values=value) if pad else v)
        out.append(padded)
    return out


def _replace_columns(cols: list[str], ins: list[str], outs: list[str]) -> list[str]:
    """``cols`` with ``ins`` replaced by ``outs``, placed where the first input column was."""
    pos = cols.index(ins[0]) if ins else 0
    kept = [c for c in cols if c not in ins]
    pos = sum(1 for c in cols[:pos] if c not in ins)
    new = kept[:pos] + list(outs) + kept[pos:]
    if len(set(new)) != len(new):
        dup = sorted({c for c in new if new.count(c) > 1})
        raise ValueError(f"output columns {outs} would duplicate the existing column(s) {dup}.")
    return new


class ShuffleDataset(Dataset):
    def __init__(self, child: Dataset, buffer_size: int) -> None:
        super().__init__([child])
        self.buffer_size = _count(buffer_size, "buffer_size", "shuffle", 2)

    def get_col_names(self):
        return self.children[0].get_col_names()

    def _num_rows(self):
        return self.children[0]._num_rows()

    def _rows(self, epoch):
        rng = epoch.rng(self)
        buf: list = []
        for row in self.children[0]._rows(epoch):
            if len(buf) < self.buffer_size:
                buf.append(row)
                continue
            k = int(rng.integers(len(buf)))
            out, buf[k] = buf[k], row
            yield out
        for k in rng.permutation(len(buf)):
            yield buf[k]


class RepeatDataset(Dataset):
    def __init__(self, child: Dataset, count: int | None) -> None:
        super().__init__([child])
        if count is None:
            count = -1
        count = _count(count, "count", "repeat", -1)
        if count == 0:
            raise ValueError("For 'repeat', count must be -1 or a positive int, but got 0.")
        self.count = count

    def get_col_names(self):
        return self.children[0].get_col_names()

    def _num_rows(self):
        n = self.children[0]._num_rows()
        if self.count == -1:
            return None if n is None else (0 if n == 0 else -1)
        return None if n is None else n * self.count

    def get_dataset_size(self):
        if self.count == -1:
            return -1 if self.children[0].get_dataset_size() else 0
        return self.children[0].get_dataset_size() * self.count

    def _rows(self, epoch):
        for r in (range(self.count) if self.count > 0 else itertools.count()):
            empty = True
            for row in self.children[0]._rows(epoch.child(r)):
                empty = False
                yield row
            if empty:
                return


class TakeDataset(Dataset):
    def __init__(self, child: Dataset, count: int) -> None:
        super().__init__([child])
        self.count = _count(count, "count", "take", -1)
        if self.count == 0:
            raise ValueError("For 'take', count must be -1 or a positive int, but got 0.")

    def get_col_names(self):
        return self.children[0].get_col_names()

    def _num_rows(self):
        n = self.children[0]._num_rows()
        if n is None or n < 0:
            return None if n is None or self.count < 0 else self.count
        return n if self.count < 0 else min(n, self.count)

    def _rows(self, epoch):
        it = self.children[0]._rows(epoch)
        yield from (it if self.count < 0 else itertools.islice(it, self.count))


class SkipDataset(Dataset):
    def __init__(self, child: Dataset, count: int) -> None:
        super().__init__([child])
        self.count = _count(count, "count", "skip", 0)

    def get_col_names(self):
        return self.children[0].get_col_names()

    def _num_rows(self):
        n = self.children[0]._num_rows()
        return None if n is None else max(0, n - self.count)

    def _rows(self, epoch):
        yield from itertools.islice(self.children[0]._rows(epoch), self.count, None)


class ZipDataset(Dataset):
    def __init__(self, datasets: Sequence[Dataset]) -> None:
        datasets = list(datasets)
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"For 'zip', every input must be a Dataset, but got "
                                f"{type(d).__name__}.")
        super().__init__(datasets)
        names = [c for d in datasets for c in d.get_col_names()]
        dup = sorted({c for c in names if names.count(c) > 1})
        if dup:
            raise ValueError(f"For 'zip', the datasets share the column name(s) {dup}; rename "
                             f"them first.")

    def get_col_names(self):
        return [c for d in self.children for c in d.get_col_names()]

    def _num_rows(self):
        sizes = [d._num_rows() for d in self.children]
        if any(s is None for s in sizes):
            return None
        finite = [s for s in sizes if s >= 0]
        return min(finite) if finite else -1

    def _rows(self, epoch):
        for parts in zip(*[d._rows(epoch) for d in self.children]):
            yield tuple(a for p in parts for a in p)


class ConcatDataset(Dataset):
    def __init__(self, datasets: Sequence[Dataset]) -> None:
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"For 'concat', every input must be a Dataset, but got "
                                f"{type(d).__name__}.")
        super().__init__(datasets)
        first = datasets[0].get_col_names()
        for d in datasets[1:]:
            if d.get_col_names() != first:
                raise ValueError(f"For 'concat', the datasets must have the same columns, but "
                                 f"got {first} and {d.get_col_names()}.")

    def get_col_names(self):
        return self.children[0].get_col_names()

    def _num_rows(self):
        sizes = [d._num_rows() for d in self.children]
        return None if any(s is None for s in sizes) else sum(sizes)

    def _rows(self, epoch):
        for k, d in enumerate(self.children):
            yield from d._rows(epoch.child(k))


class ProjectDataset(Dataset):
    def __init__(self, child: Dataset, columns: Any) -> None:
        super().__init__([child])
        self.columns = _names(columns, "columns", "project")
        self._idx = child._col_index(self.columns, "project")

    def get_col_names(self):
        return list(self.columns)

    def _num_rows(self):
        return self.children[0]._num_rows()

    def _rows(self, epoch):
        idx = self._idx
        for row in self.children[0]._rows(epoch):
            yield tuple(row[i] for i in idx)


class RenameDataset(Dataset):
    def __init__(self, child: Dataset, input_columns: Any, output_columns: Any) -> None:
        super().__init__([child])
        ins = _names(input_columns, "input_columns", "rename")
        outs = _names(output_columns, "output_columns", "rename")
        if len(ins) != len(outs):
            raise ValueError(f"For 'rename', input_columns {ins} and output_columns {outs} "
                             f"must have the same length.")
        child._col_index(ins, "rename")
        mapping = dict(zip(ins, outs))
        self._cols = [mapping.get(c, c) for c in child.get_col_names()]
        if len(set(self._cols)) != len(self._cols):
            raise ValueError(f"For 'rename', the new names would duplicate a column: "
                             f"{self._cols}.")

    def get_col_names(self):
        return list(self._cols)

    def _num_rows(self):
        return self.children[0]._num_rows()

    def _rows(self, epoch):
        return self.children[0]._rows(epoch)


class FilterDataset(Dataset):
    def __init__(self, child: Dataset, predicate: Callable, input_columns: Any) -> None:
        super().__init__([child])
        if not callable(predicate):
            raise TypeError("For 'filter', predicate must be callable.")
        self.predicate = predicate
        names = _names(input_columns, "input_columns", "filter")
        self._idx = child._col_index(names, "filter") if names else None

    def get_col_names(self):
        return self.children[0].get_col_names()

    def _rows(self, epoch):
        for row in self.children[0]._rows(epoch):
            args = row if self._idx is None else tuple(row[i] for i in self._idx)
            if bool(np.asarray(self.predicate(*args))):
                yield row
