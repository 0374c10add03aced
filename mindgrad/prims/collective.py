"""Collective communication primitives over MPI: all_reduce, all_gather, reduce_scatter,
broadcast, all_to_all, gather and scatter (to and from one root rank), with their reverse,
forward and (where elementwise) batching rules.

Every rank runs the same program, so every rank reaches the same collectives in the same
order, the reverse pass included (all-reduce's cotangent is an all-reduce, all-gather's a
reduce-scatter and reduce-scatter's an all-gather, broadcast's a sum sent back to the root,
all-to-all's the all-to-all the other way, gather's a scatter and scatter's a gather). They are ``effect`` primitives: the GRAPH-mode
passes never fold, merge, remove or reorder them, since the other ranks wait for each one.

Arrays travel as host memory through mpi4py's buffer interface (a CuPy array is copied to
the host and back). float16 is reduced in float32, MPI having no half type.
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..communication.management import communicator, get_rank
from ..core.primitive import Primitive
from . import arith as A
from . import compare as C
from . import structural as S
from ..core.primitive import MissingRuleError

REDUCE_OPS = ("sum", "max", "min", "prod", "avg")


def _host(x: Any) -> tuple[np.ndarray, bool]:
    """``x`` as a C-contiguous NumPy array, and whether it came from the GPU."""
    if isinstance(x, (np.ndarray, np.generic)):
        return np.ascontiguousarray(x), False
    if hasattr(x, "__cuda_array_interface__"):
        import cupy

        return cupy.asnumpy(x), True
    return np.ascontiguousarray(np.asarray(x)), False


def _back(a: np.ndarray, gpu: bool) -> Any:
    if gpu:
        import cupy

        return cupy.asarray(a)
    return a


def _mpi_op(name: str, op: str) -> Any:
    from mpi4py import MPI

    return {"sum": MPI.SUM, "avg": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN,
            "prod": MPI.PROD}[op]


def _reducible(name: str, a: np.ndarray, op: str) -> np.ndarray:
    """The array MPI reduces for ``a``: float16 widened to float32; TypeError for the
    dtypes a reduction has no meaning for."""
    kind = a.dtype.kind
    if kind == "b" or (kind == "c" and op in ("max", "min")) or (kind in "iu" and op == "avg"):
        raise TypeError(f"For '{name}', op '{op}' does not support inputs of dtype "
                        f"{a.dtype}.")
    if a.dtype == np.float16:
        return a.astype(np.float32)
    return a


def _all_reduce_impl(x: Any, op: str, group: str) -> Any:
    comm = communicator(group, "AllReduce")
    a, gpu = _host(x)
    work = _reducible("AllReduce", a, op)
    out = np.empty_like(work)
    comm.Allreduce(work, out, op=_mpi_op("AllReduce", op))
    if op == "avg":
        out /= comm.size
    return _back(out.astype(a.dtype, copy=False), gpu)


def _all_gather_impl(x: Any, group: str) -> Any:
    comm = communicator(group, "AllGather")
    a, gpu = _host(x)
    if a.ndim == 0:
        raise ValueError("For 'AllGather', the input must have at least 1 dimension, but got "
                         "a scalar.")
    out = np.empty((comm.size * a.shape[0],) + a.shape[1:], a.dtype)
    comm.Allgather(a, out)
    return _back(out, gpu)


def _reduce_scatter_impl(x: Any, op: str, group: str) -> Any:
    comm = communicator(group, "ReduceScatter")
    a, gpu = _host(x)
    if a.ndim == 0 or a.shape[0] % comm.size:
        raise ValueError(f"For 'ReduceScatter', the first dimension of the input must be "
                         f"divisible by the group size {comm.size}, but got shape "
                         f"{list(a.shape)}.")
    work = _reducible("ReduceScatter", a, op)
    out = np.empty((a.shape[0] // comm.size,) + a.shape[1:], work.dtype)
    comm.Reduce_scatter_block(work, out, op=_mpi_op("ReduceScatter", op))
    if op == "avg":
        out /= comm.size
    return _back(out.astype(a.dtype, copy=False), gpu)


def _broadcast_impl(x: Any, root: int, group: str) -> Any:
    comm = communicator(group, "Broadcast")
    if not 0 <= root < comm.size:
        raise ValueError(f"For 'Broadcast', 'root_rank' must be in [0, {comm.size}), but got "
                         f"{root}.")
    a, gpu = _host(x)
    out = a.copy() if comm.rank == root else np.empty_like(a)
    comm.Bcast(out, root=root)
    return _back(out, gpu)


def _all_to_all_impl(x: Any, split_count: int, split_dim: int, concat_dim: int,
                     group: str) -> Any:
    comm = communicator(group, "AlltoAll")
    a, gpu = _host(x)
    n = comm.size
    if split_count != n:
        raise ValueError(f"For 'AlltoAll', 'split_count' must equal the group size {n}, but "
                         f"got {split_count}.")
    for name, d in (("split_dim", split_dim), ("concat_dim", concat_dim)):
        if not -a.ndim <= d < a.ndim:
            raise ValueError(f"For 'AlltoAll', '{name}' must be in [{-a.ndim}, {a.ndim}), "
                             f"but got {d} for an input of shape {list(a.shape)}.")
    if a.shape[split_dim] % n:
        raise ValueError(f"For 'AlltoAll', dimension {split_dim} of the input (shape "
                         f"{list(a.shape)}) must be divisible by 'split_count' {n}.")
    send = np.ascontiguousarray(np.stack(np.split(a, n, axis=split_dim)))
    recv = np.empty_like(send)
    comm.Alltoall(send, recv)
    return _back(np.concatenate(list(recv), axis=concat_dim), gpu)


def _root(name: str, comm: Any, root: int) -> int:
    if not 0 <= root < comm.size:
        raise ValueError(f"For '{name}', the root rank must be in [0, {comm.size}) (a rank of "
                         f"the group), but got {root}.")
    return root


def _gather_impl(x: Any, root: int, group: str) -> Any:
    comm = communicator(group, "CollectiveGather")
    _root("CollectiveGather", comm, root)
    a, gpu = _host(x)
    if a.ndim == 0:
        raise ValueError("For 'CollectiveGather', the input must have at least 1 dimension, "
                         "but got a scalar.")
    if comm.rank != root:  # MindSpore's other ranks get a [1]-shaped value of no meaning
        comm.Gather(a, None, root=root)
        return _back(np.zeros(1, a.dtype), gpu)
    out = np.empty((comm.size * a.shape[0],) + a.shape[1:], a.dtype)
    comm.Gather(a, out, root=root)
    return _back(out, gpu)


def _scatter_impl(x: Any, root: int, group: str) -> Any:
    comm = communicator(group, "CollectiveScatter")
    _root("CollectiveScatter", comm, root)
    a, gpu = _host(x)
    if a.ndim == 0 or a.shape[0] % comm.size:
        raise ValueError(f"For 'CollectiveScatter', the first dimension of the input must be "
                         f"divisible by the group size {comm.size}, but got shape "
                         f"{list(a.shape)}.")
    out = np.empty((a.shape[0] // comm.size,) + a.shape[1:], a.dtype)
    comm.Scatter(a if comm.rank == root else None, out, root=root)
    return _back(out, gpu)


# "collective": the reverse pass runs the transpose on every rank, also on one whose result
# reached no output there (comm_func.reduce off its dst rank, an unused result)
_COLLECTIVE = {"collective": True}
all_reduce = Primitive("AllReduce", _all_reduce_impl, effect=True, hints=_COLLECTIVE)
all_gather = Primitive("AllGather", _all_gather_impl, effect=True, hints=_COLLECTIVE)
reduce_scatter = Primitive("ReduceScatter", _reduce_scatter_impl, effect=True,
                           hints=_COLLECTIVE)
broadcast = Primitive("Broadcast", _broadcast_impl, effect=True, hints=_COLLECTIVE)
all_to_all = Primitive("AlltoAll", _all_to_all_impl, effect=True, hints=_COLLECTIVE)
gather = Primitive("CollectiveGather", _gather_impl, effect=True, hints=_COLLECTIVE)
scatter = Primitive("CollectiveScatter", _scatter_impl, effect=True, hints=_COLLECTIVE)


# --- reverse rules ----------------------------------------------------------------------
def _winners(x: Any, ans: Any) -> Any:
    """1 where this rank's element is the max/min of all ranks (each tied rank gets the
    whole cotangent, as MindSpore's rule does), 0 elsewhere."""
    return S.cast(C.equal(x, ans), dtype=S.dtype_of(x))


