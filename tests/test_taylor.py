"""Taylor mode (jet, derivative, laplacian, linearize) against closed forms and against
nested reverse-mode derivatives. Every primitive's jet is checked against nested derivatives
by the primitive table (``tests/test_primitive_table.py``, to order 4 with ``-m slow``)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops


def T(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


def nested_grad(f, order):
    """d^order/dx^order of an elementwise f, by nesting reverse mode (sum trick)."""
    g = f
    for _ in range(order):
        g = (lambda h: lambda x: ops.grad(lambda y: ops.reduce_sum(h(y)))(x))(g)
    return g


class SinNet(nn.Cell):
    def construct(self, x):
        return ops.sin(x) * ops.exp(x)


def test_jet_sinnet_matches_closed_form():
    x = T([0.5, 1.0], np.float32)
    series = T([[1, 1], [0, 0], [0, 0]], np.float32)
    out, s = ops.jet(SinNet(), x, series)
    xv = np.array([0.5, 1.0])
    e = np.exp(xv)
    want = np.stack([e * (np.sin(xv) + np.cos(xv)), 2 * e * np.cos(xv),
                     2 * e * (np.cos(xv) - np.sin(xv))])
    assert s.shape == (3, 2)
    np.testing.assert_allclose(out.asnumpy(), np.sin(xv) * e, rtol=1e-6)
    np.testing.assert_allclose(s.asnumpy(), want, rtol=1e-5)


def test_jet_cube_gives_raw_derivatives():
    for f in (lambda x: x * x * x, lambda x: x ** 3, lambda x: ops.pow(x, 3.0)):
        out, s = ops.jet(f, T(0.5, np.float32), T([1.0, 0.0, 0.0], np.float32))
        np.testing.assert_allclose(s.asnumpy(), [0.75, 3.0, 6.0], rtol=1e-6)
        assert float(out.asnumpy()) == pytest.approx(0.125)


def test_derivative_third_order_and_order_one_series():
    out, d3 = ops.derivative(SinNet(), T([0.5, 1.0], np.float32), 3)
    xv = np.array([0.5, 1.0])
    np.testing.assert_allclose(d3.asnumpy(), 2 * np.exp(xv) * (np.cos(xv) - np.sin(xv)),
                               rtol=1e-5)
    _, s = ops.jet(ops.sin, T([0.2, 0.4]), T([1.0, 2.0]))  # 1-D series like primals: order 1
    np.testing.assert_allclose(s.asnumpy(), [np.cos([0.2, 0.4]) * [1, 2]], rtol=1e-12)


def test_jet_second_order_input_series():
    # x(t) = x0 + t + t^2/2 * 3 (raw second derivative 3): d2/dt2 sin(x(t)) = -sin x0 + cos x0 * 3
    x0 = 0.4
    _, s = ops.jet(ops.sin, T([x0]), T([[1.0], [3.0]]))
    np.testing.assert_allclose(s.asnumpy()[1], [-math.sin(x0) + 3 * math.cos(x0)], rtol=1e-12)


def test_jet_in_graph_mode_matches():
    f = lambda x: ops.tanh(ops.sin(x) * x)  # noqa: E731
    x, series = T([0.3, 0.9]), T([[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]])
    eager = ops.jet(f, x, series)[1].asnumpy()
    compiled = ms.jit(lambda a, b: ops.jet(f, a, b)[1])
    np.testing.assert_allclose(compiled(x, series).asnumpy(), eager, rtol=1e-14)
    np.testing.assert_allclose(compiled(x, series).asnumpy(), eager, rtol=1e-14)


def test_laplacian_against_hessian_trace():
    def f(x):
        return ops.reduce_sum(ops.sin(x) * ops.exp(x[::-1] * 0.5))

    x = T([0.3, -0.2, 0.7])
    h = ops.hessian(f)(x).asnumpy()
    np.testing.assert_allclose(ops.laplacian(f)(x).asnumpy(), np.trace(h), rtol=1e-10)


def test_linearize():
    out, jvp_fn = ops.linearize(lambda a, b: a * ops.sin(b), (T([1.0, 2.0]), T([0.5, 0.1])))
    np.testing.assert_allclose(out.asnumpy(), [1 * math.sin(0.5), 2 * math.sin(0.1)])
    t = jvp_fn((T([1.0, 0.0]), T([0.0, 1.0])))
    np.testing.assert_allclose(t.asnumpy(), [math.sin(0.5), 2 * math.cos(0.1)])


def test_taylor_errors():
    with pytest.raises(ValueError, match="order should not be less than 1, but got 0"):
        ops.derivative(ops.sin, T([1.0]), 0)
    with pytest.raises(TypeError, match="dtype"):
        ops.jet(ops.sin, ms.Tensor(np.array([1, 2], np.int32)), T([[1.0, 1.0]], np.float32))
    with pytest.raises(ValueError, match="series"):
        ops.jet(ops.sin, T([1.0, 2.0]), T([[1.0, 1.0, 1.0]]))
    with pytest.raises(TypeError, match="callable"):
        ops.jet(3, T([1.0]), T([1.0]))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_jet_and_derivative_of_several_outputs_inside_a_cell(mode) -> None:
    """Values recorded from MindSpore 2.10 (GRAPH mode): lists of outputs and of series."""
    class Jet(nn.Cell):
        def construct(self, x, s):
            return ops.jet(lambda a: (ops.sin(a), ops.cos(a)), x, s)

    class Deriv(nn.Cell):
        def construct(self, x):
            return ops.derivative(lambda a: (ops.sin(a), a * a), x, 2)

    ms.set_context(mode=mode)
    try:
        x = ms.Tensor(np.array([0.5, 1.0]))
        outs, series = Jet()(x, ms.Tensor(np.ones((2, 2))))
        assert isinstance(outs, list) and isinstance(series, list)
        np.testing.assert_allclose(outs[1].asnumpy(), np.cos([0.5, 1.0]), rtol=1e-12)
        np.testing.assert_allclose(series[0].asnumpy(),
                                   [[0.87758255, 0.54030228], [0.398157, -0.30116868]],
                                   rtol=1e-6)
        np.testing.assert_allclose(series[1].asnumpy(),
                                   [[-0.47942555, -0.84147098], [-1.3570081, -1.38177329]],
                                   rtol=1e-6)
        outs, d2 = Deriv()(x)
        np.testing.assert_allclose(outs[1].asnumpy(), [0.25, 1.0])
        np.testing.assert_allclose(d2[0].asnumpy(), -np.sin([0.5, 1.0]), rtol=1e-12)
        np.testing.assert_allclose(d2[1].asnumpy(), [2.0, 2.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
