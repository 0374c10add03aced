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

import sys
import threading
from typing import Any, Callable, Iterable, Sequence

import warnings as _warnings

from . import fp_warnings as _fp_warnings
from . import device as _device
from . import mutation as _mutation
from .hooks import add_leaf_hook
from .mutation import before_change, rebind_error
from .state import (active, enter_graph, graph_tracing, graphs, leave_graph,  # noqa: F401
                    push_trace, state, tracing)
from .tensor import Tensor


class Primitive:
    """An operation with all of its rules."""

    __slots__ = ("name", "impl", "vjp", "vjp_all", "jvp", "jvp_all", "batch", "taylor",
                 "expr", "multiple_results", "nondiff", "effect", "hints")

    def __init__(self, name: str, impl: Callable, *, expr: str | None = None,
                 multiple_results: bool = False, nondiff: bool = False,
                 effect: bool = False, register: bool = True,
                 hints: dict | None = None) -> None:
        if register:
            if name in _registry:
                raise ValueError(f"A primitive named {name!r} is already registered "
                                 f"({_registry[name]!r}); primitive names are unique.")
            _registry[name] = self
        self.name = name
        self.impl = impl
        self.expr = expr  # optional inline Python template for graph code generation
        self.multiple_results = multiple_results
        self.nondiff = nondiff  # outputs carry no gradient (comparisons, argmax, ...)
        self.effect = effect  # random or stateful: never folded, merged or removed
        # What graph passes may assume of it (``graph/passes.py`` reads them; see
        # docs/ARCHITECTURE.md): "shape_only", "identity", "neutral", "commutative",
        # "graph_identity", "value_shape", "guard", "weak_scalar"; and the reverse pass
        # (``ad/reverse.py``) reads "collective": run the reverse rule even when no
        # cotangent reaches the outputs (every rank must run the same collectives).
        self.hints = hints or {}
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


_registry: dict[str, Primitive] = {}


def registered() -> dict[str, Primitive]:
    """Every primitive defined so far, by name (what the primitive test table walks).
    Primitives made per call (``register=False``: a custom VJP, a test's throwaway) are not
    listed."""
    return dict(_registry)


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

    def register_hook(self, tracer: Any, fn: Callable) -> Any:
        """``Tensor.register_hook`` on one of this trace's tracers: a trace that computes
        no gradients passes it to the value beneath."""
        return Tensor.register_hook(tracer.__lower__(), fn)


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
            # a value of an inner trace: this tracer follows it (``core.following``)
            if _mutation.follow is not None and _mutation.follow(self, new):
                return
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


def snapshot(obj: Tensor) -> Tensor:
    """A new object holding ``obj``'s present value (arrays are never written in place, so
    sharing them is safe): a tracer's fields copied, a plain value wrapped again, or, while
    a GRAPH-mode function is traced, the graph's present value of it."""
    if isinstance(obj, Tracer):
        copy = object.__new__(type(obj))
        for name in _slot_names(type(obj)):
            setattr(copy, name, getattr(obj, name))
        return copy
    graph = graph_tracing()
    if graph is not None and hasattr(graph, "lift"):
        return graph.lift(obj)
    return Tensor._wrap(obj._data)


class _Substituted(Trace):
    """The ``_trace`` of a Parameter that a thread differentiates with respect to (as a
    weight): every operation on it comes here first, which swaps in the tracer standing
    for it on this thread (`state.subs`; a thread that does not differentiate it sees its
    plain value) and hands the operation to the innermost trace left."""

    __slots__ = ()

    def process(self, prim: Primitive, args: Sequence, params: dict) -> Any:
        subs = state.subs
        resolved = []
        top = None
        for a in args:  # `_resolve_params` and `find_top_trace` in one pass
            t = getattr(a, "_trace", None)
            if t is self:
                a = subs.get(id(a), a)
                t = getattr(a, "_trace", None)
                if t is self:  # not differentiated on this thread: its plain value
                    t = None
            if t is not None and (top is None or t.level > top.level):
                top = t
            resolved.append(a)
        args = resolved
        if top is None:
            top = graph_tracing()
            if top is None:
                return eager(prim, args, params)
        return top.process(prim, args, params)


    def register_hook(self, tensor: Any, fn: Callable) -> Any:
        """A hook on a tensor that stands for a tracer on this thread (a differentiated
        Parameter, a tensor following an assigned value) goes on that tracer, so it sees
        the gradient computed there; on another thread the tensor is a leaf."""
        sub = state.subs.get(id(tensor))
        if sub is not None:
            return Tensor.register_hook(sub, fn)
        return add_leaf_hook(tensor, fn)


