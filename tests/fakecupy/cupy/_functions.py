"""The stand-in's functions: exactly the names CuPy 14.2 has (``cupy_names.json``, listed
from a real installation), each computed by NumPy on the device arrays' data."""
from __future__ import annotations

import json
import os
import types
from typing import Any, Callable

import numpy as np

from ._core import TRANSFERS, checked, dev, dev_index, host_to_device, ndarray, shape_arg, wrap

with open(os.path.join(os.path.dirname(__file__), "..", "cupy_names.json")) as _f:
    NAMES: dict[str, list[str]] = json.load(_f)

# Functions that answer questions about dtypes and shapes: no arrays come back.
_META = {"result_type", "promote_types", "can_cast", "min_scalar_type", "finfo", "iinfo",
         "dtype", "isscalar", "ndim", "shape", "size", "issubdtype", "common_type",
         "mintypecode", "iscomplexobj", "isrealobj", "isfortran", "broadcast_shapes",
         "binary_repr", "base_repr", "array_repr",
         "array_str", "array2string", "get_printoptions", "set_printoptions", "printoptions",
         "typename", "format_float_positional", "format_float_scientific", "ndindex",
         "index_exp", "s_", "newaxis", "pi", "e", "inf", "nan", "euler_gamma"}
# Creation functions whose first argument is a shape.
_SHAPE_FIRST = {"zeros", "ones", "empty", "full", "eye", "identity", "tri"}
# Predicates that give a 0-d device array in CuPy (a Python bool in NumPy).
_ARRAY_BOOL = {"array_equal", "array_equiv", "allclose"}
# Functions whose integer index arguments CuPy also takes as NumPy arrays (measured).
_INDEX_ARGS = {"take", "take_along_axis", "put", "put_along_axis", "unravel_index",
               "ravel_multi_index", "choose", "compress", "repeat", "place", "putmask"}


class ufunc:
    """A device ufunc: ``__call__``, ``at``, ``reduce``, ``accumulate``, ``outer``."""

    def __init__(self, np_ufunc: np.ufunc) -> None:
        self._u = np_ufunc
        self.__name__ = np_ufunc.__name__
        self.nin, self.nout, self.nargs = np_ufunc.nin, np_ufunc.nout, np_ufunc.nargs

    def _run(self, method: Callable, args: tuple, kwargs: dict) -> Any:
        out = kwargs.get("out")
        if out is not None:
            outs = out if isinstance(out, tuple) else (out,)
            for o in outs:
                if type(o) is not ndarray:
                    raise TypeError(f"Output arrays must be cupy.ndarray, got {type(o)}")
            kwargs["out"] = tuple(o._a for o in outs) if isinstance(out, tuple) else out._a
        with np.errstate(all="ignore"):  # a GPU gives inf/nan without NumPy's warnings
            r = method(*[dev(a) for a in args], **{k: v if k == "out" else dev(v)
                                                   for k, v in kwargs.items()})
        if out is not None:
            return out if not isinstance(out, tuple) or len(out) > 1 else out[0]
        return wrap(r, args)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.__name__.startswith("logical_") and any(
                getattr(getattr(a, "dtype", None), "kind", "") == "c" for a in args):
            # measured: CuPy's logical ufuncs have no complex loops
            raise TypeError(f"Wrong type ({tuple(a.dtype for a in args)}) of arguments for "
                            f"cupy_{self.__name__}")
        return self._run(self._u, args, kwargs)

    def reduce(self, *args: Any, **kwargs: Any) -> Any:
        return self._run(self._u.reduce, args, kwargs)

    def outer(self, *args: Any, **kwargs: Any) -> Any:
        return self._run(self._u.outer, args, kwargs)

    def accumulate(self, *args: Any, **kwargs: Any) -> Any:
        if self.__name__ != "add" and self.__name__ != "multiply":
            raise NotImplementedError(f"`cupy_{self.__name__}.accumulate` is not supported yet")
        return self._run(self._u.accumulate, args, kwargs)

    def at(self, a: ndarray, indices: Any, b: Any = None) -> None:
        if type(a) is not ndarray:
            raise TypeError(f"Unsupported type {type(a)}")
        if b is None:
            self._u.at(a._a, dev_index(indices))
        else:
            self._u.at(a._a, dev_index(indices), dev(b))

    def __repr__(self) -> str:
        return f"<ufunc '{self.__name__}'>"


