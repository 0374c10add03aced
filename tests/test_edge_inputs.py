"""Empty and 0-d inputs, zero steps and sizes, unknown keywords: MindSpore's results or a
clear error naming the op (values checked against the real MindSpore 2.10 CPU build)."""
import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, ops


def _f32(shape):
    return Tensor(np.zeros(shape, np.float32))


# --- empty tensors ------------------------------------------------------------------------
@pytest.mark.parametrize("shape,axis", [((0,), -1), ((0, 3), -1), ((0, 3), 0), ((2, 0), 1)])
def test_softmax_of_empty_is_empty(shape, axis) -> None:
    for fn in (ops.softmax, ops.log_softmax):
        out = fn(_f32(shape), axis)
        assert out.shape == shape and out.dtype == Tensor(np.float32(0)).dtype


def test_softmax_of_empty_has_an_empty_gradient() -> None:
    g = ops.grad(lambda x: ops.softmax(x).sum())(_f32((0, 4)))
    assert g.shape == (0, 4)


def test_vmap_over_an_empty_batch_is_empty() -> None:
    out = ops.vmap(lambda x: x * 2)(_f32((0, 3)))
    assert out.shape == (0, 3)
    # shapes of per-example results still come through: a matrix product, a reduction
    out = ops.vmap(lambda x: ops.matmul(x, x.T).sum(axis=1))(_f32((0, 3, 2)))
    assert out.shape == (0, 3)
    # a primitive without a batch rule (the per-example loop) and an unmapped input
    out = ops.vmap(lambda x, y: ops.det(x) + y, in_axes=(0, None))(_f32((0, 3, 3)), Tensor(1.0))
    assert out.shape == (0,)
    out = ops.vmap(ops.vmap(lambda r: r + 1))(_f32((2, 0, 3)))
    assert out.shape == (2, 0, 3)
    assert ops.grad(lambda x: ops.vmap(lambda r: (r * r).sum())(x).sum())(
        _f32((0, 3))).shape == (0, 3)


def test_reductions_of_empty_inputs() -> None:
    e = _f32((0, 3))
    assert ops.sum(e).asnumpy() == 0 and ops.prod(e).asnumpy() == 1
    np.testing.assert_array_equal(ops.sum(e, 0).asnumpy(), np.zeros(3))
    assert ops.amax(e, 1).shape == (0,)  # empty slices of none: an empty result
    assert ops.logsumexp(e, 0).asnumpy().tolist() == [-np.inf] * 3  # log of a sum of 0
    assert ops.logsumexp(e, 1).shape == (0,)
    assert bool(ops.all(e).asnumpy()) and not bool(ops.any(e).asnumpy())


@pytest.mark.parametrize("name,call", [
    ("amax", lambda e: ops.amax(e)), ("amax", lambda e: ops.amax(e, 0)),
    ("reduce_min", lambda e: ops.reduce_min(e, 0)), ("max", lambda e: ops.max(e, 0)),
    ("min", lambda e: ops.min(e)), ("argmax", lambda e: ops.argmax(e)),
    ("argmin", lambda e: ops.argmin(e, 0)),
])
def test_extremes_of_empty_slices_are_clear_errors(name, call) -> None:
    with pytest.raises(ValueError, match=rf"^For '{name}', the input of shape \[0, 3\] has no "
                                         r"element to reduce"):
        call(_f32((0, 3)))


# --- 0-d tensors with an axis ---------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda x: ops.sum(x, 0), lambda x: ops.sum(x, -1), lambda x: ops.sum(x, (0,), True),
    lambda x: ops.mean(x, 0), lambda x: ops.prod(x, 0), lambda x: ops.amax(x, 0),
    lambda x: ops.amin(x, -1), lambda x: ops.reduce_sum(x, 0), lambda x: ops.logsumexp(x, 0),
    lambda x: ops.norm(x, dim=0), lambda x: ops.norm(x, dim=-1),
    lambda x: ops.norm(x, ord=float("inf"), dim=0), lambda x: ops.norm(x, ord=1, dim=0),
    lambda x: ops.max(x, 0)[0], lambda x: ops.min(x, -1)[0], lambda x: ops.squeeze(x, 0),
])
def test_zero_d_with_axis_reduces_nothing(call) -> None:
    out = call(Tensor(-3.0))
    assert out.shape == ()
    assert abs(float(out.asnumpy())) == 3.0


def test_zero_d_with_axis_other_results() -> None:
    x = Tensor(3.0)
    assert int(ops.argmax(x, 0).asnumpy()) == 0 and int(ops.argmin(x, -1).asnumpy()) == 0
    assert int(ops.max(x, 0)[1].asnumpy()) == 0
    assert float(ops.log_softmax(x, 0).asnumpy()) == 0.0
    assert bool(ops.all(x, 0).asnumpy()) and bool(ops.any(x, -1).asnumpy())
    assert ops.grad(lambda t: ops.sum(t * t, 0))(x).asnumpy() == 6.0


