"""``Print``, the summary operators, ``BiasAdd``, ``BatchNorm`` and the 1.x ``TensorAdd``
name; values recorded from MindSpore 2.10."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops
from mindgrad.ops import debug_ops

from gradcheck import f32


def test_print_writes_each_input_and_returns_none(capsys):
    assert ops.Print()("hello", f32([1.0, 2.0]), (1, 2)) is None
    assert capsys.readouterr().out.splitlines() == ["hello", "[1. 2.]", "1 2"]


def test_summaries_record_latest_value_even_on_gradients():
    record = ops.ScalarSummary()

    def log_grad(dx):
        record("dx", dx)
        return dx

    tap = ops.InsertGradientOf(log_grad)
    g = ops.grad(lambda x: (tap(x) * 3.0).sum())(f32([2.0]))
    np.testing.assert_array_equal(g.asnumpy(), [3.0])
    np.testing.assert_array_equal(debug_ops.summary_values()[("scalar", "dx")], [3.0])
    ops.TensorSummary()("w", f32([[1.0, 2.0]]))
    np.testing.assert_array_equal(debug_ops.summary_values()[("tensor", "w")], [[1.0, 2.0]])
    with pytest.raises(TypeError, match="'ScalarSummary', 'name' must be a str"):
        record(3, f32([1.0]))
    with pytest.raises(ValueError, match="'ImageSummary', 'value' must have rank"):
        ops.ImageSummary()("img", f32([1.0]))


def test_bias_add_op_both_layouts_and_gradient():
    x = f32([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(ops.BiasAdd()(x, f32([1.0, 1.0])).asnumpy(), [[2, 3], [4, 5]])
    y = ops.BiasAdd(data_format="NHWC")(ms.Tensor(np.ones((1, 2, 2, 3), np.float32)),
                                        f32([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(y[0, 0].asnumpy(), [[2, 3, 4], [2, 3, 4]])
    g = ops.GradOperation(get_all=True)(lambda a, b: ops.BiasAdd()(a, b).sum())(
        ms.Tensor(np.ones((2, 3, 2), np.float32)), f32([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(g[1].asnumpy(), [4.0, 4.0, 4.0])
    with pytest.raises(ValueError, match="'data_format' must be"):
        ops.BiasAdd(data_format="NWC")(x, f32([1.0, 1.0]))


def test_tensor_add_is_the_old_name_of_add():
    np.testing.assert_array_equal(ops.TensorAdd()(f32([1.0]), f32([2.0])).asnumpy(), [3.0])


X16 = np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2)


def test_batch_norm_op_inference_as_mindspore():
    """ops.BatchNorm() on running statistics: values, the zeros of MindSpore's CPU kernel
    in the other four outputs, and gradients (recorded from MindSpore 2.10)."""
    s, b = f32([1.0, 2.0]), f32([0.5, -0.5])
    m, v = f32([1.0, 2.0]), f32([4.0, 9.0])
    out = ops.BatchNorm()(ms.Tensor(X16), s, b, m, v)
    assert len(out) == 5 and [o.shape for o in out[1:]] == [(2,)] * 4
    np.testing.assert_allclose(out[0].asnumpy().ravel()[:6],
                               [0.0, 0.5, 1.0, 1.5, 0.8333325, 1.4999988], atol=1e-5)
    for o in out[1:]:
        np.testing.assert_array_equal(o.asnumpy(), [0.0, 0.0])
    g = ops.GradOperation(get_all=True)(
        lambda x, s_, b_: ops.BatchNorm()(x, s_, b_, m, v)[0].sum())(ms.Tensor(X16), s, b)
    np.testing.assert_allclose(g[0].asnumpy().ravel()[:3], [0.4999994] * 3, rtol=1e-5)
    np.testing.assert_allclose(g[1].asnumpy(), [17.999979, 19.999989], rtol=1e-5)
    np.testing.assert_array_equal(g[2].asnumpy(), [8.0, 8.0])


def test_batch_norm_training_moves_running_statistics():
    """Training: batch statistics (biased variance for normalizing, unbiased for the running
    variance), momentum the batch's weight; values recorded from MindSpore 2.10."""
    s, b = f32([1.0, 2.0]), f32([0.5, -0.5])
    mp, vp = ms.Parameter(f32([1.0, 2.0]), name="m"), ms.Parameter(f32([4.0, 9.0]), name="v")
    out = ops.BatchNorm(is_training=True, momentum=0.1)(ms.Tensor(X16), s, b, mp, vp)
    np.testing.assert_allclose(out[0].asnumpy().ravel()[:4],
                               [-0.824244, -0.5834724, -0.34270072, -0.10192907], rtol=1e-5)
    np.testing.assert_array_equal(out[3].asnumpy(), [5.5, 9.5])
    np.testing.assert_array_equal(out[4].asnumpy(), [17.25, 17.25])
    np.testing.assert_allclose(mp.asnumpy(), [1.45, 2.75], rtol=1e-6)
    np.testing.assert_allclose(vp.asnumpy(), [5.571429, 10.071428], rtol=1e-6)
    mp2, vp2 = ms.Parameter(f32([1.0, 2.0]), name="m2"), ms.Parameter(f32([4.0, 9.0]), name="v2")
    y = ops.batch_norm(ms.Tensor(X16), mp2, vp2, s, b, training=True, momentum=0.1)
    np.testing.assert_allclose(y.asnumpy().ravel()[:3], [-0.824244, -0.5834724, -0.34270072],
                               rtol=1e-5)
    np.testing.assert_allclose(vp2.asnumpy(), [5.571429, 10.071428], rtol=1e-6)
    with pytest.raises(ValueError, match="'running_mean' must be a Tensor of shape \\[2\\]"):
        ops.batch_norm(ms.Tensor(X16), f32([1.0]), vp2, s, b)
    with pytest.raises(TypeError, match="must be Parameters when training"):
        ops.batch_norm(ms.Tensor(X16), f32([1.0, 2.0]), f32([1.0, 2.0]), s, b, training=True)
