"""Tensor basics, printing, context, seeding, ``mindspore`` aliasing and the CLI."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import ops
from mindgrad import Parameter, Tensor


# --- construction ---------------------------------------------------------------------------
@pytest.mark.parametrize("data,dtype,npdt", [
    (1.0, ms.float32, np.float32),
    (1, ms.int64, np.int64),
    (True, ms.bool_, np.bool_),
    ([1, 2], ms.int64, np.int64),
    ([1.0, 2], ms.float32, np.float32),
    ((1.5, 2.5), ms.float32, np.float32),
    ([[True], [False]], ms.bool_, np.bool_),
    (np.array([1.0]), ms.float64, np.float64),
    (np.array([1], np.int32), ms.int32, np.int32),
    (np.float32(2.0), ms.float32, np.float32),
])
def test_default_dtypes(data, dtype, npdt) -> None:
    x = Tensor(data)
    assert x.dtype == dtype
    assert x.asnumpy().dtype == npdt
    np.testing.assert_array_equal(x.asnumpy(), np.asarray(data))


def test_explicit_dtype_and_copies() -> None:
    x = Tensor([1, 2], dtype=ms.float32)
    assert x.dtype == ms.float32 and x.asnumpy().dtype == np.float32
    y = Tensor(np.array([1.7, -2.2]), ms.int32)
    assert y.dtype == ms.int32
    np.testing.assert_array_equal(y.asnumpy(), [1, -2])
    z = Tensor(x)
    assert z.dtype == ms.float32 and np.array_equal(z.asnumpy(), [1, 2])
    assert Tensor(shape=(2, 3), dtype=ms.float64).asnumpy().tolist() == [[0.0] * 3] * 2
    # asnumpy returns a copy: changing it does not change the tensor
    a = x.asnumpy()
    a[0] = 100
    np.testing.assert_array_equal(x.asnumpy(), [1, 2])
    # a tensor does not alias the NumPy array it was built from either way round
    src = np.array([1.0, 2.0])
    t = Tensor(src)
    np.testing.assert_array_equal((t * 2).asnumpy(), [2, 4])
    np.testing.assert_array_equal(src, [1.0, 2.0])


def test_metadata() -> None:
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert x.shape == (2, 3) and isinstance(x.shape, tuple)
    assert x.ndim == 2 and x.size == 6 and len(x) == 2
    assert x.dtype == ms.float32
    assert str(x.dtype) == "Float32" and repr(x.dtype) == "mindspore.float32"
    assert str(ms.int64) == "Int64" and repr(ms.float64) == "mindspore.float64"
    assert x.itemsize == 4 and x.nbytes == 24
    assert x.is_floating_point() and not Tensor([1]).is_floating_point()
    assert Tensor(2.5).item() == 2.5 and x.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert float(Tensor([2.5])) == 2.5 and int(Tensor(3)) == 3
    with pytest.raises(ValueError, match="ambiguous"):
        bool(Tensor([1.0, 2.0]))
    assert bool(Tensor([1.0])) and not bool(Tensor(0.0))


# --- arithmetic -------------------------------------------------------------------------------
def test_arithmetic_broadcasting_and_scalars() -> None:
    a = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))
    b = Tensor(np.array([10.0, 20.0, 30.0], np.float32))
    an, bn = a.asnumpy(), b.asnumpy()
    cases = {
        "add": (a + b, an + bn), "sub": (a - b, an - bn), "mul": (a * b, an * bn),
        "div": (a / b, an / bn), "radd": (1 + a, 1 + an), "rsub": (1.5 - a, 1.5 - an),
        "rmul": (2 * a, 2 * an), "rdiv": (6 / a, 6 / an), "pow": (a ** 2, an ** 2),
        "rpow": (2 ** a, 2.0 ** an), "neg": (-a, -an), "abs": (abs(-a), an),
        "floordiv": (a // 4, an // 4), "mod": (a % 4, an % 4),
        "outer": (a[:, 0:1] * b, an[:, 0:1] * bn),
        "matmul": (a @ Tensor(np.ones((3, 1), np.float32)), an @ np.ones((3, 1))),
    }
    for name, (got, want) in cases.items():
        assert got.shape == want.shape, name
        assert got.dtype == ms.float32, name  # Python scalars never change the dtype
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6, err_msg=name)
    # ints stay ints; int / int is a float division as in MindSpore
    i = Tensor([1, 2, 3])
    assert (i + 1).dtype == ms.int64 and (i * i).asnumpy().tolist() == [1, 4, 9]
    assert (i / 2).asnumpy().tolist() == [0.5, 1.0, 1.5]
    # NumPy arrays on either side become tensors
    np.testing.assert_array_equal((np.array([1.0, 2.0]) * Tensor([3.0, 4.0])).asnumpy(), [3, 8])


def test_comparisons_and_logic() -> None:
    a = Tensor([1.0, 2.0, 3.0])
    b = Tensor([3.0, 2.0, 1.0])
    for got, want in (((a < b), [True, False, False]), ((a <= b), [True, True, False]),
                      ((a > b), [False, False, True]), ((a >= 2), [False, True, True]),
                      ((a == b), [False, True, False]), ((a != b), [True, False, True])):
        assert got.dtype == ms.bool_
        assert got.asnumpy().tolist() == want
    m = (a > 1) & (b > 1)
    assert m.asnumpy().tolist() == [False, True, False]
    assert ((a > 2) | (b > 2)).asnumpy().tolist() == [True, False, True]
    assert (~(a > 1)).asnumpy().tolist() == [True, False, False]
    np.testing.assert_array_equal(ops.select(a > b, a, b).asnumpy(), [3, 2, 3])


def test_indexing() -> None:
    x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) + 0.5)
    assert x[0][0].shape == () and float(x[0][0]) == 0.5
    assert repr(x[1][2]) == "Tensor(shape=[], dtype=Float32, value= 6.5)"
    xn = x.asnumpy()
    for idx in [1, -1, (1, 2), slice(None, None, 2), (slice(None), slice(1, None, 2)),
                (Ellipsis, 0), (None, 0), np.array([True, False, True]), [0, 0, 2],
                Tensor(np.array([2, 0]))]:
        want = xn[idx.asnumpy() if isinstance(idx, Tensor) else idx]
        got = x[idx]
        assert got.shape == want.shape, idx
        np.testing.assert_array_equal(got.asnumpy(), want)
    assert [float(r.sum()) for r in x] == [8.0, 24.0, 40.0]
    x[0] = 1.0  # rebinds x to an updated copy; xn (taken before) is unchanged
    xn2 = xn.copy()
    xn2[0] = 1.0
    np.testing.assert_array_equal(x.asnumpy(), xn2)
    assert xn[0, 0] == 0.5


def test_methods() -> None:
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    xn = x.asnumpy()
    assert float(x.sum()) == 15.0
    np.testing.assert_array_equal(x.sum(axis=0).asnumpy(), [3, 5, 7])
    assert x.sum(axis=1, keepdims=True).shape == (2, 1)
    assert float(x.mean()) == 2.5
    np.testing.assert_allclose(x.mean(axis=1).asnumpy(), [1, 4])
    assert x.reshape(3, 2).shape == (3, 2) and x.reshape((6,)).shape == (6,)
    assert x.reshape(-1, 2).shape == (3, 2)
    np.testing.assert_array_equal(x.transpose().asnumpy(), xn.T)
    np.testing.assert_array_equal(x.transpose(1, 0).asnumpy(), xn.T)
    np.testing.assert_array_equal(x.T.asnumpy(), xn.T)
    y = x.astype(ms.int32)
    assert y.dtype == ms.int32 and y.asnumpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    assert x.astype(ms.float64).dtype == ms.float64
    assert float(x.max()) == 5.0 and float(x.min()) == 0.0
    np.testing.assert_array_equal(x.argmax(axis=1).asnumpy(), [2, 2])
    assert x.expand_dims(0).shape == (1, 2, 3) and x.expand_dims(0).squeeze().shape == (2, 3)
    np.testing.assert_array_equal(x.flatten().asnumpy(), np.arange(6))
    np.testing.assert_allclose(x.exp().asnumpy(), np.exp(xn), rtol=1e-6)
    np.testing.assert_allclose(x.clip(1, 4).asnumpy(), np.clip(xn, 1, 4))
    np.testing.assert_allclose(x.var().asnumpy(), np.var(xn), rtol=1e-6)
    assert x.asnumpy().tolist() == xn.tolist()  # methods never modify the tensor


# --- printing ---------------------------------------------------------------------------------
def test_print_and_repr(capsys) -> None:
    t = Tensor([1.0, 2.0])
    assert str(t) == "[1. 2.]"
    assert repr(t) == "Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])"
    m = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert str(m) == "[[0. 1. 2.]\n [3. 4. 5.]]"
    two = Tensor(np.array([[2.0, 10.0], [3.0, -4.0]], np.float32))
    assert repr(two) == ("Tensor(shape=[2, 2], dtype=Float32, value=\n"
                         "[[ 2.00000000e+00,  1.00000000e+01],\n"
                         " [ 3.00000000e+00, -4.00000000e+00]])")
    assert repr(Tensor(3.5)) == "Tensor(shape=[], dtype=Float32, value= 3.5)"
    assert repr(Tensor(3)) == "Tensor(shape=[], dtype=Int64, value= 3)"
    assert repr(Tensor([True, False])) == "Tensor(shape=[2], dtype=Bool, value= [ True, False])"
    assert repr(Tensor(np.array([3], np.int32))) == "Tensor(shape=[1], dtype=Int32, value= [3])"
    print(t)
    print((t, Tensor(np.array([3], np.int32))))
    print(t.dtype)
    assert capsys.readouterr().out == (
        "[1. 2.]\n"
        "(Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00]), "
        "Tensor(shape=[1], dtype=Int32, value= [3]))\n"
        "Float32\n")


def test_parameter_repr_and_print(capsys) -> None:
    w = Parameter(Tensor(np.array([2.0], np.float32)), name="w")
    want = "Parameter (name=w, shape=(1,), dtype=Float32, requires_grad=True)"
    assert repr(w) == want
    print(w)
    frozen = Parameter(Tensor(np.zeros((2, 3))), name="b", requires_grad=False)
    print(frozen)
    assert capsys.readouterr().out == want + "\n" + (
        "Parameter (name=b, shape=(2, 3), dtype=Float64, requires_grad=False)\n")
    assert isinstance(w, Tensor)
    np.testing.assert_array_equal((w * 2).asnumpy(), [4.0])


def test_parameter_set_data() -> None:
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    w.set_data(Tensor(np.array([5.0, 6.0])))
    assert w.dtype == ms.float32
    np.testing.assert_array_equal(w.asnumpy(), [5.0, 6.0])
    w.assign_value(Tensor(np.array([7.0, 8.0], np.float32)))
    np.testing.assert_array_equal(w.asnumpy(), [7.0, 8.0])
    c = w.clone()
    c.set_data(Tensor(np.array([0.0, 0.0], np.float32)))
    np.testing.assert_array_equal(w.asnumpy(), [7.0, 8.0])


# --- context and seeds -----------------------------------------------------------------------
def test_context_set_get() -> None:
    assert ms.get_context("mode") == ms.PYNATIVE_MODE
    try:
        ms.set_context(mode=ms.GRAPH_MODE)
        assert ms.get_context("mode") == ms.GRAPH_MODE == ms.context.GRAPH_MODE
        ms.context.set_context(mode=ms.context.PYNATIVE_MODE, device_target="CPU")
        assert ms.get_context("mode") == ms.PYNATIVE_MODE
        assert ms.get_context("device_target") == "CPU"
        with pytest.raises(ValueError, match="mode"):
            ms.set_context(mode=5)
        assert ms.get_context("mode") == ms.PYNATIVE_MODE
        with pytest.raises(ValueError, match="device_target"):
            ms.set_context(device_target="TPU")
        with pytest.raises(ValueError, match="unknown"):
            ms.get_context("no_such_key")
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")


def test_set_seed_reproducible() -> None:
    from mindgrad.common.random import generator

    ms.set_seed(123)
    a = generator().standard_normal(4)
    b = np.random.rand(2)
    ms.set_seed(123)
    np.testing.assert_array_equal(generator().standard_normal(4), a)
    np.testing.assert_array_equal(np.random.rand(2), b)
    ms.set_seed(124)
    assert not np.array_equal(generator().standard_normal(4), a)
    with pytest.raises(ValueError, match="seed"):
        ms.set_seed(-1)


# --- mindspore aliasing ----------------------------------------------------------------------
def test_mindspore_aliasing() -> None:
    from mindgrad import compat

    compat.uninstall()  # a clean slate, whatever ran before
    compat.install()
    try:
        import mindspore
        import mindspore.nn as nn
        import mindspore.ops.functional
        from mindspore import dtype as mstype
        from mindspore.ops import composite, operations
        import mindspore.context as context

        assert mindspore is ms
        assert nn is ms.nn and mstype is ms.dtype and context is ms.context
        assert mindspore.ops.functional is ms.ops.functional
        assert composite is ms.ops.composite and operations is ms.ops.operations
        assert mstype.float32 == ms.float32
        assert mindspore.Tensor is Tensor and mindspore.ops.GradOperation is ops.GradOperation
        g = mindspore.ops.grad(lambda x: x * x)(mindspore.Tensor([3.0]))
        np.testing.assert_array_equal(g.asnumpy(), [6.0])
        with pytest.raises(ImportError):
            import mindspore.no_such_module  # noqa: F401
        # namespaces as in MindSpore 2.x
        assert hasattr(mindspore, "_no_grad") and not hasattr(mindspore, "no_grad")
        assert not hasattr(mindspore.ops, "custom_vjp")
        assert mindspore.PYNATIVE_MODE == 1 and mindspore.GRAPH_MODE == 0
    finally:
        compat.uninstall()
    assert not any(n == "mindspore" or n.startswith("mindspore.") for n in sys.modules)


# --- the CLI --------------------------------------------------------------------------------
SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import mindspore as ms
    import mindspore.nn as nn
    import mindspore.ops as ops
    from mindspore import Tensor, Parameter

    ms.set_context(mode=ms.GRAPH_MODE)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([2.0], np.float32)), name='w')

        def construct(self, x):
            return x * x * self.w

    print(sys.argv[1:])
    print(ops.GradOperation()(Net())(Tensor([1.0, 3.0])))
    print(__name__, ms.__name__)
""")


