"""mindspore.communication and the data-parallel settings in one process (no MPI launch):
the single-process defaults, the errors, the auto-parallel context, gradient buckets and
the msrun command's checks. The 2-rank runs are in test_comm_mpi.py."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import nn, ops
from mindgrad.cli import main
from mindgrad.communication import (GlobalComm, comm_func, create_group, get_group_size,
                                    get_local_rank, get_local_rank_size, get_rank, init,
                                    release)
from mindgrad.nn.grad_reducer import plan_buckets


@pytest.fixture(autouse=True)
def _reset():
    yield
    ms.reset_auto_parallel_context()


def test_single_process_defaults(monkeypatch):
    assert (get_rank(), get_group_size(), get_local_rank(), get_local_rank_size()) == (0, 1, 0, 1)
    assert not GlobalComm.INITED and GlobalComm.WORLD_COMM_GROUP == "hccl_world_group"
    release()  # nothing to release: harmless


def test_init_without_launcher(monkeypatch):
    for var in ("OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS",
                "SLURM_PROCID"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(RuntimeError, match="not started by an MPI launcher"):
        init()
    with pytest.raises(RuntimeError, match="'backend_name' must be one of"):
        init("gloo")
    assert not GlobalComm.INITED


def test_collectives_need_init():
    x = ms.Tensor(np.ones(3, np.float32))
    for call in (lambda: ops.AllReduce()(x), lambda: comm_func.all_gather_into_tensor(x),
                 lambda: comm_func.broadcast(x), lambda: create_group("g", [0]),
                 lambda: comm_func.gather_into_tensor(x), lambda: ops.CollectiveScatter()(x)):
        with pytest.raises(RuntimeError, match="not initialized"):
            call()
    np.testing.assert_array_equal(x.asnumpy(), np.ones(3))


def test_bad_arguments():
    with pytest.raises(ValueError, match="'op' must be one of"):
        ops.AllReduce("mean")
    with pytest.raises(TypeError, match="'group' must be a str"):
        ops.AllGather(group=0)
    with pytest.raises(TypeError, match="'root_rank' must be an int"):
        ops.Broadcast(1.0)
    with pytest.raises(TypeError, match="input must be a Tensor"):
        comm_func.all_reduce(np.ones(3))
    with pytest.raises(TypeError, match="'dest_rank' must be an int"):
        ops.CollectiveGather(1.0)
    with pytest.raises(TypeError, match="For 'scatter_tensor', 'src' must be an int"):
        comm_func.scatter_tensor(ms.Tensor(np.ones(2, np.float32)), src=True)
    assert ops.ReduceOp.SUM == "sum" and ops.ReduceOp.PROD == "prod"


def test_auto_parallel_context():
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("device_num") == 1  # the group size until set
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True, device_num=2)
    assert ms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    assert ms.get_auto_parallel_context("gradients_mean") is True
    assert ms.context.get_auto_parallel_context("device_num") == 2
    with pytest.raises(TypeError, match="gradients_mean"):
        ms.set_auto_parallel_context(gradients_mean=1)
    with pytest.raises(ValueError, match="only support"):
        ms.set_auto_parallel_context(parallel_mode="model_parallel")
    with pytest.raises(ValueError, match="mindgrad does not do"):
        ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
    with pytest.raises(ValueError, match="not recognized"):
        ms.set_auto_parallel_context(foo=1, gradients_mean=False)
    with pytest.raises(ValueError, match="not recognized"):
        ms.get_auto_parallel_context("foo")
    assert ms.get_auto_parallel_context("gradients_mean") is True  # a refused call sets nothing
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("gradients_mean") is False


def test_plan_buckets():
    f32, f16 = np.dtype(np.float32), np.dtype(np.float16)
    shapes = [(10, 10), (10,), (5, 5), (3,), (100,)]
    # by size: 400 + 40 bytes fit in 448, the 100 bytes after them do not
    assert plan_buckets(shapes, [f32] * 5, limit=448) == [[0, 1], [2, 3], [4]]
    assert plan_buckets(shapes, [f32] * 5, limit=512) == [[0, 1], [2, 3, 4]]
    assert plan_buckets(shapes, [f32] * 5, limit=10**6) == [[0, 1, 2, 3, 4]]
    # a dtype change starts a bucket; all_reduce_fusion_config's indices cut
    assert plan_buckets(shapes, [f32, f32, f16, f16, f32], limit=10**6) == [[0, 1], [2, 3], [4]]
    assert plan_buckets(shapes, [f32] * 5, split_indices=[2, 4]) == [[0, 1], [2, 3], [4]]


def test_stand_alone_training_has_no_reducer():
    net = nn.Dense(2, 1)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params(), 0.1))
    assert step.reducer_flag is False
    grads = (ms.Tensor([1.0]),)
    assert step.grad_reducer(grads) is grads


def test_data_parallel_needs_init():
    ms.set_auto_parallel_context(parallel_mode="data_parallel")
    net = nn.Dense(2, 1)
    with pytest.raises(RuntimeError, match="not initialized"):
        nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                            nn.SGD(net.trainable_params(), 0.1))


def test_msrun_argument_errors(capsys):
    assert main(["msrun", "--worker_num=4", "--local_worker_num=2", "train.py"]) == 2
    assert "--hostfile" in capsys.readouterr().err
    assert main(["msrun", "--worker_num=2", "--local_worker_num=3", "train.py"]) == 2
    assert "can not exceed" in capsys.readouterr().err
    assert main(["msrun", "--worker_num=0", "--local_worker_num=0", "train.py"]) == 2
