"""Shape operators: ``reshape``, ``transpose``, ``squeeze``, ``broadcast_to``, ``flatten``,
``tile``, ``concat``/``stack``/``split``, ``flip`` and ``pad``."""
from __future__ import annotations

import builtins
import math
from typing import Any, Sequence

import numpy as np

from ...core.tensor import Tensor
from ...prims import getitem as G
from ...prims import structural as S
from ...prims import indexing as IX
from ._args import _axes, _axis, _is_int, _public_names, _shape_arg, _sizes, _tensor


def shape(x: Tensor) -> tuple:
    return _tensor(x, "shape").shape


def rank(x: Tensor) -> int:
    return _tensor(x, "rank").ndim


def size(x: Tensor) -> int:
    return _tensor(x, "size").size


def reshape(x: Any, shape: Any) -> Tensor:
    """Reshape; one dimension may be -1."""
    x = _tensor(x, "reshape")
    new = list(_shape_arg(shape, "reshape"))
    n = x.size
    if new.count(-1) > 1:
        raise ValueError(f"For 'reshape', only one dimension may be -1, but got {tuple(new)}.")
    if -1 in new:
        rest = math.prod(d for d in new if d != -1)
        if rest == 0 or n % rest:
            raise ValueError(f"For 'reshape', a tensor of shape {list(x.shape)} can not be "
                             f"reshaped to {tuple(new)}.")
        new[new.index(-1)] = n // rest
    if math.prod(new) != n:
        raise ValueError(f"For 'reshape', a tensor of shape {list(x.shape)} ({n} elements) "
                         f"can not be reshaped to {tuple(new)}.")
    new_t = tuple(new)
    return x if new_t == x.shape else S.reshape(x, shape=new_t)


def transpose(x: Any, input_perm: Any = None) -> Tensor:
    """Permute the axes (reverse them when ``input_perm`` is None)."""
    x = _tensor(x, "transpose")
    n = x.ndim
    if input_perm is not None and not isinstance(input_perm, (tuple, list)):
        raise TypeError(f"For 'transpose', 'input_perm' must be a tuple of ints, but got "
                        f"{type(input_perm).__name__}.")
    perm = tuple(range(n - 1, -1, -1)) if input_perm is None else tuple(
        _axis(p, n, "transpose", "input_perm") for p in input_perm)
    if sorted(perm) != list(range(n)):
        raise ValueError(f"For 'transpose', 'input_perm' {tuple(input_perm)} is not a "
                         f"permutation of the {n} axes of a tensor of shape {list(x.shape)}.")
    return x if perm == tuple(range(n)) else S.transpose(x, perm=perm)


permute = transpose


def swapaxes(x: Any, axis0: int, axis1: int) -> Tensor:
    x = _tensor(x, "swapaxes")
    if x.ndim == 0:
        raise ValueError("For 'swapaxes', 'x' must have rank >= 1, but got a 0-D Tensor.")
    perm = list(range(x.ndim))
    a, b = _axis(axis0, x.ndim, "swapaxes"), _axis(axis1, x.ndim, "swapaxes")
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


def expand_dims(x: Any, axis: int) -> Tensor:
    x = _tensor(x, "expand_dims")
    a = _axis(axis, x.ndim + 1, "expand_dims")
    s = list(x.shape)
    s.insert(a, 1)
    return S.reshape(x, shape=tuple(s))


def unsqueeze(input: Any, dim: int) -> Tensor:  # noqa: A002  (MindSpore's names)
    """``input`` with a size-1 axis inserted at ``dim`` (``expand_dims`` by 2.x's names)."""
    return expand_dims(input, dim)


def squeeze(x: Any, axis: Any = None) -> Tensor:
    """``x`` without the size-1 axes in ``axis``; all of them when ``axis`` is None or
    empty (as in MindSpore, whose ``Squeeze()`` default is ``axis=()``)."""
    x = _tensor(x, "squeeze")
    axes = _axes(axis, x.ndim, "squeeze")
    if axes is None:
        new = tuple(d for d in x.shape if d != 1)
    else:  # an axis of another size stays, as in MindSpore 2.10 (which returns it as is)
        new = tuple(d for i, d in enumerate(x.shape) if i not in axes or d != 1)
    return reshape(x, new)


def broadcast_to(x: Any, shape: Any) -> Tensor:
    x = _tensor(x, "broadcast_to")
    target = list(_shape_arg(shape, "broadcast_to"))
    lead = len(target) - x.ndim
    for i, d in enumerate(target):  # -1 keeps the input's size
        if d == -1 and i >= lead:
            target[i] = x.shape[i - lead]
    target_t = tuple(target)
    if target_t == x.shape:
        return x
    if builtins.all(d >= 0 for d in target_t):  # (a negative size: the primitive's error)
        _sizes(target_t, "broadcast_to")  # a view at first, but any use would allocate it
    return S.broadcast_to(x, shape=target_t)


