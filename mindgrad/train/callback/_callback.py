"""``Callback``, ``RunContext`` and the callback manager that ``Model`` drives.

A callback overrides MindSpore's hooks: ``on_train_begin`` / ``on_train_epoch_begin`` /
``on_train_step_begin`` / ``on_train_step_end`` / ``on_train_epoch_end`` / ``on_train_end``
and the ``on_eval_*`` ones. Each of them calls the 1.x name by default (``begin``,
``epoch_begin``, ``step_begin``, ``step_end``, ``epoch_end``, ``end``), so old callbacks
keep working. Every hook receives a ``RunContext`` whose ``original_args()`` is the
``cb_params`` dict (attributes and keys): ``cur_epoch_num``, ``cur_step_num``,
``batch_num``, ``epoch_num``, ``net_outputs``, ``train_network``, ``optimizer``,
``loss_fn``, ``mode``, ``dataset_sink_mode``, ``train_dataset``, ``metrics``, ..."""
from __future__ import annotations

import sys
from contextlib import ExitStack
from typing import Any

import numpy as np

from ...core.tensor import Tensor


class Callback:
    """Base class of the training and evaluation callbacks; override the hooks needed."""

    def __enter__(self) -> "Callback":
        return self

    def __exit__(self, *err: Any) -> None:
        return None

    # the 1.x hook names; the on_* hooks below call them
    def begin(self, run_context: "RunContext") -> None:
        """Called once before training or evaluation starts."""

    def epoch_begin(self, run_context: "RunContext") -> None:
        """Called before each epoch."""

    def epoch_end(self, run_context: "RunContext") -> None:
        """Called after each epoch."""

    def step_begin(self, run_context: "RunContext") -> None:
        """Called before each step."""

    def step_end(self, run_context: "RunContext") -> None:
        """Called after each step."""

    def end(self, run_context: "RunContext") -> None:
        """Called once after training or evaluation."""

    def on_train_begin(self, run_context: "RunContext") -> None:
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context: "RunContext") -> None:
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context: "RunContext") -> None:
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context: "RunContext") -> None:
        self.step_begin(run_context)

    def on_train_step_end(self, run_context: "RunContext") -> None:
        self.step_end(run_context)

    def on_train_end(self, run_context: "RunContext") -> None:
        self.end(run_context)

    def on_eval_begin(self, run_context: "RunContext") -> None:
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context: "RunContext") -> None:
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context: "RunContext") -> None:
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context: "RunContext") -> None:
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context: "RunContext") -> None:
        self.step_end(run_context)

    def on_eval_end(self, run_context: "RunContext") -> None:
        self.end(run_context)


_HOOKS = ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
          "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end",
          "on_train_step_begin", "on_train_step_end", "on_train_end", "on_eval_begin",
          "on_eval_epoch_begin", "on_eval_epoch_end", "on_eval_step_begin",
          "on_eval_step_end", "on_eval_end")


def _broadcast(name: str):
    def hook(self: "CallbackManager", run_context: "RunContext") -> None:
        for cb in self._callbacks:
            getattr(cb, name)(run_context)

    hook.__name__ = name
    hook.__doc__ = f"Call ``{name}`` of every callback, in order."
    return hook


class CallbackManager(Callback):
    """Runs a list of callbacks as one: each hook calls the callbacks in order; as a context
    manager it enters them all (and exits them in reverse order)."""

    def __init__(self, callbacks: Any) -> None:
        self._callbacks: list = []
        self._stack: ExitStack | None = None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, (list, tuple)):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError(f"The 'callbacks' list must hold Callback objects, but got "
                                    f"{type(cb).__name__}.")
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError(f"The 'callbacks' must be a Callback or a list of Callbacks, but "
                            f"got {type(callbacks).__name__}.")

    def __enter__(self) -> "CallbackManager":
        if self._stack is None:
            self._stack = ExitStack().__enter__()
            entered = []
            for cb in self._callbacks:
                target = self._stack.enter_context(cb)
                entered.append(target if isinstance(target, Callback) else cb)
            self._callbacks = entered
        return self

    def __exit__(self, *err: Any) -> Any:
        stack, self._stack = self._stack, None
        return stack.__exit__(*err) if stack is not None else None


for _name in _HOOKS:
    setattr(CallbackManager, _name, _broadcast(_name))


class InternalCallbackParam(dict):
    """``cb_params``: a dict whose keys are also attributes."""

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"cb_params has no field '{key}'") from None

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value


class RunContext:
    """What a hook receives: ``original_args()`` (the cb_params) and ``request_stop()``,
    which ends training after the current step (and the epoch's end hooks)."""

    def __init__(self, original_args: dict) -> None:
        if not isinstance(original_args, dict):
            raise TypeError(f"For 'RunContext', 'original_args' must be a dict, but got "
                            f"{type(original_args).__name__}.")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self) -> dict:
        return self._original_args

    def request_stop(self) -> None:
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        return self._stop_requested


def handle_loss(loss: Any) -> Any:
    """A network output as MindSpore's callbacks read a loss: the first item of a tuple, and
    a Tensor's mean as a Python float."""
    if isinstance(loss, (tuple, list)) and loss and isinstance(loss[0], Tensor):
        loss = loss[0]
    if isinstance(loss, Tensor):
        loss = float(np.mean(loss.asnumpy()))
    return loss


# --- output that shares the terminal with a progress bar ----------------------------------
_ACTIVE_BARS: list = []


def emit(line: str) -> None:
    """Print a callback's line; above the progress bar when one is showing."""
    if _ACTIVE_BARS:
        _ACTIVE_BARS[-1].write(line)
    else:
        print(line, flush=True)


def format_metrics(metrics: dict) -> str:
    """A metrics dict as MindSpore's callbacks print it (NumPy scalars as plain numbers,
    as NumPy 1.x shows them)."""
    def show(v: Any) -> str:
        if isinstance(v, np.generic):
            return repr(v.item())
        return repr(v)
    return "{" + ", ".join(f"{k!r}: {show(v)}" for k, v in metrics.items()) + "}"


class MetricValues(dict):
    """The dict ``Model.eval`` returns: the metrics' own values (NumPy scalars stay NumPy
    scalars), printed as MindSpore's prints them (``{'accuracy': 0.96}``, not NumPy 2's
    ``np.float64(0.96)``)."""

    def __repr__(self) -> str:
        return format_metrics(self)

    __str__ = __repr__


def stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


__all__ = ["Callback", "RunContext", "CallbackManager", "InternalCallbackParam"]
