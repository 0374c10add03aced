"""MindSpore's operator classes (``ops.MatMul()``, ``ops.Sin()``, ...): configured once,
then called like functions. Each forwards to the functional operator of the same meaning:
the classes that do nothing else are made from the rows of the name table (``names.py``),
the others are written here."""
from __future__ import annotations

import inspect
from typing import Any, Callable

from ...core import dtype as mstype
from .. import families, names, nn_functions
from .. import functional as F
from ..hooks import HookBackward, InsertGradientOf  # noqa: F401  (MindSpore's P.HookBackward)
from ..debug_ops import (HistogramSummary, ImageSummary, Print, ScalarSummary,  # noqa: F401
                         TensorDump, TensorSummary)
from ..primitive import Primitive, PrimitiveWithCheck, PrimitiveWithInfer  # noqa: F401

PrimitiveOp = Primitive


def _op(name: str, fn: Callable, attrs: tuple = ()) -> type:
    """An operator class: ``Name(*attrs)(*inputs)`` is ``fn(*inputs, **attrs)``, where
    ``attrs`` are the constructor's ``(name, default)`` pairs, kept on the instance."""
    doc = f"Operator class for ``{fn.__name__}``."
    if not attrs:
        def __call__(self, *args: Any) -> Any:
            return fn(*args)

        # argument errors then name the class (``Sin.__call__() got an unexpected keyword ...``)
        __call__.__qualname__ = f"{name}.__call__"
        return type(name, (PrimitiveOp,), {"__call__": __call__, "__doc__": doc})
    keys = tuple(k for k, _ in attrs)
    sig = inspect.Signature([inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
                            + [inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                 default=v) for k, v in attrs])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        try:
            bound = sig.bind(self, *args, **kwargs)
        except TypeError as e:
            raise TypeError(f"For '{name}', {e}.") from None
        PrimitiveOp.__init__(self)
        bound.apply_defaults()
        for k in keys:
            setattr(self, k, bound.arguments[k])

    def __call__(self, *args: Any) -> Any:
        return fn(*args, **{k: getattr(self, k) for k in keys})

    __init__.__signature__ = sig
    __init__.__qualname__ = f"{name}.__init__"
    __call__.__qualname__ = f"{name}.__call__"
    return type(name, (PrimitiveOp,), {"__init__": __init__, "__call__": __call__,
                                       "__doc__": doc})


def _define(row: names.Row) -> None:
    # the operator classes of a row of the name table
    for cls_name in row.op:
        globals()[cls_name] = _op(cls_name, families.function(row.name), row.attrs)
        if "__all__" in globals() and cls_name not in __all__:
            __all__.append(cls_name)


# Add, Sub, ..., Sin, ..., Reshape, Gather, ...: the operator classes of the name table
names.each_row(_define)


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
        empty = isinstance(self.axis, (tuple, list)) and not self.axis
        return F.squeeze(x, None if empty else self.axis)


class BroadcastTo(PrimitiveOp):
    def __init__(self, shape: Any) -> None:
        super().__init__()
        self.shape = F._shape_arg(shape, "BroadcastTo")

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
        # MindSpore's Softmax takes an int or a tuple of them; one axis in a tuple is that axis
        self.axis = axis[0] if isinstance(axis, (tuple, list)) and len(axis) == 1 else axis

    def __call__(self, x: Any) -> Any:
        return F.softmax(x, self.axis)


class LogSoftmax(Softmax):
    def __call__(self, x: Any) -> Any:
        return F.log_softmax(x, self.axis)


class Argmax(PrimitiveOp):
    """Indices of the maxima along ``axis`` as ``output_type``: Int32 (the default, as in
    MindSpore) or Int64. (The function ``ops.argmax`` gives Int64.)"""
    _fn: Callable = staticmethod(F.argmax)

    def __init__(self, axis: int = -1, output_type: Any = mstype.int32) -> None:
        super().__init__()
        name = type(self).__name__
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For '{name}', 'axis' must be an int, but got "
                            f"{type(axis).__name__}.")
        if output_type not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{name}', 'output_type' must be mindspore.int32 or "
                            f"mindspore.int64, but got {output_type}.")
        self.axis, self.output_type = axis, output_type

    def __call__(self, x: Any) -> Any:
        return F.cast(self._fn(x, self.axis), self.output_type)