UFUNCS: dict[str, ufunc] = {}


def _make(np_obj: Any, name: str) -> Any:
    """The device version of NumPy's ``np_obj`` (called ``name`` in CuPy)."""
    if isinstance(np_obj, np.ufunc):
        return UFUNCS.setdefault(np_obj.__name__, ufunc(np_obj))
    if isinstance(np_obj, type) or not callable(np_obj) or name in _META:
        if callable(np_obj) and not isinstance(np_obj, type) and name in _META:
            return checked_meta(np_obj, name)
        return np_obj  # dtypes and constants are NumPy's own, as in CuPy
    fn = checked(np_obj, name, dev_index if name in _INDEX_ARGS else dev)
    if name in _SHAPE_FIRST:
        inner = fn

        def fn(shape: Any, *args: Any, **kwargs: Any) -> Any:
            return inner(shape_arg(shape), *args, **kwargs)

        fn.__name__ = name
    if name in _ARRAY_BOOL:
        inner_b = fn

        def fn(*args: Any, **kwargs: Any) -> Any:
            return wrap(np.asarray(inner_b(*args, **kwargs)))

        fn.__name__ = name
    return fn


def checked_meta(fn: Callable, name: str) -> Callable:
    def call(*args: Any, **kwargs: Any) -> Any:
        return fn(*[_meta_arg(a) for a in args], **{k: _meta_arg(v) for k, v in kwargs.items()})

    call.__name__ = name
    return call


def _meta_arg(a: Any) -> Any:
    """Dtype questions look at a device array's dtype only (no data moves)."""
    if type(a) is ndarray:  # a zero-stride view: the shape and dtype, none of the data
        return np.broadcast_to(np.empty((), a.dtype), a.shape)
    return a


def asarray(a: Any, dtype: Any = None, order: Any = None, *, blocking: bool = False) -> ndarray:
    if type(a) is ndarray:
        return a if dtype is None else a.astype(dtype, copy=False)
    return wrap(np.asarray(host_to_device(a), dtype=dtype, order=order))


def array(obj: Any, dtype: Any = None, copy: bool = True, order: str = "K", subok: bool = False,
          ndmin: int = 0, *, blocking: bool = False) -> ndarray:
    if type(obj) is ndarray:
        return wrap(np.array(obj._a, dtype=dtype, copy=copy, order=order, ndmin=ndmin), (obj,))
    return wrap(np.array(host_to_device(obj), dtype=dtype, order=order, ndmin=ndmin))


def asnumpy(a: Any, stream: Any = None, order: str = "C", out: Any = None,
            *, blocking: bool = True) -> np.ndarray:
    if type(a) is ndarray:
        return a.get(order=order, out=out)
    return np.asarray(a, order=order)


def get_array_module(*args: Any) -> types.ModuleType:
    import cupy

    return cupy if any(type(a) is ndarray for a in args) else np


