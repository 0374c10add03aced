"""mindgrad follows MindSpore 2.10's dtype rules (CPU): which input dtypes each operation
refuses, and the dtype of its result and of an integer input's gradient. The facts come from
the real MindSpore (``tools/record_dtype_rules.py`` wrote ``fixtures/dtype_rules.json``);
every place mindgrad deliberately differs is listed in ``DEVIATIONS`` below (and in the
README), and the test fails if a listed deviation goes away or an unlisted one appears."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import dtype_cases as DC
import mindgrad as ms
from mindgrad import ops

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "dtype_rules.json").read_text())
CASES = FIXTURE["cases"]
REFUSED = "refused"  # a deviation's outcome: mindgrad raises TypeError naming the dtype

# (case, dtype) -> (what mindgrad gives, why). Where MindSpore refuses, the outcome is the
# dtype mindgrad computes; where MindSpore computes, it is mindgrad's dtype or REFUSED.
DEVIATIONS: dict = {}


def _deviate(cases, dtypes, outcome, why: str) -> None:
    for case in cases:
        for dt in dtypes:
            DEVIATIONS[(case, dt)] = (outcome(dt) if callable(outcome) else outcome, why)


_KEEP = {"float16": "Float16", "float32": "Float32", "float64": "Float64",
         "complex64": "Complex64", "complex128": "Complex128"}
_REAL_OF = {"complex64": "Float32", "complex128": "Float64"}
_deviate(["relu6"], ["float64"], "Float64",
         "MindSpore's CPU build lacks the float64 kernel; mindgrad computes it")
_deviate(["norm_ord1"], ["float64"], "Float64",
         "MindSpore's CPU LpNorm lacks float64; mindgrad computes it")
_deviate(["norm_ord1"], ["int32", "int64"], "Float32",
         "integer norms are float32 for every ord (MindSpore's LpNorm refuses integers, its "
         "default norm computes them in float32)")
_deviate(["abs", "norm", "norm_dim", "norm_ord1"], ["complex64", "complex128"], _REAL_OF.get,
         "the modulus of complex numbers is real (NumPy's dtype); MindSpore keeps the "
         "complex dtype (and refuses ord=1)")
_deviate(["add"], ["bool"], "Bool", "bool + bool is NumPy's logical or (MindSpore refuses)")
_deviate(["floor_div"], ["complex64", "complex128"], REFUSED,
         "floor division has no meaning for complex numbers (NumPy refuses it)")
_deviate(["nn.Dense"], ["float16"], "Float32",
         "mixed float operands promote as in NumPy (MindSpore refuses a float16 input to a "
         "float32 layer)")
_deviate(["nn.Dense"], ["float64"], "Float64",
         "mixed float operands promote as in NumPy (MindSpore refuses a float64 input to a "
         "float32 layer)")

# MindSpore's all/any of these dtypes answer False although every element is nonzero;
# mindgrad gives the right answer (True).
VALUE_DEVIATIONS = {("all", "complex64"), ("all", "complex128"), ("any", "float64"),
                    ("any", "complex128")}

# Gradients of integer inputs keep the input's dtype (SEMANTICS), also where MindSpore
# gives float32 or fails.
GRAD_DEVIATIONS = {
    ("sqrt", "int32"), ("sqrt", "int64"), ("reciprocal", "int32"), ("reciprocal", "int64"),
    ("div_int_scalar", "int32"), ("div_int_scalar", "int64"), ("norm", "int32"),
    ("norm", "int64"), ("norm_dim", "int32"), ("norm_dim", "int64"),
    ("Tensor.mean", "int32"), ("Tensor.mean", "int64"),
    ("pow", "int32"), ("pow", "int64"),  # MindSpore's gradient fails (Log of an integer)
}


def _outcome(case: str, dtype: str):
    """(result, gradient dtype or None) of mindgrad, or ("error", TypeError instance)."""
    fn = DC.CASES[case]
    x = DC.make_input(ms.Tensor, dtype)
    try:
        out = fn(ms, x)
    except TypeError as e:
        return "error", e
    grad = None
    if dtype in ("int32", "int64", "float32"):
        grad = DC.result_dtype(ops.grad(lambda a: fn(ms, a).sum())(x))
    return out, grad


def _expected_values(entry: dict) -> np.ndarray:
    vals = [complex(float(v[0]), float(v[1])) if isinstance(v, list) else float(v)
            for v in entry["values"]]
    return np.array(vals).reshape(entry["shape"])


def _params():
    return [pytest.param(case, dt, id=f"{case}-{dt}") for case in DC.CASES for dt in DC.DTYPES]


@pytest.mark.parametrize("case,dtype", _params())
def test_dtype_rule_matches_mindspore(case, dtype) -> None:
    want = CASES[case][dtype]
    got, grad = _outcome(case, dtype)
    deviation = DEVIATIONS.get((case, dtype))
    if deviation is not None:
        outcome, why = deviation
        if outcome == REFUSED:
            assert isinstance(got, str), f"listed as refused ({why}), but gives {got.dtype}"
        else:
            assert not isinstance(got, str), f"listed as computing {outcome} ({why}), but: {grad}"
            assert DC.result_dtype(got) == outcome, why
        # the deviation must still be one: MindSpore's answer differs
        assert ("error" in want) != (outcome == REFUSED) or want.get("dtype") != outcome
        return
    if "error" in want:
        assert isinstance(got, str), (f"MindSpore refuses {case} of {dtype} ({want['message']}); "
                                f"mindgrad gives {got.dtype}")
        message = str(grad)
        assert message.startswith("For '") and str(ms.dtype.from_numpy(np.dtype(dtype))) in \
            message, message
        return
    assert not isinstance(got, str), f"MindSpore gives {want['dtype']}; mindgrad refuses: {grad}"
    assert DC.result_dtype(got) == want["dtype"]
    if (case, dtype) in VALUE_DEVIATIONS:
        assert got.asnumpy().item() is True and want["values"] == [False]
    elif "values" in want:
        tol = {"float16": 2e-3, "complex64": 1e-5, "float32": 1e-5}.get(dtype, 1e-6)
        if want["dtype"] in ("Float16",):
            tol = 2e-3
        np.testing.assert_allclose(got.asnumpy().astype(np.complex128 if dtype.startswith(
            "complex") else np.float64), _expected_values(want), rtol=tol, atol=tol)
    if "grad_dtype" in want:
        if (case, dtype) in GRAD_DEVIATIONS or dtype.startswith("int"):
            assert grad == str(ms.dtype.from_numpy(np.dtype(dtype))), grad  # the input's dtype
        else:
            assert grad == want["grad_dtype"]
    elif "grad_error" in want:
        assert (case, dtype) in GRAD_DEVIATIONS
        assert grad == str(ms.dtype.from_numpy(np.dtype(dtype)))


def test_deviation_lists_name_recorded_cases() -> None:
    for case, dt in list(DEVIATIONS) + list(GRAD_DEVIATIONS) + list(VALUE_DEVIATIONS):
        assert case in CASES and dt in CASES[case]
    for case, dt in GRAD_DEVIATIONS:
        want = CASES[case][dt]
        assert "grad_error" in want or want["grad_dtype"] != str(
            ms.dtype.from_numpy(np.dtype(dt)))


# --- the issue's own examples -------------------------------------------------------------
@pytest.mark.parametrize("name", ["sin", "exp", "log", "tanh", "sigmoid", "erf", "atan",
                                  "softplus", "expm1", "rsqrt"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.bool_])
def test_float_only_ops_refuse_integers(name, dtype) -> None:
    x = ms.Tensor(np.array([1, 2, 3]).astype(dtype))
    with pytest.raises(TypeError, match=rf"For '{name}', .* dtype {ms.dtype.from_numpy(dtype)}"):
        getattr(ops, name)(x)
    # not a silent zero gradient any more
    with pytest.raises(TypeError, match=rf"For '{name}'"):
        ops.grad(lambda a: getattr(ops, name)(a).sum())(x)
    with pytest.raises(TypeError, match=rf"For '{name}'"):  # traced for GRAPH mode too
        ms.jit(getattr(ops, name))(x)


def test_numpy_dtype_refusals_name_the_op() -> None:
    b = ms.Tensor(np.array([True, False]))
    with pytest.raises(TypeError, match="For 'Sub', inputs of dtype Bool and Bool"):
        b - b
    with pytest.raises(TypeError, match="For 'sub', 'x' of dtype Bool"):
        ops.sub(b, b)


def test_dense_refuses_an_integer_input() -> None:
    net = ms.nn.Dense(3, 2)
    with pytest.raises(TypeError, match="For 'Dense', 'x' of dtype Int32"):
        net(ms.Tensor(np.ones((2, 3), np.int32)))


def test_integer_gradients_keep_the_input_dtype() -> None:
    x = ms.Tensor(np.array([1, 2, 3], np.int32))
    g = ops.grad(lambda a: (a * a).sum())(x)
    assert str(g.dtype) == "Int32" and g.asnumpy().tolist() == [2, 4, 6]
    g = ops.grad(lambda a: ops.sqrt(a).sum())(x)  # sqrt of an int is float32; d/da int32
    assert str(g.dtype) == "Int32"


@pytest.mark.parametrize("name,want", [("reciprocal", [1, 0.5, 0.25]),
                                       ("sqrt", [1, math.sqrt(2), 2]), ("exp2", [2, 4, 16])])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.bool_])
def test_integer_inputs_computed_in_float32(name, want, dtype) -> None:
    x = np.array([1, 2, 4]).astype(dtype)
    out = getattr(ops, name)(ms.Tensor(x))
    assert str(out.dtype) == "Float32"
    ref = {"reciprocal": 1 / x.astype(np.float64), "sqrt": np.sqrt(x.astype(np.float64)),
           "exp2": np.exp2(x.astype(np.float64))}[name]
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-6)
    if dtype is not np.bool_:
        np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-6)
    jitted = ms.jit(getattr(ops, name))(ms.Tensor(x))
    assert str(jitted.dtype) == "Float32"


def test_argmin_is_int32_and_min_indices_int64() -> None:
    x = ms.Tensor(np.array([[3.0, 1.0, 2.0], [0.0, 5.0, -1.0]], np.float32))
    assert str(ops.argmin(x).dtype) == "Int32" and int(ops.argmin(x)) == 5
    assert ops.argmin(x, 1).asnumpy().tolist() == [1, 2]
    assert str(ops.argmax(x).dtype) == "Int64"
    assert str(ops.min(x, 1)[1].dtype) == "Int64"


@pytest.mark.parametrize("shape", [(2.5, 2), 2.5, (2, 2.0), [True, 2]])
@pytest.mark.parametrize("fn", [ops.zeros, ops.ones])
def test_shapes_must_be_ints(fn, shape) -> None:
    with pytest.raises(TypeError, match=rf"For '{fn.__name__}', 'shape' must be an int"):
        fn(shape)


def test_complex_norm_and_variance() -> None:
    z = ms.Tensor(np.array([3 + 4j], np.complex64))
    assert float(ops.norm(z)) == 5.0
    m = ms.Tensor(np.array([[3 + 4j, 1j], [2, -2j]], np.complex128))
    np.testing.assert_allclose(float(ops.norm(m)), np.linalg.norm(m.asnumpy()))
    np.testing.assert_allclose(ops.norm(m, dim=1).asnumpy(), np.linalg.norm(m.asnumpy(), axis=1))
    np.testing.assert_allclose(float(ops.norm(m, "fro")), np.linalg.norm(m.asnumpy(), "fro"))
    with pytest.raises(TypeError, match="For 'norm', the matrix norm ord='nuc'"):
        ops.norm(m, "nuc")
    # MindSpore refuses a complex variance (no negative or complex "variance" comes out)
    with pytest.raises(TypeError, match="For 'var', 'x' of dtype Complex64"):
        ops.var(ms.Tensor(np.array([1j, -1j], np.complex64)))
    with pytest.raises(TypeError, match="For 'std', 'x' of dtype Complex64"):
        ops.std(ms.Tensor(np.array([1j, -1j], np.complex64)))


def test_fixture_misc_facts_hold() -> None:
    """The recorded answers of the issue's examples, as mindgrad gives them."""
    misc = FIXTURE["misc"]
    for label in ("zeros((2.5, 2))", "ones((2, 2.0))", "zeros(2.5)", "sin(int32) grad",
                  "var([1j, -1j])"):
        assert misc[label]["error"] == "TypeError"
    assert misc["norm([3+4j])"]["values"] == [[5.0, 0.0]]
    assert misc["mul int32 grad"] == {"dtype": "Int32", "shape": [3], "values": [2, 4, 6]}


