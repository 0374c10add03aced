"""MindSpore's spatial rearrangements: ``mirror_pad``, ``space_to_batch_nd`` and
``batch_to_space_nd``, the sliding-window pair ``unfold`` (im2col) and ``fold`` / ``col2im``
(its adjoint: overlapping windows add up), and ``padding``. Each is a composition of
differentiable operators: gathers at constant positions, reshapes and transposes, and a
scatter-add for ``fold``."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.tensor import Tensor
from . import functional as F
from .functional import _composite


def _int_pairs(v: Any, n: int, op: str, arg: str) -> list:
    """``v`` as ``n`` pairs of non-negative ints (a Tensor, or a tuple/list of pairs)."""
    if isinstance(v, Tensor):
        v = v.asnumpy().tolist()
    if not isinstance(v, (tuple, list)) or len(v) != n or not all(
            isinstance(p, (tuple, list)) and len(p) == 2 and all(
                F._is_int(i) and i >= 0 for i in p) for p in v):
        raise ValueError(f"For '{op}', '{arg}' must be {n} pairs of non-negative ints, but got "
                         f"{v!r}.")
    return [(int(a), int(b)) for a, b in v]


def _ints(v: Any, n: int, op: str, arg: str, lo: int = 1) -> tuple:
    """An int (repeated ``n`` times) or ``n`` ints, each at least ``lo``."""
    if isinstance(v, Tensor):
        v = v.asnumpy().tolist()
    if F._is_int(v):
        v = (int(v),) * n
    if not isinstance(v, (tuple, list)) or len(v) != n or not all(
            F._is_int(i) and i >= lo for i in v):
        raise ValueError(f"For '{op}', '{arg}' must be an int or {n} ints, each at least {lo}, "
                         f"but got {v!r}.")
    return tuple(int(i) for i in v)


# --- mirror padding ------------------------------------------------------------------------
@_composite
def mirror_pad(input_x: Any, paddings: Any, mode: str) -> Tensor:
    """``input_x`` padded by mirroring: ``paddings[i] = (before, after)`` for axis ``i``;
    ``mode`` ``'REFLECT'`` leaves out the edge element, ``'SYMMETRIC'`` repeats it."""
    x = F._tensor(input_x, "mirror_pad", "input_x")
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"For 'mirror_pad', 'mode' must be 'REFLECT' or 'SYMMETRIC', but got "
                         f"{mode!r}.")
    pads = _int_pairs(paddings, x.ndim, "mirror_pad", "paddings")
    out = x
    for a, (before, after) in enumerate(pads):
        n = x.shape[a]
        limit = n - 1 if mode == "REFLECT" else n
        if before > limit or after > limit:
            raise ValueError(f"For 'mirror_pad', the paddings of axis {a} ({before}, {after}) "
                             f"must not exceed {limit} in mode {mode!r} (axis size {n}).")
        if before or after:
            idx = np.pad(np.arange(n), (before, after), mode.lower())
            out = F.gather(out, Tensor(idx.astype(np.int64)), a)
    return out


# --- space <-> batch -------------------------------------------------------------------------
@_composite
def space_to_batch_nd(input_x: Any, block_size: Any, paddings: Any) -> Tensor:
    """(N, C, S1, ..., SM) -> (N * prod(block), C, (S1 + pads) / b1, ...): the spatial axes,
    padded, cut into blocks whose offsets move to the batch axis (offset-major)."""
    op = "space_to_batch_nd"
    x = F._tensor(input_x, op, "input_x")
    m = len(block_size) if isinstance(block_size, (tuple, list)) else 2
    if x.ndim != m + 2:
        raise ValueError(f"For '{op}', 'input_x' must have rank {m + 2} (N, C and {m} "
                         f"spatial axes), but got shape {list(x.shape)}.")
    block = _ints(block_size, m, op, "block_size")
    pads = _int_pairs(paddings, m, op, "paddings")
    padded = [x.shape[2 + i] + sum(pads[i]) for i in range(m)]
    if any(p % b for p, b in zip(padded, block)):
        raise ValueError(f"For '{op}', the padded spatial sizes {padded} must be divisible by "
                         f"'block_size' {list(block)}.")
    y = F.pad(x, tuple(v for p in reversed(pads) for v in p)) if any(map(any, pads)) else x
    n, c = x.shape[:2]
    shape = [n, c]
    for p, b in zip(padded, block):
        shape += [p // b, b]
    y = F.reshape(y, tuple(shape))
    offsets = tuple(3 + 2 * i for i in range(m))
    perm = offsets + (0, 1) + tuple(2 + 2 * i for i in range(m))
    y = F.transpose(y, perm)
    return F.reshape(y, (n * int(np.prod(block)), c) + tuple(p // b for p, b in zip(padded,
                                                                                     block)))


@_composite
def batch_to_space_nd(input_x: Any, block_shape: Any, crops: Any) -> Tensor:
    """The inverse of ``space_to_batch_nd``: batch blocks back to spatial positions, then
    ``crops[i] = (start, end)`` cut from spatial axis ``i``."""
    op = "batch_to_space_nd"
    x = F._tensor(input_x, op, "input_x")
    m = len(block_shape) if isinstance(block_shape, (tuple, list)) else 2
    if x.ndim != m + 2:
        raise ValueError(f"For '{op}', 'input_x' must have rank {m + 2} (N, C and {m} "
                         f"spatial axes), but got shape {list(x.shape)}.")
    block = _ints(block_shape, m, op, "block_shape")
    cut = _int_pairs(crops, m, op, "crops")
    nb, c = x.shape[:2]
    k = int(np.prod(block))
    if nb % k:
        raise ValueError(f"For '{op}', the batch size {nb} must be divisible by the product "
                         f"of 'block_shape' {list(block)}.")
    n = nb // k
    sizes = tuple(x.shape[2:])
    full = [s * b for s, b in zip(sizes, block)]
    if any(a + b > f for (a, b), f in zip(cut, full)):
        raise ValueError(f"For '{op}', 'crops' {cut} must leave a non-negative size of the "
                         f"spatial sizes {full}.")
    y = F.reshape(x, tuple(block) + (n, c) + sizes)
    perm = (m, m + 1) + tuple(v for i in range(m) for v in (m + 2 + i, i))
    y = F.reshape(F.transpose(y, perm), (n, c) + tuple(full))
    index = (slice(None), slice(None)) + tuple(slice(a, f - b) for (a, b), f in zip(cut, full))
    return F.getitem(y, index)


# --- sliding windows -------------------------------------------------------------------------
def _windows(h: int, w: int, k: tuple, d: tuple, p: tuple, s: tuple, op: str) -> tuple:
    """The padded-image rows and columns each window element reads: arrays of shape
    (kh*kw, L) with L the number of windows."""
    hp, wp = h + 2 * p[0], w + 2 * p[1]
    F._sizes((hp, wp), op, "output_size and padding")
    F._sizes((k[0] * k[1], hp * wp), op, "kernel_size")
    oh = (hp - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (wp - d[1] * (k[1] - 1) - 1) // s[1] + 1
    if oh <= 0 or ow <= 0:
        raise ValueError(f"For '{op}', the windows (kernel {list(k)}, dilation {list(d)}) do "
                         f"not fit the padded size {[hp, wp]}.")
    ki, kj = np.meshgrid(np.arange(k[0]) * d[0], np.arange(k[1]) * d[1], indexing="ij")
    oi, oj = np.meshgrid(np.arange(oh) * s[0], np.arange(ow) * s[1], indexing="ij")
    rows = ki.reshape(-1, 1) + oi.reshape(1, -1)
    cols = kj.reshape(-1, 1) + oj.reshape(1, -1)
    return rows, cols, hp, wp


@_composite
def unfold(input: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
           stride: Any = 1) -> Tensor:
    """Sliding windows of the (N, C, H, W) ``input`` as columns: (N, C*kh*kw, L), each
    column one window (zero padding ``padding`` on both sides)."""
    op = "unfold"
    x = F._tensor(input, op, "input")
    if x.ndim != 4:
        raise ValueError(f"For '{op}', 'input' must be 4-D (N, C, H, W), but got shape "
                         f"{list(x.shape)}.")
    k = _ints(kernel_size, 2, op, "kernel_size")
    d = _ints(dilation, 2, op, "dilation")
    p = _ints(padding, 2, op, "padding", lo=0)
    s = _ints(stride, 2, op, "stride")
    n, c, h, w = x.shape
    rows, cols, _, _ = _windows(h, w, k, d, p, s, op)
    xp = F.pad(x, (p[1], p[1], p[0], p[0])) if any(p) else x
    patches = F.getitem(xp, (slice(None), slice(None), Tensor(rows), Tensor(cols)))
    return F.reshape(patches, (n, c * rows.shape[0], rows.shape[1]))


def _fold(cols_: Tensor, output_size: Any, k: tuple, d: tuple, p: tuple, s: tuple,
          op: str) -> Tensor:
    """(N, C, kh*kw, L) columns summed back into (N, C, H, W)."""
    size = _ints(output_size, 2, op, "output_size")
    n, c, kk, length = cols_.shape
    rows, cols, hp, wp = _windows(size[0], size[1], k, d, p, s, op)
    if rows.shape != (kk, length):
        raise ValueError(f"For '{op}', the input holds {kk} window elements and {length} "
                         f"windows, but an output of size {list(size)} with kernel {list(k)}, "
                         f"dilation {list(d)}, padding {list(p)} and stride {list(s)} has "
                         f"{rows.shape[0]} and {rows.shape[1]}.")
    flat = (rows * wp + cols).reshape(-1, 1)
    vals = F.transpose(F.reshape(cols_, (n * c, kk * length)), (1, 0))
    zeros = F.zeros_like(F.broadcast_to(F.reshape(vals[:1], (1, n * c)), (hp * wp, n * c)))
    summed = F.tensor_scatter_add(zeros, Tensor(flat.astype(np.int64)), vals)
    img = F.reshape(F.transpose(summed, (1, 0)), (n, c, hp, wp))
    return F.getitem(img, (slice(None), slice(None), slice(p[0], hp - p[0]),
                           slice(p[1], wp - p[1])))


@_composite
def fold(input: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
         stride: Any = 1) -> Tensor:
    """The adjoint of ``unfold``: (N, C*kh*kw, L) columns summed into (N, C, H, W), where
    windows overlap their values add."""
    op = "fold"
    x = F._tensor(input, op, "input")
    k = _ints(kernel_size, 2, op, "kernel_size")
    if x.ndim != 3 or x.shape[1] % (k[0] * k[1]):
        raise ValueError(f"For '{op}', 'input' must be 3-D (N, C*kh*kw, L) with its axis 1 "
                         f"divisible by {k[0] * k[1]}, but got shape {list(x.shape)}.")
    n, ck, length = x.shape
    cols_ = F.reshape(x, (n, ck // (k[0] * k[1]), k[0] * k[1], length))
    return _fold(cols_, output_size, k, _ints(dilation, 2, op, "dilation"),
                 _ints(padding, 2, op, "padding", lo=0), _ints(stride, 2, op, "stride"), op)


@_composite
def col2im(input_x: Any, output_size: Any, kernel_size: Any, dilation: Any,
           padding_value: Any, stride: Any) -> Tensor:
    """``fold`` of (N, C, kh*kw, L) columns into (N, C, H, W)."""
    op = "col2im"
    x = F._tensor(input_x, op, "input_x")
    k = _ints(kernel_size, 2, op, "kernel_size")
    if x.ndim != 4 or x.shape[2] != k[0] * k[1]:
        raise ValueError(f"For '{op}', 'input_x' must be 4-D (N, C, kh*kw, L) with axis 2 of "
                         f"size {k[0] * k[1]}, but got shape {list(x.shape)}.")
    return _fold(x, output_size, k, _ints(dilation, 2, op, "dilation"),
                 _ints(padding_value, 2, op, "padding_value", lo=0),
                 _ints(stride, 2, op, "stride"), op)


@_composite
def padding(x: Any, pad_dim_size: int = 8) -> Tensor:
    """``x``, whose last axis has size 1, with zeros appended to that axis up to
    ``pad_dim_size``."""
    t_ = F._tensor(x, "padding", "x")
    if t_.ndim == 0 or t_.shape[-1] != 1:
        raise ValueError(f"For 'padding', the last axis of 'x' must have size 1, but got "
                         f"shape {list(t_.shape)}.")
    if not F._is_int(pad_dim_size) or pad_dim_size < 1:
        raise ValueError(f"For 'padding', 'pad_dim_size' must be a positive int, but got "
                         f"{pad_dim_size!r}.")
    F._sizes(tuple(t_.shape[:-1]) + (int(pad_dim_size),), "padding", "pad_dim_size")
    return F.pad(t_, (0, int(pad_dim_size) - 1))


__all__ = ["mirror_pad", "space_to_batch_nd", "batch_to_space_nd", "unfold", "fold", "col2im",
           "padding"]
