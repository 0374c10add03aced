"""mindspore.amp and loss scaling against MindSpore 2.10 (tools/record_train_amp.py ->
tests/fixtures/train_amp.json), and the loss-scaled training step."""
import importlib.util
import json
import os

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, amp, nn
from mindgrad.train import DynamicLossScaleManager, FixedLossScaleManager, Model

HERE = os.path.dirname(__file__)
_spec = importlib.util.spec_from_file_location(
    "record_train_amp", os.path.join(HERE, "..", "tools", "record_train_amp.py"))
_rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_rec)
P = _rec.problem()
with open(os.path.join(HERE, "fixtures", "train_amp.json")) as _f:
    REF = json.load(_f)["amp"]


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8, weight_init=Tensor(P["w1"]), bias_init=Tensor(P["b1"]))
        self.bn = nn.BatchNorm1d(8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 3, weight_init=Tensor(P["w2"]), bias_init=Tensor(P["b2"]))

    def construct(self, x):
        return self.fc2(self.relu(self.bn(self.fc1(x))))


def loss_fn():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


@pytest.fixture(params=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=ms.GRAPH_MODE if request.param == "graph" else ms.PYNATIVE_MODE)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("level", ["O0", "O1", "O2", "O3"])
def test_inference_matches_mindspore(level, mode):
    net = Net()
    net.set_train(False)
    out = amp.auto_mixed_precision(net, level)(Tensor(P["x"]))
    assert str(out.dtype) == REF[f"infer_{level}_dtype"] == "Float32"
    # float16 compute gives MindSpore's values to the bit: the same roundings happen
    np.testing.assert_allclose(out.asnumpy(), REF[f"infer_{level}"], rtol=1e-6, atol=1e-7)
    assert sorted({str(p.dtype) for p in net.get_parameters()}) == REF[f"param_dtypes_{level}"]
    if level != "O0":
        assert not np.allclose(out.asnumpy(), REF["infer_O0"], rtol=1e-6, atol=0)
    # the network object handed in is changed in place, as in MindSpore
    np.testing.assert_allclose(net(Tensor(P["x"])).asnumpy().astype(np.float64),
                               REF[f"original_after_{level}"], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("level", ["O0", "O1", "O2", "O3"])
def test_model_training_matches_mindspore(level, mode):
    net = Net()
    kw = {}
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    if level == "O2":
        kw["loss_scale_manager"] = FixedLossScaleManager(1024.0, drop_overflow_update=False)
        opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9,
                          loss_scale=1024.0)
    model = Model(net, loss_fn(), opt, amp_level=level, **kw)
    losses = []
    for _ in range(2):
        for i in range(0, 12, P["batch"]):
            out = model.train_network(Tensor(P["x"][i:i + 4]), Tensor(P["y"][i:i + 4]))
            losses.append([str(out.dtype), float(out.asnumpy())])
    want = REF[f"train_{level}_losses"]
    assert [d for d, _ in losses] == [d for d, _ in want]
    # the backward pass rounds in float16 at other points than MindSpore's kernels
    tol = 1e-6 if level == "O0" else 1e-3
    np.testing.assert_allclose([v for _, v in losses], [v for _, v in want], atol=tol)
    np.testing.assert_allclose(net.fc2.weight.asnumpy(), REF[f"train_{level}_w2"], atol=tol)
    assert str(net.fc2.weight.dtype) == REF[f"train_{level}_w2_dtype"] == "Float32"


def test_levels_cast_where_mindspore_does():
    net = Net()
    wrapped = amp.auto_mixed_precision(net, "O2")
    assert net.fc1._mp_dtype == ms.float16 and net.fc2._mp_dtype == ms.float16
    # BatchNorm is kept float32 and hands float16 on
    assert type(net.bn).__name__ == "_OutputTo16" and net.bn._backbone._mp_dtype == ms.float32
    assert wrapped._amp_level == "O2"
    net = Net()
    amp.auto_mixed_precision(net, "O1")
    assert type(net.fc1).__name__ == "_OutputTo32" and net.fc1._backbone._mp_dtype == ms.float16
    assert net.bn._mp_dtype is None
    # Parameter names (checkpoints) do not change
    assert [p.name for p in net.get_parameters()][:3] == ["fc1.weight", "fc1.bias", "bn.gamma"]
    assert amp.get_white_list()[0] is not None and nn.BatchNorm1d in amp.get_black_list()


