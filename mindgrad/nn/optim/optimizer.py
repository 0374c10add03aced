"""``nn.Optimizer``: the base of the optimizers.

It holds the parameters (``parameters``, a ParameterTuple), the learning rate (a fixed
value kept in the Parameter ``learning_rate``, or a dynamic one: a list / 1-D Tensor indexed
by ``global_step``, or a ``LearningRateSchedule``), weight decay and loss scale, and
parameter groups (``[{'params': [...], 'lr': ..., 'weight_decay': ...}, {'order_params':
[...]}]``). ``optimizer(grads)`` updates every parameter with ``set_data`` and returns True.

All updates are whole-tensor operations on Parameters (the state, such as moments, is
Parameters too), so a training step compiled by ``jit`` or in GRAPH mode records them."""
from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from ...core import dtype as mstype
from ...common.initializer import initializer
from ...common.parameter import Parameter, ParameterTuple
from ...core.tensor import Tensor
from ...ops import functional as F
from ..cell import Cell
from ..learning_rate_schedule import LearningRateSchedule

_GROUP_KEYS = ("params", "lr", "weight_decay", "order_params", "grad_centralization")


def _default_decay_filter(p: Parameter) -> bool:
    """MindSpore's rule without groups: no weight decay on BatchNorm/LayerNorm gamma, beta."""
    return "beta" not in p.name and "gamma" not in p.name


class _IteratorLR(LearningRateSchedule):
    """A learning rate given per step (list or 1-D Tensor); past its end the last value is
    kept."""

    def __init__(self, values: Tensor, name: str) -> None:
        super().__init__()
        self.learning_rate = Parameter(values, name=name, requires_grad=False)
        self.last = values.shape[0] - 1

    def construct(self, global_step: Tensor) -> Tensor:
        return F.gather(self.learning_rate, F.minimum(global_step, self.last), 0)


