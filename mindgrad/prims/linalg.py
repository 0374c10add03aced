"""Matrix multiplication (inputs of rank >= 2, batch dimensions broadcast)."""
from __future__ import annotations

import numpy as np

from ..core.primitive import Primitive
from . import shape as S


def _matmul_impl(a, b):
    try:
        return np.matmul(a, b)
    except ValueError:
        raise ValueError(f"For 'MatMul', the inner dimensions of x {list(a.shape)} and y "
                         f"{list(b.shape)} must match (x[-1] == y[-2]) and the batch "
                         f"dimensions must broadcast.") from None


def swap_last(x):
    """Transpose the last two axes."""
    n = len(S.shape_of(x))
    perm = tuple(range(n - 2)) + (n - 1, n - 2)
    return S.transpose(x, perm=perm)


matmul = Primitive("MatMul", _matmul_impl, expr="{0} @ {1}")
matmul.vjp = (lambda g, ans, a, b: S.unbroadcast(matmul(g, swap_last(b)), a),
              lambda g, ans, a, b: S.unbroadcast(matmul(swap_last(a), g), b))
matmul.jvp = (lambda t, ans, a, b: S.broadcast_like(matmul(t, b), ans),
              lambda t, ans, a, b: S.broadcast_like(matmul(a, t), ans))


from . import batch_rules as B  # noqa: E402

# Batch axes go in front as extra (broadcast) batch dimensions of the matrix product.
matmul.batch = B.elementwise(matmul)

from . import taylor_rules as T  # noqa: E402

matmul.taylor = T.bilinear(matmul)
