"""Linear algebra: ``matmul``/``batch_matmul``, ``dot``, ``outer``, ``einsum``, ``inverse``,
``det``, ``solve``, ``cholesky`` and ``svd``."""
from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from ...core.tensor import Tensor
from ...prims import matmul as MM
from ...prims import structural as S
from ...prims import linalg as LA
from ._args import _axis, _composite, _flag, _in_dtype, _is_int, _public_names, _tensor
from .shape import reshape, transpose


def matmul(x: Any, y: Any, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    """Matrix product with NumPy's rules (1-D operands, broadcast batch dimensions)."""
    a = _in_dtype(_tensor(x, "matmul", "x"), "matmul", "x")
    b = _in_dtype(_tensor(y, "matmul", "y"), "matmul", "y")
    transpose_a = _flag(transpose_a, "matmul", "transpose_a")
    transpose_b = _flag(transpose_b, "matmul", "transpose_b")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"For 'matmul', the inputs must not be scalars, but got shapes "
                         f"{list(a.shape)} and {list(b.shape)}.")
    if a.ndim >= 2 and b.ndim >= 2:
        return MM.mm(a, b, transpose_a, transpose_b)
    for flag, arg, t in ((transpose_a, "x", a), (transpose_b, "y", b)):
        if flag and t.ndim < 2:  # a vector has no second axis to swap with
            raise ValueError(f"For 'matmul', transposing '{arg}' needs a matrix (rank >= 2), "
                             f"but got shape {list(t.shape)}.")
    if transpose_a:
        a = MM.swap_last(a)
    if transpose_b:
        b = MM.swap_last(b)
    a2 = S.reshape(a, shape=(1,) + a.shape) if a.ndim == 1 else a
    b2 = S.reshape(b, shape=b.shape + (1,)) if b.ndim == 1 else b
    out = MM.matmul(a2, b2)
    if a.ndim == 1:  # drop the axis added to a (second to last), then the one added to b
        out = S.reshape(out, shape=out.shape[:-2] + out.shape[-1:])
    if b.ndim == 1:
        out = S.reshape(out, shape=out.shape[:-1])
    return out


def batch_matmul(x: Any, y: Any, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    return matmul(x, y, transpose_a, transpose_b)


bmm = batch_matmul


def dot(input: Any, other: Any) -> Tensor:
    """NumPy's ``dot`` (as MindSpore's): the last axis of ``input`` against the second to
    last of ``other``, e.g. (2, 3, 4) . (3, 4, 5) -> (2, 3, 3, 5)."""
    return _np_dot(input, other)


def outer(x: Any, y: Any) -> Tensor:
    """``x[i] * y[j]``, as a product of a column and a row: the backward pass is then two
    matrix-vector products (BLAS) instead of a full-size multiply and a reduction each."""
    x, y = _tensor(x, "outer", "x"), _tensor(y, "outer", "y")
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"For 'outer', 'x' and 'y' must be 1-D, but got shapes "
                         f"{list(x.shape)} and {list(y.shape)}.")
    return MM.matmul(S.reshape(x, shape=(x.size, 1)), S.reshape(y, shape=(1, y.size)))


_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _einsum_normalize(equation: str, shapes: list) -> tuple[str, list]:
    """An explicit equation without '...' or spaces, and for every operand the shape it must
    be broadcast to (size-1 dimensions against larger ones, which einsum allows)."""
    eq = equation.replace(" ", "")
    if eq.count("->") > 1:
        raise ValueError(f"For 'einsum', the equation {equation!r} has more than one '->'.")
    lhs, arrow, out = eq.partition("->")
    subs = lhs.split(",")
    if len(subs) != len(shapes):
        raise ValueError(f"For 'einsum', the equation {equation!r} names {len(subs)} "
                         f"operand(s) but {len(shapes)} were given.")
    for s in subs + ([out] if arrow else []):
        bad = set(s.replace("...", "")) - set(_LABELS)
        if bad or s.count("...") > 1 or s.replace("...", "").count(".") > 0:
            raise ValueError(f"For 'einsum', invalid subscripts {s!r} in {equation!r}: use "
                             f"letters and at most one '...'.")
    used = set(eq) & set(_LABELS)
    spare = [c for c in _LABELS if c not in used]
    n_ell = 0
    for s, shp in zip(subs, shapes):
        letters = len(s.replace("...", ""))
        if "..." in s:
            n_ell = builtins.max(n_ell, len(shp) - letters)
        if len(shp) < letters or ("..." not in s and len(shp) != letters):
            raise ValueError(f"For 'einsum', subscripts {s!r} do not match an operand of rank "
                             f"{len(shp)} (shape {list(shp)}) in {equation!r}.")
    ell = "".join(spare[:n_ell])
    full = []
    for s, shp in zip(subs, shapes):
        k = len(shp) - len(s.replace("...", ""))
        full.append(s.replace("...", ell[n_ell - k:] if k else ""))
    if not arrow:  # implicit output: '...' first, then labels seen once, alphabetically
        counts: dict = {}
        for s in subs:
            for c in s.replace("...", ""):
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1))
    else:
        out = out.replace("...", ell)
    sizes: dict = {}
    for s, shp in zip(full, shapes):
        for c, d in zip(s, shp):
            if c in sizes and d != sizes[c] and 1 not in (d, sizes[c]):
                raise ValueError(f"For 'einsum', label {c!r} has sizes {sizes[c]} and {d} in "
                                 f"{equation!r} (shapes {[list(x) for x in shapes]}).")
            sizes[c] = builtins.max(sizes.get(c, d), d)
    if len(set(out)) != len(out) or set(out) - set("".join(full)):
        raise ValueError(f"For 'einsum', the output subscripts of {equation!r} must be "
                         f"distinct labels that appear in the inputs.")
    targets = []
    for s, shp in zip(full, shapes):
        # a repeated label reads a diagonal, so it cannot broadcast within one operand
        targets.append(tuple(sizes[c] if c not in s[:i] else d for i, (c, d) in
                             enumerate(zip(s, shp))))
    return ",".join(full) + "->" + out, targets


