"""Targeted checks of the core primitives that the primitive table
(``tests/primitive_table.py``, driven by ``tests/test_primitive_table.py``) cannot express:
points where central differences do not apply (ties, kinks, zeros), gradient dtypes and
shapes under broadcasting, exact (bit-for-bit) fast paths, and MindSpore's conventions."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops

from conftest import real_gpu
from gradcheck import check_graph_matches
from primitive_table import IDX, INF


# --- rows that central differences cannot check -----------------------------------------------
def test_stop_gradient_zero_derivatives() -> None:
    x = ms.Tensor(np.array([0.5, -1.0, 2.0]))
    np.testing.assert_array_equal(ops.stop_gradient(x).asnumpy(), x.asnumpy())
    f = lambda x: ops.stop_gradient(x * x) + 3 * x  # noqa: E731
    g = ops.grad(f)
    np.testing.assert_array_equal(g(x).asnumpy(), [3.0, 3.0, 3.0])
    np.testing.assert_array_equal(ops.grad(lambda x: g(x).sum())(x).asnumpy(), [0, 0, 0])
    _, tan = ops.jvp(f, (x,), (ms.Tensor(np.ones(3)),))
    np.testing.assert_array_equal(tan.asnumpy(), [3.0, 3.0, 3.0])
    only = ops.grad(lambda x: ops.stop_gradient(x).sum())
    np.testing.assert_array_equal(only(x).asnumpy(), [0, 0, 0])
    np.testing.assert_array_equal(ms.jit(only)(x).asnumpy(), [0, 0, 0])
    np.testing.assert_array_equal(ms.jit(g)(x).asnumpy(), [3.0, 3.0, 3.0])
    check_graph_matches(f, [x], order=2)


@pytest.mark.parametrize("src,dst", [(np.float32, ms.float64), (np.float64, ms.float32)])
def test_cast_gradient_keeps_input_dtype(src, dst) -> None:
    x = ms.Tensor(np.array([0.5, -1.5, 2.0], src))
    y = ops.cast(x, dst)
    assert y.dtype == dst
    g = ops.grad(lambda x: ops.square(ops.cast(x, dst)))(x)
    assert g.asnumpy().dtype == src
    np.testing.assert_allclose(g.asnumpy(), [1.0, -3.0, 4.0], rtol=1e-6)
    gg = ops.grad(lambda x: ops.grad(lambda x: ops.cast(x, dst) ** 3)(x))(x)
    assert gg.asnumpy().dtype == src
    np.testing.assert_allclose(gg.asnumpy(), 6 * x.asnumpy(), rtol=1e-6)
    _, t = ops.jvp(lambda x: ops.cast(x, dst) * 2, x, ms.Tensor(np.ones(3, src)))
    assert t.dtype == dst
    np.testing.assert_allclose(t.asnumpy(), [2.0, 2.0, 2.0])


def test_int_index_gradient_accumulates_repeats() -> None:
    x = ms.Tensor(np.arange(3.0))
    g = ops.grad(lambda x: (x[IDX] * ms.Tensor(np.arange(1.0, 6.0))).sum())(x)
    # IDX = [0, 2, 2, 1, 0] weighted by 1..5: x0 gets 1+5, x1 gets 4, x2 gets 2+3
    np.testing.assert_array_equal(g.asnumpy(), [6.0, 4.0, 5.0])


def test_maximum_tie_is_shared() -> None:
    x = ms.Tensor(np.array([1.0, 2.0]))
    y = ms.Tensor(np.array([1.0, 3.0]))
    gx, gy = ops.grad(ops.maximum, (0, 1))(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), [0.5, 0.0])
    np.testing.assert_array_equal(gy.asnumpy(), [0.5, 1.0])


def test_reduce_max_ties_share_gradient() -> None:
    x = ms.Tensor(np.array([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]]))
    g = ops.grad(lambda x: ops.reduce_max(x, 1).sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), [[0, 0.5, 0.5], [0.5, 0, 0.5]])


@pytest.mark.parametrize("sx,sy", [((2, 3), (3,)), ((2, 1), (1, 3)), ((3,), (2, 1)),
                                   ((), (2, 3)), ((1, 3), (2, 1, 1))])
def test_binary_broadcast_gradient_shapes(sx, sy) -> None:
    rng = np.random.default_rng(3)
    x = ms.Tensor(rng.standard_normal(sx))
    y = ms.Tensor(rng.uniform(0.5, 2.0, sy))
    for op, ref in ((ops.add, np.add), (ops.sub, np.subtract), (ops.mul, np.multiply),
                    (ops.div, np.divide), (ops.pow, None)):
        if op is ops.pow:
            x_, y_ = y, x  # positive base
        else:
            x_, y_ = x, y
        out = op(x_, y_)
        assert out.shape == np.broadcast_shapes(x_.shape, y_.shape)
        if ref is not None:
            np.testing.assert_allclose(out.asnumpy(), ref(x_.asnumpy(), y_.asnumpy()))
        gx, gy = ops.grad(op, (0, 1))(x_, y_)
        assert gx.shape == x_.shape and gy.shape == y_.shape
    # add: the gradient is the number of elements each input was broadcast over
    gx, gy = ops.grad(ops.add, (0, 1))(x, y)
    n = int(np.prod(np.broadcast_shapes(sx, sy)))
    np.testing.assert_array_equal(gx.asnumpy(), np.full(sx, n / max(1, x.size)))
    np.testing.assert_array_equal(gy.asnumpy(), np.full(sy, n / max(1, y.size)))


@pytest.mark.parametrize("use_scipy", [True, False])
def test_erf_erfc_exact_in_the_tails(use_scipy, monkeypatch) -> None:
    """erfc is its own primitive: 1 - erf(x) would round erfc(6) ~ 2e-17 to 0. Both the SciPy
    path and the per-element ``math`` fallback agree with ``math`` to the last bits."""
    from mindgrad.prims import unary

    if use_scipy:
        pytest.importorskip("scipy")
    else:
        monkeypatch.setattr(unary, "_scipy_special", lambda: None)
    xs = np.array([-3.0, -0.5, 0.0, 1e-3, 2.0, 6.0, 10.0, 25.0])
    for op, ref in ((ops.erf, math.erf), (ops.erfc, math.erfc)):
        for dtype in (np.float64, np.float32):
            got = op(ms.Tensor(xs.astype(dtype))).asnumpy()
            want = np.array([ref(float(v)) for v in xs.astype(dtype)], dtype)
            assert got.dtype == dtype
            # real GPUs flush float32 subnormal results (erfc(10)) to zero
            atol = np.finfo(dtype).tiny if real_gpu() else 0
            np.testing.assert_allclose(got, want, rtol=4 * np.finfo(dtype).eps, atol=atol)
    assert ops.erfc(ms.Tensor(10.0, ms.float64)).asnumpy() > 0
    # 0-d input and the derivative of erfc: -2/sqrt(pi) exp(-x^2)
    g = ops.grad(ops.erfc)(ms.Tensor(0.5, ms.float64)).asnumpy()
    np.testing.assert_allclose(g, -2 / math.sqrt(math.pi) * math.exp(-0.25), rtol=1e-15)


# --- the faster elementwise implementations keep their exact results --------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.int64,
                                   np.bool_, np.complex64])
def test_select_blend_is_np_where_bit_for_bit(dtype) -> None:
    """select's bitwise blend (large boolean masks) gives exactly np.where's bits: NaN
    payloads, -0.0, broadcasting, Python numbers on either side and the zero fast paths."""
    from mindgrad.prims.compare import _select_impl

    rng = np.random.default_rng(5)
    cond = rng.random((64, 80)) < 0.5
    x = (rng.standard_normal((64, 80)) * 100).astype(dtype)
    y = (rng.standard_normal((80,)) * 100).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[0, :3] = [np.nan, -0.0, np.inf]
        y[:2] = [-np.nan, -0.0]
    cases = [(cond, x, y), (cond, y, x), (cond[:1], x, y), (cond, x, 0), (cond, 0, x),
             (cond, x, -0.0), (cond, 1, y), (cond, True, False), (cond[:, :1], x, x[0])]
    for c, a, b in cases:
        got, want = _select_impl(c, a, b), np.where(c, a, b)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == np.ascontiguousarray(want).tobytes()


def test_maximum_minimum_against_python_numbers_match_numpy() -> None:
    x = np.array([-2.0, -0.5, 0.0, 0.5, np.nan, np.inf, -np.inf] * 3, np.float32)
    for op, ref in ((ops.maximum, np.maximum), (ops.minimum, np.minimum)):
        for v in (0, 0.5, -1):
            for a, b in ((x, v), (v, x)):
                got = op(ms.Tensor(a) if a is x else a, ms.Tensor(b) if b is x else b)
                assert got.dtype == ms.float32
                np.testing.assert_array_equal(got.asnumpy(), ref(a, b))


def test_mul_by_broadcast_one_and_neg_of_broadcast() -> None:
    x = ms.Tensor(np.arange(6.0).reshape(2, 3))
    one = ops.broadcast_to(ms.Tensor(1.0, ms.float64), (2, 3))
    np.testing.assert_array_equal((one * x).asnumpy(), x.asnumpy())
    np.testing.assert_array_equal((x * one).asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(ops.neg(one).asnumpy(), -np.ones((2, 3)))
    negated = ops.neg(one)._data  # still one read-only cell, not a full array (on the CPU)
    if isinstance(negated, np.ndarray):
        assert negated.strides == (0, 0) and not negated.flags.writeable
    g1, g2 = ops.grad(lambda a, b: (a * b * b).sum(), (0, 1))(x, one)
    np.testing.assert_array_equal(g1.asnumpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(g2.asnumpy(), 2 * x.asnumpy())
    gs = ops.grad(lambda a, b: (a - b).sum(), (0, 1))(x, x)
    np.testing.assert_array_equal(gs[1].asnumpy(), -np.ones((2, 3)))


def test_pow_derivative_where_ans_over_x_is_not_exact() -> None:
    """pow's derivative in x is y * ans / x except at x = 0 and where x ** y overflows or
    underflows, which take y * x ** (y - 1) itself."""
    x = ms.Tensor(np.array([0.0, 2.0, 1e16, 1e-20, -1.5], np.float32))
    for y in (2.5, 4.0, 1.5):
        with np.errstate(all="ignore"):  # overflow to inf, NaN for a negative base
            g = ops.grad(lambda x: (x ** y).sum())(x).asnumpy()
            want = (y * x.asnumpy().astype(np.float64) ** (y - 1)).astype(np.float32)
        np.testing.assert_allclose(g, want, rtol=1e-6, atol=0)
    # a tensor exponent: both derivatives finite at x = 0
    base = ms.Tensor(np.array([0.0, 0.5, 2.0]))
    e = ms.Tensor(np.array([2.5, 3.0, 0.5]))
    gx, ge = ops.grad(lambda b, e: (b ** e).sum(), (0, 1))(base, e)
    b, ee = base.asnumpy(), e.asnumpy()
    np.testing.assert_allclose(gx.asnumpy(), ee * b ** (ee - 1), rtol=1e-14)
    np.testing.assert_allclose(ge.asnumpy(), [0.0, np.log(0.5) * 0.5 ** 3, np.log(2) * 2 ** 0.5],
                               rtol=1e-14)


def test_pow_higher_derivatives_at_zero_are_finite() -> None:
    """The third derivative of x ** 2 reaches x ** 0, whose slope is 0 also at x = 0 (it
    was 0 * 0 ** -1 = NaN); likewise a tensor exponent of 0. Found by the random
    compositions (``(x - y) ** 2`` with x == y)."""
    x = ms.Tensor(np.array([0.0, 1.5, -2.0]))
    third = ops.grad(ops.grad(ops.grad(lambda x: (x ** 2).sum())))(x)
    np.testing.assert_array_equal(third.asnumpy(), [0.0, 0.0, 0.0])
    one = ms.Tensor(np.ones(3))
    _, t3 = ops.jvp(lambda x: ops.jvp(lambda x: ops.jvp(lambda x: x ** 2, x, one)[1], x,
                                      one)[1], x, one)
    np.testing.assert_array_equal(t3.asnumpy(), [0.0, 0.0, 0.0])
    y = ms.Tensor(np.array([0.0, 0.0, 1.0]))
    gx = ops.grad(lambda a, b: (a ** b).sum())(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), [0.0, 0.0, 1.0])
    second = ops.grad(ops.grad(lambda a, b: (a ** b).sum()))(x, ms.Tensor(np.ones(3)))
    np.testing.assert_array_equal(second.asnumpy(), [0.0, 0.0, 0.0])


def test_relu6_and_clip_gradients_at_the_bounds() -> None:
    """relu6 passes the gradient strictly inside (0, 6) (MindSpore's ReLU6Grad); clamp with
    constant bounds passes it where x is unclipped, bounds included (ties go to x, as with
    maximum/minimum), and not at NaN."""
    x = ms.Tensor(np.array([-1.0, 0.0, 3.0, 6.0, 7.0, np.nan], np.float32))
    g = ops.grad(lambda x: ops.relu6(x).sum())(x).asnumpy()
    np.testing.assert_array_equal(g, [0, 0, 1, 0, 0, 0])
    g = ops.grad(lambda x: ops.clamp(x, 0.0, 6.0).sum())(x).asnumpy()
    np.testing.assert_array_equal(g, [0, 1, 1, 1, 0, 0])
    g = ops.grad(lambda x: ops.clamp(x, ms.Tensor(0.0), ms.Tensor(6.0)).sum())(x).asnumpy()
    np.testing.assert_array_equal(g[:5], [0, 1, 1, 1, 0])


def test_floor_mod_gradient_follows_mindspore_and_floor_div_has_none() -> None:
    """d(x mod y) = dx - floor(x / y) dy (MindSpore's FloorMod bprop); FloorDiv: zeros. Taylor
    mode and vmap follow the same slopes."""
    x = ms.Tensor(np.array([2.5, -1.7, 4.0]))
    y = ms.Tensor(np.array([1.0, 0.7, -1.5]))
    gx, gy = ops.grad(lambda a, b: (a % b).sum(), (0, 1))(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(gy.asnumpy(), -np.floor(x.asnumpy() / y.asnumpy()))
    dx, dy = ops.grad(lambda a, b: ops.floor_div(a, b).sum(), (0, 1))(x, y)
    assert not dx.asnumpy().any() and not dy.asnumpy().any()
    # along y' = y'' = 1 both derivatives are the slope -floor(x / y) (piecewise linear)
    _, s = ops.jet(lambda b: ops.floor_mod(x, b), y, ms.Tensor(np.ones((2, 3))))
    np.testing.assert_array_equal(s.asnumpy(), [-np.floor(x.asnumpy() / y.asnumpy())] * 2)
    per_row = ops.vmap(ops.grad(lambda b: ops.floor_mod(x, b).sum()))(ms.Tensor(np.stack([y.asnumpy()] * 2)))
    np.testing.assert_array_equal(per_row.asnumpy()[1], gy.asnumpy())


def test_reduce_mean_primitive_jet_vmap_and_integer_inputs() -> None:
    """A float mean is one primitive: its Taylor rule (linear) matches the closed form, vmap
    of its gradient matches a loop, and an integer mean keeps its dtype (as MindSpore's)."""
    x = ms.Tensor(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]))
    # mean over axis 1 of z**2 along a path with z' = z'' = 1: derivatives mean(2 z) and
    # mean(2 z'**2 + 2 z z'') = 2 + mean(2 z)
    _, s = ops.jet(lambda z: ops.mean(z * z, 1), x, ms.Tensor(np.ones((2, 2, 3))))
    np.testing.assert_allclose(s.asnumpy()[0], (2 * x.asnumpy()).mean(1))
    np.testing.assert_allclose(s.asnumpy()[1], (2 * x.asnumpy()).mean(1) + 2.0)
    xs = ms.Tensor(np.arange(24.0).reshape(4, 2, 3) / 7)
    got = ops.vmap(ops.grad(lambda r: ops.mean(r * r, 0).sum()))(xs).asnumpy()
    np.testing.assert_allclose(got, xs.asnumpy())  # d/dr sum(mean(r**2, 0)) = 2 r / 2
    ints = ms.Tensor(np.array([[1, 2], [4, 4]], np.int32))
    m = ops.mean(ints, 1)  # MindSpore keeps an integer mean's dtype (truncated)
    assert m.asnumpy().dtype == np.int32
    np.testing.assert_array_equal(m.asnumpy(), [1, 4])
    h = ms.Tensor(np.array([0.1, 0.2, 0.7], np.float16))
    assert ops.mean(h).asnumpy().dtype == np.float16
    assert ops.mean(h).asnumpy() == np.float16(np.float16(1.0) / 3)


@pytest.mark.parametrize("fn", [lambda x, c: x / c, lambda x, c: ops.maximum(x, c),
                                lambda x, c: ops.atan2(x, c)])
def test_constant_second_operand_gets_no_cotangent_work(fn, monkeypatch) -> None:
    """The second operand's cotangent of div, maximum and atan2 is deferred: with that
    operand constant, the reverse pass runs none of its extra operations (neg / sub), and
    the gradients are unchanged when it is differentiated too."""
    from mindgrad.prims import arith as A

    calls = []
    for prim in (A.neg, A.sub):
        impl = prim.impl
        monkeypatch.setattr(prim, "impl", lambda *a, _impl=impl, **k: calls.append(1) or _impl(*a, **k))
    x = ms.Tensor(np.array([0.5, -2.0, 3.0], np.float32))
    c = ms.Tensor(np.array([1.5, 1.0, 4.0], np.float32))
    gx = ops.grad(lambda a: fn(a, c).sum())(x)
    assert calls == []
    gx2, gc = ops.grad(lambda a, b: fn(a, b).sum(), grad_position=(0, 1))(x, c)
    np.testing.assert_array_equal(gx.asnumpy(), gx2.asnumpy())
    assert calls and np.all(np.isfinite(gc.asnumpy()))


def test_div_no_nan_and_the_2_norm_at_zero() -> None:
    """div_no_nan gives 0 where the divisor is 0 (and a zero derivative there); through it,
    the gradient of the 2-norm at the zero vector is 0 (MindSpore's and PyTorch's subgradient),
    in both modes and over a reduced axis, with no warning."""
    x = ms.Tensor(np.array([-1.0, 0.0, 1.0, 5.0, 6.0], np.float32))
    y = ms.Tensor(np.array([0.0, 0.0, 0.0, 2.0, 3.0], np.float32))
    np.testing.assert_array_equal(ops.div_no_nan(x, y).asnumpy(), [0, 0, 0, 2.5, 2])
    gx, gy = ops.grad(lambda a, b: ops.div_no_nan(a, b).sum(), (0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), [0, 0, 0, 0.5, 1 / 3.0])
    np.testing.assert_allclose(gy.asnumpy(), [0, 0, 0, -1.25, -2 / 3.0])
    z = ms.Tensor(np.zeros(3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(ops.grad(ops.norm)(z).asnumpy(), np.zeros(3))
        _, t = ops.jvp(ops.norm, (z,), (ms.Tensor(np.ones(3)),))
        assert t.asnumpy() == 0.0
        m = ms.Tensor(np.array([[0.0, 0.0], [3.0, 4.0]]))
        g = ops.grad(lambda a: ops.norm(a, dim=1).sum())(m).asnumpy()
        np.testing.assert_allclose(g, [[0, 0], [0.6, 0.8]])
        gg = ms.jit(ops.grad(lambda a: ops.norm(a, dim=1).sum()))(m).asnumpy()
        np.testing.assert_array_equal(gg, g)


def test_norm_ord_0_counts_nonzeros_without_gradient() -> None:
    x = ms.Tensor(np.array([[0.0, 2.0, -0.5], [0.0, 0.0, 3.0]]))
    np.testing.assert_array_equal(ops.norm(x[0], 0).asnumpy(), 2.0)
    np.testing.assert_array_equal(ops.norm(x, 0, dim=1).asnumpy(), [2.0, 1.0])
    assert ops.norm(ms.Tensor(np.array([3.0, 4.0, 12.0], np.float32)), 0).dtype == ms.float32
    for f in (lambda a: ops.norm(a, 0, dim=1).sum(), ms.jit(lambda a: ops.norm(a, 0, dim=0).sum())):
        np.testing.assert_array_equal(ops.grad(f)(x).asnumpy(), np.zeros((2, 3)))


def test_norm_follows_mindspore_table() -> None:
    """Matrix norms of 2-D inputs with ord set and of 2-tuple dims; vector norms otherwise
    (the numbers of MindSpore's documented semantics, NumPy's np.linalg.norm)."""
    x = ms.Tensor(np.arange(12.0).reshape(3, 4) - 5)
    np.testing.assert_allclose(ops.norm(x, 2).asnumpy(), 11.4624012, rtol=1e-7)
    np.testing.assert_allclose(ops.norm(x, 1).asnumpy(), 10.0)
    a = x.asnumpy()
    for o in (None, "fro", "nuc", INF, -INF, 1, -1, 2):
        np.testing.assert_allclose(ops.norm(x, o).asnumpy(), np.linalg.norm(a, o), rtol=1e-12,
                                   err_msg=str(o))
    x3 = ms.Tensor(np.arange(24.0).reshape(2, 3, 4) - 5)
    np.testing.assert_allclose(ops.norm(x3, INF, dim=(1, 2)).asnumpy(), [18.0, 66.0])
    assert ops.norm(x3).shape == () and ops.norm(x3, keepdim=True).shape == (1, 1, 1)
    np.testing.assert_allclose(ops.norm(x3).asnumpy(), np.linalg.norm(x3.asnumpy().ravel()))
    np.testing.assert_allclose(ops.norm(x[0], -INF).asnumpy(), 2.0)  # min |x|, not max
    v = ms.Tensor(np.array([3.0, 4.0, 12.0], np.float32))
    assert [float(ops.norm(v, o).asnumpy()) for o in (None, 1, 0)] == [13.0, 19.0, 3.0]
    assert ops.norm(ms.Tensor(np.ones((2, 2), np.float32)), dtype=ms.float64).dtype == ms.float64
