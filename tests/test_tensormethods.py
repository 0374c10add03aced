"""The Tensor methods against MindSpore 2.10 (``tests/fixtures/tensormethods.json``, recorded
by ``tools/record_catalogue.py --suite tensormethods`` from ``tests/tensormethods_cases.py``):
shapes, dtypes, values and gradients, and the same kind of error for bad input. Then what the
fixture cannot show: the in-place methods write into the tensor (MindSpore's CPU build only
returns the result), keep its dtype, leave it unchanged on bad input, and keep gradients,
GRAPH mode and vmap right through the mutation protocol."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, ops

import tensormethods_cases as TC
from gradcheck import check_grads
from test_catalogue import _same, check_gradients, decode

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tensormethods.json")
RECORDS = {r["name"]: r for r in json.load(open(FIXTURE))["cases"]}
CASES = {c.name: c for c in TC.CASES}

# MindSpore's error type -> the types mindgrad may raise for the same bad input (its errors
# are TypeError, ValueError or IndexError)
ERRORS = {"ValueError": (ValueError,), "TypeError": (TypeError,), "IndexError": (IndexError,),
          "RuntimeError": (ValueError, TypeError, IndexError),
          "NotImplementedError": (ValueError,)}

# Gradients where MindSpore 2.10 gives none and mindgrad the exact one (checked numerically
# below): case -> {gradient index: why}
MINDSPORE_WRONG = {"set_": {0: "set_ has no gradient in MindSpore: zero for the source"}}


def test_fixture_covers_every_case() -> None:
    assert set(RECORDS) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore(name: str) -> None:
    case, rec = CASES[name], RECORDS[name]
    inputs = [decode(r) for r in rec["inputs"]]
    for mine, stored in zip(case.inputs, inputs):
        np.testing.assert_array_equal(mine, stored)
    ms.set_seed(0)
    ts = [Tensor(x) for x in inputs]
    if "error" in rec:
        with pytest.raises(ERRORS[rec["error"][0]]):
            case.fn(ms, ops, *ts)
        return
    out = case.fn(ms, ops, *ts)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    assert len(outs) == len(rec["outputs"])
    for k, (o, r) in enumerate(zip(outs, rec["outputs"])):
        _same(o.asnumpy(), decode(r), f"{name} output {k}", case.rtol, case.values)
    if "grads" not in rec:
        assert not case.grad or "grad_error" in rec
        return
    check_gradients(name, case, rec, inputs, MINDSPORE_WRONG.get(name, {}))


def _f64(seed: int, *shape: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=shape)


# --- in-place methods: the mutation protocol ------------------------------------------------
def test_inplace_writes_into_the_tensor_and_returns_it() -> None:
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    alias = x
    assert x.add_(Tensor(np.array([1.0, 1.0, 1.0], np.float32)), alpha=2) is x
    np.testing.assert_array_equal(alias.asnumpy(), [3.0, 4.0, 5.0])
    x.sub_(1).mul_(2).div_(4)
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 1.5, 2.0])
    x.exp_()
    np.testing.assert_allclose(x.asnumpy(), np.exp([1.0, 1.5, 2.0]).astype(np.float32))
    x.copy_(Tensor(np.array([7.0, -7.0, 8.5], np.float32)))
    x.floor_divide_(2)
    np.testing.assert_array_equal(x.asnumpy(), [3.0, -4.0, 4.0])
    x.remainder_(3)
    np.testing.assert_array_equal(x.asnumpy(), [0.0, 2.0, 1.0])


def test_inplace_keeps_dtype_and_shape() -> None:
    i = Tensor(np.array([1, 2, 3], np.int32))
    i.mul_(1.5)  # the in-place result keeps the tensor's dtype
    assert i.dtype == ms.int32
    np.testing.assert_array_equal(i.asnumpy(), [1, 3, 4])
    x = Tensor(np.zeros((2, 3), np.float32))
    x.copy_(Tensor(np.array([1.0, 2.0, 3.0])))  # float32 source broadcast over the rows
    np.testing.assert_array_equal(x.asnumpy(), [[1, 2, 3], [1, 2, 3]])
    x.copy_(5)
    assert (x.asnumpy() == 5).all() and x.dtype == ms.float32


def test_inplace_bad_input_leaves_the_tensor_unchanged() -> None:
    x = Tensor(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="add_.*shape"):
        x.add_(Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(ValueError, match="copy_.*broadcast"):
        x.copy_(Tensor(np.ones(4, np.float32)))
    with pytest.raises(ValueError, match="assign_value.*shape"):
        x.assign_value(Tensor(np.ones(2, np.float32)))
    with pytest.raises(ValueError, match="rounding_mode"):
        x.div_(2, rounding_mode="up")
    with pytest.raises(TypeError, match="copy_.*src"):
        x.copy_("a")
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 1.0, 1.0])


def test_inplace_gradient_of_earlier_use_is_kept() -> None:
    """``b = a * a`` before ``a.add_(y)``: b's gradient is that of the old value."""
    def f(x, y):
        a = x * 1
        b = a * a
        a.add_(y, alpha=3)
        return (b + a * 2).sum()

    x, y = _f64(1, 2, 3), _f64(2, 2, 3)
    gx, gy = ms.grad(f, grad_position=(0, 1))(Tensor(x), Tensor(y))
    np.testing.assert_allclose(gx.asnumpy(), 2 * x + 2)
    np.testing.assert_allclose(gy.asnumpy(), np.full_like(y, 6.0))
    check_grads(f, [Tensor(x), Tensor(y)], order=2)


