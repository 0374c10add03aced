"""``mindspore.mint``'s special and complex-number functions: ``erfinv``, ``polar``, ``real``
and ``imag``, each the mindgrad operator of the same name (differentiable as it is), with
``mint.polar`` asking, as MindSpore's does, for ``abs`` and ``angle`` of one shape and
dtype."""
from __future__ import annotations

from typing import Any

from .. import ops
from ._utils import tensor_arg


def erfinv(input: Any) -> Any:  # noqa: A002 - MindSpore's argument name
    """The inverse error function of ``input`` (float16, float32 or float64)."""
    return ops.erfinv(input)


def polar(abs: Any, angle: Any) -> Any:  # noqa: A002
    """The complex tensor ``abs * (cos(angle) + i sin(angle))``; ``abs`` and ``angle`` are
    float32 or float64 tensors of one shape and dtype."""
    a, t = tensor_arg(abs, "polar", "abs"), tensor_arg(angle, "polar", "angle")
    if a.dtype != t.dtype:
        raise TypeError(f"mint.polar: 'abs' and 'angle' must have one dtype, but got {a.dtype} "
                        f"and {t.dtype}")
    if a.shape != t.shape:
        raise ValueError(f"mint.polar: 'abs' and 'angle' must have one shape, but got "
                         f"{list(a.shape)} and {list(t.shape)}")
    return ops.polar(a, t)


def real(input: Any) -> Any:  # noqa: A002
    """The real part of ``input`` (a real tensor is returned as it is)."""
    return ops.real(input)


def imag(input: Any) -> Any:  # noqa: A002
    """The imaginary part of ``input`` (zeros for a real tensor)."""
    return ops.imag(input)


__all__ = ["erfinv", "polar", "real", "imag"]
