"""Special functions: ``Lgamma``, ``Digamma``, ``Polygamma``, ``Erfinv``, the Bessel
functions (``BesselI0`` ... ``BesselY1``), the regularized incomplete gamma functions
(``Igamma``, ``Igammac`` and the derivative of ``Igamma`` in its first argument) and
Hurwitz's ``Zeta``.

The values come from SciPy (``scipy.special``, or CuPy's ``cupyx.scipy.special`` for CuPy
arrays), an optional dependency: without it these primitives raise an ImportError that
says so. Every derivative is written with primitives, so all orders follow: lgamma' is
digamma, digamma' is polygamma(1), polygamma(n)' is polygamma(n + 1), and so on."""
from __future__ import annotations

import functools
import math
from typing import Any, Callable

import numpy as np

from ..core.primitive import Primitive
from . import compare as C
from . import structural as S
from . import unary as U
from ._util import xp_of


@functools.cache
def _scipy() -> Any:
    try:
        import scipy.special
    except ImportError as e:  # pragma: no cover - scipy is in the test extra
        raise ImportError("mindgrad's special functions (lgamma, digamma, polygamma, erfinv, "
                          "igamma, zeta, the Bessel functions) compute their values with "
                          "SciPy, which is not installed: pip install 'mindgrad[special]' "
                          "(or pip install scipy).") from e
    return scipy.special


def _module(x: Any) -> Any:
    if xp_of(x) is not np:
        import cupyx.scipy.special

        return cupyx.scipy.special
    return _scipy()


def _like(out: Any, *inputs: Any) -> Any:
    """SciPy computes float16 (and some float32) in a wider float: the input's dtype back."""
    dt = inputs[0].dtype
    if dt.kind == "f" and out.dtype != dt:
        return out.astype(dt)
    return out


def _scipy_unary(fname: str) -> Callable:
    def impl(x):
        return _like(getattr(_module(x), fname)(x), x)
    impl.__name__ = fname
    return impl


def _polygamma_impl(x, n):
    mod = _module(x)
    if n == 0:
        return _like(mod.digamma(x), x)
    return _like(mod.polygamma(n, x), x)


def _erfinv_impl(x):
    return _like(_module(x).erfinv(x), x)


def _over_x(x, v, at_zero):
    """``v / x`` with ``at_zero`` where ``x == 0`` (the limit of the Bessel terms there)."""
    zero = C.equal(x, 0)
    safe = C.select(zero, S.add(S.mul(x, 0.0), 1.0), x)
    return C.select(zero, S.add(S.mul(v, 0.0), at_zero), S.div(v, safe))


def _sign(x):
    return U.sign(x)


lgamma = U.unary("Lgamma", _scipy_unary("gammaln"), lambda x, ans: digamma(x))
digamma = U.unary("Digamma", _scipy_unary("digamma"), lambda x, ans: polygamma(x, n=1))
polygamma = U.unary("Polygamma", _polygamma_impl, lambda x, ans, n: polygamma(x, n=n + 1))
# erfinv'(x) = sqrt(pi) / 2 * exp(erfinv(x)^2)
erfinv = U.unary("Erfinv", _erfinv_impl,
                 lambda x, ans: S.mul(math.sqrt(math.pi) / 2, U.exp(S.mul(ans, ans))))

# The modified Bessel functions of the first kind (I) and second kind (K), their
# exponentially scaled forms (``e``), and those of the first (J) and second (Y) kind.
bessel_i0 = U.unary("BesselI0", _scipy_unary("i0"), lambda x, ans: bessel_i1(x))
bessel_i1 = U.unary("BesselI1", _scipy_unary("i1"),
                    lambda x, ans: S.sub(bessel_i0(x), _over_x(x, ans, 0.5)))
# i0e = e^-|x| i0: i0e' = i1e - sign(x) i0e
bessel_i0e = U.unary("BesselI0e", _scipy_unary("i0e"),
                     lambda x, ans: S.sub(bessel_i1e(x), S.mul(_sign(x), ans)))
bessel_i1e = U.unary("BesselI1e", _scipy_unary("i1e"),
                     lambda x, ans: S.sub(S.sub(bessel_i0e(x), S.mul(_sign(x), ans)),
                                          _over_x(x, ans, -0.5)))
bessel_j0 = U.unary("BesselJ0", _scipy_unary("j0"), lambda x, ans: S.neg(bessel_j1(x)))
bessel_j1 = U.unary("BesselJ1", _scipy_unary("j1"),
                    lambda x, ans: S.sub(bessel_j0(x), _over_x(x, ans, 0.5)))
bessel_y0 = U.unary("BesselY0", _scipy_unary("y0"), lambda x, ans: S.neg(bessel_y1(x)))
bessel_y1 = U.unary("BesselY1", _scipy_unary("y1"),
                    lambda x, ans: S.sub(bessel_y0(x), S.div(ans, x)))
bessel_k0 = U.unary("BesselK0", _scipy_unary("k0"), lambda x, ans: S.neg(bessel_k1(x)))
bessel_k1 = U.unary("BesselK1", _scipy_unary("k1"),
                    lambda x, ans: S.neg(S.add(bessel_k0(x), S.div(ans, x))))
# k0e = e^x k0: k0e' = k0e - k1e; k1e' = k1e - k0e - k1e / x
bessel_k0e = U.unary("BesselK0e", _scipy_unary("k0e"),
                     lambda x, ans: S.sub(ans, bessel_k1e(x)))
bessel_k1e = U.unary("BesselK1e", _scipy_unary("k1e"),
                     lambda x, ans: S.sub(S.sub(ans, bessel_k0e(x)), S.div(ans, x)))


