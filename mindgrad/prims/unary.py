"""Elementwise unary primitives. Each is defined by its NumPy function and its derivative
written in differentiable operations; the reverse rule is ``g * f'(x)`` and the forward rule
``t * f'(x)``, so every order of derivative comes from the same line."""
from __future__ import annotations

import functools
import math
from typing import Any, Callable

import numpy as np

from ..ad.taylor import taylor_call
from ..core.primitive import Primitive
from . import compare as C
from . import structural as S
from .structural import add_if
from ._util import xp_of
from .compare import _select_impl


# --- Taylor rules of unary functions (normalized coefficients x_k = x^(k)/k!) ----------------

def from_derivative(prim: Any, deriv: Callable) -> Callable:
    """For a unary f with f'(x) = deriv(x, f(x)): z_k = (1/k) sum_{j=1..k} j x_j w_{k-j},
    where w = deriv(x, z) is itself Taylor-propagated to order k-1."""
    def rule(primals, series, **params):
        (x,), (xs,) = primals, series
        z0 = prim(x, **params)
        zs: list = []
        for k in range(1, len(xs) + 1):
            w0, ws = taylor_call(deriv, [x, z0], [xs[:k - 1], zs[:k - 1]], k - 1)
            total = None
            for j in range(1, k + 1):
                xj = xs[j - 1]
                wk = w0 if k - j == 0 else ws[k - j - 1]
                if xj is not None and wk is not None:
                    total = add_if(total, _scaled(S.mul(xj, wk), j / k))
            zs.append(total)
        return z0, zs

    rule.kind = "unary"  # how the forward Laplacian treats it (ad/laplacian.py)
    return rule


def _scaled(x: Any, c: float) -> Any:
    """``c x``, without a pass over x when c is 1."""
    return x if c == 1 else S.mul(x, c)


