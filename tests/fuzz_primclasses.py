"""The bad-input fuzzer's table (``fuzz_ops``) for the operator classes of the primclasses
family (``ops.operations.optimizer_ops``, ``layer_ops``, ``math_class_ops``,
``array_class_ops``, ``random_class_ops`` and the classes of the name table's primclasses
block): a valid call per class and, where cheap, its NumPy reference. ``fuzz_ops`` imports
this module at its end, so the names join its ``SPECS``."""
from __future__ import annotations

import inspect
import re

import numpy as np

from mindgrad import int64 as ms_int64
from mindgrad import ops

import fuzz_ops as F
from fuzz_ops import _arr, _cls2, _shape

F32 = np.float32


def _t(rng, shape, dt=F32):
    return ("tensor", None, _arr(rng, shape, dt))


def _p(rng, shape, dt=F32):  # positive
    return ("tensor", None, np.abs(_arr(rng, shape, dt)) + np.asarray(0.5, dt))


def _f(v):
    return ("float", None, v)


def _b(v):
    return ("bool", None, v)


def _i(v):
    return ("int", None, v)


# --- the name table's classes over functions the fuzzer calls under their own name ---------
_DONE = {s.name for s in F.SPECS}


def _drop_attrs(base, attrs):
    """``base.make`` less the slots of the constructor's arguments ``attrs``."""
    try:
        params = list(inspect.signature(base.fn).parameters)
    except (TypeError, ValueError):
        params = []

    def make(rng):
        slots = base.make(rng)
        kept = []
        for k, (kind, kw, v) in enumerate(slots):
            name = kw if kw is not None else (params[k] if k < len(params) else None)
            if name not in attrs:
                kept.append((kind, kw, v))
        return kept
    return make


for _c in sorted(ops.__all__):
    _k = getattr(ops, _c)
    _m = re.fullmatch(r"Operator class for ``(\w+)``\.", getattr(_k, "__doc__", None) or "")
    if _c in _DONE or not isinstance(_k, type) or not _m:
        continue
    _base = next((s for s in F.SPECS if getattr(s.fn, "__name__", "") == _m.group(1)), None)
    if _base is None:
        continue
    _attrs = [p for p in inspect.signature(_k.__init__).parameters if p != "self"]

    def _call(*args, _cls=_k, **kwargs):
        return _cls()(*args, **kwargs)

    _call.__name__ = _c
    F.SPECS.append(F.Spec(_c, _call, _drop_attrs(_base, _attrs), None,
                          names=(_base.name, *_base.names, getattr(_base.fn, "__name__", "")),
                          out=_base.out if not _attrs else "", int_ok=_base.int_ok,
                          float_only=_base.float_only, int_trunc=_base.int_trunc))


# --- optimizer updates (Tensors in place of Parameters are rebound) -------------------------
def _state(rng, n, shape=(2, 3)):
    return [_p(rng, shape) for _ in range(n)]


_cls2("ApplyMomentum", lambda rng: [*_state(rng, 2), _f(0.1), _t(rng, (2, 3)), _f(0.9)], 0)
_cls2("ApplyAdagrad", lambda rng: [_b(True), *_state(rng, 2), _f(0.1), _t(rng, (2, 3))], 1)
_cls2("ApplyAdagradV2", lambda rng: [_f(1e-6), _b(True), *_state(rng, 2), _f(0.1),
                                     _t(rng, (2, 3))], 2)
_cls2("ApplyAdadelta", lambda rng: [*_state(rng, 3), _f(0.1), _f(0.9), _f(1e-6),
                                    _t(rng, (2, 3))], 0)
_cls2("ApplyAdaMax", lambda rng: [*_state(rng, 3), _f(0.9), _f(0.1), _f(0.9), _f(0.99),
                                  _f(1e-6), _t(rng, (2, 3))], 0)
_cls2("ApplyRMSProp", lambda rng: [*_state(rng, 3), _f(0.1), _t(rng, (2, 3)), _f(0.9),
                                   _f(0.5), _f(1e-6)], 0)
