"""MindSpore's 1-D, adaptive and power-average pooling functions:
``ops.avg_pool1d``, ``ops.max_pool1d``-style helpers for the layers, ``adaptive_avg_pool1d``,
``adaptive_max_pool1d``, ``adaptive_avg_pool2d``, ``adaptive_max_pool2d``, ``lp_pool1d``,
``lp_pool2d``, and pixel shuffling (``pixel_shuffle``, ``pixel_unshuffle``).

Each is a composition of differentiable operators: the 1-D pools are the 2-D ones over a
height of one; adaptive windows ``[floor(i n / out), ceil((i + 1) n / out))`` are reduced one
axis after the other (a window's mean is the mean of its row means, its maximum the maximum of
the row maxima)."""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .functional import _composite
from .functional.conv import _same_padding

_FLOAT16_32 = (mstype.float16, mstype.float32)


def _tensor(x: Any, op: str, arg: str = "input") -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', the input {arg} must be tensor, but got "
                        f"{type(x).__name__}.")
    return x


def _int(v: Any, op: str, arg: str, low: int = 1) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"For '{op}', '{arg}' must be an int, but got {type(v).__name__}.")
    if v < low:
        raise ValueError(f"For '{op}', '{arg}' must be >= {low}, but got {v}.")
    return int(v)


def _one(v: Any, op: str, arg: str, low: int = 1) -> int:
    """An int or a 1-tuple of one."""
    if isinstance(v, tuple):
        if len(v) != 1:
            raise ValueError(f"For '{op}', {arg} should be int or tuple of length 1.")
        v = v[0]
    return _int(v, op, arg, low)


def _lift(x: Tensor) -> Tensor:
    """(N, C, L) as (N, C, 1, L)."""
    return F.expand_dims(x, x.ndim - 1)


def _drop(y: Tensor) -> Tensor:
    return F.squeeze(y, y.ndim - 2)


