"""MindSpore's functional operators (``ops.sin``, ``ops.matmul``, ...). Each validates and
normalizes its arguments, then binds a primitive; composite operators (mean, softmax, ...)
are written in terms of primitives so that they are differentiable to any order."""
from __future__ import annotations

import builtins
import math
from typing import Any, Sequence

import numpy as np

from ..common import dtype as mstype
from ..common import tensor as _tensor_module
from ..common.tensor import Tensor
from ..core.primitive import bind as _bind
from ..prims import arith as A
from ..prims import compare as C
from ..prims import linalg as L
from ..prims import reduce as R
from ..prims import shape as S
from ..prims import unary as U


def _operand(x: Any, op: str, arg: str = "x") -> Any:
    """Tensors and Python numbers pass; arrays and lists become Tensors; others fail."""
    if isinstance(x, (Tensor, int, float, bool)):
        return x
    if isinstance(x, (np.ndarray, np.generic, list, tuple)):
        return Tensor(x)
    raise TypeError(f"For '{op}', '{arg}' must be a Tensor or a number, but got "
                    f"{type(x).__name__}.")


def _tensor(x: Any, op: str, arg: str = "x") -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (np.ndarray, np.generic, list, tuple, int, float, bool)):
        return Tensor(x)
    raise TypeError(f"For '{op}', '{arg}' must be a Tensor, but got {type(x).__name__}.")


def _binary(prim, name: str):
    def op(x: Any, y: Any) -> Tensor:
        return prim(_operand(x, name, "x"), _operand(y, name, "y"))

    op.__name__ = name
    op.__doc__ = f"Elementwise {prim.name} with broadcasting."
    return op


def _unary(prim, name: str):
    def op(x: Any) -> Tensor:
        return prim(_tensor(x, name))

    op.__name__ = name
    op.__doc__ = f"Elementwise {prim.name}."
    return op


# --- elementwise ----------------------------------------------------------------------------
add = _binary(A.add, "add")
sub = _binary(A.sub, "sub")
mul = _binary(A.mul, "mul")
div = _binary(A.div, "div")
maximum = _binary(A.maximum, "maximum")
minimum = _binary(A.minimum, "minimum")
floor_div = _binary(A.floor_div, "floor_div")
floor_mod = _binary(A.floor_mod, "floor_mod")
atan2 = _binary(A.atan2, "atan2")
equal = _binary(C.equal, "equal")
not_equal = _binary(C.not_equal, "not_equal")
less = _binary(C.less, "less")
less_equal = _binary(C.less_equal, "less_equal")
greater = _binary(C.greater, "greater")
greater_equal = _binary(C.greater_equal, "greater_equal")
logical_and = _binary(C.logical_and, "logical_and")
logical_or = _binary(C.logical_or, "logical_or")
logical_xor = _binary(C.logical_xor, "logical_xor")
logical_not = _unary(C.logical_not, "logical_not")
isnan = _unary(C.isnan, "isnan")
isinf = _unary(C.isinf, "isinf")
isfinite = _unary(C.isfinite, "isfinite")
realdiv = truediv = divide = div
multiply, subtract = mul, sub
ge, gt, le, lt, eq, ne = greater_equal, greater, less_equal, less, equal, not_equal
floordiv = floor_div
floormod = remainder = floor_mod

neg = _unary(A.neg, "neg")
negative = neg
exp = _unary(U.exp, "exp")
log = _unary(U.log, "log")
sin = _unary(U.sin, "sin")
cos = _unary(U.cos, "cos")
tan = _unary(U.tan, "tan")
sinh = _unary(U.sinh, "sinh")
cosh = _unary(U.cosh, "cosh")
tanh = _unary(U.tanh, "tanh")
asin = _unary(U.asin, "asin")
acos = _unary(U.acos, "acos")
atan = _unary(U.atan, "atan")
asinh = _unary(U.asinh, "asinh")
acosh = _unary(U.acosh, "acosh")
atanh = _unary(U.atanh, "atanh")
arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh
sqrt = _unary(U.sqrt, "sqrt")
rsqrt = _unary(U.rsqrt, "rsqrt")
square = _unary(U.square, "square")
reciprocal = _unary(U.reciprocal, "reciprocal")
abs = _unary(U.abs_, "abs")
absolute = abs
expm1 = _unary(U.expm1, "expm1")
log1p = _unary(U.log1p, "log1p")
erf = _unary(U.erf, "erf")
sigmoid = _unary(U.sigmoid, "sigmoid")
relu = _unary(U.relu, "relu")
sign = _unary(U.sign, "sign")
floor = _unary(U.floor, "floor")
ceil = _unary(U.ceil, "ceil")
round = _unary(U.round_, "round")


