"""MindSpore's special functions and the remaining elementwise functions: ``lgamma``,
``digamma``, ``polygamma``, ``mvlgamma``, ``igamma``, ``igammac``, ``zeta``, ``erfinv``,
``i0`` and the Bessel functions (primitives of ``prims/special.py``, valued by SciPy), the
integer and bit functions (``gcd``, ``lcm``, shifts, ``invert``, ``population_count``,
``truncate_div``, ``nextafter``), ``xdivy``, ``ldexp``, ``float_power_ext``,
``approximate_equal``, ``is_nonzero``, ``isreal`` and the complex parts (``real``, ``imag``,
``conj``, ``angle``, ``polar``, ``view_as_real``, ``ops.Complex``)."""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..prims import fft as FT
from ..prims import integer as IN
from ..prims import special as SP
from . import functional as F
from . import math_functions as _math
from .functional import _composite
from .primitive import Primitive as PrimitiveOp


def _t(x: Any, op: str, arg: str) -> Tensor:
    """A Tensor argument (MindSpore refuses Python numbers here)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _float_in(x: Any, op: str, arg: str = "input") -> Tensor:
    """A float Tensor operand (float16/32/64); MindSpore's special functions refuse others."""
    t = _t(x, op, arg)
    if t._data.dtype.kind != "f":
        raise TypeError(f"For '{op}', '{arg}' must be a Tensor of float16, float32 or "
                        f"float64, but got {t.dtype}.")
    return t


def _same_floats(a: Any, b: Any, op: str, na: str, nb: str) -> tuple:
    x, y = _float_in(a, op, na), _float_in(b, op, nb)
    if x.dtype != y.dtype:
        raise TypeError(f"For '{op}', '{na}' and '{nb}' must have the same dtype, but got "
                        f"{x.dtype} and {y.dtype}.")
    shape = F._broadcast_shapes(op, (na, x), (nb, y))
    return F.broadcast_to(x, shape), F.broadcast_to(y, shape)


def _unary_special(prim: Any, name: str, arg: str = "input",
                   ints: bool = False) -> Callable:
    """The front end of a unary special function, its one parameter named ``arg`` as
    MindSpore names it."""
    def call(x: Any) -> Tensor:
        t = _t(x, name, arg)
        if ints and t._data.dtype.kind in "biu":
            t = F.cast(t, mstype.float32)
        return prim(_float_in(t, name, arg))

    if arg == "x":
        def fn(x: Any) -> Tensor:
            return call(x)
    else:
        def fn(input: Any) -> Tensor:  # noqa: A002
            return call(input)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise {name} (``{prim.name}``), differentiable to any order."
    return fn


# --- gamma functions ---------------------------------------------------------------------------
lgamma = _unary_special(SP.lgamma, "lgamma", ints=True)
lgamma.__doc__ = "The log of the absolute value of the gamma function; lgamma' = digamma."
digamma = _unary_special(SP.digamma, "digamma")
digamma.__doc__ = "The derivative of lgamma; digamma' = polygamma(1, x)."
erfinv = _unary_special(SP.erfinv, "erfinv")
erfinv.__doc__ = "The inverse of erf on (-1, 1) (+-inf at +-1, NaN outside)."


def polygamma(n: Any, input: Any) -> Tensor:  # noqa: A002
    """The ``n``-th derivative of digamma (``n`` a one-element non-negative integer Tensor,
    as MindSpore requires)."""
    if not isinstance(n, Tensor) or n._data.dtype.kind not in "iu" or n.size != 1:
        raise TypeError(f"For 'polygamma', 'n' must be a one-element integer Tensor, but got "
                        f"{getattr(n, 'dtype', type(n).__name__)}.")
    n = int(n.asnumpy().reshape(()))
    if n < 0:
        raise ValueError(f"For 'polygamma', 'n' must be non-negative, but got {n}.")
    x = _float_in(input, "polygamma")
    return SP.polygamma(x, n=int(n))


