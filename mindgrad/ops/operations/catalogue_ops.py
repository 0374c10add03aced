"""MindSpore's operator classes over the array, scatter, statistics and random functions
whose constructor arguments are not the function's trailing arguments (``ScatterUpdate``,
``InplaceAdd(indices)``, ``IndexAdd(axis)``, ``TopK(sorted)``, ``InTopK(k)``,
``RandomCategorical(dtype)``, ...). Each keeps its configuration and calls the function of
``mindgrad.ops``."""
from __future__ import annotations

from typing import Any

from ...core import dtype as mstype
from .. import functional as F
from .. import reshaping_functions as RF
from .. import scatter_functions as SF
from .. import sorting
from .. import tensor_extras
from .. import spatial_functions as SP
from .. import statistics_functions as ST
from ..primitive import Primitive


class StridedSlice(Primitive):
    """``StridedSlice(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
    shrink_axis_mask=0)(x, begin, end, strides)``."""

    def __init__(self, begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0,
                 new_axis_mask: int = 0, shrink_axis_mask: int = 0) -> None:
        super().__init__()
        self.begin_mask, self.end_mask, self.ellipsis_mask = begin_mask, end_mask, ellipsis_mask
        self.new_axis_mask, self.shrink_axis_mask = new_axis_mask, shrink_axis_mask

    def __call__(self, x: Any, begin: Any, end: Any, strides: Any) -> Any:
        return RF.strided_slice(x, begin, end, strides, self.begin_mask, self.end_mask,
                                self.ellipsis_mask, self.new_axis_mask, self.shrink_axis_mask)


class _Rows(Primitive):
    """``Name(use_locking)(input_x, indices, updates)``: the row scatters."""
    _fn: Any = None

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        self.use_locking = use_locking

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> Any:
        return type(self)._fn(input_x, indices, updates)


class ScatterUpdate(_Rows):
    """``ScatterUpdate()(input_x, indices, updates)``: rows replaced; a Parameter is
    updated."""
    _fn = staticmethod(SF.scatter_update)

    def __init__(self, use_locking: bool = True) -> None:
        super().__init__(use_locking)


class ScatterSub(_Rows):
    _fn = staticmethod(SF.scatter_sub)


class ScatterMul(_Rows):
    _fn = staticmethod(SF.scatter_mul)


class ScatterDiv(_Rows):
    _fn = staticmethod(SF.scatter_div)


class ScatterMax(_Rows):
    _fn = staticmethod(SF.scatter_max)


class ScatterMin(_Rows):
    _fn = staticmethod(SF.scatter_min)


class _RowUpdate(Primitive):
    """``Name(indices)(x, v)``: the inplace row updates."""
    _fn: Any = None

    def __init__(self, indices: Any) -> None:
        super().__init__()
        self.indices = indices

    def __call__(self, x: Any, v: Any) -> Any:
        return type(self)._fn(x, v, self.indices)


class InplaceAdd(_RowUpdate):
    _fn = staticmethod(SF.inplace_add)


class InplaceSub(_RowUpdate):
    _fn = staticmethod(SF.inplace_sub)


class InplaceUpdate(_RowUpdate):
    _fn = staticmethod(SF.inplace_update)


class IndexAdd(Primitive):
    """``IndexAdd(axis)(x, indices, y)``."""

    def __init__(self, axis: int, use_lock: bool = True, check_index_bound: bool = True) -> None:
        super().__init__()
        self.axis, self.use_lock, self.check_index_bound = axis, use_lock, check_index_bound

    def __call__(self, x: Any, indices: Any, y: Any) -> Any:
        return SF.index_add(x, indices, y, self.axis, self.use_lock, self.check_index_bound)


class InplaceIndexAdd(Primitive):
    """``InplaceIndexAdd(axis)(var, indices, updates)``."""

    def __init__(self, axis: int) -> None:
        super().__init__()
        self.axis = axis

    def __call__(self, var: Any, indices: Any, updates: Any) -> Any:
        return SF.inplace_index_add(var, indices, updates, self.axis)


class IndexFill(Primitive):
    """``IndexFill()(x, dim, index, value)``."""

    def __call__(self, x: Any, dim: Any, index: Any, value: Any) -> Any:
        return RF.index_fill(x, dim, index, value)


