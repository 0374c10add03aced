"""3-D convolution and pooling over ``(N, C, D, H, W)``: ``ops.conv3d``,
``ops.conv3d_transpose``, ``ops.avg_pool3d`` and ``ops.max_pool3d``, composed of the 2-D
primitives (so differentiable to any order, with vmap and GRAPH mode).

A 3-D convolution is one 2-D convolution: the ``kd`` depth taps of every output depth are
stacked into the channels (group-major, so that ``groups`` still works) of a batch of
``N * D_out`` planes. Its transpose is, per depth tap, the 2-D transposed convolution of every
input plane, spread along depth with ``stride`` and shifted by the tap's dilated offset, summed
over the taps. The pools reduce over the depth taps the 2-D pools of the depth slices.
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ..core.tensor import Tensor
from . import functional as F
from .functional import _composite
from .functional.conv import _check_kernel, _conv2d_transpose_to, _same_padding

_AXES = "DHW"


def _tensor5(x: Any, op: str, arg: str) -> Tensor:
    """A 5-D float Tensor with no empty axis (checked here, so that the errors name the 3-D
    operation rather than the 2-D one it is built from)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    if x.ndim != 5:
        raise ValueError(f"For '{op}', '{arg}' must be 5-D (N, C, D, H, W), but got shape "
                         f"{list(x.shape)}.")
    if x.dtype.np_dtype.kind != "f":
        raise TypeError(f"For '{op}', '{arg}' must be a float Tensor, but got {x.dtype}.")
    if 0 in x.shape:
        raise ValueError(f"For '{op}', '{arg}' must not be empty, but got shape "
                         f"{list(x.shape)}.")
    return x


def _same_dtype(x: Tensor, w: Tensor, op: str, a: str) -> None:
    if x.dtype != w.dtype:
        raise TypeError(f"For '{op}', '{a}' and 'weight' must have the same dtype, but got "
                        f"{x.dtype} and {w.dtype}.")


def _triple(v: Any, op: str, arg: str, low: int = 1) -> tuple:
    vals = (v,) * 3 if isinstance(v, (int, np.integer)) and not isinstance(v, bool) else v
    if not isinstance(vals, (tuple, list)) or len(vals) != 3 or not builtins.all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in vals):
        raise TypeError(f"For '{op}', '{arg}' must be an int or a tuple of 3 ints, but got "
                        f"{v!r}.")
    if builtins.min(vals) < low:
        raise ValueError(f"For '{op}', '{arg}' must be >= {low}, but got {v!r}.")
    return tuple(int(i) for i in vals)


def _pads6(padding: Any, op: str) -> tuple:
    """int, (d, h, w) or (head, tail, top, bottom, left, right) as three (lo, hi) pairs."""
    if isinstance(padding, (tuple, list)) and len(padding) == 6:
        vals = tuple(padding)
        if not builtins.all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                            for v in vals):
            raise ValueError(f"For '{op}', 'padding' must be non-negative ints, but got "
                             f"{padding!r}.")
        return ((vals[0], vals[1]), (vals[2], vals[3]), (vals[4], vals[5]))
    d, h, w = _triple(padding, op, "padding", 0)
    return ((d, d), (h, h), (w, w))


def _depth_taps(x: Tensor, kd: int, sd: int, dd: int, do: int) -> list:
    """For each depth tap, the (N, C, D_out, H, W) slice it reads."""
    return [F.getitem(x, (slice(None), slice(None), slice(i * dd, i * dd + sd * (do - 1) + 1,
                                                           sd))) for i in range(kd)]


def conv3d_raw(x: Tensor, w: Tensor, stride: tuple, pads: tuple, dilation: tuple,
               groups: int) -> Tensor:
    """The 3-D convolution with explicit ``pads`` ((head, tail), (top, bottom), (left,
    right)), as one grouped 2-D convolution (see the module docstring)."""
    op = "conv3d"
    n, c, d, h, wd = x.shape
    o, cg, kd, kh, kw = w.shape
    if c != cg * groups or o % groups:
        raise ValueError(f"For '{op}', 'input' has {c} channels but 'weight' of shape "
                         f"{list(w.shape)} with groups={groups} expects {cg * groups}, and its "
                         f"{o} output channels must be divisible by groups.")
    (d0, d1), (h0, h1), (w0, w1) = pads
    (sd, sh, sw), (dd, dh, dw) = stride, dilation
    if d0 or d1:
        x = F.pad(x, (0, 0, 0, 0, d0, d1))
    do = (d + d0 + d1 - dd * (kd - 1) - 1) // sd + 1
    if do < 1:
        raise ValueError(f"For '{op}', the padded depth {d + d0 + d1} is smaller than the "
                         f"dilated kernel depth {dd * (kd - 1) + 1}; input {list(x.shape)}.")
    t = F.stack(_depth_taps(x, kd, sd, dd, do), 1)                  # (N, kd, C, Do, H, W)
    t = F.reshape(t, (n, kd, groups, cg, do, h, wd))
    t = F.reshape(F.transpose(t, (0, 4, 2, 1, 3, 5, 6)), (n * do, groups * kd * cg, h, wd))
    w2 = F.reshape(F.transpose(w, (0, 2, 1, 3, 4)), (o, kd * cg, kh, kw))
    y = F.conv2d(t, w2, None, (sh, sw), "pad", (h0, h1, w0, w1), (dh, dw), groups)
    ho, wo = y.shape[2:]
    return F.transpose(F.reshape(y, (n, do, o, ho, wo)), (0, 2, 1, 3, 4))


