"""nn layers and initializers against hand-written NumPy, their gradients (gradcheck), GRAPH
mode against PYNATIVE, and their argument errors."""
from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops
from mindgrad.common import initializer as init
from gradcheck import check_grads

RNG = np.random.default_rng(7)


def t(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


def randn(*shape):
    return RNG.standard_normal(shape)


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


# --- initializers ------------------------------------------------------------------------------
def test_initializer_aliases_constants_and_tensors():
    assert np.all(init.initializer("zeros", [2, 3]).asnumpy() == 0)
    assert np.all(init.initializer("ones", (4,), ms.float64).asnumpy() == 1)
    assert init.initializer("ones", (4,), ms.float64).dtype == ms.float64
    assert np.all(init.initializer(2.5, [3]).asnumpy() == 2.5)
    assert np.all(init.initializer(init.Constant(3), [2]).asnumpy() == 3)
    assert np.array_equal(init.initializer("identity", [2, 3]).asnumpy(), np.eye(2, 3))
    src = t(np.ones((2, 2)))
    assert init.initializer(src, [2, 2]) is src
    for name in ("normal", "uniform", "xavier_uniform", "xavier_normal", "he_uniform",
                 "he_normal", "truncatedNormal", "TruncatedNormal", "orthogonal"):
        assert init.initializer(name, [3, 4]).shape == (3, 4)


def test_initializer_errors():
    with pytest.raises(ValueError, match="not found"):
        init.initializer("no_such_init", [2])
    with pytest.raises(TypeError):
        init.initializer(object(), [2])
    with pytest.raises(ValueError, match="positive integer"):
        init.initializer("zeros", [2, 0])
    with pytest.raises(ValueError, match="shape"):
        init.initializer(t([1.0, 2.0]), [3])
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init.initializer("xavier_uniform", [5])
    with pytest.raises(ValueError, match="fan_in"):
        init.initializer(init.HeUniform(mode="fan_sideways"), [2, 2])


def test_initializer_distributions_follow_the_documented_formulas():
    n = 200_000
    shape = (n // 50, 50)  # fan_in 50, fan_out n/50
    fan_in, fan_out = 50, n // 50
    a = init.initializer(init.Uniform(0.3), shape, ms.float64).asnumpy()
    assert a.min() >= -0.3 and a.max() <= 0.3 and abs(a.std() - 0.3 / math.sqrt(3)) < 2e-3
    a = init.initializer(init.Normal(0.5, 1.0), shape, ms.float64).asnumpy()
    assert abs(a.mean() - 1.0) < 1e-2 and abs(a.std() - 0.5) < 1e-2
    bound = math.sqrt(6 / (fan_in + fan_out))
    a = init.initializer(init.XavierUniform(), shape, ms.float64).asnumpy()
    assert np.abs(a).max() <= bound and abs(np.abs(a).max() - bound) < 1e-3 * bound
    a = init.initializer(init.XavierNormal(2.0), shape, ms.float64).asnumpy()
    assert abs(a.std() - 2 * math.sqrt(2 / (fan_in + fan_out))) < 1e-2 * a.std()
    gain = math.sqrt(2 / (1 + 5))  # leaky_relu, negative_slope sqrt(5)
    a = init.initializer(init.HeUniform(math.sqrt(5)), shape, ms.float64).asnumpy()
    assert abs(np.abs(a).max() - gain * math.sqrt(3 / fan_in)) < 1e-3
    a = init.initializer(init.HeNormal(mode="fan_out", nonlinearity="relu"), shape,
                         ms.float64).asnumpy()
    assert abs(a.std() - math.sqrt(2) / math.sqrt(fan_out)) < 2e-2 * a.std()
    a = init.initializer(init.TruncatedNormal(1.0, 0.0, -0.5, 0.5), shape, ms.float64).asnumpy()
    assert a.min() >= -0.5 and a.max() <= 0.5
    q = init.initializer(init.Orthogonal(), [6, 4], ms.float64).asnumpy()
    np.testing.assert_allclose(q.T @ q, np.eye(4), atol=1e-12)
    conv = init.initializer(init.XavierUniform(), [8, 3, 5, 5], ms.float64).asnumpy()
    assert np.abs(conv).max() <= math.sqrt(6 / (3 * 25 + 8 * 25))


def test_initializer_is_seeded_and_fills_arrays():
    ms.set_seed(11)
    a = init.initializer("normal", [3, 3]).asnumpy()
    ms.set_seed(11)
    b = init.initializer("normal", [3, 3]).asnumpy()
    assert np.array_equal(a, b)
    arr = np.zeros((2, 2))
    init.One()(arr)
    assert np.all(arr == 1)


def test_mindspore_common_initializer_is_importable():
    from mindgrad import compat

    compat.install()
    from mindspore.common.initializer import Normal, initializer  # noqa: F401

    assert initializer(Normal(), [2, 2]).shape == (2, 2)


# --- Dense, Flatten, Identity ---------------------------------------------------------------------
def test_dense_forward_gradients_and_names():
    net = nn.Dense(3, 4, weight_init="normal", bias_init="uniform", activation="tanh",
                   dtype=ms.float64)
    x = randn(5, 3)
    w, b = net.weight.asnumpy(), net.bias.asnumpy()
    np.testing.assert_allclose(net(t(x)).asnumpy(), np.tanh(x @ w.T + b), rtol=1e-12)
    assert [p.name for p in net.trainable_params()] == ["weight", "bias"]
    assert net.weight.shape == (4, 3)
    # weight gradients against the chain rule by hand
    gw, gb = ops.grad(lambda v: net(v).sum(), None, net.trainable_params())(t(x))
    d = 1 - np.tanh(x @ w.T + b) ** 2
    np.testing.assert_allclose(gw.asnumpy(), d.T @ x, rtol=1e-12)
    np.testing.assert_allclose(gb.asnumpy(), d.sum(0), rtol=1e-12)
    check_grads(lambda v: net(v), [t(x)], order=2)
    # rank 3 input and no bias
    plain = nn.Dense(3, 2, has_bias=False, dtype=ms.float64)
    x3 = randn(2, 4, 3)
    np.testing.assert_allclose(plain(t(x3)).asnumpy(), x3 @ plain.weight.asnumpy().T)
    assert plain.bias is None and len(plain.trainable_params()) == 1


def test_dense_default_init_bounds():
    net = nn.Dense(100, 30)
    assert net.weight.dtype == ms.float32
    assert np.abs(net.weight.asnumpy()).max() <= math.sqrt(1 / 3) * math.sqrt(3 / 100) + 1e-6
    assert np.abs(net.bias.asnumpy()).max() <= 1 / math.sqrt(100)


def test_dense_errors():
    with pytest.raises(ValueError, match="in_channels"):
        nn.Dense(3, 4)(t(randn(2, 5)))
    with pytest.raises(ValueError, match="positive int"):
        nn.Dense(0, 4)
    with pytest.raises(ValueError, match="shape"):
        nn.Dense(3, 4, weight_init=t(np.ones((3, 4))))
    with pytest.raises(KeyError, match="unknown activation"):
        nn.Dense(3, 4, activation="wiggle")


def test_flatten_identity():
    x = randn(2, 3, 4)
    assert nn.Flatten()(t(x)).shape == (2, 12)
    assert nn.Flatten(0, 1)(t(x)).shape == (6, 4)
    assert nn.Identity()(t(x)).shape == (2, 3, 4)


# --- Dropout -----------------------------------------------------------------------------------
def test_dropout_training_eval_and_gradient():
    ms.set_seed(3)
    drop = nn.Dropout(p=0.25)
    x = t(np.ones((400, 50)))
    assert np.array_equal(drop(x).asnumpy(), x.asnumpy())  # eval mode by default
    drop.set_train()
    a, b = drop(x).asnumpy(), drop(x).asnumpy()
    assert set(np.unique(a)) <= {0.0, 1 / 0.75}
    assert abs((a == 0).mean() - 0.25) < 0.01
    assert not np.array_equal(a, b)  # a new mask per call
    g = ops.grad(lambda v: (drop(v) * 1.0).sum())(x).asnumpy()
    assert set(np.unique(g)) <= {0.0, 1 / 0.75}
    assert np.array_equal(nn.Dropout(keep_prob=1.0).set_train()(x).asnumpy(), x.asnumpy())
    assert nn.Dropout(keep_prob=0.8).p == pytest.approx(0.2)


def test_dropout_stays_random_in_graph_mode(graph_mode):
    ms.set_seed(4)
    net = nn.SequentialCell([nn.Dropout(p=0.5)])
    net.set_train()
    x = t(np.ones((64, 64)))
    outs = [net(x).asnumpy() for _ in range(3)]
    assert all(isinstance(v, list) for v in net._graph.cache.values())  # compiled
    assert not np.array_equal(outs[1], outs[2])
    assert abs((outs[2] == 0).mean() - 0.5) < 0.05


def test_dropout_errors():
    with pytest.raises(ValueError, match="keep_prob"):
        nn.Dropout(keep_prob=0.0)
    with pytest.raises(ValueError, match="'p'"):
        nn.Dropout(p=1.0)
    with pytest.raises(ValueError, match="not both"):
        nn.Dropout(keep_prob=0.5, p=0.5)
    with pytest.raises(TypeError, match="float"):
        nn.Dropout(p=0.5).set_train()(ms.Tensor(np.ones(3, np.int32)))


# --- Conv2d and pooling ------------------------------------------------------------------------
def np_conv(x, w, stride, pads, dil, groups):
    top, bottom, left, right = pads
    x = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    n, _, h, wd = x.shape
    o, cg, kh, kw = w.shape
    (sh, sw), (dh, dw) = stride, dil
    ho, wo = (h - (kh - 1) * dh - 1) // sh + 1, (wd - (kw - 1) * dw - 1) // sw + 1
    out = np.zeros((n, o, ho, wo))
    og = o // groups
    for g in range(groups):
        xs = x[:, g * cg:(g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, :, i * dh:i * dh + sh * (ho - 1) + 1:sh,
                           j * dw:j * dw + sw * (wo - 1) + 1:sw]
                out[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch,
                                                         w[g * og:(g + 1) * og, :, i, j])
    return out


def same(n, k, s, d=1):
    total = max((math.ceil(n / s) - 1) * s + (k - 1) * d + 1 - n, 0)
    return total // 2, total - total // 2


@pytest.mark.parametrize("kw", [
    dict(pad_mode="same", stride=1), dict(pad_mode="same", stride=2),
    dict(pad_mode="valid", stride=(2, 1)), dict(pad_mode="pad", padding=(1, 0, 2, 1)),
    dict(pad_mode="pad", padding=1, dilation=2), dict(pad_mode="valid", group=2),
])
def test_conv2d_forward(kw):
    conv = nn.Conv2d(4, 6, 3, has_bias=True, weight_init="normal", bias_init="normal",
                     dtype=ms.float64, **kw)
    x = randn(2, 4, 7, 8)
    st = kw.get("stride", 1)
    st = (st, st) if isinstance(st, int) else st
    dil = (kw.get("dilation", 1),) * 2
    if kw["pad_mode"] == "same":
        pads = same(7, 3, st[0]) + same(8, 3, st[1])
    elif kw["pad_mode"] == "pad":
        p = kw["padding"]
        pads = (p,) * 4 if isinstance(p, int) else p
    else:
        pads = (0, 0, 0, 0)
    want = np_conv(x, conv.weight.asnumpy(), st, pads, dil, kw.get("group", 1))
    want += conv.bias.asnumpy()[None, :, None, None]
    np.testing.assert_allclose(conv(t(x)).asnumpy(), want, rtol=1e-10, atol=1e-12)


def test_conv2d_gradients_and_defaults():
    conv = nn.Conv2d(2, 3, 3, stride=2, dtype=ms.float64)
    assert conv.bias is None and conv.weight.shape == (3, 2, 3, 3)
    check_grads(lambda v: conv(v), [t(randn(1, 2, 5, 5))], order=1)
    x = t(randn(1, 2, 5, 5))
    gw = ops.grad(lambda v: conv(v).sum(), None, conv.weight)(x)
    assert gw.shape == conv.weight.shape
    # d/dW of sum(conv) is the sum of the input patches: compare with finite differences
    w0 = conv.weight.asnumpy()
    e = np.zeros_like(w0)
    e[1, 0, 2, 1] = 1e-6
    hi = np_conv(x.asnumpy(), w0 + e, (2, 2), same(5, 3, 2) * 2, (1, 1), 1).sum()
    lo = np_conv(x.asnumpy(), w0 - e, (2, 2), same(5, 3, 2) * 2, (1, 1), 1).sum()
    assert gw.asnumpy()[1, 0, 2, 1] == pytest.approx((hi - lo) / 2e-6, rel=1e-6)


def test_conv2d_errors():
    with pytest.raises(ValueError, match="pad_mode"):
        nn.Conv2d(2, 2, 3, pad_mode="full")
    with pytest.raises(ValueError, match="padding"):
        nn.Conv2d(2, 2, 3, pad_mode="same", padding=1)
    with pytest.raises(ValueError, match="divisible"):
        nn.Conv2d(3, 4, 3, group=2)
    with pytest.raises(ValueError, match="kernel_size"):
        nn.Conv2d(2, 2, 0)
    with pytest.raises(ValueError, match="shape"):
        nn.Conv2d(2, 2, 3)(t(randn(1, 3, 5, 5)))


def np_pool(x, k, s, pads, fn, fill):
    top, bottom, left, right = pads
    x = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=fill)
    ho, wo = (x.shape[2] - k[0]) // s[0] + 1, (x.shape[3] - k[1]) // s[1] + 1
    out = np.empty(x.shape[:2] + (ho, wo))
    for i in range(ho):
        for j in range(wo):
            out[:, :, i, j] = fn(x[:, :, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1]],
                                 axis=(2, 3))
    return out


@pytest.mark.parametrize("mode", ["valid", "same", "pad"])
def test_max_pool2d(mode):
    kw = dict(padding=1) if mode == "pad" else {}
    pool = nn.MaxPool2d(3, 2, pad_mode=mode, **kw)
    x = randn(2, 3, 7, 6)
    pads = {"valid": (0,) * 4, "same": same(7, 3, 2) + same(6, 3, 2), "pad": (1,) * 4}[mode]
    want = np_pool(x, (3, 3), (2, 2), pads, np.max, -np.inf)
    np.testing.assert_allclose(pool(t(x)).asnumpy(), want)
    check_grads(lambda v: pool(v), [t(x)], order=1)
    assert pool(t(x[0])).shape == want.shape[1:]  # (C, H, W) input


@pytest.mark.parametrize("mode", ["valid", "same", "pad"])
def test_avg_pool2d(mode):
    kw = dict(padding=(1, 0)) if mode == "pad" else {}
    pool = nn.AvgPool2d(2 if mode != "same" else 3, 2, pad_mode=mode, **kw)
    x = randn(2, 3, 7, 6)
    if mode == "same":
        pads = same(7, 3, 2) + same(6, 3, 2)
        want = (np_pool(x, (3, 3), (2, 2), pads, np.sum, 0.0)
                / np_pool(np.ones((1, 1, 7, 6)), (3, 3), (2, 2), pads, np.sum, 0.0))
    else:
        pads = (1, 1, 0, 0) if mode == "pad" else (0,) * 4
        want = np_pool(x, (2, 2), (2, 2), pads, np.mean, 0.0)
    np.testing.assert_allclose(pool(t(x)).asnumpy(), want, rtol=1e-12)
    check_grads(lambda v: pool(v), [t(x)], order=2)


def test_pool_errors():
    with pytest.raises(ValueError, match="pad_mode"):
        nn.MaxPool2d(2, pad_mode="full")
    with pytest.raises(ValueError, match="padding"):
        nn.AvgPool2d(2, padding=1)
    with pytest.raises(ValueError, match="shape"):
        nn.MaxPool2d(2)(t(randn(4, 4)))


# --- normalization ---------------------------------------------------------------------------
def np_bn(x, axes, gamma, beta, eps):
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta, mean.ravel(), var.ravel()


@pytest.mark.parametrize("cls, shape, axes", [
    (nn.BatchNorm1d, (8, 3), (0,)), (nn.BatchNorm1d, (4, 3, 5), (0, 2)),
    (nn.BatchNorm2d, (4, 3, 2, 5), (0, 2, 3)),
])
def test_batchnorm_train_and_eval(cls, shape, axes):
    bn = cls(3, momentum=0.8, gamma_init="normal", beta_init="normal", dtype=ms.float64)
    bshape = tuple(3 if a == 1 else 1 for a in range(len(shape)))
    g, b = bn.gamma.asnumpy().reshape(bshape), bn.beta.asnumpy().reshape(bshape)
    x = randn(*shape) * 2 + 1
    bn.set_train()
    want, mean, var = np_bn(x, axes, g, b, 1e-5)
    np.testing.assert_allclose(bn(t(x)).asnumpy(), want, rtol=1e-10)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.2 * mean, rtol=1e-12)
    n = x.size // 3  # the moving variance is the unbiased one
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), 0.8 + 0.2 * var * n / (n - 1),
                               rtol=1e-12)
    assert [p.name for p in bn.trainable_params()] == ["gamma", "beta"]
    bn.set_train(False)
    mm, mv = bn.moving_mean.asnumpy(), bn.moving_variance.asnumpy()
    want = (x - mm.reshape(bshape)) / np.sqrt(mv.reshape(bshape) + 1e-5) * g + b
    np.testing.assert_allclose(bn(t(x)).asnumpy(), want, rtol=1e-10)
    assert np.array_equal(bn.moving_mean.asnumpy(), mm)  # eval leaves the statistics


