"""Bitwise primitives of integer or bool tensors: ``BitwiseAnd``, ``BitwiseOr``,
``BitwiseXor``. Elementwise with broadcasting, without gradients (``nondiff``)."""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..core.primitive import Primitive
from . import structural as S


def _bitwise(name: str, fn: Callable) -> Primitive:
    prim = Primitive(name, fn, nondiff=True)
    prim.batch = S.elementwise(prim)
    return prim


bitwise_and = _bitwise("BitwiseAnd", np.bitwise_and)
bitwise_or = _bitwise("BitwiseOr", np.bitwise_or)
bitwise_xor = _bitwise("BitwiseXor", np.bitwise_xor)
