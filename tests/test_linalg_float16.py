"""float16 matrices in the linear-algebra functions, as MindSpore 2.10's CPU kernels treat
them: det, slogdet, logdet and cholesky compute (in float32 here, LAPACK having no float16
routines) and return float16; the norms read from singular values (ord 2, -2, 'nuc') return
float32; inverse and svd refuse float16 with a TypeError naming the function. The expected
values are MindSpore's."""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, ops

A = np.array([[2.0, 1.0], [1.0, 3.0]], np.float16)
SPD = np.array([[4.0, 2.0], [2.0, 3.0]], np.float16)
M = np.array([[1.0, 2.0], [3.0, 4.0]], np.float16)


def test_det_of_float16_is_float16() -> None:
    d = ops.det(Tensor(A))
    assert d.dtype == ms.float16 and float(d) == 5.0
    batch = ops.det(Tensor(np.stack([A, 2 * A])))
    assert batch.dtype == ms.float16
    np.testing.assert_array_equal(batch.asnumpy(), np.array([5.0, 20.0], np.float16))
    # rounded to float16 at the end: 100^3 overflows to inf, as in MindSpore
    assert ops.det(Tensor(np.eye(3, dtype=np.float16) * 100)).asnumpy() == np.inf
    empty = ops.det(Tensor(np.zeros((0, 2, 2), np.float16)))
    assert empty.dtype == ms.float16 and empty.shape == (0,)


def test_slogdet_and_logdet_of_float16() -> None:
    sign, logabs = ops.slogdet(Tensor(A))
    assert sign.dtype == logabs.dtype == ms.float16
    assert float(sign) == 1.0 and abs(float(logabs) - np.log(5.0)) < 2e-3
    ld = ops.logdet(Tensor(SPD))
    assert ld.dtype == ms.float16 and abs(float(ld) - np.log(8.0)) < 2e-3


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_of_float16_is_float16(upper) -> None:
    f = ops.cholesky(Tensor(SPD), upper=upper)
    assert f.dtype == ms.float16
    want = np.linalg.cholesky(SPD.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(f.asnumpy(), want.T if upper else want)


@pytest.mark.parametrize("ord, want", [("nuc", 5.83095), (2, 5.46499), (-2, 0.365966)])
def test_singular_value_norms_of_float16_are_float32(ord, want) -> None:
    n = ops.norm(Tensor(M), ord)
    assert n.dtype == ms.float32
    assert abs(float(n) - want) < 1e-5
    batch = ops.norm(Tensor(np.ones((2, 2, 2), np.float16)), "nuc", dim=(1, 2))
    assert batch.dtype == ms.float32 and np.allclose(batch.asnumpy(), 2.0)


@pytest.mark.parametrize("ord", [None, "fro", 1, float("inf")])
def test_other_norms_of_float16_stay_float16(ord) -> None:
    n = ops.norm(Tensor(M), ord)
    assert n.dtype == ms.float16
    want = np.linalg.norm(M.astype(np.float32), ord)
    assert abs(float(n) - want) < 1e-2 * want


def test_inverse_and_svd_refuse_float16() -> None:
    with pytest.raises(TypeError, match="For 'inverse'.*Float16"):
        ops.inverse(Tensor(A))
    for compute_uv in (True, False):
        with pytest.raises(TypeError, match="For 'svd'.*Float16"):
            ops.svd(Tensor(A), compute_uv=compute_uv)
    with pytest.raises(TypeError, match="'matrix_power'.*Float16"):
        ops.matrix_power(Tensor(A), -1)


def test_float16_gradients_of_det_and_cholesky() -> None:
    # (MindSpore's CPU build has no float16 kernels for these gradients; mindgrad computes
    # them in float32 and rounds back)
    g = ops.grad(ops.det)(Tensor(A))
    assert g.dtype == ms.float16
    np.testing.assert_array_equal(g.asnumpy(), np.array([[3.0, -1.0], [-1.0, 2.0]], np.float16))
    g32 = ops.grad(lambda a: ops.cholesky(a).sum())(Tensor(SPD.astype(np.float32)))
    g16 = ops.grad(lambda a: ops.cholesky(a).sum())(Tensor(SPD))
    assert g16.dtype == ms.float16
    np.testing.assert_allclose(g16.asnumpy(), g32.asnumpy(), rtol=2e-3, atol=2e-3)


def test_compiled_det_of_float16() -> None:
    f = ms.jit(lambda a: ops.det(a) * 2)
    out = f(Tensor(A))
    assert out.dtype == ms.float16 and float(out) == 10.0


def test_det_of_nan_matrices_does_not_warn() -> None:
    """NumPy's linalg warns from its own frames ("invalid value encountered in det"), out
    of reach of the filter that silences mindgrad's: still nothing escapes."""
    for dt in (np.float16, np.float32, np.float64):
        x = Tensor(np.full((3, 2, 2), np.nan, dt))
        with warnings.catch_warnings(record=True) as caught:
            warnings.filterwarnings("always", append=True)
            out = ops.det(x)
            ops.slogdet(x)
            ops.grad(lambda a: ops.det(a).sum())(x)
        assert not [w for w in caught if issubclass(w.category, RuntimeWarning)], \
            [str(w.message) for w in caught]
        assert np.isnan(out.asnumpy()).all()


@pytest.mark.skipif(os.environ.get("MINDGRAD_TEST_DEVICE", "CPU").upper() == "GPU",
                    reason="NumPy's error state governs CPU arrays only")
def test_det_nan_still_raises_when_numpy_is_asked_to() -> None:
    with np.errstate(invalid="raise"):
        with pytest.raises(FloatingPointError):
            ops.det(Tensor(np.full((2, 2), np.nan)))
