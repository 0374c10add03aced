"""``mindspore.communication.comm_func``: the collectives as functions.

``all_reduce``, ``all_gather_into_tensor`` and ``reduce_scatter_tensor`` return
``(output, handle)`` as MindSpore 2.10 does: the handle is None, or with ``async_op=True`` a
``CommHandle`` whose ``wait()`` returns at once (MPI has completed the operation by then).
"""
from __future__ import annotations

from typing import Any

from ..core.tensor import Tensor
from ..ops.operations.comm_ops import ReduceOp, check_group, check_op, check_tensor
from ..prims import collective as P
from .management import GlobalComm, communicator, get_group_size
from .management import get_group_rank_from_world_rank

__all__ = ["CommHandle", "ReduceOp", "all_reduce", "all_gather_into_tensor",
           "reduce_scatter_tensor", "broadcast", "barrier", "reduce", "all_to_all_single",
           "gather_into_tensor", "scatter_tensor", "get_group_size"]


class CommHandle:
    """The handle of an asynchronous collective; ``wait()`` returns once it has completed
    (here: at once, the collectives being synchronous)."""

    def __init__(self, handle: Any = None, exec_sync: bool = False) -> None:
        self.handle = handle
        self.exec_sync = exec_sync

    def wait(self) -> None:
        """Block until the operation has completed."""

    def __repr__(self) -> str:
        return "CommHandle(handle=None)"


def _async(name: str, out: Tensor, async_op: Any) -> tuple:
    if not isinstance(async_op, bool):
        raise TypeError(f"For '{name}', 'async_op' must be a bool, but got "
                        f"{type(async_op).__name__}.")
    return (out, CommHandle() if async_op else None)


def all_reduce(tensor: Tensor, op: str = ReduceOp.SUM,
               group: str = GlobalComm.WORLD_COMM_GROUP, async_op: bool = False) -> tuple:
    """``(reduction op of tensor over the ranks of group, handle)``."""
    check_tensor("all_reduce", tensor)
    out = P.all_reduce(tensor, op=check_op("all_reduce", op),
                       group=check_group("all_reduce", group))
    return _async("all_reduce", out, async_op)


def all_gather_into_tensor(tensor: Tensor, group: str = GlobalComm.WORLD_COMM_GROUP,
                           async_op: bool = False) -> tuple:
    """``(the tensors of all ranks concatenated along axis 0, handle)``."""
    check_tensor("all_gather_into_tensor", tensor)
    out = P.all_gather(tensor, group=check_group("all_gather_into_tensor", group))
    return _async("all_gather_into_tensor", out, async_op)


def reduce_scatter_tensor(tensor: Tensor, op: str = ReduceOp.SUM,
                          group: str = GlobalComm.WORLD_COMM_GROUP,
                          async_op: bool = False) -> tuple:
    """``(this rank's block along axis 0 of the reduction over the ranks, handle)``."""
    check_tensor("reduce_scatter_tensor", tensor)
    out = P.reduce_scatter(tensor, op=check_op("reduce_scatter_tensor", op),
                           group=check_group("reduce_scatter_tensor", group))
    return _async("reduce_scatter_tensor", out, async_op)


def broadcast(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """Rank ``src``'s ``tensor`` on every rank of ``group``."""
    check_tensor("broadcast", tensor)
    if not isinstance(src, int) or isinstance(src, bool):
        raise TypeError(f"For 'broadcast', 'src' must be an int, but got "
                        f"{type(src).__name__}.")
    return P.broadcast(tensor, root=src, group=check_group("broadcast", group))


def reduce(tensor: Tensor, dst: int, op: str = ReduceOp.SUM,
           group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """The reduction over the ranks on rank ``dst`` (a world rank); the other ranks get
    their own ``tensor`` back (MindSpore gives them a value of no meaning)."""
    check_tensor("reduce", tensor)
    out = P.all_reduce(tensor, op=check_op("reduce", op), group=check_group("reduce", group))
    return out if communicator(group, "reduce").rank == _group_rank(group, dst) else tensor


def _group_rank(group: str, world_rank: int) -> int:
    return get_group_rank_from_world_rank(world_rank, group)


def all_to_all_single(tensor: Tensor, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """Split ``tensor`` along axis 0 into one block per rank, send block j to rank j, and
    concatenate the blocks received (in rank order) along axis 0."""
    check_tensor("all_to_all_single", tensor)
    n = get_group_size(check_group("all_to_all_single", group))
    return P.all_to_all(tensor, split_count=n, split_dim=0, concat_dim=0, group=group)


def _world_rank(name: str, arg: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{name}', '{arg}' must be an int, but got "
                        f"{type(value).__name__}.")
    return value


def gather_into_tensor(tensor: Tensor, dst: int = 0,
                       group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """The tensors of all ranks concatenated along axis 0, on rank ``dst`` (a world rank);
    the other ranks get a ``[1]``-shaped value of no meaning (zero), as in MindSpore."""
    check_tensor("gather_into_tensor", tensor)
    dst = _world_rank("gather_into_tensor", "dst", dst)
    group = check_group("gather_into_tensor", group)
    return P.gather(tensor, root=_group_rank(group, dst), group=group)


def scatter_tensor(tensor: Tensor, src: int = 0,
                   group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """Rank ``src``'s (a world rank) ``tensor`` split along axis 0 into one block per rank:
    rank r of the group gets block r (the other ranks' ``tensor`` gives only the shape)."""
    check_tensor("scatter_tensor", tensor)
    src = _world_rank("scatter_tensor", "src", src)
    group = check_group("scatter_tensor", group)
    return P.scatter(tensor, root=_group_rank(group, src), group=group)


def barrier(group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
    """Return once every rank of ``group`` has called it."""
    communicator(check_group("barrier", group), "barrier").Barrier()
