"""Optimizers, learning-rate schedules and training wrappers: several steps against
hand-written NumPy, PYNATIVE against GRAPH mode and jit for a whole training step, and
argument errors."""
from __future__ import annotations

import math

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Parameter, Tensor, nn, ops

RNG = np.random.default_rng(5)
STEPS = 4


def t(a, dtype=np.float64):
    return Tensor(np.asarray(a, dtype))


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def make_params():
    """Two float64 Parameters (one named like a BatchNorm gamma) and a gradient sequence."""
    values = [RNG.standard_normal((3, 2)), RNG.standard_normal((2,))]
    params = [Parameter(t(values[0]), name="fc.weight"), Parameter(t(values[1]), name="bn.gamma")]
    grads = [[RNG.standard_normal(v.shape) for v in values] for _ in range(STEPS)]
    return params, values, grads


def run(opt, params, grads):
    for gs in grads:
        assert opt(tuple(t(g) for g in gs)) is True
    return [p.asnumpy() for p in params]


# --- NumPy references, written from the formulas in MindSpore's documentation / kernels -------
def np_sgd(values, grads, lr, momentum=0.0, dampening=0.0, wd=0.0, nesterov=False):
    ps = [v.copy() for v in values]
    acc = [np.zeros_like(v) for v in values]
    for k, gs in enumerate(grads):
        for i, g in enumerate(gs):
            g = g + wd * ps[i]
            if momentum > 0:
                acc[i] = g if k == 0 else momentum * acc[i] + (1 - dampening) * g
                g = g + momentum * acc[i] if nesterov else acc[i]
            ps[i] = ps[i] - lr * g
    return ps


def np_momentum(values, grads, lr, momentum, wd=0.0, nesterov=False, decay_mask=(1, 0)):
    ps = [v.copy() for v in values]
    acc = [np.zeros_like(v) for v in values]
    for gs in grads:
        for i, g in enumerate(gs):
            g = g + wd * decay_mask[i] * ps[i]
            acc[i] = momentum * acc[i] + g
            ps[i] = ps[i] - lr * (g + momentum * acc[i] if nesterov else acc[i])
    return ps


def np_adam(values, grads, lr, b1=0.9, b2=0.999, eps=1e-8, wd=0.0, nesterov=False,
            amsgrad=False, decay_mask=(1, 0)):
    ps = [v.copy() for v in values]
    m = [np.zeros_like(v) for v in values]
    v2 = [np.zeros_like(v) for v in values]
    vmax = [np.zeros_like(v) for v in values]
    f32 = np.float32  # the optimizer keeps lr and beta powers in float32, as MindSpore does
    b1p = b2p = f32(1.0)
    for gs in grads:
        b1p, b2p = f32(b1p * f32(b1)), f32(b2p * f32(b2))
        lr_t = f32(lr) * (np.sqrt(f32(1.0) - b2p) / (f32(1.0) - b1p))
        for i, g in enumerate(gs):
            g = g + wd * decay_mask[i] * ps[i]
            m[i] = m[i] + (g - m[i]) * (1 - b1)
            v2[i] = v2[i] + (g * g - v2[i]) * (1 - b2)
            v = v2[i]
            if amsgrad:
                vmax[i] = np.maximum(vmax[i], v2[i])
                v = vmax[i]
            num = m[i] * b1 + (1 - b1) * g if nesterov else m[i]
            ps[i] = ps[i] - lr_t * num / (np.sqrt(v) + eps)
    return ps


def np_adamw(values, grads, lr, b1=0.9, b2=0.999, eps=1e-6, wd=0.0, decay_mask=(1, 0)):
    ps = [v.copy() for v in values]
    m = [np.zeros_like(v) for v in values]
    v2 = [np.zeros_like(v) for v in values]
    for gs in grads:
        for i, g in enumerate(gs):
            m[i] = b1 * m[i] + (1 - b1) * g
            v2[i] = b2 * v2[i] + (1 - b2) * g * g
            update = m[i] / (np.sqrt(v2[i]) + eps) + wd * decay_mask[i] * ps[i]
            ps[i] = ps[i] - lr * update
    return ps


