"""Convolution and pooling over NCHW: ``conv2d``, ``max_pool2d``, ``avg_pool2d``."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ...core.tensor import Tensor
from ...prims import arith as A
from ...prims import structural as S
from ...prims import conv as CV
from ._args import _public_names, _tensor
from .elementwise import div


def _int_pair(v: Any, op: str, arg: str, allow_four: bool = False) -> tuple:
    """An int or a tuple of 2 ints (or of 4, MindSpore's (1, 1, h, w) form) as (h, w)."""
    vals = (v, v) if isinstance(v, (int, np.integer)) and not isinstance(v, bool) else v
    if isinstance(vals, (tuple, list)) and allow_four and len(vals) == 4:
        vals = tuple(vals[2:])
    if not isinstance(vals, (tuple, list)) or len(vals) != 2 or not builtins.all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in vals):
        raise TypeError(f"For '{op}', '{arg}' must be an int or a tuple of 2 ints, but got "
                        f"{v!r}.")
    return int(vals[0]), int(vals[1])


def _positive(pair: tuple, op: str, arg: str) -> tuple:
    if builtins.min(pair) < 1:
        raise ValueError(f"For '{op}', '{arg}' must be positive, but got {pair}.")
    return pair


def _explicit_padding(padding: Any, op: str) -> tuple:
    """int, (h, w) or (top, bottom, left, right) as ((top, bottom), (left, right))."""
    if isinstance(padding, (int, np.integer)) and not isinstance(padding, bool):
        p = ((int(padding),) * 2,) * 2
    elif isinstance(padding, (tuple, list)) and len(padding) == 2:
        h, w = _int_pair(tuple(padding), op, "padding")
        p = ((h, h), (w, w))
    elif isinstance(padding, (tuple, list)) and len(padding) == 4 and builtins.all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in padding):
        p = ((int(padding[0]), int(padding[1])), (int(padding[2]), int(padding[3])))
    else:
        raise TypeError(f"For '{op}', 'padding' must be an int or a tuple of 2 or 4 ints, but "
                        f"got {padding!r}.")
    if builtins.min(p[0] + p[1]) < 0:
        raise ValueError(f"For '{op}', 'padding' must be non-negative, but got {padding!r}.")
    return p


