"""Type promotion: ``result_type`` and ``promote_types`` with MindSpore's rules (an integer
or bool with a float gives that float; otherwise NumPy's rule; Python floats count as
float32 and ints as int32, as in this module's arrays)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ._utils import promote

__all__ = ["promote_types", "result_type"]


def _np(t: Any, op: str) -> np.dtype:
    if isinstance(t, Tensor):
        return t.dtype.np_dtype
    if isinstance(t, bool):
        return np.dtype(np.bool_)
    if isinstance(t, int):
        return np.dtype(np.int32)
    if isinstance(t, float):
        return np.dtype(np.float32)
    if isinstance(t, str):
        return np.dtype(t)
    try:
        return mstype.to_numpy(t, op)
    except TypeError:
        raise TypeError(f"For '{op}', {t!r} is neither a Tensor, a number nor a dtype.") \
            from None


def promote_types(type1: Any, type2: Any) -> mstype.DType:
    """The smallest dtype both ``type1`` and ``type2`` convert to safely."""
    return mstype.from_numpy(promote(_np(type1, "promote_types"), _np(type2, "promote_types")))


def result_type(*arrays_and_dtypes: Any) -> mstype.DType:
    """The dtype of the result of combining the arrays, numbers and dtypes."""
    if not arrays_and_dtypes:
        raise ValueError("For 'result_type', at least one argument is needed.")
    out = _np(arrays_and_dtypes[0], "result_type")
    for t in arrays_and_dtypes[1:]:
        out = promote(out, _np(t, "result_type"))
    return mstype.from_numpy(out)