def np_rmsprop(values, grads, lr, decay=0.9, momentum=0.0, eps=1e-10, centered=False):
    ps = [v.copy() for v in values]
    ms_ = [np.ones_like(v) for v in values]
    mg = [np.zeros_like(v) for v in values]
    mom = [np.zeros_like(v) for v in values]
    for gs in grads:
        for i, g in enumerate(gs):
            ms_[i] = decay * ms_[i] + (1 - decay) * g * g
            denom = ms_[i]
            if centered:
                mg[i] = decay * mg[i] + (1 - decay) * g
                denom = ms_[i] - mg[i] ** 2
            mom[i] = momentum * mom[i] + lr * g / np.sqrt(denom + eps)
            ps[i] = ps[i] - mom[i]
    return ps


CASES = [
    ("sgd", lambda ps: nn.SGD(ps, 0.125), lambda v, g: np_sgd(v, g, 0.125)),
    ("sgd-momentum-dampening-wd",
     lambda ps: nn.SGD(ps, 0.0625, momentum=0.9, dampening=0.25, weight_decay=0.01),
     lambda v, g: np_sgd(v, g, 0.0625, 0.9, 0.25, 0.01)),
    ("sgd-nesterov", lambda ps: nn.SGD(ps, 0.0625, momentum=0.8, nesterov=True),
     lambda v, g: np_sgd(v, g, 0.0625, 0.8, nesterov=True)),
    ("momentum-wd", lambda ps: nn.Momentum(ps, 0.125, 0.9, weight_decay=0.1),
     lambda v, g: np_momentum(v, g, 0.125, 0.9, 0.1)),
    ("momentum-nesterov", lambda ps: nn.Momentum(ps, 0.125, 0.9, use_nesterov=True),
     lambda v, g: np_momentum(v, g, 0.125, 0.9, nesterov=True)),
    ("adam", lambda ps: nn.Adam(ps, 0.01), lambda v, g: np_adam(v, g, 0.01)),
    ("adam-nesterov-wd", lambda ps: nn.Adam(ps, 0.01, use_nesterov=True, weight_decay=0.1),
     lambda v, g: np_adam(v, g, 0.01, wd=0.1, nesterov=True)),
    ("adam-amsgrad", lambda ps: nn.Adam(ps, 0.01, beta2=0.9, use_amsgrad=True),
     lambda v, g: np_adam(v, g, 0.01, b2=0.9, amsgrad=True)),
    ("adamw", lambda ps: nn.AdamWeightDecay(ps, 0.015625, weight_decay=0.1),
     lambda v, g: np_adamw(v, g, 0.015625, wd=0.1)),
    ("rmsprop", lambda ps: nn.RMSProp(ps, 0.015625), lambda v, g: np_rmsprop(v, g, 0.015625)),
    ("rmsprop-centered-momentum",
     lambda ps: nn.RMSProp(ps, 0.015625, momentum=0.5, centered=True, epsilon=1e-6),
     lambda v, g: np_rmsprop(v, g, 0.015625, momentum=0.5, eps=1e-6, centered=True)),
]


