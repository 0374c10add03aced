"""General-purpose functions of ``mindspore.ops`` built on mindgrad's operators: the
Gumbel-softmax sample (``gumbel_softmax``), a matrix's condition number (``cond``), gradient
clipping by the global norm (``clip_by_global_norm``), ``print_``, and the scalar and tuple
conversions ``scalar_cast``, ``scalar_to_tensor`` and ``tuple_to_array``.

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


__all__ = ["gumbel_softmax", "cond", "clip_by_global_norm", "print_", "scalar_cast",
           "scalar_to_tensor", "tuple_to_array"]