def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation (``'ij,jk->ik'``; implicit outputs and '...' supported). Its
    gradient with respect to each operand is again an einsum."""
    if not isinstance(equation, str):
        raise TypeError(f"For 'einsum', 'equation' must be a str, but got "
                        f"{type(equation).__name__}.")
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("For 'einsum', at least one operand is required.")
    ts = [_tensor(o, "einsum", f"operands[{i}]") for i, o in enumerate(operands)]
    eq, targets = _einsum_normalize(equation, [t.shape for t in ts])
    ts = [t if t.shape == tgt else S.broadcast_to(t, shape=tgt) for t, tgt in zip(ts, targets)]
    return LA.einsum(*ts, equation=eq)


def _square_batch(x: Tensor, op: str, half: bool = True) -> None:
    """Check for a (batch of) square float matrix; ``half``: whether float16 is accepted
    (MindSpore's det and cholesky take it, its inverse does not)."""
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For '{op}', the input must be a (batch of) square matrix of shape "
                         f"(..., n, n), but got {list(x.shape)}.")
    _float_matrix(x, op, half)


def _float_matrix(x: Tensor, op: str, half: bool) -> None:
    kind = x.dtype.np_dtype
    if kind.kind != "f" or (kind == np.float16 and not half):
        raise TypeError(f"For '{op}', the input must be a float32 or float64 Tensor"
                        f"{' (or float16)' if half else ''}, but got {x.dtype}.")


def inverse(input: Any) -> Tensor:
    """The inverse of a (batch of) square matrix."""
    x = _tensor(input, "inverse", "input")
    _square_batch(x, "inverse", half=False)
    return LA.inverse(x)


def det(input: Any) -> Tensor:
    """The determinant of a (batch of) square matrix."""
    x = _tensor(input, "det", "input")
    _square_batch(x, "det")
    return LA.det(x)


matrix_determinant = det


def solve(a: Any, b: Any) -> Tensor:
    """``X`` with ``a @ X = b``; ``b`` is (a batch of) vectors ``(..., n)`` or matrices
    ``(..., n, k)``, batch dimensions broadcast."""
    a_ = _tensor(a, "solve", "a")
    b_ = _tensor(b, "solve", "b")
    _square_batch(a_, "solve", half=False)
    n = a_.shape[-1]
    vector = b_.ndim == a_.ndim - 1 and b_.shape[-1:] == (n,)
    bm = reshape(b_, b_.shape + (1,)) if vector else b_
    if bm.ndim < 2 or bm.shape[-2] != n:
        raise ValueError(f"For 'solve', 'b' must have shape (..., {n}) or (..., {n}, k) to "
                         f"match 'a' of shape {list(a_.shape)}, but got {list(b_.shape)}.")
    try:
        np.broadcast_shapes(a_.shape[:-2], bm.shape[:-2])
    except ValueError:
        raise ValueError(f"For 'solve', the batch dimensions of 'a' {list(a_.shape)} and 'b' "
                         f"{list(b_.shape)} can not broadcast.") from None
    if bm.dtype != a_.dtype:
        raise TypeError(f"For 'solve', 'a' and 'b' must have the same dtype, but got "
                        f"{a_.dtype} and {bm.dtype}.")
    out = LA.solve(a_, bm)
    return reshape(out, out.shape[:-1]) if vector else out


