"""``mindspore.mint``'s shape, joining, indexing and sorting functions (``cat``, ``stack``,
``reshape``, ``permute``, ``gather``, ``sort``, ``topk`` ...) with torch-style ``dim``
arguments, each composed of mindgrad operators (so differentiable where the values come
from floating inputs)."""
from __future__ import annotations

from typing import Any, Sequence

from .. import ops
from ._utils import tensor_arg

__all__ = ["cat", "concat", "stack", "hstack", "dstack", "split", "chunk", "unbind",
           "squeeze", "unsqueeze", "flatten", "reshape", "permute", "transpose", "swapaxes",
           "t", "tile", "repeat_interleave", "roll", "flip", "narrow", "broadcast_to",
           "gather", "index_select", "scatter", "scatter_add", "take", "masked_select",
           "nonzero", "select", "sort", "argsort", "topk", "tril", "triu", "diag",
           "meshgrid", "einsum", "clone", "cross", "diff", "cdist", "searchsorted"]


def cat(tensors: Sequence[Any], dim: int = 0) -> Any:
    """``tensors`` joined along the existing dimension ``dim``."""
    return ops.cat(tuple(tensors), dim)


def concat(tensors: Sequence[Any], dim: int = 0) -> Any:
    """The same as ``cat``."""
    return ops.cat(tuple(tensors), dim)


def stack(tensors: Sequence[Any], dim: int = 0) -> Any:
    """``tensors`` (all of one shape) joined along a new dimension ``dim``."""
    return ops.stack(tuple(tensors), dim)


def hstack(tensors: Sequence[Any]) -> Any:
    """``tensors`` joined column-wise (along dimension 1; 1-D tensors along 0)."""
    return ops.hstack(tuple(tensors))


def dstack(tensors: Sequence[Any]) -> Any:
    """``tensors`` joined depth-wise (along dimension 2, after making them 3-D)."""
    return ops.dstack(tuple(tensors))


def split(tensor: Any, split_size_or_sections: Any, dim: int = 0) -> tuple:
    """``tensor`` cut along ``dim`` into pieces of one size or of the listed sizes."""
    return ops.split(tensor, split_size_or_sections, dim)


def chunk(input: Any, chunks: int, dim: int = 0) -> tuple:  # noqa: A002
    """``input`` cut along ``dim`` into ``chunks`` pieces (the last may be smaller)."""
    return ops.chunk(input, chunks, dim)


def unbind(input: Any, dim: int = 0) -> tuple:  # noqa: A002
    """The slices of ``input`` along ``dim``, that dimension removed."""
    return ops.unbind(input, dim)


def squeeze(input: Any, dim: Any = None) -> Any:  # noqa: A002
    """``input`` without its size-1 dimensions (only those in ``dim`` when given)."""
    tensor_arg(input, "squeeze")
    if isinstance(dim, list):
        dim = tuple(dim)
    if dim is not None:
        # torch semantics: a named dimension that is not of size 1 is left alone
        dims = dim if isinstance(dim, tuple) else (dim,)
        dim = tuple(d for d in dims if input.shape[d] == 1)
        if not dim:
            return input
    return ops.squeeze(input, dim)


def unsqueeze(input: Any, dim: int) -> Any:  # noqa: A002
    """``input`` with a new size-1 dimension at ``dim``."""
    return ops.unsqueeze(input, dim)


def flatten(input: Any, start_dim: int = 0, end_dim: int = -1) -> Any:  # noqa: A002
    """``input`` with dimensions ``start_dim`` .. ``end_dim`` merged into one."""
    return ops.flatten(input, start_dim, end_dim)


def reshape(input: Any, shape: Any) -> Any:  # noqa: A002
    """``input``'s elements in the shape ``shape`` (one entry may be -1)."""
    return ops.reshape(input, tuple(shape))


def permute(input: Any, dims: Sequence[int]) -> Any:  # noqa: A002
    """``input`` with its dimensions reordered as ``dims``."""
    return ops.permute(input, tuple(dims))


