"""GRAPH mode tracing: run a function once on tracers that carry concrete values and record
every primitive application into a flat SSA graph.

Because tracers hold real values, Python control flow on tensor values still works while
tracing: each such decision is recorded as a guard, and the compiled function checks its
guards on every call (a failed guard makes the caller trace the other branch)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..core import fp_warnings
from ..core.device import check_same_device
from ..common.parameter import Parameter
from ..core.tensor import Tensor
from ..core.primitive import SUBSTITUTED, Primitive, Trace, Tracer
from ..core.state import state
from ..prims.control import guard as GUARD


class Lit:
    """A Python value (scalar, None, dtype) used directly as an operand."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class GraphTracer(Tracer):
    __slots__ = ("var", "val")

    @property
    def _data(self):  # type: ignore[override]
        return self.val

    def __lower__(self):
        return Tensor._wrap(self.val)

    @property
    def _graph(self) -> "GraphTrace":
        """The graph this value belongs to, also while it follows a derivative trace's value
        (its fields then hold the graph's value of it; ``core.following``)."""
        trace = self._trace
        return trace if trace is not SUBSTITUTED else state.following[id(self)].own

    def __bool__(self) -> bool:
        return self._graph.guard(self, bool)

    def __float__(self) -> float:
        return self._graph.guard(self, float)

    def __int__(self) -> int:
        return self._graph.guard(self, int)

    def __index__(self) -> int:
        return self._graph.guard(self, int)

    def asnumpy(self) -> np.ndarray:
        # The value escapes to Python, where the graph cannot follow it: this signature
        # will run eagerly from now on (still correct, just not compiled).
        self._graph.opaque = True
        return Tensor._wrap(self.val).asnumpy()


class GraphTrace(Trace):
    """Records ``(prim, params, in_vars, out_vars)`` equations. Vars are ints; operands are
    vars or ``Lit``. ``vals`` keeps each var's traced value (used by constant folding)."""

    __slots__ = ("eqns", "vals", "inputs", "consts", "params", "_memo", "opaque", "assigns")

    def __init__(self) -> None:
        self.eqns: list = []
        self.vals: list = []
        self.inputs: list[int] = []
        self.consts: dict[int, Any] = {}
        self.params: list[tuple[int, Parameter]] = []
        self._memo: dict[int, tuple[Any, GraphTracer]] = {}
        self.opaque = False
        self.assigns: dict[int, tuple[Parameter, int]] = {}

    def new_tracer(self, val: Any) -> GraphTracer:
        t = object.__new__(GraphTracer)
        t._trace = self
        t.var = len(self.vals)
        t.val = val
        self.vals.append(val)
        return t

    def new_input(self, val: Any) -> GraphTracer:
        t = self.new_tracer(val)
        self.inputs.append(t.var)
        return t

    def lift(self, a: Any) -> GraphTracer:
        """The tracer standing for a tensor: itself, a Parameter input, or a constant."""
        if isinstance(a, GraphTracer) and a._trace is self:
            return a
        key = id(a)
        hit = self._memo.get(key)
        if hit is not None and hit[0] is a:
            return hit[1]
        if isinstance(a, Tracer):
            raise RuntimeError("A value from a finished transformation was used inside a "
                               "GRAPH-mode function (an escaped tracer).")
        t = self.new_tracer(a._data)
        if isinstance(a, Parameter):
            self.params.append((t.var, a))
        else:
            self.consts[t.var] = a._data
        self._memo[key] = (a, t)  # keep `a` alive so its id stays unique
        return t

    def process(self, prim: Primitive, args: Sequence, params: dict) -> Any:
        if prim.hints.get("graph_identity"):  # (stop_gradient: a graph has no derivatives)
            return self.lift(args[0])
        ins: list = []
        vals: list = []
        for a in args:
            if isinstance(a, Tensor):
                t = self.lift(a)
                ins.append(t.var)
                vals.append(t.val)
            else:
                ins.append(Lit(a))
                vals.append(a)
        value_shape = prim.hints.get("value_shape")
        if value_shape is not None and any(isinstance(ins[i], int) and ins[i] not in self.consts
                                           for i in value_shape(vals)):
            # A mask computed from the inputs gives a result whose shape depends on values:
            # a graph of fixed shapes cannot follow it, so this signature runs eagerly.
            self.opaque = True
        fp_warnings.ensure()
        check_same_device(prim.name, vals)  # once, at tracing: the graph keeps the devices
        out = prim.impl(*vals, **params)
        if prim.multiple_results:
            outs = tuple(self.new_tracer(o) for o in out)
            self.eqns.append((prim, params, ins, [o.var for o in outs]))
            return outs
        t = self.new_tracer(out)
        self.eqns.append((prim, params, ins, [t.var]))
        return t

    def guard(self, t: GraphTracer, kind: type) -> Any:
        value = kind(Tensor._wrap(t.val))  # the conversion (and its errors) of eager mode
        self.eqns.append((GUARD, {"kind": kind, "value": value}, [t.var], []))
        return value

    def rebind(self, tensor: Tensor, value: GraphTracer) -> None:
        """Record ``tensor[index] = ...`` on a constant tensor: later reads of that tensor in
        this trace (operands and outputs) see ``value``. The tensor object itself keeps its
        array, as a compiled call would: the assignment is local to the traced function."""
        self._memo[id(tensor)] = (tensor, value)

    def follows(self, tensor: Tensor) -> bool:
        """Whether the compiled function must read ``tensor``'s value from the graph rather
        than keep the array it holds now: a Parameter (read on every call), or a tensor this
        trace has given another value (an assignment into it, or a Tensor() of a traced
        value)."""
        if isinstance(tensor, Parameter):
            return True
        hit = self._memo.get(id(tensor))
        return hit is not None and hit[0] is tensor and hit[1].var not in self.consts

    def assign(self, param: Parameter, value: Any) -> None:
        """Record ``param.set_data(value)``: the compiled function returns the new value
        and the caller stores it; later reads in this trace see it at once."""
        t = self.lift(value) if isinstance(value, Tensor) else self.lift(Tensor(value))
        self.assigns[id(param)] = (param, t.var)
        self._memo[id(param)] = (param, t)
