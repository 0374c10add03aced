"""``Precision``, ``Recall``, ``Fbeta`` and ``F1``: per-class ratios of true positives."""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .metric import EvaluationBase, Metric, labels_of, rearrange_inputs


def _check_average(average: Any, who: str) -> None:
    if not isinstance(average, bool):
        raise TypeError(f"For '{who}', 'average' must be a bool, but got "
                        f"{type(average).__name__}.")


def _onehot_pair(y_pred: np.ndarray, y: np.ndarray, classes: int, who: str) -> tuple:
    """One-hot rows for the labels and for the argmax predictions."""
    if y.max() + 1 > classes:
        raise ValueError(f"For '{who}.update', y holds class {int(y.max())} but y_pred has "
                         f"only {classes} classes.")
    eye = np.eye(classes)
    return eye[y_pred.argmax(axis=1).reshape(-1)], eye[y.reshape(-1).astype(np.int64)]


class _PerClass(EvaluationBase):
    """Precision and Recall: true positives over a count of positives (predicted ones for
    Precision, actual ones for Recall). In 'multilabel' mode the ratio is taken per sample,
    as MindSpore does."""

    _counts_predicted = True

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.eps = sys.float_info.min
        self.clear()

    def clear(self) -> None:
        self._class_num = 0
        if self._type == "multilabel":
            self._true_positives = np.empty(0)
            self._positives = np.empty(0)
            self._true_positives_average = 0
            self._positives_average = 0
        else:
            self._true_positives = 0
            self._positives = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y)``."""
        who = type(self).__name__
        y_pred, y, classes = self._checked_inputs(inputs)
        if self._type == "classification":
            y_pred, y = _onehot_pair(y_pred, y, classes, who)
        else:
            y_pred = y_pred.swapaxes(1, 0).reshape(classes, -1)
            y = y.swapaxes(1, 0).reshape(classes, -1)
        positives = (y_pred if self._counts_predicted else y).sum(axis=0)
        true_positives = (y * y_pred).sum(axis=0)
        if self._type == "multilabel":
            self._true_positives_average += np.sum(true_positives / (positives + self.eps))
            self._positives_average += len(positives)
            self._true_positives = np.concatenate((self._true_positives, true_positives))
            self._positives = np.concatenate((self._positives, positives))
        else:
            self._true_positives += true_positives
            self._positives += positives

    def eval(self, average: bool = False) -> Any:
        """Per class (an array), or their mean with ``average=True``."""
        if self._class_num == 0:
            raise self._empty_error()
        _check_average(average, type(self).__name__)
        result = self._true_positives / (self._positives + self.eps)
        if average:
            if self._type == "multilabel":
                result = self._true_positives_average / (self._positives_average + self.eps)
            return result.mean()
        return result


class Precision(_PerClass):
    """True positives over predicted positives, per class."""

    _counts_predicted = True


class Recall(_PerClass):
    """True positives over actual positives, per class."""

    _counts_predicted = False


class Fbeta(Metric):
    """``(1 + beta^2) * TP / (beta^2 * actual positives + predicted positives)`` per class."""

    def __init__(self, beta: float) -> None:
        super().__init__()
        self.eps = sys.float_info.min
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not beta > 0:
            raise ValueError(f"For '{type(self).__name__}', 'beta' must be greater than 0, but "
                             f"got {beta!r}.")
        self.beta = beta
        self.clear()

    def clear(self) -> None:
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y)``: (N, C) scores and labels or one-hot rows."""
        who = type(self).__name__
        self._check_count(inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = labels_of(y_pred, self._convert_data(inputs[1]))
        if y_pred.ndim < 2:
            raise ValueError(f"For '{who}.update', y_pred must have a class axis 1, but got "
                             f"shape {list(y_pred.shape)}.")
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For '{who}.update', an earlier batch had {self._class_num} "
                             f"classes but this y_pred has {y_pred.shape[1]}.")
        y_pred, y = _onehot_pair(y_pred, y, self._class_num, who)
        self._true_positives += (y * y_pred).sum(axis=0)
        self._positives += y_pred.sum(axis=0)
        self._actual_positives += y.sum(axis=0)

    def eval(self, average: bool = False) -> Any:
        """Per class (an array), or their mean with ``average=True``."""
        _check_average(average, type(self).__name__)
        if self._class_num == 0:
            raise self._empty_error()
        b2 = self.beta ** 2
        fbeta = (1.0 + b2) * self._true_positives / (
            b2 * self._actual_positives + self._positives + self.eps)
        return fbeta.mean() if average else fbeta


class F1(Fbeta):
    """``Fbeta(1.0)``."""

    def __init__(self) -> None:
        super().__init__(1.0)


__all__ = ["Precision", "Recall", "Fbeta", "F1"]
