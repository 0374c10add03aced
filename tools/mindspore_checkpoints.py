"""Checkpoint interchange with the real MindSpore, outside the test suite.

``record`` (run with a Python that has MindSpore 2.10) writes the fixture files the tests
load: checkpoints saved by MindSpore itself in ``tests/fixtures/`` and, beside them,
``mindspore_checkpoints.json`` with every entry's name, dtype, shape and values, the input
and eval-mode output of the saved network, and the loss of the saved training step::

    /path/to/mindspore-venv/bin/python tools/mindspore_checkpoints.py record

``check`` (run with mindgrad's Python) goes the other way: mindgrad saves checkpoints of
every format and MindSpore (started as a subprocess) loads them; the names, dtypes and values
MindSpore reads, and the output of the same network with the loaded parameters, must equal
mindgrad's::

    .venv/bin/python tools/mindspore_checkpoints.py check --mindspore /path/to/bin/python

Both build the same small network and the same values, defined once here.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, os.pardir, "tests", "fixtures")
EXPECTED = "mindspore_checkpoints.json"


def values() -> dict:
    """NumPy values of every dtype both frameworks name, scalars and edge values included."""
    return {
        "f32": np.array([[0.0, -1.5, 3.25], [1e-38, 3.4e38, -0.0]], np.float32),
        "f64": np.array([np.pi, -1e300, 5e-324], np.float64),
        "f16": np.array([1.0, -2.5, 65504.0, 6e-8, np.inf, -np.inf], np.float16),
        "i8": np.array([-128, 0, 127], np.int8),
        "i16": np.array([[-32768, 1], [2, 32767]], np.int16),
        "i32": np.arange(-3, 3, dtype=np.int32).reshape(2, 1, 3),
        "i64": np.array([-(2 ** 63), 2 ** 63 - 1, 7], np.int64),
        "u8": np.array([0, 200, 255], np.uint8),
        "u16": np.array([65535, 1], np.uint16),
        "u32": np.array([2 ** 32 - 1], np.uint32),
        "u64": np.array([2 ** 64 - 1, 3], np.uint64),
        "flags": np.array([[True, False, True]]),
        "scalar": np.array(2.5, np.float32),
        "int_scalar": np.array(-4, np.int32),
    }


APPEND = {"epoch": 3, "lr": 0.5, "done": True, "tag": "run-1 \u00fc\u4e2d"}
BF16 = np.array([1.0, -2.5, 3.140625, 1e30, -0.0078125], np.float32)  # 1e30 gets rounded
NET_INPUT = np.linspace(-1.0, 1.0, 20, dtype=np.float32).reshape(5, 4)
TRAIN_LABELS = np.array([0, 1, 1, 0, 1], np.int32)


def make_net(nn):
    """The network both frameworks build (``nn`` is mindspore.nn or mindgrad.nn)."""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 3)
            self.bn = nn.BatchNorm1d(3)
            self.out = nn.Dense(3, 2)

        def construct(self, x):
            return self.out(self.bn(self.fc(x)))

    return Net()


def make_trainer(nn, net, optimizer: str = "adam"):
    """A training step with Adam, or (``"sgd"``) SGD with momentum and dampening, whose
    ``accum`` / ``stat`` state a resumed run must carry on."""
    loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    opt = nn.Adam(net.trainable_params(), 0.01) if optimizer == "adam" else \
        nn.SGD(net.trainable_params(), 0.1, momentum=0.9, dampening=0.25)
    return nn.TrainOneStepCell(loss, opt).set_train()


def describe(value) -> dict:
    """A JSON record of a loaded entry: MindSpore's dtype name, shape and values."""
    if isinstance(value, str):
        return {"dtype": "str", "value": value}
    arr = value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)
    flat = (arr.astype(np.float64) if arr.dtype.kind == "f" else arr).reshape(-1)
    return {"dtype": str(value.dtype), "shape": list(arr.shape), "values": flat.tolist()}


def _dumps(expected: dict) -> str:
    """JSON with one line per entry: small, and readable in a diff."""
    def block(obj: dict, indent: str) -> str:
        return ("{\n" + ",\n".join(f"{indent} {json.dumps(k)}: {json.dumps(v, sort_keys=True)}"
                                    for k, v in sorted(obj.items())) + f"\n{indent}}}")

    parts = [f" {json.dumps(k)}: " + (block(v, " ") if k.endswith(("ckpt", "safetensors"))
                                       else json.dumps(v, sort_keys=True))
             for k, v in sorted(expected.items())]
    return "{\n" + ",\n".join(parts) + "\n}\n"


