"""mindspore.train.Model and the callbacks against MindSpore 2.10 on the same tiny problem
(tools/record_train_model.py -> tests/fixtures/train_model.json): printed lines, hook order
and cb_params fields, losses, weights, metrics, checkpoint files."""
import contextlib
import importlib.util
import io
import json
import os
import re
import sys

import numpy as np
import pytest

import mindgrad as ms
from mindgrad import Tensor, nn
from mindgrad.train import (Accuracy, Callback, CheckpointConfig, EarlyStopping, History,
                            LambdaCallback, LearningRateScheduler, Loss, LossMonitor, Model,
                            ModelCheckpoint, ProgressBar, ReduceLROnPlateau, RunContext,
                            TimeMonitor)

HERE = os.path.dirname(__file__)
sys.path.insert(0, HERE)
from array_dataset import ArrayDataset, DictOnlyDataset  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "record_train_model", os.path.join(HERE, "..", "tools", "record_train_model.py"))
_rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_rec)
P = _rec.problem()
HOOKS = _rec.HOOKS
with open(os.path.join(HERE, "fixtures", "train_model.json")) as _f:
    REF = json.load(_f)["model"]
RTOL = 2e-6  # float32 sums in another order


def data(**kw):
    return ArrayDataset({"data": P["x"], "label": P["y"]}, P["batch"], **kw)


def model(lr=0.1, metrics=None, **kw):
    n = nn.Dense(4, 3, weight_init=Tensor(P["w"]), bias_init=Tensor(P["b"]))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(n.trainable_params(), learning_rate=lr, momentum=0.9)
    return Model(n, loss, opt, metrics=metrics, **kw), n, opt


_NUM = re.compile(r"-?\d+\.\d+(?:e-?\d+)?")


def same_lines(got, want):
    """Equal text with the floats in it equal to RTOL."""
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want):
        assert _NUM.sub("#", g) == _NUM.sub("#", w), (g, w)
        np.testing.assert_allclose([float(x) for x in _NUM.findall(g)],
                                   [float(x) for x in _NUM.findall(w)], rtol=RTOL)


def same_log(got, want):
    """Hook logs: the same rows, the loss column equal to RTOL."""
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g[:-1] == w[:-1], (g, w)
        if w[-1] is None:
            assert g[-1] is None
        else:
            assert g[-1] == pytest.approx(w[-1], rel=RTOL)


class Rec(Callback):
    """Logs every on_* hook with the cb_params fields MindSpore's recorder logged."""

    def __init__(self):
        self.log = []

    def __getattribute__(self, name):
        if name in HOOKS:
            def hook(rc, name=name):
                cb = rc.original_args()
                self.log.append([name, cb.get("cur_epoch_num"), cb.get("cur_step_num"),
                                 cb.get("batch_num"), cb.get("epoch_num"), cb.get("mode"),
                                 _rec._f(cb.get("net_outputs")) if "net_outputs" in cb
                                 else None])
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


