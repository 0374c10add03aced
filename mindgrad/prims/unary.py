"""Elementwise unary primitives. Each is defined by its NumPy function and its derivative
written in differentiable operations; the reverse rule is ``g * f'(x)`` and the forward rule
``t * f'(x)``, so every order of derivative comes from the same line."""
from __future__ import annotations

import functools
import math
from typing import Callable

import numpy as np

from ..core.primitive import Primitive
from . import arith as A
from . import compare as C
from . import shape as S
from . import taylor_rules as T
from ._util import xp_of


def unary(name: str, fn: Callable, deriv: Callable | None = None, *,
          nondiff: bool = False) -> Primitive:
    """A unary primitive whose derivative is ``deriv(x, ans)``."""
    p = Primitive(name, fn, nondiff=nondiff)
    if deriv is not None:
        p.vjp = (lambda g, ans, x: A.mul(g, deriv(x, ans)),)
        p.jvp = (lambda t, ans, x: A.mul(t, deriv(x, ans)),)
        p.taylor = T.from_derivative(p, deriv)
    return p


@functools.cache
def _scipy_special():
    try:
        import scipy.special
    except ImportError:
        return None
    return scipy.special


def _special(name: str) -> Callable:
    """The implementation of ``erf`` or ``erfc``, which NumPy lacks: SciPy's vectorized one
    (CuPy's for CuPy arrays) when installed, else ``math``'s applied per element; all are
    accurate to the last bit or so, SciPy's about a hundred times faster."""
    def impl(x):
        xp = xp_of(x)
        if xp is not np:
            import cupyx.scipy.special

            return getattr(cupyx.scipy.special, name)(x)
        special = _scipy_special()
        if special is not None:
            return getattr(special, name)(x)
        x = np.asarray(x)
        return np.asarray(np.frompyfunc(getattr(math, name), 1, 1)(x), dtype=x.dtype)
    impl.__name__ = name
    return impl


def _sq(x):
    return A.mul(x, x)


def _one_minus_sq(v):
    return A.sub(1, _sq(v))


exp = unary("Exp", np.exp, lambda x, ans: ans)
log = unary("Log", np.log, lambda x, ans: A.div(1, x))
sin = unary("Sin", np.sin, lambda x, ans: cos(x))
cos = unary("Cos", np.cos, lambda x, ans: A.neg(sin(x)))
tan = unary("Tan", np.tan, lambda x, ans: A.add(1, _sq(ans)))
sinh = unary("Sinh", np.sinh, lambda x, ans: cosh(x))
cosh = unary("Cosh", np.cosh, lambda x, ans: sinh(x))
tanh = unary("Tanh", np.tanh, lambda x, ans: _one_minus_sq(ans))
asin = unary("Asin", np.arcsin, lambda x, ans: rsqrt(_one_minus_sq(x)))
acos = unary("ACos", np.arccos, lambda x, ans: A.neg(rsqrt(_one_minus_sq(x))))
atan = unary("Atan", np.arctan, lambda x, ans: A.div(1, A.add(1, _sq(x))))
asinh = unary("Asinh", np.arcsinh, lambda x, ans: rsqrt(A.add(_sq(x), 1)))
acosh = unary("Acosh", np.arccosh, lambda x, ans: rsqrt(A.sub(_sq(x), 1)))
atanh = unary("Atanh", np.arctanh, lambda x, ans: A.div(1, _one_minus_sq(x)))
sqrt = unary("Sqrt", np.sqrt, lambda x, ans: A.div(0.5, ans))
rsqrt = unary("Rsqrt", lambda x: 1 / np.sqrt(x), lambda x, ans: A.mul(-0.5, A.mul(ans, _sq(ans))))
square = unary("Square", np.square, lambda x, ans: A.mul(2, x))
reciprocal = unary("Reciprocal", np.reciprocal, lambda x, ans: A.neg(_sq(ans)))
abs_ = unary("Abs", np.abs, lambda x, ans: sign(x))
expm1 = unary("Expm1", np.expm1, lambda x, ans: A.add(ans, 1))
log1p = unary("Log1p", np.log1p, lambda x, ans: A.div(1, A.add(x, 1)))
erf = unary("Erf", _special("erf"),
            lambda x, ans: A.mul(2 / math.sqrt(math.pi), exp(A.neg(_sq(x)))))
# erfc is its own primitive: 1 - erf(x) loses every digit of erfc's tail (erfc(10) ~ 2e-45)
erfc = unary("Erfc", _special("erfc"),
             lambda x, ans: A.mul(-2 / math.sqrt(math.pi), exp(A.neg(_sq(x)))))
sigmoid = unary("Sigmoid", lambda x: 0.5 * (np.tanh(0.5 * x) + 1),
                lambda x, ans: A.mul(ans, A.sub(1, ans)))
relu = unary("ReLU", lambda x: np.maximum(x, 0),
             lambda x, ans: S.cast(C.greater(x, 0), S.dtype_of(x)))

sign = unary("Sign", np.sign, nondiff=True)
floor = unary("Floor", np.floor, nondiff=True)
ceil = unary("Ceil", np.ceil, nondiff=True)
round_ = unary("Round", np.round, nondiff=True)

from . import batch_rules as B  # noqa: E402

B.defelementwise(exp, log, sin, cos, tan, sinh, cosh, tanh, asin, acos, atan, asinh, acosh,
                 atanh, sqrt, rsqrt, square, reciprocal, abs_, expm1, log1p, erf, erfc, sigmoid,
                 relu, sign, floor, ceil, round_)

# sin/cos and sinh/cosh propagate together (their derivatives refer to each other).
sin.taylor = T.sin_cos(sin, cos, -1.0, True)
cos.taylor = T.sin_cos(sin, cos, -1.0, False)
sinh.taylor = T.sin_cos(sinh, cosh, 1.0, True)
cosh.taylor = T.sin_cos(sinh, cosh, 1.0, False)
