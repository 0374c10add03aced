"""Differential operators for scientific computing: Hessian-vector products (forward over
reverse, batched over vectors), Hessians built from them, the divergence of a vector field,
and Hutchinson's stochastic trace estimator for the Laplacian (the biharmonic operator is in
``fourth_order.py``)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..ad.api import forward, reverse, vectorize
from ..core.tensor import Tensor
from ..prims._util import xp_of
from . import functional as F


def _check_fn(fn: Any, who: str) -> None:
    if not callable(fn):
        raise TypeError(f"For '{who}', the fn should be callable, but got {type(fn).__name__}.")


def _tensors(x: Any, what: str, who: str) -> tuple:
    items = tuple(x) if isinstance(x, (tuple, list)) else (x,)
    if not items:
        raise ValueError(f"For '{who}', '{what}' must not be empty.")
    for t in items:
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{who}', '{what}' must be a Tensor or a tuple of Tensors, "
                            f"but got {type(t).__name__}.")
    return items


class NotScalarError(ValueError):
    """The function given to a Hessian-vector product does not return one element."""


def _value_and_grads(fn: Callable, n: int, who: str) -> Callable:
    """``xs -> (fn(*xs), grads of fn with respect to every x)`` for a scalar ``fn``."""

    def vg(*xs: Any) -> tuple:
        pb = reverse(fn, xs, range(n))
        out = pb.out
        if not isinstance(out, Tensor) or out.size != 1:
            what = (f"shape {list(out.shape)}" if isinstance(out, Tensor)
                    else type(out).__name__)
            raise NotScalarError(f"For '{who}', fn must return a Tensor with one element, but it "
                             f"returned {what}.")
        return out, tuple(pb()[0])

    return vg


def hvp(fn: Callable, inputs: Any, v: Any, batched: bool = False) -> tuple:
    """Hessian-vector product of a scalar ``fn``: ``(fn(*inputs), H v)``, by forward mode over
    reverse mode (one gradient pass carrying a tangent; the Hessian is never formed).

    ``inputs`` is a Tensor or a tuple of Tensors, ``v`` the same structure (the direction in
    every input). With ``batched=True`` each entry of ``v`` has one extra leading axis of ``k``
    vectors and ``H v`` has it too: all ``k`` products in one vectorized pass, the value and
    the reverse pass shared (only the tangent parts carry the batch)."""
    _check_fn(fn, "hvp")
    xs = _tensors(inputs, "inputs", "hvp")
    vs = _tensors(v, "v", "hvp")
    if len(vs) != len(xs):
        raise ValueError(f"For 'hvp', v must have one Tensor per input: got {len(xs)} inputs "
                         f"and {len(vs)} vectors.")
    k = None
    for i, (x, t) in enumerate(zip(xs, vs)):
        want = ((vs[0].shape[0] if vs[0].ndim else -1,) + x.shape) if batched else x.shape
        if t.shape != want:
            lead = "(k,) + " if batched else ""
            raise ValueError(f"For 'hvp', v[{i}] must have shape {lead}{list(x.shape)} like "
                             f"inputs[{i}], but got {list(t.shape)}.")
        if t.dtype != x.dtype:
            raise TypeError(f"For 'hvp', v[{i}] has dtype {t.dtype} but inputs[{i}] has dtype "
                            f"{x.dtype}; they must match.")
        k = t.shape[0] if batched else None
    vg = _value_and_grads(fn, len(xs), "hvp")

    def push(*ts: Any) -> tuple:
        (out, _), (_, hv) = forward(vg, xs, ts)
        return out, hv

    if batched:
        if k == 0:
            raise ValueError("For 'hvp', batched v must hold at least one vector.")
        out, hv = vectorize(push, vs, [0] * len(vs), (None, 0))
    else:
        out, hv = push(*vs)
    return out, (hv if isinstance(inputs, (tuple, list)) else hv[0])


def hessian_by_hvp(fn: Callable, args: tuple, position: int) -> Tensor:
    """The Hessian of a one-element ``fn`` with respect to ``args[position]``, shape
    ``out.shape + x.shape + x.shape``: Hessian-vector products with every basis vector, in
    one batched pass. Raises ``NotScalarError`` for an output of several elements."""
    x = args[position]
    n = x.size
    basis = F.reshape(F.eye(n, n, x.dtype), (n,) + x.shape)

    def of_x(y: Tensor) -> Any:
        return fn(*args[:position], y, *args[position + 1:])

    out, rows = hvp(of_x, x, basis, batched=True)
    return F.reshape(rows, out.shape + x.shape + x.shape)


def divergence(fn: Callable) -> Callable:
    """``x -> sum_i d fn(x)_i / d x_i`` for a vector field ``fn`` whose output has x's shape
    (the trace of its Jacobian): one forward-mode pass per input element, all of them at once
    (vmap over the basis)."""
    _check_fn(fn, "divergence")

    def div(x: Tensor) -> Tensor:
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'divergence', the input must be a Tensor, but got "
                            f"{type(x).__name__}.")
        n = x.size
        basis = F.reshape(F.eye(n, n, x.dtype), (n,) + x.shape)

        def column(e: Tensor) -> Tensor:
            out, tan = forward(fn, [x], [e])
            if not isinstance(out, Tensor) or out.shape != x.shape:
                what = (f"shape {list(out.shape)}" if isinstance(out, Tensor)
                        else type(out).__name__)
                raise ValueError(f"For 'divergence', fn must return a Tensor shaped like its "
                                 f"input {list(x.shape)}, but it returned {what}.")
            return F.reduce_sum(F.mul(tan, e))  # e_i . J e_i

        return F.reduce_sum(vectorize(column, [basis], [0], 0), 0)

    return div


def hutchinson_laplacian(fn: Callable, x: Tensor, num_samples: int, seed: int = 0) -> Tensor:
    """An unbiased stochastic estimate of ``laplacian(fn)(x)`` for a scalar-per-point ``fn``:
    the mean over ``num_samples`` Rademacher vectors z of ``z^T H z`` (Hutchinson), each from
    one Hessian-vector product, all in one batched pass. The variance falls as
    ``1 / num_samples``; for large inputs it costs far less than the exact trace."""
    _check_fn(fn, "hutchinson_laplacian")
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'hutchinson_laplacian', x must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples < 1:
        raise ValueError(f"For 'hutchinson_laplacian', num_samples must be a positive int, but "
                         f"got {num_samples!r}.")
    # a huge num_samples: a clear error before the probes are allocated
    F._sizes((num_samples,) + tuple(x.shape), "hutchinson_laplacian", "num_samples")
    rng = np.random.default_rng(seed)
    z = rng.integers(0, 2, size=(num_samples,) + tuple(x.shape)) * 2 - 1
    # the probes live where x does (NumPy or CuPy), drawn on the host for reproducibility
    zt = Tensor(xp_of(x._data).asarray(z.astype(x._data.dtype)))
    _, hz = hvp(fn, x, zt, batched=True)
    axes = tuple(range(1, zt.ndim))
    quad = F.reduce_sum(F.mul(hz, zt), axes) if axes else F.mul(hz, zt)
    return F.div(F.reduce_sum(quad, 0), float(num_samples))

