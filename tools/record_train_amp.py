"""Record MindSpore's mixed precision behaviour on a small network into
tests/fixtures/train_amp.json: output dtypes and values per amp level, training with
``Model(amp_level=...)``, the loss scalers and managers.

    /path/to/mindspore-venv/bin/python tools/record_train_amp.py
"""
from __future__ import annotations

import json
import os
import sys
import tempfile

import numpy as np


def problem() -> dict:
    """Data and initial weights of Dense(4, 8) -> BatchNorm1d(8) -> ReLU -> Dense(8, 3)."""
    rng = np.random.default_rng(11)
    return dict(x=rng.normal(size=(12, 4)).astype(np.float32),
                y=rng.integers(0, 3, 12).astype(np.int32),
                w1=(rng.normal(size=(8, 4)) * 0.5).astype(np.float32),
                b1=(rng.normal(size=8) * 0.1).astype(np.float32),
                w2=(rng.normal(size=(3, 8)) * 0.5).astype(np.float32),
                b2=np.zeros(3, np.float32), batch=4)


try:  # MindSpore's O1 rewrites the network from its source: the class must be module-level
    from mindspore import nn as _nn
except ImportError:  # the tests import problem() without MindSpore
    _nn = None

if _nn is not None:
    class Net(_nn.Cell):
        """The recorded network."""

        def __init__(self, p, nn, Tensor):
            super().__init__()
            self.fc1 = nn.Dense(4, 8, weight_init=Tensor(p["w1"]), bias_init=Tensor(p["b1"]))
            self.bn = nn.BatchNorm1d(8)
            self.relu = nn.ReLU()
            self.fc2 = nn.Dense(8, 3, weight_init=Tensor(p["w2"]), bias_init=Tensor(p["b2"]))

        def construct(self, x):
            return self.fc2(self.relu(self.bn(self.fc1(x))))


def build(nn, Tensor, p):
    return Net(p, nn, Tensor)


def record(ms) -> dict:
    from mindspore import Tensor, amp, nn
    from mindspore.dataset import NumpySlicesDataset
    from mindspore.train import FixedLossScaleManager, Model

    p = problem()
    out: dict = {}
    x = Tensor(p["x"])
    for level in ("O0", "O1", "O2", "O3"):
        net = build(nn, Tensor, p)
        net.set_train(False)
        wrapped = amp.auto_mixed_precision(net, level)
        y = wrapped(x)
        out[f"infer_{level}_dtype"] = str(y.dtype)
        out[f"infer_{level}"] = y.asnumpy().astype(np.float64).tolist()
        out[f"param_dtypes_{level}"] = sorted({str(q.dtype) for q in net.get_parameters()})
        # what the network object handed in computes afterwards
        out[f"original_after_{level}"] = net(x).asnumpy().astype(np.float64).tolist()
    for level in ("O0", "O1", "O2", "O3"):
        net = build(nn, Tensor, p)
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        kw = {}
        if level == "O2":
            kw["loss_scale_manager"] = FixedLossScaleManager(1024.0, drop_overflow_update=False)
            opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9,
                              loss_scale=1024.0)
        model = Model(net, loss, opt, amp_level=level, **kw)
        ds = NumpySlicesDataset({"x": p["x"], "y": p["y"]}, shuffle=False).batch(p["batch"])
        losses = []
        for _ in range(2):
            for xb, yb in ds.create_tuple_iterator():
                out_ = model.train_network(xb, yb)
                losses.append([str(out_.dtype), float(out_.asnumpy())])
        out[f"train_{level}_losses"] = losses
        out[f"train_{level}_w2"] = net.fc2.weight.asnumpy().astype(np.float64).tolist()
        out[f"train_{level}_w2_dtype"] = str(net.fc2.weight.dtype)
    # O2 with its default DynamicLossScaleManager is refused on the CPU
    net = build(nn, Tensor, p)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    try:
        Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
              amp_level="O2")
        out["o2_default_cpu"] = "ok"
    except ValueError as e:
        out["o2_default_cpu"] = str(e)
    # the loss scalers
    grads = (Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([[3.0]], np.float16)))
    s = amp.StaticLossScaler(8)
    out["static_scale"] = [g.asnumpy().tolist() for g in s.scale(grads)]
    out["static_unscale"] = [g.asnumpy().tolist() for g in s.unscale(grads)]
    out["static_scale_dtypes"] = [str(g.dtype) for g in s.scale(grads)]
    out["static_adjust"] = s.adjust(Tensor(True))
    d = amp.DynamicLossScaler(1024, 2, 3)
    seq = []
    for finite in (True, True, True, False, True, True, True, True):
        d.adjust(Tensor(finite))
        seq.append([float(d.scale_value.asnumpy()), int(d.counter.asnumpy())])
    out["dynamic_adjust_seq"] = seq
    out["all_finite"] = [bool(amp.all_finite(grads).asnumpy()),
                         bool(amp.all_finite((grads[0], Tensor(np.array([np.inf],
                                                                        np.float32))))
                              .asnumpy()),
                         bool(amp.all_finite((Tensor(np.array([np.nan], np.float16)),))
                              .asnumpy())]
    m = amp.DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=2)
    seq = []
    for overflow in (False, False, True, False, False, False, True, True):
        m.update_loss_scale(overflow)
        seq.append(m.get_loss_scale())
    out["manager_seq"] = seq
    return out


def main() -> None:
    import mindspore as ms

    ms.set_context(mode=ms.PYNATIVE_MODE)
    here = os.path.dirname(os.path.abspath(__file__))
    os.chdir(tempfile.mkdtemp())  # O1's rewrite writes its generated code to the cwd
    path = os.path.join(here, "..", "tests", "fixtures", "train_amp.json")
    data = {"mindspore_version": ms.__version__, "amp": record(ms)}
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    print("wrote", os.path.normpath(path), file=sys.stderr)


if __name__ == "__main__":
    main()
