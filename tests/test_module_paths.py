"""MindSpore's module paths and the helpers real programs import from them: ``mindspore.common``,
``ops.functional`` / ``composite`` / ``operations`` (F, C, P) with their submodules,
``ops.primitive``, ``_checkparam``, ``_extends``, ``nn.grad`` / ``nn.layer``,
``common.api`` (``jit_class``, ``_pynative_executor``), MultitypeFuncGraph / HyperMap / Map,
and MindSpore 2.x's ``print(cell)``. Expected values were recorded from MindSpore 2.10."""
from __future__ import annotations

import importlib
import sys
import types
import warnings

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, nn, ops

PATHS = [
    "mindspore.common", "mindspore.common.tensor", "mindspore.common.parameter",
    "mindspore.common.dtype", "mindspore.common.initializer", "mindspore.common.api",
    "mindspore.ops.functional", "mindspore.ops.composite", "mindspore.ops.composite.base",
    "mindspore.ops.operations", "mindspore.ops.operations.math_ops",
    "mindspore.ops.operations.array_ops", "mindspore.ops.operations.nn_ops",
    "mindspore.ops.primitive", "mindspore.ops.function", "mindspore.ops.auto_generate",
    "mindspore.ops.function.grad", "mindspore.ops.function.grad.grad_func",
    "mindspore.nn.grad", "mindspore.nn.cell", "mindspore.nn.layer", "mindspore.nn.loss",
    "mindspore.nn.optim", "mindspore.nn.wrap", "mindspore._checkparam", "mindspore._extends",
    "mindspore.numpy", "mindspore.mint", "mindspore.mint.nn", "mindspore.mint.nn.functional",
    "mindspore.mint.optim",
]


@pytest.fixture
def mindspore_paths():
    from mindgrad import compat

    compat.uninstall()
    compat.install()
    try:
        yield
    finally:
        compat.uninstall()


def _module_attributes() -> dict:
    """Every (module, attribute) -> object of mindgrad's own modules."""
    return {(name, attr): id(value) for name, mod in list(sys.modules.items())
            if name.startswith("mindgrad") and isinstance(mod, types.ModuleType)
            for attr, value in list(vars(mod).items())}


def test_every_path_imports_and_leaves_mindgrad_as_it_was(mindspore_paths):
    before = _module_attributes()
    for path in PATHS:
        importlib.import_module(path)
    after = _module_attributes()
    changed = [k for k, v in before.items() if after.get(k) != v]
    assert changed == []  # an alias never replaces an attribute of a mindgrad module
    assert ms.common.tensor.__spec__.name == "mindgrad.core.tensor"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # relative imports inside aliased modules still work
        Tensor(np.ones(2))
    import mindspore.common as common
    import mindspore.ops.composite as C
    import mindspore.ops.functional as F
    import mindspore.ops.operations as P
    from mindspore.common.api import _pynative_executor, jit, jit_class  # noqa: F401
    from mindspore.nn.grad import Jvp, Vjp  # noqa: F401
    from mindspore.ops.composite.base import GradOperation, HyperMap  # noqa: F401
    from mindspore.ops.operations.math_ops import MatMul  # noqa: F401
    from mindspore.ops.primitive import (Primitive, PrimitiveWithInfer,  # noqa: F401
                                         constexpr, prim_attr_register)
    from mindspore._extends import cell_attr_register  # noqa: F401
    from mindspore._checkparam import Rel, Validator  # noqa: F401

    assert common.Tensor is Tensor and common.Parameter is ms.Parameter
    assert common.dtype is ms.dtype and common.float32 is ms.float32
    assert common.initializer.Normal is ms.common.initializer.Normal
    assert common.mutable((1, 2)) == (1, 2)
    for name in ("grad", "value_and_grad", "vjp", "jvp", "jet", "derivative", "linearize",
                 "vmap", "stop_gradient", "partial"):
        assert callable(getattr(F, name)), name
    assert C.GradOperation is ops.GradOperation and C.MultitypeFuncGraph is ops.MultitypeFuncGraph
    assert P.Add is ops.Add
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(F.grad(lambda v: (v * v).sum())(x).asnumpy(), [2.0, 4.0])
    common.set_seed(3)
    a = nn.Dense(2, 2).weight.asnumpy()
    common.set_seed(3)
    np.testing.assert_array_equal(nn.Dense(2, 2).weight.asnumpy(), a)


