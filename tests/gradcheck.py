"""Numerical checks of derivatives, shared by the test suites.

``check_grads(f, args, order)`` checks, in float64, for every order up to ``order``:
- forward mode: ``jvp(f)(x; u)`` against the central difference ``(f(x+eu)-f(x-eu))/2e``;
- reverse mode: ``<vjp(f)(x; v), u>`` against ``<v, J u>`` (the central difference);
then builds the next order by differentiating the reverse-mode product
``x -> vjp(f)(x; v)`` (and the forward product ``x -> jvp(f)(x; u)``) and checks those.
``check_graph_matches(f, args)`` checks that GRAPH-mode (compiled) gradients equal PYNATIVE.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

import mindgrad as ms
from mindgrad import ops
from mindgrad.core.tree import flatten

EPS = 1e-6
RTOL = 1e-5
ATOL = 1e-6


def _leaves(out: Any) -> list:
    return flatten(out)[0]


def _np(t: Any) -> np.ndarray:
    return t.asnumpy().astype(np.float64)


def _random_like(ts: Sequence, rng: np.random.Generator) -> list:
    return [ms.Tensor(rng.standard_normal(t.shape).astype(np.float64)) for t in ts]


def numerical_jvp(f: Callable, args: Sequence, tangents: Sequence, eps: float = EPS) -> list:
    plus = [ms.Tensor(_np(a) + eps * _np(t)) for a, t in zip(args, tangents)]
    minus = [ms.Tensor(_np(a) - eps * _np(t)) for a, t in zip(args, tangents)]
    hi, lo = _leaves(f(*plus)), _leaves(f(*minus))
    return [(_np(h) - _np(l)) / (2 * eps) for h, l in zip(hi, lo)]


def _close(got: Any, want: Any, what: str, rtol: float, atol: float) -> None:
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    scale = max(1.0, float(np.abs(want).max(initial=0.0)))
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol * scale, err_msg=what)


def check_jvp(f: Callable, args: Sequence, rng: np.random.Generator, rtol: float = RTOL,
              atol: float = ATOL) -> Callable:
    """Check forward mode at ``args``; return ``x -> jvp(f)(x; u)`` for the next order."""
    u = _random_like(args, rng)
    _, tan = ops.jvp(f, tuple(args), tuple(u))
    num = numerical_jvp(f, args, u)
    for t, n in zip(_leaves(tan), num):
        _close(_np(t), n, "jvp against central differences", rtol, atol)
    return lambda *xs: ops.jvp(f, tuple(xs), tuple(u))[1]


def check_vjp(f: Callable, args: Sequence, rng: np.random.Generator, rtol: float = RTOL,
              atol: float = ATOL) -> Callable:
    """Check <J^T v, u> = <v, J u> at ``args``; return ``x -> vjp(f)(x; v)`` for the next
    order."""
    out_leaves = _leaves(f(*args))
    v = _random_like(out_leaves, rng)
    u = _random_like(args, rng)
    _, vjp_fn = ops.vjp(f, *args)
    grads = vjp_fn(*v)
    lhs = sum(float((_np(g) * _np(ui)).sum()) for g, ui in zip(grads, u))
    rhs = sum(float((_np(vi) * n).sum()) for vi, n in zip(v, numerical_jvp(f, args, u)))
    _close(lhs, rhs, "<J^T v, u> against <v, J u> by central differences", rtol, atol)
    return lambda *xs: ops.vjp(f, *xs)[1](*v)


def check_grads(f: Callable, args: Sequence, order: int = 2, seed: int = 0,
                rtol: float = RTOL, atol: float = ATOL) -> None:
    """Check forward and reverse derivatives of ``f`` up to ``order`` (all mixed paths:
    reverse-of-reverse, forward-of-reverse, reverse-of-forward, forward-of-forward)."""
    rng = np.random.default_rng(seed)
    args = [ms.Tensor(_np(a)) for a in args]
    frontier = [f]
    for k in range(order):
        nxt = []
        for g in frontier:
            tol = (rtol * 10 ** k, atol * 10 ** k)
            fwd = check_jvp(g, args, rng, *tol)
            rev = check_vjp(g, args, rng, *tol)
            nxt.extend([rev, fwd] if k == 0 else [rev])
        frontier = nxt


def check_graph_matches(f: Callable, args: Sequence, order: int = 2) -> None:
    """Gradients up to ``order`` computed in GRAPH mode (compiled) equal PYNATIVE ones."""
    positions = tuple(range(len(args)))

    def nested(k: int) -> Callable:
        g = f
        for _ in range(k):
            inner = g
            g = (lambda h: lambda *xs: ops.grad(h, positions)(*xs))(inner)
        return g

    for k in range(1, order + 1):
        eager = nested(k)(*args)
        compiled = ms.jit(nested(k))(*args)
        compiled_again = ms.jit(nested(k))(*args)
        for a, b, c in zip(_leaves(eager), _leaves(compiled), _leaves(compiled_again)):
            np.testing.assert_allclose(_np(b), _np(a), rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(_np(c), _np(a), rtol=1e-12, atol=1e-12)


def run_in_mode(f: Callable, *args: Any) -> Any:
    """``f(*args)``; in GRAPH mode compiled with ``jit`` and called twice (the trace, then
    the cached compiled function), both results checked equal."""
    if ms.get_context("mode") == ms.PYNATIVE_MODE:
        return f(*args)
    compiled = ms.jit(f)
    first = compiled(*args)
    second = compiled(*args)
    for a, b in zip(_leaves(first), _leaves(second)):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    assert compiled.graphs, "not compiled"
    return second


def f32(v: Any) -> "ms.Tensor":
    """A float32 Tensor of ``v`` (the tests' shorthand)."""
    return ms.Tensor(np.array(v, np.float32))