@pytest.mark.parametrize("name, make, ref", CASES, ids=[c[0] for c in CASES])
def test_optimizer_steps_match_numpy(name, make, ref):
    params, values, grads = make_params()
    got = run(make(params), params, grads)
    for a, b in zip(got, ref(values, grads)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_optimizer_state_is_parameters_and_registered():
    params, _, _ = make_params()
    opt = nn.Adam(params, 0.01)
    names = [p.name for p in opt.get_parameters()]
    assert {"moment1.fc.weight", "moment2.bn.gamma", "beta1_power", "learning_rate"} <= set(names)
    assert all(not p.requires_grad for p in opt.get_parameters())
    assert opt.parameters[0] is params[0]


# The whole state of a TrainOneStepCell (Dense(2, 1) with ones / zeros, x [[1, 2]], target
# [[0.5]], MSELoss, learning rate 0.1) after two steps, as MindSpore 2.10 holds it.
MS_SGD_STATE = {
    "sgd": ({}, [[0.6, 0.2]], [-0.4], [[0.0, 0.0]], [0.0], [[1.0, 1.0]], [1.0], 0.0),
    "sgd-momentum": ({"momentum": 0.9}, [[0.15, -0.7]], [-0.85], [[3.5, 7.0]], [3.5],
                     [[0.0, 0.0]], [0.0], 0.9),
    "sgd-dampening": ({"momentum": 0.9, "dampening": 0.5}, [[0.1, -0.8]], [-0.9],
                      [[4.0, 8.0]], [4.0], [[0.0, 0.0]], [0.0], 0.9),
    "sgd-nesterov": ({"momentum": 0.9, "weight_decay": 0.1, "nesterov": True},
                     [[0.854971, 0.755681]], [-0.09929], [[-1.9209, -4.0299]], [-2.109],
                     [[0.0, 0.0]], [0.0], 0.9),
}


@pytest.mark.parametrize("case", list(MS_SGD_STATE))
def test_sgd_state_names_and_values_match_mindspore(case):
    """SGD holds MindSpore's state, so checkpoints interchange: ``momentum``, ``accum.*``
    and ``stat.*`` (even with momentum 0, where they keep their start values), and
    ``global_step`` counts every step of a constant rate."""
    kw, w, b, acc_w, acc_b, stat_w, stat_b, momentum = MS_SGD_STATE[case]
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros").to_float(ms.float32)
    opt = nn.SGD(net.trainable_params(), 0.1, **kw)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    x = Tensor(np.array([[1.0, 2.0]], np.float32))
    y = Tensor(np.array([[0.5]], np.float32))
    for _ in range(2):
        step(x, y)
    state = {p.name: p.asnumpy() for p in opt.get_parameters()}
    assert sorted(state) == ["accum.bias", "accum.weight", "global_step", "learning_rate",
                             "momentum", "stat.bias", "stat.weight"]
    assert state["global_step"].tolist() == [2] and state["momentum"] == np.float32(momentum)
    for name, want in (("weight", w), ("bias", b), ("accum.weight", acc_w),
                       ("accum.bias", acc_b), ("stat.weight", stat_w), ("stat.bias", stat_b)):
        got = net.weight.asnumpy() if name == "weight" else \
            net.bias.asnumpy() if name == "bias" else state[name]
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-6, err_msg=name)
    mom = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    assert sorted(p.name for p in mom.get_parameters()) == [
        "global_step", "learning_rate", "moments.bias", "moments.weight", "momentum"]


def test_group_params_lr_weight_decay_and_order():
    params, values, grads = make_params()
    groups = [{"params": [params[1]], "lr": 0.5, "weight_decay": 0.2},
              {"params": [params[0]]},
              {"order_params": params}]
    opt = nn.Momentum(groups, learning_rate=0.125, momentum=0.9)
    assert opt.parameters[0] is params[0] and opt.is_group_lr
    assert opt.decay_flags == (False, True)
    got = run(opt, params, grads)
    want0 = np_momentum(values[:1], [g[:1] for g in grads], 0.125, 0.9)
    want1 = np_momentum(values[1:], [g[1:] for g in grads], 0.5, 0.9, wd=0.2, decay_mask=(1,))
    np.testing.assert_allclose(got[0], want0[0], rtol=1e-12)
    np.testing.assert_allclose(got[1], want1[0], rtol=1e-12)
    lrs = opt.get_lr()
    assert [float(v) for v in lrs] == [0.125, 0.5]
    assert float(opt.get_lr_parameter(params[1])) == pytest.approx(0.5)


