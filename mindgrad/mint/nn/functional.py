"""``mindspore.mint.nn.functional``: activations, losses, ``linear``, dropout, convolution,
pooling, normalisation and padding with torch-style arguments, composed of mindgrad
operators (so differentiable). The functions ending in ``_`` (and ``inplace=True``) write
the result into ``input`` through the mutation protocol and return it."""
from __future__ import annotations

from typing import Any, Sequence

from ... import ops
from ...core.mutation import rebind
from . import sampling
from .sampling import *  # noqa: F401,F403 - the 1-D, adaptive and resampling functions
from . import vision
from .vision import *  # noqa: F401,F403 - 3-D and transposed convolution, fold, grid_sample
from .._utils import tensor_arg

__all__ = ["relu", "relu_", "relu6", "sigmoid", "sigmoid_", "tanh", "silu", "gelu", "elu",
           "elu_", "leaky_relu", "hardtanh", "hardtanh_", "threshold", "threshold_", "glu",
           "logsigmoid", "softmax", "log_softmax", "prelu", "mse_loss", "cross_entropy",
           "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
           "soft_margin_loss", "cosine_embedding_loss", "linear", "dropout", "dropout2d",
           "conv2d", "max_pool2d", "avg_pool2d", "pad", "batch_norm", "layer_norm",
           "group_norm", "normalize", "one_hot", "embedding", "flatten"] + sampling.__all__ \
    + vision.__all__


def _out(input: Any, new: Any, inplace: bool) -> Any:  # noqa: A002
    """``new``, or ``input`` made to hold it when ``inplace``."""
    if not inplace:
        return new
    rebind(input, new)
    return input


def relu(input: Any, inplace: bool = False) -> Any:  # noqa: A002
    """``max(input, 0)``."""
    return _out(input, ops.relu(input), inplace)


def relu_(input: Any) -> Any:  # noqa: A002
    """``relu`` written into ``input``."""
    return relu(input, True)


def relu6(input: Any, inplace: bool = False) -> Any:  # noqa: A002
    """``min(max(input, 0), 6)``."""
    return _out(input, ops.relu6(input), inplace)


def sigmoid(input: Any) -> Any:  # noqa: A002
    """``1 / (1 + exp(-input))``."""
    return ops.sigmoid(input)


def sigmoid_(input: Any) -> Any:  # noqa: A002
    """``sigmoid`` written into ``input``."""
    return _out(input, ops.sigmoid(input), True)


def tanh(input: Any) -> Any:  # noqa: A002
    """The hyperbolic tangent."""
    return ops.tanh(input)


def silu(input: Any, inplace: bool = False) -> Any:  # noqa: A002
    """``input * sigmoid(input)``."""
    return _out(input, ops.silu(input), inplace)


def gelu(input: Any, *, approximate: str = "none") -> Any:  # noqa: A002
    """The Gaussian error linear unit (``approximate="tanh"``: the tanh formula)."""
    return ops.gelu(input, approximate)


def elu(input: Any, alpha: float = 1.0, inplace: bool = False) -> Any:  # noqa: A002
    """``input`` where positive, else ``alpha * (exp(input) - 1)``."""
    return _out(input, ops.elu(input, alpha), inplace)


def elu_(input: Any, alpha: float = 1.0) -> Any:  # noqa: A002
    """``elu`` written into ``input``."""
    return elu(input, alpha, True)


def leaky_relu(input: Any, negative_slope: float = 0.01) -> Any:  # noqa: A002
    """``input`` where positive, else ``negative_slope * input``."""
    return ops.leaky_relu(input, negative_slope)


def hardtanh(input: Any, min_val: float = -1.0, max_val: float = 1.0,  # noqa: A002
             inplace: bool = False) -> Any:
    """``input`` clipped to ``[min_val, max_val]``."""
    return _out(input, ops.hardtanh(input, min_val, max_val), inplace)


def hardtanh_(input: Any, min_val: float = -1, max_val: float = 1) -> Any:  # noqa: A002
    """``hardtanh`` written into ``input``."""
    return hardtanh(input, min_val, max_val, True)


