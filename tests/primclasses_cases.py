"""The operator-class cases (``ops.Name(...)(...)`` of ``mindspore.ops.operations``: the
optimizer updates, losses, activations, array, math and random classes), shared by the
recorder (``tools/record_catalogue.py --suite primclasses``, run with the real MindSpore) and
``tests/test_primclasses.py`` (run with mindgrad). Same ``Case`` API as
``tests/catalogue_cases.py``.

The optimizer cases (``_apply``) make Parameters of their first inputs, call the class and
return its outputs followed by the Parameters' values after the call: the in-place update is
compared as well as what the call returns."""
from __future__ import annotations

import numpy as np

from catalogue_cases import Case, _i, _r

X23 = _r(301, (2, 3))
X34 = _r(302, (3, 4))
X234 = _r(303, (2, 3, 4))
X1234 = _r(304, (1, 2, 3, 4))
X8 = _r(305, (8,))
P23 = _r(306, (2, 3), lo=0.05, hi=0.95)
T23 = _r(307, (2, 3), lo=0.0, hi=1.0)
POS23 = _r(308, (2, 3), lo=0.2, hi=2.0)
G23 = _r(309, (2, 3))
NCHW = _r(310, (1, 2, 4, 4))
I8 = np.array([3, 0, 5, 1], np.int32)


def _s(v: float) -> np.ndarray:
    return np.array(v, np.float32)


def _apply(make, n_params, outs: bool = True):
    """``make(ms, ops)`` is the operator; the first ``n_params`` inputs (or those at the
    positions of the tuple ``n_params``) become Parameters. The result: the call's outputs
    (unless ``outs`` is False: MindSpore's CPU kernel of some classes writes only the
    Parameters) and then every Parameter after the call."""
    def run(ms, ops, *xs):
        at = range(n_params) if isinstance(n_params, int) else n_params
        args = [ms.Parameter(x, name=f"p{k}") if k in at else x for k, x in enumerate(xs)]
        params = [args[k] for k in at]
        out = make(ms, ops)(*args)
        got = (tuple(out) if isinstance(out, (tuple, list)) else (out,)) if outs else ()
        return got + tuple(p.value() for p in params)
    return run


V2 = _r(320, (2, 3), lo=0.5, hi=2.0)
A2 = _r(321, (2, 3), lo=0.1, hi=1.0)
B2 = _r(322, (2, 3), lo=0.1, hi=1.0)
C2 = _r(323, (2, 3), lo=0.1, hi=1.0)
M2 = _r(324, (2, 3), lo=-0.5, hi=0.5)

