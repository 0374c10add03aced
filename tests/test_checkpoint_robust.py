"""Checkpoint robustness: saves killed with SIGKILL leave temporary files that the next save
removes (but never those of a save still running), concurrent saves stay whole, and crafted
or damaged ``.ckpt`` files give the checkpoint error and nothing else."""
from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import mindgrad as ms
from mindgrad.common import checkpoint_files, checkpoint_proto
from mindgrad.train import serialization as ser

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def temp_files(directory) -> list[str]:
    return sorted(n for n in os.listdir(directory) if n.endswith(".tmp"))


def _child(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def test_a_save_killed_mid_write_leaves_an_orphan_the_next_save_removes(tmp_path):
    """SIGKILL a process while it saves (looping until a kill lands mid-write); the target
    is never damaged, and the next save to it removes the temporary file left behind."""
    path = str(tmp_path / "big.ckpt")
    for attempt in range(30):
        child = _child(f"""
            import numpy as np, mindgrad as ms
            data = {{"w": np.ones((4, 1 << 20), np.float32)}}  # 16 MB
            while True:
                ms.save_checkpoint(data, {path!r})
        """)
        deadline = time.monotonic() + 30
        while not temp_files(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.001)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        if temp_files(tmp_path):
            break
    orphans = temp_files(tmp_path)
    assert orphans and all(n.startswith(".big.ckpt.") for n in orphans)
    if os.path.exists(path):  # an earlier complete save, never a half-written one
        assert ms.load_checkpoint(path)["w"].shape == (4, 1 << 20)
    ms.save_checkpoint({"w": np.zeros(3, np.float32)}, path)
    assert temp_files(tmp_path) == []
    np.testing.assert_array_equal(ms.load_checkpoint(path)["w"].asnumpy(), np.zeros(3))


def test_the_temp_file_of_a_live_save_is_kept(tmp_path):
    """A save in another process, blocked in the middle of writing, keeps its temporary file
    through other saves' clean-up; once that process is killed, the file is an orphan."""
    path = str(tmp_path / "m.ckpt")
    child = _child(f"""
        import sys
        from mindgrad.common import checkpoint_files
        def write(f):
            f.write(b"partial")
            print("writing", flush=True)
            sys.stdin.read()  # block until the test closes our stdin
        checkpoint_files.write_atomic({path!r}, write)
    """)
    try:
        assert child.stdout.readline().strip() == "writing"
        live = temp_files(tmp_path)
        assert len(live) == 1
        # the orphan of an earlier killed save, and files that only look similar
        (tmp_path / ".m.ckpt.abcd1234.tmp").write_bytes(b"orphan")
        (tmp_path / ".m.ckpt.too-long-name.tmp").write_bytes(b"not ours")
        (tmp_path / ".other.ckpt.abcd1234.tmp").write_bytes(b"another target's")
        ms.save_checkpoint({"a": np.ones(2, np.float32)}, path)
        assert temp_files(tmp_path) == sorted(live + [".m.ckpt.too-long-name.tmp",
                                                      ".other.ckpt.abcd1234.tmp"])
        assert checkpoint_files.remove_orphaned_temp_files(path) == []  # still locked
    finally:
        child.kill()
        child.wait()
    assert checkpoint_files.remove_orphaned_temp_files(path) == [str(tmp_path / live[0])]
    np.testing.assert_array_equal(ms.load_checkpoint(path)["a"].asnumpy(), np.ones(2))


def test_concurrent_saves_to_one_file_stay_whole(tmp_path):
    path = str(tmp_path / "c.ckpt")
    errors = []

    def saver(k):
        try:
            for i in range(15):
                ms.save_checkpoint({"v": np.full(50_000, k * 100 + i, np.float32)}, path)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=saver, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):  # every read sees one whole save
        if os.path.exists(path):
            v = ms.load_checkpoint(path)["v"].asnumpy()
            assert v.shape == (50_000,) and np.all(v == v[0])
    for t in threads:
        t.join()
    assert errors == [] and temp_files(tmp_path) == []


