"""``ConfusionMatrixMetric``: a measure of the confusion matrix (sensitivity, specificity,
precision, F1, Matthews correlation, ...) of binarized segmentations or multi-label
predictions ``(N, C, ...)``, with MindSpore's names and reductions."""
from __future__ import annotations

from typing import Any

import numpy as np

from .metric import Metric, rearrange_inputs

# every accepted spelling -> the measure's short name
_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_NAMES = {alias: short for short, aliases in _ALIASES.items() for alias in aliases}
_DECREASES = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")


def _ratio(a: Any, b: Any) -> np.ndarray:
    """``a / b`` where ``b > 0``, else NaN."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1.0), np.nan)


def _measure(name: str, cm: np.ndarray) -> np.ndarray:
    """The measure ``name`` of confusion counts ``cm`` (``[..., (tp, fp, tn, fn)]``): NaN
    where its denominator is 0."""
    short = _NAMES.get(name.replace(" ", "_").lower())
    if short is None:
        raise NotImplementedError(f"The metric {name!r} is not implemented.")
    cm = cm[None] if cm.ndim == 1 else cm
    tp, fp, tn, fn = (cm[..., i] for i in range(4))
    p, n = tp + fn, fp + tn
    tpr, tnr = _ratio(tp, p), _ratio(tn, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        pairs = {
            "tpr": (tp, p), "tnr": (tn, n), "ppv": (tp, tp + fp), "npv": (tn, tn + fn),
            "fnr": (fn, p), "fpr": (fp, n), "fdr": (fp, fp + tp), "for": (fn, fn + tn),
            "pt": (np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0),
            "ts": (tp, tp + fn + fp), "acc": (tp + tn, p + n), "ba": (tpr + tnr, 2.0),
            "f1": (tp * 2.0, tp * 2.0 + fn + fp),
            "mcc": (tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
            "fm": (np.sqrt(_ratio(tp, tp + fp) * tpr), 1.0), "bm": (tpr + tnr - 1.0, 1.0),
            "mk": (_ratio(tp, tp + fp) + tn / (tn + fn) - 1.0, 1.0),
        }
        num, den = pairs[short]
        if isinstance(den, np.ndarray):
            return np.where(den != 0, num / np.where(den != 0, den, 1.0), np.nan)
        return num / den


def _counts(y_pred: np.ndarray, y: np.ndarray, skip_channel: bool) -> np.ndarray:
    """``(N, C, 4)`` counts of true / false positives / negatives per sample and class."""
    if not np.all(y.astype(np.uint8) == y):
        raise ValueError("For 'ConfusionMatrixMetric.update', the true value (input[1]) must "
                         "be a binarized ndarray.")
    if y_pred.ndim < 2:
        raise ValueError(f"For 'ConfusionMatrixMetric.update', the predicted value (input[0]) "
                         f"must have at least 2 dimensions, but got {y_pred.ndim}.")
    if not skip_channel:  # leave out the first (background) channel
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    if y.shape != y_pred.shape:
        raise ValueError(f"For 'ConfusionMatrixMetric.update', predicted value and true value "
                         f"must have one shape, but got {list(y_pred.shape)} and "
                         f"{list(y.shape)}.")
    b, c = y_pred.shape[:2]
    yp = y_pred.astype(float).reshape(b, c, -1)
    yt = y.astype(float).reshape(b, c, -1)
    tp = (yp + yt == 2).sum(2).astype(float)
    tn = (yp + yt == 0).sum(2).astype(float)
    pos = yt.sum(2)
    return np.stack([tp, yt.shape[-1] - pos - tn, tn, pos - tp], -1)


def _reduce(chart: np.ndarray, decrease: str) -> tuple:
    """``(reduced chart, count of non-NaN entries)``; NaNs count as absent."""
    chart = np.array(chart, float)
    valid = (~np.isnan(chart)).astype(float)
    chart[np.isnan(chart)] = 0
    if decrease == "none":
        return chart, valid
    if decrease == "sum":
        return chart.sum((0, 1)), valid.sum((0, 1))
    if decrease == "sum_batch":
        return chart.sum(0), valid.sum(0)
    if decrease == "sum_channel":
        return chart.sum(1), valid.sum(1)
    if decrease == "mean_batch":
        n = valid.sum(0)
        return np.where(n > 0, chart.sum(0) / np.maximum(n, 1), 0.0), n
    if decrease == "mean_channel":
        n = valid.sum(1)
        return np.where(n > 0, chart.sum(1) / np.maximum(n, 1), 0.0), n
    n = valid.sum(1)  # 'mean': over the channels of each sample, then over the samples
    per = np.where(n > 0, chart.sum(1) / np.maximum(n, 1), 0.0)
    k = (n > 0).astype(float).sum(0)
    return np.where(k > 0, per.sum(0) / np.maximum(k, 1), 0.0), k


class ConfusionMatrixMetric(Metric):
    """A measure (``metric_name``: 'sensitivity', 'specificity', 'precision', 'f1_score',
    'accuracy', 'matthews_correlation_coefficient', ... and their short names) of the
    confusion counts of binarized ``(N, C, ...)`` predictions against targets. By default the
    counts are summed over every batch, sample and class before the measure; with
    ``calculation_method`` the measure is taken per sample and class and reduced by
    ``decrease`` (NaNs left out), and the batches' results averaged. ``skip_channel=False``
    leaves out the first channel."""

    def __init__(self, skip_channel: bool = True, metric_name: str = "sensitivity",
                 calculation_method: bool = False, decrease: str = "mean") -> None:
        super().__init__()
        who = "ConfusionMatrixMetric"
        for name, v in (("skip_channel", skip_channel),
                        ("calculation_method", calculation_method)):
            if not isinstance(v, bool):
                raise TypeError(f"For '{who}', the type of '{name}' must be bool, but got "
                                f"{type(v).__name__}.")
        if not isinstance(metric_name, str):
            raise TypeError(f"For '{who}', the type of 'metric_name' must be str, but got "
                            f"{type(metric_name).__name__}.")
        if not isinstance(decrease, str) or decrease not in _DECREASES:
            raise ValueError(f"For '{who}', 'decrease' must be one of {list(_DECREASES)}, but "
                             f"got {decrease!r}.")
        self.skip_channel, self.metric_name = skip_channel, metric_name
        self.calculation_method, self.decrease = calculation_method, decrease
        self.clear()

    def clear(self) -> None:
        self._total_num = 0.0
        self._class_num = 0
        self._totals = np.zeros(4)

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y)``: binarized arrays ``(N, C, ...)`` of one shape."""
        self._check_count(inputs, 2, "predicted value, true value")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        counts = _counts(y_pred, y, self.skip_channel)
        # a per-sample measure needs spatial axes: (N, C) or (N, C, 1) inputs are summed
        per_sample = self.calculation_method and not (
            y_pred.ndim == 2 or (y_pred.ndim == 3 and y_pred.shape[-1] == 1))
        if per_sample:
            score, valid = _reduce(_measure(self.metric_name, counts), self.decrease)
            k = int(np.asarray(valid).item())
            self._total_num += float(np.asarray(score).item()) * k
            self._class_num += k
        else:
            self._totals += counts.sum((0, 1))

    def eval(self) -> Any:
        if self.calculation_method:
            if self._class_num == 0:
                raise self._empty_error()
            return self._total_num / self._class_num
        return _measure(self.metric_name, self._totals)


__all__ = ["ConfusionMatrixMetric"]
