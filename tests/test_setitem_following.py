"""A traced value assigned into a tensor that the derivative trace does not see
(``y = ops.zeros(3); y[0] = f(x)`` inside grad, jvp, jet, nested and compiled): the tensor
follows the value (``mindgrad/core/following.py``). MindSpore 2.10 gives the values checked
here in both modes (``Net`` below: 28.0 and gradient [4, 8, 12]; ``scatter``: [3, 0, 0])."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, nn, ops


def T(v, dtype=np.float32) -> Tensor:
    return Tensor(np.array(v, dtype))


@pytest.fixture(params=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=ms.GRAPH_MODE if request.param == "graph" else ms.PYNATIVE_MODE)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


class Net(nn.Cell):
    """The loop MindSpore programs write: a result filled in element by element."""

    def construct(self, x):
        out = Tensor(np.zeros(3, np.float32))
        i = 0
        while i < 3:
            out[i] = x[i] * x[i]
            i += 1
        return out.sum() * 2


def scatter(x):
    out = ops.zeros(3, ms.float32)
    out[1] = x[0] * 3
    return out


def test_a_loop_filling_a_constant_tensor(mode) -> None:
    x = T([1.0, 2.0, 3.0])
    assert float(Net()(x)) == 28.0
    np.testing.assert_array_equal(ops.grad(Net())(x).asnumpy(), [4.0, 8.0, 12.0])
    np.testing.assert_array_equal(ops.grad(lambda v: scatter(v).sum())(x).asnumpy(), [3, 0, 0])


def test_compiled_gradient_reads_new_inputs_every_call() -> None:
    """jit of grad: the compiled function computes the assigned value from its inputs on
    every call, not the value of the first."""
    def f(x):
        y = ops.zeros(2, ms.float32)
        y[0] = x[0] * x[1]
        return (y * y).sum()

    g = ms.jit(ops.grad(f))
    for v in ([1.0, 2.0], [3.0, -1.0], [0.5, 4.0]):
        x0, x1 = v
        np.testing.assert_allclose(g(T(v)).asnumpy(), [2 * x0 * x1 * x1, 2 * x0 * x0 * x1],
                                   rtol=1e-6)
    h = ops.grad(ms.jit(f))
    np.testing.assert_allclose(h(T([3.0, -1.0])).asnumpy(), [6.0, -18.0], rtol=1e-6)


def test_a_use_before_the_assignment_keeps_its_value(mode) -> None:
    def f(x):
        y = ops.ones(2, ms.float32)
        w = (x * y).sum()  # y = [1, 1] here: dw/dx = [1, 1]
        y[0] = x[0] * 3  # y = [3 x0, 1] from here on
        return w + (y * y).sum()  # + [18 x0, 0]

    fn = ms.jit(f) if mode == "graph" else f
    np.testing.assert_allclose(ops.grad(fn)(T([2.0, 5.0])).asnumpy(), [37.0, 1.0])


def test_forward_mode_taylor_mode_and_vjp_of_the_tensor_itself() -> None:
    x = T([2.0, 5.0])
    v = T([1.0, 10.0])
    out, tangent = ops.jvp(scatter, x, v)  # returns the followed tensor itself
    np.testing.assert_array_equal(out.asnumpy(), [0, 6, 0])
    np.testing.assert_array_equal(tangent.asnumpy(), [0, 3, 0])
    out, pullback = ops.vjp(scatter, x)
    np.testing.assert_array_equal(pullback(T([1.0, 2.0, 3.0]))[0].asnumpy(), [6, 0])
    np.testing.assert_array_equal(ops.jacrev(scatter)(x).asnumpy(), [[0, 0], [3, 0], [0, 0]])
    np.testing.assert_array_equal(ops.jacfwd(scatter)(x).asnumpy(), [[0, 0], [3, 0], [0, 0]])

    def square_into(z):
        y = ops.zeros(1, ms.float32)
        y[0] = z * z
        return y[0]

    out, series = ops.jet(square_into, T(3.0), T([1.0, 0.0]))  # z(t) = 3 + t
    np.testing.assert_allclose(float(out), 9.0)
    np.testing.assert_allclose(series.asnumpy(), [6.0, 2.0])


def test_nested_gradients(mode) -> None:
    """The assignment inside the inner gradient, and inside the outer one, with the second
    derivative checked against its closed form."""
    def inner(x):
        y = ops.zeros(2, ms.float32)
        y[0] = x * x * x
        y[1] = ops.sin(x)
        return y.sum()

    d1 = ops.grad(inner)
    d2 = ops.grad(d1)
    x = T(0.7)
    np.testing.assert_allclose(float(d1(x)), 3 * 0.49 + np.cos(0.7), rtol=1e-6)
    np.testing.assert_allclose(float(d2(x)), 6 * 0.7 - np.sin(0.7), rtol=1e-6)

    def outer(x):
        y = ops.zeros(2, ms.float32)
        y[0] = ops.grad(lambda z: z * z * x)(x)  # 2 x^2
        return y.sum() * x  # 2 x^3

    np.testing.assert_allclose(float(ops.grad(outer)(x)), 6 * 0.49, rtol=1e-6)
    hess = ops.jacfwd(ops.jacrev(scatter))(T([1.0, 2.0]))
    np.testing.assert_array_equal(hess.asnumpy(), np.zeros((3, 2, 2)))


def test_a_tensor_made_outside_keeps_the_assigned_value(mode) -> None:
    """As an in-place assignment: after the transformation the tensor holds the new value
    as a plain tensor, and a second call starts from it."""
    buf = T([1.0, 1.0])

    def f(x):
        buf[1] = buf[1] * x
        return buf.sum()

    np.testing.assert_allclose(float(ops.grad(f)(T(3.0))), 1.0)
    assert "_trace" not in buf.__dict__ and buf._trace is None
    if mode == "pynative":
        np.testing.assert_array_equal(buf.asnumpy(), [1.0, 3.0])
        np.testing.assert_allclose(float(ops.grad(f)(T(2.0))), 3.0)
        np.testing.assert_array_equal((buf + 1).asnumpy(), [2.0, 7.0])
    else:  # a compiled call leaves a constant's array as it was, as in MindSpore
        np.testing.assert_array_equal(buf.asnumpy(), [1.0, 1.0])
        np.testing.assert_allclose(float(ops.grad(f)(T(2.0))), 1.0)


def test_a_cell_buffer_as_mindspore_keeps_it(mode) -> None:
    """MindSpore 2.10: the gradient of a Cell that assigns into a tensor attribute changes
    it in PYNATIVE mode and leaves it alone in GRAPH mode."""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.buf = T([1.0, 1.0])

        def construct(self, x):
            self.buf[1] = self.buf[1] * x
            return self.buf.sum()

    net = Net()
    grads = [float(ms.grad(net)(T(v))) for v in (3.0, 2.0)]
    if mode == "pynative":
        assert grads == [1.0, 3.0]
        np.testing.assert_array_equal(net.buf.asnumpy(), [1.0, 6.0])
    else:
        assert grads == [1.0, 1.0]
        np.testing.assert_array_equal(net.buf.asnumpy(), [1.0, 1.0])


def test_a_vmap_inside_the_gradient_keeps_the_outer_value() -> None:
    """A tensor following the outer gradient's value, assigned per example inside a vmap
    of an inner gradient, follows the outer value again when the vmap ends."""
    def f(x):
        y = ops.zeros(2, ms.float32)
        y[0] = x * 2

        def per(z):
            def inner(w):
                y[1] = w * w
                return y.sum()
            return ops.grad(inner)(z)

        d = ms.vmap(per)(ops.stack([x, x + 1]))
        return y.sum() * x + d.sum()  # 2 x^2 + (2 x + 2 (x + 1))

    x = T(1.5)
    np.testing.assert_allclose(float(f(x)), 2 * 2.25 + 2 * 1.5 + 2 * 2.5)
    np.testing.assert_allclose(float(ops.grad(f)(x)), 4 * 1.5 + 4, rtol=1e-6)


def test_hooks_and_reads_of_a_following_tensor() -> None:
    seen = []

    def f(x):
        y = ops.zeros(2, ms.float32)
        y[0] = x * x
        y.register_hook(lambda g: (seen.append(g.asnumpy()), g * 10)[1])
        return (y * 3).sum()

    np.testing.assert_allclose(float(ops.grad(f)(T(2.0))), 120.0)  # MindSpore: 120
    np.testing.assert_array_equal(seen[0], [3.0, 3.0])

    def g(x):  # inside jit, ops.zeros gives a graph value that then follows the gradient
        y = ops.zeros(1, ms.float32)
        y[0] = x * 2
        return y.sum() * float(y) if bool(y > 0) else y.sum()

    np.testing.assert_allclose(float(ms.jit(ops.grad(g))(T(1.0))), 4.0)


def test_reads_outside_operations_see_the_new_value() -> None:
    seen = []

    def f(x):
        y = ops.zeros(2, ms.float32)
        y[0] = x * 2
        seen.append((y.asnumpy().copy(), y.shape, float(y[0])))
        return y.sum()

    ops.grad(f)(T(4.0))
    np.testing.assert_array_equal(seen[0][0], [8.0, 0.0])
    assert seen[0][1] == (2,) and seen[0][2] == 8.0


def test_an_error_inside_the_transformation_leaves_no_marker() -> None:
    y = ops.zeros(2, ms.float32)

    def f(x):
        y[0] = x * 2
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        ops.grad(f)(T(4.0))
    assert y._trace is None
    np.testing.assert_array_equal((y * 1).asnumpy(), [8.0, 0.0])


def test_vmap_leaves_an_unmapped_argument_readable() -> None:
    c = T([1.0, 2.0])

    def f(x, c):
        return (x * c).sum()

    np.testing.assert_array_equal(ms.vmap(ops.grad(f), in_axes=(0, None))(
        T([[1.0, 1.0], [2.0, 2.0]]), c).asnumpy(), [[1, 2], [1, 2]])
    np.testing.assert_array_equal(c.asnumpy(), [1.0, 2.0])

    def g(x):  # grad inside vmap: the assignment belongs to the gradient, per example
        y = ops.zeros(2, ms.float32)
        y[0] = x * x
        return y.sum()

    np.testing.assert_array_equal(ms.vmap(ops.grad(g))(T([1.0, 2.0, 3.0])).asnumpy(), [2, 4, 6])


def test_a_tensor_shared_by_threads() -> None:
    """One thread lets a shared tensor follow its gradient's values while another assigns
    into it without any transformation, or takes gradients through it too."""
    buf = T([0.0, 0.0])
    errors, stop = [], threading.Event()

    def differentiate():
        try:
            for _ in range(100):
                def f(x):
                    buf[0] = x * 2
                    return (buf * buf)[0]
                assert float(ops.grad(f)(T(1.5))) == 12.0
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
        finally:
            stop.set()

    def assign():
        try:
            while not stop.is_set():
                buf[1] = 5.0
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=differentiate), threading.Thread(target=differentiate),
               threading.Thread(target=assign)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert buf._trace is None


def test_threads_follow_their_own_values() -> None:
    results, errors = {}, []

    def work(k):
        try:
            for _ in range(30):
                def f(x):
                    y = ops.zeros(2, ms.float32)
                    y[1] = x * k
                    return (y * y).sum()
                results.setdefault(k, set()).add(float(ops.grad(f)(T(1.0))))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in (1.0, 2.0, 3.0, 4.0)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == {k: {2 * k * k} for k in (1.0, 2.0, 3.0, 4.0)}


def test_inside_vmap_after_the_inner_gradient() -> None:
    """A tensor following a batched value (the gradient inside vmap has ended) takes further
    assignments at the vmap's level and is returned per example."""
    def g(x):
        y = ops.zeros(2, ms.float32)
        d = ops.grad(lambda z: (y.__setitem__(0, z * z) or y).sum())(x)
        y[1] = d * 10
        return y

    np.testing.assert_array_equal(ms.vmap(g)(T([1.0, 2.0])).asnumpy(), [[1, 20], [4, 40]])
