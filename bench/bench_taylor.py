"""Higher derivatives of an elementwise function: the n-th derivative of tanh at 1000 points,
orders 1..8, by Taylor mode (``ops.derivative``: one jet of order n) and by nesting ``grad``
n times, mindgrad PYNATIVE and GRAPH and, when a Python with jax is given, jax.jit (``jet``
and nested ``grad``, run in that interpreter as a peer whose rounds interleave with ours).
Every result is checked against the closed-form derivative polynomials of tanh. The growth
per order is ``(t(n_max) / t(1)) ** (1 / (n_max - 1))``, the median over rounds.

    python bench/bench_taylor.py [--repeats N] [--orders 8] [--points 1000] [--jax-python PY]
                                 [--clock wall|cpu]
"""
from __future__ import annotations

import os
import sys

if "--threads" not in sys.argv:
    for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_v] = "1"
    os.environ["XLA_FLAGS"] = ("--xla_cpu_multi_thread_eigen=false "
                               "intra_op_parallelism_threads=1")

import argparse  # noqa: E402
import statistics  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Peer, median_ratio, round_times  # noqa: E402

import mindgrad as ms  # noqa: E402
from mindgrad import ops  # noqa: E402

def points(n: int) -> np.ndarray:
    return np.linspace(-2.0, 2.0, n, dtype=np.float32)


def tanh_derivatives(x: np.ndarray, orders: int) -> list[np.ndarray]:
    """d^n tanh / dx^n for n = 1..orders, from the polynomials P_n(y) of y = tanh(x) with
    P_0 = y, P_{n+1} = P_n'(y) (1 - y^2), in float64."""
    y = np.tanh(x.astype(np.float64))
    poly = np.polynomial.Polynomial([0.0, 1.0])
    one_minus_sq = np.polynomial.Polynomial([1.0, 0.0, -1.0])
    out = []
    for _ in range(orders):
        poly = poly.deriv() * one_minus_sq
        out.append(poly(y))
    return out


def taylor_route(n: int):
    return lambda x: ops.derivative(ops.tanh, x, n)[1]


def nested_route(n: int):
    f = ops.tanh
    for _ in range(n):
        f = ops.grad(lambda x, f=f: ops.reduce_sum(f(x)))
    return f


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=11)
    ap.add_argument("--orders", type=int, default=8)
    ap.add_argument("--points", type=int, default=1000)
    ap.add_argument("--jax-python", default=None)
    ap.add_argument("--threads", action="store_true")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = ap.parse_args()
    xs = points(args.points)
    x = ms.Tensor(xs)
    refs = tanh_derivatives(xs, args.orders)
    orders = range(1, args.orders + 1)
    fns = {}
    for kind, route in (("Taylor", taylor_route), ("nested grad", nested_route)):
        for n in orders:
            fn = route(n)
            for mode, f in (("PYNATIVE", fn), ("GRAPH", ms.jit(fn))):
                got = f(x).asnumpy()
                np.testing.assert_allclose(got, refs[n - 1], rtol=2e-3,
                                           atol=2e-4 * np.abs(refs[n - 1]).max(),
                                           err_msg=f"{kind} order {n} {mode}")
                fns[(kind, mode, n)] = (lambda f: lambda: f(x))(f)
    peer = None
    if args.jax_python:
        peer = Peer([args.jax_python, str(Path(__file__).resolve().parent / "jax_taylor.py"),
                     str(args.orders), str(args.points)])
        got = peer.results["results"]
        for kind in ("Taylor", "nested grad"):
            for n in orders:
                np.testing.assert_allclose(np.asarray(got[f"{kind} {n}"]), refs[n - 1],
                                           rtol=2e-3, atol=2e-4 * np.abs(refs[n - 1]).max(),
                                           err_msg=f"jax {kind} order {n}")
    samples = round_times(fns, args.repeats, peer=peer, clock=args.clock)
    if peer is not None:
        peer.close()
        for k in [k for k in samples if k[0] == "peer"]:  # ("peer", "Taylor 3") -> key
            kind, n = k[1].rsplit(" ", 1)
            samples[(kind, "jax.jit", int(n))] = samples.pop(k)
    med = {k: statistics.median(v) for k, v in samples.items()}
    modes = ["PYNATIVE", "GRAPH"] + (["jax.jit"] if peer is not None else [])
    top = args.orders
    print(f"n-th derivative of tanh at {args.points} points (float32), {args.clock} time, medians "
          f"of {args.repeats} interleaved rounds" + (f"; jax {peer.results['version']}"
                                                     if peer else ""))
    for kind in ("Taylor", "nested grad"):
        print(f"  {kind:12s} " + "".join(f"{m:>11s}" for m in modes)
              + f" {'GRAPH/PYN':>9s}" + (f" {'GRAPH/jax':>9s}" if peer else "")
              + f" {'GRAPH n/n-1':>11s}")
        for n in orders:
            row = "".join(f"{med[(kind, m, n)] * 1e6:8.1f} us" for m in modes)
            row += f" {median_ratio(samples, (kind, 'GRAPH', n), (kind, 'PYNATIVE', n)):8.2f}x"
            if peer:
                row += f" {median_ratio(samples, (kind, 'GRAPH', n), (kind, 'jax.jit', n)):8.2f}x"
            if n > 1:  # this order's cost over the previous one's
                step = median_ratio(samples, (kind, "GRAPH", n), (kind, "GRAPH", n - 1))
                row += f" {step:10.2f}x"
            print(f"  order {n:<6d} {row}")
        growth = "  ".join(
            f"{m} {median_ratio(samples, (kind, m, top), (kind, m, 1)) ** (1 / (top - 1)):.3f}x"
            for m in modes)
        print(f"  growth per order (orders 1..{top}): {growth}")


if __name__ == "__main__":
    main()
