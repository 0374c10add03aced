"""Edge cases of products, indexing, scatters, convolution and pooling that the primitive
table cannot express: zeros and underflow in products, ties, repeated scatter indices, op
classes, and the error messages for bad arguments. Their values and derivatives are checked by the primitive table
(``tests/primitive_table.py``, driven by ``tests/test_primitive_table.py``).
"""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops

from conftest import real_gpu
from gradcheck import check_graph_matches, check_grads
from primitive_table import ND_IDX, NDI, UPDI

T = ms.Tensor


# --- targeted checks ---------------------------------------------------------------------------
def test_prod_gradient_with_zeros_is_product_of_others() -> None:
    x = np.array([[2.0, 0.0, 3.0, 0.5], [0.0, 0.0, 4.0, 1.0], [1.0, 2.0, 3.0, 4.0]])
    g = ops.grad(lambda t: ops.prod(t, 1).sum())(T(x)).asnumpy()
    want = np.array([[np.prod(np.delete(r, i)) for i in range(4)] for r in x])
    np.testing.assert_array_equal(g, want)
    # second derivative across two zeros: d2/dx0 dx1 prod = product of the remaining ones
    h = ops.grad(lambda t: ops.grad(lambda u: ops.prod(u, 1).sum())(t)[1, 0])(T(x)).asnumpy()
    assert h[1, 1] == 4.0 and h[1, 0] == 0.0


def test_cumprod_gradient_with_zeros() -> None:
    x = np.array([1.5, 0.0, 2.0, 0.0, 3.0])
    g = ops.grad(lambda t: ops.cumprod(t, 0).sum())(T(x)).asnumpy()
    want = [sum(np.prod(np.delete(x[:k + 1], i)) for k in range(i, 5)) for i in range(5)]
    np.testing.assert_allclose(g, want, rtol=0, atol=0)


def _linrec_loop(b, a, reverse):
    r = np.zeros_like(b)
    idx = range(b.shape[-1] - 1, -1, -1) if reverse else range(b.shape[-1])
    prev = np.zeros(b.shape[:-1])
    for k in idx:
        prev = b[..., k] + a[..., k] * prev
        r[..., k] = prev
    return r


@pytest.mark.parametrize("reverse", [False, True])
def test_linrec_algorithms_agree(reverse) -> None:
    """The recurrence's closed form (two accumulate passes) and recursive doubling (taken
    when a running product has a zero or leaves the normal range) give the same values."""
    from mindgrad.prims import products as RX

    rng = np.random.default_rng(3)
    b, a = rng.standard_normal((3, 37)), rng.uniform(0.5, 1.5, (3, 37))
    want = _linrec_loop(b, a, reverse)
    f64 = np.dtype(np.float64)
    np.testing.assert_allclose(RX._linrec_divide(np, b, a, f64, reverse), want, rtol=1e-12)
    np.testing.assert_allclose(RX._linrec_doubling(np, b, a, f64, reverse), want, rtol=1e-12)
    a[1, 20] = 0.0
    assert RX._linrec_divide(np, b, a, f64, reverse) is None
    np.testing.assert_allclose(RX._linrec_impl(b.T, a.T, 0, reverse), _linrec_loop(b, a, reverse).T,
                               rtol=1e-12)


def test_prod_gradient_when_the_product_underflows() -> None:
    """float32 product 1e-45 is not a normal number: the division-free path gives the other
    elements' product (1e-30) instead of 0 / x."""
    x = T(np.full((1, 3), 1e-15, np.float32))
    g = ops.grad(lambda t: ops.prod(t, 1).sum())(x).asnumpy()
    np.testing.assert_allclose(g, np.full((1, 3), 1e-30), rtol=1e-5)


@pytest.mark.parametrize("fn", [ops.reduce_max, ops.reduce_min, ops.amax])
def test_extreme_ties_share_gradient_evenly(fn) -> None:
    x = T(np.array([[1.0, 3.0, 3.0, 3.0], [2.0, 2.0, -1.0, 0.0]]))
    g = ops.grad(lambda t: fn(t * 2.0, 1).sum())(x).asnumpy()
    if fn is ops.reduce_min:
        np.testing.assert_allclose(g, [[2.0, 0, 0, 0], [0, 0, 2.0, 0]])
    else:
        np.testing.assert_allclose(g, [[0, 2 / 3, 2 / 3, 2 / 3], [1.0, 1.0, 0, 0]])


