"""Training wrappers: ``WithLossCell`` (backbone + loss) and ``TrainOneStepCell`` (loss,
gradients and an optimizer update in one call)."""
from __future__ import annotations

from typing import Any

from ..ad.api import reverse
from ..common import auto_parallel
from ..core import dtype as mstype
from ..common.parameter import ParameterTuple
from ..core.tensor import Tensor
from ..core.tree import flatten, tree_map
from ..ops import functional as F
from ..ops.composite import GradOperation
from .cell import Cell
from .grad_reducer import DistributedGradReducer, broadcast_parameters


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)``. Parameter names are not prefixed."""

    def __init__(self, backbone: Cell, loss_fn: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    @property
    def backbone_network(self) -> Cell:
        return self._backbone

    def construct(self, data: Any, label: Any) -> Tensor:
        return self._loss_fn(self._backbone(data), label)


def _sens_like(out: Any, value: float) -> list:
    """One sensitivity per output tensor, each filled with ``value``."""
    return [F.fill(o.dtype, o.shape, value) for o in flatten(out)[0]]


class TrainOneStepCell(Cell):
    """One training step: ``loss = network(*inputs)``, the gradients of the optimizer's
    parameters scaled by ``sens`` (MindSpore's ``GradOperation(get_by_list=True,
    sens_param=True)``), then ``optimizer(grads)``. Returns the loss (and the gradients
    with ``return_grad``).

    The network runs once per step: the loss and the gradients come from the same forward
    pass (so a Dropout mask or a BatchNorm statistics update happens once). In GRAPH mode
    the whole step, optimizer update included, is compiled on the first call."""

    def __init__(self, network: Cell, optimizer: Cell, sens: float | None = None,
                 return_grad: bool = False) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        self.sens = 1.0 if sens is None else float(sens)
        self.return_grad = bool(return_grad)
        # data-parallel training (set_auto_parallel_context): every rank starts from rank 0's
        # parameters, and the gradients are all-reduced (averaged with gradients_mean)
        self.reducer_flag = auto_parallel.data_parallel()
        self._reducer = None
        if self.reducer_flag:
            broadcast_parameters(self.network.get_parameters())
            self._reducer = DistributedGradReducer(self.weights)

    def grad_reducer(self, grads: tuple) -> tuple:
        """The gradients all-reduced across the ranks in data-parallel mode (a
        ``DistributedGradReducer``); unchanged otherwise."""
        return grads if self._reducer is None else self._reducer(grads)

    def construct(self, *inputs: Any) -> Any:
        pullback = reverse(self.network, inputs, (), list(self.weights))
        loss = pullback.out
        _, grads = pullback(_sens_like(loss, self.sens))
        grads = self.grad_reducer(tuple(grads))
        self.optimizer(grads)
        return (loss, grads) if self.return_grad else loss




class ForwardValueAndGrad(Cell):
    """``(network(*inputs), gradients)`` from one forward pass, the gradients as
    ``GradOperation(get_all, get_by_list, sens_param)(network, weights)`` returns them (with
    ``sens_param`` the last input is the sensitivity and is not passed to the network)."""

    def __init__(self, network: Any, weights: Any = None, get_all: bool = False,
                 get_by_list: bool = False, sens_param: bool = False) -> None:
        super().__init__(auto_prefix=False)
        if get_by_list and not isinstance(weights, (ParameterTuple, list, tuple)):
            raise TypeError(f"For 'ForwardValueAndGrad', when 'get_by_list' is set to True, "
                            f"the argument 'weights' must be Parameters array, but got "
                            f"'{type(weights)}'")
        self.network = network
        if isinstance(network, Cell):
            network.set_grad()
        self.weights = weights
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list,
                                  sens_param=sens_param)

    def construct(self, *inputs: Any) -> tuple:
        weights = self.weights if self.get_by_list else None
        return self.grad._value_and_grads(self.network, weights, inputs, {})


class WithEvalCell(Cell):
    """``(loss, outputs, label)`` of ``network(data)`` against ``label``: what ``Model``
    evaluates metrics on. ``add_cast_fp32`` casts the outputs and the label to float32
    first (for a network running in float16)."""

    def __init__(self, network: Cell, loss_fn: Cell, add_cast_fp32: bool = False) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(add_cast_fp32, bool):
            raise TypeError(f"For 'WithEvalCell', 'add_cast_fp32' must be a bool, but got "
                            f"{type(add_cast_fp32).__name__}.")
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data: Any, label: Any) -> tuple:
        outputs = self._network(data)
        if self.add_cast_fp32:
            label = mixed_precision_cast(label)
            outputs = F.cast(outputs, mstype.float32)
        return self._loss_fn(outputs, label), outputs, label


def mixed_precision_cast(x: Any, dtype: Any = None) -> Any:
    """Cast the float Tensors in ``x`` (a Tensor or a nested tuple/list/dict) to ``dtype``
    (float32 by default); anything else passes through."""
    target = mstype.float32 if dtype is None else dtype

    def cast(v: Any) -> Any:
        if isinstance(v, Tensor) and v.dtype.is_floating and v.dtype != target:
            return F.cast(v, target)
        return v

    return tree_map(cast, x)


__all__ = ["WithLossCell", "TrainOneStepCell", "WithEvalCell", "ForwardValueAndGrad",
           "mixed_precision_cast"]
