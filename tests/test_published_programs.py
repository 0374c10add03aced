"""Names and behaviours that published MindSpore programs (the official tutorials on
gradients, Parameters and Cells, and their API examples) rely on, each checked against what
MindSpore 2.10 prints for the same lines."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Parameter, Tensor, nn, ops


def test_get_grad_by_position_and_parameter() -> None:
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")

        def construct(self, x, y, z):
            return x * y * z * self.w

    net = Net()
    x, y, z = (Tensor(np.array(v, np.float32)) for v in ([1, 2], [-2, 3], [0, 3]))
    out = ms.grad(net, grad_position=(1, 2), weights=net.trainable_params(),
                  return_ids=True)(x, y, z)
    np.testing.assert_array_equal(ms.get_grad(out, 1).asnumpy(), [0.0, 18.0])
    np.testing.assert_array_equal(ms.get_grad(out, 2).asnumpy(), [-4.0, 18.0])
    np.testing.assert_array_equal(ms.get_grad(out, net.w).asnumpy(), [0.0, 18.0])


def test_dtype_to_pytype() -> None:
    assert ms.dtype_to_pytype(ms.float64) is float and ms.dtype_to_pytype(ms.float16) is float
    assert ms.dtype_to_pytype(ms.int8) is int and ms.dtype_to_pytype(ms.uint32) is int
    assert ms.dtype_to_pytype(ms.bool_) is bool and ms.dtype_to_pytype(ms.complex64) is complex
    with pytest.raises(KeyError):
        ms.dtype_to_pytype(3)


def test_cell_phase_follows_set_train() -> None:
    net = nn.SequentialCell([nn.Dense(2, 2)])
    assert net.phase == "train"
    net.set_train(False)
    # only the cell set_train is called on changes its phase; every cell's training flag does
    assert (net.phase, net[0].phase, net.training, net[0].training) == (
        "predict", "train", False, False)
    net.set_train()
    assert net.phase == "train"


def test_unnamed_parameters_are_numbered() -> None:
    a = Parameter(Tensor(np.ones(2, np.float32)))
    b = Parameter(1.0)
    na, nb = int(a.name.split("#")[1]), int(b.name.split("#")[1])
    assert a.name.startswith("Parameter#") and nb == na + 1
    a.name = None  # cleared: a new number
    assert a.name == f"Parameter#{nb + 1}"

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.ones(2, np.float32)))

    assert Net().w.name == "w"


@pytest.mark.parametrize("graph", [False, True])
def test_scalar_output_with_a_larger_sens(graph: bool) -> None:
    # The r1.6 "Gradient Operation" guide passes a [2, 3] sens for a scalar output: MindSpore
    # 2.10 reads its first element in GRAPH mode and its sum in PYNATIVE mode.
    x = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))
    sens = Tensor(np.array([[0.5, 7.0, 9.0], [2.0, 3.0, 4.0]], np.float32))

    class Net(nn.Cell):
        def construct(self, x):
            return (x * x)[0][1]

    class Grad(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net, self.grad = net, ops.GradOperation(sens_param=True)

        def construct(self, x, s):
            return self.grad(self.net)(x, s)

    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    try:
        got = Grad(Net())(x, sens).asnumpy()
        with pytest.raises(ValueError, match=r"sens\[0\] has shape \[2, 3\] but output 0 "
                                             r"has shape \[3\]"):
            ops.GradOperation(sens_param=True)(lambda x: (x * x)[0])(x, sens)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    want = np.zeros((2, 3), np.float32)
    want[0, 1] = 4.0 * (0.5 if graph else 25.5)
    np.testing.assert_array_equal(got, want)


def test_tensor_made_with_an_initializer_prints_uninitialized_until_read() -> None:
    from mindgrad.common.initializer import One

    t = Tensor(shape=(2, 2), dtype=ms.float32, init=One())
    text = "Tensor(shape=[2, 2], dtype=Float32, value=\n<uninitialized>)"
    assert str(t) == text and repr(t) == text and t.has_init
    np.testing.assert_array_equal(t.asnumpy(), np.ones((2, 2), np.float32))
    assert str(t) == "[[1. 1.]\n [1. 1.]]" and not t.has_init and t.init is None
    u = Tensor(shape=(3,), dtype=ms.float32, init=One())
    assert u.init_data() is u and str(u) == "[1. 1. 1.]"
    with pytest.raises(TypeError, match="init_data"):
        u.init_data()


def test_tensordump_names_files_as_mindspore(tmp_path) -> None:
    from mindgrad.ops import debug_ops

    first = next(debug_ops._DUMPS) + 1  # the sequence is the process's
    x = Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
    assert ops.tensordump(str(tmp_path / "td"), x) is None
    ops.tensordump(str(tmp_path / "td.npy"), Tensor(np.arange(3)))
    ops.TensorDump("in")(str(tmp_path / "q"), x)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"q_float32_{first + 2}.npy", f"td_float32_{first}.npy",
                     f"td_int64_{first + 1}.npy"]
    np.testing.assert_array_equal(np.load(tmp_path / f"td_float32_{first}.npy"), x.asnumpy())
    with pytest.raises(TypeError, match="file_name"):
        ops.tensordump(3, x)
    with pytest.raises(ValueError, match="'mode'.*'bad'"):
        ops.tensordump(str(tmp_path / "z"), x, "bad")


def test_outer_products_give_zeros_the_sign_blas_gives() -> None:
    # the per-sample-gradients tutorial prints this gradient: MindSpore (BLAS) gives +0
    theta = Tensor(np.array([0.2, -0.2, 0.1], np.float32))
    s = Tensor(np.array([1.0, 2.0, 0.0], np.float32))
    g = ms.grad(lambda t: ops.tensor_dot(t, s, axes=1) * -2.0)(theta).asnumpy()
    np.testing.assert_array_equal(g, [-2.0, -4.0, 0.0])
    assert not np.signbit(g[2])
    outer = ops.matmul(Tensor(np.array([[-2.0], [3.0]], np.float32)),
                       Tensor(np.array([[0.0, 1.0]], np.float32))).asnumpy()
    np.testing.assert_array_equal(outer, [[0.0, -2.0], [0.0, 3.0]])
    assert not np.signbit(outer[:, 0]).any()  # -2 * 0 is +0, as NumPy's matmul gives it