def test_loss_scale_divides_gradients():
    params, values, grads = make_params()
    got = run(nn.SGD(params, 0.125, loss_scale=4.0), params, [[g * 4 for g in gs] for gs in grads])
    for a, b in zip(got, np_sgd(values, grads, 0.125)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_dynamic_learning_rates():
    lrs = [0.3, 0.2, 0.1]
    for lr in (lrs, t(lrs, np.float32)):
        params, values, grads = make_params()
        opt = nn.SGD(params, lr)
        got = run(opt, params, grads)  # 4 steps: the last rate is kept after the list ends
        ps = [v.copy() for v in values]
        for k, gs in enumerate(grads):
            rate = np.float32(lrs[min(k, 2)])
            ps = [p - rate * g for p, g in zip(ps, gs)]
        for a, b in zip(got, ps):
            np.testing.assert_allclose(a, b, rtol=1e-6)
        assert int(opt.global_step.asnumpy()[0]) == STEPS
    params, values, grads = make_params()
    sched = nn.ExponentialDecayLR(0.1, 0.5, 1)
    got = run(nn.SGD(params, sched), params, grads)
    ps = [v.copy() for v in values]
    for k, gs in enumerate(grads):
        ps = [p - 0.1 * 0.5 ** k * g for p, g in zip(ps, gs)]
    for a, b in zip(got, ps):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_learning_rate_schedules():
    steps = [0, 1, 3, 5, 9]

    def values(sched):
        return [float(sched(Tensor(np.array([s], np.int32))).asnumpy().reshape(())) for s in steps]

    def close(got, want):
        np.testing.assert_allclose(got, want, rtol=1e-6)

    close(values(nn.ExponentialDecayLR(0.1, 0.9, 4)), [0.1 * 0.9 ** (s / 4) for s in steps])
    close(values(nn.ExponentialDecayLR(0.1, 0.9, 4, True)), [0.1 * 0.9 ** (s // 4) for s in steps])
    close(values(nn.NaturalExpDecayLR(0.1, 0.9, 4, True)),
          [0.1 * math.exp(-0.9 * (s // 4 * 4)) for s in steps])
    close(values(nn.InverseDecayLR(0.1, 0.5, 2)), [0.1 / (1 + 0.5 * s / 2) for s in steps])
    close(values(nn.CosineDecayLR(0.01, 0.1, 4)),
          [0.01 + 0.045 * (1 + math.cos(math.pi * min(s, 4) / 4)) for s in steps])
    close(values(nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5)),
          [0.09 * (1 - min(s, 4) / 4) ** 0.5 + 0.01 for s in steps])
    close(values(nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5, True)),
          [0.09 * (1 - s / (4 * max(math.ceil(s / 4), 1))) ** 0.5 + 0.01 for s in steps])
    close(values(nn.WarmUpLR(0.1, 4)), [0.1 * min(s, 4) / 4 for s in steps])
    with pytest.raises(TypeError):
        nn.ExponentialDecayLR(1, 0.9, 4)
    with pytest.raises(ValueError):
        nn.CosineDecayLR(0.1, 0.01, 4)


def test_dynamic_lr_lists_match_mindspore_examples():
    assert nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01]) == \
        [0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01, 0.01]
    np.testing.assert_allclose(nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1),
                               [0.1, 0.1, 0.09, 0.09, 0.081, 0.081])
    np.testing.assert_allclose(nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2, True),
                               [0.1, 0.1, 0.1, 0.1, 0.016529888822158657, 0.016529888822158657])
    np.testing.assert_allclose(nn.inverse_decay_lr(0.1, 0.5, 6, 1, 1, True),
                               [0.1, 0.06666666666666667, 0.05, 0.04, 0.03333333333333333,
                                0.028571428571428574])
    np.testing.assert_allclose(nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2),
                               [0.1, 0.1, 0.055, 0.055, 0.01, 0.01])
    np.testing.assert_allclose(nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5),
                               [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01])
    np.testing.assert_allclose(nn.warmup_lr(0.1, 6, 2, 2), [0.0, 0.0, 0.05, 0.05, 0.1, 0.1])
    with pytest.raises(ValueError):
        nn.piecewise_constant_lr([2, 1], [0.1, 0.2])


def test_optimizer_errors():
    params, _, _ = make_params()
    opt = nn.SGD(params, 0.1)
    with pytest.raises(ValueError, match="2 parameters"):
        opt((t(np.ones((3, 2))),))
    with pytest.raises(ValueError, match="shape"):
        opt((t(np.ones((3, 2))), t(np.ones(3))))
    with pytest.raises(TypeError, match="tuple"):
        opt(t(np.ones((3, 2))))
    with pytest.raises(ValueError, match="empty"):
        nn.SGD([], 0.1)
    with pytest.raises(TypeError, match="learning_rate"):
        nn.SGD(params, "fast")
    with pytest.raises(ValueError, match="non-negative"):
        nn.SGD(params, -0.1)
    with pytest.raises(RuntimeError, match="already exists"):
        nn.SGD([params[0], params[0]], 0.1)
    with pytest.raises(KeyError, match="cannot be recognized"):
        nn.SGD([{"params": params, "speed": 1}], 0.1)
    with pytest.raises(ValueError, match="nesterov"):
        nn.SGD(params, 0.1, nesterov=True)
    with pytest.raises(ValueError, match="beta1"):
        nn.Adam(params, beta1=1.0)
    with pytest.raises(ValueError, match="weight_decay"):
        nn.Momentum(params, 0.1, 0.9, weight_decay=-1)