def test_async_save_writes_in_the_background(tmp_path, monkeypatch):
    path = str(tmp_path / "a.ckpt")
    w = ms.Parameter(ms.Tensor(np.arange(4, dtype=np.float32)), name="w")
    started, release = threading.Event(), threading.Event()
    real_write = checkpoint_proto.write

    def slow_write(f, entries, crc_check=False):
        started.set()
        assert release.wait(10)
        real_write(f, entries, crc_check)

    monkeypatch.setattr(checkpoint_proto, "write", slow_write)
    ms.save_checkpoint([w], path, async_save=True)
    assert started.wait(10) and not os.path.exists(path)  # returned while writing
    w.set_data(ms.Tensor(np.zeros(4, np.float32)))  # the save holds the values it was given
    release.set()
    np.testing.assert_array_equal(ms.load_checkpoint(path)["w"].asnumpy(), np.arange(4))
    # an error in the background comes back from the next call
    monkeypatch.setattr(checkpoint_proto, "write", lambda *a: (_ for _ in ()).throw(
        OSError("disk full")))
    ms.save_checkpoint([w], path, async_save="thread")
    with pytest.raises(OSError, match="disk full"):
        ser.wait_async_saves()
    assert temp_files(tmp_path) == []
    with pytest.raises(ValueError, match="async_save"):
        ms.save_checkpoint([w], path, async_save="fork")
    with pytest.raises(TypeError, match="async_save"):
        ms.save_checkpoint([w], path, async_save=1)


# --- crafted and damaged .ckpt files ---------------------------------------------------------
def _v(n: int) -> bytes:
    return checkpoint_proto._varint(n)


def _ld(field: int, payload: bytes) -> bytes:
    return _v(field << 3 | 2) + _v(len(payload)) + payload


def _record(name: bytes = b"w", dims=(2,), type_name: bytes = b"Float32",
            content: bytes = b"\0" * 8, extra: bytes = b"") -> bytes:
    tensor = b"".join(_v(8) + _v(d) for d in dims) + _ld(2, type_name) + _ld(3, content)
    return _ld(1, _ld(1, name) + _ld(2, tensor + extra))


def _load_bytes(tmp_path, blob: bytes, **kwargs):
    path = tmp_path / "x.ckpt"
    path.write_bytes(blob)
    return ms.load_checkpoint(str(path), **kwargs)


CRAFTED = {
    "a record longer than the file": _v(10) + _v(1 << 60) + b"\0" * 20,
    "an 11-byte varint": _v(10) + b"\xff" * 11,
    "a varint past 64 bits": _v(10) + b"\xff" * 9 + b"\x7f",
    "65 dimensions": _record(dims=[1] * 65, content=b"\0" * 4),
    "absurd dimensions": _record(dims=(1 << 62, 1 << 62)),
    "a negative dimension": _record(dims=((1 << 64) - 2,)),
    "the size does not match": _record(dims=(3,)),
    "a group wire type": _v(1 << 3 | 3) + b"\0",
    "wire type 7": _v(1 << 3 | 7),
    "the field number 0": b"\x02\x00",
    "the value field as a number": _v(1 << 3 | 0) + _v(5),
    "an unknown tensor type": _record(type_name=b"Float8"),
    "MindSpore's Int4": _record(type_name=b"Int4"),
    "a name that is not UTF-8": _record(name=b"\xff\xfe"),
    "a map parameter": _ld(1, _ld(1, b"m") + _ld(3, b"")),
    "no tensor type": _ld(1, _ld(1, b"w") + _ld(2, _v(8) + _v(2) + _ld(3, b"\0" * 8))),
    "no tensor": _ld(1, _ld(1, b"w")),
    "no name": _ld(1, _ld(2, _ld(2, b"Float32") + _ld(3, b"\0" * 4))),
    "a string of 5 bytes": _record(dims=(0,), type_name=b"str", content=b"abcde"),
    "a bad UTF-32 string": _record(dims=(0,), type_name=b"str", content=b"\xff" * 4),
    "a name twice": _record() + _record(name=b"v") + _record(),
    "slices that disagree": _record(dims=(4,)) + _record(dims=(5,)),
    "only unknown fields": _v(2 << 3 | 0) + _v(1),
    "a packed dims field too long": _ld(1, _ld(1, b"w") + _ld(2, _ld(1, _v(1) * 65)
                                                             + _ld(2, b"Float32")
                                                             + _ld(3, b"\0" * 4))),
    "a wrong CRC": _record() + b"crc_num" + (123).to_bytes(10, "big"),
}


@pytest.mark.parametrize("what", list(CRAFTED))
def test_crafted_ckpt_files_give_the_checkpoint_error(tmp_path, what):
    with pytest.raises(ser.CheckpointError, match="checkpoint") as info:
        _load_bytes(tmp_path, CRAFTED[what])
    assert isinstance(info.value, ValueError)


