"""``mindspore.numpy`` against MindSpore 2.10 (``tests/fixtures/msnumpy.json``, recorded by
``tools/record_catalogue.py --suite numpy`` from ``tests/msnumpy_cases.py``): the same calls
on mindgrad give MindSpore's shapes, dtypes, values (rtol 1e-5 in float32) and gradients.
Then the name list, derivatives checked numerically in float64 (reverse and forward), vmap
against a loop, the calls returning Python values and the error messages."""
from __future__ import annotations

import inspect
import json
import os
import sys

import numpy as np
import pytest

import mindgrad as ms
import mindgrad.numpy as mnp
from mindgrad import Tensor, ops

import msnumpy_cases as NC
from gradcheck import check_grads, check_graph_matches
from test_catalogue import _same, decode, weights

HERE = os.path.dirname(__file__)
FIXTURE = os.path.join(HERE, "fixtures", "msnumpy.json")
NAMES = os.path.join(HERE, "..", "tools", "data", "mindspore_numpy_names.txt")
SIGNATURES = os.path.join(HERE, "..", "tools", "data", "mindspore_numpy_signatures.txt")
RECORDS = {r["name"]: r for r in json.load(open(FIXTURE))["cases"]}
CASES = {c.name: c for c in NC.CASES}

# Gradients MindSpore 2.10 cannot compute (its backward raises); mindgrad's are checked
# numerically in test_derivatives instead.
MINDSPORE_GRAD_FAILS = {"np_flip", "np_rot90", "np_interp"}

# Calls MindSpore 2.10 refuses that mindgrad computes as NumPy does: case -> NumPy reference
MINDSPORE_REFUSES = {
    "v_count_nonzero_bool": lambda x: np.count_nonzero(x, 0).astype(np.int32),
    "p_minimum_bool_tensors": np.minimum,
}

# Gradients where MindSpore 2.10 is wrong and mindgrad keeps the exact derivative (checked
# numerically in test_derivatives): case -> {gradient index: why}
MINDSPORE_WRONG = {
    "np_convolve": {1: "zero for the second sequence 'v'"},
    "np_polymul": {1: "zero for the second polynomial (it is a convolution)"},
}

# Results whose dtype mindgrad chooses differently on purpose: case -> (output, why)
DTYPE_DEVIATIONS = {
    "np_ravel_multi_index": (0, "MindSpore returns float32 flat indices; mindgrad int32"),
}


def test_fixture_covers_every_case() -> None:
    assert set(RECORDS) == set(CASES)
    assert len(CASES) >= 250


def test_every_mindspore_name_exists() -> None:
    names = open(NAMES).read().split()
    assert len(names) == 249
    missing = [n for n in names if not hasattr(mnp, n)]
    assert not missing, missing
    assert sorted(mnp.__all__) == sorted(names)
    sys.path.insert(0, os.path.join(HERE, "..", "tools"))
    try:
        import coverage_report
    finally:
        sys.path.pop(0)
    have, missing = coverage_report.coverage("numpy")
    assert len(have) == 249 and not missing


def _signature(f) -> str:
    """``(a, b=1, *args, **kw)``: parameter names, kinds and defaults, without annotations
    or the keyword-only marker (MindSpore's printed form)."""
    parts = []
    for name, p in inspect.signature(f).parameters.items():
        star = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "")
        default = "" if p.default is p.empty else "=" + repr(p.default)
        parts.append(star + name + default)
    return "(" + ", ".join(parts) + ")"


def test_signatures_match_mindspore() -> None:
    """Every function takes MindSpore's parameters, in its order, with its defaults
    (``tools/data/mindspore_numpy_signatures.txt``, from ``record_mindspore_names.py``)."""
    wrong = []
    for line in open(SIGNATURES):
        name, _, want = line.strip().partition(" ")
        got = _signature(getattr(mnp, name))
        if got != want:
            wrong.append(f"{name}: {got} != {want}")
    assert not wrong, "\n".join(wrong)
    assert sum(1 for _ in open(SIGNATURES)) == 233


def test_cases_cover_most_functions() -> None:
    """The fixture calls at least 200 of the public functions (the rest: dtypes, the
    grid objects and Python-valued functions tested below)."""
    called = set()
    for c in NC.CASES:
        src = inspect.getsource(c.fn) if c.fn.__name__ == "<lambda>" else ""
        called.update(n for n in mnp.__all__ if f"numpy.{n}(" in src)
    called.update(n for n in NC.UNARY)
    called.update(NC.NO_GRAD_UNARY)
    called.update(NC.BINARY)
    called.update(NC.NO_GRAD_BINARY)
    assert len(called) >= 200, len(called)


