"""More of MindSpore's math and shape functions, each a composition of differentiable
operators: elementwise (``trunc``, ``frac``, ``hypot``, ``logit``, ``sinc``, ``heaviside``,
``copysign``, ``fmax``, ``deg2rad``, ...), products (``addcmul``, ``addmv``, ``mv``,
``vecdot``, ``ger``), reductions (``nansum``, ``std_mean``, ``diff``, ``trapz``, ...) and
``dropout``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from ..prims import indexing as IX
from ..prims import structural as S
from ..prims.random import draw
from . import functional as F
from .functional import _composite
from .array_functions import logaddexp
from .random_ops import _seed
from .sorting import sort

_PI = math.pi


def _tensor_only(x: Any, op: str, arg: str) -> Tensor:
    """A Tensor argument that MindSpore takes only as a Tensor (a number is refused)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return _real(x, op, arg)


def _real(x: Any, op: str, arg: str = "input") -> Tensor:
    t = F._tensor(x, op, arg)
    if t._data.dtype.kind not in "biuf":
        raise TypeError(f"For '{op}', '{arg}' must be a real Tensor, but got {t.dtype}.")
    return t


def _float(x: Any, op: str, arg: str = "input") -> Tensor:
    """A float Tensor (an integer or bool one as float32, as MindSpore's float functions)."""
    t = _real(x, op, arg)
    return F.cast(t, mstype.float32) if t._data.dtype.kind in "biu" else t


def _two(a: Any, b: Any, op: str, na: str = "input", nb: str = "other") -> tuple:
    x, y = F._operand(a, op, na), F._operand(b, op, nb)
    x, y = F.promote_scalar(x, y)
    for t, n in ((x, na), (y, nb)):
        if isinstance(t, Tensor) and t._data.dtype.kind not in "biuf":
            raise TypeError(f"For '{op}', '{n}' must be a real Tensor, but got {t.dtype}.")
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        raise TypeError(f"For '{op}', '{na}' or '{nb}' must be a Tensor.")
    # a Python number takes the other operand's dtype (MindSpore's weak scalars)
    if not isinstance(x, Tensor):
        x = _weak(x, y, op, na)
    if not isinstance(y, Tensor):
        y = _weak(y, x, op, nb)
    dx, dy = x._data.dtype, y._data.dtype
    if dx != dy and dx.kind == dy.kind == "f":  # float32 with float64: both in float64
        wide = np.promote_types(dx, dy)
        x, y = F.cast(x, wide), F.cast(y, wide)
    return x, y


def _weak(v: Any, other: Tensor, op: str, name: str) -> Tensor:
    """The Python number ``v`` as a Tensor of ``other``'s dtype, or a ValueError naming the
    op when it does not fit (2**63 beside an int64 Tensor)."""
    try:
        return Tensor(np.asarray(v, other._data.dtype))
    except OverflowError:
        raise ValueError(f"For '{op}', '{name}' {v!r} is out of range for the {other.dtype} "
                         f"Tensor beside it.") from None


def _floats2(a: Any, b: Any, op: str, na: str = "input", nb: str = "other") -> tuple:
    x, y = _two(a, b, op, na, nb)
    x = F.cast(x, mstype.float32) if isinstance(x, Tensor) and x._data.dtype.kind in "biu" else x
    y = F.cast(y, mstype.float32) if isinstance(y, Tensor) and y._data.dtype.kind in "biu" else y
    return x, y


# --- elementwise ------------------------------------------------------------------------------
@_composite
def trunc(input: Any) -> Tensor:
    """``input`` rounded toward zero."""
    x = _real(input, "trunc")
    if x._data.dtype.kind != "f":
        return x
    return F.select(F.less(x, 0), F.ceil(x), F.floor(x))


@_composite
def frac(x: Any) -> Tensor:
    """The fractional part, ``x - trunc(x)`` (the sign of ``x``)."""
    t = _real(x, "frac", "x")
    return F.sub(t, F.stop_gradient(trunc(t)))


