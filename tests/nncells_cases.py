"""``mindspore.nn`` cells of the nncells family (special functions, PyTorch-style layers,
embedding lookups, combined, sparse, image-quality and micro-batch cells, the sampled
softmax loss and AdamOffload), shared by the recorder (``tools/record_catalogue.py --suite
nncells``, run with the real MindSpore) and ``tests/test_nncells.py``.

Same ``Case`` API as ``catalogue_cases.py``. A cell with Parameters gets seeded values for
its trainable ones (in the order of their names) and a ``*_pgrad`` case returns their
gradients. ``print(cell)`` and the Parameter names are recorded as UTF-8 bytes (a uint8
Tensor, ``_text``) so that the fixture holds MindSpore's exact text. The cells MindSpore
2.10 runs only in GRAPH mode on the CPU (its PyNative ``ScalarCast`` and kernels refuse
them) are called through ``_graph``, a Cell whose ``construct`` is ``jit``-compiled."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from catalogue_cases import Case, _i, _r
from nnlayers_cases import _cos, _flat
from nnmisc_cases import G0, G1, W0, W1, run_optimizer


def _text(ms: Any, s: str) -> Any:
    """``s`` as a uint8 Tensor of its UTF-8 bytes."""
    return ms.Tensor(np.frombuffer(s.encode(), np.uint8).copy())


def _names(cell: Any, flags: bool = True) -> str:
    return "\n".join(f"{n} {p.name} {tuple(p.shape)}" + (f" {p.requires_grad}" if flags else "")
                      for n, p in cell.parameters_and_names())


def _meta(make: Callable, flags: bool = True) -> Callable:
    """``print(cell)`` and the Parameters' attribute names, names, shapes and flags (an
    optimizer's state: without the flag, which mindgrad keeps False)."""
    return lambda ms, ops: (_text(ms, repr(make(ms.nn))),
                            _text(ms, _names(make(ms.nn), flags) or "-"))


def _build(ms: Any, make: Callable, seed: int, train: bool = False) -> Any:
    net = make(ms.nn)
    rng = np.random.default_rng(seed)
    for _, p in sorted(net.parameters_and_names(), key=lambda item: item[0]):
        if p.requires_grad:
            p.set_data(ms.Tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype(np.float32)))
    net.set_train(train)
    return net


def _graph(ms: Any, cell: Any) -> Any:
    """``cell`` called through a jit-compiled ``construct``."""
    class Graph(ms.nn.Cell):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        @ms.jit
        def construct(self, *xs):
            return self.inner(*xs)
    return Graph(cell)


def _cell(make: Callable, seed: int = 0, graph: bool = False, train: bool = False,
          call: Callable | None = None) -> Callable:
    """``fn(ms, ops, *xs)``: the cell ``make(nn)`` with seeded trainable Parameters on ``xs``;
    in training mode, also the Parameters that are not trained (moving statistics) after."""
    def fn(ms, ops, *xs):
        net = _build(ms, make, seed, train)
        runner = _graph(ms, net) if graph else net
        out = _flat(call(runner, *xs) if call else runner(*xs))
        if train:
            out += tuple(ms.Tensor(p.asnumpy()) for _, p in net.parameters_and_names()
                         if not p.requires_grad)
        return out if len(out) > 1 else out[0]
    return fn


def _pgrad(make: Callable, seed: int = 0, train: bool = False, graph: bool = False,
           call: Callable | None = None) -> Callable:
    """``fn(ms, ops, *xs)``: the gradients of the cell's trainable Parameters of
    ``sum(cos-weights * output)``."""
    def fn(ms, ops, *xs):
        net = _build(ms, make, seed, train)
        runner = _graph(ms, net) if graph else net

        def loss(*a):
            total = None
            for o in _flat(call(runner, *a) if call else runner(*a)):
                term = (o * ms.Tensor(_cos(tuple(o.shape)))).sum()
                total = term if total is None else total + term
            return total
        return ms.grad(loss, grad_position=None, weights=net.trainable_params())(*xs)
    return fn


X234 = _r(501, (2, 3, 4))
POS = _r(502, (2, 3, 4), lo=0.2, hi=6.0)
POS2 = _r(503, (2, 3, 4), lo=0.2, hi=6.0)
BIG = np.array([0.5, 3.0, 9.5, 20.0, 150.0], np.float32)
IMG = _r(504, (2, 2, 12, 12), lo=0.0, hi=1.0)
IMG_B = np.clip(IMG + _r(505, (2, 2, 12, 12), lo=-0.2, hi=0.2), 0, 1).astype(np.float32)
IMG_U8 = _i(506, (1, 2, 6, 6), 256, np.uint8)
IMG_U8B = _i(507, (1, 2, 6, 6), 256, np.uint8)
NCHW = _r(508, (2, 4, 5, 5))
X43 = _r(509, (4, 3))
IDX = np.array([[0, 2, 5], [3, 3, -1]], np.int32)
EMB_W = _r(510, (6, 3))

