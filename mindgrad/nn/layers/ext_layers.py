"""Layers of ``mindspore.nn`` with PyTorch-style arguments: ``Linear``, ``DropoutExt``,
``Dropout2dExt``, ``LogSoftmaxExt``, ``EmbeddingExt`` and ``ChannelShuffle``, each a call of
existing operators (``ops.dense``, ``ops.dropout``, ``ops.dropout2d``, ``ops.log_softmax``,
``ops.gather``, ``ops.channel_shuffle``)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...common.initializer import HeUniform, Normal, Uniform, initializer
from ...common.parameter import Parameter
from ...core import dtype as mstype
from ...core.tensor import Tensor
from ... import ops
from ...ops import functional as F
from ..cell import Cell


def _positive_int(value: Any, name: str, who: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{who}', '{name}' must be a positive int, but got {value!r}.")
    return value


def _typed(value: Any, name: str, types: tuple, who: str) -> Any:
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise TypeError(f"For '{who}', the type of '{name}' must be "
                        f"{' or '.join(t.__name__ for t in types)}, but got "
                        f"{type(value).__name__}.")
    return value


class Linear(Cell):
    """``x @ weight.T + bias`` over the last axis of ``x`` (any rank >= 1); ``weight`` has
    shape ``(out_features, in_features)``. The initial values default to MindSpore's
    ``HeUniform(sqrt(5))`` and ``Uniform(1 / sqrt(in_features))``."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 weight_init: Any = None, bias_init: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in_features = _positive_int(in_features, "in_features", "Linear")
        self.out_features = _positive_int(out_features, "out_features", "Linear")
        self.has_bias = _typed(bias, "has_bias", (bool,), "Linear")
        dtype = mstype.float32 if dtype is None else dtype
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != (out_features,
                                                                            in_features):
            raise ValueError(f"For 'Linear', 'weight_init' must have shape (out_features, "
                             f"in_features) = ({out_features}, {in_features}), but got "
                             f"{tuple(weight_init.shape)}.")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_features, in_features], dtype),
                                name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_features,):
                raise ValueError(f"For 'Linear', 'bias_init' must have shape (out_features,) = "
                                 f"({out_features},), but got {tuple(bias_init.shape)}.")
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(in_features))
            self.bias = Parameter(initializer(bias_init, [out_features], dtype), name="bias")

    def construct(self, x: Tensor) -> Tensor:
        if x.shape[-1:] != (self.in_features,):
            raise ValueError(f"For 'Linear', the last dimension of the input must be "
                             f"in_features={self.in_features}, but got input shape "
                             f"{list(x.shape)}.")
        return ops.dense(x, self.weight, self.bias)

    def extend_repr(self) -> str:
        s = f"input_features={self.in_features}, output_features={self.out_features}"
        return s + (f", has_bias={self.has_bias}" if self.has_bias else "")


class _DropoutP(Cell):
    """A dropout with probability ``p`` of zeroing, active in training mode only.
    ``inplace``: a Parameter input also takes the result (mindgrad's Tensors are values;
    only Parameters are updated in place)."""

    who = ""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise ValueError(f"For '{self.who}', 'p' must be a number in range [0, 1], but got "
                             f"{p!r}.")
        self.p, self.inplace = p, inplace

    def _drop(self, x: Tensor) -> Tensor:
        raise NotImplementedError

    def construct(self, input: Tensor) -> Tensor:  # noqa: A002
        if not self.training or self.p == 0:
            return input
        out = self._drop(input)
        if self.inplace and isinstance(input, Parameter):
            input.set_data(out)
        return out


class DropoutExt(_DropoutP):
    """Each element zeroed with probability ``p`` (the rest scaled by ``1 / (1 - p)``) in
    training mode; the input itself otherwise (``ops.dropout``)."""

    who = "DropoutExt"

    def _drop(self, x: Tensor) -> Tensor:
        return ops.dropout(x, self.p, True)


class Dropout2dExt(_DropoutP):
    """Whole channels of ``(N, C, H, W)`` inputs zeroed with probability ``p`` (the rest
    scaled by ``1 / (1 - p)``) in training mode (``ops.dropout2d``)."""

    who = "Dropout2dExt"

    def _drop(self, x: Tensor) -> Tensor:
        return ops.dropout2d(x, self.p, True)


