"""Collectives and data-parallel training on 2 real MPI processes (tests/mpi_worker.py):
one launch through ``mpirun -n 2 mindgrad run``, one through ``mindgrad msrun``. Needs mpi4py
and an MPI launcher (the ``test`` extra installs both from PyPI)."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("mpi4py", reason="mpi4py (pip install 'mindgrad[mpi]') runs the 2-rank tests")

from mindgrad.cli import _find_mpirun, mpi_environment  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "mpi_worker.py")
sys.path.insert(0, HERE)
import mpi_worker as W  # noqa: E402

MPIRUN = _find_mpirun()
pytestmark = pytest.mark.skipif(MPIRUN is None, reason="no mpirun: pip install 'mindgrad[mpi]'")


def _launch(cmd: list, outdir: str, part: str) -> list:
    proc = subprocess.run(cmd, env=mpi_environment(), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return [dict(np.load(os.path.join(outdir, f"{part}_{r}.npz"))) for r in range(2)]


@pytest.fixture(scope="module")
def coll(tmp_path_factory) -> list:
    out = str(tmp_path_factory.mktemp("coll"))
    return _launch([MPIRUN, "-n", "2", sys.executable, "-m", "mindgrad", "run", WORKER,
                    "collectives", out], out, "collectives")


@pytest.fixture(scope="module")
def train_dir(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("train"))


@pytest.fixture(scope="module")
def trained(train_dir) -> list:
    return _launch([sys.executable, "-m", "mindgrad", "msrun", "--worker_num=2",
                    "--local_worker_num=2", WORKER, "train", train_dir], train_dir, "train")


IN = [W.inputs(0), W.inputs(1)]


def test_ranks(coll):
    assert coll[0]["rank_size"].tolist() == [0, 2, 0, 2]
    assert coll[1]["rank_size"].tolist() == [1, 2, 1, 2]


@pytest.mark.parametrize("op,fn", [("sum", np.add), ("max", np.maximum), ("min", np.minimum),
                                   ("prod", np.multiply)])
def test_all_reduce_values(coll, op, fn):
    want = fn(IN[0]["mx"], IN[1]["mx"])
    for r in range(2):
        np.testing.assert_allclose(coll[r][f"all_reduce_{op}"], want)
        np.testing.assert_allclose(coll[r]["all_reduce_avg"], (IN[0]["mx"] + IN[1]["mx"]) / 2)
        assert coll[r]["all_reduce_int"].dtype == np.int32
        np.testing.assert_array_equal(coll[r]["all_reduce_int"], IN[0]["i"] + IN[1]["i"])


def test_other_collectives(coll):
    gathered = np.concatenate([IN[0]["g"], IN[1]["g"]])
    summed = IN[0]["s"] + IN[1]["s"]
    for r in range(2):
        np.testing.assert_array_equal(coll[r]["all_gather"], gathered)
        np.testing.assert_array_equal(coll[r]["reduce_scatter"], summed[2 * r:2 * r + 2])
        np.testing.assert_array_equal(coll[r]["broadcast"], IN[1]["x"])
        np.testing.assert_array_equal(coll[r]["broadcast_op"], IN[0]["x"])
        # block r (along axis 1) of every rank's input, concatenated along axis 0
        want = np.concatenate([np.split(IN[j]["a"], 2, axis=1)[r] for j in range(2)], axis=0)
        np.testing.assert_array_equal(coll[r]["all_to_all"], want)
        np.testing.assert_array_equal(coll[r]["group_pair_sum"], IN[0]["x"] + IN[1]["x"])
    # rank_ids [1, 0]: world rank 1 is rank 0 of the group
    assert coll[0]["group_pair"].tolist() == [1, 2] and coll[1]["group_pair"].tolist() == [0, 2]
    np.testing.assert_array_equal(coll[1]["group_solo_sum"], IN[1]["x"])


def test_collective_gradients(coll):
    # f_r = sum(c_r * collective(x)) on each rank r; c_r = r + 1 for the all-reduces
    c = [np.full((2, 2), 1.0 + r, np.float32) for r in range(2)]
    mx = [IN[r]["mx"] for r in range(2)]
    total = c[0] + c[1]
    top, low, prod = np.maximum(*mx), np.minimum(*mx), mx[0] * mx[1]
    for r in range(2):
        got = coll[r]
        np.testing.assert_allclose(got["grad_all_reduce_sum"], total)
        np.testing.assert_allclose(got["grad_all_reduce_avg"], total / 2)
        np.testing.assert_allclose(got["grad_all_reduce_max"], total * (mx[r] == top))
        np.testing.assert_allclose(got["grad_all_reduce_min"], total * (mx[r] == low))
        np.testing.assert_allclose(got["grad_all_reduce_prod"], total * prod / mx[r])
        # all-gather's gradient: the sum over ranks of their weights on this rank's block
        np.testing.assert_allclose(got["grad_all_gather"],
                                   sum(IN[j]["cg"][2 * r:2 * r + 2] for j in range(2)))
        # reduce-scatter's: the weights of all ranks gathered
        np.testing.assert_allclose(got["grad_reduce_scatter"],
                                   np.concatenate([IN[j]["cs"] for j in range(2)]))
        # broadcast's: everything to the root (rank 1), zero elsewhere
        np.testing.assert_allclose(got["grad_broadcast"],
                                   IN[0]["c"] + IN[1]["c"] if r == 1 else np.zeros(3))
        # comm_func.reduce: rank 0 gets its input back (its own weights) and, as every
        # rank, the transpose of the all-reduce rank 1's result came from
        c = [IN[j]["c"] for j in range(2)]
        np.testing.assert_allclose(got["grad_reduce"], c[1] + (c[0] if r == 0 else 0))
        # an AllReduce only rank 0 uses (rank 1 returns its input)
        np.testing.assert_allclose(got["grad_unused"], c[0] + (c[1] if r == 1 else 0))
        # all-to-all's: the weights sent back the other way
        want = np.concatenate([np.split(IN[j]["ca"], 2, axis=0)[r] for j in range(2)], axis=1)
        np.testing.assert_allclose(got["grad_all_to_all"], want)


def _all_to_all(blocks_of: list, r: int) -> np.ndarray:
    """AlltoAll(2, 1, 0) on rank r: block r (axis 1) of every rank's input, along axis 0."""
    return np.concatenate([np.split(b, 2, axis=1)[r] for b in blocks_of], axis=0)


