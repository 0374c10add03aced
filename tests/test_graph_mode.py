"""GRAPH mode: tracing, the compile cache, guards on value-dependent control flow, Parameter
updates, ``jit`` functions and methods, and the graph passes (constant folding, common
subexpressions, dead code) seen in the generated source."""
from __future__ import annotations

import re

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops
from mindgrad import Parameter, Tensor


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def t(v, dtype=np.float64) -> Tensor:
    return Tensor(np.array(v, dtype))


def variants(graph) -> list:
    """The compiled variants of every cache entry (fails if an entry fell back to eager)."""
    out = []
    for v in graph.cache.values():
        assert isinstance(v, list), f"signature not compiled: {v!r}"
        out.extend(v)
    return out


class Counting(nn.Cell):
    """Counts how often its Python construct runs (only while tracing, once compiled)."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(t([2.0]), name="w")
        self.calls = 0

    def construct(self, x, y):
        object.__setattr__(self, "calls", self.calls + 1)
        return ops.sin(x) * y * self.w


def test_cache_reused_for_same_signature() -> None:
    net = Counting()
    x, y = t([0.5, 1.0]), t([2.0, 3.0])
    want = np.sin(x.asnumpy()) * y.asnumpy() * 2
    for _ in range(3):
        np.testing.assert_allclose(net(x, y).asnumpy(), want, rtol=1e-15)
    assert net.calls == 1  # traced once, later calls ran the compiled function
    assert len(net._graph.cache) == 1 and len(variants(net._graph)) == 1
    # new values, same shapes: still the cached function, with the new values
    x2 = t([-1.0, 0.25])
    np.testing.assert_allclose(net(x2, y).asnumpy(), np.sin(x2.asnumpy()) * y.asnumpy() * 2)
    assert net.calls == 1 and len(net._graph.cache) == 1


def test_different_shapes_and_dtypes_retrace() -> None:
    net = Counting()
    net(t([0.5, 1.0]), t([2.0, 3.0]))
    out = net(t([[0.5], [1.0]]), t([2.0, 3.0, 4.0]))
    assert out.shape == (2, 3)
    np.testing.assert_allclose(out.asnumpy(), np.sin([[0.5], [1.0]]) * [2.0, 3.0, 4.0] * 2)
    assert net.calls == 2 and len(net._graph.cache) == 2
    out = net(t([0.5, 1.0], np.float32), t([2.0, 3.0], np.float32))
    assert net.calls == 3 and len(net._graph.cache) == 3
    np.testing.assert_allclose(out.asnumpy(), np.sin([0.5, 1.0]) * [2.0, 3.0] * 2, rtol=1e-6)
    # the first signature is still cached
    net(t([7.0, 8.0]), t([1.0, 1.0]))
    assert net.calls == 3


def test_python_scalar_arguments_are_part_of_the_key() -> None:
    class Scale(nn.Cell):
        def construct(self, x, k):
            return x * k

    net = Scale()
    x = t([1.0, 2.0])
    np.testing.assert_array_equal(net(x, 2.0).asnumpy(), [2, 4])
    np.testing.assert_array_equal(net(x, 3.0).asnumpy(), [3, 6])
    np.testing.assert_array_equal(net(x, 2.0).asnumpy(), [2, 4])
    assert len(net._graph.cache) == 2


class Branchy(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(t([2.0]), name="w")
        self.calls = 0

    def construct(self, x):
        object.__setattr__(self, "calls", self.calls + 1)
        if x.sum() > 0:
            out = x * self.w
        else:
            out = -x
        if x[0] > 5.0:
            out = out + 100.0
        return out


def _branchy_ref(x: np.ndarray) -> np.ndarray:
    out = x * 2.0 if x.sum() > 0 else -x
    return out + 100.0 if x[0] > 5.0 else out


def test_value_dependent_branches_are_guarded() -> None:
    net = Branchy()
    inputs = [[1.0, 2.0], [-1.0, -2.0], [3.0, -1.0], [-4.0, 1.0], [6.0, 1.0], [1.0, 2.0],
              [6.0, -10.0], [-3.0, -3.0]]
    for v in inputs:
        np.testing.assert_allclose(net(t(v)).asnumpy(), _branchy_ref(np.array(v)), err_msg=str(v))
    # one signature; one variant per distinct path taken
    assert len(net._graph.cache) == 1
    assert len(variants(net._graph)) == 4
    assert net.calls == 4
    for src in (v.source for v in variants(net._graph)):
        assert "_GuardFail" in src


def test_python_numbers_from_tensors_specialize_but_stay_correct() -> None:
    class Scaled(nn.Cell):
        def construct(self, x):
            k = float(x[0])  # a Python number taken from a tensor value
            return x * k if k > 0 else x - k

    net = Scaled()
    for k in range(-6, 7):  # more distinct values than the variants kept per signature
        v = np.array([float(k), 2.0])
        want = v * v[0] if v[0] > 0 else v - v[0]
        np.testing.assert_allclose(net(t(v)).asnumpy(), want)
        np.testing.assert_allclose(net(t([1.5, 1.0])).asnumpy(), [2.25, 1.5])
    assert len(net._graph.cache) == 1


def test_gradient_through_branches() -> None:
    class Grad(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x):
            return ops.grad(lambda x: self.net(x).sum())(x)

    g = Grad(Branchy())
    for v, want in (([1.0, 2.0], [2, 2]), ([-1.0, -2.0], [-1, -1]), ([1.0, 2.0], [2, 2]),
                    ([-5.0, 1.0], [-1, -1])):
        np.testing.assert_array_equal(g(t(v)).asnumpy(), want)
    assert len(variants(g._graph)) == 2


def test_print_and_asnumpy_inside_construct(capsys) -> None:
    class Printing(nn.Cell):
        def construct(self, x):
            y = x * 2
            print(y)
            host = y.asnumpy()
            return y + float(host.sum())

    net = Printing()
    for v in ([1.0, 2.0], [3.0, -1.0], [0.5, 0.5]):
        x = np.array(v)
        np.testing.assert_allclose(net(t(v)).asnumpy(), 2 * x + 2 * x.sum())
        assert capsys.readouterr().out.strip() == str(2 * x)
    # the values escaped to Python: this signature runs eagerly (still correct)
    assert list(net._graph.cache.values()) == ["eager"]


def test_parameter_updates_between_calls_are_seen() -> None:
    net = Counting()
    x, y = t([0.5, 1.0]), t([2.0, 3.0])
    base = np.sin(x.asnumpy()) * y.asnumpy()
    np.testing.assert_allclose(net(x, y).asnumpy(), base * 2)
    net.w.set_data(t([5.0]))
    np.testing.assert_allclose(net(x, y).asnumpy(), base * 5)
    net.w.set_data(Tensor(np.array([-1.0], np.float32)))  # cast to the parameter's dtype
    assert net.w.dtype == ms.float64
    np.testing.assert_allclose(net(x, y).asnumpy(), -base)
    assert net.calls == 1
    # compiled gradients follow the new value too
    gw = GradWeights(net)
    np.testing.assert_allclose(gw(x, y)[0].asnumpy(), [base.sum()])  # d/dw = sum(sin(x)*y)
    grad_x = GradOperationNet(net)
    np.testing.assert_allclose(grad_x(x, y).asnumpy(), -np.cos(x.asnumpy()) * y.asnumpy())
    net.w.set_data(t([4.0]))
    np.testing.assert_allclose(grad_x(x, y).asnumpy(), np.cos(x.asnumpy()) * y.asnumpy() * 4)
    np.testing.assert_allclose(net(x, y).asnumpy(), base * 4)
    assert len(variants(grad_x._graph)) == 1 and len(variants(net._graph)) == 1


class GradWeights(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad = ops.GradOperation(get_by_list=True)

    def construct(self, x, y):
        return self.grad(self.net, [self.net.w])(x, y)


class GradOperationNet(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad = ops.GradOperation()

    def construct(self, x, y):
        return self.grad(self.net)(x, y)


def test_compiled_gradient_net_runs_cached_code() -> None:
    net = Counting()
    g = GradOperationNet(net)
    x, y = t([0.5, 1.0]), t([2.0, 3.0])
    for _ in range(3):
        np.testing.assert_allclose(g(x, y).asnumpy(), np.cos(x.asnumpy()) * y.asnumpy() * 2)
    assert net.calls == 1
    (src,) = [v.source for v in variants(g._graph)]
    assert "return (" in src


def test_jit_function() -> None:
    calls = []

    @ms.jit
    def f(x, y):
        calls.append(1)
        return ops.exp(x) * y + 1.0

    x, y = t([0.0, 1.0]), t([2.0, 3.0])
    for _ in range(3):
        np.testing.assert_allclose(f(x, y).asnumpy(), np.exp([0.0, 1.0]) * [2, 3] + 1)
    assert len(calls) == 1 and len(f.graphs) == 1
    # jit works in PYNATIVE mode too, and as a decorator with arguments
    ms.set_context(mode=ms.PYNATIVE_MODE)

    @ms.jit()
    def g(x):
        return x * x

    np.testing.assert_array_equal(g(x).asnumpy(), [0, 1])
    np.testing.assert_array_equal(g(y).asnumpy(), [4, 9])
    assert len(g.graphs) == 1
    # differentiating through a jit function
    np.testing.assert_array_equal(ops.grad(g)(y).asnumpy(), [4, 6])


def test_jit_method_and_jit_construct() -> None:
    class Model:
        def __init__(self, k):
            self.k = k

        @ms.jit
        def apply(self, x):
            return x * self.k

    a, b = Model(2.0), Model(3.0)
    x = t([1.0, 2.0])
    np.testing.assert_array_equal(a.apply(x).asnumpy(), [2, 4])
    np.testing.assert_array_equal(b.apply(x).asnumpy(), [3, 6])
    np.testing.assert_array_equal(a.apply(x).asnumpy(), [2, 4])

    ms.set_context(mode=ms.PYNATIVE_MODE)

    class JitNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(t([2.0]), name="w")

        @ms.jit
        def construct(self, x):
            return ops.tanh(x) * self.w

    net = JitNet()
    np.testing.assert_allclose(net(x).asnumpy(), np.tanh([1.0, 2.0]) * 2)
    net.w.set_data(t([-1.0]))
    np.testing.assert_allclose(net(x).asnumpy(), -np.tanh([1.0, 2.0]))
    np.testing.assert_allclose(ops.grad(net)(x).asnumpy(), -(1 - np.tanh([1.0, 2.0]) ** 2))


# --- graph passes, seen in the generated source ----------------------------------------------
def _body(src: str) -> list:
    """The computing lines (not the ``del`` lines that free dead temporaries)."""
    return [line.strip() for line in src.splitlines()[1:]
            if not line.strip().startswith("del ")]


def _fn_of(jitted) -> object:
    (vs,) = jitted._graph.cache.values()
    return vs[0].fn


_SYMBOL = {np.multiply: "*", np.add: "+", np.subtract: "-", np.true_divide: "/"}


def _arith(jitted, symbol: str, line: str | None = None) -> int:
    """How many ``symbol`` operations (``*``, ``+``, ...) the generated code (or one of its
    lines) runs: inline operators and ufunc calls that write into a dead operand."""
    (src,) = jitted.graphs
    ns = _fn_of(jitted).__globals__
    n = 0
    for ln in [line] if line is not None else _body(src):
        n += ln.count(f" {symbol} ")
        n += sum(_SYMBOL.get(ns[u]) == symbol for u in re.findall(r"\b(_u\d+)\(", ln))
    return n


def test_cse_dce_and_constant_folding() -> None:
    c = t([1.0, 2.0])

    @ms.jit
    def f(x, y):
        a = ops.sin(x) * y
        b = ops.sin(x) * y  # the same subexpression
        unused = ops.exp(x) * 100.0  # noqa: F841  (dead)
        k = ops.cos(c) * 2.0 + 1.0  # only constants: folded
        z = x * 1.0 + 0.0  # identities
        return a + b + k + z

    x, y = t([0.5, 0.7]), t([1.0, 3.0])
    xs, ys = x.asnumpy(), y.asnumpy()
    want = 2 * np.sin(xs) * ys + np.cos([1.0, 2.0]) * 2 + 1 + xs
    np.testing.assert_allclose(f(x, y).asnumpy(), want, rtol=1e-15)
    np.testing.assert_allclose(f(x, y).asnumpy(), want, rtol=1e-15)
    (src,) = f.graphs
    body = _body(src)
    fn = _fn_of(f)
    impls = [v for k, v in fn.__globals__.items() if k.startswith("_f")]
    assert impls.count(np.sin) == 1, src  # sin(x) computed once
    assert np.exp not in impls and np.cos not in impls, src  # exp dead, cos folded
    assert _arith(f, "*") == 1, src  # one multiply: sin(x) * y
    assert not any("1.0" in line or "0.0" in line or "_s" in line for line in body), src
    assert len(body) == 6, src  # sin, mul, add, add constant, add x, return


def test_gradient_graph_is_optimized() -> None:
    g = ms.jit(ops.grad(lambda x: (ops.sin(x) * ops.sin(x)).sum()))
    x = t([0.3, 1.2])
    np.testing.assert_allclose(g(x).asnumpy(), 2 * np.sin(x.asnumpy()) * np.cos(x.asnumpy()))
    (src,) = g.graphs
    impls = [v for k, v in _fn_of(g).__globals__.items() if k.startswith("_f")]
    assert impls.count(np.sin) == 1 and impls.count(np.cos) == 1, src
    # no ones_like / zeros for the seed of a sum: folded into constants
    assert len(_body(src)) <= 6, src


def test_unused_input_and_constant_output() -> None:
    @ms.jit
    def f(x, y):
        return x * 0.0 + ops.reduce_sum(t([1.0, 2.0]))

    np.testing.assert_array_equal(f(t([5.0, 6.0]), t([1.0])).asnumpy(), [3.0, 3.0])
    (src,) = f.graphs
    assert "v1" not in "\n".join(_body(src)), src  # y is never read


def test_float_of_one_element_tensor_in_graph_mode() -> None:
    class Scale(nn.Cell):
        def construct(self, x):
            return x * float(x.sum(keepdims=True)) + int(x[0:1])

    net = Scale()
    for v in ([1.0, 2.0], [1.0, 2.0], [2.0, 2.0]):
        x = np.array(v)
        np.testing.assert_allclose(net(t(v)).asnumpy(), x * x.sum() + int(x[0]))


def test_numpy_scalars_as_operands() -> None:
    @ms.jit
    def f(x):
        return x * np.sqrt(2.0) + np.float64(1.5) - np.int64(1)

    x = t([1.0, 2.0])
    want = np.array([1.0, 2.0]) * np.sqrt(2.0) + 0.5
    for _ in range(3):  # the second call runs the generated code
        np.testing.assert_allclose(f(x).asnumpy(), want, rtol=1e-15)
    assert len(f.graphs) == 1


def test_branch_on_parameter_value_follows_set_data() -> None:
    class Gate(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(t([1.0]), name="w")

        def construct(self, x):
            if self.w > 0:
                return x * self.w
            return x - self.w

    net = Gate()
    x = t([1.0, 2.0])
    for w, want in ((1.0, [1, 2]), (-2.0, [3, 4]), (3.0, [3, 6]), (-1.0, [2, 3])):
        net.w.set_data(t([w]))
        np.testing.assert_array_equal(net(x).asnumpy(), want)
    assert len(variants(net._graph)) == 2


def test_value_dependent_mask_shape() -> None:
    @ms.jit
    def positive_mean(x):
        return ops.reduce_mean(x[x > 0])

    for v in ([1.0, 2.0, -3.0], [1.0, -2.0, -3.0], [4.0, 5.0, 6.0]):
        xn = np.array(v)
        np.testing.assert_allclose(positive_mean(t(v)).asnumpy(), xn[xn > 0].mean())


def test_broadcast_one_cotangent_is_folded() -> None:
    """The cotangent of a sum is a stride-0 broadcast of 1 (any size): multiplying by it is
    an identity the pass removes, so the backward of sum(x * v) is only v."""
    g = ms.jit(ops.grad(lambda x, v: (x * v).sum()))
    x, v = t(np.ones((20, 20))), t(np.arange(400.0).reshape(20, 20))
    np.testing.assert_array_equal(g(x, v).asnumpy(), v.asnumpy())
    (src,) = g.graphs
    assert _arith(g, "*") == 0, src


def test_one_result_of_a_multiple_result_primitive_in_compiled_code() -> None:
    """stack's reverse rule unstacks into one piece when one tensor is stacked: the
    compiled function unpacks that 1-tuple (its second call used to index the tuple)."""
    x = t(np.arange(12.0).reshape(3, 4))
    g = ms.jit(ops.grad(lambda a: (ops.stack((ops.flip(a, 0),))[0][:, :3] ** 2).sum()))
    want = np.zeros((3, 4))
    want[:, :3] = 2 * np.arange(12.0).reshape(3, 4)[:, :3]
    for _ in range(2):  # the first call traces, the second runs the compiled function
        np.testing.assert_array_equal(g(x).asnumpy(), want)


def test_commuted_products_and_sums_are_one_subexpression() -> None:
    @ms.jit
    def f(x, y):
        return (x * y + y * x) * (x + y) - (y + x) * 2.0

    x, y = t([0.5, -1.5]), t([2.0, 3.0])
    xs, ys = x.asnumpy(), y.asnumpy()
    np.testing.assert_allclose(f(x, y).asnumpy(), (2 * xs * ys) * (xs + ys) - (ys + xs) * 2,
                               rtol=1e-15)
    (src,) = f.graphs
    body = _body(src)
    assert _arith(f, "*") == 3, src  # x*y once, then two products
    assert _arith(f, "+") == 2, src  # x*y + x*y, x + y once
    # second derivatives through tanh: d(1 - y^2) = -(t y + y t) makes one product
    g = ms.jit(ops.grad(lambda z: ops.grad(lambda w: ops.tanh(w).sum())(z).sum()))
    np.testing.assert_allclose(g(x).asnumpy(), -2 * np.tanh(xs) * (1 - np.tanh(xs) ** 2),
                               rtol=1e-12)


def test_full_constant_neutral_operands_are_folded() -> None:
    """x * ones and x + zeros with constant arrays of any size (not only broadcast scalars)
    are x; a constant that only starts with the neutral value is kept."""
    ones, zeros = t(np.ones(300)), t(np.zeros(300))
    almost = np.ones(300)
    almost[-1] = 2.0
    f = ms.jit(lambda x: (x * ones + zeros) * t(almost))
    x = t(np.linspace(-1.0, 1.0, 300))
    for _ in range(2):
        np.testing.assert_array_equal(f(x).asnumpy(), x.asnumpy() * almost)
    (src,) = f.graphs
    body = _body(src)
    assert len(body) == 2 and _arith(f, "*", body[0]) == 1 and _arith(f, "+") == 0, src


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_python_numbers_run_as_typed_scalars(dtype) -> None:
    """Python numbers in arithmetic become 0-d arrays of the result's dtype in the
    generated code (NumPy's conversion, done once), with results equal to eager mode's;
    a number the dtype cannot hold (exactly, for an int) stays a Python number."""
    def fn(x):
        return (2.5 * x + 1) / 3.0 - 0.1 + x * 1e6 + x * 2049 - 24 * x

    x = t(np.linspace(-3.0, 3.0, 41), dtype)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = fn(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    f = ms.jit(fn)
    for _ in range(2):
        got = f(x).asnumpy()
        assert got.dtype == eager.dtype
        np.testing.assert_array_equal(got, eager)
    (src,) = f.graphs
    ns = _fn_of(f).__globals__
    typed = {k: v for k, v in ns.items() if k.startswith("_s")}
    assert typed and all(v.shape == () and v.dtype == dtype for v in typed.values()), typed
    values = sorted(float(v) for v in typed.values())
    held = [2.5, 1.0, 3.0, 0.1, 24.0] + ([1e6, 2049.0] if dtype != np.float16 else [])
    assert values == sorted(float(dtype(v)) for v in held), (values, src)


def test_dead_temporaries_are_reused_only_when_nothing_else_sees_them() -> None:
    """An elementwise result may be written into an operand that dies there (``out=``),
    but never into an input, a constant, a Parameter, an output, or a temporary that a
    view (a reshape) still shows."""
    w = Parameter(t(np.arange(6.0).reshape(2, 3)), name="w")
    c = t(np.full((2, 3), 0.5))

    def fn(x):
        a = x * 2.0  # a temporary, read once more below: reused by its last reader
        b = (a + 1.0) * c - w  # chains of temporaries: each step writes into the last
        v = x * 3.0
        r = ops.reshape(v, (3, 2))  # a view of v: v must keep its values
        d = v - 1.0
        return b, r, d, x * w

    x = t(np.linspace(-1.0, 1.0, 6).reshape(2, 3))
    xs, ws = x.asnumpy().copy(), w.asnumpy().copy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = [o.asnumpy() for o in fn(x)]
    ms.set_context(mode=ms.GRAPH_MODE)
    f = ms.jit(fn)
    for _ in range(3):
        got = [o.asnumpy() for o in f(x)]
        for g, e in zip(got, eager):
            np.testing.assert_array_equal(g, e)
        np.testing.assert_array_equal(x.asnumpy(), xs)
        np.testing.assert_array_equal(w.asnumpy(), ws)
        np.testing.assert_array_equal(c.asnumpy(), 0.5)
    (src,) = f.graphs
    assert src.count("out=") == 3, src  # a + 1.0, (...) * c, (...) - w