class Optimizer(Cell):
    """Base class of the optimizers; subclasses define ``construct(gradients)``."""

    def __init__(self, learning_rate: Any, parameters: Any, weight_decay: float = 0.0,
                 loss_scale: float = 1.0) -> None:
        super().__init__(auto_prefix=False)
        who = type(self).__name__
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, (int, float)) \
                or loss_scale <= 0:
            raise ValueError(f"For '{who}', 'loss_scale' must be a positive number, but got "
                             f"{loss_scale!r}.")
        self.loss_scale = float(loss_scale)
        # what ``scale_grad`` multiplies by; a wrapper that unscales the gradients itself
        # (``nn.LARS``) sets it to 1.0, as MindSpore's does
        self.reciprocal_scale = 1.0 / self.loss_scale
        weight_decay = self._check_decay(weight_decay)
        self.dynamic_lr = False
        params, lrs, decays, grouped = self._parse(parameters, learning_rate, weight_decay)
        self.parameters = ParameterTuple(params)
        self._parameters = self.parameters
        self.is_group = grouped
        self.is_group_lr = any(lr is not learning_rate for lr in lrs)
        built: dict = {}  # id of a given rate -> its Parameter / schedule
        per_param = []
        for lr in lrs:
            if id(lr) not in built:
                name = f"learning_rate_group_{len(built)}" if self.is_group_lr \
                    else "learning_rate"
                built[id(lr)] = self._build_lr(lr, name)
            per_param.append(built[id(lr)])
        self._lr_per_param = per_param
        if self.is_group_lr:
            for k, lr in enumerate(built.values()):
                setattr(self, f"learning_rate_group_{k}", lr)
            self.learning_rate = tuple(per_param)
        else:
            self.learning_rate = per_param[0]
        # Always a Parameter, so that checkpoints hold it as MindSpore's do; every step
        # advances it, whatever the rate (MindSpore 2.10's get_lr adds 1 each call).
        self.global_step = Parameter(Tensor(np.zeros(1, np.int32)), name="global_step",
                                     requires_grad=False)
        if grouped:
            flags = [wd > 0 for wd in decays]
        else:
            flags = [_default_decay_filter(p) and weight_decay > 0 for p in params]
        self.weight_decay = tuple(decays) if grouped else weight_decay
        self.decay_flags = tuple(flags)
        self._decays = [wd if f else 0.0 for wd, f in zip(decays, flags)]
        self.exec_weight_decay = any(flags)

    # --- construction helpers -------------------------------------------------------------
    def _check_decay(self, weight_decay: Any) -> float:
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)) \
                or weight_decay < 0:
            raise ValueError(f"For '{type(self).__name__}', 'weight_decay' must be a "
                             f"non-negative number, but got {weight_decay!r}.")
        return float(weight_decay)

    def _parse(self, parameters: Any, lr: Any, wd: float) -> tuple:
        """Flatten ``parameters`` (Parameters or group dicts) into per-parameter lists."""
        who = type(self).__name__
        if parameters is None or not isinstance(parameters, Iterable):
            raise TypeError(f"For '{who}', 'params' must be a list of Parameters or of group "
                            f"dicts, but got {type(parameters).__name__}.")
        items = list(parameters)
        if not items:
            raise ValueError(f"For '{who}', the 'params' list is empty.")
        grouped = isinstance(items[0], dict)
        groups = items if grouped else [{"params": items}]
        params: list = []
        lrs: list = []
        decays: list = []
        order = None
        for g in groups:
            if not isinstance(g, dict):
                raise TypeError(f"For '{who}', mix of group dicts and Parameters in 'params'.")
            bad = [k for k in g if k not in _GROUP_KEYS]
            if bad:
                raise KeyError(f"For '{who}', the key(s) {bad} cannot be recognized in group "
                               f"params.")
            if "order_params" in g:
                if len(g) > 1:
                    raise ValueError("The order params dict in group parameters should only "
                                     "include the 'order_params' key.")
                order = list(g["order_params"])
                continue
            group_lr = g.get("lr", lr)
            group_wd = self._check_decay(g.get("weight_decay", wd))
            for p in g["params"]:
                if not isinstance(p, Parameter):
                    raise TypeError(f"For '{who}', every parameter must be a Parameter, but "
                                    f"got {type(p).__name__}.")
                if any(p is q for q in params):
                    raise RuntimeError(f"For '{who}', the {p.name} parameter already exists, "
                                       f"it does not support repeated setting.")
                params.append(p)
                lrs.append(group_lr)
                decays.append(group_wd)
        if order is not None:
            index = {id(p): i for i, p in enumerate(params)}
            if len(order) != len(params) or any(id(p) not in index for p in order):
                raise ValueError(f"For '{who}', the value of 'order_params' should be same with "
                                 f"all group parameters.")
            pick = [index[id(p)] for p in order]
            params = [params[i] for i in pick]
            lrs = [lrs[i] for i in pick]
            decays = [decays[i] for i in pick]
        return params, lrs, decays, grouped

    def _build_lr(self, lr: Any, name: str) -> Any:
        """A fixed rate becomes a float32 Parameter; a dynamic one a LearningRateSchedule."""
        who = type(self).__name__
        if isinstance(lr, (int, float)) and not isinstance(lr, bool):
            if lr < 0:
                raise ValueError(f"For '{who}', the learning rate must be non-negative, but "
                                 f"got {lr}.")
            return Parameter(Tensor(float(lr), mstype.float32), name=name, requires_grad=False)
        if isinstance(lr, Tensor) and lr.ndim == 0:
            return Parameter(F.cast(lr, mstype.float32), name=name, requires_grad=False)
        if isinstance(lr, LearningRateSchedule):
            self.dynamic_lr = True
            return lr
        if isinstance(lr, Tensor) or (isinstance(lr, Iterable) and not isinstance(lr, str)):
            values = F.cast(lr, mstype.float32) if isinstance(lr, Tensor) \
                else Tensor(np.asarray(list(lr), np.float32))
            if values.ndim != 1 or values.shape[0] == 0:
                raise ValueError(f"For '{who}', a dynamic learning rate must be a non-empty "
                                 f"1-D Tensor or list, but got shape {list(values.shape)}.")
            self.dynamic_lr = True
            return _IteratorLR(values, name)
        raise TypeError(f"For '{who}', 'learning_rate' should be int, float, Tensor, Iterable "
                        f"or LearningRateSchedule, but got {type(lr).__name__}.")

    def _state(self, prefix: str, init: Any = "zeros") -> ParameterTuple:
        """One new Parameter per parameter (named ``prefix.name``, registered in this cell so
        that checkpoints include it)."""
        out = []
        for i, p in enumerate(self.parameters):
            name = f"{prefix}.{p.name}"
            if name in self._params:
                name = f"{name}.{i}"
            s = Parameter(initializer(init, p.shape, p.dtype), name=name, requires_grad=False)
            self.insert_param_to_cell(name, s)
            out.append(s)
        return ParameterTuple(out)

    def _scalar(self, name: str, value: float) -> Parameter:
        """A float32 scalar Parameter of the optimizer (a running power, a flag)."""
        p = Parameter(Tensor(value, mstype.float32), name=name, requires_grad=False)
        setattr(self, name, p)
        return p

    def _advance_powers(self) -> tuple:
        """Multiply ``beta1_power`` and ``beta2_power`` (made with `_scalar`) by ``beta1`` and
        ``beta2`` for this step and return the new powers (Adam's bias corrections)."""
        b1p = F.mul(self.beta1_power, self.beta1)
        b2p = F.mul(self.beta2_power, self.beta2)
        self.beta1_power.set_data(b1p)
        self.beta2_power.set_data(b2p)
        return b1p, b2p

    # --- the MindSpore Optimizer API ------------------------------------------------------
    def get_lr(self) -> Any:
        """The learning rate of this step (a tuple per parameter with group rates); a dynamic
        rate is read at ``global_step``. As in MindSpore 2.10 it does not advance the step:
        each built-in optimizer's update does (a user-defined one advances ``global_step``
        itself)."""
        lrs = self._current_lrs()
        return tuple(lrs) if self.is_group_lr else lrs[0]

    def _lrs(self) -> list:
        """The rate of each parameter at this step; advances ``global_step``."""
        out = self._current_lrs()
        self.global_step.set_data(F.add(self.global_step, 1))
        return out

    def _current_lrs(self) -> list:
        """The rate of each parameter at ``global_step``, without advancing it."""
        if not self.dynamic_lr:
            return self._lr_per_param
        cache: dict = {}
        out = []
        for lr in self._lr_per_param:
            if id(lr) not in cache:
                cache[id(lr)] = F.reshape(lr(self.global_step), ()) \
                    if isinstance(lr, LearningRateSchedule) else lr
            out.append(cache[id(lr)])
        return out

    def get_lr_parameter(self, param: Any) -> Any:
        """The learning rate (Parameter or schedule) of ``param`` or of each in a list."""
        many = isinstance(param, list)
        ids = [id(p) for p in self.parameters]
        out = []
        for p in (param if many else [param]):
            if id(p) not in ids:
                raise ValueError(f"For 'get_lr_parameter', the parameter {p.name} is not in "
                                 f"the optimizer.")
            lr = self._lr_per_param[ids.index(id(p))]
            out.append(lr.learning_rate if isinstance(lr, _IteratorLR) else lr)
        return out if many else out[0]

    def decay_weight(self, gradients: Sequence) -> tuple:
        """``g + weight_decay * loss_scale * p`` for the parameters that decay: the gradients
        still carry the loss scale, which ``scale_grad`` removes afterwards (MindSpore
        scales the decay the same way)."""
        if not self.exec_weight_decay:
            return tuple(gradients)
        ls = self.loss_scale
        return tuple(g if wd == 0.0 else F.add(g, F.mul(p, wd * ls))
                     for p, g, wd in zip(self.parameters, gradients, self._decays))

    def _drop_weight_decay(self) -> None:
        """Decay no parameter from now on: a wrapper (``nn.LARS``) applies the decay itself,
        as MindSpore's clears the wrapped optimizer's decay flags."""
        self.decay_flags = tuple(False for _ in self.decay_flags)
        self._decays = [0.0] * len(self._decays)
        self.exec_weight_decay = False

    def scale_grad(self, gradients: Sequence) -> tuple:
        """Undo the loss scale: ``g * reciprocal_scale`` (``1 / loss_scale``)."""
        inv = self.reciprocal_scale
        if inv == 1.0:
            return tuple(gradients)
        return tuple(F.mul(g, inv) for g in gradients)

    def flatten_gradients(self, gradients: Sequence) -> Sequence:
        return gradients

    def gradients_centralization(self, gradients: Sequence) -> Sequence:
        return gradients

    def _check_grads(self, gradients: Any) -> Sequence:
        who = type(self).__name__
        if not isinstance(gradients, (tuple, list)):
            raise TypeError(f"For '{who}', the gradients must be a tuple of Tensors (one per "
                            f"parameter), but got {type(gradients).__name__}.")
        if len(gradients) != len(self.parameters):
            raise ValueError(f"For '{who}', got {len(gradients)} gradients for "
                             f"{len(self.parameters)} parameters.")
        for p, g in zip(self.parameters, gradients):
            if not isinstance(g, Tensor) or g.shape != p.shape:
                raise ValueError(f"For '{who}', the gradient of '{p.name}' must be a Tensor of "
                                 f"shape {list(p.shape)}, but got "
                                 f"{list(g.shape) if isinstance(g, Tensor) else type(g).__name__}.")
        return gradients

    def _prepare(self, gradients: Any, decay: bool = True) -> tuple:
        """Checked gradients with weight decay applied and the loss scale removed."""
        grads = self._check_grads(gradients)
        if decay:
            grads = self.decay_weight(grads)
        return self.scale_grad(grads)

    def construct(self, gradients: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define construct(gradients).")


__all__ = ["Optimizer"]
