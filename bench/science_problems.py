"""The problems of ``bench_science.py``, in plain NumPy so that every contender (mindgrad, a
hand-written NumPy forward Laplacian, jax in its own virtualenv) builds them from the same
arrays: the PINN network (an MLP R^8 -> R, widths 8-128-128-128-1, tanh) at 256 points, and
the loss of a 784-512-512-10 MLP (ReLU, softmax cross-entropy) for Hessian-vector products."""
from __future__ import annotations

import numpy as np

PINN_WIDTHS = (8, 128, 128, 128, 1)
PINN_POINTS = 256
HVP_WIDTHS = (784, 512, 512, 10)
HVP_BATCH = 64


def pinn_arrays(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    out = {"x": rng.uniform(-1, 1, (PINN_POINTS, PINN_WIDTHS[0])).astype(np.float32)}
    for i, (a, b) in enumerate(zip(PINN_WIDTHS[:-1], PINN_WIDTHS[1:])):
        out[f"w{i}"] = (rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32)
        out[f"b{i}"] = (rng.standard_normal(b) * 0.1).astype(np.float32)
    return out


def hvp_arrays(seed: int = 1) -> dict:
    rng = np.random.default_rng(seed)
    out = {"x": rng.standard_normal((HVP_BATCH, HVP_WIDTHS[0])).astype(np.float32),
           "y": np.eye(HVP_WIDTHS[-1], dtype=np.float32)[rng.integers(0, 10, HVP_BATCH)]}
    for i, (a, b) in enumerate(zip(HVP_WIDTHS[:-1], HVP_WIDTHS[1:])):
        out[f"w{i}"] = (rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32)
        out[f"b{i}"] = (rng.standard_normal(b) * 0.1).astype(np.float32)
        out[f"vw{i}"] = rng.standard_normal((a, b)).astype(np.float32)
        out[f"vb{i}"] = rng.standard_normal(b).astype(np.float32)
    return out


def numpy_forward_laplacian(a: dict) -> np.ndarray:
    """The per-point Laplacian of the PINN network by a hand-written forward Laplacian: the
    value, the first derivatives along the 8 input directions (stacked as rows of one matrix
    so that each layer is one BLAS call) and the summed second-order term."""
    x = a["x"]
    n, d = x.shape
    layers = len(PINN_WIDTHS) - 1
    h = x @ a["w0"] + a["b0"]
    g = np.repeat(a["w0"][:, None, :], n, axis=1).reshape(d * n, -1)  # d(h)/dx_k, k-major
    lap = None
    for i in range(layers):
        if i > 0:
            h = h @ a[f"w{i}"] + a[f"b{i}"]
            g = g @ a[f"w{i}"]
            lap = lap @ a[f"w{i}"]
        if i < layers - 1:
            y = np.tanh(h)
            d1 = 1 - y * y
            g3 = g.reshape(d, n, -1)
            sq = np.einsum("knj,knj->nj", g3, g3)
            term = -2 * y * d1 * sq
            lap = term if lap is None else d1 * lap + term
            g = (g3 * d1).reshape(d * n, -1)
            h = y
    return lap[:, 0]
