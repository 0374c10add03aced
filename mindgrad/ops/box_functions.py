"""Detection helpers on axis-aligned boxes ``(x1, y1, x2, y2)``: ``ops.iou``,
``bounding_box_encode``, ``bounding_box_decode``, ``check_valid``, and the greedy CTC
decoder ``ctc_greedy_decoder``.

As in MindSpore a box's width and height count pixels inclusively (``x2 - x1 + 1``). The box
functions are compositions of differentiable operators, so (unlike MindSpore, whose IOU
gradient is zero and whose encoders have none) they have their exact derivatives."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .functional import _composite

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _boxes(x: Any, op: str, arg: str, cols: int = 4) -> Tensor:
    t = F._tensor(x, op, arg)
    if t.dtype not in _FLOATS:
        raise TypeError(f"For '{op}', '{arg}' must be a float16, float32 or float64 Tensor, "
                        f"but got {t.dtype}.")
    if t.ndim != 2 or t.shape[1] < cols:
        raise ValueError(f"For '{op}', '{arg}' must have shape (N, {cols}), but got "
                         f"{list(t.shape)}.")
    return t


def _col(t: Tensor, k: int) -> Tensor:
    return F.getitem(t, (slice(None), k))


def _four(v: Any, op: str, arg: str) -> tuple:
    if not isinstance(v, (tuple, list)) or len(v) != 4 or not all(
            isinstance(i, (int, float)) and not isinstance(i, bool) for i in v):
        raise TypeError(f"For '{op}', '{arg}' must be a tuple of 4 floats, but got {v!r}.")
    return tuple(float(i) for i in v)


@_composite
def iou(anchor_boxes: Any, gt_boxes: Any, mode: str = "iou") -> Tensor:
    """The overlaps of every ground-truth box with every anchor box: (M, N) for ``gt_boxes``
    (M, 4) and ``anchor_boxes`` (N, 4). ``mode`` 'iou' (intersection over union) or 'iof'
    (intersection over the ground-truth box's area)."""
    op = "iou"
    a = _boxes(anchor_boxes, op, "anchor_boxes")
    g = _boxes(gt_boxes, op, "gt_boxes")
    if a.dtype != g.dtype:
        raise TypeError(f"For '{op}', 'anchor_boxes' and 'gt_boxes' must have the same dtype, "
                        f"but got {a.dtype} and {g.dtype}.")
    if mode not in ("iou", "iof"):
        raise ValueError(f"For '{op}', 'mode' must be 'iou' or 'iof', but got {mode!r}.")
    ax1, ay1, ax2, ay2 = (F.expand_dims(_col(a, k), 0) for k in range(4))  # (1, N)
    gx1, gy1, gx2, gy2 = (F.expand_dims(_col(g, k), 1) for k in range(4))  # (M, 1)
    zero = F.zeros_like(F.add(ax1, gx1))
    w = F.maximum(F.add(F.sub(F.minimum(ax2, gx2), F.maximum(ax1, gx1)), 1.0), zero)
    h = F.maximum(F.add(F.sub(F.minimum(ay2, gy2), F.maximum(ay1, gy1)), 1.0), zero)
    inter = F.mul(w, h)
    area_g = F.mul(F.add(F.sub(gx2, gx1), 1.0), F.add(F.sub(gy2, gy1), 1.0))
    if mode == "iof":
        return F.div(inter, area_g)
    area_a = F.mul(F.add(F.sub(ax2, ax1), 1.0), F.add(F.sub(ay2, ay1), 1.0))
    return F.div(inter, F.sub(F.add(area_a, area_g), inter))


def _centre_size(b: Tensor) -> tuple:
    """(cx, cy, w, h) of boxes, the sizes counting pixels inclusively."""
    x1, y1, x2, y2 = (_col(b, k) for k in range(4))
    return (F.mul(F.add(x1, x2), 0.5), F.mul(F.add(y1, y2), 0.5),
            F.add(F.sub(x2, x1), 1.0), F.add(F.sub(y2, y1), 1.0))


@_composite
def bounding_box_encode(anchor_box: Any, groundtruth_box: Any,
                        means: tuple = (0.0, 0.0, 0.0, 0.0),
                        stds: tuple = (1.0, 1.0, 1.0, 1.0)) -> Tensor:
    """The deltas ``(dx, dy, dw, dh)`` that move each anchor box onto its ground-truth box:
    ``dx = (gx - px) / pw``, ``dw = log(gw / pw)``, ..., then ``(delta - means) / stds``."""
    op = "bounding_box_encode"
    a = _boxes(anchor_box, op, "anchor_box")
    g = _boxes(groundtruth_box, op, "groundtruth_box")
    if a.shape[0] != g.shape[0] or a.dtype != g.dtype:
        raise ValueError(f"For '{op}', 'anchor_box' and 'groundtruth_box' must have the same "
                         f"number of boxes and dtype, but got {list(a.shape)} {a.dtype} and "
                         f"{list(g.shape)} {g.dtype}.")
    m, s = _four(means, op, "means"), _four(stds, op, "stds")
    if any(v == 0 for v in s):
        raise ValueError(f"For '{op}', 'stds' must not contain 0, but got {s}.")
    px, py, pw, ph = _centre_size(F.getitem(a, (slice(None), slice(0, 4))))
    gx, gy, gw, gh = _centre_size(F.getitem(g, (slice(None), slice(0, 4))))
    deltas = [F.div(F.sub(gx, px), pw), F.div(F.sub(gy, py), ph),
              F.log(F.div(gw, pw)), F.log(F.div(gh, ph))]
    return F.stack([F.div(F.sub(d, mi), si) for d, mi, si in zip(deltas, m, s)], 1)


@_composite
def bounding_box_decode(anchor_box: Any, deltas: Any, max_shape: Any,
                        means: tuple = (0.0, 0.0, 0.0, 0.0),
                        stds: tuple = (1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip: float = 0.016) -> Tensor:
    """The boxes the ``deltas`` (as ``bounding_box_encode`` makes them) give from the anchor
    boxes, their x clipped to ``[0, max_shape[1]]`` and y to ``[0, max_shape[0]]`` (MindSpore's
    bounds); ``dw`` and ``dh`` are first clipped to ``|log(wh_ratio_clip)|``."""
    op = "bounding_box_decode"
    a = _boxes(anchor_box, op, "anchor_box")
    d = _boxes(deltas, op, "deltas")
    if a.shape[0] != d.shape[0] or a.dtype != d.dtype:
        raise ValueError(f"For '{op}', 'anchor_box' and 'deltas' must have the same number of "
                         f"boxes and dtype, but got {list(a.shape)} {a.dtype} and "
                         f"{list(d.shape)} {d.dtype}.")
    if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2 or not all(
            F._is_int(v) and v > 0 for v in max_shape):
        raise ValueError(f"For '{op}', 'max_shape' must be two positive ints (height, width), "
                         f"but got {max_shape!r}.")
    m, s = _four(means, op, "means"), _four(stds, op, "stds")
    if isinstance(wh_ratio_clip, bool) or not isinstance(wh_ratio_clip, (int, float)) \
            or wh_ratio_clip <= 0:
        raise ValueError(f"For '{op}', 'wh_ratio_clip' must be a positive float, but got "
                         f"{wh_ratio_clip!r}.")
    limit = abs(math.log(wh_ratio_clip))
    dx, dy, dw, dh = (F.add(F.mul(_col(d, k), s[k]), m[k]) for k in range(4))
    dw, dh = (F.clip_by_value(v, -limit, limit) for v in (dw, dh))
    px, py, pw, ph = _centre_size(F.getitem(a, (slice(None), slice(0, 4))))
    gw, gh = F.mul(pw, F.exp(dw)), F.mul(ph, F.exp(dh))
    gx, gy = F.add(px, F.mul(pw, dx)), F.add(py, F.mul(ph, dy))
    hmax, wmax = float(max_shape[0]), float(max_shape[1])
    x1 = F.clip_by_value(F.add(F.sub(gx, F.mul(gw, 0.5)), 0.5), 0.0, wmax)
    y1 = F.clip_by_value(F.add(F.sub(gy, F.mul(gh, 0.5)), 0.5), 0.0, hmax)
    x2 = F.clip_by_value(F.sub(F.add(gx, F.mul(gw, 0.5)), 0.5), 0.0, wmax)
    y2 = F.clip_by_value(F.sub(F.add(gy, F.mul(gh, 0.5)), 0.5), 0.0, hmax)
    return F.stack([x1, y1, x2, y2], 1)


@_composite
def check_valid(bboxes: Any, img_metas: Any) -> Tensor:
    """Whether each box lies inside the image: ``x1, y1 >= 0``, ``x2 <= w * ratio - 1`` and
    ``y2 <= h * ratio - 1`` for ``img_metas`` ``(h, w, ratio)``; Bool (N,)."""
    op = "check_valid"
    b = _boxes(bboxes, op, "bboxes")
    meta = F._tensor(img_metas, op, "img_metas")
    if meta.dtype != b.dtype or tuple(meta.shape) != (3,):
        raise ValueError(f"For '{op}', 'img_metas' must be a (3,) Tensor of the dtype of "
                         f"'bboxes' ({b.dtype}), but got {list(meta.shape)} {meta.dtype}.")
    h, w, ratio = (F.getitem(meta, k) for k in range(3))
    x1, y1, x2, y2 = (_col(b, k) for k in range(4))
    ok = [F.greater_equal(x1, 0.0), F.greater_equal(y1, 0.0),
          F.less_equal(x2, F.sub(F.mul(w, ratio), 1.0)),
          F.less_equal(y2, F.sub(F.mul(h, ratio), 1.0))]
    out = ok[0]
    for o in ok[1:]:
        out = F.logical_and(out, o)
    return out


@_composite
def ctc_greedy_decoder(inputs: Any, sequence_length: Any, merge_repeated: bool = True) -> tuple:
    """The greedy (best-path) CTC decoding of ``inputs`` (max_time, batch, classes), the last
    class being the blank: for each sequence, the most likely class at each of its
    ``sequence_length[b]`` steps, repeats merged (``merge_repeated``) and blanks dropped.
    Returns ``(decoded_indices (total, 2), decoded_values (total,), decoded_shape (2,))``
    as Int64 (a sparse (batch, longest) matrix) and ``log_probability`` (batch, 1), minus the
    sum of each step's largest input."""
    op = "ctc_greedy_decoder"
    x = F._tensor(inputs, op, "inputs")
    if x.dtype not in (mstype.float32, mstype.float64, mstype.float16) or x.ndim != 3:
        raise TypeError(f"For '{op}', 'inputs' must be a 3-D float Tensor (max_time, batch, "
                        f"classes), but got {x.dtype} of shape {list(x.shape)}.")
    lengths = F._int_tensor(sequence_length, op, "sequence_length")
    t, batch, classes = x.shape
    if tuple(lengths.shape) != (batch,):
        raise ValueError(f"For '{op}', 'sequence_length' must have shape {[batch]}, but got "
                         f"{list(lengths.shape)}.")
    if not isinstance(merge_repeated, bool):
        raise TypeError(f"For '{op}', 'merge_repeated' must be a bool, but got "
                        f"{type(merge_repeated).__name__}.")
    if classes == 0:
        raise ValueError(f"For '{op}', 'inputs' must have at least one class, but got shape "
                         f"{list(x.shape)}.")
    lens = lengths.asnumpy().astype(np.int64)
    if lens.size and (lens.min() < 0 or lens.max() > t):
        raise ValueError(f"For '{op}', each value of 'sequence_length' must be in [0, {t}], "
                         f"but got {lens.tolist()}.")
    a = x.asnumpy()
    best = a.argmax(-1)  # (t, batch): the first of tied maxima
    steps = np.arange(t)[:, None] < lens[None, :]
    logp = -np.where(steps, a.max(-1), 0).sum(0, dtype=a.dtype).reshape(batch, 1)
    indices, values, longest = [], [], 0
    for b in range(batch):
        seq, prev = [], -1
        for k in best[:lens[b], b]:
            if k != classes - 1 and not (merge_repeated and k == prev):
                seq.append(int(k))
            prev = k
        indices += [(b, j) for j in range(len(seq))]
        values += seq
        longest = max(longest, len(seq))
    return (Tensor(np.array(indices, np.int64).reshape(-1, 2)),
            Tensor(np.array(values, np.int64)),
            Tensor(np.array([batch, longest], np.int64)), Tensor(logp))


__all__ = ["iou", "bounding_box_encode", "bounding_box_decode", "check_valid",
           "ctc_greedy_decoder"]