def test_what_a_protobuf_reader_accepts_loads(tmp_path):
    """Unknown fields are skipped, dims may be packed, slices of one tensor are joined and
    the old scalar form (dims [0] with one value) is a scalar, as MindSpore reads them."""
    packed = _ld(1, _ld(1, b"p") + _ld(2, _ld(1, _v(2) + _v(3)) + _ld(2, b"Int8")
                                         + _ld(3, bytes(range(6)))))
    blob = (_v(7 << 3 | 0) + _v(99) + _record(content=b"\0\0\x80?", dims=(1,),
                                              extra=_v(9 << 3 | 5) + b"abcd")
            + packed + _record(name=b"s", dims=(3,), content=b"\0\0\x80?")
            + _record(name=b"s", dims=(3,), content=b"\0\0\0@\0\0@@")
            + _record(name=b"old", dims=(0,), content=b"\0\0\x80?"))
    got = _load_bytes(tmp_path, blob)
    assert got["w"].asnumpy().tolist() == [1.0]
    assert got["p"].asnumpy().tolist() == [[0, 1, 2], [3, 4, 5]] and got["p"].dtype == ms.int8
    assert got["s"].asnumpy().tolist() == [1.0, 2.0, 3.0]
    assert got["old"].shape == () and float(got["old"].asnumpy()) == 1.0


def test_large_tensors_are_split_into_records_as_mindspore_does(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoint_proto, "SLICE_BYTES", 12)
    data = {"a": np.arange(10, dtype=np.float32).reshape(2, 5), "b": np.float64(1.5)}
    path = str(tmp_path / "s.ckpt")
    ms.save_checkpoint(data, path)
    with open(path, "rb") as f:
        blob = f.read()
    assert blob.count(b"\n\x01a\x12") == 4  # 40 bytes -> records of 12, 12, 12, 4
    got = ms.load_checkpoint(path)
    np.testing.assert_array_equal(got["a"].asnumpy(), data["a"])
    assert got["b"].shape == () and float(got["b"].asnumpy()) == 1.5


def _valid_blob(tmp_path, crc: bool) -> bytes:
    path = str(tmp_path / "v.ckpt")
    ms.save_checkpoint({"w": np.arange(6, dtype=np.float32).reshape(2, 3),
                        "b": np.array([True, False]), "n": np.int64(-5)}, path,
                       append_dict={"tag": "x\u00fc"}, crc_check=crc)
    with open(path, "rb") as f:
        return f.read()


def test_truncated_files(tmp_path):
    """With a CRC and crc_check every truncation is caught. Without one (MindSpore's
    default) a cut at a record boundary is a valid shorter file, as it is for MindSpore:
    the entries read are then a prefix of the saved ones, with their values; every other
    cut is an error."""
    blob = _valid_blob(tmp_path, crc=True)
    for cut in range(len(blob)):
        with pytest.raises(ser.CheckpointError):
            _load_bytes(tmp_path, blob[:cut], crc_check=True)
    blob = _valid_blob(tmp_path, crc=False)
    full = _load_bytes(tmp_path, blob)
    prefixes = 0
    for cut in range(len(blob)):
        try:
            got = _load_bytes(tmp_path, blob[:cut])
        except ser.CheckpointError:
            continue
        prefixes += 1
        assert list(got) == list(full)[:len(got)]
        for k in got:
            if not isinstance(got[k], str):
                np.testing.assert_array_equal(got[k].asnumpy(), full[k].asnumpy())
    assert prefixes == len(full) - 1


def test_random_damage_never_escapes_as_another_error(tmp_path):
    rng = np.random.default_rng(0)
    for crc in (False, True):
        blob = _valid_blob(tmp_path, crc=crc)
        for _ in range(200):
            bad = bytearray(blob)
            for i in rng.integers(0, len(bad), rng.integers(1, 4)):
                bad[i] = int(rng.integers(0, 256))
            try:
                _load_bytes(tmp_path, bytes(bad))
            except ser.CheckpointError:
                pass
            except ValueError as e:  # only "nothing loaded", never a bare NumPy error
                assert "nothing was loaded" in str(e)


def test_crc_check(tmp_path):
    blob = _valid_blob(tmp_path, crc=True)
    assert blob[-17:-10] == b"crc_num"
    assert _load_bytes(tmp_path, blob, crc_check=True)["tag"] == "x\u00fc"
    with pytest.raises(ser.CheckpointError, match="CRC"):
        _load_bytes(tmp_path, _valid_blob(tmp_path, crc=False), crc_check=True)


def test_bytesio_only_for_safetensors():
    with pytest.raises(TypeError, match="BytesIO"):
        ms.load_checkpoint(io.BytesIO(b""))
