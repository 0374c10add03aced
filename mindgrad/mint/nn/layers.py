"""``mindspore.mint.nn``'s layers: Cells with PyTorch's constructor arguments, each calling
``mint.nn.functional`` (activations, losses, ``Linear``, ``Conv2d``, pooling, padding,
normalisation)."""
from __future__ import annotations

import inspect
import math
from typing import Any

from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...core import dtype as mstype
from ...nn.cell import Cell
from ...nn.layers.basic import Identity  # noqa: F401 - the same layer under mint.nn
from ...communication.management import GlobalComm, get_group_size
from ...nn.layers.sync_batch_norm import global_batch_statistics, update_running
from ... import ops
from . import functional as F

__all__ = ["ReLU", "ReLU6", "Sigmoid", "Tanh", "SiLU", "GELU", "ELU", "SELU", "Mish",
           "LogSigmoid", "Softmax", "LogSoftmax", "Hardtanh", "Hardshrink", "Hardsigmoid",
           "Hardswish", "Threshold", "PReLU", "Identity", "Flatten", "Linear", "Conv2d",
           "AvgPool2d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm", "MSELoss",
           "L1Loss", "SmoothL1Loss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss",
           "SoftMarginLoss", "CosineEmbeddingLoss", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
           "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
           "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d", "ReflectionPad3d",
           "ReplicationPad3d", "Conv1d", "AvgPool1d",
           "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "PixelShuffle", "Upsample", "UpsamplingNearest2d"]


def _fn_layer(name: str, fn: Any, doc: str) -> type:
    """A layer without arguments computing ``fn(input)``."""
    def __init__(self: Cell) -> None:
        Cell.__init__(self)

    def construct(self: Cell, input: Any) -> Any:  # noqa: A002
        return fn(input)
    return type(name, (Cell,), {"__init__": __init__, "construct": construct, "__doc__": doc,
                                "__module__": __name__})


ReLU = _fn_layer("ReLU", ops.relu, "``max(input, 0)``.")
Sigmoid = _fn_layer("Sigmoid", ops.sigmoid, "``1 / (1 + exp(-input))``.")
Tanh = _fn_layer("Tanh", ops.tanh, "The hyperbolic tangent.")
SELU = _fn_layer("SELU", ops.selu, "The scaled exponential linear unit.")
Mish = _fn_layer("Mish", ops.mish, "``input * tanh(softplus(input))``.")
LogSigmoid = _fn_layer("LogSigmoid", ops.logsigmoid, "``log(sigmoid(input))``.")
Hardsigmoid = _fn_layer("Hardsigmoid", ops.hardsigmoid, "``relu6(input + 3) / 6``.")
Hardswish = _fn_layer("Hardswish", ops.hardswish, "``input * relu6(input + 3) / 6``.")


class ReLU6(Cell):
    """``min(max(input, 0), 6)``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.relu6(input, self.inplace)


class SiLU(Cell):
    """``input * sigmoid(input)``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.silu(input, self.inplace)


class GELU(Cell):
    """The Gaussian error linear unit (``approximate="tanh"``: the tanh formula)."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.gelu(input, approximate=self.approximate)


class ELU(Cell):
    """``input`` where positive, else ``alpha * (exp(input) - 1)``."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.elu(input, self.alpha, self.inplace)


class Softmax(Cell):
    """``softmax`` along ``dim`` (the last when None)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.softmax(input, self.dim)


class LogSoftmax(Cell):
    """``log_softmax`` along ``dim`` (the last when None)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.log_softmax(input, self.dim)


class Hardtanh(Cell):
    """``input`` clipped to ``[min_val, max_val]``."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0,
                 inplace: bool = False) -> None:
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)


class Hardshrink(Cell):
    """``input`` where ``|input| > lambd``, else 0."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def construct(self, input: Any) -> Any:  # noqa: A002
        return ops.hardshrink(input, self.lambd)


class Threshold(Cell):
    """``input`` where greater than ``threshold``, else ``value``."""

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.threshold(input, self.threshold, self.value, self.inplace)


class PReLU(Cell):
    """``input`` where positive, else ``weight * input``: a learnt slope, one or one per
    channel (``num_parameters``), starting at ``init``."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, dtype: Any = None) -> None:
        super().__init__()
        self.weight = Parameter(ops.full((num_parameters,), float(init),
                                         dtype=dtype or mstype.float32), name="weight")

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.prelu(input, self.weight)


class Flatten(Cell):
    """``input`` with dimensions ``start_dim`` .. ``end_dim`` merged."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.flatten(input, self.start_dim, self.end_dim)


class Linear(Cell):
    """``input @ weight.T + bias`` with ``weight`` of shape ``(out_features, in_features)``
    (``HeUniform(sqrt(5))``) and ``bias`` uniform in ``+-1/sqrt(in_features)``."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 weight_init: Any = None, bias_init: Any = None, dtype: Any = None) -> None:
        super().__init__()
        dtype = dtype or mstype.float32
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)) if weight_init is None
                                            else weight_init, [out_features, in_features],
                                            dtype), name="weight")
        self.bias = None
        if bias:
            self.bias = Parameter(initializer(Uniform(1 / math.sqrt(in_features))
                                              if bias_init is None else bias_init,
                                              [out_features], dtype), name="bias")

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.linear(input, self.weight, self.bias)


class Conv2d(Cell):
    """The 2-D convolution of ``(N, C, H, W)`` inputs (``padding`` a number, a pair,
    ``"valid"`` or ``"same"``; ``padding_mode`` ``"zeros"``, ``"reflect"``,
    ``"replicate"`` or ``"circular"``)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", dtype: Any = None) -> None:
        super().__init__()
        dtype = dtype or mstype.float32
        k = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"mint.nn.Conv2d: in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must be divisible by groups ({groups})")
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups
        self.padding_mode = padding_mode
        shape = [out_channels, in_channels // groups, *k]
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype),
                                name="weight")
        self.bias = None
        if bias:
            fan_in = shape[1] * k[0] * k[1]
            self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)), [out_channels],
                                              dtype), name="bias")

    def construct(self, input: Any) -> Any:  # noqa: A002
        if self.padding_mode == "zeros" or isinstance(self.padding, str):
            return F.conv2d(input, self.weight, self.bias, self.stride, self.padding,
                            self.dilation, self.groups)
        p = self.padding
        ph, pw = (p, p) if isinstance(p, int) else tuple(p)
        mode = {"reflect": "reflect", "replicate": "replicate",
                "circular": "circular"}[self.padding_mode]
        x = F.pad(input, (pw, pw, ph, ph), mode)
        return F.conv2d(x, self.weight, self.bias, self.stride, 0, self.dilation,
                        self.groups)


