"""Bad input raises clear errors (naming the op, the argument and the shapes) and leaves
tensors, Parameters and the transformation machinery as they were."""
from __future__ import annotations

import functools

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops
from mindgrad import Parameter, ParameterTuple, Tensor
from mindgrad.core.primitive import Primitive, active, graphs, state

from gradcheck import f32


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(f32([2.0]), name="w")
        self.b = Parameter(f32([3.0]), name="b")

    def construct(self, x, y):
        return x * y * self.w + self.b


class GradCell(nn.Cell):
    """Calls ``make(net)(*args)`` inside construct (compiled in GRAPH mode)."""

    def __init__(self, net, make):
        super().__init__()
        self.net = net
        self.make = make

    def construct(self, *args):
        return self.make(self.net)(*args)


@pytest.fixture
def world():
    """A network and inputs; after the test, everything must be as it was."""
    net = Net()
    x, y = f32([1.0, 2.0]), f32([3.0, 4.0])
    yield net, x, y
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0])
    np.testing.assert_array_equal(y.asnumpy(), [3.0, 4.0])
    for p, v in ((net.w, [2.0]), (net.b, [3.0])):
        np.testing.assert_array_equal(p.asnumpy(), v)
        assert p._subs == 0 and p._trace is None
        assert p.dtype == ms.float32
    assert state.stack == [] and state.dynamic is None and state.subs == {}
    assert active == [] and graphs == []
    # and the machinery still works
    np.testing.assert_array_equal(ops.grad(net, (0, 1))(x, y)[1].asnumpy(), [2.0, 4.0])
    np.testing.assert_array_equal(net(x, y).asnumpy(), [9.0, 19.0])


