"""``mindspore.numpy`` (``mindgrad.numpy``): dtypes and values recorded from MindSpore 2.10's
module; gradients and vmap through it."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
import mindgrad.numpy as mnp
from mindgrad import ops


def test_creation_dtypes_as_mindspore():
    assert mnp.arange(5).dtype == ms.int32
    assert mnp.arange(0., 3.).dtype == ms.float32
    assert mnp.array([1., 2.]).dtype == ms.float32
    assert mnp.array([1, 2]).dtype == ms.int32
    assert mnp.array(True).dtype == ms.bool_
    assert mnp.asarray([1, 2]).dtype == ms.int32
    assert mnp.zeros((2,)).dtype == ms.float32 and mnp.ones(3).dtype == ms.float32
    assert mnp.full((2,), 3).dtype == ms.int32
    assert mnp.eye(2).dtype == ms.float32
    np.testing.assert_array_equal(mnp.arange(1, 7, 2).asnumpy(), [1, 3, 5])
    np.testing.assert_allclose(mnp.linspace(0, 1, 5).asnumpy(), [0, 0.25, 0.5, 0.75, 1])
    assert mnp.array([1.0], ndmin=3).shape == (1, 1, 1)
    # (MindSpore refuses a NumPy array here; mindgrad accepts it: README, mindspore.numpy)
    np.testing.assert_array_equal(mnp.array(np.ones(2)).asnumpy(), [1.0, 1.0])


def test_dot_stack_concatenate_as_mindspore():
    a = mnp.arange(6).astype("float32").reshape(2, 3)
    v = mnp.array([1., 2., 3.])
    assert float(mnp.dot(v, v).asnumpy()) == 14.0
    np.testing.assert_array_equal(mnp.dot(a, v).asnumpy(), [8., 26.])
    assert mnp.dot(a, a.T).shape == (2, 2)
    assert mnp.dot(a, mnp.ones((2, 3, 4))).shape == (2, 2, 4)
    assert mnp.stack([v, v]).shape == (2, 3) and mnp.stack([v, v], axis=1).shape == (3, 2)
    assert mnp.concatenate((v, v)).shape == (6,)
    with pytest.raises(ValueError, match="must have the same size"):
        mnp.dot(a, mnp.ones((2, 2)))
    # (MindSpore refuses a Python number here; mindgrad multiplies, as NumPy does)
    np.testing.assert_array_equal(mnp.dot(2.0, v).asnumpy(), [2.0, 4.0, 6.0])


def test_gradient_and_vmap_through_mnp():
    """The sliding dot product of MindSpore's vmap test, vmapped and differentiated."""
    def convolve(x, w):
        return mnp.stack([mnp.dot(x[i - 1:i + 2], w) for i in range(1, len(x) - 1)])

    x = mnp.arange(5).astype("float32")
    w = mnp.array([1., 2., 3.])
    out = ops.vmap(convolve)(mnp.stack([x, x + 1, x + 2]), mnp.stack([w, w * 2, w * 3]))
    np.testing.assert_array_equal(out.asnumpy(), [[8, 14, 20], [28, 40, 52], [60, 78, 96]])
    g = ops.grad(lambda w_: mnp.sum(convolve(x, w_)))(w)
    np.testing.assert_array_equal(g.asnumpy(), [3., 6., 9.])  # sums of x[0:3], x[1:4], x[2:5]
    assert mnp.sum(mnp.ones((2, 3)), axis=1, keepdims=True).shape == (2, 1)