@_composite
def hypot(input: Any, other: Any) -> Tensor:
    """``sqrt(input**2 + other**2)``, scaled by the larger to avoid overflow."""
    x, y = _floats2(input, other, "hypot")
    ax, ay = F.abs(x), F.abs(y)
    big = F.maximum(ax, ay)
    safe = F.select(F.equal(big, 0), F.ones_like(big), big)
    r = F.mul(safe, F.sqrt(F.add(F.square(F.div(ax, safe)), F.square(F.div(ay, safe)))))
    r = F.select(F.equal(big, 0), F.zeros_like(big), r)
    # an infinite side gives inf, even beside a NaN (as NumPy's and C's hypot)
    return F.select(F.isinf(big), big, r)


@_composite
def logit(input: Any, eps: Any = None) -> Tensor:
    """``log(p / (1 - p))``, ``p`` clipped to [eps, 1 - eps] when ``eps`` is given."""
    x = _float(input, "logit")
    if eps is not None:
        if isinstance(eps, bool) or not isinstance(eps, (int, float)):
            raise TypeError(f"For 'logit', 'eps' must be a float, but got {type(eps).__name__}.")
        if eps >= 0:
            x = F.clamp(x, float(eps), 1.0 - float(eps))
    return F.sub(F.log(x), F.log1p(F.neg(x)))


@_composite
def sinc(input: Any) -> Tensor:
    """``sin(pi x) / (pi x)``, 1 at 0."""
    x = _float(input, "sinc")
    zero = F.equal(x, 0)
    px = F.mul(F.select(zero, F.ones_like(x), x), _PI)
    return F.select(zero, F.ones_like(x), F.div(F.sin(px), px))


@_composite
def heaviside(input: Any, values: Any) -> Tensor:
    """0 where ``input < 0``, 1 where it is > 0, ``values`` where it is 0."""
    x = _real(input, "heaviside")
    v = _real(values, "heaviside", "values")
    F._broadcast_shapes("heaviside", ("input", x), ("values", v))
    v = F.cast(v, x.dtype)
    step = F.cast(F.greater(x, 0), x.dtype)
    return F.select(F.equal(x, 0), F.add(F.zeros_like(step), v), F.add(step, F.zeros_like(v)))


@_composite
def copysign(x: Any, other: Any) -> Tensor:
    """``|x|`` with the sign of ``other`` (of -0.0 too)."""
    a, b = _floats2(x, other, "copysign", "x", "other")
    if not isinstance(a, Tensor):
        a = Tensor(np.asarray(a, np.float32))
    if not isinstance(b, Tensor):
        b = Tensor(np.asarray(b, a._data.dtype))
    negative = Tensor(np.signbit(b.asnumpy())) if IX.is_eager(b) else F.less(b, 0)
    mag = F.abs(a)
    return F.select(negative, F.neg(mag), mag)


def _nan_aware(a: Any, b: Any, op: str, pick: Any) -> Tensor:
    x, y = _two(a, b, op)
    x, y = (t if isinstance(t, Tensor) else Tensor(np.asarray(t)) for t in (x, y))
    if x._data.dtype.kind == "f" or y._data.dtype.kind == "f":
        x_nan, y_nan = F.isnan(x), F.isnan(y)
        both = pick(F.select(x_nan, y, x), F.select(y_nan, x, y))
        return both
    return pick(x, y)


@_composite
def fmax(input: Any, other: Any) -> Tensor:
    """The larger of the two, ignoring a NaN (NaN only where both are)."""
    return _nan_aware(input, other, "fmax", F.maximum)


@_composite
def fmin(input: Any, other: Any) -> Tensor:
    """The smaller of the two, ignoring a NaN (NaN only where both are)."""
    return _nan_aware(input, other, "fmin", F.minimum)


@_composite
def deg2rad(x: Any) -> Tensor:
    """Degrees to radians."""
    t = _real(x, "deg2rad", "x")
    if t._data.dtype.kind != "f":
        raise TypeError(f"For 'deg2rad', 'x' must be a float Tensor, but got {t.dtype}.")
    return F.mul(t, _PI / 180)


@_composite
def rad2deg(x: Any) -> Tensor:
    """Radians to degrees."""
    t = _real(x, "rad2deg", "x")
    if t._data.dtype.kind != "f":
        raise TypeError(f"For 'rad2deg', 'x' must be a float Tensor, but got {t.dtype}.")
    return F.mul(t, 180 / _PI)