def _outs(out) -> tuple:
    if isinstance(out, (tuple, list)):
        flat = []
        for o in out:
            flat.extend(o if isinstance(o, (tuple, list)) else [o])
        return tuple(flat)
    return (out,)


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
        assert name in MINDSPORE_REFUSES, rec["error"]
        want = MINDSPORE_REFUSES[name](*inputs)
        _same(outs[0].asnumpy(), want, f"{name} against NumPy", case.rtol, True)
        return
    assert len(outs) == len(rec["outputs"])
    for k, (o, r) in enumerate(zip(outs, rec["outputs"])):
        want = decode(r)
        if DTYPE_DEVIATIONS.get(name, (None,))[0] == k:
            assert o.dtype.np_dtype != want.dtype  # else the note is stale
            want = want.astype(o.dtype.np_dtype)
        _same(o.asnumpy(), want, f"{name} output {k}", case.rtol, case.values)
    if not case.grad:
        return
    if "grads" not in rec:
        assert name in MINDSPORE_GRAD_FAILS, rec.get("grad_error")
        return
    w = Tensor(weights(tuple(rec["outputs"][0]["shape"])))

    def loss(*xs):
        return (_outs(case.fn(ms, ops, *xs))[0] * w).sum()

    g = ms.grad(loss, grad_position=tuple(case.grad))(*ts)
    g = g if isinstance(g, (tuple, list)) else (g,)
    wrong = MINDSPORE_WRONG.get(name, {})
    for k, (t, r) in enumerate(zip(g, rec["grads"])):
        if k in wrong:  # the difference is still there (else this note is stale)
            assert not np.allclose(t.asnumpy(), decode(r), rtol=1e-3), (name, k)
            continue
        _same(t.asnumpy(), decode(r), f"{name} gradient {k}", max(case.rtol, 1e-5), True)


# --- derivatives, numerically, in float64 ---------------------------------------------------
def _f64(seed: int, *shape: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=shape)


