"""Matrix multiplication (inputs of rank >= 2, batch dimensions broadcast)."""
from __future__ import annotations

import numpy as np

from ..core.primitive import Primitive
from . import structural as S


def _blas_ready(x):
    """``x``, or a contiguous copy when NumPy could not hand its matrices to BLAS: a
    broadcast (stride 0) operand, such as the cotangent of a sum, would otherwise run
    through NumPy's unvectorized fallback loop, 5 to 20 times slower than copy + BLAS."""
    if type(x) is not np.ndarray or x.ndim < 2 or x.dtype.kind not in "fc":
        return x
    sm, sn = x.strides[-2:]
    m, n = x.shape[-2:]
    sz = x.itemsize
    if (sn == sz and sm % sz == 0 and sm // sz >= n) or (sm == sz and sn % sz == 0
                                                          and sn // sz >= m):
        return x
    return np.ascontiguousarray(x)


def _matmul_impl(a, b, transpose_a=False, transpose_b=False):
    # Transposes are views: BLAS reads them in place, no copies are made.
    if transpose_a:
        a = a.swapaxes(-1, -2)
    if transpose_b:
        b = b.swapaxes(-1, -2)
    try:
        if a.ndim >= 2 and b.ndim >= 2 and a.shape[-1] == 1 and b.shape[-2] == 1:
            # An inner dimension of 1 (an outer product, e.g. the weight gradient of a
            # matrix-vector product): a broadcast multiply, several times faster than BLAS.
            # Adding +0 gives a zero product the sign BLAS gives it (its sums start at +0).
            out = np.multiply(a, b)
            if out.dtype.kind in "fc":
                out += 0
            return out
        if b.ndim == 2 and a.ndim > 2 and type(a) is np.ndarray and a.shape[-1] == b.shape[0]:
            # A stack of matrices times one matrix (a batch of directions or examples through
            # a layer) is one GEMM over all the rows: NumPy's matmul would call BLAS once per
            # matrix of the stack, with rows of 1 once per row, up to 10x slower.
            rows = a.reshape(-1, a.shape[-1])
            return np.matmul(_blas_ready(rows), _blas_ready(b)).reshape(
                a.shape[:-1] + (b.shape[1],))
        return np.matmul(_blas_ready(a), _blas_ready(b))
    except ValueError:
        raise ValueError(f"For 'MatMul', the inner dimensions of x {list(a.shape)} and y "
                         f"{list(b.shape)} must match (x[-1] == y[-2]) and the batch "
                         f"dimensions must broadcast.") from None


def swap_last(x):
    """Transpose the last two axes."""
    n = len(S.shape_of(x))
    perm = tuple(range(n - 2)) + (n - 1, n - 2)
    return S.transpose(x, perm=perm)


def mm(a, b, transpose_a: bool = False, transpose_b: bool = False):
    """``op(a) @ op(b)`` where op transposes the last two axes when asked."""
    if transpose_a or transpose_b:
        return matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b)
    return matmul(a, b)


# With out = A' @ B' (A' = op(a), B' = op(b)): dA' = g B'^T and dB' = A'^T g; when an input
# was transposed, its gradient is the transpose of those, written as one product so that
# the result comes out contiguous (as MindSpore's MatMul bprop does).
def _grad_a(g, ans, a, b, transpose_a=False, transpose_b=False):
    da = mm(b, g, transpose_b, True) if transpose_a else mm(g, b, False, not transpose_b)
    return S.unbroadcast(da, a)


def _grad_b(g, ans, a, b, transpose_a=False, transpose_b=False):
    db = mm(g, a, True, transpose_a) if transpose_b else mm(a, g, not transpose_a, False)
    return S.unbroadcast(db, b)


# No inline ``@`` for GRAPH code: the impl's fast path for inner dimension 1 must apply there too.
matmul = Primitive("MatMul", _matmul_impl, hints={"fresh": True})
matmul.vjp = (_grad_a, _grad_b)
matmul.jvp = (lambda t, ans, a, b, transpose_a=False, transpose_b=False:
              S.broadcast_like(mm(t, b, transpose_a, transpose_b), ans),
              lambda t, ans, a, b, transpose_a=False, transpose_b=False:
              S.broadcast_like(mm(a, t, transpose_a, transpose_b), ans))


# Batch axes go in front as extra (broadcast) batch dimensions of the matrix product.
matmul.batch = S.elementwise(matmul)


matmul.taylor = S.bilinear(matmul)
