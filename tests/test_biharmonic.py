"""ops.biharmonic (the nested forward Laplacian) and ops.biharmonic_estimate (randomized
fourth-order Taylor mode) against closed forms, nested Hessians and their own sampling
distribution, in both modes and under grad."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops

RNG = np.random.default_rng(7)
W1 = RNG.standard_normal((3, 12)) / np.sqrt(3)
B1 = RNG.standard_normal(12) * 0.1
W2 = RNG.standard_normal((12, 8)) / np.sqrt(12)
W3 = RNG.standard_normal((8, 1))
POINTS = RNG.uniform(-1, 1, (4, 3))


def T(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


def mlp(w1):
    """A 3-12-8-1 tanh network of a batch of points, first weight as an argument."""
    return lambda z: ops.matmul(ops.tanh(ops.matmul(ops.tanh(ops.matmul(z, w1) + T(B1)),
                                                    T(W2))), T(W3))


def nested_hessian_biharmonic(u, p):
    """trace(Hessian(trace(Hessian(u)))) by grad-based Hessians, no Taylor mode."""
    lap = lambda q: ops.reduce_sum(ops.hessian(u)(q) * T(np.eye(q.shape[0])))  # noqa: E731
    return float((ops.hessian(lap)(p) * T(np.eye(p.shape[0]))).sum().asnumpy())


def test_closed_forms():
    for n in (1, 3, 5):
        x = T(RNG.standard_normal(n))
        got = ops.biharmonic(lambda y: ops.reduce_sum(y ** 4))(x)
        assert float(got.asnumpy()) == pytest.approx(24 * n, rel=1e-12)
    x = T([0.3, -0.5])
    got = ops.biharmonic(lambda y: ops.sin(y[0]) * ops.sin(y[1]))(x)
    assert float(got.asnumpy()) == pytest.approx(4 * np.sin(0.3) * np.sin(-0.5), rel=1e-12)
    # a mixed term: d^4 (x0^2 x1^2) / dx0^2 dx1^2 appears twice in the double sum
    got = ops.biharmonic(lambda y: y[0] ** 2 * y[1] ** 2 + y[0] ** 3)(x)
    assert float(got.asnumpy()) == pytest.approx(8.0, rel=1e-12)
    # a vector-valued fn: one biharmonic per output element, here of exp(2 x_i) each
    got = ops.biharmonic(lambda y: ops.exp(2 * y))(x)
    np.testing.assert_allclose(got.asnumpy(), 16 * np.exp(2 * x.asnumpy()), rtol=1e-12)


def test_mlp_matches_nested_hessians_per_point_and_batched():
    net = mlp(T(W1))
    per_point = [nested_hessian_biharmonic(lambda q: net(ops.reshape(q, (1, 3)))[0, 0], T(p))
                 for p in POINTS]
    batched = ops.biharmonic(net, batch_axis=0)(T(POINTS))
    assert batched.shape == (4, 1)
    np.testing.assert_allclose(batched.asnumpy()[:, 0], per_point, rtol=1e-10)
    # without batch_axis: directions over every element, the same numbers
    np.testing.assert_allclose(ops.biharmonic(net)(T(POINTS)).asnumpy(), batched.asnumpy(),
                               rtol=1e-10)
    # vmap of the per-point operator, and GRAPH mode, agree
    point = lambda q: net(ops.reshape(q, (1, 3)))[0, 0]  # noqa: E731
    np.testing.assert_allclose(ops.vmap(ops.biharmonic(point))(T(POINTS)).asnumpy(),
                               per_point, rtol=1e-10)
    compiled = ms.jit(lambda x: ops.biharmonic(net, batch_axis=0)(x))
    np.testing.assert_allclose(compiled(T(POINTS)).asnumpy(), batched.asnumpy(), rtol=1e-12)


def test_biharmonic_is_differentiable_in_both_modes():
    x = T(POINTS)

    def loss(w1):
        return ops.reduce_sum(ops.biharmonic(mlp(w1), batch_axis=0)(x) ** 2)

    g = ops.grad(loss)(T(W1)).asnumpy()
    gc = ms.jit(ops.grad(loss))(T(W1)).asnumpy()
    np.testing.assert_allclose(gc, g, rtol=1e-10)
    eps = 1e-5
    for i, j in ((0, 0), (2, 7), (1, 11)):
        e = np.zeros_like(W1)
        e[i, j] = eps
        fd = (float(loss(T(W1 + e)).asnumpy()) - float(loss(T(W1 - e)).asnumpy())) / (2 * eps)
        assert g[i, j] == pytest.approx(fd, rel=1e-6, abs=1e-8)


def per_sample_fourth(fn, x, num_samples, seed):
    """(v . grad)^4 fn / 3 for the estimator's Gaussian directions, through ops.jet."""
    v = np.random.default_rng(seed).standard_normal((num_samples,) + tuple(x.shape))

    def one(d):
        z = ops.zeros_like(d)
        return ops.jet(fn, x, ops.stack([d, z, z, z]))[1][3] / 3

    return ops.vmap(one)(T(v, x.asnumpy().dtype)).asnumpy()