def test_o3_gradients_reach_float32_master_weights():
    net = Net()
    wrapped = amp.auto_mixed_precision(net, "O3")
    grads = ms.grad(lambda x: wrapped(x).sum(), None, net.trainable_params())(Tensor(P["x"]))
    assert all(g.dtype == ms.float32 for g in grads)
    assert all(np.abs(g.asnumpy()).sum() > 0 for g in grads)


def test_custom_mixed_precision():
    net = Net()
    out = amp.custom_mixed_precision(net, white_list=[nn.Dense])(Tensor(P["x"]))
    net.set_train(False)
    o1 = Net()
    o1.set_train(False)
    want = amp.auto_mixed_precision(o1, "O1")(Tensor(P["x"]))
    net.set_train(False)
    np.testing.assert_array_equal(net(Tensor(P["x"])).asnumpy(), want.asnumpy())
    assert out.dtype == ms.float32
    with pytest.raises(ValueError, match="exactly one"):
        amp.custom_mixed_precision(Net(), white_list=[nn.Dense], black_list=[nn.BatchNorm1d])


def test_loss_scalers_match_mindspore():
    grads = (Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([[3.0]], np.float16)))
    s = amp.StaticLossScaler(8)
    assert [g.asnumpy().tolist() for g in s.scale(grads)] == REF["static_scale"]
    assert [g.asnumpy().tolist() for g in s.unscale(grads)] == REF["static_unscale"]
    assert [str(g.dtype) for g in s.scale(grads)] == REF["static_scale_dtypes"]
    assert s.adjust(Tensor(True)) is REF["static_adjust"] is False
    d = amp.DynamicLossScaler(1024, 2, 3)
    seq = []
    for finite in (True, True, True, False, True, True, True, True):
        d.adjust(Tensor(finite))
        seq.append([float(d.scale_value.asnumpy()), int(d.counter.asnumpy())])
    assert seq == REF["dynamic_adjust_seq"]
    inf = Tensor(np.array([np.inf], np.float32))
    nan16 = Tensor(np.array([np.nan], np.float16))
    got = [bool(amp.all_finite(grads).asnumpy()), bool(amp.all_finite((grads[0], inf))
                                                       .asnumpy()),
           bool(amp.all_finite((nan16,)).asnumpy())]
    assert got == REF["all_finite"]


def test_loss_scale_manager_and_update_cell_match_mindspore():
    m = DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=2)
    seq = []
    overflows = (False, False, True, False, False, False, True, True)
    for overflow in overflows:
        m.update_loss_scale(overflow)
        seq.append(m.get_loss_scale())
    assert seq == REF["manager_seq"]
    # the update cell that runs inside the training step follows the same rule
    cell = DynamicLossScaleManager(16, 2, 2).get_update_cell()
    scale = ms.Parameter(Tensor(16.0), name="scale")
    got = []
    for overflow in overflows:
        cell(scale, Tensor(overflow))
        got.append(float(scale.asnumpy()))
    assert got == [float(v) for v in REF["manager_seq"]]
    assert FixedLossScaleManager(64, drop_overflow_update=False).get_update_cell() is None
    fixed = FixedLossScaleManager(64).get_update_cell()
    assert isinstance(fixed, nn.FixedLossScaleUpdateCell) and fixed.get_loss_scale() == 64


def test_loss_scaled_step_skips_overflowing_updates(mode):
    net = Net()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    manager = DynamicLossScaleManager(init_loss_scale=2.0 ** 24, scale_factor=2,
                                      scale_window=1000)
    # O2's default: dynamic loss scaling (MindSpore refuses it on its CPU backend; it is
    # its GPU behaviour)
    model = Model(net, loss_fn(), opt, amp_level="O2", loss_scale_manager=manager)
    step = model.train_network
    assert isinstance(step, nn.TrainOneStepWithLossScaleCell)
    x, y = Tensor(P["x"][:4]), Tensor(P["y"][:4])
    before = net.fc2.weight.asnumpy().copy()
    loss, overflow, scale = step(x, y)
    # 2**24 times the loss overflows float16 in the backward pass: no update, scale halved
    assert bool(overflow.asnumpy()) and float(scale.asnumpy()) == 2.0 ** 23
    np.testing.assert_array_equal(net.fc2.weight.asnumpy(), before)
    for _ in range(20):
        loss, overflow, scale = step(x, y)
        if not bool(overflow.asnumpy()):
            break
    assert not bool(overflow.asnumpy()) and float(scale.asnumpy()) <= 2.0 ** 16
    assert not np.array_equal(net.fc2.weight.asnumpy(), before)
    assert loss.dtype == ms.float32


