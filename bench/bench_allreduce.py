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
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=512, help="hidden width of the MLP")
    ap.add_argument("--repeats", type=int, default=41)
    args = ap.parse_args()

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


if __name__ == "__main__":
    main()
