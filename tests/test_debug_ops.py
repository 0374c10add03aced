"""``Print``, the summary operators, ``BiasAdd`` and the 1.x ``TensorAdd`` name; values
recorded from MindSpore 2.10."""
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
