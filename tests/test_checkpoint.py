"""Checkpoints: round trips, loading into networks, resuming training, and clear errors for
missing, truncated, corrupted or mismatched files (which never change a Parameter)."""
from __future__ import annotations

import json
import os
import pickle
import struct

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Parameter, Tensor, nn
from mindgrad.train import serialization as ser


class Net(nn.Cell):
    def __init__(self, hidden=4):
        super().__init__()
        self.fc = nn.Dense(3, hidden)
        self.bn = nn.BatchNorm1d(hidden)
        self.out = nn.Dense(hidden, 2)

    def construct(self, x):
        return self.out(self.bn(self.fc(x)))


def values(net):
    return {p.name: p.asnumpy() for p in net.get_parameters()}


def test_round_trip_of_a_cell(tmp_path):
    ms.set_seed(0)
    net = Net()
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path)
    with open(path, "rb") as f:  # MindSpore's layout: a 'value' record, its tag 'fc.weight'
        head = f.read(16)
    assert head[0] == 0x0A and head[2:13] == b"\n\tfc.weight"
    loaded = ms.load_checkpoint(path)
    assert list(loaded) == list(values(net))
    for name, arr in values(net).items():
        assert isinstance(loaded[name], Parameter) and loaded[name].name == name
        assert loaded[name].dtype == ms.float32
        np.testing.assert_array_equal(loaded[name].asnumpy(), arr)
    ms.set_seed(1)
    other = Net()
    assert ms.load_param_into_net(other, loaded) == ([], [])
    for name, arr in values(net).items():
        np.testing.assert_array_equal(values(other)[name], arr)


def test_dict_list_dtypes_extras_and_filters(tmp_path):
    data = {"f16": np.arange(3, dtype=np.float16), "i64": np.array([[1, -2]], np.int64),
            "b": np.array([True, False]), "u8": np.arange(4, dtype=np.uint8).reshape(2, 2),
            "scalar": Tensor(2.5), "empty": np.zeros((0, 3), np.float32),
            "empty1": np.zeros(0, np.int8)}
    path = str(tmp_path / "mixed")  # '.ckpt' is added
    ms.save_checkpoint(data, path, append_dict={"epoch": 7, "lr": 0.5, "tag": "run-1"})
    loaded = ms.load_checkpoint(path + ".ckpt")
    for k, v in data.items():
        got = loaded[k].asnumpy()
        want = v.asnumpy() if isinstance(v, Tensor) else v
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    assert int(loaded["epoch"].asnumpy()) == 7 and loaded["tag"] == "run-1"
    ms.save_checkpoint([{"name": "a.w", "data": Tensor(np.ones(2))},
                        {"name": "b.w", "data": Tensor(np.zeros(2))}], path)
    assert list(ms.load_checkpoint(path + ".ckpt", filter_prefix="a.")) == ["b.w"]
    assert list(ms.load_checkpoint(path + ".ckpt", specify_prefix=["a."])) == ["a.w"]
    assert list(ms.load_checkpoint(path + ".ckpt", choice_func=lambda n: n == "b.w")) == ["b.w"]
    ms.save_checkpoint(Net(), path, choice_func=lambda n: n.startswith("fc."))
    assert list(ms.load_checkpoint(path + ".ckpt")) == ["fc.weight", "fc.bias"]


def test_load_param_into_net_reports_missing_and_unused(tmp_path):
    net = Net()
    params = ms.load_checkpoint(_saved(tmp_path, net), filter_prefix="out.")
    params["extra.w"] = Parameter(Tensor(np.ones(2)), name="extra.w")
    not_loaded, unused = ms.load_param_into_net(Net(), params)
    assert not_loaded == ["out.weight", "out.bias"] and unused == ["extra.w"]
    # names that differ by a leading prefix load unless strict_load
    prefixed = {"network." + k: v for k, v in ms.load_checkpoint(_saved(tmp_path, net)).items()}
    target = Net()
    assert ms.load_param_into_net(target, prefixed)[0] == []
    np.testing.assert_array_equal(target.fc.weight.asnumpy(), net.fc.weight.asnumpy())
    assert len(ms.load_param_into_net(Net(), prefixed, strict_load=True)[0]) == 8
    # load_checkpoint(net=...) loads too
    fresh = Net()
    ms.load_checkpoint(_saved(tmp_path, net), net=fresh)
    np.testing.assert_array_equal(fresh.out.bias.asnumpy(), net.out.bias.asnumpy())