CASES: list[Case] = [
    # --- optimizer updates: in-place on the Parameters ---------------------------------------
    Case("ApplyMomentum", _apply(lambda ms, ops: ops.ApplyMomentum(), 2),
         [V2, A2, _s(0.1), G23, _s(0.9)]),
    Case("ApplyMomentum_nesterov_scale", _apply(lambda ms, ops: ops.ApplyMomentum(
        use_nesterov=True, gradient_scale=0.5), 2), [V2, A2, _s(0.1), G23, _s(0.9)]),
    Case("ApplyMomentum_bad_shape", _apply(lambda ms, ops: ops.ApplyMomentum(), 2),
         [V2, A2, _s(0.1), _r(325, (3,)), _s(0.9)]),
    Case("ApplyAdagrad", _apply(lambda ms, ops: ops.ApplyAdagrad(), 2), [V2, A2, _s(0.1), G23]),
    Case("ApplyAdagrad_no_slots", _apply(lambda ms, ops: ops.ApplyAdagrad(False), 2),
         [V2, A2, _s(0.1), G23]),
    Case("ApplyAdagradV2", _apply(lambda ms, ops: ops.ApplyAdagradV2(1e-6), 2),
         [V2, A2, _s(0.1), G23]),
    Case("ApplyAdadelta", _apply(lambda ms, ops: ops.ApplyAdadelta(), 3),
         [V2, A2, B2, _s(0.1), _s(0.9), _s(1e-6), G23]),
    Case("ApplyAdaMax", _apply(lambda ms, ops: ops.ApplyAdaMax(), 3),
         [V2, M2, B2, _s(0.9), _s(0.1), _s(0.9), _s(0.99), _s(1e-6), G23]),
    Case("ApplyRMSProp", _apply(lambda ms, ops: lambda *a: ops.ApplyRMSProp()(*a, 0.9, 0.5,
                                                                              1e-6), 3,
                                outs=False), [V2, A2, B2, _s(0.1), G23]),
    Case("ApplyCenteredRMSProp", _apply(lambda ms, ops: ops.ApplyCenteredRMSProp(), 4,
                                        outs=False),
         [V2, M2, A2 + 0.5, B2, G23, _s(0.1), _s(0.9), _s(0.5), _s(1e-6)]),
    Case("ApplyFtrl", _apply(lambda ms, ops: ops.ApplyFtrl(), 3),
         [V2, A2, M2, G23, _s(0.1), _s(0.01), _s(0.02), _s(-0.5)]),
    Case("ApplyGradientDescent", _apply(lambda ms, ops: ops.ApplyGradientDescent(), 1),
         [V2, _s(0.1), G23]),
    Case("ApplyProximalAdagrad", _apply(lambda ms, ops: ops.ApplyProximalAdagrad(), 2),
         [V2, A2, _s(0.1), _s(0.01), _s(0.02), G23]),
    Case("ApplyProximalGradientDescent",
         _apply(lambda ms, ops: ops.ApplyProximalGradientDescent(), 1),
         [V2, _s(0.1), _s(0.01), _s(0.02), G23]),
    Case("ApplyAddSign", _apply(lambda ms, ops: ops.ApplyAddSign(), 2),
         [V2, M2, _s(0.1), _s(1.0), _s(0.5), _s(0.9), G23]),
    Case("ApplyPowerSign", _apply(lambda ms, ops: ops.ApplyPowerSign(), 2),
         [V2, M2, _s(0.1), _s(np.e), _s(0.5), _s(0.9), G23]),
    Case("ApplyAdamWithAmsgrad", _apply(lambda ms, ops: ops.ApplyAdamWithAmsgrad(), 4),
         [V2, M2, A2, B2, _s(0.9), _s(0.99), _s(0.1), G23]),
    Case("ApplyAdamWithAmsgradV2", _apply(lambda ms, ops: ops.ApplyAdamWithAmsgradV2(), 4),
         [V2, M2, A2, B2, _s(0.9), _s(0.99), _s(0.1), _s(0.8), _s(0.95), _s(1e-8), G23]),
    Case("ApplyAdagradDA", _apply(lambda ms, ops: ops.ApplyAdagradDA(), 3),
         [V2, M2, A2, G23, _s(0.1), _s(0.01), _s(0.02), np.array(2, np.int64)]),
    Case("Adam", _apply(lambda ms, ops: ops.Adam(), 3, outs=False),
         [V2, M2, A2, _s(0.9), _s(0.99), _s(0.1), _s(0.9), _s(0.99), _s(1e-8), G23]),
    Case("Adam_nesterov", _apply(lambda ms, ops: ops.Adam(use_nesterov=True), 3, outs=False),
         [V2, M2, A2, _s(0.9), _s(0.99), _s(0.1), _s(0.9), _s(0.99), _s(1e-8), G23]),
    Case("AdamNoUpdateParam", _apply(lambda ms, ops: ops.AdamNoUpdateParam(), 2),
         [M2, A2, _s(0.9), _s(0.99), _s(0.1), _s(0.9), _s(0.99), _s(1e-8), G23]),
    Case("AdamWeightDecay", _apply(lambda ms, ops: ops.AdamWeightDecay(), 3, outs=False),
         [V2, M2, A2, _s(0.1), _s(0.9), _s(0.99), _s(1e-8), _s(0.01), G23]),
    Case("SGD", _apply(lambda ms, ops: ops.SGD(), (0, 3, 5)),
         [V2, G23, _s(0.1), A2, _s(0.9), np.ones((2, 3), np.float32)]),
    Case("SGD_nesterov_decay", _apply(lambda ms, ops: ops.SGD(0.0, 0.01, True), (0, 3, 5)),
         [V2, G23, _s(0.1), A2, _s(0.9), np.zeros((2, 3), np.float32)]),
    Case("SGD_dampening", _apply(lambda ms, ops: ops.SGD(0.3, 0.01), (0, 3, 5)),
         [V2, G23, _s(0.1), A2, _s(0.9), np.zeros((2, 3), np.float32)]),
    Case("SGD_nesterov_dampening", _apply(lambda ms, ops: ops.SGD(0.1, 0.0, True), (0, 3, 5)),
         [V2, G23, _s(0.1), A2, _s(0.9), np.zeros((2, 3), np.float32)]),
    Case("SparseApplyAdagrad", _apply(lambda ms, ops: ops.SparseApplyAdagrad(0.1), 2),
         [V2, A2, G23[:1], np.array([1], np.int32)]),
    Case("SparseApplyAdagradV2", _apply(lambda ms, ops: ops.SparseApplyAdagradV2(0.1, 1e-6),
                                        2), [V2, A2, G23, np.array([1, 0], np.int32)]),
    Case("SparseApplyFtrl", _apply(lambda ms, ops: ops.SparseApplyFtrl(0.1, 0.01, 0.02, -0.5),
                                   3), [V2, A2, M2, G23[:1], np.array([1], np.int32)]),
    Case("SparseApplyRMSProp", _apply(lambda ms, ops: ops.SparseApplyRMSProp(0.9, 0.5, 1e-6),
                                      3), [V2, A2, B2, _s(0.1), G23, np.array([1, 0], np.int32)]),
    # --- priority names -------------------------------------------------------------------
    Case("SoftmaxCrossEntropyWithLogits_bad_shape",
         lambda ms, ops, x, y: ops.SoftmaxCrossEntropyWithLogits()(x, y), [X23, X34]),
    Case("Depend", lambda ms, ops, x, y: ops.Depend()(x, y * 2), [X23, X23], (0, 1)),
    Case("SoftmaxCrossEntropyWithLogits",
         lambda ms, ops, x, y: ops.SoftmaxCrossEntropyWithLogits()(x, y),
         [X23, np.eye(3, dtype=np.float32)[[0, 2]]], (0,)),
    Case("SoftmaxCrossEntropyWithLogits_soft",
         lambda ms, ops, x, y: ops.SoftmaxCrossEntropyWithLogits()(x, y), [X23, P23]),
    Case("SparseSoftmaxCrossEntropyWithLogits",
         lambda ms, ops, x, y: ops.SparseSoftmaxCrossEntropyWithLogits()(x, y),
         [X34, np.array([0, 3, 1], np.int32)], (0,)),
    Case("SparseSoftmaxCrossEntropyWithLogits_grad",
         lambda ms, ops, x, y: ops.SparseSoftmaxCrossEntropyWithLogits(True)(x, y),
         [X34, np.array([0, 3, 1], np.int32)]),
    Case("Conv2DBackpropInput", lambda ms, ops, d, w: ops.Conv2DBackpropInput(3, 3)(
        d, w, (1, 2, 5, 5)), [_r(330, (1, 3, 3, 3)), _r(331, (3, 2, 3, 3))], (0, 1)),
    Case("Conv2DBackpropInput_same_stride", lambda ms, ops, d, w: ops.Conv2DBackpropInput(
        3, 3, pad_mode="same", stride=2)(d, w, (1, 2, 6, 6)),
         [_r(332, (1, 3, 3, 3)), _r(333, (3, 2, 3, 3))], (0, 1)),
    Case("Conv2DBackpropInput_pad", lambda ms, ops, d, w: ops.Conv2DBackpropInput(
        3, 2, pad_mode="pad", pad=1)(d, w, (1, 2, 4, 4)),
         [_r(334, (1, 3, 5, 5)), _r(335, (3, 2, 2, 2))], (0, 1)),
    Case("Conv2DTranspose", lambda ms, ops, d, w: ops.Conv2DTranspose(3, 3)(
        d, w, (1, 2, 5, 5)), [_r(330, (1, 3, 3, 3)), _r(331, (3, 2, 3, 3))], (0,)),
    Case("ResizeBilinearV2", lambda ms, ops, x: ops.ResizeBilinearV2()(x, (6, 3)), [NCHW],
         (0,)),
    Case("ResizeBilinearV2_align", lambda ms, ops, x: ops.ResizeBilinearV2(True)(x, (7, 5)),
         [NCHW], (0,)),
    Case("ResizeBilinearV2_half_pixel",
         lambda ms, ops, x: ops.ResizeBilinearV2(False, True)(x, (6, 3)), [NCHW], (0,)),
    Case("ResizeNearestNeighbor", lambda ms, ops, x: ops.ResizeNearestNeighbor((6, 3))(x),
         [NCHW], (0,)),
    Case("ResizeNearestNeighbor_align",
         lambda ms, ops, x: ops.ResizeNearestNeighbor((7, 3), True)(x), [NCHW], (0,)),
    Case("ResizeNearestNeighborV2",
         lambda ms, ops, x: ops.ResizeNearestNeighborV2()(x, ms.Tensor(np.array([6, 3],
                                                                               np.int32))),
         [NCHW], (0,)),
    # --- elementwise math -------------------------------------------------------------------
    Case("Addcdiv", lambda ms, ops, a, b, c, v: ops.Addcdiv()(a, b, c, v),
         [X23, G23, POS23, _s(0.5)], (0, 1, 2)),
    Case("Addcmul", lambda ms, ops, a, b, c, v: ops.Addcmul()(a, b, c, v),
         [X23, G23, POS23, _s(0.5)], (0, 1, 2)),
    Case("BitwiseAnd", lambda ms, ops, a, b: ops.BitwiseAnd()(a, b),
         [_i(340, (5,), 16), _i(341, (5,), 16)]),
    Case("BitwiseOr", lambda ms, ops, a, b: ops.BitwiseOr()(a, b),
         [_i(340, (5,), 16), _i(341, (5,), 16)]),
    Case("BitwiseXor", lambda ms, ops, a, b: ops.BitwiseXor()(a, b),
         [_i(340, (5,), 16), _i(341, (5,), 16)]),
    Case("Fmax", lambda ms, ops, a, b: ops.Fmax()(a, b), [X23, G23], (0, 1)),
    Case("Heaviside", lambda ms, ops, a, b: ops.Heaviside()(a, b),
         [np.array([-1.0, 0.0, 2.0], np.float32), np.array([0.5, 0.3, 0.1], np.float32)]),
    Case("Hypot", lambda ms, ops, a, b: ops.Hypot()(a, b), [X23, G23], (0, 1)),
    Case("Lerp", lambda ms, ops, a, b, w: ops.Lerp()(a, b, w), [X23, G23, T23], (0, 1, 2)),
    Case("Xlogy", lambda ms, ops, a, b: ops.Xlogy()(a, b), [X23, POS23], (0, 1)),
    Case("MulNoNan", lambda ms, ops, a, b: ops.MulNoNan()(a, b),
         [np.array([np.inf, 2.0, np.nan], np.float32), np.array([0.0, 3.0, 0.0], np.float32)]),
    Case("MulNoNan_grad", lambda ms, ops, a, b: ops.MulNoNan()(a, b), [X23, G23], (0, 1)),
    Case("SquaredDifference", lambda ms, ops, a, b: ops.SquaredDifference()(a, b), [X23, G23],
         (0, 1)),
    Case("Trunc", lambda ms, ops, x: ops.Trunc()(x), [X23 * 3]),
    Case("Rint", lambda ms, ops, x: ops.Rint()(x),
         [np.array([-1.5, -0.5, 0.5, 1.5, 2.5, 2.7, -2.2], np.float32)]),
    Case("Sinc", lambda ms, ops, x: ops.Sinc()(x), [X23], (0,)),
    Case("Softsign", lambda ms, ops, x: ops.Softsign()(x), [X23], (0,)),
    Case("Inv", lambda ms, ops, x: ops.Inv()(x), [POS23], (0,)),
    Case("IsClose", lambda ms, ops, a, b: ops.IsClose(1e-2, 1e-3)(a, b), [X23, X23 + 0.005]),
    Case("NanToNum", lambda ms, ops, x: ops.NanToNum(1.0, 5.0, -5.0)(x),
         [np.array([np.nan, np.inf, -np.inf, 0.5], np.float32)]),
    Case("Logit", lambda ms, ops, x: ops.Logit(0.1)(x), [T23], (0,)),
    Case("Cross", lambda ms, ops, a, b: ops.Cross(1)(a, b), [X23, G23], (0, 1)),
    Case("Cross_default", lambda ms, ops, a, b: ops.Cross()(a, b), [X23.T.copy(), G23.T.copy()],
         (0, 1)),
    Case("Cdist", lambda ms, ops, a, b: ops.Cdist(2.0)(a, b), [X34, _r(342, (2, 4))], (0, 1)),
    Case("Cdist_p1", lambda ms, ops, a, b: ops.Cdist(1.0)(a, b), [X34, _r(342, (2, 4))]),
    # --- activations --------------------------------------------------------------------------
    Case("CeLU", lambda ms, ops, x: ops.CeLU(0.5)(x), [X23], (0,)),
    Case("SeLU", lambda ms, ops, x: ops.SeLU()(x), [X23]),
    Case("HShrink", lambda ms, ops, x: ops.HShrink(0.6)(x), [X23], (0,)),
    Case("SoftShrink", lambda ms, ops, x: ops.SoftShrink(0.6)(x), [X23], (0,)),
    Case("HSigmoid", lambda ms, ops, x: ops.HSigmoid()(x), [X23 * 3], (0,)),
    Case("FastGeLU", lambda ms, ops, x: ops.FastGeLU()(x), [X23], (0,)),
    Case("Gelu", lambda ms, ops, x: ops.Gelu()(x), [X23], (0,)),
    Case("GLU", lambda ms, ops, x: ops.GLU(1)(x), [X34], (0,)),
    Case("PReLU", lambda ms, ops, x, w: ops.PReLU()(x, w), [X1234, np.array([0.1, 0.3],
                                                                             np.float32)],
         (0, 1)),
    # --- losses -----------------------------------------------------------------------------
    Case("SigmoidCrossEntropyWithLogits",
         lambda ms, ops, x, y: ops.SigmoidCrossEntropyWithLogits()(x, y), [X23, T23], (0, 1)),
    Case("BCEWithLogitsLoss", lambda ms, ops, x, y, w, p: ops.BCEWithLogitsLoss()(x, y, w, p),
         [X23, T23, POS23, _r(343, (3,), lo=0.5)], (0,)),
    Case("BCEWithLogitsLoss_none",
         lambda ms, ops, x, y, w, p: ops.BCEWithLogitsLoss("none")(x, y, w, p),
         [X23, T23, POS23, _r(343, (3,), lo=0.5)], (0,)),
    Case("BinaryCrossEntropy", lambda ms, ops, x, y, w: ops.BinaryCrossEntropy()(x, y, w),
         [P23, T23, POS23], (0,)),
    Case("BinaryCrossEntropy_sum_noweight",
         lambda ms, ops, x, y: ops.BinaryCrossEntropy("sum")(x, y), [P23, T23], (0,)),
    Case("KLDivLoss", lambda ms, ops, x, y: ops.KLDivLoss()(x, y), [np.log(P23), T23], (0,)),
    Case("KLDivLoss_batchmean", lambda ms, ops, x, y: ops.KLDivLoss("batchmean")(x, y),
         [np.log(P23), T23], (0,)),
    Case("L2Loss", lambda ms, ops, x: ops.L2Loss()(x), [X23], (0,)),
    Case("SmoothL1Loss", lambda ms, ops, x, y: ops.SmoothL1Loss(0.5)(x, y), [X23, G23], (0,)),
    Case("SmoothL1Loss_mean", lambda ms, ops, x, y: ops.SmoothL1Loss(1.0, "mean")(x, y),
         [X23, G23], (0,)),
    Case("NLLLoss", lambda ms, ops, x, t, w: ops.NLLLoss()(x, t, w),
         [np.log(P23), np.array([0, 2], np.int32), np.array([0.5, 1.0, 2.0], np.float32)],
         (0,)),
    Case("NLLLoss_none_ignore", lambda ms, ops, x, t, w: ops.NLLLoss("none", 2)(x, t, w),
         [np.log(P23), np.array([0, 2], np.int32), np.array([0.5, 1.0, 2.0], np.float32)],
         (0,)),
    Case("MultiMarginLoss", lambda ms, ops, x, t: ops.MultiMarginLoss()(x, t),
         [X34, np.array([0, 3, 1], np.int64)], (0,)),
    # --- normalization ------------------------------------------------------------------------
    Case("L2Normalize", lambda ms, ops, x: ops.L2Normalize(1)(x), [X23], (0,)),
    Case("L2Normalize_axis0", lambda ms, ops, x: ops.L2Normalize(0, 1e-3)(x), [X234], (0,)),
    Case("LayerNorm", lambda ms, ops, x, g, b: ops.LayerNorm()(x, g, b),
         [X234, _r(344, (3, 4)), _r(345, (3, 4))], (0, 1, 2)),
    Case("LayerNorm_last", lambda ms, ops, x, g, b: ops.LayerNorm(-1, -1, 1e-5)(x, g, b),
         [X234, _r(346, (4,)), _r(347, (4,))], (0, 1, 2)),
    Case("LRN", lambda ms, ops, x: ops.LRN(2, 1.0, 0.5, 0.75)(x), [_r(348, (1, 5, 2, 2))],
         (0,)),
    # --- reductions and statistics ----------------------------------------------------------
    Case("ReduceAll", lambda ms, ops, x: ops.ReduceAll()(x, 1),
         [np.array([[True, False], [True, True]])]),
    Case("ReduceAny_keep", lambda ms, ops, x: ops.ReduceAny(True)(x, 0),
         [np.array([[True, False], [False, False]])]),
    Case("ReduceStd", lambda ms, ops, x: ops.ReduceStd(1)(x), [X234], (0,)),
    Case("ReduceStd_all_biased", lambda ms, ops, x: ops.ReduceStd((), False, True)(x), [X23]),
    Case("LpNorm", lambda ms, ops, x: ops.LpNorm(1, 3)(x), [X234], (0,)),
    Case("LpNorm_keep", lambda ms, ops, x: ops.LpNorm([0, 2], 2, True)(x), [X234], (0,)),
    Case("SquareSumAll", lambda ms, ops, x, y: ops.SquareSumAll()(x, y), [X23, G23]),
    Case("EqualCount", lambda ms, ops, x, y: ops.EqualCount()(x, y),
         [np.array([1, 2, 3], np.int32), np.array([1, 5, 3], np.int32)]),
    Case("CumulativeLogsumexp", lambda ms, ops, x, a: ops.CumulativeLogsumexp()(x, a),
         [X23, np.array(1, np.int32)], (0,)),
    Case("CumulativeLogsumexp_excl_rev",
         lambda ms, ops, x, a: ops.CumulativeLogsumexp(True, True)(x, a),
         [X23, np.array(1, np.int32)], (0,)),
    Case("Trace", lambda ms, ops, x: ops.Trace()(x), [X34], (0,)),
    # --- segments, searching, sorting -------------------------------------------------------
    Case("SegmentSum", lambda ms, ops, x, s: ops.SegmentSum()(x, s),
         [X34, np.array([0, 0, 2], np.int32)], (0,)),
    Case("SegmentMean", lambda ms, ops, x, s: ops.SegmentMean()(x, s),
         [X34, np.array([0, 0, 2], np.int32)], (0,)),
    Case("SegmentMax", lambda ms, ops, x, s: ops.SegmentMax()(x, s),
         [X34, np.array([0, 0, 2], np.int32)], (0,)),
    Case("SegmentMin", lambda ms, ops, x, s: ops.SegmentMin()(x, s),
         [X34, np.array([0, 1, 1], np.int32)], (0,)),
    Case("SegmentProd", lambda ms, ops, x, s: ops.SegmentProd()(x, s),
         [X34, np.array([1, 1, 1], np.int32)]),
    Case("SearchSorted", lambda ms, ops, s, v: ops.SearchSorted()(s, v),
         [np.array([[1, 3, 5, 7], [2, 4, 6, 8]], np.float32),
          np.array([[3, 6], [1, 8]], np.float32)], fresh=True),
    Case("SearchSorted_right_i32", lambda ms, ops, s, v: ops.SearchSorted(ms.int32, True)(s, v),
         [np.array([[1, 3, 5, 7], [2, 4, 6, 8]], np.float32),
          np.array([[3, 6], [1, 8]], np.float32)], fresh=True),
    Case("LowerBound", lambda ms, ops, s, v: ops.LowerBound()(s, v),
         [np.array([[1, 3, 3, 7], [2, 4, 6, 8]], np.float32),
          np.array([[3, 6, 0], [1, 8, 9]], np.float32)]),
    Case("UpperBound", lambda ms, ops, s, v: ops.UpperBound(ms.int64)(s, v),
         [np.array([[1, 3, 3, 7], [2, 4, 6, 8]], np.float32),
          np.array([[3, 6, 0], [1, 8, 9]], np.float32)]),
    Case("Sort", lambda ms, ops, x: ops.Sort()(x), [X34], (0,)),
    Case("Sort_desc_axis0", lambda ms, ops, x: ops.Sort(0, True)(x), [X34], (0,)),
    Case("Unique", lambda ms, ops, x: ops.Unique()(x), [np.array([3, 1, 3, 2, 1], np.int32)]),
    Case("NonZero", lambda ms, ops, x: ops.NonZero()(x),
         [np.array([[0, 1, 2], [0, 0, 3]], np.float32)]),
    Case("MaskedSelect", lambda ms, ops, x, m: ops.MaskedSelect()(x, m),
         [X23, np.array([[True, False, True], [False, False, True]])], (0,)),
    Case("InvertPermutation", lambda ms, ops: ms.Tensor(np.array(
        ops.InvertPermutation()((2, 0, 3, 1)), np.int32)), []),
    Case("UnravelIndex", lambda ms, ops, i, d: ops.UnravelIndex()(i, d),
         [np.array([5, 0, 11], np.int32), np.array([3, 4], np.int32)]),
    # --- array manipulation -------------------------------------------------------------------
    Case("DepthToSpace", lambda ms, ops, x: ops.DepthToSpace(2)(x), [_r(350, (1, 8, 2, 3))],
         (0,)),
    Case("SpaceToDepth", lambda ms, ops, x: ops.SpaceToDepth(2)(x), [_r(351, (1, 2, 4, 6))],
         (0,)),
    Case("Diag", lambda ms, ops, x: ops.Diag()(x), [_r(354, (3,))], (0,)),
    Case("Diag_2d", lambda ms, ops, x: ops.Diag()(x), [_r(355, (2, 2))], (0,)),
    Case("DiagPart", lambda ms, ops, x: ops.DiagPart()(x), [_r(356, (2, 3, 2, 3))], (0,)),
    Case("Dense", lambda ms, ops, x, w, b: ops.Dense()(x, w, b),
         [X23, _r(357, (4, 3)), _r(358, (4,))], (0, 1, 2)),
    Case("Flatten", lambda ms, ops, x: ops.Flatten()(x), [X234], (0,)),
    Case("GatherD", lambda ms, ops, x, i: ops.GatherD()(x, 1, i),
         [X23, np.array([[0, 0], [2, 1]], np.int32)], (0,)),
    Case("GatherV2", lambda ms, ops, x, i: ops.GatherV2()(x, i, 1, 0),
         [X34, np.array([3, 0], np.int32)], (0,)),
    Case("Meshgrid", lambda ms, ops, a, b: ops.Meshgrid()((a, b)),
         [_r(359, (3,)), _r(360, (2,))], (0, 1)),
    Case("Meshgrid_ij", lambda ms, ops, a, b: ops.Meshgrid("ij")((a, b)),
         [_r(359, (3,)), _r(360, (2,))]),
    Case("Pack", lambda ms, ops, a, b: ops.Pack(1)((a, b)), [X23, G23], (0, 1)),
    Case("Unpack", lambda ms, ops, x: ops.Unpack(1)(x), [X23], (0,)),
    Case("Unstack", lambda ms, ops, x: ops.Unstack()(x), [X23], (0,)),
    Case("Tril", lambda ms, ops, x: ops.Tril(1)(x), [X34], (0,)),
    Case("Triu", lambda ms, ops, x: ops.Triu(-1)(x), [X34], (0,)),
    Case("TrilIndices", lambda ms, ops: ops.TrilIndices(3, 4, 1)(), []),
    Case("TriuIndices", lambda ms, ops: ops.TriuIndices(3, 2, -1, ms.int64)(), []),
    Case("MatrixPower", lambda ms, ops, x: ops.MatrixPower(3)(x), [_r(361, (2, 2, 2))], (0,)),
    Case("Svd", lambda ms, ops, x: ops.Svd()(x)[0], [X34]),
    Case("Svd_values", lambda ms, ops, x: ops.Svd(compute_uv=False)(x), [X34]),
    Case("Svd_uv", lambda ms, ops, x: (lambda s, u, v: (s, ops.matmul(u * s, v.T)))(
        *ops.Svd()(x)), [X34]),
    Case("Eye", lambda ms, ops: ops.Eye()(2, 3, ms.float32), []),
    Case("Ones", lambda ms, ops: ops.Ones()((2, 3), ms.int32), []),
    Case("Zeros", lambda ms, ops: ops.Zeros()((2, 2), ms.float32), []),
    Case("Range", lambda ms, ops, a, b, d: ops.Range()(a, b, d),
         [np.array(1.0, np.float32), np.array(4.0, np.float32), np.array(0.5, np.float32)]),
    Case("LinSpace", lambda ms, ops, a, b: ops.LinSpace()(a, b, 5),
         [np.array(1.0, np.float32), np.array(3.0, np.float32)]),
    Case("FillV2", lambda ms, ops, v: ops.FillV2()((2, 3), v), [np.array(4, np.int32)]),
    Case("InplaceUpdateV2", lambda ms, ops, x, v: ops.InplaceUpdateV2()(
        x, ms.Tensor(np.array([1, 0], np.int32)), v), [X34[:2], _r(362, (2, 4))]),
    Case("TensorScatterSub", lambda ms, ops, x, u: ops.TensorScatterSub()(
        x, ms.Tensor(np.array([[0], [2], [0]], np.int32)), u), [X34, _r(363, (3, 4))], (0, 1)),
    Case("TensorScatterElements", lambda ms, ops, x, u: ops.TensorScatterElements(1, "add")(
        x, ms.Tensor(np.array([[0, 2], [1, 1]], np.int32)), u), [X23, _r(364, (2, 2))]),
    Case("ScatterAddWithAxis", lambda ms, ops, x, u: ops.ScatterAddWithAxis(1)(
        x, ms.Tensor(np.array([[0, 2], [1, 1]], np.int32)), u), [X23, _r(364, (2, 2))]),
    Case("IdentityN", lambda ms, ops, a, b: ops.IdentityN()((a, b)), [X23, G23]),
    Case("Eps", lambda ms, ops, x: ops.Eps()(x), [X23]),
    Case("FillDiagonal", lambda ms, ops, x: ops.FillDiagonal(9.0)(x), [X34]),
    Case("FillDiagonal_wrap", lambda ms, ops, x: ops.FillDiagonal(9.0, True)(x),
         [_r(366, (7, 3))]),
    Case("MatrixTriangularSolve", lambda ms, ops, a, b: ops.MatrixTriangularSolve()(a, b),
         [np.tril(_r(367, (3, 3))) + 3 * np.eye(3, dtype=np.float32), _r(368, (3, 2))]),
    Case("MatrixTriangularSolve_upper_adj",
         lambda ms, ops, a, b: ops.MatrixTriangularSolve(False, True)(a, b),
         [np.triu(_r(367, (3, 3))) + 3 * np.eye(3, dtype=np.float32), _r(368, (3, 2))]),
    # --- pooling, convolution -----------------------------------------------------------------
    Case("AdaptiveAvgPool2D", lambda ms, ops, x: ops.AdaptiveAvgPool2D((2, 3))(x), [NCHW],
         (0,)),
    Case("AdaptiveMaxPool2D", lambda ms, ops, x: ops.AdaptiveMaxPool2D((2, 2))(x), [NCHW],
         (0,)),
    Case("AvgPool3D", lambda ms, ops, x: ops.AvgPool3D(2, 2)(x), [_r(369, (1, 1, 4, 4, 4))],
         (0,)),
    Case("MaxPool3D", lambda ms, ops, x: ops.MaxPool3D(2, 2)(x), [_r(370, (1, 1, 4, 4, 4))],
         (0,)),
    Case("MaxPoolWithArgmax", lambda ms, ops, x: ops.MaxPoolWithArgmax(2, 2)(x), [NCHW], (0,)),
    Case("Conv3D", lambda ms, ops, x, w: ops.Conv3D(2, 2)(x, w),
         [_r(371, (1, 1, 3, 3, 3)), _r(372, (2, 1, 2, 2, 2))], (0, 1)),
    Case("Conv3DTranspose", lambda ms, ops, x, w: ops.Conv3DTranspose(2, 1, 2)(x, w),
         [_r(373, (1, 2, 2, 2, 2)), _r(374, (2, 1, 2, 2, 2))], (0, 1)),
    # --- random draws (shapes and dtypes) -----------------------------------------------------
    Case("Dropout", lambda ms, ops, x: ops.Dropout(0.5)(x), [X234], values=False),
    Case("Dropout2D", lambda ms, ops, x: ops.Dropout2D(0.5)(x), [X1234], values=False),
    Case("Dropout3D", lambda ms, ops, x: ops.Dropout3D(0.5)(x), [_r(375, (1, 2, 2, 2, 2))],
         values=False),
    Case("StandardNormal", lambda ms, ops: ops.StandardNormal(3)((2, 3)), [], values=False),
    Case("UniformReal", lambda ms, ops: ops.UniformReal(3)((2, 3)), [], values=False),
    Case("UniformInt", lambda ms, ops, a, b: ops.UniformInt(3)((2, 3), a, b),
         [np.array(1, np.int32), np.array(5, np.int32)], values=False),
    Case("TruncatedNormal", lambda ms, ops: ops.TruncatedNormal()(ms.Tensor(np.array(
        [2, 3], np.int32))), [], values=False),
    Case("Multinomial", lambda ms, ops, p: ops.Multinomial(3)(p, 4),
         [np.array([[0.1, 0.9], [0.5, 0.5]], np.float32)], values=False),
    Case("RandomShuffle", lambda ms, ops, x: ops.RandomShuffle(3)(x), [X34], values=False),
]
