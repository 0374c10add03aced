"""Record MindSpore's metric results on fixed inputs into tests/fixtures/train_metrics.json.

Run with a Python that has MindSpore installed (never needed by mindgrad itself):

    /path/to/mindspore-venv/bin/python tools/record_train_metrics.py

The inputs are built here from fixed seeds; tests/test_train_metrics.py rebuilds the same
inputs, feeds them to mindgrad's metrics and compares with the recorded values."""
from __future__ import annotations

import json
import os
import sys

import numpy as np


def metric_inputs() -> dict:
    """Named input batches (lists of (y_pred, y) pairs); tests import this function."""
    rng = np.random.default_rng(7)
    scores = [rng.random((6, 4)).astype(np.float32) for _ in range(2)]
    labels = [rng.integers(0, 4, 6) for _ in range(2)]
    multi_pred = [(rng.random((5, 3)) > 0.5).astype(np.float32) for _ in range(2)]
    multi_true = [(rng.random((5, 3)) > 0.5).astype(np.float32) for _ in range(2)]
    reg_pred = [rng.normal(size=(4, 3)).astype(np.float32) for _ in range(2)]
    reg_true = [rng.normal(size=(4, 3)).astype(np.float32) for _ in range(2)]
    wide = [rng.random((8, 7)).astype(np.float32) for _ in range(2)]
    wide_labels = [rng.integers(0, 7, 8) for _ in range(2)]
    binary_scores = np.round(rng.random(12), 2)
    binary_labels = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1])
    sq_scores = rng.random((4, 4))
    sq_labels = np.array([0, 1, 2, 3])
    losses = [np.float32(0.75), np.array([0.5, 1.5], np.float32), np.float32(2.0)]
    return dict(scores=scores, labels=labels, multi_pred=multi_pred, multi_true=multi_true,
                reg_pred=reg_pred, reg_true=reg_true, wide=wide, wide_labels=wide_labels,
                binary_scores=binary_scores, binary_labels=binary_labels,
                sq_scores=sq_scores, sq_labels=sq_labels, losses=losses)


def _plain(v):
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return np.asarray(v, dtype=np.float64).tolist()


def record(ms) -> dict:
    from mindspore import Tensor
    from mindspore.train import (F1, MAE, MSE, ROC, Accuracy, ConfusionMatrix, Fbeta, Loss,
                                 Precision, Recall, Top1CategoricalAccuracy,
                                 Top5CategoricalAccuracy, TopKCategoricalAccuracy, auc)

    d = metric_inputs()
    out = {}

    def run(name, metric, pairs, **eval_kw):
        metric.clear()
        for p in pairs:
            metric.update(*[Tensor(a) for a in p])
        out[name] = _plain(metric.eval(**eval_kw))

    cls = list(zip(d["scores"], d["labels"]))
    onehot = [(s, np.eye(4, dtype=np.float32)[lab]) for s, lab in cls]
    multi = list(zip(d["multi_pred"], d["multi_true"]))
    reg = list(zip(d["reg_pred"], d["reg_true"]))
    wide = list(zip(d["wide"], d["wide_labels"]))
    run("accuracy", Accuracy(), cls)
    run("accuracy_onehot", Accuracy(), onehot)
    run("accuracy_multilabel", Accuracy("multilabel"), multi)
    for n, m in (("precision", Precision), ("recall", Recall)):
        run(n, m(), cls)
        run(n + "_avg", m(), cls, average=True)
        run(n + "_multilabel", m("multilabel"), multi)
        run(n + "_multilabel_avg", m("multilabel"), multi, average=True)
    run("f1", F1(), cls)
    run("f1_avg", F1(), cls, average=True)
    run("fbeta2", Fbeta(2.0), cls)
    run("fbeta_half_onehot", Fbeta(0.5), onehot)
    run("mae", MAE(), reg)
    run("mse", MSE(), reg)
    run("mae_flat_y", MAE(), [(p, t.reshape(-1)) for p, t in reg])
    run("top1", Top1CategoricalAccuracy(), wide)
    run("top5", Top5CategoricalAccuracy(), wide)
    run("top3", TopKCategoricalAccuracy(3), wide)
    run("top2_onehot", TopKCategoricalAccuracy(2), onehot)
    m = Loss()
    for v in d["losses"]:
        m.update(Tensor(v))
    out["loss"] = _plain(m.eval())
    run("confusion", ConfusionMatrix(4), cls)
    for norm in ("target", "prediction", "all"):
        run("confusion_" + norm, ConfusionMatrix(4, normalize=norm), cls)
    run("confusion_threshold", ConfusionMatrix(2, threshold=0.6),
        [(d["binary_scores"], d["binary_labels"])])
    run("roc_binary", ROC(pos_label=1), [(d["binary_scores"], d["binary_labels"])])
    run("roc_square", ROC(class_num=4), [(d["sq_scores"], d["sq_labels"])])
    fpr, tpr, _ = ROC(pos_label=1)(Tensor(d["binary_scores"]), Tensor(d["binary_labels"]))
    out["auc_binary"] = _plain(auc(fpr, tpr))
    out["auc_decreasing"] = _plain(auc(np.array([3.0, 2.0, 0.5]), np.array([1.0, 4.0, 2.0])))
    out["auc_reorder"] = _plain(auc(np.array([2.0, 0.0, 1.0]), np.array([1.0, 3.0, 2.0]),
                                    reorder=True))
    return out


def main() -> None:
    import mindspore as ms

    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "tests", "fixtures", "train_metrics.json")
    data = {"mindspore_version": ms.__version__, "metrics": record(ms)}
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    print("wrote", os.path.normpath(path), file=sys.stderr)


if __name__ == "__main__":
    main()
