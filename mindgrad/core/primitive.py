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

    def __bool__(self) -> bool:
        return bool(self.__lower__())

    def __float__(self) -> float:
        return float(self.__lower__())

    def __int__(self) -> int:
        return int(self.__lower__())

    def __index__(self) -> int:
        return int(self.__lower__())


def _active(trace: Trace) -> bool:
    return trace.level < len(state.stack) and state.stack[trace.level] is trace


class Standing:
    """What a tensor turns into when ``x[index] = value`` gives it a traced value of a kind
    its own type cannot hold (``y = ops.zeros(3); y[0] = f(x)`` inside ``grad``: a plain
    tensor, or a GRAPH-mode tracer, meets a reverse-mode tracer). An object's type can only
    change to one with the same layout, so each tensor type gets a subclass with this mixin
    (``standing_class``): the tensor then stands for the tracer in ``_bound``, and what
    traces read from an argument (``_trace``, ``_data``, ``primal``, ``idx``, ...) comes from
    that tracer while its trace runs. Once the trace has ended, the first read lowers it to
    the value beneath and, when that has the tensor's own type, the tensor takes its form
    back (as a transformation's outputs are lowered)."""

    __slots__ = ()

    @property
    def _trace(self):
        return self._live()._trace

    @property
    def _data(self):
        return self._live()._data

    def __getattr__(self, name: str) -> Any:
        if name == "_bound":  # not set: nothing to stand for
            raise AttributeError(name)
        return getattr(self._live(), name)

    def _live(self) -> Tensor:
        t = self._bound
        while isinstance(t, Tracer) and not _active(t._trace):
            t = t.__lower__()
        if type(t) is type(self).__mro__[2]:
            take_form(self, t)
            return self
        self._bound = t
        return t


_STANDING: dict = {}


def standing_class(cls: type) -> type:
    """The Standing subclass of tensor type ``cls`` (same layout, so an object may switch)."""
    sub = _STANDING.get(cls)
    if sub is None:
        sub = _STANDING[cls] = type("Standing" + cls.__name__, (Standing, cls),
                                    {"__slots__": (), "__module__": __name__})
    return sub


def _fields(cls: type) -> list:
    """The storage descriptors of a tensor type: every slot of it and its bases."""
    return [c.__dict__[n] for c in cls.__mro__ for n in c.__dict__.get("__slots__", ())
            if n not in ("__weakref__", "_bound")]


def take_form(target: Tensor, new: Tensor) -> None:
    """Make ``target`` hold ``new`` (the result of an assignment into it): it takes over
    ``new``'s fields where ``new`` has its own type (for a tracer, of the same trace); it
    stands for ``new`` otherwise."""
    base = type(target).__mro__[2] if isinstance(target, Standing) else type(target)
    # (a Standing target's binding has ended by the time a value of its own type reaches it)
    if type(new) is base and (not isinstance(new, Tracer) or isinstance(target, Standing)
                              or new._trace is target._trace):
        for slot in _fields(base):
            try:
                slot.__set__(target, slot.__get__(new))
            except AttributeError:  # a slot the new value never set
                pass
        target.__class__ = base
        return
    for slot in _fields(base):  # emptied, so that reads of them reach the tracer it stands for
        try:
            slot.__delete__(target)
        except AttributeError:
            pass
    target.__class__ = standing_class(base)
    target._bound = new


def unbound(out: Any) -> Any:
    """A transformation's output with each Standing tensor replaced by the tracer it stands
    for, read while the trace still runs (after it, the tensor turns back into its value)."""
    if isinstance(out, Standing):
        return out._bound
    if isinstance(out, (tuple, list, dict)):
        from .tree import tree_map

        return tree_map(lambda o: o._bound if isinstance(o, Standing) else o, out)
    return out


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
