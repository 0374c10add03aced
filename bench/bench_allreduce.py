"""mindgrad's all-reduce of a model's gradients against a bare mpi4py ``Allreduce`` of the
same bytes, on every rank of an MPI launch:

    .venv/bin/mindgrad msrun --worker_num=2 --local_worker_num=2 bench/bench_allreduce.py
    .venv/bin/mindgrad msrun --worker_num=2 --local_worker_num=2 bench/bench_allreduce.py --width 2048

The gradients are those of an MLP 784-W-W-10 (float32; W=512 by default). Timed, round-robin
(``--repeats`` rounds, medians reported by rank 0):

- ``mpi4py``: ``COMM_WORLD.Allreduce`` of one preallocated float32 buffer of all the bytes;
- ``mindgrad bucketed``: ``nn.DistributedGradReducer(params, mean=True)(grads)``, the
  reduction ``TrainOneStepCell`` runs: flatten into buckets, all-reduce, average, split;
- ``mindgrad per tensor``: one ``ops.AllReduce`` per gradient (no buckets), for contrast.

The results are checked against the mpi4py sums first. "bandwidth" is the bytes over the
median time, as a fraction of mpi4py's.

``--step`` times a training step of that MLP (TrainOneStepCell, Momentum, softmax cross
entropy, PYNATIVE) instead: rank 0 alone on the global batch (``--batch``, the others
waiting) against every rank on its share of it in data-parallel mode, round-robin.
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=512, help="hidden width of the MLP")
    ap.add_argument("--repeats", type=int, default=41)
    ap.add_argument("--step", action="store_true", help="time a training step instead")
    ap.add_argument("--batch", type=int, default=256, help="global batch of --step")
    args = ap.parse_args()
    if args.step:
        return step_bench(args)

    import mindgrad as ms
    from mindgrad import nn, ops
    from mindgrad.communication import get_group_size, get_rank, init
    from mpi4py import MPI

    init()
    rank, size = get_rank(), get_group_size()
    w = args.width
    ms.set_seed(rank)
    net = nn.SequentialCell(nn.Dense(784, w), nn.ReLU(), nn.Dense(w, w), nn.ReLU(),
                            nn.Dense(w, 10))
    params = net.trainable_params()
    rng = np.random.default_rng(rank)
    grads = tuple(ms.Tensor(rng.standard_normal(p.shape).astype(np.float32)) for p in params)
    nbytes = sum(g.asnumpy().nbytes for g in grads)

    comm = MPI.COMM_WORLD
    flat = np.concatenate([g.asnumpy().reshape(-1) for g in grads])
    recv = np.empty_like(flat)
    reducer = nn.DistributedGradReducer(params, mean=True, degree=size)
    per_tensor = ops.AllReduce()

    # correctness first: mindgrad's averages are mpi4py's sums over the group size
    comm.Allreduce(flat, recv)
    got = np.concatenate([g.asnumpy().reshape(-1) for g in reducer(grads)])
    np.testing.assert_allclose(got, recv / size, rtol=1e-6, atol=1e-6)

    def bare() -> None:
        comm.Allreduce(flat, recv)

    def bucketed() -> None:
        reducer(grads)

    def each() -> None:
        for g in grads:
            per_tensor(g)

    cases = {"mpi4py Allreduce (one buffer)": bare, "mindgrad bucketed (DistributedGradReducer)":
             bucketed, "mindgrad per tensor (ops.AllReduce each)": each}
    times: dict = {k: [] for k in cases}
    for fn in cases.values():  # warm up
        fn()
    for _ in range(args.repeats):
        for name, fn in cases.items():
            comm.Barrier()
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    # a rank's time is the slowest rank's (the collective ends for all together)
    med = {}
    for k, v in times.items():
        slowest = np.empty(len(v))
        comm.Allreduce(np.array(v), slowest, op=MPI.MAX)
        med[k] = float(np.median(slowest))
    if rank == 0:
        ref = med["mpi4py Allreduce (one buffer)"]
        print(f"{size} ranks, MLP 784-{w}-{w}-10: {len(grads)} gradients, "
              f"{nbytes / 2**20:.2f} MiB float32, median of {args.repeats} rounds")
        for name, t in med.items():
            print(f"  {name:44s} {t * 1e3:8.3f} ms  {nbytes / t / 2**30:6.2f} GiB/s  "
                  f"bandwidth {ref / t:5.1%} of mpi4py")


def step_bench(args) -> None:
    import mindgrad as ms
    from mindgrad import nn
    from mindgrad.communication import get_group_size, get_rank, init
    from mpi4py import MPI

    init()
    rank, size = get_rank(), get_group_size()
    comm = MPI.COMM_WORLD
    w, b = args.width, args.batch
    rng = np.random.default_rng(0)
    x = rng.standard_normal((b, 784)).astype(np.float32)
    y = rng.integers(0, 10, b).astype(np.int32)

    def make():
        ms.set_seed(0)
        net = nn.SequentialCell(nn.Dense(784, w), nn.ReLU(), nn.Dense(w, w), nn.ReLU(),
                                nn.Dense(w, 10))
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        return nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                                   nn.Momentum(net.trainable_params(), 0.01, 0.9))

    single = make()  # stand-alone: made before the data-parallel mode is set
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True)
    parallel = make()
    n = b // size
    xs, ys = ms.Tensor(x[rank * n:(rank + 1) * n]), ms.Tensor(y[rank * n:(rank + 1) * n])
    xa, ya = ms.Tensor(x), ms.Tensor(y)
    t_one, t_dp = [], []
    for i in range(args.repeats + 2):
        comm.Barrier()
        t0 = time.perf_counter()
        if rank == 0:
            single(xa, ya)
        t1 = time.perf_counter()
        comm.Barrier()
        t2 = time.perf_counter()
        parallel(xs, ys)
        t3 = time.perf_counter()
        if i >= 2:  # the first rounds warm up
            t_one.append(t1 - t0)
            t_dp.append(t3 - t2)
    slowest = np.empty(len(t_dp))
    comm.Allreduce(np.array(t_dp), slowest, op=MPI.MAX)
    if rank == 0:
        one, dp = float(np.median(t_one)), float(np.median(slowest))
        print(f"MLP 784-{w}-{w}-10 training step, global batch {b}, median of {args.repeats}")
        print(f"  1 rank, batch {b}:            {one * 1e3:8.2f} ms")
        print(f"  {size} ranks, batch {n} each:     {dp * 1e3:8.2f} ms  ({one / dp:.2f}x)")


if __name__ == "__main__":
    main()