SPECIAL = [
    Case("LGamma", _cell(lambda nn: nn.LGamma()), [np.concatenate([X234.ravel(), BIG])], (0,)),
    Case("LGamma_err_f64", _cell(lambda nn: nn.LGamma()), [POS.astype(np.float64)]),
    Case("DiGamma", _cell(lambda nn: nn.DiGamma()), [np.concatenate([POS.ravel(), BIG])],
         (0,)),
    Case("IGamma", _cell(lambda nn: nn.IGamma()), [POS, POS2], (1,), rtol=1e-4),
    Case("IGamma_broadcast", _cell(lambda nn: nn.IGamma()),
         [np.array([0.5, 2.0, 7.0], np.float32), _r(511, (2, 3), lo=0.1, hi=9.0)], (1,),
         rtol=1e-4),
    Case("IGamma_err_f16", _cell(lambda nn: nn.IGamma()),
         [POS.astype(np.float16), POS2.astype(np.float16)]),
    Case("LBeta", _cell(lambda nn: nn.LBeta()), [POS, POS2], (0, 1), rtol=1e-4),
    Case("LBeta_large", _cell(lambda nn: nn.LBeta()),
         [np.array([0.3, 9.0, 12.0, 40.0, 3.0], np.float32),
          np.array([50.0, 2.0, 30.0, 80.0, 1000.0], np.float32)], (0, 1), rtol=1e-4),
    Case("LBeta_err_dtypes", _cell(lambda nn: nn.LBeta()), [POS, POS2.astype(np.float16)]),
]

LAYERS = [
    Case("ChannelShuffle", _cell(lambda nn: nn.ChannelShuffle(2)), [NCHW], (0,)),
    Case("ChannelShuffle_3d", _cell(lambda nn: nn.ChannelShuffle(3)), [_r(512, (2, 6, 4))],
         (0,)),
    Case("ChannelShuffle_err_groups", lambda ms, ops: ms.nn.ChannelShuffle(0), []),
    Case("Linear", _cell(lambda nn: nn.Linear(3, 5)), [X43], (0,)),
    Case("Linear_3d_nobias", _cell(lambda nn: nn.Linear(4, 2, bias=False)), [X234], (0,)),
    Case("Linear_pgrad", _pgrad(lambda nn: nn.Linear(4, 2)), [X234]),
    Case("Linear_err_features", lambda ms, ops: ms.nn.Linear(0, 2), []),
    Case("LogSoftmaxExt_dim", _cell(lambda nn: nn.LogSoftmaxExt(1), graph=True), [X234], (0,)),
    Case("LogSoftmaxExt_none_3d", _cell(lambda nn: nn.LogSoftmaxExt(), graph=True), [X234],
         (0,)),
    Case("LogSoftmaxExt_none_2d", _cell(lambda nn: nn.LogSoftmaxExt(), graph=True), [X43],
         (0,)),
    Case("LogSoftmaxExt_none_4d", _cell(lambda nn: nn.LogSoftmaxExt(), graph=True), [NCHW],
         (0,)),
    Case("DropoutExt_eval", _cell(lambda nn: nn.DropoutExt(0.4)), [X234], (0,)),
    Case("Dropout2dExt_eval", _cell(lambda nn: nn.Dropout2dExt()), [NCHW], (0,)),
    # (in training mode MindSpore's CPU build refuses both: no DropoutExt /
    # InplaceBernoulliScalar kernel; test_nncells checks mindgrad's draws)
    Case("EmbeddingExt", _cell(lambda nn: nn.EmbeddingExt(6, 3), graph=True),
         [np.array([[0, 2, 5], [3, 3, 1]], np.int32)]),
    # (MindSpore's CPU build has no kernel for the gradient: EmbeddingDenseBackward)
    Case("EmbeddingExt_padding", _cell(lambda nn: nn.EmbeddingExt(6, 3, padding_idx=3),
                                       graph=True), [np.array([[0, 2, 5], [3, 3, 1]], np.int32)]),
    Case("EmbeddingExt_freq_int64", _cell(lambda nn: nn.EmbeddingExt(
        6, 3, scale_grad_by_freq=True), graph=True), [np.array([[0, 2, 5], [3, 3, 0]], np.int64)]),
    Case("EmbeddingExt_err_sparse", lambda ms, ops: ms.nn.EmbeddingExt(6, 3, sparse=True), []),
]