def transpose(input: Any, dim0: int, dim1: int) -> Any:  # noqa: A002
    """``input`` with dimensions ``dim0`` and ``dim1`` exchanged."""
    return ops.swapaxes(input, dim0, dim1)


def swapaxes(input: Any, axis0: int, axis1: int) -> Any:  # noqa: A002
    """The same as ``transpose``."""
    return ops.swapaxes(input, axis0, axis1)


def t(input: Any) -> Any:  # noqa: A002
    """The transpose of a matrix (a tensor of at most 2 dimensions is returned as is when
    it has fewer than 2)."""
    tensor_arg(input, "t")
    if input.ndim > 2:
        raise ValueError(f"mint.t: 'input' must have at most 2 dimensions, got shape "
                         f"{tuple(input.shape)}")
    return input if input.ndim < 2 else ops.swapaxes(input, 0, 1)


def tile(input: Any, dims: Sequence[int]) -> Any:  # noqa: A002
    """``input`` repeated ``dims[i]`` times along each dimension."""
    return ops.tile(input, tuple(dims))


def repeat_interleave(input: Any, repeats: Any, dim: int | None = None, *,  # noqa: A002
                      output_size: int | None = None) -> Any:
    """Each element of ``input`` repeated ``repeats`` times along ``dim`` (of the
    flattened tensor when None)."""
    return ops.repeat_interleave(input, repeats, dim)


def roll(input: Any, shifts: Any, dims: Any = None) -> Any:  # noqa: A002
    """``input`` rotated by ``shifts`` along ``dims`` (of the flattened tensor when None)."""
    return ops.roll(input, shifts, dims)


def flip(input: Any, dims: Sequence[int]) -> Any:  # noqa: A002
    """``input`` with the order of its elements reversed along ``dims``."""
    return ops.flip(input, dims)


def narrow(input: Any, dim: int, start: int, length: int) -> Any:  # noqa: A002
    """The ``length`` elements of ``input`` from ``start`` along ``dim``."""
    return ops.narrow(input, dim, start, length)


def broadcast_to(input: Any, shape: Sequence[int]) -> Any:  # noqa: A002
    """``input`` broadcast to ``shape``."""
    return ops.broadcast_to(input, tuple(shape))


def gather(input: Any, dim: int, index: Any) -> Any:  # noqa: A002
    """``out[i][j] = input[index[i][j]][j]`` for ``dim`` 0 (and likewise for others)."""
    return ops.gather_elements(input, dim, index)


def index_select(input: Any, dim: int, index: Any) -> Any:  # noqa: A002
    """The slices of ``input`` at the positions ``index`` (1-D) along ``dim``."""
    return ops.index_select(input, dim, index)


def scatter(input: Any, dim: int, index: Any, src: Any) -> Any:  # noqa: A002
    """``input`` with ``src``'s values written at ``index`` along ``dim``."""
    return ops.scatter(input, dim, index, src)


def scatter_add(input: Any, dim: int, index: Any, src: Any) -> Any:  # noqa: A002
    """``input`` with ``src``'s values added at ``index`` along ``dim``."""
    return ops.tensor_scatter_elements(input, index, src, dim, "add")


def take(input: Any, index: Any) -> Any:  # noqa: A002
    """The elements of the flattened ``input`` at ``index``."""
    return ops.take(input, index)


def masked_select(input: Any, mask: Any) -> Any:  # noqa: A002
    """The elements of ``input`` where ``mask`` (broadcast) holds, as a 1-D tensor."""
    return ops.masked_select(input, mask)


def nonzero(input: Any, *, as_tuple: bool = False) -> Any:  # noqa: A002
    """The indices of the nonzero elements: an ``(n, ndim)`` tensor, or a tuple of 1-D
    tensors with ``as_tuple``."""
    return ops.nonzero(input, as_tuple=as_tuple)


