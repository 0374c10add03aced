"""Run by tests/test_comm_mpi.py on 2 MPI processes (``mpirun -n 2 mindgrad run
tests/mpi_worker.py PART OUTDIR`` or ``mindgrad msrun``): each rank computes with mindgrad's
collectives and writes what it got to OUTDIR/PART_<rank>.npz, which the test checks against
NumPy. The inputs are functions of the rank (``inputs``) so the test can form them too."""
from __future__ import annotations

import os
import sys

import numpy as np


def inputs(rank: int) -> dict:
    """Each rank's operands (the test forms both ranks' to compute the expected values)."""
    r = rank
    return {
        "x": np.array([1.0 + r, -2.0 * r, 3.0], np.float32),
        "mx": np.array([[1.0, 5.0], [3.0 - 3 * r, 2.0 + 2 * r]], np.float32) + r,
        "c": np.array([0.5 + r, 2.0, -1.0 - r], np.float32),           # cotangent weights
        "g": np.arange(4, dtype=np.float32).reshape(2, 2) + 10 * r,     # all_gather input
        "cg": np.arange(8, dtype=np.float32).reshape(4, 2) * (r + 1),   # its weights
        "s": np.arange(8, dtype=np.float32).reshape(4, 2) - 3 * r,      # reduce_scatter input
        "cs": np.array([[1.0, -1.0], [2.0, 0.5]], np.float32) * (r + 2),
        "a": np.arange(12, dtype=np.float32).reshape(2, 6) + 100 * r,   # all_to_all input
        "ca": np.arange(12, dtype=np.float32).reshape(4, 3) * (1 - 2 * r),
        "i": np.array([3, -1, 7], np.int32) * (r + 1),
    }


def tangents(rank: int) -> dict:
    """Each rank's tangents for the forward-mode checks (shapes of ``inputs``)."""
    x = inputs(rank)
    return {"mx": np.full((2, 2), 1.0 + rank, np.float32) + x["mx"] * 0.25,
            "g": x["g"] * 0.5 + 1.0, "s": x["s"] * -2.0 + rank, "x": x["c"] * 3.0,
            "a": x["a"] * 0.1 - rank}


