"""The one dispatch point: every operation is ``bind(prim, args, params)``.

``bind`` hands the operation to the innermost active transformation (trace) whose tracers
appear among the arguments; with none, it runs the primitive's NumPy/CuPy implementation at
once (PYNATIVE). Traces nest: each has a level, and a trace lowers its work to the levels
below by calling ``bind`` again, so grad-of-grad, jvp-of-grad and graph tracing compose
without special cases.

A primitive keeps all of its rules on itself, registered next to its definition:
``impl`` (arrays in, array out), ``vjp`` (one rule per input, written in differentiable
operations; or ``vjp_all``, one rule for all inputs when they share work, which may leave a
cotangent ``Deferred`` so that it is formed only for an input that needs it), ``jvp`` (one
rule per input, or a whole-primitive rule), ``batch`` (vmap) and ``taylor`` (jet).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..common.tensor import Tensor


class Primitive:
    """An operation with all of its rules."""

    __slots__ = ("name", "impl", "vjp", "vjp_all", "jvp", "jvp_all", "batch", "taylor",
                 "expr", "multiple_results", "nondiff", "effect")

    def __init__(self, name: str, impl: Callable, *, expr: str | None = None,
                 multiple_results: bool = False, nondiff: bool = False,
                 effect: bool = False) -> None:
        self.name = name
        self.impl = impl
        self.expr = expr  # optional inline Python template for graph code generation
        self.multiple_results = multiple_results
        self.nondiff = nondiff  # outputs carry no gradient (comparisons, argmax, ...)
        self.effect = effect  # random or stateful: never folded, merged or removed
        self.vjp: tuple | None = None
        self.vjp_all: Callable | None = None
        self.jvp: tuple | None = None
        self.jvp_all: Callable | None = None
        self.batch: Callable | None = None
        self.taylor: Callable | None = None

    def __call__(self, *args: Any, **params: Any) -> Any:
        return bind(self, args, params)

    def __repr__(self) -> str:
        return f"Primitive({self.name})"


class Deferred:
    """A cotangent that a whole-primitive reverse rule (``vjp_all``) leaves uncomputed
    because its work is not shared with the others: the reverse pass calls ``fn()`` only when
    that input needs a cotangent, so a constant operand (``x / c``) costs nothing."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn


class MissingRuleError(NotImplementedError):
    pass


def missing_rule(prim: Primitive, transform: str) -> MissingRuleError:
    return MissingRuleError(f"The operation {prim.name} has no {transform} rule, so it cannot be "
                            f"differentiated by {transform}.")


# --- the trace stack -------------------------------------------------------------------------

class Trace:
    """Base class of transformations. ``level`` orders nested traces (higher is inner)."""

    __slots__ = ("level",)

    def process(self, prim: Primitive, args: Sequence, params: dict) -> Any:
        raise NotImplementedError

    def unpack(self, args: Sequence, field: str | None) -> tuple[list, list]:
        """Split arguments into the values beneath this trace (a tracer's ``primal``) and,
        for this trace's tracers, their ``field`` (the tracer itself when None); other
        arguments get None there."""
        lower, extra = [], []
        for a in args:
            if getattr(a, "_trace", None) is self:
                lower.append(a.primal)
                extra.append(a if field is None else getattr(a, field))
            else:
                lower.append(a)
                extra.append(None)
        return lower, extra


class _State:
    __slots__ = ("stack", "dynamic", "substituted")

    def __init__(self) -> None:
        self.stack: list[Trace] = []
        # The graph trace while a GRAPH-mode function is being traced: operations whose
        # arguments hold no tracer (constants, Parameters) are recorded by it too.
        self.dynamic: Trace | None = None
        self.substituted = 0  # how many Parameters currently stand for a tracer


state = _State()


def push_trace(trace: Trace) -> Trace:
    trace.level = len(state.stack)
    state.stack.append(trace)
    return trace


def pop_trace(trace: Trace) -> None:
    top = state.stack.pop()
    assert top is trace, "trace stack corrupted"


def enter_graph(trace: Trace) -> None:
    """Make ``trace`` (already pushed) the GRAPH-mode trace that also records operations on
    constants and Parameters."""
    state.dynamic = trace


def leave_graph(trace: Trace) -> None:
    state.dynamic = None


def tracing() -> bool:
    """Whether a transformation (or GRAPH-mode tracing) is running."""
    return bool(state.stack) or state.dynamic is not None


