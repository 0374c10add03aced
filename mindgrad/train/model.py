"""``Model``: MindSpore's high-level training API.

``Model(network, loss_fn, optimizer, metrics)`` builds the training network (loss, backward
pass and optimizer update in one Cell, through ``amp.build_train_network`` so that
``amp_level`` and ``loss_scale_manager`` apply), an evaluation network (``WithEvalCell``
giving ``(loss, outputs, label)``) and uses ``network`` for prediction. ``train``,
``eval``, ``fit`` and ``predict`` drive them with callbacks, as MindSpore does: the same
hooks in the same order, the same ``cb_params`` fields and step counting.

``dataset_sink_mode=True`` is accepted and runs as MindSpore 2.10 runs it on the CPU: the
whole dataset each epoch, batch by batch, with ``cb_params.batch_num = sink_size`` when
one is given."""
from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..core.tensor import Tensor
from ..nn.cell import Cell
from ..nn.optim.optimizer import Optimizer
from ..nn.wrap import WithEvalCell, WithLossCell
from . import amp
from .callback import (CallbackManager, InternalCallbackParam, ProgressBar, RunContext,
                       TimeMonitor)
from .callback._callback import MetricValues, stdout_is_terminal
from .dataset_helper import EpochIterator, dataset_size
from .loss_scale_manager import LossScaleManager
from .metrics import Loss, get_metric_fn, get_metrics

# MindSpore's own callbacks: Model.fit evaluates with the user's callbacks and TimeMonitor
_FRAMEWORK_CALLBACKS = ("LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig",
                        "RunContext", "LearningRateScheduler", "History", "LambdaCallback",
                        "ReduceLROnPlateau", "EarlyStopping", "SummaryCollector",
                        "OnRequestExit", "BackupAndRestore", "FlopsUtilizationCollector")
_OLD_HOOKS = {"begin", "end", "epoch_begin", "epoch_end", "step_begin", "step_end"}
_KWARGS = ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level")


