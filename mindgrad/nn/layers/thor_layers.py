"""The layers of the THOR second-order optimizer: ``nn.DenseThor``, ``nn.EmbeddingThor`` and
``nn.EmbeddingLookupThor``. Each computes what ``nn.Dense``, ``nn.Embedding`` or
``nn.EmbeddingLookup`` computes and, as a side effect, keeps two statistics in Parameters
that are not trained: ``matrix_a``, from the layer's input on every forward call, and
``matrix_g``, from the gradient of the layer's output in every backward pass (an
``InsertGradientOf`` on that output). They hold the numbers MindSpore's CPU path computes,
normalizers included, so that checkpoints interchange.

The layers work with any optimizer; the ``thor`` attribute (True) turns the statistics off
when set to False. In GRAPH mode, as in MindSpore, a compiled step keeps the value of
``thor`` it was compiled with; a call that compiles anew (other input shapes) reads it
again."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...common.parameter import Parameter
from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...ops import functional as F
from ...ops.hooks import InsertGradientOf
from .._helpers import one_hot_mask
from ..cell import Cell
from .basic import Dense, check_positive_int
from .embedding import Embedding
from .embedding_lookup import EmbeddingLookup


def _statistic(shape: tuple, eye: bool) -> Tensor:
    # float32 whatever the layer's dtype, as in MindSpore
    return Tensor(np.eye(shape[0], dtype=np.float32) if eye else np.zeros(shape, np.float32))


def _save(param: Parameter, value: Tensor) -> None:
    """Store ``value`` (no gradient flows through it) in ``param``, in ``param``'s dtype."""
    param.set_data(F.cast(F.stop_gradient(value), param.dtype))


def _gram(x: Tensor, normalizer: int) -> Tensor:
    """``x.T @ x / normalizer`` of a 2-D ``x``."""
    return F.mul(F.matmul(x, x, transpose_a=True), 1.0 / normalizer)


def _id_counts(cell: Cell, ids: Tensor, who: str) -> Tensor:
    """How often each of the ``vocab_size`` ids occurs in ``ids`` (float32)."""
    mask = one_hot_mask(F.reshape(ids, (-1,)), cell.vocab_size, -1, np.float32, who,
                        "the input ids", f" (vocab_size {cell.vocab_size})")
    return F.reduce_sum(mask, 0)


class _ThorStatistics:
    """The two statistics Parameters and the hook that fills ``matrix_g`` (mixed into each
    layer after its base class has made its own Parameters)."""

    def _init_thor(self, a_shape: tuple, g_shape: tuple, eye: bool) -> None:
        self.thor = True
        self.matrix_a = Parameter(_statistic(a_shape, eye), name="matrix_a", requires_grad=False)
        self.matrix_g = Parameter(_statistic(g_shape, eye), name="matrix_g", requires_grad=False)
        self.getG = InsertGradientOf(self.save_gradient)

    def save_gradient(self, dout: Tensor) -> Tensor:
        """Store the statistic of the output gradient ``dout`` in ``matrix_g`` and pass
        ``dout`` on unchanged."""
        _save(self.matrix_g, self._gradient_statistic(dout))
        return dout


class DenseThor(_ThorStatistics, Dense):
    """``nn.Dense`` on a 2-D input ``(batch, in_channels)`` that keeps THOR's statistics:

    - ``matrix_a`` ``(in_channels, in_channels)``: ``x.T @ x / in_channels`` on each forward
      call (MindSpore's CPU path divides by ``in_channels``, not by the batch);
    - ``matrix_g`` ``(out_channels, out_channels)``: ``d.T @ d / batch`` in each backward
      pass, ``d`` the gradient of ``x @ weight.T`` (before the bias and activation).

    Both start as identity matrices. The defaults of the initializers are MindSpore's
    ('normal' weight, 'zeros' bias)."""

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal",
                 bias_init: Any = "zeros", has_bias: bool = True,
                 activation: Any = None) -> None:
        # checked here too, so that the errors name DenseThor
        check_positive_int(in_channels, "in_channels", "DenseThor")
        check_positive_int(out_channels, "out_channels", "DenseThor")
        if not isinstance(has_bias, bool):
            raise TypeError(f"For 'DenseThor', 'has_bias' must be a bool, but got "
                            f"{type(has_bias).__name__}.")
        inits = [("weight_init", weight_init, (out_channels, in_channels))]
        if has_bias:
            inits.append(("bias_init", bias_init, (out_channels,)))
        for name, init, shape in inits:
            if isinstance(init, Tensor) and tuple(init.shape) != shape:
                raise ValueError(f"For 'DenseThor', a Tensor '{name}' must have shape "
                                 f"{list(shape)} (from in_channels={in_channels}, "
                                 f"out_channels={out_channels}), but got "
                                 f"{list(init.shape)}.")
        super().__init__(in_channels, out_channels, weight_init, bias_init, has_bias, activation)
        self._init_thor((self.in_channels,) * 2, (self.out_channels,) * 2, eye=True)

    def _project(self, x: Tensor) -> Tensor:
        if x.ndim != 2:  # MindSpore's DenseThor is a 2-D MatMul
            raise ValueError(f"For 'DenseThor', the input must be 2-D (batch, in_channels), "
                             f"but got shape {list(x.shape)}.")
        if not self.thor:
            return super()._project(x)
        _save(self.matrix_a, _gram(x, self.in_channels))
        return self.getG(super()._project(x))

    def _gradient_statistic(self, dout: Tensor) -> Tensor:
        return _gram(dout, dout.shape[0])

    def extend_repr(self) -> str:
        # as nn.Dense's, less the activation (MindSpore's DenseThor names it only as a child)
        s = super().extend_repr()
        return s.split(", activation=")[0]


