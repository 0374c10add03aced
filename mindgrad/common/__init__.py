"""``mindspore.common``: Tensor, Parameter, dtypes, initializers, seeding, and
printing."""
from . import initializer  # noqa: F401
from ..core import dtype  # noqa: F401
from ..core.dtype import (bool_, complex64, complex128, double, float16, float32,  # noqa: F401
                          float64, float_, half, int8, int16, int32, int64, int_, single, uint8,
                          uint16, uint32, uint64, dtype_to_nptype, dtype_to_pytype,
                          pytype_to_dtype)
from .parameter import Parameter, ParameterTuple  # noqa: F401
from .random import set_seed  # noqa: F401
from ..core.tensor import Tensor  # noqa: F401


class _MutableTuple(tuple):
    """A tuple marked by ``mutable``."""
    __ms_mutable__ = True


class _MutableList(list):
    """A list marked by ``mutable``."""
    __ms_mutable__ = True


class _MutableDict(dict):
    """A dict marked by ``mutable``."""
    __ms_mutable__ = True


def mutable(input_data, dynamic_len: bool = False):
    """Mark a tuple, list or dict input as variable: gradients with respect to it are taken
    element by element and come back in its structure (MindSpore does this in GRAPH mode;
    mindgrad in both). A Tensor or a number comes back as it is (compiled functions already
    take every Tensor as an input)."""
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', 'dynamic_len' must be a bool, but got "
                        f"{type(dynamic_len).__name__}.")
    if isinstance(input_data, tuple) and not hasattr(input_data, "_fields"):
        return _MutableTuple(input_data)
    if isinstance(input_data, list):
        return _MutableList(input_data)
    if isinstance(input_data, dict):
        return _MutableDict(input_data)
    if isinstance(input_data, (Tensor, int, float)):
        return input_data
    raise TypeError(f"For 'mutable', the 'input_data' must be a Tensor, a number, or a tuple, "
                    f"list or dict of them, but got {type(input_data).__name__}.")


def is_mutable(obj) -> bool:
    """Whether ``obj`` is a container marked by ``mutable``."""
    return getattr(obj, "__ms_mutable__", False) is True