_cls2("ApplyCenteredRMSProp", lambda rng: [*_state(rng, 4), _t(rng, (2, 3)), _f(0.1), _f(0.9),
                                           _f(0.5), _f(1e-6)], 0)
_cls2("ApplyFtrl", lambda rng: [*_state(rng, 3), _t(rng, (2, 3)), _f(0.1), _f(0.01), _f(0.02),
                                _f(-0.5)], 0)
_cls2("ApplyGradientDescent", lambda rng: [*_state(rng, 1), _f(0.1), _t(rng, (2, 3))], 0)
_cls2("ApplyProximalAdagrad", lambda rng: [*_state(rng, 2), _f(0.1), _f(0.01), _f(0.02),
                                           _t(rng, (2, 3))], 0)
_cls2("ApplyProximalGradientDescent", lambda rng: [*_state(rng, 1), _f(0.1), _f(0.01),
                                                   _f(0.02), _t(rng, (2, 3))], 0)
_cls2("ApplyAddSign", lambda rng: [*_state(rng, 2), _f(0.1), _f(1.0), _f(0.5), _f(0.9),
                                   _t(rng, (2, 3))], 0)
_cls2("ApplyPowerSign", lambda rng: [*_state(rng, 2), _f(0.1), _f(2.7), _f(0.5), _f(0.9),
                                     _t(rng, (2, 3))], 0)
_cls2("ApplyAdamWithAmsgrad", lambda rng: [*_state(rng, 4), _f(0.9), _f(0.99), _f(0.1),
                                           _t(rng, (2, 3))], 0)
_cls2("ApplyAdamWithAmsgradV2", lambda rng: [*_state(rng, 4), _f(0.9), _f(0.99), _f(0.1),
                                             _f(0.9), _f(0.99), _f(1e-8), _t(rng, (2, 3))], 0)
_cls2("ApplyAdagradDA", lambda rng: [*_state(rng, 3), _t(rng, (2, 3)), _f(0.1), _f(0.01),
                                     _f(0.02), _i(2)], 0)
_cls2("Adam", lambda rng: [*_state(rng, 3), _f(0.9), _f(0.99), _f(0.1), _f(0.9), _f(0.99),
                           _f(1e-8), _t(rng, (2, 3))], 0)
_cls2("AdamNoUpdateParam", lambda rng: [*_state(rng, 2), _f(0.9), _f(0.99), _f(0.1), _f(0.9),
                                        _f(0.99), _f(1e-8), _t(rng, (2, 3))], 0)
_cls2("AdamWeightDecay", lambda rng: [*_state(rng, 3), _f(0.1), _f(0.9), _f(0.99), _f(1e-8),
                                      _f(0.01), _t(rng, (2, 3))], 0)
_cls2("SGD", lambda rng: [_f(0.0), _f(0.01), _b(False), _p(rng, (2, 3)), _t(rng, (2, 3)),
                          _f(0.1), _p(rng, (2, 3)), _f(0.9), _p(rng, (2, 3))], 3)


def _rows_idx(rng):
    return ("index", None, np.array([1, 0], np.int32))


_cls2("SparseApplyAdagrad", lambda rng: [_f(0.1), *_state(rng, 2), _t(rng, (2, 3)),
                                         _rows_idx(rng)], 1)
_cls2("SparseApplyAdagradV2", lambda rng: [_f(0.1), _f(1e-6), *_state(rng, 2), _t(rng, (2, 3)),
                                           _rows_idx(rng)], 2)
_cls2("SparseApplyFtrl", lambda rng: [_f(0.1), _f(0.01), _f(0.02), _f(-0.5), *_state(rng, 3),
                                      _t(rng, (2, 3)), _rows_idx(rng)], 4)
_cls2("SparseApplyRMSProp", lambda rng: [_f(0.9), _f(0.5), _f(1e-6), *_state(rng, 3), _f(0.1),
                                         _t(rng, (2, 3)), _rows_idx(rng)], 3)

# --- losses, normalizations, layers ---------------------------------------------------------
_cls2("SoftmaxCrossEntropyWithLogits", lambda rng: [_t(rng, (2, 3)), _p(rng, (2, 3))], 0,
      names=("log_softmax", "softmax"))
