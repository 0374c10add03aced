"""The in-place mutation protocol. Arrays are never written in place; ``x[i] = v`` and
``Parameter.set_data`` make the object refer to a new value instead. Two rules keep that
sound under transformations: `before_change` lets every running trace that recorded the
object as an operand keep its present value first (so an assignment after a use does not
change that use's gradient), and `rebind` decides whether the object may follow a traced
value, and how: a constant tensor inside a GRAPH-mode trace is recorded under its identity by
the graph; a tensor that a derivative trace (grad, jvp, jet) does not see follows the traced
value while that trace runs (``core.following``); where neither applies (vmap),
`rebind_error` says why. ``core.primitive.snapshot`` makes the kept copies and
``Tracer._become`` the tracer side of `rebind`."""
from __future__ import annotations

from typing import Any

from .state import active, graph_tracing, state


def before_change(obj: Any) -> None:
    """Call just before ``obj`` takes a new value in place (``x[i] = v``, ``set_data``): the
    running traces that recorded ``obj`` itself as an operand (reverse mode's residuals)
    keep the value it has now."""
    if not active:
        return
    for trace in state.stack:
        keep = getattr(trace, "keep_value", None)
        if keep is not None:
            keep(obj)


def rebind(target: Any, new: Any) -> None:
    """Make the plain tensor ``target`` refer to ``new``, the result of an assignment into
    it."""
    trace = new._trace
    # a constant that a derivative trace lets follow one of its values on another thread
    # is a plain tensor here
    plain = target._trace is None or id(target) not in state.subs
    if trace is None and plain:
        before_change(target)
        target._data = new._data
        return
    graph = graph_tracing()
    if trace is graph and graph is not None and plain:
        before_change(target)
        # A constant tensor inside a GRAPH-mode trace: the trace records the new value
        # under this tensor's identity, so later operations on it read the new value.
        graph.rebind(target, new)
        return
    if follow is not None and follow(target, new):
        return
    raise rebind_error(target, new)


# ``core.following.follow``, set when that module (above this one) is loaded: a tensor that
# a derivative trace does not see (or one already following) stands for the traced value
follow: Any = None


def rebind_error(target: Any, new: Any) -> TypeError:
    """An assignment whose result a transformation traces but ``target`` cannot follow."""
    by = _TRACED_BY.get(type(new).__name__, type(new).__name__)
    what = "a constant tensor" if target._trace is None else \
        f"a tensor that only an outer transformation traces ({type(target).__name__})"
    return TypeError(
        f"For 'setitem', cannot assign a value that {by} traces (it depends on the "
        f"transformed inputs) into {what}: under vmap (or the forward Laplacian) a tensor "
        f"made without the mapped inputs (by Tensor(...), ops.zeros, ops.zeros_like, ...) "
        f"holds one value for all examples and cannot start carrying a per-example value. "
        f"Build the result from the traced values instead (ops.concat "
        f"or ops.stack of the pieces, ops.select(mask, value, x), "
        f"ops.tensor_scatter_update(x, indices, value)), or assign into a tensor computed "
        f"from the inputs (for example y = x * 0).")


_TRACED_BY = {"ReverseTracer": "grad/vjp (reverse mode)", "ForwardTracer": "jvp (forward mode)",
              "BatchTracer": "vmap", "TaylorTracer": "jet (Taylor mode)",
              "GraphTracer": "GRAPH-mode tracing"}
