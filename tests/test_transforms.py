"""The differentiation API: GradOperation, grad, value_and_grad, get_grad, jvp, vjp, nn.Jvp,
nn.Vjp, jacfwd/jacrev, higher order by nesting, stop_gradient, custom bprop, Parameters.

Exact numbers follow SEMANTICS.md (Net = x*y*w + b, w=[2], b=[3], x=[1,2], y=[3,4],
sens=[1,10]). Tests taking the ``mode`` fixture run in PYNATIVE and in GRAPH mode; in GRAPH
mode the computation is wrapped in a Cell so that it is traced, compiled and cached, and it
is called twice (the second call runs the compiled code)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops
from mindgrad import Parameter, ParameterTuple, Tensor
from mindgrad.core.tree import flatten

F32 = ms.float32


# --- fixtures and helpers ---------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _restore_pynative():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=request.param)
    assert ms.get_context("mode") == request.param
    return request.param


class Wrap(nn.Cell):
    """A Cell whose construct calls ``f`` (so GRAPH mode compiles the call)."""

    def __init__(self, f):
        super().__init__()
        self.f = f

    def construct(self, *args):
        return self.f(*args)


def run(f, *args):
    """``f(*args)``; in GRAPH mode through a compiled Cell, called twice (trace, then the
    cached compiled function), both calls checked equal."""
    if ms.get_context("mode") == ms.PYNATIVE_MODE:
        return f(*args)
    cell = Wrap(f)
    first = cell(*args)
    second = cell(*args)
    assert cell._graph is not None and len(cell._graph.cache) == 1
    (variants,) = cell._graph.cache.values()
    assert isinstance(variants, list) and len(variants) == 1, "not compiled"
    assert_tree(second, to_want(first))
    return second


def to_want(x: Any) -> Any:
    if isinstance(x, Tensor):
        return x.asnumpy()
    if isinstance(x, tuple):
        return tuple(to_want(v) for v in x)
    return x


def assert_tree(got: Any, want: Any, rtol: float = 1e-6, atol: float = 1e-6) -> None:
    """``want``: tuples for tuples, lists / arrays / floats for Tensors, ints and strings for
    ids. Checks the exact structure, shapes and values."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and not isinstance(got, Tensor), \
            f"expected a tuple, got {type(got).__name__}: {got!r}"
        assert len(got) == len(want), f"expected {len(want)} items, got {len(got)}: {got!r}"
        for g, w in zip(got, want):
            assert_tree(g, w, rtol, atol)
    elif isinstance(want, (int, str)) and not isinstance(want, bool):
        assert not isinstance(got, Tensor) and got == want, f"{got!r} != {want!r}"
    else:
        assert isinstance(got, Tensor), f"expected a Tensor, got {got!r}"
        w = np.asarray(want)
        assert got.shape == w.shape, f"shape {got.shape} != {w.shape}"
        np.testing.assert_allclose(got.asnumpy(), w, rtol=rtol, atol=atol)


def t32(v) -> Tensor:
    return Tensor(np.array(v, np.float32))


class Net(nn.Cell):
    """x * y * w + b"""

    def __init__(self):
        super().__init__()
        self.w = Parameter(t32([2.0]), name="w")
        self.b = Parameter(t32([3.0]), name="b")

    def construct(self, x, y):
        return x * y * self.w + self.b


X, Y, SENS = t32([1.0, 2.0]), t32([3.0, 4.0]), t32([1.0, 10.0])


# --- GradOperation ----------------------------------------------------------------------------
GRADOP_EXPECTED = {
    # (get_all, get_by_list, sens_param): result
    (False, False, False): [6, 8],
    (True, False, False): ([6, 8], [2, 4]),
    (False, True, False): ([11], [2]),
    (True, True, False): (([6, 8], [2, 4]), ([11], [2])),
    (False, False, True): [6, 80],
    (True, False, True): ([6, 80], [2, 40]),
    (False, True, True): ([83], [11]),
    (True, True, True): (([6, 80], [2, 40]), ([83], [11])),
}


@pytest.mark.parametrize("flags", list(GRADOP_EXPECTED), ids=lambda f: "all%d-list%d-sens%d" % f)
def test_grad_operation_combinations(mode, flags) -> None:
    get_all, get_by_list, sens_param = flags
    net = Net()
    op = ops.GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)
    gfn = op(net, ParameterTuple(net.trainable_params())) if get_by_list else op(net)
    args = (X, Y, SENS) if sens_param else (X, Y)
    got = run(gfn, *args)
    assert_tree(got, GRADOP_EXPECTED[flags])
    for leaf in flatten(got)[0]:
        assert leaf.dtype == F32
    # the network and its parameters are unchanged
    np.testing.assert_array_equal(net.w.asnumpy(), [2.0])
    np.testing.assert_array_equal(net.b.asnumpy(), [3.0])
    np.testing.assert_array_equal(X.asnumpy(), [1.0, 2.0])


