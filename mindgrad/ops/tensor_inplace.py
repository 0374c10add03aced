"""The in-place Tensor methods (``x.add_(y)``, ``x.copy_(src)``, ``x.assign_value(v)``, ...).

Arrays are never written in place (``core/mutation.py``): each method computes the updated
value with differentiable operations, casts it to the tensor's dtype and makes the tensor
refer to it with ``_become``, the step ``x[i] = v`` takes. So the uses of the tensor recorded
before the change keep their gradients, a tensor that grad, vmap or jvp traces follows the
new value, and a GRAPH-mode trace records the assignment. Each returns the tensor itself.

MindSpore 2.10's CPU build computes these methods' results but (except ``copy_`` and
``assign_value``) leaves the tensor unchanged; mindgrad follows MindSpore's documented
behaviour (the tensor takes the result), which its other devices implement."""
from __future__ import annotations

from typing import Any

from ..core.tensor import Tensor
from ..prims import structural as S
from . import functional as F
from . import math_functions as MF


def _tensor(x: Any, op: str, name: str = "self") -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'Tensor.{op}', '{name}' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    return x


def _update(self: Tensor, new: Tensor, op: str) -> Tensor:
    """Make ``self`` hold ``new`` (cast to ``self``'s dtype) and return ``self``. ``new``
    must keep ``self``'s shape: an in-place operation cannot broadcast the tensor itself."""
    if tuple(new.shape) != tuple(self.shape):
        raise ValueError(f"For 'Tensor.{op}', the result has shape {list(new.shape)}, but the "
                         f"tensor updated in place has shape {list(self.shape)}: the other "
                         f"operand must broadcast to the tensor's shape.")
    if new.dtype != self.dtype:
        new = F.cast(new, self.dtype)
    self._become(new)
    return self


def _scaled(other: Any, alpha: Any) -> Any:
    return other if isinstance(alpha, (int, float)) and not isinstance(alpha, bool) \
        and alpha == 1 else F.mul(other, alpha)


def add_(self, other: Any, *, alpha: Any = 1) -> Tensor:
    """``self += alpha * other`` in place; returns ``self``."""
    return _update(self, F.add(self, _scaled(other, alpha)), "add_")


def sub_(self, other: Any, *, alpha: Any = 1) -> Tensor:
    """``self -= alpha * other`` in place; returns ``self``."""
    return _update(self, F.sub(self, _scaled(other, alpha)), "sub_")


def mul_(self, other: Any) -> Tensor:
    """``self *= other`` in place; returns ``self``."""
    return _update(self, F.mul(self, other), "mul_")


def div_(self, other: Any, *, rounding_mode: Any = None) -> Tensor:
    """``self /= other`` in place (``rounding_mode`` None, 'floor' or 'trunc', as
    ``Tensor.div``); returns ``self``."""
    return _update(self, _div(self, other, rounding_mode, "div_"), "div_")


def _div(x: Tensor, other: Any, rounding_mode: Any, op: str) -> Tensor:
    if rounding_mode is None:
        return F.div(x, other)
    if rounding_mode == "floor":
        return F.floor_div(x, other)
    if rounding_mode == "trunc":
        return MF.trunc(F.div(x, other))
    raise ValueError(f"For 'Tensor.{op}', 'rounding_mode' must be None, 'floor' or 'trunc', "
                     f"but got {rounding_mode!r}.")


def div(self, other: Any, *, rounding_mode: Any = None) -> Tensor:
    """``self / other``; ``rounding_mode`` 'floor' rounds the quotient down, 'trunc'
    toward zero."""
    return _div(self, other, rounding_mode, "div")


def floor_divide_(self, other: Any) -> Tensor:
    """``self //= other`` in place; returns ``self``."""
    return _update(self, F.floor_div(self, other), "floor_divide_")


def remainder_(self, other: Any) -> Tensor:
    """``self %= other`` in place (the sign of ``other``, as ``remainder``); returns
    ``self``."""
    return _update(self, F.floor_mod(self, other), "remainder_")


def exp_(self) -> Tensor:
    """``self = exp(self)`` in place; returns ``self``."""
    return _update(self, F.exp(self), "exp_")


def _copy_of(self: Tensor, src: Any, op: str) -> Tensor:
    """``src`` as a new value of ``self``'s shape and dtype (a value of its own, so that
    ``self`` and ``src`` stay two tensors)."""
    src = _tensor(src, op, "src") if not isinstance(src, (int, float, bool)) else \
        Tensor(src, self.dtype)
    if src.dtype != self.dtype:
        src = F.cast(src, self.dtype)
    try:
        new = F.broadcast_to(src, self.shape) if tuple(src.shape) != tuple(self.shape) \
            else src
    except ValueError:
        raise ValueError(f"For 'Tensor.{op}', the source of shape {list(src.shape)} can not "
                         f"be broadcast to the tensor's shape {list(self.shape)}.") from None
    return S.reshape(new, shape=tuple(self.shape)) if new is src else new


def copy_(self, src: Any, non_blocking: bool = False) -> Tensor:
    """Copy ``src`` (broadcast to this tensor's shape, cast to its dtype) into this tensor;
    returns it. The gradient flows to ``src``; this tensor's old value gets none.
    ``non_blocking`` has no effect (copies are synchronous)."""
    return _update(self, _copy_of(self, src, "copy_"), "copy_")


def assign_value(self, value: Any) -> Tensor:
    """Make this tensor hold ``value`` (of the same shape; cast to this tensor's dtype) and
    return it."""
    value = _tensor(value, "assign_value", "value")
    if tuple(value.shape) != tuple(self.shape):
        raise ValueError(f"For 'Tensor.assign_value', the value of shape {list(value.shape)} "
                         f"does not match the tensor's shape {list(self.shape)}.")
    return _update(self, _copy_of(self, value, "assign_value"), "assign_value")


# name -> method, put on Tensor by ``tensor_methods.install`` (Parameter keeps its own
# ``assign_value``, which is ``set_data``)
METHODS = {"add_": add_, "sub_": sub_, "mul_": mul_, "div_": div_, "div": div,
           "floor_divide_": floor_divide_, "remainder_": remainder_, "exp_": exp_,
           "copy_": copy_, "assign_value": assign_value}

__all__: list = []
