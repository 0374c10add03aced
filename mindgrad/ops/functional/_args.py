"""Argument checking and conversion shared by the functional operators: operands to
Tensors, axes, shapes, flags, MindSpore's dtype rules and scalar promotion, and the makers
of elementwise front ends (``_unary``, ``_binary``) and of composite ones (``_composite``)."""
from __future__ import annotations

import builtins
import functools
import math
from typing import Any, Callable

import numpy as np

from ...common import dtype_rules as _rules
from ...core.tensor import Tensor
from ...core.device import device_of as _device_of, to_device as _to_device
from ...core import device as _device
from ...prims import structural as S


def _operand(x: Any, op: str, arg: str = "x") -> Any:
    """Tensors and Python numbers pass; arrays and lists become Tensors; others fail."""
    if isinstance(x, (Tensor, int, float, bool)):
        return x
    if isinstance(x, (np.ndarray, np.generic, list, tuple)):
        return _converted(x, op, arg)
    raise TypeError(f"For '{op}', '{arg}' must be a Tensor or a number, but got "
                    f"{type(x).__name__}.")


def _strict_tensor(x: Any, op: str, arg: str = "x") -> Tensor:
    """``_tensor`` for an argument MindSpore takes only as a Tensor (or array data): a
    Python number is refused, since ``Tensor(-3)`` is Int64 and would make a float32
    result float64."""
    if isinstance(x, (bool, int, float, complex)):
        raise TypeError(f"For '{op}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return _tensor(x, op, arg)


def _tensor(x: Any, op: str, arg: str = "x") -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (np.ndarray, np.generic, list, tuple, int, float, bool)):
        return _converted(x, op, arg)
    raise TypeError(f"For '{op}', '{arg}' must be a Tensor, but got {type(x).__name__}.")


def _near(t: Any, ref: Any) -> Any:
    """``t``, just made from Python or NumPy data, on the device of the tensor ``ref`` it
    meets (data goes with the tensor, wherever ``device_target`` puts new tensors). Only
    once CuPy is in use; before, every array is a NumPy one."""
    if _device.mixed and isinstance(ref, Tensor) and isinstance(t, Tensor):
        want = _device_of(ref._data)
        if _device_of(t._data) != want:
            return Tensor._wrap(_to_device(t._data, want, "Tensor"))
    return t


def _converted(x: Any, op: str, arg: str) -> Tensor:
    """A NumPy array or (nested) list as a Tensor; a ragged list or one of strings or other
    objects is refused naming the op and argument."""
    try:
        t = Tensor(x)
    except (TypeError, ValueError) as e:
        raise TypeError(f"For '{op}', '{arg}' must be a Tensor or a rectangular list of "
                        f"numbers, but got a {type(x).__name__} that does not convert: "
                        f"{e}") from None
    if t._data.dtype.kind not in "biufc":
        raise TypeError(f"For '{op}', '{arg}' must hold numbers or bools, but got a "
                        f"{type(x).__name__} of dtype {t._data.dtype}.")
    return t


def _scalar_rank(v: Any) -> int:
    """How wide a Python number's kind is: bool < int < float."""
    return 0 if isinstance(v, bool) else 1 if isinstance(v, int) else 2


def _binary(prim, name: str, promote: bool = False):
    """The front-end of a binary primitive; ``promote``: arithmetic, with MindSpore's weak
    float scalars (``promote_scalar``). An op with a dtype rule (``dtype_rules``) applies it
    to each tensor operand."""
    rule = _rules.RULES.get(name)
    accept = "" if rule is None else rule.accept
    bool_result = name in _rules.BOOL_RESULT

    def op(x: Any, y: Any) -> Tensor:
        xt, yt = isinstance(x, Tensor), isinstance(y, Tensor)
        x, y = _operand(x, name, "x"), _operand(y, name, "y")
        if xt != yt:  # an array or list converted: it goes with the tensor
            x, y = (x, _near(y, x)) if xt else (_near(x, y), y)
        if promote and not isinstance(x, Tensor) and not isinstance(y, Tensor):
            # two Python numbers: as in MindSpore, the result has the dtype Tensor() gives
            # the wider one (float32 with a float, int64 with ints), not NumPy's float64;
            # the other stays a weak scalar
            if _scalar_rank(x) >= _scalar_rank(y):
                x = Tensor(x)
            else:
                y = Tensor(y)
        if promote:
            x, y = promote_scalar(x, y)
        if accept:
            if isinstance(x, Tensor) and x._data.dtype.kind not in accept:
                x = _in_dtype(x, name, "x")
            if isinstance(y, Tensor) and y._data.dtype.kind not in accept:
                y = _in_dtype(y, name, "y")
        if bool_result and S.dtype_of(x).kind == "b" and S.dtype_of(y).kind == "b":
            return S.cast(prim(x, y), dtype=np.dtype(np.bool_))
        return prim(x, y)

    _name_front_end(op, name)
    op.__doc__ = f"Elementwise {prim.name} with broadcasting."
    return op