class AvgPool2d(Cell):
    """2-D average pooling (``stride`` defaults to the kernel size)."""

    _pool = staticmethod(F.avg_pool2d)

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None) -> None:
        super().__init__()
        self.args = (kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override)

    def construct(self, input: Any) -> Any:  # noqa: A002
        return self._pool(input, *self.args)


class _BatchNorm(Cell):
    """Batch normalisation over all dimensions but the channels (dimension 1): batch
    statistics while training (updating the running ones with ``momentum`` and counting the
    batches in ``num_batches_tracked``), the running ones in evaluation. Without
    ``track_running_stats`` there are no running statistics (``running_mean`` is None) and
    batch statistics normalise in evaluation too."""

    _ndim: tuple = ()

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float = 0.1,
                 affine: bool = True, track_running_stats: bool = True,
                 dtype: Any = None) -> None:
        super().__init__()
        dtype = dtype or mstype.float32
        self.eps, self.momentum = eps, momentum
        self.track_running_stats = track_running_stats
        self.weight = Parameter(ops.ones((num_features,), dtype), name="weight",
                                requires_grad=affine)
        self.bias = Parameter(ops.zeros((num_features,), dtype), name="bias",
                              requires_grad=affine)
        self.running_mean = self.running_var = self.num_batches_tracked = None
        if track_running_stats:
            self.running_mean = Parameter(ops.zeros((num_features,), dtype),
                                          name="running_mean", requires_grad=False)
            self.running_var = Parameter(ops.ones((num_features,), dtype), name="running_var",
                                         requires_grad=False)
            self.num_batches_tracked = Parameter(ops.zeros((), mstype.int64),
                                                 name="num_batches_tracked",
                                                 requires_grad=False)

    def construct(self, input: Any) -> Any:  # noqa: A002
        if input.ndim not in self._ndim:
            raise ValueError(f"mint.nn.{type(self).__name__}: 'input' must have "
                             f"{' or '.join(map(str, self._ndim))} dimensions, got shape "
                             f"{tuple(input.shape)}")
        self._count_batch()
        training = self.training or not self.track_running_stats
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight,
                            self.bias, training, self.momentum, self.eps)

    def _count_batch(self) -> None:
        if self.training and self.track_running_stats:
            self.num_batches_tracked.set_data(ops.add(self.num_batches_tracked, 1))


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of ``(N, C)`` or ``(N, C, L)`` inputs."""
    _ndim = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of ``(N, C, H, W)`` inputs."""
    _ndim = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of ``(N, C, D, H, W)`` inputs."""
    _ndim = (5,)


# --- SyncBatchNorm: batch statistics over the ranks of a process group ----------------------
class SyncBatchNorm(_BatchNorm):
    """Batch normalisation of ``(N, C, ...)`` inputs whose training statistics cover the
    examples of every rank of ``process_group`` (a group's name, None: the world group)
    under MPI data parallelism: one all-reduce of per-rank sums, sums of squares and counts
    (which the gradient all-reduces in turn), the running statistics of every rank updated
    alike from the global ones (``running = (1 - momentum) * running + momentum * batch``,
    the variance unbiased over the whole batch) when ``track_running_stats``. In evaluation,
    or when the group has one rank, it is ``BatchNorm`` exactly. The statistics code is
    ``nn.SyncBatchNorm``'s."""

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float = 0.1,
                 affine: bool = True, track_running_stats: bool = True,
                 process_group: str | None = None, dtype: Any = None) -> None:
        if process_group is not None and not isinstance(process_group, str):
            raise TypeError(f"mint.nn.SyncBatchNorm: 'process_group' must be a group's name "
                            f"(str) or None, got {type(process_group).__name__}")
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        self.num_features = num_features
        self.process_group = process_group or GlobalComm.WORLD_COMM_GROUP
        self.world_size = get_group_size(self.process_group)

    def construct(self, input: Any) -> Any:  # noqa: A002
        if input.ndim < 2:
            raise ValueError(f"mint.nn.SyncBatchNorm: 'input' must have at least 2 "
                             f"dimensions, got shape {tuple(input.shape)}")
        if input.shape[1] != self.num_features:
            raise ValueError(f"mint.nn.SyncBatchNorm: 'input' has {input.shape[1]} channels "
                             f"(dimension 1) but num_features is {self.num_features}")
        self._count_batch()
        if not self.training or self.world_size < 2:
            training = self.training or not self.track_running_stats
            return F.batch_norm(input, self.running_mean, self.running_var, self.weight,
                                self.bias, training, self.momentum, self.eps)
        axes = (0,) + tuple(range(2, input.ndim))
        shape = (self.num_features,) + (1,) * (input.ndim - 2)
        mean, var, unbiased = global_batch_statistics(input, axes, self.process_group)
        if self.track_running_stats:
            keep = 1.0 - self.momentum
            update_running(self.running_mean, mean, keep)
            update_running(self.running_var, ops.mul(var, unbiased), keep)
        y = ops.mul(ops.sub(input, mean), ops.rsqrt(ops.add(var, self.eps)))
        return ops.add(ops.mul(y, ops.reshape(self.weight, shape)),
                       ops.reshape(self.bias, shape))