def _run_cli(*args: str, cwd: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(ms.__file__))] + sys.path))
    return subprocess.run([sys.executable, "-m", "mindgrad", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_cli_runs_script_with_arguments(tmp_path) -> None:
    (tmp_path / "script.py").write_text(SCRIPT)
    res = _run_cli("run", "script.py", "--lr", "0.1", "pos", cwd=str(tmp_path))
    assert res.returncode == 0, res.stderr
    assert res.stdout == "['--lr', '0.1', 'pos']\n[ 4. 12.]\n__main__ mindgrad\n"


def test_cli_missing_script_and_errors(tmp_path, capsys) -> None:
    res = _run_cli("run", "does_not_exist.py", cwd=str(tmp_path))
    assert res.returncode == 2
    assert "does_not_exist.py" in res.stderr and res.stdout == ""
    (tmp_path / "boom.py").write_text("import mindspore\nraise RuntimeError('boom here')\n")
    res = _run_cli("run", "boom.py", cwd=str(tmp_path))
    assert res.returncode == 1 and "RuntimeError: boom here" in res.stderr
    # the argument parser, in-process
    from mindgrad.cli import main

    assert main(["version"]) == 0
    assert capsys.readouterr().out.strip() == ms.__version__
    with pytest.raises(SystemExit) as info:
        main([])  # no command
    assert info.value.code == 2


def test_sum_of_a_float_scalar_is_the_scalar_itself():
    """Summing or averaging a 0-d float tensor over all axes records no operation; integer
    sums still widen, and a Parameter is never handed back as its own sum."""
    x = ms.Tensor(np.array(2.5, np.float32))
    assert x.sum() is x and ops.mean(x) is x and ops.sum(x, keepdim=True) is x
    assert ms.Tensor(np.array(3, np.int8)).sum().dtype == ms.int64
    p = ms.Parameter(ms.Tensor(np.array(1.5, np.float32)), name="p")
    assert type(p.sum()) is ms.Tensor and float(p.sum()) == 1.5
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            g = ms.jit(ops.grad(lambda a: (a * a).sum().sum().mean()))(x)
            assert float(g) == 5.0
            gp = ops.grad(lambda a: (a * p).sum(), weights=[p])(x)
            assert float(gp[1][0]) == 2.5
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)


def test_transformations_never_return_the_parameter_itself():
    """A Parameter passed as an input is seen by its value: an output that is the input
    (the sum of a scalar) is a fresh Tensor that later set_data calls do not change."""
    p = Parameter(Tensor(np.float32(2.0)), name="p")
    loss, g = ops.value_and_grad(lambda a: a.mean())(p)
    jv = ops.jvp(lambda a: a.sum(), (p,), (Tensor(np.float32(1.0)),))[0]
    q = Parameter(Tensor(np.ones(2, np.float32)), name="q")
    vm = ops.vmap(lambda a: a.sum())(q)
    p.set_data(Tensor(np.float32(5.0)))
    assert type(loss) is Tensor and float(loss) == 2.0 and float(g) == 1.0
    assert type(jv) is Tensor and float(jv) == 2.0
    assert type(vm) is Tensor and vm.asnumpy().tolist() == [1.0, 1.0]


@pytest.mark.parametrize("expr,dtype,want", [
    (lambda i, f: i + 1.5, "Float32", [2.5, 3.5]),
    (lambda i, f: 1.5 * i, "Float32", [1.5, 3.0]),
    (lambda i, f: i ** 0.5, "Float32", [1.0, 2.0 ** 0.5]),
    (lambda i, f: ops.maximum(i, 1.5), "Float32", [1.5, 2.0]),
    (lambda i, f: f / np.sqrt(4.0), "Float32", [0.5, 1.0]),  # a NumPy float64 scalar
    (lambda i, f: i * 2, "Int32", [2, 4]),
    (lambda i, f: i < 1.5, "Bool", [True, False]),
    (lambda i, f: (i > 1) + 1, "Int64", [1, 2]),  # a bool tensor and an int: int64
    (lambda i, f: 2 * (i > 1), "Int64", [0, 2]),
    (lambda i, f: i / 2, "Float32", [0.5, 1.0]),  # integers divide in float32
    (lambda i, f: i / i, "Float32", [1.0, 1.0]),
    (lambda i, f: (i > 1) * 0.5, "Float32", [0.0, 0.5]),
])
def test_float_scalars_are_weakly_typed(expr, dtype, want) -> None:
    """As in MindSpore, a float scalar takes the tensor's float dtype and an integer tensor
    meeting one becomes float32 (NumPy alone would give float64), in both modes."""
    i = Tensor(np.array([1, 2], np.int32))
    f = Tensor(np.array([1.0, 2.0], np.float32))
    for fn in (expr, ms.jit(expr)):
        out = fn(i, f)
        assert str(out.dtype) == dtype
        np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-7)
    h = Tensor(np.array([1.0, 2.0], np.float16))
    assert str((h * 0.5).dtype) == "Float16"


def test_tensor_takes_attributes_of_users_own():
    """MindSpore Tensors accept attributes set by user code (its custom-function test stores
    one tensor on another in forward and reads it back in backward)."""
    x = ms.Tensor([1.0, 2.0])
    x.tag = "weights"
    x.partner = ms.Tensor([3.0])
    assert x.tag == "weights" and float(x.partner.asnumpy()[0]) == 3.0
    y = ms.Tensor([1.0, 2.0])
    assert not hasattr(y, "tag")  # per tensor, not per class