# --- the differentiation API ------------------------------------------------------------------
def test_wrong_sens_shape(mode, world) -> None:
    net, x, y = world
    g = GradCell(net, lambda n: ops.GradOperation(sens_param=True)(n))
    with pytest.raises(ValueError, match=r"sens\[0\] has shape \[3\].*output.*shape \[2\]"):
        g(x, y, f32([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="output has 1 tensor.*sens has 2"):
        g(x, y, (f32([1.0, 1.0]), f32([1.0, 1.0])))
    g2 = GradCell(net, lambda n: ops.grad(n, 0, sens_param=True))
    with pytest.raises(ValueError, match=r"shape \[1\].*shape \[2\]"):
        g2(x, y, f32([1.0]))
    # the same cell still works with a good sens (nothing half-compiled was cached)
    np.testing.assert_array_equal(g(x, y, f32([1.0, 10.0])).asnumpy(), [6.0, 80.0])


def test_wrong_argument_count(mode, world) -> None:
    net, x, y = world
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'y'"):
        net(x)
    with pytest.raises(TypeError, match=r"takes 3 positional arguments but 4 were given"):
        net(x, y, y)
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'y'"):
        GradCell(net, ops.GradOperation())(x)
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'y'"):
        GradCell(net, lambda n: ops.GradOperation(get_all=True, sens_param=True)(n))(x, y)
    with pytest.raises(TypeError, match="sens"):
        ops.GradOperation(sens_param=True)(net)()


@pytest.mark.parametrize("make", [
    lambda: ops.grad(1), lambda: ops.GradOperation()(1), lambda: ops.GradOperation()(None),
    lambda: ops.value_and_grad(1), lambda: ops.jvp(1, f32([1.0]), f32([1.0])),
    lambda: ops.vjp(1, f32([1.0])), lambda: ops.jacfwd(1), lambda: ops.jacrev(1),
    lambda: nn.Vjp(2)(f32([1.0]), f32([1.0])), lambda: nn.Jvp(2)(f32([1.0]), f32([1.0])),
], ids=["grad", "GradOperation", "GradOperation-None", "value_and_grad", "jvp", "vjp", "jacfwd",
        "jacrev", "nn.Vjp", "nn.Jvp"])
def test_non_callable_fn(make) -> None:
    with pytest.raises(TypeError, match=r"fn should be callable, but got (int|NoneType)"):
        make()


def test_grad_position_errors(mode, world) -> None:
    net, x, y = world

    def call(pos, **kw):
        return GradCell(net, lambda n: ops.grad(n, pos, **kw))(x, y)

    with pytest.raises((IndexError, RuntimeError), match="Position index 2 is exceed input size."):
        call(2)
    with pytest.raises((IndexError, RuntimeError), match="Position index 5 is exceed input size."):
        call((0, 5))
    with pytest.raises(ValueError, match="^grad_position must be >= 0.$"):
        call(-1)
    with pytest.raises(ValueError, match="^grad_position must be >= 0.$"):
        call((0, -2))
    with pytest.raises(ValueError, match="There are duplicate positions in `grad_position`"):
        call((1, 1))
    with pytest.raises(TypeError, match=r"^For 'F.grad', the 'grad_position' must be int or tuple.$"):
        call(1.0)
    with pytest.raises(TypeError, match=r"must be int or tuple"):
        call((0, 1.0))
    with pytest.raises(TypeError, match=r"must be int or tuple"):
        call(True)
    with pytest.raises(ValueError, match="^`grad_position` and `weight` can not be None at the same time.$"):
        ops.grad(net, None)
    with pytest.raises(ValueError, match="can not be None at the same time"):
        ops.value_and_grad(net, None, None)
    with pytest.raises(RuntimeError):
        ops.grad(net, (), weights=net.w)
    with pytest.raises((IndexError, RuntimeError), match="Position index 3 is exceed input size."):
        ops.jacrev(net, 3)(x, y)


def test_has_aux_needs_several_outputs(mode, world) -> None:
    net, x, y = world
    msg = "When has_aux is True, origin fn requires more than one outputs."
    with pytest.raises((ValueError, RuntimeError), match=msg):
        GradCell(net, lambda n: ops.grad(n, has_aux=True))(x, y)
    with pytest.raises((ValueError, RuntimeError), match=msg):
        ops.value_and_grad(lambda x: (x * 2,), has_aux=True)(x)
    with pytest.raises((ValueError, RuntimeError), match=msg):
        ops.jvp(net, (x, y), (x, y), has_aux=True)
    with pytest.raises((ValueError, RuntimeError), match=msg):
        ops.vjp(net, x, y, has_aux=True)


def test_jvp_and_vjp_argument_errors(world) -> None:
    net, x, y = world
    with pytest.raises(ValueError, match="^v has invalid length: should be 2, but got 1$"):
        ops.jvp(net, (x, y), (x,))
    with pytest.raises(ValueError, match="v has invalid length: should be 1, but got 2"):
        ops.jvp(lambda x: x, x, (x, x))
    with pytest.raises(TypeError, match="^The inputs type must be a Tensor, tuple or list of Tensors.$"):
        ops.jvp(net, (x, 2.0), (x, x))
    with pytest.raises(TypeError, match="The inputs type must be a Tensor, tuple or list of Tensors."):
        ops.jvp(lambda x: x, 2.0, 1.0)
    with pytest.raises(ValueError, match=r"v\[1\] has shape \[3\] but input 1 has shape \[2\]"):
        ops.jvp(net, (x, y), (x, f32([1.0, 1.0, 1.0])))
    with pytest.raises(TypeError, match="^For 'vjp', the inputs must be Tensors, but got float.$"):
        ops.vjp(net, x, 2.0)
    _, vjp_fn = ops.vjp(net, x, y)
    with pytest.raises(ValueError, match=r"v\[0\] has shape \[3\] but output 0 has shape \[2\]"):
        vjp_fn(f32([1.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match="one cotangent per output"):
        vjp_fn(x, x)
    # the pullback still works after the errors
    np.testing.assert_array_equal(vjp_fn(f32([1.0, 10.0]))[0].asnumpy(), [6.0, 80.0])
    with pytest.raises(ValueError, match=r"shape \[3\].*shape \[2\]"):
        nn.Vjp(net)(x, y, f32([1.0, 1.0, 1.0]))


@pytest.mark.parametrize("flag", ["get_all", "get_by_list", "sens_param"])
@pytest.mark.parametrize("value,type_name", [(1, "int"), (0, "int"), ("yes", "str"),
                                              (None, "NoneType")])
def test_grad_operation_non_bool_flag(flag, value, type_name) -> None:
    with pytest.raises(TypeError) as info:
        ops.GradOperation(**{flag: value})
    assert str(info.value) == f"For 'GradOperation', the '{flag}' should be bool, but got {type_name}"


def test_bad_weights(world) -> None:
    net, x, y = world
    with pytest.raises(TypeError, match="weights"):
        ops.GradOperation(get_by_list=True)(net, [net.w, x])(x, y)
    with pytest.raises(TypeError, match="weights"):
        ops.grad(net, 0, weights=3)(x, y)
    with pytest.raises(TypeError, match="Parameter"):
        ParameterTuple([net.w, x])


# --- custom bprop ---------------------------------------------------------------------------
class BadCount(nn.Cell):
    def construct(self, x, y):
        return x * y

    def bprop(self, x, y, out, dout):
        return (dout,)


class BadShape(nn.Cell):
    def construct(self, x, y):
        return x * y

    def bprop(self, x, y, out, dout):
        return ops.concat((dout, dout[0:1])), dout


def test_custom_bprop_wrong_count(mode, world) -> None:
    _, x, y = world
    msg = (r"The output size of the 'bprop' must match the number of parameters in its "
           r"corresponding primal function 'BadCount\(\)' : 1 vs. 2.")
    with pytest.raises(RuntimeError, match=msg):
        GradCell(BadCount(), lambda n: ops.GradOperation(get_all=True)(n))(x, y)
    # the forward pass alone is fine
    np.testing.assert_array_equal(BadCount()(x, y).asnumpy(), [3.0, 8.0])


def test_custom_bprop_wrong_shape(mode, world) -> None:
    _, x, y = world
    with pytest.raises(RuntimeError, match=r"BadShape.bprop.*input 0 has shape \[3\].*\[2\]"):
        GradCell(BadShape(), lambda n: ops.GradOperation(get_all=True)(n))(x, y)


# --- operations -----------------------------------------------------------------------------
def test_shape_errors_name_op_and_shapes() -> None:
    a, b = Tensor(np.ones((2, 3))), Tensor(np.ones((2, 2)))
    cases = [
        (lambda: a + Tensor(np.ones(2)), ValueError, r"For 'Add'.*\[2, 3\].*\[2\]"),
        (lambda: ops.mul(a, b), ValueError, r"For 'Mul'.*\[2, 3\].*\[2, 2\]"),
        (lambda: ops.matmul(a, a), ValueError, r"For 'MatMul'.*\[2, 3\].*\[2, 3\]"),
        (lambda: a @ b, ValueError, r"For 'MatMul'.*\[2, 3\].*\[2, 2\]"),
        (lambda: ops.MatMul()(a, Tensor(np.ones(3))), ValueError, r"'y' must be 2-D.*\[3\]"),
        (lambda: ops.concat((a, b)), ValueError, r"For 'Concat'.*axis 0.*\[2, 3\], \[2, 2\]"),
        (lambda: ops.concat((a, Tensor(np.ones(3)))), ValueError, r"same rank.*\[2, 3\].*\[3\]"),
        (lambda: ops.concat(a), TypeError, "tuple or list"),
        (lambda: ops.stack((a, b)), ValueError, r"same shape.*\[2, 3\].*\[2, 2\]"),
        (lambda: ops.reshape(a, (4, 2)), ValueError, r"'reshape'.*\[2, 3\].*\(4, 2\)"),
        (lambda: ops.reshape(a, (4, -1)), ValueError, r"'reshape'.*\[2, 3\].*\(4, -1\)"),
        (lambda: a.reshape(-1, -1), ValueError, "only one dimension may be -1"),
        (lambda: ops.broadcast_to(a, (3, 3)), ValueError, r"'BroadcastTo'.*\[2, 3\].*\[3, 3\]"),
        (lambda: ops.squeeze(a, 2), ValueError, r"'squeeze'.*'axis'.*got 2"),
        (lambda: ops.split(a, [1, 1], 1), ValueError, r"'split'.*\[1, 1\].*size 3"),
        (lambda: ops.select(a > 0, a, b), ValueError, r"'Select'.*\[2, 3\].*\[2, 2\]"),
        (lambda: ops.select(a, a, a), TypeError, "'cond' must be a bool Tensor"),
        (lambda: a[5], IndexError, r"'getitem'.*5.*\[2, 3\]"),
        (lambda: a[::0], ValueError,
         r"For 'getitem', index \[::0\] .*\[2, 3\]: slice step cannot be zero"),
        (lambda: a[:, Tensor(np.array([0, 5]))], IndexError,
         r"'getitem', index \[:, Tensor\(shape=\[2\], dtype=int64\)\] is "
             r"out of range for a tensor of shape \[2, 3\]: index 5"),
        (lambda: ops.transpose(a, (0, 0)), ValueError, r"'transpose'.*\(0, 0\).*\[2, 3\]"),
        (lambda: ops.add(a, "x"), TypeError, "For 'add', 'y' must be a Tensor or a number"),
    ]
    for fn, err, pattern in cases:
        with pytest.raises(err, match=pattern):
            fn()
    np.testing.assert_array_equal(a.asnumpy(), np.ones((2, 3)))


@pytest.mark.parametrize("fn,err,pattern", [
    (lambda x: ops.reduce_sum(x, 5), ValueError, r"'reduce_sum'.*range \[-2, 2\).*5"),
    (lambda x: ops.reduce_mean(x, -3), ValueError, r"'reduce_mean'.*range \[-2, 2\).*-3"),
    (lambda x: ops.reduce_max(x, (0, 2)), ValueError, r"'reduce_max'.*2"),
    (lambda x: ops.reduce_sum(x, 1.5), TypeError, r"'reduce_sum'.*'axis' must be an int.*float"),
    (lambda x: ops.concat((x, x), 2), ValueError, r"'concat'.*2"),
    (lambda x: ops.expand_dims(x, 4), ValueError, r"'expand_dims'.*4"),
    (lambda x: ops.cumsum(x, 2), ValueError, r"'cumsum'.*2"),
    (lambda x: ops.softmax(x, 3), ValueError, r"3"),
    (lambda x: ops.split(x, 1, 2), ValueError, r"'split'.*2"),
    (lambda x: ops.sum(x, (0, 0)), ValueError, r"^For 'sum', 'axis' must not repeat an "
     r"axis, but got \(0, 0\): axis 0 of a tensor of rank 2 appears 2 times\.$"),
    (lambda x: ops.reduce_mean(x, (1, -1)), ValueError, r"'reduce_mean'.*\(1, -1\).*axis 1"),
    (lambda x: ops.outer(x, x[0]), ValueError,
     r"^For 'outer', 'x' and 'y' must be 1-D, but got shapes \[2, 3\] and \[3\]\.$"),
])
def test_bad_axis(fn, err, pattern) -> None:
    x = Tensor(np.ones((2, 3)))
    with pytest.raises(err, match=pattern):
        fn(x)


def test_missing_rule_names_primitive_and_transform() -> None:
    from mindgrad.core.primitive import MissingRuleError

    prim = Primitive("MySin", np.sin, register=False)
    x = Tensor(np.array([0.5]))
    np.testing.assert_allclose(prim(x).asnumpy(), np.sin([0.5]))
    with pytest.raises(MissingRuleError, match="MySin.*reverse-mode"):
        ops.grad(lambda x: prim(x))(x)
    with pytest.raises(MissingRuleError, match="MySin.*forward-mode"):
        ops.jvp(lambda x: prim(x), x, x)
    assert state.stack == [] and state.dynamic is None


# --- Parameters -----------------------------------------------------------------------------
def test_set_data_new_shape(mode) -> None:
    # MindSpore 2.10 lets set_data change a Parameter's shape outside transformations
    net = Net()
    net.w.set_data(f32([1.0, 2.0, 3.0]))
    assert net.w.shape == (3,) and net.w.dtype == ms.float32
    net.b.set_data(Tensor(np.ones((2, 1))))
    assert net.b.shape == (2, 1) and net.b.dtype == ms.float32


def test_set_data_wrong_shape_inside_grad_keeps_value() -> None:
    net = Net()

    def f(x):
        net.w.set_data(f32([1.0, 2.0, 3.0]))
        return (x * 2).sum()

    with pytest.raises(ValueError, match=r"'Parameter.set_data'.*'w'.*\(3,\).*\(1,\)"):
        ops.grad(f)(f32([1.0]))
    np.testing.assert_array_equal(net.w.asnumpy(), [2.0])
    with pytest.raises(ValueError, match=r"'Parameter.set_data'.*'w'.*\(3,\).*\(1,\)"):
        ms.jit(f)(f32([1.0]))
    np.testing.assert_array_equal(net.w.asnumpy(), [2.0])
    np.testing.assert_array_equal(net(f32([1.0]), f32([1.0])).asnumpy(), [5.0])


def test_scalar_conversion_of_a_larger_tensor_in_graph_mode(mode) -> None:
    class Scale(nn.Cell):
        def construct(self, x):
            return x * float(x)

    with pytest.raises(ValueError, match=r"'float'.*one element.*shape \[2, 3\]"):
        Scale()(f32(np.ones((2, 3))))
    np.testing.assert_array_equal(Scale()(f32([3.0])).asnumpy(), [9.0])


def test_error_inside_graph_trace_leaves_cell_usable(world) -> None:
    net, x, y = world
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        class Picky(nn.Cell):
            def construct(self, x):
                if x.sum() > 100:
                    raise ValueError("too big")
                return x * 2

        p = Picky()
        np.testing.assert_array_equal(p(f32([1.0, 2.0])).asnumpy(), [2.0, 4.0])
        with pytest.raises(ValueError, match="too big"):
            p(f32([100.0, 2.0]))
        assert state.stack == [] and state.dynamic is None
        np.testing.assert_array_equal(p(f32([3.0, 2.0])).asnumpy(), [6.0, 4.0])
        with pytest.raises(ValueError, match="too big"):
            p(f32([100.0, 2.0]))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


# --- index and label values -----------------------------------------------------------------
class Apply(nn.Cell):
    """Calls ``fn(ids)`` inside construct (compiled in GRAPH mode)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, ids):
        return self.fn(ids)


def i32(v) -> Tensor:
    return Tensor(np.array(v, np.int32))


LOGITS_NP = (np.arange(12).reshape(4, 3) / 10).astype(np.float32)
LOGITS = Tensor(LOGITS_NP.copy())
X23 = f32(np.arange(6).reshape(2, 3))
CLASSES = r"each value of 'labels' must be in \[0, 3\) \(3 classes\)"
IGNORED = CLASSES + r" or equal to ignore_index -100"
VOCAB = r"For 'Embedding', each value of the input ids must be in \[0, 5\) \(vocab_size 5\)"


@pytest.mark.parametrize("make,good,bad,err,pattern", [
    (lambda: functools.partial(nn.SoftmaxCrossEntropyWithLogits(sparse=True), LOGITS),
     [0, 1, 2, 1], [([0, 3, 1, 2], 3), ([0, 1, -1, 2], -1)], ValueError,
     "For 'SoftmaxCrossEntropyWithLogits', " + CLASSES),
    (lambda: functools.partial(nn.NLLLoss(), LOGITS), [0, 1, 2, 1],
     [([0, 5, 1, 2], 5), ([0, -2, 1, 2], -2)], ValueError, "For 'NLLLoss', " + IGNORED),
    (lambda: functools.partial(nn.CrossEntropyLoss(), LOGITS), [0, 1, 2, 1],
     [([0, 5, 1, 2], 5), ([0, -2, 1, 2], -2)], ValueError, "For 'CrossEntropyLoss', " + IGNORED),
    (lambda: nn.Embedding(5, 2), [0, 4], [([-1, 0], -1), ([0, 5], 5)], ValueError, VOCAB),
    (lambda: nn.Embedding(5, 2, use_one_hot=True), [0, 4], [([-1, 0], -1), ([0, 5], 5)],
     ValueError, VOCAB),
    (lambda: lambda i: ops.gather(X23, i, 1), [0, -3], [([0, 3], 3), ([-4, 0], -4)], IndexError,
     r"For 'gather', each value of 'input_indices' must be in \[-3, 3\) \(axis 1 of an input "
     r"of shape \[2, 3\]\)"),
    (lambda: lambda i: ops.index_select(X23, 1, i), [0, 2], [([0, 3], 3), ([-1, 0], -1)],
     IndexError, r"For 'index_select', each value of 'index' must be in \[0, 3\) \(axis 1 of an "
     r"input of shape \[2, 3\]\)"),
], ids=["SoftmaxCrossEntropyWithLogits", "NLLLoss", "CrossEntropyLoss", "Embedding",
        "Embedding-one-hot", "gather", "index_select"])
def test_index_values_out_of_range(mode, make, good, bad, err, pattern) -> None:
    cell = Apply(make())
    expected = cell(i32(good)).asnumpy()
    for ids, value in bad:  # in GRAPH mode the compiled function checks these
        with pytest.raises(err, match=rf"{pattern}, but got {value}\.$"):
            cell(i32(ids))
    np.testing.assert_array_equal(cell(i32(good)).asnumpy(), expected)
    np.testing.assert_array_equal(LOGITS.asnumpy(), LOGITS_NP)


def test_ignored_label_is_not_an_error(mode) -> None:
    for loss, labels, counted in [(nn.NLLLoss(), [0, -100, 2, 1], [0, 2, 3]),
                                  (nn.NLLLoss(ignore_index=7), [0, 7, 2, 1], [0, 2, 3]),
                                  (nn.CrossEntropyLoss(ignore_index=1), [0, 1, 2, 1], [0, 2])]:
        logp = LOGITS_NP
        if isinstance(loss, nn.CrossEntropyLoss):
            logp = logp - np.log(np.exp(logp).sum(1, keepdims=True))
        want = -np.mean([logp[i, labels[i]] for i in counted])
        got = Apply(functools.partial(loss, LOGITS))(i32(labels)).asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_label_check_sees_every_vmap_element() -> None:
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    logits = f32(np.zeros((2, 4, 3)))
    with pytest.raises(ValueError, match="'labels'.*but got 3"):
        ops.vmap(loss)(logits, i32([[0, 1, 2, 1], [0, 1, 2, 3]]))
    assert ops.vmap(loss)(logits, i32([[0, 1, 2, 1], [0, 1, 2, 2]])).shape == (2, 4)


# --- other arguments ------------------------------------------------------------------------
@pytest.mark.parametrize("fn,err,pattern", [
    (lambda x: ops.tile(x, (-1, 1)), ValueError, r"^For 'tile', each element of 'dims' must be "
     r">= 0, but got \(-1, 1\)\.$"),
    (lambda x: ops.tile(x, (1.5, 1)), TypeError, r"^For 'tile', 'dims' must be a tuple of ints, "
     r"but got \(1\.5, 1\)\.$"),
    (lambda x: ops.tile(x, 2), TypeError, r"'tile', 'dims'.*got 2"),
    (lambda x: x.tile((True, 1)), TypeError, r"'tile', 'dims'"),
    (lambda x: ops.leaky_relu(x, "a"), TypeError,
     r"^For 'leaky_relu', 'alpha' must be a number, but got str\.$"),
    (lambda x: ops.elu(x, None), TypeError, r"'elu', 'alpha' must be a number.*NoneType"),
    (lambda x: nn.ELU("a"), TypeError, r"'ELU', 'alpha' must be a number"),
    (lambda x: x.astype("nope"), TypeError, r"^For 'cast', 'dtype' must be a mindspore dtype.*"
     r"but got 'nope'\.$"),
    (lambda x: Tensor([1.0], dtype="nope"), TypeError, r"'Tensor', 'dtype'.*'nope'"),
    (lambda x: float(x), ValueError, r"^For 'float', only a Tensor with one element can be "
     r"converted to a Python scalar, but got a Tensor of shape \[2, 3\]\.$"),
    (lambda x: int(x), ValueError, r"'int'.*one element.*\[2, 3\]"),
    (lambda x: x.item(), ValueError, r"'Tensor.item'.*one element.*\[2, 3\]"),
    (lambda x: ops.linearize(ops.sin, x)[1](f32(np.ones((2, 2)))), ValueError,
     r"^For 'linearize', v\[0\] has shape \[2, 2\] but input 0 has shape \[2, 3\]\.$"),
    (lambda x: ops.linearize(ops.sin, x)[1](f32(np.ones(3))), ValueError,
     r"'linearize', v\[0\] has shape \[3\]"),
], ids=["tile-negative", "tile-float", "tile-int", "tile-bool", "leaky_relu-alpha", "elu-alpha",
        "ELU-alpha", "astype", "Tensor-dtype", "float", "int", "item", "linearize-shape",
        "linearize-broadcastable"])
def test_bad_argument(fn, err, pattern) -> None:
    x = f32(np.arange(6).reshape(2, 3))
    with pytest.raises(err, match=pattern):
        fn(x)
    np.testing.assert_array_equal(x.asnumpy(), np.arange(6).reshape(2, 3))
