"""``Tensor``: an n-d array on NumPy (CPU) or CuPy (GPU) with MindSpore's API. Its array is
never written in place; ``x[index] = value`` rebinds ``x`` to an updated copy.

Operators and methods are thin front-ends over ``mindgrad.ops.functional``; every one of
them goes through the single dispatch point, so they all work on tracers too."""
from __future__ import annotations

import weakref
from typing import Any, Callable

import numpy as np

from . import dtype as mstype
from .config import array_module
from .device import DEVICES, device_of, to_device
from .hooks import add_leaf_hook, check_hook
from .mutation import rebind
from .printing import format_repr, format_str
from .state import graph_tracing, graphs

F: Any = None  # mindgrad.ops.functional, bound once it is imported (it imports this module)
_P: Any = None  # mindgrad.prims.arith, bound at the same time
_bind: Any = None  # mindgrad.core.primitive.bind
_NO: dict = {}


def _fast(t: "Tensor", o: Any) -> bool:
    """Whether ``t <op> o`` may bind the primitive directly: a Tensor, a Python float with a
    float tensor, or a Python int with a tensor that is not bool. Anything else goes through
    the functional front-end, which converts operands and promotes scalars as MindSpore."""
    if type(o) is float:
        return t._data.dtype.kind in "fc"
    if type(o) is int:
        return t._data.dtype.kind != "b"
    return isinstance(o, Tensor)


def _fast_div(t: "Tensor", o: Any) -> bool:
    """``_fast`` for a true division: both operands must be float or complex already."""
    if t._data.dtype.kind not in "fc":
        return False
    if isinstance(o, Tensor):
        return o._data.dtype.kind in "fc"
    return type(o) is float or type(o) is int


def one_element(arr: Any, op: str) -> Any:
    """The value of a one-element array as a Python scalar."""
    if arr.size != 1:
        raise ValueError(f"For '{op}', only a Tensor with one element can be converted to a "
                         f"Python scalar, but got a Tensor of shape {list(arr.shape)}.")
    return arr.item()


def _default_array(data: Any, xp) -> Any:
    """MindSpore's dtype defaults: Python floats become float32, ints int64, bools bool."""
    if isinstance(data, (np.ndarray, np.generic)):
        return xp.asarray(data)
    if hasattr(data, "__cuda_array_interface__"):  # a CuPy array: copied to the CPU if needed
        return data.get() if xp is np else xp.asarray(data)
    arr = np.asarray(data)
    if arr.dtype == np.float64:
        arr = arr.astype(np.float32)
    elif arr.dtype.kind in "iu":
        arr = arr.astype(np.int64)
    elif arr.dtype.kind not in "fb":
        raise TypeError(f"For 'Tensor', input_data must be a number, bool, list, tuple or "
                        f"numpy.ndarray, but got {type(data).__name__} holding {arr.dtype}")
    return xp.asarray(arr)


def _traced_copy(source: "Tensor", dtype: Any) -> Any:
    """``Tensor(source)`` of a value that vmap, grad, jvp or jet traces: that value, cut from
    the derivatives as an eager copy is (``stop_gradient``), so that under vmap each example
    keeps its own value (the tracer's array is one example's metadata only). A GRAPH-mode
    value is left to ``_follow_graph``: None."""
    if source._trace is graph_tracing():
        return None
    value = F.stop_gradient(source)
    if dtype is not None:
        value = F.cast(value, mstype.to_numpy(dtype, "Tensor"))
    return value


def _follow_graph(new: "Tensor", source: "Tensor", dtype: Any) -> bool:
    """``Tensor(source)`` while a GRAPH-mode function is traced: ``new`` stands for
    ``source``'s graph value (cast to ``dtype``), so the compiled function computes it from
    its inputs on every call instead of keeping the value of the first. Outside GRAPH
    tracing, and for a tensor whose present array is all the graph needs, it does nothing
    and returns False; otherwise the new tensor is set up and it returns True. Like the
    eager copy, the new tensor carries no gradient."""
    if not graphs:  # no GRAPH-mode trace on any thread: the common, eager case
        return False
    graph = graph_tracing()
    if graph is None or (source._trace is None and not graph.follows(source)):
        return False
    value = F.stop_gradient(source)  # the graph's value, beneath any derivative trace
    if getattr(value, "_trace", None) is not graph:
        return False  # a batched (vmap) value: copied as before
    if dtype is not None:
        value = F.cast(value, mstype.to_numpy(dtype, "Tensor"))
    graph.rebind(new, value)
    new._data = value.val
    return True


