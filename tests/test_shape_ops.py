"""The shape, indexing and matrix-product paths added for speed, beyond the rows of the
primitive table that check them like every primitive (``tests/primitive_table.py``): the
transpose of one-axis integer indexing against ``np.add.at``, its float64 sums, the view
transpose of bijective getitems, the matmul fast paths against NumPy, and the edges and
errors of split / stack / unstack and broadcasting."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops
from mindgrad.prims import getitem as G
from mindgrad.prims import matmul as L

from primitive_table import REP, REP2, UNIQUE

T = ms.Tensor
RNG = np.random.default_rng(7)


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
