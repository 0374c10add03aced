"""``nn.Jvp`` and ``nn.Vjp``: forward and reverse products as Cells (MindSpore 1.x API)."""
from __future__ import annotations

from typing import Any

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
        grads = vjp_fn(v)
        return out, grads[0] if len(grads) == 1 else grads
