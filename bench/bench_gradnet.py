"""The seed's GradNetWrtX (x * z then MatMul, gradient with respect to x) on its 2x3 and 3x3
inputs: PYNATIVE and GRAPH against hand-written NumPy forward + backward.

    python bench/bench_gradnet.py [--repeats N]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import fmt_us, median_time  # noqa: E402

import mindgrad as ms  # noqa: E402
from mindgrad import nn, ops  # noqa: E402


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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=21)
    args = ap.parse_args()
    xa = np.array([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], np.float32)
    ya = np.array([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], np.float32)
    za = np.array([1.0], np.float32)
    x, y = ms.Tensor(xa), ms.Tensor(ya)
    ref = numpy_grad(xa, ya, za)
    t_np = median_time(lambda: numpy_grad(xa, ya, za), args.repeats)
    rows = [("hand-written NumPy", t_np, None)]
    for mode, label in ((ms.PYNATIVE_MODE, "mindgrad PYNATIVE"), (ms.GRAPH_MODE, "mindgrad GRAPH")):
        ms.set_context(mode=mode)
        net = GradNetWrtX(Net())
        got = net(x, y).asnumpy()
        assert np.allclose(got, ref, rtol=1e-6), (label, got, ref)
        rows.append((label, median_time(lambda: net(x, y), args.repeats), None))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    print(f"GradNetWrtX 2x3 @ 3x3, forward + backward, median of {args.repeats} repeats")
    for label, t, _ in rows:
        print(f"  {label:22s} {fmt_us(t)}   {t / t_np:6.2f}x NumPy")


if __name__ == "__main__":
    main()
