"""``mindspore.mint`` against MindSpore 2.10 (``tests/fixtures/mint.json``, recorded by
``tools/record_catalogue.py --suite mint`` from ``tests/mint_cases.py``): the same calls on
mindgrad give MindSpore's shapes, dtypes, values (rtol 1e-5 in float32) and gradients.

MindSpore's CPU build has no kernel for many mint functions (they are Ascend kernels): for
those cases the record holds the refusal, and mindgrad's result is checked against a NumPy
reference (``NUMPY``) and its gradient numerically in float64. Then the name lists, the
signatures, the layers, the optimizers and the in-place functions."""
from __future__ import annotations

import inspect
import json
import math
import os
import re
import sys

import numpy as np
import pytest

import mindgrad as ms
import mindgrad.mint as mint
from mindgrad import Tensor, ops

import mint_cases as MC
from gradcheck import check_vjp
from test_catalogue import _same, decode, weights

HERE = os.path.dirname(__file__)
FIXTURE = os.path.join(HERE, "fixtures", "mint.json")
DATA = os.path.join(HERE, "..", "tools", "data")
RECORDS = {r["name"]: r for r in json.load(open(FIXTURE))["cases"]}
CASES = {c.name: c for c in MC.CASES}

# The refusals of MindSpore's CPU build (no kernel outside Ascend), its own failures, and
# "only support decimals": its Round refuses decimals != 0, which mint documents.
CPU_REFUSALS = ("only support decimals", "unregistered", "only supports Ascend",
                "Not found op", "Not implement", "Create kernelmod",
                "pointer[input_tensor] is null", "InplaceCopy")


def _log_softmax(x, axis):
    z = x - x.max(axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis, keepdims=True))


def _ln(x, axes, w=1.0, b=0.0):
    m = x.mean(axes, keepdims=True)
    return (x - m) / np.sqrt(((x - m) ** 2).mean(axes, keepdims=True) + 1e-5) * w + b


def _nll(lp, y):
    return -lp[np.arange(len(y)), y]


