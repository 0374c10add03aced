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
from ..core.following import outputs_of, pop_trace
from ..core.primitive import graph_tracing, push_trace, substitute, unsubstitute
from ..core.tree import flatten, tree_map
from ..prims import structural as S
from .inputs import param_primal, resolve
from .batching import VmapAxisError, VmapAxisTypeError, axes_per_leaf, check_axis, vectorize  # noqa: F401
from .forward import ForwardTrace
from .reverse import ReverseTrace


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
        else:  # a complex sensitivity in MindSpore's convention, into the engine's
            sens_leaves = [S.conj(s) if s is not None and S.dtype_of(s).kind == "c" else s
                           for s in sens_leaves]
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
    """Zeros for an input that received nothing; the gradient keeps the input's dtype. A
    complex input's gradient is conjugated to MindSpore's convention (``dL/da + i dL/db``;
    the engine's rules compute ``dL/da - i dL/db``, see ``prims/fft.py``)."""
    if ct is None:
        return S.zeros_like(like)
    if type(ct) is Tensor and type(like) is Tensor and ct._data.dtype == like._data.dtype:
        return ct if ct._data.dtype.kind != "c" else _to_mindspore(ct)
    want = S.dtype_of(like)
    if want.kind == "c":
        ct = _to_mindspore(ct)
    return ct if S.dtype_of(ct) == want else S.cast(ct, dtype=want)


def _to_mindspore(ct: Any) -> Any:
    """A complex cotangent in MindSpore's convention: the conjugate, with a zero imaginary
    part kept +0 (``+ 0j``, which graph passes do not fold, turns conj's -0 back), as
    MindSpore prints it."""
    return S.add(S.conj(ct), 0j)


def reverse(fn: Callable, args: Sequence, positions: Sequence[int],
            weights: Sequence[Parameter] = ()) -> Pullback:
    """Call ``fn(*args)`` differentiating args at ``positions`` and ``weights``."""
    trace = push_trace(ReverseTrace())
    saved = []
    try:
        new_args = list(args)
        arg_ids = []
        for i in positions:
            t = trace.new_tracer(resolve(args[i]))
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
                hit = fresh[id(p)] = (p, trace.new_tracer(param_primal(p)))
                if leaf_hooks and id(p) in leaf_hooks:
                    if trace.hooks is None:
                        trace.hooks = {}
                    trace.hooks[hit[1].idx] = leaf_hooks[id(p)]
            weight_ids.append(hit[1].idx)
        if fresh:
            saved = substitute(fresh.values())
        # a differentiated Parameter returned as (part of) the output (``return x * self.w,
        # self.w``), or a tensor following an assigned value, stands for its tracer, so that
        # output's cotangent reaches it; its substitution ends with the trace
        out = outputs_of(fn(*new_args), trace)
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


def forward(fn: Callable, primals: Sequence, tangents: Sequence) -> tuple[Any, Any]:
    """Return ``(fn(*primals), tangent of the output)``; outputs that do not depend on the
    inputs get zero tangents."""
    trace = push_trace(ForwardTrace())
    try:
        args = [trace.new_tracer(resolve(p), t) for p, t in zip(primals, tangents)]
        out = outputs_of(fn(*args), trace)
    finally:
        pop_trace(trace)
    out_p = tree_map(trace.primal_of, out)
    out_t = tree_map(lambda o: _tangent_or_zero(trace, o), out)
    return out_p, out_t


def _tangent_or_zero(trace: ForwardTrace, o: Any) -> Any:
    t = trace.tangent_of(o)
    return S.zeros_like(trace.primal_of(o)) if t is None else t