def pow(x: Any, y: Any) -> Tensor:
    """``x ** y``; either may be a Python number."""
    return A.pow_(_operand(x, "pow", "x"), _operand(y, "pow", "exponent"))


power = pow


def exp2(x: Any) -> Tensor:
    return pow(2.0, _tensor(x, "exp2"))


def log2(x: Any) -> Tensor:
    return div(log(x), math.log(2.0))


def log10(x: Any) -> Tensor:
    return div(log(x), math.log(10.0))


def erfc(x: Any) -> Tensor:
    return sub(1, erf(x))


def softplus(x: Any) -> Tensor:
    # log(1 + e^x) computed without overflow: max(x, 0) + log1p(e^-|x|)
    x = _tensor(x, "softplus")
    return add(relu(x), log1p(exp(neg(abs(x)))))


def relu6(x: Any) -> Tensor:
    return clamp(x, 0.0, 6.0)


def leaky_relu(x: Any, alpha: float = 0.2) -> Tensor:
    x = _tensor(x, "leaky_relu")
    return select(greater(x, 0), x, mul(x, alpha))


def elu(x: Any, alpha: float = 1.0) -> Tensor:
    x = _tensor(x, "elu")
    return select(greater(x, 0), x, mul(alpha, expm1(minimum(x, 0.0))))


def gelu(x: Any, approximate: str = "none") -> Tensor:
    x = _tensor(x, "gelu")
    if approximate == "tanh":
        inner = mul(math.sqrt(2 / math.pi), add(x, mul(0.044715, pow(x, 3))))
        return mul(mul(0.5, x), add(1, tanh(inner)))
    return mul(mul(0.5, x), add(1, erf(div(x, math.sqrt(2.0)))))


def silu(x: Any) -> Tensor:
    x = _tensor(x, "silu")
    return mul(x, sigmoid(x))


def mish(x: Any) -> Tensor:
    x = _tensor(x, "mish")
    return mul(x, tanh(softplus(x)))


def hardswish(x: Any) -> Tensor:
    x = _tensor(x, "hardswish")
    return mul(x, div(relu6(add(x, 3.0)), 6.0))


def clamp(x: Any, min: Any = None, max: Any = None) -> Tensor:
    """Clip ``x`` to ``[min, max]``; either bound may be None."""
    x = _tensor(x, "clamp")
    if min is None and max is None:
        raise ValueError("For 'clamp', at least one of 'min' and 'max' must be given.")
    out = x
    if min is not None:
        out = maximum(out, min)
    if max is not None:
        out = minimum(out, max)
    return out


clip = clip_by_value = clamp


def select(cond: Any, x: Any, y: Any) -> Tensor:
    """Elements of ``x`` where ``cond`` holds, of ``y`` elsewhere."""
    c = _tensor(cond, "select", "cond")
    if c.dtype != mstype.bool_:
        raise TypeError(f"For 'select', 'cond' must be a bool Tensor, but got {c.dtype}.")
    return C.select(c, _operand(x, "select", "x"), _operand(y, "select", "y"))


def where(condition: Any, x: Any, y: Any) -> Tensor:
    return select(condition, x, y)


# --- dtype and constants ---------------------------------------------------------------------
def cast(x: Any, dtype: Any) -> Tensor:
    """Convert ``x`` to ``dtype`` (a mindspore dtype, NumPy dtype or Python type)."""
    return S.cast(_tensor(x, "cast"), dtype=mstype.to_numpy(dtype))


def dtype(x: Tensor) -> mstype.DType:
    return x.dtype


def zeros_like(x: Any, dtype: Any = None) -> Tensor:
    out = S.zeros_like(_tensor(x, "zeros_like"))
    return out if dtype is None else cast(out, dtype)


def ones_like(x: Any, dtype: Any = None) -> Tensor:
    out = S.ones_like(_tensor(x, "ones_like"))
    return out if dtype is None else cast(out, dtype)