def tanh_rule(tanh: Any) -> Callable:
    """tanh through its derivative 1 - z^2, whose series is a Cauchy product of z's own:
    w_0 = 1 - z_0^2, w_m = -sum_i z_i z_{m-i}, and z_k = (1/k) sum_j j x_j w_{k-j}. No
    nested Taylor pass: about half the operations of the generic unary rule.

    w_m is kept as ``(base, factor)``, w_m = factor * base: for odd m the doubling and the
    sign, -2, wait to join the term's j/k in one product (one pass fewer per odd m; along
    a line, x_j = 0 for j > 1, as ``derivative`` gives, that is each z_k with k even)."""

    def rule(primals, series, **params):
        (x,), (xs,) = primals, series
        z0 = tanh(x)
        zs: list = [z0]
        ws: list = [(S.sub(1.0, S.mul(z0, z0)), 1.0)]
        for k in range(1, len(xs) + 1):
            total = None
            for j in range(1, k + 1):
                xj, (base, factor) = xs[j - 1], ws[k - j]
                if xj is not None and base is not None:
                    total = add_if(total, _scaled(S.mul(xj, base), factor * j / k))
            zs.append(total)
            if k < len(xs):  # w_k = -(2 sum_{i<k/2} z_i z_{k-i} + z_{k/2}^2), for the next orders
                acc = None
                for i in range((k + 1) // 2):
                    a, b = zs[i], zs[k - i]
                    if a is not None and b is not None:
                        acc = add_if(acc, S.mul(a, b))
                sq = None
                if k % 2 == 0 and zs[k // 2] is not None:
                    sq = S.mul(zs[k // 2], zs[k // 2])
                if sq is None:
                    ws.append((acc, -2.0))
                elif acc is None:
                    ws.append((sq, -1.0))
                else:  # (the sign and the doubling are exact)
                    ws.append((S.sub(S.mul(acc, -2.0), sq), 1.0))
        return z0, zs[1:]

    rule.kind = "unary"  # how the forward Laplacian treats it (ad/laplacian.py)
    return rule


def sin_cos(sin: Any, cos: Any, sign: float, want_sin: bool) -> Callable:
    """sin/cos (sign -1) and sinh/cosh (sign +1) together:
    s_k = (1/k) sum j x_j c_{k-j},  c_k = sign (1/k) sum j x_j s_{k-j}."""

    def rule(primals, series, **params):
        (x,), (xs,) = primals, series
        s, c = [sin(x)], [cos(x)]
        for k in range(1, len(xs) + 1):
            sk = ck = None
            for j in range(1, k + 1):
                xj = xs[j - 1]
                if xj is None:
                    continue
                sk = add_if(sk, S.mul(j, S.mul(xj, c[k - j])) if c[k - j] is not None else None)
                ck = add_if(ck, S.mul(j, S.mul(xj, s[k - j])) if s[k - j] is not None else None)
            s.append(None if sk is None else S.div(sk, k))
            c.append(None if ck is None else S.mul(sign / k, ck))
        return (s[0], s[1:]) if want_sin else (c[0], c[1:])

    rule.kind = "unary"  # how the forward Laplacian treats it (ad/laplacian.py)
    return rule


def unary(name: str, fn: Callable, deriv: Callable | None = None, *,
          apply: Callable | None = None, nondiff: bool = False) -> Primitive:
    """A unary primitive whose derivative is ``deriv(x, ans, **params)``. ``apply(v, x, ans,
    **params)``, when given, is ``v * deriv(x, ans)`` computed with fewer passes (one division
    by ``x`` rather than a reciprocal and a product, a product with a boolean mask rather than
    a cast and a product); the reverse and forward rules use it, the Taylor rule ``deriv``.
    The batching rule is the elementwise one."""
    # a NumPy ufunc as the implementation: compiled code may give it an out= buffer
    p = Primitive(name, fn, nondiff=nondiff,
                  hints={"ufunc": fn} if isinstance(fn, np.ufunc) else None)
    p.batch = S.elementwise(p)
    if deriv is not None:
        if apply is None:
            def apply(v, x, ans, **params):
                return S.mul(v, deriv(x, ans, **params))
        p.vjp = (lambda g, ans, x, **params: apply(g, x, ans, **params),)
        p.jvp = (lambda t, ans, x, **params: apply(t, x, ans, **params),)
        p.taylor = _taylor_rule(p, deriv)
    return p


def _taylor_rule(p: Primitive, deriv: Callable) -> Callable:
    """``from_derivative`` with the primitive's parameters bound into ``deriv``."""
    plain = from_derivative(p, deriv)

    def rule(primals, series, **params):
        if not params:
            return plain(primals, series)
        return from_derivative(p, functools.partial(deriv, **params))(primals, series,
                                                                          **params)

    rule.kind = "unary"  # elementwise: the forward Laplacian's rule (ad/laplacian.py)
    return rule


def _is_float_array(a) -> bool:
    """An array (not a 0-d NumPy scalar) of floating dtype: one an implementation may
    overwrite when it made it itself."""
    return getattr(a, "ndim", 0) > 0 and a.dtype.kind == "f"


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

            special = cupyx.scipy.special
        else:
            special = _scipy_special()
        if special is not None:
            out = getattr(special, name)(x)
            # SciPy has no float16 loop: it computes in a wider float; give the input's back
            return out.astype(x.dtype) if x.dtype.kind == "f" and out.dtype != x.dtype else out
        x = np.asarray(x)
        return np.asarray(np.frompyfunc(getattr(math, name), 1, 1)(x), dtype=x.dtype)
    impl.__name__ = name
    return impl


def _sq(x):
    return S.mul(x, x)


def _one_minus_sq(v):
    return S.sub(1, _sq(v))


def _div_by(den: Callable) -> Callable:
    """``apply`` for a derivative ``1 / den(x)``: one division."""
    return lambda v, x, ans: S.div(v, den(x))


# --- implementations that reuse their own temporaries -----------------------------------------
def _rsqrt_impl(x):
    r = xp_of(x).sqrt(x)
    if not _is_float_array(r):
        return 1 / r
    return xp_of(r).divide(1, r, out=r)


def _sigmoid_impl(x):
    # 1 / (1 + e^-x) as (tanh(x/2) + 1) / 2: no overflow, no division
    xp = xp_of(x)
    t = xp.multiply(x, 0.5)
    if not _is_float_array(t):
        return 0.5 * (xp.tanh(t) + 1)
    xp.tanh(t, out=t)
    t += 1
    t *= 0.5
    return t


def _relu_impl(x):
    # np.clip with two bounds is vectorized; np.maximum(x, 0) with a scalar is three times slower
    if _is_float_array(x):
        return xp_of(x).clip(x, 0, math.inf)
    if x.dtype.kind == "b":  # max(x, False) is x itself, and stays bool (as in MindSpore)
        return x
    return xp_of(x).maximum(x, 0)


def _softplus_impl(x):
    # log(1 + e^x) without overflow: max(x, 0) + log1p(e^-|x|)
    xp = xp_of(x)
    t = xp.abs(x)
    if not _is_float_array(t):
        return xp.maximum(x, 0) + xp.log1p(xp.exp(-t))
    xp.negative(t, out=t)
    xp.exp(t, out=t)
    xp.log1p(t, out=t)
    t += _relu_impl(x)
    return t


def _clip_impl(x, lo, hi):
    # ±inf for a missing bound: np.clip with one bound is not vectorized
    return xp_of(x).clip(x, -math.inf if lo is None else lo, math.inf if hi is None else hi)


def _leaky_relu_impl(x, alpha):
    xp = xp_of(x)
    if 0 < alpha <= 1:  # alpha x lies between 0 and x: the larger of the two is the answer
        t = xp.multiply(x, alpha)
        return xp.maximum(x, t, out=t) if _is_float_array(t) else xp.maximum(x, t)
    if alpha > 1:
        return xp.minimum(x, xp.multiply(x, alpha))
    if alpha == 0:
        return _relu_impl(x)

    return _select_impl(xp.greater(x, 0), x, xp.multiply(x, alpha))


def _leaky_slope_impl(x, alpha):
    """The derivative of leaky_relu, 1 where x > 0 and alpha elsewhere, in x's dtype."""
    xp = xp_of(x)
    d = xp.greater(x, 0).astype(x.dtype if x.dtype.kind == "f" else xp.float64)
    if _is_float_array(d):
        d *= 1 - alpha
        d += alpha
        return d
    return d * (1 - alpha) + alpha


def elu_impl(x, alpha):
    """ELU on arrays (the primitive is in arith: its derivative uses minimum)."""
    xp = xp_of(x)
    if not _is_float_array(x):
        return xp.where(x > 0, x, alpha * xp.expm1(xp.minimum(x, 0)))
    t = xp.clip(x, -math.inf, 0)  # x > 0: x + alpha expm1(0) = x exactly
    xp.expm1(t, out=t)
    if alpha != 1:
        t *= alpha
    t += _relu_impl(x)
    return t


# --- the primitives ------------------------------------------------------------------------------
_LN2, _LN10 = math.log(2.0), math.log(10.0)

exp = unary("Exp", np.exp, lambda x, ans: ans)
exp2 = unary("Exp2", np.exp2, lambda x, ans: S.mul(ans, _LN2))
log = unary("Log", np.log, lambda x, ans: S.div(1, x), apply=_div_by(lambda x: x))
log2 = unary("Log2", np.log2, lambda x, ans: S.div(1 / _LN2, x),
             apply=_div_by(lambda x: S.mul(x, _LN2)))
log10 = unary("Log10", np.log10, lambda x, ans: S.div(1 / _LN10, x),
              apply=_div_by(lambda x: S.mul(x, _LN10)))
sin = unary("Sin", np.sin, lambda x, ans: cos(x))
cos = unary("Cos", np.cos, lambda x, ans: S.neg(sin(x)))
tan = unary("Tan", np.tan, lambda x, ans: S.add(1, _sq(ans)))
sinh = unary("Sinh", np.sinh, lambda x, ans: cosh(x))
cosh = unary("Cosh", np.cosh, lambda x, ans: sinh(x))
tanh = unary("Tanh", np.tanh, lambda x, ans: _one_minus_sq(ans))
asin = unary("Asin", np.arcsin, lambda x, ans: rsqrt(_one_minus_sq(x)),
             apply=_div_by(lambda x: sqrt(_one_minus_sq(x))))
acos = unary("ACos", np.arccos, lambda x, ans: S.neg(rsqrt(_one_minus_sq(x))),
             apply=lambda v, x, ans: S.neg(S.div(v, sqrt(_one_minus_sq(x)))))
atan = unary("Atan", np.arctan, lambda x, ans: S.div(1, S.add(1, _sq(x))),
             apply=_div_by(lambda x: S.add(1, _sq(x))))
asinh = unary("Asinh", np.arcsinh, lambda x, ans: rsqrt(S.add(_sq(x), 1)),
              apply=_div_by(lambda x: sqrt(S.add(_sq(x), 1))))
acosh = unary("Acosh", np.arccosh, lambda x, ans: rsqrt(S.sub(_sq(x), 1)),
              apply=_div_by(lambda x: sqrt(S.sub(_sq(x), 1))))
atanh = unary("Atanh", np.arctanh, lambda x, ans: S.div(1, _one_minus_sq(x)),
              apply=_div_by(_one_minus_sq))
sqrt = unary("Sqrt", np.sqrt, lambda x, ans: S.div(0.5, ans))
# d/dx x^(-1/2) = -x^(-3/2) / 2 = -ans / (2 x)
rsqrt = unary("Rsqrt", _rsqrt_impl, lambda x, ans: S.mul(-0.5, S.div(ans, x)))
square = unary("Square", np.square, lambda x, ans: S.mul(2, x))
reciprocal = unary("Reciprocal", np.reciprocal, lambda x, ans: S.neg(_sq(ans)))
abs_ = unary("Abs", np.abs, lambda x, ans: sign(x))
expm1 = unary("Expm1", np.expm1, lambda x, ans: S.add(ans, 1))
log1p = unary("Log1p", np.log1p, lambda x, ans: S.div(1, S.add(x, 1)),
              apply=_div_by(lambda x: S.add(x, 1)))
erf = unary("Erf", _special("erf"),
            lambda x, ans: S.mul(2 / math.sqrt(math.pi), exp(S.neg(_sq(x)))))
# erfc is its own primitive: 1 - erf(x) loses every digit of erfc's tail (erfc(10) ~ 2e-45)
erfc = unary("Erfc", _special("erfc"),
             lambda x, ans: S.mul(-2 / math.sqrt(math.pi), exp(S.neg(_sq(x)))))
sigmoid = unary("Sigmoid", _sigmoid_impl, lambda x, ans: S.mul(ans, S.sub(1, ans)))


def _step(x):
    """1 where x > 0, else 0, in x's dtype (the derivative of relu)."""
    return S.cast(C.greater(x, 0), S.dtype_of(x))


# A product with the boolean mask itself saves the cast (NumPy multiplies by it directly).
relu = unary("ReLU", _relu_impl, lambda x, ans: _step(x),
             apply=lambda v, x, ans: S.mul(v, C.greater(x, 0)))
# softplus' derivative is the sigmoid, 1 - e^(-softplus(x)), taken from the output
softplus = unary("Softplus", _softplus_impl, lambda x, ans: S.neg(expm1(S.neg(ans))))


def _inside(x, lo, hi):
    return C.logical_and(C.greater(x, lo), C.less(x, hi))


# The gradient passes strictly inside (0, 6), as in MindSpore's ReLU6Grad.
relu6 = unary("ReLU6", lambda x: xp_of(x).clip(x, 0, 6),
              lambda x, ans: S.cast(_inside(x, 0, 6), S.dtype_of(x)),
              apply=lambda v, x, ans: S.mul(v, _inside(x, 0, 6)))
# clip_by_value with constant bounds: the gradient passes where the value is not clipped
# (at a bound too, as MindSpore's clamp does; clip_by_value, built on maximum and
# minimum, shares a tie at a bound equally)
clip = unary("Clamp", _clip_impl,
             lambda x, ans, lo, hi: S.cast(C.equal(ans, x), S.dtype_of(x)),
             apply=lambda v, x, ans, lo, hi: S.mul(v, C.equal(ans, x)))


def _clip_weight_impl(x, lo, hi, dtype):
    """clip_by_value's slope, as the maximum-then-minimum it is defined by gives it: 1
    strictly inside (lo, hi), 1/2 at a bound (maximum and minimum split a tie), 1/4 where
    lo == hi == x, 0 outside. Ties are rare: one pass finds whether there are any."""
    xp = xp_of(x)
    lo = -math.inf if lo is None else lo
    hi = math.inf if hi is None else hi
    w = xp.logical_and(xp.greater(x, lo), xp.less(x, hi)).astype(dtype)
    if xp.logical_or(xp.equal(x, lo), xp.equal(x, hi)).any():
        m = xp.maximum(x, lo)
        a = xp.where(xp.greater(x, lo), 1.0, xp.where(xp.equal(x, lo), 0.5, 0.0))
        b = xp.where(xp.less(m, hi), 1.0, xp.where(xp.equal(m, hi), 0.5, 0.0))
        w = (a * b).astype(dtype)
    return w


# The slope is piecewise constant: a primitive without gradient.
clip_weight = Primitive("ClipByValueSlope", _clip_weight_impl, nondiff=True)
# clip_by_value with constant bounds: minimum(maximum(x, lo), hi) in one pass, with that
# composition's gradient (half of it at a bound, as MindSpore's clip_by_value)
clip_split = unary("ClipByValue", _clip_impl,
                   lambda x, ans, lo, hi: clip_weight(x, lo=lo, hi=hi, dtype=S.dtype_of(x)),
                   apply=lambda v, x, ans, lo, hi: S.mul(
                       v, clip_weight(x, lo=lo, hi=hi, dtype=S.dtype_of(v))))

# The slope of leaky_relu is piecewise constant: a primitive without gradient.
leaky_slope = Primitive("LeakyReLUSlope", _leaky_slope_impl, nondiff=True)
leaky_relu = unary("LeakyReLU", _leaky_relu_impl, lambda x, ans, alpha: leaky_slope(x, alpha=alpha))


def _hswish_impl(x):
    # x * relu6(x + 3) / 6, in one temporary
    xp = xp_of(x)
    t = xp.add(x, 3)
    if not _is_float_array(t):
        return x * (xp.clip(t, 0, 6) / 6)
    xp.clip(t, 0, 6, out=t)
    t /= 6
    t *= x
    return t


def _hswish_grad_impl(x):
    # 0 for x <= -3, (2x + 3) / 6 = x / 3 + 1/2 between, 1 for x >= 3
    xp = xp_of(x)
    d = xp.multiply(x, 1 / 3)
    if not _is_float_array(d):
        return xp.where(x <= -3, 0, xp.where(x >= 3, 1, d + 0.5)).astype(d.dtype)
    d += 0.5
    d *= (x > -3) & (x < 3)
    d += x >= 3
    return d


# The derivative of hardswish is a primitive of its own (MindSpore's HSwishGrad): one pass
# over x instead of a dozen small operations; its own derivative is 1/3 on (-3, 3).
hswish_grad = unary("HSwishGrad", _hswish_grad_impl,
                    lambda x, ans: S.mul(S.cast(_inside(x, -3, 3), S.dtype_of(x)), 1 / 3))
hswish = unary("HSwish", _hswish_impl, lambda x, ans: hswish_grad(x))


def _log_or_zero_impl(x):
    xp = xp_of(x)
    zero = xp.equal(x, 0)
    if not zero.any():
        return xp.log(x)
    return xp.log(xp.where(zero, 1, x))


def _log_or_zero_deriv(x, ans):
    zero = C.equal(x, 0)
    return C.select(zero, 0.0, S.div(1, C.select(zero, 1.0, x)))


# log(x) with log(0) taken as 0 (and a zero derivative there): the factor log(x) of
# d(x**y)/dy, whose other factor x**y vanishes at x = 0 for y > 0.
log_or_zero = unary("LogOrZero", _log_or_zero_impl, _log_or_zero_deriv)

sign = unary("Sign", np.sign, nondiff=True)
floor = unary("Floor", np.floor, nondiff=True)
ceil = unary("Ceil", np.ceil, nondiff=True)
round_ = unary("Round", np.round, nondiff=True)


S.defelementwise(clip_weight, leaky_slope)  # (the others get theirs from `unary`)

# sin/cos and sinh/cosh propagate together (their derivatives refer to each other).
tanh.taylor = tanh_rule(tanh)
sin.taylor = sin_cos(sin, cos, -1.0, True)
cos.taylor = sin_cos(sin, cos, -1.0, False)
sinh.taylor = sin_cos(sinh, cosh, 1.0, True)
cosh.taylor = sin_cos(sinh, cosh, 1.0, False)


# Closed forms (f, f', f'') of the most used activations, read by the forward Laplacian
# (``rule.second``): fewer operations than the second-order Taylor rule at the value.
def _tanh_second(x):
    y = tanh(x)
    d1 = S.sub(1.0, S.mul(y, y))
    return y, d1, S.mul(S.mul(y, d1), -2.0)


def _sin_second(x):
    y = sin(x)
    return y, cos(x), S.neg(y)


def _cos_second(x):
    y = cos(x)
    return y, S.neg(sin(x)), S.neg(y)


def _exp_second(x):
    y = exp(x)
    return y, y, y


tanh.taylor.second = _tanh_second
sin.taylor.second = _sin_second
cos.taylor.second = _cos_second
exp.taylor.second = _exp_second