def test_collective_forward_mode(coll):
    # the tangent of a collective is that collective of the tangents (all-reduce MAX/MIN:
    # the winning ranks' tangents, averaged over ties; PROD: the product rule)
    T = [W.tangents(0), W.tangents(1)]
    mx, tm = [IN[r]["mx"] for r in range(2)], [T[r]["mx"] for r in range(2)]
    prod = mx[0] * mx[1]

    def winners(top):
        w = [(m == top).astype(np.float32) for m in mx]
        return (tm[0] * w[0] + tm[1] * w[1]) / (w[0] + w[1])

    for r in range(2):
        got = coll[r]
        np.testing.assert_allclose(got["jvp_all_reduce_sum"], tm[0] + tm[1])
        np.testing.assert_allclose(got["jvp_all_reduce_avg"], (tm[0] + tm[1]) / 2)
        np.testing.assert_allclose(got["jvp_all_reduce_max"], winners(np.maximum(*mx)))
        np.testing.assert_allclose(got["jvp_all_reduce_min"], winners(np.minimum(*mx)))
        np.testing.assert_allclose(got["jvp_all_reduce_prod"],
                                   prod * (tm[0] / mx[0] + tm[1] / mx[1]), rtol=1e-6)
        np.testing.assert_allclose(got["jvp_all_gather"],
                                   np.concatenate([T[0]["g"], T[1]["g"]]))
        np.testing.assert_allclose(got["jvp_reduce_scatter"],
                                   (T[0]["s"] + T[1]["s"])[2 * r:2 * r + 2])
        np.testing.assert_allclose(got["jvp_broadcast"], T[1]["x"])
        np.testing.assert_allclose(got["jvp_all_to_all"], _all_to_all([T[0]["a"], T[1]["a"]], r))


