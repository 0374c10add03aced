"""Exact-string tests for mindgrad.core.printing (MindSpore 2.x str/repr)."""
import numpy as np

from mindgrad.core.printing import format_repr, format_str

f32 = np.float32


# ---------------------------------------------------------------- format_str
def test_str_float_1d_2d():
    assert format_str(np.array([1.0, 2.0], f32)) == "[1. 2.]"
    assert format_str(np.arange(6, dtype=f32).reshape(2, 3)) == "[[0. 1. 2.]\n [3. 4. 5.]]"


def test_str_float32_shortest_repr():
    # float32 one ulp below float32(4.51), e.g. the result of 0.11 + 3.3 + 1.1
    val = f32(0.11) + f32(3.3) + f32(1.1)
    assert format_str(np.array([val], f32)) == "[4.5099998]"
    assert format_str(np.array([4.51], f32)) == "[4.51]"
    a = np.array([[2.211, 0.51, 1.49], [5.588, 2.68, 4.07]], f32)
    assert format_str(a) == "[[2.211 0.51  1.49 ]\n [5.588 2.68  4.07 ]]"


def test_str_scalar_int_bool_negative():
    assert format_str(np.array(3.5, f32)) == "3.5"
    assert format_str(np.array(3, np.int64)) == "3"
    assert format_str(np.array([True, False])) == "[ True False]"
    assert format_str(np.array([1, -2, 30], np.int32)) == "[ 1 -2 30]"
    assert format_str(np.array([-1.5, 2.0], f32)) == "[-1.5  2. ]"


def test_str_3d():
    expected = "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]"
    assert format_str(np.arange(8).reshape(2, 2, 2)) == expected


# --------------------------------------------------------------- format_repr
def test_repr_float_1d():
    assert (format_repr(np.array([1.0, 2.0], f32), "Float32")
            == "Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])")
    assert (format_repr(np.array([21.536], f32), "Float32")
            == "Tensor(shape=[1], dtype=Float32, value= [ 2.15359993e+01])")


def test_repr_float_2d_with_negative():
    a = np.array([[0, 6], [15, -4]], f32)
    assert format_repr(a, "Float32") == (
        "Tensor(shape=[2, 2], dtype=Float32, value=\n"
        "[[ 0.00000000e+00,  6.00000000e+00],\n"
        " [ 1.50000000e+01, -4.00000000e+00]])"
    )


def test_repr_docs_sample_float32_widened():
    row = [f32(0.11) + f32(3.3) + f32(1.1), f32(2.7), f32("3.6000001")]
    a = np.array([row, row], f32)
    assert format_repr(a, "Float32") == (
        "Tensor(shape=[2, 3], dtype=Float32, value=\n"
        "[[ 4.50999975e+00,  2.70000005e+00,  3.60000014e+00],\n"
        " [ 4.50999975e+00,  2.70000005e+00,  3.60000014e+00]])"
    )


def test_repr_other_float_dtypes():
    # Float64 as Float32; Float16 with four digits (MindSpore 2.10)
    assert (format_repr(np.array([0.5, -2.0]), "Float64")
            == "Tensor(shape=[2], dtype=Float64, value= [ 5.00000000e-01, -2.00000000e+00])")
    assert (format_repr(np.array([[1 / 3, 2.0]], np.float16), "Float16")
            == "Tensor(shape=[1, 2], dtype=Float16, value=\n[[ 3.3325e-01,  2.0000e+00]])")
    # the width is a minimum: a three-digit exponent takes one more character
    assert (format_repr(np.array([1e-300, 1e300]), "Float64")
            == "Tensor(shape=[2], dtype=Float64, value= [1.00000000e-300, 1.00000000e+300])")
    assert (format_repr(np.array([np.nan, np.inf, -0.0], f32), "Float32")
            == "Tensor(shape=[3], dtype=Float32, value= [            nan,             inf,"
               " -0.00000000e+00])")


def test_repr_scalars():
    assert format_repr(np.array(3.5, f32), "Float32") == "Tensor(shape=[], dtype=Float32, value= 3.5)"
    # %g of the value, as MindSpore 2.10 prints a 0-d float tensor
    for value, text in ((28.0, "28"), (1 / 3, "0.333333"), (1e-8, "1e-08"), (-0.0, "-0"),
                        (123456789.0, "1.23457e+08"), (np.nan, "nan")):
        assert format_repr(np.array(value, f32), "Float32") == (
            f"Tensor(shape=[], dtype=Float32, value= {text})")
    assert (format_repr(np.array(1 + 2j, np.complex64), "Complex64")
            == "Tensor(shape=[], dtype=Complex64, value= 1+2j)")
    assert format_repr(np.array(3, np.int64), "Int64") == "Tensor(shape=[], dtype=Int64, value= 3)"
    assert format_repr(np.array(True), "Bool") == "Tensor(shape=[], dtype=Bool, value= True)"