@pytest.mark.parametrize("kind", ["ParameterTuple", "list", "tuple", "single", "reversed"])
def test_grad_operation_weight_containers(mode, kind) -> None:
    net = Net()
    weights = {"ParameterTuple": ParameterTuple(net.trainable_params()),
               "list": [net.w, net.b], "tuple": (net.w, net.b), "single": net.w,
               "reversed": [net.b, net.w]}[kind]
    got = run(ops.GradOperation(get_by_list=True)(net, weights), X, Y)
    want = {"single": [11], "reversed": ([2], [11])}.get(kind, ([11], [2]))
    assert_tree(got, want)


def test_get_by_list_without_weights_gives_all_trainable(mode) -> None:
    net = Net()
    assert_tree(run(ops.GradOperation(get_by_list=True)(net), X, Y), ([11], [2]))
    assert_tree(run(ops.GradOperation(get_all=True, get_by_list=True)(net), X, Y),
                (([6, 8], [2, 4]), ([11], [2])))


def test_requires_grad_false_parameter(mode) -> None:
    net = Net()
    net.b.requires_grad = False
    assert [p.name for p in net.trainable_params()] == ["w"]
    assert [p.name for p in net.untrainable_params()] == ["b"]
    assert_tree(run(ops.GradOperation(get_by_list=True)(net), X, Y), ([11],))
    # passed explicitly, it gets zeros in both modes (MindSpore's PYNATIVE behaviour)
    assert_tree(run(ops.GradOperation(get_by_list=True)(net, [net.w, net.b]), X, Y),
                ([11], [0]))


def test_tuple_list_dict_outputs_are_summed(mode) -> None:
    as_tuple = lambda x, y: (x * y, x + y)  # noqa: E731
    as_list = lambda x, y: [x * y, x + y]  # noqa: E731
    as_dict = lambda x, y: {"a": x * y, "b": x + y}  # noqa: E731
    for f in (as_tuple, as_list, as_dict):
        assert_tree(run(ops.GradOperation(get_all=True)(f), X, Y), ([4, 5], [2, 3]))
    # nested outputs and a sens with the same structure
    nested = lambda x, y: (x * y, (x + y, x * x))  # noqa: E731
    sens = (t32([1, 1]), (t32([0, 0]), t32([1, 2])))
    assert_tree(run(ops.GradOperation(get_all=True, sens_param=True)(nested), X, Y, sens),
                ([3 + 2, 4 + 8], [1, 2]))


def test_unused_input_and_constant_output_give_zeros(mode) -> None:
    xi = Tensor(np.array([1, 2], np.int32))
    got = run(ops.GradOperation(get_all=True)(lambda x, y, z: x * 2.0), X, Y, xi)
    assert_tree(got, ([2, 2], [0, 0], [0, 0]))
    assert got[1].dtype == F32 and got[2].dtype == ms.int32
    const = lambda x: Tensor(np.array([5.0, 6.0], np.float32))  # noqa: E731
    assert_tree(run(ops.GradOperation()(const), X), [0, 0])
    assert_tree(run(ops.grad(lambda x: x * 0 + 7.0), X), [0, 0])
    assert_tree(run(ops.grad(lambda x: 7.0), X), [0, 0])  # a Python float output


def test_int_input_keeps_dtype(mode) -> None:
    xi = Tensor(np.array([1, 2], np.int32))
    g = run(ops.grad(lambda x: ops.cast(x, F32) * 1.5), xi)
    assert g.dtype == ms.int32
    np.testing.assert_array_equal(g.asnumpy(), [1, 1])  # 1.5 truncated
    g = run(ops.grad(lambda x: ops.cast(x, F32) * ops.cast(x, F32)), xi)
    assert g.dtype == ms.int32
    np.testing.assert_array_equal(g.asnumpy(), [2, 4])


def test_python_scalar_inputs_get_no_slot(mode) -> None:
    f = lambda x, s: x * s  # noqa: E731
    assert_tree(run(ops.grad(f, (0, 1)), X, 2.0), [2, 2])
    assert_tree(run(ops.grad(f, 1), X, 2.0), ())
    assert_tree(run(ops.GradOperation(get_all=True)(f), X, 3.0), ([3, 3],))
    assert_tree(run(ops.GradOperation()(lambda s, x: x * s), 3.0, X), ())