class LogSoftmaxExt(Cell):
    """``log_softmax`` along ``dim``; with ``dim=None`` MindSpore's legacy choice: axis 0
    for inputs of rank 0, 1 or 3, axis 1 otherwise."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        if dim is not None:
            _typed(dim, "dim", (int,), "LogSoftmaxExt")
        self.dim = dim

    def construct(self, x: Tensor) -> Tensor:
        dim = self.dim
        if dim is None:
            dim = 0 if x.ndim in (0, 1, 3) else 1
        return ops.log_softmax(x, dim)


class EmbeddingExt(Cell):
    """Rows of ``weight`` (``(num_embeddings, embedding_dim)``, initially standard normal
    with the ``padding_idx`` row zero) picked by integer indices of any shape.

    ``padding_idx``: that row gets no gradient. ``max_norm``: the rows looked up whose
    ``norm_type``-norm exceeds it are first rescaled in ``weight`` itself to that norm.
    ``scale_grad_by_freq``: each row's gradient is divided by how often the row occurs in
    the indices of the call."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0,
                 scale_grad_by_freq: bool = False, sparse: bool = False, _weight: Any = None,
                 _freeze: bool = False, dtype: Any = None) -> None:
        super().__init__()
        who = "EmbeddingExt"
        if _typed(sparse, "sparse", (bool,), who):
            raise ValueError("For 'EmbeddingExt', 'sparse' must be False: sparse gradients are "
                             "not supported.")
        self.num_embeddings = _typed(num_embeddings, "num_embeddings", (int,), who)
        self.embedding_dim = _typed(embedding_dim, "embedding_dim", (int,), who)
        self.dtype = mstype.float32 if dtype is None else dtype
        if padding_idx is not None:
            _typed(padding_idx, "padding_idx", (int,), who)
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"For 'EmbeddingExt', 'padding_idx' must be in range "
                                 f"[{-num_embeddings}, {num_embeddings}), but got {padding_idx}.")
        self.padding_idx = padding_idx
        if _weight is None:
            table = initializer(Normal(1.0, 0.0), [num_embeddings, embedding_dim], self.dtype)
            if padding_idx is not None:
                data = table.asnumpy().copy()
                data[padding_idx] = 0
                table = Tensor(data)
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError(f"For 'EmbeddingExt', the shape of '_weight' must be "
                                 f"(num_embeddings, embedding_dim) = ({num_embeddings}, "
                                 f"{embedding_dim}), but got {tuple(_weight.shape)}.")
            table = _weight
        self.weight = Parameter(table, name="weight", requires_grad=not _freeze)
        self.max_norm = None if max_norm is None else _typed(max_norm, "max_norm", (float,), who)
        self.norm_type = None if norm_type is None else _typed(norm_type, "norm_type", (float,),
                                                                 who)
        self.scale_grad_by_freq = _typed(scale_grad_by_freq, "scale_grad_by_freq", (bool,), who)

    def _renorm(self, flat: np.ndarray) -> None:
        """Rescale, in ``weight``, the looked-up rows whose norm exceeds ``max_norm``."""
        table = self.weight.asnumpy().copy()
        rows = np.unique(flat)
        norms = np.linalg.norm(table[rows].astype(np.float64), ord=self.norm_type, axis=1)
        big = norms > self.max_norm
        if big.any():
            scale = self.max_norm / (norms[big] + 1e-7)
            table[rows[big]] = (table[rows[big]] * scale[:, None]).astype(table.dtype)
            self.weight.set_data(Tensor(table))

    def construct(self, input: Tensor) -> Tensor:  # noqa: A002
        if not isinstance(input, Tensor) or input.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'EmbeddingExt', 'input' must be an int32 or int64 Tensor, "
                            f"but got {getattr(input, 'dtype', type(input).__name__)}.")
        idx = input.asnumpy()
        if idx.size and (idx.min() < 0 or idx.max() >= self.num_embeddings):
            raise ValueError(f"For 'EmbeddingExt', the indices must be in range [0, "
                             f"{self.num_embeddings}), but got values from {idx.min()} to "
                             f"{idx.max()}.")
        if self.max_norm is not None:
            self._renorm(idx.reshape(-1))
        out = ops.gather(self.weight, input, 0)
        scale = None
        if self.scale_grad_by_freq:
            counts = np.bincount(idx.reshape(-1), minlength=self.num_embeddings)
            scale = 1.0 / counts[idx]
        if self.padding_idx is not None:
            pad = self.padding_idx % self.num_embeddings
            keep = (idx != pad).astype(np.float64)
            scale = keep if scale is None else scale * keep
        if scale is not None:
            # the value stays the row itself; only the gradient is scaled
            fixed = F.stop_gradient(out)
            factor = Tensor(scale[..., None].astype(mstype.dtype_to_nptype(self.weight.dtype)))
            out = F.add(fixed, F.mul(F.sub(out, fixed), factor))
        return out

    def extend_repr(self) -> str:
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"padding_idx={self.padding_idx}, max_norm={self.max_norm}, "
                f"norm_type={self.norm_type}, scale_grad_by_freq={self.scale_grad_by_freq}, "
                f"dtype={self.dtype}")


class ChannelShuffle(Cell):
    """The channels (axis 1) of ``(N, C, ...)`` inputs split into ``groups`` groups and
    interleaved (``ops.channel_shuffle``)."""

    def __init__(self, groups: int) -> None:
        super().__init__()
        if isinstance(groups, bool) or not isinstance(groups, int):
            raise TypeError(f"For 'ChannelShuffle', the type of 'groups' must be int, but got "
                            f"{type(groups).__name__}.")
        if groups < 1:
            raise ValueError(f"For 'ChannelShuffle', 'groups' must be larger than 0, but got "
                             f"{groups}.")
        self.groups = groups

    def construct(self, x: Tensor) -> Tensor:
        return ops.channel_shuffle(x, self.groups)


__all__ = ["Linear", "DropoutExt", "Dropout2dExt", "LogSoftmaxExt", "EmbeddingExt",
           "ChannelShuffle"]