def test_collective_vmap_and_functional_forms(coll):
    mx = [IN[r]["mx"] for r in range(2)]
    for r in range(2):
        got = coll[r]
        np.testing.assert_array_equal(got["vmap_all_reduce_max"], np.maximum(*mx).T)
        np.testing.assert_array_equal(got["vmap_broadcast"], mx[1].T)
        # reduce: the result on rank dst only
        np.testing.assert_array_equal(got["reduce_to_1"], np.maximum(IN[0]["x"], IN[1]["x"])
                                      if r == 1 else IN[0]["x"])
        np.testing.assert_array_equal(got["all_to_all_single"], np.concatenate(
            [IN[0]["s"][2 * r:2 * r + 2], IN[1]["s"][2 * r:2 * r + 2]]))
        assert got["all_gather_async"].tolist() == [True]


def test_gather_and_scatter(coll):
    T = [W.tangents(0), W.tangents(1)]
    for r in range(2):
        got = coll[r]
        # to / from world rank 1; the other rank's gather result is a [1]-shaped zero
        if r == 1:
            np.testing.assert_array_equal(got["gather"], np.concatenate([IN[0]["g"],
                                                                         IN[1]["g"]]))
            np.testing.assert_allclose(got["jvp_gather"], np.concatenate([T[0]["g"],
                                                                          T[1]["g"]]))
        else:
            assert got["gather"].shape == (1,) and got["gather"].dtype == np.float32
            np.testing.assert_array_equal(got["jvp_gather"], np.zeros(1))
        np.testing.assert_array_equal(got["scatter"], IN[1]["s"][2 * r:2 * r + 2])
        np.testing.assert_array_equal(got["scatter_op"], IN[0]["s"][2 * r:2 * r + 2])
        np.testing.assert_allclose(got["jvp_scatter"], T[1]["s"][2 * r:2 * r + 2])
        # gather's gradient: this rank's block of rank 1's weights; scatter's: every rank's
        # weights gathered on rank 1, zero on the other
        np.testing.assert_allclose(got["grad_gather"], IN[1]["cg"][2 * r:2 * r + 2])
        np.testing.assert_allclose(got["grad_scatter"],
                                   np.concatenate([IN[0]["cs"], IN[1]["cs"]]) if r == 1
                                   else np.zeros((4, 2)))


def test_graph_mode_keeps_the_order(coll):
    # program order (the outputs are returned in another order); a gradient's reverse pass
    # runs the transposed collectives in reverse order after the forward ones
    for r in range(2):
        got = coll[r]
        assert got["graph_order"].tolist() == ["AllGather", "Broadcast", "ReduceScatter",
                                               "AlltoAll", "AllReduce"]
        assert got["graph_grad_order"].tolist() == ["AllGather", "ReduceScatter", "AlltoAll",
                                                    "AlltoAll", "AllGather", "ReduceScatter"]
        x = [IN[j]["x"] for j in range(2)]
        np.testing.assert_array_equal(got["graph_order_0"], np.maximum(*x))
        np.testing.assert_array_equal(got["graph_order_1"],
                                      _all_to_all([IN[0]["a"], IN[1]["a"]], r))
        np.testing.assert_array_equal(got["graph_order_2"],
                                      (IN[0]["s"] + IN[1]["s"])[2 * r:2 * r + 2])
        np.testing.assert_array_equal(got["graph_order_3"], x[1])
        np.testing.assert_array_equal(got["graph_order_4"],
                                      np.concatenate([IN[0]["g"], IN[1]["g"]]))
        # the compiled gradients are the op-by-op ones
        for k, name in enumerate(("grad_all_gather", "grad_reduce_scatter", "grad_all_to_all")):
            np.testing.assert_allclose(got[f"graph_grad_order_{k}"], got[name])


