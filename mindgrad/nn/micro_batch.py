"""The micro-batch wrappers of ``mindspore.nn``: ``GradAccumulationCell``, ``PipelineCell``
and ``MicroBatchInterleaved`` split every input along axis 0 into equal micro-batches, run the
network on each and add the outputs (in MindSpore's parallel modes the split feeds gradient
accumulation, pipeline stages or interleaved communication; on one device, as here, only
the sum remains). ``VirtualDatasetCellTriple`` passes three inputs to its backbone. The
network's Parameters keep their names (no prefix)."""
from __future__ import annotations

from typing import Any

from ..core.tensor import Tensor
from ..ops import functional as F
from .cell import Cell
from .layers.container import CellList


class _MicroBatch(Cell):
    """Micro-batch ``i`` of ``micro_size`` of every input (axis 0)."""

    def __init__(self, micro_size: int) -> None:
        super().__init__()
        self.micro_size = micro_size

    def construct(self, i: int, *inputs: Any) -> tuple:
        out = []
        for x in inputs:
            n = x.shape[0]
            if n % self.micro_size:
                raise ValueError(f"The length of axis 0 of every input must be divisible by "
                                 f"the micro size {self.micro_size}, but got input shape "
                                 f"{list(x.shape)}.")
            size = n // self.micro_size
            out.append(x[size * i:size * (i + 1)])
        return tuple(out)


def _check(network: Any, size: Any, name: str, who: str) -> None:
    if not isinstance(network, Cell):
        raise TypeError(f"For '{who}', the argument 'network' must cell type, but got the type "
                        f": {type(network)}.")
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"For '{who}', the argument '{name}' must be integer, but got the type "
                        f": {type(size)}.")
    if size <= 0:
        raise ValueError(f"For '{who}', the argument '{name}' must be large than 0, but got "
                         f"{size}.")


class _SumOverMicroBatches(Cell):
    def __init__(self, network: Cell, micro_size: int) -> None:
        super().__init__(auto_prefix=False)
        _check(network, micro_size, "micro_size", type(self).__name__)
        self.network = network
        self.micro_size = micro_size
        self.micro_inputs = CellList([_MicroBatch(micro_size) for _ in range(micro_size)])

    def construct(self, *inputs: Any) -> Any:
        total = None
        for i in range(self.micro_size):
            out = self.network(*self.micro_inputs[i](i, *inputs))
            total = out if total is None else F.add(total, out)
        return total


class GradAccumulationCell(_SumOverMicroBatches):
    """The sum of ``network``'s outputs over ``micro_size`` micro-batches of the inputs."""


class PipelineCell(_SumOverMicroBatches):
    """The sum of ``network``'s outputs over ``micro_size`` micro-batches of the inputs.
    ``stage_config`` (cell name -> stage) sets the named sub-cells' ``pipeline_stage``;
    ``segment_config`` is accepted for MindSpore's signature and unused on one device."""

    def __init__(self, network: Cell, micro_size: int, stage_config: dict | None = None,
                 segment_config: dict | None = None) -> None:
        super().__init__(network, micro_size)
        if stage_config:
            cells = dict(network.cells_and_names())
            for name, stage in stage_config.items():
                if name not in cells:
                    raise KeyError(f"For 'PipelineCell', the argument 'stage_config' : "
                                   f"{stage_config} is not valid: no sub-cell named {name!r}.")
                cells[name].pipeline_stage = stage
        self.segment_config = segment_config


class MicroBatchInterleaved(Cell):
    """The sum of ``network``'s outputs over ``interleave_num`` micro-batches of the
    inputs."""

    def __init__(self, network: Cell, interleave_num: int = 2) -> None:
        super().__init__(auto_prefix=False)
        _check(network, interleave_num, "interleave_num", "MicroBatchInterleaved")
        self.network = network
        self.interleave_num = interleave_num
        self.interleave_inputs = CellList([_MicroBatch(interleave_num)
                                           for _ in range(interleave_num)])

    def construct(self, *inputs: Any) -> Any:
        total: Any = 0.0
        for i in range(self.interleave_num):
            total = F.add(total, self.network(*self.interleave_inputs[i](i, *inputs)))
        return total


class VirtualDatasetCellTriple(Cell):
    """``backbone(a, b, c)`` (MindSpore's marker of a three-input dataset for its parallel
    modes)."""

    def __init__(self, backbone: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, a: Tensor, b: Tensor, c: Tensor) -> Any:
        return self._backbone(a, b, c)


__all__ = ["GradAccumulationCell", "PipelineCell", "MicroBatchInterleaved",
           "VirtualDatasetCellTriple"]
