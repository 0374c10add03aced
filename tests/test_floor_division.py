"""Integer and bool floor division by zero, as MindSpore 2.10 (CPU) computes it: not NumPy's
0 but the quotient's limit, the dtype's largest value for a positive dividend, its smallest
for a negative one and 0 for 0 (``True // False`` is True). Float division by zero stays
IEEE's (inf, -inf, NaN). The expected values are MindSpore's."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, ops


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_signed_integers_divided_by_zero(dtype) -> None:
    info = np.iinfo(dtype)
    x = Tensor(np.array([5, -5, 0, 7, -7], dtype))
    y = Tensor(np.array([0, 0, 0, 2, 2], dtype))
    out = ops.floor_div(x, y)
    assert out.dtype == x.dtype
    np.testing.assert_array_equal(out.asnumpy(), [info.max, info.min, 0, 3, -4])


def test_unsigned_and_bool_divided_by_zero() -> None:
    out = ops.floor_div(Tensor(np.array([5, 0, 9], np.uint8)), Tensor(np.array([0, 0, 2], np.uint8)))
    np.testing.assert_array_equal(out.asnumpy(), [255, 0, 4])
    one = ops.floor_div(True, False)
    assert one.dtype == ms.bool_ and one.asnumpy().item() is True
    t = ops.floor_div(Tensor(np.array([True, False, True, False])),
                      Tensor(np.array([False, False, True, True])))
    np.testing.assert_array_equal(t.asnumpy(), [True, False, True, False])
    np.testing.assert_array_equal(
        ops.floor_div(True, Tensor(np.array([False, True]))).asnumpy(), [True, True])


def test_python_numbers_and_mixed_operands() -> None:
    assert int(ops.floor_div(5, 0)) == np.iinfo(np.int64).max
    assert int(ops.floor_div(-5, 0)) == np.iinfo(np.int64).min
    x = Tensor(np.array([5, -5, 0], np.int32))
    i32 = np.iinfo(np.int32)
    for out in (ops.floor_div(x, 0), x // 0, ops.floor_divide(x, 0),
                ops.floor_div(x, Tensor(np.array([False, False, False])))):
        assert out.dtype == ms.int32
        np.testing.assert_array_equal(out.asnumpy(), [i32.max, i32.min, 0])
    with np.errstate(divide="ignore", invalid="ignore"):
        f = ops.floor_div(Tensor(np.array([5.0, -5.0, 0.0], np.float32)), 0).asnumpy()
    assert f[0] == np.inf and f[1] == -np.inf and np.isnan(f[2])


def test_compiled_and_batched_agree_and_do_not_warn() -> None:
    x = Tensor(np.array([5, -5, 0, 9], np.int64))
    y = Tensor(np.array([0, 0, 0, 4], np.int64))
    want = [np.iinfo(np.int64).max, np.iinfo(np.int64).min, 0, 2]
    with warnings.catch_warnings(record=True) as caught:
        warnings.filterwarnings("always", append=True)
        eager = ops.floor_div(x, y)
        compiled = ms.jit(lambda a, b: a // b)(x, y)
        batched = ms.vmap(lambda a, b: ops.floor_div(a, b))(x, y)
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
    for out in (eager, compiled, batched):
        np.testing.assert_array_equal(out.asnumpy(), want)
