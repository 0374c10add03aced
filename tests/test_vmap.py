"""vmap: composition with grad (per-example gradients), batched indices, axes handling and
errors. Every primitive's batch rule is checked against a per-example loop by the primitive
table (``tests/test_primitive_table.py``)."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops

RNG = np.random.default_rng(0)


def T(a):
    return ms.Tensor(np.asarray(a, np.float64))


def loop_over(f, args, in_axes):
    """The per-example results of ``f`` stacked: what vmap must give."""
    n = next(a.shape[ax] for a, ax in zip(args, in_axes) if ax is not None)

    def example(b):
        return [a if ax is None else ms.Tensor(np.take(a.asnumpy(), b, ax))
                for a, ax in zip(args, in_axes)]

    return np.stack([f(*example(b)).asnumpy() for b in range(n)])


W = T(RNG.standard_normal((3, 4)))


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


# --- indexing with batched indices ------------------------------------------------------------
TAB = T(RNG.standard_normal((4, 3)))
IDS = ms.Tensor(np.array([[1], [2], [3]], np.int32))  # one row number per example


def test_batched_index_into_shared_table():
    np.testing.assert_array_equal(ops.vmap(lambda i: TAB[i])(IDS).asnumpy(),
                                  TAB.asnumpy()[IDS.asnumpy()])
    np.testing.assert_array_equal(ops.vmap(lambda i: ops.gather(TAB, i, 0))(IDS).asnumpy(),
                                  TAB.asnumpy()[IDS.asnumpy()])
    cols = ms.Tensor(np.array([[2, 0], [1, 1], [0, 2]], np.int32))
    got = ops.vmap(lambda i: ops.gather(TAB, i, 1))(cols).asnumpy()
    np.testing.assert_array_equal(got, np.stack([TAB.asnumpy()[:, c] for c in cols.asnumpy()]))
    scalars = ms.Tensor(np.array([3, 0, 3], np.int32))  # a 0-d index per example
    np.testing.assert_array_equal(ops.vmap(lambda i: TAB[i])(scalars).asnumpy(),
                                  TAB.asnumpy()[[3, 0, 3]])
    nested = ms.Tensor(np.array([[[1, 2], [0, 3]], [[3, 3], [2, 1]]]))
    np.testing.assert_array_equal(ops.vmap(ops.vmap(lambda i: TAB[i]))(nested).asnumpy(),
                                  TAB.asnumpy()[nested.asnumpy()])


X4 = T(RNG.standard_normal((3, 2, 4, 5)))  # a batch of 3 examples of shape (2, 4, 5)
I2 = ms.Tensor(RNG.integers(0, 2, (3, 2, 2)))  # per example a (2, 2) index into size 2
J1 = ms.Tensor(RNG.integers(-4, 4, (3, 2)))  # per example a (2,) index into size 4 or 5
MASK = ms.Tensor(np.array([True, False, False, True]))
INDEXES = [  # x, i, j: one example's value and indices
    ("array", lambda x, i, j: x[i]),
    ("slice_array", lambda x, i, j: x[:, j]),
    ("ellipsis_array", lambda x, i, j: x[..., j]),
    ("two_arrays", lambda x, i, j: x[i[:, :1], j]),
    ("int_slice_array", lambda x, i, j: x[0, :, j]),  # separated: NumPy moves them in front
    ("slice_int_array", lambda x, i, j: x[:, 0, j]),
    ("array_slice_array", lambda x, i, j: x[i[:, 0], :, j]),
    ("newaxis_flip", lambda x, i, j: x[None, i, ::-1]),
    ("mask_and_array", lambda x, i, j: x[:, MASK, j]),
    ("array_ellipsis_int", lambda x, i, j: x[i, ..., 1]),
]


@pytest.mark.parametrize("name,f", INDEXES, ids=[c[0] for c in INDEXES])
@pytest.mark.parametrize("in_axes", [(0, None, None), (None, 0, 0), (None, 0, None),
                                     (0, 0, 0), (0, None, 0), (1, 2, 1)],
                         ids=["data", "index", "one_index", "both", "data_one_index", "axes"])
def test_getitem_batched_anywhere_matches_loop(name, f, in_axes):
    args = [X4 if in_axes[0] is not None else ms.Tensor(X4.asnumpy()[0]),
            I2 if in_axes[1] is not None else ms.Tensor(I2.asnumpy()[0]),
            J1 if in_axes[2] is not None else ms.Tensor(J1.asnumpy()[0])]
    # a batch axis other than the first: move it there in the inputs
    args = [a if ax in (None, 0) else ms.Tensor(np.moveaxis(a.asnumpy(), 0, ax))
            for a, ax in zip(args, in_axes)]
    want = loop_over(f, args, in_axes)
    np.testing.assert_array_equal(ops.vmap(f, in_axes)(*args).asnumpy(), want)
    # per-example gradients (the transpose, index_add, batched the same ways) ...
    loss = lambda x, i, j: ops.reduce_sum(f(x, i, j) ** 2)  # noqa: E731
    per = loop_over(ops.grad(loss), args, in_axes)
    np.testing.assert_allclose(ops.vmap(ops.grad(loss), in_axes)(*args).asnumpy(), per,
                               rtol=1e-12)
    # ... and the gradient of the summed batch loss
    want_total = per.sum(0) if in_axes[0] is None else np.moveaxis(per, 0, in_axes[0])
    total = lambda x: ops.reduce_sum(ops.vmap(loss, in_axes)(x, *args[1:]))  # noqa: E731
    np.testing.assert_allclose(ops.grad(total)(args[0]).asnumpy(), want_total, rtol=1e-12)


def test_per_example_gradients_of_gathered_rows():
    ids = ms.Tensor(np.array([[0, 2], [3, 3], [1, 0]], np.int32))
    v = T(RNG.standard_normal((3, 2, 3)))
    loss = lambda tab, i, t: ops.reduce_sum(ops.tanh(ops.gather(tab, i, 0)) * t)  # noqa: E731
    got = ops.vmap(ops.grad(loss), in_axes=(None, 0, 0))(TAB, ids, v).asnumpy()
    want = np.zeros((3, 4, 3))
    for b in range(3):  # d/dtab: (1 - tanh^2) * t added into each gathered row
        for k, row in enumerate(ids.asnumpy()[b]):
            want[b, row] += (1 - np.tanh(TAB.asnumpy()[row]) ** 2) * v.asnumpy()[b, k]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    np.testing.assert_allclose(got, loop_over(ops.grad(loss), [TAB, ids, v], (None, 0, 0)),
                               rtol=1e-12)


def test_vmap_over_embedding():
    emb = nn.Embedding(5, 3)
    ids = ms.Tensor(np.array([[4, 0], [1, 1], [2, 3]], np.int32))
    table = emb.embedding_table.asnumpy()
    np.testing.assert_array_equal(ops.vmap(emb)(ids).asnumpy(), table[ids.asnumpy()])
    # per-example gradients with respect to the table
    grads = ops.vmap(lambda i: ops.grad(lambda: ops.reduce_sum(emb(i) ** 2), None,
                                        emb.trainable_params())()[0])(ids).asnumpy()
    for b, row_ids in enumerate(ids.asnumpy()):
        want = np.zeros_like(table)
        np.add.at(want, row_ids, 2 * table[row_ids])
        np.testing.assert_allclose(grads[b], want, rtol=1e-6)


def test_batched_index_in_graph_mode():
    f = ms.jit(ops.vmap(lambda x, i: x[:, i] * 2.0))
    i = ms.Tensor(np.array([[4, 0], [1, 1], [2, 3]]))
    x = T(RNG.standard_normal((3, 2, 5)))
    want = np.stack([x.asnumpy()[b][:, i.asnumpy()[b]] * 2.0 for b in range(3)])
    np.testing.assert_array_equal(f(x, i).asnumpy(), want)
    np.testing.assert_array_equal(f(x, i).asnumpy(), want)


def test_batched_mask_index():
    ragged = T([[1.0, -1.0, 2.0], [-3.0, -4.0, 5.0]])
    with pytest.raises(ValueError, match=r"For 'vmap', .* shape \[2\] for example 0 but \[1\] "
                                         r"for example 1.*boolean-mask index inside vmap.*"
                                         r"ops\.select or ops\.masked_fill"):
        ops.vmap(lambda a: a[a > 0])(ragged)
    # the same number of elements in every example can be stacked
    x = T([[1.0, -1.0, 2.0], [-3.0, 4.0, 5.0]])
    np.testing.assert_array_equal(ops.vmap(lambda a: a[a > 0])(x).asnumpy(),
                                  [[1.0, 2.0], [4.0, 5.0]])


# --- axes and state errors --------------------------------------------------------------------
def test_scalar_input_cannot_be_mapped():
    with pytest.raises(ValueError, match=r"For 'vmap', in_axes 0 cannot map an input of shape "
                                         r"\[\] \(rank 0\)"):
        ops.vmap(lambda a: a * 2)(ms.Tensor(1.0))
    # unmapped, a scalar is fine
    got = ops.vmap(lambda a, s: a * s, in_axes=(0, None))(T([1.0, 2.0]), ms.Tensor(3.0))
    np.testing.assert_array_equal(got.asnumpy(), [3.0, 6.0])


def test_axes_out_of_range():
    x = T(np.arange(12.0).reshape(4, 3))
    with pytest.raises(ValueError, match=r"out_axes 3 is out of range for a mapped output of "
                                         r"shape \[4, 3\] \(rank 2\): it must be in \[-2, 2\)"):
        ops.vmap(lambda a: a, 0, 3)(x)
    with pytest.raises(ValueError, match=r"out_axes -3 is out of range"):
        ops.vmap(lambda a: a, 0, -3)(x)
    with pytest.raises(ValueError, match=r"in_axes 2 is out of range for an input of shape "
                                         r"\[4, 3\] \(rank 2\): it must be in \[-2, 2\)"):
        ops.vmap(lambda a: a, 2)(x)
    with pytest.raises(ValueError, match=r"in_axes -3 is out of range"):
        ops.vmap(lambda a: a, -3)(x)
    # negative axes in range count from the end
    np.testing.assert_array_equal(ops.vmap(lambda a: a * 1.0, -1, -1)(x).asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(ops.vmap(lambda a: a[0], -1, -1)(x).asnumpy(), x.asnumpy()[0])
    np.testing.assert_array_equal(ops.vmap(lambda a: a, -2, -1)(x).asnumpy(), x.asnumpy().T)


def test_batchnorm_inside_vmap():
    xs = ms.Tensor(RNG.standard_normal((4, 5, 3)).astype(np.float32))
    bn = nn.BatchNorm1d(3)
    bn.set_train(True)
    with pytest.raises(ValueError, match=r"Parameter 'moving_mean' cannot be updated with a "
                                         r"per-example value inside vmap"):
        ops.vmap(bn)(xs)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), np.zeros(3))  # left untouched
    # in inference mode the running statistics are only read
    bn.moving_mean.set_data(ms.Tensor(np.array([0.5, -1.0, 2.0], np.float32)))
    bn.set_train(False)
    np.testing.assert_allclose(ops.vmap(bn)(xs).asnumpy(), loop_over(bn, [xs], (0,)), rtol=1e-6)


def test_vmap_over_a_cell_list_ensembles_models() -> None:
    ms.set_seed(1)
    cells = nn.CellList([nn.Dense(3, 2), nn.Dense(3, 2)])
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
    out = ops.vmap(cells, in_axes=None)(x)
    assert out.shape == (2, 4, 2)
    for i, cell in enumerate(cells):
        np.testing.assert_allclose(out.asnumpy()[i], cell(x).asnumpy(), rtol=1e-6)
    xs = ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 4, 3))
    out = ops.vmap(cells, in_axes=0, out_axes=1)(xs)
    assert out.shape == (4, 2, 2)
    np.testing.assert_allclose(out.asnumpy()[:, 1], cells[1](xs[1]).asnumpy(), rtol=1e-6)
    # differentiable, like any composition of the cells
    g = ops.grad(lambda v: ops.vmap(cells, in_axes=None)(v).sum())(x)
    want = sum(c.weight.asnumpy().sum(axis=0) for c in cells)
    np.testing.assert_allclose(g.asnumpy(), np.broadcast_to(want, (4, 3)), rtol=1e-6)
    with pytest.raises(RuntimeError, match="CellList of 2 cells"):
        ops.vmap(cells, in_axes=0)(ms.Tensor(np.ones((3, 4, 3), np.float32)))


def test_vmap_axis_errors_are_runtime_errors_as_in_mindspore() -> None:
    x = ms.Tensor(np.ones((4, 3), np.float32))
    f = lambda a: a * 2  # noqa: E731
    for kwargs in ({"in_axes": 5}, {"in_axes": (0, 1)}, {"in_axes": "x"}, {"in_axes": -5},
                   {"out_axes": 5}, {"out_axes": "x"}, {"out_axes": (0, 1)}):
        with pytest.raises(RuntimeError, match="For 'vmap'"):
            ops.vmap(f, **kwargs)(x)
    with pytest.raises(ValueError):  # also the Python type for a bad value
        ops.vmap(f, in_axes=5)(x)
    with pytest.raises(TypeError):
        ops.vmap(f, out_axes="x")(x)


def test_jvp_vjp_cells_refuse_a_v_of_the_wrong_structure() -> None:
    class TwoOut(nn.Cell):
        def construct(self, a):
            return a * 2, a * 3

    x = ms.Tensor(np.ones(2, np.float32))
    with pytest.raises(TypeError, match="For 'Jvp', v must hold one tangent per input"):
        nn.Jvp(TwoOut())(x, (x, x))
    with pytest.raises(TypeError, match="For 'Vjp', v must match the network's output"):
        nn.Vjp(TwoOut())(x, x)
    out, g = nn.Vjp(TwoOut())(x, (x, x))
    np.testing.assert_array_equal(g.asnumpy(), [5.0, 5.0])


def test_linalg_and_einsum_batch_rules_run_once_for_the_batch(monkeypatch):
    """inverse, det, cholesky, solve and einsum have real batch rules (no per-example loop),
    with the mapped axis anywhere and either operand unmapped."""
    import mindgrad.ad.batching as batching

    looped = []
    real_loop = batching.per_example
    monkeypatch.setattr(batching, "per_example", lambda prim, *a, **k: (
        looped.append(prim.name), real_loop(prim, *a, **k))[1])
    rng = np.random.default_rng(0)
    a = rng.standard_normal((5, 3, 3))
    a = a @ a.transpose(0, 2, 1) + 3 * np.eye(3)
    b = rng.standard_normal((5, 3, 2))
    at, bt = ms.Tensor(a), ms.Tensor(b)
    cases = [
        (ops.inverse, [at], 0, np.linalg.inv(a)),
        (ops.det, [at], 0, np.linalg.det(a)),
        (ops.cholesky, [at], 0, np.linalg.cholesky(a)),
        (ops.solve, [at, bt], 0, np.linalg.solve(a, b)),
        (ops.solve, [at, ms.Tensor(b[0])], (0, None), np.linalg.solve(a, b[0])),
        (ops.solve, [ms.Tensor(a[0]), bt], (None, 0), np.linalg.solve(a[0], b)),
        (lambda x, y: ops.einsum("ij,jk->ik", x, y), [at, bt], 0,
         np.einsum("bij,bjk->bik", a, b)),
        (lambda x, y: ops.einsum("ij,jk->ki", x, y), [ms.Tensor(a.transpose(1, 2, 0)),
                                                      ms.Tensor(b[0])], (2, None),
         np.einsum("bij,jk->bki", a, b[0])),
        (lambda x: ops.einsum("...ii->...", x), [at], 0, np.einsum("bii->b", a)),
    ]
    for fn, args, axes, want in cases:
        np.testing.assert_allclose(ops.vmap(fn, in_axes=axes)(*args).asnumpy(), want,
                                   rtol=1e-12, atol=1e-12)
    # per-example gradients through the inverse
    g = ops.vmap(ops.grad(lambda m: ops.reduce_sum(ops.inverse(m))))(at).asnumpy()
    inv_t = np.linalg.inv(a).transpose(0, 2, 1)
    np.testing.assert_allclose(g, -inv_t @ np.ones((5, 3, 3)) @ inv_t, rtol=1e-10, atol=1e-12)
    assert looped == []


def test_pad_batch_rule(monkeypatch):
    """ops.pad under vmap pads each example (mapped axis anywhere), once for the batch."""
    import mindgrad.ad.batching as batching

    looped = []
    real_loop = batching.per_example
    monkeypatch.setattr(batching, "per_example",
                        lambda prim, *a, **k: (looped.append(prim.name), real_loop(prim, *a, **k))[1])
    x = np.arange(24.0).reshape(2, 3, 4)
    f = lambda v: ops.pad(v, (2, 1, 1, 0), value=-1.0)  # noqa: E731
    want = np.stack([np.pad(x[:, i], ((1, 0), (2, 1)), constant_values=-1.0) for i in range(3)])
    np.testing.assert_array_equal(ops.vmap(f, in_axes=1)(ms.Tensor(x)).asnumpy(), want)
    g = ops.vmap(ops.grad(lambda v: ops.reduce_sum(f(v) ** 2)), in_axes=1)(ms.Tensor(x))
    # (a GPU may round the slope of v**2 by an ulp)
    np.testing.assert_allclose(g.asnumpy(), 2 * x.transpose(1, 0, 2), rtol=1e-15, atol=0)
    assert looped == []


def test_tensor_of_a_mapped_value_keeps_each_example() -> None:
    """Tensor(r) inside vmap is r's value per example (cut from gradients, as an eager copy
    is); it used to repeat one example's value for the whole batch."""
    x = ms.Tensor(np.arange(6.0).reshape(3, 2))
    want = 2 * np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(ops.vmap(lambda r: ms.Tensor(r) * 2)(x).asnumpy(), want)
    np.testing.assert_array_equal(
        ms.jit(lambda v: ops.vmap(lambda r: ms.Tensor(r) * 2)(v))(x).asnumpy(), want)
    assert ops.vmap(lambda r: ms.Tensor(r, ms.float32))(x).dtype == ms.float32
    # no gradient through the copy, as in eager mode
    g = ops.grad(lambda v: (ms.Tensor(v) * v).sum())(ms.Tensor(np.array([1.0, 2.0])))
    np.testing.assert_array_equal(g.asnumpy(), [1.0, 2.0])


