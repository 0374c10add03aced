"""Argument conversion shared by the ``mindspore.numpy`` functions: operands to Tensors with
this module's defaults (Python floats as float32, Python ints as int32), the ``dtype=``
argument, axes and the float promotion of transcendental functions."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from .. import ops

_PY_SCALARS = (bool, int, float)


def _has_tensor(x: Any) -> bool:
    if isinstance(x, Tensor):
        return True
    if isinstance(x, (list, tuple)):
        return any(_has_tensor(v) for v in x)
    return False


def to_tensor(x: Any, op: str, arg: str = "x") -> Tensor:
    """``x`` as a Tensor. Python data takes this module's defaults: floats become float32 and
    ints int32 (NumPy arrays keep their dtype); a list holding Tensors is stacked."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (list, tuple)) and _has_tensor(x):
        if len(x) == 0:
            raise ValueError(f"For '{op}', '{arg}' is an empty sequence.")
        parts = [to_tensor(v, op, arg) for v in x]
        shapes = {p.shape for p in parts}
        if len(shapes) != 1:
            raise ValueError(f"For '{op}', the elements of '{arg}' must have one shape, but "
                             f"got shapes {sorted(shapes)}.")
        dt = parts[0].dtype
        for p in parts[1:]:
            dt = result_dtype(dt, p.dtype)
        return ops.stack([p.astype(dt) if p.dtype != dt else p for p in parts], 0)
    if isinstance(x, (np.ndarray, np.generic)):
        if x.dtype.kind not in "biufc":
            raise TypeError(f"For '{op}', '{arg}' must hold numbers or bools, but got a NumPy "
                            f"array of dtype {x.dtype}.")
        return Tensor(np.asarray(x))
    if isinstance(x, (*_PY_SCALARS, list, tuple)):
        try:
            a = np.asarray(x)
        except ValueError as e:
            raise ValueError(f"For '{op}', '{arg}' must be a rectangular sequence of numbers: "
                             f"{e}") from None
        if a.dtype.kind not in "biuf":
            raise TypeError(f"For '{op}', '{arg}' must hold numbers or bools, but got "
                            f"{type(x).__name__} of {a.dtype}.")
        if a.dtype == np.float64:
            a = a.astype(np.float32)
        elif a.dtype.kind in "iu":
            a = a.astype(np.int32)
        return Tensor(a)
    raise TypeError(f"For '{op}', '{arg}' must be a Tensor, a number, a list or a tuple, but "
                    f"got {type(x).__name__}.")


def operand(x: Any, op: str, arg: str = "x") -> Any:
    """A binary operand: Tensors and Python numbers pass unchanged (the operators' scalar
    promotion applies), anything else becomes a Tensor."""
    if isinstance(x, Tensor) or isinstance(x, _PY_SCALARS):
        return x
    return to_tensor(x, op, arg)


def operands(x1: Any, x2: Any, op: str, scalar_to_tensor_dtype: bool = False) -> tuple:
    """Two binary operands with MindSpore's promotion applied: two Tensors are cast to
    their common dtype (an integer or bool with a float gives that float); a bool Tensor
    with a Python number becomes int32 or float32; two numbers become a Tensor and a
    number. With ``scalar_to_tensor_dtype`` a Python number takes the Tensor's dtype
    (MindSpore's ``maximum``/``minimum``: ``maximum(int_tensor, 2.5)`` compares with 2)."""
    a, b = operand(x1, op, "x1"), operand(x2, op, "x2")
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = to_tensor(a, op, "x1")
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        if a.dtype != b.dtype:
            a, b = common([a, b])
        return a, b
    t, v, first = (a, b, True) if isinstance(a, Tensor) else (b, a, False)
    if scalar_to_tensor_dtype:
        v = Tensor(np.array(v).astype(t.dtype.np_dtype))
    elif t.dtype == mstype.bool_ and not isinstance(v, bool):
        t = t.astype(mstype.int32 if isinstance(v, int) else mstype.float32)
    return (t, v) if first else (v, t)


def np_dtype(dtype: Any, op: str) -> np.dtype:
    try:
        return mstype.to_numpy(dtype, op)
    except TypeError:
        raise TypeError(f"For '{op}', 'dtype' must be a mindspore dtype, but got "
                        f"{dtype!r}.") from None


def ms_dtype(dtype: Any, op: str) -> mstype.DType:
    return mstype.from_numpy(np_dtype(dtype, op))


def with_dtype(t: Any, dtype: Any, op: str) -> Any:
    """``t`` cast to ``dtype`` when one is given (the ``dtype=`` argument of the functions)."""
    if dtype is None:
        return t
    want = ms_dtype(dtype, op)
    if isinstance(t, (tuple, list)):
        return type(t)(with_dtype(v, dtype, op) for v in t)
    return t if t.dtype == want else t.astype(want)


def promote(a: np.dtype, b: np.dtype) -> np.dtype:
    """MindSpore's promotion of two dtypes: an integer or bool with a float gives that
    float (``int32`` with ``float16`` is ``float16``); otherwise NumPy's rule."""
    fa, fb = a.kind in "fc", b.kind in "fc"
    if fa and not fb:
        return a
    if fb and not fa:
        return b
    return np.promote_types(a, b)


def result_dtype(a: mstype.DType, b: mstype.DType) -> mstype.DType:
    """MindSpore's promotion of two tensor dtypes (``promote``)."""
    return mstype.from_numpy(promote(a.np_dtype, b.np_dtype))


def is_float(t: Tensor) -> bool:
    return t.dtype.np_dtype.kind in "fc"


def as_float(t: Tensor) -> Tensor:
    """Integer and bool tensors as float32 (this module's default float); floats unchanged."""
    return t if is_float(t) else t.astype(mstype.float32)


def axis_arg(axis: Any, ndim: int, op: str, arg: str = "axis") -> int:
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For '{op}', '{arg}' must be an int, but got {type(axis).__name__}.")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"For '{op}', '{arg}' {axis} is out of range for a tensor of rank "
                         f"{ndim}.")
    return int(axis) % max(ndim, 1)


def axes_arg(axis: Any, ndim: int, op: str) -> tuple | None:
    """None, an int or a sequence of ints as a sorted tuple of non-negative axes."""
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        out = tuple(axis_arg(a, ndim, op) for a in axis)
        if len(set(out)) != len(out):
            raise ValueError(f"For '{op}', 'axis' repeats an axis: {axis}.")
        return tuple(sorted(out))
    return (axis_arg(axis, ndim, op),)


def shape_arg(shape: Any, op: str) -> tuple:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (int(shape),)
    if not isinstance(shape, (list, tuple)) or not all(
            isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in shape):
        raise TypeError(f"For '{op}', 'shape' must be an int or a tuple of ints, but got "
                        f"{shape!r}.")
    if any(s < 0 for s in shape):
        raise ValueError(f"For '{op}', 'shape' must not be negative, but got {tuple(shape)}.")
    return tuple(int(s) for s in shape)


def tensors(seq: Any, op: str, arg: str = "arrays") -> list:
    if isinstance(seq, Tensor):
        return [seq[i] for i in range(seq.shape[0])]
    if not isinstance(seq, (list, tuple)) or len(seq) == 0:
        raise TypeError(f"For '{op}', '{arg}' must be a non-empty list or tuple of tensors.")
    return [to_tensor(v, op, arg) for v in seq]


def common(ts: Sequence[Tensor]) -> list:
    """The tensors cast to their promoted dtype."""
    dt = ts[0].dtype
    for t in ts[1:]:
        dt = result_dtype(dt, t.dtype)
    return [t if t.dtype == dt else t.astype(dt) for t in ts]