def run_printing(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn()
    return buf.getvalue().splitlines()


@pytest.fixture(params=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=ms.GRAPH_MODE if request.param == "graph" else ms.PYNATIVE_MODE)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_train_prints_hooks_history_weights(mode):
    m, n, _ = model()
    rec, old, hist = Rec(), Old(), History()
    with pytest.warns(UserWarning, match="Old callback"):
        lines = run_printing(lambda: m.train(2, data(), callbacks=[LossMonitor(), rec, old,
                                                                   hist]))
    same_lines(lines, REF["train_print"])
    same_log(rec.log, REF["train_hooks"])
    assert old.log == REF["train_old_hooks"]
    assert hist.epoch == REF["history_epoch"]
    np.testing.assert_allclose(np.array(hist.history["net_output"], np.float64),
                               REF["history"]["net_output"], rtol=RTOL)
    np.testing.assert_allclose(n.weight.asnumpy(), REF["train_weight"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(n.bias.asnumpy(), REF["train_bias"], rtol=1e-5, atol=1e-6)


def test_eval_and_predict(mode):
    m, _, _ = model(metrics={"acc": Accuracy(), "loss": Loss()})
    m.train(1, data())
    rec = Rec()
    got = m.eval(data(), callbacks=[rec])
    assert set(got) == {"acc", "loss"}
    assert got["acc"] == REF["eval"]["acc"]
    assert got["loss"] == pytest.approx(REF["eval"]["loss"], rel=RTOL)
    # the values stay the metrics' NumPy scalars, printed as MindSpore (NumPy 1.x) prints them
    assert isinstance(got["acc"], np.floating) and isinstance(got, dict)
    assert repr(got) == str(got) == "{'acc': %r, 'loss': %r}" % (float(got["acc"]),
                                                                 float(got["loss"]))
    same_log(rec.log, REF["eval_hooks"])
    out = m.predict(Tensor(P["x"][:3]))
    np.testing.assert_allclose(out.asnumpy(), REF["predict"], rtol=1e-5, atol=1e-6)


def test_cb_params_fields():
    m, n, opt = model(metrics={"acc": Accuracy()})
    ds = data()
    seen = {}

    def train_step(rc):
        cb = rc.original_args()
        seen["train"] = dict(cb)

    class EvalEnd(Callback):  # fit evaluates with the user's own callbacks (and TimeMonitor)
        def on_eval_end(self, rc):
            seen["eval"] = dict(rc.original_args())

    lam = LambdaCallback(on_train_step_end=train_step,
                         on_eval_end=lambda rc: seen.setdefault("lambda_eval", True))
    m.fit(1, ds, ds, callbacks=[lam, EvalEnd()])
    assert "lambda_eval" not in seen  # MindSpore's own callbacks do not see fit's evaluation
    t = seen["train"]
    assert t["optimizer"] is opt and t["network"] is n and t["train_network"] is m.train_network
    assert isinstance(t["loss_fn"], nn.SoftmaxCrossEntropyWithLogits)
    assert t["train_dataset"] is ds and t["epoch_num"] == 1 and t["batch_num"] == 3
    assert t["mode"] == "train" and t["dataset_sink_mode"] is False
    assert t["parallel_mode"] == "stand_alone" and t["device_number"] == 1
    x, y = t["train_dataset_element"]
    np.testing.assert_array_equal(x.asnumpy(), P["x"][8:])
    np.testing.assert_array_equal(y.asnumpy(), P["y"][8:])
    assert t["cur_step_num"] == 3 and t["cur_epoch_num"] == 1
    e = seen["eval"]
    assert e["mode"] == "eval" and e["eval_network"] is m.eval_network
    assert e["valid_dataset"] is ds and e["cur_step_num"] == 3
    assert set(e["metrics"]) == {"acc"} and set(e["eval_results"]) == {"acc", "eval_loss"}
    assert len(e["eval_dataset_element"]) == 2


def test_print_every_2_with_initial_epoch():
    m, _, _ = model()
    lines = run_printing(lambda: m.train(3, data(), callbacks=[LossMonitor(2)],
                                         initial_epoch=1))
    same_lines(lines, REF["print_every_2_initial_epoch_1"])


def test_sink_mode_runs_as_mindspore_on_cpu():
    m, n, _ = model()
    lines = run_printing(lambda: m.train(2, data(), callbacks=[LossMonitor()],
                                         dataset_sink_mode=True, sink_size=2))
    same_lines(lines, REF["sink_print"])
    np.testing.assert_allclose(n.weight.asnumpy(), REF["sink_weight"], rtol=1e-5, atol=1e-6)


def test_fit_with_validation_and_early_stopping(mode):
    m, _, _ = model(metrics={"acc": Accuracy()})
    rec, hist = Rec(), History()
    es = EarlyStopping(monitor="acc", min_delta=10, patience=2, verbose=True)
    lines = run_printing(lambda: m.fit(5, data(), data(), callbacks=[LossMonitor(), es, rec,
                                                                     hist]))
    same_lines(lines, REF["fit_print"])
    same_log(rec.log, REF["fit_hooks"])
    assert es.stopped_epoch == REF["fit_stopped_epoch"] == 3
    assert hist.history["acc"] == REF["fit_history"]["acc"]
    np.testing.assert_allclose(np.array(hist.history["net_output"], np.float64),
                               REF["fit_history"]["net_output"], rtol=RTOL)


def test_reduce_lr_on_plateau_and_scheduler():
    m, _, opt = model(lr=0.5)
    rl = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=10, verbose=True)
    lines = run_printing(lambda: m.train(3, data(), callbacks=[rl]))
    assert lines == REF["plateau_print"]
    assert float(opt.learning_rate.asnumpy()) == REF["plateau_lr"]
    m, _, opt = model(lr=0.5)
    rl = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=10, min_lr=0.3,
                           verbose=True)
    assert run_printing(lambda: m.train(3, data(), callbacks=[rl])) == \
        REF["plateau_min_lr_print"]
    assert float(opt.learning_rate.asnumpy()) == REF["plateau_min_lr"]
    m, n, opt = model(lr=0.2)
    m.train(2, data(), callbacks=[
        LearningRateScheduler(lambda lr, step: lr * 0.5 if step % 2 == 0 else lr)])
    assert float(opt.learning_rate.asnumpy()) == REF["scheduler_lr"]
    np.testing.assert_allclose(n.weight.asnumpy(), REF["scheduler_weight"], rtol=1e-5,
                               atol=1e-6)


def test_lambda_callback_request_stop():
    m, n, _ = model()
    seen = []

    def stop_at_4(rc):
        assert isinstance(rc, RunContext)
        seen.append(rc.original_args().cur_step_num)
        if rc.original_args().cur_step_num == 4:
            rc.request_stop()

    m.train(3, data(), callbacks=[LambdaCallback(on_train_step_end=stop_at_4)])
    assert seen == REF["lambda_steps"]
    np.testing.assert_allclose(n.weight.asnumpy(), REF["lambda_stop_weight"], rtol=1e-5,
                               atol=1e-6)


def test_model_checkpoint_names_and_keep_max(tmp_path):
    cfg = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3)
    m, _, _ = model()
    ck = ModelCheckpoint(prefix="net", directory=str(tmp_path), config=cfg)
    m.train(3, data(), callbacks=[ck])
    assert sorted(os.listdir(tmp_path)) == REF["ckpt_files"]
    assert os.path.basename(ck.latest_ckpt_file_name) == REF["ckpt_latest"]
    m, _, _ = model()
    m.train(1, data(), callbacks=[ModelCheckpoint(prefix="net", directory=str(tmp_path),
                                                  config=cfg)])
    assert sorted(os.listdir(tmp_path)) == REF["ckpt_files_second_run"]
    params = ms.load_checkpoint(ck.latest_ckpt_file_name)
    assert sorted(params) == REF["ckpt_param_names"]  # Momentum's 'momentum' included


