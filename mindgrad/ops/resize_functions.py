"""``ops.interpolate`` (and ``ops.upsample``): resizing the spatial axes of ``(N, C, ...)``
with MindSpore 2.10's modes and rules. Separable: each axis in turn is a gather of the source
rows (nearest) or a blend of two gathers (linear), so the result is differentiable; 'area' is
adaptive average pooling.

Source coordinates of output position ``i`` along an axis of ``n`` inputs and ``m`` outputs:
'nearest' ``floor(i * n / m)`` (``/ scale_factor`` for 5-D inputs given a scale);
'nearest-exact' ``floor((i + 0.5) * n / m)``; the linear modes ``(i + 0.5) * n / m - 0.5``
(clamped at 0), or ``i * (n - 1) / (m - 1)`` with ``align_corners``.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.tensor import Tensor
from . import functional as F
from . import pooling_functions as P
from .functional import _composite

# mode -> {rank: options it accepts}
_SUPPORTED = {"nearest": {3: (), 4: (), 5: ("scale_factor",)},
              "linear": {3: ("align_corners",)}, "bilinear": {4: ("align_corners",)},
              "area": {3: ("scale_factor",), 4: ("scale_factor",), 5: ("scale_factor",)},
              "nearest-exact": {3: (), 4: ()},
              "trilinear": {5: ("align_corners", "scale_factor")}}


def _nearest_rows(n: int, m: int, scale: Any, exact: bool) -> np.ndarray:
    ratio = (1.0 / scale) if scale else n / m
    pos = (np.arange(m) + 0.5) * ratio if exact else np.arange(m) * ratio
    return np.minimum(np.floor(pos).astype(np.int64), n - 1)


def _linear_rows(n: int, m: int, align_corners: bool, scale: Any) -> tuple:
    if align_corners:
        src = np.arange(m) * ((n - 1) / (m - 1)) if m > 1 else np.zeros(m)
    else:
        ratio = (1.0 / scale) if scale else n / m
        src = np.maximum((np.arange(m) + 0.5) * ratio - 0.5, 0.0)
    lo = np.minimum(np.floor(src).astype(np.int64), n - 1)
    hi = np.minimum(lo + 1, n - 1)
    return lo, hi, src - lo


def _resize_axis(x: Tensor, axis: int, m: int, mode: str, align_corners: bool,
                 scale: Any) -> Tensor:
    n = x.shape[axis]
    if mode in ("nearest", "nearest-exact"):
        return F.gather(x, Tensor(_nearest_rows(n, m, scale, mode == "nearest-exact")), axis)
    lo, hi, w = _linear_rows(n, m, align_corners, scale)
    shape = [1] * x.ndim
    shape[axis] = m
    w = Tensor(w.reshape(shape).astype(x.dtype.np_dtype))
    a, b = F.gather(x, Tensor(lo), axis), F.gather(x, Tensor(hi), axis)
    return F.add(a, F.mul(F.sub(b, a), w))


def _positive_ints(v: Any, name: str) -> None:
    vals = v if isinstance(v, tuple) else (v,)
    if not all(isinstance(i, int) and not isinstance(i, bool) and i > 0 for i in vals):
        raise ValueError(f"For 'interpolate', '{name}' must be a positive int or a tuple of "
                         f"them, but got {v!r}.")


@_composite
def interpolate(input: Any, size: Any = None, scale_factor: Any = None,  # noqa: A002
                mode: str = "nearest", align_corners: Any = None,
                recompute_scale_factor: Any = None) -> Tensor:
    """Resize the spatial axes of ``input`` to ``size`` (or by ``scale_factor``) with
    ``mode`` 'nearest', 'nearest-exact', 'linear' (3-D input), 'bilinear' (4-D),
    'trilinear' (5-D) or 'area' (adaptive average pooling); 'bicubic' is not provided."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'interpolate', 'input' must be a tensor, but got {type(input)}")
    size = tuple(size) if isinstance(size, list) else size
    scale_factor = tuple(scale_factor) if isinstance(scale_factor, list) else scale_factor
    rank = input.ndim
    if size is not None and scale_factor is not None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set "
                         "simultaneously")
    if size is not None:
        _positive_ints(size, "size")
        size = size if isinstance(size, tuple) else (size,) * (rank - 2)
        if len(size) != rank - 2:
            raise ValueError(f"For 'interpolate', 'size' must have {rank - 2} elements for a "
                             f"{rank}-D input, but got {size}.")
    elif scale_factor is not None:
        vals = scale_factor if isinstance(scale_factor, tuple) else (scale_factor,)
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0
                   for v in vals):
            raise ValueError(f"For 'interpolate', 'scale_factor' must be positive, but got "
                             f"{scale_factor!r}.")
        scale_factor = vals if isinstance(scale_factor, tuple) else vals * (rank - 2)
        if len(scale_factor) != rank - 2:
            raise ValueError(f"For 'interpolate', 'scale_factor' must have {rank - 2} "
                             f"elements for a {rank}-D input, but got {scale_factor}.")
    else:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be both empty")
    if mode == "bicubic":
        raise ValueError("For 'interpolate', mode 'bicubic' is not provided by mindgrad.")
    if mode not in _SUPPORTED:
        raise ValueError(f"For 'interpolate', 'mode' must be one of "
                         f"{list(_SUPPORTED) + ['bicubic']}, but got {mode!r}.")
    if rank not in _SUPPORTED[mode]:
        raise ValueError(f"For 'interpolate', mode {mode!r} takes inputs of rank "
                         f"{sorted(_SUPPORTED[mode])}, but got {rank}-D.")
    if mode == "area" and size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        if size is not None:
            raise ValueError("For 'interpolate', it is incorrect to set "
                             "'recompute_scale_factor' to True after specifying an explicit "
                             "'size'.")
        size = tuple(math.floor(n * s) for n, s in zip(input.shape[2:], scale_factor))
        scale_factor = None
    elif scale_factor is not None and "scale_factor" not in _SUPPORTED[mode][rank]:
        raise ValueError(f"For 'interpolate', 'scale_factor' option cannot currently be set "
                         f"with the mode = {mode} and dim = {rank}D.")
    if align_corners is not None and "align_corners" not in _SUPPORTED[mode][rank]:
        raise ValueError(f"For 'interpolate', 'align_corners' option cannot currently be set "
                         f"with the mode = {mode} and dim = {rank}D.")
    align = bool(align_corners)
    if mode == "area":
        P.check_output_elements(input, tuple(size), "interpolate")
        fn = {3: P.adaptive_avg_pool1d, 4: P.adaptive_avg_pool2d, 5: P.adaptive_avg_pool3d}
        return fn[rank](input, size[0] if rank == 3 else tuple(size))
    if size is None:
        size = tuple(math.floor(n * s) for n, s in zip(input.shape[2:], scale_factor))
    P.check_output_elements(input, tuple(size), "interpolate")
    scales = scale_factor or (None,) * (rank - 2)
    out = input
    for k, (m, s) in enumerate(zip(size, scales)):
        out = _resize_axis(out, 2 + k, int(m), mode, align, s)
    return out


@_composite
def upsample(input: Any, size: Any = None, scale_factor: Any = None,  # noqa: A002
             mode: str = "nearest", align_corners: Any = None,
             recompute_scale_factor: Any = None) -> Tensor:
    """``interpolate`` under its older name."""
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


__all__ = ["interpolate", "upsample"]