@pytest.mark.parametrize("call,pattern", [
    (lambda x: ops.sum(x, 1), r"^For 'sum', 'axis' must be in range \[-1, 1\), but got 1"),
    (lambda x: ops.norm(x, dim=1), r"^For 'norm', 'dim' must be in range \[-1, 1\)"),
    # MindSpore's var and std take no axis of a 0-d input, and softmax no 0-d input
    (lambda x: ops.var(x, 0), r"^For 'var', a 0-D input has no axis, but got 'axis' 0"),
    (lambda x: ops.std(x, -1), r"^For 'std', a 0-D input has no axis"),
    (lambda x: ops.softmax(x, 0), r"^For 'softmax', 'input' must have rank >= 1"),
])
def test_zero_d_bad_axis_is_a_clear_error(call, pattern) -> None:
    with pytest.raises(ValueError, match=pattern):
        call(Tensor(3.0))


def test_var_of_zero_d_without_axis() -> None:
    assert float(ops.var(Tensor(3.0)).asnumpy()) == 0.0


# --- zero sizes and steps -------------------------------------------------------------------
@pytest.mark.parametrize("size", [0, -2])
def test_split_size_must_be_positive(size) -> None:
    with pytest.raises(ValueError, match=rf"^For 'split', 'split_size_or_sections' must be a "
                                         rf"positive int .*but got {size}\.$"):
        ops.split(Tensor(np.arange(4.0)), size)


def test_split_bad_types() -> None:
    with pytest.raises(TypeError, match="^For 'split', 'split_size_or_sections' must be an "
                                        "int or a tuple or list of ints, but got float"):
        ops.split(Tensor(np.arange(4.0)), 1.5)
    with pytest.raises(ValueError, match="^For 'split', 'x' must have rank >= 1"):
        ops.split(Tensor(1.0), 1)


@pytest.mark.parametrize("args,pattern", [
    ((0, 5, 0), r"^For 'arange', 'step' must not be 0\.$"),
    ((0.0, 1.0, 0.0), r"^For 'arange', 'step' must not be 0\.$"),
    ((0, 5, -1), r"^For 'arange', 'step' -1 leads away from 'end'"),
    ((5, 0, 1), r"^For 'arange', 'step' 1 leads away from 'end'"),
])
def test_arange_bad_steps(args, pattern) -> None:
    with pytest.raises(ValueError, match=pattern):
        ops.arange(*args)


def test_arange_values_and_types() -> None:
    assert ops.arange(5, 0, -2).asnumpy().tolist() == [5, 3, 1]
    assert ops.arange(Tensor(3)).asnumpy().tolist() == [0, 1, 2]
    assert ops.arange(2, 2).shape == (0,)
    with pytest.raises(TypeError, match="^For 'arange', 'end' must be an int, a float or a "
                                        "0-D Tensor, but got str"):
        ops.arange(0, "5")


# --- unknown keywords -----------------------------------------------------------------------
@pytest.mark.parametrize("call,name", [
    (lambda: ops.sin(Tensor(1.0), foo=1), "sin"),
    (lambda: ops.exp(Tensor(1.0), axis=0), "exp"),
    (lambda: ops.isnan(Tensor(1.0), bogus=True), "isnan"),
    (lambda: ops.add(Tensor(1.0), 2, alpha=1), "add"),
    (lambda: ops.equal(Tensor(1.0), 2, foo=1), "equal"),
    (lambda: ops.Sin()(Tensor(1.0), foo=1), r"Sin\.__call__"),
])
def test_unknown_keyword_names_the_function(call, name) -> None:
    with pytest.raises(TypeError, match=rf"^{name}\(\) got an unexpected keyword argument"):
        call()


def test_generated_front_ends_carry_their_names() -> None:
    assert ops.sin.__name__ == ops.sin.__qualname__ == "sin"
    assert ops.logical_and.__qualname__ == "logical_and"


def test_split_of_an_empty_axis_is_one_empty_chunk() -> None:
    # MindSpore: split(zeros((0, 2)), 2) gives one chunk of shape (0, 2)
    parts = ops.split(_f32((0, 2)), 2)
    assert [p.shape for p in parts] == [(0, 2)]
    assert [p.shape for p in ops.split(_f32((5, 2)), 2)] == [(2, 2), (2, 2), (1, 2)]