def test_batchnorm_gradients_and_batch_statistics_flag():
    bn = nn.BatchNorm1d(3, gamma_init="normal", dtype=ms.float64)
    bn.set_train()
    check_grads(lambda v: bn(v) * t([1.0, 2.0, 3.0]), [t(randn(5, 3))], order=2)
    fixed = nn.BatchNorm1d(3, use_batch_statistics=False, dtype=ms.float64)
    fixed.set_train()
    x = randn(4, 3)
    np.testing.assert_allclose(fixed(t(x)).asnumpy(), x / np.sqrt(1 + 1e-5), rtol=1e-12)
    always = nn.BatchNorm1d(3, use_batch_statistics=True, dtype=ms.float64)
    always(t(x))
    np.testing.assert_allclose(always.moving_mean.asnumpy(), 0.1 * x.mean(0), rtol=1e-12)


def test_batchnorm_graph_mode_updates_moving_stats(graph_mode):
    bn = nn.BatchNorm2d(2, dtype=ms.float64)
    bn.set_train()
    x1, x2 = randn(3, 2, 2, 2), randn(3, 2, 2, 2) + 3
    bn(t(x1))
    bn(t(x2))  # compiled: the update must still happen
    assert all(isinstance(v, list) for v in bn._graph.cache.values())
    m1 = 0.1 * x1.mean((0, 2, 3))
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.9 * m1 + 0.1 * x2.mean((0, 2, 3)),
                               rtol=1e-12)


