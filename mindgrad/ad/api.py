"""The transformations themselves, independent of MindSpore's calling conventions:
``reverse`` (run a function under a reverse trace and return its pullback) and ``forward``
(push tangents through a function). ``mindgrad.ops.composite`` shapes them into
GradOperation, grad, value_and_grad, jvp, vjp, jacfwd and jacrev."""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from ..core.hooks import leaf_hooks
from ..common.parameter import Parameter
from ..core.tensor import Tensor
from ..core.primitive import (graph_tracing, graphs, pop_trace, push_trace, substitute,
                              substitution, unsubstitute)
from ..core.tree import flatten, tree_map
from ..prims import shape as S
from .forward import ForwardTrace
from .reverse import ReverseTrace


def _param_primal(p: Parameter) -> Any:
    """The value a Parameter has below a new trace: an outer tracer standing for it, the
    graph's Parameter input, or its current array."""
    if p._subs:
        sub = substitution(p)
        if sub is not None:
            return sub
    if graphs:  # a GRAPH-mode trace runs (on some thread)
        from ..graph.trace import current_graph_trace

        g = current_graph_trace()
        if g is not None:
            return g.lift(p)
    return Tensor._wrap(p._data)


def _resolve(a: Any) -> Any:
    """The value a transformation's input tracer wraps: for a Parameter, the value it has
    below the new trace, never the mutable Parameter object itself (an operation that
    returns its input, like the sum of a scalar, would otherwise hand it back)."""
    return _param_primal(a) if isinstance(a, Parameter) else a


class Pullback:
    """The result of ``reverse``: the primal output and a function from output cotangents to
    input and weight cotangents. It may be called many times (Jacobians)."""

    __slots__ = ("trace", "out", "out_tracers", "arg_ids", "weight_ids", "args", "weights")

    def __init__(self, trace, out, out_tracers, arg_ids, weight_ids, args, weights):
        self.trace = trace
        self.out = out
        self.out_tracers = out_tracers
        # the tape indices of the inputs, taken when they were made: ``x[i] = v`` inside
        # the function rebinds an input tracer to the updated value
        self.arg_ids = arg_ids
        self.weight_ids = weight_ids
        self.args = args
        self.weights = weights

    def default_sens(self) -> list:
        return [_ones_like(o.primal) if getattr(o, "_trace", None) is self.trace else None
                for o in self.out_tracers]

    def __call__(self, sens_leaves: Sequence | None = None) -> tuple[list, list]:
        """Cotangents for the differentiated args and weights (zeros where unused), given
        one cotangent per output leaf (default: ones)."""
        if sens_leaves is None:
            sens_leaves = self.default_sens()
        cts = self.trace.backward(zip(self.out_tracers, sens_leaves)).get
        if self.trace.hooks:  # hooks on the inputs themselves see their complete gradients
            hooked = self.trace.hooked
            return ([_finish(hooked(i, cts(i)), a) for i, a in zip(self.arg_ids, self.args)],
                    [_finish(hooked(i, cts(i)), w) for i, w in zip(self.weight_ids, self.weights)])
        return ([_finish(cts(i), a) for i, a in zip(self.arg_ids, self.args)],
                [_finish(cts(i), w) for i, w in zip(self.weight_ids, self.weights)])


def _ones_like(x: Any) -> Any:
    """The default sensitivity. A concrete NumPy value outside graph tracing gets its ones
    made directly (dispatching ``ones_like`` was a third of the fixed cost of a small eager
    gradient; ``empty`` + ``fill`` is half the cost of ``np.ones``)."""
    if type(x) is Tensor and graph_tracing() is None:
        d = x._data
        if isinstance(d, (np.ndarray, np.generic)):  # a reduction's result is a np.generic
            ones = np.empty(d.shape, d.dtype)
            ones.fill(1)
            return Tensor._wrap(ones)
    return S.ones_like(x)


def _finish(ct: Any, like: Any) -> Any:
    """Zeros for an input that received nothing; the gradient keeps the input's dtype."""
    if ct is None:
        return S.zeros_like(like)
    if type(ct) is Tensor and type(like) is Tensor and ct._data.dtype == like._data.dtype:
        return ct  # the common eager case, without the generic dtype lookups
    want = S.dtype_of(like)
    return ct if S.dtype_of(ct) == want else S.cast(ct, dtype=want)