def test_unknown_ops_path_fails_cleanly(mindspore_paths):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("mindspore.ops.no_such_module")


# --- _checkparam ------------------------------------------------------------------------------
def test_checkparam_accepts_and_refuses_as_mindspore_does():
    from mindgrad.compat import checkparam as V

    assert V.check_value_type("x", 1, (int, float)) == 1
    assert V.check_positive_int(3, "n", "Op") == 3
    assert V.check_int_range(2, 0, 3, V.INC_LEFT, "k", "Op") == 2
    assert V.check_string("x", ["x", "y"], "mode", "Op") == "x"
    assert V.Validator.check_bool(True, "flag") is True and V.Rel.GE == V.GE == 6
    cases = [
        (lambda: V.check_value_type("x", 1.5, [int], "Op"), TypeError,
         "For 'Op', the type of 'x' should be 'int', but got type 'float'."),
        (lambda: V.check_value_type("x", True, [int], "Op"), TypeError,
         "For 'Op', the type of 'x' should be 'int', but got type 'bool'."),
        (lambda: V.check_positive_int(0, "n", "Op"), ValueError,
         "For 'Op', the 'n' must be int and must > 0, but got '0' with type 'int'."),
        (lambda: V.check_positive_int(1.0, "n", "Op"), TypeError,
         "For 'Op', the 'n' must be int, but got 'float'"),
        (lambda: V.check_non_negative_int(-1, "n"), ValueError,
         "The 'n' must be int and must >= 0, but got '-1' with type 'int'."),
        (lambda: V.check_int_range(5, 0, 3, V.INC_LEFT, "k", "Op"), ValueError,
         "For 'Op', the 'k' must be in range of [0, 3), but got 5 with type 'int'."),
        (lambda: V.check_float_range(1.5, 0.0, 1.0, V.INC_BOTH, "p", "Op"), ValueError,
         "For 'Op', the 'p' must be in range of [0.0, 1.0], but got 1.5 with type 'float'."),
        (lambda: V.check_string("ab", ["x", "y"], "mode", "Op"), ValueError,
         "For 'Op', the 'mode' must be str and must be in '['x', 'y']', but got 'ab'."),
        (lambda: V.check_bool(1, "flag", "Op"), TypeError,
         "For 'Op', the 'flag' must be a bool, but got int."),
        (lambda: V.check("a", 1, "b", 2, V.EQ, "Op"), ValueError,
         "For 'Op', the 'a' should be = b: 2, but got 1."),
        (lambda: V.check_number("a", 1, 2, V.GT, "Op"), ValueError,
         "For 'Op', the argument 'a' must > 2, but got 1."),
        (lambda: V.check_positive_int_sequence((1, 0), "s", "Op"), ValueError,
         "For 'Op', the 's[1]' must be int and must > 0, but got '0' with type 'int'."),
        (lambda: V.check_is_float(1, "a", "Op"), TypeError,
         "For 'Op', the type of 'a' must be 'float', but got 'int'."),
        (lambda: V.check_axis_in_range(3, 2), ValueError,
         "The 'axis' must be in the range of [-2, 2), but got 3."),
        (lambda: V.check_tensor_dtype_valid("x", ms.int32, [ms.float32], "Op"), TypeError,
         "For 'Op', the 'x' should be one of 'Float32', but got Int32."),
    ]
    for call, exc, message in cases:
        with pytest.raises(exc) as info:
            call()
        assert str(info.value) == message


def test_cell_attr_register_records_the_arguments():
    from mindgrad.compat.extends import cell_attr_register

    class Scale(nn.Cell):
        @cell_attr_register
        def __init__(self, factor, bias=0.5):
            super().__init__()
            self.factor = factor

        def construct(self, x):
            return x * self.factor

    cell = Scale(3, bias=1.0)
    assert cell.cell_init_args == "Scale[3, 1.0]"
    assert float(cell(Tensor(2.0)).asnumpy()) == 6.0

    class Named(nn.Cell):
        @cell_attr_register(attrs=["factor"])
        def __init__(self, factor):
            super().__init__()
            self.factor = factor

    assert Named(7).cell_init_args == "Named[7]"
    with pytest.raises(ValueError, match="attrs"):
        cell_attr_register(attrs=3)