def test_extreme_gradient_with_nan_and_inf() -> None:
    """A NaN maximum gives its whole slice a NaN gradient and an infinite cotangent gives NaN
    off the maximum (0 * inf), as the mask formula spread(g) * (x == max) / count does; the
    forward over many rows (by position) propagates NaN like NumPy's max."""
    x = np.random.default_rng(4).standard_normal((40, 5))
    x[3, 2] = np.nan
    np.testing.assert_array_equal(ops.amax(T(x), 1).asnumpy(), x.max(1))
    np.testing.assert_array_equal(ops.amin(T(x), 1).asnumpy(), x.min(1))
    g = ops.grad(lambda t: ops.amax(t, 1).sum())(T(x)).asnumpy()
    assert np.isnan(g[3]).all() and not np.isnan(np.delete(g, 3, 0)).any()
    np.testing.assert_array_equal(np.delete(g, 3, 0).sum(1), np.ones(39))
    y = T(np.array([[1.0, 3.0, 2.0], [0.5, 0.1, 0.2]]))
    g = ops.grad(lambda t: (ops.amax(t, 1) * T(np.array([np.inf, 2.0]))).sum())(y).asnumpy()
    assert g[0, 1] == np.inf and np.isnan(g[0, [0, 2]]).all()
    np.testing.assert_array_equal(g[1], [2.0, 0.0, 0.0])


def test_prod_gradient_when_cotangent_times_product_underflows() -> None:
    """g * prod underflows although g * (product of the others) does not: the one-pass
    (g * prod) / x would give 0, the division-free path gives the value."""
    x = T(np.array([[1e-15, 1e-15, 1.0]], np.float32))
    g = ops.grad(lambda t: (ops.prod(t, 1) * 1e-20).sum())(x).asnumpy()
    np.testing.assert_allclose(g, [[1e-35, 1e-35, 0.0]], rtol=1e-5, atol=0)  # 1e-50 is 0


def test_cumprod_gradient_when_the_running_product_underflows() -> None:
    """The running products 1e-20, 1e-40 (subnormal), 0, ...: the one-pass form
    (sum_k g_k y_k) / x_i would give 0 for the third element, whose gradient is 1e-40."""
    x = np.full((1, 6), 1e-20, np.float32)
    g = ops.grad(lambda t: ops.cumprod(t, 1).sum())(T(x)).asnumpy()
    want = [sum(np.prod(np.delete(x[0].astype(np.float64)[:k + 1], i)) for k in range(i, 6))
            for i in range(6)]
    if real_gpu():  # the GPU's scan flushes the subnormal 1e-40 to 0
        np.testing.assert_allclose(g[0], np.float32(want), rtol=1e-4,
                                   atol=np.finfo(np.float32).tiny)
        return
    np.testing.assert_allclose(g[0], np.float32(want), rtol=1e-4, atol=0)
    assert g[0, 2] > 0


def _product_fns():
    c = T(np.random.default_rng(5).standard_normal((3, 4)))
    return {
        "prod": lambda u: ops.prod(u, 1),
        "prod_all": lambda u: ops.prod(u),
        "cumprod": lambda u: ops.cumprod(u, 1) * c,
        "cumprod_rev": lambda u: ops.CumProd(False, True)(u, 0) * c,
    }


@pytest.mark.parametrize("name", list(_product_fns()))
def test_product_vmap_of_derivatives_with_zeros_in_some_examples(name) -> None:
    """vmap of first and second derivatives of the products when only some examples hold
    zeros (the batch then mixes examples that the division rule serves with examples that
    need the division-free one) against one call per example. The primitive table checks
    every primitive's derivatives under vmap on examples alike in where their zeros are."""
    f = _product_fns()[name]
    xs = np.random.default_rng(6).standard_normal((4, 3, 4))
    xs[1, 0, 2] = xs[2, 1, 1] = xs[2, 1, 3] = 0.0
    d1 = ops.grad(lambda u: (f(u) ** 2).sum())
    d2 = ops.grad(lambda u: (d1(u) * ops.sin(u)).sum())
    for fn in (f, d1, d2):
        got = ops.vmap(fn)(T(xs)).asnumpy()
        want = np.stack([fn(T(x)).asnumpy() for x in xs])
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def test_tensor_scatter_update_repeated_index_last_wins() -> None:
    x, u = T(np.zeros((3, 4))), T(np.array([1.0, 2.0, 3.0]))
    out = ops.tensor_scatter_update(x, UPDI, u)
    assert out.asnumpy()[0, 1] == 3.0
    gx, gu = ops.grad(lambda a, b: (ops.tensor_scatter_update(a, UPDI, b) * 2).sum(), (0, 1))(x, u)
    np.testing.assert_array_equal(gu.asnumpy(), [0.0, 2.0, 2.0])
    assert gx.asnumpy()[0, 1] == 0 and gx.asnumpy()[2, 3] == 0 and gx.asnumpy()[1, 1] == 2


