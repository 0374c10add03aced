"""The stand-in's device array and the rules for crossing between it and NumPy.

``ndarray`` holds a NumPy array (its "device memory") and lets it out only through the
explicit transfers CuPy has: ``get()``, ``cupy.asnumpy``; NumPy arrays come in only through
``cupy.asarray`` / ``cupy.array`` (and, as in CuPy, as index arrays). Everything else
behaves as CuPy 14 was measured to behave on a GPU:

- ``np.asarray(x)`` / ``np.array(x)`` / ``np.int64(x)`` raise CuPy's TypeError (``__array__``);
- a NumPy array meeting a device array in an operator, a ufunc or a function raises
  ``TypeError: Unsupported type <class 'numpy.ndarray'>`` (NumPy *scalars* are fine);
- NumPy ufuncs and functions called on device arrays dispatch to the device versions
  (``__array_ufunc__`` / ``__array_function__``), returning device arrays;
- reductions and scalar indexing give 0-d device arrays, not NumPy scalars;
- ``float(x)`` / ``int(x)`` / ``complex(x)`` work for 0-d arrays only, ``operator.index``
  and ``round`` not at all; ``flags`` has no ``writeable``;
- assigning a non-scalar NumPy array into a device array raises ValueError.

Every transfer is counted in ``TRANSFERS`` (``to_host`` also counts the reads that make a
GPU wait and copy: ``item()``, ``float(x)``, ``bool(x)``, printing) so that tests can
assert that a computation stays on the device.
"""
from __future__ import annotations

import numbers
from typing import Any, Callable

import numpy as np

# host->device and device->host copies made since the counters were last reset
TRANSFERS = {"to_device": 0, "to_host": 0}

_SCALARS = (numbers.Number, np.generic, bool)


def unsupported(x: Any) -> TypeError:
    return TypeError(f"Unsupported type {type(x)}")


def dev(x: Any) -> Any:
    """The NumPy array behind a device operand; NumPy arrays are refused as CuPy does.
    Sequences are converted element by element (``concatenate([a, b])``)."""
    if type(x) is ndarray:
        return x._a
    if isinstance(x, np.ndarray):
        raise unsupported(x)
    if type(x) in (list, tuple):
        return type(x)(dev(v) for v in x)
    return x


def dev_index(x: Any) -> Any:
    """Like ``dev``, but NumPy arrays are accepted: CuPy takes them as indices."""
    if type(x) is ndarray:
        return x._a
    if type(x) in (list, tuple):
        return type(x)(dev_index(v) for v in x)
    return x


def host_to_device(x: Any) -> np.ndarray:
    """The explicit transfer in: a NumPy array (copied), a sequence, a scalar."""
    if type(x) is ndarray:
        return x._a
    if isinstance(x, np.ndarray):
        TRANSFERS["to_device"] += 1
        return x.copy()
    if type(x) in (list, tuple):
        x = dev_index(x)  # lists may hold device 0-d arrays, as CuPy allows
    return np.asarray(x)


def _width(p: Any) -> int:
    if p is None or p is Ellipsis or isinstance(p, bool):
        return 0
    if isinstance(p, np.ndarray) and p.dtype == np.bool_:
        return p.ndim
    return 1


def wrap_around(index: Any, shape: tuple) -> tuple:
    """CuPy's integer array indexing: out-of-range values wrap around (``mode='wrap'``)
    where NumPy raises. ``index`` holds NumPy arrays already."""
    parts = index if isinstance(index, tuple) else (index,)
    out, axis = [], 0
    for p in parts:
        if p is Ellipsis:
            axis += len(shape) - sum(_width(q) for q in parts)
        elif isinstance(p, list):
            p = np.asarray(p)
        if isinstance(p, np.ndarray) and p.dtype.kind in "iu" and axis < len(shape) \
                and shape[axis]:
            p = np.mod(p, shape[axis])
        out.append(p)
        axis += _width(p)
    return tuple(out)


def _has_array(index: Any) -> bool:
    parts = index if isinstance(index, tuple) else (index,)
    return any(isinstance(p, (np.ndarray, list)) and np.asarray(p).dtype.kind in "iu"
               for p in parts)