def test_index_tuple_batch_rules_match_loop(monkeypatch):
    """gather_nd, scatter_nd, tensor_scatter_add / _update (repeated tuples: sums, and the
    last write wins) and one_hot with per-example index tuples, the mapped axis anywhere and
    either operand shared: their batch rules, not a loop, against one call per example."""
    import mindgrad.ad.batching as batching

    looped = []
    real_loop = batching.per_example
    monkeypatch.setattr(batching, "per_example", lambda prim, *a, **k: (
        looped.append(prim.name), real_loop(prim, *a, **k))[1])
    rng = np.random.default_rng(1)
    x = T(rng.standard_normal((4, 3, 5)))                      # 4 examples of (3, 5)
    idx = ms.Tensor(rng.integers(0, 3, (4, 6, 2)) % np.array([3, 5]))  # repeats among 6
    rows = ms.Tensor(rng.integers(0, 3, (4, 2, 1)))
    u = T(rng.standard_normal((4, 6)))
    ur = T(rng.standard_normal((4, 2, 5)))
    cases = [
        (ops.gather_nd, [x, idx], (0, 0)),
        (ops.gather_nd, [x, idx[0]], (0, None)),
        (ops.gather_nd, [x[0], idx], (None, 0)),
        (ops.gather_nd, [ms.Tensor(np.moveaxis(x.asnumpy(), 0, 2)), rows], (2, 0)),
        (lambda i, v: ops.scatter_nd(i, v, (3, 5)), [idx, u], (0, 0)),
        (lambda i, v: ops.scatter_nd(i, v, (3, 5)), [idx[0], u], (None, 0)),
        (lambda i, v: ops.scatter_nd(i, v, (3, 5)), [idx, u[0]], (0, None)),
        (lambda i, v: ops.scatter_nd(i, v, (3, 5)), [rows[0], ur], (None, 0)),
        (ops.tensor_scatter_add, [x, idx, u], (0, 0, 0)),
        (ops.tensor_scatter_add, [x[0], idx, u], (None, 0, 0)),
        (ops.tensor_scatter_add, [x, rows[0], ur], (0, None, 0)),
        (ops.tensor_scatter_update, [x, idx, u], (0, 0, 0)),
        (ops.tensor_scatter_update, [x, idx[0], u[0]], (0, None, None)),
        (ops.tensor_scatter_update, [x[0], rows, ur[0]], (None, 0, None)),
        (lambda i: ops.one_hot(i, 3, T(1.0), T(0.0)), [rows], (0,)),
        (lambda i: ops.one_hot(i, 3, T(1.0), T(0.0), axis=0), [ms.Tensor(
            np.moveaxis(idx.asnumpy(), 0, 1))], (1,)),
    ]
    for fn, args, axes in cases:
        got = ops.vmap(fn, in_axes=axes)(*args).asnumpy()
        np.testing.assert_allclose(got, loop_over(fn, args, axes), rtol=1e-12, atol=1e-12)
    # per-example gradients through the update's winners and the gathers
    loss = ops.grad(lambda a, v, i: (ops.tensor_scatter_update(a, i, v) ** 2).sum(), (0, 1))
    got = ops.vmap(loss, in_axes=(0, 0, 0))(x, u, idx)
    for b in range(4):
        want = loss(x[b], u[b], idx[b])
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.asnumpy()[b], w.asnumpy(), rtol=1e-12)
    assert looped == []


