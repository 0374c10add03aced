"""``nn.Jvp`` and ``nn.Vjp``: forward and reverse products as Cells (MindSpore 1.x API)."""
from __future__ import annotations

from typing import Any

from ..core.tensor import Tensor
from ..core.tree import flatten
from ..ops import composite
from .cell import Cell


class Jvp(Cell):
    """``Jvp(net)(*inputs, v)`` returns ``(net(*inputs), J v)``; ``v`` is a Tensor or a tuple
    with one tangent per input."""

    def __init__(self, fn: Any) -> None:
        super().__init__()
        self.fn = fn

    def construct(self, *args: Any) -> Any:
        if len(args) < 2:
            raise TypeError("For 'Jvp', give the network's inputs followed by v.")
        *inputs, v = args
        tangents = v if isinstance(v, (tuple, list)) else (v,)
        if len(tangents) != len(inputs):
            # a structure mismatch is a TypeError here, as in MindSpore's Jvp cell
            raise TypeError(f"For 'Jvp', v must hold one tangent per input: the network "
                            f"takes {len(inputs)} input(s), but v has {len(tangents)}.")
        return composite.jvp(self.fn, tuple(inputs), v)


class Vjp(Cell):
    """``Vjp(net)(*inputs, v)`` returns ``(net(*inputs), v^T J)``; the gradient is a tuple
    over the inputs, or a bare Tensor for a single input."""

    def __init__(self, fn: Any) -> None:
        super().__init__()
        self.fn = fn

    def construct(self, *args: Any) -> Any:
        if len(args) < 2:
            raise TypeError("For 'Vjp', give the network's inputs followed by v.")
        *inputs, v = args
        out, vjp_fn = composite.vjp(self.fn, *inputs)
        n_out = len(flatten(out)[0])
        n_v = len(flatten(v)[0])
        if n_v != n_out or isinstance(v, Tensor) != isinstance(out, Tensor):
            # a structure mismatch is a TypeError here, as in MindSpore's Vjp cell
            shape = "a Tensor" if isinstance(out, Tensor) else \
                f"a {type(out).__name__} of {n_out} Tensor(s)"
            raise TypeError(f"For 'Vjp', v must match the network's output, which is "
                            f"{shape}, but v is a {type(v).__name__} of {n_v} Tensor(s).")
        grads = vjp_fn(v)
        return out, grads[0] if len(grads) == 1 else grads