def test_batchnorm_errors():
    with pytest.raises(ValueError, match="channels"):
        nn.BatchNorm2d(3)(t(randn(2, 4, 2, 2)))
    with pytest.raises(ValueError, match="rank"):
        nn.BatchNorm2d(3)(t(randn(2, 3)))
    with pytest.raises(ValueError, match="momentum"):
        nn.BatchNorm1d(3, momentum=1.5)


def test_layernorm():
    ln = nn.LayerNorm((4,), gamma_init="normal", beta_init="normal", dtype=ms.float64)
    x = randn(3, 4)
    want = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-7)
    want = want * ln.gamma.asnumpy() + ln.beta.asnumpy()
    np.testing.assert_allclose(ln(t(x)).asnumpy(), want, rtol=1e-10)
    check_grads(lambda v: ln(v), [t(x)], order=2)
    ln2 = nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1, dtype=ms.float64)
    x = randn(2, 3, 4)
    m, v = x.mean((1, 2), keepdims=True), x.var((1, 2), keepdims=True)
    np.testing.assert_allclose(ln2(t(x)).asnumpy(), (x - m) / np.sqrt(v + 1e-7), rtol=1e-10)
    with pytest.raises(ValueError, match="normalized_shape"):
        ln(t(randn(3, 5)))


