"""Argument checks shared by the ``mint`` families."""
from __future__ import annotations

from typing import Any

from ..core.tensor import Tensor


def tensor_arg(x: Any, fn: str, arg: str = "input") -> Tensor:
    """``x`` if it is a Tensor, else a TypeError naming ``mint.<fn>`` and the argument (for
    the functions that read a shape before calling an operator, which would check it)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"mint.{fn}: '{arg}' must be a Tensor, got {type(x).__name__}")
    return x