def _positive_int(value: Any, name: str, who: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{who}', '{name}' must be a positive int, but got {value!r}.")
    return value


def _check_bool(value: Any, name: str, who: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{who}', '{name}' must be a bool, but got "
                        f"{type(value).__name__}.")
    return value


class Model:
    """Train, evaluate and predict with a network (see the module docstring).

    Args: ``network`` (a Cell), ``loss_fn`` (a Cell, or None when ``network`` computes its
    own loss), ``optimizer``, ``metrics`` (a set of names or a dict of name -> Metric, for
    ``eval`` / ``fit``), ``eval_network`` with ``eval_indexes`` ([loss, output, label]
    positions in its outputs), ``amp_level`` ('O0' to 'O3'), ``boost_level`` (accepted,
    only 'O0' runs), and the keywords ``loss_scale_manager`` and ``keep_batchnorm_fp32``."""

    def __init__(self, network: Cell, loss_fn: Cell | None = None, optimizer: Any = None,
                 metrics: Any = None, eval_network: Cell | None = None,
                 eval_indexes: list | None = None, amp_level: str = "O0",
                 boost_level: str = "O0", **kwargs: Any) -> None:
        for key in kwargs:
            if key not in _KWARGS:
                raise ValueError(f"For 'Model', the keyword arguments may be {list(_KWARGS)}, "
                                 f"but got '{key}'.")
        if not isinstance(network, Cell):
            raise TypeError(f"For 'Model', 'network' must be a Cell, but got "
                            f"{type(network).__name__}.")
        if optimizer is not None and not isinstance(optimizer, Optimizer):
            raise TypeError(f"For 'Model', 'optimizer' must be an nn.Optimizer, but got "
                            f"{type(optimizer).__name__}.")
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None. "
                             "Please set amp_level='O0' to disable auto mixed precision or set "
                             "'optimizer' not be None to use auto mixed precision.")
        if boost_level not in ("O0", "O1", "O2"):
            raise ValueError(f"For 'Model', 'boost_level' must be 'O0', 'O1' or 'O2', but got "
                             f"{boost_level!r}.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._metrics = metrics
        self._amp_level = amp_level
        self._boost_level = boost_level
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        self._loss_scale_manager_set = "loss_scale_manager" in kwargs
        self._keep_bn_fp32 = kwargs.get("keep_batchnorm_fp32")
        if self._loss_scale_manager is not None and not isinstance(self._loss_scale_manager,
                                                                   LossScaleManager):
            raise TypeError(f"For 'Model', 'loss_scale_manager' must be a LossScaleManager, but "
                            f"got {type(self._loss_scale_manager).__name__}.")
        self._train_network = self._build_train_network()
        self._eval_network = eval_network
        self._eval_indexes = eval_indexes
        self._build_eval_network(metrics, eval_network, eval_indexes)
        self._predict_network = network
        self._backbone_is_train = True
        self._current_epoch_num = 0
        self._current_step_num = 0
        self.epoch_iter = 0
        self.batch_num = -1

    # --- building ---------------------------------------------------------------------------
    def _build_train_network(self) -> Cell:
        network = self._network
        if self._loss_scale_manager is not None and self._optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set "
                             "'loss_scale_manager'.")
        if self._optimizer is not None:
            config: dict = {}
            if self._loss_scale_manager_set:
                config["loss_scale_manager"] = self._loss_scale_manager
            if self._keep_bn_fp32 is not None:
                config["keep_batchnorm_fp32"] = self._keep_bn_fp32
            return amp.build_train_network(network, self._optimizer, self._loss_fn,
                                           level=self._amp_level, **config)
        if self._loss_fn is not None:
            return WithLossCell(network, self._loss_fn)
        return network

    def _build_eval_network(self, metrics: Any, eval_network: Any, eval_indexes: Any) -> None:
        self._metric_fns = get_metrics(metrics)
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list)
                                                 and len(eval_indexes) == 3):
                raise ValueError(f"For 'Model', 'eval_indexes' must be None or a list of 3 "
                                 f"positions (loss, output, label), but got {eval_indexes!r}.")
            return
        if self._loss_fn is None:
            raise ValueError("For 'Model', 'metrics' needs an 'eval_network' or a 'loss_fn' "
                             "(from which Model builds the evaluation network).")
        self._eval_network = WithEvalCell(self._network, self._loss_fn,
                                          self._amp_level in ("O2", "O3", "auto"))
        self._eval_indexes = [0, 1, 2]

    @property
    def train_network(self) -> Cell:
        return self._train_network

    @property
    def predict_network(self) -> Cell:
        return self._predict_network

    @property
    def eval_network(self) -> Cell | None:
        return self._eval_network

    # --- metrics ----------------------------------------------------------------------------
    def _clear_metrics(self) -> None:
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs: Any) -> None:
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(f"For 'Model.eval', the evaluation network must return a tuple, "
                             f"but got {type(outputs).__name__}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"For 'Model.eval', the evaluation network must return at least 3 "
                             f"outputs (loss, output, label) with eval_indexes, but got "
                             f"{len(outputs)}.")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def _get_metrics(self) -> dict:
        return MetricValues((name, m.eval()) for name, m in self._metric_fns.items())

    # --- modes ------------------------------------------------------------------------------
    def _check_network_mode(self, network: Cell, is_train: bool) -> Cell:
        if self._backbone_is_train != is_train:
            network.set_train(is_train)
            self._backbone_is_train = is_train
        return network

    def _prepare(self, network: Cell, is_train: bool) -> None:
        network.set_train(is_train)
        self._backbone_is_train = is_train

    @staticmethod
    def _transform_callbacks(callbacks: Any) -> list:
        if callbacks is None:
            return []
        if isinstance(callbacks, Iterable):
            return list(callbacks)
        return [callbacks]

    @staticmethod
    def _warn_old_hooks(callbacks: Any) -> None:
        """MindSpore warns about the 1.x hook names in custom callbacks; they keep working."""
        import warnings

        for cb in callbacks if isinstance(callbacks, list) else [callbacks]:
            name = type(cb).__name__
            if name in _FRAMEWORK_CALLBACKS or name == "ProgressBar":
                continue
            old = set(type(cb).__dict__) & _OLD_HOOKS
            if old:
                warnings.warn(f"For {name} callback, {sorted(old)} methods may not be supported "
                              f"in later version, Use methods prefixed with 'on_train' or "
                              f"'on_eval' instead when using customized callbacks.",
                              stacklevel=3)

    @staticmethod
    def _with_progress_bar(callbacks: list) -> list:
        """Add a tqdm bar when standard output is a terminal and tqdm is installed."""
        if any(isinstance(cb, ProgressBar) for cb in callbacks) or not stdout_is_terminal():
            return callbacks
        try:
            return [ProgressBar()] + callbacks
        except ImportError:
            return callbacks

    # --- training ---------------------------------------------------------------------------
    def _check_train_args(self, who: str, epoch: Any, train_dataset: Any, dataset_sink_mode: Any,
                          sink_size: Any, initial_epoch: Any) -> int:
        _check_bool(dataset_sink_mode, "dataset_sink_mode", who)
        if isinstance(sink_size, bool) or not isinstance(sink_size, int):
            raise TypeError(f"For '{who}', 'sink_size' must be an int, but got "
                            f"{type(sink_size).__name__}.")
        _positive_int(epoch, "epoch", who)
        if isinstance(initial_epoch, bool) or not isinstance(initial_epoch, int) \
                or initial_epoch < 0:
            raise ValueError(f"For '{who}', 'initial_epoch' must be a non-negative int, but got "
                             f"{initial_epoch!r}.")
        if initial_epoch >= epoch:
            raise ValueError(f"For '{who}', the parameter 'epoch' must bigger than parameter "
                             f"'initial_epoch', but got the parameter 'epoch' is {epoch}, "
                             f"'initial_epoch' is {initial_epoch}.")
        size = dataset_size(train_dataset, who)
        if size == 0:
            raise ValueError(f"For '{who}', there is no valid data in the dataset "
                             f"({type(train_dataset).__name__} has 0 batches).")
        if sink_size == -1:
            sink_size = size
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"For '{who}', 'sink_size' must be -1 or positive, but got "
                             f"{sink_size}.")
        return sink_size

    def train(self, epoch: int, train_dataset: Any, callbacks: Any = None,
              dataset_sink_mode: bool = False, sink_size: int = -1,
              initial_epoch: int = 0) -> None:
        """Train for epochs ``initial_epoch + 1`` .. ``epoch`` over ``train_dataset`` (batches
        of ``(data, label)``, or the network's own inputs when it has no loss_fn)."""
        sink_size = self._check_train_args("Model.train", epoch, train_dataset,
                                           dataset_sink_mode, sink_size, initial_epoch)
        if callbacks:
            self._warn_old_hooks(callbacks)
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                    initial_epoch)

    def fit(self, epoch: int, train_dataset: Any, valid_dataset: Any = None,
            valid_frequency: Any = 1, callbacks: Any = None, dataset_sink_mode: bool = False,
            valid_dataset_sink_mode: bool = False, sink_size: int = -1,
            initial_epoch: int = 0) -> None:
        """``train`` with an evaluation on ``valid_dataset`` after every ``valid_frequency``
        epochs (an int, or a list of epoch numbers); the results reach the callbacks as
        ``cb_params.metrics`` and ``cb_params.eval_results`` (with ``'eval_loss'``)."""
        _check_bool(valid_dataset_sink_mode, "valid_dataset_sink_mode", "Model.fit")
        sink_size = self._check_train_args("Model.fit", epoch, train_dataset, dataset_sink_mode,
                                           sink_size, initial_epoch)
        if isinstance(valid_frequency, bool) or not isinstance(valid_frequency, (int, list)):
            raise TypeError(f"For 'Model.fit', the type of 'valid_frequency' must be a list or "
                            f"an integer, but got type {type(valid_frequency)}.")
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument "
                             "'metrics' can not be None or empty, you should set the argument "
                             "'metrics' for model.")
        if callbacks:
            self._warn_old_hooks(callbacks)
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                    initial_epoch, valid_dataset, valid_frequency)

    def _train(self, epoch: int, train_dataset: Any, callbacks: Any, dataset_sink_mode: bool,
               sink_size: int, initial_epoch: int, valid_dataset: Any = None,
               valid_frequency: Any = 1) -> None:
        cb_params = InternalCallbackParam()
        cb_params.cur_step_num = 0
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        cb_params.batch_num = sink_size if dataset_sink_mode and sink_size > 0 \
            else dataset_size(train_dataset, "Model.train")
        self.batch_num = cb_params.batch_num
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = "stand_alone"
        cb_params.device_number = 1
        cb_params.train_dataset = train_dataset
        cb_params.list_callback = self._with_progress_bar(self._transform_callbacks(callbacks))
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.last_save_ckpt_step = None
        cb_params.latest_ckpt_file = None
        cb_params.loss_scale_mananger = self._loss_scale_manager  # MindSpore's spelling
        cb_params.initial_epoch = initial_epoch
        with CallbackManager(cb_params.list_callback) as list_callback:
            self._train_process(epoch, train_dataset, list_callback, cb_params, initial_epoch,
                                (valid_dataset, valid_frequency))

    @staticmethod
    def _should_eval(epoch: int, frequency: Any) -> bool:
        return epoch % frequency == 0 if isinstance(frequency, int) else epoch in frequency

    def _train_process(self, epoch: int, train_dataset: Any, list_callback: CallbackManager,
                       cb_params: InternalCallbackParam, initial_epoch: int,
                       valid_infos: tuple) -> None:
        batches = EpochIterator(train_dataset, epoch - initial_epoch, "Model.train")
        self._prepare(self._train_network, True)
        cb_params.dataset_sink_mode = False
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = cb_params.cur_epoch_num
            self._current_step_num = 0
            list_callback.on_train_epoch_begin(run_context)
            for inputs in batches.epoch():
                if self._loss_fn is not None and len(inputs) != 2:
                    raise ValueError(f"When 'loss_fn' is not None, 'train_dataset' should return "
                                     f"two elements, but got {len(inputs)}, please check the "
                                     f"number of elements returned by 'train_dataset'")
                cb_params.cur_step_num += 1
                self._current_step_num = int((cb_params.cur_step_num - 1)
                                             % cb_params.batch_num + 1)
                cb_params.train_dataset_element = inputs
                list_callback.on_train_step_begin(run_context)
                self._check_network_mode(self._train_network, True)
                outputs = self._train_network(*inputs)
                cb_params.net_outputs = outputs
                manager = self._loss_scale_manager
                if manager is not None and manager.get_drop_overflow_update():
                    manager.update_loss_scale(bool(np.all(outputs[1].asnumpy())))
                list_callback.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            self._eval_during_train(valid_infos, cb_params, list_callback)
            if hasattr(train_dataset, "reset"):
                train_dataset.reset()
            list_callback.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)

    def _eval_during_train(self, valid_infos: tuple, cb_params: InternalCallbackParam,
                           list_callback: CallbackManager) -> None:
        valid_dataset, frequency = valid_infos
        if valid_dataset is None or not self._should_eval(cb_params.cur_epoch_num, frequency):
            return
        saved = {k: cb_params[k] for k in ("cur_step_num", "batch_num", "dataset_sink_mode",
                                          "net_outputs") if k in cb_params}
        eval_callbacks = [cb for cb in list_callback._callbacks
                          if type(cb).__name__ not in _FRAMEWORK_CALLBACKS
                          or isinstance(cb, TimeMonitor)]
        self._eval_with(valid_dataset, eval_callbacks, cb_params, add_eval_loss=True)
        cb_params.mode = "train"
        cb_params.update(saved)

    # --- evaluation -------------------------------------------------------------------------
    def eval(self, valid_dataset: Any, callbacks: Any = None,
             dataset_sink_mode: bool = False) -> dict:
        """The metrics over ``valid_dataset``, as a dict name -> value."""
        _check_bool(dataset_sink_mode, "dataset_sink_mode", "Model.eval")
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or "
                             "empty, you should set the argument 'metrics' for model.")
        if callbacks:
            self._warn_old_hooks(callbacks)
        cb_params = InternalCallbackParam()
        cb_params.network = self._network
        cb_params.list_callback = self._transform_callbacks(callbacks)
        return self._eval_with(valid_dataset, cb_params.list_callback, cb_params)

    def _eval_with(self, valid_dataset: Any, callbacks: list, cb_params: InternalCallbackParam,
                   add_eval_loss: bool = False) -> dict:
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = dataset_size(valid_dataset, "Model.eval")
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        self._clear_metrics()
        eval_loss = get_metric_fn("loss") if add_eval_loss else None
        with CallbackManager(callbacks) as list_callback:
            run_context = RunContext(cb_params)
            cb_params.dataset_sink_mode = False
            list_callback.on_eval_begin(run_context)
            self._prepare(self._eval_network, False)
            list_callback.on_eval_epoch_begin(run_context)
            for inputs in EpochIterator(valid_dataset, 1, "Model.eval").epoch():
                cb_params.cur_step_num += 1
                cb_params.eval_dataset_element = inputs
                list_callback.on_eval_step_begin(run_context)
                self._check_network_mode(self._eval_network, False)
                outputs = self._eval_network(*inputs)
                cb_params.net_outputs = outputs
                list_callback.on_eval_step_end(run_context)
                self._update_metrics(outputs)
                if eval_loss is not None:
                    eval_loss.update(outputs[self._eval_indexes[0]])
                if run_context.get_stop_requested():
                    break
            list_callback.on_eval_epoch_end(run_context)
            if hasattr(valid_dataset, "reset"):
                valid_dataset.reset()
            metrics = self._get_metrics()
            cb_params.metrics = metrics
            if eval_loss is not None:
                cb_params.eval_results = copy.deepcopy(metrics)
                cb_params.eval_results["eval_loss"] = eval_loss.eval()
            list_callback.on_eval_end(run_context)
        return metrics

    # --- prediction -------------------------------------------------------------------------
    def predict(self, *predict_data: Any, backend: Any = None, config: Any = None) -> Any:
        """``network(*predict_data)`` in inference mode."""
        if backend not in ("lite", None):
            raise ValueError(f"For Model.predict, `backend` should be 'lite' or None, but got "
                             f"{backend}")
        for item in predict_data:
            if item is None or isinstance(item, (int, float, str)):
                continue
            if isinstance(item, Tensor):
                if item.size == 0:
                    raise ValueError("For Model.predict, the input data can not be empty.")
                continue
            raise TypeError(f"For Model.predict, the inputs must be Tensor, None, int, float or "
                            f"str, but got {type(item).__name__}.")
        self._check_network_mode(self._predict_network, False)
        self._predict_network.set_train(False)
        return self._predict_network(*predict_data)


__all__ = ["Model"]
