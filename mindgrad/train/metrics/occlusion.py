"""``OcclusionSensitivity``: how much a classifier's score for the label drops when a patch
around each pixel is covered, computed on NumPy arrays (as MindSpore's metric is)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core.tensor import Tensor
from ...nn.cell import Cell
from .metric import Metric, rearrange_inputs


def _bounding_box(b_box: list | None, shape: np.ndarray) -> tuple:
    """The inclusive lower and upper corners of ``b_box`` (``[lo0, hi0, lo1, hi1, ...]``;
    a negative lower bound is 0, a negative upper one the last index), or ``(None, None)``."""
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(shape):
        raise ValueError(f"For 'OcclusionSensitivity', 'b_box' must hold a lower and an upper "
                         f"bound for each of the {len(shape)} dimensions after the batch, but "
                         f"got {len(b_box)} values.")
    lo, hi = np.array(b_box[::2]), np.array(b_box[1::2])
    lo[lo < 0] = 0
    hi[hi < 0] = shape[hi < 0] - 1
    if np.any(hi >= shape):
        raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than "
                         "image size for all values.")
    if np.any(lo > hi):
        raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than "
                         "maximum bounding box for all values.")
    return lo, hi


class OcclusionSensitivity(Metric):
    """``update(model, x, label)`` with one input ``x`` (batch 1) of a classifier ``model``
    (a Cell) and its label (a one-element Tensor, list or array); ``eval()`` gives, for each position of ``x`` after the batch
    axis (or of the bounding box ``b_box``), the label's score on ``x`` less its score when
    the patch ``[i - margin, i + margin)`` of every axis (clipped to the input) is set to
    ``pad_val``. The covered inputs go to the model ``n_batch`` at a time."""

    def __init__(self, pad_val: float = 0.0, margin: Any = 2, n_batch: int = 128,
                 b_box: list | None = None) -> None:
        super().__init__()
        who = "OcclusionSensitivity"
        for name, v, types in (("pad_val", pad_val, (float,)), ("margin", margin, (int, list)),
                               ("n_batch", n_batch, (int,))):
            if isinstance(v, bool) or not isinstance(v, types):
                raise TypeError(f"For '{who}', the type of '{name}' must be "
                                f"{' or '.join(t.__name__ for t in types)}, but got "
                                f"{type(v).__name__}.")
        if b_box is not None and not isinstance(b_box, list):
            raise TypeError(f"For '{who}', the type of 'b_box' must be list, but got "
                            f"{type(b_box).__name__}.")
        self.pad_val, self.margin, self.n_batch, self.b_box = pad_val, margin, n_batch, b_box
        self.clear()

    def clear(self) -> None:
        self._baseline: float = 0
        self._sensitivity_im: Any = 0
        self._is_update = False

    def _margins(self, ndim: int) -> list:
        return list(self.margin) if isinstance(self.margin, list) else [self.margin] * ndim

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        if len(inputs) != 3:
            raise ValueError(f"For 'OcclusionSensitivity.update', it needs 3 inputs "
                             f"(classification model, predicted value, label), but got "
                             f"{len(inputs)}.")
        model, x, label = inputs[0], self._convert_data(inputs[1]), inputs[2]
        if not isinstance(model, Cell):
            raise TypeError(f"For 'OcclusionSensitivity.update', the 'model' must be a Cell, "
                            f"but got {type(model).__name__}.")
        if x.shape[0] > 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the shape at index 0 of the "
                               f"predicted value (input[1]) must be 1, but got {x.shape[0]}.")
        label = self._convert_data(label)  # a Tensor, list or array, as in MindSpore
        if np.prod(label.shape) != x.shape[0]:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the number of the label "
                               f"(input[2]) must be same as the batches, but got the label "
                               f"number {np.prod(label.shape)}, and batches {x.shape[0]}.")
        label = int(np.asarray(label).reshape(-1)[0])
        shape = np.array(x.shape[1:])
        lo, hi = _bounding_box(self.b_box, shape)
        self._baseline = model(Tensor(x)).asnumpy()[0, label].item()
        out_shape = shape if lo is None else hi - lo + 1
        margins = self._margins(len(shape))
        scores: list = []
        batch: list = []
        total = int(np.prod(out_shape))
        for k in range(total):
            pos = np.array(np.unravel_index(k, tuple(out_shape)))
            if lo is not None:
                pos = pos + lo
            covered = x.copy()
            covered[(...,) + tuple(slice(max(0, p - m), min(n, p + m))
                                   for p, m, n in zip(pos, margins, shape))] = self.pad_val
            batch.append(covered)
            if len(batch) == self.n_batch or k == total - 1:
                scores.append(model(Tensor(np.vstack(batch))).asnumpy()[:, label])
                batch = []
        self._sensitivity_im = np.concatenate(scores).reshape(tuple(out_shape))
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)


__all__ = ["OcclusionSensitivity"]
