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


def _tanh_derivative(x: np.ndarray, order: int) -> np.ndarray:
    """d^order tanh / dx^order from the polynomials P_{n+1}(y) = P_n'(y) (1 - y^2)."""
    poly = np.polynomial.Polynomial([0.0, 1.0])
    for _ in range(order):
        poly = poly.deriv() * np.polynomial.Polynomial([1.0, 0.0, -1.0])
    return poly(np.tanh(x))


@pytest.mark.parametrize("order", [1, 2, 3, 5, 8])
def test_derivative_of_tanh_both_modes(order):
    """derivative feeds its higher input coefficients as known zeros: the compiled graph
    reads no constant arrays (no products with the direction or with zeros), is about
    order^2 / 2 operations, and equals the eager result exactly."""
    x = T(np.linspace(-2.0, 2.0, 50))
    f = lambda v: ops.derivative(ops.tanh, v, order)[1]  # noqa: E731
    eager = f(x).asnumpy()
    np.testing.assert_allclose(eager, _tanh_derivative(x.asnumpy(), order), rtol=1e-10,
                               atol=1e-12)
    g = ms.jit(f)
    for _ in range(2):  # the first call traces, the second runs the generated code
        np.testing.assert_array_equal(g(x).asnumpy(), eager)
    (src,) = g.graphs
    body = [ln for ln in src.splitlines()[1:] if not ln.strip().startswith("del ")]
    assert not any("_c" in ln for ln in body), src
    assert len(body) <= order * order // 2 + 3 * order + 2, src


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


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_jet_and_derivative_of_a_multi_output_cell_inside_construct(mode) -> None:
    """``ops.jet`` / ``ops.derivative`` of a Cell with two outputs, called inside another
    Cell's construct; the values are MindSpore 2.10's (GRAPH mode, float32)."""
    class Net(nn.Cell):
        def construct(self, x):
            return ops.sin(x), ops.cos(x) * x

    class Jet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = Net()

        def construct(self, x, s):
            return ops.jet(self.net, x, s)

    class Derivative(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = Net()

        def construct(self, x):
            return ops.derivative(self.net, x, 2)

    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    try:
        x = T([0.5, 1.0], np.float32)
        (p0, p1), (s0, s1) = Jet()(x, T([[1.0, 1.0], [0.0, 0.0]], np.float32))
        (q0, q1), (d0, d1) = Derivative()(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for p in (p0, q0):
        np.testing.assert_allclose(p.asnumpy(), [0.47942555, 0.84147096], rtol=2e-7)
    for p in (p1, q1):
        np.testing.assert_allclose(p.asnumpy(), [0.43879128, 0.54030228], rtol=2e-7)
    np.testing.assert_allclose(s0.asnumpy(), [[0.87758255, 0.54030228],
                                              [-0.47942555, -0.84147096]], rtol=2e-7)
    np.testing.assert_allclose(s1.asnumpy(), [[0.63786978, -0.30116868],
                                              [-1.3976424, -2.2232442]], rtol=3e-7)
    np.testing.assert_allclose(d0.asnumpy(), [-0.47942555, -0.84147096], rtol=2e-7)
    np.testing.assert_allclose(d1.asnumpy(), [-1.3976424, -2.2232442], rtol=2e-7)
    assert s0.dtype == ms.float32 and d1.dtype == ms.float32
