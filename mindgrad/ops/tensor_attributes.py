"""The Tensor methods and properties that describe a tensor rather than compute with it:
its memory layout (``stride``, ``storage_offset``, ``is_contiguous``, ``data_ptr``,
``get_bytes``), DLPack exchange, and MindSpore's flags of a tensor that is not a Parameter
(``has_init``, ``const_arg``, ``init_flag``, ``param_info``, ...), with the values MindSpore
2.10 gives a plain tensor. ``tensor_methods.install`` puts them on ``Tensor``.

A tensor's array is a NumPy (or CuPy) array that may be a view of another (a transpose, a
slice): the layout methods report that array's layout, in elements."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F


def _root(a: Any) -> Any:
    while getattr(a, "base", None) is not None and hasattr(a.base, "dtype"):
        a = a.base
    return a


def _address(a: Any) -> int:
    if isinstance(a, np.ndarray):
        return a.__array_interface__["data"][0]
    return int(a.data.ptr)  # a CuPy array


def stride(self, dim: Any = None) -> Any:
    """The step in elements between neighbours along each axis (a list), or along ``dim``."""
    a = self._data
    steps = [s // a.itemsize for s in a.strides]
    if dim is None:
        return steps
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"For 'Tensor.stride', 'dim' must be an int, but got "
                        f"{type(dim).__name__}.")
    if not -a.ndim <= dim < max(a.ndim, 1):
        raise IndexError(f"For 'Tensor.stride', dim {dim} is out of range for a "
                         f"{a.ndim}-D Tensor.")
    return steps[dim] if a.ndim else 1


def storage_offset(self) -> int:
    """Where this tensor's first element lies in the memory it shares, in elements."""
    a = self._data
    return (_address(a) - _address(_root(a))) // a.itemsize


def is_contiguous(self) -> bool:
    """Whether the elements lie in memory in row-major order without gaps."""
    return bool(self._data.flags.c_contiguous)


def data_ptr(self) -> int:
    """The address of the first element (host memory on the CPU, device memory on the
    GPU)."""
    return _address(self._data)


class UntypedStorage:
    """The memory under a tensor, counted in bytes whatever the dtype: the whole array that
    the tensor's array is a view of (``Tensor.untyped_storage()``, ``Tensor.storage()``)."""

    def __init__(self, array: Any, dtype: Any) -> None:
        self._array = _root(array)
        self.dtype = dtype

    @property
    def device(self) -> str:
        return "CPU" if isinstance(self._array, np.ndarray) else "GPU"

    def nbytes(self) -> int:
        """The size in bytes."""
        return int(self._array.nbytes)

    def size(self) -> int:
        """The size in elements of one byte: ``nbytes()``."""
        return self.nbytes()

    def element_size(self) -> int:
        """One: the storage counts bytes."""
        return 1

    def data_ptr(self) -> int:
        """The address of the first byte."""
        return _address(self._array)

    def is_shared(self) -> bool:
        """Whether the memory is shared between processes: never here."""
        return False


def untyped_storage(self) -> UntypedStorage:
    """The memory under this tensor (the whole array it may be a view of), in bytes."""
    return UntypedStorage(self._data, self.dtype)


def get_bytes(self) -> bytes:
    """The elements' raw bytes in row-major order."""
    return self.asnumpy().tobytes()


def convert_bytes_to_tensor(bytes_data: bytes, shape: Any, dtype: Any) -> Tensor:
    """A tensor of ``shape`` and ``dtype`` read from raw bytes (``get_bytes``' inverse)."""
    dt = mstype.to_numpy(dtype, "Tensor.convert_bytes_to_tensor")
    arr = np.frombuffer(bytes_data, dtype=dt)
    shape = tuple(shape)
    if arr.size != (int(np.prod(shape)) if shape else 1):
        raise ValueError(f"For 'Tensor.convert_bytes_to_tensor', {len(bytes_data)} bytes of "
                         f"{dtype} do not make a tensor of shape {list(shape)}.")
    return Tensor(arr.reshape(shape).copy())


def to_dlpack(self) -> Any:
    """A DLPack capsule sharing this tensor's memory (for other array libraries)."""
    return self._data.__dlpack__()


def from_dlpack(dlpack: Any) -> Tensor:
    """A tensor of an object offering ``__dlpack__`` (an array of another library) or of a
    DLPack capsule on the CPU."""
    if hasattr(dlpack, "__dlpack__"):
        return Tensor(np.from_dlpack(dlpack))

    class _Capsule:  # NumPy reads a capsule through the __dlpack__ protocol only
        def __dlpack__(self, stream: Any = None, **kwargs: Any) -> Any:
            return dlpack

        def __dlpack_device__(self) -> tuple:
            return (1, 0)

    return Tensor(np.from_dlpack(_Capsule()))