GRAD_CASES = {
    "flip_rot90": (lambda x: mnp.flip(x) * mnp.rot90(x, 2), [_f64(1, 3, 3)]),
    "interp": (lambda x, fp: mnp.interp(x, Tensor(np.array([-1.0, 0.0, 2.0])), fp),
               [np.array([-0.5, 0.3, 1.7]), _f64(2, 3)]),
    "linspace_ends": (lambda a, b: mnp.linspace(a, b, 5, axis=1), [_f64(3, 2), _f64(4, 2)]),
    "geomspace_ends": (lambda a, b: mnp.geomspace(a, b, 4),
                       [np.abs(_f64(5, 2)) + 0.5, np.abs(_f64(6, 2)) + 0.5]),
    "cov_weights": (lambda x, w: mnp.cov(x, aweights=w), [_f64(7, 2, 5),
                                                          np.abs(_f64(8, 5)) + 0.2]),
    "corrcoef": (lambda x: mnp.corrcoef(x), [_f64(9, 3, 6)]),
    "nanvar": (lambda x: mnp.nanvar(x, 1), [_f64(10, 2, 4)]),
    "pad_modes": (lambda x: mnp.pad(x, 2, "reflect") + mnp.pad(x, 2, "linear_ramp")
                  + mnp.pad(x, 2, "mean"), [_f64(11, 3, 4)]),
    "convolve_correlate": (lambda a, v: mnp.convolve(a, v, "same") * mnp.correlate(a, v, "same"),
                           [_f64(12, 5), _f64(13, 3)]),
    "polyint_polyval": (lambda p, x: mnp.polyval(mnp.polyint(p, 2, [1.0, 2.0]), x),
                        [_f64(14, 4), _f64(15, 3)]),
    "gradient_trapz_unwrap": (lambda x: mnp.trapz(mnp.gradient(x)) + mnp.unwrap(x * 3),
                              [_f64(16, 6)]),
    "norms": (lambda x: mnp.norm(x, 3, 1) + mnp.norm(x, "nuc") + mnp.norm(x, -np.inf, 1),
              [_f64(17, 3, 3)]),
    "cross_kron": (lambda a, b: mnp.sum(mnp.cross(a, b)) * mnp.kron(a, b),
                   [_f64(18, 2, 3), _f64(19, 2, 3)]),
    "choose_select_take": (lambda x, y: mnp.choose(Tensor(np.array([0, 1, 1])), (x, y))
                           + mnp.select([x > 0], [y], 1.0)
                           + mnp.take_along_axis(x, Tensor(np.array([2, 0, 0])), 0),
                           [_f64(20, 3), _f64(21, 3)]),
    "average_ptp": (lambda x, w: mnp.average(x, 0, w) * mnp.ptp(x, 0),
                    [_f64(22, 3, 2), np.abs(_f64(23, 3)) + 0.1]),
    "cbrt_logaddexp2": (lambda x, y: mnp.cbrt(x) * mnp.logaddexp2(x, y),
                        [np.abs(_f64(24, 4)) + 0.3, _f64(25, 4)]),
    "histogram_weights": (lambda w: mnp.histogram(Tensor(np.array([0.1, 0.5, 0.7, 0.9])), 2,
                                                  weights=w)[0],
                          [np.abs(_f64(26, 4))]),
    "bincount_weights": (lambda w: mnp.bincount(Tensor(np.array([0, 2, 2, 1])), w),
                         [_f64(27, 4)]),
    "apply_along_axis": (lambda x: mnp.apply_along_axis(lambda r: mnp.sum(r * r), 1, x),
                         [_f64(28, 3, 2)]),
    "piecewise": (lambda x: mnp.piecewise(x, [x < 0], [lambda v: v * v, lambda v: mnp.sin(v)]),
                  [_f64(29, 5)]),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_derivatives(name: str) -> None:
    f, args = GRAD_CASES[name]
    check_grads(f, [Tensor(a) for a in args], order=2)


@pytest.mark.parametrize("name", ["flip_rot90", "pad_modes", "cov_weights", "norms",
                                  "convolve_correlate", "linspace_ends"])
def test_graph_mode_gradients(name: str) -> None:
    """Compiled gradients equal eager ones (MindSpore 2.10's GRAPH-mode gradient of
    ``flip`` is wrong: it gives the same value for every column of a matmul weight)."""
    f, args = GRAD_CASES[name]
    check_graph_matches(lambda *xs: mnp.sum(f(*xs)), [Tensor(a) for a in args], order=1)


def test_vmap_equals_loop() -> None:
    x = Tensor(_f64(40, 3, 4, 5))
    for f in (lambda r: mnp.cov(r), lambda r: mnp.pad(r, 1, "symmetric"),
              lambda r: mnp.tensordot(r, r, ((1,), (1,))), lambda r: mnp.cumsum(r, 1),
              lambda r: mnp.linspace(r[0], r[1], 3), lambda r: mnp.var(r, 0, 1),
              lambda r: mnp.convolve(r[0], r[1, :3]), lambda r: mnp.diff(r, 2),
              lambda r: mnp.norm(r, axis=1), lambda r: mnp.where(r > 0, r, 0.0)):
        got = ops.vmap(f)(x).asnumpy()
        want = np.stack([f(Tensor(x.asnumpy()[i])).asnumpy() for i in range(3)])
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


# Cases whose function reads values to choose sizes or bins, which a batched value inside
# vmap does not have (a clear TypeError says so).
VMAP_READS_VALUES = {"np_histogram", "np_histogram_range", "np_histogram_bin_edges",
                     "np_histogram2d", "np_histogramdd", "np_array_equal", "np_array_equiv",
                     "v_histogram_weights_density", "v_unique_float", "v_histogram2d_bins_pair"}


def _first(case, *xs):
    out = case.fn(ms, ops, *xs)
    return out[0] if isinstance(out, (tuple, list)) else out


def test_every_case_under_jit_and_vmap() -> None:
    """Each recorded call gives the same result compiled (``jit``) as eagerly, and mapped
    over a batch of two versions of its first floating input (``vmap``) as in a loop."""
    mapped = 0
    for case in NC.CASES:
        if not case.inputs or not case.values:
            continue
        args = [Tensor(v) for v in case.inputs]
        want = _first(case, *args).asnumpy()
        got = ms.jit(lambda *xs, c=case: _first(c, *xs))(*args).asnumpy()
        assert got.dtype == want.dtype, case.name
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7, err_msg=case.name)
        k = next((j for j, x in enumerate(case.inputs)
                  if x.dtype.kind == "f" and x.ndim > 0), None)
        if k is None:
            continue
        batch = np.stack([case.inputs[k], case.inputs[k] * 0.5 + 0.1])

        def f(b, c=case, k=k):
            xs = list(args)
            xs[k] = b
            return _first(c, *xs)

        if case.name in VMAP_READS_VALUES:
            with pytest.raises(TypeError, match="vmap"):
                ops.vmap(f)(Tensor(batch))
            continue
        got = ops.vmap(f)(Tensor(batch)).asnumpy()
        want = np.stack([f(Tensor(b)).asnumpy() for b in batch])
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=case.name)
        mapped += 1
    assert mapped >= 300


