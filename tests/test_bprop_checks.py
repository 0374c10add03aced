"""Custom ``bprop`` rules under ``check_bprop``, Parameters read by a ``bprop`` in GRAPH
mode, gradients asked for inside ``_no_grad``, and ``Cell.init_parameters_data``; behaviour
and values checked against MindSpore 2.10 (CPU)."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Parameter, Tensor, nn, ops
from mindgrad.ops import composite as C

from gradcheck import f32

grad_all = C.GradOperation(get_all=True)


@pytest.fixture
def graph_checked():
    ms.set_context(mode=ms.GRAPH_MODE, check_bprop=True)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE, check_bprop=False)


class WrongCount(nn.Cell):
    def construct(self, x, y):
        return 2 * x + y

    def bprop(self, x, y, out, dout):
        return (2 * dout,)


class NotATensor(nn.Cell):
    def construct(self, x, y):
        return 2 * x + y

    def bprop(self, x, y, out, dout):
        return 2 * dout, 2


class WrongDtype(nn.Cell):
    def construct(self, x, y):
        return 2 * x + y

    def bprop(self, x, y, out, dout):
        return 2 * dout, ops.cast(dout, ms.float16)


class WrongShape(nn.Cell):
    def construct(self, x, y):
        return 2 * x + y

    def bprop(self, x, y, out, dout):
        return 2 * dout, dout.sum()


class Right(nn.Cell):
    def construct(self, x, y):
        return 2 * x + y

    def bprop(self, x, y, out, dout):
        return 2 * dout, dout


@pytest.mark.parametrize("net, exc, words", [
    (WrongCount, ValueError, "number of return values"),
    (NotATensor, TypeError, "should be Tensor"),
    (WrongDtype, TypeError, "same dtype"),
    (WrongShape, ValueError, "same shape"),
])
def test_check_bprop_refuses_what_it_would_otherwise_fix(graph_checked, net, exc, words):
    x, y = f32([1, 2]), f32([3, 4])
    with pytest.raises(exc, match=words):
        grad_all(net())(x, y)
    np.testing.assert_array_equal(x.asnumpy(), [1, 2])  # inputs left as they were


def test_check_bprop_passes_exact_gradients(graph_checked):
    dx, dy = grad_all(Right())(f32([1, 2]), f32([3, 4]))
    np.testing.assert_array_equal(dx.asnumpy(), [2, 2])
    np.testing.assert_array_equal(dy.asnumpy(), [1, 1])


def test_without_check_bprop_a_scalar_gradient_is_still_summed_and_cast():
    dx, dy = grad_all(WrongDtype())(f32([1, 2]), f32([3, 4]))
    assert dy.dtype == ms.float32
    np.testing.assert_array_equal(dy.asnumpy(), [1, 1])


class ReadsParameters(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param1 = Parameter(Tensor(1.0), "param1")
        self.param2 = Parameter(Tensor(2.0), "param2")

    def construct(self, x, y):
        return self.param1 * self.param2 * x + y

    def bprop(self, x, y, out, dout):
        return self.param1 * self.param2 * dout, 2 * y


def test_bprop_reading_a_parameter_works_in_pynative():
    dx, dy = grad_all(ReadsParameters())(Tensor(3.0), Tensor(5.0))
    assert float(dx.asnumpy()) == 2.0 and float(dy.asnumpy()) == 10.0


def test_bprop_reading_a_parameter_is_refused_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(RuntimeError, match="does not support using Parameter"):
            grad_all(ReadsParameters())(Tensor(3.0), Tensor(5.0))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def square(x):
    return x * x


@pytest.mark.parametrize("ask", [
    lambda x: ops.grad(square)(x),
    lambda x: ops.value_and_grad(square)(x),
    lambda x: C.GradOperation()(square)(x),
], ids=["grad", "value_and_grad", "GradOperation"])
def test_gradient_inside_no_grad_is_an_error_in_pynative(ask):
    with ms._no_grad():
        with pytest.raises(RuntimeError, match="In no_grad context"):
            ask(Tensor(2.0))
    assert float(ask(Tensor(2.0)) if not isinstance(ask(Tensor(2.0)), tuple)
                 else ask(Tensor(2.0))[1]) == 4.0  # fine again once the context is left


def test_gradient_inside_no_grad_decorated_function():
    @ms._no_grad()
    def inner(x):
        return ops.grad(square)(x)

    with pytest.raises(RuntimeError, match="In no_grad context"):
        inner(Tensor(2.0))


def test_vjp_inside_no_grad_is_allowed():
    with ms._no_grad():
        out, _ = ops.vjp(square, Tensor(2.0))
    assert float(out) == 4.0


def test_init_parameters_data_maps_each_parameter_to_itself():
    net = nn.Dense(2, 2)
    got = net.init_parameters_data()
    assert set(p.name for p in got) == {"weight", "bias"}
    assert all(k is v for k, v in got.items())
