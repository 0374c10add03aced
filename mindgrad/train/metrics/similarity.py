"""``CosineSimilarity``, ``Dice``, ``Perplexity`` and ``BleuScore``: metrics computed on
NumPy arrays (as MindSpore's are), with MindSpore's arguments and results."""
from __future__ import annotations

import collections
import math
from typing import Any

import numpy as np

from .metric import Metric, rearrange_inputs


def _choice(v: Any, allowed: tuple, name: str, who: str) -> str:
    if not isinstance(v, str):
        raise TypeError(f"For '{who}', the type of '{name}' must be str, but got "
                        f"{type(v).__name__}.")
    if v not in allowed:
        raise ValueError(f"For '{who}', '{name}' must be one of {list(allowed)}, but got "
                         f"{v!r}.")
    return v


class CosineSimilarity(Metric):
    """The similarity matrix of the rows of the last input (``(N, D)``): dot products, or
    cosines with ``similarity='cosine'``; the diagonal set to 0 with ``zero_diagonal``;
    ``reduction`` 'none' (the matrix), 'sum' or 'mean' (over each row)."""

    def __init__(self, similarity: str = "cosine", reduction: str = "none",
                 zero_diagonal: bool = True) -> None:
        super().__init__()
        who = "CosineSimilarity"
        self.similarity = _choice(similarity, ("dot", "cosine"), "similarity", who)
        self.reduction = _choice(reduction, ("none", "sum", "mean"), "reduction", who)
        if not isinstance(zero_diagonal, bool):
            raise TypeError(f"For '{who}', the type of 'zero_diagonal' must be bool, but got "
                            f"{type(zero_diagonal).__name__}.")
        self.zero_diagonal = zero_diagonal
        self.clear()

    def clear(self) -> None:
        self.sqr_mtx_res: Any = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs: Any) -> None:
        """``update(x)``: the matrix of the rows of ``x`` (each call replaces the last)."""
        x = self._convert_data(inputs)
        if x.ndim != 2:
            raise ValueError(f"For 'CosineSimilarity.update', the input must be 2-D (N, D), "
                             f"but got shape {list(x.shape)}.")
        if self.similarity == "cosine":
            x = x / np.linalg.norm(x, ord=2, axis=1)[:, None]
        self.sqr_mtx_res = x @ x.T
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        out = np.array(self.sqr_mtx_res)
        if self.zero_diagonal:
            np.fill_diagonal(out, 0)
        if self.reduction == "mean":
            out = out.mean(-1)
        elif self.reduction == "sum":
            out = out.sum(-1)
        return out


class Dice(Metric):
    """The mean over the samples of the Dice coefficient of each batch,
    ``2 sum(p y) / (sum(p^2) + sum(y^2) + smooth)`` (each ``update`` adds one coefficient and
    its batch's number of samples)."""

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float) or smooth <= 0:
            raise ValueError(f"For 'Dice', 'smooth' must be a positive float, but got "
                             f"{smooth!r}.")
        self.smooth = smooth
        self.clear()

    def clear(self) -> None:
        self._dice_coeff_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y)``, two arrays of one shape ``(N, ...)``."""
        self._check_count(inputs, 2, "predicted value, true value")
        p, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if p.shape != y.shape:
            raise ValueError(f"For 'Dice.update', predicted value (input[0]) and true value "
                             f"(input[1]) should have same shape, but got {list(p.shape)} and "
                             f"{list(y.shape)}.")
        self._samples_num += y.shape[0] if y.ndim else 1
        p, y = p.reshape(-1), y.reshape(-1)
        inter = float(p @ y)
        union = float(p @ p + y @ y)
        self._dice_coeff_sum += 2 * inter / (union + self.smooth)

    def eval(self) -> float:
        if self._samples_num == 0:
            raise self._empty_error()
        return self._dice_coeff_sum / float(self._samples_num)


class Perplexity(Metric):
    """``exp(mean(-log p))`` of the predicted probabilities ``preds`` (``(N, C)``) at the
    labels (probabilities below 1e-10 count as 1e-10); labels equal to ``ignore_label`` are
    left out."""

    def __init__(self, ignore_label: int | None = None) -> None:
        super().__init__()
        if ignore_label is not None and (isinstance(ignore_label, bool)
                                         or not isinstance(ignore_label, int)):
            raise TypeError(f"For 'Perplexity', the type of 'ignore_label' must be int, but got "
                            f"{type(ignore_label).__name__}.")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self) -> None:
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(preds, labels)``: ``preds`` ``(N, C)``, ``labels`` ``N`` class indices."""
        self._check_count(inputs, 2, "predicted value, label")
        pred, label = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if pred.ndim == 0 or label.size != pred.size / pred.shape[-1]:
            raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label "
                               f"(input[1]) should have the same shape, but got predicted value "
                               f"shape {pred.shape}, label shape {label.shape}.")
        label = label.reshape(-1)
        picked = pred.reshape(label.size, -1)[np.arange(label.size), label.astype(int)]
        num = picked.size
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(picked.dtype)
            num -= int(ignore.sum())
            picked = picked * (1 - ignore) + ignore  # log(1) = 0
        self._sum_metric -= float(np.sum(np.log(np.maximum(1e-10, picked))))
        self._num_inst += num

    def eval(self) -> float:
        if self._num_inst == 0:
            raise self._empty_error()
        return math.exp(self._sum_metric / self._num_inst)


