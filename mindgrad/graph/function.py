"""Compile on first call: trace a function into a graph per input signature, optimize it,
generate a straight-line function over arrays and cache it. Later calls with the same
signature run only that function (after checking its guards).

The signature (cache key) of a call never depends on the identity of a value the user can
change or free:

- Tensors (and numeric NumPy arrays, which are passed to the function as Tensors) are
  inputs of the compiled function: their shape and dtype are in the key, their values are
  read on every call. A NumPy array of text or objects is a constant keyed by its contents.
- Python numbers, strings, None, NumPy scalars and dtypes are constants of the compiled
  function, keyed by value (``0.0`` and ``-0.0`` apart, every NaN alike); tuples, lists,
  dicts and sets are keyed by their contents.
- Any other object (a Cell, a function, the ``self`` of a ``jit`` method) is a constant
  keyed by the object itself: the cache holds a reference to it, so its ``id`` cannot be
  reused by a new object while the compiled version exists.

Each function keeps at most ``jit_cache_size`` signatures (``set_context``, default 64),
dropping the least recently used, and warns once, naming the argument, when it keeps
compiling for new signatures.

All threads share the compiled versions. Each thread traces with its own trace state, so
first calls on several threads at once each trace (and the last one's entry is kept)."""
from __future__ import annotations

import inspect
import os
import sys
import warnings
from collections import OrderedDict
from typing import Any, Callable

import numpy as np

from ..core import config
from ..core import fp_warnings
from ..core.tensor import Tensor
from ..core.following import pop_trace
from ..core.primitive import active, enter_graph, leave_graph, push_trace, tracing
from ..core.tree import LEAF, flatten, unflatten
from .codegen import GuardFail, generate
from .passes import optimize
from .trace import GraphTrace

EAGER = "eager"  # cache marker: this signature cannot be compiled, run it eagerly
MAX_VARIANTS = 8  # branches traced per signature before giving up on compiling it
RECOMPILE_WARNING = 10  # signatures compiled by one function before it warns (once)


