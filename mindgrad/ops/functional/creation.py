"""Dtype, constants and creation: ``cast``, ``zeros``/``ones``/``full``/``fill``, ``eye``,
``arange``, ``linspace``, ``*_like``, and ``depend``/``stop_gradient``."""
from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...prims import structural as S
from ._args import _is_int, _number, _public_names, _scalar_value, _shape_arg, _sizes, _tensor


def cast(x: Any, dtype: Any) -> Tensor:
    """Convert ``x`` to ``dtype`` (a mindspore dtype, NumPy dtype or Python type)."""
    return S.cast(_tensor(x, "cast"), dtype=mstype.to_numpy(dtype, "cast"))


def dtype(x: Tensor) -> mstype.DType:
    return _tensor(x, "dtype").dtype


def zeros_like(x: Any, dtype: Any = None) -> Tensor:
    out = S.zeros_like(_tensor(x, "zeros_like"))
    return out if dtype is None else cast(out, dtype)


def ones_like(x: Any, dtype: Any = None) -> Tensor:
    out = S.ones_like(_tensor(x, "ones_like"))
    return out if dtype is None else cast(out, dtype)


def fill(type: Any, shape: Any, value: Any) -> Tensor:
    """A tensor of ``shape`` filled with ``value`` (MindSpore's ``ops.fill(type, shape, value)``)."""
    return _fill(type, shape, value, "fill")


def _fill(type: Any, shape: Any, value: Any, op: str) -> Tensor:
    dt = mstype.to_numpy(type, op)
    return S.full(shape=_sizes(_shape_arg(shape, op), op), value=_scalar_value(value, op, "value"),
                  dtype=dt)


def full(size: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:
    """A tensor of shape ``size`` filled with ``fill_value`` (its dtype follows the value
    when ``dtype`` is None)."""
    fill_value = _scalar_value(fill_value, "full", "fill_value")
    if dtype is None:
        dtype = mstype.float32 if isinstance(fill_value, float) else (
            mstype.bool_ if isinstance(fill_value, bool) else mstype.int64)
    return _fill(dtype, size, fill_value, "full")


def zeros(shape: Any, dtype: Any = None) -> Tensor:
    return _fill(dtype or mstype.float32, shape, 0, "zeros")


def ones(shape: Any, dtype: Any = None) -> Tensor:
    return _fill(dtype or mstype.float32, shape, 1, "ones")


def eye(n: int, m: int | None = None, dtype: Any = None) -> Tensor:
    """The ``n`` x ``m`` (``n`` x ``n``) matrix with ones on the diagonal."""
    for arg, v in (("n", n), ("m", m)):
        if (v is not None or arg == "n") and (not _is_int(v) or v < 0):
            raise TypeError(f"For 'eye', '{arg}' must be a non-negative int, but got {v!r}.")
    _sizes((n, n if m is None else m), "eye", "n, m")
    return Tensor(np.eye(n, m, dtype=mstype.to_numpy(dtype or mstype.float32, "eye")))


def arange(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None) -> Tensor:
    """The numbers from ``start`` (inclusive) to ``end`` (exclusive) in steps of ``step``;
    ``arange(n)`` counts from 0. A zero step, or one leading away from ``end``, is a
    ValueError, as in MindSpore."""
    if end is None:
        start, end = 0, start
    bounds = {"start": start, "end": end, "step": step}
    for arg, v in bounds.items():
        if isinstance(v, Tensor) and v.ndim == 0:
            v = bounds[arg] = v.item()
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise TypeError(f"For 'arange', '{arg}' must be an int, a float or a 0-D Tensor, "
                            f"but got {type(v).__name__}.")
    start, end, step = bounds["start"], bounds["end"], bounds["step"]
    if not builtins.all(math.isfinite(v) for v in (start, end, step)):
        raise ValueError(f"For 'arange', 'start', 'end' and 'step' must be finite, but got "
                         f"{start}, {end} and {step}.")
    if step == 0:
        raise ValueError("For 'arange', 'step' must not be 0.")
    if (end - start) * step < 0:
        raise ValueError(f"For 'arange', 'step' {step} leads away from 'end': it must be "
                         f"{'positive' if end > start else 'negative'} to go from {start} "
                         f"to {end}.")
    _sizes((builtins.max(math.ceil((end - start) / step), 0),), "arange", "end")
    arr = np.arange(start, end, step)
    return Tensor(arr, dtype=dtype) if dtype is not None else Tensor(arr.tolist() if arr.size else arr)


def linspace(start: float, end: float, steps: int) -> Tensor:
    """``steps`` evenly spaced Float32 numbers from ``start`` to ``end`` (both included)."""
    bounds = {"start": start, "end": end}
    for arg, v in bounds.items():
        if isinstance(v, Tensor) and v.size == 1:
            bounds[arg] = v.asnumpy().reshape(()).item()
        elif not _number(v) and not isinstance(v, (np.integer, np.floating)):
            raise TypeError(f"For 'linspace', '{arg}' must be a number or a one-element "
                            f"Tensor, but got {type(v).__name__}.")
    if not _is_int(steps) or steps < 0:
        raise TypeError(f"For 'linspace', 'steps' must be a non-negative int, but got "
                        f"{steps!r}.")
    _sizes((steps,), "linspace", "steps")
    return Tensor(np.linspace(bounds["start"], bounds["end"], steps, dtype=np.float32))


def depend(value: Any, expr: Any) -> Any:
    """``value``, after ``expr`` has been computed. mindgrad runs operations in program order
    in both modes (and keeps Parameter updates in GRAPH mode), so this only returns value."""
    return value


def stop_gradient(x: Any) -> Any:
    """The identity whose gradient is zero; works on tensors and on (nested) tuples."""
    if isinstance(x, (tuple, list)):
        return type(x)(stop_gradient(v) for v in x)
    if isinstance(x, Tensor):
        return S.stop_gradient(x)
    return x


__all__ = _public_names(globals())