def wrap(r: Any, inputs: tuple = ()) -> Any:
    """Device arrays for what NumPy returned; an input handed back stays the same object."""
    if isinstance(r, np.ndarray):
        for a in inputs:
            if type(a) is ndarray and a._a is r:
                return a
        return _new(r)
    if isinstance(r, np.generic):
        return _new(np.asarray(r))
    if isinstance(r, (tuple, list)):  # NumPy's named results (eigh, svd) are plain in CuPy
        return (list if isinstance(r, list) else tuple)(wrap(v, inputs) for v in r)
    return r


def _new(a: np.ndarray) -> "ndarray":
    out = object.__new__(ndarray)
    out._a = a
    return out


def shape_arg(shape: Any) -> Any:
    """A shape: device arrays are refused (CuPy's 0-d arrays have no ``__index__``)."""
    for v in shape if isinstance(shape, (tuple, list)) else (shape,):
        if type(v) is ndarray:
            raise TypeError("'ndarray' object cannot be interpreted as an integer")
    return shape


def checked(fn: Callable, name: str, convert: Callable = dev) -> Callable:
    """``fn`` (a NumPy function) applied to device operands, returning device arrays."""

    def call(*args: Any, **kwargs: Any) -> Any:
        out = kwargs.get("out")
        a = [convert(v) for v in args]
        k = {key: convert(v) for key, v in kwargs.items()}
        with np.errstate(all="ignore"):  # a GPU gives inf/nan without NumPy's warnings
            r = fn(*a, **k)
        if out is not None and r is dev(out):
            return out
        return wrap(r, args)

    call.__name__ = call.__qualname__ = name
    return call


class _Flags:
    """CuPy's flags: contiguity and ownership, but no ``writeable``."""

    def __init__(self, a: np.ndarray) -> None:
        self.c_contiguous = a.flags.c_contiguous
        self.f_contiguous = a.flags.f_contiguous
        self.owndata = a.flags.owndata

    def __getitem__(self, key: str) -> bool:
        return getattr(self, key.lower())


def _binary(ufunc: np.ufunc, reflected: bool = False) -> Callable:
    def op(self: "ndarray", other: Any) -> Any:
        if type(other) is not ndarray and not isinstance(other, (np.ndarray, *_SCALARS)) \
                and other is not None:
            if getattr(other, "__array_priority__", 0) > ndarray.__array_priority__:
                return NotImplemented  # let the other operand's reflected method run
            raise unsupported(other)
        x, y = (other, self) if reflected else (self, other)
        with np.errstate(all="ignore"):  # a GPU gives inf/nan without NumPy's warnings
            return wrap(ufunc(dev(x), dev(y)))

    return op


def _inplace(ufunc: np.ufunc) -> Callable:
    def op(self: "ndarray", other: Any) -> "ndarray":
        with np.errstate(all="ignore"):
            ufunc(self._a, dev(other), out=self._a)
        return self

    return op


