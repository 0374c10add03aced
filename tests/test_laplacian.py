"""The forward Laplacian (``ops.laplacian``): against a hand-written NumPy forward Laplacian on
the PINN network, against second-order Taylor mode one direction at a time (the previous
implementation) and the trace of nested reverse-mode Hessians, through every rule family
(linear, additive, bilinear, elementwise, the general fallback), under vmap, grad and GRAPH."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops
from mindgrad.ad.api import vectorize
from mindgrad.ad.taylor import taylor_call


def T(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


def per_direction_laplacian(fn, x):
    """Second-order Taylor mode along each basis direction, summed (independent route)."""
    n = x.size
    basis = ops.reshape(ops.eye(n, n, x.dtype), (n,) + x.shape)

    def second(e):
        _, coeffs = taylor_call(fn, [x], [[e, None]], 2)
        return ops.zeros_like(fn(x)) if coeffs[1] is None else coeffs[1] * 2.0

    return ops.reduce_sum(vectorize(second, [basis], [0], 0), 0)


def mlp(widths, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    params = [(T(rng.standard_normal((a, b)) / np.sqrt(a), dtype),
               T(rng.standard_normal(b) * 0.1, dtype)) for a, b in zip(widths[:-1], widths[1:])]

    def f(x):
        h = x
        for i, (w, b) in enumerate(params):
            h = ops.matmul(h, w) + b
            if i < len(params) - 1:
                h = ops.tanh(h)
        return h

    return f, params


def numpy_forward_laplacian(params, x):
    """The forward Laplacian of the tanh MLP, by hand: value, direction stack, summed term."""
    d = x.shape[1]
    h, g, lap = x, np.broadcast_to(np.eye(d)[:, None, :], (d,) + x.shape), np.zeros_like(x)
    for i, (w, b) in enumerate(params):
        w, b = w.asnumpy(), b.asnumpy()
        h, g, lap = h @ w + b, g @ w, lap @ w
        if i < len(params) - 1:
            y = np.tanh(h)
            d1 = 1 - y * y
            lap = d1 * lap - 2 * y * d1 * (g * g).sum(0)
            g, h = d1 * g, y
    return lap


def test_pinn_mlp_256_points_matches_numpy_and_previous_route():
    f, params = mlp([8, 128, 128, 128, 1])
    x = T(np.random.default_rng(1).standard_normal((256, 8)))
    want = numpy_forward_laplacian(params, x.asnumpy())
    got = ops.laplacian(f, batch_axis=0)(x)
    assert got.shape == (256, 1) and got.dtype == ms.float64
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-10, atol=1e-12)
    point = lambda p: f(ops.reshape(p, (1, 8)))[0, 0]  # noqa: E731
    np.testing.assert_allclose(ops.vmap(ops.laplacian(point))(x).asnumpy(), want[:, 0],
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ops.vmap(lambda p: per_direction_laplacian(point, p))(x)
                               .asnumpy(), want[:, 0], rtol=1e-10, atol=1e-12)
    # without batch_axis every element of the batch is a direction: same numbers
    np.testing.assert_allclose(ops.laplacian(f)(x[:5]).asnumpy(), want[:5], rtol=1e-10,
                               atol=1e-12)


def test_float32_pinn_agrees_with_float64():
    f64, _ = mlp([8, 32, 32, 1])
    f32, _ = mlp([8, 32, 32, 1], np.float32)
    xv = np.random.default_rng(2).standard_normal((16, 8))
    got = ops.laplacian(f32, batch_axis=0)(T(xv, np.float32))
    assert got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), ops.laplacian(f64, batch_axis=0)(T(xv)).asnumpy(),
                               rtol=2e-4, atol=2e-5)


W = T(np.random.default_rng(3).standard_normal((3, 2)))
CASES = [
    ("sum_squares", lambda x: ops.reduce_sum(x * x)),
    ("exp_sin", lambda x: ops.exp(x) * ops.sin(x)),
    ("cos_log", lambda x: ops.cos(x) + ops.log(x + 3.0)),
    ("div_fallback", lambda x: ops.sin(x) / (x * x + 1.0)),
    ("pow", lambda x: ops.pow(x + 2.0, 2.5)),
    ("sigmoid_softplus", lambda x: ops.sigmoid(x) * ops.softplus(x)),
    ("sqrt_rsqrt", lambda x: ops.sqrt(x * x + 1.0) - ops.rsqrt(x * x + 2.0)),
    ("matmul_const", lambda x: ops.tanh(ops.matmul(ops.reshape(x, (2, 3)), W))),
    ("matmul_both_vary", lambda x: ops.matmul(ops.reshape(x, (2, 3)),
                                              ops.transpose(ops.reshape(x, (2, 3)), (1, 0)))),
    ("reduce_getitem", lambda x: ops.reduce_mean(ops.exp(x[1:4])) * x[0]),
    ("concat_broadcast", lambda x: ops.concat([x * x, ops.sin(x)]) + ops.reshape(x, (6, 1))),
    ("sub_neg", lambda x: -(ops.tanh(x) - x * x * x)),
    ("maximum", lambda x: ops.maximum(ops.sin(x), 0.1)),
    ("select", lambda x: ops.select(x > 0, ops.exp(x), x * x)),
    ("atan2_from_jvp", lambda x: ops.atan2(x, x * x + 1)),
    ("linear_only", lambda x: ops.reduce_sum(x) * 3.0 - x),
    ("constant", lambda x: ops.ones((2,), ms.float64)),
]


@pytest.mark.parametrize("name,f", CASES, ids=[c[0] for c in CASES])
def test_rules_match_per_direction_taylor(name, f):
    x = T(np.random.default_rng(4).uniform(-0.9, 0.9, 6))
    got = ops.laplacian(f)(x)
    want = per_direction_laplacian(f, x)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-10, atol=1e-12)


def test_matches_hessian_trace_for_vector_output():
    f = lambda x: ops.stack([ops.reduce_sum(ops.sin(x) * x), ops.reduce_prod(x)])  # noqa: E731
    x = T([0.3, -0.7, 1.1])
    got = ops.laplacian(f)(x).asnumpy()
    for j in range(2):
        h = ops.hessian(lambda y: f(y)[j])(x).asnumpy()
        assert got[j] == pytest.approx(np.trace(h), rel=1e-10)


def test_closed_forms():
    x = T([[0.1, -0.4], [0.7, 0.2]])
    xv = x.asnumpy()
    # lap sum(x^4) = 12 x^2 per element; lap exp(sum x) = 4 exp(sum x) (4 unit directions)
    np.testing.assert_allclose(ops.laplacian(lambda y: ops.reduce_sum(y ** 4))(x).asnumpy(),
                               (12 * xv ** 2).sum(), rtol=1e-12)
    np.testing.assert_allclose(ops.laplacian(lambda y: ops.exp(ops.reduce_sum(y)))(x)
                               .asnumpy(), 4 * np.exp(xv.sum()), rtol=1e-12)


def test_batch_axis_other_than_zero_and_tuple_output():
    f, _ = mlp([3, 8, 2])
    xv = np.random.default_rng(5).standard_normal((4, 3))
    want = ops.laplacian(f, batch_axis=0)(T(xv)).asnumpy()
    g = lambda xt: f(ops.transpose(xt, (1, 0)))  # noqa: E731  points along axis 1
    np.testing.assert_allclose(ops.laplacian(g, batch_axis=1)(T(xv.T)).asnumpy(), want,
                               rtol=1e-12)
    np.testing.assert_allclose(ops.laplacian(g, batch_axis=-1)(T(xv.T)).asnumpy(), want,
                               rtol=1e-12)
    a, b = ops.laplacian(lambda y: (f(y), ops.reduce_sum(y * y, 1)), batch_axis=0)(T(xv))
    np.testing.assert_allclose(a.asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(b.asnumpy(), np.full(4, 6.0), rtol=1e-12)


def test_grad_through_laplacian_trains_weights():
    """A PINN loss differentiates through the forward Laplacian: same weight gradient as
    through the per-direction route."""
    f, params = mlp([2, 6, 1], seed=7)
    x = T(np.random.default_rng(8).standard_normal((5, 2)))
    w0 = params[0][0]

    def loss_new(w):
        params[0] = (w, params[0][1])
        return ops.reduce_sum(ops.laplacian(f, batch_axis=0)(x) ** 2)

    def loss_old(w):
        params[0] = (w, params[0][1])
        point = lambda p: f(ops.reshape(p, (1, 2)))[0, 0]  # noqa: E731
        return ops.reduce_sum(ops.vmap(lambda p: per_direction_laplacian(point, p))(x) ** 2)

    g_new = ops.grad(loss_new)(w0).asnumpy()
    g_old = ops.grad(loss_old)(w0).asnumpy()
    params[0] = (w0, params[0][1])
    assert np.abs(g_new).max() > 1e-3
    np.testing.assert_allclose(g_new, g_old, rtol=1e-9, atol=1e-12)


def test_graph_mode_matches_pynative():
    f, params = mlp([4, 16, 16, 1])
    x = T(np.random.default_rng(9).standard_normal((10, 4)))
    eager = ops.laplacian(f, batch_axis=0)(x).asnumpy()
    compiled = ms.jit(ops.laplacian(f, batch_axis=0))
    np.testing.assert_allclose(compiled(x).asnumpy(), eager, rtol=1e-12)
    np.testing.assert_allclose(compiled(x).asnumpy(), numpy_forward_laplacian(params, x.asnumpy()),
                               rtol=1e-10)


def test_bad_inputs():
    with pytest.raises(TypeError, match="laplacian"):
        ops.laplacian(3)
    with pytest.raises(TypeError, match="batch_axis"):
        ops.laplacian(ops.sin, batch_axis=1.0)
    with pytest.raises(TypeError, match="Tensor"):
        ops.laplacian(ops.sin)(np.ones(3))
    with pytest.raises(TypeError, match="floating"):
        ops.laplacian(ops.sin)(ms.Tensor(np.ones(3, np.int32)))
    x = T(np.ones((2, 3)))
    with pytest.raises(ValueError, match="out of range"):
        ops.laplacian(ops.sin, batch_axis=2)(x)
    np.testing.assert_array_equal(x.asnumpy(), np.ones((2, 3)))