def collectives(out: dict, outdir: str) -> None:
    import mindspore as ms
    from mindspore import Tensor, ops
    from mindspore.communication import (comm_func, create_group, destroy_group, get_group_size,
                                         get_local_rank, get_local_rank_size, get_rank, init)

    init()
    rank = get_rank()
    v = {k: Tensor(a) for k, a in inputs(rank).items()}
    out["rank_size"] = np.array([rank, get_group_size(), get_local_rank(),
                                 get_local_rank_size()])
    for op in ("sum", "max", "min", "prod", "avg"):
        out[f"all_reduce_{op}"] = ops.AllReduce(op)(v["mx"]).asnumpy()
    out["all_reduce_int"] = comm_func.all_reduce(v["i"])[0].asnumpy()
    out["all_gather"] = comm_func.all_gather_into_tensor(v["g"])[0].asnumpy()
    out["reduce_scatter"] = comm_func.reduce_scatter_tensor(v["s"])[0].asnumpy()
    out["broadcast"] = comm_func.broadcast(v["x"], src=1).asnumpy()
    out["broadcast_op"] = ops.Broadcast(0)((v["x"],))[0].asnumpy()
    out["all_to_all"] = ops.AlltoAll(2, 1, 0)(v["a"]).asnumpy()
    # groups: both ranks, then rank 1 alone
    create_group("pair", [1, 0])
    out["group_pair"] = np.array([get_rank("pair"), get_group_size("pair")])
    out["group_pair_sum"] = ops.AllReduce(group="pair")(v["x"]).asnumpy()
    destroy_group("pair")
    if rank == 1:
        create_group("solo", [1])
        out["group_solo_sum"] = ops.AllReduce(group="solo")(v["x"]).asnumpy()
        destroy_group("solo")

    # gradients: f = sum(c * collective(x)), differentiated on every rank
    def grad_of(fn, x, c):
        return ms.grad(lambda t: (fn(t) * c).sum())(x).asnumpy()

    for op in ("sum", "max", "min", "prod", "avg"):
        out[f"grad_all_reduce_{op}"] = grad_of(ops.AllReduce(op), v["mx"], v["mx"] * 0 + 1 + rank)
    out["grad_all_gather"] = grad_of(ops.AllGather(), v["g"], v["cg"])
    out["grad_reduce_scatter"] = grad_of(ops.ReduceScatter(), v["s"], v["cs"])
    out["grad_broadcast"] = grad_of(lambda t: comm_func.broadcast(t, src=1), v["x"], v["c"])
    # a collective whose result only some ranks use: every rank still runs its transpose
    # (else the ranks that used it would wait forever)
    out["grad_reduce"] = grad_of(lambda t: comm_func.reduce(t, dst=1), v["x"], v["c"])
    out["grad_unused"] = grad_of(lambda t: ops.AllReduce()(t) if rank == 0 else
                                 (ops.AllReduce()(t), t)[1], v["x"], v["c"])
    out["grad_all_to_all"] = grad_of(ops.AlltoAll(2, 1, 0), v["a"], v["ca"])
    # forward mode: the tangent of each collective (tangents are functions of the rank too)
    t = tangents(rank)
    t = {k: Tensor(a) for k, a in t.items()}
    for op in ("sum", "max", "min", "prod", "avg"):
        out[f"jvp_all_reduce_{op}"] = ms.jvp(ops.AllReduce(op), v["mx"], t["mx"])[1].asnumpy()
    out["jvp_all_gather"] = ms.jvp(ops.AllGather(), v["g"], t["g"])[1].asnumpy()
    out["jvp_reduce_scatter"] = ms.jvp(ops.ReduceScatter(), v["s"], t["s"])[1].asnumpy()
    out["jvp_broadcast"] = ms.jvp(lambda u: comm_func.broadcast(u, src=1), v["x"],
                                  t["x"])[1].asnumpy()
    out["jvp_all_to_all"] = ms.jvp(ops.AlltoAll(2, 1, 0), v["a"], t["a"])[1].asnumpy()
    # vmap of the elementwise ones: mapped over axis 1, stacked on axis 0 (the transpose)
    out["vmap_all_reduce_max"] = ms.vmap(ops.AllReduce("max"), in_axes=1,
                                         out_axes=0)(v["mx"]).asnumpy()
    out["vmap_broadcast"] = ms.vmap(lambda u: comm_func.broadcast(u, src=1), in_axes=1,
                                    out_axes=0)(v["mx"]).asnumpy()
    # the other functional forms
    out["reduce_to_1"] = comm_func.reduce(v["x"], dst=1, op="max").asnumpy()
    out["all_to_all_single"] = comm_func.all_to_all_single(v["s"]).asnumpy()
    out["all_gather_async"] = np.array([comm_func.all_gather_into_tensor(
        v["g"], async_op=True)[1] is not None])
    comm_func.barrier()
    # gather to / scatter from one rank (world rank 1), values, gradients, tangents
    out["gather"] = comm_func.gather_into_tensor(v["g"], dst=1).asnumpy()
    out["scatter"] = comm_func.scatter_tensor(v["s"], src=1).asnumpy()
    out["scatter_op"] = ops.CollectiveScatter(0)(v["s"]).asnumpy()
    out["grad_gather"] = grad_of(lambda u: comm_func.gather_into_tensor(u, dst=1), v["g"],
                                 v["cg"] if rank == 1 else v["cg"][:1, :1].reshape(1))
    out["grad_scatter"] = grad_of(lambda u: comm_func.scatter_tensor(u, src=1), v["s"], v["cs"])
    out["jvp_gather"] = ms.jvp(lambda u: comm_func.gather_into_tensor(u, dst=1), v["g"],
                               t["g"])[1].asnumpy()
    out["jvp_scatter"] = ms.jvp(lambda u: comm_func.scatter_tensor(u, src=1), v["s"],
                                t["s"])[1].asnumpy()

    # DistributedGradReducer: buckets cut by all_reduce_fusion_config and by dtype, a mean
    from mindspore import Parameter, nn

    grads = (v["x"], v["mx"] * 2, v["mx"].astype(ms.float16), v["g"])
    ms.set_auto_parallel_context(all_reduce_fusion_config=[3])
    reducer = nn.DistributedGradReducer([Parameter(g, name=f"p{k}") for k, g in
                                         enumerate(grads)], mean=True)
    out["reducer_buckets"] = np.array([len(b) for b in reducer._buckets])
    for k, g in enumerate(reducer(grads)):
        out[f"reducer_{k}"] = g.asnumpy()
    # the bucket's gradient is the bucket all-reduce of the cotangents (x twice in one)
    out["grad_bucket"] = ms.grad(lambda a: sum((o * v["c"]).sum() for o in reducer(
        (a, a, grads[2], grads[3]))[:2]))(v["x"]).asnumpy()
    out["grad_bucket_unused"] = ms.grad(lambda a: sum(
        ((o * v["c"]).sum() for o in reducer((a, a, grads[2], grads[3]))[:2 - 2 * rank]),
        (a * 0).sum()))(v["x"]).asnumpy()
    ms.reset_auto_parallel_context()

    # GRAPH mode: the collectives are never folded (a constant input), merged (the same one
    # twice) or removed (an unused result): count the MPI calls of a compiled call
    from mindgrad.prims import collective as P

    calls = []
    impl = P.all_reduce.impl
    P.all_reduce.impl = lambda *a, **k: (calls.append(1), impl(*a, **k))[1]
    const = Tensor(np.full(3, 2.0, np.float32))

    @ms.jit
    def step(t):
        ops.AllReduce()(t * 3)  # result unused
        return ops.AllReduce()(t) + ops.AllReduce()(t) + ops.AllReduce()(const)

    first = step(v["x"]).asnumpy()
    before = len(calls)
    out["graph_value"] = step(v["x"]).asnumpy()
    out["graph_calls"] = np.array([len(calls) - before])
    P.all_reduce.impl = impl
    assert np.allclose(first, out["graph_value"])

    # GRAPH mode runs the collectives in the program's order (no data dependency orders
    # them here; the outputs are returned in another order), the reverse pass's too:
    # record which collective each MPI call is, on a compiled call
    prims = [P.all_reduce, P.all_gather, P.reduce_scatter, P.broadcast, P.all_to_all]
    impls = {p: p.impl for p in prims}
    order: list = []
    for p in prims:
        p.impl = (lambda name, f: lambda *a, **k: (order.append(name), f(*a, **k))[1])(
            p.name, impls[p])

    @ms.jit
    def program(x, g, s, a):
        u = ops.AllGather()(g)
        w = comm_func.broadcast(x, src=1)
        r = ops.ReduceScatter()(s)
        y = ops.AlltoAll(2, 1, 0)(a)
        z = ops.AllReduce("max")(x)
        return z, y, r, w, u

    @ms.jit
    def program_grad(x, g, s, a):
        # forward AllGather, ReduceScatter, AlltoAll; reverse in the opposite order:
        # AlltoAll back, ReduceScatter's all-gather, AllGather's reduce-scatter
        return ms.grad(lambda g, s, a: (ops.AllGather()(g) * v["cg"]).sum()
                       + (ops.ReduceScatter()(s) * v["cs"]).sum()
                       + (ops.AlltoAll(2, 1, 0)(a) * v["ca"]).sum(), (0, 1, 2))(g, s, a)

    args = (v["x"], v["g"], v["s"], v["a"])
    for fn, name in ((program, "graph_order"), (program_grad, "graph_grad_order")):
        fn(*args)
        order.clear()
        result = fn(*args)
        out[name] = np.array(order)
        for k, r in enumerate(result):
            out[f"{name}_{k}"] = r.asnumpy()
    for p in prims:
        p.impl = impls[p]


