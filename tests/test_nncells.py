"""The nncells family of ``mindspore.nn`` against MindSpore 2.10 (``tests/fixtures/
nncells.json``, recorded by ``tools/record_catalogue.py --suite nncells`` from
``tests/nncells_cases.py``): values, dtypes, shapes, input and Parameter gradients,
``print(cell)``, Parameter names, optimizer steps and MindSpore's error types. Then what
MindSpore's CPU build cannot record (the gradients of ``EmbeddingExt``, the random cells'
properties), training and checkpoints with ``AdamOffload``, and the signatures."""
from __future__ import annotations

import inspect
import json
import os

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, nn, ops

import nncells_cases as NC
from test_catalogue import _same, check_gradients, decode

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "nncells.json")
RECORDS = {r["name"]: r for r in json.load(open(FIXTURE))["cases"]}
CASES = {c.name: c for c in NC.CASES}


def test_fixture_covers_every_case() -> None:
    assert set(RECORDS) == set(CASES)


# the Parameter lists holding a BatchNorm (case -> output): nn.BatchNorm* registers gamma and
# beta before the moving statistics, MindSpore after them; the names and shapes agree
BATCHNORM_ORDER = {"meta_DenseBnAct": 1, "names_Conv2dBnAct": 0}
# (an optimizer's list: mindgrad's Optimizer does not list the trained Parameters and puts
# learning_rate before global_step; the state Parameters agree, as in tests/test_nnmisc.py)


def _run(case, inputs):
    ms.set_seed(0)
    return case.fn(ms, ops, *[Tensor(x) for x in inputs])


def _text(a: np.ndarray) -> str:
    return bytes(a.astype(np.uint8)).decode()


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore(name: str) -> None:
    case, rec = CASES[name], RECORDS[name]
    inputs = [decode(r) for r in rec["inputs"]]
    for mine, stored in zip(case.inputs, inputs):  # the case file and the fixture agree
        np.testing.assert_array_equal(mine, stored)
    if name in MINDSPORE_FAILS:  # see test_where_mindspore_fails
        return
    if "error" in rec:  # MindSpore refuses the call: so does mindgrad, with its error type
        with pytest.raises(Exception) as info:
            _run(case, inputs)
        assert type(info.value).__name__ == rec["error"][0], (info.value, rec["error"])
        return
    if name in MINDSPORE_WRONG_VALUES:  # see test_exact_where_mindspore_cpu_differs
        return
    out = _run(case, inputs)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    assert len(outs) == len(rec["outputs"])
    for k, (o, r) in enumerate(zip(outs, rec["outputs"])):
        if name.startswith(("meta_", "names_")):  # text: compare as text for a readable diff
            got, want = _text(o.asnumpy()), _text(decode(r))
            if name in BATCHNORM_ORDER and k == BATCHNORM_ORDER[name]:
                got, want = sorted(got.splitlines()), sorted(want.splitlines())
            if name == "meta_AdamOffload" and k == 1:  # the optimizer's own state only
                got, want = [[line for line in t.splitlines() if line.split()[0] not in
                              ("global_step", "learning_rate", "weight")] for t in (got, want)]
            assert got == want, f"{name} output {k}"
            continue
        _same(o.asnumpy(), decode(r), f"{name} output {k}", case.rtol, case.values)
    if "grads" not in rec:
        assert not case.grad
        return
    check_gradients(name, case, rec, inputs, MINDSPORE_WRONG.get(name, {}))


# --- where MindSpore 2.10's CPU build is wrong and mindgrad keeps the exact answer ----------
def _inputs(name: str) -> list:
    return [decode(r) for r in RECORDS[name]["inputs"]]


def _digamma(x: np.ndarray) -> np.ndarray:
    """digamma in float64: the recurrence up to 10, then the asymptotic series."""
    x = np.asarray(x, np.float64).copy()
    out = np.zeros_like(x)
    while (x < 10).any():
        small = x < 10
        out[small] -= 1 / x[small]
        x[small] += 1
    inv = 1 / (x * x)
    return out + np.log(x) - 0.5 / x - inv * (1 / 12 - inv * (1 / 120 - inv / 252))


# Gradients where MindSpore differs from the exact derivative (case -> {index: why});
# test_special_gradients_are_exact checks mindgrad's against digamma
MINDSPORE_WRONG = {
    # its Lanczos-series cell gives NaN gradients at some arguments (3, 20, 150 here)
    "LGamma": {0: "NaN at some arguments"},
    # its large-argument branches are selected after computing all of them: the NaN
    # gradients of the branches not taken reach the inputs
    "LBeta_large": {0: "NaN when an argument is 8 or more", 1: "NaN likewise"},
}


