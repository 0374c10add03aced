"""``ConfusionMatrix``, ``ROC`` and ``auc``."""
from __future__ import annotations

from typing import Any

import numpy as np

from .metric import Metric, binary_clf_curve, rearrange_inputs

_NORMS = ("target", "prediction", "all", "no_norm")


class ConfusionMatrix(Metric):
    """``matrix[true, predicted]`` counts. ``y_pred`` holds scores with a class axis 1
    (argmax), or labels; float labels of ``y``'s rank are thresholded at ``threshold``.
    ``normalize``: 'no_norm', 'target' (rows sum to 1), 'prediction' (columns) or 'all'."""

    def __init__(self, num_classes: int, normalize: str = "no_norm",
                 threshold: float = 0.5) -> None:
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, int):
            raise TypeError(f"For 'ConfusionMatrix', 'num_classes' must be an int, but got "
                            f"{type(num_classes).__name__}.")
        if normalize not in _NORMS:
            raise ValueError(f"For 'ConfusionMatrix', 'normalize' must be in {list(_NORMS)}, "
                             f"but got {normalize!r}.")
        if not isinstance(threshold, float):
            raise TypeError(f"For 'ConfusionMatrix', 'threshold' must be a float, but got "
                            f"{type(threshold).__name__}.")
        self.num_classes = num_classes
        self.normalize = normalize
        self.threshold = threshold
        self.clear()

    def clear(self) -> None:
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y)``."""
        self._check_count(inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError(f"For 'ConfusionMatrix.update', y_pred must have the rank of y or "
                             f"one more, but got shapes {list(y_pred.shape)} and "
                             f"{list(y.shape)}.")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        elif y_pred.dtype.kind == "f":
            y_pred = (y_pred >= self.threshold).astype(int)
        n = self.num_classes
        cells = (y.reshape(-1) * n + y_pred.reshape(-1)).astype(int)
        if cells.size and (cells.min() < 0 or cells.max() >= n * n):
            raise ValueError(f"For 'ConfusionMatrix.update', labels must be in [0, {n}), but "
                             f"got y in [{y.min()}, {y.max()}] and predictions in "
                             f"[{y_pred.min()}, {y_pred.max()}].")
        self.confusion_matrix += np.bincount(cells, minlength=n * n).reshape(n, n)
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("For 'ConfusionMatrix', call update() before eval().")
        m = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return m
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.normalize == "target":
                m = m / m.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                m = m / m.sum(axis=0, keepdims=True)
            else:
                m = m / m.sum()
        m[np.isnan(m)] = 0  # an empty row or column
        return m


def _curve_inputs(y_pred: np.ndarray, y: np.ndarray, class_num: Any, pos_label: Any) -> tuple:
    """Flattened binary scores (class_num 1) or (N, C) multi-class scores, and the labels."""
    if y_pred.ndim == y.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError(f"For 'ROC', y_pred and y of the same rank need class_num 1, but "
                             f"got {class_num}.")
        return y_pred.flatten(), y.flatten(), 1, 1 if pos_label is None else pos_label
    if y_pred.ndim == y.ndim + 1:
        if pos_label is not None:
            raise ValueError(f"For 'ROC', multi-class scores need pos_label None, but got "
                             f"{pos_label}.")
        if class_num != y_pred.shape[1]:
            raise ValueError(f"For 'ROC', 'class_num' must be the number of classes of y_pred "
                             f"({y_pred.shape[1]}), but got {class_num}.")
        # one row of class scores per label (MindSpore reshapes the (N, C) array to (C, N)
        # here, which scrambles the scores unless N == C)
        return (np.moveaxis(y_pred, 1, -1).reshape(-1, class_num), y.flatten(), class_num,
                pos_label)
    raise ValueError(f"For 'ROC', y_pred must have the rank of y or one more, but got shapes "
                     f"{list(y_pred.shape)} and {list(y.shape)}.")


class ROC(Metric):
    """The receiver operating characteristic: ``eval()`` returns ``(fpr, tpr, thresholds)``
    (lists of arrays, one per class, for multi-class scores). Only the last batch given to
    ``update`` counts, as in MindSpore."""

    def __init__(self, class_num: int | None = None, pos_label: int | None = None) -> None:
        super().__init__()
        for name, v in (("class_num", class_num), ("pos_label", pos_label)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise TypeError(f"For 'ROC', '{name}' must be an int or None, but got "
                                f"{type(v).__name__}.")
        self.class_num = class_num
        self.pos_label = pos_label
        self.clear()

    def clear(self) -> None:
        self.y_pred = 0
        self.y = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y)``."""
        self._check_count(inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self.y_pred, self.y, self.class_num, self.pos_label = _curve_inputs(
            y_pred, y, self.class_num, self.pos_label)
        self._is_update = True

    @staticmethod
    def _binary(y_pred: np.ndarray, y: np.ndarray, pos_label: int) -> tuple:
        fps, tps, thresholds = binary_clf_curve(y_pred, y, pos_label=pos_label)
        tps = np.squeeze(np.hstack([np.zeros(1, dtype=tps.dtype), tps]))
        fps = np.squeeze(np.hstack([np.zeros(1, dtype=fps.dtype), fps]))
        thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
        if fps[-1] <= 0:
            raise ValueError("For 'ROC.eval', y holds no negative samples, so the false "
                             "positive rate is undefined.")
        if tps[-1] <= 0:
            raise ValueError("For 'ROC.eval', y holds no positive samples, so the true "
                             "positive rate is undefined.")
        return fps / fps[-1], tps / tps[-1], thresholds

    def eval(self) -> tuple:
        if not self._is_update:
            raise RuntimeError("For 'ROC', call update() before eval().")
        y_pred, y = np.squeeze(self.y_pred), np.squeeze(self.y)
        if self.class_num == 1:
            return self._binary(y_pred, y, self.pos_label)
        fpr, tpr, thresholds = [], [], []
        for c in range(self.class_num):
            f, t, th = self._binary(y_pred[:, c], y, c)
            fpr.append(f)
            tpr.append(t)
            thresholds.append(th)
        return fpr, tpr, thresholds


def auc(x: np.ndarray, y: np.ndarray, reorder: bool = False) -> Any:
    """The area under the curve through the points ``(x, y)`` by the trapezoidal rule;
    ``x`` must be monotonic unless ``reorder=True`` (then the points are sorted by x)."""
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', 'x' and 'y' must be numpy.ndarray, but got "
                        f"{type(x).__name__} and {type(y).__name__}.")
    for name, a in (("x", x), ("y", y)):
        if not (a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1)):
            raise ValueError(f"For 'auc', '{name}' must be 1-D or (n, 1), but got shape "
                             f"{list(a.shape)}.")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"For 'auc', 'x' and 'y' must have the same length, but got "
                         f"{x.shape[0]} and {y.shape[0]}.")
    x, y = np.ravel(x), np.ravel(y)
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', at least 2 points are needed, but got {x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if not np.all(dx <= 0):
                raise ValueError(f"For 'auc', 'x' must be increasing or decreasing when "
                                 f"reorder is False, but got {x}.")
            direction = -1
    return direction * np.trapezoid(y, x)


__all__ = ["ConfusionMatrix", "ROC", "auc"]
