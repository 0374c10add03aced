"""``mindspore.nn`` activations, losses, normalisations, optimizers and small cells (and
their ``mindspore.ops`` functions), shared by the recorder (``tools/record_catalogue.py
--suite nnmisc``, run with the real MindSpore) and ``tests/test_nnmisc.py``.

Same ``Case`` API as ``catalogue_cases.py``. The optimizer cases start from the same weights,
feed the same gradients for three steps and return every parameter after every step, then
the optimizer's own state in checkpoint order."""
from __future__ import annotations

import numpy as np

from catalogue_cases import Case, _i, _r

X234 = _r(101, (2, 3, 4))
X2345 = _r(102, (2, 3, 4, 5))
X23 = _r(103, (2, 3))
Y23 = _r(104, (2, 3))
Z23 = _r(105, (2, 3))
SIGN2 = np.array([1.0, -1.0], np.float32)
SIGN23 = np.sign(_r(106, (2, 3))).astype(np.float32)
P23 = _r(107, (2, 3), lo=0.05, hi=0.95)
POS23 = _r(108, (2, 3), lo=0.1, hi=2.0)
LOGP = np.log(np.random.default_rng(109).dirichlet(np.ones(3), size=2)).astype(np.float32)
PROB = np.random.default_rng(110).dirichlet(np.ones(3), size=2).astype(np.float32)
X34 = _r(111, (3, 4))
T3 = np.array([1, 0, 3], np.int64)


def _cell(name: str, *args, **kw):
    """``nn.<name>(*args, **kw)`` applied to the case's inputs."""
    return lambda ms, ops, *xs: getattr(ms.nn, name)(*args, **kw)(*xs)


def _train(name: str, *args, **kw):
    """``nn.<name>`` in training mode: its output and its moving statistics after."""
    def run(ms, ops, x):
        cell = getattr(ms.nn, name)(*args, **kw)
        cell.set_train()
        out = cell(x)
        moving = [p for _, p in cell.parameters_and_names() if not p.requires_grad]
        return (out,) + tuple(ms.Tensor(p.asnumpy()) for p in moving)
    return run


ACTIVATIONS = [
    Case("CELU", _cell("CELU", 0.7), [X234], (0,)),
    Case("CELU_default", _cell("CELU"), [X23], (0,)),
    Case("PReLU_default", _cell("PReLU"), [X234], (0,)),
    Case("PReLU_channels", lambda ms, ops, x: ms.nn.PReLU(3, 0.1)(x), [X234], (0,)),
    Case("PReLU_list_w", lambda ms, ops, x: ms.nn.PReLU(3, [0.1, 0.2, 0.3])(x), [X2345], (0,)),
    Case("GLU", _cell("GLU"), [X234], (0,)),
    Case("GLU_axis1", _cell("GLU", 1), [_r(112, (2, 4, 3))], (0,)),
    Case("Hardtanh", _cell("Hardtanh", -0.5, 0.8), [X234], (0,)),
    Case("Hardtanh_default", _cell("Hardtanh"), [X23], (0,)),
    Case("HShrink", _cell("HShrink", 0.6), [X234], (0,)),
    Case("SoftShrink", _cell("SoftShrink", 0.3), [X234], (0,)),
    Case("LogSigmoid", _cell("LogSigmoid"), [X234], (0,)),
    Case("SeLU", _cell("SeLU"), [np.abs(X234)], (0,)),
    Case("Softmin", _cell("Softmin"), [X234], (0,)),
    Case("Softmin_axis0", _cell("Softmin", 0), [X234], (0,)),
    Case("Softmax2d", _cell("Softmax2d"), [X2345], (0,)),
    Case("Softmax2d_3d", _cell("Softmax2d"), [X234], (0,)),
    Case("Softsign", _cell("Softsign"), [X234], (0,)),
    Case("Tanhshrink", _cell("Tanhshrink"), [X234], (0,)),
    Case("Threshold", _cell("Threshold", 0.1, 20.0), [X234], (0,)),
    Case("RReLU_shape", _cell("RReLU"), [X234], values=False),
    Case("FastGelu", _cell("FastGelu"), [X234], (0,)),
    Case("ops_prelu", lambda ms, ops, x, w: ops.prelu(x, w), [X234, _r(113, (3,))], (0, 1)),
    Case("ops_prelu_1", lambda ms, ops, x, w: ops.prelu(x, w),
         [X234, np.array([0.2], np.float32)], (0, 1)),
    Case("ops_rrelu_shape", lambda ms, ops, x: ops.rrelu(x, 0.1, 0.3), [X234], values=False),
    Case("ops_soft_shrink", lambda ms, ops, x: ops.soft_shrink(x, 0.4), [X234], (0,)),
    Case("ops_fast_gelu", lambda ms, ops, x: ops.fast_gelu(x), [X234], (0,)),
    Case("ops_fast_gelu_f64", lambda ms, ops, x: ops.fast_gelu(x), [X23.astype(np.float64)],
         (0,)),
]