# --- ops.grad -----------------------------------------------------------------------------------
def test_grad_positions(mode) -> None:
    net = Net()
    assert_tree(run(ops.grad(net), X, Y), [6, 8])
    assert_tree(run(ops.grad(net, 1), X, Y), [2, 4])
    assert_tree(run(ops.grad(net, (0,)), X, Y), [6, 8])
    assert_tree(run(ops.grad(net, (1,)), X, Y), [2, 4])
    assert_tree(run(ops.grad(net, (0, 1)), X, Y), ([6, 8], [2, 4]))
    assert_tree(run(ops.grad(net, (1, 0)), X, Y), ([2, 4], [6, 8]))
    assert_tree(run(ops.grad(net, [0, 1]), X, Y), ([6, 8], [2, 4]))


def test_grad_with_weights(mode) -> None:
    net = Net()
    ws = ParameterTuple(net.trainable_params())
    assert_tree(run(ops.grad(net, 0, ws), X, Y), ([6, 8], ([11], [2])))
    assert_tree(run(ops.grad(net, (0, 1), ws), X, Y), (([6, 8], [2, 4]), ([11], [2])))
    assert_tree(run(ops.grad(net, None, ws), X, Y), ([11], [2]))
    assert_tree(run(ops.grad(net, None, [net.b]), X, Y), ([2],))
    assert_tree(run(ops.grad(net, 0, ws, sens_param=True), X, Y, SENS),
                ([6, 80], ([83], [11])))


def test_grad_has_aux(mode) -> None:
    faux = lambda x, y: (x * y, x + y, y)  # noqa: E731
    assert_tree(run(ops.grad(faux, has_aux=True), X, Y), ([3, 4], ([4, 6], [3, 4])))
    faux2 = lambda x, y: (x * y, x * x)  # noqa: E731  (aux is not differentiated)
    assert_tree(run(ops.grad(faux2, (0, 1), has_aux=True), X, Y), (([3, 4], [1, 2]), ([1, 4],)))


def test_grad_return_ids_and_get_grad(mode) -> None:
    net = Net()
    res = run(ops.grad(net, 0, return_ids=True), X, Y)
    assert_tree(res, (0, [6, 8]))
    res = run(ops.grad(net, (0, 1), return_ids=True), X, Y)
    assert_tree(res, ((0, [6, 8]), (1, [2, 4])))
    assert_tree(ops.get_grad(res, 1), [2, 4])
    ws = ParameterTuple(net.trainable_params())
    res = run(ops.grad(net, (0, 1), ws, return_ids=True), X, Y)
    assert_tree(res, (((0, [6, 8]), (1, [2, 4])), (("w", [11]), ("b", [2]))))
    assert_tree(ops.get_grad(res, 0), [6, 8])
    assert_tree(ops.get_grad(res, net.w), [11])
    assert_tree(ops.get_grad(res, net.b), [2])
    with pytest.raises(RuntimeError, match="can not find the gradient for position or "
                                           "Parameter 5"):
        ops.get_grad(res, 5)


def test_value_and_grad(mode) -> None:
    net = Net()
    assert_tree(run(ops.value_and_grad(net), X, Y), ([9, 19], [6, 8]))
    assert_tree(run(ops.value_and_grad(net, (0, 1)), X, Y), ([9, 19], ([6, 8], [2, 4])))
    ws = ParameterTuple(net.trainable_params())
    assert_tree(run(ops.value_and_grad(net, None, ws), X, Y), ([9, 19], ([11], [2])))
    assert_tree(run(ops.value_and_grad(net, 0, ws), X, Y), ([9, 19], ([6, 8], ([11], [2]))))
    faux = lambda x, y: (x * y, x + y, y)  # noqa: E731
    assert_tree(run(ops.value_and_grad(faux, has_aux=True), X, Y),
                (([3, 8], [4, 6], [3, 4]), [3, 4]))
    two = lambda x, y: (x * y, x + y)  # noqa: E731
    assert_tree(run(ops.value_and_grad(two), X, Y), (([3, 8], [4, 6]), [4, 5]))


# --- forward mode -----------------------------------------------------------------------------
def test_jvp_forms(mode) -> None:
    net = Net()
    v = t32([1.0, 1.0])
    # d(x*y*w+b) = w*(y dx + x dy)
    assert_tree(run(lambda x, y: ops.jvp(net, (x, y), (v, v)), X, Y), ([9, 19], [8, 12]))
    assert_tree(run(lambda x, y: ops.jvp(net, [x, y], [v, t32([0, 0])]), X, Y),
                ([9, 19], [6, 8]))
    cube = lambda x: x * x * x  # noqa: E731
    assert_tree(run(lambda x: ops.jvp(cube, x, v), X), ([1, 8], [3, 12]))
    two = lambda x, y: (x * y, x + y)  # noqa: E731
    assert_tree(run(lambda x, y: ops.jvp(two, (x, y), (v, v)), X, Y),
                (([3, 8], [4, 6]), ([4, 6], [2, 2])))
    faux = lambda x, y: (x * y, x + y, y)  # noqa: E731
    assert_tree(run(lambda x, y: ops.jvp(faux, (x, y), (v, v), has_aux=True), X, Y),
                ([3, 8], [4, 6], ([4, 6], [3, 4])))
    # an output that does not depend on the inputs gets a zero tangent
    assert_tree(run(lambda x: ops.jvp(lambda x: (x * 2, Y), x, v), X),
                (([2, 4], [3, 4]), ([2, 2], [0, 0])))