def test_index_tuples_of_length_zero_select_the_whole_input() -> None:
    """indices of shape (..., 0), as in TensorFlow and MindSpore: gather_nd gives one copy of
    x per index tuple, the scatters add (or write, the last one winning) every update to the
    whole tensor, and the gradients follow: d/dx sum(w * gather_nd(x, idx)) = sum of w."""
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    idx = T(np.zeros((3, 0), np.int32))
    u = np.arange(12.0).reshape(3, 2, 2)
    out = ops.gather_nd(T(x), idx).asnumpy()
    assert out.shape == (3, 2, 2)
    np.testing.assert_array_equal(out, [x, x, x])
    np.testing.assert_array_equal(ops.gather_nd(T(x), T(np.zeros(0, np.int64))).asnumpy(), x)
    np.testing.assert_array_equal(ops.gather_nd(T(np.float32(5.0)), idx).asnumpy(), [5, 5, 5])
    np.testing.assert_array_equal(ops.scatter_nd(idx, T(u), (2, 2)).asnumpy(),
                                  [[12.0, 15.0], [18.0, 21.0]])
    np.testing.assert_array_equal(ops.tensor_scatter_add(T(x), idx, T(u)).asnumpy(),
                                  [[13.0, 17.0], [21.0, 25.0]])
    np.testing.assert_array_equal(ops.tensor_scatter_update(T(x), idx, T(u)).asnumpy(), u[2])
    w = T(u)
    gx = ops.grad(lambda a: (ops.gather_nd(a, idx) * w).sum())(T(x))
    np.testing.assert_array_equal(gx.asnumpy(), u.sum(0))
    gx, gu = ops.grad(lambda a, b: (ops.tensor_scatter_update(a, idx, b) * T(x)).sum(),
                      (0, 1))(T(x), T(u))
    np.testing.assert_array_equal(gx.asnumpy(), np.zeros((2, 2)))
    np.testing.assert_array_equal(gu.asnumpy(), [np.zeros((2, 2)), np.zeros((2, 2)), x])
    # no index tuples at all: an empty result, and scatters that leave x as it is
    none = T(np.zeros((0, 0), np.int64))
    assert ops.gather_nd(T(x), none).shape == (0, 2, 2)
    np.testing.assert_array_equal(
        ops.tensor_scatter_add(T(x), none, T(np.zeros((0, 2, 2)))).asnumpy(), x)


def test_one_hot_values_and_no_gradient() -> None:
    idx = T(np.array([[0, 2], [3, -1]]))
    out = ops.one_hot(idx, 3, T(2.0), T(-1.0))
    want = np.where(np.array([[0, 2], [3, -1]])[..., None] == np.arange(3), 2.0, -1.0)
    np.testing.assert_array_equal(out.asnumpy(), want)
    assert out.dtype == ms.float32
    axis0 = ops.OneHot(axis=0)(idx, 3, T(1.0), T(0.0))
    np.testing.assert_array_equal(axis0.asnumpy(), np.moveaxis(np.maximum(want, 0) / 2, -1, 0))
    assert ops.one_hot(T(np.array([1])), 2).dtype == ms.int64
    g = ops.grad(lambda x: (ops.one_hot(idx, 3, T(1.0), T(0.0)) * x).sum())(T(np.ones((2, 2, 3))))
    np.testing.assert_array_equal(g.asnumpy(), np.where(want > 0, 1.0, 0.0))


def test_scatter_add_updates_parameter() -> None:
    p = ms.Parameter(T(np.zeros((3, 2), np.float32)), name="p")
    out = ops.ScatterAdd()(p, T(np.array([2, 2])), T(np.ones((2, 2), np.float32)))
    np.testing.assert_array_equal(p.asnumpy()[2], [2.0, 2.0])
    np.testing.assert_array_equal(out.asnumpy(), p.asnumpy())


def test_max_pool2d_indices_and_first_tie() -> None:
    x = np.array([[[[1.0, 5.0, 5.0, 0.0], [2.0, 5.0, 1.0, 7.0]]]])
    out, idx = ops.max_pool2d(T(x), 2, return_indices=True)
    np.testing.assert_array_equal(out.asnumpy(), [[[[5.0, 7.0]]]])
    np.testing.assert_array_equal(idx.asnumpy(), [[[[1, 7]]]])
    g = ops.grad(lambda t: ops.max_pool2d(t, 2).sum())(T(x)).asnumpy()
    assert g.sum() == 2.0 and g[0, 0, 0, 1] == 1.0 and g[0, 0, 1, 3] == 1.0


