"""``Tensor``: an n-d array on NumPy (CPU) or CuPy (GPU) with MindSpore's API. Its array is
never written in place; ``x[index] = value`` rebinds ``x`` to an updated copy.

Operators are thin front-ends over ``mindgrad.ops.functional``; every one of them goes
through the single dispatch point, so they all work on tracers too. The methods of the
operator catalogue (``x.sum()``, ``x.reshape(...)``, ``x.exp()``, ...) are installed on the
class by ``mindgrad.ops`` (``ops.tensor_methods.install``), from its name table."""
from __future__ import annotations

import weakref
from typing import Any, Callable

import numpy as np

from . import dtype as mstype
from .config import array_module
from .device import DEVICES, device_of, to_device
from .hooks import add_leaf_hook, check_hook
from .mutation import rebind
from .printing import format_repr, format_str, format_uninitialized
from .state import graph_tracing, graphs

F: Any = None  # mindgrad.ops.functional, bound once it is imported (it imports this module)
_P: Any = None  # mindgrad.prims.arith, bound at the same time
_bind: Any = None  # mindgrad.core.primitive.bind
_NO: dict = {}


def _fast(t: "Tensor", o: Any) -> bool:
    """Whether ``t <op> o`` may bind the primitive directly: a Tensor of the same kind (both
    float, or both integer/bool: NumPy's promotion is MindSpore's there), a Python float with
    a float tensor, or a Python int with a tensor that is not bool. Anything else goes
    through the functional front-end, which converts operands and promotes as MindSpore."""
    if type(o) is float:
        return t._data.dtype.kind in "fc"
    if type(o) is int:
        return t._data.dtype.kind != "b"
    if not isinstance(o, Tensor):
        return False
    td, od = t._data.dtype, o._data.dtype
    if td is od:  # (NumPy shares one dtype object per type: the common case costs no more)
        return True
    k, ko = td.kind, od.kind
    return k == ko or (k in "iub" and ko in "iub")


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
    elif arr.dtype.kind == "i":
        arr = arr.astype(np.int64)
    elif arr.dtype.kind == "u":
        # NumPy reads ints of 2**63 and above (all of them, none negative) as uint64, and so
        # does MindSpore: made int64, they would wrap to negative values
        arr = arr.astype(np.uint64)
    elif arr.dtype.kind not in "fb":
        if isinstance(data, int):
            raise ValueError(f"For 'Tensor', the int {data} is out of the range of int64 and "
                             f"uint64.")
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

    # "__dict__": MindSpore code may set attributes of its own on a Tensor (``x.tag = ...``)
    __slots__ = ("_data", "__weakref__", "__dict__")
    # the initializer of a tensor made with ``init=`` until its value is first read
    _pending_init: Any = None
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
                # the values are made now, but MindSpore's tensor stays "uninitialized" (and
                # prints so) until init_data() or asnumpy()
                self._pending_init = init
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
        if self._pending_init is not None:
            del self._pending_init
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
        if self._pending_init is not None:
            return self.__repr__()
        return format_str(self.asnumpy())

    def __repr__(self) -> str:
        if self._pending_init is not None:
            return format_uninitialized(self.shape, str(self.dtype))
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

    # --- methods (those of the operator catalogue are installed by mindgrad.ops) --------
    @staticmethod
    def from_numpy(array):
        """A Tensor of a NumPy array (its dtype kept)."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"For 'Tensor.from_numpy', 'array' must be a numpy.ndarray, but "
                            f"got {type(array).__name__}.")
        return Tensor(array)
    def is_floating_point(self) -> bool: return self._data.dtype.kind == "f"


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