__all__ += ["SyncBatchNorm"]


class GroupNorm(Cell):
    """Group normalisation with a learnt per-channel scale and shift (``affine``)."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-05,
                 affine: bool = True, dtype: Any = None) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"mint.nn.GroupNorm: num_channels ({num_channels}) must be "
                             f"divisible by num_groups ({num_groups})")
        dtype = dtype or mstype.float32
        self.num_groups, self.eps = num_groups, eps
        self.weight = Parameter(ops.ones((num_channels,), dtype), name="weight",
                                requires_grad=affine)
        self.bias = Parameter(ops.zeros((num_channels,), dtype), name="bias",
                              requires_grad=affine)

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


def _loss_layer(name: str, fn: Any, doc: str, **defaults: Any) -> type:
    """A loss layer storing its keyword arguments (``reduction`` ...) for ``fn``."""
    def __init__(self: Cell, *args: Any, **kwargs: Any) -> None:
        Cell.__init__(self)
        if len(args) > len(defaults):
            raise TypeError(f"mint.nn.{name} takes at most {len(defaults)} positional "
                            f"arguments ({', '.join(defaults)})")
        options = dict(defaults)
        options.update(zip(defaults, args))
        bad = set(kwargs) - set(defaults)
        if bad:
            raise TypeError(f"mint.nn.{name}: unexpected arguments {sorted(bad)}")
        options.update(kwargs)
        self.options = options

    def construct(self: Cell, *inputs: Any) -> Any:
        return fn(*inputs, **self.options)
    # the constructor's public signature: the loss function's options with their defaults
    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=v)
           for k, v in defaults.items()])
    return type(name, (Cell,), {"__init__": __init__, "construct": construct,
                                "__doc__": doc, "__module__": __name__})


MSELoss = _loss_layer("MSELoss", F.mse_loss, "The mean squared error.", reduction="mean")
L1Loss = _loss_layer("L1Loss", ops.l1_loss, "The mean absolute error.", reduction="mean")
SmoothL1Loss = _loss_layer("SmoothL1Loss", ops.smooth_l1_loss,
                           "The Huber-like smooth L1 loss.", reduction="mean", beta=1.0)
BCELoss = _loss_layer("BCELoss", F.binary_cross_entropy,
                      "Binary cross-entropy of probabilities.", weight=None,
                      reduction="mean")
BCEWithLogitsLoss = _loss_layer("BCEWithLogitsLoss", F.binary_cross_entropy_with_logits,
                                "Binary cross-entropy of logits.", weight=None,
                                reduction="mean", pos_weight=None)
KLDivLoss = _loss_layer("KLDivLoss", F.kl_div, "The Kullback-Leibler divergence.",
                        reduction="mean", log_target=False)
SoftMarginLoss = _loss_layer("SoftMarginLoss", F.soft_margin_loss,
                             "``log(1 + exp(-target * input))``.", reduction="mean")
CosineEmbeddingLoss = _loss_layer("CosineEmbeddingLoss", F.cosine_embedding_loss,
                                  "The cosine embedding loss.", margin=0.0,
                                  reduction="mean")


def _pad_layer(name: str, n: int, mode: str, with_value: bool) -> type:
    """A padding layer of the last ``n`` dimensions (``padding``: a number for all sides
    or ``2 n`` numbers, last dimension first)."""
    def __init__(self: Cell, padding: Any, value: float) -> None:
        Cell.__init__(self)
        self.padding = (padding,) * (2 * n) if isinstance(padding, int) else tuple(padding)
        if len(self.padding) != 2 * n:
            raise ValueError(f"mint.nn.{name}: 'padding' must be an int or {2 * n} ints, "
                             f"got {padding!r}")
        self.value = value

    def construct(self: Cell, input: Any) -> Any:  # noqa: A002
        return F.pad(input, self.padding, mode, self.value if mode == "constant" else None)
    init = __init__ if with_value else (lambda self, padding: __init__(self, padding, 0.0))
    return type(name, (Cell,), {"__init__": init, "construct": construct,
                                "__doc__": f"``{mode}`` padding of the last {n} dimensions.",
                                "__module__": __name__})


for _n in (1, 2, 3):
    globals()[f"ZeroPad{_n}d"] = _pad_layer(f"ZeroPad{_n}d", _n, "constant", False)
    globals()[f"ConstantPad{_n}d"] = _pad_layer(f"ConstantPad{_n}d", _n, "constant", True)
for _n in (1, 2, 3):
    globals()[f"ReflectionPad{_n}d"] = _pad_layer(f"ReflectionPad{_n}d", _n, "reflect", False)
    globals()[f"ReplicationPad{_n}d"] = _pad_layer(f"ReplicationPad{_n}d", _n, "replicate",
                                                   False)


class Conv1d(Cell):
    """The 1-D convolution of ``(N, C, L)`` inputs (``padding`` an int, ``"valid"`` or
    ``"same"``; zero padding)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", dtype: Any = None) -> None:
        super().__init__()
        if padding_mode != "zeros":
            raise ValueError(f"mint.nn.Conv1d: mindgrad supports padding_mode 'zeros' only, "
                             f"got {padding_mode!r}")
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"mint.nn.Conv1d: in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must be divisible by groups ({groups})")
        dtype = dtype or mstype.float32
        k = kernel_size if isinstance(kernel_size, int) else kernel_size[0]
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups
        shape = [out_channels, in_channels // groups, k]
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype),
                                name="weight")
        self.bias = None
        if bias:
            self.bias = Parameter(initializer(Uniform(1 / math.sqrt(shape[1] * k)),
                                              [out_channels], dtype), name="bias")

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding,
                        self.dilation, self.groups)