def test_max_pool2d_overlapping_windows_accumulate() -> None:
    x = np.zeros((1, 1, 3, 3))
    x[0, 0, 1, 1] = 1.0  # the centre is the maximum of all four 2x2 windows
    g = ops.grad(lambda t: ops.max_pool2d(t, 2, 1).sum())(T(x)).asnumpy()
    assert g[0, 0, 1, 1] == 4.0 and g.sum() == 4.0


def test_float32_gradients_keep_dtype() -> None:
    rng = np.random.default_rng(1)
    x = T(rng.standard_normal((1, 2, 5, 5)).astype(np.float32))
    w = T(rng.standard_normal((3, 2, 3, 3)).astype(np.float32))

    def net(x, w):
        y = ops.max_pool2d(ops.conv2d(x, w, pad_mode="same"), 2)
        return ops.avg_pool2d(ops.pad(y, (1, 1, 1, 1)), 2).prod() + ops.cumprod(y, 3).sum()

    for g in ops.grad(net, (0, 1))(x, w):
        assert g.dtype == ms.float32


@pytest.mark.parametrize("name,op", [
    ("conv2d", lambda x, w: ops.conv2d(x, w, stride=2, pad_mode="pad", padding=1, dilation=(1, 2))),
    ("conv2d_groups", lambda x, w: ops.conv2d(x, w[:, :1], groups=2)),
    ("max_pool2d", lambda x, w: ops.max_pool2d(x * w[0, 0, 0, 0], 2, 1)),
    ("avg_pool2d", lambda x, w: ops.avg_pool2d(x * w[0, 0, 0, 0], 2, 1, 1)),
])
def test_nonlinear_after_conv_and_pool(name, op) -> None:
    """Cubing the output makes the cotangent reaching each primitive depend on the inputs, so
    the higher orders run the rules of conv2d_input_grad / conv2d_weight_grad (and of the
    pooling scatters) with respect to *every* argument."""
    rng = np.random.default_rng(2)
    x, w = T(rng.standard_normal((1, 2, 4, 4))), T(rng.standard_normal((2, 2, 2, 2)))

    def f(x, w):
        y = op(x, w)
        return y * y * y

    check_grads(f, [x, w], 3)
    check_graph_matches(lambda x, w: f(x, w).sum(), [x, w], 3)


# --- clear errors --------------------------------------------------------------------------------
X4 = T(np.zeros((1, 2, 4, 4)))
W4 = T(np.zeros((3, 2, 3, 3)))
M33 = T(np.eye(3))

