"""mindspore.train metrics against values recorded from MindSpore 2.10
(tools/record_train_metrics.py -> tests/fixtures/train_metrics.json), hand-computed
cases, and bad input."""
import importlib.util
import json
import os

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, nn
from mindgrad.train import (F1, MAE, MSE, ROC, Accuracy, ConfusionMatrix, Fbeta, Loss, Metric,
                            Precision, Recall, Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                            TopKCategoricalAccuracy, auc, get_metric_fn, get_metrics, names)

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "fixtures", "train_metrics.json")) as _f:
    REF = json.load(_f)["metrics"]
_spec = importlib.util.spec_from_file_location(
    "record_train_metrics", os.path.join(HERE, "..", "tools", "record_train_metrics.py"))
_rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_rec)
D = _rec.metric_inputs()


def _run(metric, pairs, **kw):
    metric.clear()
    for p in pairs:
        metric.update(*[Tensor(a) for a in p])
    return metric.eval(**kw)


def _close(got, name):
    want = REF[name]
    if isinstance(got, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(w, np.float64),
                                       rtol=1e-6, atol=0)  # float32 sums in another NumPy
    else:
        np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64),
                                   rtol=1e-6, atol=0)  # float32 sums in another NumPy


CLS = list(zip(D["scores"], D["labels"]))
ONEHOT = [(s, np.eye(4, dtype=np.float32)[lab]) for s, lab in CLS]
MULTI = list(zip(D["multi_pred"], D["multi_true"]))
REG = list(zip(D["reg_pred"], D["reg_true"]))
WIDE = list(zip(D["wide"], D["wide_labels"]))
BIN = [(D["binary_scores"], D["binary_labels"])]

CASES = [
    ("accuracy", lambda: _run(Accuracy(), CLS)),
    ("accuracy_onehot", lambda: _run(Accuracy(), ONEHOT)),
    ("accuracy_multilabel", lambda: _run(Accuracy("multilabel"), MULTI)),
    ("precision", lambda: _run(Precision(), CLS)),
    ("precision_avg", lambda: _run(Precision(), CLS, average=True)),
    ("precision_multilabel", lambda: _run(Precision("multilabel"), MULTI)),
    ("precision_multilabel_avg", lambda: _run(Precision("multilabel"), MULTI, average=True)),
    ("recall", lambda: _run(Recall(), CLS)),
    ("recall_avg", lambda: _run(Recall(), CLS, average=True)),
    ("recall_multilabel", lambda: _run(Recall("multilabel"), MULTI)),
    ("recall_multilabel_avg", lambda: _run(Recall("multilabel"), MULTI, average=True)),
    ("f1", lambda: _run(F1(), CLS)),
    ("f1_avg", lambda: _run(F1(), CLS, average=True)),
    ("fbeta2", lambda: _run(Fbeta(2.0), CLS)),
    ("fbeta_half_onehot", lambda: _run(Fbeta(0.5), ONEHOT)),
    ("mae", lambda: _run(MAE(), REG)),
    ("mse", lambda: _run(MSE(), REG)),
    ("mae_flat_y", lambda: _run(MAE(), [(p, t.reshape(-1)) for p, t in REG])),
    ("top1", lambda: _run(Top1CategoricalAccuracy(), WIDE)),
    ("top5", lambda: _run(Top5CategoricalAccuracy(), WIDE)),
    ("top3", lambda: _run(TopKCategoricalAccuracy(3), WIDE)),
    ("top2_onehot", lambda: _run(TopKCategoricalAccuracy(2), ONEHOT)),
    ("confusion", lambda: _run(ConfusionMatrix(4), CLS)),
    ("confusion_target", lambda: _run(ConfusionMatrix(4, normalize="target"), CLS)),
    ("confusion_prediction", lambda: _run(ConfusionMatrix(4, normalize="prediction"), CLS)),
    ("confusion_all", lambda: _run(ConfusionMatrix(4, normalize="all"), CLS)),
    ("confusion_threshold", lambda: _run(ConfusionMatrix(2, threshold=0.6), BIN)),
    ("roc_binary", lambda: _run(ROC(pos_label=1), BIN)),
    ("roc_square", lambda: _run(ROC(class_num=4), [(D["sq_scores"], D["sq_labels"])])),
]


@pytest.mark.parametrize("name,fn", CASES, ids=[c[0] for c in CASES])
def test_matches_mindspore(name, fn):
    with np.errstate(invalid="ignore"):  # MindSpore's multilabel precision divides 0 by 0
        _close(fn(), name)


def test_loss_and_auc_match_mindspore():
    m = Loss()
    for v in D["losses"]:
        m.update(Tensor(v))
    _close(m.eval(), "loss")
    fpr, tpr, _ = ROC(pos_label=1)(Tensor(D["binary_scores"]), Tensor(D["binary_labels"]))
    _close(auc(fpr, tpr), "auc_binary")
    _close(auc(np.array([3.0, 2.0, 0.5]), np.array([1.0, 4.0, 2.0])), "auc_decreasing")
    _close(auc(np.array([2.0, 0.0, 1.0]), np.array([1.0, 3.0, 2.0]), reorder=True),
           "auc_reorder")