def threshold(input: Any, threshold: float, value: float,  # noqa: A002
              inplace: bool = False) -> Any:
    """``input`` where greater than ``threshold``, else ``value``."""
    return _out(input, ops.threshold(input, threshold, value), inplace)


def threshold_(input: Any, threshold: float, value: float) -> Any:  # noqa: A002
    """``threshold`` written into ``input``."""
    return _out(input, ops.threshold(input, threshold, value), True)


def glu(input: Any, dim: int = -1) -> Any:  # noqa: A002
    """The first half of ``input`` along ``dim`` times the sigmoid of the second half."""
    return ops.glu(input, dim)


def logsigmoid(input: Any) -> Any:  # noqa: A002
    """``log(sigmoid(input))``, computed stably."""
    return ops.logsigmoid(input)


def softmax(input: Any, dim: int | None = None, dtype: Any = None) -> Any:  # noqa: A002
    """``exp(input)`` normalised to sum 1 along ``dim`` (the last dimension when None)."""
    return ops.softmax(input, -1 if dim is None else dim, dtype=dtype)


def log_softmax(input: Any, dim: int | None = None, *,  # noqa: A002
                dtype: Any = None) -> Any:
    """``log(softmax(input, dim))``, computed stably."""
    x = input if dtype is None else ops.cast(input, dtype)
    return ops.log_softmax(x, -1 if dim is None else dim)


def prelu(input: Any, weight: Any) -> Any:  # noqa: A002
    """``input`` where positive, else ``weight * input`` (``weight`` per channel, dim 1)."""
    tensor_arg(input, "nn.functional.prelu")
    w = weight
    if input.ndim >= 2 and weight.size > 1:
        w = ops.reshape(weight, (-1,) + (1,) * (input.ndim - 2))
    return ops.where(ops.gt(input, 0), input, ops.mul(w, input))


def mse_loss(input: Any, target: Any, reduction: str = "mean") -> Any:  # noqa: A002
    """The squared differences of ``input`` and ``target``, reduced."""
    return ops.mse_loss(input, target, reduction)


def cross_entropy(input: Any, target: Any, weight: Any = None,  # noqa: A002
                  ignore_index: int = -100, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Any:
    """The cross-entropy of the logits ``input`` against class indices or
    probabilities ``target``."""
    return ops.cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)


def nll_loss(input: Any, target: Any, weight: Any = None, ignore_index: int = -100,  # noqa: A002
             reduction: str = "mean") -> Any:
    """The negative log-likelihood of the log-probabilities ``input`` at ``target``."""
    return ops.nll_loss(input, target, weight, ignore_index, reduction)


def binary_cross_entropy(input: Any, target: Any, weight: Any = None,  # noqa: A002
                         reduction: str = "mean") -> Any:
    """The binary cross-entropy of the probabilities ``input`` against ``target``."""
    return ops.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input: Any, target: Any, weight: Any = None,  # noqa: A002
                                     reduction: str = "mean", pos_weight: Any = None) -> Any:
    """The binary cross-entropy of ``sigmoid(input)`` against ``target``."""
    return ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def kl_div(input: Any, target: Any, reduction: str = "mean",  # noqa: A002
           log_target: bool = False) -> Any:
    """The Kullback-Leibler divergence of the log-probabilities ``input`` from ``target``
    (log-probabilities too with ``log_target``)."""
    if log_target:
        loss = ops.mul(ops.exp(target), ops.sub(target, input))
    else:
        loss = ops.sub(ops.xlogy(target, target), ops.mul(target, input))
    return _reduce(loss, reduction, "kl_div", batch_mean=True)


def _reduce(loss: Any, reduction: str, name: str, batch_mean: bool = False) -> Any:
    if reduction == "none":
        return loss
    if reduction == "sum":
        return ops.sum(loss)
    if reduction == "mean":
        return ops.mean(loss)
    if batch_mean and reduction == "batchmean":
        return ops.div(ops.sum(loss), loss.shape[0] if loss.ndim else 1)
    raise ValueError(f"mint.nn.functional.{name}: 'reduction' must be 'none', 'mean' or "
                     f"'sum', got {reduction!r}")