# NumPy (PyTorch-semantics) references for the calls MindSpore's CPU build refuses
NUMPY = {
    "m_exp2": np.exp2, "m_log2": np.log2, "m_log10": np.log10, "m_asin": np.arcsin,
    "m_acos": np.arccos, "m_atan": np.arctan, "m_arcsin": np.arcsin, "m_arccos": np.arccos,
    "m_arctan": np.arctan, "m_asinh": np.arcsinh, "m_acosh": np.arccosh,
    "m_arcsinh": np.arcsinh, "m_arccosh": np.arccosh, "m_frac": lambda x: x - np.trunc(x),
    "m_isneginf": np.isneginf, "m_atan2": np.arctan2, "m_arctan2": np.arctan2,
    "m_logaddexp": np.logaddexp, "m_logaddexp2": np.logaddexp2, "m_mm": np.matmul,
    "m_outer": np.outer, "m_mv": np.matmul, "m_dot": np.dot,
    "m_bitwise_or": np.bitwise_or, "m_bitwise_xor": np.bitwise_xor,
    "r_std": lambda x: np.std(x, ddof=1), "r_var": lambda x: np.var(x, ddof=1),
    "r_logsumexp": lambda x: np.log(np.exp(x).sum(1)),
    "r_norm": lambda x: np.sqrt((x ** 2).sum()),
    "r_std_dim": lambda x: np.std(x, 1), "r_var_dim": lambda x: np.var(x, (0, 1), ddof=1,
                                                                        keepdims=True),
    "r_norm_dim": lambda x: np.abs(x).sum(2), "r_logsumexp_dim":
        lambda x: np.log(np.exp(x).sum((1, 2))),
    "f_relu6": lambda x: np.clip(x, 0, 6), "f_hardtanh": lambda x: np.clip(x, -1, 1),
    "f_gelu": lambda x: x * 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2))),
    "f_elu": lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)),
    "f_leaky_relu": lambda x: np.where(x > 0, x, 0.1 * x),
    "f_logsigmoid": lambda x: -np.logaddexp(0, -x),
    "f_log_softmax": lambda x: _log_softmax(x, 0),
    "f_threshold": lambda x: np.where(x > 0.3, x, -1.0),
    "m_round_decimals": lambda x: np.round(x, 1),
    "m_addcdiv": lambda x, a, b: x + 0.5 * a / b,
    "m_addmm": lambda x, a, b: 0.5 * x + 2.0 * a @ b,
    "m_baddbmm": lambda x, a, b: x + 0.5 * a @ b,
    "m_argmax": lambda x: np.argmax(x, 1), "m_argmax_all": lambda x: np.argmax(x),
    "m_argmin_keep": lambda x: np.argmin(x, 0)[None],
    "m_cumsum": lambda x: np.cumsum(x, 1), "m_count_nonzero": lambda x: np.count_nonzero(x, 1),
    "m_std_mean": lambda x: (np.std(x, 1, ddof=1), np.mean(x, 1)),
    "m_var_mean": lambda x: (np.var(x, 0), np.mean(x, 0)),
    "m_median_all": lambda x: np.sort(x.ravel())[(x.size - 1) // 2],
    "m_median": lambda x: (np.sort(x, 1)[:, 2], np.argsort(x, 1)[:, 2]),
    "m_stack": lambda x, y: np.stack([x, y], 2), "m_unbind": lambda x: tuple(x.T),
    "m_repeat_interleave": lambda x: np.repeat(x, 2, 1), "m_roll": lambda x: np.roll(x, 1, 1),
    "m_index_select": lambda x, i: x[:, i],
    "m_scatter_add": lambda x, i, s: x + np.array([[s[0, 0] + s[0, 1], 0, 0],
                                                   [0, s[1, 0], s[1, 1]]], np.float32),
    "m_take": lambda x, i: x.ravel()[i], "m_select": lambda x: x[:, 2],
    "m_sort": lambda x: (np.sort(x, 1), np.argsort(x, 1)),
    "m_sort_desc": lambda x: (-np.sort(-x, -1), np.argsort(-x, -1)),
    "m_argsort": lambda x: np.argsort(x, 0),
    "m_topk": lambda x: (-np.sort(-x, -1)[..., :2], np.argsort(-x, -1)[..., :2]),
    "m_topk_small": lambda x: (np.sort(x, 0)[:1], np.argsort(x, 0)[:1]),
    "m_tril": lambda x: np.tril(x, -1), "m_diag_vec": np.diag,
    "m_diag_vec_k": lambda x: np.diag(x, 1), "m_diag_mat": lambda x: np.diag(x, -1),
    "m_einsum": lambda a, b: a @ b, "m_clone": lambda x: x, "m_trace": np.trace,
    "m_inverse": np.linalg.inv,
    "c_ones_like": np.ones_like, "c_zeros_like": np.zeros_like,
    "c_full": lambda: np.full((2, 2), 1.5, np.float32),
    "c_full_int": lambda: np.full((3,), 7, np.int64),
    "c_full_like": lambda x: np.full_like(x, 2),
    "c_arange": lambda: np.arange(5), "c_arange_float": lambda: np.arange(0.5, 3, 0.5,
                                                                          dtype=np.float32),
    "c_arange_step": lambda: np.arange(1, 10, 3),
    "f_mse_loss": lambda a, b: ((a - b) ** 2).mean(),
    "f_mse_loss_sum": lambda a, b: ((a - b) ** 2).sum(),
    "f_cross_entropy": lambda x, y: _nll(_log_softmax(x, 1), y).mean(),
    "f_cross_entropy_smooth": lambda x, y: (0.9 * _nll(_log_softmax(x, 1), y)
                                            - 0.1 * _log_softmax(x, 1).mean(1)).sum(),
    "f_kl_div": lambda x, t: (t * (np.log(t) - x)).sum() / x.shape[0],
    "f_kl_div_log": lambda x, t: (np.exp(t) * (t - x)).mean(),
    "f_soft_margin_loss": lambda x, y: np.log1p(np.exp(-x * y)).mean(),
    "f_pad": lambda x: np.pad(x, ((0, 0), (1, 2))),
    "f_pad_value": lambda x: np.pad(x, ((0, 1), (1, 0)), constant_values=3.0),
    "f_pad_reflect": lambda x: np.pad(x, ((0, 0), (0, 0), (1, 1)), "reflect"),
    "f_layer_norm": lambda x, w, b: _ln(x, -1, w, b),
    "f_layer_norm_2d": lambda x: _ln(x, (1, 2)),
    "f_group_norm": lambda x, w, b: _ln(x, (1, 2, 3), w[:, None, None], b[:, None, None]),
    "f_batch_norm_train": lambda x, m, v: _ln(x, (0, 2, 3)),
    "f_batch_norm_eval": lambda x, m, v: (x - m[:, None, None])
        / np.sqrt(v[:, None, None] + 1e-5),
    "f_normalize": lambda x: x / np.sqrt((x ** 2).sum(1, keepdims=True)),
    "f_normalize_p1": lambda x: x / np.abs(x).sum(0, keepdims=True),
    "f_one_hot": lambda y: np.eye(5, dtype=np.int64)[y],
    "f_one_hot_auto": lambda y: np.eye(y.max() + 1, dtype=np.int64)[y],
    "f_embedding": lambda i, w: w[i],
    "m_histc": lambda x: np.histogram(x, 4, (0, 4))[0],
    "m_histc_auto": lambda x: np.histogram(x, 3)[0],
    "f_gelu_tanh": lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi)
                                                    * (x + 0.044715 * x ** 3))),
    "f_cosine_embedding_loss": lambda a, b, t: np.where(
        t == 1, 1 - (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1),
        np.maximum((a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
                   - 0.1, 0)).mean(),
}
# the refused calls whose values are checked another way (tests below)
OTHERWISE = {"f_conv2d", "f_conv2d_stride", "f_max_pool2d", "f_max_pool2d_stride",
             "f_avg_pool2d"}


