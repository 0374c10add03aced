"""Sampling an image at computed positions: ``ops.grid_sample`` (and the ``affine_grid``
that makes its grids) and ``ops.crop_and_resize``.

One sampler serves both: the positions (pixel coordinates, differentiable Tensors) are split
into their integer taps (``floor``, which has no gradient) and the fractional weights; each
tap's values are gathered from the flattened image (``take_along``, whose cotangent goes
back to the pixels read), weighted and summed. So the result is differentiable in the image
and in the positions, in every mode, and runs under vmap and GRAPH mode like any
composition. A tap outside the image reads zero."""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..prims import indexing as IX
from . import functional as F
from .functional import _composite
from .sorting import take_along

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _float_tensor(x: Any, op: str, arg: str, ranks: tuple) -> Tensor:
    t = F._tensor(x, op, arg)
    if t.dtype not in _FLOATS:
        raise TypeError(f"For '{op}', '{arg}' must be a float16, float32 or float64 Tensor, "
                        f"but got {t.dtype}.")
    if t.ndim not in ranks:
        raise ValueError(f"For '{op}', '{arg}' must be {' or '.join(map(str, ranks))}-D, but "
                         f"got shape {list(t.shape)}.")
    return t


def _cubic_weights(t: Tensor) -> list:
    """The four weights of Keys' cubic convolution (a = -0.75) at fraction ``t``, for the
    taps at offsets -1, 0, 1, 2."""
    a = -0.75

    def near(s: Any) -> Any:  # |s| <= 1
        return F.add(F.mul(F.mul(F.sub(F.mul(s, a + 2), a + 3), s), s), 1.0)

    def far(s: Any) -> Any:  # 1 < |s| < 2
        return F.sub(F.mul(F.add(F.mul(F.sub(F.mul(s, a), 5 * a), s), 8 * a), s), 4 * a)

    return [far(F.add(t, 1.0)), near(t), near(F.sub(1.0, t)), far(F.sub(2.0, t))]


def sample(x: Tensor, coords: list, mode: str, tap_index: Any = None,
           ceil_hi: bool = False) -> Tensor:
    """``x`` (N, C, *S) read at the positions ``coords`` (one (N, P) Tensor of pixel
    coordinates per spatial axis, in ``x``'s dtype): (N, C, P). ``mode`` 'bilinear' (the
    linear blend of the 2^d surrounding pixels), 'nearest' (the nearest pixel, ties to
    even) or 'bicubic' (4^d pixels). ``tap_index(axis, index)`` may move each tap's integer
    position (padding modes that reflect or clamp each tap); a tap left outside the image
    reads zero. ``ceil_hi``: the upper bilinear tap is ``ceil(pos)`` (TensorFlow's crops), so
    that at a whole position both taps are one pixel and the derivative there is zero."""
    n, c = x.shape[:2]
    sizes = x.shape[2:]
    flat = F.reshape(x, (n, c, -1))
    per_axis = []
    for size, pos in zip(sizes, coords):
        if mode == "nearest":
            per_axis.append([(F.stop_gradient(F.round(pos)), None)])
            continue
        lo = F.stop_gradient(F.floor(pos))
        t = F.sub(pos, lo)
        if mode == "bilinear":
            hi = F.stop_gradient(F.ceil(pos)) if ceil_hi else F.add(lo, 1.0)
            per_axis.append([(lo, F.sub(1.0, t)), (hi, t)])
        else:
            per_axis.append([(F.add(lo, float(k)), w)
                             for k, w in zip((-1, 0, 1, 2), _cubic_weights(t))])
    total = None
    strides = np.cumprod((1,) + tuple(sizes[::-1]))[::-1][1:]
    for taps in itertools.product(*per_axis):
        index, weight, inside = None, None, None
        for axis, ((pos, w), size, stride) in enumerate(zip(taps, sizes, strides)):
            if tap_index is not None:
                pos = tap_index(axis, pos)
            ok = F.logical_and(F.greater_equal(pos, 0.0), F.less_equal(pos, size - 1.0))
            inside = ok if inside is None else F.logical_and(inside, ok)
            # a position outside (or NaN) reads pixel 0 with weight 0
            ip = F.cast(F.select(ok, pos, F.zeros_like(pos)), mstype.int64)
            term = F.mul(ip, int(stride))
            index = term if index is None else F.add(index, term)
            if w is not None:
                weight = w if weight is None else F.mul(weight, w)
        weight = F.cast(inside, x.dtype) if weight is None else \
            F.select(inside, weight, F.zeros_like(weight))
        idx = F.broadcast_to(F.expand_dims(index, 1), (n, c, index.shape[1]))
        term = F.mul(take_along(flat, idx, 2), F.expand_dims(weight, 1))
        total = term if total is None else F.add(total, term)
    return total