# --- ops.primitive ----------------------------------------------------------------------------
def test_user_defined_primitives():
    class Scale(ops.primitive.Primitive):
        @ops.prim_attr_register
        def __init__(self, factor=2.0):
            self.init_prim_io_names(inputs=["x"], outputs=["y"])

        def __call__(self, x):
            return x * self.factor

    prim = Scale(factor=3.0)
    assert prim.name == "Scale" and prim.attrs["factor"] == 3.0
    assert prim.attrs["input_names"] == ["x"] and repr(prim) == "Prim[Scale]"
    x = Tensor(np.array([1.0, 2.0]))
    np.testing.assert_array_equal(ops.grad(lambda v: prim(v).sum())(x).asnumpy(), [3.0, 3.0])
    assert Scale().factor == 2.0

    class Folded(ops.PrimitiveWithInfer):
        @ops.prim_attr_register
        def __init__(self):
            pass

        def infer_value(self, a, b):
            return a + b if a is not None and b is not None else None

    assert Folded()(2, 3) == 5
    with pytest.raises(NotImplementedError, match="Primitive 'Folded' has no kernel"):
        Folded()(None, 3)

    class Checked(ops.PrimitiveWithCheck):
        def check_shape(self, x_shape):
            if len(x_shape) != 1:
                raise ValueError(f"For 'Checked', x must be 1-D, but got {list(x_shape)}.")

        def __call__(self, x):
            return x + 1

    np.testing.assert_array_equal(Checked()(x).asnumpy(), [2.0, 3.0])
    with pytest.raises(ValueError, match=r"1-D, but got \[1, 2\]"):
        Checked()(Tensor(np.ones((1, 2))))


def test_constexpr():
    @ops.constexpr
    def doubled_shape(shape):
        return tuple(2 * s for s in shape)

    @ms.jit
    def f(x):
        return ops.zeros(doubled_shape(x.shape), ms.float32) + x.sum()

    out = f(Tensor(np.ones((2, 3), np.float32)))
    assert out.shape == (4, 6) and float(out.asnumpy()[0, 0]) == 6.0

    @ops.constexpr(get_instance=False, reuse_result=False)
    def plus_one(v):
        return v + 1

    assert plus_one()(4) == 5


# --- MultitypeFuncGraph / HyperMap / Map ------------------------------------------------------
def _mtfg():
    m = ops.MultitypeFuncGraph("m")

    @m.register("Tensor", "Number")
    def _tensor_number(x, y):
        return x * y

    @m.register("Number", "Number")
    def _numbers(x, y):
        return x + y

    return m


def test_multitype_func_graph_dispatches_on_types():
    m = _mtfg()
    assert float(m(Tensor(2.0), 3).asnumpy()) == 6.0
    assert m(2, 3) == 5
    with pytest.raises(ValueError, match=r"'m', no registered function matches the argument "
                                         r"types \(String, Int\)"):
        m("a", 3)
    specific = ops.MultitypeFuncGraph("s")
    specific.register("Number")(lambda v: "number")
    specific.register("Int")(lambda v: "int")
    assert specific(3) == "int" and specific(2.5) == "number" and specific(True) == "number"


def test_hyper_map_and_map():
    m = _mtfg()
    assert ops.HyperMap()(m, (1, (2, 3)), (4, (5, 6))) == (5, (7, 9))
    assert ops.HyperMap(m)([1, 2], [3, 4]) == (4, 6)
    assert ops.Map()(m, (1, 2), (4, 5)) == (5, 7)
    with pytest.raises(ValueError, match="no registered function"):
        ops.Map()(m, (1, (2, 3)), (4, (5, 6)))
    with pytest.raises(ValueError, match="same length"):
        ops.HyperMap(m)((1, 2), (3,))
    assert ops.partial(m, 2)(3) == 5
    # the custom-optimizer idiom
    grads = (Tensor(np.array([1.0, 2.0])), Tensor(np.array([3.0])))
    update = ops.MultitypeFuncGraph("update")
    update.register("Number", "Tensor")(lambda lr, g: g * lr)
    lr_scaled = ops.HyperMap()(ops.partial(update, 0.5), grads)
    np.testing.assert_array_equal(lr_scaled[0].asnumpy(), [0.5, 1.0])
    np.testing.assert_array_equal(lr_scaled[1].asnumpy(), [1.5])