@_composite
def logaddexp2(input: Any, other: Any) -> Tensor:
    """``log2(2**input + 2**other)``."""
    ln2 = math.log(2.0)
    x, y = _floats2(input, other, "logaddexp2")
    return F.div(logaddexp(F.mul(x, ln2), F.mul(y, ln2)), ln2)


@_composite
def signbit(input: Any) -> Tensor:
    """Where the sign bit of ``input`` is set (-0.0 included)."""
    x = _real(input, "signbit")
    if x._data.dtype.kind == "f" and IX.is_eager(x):
        return Tensor(np.signbit(x.asnumpy()))
    return F.less(x, 0)


@_composite
def sgn(input: Any) -> Tensor:
    """The sign of ``input`` (-1, 0 or 1)."""
    return F.sign(_real(input, "sgn"))


@_composite
def positive(input: Any) -> Tensor:
    """``input`` itself (refused for bool, as in MindSpore)."""
    x = _real(input, "positive")
    if x._data.dtype.kind == "b":
        raise TypeError("For 'positive', 'input' must not be a bool Tensor.")
    return x


@_composite
def nan_to_num(input: Any, nan: float = 0.0, posinf: Any = None, neginf: Any = None) -> Tensor:
    """``input`` with NaN, +inf and -inf replaced (by 0 and the dtype's largest and smallest
    finite values by default)."""
    x = _real(input, "nan_to_num")
    if x._data.dtype.kind != "f":
        return x
    info = np.finfo(x._data.dtype)
    hi = info.max if posinf is None else posinf
    lo = info.min if neginf is None else neginf
    for arg, v in (("nan", nan), ("posinf", hi), ("neginf", lo)):
        if isinstance(v, bool) or not isinstance(v, (int, float, np.floating)):
            raise TypeError(f"For 'nan_to_num', '{arg}' must be a float, but got "
                            f"{type(v).__name__}.")

    def const(v):
        # made in x's dtype: float64's extremes overflow a float32 constant to inf
        return F.full(x.shape, float(v), dtype=x.dtype)

    out = F.select(F.isnan(x), const(nan), x)
    out = F.select(F.logical_and(F.isinf(x), F.greater(x, 0)), const(hi), out)
    return F.select(F.logical_and(F.isinf(x), F.less(x, 0)), const(lo), out)


