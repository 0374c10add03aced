"""vmap: batching rules against per-example loops, composition with grad (per-example
gradients), axes handling and errors."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops

RNG = np.random.default_rng(0)


def T(a):
    return ms.Tensor(np.asarray(a, np.float64))


def per_example(f, xs, axis=0):
    n = xs.shape[axis]
    return np.stack([f(ms.Tensor(np.take(xs.asnumpy(), i, axis))).asnumpy() for i in range(n)])


W = T(RNG.standard_normal((3, 4)))
CASES = [
    ("elementwise", lambda v: ops.sin(v) * v + 1.0, (5, 3)),
    ("broadcast_const", lambda v: v * T([1.0, 2.0, 3.0]), (5, 3)),
    ("matmul", lambda v: ops.matmul(v, W), (5, 3)),
    ("matmul_left", lambda v: ops.matmul(W.T, v), (5, 3)),
    ("matrix", lambda m: ops.matmul(m, m.T), (4, 2, 3)),
    ("reduce", lambda v: ops.reduce_sum(v * v), (5, 3)),
    ("reduce_axis", lambda m: ops.reduce_max(m, 1, True), (4, 2, 3)),
    ("softmax", lambda v: ops.softmax(v), (5, 3)),
    ("reshape_T", lambda m: ops.reshape(m, (3, 2)).T, (4, 2, 3)),
    ("getitem", lambda v: v[1:] * v[0], (5, 3)),
    ("getitem_array", lambda v: v[ms.Tensor(np.array([2, 0, 2]))], (5, 3)),
    ("concat", lambda v: ops.concat([v, T([9.0])]), (5, 3)),
    ("cumsum", lambda v: ops.cumsum(v, 0), (5, 3)),
    ("argmax", lambda v: ops.argmax(v), (5, 3)),
    ("where", lambda v: ops.select(v > 0, v, -v), (5, 3)),
    ("broadcast_to", lambda v: ops.broadcast_to(v, (2, 3)), (5, 3)),
]


@pytest.mark.parametrize("name,f,shape", CASES, ids=[c[0] for c in CASES])
def test_vmap_matches_loop(name, f, shape):
    xs = T(RNG.standard_normal(shape))
    got = ops.vmap(f)(xs).asnumpy()
    np.testing.assert_allclose(got, per_example(f, xs), rtol=1e-12)


def test_in_axes_out_axes_and_none():
    xs = T(RNG.standard_normal((3, 5)))
    b = T(RNG.standard_normal(3))
    got = ops.vmap(lambda v, c: v * c, in_axes=(1, None), out_axes=1)(xs, b)
    np.testing.assert_allclose(got.asnumpy(), xs.asnumpy() * b.asnumpy()[:, None])
    const = ops.vmap(lambda v: T([1.0, 2.0]))(xs)  # an unbatched output is broadcast
    assert const.shape == (3, 2)


def test_per_example_gradients():
    xs = T(RNG.standard_normal((6, 3)))
    w = T(RNG.standard_normal(3))
    loss = lambda w_, x: ops.tanh(ops.reduce_sum(w_ * x)) ** 2  # noqa: E731
    got = ops.vmap(ops.grad(loss), in_axes=(None, 0))(w, xs).asnumpy()
    want = np.stack([ops.grad(loss)(w, ms.Tensor(x)).asnumpy() for x in xs.asnumpy()])
    np.testing.assert_allclose(got, want, rtol=1e-12)
    # and grad of vmap: the gradient of the summed batch loss
    total = lambda w_: ops.reduce_sum(ops.vmap(loss, in_axes=(None, 0))(w_, xs))  # noqa: E731
    np.testing.assert_allclose(ops.grad(total)(w).asnumpy(), want.sum(0), rtol=1e-12)


def test_nested_vmap():
    xs = T(RNG.standard_normal((2, 3, 4)))
    got = ops.vmap(ops.vmap(lambda v: ops.reduce_sum(ops.exp(v))))(xs)
    np.testing.assert_allclose(got.asnumpy(), np.exp(xs.asnumpy()).sum(-1), rtol=1e-12)


def test_jacobians_use_vmap_and_agree():
    f = lambda a, b: ops.sin(a) * ops.reduce_sum(b * b) + ops.matmul(W.T, a[:3])  # noqa: E731
    a, b = T(RNG.standard_normal(4)), T(RNG.standard_normal(2))
    jr = ops.jacrev(f, (0, 1))(a, b)
    jf = ops.jacfwd(f, (0, 1))(a, b)
    for r, g in zip(jr, jf):
        np.testing.assert_allclose(r.asnumpy(), g.asnumpy(), rtol=1e-12)
    assert jr[0].shape == (4, 4) and jr[1].shape == (4, 2)


def test_vmap_in_graph_mode():
    f = ms.jit(ops.vmap(lambda v: ops.reduce_sum(ops.sin(v) * v)))
    xs = T(RNG.standard_normal((5, 3)))
    want = (np.sin(xs.asnumpy()) * xs.asnumpy()).sum(1)
    np.testing.assert_allclose(f(xs).asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(f(xs).asnumpy(), want, rtol=1e-12)


def test_vmap_errors():
    with pytest.raises(RuntimeError, match="should be equal, but got 3 and 4"):
        ops.vmap(lambda a, b: a + b)(T(np.ones(3)), T(np.ones(4)))
    with pytest.raises(ValueError, match="in_axes"):
        ops.vmap(lambda a: a, in_axes=2)(T(np.ones(3)))
    with pytest.raises(TypeError, match="no single value"):
        ops.vmap(lambda a: a * 2 if a > 0 else a)(T(np.ones(3)))
