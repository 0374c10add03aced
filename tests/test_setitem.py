"""``x[index] = value``: functional semantics (x is rebound to an updated copy), every index
kind, value broadcasting and casting, aliasing, gradients in both modes, vmap, jvp, jet,
Parameters, and the errors."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops
from mindgrad.ops.taylor import jet

T = ms.Tensor


def _base():
    return T(np.arange(12, dtype=np.float32).reshape(3, 4))


def _want(index, value):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    a[index] = value
    return a


# --- values ---------------------------------------------------------------------------------
@pytest.mark.parametrize("index, value, np_index", [
    (0, 1, 0),
    (-1, 2.5, -1),
    ((1, 2), -3.0, (1, 2)),
    ((slice(None), slice(1, 3)), T([7.0, 8.0]), (slice(None), slice(1, 3))),
    (slice(None, None, 2), [1.0, 2.0, 3.0, 4.0], slice(None, None, 2)),
    ((Ellipsis, 0), T([10.0, 20.0, 30.0]), (Ellipsis, 0)),
    ((None, 1), 9, (None, 1)),
    (np.array([True, False, True]), T([[1.0], [2.0]]), np.array([True, False, True])),
    (T(np.array([2, 0])), T([5.0, 6.0, 7.0, 8.0]), np.array([2, 0])),
    ([0, 2], 4.0, [0, 2]),
    ((T(np.array([0, 2])), T(np.array([3, 1]))), T([-1.0, -2.0]),
     (np.array([0, 2]), np.array([3, 1]))),
    ((slice(None), T(np.array([0, 3]))), T([[1.0, 2.0]]), (slice(None), np.array([0, 3]))),
    (1, T(np.ones((1, 1, 4), np.float32)), 1),  # extra leading 1s are dropped
])
def test_index_kinds_and_values(index, value, np_index) -> None:
    x = _base()
    x[index] = value
    v = value.asnumpy() if isinstance(value, T) else value
    np.testing.assert_array_equal(x.asnumpy(), _want(np_index, v))
    assert x.shape == (3, 4) and x.dtype == ms.float32


def test_mask_computed_from_the_tensor() -> None:
    x = T([-1.0, 2.0, -3.0, 4.0])
    x[x < 0] = 0
    np.testing.assert_array_equal(x.asnumpy(), [0, 2, 0, 4])


def test_value_is_cast_to_the_tensor_dtype() -> None:
    xi = T([1, 2, 3])
    xi[0] = 2.9  # float into int64: truncated, as a cast does
    xi[1:] = T([7.5, -1.5])
    assert xi.dtype == ms.int64
    np.testing.assert_array_equal(xi.asnumpy(), [2, 7, -1])
    xf = T([1.0, 2.0])
    xf[1] = T(np.array(5, np.int32))
    xf[0] = True
    assert xf.dtype == ms.float32
    np.testing.assert_array_equal(xf.asnumpy(), [1.0, 5.0])
    xb = T(np.array([True, False]))
    xb[1] = 1
    np.testing.assert_array_equal(xb.asnumpy(), [True, True])


# --- aliasing -------------------------------------------------------------------------------
def test_aliasing_follows_the_object_not_the_array() -> None:
    arr = np.arange(3, dtype=np.float32)
    x = T(arr)  # shares arr
    y = x
    z = x + 0
    w = x * ops.broadcast_to(T(1.0), (3,))  # may return x's own array
    y[0] = 5
    assert y is x
    np.testing.assert_array_equal(x.asnumpy(), [5, 1, 2])
    np.testing.assert_array_equal(z.asnumpy(), [0, 1, 2])
    np.testing.assert_array_equal(w.asnumpy(), [0, 1, 2])
    np.testing.assert_array_equal(arr, [0, 1, 2])  # the array itself is never written

    s = T(np.float32(2.0))
    b = ops.broadcast_to(s, (3,))  # a read-only zero-stride view of s's array
    b[1] = 7
    np.testing.assert_array_equal(b.asnumpy(), [2, 7, 2])
    assert float(s) == 2.0


# --- gradients ------------------------------------------------------------------------------
def _f(x, v):
    x[0, 1:3] = v * v  # v of shape (1,): broadcast over two positions
    return (x * x * x).sum()


def _closed_form(x, v):
    dx = 3 * x ** 2
    dx[0, 1:3] = 0
    dv = np.array([2 * 3 * v[0] ** 5 * 2])  # two positions of (v^2)^3, each d/dv = 6 v^5
    return dx, dv


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_gradients_through_setitem(mode) -> None:
    x = np.arange(6, dtype=np.float64).reshape(2, 3) / 4
    v = np.array([0.7])
    g = ops.grad(_f, (0, 1))
    if mode == "graph":
        g = ms.jit(g)
    for _ in range(2):  # the second graph call runs the compiled function
        dx, dv = g(T(x), T(v))
        want_dx, want_dv = _closed_form(x, v)
        np.testing.assert_allclose(dx.asnumpy(), want_dx, rtol=1e-12)
        np.testing.assert_allclose(dv.asnumpy(), want_dv, rtol=1e-12)


def test_gradient_with_repeated_indices_goes_to_the_kept_write() -> None:
    def f(x, v):
        x[T(np.array([1, 0, 1]))] = v
        return (x * T([1.0, 10.0])).sum()

    dx, dv = ops.grad(f, (0, 1))(T([1.0, 2.0]), T([3.0, 4.0, 5.0]))
    np.testing.assert_array_equal(dx.asnumpy(), [0, 0])
    np.testing.assert_array_equal(dv.asnumpy(), [0, 1, 10])  # v[0] is overwritten by v[2]


def test_second_order_gradient() -> None:
    def f(x):
        y = x * 1
        y[1] = x[0] ** 3  # y = [x0, x0^3, x2]
        return (y * y).sum()  # x0^2 + x0^6 + x2^2

    def df0(x):
        return ops.grad(f)(x)[0]

    x = T([0.5, 2.0, 3.0])
    np.testing.assert_allclose(ops.grad(f)(x).asnumpy(), [1 + 6 * 0.5 ** 5, 0, 6], rtol=1e-6)
    for h in (ops.grad(df0), ms.jit(ops.grad(df0))):
        np.testing.assert_allclose(h(x).asnumpy(), [2 + 30 * 0.5 ** 4, 0, 0], rtol=1e-6)


def test_jvp_and_jet() -> None:
    def f(x):
        y = x * x
        y[1:] = x[0] * 3
        return y

    x, t = T([2.0, 5.0, 7.0]), T([1.0, 1.0, 1.0])
    out, tan = ops.jvp(f, x, t)
    np.testing.assert_allclose(out.asnumpy(), [4, 6, 6])
    np.testing.assert_allclose(tan.asnumpy(), [4, 3, 3])
    series = T(np.array([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]], np.float32))
    out, ser = jet(f, x, series)
    np.testing.assert_allclose(ser.asnumpy(), [[4, 3, 3], [2, 0, 0]])  # raw derivatives


def test_vmap_of_a_function_that_assigns() -> None:
    def f(x, v):
        x[1] = v
        x[T(np.array([0, 2]))] = x[1] * 2
        return x

    xs = T(np.arange(6, dtype=np.float32).reshape(2, 3))
    vs = T([10.0, 20.0])
    out = ms.vmap(f)(xs, vs)
    np.testing.assert_array_equal(out.asnumpy(), [[20, 10, 20], [40, 20, 40]])
    out = ms.vmap(f, in_axes=(0, None))(xs, T(1.0))  # an unbatched value
    np.testing.assert_array_equal(out.asnumpy(), [[2, 1, 2], [2, 1, 2]])
    # per-example gradients
    grads = ms.vmap(ops.grad(lambda x, v: f(x, v).sum(), (0, 1)))(xs, vs)
    np.testing.assert_array_equal(grads[0].asnumpy(), np.zeros((2, 3)))
    np.testing.assert_array_equal(grads[1].asnumpy(), [5, 5])


# --- GRAPH mode -----------------------------------------------------------------------------
def test_graph_mode_mask_from_the_inputs_is_not_baked_in() -> None:
    @ms.jit
    def f(x):
        x[x < 0] = 0
        return x * 2

    np.testing.assert_array_equal(f(T([-1.0, 2.0, -3.0])).asnumpy(), [0, 4, 0])
    np.testing.assert_array_equal(f(T([1.0, -2.0, 3.0])).asnumpy(), [2, 0, 6])


def test_graph_mode_constant_tensor_takes_a_traced_value() -> None:
    @ms.jit
    def f(x):
        y = T(np.zeros(3, np.float32))
        y[1] = x[0] * 2
        return y + 1

    np.testing.assert_array_equal(f(T([1.0, 5.0])).asnumpy(), [1, 3, 1])
    np.testing.assert_array_equal(f(T([4.0, 5.0])).asnumpy(), [1, 9, 1])


def test_assigning_a_constant_into_a_traced_tensor() -> None:
    def f(x):
        x[0] = 100.0
        return (x * x).sum()

    np.testing.assert_array_equal(ops.grad(f)(T([1.0, 2.0])).asnumpy(), [0, 4])
    np.testing.assert_array_equal(ms.jit(ops.grad(f))(T([1.0, 2.0])).asnumpy(), [0, 4])
    np.testing.assert_array_equal(ms.vmap(lambda x: f(x * 1))(T([[1.0, 2.0]])).asnumpy(),
                                  [10004])


# --- Parameters -----------------------------------------------------------------------------
def test_parameter_setitem_updates_like_set_data() -> None:
    p = ms.Parameter(T([1.0, 2.0, 3.0]), name="p")
    p[0] = 7
    p[1:] = T([8.0, 9.0])
    assert isinstance(p, ms.Parameter)
    np.testing.assert_array_equal(p.value().asnumpy(), [7, 8, 9])


class _Net(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.w = ms.Parameter(T([1.0, 2.0]), name="w")

    def construct(self, x):
        out = (self.w * x).sum()
        self.w[0] = 10.0  # stored as set_data stores it
        return out


def test_parameter_setitem_inside_grad_and_graph() -> None:
    net = _Net()
    g = ops.grad(net, None, net.trainable_params())(T([3.0, 4.0]))
    np.testing.assert_array_equal(g[0].asnumpy(), [3, 4])
    np.testing.assert_array_equal(net.w.value().asnumpy(), [10, 2])

    @ms.jit
    def step(x):
        net.w[1] = net.w[1] + x
        return net.w * 1

    net.w.set_data(T([1.0, 2.0]))
    np.testing.assert_array_equal(step(T(1.0)).asnumpy(), [1, 3])
    np.testing.assert_array_equal(step(T(1.0)).asnumpy(), [1, 4])  # compiled: still updates
    np.testing.assert_array_equal(net.w.value().asnumpy(), [1, 4])


# --- errors ---------------------------------------------------------------------------------
def test_shape_mismatch_names_setitem_the_index_and_the_shapes() -> None:
    x = _base()
    with pytest.raises(ValueError, match=r"For 'setitem', the value of shape \[3\] cannot be "
                                         r"broadcast to the shape \[4\] that index \[0\] "
                                         r"selects in a tensor of shape \[3, 4\]"):
        x[0] = T([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"shape \[2, 4\].*index \[:, Tensor"):
        x[:, T(np.array([0, 1, 2]))] = T(np.ones((2, 4), np.float32))
    np.testing.assert_array_equal(x.asnumpy(), _want(0, np.arange(0, 4)))  # unchanged


def test_bad_index_and_value_errors() -> None:
    x = _base()
    with pytest.raises(IndexError, match="For 'setitem', index \\[5\\] is out of range"):
        x[5] = 1
    with pytest.raises(TypeError, match="For 'setitem', the value must be a number"):
        x[0] = "a"
    with pytest.raises(TypeError, match="For 'setitem', the value must be a number"):
        x[0] = None


def test_traced_value_into_a_constant_tensor_under_vmap_says_what_to_do() -> None:
    """A constant tensor holds one value, not one per example: under vmap the assignment of
    a mapped value into it is refused with what to write instead (grad, jvp and jet follow
    the value: tests/test_setitem_following.py)."""
    def f(x):
        y = ops.zeros(3, ms.float32)
        y[0] = x.sum()
        return y

    with pytest.raises(TypeError, match=r"For 'setitem', cannot assign a value that vmap traces .* "
                                        r"into a constant tensor.*ops\.select"):
        ms.vmap(f)(T([[1.0], [2.0]]))
    # the supported form: start from a tensor computed from the inputs
    def g(x):
        y = x.sum() * ops.zeros(3, ms.float32)
        y[0] = x.sum()
        return y

    np.testing.assert_array_equal(ms.vmap(g)(T([[1.0], [2.0]])).asnumpy(), [[1, 0, 0], [2, 0, 0]])


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_an_assignment_after_a_use_keeps_that_use_gradient(mode) -> None:
    """Reverse mode keeps the operands it recorded: assigning into a tensor (or setting a
    Parameter) after using it does not change the earlier use's gradient."""
    wrap = ms.jit if mode == "graph" else (lambda f: f)
    x = T([1.0, 2.0])

    def constant(z):
        y = ops.zeros(2, ms.float32)
        y[0] = 3.0
        w = (z * y).sum()  # dw/dz = [3, 0]
        y[0] = 7.0
        return w + (y * z).sum() * 0.0

    np.testing.assert_array_equal(wrap(ops.grad(constant))(x).asnumpy(), [3.0, 0.0])
    np.testing.assert_array_equal(ops.jacrev(constant)(x).asnumpy(), [3.0, 0.0])

    def traced(z):
        y = z * 1.0
        w = (y * y).sum()
        y[0] = 5.0  # y = [5, z1] from here on
        return w + y.sum()  # gradient [2 z0, 2 z1 + 1]

    np.testing.assert_array_equal(wrap(ops.grad(traced))(x).asnumpy(), [2.0, 5.0])

    p = ms.Parameter(T([2.0, 2.0]), name="p")

    def parameter(z):
        w = (z * p).sum()
        p.set_data(T([9.0, 9.0]))
        return w

    np.testing.assert_array_equal(wrap(ops.grad(parameter))(x).asnumpy(), [2.0, 2.0])


def test_an_outer_tensor_changed_inside_an_inner_gradient() -> None:
    def outer(x):
        y = x * 1.0

        def inner(z):
            w = (z * y).sum()  # its gradient in z is y as it is here: x
            y[0] = 7.0
            return w

        return ops.grad(inner)(x)

    np.testing.assert_array_equal(ops.grad(lambda x: outer(x).sum())(T([1.0, 2.0])).asnumpy(),
                                  [1.0, 1.0])