def _outs(out) -> tuple:
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def test_fixture_covers_every_case() -> None:
    assert set(RECORDS) == set(CASES)
    assert len(CASES) >= 249


def _refused(rec: dict) -> bool:
    err = rec.get("error")
    return bool(err) and any(s in err[1] for s in CPU_REFUSALS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore(name: str) -> None:
    case, rec = CASES[name], RECORDS[name]
    inputs = [decode(r) for r in rec["inputs"]]
    for mine, stored in zip(case.inputs, inputs):
        np.testing.assert_array_equal(mine, stored)
    ms.set_seed(0)
    ts = [Tensor(x) for x in inputs]
    outs = _outs(case.fn(ms, ops, *ts))
    if "error" in rec:
        assert _refused(rec), rec["error"]
        assert name in NUMPY or name in OTHERWISE, f"{name}: no reference for {rec['error']}"
        if name in NUMPY:
            want = _outs(NUMPY[name](*inputs))
            assert len(outs) == len(want)
            for o, w in zip(outs, want):
                w = np.asarray(w)
                got = o.asnumpy()
                assert got.shape == w.shape, (name, got.shape, w.shape)
                np.testing.assert_allclose(got, w.astype(got.dtype), rtol=1e-4, atol=1e-5,
                                           err_msg=name)
        if case.grad:
            _numerical_grad(case, inputs)
        return
    assert len(outs) == len(rec["outputs"])
    for k, (o, r) in enumerate(zip(outs, rec["outputs"])):
        _same(o.asnumpy(), decode(r), f"{name} output {k}", case.rtol, case.values)
    if not case.grad:
        return
    if "grad_error" in rec:  # MindSpore's own backward fails: checked numerically
        assert _refused({"error": rec["grad_error"]}), rec["grad_error"]
        _numerical_grad(case, inputs)
        return
    w = Tensor(weights(tuple(rec["outputs"][0]["shape"])))

    def loss(*xs):
        return (_outs(case.fn(ms, ops, *xs))[0] * w).sum()

    g = ms.grad(loss, grad_position=tuple(case.grad))(*ts)
    g = g if isinstance(g, (tuple, list)) else (g,)
    for k, (t, r) in enumerate(zip(g, rec["grads"])):
        _same(t.asnumpy(), decode(r), f"{name} gradient {k}", max(case.rtol, 1e-5), True)


def _numerical_grad(case, inputs) -> None:
    """The reverse derivative of the first output in the ``case.grad`` inputs, against
    central differences in float64."""
    def f(*xs):
        full = list(Tensor(x) for x in inputs)
        for k, x in zip(case.grad, xs):
            full[k] = x
        return _outs(case.fn(ms, ops, *full))[0]

    check_vjp(f, [Tensor(inputs[k].astype(np.float64)) for k in case.grad],
              np.random.default_rng(0), 1e-5, 1e-6)


# --- conv and pooling, which MindSpore's CPU build refuses under mint: against ops ---------
def test_conv_and_pooling_match_the_ops_front_end() -> None:
    x, k, b = Tensor(MC.IMG), Tensor(MC.KER), Tensor(MC._r(242, (4,)))
    F = mint.nn.functional
    np.testing.assert_allclose(F.conv2d(x, k, b, padding=1).asnumpy(),
                               ops.conv2d(x, k, b, 1, "pad", 1).asnumpy(), rtol=1e-6)
    y = F.conv2d(x, k, stride=2)
    assert y.shape == (2, 4, 2, 2)
    ref = np.einsum("nchw,ochw->no", MC.IMG[:, :, :3, :3], MC.KER)
    np.testing.assert_allclose(y.asnumpy()[:, :, 0, 0], ref, rtol=1e-5, atol=1e-5)
    m = F.max_pool2d(x, 2).asnumpy()
    np.testing.assert_array_equal(m, MC.IMG.reshape(2, 3, 3, 2, 3, 2).max((3, 5)))
    a = F.avg_pool2d(x, 2).asnumpy()
    np.testing.assert_allclose(a, MC.IMG.reshape(2, 3, 3, 2, 3, 2).mean((3, 5)), rtol=1e-6)
    p = F.max_pool2d(x, 3, stride=1, padding=1)
    assert p.shape == (2, 3, 6, 6)


# --- names and signatures ---------------------------------------------------------------
def _tool(name: str):
    sys.path.insert(0, os.path.join(HERE, "..", "tools"))
    try:
        return __import__(name)
    finally:
        sys.path.pop(0)


def test_coverage_of_each_namespace() -> None:
    report = _tool("coverage_report")
    have = {ns: len(report.coverage(ns)[0]) for ns in
            ("mint", "mint_nn", "mint_nn_functional", "mint_optim")}
    assert have["mint"] >= 196 and have["mint_nn"] >= 54
    assert have["mint_nn_functional"] >= 51 and have["mint_optim"] == 4


def _signature(f) -> str:
    parts, star = [], False
    for name, p in inspect.signature(f).parameters.items():
        if p.kind == p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        prefix = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "")
        star = star or p.kind == p.VAR_POSITIONAL
        default = "" if p.default is p.empty else "=" + repr(p.default)
        parts.append(prefix + name + default)
    return "(" + ", ".join(parts) + ")"


