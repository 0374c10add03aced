"""The structural primitives: the operations the transformations themselves emit (summing
cotangents, undoing broadcasting, moving a batch axis, passing a Taylor series through a
linear map) and the ones their rules need in turn. They sit in the ``ad`` layer, below every
other primitive: shapes and dtypes (cast, reshape, transpose, broadcast_to, concat, split,
stack / unstack, zeros_like / ones_like / full, stop_gradient), reduce_sum, and add, sub,
mul, div, neg. Every primitive here keeps all of its rules in its block, written with the
primitives of this module only.

Also here: the helpers that rules of every other primitive share, ``unbroadcast`` (the one
way reverse rules undo broadcasting) and ``broadcast_like``, the common shapes of batching
rule (``elementwise``, ``to_front``, ``shift_axis``) and of Taylor rule (``linear``,
``additive``, ``bilinear``: the forward Laplacian reads their ``kind``)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..core.config import array_module
from ..core.primitive import Deferred, Primitive
from ..core.tensor import Tensor
from ._util import checked_binary, filled_view, reduce_with, xp_of

def dtype_of(x: Any) -> np.dtype:
    """The NumPy dtype of a tensor, tracer, array or Python scalar."""
    data = getattr(x, "_data", x)
    dt = getattr(data, "dtype", None)
    return dt if dt is not None else np.result_type(x)


def shape_of(x: Any) -> tuple:
    return tuple(getattr(x, "shape", ()))


# --- batching helpers: the common shapes of vmap rule ----------------------------------

def moveaxis(x: Any, src: int, dst: int) -> Any:
    n = len(shape_of(x))
    dst = dst % n
    if src == dst:
        return x
    perm = [i for i in range(n) if i != src]
    perm.insert(dst, src)
    return transpose(x, perm=tuple(perm))


def to_front(x: Any, bdim: int | None) -> Any:
    return x if bdim is None or bdim == 0 else moveaxis(x, bdim, 0)


def stack0(xs: list) -> Any:
    parts = [reshape(x, shape=(1,) + shape_of(x)) for x in xs]
    return parts[0] if len(parts) == 1 else concat(*parts, axis=0)


def broadcast_batch(x: Any, size: int) -> Any:
    s = shape_of(x)
    return broadcast_to(reshape(x, shape=(1,) + s), shape=(size,) + s)


def rank_up(x: Any, rank: int) -> Any:
    """Give a front-batched value ``rank`` non-batch dimensions (1s after the batch axis),
    so that NumPy's right-aligned broadcasting lines its axes up with the other operands."""
    s = shape_of(x)
    missing = rank - (len(s) - 1)
    return x if missing <= 0 else reshape(x, shape=s[:1] + (1,) * missing + s[1:])


def elementwise(prim: Any) -> Callable:
    """Rule for elementwise primitives (any arity, NumPy broadcasting)."""

    def rule(args, dims, **params):
        rank = max(len(shape_of(a)) - (d is not None) for a, d in zip(args, dims))
        moved = [a if d is None else rank_up(to_front(a, d), rank) for a, d in zip(args, dims)]
        return prim(*moved, **params), 0

    return rule


def front(dims: list) -> int:
    return next(d for d in dims if d is not None)


def shift_axis(axis: Any, ndim_without_batch: int) -> Any:
    """A reduction/axis parameter seen with the batch axis in front."""
    if axis is None:
        return tuple(range(1, ndim_without_batch + 1))
    if isinstance(axis, tuple):
        return tuple(a + 1 for a in axis)
    return axis + 1


def defelementwise(*prims: Any) -> None:
    for p in prims:
        p.batch = elementwise(p)


# --- Taylor helpers: the common shapes of Taylor rule (normalized coefficients x_k = x^(k)/k!)

def series_order(series: list) -> int:
    return next(len(s) for s in series if s is not None)


