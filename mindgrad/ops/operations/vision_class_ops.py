"""MindSpore's image and box operator classes: the box helpers of its detection models
(``IOU``, ``BoundingBoxEncode``, ``BoundingBoxDecode``, ``CheckValid``, which count a box
``[x1, y1, x2, y2]`` as ``x2 - x1 + 1`` pixels wide), the colour-space conversions, the
resizes and poolings over one or three spatial axes, ``Im2Col``, ``MaxUnpool2D``, ``PadV3``
and the data-format index maps. Each is a composition of the functions of
``mindgrad.ops``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...core import dtype as mstype
from ...core.tensor import Tensor
from .. import families
from .. import functional as F
from .. import pooling_functions as PF
from .. import resize_functions as RS
from .. import volume_functions as VF
from ..primitive import Primitive

_fn = families.function


def _boxes(op: str, name: str, v: Any) -> Tensor:
    t = F._tensor(v, op, name)
    if t.ndim != 2 or t.shape[1] < 4 or not t.dtype.is_floating:
        raise ValueError(f"For '{op}', '{name}' must be a float Tensor of shape (N, 4), but got "
                         f"{t.dtype}{list(t.shape)}.")
    return t


def _cols(t: Tensor) -> list:
    """The four coordinates of (N, 4) boxes, each (N, 1)."""
    return [F.gather(t, Tensor(np.array([k])), 1) for k in range(4)]


def _four(op: str, name: str, v: Any) -> tuple:
    if not isinstance(v, (tuple, list)) or len(v) != 4 or not all(
            isinstance(i, (int, float)) and not isinstance(i, bool) for i in v):
        raise TypeError(f"For '{op}', '{name}' must be a tuple of 4 floats, but got {v!r}.")
    return tuple(float(i) for i in v)


class IOU(Primitive):
    """``IOU(mode='iou')(anchor_boxes, gt_boxes)``: the (G, A) overlaps of every ground-truth
    box with every anchor: intersection over union ('iou') or over the ground truth's area
    ('iof')."""

    def __init__(self, mode: str = "iou") -> None:
        super().__init__()
        if not isinstance(mode, str) or mode not in ("iou", "iof"):
            raise ValueError(f"For 'IOU', 'mode' must be 'iou' or 'iof', but got {mode!r}.")
        self.mode = mode

    def __call__(self, anchor_boxes: Any, gt_boxes: Any) -> Tensor:
        a = _boxes("IOU", "anchor_boxes", anchor_boxes)
        g = _boxes("IOU", "gt_boxes", gt_boxes)
        ax1, ay1, ax2, ay2 = (F.reshape(c, (1, -1)) for c in _cols(a))
        gx1, gy1, gx2, gy2 = (F.reshape(c, (-1, 1)) for c in _cols(g))
        w = F.maximum(F.add(F.sub(F.minimum(ax2, gx2), F.maximum(ax1, gx1)), 1.0), 0.0)
        h = F.maximum(F.add(F.sub(F.minimum(ay2, gy2), F.maximum(ay1, gy1)), 1.0), 0.0)
        inter = F.mul(w, h)
        area_a = F.mul(F.add(F.sub(ax2, ax1), 1.0), F.add(F.sub(ay2, ay1), 1.0))
        area_g = F.mul(F.add(F.sub(gx2, gx1), 1.0), F.add(F.sub(gy2, gy1), 1.0))
        if self.mode == "iof":
            return F.div(inter, area_g)
        return F.div(inter, F.sub(F.add(area_a, area_g), inter))


def _centres(t: Tensor) -> tuple:
    x1, y1, x2, y2 = _cols(t)
    w, h = F.add(F.sub(x2, x1), 1.0), F.add(F.sub(y2, y1), 1.0)
    return F.div(F.add(x1, x2), 2.0), F.div(F.add(y1, y2), 2.0), w, h


class BoundingBoxEncode(Primitive):
    """``BoundingBoxEncode(means=(0,) * 4, stds=(1,) * 4)(anchor_box, groundtruth_box)``: the
    (N, 4) deltas ``((dx, dy, dw, dh) - means) / stds`` of each ground-truth box from its
    anchor (centre offsets in anchor widths, log size ratios)."""

    def __init__(self, means: Any = (0.0, 0.0, 0.0, 0.0),
                 stds: Any = (1.0, 1.0, 1.0, 1.0)) -> None:
        super().__init__()
        self.means = _four("BoundingBoxEncode", "means", means)
        self.stds = _four("BoundingBoxEncode", "stds", stds)

    def __call__(self, anchor_box: Any, groundtruth_box: Any) -> Tensor:
        op = "BoundingBoxEncode"
        a, g = _boxes(op, "anchor_box", anchor_box), _boxes(op, "groundtruth_box", groundtruth_box)
        if a.shape[0] != g.shape[0]:
            raise ValueError(f"For '{op}', 'anchor_box' and 'groundtruth_box' must have one "
                             f"number of boxes, but got {a.shape[0]} and {g.shape[0]}.")
        px, py, pw, ph = _centres(a)
        gx, gy, gw, gh = _centres(g)
        d = F.concat((F.div(F.sub(gx, px), pw), F.div(F.sub(gy, py), ph),
                      F.log(F.div(gw, pw)), F.log(F.div(gh, ph))), 1)
        means = Tensor(np.array(self.means, a.dtype.np_dtype))
        stds = Tensor(np.array(self.stds, a.dtype.np_dtype))
        return F.div(F.sub(d, means), stds)


class BoundingBoxDecode(Primitive):
    """``BoundingBoxDecode(max_shape, means=(0,) * 4, stds=(1,) * 4, wh_ratio_clip=0.016)
    (anchor_box, deltas)``: the boxes ``BoundingBoxEncode``'s deltas describe, the size
    ratios clipped to ``|log(wh_ratio_clip)|`` and the corners to the image of
    ``max_shape`` (height, width)."""

    def __init__(self, max_shape: Any, means: Any = (0.0, 0.0, 0.0, 0.0),
                 stds: Any = (1.0, 1.0, 1.0, 1.0), wh_ratio_clip: float = 0.016) -> None:
        super().__init__()
        op = "BoundingBoxDecode"
        if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2 or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in max_shape):
            raise TypeError(f"For '{op}', 'max_shape' must be a tuple (height, width), but got "
                            f"{max_shape!r}.")
        self.max_shape = tuple(max_shape)
        self.means, self.stds = _four(op, "means", means), _four(op, "stds", stds)
        if isinstance(wh_ratio_clip, bool) or not isinstance(wh_ratio_clip, (int, float)) or \
                wh_ratio_clip <= 0:
            raise ValueError(f"For '{op}', 'wh_ratio_clip' must be a positive float, but got "
                             f"{wh_ratio_clip!r}.")
        self.wh_ratio_clip = float(wh_ratio_clip)

    def __call__(self, anchor_box: Any, deltas: Any) -> Tensor:
        op = "BoundingBoxDecode"
        a, d = _boxes(op, "anchor_box", anchor_box), _boxes(op, "deltas", deltas)
        if a.shape[0] != d.shape[0]:
            raise ValueError(f"For '{op}', 'anchor_box' and 'deltas' must have one number of "
                             f"boxes, but got {a.shape[0]} and {d.shape[0]}.")
        dx, dy, dw, dh = (F.add(F.mul(c, s), m) for c, s, m in
                          zip(_cols(d), self.stds, self.means))
        clip = abs(math.log(self.wh_ratio_clip))
        dw, dh = (F.minimum(F.maximum(t, -clip), clip) for t in (dw, dh))
        px, py, pw, ph = _centres(a)
        gx, gy = F.add(px, F.mul(pw, dx)), F.add(py, F.mul(ph, dy))
        gw, gh = F.mul(pw, F.exp(dw)), F.mul(ph, F.exp(dh))
        hw, hh = F.div(F.sub(gw, 1.0), 2.0), F.div(F.sub(gh, 1.0), 2.0)
        height, width = (float(v) for v in self.max_shape)

        def clamp(t: Tensor, hi: float) -> Tensor:
            return F.minimum(F.maximum(t, 0.0), hi)

        return F.concat((clamp(F.sub(gx, hw), width), clamp(F.sub(gy, hh), height),
                         clamp(F.add(gx, hw), width), clamp(F.add(gy, hh), height)), 1)


class CheckValid(Primitive):
    """``CheckValid()(bboxes, img_metas)``: whether each box lies in the image of
    ``img_metas = (height, width, ratio)``: ``x1, y1 >= 0``, ``x2 <= width * ratio - 1`` and
    ``y2 <= height * ratio - 1``."""

    def __call__(self, bboxes: Any, img_metas: Any) -> Tensor:
        b = _boxes("CheckValid", "bboxes", bboxes)
        m = F._tensor(img_metas, "CheckValid", "img_metas")
        if tuple(m.shape) != (3,):
            raise ValueError(f"For 'CheckValid', 'img_metas' must have shape (3,), but got "
                             f"{list(m.shape)}.")
        m = F.cast(m, b.dtype)
        h, w, r = (F.gather(m, Tensor(np.array(k)), 0) for k in range(3))
        x1, y1, x2, y2 = (F.reshape(c, (-1,)) for c in _cols(b))
        ok = F.logical_and(F.greater_equal(x1, 0.0), F.greater_equal(y1, 0.0))
        ok = F.logical_and(ok, F.less_equal(x2, F.sub(F.mul(w, r), 1.0)))
        return F.logical_and(ok, F.less_equal(y2, F.sub(F.mul(h, r), 1.0)))


def _rgb(op: str, v: Any) -> Tensor:
    t = F._tensor(v, op, "x")
    if t.ndim < 1 or t.shape[-1] != 3 or not t.dtype.is_floating:
        raise ValueError(f"For '{op}', 'x' must be a float Tensor whose last axis has length 3, "
                         f"but got {t.dtype}{list(t.shape)}.")
    return t


def _channels(t: Tensor) -> list:
    return [F.gather(t, Tensor(np.array(k)), t.ndim - 1) for k in range(3)]


class RGBToHSV(Primitive):
    """``RGBToHSV()(images)``: RGB in [0, 1] along the last axis to hue, saturation and
    value (hue in [0, 1))."""

    def __call__(self, images: Any) -> Tensor:
        x = _rgb("RGBToHSV", images)
        r, g, b = _channels(x)
        v = F.maximum(F.maximum(r, g), b)
        c = F.sub(v, F.minimum(F.minimum(r, g), b))
        safe_c = F.select(F.greater(c, 0.0), c, F.ones_like(c))
        s = F.select(F.greater(v, 0.0), F.div(c, F.select(F.greater(v, 0.0), v,
                                                          F.ones_like(v))), F.zeros_like(v))
        hr = F.div(F.sub(g, b), safe_c)
        hg = F.add(F.div(F.sub(b, r), safe_c), 2.0)
        hb = F.add(F.div(F.sub(r, g), safe_c), 4.0)
        h = F.select(F.equal(v, r), hr, F.select(F.equal(v, g), hg, hb))
        h = F.select(F.greater(c, 0.0), F.floor_mod(F.div(h, 6.0), 1.0), F.zeros_like(h))
        return F.stack((h, s, v), x.ndim - 1)


class HSVToRGB(Primitive):
    """``HSVToRGB()(x)``: hue, saturation and value along the last axis to RGB."""

    def __call__(self, x: Any) -> Tensor:
        t = _rgb("HSVToRGB", x)
        h, s, v = _channels(t)
        c = F.mul(v, s)
        hp = F.mul(F.floor_mod(h, 1.0), 6.0)

        def part(k: float) -> Tensor:  # the standard channel curve, shifted by k sixths
            d = F.floor_mod(F.add(hp, k), 6.0)
            return F.sub(v, F.mul(c, F.maximum(F.minimum(F.minimum(d, F.sub(4.0, d)), 1.0),
                                               0.0)))

        return F.stack((part(5.0), part(3.0), part(1.0)), t.ndim - 1)


def _amount(op: str, name: str, v: Any) -> Any:
    """A number, or a float Tensor of one element (as a 0-D tensor)."""
    if isinstance(v, Tensor) and v.size == 1 and v.dtype.is_floating:
        return F.reshape(v, ())
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    raise TypeError(f"For '{op}', '{name}' must be a float or a float Tensor of one element, "
                    f"but got {v!r}.")


class AdjustHue(Primitive):
    """``AdjustHue()(image, delta)``: RGB images (last axis 3) with ``delta`` added to their
    hue (in turns)."""

    def __call__(self, image: Any, delta: Any) -> Tensor:
        delta = _amount("AdjustHue", "delta", delta)
        hsv = RGBToHSV()(image)
        h, s, v = _channels(hsv)
        h = F.floor_mod(F.add(h, delta), 1.0)
        return HSVToRGB()(F.stack((h, s, v), hsv.ndim - 1))


class AdjustSaturation(Primitive):
    """``AdjustSaturation()(image, scale)``: RGB images with their saturation multiplied by
    ``scale`` (clipped to [0, 1])."""

    def __call__(self, image: Any, scale: Any) -> Tensor:
        scale = _amount("AdjustSaturation", "scale", scale)
        hsv = RGBToHSV()(image)
        h, s, v = _channels(hsv)
        s = F.minimum(F.maximum(F.mul(s, scale), 0.0), 1.0)
        return HSVToRGB()(F.stack((h, s, v), hsv.ndim - 1))


class Im2Col(Primitive):
    """``Im2Col(ksizes, strides=1, dilations=1, pads=0)(x)``: the sliding blocks of
    (N, C, H, W) as (N, C, kh * kw, L)."""

    def __init__(self, ksizes: Any, strides: Any = 1, dilations: Any = 1, pads: Any = 0) -> None:
        super().__init__()
        self.ksizes, self.strides, self.dilations, self.pads = ksizes, strides, dilations, pads

    def __call__(self, x: Any) -> Tensor:
        t = F._tensor(x, "Im2Col")
        if t.ndim != 4:
            raise ValueError(f"For 'Im2Col', 'x' must be 4-D (N, C, H, W), but got shape "
                             f"{list(t.shape)}.")
        pads = self.pads
        if isinstance(pads, (tuple, list)) and len(pads) == 4 and pads[0::2] == pads[1::2]:
            pads = tuple(pads[0::2])
        cols = _fn("unfold")(t, self.ksizes, self.dilations, pads, self.strides)
        return F.reshape(cols, (t.shape[0], t.shape[1], -1, cols.shape[-1]))


def _sizes_of(op: str, v: Any, n: int) -> tuple:
    if isinstance(v, Tensor):
        v = tuple(int(i) for i in v.asnumpy().reshape(-1))
    if isinstance(v, (tuple, list)) and len(v) == n and all(F._is_int(i) and i > 0 for i in v):
        return tuple(int(i) for i in v)
    raise ValueError(f"For '{op}', the output size must be {n} positive ints, but got {v!r}.")


class ResizeLinear1D(Primitive):
    """``ResizeLinear1D(coordinate_transformation_mode='align_corners')(x, size)``: linear
    resizing of the last axis of (N, C, W) ('align_corners' or 'half_pixel' positions)."""

    def __init__(self, coordinate_transformation_mode: str = "align_corners") -> None:
        super().__init__()
        mode = coordinate_transformation_mode
        if not isinstance(mode, str) or mode not in ("align_corners", "half_pixel"):
            raise ValueError(f"For 'ResizeLinear1D', 'coordinate_transformation_mode' must be "
                             f"'align_corners' or 'half_pixel', but got {mode!r}.")
        self.coordinate_transformation_mode = mode

    def __call__(self, x: Any, size: Any) -> Tensor:
        t = F._tensor(x, "ResizeLinear1D")
        if t.ndim != 3:
            raise ValueError(f"For 'ResizeLinear1D', 'x' must be 3-D, but got shape "
                             f"{list(t.shape)}.")
        m = _sizes_of("ResizeLinear1D", size, 1)
        return RS.interpolate(t, m, None, "linear",
                                  self.coordinate_transformation_mode == "align_corners")


class _Upsample3D(Primitive):
    _mode = "nearest"

    def __call__(self, x: Any, output_size: Any = None, scales: Any = None) -> Tensor:
        op = type(self).__name__
        t = F._tensor(x, op)
        if t.ndim != 5:
            raise ValueError(f"For '{op}', 'x' must be 5-D (N, C, D, H, W), but got shape "
                             f"{list(t.shape)}.")
        if (output_size is None) == (scales is None):
            raise ValueError(f"For '{op}', exactly one of 'output_size' and 'scales' must be "
                             f"given.")
        align = getattr(self, "align_corners", False) if self._mode == "trilinear" else None
        if output_size is not None:
            return RS.interpolate(t, _sizes_of(op, output_size, 3), None, self._mode, align)
        if not isinstance(scales, (tuple, list)) or len(scales) != 3:
            raise ValueError(f"For '{op}', 'scales' must be 3 floats, but got {scales!r}.")
        size = tuple(int(math.floor(n * s)) for n, s in zip(t.shape[2:], scales))
        if align:  # aligned corners depend on the sizes only
            return RS.interpolate(t, size, None, self._mode, True)
        return RS.interpolate(t, None, tuple(float(s) for s in scales), self._mode, align)


class UpsampleNearest3D(_Upsample3D):
    """``UpsampleNearest3D()(x, output_size=None, scales=None)``: nearest-neighbour
    resizing of (N, C, D, H, W)."""
    _mode = "nearest"


class UpsampleTrilinear3D(_Upsample3D):
    """``UpsampleTrilinear3D(align_corners=False)(x, output_size=None, scales=None)``:
    trilinear resizing of (N, C, D, H, W)."""
    _mode = "trilinear"

    def __init__(self, align_corners: bool = False) -> None:
        super().__init__()
        self.align_corners = F._flag(align_corners, "UpsampleTrilinear3D", "align_corners")


class AdaptiveAvgPool3D(Primitive):
    """``AdaptiveAvgPool3D(output_size)(x)``."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def __call__(self, x: Any) -> Tensor:
        return PF.adaptive_avg_pool3d(x, self.output_size)