# --- reverse mode -----------------------------------------------------------------------------
def test_vjp_seed_form_returns_grads(mode) -> None:
    class Cube(nn.Cell):
        def construct(self, x, y):
            return x ** 3 + y

    x = t32([[1, 2], [3, 4]])
    v = t32([[1, 1], [1, 1]])
    assert_tree(run(lambda x, y: ops.vjp(Cube(), (x, y), v), x, x),
                ([[2, 10], [30, 68]], ([[3, 12], [27, 48]], [[1, 1], [1, 1]])))


def test_vjp_2x_form(mode) -> None:
    net = Net()
    v = t32([1.0, 10.0])

    def use(x, y):
        out, vjp_fn = ops.vjp(net, x, y)
        return out, vjp_fn(v)

    assert_tree(run(use, X, Y), ([9, 19], ([6, 80], [2, 40])))

    def single(x):
        out, vjp_fn = ops.vjp(lambda x: x * x, x)
        return out, vjp_fn(v)

    assert_tree(run(single, X), ([1, 4], ([2, 40],)))  # a 1-tuple even for one input

    two = lambda x, y: (x * y, x + y)  # noqa: E731
    v2 = t32([0.0, 1.0])

    def tuple_out(x, y):
        out, vjp_fn = ops.vjp(two, x, y)
        return out, vjp_fn(v, v2), vjp_fn((v, v2))

    want_grads = ([3, 41], [1, 21])  # dx = v*y + v2, dy = v*x + v2
    assert_tree(run(tuple_out, X, Y), (([3, 8], [4, 6]), want_grads, want_grads))

    def weights(x, y):
        out, vjp_fn = ops.vjp(net, x, y, weights=ParameterTuple(net.trainable_params()))
        return vjp_fn(v)

    assert_tree(run(weights, X, Y), (([6, 80], [2, 40]), ([83], [11])))

    def aux(x, y):
        out, vjp_fn, a = ops.vjp(lambda x, y: (x * y, x + y), x, y, has_aux=True)
        return out, vjp_fn(v), a

    assert_tree(run(aux, X, Y), ([3, 8], ([3, 40], [1, 20]), [4, 6]))  # aux of 2 outputs: bare


def test_vjp_fn_can_be_called_again(mode) -> None:
    def use(x):
        out, vjp_fn = ops.vjp(lambda x: ops.sin(x) * x, x)
        return vjp_fn(t32([1, 0])), vjp_fn(t32([0, 1]))

    x = X.asnumpy().astype(np.float64)
    d = np.sin(x) + x * np.cos(x)
    assert_tree(run(use, X), (([d[0], 0],), ([0, d[1]],)), rtol=1e-5)


def test_nn_jvp_vjp_cells(mode) -> None:
    class SinCos(nn.Cell):
        def construct(self, x, y):
            return ops.sin(x) + ops.cos(y)

    class Cube(nn.Cell):
        def construct(self, x):
            return x * x * x

    x, y, v = t32([0.8, 0.6, 0.2]), t32([0.7, 0.4, 0.3]), t32([1, 1, 1])
    xs, ys = x.asnumpy().astype(np.float64), y.asnumpy().astype(np.float64)
    out = np.sin(xs) + np.cos(ys)
    assert_tree(run(lambda x, y, v: nn.Jvp(SinCos())(x, y, (v, v)), x, y, v),
                (out, np.cos(xs) - np.sin(ys)), rtol=1e-5)
    assert_tree(run(lambda x, y, v: nn.Vjp(SinCos())(x, y, v), x, y, v),
                (out, (np.cos(xs), -np.sin(ys))), rtol=1e-5)
    # a single input gives a bare Tensor
    assert_tree(run(lambda x, v: nn.Vjp(Cube())(x, v), X, t32([1, 1])), ([1, 8], [3, 12]))
    assert_tree(run(lambda x, v: nn.Jvp(Cube())(x, v), X, t32([1, 1])), ([1, 8], [3, 12]))


# --- Jacobians --------------------------------------------------------------------------------
def _jac_f(x, y):
    return ops.sin(x) * y[0] + ops.reduce_sum(x * x) * y, x * y


