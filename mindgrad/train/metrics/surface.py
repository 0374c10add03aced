"""Surface-distance metrics of segmentations: ``HausdorffDistance``,
``MeanSurfaceDistance`` and ``RootMeanSquareDistance``, with MindSpore's arguments and
results. The edges of the masks and their distance transforms come from SciPy's
``ndimage`` (an optional dependency, as for MindSpore's own)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .metric import Metric, rearrange_inputs

_METRICS = ("euclidean", "chessboard", "taxicab")


def _ndimage(who: str) -> Any:
    try:
        from scipy import ndimage
    except ImportError as e:  # pragma: no cover - scipy is in the test extra
        raise ImportError(f"'{who}' needs SciPy (pip install scipy).") from e
    return ndimage


def _distance_metric(v: Any, who: str) -> str:
    if not isinstance(v, str):
        raise TypeError(f"For '{who}', the type of 'distance_metric' must be str, but got "
                        f"{type(v).__name__}.")
    if v not in _METRICS:
        raise ValueError(f"For '{who}', 'distance_metric' must be one of {list(_METRICS)}, but "
                         f"got {v!r}.")
    return v


def _bool_arg(v: Any, name: str, who: str) -> bool:
    if not isinstance(v, bool):
        raise TypeError(f"For '{who}', the type of '{name}' must be bool, but got "
                        f"{type(v).__name__}.")
    return v


class _SurfaceDistance(Metric):
    """``update(y_pred, y, label_idx)``: the masks ``== label_idx`` (or boolean arrays as
    given), their edges (the mask without its erosion); the distances from each edge point of
    one to the nearest edge point of the other."""

    def __init__(self, distance_metric: str) -> None:
        super().__init__()
        self.distance_metric = _distance_metric(distance_metric, type(self).__name__)
        self.clear()

    def clear(self) -> None:
        self._y_pred_edges: Any = 0
        self._y_edges: Any = 0
        self._is_update = False

    def _masks(self, inputs: tuple) -> tuple:
        who = f"{type(self).__name__}.update"
        self._check_count(inputs, 3, "predicted value, true value, label index")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        label = inputs[2]
        if isinstance(label, bool) or not isinstance(label, (int, float)):
            raise ValueError(f"For '{who}', the label index (input[2]) must be int or float, but "
                             f"got {type(label)}.")
        if label not in y_pred and label not in y:
            raise ValueError(f"For '{who}', the label index (input[2]) must be in predicted "
                             f"value (input[0]) or true value (input[1]), but {label} is not.")
        if y_pred.size == 0 or y_pred.shape != y.shape:
            raise ValueError(f"For '{who}', predicted value and true value must be non-empty and "
                             f"of one shape, but got {list(y_pred.shape)} and {list(y.shape)}.")
        if y_pred.dtype != bool:
            y_pred = y_pred == label
        if y.dtype != bool:
            y = y == label
        return y_pred, y

    def _edges(self, mask: np.ndarray) -> np.ndarray:
        return _ndimage(type(self).__name__).binary_erosion(mask) ^ mask

    def _distances(self, from_edges: np.ndarray, to_edges: np.ndarray) -> np.ndarray:
        """The distances from each point of ``from_edges`` to the nearest of ``to_edges``
        (inf when ``to_edges`` is empty; an empty array when ``from_edges`` is)."""
        if not np.any(from_edges):
            return np.array([])
        if not np.any(to_edges):
            return np.full(to_edges.shape, np.inf)[from_edges]
        nd = _ndimage(type(self).__name__)
        if self.distance_metric == "euclidean":
            dis = nd.distance_transform_edt(~to_edges)
        else:
            dis = nd.distance_transform_cdt(~to_edges, metric=self.distance_metric)
        return dis[from_edges]

    def _check_updated(self) -> None:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")


class HausdorffDistance(_SurfaceDistance):
    """The (``percentile``-th, or maximum) distance between the edges of the prediction and
    the target; ``directed`` only from prediction to target, else the larger of both ways.
    ``crop`` first cuts both masks to the bounding box of their union."""

    def __init__(self, distance_metric: str = "euclidean", percentile: float | None = None,
                 directed: bool = False, crop: bool = True) -> None:
        who = "HausdorffDistance"
        if percentile is not None and (isinstance(percentile, bool)
                                       or not isinstance(percentile, float)):
            raise TypeError(f"For '{who}', the type of 'percentile' must be float, but got "
                            f"{type(percentile).__name__}.")
        self.percentile = percentile
        self.directed = _bool_arg(directed, "directed", who)
        self.crop = _bool_arg(crop, "crop", who)
        super().__init__(distance_metric)

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y, label_idx)``."""
        y_pred, y = self._masks(inputs)
        self._is_update = True
        if self.crop:
            union = y_pred | y
            if not union.any():
                self._y_pred_edges, self._y_edges = np.zeros_like(y_pred), np.zeros_like(y)
                return
            idx = np.nonzero(union)
            box = tuple(slice(int(i.min()), int(i.max()) + 1) for i in idx)
            # (MindSpore squeezes the cropped masks: axes of size one go)
            y_pred, y = np.squeeze(y_pred[box]), np.squeeze(y[box])
        self._y_pred_edges, self._y_edges = self._edges(y_pred), self._edges(y)

    def _one_way(self, a: np.ndarray, b: np.ndarray) -> float:
        d = self._distances(a, b)
        if d.shape == (0,):
            return np.inf
        if not self.percentile:
            return d.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(d, self.percentile)
        raise ValueError(f"For 'HausdorffDistance', the value of the argument 'percentile' must "
                         f"be [0, 100], but got {self.percentile}.")

    def eval(self) -> Any:
        self._check_updated()
        hd = self._one_way(self._y_pred_edges, self._y_edges)
        if self.directed:
            return hd
        return max(hd, self._one_way(self._y_edges, self._y_pred_edges))


class MeanSurfaceDistance(_SurfaceDistance):
    """The mean distance from the prediction's edge points to the target's edge (with
    ``symmetric``, the mean of both directions' means)."""

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean") -> None:
        self.symmetric = _bool_arg(symmetric, "symmetric", "MeanSurfaceDistance")
        super().__init__(distance_metric)

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y, label_idx)``."""
        y_pred, y = self._masks(inputs)
        self._y_pred_edges, self._y_edges = self._edges(y_pred), self._edges(y)
        self._is_update = True

    def eval(self) -> Any:
        self._check_updated()
        d = self._distances(self._y_pred_edges, self._y_edges)
        if d.shape == (0,):
            return np.inf
        if not self.symmetric:
            return d.mean()
        back = self._distances(self._y_edges, self._y_pred_edges)
        if back.shape == (0,):
            return np.inf
        return np.mean((d.mean(), back.mean()))


class RootMeanSquareDistance(MeanSurfaceDistance):
    """The mean squared distance from the prediction's edge points to the target's edge
    (MindSpore takes no root in this one-way case); with ``symmetric`` the root of the mean
    of both directions' mean squares."""

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean") -> None:
        self.symmetric = _bool_arg(symmetric, "symmetric", "RootMeanSquareDistance")
        _SurfaceDistance.__init__(self, distance_metric)

    def eval(self) -> Any:
        self._check_updated()
        d = self._distances(self._y_pred_edges, self._y_edges)
        if d.shape == (0,):
            return np.inf
        forward = (d ** 2).mean()
        if not self.symmetric:
            return forward
        back = self._distances(self._y_edges, self._y_pred_edges)
        if back.shape == (0,):
            return np.inf
        return np.sqrt(np.mean((forward, (back ** 2).mean())))


__all__ = ["HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance"]