class AdaptiveMaxPool3D(Primitive):
    """``AdaptiveMaxPool3D()(x, output_size)``: the tuple ``(y, argmax)``, ``argmax`` the
    Int32 position of each maximum in its D*H*W volume."""

    def __call__(self, x: Any, output_size: Any) -> tuple:
        size = _sizes_of("AdaptiveMaxPool3D", output_size, 3)
        y, idx = PF.adaptive_max_pool3d(x, size, True)
        return y, F.cast(idx, mstype.int32)


class MaxPoolWithArgmaxV2(Primitive):
    """``MaxPoolWithArgmaxV2(kernel_size, strides=None, pads=0, dilation=(1, 1),
    ceil_mode=False, argmax_type=mindspore.int64)(x)``: the tuple ``(y, argmax)``,
    ``argmax`` each maximum's position in its H*W plane."""

    def __init__(self, kernel_size: Any, strides: Any = None, pads: Any = 0,
                 dilation: Any = (1, 1), ceil_mode: bool = False,
                 argmax_type: Any = mstype.int64) -> None:
        super().__init__()
        op = "MaxPoolWithArgmaxV2"
        self.kernel_size, self.strides, self.pads = kernel_size, strides, pads
        self.dilation = dilation
        self.ceil_mode = F._flag(ceil_mode, op, "ceil_mode")
        if not isinstance(argmax_type, mstype.DType) or \
                argmax_type not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{op}', 'argmax_type' must be mindspore.int32 or "
                            f"mindspore.int64, but got {argmax_type!r}.")
        self.argmax_type = argmax_type

    def __call__(self, x: Any) -> tuple:
        y, idx = _fn("max_pool2d")(x, self.kernel_size, self.strides, self.pads, self.dilation,
                                   True, self.ceil_mode)
        return y, F.cast(idx, self.argmax_type)


