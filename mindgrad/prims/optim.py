"""Fused update primitives of the optimizers. An update is never differentiated
(``nondiff``); fusing ``p - lr * step`` into one primitive lets it reuse its temporary as
the result, so a step allocates one new array per parameter instead of two."""
from __future__ import annotations

from typing import Any

from ..core.primitive import Primitive
from ._util import xp_of


def _descend_impl(p: Any, lr: Any, step: Any) -> Any:
    xp = xp_of(p)
    out = xp.multiply(step, lr, dtype=xp.result_type(p, step))
    return xp.subtract(p, out, out=out)


# MindSpore's ApplyGradientDescent: ``var - alpha * delta``.
apply_gradient_descent = Primitive("ApplyGradientDescent", _descend_impl, nondiff=True)
