"""Flattening of nested inputs and outputs (tuples, lists, dicts of tensors)."""
from __future__ import annotations

from typing import Any, Callable

from ..common.tensor import Tensor

LEAF = "*"


def flatten(obj: Any) -> tuple[list, Any]:
    """Tensor leaves of ``obj`` in order, and a description to rebuild it with ``unflatten``.
    Anything that is not a tensor, tuple, list or dict is kept in the description."""
    leaves: list = []

    def walk(o: Any) -> Any:
        if isinstance(o, Tensor):
            leaves.append(o)
            return LEAF
        if isinstance(o, tuple) and type(o) is not tuple and hasattr(o, "_fields"):
            return ("namedtuple", type(o), tuple(walk(v) for v in o))
        if isinstance(o, (tuple, list)):
            return (type(o), tuple(walk(v) for v in o))
        if isinstance(o, dict):
            return (dict, tuple(o.keys()), tuple(walk(v) for v in o.values()))
        return ("const", o)

    return leaves, walk(obj)


def unflatten(tree: Any, leaves: list) -> Any:
    it = iter(leaves)

    def build(t: Any) -> Any:
        if t is LEAF:
            return next(it)
        kind = t[0]
        if kind == "const":
            return t[1]
        if kind == "namedtuple":
            return t[1](*(build(c) for c in t[2]))
        if kind is dict:
            return dict(zip(t[1], (build(c) for c in t[2])))
        return kind(build(c) for c in t[1])

    return build(tree)


def tree_map(fn: Callable, obj: Any) -> Any:
    leaves, tree = flatten(obj)
    return unflatten(tree, [fn(x) for x in leaves])
