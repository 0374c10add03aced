"""MindSpore's operator classes of the neural-network layers whose constructor or outputs
differ from the functional operators': the loss classes with two outputs
(``SoftmaxCrossEntropyWithLogits``, ``NLLLoss``), normalizations (``LayerNorm``,
``L2Normalize``), the TensorFlow-style resizes (``ResizeBilinearV2``,
``ResizeNearestNeighbor``), the transposed convolution ``Conv2DBackpropInput``, the 3-D
convolutions and poolings, the poolings with indices, and the dropouts with their masks.
Each is a composition of the differentiable functions of ``mindgrad.ops``."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...prims.random import draw
from .. import functional as F
from .. import families
from .. import pooling_functions as PF
from .. import volume_functions as VF
from ..functional.conv import _conv2d_transpose_to
from ..primitive import Primitive

_fn = families.function


def _number(op: str, name: str, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"For '{op}', '{name}' must be a float, but got {type(v).__name__}.")
    return float(v)


def _choice(op: str, name: str, v: Any, allowed: tuple) -> str:
    if not isinstance(v, str) or v not in allowed:
        raise ValueError(f"For '{op}', '{name}' must be one of {list(allowed)}, but got {v!r}.")
    return v


class SoftmaxCrossEntropyWithLogits(Primitive):
    """``SoftmaxCrossEntropyWithLogits()(logits, labels)`` of shapes (N, C): the tuple
    ``(loss, backprop)``, ``loss[n] = -sum(labels[n] * log_softmax(logits[n]))`` and
    ``backprop = softmax(logits) - labels`` (the loss's gradient, without one of its own)."""

    def __call__(self, logits: Any, labels: Any) -> tuple:
        op = "SoftmaxCrossEntropyWithLogits"
        x, y = F._tensor(logits, op, "logits"), F._tensor(labels, op, "labels")
        if not x.dtype.is_floating:
            raise TypeError(f"For '{op}', 'logits' must be a float Tensor, but got {x.dtype}.")
        if x.ndim != 2 or tuple(x.shape) != tuple(y.shape):
            raise ValueError(f"For '{op}', 'logits' and 'labels' must be 2-D of one shape, "
                             f"but got {list(x.shape)} and {list(y.shape)}.")
        y = F.cast(y, x.dtype)
        loss = F.neg(F.reduce_sum(F.mul(y, F.log_softmax(x, -1)), -1))
        backprop = F.stop_gradient(F.sub(F.softmax(x, -1), y))
        return loss, backprop


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """``SparseSoftmaxCrossEntropyWithLogits(is_grad=False)(logits, labels)``: the mean over
    the batch of ``-log_softmax(logits)[n, labels[n]]``; with ``is_grad`` its gradient
    ``(softmax(logits) - one_hot(labels)) / N`` instead."""

    def __init__(self, is_grad: bool = False) -> None:
        super().__init__()
        self.is_grad = F._flag(is_grad, "SparseSoftmaxCrossEntropyWithLogits", "is_grad")

    def __call__(self, logits: Any, labels: Any) -> Tensor:
        op = "SparseSoftmaxCrossEntropyWithLogits"
        x = F._tensor(logits, op, "logits")
        t = F._tensor(labels, op, "labels")
        if not x.dtype.is_floating:
            raise TypeError(f"For '{op}', 'logits' must be a float Tensor, but got {x.dtype}.")
        if x.ndim < 1 or tuple(t.shape) != tuple(x.shape[:-1]) or t.dtype.is_floating:
            raise ValueError(f"For '{op}', 'labels' must be integers of shape "
                             f"{list(x.shape[:-1])} for 'logits' of shape {list(x.shape)}, "
                             f"but got {t.dtype} of shape {list(t.shape)}.")
        hot = F.one_hot(t, x.shape[-1], Tensor(np.array(1, x.dtype.np_dtype)),
                        Tensor(np.array(0, x.dtype.np_dtype)), -1)
        n = max(int(np.prod(t.shape)), 1)
        if self.is_grad:
            return F.stop_gradient(F.div(F.sub(F.softmax(x, -1), hot), float(n)))
        return F.neg(F.div(F.reduce_sum(F.mul(hot, F.log_softmax(x, -1))), float(n)))


class SigmoidCrossEntropyWithLogits(Primitive):
    """``SigmoidCrossEntropyWithLogits()(logits, label)``: the elementwise binary cross
    entropy of ``sigmoid(logits)`` against ``label`` (no reduction)."""

    def __call__(self, logits: Any, label: Any) -> Tensor:
        return _fn("binary_cross_entropy_with_logits")(logits, label, None, None, "none")


class NLLLoss(Primitive):
    """``NLLLoss(reduction='mean', ignore_index=-100)(logits, labels, weight)``: the tuple
    ``(loss, total_weight)``, ``total_weight`` the sum of the weights of the counted
    labels."""

    def __init__(self, reduction: str = "mean", ignore_index: int = -100) -> None:
        super().__init__()
        self.reduction = _choice("NLLLoss", "reduction", reduction, ("none", "mean", "sum"))
        if not F._is_int(ignore_index):
            raise TypeError(f"For 'NLLLoss', 'ignore_index' must be an int, but got "
                            f"{type(ignore_index).__name__}.")
        self.ignore_index = int(ignore_index)

    def __call__(self, logits: Any, labels: Any, weight: Any) -> tuple:
        op = "NLLLoss"
        x, t = F._tensor(logits, op, "logits"), F._tensor(labels, op, "labels")
        w = F._tensor(weight, op, "weight")
        if x.ndim != 2 or tuple(t.shape) != (x.shape[0],) or tuple(w.shape) != (x.shape[1],):
            raise ValueError(f"For '{op}', expected 'logits' (N, C), 'labels' (N,) and "
                             f"'weight' (C,), but got {list(x.shape)}, {list(t.shape)} and "
                             f"{list(w.shape)}.")
        loss = _fn("nll_loss")(x, t, w, self.ignore_index, self.reduction)
        kept = F.cast(F.not_equal(t, self.ignore_index), x.dtype)
        safe = F.select(F.not_equal(t, self.ignore_index), t, F.zeros_like(t))
        total = F.reduce_sum(F.mul(F.gather(F.stop_gradient(w), safe, 0), kept))
        return loss, total


class L2Loss(Primitive):
    """``L2Loss()(input)``: ``sum(input ** 2) / 2``."""

    def __call__(self, input: Any) -> Tensor:  # noqa: A002
        x = F._tensor(input, "L2Loss", "input")
        if not x.dtype.is_floating:
            raise TypeError(f"For 'L2Loss', 'input' must be a float Tensor, but got {x.dtype}.")
        return F.div(F.reduce_sum(F.square(x)), 2.0)


class L2Normalize(Primitive):
    """``L2Normalize(axis=0, epsilon=1e-4)(x)``: ``x / sqrt(max(sum(x ** 2, axis),
    epsilon))``."""

    def __init__(self, axis: Any = 0, epsilon: float = 1e-4) -> None:
        super().__init__()
        axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        if len(axis) != 1 or not F._is_int(axis[0]):
            raise TypeError(f"For 'L2Normalize', 'axis' must be an int, but got {axis!r}.")
        self.axis = axis[0]
        self.epsilon = _number("L2Normalize", "epsilon", epsilon)

    def __call__(self, x: Any) -> Tensor:
        x = F._tensor(x, "L2Normalize")
        sq = F.reduce_sum(F.square(x), F._axis(self.axis, x.ndim, "L2Normalize"), True)
        return F.div(x, F.sqrt(F.maximum(sq, self.epsilon)))


class LayerNorm(Primitive):
    """``LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(input_x, gamma,
    beta)``: normalization over the axes from ``begin_norm_axis`` on, scaled by ``gamma``
    and shifted by ``beta`` (of the shape of the axes from ``begin_params_axis`` on); the
    tuple ``(output, mean, variance)``, the statistics kept as axes of length 1."""

    def __init__(self, begin_norm_axis: int = 1, begin_params_axis: int = 1,
                 epsilon: float = 1e-7) -> None:
        super().__init__()
        for name, v in (("begin_norm_axis", begin_norm_axis),
                        ("begin_params_axis", begin_params_axis)):
            if not F._is_int(v):
                raise TypeError(f"For 'LayerNorm', '{name}' must be an int, but got "
                                f"{type(v).__name__}.")
        self.begin_norm_axis, self.begin_params_axis = begin_norm_axis, begin_params_axis
        self.epsilon = _number("LayerNorm", "epsilon", epsilon)

    def __call__(self, input_x: Any, gamma: Any, beta: Any) -> tuple:
        op = "LayerNorm"
        x = F._tensor(input_x, op, "input_x")
        g, b = F._tensor(gamma, op, "gamma"), F._tensor(beta, op, "beta")
        start = F._axis(self.begin_norm_axis, x.ndim, op)
        pstart = F._axis(self.begin_params_axis, x.ndim, op)
        want = tuple(x.shape[pstart:])
        if tuple(g.shape) != want or tuple(b.shape) != want:
            raise ValueError(f"For '{op}', 'gamma' and 'beta' must have the shape {list(want)} "
                             f"(the axes of 'input_x' {list(x.shape)} from "
                             f"begin_params_axis), but got {list(g.shape)} and "
                             f"{list(b.shape)}.")
        axes = tuple(range(start, x.ndim))
        mean = F.reduce_mean(x, axes, True)
        var = F.reduce_mean(F.square(F.sub(x, mean)), axes, True)
        rstd = F.rsqrt(F.add(var, self.epsilon))
        y = F.add(F.mul(F.mul(F.sub(x, mean), rstd), g), b)
        return y, mean, var


def _resize_rows(n: int, m: int, align_corners: bool, half_pixel: bool) -> tuple:
    """TensorFlow's source positions of ``m`` outputs over ``n`` inputs (its three
    conventions) as (lower, upper, weight of upper)."""
    if align_corners and m > 1:
        src = np.arange(m) * ((n - 1) / (m - 1))
    elif half_pixel:
        src = (np.arange(m) + 0.5) * (n / m) - 0.5
    else:
        src = np.arange(m) * (n / m)
    floor = np.floor(src)
    lo = np.clip(floor, 0, n - 1).astype(np.int64)
    hi = np.clip(floor + 1, 0, n - 1).astype(np.int64)
    return lo, hi, src - floor


def _nearest_rows(n: int, m: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    if align_corners and m > 1:
        src = np.floor(np.arange(m) * ((n - 1) / (m - 1)) + 0.5)  # halves round up
    elif half_pixel:
        src = np.floor((np.arange(m) + 0.5) * (n / m))
    else:
        src = np.floor(np.arange(m) * (n / m))
    return np.clip(src, 0, n - 1).astype(np.int64)


def _size_pair(op: str, size: Any) -> tuple:
    if isinstance(size, Tensor):
        size = tuple(int(v) for v in size.asnumpy().reshape(-1))
    if not isinstance(size, (tuple, list)) or len(size) != 2 or not all(
            F._is_int(v) and v > 0 for v in size):
        raise ValueError(f"For '{op}', 'size' must be two positive ints, but got {size!r}.")
    return tuple(int(v) for v in size)


class _TFResize(Primitive):
    def __init__(self, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        op = type(self).__name__
        self.align_corners = F._flag(align_corners, op, "align_corners")
        self.half_pixel_centers = F._flag(half_pixel_centers, op, "half_pixel_centers")
        if self.align_corners and self.half_pixel_centers:
            raise ValueError(f"For '{op}', 'align_corners' and 'half_pixel_centers' can not "
                             f"both be True.")

    def _resize(self, x: Any, size: Any) -> Tensor:
        op = type(self).__name__
        x = F._tensor(x, op)
        if x.ndim != 4:
            raise ValueError(f"For '{op}', 'x' must be 4-D (N, C, H, W), but got shape "
                             f"{list(x.shape)}.")
        out = x
        for axis, m in zip((2, 3), _size_pair(op, size)):
            out = self._axis(out, axis, m)
        return out


class ResizeBilinearV2(_TFResize):
    """``ResizeBilinearV2(align_corners=False, half_pixel_centers=False)(x, size)``:
    bilinear resizing of the (N, C, H, W) input to ``size`` (H', W') with TensorFlow's
    source positions (``i * H / H'``; ``(i + 0.5) * H / H' - 0.5`` with half-pixel centers;
    ``i * (H - 1) / (H' - 1)`` with aligned corners)."""

    def _axis(self, x: Tensor, axis: int, m: int) -> Tensor:
        lo, hi, w = _resize_rows(x.shape[axis], m, self.align_corners, self.half_pixel_centers)
        shape = [1] * x.ndim
        shape[axis] = m
        w = Tensor(w.reshape(shape).astype(x.dtype.np_dtype))
        a, b = F.gather(x, Tensor(lo), axis), F.gather(x, Tensor(hi), axis)
        return F.add(a, F.mul(F.sub(b, a), w))

    def __call__(self, x: Any, size: Any) -> Tensor:
        return self._resize(x, size)


class ResizeNearestNeighborV2(_TFResize):
    """``ResizeNearestNeighborV2(align_corners=False, half_pixel_centers=False)(x, size)``:
    nearest-neighbour resizing of (N, C, H, W) with TensorFlow's source positions."""

    def _axis(self, x: Tensor, axis: int, m: int) -> Tensor:
        rows = _nearest_rows(x.shape[axis], m, self.align_corners, self.half_pixel_centers)
        return F.gather(x, Tensor(rows), axis)

    def __call__(self, x: Any, size: Any) -> Tensor:
        return self._resize(x, size)


class ResizeNearestNeighbor(ResizeNearestNeighborV2):
    """``ResizeNearestNeighbor(size, align_corners=False, half_pixel_centers=False)(input_x)``:
    ``ResizeNearestNeighborV2`` with the size given to the constructor."""

    def __init__(self, size: Any, align_corners: bool = False,
                 half_pixel_centers: bool = False) -> None:
        super().__init__(align_corners, half_pixel_centers)
        self.size = _size_pair("ResizeNearestNeighbor", size)

    def __call__(self, input_x: Any) -> Tensor:  # type: ignore[override]
        return self._resize(input_x, self.size)


def _pads4(op: str, pad: Any) -> tuple:
    if not F._is_int(pad) and not isinstance(pad, (tuple, list)):
        raise TypeError(f"For '{op}', 'pad' must be an int or a tuple of ints, but got "
                        f"{type(pad).__name__}.")
    p = (pad,) * 4 if F._is_int(pad) else tuple(pad)
    if len(p) != 4 or not all(F._is_int(v) and v >= 0 for v in p):
        raise ValueError(f"For '{op}', 'pad' must be a non-negative int or 4 of them, but "
                         f"got {pad!r}.")
    return p


class Conv2DBackpropInput(Primitive):
    """``Conv2DBackpropInput(out_channel, kernel_size, pad_mode='valid', pad=0,
    pad_list=None, mode=1, stride=1, dilation=1, group=1, data_format='NCHW')(dout, weight,
    input_size)``: the gradient of ``Conv2D`` with respect to its input of shape
    ``input_size``, i.e. the transposed convolution of ``dout`` (N, out_channel, H', W')
    with ``weight`` (out_channel, C / group, kh, kw)."""

    def __init__(self, out_channel: int, kernel_size: Any, pad_mode: str = "valid",
                 pad: Any = 0, pad_list: Any = None, mode: int = 1, stride: Any = 1,
                 dilation: Any = 1, group: int = 1, data_format: str = "NCHW") -> None:
        super().__init__()
        op = type(self).__name__
        if data_format != "NCHW":
            raise ValueError(f"For '{op}', only data_format 'NCHW' is supported, but got "
                             f"{data_format!r}.")
        self.out_channel = out_channel
        self.kernel_size = F._int_pair(kernel_size, op, "kernel_size")
        mode_ = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
        self.pad_mode = _choice(op, "pad_mode", mode_, ("valid", "same", "pad"))
        self.pad = _pads4(op, pad if pad_list is None else pad_list)
        self.pad_list, self.mode = pad_list, mode
        self.stride = self._pair(stride, "stride")
        self.dilation = self._pair(dilation, "dilation")
        self.group = group

    def _pair(self, v: Any, name: str) -> tuple:
        p = F._int_pair(v if F._is_int(v) or len(v) != 4 else tuple(v[2:]),
                        type(self).__name__, name)
        return tuple(p)

    def __call__(self, dout: Any, weight: Any, input_size: Any) -> Tensor:
        op = type(self).__name__
        d, w = F._tensor(dout, op, "dout"), F._tensor(weight, op, "weight")
        if isinstance(input_size, Tensor):
            input_size = tuple(int(v) for v in input_size.asnumpy().reshape(-1))
        if not isinstance(input_size, (tuple, list)) or len(input_size) != 4:
            raise ValueError(f"For '{op}', 'input_size' must be 4 ints (N, C, H, W), but got "
                             f"{input_size!r}.")
        if d.ndim != 4 or w.ndim != 4 or d.shape[1] != w.shape[0] or \
                w.shape[0] != self.out_channel or tuple(w.shape[2:]) != self.kernel_size:
            raise ValueError(f"For '{op}', 'dout' {list(d.shape)} and 'weight' "
                             f"{list(w.shape)} do not match out_channel={self.out_channel} "
                             f"and kernel_size={self.kernel_size}.")
        if w.shape[1] * self.group != input_size[1] or d.shape[0] != input_size[0]:
            raise ValueError(f"For '{op}', 'input_size' {list(input_size)} does not match "
                             f"'dout' {list(d.shape)}, 'weight' {list(w.shape)} and "
                             f"group={self.group}.")
        return _conv2d_transpose_to(d, w, tuple(input_size[2:]), self.stride, self.pad_mode,
                                    self.pad, self.dilation, self.group)


class Conv2DTranspose(Conv2DBackpropInput):
    """``Conv2DTranspose``: MindSpore's other name of ``Conv2DBackpropInput``."""


def _triple(op: str, name: str, v: Any, tail: bool = True) -> tuple:
    if F._is_int(v):
        return (int(v),) * 3
    if not isinstance(v, (tuple, list)):
        raise TypeError(f"For '{op}', '{name}' must be an int or a tuple of 3 ints, but got "
                        f"{type(v).__name__}.")
    v = tuple(v)
    if len(v) == 5 and tail:
        v = v[2:]
    if len(v) != 3 or not all(F._is_int(i) for i in v):
        raise ValueError(f"For '{op}', '{name}' must be an int or 3 ints, but got {v!r}.")
    return tuple(int(i) for i in v)


def _pads6(op: str, pad: Any) -> tuple:
    if not F._is_int(pad) and not isinstance(pad, (tuple, list)):
        raise TypeError(f"For '{op}', 'pad' must be an int or a tuple of ints, but got "
                        f"{type(pad).__name__}.")
    p = (pad,) * 6 if F._is_int(pad) else tuple(pad)
    if len(p) == 3:
        p = tuple(v for v in p for _ in (0, 1))
    if len(p) != 6 or not all(F._is_int(v) and v >= 0 for v in p):
        raise ValueError(f"For '{op}', 'pad' must be a non-negative int, 3 or 6 of them, but "
                         f"got {pad!r}.")
    return p


def _symmetric(op: str, p: tuple) -> tuple:
    if p[0::2] != p[1::2]:
        raise ValueError(f"For '{op}', mindgrad takes equal padding at both ends of an axis, "
                         f"but got {list(p)}.")
    return p[0::2]


def _conv3d_options(prim: Primitive, op: str, kernel_size: Any, pad_mode: Any, pad: Any,
                    stride: Any, dilation: Any, data_format: str) -> None:
    """Check and keep the options the 3-D convolution classes share."""
    if data_format != "NCDHW":
        raise ValueError(f"For '{op}', only data_format 'NCDHW' is supported, but got "
                         f"{data_format!r}.")
    prim.kernel_size = _triple(op, "kernel_size", kernel_size, False)
    prim.pad_mode = _choice(op, "pad_mode", pad_mode.lower() if isinstance(pad_mode, str)
                            else pad_mode, ("valid", "same", "pad"))
    prim.pad = _pads6(op, pad)
    prim.stride = _triple(op, "stride", stride)
    prim.dilation = _triple(op, "dilation", dilation)


class Conv3D(Primitive):
    """``Conv3D(out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1,
    dilation=1, group=1, data_format='NCDHW')(x, weight, bias=None)``."""

    def __init__(self, out_channel: int, kernel_size: Any, mode: int = 1,
                 pad_mode: str = "valid", pad: Any = 0, stride: Any = 1, dilation: Any = 1,
                 group: int = 1, data_format: str = "NCDHW") -> None:
        super().__init__()
        _conv3d_options(self, "Conv3D", kernel_size, pad_mode, pad, stride, dilation,
                        data_format)
        self.out_channel, self.mode, self.group = out_channel, mode, group

    def __call__(self, x: Any, weight: Any, bias: Any = None) -> Tensor:
        w = F._tensor(weight, "Conv3D", "weight")
        if w.ndim != 5 or w.shape[0] != self.out_channel or \
                tuple(w.shape[2:]) != self.kernel_size:
            raise ValueError(f"For 'Conv3D', the weight of shape {list(w.shape)} does not "
                             f"match out_channel={self.out_channel} and kernel_size="
                             f"{self.kernel_size}.")
        padding = _symmetric("Conv3D", self.pad) if self.pad_mode == "pad" else 0
        return VF.conv3d(x, w, bias, self.stride, self.pad_mode, padding, self.dilation,
                         self.group)


class Conv3DTranspose(Primitive):
    """``Conv3DTranspose(in_channel, out_channel, kernel_size, mode=1, pad_mode='valid',
    pad=0, stride=1, dilation=1, group=1, output_padding=0, data_format='NCDHW')(dout,
    weight, bias=None)``."""

    def __init__(self, in_channel: int, out_channel: int, kernel_size: Any, mode: int = 1,
                 pad_mode: str = "valid", pad: Any = 0, stride: Any = 1, dilation: Any = 1,
                 group: int = 1, output_padding: Any = 0, data_format: str = "NCDHW") -> None:
        super().__init__()
        _conv3d_options(self, "Conv3DTranspose", kernel_size, pad_mode, pad, stride, dilation,
                        data_format)
        self.in_channel, self.out_channel, self.mode = in_channel, out_channel, mode
        self.group = group
        self.output_padding = _triple("Conv3DTranspose", "output_padding", output_padding)

    def __call__(self, dout: Any, weight: Any, bias: Any = None) -> Tensor:
        if bias is not None:
            raise ValueError("For 'Conv3DTranspose', 'bias' must be None (as in MindSpore).")
        w = F._tensor(weight, "Conv3DTranspose", "weight")
        if w.ndim != 5 or w.shape[0] != self.in_channel or \
                w.shape[1] * self.group != self.out_channel:
            raise ValueError(f"For 'Conv3DTranspose', the weight of shape {list(w.shape)} does "
                             f"not match in_channel={self.in_channel}, out_channel="
                             f"{self.out_channel} and group={self.group}.")
        return VF.conv3d_transpose(dout, w, self.pad_mode, self.pad, self.stride,
                                   self.dilation, self.group, self.output_padding)


class AdaptiveAvgPool2D(Primitive):
    """``AdaptiveAvgPool2D(output_size)(input_x)``."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def __call__(self, input_x: Any) -> Tensor:
        return PF.adaptive_avg_pool2d(input_x, self.output_size)


class AdaptiveMaxPool2D(AdaptiveAvgPool2D):
    """``AdaptiveMaxPool2D(output_size)(input_x)``: the tuple ``(y, argmax)``, ``argmax`` the
    Int64 position of each maximum in its H*W plane."""

    def __call__(self, input_x: Any) -> tuple:
        return PF.adaptive_max_pool2d(input_x, self.output_size, True)


def _pool3d_args(op: str, kernel_size: Any, strides: Any, pad_mode: str, pad: Any) -> tuple:
    mode = _choice(op, "pad_mode", pad_mode.lower() if isinstance(pad_mode, str) else pad_mode,
                   ("valid", "pad"))
    p = _symmetric(op, _pads6(op, pad)) if mode == "pad" else (0, 0, 0)
    return (_triple(op, "kernel_size", kernel_size), _triple(op, "strides", strides), mode, p)


class AvgPool3D(Primitive):
    """``AvgPool3D(kernel_size=1, strides=1, pad_mode='valid', pad=0, ceil_mode=False,
    count_include_pad=True, divisor_override=0, data_format='NCDHW')(x)`` ('valid' or 'pad'
    padding)."""

    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid",
                 pad: Any = 0, ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int = 0, data_format: str = "NCDHW") -> None:
        super().__init__()
        self.kernel_size, self.strides, self.pad_mode, self.pad = _pool3d_args(
            "AvgPool3D", kernel_size, strides, pad_mode, pad)
        self.ceil_mode = F._flag(ceil_mode, "AvgPool3D", "ceil_mode")
        self.count_include_pad = F._flag(count_include_pad, "AvgPool3D", "count_include_pad")
        self.divisor_override, self.data_format = divisor_override, data_format

    def __call__(self, x: Any) -> Tensor:
        return VF.avg_pool3d(x, self.kernel_size, self.strides, self.pad, self.ceil_mode,
                             self.count_include_pad, self.divisor_override)


class MaxPool3D(Primitive):
    """``MaxPool3D(kernel_size=1, strides=1, pad_mode='VALID', pad_list=0, ceil_mode=None,
    data_format='NCDHW')(x)`` ('valid' or 'pad' padding)."""

    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "VALID",
                 pad_list: Any = 0, ceil_mode: Any = None, data_format: str = "NCDHW") -> None:
        super().__init__()
        self.kernel_size, self.strides, self.pad_mode, self.pad_list = _pool3d_args(
            "MaxPool3D", kernel_size, strides, pad_mode, pad_list)
        self.ceil_mode, self.data_format = bool(ceil_mode), data_format

    def __call__(self, x: Any) -> Tensor:
        return VF.max_pool3d(x, self.kernel_size, self.strides, self.pad_list, 1,
                             self.ceil_mode)


class MaxPoolWithArgmax(Primitive):
    """``MaxPoolWithArgmax(kernel_size=1, strides=1, pad_mode='valid',
    data_format='NCHW')(x)``: the tuple ``(output, mask)``, ``mask`` the Int32 position of
    each maximum in its sample's C*H*W values ('valid' padding)."""

    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid",
                 data_format: str = "NCHW") -> None:
        super().__init__()
        op = "MaxPoolWithArgmax"
        self.pad_mode = _choice(op, "pad_mode", pad_mode.lower() if isinstance(pad_mode, str)
                                else pad_mode, ("valid",))
        self.kernel_size = F._int_pair(kernel_size, op, "kernel_size")
        self.strides = F._int_pair(strides, op, "strides")
        self.data_format = _choice(op, "data_format", data_format, ("NCHW",))

    def __call__(self, x: Any) -> tuple:
        out, idx = _fn("max_pool2d")(x, self.kernel_size, self.strides, 0, 1, True)
        c, plane = out.shape[1], int(np.prod(F._tensor(x, "MaxPoolWithArgmax").shape[2:]))
        offset = Tensor(np.arange(c, dtype=np.int64).reshape(1, c, 1, 1) * plane)
        return out, F.cast(F.add(F.cast(idx, mstype.int64), offset), mstype.int32)


class _Dropout(Primitive):
    """``Dropout(keep_prob=0.5, Seed0=0, Seed1=0)(x)``: the tuple ``(output, mask)``; each
    element kept with probability ``keep_prob`` (scaled by ``1 / keep_prob``) where the
    Float32 ``mask`` is 1."""

    _channels = 0  # 0: a draw per element; else the rank of the input (a draw per channel)

    def __init__(self, keep_prob: float = 0.5) -> None:
        super().__init__()
        op = type(self).__name__
        keep = _number(op, "keep_prob", keep_prob)
        if not 0 < keep <= 1:
            raise ValueError(f"For '{op}', 'keep_prob' must be in (0, 1], but got {keep_prob}.")
        self.keep_prob = keep

    def _mask(self, x: Tensor) -> Tensor:
        op = type(self).__name__
        shape = tuple(x.shape)
        if self._channels:
            if x.ndim != self._channels:
                raise ValueError(f"For '{op}', 'x' must be {self._channels}-D, but got shape "
                                 f"{list(shape)}.")
            shape = shape[:2] + (1,) * (x.ndim - 2)
        u = draw(shape=shape, kind="uniform", dtype=np.dtype(np.float32), seed=None)
        return F.broadcast_to(F.less(u, self.keep_prob), tuple(x.shape))

    def __call__(self, x: Any) -> tuple:
        x = F._tensor(x, type(self).__name__)
        if not x.dtype.is_floating:
            raise TypeError(f"For '{type(self).__name__}', 'x' must be a float Tensor, but got "
                            f"{x.dtype}.")
        keep = self._mask(x)
        out = F.mul(x, F.mul(F.cast(keep, x.dtype), 1.0 / self.keep_prob))
        return out, keep


class Dropout(_Dropout):
    __doc__ = _Dropout.__doc__

    def __init__(self, keep_prob: float = 0.5, Seed0: int = 0,  # noqa: N803
                 Seed1: int = 0) -> None:  # noqa: N803
        super().__init__(keep_prob)
        self.Seed0, self.Seed1 = Seed0, Seed1

    def __call__(self, x: Any) -> tuple:
        out, keep = super().__call__(x)
        return out, F.cast(keep, mstype.float32)


class Dropout2D(_Dropout):
    """``Dropout2D(keep_prob=0.5)(x)`` of (N, C, H, W): whole channels kept with probability
    ``keep_prob``; the tuple ``(output, mask)`` with a Bool mask of ``x``'s shape."""

    _channels = 4


class Dropout3D(_Dropout):
    """``Dropout3D(keep_prob=0.5)(x)`` of (N, C, D, H, W): ``Dropout2D`` over volumes."""

    _channels = 5


__all__ = ["SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits",
           "SigmoidCrossEntropyWithLogits", "NLLLoss", "L2Loss", "L2Normalize", "LayerNorm",
           "ResizeBilinearV2", "ResizeNearestNeighbor", "ResizeNearestNeighborV2",
           "Conv2DBackpropInput", "Conv2DTranspose", "Conv3D", "Conv3DTranspose",
           "AdaptiveAvgPool2D", "AdaptiveMaxPool2D", "AvgPool3D", "MaxPool3D",
           "MaxPoolWithArgmax", "Dropout", "Dropout2D", "Dropout3D"]