SUBSTITUTED = _Substituted()
SUBSTITUTED.level = sys.maxsize  # chosen before every real trace, which it then finds
_subs_lock = threading.Lock()


def substitute(pairs: Iterable[tuple[Tensor, Tensor]]) -> list:
    """Let each ``(param, tracer)``'s tracer stand for its Parameter on this thread until
    `unsubstitute` is given the list returned: ``(param, previous)`` pairs, ``previous``
    being what stood for it before (an outer transformation's tracer) or None."""
    subs = state.subs
    saved = []
    with _subs_lock:  # the count and the mark change together, whatever other threads do
        for param, tracer in pairs:
            previous = subs.get(id(param))
            if previous is None:
                param._subs += 1
                param._trace = SUBSTITUTED
            subs[id(param)] = tracer
            saved.append((param, previous))
    return saved


def unsubstitute(saved: list) -> None:
    """Undo `substitute`."""
    subs = state.subs
    with _subs_lock:
        for param, previous in reversed(saved):
            if previous is not None:
                subs[id(param)] = previous
                continue
            del subs[id(param)]
            param._subs -= 1
            if not param._subs:
                param._trace = None


def substitution(param: Tensor) -> Tensor | None:
    """The tracer standing for ``param`` on this thread, if any."""
    return state.subs.get(id(param)) if param._subs else None


def _resolve_params(args: Sequence) -> Sequence:
    """Replace Parameters that stand for a tracer on this thread by that tracer."""
    subs = state.subs
    if not subs:
        return args
    return tuple(subs.get(id(a), a) if getattr(a, "_trace", None) is SUBSTITUTED else a
                 for a in args)


def bind(prim: Primitive, args: Sequence, params: dict) -> Any:
    """Apply ``prim`` to ``args``: through the innermost trace involved, or eagerly."""
    top = None
    for a in args:
        t = getattr(a, "_trace", None)
        if t is not None and (top is None or t.level > top.level):
            top = t
    if top is None:
        if not graphs:
            return eager(prim, args, params)
        top = state.dynamic
        if top is None:
            return eager(prim, args, params)
    return top.process(prim, args, params)


def eager(prim: Primitive, args: Sequence, params: dict) -> Any:
    if _warnings.filters is not _fp_warnings.installed_in:
        _fp_warnings.install()  # NumPy's floating-point warnings stay silent (fp_warnings)
    arrays = [a._data if isinstance(a, Tensor) else a for a in args]
    if _device.mixed:
        _device.check_same_device(prim.name, arrays)
    try:
        out = prim.impl(*arrays, **params)
    except TypeError as e:
        # NumPy's refusal of a dtype ("ufunc 'floor_divide' not supported for the input
        # types", "array type float16 is unsupported in linalg") names no operation
        if str(e).startswith("For '"):
            raise
        dtypes = ", ".join(str(a.dtype) for a in args if isinstance(a, Tensor))
        raise TypeError(f"For '{prim.name}', inputs of dtype {dtypes} are not supported: "
                        f"{e}") from None
    except OverflowError as e:  # a Python int out of an integer tensor's range (NumPy 2)
        raise ValueError(f"For '{prim.name}', {e}.") from None
    if prim.multiple_results:
        return tuple(_wrap(o) for o in out)
    t = _new(Tensor)
    t._data = out
    return t


_wrap = Tensor._wrap
_new = object.__new__


def find_top_trace(args: Sequence) -> Trace | None:
    """The innermost trace of ``args``' tracers (Parameters already resolved)."""
    top = None
    for a in args:
        t = getattr(a, "_trace", None)
        if t is not None and t is not SUBSTITUTED and (top is None or t.level > top.level):
            top = t
    return top


def custom_vjp_call(fun: Callable, bwd: Callable, args: Sequence, name: str) -> Any:
    """Call ``fun(*args)`` whose reverse rule is ``bwd(args, out, dout) -> grads``.

    Reverse-mode traces record ``bwd`` instead of differentiating ``fun``; every other
    transformation sees the operations of ``fun`` as usual. A Parameter differentiated as
    a weight stands for its tracer here as in ``bind``: its trace is the one that records
    the call, and ``bwd``'s cotangent for it reaches the weight."""
    traced = _resolve_params(args)
    top = find_top_trace(traced)
    if top is None or not hasattr(top, "process_custom_vjp"):
        return fun(*args)  # each operation of fun resolves its Parameters through bind
    return top.process_custom_vjp(fun, bwd, traced, name)
