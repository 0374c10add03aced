"""Reverse mode: a trace that records a light tape of primitive applications.

The tape stores, per operation, the primal inputs and outputs (values of the level below)
and the tape indices of the differentiated inputs and of the outputs. It holds indices, not
the tracers: a tracer points to its trace, so a tape of tracers would be a reference cycle,
and every differentiated call would leave its whole forward pass to the cyclic collector.
``backward`` walks it in reverse calling each primitive's VJP rules; those rules are written
in differentiable operations, so when an outer trace is active the backward pass is itself
recorded (grad of grad, jvp of grad, and GRAPH mode, where the graph trace sits below and
records the backward pass as graph code).
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

from ..core.hooks import HookHandle, run_tensor_hooks
from ..core.tensor import Tensor
from ..core.primitive import (Deferred, Primitive, Trace, Tracer, bind, eager, missing_rule,
                              graphs, snapshot, state)
from ..prims.structural import add, custom_vjp, custom_vjp_multi, zeros_like


class ReverseTracer(Tracer):
    __slots__ = ("primal", "idx")

    @property
    def _data(self):  # type: ignore[override]
        return self.primal._data

    def __lower__(self):
        return self.primal


class ReverseTrace(Trace):
    __slots__ = ("tape", "count", "paused", "hooks")
    # a tensor it does not see may take one of its values by assignment (core.following)
    follows_assignments = True

    def __init__(self) -> None:
        self.tape: list = []
        self.count = 0
        self.paused = False  # inside ``no_grad``: compute, but record nothing
        self.hooks: dict | None = None  # tape index -> ``register_hook`` functions

    def register_hook(self, tracer: Any, fn: Callable) -> HookHandle:
        if self.hooks is None:
            self.hooks = {}
        hooks = self.hooks.setdefault(tracer.idx, [])
        hooks.append(fn)
        return HookHandle(hooks, fn)

    def hooked(self, idx: int, ct: Any) -> Any:
        """The complete cotangent of tape index ``idx`` after its hooks (if any)."""
        hooks = self.hooks.get(idx) if self.hooks else None
        return run_tensor_hooks(hooks, ct) if hooks and ct is not None else ct

    def new_tracer(self, primal: Any) -> ReverseTracer:
        t = object.__new__(ReverseTracer)
        t._trace = self
        t.primal = primal
        t.idx = self.count
        self.count += 1
        return t

    def process(self, prim: Primitive, args: Sequence, params: dict) -> Any:
        primals, ids = [], []
        for a in args:
            if getattr(a, "_trace", None) is self:
                primals.append(a.primal)
                ids.append(a.idx)
            else:
                primals.append(a)
                ids.append(None)
        if self.level == 0 and (not graphs or state.dynamic is None):
            # nothing beneath this trace: run the operation now (what ``bind`` would find
            # after scanning the arguments again)
            out = eager(prim, primals, params)
        else:
            out = bind(prim, primals, params)
        if prim.nondiff or self.paused:
            return out
        return self._record(prim, params, ids, primals, out)

    def _record(self, prim: Primitive, params: dict, ids: list, primals: list,
                out: Any) -> Any:
        if prim.multiple_results:
            wrapped = tuple(self.new_tracer(o) for o in out)
            out_ids = tuple(w.idx for w in wrapped)
        else:
            wrapped = _new(ReverseTracer)
            wrapped._trace = self
            wrapped.primal = out
            wrapped.idx = out_ids = self.count
            self.count += 1
        self.tape.append((prim, params, ids, primals, out, out_ids))
        return wrapped

    def process_custom_vjp(self, fun: Callable, bwd: Callable, args: Sequence, name: str) -> Any:
        primals, ids = self.unpack(args, "idx")
        out = fun(*primals)
        if self.paused:
            return out
        multiple = isinstance(out, (tuple, list))
        prim = custom_vjp_multi if multiple else custom_vjp
        return self._record(prim, {"bwd": bwd, "name": name}, ids, primals,
                            tuple(out) if multiple else out)

    def keep_value(self, obj: Any) -> None:
        """``obj`` is about to change in place: the entries that hold it as an operand get
        its present value instead (see ``before_change``)."""
        kept = None
        for entry in self.tape:
            primals = entry[3]
            for i, p in enumerate(primals):
                if p is obj:
                    if kept is None:
                        kept = snapshot(obj)
                    primals[i] = kept

    def backward(self, seeds: Sequence[tuple[Any, Any]]) -> dict:
        """Propagate cotangents from ``(tracer, cotangent)`` seeds to every tracer of this
        trace; returns ``{tracer.idx: cotangent}`` for those that received one."""
        cts: dict = {}
        for tr, ct in seeds:
            if ct is not None and getattr(tr, "_trace", None) is self:
                _accumulate(cts, tr.idx, ct)
        pop = cts.pop
        hooked = self.hooked if self.hooks else None
        for prim, params, ids, primals, out, out_ids in reversed(self.tape):
            if prim.multiple_results:
                g = [pop(i, None) for i in out_ids]
                if hooked is not None:
                    g = [hooked(i, c) for i, c in zip(out_ids, g)]
                if all(c is None for c in g) and not prim.hints.get("collective"):
                    continue
                if not prim.hints.get("missing_cotangents"):
                    g = [zeros_like(o) if c is None else c for c, o in zip(g, out)]
            else:
                g = pop(out_ids, None)
                if hooked is not None:
                    g = hooked(out_ids, g)
                if g is None:
                    if not prim.hints.get("collective"):
                        continue
                    # Every rank must run the same collectives: a rank that did not use
                    # this one's output still runs its transpose (on a zero cotangent),
                    # or the ranks that did use it would wait for it forever.
                    g = zeros_like(out)
            if prim.vjp is not None and prim.vjp_all is None:
                # one rule per input, called only for the inputs that need a cotangent
                rules = prim.vjp
                for i, k in enumerate(ids):
                    if k is None or i >= len(rules) or rules[i] is None:
                        continue
                    ct = rules[i](g, out, *primals, **params)
                    if ct is not None:
                        _accumulate(cts, k, ct)
                continue
            if prim.vjp_all is None:
                raise missing_rule(prim, "reverse-mode (grad/vjp)")
            for k, ct in zip(ids, prim.vjp_all(g, out, *primals, **params)):
                if type(ct) is Deferred:
                    ct = ct.fn() if k is not None else None
                if k is not None and ct is not None:
                    _accumulate(cts, k, ct)
        return cts


_new = object.__new__

# how many ``no_grad`` contexts are open: a gradient asked for inside one is an error in
# PYNATIVE mode (see ``in_no_grad``)
_no_grad_depth = 0


def in_no_grad() -> bool:
    """Whether a ``no_grad`` context (or a function it decorates) is running."""
    return _no_grad_depth > 0


class no_grad:
    """``mindspore._no_grad()``: inside this context (or a function it decorates) operations
    are computed but no gradient is recorded, so their results are constants to every
    ``grad`` in progress."""

    def __init__(self) -> None:
        self._paused: list = []

    def __enter__(self) -> "no_grad":
        global _no_grad_depth
        _no_grad_depth += 1
        self._paused.append([t for t in state.stack
                             if isinstance(t, ReverseTrace) and not t.paused])
        for t in self._paused[-1]:
            t.paused = True
        return self

    def __exit__(self, *exc: Any) -> bool:
        global _no_grad_depth
        _no_grad_depth -= 1
        for t in self._paused.pop():
            t.paused = False
        return False

    def __call__(self, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with no_grad():
                return fn(*args, **kwargs)

        return wrapped


def _accumulate(cts: dict, k: int, ct: Any) -> None:
    """Add a cotangent contribution for tape index ``k``."""
    prev = cts.get(k)
    cts[k] = ct if prev is None else add(prev, ct)


def is_tracer_of(x: Any, trace: Trace) -> bool:
    return isinstance(x, Tensor) and getattr(x, "_trace", None) is trace