def _shape_arg(shape: Any, op: str) -> tuple:
    if isinstance(shape, int):
        return (shape,)
    if isinstance(shape, Tensor):
        return tuple(int(v) for v in shape.asnumpy().reshape(-1))
    try:
        return tuple(int(s) for s in shape)
    except TypeError:
        raise TypeError(f"For '{op}', 'shape' must be an int or a tuple of ints, but got "
                        f"{shape!r}.") from None


def fill(type: Any, shape: Any, value: Any) -> Tensor:
    """A tensor of ``shape`` filled with ``value`` (MindSpore's ``ops.fill(type, shape, value)``)."""
    return S.full(shape=_shape_arg(shape, "fill"), value=value, dtype=mstype.to_numpy(type))


def full(size: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:
    if dtype is None:
        dtype = mstype.float32 if isinstance(fill_value, float) else (
            mstype.bool_ if isinstance(fill_value, bool) else mstype.int64)
    return fill(dtype, size, fill_value)


def zeros(shape: Any, dtype: Any = None) -> Tensor:
    return fill(dtype or mstype.float32, shape, 0)


def ones(shape: Any, dtype: Any = None) -> Tensor:
    return fill(dtype or mstype.float32, shape, 1)


def eye(n: int, m: int | None = None, dtype: Any = None) -> Tensor:
    return Tensor(np.eye(n, m, dtype=mstype.to_numpy(dtype or mstype.float32)))


def arange(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None) -> Tensor:
    if end is None:
        start, end = 0, start
    arr = np.arange(start, end, step)
    return Tensor(arr, dtype=dtype) if dtype is not None else Tensor(arr.tolist() if arr.size else arr)


def linspace(start: float, end: float, steps: int) -> Tensor:
    return Tensor(np.linspace(start, end, steps, dtype=np.float32))


def stop_gradient(x: Any) -> Any:
    """The identity whose gradient is zero; works on tensors and on (nested) tuples."""
    if isinstance(x, (tuple, list)):
        return type(x)(stop_gradient(v) for v in x)
    if isinstance(x, Tensor):
        return S.stop_gradient(x)
    return x


# --- shapes ---------------------------------------------------------------------------------
def _axis(axis: int, ndim: int, op: str) -> int:
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"For '{op}', 'axis' must be an int, but got {type(axis).__name__}.")
    if not -ndim <= axis < builtins.max(ndim, 1):
        raise ValueError(f"For '{op}', 'axis' must be in range [{-ndim}, {ndim}), but got "
                         f"{axis}.")
    return int(axis) % builtins.max(ndim, 1)


def _axes(axis: Any, ndim: int, op: str) -> tuple | None:
    """Normalize a reduction axis spec: None or () means all axes."""
    if axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0):
        return None
    if isinstance(axis, (tuple, list)):
        out = tuple(sorted({_axis(a, ndim, op) for a in axis}))
    else:
        out = (_axis(axis, ndim, op),)
    return out


def shape(x: Tensor) -> tuple:
    return x.shape


def rank(x: Tensor) -> int:
    return x.ndim


def size(x: Tensor) -> int:
    return x.size


def reshape(x: Any, shape: Any) -> Tensor:
    """Reshape; one dimension may be -1."""
    x = _tensor(x, "reshape")
    new = list(_shape_arg(shape, "reshape"))
    n = x.size
    if new.count(-1) > 1:
        raise ValueError(f"For 'reshape', only one dimension may be -1, but got {tuple(new)}.")
    if -1 in new:
        rest = math.prod(d for d in new if d != -1)
        if rest == 0 or n % rest:
            raise ValueError(f"For 'reshape', a tensor of shape {list(x.shape)} can not be "
                             f"reshaped to {tuple(new)}.")
        new[new.index(-1)] = n // rest
    if math.prod(new) != n:
        raise ValueError(f"For 'reshape', a tensor of shape {list(x.shape)} ({n} elements) "
                         f"can not be reshaped to {tuple(new)}.")
    new_t = tuple(new)
    return x if new_t == x.shape else S.reshape(x, shape=new_t)


def transpose(x: Any, input_perm: Any = None) -> Tensor:
    """Permute the axes (reverse them when ``input_perm`` is None)."""
    x = _tensor(x, "transpose")
    n = x.ndim
    perm = tuple(range(n - 1, -1, -1)) if input_perm is None else tuple(
        _axis(p, n, "transpose") for p in input_perm)
    if sorted(perm) != list(range(n)):
        raise ValueError(f"For 'transpose', 'input_perm' {tuple(input_perm)} is not a "
                         f"permutation of the {n} axes of a tensor of shape {list(x.shape)}.")
    return x if perm == tuple(range(n)) else S.transpose(x, perm=perm)