def _all_reduce_vjp(g: Any, ans: Any, x: Any, op: str, group: str) -> Any:
    # every rank's output depends on this rank's input: the cotangents of all ranks add up
    if op == "avg":
        return all_reduce(g, op="avg", group=group)
    total = all_reduce(g, op="sum", group=group)
    if op == "sum":
        return total
    if op == "prod":  # d(prod_r x_r)/dx = prod / x (x = 0 gives nan, as MindSpore's rule)
        return A.div(A.mul(total, ans), x)
    return A.mul(total, _winners(x, ans))


def _all_reduce_jvp(t: Any, ans: Any, x: Any, op: str, group: str) -> Any:
    if op in ("sum", "avg"):
        return all_reduce(t, op=op, group=group)
    if op == "prod":
        return A.mul(all_reduce(A.div(t, x), op="sum", group=group), ans)
    w = _winners(x, ans)
    return A.div(all_reduce(A.mul(t, w), op="sum", group=group),
                 all_reduce(w, op="sum", group=group))


all_reduce.vjp = (_all_reduce_vjp,)
all_reduce.jvp = (_all_reduce_jvp,)
all_reduce.batch = lambda vals, dims, op, group: (all_reduce(vals[0], op=op, group=group),
                                                  dims[0])

all_gather.vjp = (lambda g, ans, x, group: reduce_scatter(g, op="sum", group=group),)
all_gather.jvp = (lambda t, ans, x, group: all_gather(t, group=group),)