class _Held:
    """A constant argument keyed by identity. The key holds the object, so while the
    cache entry exists no other object can take its ``id``."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: Any) -> bool:
        return type(other) is _Held and other.obj is self.obj


_ARRAY = "ndarray"  # key tag of a NumPy array argument (an input, like a Tensor)
_VALUE_TYPES = (int, bool, str, bytes, type(None), type(Ellipsis), np.dtype)


def _sig(a: Any) -> Any:
    """The part of the cache key for one argument (see the module docstring)."""
    if isinstance(a, Tensor):
        d = a._data
        return (d.shape, d.dtype, type(d))  # the array type: a graph is for one device
    if isinstance(a, np.ndarray):
        if a.dtype.kind in "biufc":
            return (_ARRAY, a.shape, a.dtype)
        # text or objects, which no Tensor holds: a constant, keyed by its contents
        return (np.ndarray, a.shape, a.dtype,
                tuple(_sig(v) for v in a.flat) if a.dtype.kind == "O" else a.tobytes())
    if isinstance(a, float):
        # 0.0 == -0.0 and nan != nan: key those by their text, so 1 / -0.0 is not served
        # 1 / 0.0's result and every NaN finds one compiled version
        return (type(a), a) if a == a and a != 0.0 else (type(a), repr(a))
    if isinstance(a, (tuple, list)):
        return (type(a), tuple(_sig(v) for v in a))
    if isinstance(a, dict):
        return (dict, tuple((k, _sig(v)) for k, v in a.items()))
    if isinstance(a, _VALUE_TYPES):
        return (type(a), a)
    if isinstance(a, np.generic):
        return (type(a), a.tobytes())  # exact bits: signed zeros and NaNs kept apart
    if isinstance(a, complex):
        return (complex, repr(a))
    if isinstance(a, (set, frozenset)):
        return (type(a), frozenset(_sig(v) for v in a))
    if isinstance(a, slice):
        return (slice, _sig(a.start), _sig(a.stop), _sig(a.step))
    return _Held(a)


def _has_array(key: Any) -> bool:
    if type(key) is tuple:
        if key and key[0] is _ARRAY:
            return True
        return any(_has_array(k) for k in key)
    return False


def _arrays_as_tensors(a: Any) -> Any:
    """``a`` with every numeric NumPy array (in tuples, lists and dicts too) made a Tensor."""
    if isinstance(a, np.ndarray):
        return Tensor(a) if a.dtype.kind in "biufc" else a
    if isinstance(a, (tuple, list)) and not isinstance(a, Tensor):
        items = [_arrays_as_tensors(v) for v in a]
        if hasattr(a, "_fields"):
            return type(a)(*items)
        return type(a)(items)
    if isinstance(a, dict):
        return type(a)((k, _arrays_as_tensors(v)) for k, v in a.items())
    return a


class Variants(list):
    """The compiled variants of one signature (one per traced branch of its guards)."""

    __slots__ = ("arrays",)

    def __init__(self, arrays: bool) -> None:
        super().__init__()
        self.arrays = arrays  # NumPy arrays among the arguments: pass them as Tensors


class Compiled:
    """One traced variant: the generated function and how to call it."""

    __slots__ = ("fn", "params", "assigned", "n_out", "out_tree", "source")

    def __init__(self, fn, params, assigned, n_out, out_tree, source) -> None:
        self.fn = fn
        self.params = params
        self.assigned = assigned
        self.n_out = n_out
        self.out_tree = out_tree
        self.source = source

    def run(self, arrays: list) -> Any:
        fp_warnings.ensure()  # NumPy's floating-point warnings stay silent (fp_warnings)
        if self.params:
            res = self.fn(*arrays, *[p._data for p in self.params])
        else:
            res = self.fn(*arrays)
        if self.assigned:
            for p, v in zip(self.assigned, res[self.n_out:]):
                p._data = v
        if self.out_tree is LEAF:
            return Tensor._wrap(res[0])
        return unflatten(self.out_tree, [Tensor._wrap(r) for r in res[:self.n_out]])


class GraphFunction:
    """Wraps ``fn`` so that top-level calls are traced, compiled and cached per signature.
    Calls made while another transformation is running simply call ``fn`` (it is then part
    of the enclosing trace).

    ``cache`` maps signatures to their compiled variants (or ``EAGER``), least recently
    used first; ``signature_of`` is the callable whose parameters name the arguments in
    the recompilation warning (``fn`` itself by default)."""

    __slots__ = ("fn", "cache", "name", "signature_of", "_compiles", "_last_key", "_changes",
                 "_warned", "__weakref__")

    def __init__(self, fn: Callable, name: str = "graph",
                 signature_of: Callable | None = None) -> None:
        self.fn = fn
        self.name = name
        self.signature_of = signature_of
        self.cache: OrderedDict = OrderedDict()
        self._compiles = 0  # signatures compiled so far (evicted ones included)
        self._last_key: tuple | None = None
        self._changes: list[int] = []  # per argument: compilations where it had changed
        self._warned = False

    def __call__(self, *args: Any, extra_key: Any = None) -> Any:
        if active and tracing():  # (``active`` first: the common case reads no thread state)
            return self.fn(*args)
        sigs = tuple(_sig(a) for a in args)
        key = (extra_key, sigs)
        cache = self.cache
        variants = cache.get(key)
        if variants is not None:
            try:
                cache.move_to_end(key)
            except KeyError:  # another thread dropped it meanwhile: the entry still works
                pass
            if variants is EAGER:
                return self.fn(*_arrays_as_tensors(args))
            if variants.arrays:
                args = _arrays_as_tensors(args)
            arrays = [t._data for t in flatten(args)[0]]
            for v in variants:
                try:
                    return v.run(arrays)
                except GuardFail:
                    continue
            if len(variants) >= MAX_VARIANTS:
                return self.fn(*args)
        else:
            self._note_compile(sigs, args)
            variants = Variants(_has_array(sigs))
            if variants.arrays:
                args = _arrays_as_tensors(args)
        out, compiled = self._trace(args)
        if compiled is None:
            cache[key] = EAGER
        else:
            variants.append(compiled)
            cache[key] = variants
        limit = config.state["jit_cache_size"]
        while len(cache) > limit:
            try:
                cache.popitem(last=False)
            except KeyError:  # emptied by another thread
                break
        return out

    def _note_compile(self, sigs: tuple, args: tuple) -> None:
        """Count a new signature; warn once when this function keeps recompiling, naming
        the argument that changed most often between compilations."""
        self._compiles += 1
        last = self._last_key
        self._last_key = sigs
        if last is not None and len(last) == len(sigs):
            changes = self._changes
            if len(changes) < len(sigs):
                changes.extend([0] * (len(sigs) - len(changes)))
            for i, (a, b) in enumerate(zip(last, sigs)):
                if a != b:
                    changes[i] += 1
        if self._warned or self._compiles < RECOMPILE_WARNING or not any(self._changes):
            return
        self._warned = True
        i = max(range(len(self._changes)), key=self._changes.__getitem__)
        warnings.warn(self._recompile_message(i, args[i] if i < len(args) else None),
                      RuntimeWarning, stacklevel=_user_stacklevel())

    def _recompile_message(self, i: int, value: Any) -> str:
        name = _argument_name(self.signature_of or self.fn, i)
        if isinstance(value, (Tensor, np.ndarray)):
            why = "its shape or dtype keeps changing (each new one is compiled)"
            fix = "give it fixed shapes (pad or bucket the inputs)"
        elif isinstance(value, (int, float, complex, np.generic)):
            kind = "NumPy" if isinstance(value, np.generic) else "Python"
            why = (f"a {kind} {type(value).__name__} is a constant of the compiled function, "
                   f"so each new value is compiled again")
            fix = "pass it as a Tensor (ms.Tensor(value)) to compile once"
        else:
            why = (f"{type(value).__name__} values are constants of the compiled function, "
                   f"so each new one is compiled again")
            fix = "pass the values that change as Tensors"
        return (f"'{self.name}' was compiled {self._compiles} times: argument {name} changed "
                f"in {self._changes[i]} of them; {why}. To avoid this, {fix}. Only the "
                f"{config.state['jit_cache_size']} most recently used compiled "
                f"versions are kept (set_context(jit_cache_size=...)).")

    def fast_call(self, key: Any, arrays: list) -> Any:
        """Run the first cached variant for ``key`` (used by benchmarks to see overhead)."""
        return self.cache[key][0].run(arrays)

    def _trace(self, args: tuple) -> tuple[Any, Compiled | None]:
        trace = GraphTrace()
        push_trace(trace)
        enter_graph(trace)
        try:
            leaves, tree = flatten(args)
            targs = unflatten(tree, [trace.new_input(t._data) for t in leaves])
            out = self.fn(*targs)
            out_leaves, out_tree = flatten(out)
            out_vars = [trace.lift(o).var for o in out_leaves]
        finally:
            leave_graph(trace)
            pop_trace(trace)
        for param, var in trace.assigns.values():
            param._data = trace.vals[var]
        result = unflatten(out_tree, [Tensor._wrap(trace.vals[v]) for v in out_vars])
        if trace.opaque:
            return result, None
        assigned = list(trace.assigns.values())
        eqns, outs = optimize(trace, out_vars + [v for _, v in assigned])
        used = {o for e in eqns for o in e[2] if isinstance(o, int)} | set(outs)
        params = [(v, p) for v, p in trace.params if v in used]
        fn, source = generate(trace, eqns, outs, [v for v, _ in params], self.name)
        return result, Compiled(fn, [p for _, p in params], [p for p, _ in assigned],
                                len(out_vars), out_tree, source)


def _user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning raised here at the first caller outside
    mindgrad (``jit``, ``Cell.__call__`` and bound-method calls add different depths)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frame, level = sys._getframe(2), 2  # 1: the function that warns, 2: its caller
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame, level = frame.f_back, level + 1
    return level


def _argument_name(fn: Callable, i: int) -> str:
    """``'name'`` of positional argument ``i`` of ``fn`` (``'args[2]'`` for a ``*args``
    one), or its position when the signature cannot be read."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return f"{i}"
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if i < len(positional):
        return f"{i} ('{positional[i].name}')"
    star = [p for p in params if p.kind is p.VAR_POSITIONAL]
    if star:
        return f"{i} ('{star[0].name}[{i - len(positional)}]')"
    return f"{i}"