@pytest.mark.parametrize("case", [c for c in DC.CASES if c != "nn.Dense"])
def test_compiled_calls_follow_the_same_rules(case) -> None:
    """A jit-compiled call (GRAPH mode) refuses and promotes exactly as the eager one."""
    fn = DC.CASES[case]
    for dtype in DC.DTYPES:
        x = DC.make_input(ms.Tensor, dtype)
        try:
            eager = DC.result_dtype(fn(ms, x))
        except TypeError:
            eager = REFUSED
        try:
            compiled = DC.result_dtype(ms.jit(lambda a: fn(ms, a))(x))
        except TypeError:
            compiled = REFUSED
        assert compiled == eager, (case, dtype)


# two Python numbers: the dtype Tensor() gives the wider one (MindSpore 2.10, CPU)
@pytest.mark.parametrize("name,x,y,dtype,value", [
    ("sub", 2.5, 0.43, ms.float32, 2.07), ("add", 2.5, 3, ms.float32, 5.5),
    ("mul", 2, 3, ms.int64, 6), ("div", 7, 2, ms.float32, 3.5),
    ("div", True, 3, ms.float32, 1 / 3), ("sub", True, 3, ms.int64, -2),
    ("add", True, 2.5, ms.float32, 3.5), ("maximum", True, 3, ms.int64, 3),
    ("minimum", 2.5, 3, ms.float32, 2.5), ("floor_mod", 2.5, 0.43, ms.float32, 0.35),
    ("atan2", 2.5, 3, ms.float32, math.atan2(2.5, 3)), ("maximum", True, False, ms.bool_, True),
])
def test_arithmetic_of_two_python_numbers(name, x, y, dtype, value) -> None:
    r = getattr(ops, name)(x, y)
    assert r.dtype == dtype and r.shape == ()
    np.testing.assert_allclose(float(r.asnumpy()), value, rtol=1e-6)