class UniqueConsecutive(Primitive):
    """``UniqueConsecutive(return_inverse, return_counts, dim)(x)``: always the triple
    ``(output, inverse, counts)``."""

    def __init__(self, return_inverse: bool = False, return_counts: bool = False,
                 dim: Any = None) -> None:
        super().__init__()
        self.return_inverse, self.return_counts, self.dim = return_inverse, return_counts, dim

    def __call__(self, x: Any) -> Any:
        return RF.unique_consecutive(x, True, True, self.dim)


class UniqueWithPad(Primitive):
    """``UniqueWithPad()(x, pad_num)``."""

    def __call__(self, x: Any, pad_num: Any) -> Any:
        return RF.unique_with_pad(x, pad_num)


class ChannelShuffle(Primitive):
    """``ChannelShuffle(group)(x)``."""

    def __init__(self, group: int) -> None:
        super().__init__()
        self.group = group

    def __call__(self, x: Any) -> Any:
        return RF.channel_shuffle(x, self.group)


class ReverseSequence(Primitive):
    """``ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths)``."""

    def __init__(self, seq_dim: int, batch_dim: int = 0) -> None:
        super().__init__()
        self.seq_dim, self.batch_dim = seq_dim, batch_dim

    def __call__(self, x: Any, seq_lengths: Any) -> Any:
        return RF.reverse_sequence(x, seq_lengths, self.seq_dim, self.batch_dim)


class TopK(Primitive):
    """``TopK(sorted=True)(input_x, k)``."""

    def __init__(self, sorted: bool = True) -> None:  # noqa: A002  (MindSpore's name)
        super().__init__()
        self.sorted = sorted

    def __call__(self, input_x: Any, k: int) -> Any:
        return ST.top_k(input_x, k, self.sorted)


class InTopK(Primitive):
    """``InTopK(k)(x1, x2)``."""

    def __init__(self, k: int) -> None:
        super().__init__()
        self.k = k

    def __call__(self, x1: Any, x2: Any) -> Any:
        return ST.intopk(x1, x2, self.k)


class Bucketize(Primitive):
    """``Bucketize(boundaries)(input)``."""

    def __init__(self, boundaries: Any) -> None:
        super().__init__()
        self.boundaries = list(boundaries) if isinstance(boundaries, tuple) else boundaries

    def __call__(self, input: Any) -> Any:  # noqa: A002
        return ST.bucketize(input, self.boundaries)


class RandomCategorical(Primitive):
    """``RandomCategorical(dtype=int64)(logits, num_sample, seed=0)``."""

    def __init__(self, dtype: Any = mstype.int64) -> None:
        super().__init__()
        self.dtype = dtype

    def __call__(self, logits: Any, num_sample: int, seed: int = 0) -> Any:
        return ST.random_categorical(logits, num_sample, seed, self.dtype)


class StandardLaplace(Primitive):
    """``StandardLaplace(seed=0, seed2=0)(shape)``."""

    def __init__(self, seed: int = 0, seed2: int = 0) -> None:
        super().__init__()
        self.seed, self.seed2 = seed, seed2

    def __call__(self, shape: Any) -> Any:
        return ST.standard_laplace(shape, self.seed or None)


class RandomGamma(StandardLaplace):
    """``RandomGamma(seed=0, seed2=0)(shape, alpha)``."""

    def __call__(self, shape: Any, alpha: Any) -> Any:  # type: ignore[override]
        return ST.random_gamma(shape, alpha, self.seed or None)


class RandomPoisson(Primitive):
    """``RandomPoisson(seed=0, seed2=0, dtype=int64)(shape, rate)``."""

    def __init__(self, seed: int = 0, seed2: int = 0, dtype: Any = mstype.int64) -> None:
        super().__init__()
        self.seed, self.seed2, self.dtype = seed, seed2, dtype

    def __call__(self, shape: Any, rate: Any) -> Any:
        return ST.random_poisson(shape, rate, self.seed or None, self.dtype)


class MultinomialWithReplacement(Primitive):
    """``MultinomialWithReplacement(numsamples, replacement=False)(x, seed, offset)``."""

    def __init__(self, numsamples: int, replacement: bool = False) -> None:
        super().__init__()
        self.numsamples, self.replacement = numsamples, replacement

    def __call__(self, x: Any, seed: Any, offset: Any) -> Any:
        return ST.multinomial_with_replacement(x, seed, offset, self.numsamples,
                                               self.replacement)


