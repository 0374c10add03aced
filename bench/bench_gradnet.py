"""The seed's GradNetWrtX (x * z then MatMul, gradient with respect to x) on its 2x3 and 3x3
inputs: PYNATIVE and GRAPH against hand-written NumPy forward + backward, and PyTorch eager
and jax.jit where installed.

    python bench/bench_gradnet.py [--repeats N]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import compare_times, report  # noqa: E402

import mindgrad as ms  # noqa: E402
from mindgrad import nn, ops  # noqa: E402
from mindgrad.context import _state  # noqa: E402


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.z = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name="z")

    def construct(self, x, y):
        x = x * self.z
        return self.matmul(x, y)


class GradNetWrtX(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad_op = ops.GradOperation()

    def construct(self, x, y):
        return self.grad_op(self.net)(x, y)


def numpy_grad(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Hand-written forward and backward of the same network."""
    out = (x * z) @ y
    g = np.ones_like(out)
    return (g @ y.T) * z


def peer_fns(xa: np.ndarray, ya: np.ndarray, za: np.ndarray, ref: np.ndarray) -> dict:
    """PyTorch eager and jax.jit, where installed (a separate virtualenv for benchmarks),
    each checked against the NumPy gradient."""
    fns = {}
    try:
        import torch
    except ImportError:
        pass
    else:
        xt, yt, zt = (torch.tensor(a) for a in (xa, ya, za))

        def torch_grad():
            x = xt.detach().requires_grad_()
            out = (x * zt) @ yt
            return torch.autograd.grad(out, x, torch.ones_like(out))[0]

        assert np.allclose(torch_grad().numpy(), ref, rtol=1e-6)
        fns["PyTorch eager"] = torch_grad
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        pass
    else:
        xj, yj, zj = (jnp.asarray(a) for a in (xa, ya, za))
        jax_grad = jax.jit(jax.grad(lambda x, y, z: jnp.sum((x * z) @ y)))
        assert np.allclose(np.asarray(jax_grad(xj, yj, zj)), ref, rtol=1e-6)
        fns["jax.jit"] = lambda: jax_grad(xj, yj, zj).block_until_ready()
    return fns


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=21)
    args = ap.parse_args()
    xa = np.array([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], np.float32)
    ya = np.array([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], np.float32)
    za = np.array([1.0], np.float32)
    x, y = ms.Tensor(xa), ms.Tensor(ya)
    ref = numpy_grad(xa, ya, za)
    fns = {"NumPy": lambda: numpy_grad(xa, ya, za)}
    for mode, label in ((ms.PYNATIVE_MODE, "mindgrad PYNATIVE"), (ms.GRAPH_MODE, "mindgrad GRAPH")):
        ms.set_context(mode=mode)
        net = GradNetWrtX(Net())
        got = net(x, y).asnumpy()
        assert np.allclose(got, ref, rtol=1e-6), (label, got, ref)
        # rounds alternate modes: set the mode with a plain dict write, not set_context,
        # so that switching costs next to nothing
        fns[label] = (lambda n, m: lambda: (_state.__setitem__("mode", m), n(x, y)))(net, mode)
    fns.update(peer_fns(xa, ya, za, ref))
    times = compare_times(fns, args.repeats)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    report(f"GradNetWrtX 2x3 @ 3x3, forward + backward, median of {args.repeats} rounds "
           f"(hand-written NumPy = 1.00x)", times, "NumPy")


if __name__ == "__main__":
    main()
