"""Operations that see gradients as they pass: ``HookBackward`` (a function called with the
gradient, which may replace it), ``InsertGradientOf`` (a function applied to the gradient),
and ``pass_through``, the identity with a reverse rule of the caller's, on which they and
the Cell hooks are built."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.hooks import check_hook
from ..core.tensor import Tensor
from ..core.primitive import custom_vjp_call
from .primitive import Primitive


def pass_through(values: Sequence, on_grads: Callable[[tuple], Any], name: str) -> tuple:
    """``values`` unchanged, except that reverse mode calls ``on_grads(grads)`` with their
    gradients (a tuple, zeros for those that got none) and passes on what it returns (a
    tuple of the same length) or, when it returns None, the gradients themselves."""

    def identity(*xs: Any) -> tuple:
        return tuple(xs)

    def bwd(xs: Sequence, out: Any, dout: Any) -> list:
        grads = tuple(dout)
        new = on_grads(grads)
        if new is None:
            return list(grads)
        new = tuple(new) if isinstance(new, (tuple, list)) else (new,)
        if len(new) != len(grads):
            raise ValueError(f"For '{name}', the hook must return {len(grads)} gradient(s), "
                             f"but returned {len(new)}.")
        return list(new)

    return tuple(custom_vjp_call(identity, bwd, tuple(values), name))


class HookBackward(Primitive):
    """``HookBackward(hook_fn, cell_id="")(*inputs)`` returns its inputs; in reverse mode
    ``hook_fn`` is called with the tuple of their gradients and may return new ones (a
    tuple), or None to leave them."""

    def __init__(self, hook_fn: Callable, cell_id: str = "") -> None:
        super().__init__("HookBackward")
        check_hook(hook_fn, "HookBackward")
        self.hook_fn = hook_fn
        self.cell_id = cell_id

    def __call__(self, *inputs: Any) -> Any:
        for i, x in enumerate(inputs):
            if not isinstance(x, Tensor):
                raise TypeError(f"For 'HookBackward', every input must be a Tensor, but "
                                f"input {i} is {type(x).__name__}.")
        out = pass_through(inputs, self.hook_fn, "HookBackward")
        return out[0] if len(out) == 1 else out


class InsertGradientOf(Primitive):
    """``InsertGradientOf(f)(x)`` returns ``x``; in reverse mode its gradient ``g`` becomes
    ``f(g)`` (gradient clipping, scaling, logging). A value that is not a Tensor is returned
    as it is, as MindSpore does."""

    def __init__(self, f: Callable) -> None:
        super().__init__("InsertGradientOf")
        check_hook(f, "InsertGradientOf")
        self.f = f

    def __call__(self, x: Any) -> Any:
        if not isinstance(x, Tensor):
            return x  # numbers, bools, tuples: no gradient flows here (MindSpore's pass-through)
        (out,) = pass_through((x,), lambda grads: (self.f(grads[0]),), "InsertGradientOf")
        return out


__all__ = ["HookBackward", "InsertGradientOf"]
