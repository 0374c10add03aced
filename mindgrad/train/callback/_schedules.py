"""Callbacks that steer training: ``LearningRateScheduler``, ``EarlyStopping`` and
``ReduceLROnPlateau``."""
from __future__ import annotations

import math
import warnings
from typing import Any, Callable

import numpy as np

from ...core import dtype as mstype
from ...common.parameter import Parameter
from ...core.tensor import Tensor
from ._callback import Callback, emit, handle_loss

# monitors where smaller is better when mode='auto'
_SMALLER_BETTER = ("hausdorff_distance", "mae", "mse", "loss", "perplexity",
                   "mean_surface_distance", "root_mean_square_distance", "eval_loss")


def _lr_parameter(optimizer: Any, who: str) -> Parameter:
    """The optimizer's single fixed learning rate Parameter."""
    lr = getattr(optimizer, "learning_rate", None)
    if not isinstance(lr, Parameter):
        raise ValueError(f"{who} needs an optimizer with one fixed learning rate (a Parameter); "
                         f"a dynamic or per-group learning rate is not supported, got "
                         f"{type(lr).__name__}.")
    return lr


class LearningRateScheduler(Callback):
    """After each step sets the optimizer's learning rate to
    ``learning_rate_function(lr, cur_step_num)`` (``lr`` as a Python float)."""

    def __init__(self, learning_rate_function: Callable) -> None:
        super().__init__()
        if not callable(learning_rate_function):
            raise TypeError(f"For 'LearningRateScheduler', 'learning_rate_function' must be "
                            f"callable, but got {type(learning_rate_function).__name__}.")
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context: Any) -> None:
        cb = run_context.original_args()
        param = _lr_parameter(cb.optimizer, "LearningRateScheduler")
        # the float32 value as its shortest decimal, as MindSpore reads it
        lr = float(np.array2string(param.asnumpy()))
        new_lr = self.learning_rate_function(lr, cb.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            param.set_data(Tensor(new_lr, mstype.float32))


class _Monitored(Callback):
    """The shared part of EarlyStopping and ReduceLROnPlateau: a monitored value (the loss,
    or an evaluation result of ``Model.fit``: a metric name or ``'eval_loss'``) and whether
    a new value improves on the best."""

    def __init__(self, monitor: str, min_delta: Any, mode: str) -> None:
        super().__init__()
        who = type(self).__name__
        if not isinstance(monitor, str):
            raise TypeError(f"For '{who}', 'monitor' must be a str, but got "
                            f"{type(monitor).__name__}.")
        if isinstance(min_delta, bool) or not isinstance(min_delta, (int, float)):
            raise TypeError(f"For '{who}', 'min_delta' must be a float or int, but got "
                            f"{type(min_delta).__name__}.")
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"For '{who}', 'mode' should be 'auto', 'min' or 'max', but got "
                             f"{mode!r}.")
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.mode = mode
        self.best = self._initial_best()

    def _smaller_better(self) -> bool:
        return self.mode == "min" or (self.mode == "auto" and self.monitor in _SMALLER_BETTER)

    def _initial_best(self) -> float:
        return np.inf if self._smaller_better() else -np.inf

    def is_improvement(self, a: Any, b: Any) -> bool:
        if self._smaller_better():
            return bool(np.less(a, b - self.min_delta))
        return bool(np.greater(a, b + self.min_delta))

    def _get_monitor_value(self, cb: dict) -> Any:
        candidates: dict = {}
        if self.monitor == "loss":
            value = handle_loss(cb.get("net_outputs"))
        else:
            candidates = cb.get("eval_results", {}) or {}
            value = candidates.get(self.monitor)
        if value is None:
            warnings.warn(f"{type(self).__name__} is conditioned on '{self.monitor}', which is "
                          f"not available. Available choices are: "
                          f"{sorted(set(['loss'] + list(candidates)))}", stacklevel=2)
            return None
        value = np.array(value)
        if value.shape != ():
            raise ValueError(f"{type(self).__name__} only supports a scalar monitor, but "
                             f"'{self.monitor}' has shape {list(value.shape)}.")
        return value


def _non_negative_int(value: Any, name: str, who: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"For '{who}', '{name}' must be a non-negative int, but got "
                         f"{value!r}.")
    return value


def _check_bool(value: Any, name: str, who: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{who}', '{name}' must be a bool, but got "
                        f"{type(value).__name__}.")
    return value


