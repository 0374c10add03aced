"""Record what MindSpore's ``Model`` and callbacks do on a fixed tiny problem into
tests/fixtures/train_model.json (printed lines, hook order, losses, weights, metrics,
checkpoint file names).

    /path/to/mindspore-venv/bin/python tools/record_train_model.py

``problem()`` builds the data and the initial weights from fixed seeds; the tests rebuild
the same problem in mindgrad."""
from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile

import numpy as np


def problem() -> dict:
    """10 samples of 4 features, 3 classes, and the initial Dense(4, 3) weights."""
    rng = np.random.default_rng(3)
    return dict(x=rng.normal(size=(10, 4)).astype(np.float32),
                y=rng.integers(0, 3, 10).astype(np.int32),
                w=(rng.normal(size=(3, 4)) * 0.5).astype(np.float32),
                b=np.zeros(3, np.float32), batch=4)


HOOKS = ["on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end",
         "on_train_epoch_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin",
         "on_eval_step_begin", "on_eval_step_end", "on_eval_epoch_end", "on_eval_end"]


def _f(v):
    """A loss-like output as a float (the first of a tuple)."""
    if isinstance(v, (tuple, list)):
        v = v[0]
    return float(np.mean(v.asnumpy())) if hasattr(v, "asnumpy") else v