def test_jacfwd_equals_jacrev_and_closed_form(mode) -> None:
    x = Tensor(np.array([0.3, -0.7, 1.1]))
    y = Tensor(np.array([2.0, 0.5, -1.0]))
    xs, ys = x.asnumpy(), y.asnumpy()
    # closed forms of the two outputs' Jacobians
    d0x = np.diag(np.cos(xs) * ys[0]) + np.outer(ys, 2 * xs)
    d0y = np.outer(np.sin(xs), [1, 0, 0]) + np.diag(np.full(3, (xs * xs).sum()))
    d1x, d1y = np.diag(ys), np.diag(xs)
    for pos, want in ((0, (d0x, d1x)), (1, (d0y, d1y)), ((0, 1), ((d0x, d0y), (d1x, d1y)))):
        fwd = run(ops.jacfwd(_jac_f, pos), x, y)
        rev = run(ops.jacrev(_jac_f, pos), x, y)
        assert_tree(fwd, want, rtol=1e-12, atol=1e-12)
        assert_tree(rev, want, rtol=1e-12, atol=1e-12)


def test_jacobian_shapes_and_aux(mode) -> None:
    x = Tensor(np.arange(6.0).reshape(2, 3))
    f = lambda x: (ops.matmul(x, x.T), x.sum())  # noqa: E731
    jf, jr = run(ops.jacfwd(f), x), run(ops.jacrev(f), x)
    assert jf[0].shape == jr[0].shape == (2, 2, 2, 3)
    assert jf[1].shape == jr[1].shape == (2, 3)
    np.testing.assert_allclose(jf[0].asnumpy(), jr[0].asnumpy(), rtol=1e-12)
    np.testing.assert_array_equal(jr[1].asnumpy(), np.ones((2, 3)))
    # d(x x^T)[i,j]/dx[k,l] = delta_ik x[j,l] + delta_jk x[i,l]
    xs = x.asnumpy()
    want = np.einsum("ik,jl->ijkl", np.eye(2), xs) + np.einsum("jk,il->ijkl", np.eye(2), xs)
    np.testing.assert_allclose(jr[0].asnumpy(), want, rtol=1e-12)
    faux = lambda x: (x * x, x + 1, x * 3)  # noqa: E731
    v = Tensor(np.array([1.0, 2.0]))
    for jac in (ops.jacfwd, ops.jacrev):
        assert_tree(run(jac(faux, has_aux=True), v), ([[2, 0], [0, 4]], ([2, 3], [3, 6])))


def test_has_aux_two_outputs_gives_bare_aux() -> None:
    faux = lambda x: (x * x, x + 1)  # noqa: E731
    v = Tensor(np.array([1.0, 2.0]))
    assert_tree(ops.jvp(faux, v, v, has_aux=True)[2], [2, 3])
    assert_tree(ops.vjp(faux, v, has_aux=True)[2], [2, 3])
    assert_tree(ops.jacfwd(faux, has_aux=True)(v)[1], [2, 3])
    assert_tree(ops.jacrev(faux, has_aux=True)(v)[1], [2, 3])


# --- higher order -----------------------------------------------------------------------------
def cube(x):
    return x * x * x


class Cube(nn.Cell):
    def construct(self, x):
        return x * x * x