def coeff_at(series: list | None, primal: Any, k: int) -> Any:
    """Coefficient k of an argument (k = 0 is the primal; None means zero)."""
    if k == 0:
        return primal
    if series is None:
        return None
    return series[k - 1]


def add_if(a: Any, b: Any) -> Any:
    if a is None:
        return b
    if b is None:
        return a
    return add(a, b)


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
        out = add(x, y) if sign > 0 else sub(x, y)
        coeffs = []
        for k in range(1, series_order(series) + 1):
            a, b = coeff_at(series[0], x, k), coeff_at(series[1], y, k)
            if b is not None and sign < 0:
                b = neg(b)
            c = add_if(a, b)
            coeffs.append(None if c is None else broadcast_like(c, out))
        return out, coeffs

    rule.kind = "additive"  # how the forward Laplacian treats it (ad/laplacian.py)
    return rule


def bilinear(prim: Any) -> Callable:
    """For mul and matmul: z_k = sum_j prim(x_j, y_{k-j}) (a Cauchy product)."""

    def rule(primals, series, **params):
        x, y = primals
        out = prim(x, y, **params)
        coeffs = []
        for k in range(1, series_order(series) + 1):
            total = None
            for j in range(k + 1):
                a, b = coeff_at(series[0], x, j), coeff_at(series[1], y, k - j)
                if a is not None and b is not None:
                    total = add_if(total, prim(a, b, **params))
            coeffs.append(None if total is None else broadcast_like(total, out))
        return out, coeffs

    rule.kind = "bilinear"  # how the forward Laplacian treats it (ad/laplacian.py)
    return rule


def div_rule(primals, series):
    """z = x / y: z_k = (x_k - sum_{j>=1} y_j z_{k-j}) / y_0."""
    x, y = primals
    z0 = div(x, y)
    zs: list = []
    for k in range(1, series_order(series) + 1):
        acc = coeff_at(series[0], x, k)
        for j in range(1, k + 1):
            yj, zk = coeff_at(series[1], y, j), (z0 if k - j == 0 else zs[k - j - 1])
            if yj is not None and zk is not None:
                term = mul(yj, zk)
                acc = neg(term) if acc is None else sub(acc, term)
        zs.append(None if acc is None else broadcast_like(div(acc, y), z0))
    return z0, zs


def concat_rule(primals, series, axis):
    """Concatenation is linear in all of its inputs: concatenate each coefficient."""
    out = concat(*primals, axis=axis)
    coeffs = []
    for k in range(1, series_order(series) + 1):
        parts = [coeff_at(s, p, k) for s, p in zip(series, primals)]
        if all(q is None for q in parts):
            coeffs.append(None)
            continue
        parts = [zeros_like(p) if q is None else q for q, p in zip(parts, primals)]
        coeffs.append(concat(*parts, axis=axis))
    return out, coeffs

# --- cast ---------------------------------------------------------------------------------
def _cast_impl(x, dtype):
    return x.astype(dtype) if x.dtype != dtype else x


cast = Primitive("Cast", _cast_impl, hints={"identity": lambda params: True})
cast.vjp = (lambda g, ans, x, dtype: cast(g, dtype=dtype_of(x)),)
cast.jvp = (lambda t, ans, x, dtype: cast(t, dtype=dtype),)


# --- reshape / transpose / broadcast --------------------------------------------------------
reshape = Primitive("Reshape", lambda x, shape: x.reshape(shape),
                    hints={"identity": lambda params: True})
reshape.vjp = (lambda g, ans, x, shape: reshape(g, shape=shape_of(x)),)
reshape.jvp = (lambda t, ans, x, shape: reshape(t, shape=shape),)

transpose = Primitive("Transpose", lambda x, perm: x.transpose(perm),
                      hints={"identity": lambda params: params["perm"] == tuple(
                          range(len(params["perm"])))})
def _inverse_perm(perm: tuple) -> tuple:
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