LOSSES = [
    Case("HuberLoss", _cell("HuberLoss"), [X234, _r(114, (2, 3, 4))], (0, 1)),
    Case("HuberLoss_sum_delta", _cell("HuberLoss", "sum", 0.5), [X234, _r(114, (2, 3, 4))],
         (0, 1)),
    Case("HuberLoss_none", _cell("HuberLoss", "none", 2.0), [X23, Y23], (0, 1)),
    Case("KLDivLoss", _cell("KLDivLoss"), [LOGP, PROB], (0,)),
    Case("KLDivLoss_sum", _cell("KLDivLoss", "sum"), [LOGP, PROB], (0,)),
    Case("KLDivLoss_none", _cell("KLDivLoss", "none"), [LOGP, PROB], (0,)),
    Case("MarginRankingLoss", _cell("MarginRankingLoss", 0.2), [X23, Y23, SIGN23], (0, 1)),
    Case("MarginRankingLoss_none", _cell("MarginRankingLoss", 0.0, "none"), [X23, Y23, SIGN23],
         (0, 1)),
    Case("CosineEmbeddingLoss", _cell("CosineEmbeddingLoss", 0.1), [X23, Y23, SIGN2], (0, 1)),
    Case("CosineEmbeddingLoss_none", _cell("CosineEmbeddingLoss", -0.5, "none"),
         [X234, _r(115, (2, 3, 4)), np.array([[1, -1, 1, -1], [-1, -1, 1, 1]], np.float32)],
         (0, 1)),
    Case("HingeEmbeddingLoss", _cell("HingeEmbeddingLoss", 1.2), [X23, SIGN23], (0,)),
    Case("HingeEmbeddingLoss_none", _cell("HingeEmbeddingLoss", 0.5, "none"), [X23, SIGN23],
         (0,)),
    Case("MultiMarginLoss", _cell("MultiMarginLoss"), [X34, T3], (0,)),
    Case("MultiMarginLoss_p2_w", lambda ms, ops, x, t, w: ms.nn.MultiMarginLoss(
        2, 0.7, "sum", w)(x, t), [X34, T3, _r(116, (4,), lo=0.5)], (0,)),
    Case("MultiMarginLoss_none", _cell("MultiMarginLoss", 1, 1.0, "none"), [X34, T3], (0,)),
    Case("MultiLabelSoftMarginLoss", _cell("MultiLabelSoftMarginLoss"),
         [X34, (_r(117, (3, 4)) > 0).astype(np.float32)], (0,)),
    Case("MultiLabelSoftMarginLoss_w_none", lambda ms, ops, x, t, w:
         ms.nn.MultiLabelSoftMarginLoss(w, "none")(x, t),
         [X34, (_r(117, (3, 4)) > 0).astype(np.float32), _r(118, (4,), lo=0.5)], (0,)),
    Case("PoissonNLLLoss", _cell("PoissonNLLLoss"), [X23, POS23], (0,)),
    Case("PoissonNLLLoss_full_nolog", _cell("PoissonNLLLoss", False, True, 1e-8, "sum"),
         [POS23, _r(119, (2, 3), lo=0.0, hi=4.0)], (0,)),
    Case("PoissonNLLLoss_none", _cell("PoissonNLLLoss", True, True, 1e-8, "none"),
         [X23, _r(119, (2, 3), lo=0.0, hi=4.0)], (0,)),
    Case("GaussianNLLLoss", _cell("GaussianNLLLoss"), [X23, Y23, POS23], (0, 1, 2)),
    Case("GaussianNLLLoss_full_sum", lambda ms, ops, x, y, v: ms.nn.GaussianNLLLoss(
        full=True, reduction="sum")(x, y, v), [X23, Y23, POS23], (0, 2)),
    Case("GaussianNLLLoss_var_bcast", lambda ms, ops, x, y, v: ms.nn.GaussianNLLLoss(
        reduction="none")(x, y, v), [X23, Y23, _r(120, (2, 1), lo=0.1, hi=1.0)], (0, 2)),
    Case("CTCLoss", lambda ms, ops, lp, t, il, tl: ms.nn.CTCLoss()(lp, t, il, tl),
         [np.log(np.random.default_rng(123).dirichlet(np.ones(5), size=(6, 2))).astype(
             np.float32), np.array([[1, 2, 2], [3, 1, 0]], np.int32),
          np.array([6, 5], np.int32), np.array([3, 2], np.int32)], (0,)),
    Case("CTCLoss_none_blank", lambda ms, ops, lp, t, il, tl: ms.nn.CTCLoss(
        4, "none")(lp, t, il, tl),
         [np.log(np.random.default_rng(124).dirichlet(np.ones(5), size=(5, 2))).astype(
             np.float32), np.array([[1, 2], [3, 3]], np.int32),
          np.array([5, 4], np.int32), np.array([2, 2], np.int32)], (0,)),
    Case("DiceLoss", _cell("DiceLoss"), [P23, (_r(125, (2, 3)) > 0).astype(np.float32)], (0,)),
    Case("DiceLoss_smooth", _cell("DiceLoss", 0.5), [P23, (_r(125, (2, 3)) > 0).astype(
        np.float32)], (0,)),
    Case("MultiClassDiceLoss", _cell("MultiClassDiceLoss"), [X23, np.eye(3, dtype=np.float32)[
        [0, 2]]], (0,)),
    Case("MultiClassDiceLoss_sigmoid", _cell("MultiClassDiceLoss", None, None, "sigmoid"),
         [X23, np.eye(3, dtype=np.float32)[[1, 2]]], (0,)),
    Case("FocalLoss", _cell("FocalLoss"), [X234, _i(126, (2, 1, 4), 3)], (0,)),
    Case("FocalLoss_2d_onehot", _cell("FocalLoss", None, 1.0, "sum"),
         [X23, np.eye(3, dtype=np.float32)[[2, 0]]], (0,)),
    Case("FocalLoss_w_none", lambda ms, ops, x, t, w: ms.nn.FocalLoss(w, 1.5, "none")(x, t),
         [X234, _i(126, (2, 1, 4), 3), _r(127, (3,), lo=0.5)], (0,)),
    Case("RMSELoss", _cell("RMSELoss"), [X23, Y23], (0, 1)),
    Case("MAELoss", _cell("MAELoss"), [X23, Y23], (0, 1)),
    Case("MAELoss_none", _cell("MAELoss", "none"), [X23, Y23], (0, 1)),
    Case("ops_gaussian_nll_loss", lambda ms, ops, x, y, v: ops.gaussian_nll_loss(x, y, v),
         [X23, Y23, POS23], (0, 1, 2)),
    Case("ops_hinge_embedding_loss", lambda ms, ops, x, y: ops.hinge_embedding_loss(
        x, y, 0.8, "sum"), [X23, SIGN23], (0,)),
    Case("ops_multi_margin_loss", lambda ms, ops, x, t: ops.multi_margin_loss(x, t, 1, 2),
         [X34, T3], (0,)),
    Case("ops_multilabel_soft_margin_loss", lambda ms, ops, x, t:
         ops.multilabel_soft_margin_loss(x, t, reduction="sum"),
         [X34, (_r(117, (3, 4)) > 0).astype(np.float32)], (0,)),
    Case("ops_cosine_embedding_loss", lambda ms, ops, a, b, y: ops.cosine_embedding_loss(
        a, b, y, 0.2, "none"), [X23, Y23, SIGN2], (0, 1)),
    Case("ops_ctc_loss", lambda ms, ops, lp, t, il, tl: ops.ctc_loss(lp, t, il, tl),
         [np.log(np.random.default_rng(123).dirichlet(np.ones(5), size=(6, 2))).astype(
             np.float32), np.array([[1, 2, 2], [3, 1, 0]], np.int32),
          np.array([6, 5], np.int32), np.array([3, 2], np.int32)], (0,)),
]