# --- empty axis tuples, as MindSpore reads them ---------------------------------------------
def test_empty_axis_tuples() -> None:
    x = Tensor(np.arange(6.0, dtype=np.float32).reshape(1, 6, 1))
    assert ops.squeeze(x, ()).shape == (6,)  # Squeeze()'s default: every size-1 axis
    np.testing.assert_array_equal(ops.flip(x, ()).asnumpy(), x.asnumpy())  # reverses none
    np.testing.assert_array_equal(ops.ReverseV2(())(x).asnumpy(), x.asnumpy())
    assert ops.sum(x, (), True).shape == (1, 1, 1)  # a reduction's (): every axis
    for call in (lambda: ops.softmax(x, ()), lambda: ops.log_softmax(x, ()),
                 lambda: ops.LogSoftmax(())(x)):
        with pytest.raises(ValueError, match=r"softmax', 'axis' must be an int or a non-empty"):
            call()


def test_a_tensor_is_not_a_dtype() -> None:
    with pytest.raises(TypeError, match="^For 'cast', 'dtype' must be a mindspore dtype"):
        ops.cast(Tensor(1.0), Tensor(1.0))


# --- argument checks the fuzzer asked for -----------------------------------------------------
def test_clipping_bounds_are_checked() -> None:
    x = Tensor(np.array([-1.0, 0.0, 2.0], np.float32))
    for call in (lambda: ops.clamp(x, float("nan"), 0.5),
                 lambda: ops.clip_by_value(x, float("nan"), 0.5)):
        with pytest.raises(ValueError,
                           match=r"^For '(clamp|clip_by_value)', '\w+' must not be NaN"):
            call()
    with pytest.raises(TypeError, match="^For 'clip_by_value', 'clip_value_max' must be a "
                                        "number, a Tensor or None, but got list"):
        ops.clip_by_value(x, 0.0, [1, 2])
    with pytest.raises(ValueError,
                       match=r"^For 'clamp', the shapes of 'x' \[3\], 'min' \[2\] can not"):
        ops.clamp(x, Tensor(np.zeros(2, np.float32)))


def test_get_grad_and_partial_name_themselves() -> None:
    grads = ((0, Tensor(np.ones(2, np.float32))),)
    assert ops.get_grad(grads, 0).shape == (2,)
    with pytest.raises(TypeError, match="^For 'get_grad', 'gradients' must be"):
        ops.get_grad([1, 2], 0)
    with pytest.raises(TypeError, match="^For 'get_grad', the identifier should be"):
        ops.get_grad(grads, 1.5)
    with pytest.raises(RuntimeError, match="^For 'get_grad', can not find the gradient for "
                                           "position or Parameter 3"):
        ops.get_grad(grads, 3)
    with pytest.raises(TypeError, match="^For 'partial', 'func' must be callable, but got int"):
        ops.partial(3)
    assert float(ops.partial(ops.add, Tensor(1.0))(Tensor(2.0)).asnumpy()) == 3.0
    with pytest.raises(TypeError, match=r"^Map\.__call__\(\) got an unexpected keyword"):
        ops.Map()(ops.sin, (Tensor(1.0),), bogus=1)


def test_a_numpy_int_ddof_keeps_the_dtype() -> None:
    x = Tensor(np.array([1.0, 2.0, 4.0], np.float32))
    for fn in (ops.var, ops.std):
        out = fn(x, 0, np.int64(1))
        assert out.dtype == x.dtype
        np.testing.assert_allclose(out.asnumpy(), getattr(np, fn.__name__)(
            x.asnumpy(), ddof=1), rtol=1e-6)


def test_absurd_sizes_and_vector_transposes_are_clear_errors() -> None:
    x = Tensor(np.ones(3, np.float32))
    with pytest.raises(ValueError, match=r"^For 'broadcast_to', 'shape' \(1000000000000, 3\) "
                                         r"asks for"):
        ops.broadcast_to(x, (10 ** 12, 3))
    with pytest.raises(ValueError, match="^For 'one_hot', 'depth'"):
        ops.one_hot(Tensor(np.zeros(0, np.int64)), 10 ** 12)
    with pytest.raises(ValueError, match=r"^For 'matmul', transposing 'y' needs a matrix"):
        ops.matmul(Tensor(np.ones((2, 3), np.float32)), x, transpose_b=True)
    with pytest.raises(ValueError, match=r"^For 'zeros', 'shape' \(1000000000000,\) asks for"):
        ops.zeros(10 ** 12)


def test_scatter_with_no_index_leaves_the_input() -> None:
    x = Tensor(np.arange(12.0, dtype=np.float32).reshape(4, 3))
    none, nothing = Tensor(np.zeros((0, 1), np.int64)), Tensor(np.zeros((0, 3), np.float32))
    for fn in (ops.tensor_scatter_update, ops.tensor_scatter_add):
        np.testing.assert_array_equal(fn(x, none, nothing).asnumpy(), x.asnumpy())