_cls2("SparseSoftmaxCrossEntropyWithLogits",
      lambda rng: [_b(False), _t(rng, (3, 4)), ("index", None, np.array([0, 3, 1], np.int32))],
      1, names=("one_hot",))
_cls2("SigmoidCrossEntropyWithLogits", lambda rng: [_t(rng, (2, 3)), _p(rng, (2, 3))], 0,
      names=("binary_cross_entropy_with_logits",))
_cls2("NLLLoss", lambda rng: [("str", None, "mean"), _i(-100), _t(rng, (2, 3)),
                              ("index", None, np.array([0, 2], np.int32)), _p(rng, (3,))], 2,
      names=("nll_loss",))
_cls2("L2Loss", lambda rng: [_t(rng, _shape(rng))], 0,
      lambda x: np.asarray(np.sum(x * x) / 2, x.dtype))
_cls2("L2Normalize", lambda rng: [("axis", None, 0), _f(1e-4), _t(rng, (2, 3))], 2,
      lambda a, e, x: x / np.sqrt(np.maximum(np.sum(x * x, a, keepdims=True), e)))
_cls2("LayerNorm", lambda rng: [_i(1), _i(1), _f(1e-7), _t(rng, (2, 3)), _t(rng, (3,)),
                                _t(rng, (3,))], 3)
_cls2("ResizeBilinearV2", lambda rng: [_b(False), _b(False), _t(rng, (1, 2, 3, 3)),
                                       ("shape", None, (4, 5))], 2)
_cls2("ResizeNearestNeighborV2", lambda rng: [_b(False), _b(False), _t(rng, (1, 2, 3, 3)),
                                              ("shape", None, (4, 5))], 2)
_cls2("ResizeNearestNeighbor", lambda rng: [("shape", None, (4, 5)), _b(False), _b(False),
                                            _t(rng, (1, 2, 3, 3))], 3)
for _name in ("Conv2DBackpropInput", "Conv2DTranspose"):
    _cls2(_name, lambda rng: [_i(3), _i(3), _t(rng, (1, 3, 3, 3)), _t(rng, (3, 2, 3, 3)),
                              ("shape", None, (1, 2, 5, 5))], 2,
          names=("conv2d_transpose",))
_cls2("Conv3D", lambda rng: [_i(2), _i(2), _t(rng, (1, 1, 3, 3, 3)),
                             _t(rng, (2, 1, 2, 2, 2))], 2, names=("conv3d",))
_cls2("Conv3DTranspose", lambda rng: [_i(2), _i(1), _i(2), _t(rng, (1, 2, 2, 2, 2)),
                                      _t(rng, (2, 1, 2, 2, 2))], 3,
      names=("conv3d_transpose",))
_cls2("AdaptiveAvgPool2D", lambda rng: [("shape", None, (2, 2)), _t(rng, (1, 2, 4, 4))], 1,
      names=("adaptive_avg_pool2d",))
_cls2("AdaptiveMaxPool2D", lambda rng: [("shape", None, (2, 2)), _t(rng, (1, 2, 4, 4))], 1,
      names=("adaptive_max_pool2d",))
_cls2("AvgPool3D", lambda rng: [_i(2), _i(2), _t(rng, (1, 1, 4, 4, 4))], 2,
      names=("avg_pool3d",))
_cls2("MaxPool3D", lambda rng: [_i(2), _i(2), _t(rng, (1, 1, 4, 4, 4))], 2,
      names=("max_pool3d",))
_cls2("MaxPoolWithArgmax", lambda rng: [_i(2), _i(2), _t(rng, (1, 2, 4, 4))], 2,
      names=("max_pool2d",))
_cls2("Dropout", lambda rng: [_f(0.5), _t(rng, _shape(rng))], 1)
_cls2("Dropout2D", lambda rng: [_f(0.5), _t(rng, (1, 2, 3, 3))], 1)
_cls2("Dropout3D", lambda rng: [_f(0.5), _t(rng, (1, 2, 2, 2, 2))], 1)

