"""``mint.nn.functional``'s 1-D convolution and pooling (as their 2-D forms over a height of
one), adaptive pooling, ``pixel_shuffle`` and ``interpolate`` (nearest, linear and cubic modes),
composed of mindgrad operators (so differentiable)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import ops
from ...ops.resize_functions import _resize_axis
from ...core.tensor import Tensor
from .._utils import tensor_arg

__all__ = ["conv1d", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "pixel_shuffle", "interpolate",
           "upsample"]


def _one(v: Any, name: str, fn: str) -> int:
    """An int, or the single entry of a 1-tuple."""
    if isinstance(v, (tuple, list)):
        if len(v) != 1:
            raise ValueError(f"mint.nn.functional.{fn}: '{name}' must be an int or one int, "
                             f"got {v!r}")
        v = v[0]
    return int(v)


def conv1d(input: Any, weight: Any, bias: Any = None, stride: Any = 1,  # noqa: A002
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Any:
    """The 1-D convolution of ``(N, C, L)`` ``input`` with ``(O, C / groups, K)``
    ``weight``; ``padding`` an int, ``"valid"`` or ``"same"``."""
    tensor_arg(input, "nn.functional.conv1d")
    if input.ndim != 3 or weight.ndim != 3:
        raise ValueError(f"mint.nn.functional.conv1d: 'input' and 'weight' must be 3-D, got "
                         f"shapes {tuple(input.shape)} and {tuple(weight.shape)}")
    s, d = _one(stride, "stride", "conv1d"), _one(dilation, "dilation", "conv1d")
    if isinstance(padding, str):
        pad_mode, pad = padding, 0
    else:
        p = _one(padding, "padding", "conv1d")
        pad_mode, pad = "pad", (0, 0, p, p)
    y = ops.conv2d(ops.unsqueeze(input, 2), ops.unsqueeze(weight, 2), bias, (1, s),
                   pad_mode, pad, (1, d), groups)
    return ops.squeeze(y, 2)


def avg_pool1d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               ceil_mode: bool = False, count_include_pad: bool = True) -> Any:
    """The 1-D average pooling of ``(N, C, L)`` ``input``."""
    k = _one(kernel_size, "kernel_size", "avg_pool1d")
    s = k if stride is None else _one(stride, "stride", "avg_pool1d")
    p = _one(padding, "padding", "avg_pool1d")
    y = ops.avg_pool2d(ops.unsqueeze(input, -2), (1, k), (1, s), (0, p), ceil_mode,
                       count_include_pad)
    return ops.squeeze(y, -2)


def _adaptive(x: Any, dim: int, size: int | None, reduce: Any) -> Any:
    """``x`` pooled along ``dim`` into ``size`` windows ``[floor(i L / n), ceil((i+1) L /
    n))`` (PyTorch's adaptive windows), each reduced by ``reduce(slice, dim)``."""
    length = x.shape[dim]
    if size is None or size == length:
        return x
    if size <= 0:
        raise ValueError(f"mint.nn.functional: adaptive pooling output size must be "
                         f"positive, got {size}")
    parts = []
    for i in range(size):
        start = (i * length) // size
        end = -((-(i + 1) * length) // size)
        parts.append(reduce(ops.narrow(x, dim, start, end - start), dim))
    return ops.stack(parts, dim)


def _sizes(output_size: Any, n: int) -> tuple:
    if isinstance(output_size, int) or output_size is None:
        return (output_size,) * n
    if len(output_size) != n:
        raise ValueError(f"mint.nn.functional: adaptive pooling 'output_size' must be an int "
                         f"or {n} entries, got {output_size!r}")
    return tuple(output_size)


def _mean(x: Any, dim: int) -> Any:
    return ops.mean(x, dim)


def _max(x: Any, dim: int) -> Any:
    return ops.amax(x, dim)


def adaptive_avg_pool1d(input: Any, output_size: Any) -> Any:  # noqa: A002
    """Average pooling of the last dimension into ``output_size`` windows."""
    tensor_arg(input, "nn.functional.adaptive_avg_pool1d")
    return _adaptive(input, -1, _sizes(output_size, 1)[0], _mean)


def adaptive_avg_pool2d(input: Any, output_size: Any) -> Any:  # noqa: A002
    """Average pooling of the last two dimensions into ``output_size`` windows (a window
    mean is the mean of its row means, so the two dimensions pool one after the other)."""
    tensor_arg(input, "nn.functional.adaptive_avg_pool2d")
    h, w = _sizes(output_size, 2)
    return _adaptive(_adaptive(input, -2, h, _mean), -1, w, _mean)


def _no_indices(return_indices: bool, fn: str) -> None:
    if return_indices:
        raise ValueError(f"mint.nn.functional.{fn}: return_indices=True is not supported "
                         f"by mindgrad")


def adaptive_max_pool1d(input: Any, output_size: Any,  # noqa: A002
                        return_indices: bool = False) -> Any:
    """Max pooling of the last dimension into ``output_size`` windows."""
    tensor_arg(input, "nn.functional.adaptive_max_pool1d")
    _no_indices(return_indices, "adaptive_max_pool1d")
    return _adaptive(input, -1, _sizes(output_size, 1)[0], _max)


def adaptive_max_pool2d(input: Any, output_size: Any,  # noqa: A002
                        return_indices: bool = False) -> Any:
    """Max pooling of the last two dimensions into ``output_size`` windows."""
    tensor_arg(input, "nn.functional.adaptive_max_pool2d")
    _no_indices(return_indices, "adaptive_max_pool2d")
    h, w = _sizes(output_size, 2)
    return _adaptive(_adaptive(input, -2, h, _max), -1, w, _max)


def pixel_shuffle(input: Any, upscale_factor: int) -> Any:  # noqa: A002
    """``(..., C r^2, H, W)`` rearranged into ``(..., C, H r, W r)``."""
    tensor_arg(input, "nn.functional.pixel_shuffle")
    r = int(upscale_factor)
    *lead, c, h, w = input.shape
    if c % (r * r):
        raise ValueError(f"mint.nn.functional.pixel_shuffle: the channels of 'input' "
                         f"(shape {tuple(input.shape)}) must be divisible by {r * r}")
    x = ops.reshape(input, (-1, c // (r * r), r, r, h, w))
    x = ops.permute(x, (0, 1, 4, 2, 5, 3))
    return ops.reshape(x, tuple(lead) + (c // (r * r), h * r, w * r))


# mode -> the input rank it resamples (the linear modes blend neighbours along each axis,
# 'bicubic' four of them)
_LINEAR_RANK = {"linear": 3, "bilinear": 4, "trilinear": 5, "bicubic": 4}


def _cubic_axis(x: Any, axis: int, m: int, align: bool, scale: float | None) -> Any:
    """One axis resampled by Keys' cubic convolution (a = -0.75) to ``m`` entries, PyTorch's
    bicubic rule: source ``(i + 0.5) / scale - 0.5`` (unclamped) or ``i * (n - 1) / (m - 1)``
    with ``align``; the taps ``floor(src) - 1 .. + 2`` clamped to the edges."""
    n = x.shape[axis]
    i = np.arange(m, dtype=np.float64)
    if align:
        src = i * ((n - 1) / (m - 1)) if m > 1 else np.zeros(m)
    else:
        src = (i + 0.5) * (1.0 / scale if scale else n / m) - 0.5
    lo = np.floor(src)
    t = src - lo
    a = -0.75
    weights = [((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a,
               ((a + 2) * t - (a + 3)) * t * t + 1,
               ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1,
               ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a]
    shape = [1] * x.ndim
    shape[axis] = m
    out = None
    for k, w in enumerate(weights):
        idx = np.clip(lo.astype(np.int64) - 1 + k, 0, n - 1)
        term = ops.mul(ops.index_select(x, axis, _index(idx)),
                       Tensor(w.reshape(shape).astype(x.dtype.np_dtype)))
        out = term if out is None else ops.add(out, term)
    return out


def interpolate(input: Any, size: Any = None, scale_factor: Any = None,  # noqa: A002
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None) -> Any:
    """``input`` (``(N, C, *spatial)``) resized to ``size`` or by ``scale_factor``, as
    PyTorch: ``mode`` 'nearest' (source index ``floor(i * in / out)``) or 'linear' /
    'bilinear' / 'trilinear' for 3-D / 4-D / 5-D input (source position
    ``(i + 0.5) * in / out - 0.5``, or ``i * (in - 1) / (out - 1)`` with
    ``align_corners``; blended from its two neighbours along each axis) or 'bicubic' (4-D:
    four neighbours along each axis, Keys' cubic convolution)."""
    tensor_arg(input, "nn.functional.interpolate")
    if mode != "nearest" and mode not in _LINEAR_RANK:
        raise ValueError(f"mint.nn.functional.interpolate: 'mode' must be 'nearest', "
                         f"'linear', 'bilinear', 'trilinear' or 'bicubic', got {mode!r}")
    if mode in _LINEAR_RANK and input.ndim != _LINEAR_RANK[mode]:
        raise ValueError(f"mint.nn.functional.interpolate: mode {mode!r} takes "
                         f"{_LINEAR_RANK[mode]}-D input, got shape {tuple(input.shape)}")
    if mode == "nearest" and align_corners is not None:
        raise ValueError("mint.nn.functional.interpolate: 'align_corners' is only for the "
                         "linear modes")
    spatial = tuple(input.shape[2:])
    n = len(spatial)
    if (size is None) == (scale_factor is None):
        raise ValueError("mint.nn.functional.interpolate: give exactly one of 'size' and "
                         "'scale_factor'")
    if size is not None:
        out = (size,) * n if isinstance(size, int) else tuple(size)
        scales = [o / s for o, s in zip(out, spatial)]
    else:
        scales = [float(scale_factor)] * n if isinstance(scale_factor, (int, float)) \
            else [float(f) for f in scale_factor]
        out = tuple(int(math.floor(s * f)) for s, f in zip(spatial, scales))
    if len(out) != n or len(scales) != n:
        raise ValueError(f"mint.nn.functional.interpolate: 'size' / 'scale_factor' must have "
                         f"{n} entries for 'input' of shape {tuple(input.shape)}, got "
                         f"{size if size is not None else scale_factor!r}")
    if min(out, default=1) < 1:
        raise ValueError(f"mint.nn.functional.interpolate: the output size {out} must be "
                         f"positive")
    x = input
    for k, (o, s, f) in enumerate(zip(out, spatial, scales)):
        # PyTorch: the scale given (or in / out) maps output i back to the source
        exact = size is not None or recompute_scale_factor
        if mode == "nearest":
            step = s / o if exact else 1.0 / f
            idx = [min(int(math.floor(i * step)), s - 1) for i in range(o)]
            x = ops.index_select(x, 2 + k, _index(idx))
        elif mode == "bicubic":
            x = _cubic_axis(x, 2 + k, o, bool(align_corners), None if exact else f)
        else:
            # ops.interpolate's blend of two gathers (PyTorch's source positions)
            x = _resize_axis(x, 2 + k, o, "linear", bool(align_corners),
                             None if exact else f)
    return x


def _index(idx: list) -> Any:
    return Tensor(np.asarray(idx, np.int64))


def upsample(input: Any, size: Any = None, scale_factor: Any = None,  # noqa: A002
             mode: str = "nearest", align_corners: bool | None = None) -> Any:
    """The same as ``interpolate``."""
    return interpolate(input, size, scale_factor, mode, align_corners)
