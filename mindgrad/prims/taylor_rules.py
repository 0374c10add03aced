"""Taylor-mode rules shared by the primitives (normalized coefficients x_k = x^(k)/k!),
written with primitives. Each primitive assigns its rule next to its definition; primitives
without one use ``mindgrad.ad.taylor.from_jvp``. These dedicated rules cost a polynomial in the
order: coefficientwise for linear maps, Cauchy products for bilinear ones, and the
recurrence z_k = (1/k) sum_j j x_j w_{k-j} (w = f'(x)) for unary functions."""
from __future__ import annotations

import math
from typing import Any, Callable

from . import arith as A
from . import compare as C
from . import shape as S


def _order(series: list) -> int:
    return next(len(s) for s in series if s is not None)


def _at(series: list | None, primal: Any, k: int) -> Any:
    """Coefficient k of an argument (k = 0 is the primal; None means zero)."""
    if k == 0:
        return primal
    if series is None:
        return None
    return series[k - 1]


def _add(a: Any, b: Any) -> Any:
    if a is None:
        return b
    if b is None:
        return a
    return A.add(a, b)


def linear(prim: Any) -> Callable:
    """Linear in its first argument (the others are constants such as index arrays)."""

    def rule(primals, series, **params):
        if any(s is not None for s in series[1:]):
            raise TypeError(f"Taylor mode for {prim.name}: only the first input may vary.")
        rest = primals[1:]
        out = prim(*primals, **params)
        return out, [None if c is None else prim(c, *rest, **params) for c in series[0]]

    rule.kind = "linear"  # how the forward Laplacian treats it (ad/laplacian.py)
    return rule


def additive(sign: float) -> Callable:
    """For add (sign 1) and sub (sign -1): coefficients add, broadcast to the output."""

    def rule(primals, series, **params):
        x, y = primals
        out = A.add(x, y) if sign > 0 else A.sub(x, y)
        coeffs = []
        for k in range(1, _order(series) + 1):
            a, b = _at(series[0], x, k), _at(series[1], y, k)
            if b is not None and sign < 0:
                b = A.neg(b)
            c = _add(a, b)
            coeffs.append(None if c is None else S.broadcast_like(c, out))
        return out, coeffs

    rule.kind = "additive"  # how the forward Laplacian treats it (ad/laplacian.py)
    return rule


def bilinear(prim: Any) -> Callable:
    """For mul and matmul: z_k = sum_j prim(x_j, y_{k-j}) (a Cauchy product)."""

    def rule(primals, series, **params):
        x, y = primals
        out = prim(x, y, **params)
        coeffs = []
        for k in range(1, _order(series) + 1):
            total = None
            for j in range(k + 1):
                a, b = _at(series[0], x, j), _at(series[1], y, k - j)
                if a is not None and b is not None:
                    total = _add(total, prim(a, b, **params))
            coeffs.append(None if total is None else S.broadcast_like(total, out))
        return out, coeffs

    rule.kind = "bilinear"  # how the forward Laplacian treats it (ad/laplacian.py)
    return rule


def div_rule(primals, series):
    """z = x / y: z_k = (x_k - sum_{j>=1} y_j z_{k-j}) / y_0."""
    x, y = primals
    z0 = A.div(x, y)
    zs: list = []
    for k in range(1, _order(series) + 1):
        acc = _at(series[0], x, k)
        for j in range(1, k + 1):
            yj, zk = _at(series[1], y, j), (z0 if k - j == 0 else zs[k - j - 1])
            if yj is not None and zk is not None:
                term = A.mul(yj, zk)
                acc = A.neg(term) if acc is None else A.sub(acc, term)
        zs.append(None if acc is None else S.broadcast_like(A.div(acc, y), z0))
    return z0, zs


def from_derivative(prim: Any, deriv: Callable) -> Callable:
    """For a unary f with f'(x) = deriv(x, f(x)): z_k = (1/k) sum_{j=1..k} j x_j w_{k-j},
    where w = deriv(x, z) is itself Taylor-propagated to order k-1."""
    from ..ad.taylor import taylor_call

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
                    total = _add(total, _scaled(A.mul(xj, wk), j / k))
            zs.append(total)
        return z0, zs

    rule.kind = "unary"  # how the forward Laplacian treats it (ad/laplacian.py)
    return rule


def _scaled(x: Any, c: float) -> Any:
    """``c x``, without a pass over x when c is 1."""
    return x if c == 1 else A.mul(x, c)


