"""``nn.WithGradCell`` (the gradients of a network's loss with respect to its trainable
Parameters) and ``nn.ParameterUpdate`` (a cell that writes its input into a Parameter)."""
from __future__ import annotations

from typing import Any

from ..common.parameter import Parameter, ParameterTuple
from ..core.tensor import Tensor
from ..ops.composite import GradOperation
from .cell import Cell
from .wrap import WithLossCell


class WithGradCell(Cell):
    """``cell(*inputs)`` gives the gradients of ``network`` (or of ``loss_fn`` applied to its
    output and the last input) with respect to the network's trainable Parameters; with
    ``sens`` that is the sensitivity (the output's cotangent) instead of 1."""

    def __init__(self, network: Cell, loss_fn: Any = None, sens: Any = None) -> None:
        super().__init__(auto_prefix=False)
        self.network, self.loss_fn, self.sens = network, loss_fn, sens
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = GradOperation(get_by_list=True, sens_param=sens is not None)
        self.network_with_loss = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs: Any) -> Any:
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        return self.grad(self.network_with_loss, self.weights)(*inputs, self.sens)


class ParameterUpdate(Cell):
    """``cell(x)`` assigns ``x`` to ``param`` and returns ``x``."""

    def __init__(self, param: Parameter) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got "
                            f"{type(param)}.")
        self._param = param

    def construct(self, x: Tensor) -> Tensor:
        if not isinstance(x, Tensor) or x.shape != self._param.shape:
            raise ValueError(f"For 'ParameterUpdate', the value must be a Tensor of the "
                             f"Parameter's shape {list(self._param.shape)}, but got "
                             f"{list(getattr(x, 'shape', ()))}.")
        self._param.set_data(x)
        return x


__all__ = ["WithGradCell", "ParameterUpdate"]