permute = transpose


def swapaxes(x: Any, axis0: int, axis1: int) -> Tensor:
    x = _tensor(x, "swapaxes")
    perm = list(range(x.ndim))
    a, b = _axis(axis0, x.ndim, "swapaxes"), _axis(axis1, x.ndim, "swapaxes")
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


def expand_dims(x: Any, axis: int) -> Tensor:
    x = _tensor(x, "expand_dims")
    a = _axis(axis, x.ndim + 1, "expand_dims")
    s = list(x.shape)
    s.insert(a, 1)
    return S.reshape(x, shape=tuple(s))


unsqueeze = expand_dims


def squeeze(x: Any, axis: Any = None) -> Tensor:
    x = _tensor(x, "squeeze")
    if axis is None:
        new = tuple(d for d in x.shape if d != 1)
    else:
        axes = _axes(axis, x.ndim, "squeeze") or ()
        for a in axes:
            if x.shape[a] != 1:
                raise ValueError(f"For 'squeeze', axis {a} of a tensor of shape "
                                 f"{list(x.shape)} has size {x.shape[a]}, not 1.")
        new = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    return reshape(x, new)


def broadcast_to(x: Any, shape: Any) -> Tensor:
    x = _tensor(x, "broadcast_to")
    target = list(_shape_arg(shape, "broadcast_to"))
    lead = len(target) - x.ndim
    for i, d in enumerate(target):  # -1 keeps the input's size
        if d == -1 and i >= lead:
            target[i] = x.shape[i - lead]
    target_t = tuple(target)
    return x if target_t == x.shape else S.broadcast_to(x, shape=target_t)


def flatten(x: Any, start_dim: int = 1, end_dim: int = -1) -> Tensor:
    """MindSpore's ``ops.flatten`` keeps the batch axis by default."""
    x = _tensor(x, "flatten")
    if x.ndim == 0:
        return reshape(x, (1,))
    s = _axis(start_dim, x.ndim, "flatten")
    e = _axis(end_dim, x.ndim, "flatten")
    new = x.shape[:s] + (math.prod(x.shape[s:e + 1]),) + x.shape[e + 1:]
    return reshape(x, new)


def tile(x: Any, multiples: Sequence[int]) -> Tensor:
    """Repeat ``x`` along each axis, built from broadcast_to and reshape."""
    x = _tensor(x, "tile")
    reps = tuple(multiples)
    if len(reps) < x.ndim:
        reps = (1,) * (x.ndim - len(reps)) + reps
    xs = (1,) * (len(reps) - x.ndim) + x.shape
    inter = tuple(v for r, d in zip(reps, xs) for v in (1, d))
    wide = tuple(v for r, d in zip(reps, xs) for v in (r, d))
    out = broadcast_to(reshape(x, inter), wide)
    return reshape(out, tuple(r * d for r, d in zip(reps, xs)))


def concat(tensors: Sequence[Any], axis: int = 0) -> Tensor:
    """Join tensors along ``axis``."""
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError("For 'concat', 'tensors' must be a non-empty tuple or list of Tensors.")
    ts = [_tensor(t, "concat", f"tensors[{i}]") for i, t in enumerate(tensors)]
    ndim = ts[0].ndim
    for i, t in enumerate(ts):
        if t.ndim != ndim:
            raise ValueError(f"For 'concat', all tensors must have the same rank, but "
                             f"tensors[0] has shape {list(ts[0].shape)} and tensors[{i}] has "
                             f"shape {list(t.shape)}.")
    if len(ts) == 1:
        return ts[0]
    return S.concat(*ts, axis=_axis(axis, ndim, "concat"))


cat = concat


def stack(tensors: Sequence[Any], axis: int = 0) -> Tensor:
    """Join tensors of equal shape along a new axis."""
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError("For 'stack', 'tensors' must be a non-empty tuple or list of Tensors.")
    ts = [_tensor(t, "stack", f"tensors[{i}]") for i, t in enumerate(tensors)]
    for i, t in enumerate(ts):
        if t.shape != ts[0].shape:
            raise ValueError(f"For 'stack', all tensors must have the same shape, but "
                             f"tensors[0] has shape {list(ts[0].shape)} and tensors[{i}] has "
                             f"shape {list(t.shape)}.")
    a = _axis(axis, ts[0].ndim + 1, "stack")
    return concat([expand_dims(t, a) for t in ts], a)


