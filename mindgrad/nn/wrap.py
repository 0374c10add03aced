"""Training wrappers: ``WithLossCell`` (backbone + loss) and ``TrainOneStepCell`` (loss,
gradients and an optimizer update in one call)."""
from __future__ import annotations

from typing import Any

from ..ad.api import reverse
from ..common.tensor import Tensor
from ..core.tree import flatten
from ..ops import functional as F
from ..ops.composite import GradOperation
from .cell import Cell


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

    def grad_reducer(self, grads: tuple) -> tuple:
        """Identity on one device (MindSpore all-reduces here in data-parallel training)."""
        return grads

    def construct(self, *inputs: Any) -> Any:
        pullback = reverse(self.network, inputs, (), list(self.weights))
        loss = pullback.out
        _, grads = pullback(_sens_like(loss, self.sens))
        grads = self.grad_reducer(tuple(grads))
        self.optimizer(grads)
        return (loss, grads) if self.return_grad else loss


__all__ = ["WithLossCell", "TrainOneStepCell"]