def test_python_valued_functions() -> None:
    a = mnp.array([[1.0, 2.0], [3.0, np.nan]])
    assert mnp.array_equal(a, a) is False and mnp.array_equal(a, a, equal_nan=True) is True
    assert mnp.array_equiv(mnp.ones(3), mnp.ones((2, 3))) is True
    assert mnp.array_equiv(mnp.ones(3), mnp.ones((2, 2))) is False
    assert mnp.isscalar(3.0) and not mnp.isscalar(mnp.array(3.0))
    assert mnp.size(mnp.zeros((2, 5))) == 10 and mnp.size(mnp.zeros((2, 5)), 1) == 5
    assert mnp.result_type(mnp.ones(2, mnp.int32), 1.0) == mnp.float32
    assert mnp.promote_types(mnp.int32, mnp.float16) == mnp.float16
    assert mnp.promote_types("int8", "uint8") == mnp.int16
    assert "nan" in mnp.array_str(a)
    # MindSpore 2.10's strings
    assert mnp.array_str(mnp.array([[1.5, 2.0], [3.0, 4.25]])) == "[[1.5  2.  ]\n [3.   4.25]]"
    assert mnp.array_str(mnp.array([1, 2, 3])) == "[1 2 3]"
    np.testing.assert_array_equal(mnp.mgrid[0:2, 0:3].asnumpy(), np.mgrid[0:2, 0:3])
    og = mnp.ogrid[0:2, 0:1:3j]
    np.testing.assert_allclose(og[1].asnumpy(), np.ogrid[0:2, 0:1:3j][1])
    rows, cols = mnp.diag_indices(3)
    np.testing.assert_array_equal(rows.asnumpy(), [0, 1, 2])
    ix = mnp.ix_(mnp.array([0, 1]), mnp.array([2, 0, 1]))
    assert ix[0].shape == (2, 1) and ix[1].shape == (1, 3)
    r, c = mnp.tril_indices_from(mnp.zeros((3, 4)), 1)
    nr, nc = np.tril_indices_from(np.zeros((3, 4)), 1)
    np.testing.assert_array_equal(r.asnumpy(), nr) and np.testing.assert_array_equal(
        c.asnumpy(), nc)
    assert mnp.empty((2, 3)).shape == (2, 3) and mnp.empty_like(a).dtype == a.dtype
    assert mnp.where(mnp.array([0, 3, 0, 5]))[0].asnumpy().tolist() == [1, 3]
    hd, edges = mnp.histogramdd(mnp.array([[0.0, 1.0], [0.5, 0.2], [1.0, 0.9]]), bins=2)
    want, wedges = np.histogramdd(np.array([[0.0, 1.0], [0.5, 0.2], [1.0, 0.9]]), bins=2)
    np.testing.assert_array_equal(hd.asnumpy(), want)
    out = mnp.apply_over_axes(mnp.sum, mnp.ones((2, 3, 4)), (0, 2))
    assert out.shape == (1, 3, 1) and float(out.asnumpy()[0, 0, 0]) == 8.0
    v, ia, ib = mnp.intersect1d(mnp.array([4, 1, 3]), mnp.array([3, 4]), return_indices=True)
    assert v.asnumpy().tolist() == [3, 4] and ia.asnumpy().tolist() == [2, 0]


def _np_trapz():
    return getattr(np, "trapezoid", None) or np.trapz


_RNG = np.random.default_rng(1)
X3 = _RNG.standard_normal((3, 4, 5))
M = _RNG.standard_normal((4, 3))
M2 = _RNG.standard_normal((4, 3))
XS = np.sort(_RNG.random((3, 4, 5)), axis=2)
IDX = _RNG.integers(0, 4, (3, 2, 5))
T = Tensor

