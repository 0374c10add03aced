"""Tensors that follow a traced value assigned into them.

``y = ops.zeros(3); y[0] = f(x)`` inside ``grad`` (or ``jvp``, ``jet``, nested, compiled):
``y`` was made without the traced inputs, so the derivative trace does not see it, yet the
assignment gives it a value that depends on them. MindSpore differentiates through such
assignments in both modes; here the tensor follows the traced value while the trace runs:

- the tensor takes the value beneath every derivative trace at once (its array, the graph's
  value under GRAPH-mode tracing, or the fields of the outer tracer it is), so in PYNATIVE
  mode reads that do not go through an operation (``asnumpy``, ``shape``, printing) see the
  new value and it keeps that value when the transformation returns, as an in-place
  assignment would; in GRAPH mode a constant gets its array back then, as after a compiled
  call (MindSpore does the same in both modes);
- the traced value stands for it on this thread (``state.subs``, the table differentiated
  Parameters use, with the same dispatch marker): every operation on the tensor reads the
  traced value, so gradients flow through the assignment;
- when a trace ends (`pop_trace`), each such tensor goes one level down: it stands for the
  traced value's own value beneath, and when none is left above the tensor's own level its
  marker is removed.

Uses of the tensor before the assignment keep their old value (``before_change``). A
transformation reads its outputs through `outputs_of` before its trace ends, so a tensor
returned as an output carries its derivative out.

vmap (and the forward Laplacian) hold a value per example, which one tensor cannot take:
beneath a derivative trace the tensor follows the batched value while the vmap runs and
keeps its old array (``grad`` inside ``vmap``, the assignment inside the gradient); a
batched value assigned into a constant tensor at the vmap's own level is refused by
``rebind_error``'s TypeError."""
from __future__ import annotations

from typing import Any

from . import mutation
from .mutation import before_change
from .primitive import SUBSTITUTED, Tracer, _slot_names, _subs_lock
from .config import is_graph_mode
from .state import graph_tracing, pop_trace as _pop_trace, state
from .tensor import Tensor
from .tree import tree_map

# One entry per tensor following a traced value on any thread; while it is empty (nearly
# always) ending a trace does not look at the thread's records.
_following: list = []


class _Record:
    """A tensor following a traced value on this thread: ``own`` is the trace the tensor
    itself belongs to (None for a constant), ``base`` the value it took at that level, or
    (``held``) the batched value it follows until that value's vmap ends; ``outer`` keeps
    what it followed before that vmap (``(value, base, held)`` entries), ``original`` a
    constant's array before its first assignment."""

    __slots__ = ("target", "own", "base", "held", "outer", "original")

    def __init__(self, target: Tensor, own: Any, original: Any) -> None:
        self.target = target
        self.own = own
        self.base = None
        self.held = False
        self.outer: list = []
        self.original = original


def follow(target: Tensor, new: Tensor) -> bool:
    """Let ``target`` (a constant tensor, or a tracer of an outer trace) follow ``new``, the
    result of an assignment into it traced by a derivative trace that does not see it.
    Returns False where that is not possible (a vmap value; the caller raises)."""
    recs = state.following
    rec = recs.get(id(target))
    if rec is not None and rec.target is not target:
        rec = None
    if rec is not None:
        own = rec.own
    elif target._trace is SUBSTITUTED:  # a constant another thread lets follow its values
        if isinstance(target, Tracer):
            return False
        own = None
    else:
        own = target._trace
    graph = graph_tracing()
    base, held = new, False
    while True:  # down the traced value's levels to the one the target lives at
        t = getattr(base, "_trace", None)
        if t is own or t is None or (own is None and t is graph):
            break
        if not getattr(t, "follows_assignments", False):
            held = True  # a batched value: followed, never taken
            if base is new and (rec is None or not rec.held):
                return False  # a constant given a batched value at the vmap's own level
            break
        base = base.__lower__()
    if own is not None and not held and (getattr(base, "_trace", None) is not own
                                         or type(base) is not type(target)):
        return False  # an outer tracer given a value its own trace does not see
    before_change(target)  # uses recorded so far keep the old value
    original = target._data if rec is None and own is None else None
    if not held:
        _take(target, base, own, graph)
    subs = state.subs
    with _subs_lock:
        if base is new and (rec is None or not rec.held):
            if rec is not None:  # nothing above the target's own level: it stops following
                _release(rec)
            return True
        if rec is None:
            rec = recs[id(target)] = _Record(target, own, original)
            _following.append(None)
            target._subs = getattr(target, "_subs", 0) + 1
        elif held and not (rec.held and rec.base._trace is base._trace):
            # a vmap's value over what it followed outside that vmap: kept for its end
            rec.outer.append((subs[id(target)], rec.base, rec.held))
        target._trace = SUBSTITUTED  # (a tracer's fields, just taken, include its trace)
        rec.base = base
        rec.held = held
        subs[id(target)] = new
    return True


def _take(target: Tensor, base: Any, own: Any, graph: Any) -> None:
    """``target`` takes ``base``, its new value at its own level."""
    if own is not None:  # a tracer: the fields of the tracer holding the new value
        for name in _slot_names(type(target)):
            setattr(target, name, getattr(base, name))
        return
    if base._trace is None:
        target._data = base._data
    else:  # the GRAPH-mode trace records the value under the tensor's identity
        graph.rebind(target, base)


def pop_trace(trace: Any) -> None:
    """End ``trace`` (``state.pop_trace``); tensors following one of its values go one level
    down."""
    _pop_trace(trace)
    if _following:
        _settle(trace)


def _settle(trace: Any) -> None:
    recs = state.following
    if not recs:
        return
    subs = state.subs
    with _subs_lock:
        for key, rec in list(recs.items()):
            value = subs[key]
            while value is not rec.base and getattr(value, "_trace", None) is trace:
                value = value.__lower__()
            if value is rec.base and rec.held and value._trace is trace and rec.outer:
                subs[key], rec.base, rec.held = rec.outer.pop()  # back outside the vmap
            elif value is rec.base and (not rec.held or value._trace is trace):
                _release(rec)
            else:
                subs[key] = value


def _release(rec: _Record) -> None:
    """``rec``'s tensor stops following (under ``_subs_lock``)."""
    target = rec.target
    del state.subs[id(target)]
    del state.following[id(target)]
    _following.pop()
    target._subs -= 1
    if target._subs:
        return
    if isinstance(target, Tracer):
        target._trace = rec.own
        return
    target.__dict__.pop("_trace", None)  # back to the class's None
    if is_graph_mode():
        # GRAPH mode runs the function as a compiled call, which leaves a constant's array
        # as it was (MindSpore's too); the values it followed were the graph's
        target._data = rec.original


def outputs_of(out: Any, trace: Any) -> Any:
    """``out`` with each tensor that stands for a value of ``trace`` on this thread (a
    differentiated Parameter, or a tensor following an assigned value) replaced by that
    value: what a transformation reads as its outputs before ``trace`` ends."""
    subs = state.subs
    if not subs:
        return out

    def swap(o: Any) -> Any:
        if getattr(o, "_trace", None) is SUBSTITUTED:
            sub = subs.get(id(o))
            if sub is not None and getattr(sub, "_trace", None) is trace:
                return sub
        return o

    if isinstance(out, Tensor):
        return swap(out)
    return tree_map(swap, out)


mutation.follow = follow