# --- the incomplete gamma functions ------------------------------------------------------------
def _bell(derivs: list, add: Callable, mul: Callable) -> Any:
    """The complete Bell polynomial B_k of ``derivs`` = [f', f'', ..., f^(k)]:
    d^k/da^k exp(f) = exp(f) B_k, by B_(k+1) = sum_i C(k, i) B_(k-i) f^(i+1); on arrays
    or, with primitives as ``add`` and ``mul``, on Tensors (inside rules)."""
    out = [None]
    for k in range(len(derivs)):
        total = None
        for i in range(k + 1):
            term = derivs[i] if k - i == 0 else mul(out[k - i], derivs[i])
            c = math.comb(k, i)
            term = term if c == 1 else mul(term, float(c))
            total = term if total is None else add(total, term)
        out.append(total)
    return out[-1]


def _igamma_da_impl(a, x, order):
    """d^order/da^order of P(a, x) = sum_n exp(f_n), f_n = (a+n) log x - x - lgamma(a+n+1):
    term by term, d^k exp(f_n) = exp(f_n) B_k(f_n', ..., f_n^(k)) with f_n' = log x -
    digamma(a+n+1) and f_n^(j) = -polygamma(j-1, a+n+1). The series converges for every
    x > 0; it needs about x + 12 sqrt(x) + 40 terms, computed in float64."""
    sp = _module(a)
    xp = xp_of(a)
    dt = np.result_type(a.dtype, x.dtype)
    a64, x64 = xp.broadcast_arrays(xp.asarray(a, np.float64), xp.asarray(x, np.float64))
    ok = (x64 > 0) & (a64 > 0)
    xs, as_ = xp.where(ok, x64, 1.0), xp.where(ok, a64, 1.0)
    top = float(xs.max()) if xs.size else 0.0
    terms = int(min(top + 12 * math.sqrt(top) + 40, 20000))
    lx = xp.log(xs)
    total = xp.zeros_like(xs)
    for n in range(terms):
        b = as_ + n + 1
        f = (as_ + n) * lx - xs - sp.gammaln(b)
        derivs = [lx - sp.digamma(b)] + [-sp.polygamma(j - 1, b) for j in range(2, order + 1)]
        term = xp.exp(f) * _bell(derivs, xp.add, xp.multiply)
        total = total + term
        # past the peak of the terms (n > x) they shrink geometrically: stop when they no
        # longer change the sum
        if n > top and float(xp.abs(term).max()) <= 1e-17 * float(xp.abs(total).max()):
            break
    out = xp.where(ok, total, xp.nan)
    return out.astype(dt) if dt.kind == "f" else out


def _dpdx(a, x):
    """dP(a, x)/dx = exp(-x) x^(a-1) / Gamma(a), as primitives."""
    return U.exp(S.sub(S.sub(S.mul(S.sub(a, 1.0), U.log(x)), x), lgamma(a)))


def _dpdx_da(a, x, order):
    """d^order/da^order of dP/dx = exp(g), g = (a-1) log x - x - lgamma(a): exp(g) times the
    Bell polynomial of g' = log x - digamma(a), g^(j) = -polygamma(j-1, a)."""
    derivs = [S.sub(U.log(x), digamma(a))] + [S.neg(polygamma(a, n=j - 1))
                                              for j in range(2, order + 1)]
    return S.mul(_dpdx(a, x), _bell(derivs, S.add, S.mul))


# d^k/da^k P(a, x) for k >= 1 (MindSpore's IgammaGradA is k = 1)
igamma_da = Primitive("IgammaGradA", lambda a, x, order: _igamma_da_impl(a, x, order))
igamma_da.vjp = (lambda g, ans, a, x, order: S.unbroadcast(
                     S.mul(g, igamma_da(a, x, order=order + 1)), a),
                 lambda g, ans, a, x, order: S.unbroadcast(
                     S.mul(g, _dpdx_da(a, x, order)), x))
igamma_da.jvp = (lambda t, ans, a, x, order: S.broadcast_like(
                     S.mul(t, igamma_da(a, x, order=order + 1)), ans),
                 lambda t, ans, a, x, order: S.broadcast_like(
                     S.mul(t, _dpdx_da(a, x, order)), ans))
igamma_da.batch = S.elementwise(igamma_da)


def _gammainc(name: str) -> Callable:
    def impl(a, x):
        return _like(getattr(_module(a), name)(a, x), a, x)
    return impl


igamma = S.binary("Igamma", _gammainc("gammainc"),
                  lambda v, a, x, ans: S.mul(v, igamma_da(a, x, order=1)),
                  lambda v, a, x, ans: S.mul(v, _dpdx(a, x)))
igammac = S.binary("Igammac", _gammainc("gammaincc"),
                   lambda v, a, x, ans: S.neg(S.mul(v, igamma_da(a, x, order=1))),
                   lambda v, a, x, ans: S.neg(S.mul(v, _dpdx(a, x))))


def _zeta_impl(s, q):
    return _like(_module(s).zeta(s, q), s, q)


# Hurwitz's zeta(s, q) = sum_k (k + q)^-s: d/dq = -s zeta(s + 1, q). MindSpore gives no
# derivative in s (a zero gradient); neither does mindgrad.
zeta = S.binary("Zeta", _zeta_impl,
                lambda v, s, q, ans: S.mul(v, S.mul(s, 0.0)),
                lambda v, s, q, ans: S.neg(S.mul(v, S.mul(s, zeta(S.add(s, 1.0), q)))))