class GradCell(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad = ops.GradOperation()

    def construct(self, x):
        return self.grad(self.net)(x)


def test_higher_order_closed_forms(mode) -> None:
    go = ops.GradOperation()
    assert_tree(run(go(cube), X), [3, 12])
    assert_tree(run(go(go(cube)), X), [6, 12])
    assert_tree(run(go(go(go(cube))), X), [6, 6])
    assert_tree(run(go(go(go(go(cube)))), X), [0, 0])
    assert_tree(run(ops.grad(ops.grad(cube)), X), [6, 12])
    assert_tree(run(ops.grad(ops.grad(ops.grad(cube))), X), [6, 6])
    assert_tree(run(ops.grad(go(cube)), X), [6, 12])
    # nested inside Cells' construct (as in the seeds); GradCell in GRAPH mode compiles
    second = GradCell(GradCell(Cube()))
    assert_tree(second(X), [6, 12])
    assert_tree(second(X), [6, 12])
    third = GradCell(GradCell(GradCell(Cube())))
    assert_tree(third(X), [6, 6])
    if mode == ms.GRAPH_MODE:
        assert len(second._graph.cache) == 1 and len(third._graph.cache) == 1


def test_higher_order_sin(mode) -> None:
    x = Tensor(np.array([0.5, 1.0, 2.0]))
    xs = x.asnumpy()
    g = ops.grad
    for k, want in enumerate([np.cos(xs), -np.sin(xs), -np.cos(xs), np.sin(xs)]):
        f = ops.sin
        for _ in range(k + 1):
            f = g(f)
        assert_tree(run(f, x), want, rtol=1e-12, atol=1e-12)


def _scalar_f(x):
    # a non-separable function: its Hessian has off-diagonal terms
    return ops.reduce_sum(ops.sin(x) * ops.cumsum(x, 0)) + ops.reduce_prod(x, 0) ** 2


def _hessian_closed_form(xs):
    n = len(xs)
    c = np.cumsum(xs)
    H = np.zeros((n, n))
    # sum_i sin(x_i) * sum_{j<=i} x_j
    for i in range(n):
        H[i, i] += -np.sin(xs[i]) * c[i]
        for j in range(i + 1):
            H[i, j] += np.cos(xs[i])
            H[j, i] += np.cos(xs[i])
    # (prod x)^2: d2/dxi dxj = 2 * d(prod)/dxi d(prod)/dxj + 2 * prod * d2(prod)/dxidxj
    p = np.prod(xs)
    dp = np.array([p / xi for xi in xs])
    for i in range(n):
        for j in range(n):
            d2p = 0.0 if i == j else np.prod([xs[k] for k in range(n) if k not in (i, j)])
            H[i, j] += 2 * dp[i] * dp[j] + 2 * p * d2p
    return H


def test_hvp_and_hessian(mode) -> None:
    x = Tensor(np.array([0.3, -0.8, 1.2]))
    v = Tensor(np.array([1.0, -2.0, 0.5]))
    H = _hessian_closed_form(x.asnumpy())
    g = ops.grad(_scalar_f)
    # forward over reverse
    hvp_fwd = run(lambda x, v: ops.jvp(g, x, v)[1], x, v)
    # reverse over reverse: grad of <grad f, v>
    hvp_rev = run(ops.grad(lambda x, v: ops.reduce_sum(g(x) * v)), x, v)
    np.testing.assert_allclose(hvp_fwd.asnumpy(), H @ v.asnumpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hvp_rev.asnumpy(), hvp_fwd.asnumpy(), rtol=1e-12, atol=1e-12)
    hess = [run(ops.jacfwd(ops.jacrev(_scalar_f)), x), run(ops.jacrev(ops.jacrev(_scalar_f)), x),
            run(ops.jacfwd(ops.jacfwd(_scalar_f)), x), run(ops.jacrev(g), x)]
    if hasattr(ops, "hessian"):
        hess.append(run(ops.hessian(_scalar_f), x))
    for h in hess:
        hn = h.asnumpy()
        assert hn.shape == (3, 3)
        np.testing.assert_allclose(hn, hn.T, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(hn, H, rtol=1e-10, atol=1e-12)


def test_second_order_mixed_partials(mode) -> None:
    # the s10 seed: f = x^2 y; GradOperation(get_all, sens_param) of the first-order grads
    class Net2(nn.Cell):
        def construct(self, x, y):
            return x * x * y

    first = ops.GradOperation(get_all=True)(Net2())
    second = ops.GradOperation(get_all=True, sens_param=True)(first)
    x, y = t32([4.0]), t32([5.0])
    one, zero = t32([1.0]), t32([0.0])
    assert_tree(run(second, x, y, (one, zero)), ([10], [8]))
    assert_tree(run(second, x, y, (zero, one)), ([8], [0]))


# --- stop_gradient --------------------------------------------------------------------------
def test_stop_gradient(mode) -> None:
    f = lambda x, y: ops.stop_gradient(x * y) + x * y  # noqa: E731
    assert_tree(run(f, X, Y), [6, 16])
    assert_tree(run(ops.grad(f, (0, 1)), X, Y), ([3, 4], [1, 2]))

    def on_tuple(x, y):
        a, b = ops.stop_gradient((x * y, x + y))
        return a * x + b

    assert_tree(run(ops.grad(on_tuple), X, Y), [3, 8])
    assert_tree(run(ops.grad(lambda x: ops.StopGradient()(x) * x), X), [1, 2])
    assert_tree(run(ops.grad(lambda x: ops.stop_gradient(x)), X), [0, 0])
    # higher order: stop_gradient also blocks the second derivative
    assert_tree(run(ops.grad(ops.grad(lambda x: ops.stop_gradient(x * x) * x)), X), [0, 0])


# --- custom bprop -----------------------------------------------------------------------------
class MatMulBprop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()

    def construct(self, x, y):
        return self.matmul(x, y)

    def bprop(self, x, y, out, dout):
        return x + 1, y + 1


class Doubler(nn.Cell):
    """Forward x*x but a custom gradient 10*dout (not the true derivative)."""

    def construct(self, x):
        return x * x

    def bprop(self, x, out, dout):
        return (dout * 10,)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Doubler()
        self.w = Parameter(t32([3.0]), name="w")

    def construct(self, x):
        return self.inner(x * self.w) * 2 + x


def test_custom_bprop_alone(mode) -> None:
    x = t32([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]])
    y = t32([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]])
    got = run(ops.GradOperation(get_all=True)(MatMulBprop()), x, y)
    assert_tree(got, (x.asnumpy() + 1, y.asnumpy() + 1))
    # the forward value is the real construct
    np.testing.assert_allclose(run(MatMulBprop(), x, y).asnumpy(), x.asnumpy() @ y.asnumpy(),
                               rtol=1e-6)