def _mode_pads(pad_mode: Any, padding: Any, size: tuple, kernel: tuple, stride: tuple,
               dilation: tuple, op: str) -> tuple:
    if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
        raise ValueError(f"For '{op}', 'pad_mode' must be 'same', 'valid' or 'pad', but got "
                         f"{pad_mode!r}.")
    mode = pad_mode.lower()
    if mode == "same":
        return _same_padding(size, kernel, stride, dilation)
    pads = _pads6(padding, op)
    if mode == "valid" and builtins.any(builtins.any(p) for p in pads):
        raise ValueError(f"For '{op}', 'padding' must be 0 when pad_mode is 'valid', but got "
                         f"{padding!r}.")
    return pads


@_composite
def conv3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1,  # noqa: A002
           pad_mode: str = "valid", padding: Any = 0, dilation: Any = 1,
           groups: int = 1) -> Tensor:
    """3-D convolution (cross-correlation) of ``input`` (N, C, D, H, W) with ``weight``
    (O, C / groups, kd, kh, kw); ``pad_mode`` 'valid', 'same' (output ``ceil(size /
    stride)``) or 'pad' with ``padding`` an int or ``(d, h, w)``."""
    op = "conv3d"
    x, w = _tensor5(input, op, "input"), _tensor5(weight, op, "weight")
    _same_dtype(x, w, op, "input")
    if isinstance(padding, (tuple, list)) and len(padding) != 3:
        raise ValueError(f"For '{op}', 'padding' must be a tuple or list of 3 integers, but "
                         f"got {padding!r}.")
    _check_kernel(x, w, groups, op)
    st, dl = _triple(stride, op, "stride"), _triple(dilation, op, "dilation")
    pads = _mode_pads(pad_mode, padding, x.shape[2:], w.shape[2:], st, dl, op)
    out = conv3d_raw(x, w, st, pads, dl, groups)
    if bias is not None:
        out = F.add(out, F.reshape(bias, (1, w.shape[0], 1, 1, 1)))
    return out


def conv3d_transpose_to(x: Tensor, w: Tensor, out_dhw: tuple, stride: tuple, pads: tuple,
                        dilation: tuple, groups: int) -> Tensor:
    """The transpose of ``conv3d_raw`` from an ``out_dhw`` volume down to ``x``'s: ``x``
    (N, C_in, D, H, W), ``w`` (C_in, C_out / groups, kd, kh, kw)."""
    n, cin, d, h, wd = x.shape
    kd = w.shape[2]
    cout = w.shape[1] * groups
    (d0, d1), (h0, h1), (w0, w1) = pads
    (sd, sh, sw), (dd, dh, dw) = stride, dilation
    depth = out_dhw[0] + d0 + d1
    reach = (d - 1) * sd + 1
    if (kd - 1) * dd + reach > depth:
        raise ValueError(f"For 'conv3d_transpose', the input {list(x.shape)} does not come from "
                         f"an output of depth {out_dhw[0]} with kernel depth {kd}, stride {sd} "
                         f"and padding {(d0, d1)}.")
    planes = F.reshape(F.transpose(x, (0, 2, 1, 3, 4)), (n * d, cin, h, wd))
    total = None
    for i in range(kd):
        y = _conv2d_transpose_to(planes, F.getitem(w, (slice(None), slice(None), i)),
                                 tuple(out_dhw[1:]), (sh, sw), "pad", (h0, h1, w0, w1),
                                 (dh, dw), groups)
        ho, wo = y.shape[2:]
        y = F.transpose(F.reshape(y, (n, d, cout, ho, wo)), (0, 2, 1, 3, 4))
        if sd > 1:  # output depths between the strided ones get nothing from this tap
            spread = F.stack([y] + [F.zeros_like(y)] * (sd - 1), 3)
            y = F.getitem(F.reshape(spread, (n, cout, d * sd, ho, wo)),
                          (slice(None), slice(None), slice(0, reach)))
        front = i * dd
        y = F.pad(y, (0, 0, 0, 0, front, depth - front - reach))
        total = y if total is None else F.add(total, y)
    if d0 or d1:
        total = F.getitem(total, (slice(None), slice(None), slice(d0, d0 + out_dhw[0])))
    return total