# mint functions whose MindSpore signature names differ on purpose
SIGNATURE_DEVIATIONS = {
    "arcsin": "MindSpore names its argument 'x', every sibling 'input'",
    "isnan": "MindSpore names its argument 'tensor', every sibling 'input'",
    "randperm": "MindSpore's default dtype prints as mindspore.int64",
    "rand": "mindgrad has no generator or device objects; the names are accepted",
    "randn": "as rand",
}


@pytest.mark.parametrize("namespace,module", [("mint", mint),
                                              ("mint_nn_functional", mint.nn.functional),
                                              ("mint_nn", mint.nn), ("mint_optim", mint.optim)])
def test_signatures_match_mindspore(namespace, module) -> None:
    wrong = []
    for line in open(os.path.join(DATA, f"mindspore_{namespace}_signatures.txt")):
        name, sig = line.strip().split(" ", 1)
        # MindSpore's annotations and return types are not part of the comparison
        sig = re.sub(r": [^,=)]+", "", sig.split(" -> ")[0])
        # an annotated parameter prints its default as 'name: type = default'
        sig = sig.replace("= ", "=")
        if "*args" in sig or name in SIGNATURE_DEVIATIONS \
                or not hasattr(module, name):
            continue
        mine = _signature(getattr(module, name))
        if mine != sig:
            wrong.append(f"{name}: {mine} != {sig}")
    assert not wrong, "\n".join(wrong)


