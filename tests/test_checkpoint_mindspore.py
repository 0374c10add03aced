"""Checkpoints written by MindSpore 2.10 itself (``tests/fixtures``, recorded by
``tools/mindspore_checkpoints.py record``) load in mindgrad with MindSpore's names, dtypes
and values; a MindSpore network and its training state resume in mindgrad; and mindgrad
writes MindSpore's files byte for byte."""
from __future__ import annotations

import io
import json
import os
import sys

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, nn
from mindgrad.train import serialization as ser

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")
sys.path.insert(0, os.path.join(HERE, os.pardir, "tools"))
import mindspore_checkpoints as recorder  # noqa: E402

with open(os.path.join(FIXTURES, recorder.EXPECTED)) as f:
    EXPECTED = json.load(f)

FILES = sorted(k for k in EXPECTED if k.endswith(("ckpt", "safetensors")))


def fixture(name: str) -> str:
    return os.path.join(FIXTURES, name)


def load(name: str, **kwargs) -> dict:
    return ms.load_checkpoint(fixture(name), format=name.rsplit(".", 1)[1], **kwargs)


@pytest.mark.parametrize("name", FILES)
def test_mindspore_files_load_with_its_names_dtypes_and_values(name):
    loaded = load(name)
    want = EXPECTED[name]
    if name.endswith(".ckpt"):  # MindSpore returns a .ckpt file's entries in file order
        assert sorted(loaded) == sorted(want)
    else:
        assert list(loaded) == sorted(want)
    for key, record in want.items():
        got = loaded[key]
        if record["dtype"] == "str":
            assert got == record["value"]
            continue
        assert isinstance(got, ms.Parameter) and got.name == key
        # bfloat16 is widened to float32 (NumPy has no bfloat16) with the same values
        dtype = "Float32" if record["dtype"] == "BFloat16" else record["dtype"]
        assert str(got.dtype) == dtype, key
        arr = got.asnumpy()
        assert list(arr.shape) == record["shape"], key
        np.testing.assert_array_equal(arr.reshape(-1), np.array(record["values"], arr.dtype))
        assert np.array_equal(np.signbit(arr.reshape(-1)[:1]),
                              np.signbit(np.array(record["values"][:1], np.float64)))


def test_mindspore_values_are_the_recorded_ones():
    """The fixture holds what the recorder saved (edge values of every dtype survive)."""
    loaded = load("mindspore_values.ckpt")
    for key, value in recorder.values().items():
        assert loaded[key].asnumpy().dtype == value.dtype
        np.testing.assert_array_equal(loaded[key].asnumpy(), value)
    assert loaded["tag"] == recorder.APPEND["tag"]
    assert int(loaded["epoch"].asnumpy()) == 3 and bool(loaded["done"].asnumpy())
    np.testing.assert_array_equal(load("mindspore_bfloat16.ckpt")["w"].asnumpy()[:3],
                                  recorder.BF16[:3])


def test_a_mindspore_network_gives_mindspores_output():
    for name in ("mindspore_net.ckpt", "mindspore_net.safetensors"):
        net = recorder.make_net(nn)
        assert ms.load_param_into_net(net, load(name)) == ([], [])
        net.set_train(False)
        out = net(Tensor(np.array(EXPECTED["net"]["input"], np.float32))).asnumpy()
        np.testing.assert_allclose(out, EXPECTED["net"]["output"], rtol=1e-5, atol=1e-6)


def test_mindspore_training_resumes_in_mindgrad():
    """A TrainOneStepCell saved by MindSpore after two Adam steps (weights, BatchNorm
    statistics, moments, beta powers, global_step) loads whole, and the next step's loss is
    MindSpore's."""
    net = recorder.make_net(nn)
    trainer = recorder.make_trainer(nn, net)
    assert ms.load_param_into_net(trainer, load("mindspore_train.ckpt")) == ([], [])
    x = Tensor(np.array(EXPECTED["net"]["input"], np.float32))
    y = Tensor(np.array(EXPECTED["net"]["labels"], np.int32))
    np.testing.assert_allclose(float(trainer(x, y)), EXPECTED["net"]["next_loss"], rtol=1e-5)


def test_mindgrad_writes_mindspores_bytes(tmp_path):
    """Saving what MindSpore saved gives MindSpore's file, byte for byte."""
    for name, kwargs in (("mindspore_values.ckpt", {}),
                         ("mindspore_values_crc.ckpt", {"crc_check": True}),
                         ("mindspore_net.ckpt", {}),
                         ("mindspore_train.ckpt", {}),
                         ("mindspore_values.safetensors", {"format": "safetensors"}),
                         ("mindspore_net.safetensors", {"format": "safetensors"})):
        loaded = load(name)
        if "crc_check" in kwargs:  # saved with crc_check=True: the CRC must verify
            loaded = load(name, crc_check=True)
        out = str(tmp_path / name)
        ms.save_checkpoint(loaded, out, **kwargs)
        with open(out, "rb") as a, open(fixture(name), "rb") as b:
            assert a.read() == b.read(), name


