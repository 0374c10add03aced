"""Convolution and pooling primitives (NCHW), vectorized with im2col.

``conv2d(x, w)`` is bilinear, and its two partial transposes are primitives too:
``conv2d_input_grad(g, w)`` (the transposed convolution, col2im) and
``conv2d_weight_grad(x, g)`` (the correlation of input and output cotangent). Each of the
three has rules written with the three of them, so derivatives of every order stay inside
this family.

Pooling: ``max_pool2d`` is a gather of the input at the window argmax positions (a
no-gradient primitive), so its reverse rule is the transpose of that gather, a scatter, whose
own rule is the gather again. ``sum_pool2d`` (the numerator of average pooling) and its
transpose form the same kind of pair.

Parameters (normalized by the functional front-end): ``stride=(sh, sw)``,
``padding=((top, bottom), (left, right))``, ``dilation=(dh, dw)``, ``groups``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.primitive import Primitive
from ._util import xp_of
from . import structural as S
from .linalg import blas_ready


# --- geometry helpers (arrays only) -------------------------------------------------------
def out_size(n: int, k: int, stride: int, pad: int, dilation: int) -> int:
    """Output length of a window sweep over a padded axis of length n + pad."""
    return (n + pad - dilation * (k - 1) - 1) // stride + 1


def _pad2d(x, padding, value=0):
    (pt, pb), (pl, pr) = padding
    if not (pt or pb or pl or pr):
        return x
    xp = xp_of(x)
    n, c, h, w = x.shape
    out = xp.full((n, c, h + pt + pb, w + pl + pr), value, dtype=x.dtype)
    out[:, :, pt:pt + h, pl:pl + w] = x
    return out


def _windows(xpad, kernel, stride, dilation, out_hw):
    """A view ``(N, C, kh, kw, Ho, Wo)`` of every window element (no copy)."""
    xp = xp_of(xpad)
    n, c = xpad.shape[:2]
    s_n, s_c, s_h, s_w = xpad.strides
    (kh, kw), (sh, sw), (dh, dw), (ho, wo) = kernel, stride, dilation, out_hw
    return xp.lib.stride_tricks.as_strided(
        xpad, shape=(n, c, kh, kw, ho, wo),
        strides=(s_n, s_c, dh * s_h, dw * s_w, sh * s_h, sw * s_w))


def _tap(arr, i, j, stride, dilation, out_hw):
    """The strided slice of a padded plane that kernel tap (i, j) touches."""
    (sh, sw), (dh, dw), (ho, wo) = stride, dilation, out_hw
    return arr[:, :, i * dh:i * dh + sh * (ho - 1) + 1:sh, j * dw:j * dw + sw * (wo - 1) + 1:sw]


def _out_hw(hw, kernel, stride, padding, dilation, name):
    ho = out_size(hw[0], kernel[0], stride[0], padding[0][0] + padding[0][1], dilation[0])
    wo = out_size(hw[1], kernel[1], stride[1], padding[1][0] + padding[1][1], dilation[1])
    if ho < 1 or wo < 1:
        raise ValueError(f"For '{name}', the (padded) input of spatial size {list(hw)} is "
                         f"smaller than the (dilated) kernel {list(kernel)}: the output would "
                         f"be empty.")
    return ho, wo


# --- conv2d and its two transposes --------------------------------------------------------
def _conv2d_impl(x, w, stride, padding, dilation, groups):
    xp = xp_of(x)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    if c != cg * groups or o % groups:
        raise ValueError(f"For 'Conv2D', input channels {c} must equal weight.shape[1] ({cg}) "
                         f"* groups ({groups}) and out channels {o} must be divisible by "
                         f"groups; input {list(x.shape)}, weight {list(w.shape)}.")
    ho, wo = _out_hw((h, wd), (kh, kw), stride, padding, dilation, "Conv2D")
    cols = _windows(_pad2d(x, padding), (kh, kw), stride, dilation, (ho, wo))
    # one im2col copy, laid out so that every (image, group) is a (K, Ho*Wo) matrix whose
    # product with the (O/g, K) weights comes out directly in NCHW order
    cols = cols.reshape(n, groups, cg * kh * kw, ho * wo)
    out = xp.matmul(w.reshape(groups, o // groups, cg * kh * kw), cols)
    return out.reshape(n, o, ho, wo)


def _conv2d_input_grad_impl(g, w, in_hw, stride, padding, dilation, groups):
    """col2im: the cotangent of every window element, summed back onto the input plane."""
    xp = xp_of(g)
    n, o, ho, wo = g.shape
    _, cg, kh, kw = w.shape
    c = cg * groups
    k = cg * kh * kw
    wt = xp.swapaxes(w.reshape(groups, o // groups, k), 1, 2)        # (g, K, O/g)
    g = blas_ready(xp, g)  # a broadcast cotangent (of a sum) would miss BLAS
    cols = xp.matmul(wt, g.reshape(n, groups, o // groups, ho * wo))  # (N, g, K, Ho*Wo)
    cols = cols.reshape(n, c, kh, kw, ho, wo)
    (pt, pb), (pl, pr) = padding
    h, wd = in_hw
    dx = xp.zeros((n, c, h + pt + pb, wd + pl + pr), dtype=np.result_type(g.dtype, w.dtype))
    for i in range(kh):  # kernel taps, each a vectorized strided add over all pixels
        for j in range(kw):
            _tap(dx, i, j, stride, dilation, (ho, wo))[...] += cols[:, :, i, j]
    if pt or pb or pl or pr:
        dx = xp.ascontiguousarray(dx[:, :, pt:pt + h, pl:pl + wd])
    return dx


def _conv2d_weight_grad_impl(x, g, kernel, stride, padding, dilation, groups):
    xp = xp_of(x)
    n, c = x.shape[:2]
    _, o, ho, wo = g.shape
    kh, kw = kernel
    cg = c // groups
    k = cg * kh * kw
    cols = _windows(_pad2d(x, padding), kernel, stride, dilation, (ho, wo))
    # (C, kh, kw, N, Ho, Wo): one copy, then a single GEMM per group over all images
    cols = cols.transpose(1, 2, 3, 0, 4, 5).reshape(groups, k, n * ho * wo)
    gt = blas_ready(xp, g.transpose(1, 0, 2, 3).reshape(groups, o // groups, n * ho * wo))
    dw = xp.matmul(gt, xp.swapaxes(cols, 1, 2))                        # (g, O/g, K)
    return dw.reshape(o, cg, kh, kw)


conv2d = Primitive("Conv2D", _conv2d_impl)
conv2d_input_grad = Primitive("Conv2DBackpropInput", _conv2d_input_grad_impl)
conv2d_weight_grad = Primitive("Conv2DBackpropFilter", _conv2d_weight_grad_impl)


def _hw(x):
    return tuple(S.shape_of(x)[2:])


# --- batching: the examples of a vmap become more images, or more channel groups ----------
def _size(args, dims) -> int:
    return next(S.shape_of(a)[d] for a, d in zip(args, dims) if d is not None)


def _fold(x, d, size):
    """A batched (N, ...) value as (size * N, ...), example-major (broadcast if unbatched)."""
    x = S.broadcast_batch(x, size) if d is None else S.to_front(x, d)
    s = S.shape_of(x)
    return S.reshape(x, shape=(s[0] * s[1],) + s[2:])


def _unfold(y, size):
    """(size * N, ...) back to (size, N, ...)."""
    s = S.shape_of(y)
    return S.reshape(y, shape=(size, s[0] // size) + s[1:])


def _channels(x, d, size):
    """A batched (N, C, H, W) value as (N, size * C, H, W): example b's channels are the b-th
    block, so that a convolution with ``size * groups`` groups keeps the examples apart."""
    if d is None:
        n, c, h, w = S.shape_of(x)
        x = S.broadcast_to(S.reshape(x, shape=(n, 1, c, h, w)), shape=(n, size, c, h, w))
    else:
        x = S.moveaxis(x, d, 1)
    n, _, c, h, w = S.shape_of(x)
    return S.reshape(x, shape=(n, size * c, h, w))


def _split_channels(y, size):
    """(N, size * C, H, W) to (N, size, C, H, W): the batch axis is 1."""
    n, bc, h, w = S.shape_of(y)
    return S.reshape(y, shape=(n, size, bc // size, h, w))


def _batch_conv2d(args, dims, stride, padding, dilation, groups):
    (x, w), (xd, wd) = args, dims
    size = _size(args, dims)
    p = dict(stride=stride, padding=padding, dilation=dilation)
    if wd is None:  # one weight for every example: their images are one bigger batch
        return _unfold(conv2d(_fold(x, xd, size), w, groups=groups, **p), size), 0
    # a weight per example: example b's channels form groups of their own
    out = conv2d(_channels(x, xd, size), _fold(w, wd, size), groups=size * groups, **p)
    return _split_channels(out, size), 1


def _batch_conv2d_input_grad(args, dims, in_hw, stride, padding, dilation, groups):
    (g, w), (gd, wd) = args, dims
    size = _size(args, dims)
    p = dict(in_hw=in_hw, stride=stride, padding=padding, dilation=dilation)
    if wd is None:
        return _unfold(conv2d_input_grad(_fold(g, gd, size), w, groups=groups, **p), size), 0
    out = conv2d_input_grad(_channels(g, gd, size), _fold(w, wd, size),
                            groups=size * groups, **p)
    return _split_channels(out, size), 1


def _batch_conv2d_weight_grad(args, dims, kernel, stride, padding, dilation, groups):
    # the examples' images and cotangents as channel groups: one grouped correlation gives
    # every example's weight cotangent, stacked over the output channels
    (x, g), (xd, gd) = args, dims
    size = _size(args, dims)
    out = conv2d_weight_grad(_channels(x, xd, size), _channels(g, gd, size), kernel=kernel,
                             stride=stride, padding=padding, dilation=dilation,
                             groups=size * groups)
    return _unfold(out, size), 0


conv2d.batch = _batch_conv2d
conv2d_input_grad.batch = _batch_conv2d_input_grad
conv2d_weight_grad.batch = _batch_conv2d_weight_grad


# y = conv(x, w) is bilinear: each partial derivative is the map itself with one argument
# replaced; the transposes are the two *_grad primitives.
conv2d.vjp = (
    lambda g, ans, x, w, **p: conv2d_input_grad(g, w, in_hw=_hw(x), **p),
    lambda g, ans, x, w, **p: conv2d_weight_grad(x, g, kernel=_hw(w), **p))
conv2d.jvp = (
    lambda t, ans, x, w, **p: conv2d(t, w, **p),
    lambda t, ans, x, w, **p: conv2d(x, t, **p))

# dx = C_w^T g:  <h, C_w^T g> = <C_w h, g>, so d/dg -> conv(h, w) and d/dw -> weight_grad(h, g)
conv2d_input_grad.vjp = (
    lambda h, ans, g, w, in_hw, **p: conv2d(h, w, **p),
    lambda h, ans, g, w, in_hw, **p: conv2d_weight_grad(h, g, kernel=_hw(w), **p))
conv2d_input_grad.jvp = (
    lambda t, ans, g, w, in_hw, **p: conv2d_input_grad(t, w, in_hw=in_hw, **p),
    lambda t, ans, g, w, in_hw, **p: conv2d_input_grad(g, t, in_hw=in_hw, **p))

# dw: <h, dw(x, g)> = <g, conv(x, h)>, so d/dx -> input_grad(g, h) and d/dg -> conv(x, h)
conv2d_weight_grad.vjp = (
    lambda h, ans, x, g, kernel, **p: conv2d_input_grad(g, h, in_hw=_hw(x), **p),
    lambda h, ans, x, g, kernel, **p: conv2d(x, h, **p))
conv2d_weight_grad.jvp = (
    lambda t, ans, x, g, kernel, **p: conv2d_weight_grad(t, g, kernel=kernel, **p),
    lambda t, ans, x, g, kernel, **p: conv2d_weight_grad(x, t, kernel=kernel, **p))


# --- max pooling: argmax (no gradient) + gather / scatter over planes ----------------------
def _lowest(dtype):
    return -np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min


def _pool_argmax_impl(x, kernel, stride, padding, dilation):
    """Flat index (into each H*W plane) of the first maximum of every window."""
    xp = xp_of(x)
    h, wd = x.shape[2:]
    kh, kw = kernel
    ho, wo = _out_hw((h, wd), kernel, stride, padding, dilation, "MaxPool")
    xpad = _pad2d(x, padding, _lowest(x.dtype))
    best = arg = None
    tap_dtype = np.int16 if kh * kw < 2 ** 15 else np.int32
    for t in range(kh * kw):  # kernel taps; each step is vectorized over every window
        v = _tap(xpad, t // kw, t % kw, stride, dilation, (ho, wo))
        if best is None:
            best = v.copy()
            arg = xp.zeros(best.shape, dtype=tap_dtype)
            if best.dtype.kind == "f":
                # MindSpore's MaxPool skips NaN: a NaN first tap must not win by never
                # comparing (a window of NaN alone keeps index 0, its NaN)
                nan = xp.isnan(best)
                if xp is not np:  # no host round trip to ask first
                    best = xp.where(nan, xp.asarray(-np.inf, best.dtype), best)
                elif nan.any():
                    best[nan] = -np.inf
            continue
        hit = v > best  # strict: ties keep the first tap, like argmax
        xp.copyto(best, v, where=hit)
        xp.copyto(arg, t, where=hit)
    (sh, sw), (dh, dw), (pt, _), (pl, _) = stride, dilation, padding[0], padding[1]
    base = ((xp.arange(ho) * sh - pt)[:, None] * wd + (xp.arange(wo) * sw - pl)[None, :])
    taps = xp.asarray([(t // kw) * dh * wd + (t % kw) * dw for t in range(kh * kw)],
                      dtype=np.int64)
    return base + taps[arg]


pool_argmax = Primitive("MaxPoolArgmax", _pool_argmax_impl, nondiff=True)
# each image's windows are its own: the examples of a vmap are more images
pool_argmax.batch = lambda args, dims, **p: (
    _unfold(pool_argmax(_fold(args[0], dims[0], _size(args, dims)), **p), _size(args, dims)), 0)


def _flat_index(idx, hw_size):
    xp = xp_of(idx)
    nc = idx.shape[0] * idx.shape[1]
    rows = (xp.arange(nc, dtype=np.int64) * hw_size).reshape(idx.shape[:2] + (1, 1))
    return idx + rows


def _plane_gather_impl(x, idx, disjoint):
    xp = xp_of(x)
    return xp.take(x.reshape(-1), _flat_index(idx, x.shape[2] * x.shape[3]))


def _plane_scatter_impl(g, idx, in_hw, disjoint):
    xp = xp_of(g)
    n, c = g.shape[:2]
    size = n * c * in_hw[0] * in_hw[1]
    flat = _flat_index(idx, in_hw[0] * in_hw[1]).reshape(-1)
    if disjoint:  # no index repeats: plain assignment
        out = xp.zeros(size, dtype=g.dtype)
        out[flat] = g.reshape(-1)
    elif xp is np:  # repeats (overlapping windows share a maximum): one bincount pass
        out = np.bincount(flat, weights=g.reshape(-1), minlength=size).astype(g.dtype,
                                                                               copy=False)
    else:
        # summed in float64 and rounded once, as bincount does on the CPU (add.at: CuPy
        # deprecates cupyx.scatter_add in its favour)
        acc = np.result_type(g.dtype, np.float64) if g.dtype.kind in "fc" else g.dtype
        out = xp.zeros(size, dtype=acc)
        xp.add.at(out, flat, g.reshape(-1).astype(acc, copy=False))
        out = out.astype(g.dtype, copy=False)
    return out.reshape(n, c, in_hw[0], in_hw[1])


# ``disjoint`` says no flat index repeats within a plane (non-overlapping pooling windows),
# which lets the scatter assign instead of accumulate; the gather ignores it.
plane_gather = Primitive("PlaneGather", _plane_gather_impl)
plane_scatter = Primitive("PlaneScatter", _plane_scatter_impl)
plane_gather.vjp = (lambda g, ans, x, idx, disjoint:
                    plane_scatter(g, idx, in_hw=_hw(x), disjoint=disjoint), None)
plane_gather.jvp = (lambda t, ans, x, idx, disjoint:
                    plane_gather(t, idx, disjoint=disjoint), None)
plane_scatter.vjp = (lambda h, ans, g, idx, in_hw, disjoint:
                     plane_gather(h, idx, disjoint=disjoint), None)
plane_scatter.jvp = (lambda t, ans, g, idx, in_hw, disjoint:
                     plane_scatter(t, idx, in_hw=in_hw, disjoint=disjoint), None)


def _batch_planes(prim):
    """Value and plane indices per image: the examples of a vmap are more images (an
    unbatched operand is shared by every example's images)."""
    def rule(args, dims, **params):
        size = _size(args, dims)
        folded = [_fold(a, d, size) for a, d in zip(args, dims)]
        return _unfold(prim(*folded, **params), size), 0
    return rule


plane_gather.batch = _batch_planes(plane_gather)
plane_scatter.batch = _batch_planes(plane_scatter)


def windows_disjoint(kernel: tuple, stride: tuple, dilation: tuple) -> bool:
    """Whether no two pooling windows share an input element."""
    return all(s >= d * (k - 1) + 1 for k, s, d in zip(kernel, stride, dilation))


def max_pool2d(x: Any, kernel: tuple, stride: tuple, padding: tuple,
               dilation: tuple) -> tuple:
    """``(maxima, argmax indices)``: a gather of ``x`` at the window argmax positions, so
    that the reverse rule scatters the cotangent back to exactly those positions."""
    idx = pool_argmax(x, kernel=kernel, stride=stride, padding=padding, dilation=dilation)
    out = plane_gather(x, idx, disjoint=windows_disjoint(kernel, stride, dilation))
    return out, idx


# --- sum pooling (the numerator of average pooling) and its transpose ---------------------
def _sum_pool_impl(x, kernel, stride, padding):
    h, wd = x.shape[2:]
    ho, wo = _out_hw((h, wd), kernel, stride, padding, (1, 1), "AvgPool")
    xpad = _pad2d(x, padding)
    out = _tap(xpad, 0, 0, stride, (1, 1), (ho, wo)).copy()
    for t in range(1, kernel[0] * kernel[1]):  # kernel taps, each vectorized over all pixels
        out += _tap(xpad, t // kernel[1], t % kernel[1], stride, (1, 1), (ho, wo))
    return out


def _sum_pool_transpose_impl(g, in_hw, kernel, stride, padding):
    xp = xp_of(g)
    n, c, ho, wo = g.shape
    (pt, pb), (pl, pr) = padding
    h, wd = in_hw
    dx = xp.zeros((n, c, h + pt + pb, wd + pl + pr), dtype=g.dtype)
    for t in range(kernel[0] * kernel[1]):
        _tap(dx, t // kernel[1], t % kernel[1], stride, (1, 1), (ho, wo))[...] += g
    if pt or pb or pl or pr:
        dx = xp.ascontiguousarray(dx[:, :, pt:pt + h, pl:pl + wd])
    return dx


sum_pool2d = Primitive("SumPool", _sum_pool_impl)
sum_pool2d_transpose = Primitive("SumPoolTranspose", _sum_pool_transpose_impl)
sum_pool2d.vjp = (lambda g, ans, x, **p: sum_pool2d_transpose(g, in_hw=_hw(x), **p),)
sum_pool2d.jvp = (lambda t, ans, x, **p: sum_pool2d(t, **p),)
sum_pool2d_transpose.vjp = (lambda h, ans, g, in_hw, **p: sum_pool2d(h, **p),)
sum_pool2d_transpose.jvp = (lambda t, ans, g, in_hw, **p:
                            sum_pool2d_transpose(t, in_hw=in_hw, **p),)
sum_pool2d.batch = _batch_planes(sum_pool2d)
sum_pool2d_transpose.batch = _batch_planes(sum_pool2d_transpose)