def _reflect(pos: Tensor, low2: float, high2: float) -> Tensor:
    """``pos`` reflected into ``[low2 / 2, high2 / 2]`` by mirroring at its ends."""
    if low2 == high2:
        return F.zeros_like(pos)
    lo, span = low2 / 2.0, (high2 - low2) / 2.0
    d = F.abs(F.sub(pos, lo))
    flips = F.stop_gradient(F.floor(F.div(d, span)))
    extra = F.sub(d, F.mul(flips, span))
    even = F.equal(F.sub(flips, F.mul(F.floor(F.div(flips, 2.0)), 2.0)), 0.0)
    return F.select(even, F.add(extra, lo), F.add(F.sub(span, extra), lo))


def _grid_positions(g: Tensor, size: int, padding_mode: str, align: bool) -> Tensor:
    """Normalised grid coordinates in [-1, 1] as pixel coordinates of an axis of ``size``,
    with the padding mode's clamping or reflection (the bicubic mode applies it per tap)."""
    if align:
        pos = F.mul(F.add(g, 1.0), (size - 1) / 2.0)
    else:
        pos = F.div(F.sub(F.mul(F.add(g, 1.0), float(size)), 1.0), 2.0)
    return _pad_position(pos, size, padding_mode, align)


def _pad_position(pos: Tensor, size: int, padding_mode: str, align: bool) -> Tensor:
    if padding_mode == "border":
        return F.clip_by_value(pos, 0.0, size - 1.0)
    if padding_mode == "reflection":
        pos = _reflect(pos, 0.0, 2.0 * (size - 1)) if align else \
            _reflect(pos, -1.0, 2.0 * size - 1.0)
        return F.clip_by_value(pos, 0.0, size - 1.0)
    return pos


