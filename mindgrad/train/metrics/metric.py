"""``Metric``: the base of the evaluation metrics (``clear`` / ``update`` / ``eval``), with
the shared input checks. Metrics work on NumPy arrays: every input (a Tensor, a list or an
array) is converted once in ``update``; results are NumPy scalars or arrays, as MindSpore's."""
from __future__ import annotations

import functools
from abc import ABCMeta, abstractmethod
from typing import Any, Callable

import numpy as np

from ...core.tensor import Tensor

_EVAL_TYPES = ("classification", "multilabel")


def rearrange_inputs(func: Callable) -> Callable:
    """Decorate ``update`` so that it sees only the inputs picked by ``set_indexes``."""

    @functools.wraps(func)
    def wrapper(self: "Metric", *inputs: Any) -> Any:
        picks = self.indexes
        if picks:
            inputs = tuple(inputs[i] for i in picks)
        return func(self, *inputs)

    return wrapper


class Metric(metaclass=ABCMeta):
    """Base class: subclasses define ``clear()``, ``update(*inputs)`` and ``eval()``.
    ``metric(*inputs)`` clears, updates once and evaluates."""

    def __init__(self) -> None:
        self._indexes: list | None = None

    def _convert_data(self, data: Any) -> np.ndarray:
        """A Tensor, list or NumPy array as a NumPy array."""
        if isinstance(data, Tensor):
            return data.asnumpy()
        if isinstance(data, list):
            return np.array(data)
        if isinstance(data, np.ndarray):
            return data
        raise TypeError(f"For '{type(self).__name__}', the input data must be a Tensor, list or "
                        f"numpy.ndarray, but got {type(data).__name__}.")

    @property
    def indexes(self) -> list | None:
        """The positions of the ``update`` inputs this metric uses (None: all, in order)."""
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes: list) -> "Metric":
        """Pick the inputs of ``update`` by position (``[0, 2]`` uses the first and third)."""
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError(f"For '{type(self).__name__}.set_indexes', 'indexes' must be a list "
                             f"of ints, but got {indexes!r}.")
        self._indexes = indexes
        return self

    def __call__(self, *inputs: Any) -> Any:
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self) -> None:
        """Reset the accumulated state."""

    @abstractmethod
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch."""

    @abstractmethod
    def eval(self) -> Any:
        """The metric over everything accumulated since ``clear``."""

    def _empty_error(self) -> RuntimeError:
        return RuntimeError(f"The '{type(self).__name__}' can not be calculated, because the "
                            f"number of samples is 0: call update() before eval().")

    def _check_count(self, inputs: tuple, n: int, what: str) -> None:
        if len(inputs) != n:
            raise ValueError(f"For '{type(self).__name__}.update', it needs {n} input(s) "
                             f"({what}), but got {len(inputs)}.")


class EvaluationBase(Metric):
    """A metric with ``eval_type`` 'classification' (``y_pred`` has a class axis 1 more
    than ``y``, or a one-hot ``y``) or 'multilabel' (0/1 arrays of the same shape)."""

    def __init__(self, eval_type: str) -> None:
        super().__init__()
        if eval_type not in _EVAL_TYPES:
            raise TypeError(f"For '{type(self).__name__}', 'eval_type' must be in "
                            f"{list(_EVAL_TYPES)}, but got {eval_type!r}.")
        self._type = eval_type

    def _checked_inputs(self, inputs: tuple) -> tuple[np.ndarray, np.ndarray, int]:
        """``update(y_pred, y)``'s inputs as arrays (a one-hot ``y`` as labels for
        classification), checked, with the class count."""
        self._check_count(inputs, 2, "predicted value, true value")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification":
            y = labels_of(y_pred, y)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        return y_pred, y, self._check_classes(y_pred)

    def _check_shape(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        who = type(self).__name__
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1 or y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(f"For '{who}' (classification), y should have the shape of "
                                 f"y_pred without axis 1, but got y_pred shape "
                                 f"{list(y_pred.shape)} and y shape {list(y.shape)}.")
        elif y_pred.shape != y.shape:
            raise ValueError(f"For '{who}' (multilabel), y_pred and y must have the same shape, "
                             f"but got {list(y_pred.shape)} and {list(y.shape)}.")

    def _check_value(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        if self._type == "multilabel" and not (np.equal(y_pred ** 2, y_pred).all()
                                               and np.equal(y ** 2, y).all()):
            raise ValueError(f"For '{type(self).__name__}' (multilabel), every element of y_pred "
                             f"and y must be 0 or 1.")

    def _check_classes(self, y_pred: np.ndarray) -> int:
        """The class count, fixed by the first batch."""
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For '{type(self).__name__}.update', an earlier batch had "
                             f"{self._class_num} classes but this y_pred has {y_pred.shape[1]}.")
        return self._class_num


def is_onehot(data: np.ndarray) -> bool:
    """Whether ``data`` is one-hot along axis 1 (0/1 values summing to 1)."""
    if data.ndim > 1 and np.equal(data ** 2, data).all():
        return bool(np.equal(1, data.sum(axis=1)).all())
    return False


def labels_of(y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Class labels: a one-hot ``y`` of ``y_pred``'s rank becomes its argmax."""
    if y_pred.ndim == y.ndim and is_onehot(y):
        return y.argmax(axis=1)
    return y


def binary_clf_curve(preds: np.ndarray, target: np.ndarray, sample_weights: Any = None,
                     pos_label: int = 1) -> tuple:
    """False and true positive counts at each distinct score (descending) and the scores."""
    if preds.ndim > target.ndim:
        preds = preds[:, 0]
    order = np.argsort(-preds)
    preds, target = preds[order], target[order]
    weight = 1.0 if sample_weights is None else np.asarray(sample_weights)[order]
    distinct = np.where(preds[1:] - preds[:-1])[0]
    ends = np.pad(distinct, (0, 1), constant_values=target.shape[0] - 1)
    positive = (target == pos_label).astype(np.int64)
    tps = np.cumsum(positive * weight, axis=0)[ends]
    if sample_weights is None:
        fps = 1 + ends - tps
    else:
        fps = np.cumsum((1 - positive) * weight, axis=0)[ends]
    return fps, tps, preds[ends]


__all__ = ["Metric", "EvaluationBase", "rearrange_inputs"]
