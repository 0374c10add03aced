"""``Accuracy``, ``TopKCategoricalAccuracy`` and its Top-1 / Top-5 forms."""
from __future__ import annotations

from typing import Any

import numpy as np

from .metric import EvaluationBase, Metric, labels_of, rearrange_inputs


class Accuracy(EvaluationBase):
    """The fraction of samples predicted right: the argmax of ``y_pred`` equals ``y``
    ('classification'), or every label of the sample matches ('multilabel')."""

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.clear()

    def clear(self) -> None:
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y)``: ``y_pred`` (N, C, ...) scores, ``y`` labels or one-hot."""
        y_pred, y, classes = self._checked_inputs(inputs)
        if self._type == "classification":
            right = np.equal(y_pred.argmax(axis=1), y).reshape(-1)
        else:
            last = y_pred.ndim - 1
            right = np.equal(y_pred.swapaxes(1, last).reshape(-1, classes),
                             y.swapaxes(1, last).reshape(-1, classes)).all(axis=1)
        self._correct_num += right.sum()
        self._total_num += right.shape[0]

    def eval(self) -> Any:
        if self._total_num == 0:
            raise self._empty_error()
        return self._correct_num / self._total_num


class TopKCategoricalAccuracy(Metric):
    """The fraction of samples whose label is among the ``k`` highest scores."""

    def __init__(self, k: int) -> None:
        super().__init__()
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError(f"For 'TopKCategoricalAccuracy', 'k' must be an int, but got "
                            f"{type(k).__name__}.")
        if k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', 'k' must be at least 1, but got "
                             f"{k}.")
        self.k = k
        self.clear()

    def clear(self) -> None:
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y)``: ``y_pred`` (N, C) scores, ``y`` (N,) labels or one-hot."""
        self._check_count(inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = labels_of(y_pred, self._convert_data(inputs[1]))
        if y_pred.ndim != 2 or y.size != y_pred.shape[0]:
            raise ValueError(f"For '{type(self).__name__}.update', y_pred must be (N, C) and y "
                             f"hold N labels, but got shapes {list(y_pred.shape)} and "
                             f"{list(y.shape)}.")
        # argsort of the negated scores, as MindSpore ranks them (ties: NumPy's order)
        top = np.argsort(-y_pred, axis=1)[:, :self.k]
        hit = np.equal(top, y.reshape(-1, 1)).sum(axis=1)
        self._correct_num += hit.sum()
        self._samples_num += y_pred.shape[0]

    def eval(self) -> Any:
        if self._samples_num == 0:
            raise self._empty_error()
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """``TopKCategoricalAccuracy(1)``."""

    def __init__(self) -> None:
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """``TopKCategoricalAccuracy(5)``."""

    def __init__(self) -> None:
        super().__init__(5)


__all__ = ["Accuracy", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy"]
