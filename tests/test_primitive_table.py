"""The checks the primitive table (``tests/primitive_table.py``) drives, for every row:

- forward value, shape and dtype against the NumPy reference, in float64, float32 and
  float16 (a float input keeps its dtype; inputs are never modified); int32 inputs refused
  wherever MindSpore refuses them for the row's primitive (recorded in
  ``fixtures/dtype_rules.json``), whatever front end the row calls;
- forward and reverse derivatives against central differences (``gradcheck.check_grads``,
  float64), to order 2 in CI and order 3 with ``-m slow``; float32 derivatives keep float32
  and agree with float64; ``jacfwd`` / ``jacrev`` against numerical Jacobians;
- GRAPH mode (compiled) equal to PYNATIVE, forward and gradients;
- vmap against a Python loop over the examples (every input mapped on its first or on its
  last axis, only the first input mapped, per-example first and second derivatives), with
  only the primitives allowed to (``BATCH_LOOP``) running one call per example;
- jet (Taylor mode) of the row's function and of its gradient along a line ``x + t u``
  against nested forward-mode derivatives (orders 2 and 1 in CI, 4 and 3 with ``-m slow``).

The registry walk (``primitive_table.walk``) is tested at the end: every registered
primitive has a row or a written exemption and the rules it should have, and the walk
catches a throwaway primitive without a row or without a rule.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops
from mindgrad.ad import batching
from mindgrad.core.primitive import Primitive, registered
from mindgrad.core.tree import flatten

from conftest import real_gpu
from gradcheck import check_graph_matches, check_grads
from primitive_table import (BATCH_LOOP, CASES, EXEMPT, IDS, NOT_OPERATIONS, REFUSED,
                             TAYLOR_FROM_JVP, Case, N, walk)

CI_ORDER = 2  # derivative orders checked in CI; the rest run with -m slow
DIFF = [c for c in CASES if c.diff]
DIFF_IDS = [c.name for c in DIFF]
SLOW = [c for c in DIFF if c.order > CI_ORDER]


def _inputs(case: Case, dtype=np.float64, seed: int = 0) -> list:
    """The row's inputs, float ones in ``dtype`` (integer and boolean ones as they are)."""
    arrays = [np.asarray(a) for a in case.gen(np.random.default_rng(seed))]
    return [a.astype(dtype) if a.dtype.kind == "f" else a for a in arrays]


def _outs(x) -> list:
    return flatten(x)[0]


def _as_list(want) -> list:
    return list(want) if isinstance(want, tuple) else [want]


