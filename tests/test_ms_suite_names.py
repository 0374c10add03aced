"""Small names MindSpore's own differentiation tests use: ``nn.MatMul``,
``ops.unsqueeze(input, dim)``; values checked against MindSpore 2.10 (CPU)."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, nn, ops


def test_nn_matmul_vectors_and_broadcast_batches():
    m = nn.MatMul()
    assert repr(m) == "MatMul()"
    assert float(m(Tensor([1.0, 2, 3, 4]), Tensor([5.0, 6, 7, 8]))) == 70.0
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    b = np.arange(20, dtype=np.float32).reshape(5, 4)
    out = nn.MatMul(transpose_x2=True)(Tensor(a), Tensor(b))
    np.testing.assert_allclose(out.asnumpy(), a @ b.T)


def test_nn_matmul_gradient_through_a_backward_hook():
    # a hook on the MatMul cell replaces the gradients of its inputs (MindSpore 2.10:
    # [2, 3, 4, 5] and [6, 7, 8, 9] for this net)
    def hook(cell, grad_input, grad_output):
        return Tensor(np.array([2, 3, 4, 5], np.float32)), Tensor(np.array([5, 6, 7, 8], np.float32))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mul = nn.MatMul()
            self.relu = nn.ReLU()
            self.mul.register_backward_hook(hook)

        def construct(self, x, y):
            return self.relu(self.mul(x, y)) + y

    gx, gy = ops.GradOperation(get_all=True)(Net())(Tensor([1.0, 2, 3, 4]), Tensor([5.0, 6, 7, 8]))
    np.testing.assert_array_equal(gx.asnumpy(), [2, 3, 4, 5])
    np.testing.assert_array_equal(gy.asnumpy(), [6, 7, 8, 9])


def test_nn_matmul_rejects_non_bool_flags():
    with pytest.raises(TypeError, match="transpose_x1"):
        nn.MatMul(transpose_x1=1)


def test_unsqueeze_takes_dim_by_keyword():
    x = Tensor([1.0, 2.0])
    assert ops.unsqueeze(x, dim=0).shape == (1, 2)
    assert ops.unsqueeze(x, -1).shape == (2, 1)
    with pytest.raises(ValueError):
        ops.unsqueeze(x, dim=3)
