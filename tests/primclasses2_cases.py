"""The operator-class cases over the sampling, cropping, CTC decoding and fixed-size
fractional pooling functions (``AffineGrid``, ``GridSampler2D``/``3D``, ``CropAndResize``,
``CTCGreedyDecoder``, ``FractionalMaxPool[3D]WithFixedKsize``), shared by the recorder
(``tools/record_catalogue.py --suite primclasses2``, run with the real MindSpore) and
``tests/test_primclasses2.py`` (run with mindgrad). Same ``Case`` API as
``tests/catalogue_cases.py``."""
from __future__ import annotations

import numpy as np

from catalogue_cases import Case, _r

THETA2 = _r(401, (2, 2, 3), lo=-1.0, hi=1.0)
THETA3 = _r(402, (1, 3, 4), lo=-1.0, hi=1.0)
IMG2 = _r(403, (2, 2, 4, 5))
GRID2 = _r(404, (2, 3, 2, 2), lo=-1.2, hi=1.2)
IMG3 = _r(405, (1, 2, 3, 4, 3))
GRID3 = _r(406, (1, 2, 2, 3, 3), lo=-1.1, hi=1.1)
NHWC = _r(407, (2, 5, 6, 3))
BOXES = np.array([[0.1, 0.2, 0.7, 0.9], [0.3, 0.05, 0.85, 0.6], [-0.2, 0.1, 0.5, 1.3]],
                 np.float32)
BOX_INDEX = np.array([1, 0, 1], np.int32)
# logits (max_time 4, batch 3, classes 4, the last the blank), with repeats to merge
CTC = np.array([[[0.1, 2.0, 0.3, 0.2], [1.5, 0.2, 0.1, 0.3], [0.0, 0.1, 0.2, 3.0]],
                [[0.2, 1.8, 0.1, 0.4], [0.1, 0.2, 0.3, 2.5], [2.2, 0.1, 0.2, 0.3]],
                [[0.3, 0.1, 0.2, 1.9], [1.1, 0.2, 0.3, 0.1], [0.1, 2.4, 0.2, 0.3]],
                [[0.1, 2.2, 0.3, 0.2], [1.3, 0.2, 0.1, 0.4], [0.2, 0.1, 1.7, 0.3]]],
               np.float32)
POOL2 = _r(408, (1, 2, 6, 7))
SAMPLES2 = _r(409, (1, 2, 2), lo=0.0, hi=1.0)
POOL3 = _r(410, (1, 2, 5, 6, 5))
SAMPLES3 = _r(411, (1, 2, 3), lo=0.0, hi=1.0)

CASES: list[Case] = [
    Case("AffineGrid", lambda ms, ops, t: ops.AffineGrid()(t, (2, 3, 4, 5)), [THETA2],
         grad=(0,)),
    Case("AffineGrid_align_3d", lambda ms, ops, t: ops.AffineGrid(True)(t, (1, 2, 3, 2, 4)),
         [THETA3], grad=(0,)),
    Case("AffineGrid_bad_size", lambda ms, ops, t: ops.AffineGrid()(t, (2, 3, 4, 5, 6)),
         [THETA2]),
    Case("GridSampler2D", lambda ms, ops, x, g: ops.GridSampler2D()(x, g), [IMG2, GRID2],
         grad=(0, 1)),
    Case("GridSampler2D_border_align", lambda ms, ops, x, g: ops.GridSampler2D(
        "bilinear", "border", True)(x, g), [IMG2, GRID2], grad=(0, 1)),
    Case("GridSampler2D_reflection", lambda ms, ops, x, g: ops.GridSampler2D(
        padding_mode="reflection")(x, g), [IMG2, GRID2], grad=(0, 1)),
    Case("GridSampler2D_nearest", lambda ms, ops, x, g: ops.GridSampler2D("nearest")(x, g),
         [IMG2, GRID2], grad=(0,)),
    Case("GridSampler2D_bad_grid", lambda ms, ops, x, g: ops.GridSampler2D()(x, g),
         [IMG2, _r(412, (2, 3, 2, 3))]),
    Case("GridSampler3D", lambda ms, ops, x, g: ops.GridSampler3D()(x, g), [IMG3, GRID3],
         grad=(0, 1)),
    Case("GridSampler3D_nearest_border", lambda ms, ops, x, g: ops.GridSampler3D(
        "nearest", "border")(x, g), [IMG3, GRID3], grad=(0,)),
    Case("GridSampler3D_bad_rank", lambda ms, ops, x, g: ops.GridSampler3D()(x, g),
         [IMG2, GRID2]),
    Case("CropAndResize", lambda ms, ops, x, b, i: ops.CropAndResize()(x, b, i, (3, 4)),
         [NHWC, BOXES, BOX_INDEX], grad=(0, 1)),
    Case("CropAndResize_nearest_extrapolate", lambda ms, ops, x, b, i: ops.CropAndResize(
        "nearest", 0.5)(x, b, i, (4, 3)), [NHWC, BOXES, BOX_INDEX]),
    Case("CropAndResize_bad_index", lambda ms, ops, x, b, i: ops.CropAndResize()(
        x, b, i, (3, 4)), [NHWC, BOXES, np.array([0, 2, 1], np.int32)]),
    Case("CTCGreedyDecoder", lambda ms, ops, x, n: ops.CTCGreedyDecoder()(x, n),
         [CTC, np.array([4, 3, 4], np.int32)]),
    Case("CTCGreedyDecoder_no_merge", lambda ms, ops, x, n: ops.CTCGreedyDecoder(False)(x, n),
         [CTC, np.array([4, 4, 2], np.int32)]),
    Case("CTCGreedyDecoder_bad_length", lambda ms, ops, x, n: ops.CTCGreedyDecoder()(x, n),
         [CTC, np.array([4, 3], np.int32)]),
    Case("FractionalMaxPoolWithFixedKsize", lambda ms, ops, x, s:
         ops.FractionalMaxPoolWithFixedKsize((2, 3), (3, 3))(x, s), [POOL2, SAMPLES2]),
    Case("FractionalMaxPoolWithFixedKsize_bad_samples", lambda ms, ops, x, s:
         ops.FractionalMaxPoolWithFixedKsize(2, (3, 3))(x, s), [POOL2, SAMPLES3]),
    Case("FractionalMaxPool3DWithFixedKsize", lambda ms, ops, x, s:
         ops.FractionalMaxPool3DWithFixedKsize((2, 2, 3), (3, 3, 2))(x, s), [POOL3, SAMPLES3]),
]