NORMS = [
    Case("GroupNorm", lambda ms, ops, x: ms.nn.GroupNorm(2, 4)(x), [_r(130, (2, 4, 3, 2))],
         (0,)),
    Case("GroupNorm_1group_eps", lambda ms, ops, x: ms.nn.GroupNorm(1, 4, 0.1)(x),
         [_r(131, (2, 4, 5))], (0,)),
    Case("BatchNorm3d_train", _train("BatchNorm3d", 2), [_r(132, (2, 2, 3, 2, 2))], (0,)),
    Case("BatchNorm3d_eval", _cell("BatchNorm3d", 2, 1e-3), [_r(132, (2, 2, 3, 2, 2))], (0,)),
    Case("SyncBatchNorm_train", _train("SyncBatchNorm", 3), [X2345], (0,)),
    Case("LRN", _cell("LRN"), [X2345], (0,)),
    Case("LRN_args", _cell("LRN", 2, 2.0, 0.5, 0.75), [X2345], (0,)),
    Case("ops_group_norm", lambda ms, ops, x, w, b: ops.group_norm(x, 2, w, b),
         [_r(130, (2, 4, 3, 2)), _r(133, (4,)), _r(134, (4,))], (0, 1, 2)),
    Case("ops_group_norm_nowb", lambda ms, ops, x: ops.group_norm(x, 3, eps=0.01),
         [_r(135, (2, 6))], (0,)),
    Case("ops_lrn", lambda ms, ops, x: ops.lrn(x, 3, 1.5, 0.3, 0.6), [X2345], (0,)),
]