@_composite
def mvlgamma(input: Any, p: int) -> Tensor:  # noqa: A002
    """The log of the multivariate gamma function of dimension ``p``:
    ``p (p - 1) / 4 log(pi) + sum_j lgamma(input - j / 2)``; every element must exceed
    ``(p - 1) / 2``."""
    x = _float_in(input, "mvlgamma")
    if not F._is_int(p):
        raise TypeError(f"For 'mvlgamma', 'p' must be an int, but got {type(p).__name__}.")
    if p < 1:
        raise ValueError(f"For 'mvlgamma', 'p' must be at least 1, but got {p}.")
    data = x._data
    if data.size and not bool((data > (p - 1) / 2).all()):
        raise ValueError(f"For 'mvlgamma', every element of 'input' must be greater than "
                         f"(p - 1) / 2 = {(p - 1) / 2}, but got the minimum "
                         f"{float(data.min())}.")
    total = F.add(SP.lgamma(x), p * (p - 1) / 4 * math.log(math.pi))
    for j in range(1, p):
        total = F.add(total, SP.lgamma(F.sub(x, j / 2)))
    return total


def igamma(input: Any, other: Any) -> Tensor:  # noqa: A002
    """The regularized lower incomplete gamma function P(input, other), differentiable in
    both arguments."""
    a, x = _same_floats(input, other, "igamma", "input", "other")
    return SP.igamma(a, x)


def igammac(input: Any, other: Any) -> Tensor:  # noqa: A002
    """The regularized upper incomplete gamma function Q(input, other) = 1 - P."""
    a, x = _same_floats(input, other, "igammac", "input", "other")
    return SP.igammac(a, x)


def zeta(input: Any, other: Any) -> Tensor:  # noqa: A002
    """Hurwitz's zeta function ``sum_k (k + other) ** -input``; differentiable in ``other``
    (as in MindSpore, the gradient for ``input`` is zero)."""
    s, q = _same_floats(input, other, "zeta", "input", "other")
    return SP.zeta(s, q)


# --- Bessel functions -------------------------------------------------------------------------
bessel_i0 = _unary_special(SP.bessel_i0, "bessel_i0", "x")
bessel_i0e = _unary_special(SP.bessel_i0e, "bessel_i0e", "x")
bessel_i1 = _unary_special(SP.bessel_i1, "bessel_i1", "x")
bessel_i1e = _unary_special(SP.bessel_i1e, "bessel_i1e", "x")
bessel_j0 = _unary_special(SP.bessel_j0, "bessel_j0", "x")
bessel_j1 = _unary_special(SP.bessel_j1, "bessel_j1", "x")
bessel_k0 = _unary_special(SP.bessel_k0, "bessel_k0", "x")
bessel_k0e = _unary_special(SP.bessel_k0e, "bessel_k0e", "x")
bessel_k1 = _unary_special(SP.bessel_k1, "bessel_k1", "x")
bessel_k1e = _unary_special(SP.bessel_k1e, "bessel_k1e", "x")
bessel_y0 = _unary_special(SP.bessel_y0, "bessel_y0", "x")
bessel_y1 = _unary_special(SP.bessel_y1, "bessel_y1", "x")
i0 = _unary_special(SP.bessel_i0, "i0")
i0.__doc__ = "The modified Bessel function of the first kind, order 0 (``bessel_i0``)."


# --- integers and bits -------------------------------------------------------------------------
def _int_pair(a: Any, b: Any, op: str, na: str, nb: str, numbers: bool = False) -> tuple:
    """Two integer Tensors of one dtype, broadcast (a Python int takes the other's dtype when
    ``numbers``)."""
    if numbers and F._is_int(b) and isinstance(a, Tensor):
        b = Tensor(np.asarray(b, a._data.dtype))
    x, y = _t(a, op, na), _t(b, op, nb)
    for t, n in ((x, na), (y, nb)):
        if t._data.dtype.kind not in "iu":
            raise TypeError(f"For '{op}', '{n}' must be an integer Tensor, but got {t.dtype}.")
    if x.dtype != y.dtype:
        raise TypeError(f"For '{op}', '{na}' and '{nb}' must have the same dtype, but got "
                        f"{x.dtype} and {y.dtype}.")
    F._broadcast_shapes(op, (na, x), (nb, y))
    return x, y


def gcd(input: Any, other: Any) -> Tensor:  # noqa: A002
    """The elementwise greatest common divisor of integers (``gcd(0, 0)`` is 0)."""
    return IN.gcd(*_int_pair(input, other, "gcd", "input", "other"))


def lcm(input: Any, other: Any) -> Tensor:  # noqa: A002
    """The elementwise least common multiple of integers (0 if either is 0)."""
    return IN.lcm(*_int_pair(input, other, "lcm", "input", "other"))


