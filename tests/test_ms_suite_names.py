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


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_hypermap_passes_a_tuple_beside_a_leaf_to_the_function(mode):
    # MindSpore 2.10: HyperMap decides by its first argument, so a (Tensor, tuple) pair goes
    # to the ("Tensor", "Tuple") entry whole; gradients (0, 0, 2) through the branch taken
    from mindgrad.ops import composite as C

    ctrl = C.MultitypeFuncGraph("ctrl")

    @ctrl.register("Tensor", "Tuple")
    def _pick(x, y):
        if x > 0:
            return y[0]
        return y[1]

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.hyper_map = C.HyperMap(ctrl)

        def construct(self, x, y, z):
            return self.hyper_map((x, y), ((z, x), (y, z)))

    ms.set_context(mode=mode)
    try:
        x, y, z = Tensor(2, ms.int32), Tensor(-3, ms.int32), Tensor(0, ms.int32)
        out = Net()(x, y, z)
        assert [int(t) for t in out] == [0, 0]
        grads = ops.GradOperation(get_all=True)(Net())(x, y, z)
        assert [int(g) for g in grads] == [0, 0, 2]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_hypermap_refuses_a_leaf_after_a_sequence():
    from mindgrad.ops import composite as C

    with pytest.raises(TypeError, match="first input is a sequence"):
        C.HyperMap()(lambda a, b: a, (Tensor(1.0),), Tensor(2.0))
