"""Helpers shared by primitive implementations (arrays only, never tensors)."""
from __future__ import annotations

from typing import Any

import numpy as np
from ..core.dtype import from_numpy


def xp_of(x: Any):
    """NumPy for NumPy arrays and Python scalars, CuPy for CuPy arrays."""
    if isinstance(x, (np.ndarray, np.generic)) or not hasattr(x, "__cuda_array_interface__"):
        return np
    import cupy

    return cupy


def reduce_with(ufunc: Any, x: Any, axis: Any, keepdims: bool, dtype: Any = None) -> Any:
    """``x.sum(...)`` (``ufunc`` np.add) or ``x.prod(...)`` (np.multiply) as one call of the
    ufunc's ``reduce``. NumPy's ``sum`` and ``prod`` run through a Python function of NumPy's
    own, so a floating-point warning (an overflowing sum) would name NumPy's file rather than
    mindgrad's, which common/fp_warnings.py silences; the direct call is faster too. CuPy
    arrays use their methods."""
    if isinstance(x, (np.ndarray, np.generic)):
        return ufunc.reduce(x, axis=axis, keepdims=keepdims, dtype=dtype)
    method = x.sum if ufunc is np.add else x.prod
    return method(axis=axis, keepdims=keepdims, dtype=dtype)


def filled_view(cell: Any, shape: tuple) -> np.ndarray:
    """A read-only view of ``shape`` whose every element is the one NumPy value ``cell`` (a
    NumPy scalar, or a 0-d or one-element array): what ``np.broadcast_to`` gives, built
    directly (its Python-level checks cost more than a small eager reverse rule). A
    negative size raises NumPy's ValueError."""
    out = np.ndarray(shape, cell.dtype, buffer=cell, strides=(0,) * len(shape))
    out.flags.writeable = False
    return out


def shape_of(x: Any) -> tuple:
    return tuple(getattr(x, "shape", ()))


def broadcast_error(name: str, x: Any, y: Any) -> ValueError:
    return ValueError(f"For '{name}', the shapes of x {list(shape_of(x))} and y "
                      f"{list(shape_of(y))} can not broadcast.")


def checked_binary(name: str, fn: Any):
    """Wrap a NumPy binary function so that a broadcast failure names the op and shapes."""

    def impl(x: Any, y: Any) -> Any:
        try:
            return fn(x, y)
        except ValueError:
            raise broadcast_error(name, x, y) from None
        except TypeError as e:  # NumPy refuses the dtypes (bool - bool): name the op

            dts = " and ".join(str(from_numpy(np.result_type(v))) for v in (x, y))
            raise TypeError(f"For '{name}', inputs of dtype {dts} are not supported: "
                            f"{e}") from None

    impl.__name__ = name
    return impl


def last_writes(pos):
    """Where in ``pos`` (flat positions written by a scatter, in order) each distinct
    position is written for the last time: what a sequential scatter keeps. A GPU scatter
    writes repeats in no set order, so the GPU paths assign only these."""
    xp = xp_of(pos)
    flat = pos.reshape(-1)
    _, first_of_reversed = xp.unique(flat[::-1], return_index=True)
    return flat.size - 1 - first_of_reversed


# Index entries summed per pass of ``scatter_sums``: a block's positions and float64 values
# (16 bytes an entry) stay in cache, where the whole array's at once would be two large
# fresh temporaries (slow to fault in, and they leave the cache).
_BLOCK = 1 << 15


def scatter_sums(lin, u3, nrows: int):
    """The transpose of taking ``nrows`` slices along the middle axis: a fresh
    ``(pre, nrows, post)`` array holding each slice ``u3[:, i]`` of the ``(pre, m, post)``
    array ``u3`` added at slice ``lin[i]`` (``0 <= lin < nrows``), repeats accumulating.

    Floating point sums in float64 (complex in complex128) whatever the input's precision,
    so that the caller rounds once: added one at a time in float32, a few thousand repeats
    of one index already lose digits (float16 stops counting at 2048). The result may
    therefore be wider than ``u3``; the caller casts it in a pass it needs anyway. When no
    index repeats, nothing is summed: the slices are assigned in ``u3``'s own dtype."""
    xp = xp_of(u3)
    pre, m, post = u3.shape
    lin = lin.astype(np.intp, copy=False)  # unsigned would promote the positions to float
    acc = np.result_type(u3.dtype, np.float64) if u3.dtype.kind in "fc" else u3.dtype
    if xp is not np:
        # atomic adds in float64 too: the GPU's sums keep the digits the CPU's keep
        # (add.at: CuPy deprecates cupyx.scatter_add in its favour)
        out = xp.zeros((pre, nrows, post), dtype=acc)
        xp.add.at(out, (slice(None), lin), u3.astype(acc, copy=False))
        return out
    if pre * post > 1 and m <= nrows and np.unique(lin).size == m:
        out = np.zeros((pre, nrows, post), u3.dtype)
        out[:, lin] = u3
        return out
    if pre * post == 1 and u3.dtype.kind == "f" and u3.dtype.itemsize <= 8:
        # single elements: one vectorized pass, which sums in float64 itself
        return np.bincount(lin, weights=u3.reshape(m), minlength=nrows).reshape(1, nrows, 1)
    out = np.zeros(pre * nrows * post, acc)
    # Every entry's flat position in ``out``, one block of index entries at a time: add.at's
    # fast path wants 1-D operands of one dtype (2-D rows take its slow generic path, and
    # sorting + add.reduceat pays a call per run and per column).
    base = (np.arange(pre) * nrows)[:, None, None]
    cols = np.arange(post)
    step = max(1, _BLOCK // max(1, pre * post))
    for a in range(0, m, step):
        pos = (base + lin[a:a + step, None]) * post + cols
        np.add.at(out, pos.reshape(-1), u3[:, a:a + step].astype(acc).reshape(-1))
    return out.reshape(pre, nrows, post)
