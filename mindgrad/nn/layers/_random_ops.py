"""Random primitives used by layers. They are marked ``effect=True``: the GRAPH-mode compiler
never folds, merges or removes them, so a compiled function draws new values on every call.
They take no tensor inputs and carry no gradient (``nondiff``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...common.random import generator
from ...core.primitive import Primitive


def _dropout_mask_impl(shape: tuple, keep_prob: float, dtype: Any) -> Any:
    """An inverted-dropout mask: ``1/keep_prob`` with probability ``keep_prob``, else 0."""
    from ...context import array_module

    keep = generator().random(shape) < keep_prob
    mask = keep.astype(dtype) * np.asarray(1.0 / keep_prob, dtype)
    xp = array_module()
    return mask if xp is np else xp.asarray(mask)


dropout_mask = Primitive("DropoutMask", _dropout_mask_impl, nondiff=True, effect=True)