def test_repr_int_and_bool():
    assert format_repr(np.array([3], np.int32), "Int32") == "Tensor(shape=[1], dtype=Int32, value= [3])"
    assert format_repr(np.array([1, 2], np.int64), "Int64") == "Tensor(shape=[2], dtype=Int64, value= [1, 2])"
    assert (format_repr(np.array([True, False]), "Bool")
            == "Tensor(shape=[2], dtype=Bool, value= [ True, False])")
    assert format_repr(np.array([[1, 2], [3, 4]], np.int32), "Int32") == (
        "Tensor(shape=[2, 2], dtype=Int32, value=\n[[1, 2],\n [3, 4]])"
    )


def test_repr_3d():
    a = np.arange(8, dtype=f32).reshape(2, 2, 2)
    assert format_repr(a, "Float32") == (
        "Tensor(shape=[2, 2, 2], dtype=Float32, value=\n"
        "[[[ 0.00000000e+00,  1.00000000e+00],\n"
        "  [ 2.00000000e+00,  3.00000000e+00]],\n"
        " [[ 4.00000000e+00,  5.00000000e+00],\n"
        "  [ 6.00000000e+00,  7.00000000e+00]]])"
    )


def test_repr_summarises_axes_longer_than_six():
    # any axis of a tensor of rank >= 2 longer than 6 shows 3 items at each end
    assert format_repr(np.arange(14, dtype=np.int32).reshape(2, 7), "Int32") == (
        "Tensor(shape=[2, 7], dtype=Int32, value=\n"
        "[[ 0,  1,  2 ...  4,  5,  6],\n"
        " [ 7,  8,  9 ... 11, 12, 13]])")
    assert format_repr(np.arange(14, dtype=f32).reshape(7, 2), "Float32") == (
        "Tensor(shape=[7, 2], dtype=Float32, value=\n"
        "[[ 0.00000000e+00,  1.00000000e+00],\n"
        " [ 2.00000000e+00,  3.00000000e+00],\n"
        " [ 4.00000000e+00,  5.00000000e+00],\n"
        " ...\n"
        " [ 8.00000000e+00,  9.00000000e+00],\n"
        " [ 1.00000000e+01,  1.10000000e+01],\n"
        " [ 1.20000000e+01,  1.30000000e+01]])")


def test_repr_breaks_long_vectors():
    # 24 integers, 12 floats or 12 booleans a line
    assert format_repr(np.arange(26, dtype=np.int32), "Int32") == (
        "Tensor(shape=[26], dtype=Int32, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11,"
        " 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, \n 24, 25])")
    text = format_repr(np.ones(13, bool), "Bool")
    assert text.endswith("True, \n  True])") and text.count("True") == 13


def test_repr_no_wrap_six_floats_per_row():
    text = format_repr(np.arange(12, dtype=f32).reshape(2, 6), "Float32")
    lines = text.split("\n")
    assert len(lines) == 3
    assert lines[1].startswith("[[ 0.00000000e+00,  1.00000000e+00,")
    assert lines[2] == (" [ 6.00000000e+00,  7.00000000e+00,  8.00000000e+00,"
                        "  9.00000000e+00,  1.00000000e+01,  1.10000000e+01]])")


def test_repr_empty_and_long():
    assert format_repr(np.zeros((0,), f32), "Float32") == "Tensor(shape=[0], dtype=Float32, value= )"
    assert format_repr(np.zeros((2, 0), f32), "Float32") == "Tensor(shape=[2, 0], dtype=Float32, value=\n)"
    text = format_repr(np.arange(2000, dtype=np.int64), "Int64")
    assert text == "Tensor(shape=[2000], dtype=Int64, value= [   0,    1,    2 ... 1997, 1998, 1999])"
    assert format_repr(np.arange(1000, dtype=np.int64), "Int64").count("\n") == 41


# ------------------------------------------------------- global print options
def test_global_printoptions_ignored():
    a = np.array([[1.23456789, -2.0], [3.0, 4.0]], np.float64)
    b = np.array([4.5099998, 1.0], f32)
    expected = (format_str(a), format_repr(a, "Float64"), format_str(b), format_repr(b, "Float32"))
    saved = np.get_printoptions()
    try:
        np.set_printoptions(precision=2, linewidth=20, threshold=5, sign="+", suppress=True)
        got = (format_str(a), format_repr(a, "Float64"), format_str(b), format_repr(b, "Float32"))
    finally:
        np.set_printoptions(**saved)
    assert got == expected
    assert expected[2] == "[4.5099998 1.       ]"
    assert expected[3] == "Tensor(shape=[2], dtype=Float32, value= [ 4.50999975e+00,  1.00000000e+00])"


def test_str_of_zero_dim_floats_as_mindspore():
    # MindSpore 2.10 prints a 0-d float tensor in NumPy 1.x's scalar style
    cases = {1e10: "10000000000.0", 123456789.0: "123456790.0", 1234567.0: "1234567.0",
             1e16: "1e+16", 1e-8: "1e-08", 5e-5: "5e-05", 1e-4: "1e-04", 0.001: "0.001", -0.0: "-0.0",
             1 / 3: "0.33333334", np.inf: "inf"}
    for value, text in cases.items():
        assert format_str(np.array(value, f32)) == text
    assert format_str(np.array(1 / 3)) == "0.3333333333333333"
    assert format_str(np.array(1 / 3, np.float16)) == "0.3333"