def bitwise_left_shift(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input << other``, elementwise (``other`` may be a Python int)."""
    return IN.left_shift(*_int_pair(input, other, "bitwise_left_shift", "input", "other", True))


def bitwise_right_shift(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input >> other`` (arithmetic: the sign bit is kept), elementwise."""
    return IN.right_shift(*_int_pair(input, other, "bitwise_right_shift", "input", "other",
                                     True))


def invert(x: Any) -> Tensor:
    """The bitwise NOT of integers (``~x``)."""
    t = _t(x, "invert", "x")
    if t._data.dtype.kind not in "iu":
        raise TypeError(f"For 'invert', 'x' must be an integer Tensor, but got {t.dtype}.")
    return IN.invert(t)


def population_count(input_x: Any) -> Tensor:
    """The number of set bits of each integer, as uint8."""
    t = _t(input_x, "population_count", "input_x")
    if t._data.dtype.kind not in "iu":
        raise TypeError(f"For 'population_count', 'input_x' must be an integer Tensor, but "
                        f"got {t.dtype}.")
    return IN.population_count(t)


def _float_pair(a: Any, b: Any, op: str, na: str, nb: str) -> tuple:
    """Two real Tensors (or a Tensor and a number) in one dtype, as MindSpore's arithmetic
    promotes them."""
    x, y = F._operand(a, op, na), F._operand(b, op, nb)
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        raise TypeError(f"For '{op}', '{na}' or '{nb}' must be a Tensor.")
    x, y = F.promote_scalar(x, y)
    x = x if isinstance(x, Tensor) else Tensor(np.asarray(x, y._data.dtype))
    y = y if isinstance(y, Tensor) else Tensor(np.asarray(y, x._data.dtype))
    if x.dtype != y.dtype:
        wide = np.promote_types(x._data.dtype, y._data.dtype)
        x, y = F.cast(x, wide), F.cast(y, wide)
    F._broadcast_shapes(op, (na, x), (nb, y))
    return x, y


def truncate_div(x: Any, y: Any) -> Tensor:
    """``x / y`` rounded toward zero (integers: C's division)."""
    a, b = _float_pair(x, y, "truncate_div", "x", "y")
    return IN.truncate_div(a, b)


@_composite
def truncate_mod(x: Any, y: Any) -> Tensor:
    """The remainder of ``truncate_div``: the sign of ``x`` (C's ``fmod``)."""
    a, b = _float_pair(x, y, "truncate_mod", "x", "y")
    return F.fmod(a, b)


def nextafter(input: Any, other: Any) -> Tensor:  # noqa: A002
    """The next float after ``input`` in the direction of ``other``."""
    a, b = _same_floats(input, other, "nextafter", "input", "other")
    if a._data.dtype == np.float16:
        raise TypeError(f"For 'nextafter', 'input' must be float32 or float64, but got "
                        f"{a.dtype}.")
    return IN.next_after(a, b)


# --- more elementwise arithmetic ---------------------------------------------------------------
@_composite
def xdivy(x: Any, y: Any) -> Tensor:
    """``x / y``, and 0 where ``x`` is 0 (whatever ``y``)."""
    a, b = _float_pair(x, y, "xdivy", "x", "y")
    if a._data.dtype.kind not in "fc":
        raise TypeError(f"For 'xdivy', 'x' and 'y' must be float or complex Tensors, but got "
                        f"{a.dtype}.")
    zero = F.equal(a, 0)
    safe = F.select(zero, F.ones_like(b) if b.shape == zero.shape else
                    F.broadcast_to(F.ones_like(b), zero.shape), F.broadcast_to(b, zero.shape))
    return F.select(zero, F.zeros_like(F.div(a, safe)), F.div(a, safe))


@_composite
def ldexp(x: Any, other: Any) -> Tensor:
    """``x * 2 ** other``."""
    a = _t(x, "ldexp", "x")
    b = _t(other, "ldexp", "other")
    if a._data.dtype.kind != "f":
        a = F.cast(a, mstype.float32)
    return F.mul(a, F.exp2(F.cast(b, a.dtype)))


@_composite
def float_power_ext(input: Any, exponent: Any) -> Tensor:  # noqa: A002
    """``input ** exponent`` computed in float64 (``float_power``)."""
    return _math.float_power(input, exponent)


def approximate_equal(x: Any, y: Any, tolerance: float = 1e-05) -> Tensor:
    """Whether ``|x - y| < tolerance``, elementwise."""
    tol = F._float_param(tolerance, "approximate_equal", "tolerance")
    a, b = _same_floats(x, y, "approximate_equal", "x", "y")
    if a.shape != b.shape or _t(x, "approximate_equal", "x").shape != \
            _t(y, "approximate_equal", "y").shape:
        raise ValueError(f"For 'approximate_equal', 'x' and 'y' must have the same shape, "
                         f"but got {list(x.shape)} and {list(y.shape)}.")
    return F.less(F.abs(F.sub(F.stop_gradient(a), F.stop_gradient(b))), tol)


def is_nonzero(input: Any) -> bool:  # noqa: A002
    """Whether the one element of ``input`` is non-zero (a Python bool)."""
    t = _t(input, "is_nonzero", "input")
    if t.size != 1:
        raise ValueError(f"For 'is_nonzero', 'input' must have exactly one element, but got "
                           f"shape {list(t.shape)} ({t.size} elements).")
    return bool(t.asnumpy().reshape(()) != 0)


# --- complex numbers ---------------------------------------------------------------------------
def _is_complex(t: Tensor) -> bool:
    return t._data.dtype.kind == "c"


def real(input: Any) -> Tensor:  # noqa: A002
    """The real part (a real tensor is its own real part)."""
    t = _t(input, "real", "input")
    return FT.real(t) if _is_complex(t) else t


def imag(input: Any) -> Tensor:  # noqa: A002
    """The imaginary part (zeros for a real tensor)."""
    t = _t(input, "imag", "input")
    return FT.imag(t) if _is_complex(t) else F.zeros_like(t)


def conj(input: Any) -> Tensor:  # noqa: A002
    """The complex conjugate (a real tensor is its own)."""
    t = _t(input, "conj", "input")
    return FT.conj(t) if _is_complex(t) else t


def angle(input: Any) -> Tensor:  # noqa: A002
    """The argument of each complex number, in (-pi, pi]."""
    t = _t(input, "angle", "input")
    if not _is_complex(t):
        raise TypeError(f"For 'angle', 'input' must be a complex64 or complex128 Tensor, but "
                        f"got {t.dtype}.")
    return F.atan2(FT.imag(t), FT.real(t))


def isreal(input: Any) -> Tensor:  # noqa: A002
    """Whether each element is real: true for every element of a real tensor, and where the
    imaginary part is 0 for a complex one."""
    t = _t(input, "isreal", "input")
    if _is_complex(t):
        return F.equal(FT.imag(F.stop_gradient(t)), 0)
    return F.ones_like(F.cast(F.stop_gradient(t), mstype.bool_))


def _complex(re: Any, im: Any, op: str, na: str, nb: str) -> Tensor:
    a, b = _same_floats(re, im, op, na, nb)
    if a._data.dtype == np.float16:
        raise TypeError(f"For '{op}', '{na}' must be float32 or float64, but got {a.dtype}.")
    return FT.complex_(a, b)


@_composite
def polar(abs: Any, angle: Any) -> Tensor:  # noqa: A002
    """The complex numbers ``abs * (cos(angle) + i sin(angle))``."""
    r, th = _same_floats(abs, angle, "polar", "abs", "angle")
    return _complex(F.mul(r, F.cos(th)), F.mul(r, F.sin(th)), "polar", "abs", "angle")


def view_as_real(input: Any) -> Tensor:  # noqa: A002
    """A complex tensor as real numbers: a last axis of 2 holds the real and imaginary
    parts."""
    t = _t(input, "view_as_real", "input")
    if not _is_complex(t):
        raise TypeError(f"For 'view_as_real', 'input' must be a complex Tensor, but got "
                        f"{t.dtype}.")
    return FT.view_as_real(t)


class Complex(PrimitiveOp):
    """``ops.Complex()(real, imag)``: the complex tensor ``real + i imag`` (float32 parts
    give complex64, float64 ones complex128)."""

    def __call__(self, real: Any, imag: Any) -> Tensor:
        return _complex(real, imag, "Complex", "real", "imag")


__all__ = ["lgamma", "digamma", "polygamma", "mvlgamma", "igamma", "igammac", "zeta",
           "erfinv", "i0", "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0",
           "bessel_j1", "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0",
           "bessel_y1", "gcd", "lcm", "bitwise_left_shift", "bitwise_right_shift", "invert",
           "population_count", "truncate_div", "truncate_mod", "nextafter", "xdivy", "ldexp",
           "float_power_ext", "approximate_equal", "is_nonzero", "real", "imag", "conj",
           "angle", "isreal", "polar", "view_as_real"]