def test_vecdot_takes_tensors_and_large_ints_are_clear() -> None:
    """MindSpore's vecdot takes Tensors only; a Python int beyond int64 beside an int64
    Tensor was an unclear OverflowError. Products and sums of int64 wrap around."""
    a = Tensor(np.array([-2 ** 63, 1], np.int64))
    for other in (2 ** 63, 2.0, [1, 2], np.ones(2, np.int64)):
        with pytest.raises(TypeError, match="For 'vecdot', 'x' and 'y' must be Tensors"):
            ops.vecdot(a, other)
        with pytest.raises(TypeError, match="For 'vecdot'"):
            ops.vecdot(other, a)
    assert int(ops.vecdot(a, Tensor(np.array([1, 1], np.int64)))) == -2 ** 63 + 1
    assert int(ops.vecdot(a, Tensor(np.array([2, 3], np.int64)))) == 3  # -2**64 wraps to 0
    with pytest.raises(ValueError, match="For 'float_power', 'exponent' 18446744073709551616 "
                                         "is out of range"):
        ops.float_power(a, 2 ** 64)


def test_python_ints_beyond_int64() -> None:
    """Ints from 2**63 up are uint64, as in NumPy and MindSpore (they wrapped to negative
    int64 values); beyond uint64 a ValueError names Tensor."""
    t = Tensor(2 ** 63)
    assert t.dtype == ms.uint64 and int(t) == 2 ** 63
    assert Tensor([2 ** 63, 2 ** 63 + 5]).dtype == ms.uint64
    assert float(Tensor(2 ** 63, ms.float32)) == 2.0 ** 63
    assert Tensor([1, 2 ** 63]).dtype == ms.float32  # mixed: float, as in MindSpore
    assert Tensor(2 ** 63 - 1).dtype == ms.int64
    for v in (2 ** 64, -2 ** 63 - 1):
        with pytest.raises(ValueError, match="For 'Tensor', the int .* is out of the range"):
            Tensor(v)


@pytest.mark.parametrize("op", ["adaptive_avg_pool2d", "adaptive_max_pool2d",
                                "adaptive_avg_pool3d", "adaptive_max_pool3d"])
def test_adaptive_pooling_to_an_absurd_size_is_clear(op) -> None:
    """It listed every window of the output first: a MemoryError (or a killed process)."""
    x = Tensor(np.ones((1, 2) + (4,) * int(op[-2]), np.float32))
    with pytest.raises(ValueError, match=f"^For '{op}', .* more than"):
        getattr(ops, op)(x, 2 ** 40)
    assert getattr(ops, op)(x, 8).shape == (1, 2) + (8,) * int(op[-2])  # larger is fine


def test_max_pooling_and_nan_as_mindspore() -> None:
    """MindSpore's MaxPool (2-D) skips NaN, its MaxPool3D gives NaN for a window holding
    one; mindgrad's 2-D pooling kept a NaN only in a window's first place."""
    for pos in np.ndindex(2, 2, 2):
        v = np.zeros((1, 1, 2, 2, 2), np.float32)
        v[(0, 0) + pos] = np.nan
        assert np.isnan(ops.max_pool3d(Tensor(v), 2).asnumpy()).all()
        plane = v[:, :, pos[0]] - 5.0
        assert ops.max_pool2d(Tensor(plane), 2).asnumpy().ravel().tolist() == [-5.0]
    grad = ops.grad(lambda t: ops.max_pool2d(t, 2).sum())(Tensor(np.array(
        [[[[np.nan, 1.0], [3.0, 2.0]]]], np.float32)))
    assert grad.asnumpy().ravel().tolist() == [0.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize("call, pattern", [
    (lambda x, w: ops.conv3d(x.astype(ms.float64), w), "For 'conv3d', 'input' and 'weight'"),
    (lambda x, w: ops.conv3d(x, w.astype(ms.int32)), "For 'conv3d', 'weight' must be a float"),
    (lambda x, w: ops.conv3d(x, Tensor(np.ones((0, 2, 2, 2, 2), np.float32))),
     "For 'conv3d', 'weight' must not be empty"),
    (lambda x, w: ops.avg_pool3d(x.astype(ms.int64), 2), "For 'avg_pool3d', 'input_x' must"),
    (lambda x, w: ops.max_pool3d(x.astype(ms.complex64), 2), "For 'max_pool3d', 'x' must"),
    (lambda x, w: ops.conv3d_transpose(x, w.astype(ms.float16)), "For 'conv3d_transpose'"),
])
def test_three_d_errors_name_the_three_d_op(call, pattern) -> None:
    x = Tensor(np.ones((1, 2, 4, 4, 4), np.float32))
    w = Tensor(np.ones((2, 2, 2, 2, 2), np.float32))
    with pytest.raises((TypeError, ValueError), match=f"^{pattern}"):
        call(x, w)
