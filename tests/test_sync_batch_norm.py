"""``nn.SyncBatchNorm`` and ``mint.nn.SyncBatchNorm`` in one process: exactly BatchNorm
(values, gradients, moving statistics, training and evaluation), and their argument checks.
The synchronization over 2 MPI ranks is checked in tests/test_comm_mpi.py."""
from __future__ import annotations

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, mint, nn


def _data(shape: tuple, seed: int = 0) -> tuple:
    rng = np.random.default_rng(seed)
    return ((rng.standard_normal(shape) * 2.0 + 1.0).astype(np.float32),
            rng.standard_normal(shape).astype(np.float32))


def _run(bn, x: np.ndarray, w: np.ndarray, train: bool) -> list:
    """Output, input gradient and weight gradients of ``sum(bn(x) * w)`` for two steps, then
    the non-trainable Parameters."""
    params = bn.trainable_params()
    weights = Tensor(w)

    def loss(x):
        y = bn(x)
        return (y * weights).sum(), y

    step = ms.value_and_grad(loss, 0, params, has_aux=True)
    bn.set_train(train)
    got = []
    for xk in (x, x * 0.5 + 2.0):
        (_, y), (dx, dparams) = step(Tensor(xk))
        got += [y.asnumpy(), dx.asnumpy()] + [g.asnumpy() for g in dparams]
    return got + [p.asnumpy() for p in bn.get_parameters() if not p.requires_grad]


def _assert_same(a: list, b: list) -> None:
    assert len(a) == len(b)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)


@pytest.mark.parametrize("shape,plain", [((6, 3), nn.BatchNorm1d), ((5, 3, 4), nn.BatchNorm1d),
                                         ((4, 3, 2, 3), nn.BatchNorm2d)])
@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("use_batch", [None, True, False])
def test_nn_sync_batch_norm_is_batch_norm_alone(shape, plain, train, use_batch):
    x, w = _data(shape)
    kw = dict(momentum=0.7, gamma_init="normal", beta_init="normal",
              moving_var_init="ones", use_batch_statistics=use_batch)
    ms.set_seed(3)
    sync = nn.SyncBatchNorm(3, **kw)
    ms.set_seed(3)
    ref = plain(3, **kw)
    want = _run(ref, x, w, train)
    _assert_same(_run(sync, x, w, train), want)
    moved = train if use_batch is None else use_batch
    assert np.abs(sync.moving_mean.asnumpy()).max() > 0.05 if moved else \
        np.array_equal(sync.moving_mean.asnumpy(), np.zeros(3, np.float32))


@pytest.mark.parametrize("groups", [None, 0, [[0]], [[0], []]])
def test_nn_sync_batch_norm_groups_alone(groups):
    x, w = _data((4, 3, 2, 2), 1)
    sync = nn.SyncBatchNorm(3, process_groups=groups)
    assert sync.group_name is None and not sync.is_global
    _assert_same(_run(sync, x, w, True), _run(nn.BatchNorm2d(3), x, w, True))


@pytest.mark.parametrize("shape,plain", [((6, 3), mint.nn.BatchNorm1d),
                                         ((5, 3, 4), mint.nn.BatchNorm1d),
                                         ((4, 3, 2, 3), mint.nn.BatchNorm2d),
                                         ((2, 3, 2, 2, 2), mint.nn.BatchNorm3d)])
@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("track", [True, False])
def test_mint_sync_batch_norm_is_batch_norm_alone(shape, plain, train, track):
    x, w = _data(shape, 2)
    sync = mint.nn.SyncBatchNorm(3, momentum=0.2, track_running_stats=track)
    ref = plain(3, momentum=0.2, track_running_stats=track)
    assert sync.world_size == 1
    _assert_same(_run(sync, x, w, train), _run(ref, x, w, train))
    # PyTorch's (and MindSpore's mint) layout: running statistics and the batch count only
    # when they are tracked
    names = ["weight", "bias"] + (["running_mean", "running_var", "num_batches_tracked"]
                                  if track else [])
    assert [p.name for p in sync.get_parameters()] == names
    if track:
        assert int(sync.num_batches_tracked) == int(ref.num_batches_tracked) == 2 * train


def test_sync_batch_norm_bad_arguments_name_the_layer():
    with pytest.raises(TypeError, match="SyncBatchNorm.*process_groups.*tuple"):
        nn.SyncBatchNorm(3, process_groups=((0,),))
    with pytest.raises(TypeError, match="SyncBatchNorm.*list of ranks.*tuple"):
        nn.SyncBatchNorm(3, process_groups=[(0,)])
    with pytest.raises(TypeError, match="SyncBatchNorm.*must be int"):
        nn.SyncBatchNorm(3, process_groups=[[0.0]])
    # one process: the only rank is 0
    with pytest.raises(ValueError, match=r"SyncBatchNorm.*\[0, 1\).*got 1"):
        nn.SyncBatchNorm(3, process_groups=[[0, 1]])
    with pytest.raises(ValueError, match="SyncBatchNorm.*must not repeat"):
        nn.SyncBatchNorm(3, process_groups=[[0], [0]])
    with pytest.raises(ValueError, match="SyncBatchNorm.*momentum"):
        nn.SyncBatchNorm(3, momentum=1.5)
    bn = nn.SyncBatchNorm(3)
    x = Tensor(np.ones((2, 3, 2, 2, 2), np.float32))
    with pytest.raises(ValueError, match=r"SyncBatchNorm.*rank in \[2, 3, 4\].*\[2, 3, 2, 2, 2\]"):
        bn(x)
    before = bn.moving_mean.asnumpy().copy()
    with pytest.raises(ValueError, match="SyncBatchNorm.*4 channels"):
        bn(Tensor(np.ones((2, 4), np.float32)))
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), before)
    with pytest.raises(TypeError, match="mint.nn.SyncBatchNorm.*process_group.*list"):
        mint.nn.SyncBatchNorm(3, process_group=[[0]])
    m = mint.nn.SyncBatchNorm(3)
    with pytest.raises(ValueError, match=r"mint.nn.SyncBatchNorm.*at least 2.*\(3,\)"):
        m(Tensor(np.ones(3, np.float32)))
    with pytest.raises(ValueError, match="mint.nn.SyncBatchNorm.*2 channels"):
        m(Tensor(np.ones((4, 2), np.float32)))
    np.testing.assert_array_equal(m.running_var.asnumpy(), np.ones(3, np.float32))
