"""General-purpose functions of ``mindspore.ops`` built on mindgrad's operators: the
Gumbel-softmax sample (``gumbel_softmax``), a matrix's condition number (``cond``), gradient
clipping by the global norm (``clip_by_global_norm``), the quantiles ``quantile`` and
``nanquantile``, ``print_``, and the scalar and tuple conversions ``scalar_cast``,
``scalar_to_tensor`` and ``tuple_to_array``.

The quantiles interpolate linearly between the two sorted values around position
``q * (n - 1)`` (NumPy's default method), through a stable sort and a gather, so they are
differentiable in ``input`` (the gradient goes to the two values used).

``gumbel_softmax`` draws its noise from the stream ``mindspore.set_seed`` seeds (the numbers
are NumPy's, as for every random function of mindgrad) and is differentiable in the logits;
``hard=True`` gives one-hot samples with the soft sample's gradient (straight through)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..prims.random import draw
from . import functional as F
from .debug_ops import Print
from .decompositions import matrix_norm
from .functional import _composite
from . import sorting
from .math_functions import addn


# --- gumbel_softmax ---------------------------------------------------------------------------
@_composite
def gumbel_softmax(logits: Any, tau: float = 1.0, hard: bool = False, dim: int = -1) -> Tensor:
    """``softmax((logits + g) / tau, dim)`` with ``g`` standard Gumbel noise
    (``-log(-log(u))``, ``u`` uniform on (0, 1)); with ``hard`` the one-hot vector of its
    largest entry, whose gradient is the soft sample's. ``logits``: float16 or float32."""
    op = "gumbel_softmax"
    if not isinstance(logits, Tensor):
        raise TypeError(f"For '{op}', 'logits' must be a Tensor, but got "
                        f"{type(logits).__name__}.")
    if logits.dtype not in (mstype.float16, mstype.float32):
        raise TypeError(f"For '{op}', the 'logits' should be one of [mindspore.float16, "
                        f"mindspore.float32], but got '{logits.dtype}'.")
    if not isinstance(tau, float):
        raise TypeError(f"For '{op}', the type of 'tau' should be 'float', but got type "
                        f"'{type(tau).__name__}'.")
    if not tau > 0:
        raise ValueError(f"For '{op}', the 'tau' must be float and must > 0, but got {tau!r}.")
    if not isinstance(hard, bool):
        raise TypeError(f"For '{op}', the type of 'hard' should be 'bool', but got type "
                        f"'{type(hard).__name__}'.")
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"For '{op}', the type of 'dim' should be 'int', but got type "
                        f"'{type(dim).__name__}'.")
    if logits.ndim == 0:
        raise ValueError(f"For '{op}', the 0-D input is not supported.")
    if not -logits.ndim <= dim < logits.ndim:
        raise ValueError(f"For '{op}', the 'dim' must be in range of [{-logits.ndim}, "
                         f"{logits.ndim}), but got {dim}.")
    dt = logits._data.dtype
    u = draw(shape=tuple(logits.shape), kind="uniform", dtype=np.dtype(np.float32), seed=None)
    # u in (0, 1): a draw of exactly 0 would give an infinite noise
    u = F.clamp(u, float(np.finfo(np.float32).tiny), None)
    gumbel = F.cast(F.neg(F.log(F.neg(F.log(u)))), mstype.from_numpy(dt))
    soft = F.softmax(F.div(F.add(logits, gumbel), tau), dim)
    if not hard:
        return soft
    index = F.argmax(soft, dim, True)
    one_hot = F.cast(F.equal(F.arange(0, logits.shape[dim]).reshape(
        [-1 if a == dim % logits.ndim else 1 for a in range(logits.ndim)]), index), soft.dtype)
    # the one-hot value, with the soft sample's gradient
    return F.add(F.sub(one_hot, F.stop_gradient(soft)), soft)