# --- Embedding ---------------------------------------------------------------------------------
def test_embedding_lookup_gradient_and_one_hot():
    emb = nn.Embedding(6, 3, padding_idx=0)
    table = emb.embedding_table.asnumpy()
    assert np.all(table[0] == 0)
    ids = np.array([[1, 2, 1], [5, 0, 4]], np.int32)
    np.testing.assert_allclose(emb(ms.Tensor(ids)).asnumpy(), table[ids])
    g = ops.grad(lambda: emb(ms.Tensor(ids)).sum(), None, emb.embedding_table)()
    counts = np.zeros(6)
    np.add.at(counts, ids.ravel(), 1)
    np.testing.assert_allclose(g.asnumpy(), np.repeat(counts[:, None], 3, 1))
    hot = nn.Embedding(6, 3, use_one_hot=True, embedding_table=ms.Tensor(table))
    np.testing.assert_allclose(hot(ms.Tensor(ids)).asnumpy(), table[ids], rtol=1e-6)
    with pytest.raises(TypeError, match="integer"):
        emb(t([1.0, 2.0]))
    with pytest.raises(ValueError, match="padding_idx"):
        nn.Embedding(6, 3, padding_idx=6)


# --- activations -------------------------------------------------------------------------------
def _erf(x):
    return np.vectorize(math.erf)(x)