# --- layers, in-place functions, optimizers ------------------------------------------------
def test_layers_compute_their_functions() -> None:
    x = Tensor(MC.D)
    nn, F = mint.nn, mint.nn.functional
    np.testing.assert_allclose(nn.ReLU()(x).asnumpy(), np.maximum(MC.D, 0))
    np.testing.assert_allclose(nn.Softmax(dim=1)(x).asnumpy(), F.softmax(x, 1).asnumpy())
    lin = nn.Linear(4, 2)
    assert lin.weight.shape == (2, 4) and lin.bias.shape == (2,)
    np.testing.assert_allclose(lin(x).asnumpy(), MC.D @ lin.weight.asnumpy().T
                               + lin.bias.asnumpy(), rtol=1e-5, atol=1e-6)
    assert nn.Linear(4, 2, bias=False).bias is None
    conv = nn.Conv2d(3, 4, 3, padding=1)
    assert conv(Tensor(MC.IMG)).shape == (2, 4, 6, 6)
    np.testing.assert_allclose(nn.MSELoss(reduction="sum")(x, x * 2).asnumpy(),
                               (MC.D ** 2).sum(), rtol=1e-5)
    np.testing.assert_allclose(nn.ZeroPad2d(1)(x).asnumpy(),
                               np.pad(MC.D, ((0, 0), (1, 1), (1, 1))))
    np.testing.assert_allclose(nn.ConstantPad1d((0, 2), 5.0)(x).asnumpy(),
                               np.pad(MC.D, ((0, 0), (0, 0), (0, 2)), constant_values=5))
    bn = nn.BatchNorm2d(3)
    bn.set_train()
    y = bn(Tensor(MC.IMG)).asnumpy()
    np.testing.assert_allclose(y.mean((0, 2, 3)), 0, atol=1e-5)
    np.testing.assert_allclose(bn.running_mean.asnumpy(), 0.1 * MC.IMG.mean((0, 2, 3)),
                               rtol=1e-5, atol=1e-6)
    gn = nn.GroupNorm(1, 3)
    np.testing.assert_allclose(gn(Tensor(MC.IMG)).asnumpy().mean((1, 2, 3)), 0, atol=1e-5)
    with pytest.raises(ValueError, match="GroupNorm"):
        nn.GroupNorm(2, 3)
    with pytest.raises(TypeError, match="MSELoss"):
        nn.MSELoss(wrong=1)


def test_in_place_functions_write_into_input() -> None:
    F = mint.nn.functional
    x = Tensor(MC.A.copy())
    out = F.relu_(x)
    assert out is x
    np.testing.assert_array_equal(x.asnumpy(), np.maximum(MC.A, 0))
    y = Tensor(MC.A.copy())
    F.hardtanh(y, -0.5, 0.5, inplace=True)
    np.testing.assert_array_equal(y.asnumpy(), np.clip(MC.A, -0.5, 0.5))