def _net(seed: int):
    import mindspore as ms
    from mindspore import nn

    ms.set_seed(seed)
    return nn.SequentialCell(nn.Dense(4, 8), nn.Tanh(), nn.Dense(8, 2))


def batch(steps: int = 3, size: int = 8) -> list:
    """The global batches of the training check (the same on every rank and in the test)."""
    rng = np.random.default_rng(7)
    return [(rng.standard_normal((size, 4)).astype(np.float32),
             rng.standard_normal((size, 2)).astype(np.float32)) for _ in range(steps)]


def train_reference(mode: str) -> dict:
    """One process training on the whole global batches (what the ranks must match)."""
    import mindspore as ms
    from mindspore import Tensor, nn

    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    net = _net(0)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    for x, y in batch():
        step(Tensor(x), Tensor(y))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return {p.name: p.asnumpy() for p in net.get_parameters()}


def train(out: dict, outdir: str) -> None:
    import mindspore as ms
    from mindspore import Tensor, nn
    from mindspore.communication import get_group_size, get_rank, init
    from mindspore.train import CheckpointConfig, ModelCheckpoint

    init()
    rank, size = get_rank(), get_group_size()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    # TrainOneStepCell, PYNATIVE and GRAPH; rank 1 starts from other values (broadcast fixes it)
    for mode in ("pynative", "graph"):
        ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
        net = _net(rank)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   nn.Momentum(net.trainable_params(), 0.1, 0.9))
        for x, y in batch():
            n = len(x) // size
            step(Tensor(x[rank * n:(rank + 1) * n]), Tensor(y[rank * n:(rank + 1) * n]))
        for p in net.get_parameters():
            out[f"{mode}/{p.name}"] = p.asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    # a custom loop with DistributedGradReducer (the parameters already start equal)
    net = _net(0)
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    reducer = nn.DistributedGradReducer(opt.parameters, mean=True, degree=size)
    grad_fn = ms.value_and_grad(loss_net, None, opt.parameters)
    for x, y in batch():
        n = len(x) // size
        _, grads = grad_fn(Tensor(x[rank * n:(rank + 1) * n]), Tensor(y[rank * n:(rank + 1) * n]))
        opt(reducer(grads))
    for p in net.get_parameters():
        out[f"custom/{p.name}"] = p.asnumpy()
    # Model.train on the dataset's shard of this rank: rank r gets rows r, r + 2, ..., so
    # its batch k of 4 and the other rank's make up the global batch k of 8. Checkpoints
    # every step: in a directory of this rank's (MindSpore's per-rank layout, rank_<id>),
    # and in one directory both ranks write to (same names, same values)
    net = _net(rank)
    model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    own = ModelCheckpoint("dp", os.path.join(outdir, f"rank_{rank}"),
                          CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=2))
    shared = ModelCheckpoint("dp", os.path.join(outdir, "shared"),
                             CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=1))
    model.train(1, _dataset(size, rank), callbacks=[own, shared], dataset_sink_mode=False)
    out["model/checkpoints"] = np.array([own.latest_ckpt_file_name,
                                         shared.latest_ckpt_file_name])
    for p in net.get_parameters():
        out[f"model/{p.name}"] = p.asnumpy()
    ms.reset_auto_parallel_context()