class MirrorPad(Primitive):
    """``MirrorPad(mode='REFLECT')(input_x, paddings)``."""

    def __init__(self, mode: str = "REFLECT") -> None:
        super().__init__()
        self.mode = mode

    def __call__(self, input_x: Any, paddings: Any) -> Any:
        return SP.mirror_pad(input_x, paddings, self.mode)


class SpaceToBatchND(Primitive):
    """``SpaceToBatchND(block_shape, paddings)(input_x)``."""

    def __init__(self, block_shape: Any, paddings: Any) -> None:
        super().__init__()
        self.block_shape, self.paddings = block_shape, paddings

    def __call__(self, input_x: Any) -> Any:
        block = self.block_shape
        if isinstance(block, int) and not isinstance(block, bool):
            block = [block] * len(self.paddings) if isinstance(self.paddings, (list, tuple)) \
                else block
        return SP.space_to_batch_nd(input_x, block, self.paddings)


class BatchToSpaceND(Primitive):
    """``BatchToSpaceND(block_shape, crops)(input_x)``."""

    def __init__(self, block_shape: Any, crops: Any) -> None:
        super().__init__()
        self.block_shape, self.crops = block_shape, crops

    def __call__(self, input_x: Any) -> Any:
        block = self.block_shape
        if isinstance(block, int) and not isinstance(block, bool):
            block = [block] * len(self.crops) if isinstance(self.crops, (list, tuple)) else block
        return SP.batch_to_space_nd(input_x, block, self.crops)


class Col2Im(Primitive):
    """``Col2Im(kernel_size, dilation=1, padding=0, stride=1)(x, output_size)``."""

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def __call__(self, x: Any, output_size: Any) -> Any:
        return SP.col2im(x, output_size, self.kernel_size, self.dilation, self.padding,
                         self.stride)


class Padding(Primitive):
    """``Padding(pad_dim_size=8)(x)``."""

    def __init__(self, pad_dim_size: int = 8) -> None:
        super().__init__()
        self.pad_dim_size = pad_dim_size

    def __call__(self, x: Any) -> Any:
        return SP.padding(x, self.pad_dim_size)


class Identity(Primitive):
    """``Identity()(x)``: a copy of ``x``."""

    def __call__(self, x: Any) -> Any:
        return RF.deepcopy(x)


class Cummin(Primitive):
    """``Cummin(axis)(input)``: ``(values, indices)`` of the running minimum."""

    def __init__(self, axis: int) -> None:
        super().__init__()
        self.axis = axis

    def __call__(self, input: Any) -> Any:  # noqa: A002
        return sorting.cummin(input, self.axis)


class Cummax(Cummin):
    """``Cummax(axis)(input)``: ``(values, indices)`` of the running maximum."""

    def __call__(self, input: Any) -> Any:  # noqa: A002
        return sorting.cummax(input, self.axis)


class Histogram(Primitive):
    """``Histogram(bins=100, min=0.0, max=0.0)(x)``: ``ops.histc``."""

    def __init__(self, bins: int = 100, min: float = 0.0, max: float = 0.0) -> None:  # noqa: A002
        super().__init__()
        self.bins, self.min, self.max = bins, min, max

    def __call__(self, x: Any) -> Any:
        return ST.histc(x, self.bins, self.min, self.max)


class Bincount(Primitive):
    """``Bincount()(array, size, weights)``: ``size`` bins (the values past it are not
    counted), summing ``weights``."""

    def __call__(self, array: Any, size: Any, weights: Any) -> Any:
        if not F._is_int(size):
            t = F._int_tensor(size, "Bincount", "size")
            if t.size != 1:
                raise ValueError(f"For 'Bincount', 'size' must hold one integer, but got shape "
                                 f"{list(t.shape)}.")
            size = t.asnumpy().item()
        n = int(size)
        if n < 0:
            raise ValueError(f"For 'Bincount', 'size' must be non-negative, but got {n}.")
        x = F._int_tensor(array, "Bincount", "array")
        w = F._tensor(weights, "Bincount", "weights")
        if tuple(w.shape) != tuple(x.shape):
            raise ValueError(f"For 'Bincount', 'weights' must have the shape of 'array' "
                             f"{list(x.shape)}, but got {list(w.shape)}.")
        keep = F.less(x, n)
        counted = ST.bincount(F.select(keep, x, F.zeros_like(x)),
                              F.select(keep, w, F.zeros_like(w)), n)
        return counted[:n]