class AvgPool1d(Cell):
    """1-D average pooling (``stride`` defaults to the kernel size)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True) -> None:
        super().__init__()
        self.args = (kernel_size, stride, padding, ceil_mode, count_include_pad)

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.avg_pool1d(input, *self.args)


def _adaptive_layer(name: str, fn: Any, indices: bool) -> type:
    """An adaptive pooling layer calling ``fn(input, output_size[, return_indices])``."""
    def __init__(self: Cell, output_size: Any, return_indices: bool = False) -> None:
        Cell.__init__(self)
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self: Cell, input: Any) -> Any:  # noqa: A002
        if indices:
            return fn(input, self.output_size, self.return_indices)
        return fn(input, self.output_size)
    init = __init__ if indices else (lambda self, output_size: __init__(self, output_size))
    return type(name, (Cell,), {"__init__": init, "construct": construct,
                                "__doc__": f"``{fn.__name__}`` as a layer.",
                                "__module__": __name__})


AdaptiveAvgPool1d = _adaptive_layer("AdaptiveAvgPool1d", F.adaptive_avg_pool1d, False)
AdaptiveAvgPool2d = _adaptive_layer("AdaptiveAvgPool2d", F.adaptive_avg_pool2d, False)
AdaptiveMaxPool1d = _adaptive_layer("AdaptiveMaxPool1d", F.adaptive_max_pool1d, True)
AdaptiveMaxPool2d = _adaptive_layer("AdaptiveMaxPool2d", F.adaptive_max_pool2d, True)


class PixelShuffle(Cell):
    """``(..., C r^2, H, W)`` rearranged into ``(..., C, H r, W r)``."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.pixel_shuffle(input, self.upscale_factor)


class Upsample(Cell):
    """``interpolate`` as a layer (nearest-neighbour)."""

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.args = (size, scale_factor, mode, align_corners, recompute_scale_factor)

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.interpolate(input, *self.args)


class UpsamplingNearest2d(Cell):
    """Nearest-neighbour 2-D upsampling to ``size`` or by ``scale_factor``."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__()
        self.size, self.scale_factor = size, scale_factor

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.interpolate(input, self.size, self.scale_factor)