# --- math, reductions, segments, searching ------------------------------------------------
_cls2("MulNoNan", lambda rng: [_t(rng, (2, 3)), _t(rng, (2, 3))], 0,
      lambda x, y: np.where(y == 0, 0, x * y).astype(np.result_type(x, y)), names=("mul",))
_cls2("SquaredDifference", lambda rng: [_t(rng, (2, 3)), _t(rng, (3,))], 0,
      lambda x, y: np.square(x - y), names=("sub", "square"))
_cls2("Rint", lambda rng: [_t(rng, _shape(rng))], 0, np.rint, names=("floor", "add"))
_cls2("Gelu", lambda rng: [_t(rng, _shape(rng))], 0, names=("gelu",))
_cls2("Logit", lambda rng: [_f(0.1), ("tensor", None, np.asarray(rng.random((2, 3)), F32))], 1,
      names=("logit",))
_cls2("NanToNum", lambda rng: [_f(1.0), _f(5.0), _f(-5.0), _t(rng, _shape(rng))], 3,
      lambda a, b, c, x: np.nan_to_num(x, nan=a, posinf=b, neginf=c), names=("nan_to_num",))
_cls2("Cross", lambda rng: [_i(1), _t(rng, (2, 3)), _t(rng, (2, 3))], 1,
      lambda d, a, b: np.cross(a, b, axis=d), names=("cross",))
_cls2("SquareSumAll", lambda rng: [_t(rng, (2, 3)), _t(rng, (2, 3))], 0)
_cls2("EqualCount", lambda rng: [("index", None, np.array([1, 2, 3], np.int32)),
                                 ("index", None, np.array([1, 5, 3], np.int32))], 0)
_cls2("ReduceAll", lambda rng: [_b(False), ("mask", None, rng.random((2, 3)) > 0.3),
                                ("axis", None, 1)], 1, names=("all",))
_cls2("ReduceAny", lambda rng: [_b(True), ("mask", None, rng.random((2, 3)) > 0.7),
                                ("axis", None, 0)], 1, names=("any",))
_cls2("ReduceStd", lambda rng: [("axis", None, 1), _b(True), _b(False), _t(rng, (2, 3))], 3,
      names=("std_mean",))
_cls2("LpNorm", lambda rng: [("axis", None, 1), _i(2), _b(False), _t(rng, (2, 3))], 3,
      names=("vector_norm", "norm"))
_cls2("CumulativeLogsumexp", lambda rng: [_b(False), _b(False), _t(rng, (2, 3)),
                                          ("axis", None, 1)], 2, names=("logcumsumexp",))
for _name in ("SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd"):
    _cls2(_name, lambda rng: [_t(rng, (4, 2)), ("index", None, np.array([0, 0, 1, 3],
                                                                       np.int32))], 0,
          names=("unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min",
                 "unsorted_segment_prod"))
_cls2("SearchSorted", lambda rng: [_b(False), ("tensor", None, np.array([[1, 3, 5.]], F32)),
                                   _t(rng, (1, 2))], 1, names=("searchsorted",), out="index")
for _name in ("LowerBound", "UpperBound"):
    _cls2(_name, lambda rng: [("tensor", None, np.array([[1, 3, 5.]], F32)), _t(rng, (1, 2))],
          0, names=("searchsorted",), out="index")
_cls2("Sort", lambda rng: [("axis", None, -1), _b(False), _t(rng, (2, 3))], 2,
      names=("sort",))
_cls2("Unique", lambda rng: [("index", None, rng.integers(0, 4, size=6).astype(np.int32))], 0,
      names=("unique",))
_cls2("InvertPermutation", lambda rng: [("shape", None, (2, 0, 1))], 0)
_cls2("UnravelIndex", lambda rng: [("index", None, np.array([1, 5], np.int32)),
                                   ("index", None, np.array([2, 3], np.int32))], 0,
      names=("floor_mod", "floor_div"))