_MF = (np.array([[2, 4, 6, 0, 0], [1, 3, 5, 9, 0]], np.int32),
       np.array([[1.0, 0.5, -2.0, 0.0, 0.0], [1.5, 1.0, 0.7, -1.0, 0.0]], np.float32),
       np.array([[0, 1, 1, 0, 0], [0, 0, 1, 2, 2]], np.int32))


def _mf(op: str, **kw: Any) -> Callable:
    return lambda nn: nn.MultiFieldEmbeddingLookup(10, 2, 3, operator=op, **kw)


LOOKUPS = [
    Case("EmbeddingLookup", _cell(lambda nn: nn.EmbeddingLookup(6, 3)), [IDX]),
    # (the 'CPU' target's gradient is sparse: MindSpore's grad returns the rows of each lookup
    # unsummed; the 'DEVICE' target's is the dense table gradient)
    Case("EmbeddingLookup_device_pgrad", _pgrad(lambda nn: nn.EmbeddingLookup(
        6, 3, target="DEVICE", sparse=False)), [np.abs(IDX)]),
    Case("EmbeddingLookup_device", _cell(lambda nn: nn.EmbeddingLookup(
        6, 3, target="DEVICE", sparse=False)), [np.abs(IDX)]),
    Case("EmbeddingLookup_max_norm", _cell(lambda nn: nn.EmbeddingLookup(6, 3, max_norm=0.3)),
         [IDX]),
    Case("EmbeddingLookup_err_dense_cpu", lambda ms, ops: ms.nn.EmbeddingLookup(
        6, 3, sparse=False), []),
    Case("EmbeddingLookup_err_target", lambda ms, ops: ms.nn.EmbeddingLookup(
        6, 3, target="GPU"), []),
    Case("MultiFieldEmbeddingLookup_sum", _cell(_mf("SUM")), list(_MF)),
    Case("MultiFieldEmbeddingLookup_mean", _cell(_mf("MEAN")), list(_MF)),
    Case("MultiFieldEmbeddingLookup_max", _cell(_mf("MAX")), list(_MF)),
    Case("MultiFieldEmbeddingLookup_sum_pgrad", _pgrad(_mf("SUM", target="DEVICE",
                                                              sparse=False)), list(_MF)),
    Case("MultiFieldEmbeddingLookup_mean_pgrad", _pgrad(_mf("MEAN", target="DEVICE",
                                                              sparse=False)), list(_MF)),
    Case("MultiFieldEmbeddingLookup_max_pgrad", _pgrad(_mf("MAX", target="DEVICE",
                                                              sparse=False)), list(_MF)),
    Case("MultiFieldEmbeddingLookup_err_operator", lambda ms, ops: ms.nn.MultiFieldEmbeddingLookup(
        10, 2, 3, operator="MIN"), []),
]

COMBINED = [
    Case("Conv2dBnAct", _cell(lambda nn: nn.Conv2dBnAct(4, 3, 3)), [NCHW], (0,)),
    Case("Conv2dBnAct_bn_relu_train", _cell(lambda nn: nn.Conv2dBnAct(
        4, 3, 3, stride=2, pad_mode="pad", padding=1, has_bias=True, has_bn=True,
        activation="relu"), train=True), [NCHW], (0,), rtol=1e-4),
    Case("Conv2dBnAct_leakyrelu", _cell(lambda nn: nn.Conv2dBnAct(
        4, 2, 1, activation="leakyrelu", alpha=0.3)), [NCHW], (0,)),
    Case("Conv2dBnAct_pgrad", _pgrad(lambda nn: nn.Conv2dBnAct(
        4, 3, 3, has_bn=True, activation="sigmoid"), train=True), [NCHW], rtol=1e-4),
    Case("DenseBnAct", _cell(lambda nn: nn.DenseBnAct(3, 4)), [X43], (0,)),
    Case("DenseBnAct_bn_leaky_train", _cell(lambda nn: nn.DenseBnAct(
        3, 4, has_bn=True, activation="leakyrelu"), train=True), [X43], (0,), rtol=1e-4),
    Case("DenseBnAct_tanh_nobias", _cell(lambda nn: nn.DenseBnAct(
        3, 2, has_bias=False, activation="tanh")), [X43], (0,)),
    Case("DenseBnAct_pgrad", _pgrad(lambda nn: nn.DenseBnAct(3, 4, has_bn=True,
                                                             activation="relu"), train=True),
         [X43], rtol=1e-4),
    Case("DenseBnAct_err_has_bn", lambda ms, ops: ms.nn.DenseBnAct(3, 4, has_bn=1), []),
]

