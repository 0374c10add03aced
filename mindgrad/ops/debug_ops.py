"""MindSpore's debugging operators: ``Print``, ``TensorDump`` / ``tensordump`` and the summary
operators (``ScalarSummary``, ``TensorSummary``, ``ImageSummary``, ``HistogramSummary``). They return None, as MindSpore's
do in PyNative mode, and change no value, so they can sit anywhere in a differentiated
function (also inside an ``InsertGradientOf`` function, on the gradients)."""
from __future__ import annotations

from typing import Any

import itertools

import numpy as np

from ..core.tensor import Tensor
from .primitive import Primitive

# the latest value given to each summary operator, by (kind, tag): what MindSpore's
# SummaryRecord would write at the end of a step. mindgrad has no summary writer, so the
# values are kept here for the program (or a test) to read with ``summary_values()``.
_SUMMARY: dict[tuple[str, str], Any] = {}


def summary_values() -> dict[tuple[str, str], Any]:
    """``{(kind, tag): value}``: the latest value each summary operator recorded, kind being
    "scalar", "tensor", "image" or "histogram"."""
    return dict(_SUMMARY)


def _text(value: Any) -> str:
    return str(value.asnumpy() if isinstance(value, Tensor) else value)


class Print(Primitive):
    """``Print()(*inputs)``: writes each input (strings, numbers, Tensors, tuples of them) on
    a line of its own, then returns None. Under ``jit`` (GRAPH mode) it prints when the
    function is traced (once per compilation), not at every call."""

    def __call__(self, *inputs: Any) -> None:
        for v in inputs:
            if isinstance(v, (tuple, list)):
                print(" ".join(_text(e) for e in v))
            else:
                print(_text(v))


class _Summary(Primitive):
    kind = ""
    ndim_rule: tuple = ()  # allowed ranks of the value; empty: any

    def __call__(self, name: Any, value: Any) -> None:
        op = type(self).__name__
        if not isinstance(name, str):
            raise TypeError(f"For '{op}', 'name' must be a str, but got {type(name).__name__}.")
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{op}', 'value' must be a Tensor, but got "
                            f"{type(value).__name__}.")
        if self.ndim_rule and value.ndim not in self.ndim_rule:
            raise ValueError(f"For '{op}', 'value' must have rank in {list(self.ndim_rule)}, "
                             f"but got shape {list(value.shape)}.")
        _SUMMARY[(self.kind, name)] = np.array(value.asnumpy())


class ScalarSummary(_Summary):
    """``ScalarSummary()(tag, value)``: records a scalar (or one-element) Tensor."""
    kind = "scalar"
    ndim_rule = (0, 1)


class TensorSummary(_Summary):
    """``TensorSummary()(tag, value)``: records a Tensor."""
    kind = "tensor"


class ImageSummary(_Summary):
    """``ImageSummary()(tag, value)``: records a batch of images (N, C, H, W)."""
    kind = "image"
    ndim_rule = (4,)


class HistogramSummary(_Summary):
    """``HistogramSummary()(tag, value)``: records a Tensor whose histogram is wanted."""
    kind = "histogram"


__all__ = ["Print", "ScalarSummary", "TensorSummary", "ImageSummary", "HistogramSummary",
           "summary_values"]


# MindSpore numbers the files of every dump in a process in one sequence
_DUMPS = itertools.count()


class TensorDump(Primitive):
    """``TensorDump(input_output='out')(file, input_x)``: saves ``input_x`` as a NumPy
    ``.npy`` file named ``<file>_<dtype>_<n>.npy`` (``file`` without a ``.npy`` ending, the
    dtype as ``float32``, ``n`` counting the dumps of the process, as MindSpore names them)
    and returns None. Under ``jit`` (GRAPH mode) it dumps when the function is traced."""

    def __init__(self, input_output: str = "out") -> None:
        super().__init__()
        if input_output not in ("out", "in"):
            raise ValueError(f"For 'TensorDump', 'input_output' should be in ['out', 'in'], "
                             f"but got {input_output!r}.")
        self.input_output = input_output

    def __call__(self, file: Any, input_x: Any) -> None:
        if not isinstance(file, str):
            raise TypeError(f"For 'TensorDump', 'file' must be a str, but got "
                            f"{type(file).__name__}.")
        if not isinstance(input_x, Tensor):
            raise TypeError(f"For 'TensorDump', 'input_x' must be a Tensor, but got "
                            f"{type(input_x).__name__}.")
        arr = input_x.asnumpy()
        stem = file[:-len(".npy")] if file.endswith(".npy") else file
        np.save(f"{stem}_{arr.dtype.name}_{next(_DUMPS)}.npy", arr)


def tensordump(file_name: str, tensor: Tensor, mode: str = "out") -> None:
    """``mindspore.ops.tensordump``: save ``tensor`` to ``<file_name>_<dtype>_<n>.npy`` (see
    ``TensorDump``); returns None."""
    if not isinstance(file_name, str):
        raise TypeError(f"For 'tensordump', 'file_name' must be a str, but got "
                        f"{type(file_name).__name__}.")
    if mode not in ("out", "in"):
        raise ValueError(f"For 'tensordump', 'mode' should be in ['out', 'in'], but got "
                         f"{mode!r}.")
    TensorDump(mode)(file_name, tensor)