ERRORS = [
    ("conv2d_rank", lambda: ops.conv2d(T(np.zeros((2, 4, 4))), W4), ValueError, "4-D"),
    ("conv2d_channels", lambda: ops.conv2d(X4, T(np.zeros((3, 3, 3, 3)))), ValueError, "channels"),
    ("conv2d_dtype", lambda: ops.conv2d(X4, T(np.zeros((3, 2, 3, 3), np.float32))), TypeError,
     "same dtype"),
    ("conv2d_pad_mode", lambda: ops.conv2d(X4, W4, pad_mode="full"), ValueError, "pad_mode"),
    ("conv2d_valid_padding", lambda: ops.conv2d(X4, W4, padding=1), ValueError, "pad_mode='pad'"),
    ("conv2d_kernel_too_big", lambda: ops.conv2d(X4, T(np.zeros((1, 2, 5, 5)))), ValueError,
     "smaller than"),
    ("conv2d_bias", lambda: ops.conv2d(X4, W4, T(np.zeros(2))), ValueError, "bias"),
    ("conv2d_stride", lambda: ops.conv2d(X4, W4, stride=0), ValueError, "stride"),
    ("Conv2D_kernel", lambda: ops.Conv2D(3, 2)(X4, W4), ValueError, "kernel_size"),
    ("max_pool_padding", lambda: ops.max_pool2d(X4, 2, 1, 2), ValueError, "padding"),
    ("max_pool_rank", lambda: ops.max_pool2d(T(np.zeros((4, 4))), 2), ValueError, "4-D"),
    ("avg_pool_kernel", lambda: ops.avg_pool2d(X4, 5), ValueError, "smaller than"),
    ("pool_pad_mode", lambda: ops.MaxPool(2, 2, "pad"), ValueError, "pad_mode"),
    ("gather_nd_range", lambda: ops.gather_nd(M33, T(np.array([[0, 3]]))), IndexError,
     "out of range"),
    ("gather_nd_negative", lambda: ops.gather_nd(M33, T(np.array([[-1, 0]]))), IndexError,
     "out of range"),
    ("gather_nd_float", lambda: ops.gather_nd(M33, T(np.array([[0.0, 1.0]]))), TypeError,
     "integer"),
    ("gather_nd_depth", lambda: ops.gather_nd(M33, T(np.array([[0, 1, 2]]))), ValueError,
     "last dimension"),
    ("scatter_nd_shape_type", lambda: ops.scatter_nd(NDI, T(np.zeros(4)), [3, 0]), TypeError,
     "positive ints"),
    ("scatter_nd_updates", lambda: ops.scatter_nd(NDI, T(np.zeros(3)), (3, 4)), ValueError,
     "'updates' must have shape"),
    ("scatter_nd_range", lambda: ops.scatter_nd(NDI, T(np.zeros(4)), (2, 4)), IndexError,
     "out of range"),
    ("scatter_updates_shape", lambda: ops.tensor_scatter_add(M33, T(np.array([[0, 1]])),
                                                             T(np.zeros(2))), ValueError,
     "updates"),
    ("scatter_dtype", lambda: ops.tensor_scatter_update(M33, T(np.array([[0, 1]])),
                                                        T(np.zeros(1, np.float32))), TypeError,
     "dtype"),
    ("scatter_range", lambda: ops.tensor_scatter_add(M33, T(np.array([[5, 1]])), T(np.zeros(1))),
     IndexError, "out of range"),
    ("index_select_range", lambda: ops.index_select(M33, 0, T(np.array([0, 3]))), IndexError,
     "index"),
    ("index_select_rank", lambda: ops.index_select(M33, 0, T(np.array([[0]]))), ValueError,
     "1-D"),
    ("index_select_axis", lambda: ops.index_select(M33, 2, T(np.array([0]))), ValueError, "axis"),
    ("one_hot_float", lambda: ops.one_hot(T(np.array([0.5])), 3), TypeError, "integer"),
    ("one_hot_axis", lambda: ops.one_hot(T(np.array([0])), 3, axis=3), ValueError, "axis"),
    ("one_hot_depth", lambda: ops.one_hot(T(np.array([0])), -2), ValueError, "depth"),
    ("masked_fill_mask_dtype", lambda: ops.masked_fill(M33, T(np.ones(3)), 0.0), TypeError,
     "bool"),
    ("masked_fill_mask_shape", lambda: ops.masked_fill(M33, T(np.ones((2, 3), bool)), 0.0),
     ValueError, "broadcast"),
    ("pad_odd", lambda: ops.pad(M33, (1, 2, 3)), TypeError, "even length"),
    ("pad_mode", lambda: ops.pad(M33, (1, 1), mode="mirror"), ValueError, "mode"),
    ("pad_reflect_size", lambda: ops.pad(M33, (3, 0), mode="reflect"), ValueError, "smaller"),
    ("pad_too_many_axes", lambda: ops.pad(M33, (1, 1, 1, 1, 1, 1)), ValueError, "more axes"),
    ("einsum_count", lambda: ops.einsum("ij,jk->ik", M33), ValueError, "operand"),
    ("einsum_sizes", lambda: ops.einsum("ij,jk->ik", M33, T(np.zeros((2, 2)))), ValueError,
     "sizes"),
    ("einsum_rank", lambda: ops.einsum("ijk->i", M33), ValueError, "rank"),
    ("einsum_output", lambda: ops.einsum("ij->iz", M33), ValueError, "output"),
    ("einsum_chars", lambda: ops.einsum("i1->i", M33), ValueError, "invalid"),
    ("inverse_square", lambda: ops.inverse(T(np.zeros((2, 3)))), ValueError, "square"),
    ("inverse_singular", lambda: ops.inverse(T(np.zeros((2, 2)))), ValueError, "singular"),
    ("det_int", lambda: ops.det(T(np.eye(2, dtype=np.int64))), TypeError, "float"),
    ("cholesky_not_pd", lambda: ops.cholesky(T(-np.eye(2))), ValueError, "Cholesky"),
    ("solve_shape", lambda: ops.solve(M33, T(np.zeros((2, 2)))), ValueError, "'b'"),
    ("norm_fro_int_dim", lambda: ops.norm(M33, "fro", dim=1), ValueError, "2-tuple 'dim'"),
    ("norm_nuc_1d", lambda: ops.norm(T(np.ones(3)), "nuc"), ValueError, "vector norm"),
    ("norm_dim_3_tuple", lambda: ops.norm(T(np.ones((2, 2, 2))), dim=(0, 1, 2)), ValueError,
     "2-tuple"),
    ("norm_ord_3d_no_dim", lambda: ops.norm(T(np.ones((2, 2, 2))), 1), ValueError, "1-D or 2-D"),
    ("norm_matrix_ord", lambda: ops.norm(M33, 3), ValueError, "matrix norm"),
    ("norm_matrix_ord_0", lambda: ops.norm(M33, 0, dim=(0, 1)), ValueError, "matrix norm"),
    ("norm_vector_ord_str", lambda: ops.norm(M33, "max", dim=0), ValueError, "vector norm"),
    ("norm_same_dims", lambda: ops.norm(M33, 2, dim=(1, -1)), ValueError, "differ"),
    ("norm_dim_range", lambda: ops.norm(M33, dim=2), ValueError, "out of range"),
    ("norm_dim_type", lambda: ops.norm(M33, dim=1.0), TypeError, "'dim'"),
    ("svd_vector", lambda: ops.svd(T(np.ones(3))), ValueError, "matrix"),
    ("svd_int", lambda: ops.svd(T(np.eye(2, dtype=np.int64))), TypeError, "float"),
    ("svd_full_grad", lambda: ops.grad(lambda a: ops.svd(a, True)[1].sum())(
        T(np.ones((3, 2)))), ValueError, "full_matrices"),
    ("cumprod_axis", lambda: ops.cumprod(M33, 2), ValueError, "axis"),
    ("prod_axis", lambda: ops.prod(M33, -3), ValueError, "axis"),
]


