"""The seeds' table of operators with second-order support, differentiated to third order
under every device target and in both modes: "GPU" runs on CuPy where CuPy and a GPU are
present, and otherwise falls back to the CPU (the seed scripts that ask for a GPU still
run). Third derivatives are checked against closed forms."""
from __future__ import annotations

import math

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import context, ops

X = np.array([0.3, 0.7, 1.1])
Y = np.array([1.5, 0.6, 2.0])
SEC = lambda v: 1 / np.cos(v)  # noqa: E731

# name, f(x) built from the operator, closed-form third derivative in x
TABLE = [
    ("Square", lambda x: ops.square(x), lambda v: 0 * v),
    ("Exp", lambda x: ops.exp(x), np.exp),
    ("Neg", lambda x: ops.neg(x) * x * x * x, lambda v: -24 * v),
    ("Mul", lambda x: ops.mul(x, ms.Tensor(Y)) * x * x, lambda v: 6 * Y),
    ("MatMul", lambda x: ops.matmul(ops.reshape(x * x * x, (1, 3)), ms.Tensor(np.eye(3))),
     lambda v: 6 + 0 * v),
    ("Pow", lambda x: ops.pow(x, 3.5), lambda v: 3.5 * 2.5 * 1.5 * v ** 0.5),
    ("Log", lambda x: ops.log(x), lambda v: 2 / v ** 3),
    ("Div", lambda x: ops.div(1.0, x), lambda v: -6 / v ** 4),
    ("Sin", lambda x: ops.sin(x), lambda v: -np.cos(v)),
    ("Cos", lambda x: ops.cos(x), np.sin),
    ("Tan", lambda x: ops.tan(x), lambda v: 2 * SEC(v) ** 2 * (SEC(v) ** 2 + 2 * np.tan(v) ** 2)),
    ("Sinh", lambda x: ops.sinh(x), np.cosh),
    ("Cosh", lambda x: ops.cosh(x), np.sinh),
    ("Atanh", lambda x: ops.atanh(x * 0.5),
     lambda v: 0.125 * (2 + 6 * (v / 2) ** 2) / (1 - (v / 2) ** 2) ** 3),
]


@pytest.fixture(params=["CPU", "GPU"])
def device(request):
    context.set_context(device_target=request.param)
    yield request.param
    context.set_context(device_target="CPU", mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("name,f,d3", TABLE, ids=[row[0] for row in TABLE])
def test_third_order_on_every_device_target(device, mode, name, f, d3) -> None:
    ms.set_context(mode=mode)
    x = ms.Tensor(X)
    assert type(x._data).__module__.split(".")[0] == context.array_module().__name__
    g3 = ops.grad(ops.grad(ops.grad(lambda x: f(x).sum())))
    got = (ms.jit(g3) if mode == ms.GRAPH_MODE else g3)(x).asnumpy()
    assert isinstance(got, np.ndarray)
    np.testing.assert_allclose(got, d3(X), rtol=1e-9, atol=1e-9, err_msg=f"{name} on {device}")
    assert math.isfinite(float(got.sum()))
