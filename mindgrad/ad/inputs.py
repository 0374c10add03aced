"""What a transformation's input tracer wraps: a Parameter is never wrapped itself (it is
mutable), but the value it has below the new trace."""
from __future__ import annotations

from typing import Any

from ..common.parameter import Parameter
from ..core.primitive import graph_tracing, graphs, substitution
from ..core.tensor import Tensor


def param_primal(p: Parameter) -> Any:
    """The value a Parameter has below a new trace: an outer tracer standing for it, the
    graph's Parameter input, or its current array."""
    if p._subs:
        sub = substitution(p)
        if sub is not None:
            return sub
    if graphs:  # a GRAPH-mode trace runs (on some thread)
        g = graph_tracing()
        if g is not None:
            return g.lift(p)
    return Tensor._wrap(p._data)


def resolve(a: Any) -> Any:
    """The value a transformation's input tracer wraps: for a Parameter, the value it has
    below the new trace, never the mutable Parameter object itself (an operation that
    returns its input, like the sum of a scalar, would otherwise hand it back)."""
    return param_primal(a) if isinstance(a, Parameter) else a
