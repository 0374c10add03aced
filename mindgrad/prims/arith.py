"""Arithmetic primitives with broadcasting: add, sub, mul, div, neg, pow, maximum, minimum,
floor_div, floor_mod, atan2. Each block holds the primitive's implementation and all of its
rules; reverse rules reduce broadcast dimensions with ``unbroadcast``."""
from __future__ import annotations

import numpy as np

from ..core.primitive import Primitive
from ._util import checked_binary
from . import shape as S
from . import unary as U
from . import compare as C



add = Primitive("Add", checked_binary("Add", np.add), expr="{0} + {1}")
add.vjp = (lambda g, ans, x, y: S.unbroadcast(g, x), lambda g, ans, x, y: S.unbroadcast(g, y))
add.jvp = (lambda t, ans, x, y: S.broadcast_like(t, ans),
           lambda t, ans, x, y: S.broadcast_like(t, ans))

sub = Primitive("Sub", checked_binary("Sub", np.subtract), expr="{0} - {1}")
sub.vjp = (lambda g, ans, x, y: S.unbroadcast(g, x), lambda g, ans, x, y: S.unbroadcast(neg(g), y))
sub.jvp = (lambda t, ans, x, y: S.broadcast_like(t, ans),
           lambda t, ans, x, y: S.broadcast_like(neg(t), ans))

mul = Primitive("Mul", checked_binary("Mul", np.multiply), expr="{0} * {1}")
mul.vjp = (lambda g, ans, x, y: S.unbroadcast(mul(g, y), x),
           lambda g, ans, x, y: S.unbroadcast(mul(x, g), y))
mul.jvp = (lambda t, ans, x, y: S.broadcast_like(mul(t, y), ans),
           lambda t, ans, x, y: S.broadcast_like(mul(x, t), ans))

div = Primitive("RealDiv", checked_binary("RealDiv", np.true_divide), expr="{0} / {1}")
div.vjp = (lambda g, ans, x, y: S.unbroadcast(div(g, y), x),
           lambda g, ans, x, y: S.unbroadcast(neg(mul(g, div(ans, y))), y))
div.jvp = (lambda t, ans, x, y: S.broadcast_like(div(t, y), ans),
           lambda t, ans, x, y: S.broadcast_like(neg(mul(t, div(ans, y))), ans))

neg = Primitive("Neg", np.negative, expr="-{0}")
neg.vjp = (lambda g, ans, x: neg(g),)
neg.jvp = (lambda t, ans, x: neg(t),)


def _pow_dx(x, y, ans):
    # d/dx x**y = y * x**(y-1); written without dividing by x so that x = 0 stays finite.
    # A Python exponent stays a Python number, so it never changes the result's dtype.
    y_minus_1 = y - 1 if isinstance(y, (int, float)) else sub(y, 1)
    return mul(y, pow_(x, y_minus_1))


def _pow_dy(x, ans):
    # d/dy x**y = log(x) * x**y, taken as 0 where x == 0 (the limit for y > 0).
    if isinstance(x, (int, float)):  # a Python base keeps log(x) a Python number (dtype)
        return mul(float(np.log(x)) if x != 0 else 0.0, ans)
    safe = C.select(C.equal(x, 0), S.ones_like(x), x)
    return mul(U.log(safe), ans)


pow_ = Primitive("Pow", checked_binary("Pow", np.power), expr="{0} ** {1}")
pow_.vjp = (lambda g, ans, x, y: S.unbroadcast(mul(g, _pow_dx(x, y, ans)), x),
            lambda g, ans, x, y: S.unbroadcast(mul(g, _pow_dy(x, ans)), y))
pow_.jvp = (lambda t, ans, x, y: S.broadcast_like(mul(t, _pow_dx(x, y, ans)), ans),
            lambda t, ans, x, y: S.broadcast_like(mul(t, _pow_dy(x, ans)), ans))


def _selection_rules(prim, cond_fn):
    """Rules for maximum/minimum: the gradient goes to the selected input; on ties it goes
    to x, as in MindSpore."""

    def mask_x(x, y, like):
        return S.cast(cond_fn(x, y), S.dtype_of(like))

    def mask_y(x, y, like):
        return S.cast(C.logical_not(cond_fn(x, y)), S.dtype_of(like))

    prim.vjp = (lambda g, ans, x, y: S.unbroadcast(mul(g, mask_x(x, y, g)), x),
                lambda g, ans, x, y: S.unbroadcast(mul(g, mask_y(x, y, g)), y))
    prim.jvp = (lambda t, ans, x, y: S.broadcast_like(mul(t, mask_x(x, y, t)), ans),
                lambda t, ans, x, y: S.broadcast_like(mul(t, mask_y(x, y, t)), ans))


maximum = Primitive("Maximum", checked_binary("Maximum", np.maximum))
_selection_rules(maximum, C.greater_equal)
minimum = Primitive("Minimum", checked_binary("Minimum", np.minimum))
_selection_rules(minimum, C.less_equal)

floor_div = Primitive("FloorDiv", checked_binary("FloorDiv", np.floor_divide), nondiff=True)
floor_mod = Primitive("FloorMod", checked_binary("FloorMod", np.mod), nondiff=True)

atan2 = Primitive("Atan2", checked_binary("Atan2", np.arctan2))


def _atan2_den(x, y):
    return add(mul(x, x), mul(y, y))


atan2.vjp = (lambda g, ans, x, y: S.unbroadcast(mul(g, div(y, _atan2_den(x, y))), x),
             lambda g, ans, x, y: S.unbroadcast(mul(g, neg(div(x, _atan2_den(x, y)))), y))
atan2.jvp = (lambda t, ans, x, y: S.broadcast_like(mul(t, div(y, _atan2_den(x, y))), ans),
             lambda t, ans, x, y: S.broadcast_like(mul(t, neg(div(x, _atan2_den(x, y)))), ans))

from . import batch_rules as B  # noqa: E402  (after the primitives: batch_rules uses them)

B.defelementwise(add, sub, mul, div, neg, pow_, maximum, minimum, floor_div, floor_mod, atan2)

from . import taylor_rules as T  # noqa: E402

add.taylor = T.additive(1)
sub.taylor = T.additive(-1)
mul.taylor = T.bilinear(mul)
div.taylor = T.div_rule
neg.taylor = T.linear(neg)
pow_.taylor = T.pow_rule
maximum.taylor = T.select_like(maximum, C.greater_equal)
minimum.taylor = T.select_like(minimum, C.less_equal)
