"""Special-function cells of ``mindspore.nn``: ``LGamma``, ``DiGamma``, ``IGamma`` and
``LBeta``, each a call of mindgrad's special functions (``ops.lgamma``, ``ops.digamma``,
``ops.igamma``) with the input dtypes MindSpore's cells accept."""
from __future__ import annotations

from ...core import dtype as mstype
from ...core.tensor import Tensor
from ... import ops
from ...ops import functional as F
from ..cell import Cell


def _check_float(x: Tensor, arg: str, allowed: tuple, who: str) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{who}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    if x.dtype not in allowed:
        names = ", ".join(str(d) for d in allowed)
        raise TypeError(f"For '{who}', the type of '{arg}' must be in [{names}], but got "
                        f"{x.dtype}.")


_HALF_OR_SINGLE = (mstype.float16, mstype.float32)


class LGamma(Cell):
    """``log|Gamma(x)|`` elementwise (float16 / float32 input); ``+inf`` at the poles."""

    def construct(self, x: Tensor) -> Tensor:
        _check_float(x, "x", _HALF_OR_SINGLE, "LGamma")
        return ops.lgamma(x)


class DiGamma(Cell):
    """The digamma function ``d/dx log Gamma(x)`` elementwise (float16 / float32 input)."""

    def construct(self, x: Tensor) -> Tensor:
        _check_float(x, "x", _HALF_OR_SINGLE, "DiGamma")
        return ops.digamma(x)


class IGamma(Cell):
    """The regularized lower incomplete gamma function ``P(a, x)``, broadcast (float32
    inputs of the same dtype)."""

    def __init__(self) -> None:
        super().__init__()
        self.lgamma = LGamma()  # MindSpore's cell holds one: print(cell) shows it

    def construct(self, a: Tensor, x: Tensor) -> Tensor:
        _check_float(a, "a", (mstype.float32,), "IGamma")
        _check_float(x, "x", (a.dtype,), "IGamma")
        return ops.igamma(a, x)


class LBeta(Cell):
    """``log|B(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y)``, broadcast (float16 /
    float32 inputs of the same dtype). Summed in float64 so that the cancellation of the
    three large terms for large arguments keeps the float32 result accurate."""

    def __init__(self) -> None:
        super().__init__()
        self.lgamma = LGamma()

    def construct(self, x: Tensor, y: Tensor) -> Tensor:
        _check_float(x, "x", _HALF_OR_SINGLE, "LBeta")
        _check_float(y, "y", (x.dtype,), "LBeta")
        x64, y64 = F.cast(x, mstype.float64), F.cast(y, mstype.float64)
        out = F.sub(F.add(ops.lgamma(x64), ops.lgamma(y64)), ops.lgamma(F.add(x64, y64)))
        return F.cast(out, x.dtype)


__all__ = ["LGamma", "DiGamma", "IGamma", "LBeta"]