ACTIVATIONS = [
    (nn.ReLU(), lambda x: np.maximum(x, 0), 1),
    (nn.ReLU6(), lambda x: np.clip(x, 0, 6), 1),
    (nn.Sigmoid(), lambda x: 1 / (1 + np.exp(-x)), 2),
    (nn.Tanh(), np.tanh, 2),
    (nn.GELU(), lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi)
                                                  * (x + 0.044715 * x ** 3))), 2),
    (nn.GELU(approximate=False), lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))), 2),
    (nn.SiLU(), lambda x: x / (1 + np.exp(-x)), 2),
    (nn.Mish(), lambda x: x * np.tanh(np.log1p(np.exp(x))), 2),
    (nn.HSwish(), lambda x: x * np.clip(x + 3, 0, 6) / 6, 1),
    (nn.HSigmoid(), lambda x: np.clip(x + 3, 0, 6) / 6, 1),
    (nn.LeakyReLU(0.1), lambda x: np.where(x > 0, x, 0.1 * x), 1),
    (nn.ELU(), lambda x: np.where(x > 0, x, np.expm1(x)), 1),
    (nn.Softplus(), lambda x: np.log1p(np.exp(x)), 2),
    (nn.Softplus(beta=2, threshold=1),
     lambda x: np.where(2 * x > 1, x, np.log1p(np.exp(2 * x)) / 2), 1),
    (nn.Softmax(), lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True), 2),
    (nn.LogSoftmax(0), lambda x: x - np.log(np.exp(x).sum(0, keepdims=True)), 2),
]


