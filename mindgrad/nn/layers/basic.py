"""Basic layers: Dense, Flatten, Dropout, Identity, MatMul."""
from __future__ import annotations

import math
from typing import Any

from ...core import dtype as mstype
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...core.tensor import Tensor
from ...ops import functional as F
from ...prims import structural as S
from ...prims.random import dropout_mask
from ..cell import Cell
from .activation import get_activation


def check_positive_int(value: Any, name: str, cls: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{cls}', '{name}' must be a positive int, but got {value!r}.")
    return value


class Dense(Cell):
    """Fully connected layer: ``activation(x @ weight.T + bias)``.

    ``weight`` has shape ``(out_channels, in_channels)``. Defaults follow MindSpore 2.x:
    ``HeUniform(negative_slope=sqrt(5))`` for the weight and ``Uniform(1/sqrt(in_channels))``
    for the bias. Inputs of any rank >= 1 are accepted; the last axis must be
    ``in_channels``."""

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = None,
                 bias_init: Any = None, has_bias: bool = True, activation: Any = None,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.in_channels = check_positive_int(in_channels, "in_channels", "Dense")
        self.out_channels = check_positive_int(out_channels, "out_channels", "Dense")
        self.has_bias = bool(has_bias)
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype),
                                name="weight")
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype), name="bias")
        self.activation = get_activation(activation, "Dense")
        self.activation_flag = self.activation is not None

    def construct(self, x: Tensor) -> Tensor:
        if x.shape[-1:] != (self.in_channels,):
            raise ValueError(f"For 'Dense', the last dimension of the input must be "
                             f"in_channels={self.in_channels}, but got input shape "
                             f"{list(x.shape)}.")
        x = F._in_dtype(x, "Dense", "x")  # integer and bool inputs refused, as in MindSpore
        out = self._project(x)
        if self.bias is not None:
            out = F.add(out, self.bias)
        if self.activation_flag:
            out = self.activation(out)
        return out

    def _project(self, x: Tensor) -> Tensor:
        """``x @ weight.T``, before the bias (a subclass may watch it: ``nn.DenseThor``)."""
        return F.matmul(x, self.weight, transpose_b=True)

    def extend_repr(self) -> str:
        # MindSpore names has_bias only when it is True, and the activation when there is one
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation!r}"
        return s


class Flatten(Cell):
    """Flatten the axes from ``start_dim`` to ``end_dim`` (by default all but the batch)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x: Tensor) -> Tensor:
        return F.flatten(x, self.start_dim, self.end_dim)


class Identity(Cell):
    """Returns its input."""

    def construct(self, x: Any) -> Any:
        return x


class Dropout(Cell):
    """Inverted dropout. In training mode each element is zeroed with probability ``p``
    (``1 - keep_prob``) and the survivors are scaled by ``1/keep_prob``; a new mask is drawn
    on every call, in PYNATIVE and GRAPH mode alike. In eval mode it is the identity.

    Give either ``p`` (the drop probability, MindSpore 2.x) or ``keep_prob`` (1.x); the
    default drops half."""

    def __init__(self, keep_prob: float | None = None, p: float | None = None,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        if keep_prob is not None and p is not None:
            raise ValueError("For 'Dropout', give either 'keep_prob' or 'p', not both.")
        if keep_prob is not None:
            if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)) \
                    or not 0.0 < keep_prob <= 1.0:
                raise ValueError(f"For 'Dropout', 'keep_prob' must be a number in range "
                                 f"(0, 1], but got {keep_prob!r}.")
            self.keep_prob = float(keep_prob)
        else:
            p = 0.5 if p is None else p
            if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p < 1.0:
                raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), "
                                 f"but got {p!r}.")
            self.keep_prob = 1.0 - float(p)
        # the drop probability as given (1 - keep_prob would print 0.19999999999999996)
        self.p = float(p) if keep_prob is None else 1.0 - self.keep_prob

    def construct(self, x: Tensor) -> Tensor:
        if not self.training or self.keep_prob == 1.0:
            return x
        dt = S.dtype_of(x)
        if dt.kind != "f":
            raise TypeError(f"For 'Dropout', the input must be a float Tensor, but got "
                            f"{x.dtype}.")
        return F.mul(x, dropout_mask(shape=tuple(x.shape), keep_prob=self.keep_prob, dtype=dt))

    def extend_repr(self) -> str:
        return f"p={self.p}"


class MatMul(Cell):
    """``x1 @ x2`` with NumPy's rules (1-D operands, broadcast batch dimensions); the flags
    transpose the last two axes of an operand of rank 2 or more first."""

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False) -> None:
        super().__init__()
        for name, v in (("transpose_x1", transpose_x1), ("transpose_x2", transpose_x2)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'MatMul', '{name}' must be a bool, but got "
                                f"{type(v).__name__}.")
        self.transpose_x1 = transpose_x1
        self.transpose_x2 = transpose_x2

    def construct(self, x1: Tensor, x2: Tensor) -> Tensor:
        t1 = self.transpose_x1 and F.rank(x1) >= 2
        t2 = self.transpose_x2 and F.rank(x2) >= 2
        return F.matmul(x1, x2, t1, t2)


__all__ = ["Dense", "Flatten", "Identity", "Dropout", "MatMul"]