def _quadratic_steps(opt_cls, steps: int = 3, **kw) -> np.ndarray:
    """The parameter after ``steps`` of ``opt_cls`` on ``sum(p^2)`` from ``[1, -2]``."""
    p = ms.Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name="p")
    opt = opt_cls([p], **kw)
    for _ in range(steps):
        opt((ops.mul(p, 2.0),))
    return p.asnumpy()


def test_optimizers_follow_pytorchs_updates() -> None:
    p0 = np.array([1.0, -2.0])
    # SGD with momentum 0.9 and weight decay 0.1
    p, v = p0.copy(), None
    for _ in range(3):
        g = 2 * p + 0.1 * p
        v = g if v is None else 0.9 * v + g
        p = p - 0.1 * v
    np.testing.assert_allclose(_quadratic_steps(mint.optim.SGD, lr=0.1, momentum=0.9,
                                                weight_decay=0.1), p, rtol=1e-5)
    for cls, decoupled in ((mint.optim.Adam, False), (mint.optim.AdamW, True)):
        p, m, v = p0.copy(), 0.0, 0.0
        for t in range(1, 4):
            g = 2 * p
            if decoupled:
                p = p * (1 - 0.1 * 0.05)
            else:
                g = g + 0.05 * p
            m = 0.9 * m + 0.1 * g
            v = 0.999 * v + 0.001 * g * g
            p = p - 0.1 * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
        np.testing.assert_allclose(_quadratic_steps(cls, lr=0.1, weight_decay=0.05), p,
                                   rtol=1e-5)
    with pytest.raises(ValueError, match="betas"):
        mint.optim.AdamW([ms.Parameter(Tensor(np.zeros(2, np.float32)), name="q")],
                         betas=(0.9, 1.5))


def test_max_min_forms_and_errors() -> None:
    x = Tensor(MC.A)
    assert float(mint.max(x).asnumpy()) == MC.A.max()
    v, i = mint.min(x, 1)
    np.testing.assert_array_equal(i.asnumpy(), MC.A.argmin(1))
    with pytest.raises(TypeError, match="mint.max"):
        mint.max(x, "a")
    with pytest.raises(ValueError, match="rounding_mode"):
        mint.div(x, x, rounding_mode="up")
    with pytest.raises(ValueError, match="clamp"):
        mint.clamp(x)


def test_compositions_without_a_fixture_case() -> None:
    x = Tensor(MC.A)
    np.testing.assert_allclose(mint.vdot(Tensor(MC.V), Tensor(MC.V)).asnumpy(),
                               MC.V @ MC.V, rtol=1e-5)
    v, i = mint.kthvalue(x, 2, 1)
    np.testing.assert_array_equal(v.asnumpy(), np.sort(MC.A, 1)[:, 1])
    assert i.dtype == ms.int64
    np.testing.assert_array_equal(mint.bitwise_not(Tensor(MC.I23)).asnumpy(), ~MC.I23)
    np.testing.assert_array_equal(mint.bincount(Tensor(np.array([0, 2, 2, 5]))).asnumpy(),
                                  np.bincount([0, 2, 2, 5]))
    np.testing.assert_allclose(
        mint.bincount(Tensor(np.array([1, 1, 3])), Tensor(np.array([.5, 1., 2.],
                                                                   np.float32))).asnumpy(),
        np.bincount([1, 1, 3], [.5, 1., 2.]), rtol=1e-6)
    idx, src = np.array([2, 0, 2]), MC._r(250, (2, 3))
    want = MC.A.copy()
    np.add.at(want, (slice(None), idx), 2 * src)
    got = mint.index_add(x, 1, Tensor(idx), Tensor(src), alpha=2)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
    g = ms.grad(lambda s: (mint.index_add(x, 1, Tensor(idx), s) * Tensor(MC.B)).sum())(
        Tensor(src))
    np.testing.assert_allclose(g.asnumpy(), MC.B[:, idx], rtol=1e-6)
    with pytest.raises(ValueError, match="kthvalue"):
        mint.kthvalue(x, 4, 1)
    with pytest.raises(TypeError, match="bitwise_not"):
        mint.bitwise_not(x)


