"""``Dataset.map``: operations applied to some columns of every row, in this process or in
worker processes (``python_multiprocessing=True``)."""
from __future__ import annotations

import collections
import itertools
import multiprocessing
import os
from typing import Any, Callable

import numpy as np

from . import config
from .datasets import MAKERS, Dataset, _count, _names, _replace_columns
from .rows import to_array

_CHUNK = 16  # rows per task sent to a worker: amortizes the pipe round trip


class RowFunction:
    """The work of one map: picks the input columns of a row, runs the operations in
    sequence and returns the new row (a tuple of arrays) in the output column order."""

    def __init__(self, ops: list, in_idx: list[int], n_out: int, layout: list,
                 out_names: list[str], in_names: list[str]) -> None:
        self.ops = ops
        self.in_names = in_names
        self.in_idx = in_idx
        self.n_out = n_out
        self.layout = layout  # per output column: ("in", k) an op result, ("keep", i) a column
        self.out_names = out_names

    def __call__(self, row: tuple) -> tuple:
        args = [row[i] for i in self.in_idx]
        for op in self.ops:
            try:
                res = op(*args)
            except Exception as exc:
                raise RuntimeError(f"map: operation {_op_name(op)} on input column(s) "
                                   f"{self.in_names} failed with {type(exc).__name__}: "
                                   f"{exc}") from exc
            args = list(res) if isinstance(res, tuple) else [res]
        if len(args) != self.n_out:
            raise RuntimeError(f"map: the operations returned {len(args)} column(s) but "
                               f"output_columns names {self.n_out}: {self.out_names}.")
        out = [to_array(a, "map") for a in args]
        return tuple(out[k] if kind == "in" else row[k] for kind, k in self.layout)

    def chunk(self, rows: list) -> list:
        return [self(r) for r in rows]


def _op_name(op: Any) -> str:
    name = getattr(op, "__name__", None) or type(op).__name__
    return f"'{name}'"


# Worker processes inherit the row functions through fork, so lambdas and local functions work.
_FUNCTIONS: dict[int, RowFunction] = {}


def _worker_init(key: int, worker_seed: int) -> None:
    config._reseed_transforms(worker_seed, os.getpid())


def _worker_chunk(key: int, rows: list) -> list:
    return _FUNCTIONS[key].chunk(rows)


class WorkerPool:
    """``n`` forked worker processes running a RowFunction on chunks of rows; results come
    back in order, with a bounded number of chunks in flight."""

    _keys = itertools.count(1)

    def __init__(self, fn: RowFunction, n: int) -> None:
        self.key = next(self._keys)
        _FUNCTIONS[self.key] = fn
        ctx = multiprocessing.get_context("fork")
        self.pool = ctx.Pool(n, initializer=_worker_init, initargs=(self.key, config.get_seed()))
        self.n = n

    def run(self, rows) -> Any:
        pending: collections.deque = collections.deque()
        window = 4 * self.n
        chunks = iter(lambda: list(itertools.islice(rows, _CHUNK)), [])
        for chunk in chunks:
            pending.append(self.pool.apply_async(_worker_chunk, (self.key, chunk)))
            if len(pending) >= window:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()
        _FUNCTIONS.pop(self.key, None)


class MapDataset(Dataset):
    def __init__(self, child: Dataset, operations: Any, input_columns: Any,
                 output_columns: Any, num_parallel_workers: int | None,
                 python_multiprocessing: bool) -> None:
        super().__init__([child])
        if operations is None:
            raise ValueError("For 'map', operations must be given (a callable or a list of "
                             "callables).")
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        for op in ops:
            if not callable(op):
                raise TypeError(f"For 'map', every operation must be callable, but got "
                                f"{type(op).__name__}.")
        self.operations = ops
        cols = child.get_col_names()
        ins = _names(input_columns, "input_columns", "map") or [cols[0]]
        self._in_idx = child._col_index(ins, "map")
        outs = _names(output_columns, "output_columns", "map") or list(ins)
        self.input_columns, self.output_columns = ins, outs
        self._cols = _replace_columns(cols, ins, outs)
        layout = [("in", outs.index(c)) if c in outs else ("keep", cols.index(c))
                  for c in self._cols]
        self._fn = RowFunction(ops, self._in_idx, len(outs), layout, outs, ins)
        self.num_parallel_workers = _count(
            num_parallel_workers if num_parallel_workers is not None
            else config.get_num_parallel_workers(), "num_parallel_workers", "map")
        self.python_multiprocessing = bool(python_multiprocessing)

    def get_col_names(self):
        return list(self._cols)

    def _num_rows(self):
        return self.children[0]._num_rows()

    def _rows(self, epoch):
        rows = self.children[0]._rows(epoch)
        if self.python_multiprocessing and self.num_parallel_workers > 1:
            pool = WorkerPool(self._fn, self.num_parallel_workers)
            try:
                yield from pool.run(rows)
            finally:
                pool.close()
            return
        batched = _batched_plan(self.operations)
        if batched is not None and len(self._in_idx) == 1:
            yield from self._rows_vectorized(rows, batched)
            return
        fn = self._fn
        for row in rows:
            yield fn(row)

    def _rows_vectorized(self, rows, batched: Callable) -> Any:
        """Same results as applying the operations row by row, for operations that act on
        each row alone with no randomness (Rescale, Normalize, HWC2CHW, TypeCast, ...): rows
        whose input has one shape and dtype are stacked and transformed together."""
        fn = self._fn
        src = self._in_idx[0]
        layout = fn.layout
        while True:
            chunk = list(itertools.islice(rows, 64))
            if not chunk:
                return
            first = chunk[0][src]
            if not isinstance(first, np.ndarray) or any(
                    type(r[src]) is not np.ndarray or r[src].shape != first.shape
                    or r[src].dtype != first.dtype for r in chunk):
                for r in chunk:
                    yield fn(r)
                continue
            try:
                out = batched(np.stack([r[src] for r in chunk]))
            except Exception:  # let the per-row path give the operation's own error
                for r in chunk:
                    yield fn(r)
                continue
            # out[i, ...] keeps 0-d rows as arrays (iterating a 1-D array gives scalars)
            for i, r in enumerate(chunk):
                o = out[i, ...]
                yield tuple(o if kind == "in" else r[k] for kind, k in layout)


def _batched_plan(ops: list) -> Callable | None:
    """A function applying ``ops`` to a stack of rows at once, when every op offers one."""
    parts = [getattr(op, "_batched", None) for op in ops]
    if not parts or any(p is None for p in parts):
        return None

    def run(x):
        for p in parts:
            x = p(x)
        return x
    return run


MAKERS.update(MapDataset=MapDataset)  # (see datasets.MAKERS)