# --- common.api ---------------------------------------------------------------------------------
def test_jit_class_and_pynative_executor():
    from mindgrad.jit import _pynative_executor, jit_class

    @jit_class
    class Affine:
        def __init__(self, a, b):
            self.a, self.b = a, b

        def apply(self, x):
            return x * self.a + self.b

    aff = Affine(2.0, 1.0)
    out = ms.jit(lambda x: aff.apply(x))(Tensor(np.array([1.0, 3.0], np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [3.0, 7.0])
    with pytest.raises(TypeError, match="only be used for class type, but got 3"):
        jit_class(3)
    with pytest.raises(TypeError, match="cannot be used for nn.Cell"):
        jit_class(nn.Dense)
    _pynative_executor.sync()


# --- print(cell) --------------------------------------------------------------------------------
def test_cells_print_in_mindspore_2x_form():
    net = nn.SequentialCell([nn.Dense(784, 512), nn.ReLU(), nn.Dense(512, 10, has_bias=False)])
    assert repr(net) == ("SequentialCell(\n"
                         "  (0): Dense(input_channels=784, output_channels=512, has_bias=True)\n"
                         "  (1): ReLU()\n"
                         "  (2): Dense(input_channels=512, output_channels=10)\n"
                         ")")
    assert repr(nn.Dense(3, 2, activation=nn.ReLU())) == (
        "Dense(\n  input_channels=3, output_channels=2, has_bias=True, activation=ReLU()\n"
        "  (activation): ReLU()\n)")
    assert repr(nn.Dropout(p=0.2)) == "Dropout(p=0.2)"

    class M(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Dense(2, 3)
            self.flat = nn.Flatten()

    assert str(M()) == ("M(\n  (a): Dense(input_channels=2, output_channels=3, has_bias=True)\n"
                        "  (flat): Flatten()\n)")


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_custom_vjp_from_grad_func(mindspore_paths, mode):
    # MindSpore 2.10's values: the rule is used ((2, 4) from a deliberately different bprop),
    # and inline in a bigger function its results add to the rest ((3, 6))
    from mindspore.ops.function.grad.grad_func import custom_vjp
    import mindspore.ops.function as function

    @custom_vjp
    def mul_add(x, y):
        return 2 * x + y

    mul_add.defbwd(lambda x, y, out, dout: (2 * dout, 2 * y))

    def inline(x, y):
        return mul_add(x, y) + x + 2 * y

    x, y, v = Tensor(1, ms.int32), Tensor(2, ms.int32), Tensor(1, ms.int32)
    ms.set_context(mode=mode)
    try:
        _, grad_fn = ops.vjp(mul_add, x, y)
        assert [int(g) for g in grad_fn(v)] == [2, 4]
        _, grad_fn = ops.vjp(ms.jit(inline), x, y)
        assert [int(g) for g in grad_fn(v)] == [3, 6]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    # the subpackage's import leaves mindgrad.ops.grad the function, and the path's ``grad``
    # still differentiates
    assert ops.grad.__name__ == "grad"
    assert float(function.grad(lambda t: t * t)(Tensor(3.0))) == 6.0
    assert function.sin is ops.sin
    with pytest.raises(TypeError, match="defbwd"):
        mul_add.defbwd(3)


def test_type_of_a_tensor_prints_as_mindspore(mindspore_paths):
    import pickle

    import mindspore

    t = mindspore.Tensor([1.0, 2.0])
    assert str(type(t)) == "<class 'mindspore.common.tensor.Tensor'>"
    back = pickle.loads(pickle.dumps(t))
    assert type(back) is ms.Tensor
    np.testing.assert_array_equal(back.asnumpy(), [1.0, 2.0])


def test_type_of_a_tensor_is_mindgrads_without_the_alias():
    assert str(type(ms.Tensor([1.0]))) == "<class 'mindgrad.core.tensor.Tensor'>"