def _clip_rows(x: np.ndarray, c: float) -> np.ndarray:
    n = np.sqrt((x.astype(np.float64) ** 2).sum(-1, keepdims=True))
    return x * c / np.maximum(n, c)


def _lookup_max_norm() -> np.ndarray:
    net = NC._build(ms, lambda n: n.EmbeddingLookup(6, 3), 0)
    table = net.embedding_table.asnumpy()
    idx = _inputs("EmbeddingLookup_max_norm")[0]
    rows = np.where((idx >= 0)[..., None], table[np.clip(idx, 0, 5)], 0.0)
    return _clip_rows(rows, 0.3)


# case -> the exact answer of the first output
MINDSPORE_WRONG_VALUES = {
    # ClipByNorm over an axis (the embedding axis here): MindSpore's CPU kernel scales by the
    # wrong norms (as in tests/test_nnmisc.py)
    "EmbeddingLookup_max_norm": _lookup_max_norm,
}


# cases MindSpore's own code fails on (its error is recorded) -> the case whose recorded
# answer mindgrad gives instead
MINDSPORE_FAILS = {
    # update() indexes the scores with the (1,)-shaped label as a fancy index and then cannot
    # reshape them: ValueError; a 0-d label of the same class works
    "OcclusionSensitivity_label_1d": "OcclusionSensitivity",
}


@pytest.mark.parametrize("name", sorted(MINDSPORE_FAILS))
def test_where_mindspore_fails(name: str) -> None:
    assert "error" in RECORDS[name]
    out = _run(CASES[name], _inputs(name))
    _same(out.asnumpy(), decode(RECORDS[MINDSPORE_FAILS[name]]["outputs"][0]), name, 1e-5, True)


@pytest.mark.parametrize("name", sorted(MINDSPORE_WRONG_VALUES))
def test_exact_where_mindspore_cpu_differs(name: str) -> None:
    case = CASES[name]
    out = _run(case, _inputs(name))
    first = (out[0] if isinstance(out, (tuple, list)) else out).asnumpy()
    np.testing.assert_allclose(first, MINDSPORE_WRONG_VALUES[name](), rtol=2e-5, atol=1e-6)
    # ... and MindSpore's recorded values do differ (else this note is stale)
    assert not np.allclose(first, decode(RECORDS[name]["outputs"][0]), rtol=1e-4, atol=1e-5)


def test_special_gradients_are_exact() -> None:
    x = _inputs("LGamma")[0]
    g = ms.grad(lambda t: nn.LGamma()(t).sum())(Tensor(x)).asnumpy()
    np.testing.assert_allclose(g, _digamma(x), rtol=2e-5, atol=1e-5)
    a, b = _inputs("LBeta_large")
    ga, gb = ms.grad(lambda s, t: nn.LBeta()(s, t).sum(), grad_position=(0, 1))(Tensor(a),
                                                                                 Tensor(b))
    np.testing.assert_allclose(ga.asnumpy(), _digamma(a) - _digamma(a + b), rtol=1e-4,
                               atol=1e-6)
    np.testing.assert_allclose(gb.asnumpy(), _digamma(b) - _digamma(a + b), rtol=1e-4,
                               atol=1e-6)


# --- what MindSpore's CPU build cannot record ---------------------------------------------------
def _table(n: int = 6, d: int = 3) -> np.ndarray:
    return np.random.default_rng(40).normal(size=(n, d)).astype(np.float32)


def test_embedding_ext_gradients() -> None:
    """padding_idx rows get no gradient; scale_grad_by_freq divides a row's gradient by its
    count in the call's indices."""
    idx = np.array([[0, 2, 5], [3, 3, 0]], np.int32)
    w = np.cos(np.arange(18.0)).reshape(2, 3, 3).astype(np.float32)
    for kw, expect in (({"padding_idx": 3}, lambda g, c: np.where(np.arange(6)[:, None] == 3,
                                                                   0, g)),
                       ({"scale_grad_by_freq": True}, lambda g, c: g / np.maximum(c, 1)[:, None]),
                       ({}, lambda g, c: g)):
        cell = nn.EmbeddingExt(6, 3, _weight=Tensor(_table()), **kw)
        got = ms.grad(lambda i: (cell(i) * Tensor(w)).sum(), grad_position=None,
                      weights=cell.trainable_params())(Tensor(idx))[0].asnumpy()
        plain = np.zeros((6, 3), np.float32)
        np.add.at(plain, idx.reshape(-1), w.reshape(-1, 3))
        counts = np.bincount(idx.reshape(-1), minlength=6)
        np.testing.assert_allclose(got, expect(plain, counts), rtol=1e-6, err_msg=str(kw))
        np.testing.assert_array_equal(cell(Tensor(idx)).asnumpy(), _table()[idx])