# --- array manipulation --------------------------------------------------------------------
_cls2("DepthToSpace", lambda rng: [_i(2), _t(rng, (1, 8, 2, 2))], 1)
_cls2("SpaceToDepth", lambda rng: [_i(2), _t(rng, (1, 2, 4, 4))], 1)
_cls2("Diag", lambda rng: [_t(rng, _shape(rng, 1))], 0, names=("diag",))
_cls2("DiagPart", lambda rng: [_t(rng, (2, 3, 2, 3))], 0)
_cls2("Flatten", lambda rng: [_t(rng, _shape(rng, 1))], 0,
      lambda x: x.reshape(x.shape[0], -1))
_cls2("GatherV2", lambda rng: [_t(rng, (3, 4)), ("index", None, np.array([2, 0], np.int32)),
                               ("axis", None, 1)], 0, lambda x, i, a: np.take(x, i, a),
      names=("gather",))
_cls2("Meshgrid", lambda rng: [("str", None, "xy"),
                               ("tensors", None, [_arr(rng, (3,), F32), _arr(rng, (2,), F32)])],
      1, names=("meshgrid",))
_cls2("Pack", lambda rng: [("axis", None, 0),
                           ("tensors", None, [_arr(rng, (2,), F32), _arr(rng, (2,), F32)])], 1,
      names=("stack",))
_cls2("Unstack", lambda rng: [("axis", None, 0), _t(rng, (2, 3))], 1, names=("unstack",))
_cls2("Unpack", lambda rng: [("axis", None, 1), _t(rng, (2, 3))], 1, names=("unstack",))
_cls2("TrilIndices", lambda rng: [_i(3), _i(4), _i(1)], 3, names=("tril_indices",))
_cls2("TriuIndices", lambda rng: [_i(3), _i(4), _i(-1)], 3, names=("triu_indices",))
_cls2("Svd", lambda rng: [_b(False), _b(True), _t(rng, (3, 2))], 2, names=("svd",))
_cls2("Range", lambda rng: [_i(1000), _f(1.0), _f(4.0), _f(0.5)], 1, names=("range",))
_cls2("FillV2", lambda rng: [("shape", None, (2, 3)), _t(rng, ())], 0)
_cls2("InplaceUpdateV2", lambda rng: [_t(rng, (3, 2)), ("index", None, np.array([1], np.int32)),
                                      _t(rng, (1, 2))], 0, names=("inplace_update",))
_cls2("ScatterAddWithAxis", lambda rng: [_i(1), _t(rng, (2, 3)),
                                         ("index", None, np.array([[0, 2], [1, 1]], np.int32)),
                                         _t(rng, (2, 2))], 1,
      names=("tensor_scatter_elements",))
_cls2("IdentityN", lambda rng: [("tensors", None, [_arr(rng, (2,), F32)])], 0)
_cls2("Eps", lambda rng: [_t(rng, _shape(rng))], 0,
      lambda x: np.full(x.shape, np.finfo(x.dtype).tiny, x.dtype))
_cls2("FillDiagonal", lambda rng: [_f(9.0), _b(False), _t(rng, (3, 4))], 2)
_cls2("MatrixTriangularSolve", lambda rng: [_b(True), _b(False), ("tensor", None, np.tril(
    _arr(rng, (3, 3), F32)) + 3 * np.eye(3, dtype=F32)), _t(rng, (3, 2))], 2,
      names=("matrix_solve", "tril", "triu"))
_cls2("MatrixPower", lambda rng: [_i(2), _t(rng, (2, 2))], 1,
      lambda n, x: np.linalg.matrix_power(x, n), names=("matrix_power",))

# --- random classes -------------------------------------------------------------------------
_cls2("StandardNormal", lambda rng: [_i(0), _i(0), ("shape", None, (2, 3))], 2, out="")
_cls2("UniformReal", lambda rng: [_i(0), _i(0), ("shape", None, (2, 3))], 2, out="")
_cls2("UniformInt", lambda rng: [_i(0), _i(0), ("shape", None, (2, 3)), _i(1), _i(5)], 2,
      names=("randint",), out="")
_cls2("TruncatedNormal", lambda rng: [("shape", None, (2, 3))], 0, out="")
_cls2("Multinomial", lambda rng: [_i(0), _i(0), _p(rng, (2, 3)), _i(2)], 2,
      names=("multinomial",), out="")