# --- cond -----------------------------------------------------------------------------------------
_COND_ORDS = (2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc", None)


@_composite
def cond(A: Any, p: Any = None) -> Tensor:  # noqa: N803 - MindSpore's name
    """The condition number ``norm(A, p) * norm(inv(A), p)`` of a (batch of) square float32 or
    float64 matrix ``A``, over its last two axes; ``p`` is a matrix norm's order (2, -2, 1,
    -1, inf, -inf, 'fro', 'nuc'; None: 2)."""
    op = "cond"
    if not isinstance(A, Tensor):
        raise TypeError(f"For '{op}', 'A' must be a Tensor, but got {type(A).__name__}.")
    if isinstance(p, bool) or p not in _COND_ORDS:
        raise ValueError(f"For '{op}', 'p' must be one of 2, -2, 1, -1, inf, -inf, 'fro', "
                         f"'nuc' or None, but got {p!r}.")
    if A.dtype not in (mstype.float32, mstype.float64):
        raise TypeError(f"For '{op}', 'A' must be a Tensor of float32 or float64, but got "
                        f"{A.dtype}.")
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError(f"For '{op}', 'A' must be a (batch of) square matrix, but got shape "
                         f"{list(A.shape)}.")
    order = 2 if p is None else p
    return F.mul(matrix_norm(A, order), matrix_norm(F.inverse(A), order))


# --- clip_by_global_norm ---------------------------------------------------------------------------
@_composite
def clip_by_global_norm(x: Any, clip_norm: Any = 1.0, use_norm: Any = None) -> Any:
    """The tensors of ``x`` (a tuple or list of them, or one Tensor) scaled by
    ``clip_norm / max(global_norm, clip_norm)``, ``global_norm`` being the L2 norm of all
    their elements together: unchanged when it is at most ``clip_norm``. Gives a tuple (a
    Tensor for a Tensor); an integer tensor's scaled values are truncated in its dtype."""
    op = "clip_by_global_norm"
    if use_norm is not None:
        raise ValueError(f"For '{op}', input 'use_norm' only supports None currently, but got "
                         f"'use_norm': {use_norm!r}.")
    one = isinstance(x, Tensor)
    xs = (x,) if one else x
    if not isinstance(xs, (tuple, list)) or not all(isinstance(t, Tensor) for t in xs):
        raise TypeError(f"For '{op}', 'x' must be a Tensor or a tuple / list of Tensors, but "
                        f"got {type(x).__name__}.")
    if not xs:
        raise ValueError(f"For '{op}', 'x' must hold at least one Tensor.")
    if isinstance(clip_norm, Tensor) and clip_norm.size == 1:
        clip_norm = clip_norm.asnumpy().reshape(()).item()
    if isinstance(clip_norm, bool) or not isinstance(clip_norm, (int, float)):
        raise TypeError(f"For '{op}', 'clip_norm' must be a float, an int or a one-element "
                        f"Tensor, but got {type(clip_norm).__name__}.")
    if not clip_norm > 0:
        raise ValueError(f"For '{op}', the argument 'clip_norm' must > 0.0, but got "
                         f"{clip_norm!r}.")
    wide = mstype.float64 if any(t.dtype == mstype.float64 for t in xs) else mstype.float32
    floats = [t if t.dtype in (mstype.float16, mstype.float32, mstype.float64)
              else F.cast(t, mstype.float32) for t in xs]
    total = F.sqrt(addn([F.cast(F.reduce_sum(F.square(t)), wide) for t in floats]))
    scale = F.div(float(clip_norm), F.maximum(total, float(clip_norm)))
    out = tuple(F.cast(F.mul(f, F.cast(scale, f.dtype)), t.dtype) for f, t in zip(floats, xs))
    return out[0] if one else out


# --- quantile, nanquantile ------------------------------------------------------------------------
def _quantile_levels(q: Any, x: Tensor, op: str) -> tuple:
    """``(levels, one)``: the levels of ``q`` as floats, and whether ``q`` is a single level
    (a number or a 0-D Tensor: no axis for it in the result)."""
    if isinstance(q, Tensor):
        if q.dtype != x.dtype:
            raise TypeError(f"For '{op}', 'q' must have the dtype of 'input', {x.dtype}, but "
                            f"got {q.dtype}.")
        if q.ndim > 1:
            raise ValueError(f"For '{op}', a Tensor 'q' must be 0-D or 1-D, but got shape "
                             f"{list(q.shape)}.")
        levels, one = [float(v) for v in q.asnumpy().reshape(-1)], q.ndim == 0
    elif isinstance(q, float):
        levels, one = [q], True
    else:
        raise TypeError(f"For '{op}', 'q' must be a float or a Tensor, but got "
                        f"{type(q).__name__}.")
    if not all(0.0 <= v <= 1.0 for v in levels):
        raise ValueError(f"For '{op}', 'q' must lie in [0, 1], but got {levels}.")
    return levels, one


def _quantile(input: Any, q: Any, axis: Any, keepdims: Any, skip_nan: bool,  # noqa: A002
              op: str) -> Tensor:
    if not isinstance(input, Tensor):
        raise TypeError(f"For '{op}', 'input' must be a Tensor, but got {type(input).__name__}.")
    if input.dtype not in (mstype.float32, mstype.float64):
        raise TypeError(f"For '{op}', 'input' must be a Tensor of float32 or float64, but got "
                        f"{input.dtype}.")
    keepdims = F._flag(keepdims, op, "keepdims")
    levels, one = _quantile_levels(q, input, op)
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)):
        raise TypeError(f"For '{op}', 'axis' must be None or an int, but got "
                        f"{type(axis).__name__}.")
    x = F.reshape(input, (-1,)) if axis is None or input.ndim == 0 else input
    a = 0 if axis is None or input.ndim == 0 else F._axis(axis, input.ndim, op)
    if x.shape[a] == 0:
        raise ValueError(f"For '{op}', 'input' must not be empty along the axis, but got "
                         f"shape {list(input.shape)}.")
    values = sorting.take_along(x, sorting._positions(x, a, False), a)  # stable: NaN last
    nan = F.isnan(F.stop_gradient(x))
    if skip_nan:
        count = F.reduce_sum(F.cast(F.logical_not(nan), x.dtype), a, True)
    else:
        count = F.fill(x.dtype, [1 if d == a else n for d, n in enumerate(x.shape)],
                       float(x.shape[a]))
    last = F.maximum(F.sub(count, 1.0), 0.0)
    outs = []
    for level in levels:
        pos = F.mul(last, level)
        lo = F.floor(pos)
        hi = F.minimum(F.ceil(pos), last)
        lo_v = sorting.take_along(values, F.cast(lo, mstype.int64), a)
        hi_v = sorting.take_along(values, F.cast(hi, mstype.int64), a)
        out = F.add(lo_v, F.mul(F.sub(hi_v, lo_v), F.sub(pos, lo)))
        # NaN where a slice holds one (quantile) or holds nothing else (nanquantile)
        undefined = F.equal(count, 0.0) if skip_nan else F.any(nan, a, True)
        outs.append(F.select(undefined, F.fill(x.dtype, out.shape, float("nan")), out))
    result = F.stack(outs) if not one else outs[0]
    k = 0 if one else 1  # the axis of ``x`` reduced, in ``result``
    if keepdims:
        if axis is None or input.ndim == 0:
            shape = (() if one else (len(levels),)) + (1,) * input.ndim
            return F.reshape(result, shape)
        return result
    return F.squeeze(result, a + k)