def test_embedding_ext_max_norm_renormalizes_the_table() -> None:
    """The rows looked up whose 2-norm exceeds max_norm are rescaled in the table itself;
    rows not looked up, and small rows, stay."""
    table = _table()
    cell = nn.EmbeddingExt(6, 3, max_norm=0.9, _weight=Tensor(table))
    idx = np.array([0, 2, 2, 4], np.int32)
    out = cell(Tensor(idx)).asnumpy()
    norms = np.linalg.norm(table, axis=1)
    want = table * np.where(np.isin(np.arange(6), idx) & (norms > 0.9),
                            0.9 / (norms + 1e-7), 1.0)[:, None]
    np.testing.assert_allclose(cell.weight.asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(out, want[idx], rtol=1e-6)


def test_embedding_ext_padding_row_starts_at_zero() -> None:
    ms.set_seed(1)
    table = nn.EmbeddingExt(5, 4, padding_idx=-2).weight.asnumpy()
    assert (table[3] == 0).all() and (table[[0, 1, 2, 4]] != 0).all()
    assert 0.5 < table[[0, 1, 2, 4]].std() < 1.6  # standard normal


def test_dropout_ext_in_training() -> None:
    ms.set_seed(2)
    x = Tensor(np.ones((40, 50), np.float32))
    cell = nn.DropoutExt(0.25)
    cell.set_train()
    y = cell(x).asnumpy()
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.75)}
    assert 0.2 < (y == 0).mean() < 0.3
    cell2 = nn.Dropout2dExt(0.5)
    cell2.set_train()
    z = cell2(Tensor(np.ones((4, 16, 3, 3), np.float32))).asnumpy().reshape(4, 16, -1)
    assert (z.min(-1) == z.max(-1)).all() and 0 < (z[..., 0] == 0).sum() < 64
    p = ms.Parameter(Tensor(np.ones((6, 7), np.float32)), name="p")
    cell3 = nn.DropoutExt(0.5, inplace=True)
    cell3.set_train()
    out = cell3(p).asnumpy()
    np.testing.assert_array_equal(p.asnumpy(), out)
    assert (out == 0).any()


def test_sampled_softmax_loss_with_its_sampler() -> None:
    """Drawn classes are distinct and in range; the loss is finite and differentiable."""
    ms.set_seed(3)
    loss = nn.SampledSoftmaxLoss(4, 7, seed=5)
    w, b = Tensor(NC.SS_W), Tensor(NC.SS_B)
    out = loss(w, b, Tensor(NC.SS_LABELS), Tensor(NC.SS_LOGITS))
    assert out.shape == (4,) and np.isfinite(out.asnumpy()).all() and (out.asnumpy() > 0).all()
    g = ms.grad(lambda x: loss(w, b, Tensor(NC.SS_LABELS), x).sum())(Tensor(NC.SS_LOGITS))
    assert np.isfinite(g.asnumpy()).all()


def test_micro_batches_need_a_divisible_batch() -> None:
    cell = nn.GradAccumulationCell(nn.Dense(3, 2), 3)
    before = [p.asnumpy().copy() for p in cell.get_parameters()]
    with pytest.raises(ValueError, match="micro size 3"):
        cell(Tensor(NC.X43))
    for p, b in zip(cell.get_parameters(), before):
        np.testing.assert_array_equal(p.asnumpy(), b)


def test_pipeline_cell_stage_config() -> None:
    net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
    nn.PipelineCell(net, 2, stage_config={"0": 0, "2": 1})
    assert net[2].pipeline_stage == 1
    with pytest.raises(KeyError):
        nn.PipelineCell(net, 2, stage_config={"nope": 1})


def test_adam_offload_trains_and_checkpoints(tmp_path) -> None:
    """AdamOffload in TrainOneStepCell lowers the loss, and its state saved and loaded into
    a fresh one continues identically."""
    def make():
        ms.set_seed(4)
        net = nn.Dense(3, 1)
        opt = nn.AdamOffload(net.trainable_params(), learning_rate=0.05)
        return net, opt, nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)

    x = Tensor(NC.X43)
    y = Tensor(NC.X43 @ np.array([[0.5], [-1.0], [2.0]], np.float32))
    net, opt, step = make()
    losses = [float(step(x, y).asnumpy()) for _ in range(30)]
    assert losses[-1] < 0.3 * losses[0]
    path = str(tmp_path / "opt.ckpt")
    ms.save_checkpoint(opt, path)
    net2, opt2, step2 = make()
    ms.load_param_into_net(opt2, ms.load_checkpoint(path))
    for p, q in zip(net.trainable_params(), net2.trainable_params()):
        q.set_data(Tensor(p.asnumpy()))
    step(x, y)
    step2(x, y)
    for p, q in zip(net.trainable_params(), net2.trainable_params()):
        np.testing.assert_array_equal(p.asnumpy(), q.asnumpy())