def split(x: Any, split_size_or_sections: Any, axis: int = 0) -> tuple:
    """Split into chunks of a given size, or of the sizes in a list."""
    x = _tensor(x, "split")
    a = _axis(axis, x.ndim, "split")
    n = x.shape[a]
    if isinstance(split_size_or_sections, int):
        sizes = [split_size_or_sections] * (n // split_size_or_sections)
        if n % split_size_or_sections:
            sizes.append(n % split_size_or_sections)
    else:
        sizes = list(split_size_or_sections)
    if builtins.sum(sizes) != n:
        raise ValueError(f"For 'split', sections {sizes} do not add up to the size {n} of "
                         f"axis {a} of a tensor of shape {list(x.shape)}.")
    out, start = [], 0
    for s in sizes:
        out.append(S.getitem(x, index=(slice(None),) * a + (slice(start, start + s),)))
        start += s
    return tuple(out)


def flip(x: Any, dims: Any) -> Tensor:
    x = _tensor(x, "flip")
    axes = _axes(dims, x.ndim, "flip") or tuple(range(x.ndim))
    index = tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(x.ndim))
    return S.getitem(x, index=index)


def _index_part(i: Any, arrays: list) -> Any:
    if isinstance(i, Tensor):
        arrays.append(i)
        return S.ArraySlot(len(arrays) - 1)
    if isinstance(i, (list, np.ndarray)):
        arrays.append(Tensor(np.asarray(i)))
        return S.ArraySlot(len(arrays) - 1)
    if isinstance(i, (int, np.integer, slice)) or i is None or i is Ellipsis:
        return int(i) if isinstance(i, np.integer) else i
    if isinstance(i, bool):
        return i
    raise IndexError(f"For 'getitem', unsupported index element {i!r} of type "
                     f"{type(i).__name__}.")


def getitem(x: Tensor, index: Any) -> Tensor:
    """``x[index]`` with ints, slices (with steps), None, Ellipsis, bool masks and integer
    arrays."""
    arrays: list = []
    if isinstance(index, tuple):
        template = tuple(_index_part(i, arrays) for i in index)
    else:
        template = _index_part(index, arrays)
    return S.getitem(x, *arrays, index=template)


def gather(x: Any, indices: Any, axis: int = 0) -> Tensor:
    """Take the slices of ``x`` at ``indices`` along ``axis``."""
    x = _tensor(x, "gather")
    a = _axis(axis, x.ndim, "gather")
    idx = _tensor(indices, "gather", "input_indices")
    if idx.dtype.np_dtype.kind not in "iu":
        raise TypeError(f"For 'gather', 'input_indices' must be an integer Tensor, but got "
                        f"{idx.dtype}.")
    return getitem(x, (slice(None),) * a + (idx,))