transpose.vjp = (lambda g, ans, x, perm: transpose(g, perm=_inverse_perm(perm)),)
transpose.jvp = (lambda t, ans, x, perm: transpose(t, perm=perm),)


def _broadcast_impl(x, shape):
    """np.broadcast_to, with a direct path for the NumPy arrays that reverse rules broadcast:
    NumPy scalars and 0-d arrays, arrays that hold one value everywhere (the cotangent of a
    sum) and C-contiguous ones (a reduction's cotangent). np.broadcast_to's Python-level
    checks cost more than the rest of an eager sum's reverse rule; the direct path builds
    the same read-only view, stride 0 along the broadcast axes."""
    shape = tuple(shape)
    try:
        if isinstance(x, np.generic) or (type(x) is np.ndarray and not x.ndim):
            return filled_view(x, shape)
        if type(x) is np.ndarray and x.size and len(shape) >= x.ndim:
            strides = _broadcast_strides(x, shape)
            if strides is not None:  # (not broadcastable: np.broadcast_to raises below)
                if not any(x.strides):  # one value everywhere: a view of its single cell
                    return filled_view(x[(0,) * x.ndim], shape)
                if x.flags.c_contiguous:
                    out = np.ndarray(shape, x.dtype, buffer=x, strides=strides)
                    out.flags.writeable = False
                    return out
    except ValueError:
        pass  # a negative size: np.broadcast_to raises the error below
    try:
        return xp_of(x).broadcast_to(x, shape)
    except ValueError:
        raise ValueError(f"For 'BroadcastTo', input shape {list(np.shape(x))} can not be "
                         f"broadcast to {list(shape)}.") from None


def _broadcast_strides(x, shape: tuple) -> tuple | None:
    """The strides of ``x`` broadcast to ``shape`` (0 along new and stretched axes), or None
    when the shapes do not broadcast."""
    strides = [0] * (len(shape) - x.ndim)
    for d, st, s in zip(x.shape, x.strides, shape[len(strides):]):
        if d == s:
            strides.append(st)
        elif d == 1:
            strides.append(0)
        else:
            return None
    return tuple(strides)


broadcast_to = Primitive("BroadcastTo", _broadcast_impl, hints={"identity": lambda params: True})
broadcast_to.vjp = (lambda g, ans, x, shape: unbroadcast(g, x),)
broadcast_to.jvp = (lambda t, ans, x, shape: broadcast_to(t, shape=shape),)


def unbroadcast(g: Any, x: Any) -> Any:
    """Sum ``g`` over the dimensions along which ``x`` was broadcast, giving x's shape and
    dtype. The one place reverse rules undo broadcasting."""
    gd, xd = g._data, x._data
    if gd.shape == xd.shape and gd.dtype == xd.dtype:
        return g
    xs, gs = tuple(xd.shape), tuple(gd.shape)
    if gs != xs:
        lead = len(gs) - len(xs)
        axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(xs)
                                          if d == 1 and gs[i + lead] != 1)
        if axes:
            g = reduce_sum(g, axis=axes, keepdims=False)
        if shape_of(g) != xs:
            g = reshape(g, shape=xs)
    if gd.dtype != xd.dtype and xd.dtype.kind == "f":
        g = cast(g, dtype=xd.dtype)
    return g


def broadcast_like(t: Any, ans: Any) -> Any:
    """Broadcast a tangent to the output's shape (forward rules of broadcasting ops)."""
    s = shape_of(ans)
    return t if shape_of(t) == s else broadcast_to(t, shape=s)


# --- constants ----------------------------------------------------------------------------
zeros_like = Primitive("ZerosLike", lambda x: xp_of(x).zeros_like(x), nondiff=True,
                       hints={"shape_only": True})
ones_like = Primitive("OnesLike", lambda x: xp_of(x).ones_like(x), nondiff=True,
                      hints={"shape_only": True})


def _full_impl(shape, value, dtype):
    return array_module().full(shape, value, dtype)


