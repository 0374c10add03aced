"""``mindspore.train.metrics`` (also ``mindspore.nn.metrics``): evaluation metrics for
``Model.eval`` and ``Model.fit``, and ``get_metrics`` / ``get_metric_fn`` by name."""
from __future__ import annotations

from typing import Any

from .accuracy import (Accuracy, Top1CategoricalAccuracy, Top5CategoricalAccuracy,  # noqa: F401
                       TopKCategoricalAccuracy)
from .curves import ROC, ConfusionMatrix, auc  # noqa: F401
from .error import MAE, MSE, Loss  # noqa: F401
from .fbeta import F1, Fbeta, Precision, Recall  # noqa: F401
from .metric import EvaluationBase, Metric, rearrange_inputs  # noqa: F401
from .similarity import BleuScore, CosineSimilarity, Dice, Perplexity  # noqa: F401
from .surface import (HausdorffDistance, MeanSurfaceDistance,  # noqa: F401
                      RootMeanSquareDistance)
from .confusion_metric import ConfusionMatrixMetric  # noqa: F401
from .occlusion import OcclusionSensitivity  # noqa: F401

__factory__ = {
    "accuracy": Accuracy,
    "acc": Accuracy,
    "precision": Precision,
    "recall": Recall,
    "F1": F1,
    "roc": ROC,
    "auc": auc,
    "topk": TopKCategoricalAccuracy,
    "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy,
    "mae": MAE,
    "mse": MSE,
    "loss": Loss,
    "confusion_matrix": ConfusionMatrix,
    "dice": Dice,
    "bleu_score": BleuScore,
    "cosine_similarity": CosineSimilarity,
    "perplexity": Perplexity,
    "hausdorff_distance": HausdorffDistance,
    "mean_surface_distance": MeanSurfaceDistance,
    "root_mean_square_distance": RootMeanSquareDistance,
    "confusion_matrix_metric": ConfusionMatrixMetric,
    "occlusion_sensitivity": OcclusionSensitivity,
}


def names() -> list[str]:
    """The metric names ``get_metric_fn`` knows, sorted."""
    return sorted(__factory__)


def get_metric_fn(name: str, *args: Any, **kwargs: Any) -> Metric:
    """A new metric object by name (``'accuracy'``, ``'mae'``, ...), built with the given
    arguments."""
    if name not in __factory__:
        raise KeyError(f"For 'get_metric_fn', unknown metric name {name!r}; the names are "
                       f"{names()}.")
    return __factory__[name](*args, **kwargs)


def get_metrics(metrics: Any) -> dict | None:
    """A dict of name -> metric object from a set/list of names or a dict of name ->
    Metric (MindSpore's ``Model(metrics=...)`` forms); None stays None."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, m in metrics.items():
            if not isinstance(name, str) or not isinstance(m, Metric):
                raise TypeError(f"For 'get_metrics', a metrics dict maps names to Metric "
                                f"objects, but got {name!r}: {type(m).__name__}.")
        return dict(metrics)
    if isinstance(metrics, (set, list, tuple)):
        out = {}
        for name in metrics:
            if not isinstance(name, str):
                raise TypeError(f"For 'get_metrics', a metrics set holds metric names, but got "
                                f"{type(name).__name__}.")
            out[name] = get_metric_fn(name)
        return out
    raise TypeError(f"For 'get_metrics', 'metrics' must be a dict, set or list, but got "
                    f"{type(metrics).__name__}.")


__all__ = ["names", "get_metric_fn", "get_metrics", "Accuracy", "MAE", "MSE", "Metric",
           "rearrange_inputs", "Precision", "Recall", "Fbeta", "F1", "ROC", "auc",
           "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
           "Loss", "ConfusionMatrix",
           "BleuScore", "CosineSimilarity", "Dice", "Perplexity", "HausdorffDistance",
           "MeanSurfaceDistance", "RootMeanSquareDistance", "ConfusionMatrixMetric",
           "OcclusionSensitivity"]