class ndarray:
    """A device array (see the module docstring)."""

    __slots__ = ("_a", "__weakref__")
    __array_priority__ = 100
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, shape: Any, dtype: Any = float, memptr: Any = None,
                 strides: Any = None, order: str = "C") -> None:
        self._a = np.empty(shape, dtype, order=order)

    # --- the explicit transfers and the refused implicit one ---------------------------------
    def get(self, stream: Any = None, order: str = "C", out: np.ndarray | None = None,
            blocking: bool = True) -> np.ndarray:
        TRANSFERS["to_host"] += 1
        if out is not None:
            np.copyto(out, self._a)
            return out
        return np.array(self._a, order=order)

    def set(self, arr: np.ndarray, stream: Any = None) -> None:
        TRANSFERS["to_device"] += 1
        if not isinstance(arr, np.ndarray) or arr.shape != self._a.shape:
            raise ValueError("Shape mismatch. Old shape: {}, new shape: {}".format(
                self._a.shape, getattr(arr, "shape", None)))
        np.copyto(self._a, arr)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use "
                        "`.get()` to construct a NumPy array explicitly.")

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"shape": self._a.shape, "typestr": self._a.dtype.str,
                "data": (self._a.ctypes.data, False), "version": 3,
                "strides": None if self._a.flags.c_contiguous else self._a.strides}

    # --- NumPy's protocols: dispatch to the device versions ----------------------------------
    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any):
        from . import _functions

        dev_ufunc = _functions.UFUNCS.get(ufunc.__name__)
        if dev_ufunc is None:
            return NotImplemented
        return getattr(dev_ufunc, method)(*inputs, **kwargs)

    def __array_function__(self, func: Callable, types: tuple, args: tuple, kwargs: dict):
        from . import _functions

        impl = _functions.dispatch_target(func)
        if impl is None:
            return NotImplemented
        return impl(*args, **kwargs)

    # --- metadata -----------------------------------------------------------------------------
    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    itemsize = property(lambda self: self._a.itemsize)
    nbytes = property(lambda self: self._a.nbytes)
    strides = property(lambda self: self._a.strides)
    T = property(lambda self: _new(self._a.T))
    mT = property(lambda self: _new(self._a.mT))
    real = property(lambda self: _new(self._a.real))
    imag = property(lambda self: _new(self._a.imag))
    flags = property(lambda self: _Flags(self._a))

    @property
    def base(self) -> Any:
        return None if self._a.base is None else _new(self._a.base)

    @property
    def device(self) -> Any:
        from .cuda import Device

        return Device(0)

    # --- Python protocols ---------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._a)

    def __iter__(self):
        if self._a.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (wrap(v) for v in self._a)

    def _scalar(self, kind: type) -> Any:
        if self._a.ndim != 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        TRANSFERS["to_host"] += 1
        return kind(self._a)

    def __float__(self) -> float:
        return self._scalar(float)

    def __int__(self) -> int:
        return self._scalar(int)

    def __complex__(self) -> complex:
        return self._scalar(complex)

    def __bool__(self) -> bool:
        TRANSFERS["to_host"] += 1
        return bool(self._a)

    def __format__(self, spec: str) -> str:
        TRANSFERS["to_host"] += 1
        return format(self._a, spec)

    def __repr__(self) -> str:
        TRANSFERS["to_host"] += 1
        return repr(self._a)

    def __str__(self) -> str:
        TRANSFERS["to_host"] += 1
        return str(self._a)

    def __reduce__(self):
        return (_new, (self._a,))

    def __copy__(self) -> "ndarray":
        return _new(self._a.copy())

    def __deepcopy__(self, memo: dict) -> "ndarray":
        return _new(self._a.copy())

    def __getitem__(self, index: Any) -> "ndarray":
        index = dev_index(index)
        for p in index if isinstance(index, tuple) else (index,):
            if isinstance(p, slice) and p.step == 0:
                raise ValueError("Slice step must be nonzero.")
        if _has_array(index):
            index = wrap_around(index, self._a.shape)
        return wrap(self._a[index])

    def __setitem__(self, index: Any, value: Any) -> None:
        if isinstance(value, np.ndarray):
            if value.ndim > 0:
                raise ValueError("non-scalar numpy.ndarray cannot be used for fill")
            value = value[()]
        index, value = dev_index(index), dev(value)
        if not _has_array(index):
            self._a[index] = value
            return
        # A GPU writes repeated positions in no set order. The stand-in keeps the *first*
        # write, the opposite of NumPy, so that code relying on NumPy's order fails here.
        index = wrap_around(index, self._a.shape)
        pos = np.arange(self._a.size).reshape(self._a.shape)[index].reshape(-1)
        vals = np.broadcast_to(np.asarray(value, self._a.dtype),
                               self._a[index].shape).reshape(-1)
        _, first = np.unique(pos, return_index=True)
        if self._a.flags.c_contiguous:
            self._a.reshape(-1)[pos[first]] = vals[first]
        else:
            flat = self._a.ravel()  # a copy
            flat[pos[first]] = vals[first]
            self._a[...] = flat.reshape(self._a.shape)

    # --- methods CuPy's ndarray has ------------------------------------------------------------
    def astype(self, dtype: Any, order: str = "K", casting: Any = None, subok: Any = None,
               copy: bool = True) -> "ndarray":
        r = self._a.astype(dtype, order=order, copy=copy)
        return self if r is self._a else _new(r)

    def item(self, *args: Any) -> Any:
        TRANSFERS["to_host"] += 1
        return self._a.item(*args)

    def tolist(self) -> Any:
        TRANSFERS["to_host"] += 1
        return self._a.tolist()

    def tobytes(self, order: str = "C") -> bytes:
        TRANSFERS["to_host"] += 1
        return self._a.tobytes(order)

    def fill(self, value: Any) -> None:
        self._a.fill(dev(value))

    def copy(self, order: str = "C") -> "ndarray":
        return _new(self._a.copy(order))

    def view(self, *args: Any, **kwargs: Any) -> "ndarray":
        return _new(self._a.view(*args, **kwargs))

    def __matmul__(self, other: Any) -> Any:
        if type(other) is not ndarray:
            raise TypeError(f"Argument 'b' has incorrect type (expected cupy.ndarray, got "
                            f"{type(other).__name__})")
        return wrap(np.matmul(self._a, other._a))

    def __rmatmul__(self, other: Any) -> Any:
        raise TypeError(f"Argument 'a' has incorrect type (expected cupy.ndarray, got "
                        f"{type(other).__name__})")

    def __neg__(self) -> "ndarray":
        return _new(-self._a)

    def __pos__(self) -> "ndarray":
        return _new(+self._a)

    def __abs__(self) -> "ndarray":
        return _new(abs(self._a))

    def __invert__(self) -> "ndarray":
        return _new(~self._a)

    def __divmod__(self, other: Any) -> tuple:
        return (self // other, self % other)


# operators, through the device ufuncs' rules (NumPy arrays refused, scalars welcome)
for _name, _uf in [("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
                   ("truediv", np.true_divide), ("floordiv", np.floor_divide),
                   ("mod", np.remainder), ("pow", np.power), ("and", np.bitwise_and),
                   ("or", np.bitwise_or), ("xor", np.bitwise_xor), ("lshift", np.left_shift),
                   ("rshift", np.right_shift)]:
    setattr(ndarray, f"__{_name}__", _binary(_uf))
    setattr(ndarray, f"__r{_name}__", _binary(_uf, reflected=True))
    setattr(ndarray, f"__i{_name}__", _inplace(_uf))
for _name, _uf in [("eq", np.equal), ("ne", np.not_equal), ("lt", np.less),
                   ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal)]:
    setattr(ndarray, f"__{_name}__", _binary(_uf))


def _method(name: str, convert: Callable = dev) -> Callable:
    def m(self: ndarray, *args: Any, **kwargs: Any) -> Any:
        if name == "reshape":
            shape_arg(args[0] if len(args) == 1 else args)
        out = kwargs.get("out")
        with np.errstate(all="ignore"):  # a GPU gives inf/nan without NumPy's warnings
            r = getattr(self._a, name)(*[convert(a) for a in args],
                                       **{k: convert(v) for k, v in kwargs.items()})
        if out is not None:
            return out
        return wrap(r, (self,))

    m.__name__ = name
    return m


# the rest of CuPy's ndarray methods (measured list), computed by NumPy on the data
for _name in ["all", "any", "argmax", "argmin", "argpartition", "argsort", "choose", "clip",
              "conj", "conjugate", "cumprod", "cumsum", "diagonal", "dot", "flatten", "max",
              "mean", "min", "nonzero", "partition", "prod", "ravel", "reshape", "round",
              "searchsorted", "sort", "squeeze", "std", "sum", "swapaxes", "trace",
              "transpose", "var"]:
    setattr(ndarray, _name, _method(_name))
for _name in ["take", "put", "repeat", "compress"]:  # these take NumPy index arrays too
    setattr(ndarray, _name, _method(_name, dev_index))


def _arg_method(name: str) -> Callable:
    inner = getattr(ndarray, name)

    def m(self: ndarray, axis: Any = None, *args: Any, **kwargs: Any) -> Any:
        if axis is not None and self._a.ndim == 0:  # as CuPy's (measured)
            raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of "
                                          f"dimension 0")
        return inner(self, axis, *args, **kwargs)

    m.__name__ = name
    return m


for _name in ("argmax", "argmin"):
    setattr(ndarray, _name, _arg_method(_name))