full = Primitive("Fill", _full_impl, nondiff=True)
stop_gradient = Primitive("StopGradient", lambda x: x, nondiff=True,
                          hints={"graph_identity": True})


# --- concat -------------------------------------------------------------------------------
def _concat_impl(*xs, axis):
    try:
        return xp_of(xs[0]).concatenate(xs, axis=axis)
    except ValueError:
        raise ValueError(f"For 'Concat', all inputs must have the same shape except along "
                         f"axis {axis}, but got shapes "
                         f"{[list(np.shape(x)) for x in xs]}.") from None


def _concat_vjp(g, ans, *xs, axis):
    return list(split(g, axis=axis, sizes=tuple(shape_of(x)[axis] for x in xs)))


def _concat_jvp(primals, tangents, axis):
    ts = [zeros_like(p) if t is None else t for p, t in zip(primals, tangents)]
    return concat(*primals, axis=axis), concat(*ts, axis=axis)


concat = Primitive("Concat", _concat_impl)
concat.vjp_all = _concat_vjp
concat.jvp_all = _concat_jvp


# --- split (the transpose of concat) --------------------------------------------------------
def _split_impl(x, axis, sizes):
    """Consecutive pieces of ``sizes`` along ``axis``: views, no copies."""
    lead = (slice(None),) * axis
    out, start = [], 0
    for n in sizes:
        out.append(x[lead + (slice(start, start + n),)])
        start += n
    return tuple(out)


def _split_vjp(gs, ans, x, axis, sizes):
    # Pieces that received no cotangent arrive as zeros (filled by the reverse trace).
    return [gs[0] if len(gs) == 1 else concat(*gs, axis=axis)]


def _split_jvp(primals, tangents, axis, sizes):
    return split(primals[0], axis=axis, sizes=sizes), split(tangents[0], axis=axis, sizes=sizes)


split = Primitive("Split", _split_impl, multiple_results=True)
split.vjp_all = _split_vjp
split.jvp_all = _split_jvp


# --- stack / unstack (each the transpose of the other) --------------------------------------
def _stack_impl(*xs, axis):
    try:
        return xp_of(xs[0]).stack(xs, axis=axis)
    except ValueError:
        raise ValueError(f"For 'Stack', all inputs must have the same shape, but got shapes "
                         f"{[list(np.shape(x)) for x in xs]}.") from None


def _stack_jvp(primals, tangents, axis):
    ts = [zeros_like(p) if t is None else t for p, t in zip(primals, tangents)]
    return stack(*primals, axis=axis), stack(*ts, axis=axis)


def _unstack_impl(x, axis):
    """The slices of ``x`` along ``axis`` (views)."""
    lead = (slice(None),) * axis
    return tuple(x[lead + (i,)] for i in range(x.shape[axis]))


stack = Primitive("Stack", _stack_impl)
stack.vjp_all = lambda g, ans, *xs, axis: list(unstack(g, axis=axis))
stack.jvp_all = _stack_jvp

unstack = Primitive("Unstack", _unstack_impl, multiple_results=True)
# Slices that received no cotangent arrive as zeros (filled by the reverse trace).
unstack.vjp_all = lambda gs, ans, x, axis: [stack(*gs, axis=axis)]
unstack.jvp_all = lambda primals, tangents, axis: (unstack(primals[0], axis=axis),
                                                   unstack(tangents[0], axis=axis))


# --- batching and Taylor rules of the shape primitives ------------------------------------

defelementwise(cast, zeros_like, ones_like, stop_gradient)


def _batch_reshape(args, dims, shape):
    x = to_front(args[0], dims[0])
    return reshape(x, shape=shape_of(x)[:1] + tuple(shape)), 0


def _batch_transpose(args, dims, perm):
    x = to_front(args[0], dims[0])
    return transpose(x, perm=(0,) + tuple(p + 1 for p in perm)), 0