def test_grad_reducer_buckets(coll):
    # [x, 2 mx] | [mx (float16)] | [g]: cut by dtype, and by all_reduce_fusion_config at 3
    assert coll[0]["reducer_buckets"].tolist() == [2, 1, 1]
    for r in range(2):
        got = coll[r]
        np.testing.assert_allclose(got["reducer_0"], (IN[0]["x"] + IN[1]["x"]) / 2)
        np.testing.assert_allclose(got["reducer_1"], IN[0]["mx"] + IN[1]["mx"])
        assert got["reducer_2"].dtype == np.float16
        np.testing.assert_allclose(got["reducer_2"], (IN[0]["mx"] + IN[1]["mx"]) / 2)
        np.testing.assert_allclose(got["reducer_3"], (IN[0]["g"] + IN[1]["g"]) / 2)
        # f_r = sum over the two outputs of x's mean over the ranks, weighted by c_r: each
        # gives (c_0 + c_1) / 2
        np.testing.assert_allclose(got["grad_bucket"], IN[0]["c"] + IN[1]["c"])
        # rank 0 uses both outputs, rank 1 none: (2 c_0) / 2
        np.testing.assert_allclose(got["grad_bucket_unused"], IN[0]["c"])


def test_graph_mode_keeps_every_collective(coll):
    # the unused one, the repeated one and the one of a constant all run on every call
    for r in range(2):
        assert coll[r]["graph_calls"].tolist() == [4]
        np.testing.assert_allclose(coll[r]["graph_value"],
                                   2 * (IN[0]["x"] + IN[1]["x"]) + 4.0)


@pytest.mark.parametrize("kind", ["pynative", "graph", "custom", "model"])
def test_data_parallel_equals_one_process(trained, kind):
    from mindgrad.compat import install, uninstall

    install()
    try:
        ref = W.train_reference("graph" if kind == "graph" else "pynative")
    finally:
        uninstall()
    init = {p.name: p.asnumpy() for p in _fresh_net()}
    for name, want in ref.items():
        assert np.abs(want - init[name]).max() > 1e-3  # training moved it
        for r in range(2):
            np.testing.assert_allclose(trained[r][f"{kind}/{name}"], want, atol=1e-5, rtol=0)


def _fresh_net():
    from mindgrad.compat import install, uninstall

    install()
    try:
        return list(W._net(0).get_parameters())
    finally:
        uninstall()


def test_data_parallel_checkpoints(trained, train_dir):
    # MindSpore's ModelCheckpoint names a file {prefix}-{epoch}_{step}.ckpt with no rank in
    # it; each rank gives its own directory (rank_<id>). 3 steps, one file per step, the
    # newest 2 kept. Ranks sharing a directory write the same names and values: the newest 1
    # is kept and neither rank trips over the files the other one removed.
    from mindgrad import load_checkpoint

    want = {k[len("model/"):]: v for k, v in trained[0].items()
            if k.startswith("model/") and k != "model/checkpoints"}
    for r in range(2):
        own = os.path.join(train_dir, f"rank_{r}")
        assert sorted(os.listdir(own)) == ["dp-1_2.ckpt", "dp-1_3.ckpt"]
        shared = os.path.join(train_dir, "shared")
        assert trained[r]["model/checkpoints"].tolist() == [
            os.path.join(os.path.realpath(own), "dp-1_3.ckpt"),
            os.path.join(os.path.realpath(shared), "dp-1_3.ckpt")]
    assert sorted(os.listdir(os.path.join(train_dir, "shared"))) == ["dp-1_3.ckpt"]
    for path in (f"rank_0/dp-1_3.ckpt", f"rank_1/dp-1_3.ckpt", "shared/dp-1_3.ckpt"):
        loaded = load_checkpoint(os.path.join(train_dir, path))
        assert {"moments.0.weight", "global_step"} <= set(loaded)  # the optimizer's too
        for name, value in want.items():
            np.testing.assert_array_equal(loaded[name].asnumpy(), value)


