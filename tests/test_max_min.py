"""``ops.max`` / ``ops.min`` (MindSpore 2.x: values and indices), and the op classes
``ArgMaxWithValue`` / ``ArgMinWithValue`` (indices first)."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops

from gradcheck import check_grads

X = np.array([[0.0, 0.7, 0.7, 0.1], [3.0, 1.0, -2.0, 3.0]], np.float32)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_values_indices_and_first_extreme_gradient(mode) -> None:
    ms.set_context(mode=mode)
    try:
        x = ms.Tensor(X)
        v, i = ms.jit(lambda x: ops.max(x, 1))(x)
        np.testing.assert_array_equal(v.asnumpy(), X.max(1))
        np.testing.assert_array_equal(i.asnumpy(), [1, 0])
        v, i = ops.min(x, 0, keepdims=True)
        assert v.shape == (1, 4) and i.shape == (1, 4)
        np.testing.assert_array_equal(v.asnumpy(), X.min(0, keepdims=True))
        np.testing.assert_array_equal(i.asnumpy(), [[0, 0, 1, 0]])
        # ties: the whole gradient goes to the first extreme, as ArgMaxWithValue's does
        g = ms.jit(ops.grad(lambda x: (ops.max(x, 1)[0] * ms.Tensor([2.0, 5.0])).sum()))(x)
        np.testing.assert_array_equal(g.asnumpy(), [[0, 2, 0, 0], [5, 0, 0, 0]])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_no_axis_initial_and_where() -> None:
    x = ms.Tensor(X)
    v, i = ops.max(x)
    assert float(v) == 3.0 and int(i) == 0 and v.shape == ()
    v, _ = ops.max(x, 1, initial=2.5)
    np.testing.assert_array_equal(v.asnumpy(), [2.5, 3.0])
    mask = ms.Tensor(np.array([[True, False, False, True]]))
    v, i = ops.max(x, 1, initial=-1.0, where=mask)
    np.testing.assert_allclose(v.asnumpy(), [0.1, 3.0])
    np.testing.assert_array_equal(i.asnumpy(), [3, 0])
    with pytest.raises(ValueError, match="'initial' must be given"):
        ops.min(x, 1, where=mask)
    with pytest.raises(ValueError, match="'axis' must be in range"):
        ops.max(x, 2)


def test_op_classes_put_indices_first() -> None:
    x = ms.Tensor(X)
    i, v = ops.ArgMaxWithValue(axis=1)(x)
    np.testing.assert_array_equal(i.asnumpy(), [1, 0])
    np.testing.assert_array_equal(v.asnumpy(), X.max(1))
    i, v = ops.ArgMinWithValue(axis=0, keep_dims=True)(x)
    assert v.shape == (1, 4)
    np.testing.assert_array_equal(i.asnumpy(), [[0, 0, 1, 0]])


def test_derivatives_to_third_order() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 4))
    check_grads(lambda x: ops.max(x * x * x, 1)[0], [ms.Tensor(x)], order=3)
    check_grads(lambda x: ops.min(ops.sin(x), 0)[0], [ms.Tensor(x)], order=3)


def test_argmax_argmin_op_classes_output_type() -> None:
    """ops.Argmax / ops.Argmin give Int32 indices by default, Int64 on request, and reject
    any other output_type; the functions give Int64."""
    x = ms.Tensor(np.array([[1, 20, 5], [67, 8, 9], [130, 24, 15]], np.float32))
    got = ops.Argmax()(x)
    assert got.dtype == ms.int32 and got.asnumpy().tolist() == [1, 0, 0]
    assert ops.Argmax(axis=0, output_type=ms.int64)(x).dtype == ms.int64
    assert ops.Argmin(axis=0)(x).asnumpy().tolist() == [0, 1, 0]
    assert ops.argmax(x, 1).dtype == ms.int64
    with pytest.raises(TypeError, match="'output_type' must be mindspore.int32"):
        ops.Argmin(output_type=ms.float32)
    with pytest.raises(TypeError, match="'axis' must be an int"):
        ops.Argmax(axis=1.0)