def _batch_broadcast(args, dims, shape):
    x = to_front(args[0], dims[0])
    x = rank_up(x, len(shape))
    return broadcast_to(x, shape=shape_of(x)[:1] + tuple(shape)), 0


def _batch_concat(args, dims, axis):
    size = next(shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
    parts = [broadcast_batch(a, size) if d is None else to_front(a, d)
             for a, d in zip(args, dims)]
    return concat(*parts, axis=axis + 1), 0


def _batch_split(args, dims, axis, sizes):
    return split(to_front(args[0], dims[0]), axis=axis + 1, sizes=sizes), 0


def _batch_stack(args, dims, axis):
    size = next(shape_of(a)[d] for a, d in zip(args, dims) if d is not None)
    parts = [broadcast_batch(a, size) if d is None else to_front(a, d)
             for a, d in zip(args, dims)]
    return stack(*parts, axis=axis + 1), 0


def _batch_unstack(args, dims, axis):
    return unstack(to_front(args[0], dims[0]), axis=axis + 1), 0


reshape.batch = _batch_reshape
split.batch = _batch_split
stack.batch = _batch_stack
unstack.batch = _batch_unstack
transpose.batch = _batch_transpose
broadcast_to.batch = _batch_broadcast
concat.batch = _batch_concat


for _p in (cast, reshape, transpose, broadcast_to):
    _p.taylor = linear(_p)
concat.taylor = concat_rule


def _split_taylor(primals, series, axis, sizes):
    """Linear: split every coefficient; output j's series is the j-th pieces."""
    out = split(primals[0], axis=axis, sizes=sizes)
    pieces = [None if c is None else split(c, axis=axis, sizes=sizes) for c in series[0]]
    return out, [[None if p is None else p[j] for p in pieces] for j in range(len(sizes))]


split.taylor = _split_taylor


def _stack_taylor(primals, series, axis):
    """Linear in all of its inputs: stack each coefficient."""
    out = stack(*primals, axis=axis)
    coeffs = []
    for k in range(max(len(s) for s in series if s is not None)):
        parts = [None if s is None else s[k] for s in series]
        if all(q is None for q in parts):
            coeffs.append(None)
            continue
        coeffs.append(stack(*[zeros_like(p) if q is None else q for q, p in zip(parts, primals)],
                            axis=axis))
    return out, coeffs


def _unstack_taylor(primals, series, axis):
    out = unstack(primals[0], axis=axis)
    pieces = [None if c is None else unstack(c, axis=axis) for c in series[0]]
    return out, [[None if p is None else p[j] for p in pieces] for j in range(len(out))]


stack.taylor = _stack_taylor
unstack.taylor = _unstack_taylor


# --- reduce_sum -------------------------------------------------------------------------

def kept_shape(shape: tuple, axis: tuple | None) -> tuple:
    """The shape a reduction over ``axis`` has with keepdims=True."""
    if axis is None:
        return (1,) * len(shape)
    return tuple(1 if i in axis else d for i, d in enumerate(shape))


def expand_back(g, x, axis, keepdims):
    """Give a reduced cotangent or output the rank of ``x`` again (for broadcasting)."""
    if not keepdims:
        g = reshape(g, shape=kept_shape(shape_of(x), axis))
    return g


def _leading(axis) -> bool:
    """Whether the reduced axes are the leading ones (or all), so that NumPy's broadcasting
    of the reduced value against the input lines the remaining axes up by itself."""
    return axis is None or axis == tuple(range(len(axis)))


def broadcastable(g, x, axis, keepdims):
    """A reduced value made to broadcast against ``x`` (reshaped only where needed)."""
    return g if keepdims or _leading(axis) else expand_back(g, x, axis, keepdims)


def spread(g, x, axis, keepdims):
    return broadcast_to(broadcastable(g, x, axis, keepdims), shape=shape_of(x))


# (ufunc.reduce makes a new array, even over no axes: the fresh hint of graph/codegen.py)
reduce_sum = Primitive("ReduceSum",
                       lambda x, axis, keepdims: reduce_with(np.add, x, axis, keepdims),
                       hints={"fresh": True})
reduce_sum.vjp = (lambda g, ans, x, axis, keepdims: spread(g, x, axis, keepdims),)
reduce_sum.jvp = (lambda t, ans, x, axis, keepdims: reduce_sum(t, axis=axis, keepdims=keepdims),)


def axis_reduce(prim: Any) -> Callable:
    """Batching rule of a reduction with ``axis`` and ``keepdims`` parameters."""

    def rule(args, dims, axis, keepdims):
        x = to_front(args[0], dims[0])
        return prim(x, axis=shift_axis(axis, len(shape_of(x)) - 1), keepdims=keepdims), 0

    return rule


reduce_sum.batch = axis_reduce(reduce_sum)
reduce_sum.taylor = linear(reduce_sum)


# --- add, sub, mul, div, neg ------------------------------------------------------------

def binary_cotangents(x, y, gx, gy) -> list:
    """The two cotangents of a binary rule written as one (``vjp_all``), reduced to each
    input's shape; None for a Python number (never differentiated). x's cotangent ``gx`` is
    the work both share; y's (``gy()``) is Deferred, formed only when y is differentiated."""
    return [unbroadcast(gx, x) if isinstance(x, Tensor) else None,
            Deferred(lambda: unbroadcast(gy(), y)) if isinstance(y, Tensor) else None]


def binary(name: str, fn: Callable, dx: Callable, dy: Callable, **kw: Any) -> Primitive:
    """A broadcasting binary primitive from its NumPy function and its two partial
    derivatives in "apply" form: ``dx(v, x, y, ans)`` is ``v * df/dx`` (``dy`` likewise),
    written with primitives. Gives the reverse rule (x's cotangent formed at once, y's only
    if y needs one, each reduced to its input's shape), the forward rule and the batching
    rule; Taylor mode derives its rule from the forward rule."""
    p = Primitive(name, checked_binary(name, fn), **kw)
    p.vjp_all = lambda g, ans, x, y: binary_cotangents(x, y, dx(g, x, y, ans),
                                                        lambda: dy(g, x, y, ans))
    p.jvp = (lambda t, ans, x, y: broadcast_like(dx(t, x, y, ans), ans),
             lambda t, ans, x, y: broadcast_like(dy(t, x, y, ans), ans))
    p.batch = elementwise(p)
    return p


add = Primitive("Add", checked_binary("Add", np.add), expr="{0} + {1}",
                hints={"neutral": {1: 0, 0: 0}, "commutative": True, "weak_scalar": True,
                       "ufunc": np.add})
add.vjp = (lambda g, ans, x, y: unbroadcast(g, x), lambda g, ans, x, y: unbroadcast(g, y))
add.jvp = (lambda t, ans, x, y: broadcast_like(t, ans),
           lambda t, ans, x, y: broadcast_like(t, ans))

sub = Primitive("Sub", checked_binary("Sub", np.subtract), expr="{0} - {1}",
                hints={"neutral": {1: 0}, "weak_scalar": True,
                       "ufunc": np.subtract})
sub.vjp = (lambda g, ans, x, y: unbroadcast(g, x), lambda g, ans, x, y: unbroadcast(neg(g), y))
sub.jvp = (lambda t, ans, x, y: broadcast_like(t, ans),
           lambda t, ans, x, y: broadcast_like(neg(t), ans))


def _is_broadcast_one(a) -> bool:
    """A NumPy array whose elements are all one memory cell holding 1: the broadcast scalar
    cotangent that the reverse rule of a sum passes on (loss = sum(f(x) * w))."""
    return a.ndim > 0 and not any(a.strides) and a.size > 0 and a.flat[0] == 1


def _mul_impl(x, y):
    # Multiplying by a broadcast 1 of the same shape and dtype returns the other factor
    # itself (arrays are never written in place): it saves a pass and an allocation in the
    # first step of most eager backward passes. (GRAPH code inlines ``*``.)
    if isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and x.shape == y.shape \
            and x.dtype == y.dtype:
        if _is_broadcast_one(x):
            return y
        if _is_broadcast_one(y):
            return x
    return np.multiply(x, y)


mul = Primitive("Mul", checked_binary("Mul", _mul_impl), expr="{0} * {1}",
                hints={"neutral": {1: 1, 0: 1}, "commutative": True, "weak_scalar": True,
                       "ufunc": np.multiply})
mul.vjp = (lambda g, ans, x, y: unbroadcast(mul(g, y), x),
           lambda g, ans, x, y: unbroadcast(mul(x, g), y))
mul.jvp = (lambda t, ans, x, y: broadcast_like(mul(t, y), ans),
           lambda t, ans, x, y: broadcast_like(mul(x, t), ans))

div = Primitive("RealDiv", checked_binary("RealDiv", np.true_divide), expr="{0} / {1}",
                hints={"neutral": {1: 1}, "weak_scalar": True,
                       "ufunc": np.true_divide})


def _div_vjp(g, ans, x, y):
    # d(x/y)/dy = -(x/y)/y: the y cotangent reuses the x cotangent g / y
    gx = div(g, y)
    return binary_cotangents(x, y, gx, lambda: neg(mul(gx, ans)))


div.vjp_all = _div_vjp
div.jvp = (lambda t, ans, x, y: broadcast_like(div(t, y), ans),
           lambda t, ans, x, y: broadcast_like(neg(mul(t, div(ans, y))), ans))


def _neg_impl(x):
    # A broadcast scalar (sub's reverse rule gets one from a sum) stays one: negating its
    # single cell is free, negating the strided view element by element is not.
    if type(x) is np.ndarray and x.ndim > 0 and not any(x.strides) and x.size > 0:
        return filled_view(np.negative(x[(0,) * x.ndim]), x.shape)
    return np.negative(x)


neg = Primitive("Neg", _neg_impl, expr="-{0}", hints={"ufunc": np.negative})
neg.vjp = (lambda g, ans, x: neg(g),)
neg.jvp = (lambda t, ans, x: neg(t),)


defelementwise(add, sub, mul, div, neg)
add.taylor = additive(1)
sub.taylor = additive(-1)
mul.taylor = bilinear(mul)
div.taylor = div_rule
neg.taylor = linear(neg)

# the complex conjugate: the one non-holomorphic operation the transformations emit (the
# reverse-mode boundary turns the engine's complex cotangents into MindSpore's with it)
conj = Primitive("Conj", lambda z: xp_of(z).conj(z))
conj.vjp = (lambda g, ans, z: conj(g),)
conj.jvp = (lambda t, ans, z: conj(t),)
defelementwise(conj)
conj.taylor = linear(conj)


# --- custom reverse rules -------------------------------------------------------------------
def _recorded_only(*args, bwd, name):
    raise RuntimeError(f"The custom-VJP call of {name} is only recorded by reverse mode, "
                       f"never run as an operation.")


# A function with a user-given reverse rule (a Cell's ``bprop``, ``custom_vjp``), as reverse
# mode records it: the function itself runs operation by operation beneath, and this entry
# on the tape applies ``bwd(inputs, output, output cotangent)`` on the way back.
custom_vjp = Primitive("CustomVJP", _recorded_only)
custom_vjp.vjp_all = lambda g, ans, *xs, bwd, name: bwd(xs, ans, g)
custom_vjp_multi = Primitive("CustomVJPMulti", _recorded_only, multiple_results=True)
custom_vjp_multi.vjp_all = lambda g, ans, *xs, bwd, name: bwd(xs, ans, g)