_cls2("RandomShuffle", lambda rng: [_i(0), _i(0), _t(rng, (4, 2))], 2, names=("shuffle",),
      out="")

# --- boxes, colours, resizes, conversions, loops ---------------------------------------------
_BOXES = np.array([[0, 0, 4, 4], [1, 2, 3, 6.]], F32)
_cls2("IOU", lambda rng: [("str", None, "iou"), ("tensor", None, _BOXES.copy()),
                          ("tensor", None, _BOXES[::-1].copy())], 1)
_cls2("BoundingBoxEncode", lambda rng: [("tensor", None, _BOXES.copy()),
                                        ("tensor", None, _BOXES[::-1].copy())], 0)
_cls2("BoundingBoxDecode", lambda rng: [("shape", None, (8, 6)), ("tensor", None, _BOXES.copy()),
                                        _t(rng, (2, 4))], 1)
_cls2("CheckValid", lambda rng: [("tensor", None, _BOXES.copy()),
                                 ("tensor", None, np.array([8, 6, 1.], F32))], 0, out="bool")
_cls2("RGBToHSV", lambda rng: [("tensor", None, np.asarray(rng.random((2, 3)), F32))], 0)
_cls2("HSVToRGB", lambda rng: [("tensor", None, np.asarray(rng.random((2, 3)), F32))], 0)
_cls2("Im2Col", lambda rng: [_i(2), _t(rng, (1, 2, 3, 3))], 1, names=("unfold",))
_cls2("ResizeLinear1D", lambda rng: [("str", None, "align_corners"), _t(rng, (1, 2, 4)),
                                     ("shape", None, (6,))], 1, names=("interpolate",))
_cls2("UpsampleNearest3D", lambda rng: [_t(rng, (1, 1, 2, 2, 2)), ("shape", None, (3, 4, 2))],
      0, names=("interpolate",))
_cls2("UpsampleTrilinear3D", lambda rng: [_b(False), _t(rng, (1, 1, 2, 2, 2)),
                                          ("shape", None, (3, 4, 2))], 1,
      names=("interpolate",))
_cls2("AdaptiveAvgPool3D", lambda rng: [("shape", None, (1, 2, 2)), _t(rng, (1, 2, 3, 4, 4))],
      1, names=("adaptive_avg_pool3d",))
_cls2("AdaptiveMaxPool3D", lambda rng: [_t(rng, (1, 2, 3, 4, 4)), ("shape", None, (1, 2, 2))],
      0, names=("adaptive_max_pool3d",))
_cls2("MaxUnpool2D", lambda rng: [_i(2), _t(rng, (1, 1, 2, 2)),
                                  ("index", None, np.array([[[[1, 6], [8, 15]]]], np.int64))], 1)
_cls2("PadV3", lambda rng: [("str", None, "constant"), _t(rng, (2, 3)),
                            ("shape", None, (1, 2, 0, 1)), _f(0.5)], 1, names=("pad",))
_cls2("DataFormatDimMap", lambda rng: [("index", None, np.array([0, 1, 2, 3, -1], np.int32))], 0,
      names=("gather", "floor_mod"))
_cls2("DataFormatVecPermute", lambda rng: [("index", None, np.array([1, 2, 3, 4], np.int32))],
      0, names=("gather",))
def _fori_slots(rng):
    rounds = [0]

    def body(i, v):  # a spoiled bound (10**12) must not run for ever: the body gives up
        rounds[0] += 1
        if rounds[0] > 100:
            raise ValueError("ForiLoop body (fuzzer): more than 100 rounds")
        return ops.mul(v, 2)

    return [_i(0), _i(3), ("fn", None, body), _t(rng, (2,))]


_cls2("ForiLoop", _fori_slots, 0, names=("mul",), out="")
def _while_slots(rng):
    steps = [0]

    def cond(v):  # three rounds, whatever the (possibly spoiled) value: no endless loop
        steps[0] += 1
        return steps[0] <= 3

    return [("fn", None, cond), ("fn", None, lambda v: ops.add(v, 1)), _p(rng, (2,))]