def flatten(x: Any, start_dim: int = 1, end_dim: int = -1) -> Tensor:
    """MindSpore's ``ops.flatten`` keeps the batch axis by default."""
    x = _tensor(x, "flatten")
    if x.ndim == 0:
        return reshape(x, (1,))
    s = _axis(start_dim, x.ndim, "flatten")
    e = _axis(end_dim, x.ndim, "flatten")
    new = x.shape[:s] + (math.prod(x.shape[s:e + 1]),) + x.shape[e + 1:]
    return reshape(x, new)


def tile(input: Any, dims: Sequence[int]) -> Tensor:
    """Repeat ``input`` ``dims[i]`` times along axis ``i``, built from broadcast_to and
    reshape."""
    x = _tensor(input, "tile", "input")
    if not isinstance(dims, (tuple, list)) or builtins.any(
            isinstance(d, bool) or not isinstance(d, (int, np.integer)) for d in dims):
        raise TypeError(f"For 'tile', 'dims' must be a tuple of ints, but got {dims!r}.")
    if builtins.any(d < 0 for d in dims):
        raise ValueError(f"For 'tile', each element of 'dims' must be >= 0, but got {dims!r}.")
    reps = tuple(int(d) for d in dims)
    if not reps and x.ndim == 0:
        return x
    if len(reps) < x.ndim:
        reps = (1,) * (x.ndim - len(reps)) + reps
    xs = (1,) * (len(reps) - x.ndim) + x.shape
    _sizes(tuple(r * d for r, d in zip(reps, xs)), "tile", "dims", x._data.dtype.itemsize)
    inter = tuple(v for r, d in zip(reps, xs) for v in (1, d))
    wide = tuple(v for r, d in zip(reps, xs) for v in (r, d))
    out = broadcast_to(reshape(x, inter), wide)
    return reshape(out, tuple(r * d for r, d in zip(reps, xs)))


def concat(tensors: Sequence[Any], axis: int = 0) -> Tensor:
    """Join tensors along ``axis``."""
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError("For 'concat', 'tensors' must be a non-empty tuple or list of Tensors.")
    ts = [_tensor(t, "concat", f"tensors[{i}]") for i, t in enumerate(tensors)]
    ndim = ts[0].ndim
    for i, t in enumerate(ts):
        if t.ndim != ndim:
            raise ValueError(f"For 'concat', all tensors must have the same rank, but "
                             f"tensors[0] has shape {list(ts[0].shape)} and tensors[{i}] has "
                             f"shape {list(t.shape)}.")
    if len(ts) == 1:
        return ts[0]
    return S.concat(*ts, axis=_axis(axis, ndim, "concat"))


cat = concat


def stack(tensors: Sequence[Any], axis: int = 0) -> Tensor:
    """Join tensors of equal shape along a new axis."""
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError("For 'stack', 'tensors' must be a non-empty tuple or list of Tensors.")
    ts = [_tensor(t, "stack", f"tensors[{i}]") for i, t in enumerate(tensors)]
    for i, t in enumerate(ts):
        if t.shape != ts[0].shape:
            raise ValueError(f"For 'stack', all tensors must have the same shape, but "
                             f"tensors[0] has shape {list(ts[0].shape)} and tensors[{i}] has "
                             f"shape {list(t.shape)}.")
    return S.stack(*ts, axis=_axis(axis, ts[0].ndim + 1, "stack"))


def unstack(input_x: Any, axis: int = 0) -> tuple:
    """The slices of ``input_x`` along ``axis``, as a tuple (the inverse of ``stack``)."""
    x = _tensor(input_x, "unstack", "input_x")
    if x.ndim == 0:
        raise ValueError("For 'unstack', 'input_x' must have rank >= 1, but got a scalar.")
    a = _axis(axis, x.ndim, "unstack")
    if x.shape[a] == 0:
        return ()
    return S.unstack(x, axis=a)