def test_custom_bprop_inside_network(mode) -> None:
    net = Outer()
    # out = 2 * inner(x*w) + x; d/dx = 2 * 10 * w + 1 = 61 (custom), d/dw = 2 * 10 * x
    assert_tree(run(net, X), [2 * 9 + 1, 2 * 36 + 2])
    assert_tree(run(ops.GradOperation()(net), X), [61, 61])
    ws = ParameterTuple(net.trainable_params())
    assert_tree(run(ops.GradOperation(get_all=True, get_by_list=True)(net, ws), X),
                (([61, 61],), ([60],)))
    # dout reaches the bprop scaled by the sens
    assert_tree(run(ops.GradOperation(sens_param=True)(net), X, t32([1.0, 0.5])), [61, 30.5])


def test_custom_bprop_sees_inputs_out_and_dout(mode) -> None:
    seen = {}

    class Spy(nn.Cell):
        def construct(self, x, y):
            return x * y

        def bprop(self, x, y, out, dout):
            seen["n"] = seen.get("n", 0) + 1
            return dout * out, dout * x

    x, y = t32([1.0, 2.0]), t32([3.0, 5.0])
    assert_tree(run(ops.grad(Spy(), (0, 1), sens_param=True), x, y, t32([1.0, 2.0])),
                ([3, 20], [1, 4]))
    assert seen["n"] >= 1


# --- Parameters and Cells --------------------------------------------------------------------
class Dense(nn.Cell):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = Parameter(Tensor(np.full((n_in, n_out), 0.5, np.float32)))
        self.bias = Parameter(Tensor(np.zeros(n_out, np.float32)), name="bias")

    def construct(self, x):
        return ops.matmul(x, self.weight) + self.bias


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = Dense(2, 3)
        self.fc2 = Dense(3, 1)
        self.scale = Parameter(t32([2.0]), name="scale", requires_grad=False)

    def construct(self, x):
        return self.fc2(ops.tanh(self.fc1(x))) * self.scale


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = Parameter(t32([1.0]))

    def construct(self, x):
        return self.block(x) * self.head


def test_parameter_names_and_traversal() -> None:
    m = Model()
    names = [n for n, _ in m.parameters_and_names()]
    # a cell's own parameters first, then its sub-cells' (MindSpore's order)
    assert names == ["head", "block.scale", "block.fc1.weight", "block.fc1.bias",
                     "block.fc2.weight", "block.fc2.bias"]
    assert [p.name for _, p in m.parameters_and_names()] == names
    assert [p.name for p in m.trainable_params()] == [n for n in names if n != "block.scale"]
    assert [p.name for p in m.untrainable_params()] == ["block.scale"]
    assert [n for n, _ in m.cells_and_names()] == ["", "block", "block.fc1", "block.fc2"]
    assert list(m.parameters_dict()) == names
    assert repr(m.block.scale) == ("Parameter (name=block.scale, shape=(1,), dtype=Float32, "
                                   "requires_grad=False)")
    # a Parameter shared by two cells is listed once
    shared = Model()
    shared.block.fc2.bias = shared.block.fc1.bias
    assert len(list(shared.get_parameters())) == 5


def test_gradients_of_all_trainable_params(mode) -> None:
    m = Model()
    x = t32([[1.0, -1.0], [0.5, 2.0]])
    grads = run(ops.GradOperation(get_by_list=True)(m), x)
    assert len(grads) == 5
    shapes = [g.shape for g in grads]
    assert shapes == [(1,), (2, 3), (3,), (3, 1), (1,)]
    # closed form in NumPy
    W1, W2 = np.full((2, 3), 0.5), np.full((3, 1), 0.5)
    xs = x.asnumpy().astype(np.float64)
    h = np.tanh(xs @ W1)
    out = h @ W2 * 2
    dh = np.ones((2, 1)) @ W2.T * 2 * (1 - h * h)
    want = [[out.sum()], xs.T @ dh, dh.sum(0), h.T @ np.ones((2, 1)) * 2, [2.0 * 2]]
    for g, w in zip(grads, want):
        np.testing.assert_allclose(g.asnumpy(), np.asarray(w), rtol=1e-5)