@_composite
def float_power(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` in float64."""
    x, y = _two(input, exponent, "float_power", "input", "exponent")
    x = F.cast(x, mstype.float64) if isinstance(x, Tensor) else float(x)
    y = F.cast(y, mstype.float64) if isinstance(y, Tensor) else float(y)
    return F.pow(x, y)


arctan2 = F.atan2
true_divide = F.div


# --- products ---------------------------------------------------------------------------------
@_composite
def addcmul(input: Any, tensor1: Any, tensor2: Any, value: Any = 1) -> Tensor:
    """``input + value * tensor1 * tensor2``."""
    x = _tensor_only(input, "addcmul", "input")
    return F.add(x, F.mul(value, F.mul(_tensor_only(tensor1, "addcmul", "tensor1"),
                                       _tensor_only(tensor2, "addcmul", "tensor2"))))


@_composite
def addcdiv(input: Any, tensor1: Any, tensor2: Any, value: Any = 1) -> Tensor:
    """``input + value * tensor1 / tensor2``."""
    x = _tensor_only(input, "addcdiv", "input")
    return F.add(x, F.mul(value, F.div(_tensor_only(tensor1, "addcdiv", "tensor1"),
                                       _tensor_only(tensor2, "addcdiv", "tensor2"))))


@_composite
def mv(input: Any, vec: Any) -> Tensor:
    """The product of a matrix and a vector."""
    a, v = _real(input, "mv"), _real(vec, "mv", "vec")
    if a.ndim != 2 or v.ndim != 1 or a.shape[1] != v.shape[0]:
        raise ValueError(f"For 'mv', 'input' must be (n, m) and 'vec' (m,), but got shapes "
                         f"{list(a.shape)} and {list(v.shape)}.")
    return F.matmul(a, v)


@_composite
def addmv(input: Any, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``."""
    return F.add(F.mul(_real(input, "addmv"), beta), F.mul(mv(mat, vec), alpha))


@_composite
def ger(input: Any, vec2: Any) -> Tensor:
    """The outer product of two vectors."""
    return F.outer(input, vec2)


@_composite
def addr(x: Any, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * x + alpha * outer(vec1, vec2)``."""
    x = _real(F._strict_tensor(x, "addr", "x"), "addr", "x")  # a number: MindSpore refuses
    return F.add(F.mul(x, beta), F.mul(F.outer(vec1, vec2), alpha))


@_composite
def vecdot(x: Any, y: Any, *, axis: int = -1) -> Tensor:
    """The sum of ``x * y`` over ``axis`` (the two broadcast); as in MindSpore, both must be
    Tensors. Integer products and sums wrap around as NumPy's (and MindSpore's) do."""
    if not isinstance(x, Tensor) or not isinstance(y, Tensor):
        raise TypeError(f"For 'vecdot', 'x' and 'y' must be Tensors, but got "
                        f"{type(x).__name__} and {type(y).__name__}.")
    a, b = _two(x, y, "vecdot", "x", "y")
    shape = F._broadcast_shapes("vecdot", ("x", a), ("y", b))
    return F.reduce_sum(F.mul(a, b), F._axis(axis, len(shape), "vecdot"))


@_composite
def adjoint(x: Any) -> Tensor:
    """The conjugate transpose of the last two axes (the transpose for real tensors)."""
    t = F._tensor(x, "adjoint", "x")
    if t.ndim < 2:
        raise ValueError(f"For 'adjoint', 'x' must have rank >= 2, but got shape "
                         f"{list(t.shape)}.")
    return F.swapaxes(t, -1, -2)


# --- reductions and differences --------------------------------------------------------------
@_composite
def nansum(input: Any, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    """The sum ignoring NaN (as 0)."""
    x = _real(input, "nansum")
    if x._data.dtype.kind == "f":
        x = F.select(F.isnan(x), F.zeros_like(x), x)
    out = F.reduce_sum(x, axis, F._flag(keepdims, "nansum", "keepdims"))
    return out if dtype is None else F.cast(out, dtype)


@_composite
def nanmean(input: Any, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    """The mean of the elements that are not NaN."""
    x = _float(input, "nanmean")
    if dtype is not None:
        x = F.cast(x, dtype)
    keep = F._flag(keepdims, "nanmean", "keepdims")
    ok = F.logical_not(F.isnan(x))
    total = F.reduce_sum(F.select(ok, x, F.zeros_like(x)), axis, keep)
    return F.div(total, F.reduce_sum(F.cast(ok, x.dtype), axis, keep))


@_composite
def std_mean(input: Any, axis: Any = None, ddof: Any = 0, keepdims: bool = False) -> tuple:
    """``(std, mean)`` over ``axis``."""
    return (F.std(input, axis, ddof, keepdims),
            F.reduce_mean(input, axis, F._flag(keepdims, "std_mean", "keepdims")))


@_composite
def var_mean(input: Any, axis: Any = None, ddof: Any = 0, keepdims: bool = False) -> tuple:
    """``(var, mean)`` over ``axis``."""
    return (F.var(input, axis, ddof, keepdims),
            F.reduce_mean(input, axis, F._flag(keepdims, "var_mean", "keepdims")))


@_composite
def diff(x: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
    """The ``n``-th forward difference along ``axis`` (after joining ``prepend`` and
    ``append``)."""
    t = F._tensor(x, "diff", "x")
    if t.ndim == 0:
        raise ValueError("For 'diff', 'x' must have rank >= 1, but got a 0-D Tensor.")
    if not F._is_int(n) or n < 0:
        raise ValueError(f"For 'diff', 'n' must be a non-negative int, but got {n!r}.")
    a = F._axis(axis, t.ndim, "diff")
    parts = [p for p in (prepend, t, append) if p is not None]
    if len(parts) > 1:
        t = F.concat([F._tensor(p, "diff", "prepend/append") for p in parts], a)
    for _ in range(int(n)):
        m = t.shape[a]
        if m == 0:
            break
        hi = F.getitem(t, (slice(None),) * a + (slice(1, m),))
        lo = F.getitem(t, (slice(None),) * a + (slice(0, m - 1),))
        t = F.logical_xor(hi, lo) if t._data.dtype.kind == "b" else F.sub(hi, lo)
    return t


@_composite
def trapz(y: Any, x: Any = None, *, dx: float = 1.0, dim: int = -1) -> Tensor:
    """The trapezoid-rule integral of ``y`` along ``dim`` (samples at ``x``, or spaced
    ``dx``)."""
    t = _float(y, "trapz", "y")
    if t.ndim == 0:
        raise ValueError("For 'trapz', 'y' must have rank >= 1, but got a 0-D Tensor.")
    a = F._axis(dim, t.ndim, "trapz", "dim")
    m = t.shape[a]
    hi = F.getitem(t, (slice(None),) * a + (slice(1, m),))
    lo = F.getitem(t, (slice(None),) * a + (slice(0, max(m - 1, 0)),))
    mid = F.mul(F.add(hi, lo), 0.5)
    if x is None:
        return F.mul(F.reduce_sum(mid, a), float(dx))
    xs = diff(_float(x, "trapz", "x"), 1, -1 if F._tensor(x, "trapz", "x").ndim == 1 else a)
    if xs.ndim == 1:
        xs = F.reshape(xs, (-1,) + (1,) * (t.ndim - 1 - a))
    return F.reduce_sum(F.mul(mid, xs), a)


@_composite
def logdet(input: Any) -> Tensor:
    """``log(det(input))`` (NaN for a negative determinant)."""
    return F.log(F.det(input))


@_composite
def dist(input: Any, other: Any, p: float = 2) -> Tensor:
    """The ``p``-norm of ``input - other``."""
    a, b = _floats2(input, other, "dist")
    d = F.reshape(F.sub(a, b), (-1,))
    return F.norm(d, float(p), 0)


@_composite
def vector_norm(x: Any, ord: Any = 2, axis: Any = None, keepdims: bool = False, *,
                dtype: Any = None) -> Tensor:
    """The vector ``ord``-norm over ``axis`` (of all elements when None)."""
    t = F._tensor(x, "vector_norm", "x")
    if axis is None:
        t, axis = F.reshape(t, (-1,)), 0
        if keepdims:
            out = F.norm(t, ord, 0, False, dtype=dtype)
            return F.reshape(out, (1,) * F._tensor(x, "vector_norm", "x").ndim)
    if isinstance(axis, (tuple, list)):
        axes = F._axes(axis, t.ndim, "vector_norm") or tuple(range(t.ndim))
        rest = tuple(i for i in range(t.ndim) if i not in axes)
        moved = F.transpose(t, rest + axes)
        flat = F.reshape(moved, tuple(t.shape[i] for i in rest) + (-1,))
        out = F.norm(flat, ord, -1, False, dtype=dtype)
        if keepdims:
            out = F.reshape(out, tuple(1 if i in axes else d for i, d in enumerate(t.shape)))
        return out
    return F.norm(t, ord, axis, keepdims, dtype=dtype)


@_composite
def logspace(start: Any, end: Any, steps: int, base: int = 10, *, dtype: Any = None) -> Tensor:
    """``base ** linspace(start, end, steps)``."""
    if not F._is_int(base) or base <= 0:
        raise TypeError(f"For 'logspace', 'base' must be a positive int, but got {base!r}.")
    exps = F.linspace(start, end, steps)
    out = F.pow(float(base), exps)
    return out if dtype is None else F.cast(out, dtype)


def meshgrid(*inputs: Any, indexing: str = "xy") -> tuple:
    """Coordinate grids of the 1-D ``inputs`` (``'xy'``: the first two axes swapped, as
    NumPy's default; ``'ij'``: matrix indexing)."""
    ts = inputs[0] if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)) else inputs
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'meshgrid', 'indexing' must be 'xy' or 'ij', but got "
                         f"{indexing!r}.")
    ts = [F._tensor(t, "meshgrid", "inputs") for t in ts]
    if any(t.ndim != 1 for t in ts):
        raise ValueError("For 'meshgrid', each input must be 1-D.")
    shape = [t.shape[0] for t in ts]
    if indexing == "xy" and len(ts) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, t in enumerate(ts):
        pos = i if indexing == "ij" or len(ts) < 2 else {0: 1, 1: 0}.get(i, i)
        view = [1] * len(ts)
        view[pos] = t.shape[0]
        out.append(F.broadcast_to(F.reshape(t, tuple(view)), tuple(shape)))
    return tuple(out)


@_composite
def msort(input: Any) -> Tensor:
    """``input`` sorted along axis 0."""
    return sort(input, 0)[0]


@_composite
def take(x: Any, indices: Any) -> Tensor:
    """The elements of the flattened ``x`` at ``indices`` (of ``indices``' shape)."""
    t = F._tensor(x, "take", "x")
    return F.gather(F.reshape(t, (-1,)), indices, 0)


def numel(input: Any) -> int:
    """The number of elements."""
    return F._tensor(input, "numel", "input").size


def is_tensor(obj: Any) -> bool:
    """Whether ``obj`` is a Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input: Any) -> bool:
    """Whether ``input`` has a float dtype."""
    return F._tensor(input, "is_floating_point", "input")._data.dtype.kind == "f"


def is_complex(input: Any) -> bool:
    """Whether ``input`` has a complex dtype."""
    return F._tensor(input, "is_complex", "input")._data.dtype.kind == "c"


# --- dropout ------------------------------------------------------------------------------------
@_composite
def dropout(input: Any, p: float = 0.5, training: bool = True, seed: Any = None) -> Tensor:
    """Each element zeroed with probability ``p`` and the rest scaled by ``1 / (1 - p)``
    while ``training``; ``input`` unchanged otherwise."""
    x = F._tensor(input, "dropout", "input")
    if x._data.dtype.kind != "f":
        raise TypeError(f"For 'dropout', 'input' must be a float Tensor, but got {x.dtype}.")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise ValueError(f"For 'dropout', 'p' must be a number in [0, 1], but got {p!r}.")
    if not F._flag(training, "dropout", "training") or p == 0:
        return x
    if p == 1:
        return F.mul(x, 0.0)
    u = draw(shape=x.shape, kind="uniform", dtype=x._data.dtype, seed=_seed(seed, "dropout"))
    keep = F.cast(F.greater_equal(u, float(p)), x.dtype)
    return F.mul(x, F.mul(keep, 1.0 / (1.0 - p)))



def addn(x: Any) -> Tensor:
    """The elementwise sum of a list or tuple of tensors of one shape and dtype (MindSpore's
    ``AddN``); every input's gradient is the output's."""
    if not isinstance(x, (list, tuple)) or not all(isinstance(t, Tensor) for t in x):
        got = type(x).__name__ if not isinstance(x, (list, tuple)) else \
            f"{type(x).__name__} of " + ", ".join(type(t).__name__ for t in x)
        raise TypeError(f"For 'AddN', 'x' must be a list or tuple of Tensors, but got {got}.")
    if not x:
        raise ValueError("For 'AddN', the input num must be greater than or equal to 1, but "
                         "got 0.")
    for i, t in enumerate(x[1:], 1):
        if t.shape != x[0].shape:
            raise ValueError(f"For 'AddN', input shape must be same, but got shape of input[{i}]"
                             f": {list(t.shape)}, shape of input[0]: {list(x[0].shape)}.")
        if t.dtype != x[0].dtype:
            raise TypeError(f"For 'AddN', the inputs must have one dtype, but got {t.dtype} for "
                            f"input[{i}] and {x[0].dtype} for input[0].")
    out = x[0].copy()  # a tensor of its own, as for several inputs
    for t in x[1:]:
        out = F.add(out, t)
    return out

__all__ = ["trunc", "frac", "hypot", "logit", "sinc", "heaviside", "copysign", "fmax", "fmin",
           "deg2rad", "rad2deg", "logaddexp2", "signbit", "sgn", "positive", "nan_to_num",
           "float_power", "arctan2", "true_divide", "addcmul", "addcdiv", "mv", "addmv", "ger",
           "addr", "vecdot", "adjoint", "nansum", "nanmean", "std_mean", "var_mean", "diff",
           "trapz", "logdet", "dist", "vector_norm", "logspace", "meshgrid", "msort", "take",
           "numel", "is_tensor", "is_floating_point", "is_complex", "dropout", "addn"]
del S
