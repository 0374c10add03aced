"""``ops.addn`` / ``ops.AddN``: values, gradients and errors as in MindSpore 2.10."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, ops


def T(v, dtype=np.float32) -> Tensor:
    return Tensor(np.array(v, dtype))


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_values_and_gradients(mode) -> None:
    a, b = T([1.0, 2.0]), T([3.0, 4.0])
    wrap = ms.jit if mode == "graph" else (lambda f: f)
    np.testing.assert_array_equal(wrap(lambda x, y: ops.addn([x, y]))(a, b).asnumpy(), [4, 6])
    np.testing.assert_array_equal(wrap(lambda x, y: ops.AddN()((x, y, x)))(a, b).asnumpy(),
                                  [5, 8])
    ga, gb = wrap(ops.grad(lambda x, y: ops.addn([x, y, x]).sum(), (0, 1)))(a, b)
    np.testing.assert_array_equal(ga.asnumpy(), [2, 2])
    np.testing.assert_array_equal(gb.asnumpy(), [1, 1])
    one = ops.addn([a])
    assert one is not a
    np.testing.assert_array_equal(one.asnumpy(), [1, 2])
    ints = ops.addn([T([1, 2], np.int32)] * 2)
    assert ints.dtype == ms.int32
    np.testing.assert_array_equal(ints.asnumpy(), [2, 4])


def test_errors_name_the_op_and_leave_inputs_alone() -> None:
    a = T([1.0, 2.0])
    with pytest.raises(ValueError, match=r"For 'AddN', input shape must be same.*\[3\].*\[2\]"):
        ops.addn([a, T([1.0, 2.0, 3.0])])
    with pytest.raises(TypeError, match="For 'AddN', the inputs must have one dtype"):
        ops.addn([a, T([1, 2], np.int32)])
    with pytest.raises(ValueError, match="For 'AddN', the input num must be greater"):
        ops.addn([])
    for bad in (a, [1, 2], [a, 1.0]):
        with pytest.raises(TypeError, match="For 'AddN', 'x' must be a list or tuple of Tensors"):
            ops.addn(bad)
    np.testing.assert_array_equal(a.asnumpy(), [1, 2])
