"""examples/pinn_burgers.py: its Cole-Hopf reference against an independent finite-volume
solution (method of lines, scipy's solve_ivp), and the script run as a user would (a
subprocess): the short run must reach a relative L2 error of 0.1 and write its plot;
(marked slow) the full run must reach 5e-2."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("tqdm")
pytest.importorskip("scipy")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "examples", "pinn_burgers.py")


def load_script():
    spec = importlib.util.spec_from_file_location("pinn_burgers", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def finite_volume(t_eval, x_eval, nu, cells=1024):
    """Burgers by the method of lines: Rusanov fluxes, central diffusion, RK45."""
    from scipy.integrate import solve_ivp

    x = np.linspace(-1.0, 1.0, cells + 1)
    dx = x[1] - x[0]

    def rhs(_, v):
        u = np.concatenate([[0.0], v, [0.0]])  # u(t, +-1) = 0
        f = 0.5 * u * u
        a = np.maximum(abs(u[:-1]), abs(u[1:]))
        flux = 0.5 * (f[:-1] + f[1:]) - 0.5 * a * (u[1:] - u[:-1])
        return -(flux[1:] - flux[:-1]) / dx + nu * (u[2:] - 2 * u[1:-1] + u[:-2]) / dx ** 2

    sol = solve_ivp(rhs, (0.0, t_eval[-1]), -np.sin(np.pi * x[1:-1]), t_eval=t_eval,
                    rtol=1e-7, atol=1e-9)
    assert sol.status == 0
    full = np.concatenate([np.zeros((1, len(t_eval))), sol.y, np.zeros((1, len(t_eval)))])
    return np.array([np.interp(x_eval, x, full[:, k]) for k in range(len(t_eval))])


def test_cole_hopf_reference_matches_finite_volumes():
    example = load_script()
    t = np.linspace(0.0, 1.0, 11)
    x = np.linspace(-1.0, 1.0, 201)
    ref = example.cole_hopf(t, x)
    np.testing.assert_allclose(ref[0], -np.sin(np.pi * x), atol=1e-12)  # the initial value
    np.testing.assert_allclose(ref[:, [0, -1]], 0.0, atol=1e-12)  # the boundary values
    np.testing.assert_allclose(example.cole_hopf(t, x, nodes=400), ref, atol=1e-12)  # converged
    fv = finite_volume(t, x, example.NU)
    # the first-order scheme smears the shock a little: 1.6e-3 at 4096 cells, 4e-3 here
    assert np.linalg.norm(fv - ref) / np.linalg.norm(ref) < 1e-2
    assert ref[-1, 98] - ref[-1, 102] > 1.2  # at t = 1: a shock, u drops by 1.2 in x +-0.02


def run_example(tmp_path, *args, timeout):
    out = tmp_path / "burgers.png"
    cmd = [sys.executable, "-m", "mindgrad", "run", SCRIPT, "--out", str(out), *args]
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout}\n{proc.stderr[-3000:]}"
    err = float(re.search(r"^relative L2 error: ([0-9.e+-]+)$", proc.stdout, re.M).group(1))
    return proc, err, out


def test_quick_run_solves_burgers(tmp_path):
    proc, err, out = run_example(tmp_path, "--quick", timeout=300)
    # this run measures 1.8e-2 (2.8e-1 after its Adam phase, about 0.6 untrained); seeds 1 to
    # 3 gave 2.0e-2 to 6.9e-2: the short L-BFGS phase does not always find the shock
    assert err <= 0.1, proc.stdout
    assert re.search(r"1000 Adam steps, [1-9]\d* L-BFGS iterations", proc.stdout)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_full_run_reaches_5e_2(tmp_path):
    proc, err, out = run_example(tmp_path, timeout=900)
    assert err <= 5e-2, proc.stdout
    assert out.exists()