@_composite
def grid_sample(input: Any, grid: Any, mode: str = "bilinear",  # noqa: A002
                padding_mode: str = "zeros", align_corners: Any = None) -> Tensor:
    """``input`` (N, C, H, W) or (N, C, D, H, W) read at the normalised positions ``grid``
    (N, H', W', 2) or (N, D', H', W', 3), last axis (x, y[, z]) in [-1, 1]: (N, C, H', W')
    or (N, C, D', H', W'). ``mode`` 'bilinear', 'nearest' or 'bicubic' (4-D only);
    ``padding_mode`` 'zeros', 'border' or 'reflection'; ``align_corners`` makes -1 and 1 the
    centres of the corner pixels rather than their outer edges. Differentiable in both."""
    op = "grid_sample"
    x = _float_tensor(input, op, "input", (4, 5))
    g = _float_tensor(grid, op, "grid", (4, 5))
    if g.dtype != x.dtype:
        raise TypeError(f"For '{op}', 'input' and 'grid' must have the same dtype, but got "
                        f"{x.dtype} and {g.dtype}.")
    d = x.ndim - 2
    if g.ndim != x.ndim or g.shape[0] != x.shape[0] or g.shape[-1] != d:
        raise ValueError(f"For '{op}', 'grid' must have shape (N, *spatial_out, {d}) for an "
                         f"input of shape {list(x.shape)}, but got {list(g.shape)}.")
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"For '{op}', 'mode' must be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got {mode!r}.")
    if mode == "bicubic" and d != 2:
        raise ValueError(f"For '{op}', mode 'bicubic' takes 4-D inputs only, but got shape "
                         f"{list(x.shape)}.")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"For '{op}', 'padding_mode' must be 'zeros', 'border' or "
                         f"'reflection', but got {padding_mode!r}.")
    if align_corners is not None and not isinstance(align_corners, bool):
        raise TypeError(f"For '{op}', 'align_corners' must be a bool or None, but got "
                        f"{type(align_corners).__name__}.")
    if min(x.shape) == 0 or min(g.shape) == 0:
        raise ValueError(f"For '{op}', 'input' and 'grid' must not be empty, but got shapes "
                         f"{list(x.shape)} and {list(g.shape)}.")
    align = bool(align_corners)
    F._sizes(tuple(x.shape[:2]) + tuple(g.shape[1:-1]) + (4 ** d,), op, "grid")
    n, out_shape = x.shape[0], tuple(g.shape[1:-1])
    flat = F.reshape(g, (n, -1, d))
    sizes = x.shape[2:]
    # grid's last axis lists x (width) first: the spatial axes in reverse
    raw = [F.getitem(flat, (slice(None), slice(None), d - 1 - a)) for a in range(d)]
    if mode == "bicubic":
        coords = [_grid_positions(r, s, "zeros", align) for r, s in zip(raw, sizes)]
        tap = None if padding_mode == "zeros" else \
            (lambda a, pos: _pad_position(pos, sizes[a], padding_mode, align))
        out = sample(x, coords, mode, tap)
    else:
        coords = [_grid_positions(r, s, padding_mode, align) for r, s in zip(raw, sizes)]
        out = sample(x, coords, mode)
    return F.reshape(out, (n, x.shape[1]) + out_shape)


def _base_axis(size: int, align: bool, dtype: Any) -> np.ndarray:
    if size == 1:
        return np.zeros(1, dtype)
    if align:
        return np.linspace(-1.0, 1.0, size).astype(dtype)
    return ((2.0 * np.arange(size) + 1.0) / size - 1.0).astype(dtype)


@_composite
def affine_grid(theta: Any, size: Any, align_corners: bool = False) -> Tensor:
    """The sampling grid of the affine maps ``theta`` (N, 2, 3) over an output of ``size``
    (N, C, H, W): (N, H, W, 2), each position ``theta @ (x, y, 1)`` for the normalised output
    coordinates (x, y); or (N, 3, 4) and (N, C, D, H, W) giving (N, D, H, W, 3).
    Differentiable in ``theta``."""
    op = "affine_grid"
    t = _float_tensor(theta, op, "theta", (3,))
    if not isinstance(align_corners, bool):
        raise TypeError(f"For '{op}', 'align_corners' must be a bool, but got "
                        f"{type(align_corners).__name__}.")
    if not isinstance(size, (tuple, list)) or len(size) not in (4, 5) or not all(
            F._is_int(s) and s > 0 for s in size):
        raise ValueError(f"For '{op}', 'size' must be 4 or 5 positive ints (N, C, [D,] H, W), "
                         f"but got {size!r}.")
    d = len(size) - 2
    if tuple(t.shape) != (size[0], d, d + 1):
        raise ValueError(f"For '{op}', 'theta' must have shape {[size[0], d, d + 1]} for size "
                         f"{list(size)}, but got {list(t.shape)}.")
    F._sizes(tuple(size[2:]) + (d + 1,), op, "size")
    dtype = t.dtype.np_dtype
    axes = [_base_axis(int(s), align_corners, dtype) for s in size[2:]]
    mesh = np.meshgrid(*axes, indexing="ij")  # D, H, W order
    base = np.stack([m for m in mesh[::-1]] + [np.ones_like(mesh[0])], -1)  # (x, y, [z,] 1)
    base = Tensor(base.reshape(1, -1, d + 1))
    out = F.matmul(F.broadcast_to(base, (size[0],) + tuple(base.shape[1:])),
                   F.transpose(t, (0, 2, 1)))
    return F.reshape(out, (size[0],) + tuple(int(s) for s in size[2:]) + (d,))


