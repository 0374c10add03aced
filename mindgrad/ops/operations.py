"""MindSpore's operator classes (``ops.MatMul()``, ``ops.Sin()``, ...): configured once,
then called like functions. Each forwards to the functional operator of the same meaning."""
from __future__ import annotations

from typing import Any, Callable

from . import functional as F


class PrimitiveOp:
    """Base of the operator classes (MindSpore's ``ops.Primitive``)."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name or type(self).__name__

    def add_prim_attr(self, name: str, value: Any) -> "PrimitiveOp":
        setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        return f"Prim[{self.name}]"


Primitive = PrimitiveOp


def _op(name: str, fn: Callable) -> type:
    """An operator class without attributes: ``Name()(*inputs)`` is ``fn(*inputs)``."""

    def __call__(self, *args: Any) -> Any:
        return fn(*args)

    return type(name, (PrimitiveOp,), {"__call__": __call__,
                                       "__doc__": f"Operator class for ``{fn.__name__}``."})


Add = _op("Add", F.add)
Sub = _op("Sub", F.sub)
Mul = _op("Mul", F.mul)
Div = _op("Div", F.div)
RealDiv = _op("RealDiv", F.div)
FloorDiv = _op("FloorDiv", F.floor_div)
FloorMod = _op("FloorMod", F.floor_mod)
Neg = _op("Neg", F.neg)
Square = _op("Square", F.square)
Pow = _op("Pow", F.pow)
Sqrt = _op("Sqrt", F.sqrt)
Rsqrt = _op("Rsqrt", F.rsqrt)
Reciprocal = _op("Reciprocal", F.reciprocal)
Exp = _op("Exp", F.exp)
Expm1 = _op("Expm1", F.expm1)
Log = _op("Log", F.log)
Log1p = _op("Log1p", F.log1p)
Sin = _op("Sin", F.sin)
Cos = _op("Cos", F.cos)
Tan = _op("Tan", F.tan)
Asin = _op("Asin", F.asin)
ACos = _op("ACos", F.acos)
Atan = _op("Atan", F.atan)
Atan2 = _op("Atan2", F.atan2)
Sinh = _op("Sinh", F.sinh)
Cosh = _op("Cosh", F.cosh)
Tanh = _op("Tanh", F.tanh)
Asinh = _op("Asinh", F.asinh)
Acosh = _op("Acosh", F.acosh)
Atanh = _op("Atanh", F.atanh)
Abs = _op("Abs", F.abs)
Sign = _op("Sign", F.sign)
Floor = _op("Floor", F.floor)
Ceil = _op("Ceil", F.ceil)
Round = _op("Round", F.round)
Erf = _op("Erf", F.erf)
Erfc = _op("Erfc", F.erfc)
Sigmoid = _op("Sigmoid", F.sigmoid)
ReLU = _op("ReLU", F.relu)
ReLU6 = _op("ReLU6", F.relu6)
Softplus = _op("Softplus", F.softplus)
Maximum = _op("Maximum", F.maximum)
Minimum = _op("Minimum", F.minimum)
Select = _op("Select", F.select)
Equal = _op("Equal", F.equal)
NotEqual = _op("NotEqual", F.not_equal)
Less = _op("Less", F.less)
LessEqual = _op("LessEqual", F.less_equal)
Greater = _op("Greater", F.greater)
GreaterEqual = _op("GreaterEqual", F.greater_equal)
LogicalAnd = _op("LogicalAnd", F.logical_and)
LogicalOr = _op("LogicalOr", F.logical_or)
LogicalNot = _op("LogicalNot", F.logical_not)
IsNan = _op("IsNan", F.isnan)
IsInf = _op("IsInf", F.isinf)
IsFinite = _op("IsFinite", F.isfinite)
ZerosLike = _op("ZerosLike", F.zeros_like)
OnesLike = _op("OnesLike", F.ones_like)
Reshape = _op("Reshape", F.reshape)
Transpose = _op("Transpose", F.transpose)
ExpandDims = _op("ExpandDims", F.expand_dims)
Cast = _op("Cast", F.cast)
Fill = _op("Fill", F.fill)
StopGradient = _op("StopGradient", F.stop_gradient)
Shape = _op("Shape", F.shape)
Rank = _op("Rank", F.rank)
Size = _op("Size", F.size)
Tile = _op("Tile", F.tile)
Gather = _op("Gather", F.gather)


class MatMul(PrimitiveOp):
    """2-D matrix product, optionally transposing either input."""

    def __init__(self, transpose_a: bool = False, transpose_b: bool = False) -> None:
        super().__init__()
        self.transpose_a = transpose_a
        self.transpose_b = transpose_b

    def __call__(self, x: Any, y: Any) -> Any:
        for arg, t in (("x", x), ("y", y)):
            if getattr(t, "ndim", 2) != 2:
                raise ValueError(f"For 'MatMul', the input '{arg}' must be 2-D, but got shape "
                                 f"{list(t.shape)}; use ops.BatchMatMul or ops.matmul for "
                                 f"other ranks.")
        return F.matmul(x, y, self.transpose_a, self.transpose_b)


class BatchMatMul(MatMul):
    """Batched matrix product (batch dimensions broadcast)."""

    def __call__(self, x: Any, y: Any) -> Any:
        return F.matmul(x, y, self.transpose_a, self.transpose_b)


class _Reduce(PrimitiveOp):
    _fn: Callable = staticmethod(F.reduce_sum)

    def __init__(self, keep_dims: bool = False) -> None:
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For '{type(self).__name__}', 'keep_dims' must be bool, but got "
                            f"{type(keep_dims).__name__}.")
        self.keep_dims = keep_dims

    def __call__(self, x: Any, axis: Any = ()) -> Any:
        return type(self)._fn(x, axis, self.keep_dims)


class ReduceSum(_Reduce):
    _fn = staticmethod(F.reduce_sum)


class ReduceMean(_Reduce):
    _fn = staticmethod(F.reduce_mean)


class ReduceMax(_Reduce):
    _fn = staticmethod(F.reduce_max)


class ReduceMin(_Reduce):
    _fn = staticmethod(F.reduce_min)


class ReduceProd(_Reduce):
    _fn = staticmethod(F.reduce_prod)


class Squeeze(PrimitiveOp):
    def __init__(self, axis: Any = ()) -> None:
        super().__init__()
        self.axis = axis

    def __call__(self, x: Any) -> Any:
        return F.squeeze(x, None if self.axis == () else self.axis)


class BroadcastTo(PrimitiveOp):
    def __init__(self, shape: Any) -> None:
        super().__init__()
        self.shape = tuple(shape)

    def __call__(self, x: Any) -> Any:
        return F.broadcast_to(x, self.shape)


class _AxisOp(PrimitiveOp):
    def __init__(self, axis: int = 0) -> None:
        super().__init__()
        self.axis = axis


class Concat(_AxisOp):
    def __call__(self, tensors: Any) -> Any:
        return F.concat(tensors, self.axis)


class Stack(_AxisOp):
    def __call__(self, tensors: Any) -> Any:
        return F.stack(tensors, self.axis)


class Softmax(PrimitiveOp):
    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis[0] if isinstance(axis, (tuple, list)) else axis

    def __call__(self, x: Any) -> Any:
        return F.softmax(x, self.axis)


class LogSoftmax(Softmax):
    def __call__(self, x: Any) -> Any:
        return F.log_softmax(x, self.axis)


class Argmax(PrimitiveOp):
    def __init__(self, axis: int = -1, output_type: Any = None) -> None:
        super().__init__()
        self.axis = axis

    def __call__(self, x: Any) -> Any:
        return F.argmax(x, self.axis)


class Split(PrimitiveOp):
    def __init__(self, axis: int = 0, output_num: int = 1) -> None:
        super().__init__()
        self.axis, self.output_num = axis, output_num

    def __call__(self, x: Any) -> Any:
        n = x.shape[self.axis]
        if n % self.output_num:
            raise ValueError(f"For 'Split', axis {self.axis} of size {n} can not be split "
                             f"into {self.output_num} equal parts.")
        return F.split(x, n // self.output_num, self.axis)


class StridedSlice(PrimitiveOp):
    """``StridedSlice()(x, begin, end, strides)`` (without the mask attributes)."""

    def __call__(self, x: Any, begin: Any, end: Any, strides: Any) -> Any:
        return F.getitem(x, tuple(slice(b, e, s) for b, e, s in zip(begin, end, strides)))


class LeakyReLU(PrimitiveOp):
    def __init__(self, alpha: float = 0.2) -> None:
        super().__init__()
        self.alpha = alpha

    def __call__(self, x: Any) -> Any:
        return F.leaky_relu(x, self.alpha)
