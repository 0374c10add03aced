"""The opsfns family against MindSpore 2.10 (``tests/fixtures/opsfns.json``, recorded by
``tools/record_catalogue.py --suite opsfns`` from ``tests/opsfns_cases.py``): the same calls
on mindgrad give MindSpore's shapes, dtypes, values and gradients, and refuse what it
refuses with the same exception type. The calls MindSpore's CPU build has no kernel for
are checked against NumPy. Then derivatives numerically (to second order in float64),
GRAPH mode against PYNATIVE, vmap against a loop, the seeding and distribution of
``gumbel_softmax``, ``print_`` and the scalar conversions' Python types."""
from __future__ import annotations

import json
import os
import warnings

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, mint, ops

import opsfns_cases as OC
from gradcheck import check_grads, check_graph_matches
from test_catalogue import _same, check_gradients
from test_special import decode

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "opsfns.json")
RECORDS = {r["name"]: r for r in json.load(open(FIXTURE))["cases"]}
CASES = {c.name: c for c in OC.CASES}

# MindSpore's CPU build refuses these calls; mindgrad computes them, checked against NumPy
# (inputs -> output)
NUMPY = {
    "type_as": lambda x, i: x.astype(i.dtype),
    "fills": lambda x: np.full_like(x, 2.5),
    "accumulate_n": lambda a, b: a + b + a,
    "einsum_ext": lambda a, b: np.einsum("ij,kj->ik", a, b),
    "baddbmm_ext": lambda i, a, b: 0.5 * i + 2.0 * (a @ b),
    "mse_loss_ext": lambda a, b: np.sum((a - b) ** 2, dtype=np.float32),
    "quantile": lambda x: np.quantile(x, 0.3).astype(np.float32),
    "quantile_levels_axis": lambda x, q: np.quantile(x, q, 1, keepdims=True).astype(np.float32),
    "nanquantile": lambda x, q: np.nanquantile(x, q, 0).astype(np.float32),
}

# Where MindSpore 2.10 refuses a call with one exception type and mindgrad with another:
# case -> (MindSpore's, mindgrad's, why)
ERROR_TYPE_DIFFERS = {
    "diff_ext_prepend_other_dtype": ("RuntimeError", TypeError,
                                     "MindSpore's Concat kernel fails on mixed dtypes"),
    "tuple_to_array_empty": ("IndexError", ValueError,
                             "MindSpore indexes the empty tuple; mindgrad says it is empty"),
}

# Gradients where MindSpore 2.10 is wrong (case -> {gradient index: why}): none known
MINDSPORE_WRONG: dict = {}
# MindSpore 2.10 gives a complex64 gradient (of the right values, imaginary part 0) for
# mint.real of a real tensor; mindgrad's has the input's dtype, float32
COMPLEX_GRAD_OF_REAL = {"mint_real_float"}


def test_fixture_covers_every_case() -> None:
    assert set(RECORDS) == set(CASES)
    assert len(CASES) >= 150


def _run(case, inputs):
    ms.set_seed(0)
    return case.fn(ms, ops, *[Tensor(x) for x in inputs])


_TYPES = {"TypeError": TypeError, "ValueError": ValueError, "IndexError": IndexError}


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore(name: str) -> None:
    case, rec = CASES[name], RECORDS[name]
    inputs = [decode(r) for r in rec["inputs"]]
    for mine, stored in zip(case.inputs, inputs):  # the case file and the fixture agree
        np.testing.assert_array_equal(mine, stored)
    if name in NUMPY:
        assert "error" in rec, name  # MindSpore's CPU build still refuses it
        got = _run(case, inputs).asnumpy()
        want = NUMPY[name](*inputs)
        assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        return
    if "error" in rec:
        kind = rec["error"][0]
        if name in ERROR_TYPE_DIFFERS:
            assert ERROR_TYPE_DIFFERS[name][0] == kind, name  # (the note is not stale)
            want_type = ERROR_TYPE_DIFFERS[name][1]
        else:
            want_type = _TYPES.get(kind, (RuntimeError, ValueError))
        with pytest.raises(want_type):
            _run(case, inputs)
        return
    out = _run(case, inputs)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    assert len(outs) == len(rec["outputs"]), name
    for k, (o, r) in enumerate(zip(outs, rec["outputs"])):
        _same(o.asnumpy(), decode(r), f"{name} output {k}", case.rtol, case.values)
    if "grads" not in rec:
        assert not case.grad or "grad_error" in rec
        return
    if name in COMPLEX_GRAD_OF_REAL:
        rec = dict(rec, grads=[_real_part(g) for g in rec["grads"]])
    check_gradients(name, case, rec, inputs, MINDSPORE_WRONG.get(name, {}))