def test_model_checkpoint_removes_the_first_written_on_equal_times(tmp_path):
    """On a file system with a coarse clock all checkpoints may share one mtime."""
    def same_times(rc):
        for f in os.listdir(tmp_path):
            os.utime(tmp_path / f, ns=(10**18, 10**18))

    cfg = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=2)
    m, _, _ = model()
    m.train(2, data(), callbacks=[ModelCheckpoint(prefix="t", directory=str(tmp_path),
                                                  config=cfg),
                                  LambdaCallback(on_train_step_end=same_times)])
    assert sorted(os.listdir(tmp_path)) == ["t-2_2.ckpt", "t-2_3.ckpt"]


def test_model_checkpoint_keep_per_minutes(tmp_path):
    cfg = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=0,
                           keep_checkpoint_per_n_minutes=1)
    m, _, _ = model()
    m.train(3, data(), callbacks=[ModelCheckpoint(prefix="pm", directory=str(tmp_path),
                                                  config=cfg)])
    assert sorted(os.listdir(tmp_path)) == REF["ckpt_files_per_minute"]


@pytest.mark.parametrize("keep", [{"keep_checkpoint_max": 1},
                                  {"keep_checkpoint_max": 0, "keep_checkpoint_per_n_minutes": 1}])
def test_model_checkpoint_files_removed_by_another_process(tmp_path, keep):
    """Data-parallel ranks sharing a directory remove each other's old checkpoints: a file
    gone between the listing and its removal is skipped. Here every file is removed right
    after the callback lists them, as another rank would."""
    m, _, _ = model()
    ck = ModelCheckpoint(prefix="s", directory=str(tmp_path),
                         config=CheckpointConfig(save_checkpoint_steps=1, **keep))
    listing = ck._existing
    gone = []

    def listed_then_removed() -> list:
        files = listing()
        for f in files:
            os.remove(f)
            gone.append(os.path.basename(f))
        return files

    ck._existing = listed_then_removed
    m.train(1, data(), callbacks=[ck])
    assert gone and os.listdir(tmp_path) == [os.path.basename(ck.latest_ckpt_file_name)]