MISC = [
    Case("ClipByNorm", lambda ms, ops, x, c: ms.nn.ClipByNorm()(x, c),
         [X234, np.array(1.5, np.float32)], (0,)),
    Case("ClipByNorm_axis", lambda ms, ops, x, c: ms.nn.ClipByNorm(axis=1)(x, c),
         [X234, np.array(0.8, np.float32)], (0,)),
    Case("ClipByNorm_noclip", lambda ms, ops, x, c: ms.nn.ClipByNorm()(x, c),
         [X23, np.array(100.0, np.float32)], (0,)),
    Case("Dropout1d_shape", _cell("Dropout1d"), [X234], values=False),
    Case("Dropout2d_shape", _cell("Dropout2d", 0.3), [X2345], values=False),
    Case("Dropout3d_shape", _cell("Dropout3d"), [_r(132, (2, 2, 3, 2, 2))], values=False),
    Case("L1Regularizer", lambda ms, ops, w: ms.nn.L1Regularizer(0.5)(w), [X234], (0,)),
    Case("BiDense", lambda ms, ops, a, b, w, c: ms.nn.BiDense(3, 4, 2, w, c)(a, b),
         [_r(140, (5, 3)), _r(141, (5, 4)), _r(142, (2, 3, 4)), _r(143, (2,))], (0, 1)),
    Case("BiDense_3d_nobias", lambda ms, ops, a, b, w: ms.nn.BiDense(
        3, 4, 2, w, has_bias=False)(a, b),
         [_r(144, (2, 5, 3)), _r(145, (2, 5, 4)), _r(142, (2, 3, 4))], (0, 1)),
    Case("TimeDistributed", lambda ms, ops, x, w: ms.nn.TimeDistributed(
        ms.nn.Dense(4, 2, w, has_bias=False), time_axis=1)(x), [X234, _r(146, (2, 4))], (0,)),
    Case("TimeDistributed_reshape", lambda ms, ops, x, w: ms.nn.TimeDistributed(
        ms.nn.Dense(4, 2, w, has_bias=False), time_axis=0, reshape_with_axis=1)(x),
         [X234, _r(146, (2, 4))], (0,)),
    Case("ops_clip_by_norm", lambda ms, ops, x: ops.clip_by_norm(x, 1.0), [X234], (0,)),
    Case("ops_clip_by_norm_tuple", lambda ms, ops, x, y: ops.clip_by_norm((x, y), 2.0, 1.0)[1],
         [X234, X23], (0, 1)),
    Case("ops_bidense", lambda ms, ops, a, b, w, c: ops.bidense(a, b, w, c),
         [_r(140, (5, 3)), _r(141, (5, 4)), _r(142, (2, 3, 4)), _r(143, (2,))], (0, 1, 2, 3)),
    Case("ops_dropout1d_eval", lambda ms, ops, x: ops.dropout1d(x, 0.5, False), [X234], (0,)),
    Case("ops_dropout2d_shape", lambda ms, ops, x: ops.dropout2d(x, 0.4), [X2345],
         values=False),
]


# --- optimizers -------------------------------------------------------------------------------
W0 = _r(150, (2, 3))
W1 = _r(151, (3,))
G0 = _r(152, (2, 3))
G1 = _r(153, (3,))
STEPS = 3


def step_grads(g: np.ndarray, s: int) -> np.ndarray:
    """The gradient fed at step ``s``: changes sign and size between steps."""
    return (g * (1.0 - 0.7 * s) + 0.05 * s).astype(np.float32)


