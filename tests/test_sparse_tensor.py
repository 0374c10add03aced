"""``COOTensor`` and ``CSRTensor``: MindSpore's constructors, properties and checks (the
values printed by MindSpore 2.10's tensor tutorial and its CPU build), dense conversions,
products and gradients through the values in both modes."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import COOTensor, CSRTensor, Tensor, ops


def T(v, dtype=np.float32) -> Tensor:
    return Tensor(np.array(v, dtype))


def csr() -> CSRTensor:
    # [[1, 0, 0, 0], [0, 2, 0, 3]]
    return CSRTensor(T([0, 1, 3], np.int32), T([0, 1, 3], np.int32), T([1.0, 2.0, 3.0]), (2, 4))


def coo() -> COOTensor:
    return COOTensor(T([[0, 1], [1, 2]], np.int32), T([1.0, 2.0]), (3, 4))


def test_the_tutorial_properties() -> None:
    c = CSRTensor(Tensor([0, 1, 2]), Tensor([0, 1]), Tensor([1, 2], dtype=ms.float32), (2, 4))
    assert c.astype(ms.float64).dtype == ms.float64
    assert (c.shape, c.dtype, c.size, c.itemsize, c.ndim) == ((2, 4), ms.float32, 2, 4, 2)
    o = coo()
    np.testing.assert_array_equal(o.values.asnumpy(), [1, 2])
    np.testing.assert_array_equal(o.indices.asnumpy(), [[0, 1], [1, 2]])
    assert o.shape == (3, 4) and o.astype(ms.float64).dtype == ms.float64
    assert COOTensor(coo_tensor=o).shape == (3, 4) and CSRTensor(csr_tensor=c).shape == (2, 4)
    assert repr(o).startswith("COOTensor(shape=[3, 4], dtype=Float32, indices=")


def test_dense_forms_and_conversions() -> None:
    dense = np.array([[1, 0, 0, 0], [0, 2, 0, 3]], np.float32)
    np.testing.assert_array_equal(csr().to_dense().asnumpy(), dense)
    back = csr().to_coo()
    np.testing.assert_array_equal(back.indices.asnumpy(), [[0, 0], [1, 1], [1, 3]])
    np.testing.assert_array_equal(back.to_csr().indptr.asnumpy(), [0, 1, 3])
    np.testing.assert_array_equal(back.to_csr().to_dense().asnumpy(), dense)
    np.testing.assert_array_equal(coo().to_dense().asnumpy()[[0, 1], [1, 2]], [1, 2])
    twice = COOTensor(T([[2, 0], [0, 1], [2, 0]], np.int64), T([1.0, 5.0, 2.0]), (3, 2))
    merged = twice.coalesce()
    np.testing.assert_array_equal(merged.indices.asnumpy(), [[0, 1], [2, 0]])
    np.testing.assert_array_equal(merged.values.asnumpy(), [5, 3])
    np.testing.assert_array_equal(twice.to_dense().asnumpy(), [[0, 5], [0, 0], [3, 0]])


def test_arithmetic_as_mindspore() -> None:
    o = coo()
    d = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    np.testing.assert_array_equal((o * d).values.asnumpy(), [1, 12])  # MindSpore's values
    np.testing.assert_allclose((o / d).values.asnumpy(), [1, 1 / 3], rtol=1e-7)
    np.testing.assert_array_equal((-o).values.asnumpy(), [-1, -2])
    np.testing.assert_array_equal(o.abs().values.asnumpy(), [1, 2])
    np.testing.assert_array_equal((o + d).asnumpy(), o.to_dense().asnumpy() + d.asnumpy())
    np.testing.assert_array_equal((o + o).to_dense().asnumpy(), 2 * o.to_dense().asnumpy())
    np.testing.assert_array_equal((o - o).to_dense().asnumpy(), np.zeros((3, 4)))
    c = csr()
    np.testing.assert_array_equal(c.mv(T([[1.0], [2.0], [3.0], [4.0]])).asnumpy(), [[1], [16]])
    np.testing.assert_array_equal(c.mv(T([1.0, 2.0, 3.0, 4.0])).asnumpy(), [1, 16])
    np.testing.assert_array_equal(c.mm(Tensor(np.ones((4, 3), np.float32))).asnumpy(),
                                  [[1, 1, 1], [5, 5, 5]])
    np.testing.assert_array_equal(c.sum(1).asnumpy(), [[1], [5]])
    np.testing.assert_array_equal(c.sum(0).asnumpy(), [[1, 2, 0, 3]])
    np.testing.assert_array_equal((c + c).to_dense().asnumpy(), 2 * c.to_dense().asnumpy())
    np.testing.assert_array_equal((c * T([1.0, 2.0, 3.0, 4.0])).values.asnumpy(), [1, 4, 12])


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_gradients_reach_the_values(mode) -> None:
    wrap = ms.jit if mode == "graph" else (lambda f: f)
    idx = T([[0, 1], [1, 2]], np.int32)
    g = wrap(ops.grad(lambda v: (COOTensor(idx, v, (3, 4)).to_dense() * 3).sum()))(T([1.0, 2.0]))
    np.testing.assert_array_equal(g.asnumpy(), [3, 3])
    indptr, cols = T([0, 1, 3], np.int32), T([0, 1, 3], np.int32)
    x = T([[1.0], [2.0], [3.0], [4.0]])

    def f(v, x):
        return (CSRTensor(indptr, cols, v, (2, 4)).mv(x) ** 2).sum()

    gv, gx = wrap(ops.grad(f, (0, 1)))(T([1.0, 2.0, 3.0]), x)
    # rows: r0 = v0 x0 = 1, r1 = v1 x1 + v2 x3 = 16
    np.testing.assert_allclose(gv.asnumpy(), [2 * 1 * 1, 2 * 16 * 2, 2 * 16 * 4])
    np.testing.assert_allclose(gx.asnumpy(), [[2.0], [2 * 16 * 2], [0], [2 * 16 * 3]])


def test_bad_input_names_the_class_and_argument() -> None:
    idx, vals = T([[0, 1], [1, 2]], np.int32), T([1.0, 2.0])
    with pytest.raises(ValueError, match=r"For COOTensor, 'indices.shape\[0\]' must be equal"):
        COOTensor(idx, T([1.0]), (3, 4))
    with pytest.raises(ValueError, match="For COOTensor, the length of 'shape' must be 2"):
        COOTensor(idx, vals, (3, 4, 5))
    with pytest.raises(TypeError, match="For COOTensor, 'indices' must have an integer dtype"):
        COOTensor(T([[0.0, 1.0]]), T([1.0]), (3, 4))
    with pytest.raises(ValueError, match=r"For CSRTensor, 'indptr' must have length 1 \+ shape"):
        CSRTensor(T([0, 1, 2], np.int32), T([0, 1], np.int32), vals, (3, 4))
    with pytest.raises(ValueError, match="For CSRTensor, 'indices' and 'values' must have one"):
        CSRTensor(T([0, 1, 2], np.int32), T([0, 1], np.int32), T([1.0, 2.0, 3.0]), (2, 4))
    with pytest.raises(IndexError, match="out of range"):
        COOTensor(T([[0, 5]], np.int32), T([1.0]), (3, 4)).to_dense()
    with pytest.raises(ValueError, match=r"For CSRTensor.mm, the matrix must be a 2-D Tensor"):
        csr().mm(T([1.0, 2.0]))
    with pytest.raises(ValueError, match="does not broadcast to the sparse shape"):
        coo() * T([1.0, 2.0])
    with pytest.raises(TypeError, match="For CSRTensor add, the other operand must be a CSR"):
        csr() + T([1.0])