# --- forward values --------------------------------------------------------------------------
TOL = {np.float64: 1e-12, np.float32: 2e-5, np.float16: 2e-2}


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16], ids=["f64", "f32", "f16"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_forward_matches_numpy(case: Case, dtype) -> None:
    arrays = _inputs(case, dtype)
    if dtype == np.float16 and case.f16 == REFUSED:
        with pytest.raises(TypeError, match="Float16"):
            case.fn(*[ms.Tensor(a) for a in arrays])
        return
    if dtype == np.float16 and isinstance(case.f16, str):
        pytest.skip(case.f16)
    if dtype == np.float16 and real_gpu():
        pytest.skip("CuPy's float16 kernels round differently")
    got = _outs(case.fn(*[ms.Tensor(a) for a in arrays]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # float16 references may overflow
        in_dtype = _as_list(case.ref(*[a.copy() for a in arrays]))
    want = _as_list(case.ref(*[a.astype(np.float64) if a.dtype.kind == "f" else a
                                for a in arrays]))
    assert len(got) == len(want)
    for g, w, wd in zip(got, want, in_dtype):
        w, wd = np.asarray(w), np.asarray(wd)
        assert isinstance(g, ms.Tensor)
        assert g.shape == w.shape, f"{case.name}: shape {g.shape} != {w.shape}"
        # the reference's own dtype on inputs of this dtype: a float input keeps its dtype
        assert g.asnumpy().dtype == wd.dtype, f"{case.name}: dtype {g.dtype} != {wd.dtype}"
        tol = TOL[dtype]
        scale = 1.0 if dtype == np.float64 else max(1.0, float(np.abs(w).max(initial=0.0)))
        np.testing.assert_allclose(g.asnumpy().astype(np.float64), w, rtol=tol * 10,
                                   atol=tol * 10 * scale)
    for t, a in zip([ms.Tensor(a) for a in arrays], arrays):  # inputs are never modified
        np.testing.assert_array_equal(t.asnumpy(), a)


# --- derivatives against central differences -----------------------------------------------
@pytest.mark.parametrize("case", DIFF, ids=DIFF_IDS)
def test_derivatives_against_finite_differences(case: Case) -> None:
    check_grads(case.fn, [ms.Tensor(a) for a in _inputs(case)], order=min(case.order, CI_ORDER))


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW, ids=[c.name for c in SLOW])
def test_third_order_derivatives_against_finite_differences(case: Case) -> None:
    check_grads(case.fn, [ms.Tensor(a) for a in _inputs(case)], order=case.order)


@pytest.mark.parametrize("case", DIFF, ids=DIFF_IDS)
def test_float32_derivative_dtypes(case: Case) -> None:
    a64 = [ms.Tensor(a) for a in _inputs(case, np.float64)]
    a32 = [ms.Tensor(a) for a in _inputs(case, np.float32)]
    rng = np.random.default_rng(1)
    u = [rng.standard_normal(a.shape) for a in a64]
    res = {}
    for name, args in (("f32", a32), ("f64", a64)):
        dt = args[0].asnumpy().dtype
        out, tan = ops.jvp(case.fn, tuple(args), tuple(ms.Tensor(x.astype(dt)) for x in u))
        for o, t in zip(_outs(out), _outs(tan)):
            assert t.dtype == o.dtype and t.shape == o.shape
        v = [ms.Tensor(np.ones(o.shape, o.asnumpy().dtype)) for o in _outs(out)]
        _, vjp_fn = ops.vjp(case.fn, *args)
        grads = vjp_fn(*v)
        for g, a in zip(grads, args):
            assert g.dtype == a.dtype and g.shape == a.shape
        res[name] = [t.asnumpy() for t in _outs(tan)] + [g.asnumpy() for g in grads]
    for g32, g64 in zip(res["f32"], res["f64"]):
        np.testing.assert_allclose(g32.astype(np.float64), g64, rtol=2e-4, atol=2e-4)


def _numerical_jacobians(fn, arrays, eps=1e-6) -> list:
    """d out_k / d in_p by central differences: one (out.shape + in.shape) array per pair."""
    outs = _outs(fn(*[ms.Tensor(a) for a in arrays]))
    jac = [[np.zeros(o.shape + a.shape) for a in arrays] for o in outs]
    for p, a in enumerate(arrays):
        for idx in np.ndindex(a.shape):
            hi, lo = [x.copy() for x in arrays], [x.copy() for x in arrays]
            hi[p][idx] += eps
            lo[p][idx] -= eps
            fh = _outs(fn(*[ms.Tensor(x) for x in hi]))
            fl = _outs(fn(*[ms.Tensor(x) for x in lo]))
            for k, (h, l) in enumerate(zip(fh, fl)):
                jac[k][p][(...,) + idx] = (h.asnumpy() - l.asnumpy()) / (2 * eps)
    return jac


@pytest.mark.parametrize("case", DIFF, ids=DIFF_IDS)
def test_jacfwd_jacrev_against_finite_differences(case: Case) -> None:
    arrays = _inputs(case)
    args = [ms.Tensor(a) for a in arrays]
    pos = tuple(range(len(args)))
    want = _numerical_jacobians(case.fn, arrays)
    multi = isinstance(case.fn(*args), tuple)
    for jac in (ops.jacfwd, ops.jacrev):
        got = jac(case.fn, pos)(*args)
        per_out = list(got) if multi else [got]
        assert len(per_out) == len(want)
        for g_out, w_out in zip(per_out, want):
            if len(pos) == 1:  # a 1-tuple position gives a bare Jacobian, as grad does
                assert isinstance(g_out, ms.Tensor)
                g_out = (g_out,)
            assert isinstance(g_out, tuple) and len(g_out) == len(w_out)
            for g, w in zip(g_out, w_out):
                assert g.shape == w.shape, (jac.__name__, g.shape, w.shape)
                np.testing.assert_allclose(g.asnumpy(), w, rtol=1e-6, atol=1e-6,
                                           err_msg=jac.__name__)


# --- GRAPH mode equals PYNATIVE --------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_graph_matches_pynative(case: Case) -> None:
    args = [ms.Tensor(a) for a in _inputs(case)]
    eager = _outs(case.fn(*args))
    compiled = _outs(ms.jit(case.fn)(*args))
    for e, c in zip(eager, compiled):
        assert c.dtype == e.dtype and c.shape == e.shape
        np.testing.assert_array_equal(c.asnumpy(), e.asnumpy())
    if case.diff:
        order = case.order if case.graph_order is None else case.graph_order
        check_graph_matches(case.fn, args, order=min(order, CI_ORDER))


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW, ids=[c.name for c in SLOW])
def test_graph_matches_pynative_third_order(case: Case) -> None:
    order = case.order if case.graph_order is None else case.graph_order
    if order <= CI_ORDER:
        pytest.skip("graph_order is checked in CI")
    check_graph_matches(case.fn, [ms.Tensor(a) for a in _inputs(case)], order=order)


# --- vmap against a loop ---------------------------------------------------------------------
VMAP = [c for c in CASES if c.vmap]
BATCH = 3


def _stacked(case: Case) -> list:
    """BATCH examples of the row's inputs (seeds 0, 1, ...) stacked on a new leading axis."""
    per = [_inputs(case, seed=s) for s in range(BATCH)]
    return [np.stack(col) for col in zip(*per)]


def _loop(fn, stacked: list, in_axes: tuple) -> list:
    """One call of ``fn`` per example, its outputs stacked: what vmap must give."""
    rows = []
    for b in range(BATCH):
        args = [ms.Tensor(a if ax is None else np.take(a, b, ax))
                for a, ax in zip(stacked, in_axes)]
        rows.append([o.asnumpy() for o in _outs(fn(*args))])
    return [np.stack(col) for col in zip(*rows)]


def _check_vmap(fn, stacked: list, in_axes: tuple, what: str) -> None:
    got = _outs(ops.vmap(fn, in_axes=in_axes)(*[ms.Tensor(a) for a in stacked]))
    want = _loop(fn, stacked, in_axes)
    assert len(got) == len(want), what
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.asnumpy().dtype == w.dtype, (what, g.shape, w.shape)
        np.testing.assert_allclose(g.asnumpy(), w, rtol=1e-9, atol=1e-12, err_msg=what)


def _derivatives(case: Case, example: list) -> tuple:
    """``grad`` of a weighted sum of the row's outputs, and ``grad`` of a weighted sum of that
    gradient (a second derivative with every mixed partial in play)."""
    n = len(example)
    rng = np.random.default_rng(3)
    weights = [ms.Tensor(rng.standard_normal(o.shape)) for o in _outs(case.fn(*example))]

    def loss(*xs):
        return sum((o * w).sum() for o, w in zip(_outs(case.fn(*xs)), weights))

    d1 = ops.grad(loss, tuple(range(n)))
    weights2 = [ms.Tensor(rng.standard_normal(x.shape)) for x in example]

    def loss2(*xs):
        return sum((g * w).sum() for g, w in zip(_outs(d1(*xs)), weights2))

    return d1, ops.grad(loss2, tuple(range(n)))


@pytest.mark.parametrize("case", VMAP, ids=[c.name for c in VMAP])
def test_vmap_matches_loop(case: Case, monkeypatch) -> None:
    looped = []  # the primitives that ran one call per example
    loop = batching.per_example

    def spy(prim, *args, **kwargs):
        looped.append(prim.name)
        return loop(prim, *args, **kwargs)

    monkeypatch.setattr(batching, "per_example", spy)
    stacked = _stacked(case)
    n = len(stacked)
    _check_vmap(case.fn, stacked, (0,) * n, "every input mapped")
    # the batch axis last: the rules that move it in front (or leave it where it is)
    last = tuple(a.ndim - 1 for a in stacked)
    _check_vmap(case.fn, [np.moveaxis(a, 0, -1) for a in stacked], last, "mapped on the last axis")
    if n > 1:  # the others shared by every example: a batch rule meets unbatched operands
        first_only = [stacked[0]] + [a[0] for a in stacked[1:]]
        _check_vmap(case.fn, first_only, (0,) + (None,) * (n - 1), "first input mapped")
    if case.diff:  # per-example first and second derivatives: the batch rules of the
        # primitives the reverse rules emit, and of those their own reverse rules emit
        d1, d2 = _derivatives(case, [ms.Tensor(a[0]) for a in stacked])
        _check_vmap(d1, stacked, (0,) * n, "per-example gradients")
        if case.order >= 2:
            _check_vmap(d2, stacked, (0,) * n, "per-example second derivatives")
    # only the primitives allowed to loop did (the others' batch rules ran)
    assert set(looped) <= set(BATCH_LOOP), sorted(set(looped) - set(BATCH_LOOP))


# --- jet against nested derivatives ----------------------------------------------------------
JET = [c for c in DIFF if c.jet]


def _check_jet(fn, args: list, order: int, name: str) -> None:
    """The jet of ``t -> fn(x + t u)``: its k-th output series is the k-th derivative in t,
    which ``k`` nested forward-mode products give (checked against differences above)."""
    rng = np.random.default_rng(4)
    u = [ms.Tensor(rng.standard_normal(a.shape)) for a in args]
    series = [ms.Tensor(np.stack([ui.asnumpy()] + [np.zeros(ui.shape)] * (order - 1)))
              for ui in u]
    out, out_series = ops.jet(fn, tuple(args), tuple(series))
    got_series = [out_series] if isinstance(out, ms.Tensor) else list(out_series)
    want_out = _outs(fn(*args))
    assert len(_outs(out)) == len(want_out)
    for o, w in zip(_outs(out), want_out):
        np.testing.assert_allclose(o.asnumpy(), w.asnumpy(), rtol=1e-12, atol=1e-12)
    g = fn
    for k in range(1, order + 1):
        g = (lambda h: lambda *xs: ops.jvp(h, tuple(xs), tuple(u))[1])(g)
        for s, w in zip(got_series, _outs(g(*args))):
            np.testing.assert_allclose(s.asnumpy()[k - 1], w.asnumpy(), rtol=1e-8, atol=1e-9,
                                       err_msg=f"{name}: order {k}")


@pytest.mark.parametrize("case", JET, ids=[c.name for c in JET])
def test_jet_matches_nested_derivatives(case: Case) -> None:
    """The row's function, and its gradient (the Taylor rules of the primitives the reverse
    rules emit)."""
    args = [ms.Tensor(a) for a in _inputs(case)]
    order = min(case.order, CI_ORDER)
    _check_jet(case.fn, args, order, case.name)
    if case.order >= 2:
        _check_jet(_derivatives(case, args)[0], args, order - 1, case.name + " gradient")


@pytest.mark.slow
@pytest.mark.parametrize("case", JET, ids=[c.name for c in JET])
def test_jet_to_order_4(case: Case) -> None:
    args = [ms.Tensor(a) for a in _inputs(case)]
    _check_jet(case.fn, args, 4, case.name)
    _check_jet(_derivatives(case, args)[0], args, 3, case.name + " gradient")


# --- the registry walk -----------------------------------------------------------------------
def test_every_registered_primitive_has_a_row_and_its_rules() -> None:
    result = walk(registered())
    assert result.problems == [], "\n".join(f"{n}: {what}" for n, what in result.problems)
    assert result.stale == [], f"table entries naming no registered primitive: {result.stale}"
    # every reason is written out
    for table in (EXEMPT, BATCH_LOOP, TAYLOR_FROM_JVP, NOT_OPERATIONS):
        assert all(isinstance(r, str) and len(r) > 20 for r in table.values())


def _probe(name: str, **rules) -> Primitive:
    """A throwaway primitive (not registered) with the given rules."""
    p = Primitive(name, np.negative, register=False)
    for k, v in rules.items():
        setattr(p, k, v)
    return p


FULL = dict(vjp=(lambda g, ans, x: -g,), jvp=(lambda t, ans, x: -t,),
            batch=lambda args, dims: (args[0], dims[0]), taylor=lambda p, s: (p[0], s[0]))


def test_walk_catches_a_primitive_without_a_row() -> None:
    registry = dict(registered())
    registry["TableProbe"] = _probe("TableProbe", **FULL)
    result = walk(registry)
    assert result.problems == [("TableProbe", "no row and no exemption")]
    # with a row (or an exemption), it passes
    row = Case("TableProbe", "probe", lambda x: x, np.negative, N((2,)))
    assert walk(registry, cases=CASES + [row]).problems == []
    assert walk(registry, exempt={**EXEMPT, "TableProbe": "a reason"}).problems == []


def test_walk_catches_missing_rules_and_reports_fallbacks() -> None:
    registry = dict(registered())
    registry["TableProbe"] = _probe("TableProbe", vjp=FULL["vjp"])
    cases = CASES + [Case("TableProbe", "probe", lambda x: x, np.negative, N((2,)))]
    problems = dict(walk(registry, cases=cases).problems)
    assert problems == {"TableProbe": problems["TableProbe"]}
    whats = [w for n, w in walk(registry, cases=cases).problems]
    assert any("jvp" in w for w in whats) and any("batch" in w for w in whats)
    assert any("Taylor" in w for w in whats)
    # the fallbacks, once allowed with a reason, are reported instead
    result = walk(registry, cases=cases, batch_loop={**BATCH_LOOP, "TableProbe": "why"},
                  taylor_from_jvp={**TAYLOR_FROM_JVP, "TableProbe": "why"})
    assert [w for n, w in result.problems] == ["no forward (jvp) rule"]
    assert result.batch_loop["TableProbe"] == "why"
    assert result.taylor_from_jvp["TableProbe"] == "why"
    # a primitive without gradient needs no derivative or Taylor rule
    registry["TableProbe"] = _probe("TableProbe", batch=FULL["batch"])
    registry["TableProbe"].nondiff = True
    assert walk(registry, cases=cases).problems == []


# --- integer inputs: refused where MindSpore refuses them ---------------------------------
def _mindspore_int_refusals() -> dict:
    """Primitive name -> the recorded case (``fixtures/dtype_rules.json``, from MindSpore
    2.10) whose function binds that primitive alone and which MindSpore refuses for int32
    inputs (transcendental functions and the like), unless mindgrad deviates on purpose."""
    import json
    from pathlib import Path

    import dtype_cases as DC
    from test_dtype_rules import DEVIATIONS

    recorded = json.loads((Path(__file__).parent / "fixtures" / "dtype_rules.json").read_text())
    structural = {"Reshape", "BroadcastTo", "Cast", "Transpose", "ZerosLike", "OnesLike",
                  "StopGradient", "Fill"}
    seen: list = []
    prims = registered()
    saved = {n: p.impl for n, p in prims.items()}
    for n, p in prims.items():  # record which primitives each case runs (float32 inputs)
        p.impl = (lambda f, name: lambda *a, **k: (seen.append(name), f(*a, **k))[1])(p.impl, n)
    found = {}
    try:
        for case, fn in DC.CASES.items():
            entry = recorded["cases"].get(case, {}).get("int32", {})
            if "error" not in entry or (case, "int32") in DEVIATIONS:
                continue
            seen.clear()
            try:
                with warnings.catch_warnings():  # values outside a domain (acosh of 0.25)
                    warnings.simplefilter("ignore", RuntimeWarning)
                    fn(ms, DC.make_input(ms.Tensor, "float32"))
            except Exception:  # noqa: BLE001  (a case needing other inputs: not mapped)
                continue
            ran = set(seen) - structural
            if len(ran) == 1:
                found[ran.pop()] = case
    finally:
        for n, p in prims.items():
            p.impl = saved[n]
    return found


# A Python float operand promotes an int32 Tensor to float32 first, in MindSpore too
# (ops.atan2(int32 Tensor, 0.7) is Float32 there): these rows compute.
PROMOTED = {"atan2_python_y", "atan2_python_x"}


def test_integer_inputs_refused_where_mindspore_refuses() -> None:
    """Every row of a primitive that MindSpore refuses for integer inputs (its recorded
    function, e.g. ops.sin of an int32 Tensor, raises TypeError) refuses int32 inputs too,
    whatever front end the row calls it through, with a TypeError naming the dtype."""
    refusals = _mindspore_int_refusals()
    assert len(refusals) >= 20, refusals  # the transcendental functions at least
    checked = 0
    for case in CASES:
        if case.prim not in refusals:
            continue
        arrays = _inputs(case)
        if not all(a.dtype.kind == "f" for a in arrays):
            continue
        ints = [ms.Tensor(np.round(np.nan_to_num(a, posinf=5, neginf=-5) * 3).astype(np.int32))
                for a in arrays]
        if case.name in PROMOTED:
            assert all(o.dtype == ms.float32 for o in _outs(case.fn(*ints))), case.name
            continue
        with pytest.raises(TypeError, match="Int32"):
            case.fn(*ints)
        checked += 1
    assert checked >= len(refusals)


# --- fused primitives against the composites they stand for --------------------------------
FUSED = [c for c in CASES if c.prim in registered() and "composite" in registered()[c.prim].hints]


def _calls_of(prim: Primitive, case: Case, monkeypatch) -> list:
    """The ``(args, params)`` of every eager call of ``prim`` while the row's function runs."""
    import mindgrad.core.primitive as core

    calls, eager = [], core.eager

    def spy(p, args, params):
        if p is prim:
            calls.append((list(args), dict(params)))
        return eager(p, args, params)

    monkeypatch.setattr(core, "eager", spy)
    case.fn(*[ms.Tensor(a) for a in _inputs(case)])
    monkeypatch.setattr(core, "eager", eager)
    return calls


@pytest.mark.parametrize("case", FUSED, ids=[c.name for c in FUSED])
def test_fused_primitive_agrees_with_its_composite(case: Case, monkeypatch) -> None:
    """A fused primitive (one pass where a chain of operations would take several) must give
    the values and first derivatives of the composite named in its ``hints``."""
    prim = registered()[case.prim]
    composite = prim.hints["composite"]
    calls = _calls_of(prim, case, monkeypatch)
    assert calls, f"{case.name} never calls {case.prim}"
    for args, params in calls:
        floats = [i for i, a in enumerate(args)
                  if isinstance(a, ms.Tensor) and a.dtype in (ms.float32, ms.float64)]

        def through(fn):
            def f(*xs):
                full = list(args)
                for i, x in zip(floats, xs):
                    full[i] = x
                # a scalar that depends on every element of every output
                return sum((out * out).sum() for out in _as_list(fn(*full, **params)))
            return f

        xs = [args[i] for i in floats]
        for got, want in zip(_as_list(prim(*args, **params)),
                             _as_list(composite(*args, **params)), strict=True):
            np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-12, atol=1e-12)
        want = ms.grad(through(composite), tuple(range(len(xs))))(*xs)
        got = ms.grad(through(prim), tuple(range(len(xs))))(*xs)
        for g, w in zip(_as_list(got), _as_list(want)):
            np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-10, atol=1e-12)


def test_fused_rows_exist() -> None:
    assert {c.prim for c in FUSED} >= {"ReduceVar", "ReduceNorm", "Softmax", "LSTMStep",
                                       "LSTMStepGrad", "GRUStep", "GRUStepGrad"}
