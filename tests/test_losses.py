"""nn losses against hand-written NumPy for every reduction, their gradients (gradcheck,
float64) and their argument errors."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn
from gradcheck import check_grads

RNG = np.random.default_rng(3)


def t(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


def reduce(x, reduction):
    return {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction](x)


def log_softmax(x, axis):
    m = x.max(axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis, keepdims=True))


REDUCTIONS = ["mean", "sum", "none"]


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_l1_mse_smooth_l1(reduction):
    x, y = RNG.standard_normal((3, 4)), RNG.standard_normal((3, 4))
    d = x - y
    cases = [
        (nn.L1Loss(reduction), np.abs(d)),
        (nn.MSELoss(reduction), d ** 2),
        (nn.SmoothL1Loss(0.5, reduction),
         np.where(np.abs(d) < 0.5, 0.5 * d ** 2 / 0.5, np.abs(d) - 0.25)),
    ]
    for loss, want in cases:
        np.testing.assert_allclose(loss(t(x), t(y)).asnumpy(), reduce(want, reduction),
                                   rtol=1e-12)
        check_grads(lambda a, b: loss(a, b), [t(x), t(y)], order=1)
    check_grads(lambda a, b: nn.MSELoss(reduction)(a, b), [t(x), t(y)], order=2)


def test_loss_defaults_follow_mindspore():
    assert nn.SmoothL1Loss().reduction == "none"
    assert nn.SoftmaxCrossEntropyWithLogits().reduction == "none"
    assert nn.MSELoss().reduction == "mean"


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_softmax_cross_entropy_with_logits(reduction):
    x = RNG.standard_normal((5, 4)) * 3
    labels = np.array([0, 3, 1, 1, 2], np.int32)
    want = -log_softmax(x, -1)[np.arange(5), labels]
    sparse = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction=reduction)
    got = sparse(t(x), ms.Tensor(labels))
    np.testing.assert_allclose(got.asnumpy(), reduce(want, reduction), rtol=1e-12)
    probs = np.abs(RNG.standard_normal((5, 4)))
    probs /= probs.sum(1, keepdims=True)
    dense = nn.SoftmaxCrossEntropyWithLogits(reduction=reduction)
    want = -(probs * log_softmax(x, -1)).sum(-1)
    np.testing.assert_allclose(dense(t(x), t(probs)).asnumpy(), reduce(want, reduction),
                               rtol=1e-12)
    check_grads(lambda a: sparse(a, ms.Tensor(labels)), [t(x)], order=2)
    check_grads(lambda a, p: dense(a, p), [t(x), t(probs)], order=2)
    # the gradient of the mean sparse loss is (softmax - onehot) / N
    if reduction == "mean":
        from mindgrad import ops

        g = ops.grad(lambda a: sparse(a, ms.Tensor(labels)))(t(x)).asnumpy()
        onehot = np.eye(4)[labels]
        np.testing.assert_allclose(g, (np.exp(log_softmax(x, -1)) - onehot) / 5, atol=1e-14)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_bce_losses(reduction):
    p = RNG.uniform(0.05, 0.95, (4, 3))
    y = RNG.uniform(0, 1, (4, 3))
    w = RNG.uniform(0.5, 2, (3,))
    bce = nn.BCELoss(t(w), reduction)
    # (MindSpore adds 1e-12 inside the logarithms)
    want = -w * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
    np.testing.assert_allclose(bce(t(p), t(y)).asnumpy(), reduce(want, reduction), rtol=1e-12)
    check_grads(lambda a, b: bce(a, b), [t(p), t(y)], order=2)
    x = RNG.standard_normal((4, 3)) * 3
    pw = RNG.uniform(0.5, 2, (3,))
    logits = nn.BCEWithLogitsLoss(reduction, weight=t(w), pos_weight=t(pw))
    s = 1 / (1 + np.exp(-x))
    want = -w * (pw * y * np.log(s) + (1 - y) * np.log(1 - s))
    np.testing.assert_allclose(logits(t(x), t(y)).asnumpy(), reduce(want, reduction),
                               rtol=1e-10)
    check_grads(lambda a, b: logits(a, b), [t(x), t(y)], order=2)
    # large logits stay finite
    assert np.isfinite(nn.BCEWithLogitsLoss()(t([800.0, -800.0]), t([0.0, 1.0])).asnumpy())


def np_nll(logp, y, w, ignore, reduction):
    """NLL over (N, C, ...) log-probabilities, as the PyTorch/MindSpore formula."""
    n_cls = logp.shape[1]
    moved = np.moveaxis(logp, 1, -1).reshape(-1, n_cls)
    yy = y.reshape(-1)
    keep = yy != ignore
    safe = np.where(keep, yy, 0)
    ww = (np.ones(n_cls) if w is None else w)[safe] * keep
    loss = -moved[np.arange(len(yy)), safe] * ww
    if reduction == "mean":
        return loss.sum() / ww.sum()
    return loss.sum() if reduction == "sum" else loss.reshape(y.shape)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss(reduction):
    logp = log_softmax(RNG.standard_normal((6, 4)), 1)
    y = np.array([0, 3, 1, 1, 2, 3], np.int32)
    w = RNG.uniform(0.5, 2, (4,))
    for weight, ignore in ((None, -100), (w, 1)):
        loss = nn.NLLLoss(None if weight is None else t(weight), ignore, reduction)
        np.testing.assert_allclose(loss(t(logp), ms.Tensor(y)).asnumpy(),
                                   np_nll(logp, y, weight, ignore, reduction), rtol=1e-12)
    check_grads(lambda a: nn.NLLLoss(t(w), 1, reduction)(a, ms.Tensor(y)), [t(logp)], order=2)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_loss_indices(reduction):
    x = RNG.standard_normal((4, 5, 3))  # (N, C, d)
    y = RNG.integers(0, 5, (4, 3)).astype(np.int32)
    y[0, 0] = -100
    w = RNG.uniform(0.5, 2, (5,))
    logp = log_softmax(x, 1)
    for weight in (None, w):
        loss = nn.CrossEntropyLoss(None if weight is None else t(weight), reduction=reduction)
        np.testing.assert_allclose(loss(t(x), ms.Tensor(y)).asnumpy(),
                                   np_nll(logp, y, weight, -100, reduction), rtol=1e-12)
    # label smoothing, as PyTorch defines it
    eps = 0.2
    smooth = nn.CrossEntropyLoss(t(w), reduction=reduction, label_smoothing=eps)
    keep = y != -100
    ww = w[np.where(keep, y, 0)] * keep
    per = -(logp * w[None, :, None]).sum(1) * keep
    smooth_part = per.sum() / ww.sum() if reduction == "mean" else reduce(per, reduction)
    want = (1 - eps) * np_nll(logp, y, w, -100, reduction) + eps / 5 * smooth_part
    np.testing.assert_allclose(smooth(t(x), ms.Tensor(y)).asnumpy(), want, rtol=1e-12)
    check_grads(lambda a: smooth(a, ms.Tensor(y)), [t(x)], order=2)


def test_cross_entropy_loss_probabilities_and_1d():
    x = RNG.standard_normal((4, 3))
    p = np.abs(RNG.standard_normal((4, 3)))
    p /= p.sum(1, keepdims=True)
    w = np.array([1.0, 2.0, 0.5])
    loss = nn.CrossEntropyLoss(t(w), label_smoothing=0.1)
    target = p * 0.9 + 0.1 / 3
    want = (-(log_softmax(x, 1) * target * w).sum(1)).mean()
    np.testing.assert_allclose(loss(t(x), t(p)).asnumpy(), want, rtol=1e-12)
    check_grads(lambda a, b: loss(a, b), [t(x), t(p)], order=2)
    one = nn.CrossEntropyLoss(reduction="none")(t(x[0]), ms.Tensor(np.array(2, np.int32)))
    assert one.shape == () and float(one) == pytest.approx(-log_softmax(x[0], 0)[2])


def test_loss_errors():
    with pytest.raises(ValueError, match="reduction"):
        nn.MSELoss("average")
    with pytest.raises(ValueError, match="shape"):
        nn.SmoothL1Loss()(t(np.ones(3)), t(np.ones(4)))
    with pytest.raises(ValueError, match="labels"):
        nn.SoftmaxCrossEntropyWithLogits(sparse=True)(t(np.ones((2, 3))),
                                                      ms.Tensor(np.zeros(3, np.int32)))
    with pytest.raises(TypeError, match="float"):
        nn.SoftmaxCrossEntropyWithLogits()(ms.Tensor(np.ones((2, 3), np.int32)),
                                           t(np.ones((2, 3))))
    with pytest.raises(TypeError, match="integer"):
        nn.SoftmaxCrossEntropyWithLogits(sparse=True)(t(np.ones((2, 3))), t([0.0, 1.0]))
    with pytest.raises(ValueError, match=r"\(N, C"):
        nn.NLLLoss()(t(np.ones((2, 3))), ms.Tensor(np.zeros(3, np.int32)))
    with pytest.raises(ValueError, match="beta"):
        nn.SmoothL1Loss(beta=0)
    with pytest.raises(ValueError, match="label_smoothing"):
        nn.CrossEntropyLoss(label_smoothing=1.5)


# --- binary cross entropy at the ends of [0, 1], as MindSpore 2.10 computes it --------------
_BCE_X = np.array([1.0, 0.0, 0.3, 1e-13], np.float32)
_BCE_Y = np.array([0.6073296, 0.7924508, 0.93957347, 0.5], np.float32)


def test_binary_cross_entropy_at_probabilities_0_and_1() -> None:
    """MindSpore adds 1e-12 inside the logarithms (not a clip at -100) and differentiates
    to ``(x - y) / max(x (1 - x), 1e-12)`` in x and ``log(1 - x) - log(x)`` in y: the
    values are MindSpore's."""
    x, y = t(_BCE_X, np.float32), t(_BCE_Y, np.float32)
    want = np.array([10.849884, 21.896225, 1.1527736, 13.767856], np.float32)
    for loss in (ms.ops.binary_cross_entropy(x, y, reduction="none"),
                 nn.BCELoss(reduction="none")(x, y)):
        np.testing.assert_allclose(loss.asnumpy(), want, rtol=1e-6)
    gx = ms.ops.grad(lambda a: ms.ops.binary_cross_entropy(a, y, reduction="sum"))(x)
    np.testing.assert_allclose(gx.asnumpy(), [3.9267038e11, -7.9245076e11, -3.0455878,
                                              -5.0e11], rtol=1e-6)
    gy = ms.ops.grad(lambda b: ms.ops.binary_cross_entropy(x, b, reduction="sum"))(y)
    assert gy.asnumpy()[0] == -np.inf and gy.asnumpy()[1] == np.inf
    np.testing.assert_allclose(gy.asnumpy()[2:], [0.84729767, 29.9336], rtol=1e-5)
    w = t(np.full(4, 2.0), np.float32)
    np.testing.assert_allclose(float(ms.ops.binary_cross_entropy(x, y, w)), 23.83337, rtol=1e-6)
    np.testing.assert_allclose(float(nn.BCELoss(w)(x, y)), 23.83337, rtol=1e-6)
    # float16 has no 1e-12: a probability of 0 or 1 gives inf, as in MindSpore
    h = ms.ops.binary_cross_entropy(t(_BCE_X, np.float16), t(_BCE_Y, np.float16), reduction="none")
    assert h.dtype == ms.float16 and np.isinf(h.asnumpy()[[0, 1, 3]]).all()


def test_binary_cross_entropy_gradients_inside_0_1() -> None:
    x = t(RNG.uniform(0.05, 0.95, (3, 4)))
    y = t(RNG.uniform(0.0, 1.0, (3, 4)))
    check_grads(lambda a, b: ms.ops.binary_cross_entropy(a, b), (x, y), order=2)
    compiled = ms.jit(lambda a, b: ms.ops.binary_cross_entropy(a, b, reduction="sum"))
    want = -(y.asnumpy() * np.log(x.asnumpy() + 1e-12)
             + (1 - y.asnumpy()) * np.log(1 - x.asnumpy() + 1e-12)).sum()
    np.testing.assert_allclose(float(compiled(x, y)), want, rtol=1e-12)
    batched = ms.vmap(lambda a, b: ms.ops.binary_cross_entropy(a, b, reduction="sum"))(x, y)
    np.testing.assert_allclose(batched.asnumpy().sum(), want, rtol=1e-12)