def soft_margin_loss(input: Any, target: Any, reduction: str = "mean") -> Any:  # noqa: A002
    """``log(1 + exp(-target * input))``, reduced."""
    return ops.soft_margin_loss(input, target, reduction)


def cosine_embedding_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                          reduction: str = "mean") -> Any:
    """``1 - cos`` for the pairs with target 1, ``max(0, cos - margin)`` for target -1."""
    cos = ops.cosine_similarity(input1, input2, dim=-1, eps=1e-8)
    loss = ops.where(ops.eq(target, 1), ops.sub(1.0, cos),
                     ops.relu(ops.sub(cos, margin)))
    return _reduce(loss, reduction, "cosine_embedding_loss")


def linear(input: Any, weight: Any, bias: Any = None) -> Any:  # noqa: A002
    """``input @ weight.T + bias``."""
    return ops.dense(input, weight, bias)


def dropout(input: Any, p: float = 0.5, training: bool = True,  # noqa: A002
            inplace: bool = False) -> Any:
    """Each element zeroed with probability ``p``, the rest scaled by ``1 / (1 - p)``,
    while ``training``."""
    return _out(input, ops.dropout(input, p, training), inplace)


def dropout2d(input: Any, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Any:
    """Whole channels (of ``(N, C, H, W)``) zeroed with probability ``p``."""
    tensor_arg(input, "nn.functional.dropout2d")
    if not training or p == 0:
        return input
    keep = ops.dropout(ops.ones(tuple(input.shape[:2]) + (1, 1), input.dtype), p, True)
    return _out(input, ops.mul(input, keep), inplace)


def conv2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1,  # noqa: A002
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Any:
    """The 2-D convolution of ``(N, C, H, W)`` ``input`` with ``weight``; ``padding`` a
    number, a pair, ``"valid"`` or ``"same"``."""
    if isinstance(padding, str):
        return ops.conv2d(input, weight, bias, stride, padding, 0, dilation, groups)
    if isinstance(padding, (tuple, list)) and len(padding) == 2:
        padding = (padding[0], padding[0], padding[1], padding[1])
    return ops.conv2d(input, weight, bias, stride, "pad", padding, dilation, groups)


def max_pool2d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Any:
    """The 2-D max pooling of ``(N, C, H, W)`` ``input`` (``stride`` defaults to the
    kernel size)."""
    return ops.max_pool2d(input, kernel_size, kernel_size if stride is None else stride,
                          padding, dilation, return_indices, ceil_mode)


def avg_pool2d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Any:
    """The 2-D average pooling of ``(N, C, H, W)`` ``input``."""
    return ops.avg_pool2d(input, kernel_size, kernel_size if stride is None else stride,
                          padding, ceil_mode, count_include_pad, divisor_override)


def pad(input: Any, pad: Sequence[int], mode: str = "constant",  # noqa: A002
        value: float | None = None) -> Any:
    """``input`` padded: ``pad`` lists (before, after) pairs from the last dimension."""
    return ops.pad(input, tuple(pad), mode, value)


def batch_norm(input: Any, running_mean: Any, running_var: Any, weight: Any = None,  # noqa: A002
               bias: Any = None, training: bool = False, momentum: float = 0.1,
               eps: float = 1e-05) -> Any:
    """Batch normalisation over all dimensions but the channels (dimension 1)."""
    tensor_arg(input, "nn.functional.batch_norm")
    c = input.shape[1]
    w = ops.ones((c,), input.dtype) if weight is None else weight
    b = ops.zeros((c,), input.dtype) if bias is None else bias
    if not training or hasattr(running_mean, "set_data"):
        return ops.batch_norm(input, running_mean, running_var, w, b, training, momentum,
                              eps)
    # plain running tensors (PyTorch style): the batch statistics normalise, and the
    # running ones are updated in place through the mutation protocol
    axes = (0,) + tuple(range(2, input.ndim))
    shape = (c,) + (1,) * (input.ndim - 2)
    y = _normalise(input, axes, eps)
    y = ops.add(ops.mul(y, ops.reshape(w, shape)), ops.reshape(b, shape))
    if running_mean is not None and running_var is not None:
        n = input.size // c
        x = ops.stop_gradient(input)
        mean = ops.mean(x, axes)
        var = ops.mul(ops.mean(ops.square(ops.sub(x, ops.reshape(mean, shape))), axes),
                      n / max(n - 1, 1))
        for running, batch in ((running_mean, mean), (running_var, var)):
            rebind(running, ops.add(ops.mul(running, 1.0 - momentum),
                                    ops.mul(batch, momentum)))
    return y


def _normalise(x: Any, axes: tuple, eps: float) -> Any:
    mean = ops.mean(x, axes, True)
    centred = ops.sub(x, mean)
    var = ops.mean(ops.square(centred), axes, True)
    return ops.mul(centred, ops.rsqrt(ops.add(var, eps)))


def layer_norm(input: Any, normalized_shape: Sequence[int], weight: Any = None,  # noqa: A002
               bias: Any = None, eps: float = 1e-05) -> Any:
    """``input`` normalised over its last ``len(normalized_shape)`` dimensions, then
    scaled by ``weight`` and shifted by ``bias``."""
    tensor_arg(input, "nn.functional.layer_norm")
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else \
        tuple(normalized_shape)
    if tuple(input.shape[input.ndim - len(shape):]) != shape:
        raise ValueError(f"mint.nn.functional.layer_norm: 'normalized_shape' {shape} must "
                         f"end 'input''s shape {tuple(input.shape)}")
    y = _normalise(input, tuple(range(input.ndim - len(shape), input.ndim)), eps)
    if weight is not None:
        y = ops.mul(y, weight)
    return y if bias is None else ops.add(y, bias)


def group_norm(input: Any, num_groups: int, weight: Any = None, bias: Any = None,  # noqa: A002
               eps: float = 1e-05) -> Any:
    """``input`` (``(N, C, ...)``) normalised over each group of ``C / num_groups``
    channels and the other dimensions, then scaled and shifted per channel."""
    tensor_arg(input, "nn.functional.group_norm")
    n, c = input.shape[0], input.shape[1]
    if c % num_groups:
        raise ValueError(f"mint.nn.functional.group_norm: the {c} channels of 'input' "
                         f"(shape {tuple(input.shape)}) do not split into {num_groups} groups")
    g = ops.reshape(input, (n, num_groups, -1))
    y = ops.reshape(_normalise(g, (2,), eps), tuple(input.shape))
    bshape = (c,) + (1,) * (input.ndim - 2)
    if weight is not None:
        y = ops.mul(y, ops.reshape(weight, bshape))
    return y if bias is None else ops.add(y, ops.reshape(bias, bshape))


def normalize(input: Any, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Any:  # noqa: A002
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``)."""
    norm = ops.vector_norm(input, p, dim, True)
    return ops.div(input, ops.clamp(norm, eps, None))


def one_hot(tensor: Any, num_classes: int = -1) -> Any:
    """The class indices ``tensor`` as one-hot rows of ``num_classes`` (one more than the
    largest index when -1), in ``tensor``'s integer dtype."""
    if num_classes == -1:
        num_classes = int(ops.amax(tensor).asnumpy()) + 1
    return ops.cast(ops.one_hot(tensor, num_classes, 1, 0), tensor.dtype)


def embedding(input: Any, weight: Any, padding_idx: int | None = None,  # noqa: A002
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False) -> Any:
    """The rows of ``weight`` at the indices ``input``."""
    if max_norm is not None:
        norms = ops.vector_norm(weight, norm_type, 1, True)
        weight = ops.mul(weight, ops.clamp(ops.div(max_norm, ops.add(norms, 1e-7)),
                                           None, 1.0))
    return ops.gather(weight, input, 0)


def flatten(input: Any, start_dim: int = 0, end_dim: int = -1) -> Any:  # noqa: A002
    """``input`` with dimensions ``start_dim`` .. ``end_dim`` merged."""
    return ops.flatten(input, start_dim, end_dim)


