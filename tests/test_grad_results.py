"""What the gradient front ends return, in both modes, with values recorded from MindSpore
2.10 on CPU: a Parameter returned as an output, ties in maximum/minimum, frozen Parameters
listed in ``weights``, a single Parameter as ``weights``, keyword arguments and ``sens=``
through GradOperation, and custom ``bprop`` results that need summing or casting."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Parameter, Tensor, nn, ops

from gradcheck import check_grads, f32, run_in_mode


class _ReturnsWeight(nn.Cell):
    def __init__(self, both: bool):
        super().__init__()
        self.both = both
        self.w = Parameter(f32([1.0, 1.0]), name="w")

    def construct(self, x):
        if self.both:
            return x * self.w, self.w
        return self.w


def test_parameter_returned_as_output_gets_its_gradient(mode):
    net = _ReturnsWeight(both=True)
    (dw,) = run_in_mode(ops.grad(net, None, net.trainable_params()), f32([1.0, 2.0]))
    np.testing.assert_array_equal(dw.asnumpy(), [2.0, 3.0])
    net = _ReturnsWeight(both=False)
    (dw,) = run_in_mode(ops.grad(net, None, net.trainable_params()), f32([1.0, 2.0]))
    np.testing.assert_array_equal(dw.asnumpy(), [1.0, 1.0])
    # the Parameter itself is unchanged and no tracer leaks out of the call
    assert not isinstance(net.w._data, Tensor) and net.w._trace is None
    np.testing.assert_array_equal(net.w.asnumpy(), [1.0, 1.0])


@pytest.mark.parametrize("op", [ops.maximum, ops.minimum])
def test_extremum_splits_a_tie_equally(mode, op):
    dx, dy = run_in_mode(ops.grad(op, (0, 1)), f32(0.5), f32(0.5))
    assert (float(dx.asnumpy()), float(dy.asnumpy())) == (0.5, 0.5)
    x, y = f32([0.0, 0.5, 1.0, 2.0]), f32([0.0, 1.0, 1.0, 1.0])
    dx, dy = run_in_mode(ops.grad(lambda a, b: op(a, b).sum(), (0, 1)), x, y)
    bigger = op is ops.maximum
    np.testing.assert_array_equal(dx.asnumpy(), [0.5, 0.0 if bigger else 1.0, 0.5,
                                                 1.0 if bigger else 0.0])
    np.testing.assert_array_equal(dx.asnumpy() + dy.asnumpy(), [1.0] * 4)
    # forward mode agrees with reverse mode at the tie
    _, tangent = ops.jvp(lambda a, b: op(a, b), (f32(0.5), f32(0.5)), (f32(1.0), f32(3.0)))
    assert float(tangent.asnumpy()) == 2.0


def test_clamp_keeps_ties_and_clip_by_value_splits_them(mode):
    x = f32([-1.0, 0.0, 3.0, 6.0, 7.0])
    lo, hi = f32(0.0), f32(6.0)
    dx, dlo, dhi = run_in_mode(ops.grad(lambda v, a, b: ops.clamp(v, a, b).sum(), (0, 1, 2)), x, lo, hi)
    np.testing.assert_array_equal(dx.asnumpy(), [0, 1, 1, 1, 0])
    assert (float(dlo.asnumpy()), float(dhi.asnumpy())) == (1.0, 1.0)
    dlo = run_in_mode(ops.grad(lambda v, a: ops.clamp(v, a, hi).sum(), 1), x, f32(np.zeros(5)))
    np.testing.assert_array_equal(dlo.asnumpy(), [1, 0, 0, 0, 0])
    dx, dlo, dhi = run_in_mode(ops.grad(lambda v, a, b: ops.clip_by_value(v, a, b).sum(), (0, 1, 2)), 
        x, lo, hi)
    np.testing.assert_array_equal(dx.asnumpy(), [0, 0.5, 1, 0.5, 0])
    assert (float(dlo.asnumpy()), float(dhi.asnumpy())) == (1.5, 1.5)
    dx = run_in_mode(ops.grad(lambda v: ops.clip_by_value(v, 0.0, 6.0).sum()), x)
    np.testing.assert_array_equal(dx.asnumpy(), [0, 0.5, 1, 0.5, 0])
    dx = run_in_mode(ops.grad(lambda v: ops.clamp(v, max=hi).sum()), x)
    np.testing.assert_array_equal(dx.asnumpy(), [1, 1, 1, 1, 0])


def test_extremum_gradients_away_from_ties_still_check():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=5), rng.normal(size=5)
    check_grads(lambda a, b: ops.maximum(a, b) * ops.minimum(a, b * 2), (Tensor(x), Tensor(y)),
                order=2)


class _Frozen(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(f32([1.0, 1.0]), name="w")
        self.b = Parameter(f32([1.0, 1.0]), name="b", requires_grad=False)

    def construct(self, x):
        return (x * self.w * self.b).sum()


def test_frozen_parameter_listed_in_weights_gets_zeros(mode):
    net = _Frozen()
    dw, db = run_in_mode(ops.grad(net, None, (net.w, net.b)), f32([1.0, 2.0]))
    np.testing.assert_array_equal(dw.asnumpy(), [1.0, 2.0])
    np.testing.assert_array_equal(db.asnumpy(), [0.0, 0.0])
    assert db.dtype == ms.float32


def test_single_parameter_weights_give_bare_results(mode):
    net = _Frozen()
    x = f32([1.0, 2.0])
    dw = run_in_mode(ops.grad(net, None, net.w), x)
    assert isinstance(dw, Tensor)
    np.testing.assert_array_equal(dw.asnumpy(), [1.0, 2.0])
    name, dw = run_in_mode(ops.grad(net, None, net.w, return_ids=True), x)
    assert name == "w"
    np.testing.assert_array_equal(dw.asnumpy(), [1.0, 2.0])
    dx, dw = run_in_mode(ops.grad(net, 0, net.w), x)
    np.testing.assert_array_equal(dx.asnumpy(), [1.0, 1.0])
    np.testing.assert_array_equal(dw.asnumpy(), [1.0, 2.0])
    value, dw = run_in_mode(ops.value_and_grad(net, None, net.w), x)
    assert float(value.asnumpy()) == 3.0
    np.testing.assert_array_equal(dw.asnumpy(), [1.0, 2.0])
    # a list of one Parameter stays a tuple
    (dw,) = run_in_mode(ops.grad(net, None, [net.w]), x)
    np.testing.assert_array_equal(dw.asnumpy(), [1.0, 2.0])


def _scaled_square(x, scale=1.0):
    return x * x * scale


def test_keyword_arguments_pass_through_gradient_functions(mode):
    x = f32([1.0, 2.0])
    np.testing.assert_array_equal(ops.GradOperation()(_scaled_square)(x, scale=2.0).asnumpy(),
                                  [4.0, 8.0])
    with_sens = ops.GradOperation(sens_param=True)(_scaled_square)
    np.testing.assert_array_equal(with_sens(x, sens=f32([1.0, 10.0])).asnumpy(), [2.0, 40.0])
    np.testing.assert_array_equal(with_sens(x, f32([1.0, 10.0]), scale=3.0).asnumpy(),
                                  [6.0, 120.0])
    np.testing.assert_array_equal(ops.grad(_scaled_square)(x, scale=2.0).asnumpy(), [4.0, 8.0])
    value, g = ops.value_and_grad(lambda v, scale: (v * scale).sum())(x, scale=5.0)
    assert float(value.asnumpy()) == 15.0
    np.testing.assert_array_equal(g.asnumpy(), [5.0, 5.0])


class _BroadcastBprop(nn.Cell):
    def construct(self, x, y):
        return x * y

    def bprop(self, x, y, out, dout):
        return ops.ones((3, 3), ms.float32) * 2, ops.ones((3,), ms.float64)


class _WrongBprop(nn.Cell):
    def construct(self, x):
        return x * 2

    def bprop(self, x, out, dout):
        return (ops.ones((2, 3), ms.float64),)


def test_bprop_results_are_summed_and_cast_to_the_inputs(mode):
    one = f32(np.ones(3))
    dx, dy = run_in_mode(ops.grad(_BroadcastBprop(), (0, 1)), one, one)
    np.testing.assert_array_equal(dx.asnumpy(), [6.0, 6.0, 6.0])
    np.testing.assert_array_equal(dy.asnumpy(), [1.0, 1.0, 1.0])
    assert dx.dtype == ms.float32 and dy.dtype == ms.float32
    dx = run_in_mode(ops.grad(_WrongBprop()), f32(np.ones((1, 3))))
    assert dx.shape == (1, 3) and dx.dtype == ms.float32
    np.testing.assert_array_equal(dx.asnumpy(), [[2.0, 2.0, 2.0]])
    with pytest.raises(RuntimeError, match=r"_WrongBprop.bprop.*\[2, 3\].*\[2, 2\]"):
        ops.grad(_WrongBprop())(f32(np.ones((2, 2))))


def test_no_grad_makes_constants(mode):
    x = f32([1.0, 2.0])

    def f(v):
        with ms._no_grad():
            y = v * v
        return (v * y).sum()

    np.testing.assert_array_equal(run_in_mode(ops.grad(f), x).asnumpy(), [1.0, 4.0])

    @ms._no_grad()
    def tripled(v):
        return v * 3

    np.testing.assert_array_equal(run_in_mode(ops.grad(lambda v: (tripled(v) + v).sum()), x).asnumpy(),
                                  [1.0, 1.0])
    def inner(v):
        with ms._no_grad():
            c = ops.grad(lambda w: (w * w * w).sum())(v)
        return (c * v).sum() + (v * v).sum()

    if mode == ms.PYNATIVE_MODE:
        # MindSpore 2.10 refuses a gradient asked for inside ``_no_grad`` in PYNATIVE mode
        with pytest.raises(RuntimeError, match="In no_grad context"):
            ops.grad(inner)(x)
        return
    # compiled, the outer gradient of a nested one is paused, and recording resumes afterwards
    np.testing.assert_array_equal(run_in_mode(ops.grad(inner), x).asnumpy(), [3.0 + 2.0, 12.0 + 4.0])


def test_mutable_containers_are_differentiated_element_by_element(mode):
    t1, t2 = f32([1.0, 2.0]), f32([3.0, 4.0])

    def prod(xs):
        return (xs[0] * xs[1]).sum()

    for container in ((t1, t2), [t1, t2]):
        g = run_in_mode(ops.grad(prod), ms.mutable(container))
        assert type(g) is type(container)
        np.testing.assert_array_equal(g[0].asnumpy(), [3.0, 4.0])
        np.testing.assert_array_equal(g[1].asnumpy(), [1.0, 2.0])
    g = run_in_mode(ops.grad(lambda d: (d["a"] * d["b"]).sum()), ms.mutable({"a": t1, "b": t2}))
    assert type(g) is dict and sorted(g) == ["a", "b"]
    np.testing.assert_array_equal(g["b"].asnumpy(), [1.0, 2.0])
    g = run_in_mode(ops.GradOperation()(prod), ms.mutable((t1, t2)))
    np.testing.assert_array_equal(g[0].asnumpy(), [3.0, 4.0])
    (gx, gy) = run_in_mode(ops.GradOperation(get_all=True)(lambda xs, y: (xs[0] * y).sum()),
                           ms.mutable((t1, t2)), t2)
    np.testing.assert_array_equal(gx[1].asnumpy(), [0.0, 0.0])
    np.testing.assert_array_equal(gy.asnumpy(), [1.0, 2.0])
    # a plain tuple is not differentiated, as in MindSpore
    assert ops.grad(prod)((t1, t2)) == ()
    with pytest.raises(TypeError, match="'mutable', the 'input_data'"):
        ms.mutable("text")