@_composite
def crop_and_resize(image: Any, boxes: Any, box_indices: Any, crop_size: Any,
                    method: str = "bilinear", extrapolation_value: float = 0.0) -> Tensor:
    """Crops of the (batch, H, W, depth) ``image`` resized to ``crop_size`` (ch, cw): one
    (ch, cw, depth) crop per box ``(y1, x1, y2, x2)`` (normalised: 0 and 1 are the first
    and last pixel) of image ``box_indices[k]``, Float32. A crop position outside the image
    is ``extrapolation_value``. ``method`` 'bilinear', 'bilinear_v2' (the same here) or
    'nearest'. Differentiable in the image and the boxes."""
    op = "crop_and_resize"
    img = F._tensor(image, op, "image")
    if img._data.dtype.kind not in "iuf" or img.ndim != 4:
        raise TypeError(f"For '{op}', 'image' must be a 4-D real Tensor, but got "
                        f"{img.dtype} of shape {list(img.shape)}.")
    b = _float_tensor(boxes, op, "boxes", (2,))
    if b.shape[1] != 4:
        raise ValueError(f"For '{op}', 'boxes' must have shape (num_boxes, 4), but got "
                         f"{list(b.shape)}.")
    idx = F._int_tensor(box_indices, op, "box_indices")
    if tuple(idx.shape) != (b.shape[0],):
        raise ValueError(f"For '{op}', 'box_indices' must have shape {[b.shape[0]]}, but got "
                         f"{list(idx.shape)}.")
    if not isinstance(crop_size, (tuple, list)) or len(crop_size) != 2 or not all(
            F._is_int(s) and s > 0 for s in crop_size):
        raise ValueError(f"For '{op}', 'crop_size' must be two positive ints, but got "
                         f"{crop_size!r}.")
    if method not in ("bilinear", "nearest", "bilinear_v2"):
        raise ValueError(f"For '{op}', 'method' must be 'bilinear', 'nearest' or "
                         f"'bilinear_v2', but got {method!r}.")
    if isinstance(extrapolation_value, bool) or not isinstance(extrapolation_value,
                                                               (int, float)):
        raise TypeError(f"For '{op}', 'extrapolation_value' must be a float, but got "
                        f"{type(extrapolation_value).__name__}.")
    batch, h, w, depth = img.shape
    idx = IX.checked_indices(idx, batch, op, "each value of 'box_indices'",
                             what=f" (an image batch of {batch})")
    ch, cw = int(crop_size[0]), int(crop_size[1])
    F._sizes((b.shape[0], depth, ch, cw * 4), op, "crop_size")
    x = F.cast(F.transpose(img, (0, 3, 1, 2)), mstype.float32)
    x = F.gather(x, idx, 0)  # (K, depth, H, W)
    b = F.cast(b, mstype.float32)
    y1, x1, y2, x2 = (F.getitem(b, (slice(None), slice(k, k + 1))) for k in range(4))

    def axis(lo: Tensor, hi: Tensor, n: int, m: int) -> Tensor:
        # TensorFlow's order of operations: lo * (n - 1) + i * ((hi - lo) * (n - 1) / (m - 1))
        if m > 1:
            scale = F.div(F.mul(F.sub(hi, lo), float(n - 1)), float(m - 1))
            step = Tensor(np.arange(m, dtype=np.float32).reshape(1, m))
            return F.add(F.mul(lo, float(n - 1)), F.mul(step, scale))
        return F.mul(F.mul(F.add(lo, hi), 0.5), float(n - 1))  # (K, 1)

    ys, xs = axis(y1, y2, h, ch), axis(x1, x2, w, cw)  # (K, ch), (K, cw)
    k = b.shape[0]
    yy = F.reshape(F.broadcast_to(F.expand_dims(ys, 2), (k, ch, cw)), (k, -1))
    xx = F.reshape(F.broadcast_to(F.expand_dims(xs, 1), (k, ch, cw)), (k, -1))
    if method == "nearest":  # TensorFlow rounds halves away from zero
        def rounded(p: Tensor) -> Tensor:
            return F.stop_gradient(F.floor(F.add(p, 0.5)))
        out = sample(x, [rounded(yy), rounded(xx)], "nearest")
    else:
        out = sample(x, [yy, xx], "bilinear", ceil_hi=True)
    inside = F.logical_and(
        F.logical_and(F.greater_equal(yy, 0.0), F.less_equal(yy, h - 1.0)),
        F.logical_and(F.greater_equal(xx, 0.0), F.less_equal(xx, w - 1.0)))
    out = F.select(F.broadcast_to(F.expand_dims(inside, 1), out.shape), out,
                   F.fill(mstype.float32, out.shape, float(extrapolation_value)))
    return F.transpose(F.reshape(out, (k, depth, ch, cw)), (0, 2, 3, 1))


