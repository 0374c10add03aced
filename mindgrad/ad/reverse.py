"""Reverse mode: a trace that records a light tape of primitive applications.

The tape stores, per operation, the primal inputs and outputs (values of the level below)
and which inputs were being differentiated. ``backward`` walks it in reverse calling each
primitive's VJP rules; those rules are written in differentiable operations, so when an
outer trace is active the backward pass is itself recorded (grad of grad, jvp of grad, and
GRAPH mode, where the graph trace sits below and records the backward pass as graph code).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..common.tensor import Tensor
from ..core.primitive import Primitive, Trace, Tracer, bind, missing_rule
from ..prims.arith import add
from ..prims.shape import zeros_like


class ReverseTracer(Tracer):
    __slots__ = ("primal", "idx")

    @property
    def _data(self):  # type: ignore[override]
        return self.primal._data

    def __lower__(self):
        return self.primal


class ReverseTrace(Trace):
    __slots__ = ("tape", "count")

    def __init__(self) -> None:
        self.tape: list = []
        self.count = 0

    def new_tracer(self, primal: Any) -> ReverseTracer:
        t = object.__new__(ReverseTracer)
        t._trace = self
        t.primal = primal
        t.idx = self.count
        self.count += 1
        return t

    def process(self, prim: Primitive, args: Sequence, params: dict) -> Any:
        primals, tracers = self.unpack(args, None)
        out = bind(prim, primals, params)
        if prim.nondiff:
            return out
        if prim.multiple_results:
            wrapped = tuple(self.new_tracer(o) for o in out)
        else:
            wrapped = self.new_tracer(out)
        self.tape.append((prim, params, tracers, primals, out, wrapped))
        return wrapped

    def process_custom_vjp(self, fun: Callable, bwd: Callable, args: Sequence, name: str) -> Any:
        primals, tracers = self.unpack(args, None)
        out = fun(*primals)
        multiple = isinstance(out, (tuple, list))
        prim = Primitive(name, fun, multiple_results=multiple)
        prim.vjp_all = lambda g, ans, *xs, **_: bwd(xs, ans, g)
        wrapped = tuple(self.new_tracer(o) for o in out) if multiple else self.new_tracer(out)
        self.tape.append((prim, {}, tracers, primals, out, wrapped))
        return wrapped

    def backward(self, seeds: Sequence[tuple[Any, Any]]) -> dict:
        """Propagate cotangents from ``(tracer, cotangent)`` seeds to every tracer of this
        trace; returns ``{tracer.idx: cotangent}`` for those that received one."""
        cts: dict = {}
        for tr, ct in seeds:
            if ct is not None and getattr(tr, "_trace", None) is self:
                prev = cts.get(tr.idx)
                cts[tr.idx] = ct if prev is None else add(prev, ct)
        for prim, params, tracers, primals, out, wrapped in reversed(self.tape):
            if prim.multiple_results:
                g = [cts.pop(w.idx, None) for w in wrapped]
                if all(c is None for c in g):
                    continue
                g = [zeros_like(o) if c is None else c for c, o in zip(g, out)]
            else:
                g = cts.pop(wrapped.idx, None)
                if g is None:
                    continue
            if prim.vjp_all is not None:
                in_cts = prim.vjp_all(g, out, *primals, **params)
            elif prim.vjp is not None:
                rules = prim.vjp
                in_cts = [None] * len(tracers)
                for i, tr in enumerate(tracers):
                    if tr is not None and i < len(rules) and rules[i] is not None:
                        in_cts[i] = rules[i](g, out, *primals, **params)
            else:
                raise missing_rule(prim, "reverse-mode (grad/vjp)")
            for tr, ct in zip(tracers, in_cts):
                if tr is None or ct is None:
                    continue
                prev = cts.get(tr.idx)
                cts[tr.idx] = ct if prev is None else add(prev, ct)
        return cts


def is_tracer_of(x: Any, trace: Trace) -> bool:
    return isinstance(x, Tensor) and getattr(x, "_trace", None) is trace
