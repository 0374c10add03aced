"""Compile on first call: trace a function into a graph per input signature, optimize it,
generate a straight-line function over arrays and cache it. Later calls with the same
signature run only that function (after checking its guards)."""
from __future__ import annotations

from typing import Any, Callable

from ..common import fp_warnings
from ..common.tensor import Tensor
from ..core.primitive import pop_trace, push_trace, state
from ..core.tree import LEAF, flatten, unflatten
from .codegen import GuardFail, generate
from .passes import optimize
from .trace import GraphTrace

EAGER = "eager"  # cache marker: this signature cannot be compiled, run it eagerly
MAX_VARIANTS = 8  # branches traced per signature before giving up on compiling it


def _sig(a: Any) -> Any:
    if isinstance(a, Tensor):
        d = a._data
        return (d.shape, d.dtype, type(d))  # the array type: a graph is for one device
    if isinstance(a, (tuple, list)):
        return (type(a), tuple(_sig(v) for v in a))
    if isinstance(a, dict):
        return (dict, tuple((k, _sig(v)) for k, v in a.items()))
    if isinstance(a, (int, float, str, bool, type(None))):
        return (type(a), a)
    return ("id", id(a))


class Compiled:
    """One traced variant: the generated function and how to call it."""

    __slots__ = ("fn", "params", "assigned", "n_out", "out_tree", "source")

    def __init__(self, fn, params, assigned, n_out, out_tree, source) -> None:
        self.fn = fn
        self.params = params
        self.assigned = assigned
        self.n_out = n_out
        self.out_tree = out_tree
        self.source = source

    def run(self, arrays: list) -> Any:
        fp_warnings.ensure()  # NumPy's floating-point warnings stay silent (fp_warnings)
        if self.params:
            res = self.fn(*arrays, *[p._data for p in self.params])
        else:
            res = self.fn(*arrays)
        if self.assigned:
            for p, v in zip(self.assigned, res[self.n_out:]):
                p._data = v
        if self.out_tree is LEAF:
            return Tensor._wrap(res[0])
        return unflatten(self.out_tree, [Tensor._wrap(r) for r in res[:self.n_out]])


class GraphFunction:
    """Wraps ``fn`` so that top-level calls are traced, compiled and cached per signature.
    Calls made while another transformation is running simply call ``fn`` (it is then part
    of the enclosing trace)."""

    __slots__ = ("fn", "cache", "name", "__weakref__")

    def __init__(self, fn: Callable, name: str = "graph") -> None:
        self.fn = fn
        self.name = name
        self.cache: dict = {}

    def __call__(self, *args: Any, extra_key: Any = None) -> Any:
        if state.stack or state.dynamic is not None:
            return self.fn(*args)
        key = (extra_key, tuple(_sig(a) for a in args))
        variants = self.cache.get(key)
        if variants is EAGER:
            return self.fn(*args)
        if variants is not None:
            arrays = [t._data for t in flatten(args)[0]]
            for v in variants:
                try:
                    return v.run(arrays)
                except GuardFail:
                    continue
            if len(variants) >= MAX_VARIANTS:
                return self.fn(*args)
        out, compiled = self._trace(args)
        if compiled is None:
            self.cache[key] = EAGER
        else:
            self.cache.setdefault(key, []).append(compiled)
        return out

    def fast_call(self, key: Any, arrays: list) -> Any:
        """Run the first cached variant for ``key`` (used by benchmarks to see overhead)."""
        return self.cache[key][0].run(arrays)

    def _trace(self, args: tuple) -> tuple[Any, Compiled | None]:
        trace = GraphTrace()
        push_trace(trace)
        state.dynamic = trace
        try:
            leaves, tree = flatten(args)
            targs = unflatten(tree, [trace.new_input(t._data) for t in leaves])
            out = self.fn(*targs)
            out_leaves, out_tree = flatten(out)
            out_vars = [trace.lift(o).var for o in out_leaves]
        finally:
            state.dynamic = None
            pop_trace(trace)
        for param, var in trace.assigns.values():
            param._data = trace.vals[var]
        result = unflatten(out_tree, [Tensor._wrap(trace.vals[v]) for v in out_vars])
        if trace.opaque:
            return result, None
        assigned = list(trace.assigns.values())
        eqns, outs = optimize(trace, out_vars + [v for _, v in assigned])
        used = {o for e in eqns for o in e[2] if isinstance(o, int)} | set(outs)
        params = [(v, p) for v, p in trace.params if v in used]
        fn, source = generate(trace, eqns, outs, [v for v, _ in params], self.name)
        return result, Compiled(fn, [p for _, p in params], [p for p, _ in assigned],
                                len(out_vars), out_tree, source)