def test_msrun_with_a_hostfile(tmp_path):
    # several machines: msrun's workers on the hosts of an MPI host file (here this machine,
    # with 2 slots) and the msrun flags MPI does not need accepted
    (tmp_path / "hosts").write_text("localhost slots=2\n")
    script = tmp_path / "ranks.py"
    script.write_text("import sys\n"
                      "from mindspore.communication import get_group_size, get_rank, init\n"
                      "init()\n"
                      "open(f'{sys.argv[1]}/rank_{get_rank()}.txt', 'w').write("
                      "f'{get_rank()} {get_group_size()}')\n")
    proc = subprocess.run([sys.executable, "-m", "mindgrad", "msrun", "--worker_num=2",
                           "--local_worker_num=1", "--hostfile", str(tmp_path / "hosts"),
                           "--master_port=8118", "--node_rank=0", str(script), str(tmp_path)],
                          env=mpi_environment(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for r in range(2):
        assert (tmp_path / f"rank_{r}.txt").read_text() == f"{r} 2"


# --- SyncBatchNorm on 2 ranks against BatchNorm on the whole batch in one process ----------
@pytest.fixture(scope="module")
def syncbn(tmp_path_factory) -> list:
    out = str(tmp_path_factory.mktemp("syncbn"))
    return _launch([MPIRUN, "-n", "2", sys.executable, "-m", "mindgrad", "run", WORKER,
                    "syncbn", out], out, "syncbn")


def _syncbn_reference(case: str, rows: slice = slice(None)) -> dict:
    from mindgrad.compat import install, uninstall

    x, w = W.syncbn_data(case)
    install()
    try:
        return W.syncbn_steps(W.syncbn_layer(case, alone=True), x[rows], w[rows],
                              graph=case.endswith("graph"))
    finally:
        uninstall()


def _syncbn_check(ranks: list, case: str, refs: list, split: list) -> None:
    """Rank r's outputs and input gradients are rows ``split[r]`` of ``refs[r]``'s, the
    ranks' weight gradients sum to the reference's (what data parallelism all-reduces) and
    the moving statistics of every rank are the reference's."""
    # around 3000, float32's spacing (2.4e-4) bounds how well even the one-process
    # reference centres the values; float32 sums of squares would miss by 1e-2
    tol, wtol = (5e-4, 4e-3) if case.endswith("far") else (2e-5, 2e-5)
    got = [{k.split("/", 1)[1]: v for k, v in ranks[r].items() if k.startswith(case + "/")}
           for r in range(2)]
    assert got[0] and set(got[0]) == set(refs[0])
    for key in refs[0]:
        if key[:1] == "y" or key[:2] == "dx" or key == "eval":
            for r in range(2):
                np.testing.assert_allclose(got[r][key], refs[r][key][split[r]], rtol=1e-5,
                                           atol=tol, err_msg=f"{case} {key} rank {r}")
        elif key[:1] == "d":
            total = got[0][key] + got[1][key]
            np.testing.assert_allclose(total, refs[0][key] if refs[0] is refs[1]
                                       else refs[0][key] + refs[1][key], rtol=1e-5,
                                       atol=wtol, err_msg=f"{case} {key}")
        else:
            for r in range(2):
                np.testing.assert_allclose(got[r][key], refs[r][key], rtol=1e-5,
                                           atol=1e-6, err_msg=f"{case} {key} rank {r}")


@pytest.mark.parametrize("case", ["nn4d", "nn2d_uneven", "nn4d_graph", "nn_groups_pair",
                                  "mint4d", "mint_group", "mint3d", "nn2d_far"])
def test_sync_batch_norm_global_batch(syncbn, case):
    ref = _syncbn_reference(case)
    _syncbn_check(syncbn, case, [ref, ref], [W.syncbn_rows(case, r) for r in range(2)])


def test_sync_batch_norm_alone_in_its_group(syncbn):
    # process_groups=[[0], [1]]: each rank is BatchNorm on its own half only
    case = "nn_groups_alone"
    refs = [_syncbn_reference(case, W.syncbn_rows(case, r)) for r in range(2)]
    # the ranks' statistics differ, so the check takes rank r's from refs[r]
    _syncbn_check(syncbn, case, refs, [slice(None), slice(None)])
    assert not np.allclose(syncbn[0][f"{case}/moving_mean"], syncbn[1][f"{case}/moving_mean"])
