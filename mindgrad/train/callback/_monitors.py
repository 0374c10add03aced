"""Callbacks that report: ``LossMonitor``, ``TimeMonitor``, ``History``,
``LambdaCallback`` and the ``ProgressBar`` (tqdm) that ``Model`` shows on a terminal."""
from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from ...core.tensor import Tensor
from ._callback import _ACTIVE_BARS, Callback, emit, format_metrics, handle_loss


def _check_non_negative_int(value: Any, name: str, who: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"For '{who}', '{name}' must be a non-negative int, but got "
                         f"{value!r}.")
    return value


class LossMonitor(Callback):
    """Print ``epoch: E step: S, loss is L`` every ``per_print_times`` steps (0: never), and
    the evaluation metrics at the end of an epoch of ``Model.fit``. A NaN or infinite loss
    stops training with a ValueError."""

    def __init__(self, per_print_times: int = 1) -> None:
        super().__init__()
        self._per_print_times = _check_non_negative_int(per_print_times, "per_print_times",
                                                        "LossMonitor")
        self._last_print_time = 0

    def step_end(self, run_context: Any) -> None:
        cb = run_context.original_args()
        epoch = cb.get("cur_epoch_num", 1)
        loss = handle_loss(cb.net_outputs)
        step_in_epoch = (cb.cur_step_num - 1) % cb.batch_num + 1
        if isinstance(loss, float) and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError(f"In epoch: {epoch} step: {step_in_epoch}, loss is NAN or INF, "
                             f"training process cannot continue, terminating training.")
        every = self._per_print_times
        if every == 0:
            return
        # a new run (or initial_epoch) restarts the step count below the last print
        while cb.cur_step_num <= self._last_print_time:
            self._last_print_time -= max(every, cb.batch_num if cb.get("dataset_sink_mode")
                                         else 1)
        if cb.cur_step_num - self._last_print_time >= every:
            self._last_print_time = cb.cur_step_num
            emit(f"epoch: {epoch} step: {step_in_epoch}, loss is {loss}")

    def on_train_epoch_end(self, run_context: Any) -> None:
        cb = run_context.original_args()
        metrics = cb.get("metrics")
        if metrics:
            emit(f"Eval result: epoch {cb.cur_epoch_num}, metrics: {format_metrics(metrics)}")


class TimeMonitor(Callback):
    """Print ``Train epoch time: T ms, per step time: t ms`` after each epoch (``Eval ...``
    during evaluation); with ``data_time=True`` also the mean time spent fetching data per
    step."""

    def __init__(self, data_size: int | None = None, data_time: bool = False) -> None:
        super().__init__()
        if not isinstance(data_time, bool):
            raise TypeError(f"For 'TimeMonitor', 'data_time' must be a bool, but got "
                            f"{type(data_time).__name__}.")
        self.data_size = data_size
        self.data_time = data_time
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self.data_time_start = 0.0

    def on_train_step_begin(self, run_context: Any) -> None:
        if self.data_time:
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context: Any) -> None:
        if self.data_time:
            self.data_time_start = time.time()

    def epoch_begin(self, run_context: Any) -> None:
        self.epoch_time = time.time()
        if self.data_time:
            self.data_time_sum = 0.0
            self.data_time_start = time.time()

    def epoch_end(self, run_context: Any) -> None:
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb = run_context.original_args()
        steps = self.data_size
        batch_num = cb.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            steps = batch_num
        if isinstance(steps, bool) or not isinstance(steps, int) or steps <= 0:
            raise ValueError(f"For 'TimeMonitor', the number of steps per epoch must be a "
                             f"positive int (data_size or cb_params.batch_num), but got "
                             f"{steps!r}.")
        line = (f"{cb.get('mode', '').title()} epoch time: {epoch_ms:5.3f} ms, "
                f"per step time: {epoch_ms / steps:5.3f} ms")
        if self.data_time:
            line += f" (data time: {self.data_time_sum * 1000 / steps:5.3f} ms)"
        emit(line)