def reverse(fn: Callable, args: Sequence, positions: Sequence[int],
            weights: Sequence[Parameter] = ()) -> Pullback:
    """Call ``fn(*args)`` differentiating args at ``positions`` and ``weights``."""
    trace = push_trace(ReverseTrace())
    saved = []
    try:
        new_args = list(args)
        arg_ids = []
        for i in positions:
            t = trace.new_tracer(_resolve(args[i]))
            new_args[i] = t
            arg_ids.append(t.idx)
            if leaf_hooks and id(args[i]) in leaf_hooks:  # hooks registered before the call
                if trace.hooks is None:
                    trace.hooks = {}
                trace.hooks[t.idx] = leaf_hooks[id(args[i])]
        weight_ids = []
        fresh: dict = {}
        for p in weights:
            if not p.requires_grad:
                # a frozen Parameter listed in ``weights`` gets zeros (MindSpore's PYNATIVE
                # behaviour, chosen for both modes) and costs no recording
                weight_ids.append(None)
                continue
            hit = fresh.get(id(p))  # a weight listed twice: both entries share one tracer
            if hit is None:
                hit = fresh[id(p)] = (p, trace.new_tracer(_param_primal(p)))
                if leaf_hooks and id(p) in leaf_hooks:
                    if trace.hooks is None:
                        trace.hooks = {}
                    trace.hooks[hit[1].idx] = leaf_hooks[id(p)]
            weight_ids.append(hit[1].idx)
        if fresh:
            saved = substitute(fresh.values())
        out = fn(*new_args)
        if saved:
            out = _params_as_tracers(out, trace)
    finally:
        if saved:
            unsubstitute(saved)
        pop_trace(trace)
    if isinstance(out, Tensor):  # the common case, without walking a structure
        out_leaves = [out]
        primal_out = out.primal if getattr(out, "_trace", None) is trace else out
    else:
        out_leaves, _ = flatten(out)
        primal_out = tree_map(lambda o: o.primal if getattr(o, "_trace", None) is trace else o,
                              out)
    return Pullback(trace, primal_out, out_leaves, arg_ids, weight_ids,
                    [args[i] for i in positions], list(weights))


def _params_as_tracers(out: Any, trace: Any) -> Any:
    """A differentiated Parameter returned as (part of) the output stands for its tracer,
    so that output's cotangent reaches the Parameter's gradient (``return x * self.w,
    self.w``). Its substitution ends when ``reverse`` returns, so this happens first."""

    def swap(o: Any) -> Any:
        if isinstance(o, Parameter):
            sub = substitution(o)
            if sub is not None and getattr(sub, "_trace", None) is trace:
                return sub
        return o

    if isinstance(out, Tensor) and not isinstance(out, Parameter):
        return out
    return swap(out) if isinstance(out, Parameter) else tree_map(swap, out)


def forward(fn: Callable, primals: Sequence, tangents: Sequence) -> tuple[Any, Any]:
    """Return ``(fn(*primals), tangent of the output)``; outputs that do not depend on the
    inputs get zero tangents."""
    trace = push_trace(ForwardTrace())
    try:
        args = [trace.new_tracer(_resolve(p), t) for p, t in zip(primals, tangents)]
        out = fn(*args)
    finally:
        pop_trace(trace)
    out_p = tree_map(trace.primal_of, out)
    out_t = tree_map(lambda o: _tangent_or_zero(trace, o), out)
    return out_p, out_t


def _tangent_or_zero(trace: ForwardTrace, o: Any) -> Any:
    t = trace.tangent_of(o)
    return S.zeros_like(trace.primal_of(o)) if t is None else t


def vectorize(fn: Callable, args: Sequence, in_axes: Sequence, out_axes: Any = 0) -> Any:
    """Map ``fn`` over axis ``in_axes[i]`` of each ``args[i]`` (None: not mapped) at once.
    ``out_axes`` is an int/None for every output leaf or a matching tuple."""
    from .batching import BatchTrace, VmapAxisError, check_axis

    for a, ax in zip(args, in_axes):
        if ax is not None:
            check_axis("in_axes", ax, a.shape, "an input of shape")
    sizes = [a.shape[ax] for a, ax in zip(args, in_axes) if ax is not None]
    if not sizes:
        raise VmapAxisError("For 'vmap', at least one input must be mapped (in_axes all "
                            "None).")
    for s in sizes[1:]:
        if s != sizes[0]:
            raise RuntimeError(f"The 'axis_size' of each argument in the scope of 'vmap' should "
                               f"be equal, but got {sizes[0]} and {s}.")
    trace = push_trace(BatchTrace(sizes[0]))
    try:
        targs = [a if ax is None else trace.new_tracer(_resolve(a), ax % a.ndim)
                 for a, ax in zip(args, in_axes)]
        out = fn(*targs)
    finally:
        pop_trace(trace)
    leaves, tree = flatten(out)
    axes = axes_per_leaf(out_axes, out, len(leaves))
    from ..core.tree import unflatten

    return unflatten(tree, [trace.value_at(x, ax) for x, ax in zip(leaves, axes)])


def axes_per_leaf(spec: Any, out: Any, n: int) -> list:
    """``out_axes`` spread over the ``n`` Tensor leaves of ``out`` (checked)."""
    from .batching import VmapAxisError, VmapAxisTypeError

    if spec is None or (isinstance(spec, int) and not isinstance(spec, bool)):
        return [spec] * n
    if not isinstance(spec, (tuple, list)):
        raise VmapAxisTypeError(f"For 'vmap', an out_axes entry must be an int, None, or a "
                                f"tuple or list of them, but got {spec!r}.")
    flat: list = []
    outs = out if isinstance(out, (tuple, list)) else (out,)
    if len(spec) != len(outs):
        raise VmapAxisError(f"For 'vmap', out_axes has {len(spec)} entries but the function "
                            f"returns {len(outs)} outputs.")
    for s, o in zip(spec, outs):
        flat.extend(axes_per_leaf(s, o, len(flatten(o)[0])))
    return flat
