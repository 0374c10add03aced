"""``BinaryCrossEntropy``: the elementwise binary cross entropy of probabilities ``x``
against labels ``y``, as MindSpore 2.10's CPU kernel computes it:

    loss = -(y log(x + eps) + (1 - y) log(1 - x + eps)),  eps = 1e-12

(in the input's dtype: float16 has no 1e-12, so there a probability of 0 or 1 gives inf),
and its derivatives as MindSpore's gradient kernels give them,

    d loss / dx = (x - y) / max(x (1 - x), eps),    d loss / dy = log(1 - x) - log(x),

finite at x = 0 and x = 1 (the derivative in x is not quite that of the loss formula: it
is MindSpore's). The
rules are written with primitives, so they can be differentiated again."""
from __future__ import annotations

from typing import Any

import numpy as np

from ._util import xp_of
from . import arith as A
from . import structural as S
from . import unary as U

EPS = 1e-12


def _impl(x: Any, y: Any) -> Any:
    xp = xp_of(x)
    eps = xp.asarray(EPS, x.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0) is -inf, as in MindSpore
        return -(y * xp.log(x + eps) + (1 - y) * xp.log(1 - x + eps))


def _dx(v: Any, x: Any, y: Any, ans: Any) -> Any:
    one = A.sub(1.0, x)
    return A.mul(v, A.div(A.sub(x, y), A.maximum(A.mul(x, one), EPS)))


def _dy(v: Any, x: Any, y: Any, ans: Any) -> Any:
    return A.mul(v, A.sub(U.log(A.sub(1.0, x)), U.log(x)))


binary_cross_entropy = S.binary("BinaryCrossEntropy", _impl, _dx, _dy)
