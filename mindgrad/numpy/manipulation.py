"""Array manipulation: shapes and axes (``reshape``, ``transpose``, ``moveaxis`` ...),
joining (``concatenate``, ``stack`` and its variants, ``append``), splitting (``split``,
``array_split`` ...), reordering (``flip``, ``roll``, ``rot90``), repetition (``tile``,
``repeat``, ``broadcast_to``) and ``pad``."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.tensor import Tensor
from .. import ops
from ._utils import as_float, axes_arg, axis_arg, common, shape_arg, tensors, to_tensor

__all__ = ["reshape", "ravel", "transpose", "moveaxis", "rollaxis", "swapaxes", "expand_dims",
           "squeeze", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack",
           "append", "split", "array_split", "hsplit", "vsplit", "dsplit", "flip", "fliplr",
           "flipud", "roll", "rot90", "tile", "repeat", "broadcast_to", "broadcast_arrays",
           "atleast_1d", "atleast_2d", "atleast_3d", "pad", "size", "array_str"]


def reshape(x: Any, new_shape: Any) -> Tensor:
    """``x`` with shape ``new_shape`` (one entry may be -1)."""
    t = to_tensor(x, "reshape", "x")
    if isinstance(new_shape, (int, np.integer)):
        new_shape = (int(new_shape),)
    return ops.reshape(t, tuple(new_shape))


def ravel(x: Any) -> Tensor:
    """``x`` flattened to 1-D."""
    return ops.reshape(to_tensor(x, "ravel", "x"), (-1,))


def transpose(a: Any, axes: Any = None) -> Tensor:
    """``a`` with its axes permuted (reversed without ``axes``)."""
    t = to_tensor(a, "transpose", "a")
    perm = tuple(range(t.ndim))[::-1] if axes is None else tuple(
        axis_arg(v, t.ndim, "transpose", "axes") for v in axes)
    if sorted(perm) != list(range(t.ndim)):
        raise ValueError(f"For 'transpose', 'axes' {axes} is not a permutation of the "
                         f"{t.ndim} axes.")
    return ops.transpose(t, perm)


def moveaxis(a: Any, source: Any, destination: Any) -> Tensor:
    """``a`` with the axes ``source`` moved to ``destination``, the others in order."""
    return ops.moveaxis(to_tensor(a, "moveaxis", "a"), source, destination)


def rollaxis(x: Any, axis: int, start: int = 0) -> Tensor:
    """``x`` with ``axis`` moved to just before position ``start``."""
    t = to_tensor(x, "rollaxis", "x")
    n = t.ndim
    ax = axis_arg(axis, n, "rollaxis")
    if not -n <= start <= n:
        raise ValueError(f"For 'rollaxis', 'start' {start} is out of range for rank {n}.")
    start = start % (n + 1) if start < 0 else start
    if ax < start:
        start -= 1
    if ax == start:
        return t
    perm = [i for i in range(n) if i != ax]
    perm.insert(start, ax)
    return ops.transpose(t, tuple(perm))


def swapaxes(x: Any, axis1: int, axis2: int) -> Tensor:
    """``x`` with two axes exchanged."""
    t = to_tensor(x, "swapaxes", "x")
    return ops.swapaxes(t, axis_arg(axis1, t.ndim, "swapaxes", "axis1"),
                        axis_arg(axis2, t.ndim, "swapaxes", "axis2"))


def expand_dims(a: Any, axis: Any) -> Tensor:
    """``a`` with new size-1 axes at the positions ``axis`` (an int or a tuple)."""
    t = to_tensor(a, "expand_dims", "a")
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    n = t.ndim + len(axes)
    where = sorted(axis_arg(v, n, "expand_dims") for v in axes)
    if len(set(where)) != len(where):
        raise ValueError(f"For 'expand_dims', 'axis' repeats an axis: {axis}.")
    shape = list(t.shape)
    for w in where:
        shape.insert(w, 1)
    return ops.reshape(t, tuple(shape))


def squeeze(a: Any, axis: Any = None) -> Tensor:
    """``a`` without its size-1 axes (only those in ``axis`` if given; another size there
    is a ValueError)."""
    t = to_tensor(a, "squeeze", "a")
    ax = axes_arg(axis, t.ndim, "squeeze")
    if ax is None:
        ax = tuple(i for i, s in enumerate(t.shape) if s == 1)
    for i in ax:
        if t.shape[i] != 1:
            raise ValueError(f"For 'squeeze', axis {i} of shape {t.shape} has size "
                             f"{t.shape[i]}, not 1.")
    return ops.reshape(t, tuple(s for i, s in enumerate(t.shape) if i not in ax))


def concatenate(arrays: Any, axis: Any = 0) -> Tensor:
    """The arrays joined along an existing ``axis`` (flattened first when None)."""
    ts = tensors(arrays, "concatenate")
    if axis is None:
        ts, axis = [ops.reshape(t, (-1,)) for t in ts], 0
    ts = common(ts)
    if ts[0].ndim == 0:
        raise ValueError("For 'concatenate', 0-D arrays cannot be concatenated.")
    return ops.concat(ts, axis_arg(axis, ts[0].ndim, "concatenate"))


def stack(arrays: Any, axis: int = 0) -> Tensor:
    """The arrays (of one shape) joined along a new ``axis``."""
    ts = common(tensors(arrays, "stack"))
    return ops.stack(ts, axis_arg(axis, ts[0].ndim + 1, "stack"))


def hstack(tup: Any) -> Tensor:
    """The arrays joined along the second axis (the first for 1-D ones)."""
    ts = [atleast_1d(t) for t in tensors(tup, "hstack", "tup")]
    return concatenate(ts, 0 if ts[0].ndim == 1 else 1)


def vstack(tup: Any) -> Tensor:
    """The arrays joined along the first axis, 1-D ones as rows."""
    return concatenate([atleast_2d(t) for t in tensors(tup, "vstack", "tup")], 0)


def dstack(tup: Any) -> Tensor:
    """The arrays joined along the third axis (made at least 3-D)."""
    return concatenate([atleast_3d(t) for t in tensors(tup, "dstack", "tup")], 2)


def column_stack(tup: Any) -> Tensor:
    """1-D arrays as the columns of a 2-D array; 2-D ones joined along axis 1."""
    ts = []
    for t in tensors(tup, "column_stack", "tup"):
        if t.ndim < 2:
            t = ops.reshape(t, (-1, 1))
        ts.append(t)
    return concatenate(ts, 1)


def append(arr: Any, values: Any, axis: Any = None) -> Tensor:
    """``values`` appended to ``arr`` along ``axis`` (both flattened when None)."""
    a, v = to_tensor(arr, "append", "arr"), to_tensor(values, "append", "values")
    if axis is None:
        return concatenate([ops.reshape(a, (-1,)), ops.reshape(v, (-1,))], 0)
    if a.ndim != v.ndim:
        raise ValueError(f"For 'append', 'values' must have the rank of 'arr' ({a.ndim}), "
                         f"but got shape {v.shape}.")
    return concatenate([a, v], axis)


def _split(x: Any, indices_or_sections: Any, axis: int, op: str, even: bool) -> tuple:
    t = to_tensor(x, op, "x")
    if t.ndim == 0:
        raise ValueError(f"For '{op}', 'x' must have rank >= 1, but got a scalar.")
    ax = axis_arg(axis, t.ndim, op)
    n = t.shape[ax]
    ios = indices_or_sections
    if isinstance(ios, (int, np.integer)) and not isinstance(ios, bool):
        k = int(ios)
        if k <= 0:
            raise ValueError(f"For '{op}', the number of sections must be positive, but got "
                             f"{k}.")
        if even and n % k:
            raise ValueError(f"For '{op}', axis {ax} of size {n} does not divide into {k} "
                             f"equal sections; use array_split.")
        base, extra = divmod(n, k)
        sizes = [base + 1] * extra + [base] * (k - extra)
        cuts = list(np.cumsum(sizes)[:-1])
    elif isinstance(ios, (list, tuple, Tensor)):
        cuts = [int(v) for v in (ios.asnumpy().tolist() if isinstance(ios, Tensor) else ios)]
    else:
        raise TypeError(f"For '{op}', 'indices_or_sections' must be an int or a list of ints, "
                        f"but got {type(ios).__name__}.")
    out, prev = [], 0
    for c in cuts + [n]:
        c = min(max(c + n if c < 0 else c, 0), n)
        lo = min(prev, n)
        idx = [slice(None)] * t.ndim
        idx[ax] = slice(lo, max(c, lo))
        out.append(t[tuple(idx)])
        prev = max(c, lo)
    return tuple(out)


def split(x: Any, indices_or_sections: Any, axis: int = 0) -> tuple:
    """``x`` split into equal sections (an int) or at the given indices along ``axis``."""
    return _split(x, indices_or_sections, axis, "split", True)


def array_split(x: Any, indices_or_sections: Any, axis: int = 0) -> tuple:
    """``split`` where an int need not divide the axis (the first parts are longer)."""
    return _split(x, indices_or_sections, axis, "array_split", False)


def hsplit(x: Any, indices_or_sections: Any) -> tuple:
    """``split`` along the second axis (the first for 1-D input)."""
    t = to_tensor(x, "hsplit", "x")
    return _split(t, indices_or_sections, 1 if t.ndim > 1 else 0, "hsplit", True)


def vsplit(x: Any, indices_or_sections: Any) -> tuple:
    """``split`` along the first axis (of an at least 2-D input)."""
    t = to_tensor(x, "vsplit", "x")
    if t.ndim < 2:
        raise ValueError(f"For 'vsplit', 'x' must have rank >= 2, but got shape {t.shape}.")
    return _split(t, indices_or_sections, 0, "vsplit", True)


def dsplit(x: Any, indices_or_sections: Any) -> tuple:
    """``split`` along the third axis (of an at least 3-D input)."""
    t = to_tensor(x, "dsplit", "x")
    if t.ndim < 3:
        raise ValueError(f"For 'dsplit', 'x' must have rank >= 3, but got shape {t.shape}.")
    return _split(t, indices_or_sections, 2, "dsplit", True)


def flip(m: Any, axis: Any = None) -> Tensor:
    """``m`` with the order of elements reversed along ``axis`` (all axes when None)."""
    t = to_tensor(m, "flip", "m")
    ax = axes_arg(axis, t.ndim, "flip")
    ax = tuple(range(t.ndim)) if ax is None else ax
    return ops.flip(t, ax) if ax else t


def fliplr(m: Any) -> Tensor:
    """``m`` reversed along its second axis."""
    t = to_tensor(m, "fliplr", "m")
    if t.ndim < 2:
        raise ValueError(f"For 'fliplr', 'm' must have rank >= 2, but got shape {t.shape}.")
    return ops.flip(t, (1,))


def flipud(m: Any) -> Tensor:
    """``m`` reversed along its first axis."""
    t = to_tensor(m, "flipud", "m")
    if t.ndim < 1:
        raise ValueError("For 'flipud', 'm' must have rank >= 1, but got a scalar.")
    return ops.flip(t, (0,))


def roll(a: Any, shift: Any, axis: Any = None) -> Tensor:
    """``a`` with its elements shifted cyclically by ``shift`` along ``axis`` (of the
    flattened array when None)."""
    t = to_tensor(a, "roll", "a")
    if axis is None:
        return ops.reshape(ops.roll(ops.reshape(t, (-1,)), shift, 0), t.shape)
    return ops.roll(t, shift, axis)


def rot90(a: Any, k: int = 1, axes: Any = (0, 1)) -> Tensor:
    """``a`` rotated by 90 degrees ``k`` times in the plane of ``axes``."""
    return ops.rot90(to_tensor(a, "rot90", "a"), int(k), tuple(axes))


def tile(a: Any, reps: Any) -> Tensor:
    """``a`` repeated ``reps`` times along each axis."""
    t = to_tensor(a, "tile", "a")
    reps = (int(reps),) if isinstance(reps, (int, np.integer)) else tuple(int(r) for r in reps)
    n = max(t.ndim, len(reps))
    t = ops.reshape(t, (1,) * (n - t.ndim) + t.shape)
    reps = (1,) * (n - len(reps)) + reps
    return ops.tile(t, reps)


def repeat(a: Any, repeats: Any, axis: Any = None) -> Tensor:
    """Each element of ``a`` repeated ``repeats`` times (an int, or one count per element)
    along ``axis`` (of the flattened array when None)."""
    t = to_tensor(a, "repeat", "a")
    if axis is None:
        t, axis = ops.reshape(t, (-1,)), 0
    ax = axis_arg(axis, t.ndim, "repeat")
    if isinstance(repeats, (int, np.integer)):
        reps = [int(repeats)] * t.shape[ax]
    else:
        reps = [int(r) for r in (repeats.asnumpy().tolist() if isinstance(repeats, Tensor)
                                 else repeats)]
        if len(reps) == 1:
            reps = reps * t.shape[ax]
    if len(reps) != t.shape[ax] or any(r < 0 for r in reps):
        raise ValueError(f"For 'repeat', 'repeats' must be non-negative and one per element "
                         f"of axis {ax} (size {t.shape[ax]}), but got {repeats}.")
    idx = Tensor(np.repeat(np.arange(t.shape[ax]), reps).astype(np.int64))
    return ops.gather(t, idx, ax)


def broadcast_to(array: Any, shape: Any) -> Tensor:
    """``array`` broadcast to ``shape``."""
    t = to_tensor(array, "broadcast_to", "array")
    return ops.broadcast_to(t, shape_arg(shape, "broadcast_to"))


def broadcast_arrays(*args: Any) -> list:
    """The arrays broadcast to their common shape."""
    ts = [to_tensor(a, "broadcast_arrays", "args") for a in args]
    try:
        shape = np.broadcast_shapes(*(t.shape for t in ts))
    except ValueError:
        raise ValueError(f"For 'broadcast_arrays', the shapes "
                         f"{[t.shape for t in ts]} do not broadcast.") from None
    return [ops.broadcast_to(t, shape) for t in ts]


def _atleast(arys: tuple, n: int, op: str) -> Any:
    out = []
    for a in arys:
        t = to_tensor(a, op, "arys")
        if t.ndim < n:
            if n == 3 and t.ndim == 1:
                shape = (1, t.shape[0], 1)
            elif n == 3 and t.ndim == 2:
                shape = t.shape + (1,)
            else:
                shape = (1,) * (n - t.ndim) + t.shape
            t = ops.reshape(t, shape)
        out.append(t)
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys: Any) -> Any:
    """Each input with at least one dimension (one Tensor for one input, else a list)."""
    return _atleast(arys, 1, "atleast_1d")


def atleast_2d(*arys: Any) -> Any:
    """Each input with at least two dimensions (new ones in front)."""
    return _atleast(arys, 2, "atleast_2d")


def atleast_3d(*arys: Any) -> Any:
    """Each input with at least three dimensions (1-D ``(n,)`` becomes ``(1, n, 1)``, 2-D
    ``(m, n)`` becomes ``(m, n, 1)``)."""
    return _atleast(arys, 3, "atleast_3d")


def _pairs(width: Any, ndim: int, op: str, arg: str) -> list:
    w = np.asarray(width.asnumpy() if isinstance(width, Tensor) else width)
    try:
        return np.broadcast_to(w, (ndim, 2)).tolist()
    except ValueError:
        raise ValueError(f"For '{op}', '{arg}' {width} does not fit a tensor of rank "
                         f"{ndim}.") from None


def pad(arr: Any, pad_width: Any, mode: str = "constant", stat_length: Any = None,
        constant_values: Any = 0, end_values: Any = 0, reflect_type: str = "even",
        **kwargs: Any) -> Tensor:
    """``arr`` padded by ``pad_width`` (``(before, after)`` per axis, or one pair or one
    number for all). Modes: ``constant`` (``constant_values``), ``edge``, ``reflect``,
    ``symmetric``, ``wrap``, ``linear_ramp`` (to ``end_values``), ``maximum``,
    ``minimum``, ``mean``, ``median`` (``stat_length``) and ``empty``."""
    t = to_tensor(arr, "pad", "arr")
    widths = [[int(v) for v in p] for p in _pairs(pad_width, t.ndim, "pad", "pad_width")]
    if any(v < 0 for p in widths for v in p):
        raise ValueError(f"For 'pad', 'pad_width' must not be negative, but got {pad_width}.")
    if mode == "empty":
        mode = "constant"
    modes = ("constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum",
             "minimum", "mean", "median")
    if mode not in modes:
        raise ValueError(f"For 'pad', 'mode' must be one of {modes}, but got {mode!r}.")
    if reflect_type != "even" and mode in ("reflect", "symmetric"):
        raise ValueError("For 'pad', only reflect_type='even' is supported.")
    consts = _pairs(constant_values, t.ndim, "pad", "constant_values")
    ends = _pairs(end_values, t.ndim, "pad", "end_values")
    stats = None if stat_length is None else _pairs(stat_length, t.ndim, "pad", "stat_length")
    for ax in range(t.ndim):
        before, after = widths[ax]
        if before == 0 and after == 0:
            continue
        t = _pad_axis(t, ax, before, after, mode, consts[ax], ends[ax],
                      None if stats is None else stats[ax])
    return t


def _take_range(t: Tensor, ax: int, idx: np.ndarray) -> Tensor:
    return ops.gather(t, Tensor(idx.astype(np.int64)), ax)


def _pad_axis(t: Tensor, ax: int, before: int, after: int, mode: str, const: list,
              end: list, stat: Any) -> Tensor:
    n = t.shape[ax]
    if mode == "constant":
        shape_b = list(t.shape)
        shape_b[ax] = before
        shape_a = list(t.shape)
        shape_a[ax] = after
        parts = [ops.full(tuple(shape_b), const[0], dtype=t.dtype), t,
                 ops.full(tuple(shape_a), const[1], dtype=t.dtype)]
        return ops.concat(parts, ax)
    if n == 0:
        raise ValueError(f"For 'pad', mode {mode!r} cannot pad the empty axis {ax}.")
    if mode in ("edge", "reflect", "symmetric", "wrap"):
        np_mode = mode
        idx = np.pad(np.arange(n), (before, after), mode=np_mode)
        return _take_range(t, ax, idx)
    if mode == "linear_ramp":
        edge_b = _take_range(t, ax, np.array([0]))
        edge_a = _take_range(t, ax, np.array([n - 1]))
        parts = []
        if before:
            w = Tensor(np.arange(before, dtype=np.float64) / before)  # 0 at the far end
            parts.append(_ramp(edge_b, end[0], w, ax, t))
        parts.append(t)
        if after:
            w = Tensor(np.arange(after, dtype=np.float64)[::-1].copy() / after)
            parts.append(_ramp(edge_a, end[1], w, ax, t))
        return ops.concat(parts, ax)
    # statistics of the first / last ``stat`` elements
    sb = n if stat is None else min(max(int(stat[0]), 1), n)
    sa = n if stat is None else min(max(int(stat[1]), 1), n)
    head = _take_range(t, ax, np.arange(sb))
    tail = _take_range(t, ax, np.arange(n - sa, n))
    fn = {"maximum": lambda x: ops.amax(x, ax, True), "minimum": lambda x: ops.amin(x, ax, True),
          "mean": lambda x: _cast_like(ops.mean(as_float(x), ax, True), t),
          "median": lambda x: _cast_like(_median(x, ax), t)}[mode]
    vb, va = fn(head), fn(tail)
    return ops.concat([ops.repeat_interleave(vb, before, ax), t,
                       ops.repeat_interleave(va, after, ax)], ax)


def _cast_like(x: Tensor, ref: Tensor) -> Tensor:
    # to an integer dtype a statistic truncates toward zero, as in MindSpore (NumPy rounds)
    return x if x.dtype == ref.dtype else x.astype(ref.dtype)


def _median(x: Tensor, ax: int) -> Tensor:
    s = ops.sort(as_float(x), ax)[0]
    n = x.shape[ax]
    lo = _take_range(s, ax, np.array([(n - 1) // 2]))
    hi = _take_range(s, ax, np.array([n // 2]))
    return (lo + hi) / 2.0


def _ramp(edge: Tensor, end: Any, w: Tensor, ax: int, ref: Tensor) -> Tensor:
    shape = [1] * ref.ndim
    shape[ax] = w.shape[0]
    e = as_float(edge)
    w = ops.reshape(w.astype(e.dtype), tuple(shape))
    out = float(end) + (e - float(end)) * w
    return _cast_like(out, ref)


def size(a: Any, axis: Any = None) -> int:
    """The number of elements of ``a`` (along ``axis`` if given)."""
    t = to_tensor(a, "size", "a")
    if axis is None:
        return int(t.size)
    return int(t.shape[axis_arg(axis, t.ndim, "size")])


def array_str(a: Any) -> str:
    """The string of ``a``'s values, as NumPy prints them."""
    return np.array_str(to_tensor(a, "array_str", "a").asnumpy())
