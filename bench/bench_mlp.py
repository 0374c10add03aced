"""One training step of an MLP 784-512-512-10 with tanh, batch 128, softmax cross-entropy and
SGD, written the MindSpore way (nn.Dense, nn.SequentialCell,
nn.SoftmaxCrossEntropyWithLogits(sparse=True), value_and_grad, nn.SGD), PYNATIVE and
jit-compiled, against the same step hand-written in NumPy. PyTorch eager and jax.jit are
measured too when installed.

    python bench/bench_mlp.py [--repeats N] [--steps-check K]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import compare_times, report  # noqa: E402

import mindgrad as ms  # noqa: E402
from mindgrad import nn  # noqa: E402

SIZES = (784, 512, 512, 10)
BATCH = 128
LR = 0.01


def init_weights(seed: int = 0) -> list[np.ndarray]:
    """(W, b) per layer; W has MindSpore's Dense layout (out, in)."""
    rng = np.random.default_rng(seed)
    out = []
    for n_in, n_out in zip(SIZES[:-1], SIZES[1:]):
        out.append((rng.standard_normal((n_out, n_in)) / np.sqrt(n_in)).astype(np.float32))
        out.append(np.zeros(n_out, np.float32))
    return out


class NumpyMLP:
    """The same step by hand: forward, backward and an in-place SGD update."""

    def __init__(self, weights: list[np.ndarray]) -> None:
        self.w = [w.copy() for w in weights]

    def step(self, x: np.ndarray, y: np.ndarray) -> float:
        w1, b1, w2, b2, w3, b3 = self.w
        h1 = np.tanh(x @ w1.T + b1)
        h2 = np.tanh(h1 @ w2.T + b2)
        logits = h2 @ w3.T + b3
        m = logits.max(axis=1, keepdims=True)
        e = np.exp(logits - m)
        s = e.sum(axis=1, keepdims=True)
        rows = np.arange(len(y))
        loss = float(np.mean(np.log(s[:, 0]) + m[:, 0] - logits[rows, y]))
        d3 = e / s
        d3[rows, y] -= 1
        d3 /= len(y)
        g_w3, g_b3 = d3.T @ h2, d3.sum(0)
        d2 = (d3 @ w3) * (1 - h2 * h2)
        g_w2, g_b2 = d2.T @ h1, d2.sum(0)
        d1 = (d2 @ w2) * (1 - h1 * h1)
        g_w1, g_b1 = d1.T @ x, d1.sum(0)
        for p, g in zip(self.w, (g_w1, g_b1, g_w2, g_b2, g_w3, g_b3)):
            p -= LR * g
        return loss


def mindgrad_step(weights: list[np.ndarray]):
    """Build the MindSpore-style network and return (train_step, net)."""
    net = nn.SequentialCell([nn.Dense(784, 512, activation="tanh"),
                             nn.Dense(512, 512, activation="tanh"),
                             nn.Dense(512, 10)])
    for p, w in zip(net.trainable_params(), weights):
        p.set_data(ms.Tensor(w))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.SGD(net.trainable_params(), learning_rate=LR)

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    return train_step, net


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    xa = rng.standard_normal((BATCH, 784)).astype(np.float32)
    ya = rng.integers(0, 10, BATCH).astype(np.int32)
    weights = init_weights()
    x, y = ms.Tensor(xa), ms.Tensor(ya)

    # agreement: three steps of each give the same losses and weights
    ref = NumpyMLP(weights)
    ref_losses = [ref.step(xa, ya) for _ in range(3)]
    results = {}
    for label, compiled in (("mindgrad PYNATIVE", False), ("mindgrad jit", True)):
        step, net = mindgrad_step(weights)
        run = ms.jit(step) if compiled else step
        losses = [float(run(x, y).asnumpy()) for _ in range(3)]
        assert np.allclose(losses, ref_losses, rtol=1e-4), (label, losses, ref_losses)
        for p, w in zip(net.trainable_params(), ref.w):
            assert np.allclose(p.asnumpy(), w, rtol=1e-3, atol=1e-5), (label, p.name)
        results[label] = run

    fns = {"NumPy": lambda: ref.step(xa, ya)}
    for label, run in results.items():
        fns[label] = (lambda r: lambda: r(x, y))(run)
    fns.update(peer_fns(xa, ya, weights))
    times = compare_times(fns, args.repeats, 0.2)
    report(f"MLP 784-512-512-10 tanh, batch {BATCH}, one SGD training step, median of "
           f"{args.repeats} rounds (hand-written NumPy = 1.00x)", times, "NumPy")


def peer_fns(xa, ya, weights) -> dict:
    """PyTorch eager and jax.jit, where installed (a separate virtualenv for benchmarks), each
    checked against the NumPy losses of three steps."""
    fns = {}
    for make in (torch_fns, jax_fns):
        fns.update(make(xa, ya, weights))
    return fns


def _check_losses(label: str, losses: list, xa, ya, weights) -> None:
    ref = NumpyMLP(weights)
    want = [ref.step(xa, ya) for _ in range(3)]
    assert np.allclose(losses, want, rtol=1e-4), (label, losses, want)


def torch_fns(xa, ya, weights) -> dict:
    try:
        import torch
    except ImportError:
        return {}
    ps = [torch.tensor(w, requires_grad=True) for w in weights]
    xt, yt = torch.tensor(xa), torch.tensor(ya, dtype=torch.long)

    def torch_step():
        h = xt
        for i in range(0, 6, 2):
            h = h @ ps[i].T + ps[i + 1]
            if i < 4:
                h = torch.tanh(h)
        loss = torch.nn.functional.cross_entropy(h, yt)
        grads = torch.autograd.grad(loss, ps)
        with torch.no_grad():
            for p, g in zip(ps, grads):
                p -= LR * g
        return loss.detach()

    _check_losses("PyTorch eager", [float(torch_step()) for _ in range(3)], xa, ya, weights)
    return {"PyTorch eager": torch_step}


def jax_fns(xa, ya, weights) -> dict:
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return {}

    def loss_fn(ps, x, y):
        h = x
        for i in range(0, 6, 2):
            h = h @ ps[i].T + ps[i + 1]
            if i < 4:
                h = jnp.tanh(h)
        logp = jax.nn.log_softmax(h)
        return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))

    @jax.jit
    def step(ps, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(ps, x, y)
        return loss, [p - LR * g for p, g in zip(ps, grads)]

    state = {"ps": [jnp.asarray(w) for w in weights]}
    xj, yj = jnp.asarray(xa), jnp.asarray(ya)

    def jax_step():
        loss, state["ps"] = step(state["ps"], xj, yj)
        return loss.block_until_ready()

    _check_losses("jax.jit", [float(jax_step()) for _ in range(3)], xa, ya, weights)
    return {"jax.jit": jax_step}


if __name__ == "__main__":
    main()