def test_model_train_with_dynamic_scaling_updates_the_manager():
    net = Net()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    manager = DynamicLossScaleManager(init_loss_scale=2.0 ** 20, scale_factor=2,
                                      scale_window=1000)
    model = Model(net, loss_fn(), opt, amp_level="O2", loss_scale_manager=manager)

    class DS:
        def get_dataset_size(self):
            return 3

        def create_tuple_iterator(self, num_epochs=-1):
            return [(Tensor(P["x"][i:i + 4]), Tensor(P["y"][i:i + 4])) for i in (0, 4, 8)]

    model.train(2, DS())
    # each overflowing step halved the host-side scale too
    assert manager.get_loss_scale() < 2.0 ** 20
    assert manager.get_loss_scale() == float(model.train_network.scale_sense.asnumpy())


def test_train_one_step_with_fixed_tensor_scale():
    net = Net()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, loss_fn()), opt,
                                            scale_sense=Tensor(np.float32(256.0)))
    ref_net = Net()
    ref_opt = nn.Momentum(ref_net.trainable_params(), learning_rate=0.1, momentum=0.9)
    ref_step = nn.TrainOneStepCell(nn.WithLossCell(ref_net, loss_fn()), ref_opt)
    x, y = Tensor(P["x"][:4]), Tensor(P["y"][:4])
    loss, overflow, scale = step(x, y)
    ref_loss = ref_step(x, y)
    assert not bool(overflow.asnumpy()) and float(scale.asnumpy()) == 256.0
    assert float(loss.asnumpy()) == pytest.approx(float(ref_loss.asnumpy()), rel=1e-6)
    np.testing.assert_allclose(net.fc2.weight.asnumpy(), ref_net.fc2.weight.asnumpy(),
                               rtol=1e-5, atol=1e-6)
    step.set_sense_scale(Tensor(np.float32(8.0)))
    assert float(step.scale_sense.asnumpy()) == 8.0


def test_bad_arguments():
    with pytest.raises(ValueError, match="amp level O4"):
        amp.auto_mixed_precision(Net(), "O4")
    with pytest.raises(TypeError, match="should be Cell"):
        amp.auto_mixed_precision(lambda x: x, "O1")
    with pytest.raises(ValueError, match="dtype should be one of"):
        amp.auto_mixed_precision(Net(), "O1", dtype=ms.float32)
    opt = nn.Momentum(Net().trainable_params(), learning_rate=0.1, momentum=0.9)
    with pytest.raises(ValueError, match="Unsupported arg 'foo'"):
        amp.build_train_network(Net(), opt, level="O1", foo=1)
    with pytest.raises(TypeError, match="optimizer"):
        amp.build_train_network(Net(), None)
    with pytest.raises(ValueError, match="'level' must be in"):
        amp.build_train_network(Net(), opt, level="O5")
    with pytest.raises(ValueError, match="'scale_value' must be > 1"):
        amp.StaticLossScaler(0.5)
    with pytest.raises(ValueError, match="scale_window"):
        amp.DynamicLossScaler(2, 2, 0)
    with pytest.raises(ValueError, match="'loss_scale' must be >= 1"):
        FixedLossScaleManager(0.5)
    with pytest.raises(ValueError, match="init_loss_scale"):
        DynamicLossScaleManager(0.5)
    with pytest.raises(TypeError, match="scale_sense"):
        nn.TrainOneStepWithLossScaleCell(Net(), opt, scale_sense=2.0)
    with pytest.raises(ValueError, match=r"shape of 'scale_sense' must be \(1,\) or \(\)"):
        nn.TrainOneStepWithLossScaleCell(Net(), opt, scale_sense=Tensor(np.ones(2,
                                                                               np.float32)))
    with pytest.raises(ValueError, match="to_float.*float16"):
        Net().to_float(ms.int32)
