"""MindSpore's structure helpers from ``ops.composite``: ``MultitypeFuncGraph`` (a function
chosen by the types of its arguments), ``HyperMap`` (map over nested tuples and lists),
``Map`` (map over one level) and ``partial``. Custom optimizers are written with them:
``hyper_map(F.partial(_update, lr), grads, params)``."""
from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from ..core.tensor import Tensor

# The names a registration may use, from the most to the least specific, per argument kind.
_BOOL, _INT, _FLOAT = ("Bool", "Number"), ("Int", "Number"), ("Float", "Number")


def _type_names(value: Any) -> tuple:
    """MindSpore's type names that ``value`` matches, most specific first."""
    if isinstance(value, Tensor):
        return ("Tensor",)
    if isinstance(value, (bool, np.bool_)):
        return _BOOL
    if isinstance(value, (int, np.integer)):
        return _INT
    if isinstance(value, (float, np.floating)):
        return _FLOAT
    if isinstance(value, str):
        return ("String",)
    if value is None:
        return ("None",)
    if isinstance(value, tuple):
        return ("Tuple",)
    if isinstance(value, list):
        return ("List",)
    if isinstance(value, dict):
        return ("Dictionary",)
    if callable(value):
        return ("Function",)
    return (type(value).__name__,)


class MultitypeFuncGraph:
    """A function with one implementation per argument-type signature::

        add = MultitypeFuncGraph("add")

        @add.register("Tensor", "Number")
        def _(x, y): ...

    A call runs the registration whose names all match the arguments' types, preferring
    one that matches each argument by its most specific name (``Int`` before
    ``Number``)."""

    def __init__(self, name: str, read_value: bool = False) -> None:
        if not isinstance(name, str):
            raise TypeError(f"For 'MultitypeFuncGraph', 'name' must be a str, but got "
                            f"{type(name).__name__}.")
        self.name = name
        self.read_value = read_value
        self.entries: list[tuple[tuple, Callable]] = []

    def register(self, *type_names: Any) -> Callable:
        """Register the decorated function for arguments of ``type_names``."""
        names = tuple(getattr(t, "__name__", t) if not isinstance(t, str) else t
                      for t in type_names)

        def deco(fn: Callable) -> Callable:
            self.entries.append((names, fn))
            return fn

        return deco

    def __call__(self, *args: Any) -> Any:
        kinds = [_type_names(a) for a in args]
        fallback = None
        for names, fn in self.entries:
            if len(names) != len(args):
                continue
            if all(n == k[0] for n, k in zip(names, kinds)):
                return fn(*args)
            if fallback is None and all(n in k for n, k in zip(names, kinds)):
                fallback = fn
        if fallback is not None:
            return fallback(*args)
        got = ", ".join(k[0] for k in kinds)
        known = "; ".join("(" + ", ".join(n) + ")" for n, _ in self.entries) or "none"
        raise ValueError(f"For 'MultitypeFuncGraph' '{self.name}', no registered function "
                         f"matches the argument types ({got}); registered: {known}.")


def _map_level(who: str, fn: Callable, seqs: tuple, recurse: bool) -> Any:
    """Apply ``fn`` across the sequences ``seqs`` element by element (recursing into nested
    tuples and lists when ``recurse``). The first argument decides: when it is a leaf, ``fn``
    gets the arguments as they are, sequences among them included (as MindSpore does, so a
    ``MultitypeFuncGraph`` registered for ``("Tensor", "Tuple")`` sees the tuple)."""
    first = seqs[0]
    if not isinstance(first, (tuple, list)):
        return fn(*seqs)
    for s in seqs[1:]:
        if not isinstance(s, (tuple, list)):
            raise TypeError(f"For '{who}', the first input is a sequence, so every input must "
                            f"be one, but got {[type(x).__name__ for x in seqs]}.")
        if len(s) != len(first):
            raise ValueError(f"For '{who}', the sequences must have the same length, but got "
                             f"lengths {[len(x) if isinstance(x, (tuple, list)) else None for x in seqs]}.")
    if recurse:
        return tuple(_map_level(who, fn, items, True) for items in zip(*seqs))
    return tuple(fn(*items) for items in zip(*seqs))


class HyperMap:
    """``HyperMap(ops=None, reverse=False)``: apply a function to the matching leaves of
    nested tuples and lists, keeping their structure (as tuples). Without ``ops`` the first
    call argument is the function. ``reverse`` is accepted (the order of evaluation does not
    change the results here)."""

    def __init__(self, ops: Callable | None = None, reverse: bool = False) -> None:
        if ops is not None and not callable(ops):
            raise TypeError(f"For 'HyperMap', 'ops' must be callable, but got "
                            f"{type(ops).__name__}.")
        self.ops = ops
        self.reverse = reverse
        self._recurse = True

    def __call__(self, *args: Any) -> Any:
        who = type(self).__name__
        fn, seqs = (self.ops, args) if self.ops is not None else (args[0] if args else None,
                                                                   args[1:])
        if not callable(fn):
            raise TypeError(f"For '{who}', the first argument must be the function to apply, "
                            f"but got {type(fn).__name__}.")
        if not seqs:
            raise TypeError(f"For '{who}', give at least one sequence to map over.")
        return _map_level(who, fn, seqs, self._recurse)


class Map(HyperMap):
    """``Map(ops=None, reverse=False)``: like ``HyperMap`` over one level of tuples or lists
    (nested sequences are passed to the function whole)."""

    def __init__(self, ops: Callable | None = None, reverse: bool = False) -> None:
        super().__init__(ops, reverse)
        self._recurse = False

    def __call__(self, *args: Any) -> Any:  # its own, so that argument errors name Map
        return HyperMap.__call__(self, *args)


def partial(func: Callable, *args: Any, **kwargs: Any) -> Callable:
    """MindSpore's ``ops.partial``: ``func`` with its first arguments (and keywords) fixed,
    as ``functools.partial`` makes it."""
    if not callable(func):
        raise TypeError(f"For 'partial', 'func' must be callable, but got "
                        f"{type(func).__name__}.")
    return functools.partial(func, *args, **kwargs)

__all__ = ["HyperMap", "Map", "MultitypeFuncGraph", "partial"]