@pytest.mark.parametrize("cell, ref, order", ACTIVATIONS, ids=lambda v: type(v).__name__
                         if isinstance(v, nn.Cell) else "")
def test_activation(cell, ref, order):
    x = randn(3, 4) * 2
    np.testing.assert_allclose(cell(t(x)).asnumpy(), ref(x), rtol=1e-10, atol=1e-12)
    check_grads(lambda v: cell(v), [t(x)], order=order)


def test_get_activation():
    assert isinstance(nn.get_activation("relu"), nn.ReLU)
    assert nn.get_activation(None) is None
    with pytest.raises(TypeError):
        nn.get_activation(3)


# --- containers --------------------------------------------------------------------------------
def test_sequential_cell():
    seq = nn.SequentialCell(nn.Dense(2, 3), nn.ReLU(), nn.Dense(3, 1))
    assert [p.name for p in seq.trainable_params()] == ["0.weight", "0.bias", "2.weight",
                                                        "2.bias"]
    x = t(randn(4, 2), np.float32)
    h = np.maximum(x.asnumpy() @ seq[0].weight.asnumpy().T + seq[0].bias.asnumpy(), 0)
    want = h @ seq[2].weight.asnumpy().T + seq[2].bias.asnumpy()
    np.testing.assert_allclose(seq(x).asnumpy(), want, rtol=1e-5)
    assert len(seq) == 3 and isinstance(seq[-1], nn.Dense)
    assert len(seq[1:]) == 2
    seq.append(nn.Sigmoid())
    assert len(seq) == 4
    del seq[1]
    assert len(seq) == 3 and isinstance(seq[1], nn.Dense)
    named = nn.SequentialCell(OrderedDict(fc=nn.Dense(2, 2), act=nn.Tanh()))
    assert [p.name for p in named.trainable_params()] == ["fc.weight", "fc.bias"]
    with pytest.raises(TypeError, match="Cell"):
        nn.SequentialCell([nn.ReLU(), 3])