def tanh_rule(tanh: Any) -> Callable:
    """tanh through its derivative 1 - z^2, whose series is a Cauchy product of z's own:
    w_0 = 1 - z_0^2, w_m = -sum_i z_i z_{m-i}, and z_k = (1/k) sum_j j x_j w_{k-j}. No
    nested Taylor pass: about half the operations of the generic unary rule."""

    def rule(primals, series, **params):
        (x,), (xs,) = primals, series
        z0 = tanh(x)
        zs: list = [z0]
        ws: list = [A.sub(1.0, A.mul(z0, z0))]
        for k in range(1, len(xs) + 1):
            total = None
            for j in range(1, k + 1):
                xj, wk = xs[j - 1], ws[k - j]
                if xj is not None and wk is not None:
                    total = _add(total, _scaled(A.mul(xj, wk), j / k))
            zs.append(total)
            if k < len(xs):  # w_k, for the next orders
                acc = None
                for i in range((k + 1) // 2):
                    a, b = zs[i], zs[k - i]
                    if a is not None and b is not None:
                        acc = _add(acc, A.mul(a, b))
                if acc is not None:
                    acc = A.mul(acc, 2.0)
                if k % 2 == 0 and zs[k // 2] is not None:
                    acc = _add(acc, A.mul(zs[k // 2], zs[k // 2]))
                ws.append(None if acc is None else A.neg(acc))
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
                sk = _add(sk, A.mul(j, A.mul(xj, c[k - j])) if c[k - j] is not None else None)
                ck = _add(ck, A.mul(j, A.mul(xj, s[k - j])) if s[k - j] is not None else None)
            s.append(None if sk is None else A.div(sk, k))
            c.append(None if ck is None else A.mul(sign / k, ck))
        return (s[0], s[1:]) if want_sin else (c[0], c[1:])

    rule.kind = "unary"  # how the forward Laplacian treats it (ad/laplacian.py)
    return rule


def pow_rule(primals, series):
    """x ** y. A small non-negative integer exponent multiplies out (exact, also at x = 0);
    another constant exponent (number or Tensor) uses x z' = c z x'; a varying one goes through
    exp(y log x)."""
    from ..ad.taylor import taylor_call
    from . import unary as U

    x, y = primals
    if series[1] is None and not isinstance(y, bool):
        # a constant exponent (a number or a Tensor): exp(y log x) would be NaN for x < 0
        xs = series[0]
        if isinstance(y, (int, float)) and float(y).is_integer() and 0 <= y <= 8:
            out, coeffs = S.ones_like(x), [None] * len(xs)
            mul_rule = bilinear(A.mul)
            for _ in range(int(y)):
                out, coeffs = mul_rule([out, x], [coeffs, xs])
            return out, coeffs
        z0 = A.pow_(x, y)
        zs: list = []
        for k in range(1, len(xs) + 1):
            total = None
            for j in range(1, k + 1):
                xj, zk = xs[j - 1], (z0 if k - j == 0 else zs[k - j - 1])
                if xj is not None and zk is not None:
                    total = _add(total, A.mul((y + 1) * j - k, A.mul(xj, zk)))
            zs.append(None if total is None else A.div(total, A.mul(k, x)))
        return z0, zs

    def via_exp(a: Any, b: Any) -> Any:
        log_a = math.log(a) if isinstance(a, (int, float)) else U.log(a)
        return U.exp(A.mul(b, log_a))

    _, coeffs = taylor_call(via_exp, [x, y], series, _order(series))
    return A.pow_(x, y), coeffs


def tie_split_like(prim: Any, greater: bool) -> Callable:
    """For maximum (``greater``) and minimum: each coefficient follows the branch the
    primal takes and is the mean of both at a tie, as the first derivative is
    (``arith.tie_share``)."""

    def rule(primals, series, **params):
        x, y = primals
        out = prim(x, y)
        coeffs = []
        for k in range(1, _order(series) + 1):
            a, b = _at(series[0], x, k), _at(series[1], y, k)
            if a is None and b is None:
                coeffs.append(None)
                continue
            a = S.zeros_like(out) if a is None else S.broadcast_like(a, out)
            b = S.zeros_like(out) if b is None else S.broadcast_like(b, out)
            coeffs.append(A.add(A.tie_share(a, x, y, greater), A.tie_share(b, y, x, greater)))
        return out, coeffs

    return rule


def _choose(mask: Any, out: Any, xs: list, ys: list) -> list:
    coeffs = []
    for a, b in zip(xs, ys):
        if a is None and b is None:
            coeffs.append(None)
            continue
        a = S.zeros_like(out) if a is None else S.broadcast_like(a, out)
        b = S.zeros_like(out) if b is None else S.broadcast_like(b, out)
        coeffs.append(C.select(mask, a, b))
    return coeffs


def select_rule(primals, series):
    """select(cond, x, y) is linear in (x, y) for a fixed condition."""
    c, x, y = primals
    out = C.select(c, x, y)
    n = _order(series)
    return out, _choose(c, out, [_at(series[1], x, k) for k in range(1, n + 1)],
                        [_at(series[2], y, k) for k in range(1, n + 1)])


def concat_rule(primals, series, axis):
    """Concatenation is linear in all of its inputs: concatenate each coefficient."""
    out = S.concat(*primals, axis=axis)
    coeffs = []
    for k in range(1, _order(series) + 1):
        parts = [_at(s, p, k) for s, p in zip(series, primals)]
        if all(q is None for q in parts):
            coeffs.append(None)
            continue
        parts = [S.zeros_like(p) if q is None else q for q, p in zip(parts, primals)]
        coeffs.append(S.concat(*parts, axis=axis))
    return out, coeffs