class EmbeddingThor(_ThorStatistics, Embedding):
    """``nn.Embedding`` (float32 ``dtype`` by default) that keeps THOR's statistics when it
    gathers rows (``use_one_hot=False``):

    - ``matrix_a`` ``(vocab_size,)``: how often each id occurs in the input;
    - ``matrix_g`` ``(embedding_size, embedding_size)``: ``d.T @ d / n`` in each backward
      pass, ``d`` the ``(n, embedding_size)`` gradient of the looked-up rows of the ``n``
      ids.

    Both start as zeros. With ``use_one_hot`` the layer is ``nn.Embedding``'s one-hot
    product and the statistics stay as they are."""

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table: Any = "normal", dtype: Any = mstype.float32,
                 padding_idx: int | None = None) -> None:
        check_positive_int(vocab_size, "vocab_size", "EmbeddingThor")
        check_positive_int(embedding_size, "embedding_size", "EmbeddingThor")
        if padding_idx is not None:  # MindSpore's range: no negative index
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, int) \
                    or padding_idx < 0:
                raise ValueError(f"For 'EmbeddingThor', 'padding_idx' must be an int in range "
                                 f"[0, {vocab_size}), but got {padding_idx!r}.")
            if padding_idx >= vocab_size:
                raise IndexError(f"For 'EmbeddingThor', 'padding_idx' {padding_idx} is out of "
                                 f"range for vocab_size {vocab_size}.")
        super().__init__(vocab_size, embedding_size, use_one_hot, embedding_table, dtype,
                         padding_idx)
        self._init_thor((self.vocab_size,), (self.embedding_size,) * 2, eye=False)

    def construct(self, ids: Tensor) -> Tensor:
        out = super().construct(ids)
        if self.use_one_hot or not self.thor:
            return out
        _save(self.matrix_a, _id_counts(self, ids, "EmbeddingThor"))
        rows = self.getG(F.reshape(out, (-1, self.embedding_size)))
        return F.reshape(rows, tuple(out.shape))

    def _gradient_statistic(self, dout: Tensor) -> Tensor:
        return _gram(dout, dout.shape[0])


class EmbeddingLookupThor(_ThorStatistics, EmbeddingLookup):
    """``nn.EmbeddingLookup`` that keeps THOR's statistics on the 'DEVICE' target (on the
    default 'CPU' target it is ``nn.EmbeddingLookup`` and they stay zeros):

    - ``matrix_a`` ``(vocab_size,)``: how often each index occurs in the input;
    - ``matrix_g`` ``(embedding_size, embedding_size)``: ``d.T @ d / indices.shape[0]``
      rounded to float16, in each backward pass, ``d`` the gradient of the looked-up rows
      (before any ``max_norm`` clipping) as ``(-1, embedding_size)``.

    The table is float16 unless ``param_init`` is a Tensor (which keeps its dtype), as in
    MindSpore."""

    who = "EmbeddingLookupThor"

    def __init__(self, vocab_size: int, embedding_size: int, param_init: Any = "normal",
                 target: str = "CPU", slice_mode: str = "batch_slice",
                 manual_shapes: Any = None, max_norm: float | None = None,
                 sparse: bool = True) -> None:
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode,
                         manual_shapes, max_norm, sparse, dtype=mstype.float16)
        self._init_thor((self.vocab_size,), (self.embedding_size,) * 2, eye=False)

    def _rows(self, indices: Tensor) -> Tensor:
        if self.target != "DEVICE" or not self.thor:
            return super()._rows(indices)
        if indices.ndim == 0:
            raise ValueError("For 'EmbeddingLookupThor', the indices must have at least one "
                             "dimension on the 'DEVICE' target, but got a 0-D Tensor.")
        _save(self.matrix_a, _id_counts(self, indices, self.who))
        return self.getG(super()._rows(indices))

    def _gradient_statistic(self, dout: Tensor) -> Tensor:
        # MindSpore divides by the first dimension of the indices and rounds to float16
        flat = F.reshape(dout, (-1, self.embedding_size))
        return F.cast(_gram(flat, dout.shape[0]), mstype.float16)


__all__ = ["DenseThor", "EmbeddingThor", "EmbeddingLookupThor"]
