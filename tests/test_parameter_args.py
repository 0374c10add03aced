"""Parameter's arguments are checked as MindSpore 2.10 checks them: the name is a str or None
(ValueError otherwise, MindSpore's choice), the flags are bools (TypeError), the initial
value a Tensor, int, float, NumPy array or list (a bool: ValueError)."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Parameter, Tensor, nn


def _t() -> Tensor:
    return Tensor(np.array([1.0, 2.0], np.float32))


@pytest.mark.parametrize("name", [5, 1.5, b"w", ["w"]])
def test_name_must_be_a_str_or_none(name) -> None:
    with pytest.raises(ValueError, match=f"Parameter.*'name' must be a str or None.*"
                                         f"{type(name).__name__}"):
        Parameter(_t(), name=name)
    p = Parameter(_t(), name="w")
    with pytest.raises(ValueError, match="'name'"):
        p.name = name
    assert p.name == "w"


def test_name_is_stripped_and_blank_means_unnamed() -> None:
    assert Parameter(_t(), name="  w  ").name == "w"
    with pytest.raises(ValueError, match="1024"):
        Parameter(_t(), name="x" * 1025)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = Parameter(_t(), name="  ")
            self.bias = Parameter(_t(), name="b")

    net = Net()  # an unnamed Parameter is named after its attribute, a named one keeps it
    assert [p.name for p in net.get_parameters()] == ["weight", "b"]


@pytest.mark.parametrize("flag", ["requires_grad", "layerwise_parallel", "parallel_optimizer"])
@pytest.mark.parametrize("value", [1, 0, "yes", None, np.bool_(True)])
def test_flags_must_be_bools(flag: str, value) -> None:
    with pytest.raises(TypeError, match=f"Parameter.*'{flag}' must be a bool"):
        Parameter(_t(), name="w", **{flag: value})
    p = Parameter(_t(), name="w")
    before = getattr(p, flag)
    with pytest.raises(TypeError, match=flag):
        setattr(p, flag, value)
    assert getattr(p, flag) == before


def test_requires_grad_false_leaves_trainable_params() -> None:
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(_t(), name="w")
            self.frozen = Parameter(_t(), name="frozen", requires_grad=False)

    net = Net()
    assert [p.name for p in net.trainable_params()] == ["w"]
    net.frozen.requires_grad = True
    assert [p.name for p in net.trainable_params()] == ["w", "frozen"]


@pytest.mark.parametrize("value,error,words", [
    (True, ValueError, "bool"),
    (None, TypeError, "NoneType"),
    ("abc", TypeError, "str"),
    ((1, 2), TypeError, "tuple"),
    ({"a": 1}, TypeError, "dict"),
    (np.int64(3), TypeError, "int64"),
    (1 + 2j, TypeError, "complex"),
    (2**40, ValueError, "Int32"),
])
def test_bad_default_input(value, error: type, words: str) -> None:
    with pytest.raises(error, match=f"Parameter.*{words}"):
        Parameter(value, name="p")


def test_default_input_dtypes_as_mindspore() -> None:
    """A Python int makes an Int32 Parameter and a float a Float32 one (a NumPy float64
    scalar is a float), where a Tensor of the same number would be Int64 / Float32."""
    p = Parameter(3, name="i")
    assert p.dtype == ms.int32 and p.shape == () and int(p) == 3
    assert Parameter(-2**31, name="lo").dtype == ms.int32
    q = Parameter(np.float64(0.5), name="f")
    assert q.dtype == ms.float32 and float(q) == 0.5
    assert Parameter([1, 2], name="l").dtype == ms.int64
    a = Parameter(np.ones(2), name="a")
    assert a.dtype == ms.float64
    np.testing.assert_array_equal(a.asnumpy(), [1.0, 1.0])
    b = Parameter(Tensor(True), name="b")
    assert b.dtype == ms.bool_


def test_device_argument() -> None:
    assert Parameter(_t(), name="w", device="CPU").shape == (2,)
    with pytest.raises(ValueError, match="Parameter.*'device'.*'GPU'"):
        Parameter(_t(), name="w", device="GPU")