def _four(v: Any, op: str, arg: str, lo: int, ones_first: bool) -> tuple:
    if not isinstance(v, (tuple, list)) or len(v) != 4 or not all(
            F._is_int(i) and i >= lo for i in v):
        raise ValueError(f"For '{op}', '{arg}' must be a tuple of 4 ints, each at least {lo}, "
                         f"but got {v!r}.")
    if ones_first and (v[0] != 1 or v[1] != 1):
        raise ValueError(f"For '{op}', '{arg}' must be (1, 1, h, w) (N and C set to 1), but "
                         f"got {tuple(v)}.")
    return tuple(int(i) for i in v)


@_composite
def deformable_conv2d(x: Any, weight: Any, offsets: Any, kernel_size: Any, strides: Any,
                      padding: Any, bias: Any = None, dilations: Any = (1, 1, 1, 1),
                      groups: int = 1, deformable_groups: int = 1,
                      modulated: bool = True) -> Tensor:
    """The modulated deformable 2-D convolution of ``x`` (N, C, H, W) with ``weight``
    (O, C / groups, kh, kw): each kernel tap reads ``x`` bilinearly (zero outside) at its
    usual position moved by a learned offset, and is scaled by a learned mask. ``offsets``
    (N, 3 * deformable_groups * kh * kw, H_out, W_out) holds the x offsets of every
    (deformable group, tap), then the y offsets, then the masks; ``strides`` and
    ``dilations`` are ``(1, 1, h, w)``, ``padding`` ``(top, bottom, left, right)``.
    Differentiable in ``x``, ``weight``, ``offsets`` and ``bias``."""
    op = "deformable_conv2d"
    t = _float_tensor(x, op, "x", (4,))
    w = _float_tensor(weight, op, "weight", (4,))
    off = _float_tensor(offsets, op, "offsets", (4,))
    if len({t.dtype, w.dtype, off.dtype}) != 1:
        raise TypeError(f"For '{op}', 'x', 'weight' and 'offsets' must have the same dtype, "
                        f"but got {t.dtype}, {w.dtype} and {off.dtype}.")
    if not isinstance(modulated, bool) or not modulated:
        raise ValueError(f"For '{op}', 'modulated' must be True, but got {modulated!r}.")
    if not isinstance(kernel_size, (tuple, list)) or len(kernel_size) != 2 or not all(
            F._is_int(k) and k > 0 for k in kernel_size):
        raise ValueError(f"For '{op}', 'kernel_size' must be two positive ints, but got "
                         f"{kernel_size!r}.")
    kh, kw = int(kernel_size[0]), int(kernel_size[1])
    _, _, sh, sw = _four(strides, op, "strides", 1, True)
    _, _, dh, dw = _four(dilations, op, "dilations", 1, True)
    top, bottom, left, right = _four(padding, op, "padding", 0, False)
    n, c, h, wd = t.shape
    o = w.shape[0]
    for arg, v in (("groups", groups), ("deformable_groups", deformable_groups)):
        if not F._is_int(v) or v < 1 or c % v:
            raise ValueError(f"For '{op}', '{arg}' must be a positive int dividing the {c} "
                             f"input channels, but got {v!r}.")
    if tuple(w.shape[1:]) != (c // groups, kh, kw) or o % groups:
        raise ValueError(f"For '{op}', 'weight' must have shape (O, {c // groups}, {kh}, {kw}) "
                         f"with O divisible by groups={groups}, but got {list(w.shape)}.")
    ho = (h + top + bottom - dh * (kh - 1) - 1) // sh + 1
    wo = (wd + left + right - dw * (kw - 1) - 1) // sw + 1
    dg, taps = int(deformable_groups), kh * kw
    if ho < 1 or wo < 1 or tuple(off.shape) != (n, 3 * dg * taps, ho, wo):
        raise ValueError(f"For '{op}', 'offsets' must have shape "
                         f"{[n, 3 * dg * taps, ho, wo]} for x {list(t.shape)}, kernel "
                         f"{[kh, kw]}, strides, dilations and padding, but got "
                         f"{list(off.shape)}.")
    F._sizes((n, c, taps, ho * wo), op, "offsets")
    # the undeformed position of every (tap, output pixel), in x's unpadded coordinates
    ki, kj = np.meshgrid(np.arange(kh) * dh, np.arange(kw) * dw, indexing="ij")
    oi, oj = np.meshgrid(np.arange(ho) * sh - top, np.arange(wo) * sw - left, indexing="ij")
    dtype = t.dtype.np_dtype
    base_y = Tensor((ki.reshape(-1, 1, 1) + oi[None]).reshape(1, 1, taps, ho, wo).astype(dtype))
    base_x = Tensor((kj.reshape(-1, 1, 1) + oj[None]).reshape(1, 1, taps, ho, wo).astype(dtype))
    parts = F.reshape(off, (n, 3, dg, taps, ho, wo))
    dx, dy, mask = (F.getitem(parts, (slice(None), k)) for k in range(3))
    ys = F.reshape(F.add(dy, base_y), (n, dg, -1))
    xs = F.reshape(F.add(dx, base_x), (n, dg, -1))
    cg = c // dg
    cols = []
    for g in range(dg):
        xg = F.getitem(t, (slice(None), slice(g * cg, (g + 1) * cg)))
        v = sample(xg, [F.getitem(ys, (slice(None), g)), F.getitem(xs, (slice(None), g))],
                   "bilinear")
        m = F.reshape(F.getitem(mask, (slice(None), g)), (n, 1, -1))
        cols.append(F.mul(v, m))  # (N, cg, taps * P)
    col = F.concat(cols, 1) if dg > 1 else cols[0]
    # the convolution of the sampled taps: per group, weight (O/g, C/g * taps) @ columns
    col = F.reshape(col, (n, groups, (c // groups) * taps, ho * wo))
    wm = F.reshape(w, (1, groups, o // groups, (c // groups) * taps))
    out = F.reshape(F.matmul(F.broadcast_to(wm, (n,) + tuple(wm.shape[1:])), col),
                    (n, o, ho, wo))
    if bias is not None:
        b = F._tensor(bias, op, "bias")
        if tuple(b.shape) != (o,):
            raise ValueError(f"For '{op}', 'bias' must have shape {[o]}, but got "
                             f"{list(b.shape)}.")
        out = F.add(out, F.reshape(b, (1, o, 1, 1)))
    return out


__all__ = ["grid_sample", "affine_grid", "crop_and_resize", "deformable_conv2d"]
