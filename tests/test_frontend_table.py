"""The front end's name table (``mindgrad/ops/names.py``): every row's function, operator
classes and Tensor methods exist and are what the row says, and a row added at run time
(with a new elementwise primitive) appears in all three places."""
from __future__ import annotations

import subprocess
import sys
from types import FunctionType

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, ops
from mindgrad.core import primitive as core_primitive
from mindgrad.ops import families, functional, names, operations, tensor_methods
from mindgrad.ops.functional import elementwise
from mindgrad.ops.primitive import Primitive


def test_every_method_of_the_table_is_on_tensor_after_import_mindgrad():
    # a fresh interpreter: importing mindgrad alone (not mindgrad.ops) installs them
    code = ("import mindgrad\n"
            "from mindgrad.ops import names, tensor_methods as tm\n"
            "written = [*tm._METHODS, *(n for n in vars(tm._Methods) if n[:2] != '__')]\n"
            "missing = [m for m in [*(m for r in names.ROWS for m in r.method), *written]\n"
            "           if getattr(mindgrad.Tensor, m, None) is None]\n"
            "print(len(written) > 60, missing)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "True []"


def test_written_methods_keep_their_names_and_arguments():
    x = Tensor(np.arange(6.0).reshape(2, 3).astype(np.float32))
    assert x.reshape(3, 2).shape == (3, 2) and x.reshape((6,)).shape == (6,)
    assert x.T.shape == (3, 2) and x.view(6).shape == (6,)
    assert float(x.sum()) == 15.0 and x.sum(dtype=ms.int32).dtype == ms.int32
    c = x.copy()
    assert c is not x and c._data is not x._data and (c == x).all()
    assert bool(x.eq(x).all()) and not bool(x.lt(x).any())
    with pytest.raises(TypeError, match=r"Tensor\.sum\(\) got an unexpected keyword"):
        x.sum(foo=1)


def test_table_methods_are_the_functions_themselves():
    methods = [(m, r.name) for r in names.ROWS for m in r.method]
    assert len(methods) > 90
    for method, fname in methods:
        fn = families.function(fname)
        assert isinstance(fn, FunctionType), fname
        assert vars(Tensor)[method] is fn, method  # no wrapper to call through
    x = Tensor(np.array([[1.0, -2.0], [3.0, 0.5]], np.float32))
    np.testing.assert_allclose(x.negative().asnumpy(), -x.asnumpy())
    np.testing.assert_allclose(x.tril().asnumpy(), np.tril(x.asnumpy()))
    np.testing.assert_allclose(x.multiply(2.0).asnumpy(), x.asnumpy() * 2)
    assert x.sort()[0].asnumpy().tolist() == [[-2.0, 1.0], [0.5, 3.0]]


def test_every_op_class_of_the_table_forwards_to_its_function():
    x = Tensor(np.array([0.25, 0.5, 0.75], np.float32))
    for row in names.ROWS:
        fn = families.function(row.name)
        for cls_name in row.op:
            cls = getattr(operations, cls_name)
            assert getattr(ops, cls_name) is cls
            assert isinstance(cls, type) and issubclass(cls, Primitive)
            op = cls()
            assert isinstance(op, cls) and repr(op) == f"Prim[{cls_name}]"
            assert cls_name in operations.__all__
            if row.kind == "unary":
                np.testing.assert_array_equal(op(x).asnumpy(), fn(x).asnumpy())
            elif row.kind in ("binary", "arith"):
                np.testing.assert_array_equal(op(x, x).asnumpy(), fn(x, x).asnumpy())


def test_generated_functions_and_aliases_are_in_functional_and_ops():
    for row in names.ROWS:
        if row.prim is None:
            continue
        fn = getattr(functional, row.name)
        assert fn.__name__ == row.name
        for name in (row.name, *row.alias):
            assert getattr(functional, name) is fn and getattr(ops, name) is fn
            assert name in functional.__all__ and name in ops.__all__
    assert ops.arcsin is ops.asin and ops.divide is ops.div
    x = Tensor(np.array([1.0, 4.0], np.float32))
    np.testing.assert_array_equal(ops.RealDiv()(x, 2.0).asnumpy(), ops.div(x, 2.0).asnumpy())


def test_op_class_with_attributes():
    x = Tensor(np.array([-2.0, 3.0], np.float32))
    assert ops.LeakyReLU().alpha == 0.2
    op = ops.LeakyReLU(0.1)
    assert op.alpha == 0.1 and ops.LeakyReLU(alpha=0.3).alpha == 0.3
    np.testing.assert_allclose(op(x).asnumpy(), [-0.2, 3.0], rtol=1e-6)
    with pytest.raises(TypeError, match="LeakyReLU"):
        ops.LeakyReLU(0.1, 0.2)
    with pytest.raises(TypeError, match="LeakyReLU"):
        ops.LeakyReLU(beta=0.1)


def test_op_classes_stay_subclassable():
    class Doubled(ops.Sin):
        def __call__(self, x):
            return super().__call__(x) * 2

    x = Tensor(np.array([0.5], np.float32))
    out = Doubled()(x)
    np.testing.assert_allclose(out.asnumpy(), 2 * np.sin([0.5]), rtol=1e-6)
    assert isinstance(Doubled(), ops.Sin) and repr(Doubled()) == "Prim[Doubled]"


@pytest.fixture
def restored(monkeypatch):
    """Undo what ``names.add`` installs: the row, the names in the modules, the method."""
    monkeypatch.setattr(core_primitive, "_registry", dict(core_primitive._registry))
    modules = (elementwise, functional, ops, operations)
    before = {m: (set(vars(m)), list(m.__all__)) for m in modules}
    rows, tensor_names = list(names.ROWS), set(vars(Tensor))
    yield
    names.ROWS[:] = rows
    for m, (keys, all_) in before.items():
        for k in set(vars(m)) - keys:
            delattr(m, k)
        m.__all__[:] = all_
    for k in set(vars(Tensor)) - tensor_names:
        delattr(Tensor, k)


def test_adding_a_row_gives_function_op_class_and_method(restored):
    from mindgrad.prims import arith as A
    from mindgrad.prims.unary import unary

    # one block in prims ...
    cube = unary("TableTestCube", lambda x: x * x * x, lambda x, ans: A.mul(3.0, A.mul(x, x)))
    # ... and one row in the table
    names.add(names.unary_op("table_test_cube", cube, op="TableTestCube",
                             method="table_test_cube", alias="table_test_cube2"))

    x = Tensor(np.array([1.0, -2.0, 0.5], np.float32))
    want = x.asnumpy() ** 3
    fn = ops.functional.table_test_cube
    assert ops.table_test_cube is fn and ops.table_test_cube2 is fn
    assert "table_test_cube" in ops.functional.__all__ and "table_test_cube" in ops.__all__
    np.testing.assert_allclose(fn(x).asnumpy(), want)
    np.testing.assert_allclose(fn([1.0, -2.0, 0.5]).asnumpy(), want)  # a list converts
    cls = ops.operations.TableTestCube
    assert ops.TableTestCube is cls and issubclass(cls, Primitive)
    np.testing.assert_allclose(cls()(x).asnumpy(), want)
    np.testing.assert_allclose(x.table_test_cube().asnumpy(), want)
    # with its derivative, eager and compiled
    grad = ops.grad(lambda t: t.table_test_cube().sum())
    np.testing.assert_allclose(grad(x).asnumpy(), 3 * x.asnumpy() ** 2, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(grad)(x).asnumpy(), 3 * x.asnumpy() ** 2, rtol=1e-6)
    with pytest.raises(TypeError, match="table_test_cube"):
        fn("a")
    with pytest.raises(ValueError, match="already in the table"):
        names.add(names.unary_op("table_test_cube", cube))


def test_a_method_defined_twice_is_refused():
    class Other:
        sin = None

    with pytest.raises(TypeError, match="'sin' is both defined by Other"):
        tensor_methods._set(Other, "sin", ops.sin)