# Less common forms against NumPy itself (float64): name -> (mindgrad call, NumPy value)
NUMPY_FORMS = {
    **{f"pad_{mode}_{k}": (lambda mode=mode, pw=pw: mnp.pad(T(X3), pw, mode),
                           np.pad(X3, pw, mode))
       for mode in ("constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp",
                    "maximum", "minimum", "mean")
       for k, pw in enumerate([1, (2, 3), ((0, 1), (2, 0), (1, 4)), ((3, 5), (4, 4), (6, 1))])},
    **{f"rollaxis_{a}_{s}": (lambda a=a, s=s: mnp.rollaxis(T(X3), a, s), np.rollaxis(X3, a, s))
       for a in range(-3, 3) for s in range(4)},
    **{f"diff_{n}_{a}": (lambda n=n, a=a: mnp.diff(T(X3), n, a), np.diff(X3, n, a))
       for n in range(4) for a in (0, 1, -1)},
    **{f"rot90_{k}": (lambda k=k: mnp.rot90(T(X3), k, (2, 0)), np.rot90(X3, k, (2, 0)))
       for k in range(-2, 3)},
    **{f"tensordot_{k}": (lambda ax=ax: mnp.tensordot(T(X3), T(X3[::-1].transpose(2, 1, 0)
                                                                 [:, :, :2]), ax),
                          np.tensordot(X3, X3[::-1].transpose(2, 1, 0)[:, :, :2], ax))
       for k, ax in enumerate([0, 1, ([2, 1], [0, 1]), ([1], [1])])},
    "moveaxis_pairs": (lambda: mnp.moveaxis(T(X3), (0, 1), (-1, -2)),
                       np.moveaxis(X3, (0, 1), (-1, -2))),
    "gradient_axes": (lambda: mnp.stack(mnp.gradient(T(X3), axis=(0, 2))),
                      np.stack(np.gradient(X3, axis=(0, 2)))),
    "trapz_nd_x": (lambda: mnp.trapz(T(X3), T(XS)), _np_trapz()(X3, XS)),
    "cross_axes": (lambda: mnp.cross(T(M.T), T(M2.T), axisa=0, axisb=0, axisc=0),
                   np.cross(M.T, M2.T, axisa=0, axisb=0, axisc=0)),
    "roll_tuple": (lambda: mnp.roll(T(X3), (2, -1), (0, 2)), np.roll(X3, (2, -1), (0, 2))),
    "take_along": (lambda: mnp.take_along_axis(T(X3), T(IDX), 1),
                   np.take_along_axis(X3, IDX, 1)),
    "norm_-2": (lambda: mnp.norm(T(M), -2), np.linalg.norm(M, -2)),
    "norm_-1": (lambda: mnp.norm(T(M), -1), np.linalg.norm(M, -1)),
    "norm_half": (lambda: mnp.norm(T(M), 0.5, 1), np.linalg.norm(M, 0.5, 1)),
    "kron_3d": (lambda: mnp.kron(T(X3[:2, :2, :2]), T(M[:2])), np.kron(X3[:2, :2, :2], M[:2])),
    "select": (lambda: mnp.select([T(X3) > 1, T(X3) < -1], [T(X3), -T(X3)], 7.0),
               np.select([X3 > 1, X3 < -1], [X3, -X3], 7.0)),
    "cov_ddof": (lambda: mnp.cov(T(M), rowvar=False, ddof=2), np.cov(M, rowvar=False, ddof=2)),
    "cov_aweights": (lambda: mnp.cov(T(M), aweights=T(np.array([1.0, 2, 3]))),
                     np.cov(M, aweights=[1.0, 2, 3])),
    "average_axes": (lambda: mnp.average(T(X3), (0, 2)), np.average(X3, (0, 2))),
    "unravel_3d": (lambda: mnp.stack(mnp.unravel_index(T(np.array([0, 17, 59])), (3, 4, 5))),
                   np.stack(np.unravel_index([0, 17, 59], (3, 4, 5)))),
    "ravel_multi_F": (lambda: mnp.ravel_multi_index((T(np.array([1, 2])), T(np.array([3, 0]))),
                                                    (3, 4), order="F"),
                      np.ravel_multi_index(([1, 2], [3, 0]), (3, 4), order="F")),
    "polyint_3": (lambda: mnp.polyint(T(M[0]), 3), np.polyint(M[0], 3)),
    "unwrap_axis0": (lambda: mnp.unwrap(T(M * 4), axis=0), np.unwrap(M * 4, axis=0)),
    "ediff1d_both": (lambda: mnp.ediff1d(T(M), to_end=T(np.array([1.0, 2.0])),
                                         to_begin=T(np.array(5.0))),
                     np.ediff1d(M, to_end=[1.0, 2.0], to_begin=5.0)),
    "geomspace_negative": (lambda: mnp.geomspace(-1.0, -1000.0, 4),
                           np.geomspace(-1.0, -1000.0, 4)),
    "logspace_base3": (lambda: mnp.logspace(1, 2, 4, False, 3.0),
                       np.logspace(1, 2, 4, False, 3.0)),
    "linspace_axis_last": (lambda: mnp.linspace(T(M[0]), T(M[1]), 5, axis=-1),
                           np.linspace(M[0], M[1], 5, axis=-1)),
    "diagflat_2d": (lambda: mnp.diagflat(T(M[:2, :2]), 2), np.diagflat(M[:2, :2], 2)),
}