def test_lambdas_and_plain_functions(mode) -> None:
    def plain(x, y):
        return ops.exp(x) * y

    assert_tree(run(ops.grad(lambda x: ops.reduce_sum(x * x)), X), [2, 4])
    assert_tree(run(ops.GradOperation(get_all=True)(plain), X, Y),
                (np.exp([1.0, 2.0]) * [3, 4], np.exp([1.0, 2.0])), rtol=1e-6)
    assert_tree(run(lambda x: ops.jvp(lambda x: x * 3, x, x), X), ([3, 6], [3, 6]))
    assert_tree(run(ops.grad(ms.jit(plain)), X, Y), np.exp([1.0, 2.0]) * [3, 4])


def test_parameter_gradient_closure_over_cell_attributes(mode) -> None:
    # weights used through a plain function that closes over the Parameters
    net = Net()

    def f(x):
        return ops.reduce_sum(x * net.w * net.w)

    assert_tree(run(ops.grad(f, None, [net.w]), X), ([12],))
    assert_tree(run(ops.grad(f, 0, [net.w]), X), ([4, 4], ([12],)))


def test_higher_order_with_weights(mode) -> None:
    class Sq(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(t32([2.0]), name="w")
            self.u = Parameter(Tensor(np.ones((2, 2), np.float32)), name="u")

        def construct(self, x, y):
            return x * y * self.w * self.w

    net = Sq()
    # f = sum(x*y) w^2: d/dx (df/dw) = 2 w y; d/dw (df/dx) summed = 2 w sum(y)
    assert_tree(run(lambda x, y: ops.grad(lambda x: ops.grad(net, None, [net.w])(x, y)[0].sum())(x), X, Y),
                [12, 16])
    assert_tree(run(ops.grad(lambda x, y: ops.grad(net, 0)(x, y).sum(), None, [net.w]), X, Y),
                ([28],))
    # a weight the output does not use gets zeros of its shape
    assert_tree(run(ops.GradOperation(get_by_list=True)(net, [net.w, net.u]), X, Y),
                ([44], [[0, 0], [0, 0]]))


def test_same_parameter_listed_twice(mode) -> None:
    net = Net()
    assert_tree(run(ops.GradOperation(get_by_list=True)(net, [net.w, net.b, net.w]), X, Y),
                ([11], [2], [11]))


def test_custom_bprop_cell_parameters_get_zero_gradient(mode) -> None:
    # the bprop replaces the cell's whole reverse rule: its own Parameters receive nothing
    class Scaled(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(t32([3.0]), name="w")

        def construct(self, x):
            return x * self.w

        def bprop(self, x, out, dout):
            return (dout * 10,)

    net = Scaled()
    assert_tree(run(net, X), [3, 6])
    assert_tree(run(ops.GradOperation(get_all=True, get_by_list=True)(net, [net.w]), X),
                (([10, 10],), ([0],)))
    assert_tree(run(ops.GradOperation(get_by_list=True)(net, [net.w]), X), ([0],))


def test_custom_bprop_given_a_differentiated_parameter(mode) -> None:
    # A bprop Cell called with a Parameter that grad differentiates as a weight: the weight
    # gets the bprop's cotangent for that input (here twice the true derivative).
    class Scale(nn.Cell):
        def construct(self, x, w):
            return x * w

        def bprop(self, x, w, out, dout):
            return dout * w, 2 * dout * x

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(t32([1.0, 2.0, 3.0]), name="w")
            self.scale = Scale()

        def construct(self, x):
            return (self.scale(x, self.w) ** 2).sum()

    net, x = Net(), t32([0.5, 1.0, 2.0])
    xv, wv = x.asnumpy(), net.w.asnumpy()
    # loss = sum((x w)^2), dout = 2 x w: d/dx = dout w = 2 x w^2, d/dw = 2 dout x = 4 x^2 w
    assert_tree(run(ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params()),
                    x), ((2 * xv * wv ** 2,), (4 * xv ** 2 * wv,)))
    assert_tree(run(ops.GradOperation(get_by_list=True)(net, ParameterTuple([net.w])), x),
                (4 * xv ** 2 * wv,))
    assert_tree(run(ops.GradOperation()(net), x), 2 * xv * wv ** 2)  # w not differentiated
    # the bprop Cell differentiated directly, its Parameter argument given by the caller
    scale = Scale()
    w = Parameter(t32([1.0, 2.0, 3.0]), name="w2")
    assert_tree(run(ops.GradOperation(get_by_list=True)(lambda a: scale(a, w), [w]), x),
                (2 * xv,))