def test_argument_errors_name_the_cell() -> None:
    x = Tensor(NC.X43)
    cases = [
        (ValueError, "Linear", lambda: nn.Linear(4, 2)(x)),
        (TypeError, "LGamma", lambda: nn.LGamma()(Tensor(np.ones(2, np.int32)))),
        (ValueError, "EmbeddingExt", lambda: nn.EmbeddingExt(4, 2)(Tensor(np.array([4],
                                                                                   np.int32)))),
        (ValueError, "EmbeddingExt", lambda: nn.EmbeddingExt(4, 2, padding_idx=4)),
        (TypeError, "MultiFieldEmbeddingLookup", lambda: nn.MultiFieldEmbeddingLookup(6, 2, 2)(
            Tensor(NC._MF[0]), Tensor(NC._MF[1]), Tensor(NC._MF[2].astype(np.int64)))),
        (ValueError, "SparseTensorDenseMatmul", lambda: nn.SparseTensorDenseMatmul()(
            Tensor(NC.SP_IDX), Tensor(NC.SP_VAL), (3, 4), Tensor(np.ones((3, 2), np.float32)))),
        (ValueError, "PSNR", lambda: nn.PSNR()(Tensor(NC.IMG), Tensor(NC.IMG[:1]))),
        (TypeError, "SSIM", lambda: nn.SSIM(k1=1)),
        (ValueError, "SampledSoftmaxLoss", lambda: nn.SampledSoftmaxLoss(2, 5, num_true=0)),
        (TypeError, "AdamOffload", lambda: nn.AdamOffload([ms.Parameter(x, name="p")],
                                                          use_nesterov=1)),
    ]
    for err, who, call in cases:
        with pytest.raises(err, match=who):
            call()


# --- MindSpore's signatures -------------------------------------------------------------------
NAMES = ["LGamma", "DiGamma", "IGamma", "LBeta", "ChannelShuffle", "Linear", "DropoutExt",
         "Dropout2dExt", "LogSoftmaxExt", "EmbeddingExt", "EmbeddingLookup",
         "MultiFieldEmbeddingLookup", "Conv2dBnAct", "DenseBnAct", "SparseToDense",
         "SparseTensorDenseMatmul", "PSNR", "SSIM", "MSSSIM", "GradAccumulationCell",
         "PipelineCell", "MicroBatchInterleaved", "VirtualDatasetCellTriple",
         "SampledSoftmaxLoss", "AdamOffload"]


def _signature(f) -> str:
    parts = []
    for name, p in inspect.signature(f).parameters.items():
        if name == "self":
            continue
        default = "" if p.default is p.empty else "=" + (
            "mindspore.float32" if p.default is ms.float32 else repr(p.default))
        parts.append(name + default)
    return "(" + ", ".join(parts) + ")"


def test_signatures_match_mindspore() -> None:
    data = os.path.join(os.path.dirname(__file__), "..", "tools", "data",
                        "mindspore_nn_signatures.txt")
    sigs = dict(line.strip().split(" ", 1) for line in open(data))
    wrong = []
    for name in NAMES:
        cls = getattr(nn, name)
        got = _signature(cls.__init__) if cls.__init__ is not nn.Cell.__init__ else "()"
        if got != sigs[name]:
            wrong.append(f"{name}: {got} != {sigs[name]}")
    assert not wrong, "\n".join(wrong)


def test_no_init_parameters() -> None:
    """The flag MindSpore reads is off inside the block and back after it (also after an
    error); the Parameters made inside are usable and load from a checkpoint."""
    assert ms.Parameter.init_param is True
    with nn.no_init_parameters():
        assert ms.Parameter.init_param is False
        net = nn.Dense(3, 2)
    assert ms.Parameter.init_param is True
    assert net(Tensor(NC.X43)).shape == (4, 2)
    with pytest.raises(ZeroDivisionError):
        with nn.no_init_parameters():
            1 / 0
    assert ms.Parameter.init_param is True
    ms.load_param_into_net(net, {"weight": ms.Parameter(Tensor(np.ones((2, 3), np.float32)),
                                                        name="weight")})
    np.testing.assert_array_equal(net.weight.asnumpy(), np.ones((2, 3)))