# --- record (MindSpore's Python) -------------------------------------------------------------
def record() -> None:
    import mindspore as ms
    from mindspore import Parameter, Tensor, nn

    ms.set_seed(0)
    os.makedirs(FIXTURES, exist_ok=True)
    expected: dict = {}

    def saved(name: str, fmt: str = "ckpt") -> None:
        path = os.path.join(FIXTURES, name)
        loaded = ms.load_checkpoint(path, format=fmt)
        expected[name] = {k: describe(v) for k, v in loaded.items()}

    params = {k: Parameter(Tensor(v), name=k) for k, v in values().items()}
    ms.save_checkpoint(params, os.path.join(FIXTURES, "mindspore_values.ckpt"),
                       append_dict=dict(APPEND))
    saved("mindspore_values.ckpt")
    ms.save_checkpoint(params, os.path.join(FIXTURES, "mindspore_values_crc.ckpt"),
                       crc_check=True, append_dict={"epoch": 3})
    saved("mindspore_values_crc.ckpt")
    ms.save_checkpoint(params, os.path.join(FIXTURES, "mindspore_values.safetensors"),
                       format="safetensors", append_dict={"epoch": 3, "lr": 0.5})
    saved("mindspore_values.safetensors", "safetensors")
    bf16 = {"w": Parameter(Tensor(BF16, ms.bfloat16), name="w"),
            "m": Parameter(Tensor(BF16.reshape(1, 5), ms.bfloat16), name="m")}
    ms.save_checkpoint(bf16, os.path.join(FIXTURES, "mindspore_bfloat16.ckpt"))
    ms.save_checkpoint(bf16, os.path.join(FIXTURES, "mindspore_bfloat16.safetensors"),
                       format="safetensors")
    for name in ("mindspore_bfloat16.ckpt", "mindspore_bfloat16.safetensors"):
        loaded = ms.load_checkpoint(os.path.join(FIXTURES, name),
                                    format=name.rsplit(".", 1)[1])
        # describe() of a bfloat16 tensor: its float32 values, MindSpore's dtype name
        expected[name] = {k: dict(describe(Tensor(v.asnumpy().astype(np.float32))),
                                  dtype=str(v.dtype)) for k, v in loaded.items()}

    net = make_net(nn)
    trainer = make_trainer(nn, net)
    x, y = Tensor(NET_INPUT), Tensor(TRAIN_LABELS)
    losses = [float(trainer(x, y).asnumpy()) for _ in range(2)]
    ms.save_checkpoint(net, os.path.join(FIXTURES, "mindspore_net.ckpt"))
    ms.save_checkpoint(net, os.path.join(FIXTURES, "mindspore_net.safetensors"),
                       format="safetensors")
    ms.save_checkpoint(trainer, os.path.join(FIXTURES, "mindspore_train.ckpt"))
    saved("mindspore_net.ckpt")
    saved("mindspore_train.ckpt")
    net.set_train(False)
    output = net(x).asnumpy().tolist()  # eval mode: BatchNorm uses its moving statistics
    net.set_train(True)
    expected["net"] = {"input": NET_INPUT.tolist(), "output": output,
                       "labels": TRAIN_LABELS.tolist(), "losses": losses,
                       "next_loss": float(trainer(x, y).asnumpy())}
    expected["mindspore_version"] = ms.__version__
    with open(os.path.join(FIXTURES, EXPECTED), "w") as f:
        f.write(_dumps(expected))
    print("wrote", sorted(os.listdir(FIXTURES)))


# --- check (mindgrad's Python, MindSpore in a subprocess) ------------------------------------
_MS_SIDE = r"""
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import mindspore as ms
from mindspore import Tensor, nn
from mindspore_checkpoints import describe, make_net, make_trainer, NET_INPUT, TRAIN_LABELS
out = {}
for name, fmt in json.loads(sys.argv[3]):
    loaded = ms.load_checkpoint(sys.argv[2] + "/" + name, format=fmt, crc_check="crc" in name)
    out[name] = {k: describe(v) for k, v in loaded.items()}
net = make_net(nn)
out["not_loaded"] = list(ms.load_param_into_net(
    net, ms.load_checkpoint(sys.argv[2] + "/net.ckpt")))
net.set_train(False)
out["output"] = net(Tensor(NET_INPUT)).asnumpy().tolist()
trainer = make_trainer(nn, make_net(nn))
out["train_not_loaded"] = list(ms.load_param_into_net(
    trainer, ms.load_checkpoint(sys.argv[2] + "/train.ckpt")))
out["next_loss"] = float(trainer(Tensor(NET_INPUT), Tensor(TRAIN_LABELS)).asnumpy())
sgd = make_trainer(nn, make_net(nn), "sgd")
out["sgd_not_loaded"] = list(ms.load_param_into_net(
    sgd, ms.load_checkpoint(sys.argv[2] + "/train_sgd.ckpt")))
out["sgd_losses"] = [float(sgd(Tensor(NET_INPUT), Tensor(TRAIN_LABELS)).asnumpy())
                     for _ in range(3)]
print("JSON" + json.dumps(out))
"""