_cls2("WhileLoop", _while_slots, 0, names=("add",), out="")
_cls2("ScalarToTensor", lambda rng: [_f(2.5)], 0, out="")
_cls2("TupleToArray", lambda rng: [("shape", None, (1, 2))], 0, out="")
_cls2("TensorShape", lambda rng: [_t(rng, _shape(rng))], 0, out="")
_cls2("DType", lambda rng: [_t(rng, _shape(rng))], 0, out="")
_cls2("CheckNumerics", lambda rng: [_t(rng, _shape(rng))], 0)
_cls2("LogSpace", lambda rng: [_i(5), _i(2), _f(0.0), _f(3.0)], 2, names=("logspace",), out="")
_cls2("NthElement", lambda rng: [_b(False), _t(rng, (3, 4)), _i(1)], 1, names=("sort",))
_cls2("NuclearNorm", lambda rng: [_t(rng, (3, 4))], 0, names=("matrix_norm", "svd"))
_cls2("ListDiff", lambda rng: [("index", None, np.array([1, 2, 3, 4], np.int32)),
                               ("index", None, np.array([2, 5], np.int32))], 0, out="")
_cls2("TridiagonalMatMul", lambda rng: [_t(rng, (1, 3)), _t(rng, (1, 3)), _t(rng, (1, 3)),
                                        _t(rng, (3, 2))], 0)
_cls2("MatrixSolveLs", lambda rng: [_t(rng, (4, 2), np.float64), _t(rng, (4, 1), np.float64),
                                    _f(0.1)], 0, names=("matrix_solve", "matmul"))
_cls2("EmbeddingLookup", lambda rng: [_t(rng, (3, 4)), ("index", None, np.array(
    [[1, 3], [0, 2]], np.int32)), _i(1)], 0, names=("gather",))
_cls2("IndexPut", lambda rng: [_i(0), _t(rng, (2, 3)), _t(rng, (2,)), ("tensors", None, [
    np.array([0, 1], np.int32), np.array([2, 0], np.int32)])], 1,
      names=("tensor_scatter_update", "tensor_scatter_add"))
_cls2("CTCLossV2", lambda rng: [_t(rng, (5, 2, 3)), ("index", None, np.array([[1, 2], [2, 0]],
                                                                            np.int32)),
                                ("index", None, np.array([5, 4], np.int32)),
                                ("index", None, np.array([2, 1], np.int32))], 0,
      names=("ctc_loss",))
_cls2("RandpermV2", lambda rng: [_i(6)], 0, out="")
_cls2("NonDeterministicInts", lambda rng: [("shape", None, (2, 3))], 0, out="")
_cls2("Cauchy", lambda rng: [("shape", None, [2, 3])], 1, out="")
_cls2("ParallelConcat", lambda rng: [("tensors", None, [_arr(rng, (1, 2), F32),
                                                        _arr(rng, (1, 2), F32)])], 0,
      names=("concat",))
_cls2("Assert", lambda rng: [_b(True), ("tensors", None, [_arr(rng, (2,), F32)])], 0, out="")
_cls2("identity", lambda rng: [_t(rng, _shape(rng))], 0, out="")
_cls2("MaxPoolWithArgmaxV2", lambda rng: [_i(2), _i(2), _t(rng, (1, 2, 4, 4))], 2,
      names=("max_pool2d",))
_cls2("MaxPool3DWithArgmax", lambda rng: [_i(2), _i(2), _i(0), _t(rng, (1, 1, 4, 4, 4))], 3,
      names=("max_pool3d",))
_cls2("MaxUnpool3D", lambda rng: [_i(2), _t(rng, (1, 1, 1, 1, 2)),
                                  ("index", None, np.array([[[[[3, 7]]]]], np.int64))], 1)
_cls2("AdjustHue", lambda rng: [("tensor", None, np.asarray(rng.random((2, 3)), F32)),
                                _f(0.2)], 0, names=("RGBToHSV", "HSVToRGB", "add"))
_cls2("AdjustSaturation", lambda rng: [("tensor", None, np.asarray(rng.random((2, 3)), F32)),
                                       _f(0.6)], 0, names=("RGBToHSV", "HSVToRGB", "mul"))