@pytest.mark.parametrize("fn,exc,text", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_clear_errors(fn, exc, text) -> None:
    with pytest.raises(exc, match=text) as info:
        fn()
    assert "For '" in str(info.value)


def test_tensor_methods_and_aliases() -> None:
    a = np.array([[2.0, 1.0], [0.5, 3.0]])
    x = T(a)
    np.testing.assert_allclose(x.det().asnumpy(), np.linalg.det(a))
    np.testing.assert_allclose(ops.matrix_determinant(x).asnumpy(), np.linalg.det(a))
    np.testing.assert_allclose(x.log2().asnumpy(), np.log2(a))
    y = T(np.array([-1.5, -0.5, 0.4, 2.6]))
    for name, ref in (("floor", np.floor), ("ceil", np.ceil), ("round", np.round)):
        np.testing.assert_array_equal(getattr(y, name)().asnumpy(), ref(y.asnumpy()))
        g = ops.grad(lambda t, name=name: (getattr(t, name)() * t).sum())(y).asnumpy()
        np.testing.assert_array_equal(g, ref(y.asnumpy()))  # zero gradient through the op


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_scatter_nd_keeps_dtype_and_accumulates(dtype):
    updates = np.array([1, 2, 3, 4], dtype)
    out = ops.scatter_nd(NDI, T(updates), (3, 4))
    want = np.zeros((3, 4), dtype)
    np.add.at(want, tuple(ND_IDX.T), updates)
    assert out.asnumpy().dtype == dtype
    np.testing.assert_array_equal(out.asnumpy(), want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_scatters_sum_repeats_without_losing_digits(dtype):
    """Many repeats of one index accumulate in float64 and round once: float16 add.at
    would stop at 2048, and float32 drifts by about 1% over 2**20 additions of 0.1."""
    idx = T(np.zeros((5000, 1), np.int32))
    ones = T(np.ones(5000, dtype))
    assert float(ops.tensor_scatter_add(T(np.zeros(1, dtype)), idx, ones)[0]) == 5000
    grad = ops.grad(lambda a: ops.gather_nd(a, idx).sum())(T(np.zeros(3, dtype)))
    assert grad.asnumpy().tolist() == [5000, 0, 0] and grad.asnumpy().dtype == dtype
    count = 2 ** 20 if dtype == np.float32 else 2 ** 12  # float16's sum stays finite
    many = T(np.zeros((count, 1), np.int64))
    tenths = np.full(count, 0.1, dtype)
    got = ops.scatter_nd(many, T(tenths), (2,)).asnumpy()
    assert got[0] == dtype(tenths.astype(np.float64).sum()) and got[1] == 0


def test_logsumexp_of_infinite_rows() -> None:
    """A row of -inf sums to nothing (-inf), a +inf entry gives +inf, the others stay exact."""
    x = ms.Tensor(np.array([[-np.inf, -np.inf], [1.0, np.inf], [0.0, np.log(3.0)]]))
    with np.errstate(divide="ignore"):
        out = ops.logsumexp(x, 1).asnumpy()
    np.testing.assert_array_equal(out[:2], [-np.inf, np.inf])
    np.testing.assert_allclose(out[2], np.log(4.0), rtol=1e-15)


# --- dtype and shape rules found by the fuzzer (values recorded from MindSpore 2.10, CPU) ------
def test_addmm_python_number_input_is_weak() -> None:
    m1, m2 = T(np.ones((2, 3), np.float32)), T(np.ones((3, 4), np.float32))
    for v, want in ((-3, 0.0), (2.5, 5.5), (True, 4.0), (10 ** 12, np.float32(1e12) + 3)):
        r = ops.addmm(v, m1, m2)
        assert r.dtype == ms.float32 and r.shape == (2, 4), (v, r.dtype)
        np.testing.assert_array_equal(r.asnumpy(), np.full((2, 4), want, np.float32))
    r = ops.addmm(-3, m1, m2, beta=2, alpha=0.5)
    np.testing.assert_array_equal(r.asnumpy(), np.full((2, 4), -4.5, np.float32))
    g = ops.grad(lambda a: ops.addmm(1.5, a, m2).sum())(m1)
    np.testing.assert_array_equal(g.asnumpy(), np.full((2, 3), 4.0, np.float32))
    # a Tensor input still broadcasts and scales as before
    r = ops.addmm(T(np.ones((2, 4), np.float32)), m1, m2, beta=0.5, alpha=2)
    np.testing.assert_array_equal(r.asnumpy(), np.full((2, 4), 6.5, np.float32))


def test_kron_and_addr_refuse_python_numbers() -> None:
    a = T(np.array([[1.0, 2.0]], np.float32))
    for v in (-3, 2.5, True):
        with pytest.raises(TypeError, match="kron.*'input' must be a Tensor"):
            ops.kron(v, a)
        with pytest.raises(TypeError, match="kron.*'other' must be a Tensor"):
            ops.kron(a, v)
        with pytest.raises(TypeError, match="addr.*'x' must be a Tensor"):
            ops.addr(v, T(np.ones(2, np.float32)), T(np.ones(3, np.float32)))
    r = ops.kron(a, T(np.array([1.0, -1.0], np.float32)))
    assert r.dtype == ms.float32
    np.testing.assert_array_equal(r.asnumpy(), [[1.0, -1.0, 2.0, -2.0]])
    r = ops.addr(T(np.ones((2, 3), np.float32)), T(np.array([1.0, 2.0], np.float32)),
                 T(np.array([1.0, 0.0, -1.0], np.float32)), beta=2, alpha=0.5)
    assert r.dtype == ms.float32
    np.testing.assert_array_equal(r.asnumpy(), [[2.5, 2.0, 1.5], [3.0, 2.0, 1.0]])


def test_inner_refuses_python_numbers() -> None:
    x = T(np.arange(6, dtype=np.float32).reshape(2, 3))
    for v in (-3, 2.5, True):
        with pytest.raises(TypeError, match="inner.*'other' must be a Tensor"):
            ops.inner(x, v)
        with pytest.raises(TypeError, match="inner.*'input' must be a Tensor"):
            ops.inner(v, x)
    r = ops.inner(x, T(np.array([1.0, 2.0, 3.0], np.float32)))
    assert r.dtype == ms.float32
    np.testing.assert_array_equal(r.asnumpy(), np.array([8.0, 26.0], np.float32))


def test_lerp_weight_is_a_float_or_tensor_and_keeps_the_inputs_dtype() -> None:
    a = T(np.array([1.0, 2.0], np.float32))
    b = T(np.array([3.0, 6.0], np.float32))
    for w in ((1,), [0.5], ((1,), (2,)), 2, True, None):
        with pytest.raises(TypeError, match="lerp.*'weight'"):
            ops.lerp(a, b, w)
    for w in (0.25, T(np.float64(0.25)), T(np.full(2, 0.25)), T(np.full(2, 0.25, np.float16))):
        r = ops.lerp(a, b, w)
        assert r.dtype == ms.float32, (w, r.dtype)
        np.testing.assert_array_equal(r.asnumpy(), np.array([1.5, 3.0], np.float32))
    with pytest.raises(ValueError, match="lerp"):
        ops.lerp(a, b, T(np.ones(3, np.float32)))
    g = ops.grad(lambda w: ops.lerp(a, b, w).sum())(T(np.full(2, 0.25, np.float64)))
    assert g.dtype == ms.float64
    np.testing.assert_array_equal(g.asnumpy(), [2.0, 4.0])


def test_lerp_refuses_mixed_and_integer_dtypes_as_mindspore() -> None:
    """MindSpore's Lerp wants ``input`` and ``end`` of one float dtype (no promotion) and a
    float ``weight``; a weight Tensor of another float dtype is read in theirs."""
    f16, f32, f64 = (T(np.array([1.0, 2.0], dt)) for dt in (np.float16, np.float32, np.float64))
    for a, b in ((f32, f64), (f64, f32), (f16, f32), (f32, T(np.float64(2.0)))):
        with pytest.raises(TypeError, match="For 'lerp', 'input' and 'end' must have the same "
                                            "dtype"):
            ops.lerp(a, b, 0.5)
        with pytest.raises(TypeError, match="lerp"):
            a.lerp(b, 0.5)
    ints = T(np.array([1, 2], np.int32))
    for a, b, name in ((ints, ints, "input"), (f32, ints, "end"),
                       (T(np.array([True, False])), f32, "input")):
        with pytest.raises(TypeError, match=f"For 'lerp', '{name}' must be a float"):
            ops.lerp(a, b, 0.5)
    for w in (ints, T(np.array([True, False]))):
        with pytest.raises(TypeError, match="For 'lerp', 'weight' must be a float Tensor"):
            ops.lerp(f32, f32, w)
    r = ops.lerp(f16, f16 * 0, T(np.full(2, 0.5, np.float32)))
    assert r.dtype == ms.float16
    np.testing.assert_array_equal(r.asnumpy(), np.array([0.5, 1.0], np.float16))
    # a Python number beside a Tensor takes the Tensor's dtype
    assert ops.lerp(f32, 3.0, 0.5).dtype == ms.float32


def test_heaviside_at_nan_and_inf() -> None:
    x = T(np.array([1.0, np.nan, -np.inf, np.inf, 0.0, -2.0], np.float32))
    r = ops.heaviside(x, T(np.full(6, 0.5, np.float32)))
    assert r.dtype == ms.float32
    np.testing.assert_array_equal(r.asnumpy(), [1.0, 0.0, 0.0, 1.0, 0.5, 0.0])
    r = ops.heaviside(T(np.array([0.0, 1.0], np.float32)), T(np.full(2, np.nan, np.float32)))
    np.testing.assert_array_equal(r.asnumpy(), [np.nan, 1.0])


def test_atleast_nd_of_a_list_takes_tensors_only() -> None:
    for fn in (ops.atleast_1d, ops.atleast_2d, ops.atleast_3d):
        with pytest.raises(TypeError, match=f"{fn.__name__}.*element 0 is float"):
            fn([-0.4, 1.5, 0.8])
        with pytest.raises(TypeError, match=f"{fn.__name__}.*element 1 is list"):
            fn([T(np.ones(3, np.float32)), [1.0, 2.0]])
    r = ops.atleast_3d([T(np.ones(3, np.float32)), T(np.ones((2, 2), np.float64))])
    assert [t.shape for t in r] == [(1, 3, 1), (2, 2, 1)]
    assert [t.dtype for t in r] == [ms.float32, ms.float64]
    assert ops.atleast_2d(T(np.arange(3.0))).shape == (1, 3)


def test_multinomial_huge_num_samples_is_a_clear_error() -> None:
    p = T(np.array([[0.2, 0.3, 0.5], [1.0, 1.0, 1.0]], np.float32))
    with pytest.raises(ValueError, match="multinomial.*num_samples"):
        ops.multinomial(p, 10 ** 12)
    r = ops.multinomial(p, 4)
    assert r.dtype == ms.int32 and r.shape == (2, 4)
    assert ((r.asnumpy() >= 0) & (r.asnumpy() < 3)).all()


# NumPy's det warns from its own Python frame, which the mindgrad-only fp-warnings filter
# does not cover
@pytest.mark.filterwarnings("ignore:invalid value encountered in det:RuntimeWarning")
def test_slogdet_of_non_finite_matrices() -> None:
    a = np.array([[4.9, -1.4, -0.2], [0.0, 5.1, 1.7], [-0.2, 1.7, 7.1]])
    for dt in (np.float32, np.float64):
        for v, sign, logdet in ((np.nan, np.nan, np.nan), (np.inf, 1.0, np.inf),
                                (-np.inf, -1.0, np.inf)):
            b = a.copy()
            b[1, 0] = v
            s, lg = ops.slogdet(T(b.astype(dt)))
            assert s.dtype == lg.dtype == ms.Tensor(b.astype(dt)).dtype
            np.testing.assert_array_equal([s.asnumpy(), lg.asnumpy()], [sign, logdet])
        s, lg = ops.slogdet(T(np.array([[1.0, 2.0], [3.0, 4.0]], dt)))
        np.testing.assert_allclose([s.asnumpy(), lg.asnumpy()], [-1.0, np.log(2.0)], rtol=1e-6)