def _saved(tmp_path, obj, name="x.ckpt"):
    path = str(tmp_path / name)
    ms.save_checkpoint(obj, path)
    return path


def test_mismatches_are_rejected_without_touching_parameters(tmp_path):
    small = Net(hidden=4)
    params = ms.load_checkpoint(_saved(tmp_path, Net(hidden=5)))
    before = values(small)
    with pytest.raises(ValueError, match="shape"):
        ms.load_param_into_net(small, params)
    for name, arr in values(small).items():
        np.testing.assert_array_equal(arr, before[name])
    # a dtype mismatch: float64 into float32 loads (converted) unless strict_load
    params = {k: Parameter(Tensor(v.astype(np.float64)), name=k) for k, v in before.items()}
    params["fc.weight"] = Parameter(Tensor(np.full((4, 3), 0.25)), name="fc.weight")
    target = Net()
    with pytest.raises(TypeError, match="dtype"):
        ms.load_param_into_net(target, params, strict_load=True)
    assert not np.any(target.fc.weight.asnumpy() == 0.25)
    ms.load_param_into_net(target, params)
    assert target.fc.weight.dtype == ms.float32 and np.all(target.fc.weight.asnumpy() == 0.25)
    ints = {"fc.bias": Parameter(Tensor(np.ones(4, np.int32)), name="fc.bias")}
    with pytest.raises(TypeError, match="dtype"):
        ms.load_param_into_net(Net(), ints)
    with pytest.raises(TypeError, match="Cell"):
        ms.load_param_into_net({}, params)
    with pytest.raises(TypeError, match="dict"):
        ms.load_param_into_net(Net(), [1])


LEGACY = os.path.join(os.path.dirname(__file__), "fixtures", "mindgrad_legacy_v1.ckpt")


def test_files_of_the_first_mindgrad_format_still_load():
    loaded = ms.load_checkpoint(LEGACY)
    assert list(loaded) == ["fc.weight", "fc.bias", "f16", "i64", "b", "c64", "step", "tag"]
    np.testing.assert_array_equal(loaded["fc.weight"].asnumpy(),
                                  np.arange(6, dtype=np.float32).reshape(2, 3) / 4)
    assert loaded["f16"].dtype == ms.float16 and loaded["f16"].asnumpy()[2] == 65504
    assert loaded["c64"].asnumpy().tolist() == [1 + 2j] and loaded["c64"].dtype == ms.complex64
    assert loaded["step"].shape == () and int(loaded["step"].asnumpy()) == 7
    assert loaded["tag"] == "run-1"
    assert list(ms.load_checkpoint(LEGACY, choice_func=lambda n: n.startswith("fc."))) == [
        "fc.weight", "fc.bias"]