_cls2("RaggedRange", lambda rng: [("dtype", None, ms_int64),
                                  ("index", None, np.array([2, 5, 8], np.int32)),
                                  ("index", None, np.array([3, 5, 12], np.int32)),
                                  ("index", None, np.array([1, 1, 2], np.int32))], 1, out="")
_cls2("CompareAndBitpack", lambda rng: [_t(rng, (2, 16)), _f(0.1)], 0, out="")
_cls2("LogNormalReverse", lambda rng: [_f(0.5), _f(0.2), _t(rng, (2, 3))], 2, out="")
_cls2("ParameterizedTruncatedNormal", lambda rng: [
    ("shape", None, (2, 3)), _t(rng, (2,)), _p(rng, (2,)), ("tensor", None, np.array(
        [-1.0, 0.0], F32)), ("tensor", None, np.array([1.0, 3.0], F32))], 0,
      names=("erf", "erfinv"), out="")
for _name in ("FusedSparseAdam", "FusedSparseLazyAdam"):
    _cls2(_name, lambda rng: [*_state(rng, 3), _f(0.9), _f(0.99), _f(0.1), _f(0.9), _f(0.99),
                              _f(1e-8), _t(rng, (1, 3)), ("index", None,
                                                          np.array([1], np.int32))], 0,
          out="")
_cls2("FusedSparseFtrl", lambda rng: [_f(0.1), _f(0.01), _f(0.02), _f(-0.5), *_state(rng, 3),
                                      _t(rng, (2, 3)), _rows_idx(rng)], 4, out="")
_cls2("FusedSparseProximalAdagrad", lambda rng: [*_state(rng, 2), _f(0.1), _f(0.01), _f(0.02),
                                                 _t(rng, (2, 3)), _rows_idx(rng)], 0, out="")

F.NOT_FUZZED["Depend"] = "returns its first argument, whatever it is (as depend)"

# primclasses2: the classes over the sampling, cropping, CTC decoding and fractional pools
_cls2("AffineGrid", lambda rng: [_b(False), _t(rng, (2, 2, 3)), ("shape", None, (2, 1, 3, 2))],
      1, names=("affine_grid",), out="float")
_cls2("GridSampler2D", lambda rng: [("str", None, "bilinear"), ("str", None, "zeros"),
                                    _b(False), _t(rng, (1, 2, 3, 4)),
                                    ("tensor", None, F._unit(rng, (1, 2, 2, 2), F32))], 3,
      names=("grid_sample",), out="float")
_cls2("GridSampler3D", lambda rng: [("str", None, "nearest"), ("str", None, "border"),
                                    _b(True), _t(rng, (1, 1, 2, 3, 2)),
                                    ("tensor", None, F._unit(rng, (1, 2, 1, 2, 3), F32))], 3,
      names=("grid_sample",), out="float")
_cls2("CropAndResize", lambda rng: [
    ("str", None, "bilinear"), _f(0.0), _t(rng, (2, 4, 5, 2)),
    ("tensor", None, np.array([[0.1, 0.2, 0.9, 0.8], [0.0, 0.0, 1.0, 1.0]], F32)),
    ("index", None, np.array([1, 0], np.int32)), ("shape", None, (2, 3))], 2,
      names=("crop_and_resize",), out="")
_cls2("CTCGreedyDecoder", lambda rng: [_b(True), _t(rng, (4, 2, 3)),
                                       ("index", None, np.array([4, 2], np.int32))], 1,
      names=("ctc_greedy_decoder",), out="")
_cls2("FractionalMaxPoolWithFixedKsize", lambda rng: [
    _i(2), ("shape", None, (2, 2)), _t(rng, (1, 2, 5, 6)),
    ("tensor", None, np.asarray(rng.random((1, 2, 2)), F32))], 2,
      names=("fractional_max_pool2d",), out="")
_cls2("FractionalMaxPool3DWithFixedKsize", lambda rng: [
    _i(2), ("shape", None, (2, 2, 2)), _t(rng, (1, 1, 4, 5, 4)),
    ("tensor", None, np.asarray(rng.random((1, 1, 3)), F32))], 2,
      names=("fractional_max_pool3d",), out="")
