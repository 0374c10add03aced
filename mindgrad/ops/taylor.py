"""Taylor-mode API: ``jet``, ``derivative`` (MindSpore's conventions: series hold raw
derivatives), ``laplacian`` and ``linearize``."""
from __future__ import annotations

import math
from typing import Any, Callable

from ..ad.api import forward
from ..ad.laplacian import laplacian_call
from ..ad.taylor import taylor_call
from ..core.tree import flatten, unflatten
from ..core.tensor import Tensor
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
    all-ones direction, elementwise for elementwise functions.

    The input path x + t has no coefficients beyond the first: they enter Taylor mode as
    known zeros (None), so no rule multiplies or adds them, and only the requested
    order's coefficient is scaled to a derivative."""
    if not isinstance(order, int) or isinstance(order, bool):
        raise TypeError(f"For `F.derivative`, order must be an int, but got "
                        f"{type(order).__name__}.")
    if order < 1:
        raise ValueError(f"For `F.derivative`, value of order should not be less than 1, but "
                         f"got {order}.")
    _check_fn(fn, "derivative")
    ps = _as_tuple(primals, "primals", "derivative")
    # the direction as one broadcast cell: multiplying by it returns the other factor,
    # eagerly (mul's broadcast-one shortcut) and compiled (a neutral operand)
    series = [[F.broadcast_to(F.ones((), p.dtype), p.shape)] + [None] * (order - 1)
              for p in ps]
    out, out_coeffs = taylor_call(fn, list(ps), series, order)
    scale = math.factorial(order)

    def nth(o: Any, coeffs: list) -> Tensor:
        c = coeffs[order - 1]
        return F.zeros_like(o) if c is None else F.mul(c, scale)

    if isinstance(out, Tensor):
        return out, nth(out, out_coeffs)
    if not isinstance(out, (tuple, list)) or not all(isinstance(o, Tensor) for o in out):
        raise TypeError(f"For 'derivative', the function must return a Tensor or a tuple or "
                        f"list of Tensors, but got {type(out).__name__}.")
    return list(out), [nth(o, c) for o, c in zip(out, out_coeffs)]


def laplacian(fn: Callable, batch_axis: int | None = None) -> Callable:
    """``x -> sum_i d^2 fn / dx_i^2`` over every element of x, the Laplacian of each output
    element (a vector-valued ``fn`` gets one per output element; a tuple of outputs, a tuple
    of Laplacians).

    Computed by one forward-Laplacian pass (collapsed second-order Taylor mode): every value
    carries its first derivatives along all input directions at once and the sum of its
    second derivatives, so the cost is one forward pass over a batch of ``x.size`` directions
    rather than one second-order pass per direction (see ``mindgrad.ad.laplacian``).

    ``batch_axis``: for a ``fn`` that treats the slices of x along this axis independently
    (a network applied to a batch of points, with no batch statistics), the Laplacian with
    respect to each point, computed with the directions of one point (``x.size /
    x.shape[batch_axis]`` of them) instead of all of x's. For such a ``fn`` it equals the
    result without ``batch_axis``, which costs one direction per element of the whole batch.
    ``vmap(laplacian(f))`` gives the same numbers for a per-point ``f``.
    """
    _check_fn(fn, "laplacian")
    if batch_axis is not None and (not isinstance(batch_axis, int)
                                   or isinstance(batch_axis, bool)):
        raise TypeError(f"For 'laplacian', batch_axis must be an int or None, but got "
                        f"{type(batch_axis).__name__}.")

    def lap(x: Tensor) -> Tensor:
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'laplacian', the input must be a Tensor, but got "
                            f"{type(x).__name__}.")
        if not x.is_floating_point():
            raise TypeError(f"For 'laplacian', the input must have a floating dtype, but got "
                            f"{x.dtype}.")
        out, _, laps = laplacian_call(fn, x, _directions(x, batch_axis))
        leaves, tree = flatten(out)
        return unflatten(tree, [F.zeros_like(o) if lp is None else lp
                                for o, lp in zip(leaves, laps)])

    return lap


def _directions(x: Tensor, batch_axis: int | None) -> Tensor:
    """The unit directions, stacked on a new leading axis: every element of x, or (with
    ``batch_axis``) every element of one point, the same for all points at once."""
    if batch_axis is None:
        n = x.size
        return F.reshape(F.eye(n, n, x.dtype), (n,) + x.shape)
    nd = x.ndim
    if not -nd <= batch_axis < nd:
        raise ValueError(f"For 'laplacian', batch_axis {batch_axis} is out of range for an "
                         f"input of shape {list(x.shape)}.")
    b = batch_axis % nd
    point = x.shape[:b] + x.shape[b + 1:]
    n = math.prod(point)
    basis = F.reshape(F.eye(n, n, x.dtype), (n,) + point[:b] + (1,) + point[b:])
    return F.broadcast_to(basis, (n,) + x.shape)


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