def test_estimator_is_the_mean_of_fourth_directional_derivatives():
    # sum(x^4): (v . grad)^4 = 24 sum(v^4) exactly, so the estimate is 8 mean(sum(v^4))
    x = T(RNG.standard_normal(3))
    v = np.random.default_rng(5).standard_normal((50, 3))
    est = ops.biharmonic_estimate(lambda y: ops.reduce_sum(y ** 4), x, 50, seed=5)
    assert float(est.asnumpy()) == pytest.approx(8 * np.mean(np.sum(v ** 4, 1)), rel=1e-12)
    net = mlp(T(W1))
    p = per_sample_fourth(net, T(POINTS), 30, 3)
    est = ops.biharmonic_estimate(net, T(POINTS), 30, seed=3)
    assert est.shape == (4, 1)
    np.testing.assert_allclose(est.asnumpy(), p.mean(0), rtol=1e-10)
    # another seed, other directions
    assert not np.allclose(ops.biharmonic_estimate(net, T(POINTS), 30, seed=4).asnumpy(),
                           est.asnumpy())


def test_estimator_is_unbiased():
    # the mean of many samples at a fixed seed lies within 4 standard errors of the exact value
    n = 3
    x = T(RNG.standard_normal(n))
    s = 20000
    est = float(ops.biharmonic_estimate(lambda y: ops.reduce_sum(y ** 4), x, s).asnumpy())
    sd = np.sqrt(64 * n * (105 - 9))  # 8 sum(v_i^4): Var(v^4) = E v^8 - (E v^4)^2 = 105 - 9
    assert abs(est - 24 * n) < 4 * sd / np.sqrt(s)
    net = mlp(T(W1))
    exact = ops.biharmonic(net, batch_axis=0)(T(POINTS)).asnumpy()
    s = 4000
    p = per_sample_fourth(net, T(POINTS), s, 11)
    est = ops.biharmonic_estimate(net, T(POINTS), s, seed=11).asnumpy()
    np.testing.assert_allclose(est, p.mean(0), rtol=1e-10)
    assert np.all(np.abs(est - exact) < 4 * p.std(0) / np.sqrt(s))


def test_estimator_graph_and_grad():
    x = T(POINTS)
    net = mlp(T(W1))
    want = ops.biharmonic_estimate(net, x, 16, seed=2).asnumpy()
    got = ms.jit(lambda y: ops.biharmonic_estimate(net, y, 16, seed=2))(x).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-12)

    def loss(w1):
        return ops.reduce_sum(ops.biharmonic_estimate(mlp(w1), x, 16, seed=2))

    g = ops.grad(loss)(T(W1)).asnumpy()
    np.testing.assert_allclose(ms.jit(ops.grad(loss))(T(W1)).asnumpy(), g, rtol=1e-10)
    eps = 1e-5
    e = np.zeros_like(W1)
    e[1, 4] = eps
    fd = (float(loss(T(W1 + e)).asnumpy()) - float(loss(T(W1 - e)).asnumpy())) / (2 * eps)
    assert g[1, 4] == pytest.approx(fd, rel=1e-6, abs=1e-8)
    # float32 in, float32 out; tuple outputs give a tuple of estimates
    e32 = ops.biharmonic_estimate(lambda y: ops.reduce_sum(y ** 4), T([1.0, 2.0], np.float32), 4)
    assert e32.dtype == ms.float32
    a, b = ops.biharmonic_estimate(lambda y: (ops.reduce_sum(y ** 4), y[0] ** 4),
                                   T([1.0, 2.0]), 8, seed=1)
    v = np.random.default_rng(1).standard_normal((8, 2))
    assert float(a.asnumpy()) == pytest.approx(8 * np.mean(np.sum(v ** 4, 1)), rel=1e-12)
    assert float(b.asnumpy()) == pytest.approx(8 * np.mean(v[:, 0] ** 4), rel=1e-12)


def test_bad_arguments():
    x = T([0.1, 0.2])
    u = lambda y: ops.reduce_sum(y ** 4)  # noqa: E731
    with pytest.raises(TypeError, match="'biharmonic'.*callable"):
        ops.biharmonic(3)
    with pytest.raises(TypeError, match="'biharmonic'.*batch_axis"):
        ops.biharmonic(u, batch_axis=1.0)
    with pytest.raises(ValueError, match=r"'biharmonic'.*batch_axis 2.*\[2\]"):
        ops.biharmonic(u, batch_axis=2)(x)
    with pytest.raises(TypeError, match="'biharmonic'.*Tensor"):
        ops.biharmonic(u)(np.ones(2))
    with pytest.raises(TypeError, match="'biharmonic'.*floating.*Int32"):
        ops.biharmonic(u)(ms.Tensor(np.array([1, 2], np.int32)))
    with pytest.raises(TypeError, match="'biharmonic'.*must return.*float"):
        ops.biharmonic(lambda y: 3.0)(x)
    # tuple outputs: one biharmonic each
    a, b = ops.biharmonic(lambda y: (ops.reduce_sum(y ** 4), y[0] ** 2 * y[1] ** 2))(x)
    assert float(a.asnumpy()) == pytest.approx(48.0) and float(b.asnumpy()) == pytest.approx(8.0)
    with pytest.raises(TypeError, match="'biharmonic_estimate'.*callable"):
        ops.biharmonic_estimate(None, x, 4)
    with pytest.raises(TypeError, match="'biharmonic_estimate'.*Tensor"):
        ops.biharmonic_estimate(u, [0.1, 0.2], 4)
    for bad in (0, -3, 2.0, True, 10 ** 12):  # 10**12: refused before any allocation
        with pytest.raises(ValueError, match="'biharmonic_estimate'.*num_samples"):
            ops.biharmonic_estimate(u, x, bad)
    with pytest.raises(TypeError, match="'biharmonic_estimate'.*seed"):
        ops.biharmonic_estimate(u, x, 4, seed="a")
    with pytest.raises(TypeError, match="'biharmonic_estimate'.*must return"):
        ops.biharmonic_estimate(lambda y: 3.0, x, 4)
    np.testing.assert_array_equal(x.asnumpy(), [0.1, 0.2])