@_composite
def quantile(input: Any, q: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A002
    """The ``q``-th quantiles of ``input`` (float32 or float64) along ``axis`` (None: of all
    elements), interpolating linearly; ``q`` is a float or a 0-D / 1-D Tensor of levels in
    [0, 1] (of ``input``'s dtype; a 1-D ``q`` gives the result a first axis of its length).
    A slice holding NaN gives NaN."""
    return _quantile(input, q, axis, keepdims, False, "quantile")


@_composite
def nanquantile(input: Any, q: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A002
    """``quantile`` ignoring NaN (NaN only where a slice holds nothing else)."""
    return _quantile(input, q, axis, keepdims, True, "nanquantile")


# --- printing and scalar conversions -----------------------------------------------------------
def print_(*input_x: Any) -> None:
    """Write each input (strings, numbers, Tensors, tuples of them) on a line of its own, as
    ``ops.Print()`` does; returns None."""
    Print()(*input_x)


_SCALAR_CAST = {mstype.int64: int, mstype.float64: float, mstype.bool_: bool}


def scalar_cast(input_x: Any, input_y: Any) -> Any:
    """The Python number ``input_x`` as ``input_y`` (``mindspore.int64``: int, truncated
    toward zero; ``float64``: float; ``bool_``: bool)."""
    if isinstance(input_x, Tensor) or not isinstance(input_x, (bool, int, float)):
        raise TypeError(f"For 'scalar_cast', the type of 'input_x' should be one of 'bool' or "
                        f"'Number', but got type '{type(input_x).__name__}'.")
    to = _SCALAR_CAST.get(input_y) if isinstance(input_y, mstype.DType) else None
    if to is None:
        raise ValueError(f"For 'scalar_cast', 'input_y' must be one of mindspore.int64, "
                         f"mindspore.float64 or mindspore.bool_, but got {input_y}.")
    if to is int and isinstance(input_x, float) and not math.isfinite(input_x):
        raise ValueError(f"For 'scalar_cast', the float {input_x} has no int value.")
    return to(input_x)


def scalar_to_tensor(input_x: Any, dtype: Any = mstype.float32) -> Tensor:
    """A 0-D tensor of ``dtype`` holding the Python number ``input_x`` (an int too large for
    ``dtype`` wraps around, as NumPy's cast does)."""
    if isinstance(input_x, Tensor) or not isinstance(input_x, (bool, int, float)):
        raise TypeError(f"For 'scalar_to_tensor', the type of 'input_x' should be one of "
                        f"'bool', 'int' or 'float', but got type '{type(input_x).__name__}'.")
    if not isinstance(dtype, mstype.DType):
        raise TypeError(f"For 'scalar_to_tensor', 'dtype' must be a mindspore number type, but "
                        f"got {dtype!r}.")
    dt = mstype.to_numpy(dtype, "scalar_to_tensor")
    return Tensor(_number_array([input_x], dt, "scalar_to_tensor").reshape(()))


def _number_array(values: list, dt: np.dtype, op: str) -> np.ndarray:
    """The numbers ``values`` in dtype ``dt``: floats truncated toward zero for an integer
    dtype, and ints wrapping around (NumPy's cast of a too large int is an error)."""
    if dt.kind == "b":
        return np.array([bool(v) for v in values])
    if dt.kind in "iu":
        if any(isinstance(v, float) and not math.isfinite(v) for v in values):
            raise ValueError(f"For '{op}', a NaN or infinite value has no integer value.")
        return np.array([int(v) % (1 << 64) for v in values], np.uint64).astype(dt)
    return np.array(values, dt)


def tuple_to_array(input_x: Any) -> Tensor:
    """The tuple of numbers ``input_x`` as a tensor: Int32 when its first element is an int or
    a bool (larger ints wrap around), else Float32 (nested tuples too)."""
    if not isinstance(input_x, tuple):
        raise TypeError(f"For 'tuple_to_array', 'input_x' must be a tuple, but got "
                        f"{type(input_x).__name__}.")
    if not input_x:
        raise ValueError("For 'tuple_to_array', 'input_x' must not be empty.")
    flat = [e.asnumpy().item() if isinstance(e, Tensor) and e.size == 1 else e
            for e in input_x]
    try:
        values = np.array(flat, np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"For 'tuple_to_array', 'input_x' must be a tuple of numbers (or of "
                        f"tuples of numbers of one length), but got {input_x!r}.") from None
    if isinstance(input_x[0], (bool, int)) and values.ndim == 1:
        return Tensor(_number_array(flat, np.dtype(np.int32), "tuple_to_array"))
    return Tensor(values.astype(np.float32))


__all__ = ["gumbel_softmax", "cond", "clip_by_global_norm", "quantile", "nanquantile", "print_", "scalar_cast",
           "scalar_to_tensor", "tuple_to_array"]