class MaxPool3DWithArgmax(Primitive):
    """``MaxPool3DWithArgmax(ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False,
    data_format='NCDHW', argmax_type=mindspore.int64)(x)``: the tuple ``(y, argmax)``,
    ``argmax`` each maximum's position in its D*H*W volume."""

    def __init__(self, ksize: Any, strides: Any, pads: Any, dilation: Any = (1, 1, 1),
                 ceil_mode: bool = False, data_format: str = "NCDHW",
                 argmax_type: Any = mstype.int64) -> None:
        super().__init__()
        op = "MaxPool3DWithArgmax"
        if data_format != "NCDHW":
            raise ValueError(f"For '{op}', only data_format 'NCDHW' is supported, but got "
                             f"{data_format!r}.")
        self.ksize, self.strides, self.pads, self.dilation = ksize, strides, pads, dilation
        self.ceil_mode, self.data_format = F._flag(ceil_mode, op, "ceil_mode"), data_format
        if not isinstance(argmax_type, mstype.DType) or \
                argmax_type not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{op}', 'argmax_type' must be mindspore.int32 or "
                            f"mindspore.int64, but got {argmax_type!r}.")
        self.argmax_type = argmax_type

    def __call__(self, x: Any) -> tuple:
        y, idx = VF.max_pool3d(x, self.ksize, self.strides, self.pads, self.dilation,
                               self.ceil_mode, True)
        return y, F.cast(idx, self.argmax_type)


