"""``mindgrad.jit`` (MindSpore's ``mindspore.common.api``): compile a function (or method)
into a cached graph, in either mode; ``jit_class``; ``_pynative_executor.sync()``."""
from __future__ import annotations

import functools
from typing import Any, Callable

from .graph.function import GraphFunction
from .nn.cell import Cell
from .runtime import synchronize


class _Jit:
    """A compiled function; as a method decorator it binds ``self`` like a function."""

    _jit_compiled = True  # hooks refuse compiled functions (core.hooks.check_hook)

    def __init__(self, fn: Callable) -> None:
        self._graph = GraphFunction(fn, getattr(fn, "__name__", "jit"))
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any) -> Any:
        return self._graph(*args)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self
        return functools.partial(self._graph, obj)

    @property
    def graphs(self) -> list:
        """The generated source of every compiled variant (for inspection)."""
        return [v.source for vs in self._graph.cache.values() if isinstance(vs, list) for v in vs]


def jit(function: Callable | None = None, *, mode: str = "PSJit", input_signature: Any = None,
        **kwargs: Any) -> Any:
    """Compile ``function`` on its first call per input signature (usable as ``@jit`` or
    ``@jit(...)``). Calls inside another transformation are traced into it instead.

    Tensors and numeric NumPy arrays are inputs (keyed by shape and dtype); other arguments
    are constants keyed by value or held by the cache (see ``mindgrad.graph.function``).
    At most ``get_context("jit_cache_size")`` signatures stay compiled, least recently
    used dropped first; a RuntimeWarning naming the argument says, once, when the
    function keeps compiling for new ones."""
    if function is None:
        return lambda f: _Jit(f)
    return _Jit(function)


ms_function = jit


def jit_class(cls: type) -> type:
    """Mark a user-defined class whose instances are used inside compiled functions. mindgrad
    compiles by running Python, so any class's attributes and methods work there; the mark
    checks what MindSpore checks and returns the class unchanged."""
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    if issubclass(cls, Cell):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot be "
                        f"used for nn.Cell: {cls}.")
    cls.__ms_class__ = True
    return cls


class _PynativeExecutor:
    """The few members of MindSpore's ``_pynative_executor`` that user code calls."""

    def sync(self) -> None:
        """Wait until queued device work has finished (``runtime.synchronize``)."""
        synchronize()


_pynative_executor = _PynativeExecutor()