def split(x: Any, split_size_or_sections: Any, axis: int = 0) -> tuple:
    """Split into chunks of a given size, or of the sizes in a list."""
    x = _tensor(x, "split")
    if x.ndim == 0:
        raise ValueError("For 'split', 'x' must have rank >= 1, but got a scalar.")
    a = _axis(axis, x.ndim, "split")
    n = x.shape[a]
    chunk = split_size_or_sections
    if _is_int(chunk):
        if chunk <= 0:
            raise ValueError(f"For 'split', 'split_size_or_sections' must be a positive int "
                             f"(the size of each chunk), but got {chunk}.")
        sizes = [int(chunk)] * (n // chunk)
        if n % chunk or not n:  # an empty axis is one empty chunk, as in MindSpore
            sizes.append(n % chunk)
    elif isinstance(chunk, (tuple, list)):
        sizes = list(chunk)
        if builtins.any(not _is_int(s) or s < 0 for s in sizes):
            raise ValueError(f"For 'split', sections must be non-negative ints, but got "
                             f"{sizes}.")
    else:
        raise TypeError(f"For 'split', 'split_size_or_sections' must be an int or a tuple or "
                        f"list of ints, but got {type(chunk).__name__}.")
    if builtins.sum(sizes) != n:
        raise ValueError(f"For 'split', sections {sizes} do not add up to the size {n} of "
                         f"axis {a} of a tensor of shape {list(x.shape)}.")
    if not sizes:
        return ()
    return S.split(x, axis=a, sizes=tuple(int(s) for s in sizes))


def flip(x: Any, dims: Any) -> Tensor:
    """``x`` reversed along each axis in ``dims`` (an empty tuple reverses none, as in
    MindSpore; None reverses all)."""
    x = _tensor(x, "flip")
    if isinstance(dims, (tuple, list)) and not dims:
        return x
    axes = _axes(dims, x.ndim, "flip") or tuple(range(x.ndim))
    index = tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(x.ndim))
    return G.getitem(x, index=index)


def _pad_pairs(padding: Any, ndim: int, op: str) -> list:
    """MindSpore/PyTorch-style flat padding (last axis first) as per-axis (lo, hi) pairs."""
    if isinstance(padding, Tensor):
        padding = padding.asnumpy().tolist()
    if not isinstance(padding, (tuple, list)) or len(padding) % 2 or \
            not builtins.all(isinstance(p, (int, np.integer)) and not isinstance(p, bool)
                             for p in padding):
        raise TypeError(f"For '{op}', 'padding' must be a tuple of ints of even length, but "
                        f"got {padding!r}.")
    if len(padding) // 2 > ndim:
        raise ValueError(f"For '{op}', 'padding' of length {len(padding)} pads more axes "
                         f"than the input has ({ndim}).")
    pairs = [(0, 0)] * ndim
    for k in range(len(padding) // 2):
        pairs[ndim - 1 - k] = (int(padding[2 * k]), int(padding[2 * k + 1]))
    return pairs


_PAD_MODES = {"constant": None, "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def pad(input_x: Any, padding: Any, mode: str = "constant", value: Any = None) -> Tensor:
    """Pad (or, with negative amounts, crop) the last ``len(padding) // 2`` axes; padding is
    ``(left, right)`` of the last axis, then of the one before, and so on. Modes:
    'constant' (with ``value``, default 0), 'reflect', 'replicate', 'circular'."""
    x = _tensor(input_x, "pad", "input_x")
    if mode not in _PAD_MODES:
        raise ValueError(f"For 'pad', 'mode' must be one of {list(_PAD_MODES)}, but got "
                         f"{mode!r}.")
    pairs = _pad_pairs(padding, x.ndim, "pad")
    # negative amounts crop first
    crop = tuple(slice(builtins.max(-lo, 0), d - builtins.max(-hi, 0)) for (lo, hi), d in zip(pairs, x.shape))
    if builtins.any(lo < 0 or hi < 0 for lo, hi in pairs):
        if builtins.any(c.stop <= c.start for c in crop):
            raise ValueError(f"For 'pad', negative padding {padding!r} removes the whole of an "
                             f"axis of the input of shape {list(x.shape)}.")
        x = G.getitem(x, index=crop)
    pos = tuple((builtins.max(lo, 0), builtins.max(hi, 0)) for lo, hi in pairs)
    if not builtins.any(lo or hi for lo, hi in pos):
        return x
    if mode == "constant":
        fill = 0 if value is None else value
        if isinstance(fill, Tensor):
            fill = fill.item()
        return IX.pad(x, paddings=pos, value=fill)
    if value is not None:
        raise ValueError(f"For 'pad', 'value' is only used with mode 'constant', not {mode!r}.")
    for a, (lo, hi) in enumerate(pos):
        if not (lo or hi):
            continue
        n = x.shape[a]
        if mode == "reflect" and (lo >= n or hi >= n):
            raise ValueError(f"For 'pad', 'reflect' padding ({lo}, {hi}) must be smaller than "
                             f"the size {n} of axis {a}.")
        # the source position of every output position along this axis, as NumPy pads
        src = np.pad(np.arange(n), (lo, hi), mode=_PAD_MODES[mode])
        x = G.getitem(x, Tensor(src), index=(slice(None),) * a + (G.ArraySlot(0),))
    return x


__all__ = _public_names(globals())
