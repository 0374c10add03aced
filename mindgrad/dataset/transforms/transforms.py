"""``mindspore.dataset.transforms``: general operations on a column's arrays (``TypeCast``,
``OneHot``, ``Fill``, ``Compose``, ``RandomApply``, ``RandomChoice``, ``Duplicate``).

Each is a callable object: inside ``Dataset.map`` it receives a column's values, and called
directly on a NumPy array it runs eagerly, as in MindSpore."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import config
from ...core import dtype as mstype


class TensorOperation:
    """Base class of the dataset transforms: ``op(*arrays)`` applies the operation."""

    def __call__(self, *args: Any) -> Any:
        if len(args) != 1:
            raise TypeError(f"{type(self).__name__} takes one input column, but got {len(args)}.")
        return self._apply(args[0])

    def _apply(self, x: Any) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _np_dtype(data_type: Any, op: str) -> np.dtype:
    if isinstance(data_type, type) and issubclass(data_type, np.generic):
        return np.dtype(data_type)
    if isinstance(data_type, np.dtype):
        return data_type
    if isinstance(data_type, str):
        return np.dtype(data_type)
    return np.dtype(mstype.to_numpy(data_type, op))


def _array(x: Any, op: str) -> np.ndarray:
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "asnumpy"):
        return x.asnumpy()
    return np.asarray(x)


class TypeCast(TensorOperation):
    """Cast to ``data_type`` (a MindSpore dtype such as ``mstype.int32`` or a NumPy dtype)."""

    def __init__(self, data_type: Any) -> None:
        self.dtype = _np_dtype(data_type, "TypeCast")

    def _apply(self, x):
        return _array(x, "TypeCast").astype(self.dtype)

    _batched = _apply


class OneHot(TensorOperation):
    """Integer labels to one-hot vectors of length ``num_classes`` (a new last axis). With
    ``smoothing_rate`` r the hot entry is 1 - r + r / num_classes and the others
    r / num_classes (float64), as in MindSpore."""

    def __init__(self, num_classes: int, smoothing_rate: float = 0.0) -> None:
        if isinstance(num_classes, bool) or not isinstance(num_classes, (int, np.integer)) \
                or num_classes < 1:
            raise ValueError(f"For 'OneHot', num_classes must be a positive int, but got "
                             f"{num_classes!r}.")
        if not 0.0 <= float(smoothing_rate) <= 1.0:
            raise ValueError(f"For 'OneHot', smoothing_rate must be in [0, 1], but got "
                             f"{smoothing_rate}.")
        self.num_classes = int(num_classes)
        self.smoothing_rate = float(smoothing_rate)

    def _apply(self, x):
        x = _array(x, "OneHot")
        if x.dtype.kind not in "iu":
            raise TypeError(f"For 'OneHot', the input must hold integers, but got {x.dtype}.")
        if x.size and (x.min() < 0 or x.max() >= self.num_classes):
            raise ValueError(f"For 'OneHot', labels must be in [0, {self.num_classes}), but got "
                             f"values from {x.min()} to {x.max()}.")
        hot = np.arange(self.num_classes) == x[..., None]
        if self.smoothing_rate:
            r = self.smoothing_rate
            return np.where(hot, 1.0 - r + r / self.num_classes, r / self.num_classes)
        return hot.astype(x.dtype if x.dtype.kind == "i" else np.int64)


class Fill(TensorOperation):
    """An array of the input's shape and dtype filled with ``fill_value``."""

    def __init__(self, fill_value: Any) -> None:
        if not isinstance(fill_value, (int, float, bool, str, np.generic)):
            raise TypeError(f"For 'Fill', fill_value must be a number, bool or str, but got "
                            f"{type(fill_value).__name__}.")
        self.fill_value = fill_value

    def _apply(self, x):
        x = _array(x, "Fill")
        try:
            return np.full(x.shape, self.fill_value).astype(x.dtype)
        except ValueError as exc:
            raise TypeError(f"For 'Fill', fill_value {self.fill_value!r} does not fit the "
                            f"input's dtype {x.dtype}: {exc}") from None


class Duplicate(TensorOperation):
    """Two copies of the input (map it with two output columns)."""

    def _apply(self, x):
        x = _array(x, "Duplicate")
        return x, x.copy()


class Compose(TensorOperation):
    """The given operations applied in sequence, as one operation."""

    def __init__(self, transforms: Sequence[Any]) -> None:
        transforms = list(transforms)
        if not transforms or not all(callable(t) for t in transforms):
            raise TypeError("For 'Compose', transforms must be a non-empty list of callables.")
        self.transforms = transforms
        parts = [getattr(t, "_batched", None) for t in transforms]
        if all(p is not None for p in parts):
            def batched(x):
                for p in parts:
                    x = p(x)
                return x
            self._batched = batched

    def __call__(self, *args):
        for t in self.transforms:
            res = t(*args)
            args = res if isinstance(res, tuple) else (res,)
        return args[0] if len(args) == 1 else args


class RandomApply(TensorOperation):
    """Apply all of ``transforms`` (in sequence) with probability ``prob``, else none."""

    def __init__(self, transforms: Sequence[Any], prob: float = 0.5) -> None:
        self.compose = Compose(transforms)
        self.prob = float(prob)

    def __call__(self, *args):
        if config.transform_rng().random() < self.prob:
            return self.compose(*args)
        return args[0] if len(args) == 1 else args


class RandomChoice(TensorOperation):
    """Apply one of ``transforms``, picked uniformly at random."""

    def __init__(self, transforms: Sequence[Any]) -> None:
        self.transforms = list(transforms)
        if not self.transforms or not all(callable(t) for t in self.transforms):
            raise TypeError("For 'RandomChoice', transforms must be a non-empty list of "
                            "callables.")

    def __call__(self, *args):
        k = int(config.transform_rng().integers(len(self.transforms)))
        return self.transforms[k](*args)
