"""Gradient hooks with MindSpore 2.10's signatures and values: ``Tensor.register_hook``,
``ops.HookBackward``, ``ops.InsertGradientOf`` and the four Cell hooks, with handles that
``remove()`` them."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops

from gradcheck import f32, run_in_mode


def test_tensor_hook_on_an_intermediate_replaces_its_gradient(mode):
    seen = []

    def f(x):
        y = x * 2
        y.register_hook(lambda g: seen.append(g.shape) or g * 10)
        return (y * y).sum()

    np.testing.assert_array_equal(run_in_mode(ops.grad(f), f32([1.0, 2.0])).asnumpy(),
                                  [80.0, 160.0])
    assert seen and seen[0] == (2,)


def test_tensor_hook_on_an_input_and_remove():
    x = f32([1.0, 2.0])
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.asnumpy().tolist()))
    np.testing.assert_array_equal(ops.grad(lambda a: (a * 3).sum())(x).asnumpy(), [3.0, 3.0])
    assert seen == [[3.0, 3.0]]
    handle.remove()
    handle.remove()  # a second remove does nothing
    ops.grad(lambda a: (a * 3).sum())(x)
    assert seen == [[3.0, 3.0]]
    w = ms.Parameter(f32([1.0, 1.0]), name="w")
    w.register_hook(lambda g: g * 0)
    dw = ops.grad(lambda a: (a * w).sum(), None, w)(x)
    np.testing.assert_array_equal(dw.asnumpy(), [0.0, 0.0])
    with pytest.raises(TypeError, match="Tensor.register_hook"):
        x.register_hook(3)


def test_hook_backward_and_insert_gradient_of(mode):
    x = f32([1.0, 2.0])
    seen = []
    watch = ops.HookBackward(lambda grads: seen.append(len(grads)))
    dx = run_in_mode(ops.grad(lambda a: (watch(a * 2) * 3).sum()), x)
    np.testing.assert_array_equal(dx.asnumpy(), [6.0, 6.0])
    assert seen and seen[0] == 1
    times100 = ops.HookBackward(lambda grads: (grads[0] * 100,))
    dx = run_in_mode(ops.grad(lambda a: (times100(a * 2) * 3).sum()), x)
    np.testing.assert_array_equal(dx.asnumpy(), [600.0, 600.0])
    times7 = ops.InsertGradientOf(lambda g: g * 7)
    np.testing.assert_array_equal(run_in_mode(ops.grad(lambda a: (times7(a) * 3).sum()),
                                              x).asnumpy(), [21.0, 21.0])
    # forward values are unchanged
    np.testing.assert_array_equal(times7(x).asnumpy(), [1.0, 2.0])
    # numbers and tuples pass through unchanged (MindSpore 2.10: stop(1) is 1, stop((1, 2)) is
    # (1, 2)); a function of numbers only gets no gradients
    assert times7(3.0) == 3.0 and times7((1, 2)) == (1, 2)
    assert ops.GradOperation(get_all=True)(lambda a, b: times7(a) * b)(1, 2) == ()
    with pytest.raises(TypeError, match="'HookBackward', the hook must be a function"):
        ops.HookBackward(None)


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, a, b):
        return self.d(a) * b


def test_cell_hooks(mode):
    net = _Net()
    a, b = f32([[1.0, 2.0]]), f32([[3.0, 4.0]])
    calls = []

    def pre(cell, inputs):
        calls.append("pre")
        return (inputs[0] * 2, inputs[1])

    def fwd(cell, inputs, output):
        calls.append("fwd")
        return output + 1

    def bwd(cell, grad_input, grad_output):
        calls.append(("bwd", [g.asnumpy().tolist() for g in grad_input],
                      [g.asnumpy().tolist() for g in grad_output]))

    def bpre(cell, grad_output):
        calls.append(("bpre", len(grad_output)))

    handles = [net.register_forward_pre_hook(pre), net.register_forward_hook(fwd),
               net.register_backward_hook(bwd), net.register_backward_pre_hook(bpre)]
    np.testing.assert_array_equal(net(a, b).asnumpy(), [[19.0, 25.0]])
    assert calls == ["pre", "fwd"]
    calls.clear()
    da, db = ops.grad(lambda u, v: net(u, v).sum(), (0, 1))(a, b)
    np.testing.assert_array_equal(da.asnumpy(), [[14.0, 14.0]])
    np.testing.assert_array_equal(db.asnumpy(), [[6.0, 6.0]])
    assert calls == ["pre", "fwd", ("bpre", 1),
                     ("bwd", [[[7.0, 7.0]], [[6.0, 6.0]]], [[[1.0, 1.0]]])]
    for h in handles:
        h.remove()
    da, db = run_in_mode(ops.grad(lambda u, v: net(u, v).sum(), (0, 1)), a, b)
    np.testing.assert_array_equal(da.asnumpy(), [[7.0, 7.0]])
    np.testing.assert_array_equal(db.asnumpy(), [[3.0, 3.0]])

    handle = net.register_backward_hook(lambda cell, gin, gout: (gin[0] * 0, gin[1] * 0))
    da, db = run_in_mode(ops.grad(lambda u, v: net(u, v).sum(), (0, 1)), a, b)
    assert not da.asnumpy().any() and not db.asnumpy().any()
    handle.remove()
    handle = net.register_backward_pre_hook(lambda cell, gout: (gout[0] * 5,))
    da, _ = run_in_mode(ops.grad(lambda u, v: net(u, v).sum(), (0, 1)), a, b)
    np.testing.assert_array_equal(da.asnumpy(), [[35.0, 35.0]])
    handle.remove()
    bad = net.register_backward_pre_hook(lambda cell, gout: (gout[0], gout[0]))
    with pytest.raises(ValueError, match="register_backward_pre_hook', the hook must return 1"):
        ops.grad(lambda u, v: net(u, v).sum(), (0, 1))(a, b)
    bad.remove()


def test_jit_function_refused_as_hook():
    """MindSpore 2.10: "Decorating hook function h with '@jit' is not supported."."""
    @ms.jit
    def h(cell_id, inputs, outputs):
        return outputs

    d = nn.Dense(2, 2)
    for register in (d.register_forward_pre_hook, d.register_forward_hook,
                     d.register_backward_hook, d.register_backward_pre_hook,
                     f32([1.0]).register_hook):
        with pytest.raises(TypeError, match="ecorating hook function h with '@jit' is not "
                                            "supported"):
            register(h)
