"""The bad-input fuzzer (``fuzz_ops``) over every public operator of ``mindgrad.ops`` (and
the Tensor methods that mirror them): wrong
shapes, wrong dtypes (int, bool, float16, complex), empty and 0-d tensors, NaN and inf,
out-of-range and negative axes, wrong keyword names, None, strings and lists. Each call must
give the right result (against NumPy where a reference is cheap, else at least a sound
shape and dtype) or a TypeError / ValueError / IndexError naming the operator.

In CI: a fixed sweep (every operator, a dozen spoiled calls each, plus valid ones) and a
short Hypothesis run per operator, together well over 2,000 bad inputs in about a minute
on two cores. ``-m slow`` runs Hypothesis for much longer. A finding prints the seed:
``fuzz_ops.judge(fuzz_ops.draw_case(spec, seed))`` replays it."""
from __future__ import annotations

import collections
import inspect

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgrad import ops

import fuzz_ops as F

SPECS = {s.name: s for s in F.SPECS}
SWEEP_SEEDS = 20       # spoiled calls per operator in the fixed sweep
VALID_SEEDS = 2        # valid calls per operator (their results are checked too)
HYPOTHESIS_CI = 25     # Hypothesis examples per operator in CI
HYPOTHESIS_SLOW = 300  # ... under -m slow


def test_every_public_operator_is_fuzzed() -> None:
    """A new public name must join the fuzzer (or say why it takes nothing to spoil)."""
    missing = sorted(n for n in ops.__all__ if n not in SPECS and n not in F.NOT_FUZZED)
    assert not missing, f"public names the fuzzer does not call: {missing}"
    assert len(SPECS) >= 150


def test_fuzz_sweep() -> None:
    """Every operator, ``SWEEP_SEEDS`` spoiled calls and ``VALID_SEEDS`` valid ones: no
    unclear error and no wrong result, and enough of each outcome to mean something."""
    outcomes: collections.Counter = collections.Counter()
    findings = []
    for spec in F.SPECS:
        for seed in range(SWEEP_SEEDS + VALID_SEEDS):
            case = F.draw_case(spec, seed, spoil=seed < SWEEP_SEEDS)
            try:
                outcomes[(case.bad, F.judge(case))] += 1
            except F.Finding as e:
                findings.append(f"{e} (seed {seed})")
    assert not findings, f"{len(findings)} findings:\n" + "\n".join(findings[:40])
    bad = sum(n for (is_bad, _), n in outcomes.items() if is_bad)
    assert bad >= 2000, outcomes
    # most spoiled calls are refused, and many results are compared with NumPy's
    assert outcomes[(True, "error")] > bad // 2, outcomes
    assert outcomes[(True, "checked")] + outcomes[(False, "checked")] > 500, outcomes


def test_fuzz_sweep_in_jit() -> None:
    """The spoiled calls whose arguments are all Tensors (wrong dtypes, shapes, empty, 0-d,
    NaN) again, compiled by ``jit`` (GRAPH mode): the same clear errors and right results."""
    import dataclasses

    import mindgrad as ms
    from mindgrad import Tensor

    findings, outcomes = [], collections.Counter()
    for spec in F.SPECS:
        compiled = dataclasses.replace(spec, fn=ms.jit(lambda *a, _f=spec.fn: _f(*a)),
                                       names=(*spec.names, spec.fn.__name__))
        for seed in range(SWEEP_SEEDS // 2):
            case = F.draw_case(spec, seed)
            if not case.args or case.kwargs or not all(isinstance(a, Tensor) for a in case.args):
                continue
            case.spec = compiled
            try:
                outcomes[F.judge(case)] += 1
            except F.Finding as e:
                findings.append(f"{e} (seed {seed})")
    assert not findings, f"{len(findings)} findings in jit:\n" + "\n".join(findings[:40])
    assert outcomes["error"] > 30 and outcomes["checked"] > 500, outcomes


def _hypothesis_test(examples: int):
    @settings(max_examples=examples, deadline=None, database=None, derandomize=examples < 50,
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, 2 ** 32 - 1), spoil=st.booleans())
    def run(name: str, seed: int, spoil: bool) -> None:
        F.judge(F.draw_case(SPECS[name], seed, spoil))
    return run


_ci_run = _hypothesis_test(HYPOTHESIS_CI)
_slow_run = _hypothesis_test(HYPOTHESIS_SLOW)


@pytest.mark.parametrize("name", list(SPECS))
def test_fuzz_hypothesis(name: str) -> None:
    _ci_run(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SPECS))
def test_fuzz_hypothesis_long(name: str) -> None:
    _slow_run(name)


# --- the judge itself: it must catch what it is there to catch --------------------------------
def _case(fn, *args, **kwargs):
    spec = F.Spec("probe", fn, lambda rng: [], out="")
    return F.Case(spec, list(args), kwargs, list(args), dict(kwargs), "probe")


def test_judge_flags_unclear_errors() -> None:
    def bare(x):
        raise ZeroDivisionError("integer division or modulo by zero")

    def anonymous(x):
        raise ValueError("zero-size array to reduction operation maximum")

    def named(x):
        raise ValueError("For 'probe', 'x' must not be empty.")

    with pytest.raises(F.Finding, match="unclear ZeroDivisionError"):
        F.judge(_case(bare, 1))
    with pytest.raises(F.Finding, match="does not name the op"):
        F.judge(_case(anonymous, 1))
    assert F.judge(_case(named, 1)) == "error"


def test_judge_flags_silent_wrong_results() -> None:
    import numpy as np

    from mindgrad import Tensor

    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    spec = SPECS["reduce_sum"]
    wrong_shape = F.Spec("reduce_sum", lambda t, a, k: ops.reduce_sum(t, a, not k),
                         spec.make, spec.ref)
    case = F.Case(wrong_shape, [Tensor(x), 0, False], {}, [x, 0, False], {}, "probe")
    with pytest.raises(F.Finding, match="shape"):
        F.judge(case)
    wrong_values = F.Spec("reduce_sum", lambda t, a, k: ops.reduce_max(t, a, k),
                          spec.make, spec.ref)
    case = F.Case(wrong_values, [Tensor(x), 0, False], {}, [x, 0, False], {}, "probe")
    with pytest.raises(F.Finding, match="values differ"):
        F.judge(case)
    wrong_dtype = F.Spec("sin", lambda t: ops.cast(ops.sin(t), np.float64),
                         SPECS["sin"].make, SPECS["sin"].ref)
    case = F.Case(wrong_dtype, [Tensor(x)], {}, [x], {}, "probe")
    with pytest.raises(F.Finding, match="float32 input gave float64"):
        F.judge(case)


def test_spoilers_cover_the_issue_list() -> None:
    """Over the sweep, the spoiled calls include each kind of bad input the fuzzer promises."""
    kinds = collections.Counter()
    for spec in F.SPECS:
        for seed in range(SWEEP_SEEDS):
            kinds[F.draw_case(spec, seed).what.split(": ")[-1]] += 1
    seen = " | ".join(kinds)
    for what in ("dtype int32", "dtype int64", "dtype bool", "dtype float16",
                 "dtype complex64", "empty", "0-d", "nan/inf", "axis = rank", "negative axis",
                 "None", "list", "unknown keyword", "renamed keyword", "other shape"):
        assert what in seen, what
    assert inspect.isfunction(F.judge)