class EarlyStopping(_Monitored):
    """Stop training when the monitored value has not improved for ``patience`` epochs
    (counted after each epoch; an improvement is a change beyond ``min_delta``). With
    ``baseline`` an improvement must also beat it; ``restore_best_weights`` loads the best
    epoch's weights back when stopping."""

    def __init__(self, monitor: str = "eval_loss", min_delta: float = 0, patience: int = 0,
                 verbose: bool = False, mode: str = "auto", baseline: float | None = None,
                 restore_best_weights: bool = False) -> None:
        super().__init__(monitor, min_delta, mode)
        self.patience = _non_negative_int(patience, "patience", "EarlyStopping")
        self.verbose = _check_bool(verbose, "verbose", "EarlyStopping")
        self.baseline = baseline
        self.restore_best_weights = _check_bool(restore_best_weights, "restore_best_weights",
                                                "EarlyStopping")
        self.wait = 0
        self.stopped_epoch = 0
        self.best_weights_param_dict: dict | None = None

    def on_train_begin(self, run_context: Any) -> None:
        self.wait = 0
        self.stopped_epoch = 0
        self.best = self._initial_best()
        self.best_weights_param_dict = None

    @staticmethod
    def _snapshot(network: Any) -> dict:
        return {p.name: p.asnumpy().copy() for p in network.get_parameters()}

    def on_train_epoch_end(self, run_context: Any) -> None:
        cb = run_context.original_args()
        current = self._get_monitor_value(cb)
        if current is None:
            return
        network = cb.train_network
        if self.restore_best_weights and self.best_weights_param_dict is None:
            self.best_weights_param_dict = self._snapshot(network)
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights_param_dict = self._snapshot(network)
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb.get("cur_epoch_num")
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                if self.verbose:
                    emit("Restoring model weights from the end of the best epoch.")
                for p in network.get_parameters():
                    if p.name in self.best_weights_param_dict:
                        p.set_data(Tensor(self.best_weights_param_dict[p.name]))

    def on_train_end(self, run_context: Any) -> None:
        if self.stopped_epoch > 0 and self.verbose:
            emit(f"Epoch {self.stopped_epoch:05d}: early stopping")


class ReduceLROnPlateau(_Monitored):
    """Multiply the optimizer's learning rate by ``factor`` (not below ``min_lr``) when the
    monitored value has not improved for ``patience`` epochs, then wait ``cooldown``
    epochs before counting again."""

    def __init__(self, monitor: str = "eval_loss", factor: float = 0.1, patience: int = 10,
                 verbose: bool = False, mode: str = "auto", min_delta: float = 1e-4,
                 cooldown: int = 0, min_lr: float = 0) -> None:
        super().__init__(monitor, min_delta, mode)
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) \
                or not 0.0 < factor < 1.0:
            raise ValueError(f"For 'ReduceLROnPlateau', 'factor' must be in (0, 1), but got "
                             f"{factor!r}.")
        if isinstance(min_lr, bool) or not isinstance(min_lr, (int, float)):
            raise TypeError(f"For 'ReduceLROnPlateau', 'min_lr' must be a float or int, but got "
                            f"{type(min_lr).__name__}.")
        self.factor = float(factor)
        self.patience = _non_negative_int(patience, "patience", "ReduceLROnPlateau")
        self.verbose = _check_bool(verbose, "verbose", "ReduceLROnPlateau")
        self.cooldown = _non_negative_int(cooldown, "cooldown", "ReduceLROnPlateau")
        self.min_lr = min_lr
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, run_context: Any) -> None:
        self.cooldown_counter = 0
        self.wait = 0
        self.best = self._initial_best()

    def on_train_epoch_end(self, run_context: Any) -> None:
        cb = run_context.original_args()
        param = _lr_parameter(cb.optimizer, "ReduceLROnPlateau")
        current = self._get_monitor_value(cb)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                lr = param.asnumpy()
                if lr > self.min_lr:
                    # the float32 product, or min_lr as given (MindSpore prints either)
                    reduced = lr * np.float32(self.factor)
                    new_lr = Tensor(reduced) if reduced > self.min_lr else self.min_lr
                    param.set_data(Tensor(new_lr, mstype.float32))
                    if self.verbose:
                        emit(f"Epoch {cb.cur_epoch_num:05d}: ReduceLROnPlateau reducing "
                             f"learning rate to {new_lr}.")
                self.cooldown_counter = self.cooldown
                self.wait = 0


__all__ = ["LearningRateScheduler", "EarlyStopping", "ReduceLROnPlateau"]