# --- reductions ------------------------------------------------------------------------------
def reduce_sum(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    x = _tensor(x, "reduce_sum")
    return R.reduce_sum(x, axis=_axes(axis, x.ndim, "reduce_sum"), keepdims=bool(keep_dims))


def _count(x: Tensor, axes: tuple | None) -> int:
    return x.size if axes is None else math.prod(x.shape[a] for a in axes)


def reduce_mean(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    x = _tensor(x, "reduce_mean")
    axes = _axes(axis, x.ndim, "reduce_mean")
    total = R.reduce_sum(x, axis=axes, keepdims=bool(keep_dims))
    return A.div(total, _count(x, axes))


def reduce_max(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    x = _tensor(x, "reduce_max")
    return R.reduce_max(x, axis=_axes(axis, x.ndim, "reduce_max"), keepdims=bool(keep_dims))


def reduce_min(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    x = _tensor(x, "reduce_min")
    return R.reduce_min(x, axis=_axes(axis, x.ndim, "reduce_min"), keepdims=bool(keep_dims))


def reduce_prod(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Product as exp(sum(log|x|)) with the sign restored would lose zeros; use a running
    product along each axis instead, written with primitives."""
    x = _tensor(x, "reduce_prod")
    axes = _axes(axis, x.ndim, "reduce_prod")
    axes = tuple(range(x.ndim)) if axes is None else axes
    out = x
    for a in axes:
        parts = split(out, 1, a)
        acc = parts[0]
        for p in parts[1:]:
            acc = mul(acc, p)
        out = acc
    if not keep_dims:
        out = reshape(out, tuple(d for i, d in enumerate(x.shape) if i not in axes))
    return out


def sum(x: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    out = reduce_sum(x, dim, keepdim)
    return out if dtype is None else cast(out, dtype)


def mean(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return reduce_mean(x, axis, keep_dims)


def prod(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return reduce_prod(x, axis, keep_dims)


def amax(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return reduce_max(x, axis, keepdims)


def amin(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return reduce_min(x, axis, keepdims)


def argmax(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    x = _tensor(x, "argmax")
    a = None if axis is None else _axis(axis, x.ndim, "argmax")
    return R.argmax(x, axis=a, keepdims=bool(keepdims))


def argmin(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    x = _tensor(x, "argmin")
    a = None if axis is None else _axis(axis, x.ndim, "argmin")
    return R.argmin(x, axis=a, keepdims=bool(keepdims))


def cumsum(x: Any, axis: int) -> Tensor:
    x = _tensor(x, "cumsum")
    return R.cumsum(x, axis=_axis(axis, x.ndim, "cumsum"))


def var(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    x = _tensor(x, "var")
    axes = _axes(axis, x.ndim, "var")
    centered = sub(x, reduce_mean(x, axes, True))
    total = R.reduce_sum(mul(centered, centered), axis=axes, keepdims=bool(keepdims))
    return div(total, _count(x, axes) - ddof)


def std(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    return sqrt(var(x, axis, ddof, keepdims))


def norm(x: Any, ord: Any = None, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Vector p-norms (default 2) over ``dim`` (all axes when None)."""
    x = _tensor(x, "norm")
    p = 2 if ord is None else ord
    if p == 2:
        return sqrt(reduce_sum(mul(x, x), dim, keepdim))
    if p == 1:
        return reduce_sum(abs(x), dim, keepdim)
    if p == float("inf"):
        return reduce_max(abs(x), dim, keepdim)
    return pow(reduce_sum(pow(abs(x), p), dim, keepdim), 1.0 / p)


def logsumexp(x: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    x = _tensor(x, "logsumexp")
    m = stop_gradient(reduce_max(x, axis, True))
    out = add(log(reduce_sum(exp(sub(x, m)), axis, True)), m)
    return out if keep_dims else squeeze(out, _axes(axis, x.ndim, "logsumexp"))


def softmax(x: Any, axis: int = -1) -> Tensor:
    x = _tensor(x, "softmax")
    e = exp(sub(x, stop_gradient(reduce_max(x, axis, True))))
    return div(e, reduce_sum(e, axis, True))


def log_softmax(x: Any, axis: int = -1) -> Tensor:
    x = _tensor(x, "log_softmax")
    return sub(x, logsumexp(x, axis, True))


# --- linear algebra --------------------------------------------------------------------------
def matmul(x: Any, y: Any, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    """Matrix product with NumPy's rules (1-D operands, broadcast batch dimensions)."""
    a = _tensor(x, "matmul", "x")
    b = _tensor(y, "matmul", "y")
    if transpose_a:
        a = L.swap_last(a)
    if transpose_b:
        b = L.swap_last(b)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"For 'matmul', the inputs must not be scalars, but got shapes "
                         f"{list(a.shape)} and {list(b.shape)}.")
    if a.ndim >= 2 and b.ndim >= 2:
        return L.matmul(a, b)
    a2 = reshape(a, (1,) + a.shape) if a.ndim == 1 else a
    b2 = reshape(b, b.shape + (1,)) if b.ndim == 1 else b
    out = L.matmul(a2, b2)
    if a.ndim == 1:  # drop the axis added to a (second to last), then the one added to b
        out = reshape(out, out.shape[:-2] + out.shape[-1:])
    if b.ndim == 1:
        out = reshape(out, out.shape[:-1])
    return out


def batch_matmul(x: Any, y: Any, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    return matmul(x, y, transpose_a, transpose_b)


bmm = batch_matmul


def dot(x: Any, y: Any) -> Tensor:
    return matmul(x, y)


def outer(x: Any, y: Any) -> Tensor:
    x, y = _tensor(x, "outer", "x"), _tensor(y, "outer", "y")
    return mul(reshape(x, (-1, 1)), reshape(y, (1, -1)))


_tensor_module.F = __import__(__name__, fromlist=["_"])
_tensor_module._P = A
_tensor_module._bind = _bind
