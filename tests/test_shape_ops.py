"""Shape, indexing and matrix-product paths added for speed, checked like every primitive:
the split / stack / unstack primitives (each the transpose of concat, unstack, stack), the
view transpose of getitems that keep every element (flips, added and removed axes), the
transpose of one-axis integer indexing (the scatters' float64 sums), and the matmul fast
paths (inner dimension 1, broadcast operands). Each is checked against NumPy, against central
differences to third order (forward and reverse, mixed), in GRAPH mode, under vmap and in
Taylor mode."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops
from mindgrad.core.tree import flatten
from mindgrad.prims import getitem as G
from mindgrad.prims import matmul as L
from mindgrad.prims import getitem as G
from mindgrad.prims import structural as S

from gradcheck import check_graph_matches, check_grads

T = ms.Tensor
RNG = np.random.default_rng(7)
REP = np.array([3, 0, 3, -1, 2, 0, 5])          # repeated and negative indices
UNIQUE = np.array([4, 1, 0, 5, 2])              # no repeats: the plain-assignment path
REP2 = np.array([[1, 0, 1], [2, 2, 0]])         # a 2-D index (an embedding lookup)


def N(*shapes):
    return lambda rng: [rng.standard_normal(s) for s in shapes]


def _split_mix(x):
    a, b, c = ops.split(x, [2, 3, 1], 1)
    return ops.sin(a) * b[:, :2] + c * ops.exp(b[:, 2:])


def _unstack_mix(x):
    a, b, c = ops.unstack(x, 1)
    return ops.stack((a * b, ops.sin(c), a), -1)


ROWS = [
    # (name, fn, numpy reference, inputs)
    ("split_sum", lambda x: sum(ops.split(x, 2, 1)[1:], ops.split(x, 2, 1)[0]),
     lambda x: x[:, 0:2] + x[:, 2:4] + x[:, 4:6], N((3, 6))),
    ("split_partial_use", lambda x: ops.split(x, [1, 4, 1], 0)[1] ** 2,
     lambda x: x[1:5] ** 2, N((6, 2))),
    ("split_mix", _split_mix,
     lambda x: np.sin(x[:, :2]) * x[:, 2:4] + x[:, 5:6] * np.exp(x[:, 4:5]), N((2, 6))),
    ("stack_axis1", lambda x, y: ops.stack((x, y * x, y), 1),
     lambda x, y: np.stack((x, y * x, y), 1), N((2, 3), (2, 3))),
    ("stack_with_constant", lambda x: ops.stack((x, T(np.ones((2, 3)))), -1),
     lambda x: np.stack((x, np.ones((2, 3))), -1), N((2, 3))),
    ("unstack", lambda x: ops.unstack(x, 1), lambda x: tuple(np.moveaxis(x, 1, 0)), N((2, 3, 2))),
    ("unstack_mix", _unstack_mix,
     lambda x: np.stack((x[:, 0] * x[:, 1], np.sin(x[:, 2]), x[:, 0]), -1), N((2, 3))),
    ("flip_view", lambda x: ops.flip(x, (0, 2)) * x, lambda x: x[::-1, :, ::-1] * x,
     N((2, 3, 2))),
    ("getitem_none_ellipsis_flip", lambda x: x[None, ..., ::-1] ** 2,
     lambda x: x[None, ..., ::-1] ** 2, N((2, 3))),
    ("getitem_int_on_size1", lambda x: ops.sin(x[0, ..., 0]), lambda x: np.sin(x[0, ..., 0]),
     N((1, 3, 1))),
    ("gather_rows_repeated", lambda x: ops.gather(x, T(REP), 0) ** 2, lambda x: x[REP] ** 2,
     N((6, 9))),
    ("gather_rows_unique", lambda x: ops.gather(x, T(UNIQUE), 0) * 3,
     lambda x: x[UNIQUE] * 3, N((6, 8))),
    ("gather_2d_index", lambda x: ops.sin(ops.gather(x, T(REP2), 0)),
     lambda x: np.sin(x[REP2]), N((3, 8))),
    ("getitem_columns_repeated", lambda x: x[:, T(REP)] ** 2, lambda x: x[:, REP] ** 2,
     N((9, 6))),
    ("getitem_middle_axis", lambda x: x[:, T(REP), ...] * x[:, T(REP)],
     lambda x: x[:, REP] * x[:, REP], N((2, 6, 4))),
    ("getitem_last_axis", lambda x: x[..., T(REP)] ** 2, lambda x: x[..., REP] ** 2,
     N((3, 3, 6))),
    ("getitem_ellipsis_after", lambda x: x[T(REP2), ...] * 2, lambda x: x[REP2, ...] * 2,
     N((3, 2, 4))),
    ("index_select_wide", lambda x: ops.index_select(x, 1, T(UNIQUE)) ** 2,
     lambda x: x[:, UNIQUE] ** 2, N((8, 6, 2))),
    ("outer", lambda x, y: ops.outer(x, y) ** 2, lambda x, y: np.outer(x, y) ** 2, N((4,), (3,))),
    ("dot_matrix_vector", lambda a, v: ops.dot(a, v) ** 2, lambda a, v: (a @ v) ** 2,
     N((3, 4), (4,))),
    ("matmul_inner_1", lambda a, b: ops.matmul(a, b) * a, lambda a, b: (a @ b) * a,
     N((2, 3, 1), (1, 1))),
    ("matmul_inner_1_batched", lambda a, b: ops.matmul(a, b), np.matmul, N((2, 3, 1), (1, 4))),
    ("matmul_transposes_inner_1", lambda a, b: ops.matmul(a, b, True, True),
     lambda a, b: a.T @ b.T, N((1, 3), (4, 1))),
    ("matmul_of_sum_cotangent", lambda a, b: ops.matmul(ops.broadcast_to(a, (3, 4)), b),
     lambda a, b: np.broadcast_to(a, (3, 4)) @ b, N((1, 4), (4, 2))),
]
IDS = [r[0] for r in ROWS]


def _inputs(row, dtype=np.float64):
    return [np.asarray(a, dtype) for a in row[3](np.random.default_rng(0))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_forward_matches_numpy(row, dtype):
    arrays = _inputs(row, dtype)
    got = flatten(row[1](*[T(a) for a in arrays]))[0]
    want = row[2](*arrays)
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape == w.shape and g.asnumpy().dtype == w.dtype
        np.testing.assert_allclose(g.asnumpy(), w, rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_derivatives_against_finite_differences(row):
    check_grads(row[1], [T(a) for a in _inputs(row)], order=3)


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_graph_matches_pynative(row):
    check_graph_matches(row[1], [T(a) for a in _inputs(row)], order=2)


# --- vmap against a loop ---------------------------------------------------------------------
VMAP = [
    ("split", lambda v: ops.split(v, [1, 2], 0)[1] * ops.split(v, [1, 2], 0)[0], (4, 3)),
    ("stack", lambda v: ops.stack((v, v * v, T(np.ones(3)))), (4, 3)),
    ("unstack", lambda m: ops.unstack(m, 1)[0] - ops.unstack(m, 1)[2], (4, 2, 3)),
    ("flip", lambda m: ops.flip(m, (1,)) * m, (4, 2, 3)),
    ("gather_wide", lambda m: ops.gather(m, T(REP % 4), 0), (3, 4, 8)),
    ("outer", lambda v: ops.outer(v, v), (4, 3)),
]


@pytest.mark.parametrize("name,f,shape", VMAP, ids=[v[0] for v in VMAP])
def test_vmap_matches_loop(name, f, shape):
    xs = RNG.standard_normal(shape)
    got = ops.vmap(f)(T(xs)).asnumpy()
    want = np.stack([f(T(x)).asnumpy() for x in xs])
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("name,f,shape", VMAP, ids=[v[0] for v in VMAP])
def test_vmap_of_grad_matches_loop(name, f, shape):
    xs = RNG.standard_normal(shape)
    g = ops.grad(lambda x: (f(x) ** 2).sum())
    got = ops.vmap(g)(T(xs)).asnumpy()
    want = np.stack([g(T(x)).asnumpy() for x in xs])
    np.testing.assert_allclose(got, want, rtol=1e-10)


# --- Taylor mode against nested forward mode -----------------------------------------------
def _directional(f, x, u, k):
    """The k-th derivative of t -> f(x + t u) at 0, by nesting jvp."""
    g = f
    for _ in range(k):
        g = (lambda h: lambda y: ops.jvp(h, (y,), (u,))[1])(g)
    return g(x)


@pytest.mark.parametrize("name", ["split_mix", "unstack_mix", "gather_rows_repeated",
                                  "stack_axis1", "outer"])
def test_jet_matches_nested_jvp(name):
    row = ROWS[IDS.index(name)]
    arrays = _inputs(row)
    x = T(arrays[0])
    others = [T(a) for a in arrays[1:]]
    f = lambda y: ops.sin(row[1](y, *others))  # noqa: E731
    u = T(RNG.standard_normal(x.shape))
    order = 3
    series = ops.stack([u] + [T(np.zeros(x.shape))] * (order - 1))
    out, s = ops.jet(f, x, series)
    np.testing.assert_allclose(out.asnumpy(), f(x).asnumpy(), rtol=1e-12)
    for k in range(1, order + 1):
        np.testing.assert_allclose(s.asnumpy()[k - 1], _directional(f, x, u, k).asnumpy(),
                                   rtol=1e-9, atol=1e-11, err_msg=f"order {k}")


# --- the fast paths themselves --------------------------------------------------------------
@pytest.mark.parametrize("shape,axis,idx", [
    ((6, 9), 0, REP), ((9, 6), 1, REP), ((2, 6, 4), 1, REP2 * 2), ((6, 16), 0, UNIQUE),
    ((4, 3), 0, np.array(2)), ((4, 10), 0, np.zeros(0, int)), ((30,), 0, REP * 4),
    ((3, 7, 5), 2, np.array([4, -5, 4, 4])),
])
@pytest.mark.parametrize("ellipsis", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_take_transpose_equals_add_at(shape, axis, idx, dtype, ellipsis):
    out_shape = shape[:axis] + idx.shape + shape[axis + 1:]
    g = (RNG.standard_normal(out_shape) * 10).astype(dtype)
    index = (slice(None),) * axis + (G.ArraySlot(0),)
    if ellipsis:  # the same index written with '...' before the array
        index = (Ellipsis, G.ArraySlot(0)) + (slice(None),) * (len(shape) - axis - 1)
    assert G._take_axis(index, (idx,), len(shape))[0] == axis
    got = G.index_add(T(g), T(idx), index=index, shape=shape).asnumpy()
    want = np.zeros(shape, dtype)
    np.add.at(want, (slice(None),) * axis + (idx,), g)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-5)


TAKES = {
    "getitem": lambda x, i: x[i],
    "gather": lambda x, i: ops.gather(x, i, 0),
    "index_select": lambda x, i: ops.index_select(x, 0, i),
    "getitem_columns": lambda x, i: ops.transpose(x[:, i], (1, 0)),  # x holds columns
}


TAKE_CASES = [(t, 0) for t in list(TAKES)[:3]] + [(t, 3) for t in TAKES]  # columns: rows only


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("take,cols", TAKE_CASES,
                         ids=[f"{t}_{'rows' if c else 'elements'}" for t, c in TAKE_CASES])
def test_take_gradients_sum_repeats_without_losing_digits(dtype, take, cols):
    """The gradients of integer-array indexing, gather and index_select sum repeated
    indices in float64 and round once, as the scatters do: float16 ones stopped counting
    at 2048, and 2**20 tenths summed in float32 drift by about 1%."""
    count = 2 ** 20 if dtype == np.float32 else 5000
    idx = T(np.r_[np.full(count, 1), 2].astype(np.int32))  # index 1, count times; 2 once
    shape = (4, cols) if cols else (4,)
    tenths = np.full((count + 1,) + shape[1:], 0.1, dtype)
    want = np.zeros(shape, dtype)
    want[1] = dtype(tenths[:count].astype(np.float64).sum(0)[()])
    want[2] = tenths[count]
    x = T(np.zeros(shape[::-1] if take == "getitem_columns" else shape, dtype))

    def grad(weights):
        g = ops.grad(lambda a: (TAKES[take](a, idx) * T(weights)).sum())(x).asnumpy()
        assert g.dtype == dtype
        return g.T if take == "getitem_columns" else g

    ones = grad(np.ones_like(tenths))
    assert (ones[1] == count).all() and (ones[2] == 1).all() and (ones[[0, 3]] == 0).all()
    np.testing.assert_array_equal(grad(tenths), want)


def test_bijective_getitem_transposes_without_index_add(monkeypatch):
    calls = []
    impl = G.index_add.impl
    monkeypatch.setattr(G.index_add, "impl", lambda *a, **k: calls.append(1) or impl(*a, **k))
    x = T(RNG.standard_normal((1, 3, 4)))
    for index in ((slice(None), slice(None, None, -1), slice(None, None, -1)),
                  (0, None, Ellipsis, slice(None, None, -1)), (Ellipsis, None, slice(None))):
        v = RNG.standard_normal(x.asnumpy()[index].shape)
        want = np.zeros(x.shape)
        want[index] = v
        f = ops.grad(lambda x: (x[index] * T(v)).sum())
        np.testing.assert_array_equal(f(x).asnumpy(), want)
        np.testing.assert_array_equal(ms.jit(f)(x).asnumpy(), want)
    assert not calls
    ops.grad(lambda x: x[:, 1:].sum())(x)  # a real selection: the zero-filled transpose
    assert calls


@pytest.mark.parametrize("sa,sb,ta,tb", [
    ((5, 1), (1, 4), False, False), ((2, 5, 1), (1, 4), False, False),
    ((1, 5), (1, 4), True, False), ((5, 1), (4, 1), False, True), ((3, 1, 5), (2, 1, 4, 1), True, True),
])
def test_matmul_inner_dimension_one_equals_numpy(sa, sb, ta, tb):
    a, b = RNG.standard_normal(sa), RNG.standard_normal(sb)
    want = np.matmul(np.swapaxes(a, -1, -2) if ta else a, np.swapaxes(b, -1, -2) if tb else b)
    got = L._matmul_impl(a, b, transpose_a=ta, transpose_b=tb)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12)
    with pytest.raises(ValueError, match="MatMul"):
        L._matmul_impl(np.ones((2, 3, 1)), np.ones((4, 1, 5)))


def test_matmul_copies_only_operands_blas_cannot_read():
    a = np.ones((4, 3), np.float32)
    t = a.T
    assert L._blas_ready(a) is a and L._blas_ready(t) is t  # BLAS reads transposes in place
    np.testing.assert_array_equal(L._blas_ready(a[:, ::2]), a[:, ::2])
    bc = np.broadcast_to(np.float32(1), (4, 3))
    fixed = L._blas_ready(bc)
    assert fixed.flags.c_contiguous and np.array_equal(fixed, bc)
    ints = np.broadcast_to(np.int64(1), (4, 3))
    assert L._blas_ready(ints) is ints  # no BLAS for integers: nothing to gain
    np.testing.assert_allclose(L._matmul_impl(bc, np.ones((3, 2), np.float32)), np.full((4, 2), 3))


def test_split_stack_unstack_edges_and_errors():
    x = T(np.arange(6.0).reshape(2, 3))
    # an empty axis is one empty chunk, as in MindSpore
    assert [p.shape for p in ops.split(T(np.zeros((0, 2))), 2, 0)] == [(0, 2)]
    assert ops.unstack(T(np.zeros((2, 0))), 1) == ()
    parts = ops.unstack(x)
    assert len(parts) == 2 and parts[1].shape == (3,)
    np.testing.assert_array_equal(ops.stack(parts).asnumpy(), x.asnumpy())
    with pytest.raises(ValueError, match="unstack"):
        ops.unstack(T(1.0))
    with pytest.raises(ValueError, match="'unstack'.*axis"):
        ops.unstack(x, 2)
    with pytest.raises(ValueError, match="'split'"):
        ops.split(x, [4, -1], 1)
    # a split piece nobody uses still gets a (zero) gradient slot, in both modes
    f = lambda x: ops.split(x, [1, 2], 1)[0].sum()  # noqa: E731
    want = [[1, 0, 0], [1, 0, 0]]
    np.testing.assert_array_equal(ops.grad(f)(x).asnumpy(), want)
    np.testing.assert_array_equal(ms.jit(ops.grad(f))(x).asnumpy(), want)


@pytest.mark.parametrize("x,shape", [
    (np.array(2.0, np.float32), (3, 4)),
    (np.broadcast_to(np.float64(3), (4,)), (2, 3, 4)),   # a broadcast of a broadcast
    (np.broadcast_to(np.float64(3), (1, 4)), (5, 4)),
    (np.arange(4.0), (2, 4)),
    (np.arange(6.0).reshape(2, 1, 3), (4, 2, 5, 3)),     # contiguous: stretched and new axes
    (np.arange(6.0).reshape(2, 3)[:, ::-1], (2, 2, 3)),  # negative strides: NumPy's path
    (np.float32(1.5), (2, 0)),
    (np.array(True), (3,)),
])
def test_broadcast_views_match_numpy(x, shape) -> None:
    from mindgrad.prims.structural import _broadcast_impl

    got, want = _broadcast_impl(x, shape), np.broadcast_to(x, shape)
    assert got.shape == want.shape and got.dtype == want.dtype and got.strides == want.strides
    np.testing.assert_array_equal(got, want)
    assert not got.flags.writeable  # a view of one cell: never written through


def test_broadcast_error_names_the_shapes() -> None:
    from mindgrad.prims.structural import _broadcast_impl

    with pytest.raises(ValueError, match=r"input shape \[4\] can not be broadcast to \[3\]"):
        _broadcast_impl(np.broadcast_to(np.float64(3), (4,)), (3,))
    for x in (np.ones(3), np.float32(1)):  # a negative size is named too, on every path
        with pytest.raises(ValueError, match=r"can not be broadcast to \[-1, 3\]"):
            _broadcast_impl(x, (-1, 3))