def promote_scalar(x: Any, y: Any) -> tuple:
    """MindSpore's scalars are weakly typed: a float one (a NumPy float64 scalar too) takes
    the tensor's float dtype, and an integer or bool tensor meeting one becomes float32
    (NumPy would give float64); a bool tensor meeting a Python int becomes int64. Integer
    tensors divided by integers give float32 (``div``'s rule in ``dtype_rules``). An integer
    or bool tensor meeting a float tensor takes the float tensor's dtype."""
    if isinstance(y, float):
        if isinstance(x, Tensor):
            return _float_tensor(x), float(y)
    elif isinstance(x, float):
        if isinstance(y, Tensor):
            return float(x), _float_tensor(y)
    elif type(y) is int and isinstance(x, Tensor):
        return _int_from_bool(x), y
    elif type(x) is int and isinstance(y, Tensor):
        return x, _int_from_bool(y)
    elif isinstance(x, Tensor) and isinstance(y, Tensor):
        # an integer or bool tensor meeting a float tensor takes its dtype (MindSpore:
        # float32 * int64 is float32, float16 + int32 float16; NumPy would widen)
        kx, ky = x._data.dtype.kind, y._data.dtype.kind
        if kx == "f" and ky in "iub":
            return x, S.cast(y, dtype=x._data.dtype)
        if ky == "f" and kx in "iub":
            return S.cast(x, dtype=y._data.dtype), y
    return x, y


def _float_tensor(t: Tensor) -> Tensor:
    return S.cast(t, dtype=np.dtype(np.float32)) if t._data.dtype.kind in "biu" else t


def _int_from_bool(t: Tensor) -> Tensor:
    return S.cast(t, dtype=_rules.BOOL_WITH_INT) if t._data.dtype.kind == "b" else t


def _in_dtype(x: Tensor, op: str, arg: str = "input", shown: str | None = None) -> Tensor:
    """``x`` in the dtype ``op`` computes it in (``dtype_rules``): unchanged, converted to
    float32, or refused with a TypeError naming the op (``shown``: the name it was called
    by, when the rule is another's) and the dtype."""
    to = _rules.input_dtype(op, S.dtype_of(x), arg, shown)
    return x if to is None else S.cast(x, dtype=to)


def _in_dtype_of(x: Any, op: str, arg: str, rule: Any) -> Any:
    """``_in_dtype`` for an operand that may be a Python number (left as it is)."""
    if isinstance(x, Tensor) and x._data.dtype.kind not in rule.accept:
        return _in_dtype(x, op, arg)
    return x


def _composite(fn: Callable | None = None, *, name: str | None = None) -> Callable:
    """For an operator built from others (mish from softplus, tanh and mul): an argument
    error raised by one of those, which names only it (``For 'Softplus', ...``), is raised
    again naming the operator the user called first (``name``, or the function's)."""
    if fn is None:
        return lambda f: _composite(f, name=name)
    name = name or fn.__name__

    @functools.wraps(fn)
    def op(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError, IndexError) as e:
            msg = str(e)
            if type(e) not in (TypeError, ValueError, IndexError) or f"'{name}'" in msg \
                    or msg.startswith(f"{name}()"):
                raise
            raise type(e)(f"For '{name}', {msg[:1].lower()}{msg[1:]}") from e

    return op


