"""Taylor-mode API: ``jet``, ``derivative`` (MindSpore's conventions: series hold raw
derivatives), ``laplacian`` and ``linearize``."""
from __future__ import annotations

import math
from typing import Any, Callable

from ..ad.api import forward, vectorize
from ..ad.taylor import taylor_call
from ..common.tensor import Tensor
from . import functional as F
from .composite import _check_tangents


def _check_fn(fn: Any, who: str) -> None:
    if not callable(fn):
        raise TypeError(f"For '{who}', the fn should be callable, but got {type(fn).__name__}.")


def _as_tuple(x: Any, what: str, who: str) -> tuple:
    items = tuple(x) if isinstance(x, (tuple, list)) else (x,)
    for t in items:
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{who}', '{what}' must be a Tensor or a tuple of Tensors, "
                            f"but got {type(t).__name__}.")
    return items


def jet(fn: Callable, primals: Any, series: Any) -> tuple:
    """Taylor-mode forward propagation. ``series`` holds, per input, the derivatives of the
    input path ``x(t)`` of orders 1..K stacked on a leading axis (shape ``(K,) + x.shape``; a
    series shaped like the input is order 1). Returns ``(fn(primals), out_series)``, where
    ``out_series[k-1]`` is the k-th derivative of ``fn(x(t))`` at t = 0."""
    _check_fn(fn, "jet")
    ps = _as_tuple(primals, "primals", "jet")
    ss = _as_tuple(series, "series", "jet")
    if len(ps) != len(ss):
        raise ValueError(f"For 'jet', got {len(ps)} primals but {len(ss)} series.")
    coeffs, order = [], None
    for i, (p, s) in enumerate(zip(ps, ss)):
        if p.dtype != s.dtype:
            raise TypeError(f"For 'jet', primals[{i}] has dtype {p.dtype} but series[{i}] has "
                            f"dtype {s.dtype}; they must match.")
        if s.shape == p.shape:
            s = F.expand_dims(s, 0)
        if s.shape[1:] != p.shape:
            raise ValueError(f"For 'jet', series[{i}] must have shape (K,) + {list(p.shape)}, "
                             f"but got {list(s.shape)}.")
        k = s.shape[0]
        if order is not None and k != order:
            raise ValueError(f"For 'jet', all series must have the same order, got {order} "
                             f"and {k}.")
        order = k
        # raw derivatives -> normalized Taylor coefficients
        coeffs.append([F.div(s[j], math.factorial(j + 1)) for j in range(k)])
    out, out_coeffs = taylor_call(fn, list(ps), coeffs, order)
    if isinstance(out, Tensor):
        return out, _raw_derivatives(out, out_coeffs)
    # several outputs: lists of outputs and of their series, as MindSpore returns them
    if not isinstance(out, (tuple, list)) or not all(isinstance(o, Tensor) for o in out):
        raise TypeError(f"For 'jet', the function must return a Tensor or a tuple or list of "
                        f"Tensors, but got {type(out).__name__}.")
    return list(out), [_raw_derivatives(o, c) for o, c in zip(out, out_coeffs)]


def _raw_derivatives(out: Tensor, coeffs: list) -> Tensor:
    """Normalized Taylor coefficients of one output -> its raw derivatives, stacked."""
    return F.stack([F.zeros_like(out) if c is None else F.mul(c, math.factorial(j + 1))
                    for j, c in enumerate(coeffs)])


def derivative(fn: Callable, primals: Any, order: int) -> tuple:
    """``(fn(x), d^order/dt^order fn(x + t))`` at t = 0: the order-th derivative along the
    all-ones direction, elementwise for elementwise functions."""
    if not isinstance(order, int) or isinstance(order, bool):
        raise TypeError(f"For `F.derivative`, order must be an int, but got "
                        f"{type(order).__name__}.")
    if order < 1:
        raise ValueError(f"For `F.derivative`, value of order should not be less than 1, but "
                         f"got {order}.")
    ps = _as_tuple(primals, "primals", "derivative")
    series = tuple(F.concat([F.expand_dims(F.ones_like(p), 0)] +
                            [F.expand_dims(F.zeros_like(p), 0)] * (order - 1)) for p in ps)
    out, derivs = jet(fn, ps if isinstance(primals, (tuple, list)) else ps[0],
                      series if isinstance(primals, (tuple, list)) else series[0])
    if isinstance(out, list):
        return out, [d[order - 1] for d in derivs]
    return out, derivs[order - 1]


def laplacian(fn: Callable) -> Callable:
    """``x -> sum_i d^2 fn / dx_i^2`` (over every element of x), by second-order Taylor mode
    along each basis direction, all directions at once (vmap). For a vector-valued ``fn``
    the Laplacian of each output element is returned."""
    _check_fn(fn, "laplacian")

    def lap(x: Tensor) -> Tensor:
        n = x.size
        basis = F.reshape(F.eye(n, dtype=x.dtype), (n,) + x.shape)

        def second(e: Tensor) -> Tensor:
            _, coeffs = taylor_call(fn, [x], [[e, None]], 2)
            c2 = coeffs[1]
            return F.zeros_like(fn(x)) if c2 is None else F.mul(c2, 2.0)

        return F.reduce_sum(vectorize(second, [basis], [0], 0), 0)

    return lap


def linearize(fn: Callable, inputs: Any) -> tuple:
    """``(fn(*inputs), jvp_fn)`` where ``jvp_fn(v)`` gives the forward derivative along v."""
    _check_fn(fn, "linearize")
    ps = _as_tuple(inputs, "inputs", "linearize")
    out = fn(*ps)

    def jvp_fn(*v: Any) -> Any:
        vs = v[0] if len(v) == 1 and isinstance(v[0], (tuple, list)) else v
        vs = _as_tuple(vs, "v", "linearize")
        _check_tangents(ps, vs, "linearize")
        return forward(fn, ps, vs)[1]

    return out, jvp_fn