class Stack(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(2, 2), nn.Dense(2, 2)])
        self.heads = nn.CellDict({"a": nn.Dense(2, 1), "b": nn.Dense(2, 1)})

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.heads["a"](x) + self.heads["b"](x)


def test_cell_list_and_dict():
    net = Stack()
    names = [p.name for p in net.trainable_params()]
    assert names == ["layers.0.weight", "layers.0.bias", "layers.1.weight", "layers.1.bias",
                     "heads.a.weight", "heads.a.bias", "heads.b.weight", "heads.b.bias"]
    grads = ops.grad(net, None, net.trainable_params())(t(randn(3, 2), np.float32))
    assert len(grads) == 8
    lst = nn.CellList()
    lst.append(nn.ReLU())
    lst.extend([nn.Tanh()])
    lst.insert(0, nn.Sigmoid())
    assert [type(c).__name__ for c in lst] == ["Sigmoid", "ReLU", "Tanh"]
    d = nn.CellDict()
    d["x"] = nn.ReLU()
    assert "x" in d and list(d.keys()) == ["x"] and len(d) == 1
    assert isinstance(d.pop("x"), nn.ReLU) and len(d) == 0
    with pytest.raises(KeyError):
        d["a.b"] = nn.ReLU()
    with pytest.raises(TypeError):
        d[1] = nn.ReLU()
    with pytest.raises(IndexError):
        lst[5]