def _name_front_end(op: Callable, name: str) -> None:
    """Give a generated front end the MindSpore function's name. Python's own argument
    errors use ``__qualname__`` (``sin() got an unexpected keyword argument 'foo'``), and
    tracebacks and ``repr`` the name, so both are set."""
    op.__name__ = op.__qualname__ = name


def _unary(prim, name: str):
    rule = _rules.RULES.get(name)
    if rule is None:
        def op(x: Any) -> Tensor:
            return prim(_tensor(x, name))
    else:
        accept = rule.accept

        def op(x: Any) -> Tensor:
            x = _tensor(x, name)
            # the common case (a dtype the op takes as it is) costs one attribute test
            return prim(x if x._data.dtype.kind in accept else _in_dtype(x, name))

    _name_front_end(op, name)
    op.__doc__ = f"Elementwise {prim.name}."
    return op


def _float_param(v: Any, op: str, arg: str) -> float:
    """A number parameter of an op (not a tensor operand) as a float."""
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"For '{op}', '{arg}' must be a number, but got {type(v).__name__}.")
    if not math.isfinite(v):
        raise ValueError(f"For '{op}', '{arg}' must be finite, but got {v}.")
    return float(v)


def _is_int(v: Any) -> bool:
    """A Python or NumPy int, not a bool."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _flag(v: Any, op: str, arg: str) -> bool:
    """A bool argument (keep_dims, transpose_a, ...): MindSpore refuses any other type, and
    so does this (a truthy list or number would silently change the result)."""
    if not isinstance(v, (bool, np.bool_)):
        raise TypeError(f"For '{op}', '{arg}' must be a bool, but got {type(v).__name__}.")
    return bool(v)


def _broadcast_shapes(op: str, *named: tuple) -> tuple:
    """The broadcast shape of ``(name, tensor)`` pairs, or a ValueError naming the op."""
    try:
        return np.broadcast_shapes(*(t.shape for _, t in named))
    except ValueError:
        shapes = ", ".join(f"'{n}' {list(t.shape)}" for n, t in named)
        raise ValueError(f"For '{op}', the shapes of {shapes} can not broadcast.") from None


def _check_bounds(op: str, x: Tensor, *bounds: tuple) -> None:
    """Clipping bounds ``(name, value)``: None, a number, or a Tensor that broadcasts
    against ``x``. A NaN bound is refused: NumPy's clip gives NaN everywhere, MindSpore's
    the other bound, and neither is what a caller meant."""
    dt = S.dtype_of(x)
    for arg, v in bounds:
        if isinstance(v, float) and math.isnan(v):
            raise ValueError(f"For '{op}', '{arg}' must not be NaN.")
        if type(v) is int and dt.kind in "iu" and not np.iinfo(dt).min <= v <= np.iinfo(dt).max:
            # it would wrap around in the tensor's dtype
            raise ValueError(f"For '{op}', '{arg}' {v} is out of the range of 'x''s dtype "
                             f"{x.dtype}.")
        if v is None or _number(v):
            continue
        if not isinstance(v, Tensor):
            raise TypeError(f"For '{op}', '{arg}' must be a number, a Tensor or None, but got "
                            f"{type(v).__name__}.")
        _broadcast_shapes(op, ("x", x), (arg, v))


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _int_scalar(v: Any) -> bool:
    """A one-element integer Tensor, which may stand for a dimension."""
    return isinstance(v, Tensor) and v.size == 1 and v._data.dtype.kind in "iu"


def _shape_arg(shape: Any, op: str, arg: str = "shape") -> tuple:
    """A shape given as an int, a tuple or list of ints, or an integer Tensor; a float
    (``(2.5, 2)``) is a TypeError, as in MindSpore, not truncated."""
    if _is_int(shape):
        return (int(shape),)
    if isinstance(shape, Tensor):
        if shape._data.dtype.kind not in "iu" or shape.ndim > 1:
            raise TypeError(f"For '{op}', '{arg}' must be a 0-D or 1-D integer Tensor, but got "
                            f"{shape.dtype} of shape {list(shape.shape)}.")
        return tuple(int(v) for v in shape.asnumpy().reshape(-1))
    if isinstance(shape, (tuple, list)) and builtins.all(_is_int(d) or _int_scalar(d)
                                                         for d in shape):
        return tuple(int(d) for d in shape)
    raise TypeError(f"For '{op}', '{arg}' must be an int or a tuple of ints, but got "
                    f"{shape!r}.")


_MAX_BYTES = 2 ** 40  # 1 TiB: more than any one array here can be


def _sizes(shape: tuple, op: str, arg: str = "shape", itemsize: int = 8) -> tuple:
    """A shape of a new tensor: no negative sizes, and no absurd size (a clear error naming
    the op, rather than a MemoryError from deep inside NumPy)."""
    if builtins.any(d < 0 for d in shape):
        raise ValueError(f"For '{op}', each size in '{arg}' must be >= 0, but got {shape}.")
    if math.prod(shape) * itemsize > _MAX_BYTES:
        raise ValueError(f"For '{op}', '{arg}' {shape} asks for {math.prod(shape)} "
                         f"elements, more than can be allocated.")
    return shape


def _scalar_value(v: Any, op: str, arg: str) -> Any:
    """A fill value: a number, a bool or a one-element Tensor."""
    if isinstance(v, Tensor) and v.size == 1:
        return v.asnumpy().reshape(()).item()
    if isinstance(v, (bool, int, float, complex, np.generic)):
        return v
    raise TypeError(f"For '{op}', '{arg}' must be a number, a bool or a one-element Tensor, "
                    f"but got {type(v).__name__}.")


def _axis(axis: int, ndim: int, op: str, arg: str = "axis") -> int:
    """One axis of a tensor of rank ``ndim``, normalized to ``[0, ndim)``. A 0-d tensor
    takes 0 and -1 (as MindSpore's reductions do) and gives 0."""
    if not _is_int(axis):
        raise TypeError(f"For '{op}', '{arg}' must be an int, but got {type(axis).__name__}.")
    n = builtins.max(ndim, 1)
    if not -n <= axis < n:
        raise ValueError(f"For '{op}', '{arg}' must be in range [{-n}, {n}), but got {axis} "
                         f"(out of range for a tensor of rank {ndim}).")
    return int(axis) % n


def _axis_given(axis: Any, op: str) -> None:
    """For the ops that normalize along axes (softmax): None or () would mean every axis
    to a reduction, but here name no axis; MindSpore refuses them."""
    if axis is None or isinstance(axis, (tuple, list)) and not axis:
        raise ValueError(f"For '{op}', 'axis' must be an int or a non-empty tuple of ints, "
                         f"but got {axis!r}.")


def _axes(axis: Any, ndim: int, op: str) -> tuple | None:
    """Normalize a reduction axis spec: None or () means all axes. A 0-d tensor has only
    itself to reduce: its axes 0 and -1 are all of it (None)."""
    if axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0):
        return None
    if ndim == 0:
        for a in (axis if isinstance(axis, (tuple, list)) else (axis,)):
            _axis(a, 0, op)
        return None
    if isinstance(axis, (tuple, list)):
        axes = [_axis(a, ndim, op) for a in axis]
        out = tuple(sorted(set(axes)))
        if len(out) != len(axes):
            dup = next(a for a in out if axes.count(a) > 1)
            raise ValueError(f"For '{op}', 'axis' must not repeat an axis, but got "
                             f"{tuple(axis)}: axis {dup} of a tensor of rank {ndim} appears "
                             f"{axes.count(dup)} times.")
    else:
        out = (_axis(axis, ndim, op),)
    return out


def _int_tensor(x: Any, op: str, arg: str) -> Tensor:
    t = _tensor(x, op, arg)
    if t.dtype.np_dtype.kind not in "iu":
        raise TypeError(f"For '{op}', '{arg}' must be an integer Tensor, but got {t.dtype}.")
    return t


def _public_names(namespace: dict) -> list:
    """The names a module of mindgrad.ops offers users (its ``__all__``): those it defines
    or re-exports from mindgrad, without private names, the modules it imports (np, math,
    the primitive modules A, C, S, ...) or typing helpers."""
    return sorted(n for n, v in namespace.items() if not n.startswith("_")
                  and getattr(v, "__module__", "").startswith("mindgrad."))