def _dataset(num_shards: int | None = None, shard_id: int | None = None):
    import mindspore.dataset as ds

    x = np.concatenate([b[0] for b in batch()])
    y = np.concatenate([b[1] for b in batch()])
    per = len(batch()[0][0]) // (num_shards or 1)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False, num_shards=num_shards,
                                 shard_id=shard_id).batch(per)


# --- SyncBatchNorm: statistics over both ranks' halves of a batch ---------------------------
# case -> (layer, input rank, rows of the global batch of 8 on rank 0: rank 1 has the rest)
SYNCBN_CASES = {"nn4d": ("nn", 4, 4), "nn2d_uneven": ("nn", 2, 3), "nn4d_graph": ("nn", 4, 4),
                "nn_groups_pair": ("nn", 4, 4), "nn_groups_alone": ("nn", 4, 4),
                "mint4d": ("mint", 4, 4), "mint_group": ("mint", 4, 4), "mint3d": ("mint", 3, 5),
                "nn2d_far": ("nn", 2, 4)}


def syncbn_data(case: str) -> tuple:
    """The global batch of 8 (channels 3, away from zero; around 3000 for the case
    "far", where float32 sums of squares would lose the variance) and the loss's weights."""
    ndim = SYNCBN_CASES[case][1]
    rng = np.random.default_rng(11 + ndim)
    shape = (8, 3) + (2, 2, 2)[:ndim - 2]
    offset = 3000.0 if case.endswith("far") else 3.0
    x = (rng.standard_normal(shape) * 2.0 + offset).astype(np.float32)
    return x, rng.standard_normal(shape).astype(np.float32)