def test_checkpoint_holds_the_trained_weights(tmp_path):
    m, n, _ = model()
    cfg = CheckpointConfig(save_checkpoint_steps=3, append_info=["epoch_num", "step_num",
                                                                 {"tag": 1.5}])
    ck = ModelCheckpoint(prefix="w", directory=str(tmp_path), config=cfg)
    m.train(2, data(), callbacks=[ck])
    assert sorted(os.listdir(tmp_path)) == ["w-1_3.ckpt", "w-2_3.ckpt"]
    params = ms.load_checkpoint(ck.latest_ckpt_file_name)
    np.testing.assert_array_equal(params["weight"].asnumpy(), n.weight.asnumpy())
    assert int(params["epoch_num"].asnumpy()) == 2 and int(params["step_num"].asnumpy()) == 6
    assert float(params["tag"].asnumpy()) == 1.5
    # a callable prefix names the file itself; saved_network saves that Cell
    ck2 = ModelCheckpoint(prefix=lambda cb: f"e{cb.cur_epoch_num}",
                          directory=str(tmp_path / "sub"),
                          config=CheckpointConfig(save_checkpoint_steps=3, saved_network=n))
    m.train(1, data(), callbacks=[ck2])
    assert sorted(os.listdir(tmp_path / "sub")) == ["e1.ckpt"]
    assert sorted(ms.load_checkpoint(str(tmp_path / "sub" / "e1.ckpt"))) == ["bias", "weight"]
    # the safetensors format
    pytest.importorskip("safetensors")
    ck3 = ModelCheckpoint(prefix="s", directory=str(tmp_path / "st"),
                          config=CheckpointConfig(save_checkpoint_steps=3, format="safetensors"))
    m.train(1, data(), callbacks=[ck3])
    assert sorted(os.listdir(tmp_path / "st")) == ["s-1_3.safetensors"]
    loaded = ms.load_checkpoint(str(tmp_path / "st" / "s-1_3.safetensors"), format="safetensors")
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), n.weight.asnumpy())


def test_early_stopping_restores_best_weights():
    m, n, _ = model(lr=0.1, metrics={"acc": Accuracy()})
    snapshots = []
    es = EarlyStopping(monitor="eval_loss", patience=1, min_delta=100, restore_best_weights=True)
    m.fit(4, data(), data(), callbacks=[
        LambdaCallback(on_train_epoch_end=lambda rc: snapshots.append(n.weight.asnumpy())),
        es])
    # epoch 1 is the best (nothing beats it by 100); training stops after epoch 2 and the
    # weights go back to epoch 1's
    assert es.stopped_epoch == 2 and len(snapshots) == 2
    np.testing.assert_array_equal(n.weight.asnumpy(), snapshots[0])


def test_time_monitor_and_progress_bar():
    m, _, _ = model(metrics={"acc": Accuracy()})
    bar_out = io.StringIO()
    lines = run_printing(lambda: m.fit(2, data(), data(), callbacks=[
        TimeMonitor(data_time=True), LossMonitor(0), ProgressBar(file=bar_out)]))
    pattern = re.compile(r"(Train|Eval) epoch time: \d+\.\d{3} ms, per step time: "
                         r"\d+\.\d{3} ms \(data time: \d+\.\d{3} ms\)")
    modes = [pattern.fullmatch(line).group(1) for line in lines if "epoch time" in line]
    assert modes == ["Eval", "Train", "Eval", "Train"]
    assert "Eval result: epoch 1, metrics: {'acc': 0.6}" in lines
    bar = bar_out.getvalue()
    assert "Epoch 1/2" in bar and "Epoch 2/2" in bar and "3/3" in bar and "loss=" in bar


def test_progress_bar_only_on_a_terminal(monkeypatch):
    from mindgrad.train.callback import _callback

    m, _, _ = model()
    seen = []
    spy = LambdaCallback(on_train_begin=lambda rc: seen.append(
        [type(c).__name__ for c in rc.original_args().list_callback]))
    m.train(1, data(), callbacks=[spy])
    monkeypatch.setattr("mindgrad.train.model.stdout_is_terminal", lambda: True)
    monkeypatch.setattr(_callback, "_ACTIVE_BARS", _callback._ACTIVE_BARS)
    with contextlib.redirect_stderr(io.StringIO()):
        m.train(1, data(), callbacks=[spy])
    assert seen == [["LambdaCallback"], ["ProgressBar", "LambdaCallback"]]


def test_other_dataset_forms_give_the_same_training():
    results = []
    for ds in (data(), data(as_tensor=False),
               DictOnlyDataset({"data": P["x"], "label": P["y"]}, P["batch"]),
               [(P["x"][i:i + 4], P["y"][i:i + 4]) for i in range(0, 10, 4)]):
        m, n, _ = model()
        m.train(2, ds)
        results.append(n.weight.asnumpy())
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])
    np.testing.assert_allclose(results[0], REF["train_weight"], rtol=1e-5, atol=1e-6)


def test_one_iterator_for_all_epochs():
    ds = data()
    m, _, _ = model()
    m.train(3, ds)
    assert ds.iterators_made == 1