SP_IDX = np.array([[0, 1], [1, 2], [2, 0], [2, 3]], np.int64)
SP_VAL = _r(520, (4,))

SPARSE = [
    Case("SparseToDense", lambda ms, ops, i, v: ms.nn.SparseToDense()(ms.COOTensor(
        i, v, (3, 4))), [SP_IDX, SP_VAL]),
    Case("SparseToDense_int", lambda ms, ops, i, v: ms.nn.SparseToDense()(ms.COOTensor(
        i, v, (3, 5))), [SP_IDX.astype(np.int32), np.array([4, -2, 7, 1], np.int32)]),
    Case("SparseTensorDenseMatmul", lambda ms, ops, i, v, d: ms.nn.SparseTensorDenseMatmul()(
        i, v, (3, 4), d), [SP_IDX, SP_VAL, _r(521, (4, 2))], (1, 2)),
    Case("SparseTensorDenseMatmul_adjoint", lambda ms, ops, i, v, d:
         ms.nn.SparseTensorDenseMatmul(True, True)(i, v, (3, 4), d),
         [SP_IDX.astype(np.int32), SP_VAL, _r(522, (5, 3))], (1, 2)),
    Case("SparseTensorDenseMatmul_f64", lambda ms, ops, i, v, d:
         ms.nn.SparseTensorDenseMatmul()(i, v, (3, 4), d),
         [SP_IDX, SP_VAL.astype(np.float64), _r(521, (4, 2), np.float64)], (1, 2)),
]

IMAGE = [
    Case("PSNR", _cell(lambda nn: nn.PSNR(), graph=True), [IMG, IMG_B], (0, 1)),
    Case("PSNR_max_val_int", _cell(lambda nn: nn.PSNR(255), graph=True),
         [IMG * 255, IMG_B * 255], (0, 1)),
    Case("PSNR_uint8", _cell(lambda nn: nn.PSNR(), graph=True), [IMG_U8, IMG_U8B]),
    Case("PSNR_err_3d", _cell(lambda nn: nn.PSNR(), graph=True), [IMG[0], IMG_B[0]]),
    Case("PSNR_err_max_val", lambda ms, ops: ms.nn.PSNR(0.0), []),
    Case("SSIM", _cell(lambda nn: nn.SSIM(), graph=True), [IMG, IMG_B], (0, 1), rtol=1e-4),
    Case("SSIM_args", _cell(lambda nn: nn.SSIM(2.0, 5, 0.8, 0.02, 0.05), graph=True),
         [IMG * 2, IMG_B * 2], (0, 1), rtol=1e-4),
    Case("SSIM_err_small", _cell(lambda nn: nn.SSIM(), graph=True),
         [IMG[:, :, :8, :8], IMG_B[:, :, :8, :8]]),
    Case("SSIM_err_dtype", _cell(lambda nn: nn.SSIM(filter_size=3), graph=True),
         [IMG.astype(np.float64), IMG_B.astype(np.float64)]),
    Case("MSSSIM", _cell(lambda nn: nn.MSSSIM(power_factors=(0.3, 0.4, 0.3), filter_size=3),
                         graph=True), [IMG, IMG_B], (0, 1), rtol=1e-4),
    Case("MSSSIM_uint8", _cell(lambda nn: nn.MSSSIM(power_factors=(0.6, 0.4), filter_size=2),
                               graph=True), [IMG_U8, IMG_U8B], rtol=1e-4),
]


def _net3(nn: Any) -> Any:
    class Three(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 2)

        def construct(self, a, b, c):
            return self.dense(a * b + c)
    return Three()