def _deconv_size(mode: str, n: int, k: int, s: int, d: int, pad: int, extra: int) -> int:
    reach = d * (k - 1) + 1
    if mode == "same":
        return n * s
    return (n - 1) * s + reach - pad + extra


@_composite
def conv3d_transpose(inputs: Any, weight: Any, pad_mode: str = "valid", padding: Any = 0,
                     stride: Any = 1, dilation: Any = 1, group: int = 1,
                     output_padding: Any = 0) -> Tensor:
    """3-D transposed convolution of ``inputs`` (N, C_in, D, H, W) with ``weight``
    (C_in, C_out / group, kd, kh, kw): the transpose of ``conv3d`` from the output volume
    (``(D - 1) * stride + dilated_k - padding + output_padding`` per axis; ``D * stride`` for
    'same') down to the input's."""
    op = "conv3d_transpose"
    x, w = _tensor5(inputs, op, "inputs"), _tensor5(weight, op, "weight")
    _same_dtype(x, w, op, "inputs")
    if x.shape[1] != w.shape[0]:
        raise ValueError(f"For '{op}', 'inputs' has {x.shape[1]} channels but 'weight' of "
                         f"shape {list(w.shape)} expects {w.shape[0]}.")
    st, dl = _triple(stride, op, "stride"), _triple(dilation, op, "dilation")
    extra = _triple(output_padding, op, "output_padding", 0)
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    kernel = tuple(w.shape[2:])
    if mode == "same":
        out = tuple(n * s for n, s in zip(x.shape[2:], st))
        pads = _same_padding(out, kernel, st, dl)
    else:
        pads = _mode_pads(pad_mode, padding, x.shape[2:], kernel, st, dl, op)
        out = tuple(_deconv_size(mode, n, k, s, d, lo + hi, e) for n, k, s, d, (lo, hi), e in
                    zip(x.shape[2:], kernel, st, dl, pads, extra))
    return conv3d_transpose_to(x, w, out, st, pads, dl, int(group))


