"""MindSpore dtype objects (``mindspore.float32`` ...) mapped onto NumPy dtypes."""
from __future__ import annotations

import numpy as np


class DType:
    """A tensor element type. ``str`` gives MindSpore's name (``Float32``), ``repr`` the
    qualified one (``mindspore.float32``)."""

    __slots__ = ("name", "np_dtype", "_short")

    def __init__(self, name: str, short: str, np_dtype) -> None:
        self.name = name
        self._short = short
        self.np_dtype = np.dtype(np_dtype)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"mindspore.{self._short}"

    def __eq__(self, other) -> bool:
        if isinstance(other, DType):
            return self.np_dtype == other.np_dtype
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.np_dtype)

    @property
    def is_floating(self) -> bool:
        return self.np_dtype.kind == "f"


float16 = DType("Float16", "float16", np.float16)
float32 = DType("Float32", "float32", np.float32)
float64 = DType("Float64", "float64", np.float64)
int8 = DType("Int8", "int8", np.int8)
int16 = DType("Int16", "int16", np.int16)
int32 = DType("Int32", "int32", np.int32)
int64 = DType("Int64", "int64", np.int64)
uint8 = DType("UInt8", "uint8", np.uint8)
uint16 = DType("UInt16", "uint16", np.uint16)
uint32 = DType("UInt32", "uint32", np.uint32)
uint64 = DType("UInt64", "uint64", np.uint64)
bool_ = DType("Bool", "bool_", np.bool_)
complex64 = DType("Complex64", "complex64", np.complex64)
complex128 = DType("Complex128", "complex128", np.complex128)

# MindSpore's aliases.
half, single, double = float16, float32, float64
int_, uint = int32, uint32
float_ = float32

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
        bool_, complex64, complex128)
_BY_NP = {d.np_dtype: d for d in _ALL}


def from_numpy(np_dtype) -> DType:
    """The DType for a NumPy dtype; a clear error for types MindSpore has no name for."""
    try:
        return _BY_NP[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(f"mindgrad has no dtype for NumPy type {np.dtype(np_dtype)}") from None


def to_numpy(dtype, op: str | None = None) -> np.dtype:
    """Accept a DType, a NumPy dtype, a Python type or a string and return the NumPy dtype;
    anything else is a TypeError of ``op``."""
    if isinstance(dtype, DType):
        return dtype.np_dtype
    if dtype is float:
        return np.dtype(np.float32)
    if dtype is int:
        return np.dtype(np.int64)
    if dtype is bool:
        return np.dtype(np.bool_)
    try:
        return np.dtype(dtype)
    except (TypeError, ValueError):  # NumPy raises ValueError for a Tensor (it has .dtype)
        where = f"For '{op}', " if op else ""
        raise TypeError(f"{where}'dtype' must be a mindspore dtype (such as mindspore.float32), "
                        f"a NumPy dtype or a Python type, but got {dtype!r}.") from None


def dtype_to_nptype(dtype: DType):
    """MindSpore's ``mindspore.dtype_to_nptype``."""
    return to_numpy(dtype).type


def dtype_to_pytype(dtype: DType) -> type:
    """MindSpore's ``mindspore.dtype_to_pytype``: the Python type of a dtype's values
    (``float``, ``int``, ``bool`` or ``complex``); a KeyError for anything else."""
    if not isinstance(dtype, DType):
        raise KeyError(dtype)
    return {"f": float, "i": int, "u": int, "b": bool, "c": complex}[dtype.np_dtype.kind]


def pytype_to_dtype(t) -> DType:
    return from_numpy(to_numpy(t))