def run_optimizer(ms, make, w0, w1, g0, g1, names=("w", "beta")):
    """Parameters from ``w0``, ``w1`` (named by ``names``; a 'beta' parameter is left out of
    the default weight decay), ``make(ms, params)`` builds the optimizer; three steps of
    ``step_grads``; the parameters after each step, then the optimizer's state Parameters
    (those not trained) in checkpoint order."""
    params = [ms.Parameter(ms.Tensor(w.asnumpy()), name=n) for w, n in zip((w0, w1), names)]
    opt = make(ms, params)
    out = []
    for s in range(STEPS):
        opt(tuple(ms.Tensor(step_grads(g.asnumpy(), s)) for g in (g0, g1)))
        out += [ms.Tensor(p.asnumpy()) for p in params]
    trained = {id(p) for p in params}
    for name, p in opt.parameters_and_names():
        if id(p) not in trained and "learning_rate" not in name and "global_step" not in name:
            out.append(ms.Tensor(p.asnumpy()))
    return tuple(out)


def state_names(ms, make, names=("w", "beta")) -> list:
    """The names of ``make``'s optimizer's Parameters (checkpoint order)."""
    params = [ms.Parameter(ms.Tensor(np.zeros(s, np.float32)), name=n)
              for s, n in zip(((2, 3), (3,)), names)]
    return [n for n, _ in make(ms, params).parameters_and_names()]


def _opt(make):
    return lambda ms, ops, w0, w1, g0, g1: run_optimizer(ms, make, w0, w1, g0, g1)


OPTIMIZERS = {
    "Adagrad": lambda ms, ps: ms.nn.Adagrad(ps, learning_rate=0.1),
    "Adagrad_args": lambda ms, ps: ms.nn.Adagrad(ps, accum=0.5, learning_rate=0.05,
                                                 weight_decay=0.1, loss_scale=2.0),
    "Adagrad_noslots": lambda ms, ps: ms.nn.Adagrad(ps, learning_rate=0.1, update_slots=False),
    "Adadelta": lambda ms, ps: ms.nn.Adadelta(ps),
    "Adadelta_args": lambda ms, ps: ms.nn.Adadelta(ps, learning_rate=0.5, rho=0.8, epsilon=1e-3,
                                                   weight_decay=0.05),
    "AdaMax": lambda ms, ps: ms.nn.AdaMax(ps, learning_rate=0.01),
    "AdaMax_wd": lambda ms, ps: ms.nn.AdaMax(ps, 0.02, 0.8, 0.9, 1e-4, weight_decay=0.1),
    "FTRL": lambda ms, ps: ms.nn.FTRL(ps, learning_rate=0.1),
    "FTRL_l1l2": lambda ms, ps: ms.nn.FTRL(ps, 0.2, 0.05, -0.7, 0.01, 0.02, weight_decay=0.1),
    "ProximalAdagrad": lambda ms, ps: ms.nn.ProximalAdagrad(ps, learning_rate=0.1),
    "ProximalAdagrad_l1l2": lambda ms, ps: ms.nn.ProximalAdagrad(ps, 0.2, 0.1, 0.05, 0.02),
    "LazyAdam": lambda ms, ps: ms.nn.LazyAdam(ps, learning_rate=0.1),
    "LazyAdam_nesterov_wd": lambda ms, ps: ms.nn.LazyAdam(ps, 0.05, use_nesterov=True,
                                                          weight_decay=0.1),
    "ASGD": lambda ms, ps: ms.nn.ASGD(ps, learning_rate=0.1),
    "ASGD_t0": lambda ms, ps: ms.nn.ASGD(ps, 0.05, 0.01, 0.5, 1.0, weight_decay=0.1),
    "Rprop": lambda ms, ps: ms.nn.Rprop(ps, learning_rate=0.1),
    "Rprop_args": lambda ms, ps: ms.nn.Rprop(ps, 0.05, (0.3, 1.5), (0.01, 0.2),
                                             weight_decay=0.1),
    "Adagrad_groups": lambda ms, ps: ms.nn.Adagrad(
        [{"params": [ps[0]], "lr": 0.2, "weight_decay": 0.1}, {"params": [ps[1]]}],
        learning_rate=0.05),
    "AdaMax_dynamic_lr": lambda ms, ps: ms.nn.AdaMax(ps, learning_rate=[0.1, 0.05, 0.02]),
    "FTRL_groups": lambda ms, ps: ms.nn.FTRL(
        [{"params": [ps[0]], "weight_decay": 0.2}, {"params": [ps[1]]}], learning_rate=0.1),
}

OPTIM = [Case(f"opt_{name}", _opt(make), [W0, W1, G0, G1], rtol=1e-5)
         for name, make in OPTIMIZERS.items()]

CASES: list[Case] = ACTIVATIONS + LOSSES + NORMS + MISC + OPTIM