class History(Callback):
    """Records, per epoch, the last step's network output (``'net_output'``, the loss) and
    the evaluation metrics of ``Model.fit`` in ``history`` (name -> list), and the epoch
    numbers in ``epoch['epoch']``."""

    def __init__(self) -> None:
        super().__init__()
        self.history: dict = {}
        self.epoch: dict | None = None

    def begin(self, run_context: Any) -> None:
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context: Any) -> None:
        cb = run_context.original_args()
        if self.epoch is None:
            self.epoch = {"epoch": []}
        self.epoch["epoch"].append(cb.get("cur_epoch_num", 1))
        out = cb.get("net_outputs")
        if isinstance(out, (tuple, list)) and out and isinstance(out[0], Tensor):
            out = out[0]
        if isinstance(out, Tensor):
            out = np.mean(out.asnumpy())
        record = {"net_output": out}
        if cb.get("metrics"):
            record.update(cb.metrics)
        for k, v in record.items():
            self.history.setdefault(k, []).append(v)


class LambdaCallback(Callback):
    """A callback from functions: ``LambdaCallback(on_train_step_end=fn, ...)``; each
    function takes the RunContext. Hooks not given do nothing."""

    _NAMES = ("on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
              "on_train_step_end", "on_train_begin", "on_train_end", "on_eval_epoch_begin",
              "on_eval_epoch_end", "on_eval_step_begin", "on_eval_step_end", "on_eval_begin",
              "on_eval_end")

    def __init__(self, on_train_epoch_begin: Callable | None = None,
                 on_train_epoch_end: Callable | None = None,
                 on_train_step_begin: Callable | None = None,
                 on_train_step_end: Callable | None = None,
                 on_train_begin: Callable | None = None, on_train_end: Callable | None = None,
                 on_eval_epoch_begin: Callable | None = None,
                 on_eval_epoch_end: Callable | None = None,
                 on_eval_step_begin: Callable | None = None,
                 on_eval_step_end: Callable | None = None,
                 on_eval_begin: Callable | None = None,
                 on_eval_end: Callable | None = None) -> None:
        super().__init__()
        given = locals()
        for name in self._NAMES:
            fn = given[name]
            if fn is not None and not callable(fn):
                raise TypeError(f"For 'LambdaCallback', '{name}' must be callable, but got "
                                f"{type(fn).__name__}.")
            setattr(self, name, fn if fn is not None else (lambda run_context: None))


class ProgressBar(Callback):
    """A tqdm progress bar per training epoch (and per evaluation) with the running loss.
    ``Model.train`` / ``fit`` add one by themselves when standard output is a terminal and
    tqdm is installed (``pip install tqdm``); lines printed by other callbacks go above it."""

    def __init__(self, file: Any = None) -> None:
        super().__init__()
        try:
            import tqdm  # noqa: F401
        except ImportError as e:
            raise ImportError("ProgressBar needs tqdm: pip install tqdm") from e
        self._file = file
        self._bar = None

    def _open(self, total: Any, desc: str) -> None:
        from tqdm.auto import tqdm

        self._close()
        self._bar = tqdm(total=total if isinstance(total, int) and total > 0 else None,
                         desc=desc, file=self._file, leave=True, dynamic_ncols=True)
        _ACTIVE_BARS.append(self._bar)

    def _close(self) -> None:
        if self._bar is not None:
            if self._bar in _ACTIVE_BARS:
                _ACTIVE_BARS.remove(self._bar)
            self._bar.close()
            self._bar = None

    def on_train_epoch_begin(self, run_context: Any) -> None:
        cb = run_context.original_args()
        last = cb.get("epoch_num", 0) + cb.get("initial_epoch", 0)
        self._open(cb.get("batch_num"), f"Epoch {cb.cur_epoch_num}/{last}")

    def on_train_step_end(self, run_context: Any) -> None:
        if self._bar is not None:
            loss = handle_loss(run_context.original_args().get("net_outputs"))
            if isinstance(loss, float):
                self._bar.set_postfix(loss=f"{loss:.4f}", refresh=False)
            self._bar.update(1)

    def on_train_epoch_end(self, run_context: Any) -> None:
        self._close()

    def on_train_end(self, run_context: Any) -> None:
        self._close()

    def on_eval_epoch_begin(self, run_context: Any) -> None:
        # evaluation inside fit comes after the epoch's steps: that bar is complete
        self._open(run_context.original_args().get("batch_num"), "Eval")

    def on_eval_step_end(self, run_context: Any) -> None:
        if self._bar is not None:
            self._bar.update(1)

    def on_eval_epoch_end(self, run_context: Any) -> None:
        self._close()


__all__ = ["LossMonitor", "TimeMonitor", "History", "LambdaCallback", "ProgressBar"]