def _linear_only(name: str, op: str) -> None:
    if op not in ("sum", "avg"):

        raise MissingRuleError(f"For '{name}', only op 'sum' and 'avg' can be "
                               f"differentiated, but got op '{op}'.")


def _reduce_scatter_vjp(g: Any, ans: Any, x: Any, op: str, group: str) -> Any:
    _linear_only("ReduceScatter", op)
    out = all_gather(g, group=group)
    if op == "avg":
        out = A.div(out, communicator(group, "ReduceScatter").size)
    return out


def _reduce_scatter_jvp(t: Any, ans: Any, x: Any, op: str, group: str) -> Any:
    _linear_only("ReduceScatter", op)
    return reduce_scatter(t, op=op, group=group)


reduce_scatter.vjp = (_reduce_scatter_vjp,)
reduce_scatter.jvp = (_reduce_scatter_jvp,)


def _broadcast_vjp(g: Any, ans: Any, x: Any, root: int, group: str) -> Any:
    # only the root's input reaches the outputs: it gets every rank's cotangent
    total = all_reduce(g, op="sum", group=group)
    return total if get_rank(group) == root else S.zeros_like(x)


broadcast.vjp = (_broadcast_vjp,)
broadcast.jvp = (lambda t, ans, x, root, group: broadcast(t, root=root, group=group),)
broadcast.batch = lambda vals, dims, root, group: (broadcast(vals[0], root=root, group=group),
                                                   dims[0])

all_to_all.vjp = (lambda g, ans, x, split_count, split_dim, concat_dim, group:
                  all_to_all(g, split_count=split_count, split_dim=concat_dim,
                             concat_dim=split_dim, group=group),)
all_to_all.jvp = (lambda t, ans, x, split_count, split_dim, concat_dim, group:
                  all_to_all(t, split_count=split_count, split_dim=split_dim,
                             concat_dim=concat_dim, group=group),)


def _gather_vjp(g: Any, ans: Any, x: Any, root: int, group: str) -> Any:
    # each rank's input is its block of the root's output: the root's cotangent, scattered
    # (the other ranks' outputs mean nothing; their scatter input only gives the shape)
    if communicator(group, "CollectiveGather").rank != root:
        size = communicator(group, "CollectiveGather").size
        g = S.concat(*[S.zeros_like(x)] * size, axis=0)
    return scatter(g, root=root, group=group)