# --- training steps: NumPy reference, PYNATIVE, GRAPH, jit ------------------------------------
class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8, weight_init="normal", bias_init="normal", activation="tanh",
                            dtype=ms.float64)
        self.fc2 = nn.Dense(8, 3, weight_init="normal", bias_init="normal", dtype=ms.float64)

    def construct(self, x):
        return self.fc2(self.fc1(x))


DATA_X = RNG.standard_normal((6, 4))
DATA_Y = np.array([0, 2, 1, 0, 1, 2], np.int32)


def numpy_momentum_training(weights, steps, lr=0.125, momentum=0.875):
    w1, b1, w2, b2 = [w.copy() for w in weights]
    acc = [np.zeros_like(w) for w in weights]
    losses = []
    for _ in range(steps):
        h = np.tanh(DATA_X @ w1.T + b1)
        z = h @ w2.T + b2
        lse = np.log(np.exp(z - z.max(1, keepdims=True)).sum(1)) + z.max(1)
        losses.append(np.mean(lse - z[np.arange(6), DATA_Y]))
        dz = np.exp(z - lse[:, None])
        dz[np.arange(6), DATA_Y] -= 1
        dz /= 6
        dh = (dz @ w2) * (1 - h ** 2)
        grads = [dh.T @ DATA_X, dh.sum(0), dz.T @ h, dz.sum(0)]
        for i, g in enumerate(grads):
            acc[i] = momentum * acc[i] + g
        w1, b1, w2, b2 = [w - lr * a for w, a in zip((w1, b1, w2, b2), acc)]
    return losses, [w1, b1, w2, b2]


def train_one_step_net(seed=0):
    ms.set_seed(seed)
    net = MLP()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.125, 0.875)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    train.set_train()
    return net, train


def test_train_one_step_cell_pynative_matches_numpy():
    net, train = train_one_step_net()
    weights = [p.asnumpy() for p in net.trainable_params()]
    losses = [float(train(t(DATA_X), Tensor(DATA_Y))) for _ in range(5)]
    want_losses, want_w = numpy_momentum_training(weights, 5)
    np.testing.assert_allclose(losses, want_losses, rtol=1e-12)
    for p, w in zip(net.trainable_params(), want_w):
        np.testing.assert_allclose(p.asnumpy(), w, rtol=1e-10)


def test_train_one_step_cell_graph_mode_matches_pynative(graph_mode):
    net, train = train_one_step_net()
    weights = [p.asnumpy() for p in net.trainable_params()]
    losses = [float(train(t(DATA_X), Tensor(DATA_Y))) for _ in range(5)]
    variants = [v for vs in train._graph.cache.values() for v in vs]
    # 4 weights + 4 moments + global_step (advanced every step, as in MindSpore)
    assert len(variants) == 1 and len(variants[0].assigned) == 9
    want_losses, want_w = numpy_momentum_training(weights, 5)
    np.testing.assert_allclose(losses, want_losses, rtol=1e-12)
    for p, w in zip(net.trainable_params(), want_w):
        np.testing.assert_allclose(p.asnumpy(), w, rtol=1e-10)


@pytest.mark.parametrize("make_opt", [
    lambda ps: nn.Adam(ps, nn.CosineDecayLR(0.001, 0.01, 3)),
    lambda ps: nn.SGD(ps, [0.1, 0.05], momentum=0.9, dampening=0.5),
    lambda ps: nn.RMSProp(ps, 0.01, centered=True),
], ids=["adam-schedule", "sgd-list-lr", "rmsprop"])
def test_jit_training_step_matches_pynative(make_opt):
    results = []
    for compiled in (False, True):
        ms.set_seed(1)
        net = MLP()
        opt = make_opt(net.trainable_params())
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        grad_fn = ops.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

        def step(x, y):
            loss, grads = grad_fn(x, y)
            opt(grads)
            return loss

        run_step = ms.jit(step) if compiled else step
        losses = [float(run_step(t(DATA_X), Tensor(DATA_Y))) for _ in range(4)]
        results.append((losses, [p.asnumpy() for p in opt.get_parameters()]))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-12)
    for a, b in zip(results[1][1], results[0][1]):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_train_one_step_with_sens_and_return_grad():
    net, _ = train_one_step_net()
    opt = nn.SGD(net.trainable_params(), 0.0)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), opt, sens=2.0, return_grad=True)
    loss, grads = train(t(DATA_X), Tensor(DATA_Y))
    want = ops.grad(lambda x, y: train.network(x, y), None, net.trainable_params())(
        t(DATA_X), Tensor(DATA_Y))
    for g, w in zip(grads, want):
        np.testing.assert_allclose(g.asnumpy(), 2 * w.asnumpy(), rtol=1e-12)


