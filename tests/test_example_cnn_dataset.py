"""examples/train_cnn_dataset.py run as a user would (a subprocess): IDX files written from
scikit-learn's digits, mindspore.dataset + Model.fit, the progress bar, the plot and the
checkpoints; (marked slow) the full run, which must reach 97% test accuracy."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("sklearn")
pytest.importorskip("matplotlib")
pytest.importorskip("tqdm")
pytest.importorskip("mindgrad.dataset")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "train_cnn_dataset.py")


def run_example(tmp_path, *args, launcher="mindgrad-run", timeout):
    cmd = ([sys.executable, "-m", "mindgrad", "run", SCRIPT] if launcher == "mindgrad-run"
           else [sys.executable, SCRIPT]) + ["--out", str(tmp_path / "loss.png"), *args]
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout}\n{proc.stderr[-3000:]}"
    accuracy = float(re.search(r"^test accuracy: ([0-9.]+)", proc.stdout, re.M).group(1))
    return proc, accuracy


@pytest.mark.parametrize("launcher", ["mindgrad-run", "python"])
def test_quick_run(tmp_path, launcher):
    proc, accuracy = run_example(tmp_path, "--epochs", "2", "--limit", "256", "--progress",
                                 launcher=launcher, timeout=180)
    out = proc.stdout
    assert "train 8 batches / test 12 batches of 32 images 8x8" in out
    assert re.search(r"^epoch: 2 step: 8, loss is \d+\.\d+$", out, re.M)
    assert re.search(r"^Eval result: epoch 2, metrics: \{'accuracy': [0-9.]+\}$", out, re.M)
    assert 0.0 <= accuracy <= 1.0
    assert "Epoch 2/2" in proc.stderr and "8/8" in proc.stderr  # the tqdm bar
    assert (tmp_path / "loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(os.listdir(tmp_path / "cnn_dataset_ckpt")) == ["cnn-1_8.ckpt", "cnn-2_8.ckpt"]
    names = sorted(os.listdir(tmp_path / "digits_idx" / "train"))
    assert names == ["train-images-idx3-ubyte", "train-labels-idx1-ubyte"]


def test_reads_a_folder_with_the_four_files(tmp_path):
    """--data DIR holding all four MNIST files: usage picks train and test."""
    run_example(tmp_path, "--epochs", "1", "--limit", "64", timeout=180)
    flat = tmp_path / "flat"
    flat.mkdir()
    for sub in ("train", "test"):
        for f in os.listdir(tmp_path / "digits_idx" / sub):
            os.rename(tmp_path / "digits_idx" / sub / f, flat / f)
    proc, _ = run_example(tmp_path, "--data", str(flat), "--epochs", "1", "--limit", "64",
                          timeout=180)
    assert "train 2 batches / test 12 batches" in proc.stdout


@pytest.mark.slow
def test_full_run_reaches_97_percent(tmp_path):
    _, accuracy = run_example(tmp_path, timeout=600)
    assert accuracy >= 0.97
