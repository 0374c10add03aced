"""``nn.SampledSoftmaxLoss``: the softmax cross-entropy over the true classes and a sample
of the others, for training with many classes."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtype as mstype
from ..core.tensor import Tensor
from .. import ops
from ..ops import functional as F
from .loss import LossBase


class SampledSoftmaxLoss(LossBase):
    """For ``weights`` ``(num_classes, dim)``, ``biases`` ``(num_classes,)``, ``labels``
    ``(batch, num_true)`` and ``logits`` ``(batch, dim)`` (the inputs of the last layer):
    the logits of the true classes and of ``num_sampled`` sampled classes (drawn by
    ``ops.uniform_candidate_sampler`` with ``seed``, or the ``(sampled, true_expected_count,
    sampled_expected_count)`` of ``sampled_values``), each less the log of its expected
    count, then the cross-entropy with target ``1 / num_true`` on the true classes: one
    value per row. As in MindSpore, ``reduction`` is checked and kept but the loss is
    never reduced."""

    def __init__(self, num_sampled: int, num_classes: int, num_true: int = 1,
                 sampled_values: Any = None, remove_accidental_hits: bool = True, seed: int = 0,
                 reduction: str = "none") -> None:
        super().__init__(reduction)
        who = "SampledSoftmaxLoss"
        if num_true < 1:
            raise ValueError(f"For '{who}', the 'num_true' must be greater than or equal to 1, "
                             f"but got {num_true}.")
        if seed < 0:
            raise ValueError(f"For '{who}', the 'seed' must be greater than or equal to 0, but "
                             f"got {seed}.")
        if num_sampled > num_classes:
            raise ValueError(f"For '{who}', the 'num_sampled' must be smaller than or equal to "
                             f"'num_classes', but got 'num_sampled': {num_sampled} and "
                             f"'num_classes': {num_classes}.")
        if num_true > num_classes:
            raise ValueError(f"For '{who}', the 'num_true' must be smaller than or equal to "
                             f"'num_classes', but got 'num_true': {num_true} and "
                             f"'num_classes': {num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"For '{who}', the type of 'sampled_values' must be a list or "
                                f"tuple, but got {type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise ValueError(f"For '{who}', the length of 'sampled_values' must be equal "
                                 f"to 3, but got {len(sampled_values)}.")
        self.num_sampled, self.num_classes, self.num_true = num_sampled, num_classes, num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits = remove_accidental_hits
        self.seed = seed

    def _logits(self, weights: Tensor, biases: Tensor, labels: Tensor,
                logits: Tensor) -> tuple:
        """The logits of the true then the sampled classes, and their target weights."""
        labels = F.reshape(F.cast(labels, mstype.int32), (-1, self.num_true))
        flat = F.reshape(labels, (-1,))
        if self.sampled_values is None:
            sampled = ops.uniform_candidate_sampler(
                labels, self.num_true, self.num_sampled, True, self.num_classes, self.seed,
                self.remove_accidental_hits)
        else:
            sampled = self.sampled_values
        ids, true_expected, sampled_expected = sampled
        ids = F.cast(ids, mstype.int32)
        dim = weights.shape[1]
        true_w = F.reshape(ops.gather(weights, flat, 0), (-1, self.num_true, dim))
        true_logits = F.add(F.reduce_sum(F.mul(F.expand_dims(logits, 1), true_w), -1),
                            F.reshape(ops.gather(biases, flat, 0), (-1, self.num_true)))
        sampled_logits = F.add(F.matmul(logits, ops.gather(weights, ids, 0), transpose_b=True),
                               ops.gather(biases, ids, 0))
        true_logits = F.sub(true_logits, F.log(true_expected))
        sampled_logits = F.sub(sampled_logits, F.log(sampled_expected))
        out = F.concat((true_logits, sampled_logits), 1)
        n = true_logits.shape[0]
        target = np.concatenate([np.full((n, self.num_true), 1.0 / self.num_true),
                                 np.zeros((n, ids.shape[0]))], 1)
        return out, Tensor(target.astype(mstype.dtype_to_nptype(out.dtype)))

    def construct(self, weights: Tensor, biases: Tensor, labels: Tensor,
                  logits: Tensor) -> Tensor:
        who = "SampledSoftmaxLoss"
        for name, x in (("weights", weights), ("biases", biases), ("labels", labels),
                        ("logits", logits)):
            if not isinstance(x, Tensor):
                raise TypeError(f"For '{who}', the '{name}' must be a Tensor, but got "
                                f"{type(x).__name__}.")
        if labels.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{who}', the dtype of 'labels' must be int32 or int64, but "
                            f"got {labels.dtype}.")
        out, target = self._logits(weights, biases, labels, logits)
        # a softmax stabilized by the row maximum, with MindSpore's 1e-20 inside the log
        e = F.exp(F.sub(out, F.reduce_max(out, 1, True)))
        pred = F.div(e, F.reduce_sum(e, 1, True))
        return F.neg(F.reduce_sum(F.mul(target, F.log(F.add(pred, 1.0e-20))), 1))


__all__ = ["SampledSoftmaxLoss"]
