"""Data-parallel gradients: ``DistributedGradReducer`` all-reduces a tuple of gradients
across the ranks (averaged with ``mean``), in buckets; ``broadcast_parameters`` gives every
rank rank 0's parameter values.

A bucket is many gradients of one dtype flattened into one buffer: one all-reduce of a few
large buffers costs far less than one per small gradient (each MPI call has a fixed
latency). Buckets follow ``all_reduce_fusion_config`` (split indices into the gradient
list) when it is set, else hold at most ``comm_fusion``'s allreduce size in MB (64 MB by
default). The flattening and the splitting are differentiable operations, so the reducer
traces into a GRAPH-mode step like any other cell."""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from ..common import auto_parallel
from ..common.parameter import Parameter
from ..core.tensor import Tensor
from ..communication.management import GlobalComm, get_group_size
from ..prims import collective as P
from ..prims import structural as S
from ..prims import getitem as G
from .cell import Cell


def _fusion_bytes() -> int:
    mode = auto_parallel._state["comm_fusion"].get("allreduce", {})
    if mode.get("mode") == "size" and mode.get("config"):
        return int(float(mode["config"]) * 2**20)
    return auto_parallel.DEFAULT_FUSION_MB * 2**20


def plan_buckets(shapes: Sequence[tuple], dtypes: Sequence[Any],
                 split_indices: Sequence[int] = (), limit: int | None = None) -> list[list[int]]:
    """Group positions ``0..n-1`` into buckets: consecutive runs of one dtype, cut at every
    index of ``split_indices`` (MindSpore's ``all_reduce_fusion_config``) or, without them,
    before a bucket would pass ``limit`` bytes (a larger single tensor gets a bucket of
    its own)."""
    limit = _fusion_bytes() if limit is None else limit
    cuts = set(split_indices)
    buckets: list[list[int]] = []
    size = 0
    for i, (shape, dtype) in enumerate(zip(shapes, dtypes)):
        nbytes = math.prod(shape) * np.dtype(dtype).itemsize
        new = (not buckets or dtype != dtypes[buckets[-1][0]] or i in cuts
               or (not cuts and size + nbytes > limit and buckets[-1]))
        if new:
            buckets.append([])
            size = 0
        buckets[-1].append(i)
        size += nbytes
    return buckets


def _bucketed(tensors: Sequence[Tensor], buckets: list[list[int]], collective) -> list:
    """Apply ``collective`` (flat buffer -> flat buffer) to each bucket of ``tensors`` and
    give every tensor its part of the result back, in its own shape."""
    out: list = [None] * len(tensors)
    for bucket in buckets:
        if len(bucket) == 1:
            i = bucket[0]
            out[i] = collective(tensors[i])
            continue
        shapes = [S.shape_of(tensors[i]) for i in bucket]
        flat = S.concat(*[S.reshape(tensors[i], shape=(-1,)) for i in bucket], axis=0)
        flat = collective(flat)
        start = 0
        for i, shape in zip(bucket, shapes):
            n = math.prod(shape)
            out[i] = S.reshape(G.getitem(flat, index=(slice(start, start + n),)), shape=shape)
            start += n
    return out


class DistributedGradReducer(Cell):
    """All-reduce gradients across the ranks of ``group``: ``reducer(grads)`` returns the
    sums, or with ``mean`` (default: ``gradients_mean`` of the auto-parallel context) the
    sums divided by ``degree`` (default: the group size), in the order given.

    ``parameters`` are the parameters the gradients belong to (their shapes and dtypes
    plan the buckets); ``fusion_type`` is accepted for MindSpore's signature."""

    def __init__(self, parameters: Sequence[Parameter], mean: bool | None = None,
                 degree: int | None = None, fusion_type: int = 1,
                 group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(auto_prefix=False)
        params = list(parameters)
        if mean is None:
            mean = auto_parallel._state["gradients_mean"]
        if not isinstance(mean, bool):
            raise TypeError(f"For 'DistributedGradReducer', 'mean' must be a bool, but got "
                            f"{type(mean).__name__}.")
        if degree is None:
            degree = get_group_size(group)
        if not isinstance(degree, int) or isinstance(degree, bool) or degree < 1:
            raise ValueError(f"For 'DistributedGradReducer', 'degree' must be a positive int, "
                             f"but got {degree!r}.")
        self.mean = mean
        self.degree = degree
        self.group = group
        self.fusion_type = fusion_type
        self._shapes = [tuple(p.shape) for p in params]
        self._dtypes = [np.dtype(p._data.dtype) for p in params]
        self._buckets = plan_buckets(self._shapes, self._dtypes,
                                     auto_parallel._state["all_reduce_fusion_config"])

    def construct(self, grads: Sequence[Tensor]) -> tuple:
        grads = tuple(grads)
        shapes = [tuple(g.shape) for g in grads]
        if shapes == self._shapes and [np.dtype(g._data.dtype) for g in grads] == self._dtypes:
            buckets = self._buckets
        else:  # gradients of other parameters than planned for (a subset, a cast): replan
            buckets = plan_buckets(shapes, [np.dtype(g._data.dtype) for g in grads],
                                   auto_parallel._state["all_reduce_fusion_config"])
        divisor = self.degree if self.mean else 1
        out: list = [None] * len(grads)
        for bucket in buckets:  # one fused primitive per bucket (prims/collective.py)
            reduced = P.all_reduce_bucket(*[grads[i] for i in bucket], divisor=divisor,
                                          group=self.group)
            for i, r in zip(bucket, reduced):
                out[i] = r
        return tuple(out)


def broadcast_parameters(params: Sequence[Parameter], root: int = 0,
                         group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
    """Give every rank of ``group`` rank ``root``'s values of ``params`` (in buckets), so
    that data-parallel training starts from the same point everywhere."""
    params = list(params)
    if not params:
        return
    buckets = plan_buckets([tuple(p.shape) for p in params],
                           [np.dtype(p._data.dtype) for p in params])
    values = _bucketed([Tensor._wrap(p._data) for p in params], buckets,
                       lambda flat: P.broadcast(flat, root=root, group=group))
    for p, v in zip(params, values):
        p.set_data(v)


__all__ = ["DistributedGradReducer"]
