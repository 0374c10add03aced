"""Batch statistics over the processes of a group: the part ``nn.SyncBatchNorm`` and
``mint.nn.SyncBatchNorm`` share.

Each rank reduces its own examples to per-channel sums, sums of squares and a count, and one
differentiable all-reduce (sum) over the group turns them into the sums of the group's whole
batch. The mean and variance of the global batch follow from them, so the reverse pass
all-reduces the statistics' cotangents in turn and every rank's input gradient is that of
one BatchNorm over the global batch.
"""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ...communication.comm_func import all_reduce
from ...communication.management import (GlobalComm, create_group, get_group_size,
                                         get_process_group_ranks, get_rank)
from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...ops import functional as F

__all__ = ["sync_group", "global_batch_statistics", "update_running"]


def _group_name(ranks: list[int]) -> str:
    return "sync_batch_norm_" + "_".join(str(r) for r in ranks)


def _exists(group: str) -> bool:
    try:
        get_process_group_ranks(group)
    except ValueError:
        return False
    return True


def sync_group(process_groups: Any, name: str) -> str | None:
    """The group whose ranks ``name`` (a layer's name) synchronizes its statistics over, or
    None when this rank normalizes alone.

    ``process_groups`` as MindSpore's ``nn.SyncBatchNorm`` takes it: None (every rank, once
    ``init()`` has run with more than one process), 0 (no synchronization), or a list of
    lists of world ranks, each rank in at most one of them; this rank synchronizes with the
    list holding it, and alone when no list holds it or its list has one rank. The group
    of a list is made once (every rank of it constructs the layer at the same point, as
    ``create_group`` is collective over them) and shared by every layer naming it."""
    if process_groups is None:
        return GlobalComm.WORLD_COMM_GROUP if get_group_size() > 1 else None
    if isinstance(process_groups, int) and not isinstance(process_groups, bool) \
            and process_groups == 0:
        return None
    if not isinstance(process_groups, list):
        raise TypeError(f"For '{name}', 'process_groups' must be a list of lists of ranks "
                        f"or None, but got {type(process_groups).__name__}.")
    for sub in process_groups:
        if not isinstance(sub, list):
            raise TypeError(f"For '{name}', every element of 'process_groups' must be a "
                            f"list of ranks, but got {type(sub).__name__} in "
                            f"{process_groups}.")
    size, seen = get_group_size(), set()
    for rank in itertools.chain(*process_groups):
        if isinstance(rank, bool) or not isinstance(rank, int):
            raise TypeError(f"For '{name}', the rank ids in 'process_groups' must be int, "
                            f"but got {rank!r} in {process_groups}.")
        if not 0 <= rank < size:
            raise ValueError(f"For '{name}', the rank ids in 'process_groups' must be in "
                             f"[0, {size}), but got {rank} in {process_groups}.")
        if rank in seen:
            raise ValueError(f"For '{name}', the rank ids in 'process_groups' must not "
                             f"repeat, but got {process_groups}.")
        seen.add(rank)
    me = get_rank()
    mine = next((sub for sub in process_groups if me in sub), None)
    if mine is None or len(mine) < 2:
        return None
    group = _group_name(mine)
    if not _exists(group):
        create_group(group, list(mine))
    return group


def global_batch_statistics(x: Tensor, axes: tuple, group: str) -> tuple:
    """``(mean, var, unbiased)`` of ``x`` over ``axes`` (kept, of size one) and over the
    examples of every rank of ``group``: the biased variance, and the factor ``n / (n - 1)``
    (a Tensor, ``n`` being the values per channel in the whole group) that makes it unbiased.

    Sums and sums of squares are accumulated in float64, which keeps ``E[x^2] - E[x]^2``
    from cancelling to a negative variance for inputs far from zero."""
    wide = x if x.dtype == mstype.float64 else F.cast(x, mstype.float64)
    sums = F.reduce_sum(wide, axes, True)
    squares = F.reduce_sum(F.square(wide), axes, True)
    count = Tensor(np.full(sums.shape, x.size // sums.size, np.float64))
    totals, _ = all_reduce(F.stack([sums, squares, count]), group=group)
    n = F.stop_gradient(totals[2])
    mean = F.div(totals[0], n)
    var = F.sub(F.div(totals[1], n), F.square(mean))
    unbiased = F.div(n, F.maximum(F.sub(n, 1.0), 1.0))
    return F.cast(mean, x.dtype), F.cast(var, x.dtype), F.cast(unbiased, x.dtype)


def update_running(running: Any, batch: Tensor, keep: float) -> None:
    """``running = keep * running + (1 - keep) * batch`` in place, ``batch`` (of any shape
    holding one value per channel) taken as a constant."""
    batch = F.reshape(F.stop_gradient(batch), running.shape)
    running.set_data(F.add(F.mul(running, keep), F.mul(batch, 1 - keep)))