def _ngrams(words: Any, n: int) -> collections.Counter:
    """The counts of every 1- to ``n``-gram of ``words``."""
    out: collections.Counter = collections.Counter()
    for k in range(1, n + 1):
        for j in range(len(words) - k + 1):
            out[tuple(words[j:j + k])] += 1
    return out


class BleuScore(Metric):
    """The BLEU score of candidate sentences (lists of words) against their reference
    sentences: the geometric mean of the clipped 1- to ``n_gram``-gram precisions (``smooth``
    adds 1 to each count) times the brevity penalty ``exp(1 - r / c)`` when the candidates
    are not longer than the closest references; 0 when a precision is 0."""

    def __init__(self, n_gram: int = 4, smooth: bool = False) -> None:
        super().__init__()
        if isinstance(n_gram, bool) or not isinstance(n_gram, int):
            raise TypeError(f"For 'BleuScore', the type of 'n_gram' must be int, but got "
                            f"{type(n_gram).__name__}.")
        if not 1 <= n_gram <= 4:
            raise ValueError(f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, "
                             f"but got {n_gram}.")
        if not isinstance(smooth, bool):
            raise TypeError(f"For 'BleuScore', the type of 'smooth' must be bool, but got "
                            f"{type(smooth).__name__}.")
        self.n_gram, self.smooth = n_gram, smooth
        self.clear()

    def clear(self) -> None:
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(candidate_corpus, reference_corpus)``: a list of candidates and, for
        each, a list of references."""
        self._check_count(inputs, 2, "candidate_corpus, reference_corpus")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"For 'BleuScore.update', 'candidate_corpus' and "
                             f"'reference_corpus' must have one entry each per sentence, but "
                             f"got {len(candidates)} and {len(references)}.")
        for cand, refs in zip(candidates, references):
            self._c += len(cand)
            lens = [len(r) for r in refs]
            diffs = [abs(len(cand) - n) for n in lens]
            self._r += lens[diffs.index(min(diffs))]  # the closest reference length
            counts = _ngrams(cand, self.n_gram)
            ref_counts: collections.Counter = collections.Counter()
            for r in refs:
                ref_counts |= _ngrams(r, self.n_gram)
            for gram, k in (counts & ref_counts).items():
                self._numerator[len(gram) - 1] += k
            for gram, k in counts.items():
                self._denominator[len(gram) - 1] += k
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision = (self._numerator + 1) / (self._denominator + 1)
        else:
            precision = self._numerator / self._denominator
        mean = np.exp(np.sum(np.log(precision) / self.n_gram))
        penalty = np.array(1.0) if self._c > self._r else np.exp(1 - np.array(self._r)
                                                                 / np.array(self._c))
        return penalty * mean


__all__ = ["CosineSimilarity", "Dice", "Perplexity", "BleuScore"]
