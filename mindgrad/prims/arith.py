"""Arithmetic primitives with broadcasting: add, sub, mul, div, div_no_nan, neg, pow, maximum,
minimum, floor_div, floor_mod, mod (truncated), atan2. Each block holds the primitive's
implementation and all of its rules; reverse rules reduce broadcast dimensions with
``unbroadcast``."""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ..ad.taylor import taylor_call
from ..core.primitive import Primitive
from ._util import checked_binary, xp_of
from . import compare as C
from . import structural as S
from .structural import add_if, bilinear, coeff_at, series_order
from .structural import add, binary_cotangents, div, mul, neg, sub  # noqa: F401
from . import unary as U


def _div_no_nan_impl(x, y):
    xp = xp_of(y if hasattr(y, "dtype") else x)
    zero = xp.equal(y, 0)
    if not zero.any():  # the common case: one comparison more than a division
        return xp.true_divide(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = xp.true_divide(x, y)
    return xp.where(zero, xp.zeros((), out.dtype), out)


# x / y, and 0 where y == 0 (MindSpore's DivNoNan): the 2-norm's reverse rule divides by the
# norm, whose subgradient at the zero vector is taken as 0. Its derivatives are those of x / y
# away from y == 0 and 0 there (it is constant in both arguments where y == 0).
div_no_nan = Primitive("DivNoNan", checked_binary("DivNoNan", _div_no_nan_impl))
div_no_nan.vjp_all = lambda g, ans, x, y: binary_cotangents(
    x, y, div_no_nan(g, y), lambda: neg(div_no_nan(mul(g, ans), y)))
div_no_nan.jvp = (lambda t, ans, x, y: S.broadcast_like(div_no_nan(t, y), ans),
                  lambda t, ans, x, y: S.broadcast_like(neg(div_no_nan(mul(t, ans), y)), ans))


# Python exponents with a cheaper exact-or-better NumPy function (as NumPy's own ``**`` does
# for some of them): square and sqrt are correctly rounded, power is not always.
_POW_FAST = {2: np.square, 0.5: np.sqrt, -1: np.reciprocal}


def _pow_impl(x, y):
    if type(y) in (int, float) and y in _POW_FAST and getattr(x, "dtype", None) is not None \
            and x.dtype.kind == "f":
        return getattr(xp_of(x), _POW_FAST[y].__name__)(x)
    return xp_of(x).power(x, y)


def _pow_dx(x, y, ans):
    # d/dx x**y = y * x**(y-1): y * ans / x where that quotient is exact enough, the power
    # itself elsewhere (x = 0 stays finite), see pow_dx. A Python exponent stays a Python
    # number, so it never changes the result's dtype. x ** 0 is constant: its slope is an
    # exact 0, also at x = 0, where 0 * x ** -1 would be NaN (and higher derivatives of
    # x ** 2 reach x ** 0).
    if isinstance(y, (int, float)) and y == 0:
        return S.zeros_like(ans)
    if isinstance(y, (int, float)) and (y - 1 in _POW_FAST or y - 1 in (0, 1)):
        return mul(y, pow_(x, y - 1))  # a power as cheap as a division
    return pow_dx(x, y, ans)


def _pow_dy(x, ans):
    # d/dy x**y = log(x) * x**y, taken as 0 where x == 0 (the limit for y > 0).
    if isinstance(x, (int, float)):  # a Python base keeps log(x) a Python number (dtype)
        return mul(float(np.log(x)) if x != 0 else 0.0, ans)
    return mul(U.log_or_zero(x), ans)


pow_ = Primitive("Pow", checked_binary("Pow", _pow_impl))
pow_.vjp = (lambda g, ans, x, y: S.unbroadcast(mul(g, _pow_dx(x, y, ans)), x),
            lambda g, ans, x, y: S.unbroadcast(mul(g, _pow_dy(x, ans)), y))
pow_.jvp = (lambda t, ans, x, y: S.broadcast_like(mul(t, _pow_dx(x, y, ans)), ans),
            lambda t, ans, x, y: S.broadcast_like(mul(t, _pow_dy(x, ans)), ans))


def _pow_dx_impl(x, y, ans):
    """y * x ** (y - 1) given ans = x ** y: y * ans / x (a division instead of a second
    power) wherever that is exact to an ulp or two, that is where ans is a finite normal
    number and the result finite; y * x ** (y - 1) itself at the other elements (x = 0,
    overflow, underflow, NaN)."""
    xp = xp_of(ans)

    def exact():
        y1 = y - 1 if isinstance(y, (int, float)) else xp.subtract(y, 1)  # Python stays Python
        slope = xp.multiply(y, xp.power(x, y1))
        if not isinstance(y, (int, float)):
            # an exponent of 0 has slope 0, also at x = 0 (0 * 0 ** -1 would be NaN)
            slope = xp.where(xp.equal(y, 0), xp.zeros_like(slope), slope)
        return slope

    if getattr(ans, "ndim", 0) == 0 or ans.dtype.kind != "f":
        return exact()
    with np.errstate(all="ignore"):
        r = xp.true_divide(ans, x)
        r *= y
        tiny = xp.finfo(ans.dtype).tiny
        # the usual case, all of ans positive and normal, takes two reductions
        if not (ans.min() >= tiny and xp.isfinite(r).all()):
            ok = xp.isfinite(r)
            ok &= xp.abs(ans) >= tiny  # False for 0, subnormals and NaN
            if not ok.all():
                r = xp.where(ok, r, exact())
    return r


# y * x ** (y - 1), pow's derivative in x, as a function of x and y; ``ans`` (x ** y) only
# makes it cheaper and gets no gradient. Its own derivatives use pow one power lower.
pow_dx = Primitive("PowDx", _pow_dx_impl)


def _minus_one(y):
    return y - 1 if isinstance(y, (int, float)) else sub(y, 1)


def _pow_dx_dx(x, y):
    # d/dx [y x^(y-1)] = y * d/dx x^(y-1)
    y1 = _minus_one(y)
    return mul(y, _pow_dx(x, y1, pow_(x, y1)))


def _pow_dx_dy(x, y):
    # d/dy [y x^(y-1)] = x^(y-1) (1 + y log x)
    return mul(pow_(x, _minus_one(y)), add(1, mul(y, U.log_or_zero(x))))


pow_dx.vjp = (lambda g, ans, x, y, p: S.unbroadcast(mul(g, _pow_dx_dx(x, y)), x),
              lambda g, ans, x, y, p: S.unbroadcast(mul(g, _pow_dx_dy(x, y)), y),
              None)
pow_dx.jvp = (lambda t, ans, x, y, p: S.broadcast_like(mul(t, _pow_dx_dx(x, y)), ans),
              lambda t, ans, x, y, p: S.broadcast_like(mul(t, _pow_dx_dy(x, y)), ans),
              None)


def _tie_weight_impl(x, y, greater, dtype):
    """x's share of the gradient of maximum (``greater``) or minimum: 1 where x is strictly
    selected, 1/2 at a tie (as MindSpore 2.10 and JAX split it), 0 elsewhere, in the
    gradient's dtype. Ties are rare: one pass finds whether there are any."""
    xp = xp_of(x) if hasattr(x, "shape") else xp_of(y)
    w = (xp.greater(x, y) if greater else xp.less(x, y)).astype(dtype)
    tie = xp.equal(x, y)
    if tie.any():
        w = xp.where(tie, w.dtype.type(0.5), w)
    return w


# The weight is piecewise constant: a primitive without gradient.
tie_weight = Primitive("TieWeight", _tie_weight_impl, nondiff=True)


def tie_share(g, x, y, greater: bool):
    """x's share of ``g`` in maximum (``greater``) or minimum, in ``g``'s dtype."""
    return mul(g, tie_weight(x, y, greater=greater, dtype=S.dtype_of(g)))


def _selection_rules(prim, greater: bool):
    """Rules for maximum/minimum: the gradient goes to the selected input and is split
    equally at ties; y's cotangent is the rest, g - gx."""

    def vjp_all(g, ans, x, y):
        gx = tie_share(g, x, y, greater)
        return binary_cotangents(x, y, gx, lambda: sub(g, gx))

    prim.vjp_all = vjp_all
    prim.jvp = (lambda t, ans, x, y: tie_share(S.broadcast_like(t, ans), x, y, greater),
                lambda t, ans, x, y: tie_share(S.broadcast_like(t, ans), y, x, greater))


def _bound(v) -> bool:
    """A finite Python number (not a bool) that a float array can be clipped at."""
    return (type(v) is float and math.isfinite(v)) or (type(v) is int and abs(v) < 2 ** 53)


def _extremum_impl(name, fn, clip_args):
    """np.maximum/np.minimum; against a finite Python number, np.clip, which NumPy vectorizes
    (np.maximum(x, 0) is three times slower than np.clip(x, 0, inf)). Only the sign of a zero
    result can differ."""

    def impl(x, y):
        if _bound(y) and getattr(x, "ndim", 0) > 0 and x.dtype.kind == "f":
            return xp_of(x).clip(x, *clip_args(y))
        if _bound(x) and getattr(y, "ndim", 0) > 0 and y.dtype.kind == "f":
            return xp_of(y).clip(y, *clip_args(x))
        return fn(x, y)

    return checked_binary(name, impl)


maximum = Primitive("Maximum", _extremum_impl("Maximum", np.maximum, lambda v: (v, math.inf)))
_selection_rules(maximum, greater=True)
minimum = Primitive("Minimum", _extremum_impl("Minimum", np.minimum, lambda v: (-math.inf, v)))
_selection_rules(minimum, greater=False)

def _floor_div_impl(x, y):
    """NumPy's floor division, except for an integer or bool division by zero, where NumPy
    gives 0 and MindSpore the quotient's limit: the dtype's largest value for a positive
    dividend, its smallest for a negative one, 0 for 0 (so ``True // False`` is True)."""
    out = np.floor_divide(x, y)  # (CuPy arrays take NumPy's ufuncs to their own)
    kind = out.dtype.kind
    if kind not in "iub":
        return out
    xp = xp_of(out)
    zero = xp.equal(y, 0)
    if xp is np and not zero.any():  # (on a GPU, no host round trip to ask first)
        return out
    if kind == "b":
        hi, lo = True, False
    else:
        info = np.iinfo(out.dtype)
        hi, lo = info.max, info.min
    limit = xp.where(xp.greater(x, 0), xp.asarray(hi, out.dtype),
                     xp.where(xp.less(x, 0), xp.asarray(lo, out.dtype),
                              xp.zeros((), out.dtype)))
    return xp.where(zero, limit, out)


floor_div = Primitive("FloorDiv", checked_binary("FloorDiv", _floor_div_impl), nondiff=True)


def _floor_quotient(x, y, ans):
    """floor(x / y) from the remainder ``ans``: (x - ans) / y is that integer up to rounding
    (NumPy's floor_divide itself rounds it so), and three cheap passes cost a third of
    floor_div's exact float division."""
    return U.round_(div(sub(x, ans), y))


# x mod y = x - floor(x / y) * y: slope 1 in x and -floor(x / y) in y between its jumps (the
# gradient MindSpore's FloorMod has).
floor_mod = S.binary("FloorMod", np.mod, lambda v, x, y, ans: v,
                     lambda v, x, y, ans: neg(mul(v, _floor_quotient(x, y, ans))))


def _trunc_quotient(x, y):
    q = div(x, y)
    return mul(U.sign(q), U.floor(U.abs_(q)))


# The truncated remainder x - y * trunc(x / y) (C's fmod: the sign of x), computed exactly
# by np.fmod. The quotient is piecewise constant, so the derivatives are 1 for x and
# -trunc(x / y) for y.
mod = S.binary("Mod", np.fmod, lambda v, x, y, ans: v,
               lambda v, x, y, ans: neg(mul(v, _trunc_quotient(x, y))))


atan2 = Primitive("Atan2", checked_binary("Atan2", np.arctan2))


def _square(v):
    return v * v if isinstance(v, (int, float)) else mul(v, v)  # a Python number stays one


def _atan2_scale(v, x, y):
    """v / (x^2 + y^2), shared by both cotangents."""
    return div(v, add(_square(x), _square(y)))


def _atan2_vjp(g, ans, x, y):
    r = _atan2_scale(g, x, y)
    return binary_cotangents(x, y, mul(r, y), lambda: neg(mul(r, x)))


atan2.vjp_all = _atan2_vjp
atan2.jvp = (lambda t, ans, x, y: S.broadcast_like(mul(_atan2_scale(t, x, y), y), ans),
             lambda t, ans, x, y: S.broadcast_like(neg(mul(_atan2_scale(t, x, y), x)), ans))

# --- ELU (in this module for its derivative, min(ans, 0) + 1) -------------------------

def _elu_deriv(x, ans, alpha):
    # 1 where x > 0, else alpha e^x = ans + alpha; for alpha = 1 (MindSpore's only value)
    # that is min(ans, 0) + 1, as ans > 0 exactly where x > 0
    if alpha == 1:
        return S.add(minimum(ans, 0.0), 1.0)
    return C.select(C.greater(x, 0), 1.0, S.add(ans, alpha))


elu = U.unary("Elu", U.elu_impl, _elu_deriv)


# --- Taylor rules -------------------------------------------------------------------------

def pow_rule(primals, series):
    """x ** y. A small non-negative integer exponent multiplies out (exact, also at x = 0);
    another constant exponent (a number or a Tensor) uses x z' = c z x'; a varying one goes
    through exp(y log x)."""
    x, y = primals
    if series[1] is None and not isinstance(y, bool):
        # a constant exponent: exp(y log x) would be NaN wherever x < 0
        xs = series[0]
        if isinstance(y, (int, float)) and float(y).is_integer() and 0 <= y <= 8:
            out, coeffs = S.ones_like(x), [None] * len(xs)
            mul_rule = bilinear(mul)
            for _ in range(int(y)):
                out, coeffs = mul_rule([out, x], [coeffs, xs])
            return out, coeffs
        z0 = pow_(x, y)
        zs: list = []
        for k in range(1, len(xs) + 1):
            total = None
            for j in range(1, k + 1):
                xj, zk = xs[j - 1], (z0 if k - j == 0 else zs[k - j - 1])
                if xj is not None and zk is not None:
                    total = add_if(total, mul((y + 1) * j - k, mul(xj, zk)))
            zs.append(None if total is None else div(total, mul(k, x)))
        return z0, zs

    def via_exp(a: Any, b: Any) -> Any:
        log_a = math.log(a) if isinstance(a, (int, float)) else U.log(a)
        return U.exp(mul(b, log_a))

    _, coeffs = taylor_call(via_exp, [x, y], series, series_order(series))
    return pow_(x, y), coeffs


def tie_split_like(prim: Any, greater: bool) -> Callable:
    """For maximum (``greater``) and minimum: each coefficient follows the branch the
    primal takes and is the mean of both at a tie, as the first derivative is
    (``arith.tie_share``)."""

    def rule(primals, series, **params):
        x, y = primals
        out = prim(x, y)
        coeffs = []
        for k in range(1, series_order(series) + 1):
            a, b = coeff_at(series[0], x, k), coeff_at(series[1], y, k)
            if a is None and b is None:
                coeffs.append(None)
                continue
            a = S.zeros_like(out) if a is None else S.broadcast_like(a, out)
            b = S.zeros_like(out) if b is None else S.broadcast_like(b, out)
            coeffs.append(add(tie_share(a, x, y, greater), tie_share(b, y, x, greater)))
        return out, coeffs

    return rule


S.defelementwise(div_no_nan, pow_, pow_dx, maximum, minimum, elu, floor_div,
                 floor_mod, mod, atan2, tie_weight)

pow_.taylor = pow_rule
maximum.taylor = tie_split_like(maximum, greater=True)
minimum.taylor = tie_split_like(minimum, greater=False)
