"""``MAE``, ``MSE`` and ``Loss``: running averages."""
from __future__ import annotations

from typing import Any

import numpy as np

from .metric import Metric, rearrange_inputs


class _ErrorSum(Metric):
    """A summed elementwise error divided by the number of samples (the first axis), as
    MindSpore's MAE and MSE do: for (N, D) inputs that is D times the per-element mean."""

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._error_sum = 0
        self._samples_num = 0

    def _error(self, diff: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y)``; ``y`` is reshaped to ``y_pred``'s shape."""
        self._check_count(inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y.size != y_pred.size:
            raise ValueError(f"For '{type(self).__name__}.update', y_pred and y must have the "
                             f"same number of elements, but got shapes {list(y_pred.shape)} "
                             f"and {list(y.shape)}.")
        self._error_sum += self._error(y.reshape(y_pred.shape) - y_pred).sum()
        self._samples_num += y.shape[0]

    def eval(self) -> Any:
        if self._samples_num == 0:
            raise self._empty_error()
        return self._error_sum / self._samples_num


class MAE(_ErrorSum):
    """Mean absolute error (summed over the elements of a sample, averaged over samples)."""

    def _error(self, diff: np.ndarray) -> np.ndarray:
        return np.abs(diff)


class MSE(_ErrorSum):
    """Mean squared error (summed over the elements of a sample, averaged over samples)."""

    def _error(self, diff: np.ndarray) -> np.ndarray:
        return np.power(diff, 2)


class Loss(Metric):
    """The average over batches of each batch's mean loss."""

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._sum_loss = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(loss)``: a scalar or 1-D loss of one batch."""
        self._check_count(inputs, 1, "loss")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"For 'Loss.update', the loss must be a scalar or 1-D, but got "
                             f"shape {list(loss.shape)}.")
        self._sum_loss += loss.mean(-1)
        self._total_num += 1

    def eval(self) -> Any:
        if self._total_num == 0:
            raise self._empty_error()
        return self._sum_loss / self._total_num


__all__ = ["MAE", "MSE", "Loss"]
