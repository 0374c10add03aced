"""examples/train_digits.py, run as a user would (a subprocess): a quick smoke run on a
subset, and (marked slow) the full training run, which must reach 97% test accuracy."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("sklearn")
pytest.importorskip("matplotlib")
pytest.importorskip("tqdm")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "train_digits.py")
LAUNCHERS = {
    "mindgrad-run": [sys.executable, "-m", "mindgrad", "run", SCRIPT],  # import mindspore
    "python": [sys.executable, SCRIPT],  # the fallback to import mindgrad
}


def run_example(launcher, tmp_path, *args, timeout):
    out, ckpt = tmp_path / "loss.png", tmp_path / "net.ckpt"
    cmd = LAUNCHERS[launcher] + ["--out", str(out), "--ckpt", str(ckpt), *args]
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout}\n{proc.stderr[-3000:]}"
    text = proc.stdout
    trained = float(re.search(r"^test accuracy: ([0-9.]+)", text, re.M).group(1))
    reloaded = float(re.search(r"^reloaded test accuracy: ([0-9.]+)", text, re.M).group(1))
    return text, trained, reloaded, out, ckpt


@pytest.mark.parametrize("launcher", sorted(LAUNCHERS))
def test_quick_run_writes_plot_and_checkpoint(launcher, tmp_path):
    text, trained, reloaded, out, ckpt = run_example(
        launcher, tmp_path, "--epochs", "1", "--limit", "256", timeout=120)
    assert "train 256 / test 360" in text
    assert reloaded == trained
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert ckpt.stat().st_size > 0


@pytest.mark.slow
def test_full_run_reaches_97_percent(tmp_path):
    text, trained, reloaded, out, ckpt = run_example("mindgrad-run", tmp_path, timeout=600)
    assert trained >= 0.97, text
    assert reloaded == trained
    assert out.exists() and ckpt.exists()
