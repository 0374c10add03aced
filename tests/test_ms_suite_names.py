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
        return (Tensor(np.array([2, 3, 4, 5], np.float32)),
                Tensor(np.array([5, 6, 7, 8], np.float32)))

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


class _Square(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor([2.0], ms.float32), "w")

    def construct(self, x):
        return self.w * x * x


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_forward_value_and_grad_forms(mode):
    # values from MindSpore 2.10: loss 18, d/dx 12, d/dw 9, with sens 2: d/dx 24
    ms.set_context(mode=mode)
    try:
        net, x = _Square(), Tensor([3.0], ms.float32)
        loss, g = nn.ForwardValueAndGrad(net)(x)
        assert float(loss) == 18.0 and float(g) == 12.0
        loss, (gin, gw) = nn.ForwardValueAndGrad(net, weights=net.trainable_params(),
                                                 get_all=True, get_by_list=True)(x)
        assert float(loss) == 18.0
        assert [float(t) for t in gin] == [12.0] and [float(t) for t in gw] == [9.0]
        loss, gin = nn.ForwardValueAndGrad(net, get_all=True, sens_param=True)(
            x, Tensor([2.0], ms.float32))
        assert float(loss) == 18.0 and [float(t) for t in gin] == [24.0]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_forward_value_and_grad_runs_the_network_once():
    calls = []

    class Counting(nn.Cell):
        def construct(self, x):
            calls.append(1)
            return x * x

    nn.ForwardValueAndGrad(Counting())(Tensor([1.0]))
    assert len(calls) == 1


def test_forward_value_and_grad_needs_weights_with_get_by_list():
    with pytest.raises(TypeError, match="'weights' must be Parameters array"):
        nn.ForwardValueAndGrad(_Square(), get_by_list=True)


def test_shape_placeholder_and_set_inputs():
    p = Tensor(shape=[None, 3], dtype=ms.float32)
    assert p.shape == (-1, 3) and p.dtype == ms.float32 and p.ndim == 2
    with pytest.raises(TypeError, match="placeholder"):
        Tensor(shape=[None, "a"], dtype=ms.float32)

    class Twice(nn.Cell):
        def construct(self, x):
            return x * 2

    net = Twice()
    assert net.get_inputs() is None
    net.set_inputs(p)
    assert net.get_inputs() == (p,)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        # one declaration serves every size along the None axis
        assert net(Tensor(np.ones((5, 3), np.float32))).shape == (5, 3)
        assert net(Tensor(np.ones((2, 3), np.float32))).shape == (2, 3)
        with pytest.raises(ValueError, match="shape of 1th input"):
            net(Tensor(np.ones((2, 4), np.float32)))
        with pytest.raises(ValueError, match="dims of 1th input"):
            net(Tensor(np.ones((3,), np.float32)))
        with pytest.raises(TypeError, match="Tensor\\[Float32\\]"):
            net(Tensor(np.ones((2, 3), np.int32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    # PYNATIVE mode does not check (as in MindSpore)
    assert net(Tensor(np.ones((3,), np.float32))).shape == (3,)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_hook_primitives_are_in_operations(mode):
    from mindgrad.ops import operations as P

    assert P.HookBackward is ops.HookBackward and P.InsertGradientOf is ops.InsertGradientOf
    seen = []

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.hook = P.HookBackward(lambda g: seen.append(g[0].asnumpy().copy()))

        def construct(self, x):
            x = x + x
            return self.hook(x * x)

    ms.set_context(mode=mode)
    try:
        (g,) = ops.GradOperation(get_all=True)(Net())(Tensor([1.0, 2.0]))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(g.asnumpy(), [8.0, 16.0])  # d/dx (2x)^2 = 8x
    np.testing.assert_allclose(seen[0], [1.0, 1.0])