def record(ms) -> dict:
    from mindspore import Tensor, nn
    from mindspore.dataset import NumpySlicesDataset
    from mindspore.train import (Accuracy, Callback, CheckpointConfig, EarlyStopping, History,
                                 LambdaCallback, LearningRateScheduler, Loss, LossMonitor, Model,
                                 ModelCheckpoint, ReduceLROnPlateau)

    p = problem()

    def data():
        ds = NumpySlicesDataset({"data": p["x"], "label": p["y"]}, shuffle=False)
        return ds.batch(p["batch"])

    def net():
        n = nn.Dense(4, 3, weight_init=Tensor(p["w"]), bias_init=Tensor(p["b"]))
        return n

    def model(lr=0.1, metrics=None, n=None):
        n = n or net()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = nn.Momentum(n.trainable_params(), learning_rate=lr, momentum=0.9)
        return Model(n, loss, opt, metrics=metrics), n, opt

    class Rec(Callback):
        def __init__(self):
            self.log = []

        def __getattribute__(self, name):
            if name in HOOKS:
                def hook(rc, name=name):
                    cb = rc.original_args()
                    self.log.append([name, cb.get("cur_epoch_num"), cb.get("cur_step_num"),
                                     cb.get("batch_num"), cb.get("epoch_num"), cb.get("mode"),
                                     _f(cb.get("net_outputs")) if "net_outputs" in cb else None])
                return hook
            return object.__getattribute__(self, name)

    class Old(Callback):
        def __init__(self):
            self.log = []

        def begin(self, rc):
            self.log.append("begin")

        def epoch_begin(self, rc):
            self.log.append("epoch_begin")

        def step_begin(self, rc):
            self.log.append("step_begin")

        def step_end(self, rc):
            self.log.append("step_end")

        def epoch_end(self, rc):
            self.log.append("epoch_end")

        def end(self, rc):
            self.log.append("end")

    out = {}
    # 1. train: printed lines, hook order, History, weights
    m, n, _ = model()
    rec, old, hist = Rec(), Old(), History()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        m.train(2, data(), callbacks=[LossMonitor(), rec, old, hist])
    out["train_print"] = buf.getvalue().splitlines()
    out["train_hooks"] = rec.log
    out["train_old_hooks"] = old.log
    out["history"] = {k: [float(x) for x in v] for k, v in hist.history.items()}
    out["history_epoch"] = hist.epoch
    out["train_weight"] = n.weight.asnumpy().tolist()
    out["train_bias"] = n.bias.asnumpy().tolist()
    # 2. eval and predict on the trained model
    m2, n2, _ = model(metrics={"acc": Accuracy(), "loss": Loss()})
    m2.train(1, data())
    rec = Rec()
    out["eval"] = {k: float(v) for k, v in m2.eval(data(), callbacks=[rec]).items()}
    out["eval_hooks"] = rec.log
    out["predict"] = m2.predict(Tensor(p["x"][:3])).asnumpy().tolist()
    # 3. LossMonitor(per_print_times=2) and initial_epoch
    m, _, _ = model()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        m.train(3, data(), callbacks=[LossMonitor(2)], initial_epoch=1)
    out["print_every_2_initial_epoch_1"] = buf.getvalue().splitlines()
    # 4. dataset_sink_mode=True with sink_size (CPU)
    m, n, _ = model()
    rec = Rec()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        m.train(2, data(), callbacks=[LossMonitor(), rec], dataset_sink_mode=True, sink_size=2)
    out["sink_print"] = buf.getvalue().splitlines()
    out["sink_weight"] = n.weight.asnumpy().tolist()
    # 5. fit with validation, EarlyStopping that never sees an improvement after epoch 1
    m, n, _ = model(metrics={"acc": Accuracy()})
    rec, hist = Rec(), History()
    es = EarlyStopping(monitor="acc", min_delta=10, patience=2, verbose=True)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        m.fit(5, data(), data(), callbacks=[LossMonitor(), es, rec, hist])
    out["fit_print"] = buf.getvalue().splitlines()
    out["fit_hooks"] = rec.log
    out["fit_history"] = {k: [float(x) for x in v] for k, v in hist.history.items()}
    out["fit_stopped_epoch"] = es.stopped_epoch
    # 6. ReduceLROnPlateau on the training loss, LearningRateScheduler
    m, n, opt = model(lr=0.5)
    buf = io.StringIO()
    rl = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=10, verbose=True)
    with contextlib.redirect_stdout(buf):
        m.train(3, data(), callbacks=[rl])
    out["plateau_print"] = buf.getvalue().splitlines()
    out["plateau_lr"] = float(opt.learning_rate.asnumpy())
    m, n, opt = model(lr=0.5)
    buf = io.StringIO()
    rl = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=10, min_lr=0.3,
                           verbose=True)
    with contextlib.redirect_stdout(buf):
        m.train(3, data(), callbacks=[rl])
    out["plateau_min_lr_print"] = buf.getvalue().splitlines()
    out["plateau_min_lr"] = float(opt.learning_rate.asnumpy())
    m, n, opt = model(lr=0.2)
    sched = LearningRateScheduler(lambda lr, step: lr * 0.5 if step % 2 == 0 else lr)
    m.train(2, data(), callbacks=[sched])
    out["scheduler_lr"] = float(opt.learning_rate.asnumpy())
    out["scheduler_weight"] = n.weight.asnumpy().tolist()
    # 7. LambdaCallback and request_stop
    m, n, _ = model()
    seen = []

    def stop_at_4(rc):
        cb = rc.original_args()
        seen.append(cb.cur_step_num)
        if cb.cur_step_num == 4:
            rc.request_stop()

    m.train(3, data(), callbacks=[LambdaCallback(on_train_step_end=stop_at_4)])
    out["lambda_steps"] = seen
    out["lambda_stop_weight"] = n.weight.asnumpy().tolist()
    # 8. ModelCheckpoint file names, keep_checkpoint_max, a second run in the same folder
    with tempfile.TemporaryDirectory() as d:
        cfg = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3)
        m, _, _ = model()
        ck = ModelCheckpoint(prefix="net", directory=d, config=cfg)
        m.train(3, data(), callbacks=[ck])
        out["ckpt_files"] = sorted(os.listdir(d))
        out["ckpt_latest"] = os.path.basename(ck.latest_ckpt_file_name)
        m, _, _ = model()
        m.train(1, data(), callbacks=[ModelCheckpoint(prefix="net", directory=d, config=cfg)])
        out["ckpt_files_second_run"] = sorted(os.listdir(d))
        params = ms.load_checkpoint(os.path.join(d, out["ckpt_latest"]))
        out["ckpt_param_names"] = sorted(params)
    with tempfile.TemporaryDirectory() as d:
        cfg = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=0,
                               keep_checkpoint_per_n_minutes=1)
        m, _, _ = model()
        m.train(3, data(), callbacks=[ModelCheckpoint(prefix="pm", directory=d, config=cfg)])
        out["ckpt_files_per_minute"] = sorted(os.listdir(d))
    return out


def main() -> None:
    import mindspore as ms

    ms.set_context(mode=ms.PYNATIVE_MODE)
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "tests", "fixtures", "train_model.json")
    data = {"mindspore_version": ms.__version__, "model": record(ms)}
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    print("wrote", os.path.normpath(path), file=sys.stderr)


if __name__ == "__main__":
    main()
