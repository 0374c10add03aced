"""``nn.Lamb`` and ``nn.LARS``.

MindSpore 2.10's CPU build cannot step either (no ``Lamb`` / ``LARSUpdate`` kernel, in
PyNative and GRAPH mode), so their updates are checked against NumPy implementations of
the documented formulas written here. What the CPU build does run is compared with its
records (``tests/fixtures/lamblars.json`` from ``tests/lamblars_cases.py``): the state
Parameters' names, the constructors' errors, and LARS steps with every parameter left out
of LARS (the wrapper's handling of weight decay, loss scale and the step count). Then
schedules, groups, checkpoints, GRAPH mode / jit, training with ``TrainOneStepCell`` and
``Model.fit``, and bad arguments."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Parameter, Tensor, nn, ops
from mindgrad.train import Model

import lamblars_cases as LC
from array_dataset import ArrayDataset
from test_catalogue import _same, decode

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "lamblars.json")
RECORDS = {r["name"]: r for r in json.load(open(FIXTURE))["cases"]}
CASES = {c.name: c for c in LC.CASES}

# MindSpore fails these for a reason of its own: its LARS decorator reads
# ``optimizer.init_params`` before checking the type, so a list gives an AttributeError;
# mindgrad raises the TypeError that names the argument
OWN_ERRORS = {"err_LARS_not_optimizer": "TypeError"}


def test_fixture_covers_every_case() -> None:
    assert set(RECORDS) == set(CASES)


def _names_without_trained(text: str, trained: tuple = ("fc.weight", "fc.bias", "bn.gamma")):
    """The optimizer's own Parameters (mindgrad's optimizers do not list the Parameters they
    train) as a sorted list of lines."""
    return sorted(line for line in text.splitlines() if line.split()[0] not in trained)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore(name: str) -> None:
    case, rec = CASES[name], RECORDS[name]
    inputs = [decode(r) for r in rec["inputs"]]
    for mine, stored in zip(case.inputs, inputs):
        np.testing.assert_array_equal(mine, stored)
    run = lambda: case.fn(ms, ops, *[Tensor(x) for x in inputs])  # noqa: E731
    if "error" in rec:
        with pytest.raises(Exception) as info:
            run()
        assert type(info.value).__name__ == OWN_ERRORS.get(name, rec["error"][0]), \
            (info.value, rec["error"])
        return
    out = run()
    outs = out if isinstance(out, (tuple, list)) else (out,)
    assert len(outs) == len(rec["outputs"])
    for k, (o, r) in enumerate(zip(outs, rec["outputs"])):
        if name.startswith("names_"):
            got = bytes(o.asnumpy().astype(np.uint8)).decode()
            want = bytes(decode(r).astype(np.uint8)).decode()
            assert _names_without_trained(got) == _names_without_trained(want)
            continue
        _same(o.asnumpy(), decode(r), f"{name} output {k}", case.rtol, case.values)


# --- NumPy references of the documented formulas ---------------------------------------------
def norm(x: np.ndarray) -> float:
    return float(np.sqrt(np.sum(np.square(x, dtype=np.float64))))


def np_lamb(values, grads, lrs, b1=0.9, b2=0.999, eps=1e-6, wds=None, t0=0, store=None):
    """LAMB: Adam's bias-corrected moments, ``u = r + wd w`` and the step scaled by
    ``||w|| / ||u||`` (1 where a norm is 0). ``lrs[k]`` is the rate of step ``k``, ``wds[i]``
    the weight decay of parameter ``i`` (0 where it does not decay), ``t0`` the step count
    before the first step; ``store``: the dtype the parameters and moments are kept in
    between steps."""
    keep = (lambda a: a.astype(store).astype(np.float64)) if store else (lambda a: a)
    ps = [v.astype(np.float64) for v in values]
    m = [np.zeros_like(p) for p in ps]
    v = [np.zeros_like(p) for p in ps]
    wds = wds or [0.0] * len(ps)
    for k, gs in enumerate(grads):
        t = t0 + k + 1
        for i, g in enumerate(gs):
            g = g.astype(np.float64)
            m_new = b1 * m[i] + (1 - b1) * g
            v_new = b2 * v[i] + (1 - b2) * g * g
            m[i], v[i] = keep(m_new), keep(v_new)
            r = (m_new / (1 - b1 ** t)) / (np.sqrt(v_new / (1 - b2 ** t)) + eps)
            u = r + wds[i] * ps[i]
            wn, un = norm(ps[i]), norm(u)
            ratio = wn / un if wn > 0 and un > 0 else 1.0
            lr = lrs[k][i] if isinstance(lrs[k], (list, tuple)) else lrs[k]
            ps[i] = keep(ps[i] - lr * ratio * u)
    return ps, m, v


def np_lars_momentum(values, grads, lrs, momentum, wds, lars_mask, eps=1e-5, coef=0.001,
                     use_clip=False, loss_scale=1.0, nesterov=False):
    """LARS around Momentum: ``g`` (unscaled) becomes ``coeff (g + wd w)`` with
    ``coeff = coef ||w|| / (||g|| + wd ||w|| + eps)`` (clipped to ``[0, 1]`` after dividing
    by the rate with ``use_clip``) for the parameters LARS handles; the others keep ``g``
    and get no weight decay. Then ``v = momentum v + g``, ``w = w - lr v``."""
    ps = [v.astype(np.float64) for v in values]
    acc = [np.zeros_like(p) for p in ps]
    for k, gs in enumerate(grads):
        lr = lrs[k]
        for i, g in enumerate(gs):
            g = g / loss_scale
            if lars_mask[i]:
                wd = wds[i]
                wn, gn = norm(ps[i]), norm(g)
                coeff = coef * wn / (gn + wd * wn + eps)
                if use_clip:
                    coeff = min(max(coeff / lr, 0.0), 1.0)
                g = coeff * (g + wd * ps[i])
            acc[i] = momentum * acc[i] + g
            ps[i] = ps[i] - lr * (g + momentum * acc[i] if nesterov else acc[i])
    return ps


RNG = np.random.default_rng(11)
STEPS = 4


def make_params(names=("fc.weight", "bn.gamma", "fc.bias"), shapes=((3, 4), (4,), (3,))):
    values = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
    params = [Parameter(Tensor(v.copy()), name=n) for v, n in zip(values, names)]
    grads = [[RNG.standard_normal(s).astype(np.float32) for s in shapes] for _ in range(STEPS)]
    return params, values, grads


def run(opt, params, grads):
    for gs in grads:
        assert opt(tuple(Tensor(g) for g in gs)) is True
    return [p.asnumpy() for p in params]


def close(got, want, rtol=2e-5, atol=2e-6):
    for g, w in zip(got, want):
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


# --- Lamb --------------------------------------------------------------------------------------
def test_lamb_steps_match_numpy_defaults():
    params, values, grads = make_params()
    opt = nn.Lamb(params, 0.05)
    got = run(opt, params, grads)
    want, m, v = np_lamb(values, grads, [0.05] * STEPS)
    close(got, want)
    close([x.asnumpy() for x in opt.moments1], m)
    close([x.asnumpy() for x in opt.moments2], v)
    assert opt.global_step.asnumpy().tolist() == [STEPS]


def test_lamb_weight_decay_skips_filtered_parameters():
    params, values, grads = make_params()
    opt = nn.Lamb(params, 0.02, beta1=0.8, beta2=0.95, eps=1e-4, weight_decay=0.3)
    # without groups, parameters named like a norm's gamma / beta do not decay
    assert opt.decay_flags == (True, False, True)
    want, _, _ = np_lamb(values, grads, [0.02] * STEPS, 0.8, 0.95, 1e-4, [0.3, 0.0, 0.3])
    close(run(opt, params, grads), want)
    # the decay changes the result (the test would notice a missing decay)
    plain, _, _ = np_lamb(values, grads, [0.02] * STEPS, 0.8, 0.95, 1e-4)
    assert not np.allclose(plain[0], want[0], rtol=1e-4)


def test_lamb_trust_ratio_zero_norm_cases():
    # a zero parameter (||w|| = 0): ratio 1, a plain bias-corrected Adam step
    w = Parameter(Tensor(np.zeros(3, np.float32)), name="w")
    # a zero gradient on a zero moment (||u|| = 0 without decay): nothing moves, no NaN
    z = Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name="z")
    opt = nn.Lamb([w, z], 0.1)
    g = np.array([0.5, -1.0, 2.0], np.float32)
    opt((Tensor(g), Tensor(np.zeros(2, np.float32))))
    r = g / (np.abs(g) + 1e-6)  # m_hat = g, v_hat = g^2 at the first step
    np.testing.assert_allclose(w.asnumpy(), -0.1 * r, rtol=1e-5)
    np.testing.assert_array_equal(z.asnumpy(), [1.0, -2.0])


def test_lamb_float16_parameters_compute_in_float32():
    params, values, grads = make_params()
    half = [Parameter(Tensor(v.astype(np.float16)), name=p.name) for v, p in zip(values, params)]
    opt = nn.Lamb(half, 0.05, weight_decay=0.1)
    got = run(opt, half, [[g.astype(np.float16) for g in gs] for gs in grads])
    assert all(g.dtype == np.float16 for g in got)
    assert all(m.asnumpy().dtype == np.float16 for m in opt.moments1)
    want, _, _ = np_lamb([v.astype(np.float16) for v in values],
                         [[g.astype(np.float16) for g in gs] for gs in grads], [0.05] * STEPS,
                         wds=[0.1, 0.0, 0.1], store=np.float16)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=2e-3, atol=2e-3)
    # a float16 sum of squares would overflow here (90000 > 65504): the norms are float32
    big = Parameter(Tensor(np.ones((300, 300), np.float16)), name="big")
    nn.Lamb([big], 0.25)((Tensor(np.full((300, 300), 0.5, np.float16)),))
    np.testing.assert_allclose(big.asnumpy(), 0.75, rtol=1e-3)


def test_lars_float16_gradients_stay_float16_and_finite():
    big = Parameter(Tensor(np.ones((300, 300), np.float16)), name="big")
    opt = nn.LARS(nn.Momentum([big], 1.0, 0.9), coefficient=0.1)
    opt((Tensor(np.full((300, 300), 2.0, np.float16)),))
    # coeff = 0.1 * 300 / (600 + 1e-5): each entry moves by 0.05 * 2
    np.testing.assert_allclose(big.asnumpy(), 0.9, rtol=1e-3)
    assert big.asnumpy().dtype == np.float16


def test_lamb_learning_rate_list_and_schedule():
    params, values, grads = make_params()
    rates = [0.1, 0.05, 0.02, 0.01]
    close(run(nn.Lamb(params, rates), params, grads), np_lamb(values, grads, rates)[0])
    params, values, grads = make_params()
    sched = nn.PolynomialDecayLR(0.1, 0.01, 3, 0.5)
    want_lrs = [float(sched(Tensor(np.array(k, np.int32))).asnumpy()) for k in range(STEPS)]
    close(run(nn.Lamb(params, sched), params, grads), np_lamb(values, grads, want_lrs)[0])
    params, values, grads = make_params()
    close(run(nn.Lamb(params, Tensor(np.array(rates, np.float32))), params, grads),
          np_lamb(values, grads, rates)[0])


def test_lamb_group_params_and_order():
    params, values, grads = make_params()
    groups = [{"params": [params[0], params[2]], "lr": 0.03, "weight_decay": 0.2},
              {"params": [params[1]]},
              {"order_params": params}]
    opt = nn.Lamb(groups, 0.08, weight_decay=0.0)
    assert [p.name for p in opt.parameters] == [p.name for p in params]
    # grouped: the group's weight decay applies to every member, even a 'gamma'
    want, _, _ = np_lamb(values, grads, [[0.03, 0.08, 0.03]] * STEPS, wds=[0.2, 0.0, 0.2])
    close(run(opt, params, grads), want)


def test_lamb_bias_correction_follows_global_step_and_checkpoints(tmp_path):
    params, values, grads = make_params()
    opt = nn.Lamb(params, 0.05, weight_decay=0.1)
    run(opt, params, grads[:2])
    path = str(tmp_path / "lamb.ckpt")
    ms.save_checkpoint(opt, path)
    saved = ms.load_checkpoint(path)
    assert {"global_step", "lamb_m.fc.weight", "lamb_v.fc.weight", "lamb_m.bn.gamma",
            "lamb_v.fc.bias"} <= set(saved)
    after_two = [p.asnumpy() for p in params]
    run(opt, params, grads[2:])
    expected = [p.asnumpy() for p in params]
    # a fresh optimizer loaded from the checkpoint continues with t = 3, 4
    fresh = [Parameter(Tensor(a), name=p.name) for a, p in zip(after_two, params)]
    opt2 = nn.Lamb(fresh, 0.05, weight_decay=0.1)
    not_loaded = ms.load_param_into_net(opt2, saved)
    assert opt2.global_step.asnumpy().tolist() == [2]
    assert not [n for n in (not_loaded[0] if isinstance(not_loaded, tuple) else not_loaded)
                if n.startswith(("lamb_", "global_step"))]
    got = run(opt2, fresh, grads[2:])
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)
    # and the reference of four steps from the start agrees with the resumed run
    want, m, _ = np_lamb(values, grads, [0.05] * STEPS, wds=[0.1, 0.0, 0.1])
    close(got, want)
    close([x.asnumpy() for x in opt2.moments1], m)


# --- LARS --------------------------------------------------------------------------------------
def test_lars_momentum_steps_match_numpy():
    params, values, grads = make_params()
    inner = nn.Momentum(params, 0.5, 0.9, weight_decay=0.05)
    opt = nn.LARS(inner)
    assert opt.lars_flag == (True, True, False)  # the default filter leaves 'bias' out
    got = run(opt, params, grads)
    # weight decay: fc.weight decays; bn.gamma does not (decay filter); fc.bias passes the
    # decay filter but not LARS's, so it gets no decay at all
    want = np_lars_momentum(values, grads, [0.5] * STEPS, 0.9, [0.05, 0.0, 0.05],
                            (True, True, False))
    close(got, want)
    assert inner.global_step.asnumpy().tolist() == [STEPS]
    assert opt.global_step is inner.global_step


def test_lars_arguments_loss_scale_and_filter():
    params, values, grads = make_params()
    inner = nn.Momentum(params, 0.2, 0.8, weight_decay=0.1, loss_scale=8.0, use_nesterov=True)
    opt = nn.LARS(inner, epsilon=1e-3, coefficient=0.05, lars_filter=lambda p: "gamma" not in
                  p.name)
    scaled = [[g * 8.0 for g in gs] for gs in grads]
    want = np_lars_momentum(values, scaled, [0.2] * STEPS, 0.8, [0.1, 0.0, 0.1],
                            (True, False, True), 1e-3, 0.05, loss_scale=8.0, nesterov=True)
    close(run(opt, params, scaled), want)


def test_lars_use_clip_with_fixed_and_dynamic_rates():
    params, values, grads = make_params()
    opt = nn.LARS(nn.Momentum(params, 0.01, 0.9, weight_decay=0.01), coefficient=0.02,
                  use_clip=True)
    want = np_lars_momentum(values, grads, [0.01] * STEPS, 0.9, [0.01, 0.0, 0.01],
                            (True, True, False), coef=0.02, use_clip=True)
    close(run(opt, params, grads), want)
    # with a rate list, the clip divides by this step's rate (read before the step count
    # advances)
    params, values, grads = make_params()
    rates = [0.5, 0.01, 0.2, 0.001]
    opt = nn.LARS(nn.Momentum(params, rates, 0.9), coefficient=0.02, use_clip=True)
    want = np_lars_momentum(values, grads, rates, 0.9, [0.0] * 3, (True, True, False),
                            coef=0.02, use_clip=True)
    close(run(opt, params, grads), want)
    # the clip matters here: without it the result differs
    unclipped = np_lars_momentum(values, grads, rates, 0.9, [0.0] * 3, (True, True, False),
                                 coef=0.02)
    assert not np.allclose(unclipped[0], want[0], rtol=1e-3)


def test_lars_group_rates_and_zero_weight():
    w = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")  # ||w|| = 0: coeff = 0
    params, values, grads = make_params()
    groups = [{"params": [params[0], w], "lr": 0.3, "weight_decay": 0.02},
              {"params": params[1:]}]
    opt = nn.LARS(nn.Momentum(groups, 0.1, 0.9), use_clip=True, coefficient=0.01)
    g_w = np.ones((2, 2), np.float32)
    for gs in grads:
        opt((Tensor(gs[0]), Tensor(g_w), Tensor(gs[1]), Tensor(gs[2])))
    np.testing.assert_array_equal(w.asnumpy(), np.zeros((2, 2), np.float32))
    want = np_lars_momentum([values[0]], [[gs[0]] for gs in grads], [0.3] * STEPS, 0.9,
                            [0.02], (True,), coef=0.01, use_clip=True)
    close([params[0].asnumpy()], want)
    want = np_lars_momentum(values[1:], [gs[1:] for gs in grads], [0.1] * STEPS, 0.9,
                            [0.0, 0.0], (True, False), coef=0.01, use_clip=True)
    close([p.asnumpy() for p in params[1:]], want)


def test_lars_around_adam_matches_numpy():
    params, values, grads = make_params()
    opt = nn.LARS(nn.Adam(params, 0.01, weight_decay=0.1), coefficient=0.1)
    got = run(opt, params, grads)
    # LARS's gradients through Adam (no decay left in Adam; bias corrections in float32)
    ps = [v.astype(np.float64) for v in values]
    m = [np.zeros_like(p) for p in ps]
    v = [np.zeros_like(p) for p in ps]
    for k, gs in enumerate(grads):
        t = k + 1
        lr_t = 0.01 * np.sqrt(1 - np.float32(0.999) ** t) / (1 - np.float32(0.9) ** t)
        for i, g in enumerate(gs):
            if i < 2:
                wd = (0.1, 0.0)[i]
                wn, gn = norm(ps[i]), norm(g)
                g = 0.1 * wn / (gn + wd * wn + 1e-5) * (g + wd * ps[i])
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            ps[i] = ps[i] - lr_t * m[i] / (np.sqrt(v[i]) + 1e-8)
    close(got, ps, rtol=5e-5, atol=5e-6)


def test_lars_checkpoint_names_and_resume(tmp_path):
    params, values, grads = make_params()
    opt = nn.LARS(nn.Momentum(params, 0.5, 0.9, weight_decay=0.05))
    run(opt, params, grads[:2])
    path = str(tmp_path / "lars.ckpt")
    ms.save_checkpoint(opt, path)
    saved = ms.load_checkpoint(path)
    assert {"global_step", "fake_lr", "fake_param", "learning_rate", "momentum",
            "moments.fc.weight", "moments.bn.gamma", "moments.fc.bias"} <= set(saved)
    state = [p.asnumpy() for p in params]
    run(opt, params, grads[2:])
    expected = [p.asnumpy() for p in params]
    fresh = [Parameter(Tensor(a), name=p.name) for a, p in zip(state, params)]
    opt2 = nn.LARS(nn.Momentum(fresh, 0.5, 0.9, weight_decay=0.05))
    ms.load_param_into_net(opt2, saved)
    for g, e in zip(run(opt2, fresh, grads[2:]), expected):
        np.testing.assert_array_equal(g, e)


# --- compiled steps and training ---------------------------------------------------------------
def _regression():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((32, 4)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5], [3.0]], np.float32) + 0.7).astype(np.float32)
    return x, y


def _dense():
    return nn.Dense(4, 1, weight_init=Tensor(np.full((1, 4), 0.1, np.float32)),
                    bias_init="zeros")


MAKERS = {
    "Lamb": lambda ps: nn.Lamb(ps, 0.3, weight_decay=0.01),
    "LARS": lambda ps: nn.LARS(nn.Momentum(ps, 0.1, 0.9), coefficient=0.5),
}


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_train_one_step_cell_loss_drops_and_graph_mode_agrees(name):
    x, y = Tensor(_regression()[0]), Tensor(_regression()[1])
    results = []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            net = _dense()
            step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                       MAKERS[name](net.trainable_params()))
            losses = [float(step(x, y).asnumpy()) for _ in range(40)]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        assert losses[-1] < 0.2 * losses[0], losses
        results.append((losses, net.weight.asnumpy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-5)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_jit_step_matches_pynative(name):
    x, y = Tensor(_regression()[0]), Tensor(_regression()[1])
    outs = []
    for compiled in (False, True):
        net = _dense()
        opt = MAKERS[name](net.trainable_params())
        grad_fn = ops.value_and_grad(lambda a, b: nn.MSELoss()(net(a), b), None, opt.parameters)

        def step(a, b):
            loss, grads = grad_fn(a, b)
            opt(grads)
            return loss

        call = ms.jit(step) if compiled else step
        outs.append([float(call(x, y).asnumpy()) for _ in range(5)] + net.weight.asnumpy()
                    .ravel().tolist())
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-5)


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_model_fit_loss_drops(name):
    x, y = _regression()
    net = _dense()
    loss = nn.MSELoss()
    before = float(loss(net(Tensor(x)), Tensor(y)).asnumpy())
    model = Model(net, loss, MAKERS[name](net.trainable_params()))
    model.fit(10, ArrayDataset({"data": x, "label": y}, 8))
    after = float(loss(net(Tensor(x)), Tensor(y)).asnumpy())
    assert after < 0.2 * before, (before, after)


# --- bad arguments -----------------------------------------------------------------------------
def _ps():
    return [Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")]


@pytest.mark.parametrize("build, error, words", [
    (lambda: nn.Lamb(_ps(), 0.1, beta1=1), TypeError, "'beta1'"),
    (lambda: nn.Lamb(_ps(), 0.1, beta1=1.0), ValueError, "'beta1'"),
    (lambda: nn.Lamb(_ps(), 0.1, beta2=0.0), ValueError, "'beta2'"),
    (lambda: nn.Lamb(_ps(), 0.1, eps="x"), TypeError, "'eps'"),
    (lambda: nn.Lamb(_ps(), 0.1, eps=-1e-6), ValueError, "'eps'"),
    (lambda: nn.Lamb(_ps(), 0.1, weight_decay=-1.0), ValueError, "'weight_decay'"),
    (lambda: nn.Lamb(_ps(), -0.1), ValueError, "learning rate"),
    (lambda: nn.LARS(_ps()), TypeError, "'optimizer'"),
    (lambda: nn.LARS(nn.Momentum(_ps(), 0.1, 0.9), epsilon=1), TypeError, "'epsilon'"),
    (lambda: nn.LARS(nn.Momentum(_ps(), 0.1, 0.9), coefficient=None), TypeError,
     "'coefficient'"),
    (lambda: nn.LARS(nn.Momentum(_ps(), 0.1, 0.9), use_clip="yes"), TypeError, "'use_clip'"),
    (lambda: nn.LARS(nn.Momentum(_ps(), 0.1, 0.9), lars_filter=3), TypeError, "'lars_filter'"),
    (lambda: nn.LARS(nn.Momentum([{"params": _ps(), "lr": [0.1, 0.2]}], 0.1, 0.9),
                     use_clip=True), ValueError, "'use_clip'"),
])
def test_constructor_errors_name_the_argument(build, error, words):
    with pytest.raises(error, match=words):
        build()


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_bad_gradients_change_nothing(name):
    params = [Parameter(Tensor(np.ones((2, 3), np.float32)), name="fc.weight"),
              Parameter(Tensor(np.ones(3, np.float32)), name="fc.bias")]
    opt = MAKERS[name](params)
    state = [p.asnumpy().copy() for _, p in opt.parameters_and_names()] + \
        [p.asnumpy().copy() for p in params]
    good = Tensor(np.ones((2, 3), np.float32))
    for bad, error, words in [((good,), ValueError, "2 parameters"),
                              ((good, Tensor(np.ones(4, np.float32))), ValueError,
                               "fc.bias"),
                              ([good, good], ValueError, "fc.bias"),
                              (good, TypeError, "tuple")]:
        with pytest.raises(error, match=words):
            opt(bad)
    after = [p.asnumpy() for _, p in opt.parameters_and_names()] + [p.asnumpy() for p in params]
    for a, b in zip(state, after):
        np.testing.assert_array_equal(a, b)


def test_inner_optimizer_hands_over_decay_and_scale():
    params, _, _ = make_params()
    inner = nn.Momentum(params, 0.1, 0.9, weight_decay=0.1, loss_scale=4.0)
    opt = nn.LARS(inner)
    assert inner.decay_flags == (False, False, False) and not inner.exec_weight_decay
    assert inner.reciprocal_scale == 1.0 and inner.loss_scale == 4.0
    assert opt.decay_flags == (True, False, True) and opt.weight_decay == 0.1
    assert opt.loss_scale == 4.0
    # the wrapper's rate is MindSpore's stand-in; asking for it leaves the shared step alone
    assert float(opt.get_lr().asnumpy()) == 0.0 and opt.get_lr().name == "fake_lr"
    assert inner.global_step.asnumpy().tolist() == [0]


def test_signatures_are_mindspores():
    """MindSpore's decorators hide these signatures from ``inspect`` (the signature list has
    ``(*args, **kwargs)``); these are the parameters of its ``__init__`` source."""
    import inspect

    def params(cls):
        sig = inspect.signature(cls.__init__)
        return [(p.name, p.default) for p in list(sig.parameters.values())[1:]]

    assert params(nn.Lamb) == [("params", inspect.Parameter.empty),
                               ("learning_rate", inspect.Parameter.empty), ("beta1", 0.9),
                               ("beta2", 0.999), ("eps", 1e-6), ("weight_decay", 0.0)]
    got = params(nn.LARS)
    assert got[:4] == [("optimizer", inspect.Parameter.empty), ("epsilon", 1e-05),
                       ("coefficient", 0.001), ("use_clip", False)]
    assert got[4][0] == "lars_filter"
    keep = got[4][1]
    names = ["fc.weight", "fc.bias", "LayerNorm.gamma", "bn.beta"]
    assert [keep(Parameter(Tensor(np.zeros(1, np.float32)), name=n)) for n in names] == \
        [True, False, False, True]
