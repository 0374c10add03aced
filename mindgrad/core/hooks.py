"""Gradient hooks on Tensors: the handle ``register_hook`` returns, and the hooks of Tensors
that are not (yet) being differentiated, which a gradient taken with respect to them picks
up (``mindspore.common.hook_handle`` holds ``HookHandle`` in MindSpore)."""
from __future__ import annotations

import weakref
from typing import Any, Callable


class HookHandle:
    """Returned by ``register_hook`` and the Cell ``register_*_hook`` methods; ``remove()``
    unregisters the hook (a second ``remove()`` does nothing)."""

    def __init__(self, hooks: list, fn: Callable) -> None:
        self._hooks = hooks
        self._fn = fn

    def remove(self) -> None:
        for i, h in enumerate(self._hooks):
            if h is self._fn:
                del self._hooks[i]
                return


# id(tensor) -> its hooks, for Tensors outside any gradient; an entry goes with its Tensor
leaf_hooks: dict[int, list] = {}


def add_leaf_hook(tensor: Any, fn: Callable) -> HookHandle:
    hooks = leaf_hooks.get(id(tensor))
    if hooks is None:
        hooks = leaf_hooks[id(tensor)] = []
        weakref.finalize(tensor, leaf_hooks.pop, id(tensor), None)
    hooks.append(fn)
    return HookHandle(hooks, fn)


def check_hook(fn: Any, who: str) -> None:
    """A hook must be a plain callable: not a ``jit``-compiled function, which would run
    the hook once, when it is traced (``jit`` marks its functions ``_jit_compiled``)."""
    if not callable(fn):
        raise TypeError(f"For '{who}', the hook must be a function, but got "
                        f"{type(fn).__name__}.")
    if getattr(fn, "_jit_compiled", False):
        raise TypeError(f"For '{who}', decorating hook function "
                        f"{getattr(fn, '__name__', 'hook')} with '@jit' is not supported.")


def run_tensor_hooks(hooks: list, grad: Any) -> Any:
    """Call each hook on the gradient; one that returns a Tensor replaces it."""
    for fn in list(hooks):
        new = fn(grad)
        if new is not None:
            grad = new
    return grad