class MaxUnpool2D(Primitive):
    """``MaxUnpool2D(ksize, strides=0, pads=0, output_shape=(), data_format='NCHW')(x,
    argmax)``: each value of ``x`` put at its flat position ``argmax`` in an H*W plane of
    zeros (H, W from the pooling's geometry or ``output_shape``)."""

    _dims, _format = 2, "NCHW"

    def __init__(self, ksize: Any, strides: Any = 0, pads: Any = 0, output_shape: Any = (),
                 data_format: Any = None) -> None:
        super().__init__()
        op, k = type(self).__name__, self._dims
        self.ksize = self._tuple(ksize, "ksize")
        unset = (F._is_int(strides) and strides == 0) or (
            isinstance(strides, (tuple, list)) and tuple(strides) == (0,) * k)
        self.strides = self.ksize if unset else self._tuple(strides, "strides")
        self.pads = self._tuple(pads, "pads")
        if not isinstance(output_shape, (tuple, list)):
            raise TypeError(f"For '{op}', 'output_shape' must be a tuple, but got "
                            f"{output_shape!r}.")
        self.output_shape = tuple(output_shape)
        data_format = self._format if data_format is None else data_format
        if data_format != self._format:
            raise ValueError(f"For '{op}', only data_format {self._format!r} is supported, but "
                             f"got {data_format!r}.")
        self.data_format = data_format

    def _tuple(self, v: Any, name: str) -> tuple:
        low = 0 if name == "pads" else 1
        if F._is_int(v) and v >= low:
            return (int(v),) * self._dims
        if isinstance(v, (tuple, list)) and len(v) == self._dims and all(
                F._is_int(i) and i >= low for i in v):
            return tuple(int(i) for i in v)
        raise ValueError(f"For '{type(self).__name__}', '{name}' must be an int or "
                         f"{self._dims} ints (>= {low}), but got {v!r}.")

    def __call__(self, x: Any, argmax: Any) -> Tensor:
        op, k = type(self).__name__, self._dims
        t, idx = F._tensor(x, op), F._tensor(argmax, op, "argmax")
        if t.ndim != k + 2 or tuple(idx.shape) != tuple(t.shape) or idx.dtype.is_floating:
            raise ValueError(f"For '{op}', 'x' must be {k + 2}-D and 'argmax' integers of its "
                             f"shape, but got {list(t.shape)} and {idx.dtype}{list(idx.shape)}.")
        if self.output_shape:
            size = tuple(int(v) for v in self.output_shape[-k:])
        else:
            size = tuple((n - 1) * s - 2 * p + kk for n, s, p, kk in
                         zip(t.shape[2:], self.strides, self.pads, self.ksize))
        n, c = t.shape[:2]
        F._sizes((n * c,) + size, op, "output_shape")
        volume = int(np.prod(size))
        flat = F.reshape(t, (n * c, -1))
        pos = F.cast(F.reshape(idx, (n * c, -1)), mstype.int64)
        raw = np.asarray(pos.asnumpy())
        if raw.size and (raw.min() < 0 or raw.max() >= volume):
            raise ValueError(f"For '{op}', 'argmax' must be in [0, {volume}), but got values in "
                             f"[{raw.min()}, {raw.max()}].")
        out = _fn("tensor_scatter_elements")(F.zeros((n * c, volume), t.dtype), pos, flat, 1)
        return F.reshape(out, (n, c) + size)