class Argmin(Argmax):
    """Indices of the minima along ``axis`` as ``output_type`` (Int32 by default)."""
    _fn: Callable = staticmethod(F.argmin)


class ArgMaxWithValue(PrimitiveOp):
    """``(indices, values)`` of the maxima along ``axis``: note the order, indices first
    (``ops.max`` gives values first). The gradient goes to the first maximum."""
    _fn: Callable = staticmethod(F.max)

    def __init__(self, axis: int = 0, keep_dims: bool = False) -> None:
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def __call__(self, x: Any) -> Any:
        values, index = self._fn(x, self.axis, self.keep_dims)
        return index, values


class ArgMinWithValue(ArgMaxWithValue):
    """``(indices, values)`` of the minima along ``axis``."""
    _fn: Callable = staticmethod(F.min)


class Split(PrimitiveOp):
    def __init__(self, axis: int = 0, output_num: int = 1) -> None:
        super().__init__()
        self.axis, self.output_num = axis, output_num

    def __call__(self, x: Any) -> Any:
        x = F._tensor(x, "Split")
        if x.ndim == 0:
            raise ValueError("For 'Split', 'x' must have rank >= 1, but got a 0-D Tensor.")
        n = x.shape[F._axis(self.axis, x.ndim, "Split")]
        if not F._is_int(self.output_num) or self.output_num < 1:
            raise ValueError(f"For 'Split', 'output_num' must be a positive int, but got "
                             f"{self.output_num!r}.")
        if n % self.output_num:
            raise ValueError(f"For 'Split', axis {self.axis} of size {n} can not be split "
                             f"into {self.output_num} equal parts.")
        return F.split(x, n // self.output_num, self.axis)


class GeLU(PrimitiveOp):
    """``GeLU()(x)``: MindSpore's kernel computes the tanh approximation of
    ``x * P(X <= x)`` (its documented example prints 0.841192 for x = 1), and so does
    this one."""

    def __call__(self, x: Any) -> Any:
        return F.gelu(x, "tanh")


class Elu(PrimitiveOp):
    """``Elu(alpha=1.0)(x)``: x where x > 0, alpha * (e^x - 1) elsewhere."""

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
            raise TypeError(f"For 'Elu', 'alpha' must be a float, but got "
                            f"{type(alpha).__name__}.")
        self.alpha = float(alpha)

    def __call__(self, x: Any) -> Any:
        return F.elu(x, self.alpha)


# --- products, indexing, linear algebra, convolution and pooling -------------------------------
class CumProd(PrimitiveOp):
    """``CumProd(exclusive=False, reverse=False)(x, axis)``: running products."""

    def __init__(self, exclusive: bool = False, reverse: bool = False) -> None:
        super().__init__()
        self.exclusive = F._flag(exclusive, type(self).__name__, "exclusive")
        self.reverse = F._flag(reverse, type(self).__name__, "reverse")

    def __call__(self, x: Any, axis: int) -> Any:
        return F._cumprod_ext(x, axis, self.exclusive, self.reverse)


class CumSum(PrimitiveOp):
    """``CumSum(exclusive=False, reverse=False)(x, axis)``: running sums; exclusive ones
    start from 0, reverse ones run from the end."""

    def __init__(self, exclusive: bool = False, reverse: bool = False) -> None:
        super().__init__()
        for arg, v in (("exclusive", exclusive), ("reverse", reverse)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'CumSum', '{arg}' must be bool, but got "
                                f"{type(v).__name__}.")
        self.exclusive, self.reverse = exclusive, reverse

    def __call__(self, x: Any, axis: int) -> Any:
        return F._cumsum_ext(x, axis, self.exclusive, self.reverse)


class ReverseV2(PrimitiveOp):
    """``ReverseV2(axis)(x)``: ``x`` reversed along every axis in the list ``axis``."""

    def __init__(self, axis: Any) -> None:
        super().__init__()
        if not isinstance(axis, (tuple, list)) or not all(
                isinstance(a, int) and not isinstance(a, bool) for a in axis):
            raise TypeError(f"For 'ReverseV2', 'axis' must be a list or tuple of ints, but "
                            f"got {axis!r}.")
        if len(set(axis)) != len(axis):
            raise ValueError(f"For 'ReverseV2', 'axis' has repeated entries: {axis!r}.")
        self.axis = tuple(axis)

    def __call__(self, x: Any) -> Any:
        if not self.axis:
            return x
        ndim = getattr(x, "ndim", None)
        if ndim is not None and len({a % max(ndim, 1) for a in self.axis}) != len(self.axis):
            raise ValueError(f"For 'ReverseV2', 'axis' {self.axis} names one axis twice for "
                             f"an input of rank {ndim}.")
        return F.flip(x, self.axis)


class Pad(PrimitiveOp):
    """``Pad(paddings)(x)`` with one ``(before, after)`` pair per axis, filled with zeros."""

    def __init__(self, paddings: Any) -> None:
        super().__init__()
        if not isinstance(paddings, (tuple, list)) or not all(
                isinstance(p, (tuple, list)) and len(p) == 2 for p in paddings):
            raise TypeError(f"For 'Pad', 'paddings' must be a tuple of (before, after) pairs, "
                            f"but got {paddings!r}.")
        self.paddings = tuple(tuple(int(v) for v in p) for p in paddings)

    def __call__(self, x: Any) -> Any:
        if len(self.paddings) != getattr(x, "ndim", -1):
            raise ValueError(f"For 'Pad', 'paddings' has {len(self.paddings)} pairs but the "
                             f"input has rank {getattr(x, 'ndim', None)}.")
        flat = tuple(v for p in reversed(self.paddings) for v in p)
        return F.pad(x, flat)


class ScatterAdd(PrimitiveOp):
    """``ScatterAdd()(input_x, indices, updates)``: adds rows; a Parameter is updated."""

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = use_locking

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> Any:
        return F.scatter_add(input_x, indices, updates)


class OneHot(PrimitiveOp):
    """``OneHot(axis=-1)(indices, depth, on_value, off_value)``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def __call__(self, indices: Any, depth: int, on_value: Any, off_value: Any) -> Any:
        return F.one_hot(indices, depth, on_value, off_value, self.axis)


class Einsum(PrimitiveOp):
    """``Einsum(equation)(inputs)`` where ``inputs`` is a tuple of tensors."""

    def __init__(self, equation: str) -> None:
        super().__init__()
        if not isinstance(equation, str):
            raise TypeError(f"For 'Einsum', 'equation' must be a str, but got "
                            f"{type(equation).__name__}.")
        self.equation = equation

    def __call__(self, inputs: Any) -> Any:
        if not isinstance(inputs, (tuple, list)):
            inputs = (inputs,)
        return F.einsum(self.equation, *inputs)


class MatrixInverse(PrimitiveOp):
    """``MatrixInverse(adjoint=False)(x)``; with ``adjoint`` the inverse of the transpose."""

    def __init__(self, adjoint: bool = False) -> None:
        super().__init__()
        self.adjoint = F._flag(adjoint, "MatrixInverse", "adjoint")

    def __call__(self, x: Any) -> Any:
        out = F.inverse(x)
        return F.swapaxes(out, -1, -2) if self.adjoint else out


class Cholesky(PrimitiveOp):
    """``Cholesky(upper=False)(x)``."""

    def __init__(self, upper: bool = False) -> None:
        super().__init__()
        self.upper = F._flag(upper, "Cholesky", "upper")

    def __call__(self, x: Any) -> Any:
        return F.cholesky(x, self.upper)


def _check_format(op: str, data_format: str) -> None:
    if data_format != "NCHW":
        raise ValueError(f"For '{op}', only data_format 'NCHW' is supported, but got "
                         f"{data_format!r}.")


class Conv2D(PrimitiveOp):
    """``Conv2D(out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1,
    dilation=1, group=1, data_format='NCHW')(x, weight)``."""

    def __init__(self, out_channel: int, kernel_size: Any, mode: int = 1,
                 pad_mode: str = "valid", pad: Any = 0, stride: Any = 1, dilation: Any = 1,
                 group: int = 1, data_format: str = "NCHW") -> None:
        super().__init__()
        _check_format("Conv2D", data_format)
        self.out_channel = out_channel
        self.kernel_size = F._int_pair(kernel_size, "Conv2D", "kernel_size")
        self.pad_mode, self.pad, self.stride = pad_mode, pad, stride
        self.dilation, self.group = dilation, group

    def __call__(self, x: Any, weight: Any) -> Any:
        shape = tuple(getattr(weight, "shape", ()))
        if len(shape) == 4 and (shape[0] != self.out_channel or shape[2:] != self.kernel_size):
            raise ValueError(f"For 'Conv2D', the weight of shape {list(shape)} does not match "
                             f"out_channel={self.out_channel} and kernel_size="
                             f"{self.kernel_size}.")
        return F.conv2d(x, weight, None, self.stride, self.pad_mode, self.pad, self.dilation,
                        self.group)


class _Pool(PrimitiveOp):
    _kind = "max"

    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid",
                 data_format: str = "NCHW") -> None:
        super().__init__()
        _check_format(type(self).__name__, data_format)
        mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
        if mode not in ("same", "valid"):
            raise ValueError(f"For '{type(self).__name__}', 'pad_mode' must be 'same' or "
                             f"'valid', but got {pad_mode!r}.")
        self.kernel_size, self.strides, self.pad_mode = kernel_size, strides, mode

    def __call__(self, x: Any) -> Any:
        if self.pad_mode == "same":
            return F._pool2d_same(x, self.kernel_size, self.strides, self._kind,
                                 type(self).__name__)
        if self._kind == "max":
            return F.max_pool2d(x, self.kernel_size, self.strides)
        return F.avg_pool2d(x, self.kernel_size, self.strides)


class MaxPool(_Pool):
    """``MaxPool(kernel_size=1, strides=1, pad_mode='valid')(x)`` over NCHW."""

    _kind = "max"


class AvgPool(_Pool):
    """``AvgPool(kernel_size=1, strides=1, pad_mode='valid')(x)`` over NCHW."""

    _kind = "avg"


from .comm_ops import (AllGather, AllReduce, AlltoAll, Broadcast,  # noqa: E402
                       CollectiveGather, CollectiveScatter, ReduceOp, ReduceScatter)
from .catalogue_ops import *  # noqa: E402,F401,F403  (scatters, row updates, statistics, draws)

class BatchNorm(PrimitiveOp):
    """``BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW")``
    called with ``(x, scale, bias, mean, variance)``: the 5-tuple of MindSpore's CPU
    kernel, ``(y, 0, 0, batch_mean, batch_variance)`` (the last two zeros when not
    training). Training moves the ``mean`` / ``variance`` Parameters towards the batch's
    statistics (``momentum`` is the weight of the batch)."""

    def __init__(self, is_training: bool = False, epsilon: float = 1e-5, momentum: float = 0.1,
                 data_format: str = "NCHW") -> None:
        super().__init__()
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For 'BatchNorm', 'data_format' must be 'NCHW' or 'NHWC', but "
                             f"got {data_format!r}.")
        self.is_training, self.epsilon = bool(is_training), float(epsilon)
        self.momentum, self.data_format = float(momentum), data_format

    def __call__(self, x: Any, scale: Any, bias: Any, mean: Any, variance: Any) -> tuple:
        x = F._tensor(x, "BatchNorm", "input_x")
        ch = x.ndim - 1 if self.data_format == "NHWC" else 1
        y, bm, bv = nn_functions.batch_norm_stats(x, mean, variance, self.is_training,
                                                  self.momentum, self.epsilon, ch, "BatchNorm")
        shape = tuple(-1 if a == ch else 1 for a in range(x.ndim))
        y = F.add(F.mul(y, F.reshape(scale, shape)), F.reshape(bias, shape))
        zeros = F.zeros_like(F.stop_gradient(bm))
        return y, zeros, zeros, F.stop_gradient(bm), F.stop_gradient(bv)


# primclasses family: optimizer updates, layer classes, array/math/random classes
from .optimizer_ops import *  # noqa: E402,F401,F403
from .layer_ops import *  # noqa: E402,F401,F403
from .math_class_ops import *  # noqa: E402,F401,F403
from .array_class_ops import *  # noqa: E402,F401,F403
from .random_class_ops import *  # noqa: E402,F401,F403
from .vision_class_ops import *  # noqa: E402,F401,F403
from .utility_class_ops import *  # noqa: E402,F401,F403
from .sparse_optimizer_ops import *  # noqa: E402,F401,F403
# primclasses2: sampling, cropping, CTC decoding and fixed-size fractional pooling classes
from .sampling_class_ops import *  # noqa: E402,F401,F403

__all__ = F._public_names(globals())