def copyto(dst: ndarray, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    if isinstance(src, np.ndarray) and src.ndim > 0:
        raise ValueError("non-scalar numpy.ndarray cannot be used for copyto")
    np.copyto(dev(dst), dev(src), casting=casting, where=dev(where))


def ascontiguousarray(a: Any, dtype: Any = None) -> ndarray:
    if type(a) is not ndarray:
        raise TypeError(f"Argument 'a' has incorrect type (expected cupy.ndarray, got "
                        f"{type(a).__name__})")
    return wrap(np.ascontiguousarray(a._a, dtype=dtype), (a,))


_SPECIAL = {"asarray": asarray, "array": array, "asanyarray": asarray, "asnumpy": asnumpy,
            "get_array_module": get_array_module, "copyto": copyto, "ndarray": ndarray,
            "ascontiguousarray": ascontiguousarray, "ufunc": ufunc}


def namespace(names: list[str], np_mod: Any, special: dict | None = None) -> dict:
    """The attributes of one stand-in module: each listed name NumPy's module also has."""
    table = {}
    for name in names:
        if special and name in special:
            table[name] = special[name]
        elif hasattr(np_mod, name) and not isinstance(getattr(np_mod, name), types.ModuleType):
            table[name] = _make(getattr(np_mod, name), name)
    return table


TOP = namespace(NAMES["cupy"], np, _SPECIAL)
LINALG = namespace(NAMES["linalg"], np.linalg)

# CuPy's solvers do not check their results unless ``cupyx.errstate(linalg="raise")``: a
# singular or indefinite matrix gives NaN/inf values (measured on a GPU), not LinAlgError.
LINALG_ERRORS = {"linalg": "ignore"}


def _unchecked(name: str, fn: Callable) -> Callable:
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except np.linalg.LinAlgError:
            if LINALG_ERRORS["linalg"] == "raise":
                raise
            shape = args[0].shape if name != "solve" else np.broadcast_shapes(
                args[0].shape[:-2], args[1].shape[:-2] if args[1].ndim > 1 else ()) + \
                args[1].shape[-2 if args[1].ndim > 1 else -1:]
            return wrap(np.full(shape, np.nan, np.result_type(args[0].dtype, np.float32)))

    call.__name__ = name
    return call


for _n in ("inv", "solve", "cholesky"):
    LINALG[_n] = _unchecked(_n, LINALG[_n])


def _solve_without_broadcasting(fn: Callable) -> Callable:
    def solve(a: Any, b: Any) -> Any:
        if b.ndim > 1 and (a.shape[:-2] != b.shape[:-2] or a.shape[-1] != b.shape[-2]):
            raise ValueError("a must have (..., M, M) shape and b must have (..., M, K) for "
                             "multidimensional b")
        return fn(a, b)

    solve.__name__ = "solve"
    return solve


LINALG["solve"] = _solve_without_broadcasting(LINALG["solve"])  # CuPy's does not broadcast


def take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: str = "wrap") -> Any:
    """CuPy's take wraps out-of-range indices around by default (NumPy's raises)."""
    return TOP_TAKE(a, indices, axis=axis, out=out, mode=mode)


TOP_TAKE, TOP["take"] = TOP["take"], take


def take_along_axis(a: Any, indices: Any, axis: Any) -> Any:
    """CuPy's wraps out-of-range indices around too (measured)."""
    arr, idx = dev(a), dev_index(indices)
    if axis is None:
        arr, axis = arr.reshape(-1), 0
    if arr.shape[axis]:
        idx = np.mod(idx, arr.shape[axis])
    return wrap(np.take_along_axis(arr, idx, axis))


TOP["take_along_axis"] = take_along_axis


def _no_axis_on_0d(name: str, fn: Callable) -> Callable:
    """CuPy's argmax/argmin refuse any axis on a 0-d array (measured), where NumPy's
    accept 0 and -1."""
    def call(a: Any, axis: Any = None, *args: Any, **kwargs: Any) -> Any:
        if axis is not None and getattr(a, "ndim", None) == 0:
            raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of "
                                          f"dimension 0")
        return fn(a, axis, *args, **kwargs)

    call.__name__ = name
    return call


for _n in ("argmax", "argmin"):
    TOP[_n] = _no_axis_on_0d(_n, TOP[_n])
FFT = namespace(NAMES["fft"], np.fft)
STRIDE_TRICKS = namespace(NAMES["stride_tricks"], np.lib.stride_tricks)

_BY_MODULE = {"numpy": TOP, "numpy.linalg": LINALG, "numpy.fft": FFT,
              "numpy.lib.stride_tricks": STRIDE_TRICKS}


def dispatch_target(func: Callable) -> Callable | None:
    """The device function a NumPy function called on device arrays runs (CuPy's
    ``__array_function__``), or None where CuPy has none."""
    table = _BY_MODULE.get(getattr(func, "__module__", ""), TOP)
    return table.get(func.__name__)


__all__ = ["TOP", "LINALG", "FFT", "STRIDE_TRICKS", "UFUNCS", "TRANSFERS", "ndarray",
           "dispatch_target"]
