"""Taylor mode: each value carries a truncated Taylor series ``x(t) = x0 + x1 t + ... + xK t^K``
(normalized coefficients, ``x_k = x^(k)(0) / k!``), pushed forward through every primitive.

A primitive's ``taylor`` rule ``rule(primals, series, **params) -> (out, out_series)`` gets, for
each argument, None (a constant) or a list of K coefficients (entries may be None: zero).
Primitives without a dedicated rule use ``from_jvp``, which derives the series from the
primitive's forward (JVP) rule, so Taylor mode works on every primitive."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.following import outputs_of, pop_trace
from ..core.primitive import Primitive, Trace, Tracer, bind, push_trace
from ..core.tree import flatten, unflatten
from ..prims import structural as S


class TaylorTracer(Tracer):
    __slots__ = ("primal", "series")

    @property
    def _data(self):  # type: ignore[override]
        return self.primal._data

    def __lower__(self):
        return self.primal


class TaylorTrace(Trace):
    __slots__ = ("order",)
    # a tensor it does not see may take one of its values by assignment (core.following)
    follows_assignments = True

    def __init__(self, order: int) -> None:
        self.order = order

    def new_tracer(self, primal: Any, series: list | None) -> Any:
        if series is None or all(s is None for s in series):
            return primal
        t = object.__new__(TaylorTracer)
        t._trace = self
        t.primal = primal
        t.series = series
        return t

    def process(self, prim: Primitive, args: Sequence, params: dict) -> Any:
        primals, series = self.unpack(args, "series")
        if prim.nondiff or all(s is None for s in series):
            return bind(prim, primals, params)
        rule = prim.taylor or from_jvp(prim)
        out, out_series = rule(primals, series, **params)
        if prim.multiple_results:
            return tuple(self.new_tracer(o, s) for o, s in zip(out, out_series))
        return self.new_tracer(out, out_series)


def taylor_call(fn: Callable, primals: Sequence, series: Sequence, order: int) -> tuple:
    """Push the series of ``primals`` (each a list of ``order`` coefficients, or None)
    through ``fn``; returns ``(out, out_series)`` with one list per output leaf."""
    if order == 0:
        out = fn(*primals)
        leaves, tree = flatten(out)
        return out, unflatten(tree, [[] for _ in leaves])
    trace = push_trace(TaylorTrace(order))
    try:
        out = outputs_of(fn(*[trace.new_tracer(p, s) for p, s in zip(primals, series)]),
                         trace)
    finally:
        pop_trace(trace)
    leaves, tree = flatten(out)
    prim_out = [x.primal if getattr(x, "_trace", None) is trace else x for x in leaves]
    ser_out = [list(x.series) if getattr(x, "_trace", None) is trace else [None] * order
               for x in leaves]
    return unflatten(tree, prim_out), unflatten(tree, ser_out)


def _coeff(series: list | None, k: int) -> Any:
    if series is None or k >= len(series):
        return None
    return series[k]


def from_jvp(prim: Primitive) -> Callable:
    """A Taylor rule built from ``prim``'s JVP rule, one order at a time: with
    z(t) = f(x(t)), z'(t) = J(x(t)) x'(t), so ``z_k`` is the coefficient ``k-1`` of the jet of
    the JVP rule, divided by ``k``. The JVP rule's own operations are Taylor-propagated."""
    def jvp_fn(n: int, params: dict) -> Callable:
        def f(*args: Any) -> Any:
            xs, ts = args[:n], args[n:2 * n]
            ans = tuple(args[2 * n:]) if prim.multiple_results else args[2 * n]
            if prim.jvp_all is not None:
                return prim.jvp_all(list(xs), list(ts), **params)[1]
            total = None
            for i, t in enumerate(ts):
                if t is None or i >= len(prim.jvp) or prim.jvp[i] is None:
                    continue
                c = prim.jvp[i](t, ans, *xs, **params)
                total = c if total is None else S.add(total, c)
            return total

        return f

    def rule(primals: list, series: list, **params: Any) -> tuple:
        order = next(len(s) for s in series if s is not None)
        n = len(primals)
        z0 = bind(prim, primals, params)
        outs = list(z0) if prim.multiple_results else [z0]
        zs: list = [[] for _ in outs]  # the series of each output
        for k in range(1, order + 1):
            # x'(t) has coefficients (m+1) x_{m+1}; truncate everything to order k-1.
            t_primals, t_series = [], []
            for x, s in zip(primals, series):
                if s is None:
                    t_primals.append(None)
                    t_series.append(None)
                    continue
                ts = [None if _coeff(s, m) is None else S.mul(m + 1, s[m]) for m in range(1, k)]
                t0 = s[0]
                if t0 is None and any(t is not None for t in ts):
                    t0 = S.zeros_like(x)
                t_primals.append(t0)
                t_series.append(ts)
            x_series = [None if s is None else s[:k - 1] for s in series]
            w0, w = taylor_call(jvp_fn(n, params), primals + t_primals + outs,
                                x_series + t_series + [z[:k - 1] for z in zs], k - 1)
            if not prim.multiple_results:
                w0, w = [w0], [w]
            for z, v0, v in zip(zs, w0, w):
                value = v0 if k == 1 else v[k - 2]
                z.append(None if value is None else S.div(value, k))
        return z0, (zs if prim.multiple_results else zs[0])

    return rule