def test_safetensors_round_trip_and_errors(tmp_path):
    data = {"w": np.arange(6, dtype=np.float16).reshape(2, 3), "n": np.int64(4),
            "b": np.array([True, False]), "c": np.array([1 - 1j], np.complex64)}
    path = str(tmp_path / "t")
    ms.save_checkpoint(data, path, format="safetensors", crc_check=True)
    loaded = ms.load_checkpoint(path + ".safetensors", format="safetensors", crc_check=True)
    assert list(loaded) == ["b", "c", "n", "w"]
    for k, v in data.items():
        assert loaded[k].asnumpy().dtype == np.asarray(v).dtype
        np.testing.assert_array_equal(loaded[k].asnumpy(), v)
    with open(path + ".safetensors", "rb") as f:
        blob = f.read()
    got = ms.load_checkpoint(io.BytesIO(blob), format="safetensors", choice_func=lambda n:
                             n != "w")
    assert list(got) == ["b", "c", "n"]
    with pytest.raises(TypeError, match="string"):
        ms.save_checkpoint(data, path, format="safetensors", append_dict={"tag": "x"})
    with pytest.raises(TypeError, match="complex128"):
        ms.save_checkpoint({"z": np.ones(1, np.complex128)}, path, format="safetensors")
    n = int.from_bytes(blob[:8], "little")

    def crafted(header: dict, data: bytes) -> bytes:
        raw = json.dumps(header).encode()
        return len(raw).to_bytes(8, "little") + raw + data

    for bad in (b"", blob[:-1], blob[:8] + b"[" * n + blob[8 + n:],
                (1 << 40).to_bytes(8, "little") + blob[8:], b"\x05" + b"\0" * 7 + b"{}",
                crafted({"x": {"dtype": "U8", "shape": [1] * 65, "data_offsets": [0, 1]}}, b"\1"),
                crafted({"x": {"dtype": "F32", "shape": [1 << 62, 1 << 62],
                               "data_offsets": [0, 4]}}, b"\0" * 4),
                crafted({"x": {"dtype": "F32", "shape": [2], "data_offsets": [0, 1 << 60]}},
                        b"\0" * 8)):
        with pytest.raises(ser.CheckpointError, match="checkpoint"):
            ms.load_checkpoint(io.BytesIO(bad), format="safetensors")
    damaged = bytearray(blob)
    damaged[-2] ^= 1
    with pytest.raises(ser.CheckpointError, match="CRC"):
        ms.load_checkpoint(io.BytesIO(bytes(damaged)), format="safetensors", crc_check=True)


def test_safetensors_without_the_package(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "safetensors", None)  # 'import safetensors' fails
    with pytest.raises(ImportError, match=r"mindgrad\[safetensors\]"):
        ms.save_checkpoint({"w": np.ones(2)}, str(tmp_path / "w"), format="safetensors")
    with pytest.raises(ImportError, match="safetensors"):
        load("mindspore_net.safetensors")
    assert not os.listdir(tmp_path)


def test_mindspore_arguments(tmp_path):
    net = recorder.make_net(nn)
    path = str(tmp_path / "n.ckpt")
    with pytest.raises(NotImplementedError, match="enc_key"):
        ms.save_checkpoint(net, path, enc_key=b"0" * 16)
    with pytest.raises(NotImplementedError, match="dec_key"):
        ms.load_checkpoint(fixture("mindspore_net.ckpt"), dec_key=b"0" * 16)
    with pytest.raises(ValueError, match="format"):
        ms.save_checkpoint(net, path, format="npz")
    with pytest.raises(ValueError, match="format"):
        ms.load_checkpoint(fixture("mindspore_net.safetensors"))  # format="ckpt" by default
    with pytest.raises(TypeError, match="bogus"):
        ms.save_checkpoint(net, path, bogus=1)
    assert not os.path.exists(path)
    ms.save_checkpoint(net.trainable_params(), str(tmp_path / "list"))  # '.ckpt' appended
    assert sorted(ms.load_checkpoint(str(tmp_path / "list.ckpt"))) == sorted(
        p.name for p in net.trainable_params())
    # append_dict is not filtered by choice_func (as in MindSpore)
    ms.save_checkpoint(net, path, choice_func=lambda n: n.startswith("fc."),
                       append_dict={"epoch": 2})
    assert list(ms.load_checkpoint(path)) == ["fc.weight", "fc.bias", "epoch"]
    # specify_prefix / filter_prefix replace choice_func; nothing left is an error
    assert list(ms.load_checkpoint(path, specify_prefix="fc.", choice_func=lambda n: False)
                ) == ["fc.weight", "fc.bias"]
    with pytest.raises(ValueError, match="nothing was loaded"):
        ms.load_checkpoint(path, choice_func=lambda n: False)
    with pytest.raises(ValueError, match="filter_prefix"):
        ms.load_checkpoint(path, filter_prefix=[])
    with pytest.raises(TypeError, match="specify_prefix"):
        ms.load_checkpoint(path, specify_prefix=["fc.", 3])
    # strings: empty, non-ASCII, beyond the BMP (NumPy's UTF-32 layout, as MindSpore saves)
    texts = {"empty": "", "accents": "na\u00efve", "emoji": "\U0001F600 ok"}
    ms.save_checkpoint({"w": np.ones(1)}, path, append_dict=texts)
    assert {k: v for k, v in ms.load_checkpoint(path).items() if k != "w"} == texts
    with pytest.raises(NotImplementedError, match="remove_redundancy"):
        ms.load_param_into_net(net, ms.load_checkpoint(path), remove_redundancy=True)
    # int64 into int32 converts unless strict_load, as in MindSpore; int into float does not
    target = {"fc.bias": ms.Parameter(Tensor(np.array([1, 2, 3], np.int64)), name="fc.bias")}
    with pytest.raises(TypeError, match="dtype"):
        ms.load_param_into_net(net, target)