class MaxUnpool3D(MaxUnpool2D):
    """``MaxUnpool3D(ksize, strides=0, pads=0, output_shape=(), data_format='NCDHW')(x,
    argmax)``: ``MaxUnpool2D`` over D*H*W volumes."""

    _dims, _format = 3, "NCDHW"


class PadV3(Primitive):
    """``PadV3(mode='constant', paddings_contiguous=True)(x, paddings, constant_value=None)``:
    ``paddings`` (before, after) pairs from the last axis backwards ('constant', 'reflect',
    'edge' or 'circular')."""

    def __init__(self, mode: str = "constant", paddings_contiguous: bool = True) -> None:
        super().__init__()
        if not isinstance(mode, str) or mode not in ("constant", "reflect", "edge", "circular"):
            raise ValueError(f"For 'PadV3', 'mode' must be 'constant', 'reflect', 'edge' or "
                             f"'circular', but got {mode!r}.")
        self.mode = mode
        self.paddings_contiguous = F._flag(paddings_contiguous, "PadV3", "paddings_contiguous")

    def __call__(self, x: Any, paddings: Any, constant_value: Any = None) -> Tensor:
        if isinstance(paddings, Tensor):
            paddings = tuple(int(v) for v in paddings.asnumpy().reshape(-1))
        if not isinstance(paddings, (tuple, list)) or len(paddings) % 2 or not all(
                F._is_int(v) for v in paddings):
            raise ValueError(f"For 'PadV3', 'paddings' must be an even number of ints, but got "
                             f"{paddings!r}.")
        pads = tuple(paddings)
        if not self.paddings_contiguous:  # (all befores, then all afters)
            half = len(pads) // 2
            pads = tuple(v for pair in zip(pads[:half], pads[half:]) for v in pair)
        mode = {"edge": "replicate"}.get(self.mode, self.mode)
        if isinstance(constant_value, Tensor) and constant_value.size == 1:
            constant_value = constant_value.asnumpy().item()
        if constant_value is not None and (isinstance(constant_value, bool) or
                                           not isinstance(constant_value, (int, float))):
            raise TypeError(f"For 'PadV3', 'constant_value' must be a number or a Tensor of one "
                            f"element, but got {constant_value!r}.")
        value = constant_value if mode == "constant" else None
        return _fn("pad")(x, pads, mode, value)


