"""``mindspore._Function``: forward/backward with ``ctx``, in both modes, nested, with
non-differentiable outputs; values recorded from MindSpore 2.10."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops

from gradcheck import f32, run_in_mode


class Fixed(ms._Function):
    """x * x + y with a deliberately different backward (3 and 4), so it is seen to be used."""
    seen: list = []

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * x + y

    @staticmethod
    def backward(ctx, dz):
        Fixed.seen.append(ctx.needs_input_grad)
        x, y = ctx.saved_tensors
        assert x.shape == y.shape == (2,)
        return dz * 3, dz * 4


class Square(ms._Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, dout):
        (x,) = ctx.saved_tensors
        return 2 * x * dout


class WithIndex(ms._Function):
    @staticmethod
    def forward(ctx, x):
        idx = ops.argmax(x)
        ctx.mark_non_differentiable(idx)
        return x * 2, idx

    @staticmethod
    def backward(ctx, dout, didx):
        # the non-differentiable output's cotangent is zeros: adding it changes nothing
        return dout * 10 + didx


class Scaled(ms._Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, dz):
        return dz * ctx.k, None


def test_apply_and_gradients(mode):
    x, y = f32([1.0, 2.0]), f32([3.0, 4.0])
    np.testing.assert_array_equal(Fixed.apply(x, y).asnumpy(), [4.0, 8.0])
    Fixed.seen.clear()
    dx, dy = run_in_mode(ops.GradOperation(get_all=True)(Fixed.apply), x, y)
    np.testing.assert_array_equal(dx.asnumpy(), [3.0, 3.0])
    np.testing.assert_array_equal(dy.asnumpy(), [4.0, 4.0])
    dx = run_in_mode(ops.grad(lambda a, b: Fixed.apply(a, b).sum(), 0), x, y)
    np.testing.assert_array_equal(dx.asnumpy(), [3.0, 3.0])
    # needs_input_grad says which inputs are being differentiated
    assert Fixed.seen == [(True, True), (True, False)]
    np.testing.assert_array_equal(run_in_mode(ops.grad(lambda a: WithIndex.apply(a)[0].sum()), x).asnumpy(),
                                  [10.0, 10.0])
    np.testing.assert_array_equal(run_in_mode(ops.grad(lambda a: Scaled.apply(a, 5.0).sum()), x).asnumpy(),
                                  [5.0, 5.0])


def test_inside_a_cell_and_nested(mode):
    class Net(nn.Cell):
        def construct(self, a):
            return Square.apply(a).sum()

    x = f32([1.0, -2.0])
    np.testing.assert_array_equal(run_in_mode(ops.grad(Net()), x).asnumpy(), [2.0, -4.0])
    # backward is written in mindgrad operations, so it differentiates again
    second = ops.grad(lambda a: ops.grad(lambda b: Square.apply(b).sum())(a).sum())(x)
    np.testing.assert_array_equal(second.asnumpy(), [2.0, 2.0])
    # forward mode differentiates forward's own operations
    _, t = ops.jvp(Square.apply, (x,), (f32([1.0, 1.0]),))
    np.testing.assert_array_equal(t.asnumpy(), [2.0, -4.0])


def test_bad_backward_results_are_named():
    class TwoForOne(ms._Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, d):
            return d, d

    with pytest.raises(RuntimeError, match=r"wrong number of gradients, expect: 1 but: 2, in 'TwoForOne'"):
        ops.grad(lambda a: TwoForOne.apply(a).sum())(f32([1.0]))

    class Undefined(ms._Function):
        pass

    with pytest.raises(NotImplementedError, match="forward"):
        Undefined.apply(f32([1.0]))


def test_backward_results_checked_as_mindspore_does():
    """MindSpore 2.10's RuntimeErrors for a backward's results (message heads recorded)."""
    grad_all = ops.GradOperation(get_all=True)

    class IntGrad(ms._Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * x + y

        @staticmethod
        def backward(ctx, d):
            return d * 3, 4

    with pytest.raises(RuntimeError, match="Gradient should be none or tensor, position: 1"):
        grad_all(IntGrad.apply)(f32([2.0, 2.0]), f32([3.0, 3.0]))

    class GradForNumber(ms._Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, d):
            return d * 3, d * 4

    with pytest.raises(RuntimeError, match="Input is not tensor, but gradient is not none, "
                                           "position: 1"):
        grad_all(GradForNumber.apply)(f32([2.0, 2.0]), 3)

    class WideGrad(ms._Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, d):
            return ops.ones((3, 4), ms.float32)

    with pytest.raises(RuntimeError, match=r"grad tensor should be broadcast to expected "
                                           r"shape, but got \[3, 4\] vs \[3\]"):
        grad_all(WideGrad.apply)(f32([1.0, 2.0, 3.0]))


def test_ctx_marks_and_saved_values_checked():
    class MarkNumber(ms._Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_non_differentiable(x, 1.0)
            return x

    with pytest.raises(RuntimeError, match="element of non_differentiable should be a tensor, "
                                           "but get a float"):
        MarkNumber.apply(f32([1.0]))

    class DirtyNumber(ms._Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x, 1.0)
            return x

    with pytest.raises(RuntimeError, match="element of dirty_tensors should be a tensor"):
        DirtyNumber.apply(f32([1.0]))

    class DirtyNotReturned(ms._Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x * 2

    with pytest.raises(RuntimeError, match="dirty tensors must all be outputs"):
        DirtyNotReturned.apply(f32([1.0]))

    class SavesTuple(ms._Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, (x, x))
            return x * x

        @staticmethod
        def backward(ctx, d):
            return d

    x = f32([3.0, 3.0])
    np.testing.assert_array_equal(SavesTuple.apply(x).asnumpy(), [9.0, 9.0])  # no gradient: fine
    with pytest.raises(RuntimeError, match=r"save_for_backward\(\) only support None and tensor"):
        ms.grad(SavesTuple.apply)(x)

