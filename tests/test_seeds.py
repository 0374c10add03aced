"""The seed examples.

1. Every ``../shared/conformance/seeds/*.py`` runs unmodified through ``python -m mindgrad run``
   and prints the numbers of its ``.expected`` file (rtol = atol = 1e-4), with the same Tensor
   shapes and the same number of Tensor reprs. These tests are skipped where ``../shared`` is
   absent.
2. Independently of ``../shared``, the seeds' computations are re-implemented in-process here
   and checked against the documented numbers, in both modes.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops
from mindgrad import Parameter, Tensor

from gradcheck import f32

SHARED = Path(__file__).resolve().parents[2] / "shared"
SEEDS = SHARED / "conformance" / "seeds"
SEED_NAMES = sorted(p.stem for p in SEEDS.glob("*.py")) if SEEDS.is_dir() else []
needs_shared = pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/conformance is absent")

NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan")
SHAPE = re.compile(r"shape=\[([\d, ]*)\]")


def numbers(text: str) -> list[float]:
    body = re.sub(r"dtype=\w+", "", SHAPE.sub("", text))
    return [float(t) for t in NUM.findall(body)]


# --- 1. the scripts themselves ---------------------------------------------------------------
@needs_shared
def test_seed_folder_is_complete() -> None:
    assert len(SEED_NAMES) >= 13
    for name in SEED_NAMES:
        assert (SEEDS / f"{name}.expected").is_file(), name


@needs_shared
@pytest.mark.parametrize("name", SEED_NAMES or ["<none>"])
def test_seed_script(name: str) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path(ms.__file__).resolve().parents[1])] + sys.path))
    run = subprocess.run([sys.executable, "-m", "mindgrad", "run", f"{name}.py"], cwd=SEEDS,
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    want = (SEEDS / f"{name}.expected").read_text()
    got_n, want_n = numbers(run.stdout), numbers(want)
    assert len(got_n) == len(want_n), f"{run.stdout}\n!=\n{want}"
    np.testing.assert_allclose(got_n, want_n, rtol=1e-4, atol=1e-4, err_msg=run.stdout)
    assert SHAPE.findall(run.stdout) == SHAPE.findall(want)
    assert run.stdout.count("Tensor(") == want.count("Tensor(")


# --- 2. the same computations, in-process --------------------------------------------------


X = [[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]]
Y = [[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]]


class MatMulNet(nn.Cell):
    def __init__(self, first_only=False):
        super().__init__()
        self.matmul = ops.MatMul()
        self.z = Parameter(f32([1.0]), name="z")
        self.first_only = first_only

    def construct(self, x, y):
        out = self.matmul(x * self.z, y)
        return out[0][0] if self.first_only else out


class GradNet(nn.Cell):
    def __init__(self, net, op, weights=None, sens=None):
        super().__init__()
        self.net, self.op, self.weights, self.sens = net, op, weights, sens

    def construct(self, *args):
        fn = self.op(self.net) if self.weights is None else self.op(self.net, self.weights)
        return fn(*args) if self.sens is None else fn(*args, self.sens)


def close(got, want, tol=1e-5) -> None:
    assert isinstance(got, Tensor)
    want = np.asarray(want, np.float64)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.asnumpy(), want, rtol=tol, atol=tol)


def test_s01_to_s05_matmul_gradients(mode) -> None:
    x, y = f32(X), f32(Y)
    row = [4.51, 2.7, 3.6]
    close(GradNet(MatMulNet(), ops.GradOperation())(x, y), [row, row])            # s01
    dx, dy = GradNet(MatMulNet(), ops.GradOperation(get_all=True))(x, y)          # s02
    close(dx, [row, row])
    close(dy, [[2.6] * 3, [1.9] * 3, [1.3] * 3])
    net = MatMulNet()
    out = GradNet(net, ops.GradOperation(get_by_list=True),                        # s03
                  ms.ParameterTuple(net.trainable_params()))(x, y)
    assert isinstance(out, tuple) and len(out) == 1
    close(out[0], [21.536])
    sens = f32([[0.1, 0.6, 0.2], [0.8, 1.3, 1.1]])                                 # s04
    close(GradNet(MatMulNet(), ops.GradOperation(sens_param=True), sens=sens)(x, y),
          [[2.211, 0.51, 1.49], [5.588, 2.68, 4.07]])
    close(GradNet(MatMulNet(True), ops.GradOperation())(x, y),                     # s05
          [[0.11, 1.1, 1.1], [0, 0, 0]])


def test_s06_stop_gradient(mode) -> None:
    class Net(nn.Cell):
        def __init__(self, stop):
            super().__init__()
            self.matmul = ops.MatMul()
            self.stop = stop

        def construct(self, x, y):
            out2 = self.matmul(x, y)
            if self.stop:
                out2 = ops.stop_gradient(out2)
            return self.matmul(x, y) + out2

    x, y = f32(X), f32(Y)
    row = np.array([4.51, 2.7, 3.6])
    close(GradNet(Net(True), ops.GradOperation())(x, y), [row, row])
    close(GradNet(Net(False), ops.GradOperation())(x, y), [2 * row, 2 * row])


def test_s07_custom_bprop(mode) -> None:
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = ops.MatMul()

        def construct(self, x, y):
            return self.matmul(x, y)

        def bprop(self, x, y, out, dout):
            return x + 1, y + 1

    x = [[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]]
    y = [[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]]
    dx, dy = GradNet(Net(), ops.GradOperation(get_all=True))(f32(x), f32(y))
    close(dx, np.array(x) + 1)
    close(dy, np.array(y) + 1)


def test_s08_s09_second_order(mode) -> None:
    grad = ops.GradOperation()
    second_sin = GradNet(GradNet(ops.Sin(), grad), grad)
    close(second_sin(f32([1.0])), [-0.841471])
    close(second_sin(f32([3.1415926])), [0.0])

    class Square(nn.Cell):
        def construct(self, x):
            return ops.Mul()(x, x)

    square = GradNet(GradNet(Square(), grad), grad)
    close(square(f32([0.1, 0.2, 0.3])), [2, 2, 2])

    class SinCos(nn.Cell):
        def construct(self, x):
            return ops.Sin()(x), ops.Cos()(x)

    # d2/dx2 (sin + cos) = -sin - cos = 1 at pi
    close(GradNet(GradNet(SinCos(), grad), grad)(f32([3.1415926])), [1.0])


def test_s10_mixed_second_order(mode) -> None:
    class Net(nn.Cell):
        def construct(self, x, y):
            return ops.Mul()(ops.Mul()(x, x), y)

    first = GradNet(Net(), ops.GradOperation(get_all=True))
    second = ops.GradOperation(get_all=True, sens_param=True)
    one, zero = f32([1]), f32([0])
    x, y = f32([4]), f32([5])
    dxdx, dxdy = GradNet(first, second, sens=(one, zero))(x, y)
    dydx, dydy = GradNet(first, second, sens=(zero, one))(x, y)
    for got, want in zip((dxdx, dxdy, dydx, dydy), ([10], [8], [8], [0])):
        close(got, want)

    class Net2(nn.Cell):
        def construct(self, x, y):
            return ops.sin(x) - ops.cos(y), ops.cos(x) - ops.sin(y)

    all_grad = ops.GradOperation(get_all=True)
    out = GradNet(GradNet(Net2(), all_grad), all_grad)(f32([3.1415926]), f32([3.1415926]))
    close(out[0], [1.0])
    close(out[1], [-1.0])


def test_s11_nn_jvp_vjp(mode) -> None:
    class Net(nn.Cell):
        def construct(self, x, y):
            return ops.sin(x) + ops.cos(y)

    x, y, v = f32([0.8, 0.6, 0.2]), f32([0.7, 0.4, 0.3]), f32([1, 1, 1])
    out_want = [1.48219836, 1.48570347, 1.15400589]
    out, jvp = nn.Jvp(Net())(x, y, (v, v))
    close(out, out_want)
    close(jvp, [5.24890423e-02, 4.35917288e-01, 6.84546351e-01])
    out, (dx, dy) = nn.Vjp(Net())(x, y, v)
    close(out, out_want)
    close(dx, [6.96706712e-01, 8.25335622e-01, 9.80066597e-01])
    close(dy, [-6.44217670e-01, -3.89418334e-01, -2.95520216e-01])


def test_s12_functional_grad(mode) -> None:
    class Net(nn.Cell):
        def construct(self, x, y, z):
            return x * y * z

    class Net2(nn.Cell):
        def construct(self, x, y, z):
            return x ** 2 + y ** 2 + z ** 2, x * y * z

    x, y = f32([[1, 2], [3, 4]]), f32([[-2, 3], [-1, 2]])
    z, v = f32([[0, 3], [5, -1]]), f32([[-1, 3], [2, 1]])
    gy, gz = GradNet(Net(), lambda n: ops.grad(n, grad_position=(1, 2)))(x, y, z)
    close(gy, [[0, 6], [15, -4]])
    close(gz, [[-2, 6], [-3, 8]])
    gy, gz = GradNet(Net2(), lambda n: ops.grad(n, grad_position=(1, 2), sens_param=True),
                     sens=(v, v))(x, y, z)
    close(gy, [[4, 36], [26, 0]])
    close(gz, [[2, 36], [14, 6]])


def test_s13_functional_jvp_vjp(mode) -> None:
    class Net(nn.Cell):
        def construct(self, x, y):
            return x ** 3 + y

    x = f32([[1, 2], [3, 4]])
    v = f32([[1, 1], [1, 1]])
    out, jvp = ops.jvp(Net(), (x, x), (v, v))
    close(out, [[2, 10], [30, 68]])
    close(jvp, [[4, 13], [28, 49]])
    out, (dx, dy) = ops.vjp(Net(), (x, x), v)  # the seed's form
    close(out, [[2, 10], [30, 68]])
    close(dx, [[3, 12], [27, 48]])
    close(dy, [[1, 1], [1, 1]])
    out, vjp_fn = ops.vjp(Net(), x, x)  # MindSpore 2.x's form
    dx, dy = vjp_fn(v)
    close(dx, [[3, 12], [27, 48]])
    close(dy, [[1, 1], [1, 1]])


def test_seed_printing_in_process(mode, capsys) -> None:
    x, y = f32(X), f32(Y)
    print(GradNet(MatMulNet(), ops.GradOperation())(x, y))
    net = MatMulNet()
    out = GradNet(net, ops.GradOperation(get_by_list=True),
                  ms.ParameterTuple(net.trainable_params()))(x, y)
    print(out)
    print(out[0])
    assert capsys.readouterr().out == (
        "[[4.5099998 2.7       3.6000001]\n [4.5099998 2.7       3.6000001]]\n"
        "(Tensor(shape=[1], dtype=Float32, value= [ 2.15359993e+01]),)\n"
        "[21.536]\n")