_NHWC = "NHWC"


def _formats(op: str, src: Any, dst: Any) -> tuple:
    if not isinstance(src, str) or not isinstance(dst, str) or len(src) not in (4, 5) or \
            sorted(src) != sorted(dst):
        raise ValueError(f"For '{op}', 'src_format' and 'dst_format' must be two orders of the "
                         f"same 4 or 5 letters, but got {src!r} and {dst!r}.")
    return src, dst


class DataFormatDimMap(Primitive):
    """``DataFormatDimMap(src_format='NHWC', dst_format='NCHW')(input_x)``: each axis index
    (negative ones counted from the end) mapped as MindSpore (and TensorFlow) map it:
    ``src_format.index(dst_format[i])``."""

    def __init__(self, src_format: str = "NHWC", dst_format: str = "NCHW") -> None:
        super().__init__()
        self.src_format, self.dst_format = _formats("DataFormatDimMap", src_format, dst_format)

    def __call__(self, input_x: Any) -> Tensor:
        x = F._tensor(input_x, "DataFormatDimMap", "input_x")
        if x.dtype.is_floating or x.dtype == mstype.bool_:
            raise TypeError(f"For 'DataFormatDimMap', 'input_x' must be integers, but got "
                            f"{x.dtype}.")
        n = len(self.src_format)
        table = np.array([self.src_format.index(ch) for ch in self.dst_format],
                         x.dtype.np_dtype)
        return F.gather(Tensor(table), F.floor_mod(x, n), 0)