def _real_part(rec: dict) -> dict:
    """A recorded complex array with zero imaginary part as a float32 record."""
    z = decode(rec)
    assert z.dtype.kind == "c" and np.all(z.imag == 0)  # (the note is not stale)
    return {"dtype": "float32", "shape": rec["shape"], "values": z.real.reshape(-1).tolist()}


# --- derivatives, numerically, in float64 ---------------------------------------------------
def _f64(seed: int, *shape: int, lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(lo, hi, size=shape)


def _well(seed: int, n: int = 3) -> np.ndarray:
    return _f64(seed, n, n) + 3 * np.eye(n)


GRAD_CASES = {
    "aliases": (lambda x, y: ops.tensor_add(x, y) * ops.tensor_mul(x, y)
                - ops.tensor_div(ops.tensor_sub(x, y), y) + ops.tensor_pow(y, x)
                + ops.pows(y, 2.0) + ops.tensor_exp(x) * ops.tensor_expm1(y)
                + ops.tensor_muls(x, 3.0) + ops.inv(y),
                [_f64(1, 2, 3), _f64(2, 2, 3, lo=0.5, hi=2.0)]),
    "reshape_diff_ext": (lambda x, p: ops.diff_ext(ops.reshape_(x, (6,)), 2, 0, p),
                         [_f64(3, 2, 3), _f64(4, 2)]),
    "ext_compositions": (lambda i, a, b: ops.baddbmm_ext(i, a, b, beta=0.5, alpha=2.0).sum()
                         + ops.einsum_ext("bij,bjk->bik", a, b)
                         + ops.mse_loss_ext(ops.matmul(a, b), i),
                         [_f64(5, 2, 2, 4), _f64(6, 2, 2, 3), _f64(7, 2, 3, 4)]),
    "cond_orders": (lambda a: ops.cond(a) + ops.cond(a, "fro") + ops.cond(a, 1)
                    + ops.cond(a, -float("inf")) + ops.cond(a, "nuc"), [_well(8)]),
    "cond_batch": (lambda a: ops.cond(a, -2), [np.stack([_well(9), _well(10)])]),
    "clip_by_global_norm": (lambda a, b: ops.clip_by_global_norm((a, b), 0.5)[0].sum()
                            * ops.clip_by_global_norm((a, b), 0.5)[1],
                            [_f64(11, 2, 2), _f64(12, 3)]),
    "clip_one_tensor": (lambda a: ops.clip_by_global_norm(a, 0.3), [_f64(13, 4)]),
    "quantiles": (lambda x: ops.quantile(x, Tensor(np.array([0.1, 0.5, 0.95])), 1)
                  + ops.nanquantile(x, 0.4, 1, True), [_f64(16, 3, 5)]),
    "mint_functions": (lambda r, t: mint.real(mint.polar(r, t)) * mint.imag(mint.polar(r, t))
                       + mint.erfinv(t * 0.5), [_f64(14, 4, lo=0.5, hi=2.0), _f64(15, 4)]),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_derivatives(name: str) -> None:
    f, args = GRAD_CASES[name]
    check_grads(f, [Tensor(a) for a in args], order=2)


@pytest.mark.parametrize("name", ["aliases", "cond_orders", "clip_by_global_norm"])
def test_graph_mode_gradients(name: str) -> None:
    f, args = GRAD_CASES[name]
    check_graph_matches(f, [Tensor(a) for a in args], order=1)


def test_vmap_equals_loop() -> None:
    x = Tensor(_f64(20, 3, 3, 3) + 3 * np.eye(3))
    for f in (lambda a: ops.cond(a, 1), lambda a: ops.tensor_muls(a, 2.0) + ops.inv(a),
              lambda a: ops.diff_ext(a, 1, 0), lambda a: ops.reshape_(a, (9,))):
        got = ops.vmap(f)(x).asnumpy()
        want = np.stack([f(Tensor(x.asnumpy()[i])).asnumpy() for i in range(3)])
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_clip_by_global_norm_matches_formula() -> None:
    a, b = _f64(30, 3, 2), _f64(31, 4)
    g = np.sqrt((a ** 2).sum() + (b ** 2).sum())
    for clip in (0.5, g * 2):
        out = ops.clip_by_global_norm([Tensor(a), Tensor(b)], clip)
        assert isinstance(out, tuple) and len(out) == 2
        s = clip / max(g, clip)
        np.testing.assert_allclose(out[0].asnumpy(), a * s, rtol=1e-12)
        np.testing.assert_allclose(out[1].asnumpy(), b * s, rtol=1e-12)


def test_cond_matches_numpy() -> None:
    a = _f64(32, 2, 4, 4) + 4 * np.eye(4)
    for p in (None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"):
        got = ops.cond(Tensor(a), p).asnumpy()
        np.testing.assert_allclose(got, np.linalg.cond(a, p), rtol=1e-10)


def test_quantiles_match_numpy() -> None:
    x = _f64(33, 3, 4, 5)
    xn = x.copy()
    xn[0, 1, 2] = np.nan
    xn[1, :, 3] = np.nan  # a slice of NaN only
    levels = np.array([0.0, 0.25, 0.5, 1.0])
    for axis in (None, 0, -1):
        for keep in (False, True):
            for q in (0.3, Tensor(levels), Tensor(np.array(0.7))):
                qa = q if isinstance(q, float) else q.asnumpy()
                for f, ref, data in ((ops.quantile, np.quantile, x),
                                     (ops.quantile, np.quantile, xn),
                                     (ops.nanquantile, np.nanquantile, xn)):
                    got = f(Tensor(data), q, axis, keep).asnumpy()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")  # NumPy's "All-NaN slice"
                        want = ref(data, qa, axis=axis, keepdims=keep)
                    assert got.shape == want.shape, (f.__name__, axis, keep, qa)
                    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_quantile_argument_errors() -> None:
    x = Tensor(_f64(34, 2, 3).astype(np.float32))
    for call, err in ((lambda: ops.quantile(x, 1.5), ValueError),
                      (lambda: ops.quantile(x, Tensor(np.array([0.5]))), TypeError),  # float64 q
                      (lambda: ops.quantile(x, 1), TypeError),
                      (lambda: ops.quantile(x, 0.5, 2), ValueError),
                      (lambda: ops.nanquantile(Tensor(np.ones(3, np.int32)), 0.5), TypeError),
                      (lambda: ops.quantile(x, Tensor(np.ones((2, 2), np.float32))), ValueError)):
        with pytest.raises(err, match="quantile"):
            call()


# --- gumbel_softmax ---------------------------------------------------------------------------------
def test_gumbel_softmax_follows_set_seed() -> None:
    x = Tensor(np.array([[0.3, -1.0, 2.0], [1.0, 1.0, 1.0]], np.float32))
    ms.set_seed(7)
    a = ops.gumbel_softmax(x).asnumpy()
    b = ops.gumbel_softmax(x).asnumpy()
    ms.set_seed(7)
    np.testing.assert_array_equal(ops.gumbel_softmax(x).asnumpy(), a)
    assert not np.array_equal(a, b)  # each call draws anew


def test_gumbel_softmax_hard_samples_the_softmax() -> None:
    """The Gumbel-max trick: the index of a hard sample is distributed as softmax(logits)
    (whatever tau); 4000 rows at once, against the probabilities within 5 sigma."""
    logits = np.log(np.array([0.5, 0.3, 0.15, 0.05], np.float32))
    x = Tensor(np.tile(logits, (4000, 1)))
    ms.set_seed(3)
    hard = ops.gumbel_softmax(x, 0.3, True).asnumpy()
    assert set(np.unique(hard)) == {0.0, 1.0}
    np.testing.assert_array_equal(hard.sum(-1), np.ones(4000, np.float32))
    freq = hard.mean(0)
    p = np.exp(logits)
    assert np.all(np.abs(freq - p) < 5 * np.sqrt(p * (1 - p) / 4000)), freq


def test_gumbel_softmax_gradient_is_the_soft_samples() -> None:
    """Straight through: with the same seed, the hard sample's gradient equals the soft
    one's, and each row's gradient sums to zero (softmax's invariance to a shift)."""
    x = Tensor(_f64(40, 3, 5).astype(np.float32))
    w = Tensor(_f64(41, 3, 5).astype(np.float32))
    ms.set_seed(11)
    soft = ms.grad(lambda a: (ops.gumbel_softmax(a, 0.7) * w).sum())(x).asnumpy()
    ms.set_seed(11)
    hard = ms.grad(lambda a: (ops.gumbel_softmax(a, 0.7, True) * w).sum())(x).asnumpy()
    np.testing.assert_allclose(hard, soft, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(soft.sum(-1), 0, atol=1e-6)
    assert np.abs(soft).max() > 1e-3


def test_gumbel_softmax_tau_sharpens() -> None:
    x = Tensor(np.tile(np.array([1.0, 0.0, -1.0], np.float32), (500, 1)))
    ms.set_seed(5)
    cold = ops.gumbel_softmax(x, 0.05).asnumpy().max(-1).mean()
    hot = ops.gumbel_softmax(x, 20.0).asnumpy().max(-1).mean()
    assert cold > 0.95 and hot < 0.45, (cold, hot)


# --- printing and Python values ---------------------------------------------------------------------
def test_print_writes_each_input(capsys) -> None:
    assert ops.print_(Tensor(np.array([1, 2], np.int32)), "step", 3) is None
    assert capsys.readouterr().out.split("\n")[:3] == ["[1 2]", "step", "3"]


def test_scalar_cast_gives_python_values() -> None:
    assert ops.scalar_cast(-3.7, ms.int64) == -3 and type(ops.scalar_cast(3.7, ms.int64)) is int
    assert type(ops.scalar_cast(3, ms.float64)) is float
    assert ops.scalar_cast(0.0, ms.bool_) is False
    with pytest.raises(ValueError, match="scalar_cast"):
        ops.scalar_cast(float("nan"), ms.int64)


def test_tuple_to_array_refuses_non_tuples() -> None:
    # MindSpore 2.10 returns None for a list or a Tensor; mindgrad says what it wants
    for bad in ([1, 2], Tensor(np.ones(2, np.float32)), ((1, 2), (3,))):
        with pytest.raises(TypeError, match="tuple_to_array"):
            ops.tuple_to_array(bad)


def test_bad_input_leaves_inputs_unchanged() -> None:
    x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    before = x.asnumpy().copy()
    for call in (lambda: ops.cond(x, 3), lambda: ops.clip_by_global_norm((x,), -1.0),
                 lambda: ops.gumbel_softmax(x, 0.0), lambda: ops.diff_ext(x, 1, 5),
                 lambda: ops.fills(x, "a"), lambda: ops.tensor_muls(x, "a")):
        with pytest.raises((TypeError, ValueError, IndexError)):
            call()
    np.testing.assert_array_equal(x.asnumpy(), before)
