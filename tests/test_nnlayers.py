"""The ``mindspore.nn`` layers against MindSpore 2.10 (``tests/fixtures/nnlayers.json``,
recorded by ``tools/record_catalogue.py --suite nnlayers`` from ``tests/nnlayers_cases.py``):
the same layers with the same weights give MindSpore's shapes, dtypes, values and input and
Parameter gradients, and refuse what MindSpore refuses with the same exception type. Then the
Parameter names, shapes and initial distributions, ``print(cell)``, derivatives checked
numerically in float64 and GRAPH mode against PYNATIVE."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, nn, ops

import nnlayers_cases as NC
from test_catalogue import _same, decode, weights
from gradcheck import check_grads

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "nnlayers.json")
RECORDS = {r["name"]: r for r in json.load(open(FIXTURE))["cases"]}
CASES = {c.name: c for c in NC.CASES}


def test_fixture_covers_every_case() -> None:
    assert set(RECORDS) == set(CASES)


def _outputs(out) -> tuple:
    return out if isinstance(out, (tuple, list)) else (out,)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore(name: str) -> None:
    case, rec = CASES[name], RECORDS[name]
    inputs = [decode(r) for r in rec["inputs"]]
    for mine, stored in zip(case.inputs, inputs):  # the case file and the fixture agree
        np.testing.assert_array_equal(mine, stored)
    ms.set_seed(0)
    ts = [Tensor(x) for x in inputs]
    if "error" in rec:
        kind = {"ValueError": ValueError, "TypeError": TypeError,
                "IndexError": IndexError, "RuntimeError": RuntimeError}[rec["error"][0]]
        with pytest.raises(kind):
            case.fn(ms, ops, *ts)
        return
    outs = _outputs(case.fn(ms, ops, *ts))
    assert len(outs) == len(rec["outputs"])
    for k, (o, r) in enumerate(zip(outs, rec["outputs"])):
        _same(o.asnumpy(), decode(r), f"{name} output {k}", case.rtol, case.values)
    if "grads" not in rec:
        assert not case.grad
        return
    w = Tensor(weights(tuple(rec["outputs"][0]["shape"])))

    def loss(*xs):
        return (_outputs(case.fn(ms, ops, *xs))[0] * w).sum()

    g = _outputs(ms.grad(loss, grad_position=tuple(case.grad))(*ts))
    for k, (t, r) in enumerate(zip(g, rec["grads"])):
        _same(t.asnumpy(), decode(r), f"{name} gradient {k}", max(case.rtol, 1e-5), True)


# --- Parameters: MindSpore's names, shapes and initial distributions ------------------------
def _names(net) -> list:
    return [(n, p.name, tuple(p.shape)) for n, p in net.parameters_and_names()]


def test_rnn_parameter_names_and_order() -> None:
    got = _names(nn.RNN(3, 4, num_layers=2, bidirectional=True))
    order = [f"{k}_l{layer}{d}" for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
             for layer in (0, 1) for d in ("", "_reverse")]
    assert [n for n, _, _ in got] == order
    assert all(n == pn for n, pn, _ in got)
    shapes = dict((n, s) for n, _, s in got)
    assert shapes["weight_ih_l0"] == (4, 3) and shapes["weight_ih_l1_reverse"] == (4, 8)
    assert shapes["weight_hh_l1"] == (4, 4) and shapes["bias_hh_l0_reverse"] == (4,)
    lstm = dict((n, s) for n, _, s in _names(nn.LSTM(3, 5, has_bias=False)))
    assert lstm == {"weight_ih_l0": (20, 3), "weight_hh_l0": (20, 5)}
    assert [n for n, _, _ in _names(nn.GRUCell(3, 4))] == ["weight_ih", "weight_hh", "bias_ih",
                                                           "bias_hh"]
    assert _names(nn.GRUCell(3, 4))[0][2] == (12, 3)
    nested = nn.SequentialCell([nn.LSTM(3, 4)])
    assert [p.name for p in nested.get_parameters()][0] == "0.weight_ih_l0"


def test_recurrent_initialisation_is_uniform_in_one_over_sqrt_hidden() -> None:
    ms.set_seed(1)
    for net in (nn.LSTM(30, 25, 2), nn.GRU(30, 25), nn.RNNCell(30, 25), nn.LSTMCell(30, 25)):
        values = np.concatenate([p.asnumpy().ravel() for p in net.get_parameters()])
        bound = 1 / np.sqrt(25)
        assert values.dtype == np.float32 and np.abs(values).max() <= bound
        assert np.abs(values).max() > 0.95 * bound
        assert abs(values.std() - bound / np.sqrt(3)) < 0.02 * bound * 5


def test_print_matches_mindspore() -> None:
    assert repr(nn.LSTM(3, 4)) == ("LSTM(\n  (rnn): _DynamicLSTMCPUGPU()\n"
                                   "  (dropout_op): Dropout(p=0.0)\n)")
    assert repr(nn.RNN(3, 4, nonlinearity="relu")).startswith("RNN(\n  (rnn): _DynamicRNNRelu()")
    assert repr(nn.GRU(3, 4)).startswith("GRU(\n  (rnn): _DynamicGRUCPUGPU()")
    assert repr(nn.GRUCell(3, 4)) == "GRUCell()"


# --- derivatives numerically (float64), GRAPH mode, training dropout ---------------------------
def _f64(seed: int, *shape: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=shape)


def test_recurrent_derivatives_numerically() -> None:
    ms.set_seed(2)
    for net in (nn.LSTM(3, 2, bidirectional=True, dtype=ms.float64),
                nn.GRU(3, 2, 2, dtype=ms.float64)):
        check_grads(lambda x: net(x)[0], [Tensor(_f64(3, 4, 2, 3))], order=1)
    cell = nn.LSTMCell(3, 2)
    x, h, c = (Tensor(_f64(s, 2, n).astype(np.float32)) for s, n in ((4, 3), (5, 2), (6, 2)))
    hv, cv = cell(x, (h, c))
    assert hv.shape == cv.shape == (2, 2)


def test_recurrent_graph_mode_matches_pynative() -> None:
    ms.set_seed(3)
    net = nn.GRU(3, 4, 2, bidirectional=True)
    x = Tensor(NC.SEQ)
    eager = net(x)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        compiled = net(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for a, b in zip(eager, compiled):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)


def test_dropout_between_layers_only_in_training() -> None:
    ms.set_seed(4)
    net = nn.LSTM(3, 4, 2, dropout=0.5)
    x = Tensor(NC.SEQ)
    a, b = net(x)[0].asnumpy(), net(x)[0].asnumpy()
    np.testing.assert_array_equal(a, b)
    net.set_train(True)
    c, d = net(x)[0].asnumpy(), net(x)[0].asnumpy()
    assert not np.allclose(c, d) and not np.allclose(a, c)


def test_attention_parameters_and_print() -> None:
    mha = nn.MultiheadAttention(8, 2, kdim=6, vdim=5, add_bias_kv=True)
    assert _names(mha) == [("q_proj_weight", "q_proj_weight", (8, 8)),
                           ("k_proj_weight", "k_proj_weight", (8, 6)),
                           ("v_proj_weight", "v_proj_weight", (8, 5)),
                           ("in_proj_bias", "in_proj_bias", (24,)),
                           ("bias_k", "bias_k", (1, 1, 8)), ("bias_v", "bias_v", (1, 1, 8)),
                           ("out_proj.weight", "out_proj.weight", (8, 8)),
                           ("out_proj.bias", "out_proj.bias", (8,))]
    assert not nn.MultiheadAttention(8, 2).in_proj_bias.asnumpy().any()
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2)
    names = [p.name for p in enc.get_parameters()]
    assert names[0] == "layers.0.self_attn.in_proj_weight" and len(names) == 2 * 12
    assert "layers.1.norm2.beta" in names
    layer = repr(nn.TransformerEncoderLayer(8, 2, 16)).splitlines()
    assert [line.split(")")[0].strip() for line in layer if line.startswith("  (")] == [
        "(self_attn", "(dense1", "(dropout", "(dense2", "(norm1", "(norm2", "(dropout1",
        "(dropout2"]
    assert repr(mha.out_proj) == "Dense(input_channels=8, output_channels=8, has_bias=True)"


def test_transformer_redraws_matrices_xavier_uniform() -> None:
    ms.set_seed(5)
    net = nn.Transformer(16, 2, 1, 1, 32)
    w = net.encoder.layers[0].dense1.weight.asnumpy()
    bound = np.sqrt(6 / (16 + 32))
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert net.encoder.layers[0].norm1.gamma.asnumpy().tolist() == [1.0] * 16


def test_attention_graph_mode_and_derivatives() -> None:
    ms.set_seed(6)
    net = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    x, m = Tensor(NC.Q), Tensor(NC.SRC_MASK)
    eager = net(x, m).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        compiled = net(x, m).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(eager, compiled, rtol=1e-5, atol=1e-6)
    mha = nn.MultiheadAttention(4, 2, dtype=ms.float64)
    check_grads(lambda q, kv: mha(q, kv, kv)[0], [Tensor(_f64(7, 3, 2, 4)),
                                                  Tensor(_f64(8, 5, 2, 4))], order=1)


def test_convolution_and_pooling_print_and_weights() -> None:
    assert repr(nn.MaxPool1d(2, 2)) == ("MaxPool1d(kernel_size=(1, 2), stride=(1, 2), "
                                        "pad_mode=VALID)")
    assert repr(nn.MaxPool1d(3, 2, pad_mode="pad", padding=1)) == (
        "MaxPool1d(kernel_size=(1, 1, 3), stride=(1, 1, 2), pad_mode=PAD)")
    assert repr(nn.AvgPool1d(3, 2, pad_mode="pad", padding=1)) == (
        "AvgPool1d(kernel_size=3, stride=2, pad_mode=PAD)")
    assert repr(nn.MaxPool3d(3, 2, "pad", 1)) == "MaxPool3d(kernel_size=3, stride=2, pad_mode=PAD)"
    for cell in (nn.AdaptiveAvgPool2d(2), nn.LPPool1d(2, 3), nn.ConstantPad2d(1, 0.0),
                 nn.ReflectionPad1d(1), nn.Pad(((1, 1),)), nn.PixelShuffle(2), nn.OneHot()):
        assert repr(cell) == type(cell).__name__ + "()"
    assert repr(nn.Norm(axis=1)) == "Norm(axis=1, keep_dims=False)"
    text = repr(nn.Conv1d(3, 4, 3))
    assert text.startswith("Conv1d(input_channels=3, output_channels=4, kernel_size=(1, 3), "
                           "stride=(1, 1), pad_mode=same, padding=(0, 0, 0, 0), dilation=(1, 1), "
                           "group=1, has_bias=False, weight_init=")
    assert text.endswith("bias_init=None, format=NCHW)")
    assert repr(nn.Conv3d(4, 6, 3)).endswith("format=NCDHW)")
    shapes = {type(c).__name__: tuple(c.weight.shape) for c in (
        nn.Conv1d(4, 6, 3, group=2), nn.Conv1dTranspose(4, 6, 3, group=2),
        nn.Conv2dTranspose(4, 6, (2, 3), group=2), nn.Conv3d(4, 6, 3, group=2),
        nn.Conv3dTranspose(4, 6, (1, 2, 3), group=2))}
    assert shapes == {"Conv1d": (6, 2, 1, 3), "Conv1dTranspose": (4, 3, 1, 3),
                      "Conv2dTranspose": (4, 3, 2, 3), "Conv3d": (6, 2, 3, 3, 3),
                      "Conv3dTranspose": (4, 3, 1, 2, 3)}
    ms.set_seed(7)
    conv = nn.Conv1dTranspose(30, 20, 5, has_bias=True)
    bound = 1 / np.sqrt(20 * 5)  # fan_in of the (in, out, 1, k) weight
    b = conv.bias.asnumpy()
    assert np.abs(b).max() <= bound and np.abs(b).max() > 0.8 * bound


def test_volume_and_transposed_derivatives_numerically() -> None:
    rng = np.random.default_rng(9)
    x = Tensor(rng.normal(size=(1, 2, 3, 4, 3)))
    w = Tensor(rng.normal(size=(2, 2, 2, 2, 2)))
    check_grads(lambda a, b: ops.conv3d(a, b, pad_mode="pad", padding=1, stride=2), [x, w],
                order=1)
    check_grads(lambda a, b: ops.conv3d_transpose(a, b, stride=(2, 1, 2)), [x, w], order=1)
    check_grads(lambda a: ops.avg_pool3d(a, 2, 1, 1, True, False), [x], order=1)
    check_grads(lambda a: ops.lp_pool1d(a, 3, 2), [Tensor(rng.random((2, 3, 6)) + 0.5)],
                order=1)
    net = nn.Conv2dTranspose(2, 3, 3, stride=2, pad_mode="pad", padding=1, has_bias=True,
                             dtype=ms.float64)
    check_grads(lambda a: net(a), [Tensor(rng.normal(size=(1, 2, 3, 3)))], order=2)


def test_pooling_graph_mode_matches_pynative() -> None:
    net = nn.SequentialCell([nn.Conv3d(2, 3, 2), nn.MaxPool3d(2), nn.AvgPool3d(1)])
    x = Tensor(np.random.default_rng(10).normal(size=(1, 2, 4, 4, 4)).astype(np.float32))
    eager = net(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        compiled = net(x).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(eager, compiled, rtol=1e-6)