def check(mindspore_python: str) -> int:
    sys.path.insert(0, os.path.join(HERE, os.pardir))
    import mindgrad as mg
    from mindgrad import Tensor, nn
    from mindgrad.common import checkpoint_proto

    files = [("values.ckpt", "ckpt"), ("values_crc.ckpt", "ckpt"),
             ("values_sliced.ckpt", "ckpt"), ("values.safetensors", "safetensors"),
             ("net.ckpt", "ckpt"), ("net.safetensors", "safetensors"), ("train.ckpt", "ckpt")]
    with tempfile.TemporaryDirectory() as tmp:
        data = {k: Tensor(v) for k, v in values().items()}
        mg.save_checkpoint(data, f"{tmp}/values.ckpt",
                           append_dict=dict(APPEND, empty="", emoji="\U0001F600 ok"))
        mg.save_checkpoint(data, f"{tmp}/values_crc.ckpt", crc_check=True)
        mg.save_checkpoint(data, f"{tmp}/values.safetensors", format="safetensors",
                           append_dict={"epoch": 3, "lr": 0.5})
        slice_bytes = checkpoint_proto.SLICE_BYTES
        checkpoint_proto.SLICE_BYTES = 5  # MindSpore's records for tensors over 512 MiB
        try:
            mg.save_checkpoint(data, f"{tmp}/values_sliced.ckpt")
        finally:
            checkpoint_proto.SLICE_BYTES = slice_bytes
        mg.set_seed(0)
        net = make_net(nn)
        trainer = make_trainer(nn, net)
        for _ in range(2):
            trainer(Tensor(NET_INPUT), Tensor(TRAIN_LABELS))
        mg.save_checkpoint(net, f"{tmp}/net.ckpt")
        mg.save_checkpoint(net, f"{tmp}/net.safetensors", format="safetensors")
        mg.save_checkpoint(trainer, f"{tmp}/train.ckpt")
        net.set_train(False)
        want_output = net(Tensor(NET_INPUT)).asnumpy()
        net.set_train(True)
        next_loss = float(trainer(Tensor(NET_INPUT), Tensor(TRAIN_LABELS)))
        sgd = make_trainer(nn, make_net(nn), "sgd")
        for _ in range(2):
            sgd(Tensor(NET_INPUT), Tensor(TRAIN_LABELS))
        mg.save_checkpoint(sgd, f"{tmp}/train_sgd.ckpt")
        sgd_losses = [float(sgd(Tensor(NET_INPUT), Tensor(TRAIN_LABELS))) for _ in range(3)]
        run = subprocess.run([mindspore_python, "-c", _MS_SIDE, HERE, tmp, json.dumps(files)],
                             capture_output=True, text=True)
        if run.returncode:
            print(run.stdout[-3000:], run.stderr[-3000:])
            return 1
        got = json.loads(run.stdout.split("JSON", 1)[1])
        failures = []
        for name, fmt in files:
            want = {k: describe(v) for k, v in mg.load_checkpoint(f"{tmp}/{name}",
                                                                 format=fmt).items()}
            if got[name] != want:
                failures.append(f"{name}: MindSpore read {got[name]}, mindgrad wrote {want}")
            else:
                print(f"ok  {name}: MindSpore reads the same {len(want)} entries "
                      f"(names, dtypes, values)")
        if got["not_loaded"] != [[], []]:
            failures.append(f"net.ckpt: load_param_into_net left {got['not_loaded']}")
        if not np.allclose(got["output"], want_output, rtol=1e-5, atol=1e-6):
            failures.append(f"net output: MindSpore {got['output']}, mindgrad {want_output}")
        else:
            print("ok  net.ckpt: MindSpore's network with the loaded parameters gives "
                  "mindgrad's output")
        if got["train_not_loaded"] != [[], []]:
            failures.append(f"train.ckpt: load_param_into_net left {got['train_not_loaded']}")
        if not np.isclose(got["next_loss"], next_loss, rtol=1e-5):
            failures.append(f"train.ckpt: MindSpore's next loss {got['next_loss']}, "
                            f"mindgrad's {next_loss}")
        else:
            print(f"ok  train.ckpt: MindSpore resumes mindgrad's Adam training (next loss "
                  f"{got['next_loss']:.6f}, mindgrad {next_loss:.6f})")
        if got["sgd_not_loaded"] != [[], []]:
            failures.append(f"train_sgd.ckpt: load_param_into_net left "
                            f"{got['sgd_not_loaded']}")
        if not np.allclose(got["sgd_losses"], sgd_losses, rtol=1e-5):
            failures.append(f"train_sgd.ckpt: MindSpore's next losses {got['sgd_losses']}, "
                            f"mindgrad's {sgd_losses}")
        else:
            print(f"ok  train_sgd.ckpt: MindSpore resumes mindgrad's SGD training, momentum "
                  f"buffers included (next 3 losses {got['sgd_losses']}, mindgrad "
                  f"{sgd_losses})")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("record", help="write the fixtures (run with MindSpore's Python)")
    c = sub.add_parser("check", help="MindSpore loads mindgrad's files")
    c.add_argument("--mindspore", required=True, help="a Python that has MindSpore 2.10")
    args = parser.parse_args()
    if args.cmd == "record":
        record()
        return 0
    return check(args.mindspore)


if __name__ == "__main__":
    sys.exit(main())