WRAPPERS = [
    Case("GradAccumulationCell", _cell(lambda nn: nn.GradAccumulationCell(nn.Dense(3, 2), 2)),
         [X43], (0,)),
    Case("GradAccumulationCell_pgrad", _pgrad(lambda nn: nn.GradAccumulationCell(
        nn.Dense(3, 2), 4)), [X43]),
    Case("PipelineCell", _cell(lambda nn: nn.PipelineCell(nn.Dense(3, 2), 2)), [X43], (0,)),
    Case("PipelineCell_loss_two_inputs", _cell(lambda nn: nn.PipelineCell(nn.WithLossCell(
        nn.Dense(3, 2), nn.MSELoss()), 4)), [X43, _r(523, (4, 2))], (0, 1)),
    Case("MicroBatchInterleaved", _cell(lambda nn: nn.MicroBatchInterleaved(nn.Dense(3, 2))),
         [X43], (0,)),
    Case("MicroBatchInterleaved_4", _cell(lambda nn: nn.MicroBatchInterleaved(
        nn.Dense(3, 2), 4)), [X43], (0,)),
    Case("MicroBatchInterleaved_err_num", lambda ms, ops: ms.nn.MicroBatchInterleaved(
        ms.nn.Dense(3, 2), 0), []),
    Case("GradAccumulationCell_err_net", lambda ms, ops: ms.nn.GradAccumulationCell(3, 2), []),
    Case("VirtualDatasetCellTriple", _cell(lambda nn: nn.VirtualDatasetCellTriple(_net3(nn))),
         [_r(524, (3, 4)), _r(525, (3, 4)), _r(526, (3, 4))], (0, 1, 2)),
]

SS_W = _r(530, (7, 3))
SS_B = _r(531, (7,))
SS_LOGITS = _r(532, (4, 3))
SS_LABELS = np.array([[1], [4], [0], [6]], np.int32)
SS_LABELS2 = np.array([[1, 2], [4, 0], [0, 5], [6, 3]], np.int64)


def _sampled(**kw) -> Callable:
    def fn(ms, ops, w, b, y, x):
        sv = (ms.Tensor(np.array([2, 5, 3], np.int32)),
              ms.Tensor(np.array([[0.4], [0.3], [0.5], [0.2]] if y.shape[1] == 1 else
                                 [[0.4, 0.3], [0.3, 0.2], [0.5, 0.4], [0.2, 0.1]],
                                 np.float32)),
              ms.Tensor(np.array([0.45, 0.35, 0.25], np.float32)))
        return ms.nn.SampledSoftmaxLoss(sampled_values=sv, **kw)(w, b, y, x)
    return fn


LOSSES = [
    Case("SampledSoftmaxLoss", _sampled(num_sampled=3, num_classes=7),
         [SS_W, SS_B, SS_LABELS, SS_LOGITS], (0, 1, 3)),
    Case("SampledSoftmaxLoss_num_true2_mean", _sampled(num_sampled=3, num_classes=7, num_true=2,
                                                       reduction="mean"),
         [SS_W, SS_B, SS_LABELS2, SS_LOGITS], (0, 1, 3)),
    Case("SampledSoftmaxLoss_sampler_shape", lambda ms, ops, w, b, y, x: ms.nn.SampledSoftmaxLoss(
        3, 7)(w, b, y, x), [SS_W, SS_B, SS_LABELS, SS_LOGITS], values=False),
    Case("SampledSoftmaxLoss_err_num_sampled", lambda ms, ops: ms.nn.SampledSoftmaxLoss(8, 7),
         []),
    Case("SampledSoftmaxLoss_err_labels", _sampled(num_sampled=3, num_classes=7),
         [SS_W, SS_B, SS_LABELS.astype(np.float32), SS_LOGITS]),
]


def _classifier(nn: Any) -> Any:
    return nn.SequentialCell([nn.Flatten(), nn.Dense(16, 3)])


def _occlusion(label: Any, **kw: Any) -> Callable:
    """OcclusionSensitivity(**kw) of a seeded classifier, updated once; eval as float64."""
    def fn(ms, ops, x):
        model = _build(ms, _classifier, 7)
        metric = ms.nn.OcclusionSensitivity(**kw)
        metric.clear()
        metric.update(model, x, label if isinstance(label, int) else ms.Tensor(label))
        return ms.Tensor(np.asarray(metric.eval(), np.float64))
    return fn


OCC_X = _r(540, (1, 1, 4, 4))