def _same_padding(hw: tuple, kernel: tuple, stride: tuple, dilation: tuple) -> tuple:
    """'same': output ceil(n / stride); the total padding is split with the extra row or
    column at the end, as MindSpore does."""
    out = []
    for n, k, s, d in zip(hw, kernel, stride, dilation):
        total = builtins.max((-(-n // s) - 1) * s + d * (k - 1) + 1 - n, 0)
        out.append((total // 2, total - total // 2))
    return tuple(out)


def _nchw(x: Tensor, op: str, arg: str = "x") -> None:
    if x.ndim != 4:
        raise ValueError(f"For '{op}', '{arg}' must be 4-D (N, C, H, W), but got shape "
                         f"{list(x.shape)}.")
    if x.dtype.np_dtype.kind != "f":
        raise TypeError(f"For '{op}', '{arg}' must be a float Tensor, but got {x.dtype}.")


def _check_out_size(x: Tensor, kernel: tuple, stride: tuple, padding: tuple, dilation: tuple,
                    op: str) -> None:
    for n, k, s, (lo, hi), d, name in zip(x.shape[2:], kernel, stride, padding, dilation, "HW"):
        if CV.out_size(n, k, s, lo + hi, d) < 1:
            raise ValueError(f"For '{op}', the padded input size {n + lo + hi} along {name} is "
                             f"smaller than the dilated kernel size {d * (k - 1) + 1}; input "
                             f"shape {list(x.shape)}.")


def conv2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, pad_mode: str = "valid",
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """2-D convolution (cross-correlation) of ``input`` (N, C, H, W) with ``weight``
    (O, C / groups, kh, kw). ``pad_mode``: 'valid' (no padding), 'same' (output
    ceil(H / stride)) or 'pad' (explicit ``padding``: int, (h, w) or (top, bottom, left,
    right)); ``padding`` may also be the string 'same' or 'valid'."""
    op = "conv2d"
    x = _tensor(input, op, "input")
    w = _tensor(weight, op, "weight")
    _nchw(x, op, "input")
    _nchw(w, op, "weight")
    _check_kernel(x, w, groups, op)
    return _conv2d(x, w, bias, stride, pad_mode, padding, dilation, groups, op)


def _check_kernel(x: Tensor, w: Tensor, groups: Any, op: str) -> None:
    """Float inputs of one dtype, and channels that fit ``groups`` (any spatial rank)."""
    for t, arg in ((x, "input"), (w, "weight")):
        if t.dtype.np_dtype.kind != "f":
            raise TypeError(f"For '{op}', '{arg}' must be a float Tensor, but got {t.dtype}.")
    if w.dtype != x.dtype:
        raise TypeError(f"For '{op}', 'input' and 'weight' must have the same dtype, but got "
                        f"{x.dtype} and {w.dtype}.")
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 1:
        raise ValueError(f"For '{op}', 'groups' must be a positive int, but got {groups!r}.")
    if x.shape[1] != w.shape[1] * groups or w.shape[0] % groups:
        raise ValueError(f"For '{op}', 'input' has {x.shape[1]} channels but 'weight' of shape "
                         f"{list(w.shape)} with groups={groups} expects "
                         f"{w.shape[1] * groups}, and its {w.shape[0]} output channels must "
                         f"be divisible by groups.")


def _conv2d(x: Tensor, w: Tensor, bias: Any, stride: Any, pad_mode: str, padding: Any,
            dilation: Any, groups: int, op: str) -> Tensor:
    """``conv2d`` of checked 4-D tensors; errors name ``op``."""
    st = _positive(_int_pair(stride, op, "stride", True), op, "stride")
    dl = _positive(_int_pair(dilation, op, "dilation", True), op, "dilation")
    kernel = tuple(w.shape[2:])
    if isinstance(padding, str):
        pad_mode, padding = padding, 0
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode == "same":
        pads = _same_padding(x.shape[2:], kernel, st, dl)
    elif mode in ("valid", "pad"):
        pads = _explicit_padding(padding, op)
        if mode == "valid" and pads != ((0, 0), (0, 0)):
            raise ValueError(f"For '{op}', 'padding' must be 0 when pad_mode is 'valid', but "
                             f"got {padding!r}; use pad_mode='pad'.")
    else:
        raise ValueError(f"For '{op}', 'pad_mode' must be 'same', 'valid' or 'pad', but got "
                         f"{pad_mode!r}.")
    _check_out_size(x, kernel, st, pads, dl, op)
    out = CV.conv2d(x, w, stride=st, padding=pads, dilation=dl, groups=int(groups))
    if bias is not None:
        b = _tensor(bias, op, "bias")
        if b.shape != (w.shape[0],):
            raise ValueError(f"For '{op}', 'bias' must have shape [{w.shape[0]}], but got "
                             f"{list(b.shape)}.")
        out = A.add(out, S.reshape(b, shape=(1, w.shape[0], 1, 1)))
    return out


def _one_int(v: Any, op: str, arg: str) -> int:
    """An int or a tuple / list of one int."""
    if isinstance(v, (tuple, list)):
        if len(v) != 1:
            raise ValueError(f"For '{op}', {arg} must be a tuple or list with 1 element or int, "
                             f"but got {tuple(v)}.")
        v = v[0]
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"For '{op}', {arg} must be a tuple, list or int, but got "
                        f"{type(v)}.")
    return int(v)


def conv1d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, pad_mode: str = "valid",
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """1-D convolution (cross-correlation) of ``input`` (N, C, L) with ``weight``
    (O, C / groups, k): ``conv2d`` over a height of one. ``pad_mode`` 'valid', 'same' or
    'pad' (with ``padding`` an int or a 1-tuple, on both ends)."""
    op = "conv1d"
    x = _tensor(input, op, "input")
    w = _tensor(weight, op, "weight")
    if x.ndim != 3 or w.ndim != 3:
        raise ValueError(f"For '{op}', 'input' and 'weight' must be 3-D, but got shapes "
                         f"{list(x.shape)} and {list(w.shape)}.")
    _check_kernel(x, w, groups, op)
    p = _one_int(padding, op, "padding")
    def lift(t: Tensor) -> Tensor:  # (N, C, L) as (N, C, 1, L)
        return S.reshape(t, shape=(t.shape[0], t.shape[1], 1, t.shape[2]))

    out = _conv2d(lift(x), lift(w), bias,
                  (1, _one_int(stride, op, "stride")), pad_mode, (0, 0, p, p),
                  (1, _one_int(dilation, op, "dilation")), groups, op)
    return S.reshape(out, shape=(out.shape[0], out.shape[1], out.shape[3]))


def _deconv_length(pad_mode: str, n: int, k: int, stride: int, dilation: int, pad: int) -> int:
    """Output length of a transposed convolution along one axis (MindSpore's rule):
    ``n * stride`` for 'same', the full reach of the last window for 'valid', and that less
    the total padding for 'pad'."""
    reach = k + (k - 1) * (dilation - 1)
    if pad_mode == "valid":
        return n * stride + builtins.max(reach - stride, 0)
    if pad_mode == "same":
        return n * stride
    return n * stride - pad + reach - stride


def _conv2d_transpose_to(x: Tensor, weight: Tensor, out_hw: tuple, stride: tuple,
                        pad_mode: str, padding: tuple, dilation: tuple, groups: int) -> Tensor:
    """The transposed 2-D convolution of ``x`` (N, C_in, H, W) with ``weight``
    (C_in, C_out / groups, kh, kw) onto an ``out_hw`` plane: the transpose of the convolution
    from ``out_hw`` down to ``(H, W)`` in ``pad_mode`` (``padding`` (top, bottom, left,
    right) for 'pad'), so differentiable through the conv2d family of primitives."""
    op = "conv2d_transpose"
    kernel = tuple(weight.shape[2:])
    if pad_mode == "same":
        pads = _same_padding(out_hw, kernel, stride, dilation)
    elif pad_mode == "pad":
        pads = ((padding[0], padding[1]), (padding[2], padding[3]))
    else:
        pads = ((0, 0), (0, 0))
    if builtins.min(out_hw) < 1:
        raise ValueError(f"For '{op}', the output size {list(out_hw)} must be positive; input "
                         f"{list(x.shape)}, weight {list(weight.shape)}.")
    if x.shape[1] != weight.shape[0]:
        raise ValueError(f"For '{op}', 'x' has {x.shape[1]} channels but 'weight' of shape "
                         f"{list(weight.shape)} expects {weight.shape[0]}.")
    for n, want, k, s, (lo, hi), d in zip(x.shape[2:], out_hw, kernel, stride, pads, dilation):
        if CV.out_size(want, k, s, lo + hi, d) != n:
            raise ValueError(f"For '{op}', the input {list(x.shape)} does not come from an "
                             f"output of spatial size {list(out_hw)} with kernel {list(kernel)}, "
                             f"stride {list(stride)} and padding {pads}.")
    return CV.conv2d_input_grad(x, weight, in_hw=tuple(out_hw), stride=tuple(stride),
                                padding=pads, dilation=tuple(dilation), groups=int(groups))


def _pool_geometry(x: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
                   ceil_mode: bool, op: str) -> tuple:
    """(kernel, stride, padding incl. ceil-mode overhang, dilation, user padding)."""
    _nchw(x, op)
    k = _positive(_int_pair(kernel_size, op, "kernel_size", True), op, "kernel_size")
    s = k if stride is None else _positive(_int_pair(stride, op, "stride", True), op, "stride")
    d = _positive(_int_pair(dilation, op, "dilation"), op, "dilation")
    p = _int_pair(padding, op, "padding")
    for pi, ki in zip(p, k):
        if pi < 0 or 2 * pi > ki:
            raise ValueError(f"For '{op}', 'padding' must be in [0, kernel_size / 2], but got "
                             f"padding {p} for kernel_size {k}.")
    pads = []
    for n, ki, si, pi, di in zip(x.shape[2:], k, s, p, d):
        span = n + 2 * pi - di * (ki - 1) - 1
        if span < 0:
            raise ValueError(f"For '{op}', the padded input of shape {list(x.shape)} is smaller "
                             f"than the (dilated) kernel {k}.")
        extra = 0
        if ceil_mode:
            o = -(-span // si) + 1
            if (o - 1) * si >= n + pi:  # the last window must start inside the input
                o -= 1
            extra = builtins.max((o - 1) * si + di * (ki - 1) + 1 - (n + 2 * pi), 0)
        pads.append((pi, pi + extra))
    return k, s, tuple(pads), d, p


def max_pool2d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False) -> Any:
    """2-D max pooling over (N, C, H, W). The gradient goes to the first maximum of each
    window; with ``return_indices`` the flat positions (in each H*W plane) come too."""
    x = _tensor(x, "max_pool2d")
    k, s, pads, d, _ = _pool_geometry(x, kernel_size, stride, padding, dilation, ceil_mode,
                                      "max_pool2d")
    out, idx = CV.max_pool2d(x, k, s, pads, d)
    return (out, idx) if return_indices else out


def _pool2d_same(x: Any, kernel_size: Any, strides: Any, kind: str, op: str) -> Tensor:
    """Pooling with TensorFlow/MindSpore 'same' padding (output ceil(H / stride), padding
    split with the extra row at the end); averages count only real elements."""
    x = _tensor(x, op)
    _nchw(x, op)
    k = _positive(_int_pair(kernel_size, op, "kernel_size", True), op, "kernel_size")
    s = _positive(_int_pair(strides, op, "strides", True), op, "strides")
    pads = _same_padding(x.shape[2:], k, s, (1, 1))
    if kind == "max":
        return CV.max_pool2d(x, k, s, pads, (1, 1))[0]
    total = CV.sum_pool2d(x, kernel=k, stride=s, padding=pads)
    counts = np.outer(*(np.minimum(np.arange(o) * si - lo + ki, n) - np.maximum(
        np.arange(o) * si - lo, 0) for n, ki, si, (lo, _), o in
        zip(x.shape[2:], k, s, pads, total.shape[2:])))
    return div(total, Tensor(counts.astype(x.dtype.np_dtype)))


def _window_counts(n: int, k: int, s: int, pad: int, extra: int, include_pad: bool) -> np.ndarray:
    """How many elements each window along one axis averages over."""
    o = (n + 2 * pad + extra - k) // s + 1
    start = np.arange(o) * s - pad
    lo, hi = (-pad, n + pad) if include_pad else (0, n)
    return np.minimum(start + k, hi) - np.maximum(start, lo)


def avg_pool2d(input_x: Any, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: Any = None) -> Tensor:
    """2-D average pooling over (N, C, H, W): window sums (a linear primitive) divided by the
    window size, by the number of real elements (``count_include_pad=False``), or by
    ``divisor_override``."""
    x = _tensor(input_x, "avg_pool2d", "input_x")
    k, s, pads, _, p = _pool_geometry(x, kernel_size, stride, padding, 1, ceil_mode,
                                      "avg_pool2d")
    total = CV.sum_pool2d(x, kernel=k, stride=s, padding=pads)
    if divisor_override:
        return div(total, float(divisor_override))
    ch, cw = (_window_counts(n, ki, si, pi, hi - pi, count_include_pad)
              for n, ki, si, pi, (_, hi) in zip(x.shape[2:], k, s, p, pads))
    counts = np.outer(ch, cw)
    if (counts == counts.flat[0]).all():
        return div(total, float(counts.flat[0]))
    return div(total, Tensor(counts.astype(x.dtype.np_dtype)))


__all__ = _public_names(globals())