def _data_get(self) -> Tensor:
    # the same values, cut from any derivative being taken (a new Tensor object)
    return Tensor._wrap(self._data) if self._trace is None else F.stop_gradient(self)


def _data_set(self, value: Any) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"For 'Tensor.data', the new value must be a Tensor, but got "
                        f"{type(value).__name__}.")
    self._become(value)


def _flag(name: str, default: Any) -> property:
    def get(self) -> Any:
        return self.__dict__.get(name, default) if hasattr(self, "__dict__") else default
    return property(get)


def set_const_arg(self, const_arg: bool = True) -> Tensor:
    """Mark this tensor as a constant argument of a compiled network (a flag ``jit`` may
    read); returns it."""
    if not isinstance(const_arg, bool):
        raise TypeError(f"For 'Tensor.set_const_arg', 'const_arg' must be a bool, but got "
                        f"{type(const_arg).__name__}.")
    self.__dict__["_const_arg"] = const_arg
    return self


def set_init_flag(self, flag: bool) -> None:
    """Set the flag ``init_flag`` reads."""
    self.__dict__["_init_flag"] = bool(flag)


def init_data(self, slice_index: Any = None, shape: Any = None,
              opt_shard_group: Any = None) -> Tensor:
    """The tensor itself, its value now initialized, for a tensor created with an initializer
    (``Tensor(shape=..., dtype=..., init=One())``); a plain tensor has none (MindSpore raises
    the same TypeError)."""
    if self._pending_init is not None:
        del self._pending_init
        return self
    raise TypeError("For 'Tensor.init_data', the tensor has no initializer ('Tensor.init' "
                    "is None): its value is already there.")


def hooks(self) -> list:
    """The gradient hooks registered on this tensor (a plain tensor records none here)."""
    return []


def flush_from_cache(self) -> None:
    """Nothing to do: a tensor has no cache here (its values are in its array)."""


def data_sync(self, wait: bool = True) -> None:
    """Nothing to do: operations finish before they return, so the values are there."""


def wait_pipeline(self) -> None:
    """Nothing to do: no operation is pending (they run when called)."""


def set_cast_dtype(self, dtype: Any = None) -> None:
    """Nothing to do: MindSpore's hint for a later cast of a graph input; casts here are
    explicit."""


def requires_grad_(self, requires_grad: bool = True) -> None:
    """Nothing to do: gradients are taken of the inputs ``grad`` names, whatever the
    tensor."""
    if not isinstance(requires_grad, bool):
        raise TypeError(f"For 'Tensor.requires_grad_', 'requires_grad' must be a bool, but "
                        f"got {type(requires_grad).__name__}.")


def _false(self) -> bool:
    return False


# name -> method or property, put on Tensor by ``tensor_methods.install`` (Parameter
# overrides ``data``, ``has_init``, ``init``, ``param_info`` with its own)
METHODS = {
    "stride": stride, "storage_offset": storage_offset, "is_contiguous": is_contiguous,
    "data_ptr": data_ptr, "get_bytes": get_bytes, "untyped_storage": untyped_storage,
    "storage": untyped_storage,
    "convert_bytes_to_tensor": staticmethod(convert_bytes_to_tensor),
    "to_dlpack": to_dlpack, "from_dlpack": staticmethod(from_dlpack),
    "data": property(_data_get, _data_set),
    "value": lambda self: self,
    "has_init": property(lambda self: self._pending_init is not None),
    "init": property(lambda self: self._pending_init),
    "const_arg": _flag("_const_arg", False), "set_const_arg": set_const_arg,
    "init_flag": _flag("_init_flag", False), "set_init_flag": set_init_flag,
    "is_init": lambda self: self.__dict__.get("_init_flag", False),
    "init_finished": property(lambda self: True), "is_meta": property(_false),
    "virtual_flag": property(_false), "symbolic_shape": property(lambda self: None),
    "param_info": property(lambda self: None), "delta_seed": 0,
    "init_data": init_data, "hooks": hooks, "is_pinned": _false, "is_shared": _false,
    "flush_from_cache": flush_from_cache, "data_sync": data_sync,
    "wait_pipeline": wait_pipeline, "set_cast_dtype": set_cast_dtype,
    "requires_grad_": requires_grad_,
}

__all__: list = []