class Bernoulli(Primitive):
    """``Bernoulli(seed=-1, offset=0)(x, p)``."""

    def __init__(self, seed: int = -1, offset: int = 0) -> None:
        super().__init__()
        self.seed, self.offset = seed, offset

    def __call__(self, x: Any, p: Any) -> Any:
        return ST.bernoulli(x, p, None if self.seed == -1 else self.seed)


class RandomChoiceWithMask(Primitive):
    """``RandomChoiceWithMask(count=256, seed=0, seed2=0)(input_x)``."""

    def __init__(self, count: int = 256, seed: int = 0, seed2: int = 0) -> None:
        super().__init__()
        self.count, self.seed, self.seed2 = count, seed, seed2

    def __call__(self, input_x: Any) -> Any:
        return ST.choice_with_mask(input_x, self.count, self.seed or None)


class UniformCandidateSampler(Primitive):
    """``UniformCandidateSampler(num_true, num_sampled, unique, range_max, seed=0,
    remove_accidental_hits=False)(true_classes)``."""

    def __init__(self, num_true: int, num_sampled: int, unique: bool, range_max: int,
                 seed: int = 0, remove_accidental_hits: bool = False) -> None:
        super().__init__()
        self.num_true, self.num_sampled, self.unique = num_true, num_sampled, unique
        self.range_max, self.seed = range_max, seed
        self.remove_accidental_hits = remove_accidental_hits

    def __call__(self, true_classes: Any) -> Any:
        return ST.uniform_candidate_sampler(true_classes, self.num_true, self.num_sampled,
                                            self.unique, self.range_max, self.seed,
                                            self.remove_accidental_hits)


class LogUniformCandidateSampler(Primitive):
    """``LogUniformCandidateSampler(num_true=1, num_sampled=5, unique=True, range_max=5,
    seed=0)(true_classes)``."""

    def __init__(self, num_true: int = 1, num_sampled: int = 5, unique: bool = True,
                 range_max: int = 5, seed: int = 0) -> None:
        super().__init__()
        self.num_true, self.num_sampled, self.unique = num_true, num_sampled, unique
        self.range_max, self.seed = range_max, seed

    def __call__(self, true_classes: Any) -> Any:
        return ST.log_uniform_candidate_sampler(true_classes, self.num_true, self.num_sampled,
                                                self.unique, self.range_max, self.seed)


@F._composite(name="MaskedScatter")
def _masked_scatter(x: Any, mask: Any, updates: Any) -> Any:
    return tensor_extras.masked_scatter(F._tensor(x, "MaskedScatter", "x"), mask, updates)


class MaskedScatter(Primitive):
    """``MaskedScatter()(x, mask, updates)``: ``Tensor.masked_scatter``."""

    def __call__(self, x: Any, mask: Any, updates: Any) -> Any:
        return _masked_scatter(x, mask, updates)


__all__ = ["MaskedScatter", "UniformCandidateSampler", "LogUniformCandidateSampler",
           "MirrorPad", "SpaceToBatchND", "BatchToSpaceND", "Col2Im", "Padding", "Identity",
           "Cummin", "Cummax", "Histogram", "Bincount", "Bernoulli", "RandomChoiceWithMask",
           "StridedSlice", "ScatterUpdate", "ScatterSub", "ScatterMul", "ScatterDiv",
           "ScatterMax", "ScatterMin", "InplaceAdd", "InplaceSub", "InplaceUpdate", "IndexAdd",
           "InplaceIndexAdd", "IndexFill", "UniqueConsecutive", "UniqueWithPad",
           "ChannelShuffle", "ReverseSequence", "TopK", "InTopK", "Bucketize",
           "RandomCategorical", "StandardLaplace", "RandomGamma", "RandomPoisson",
           "MultinomialWithReplacement"]