def test_setitem_with_per_example_repeated_indices_matches_loop(monkeypatch):
    """x[i] = v with a per-example integer index that repeats (the last write wins) under
    vmap, its value and per-example gradients (the winners of each example's writes, found
    by a batch rule), against one call per example."""
    import mindgrad.ad.batching as batching

    looped = []
    real_loop = batching.per_example
    monkeypatch.setattr(batching, "per_example", lambda prim, *a, **k: (
        looped.append(prim.name), real_loop(prim, *a, **k))[1])
    rng = np.random.default_rng(2)
    xs, vs = T(rng.standard_normal((4, 5, 3))), T(rng.standard_normal((4, 6, 3)))
    idx = ms.Tensor(rng.integers(0, 5, (4, 6)))  # six writes into five rows: repeats
    w = T(rng.standard_normal((5, 3)))

    def f(x, v, i):
        x = x + 0.0 * v.sum()  # computed from the traced inputs (an assignable value)
        x[i] = v * v
        return x

    loss = ops.grad(lambda x, v, i: (f(x, v, i) * w).sum(), (0, 1))
    for fn in (f, lambda x, v, i: loss(x, v, i)[1], lambda x, v, i: loss(x, v, i)[0]):
        for axes in ((0, 0, 0), (None, 0, 0), (0, None, 0)):
            args = [xs[0] if axes[0] is None else xs, vs[0] if axes[1] is None else vs, idx]
            got = ops.vmap(fn, in_axes=axes)(*args).asnumpy()
            np.testing.assert_allclose(got, loop_over(fn, args, axes), rtol=1e-12, atol=1e-12)
    assert looped == []


def test_number_outputs_repeated_along_their_out_axis():
    """MindSpore 2.10: a Python number returned by the mapped function becomes a Tensor of
    the batch size (int: Int64, float: Float32) unless its out axis is None."""
    def f(x):
        return 1, 2.5, x * 2, 3

    a, b, c, d = ops.vmap(f, 0, (0, 0, 0, None))(ms.Tensor([1.0, 2.0, 3.0]))
    assert a.dtype == ms.int64 and b.dtype == ms.float32
    np.testing.assert_array_equal(a.asnumpy(), [1, 1, 1])
    np.testing.assert_array_equal(b.asnumpy(), [2.5, 2.5, 2.5])
    np.testing.assert_array_equal(c.asnumpy(), [2.0, 4.0, 6.0])
    assert d == 3
