"""Rows and their values: what a pipeline passes from node to node.

A row is a tuple of NumPy arrays, one per column. Values produced by user code (Python
numbers, lists, PIL images, Tensors) become arrays here, with MindSpore's dtypes: a Python
int is int64, a float float64, a bool bool_, a str a NumPy string."""
from __future__ import annotations

from typing import Any

import numpy as np


def to_array(value: Any, where: str) -> np.ndarray:
    """``value`` as a NumPy array; ``where`` names the dataset or operation for errors."""
    if type(value) is np.ndarray:
        return value
    if hasattr(value, "asnumpy"):  # a Tensor
        return value.asnumpy()
    if hasattr(value, "getbands") and hasattr(value, "mode"):  # a PIL image
        return np.asarray(value)
    if isinstance(value, (bytes, bytearray)):
        return np.frombuffer(value, np.uint8).copy()
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged lists and the like
        raise TypeError(f"{where}: cannot turn a value of type {type(value).__name__} into an "
                        f"array ({exc}).") from None
    if arr.dtype == object:
        raise TypeError(f"{where}: a value of type {type(value).__name__} does not make a "
                        f"numeric or string array (got an object array of shape {arr.shape}).")
    return arr


def as_row(value: Any, where: str) -> tuple:
    """A source's item as a row: a tuple or list gives one column per element (as in
    MindSpore), anything else (a number, string, array, Tensor) one column."""
    if isinstance(value, (tuple, list)):
        return tuple(to_array(v, where) for v in value)
    return (to_array(value, where),)


def stack_column(values: list, column: str, where: str) -> np.ndarray:
    """The arrays of one column of a batch stacked along a new first axis."""
    first = values[0]
    shape, dtype = first.shape, first.dtype
    for v in values:
        if v.shape != shape:
            shapes = sorted({tuple(x.shape) for x in values})
            raise RuntimeError(
                f"{where}: cannot batch column '{column}': its rows have different shapes "
                f"{shapes[:4]}; resize or pad them to one shape first (or use per_batch_map).")
    if any(v.dtype != dtype for v in values):
        dtype = np.result_type(*[v.dtype for v in values])
    return np.stack(values).astype(dtype, copy=False)
