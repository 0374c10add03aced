"""The machinery behind ``bench_ops.py``: a ``Case`` (an operator, its inputs and a NumPy
forward + backward written by hand), input makers, and ``run_case``, which checks that
mindgrad and the reference agree and times both round-robin.

A reference takes the input arrays, the constants and ``cot`` (output -> cotangent: ones for
``sum(op(x))``, a fixed random array for the live-cotangent variant) and returns
``(loss, [gradient of each input])``.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from common import compare_times

import mindgrad as ms
from mindgrad import ops

F32 = np.float32
T = ms.Tensor


# Each round times about 10 ms of calls of each candidate. Short rounds, many of them,
# interleave the candidates finely, so a burst of load on a shared machine lands on all of
# them alike instead of on one candidate's few long rounds.
ROUND_SECONDS = 0.01


class Case(NamedTuple):
    name: str
    shape: str
    make: Callable          # rng -> (float inputs, extra constants)
    op: Callable            # (*tensors, **consts) -> tensor
    ref: Callable           # (*arrays, cot=..., **consts) -> (value, [grads])


def ones_cot(y: np.ndarray) -> np.ndarray:
    """The cotangent of ``sum(op(x))``."""
    return np.ones_like(y)


def sigmoid(x: np.ndarray) -> np.ndarray:
    """A logistic function that neither overflows nor divides."""
    return 0.5 * (np.tanh(0.5 * x) + 1)


def unary(name: str, shape: str, make: Callable, op: Callable, f: Callable,
          df: Callable) -> Case:
    """An elementwise operator whose reference is ``y = f(x)`` and ``dx = g * df(x, y)``."""
    def ref(x, cot=ones_cot):
        y = f(x)
        g = cot(y)
        return (y * g).sum(), [g * df(x, y)]
    return Case(name, shape, make, op, ref)


# --- inputs ----------------------------------------------------------------------------------
def normal(*shape: int) -> Callable:
    return lambda rng: ([rng.standard_normal(shape).astype(F32)], {})


def uniform(low: float, high: float, *shape: int, count: int = 1) -> Callable:
    return lambda rng: ([rng.uniform(low, high, shape).astype(F32) for _ in range(count)], {})


def normals(count: int, *shape: int) -> Callable:
    return lambda rng: ([rng.standard_normal(shape).astype(F32) for _ in range(count)], {})


def near_one(*shape: int) -> Callable:
    return uniform(0.97, 1.03, *shape)


def distinct(*shape: int) -> Callable:
    """Distinct values (no ties for max-like operators) in [0, 1)."""
    n = int(np.prod(shape))
    return lambda rng: ([(rng.permutation(n).reshape(shape) / n).astype(F32)], {})


# --- running -----------------------------------------------------------------------------------
def _agree(got, want) -> bool:
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    scale = max(1.0, float(np.abs(want).max(initial=0.0)))
    return got.shape == want.shape and np.allclose(got, want, rtol=2e-3, atol=2e-4 * scale)


def run_case(case: Case, repeats: int, live: bool) -> dict:
    """Check mindgrad (PYNATIVE and jit) against the reference, then time all three."""
    rng = np.random.default_rng(0)
    arrays, consts = case.make(rng)
    tensors = [T(a) for a in arrays]
    n = len(tensors)
    cot = ones_cot
    if live:
        # the cotangent is an input of the compiled function, so GRAPH mode cannot fold the
        # backward pass of a linear operator into a compile-time constant
        v = rng.standard_normal(case.op(*tensors, **consts).shape).astype(F32)
        cot = lambda y: v  # noqa: E731
        tensors.append(T(v))

        def loss(*xs):
            return (case.op(*xs[:n], **consts) * xs[n]).sum()
    else:
        def loss(*xs):
            return case.op(*xs, **consts).sum()

    vg = ops.value_and_grad(loss, grad_position=tuple(range(n)))
    compiled = ms.jit(lambda *xs: vg(*xs))

    def grads_of(out):
        value, grads = out
        return value, list(grads) if isinstance(grads, tuple) else [grads]

    want_v, want_g = case.ref(*arrays, cot=cot, **consts)
    ok = True
    for out in (vg(*tensors), compiled(*tensors)):
        v_, gs = grads_of(out)
        ok &= _agree(v_.asnumpy(), want_v) and len(gs) == len(want_g) and all(
            _agree(g.asnumpy(), w) for g, w in zip(gs, want_g))
    times = compare_times({
        "numpy": lambda: case.ref(*arrays, cot=cot, **consts),
        "pynative": lambda: vg(*tensors),
        "graph": lambda: compiled(*tensors),
    }, repeats=repeats, min_time=ROUND_SECONDS)
    return {"times": times, "ok": ok}
