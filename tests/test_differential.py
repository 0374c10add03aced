"""ops.hvp (forward over reverse, batched over vectors), ops.hessian's HVP route,
ops.divergence and the Hutchinson Laplacian estimator, against dense NumPy references."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops


def T(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


def f(y):
    return ops.reduce_sum(ops.sin(y) * y * y) + ops.reduce_prod(y)


def dense_hessian(x):
    """d2/dxi dxj of sum(sin(x) x^2) + prod(x), by hand."""
    x = np.asarray(x)
    n = x.size
    h = np.zeros((n, n))
    for i in range(n):
        h[i, i] = -np.sin(x[i]) * x[i] ** 2 + 4 * x[i] * np.cos(x[i]) + 2 * np.sin(x[i])
        for j in range(n):
            if i != j:
                h[i, j] = np.prod(np.delete(x, [i, j]))
    return h


X = [0.3, -0.5, 1.2, 0.8]


def test_hvp_single_and_batched():
    x = T(X)
    h = dense_hessian(X)
    v = T([1.0, -2.0, 0.5, 3.0])
    out, hv = ops.hvp(f, x, v)
    assert float(out.asnumpy()) == pytest.approx(float(f(x).asnumpy()))
    np.testing.assert_allclose(hv.asnumpy(), h @ v.asnumpy(), rtol=1e-12)
    vs = np.random.default_rng(0).standard_normal((5, 4))
    out, hvs = ops.hvp(f, x, T(vs), batched=True)
    assert hvs.shape == (5, 4)
    np.testing.assert_allclose(hvs.asnumpy(), vs @ h, rtol=1e-12)


def test_hvp_several_inputs_and_graph():
    a, b = T([[0.2, -0.4], [0.6, 0.1]]), T([0.5, -1.5])
    g = lambda p, q: ops.reduce_sum(ops.tanh(ops.matmul(p, ops.reshape(q, (2, 1)))) ** 2)  # noqa
    va, vb = T([[1.0, 0.0], [0.5, -1.0]]), T([0.3, 0.7])
    _, (ha, hb) = ops.hvp(g, (a, b), (va, vb))
    # central differences of the gradient along v
    eps = 1e-5
    gp = ops.grad(g, (0, 1))(a + eps * va, b + eps * vb)
    gm = ops.grad(g, (0, 1))(a - eps * va, b - eps * vb)
    np.testing.assert_allclose(ha.asnumpy(), (gp[0] - gm[0]).asnumpy() / (2 * eps), rtol=1e-6)
    np.testing.assert_allclose(hb.asnumpy(), (gp[1] - gm[1]).asnumpy() / (2 * eps), rtol=1e-6)
    compiled = ms.jit(lambda p, q, u, w: ops.hvp(g, (p, q), (u, w))[1])
    ca, cb = compiled(a, b, va, vb)
    np.testing.assert_allclose(ca.asnumpy(), ha.asnumpy(), rtol=1e-12)
    np.testing.assert_allclose(cb.asnumpy(), hb.asnumpy(), rtol=1e-12)


def test_hessian_matches_dense_and_jacfwd_of_jacrev():
    x = T(X)
    h = ops.hessian(f)(x).asnumpy()
    np.testing.assert_allclose(h, dense_hessian(X), rtol=1e-12)
    np.testing.assert_allclose(h, ops.jacfwd(ops.jacrev(f))(x).asnumpy(), rtol=1e-12)
    # a (1,)-shaped output keeps its axis; a matrix input gives x.shape * 2
    m = T(np.array(X).reshape(2, 2))
    hm = ops.hessian(lambda y: ops.reshape(f(ops.reshape(y, (4,))), (1,)))(m)
    assert hm.shape == (1, 2, 2, 2, 2)
    np.testing.assert_allclose(hm.asnumpy().reshape(4, 4), dense_hessian(X), rtol=1e-12)
    # vector outputs and second positions take the general route
    hv = ops.hessian(lambda y: ops.sin(y) * y)(T([0.1, 0.2])).asnumpy()
    want = np.zeros((2, 2, 2))
    for i, v in enumerate([0.1, 0.2]):
        want[i, i, i] = 2 * np.cos(v) - v * np.sin(v)
    np.testing.assert_allclose(hv, want, rtol=1e-12)
    h2 = ops.hessian(lambda a, y: f(y) * a, 1)(T(2.0), x).asnumpy()
    np.testing.assert_allclose(h2, 2 * dense_hessian(X), rtol=1e-12)


def test_divergence():
    g = lambda y: ops.sin(y) * ops.reduce_sum(y * y)  # noqa: E731
    x = T([0.3, -0.5, 1.2])
    xv = x.asnumpy()
    want = np.sum(np.cos(xv) * (xv ** 2).sum() + 2 * np.sin(xv) * xv)
    assert float(ops.divergence(g)(x).asnumpy()) == pytest.approx(want, rel=1e-12)
    np.testing.assert_allclose(ops.divergence(g)(x).asnumpy(),
                               np.trace(ops.jacfwd(g)(x).asnumpy()), rtol=1e-12)
    with pytest.raises(ValueError, match="divergence"):
        ops.divergence(lambda y: ops.reduce_sum(y))(x)


def test_hutchinson_is_unbiased_and_converges():
    x = T(X)
    exact = np.trace(dense_hessian(X))
    est = [float(ops.hutchinson_laplacian(f, x, 400, seed=s).asnumpy()) for s in range(6)]
    # Rademacher: the error's standard deviation is sqrt(2 sum_{i != j} H_ij^2 / samples)
    h = dense_hessian(X)
    sd = np.sqrt(2 * (np.sum(h ** 2) - np.sum(np.diag(h) ** 2)) / 400)
    assert abs(np.mean(est) - exact) < 3 * sd / np.sqrt(6) + 1e-12
    # a diagonal Hessian is estimated exactly by any Rademacher vector
    q = lambda y: ops.reduce_sum(ops.sin(y))  # noqa: E731
    assert float(ops.hutchinson_laplacian(q, x, 3).asnumpy()) == pytest.approx(
        -np.sin(X).sum(), rel=1e-12)


def test_bad_inputs():
    x = T(X)
    with pytest.raises(TypeError, match="hvp"):
        ops.hvp(3, x, x)
    with pytest.raises(ValueError, match="shape"):
        ops.hvp(f, x, T([1.0, 2.0]))
    with pytest.raises(ValueError, match="one Tensor per input"):
        ops.hvp(f, x, (x, x))
    with pytest.raises(TypeError, match="dtype"):
        ops.hvp(f, x, T(X, np.float32))
    with pytest.raises(ValueError, match="one element"):
        ops.hvp(lambda y: y * 2, x, x)
    with pytest.raises(ValueError, match="num_samples"):
        ops.hutchinson_laplacian(f, x, 0)
    # a huge sample count is refused before the probes are allocated (not a MemoryError)
    with pytest.raises(ValueError, match="hutchinson_laplacian.*num_samples"):
        ops.hutchinson_laplacian(f, x, 10 ** 12)
    np.testing.assert_array_equal(x.asnumpy(), X)