def test_inplace_chain_derivatives_numerically() -> None:
    def f(x, y):
        a = x * 1
        a.mul_(y).add_(x, alpha=0.5).sub_(y).div_(y * y + 1).exp_()
        c = y * 0
        c.copy_(a)
        return c * a

    check_grads(f, [Tensor(_f64(3, 2, 3)), Tensor(_f64(4, 2, 3))], order=2)


def test_inplace_in_graph_mode_and_vmap() -> None:
    def f(x, y):
        a = x * 1
        a.add_(y, alpha=2)
        a.mul_(x)
        return a

    x, y = Tensor(_f64(5, 2, 3)), Tensor(_f64(6, 2, 3))
    eager = f(x, y).asnumpy()
    np.testing.assert_allclose(ms.jit(f)(x, y).asnumpy(), eager)
    np.testing.assert_allclose(ms.jit(f)(y, x).asnumpy(), f(y, x).asnumpy())
    np.testing.assert_allclose(ops.vmap(f)(x, y).asnumpy(), eager)
    g = ms.grad(lambda u, v: f(u, v).sum(), grad_position=(0, 1))
    gj = ms.jit(g)(x, y)
    for a, b in zip(gj, g(x, y)):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy())


def test_inplace_on_a_constant_follows_grad_and_is_refused_by_vmap() -> None:
    c = Tensor(np.zeros(3))

    def f(x):
        c.add_(x, alpha=2)  # the constant follows the traced value while grad runs
        return (c * c).sum()

    g = ms.grad(f)(Tensor(np.ones(3)))
    np.testing.assert_array_equal(g.asnumpy(), [8.0, 8.0, 8.0])
    np.testing.assert_array_equal(c.asnumpy(), [2.0, 2.0, 2.0])
    d = Tensor(np.zeros(3))

    def h(x):
        d.add_(x)  # one value for all examples cannot take a per-example value
        return d

    with pytest.raises(TypeError, match="vmap"):
        ops.vmap(h)(Tensor(np.ones((2, 3))))
    np.testing.assert_array_equal(d.asnumpy(), np.zeros(3))