def _adaptive_np(x: np.ndarray, out: int, reduce) -> np.ndarray:
    n = x.shape[-1]
    return np.stack([reduce(x[..., (i * n) // out: -((-(i + 1) * n) // out)], -1)
                     for i in range(out)], -1)


def test_one_d_adaptive_and_resampling_functions() -> None:
    F, nn = mint.nn.functional, mint.nn
    x = MC._r(260, (2, 3, 7))
    w = MC._r(261, (4, 3, 3))
    want = np.stack([np.einsum("ncl,ocl->no", np.pad(x, ((0, 0), (0, 0), (1, 1)))[..., i:i + 3],
                               w) for i in range(7)], -1)
    np.testing.assert_allclose(F.conv1d(Tensor(x), Tensor(w), padding=1).asnumpy(), want,
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(F.avg_pool1d(Tensor(x), 2).asnumpy(),
                               x[..., :6].reshape(2, 3, 3, 2).mean(-1), rtol=1e-6)
    np.testing.assert_allclose(F.adaptive_avg_pool1d(Tensor(x), 3).asnumpy(),
                               _adaptive_np(x, 3, np.mean), rtol=1e-6)
    np.testing.assert_allclose(F.adaptive_max_pool1d(Tensor(x), 4).asnumpy(),
                               _adaptive_np(x, 4, np.max))
    im = MC._r(262, (2, 4, 5, 5))
    rows = np.swapaxes(_adaptive_np(np.swapaxes(im, -1, -2), 2, np.mean), -1, -2)
    np.testing.assert_allclose(nn.AdaptiveAvgPool2d((2, 3))(Tensor(im)).asnumpy(),
                               _adaptive_np(rows, 3, np.mean), rtol=1e-5)
    ps = F.pixel_shuffle(Tensor(im), 2).asnumpy()
    assert ps.shape == (2, 1, 10, 10)
    assert ps[0, 0, 1, 0] == im[0, 2, 0, 0] and ps[0, 0, 0, 1] == im[0, 1, 0, 0]
    up = nn.Upsample(scale_factor=2)(Tensor(im)).asnumpy()
    np.testing.assert_array_equal(up, im.repeat(2, -1).repeat(2, -2))
    np.testing.assert_array_equal(F.interpolate(Tensor(im), size=(3, 7)).asnumpy(),
                                  im[:, :, [0, 1, 3]][..., [0, 0, 1, 2, 2, 3, 4]])
    g = ms.grad(lambda t: (F.adaptive_avg_pool1d(t, 3) * Tensor(MC._r(263, (2, 3, 3)))).sum())
    check_vjp(lambda t: F.adaptive_avg_pool1d(t, 3), [Tensor(x.astype(np.float64))],
              np.random.default_rng(0), 1e-5, 1e-6)
    assert g(Tensor(x)).shape == x.shape
    assert nn.Conv1d(3, 4, 3)(Tensor(x)).shape == (2, 4, 5)
    with pytest.raises(ValueError, match="area"):
        F.interpolate(Tensor(im), scale_factor=2, mode="area")
    with pytest.raises(ValueError, match="pixel_shuffle"):
        F.pixel_shuffle(Tensor(im), 3)


def test_training_loop_with_mint_layers_and_optimizer() -> None:
    rng = np.random.default_rng(5)
    xs = rng.normal(size=(32, 3)).astype(np.float32)
    x, y = Tensor(xs), Tensor((xs @ np.array([[1.0], [-2.0], [0.5]])).astype(np.float32))
    ms.set_seed(1)
    net = mint.nn.Linear(3, 1)
    opt = mint.optim.AdamW(net.trainable_params(), lr=0.05)

    def loss_fn(a, b):
        return mint.nn.functional.mse_loss(net(a), b)

    step = ms.value_and_grad(loss_fn, None, opt.parameters)
    first = float(loss_fn(x, y).asnumpy())
    for _ in range(60):
        loss, grads = step(x, y)
        opt(grads)
    assert float(loss.asnumpy()) < 0.05 * first
    compiled = ms.jit(lambda a: mint.sum(mint.nn.functional.relu(a), dim=1))
    np.testing.assert_allclose(compiled(x).asnumpy(), np.maximum(x.asnumpy(), 0).sum(1),
                               rtol=1e-6)


@pytest.mark.parametrize("fn,args", [
    (mint.t, ()), (mint.squeeze, (0,)), (mint.select, (0, 0)), (mint.diag, ()),
    (mint.median, (0,)), (mint.kthvalue, (1,)), (mint.bitwise_not, ()),
    (mint.nn.functional.layer_norm, ((3,),)), (mint.nn.functional.pixel_shuffle, (2,)),
    (mint.nn.functional.adaptive_avg_pool2d, (2,)), (mint.nn.functional.conv1d, (None,)),
])
def test_non_tensor_input_is_a_type_error(fn, args) -> None:
    with pytest.raises(TypeError, match=r"mint\..*'input' must be a Tensor, got list"):
        fn([[1.0, 2.0, 3.0]], *args)


def test_histc_and_unique_consecutive_refuse_what_they_cannot_do() -> None:
    with pytest.raises(ValueError, match="bins"):
        mint.histc(Tensor(MC.A), bins=0)
    with pytest.raises(ValueError, match="max"):
        mint.histc(Tensor(MC.A), bins=3, min=2, max=1)
    with pytest.raises(ValueError, match="dim=None"):
        mint.unique_consecutive(Tensor(MC.I23), dim=0)
    assert mint.unique_consecutive(Tensor(np.zeros(0, np.int64))).shape == (0,)


def test_random_functions_shapes_dtypes_and_seeds() -> None:
    ms.set_seed(3)
    a = mint.rand(2, 3).asnumpy()
    ms.set_seed(3)
    np.testing.assert_array_equal(mint.rand((2, 3)).asnumpy(), a)
    assert ((a >= 0) & (a < 1)).all()
    assert mint.randn([4]).dtype == ms.float32
    r = mint.randint(2, 5, (50,))
    assert r.dtype == ms.int64 and set(np.unique(r.asnumpy())) <= {2, 3, 4}
    assert sorted(mint.randperm(6).asnumpy().tolist()) == list(range(6))
    b = mint.bernoulli(Tensor(np.array([0.0, 1.0, 0.0, 1.0], np.float32))).asnumpy()
    np.testing.assert_array_equal(b, [0, 1, 0, 1])
    n = mint.normal(Tensor(np.full((2000,), 3.0, np.float32)), 0.5).asnumpy()
    assert abs(n.mean() - 3.0) < 0.05 and abs(n.std() - 0.5) < 0.05
    m = mint.multinomial(Tensor(np.array([0.0, 1.0, 1.0], np.float32)), 2).asnumpy()
    assert sorted(m.tolist()) == [1, 2]


def test_addr_updates_input_in_place() -> None:
    x = Tensor(MC.C[:, :3].copy())
    out = mint.addr_(x, Tensor(MC.W3), Tensor(MC.W3), beta=0.5, alpha=2.0)
    assert out is x
    np.testing.assert_allclose(x.asnumpy(), 0.5 * MC.C[:, :3] + 2.0 * np.outer(MC.W3, MC.W3),
                               rtol=1e-6)
    with pytest.raises(ValueError, match="addr_"):
        mint.addr_(x, Tensor(MC.V), Tensor(MC.W3))
    np.testing.assert_allclose(x.asnumpy(), 0.5 * MC.C[:, :3] + 2.0 * np.outer(MC.W3, MC.W3),
                               rtol=1e-6)  # unchanged by the refused call
