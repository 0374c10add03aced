"""Padding layers: ``ConstantPad1d/2d/3d``, ``ZeroPad2d``, ``ReflectionPad1d/2d/3d``,
``ReplicationPad1d/2d/3d`` over ``ops.pad`` and ``nn.Pad`` (MindSpore's per-axis
``paddings`` with 'CONSTANT', 'REFLECT' or 'SYMMETRIC'). ``padding`` is ``(left, right)`` of
the last axis, then ``(top, bottom)`` of the one before, ..., as in ``ops.pad``; an int pads
every side of the layer's axes. All differentiable."""
from __future__ import annotations

from typing import Any

from ...core.tensor import Tensor
from ...ops import functional as F
from ..cell import Cell



class _ConstantPadNd(Cell):
    """``ops.pad(x, padding, 'constant', value)``; negative amounts crop."""

    sides = 2

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__()
        name = type(self).__name__
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * self.sides
        elif isinstance(padding, tuple):
            if len(padding) % 2:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple "
                                 f"type must be a multiple of 2, but got {len(padding)}")
            if self.sides == 2 and len(padding) != 2:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple "
                                 f"type must equal to 2.but got {len(padding)}")
            if len(padding) > self.sides:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple "
                                 f"type must no more than {self.sides}.but got {len(padding)}")
        else:
            raise TypeError(f"For '{name}', the type of parameter 'padding' must be in [int, "
                            f"tuple], but got {type(padding)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{name}', the type of parameter 'value' must be in [int, "
                            f"float], but got {type(value)}")
        self.padding, self.value = padding, value

    def construct(self, x: Tensor) -> Tensor:
        return F.pad(x, self.padding, "constant", self.value)


class ConstantPad1d(_ConstantPadNd):
    """Pads the last axis with ``value``."""

    sides = 2


class ConstantPad2d(_ConstantPadNd):
    """Pads the last two axes with ``value``."""

    sides = 4


class ConstantPad3d(_ConstantPadNd):
    """Pads the last three axes with ``value``."""

    sides = 6


class ZeroPad2d(_ConstantPadNd):
    """Pads the last two axes with zeros."""

    sides = 4

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0)


class _EdgePadNd(Cell):
    """Reflection ('reflect': the edge element is not repeated) or replication (the edge
    element repeated) over the last ``sides / 2`` axes of an input with at most one leading
    axis more than a batch."""

    sides = 2
    mode = "reflect"

    def __init__(self, padding: Any) -> None:
        super().__init__()
        name = type(self).__name__
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * self.sides
        if not isinstance(padding, tuple):
            raise TypeError(f"For '{name}' the input 'padding' must be an integer or tuple, but "
                            f"got {type(padding).__name__}")
        if len(padding) % 2:
            raise ValueError(f"For '{name}' the length of input 'padding' must be divisible by "
                             f"2, but got padding of length {len(padding)}. ")
        if not all(isinstance(i, int) and not isinstance(i, bool) for i in padding):
            raise TypeError(f"For '{name}' every element in 'padding' must be integer, but got "
                            f"{padding}. ")
        if self.mode == "reflect" and not all(i >= 0 for i in padding):
            raise ValueError(f"For '{name}' every element in 'padding' must be >= 0. but got "
                             f"{padding}. ")
        self.padding = padding

    def construct(self, x: Tensor) -> Tensor:
        if not any(self.padding):
            return x
        return F.pad(x, self.padding, self.mode)


class ReflectionPad1d(_EdgePadNd):
    """Reflects the last axis at its ends."""


class ReflectionPad2d(_EdgePadNd):
    """Reflects the last two axes at their ends."""

    sides = 4


class ReflectionPad3d(_EdgePadNd):
    """Reflects the last three axes at their ends."""

    sides = 6


class ReplicationPad1d(_EdgePadNd):
    """Repeats the edge elements of the last axis."""

    mode = "replicate"


class ReplicationPad2d(_EdgePadNd):
    """Repeats the edge elements of the last two axes."""

    sides, mode = 4, "replicate"


class ReplicationPad3d(_EdgePadNd):
    """Repeats the edge elements of the last three axes."""

    sides, mode = 6, "replicate"


def _symmetric(x: Tensor, pairs: tuple) -> Tensor:
    """Mirror padding that repeats the edge element (NumPy's 'symmetric'), axis by axis, as
    concatenations of reversed slices."""
    for axis, (lo, hi) in enumerate(pairs):
        n = x.shape[axis]
        parts = []
        if lo:
            parts.append(F.flip(F.getitem(x, (slice(None),) * axis + (slice(0, lo),)), (axis,)))
        parts.append(x)
        if hi:
            parts.append(F.flip(F.getitem(x, (slice(None),) * axis + (slice(n - hi, n),)),
                                (axis,)))
        if len(parts) > 1:
            x = F.concat(tuple(parts), axis)
    return x


class Pad(Cell):
    """Pads each axis ``i`` by ``paddings[i] = (before, after)`` (one pair per axis, up to 4
    axes): 'CONSTANT' (zeros), 'REFLECT' (the edge not repeated) or 'SYMMETRIC' (the edge
    repeated)."""

    def __init__(self, paddings: tuple, mode: str = "CONSTANT") -> None:
        super().__init__()
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"For 'Pad', the 'mode' should be in ['CONSTANT', 'REFLECT', "
                             f"'SYMMETRIC'], but got {mode}.")
        if not isinstance(paddings, tuple):
            raise TypeError(f"For 'Pad', the type of 'paddings' must be tuple, but got "
                            f"{type(paddings).__name__}.")
        for item in paddings:
            if len(item) != 2:
                raise ValueError(f"For 'Pad', the dimension of 'paddings' must be (n, 2), but "
                                 f"got {paddings}.")
        if len(paddings) > 4:
            raise ValueError(f"For 'Pad', only 'paddings' up to 4 dims is supported, but got "
                             f"{len(paddings)}.")
        self.mode, self.paddings = mode, paddings

    def construct(self, x: Tensor) -> Tensor:
        if len(self.paddings) != x.ndim:
            raise ValueError(f"For 'Pad', 'paddings' must have one pair per axis of the input, "
                             f"but got {len(self.paddings)} pairs for shape {list(x.shape)}.")
        pairs = tuple((int(a), int(b)) for a, b in self.paddings)
        if self.mode == "SYMMETRIC":
            for (lo, hi), n in zip(pairs, x.shape):
                if lo > n or hi > n:
                    raise ValueError(f"For 'Pad', 'SYMMETRIC' padding {pairs} must not exceed "
                                     f"the input shape {list(x.shape)}.")
            return _symmetric(x, pairs)
        flat = tuple(v for pair in reversed(pairs) for v in pair)
        return F.pad(x, flat, "constant" if self.mode == "CONSTANT" else "reflect")


__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad2d", "ReflectionPad1d",
           "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "Pad"]