class Tensor:
    """A MindSpore Tensor. ``Tensor(data, dtype=None)`` accepts numbers, bools, (nested) lists
    and tuples, NumPy arrays and other Tensors."""

    __slots__ = ("_data", "__weakref__")
    _trace = None  # plain tensors belong to no trace (tracers override this)
    __array_priority__ = 100  # make ``ndarray * Tensor`` call Tensor.__rmul__

    def __new__(cls, input_data: Any = None, dtype: Any = None, *args: Any,
                **kwargs: Any) -> "Tensor":
        if cls is Tensor and getattr(input_data, "_trace", None) is not None:
            traced = _traced_copy(input_data, dtype)
            if traced is not None:
                return traced
        return object.__new__(cls)

    def __init__(self, input_data: Any = None, dtype: Any = None, shape: Any = None,
                 init: Any = None, const_arg: bool = False) -> None:
        if self._trace is not None:
            return  # a traced value that __new__ gave back (see _traced_copy)
        xp = array_module()
        if input_data is None:
            if shape is None:
                raise ValueError("For 'Tensor', input_data and shape can not both be None.")
            if not isinstance(shape, int) and any(d is None or d == -1 for d in shape):
                _make_placeholder(self, tuple(shape), dtype)
                return
            np_dtype = mstype.to_numpy(dtype, "Tensor") if dtype is not None else np.float32
            arr = xp.zeros(tuple(shape) if not isinstance(shape, int) else (shape,), np_dtype)
            if init is not None and hasattr(init, "_fill"):
                arr = xp.asarray(init._fill(arr.shape, np_dtype))
        elif isinstance(input_data, Tensor):
            if _follow_graph(self, input_data, dtype):
                return
            arr = input_data._data
        else:
            arr = _default_array(input_data, xp)
        if dtype is not None:
            np_dtype = mstype.to_numpy(dtype, "Tensor")
            if arr.dtype != np_dtype:
                arr = arr.astype(np_dtype)
        self._data = arr

    @classmethod
    def _wrap(cls, arr: Any) -> "Tensor":
        t = object.__new__(Tensor)
        t._data = arr
        return t

    # --- metadata ---------------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return self._data.shape

    @property
    def dtype(self) -> mstype.DType:
        return mstype.from_numpy(self._data.dtype)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def size(self) -> int:
        return self._data.size

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    @property
    def strides(self) -> tuple:
        return self._data.strides

    def dim(self) -> int:
        return self._data.ndim

    @property
    def device(self) -> str:
        """Where the values live: "CPU" (a NumPy array) or "GPU" (a CuPy array)."""
        return device_of(self._data)

    def move_to(self, to: str, blocking: bool = True) -> "Tensor":
        """A copy of this tensor on device ``to`` ("CPU" or "GPU"; "Ascend" is accepted as
        a name but has no backend here), or this tensor's values unchanged when they are
        there already. Operations never move tensors themselves: inputs on different
        devices raise a TypeError. Like MindSpore's, only outside compiled and transformed
        functions (it is not differentiated)."""
        if to not in DEVICES:
            raise ValueError(f"For 'Tensor.move_to', the value of 'to' must be one of "
                             f"{list(DEVICES)}, but got {to!r}.")
        if not isinstance(blocking, bool):
            raise ValueError(f"For 'Tensor.move_to', 'blocking' must be a bool, but got "
                             f"{type(blocking).__name__}.")
        if self._trace is not None:
            raise ValueError("For 'Tensor.move_to', the tensor is being traced (GRAPH mode, "
                             "jit, grad, vmap, ...): move_to only works on concrete tensors "
                             "in PyNative mode.")
        return Tensor._wrap(to_device(self._data, to, "Tensor.move_to"))

    def numel(self) -> int:
        return self._data.size

    def register_hook(self, hook: Callable) -> Any:
        """Call ``hook(grad)`` when a gradient with respect to this Tensor is computed; a
        Tensor it returns replaces the gradient. Returns a handle whose ``remove()``
        unregisters it."""
        check_hook(hook, "Tensor.register_hook")
        trace = getattr(self, "_trace", None)
        if trace is not None:
            return trace.register_hook(self, hook)
        return add_leaf_hook(self, hook)

    def asnumpy(self) -> np.ndarray:
        """A NumPy copy of the values (from the GPU if the tensor lives there)."""
        arr = self._data
        if isinstance(arr, np.ndarray):
            return arr.copy()
        if hasattr(arr, "get"):
            return arr.get()
        return np.array(arr)

    def numpy(self) -> np.ndarray:
        return self.asnumpy()

    def item(self, index: Any = None) -> Any:
        arr = self.asnumpy()
        return one_element(arr, "Tensor.item") if index is None else arr.item(index)

    def tolist(self) -> Any:
        return self.asnumpy().tolist()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self.asnumpy()
        return arr if dtype is None else arr.astype(dtype)

    # --- printing ---------------------------------------------------------------------------
    def __str__(self) -> str:
        return format_str(self.asnumpy())

    def __repr__(self) -> str:
        return format_repr(self.asnumpy(), str(self.dtype))

    # --- Python protocol --------------------------------------------------------------------
    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise ValueError("The truth value of a Tensor with more than one element is "
                             "ambiguous.")
        return bool(self._data)

    def __float__(self) -> float:
        return float(one_element(self._data, "float"))  # any one-element tensor, as in MindSpore

    def __int__(self) -> int:
        return int(one_element(self._data, "int"))

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iu":
            raise TypeError("only integer tensors can be used as an index")
        return int(self._data)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d Tensor")
        return self.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    __hash__ = object.__hash__

    # --- operators --------------------------------------------------------------------------
    # The arithmetic operators bind their primitive directly when the other operand is a
    # Tensor or a Python number (the common case), skipping the functional wrapper.
    def __add__(self, o):
        return _bind(_P.add, (self, o), _NO) if _fast(self, o) else F.add(self, o)
    def __radd__(self, o):
        return _bind(_P.add, (o, self), _NO) if _fast(self, o) else F.add(o, self)
    def __sub__(self, o):
        return _bind(_P.sub, (self, o), _NO) if _fast(self, o) else F.sub(self, o)
    def __rsub__(self, o):
        return _bind(_P.sub, (o, self), _NO) if _fast(self, o) else F.sub(o, self)
    def __mul__(self, o):
        return _bind(_P.mul, (self, o), _NO) if _fast(self, o) else F.mul(self, o)
    def __rmul__(self, o):
        return _bind(_P.mul, (o, self), _NO) if _fast(self, o) else F.mul(o, self)
    # Division binds directly only for float operands: integers divide in float32 (F.div).
    def __truediv__(self, o):
        return _bind(_P.div, (self, o), _NO) if _fast_div(self, o) else F.div(self, o)
    def __rtruediv__(self, o):
        return _bind(_P.div, (o, self), _NO) if _fast_div(self, o) else F.div(o, self)
    def __floordiv__(self, o): return F.floor_div(self, o)
    def __rfloordiv__(self, o): return F.floor_div(o, self)
    def __mod__(self, o): return F.floor_mod(self, o)
    def __rmod__(self, o): return F.floor_mod(o, self)
    def __pow__(self, o): return F.pow(self, o)
    def __rpow__(self, o): return F.pow(o, self)
    def __matmul__(self, o): return F.matmul(self, o)
    def __rmatmul__(self, o): return F.matmul(o, self)
    def __neg__(self): return F.neg(self)
    def __pos__(self): return self
    def __abs__(self): return F.abs(self)
    def __invert__(self): return F.logical_not(self)
    def __and__(self, o): return F.logical_and(self, o)
    def __or__(self, o): return F.logical_or(self, o)
    def __lt__(self, o): return F.less(self, o)
    def __le__(self, o): return F.less_equal(self, o)
    def __gt__(self, o): return F.greater(self, o)
    def __ge__(self, o): return F.greater_equal(self, o)
    def __eq__(self, o): return F.equal(self, o)  # type: ignore[override]
    def __ne__(self, o): return F.not_equal(self, o)  # type: ignore[override]
    def __getitem__(self, index): return F.getitem(self, index)

    def __setitem__(self, index, value):
        """``x[index] = value`` as in MindSpore: the updated tensor is computed with
        differentiable operations (a new array: arrays are never written in place, since
        other tensors may share this one's) and ``x`` then refers to it, so every name
        bound to this object sees the change and gradients flow through the value and the
        untouched elements."""
        self._become(F._setitem(self, index, value))

    def _become(self, new: "Tensor") -> None:
        """Make this object refer to ``new``, the result of an assignment into it."""
        rebind(self, new)

    # --- methods ----------------------------------------------------------------------------
    def astype(self, dtype): return F.cast(self, dtype)
    def to(self, dtype): return F.cast(self, dtype)
    def float(self): return F.cast(self, mstype.float32)
    def int(self): return F.cast(self, mstype.int32)
    def sum(self, axis=None, keepdims=False, dtype=None):
        out = F.reduce_sum(self, axis, keepdims)
        return out if dtype is None else F.cast(out, dtype)
    def mean(self, axis=None, keep_dims=False): return F.reduce_mean(self, axis, keep_dims)
    def max(self, axis=None, keepdims=False): return F.reduce_max(self, axis, keepdims)
    def min(self, axis=None, keepdims=False): return F.reduce_min(self, axis, keepdims)
    def prod(self, axis=None, keep_dims=False): return F.reduce_prod(self, axis, keep_dims)
    def argmax(self, axis=None, keepdims=False): return F.argmax(self, axis, keepdims)
    def argmin(self, axis=None, keepdims=False): return F.argmin(self, axis, keepdims)
    def reshape(self, *shape):
        return F.reshape(self, shape[0] if len(shape) == 1 and not isinstance(shape[0], int)
                         else shape)
    def view(self, *shape):
        """The same elements in a new shape; or, given a dtype, the same bytes read as that
        dtype (the last axis rescaled by the ratio of the item sizes; no gradient)."""
        if len(shape) == 1 and isinstance(shape[0], mstype.DType):
            to = mstype.to_numpy(shape[0], "view")
            a = self._data
            if a.ndim == 0 and to.itemsize != a.dtype.itemsize or a.ndim and \
                    (a.shape[-1] * a.dtype.itemsize) % to.itemsize:
                raise ValueError(f"For 'view', a tensor of shape {list(self.shape)} and dtype "
                                 f"{self.dtype} can not be read as {shape[0]}.")
            xp_a = a if a.flags.c_contiguous else a.copy()
            return Tensor._wrap(xp_a.view(to))
        return self.reshape(*shape)
    @staticmethod
    def from_numpy(array):
        """A Tensor of a NumPy array (its dtype kept)."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"For 'Tensor.from_numpy', 'array' must be a numpy.ndarray, but "
                            f"got {type(array).__name__}.")
        return Tensor(array)
    def flatten(self, start_dim=0, end_dim=-1, *, order=None):
        """Join axes ``start_dim`` to ``end_dim`` (all of them by default). MindSpore's other
        form ``flatten(order='C', *, start_dim=0, end_dim=-1)`` works too; 'F' order joins
        the axes of the transposed tensor."""
        if isinstance(start_dim, str):
            order, start_dim = start_dim, 0
        if order not in (None, "C", "F"):
            raise ValueError(f"For 'flatten', 'order' must be 'C' or 'F', but got {order!r}.")
        return F.flatten(F.transpose(self) if order == "F" else self, start_dim, end_dim)
    def ravel(self): return F.reshape(self, (-1,))
    def transpose(self, *axes):
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = axes[0]
        return F.transpose(self, tuple(axes) if axes else None)
    def permute(self, *axes): return self.transpose(*axes)
    @property
    def T(self): return F.transpose(self, None)
    def swapaxes(self, a, b): return F.swapaxes(self, a, b)
    def expand_dims(self, axis): return F.expand_dims(self, axis)
    def unsqueeze(self, dim=None, *, axis=None):
        return F.expand_dims(self, axis if dim is None else dim)
    def squeeze(self, axis=None): return F.squeeze(self, axis)
    def broadcast_to(self, shape): return F.broadcast_to(self, shape)
    def expand_as(self, other): return F.broadcast_to(self, other.shape)
    def abs(self): return F.abs(self)
    def exp(self): return F.exp(self)
    def log(self): return F.log(self)
    def sqrt(self): return F.sqrt(self)
    def square(self): return F.square(self)
    def sin(self): return F.sin(self)
    def cos(self): return F.cos(self)
    def tanh(self): return F.tanh(self)
    def sigmoid(self): return F.sigmoid(self)
    def pow(self, e): return F.pow(self, e)
    def matmul(self, o): return F.matmul(self, o)
    def clip(self, lo=None, hi=None): return F.clamp(self, lo, hi)
    def clamp(self, min=None, max=None): return F.clamp(self, min, max)
    def var(self, axis=None, ddof=0, keepdims=False): return F.var(self, axis, ddof, keepdims)
    def std(self, axis=None, ddof=0, keepdims=False): return F.std(self, axis, ddof, keepdims)
    def norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):
        return F.norm(self, ord, dim, keepdim, dtype=dtype)
    def cumsum(self, axis=None, dtype=None):  # axis None: over the flattened tensor
        return F.cumsum(self, axis, dtype) if axis is not None else \
            F.cumsum(F.reshape(self, (-1,)), 0, dtype)
    def cumprod(self, dim, dtype=None): return F.cumprod(self, dim, dtype)
    def masked_fill(self, mask, value): return F.masked_fill(self, mask, value)
    def index_select(self, axis, index): return F.index_select(self, axis, index)
    def scatter_add(self, indices, updates): return F.tensor_scatter_add(self, indices, updates)
    def inverse(self): return F.inverse(self)
    def det(self): return F.det(self)
    def log2(self): return F.log2(self)
    def log10(self): return F.log10(self)
    def floor(self): return F.floor(self)
    def ceil(self): return F.ceil(self)
    def round(self): return F.round(self)
    def tile(self, *reps):
        """``tile(2)``, ``tile(2, 2)`` and ``tile((2, 2))`` alike."""
        if len(reps) == 1 and not isinstance(reps[0], int):
            reps = reps[0]
        return F.tile(self, reps)
    def flip(self, dims): return F.flip(self, dims)
    def copy(self):
        """A copy with its own array; differentiable (the identity's gradient)."""
        out = F.S.reshape(self, shape=self.shape)
        if type(out) is Tensor:  # eager: an array of its own (a reshape may be a view)
            out._data = out._data.copy()
        return out
    def fill(self, value): return F.fill(self.dtype, self.shape, value)
    def zeros_like(self): return F.zeros_like(self)
    def ones_like(self): return F.ones_like(self)
    def is_floating_point(self) -> bool: return self._data.dtype.kind == "f"
    def set_dtype(self, dtype): return F.cast(self, dtype)

    # elementwise math, comparisons and logic (MindSpore's names; see mindgrad.ops)
    def neg(self): return F.neg(self)
    def add(self, other): return F.add(self, other)
    def sub(self, y): return F.sub(self, y)
    def mul(self, value): return F.mul(self, value)
    def div(self, value): return F.div(self, value)
    def remainder(self, divisor): return F.remainder(self, divisor)
    def floor_divide(self, value): return F.floor_div(self, value)
    def maximum(self, other): return F.maximum(self, other)
    def minimum(self, other): return F.minimum(self, other)
    def atan2(self, other): return F.atan2(self, other)
    def sign(self): return F.sign(self)
    def rsqrt(self): return F.rsqrt(self)
    def reciprocal(self): return F.reciprocal(self)
    def exp2(self): return F.exp2(self)
    def expm1(self): return F.expm1(self)
    def log1p(self): return F.log1p(self)
    def tan(self): return F.tan(self)
    def asin(self): return F.asin(self)
    def acos(self): return F.acos(self)
    def atan(self): return F.atan(self)
    def sinh(self): return F.sinh(self)
    def cosh(self): return F.cosh(self)
    def asinh(self): return F.asinh(self)
    def acosh(self): return F.acosh(self)
    def atanh(self): return F.atanh(self)
    arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh
    def erf(self): return F.erf(self)
    def erfc(self): return F.erfc(self)
    def relu(self): return F.relu(self)
    def softplus(self, beta=1, threshold=20): return F.softplus(self, beta, threshold)
    def equal(self, other): return F.equal(self, other)
    def not_equal(self, other): return F.not_equal(self, other)
    def greater(self, other): return F.greater(self, other)
    def greater_equal(self, other): return F.greater_equal(self, other)
    def less(self, other): return F.less(self, other)
    def less_equal(self, other): return F.less_equal(self, other)
    eq, ne, gt, ge, lt, le = equal, not_equal, greater, greater_equal, less, less_equal
    def logical_and(self, other): return F.logical_and(self, other)
    def logical_or(self, other): return F.logical_or(self, other)
    def logical_xor(self, other): return F.logical_xor(self, other)
    def logical_not(self): return F.logical_not(self)
    def isclose(self, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
        return F.isclose(self, x2, rtol, atol, equal_nan)

    # reductions, normalizations, indexing and products
    def all(self, axis=None, keep_dims=False): return F.all(self, axis, keep_dims)
    def any(self, axis=None, keep_dims=False): return F.any(self, axis, keep_dims)
    def logsumexp(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        return F.logsumexp(self, dim, keepdim if keepdims is None else keepdims, axis=axis)
    def softmax(self, axis, dtype=None): return F.softmax(self, axis, dtype=dtype)
    def log_softmax(self, axis=-1): return F.log_softmax(self, axis)
    def gather(self, input_indices, axis): return F.gather(self, input_indices, axis)
    def gather_nd(self, indices): return F.gather_nd(self, indices)
    def outer(self, vec2): return F.outer(self, vec2)


# the shapes of placeholder Tensors by id (a placeholder has no room for attributes of its
# own: it shares Tensor's slots so that its class can be switched in ``__init__``)
_PLACEHOLDER_SHAPES: dict[int, tuple] = {}


class _ShapePlaceholder(Tensor):
    """``Tensor(shape=[None, 3], dtype=ms.float32)``: stands for inputs of any size along
    the ``None`` axes (``Cell.set_inputs``). Its shape shows those axes as -1; it holds no
    values (its data is an empty array)."""

    __slots__ = ()

    @property
    def shape(self) -> tuple:
        return _PLACEHOLDER_SHAPES[id(self)]

    @property
    def ndim(self) -> int:
        return len(self.shape)


def _make_placeholder(t: Tensor, shape: tuple, dtype: Any) -> None:
    for d in shape:
        if not (d is None or (isinstance(d, int) and not isinstance(d, bool) and d >= -1)):
            raise TypeError(f"For 'Tensor', each entry of a placeholder's 'shape' must be a "
                            f"non-negative int, -1 or None, but got shape {list(shape)}.")
    np_dtype = mstype.to_numpy(dtype, "Tensor") if dtype is not None else np.float32
    t._data = np.zeros(tuple(0 if d is None or d == -1 else d for d in shape), np_dtype)
    t.__class__ = _ShapePlaceholder
    _PLACEHOLDER_SHAPES[id(t)] = tuple(-1 if d is None else d for d in shape)
    weakref.finalize(t, _PLACEHOLDER_SHAPES.pop, id(t), None)


def is_placeholder(t: Any) -> bool:
    """Whether ``t`` is a ``Tensor(shape=[None, ...])`` placeholder."""
    return type(t) is _ShapePlaceholder