def cholesky(input_x: Any, upper: bool = False) -> Tensor:
    """The Cholesky factor of a symmetric positive-definite (batch of) matrix: lower ``L``
    with ``A = L L^T`` (only the lower triangle of A is read), or upper ``U = L^T`` reading
    the upper triangle."""
    x = _tensor(input_x, "cholesky", "input_x")
    _square_batch(x, "cholesky")
    upper = _flag(upper, "cholesky", "upper")
    if not upper:
        return LA.cholesky(x)
    return MM.swap_last(LA.cholesky(MM.swap_last(x)))


def svd(input: Any, full_matrices: bool = False, compute_uv: bool = True) -> Any:
    """The singular values ``s`` (descending) of a (batch of) matrix, and with ``compute_uv``
    the tuple ``(s, u, v)`` with ``input = u diag(s) v^T`` (``v`` itself, as MindSpore gives
    it). Derivatives need distinct nonzero singular values; those of ``u`` and ``v`` also
    need ``full_matrices=False`` unless the matrices are square. Where only ``s`` is needed,
    ``compute_uv=False`` also spares its gradient the terms for ``u`` and ``v``."""
    x = _tensor(input, "svd", "input")
    compute_uv = _flag(compute_uv, "svd", "compute_uv")
    if x.ndim < 2:
        raise ValueError(f"For 'svd', the input must be a (batch of) matrix of shape (..., m, n), "
                         f"but got {list(x.shape)}.")
    _float_matrix(x, "svd", half=False)
    if not compute_uv:
        return LA.svdvals(x)
    return LA.svd(x, full_matrices=_flag(full_matrices, "svd", "full_matrices"))


def _axes_pair(axes: Any, a: Tensor, b: Tensor) -> tuple:
    if _is_int(axes):
        if not 0 <= axes <= min(a.ndim, b.ndim):
            raise ValueError(f"For 'tensor_dot', an int 'axes' must be in [0, "
                             f"{min(a.ndim, b.ndim)}], but got {axes}.")
        return tuple(range(a.ndim - axes, a.ndim)), tuple(range(axes))
    if isinstance(axes, (tuple, list)) and len(axes) == 2:
        xa, xb = ((ax,) if _is_int(ax) else ax for ax in axes)
        if isinstance(xa, (tuple, list)) and isinstance(xb, (tuple, list)) and \
                len(xa) == len(xb):
            return (tuple(_axis(i, a.ndim, "tensor_dot", "axes") for i in xa),
                    tuple(_axis(i, b.ndim, "tensor_dot", "axes") for i in xb))
    raise TypeError(f"For 'tensor_dot', 'axes' must be an int or a pair of equally long "
                    f"tuples of ints, but got {axes!r}.")


@_composite
def tensor_dot(x1: Any, x2: Any, axes: Any) -> Tensor:
    """The sum over the paired ``axes`` of ``x1`` and ``x2`` of their products (NumPy's
    ``tensordot``): an int ``n`` pairs the last ``n`` axes of ``x1`` with the first ``n``
    of ``x2``."""
    a, b = _tensor(x1, "tensor_dot", "x1"), _tensor(x2, "tensor_dot", "x2")
    xa, xb = _axes_pair(axes, a, b)
    if len(set(xa)) != len(xa) or len(set(xb)) != len(xb):
        raise ValueError(f"For 'tensor_dot', 'axes' must not repeat an axis, but got {axes!r}.")
    for i, j in zip(xa, xb):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"For 'tensor_dot', axis {i} of 'x1' {list(a.shape)} and axis {j} "
                             f"of 'x2' {list(b.shape)} must have the same size.")
    free_a = [i for i in range(a.ndim) if i not in xa]
    free_b = [j for j in range(b.ndim) if j not in xb]
    k = math.prod(a.shape[i] for i in xa)
    am = reshape(transpose(a, tuple(free_a) + xa), (math.prod(a.shape[i] for i in free_a), k))
    bm = reshape(transpose(b, xb + tuple(free_b)), (k, math.prod(b.shape[j] for j in free_b)))
    out = matmul(am, bm)
    return reshape(out, tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b))


def _np_dot(x: Any, y: Any) -> Tensor:
    """NumPy's ``dot``: the last axis of ``x`` against the second to last of ``y`` (its only
    one when 1-D); the free axes of ``x`` then those of ``y``."""
    a, b = _tensor(x, "dot", "input"), _tensor(y, "dot", "other")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"For 'dot', the inputs must not be scalars, but got shapes "
                         f"{list(a.shape)} and {list(b.shape)}.")
    if a.ndim <= 2 and b.ndim <= 2:
        return matmul(a, b)
    kb = b.ndim - 2 if b.ndim >= 2 else 0
    if a.shape[-1] != b.shape[kb]:
        raise ValueError(f"For 'dot', the last axis of 'input' {list(a.shape)} must match "
                         f"axis {kb} of 'other' {list(b.shape)}.")
    return tensor_dot(a, b, ((a.ndim - 1,), (kb,)))


__all__ = _public_names(globals())
