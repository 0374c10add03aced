"""Small cells of ``mindspore.nn``: ``ClipByNorm``, the channel dropouts ``Dropout1d``,
``Dropout2d`` and ``Dropout3d``, ``L1Regularizer``, ``BiDense`` (a bilinear layer) and
``TimeDistributed`` (a layer applied to every time step)."""
from __future__ import annotations

import math
from typing import Any

from ...common.initializer import Uniform, initializer
from ...common.parameter import Parameter
from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...ops import functional as F
from ...ops import layer_functions as LF
from ..cell import Cell
from .basic import check_positive_int


class ClipByNorm(Cell):
    """``x * clip_norm / max(||x||_2, clip_norm)``, the L2 norm taken over ``axis`` (all
    axes when None)."""

    def __init__(self, axis: Any = None) -> None:
        super().__init__()
        if axis is not None and not isinstance(axis, (int, tuple, list)):
            raise TypeError(f"For 'ClipByNorm', 'axis' must be None, an int or a tuple of ints, "
                            f"but got {type(axis).__name__}.")
        self.axis = axis

    def construct(self, x: Tensor, clip_norm: Any) -> Tensor:
        if not isinstance(x, Tensor) or x.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"For 'ClipByNorm', 'x' must be a float16 or float32 Tensor, but "
                            f"got {getattr(x, 'dtype', type(x).__name__)}.")
        axis = tuple(range(x.ndim)) if self.axis is None else self.axis
        norm = F.sqrt(F.reduce_sum(F.square(x), axis, True))
        c = F.cast(clip_norm, x.dtype) if isinstance(clip_norm, Tensor) else float(clip_norm)
        return F.div(F.mul(x, c), F.maximum(norm, c))