def _legacy_variants(blob: bytes) -> dict:
    (n,) = struct.unpack("<Q", blob[8:16])
    header = json.loads(blob[16:16 + n])
    payload = blob[16 + n:]

    def with_header(**changes):
        h = dict(header, entries=[dict(e) for e in header["entries"]])
        for key, value in changes.items():
            h["entries"][0][key] = value
        hb = json.dumps(h).encode()
        return blob[:8] + struct.pack("<Q", len(hb)) + hb + payload

    def raw_header(hb: bytes):
        return blob[:8] + struct.pack("<Q", len(hb)) + hb + payload

    flipped = bytearray(blob)
    flipped[-3] ^= 0x40
    return {
        "empty": b"MGCKPT01",
        "truncated header": blob[:16 + n // 2],
        "truncated data": blob[:-5],
        "extra data": blob + b"\0",
        "flipped data byte": bytes(flipped),
        "huge header length": blob[:8] + struct.pack("<Q", 1 << 62) + blob[16:],
        "garbage header": blob[:16] + b"{" * n + blob[16 + n:],
        "shape lies": with_header(shape=[999]),
        "object dtype": with_header(dtype="object"),
        "65 dims": with_header(shape=[1] * 65),
        "absurd shape": with_header(shape=[2 ** 62, 2 ** 62], nbytes=2 ** 126),
        "bool size": with_header(nbytes=True),
        "deeply nested JSON": raw_header(b"[" * 100_000 + b"]" * 100_000),
        "nested in an entry": raw_header(b'{"entries": [' + b"[" * 50_000 + b"]" * 50_000
                                         + b"]}"),
        "a 5000-digit number": raw_header(b'{"entries": [], "payload_bytes": ' + b"9" * 5000
                                          + b"}"),
        "not UTF-8": raw_header(b"\xff\xfe{}"),
    }


def test_corrupt_and_missing_files_give_clear_errors(tmp_path):
    with open(LEGACY, "rb") as f:
        legacy = f.read()
    for what, data in _legacy_variants(legacy).items():
        bad = tmp_path / "bad.ckpt"
        bad.write_bytes(data)
        with pytest.raises(ser.CheckpointError, match="checkpoint") as info:
            ms.load_checkpoint(str(bad))
        assert isinstance(info.value, ValueError), what
    for what, data in {"empty": b"", "zip": b"PK\x03\x04" + b"\0" * 40,
                       "pickle": pickle.dumps({"fc.weight": np.ones(3)})}.items():
        bad = tmp_path / "bad.ckpt"
        bad.write_bytes(data)
        with pytest.raises(ser.CheckpointError, match="checkpoint"):
            ms.load_checkpoint(str(bad))
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint(str(tmp_path / "nothing.ckpt"))


def test_save_is_atomic(tmp_path, monkeypatch):
    path = _saved(tmp_path, Net(), "keep.ckpt")
    with open(path, "rb") as f:
        original = f.read()

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(ser.os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        ms.save_checkpoint(Net(hidden=6), path)
    monkeypatch.undo()
    with open(path, "rb") as f:
        assert f.read() == original  # the old checkpoint is intact
    assert sorted(os.listdir(tmp_path)) == ["keep.ckpt"]  # no temporary file left
    with pytest.raises(TypeError, match="save_obj"):
        ms.save_checkpoint(42, path)
    with pytest.raises(TypeError):
        ms.save_checkpoint({"a": object()}, str(tmp_path / "obj.ckpt"))
    assert sorted(os.listdir(tmp_path)) == ["keep.ckpt"]


OPTIMIZERS = {  # name -> (optimizer of the parameters, global_step after 3 steps)
    "adam": (lambda ps: nn.Adam(ps, 0.01), 3),
    "sgd": (lambda ps: nn.SGD(ps, 0.05), 3),  # every step counts, a constant rate too
    "sgd-momentum": (lambda ps: nn.SGD(ps, 0.05, momentum=0.9, dampening=0.25), 3),
    "sgd-schedule": (lambda ps: nn.SGD(ps, nn.ExponentialDecayLR(0.1, 0.5, 1)), 3),
}


@pytest.mark.parametrize("opt", list(OPTIMIZERS))
def test_resume_training_from_a_checkpoint(tmp_path, opt):
    """Saving the TrainOneStepCell (weights, BatchNorm statistics and optimizer state, with
    global_step as in MindSpore) and resuming gives exactly the run that never stopped, a
    learning-rate schedule included."""
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((8, 3)).astype(np.float32))
    y = Tensor(rng.integers(0, 2, 8).astype(np.int32))
    make_opt, steps = OPTIMIZERS[opt]

    def trainer(seed):
        ms.set_seed(seed)
        net = Net()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(
            sparse=True, reduction="mean")), make_opt(net.trainable_params()))
        return step.set_train()

    a = trainer(0)
    for _ in range(3):
        a(x, y)
    saved = ms.load_checkpoint(_saved(tmp_path, a, "train.ckpt"))
    assert "fc.weight" in saved and "bn.moving_mean" in saved
    if opt == "adam":
        assert "moment1.fc.weight" in saved and "beta1_power" in saved
    assert int(saved["global_step"].asnumpy()[0]) == steps
    continued = [float(a(x, y)) for _ in range(2)]
    b = trainer(5)
    assert ms.load_param_into_net(b, saved) == ([], [])
    resumed = [float(b(x, y)) for _ in range(2)]
    assert resumed == continued