# Recorded with MindSpore 2.10 (CPU): an integer tensor meeting a float tensor takes the
# float tensor's dtype, in the operators and the functions (NumPy would widen to float64).
MIXED_TENSORS = [
    ("a*b", lambda a, b: a * b, np.multiply, np.float32, np.int64, np.float32),
    ("mul", ops.mul, np.multiply, np.float32, np.int64, np.float32),
    ("a*b f16", lambda a, b: a * b, np.multiply, np.float16, np.int32, np.float16),
    ("add f16", ops.add, np.add, np.float16, np.int32, np.float16),
    ("a+b floats", lambda a, b: a + b, np.add, np.float32, np.float16, np.float32),
    ("sub ints", ops.sub, np.subtract, np.int64, np.int32, np.int64),
    ("a/b ints", lambda a, b: a / b, np.true_divide, np.int64, np.int32, np.float32),
    ("b-a", lambda a, b: b - a, lambda a, b: b - a, np.float32, np.int32, np.float32),
    ("maximum", ops.maximum, np.maximum, np.float32, np.int64, np.float32),
]


@pytest.mark.parametrize("name,fn,ref,da,db,want", MIXED_TENSORS,
                         ids=[c[0] for c in MIXED_TENSORS])
def test_mixed_integer_and_float_tensors_take_the_float_dtype(name, fn, ref, da, db, want,
                                                               mode) -> None:
    a_np = np.array([1.5, -2.0]).astype(da)
    b_np = np.array([2, 3]).astype(db)
    a, b = ms.Tensor(a_np), ms.Tensor(b_np)
    out = ms.jit(fn)(a, b) if mode == ms.GRAPH_MODE else fn(a, b)
    assert out.asnumpy().dtype == np.dtype(want)
    np.testing.assert_allclose(out.asnumpy(), ref(a_np.astype(np.float64),
                                                  b_np.astype(np.float64)), rtol=1e-3)