@pytest.mark.parametrize("name", sorted(NUMPY_FORMS))
def test_less_common_forms_against_numpy(name: str) -> None:
    call, want = NUMPY_FORMS[name]
    got = call()
    got = got.asnumpy()
    assert got.shape == np.shape(want), name
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=name)


def test_empty_reductions_with_initial() -> None:
    e = mnp.zeros((0, 3))
    for keep in (False, True):
        got = mnp.amax(e, 0, keep, initial=5.0).asnumpy()
        np.testing.assert_array_equal(got, np.amax(np.zeros((0, 3), np.float32), 0,
                                                   keepdims=keep, initial=5.0))
    assert mnp.amin(e, initial=-1.0).asnumpy() == -1.0
    with pytest.raises(ValueError, match="'amax'.*initial"):
        mnp.amax(e, 0)
    assert mnp.sum(e, 0).shape == (3,) and mnp.mean(mnp.ones((2, 3)), ()).shape == (2, 3)


def test_gcd_lcm_against_numpy() -> None:
    """Negative operands included (MindSpore 2.10 gives gcd(-12, 8) = 8)."""
    a = np.array([-12, 0, 7, 9, -4, 0], np.int32)
    b = np.array([8, 0, -21, 6, -6, 5], np.int32)
    np.testing.assert_array_equal(mnp.gcd(Tensor(a), Tensor(b)).asnumpy(), np.gcd(a, b))
    np.testing.assert_array_equal(mnp.lcm(Tensor(a), Tensor(b)).asnumpy(), np.lcm(a, b))
    big = np.array([2 ** 40, 3 ** 30], np.int64)
    np.testing.assert_array_equal(mnp.gcd(Tensor(big), Tensor(big[::-1].copy())).asnumpy(),
                                  np.gcd(big, big[::-1]))


def test_seeded_random() -> None:
    ms.set_seed(3)
    first = [mnp.rand(2, 2).asnumpy(), mnp.randn((3,)).asnumpy(), mnp.randint(5, shape=(4,))]
    ms.set_seed(3)
    again = [mnp.rand(2, 2).asnumpy(), mnp.randn((3,)).asnumpy(), mnp.randint(5, shape=(4,))]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(np.asarray(a if isinstance(a, np.ndarray) else
                                                 a.asnumpy()),
                                      np.asarray(b if isinstance(b, np.ndarray) else
                                                 b.asnumpy()))
    r = mnp.randint(3, 6, (500,)).asnumpy()
    assert r.dtype == np.int32 and set(np.unique(r)) == {3, 4, 5}


@pytest.mark.parametrize("call, err, words", [
    (lambda: mnp.zeros((2, -1)), ValueError, "'zeros'"),
    (lambda: mnp.array("abc"), TypeError, "'array'"),
    (lambda: mnp.arange(0, 5, 0), ValueError, "'step'"),
    (lambda: mnp.split(mnp.ones(5), 2), ValueError, "array_split"),
    (lambda: mnp.squeeze(mnp.ones((2, 3)), 1), ValueError, "'squeeze'"),
    (lambda: mnp.transpose(mnp.ones((2, 3)), (0, 0)), ValueError, "'transpose'"),
    (lambda: mnp.gcd(mnp.ones(2), mnp.ones(2)), TypeError, "'gcd'"),
    (lambda: mnp.pad(mnp.ones(2), 1, "nope"), ValueError, "'pad'"),
    (lambda: mnp.take(mnp.ones(3), mnp.array([1.0])), TypeError, "'take'"),
    (lambda: mnp.randint(5, 5), ValueError, "'randint'"),
    (lambda: mnp.sum(mnp.ones(2), axis=3), ValueError, "'sum'"),
    (lambda: mnp.convolve(mnp.ones((2, 2)), mnp.ones(2)), ValueError, "'convolve'"),
])
def test_errors_name_the_function(call, err, words) -> None:
    with pytest.raises(err, match=words):
        call()
