"""The operator classes over the sampling, cropping, CTC decoding and fixed-size fractional
pooling functions against MindSpore 2.10 (``tests/fixtures/primclasses2.json``, recorded by
``tools/record_catalogue.py --suite primclasses2`` from ``tests/primclasses2_cases.py``):
shapes, dtypes, values and gradients, and MindSpore's refusals of bad input. Then that each
class equals its function, keeps its constructor's arguments and refuses bad ones."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, ops

import primclasses2_cases as PC
from test_catalogue import _same, check_gradients, decode

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "primclasses2.json")
RECORDS = {r["name"]: r for r in json.load(open(FIXTURE))["cases"]}
CASES = {c.name: c for c in PC.CASES}


def test_fixture_covers_every_case() -> None:
    assert set(RECORDS) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore(name: str) -> None:
    case, rec = CASES[name], RECORDS[name]
    inputs = [decode(r) for r in rec["inputs"]]
    for mine, stored in zip(case.inputs, inputs):
        np.testing.assert_array_equal(mine, stored)
    ts = [Tensor(x) for x in inputs]
    if "error" in rec:
        with pytest.raises((TypeError, ValueError, IndexError)):
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
    check_gradients(name, case, rec, inputs, {})


def test_classes_equal_their_functions() -> None:
    x, g = Tensor(PC.IMG2), Tensor(PC.GRID2)
    np.testing.assert_array_equal(
        ops.GridSampler2D("nearest", "reflection", True)(x, g).asnumpy(),
        ops.grid_sample(x, g, "nearest", "reflection", True).asnumpy())
    t = Tensor(PC.THETA2)
    np.testing.assert_array_equal(ops.AffineGrid(True)(t, (2, 1, 3, 3)).asnumpy(),
                                  ops.affine_grid(t, (2, 1, 3, 3), True).asnumpy())
    y, arg = ops.FractionalMaxPoolWithFixedKsize(2, 3)(Tensor(PC.POOL2), Tensor(PC.SAMPLES2))
    want, want_arg = ops.fractional_max_pool2d(Tensor(PC.POOL2), 2, 3, return_indices=True,
                                               _random_samples=Tensor(PC.SAMPLES2))
    np.testing.assert_array_equal(y.asnumpy(), want.asnumpy())
    np.testing.assert_array_equal(arg.asnumpy(), want_arg.asnumpy())


def test_fractional_pool_gradient_reaches_the_maxima() -> None:
    """MindSpore 2.10's CPU build has no kernel for this gradient; here it is one per window,
    at the position ``argmax`` names."""
    x = Tensor(PC.POOL2)
    s = Tensor(PC.SAMPLES2)
    g = ms.grad(lambda a: ops.FractionalMaxPoolWithFixedKsize((2, 3), (3, 3))(a, s)[0].sum())(x)
    _, arg = ops.FractionalMaxPoolWithFixedKsize((2, 3), (3, 3))(x, s)
    want = np.zeros((1, 2, 42), np.float32)
    for c in range(2):
        np.add.at(want[0, c], arg.asnumpy()[0, c].ravel(), 1.0)
    np.testing.assert_array_equal(g.asnumpy(), want.reshape(1, 2, 6, 7))


def test_constructor_arguments_are_kept_and_checked() -> None:
    op = ops.GridSampler3D("nearest", "border", True)
    assert (op.interpolation_mode, op.padding_mode, op.align_corners) == \
        ("nearest", "border", True)
    assert ops.CropAndResize("nearest", 1).extrapolation_value == 1.0
    assert ops.CTCGreedyDecoder(False).merge_repeated is False
    assert ops.FractionalMaxPool3DWithFixedKsize(2, (3, 3, 2)).ksize == (2, 2, 2)
    assert ops.FractionalMaxPool3DWithFixedKsize(2, 2).data_format == "NCDHW"
    with pytest.raises(ValueError, match="GridSampler2D.*interpolation_mode"):
        ops.GridSampler2D("cubic")
    with pytest.raises(ValueError, match="GridSampler3D.*padding_mode"):
        ops.GridSampler3D(padding_mode="wrap")
    with pytest.raises(TypeError, match="AffineGrid.*align_corners"):
        ops.AffineGrid(1)
    with pytest.raises(ValueError, match="CropAndResize.*method"):
        ops.CropAndResize("bicubic")
    with pytest.raises(TypeError, match="CropAndResize.*extrapolation_value"):
        ops.CropAndResize("bilinear", "0")
    with pytest.raises(TypeError, match="CTCGreedyDecoder.*merge_repeated"):
        ops.CTCGreedyDecoder(None)
    with pytest.raises(ValueError, match="FractionalMaxPoolWithFixedKsize.*ksize"):
        ops.FractionalMaxPoolWithFixedKsize((2, 0), 3)
    with pytest.raises(ValueError, match="FractionalMaxPoolWithFixedKsize.*data_format"):
        ops.FractionalMaxPoolWithFixedKsize(2, 3, "NHWC")
    with pytest.raises(ValueError, match="FractionalMaxPool3DWithFixedKsize.*input_x"):
        ops.FractionalMaxPool3DWithFixedKsize(2, 2)(Tensor(PC.POOL2), Tensor(PC.SAMPLES3))