def select(input: Any, dim: int, index: int) -> Any:  # noqa: A002
    """The slice of ``input`` at ``index`` along ``dim``, that dimension removed."""
    tensor_arg(input, "select")
    return ops.squeeze(ops.narrow(input, dim, index % input.shape[dim], 1), dim)


def sort(input: Any, *, dim: int = -1, descending: bool = False,  # noqa: A002
         stable: bool = False) -> tuple:
    """``(values, indices)`` of ``input`` sorted along ``dim``."""
    return ops.sort(input, dim, descending)


def argsort(input: Any, dim: int = -1, descending: bool = False,  # noqa: A002
            stable: bool = False) -> Any:
    """The indices that sort ``input`` along ``dim``."""
    return ops.argsort(input, dim, descending)


def topk(input: Any, k: int, dim: int = -1, largest: bool = True,  # noqa: A002
         sorted: bool = True) -> tuple:  # noqa: A002
    """``(values, indices)`` of the ``k`` largest (or smallest) elements along ``dim``."""
    return ops.topk(input, k, dim, largest, sorted)


def tril(input: Any, diagonal: int = 0) -> Any:  # noqa: A002
    """``input`` with the elements above the ``diagonal``-th diagonal zeroed."""
    return ops.tril(input, diagonal)


def triu(input: Any, diagonal: int = 0) -> Any:  # noqa: A002
    """``input`` with the elements below the ``diagonal``-th diagonal zeroed."""
    return ops.triu(input, diagonal)


def diag(input: Any, diagonal: int = 0) -> Any:  # noqa: A002
    """A 1-D ``input`` as the ``diagonal``-th diagonal of a square matrix, or the
    ``diagonal``-th diagonal of a 2-D ``input``."""
    tensor_arg(input, "diag")
    if input.ndim == 2:
        return ops.diagonal(input, diagonal)
    if input.ndim != 1:
        raise ValueError(f"mint.diag: 'input' must be 1-D or 2-D, got shape "
                         f"{tuple(input.shape)}")
    if diagonal == 0:
        return ops.diag(input)
    k = abs(diagonal)
    square = ops.diag(input)
    # place the n x n diagonal matrix k steps off the main diagonal by padding
    pad = (k, 0, 0, k) if diagonal > 0 else (0, k, k, 0)
    return ops.pad(square, pad)


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple:
    """Coordinate grids of the 1-D ``tensors`` (``indexing`` ``"ij"`` by default)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return ops.meshgrid(*tensors, indexing="ij" if indexing is None else indexing)


def einsum(equation: str, *operands: Any) -> Any:
    """The Einstein summation ``equation`` of ``operands``."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return ops.einsum(equation, *operands)


def clone(input: Any) -> Any:  # noqa: A002
    """A copy of ``input`` (the gradient flows through)."""
    return ops.mul(input, 1) if ops.is_floating_point(input) else ops.add(input, 0)


def cross(input: Any, other: Any, dim: int | None = None) -> Any:  # noqa: A002
    """The cross product of 3-vectors along ``dim`` (the first size-3 dimension if None)."""
    return ops.cross(input, other, dim)


def diff(input: Any, n: int = 1, dim: int = -1, prepend: Any = None,  # noqa: A002
         append: Any = None) -> Any:
    """The ``n``-th forward difference along ``dim``."""
    return ops.diff(input, n, dim, prepend, append)


def cdist(x1: Any, x2: Any, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Any:
    """The ``p``-norm distances between the rows of ``x1`` and of ``x2``."""
    return ops.cdist(x1, x2, p)


def searchsorted(sorted_sequence: Any, values: Any, *, out_int32: bool = False,
                 right: bool = False, side: str | None = None, sorter: Any = None) -> Any:
    """The indices at which ``values`` would be inserted to keep ``sorted_sequence``
    sorted."""
    return ops.searchsorted(sorted_sequence, values, out_int32=out_int32, right=right,
                            side=side, sorter=sorter)
