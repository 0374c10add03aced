"""The convolution, pooling and vision cases (``ops`` sampling, boxes, unpooling and
fractional pooling; ``mint.nn.functional`` and ``mint.nn``'s 3-D, transposed and folding
functions and layers; ``nn``'s unpooling layers), recorded with the real MindSpore by
``tools/record_catalogue.py --suite opsvision`` into ``tests/fixtures/opsvision.json`` and
compared with mindgrad by ``tests/test_opsvision.py``. Each case is a ``Case`` of
``tests/catalogue_cases.py``. MindSpore's CPU build refuses most of the mint ones: their
records hold the refusal."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from catalogue_cases import Case, _r

IMG = _r(401, (2, 3, 5, 6))
GRID = _r(402, (2, 4, 3, 2), lo=-1.2, hi=1.2)
VOL = _r(403, (1, 2, 3, 4, 5))
GRID3 = _r(404, (1, 2, 3, 2, 3), lo=-1.1, hi=1.1)
THETA = _r(405, (2, 2, 3), lo=-1, hi=1)
THETA3 = _r(406, (1, 3, 4), lo=-1, hi=1)
ANCHORS = np.array([[0, 0, 4, 3], [1, 2, 6, 7], [3, 1, 5, 2]], np.float32)
GTS = np.array([[1, 1, 3, 4], [0, 2, 7, 5]], np.float32)
DELTAS = _r(407, (3, 4), lo=-0.5, hi=0.5)
NHWC = _r(408, (2, 5, 6, 3))
BOXES = np.array([[0.1, 0.2, 0.7, 0.9], [0.0, -0.1, 1.1, 0.6], [0.3, 0.3, 0.35, 0.8]],
                 np.float32)
BOX_IDX = np.array([1, 0, 1], np.int32)
LOGITS = _r(409, (5, 3, 4))
LENS = np.array([5, 3, 4], np.int32)
SAMPLES = _r(410, (2, 3, 2), lo=0.0, hi=0.99)
SAMPLES3 = _r(411, (1, 2, 3), lo=0.0, hi=0.99)
PLANE = _r(412, (2, 3, 7, 6))
CUBE = _r(413, (1, 2, 6, 5, 7))


def _unpool_indices(seed: int, lead: tuple, pooled: tuple, k: int) -> np.ndarray:
    """Flat positions a max pooling of kernel = stride ``k`` could return: one per window,
    inside it, so that no two agree."""
    rng = np.random.default_rng(seed)
    full = tuple(p * k for p in pooled)
    grids = np.meshgrid(*(np.arange(p) for p in pooled), indexing="ij")
    pos = [g * k + rng.integers(0, k, size=lead + pooled) for g in grids]
    return np.ravel_multi_index(tuple(pos), full).astype(np.int64)


U1 = _r(414, (2, 3, 4))
U1_IDX = _unpool_indices(415, (2, 3), (4,), 2)
U2 = _r(416, (1, 2, 3, 3))
U2_IDX = _unpool_indices(417, (1, 2), (3, 3), 2)
U3 = _r(418, (1, 2, 2, 2, 3))
U3_IDX = _unpool_indices(419, (1, 2), (2, 2, 3), 2)
KER3 = _r(420, (4, 2, 2, 3, 2))
KERT = _r(421, (3, 2, 3, 3))   # (C_in, C_out / groups, kh, kw)
COLS = _r(422, (2, 3 * 4, 12))  # fold: 3 channels, 2x2 windows, 3x4 of them
DX = _r(426, (2, 4, 6, 5))
DW = _r(427, (3, 4, 2, 3))
DOFF = _r(428, (2, 3 * 6, 3, 2), lo=-1.5, hi=1.5)   # stride 2, padding 1 on the left
DW2 = _r(429, (4, 2, 3, 3))
DOFF2 = _r(430, (2, 3 * 2 * 9, 3, 1), lo=-1.2, hi=1.2)  # 2 deformable groups, dilation 2


def _f(name: str, **kw: Any) -> Callable:
    return lambda ms, ops, *xs: getattr(ms.mint.nn.functional, name)(*xs, **kw)


def _layer(space: str, make: Callable, seed: int = 0) -> Callable:
    """``fn(ms, ops, *xs)``: the layer ``make(ms.<space>)`` (``space`` 'nn' or 'mint.nn'),
    its Parameters (by name) set from a fixed seed, called on ``xs``."""
    def fn(ms, ops, *xs):
        ns = ms.nn if space == "nn" else ms.mint.nn
        net = make(ns)
        rng = np.random.default_rng(seed)
        for _, p in sorted(net.parameters_and_names(), key=lambda kv: kv[0]):
            p.set_data(ms.Tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype(np.float32)))
        return net(*xs)
    return fn


CASES: list[Case] = [
    # --- ops: sampling ------------------------------------------------------------------------
    Case("grid_sample", lambda ms, ops, x, g: ops.grid_sample(x, g), [IMG, GRID], (0, 1),
         rtol=1e-4),
    Case("grid_sample_nearest_border",
         lambda ms, ops, x, g: ops.grid_sample(x, g, "nearest", "border"), [IMG, GRID], (0,),
         rtol=1e-4),
    Case("grid_sample_reflection_align",
         lambda ms, ops, x, g: ops.grid_sample(x, g, "bilinear", "reflection", True),
         [IMG, GRID], (0, 1), rtol=1e-4),
    Case("grid_sample_bicubic", lambda ms, ops, x, g: ops.grid_sample(x, g, "bicubic"),
         [IMG, GRID], (0, 1), rtol=1e-4),
    Case("grid_sample_bicubic_border_align",
         lambda ms, ops, x, g: ops.grid_sample(x, g, "bicubic", "border", True),
         [IMG, GRID], (0, 1), rtol=1e-4),
    Case("grid_sample_bicubic_reflection",
         lambda ms, ops, x, g: ops.grid_sample(x, g, "bicubic", "reflection"),
         [IMG, GRID], (0, 1), rtol=1e-4),
    Case("grid_sample_3d", lambda ms, ops, x, g: ops.grid_sample(x, g), [VOL, GRID3], (0, 1),
         rtol=1e-4),
    Case("grid_sample_3d_nearest_reflection",
         lambda ms, ops, x, g: ops.grid_sample(x, g, "nearest", "reflection", True),
         [VOL, GRID3], (0,), rtol=1e-4),
    Case("grid_sample_3d_border", lambda ms, ops, x, g: ops.grid_sample(x, g, "bilinear",
                                                                        "border"),
         [VOL, GRID3], (0, 1), rtol=1e-4),
    Case("affine_grid", lambda ms, ops, t: ops.affine_grid(t, (2, 3, 4, 5)), [THETA], (0,)),
    Case("affine_grid_align", lambda ms, ops, t: ops.affine_grid(t, (2, 1, 3, 1), True),
         [THETA], (0,)),
    Case("affine_grid_3d", lambda ms, ops, t: ops.affine_grid(t, (1, 2, 2, 3, 4)), [THETA3],
         (0,)),
    Case("crop_and_resize", lambda ms, ops, im, b, i: ops.crop_and_resize(im, b, i, (4, 3)),
         [NHWC, BOXES, BOX_IDX], (0, 1), rtol=1e-4),
    Case("crop_and_resize_nearest",
         lambda ms, ops, im, b, i: ops.crop_and_resize(im, b, i, (3, 5), "nearest", 0.5),
         [NHWC, BOXES, BOX_IDX], (0,), rtol=1e-4),
    Case("crop_and_resize_one_row",
         lambda ms, ops, im, b, i: ops.crop_and_resize(im, b, i, (1, 2), extrapolation_value=-1.0),
         [NHWC, BOXES, BOX_IDX], (0,), rtol=1e-4),
    Case("deformable_conv2d",
         lambda ms, ops, x, w, o, b: ops.deformable_conv2d(x, w, o, (2, 3), (1, 1, 2, 2),
                                                           (0, 0, 1, 0), b),
         [DX, DW, DOFF, _r(431, (3,))], (0, 1, 2, 3), rtol=1e-4),
    Case("deformable_conv2d_groups",
         lambda ms, ops, x, w, o: ops.deformable_conv2d(x, w, o, (3, 3), (1, 1, 2, 3),
                                                        (1, 1, 0, 1), None, (1, 1, 1, 2), 2, 2),
         [DX, DW2, DOFF2], (0, 1, 2), rtol=1e-4),
    # --- ops: boxes and decoding ----------------------------------------------------------
    Case("iou", lambda ms, ops, a, g: ops.iou(a, g), [ANCHORS, GTS], (0, 1)),
    Case("iou_iof", lambda ms, ops, a, g: ops.iou(a, g, "iof"), [ANCHORS, GTS], (0, 1)),
    Case("bounding_box_encode", lambda ms, ops, a, g: ops.bounding_box_encode(a, g),
         [ANCHORS[:2], GTS], (0, 1)),
    Case("bounding_box_encode_means",
         lambda ms, ops, a, g: ops.bounding_box_encode(a, g, (0.1, 0.0, -0.2, 0.1),
                                                       (0.5, 1.0, 2.0, 1.5)),
         [ANCHORS[:2], GTS]),
    Case("bounding_box_decode",
         lambda ms, ops, a, d: ops.bounding_box_decode(a, d, (6, 5)), [ANCHORS, DELTAS],
         (0, 1)),
    Case("bounding_box_decode_clip",
         lambda ms, ops, a, d: ops.bounding_box_decode(a, d * 8, (20, 30), (0.1, 0.0, -0.2, 0.1),
                                                       (0.5, 1.0, 2.0, 1.5), 0.2),
         [ANCHORS, DELTAS]),
    Case("check_valid",
         lambda ms, ops, b, m: ops.check_valid(b, m),
         [np.array([[0, 0, 4, 3], [1, 2, 9, 7], [-1, 1, 5, 2], [0, 0, 9, 11], [2, 2, 9, 12]],
                   np.float32), np.array([12, 5, 2], np.float32)]),
    Case("ctc_greedy_decoder", lambda ms, ops, x, n: ops.ctc_greedy_decoder(x, n),
         [LOGITS, LENS]),
    Case("ctc_greedy_decoder_no_merge",
         lambda ms, ops, x, n: ops.ctc_greedy_decoder(x, n, False),
         [np.repeat(LOGITS, 2, axis=0), LENS * 2]),
    # --- ops: unpooling and fractional pooling -------------------------------------------------
    Case("max_unpool1d", lambda ms, ops, x, i: ops.max_unpool1d(x, i, 2), [U1, U1_IDX], (0,)),
    Case("max_unpool1d_size", lambda ms, ops, x, i: ops.max_unpool1d(x, i, 2, output_size=(9,)),
         [U1, U1_IDX], (0,)),
    Case("max_unpool2d", lambda ms, ops, x, i: ops.max_unpool2d(x, i, 2), [U2, U2_IDX], (0,)),
    Case("max_unpool2d_unbatched_pad",
         lambda ms, ops, x, i: ops.max_unpool2d(x[0], i[0], 3, 2, 1, (6, 6)), [U2, U2_IDX],
         (0,)),
    Case("max_unpool2d_size_out_of_range",
         lambda ms, ops, x, i: ops.max_unpool2d(x[0], i[0], 3, 2, 1, (7, 6)), [U2, U2_IDX]),
    Case("max_unpool3d", lambda ms, ops, x, i: ops.max_unpool3d(x, i, 2), [U3, U3_IDX], (0,)),
    Case("max_unpool2d_bad_index",
         lambda ms, ops, x, i: ops.max_unpool2d(x, i * 0 + 36, 2), [U2, U2_IDX]),
    Case("fractional_max_pool2d",
         lambda ms, ops, x, s: ops.fractional_max_pool2d(x, 2, (3, 4), None, True, s),
         [PLANE, SAMPLES], (0,)),
    Case("fractional_max_pool2d_ratio",
         lambda ms, ops, x, s: ops.fractional_max_pool2d(x, (3, 2), None, (0.5, 0.7), True, s),
         [PLANE, SAMPLES], (0,)),
    Case("fractional_max_pool2d_unbatched",
         lambda ms, ops, x, s: ops.fractional_max_pool2d(x[0], 3, (4, 2),
                                                         _random_samples=s[:1]),
         [PLANE, SAMPLES], (0,)),
    Case("fractional_max_pool3d",
         lambda ms, ops, x, s: ops.fractional_max_pool3d(x, 2, (3, 2, 4), None, True, s),
         [CUBE, SAMPLES3], (0,)),
    Case("fractional_max_pool3d_ratio",
         lambda ms, ops, x, s: ops.fractional_max_pool3d(x, (2, 3, 2), None, (0.5, 0.5, 0.6),
                                                         False, s),
         [CUBE, SAMPLES3], (0,)),
    Case("fractional_max_pool2d_random",
         lambda ms, ops, x: ops.fractional_max_pool2d(x, 2, output_size=(3, 3)), [PLANE],
         values=False),
    # --- bad input: refused by both ----------------------------------------------------------
    Case("grid_sample_bad_grid", lambda ms, ops, x, g: ops.grid_sample(x, g[..., :1]),
         [IMG, GRID]),
    Case("affine_grid_bad_size", lambda ms, ops, t: ops.affine_grid(t, (3, 1, 4, 4)), [THETA]),
    Case("iou_bad_mode", lambda ms, ops, a, g: ops.iou(a, g, "giou"), [ANCHORS, GTS]),
    Case("crop_and_resize_bad_method",
         lambda ms, ops, im, b, i: ops.crop_and_resize(im, b, i, (2, 2), "cubic"),
         [NHWC, BOXES, BOX_IDX]),
    Case("fractional_max_pool2d_too_big",
         lambda ms, ops, x, s: ops.fractional_max_pool2d(x, 4, (5, 5), _random_samples=s),
         [PLANE, SAMPLES]),
    Case("deformable_conv2d_bad_offsets",
         lambda ms, ops, x, w, o: ops.deformable_conv2d(x, w, o[:, :9], (2, 3), (1, 1, 2, 2),
                                                        (0, 0, 1, 0)), [DX, DW, DOFF]),
    # --- nn layers --------------------------------------------------------------------------
    Case("nn_MaxUnpool1d", _layer("nn", lambda nn: nn.MaxUnpool1d(2)), [U1, U1_IDX], (0,)),
    Case("nn_MaxUnpool2d", _layer("nn", lambda nn: nn.MaxUnpool2d(2, 2)), [U2, U2_IDX], (0,)),
    Case("nn_MaxUnpool3d", _layer("nn", lambda nn: nn.MaxUnpool3d(2)), [U3, U3_IDX], (0,)),
    Case("nn_FractionalMaxPool2d",
         lambda ms, ops, x, s: ms.nn.FractionalMaxPool2d(
             3, output_ratio=(0.6, 0.5), _random_samples=s)(x), [PLANE, SAMPLES], (0,)),
    Case("nn_FractionalMaxPool3d",
         lambda ms, ops, x, s: ms.nn.FractionalMaxPool3d(
             2, (2, 3, 3), return_indices=True, _random_samples=s)(x), [CUBE, SAMPLES3], (0,)),
    # --- mint.nn.functional -----------------------------------------------------------------
    Case("f_grid_sample", _f("grid_sample"), [IMG, GRID], (0, 1), rtol=1e-4),
    Case("f_grid_sample_nearest_align", _f("grid_sample", mode="nearest", align_corners=True),
         [IMG, GRID], (0,), rtol=1e-4),
    Case("f_adaptive_avg_pool3d", _f("adaptive_avg_pool3d", output_size=(3, 2, 1)), [CUBE],
         (0,)),
    Case("f_avg_pool3d", _f("avg_pool3d", kernel_size=2), [CUBE], (0,)),
    Case("f_avg_pool3d_stride_pad", _f("avg_pool3d", kernel_size=3, stride=2, padding=1,
                                       count_include_pad=False), [CUBE], (0,)),
    Case("f_conv3d", _f("conv3d", padding=1), [VOL, KER3, _r(423, (4,))], (0, 1, 2)),
    Case("f_conv3d_stride", _f("conv3d", stride=(1, 2, 2)), [VOL, KER3], (0, 1)),
    Case("f_conv_transpose2d", _f("conv_transpose2d", stride=2, padding=1, output_padding=1),
         [IMG, KERT, _r(424, (2,))], (0, 1, 2)),
    Case("f_conv_transpose2d_dilation", _f("conv_transpose2d", dilation=2), [IMG, KERT],
         (0, 1)),
    Case("f_unfold", _f("unfold", kernel_size=2, padding=1, stride=2), [IMG], (0,)),
    Case("f_unfold_dilation", _f("unfold", kernel_size=(2, 3), dilation=(2, 1)), [IMG], (0,)),
    Case("f_fold", _f("fold", output_size=(4, 5), kernel_size=2), [COLS], (0,)),
    Case("f_max_unpool2d", _f("max_unpool2d", kernel_size=2), [U2, U2_IDX], (0,)),
    Case("f_interpolate_bilinear", _f("interpolate", size=(7, 4), mode="bilinear"), [IMG],
         (0,)),
    Case("f_interpolate_bilinear_align",
         _f("interpolate", scale_factor=1.5, mode="bilinear", align_corners=True), [IMG], (0,)),
    Case("f_interpolate_bicubic", _f("interpolate", size=(8, 4), mode="bicubic"), [IMG],
         (0,)),
    Case("f_interpolate_bicubic_align",
         _f("interpolate", scale_factor=(1.5, 0.5), mode="bicubic", align_corners=True), [IMG],
         (0,)),
    # --- mint.nn layers ----------------------------------------------------------------------
    Case("m_Conv3d", _layer("mint.nn", lambda nn: nn.Conv3d(2, 3, (2, 2, 3), padding=1)),
         [VOL], (0,)),
    Case("m_ConvTranspose2d",
         _layer("mint.nn", lambda nn: nn.ConvTranspose2d(3, 4, 3, stride=2, groups=1)),
         [IMG], (0,)),
    Case("m_AvgPool3d", _layer("mint.nn", lambda nn: nn.AvgPool3d(2, stride=1)), [CUBE], (0,)),
    Case("m_AdaptiveAvgPool3d", _layer("mint.nn", lambda nn: nn.AdaptiveAvgPool3d(2)), [CUBE],
         (0,)),
    Case("m_Unfold", _layer("mint.nn", lambda nn: nn.Unfold(3, padding=1)), [IMG], (0,)),
    Case("m_Fold", _layer("mint.nn", lambda nn: nn.Fold((3, 4), 2, padding=(0, 1))),
         [_r(425, (1, 8, 10))], (0,)),
    Case("m_MaxUnpool2d", _layer("mint.nn", lambda nn: nn.MaxUnpool2d(2)), [U2, U2_IDX],
         (0,)),
    Case("m_ReflectionPad3d", _layer("mint.nn", lambda nn: nn.ReflectionPad3d((1, 2, 0, 1, 2, 1))),
         [CUBE], (0,)),
    Case("m_ReplicationPad3d", _layer("mint.nn", lambda nn: nn.ReplicationPad3d(2)), [CUBE],
         (0,)),
    Case("m_UpsamplingBilinear2d",
         _layer("mint.nn", lambda nn: nn.UpsamplingBilinear2d(size=(4, 9))), [IMG], (0,)),
]