def test_set_data_is_recorded_in_graph_mode(graph_mode):
    """Parameter.set_data inside a compiled function: traced values, constants and values
    of another dtype are all replayed on every call."""
    counter = Parameter(Tensor(np.zeros((), np.int32)), name="counter")
    flag = Parameter(Tensor(np.zeros(2, np.float32)), name="flag")

    @ms.jit
    def bump(x):
        counter.set_data(counter + 1)
        flag.set_data(t([1.5, 2.5]))  # a constant float64 value into a float32 Parameter
        return x * 2

    for _ in range(3):
        bump(t([1.0]))
    assert int(counter.asnumpy()) == 3 and flag.dtype == ms.float32
    np.testing.assert_array_equal(flag.asnumpy(), [1.5, 2.5])
    flag.set_data(Tensor(np.zeros(2, np.float32)))
    bump(t([1.0]))
    np.testing.assert_array_equal(flag.asnumpy(), [1.5, 2.5])
    with pytest.raises(ValueError, match="shape"):
        ms.jit(lambda x: flag.set_data(x))(t([1.0, 2.0, 3.0]))


def test_graph_mode_training_with_dropout_and_batchnorm(graph_mode):
    ms.set_seed(2)
    f64 = ms.float64
    net = nn.SequentialCell([nn.Dense(4, 16, dtype=f64), nn.BatchNorm1d(16, dtype=f64),
                             nn.ReLU(), nn.Dropout(p=0.5), nn.Dense(16, 3, dtype=f64)])
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), nn.SGD(net.trainable_params(), 0.0))
    train.set_train()
    x, y = t(DATA_X), Tensor(DATA_Y)
    losses = [float(train(x, y)) for _ in range(3)]
    assert all(isinstance(v, list) for v in train._graph.cache.values())
    assert len(set(losses)) == 3  # a new dropout mask on every compiled call
    mean = DATA_X @ net[0].weight.asnumpy().T + net[0].bias.asnumpy()
    want = sum(0.1 * 0.9 ** k for k in range(3)) * mean.mean(0)  # lr 0: same batch stats
    np.testing.assert_allclose(net[1].moving_mean.asnumpy(), want, rtol=1e-12)


class CustomMomentum(nn.Optimizer):
    """A user-defined optimizer, written the way MindSpore's documentation shows."""

    def __init__(self, params, learning_rate, momentum=0.9):
        super().__init__(learning_rate, params)
        self.momentum = momentum
        self.moments = self.parameters.clone(prefix="moments", init="zeros")

    def construct(self, gradients):
        lr = self.get_lr()
        for p, g, m in zip(self.parameters, gradients, self.moments):
            m.set_data(m * self.momentum + g)
            p.set_data(p - lr * m)
        return True


@pytest.mark.parametrize("compiled", [False, True], ids=["pynative", "jit"])
def test_custom_optimizer_on_the_base_class(compiled):
    params, values, grads = make_params()
    opt = CustomMomentum(params, 0.125)
    assert opt.moments[0].name == "moments.fc.weight" and not opt.moments[0].asnumpy().any()
    step = ms.jit(lambda *gs: opt(gs)) if compiled else (lambda *gs: opt(gs))
    for gs in grads:
        step(*(t(g) for g in gs))
    for a, b in zip([p.asnumpy() for p in params], np_momentum(values, grads, 0.125, 0.9)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_get_lr_reads_without_advancing_the_step():
    # MindSpore 2.10: get_lr reads the rate at global_step; only an update advances it
    net = nn.Dense(2, 1)
    opt = nn.Momentum(net.trainable_params(), nn.PolynomialDecayLR(0.1, 0.01, 4, 1.0), 0.9)
    assert float(opt.get_lr()) == pytest.approx(0.1) and float(opt.get_lr()) == pytest.approx(0.1)
    assert int(opt.global_step.asnumpy()[0]) == 0
    opt(tuple(ms.Tensor(np.ones(p.shape, np.float32)) for p in net.trainable_params()))
    assert int(opt.global_step.asnumpy()[0]) == 1
    assert float(opt.get_lr()) == pytest.approx(0.0775)
