"""Native forward mode: each value carries its tangent; primitives apply their JVP rules.

A tangent of ``None`` is a symbolic zero: operations whose inputs all have zero tangents run
on the primals alone, so forward mode costs nothing where nothing varies."""
from __future__ import annotations

from typing import Any, Sequence

from ..core.primitive import Primitive, Trace, Tracer, bind, missing_rule
from ..prims.structural import add


class ForwardTracer(Tracer):
    __slots__ = ("primal", "tangent")

    @property
    def _data(self):  # type: ignore[override]
        return self.primal._data

    def __lower__(self):
        return self.primal


class ForwardTrace(Trace):
    __slots__ = ()
    # a tensor it does not see may take one of its values by assignment (core.following)
    follows_assignments = True

    def new_tracer(self, primal: Any, tangent: Any) -> Any:
        if tangent is None:
            return primal
        t = object.__new__(ForwardTracer)
        t._trace = self
        t.primal = primal
        t.tangent = tangent
        return t

    def process(self, prim: Primitive, args: Sequence, params: dict) -> Any:
        primals, tangents = self.unpack(args, "tangent")
        if prim.nondiff:
            return bind(prim, primals, params)
        if prim.jvp_all is not None:
            out, tout = prim.jvp_all(primals, tangents, **params)
        elif prim.jvp is not None:
            out = bind(prim, primals, params)
            tout = None
            rules = prim.jvp
            for i, t in enumerate(tangents):
                if t is None or i >= len(rules) or rules[i] is None:
                    continue
                c = rules[i](t, out, *primals, **params)
                tout = c if tout is None else add(tout, c)
        else:
            raise missing_rule(prim, "forward-mode (jvp)")
        if prim.multiple_results:
            return tuple(self.new_tracer(o, t) for o, t in zip(out, tout))
        return self.new_tracer(out, tout)

    def tangent_of(self, x: Any) -> Any:
        """The tangent of an output (None where it does not depend on the inputs)."""
        if getattr(x, "_trace", None) is self:
            return x.tangent
        return None

    def primal_of(self, x: Any) -> Any:
        if getattr(x, "_trace", None) is self:
            return x.primal
        return x