class DataFormatVecPermute(DataFormatDimMap):
    """``DataFormatVecPermute(src_format='NHWC', dst_format='NCHW')(x)``: the 4 entries (or
    rows) of ``x``, given in ``src_format``'s order, put in ``dst_format``'s."""

    def __call__(self, x: Any) -> Tensor:  # type: ignore[override]
        t = F._tensor(x, "DataFormatVecPermute")
        n = len(self.src_format)
        if t.shape[:1] != (n,) or t.ndim not in (1, 2) or (t.ndim == 2 and t.shape[1] != 2):
            raise ValueError(f"For 'DataFormatVecPermute', 'x' must have shape ({n},) or "
                             f"({n}, 2), but got {list(t.shape)}.")
        order = np.array([self.src_format.index(ch) for ch in self.dst_format])
        return F.gather(t, Tensor(order), 0)


__all__ = ["IOU", "BoundingBoxEncode", "BoundingBoxDecode", "CheckValid", "RGBToHSV",
           "HSVToRGB", "Im2Col", "ResizeLinear1D", "UpsampleNearest3D", "UpsampleTrilinear3D",
           "AdaptiveAvgPool3D", "AdaptiveMaxPool3D", "MaxUnpool2D", "MaxUnpool3D",
           "MaxPoolWithArgmaxV2", "MaxPool3DWithArgmax", "AdjustHue", "AdjustSaturation", "PadV3",
           "DataFormatDimMap", "DataFormatVecPermute"]
