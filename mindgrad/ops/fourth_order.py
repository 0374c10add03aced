"""The biharmonic operator Δ²u = sum_ij d^4 u / dx_i^2 dx_j^2 for physics-informed networks
(plate bending, Cahn-Hilliard, Stokes stream functions): exact, as the forward Laplacian of the
forward Laplacian, and estimated by randomized fourth-order Taylor mode along Gaussian
directions, batched over the samples."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..ad.api import vectorize
from ..ad.taylor import taylor_call
from ..core.tensor import Tensor
from ..prims._util import xp_of
from . import functional as F
from .differential import _check_fn
from .taylor import laplacian


def _check_point_input(x: Any, who: str) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{who}', the input x must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if not x.is_floating_point():
        raise TypeError(f"For '{who}', the input x must have a floating dtype, but got "
                        f"{x.dtype}.")


def biharmonic(fn: Callable, batch_axis: int | None = None) -> Callable:
    """``x -> sum_{i,j} d^4 fn / dx_i^2 dx_j^2``, the biharmonic operator (the Laplacian of the
    Laplacian) of every output element of ``fn`` over every element of x, exact.

    Computed as the forward Laplacian of the forward Laplacian (``laplacian`` nested): the
    outer pass carries the first derivatives and the summed second-order term of every value
    of the inner pass, so nothing is formed per pair of directions beyond what the two
    collapsed passes need, and the result composes with ``grad`` (training through Δ²u),
    ``vmap`` and GRAPH mode like ``laplacian`` does.

    ``batch_axis``: as for ``laplacian``, for a ``fn`` that treats the slices of x along this
    axis independently (a network applied to a batch of points), the biharmonic with respect
    to each point, with one point's directions in each of the two passes."""
    _check_fn(fn, "biharmonic")
    if batch_axis is not None and (not isinstance(batch_axis, int)
                                   or isinstance(batch_axis, bool)):
        raise TypeError(f"For 'biharmonic', batch_axis must be an int or None, but got "
                        f"{type(batch_axis).__name__}.")
    nested = laplacian(laplacian(fn, batch_axis), batch_axis)

    def bih(x: Tensor) -> Any:
        _check_point_input(x, "biharmonic")
        if batch_axis is not None and not -x.ndim <= batch_axis < x.ndim:
            raise ValueError(f"For 'biharmonic', batch_axis {batch_axis} is out of range for "
                             f"an input of shape {list(x.shape)}.")
        out = nested(x)
        # the nested Laplacian keeps a non-Tensor output as it is: refuse it here
        if not (isinstance(out, Tensor) or isinstance(out, (tuple, list)) and out
                and all(isinstance(o, Tensor) for o in out)):
            raise TypeError(f"For 'biharmonic', fn must return a Tensor or a tuple or list of "
                            f"Tensors, but got {type(out).__name__}.")
        return out

    return bih


def biharmonic_estimate(fn: Callable, x: Tensor, num_samples: int, seed: int = 0) -> Any:
    """An unbiased stochastic estimate of ``biharmonic(fn)(x)`` by randomized Taylor mode:
    for a standard Gaussian direction v over all of x, ``E[(v . grad)^4 fn] = 3 Δ²fn`` (the
    Gaussian fourth moments pair the four indices in three ways), so the estimate is the mean
    over ``num_samples`` directions of the fourth directional derivative, divided by 3. Each
    fourth derivative comes from one fourth-order Taylor pass along v (the path x + t v, its
    higher coefficients known zeros), and all ``num_samples`` passes run as one vectorized
    pass (vmap over the directions).

    The directions are drawn on the host from ``numpy.random.default_rng(seed)`` and have x's
    dtype; for a ``fn`` that treats points independently every point gets its own
    direction, so each point's estimate is unbiased. The estimate is differentiable (train
    through it with ``grad``) and its variance falls as ``1 / num_samples``; the cost does not
    grow with the input dimension the way the exact operator's does."""
    _check_fn(fn, "biharmonic_estimate")
    _check_point_input(x, "biharmonic_estimate")
    if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples < 1:
        raise ValueError(f"For 'biharmonic_estimate', num_samples must be a positive int, but "
                         f"got {num_samples!r}.")
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise TypeError(f"For 'biharmonic_estimate', seed must be an int, but got "
                        f"{type(seed).__name__}.")
    # a huge num_samples: a clear error before the directions are allocated
    F._sizes((num_samples,) + tuple(x.shape), "biharmonic_estimate", "num_samples")
    rng = np.random.default_rng(seed)
    v = rng.standard_normal((num_samples,) + tuple(x.shape))
    # the directions live where x does (NumPy or CuPy), drawn on the host for reproducibility
    vt = Tensor(xp_of(x._data).asarray(v.astype(x._data.dtype)))

    def fourth(d: Tensor) -> Any:
        out, coeffs = taylor_call(fn, [x], [[d, None, None, None]], 4)
        if isinstance(out, Tensor):
            return _fourth_derivative(out, coeffs)
        if not isinstance(out, (tuple, list)) or not out or not all(
                isinstance(o, Tensor) for o in out):
            raise TypeError(f"For 'biharmonic_estimate', fn must return a Tensor or a tuple "
                            f"or list of Tensors, but got {type(out).__name__}.")
        return tuple(_fourth_derivative(o, c) for o, c in zip(out, coeffs))

    per_sample = vectorize(fourth, [vt], [0], 0)
    if isinstance(per_sample, Tensor):
        return F.div(F.reduce_sum(per_sample, 0), float(num_samples))
    return tuple(F.div(F.reduce_sum(s, 0), float(num_samples)) for s in per_sample)


def _fourth_derivative(out: Tensor, coeffs: list) -> Tensor:
    """One output's fourth Taylor coefficient along v, as ``(v . grad)^4 fn / 3``: the
    coefficient times 4! / 3 (the three Gaussian pairings) = 8."""
    c = coeffs[3]
    return F.zeros_like(out) if c is None else F.mul(c, 8.0)