def test_inplace_on_a_parameter() -> None:
    p = ms.Parameter(Tensor(np.ones(2, np.float32)), name="p")
    assert p.add_(1.0) is p
    np.testing.assert_array_equal(p.asnumpy(), [2.0, 2.0])
    p.copy_(Tensor(np.array([3.0, 4.0], np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), [3.0, 4.0])
    assert isinstance(p, ms.Parameter) and p.name == "p"


# --- the rest: derivatives where MindSpore records none, and behaviour ----------------------
def test_derivatives_of_compositions() -> None:
    x, y = Tensor(_f64(7, 3, 4)), Tensor(_f64(8, 3, 4))
    for f, args in [
        (lambda a: a.select(1, 2) * 3, [x]),
        (lambda a: a.ptp(1), [x]),
        (lambda a: a.argmin_with_value(0)[0], [x]),
        (lambda a, b: a.masked_scatter(Tensor(np.array([True, False, True, True])),
                                       ops.reshape(b, (-1,))), [x, y]),
        (lambda a: a.sum_to_size(1, 4), [x]),
        (lambda a: a.fill_diagonal(2.0) * a, [x]),
        (lambda a: a.take(Tensor(np.array([[0, 11], [5, 5]]))), [x]),
        (lambda a, b: Tensor(np.array([[0, 1, 1, 0]] * 3)).choose((a, b)), [x, y]),
        (lambda a: a.mH * a.H, [Tensor(_f64(9, 3, 3))]),
        (lambda a, b: (lambda c: c.set_(b * 2) + c)(a * 1), [x, y]),
        (lambda a, b: (a * 1).set_(b, 1, (2, 3), (1, 4)), [x, y]),
        (lambda a, b: a.index_put((Tensor(np.array([0, 2, 2])),), b[0], True) * a, [x, y]),
        (lambda a: a.inv(), [x]),
    ]:
        check_grads(f, args, order=2)


def test_layout_of_views_and_copies() -> None:
    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    assert x.stride() == [12, 4, 1] and x.stride(-1) == 1
    assert x.is_contiguous() and x.contiguous() is x and x.storage_offset() == 0
    t = x.transpose(2, 0, 1)
    assert t.stride() == [1, 12, 4] or t.is_contiguous()  # a view, or a copy already
    c = t.contiguous()
    assert c.is_contiguous()
    np.testing.assert_array_equal(c.asnumpy(), x.asnumpy().transpose(2, 0, 1))
    assert isinstance(x.data_ptr(), int)
    store = x.untyped_storage()
    assert store.nbytes() == 96 and store.data_ptr() == x.data_ptr()
    assert store.device == "CPU" and store.dtype == ms.float32
    if t.stride() == [1, 12, 4]:  # a view: the same memory underneath
        assert t.untyped_storage().data_ptr() == store.data_ptr()
    with pytest.raises(IndexError, match="stride"):
        x.stride(3)
    b = x.get_bytes()
    y = Tensor.convert_bytes_to_tensor(b, (2, 3, 4), ms.float32)
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
    with pytest.raises(ValueError, match="convert_bytes_to_tensor"):
        Tensor.convert_bytes_to_tensor(b, (5,), ms.float32)
    np.testing.assert_array_equal(Tensor.from_dlpack(x.to_dlpack()).asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(Tensor.from_dlpack(np.arange(3)).asnumpy(), np.arange(3))


def test_data_property() -> None:
    x = Tensor(np.ones(2, np.float32))
    d = x.data
    assert d is not x
    np.testing.assert_array_equal(d.asnumpy(), x.asnumpy())
    x.data = Tensor(np.array([4.0, 5.0], np.float32))
    np.testing.assert_array_equal(x.asnumpy(), [4.0, 5.0])
    # under grad, .data is cut from the derivative
    g = ms.grad(lambda a: (a * a.data).sum())(Tensor(np.array([2.0, 3.0])))
    np.testing.assert_array_equal(g.asnumpy(), [2.0, 3.0])
    p = ms.Parameter(Tensor(np.ones(2, np.float32)), name="w")
    # a Parameter's is a Tensor of its value, printed by its values (MindSpore 2.10)
    assert type(p.data) is Tensor and str(p.data) == "[1. 1.]"
    p.data = Tensor(np.array([4.0, 5.0], np.float32))
    np.testing.assert_array_equal(p.asnumpy(), [4.0, 5.0])
    # inside a compiled function the Parameter itself, so a later update is seen
    f = ms.jit(lambda x: x * p.data)
    np.testing.assert_array_equal(f(Tensor(np.ones(2, np.float32))).asnumpy(), [4.0, 5.0])
    p.set_data(Tensor(np.array([6.0, 7.0], np.float32)))
    np.testing.assert_array_equal(f(Tensor(np.ones(2, np.float32))).asnumpy(), [6.0, 7.0])


def test_argument_errors() -> None:
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="choose.*mode"):
        Tensor(np.array([0], np.int32)).choose([x], "raise")
    with pytest.raises(TypeError, match="choose.*integer"):
        x.choose([x])
    with pytest.raises(ValueError, match="fill_diagonal.*rank"):
        Tensor(np.ones(3, np.float32)).fill_diagonal(1.0)
    with pytest.raises(ValueError, match="fill_diagonal.*same length"):
        Tensor(np.ones((2, 3, 3), np.float32)).fill_diagonal(1.0)
    with pytest.raises(ValueError, match="masked_scatter.*source"):
        x.masked_scatter(Tensor(np.ones((2, 3), bool)), Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="masked_scatter.*bool"):
        x.masked_scatter(Tensor(np.ones((2, 3), np.int32)), Tensor(np.ones(6, np.float32)))
    with pytest.raises(ValueError, match="sum_to_size"):
        x.sum_to_size(4)
    with pytest.raises(IndexError, match="select"):
        x.select(0, 2)
    with pytest.raises(TypeError, match="cauchy.*float"):
        Tensor(np.ones(2, np.int32)).cauchy()
    with pytest.raises(ValueError, match="mH"):
        Tensor(np.ones(3, np.float32)).mH
    with pytest.raises(IndexError, match="itemset"):
        x.itemset(6, 1.0)


def test_random_methods_follow_the_seed() -> None:
    x = Tensor(np.zeros((200,), np.float32))
    ms.set_seed(3)
    a, b = x.cauchy(1.0, 0.5), x.log_normal(0.0, 0.25)
    ms.set_seed(3)
    np.testing.assert_array_equal(a.asnumpy(), x.cauchy(1.0, 0.5).asnumpy())
    np.testing.assert_array_equal(b.asnumpy(), x.log_normal(0.0, 0.25).asnumpy())
    assert abs(np.median(a.asnumpy()) - 1.0) < 0.2
    assert (b.asnumpy() > 0).all() and abs(np.median(np.log(b.asnumpy()))) < 0.1


def test_set_views_and_empties() -> None:
    src = Tensor(np.arange(12, dtype=np.float32))
    x = Tensor(np.zeros(2, np.float32))
    assert x.set_(src, 2, (2, 3), (4, 1)) is x
    np.testing.assert_array_equal(x.asnumpy(), [[2, 3, 4], [6, 7, 8]])
    x.set_(src, 0, (3,))
    np.testing.assert_array_equal(x.asnumpy(), [0, 1, 2])
    x.set_()
    assert x.shape == (0,) and x.dtype == ms.float32
    with pytest.raises(ValueError, match="set_.*outside"):
        x.set_(src, 10, (4,))
    assert x.shape == (0,)


def test_sparse_conversions_refuse_graph_mode_and_vmap() -> None:
    x = Tensor(np.array([[0.0, 2.0], [3.0, 0.0]]))
    g = ms.grad(lambda a: a.to_coo().values.sum() * 2 + a.to_csr().values[0])(x)
    np.testing.assert_array_equal(g.asnumpy(), [[0.0, 3.0], [2.0, 0.0]])
    with pytest.raises(ValueError, match="to_coo.*vmap"):
        ops.vmap(lambda a: a.to_coo().values)(Tensor(np.ones((2, 2, 2))))
    with pytest.raises(ValueError, match="to_csr.*GRAPH"):
        ms.jit(lambda a: a.to_csr().values)(x)


def test_choose_keeps_fractional_choices() -> None:
    """MindSpore 2.10's ``Tensor.choose`` passes the choices through Int32 (0.75 becomes 0);
    mindgrad keeps their values, as NumPy's ``choose`` does."""
    a, b = np.array([0.75, -1.5, 2.25], np.float32), np.array([4.5, 5.0, -6.5], np.float32)
    i = np.array([1, 0, 5], np.int32)
    got = Tensor(i).choose((Tensor(a), Tensor(b))).asnumpy()
    np.testing.assert_array_equal(got, np.choose(i, (a, b), mode="clip"))


def test_set_copy_index_put_in_graph_mode_vmap_and_grad() -> None:
    def f(x, y):
        a = x * 1
        a.set_(y, 1, (2,), (2,))  # a = y[1::2]
        b = x * 0
        b.copy_(a[0])  # y[1] in every element
        return (a * 2).sum() + b + x.index_put((Tensor(np.array([0, 1])),), y[:1], True).sum()

    x, y = Tensor(np.arange(4.0)), Tensor(np.arange(4.0) + 10)
    np.testing.assert_array_equal(f(x, y).asnumpy(), [85.0] * 4)
    np.testing.assert_array_equal(ms.jit(f)(x, y).asnumpy(), [85.0] * 4)
    xs = Tensor(np.arange(8.0).reshape(2, 4))
    np.testing.assert_array_equal(ops.vmap(f)(xs, xs).asnumpy(),
                                  [[15.0] * 4, [59.0] * 4])
    g = ms.grad(lambda u, v: f(u, v).sum(), grad_position=(0, 1))
    for got in (g(x, y), ms.jit(g)(x, y)):
        np.testing.assert_array_equal(got[0].asnumpy(), [4.0] * 4)
        np.testing.assert_array_equal(got[1].asnumpy(), [8.0, 12.0, 0.0, 8.0])


def test_inplace_on_a_parameter_in_a_graph_mode_cell() -> None:
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ms.Parameter(Tensor(np.zeros(2, np.float32)), name="p")

        def construct(self, x):
            self.p.add_(x, alpha=2)
            return self.p * 2

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net, one = Net(), Tensor(np.ones(2, np.float32))
        np.testing.assert_array_equal(net(one).asnumpy(), [4.0, 4.0])
        np.testing.assert_array_equal(net(one).asnumpy(), [8.0, 8.0])  # compiled, again
        np.testing.assert_array_equal(net.p.asnumpy(), [4.0, 4.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