@_composite
def avg_pool1d(input_x: Any, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
    """Average pooling over the last axis of ``(N, C, L)``: ``kernel_size`` windows moved
    by ``stride``, ``padding`` zeros at both ends (counted unless ``count_include_pad`` is
    False), the last partial window kept with ``ceil_mode``."""
    op = "avg_pool1d"
    x = _tensor(input_x, op, "input_x")
    if x.ndim != 3:
        raise ValueError(f"For '{op}', the input must be 3-D (N, C, L), but got shape "
                         f"{list(x.shape)}.")
    k, s = _int(kernel_size, op, "kernel_size"), _one(stride, op, "stride")
    p = _one(padding, op, "padding", 0)
    return _drop(F.avg_pool2d(_lift(x), (1, k), (1, s), (0, p), bool(ceil_mode),
                              bool(count_include_pad)))


def max_pool1d_layer(x: Tensor, kernel: int, stride: int, pad_mode: str, padding: int,
                     dilation: int, ceil_mode: bool, return_indices: bool) -> Any:
    """``nn.MaxPool1d``'s pooling of ``(N, C, L)``: 'valid', 'same' (padding with -inf,
    output ``ceil(L / stride)``) or 'pad' (``padding``, ``dilation``, ``ceil_mode``,
    indices into L)."""
    x2 = _lift(x)
    if pad_mode == "same":
        pads = _same_padding(x.shape[2:], (kernel,), (stride,), (1,))[0]
        x2 = F.pad(x2, pads, "constant", float("-inf"))
    p = padding if pad_mode == "pad" else 0
    out = F.max_pool2d(x2, (1, kernel), (1, stride), (0, p), (1, dilation), return_indices,
                       ceil_mode)
    if return_indices:
        return _drop(out[0]), _drop(out[1])
    return _drop(out)


def _window_bounds(n: int, size: int) -> list:
    return [((i * n) // size, -((-(i + 1) * n) // size)) for i in range(size)]


def _adaptive_axis(x: Tensor, axis: int, size: Any, reduce: str) -> Tensor:
    """``x`` pooled along ``axis`` into ``size`` adaptive windows (``None``: unchanged)."""
    n = x.shape[axis]
    if size is None or size == n:
        return x
    if n % size == 0:  # equal windows: one reshape and one reduction
        shape = tuple(x.shape[:axis]) + (size, n // size) + tuple(x.shape[axis + 1:])
        y = F.reshape(x, shape)
        return F.reduce_mean(y, axis + 1) if reduce == "mean" else F.reduce_max(y, axis + 1)
    parts = []
    for lo, hi in _window_bounds(n, size):
        part = F.getitem(x, (slice(None),) * axis + (slice(lo, hi),))
        parts.append(F.reduce_mean(part, axis) if reduce == "mean" else F.reduce_max(part, axis))
    return F.stack(parts, axis)


def _adaptive_1d_checks(x: Any, output_size: Any, op: str) -> Tensor:
    x = _tensor(x, op)
    if isinstance(output_size, bool) or not isinstance(output_size, int):
        raise TypeError(f"For '{op}', 'output_size' must be an int, but got "
                        f"{type(output_size).__name__}.")
    if output_size < 1:
        raise ValueError(f"For '{op}', 'output_size' must be positive, but got {output_size}.")
    if x.ndim != 3:
        raise ValueError(f"For '{op}' input must have 3 dim, but got {x.ndim}.")
    width = x.shape[2]
    if width < output_size:
        raise ValueError(f"For '{op}' input's last dimension must be greater or equal to output "
                         f"size {output_size}, but got {width}.")
    if width % output_size:
        raise ValueError(f"For '{op}' input's last dimension must be divisible by output size "
                         f"{output_size}, but got {width}.")
    if x.dtype not in _FLOAT16_32:
        raise TypeError(f"For '{op}', the input dtype must be float16 or float32, but got "
                        f"{x.dtype}.")
    return x


@_composite
def adaptive_avg_pool1d(input: Any, output_size: int) -> Tensor:  # noqa: A002
    """Mean of ``(N, C, L)`` over ``output_size`` equal windows (``L`` must be divisible by
    ``output_size``, as MindSpore requires)."""
    x = _adaptive_1d_checks(input, output_size, "adaptive_avg_pool1d")
    return _adaptive_axis(x, 2, output_size, "mean")


@_composite
def adaptive_max_pool1d(input: Any, output_size: int) -> Tensor:  # noqa: A002
    """Maximum of ``(N, C, L)`` over ``output_size`` equal windows."""
    x = _adaptive_1d_checks(input, output_size, "adaptive_max_pool1d")
    return _adaptive_axis(x, 2, output_size, "max")


def _sizes(output_size: Any, x: Tensor, n: int, op: str) -> tuple:
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        sizes = (output_size,) * n
    elif isinstance(output_size, (tuple, list)) and len(output_size) == n:
        sizes = tuple(output_size)
    else:
        raise TypeError(f"For '{op}', 'output_size' must be an int or a tuple of {n} ints or "
                        f"None, but got {output_size!r}.")
    for s in sizes:
        if s is not None and (isinstance(s, bool) or not isinstance(s, int) or s < 1):
            raise ValueError(f"For '{op}', the values of 'output_size' must be positive ints "
                             f"or None, but got {output_size!r}.")
    check_output_elements(x, sizes, op)
    if x.ndim not in (n + 1, n + 2):
        raise ValueError(f"For '{op}', the input must be {n + 1}-D or {n + 2}-D, but got "
                         f"shape {list(x.shape)}.")
    return sizes


# a bound on the elements a resize or adaptive pool may make: an absurd size is an error,
# not an exhausted machine
MAX_ELEMENTS = 2 ** 28


def check_output_elements(x: Tensor, sizes: tuple, op: str) -> None:
    """Refuse output sizes whose result would exceed ``MAX_ELEMENTS`` elements, or an input
    with an empty spatial axis."""
    spatial = x.shape[x.ndim - len(sizes):]
    if 0 in spatial:
        raise ValueError(f"For '{op}', the spatial axes of the input must not be empty, but "
                         f"got shape {list(x.shape)}.")
    total = int(np.prod(x.shape[:x.ndim - len(sizes)], dtype=np.int64))
    for s, n in zip(sizes, spatial):
        total *= n if s is None else s
    if total > MAX_ELEMENTS:
        raise ValueError(f"For '{op}', the output sizes {tuple(sizes)} for an input of shape "
                         f"{list(x.shape)} would make {total} elements, more than "
                         f"{MAX_ELEMENTS}.")


@_composite
def adaptive_avg_pool2d(input: Any, output_size: Any) -> Tensor:  # noqa: A002
    """Mean of the last two axes over adaptive windows; ``output_size`` an int or
    ``(h, w)`` whose ``None`` keeps that axis."""
    x = _tensor(input, "adaptive_avg_pool2d")
    return _adaptive(x, _sizes(output_size, x, 2, "adaptive_avg_pool2d"), "mean")


def _adaptive_max_indices(x: Tensor, sizes: tuple, dtype: Any = np.int64) -> Tensor:
    """Flat positions (in each plane or volume of the last ``len(sizes)`` axes) of the first
    maximum of every adaptive window."""
    a = x.asnumpy()
    n = len(sizes)
    dims = a.shape[-n:]
    bounds = [_window_bounds(d, s or d) for d, s in zip(dims, sizes)]
    out = np.zeros(a.shape[:-n] + tuple(len(b) for b in bounds), np.int64)
    for pos in itertools.product(*(range(len(b)) for b in bounds)):
        win = tuple(bounds[i][j] for i, j in enumerate(pos))
        block = a[(Ellipsis,) + tuple(slice(lo, hi) for lo, hi in win)]
        k = block.reshape(a.shape[:-n] + (-1,)).argmax(-1)
        local = np.unravel_index(k, tuple(hi - lo for lo, hi in win))
        out[(Ellipsis,) + pos] = np.ravel_multi_index(
            tuple(c + lo for c, (lo, _) in zip(local, win)), dims)
    return Tensor(out.astype(dtype))


def _adaptive(x: Tensor, sizes: tuple, reduce: str) -> Tensor:
    for i, size in enumerate(sizes):
        x = _adaptive_axis(x, x.ndim - len(sizes) + i, size, reduce)
    return x


@_composite
def adaptive_max_pool2d(input: Any, output_size: Any,  # noqa: A002
                        return_indices: bool = False) -> Any:
    """Maximum of the last two axes over adaptive windows; with ``return_indices`` also
    the Int64 flat positions of the maxima in each ``H * W`` plane."""
    x = _tensor(input, "adaptive_max_pool2d")
    sizes = _sizes(output_size, x, 2, "adaptive_max_pool2d")
    out = _adaptive(x, sizes, "max")
    return (out, _adaptive_max_indices(x, sizes)) if return_indices else out


@_composite
def adaptive_avg_pool3d(input: Any, output_size: Any) -> Tensor:  # noqa: A002
    """Mean of the last three axes over adaptive windows (``None`` keeps an axis)."""
    x = _tensor(input, "adaptive_avg_pool3d")
    return _adaptive(x, _sizes(output_size, x, 3, "adaptive_avg_pool3d"), "mean")


@_composite
def adaptive_max_pool3d(input: Any, output_size: Any,  # noqa: A002
                        return_indices: bool = False) -> Any:
    """Maximum of the last three axes over adaptive windows; with ``return_indices`` also
    the Int32 flat positions of the maxima in each ``D * H * W`` volume."""
    x = _tensor(input, "adaptive_max_pool3d")
    if isinstance(output_size, (tuple, list)) and None in output_size:
        # MindSpore's AdaptiveMaxPool3D takes the sizes as a Tensor, which cannot hold None
        raise TypeError(f"For 'adaptive_max_pool3d', 'output_size' {output_size!r} must not "
                        f"contain None.")
    sizes = _sizes(output_size, x, 3, "adaptive_max_pool3d")
    out = _adaptive(x, sizes, "max")
    # MindSpore gives Int32 indices here (Int64 for the 2-D pool)
    return (out, _adaptive_max_indices(x, sizes, np.int32)) if return_indices else out


def _norm_type(norm_type: Any, op: str) -> float:
    if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float)):
        raise TypeError(f"For '{op}', the type of 'norm_type' must be float or int, but got "
                        f"{type(norm_type)}")
    if norm_type == 0:
        raise ValueError(f"For '{op}', the value of 'norm_type' can not be 0.")
    return float(norm_type)


@_composite
def lp_pool1d(x: Any, norm_type: Any, kernel_size: int, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling of ``(N, C, L)`` or ``(C, L)``: ``(sum over the window of
    x ** p) ** (1 / p)``, the sum being the window mean times ``kernel_size`` (so a partial
    window of ``ceil_mode`` is scaled as a full one, as in MindSpore)."""
    p = _norm_type(norm_type, "lp_pool1d")
    x = _tensor(x, "lp_pool1d", "x")
    unbatched = x.ndim == 2
    if unbatched:
        x = F.expand_dims(x, 0)
    out = avg_pool1d(F.pow(x, p), kernel_size, kernel_size if stride is None else stride, 0,
                     ceil_mode)
    if unbatched:
        out = F.squeeze(out, 0)
    return F.pow(F.mul(out, float(kernel_size)), 1.0 / p)


@_composite
def lp_pool2d(x: Any, norm_type: Any, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling of ``(N, C, H, W)`` (see ``lp_pool1d``)."""
    p = _norm_type(norm_type, "lp_pool2d")
    x = _tensor(x, "lp_pool2d", "x")
    k = kernel_size if isinstance(kernel_size, tuple) else (kernel_size, kernel_size)
    out = F.avg_pool2d(F.pow(x, p), k, k if stride is None else stride, 0, bool(ceil_mode))
    return F.pow(F.mul(out, float(k[0] * k[1])), 1.0 / p)


def _shuffle_checks(x: Any, factor: Any, op: str, arg: str) -> Tensor:
    if isinstance(factor, bool) or not isinstance(factor, int) or factor <= 0:
        raise ValueError(f"For '{op}', '{arg}' must be a positive int, but got {factor!r}.")
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', 'input' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if x.ndim < 3:
        raise ValueError(f"For '{op}', the dimension of 'input' must be at least 3, but got "
                         f"{x.ndim}.")
    return x


def pixel_shuffle(input: Any, upscale_factor: int) -> Tensor:  # noqa: A002
    """``(..., C r^2, H, W)`` rearranged into ``(..., C, H r, W r)``."""
    x = _shuffle_checks(input, upscale_factor, "pixel_shuffle", "upscale_factor")
    r = upscale_factor
    *pre, c, h, w = x.shape
    if c % (r * r):
        raise ValueError(f"For 'pixel_shuffle', the channels {c} of 'input' must be divisible "
                         f"by upscale_factor ** 2 = {r * r}.")
    n = len(pre)
    y = F.reshape(x, tuple(pre) + (c // (r * r), r, r, h, w))
    y = F.transpose(y, tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2))
    return F.reshape(y, tuple(pre) + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input: Any, downscale_factor: int) -> Tensor:  # noqa: A002
    """``(..., C, H r, W r)`` rearranged into ``(..., C r^2, H, W)``."""
    x = _shuffle_checks(input, downscale_factor, "pixel_unshuffle", "downscale_factor")
    r = downscale_factor
    *pre, c, h, w = x.shape
    if h % r or w % r:
        raise ValueError(f"For 'pixel_unshuffle', the height {h} and width {w} of 'input' must "
                         f"be divisible by downscale_factor {r}.")
    n = len(pre)
    y = F.reshape(x, tuple(pre) + (c, h // r, r, w // r, r))
    y = F.transpose(y, tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3))
    return F.reshape(y, tuple(pre) + (c * r * r, h // r, w // r))


__all__ = ["avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d", "adaptive_avg_pool2d",
           "adaptive_max_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool3d", "lp_pool1d",
           "lp_pool2d", "pixel_shuffle", "pixel_unshuffle"]
