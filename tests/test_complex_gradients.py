"""Gradients of real losses of complex inputs, in MindSpore's convention (the gradient of
``L`` at ``z = a + ib`` is ``dL/da + i dL/db``), through holomorphic operators (products,
exp, matmul) and the non-holomorphic ones (real, imag, abs, conj), against finite
differences; and the values MindSpore 2.10 gives where its CPU build differentiates."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, ops

Z = np.array([1 + 2j, 3 - 1j], np.complex128)
W = np.array([2 - 1j, 1 + 1j], np.complex128)


def numeric(loss, z: np.ndarray) -> np.ndarray:
    """dL/da + i dL/db by central differences."""
    out = np.zeros_like(z)
    h = 1e-6
    for k in range(z.size):
        e = np.zeros_like(z)
        e[k] = h
        da = (loss(z + e) - loss(z - e)) / (2 * h)
        db = (loss(z + 1j * e) - loss(z - 1j * e)) / (2 * h)
        out[k] = da + 1j * db
    return out


CASES = {
    "real(z w)": (lambda z: ops.real(z * Tensor(W)).sum(), lambda z: np.real(z * W).sum()),
    "abs(z z)": (lambda z: ops.abs(z * z).sum(), lambda z: np.abs(z * z).sum()),
    "imag(exp z) |z|": (lambda z: (ops.imag(ops.exp(z)) * ops.abs(z)).sum(),
                        lambda z: (np.imag(np.exp(z)) * np.abs(z)).sum()),
    "real(z / w) + imag(conj z)": (
        lambda z: (ops.real(z / Tensor(W)) + ops.imag(ops.conj(z))).sum(),
        lambda z: (np.real(z / W) + np.imag(np.conj(z))).sum()),
    "abs(matmul)": (lambda z: ops.abs(ops.matmul(ops.reshape(z, (1, 2)),
                                                 Tensor(W.reshape(2, 1)))).sum(),
                    lambda z: np.abs(z.reshape(1, 2) @ W.reshape(2, 1)).sum()),
}


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_against_finite_differences(name: str, mode: str) -> None:
    f, ref = CASES[name]
    grad = ops.grad(f)
    if mode == "graph":
        grad = ms.jit(grad)
    np.testing.assert_allclose(grad(Tensor(Z)).asnumpy(), numeric(ref, Z), rtol=1e-6,
                               atol=1e-8)


def test_mindspore_values() -> None:
    """MindSpore 2.10 (complex64): its CPU build differentiates these."""
    z = Tensor(Z.astype(np.complex64))
    np.testing.assert_allclose(ops.grad(lambda a: ops.real(ops.exp(a)).sum())(z).asnumpy(),
                               [-1.1312044 - 2.4717267j, 10.852262 + 16.901396j], rtol=1e-6)
    np.testing.assert_allclose(ops.grad(lambda a: ops.imag(a * 2).sum())(z).asnumpy(),
                               [2j, 2j])
    np.testing.assert_allclose(ops.grad(lambda a: ops.abs(a).sum())(z).asnumpy(),
                               [0.4472136 + 0.8944272j, 0.94868326 - 0.31622776j], rtol=1e-6)
    real = ops.grad(lambda a: ops.real(a).sum())(z)  # printed [1.+0.j 1.+0.j], as MindSpore
    assert str(real) == "[1.+0.j 1.+0.j]"
    assert not np.signbit(real.asnumpy().imag).any()


def test_a_complex_sensitivity() -> None:
    """A complex output's sensitivity v, in the same convention: the gradient of
    Re(sum(conj(v) f(z))), as a real loss would give."""
    v = np.array([1 - 1j, 2 + 0.5j])
    _, pullback = ops.vjp(lambda a: ops.exp(a), Tensor(Z))
    want = numeric(lambda z: np.real(np.conj(v) * np.exp(z)).sum(), Z)
    np.testing.assert_allclose(pullback(Tensor(v))[0].asnumpy(), want, rtol=1e-6)