class _ChannelDropout(Cell):
    """Zeroes whole channels with probability ``p`` while training (scaling the rest by
    ``1 / (1 - p)``); the identity in eval."""

    _fn: Any = None

    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        who = type(self).__name__
        if isinstance(p, bool) or not isinstance(p, float):
            raise TypeError(f"For '{who}', the type of 'p' must be float, but got "
                            f"{type(p).__name__}.")
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"For '{who}', the 'p' must be a number in range [0, 1], but got "
                             f"{p}.")
        self.p = p

    def construct(self, x: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return x
        return type(self)._fn(x, self.p, True)

    def extend_repr(self) -> str:
        return f"p={self.p}"


class Dropout1d(_ChannelDropout):
    """Channel dropout of ``(N, C, L)`` or ``(C, L)`` inputs."""

    _fn = staticmethod(LF.dropout1d)


class Dropout2d(_ChannelDropout):
    """Channel dropout of ``(N, C, H, W)`` inputs."""

    _fn = staticmethod(LF.dropout2d)


class Dropout3d(_ChannelDropout):
    """Channel dropout of ``(N, C, D, H, W)`` inputs."""

    _fn = staticmethod(LF.dropout3d)


class L1Regularizer(Cell):
    """``scale * sum(|weights|)``."""

    def __init__(self, scale: float) -> None:
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise TypeError(f"For 'L1Regularizer', the type of 'scale' must be int or float, but "
                            f"got {type(scale).__name__}.")
        if math.isinf(scale) or math.isnan(scale):
            raise ValueError(f"For 'L1Regularizer', the 'scale' can not be INF or NAN, but got "
                             f"{scale}.")
        if scale <= 0:
            raise ValueError(f"For 'L1Regularizer', the 'scale' must be greater than 0, but got "
                             f"{scale}.")
        self.scale = Tensor(scale, mstype.float32)

    def construct(self, weights: Tensor) -> Tensor:
        return F.mul(self.scale, F.reduce_sum(F.abs(weights)))


class BiDense(Cell):
    """``y = x1^T A x2 + b`` with ``weight`` ``A`` of shape ``(out, in1, in2)`` and ``bias``
    ``(out,)``, both drawn from ``U(-1/sqrt(in1), 1/sqrt(in1))`` unless given."""

    def __init__(self, in1_channels: int, in2_channels: int, out_channels: int,
                 weight_init: Any = None, bias_init: Any = None, has_bias: bool = True,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        who = "BiDense"
        self.in1_channels = check_positive_int(in1_channels, "in1_channels", who)
        self.in2_channels = check_positive_int(in2_channels, "in2_channels", who)
        self.out_channels = check_positive_int(out_channels, "out_channels", who)
        if not isinstance(has_bias, bool):
            raise TypeError(f"For '{who}', 'has_bias' must be a bool, but got "
                            f"{type(has_bias).__name__}.")
        self.has_bias = has_bias
        bound = 1.0 / math.sqrt(in1_channels)
        shape = [out_channels, in1_channels, in2_channels]
        if isinstance(weight_init, Tensor) and list(weight_init.shape) != shape:
            raise ValueError(f"For '{who}', 'weight_init' must have shape {shape}, but got "
                             f"{list(weight_init.shape)}.")
        self.weight = Parameter(initializer(Uniform(bound) if weight_init is None
                                            else weight_init, shape, dtype), name="weight")
        self.bias = None
        if has_bias:
            if isinstance(bias_init, Tensor) and list(bias_init.shape) != [out_channels]:
                raise ValueError(f"For '{who}', 'bias_init' must have shape [{out_channels}], "
                                 f"but got {list(bias_init.shape)}.")
            self.bias = Parameter(initializer(Uniform(bound) if bias_init is None
                                              else bias_init, [out_channels], dtype),
                                  name="bias")

    def construct(self, input1: Tensor, input2: Tensor) -> Tensor:
        return LF.bidense(input1, input2, self.weight, self.bias)

    def extend_repr(self) -> str:
        return (f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, "
                f"output_channels={self.out_channels}, has_bias={self.has_bias}")


class TimeDistributed(Cell):
    """Applies ``layer`` to every slice of the input along ``time_axis`` and stacks the
    results there; with ``reshape_with_axis`` the time axis is instead merged into that
    axis, ``layer`` runs once and the result is split again (the faster way, for a layer
    that treats that axis as a batch)."""

    def __init__(self, layer: Any, time_axis: int, reshape_with_axis: int | None = None) -> None:
        if not callable(layer):
            raise TypeError(f"For 'TimeDistributed', the 'layer' must be Cell or Primitive "
                            f"instance, but got type: {type(layer).__name__}.")
        super().__init__()
        for name, v in (("time_axis", time_axis), ("reshape_with_axis", reshape_with_axis)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise TypeError(f"For 'TimeDistributed', '{name}' must be an int, but got "
                                f"{type(v).__name__}.")
        self.layer, self.time_axis = layer, time_axis
        self.reshape_with_axis = reshape_with_axis

    def construct(self, inputs: Tensor) -> Tensor:
        who = "TimeDistributed"
        if not isinstance(inputs, Tensor):
            raise TypeError(f"For '{who}', the inputs and outputs must be a Tensor.")
        n = inputs.ndim
        if n < 3:
            raise ValueError(f"For '{who}', the inputs shape must be at least 3D, but got {n}.")
        t = self.time_axis % n
        if self.reshape_with_axis is None:
            outs = [self.layer(s) for s in F.unstack(inputs, t)]
            return F.stack(outs, t)
        r = self.reshape_with_axis % n
        # bring the time axis next to axis r, merge the two, run, split them again
        t_new = n - 2 if r == n - 1 else (r + 1 if t > r else r - 1)
        pos = min(t_new, r)
        a, b = sorted((t_new, t))
        perm = tuple(range(n))
        perm = perm[:a] + (perm[b],) + perm[a:b] + perm[b + 1:]
        x = F.transpose(inputs, perm)
        shape = tuple(x.shape)
        merged = F.reshape(x, shape[:pos] + (-1,) + shape[pos + 2:])
        out = self.layer(merged)
        if pos >= out.ndim or merged.shape[pos] != out.shape[pos]:
            raise ValueError(f"For '{who}', the 'reshape_with_axis' is invalid in the input and "
                             f"output: axis {pos} has size {merged.shape[pos]} in "
                             f"{list(merged.shape)} but the layer returned "
                             f"{list(out.shape)}. You may try without 'reshape_with_axis'.")
        new = tuple(out.shape[:pos]) + shape[pos:pos + 2] + tuple(out.shape[pos + 1:])
        return F.reshape(out, (-1,) + new[1:])


__all__ = ["ClipByNorm", "Dropout1d", "Dropout2d", "Dropout3d", "L1Regularizer", "BiDense",
           "TimeDistributed"]