def test_network_with_its_own_loss_and_no_optimizer():
    n = nn.Dense(4, 3, weight_init=Tensor(P["w"]), bias_init=Tensor(P["b"]))
    with_loss = nn.WithLossCell(n, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                   reduction="mean"))
    opt = nn.Momentum(n.trainable_params(), learning_rate=0.1, momentum=0.9)
    m = Model(with_loss, optimizer=opt)
    m.train(2, data())
    np.testing.assert_allclose(n.weight.asnumpy(), REF["train_weight"], rtol=1e-5, atol=1e-6)
    # eval_network with eval_indexes
    m2 = Model(n, metrics={"acc"}, eval_network=nn.WithEvalCell(
        n, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
        eval_indexes=[0, 1, 2])
    assert set(m2.eval(data())) == {"acc"}


def test_mindspore_module_paths():
    from mindgrad import compat

    compat.uninstall()
    compat.install()
    try:
        from mindspore.nn.wrap import TrainOneStepCell
        from mindspore.train.callback import LossMonitor as LM
        from mindspore.train.model import Model as M
        from mindspore.nn.metrics import Accuracy as A
        import mindspore.amp as msamp
        from mindspore import Model as M2, LossMonitor as LM2
    finally:
        compat.uninstall()
    assert TrainOneStepCell is nn.TrainOneStepCell and LM is LM2 is LossMonitor
    assert M is M2 is Model and A is Accuracy and msamp is ms.amp


def test_bad_arguments():
    m, _, _ = model()
    with pytest.raises(ValueError, match="'epoch' must bigger than parameter 'initial_epoch'"):
        m.train(2, data(), initial_epoch=2)
    with pytest.raises(ValueError, match="'epoch' must be a positive int"):
        m.train(0, data())
    with pytest.raises(ValueError, match="sink_size"):
        m.train(1, data(), sink_size=0)
    with pytest.raises(TypeError, match="dataset_sink_mode"):
        m.train(1, data(), dataset_sink_mode=1)
    with pytest.raises(ValueError, match="no valid data.*ArrayDataset has 0 batches"):
        m.train(1, ArrayDataset({"data": P["x"][:0], "label": P["y"][:0]}, 4))
    with pytest.raises(TypeError, match="get_dataset_size"):
        m.train(1, object())
    with pytest.raises(ValueError, match="'metrics' can not be None"):
        m.eval(data())
    with pytest.raises(ValueError, match="should return two elements, but got 1"):
        m.train(1, ArrayDataset({"data": P["x"]}, 4))
    with pytest.raises(TypeError, match="Callback"):
        m.train(1, data(), callbacks=[object()])
    with pytest.raises(ValueError, match="kwargs|keyword"):
        Model(nn.Dense(2, 2), bad=1)
    with pytest.raises(ValueError, match="optimizer' is None"):
        Model(nn.Dense(2, 2), amp_level="O2")
    with pytest.raises(ValueError, match="eval_network"):
        Model(nn.Dense(2, 2), metrics={"acc"})
    with pytest.raises(TypeError, match="'network' must be a Cell"):
        Model(lambda x: x)
    with pytest.raises(ValueError, match="per_print_times"):
        LossMonitor(-1)
    with pytest.raises(ValueError, match="can't be all None or 0"):
        CheckpointConfig(save_checkpoint_steps=0, keep_checkpoint_max=0)
    with pytest.raises(ValueError, match="prefix"):
        ModelCheckpoint(prefix="a/b")
    with pytest.raises(ValueError, match="'mode' should be"):
        EarlyStopping(mode="up")
    with pytest.raises(ValueError, match="factor"):
        ReduceLROnPlateau(factor=1.5)
    with pytest.raises(TypeError, match="RunContext"):
        RunContext([1])
    with pytest.raises(TypeError, match="learning_rate_function"):
        LearningRateScheduler(3)


def test_loss_monitor_stops_on_nan():
    n = nn.Dense(4, 3, weight_init=Tensor(P["w"]), bias_init=Tensor(P["b"]))
    opt = nn.Momentum(n.trainable_params(), learning_rate=0.1, momentum=0.9)
    m = Model(n, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
    bad = P["x"].copy()
    bad[5, 0] = np.nan
    with pytest.raises(ValueError, match="In epoch: 1 step: 2, loss is NAN or INF"):
        run_printing(lambda: m.train(1, ArrayDataset({"data": bad, "label": P["y"]}, 4),
                                     callbacks=[LossMonitor()]))


def test_scheduler_needs_a_fixed_rate():
    n = nn.Dense(4, 3)
    opt = nn.Momentum(n.trainable_params(), learning_rate=[0.1, 0.05, 0.01], momentum=0.9)
    m = Model(n, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
    with pytest.raises(ValueError, match="one fixed learning rate"):
        m.train(1, data(), callbacks=[LearningRateScheduler(lambda lr, s: lr)])
