"""MindSpore's collective operator classes (``ops.AllReduce``, ``ops.AllGather``,
``ops.ReduceScatter``, ``ops.Broadcast``, ``ops.AlltoAll``, ``ops.CollectiveGather``,
``ops.CollectiveScatter``) and ``ReduceOp``, over the MPI
primitives of prims/collective.py. They need ``mindspore.communication.init()`` first."""
from __future__ import annotations

from typing import Any

from ...core.tensor import Tensor
from ...communication.management import GlobalComm
from ...prims import collective as P
from ..primitive import Primitive


class ReduceOp:
    """The element-wise reductions of ``AllReduce`` and ``ReduceScatter``."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"


def check_op(name: str, op: Any) -> str:
    if not isinstance(op, str):
        raise TypeError(f"For '{name}', 'op' must be a str, but got {type(op).__name__}.")
    if op not in P.REDUCE_OPS:
        raise ValueError(f"For '{name}', 'op' must be one of {', '.join(P.REDUCE_OPS)}, but "
                         f"got '{op}'.")
    return op


def check_group(name: str, group: Any) -> str:
    if not isinstance(group, str):
        raise TypeError(f"For '{name}', 'group' must be a str, but got "
                        f"{type(group).__name__}.")
    return group


def check_tensor(name: str, x: Any) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got "
                        f"{type(x).__name__}.")
    return x


def _int(name: str, arg: str, v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"For '{name}', '{arg}' must be an int, but got {type(v).__name__}.")
    return v


class AllReduce(Primitive):
    """The element-wise reduction ``op`` of the input over the ranks of ``group``; every
    rank gets the result. Its gradient is the all-reduce (sum) of the output's gradients."""

    def __init__(self, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP
                 ) -> None:
        super().__init__("AllReduce")
        self.op = check_op("AllReduce", op)
        self.group = check_group("AllReduce", group)

    def __call__(self, x: Tensor) -> Tensor:
        return P.all_reduce(check_tensor("AllReduce", x), op=self.op, group=self.group)


class AllGather(Primitive):
    """The inputs of all ranks of ``group`` concatenated along axis 0 in rank order. Its
    gradient is the reduce-scatter (sum) of the output's gradients."""

    def __init__(self, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__("AllGather")
        self.group = check_group("AllGather", group)

    def __call__(self, x: Tensor) -> Tensor:
        return P.all_gather(check_tensor("AllGather", x), group=self.group)


class ReduceScatter(Primitive):
    """The reduction ``op`` over the ranks, split along axis 0 into one block per rank:
    rank r gets block r. Its gradient is the all-gather of the output's gradients."""

    def __init__(self, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP
                 ) -> None:
        super().__init__("ReduceScatter")
        self.op = check_op("ReduceScatter", op)
        self.group = check_group("ReduceScatter", group)

    def __call__(self, x: Tensor) -> Tensor:
        return P.reduce_scatter(check_tensor("ReduceScatter", x), op=self.op,
                                group=self.group)


class Broadcast(Primitive):
    """Every rank gets rank ``root_rank``'s values of a tuple of tensors (each of the same
    shape and dtype on every rank); returns a tuple."""

    def __init__(self, root_rank: int, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__("Broadcast")
        self.root_rank = _int("Broadcast", "root_rank", root_rank)
        self.group = check_group("Broadcast", group)

    def __call__(self, x: Any) -> tuple:
        if isinstance(x, Tensor):
            x = (x,)
        if not isinstance(x, (tuple, list)):
            raise TypeError(f"For 'Broadcast', the input must be a tuple of Tensors, but got "
                            f"{type(x).__name__}.")
        return tuple(P.broadcast(check_tensor("Broadcast", t), root=self.root_rank,
                                 group=self.group) for t in x)


class AlltoAll(Primitive):
    """Split the input along ``split_dim`` into ``split_count`` (the group size) blocks,
    send block j to rank j, and concatenate the blocks received along ``concat_dim``."""

    def __init__(self, split_count: int, split_dim: int, concat_dim: int,
                 group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__("AlltoAll")
        self.split_count = _int("AlltoAll", "split_count", split_count)
        self.split_dim = _int("AlltoAll", "split_dim", split_dim)
        self.concat_dim = _int("AlltoAll", "concat_dim", concat_dim)
        self.group = check_group("AlltoAll", group)

    def __call__(self, x: Tensor) -> Tensor:
        return P.all_to_all(check_tensor("AlltoAll", x), split_count=self.split_count,
                            split_dim=self.split_dim, concat_dim=self.concat_dim,
                            group=self.group)


class CollectiveGather(Primitive):
    """The inputs of all ranks of ``group`` concatenated along axis 0 in rank order, on rank
    ``dest_rank`` of the group only; the other ranks get a ``[1]``-shaped value of no
    meaning (zero). Its gradient is the scatter of ``dest_rank``'s output gradient."""

    def __init__(self, dest_rank: int, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__("CollectiveGather")
        self.dest_rank = _int("CollectiveGather", "dest_rank", dest_rank)
        self.group = check_group("CollectiveGather", group)

    def __call__(self, x: Tensor) -> Tensor:
        return P.gather(check_tensor("CollectiveGather", x), root=self.dest_rank,
                        group=self.group)


class CollectiveScatter(Primitive):
    """Rank ``src_rank``'s input split along axis 0 into one block per rank of ``group``:
    rank r gets block r (the other ranks' inputs give only the shape). Its gradient is the
    gather of the output gradients to ``src_rank`` (zero on the other ranks)."""

    def __init__(self, src_rank: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__("CollectiveScatter")
        self.src_rank = _int("CollectiveScatter", "src_rank", src_rank)
        self.group = check_group("CollectiveScatter", group)

    def __call__(self, x: Tensor) -> Tensor:
        return P.scatter(check_tensor("CollectiveScatter", x), root=self.src_rank,
                         group=self.group)


__all__ = ["ReduceOp", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AlltoAll",
           "CollectiveGather", "CollectiveScatter"]