METRICS = [
    Case("OcclusionSensitivity", _occlusion(np.array(1, np.int32)), [OCC_X]),
    Case("OcclusionSensitivity_args", _occlusion(np.array(2, np.int64), pad_val=0.5, margin=1),
         [OCC_X]),
    Case("OcclusionSensitivity_b_box", _occlusion(np.array(0, np.int32), margin=1,
                                                  b_box=[0, 0, 1, 2, -1, 3]), [OCC_X]),
    # MindSpore fails on a label of shape (1,) (a ValueError of NumPy inside its update):
    # test_nncells compares it with the first case
    Case("OcclusionSensitivity_label_1d", _occlusion(np.array([1], np.int32)), [OCC_X]),
    Case("OcclusionSensitivity_args_nbatch5", _occlusion(np.array(2, np.int64), pad_val=0.5,
                                                         margin=1, n_batch=5), [OCC_X]),
    Case("OcclusionSensitivity_err_int_label", _occlusion(1), [OCC_X]),
    Case("OcclusionSensitivity_err_batch", _occlusion(np.array([0, 1], np.int32)),
         [np.concatenate([OCC_X, OCC_X])]),
]


def _opt(make: Callable) -> Callable:
    return lambda ms, ops, w0, w1, g0, g1: run_optimizer(ms, make, w0, w1, g0, g1)


OPTIMIZERS = {
    "AdamOffload": lambda ms, ps: ms.nn.AdamOffload(ps, learning_rate=0.1),
    "AdamOffload_args": lambda ms, ps: ms.nn.AdamOffload(ps, 0.05, 0.8, 0.9, 1e-4,
                                                         weight_decay=0.1, loss_scale=2.0),
    "AdamOffload_nesterov": lambda ms, ps: ms.nn.AdamOffload(ps, 0.05, use_nesterov=True),
}

OPTIM = [Case(f"opt_{name}", _opt(make), [W0, W1, G0, G1], rtol=1e-5)
         for name, make in OPTIMIZERS.items()]

META = [Case(f"meta_{name}", _meta(make), []) for name, make in {
    "LGamma": lambda nn: nn.LGamma(),
    "IGamma": lambda nn: nn.IGamma(),
    "LBeta": lambda nn: nn.LBeta(),
    "ChannelShuffle": lambda nn: nn.ChannelShuffle(2),
    "Linear": lambda nn: nn.Linear(3, 5),
    "Linear_nobias": lambda nn: nn.Linear(3, 5, False),
    "DropoutExt": lambda nn: nn.DropoutExt(0.3),
    "Dropout2dExt": lambda nn: nn.Dropout2dExt(),
    "LogSoftmaxExt": lambda nn: nn.LogSoftmaxExt(1),
    "EmbeddingExt": lambda nn: nn.EmbeddingExt(6, 3, padding_idx=-2, max_norm=2.0),
    "EmbeddingExt_frozen": lambda nn: nn.EmbeddingExt(6, 3, _freeze=True),
    "EmbeddingLookup": lambda nn: nn.EmbeddingLookup(6, 3),
    "MultiFieldEmbeddingLookup": lambda nn: nn.MultiFieldEmbeddingLookup(6, 3, 2),
    "DenseBnAct": lambda nn: nn.DenseBnAct(3, 4, has_bn=True, activation="leakyrelu"),
    "SparseToDense": lambda nn: nn.SparseToDense(),
    "SparseTensorDenseMatmul": lambda nn: nn.SparseTensorDenseMatmul(),
    "PSNR": lambda nn: nn.PSNR(),
    "SampledSoftmaxLoss": lambda nn: nn.SampledSoftmaxLoss(2, 5),
    "GradAccumulationCell": lambda nn: nn.GradAccumulationCell(nn.Dense(3, 2), 2),
    "PipelineCell": lambda nn: nn.PipelineCell(nn.Dense(3, 2), 3),
    "MicroBatchInterleaved": lambda nn: nn.MicroBatchInterleaved(nn.Dense(3, 2)),
    "VirtualDatasetCellTriple": lambda nn: nn.VirtualDatasetCellTriple(nn.ReLU()),
}.items()] + [Case("meta_AdamOffload", _meta(lambda nn: nn.AdamOffload([nn.Dense(2, 1).weight]),
                                           flags=False), [])]

# names only (their print(cell) shows Conv2d's initializer, which mindgrad does not print)
META_NAMES = [Case(f"names_{name}", lambda ms, ops, make=make: _text(ms, _names(make(ms.nn))), [])
              for name, make in {
    "Conv2dBnAct": lambda nn: nn.Conv2dBnAct(1, 2, 3, has_bn=True, activation="relu"),
    "SSIM": lambda nn: nn.SSIM(),
    "MSSSIM": lambda nn: nn.MSSSIM(),
}.items()]

CASES: list[Case] = (SPECIAL + LAYERS + LOOKUPS + COMBINED + SPARSE + IMAGE + WRAPPERS
                     + LOSSES + METRICS + OPTIM + META + META_NAMES)
