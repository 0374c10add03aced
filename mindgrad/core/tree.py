"""Flattening of nested inputs and outputs (tuples, lists, dicts of tensors)."""
from __future__ import annotations

from typing import Any, Callable

from .tensor import Tensor

LEAF = "*"


# The walkers are module-level functions, not closures: a closure that calls itself is a
# reference cycle, and every call would leave garbage that only the cyclic collector frees.
def _walk(o: Any, leaves: list) -> Any:
    if isinstance(o, Tensor):
        leaves.append(o)
        return LEAF
    if isinstance(o, tuple) and type(o) is not tuple and hasattr(o, "_fields"):
        return ("namedtuple", type(o), tuple(_walk(v, leaves) for v in o))
    if isinstance(o, (tuple, list)):
        return (type(o), tuple(_walk(v, leaves) for v in o))
    if isinstance(o, dict):
        return (dict, tuple(o.keys()), tuple(_walk(v, leaves) for v in o.values()), type(o))
    return ("const", o)


def flatten(obj: Any) -> tuple[list, Any]:
    """Tensor leaves of ``obj`` in order, and a description to rebuild it with ``unflatten``.
    Anything that is not a tensor, tuple, list or dict is kept in the description."""
    leaves: list = []
    return leaves, _walk(obj, leaves)


def _build(t: Any, it: Any) -> Any:
    if t is LEAF:
        return next(it)
    kind = t[0]
    if kind == "const":
        return t[1]
    if kind == "namedtuple":
        return t[1](*(_build(c, it) for c in t[2]))
    if kind is dict:
        return t[3](zip(t[1], (_build(c, it) for c in t[2])))  # the dict's own type
    return kind(_build(c, it) for c in t[1])


def unflatten(tree: Any, leaves: list) -> Any:
    return _build(tree, iter(leaves))


def tree_map(fn: Callable, obj: Any) -> Any:
    leaves, tree = flatten(obj)
    return unflatten(tree, [fn(x) for x in leaves])