def _pool_axes(x: Tensor, kernel: tuple, stride: tuple, pads: tuple, dilation: tuple,
               ceil_mode: bool, op: str) -> tuple:
    """Per axis (lo, hi) padding with the ceil-mode overhang added to hi, and outputs."""
    full, outs = [], []
    for n, k, s, (lo, hi), d, name in zip(x.shape[2:], kernel, stride, pads, dilation, _AXES):
        span = n + lo + hi - d * (k - 1) - 1
        if span < 0:
            raise ValueError(f"For '{op}', the padded input size {n + lo + hi} along {name} is "
                             f"smaller than the dilated kernel {d * (k - 1) + 1}; input shape "
                             f"{list(x.shape)}.")
        o = span // s + 1
        if ceil_mode:
            o = -(-span // s) + 1
            if (o - 1) * s >= n + lo:  # the last window must start inside the input
                o -= 1
        outs.append(o)
        full.append((lo, builtins.max((o - 1) * s + d * (k - 1) + 1 - n - lo, hi)))
    return tuple(full), tuple(outs)


def _planes(t: Tensor) -> tuple:
    """(N, C, D, H, W) as (N, C * D, H, W), and the way back."""
    n, c, d, h, w = t.shape
    return F.reshape(t, (n, c * d, h, w)), (n, c, d)


@_composite
def max_pool3d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """3-D max pooling of (N, C, D, H, W); with ``return_indices`` also the Int64 flat
    positions of the maxima in each ``D * H * W`` volume."""
    op = "max_pool3d"
    x = _tensor5(x, op, "x")
    k = _triple(kernel_size, op, "kernel_size")
    s = k if stride is None else _triple(stride, op, "stride")
    p, d = _triple(padding, op, "padding", 0), _triple(dilation, op, "dilation")
    return _max_pool3d(x, k, s, tuple((v, v) for v in p), d, bool(ceil_mode),
                       bool(return_indices), op)


def _max_pool3d(x: Tensor, k: tuple, s: tuple, pads: tuple, d: tuple, ceil_mode: bool,
                return_indices: bool, op: str) -> Any:
    full, (do, ho, wo) = _pool_axes(x, k, s, pads, d, ceil_mode, op)
    out = _max_pool3d_values(x, k, s, full, d, do)
    # MindSpore's MaxPool3D gives NaN for a window holding one, where its 2-D MaxPool (used
    # above) skips NaN: those windows are found by pooling the NaN mask the same way
    hit = _max_pool3d_values(F.cast(F.isnan(x), x.dtype), k, s, full, d, do)
    out = F.select(F.greater(hit, 0), F.fill(x.dtype, out.shape, float("nan")), out)
    if not return_indices:
        return out
    return out, _max_indices(x.asnumpy(), k, s, full, d, (do, ho, wo))


def _max_pool3d_values(x: Tensor, k: tuple, s: tuple, full: tuple, d: tuple, do: int) -> Tensor:
    (d0, d1), (h0, h1), (w0, w1) = full
    xp = F.pad(x, (w0, w1, h0, h1, d0, d1), "constant", float("-inf"))
    taps = []
    for t in _depth_taps(xp, k[0], s[0], d[0], do):
        flat, (n, c, _) = _planes(t)
        y = F.max_pool2d(flat, k[1:], s[1:], 0, d[1:])
        taps.append(F.reshape(y, (n, c, do) + tuple(y.shape[2:])))
    return F.reduce_max(F.stack(taps, 0), 0)


def _max_indices(a: np.ndarray, k: tuple, s: tuple, pads: tuple, d: tuple,
                 outs: tuple) -> Tensor:
    """Flat positions of the first maximum of every window (NumPy, no gradient)."""
    size = a.shape[2:]
    padded = np.pad(a.astype(np.float64), ((0, 0), (0, 0)) + tuple(pads),
                    constant_values=-np.inf)
    best = np.full(a.shape[:2] + tuple(outs), -np.inf)
    idx = np.zeros(a.shape[:2] + tuple(outs), np.int64)
    grids = np.meshgrid(*(np.arange(o) for o in outs), indexing="ij")
    for tap in np.ndindex(*k):
        start = [g * si + t * di for g, si, t, di in zip(grids, s, tap, d)]
        v = padded[(slice(None), slice(None)) + tuple(start)]
        hit = v > best
        best = np.where(hit, v, best)
        pos = [st - lo for st, (lo, _) in zip(start, pads)]
        flat = (pos[0] * size[1] + pos[1]) * size[2] + pos[2]
        idx = np.where(hit, flat, idx)
    return Tensor(idx)


@_composite
def avg_pool3d(input_x: Any, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: Any = 0) -> Tensor:
    """3-D average pooling of (N, C, D, H, W): window sums divided by the window size (the
    padding counted unless ``count_include_pad`` is False; a ceil-mode overhang never), or by
    ``divisor_override`` when non-zero."""
    op = "avg_pool3d"
    x = _tensor5(input_x, op, "input_x")
    k, s = _triple(kernel_size, op, "kernel_size"), _triple(stride, op, "stride")
    pads = _pads6(padding, op)
    return _avg_pool3d(x, k, s, pads, bool(ceil_mode), bool(count_include_pad),
                       divisor_override, op)


def _avg_pool3d(x: Tensor, k: tuple, s: tuple, pads: tuple, ceil_mode: bool,
                count_include_pad: bool, divisor: Any, op: str) -> Tensor:
    full, outs = _pool_axes(x, k, s, pads, (1, 1, 1), ceil_mode, op)
    (d0, d1), (h0, h1), (w0, w1) = full
    xp = F.pad(x, (w0, w1, h0, h1, d0, d1))
    total = None
    for t in _depth_taps(xp, k[0], s[0], 1, outs[0]):
        flat, (n, c, _) = _planes(t)
        y = F.avg_pool2d(flat, k[1:], s[1:], 0, False, True, 1)  # window sums
        y = F.reshape(y, (n, c, outs[0]) + tuple(y.shape[2:]))
        total = y if total is None else F.add(total, y)
    if divisor:
        return F.div(total, float(divisor))
    counts = []
    for n, ki, si, (lo, hi), o in zip(x.shape[2:], k, s, pads, outs):
        start = np.arange(o) * si - lo
        if count_include_pad:  # the padding counts, a ceil-mode overhang past it does not
            counts.append(np.minimum(start + ki, n + hi) - start)
        else:
            counts.append(np.minimum(start + ki, n) - np.maximum(start, 0))
    grid = np.einsum("i,j,k->ijk", *counts).astype(x.dtype.np_dtype)
    return F.div(total, Tensor(grid))


__all__ = ["conv3d", "conv3d_transpose", "avg_pool3d", "max_pool3d"]
