"""Array manipulation, segments and scatters, statistics, random draws and assignment against
MindSpore 2.10 (``tests/fixtures/arrayops.json``, recorded by ``tools/record_catalogue.py
--suite arrayops`` from ``tests/arrayops_cases.py``): shapes, dtypes, values and gradients;
MindSpore's refusals of bad input are refusals here too. Then derivatives checked
numerically, GRAPH mode against eager, the in-place semantics of the assignments and
scatters, and the distributions and seeding of the draws."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Parameter, Tensor, ops

import arrayops_cases as AC
from gradcheck import check_grads, check_graph_matches
from test_catalogue import _same, decode, weights

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "arrayops.json")
RECORDS = {r["name"]: r for r in json.load(open(FIXTURE))["cases"]}
CASES = {c.name: c for c in AC.CASES}

# MindSpore's median kernel picks another of several tied elements than the first (its
# values agree; the index and so the gradient's position differ): values only.
TIED_INDEX = {"median"}
# Gradients MindSpore 2.10 cannot compute (no bprop, or its SliceGrad refusing size -1);
# mindgrad's are checked numerically below (test_derivatives).
NO_MS_GRAD = {"slice", "channel_shuffle", "sparse_segment_mean"}
# Gradients where MindSpore 2.10 is wrong and mindgrad keeps the exact derivative (checked
# numerically in test_derivatives): case -> {gradient index: why}
_SLICE_GRAD = "its StridedSliceGrad misplaces or drops the gradient with masks or negative strides"
_ZERO_BPROP = "its bprop of the in-place row updates returns zeros"
MINDSPORE_WRONG = {
    "strided_slice": {0: _SLICE_GRAD}, "strided_slice_masks": {0: _SLICE_GRAD},
    "P_StridedSlice_masks": {0: _SLICE_GRAD},
    "inplace_add": {0: _ZERO_BPROP, 1: _ZERO_BPROP},
    "inplace_sub": {0: _ZERO_BPROP, 1: _ZERO_BPROP},
    "inplace_update": {0: _ZERO_BPROP, 1: _ZERO_BPROP},
    # with repeated indices every update gets g * x, as if the others were not applied
    "tensor_scatter_mul": {1: "repeated indices"},
}
# MindSpore's StridedSlice reads the entries after a mask bit 0 of ellipsis_mask or
# new_axis_mask from the wrong place (x[..., 1:3] gives x[..., 0:2]); mindgrad follows the
# documented meaning, checked against NumPy's indexing below.
MASK_AT_ENTRY_0 = {"strided_slice_ellipsis": lambda x: x[..., 1:3],
                   "strided_slice_new_axis": lambda x: x[None, 1:3]}
# MindSpore's CPU kernel fails on segment ids outside [0, num_segments); its documentation
# (and mindgrad) drop those rows: checked against NumPy below.
DROPPED_IDS = {"unsorted_segment_sum_oob"}


def test_fixture_covers_every_case() -> None:
    assert set(RECORDS) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore(name: str) -> None:
    case, rec = CASES[name], RECORDS[name]
    inputs = [decode(r) for r in rec["inputs"]]
    for mine, stored in zip(case.inputs, inputs):
        np.testing.assert_array_equal(mine, stored)
    ms.set_seed(0)
    ts = [Tensor(x) for x in inputs]
    if "error" in rec and name not in DROPPED_IDS:
        with pytest.raises((TypeError, ValueError, IndexError)):
            case.fn(ms, ops, *ts)
        return
    out = case.fn(ms, ops, *ts)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    if name in DROPPED_IDS:
        return
    assert len(outs) == len(rec["outputs"])
    if name in MASK_AT_ENTRY_0:
        want = MASK_AT_ENTRY_0[name](inputs[0])
        np.testing.assert_array_equal(outs[0].asnumpy(), want)
        assert not np.array_equal(decode(rec["outputs"][0]), want)  # (else this note is stale)
        return
    for k, (o, r) in enumerate(zip(outs, rec["outputs"])):
        values = case.values and not (name in TIED_INDEX and k > 0)
        _same(o.asnumpy(), decode(r), f"{name} output {k}", case.rtol, values)
    if "grads" not in rec or name in TIED_INDEX:
        assert not case.grad or "grad_error" in rec or name in TIED_INDEX
        return
    w = Tensor(weights(tuple(rec["outputs"][0]["shape"])))

    def loss(*xs):
        o = case.fn(ms, ops, *xs)
        return ((o[0] if isinstance(o, (tuple, list)) else o) * w).sum()

    g = ms.grad(loss, grad_position=tuple(case.grad))(*[Tensor(x) for x in inputs])
    g = g if isinstance(g, (tuple, list)) else (g,)
    wrong = MINDSPORE_WRONG.get(name, {})
    for k, (t, r) in enumerate(zip(g, rec["grads"])):
        if k in wrong:  # the difference is still there (else this note is stale)
            assert not np.allclose(t.asnumpy(), decode(r), rtol=1e-3), (name, k)
            continue
        _same(t.asnumpy(), decode(r), f"{name} gradient {k}", max(case.rtol, 1e-5), True)


def test_dropped_segment_ids_against_numpy() -> None:
    x, ids = AC._r(166, (4,)), np.array([0, 5, 1, -1], np.int32)
    got = ops.unsorted_segment_sum(Tensor(x), Tensor(ids), 2).asnumpy()
    np.testing.assert_allclose(got, [x[0], x[2]], rtol=1e-6)


# --- derivatives, numerically, in float64 ---------------------------------------------------
def _f64(seed: int, *shape: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=shape)


SEG = Tensor(np.array([0, 2, 0, 3, 2, 0], np.int32))
GRAD_CASES = {
    "slice": (lambda x: ops.slice(x, (0, 1), (2, -1)), [_f64(1, 3, 4)]),
    "strided_slice": (lambda x: ops.strided_slice(x, (2, 0), (0, 4), (-1, 2)), [_f64(2, 3, 4)]),
    "channel_shuffle": (lambda x: ops.channel_shuffle(x, 2), [_f64(3, 1, 4, 2)]),
    "sparse_segment_mean": (lambda x: ops.sparse_segment_mean(
        x, Tensor(np.array([0, 2, 1, 1])), Tensor(np.array([0, 0, 1, 3]))), [_f64(4, 3, 2)]),
    "unsorted_segment_prod": (lambda x: ops.unsorted_segment_prod(x, SEG, 4), [_f64(5, 6, 2)]),
    "unsorted_segment_max": (lambda x: ops.unsorted_segment_max(x, SEG, 4), [_f64(6, 6, 2)]),
    "unsorted_segment_sum": (lambda x: ops.unsorted_segment_sum(x, SEG, 4), [_f64(7, 6)]),
    "tensor_scatter_mul": (lambda x, u: ops.tensor_scatter_mul(
        x, Tensor(np.array([[1], [0], [1]])), u), [_f64(8, 3, 2), _f64(9, 3, 2)]),
    "tensor_scatter_div": (lambda x, u: ops.tensor_scatter_div(
        x, Tensor(np.array([[1], [1]])), u), [_f64(10, 3, 2), _f64(11, 2, 2) + 3]),
    "diag_embed": (lambda x: ops.diag_embed(x, -1, 0, 2), [_f64(12, 2, 3)]),
    "diagonal_scatter": (lambda x, s: ops.diagonal_scatter(x, s, 1), [_f64(13, 3, 4),
                                                                       _f64(14, 3)]),
    "slice_scatter": (lambda x, s: ops.slice_scatter(x, s, 1, 0, 3, 2), [_f64(15, 2, 4),
                                                                          _f64(16, 2, 2)]),
    "index_add": (lambda x, y: ops.index_add(x, Tensor(np.array([1, 1], np.int32)), y, 0),
                  [_f64(17, 3, 2), _f64(18, 2, 2)]),
    "reverse_sequence": (lambda x: ops.reverse_sequence(x, Tensor(np.array([2, 3])), 1),
                         [_f64(19, 2, 3)]),
    "strided_slice_masks": (lambda x: ops.strided_slice(x, (1, 0, 1), (2, 2, 3), (1, 1, 1), 2, 4,
                                                        0, 0, 1), [_f64(25, 2, 3, 4)]),
    "inplace_add": (lambda x, v: ops.inplace_add(x, v, (0, 2)), [_f64(26, 3, 2), _f64(27, 2, 2)]),
    "inplace_update": (lambda x, v: ops.inplace_update(x, v, Tensor(np.array([1, 0]))),
                       [_f64(28, 3, 2), _f64(29, 2, 2)]),
    "median": (lambda x: ops.median(x, 0)[0], [_f64(20, 5, 3)]),
    "nanmedian": (lambda x: ops.nanmedian(x, 1)[0], [_f64(21, 2, 4)]),
    "pixel_shuffle": (lambda x: ops.pixel_shuffle(x, 2), [_f64(22, 4, 2, 1)]),
    "laplace_in_mean_scale": (lambda m, b: ops.laplace((3,), m, b, seed=4),
                              [_f64(23, 3), _f64(24, 3) ** 2 + 0.5]),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_derivatives(name: str) -> None:
    f, args = GRAD_CASES[name]
    if name.startswith("laplace"):
        def g(m, b):  # the same draw on every call
            ms.set_seed(5)
            return f(m, b)
        check_grads(g, [Tensor(a) for a in args], order=2)
        return
    check_grads(f, [Tensor(a) for a in args], order=2)


@pytest.mark.parametrize("name", ["unsorted_segment_max", "tensor_scatter_mul", "diag_embed",
                                  "strided_slice", "median", "index_add"])
def test_graph_mode_gradients(name: str) -> None:
    f, args = GRAD_CASES[name]
    check_graph_matches(f, [Tensor(a) for a in args], order=1)


def test_scatter_with_traced_indices_under_vmap() -> None:
    x = Tensor(_f64(30, 3, 4))
    idx = Tensor(np.array([[[1], [1]], [[0], [2]], [[3], [3]]]))
    u = Tensor(_f64(31, 3, 2) + 2)
    for f in (ops.tensor_scatter_mul, ops.tensor_scatter_max,
              lambda a, i, b: ops.unsorted_segment_max(b, i[:, 0], 4)):
        got = ops.vmap(f)(x, idx, u).asnumpy()
        want = np.stack([f(x[k], idx[k], u[k]).asnumpy() for k in range(3)])
        np.testing.assert_allclose(got, want, rtol=1e-12)


# --- assignment and in-place scatters ---------------------------------------------------------
def test_assign_updates_parameter_and_tensor() -> None:
    p = Parameter(Tensor(np.ones((2, 2), np.float32)), name="p")
    out = ops.assign_add(p, Tensor(np.full((2, 2), 2, np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), np.full((2, 2), 3))
    np.testing.assert_array_equal(out.asnumpy(), p.asnumpy())
    x = Tensor(np.zeros(3, np.float32))
    ops.assign(x, Tensor(np.array([1, 2, 3], np.int32)))
    assert x.dtype == ms.float32 and x.asnumpy().tolist() == [1, 2, 3]
    before = p.asnumpy().copy()
    with pytest.raises(ValueError, match="'assign_sub'.*rank"):
        ops.assign_sub(p, Tensor(np.ones(2, np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), before)
    with pytest.raises(TypeError, match="'assign'.*'variable'"):
        ops.assign(np.ones(2), Tensor(np.ones(2)))


def test_assign_inside_grad_and_graph_mode() -> None:
    p = Parameter(Tensor(np.zeros(3, np.float32)), name="acc")
    v = Tensor(np.array([1., 2., 3.], np.float32))
    # the value returned by assign_add carries the gradient of value (as in MindSpore);
    # the Parameter keeps the plain number
    g = ms.grad(lambda v: (ops.assign_add(p, v * 2) * v).sum())(v)
    np.testing.assert_allclose(g.asnumpy(), 2 * v.asnumpy() + p.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(p.asnumpy(), [2, 4, 6])

    class Acc(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.total = Parameter(Tensor(np.zeros(3, np.float32)), name="total")

        def construct(self, x):
            ops.assign_add(self.total, x)
            return self.total * 1.0

    net = Acc()
    net.set_grad(False)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net(v)
        out = net(v)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(net.total.asnumpy(), 2 * v.asnumpy())
    np.testing.assert_allclose(out.asnumpy(), 2 * v.asnumpy())


def test_scatters_update_parameters_only() -> None:
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    p = Parameter(Tensor(x), name="w")
    t = Tensor(x)
    i, u = Tensor(np.array([[2], [0], [2]])), Tensor(np.full((3, 2), 2, np.float32))
    out = ops.scatter_nd_mul(p, i, u)
    np.testing.assert_array_equal(p.asnumpy(), out.asnumpy())
    np.testing.assert_array_equal(out.asnumpy(), x * np.array([[2], [1], [4]]))
    ops.scatter_nd_mul(t, i, u)
    np.testing.assert_array_equal(t.asnumpy(), x)
    with pytest.raises(ValueError, match="'scatter_nd_add'.*within"):
        ops.scatter_nd_add(p, Tensor(np.array([[3]])), Tensor(np.ones((1, 2), np.float32)))
    with pytest.raises(ValueError, match="'tensor_scatter_max'.*'updates'.*shape"):
        ops.tensor_scatter_max(t, i, Tensor(np.ones((3, 3), np.float32)))


# --- random draws -------------------------------------------------------------------------------
def _draws():
    x = Tensor(np.zeros((400, 5), np.float32))
    return [ops.bernoulli(x, 0.3), ops.standard_laplace((2000,)),
            ops.laplace((2000,), Tensor(1.0), Tensor(2.0)),
            ops.random_poisson(Tensor(np.array([2000], np.int32)), Tensor(np.array([3.0]))),
            ops.random_gamma(Tensor(np.array([2000], np.int32)), Tensor(np.array([2.5]))),
            ops.random_categorical(Tensor(np.log(np.array([[0.2, 0.8]], np.float32))), 2000),
            ops.multinomial_with_replacement(Tensor(np.array([[1., 3.]], np.float32)),
                                             Tensor(np.array(0)), Tensor(np.array(0)), 2000,
                                             True)]


def test_draws_follow_their_distributions() -> None:
    ms.set_seed(3)
    b, sl, la, po, ga, cat, mwr = [d.asnumpy() for d in _draws()]
    assert b.dtype == np.float32 and set(np.unique(b)) <= {0.0, 1.0}
    assert abs(b.mean() - 0.3) < 0.03
    assert abs(sl.mean()) < 0.1 and abs(np.abs(sl).mean() - 1.0) < 0.08  # E|X| = scale
    assert abs(la.mean() - 1.0) < 0.2 and abs(np.abs(la - 1).mean() - 2.0) < 0.15
    assert po.shape == (2000, 1) and abs(po.mean() - 3) < 0.15 and abs(po.var() - 3) < 0.4
    assert (po == np.round(po)).all()
    assert ga.shape == (2000, 1) and abs(ga.mean() - 2.5) < 0.15 and abs(ga.var() - 2.5) < 0.5
    assert cat.dtype == np.int64 and abs(cat.mean() - 0.8) < 0.04
    assert mwr.dtype == np.int64 and abs(mwr.mean() - 0.75) < 0.04


def test_draws_repeat_under_set_seed() -> None:
    ms.set_seed(8)
    first = [d.asnumpy() for d in _draws()]
    ms.set_seed(8)
    again = [d.asnumpy() for d in _draws()]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    ms.set_seed(9)
    assert not np.array_equal(_draws()[1].asnumpy(), first[1])


def test_bernoulli_refuses_bad_p() -> None:
    with pytest.raises(ValueError, match="'bernoulli'.*'p'"):
        ops.bernoulli(Tensor(np.zeros(3, np.float32)), 1.5)


def test_candidate_samplers_expected_counts() -> None:
    true = Tensor(np.array([[1], [3]], np.int64))
    # drawn with replacement, each class is expected num_sampled * P(k) times: the values
    # MindSpore recorded for the true classes
    _, t_exp, _ = ops.log_uniform_candidate_sampler(true, 1, 4, False, 5)
    rec = decode(RECORDS["log_uniform_candidate_sampler"]["outputs"][1])
    np.testing.assert_allclose(t_exp.asnumpy(), rec, rtol=1e-6)
    p = np.log((np.array([[1], [3]]) + 2) / (np.array([[1], [3]]) + 1)) / np.log(6)
    np.testing.assert_allclose(t_exp.asnumpy(), 4 * p, rtol=1e-6)
    ms.set_seed(2)
    s, t_exp, s_exp = ops.uniform_candidate_sampler(true, 1, 5, True, 5)
    assert sorted(s.asnumpy().tolist()) == [0, 1, 2, 3, 4]  # unique: every class once
    # more tries than samples: the chance of being drawn at least once in them
    assert np.all(s_exp.asnumpy() <= 1.0) and np.allclose(s_exp.asnumpy(), s_exp.asnumpy()[0])
    ms.set_seed(3)
    draws = ops.log_uniform_candidate_sampler(Tensor(np.zeros((1, 1), np.int64)), 1, 4000,
                                              False, 9)[0].asnumpy()
    freq = np.bincount(draws, minlength=9) / draws.size
    want = np.log((np.arange(9) + 2) / (np.arange(9) + 1)) / np.log(10)
    np.testing.assert_allclose(freq, want, atol=0.025)


def test_choice_with_mask_picks_true_positions() -> None:
    x = np.array([[True, False, True], [False, True, False]])
    ms.set_seed(4)
    idx, mask = ops.choice_with_mask(Tensor(x), 5)
    idx, mask = idx.asnumpy(), mask.asnumpy()
    assert idx.dtype == np.int32 and mask.tolist() == [True] * 3 + [False] * 2
    assert sorted(map(tuple, idx[:3].tolist())) == [(0, 0), (0, 2), (1, 1)]
    assert (idx[3:] == 0).all()


def test_scatter_into_parameter_in_graph_mode() -> None:
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.table = Parameter(Tensor(np.ones((3, 2), np.float32)), name="table")

        def construct(self, i, u):
            return ops.scatter_nd_mul(self.table, i, u)

    i, u = Tensor(np.array([[2], [0]])), Tensor(np.full((2, 2), 2.0, np.float32))
    net = Net()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net(i, u)
        out = net(i, u)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    want = np.array([[4, 4], [1, 1], [4, 4]], np.float32)
    np.testing.assert_array_equal(net.table.asnumpy(), want)
    np.testing.assert_array_equal(out.asnumpy(), want)