class Tracer(Tensor):
    """A value seen by a trace. Its ``_data`` is the concrete array underneath (metadata only:
    shape and dtype), so every Tensor method works on tracers unchanged."""

    __slots__ = ("_trace",)

    @property
    def _data(self):  # type: ignore[override]
        raise NotImplementedError  # each tracer type gives its concrete array

    def asnumpy(self):
        return self.__lower__().asnumpy()

    def __lower__(self) -> Tensor:
        raise NotImplementedError

    def _assigned(self, name: str) -> Tensor:
        """What Parameter ``name`` keeps when ``set_data`` gives it this value: the value
        beneath (a derivative trace's values carry no state of their own)."""
        return self.__lower__()

    def _become(self, new: Tensor) -> None:
        """``x[index] = value`` on a tracer: take over the fields of the result (a tracer of
        the same trace), so this object stays the one the trace and the user hold."""
        if type(new) is not type(self) or new._trace is not self._trace:
            from ..common.tensor import rebind_error

            raise rebind_error(self, new)
        before_change(self)
        for name in _slot_names(type(self)):
            setattr(self, name, getattr(new, name))

    def __bool__(self) -> bool:
        return bool(self.__lower__())

    def __float__(self) -> float:
        return float(self.__lower__())

    def __int__(self) -> int:
        return int(self.__lower__())

    def __index__(self) -> int:
        return int(self.__lower__())


_SLOTS: dict = {}


def _slot_names(cls: type) -> tuple:
    """The fields a tracer type keeps (its slots and its bases', less Tensor's own)."""
    names = _SLOTS.get(cls)
    if names is None:
        names = _SLOTS[cls] = tuple(n for c in cls.__mro__ if issubclass(c, Tracer)
                                    for n in c.__dict__.get("__slots__", ()))
    return names


def before_change(obj: Tensor) -> None:
    """Call just before ``obj`` takes a new value in place (``x[i] = v``, ``set_data``): the
    running traces that recorded ``obj`` itself as an operand (reverse mode's residuals)
    keep the value it has now, so an assignment after a use does not change that use's
    gradient."""
    for trace in state.stack:
        keep = getattr(trace, "keep_value", None)
        if keep is not None:
            keep(obj)


def snapshot(obj: Tensor) -> Tensor:
    """A new object holding ``obj``'s present value (arrays are never written in place, so
    sharing them is safe): a tracer's fields copied, a plain value wrapped again, or, while
    a GRAPH-mode function is traced, the graph's present value of it."""
    if isinstance(obj, Tracer):
        copy = object.__new__(type(obj))
        for name in _slot_names(type(obj)):
            setattr(copy, name, getattr(obj, name))
        return copy
    graph = state.dynamic
    if graph is not None and hasattr(graph, "lift"):
        return graph.lift(obj)
    return Tensor._wrap(obj._data)


def _resolve_params(args: Sequence) -> tuple:
    """Replace Parameters that currently stand for a tracer by that tracer."""
    return tuple(a._sub if getattr(a, "_sub", None) is not None else a for a in args)


def bind(prim: Primitive, args: Sequence, params: dict) -> Any:
    """Apply ``prim`` to ``args``: through the innermost trace involved, or eagerly."""
    top = None
    for a in args:
        t = getattr(a, "_trace", None)
        if t is not None and (top is None or t.level > top.level):
            top = t
    if top is None:
        top = state.dynamic
        if top is None:
            return eager(prim, args, params)
    if state.substituted:
        args = _resolve_params(args)
    return top.process(prim, args, params)


def eager(prim: Primitive, args: Sequence, params: dict) -> Any:
    out = prim.impl(*[a._data if isinstance(a, Tensor) else a for a in args], **params)
    if prim.multiple_results:
        return tuple(_wrap(o) for o in out)
    t = _new(Tensor)
    t._data = out
    return t


_wrap = Tensor._wrap
_new = object.__new__


def find_top_trace(args: Sequence) -> Trace | None:
    top = None
    for a in args:
        t = getattr(a, "_trace", None)
        if t is not None and (top is None or t.level > top.level):
            top = t
    return top


def custom_vjp_call(fun: Callable, bwd: Callable, args: Sequence, name: str) -> Any:
    """Call ``fun(*args)`` whose reverse rule is ``bwd(args, out, dout) -> grads``.

    Reverse-mode traces record ``bwd`` instead of differentiating ``fun``; every other
    transformation sees the operations of ``fun`` as usual. A Parameter differentiated as
    a weight stands for its tracer here as in ``bind``: its trace is the one that records
    the call, and ``bwd``'s cotangent for it reaches the weight."""
    traced = _resolve_params(args) if state.substituted else args
    top = find_top_trace(traced)
    if top is None or not hasattr(top, "process_custom_vjp"):
        return fun(*args)  # each operation of fun resolves its Parameters through bind
    return top.process_custom_vjp(fun, bwd, traced, name)