def test_hand_computed_values():
    y_pred = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7], [0.6, 0.4]], np.float32)
    y = np.array([1, 1, 0, 0])
    assert Accuracy()(y_pred, y) == 0.5
    np.testing.assert_allclose(Precision()(y_pred, y), [0.5, 0.5])
    np.testing.assert_allclose(Recall()(y_pred, y), [0.5, 0.5])
    np.testing.assert_allclose(F1()(y_pred, y), [0.5, 0.5])
    np.testing.assert_array_equal(ConfusionMatrix(2)(y_pred, y), [[1, 1], [1, 1]])
    assert TopKCategoricalAccuracy(2)(y_pred, y) == 1.0
    # MAE sums over a sample's elements and divides by the number of samples
    assert MAE()(np.array([[1.0, 2.0]]), np.array([[0.0, 0.0]])) == 3.0
    assert MSE()(np.array([[1.0, 2.0]]), np.array([[0.0, 0.0]])) == 5.0
    # Loss averages the per-batch means
    loss = Loss()
    loss.update(Tensor(np.array([1.0, 3.0], np.float32)))
    loss.update(Tensor(6.0))
    assert loss.eval() == 4.0
    # accumulation over updates equals one update of the concatenation
    a = Accuracy()
    a.update(y_pred[:2], y[:2])
    a.update(y_pred[2:], y[2:])
    assert a.eval() == 0.5


def test_set_indexes_and_call():
    m = Accuracy().set_indexes([1, 2])
    y_pred = Tensor(np.array([[0.2, 0.8], [0.9, 0.1]], np.float32))
    m.clear()
    m.update("ignored", y_pred, Tensor(np.array([1, 1])))
    assert m.eval() == 0.5
    assert isinstance(m, Metric)
    with pytest.raises(ValueError, match="set_indexes"):
        Accuracy().set_indexes((0, 1))


def test_names_and_factories():
    assert "accuracy" in names() and "mae" in names()
    assert isinstance(get_metric_fn("acc"), Accuracy)
    assert isinstance(get_metric_fn("topk", 3), TopKCategoricalAccuracy)
    got = get_metrics({"accuracy", "loss"})
    assert isinstance(got["accuracy"], Accuracy) and isinstance(got["loss"], Loss)
    assert get_metrics(None) is None
    with pytest.raises(KeyError, match="nope"):
        get_metric_fn("nope")
    with pytest.raises(TypeError, match="get_metrics"):
        get_metrics({"a": 3})
    # the nn.metrics alias and the top-level names
    assert nn.Accuracy is Accuracy and nn.metrics.MAE is MAE
    assert ms.train.metrics.F1 is F1


def test_bad_input():
    with pytest.raises(RuntimeError, match="Accuracy"):
        Accuracy().eval()
    with pytest.raises(RuntimeError, match="MAE"):
        MAE().eval()
    with pytest.raises(ValueError, match=r"Accuracy.update.*2 input"):
        Accuracy().update(np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"shape \[2, 3\] and y shape \[3\]"):
        Accuracy().update(np.zeros((2, 3)), np.zeros(3))
    with pytest.raises(TypeError, match="eval_type"):
        Accuracy("regression")
    with pytest.raises(TypeError, match="input data must be a Tensor"):
        Accuracy().update((1, 2), (1, 2))
    acc = Accuracy()
    acc.update(np.zeros((2, 3)), np.zeros(2))
    with pytest.raises(ValueError, match="3 classes but this y_pred has 4"):
        acc.update(np.zeros((2, 4)), np.zeros(2))
    with pytest.raises(ValueError, match="class 5"):
        Precision().update(np.zeros((2, 3)), np.array([0, 5]))
    with pytest.raises(ValueError, match="0 or 1"):
        Accuracy("multilabel").update(np.full((2, 2), 0.5), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="beta"):
        Fbeta(0)
    with pytest.raises(TypeError, match="'k'"):
        TopKCategoricalAccuracy(1.5)
    with pytest.raises(ValueError, match="at least 1"):
        TopKCategoricalAccuracy(0)
    with pytest.raises(ValueError, match="normalize"):
        ConfusionMatrix(2, normalize="rows")
    with pytest.raises(ValueError, match=r"labels must be in \[0, 2\)"):
        ConfusionMatrix(2).update(np.array([0, 1]), np.array([0, 2]))
    with pytest.raises(ValueError, match="no negative samples"):
        ROC(pos_label=1)(np.array([0.1, 0.9]), np.array([1, 1]))
    with pytest.raises(ValueError, match="increasing or decreasing"):
        auc(np.array([0.0, 2.0, 1.0]), np.array([1.0, 1.0, 1.0]))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        auc([0, 1], [0, 1])
    with pytest.raises(ValueError, match="'Loss.update'.*scalar or 1-D"):
        Loss().update(np.zeros((2, 2)))
    with pytest.raises(TypeError, match="average"):
        p = Precision()
        p.update(np.eye(2), np.array([0, 1]))
        p.eval(average=1)