def _scatter_vjp(g: Any, ans: Any, x: Any, root: int, group: str) -> Any:
    # only the root's input is read: it gets every rank's cotangent, gathered
    dx = gather(g, root=root, group=group)
    return dx if communicator(group, "CollectiveScatter").rank == root else S.zeros_like(x)


gather.vjp = (_gather_vjp,)
gather.jvp = (lambda t, ans, x, root, group: gather(t, root=root, group=group),)
scatter.vjp = (_scatter_vjp,)
scatter.jvp = (lambda t, ans, x, root, group: scatter(t, root=root, group=group),)


# --- a bucket of gradients in one call --------------------------------------------------
# Bucket buffers kept for the next step: MPI moves a buffer it has seen before much faster
# (a large message between processes of one machine maps the memory it copies from, and
# caches that mapping), and a new buffer costs its page faults besides.
_POOL: dict = {}


def _buffer(dtype: np.dtype, size: int) -> np.ndarray:
    """A buffer of ``size`` elements: the pooled one of that dtype and size when nothing
    holds a view of it any longer (a step's reduced gradients are views of their bucket's
    buffer, so it is reused only once they are all gone), else a new one, pooled."""
    key = (dtype.str, size)
    buf = _POOL.get(key)
    # references: the pool's and getrefcount's argument; a live view would add its own
    if buf is not None and sys.getrefcount(buf) == 3:
        return buf
    if len(_POOL) >= 16:
        _POOL.clear()
    buf = _POOL[key] = np.empty(size, dtype)
    return buf


def _bucket_impl(*xs: Any, divisor: int, group: str) -> tuple:
    """The sums over the ranks of several arrays of one dtype, each divided by ``divisor``
    (the sum of the divided values: exact for a power-of-two divisor, else within one
    rounding): one buffer is filled with them, all-reduced in place, and the results are
    views of it. (The same with the flattening primitives costs two more passes over the
    bytes and two more buffers.)"""
    comm = communicator(group, "AllReduce")
    host = [_host(x) for x in xs]
    dtype = host[0][0].dtype
    if any(a.dtype != dtype for a, _ in host):
        raise TypeError(f"For 'AllReduce', a bucket must hold one dtype, but got "
                        f"{sorted({str(a.dtype) for a, _ in host})}.")
    work = _reducible("AllReduce", host[0][0][:0], "sum").dtype
    if divisor != 1 and work.kind not in "fc":
        raise TypeError(f"For 'AllReduce', a mean needs float inputs, but got {dtype}.")
    sizes = [a.size for a, _ in host]
    buf = _buffer(work, sum(sizes))
    start = 0
    for (a, _), n in zip(host, sizes):
        # the division happens while copying in (one pass over the bytes, not two)
        if divisor != 1:
            np.divide(a.reshape(-1), divisor, out=buf[start:start + n])
        else:
            buf[start:start + n] = a.reshape(-1)
        start += n
    from mpi4py import MPI

    comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)
    outs = []
    start = 0
    for (a, gpu), n in zip(host, sizes):
        outs.append(_back(buf[start:start + n].reshape(a.shape).astype(dtype, copy=False), gpu))
        start += n
    return tuple(outs)


all_reduce_bucket = Primitive("AllReduceBucket", _bucket_impl, multiple_results=True,
                              effect=True, hints=_COLLECTIVE)
# the map is linear and symmetric across the ranks: its transpose is itself
all_reduce_bucket.vjp_all = lambda gs, ans, *xs, divisor, group: list(
    all_reduce_bucket(*gs, divisor=divisor, group=group))
all_reduce_bucket.jvp_all = lambda primals, tangents, divisor, group: (
    all_reduce_bucket(*primals, divisor=divisor, group=group),
    all_reduce_bucket(*[S.zeros_like(p) if t is None else t
                        for p, t in zip(primals, tangents)], divisor=divisor, group=group))