def syncbn_rows(case: str, rank: int) -> slice:
    first = SYNCBN_CASES[case][2]
    return slice(0, first) if rank == 0 else slice(first, 8)


def syncbn_steps(bn, x: np.ndarray, w: np.ndarray, graph: bool = False) -> dict:
    """Two training steps of ``bn`` (on ``x`` and on ``1.5 x - 1``) with the loss
    ``sum(bn(x) * w)``: the outputs, input and weight gradients of each, the moving
    statistics after them, and the output in evaluation."""
    import mindspore as ms
    from mindspore import Tensor

    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    params = bn.trainable_params()
    weights = Tensor(w)

    def loss(x):
        y = bn(x)
        return (y * weights).sum(), y

    step = ms.value_and_grad(loss, 0, params, has_aux=True)
    out: dict = {}
    bn.set_train(True)
    for k, xk in enumerate((x, x * 1.5 - 1.0)):
        (_, y), (dx, dparams) = step(Tensor(xk))
        out[f"y{k}"], out[f"dx{k}"] = y.asnumpy(), dx.asnumpy()
        for p, g in zip(params, dparams):
            out[f"d{p.name.split('.')[-1]}{k}"] = g.asnumpy()
    for p in bn.get_parameters():
        if not p.requires_grad:
            out[p.name.split(".")[-1]] = p.asnumpy()
    bn.set_train(False)
    out["eval"] = bn(Tensor(x)).asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return out


def syncbn_layer(case: str, alone: bool = False):
    """The layer of ``case``: a plain BatchNorm when ``alone`` (the one-process reference),
    else the SyncBatchNorm of the case."""
    from mindspore import mint, nn

    kind, ndim, _ = SYNCBN_CASES[case]
    if kind == "nn":
        if alone:
            return (nn.BatchNorm2d if ndim == 4 else nn.BatchNorm1d)(3, momentum=0.8)
        groups = {"nn_groups_pair": [[1, 0]], "nn_groups_alone": [[0], [1]]}.get(case)
        return nn.SyncBatchNorm(3, momentum=0.8, process_groups=groups)
    if alone:
        return (mint.nn.BatchNorm2d if ndim == 4 else mint.nn.BatchNorm1d)(3, momentum=0.3)
    return mint.nn.SyncBatchNorm(3, momentum=0.3,
                                 process_group="pair" if case == "mint_group" else None)


def syncbn(out: dict, outdir: str) -> None:
    from mindspore.communication import create_group, get_rank, init

    init()
    rank = get_rank()
    create_group("pair", [0, 1])
    for case in SYNCBN_CASES:
        x, w = syncbn_data(case)
        rows = syncbn_rows(case, rank)
        got = syncbn_steps(syncbn_layer(case), x[rows], w[rows], graph=case.endswith("graph"))
        out.update({f"{case}/{k}": v for k, v in got.items()})


if __name__ == "__main__":
    part, outdir = sys.argv[1], sys.argv[2]
    result: dict = {}
    {"collectives": collectives, "train": train, "syncbn": syncbn}[part](result, outdir)
    from mindspore.communication import get_rank

    np.savez(os.path.join(outdir, f"{part}_{get_rank()}.npz"), **result)
