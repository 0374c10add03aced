"""The operator rows whose work is small (NumPy finishes forward + backward of 512x512 in
under 60 microseconds), where a framework's fixed cost per differentiated call shows most:
mindgrad PYNATIVE and GRAPH against the same hand-written NumPy as ``bench_ops.py``, and
PyTorch eager and ``jax.jit`` where installed (a separate virtualenv for benchmarks), each
checked against the NumPy gradient.

    OPENBLAS_NUM_THREADS=1 python bench/bench_small_rows.py [--repeats N] [--size N]

PyTorch is set to one thread here; run with OPENBLAS_NUM_THREADS=1 so that NumPy's BLAS
(the norm's dot product) is single-threaded too. JAX keeps its default threading.

``--size`` sets the side of the square input (512 by default, as in ``bench_ops.py``): a
fixed cost per call weighs less as the work grows.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import compare_times  # noqa: E402

import mindgrad as ms  # noqa: E402
from mindgrad import ops  # noqa: E402


def ref_sum_axis0(x):
    g = np.ones(x.shape[1], x.dtype)
    return (x.sum(0) * g).sum(), np.broadcast_to(g, x.shape)


def ref_norm_all(x):
    y = np.linalg.norm(x)  # a BLAS dot for the whole array
    return y, x * (1 / y)


def ref_argmax_gather(x):
    rows, i = np.arange(x.shape[0]), x.argmax(1)
    y = x[rows, i]
    gx = np.zeros_like(x)
    gx[rows, i] = 1
    return y.sum(), gx


def argmax_gather(x):
    return x[ms.Tensor(np.arange(x.shape[0])), ops.argmax(x, 1)]


# name -> (mindgrad op, NumPy forward + backward, PyTorch op, JAX op)
CASES = {
    "sum (axis 0)": (lambda x: ops.sum(x, 0), ref_sum_axis0,
                     lambda t, x: x.sum(0), lambda jnp, x: x.sum(0)),
    "norm (all)": (lambda x: ops.norm(x), ref_norm_all,
                   lambda t, x: t.linalg.vector_norm(x), lambda jnp, x: jnp.linalg.norm(x)),
    "argmax + gather (ax 1)": (argmax_gather, ref_argmax_gather,
                               lambda t, x: x[t.arange(x.shape[0]), x.argmax(1)],
                               lambda jnp, x: x[jnp.arange(x.shape[0]), x.argmax(1)]),
}


def peer_fns(x: np.ndarray, torch_op, jax_op, want: np.ndarray) -> dict:
    fns = {}
    try:
        import torch
    except ImportError:
        pass
    else:
        torch.set_num_threads(1)
        xt = torch.tensor(x)

        def torch_grad():
            xg = xt.detach().requires_grad_()
            return torch.autograd.grad(torch_op(torch, xg).sum(), xg)[0]

        assert np.allclose(torch_grad().numpy(), want, rtol=1e-4, atol=1e-6)
        fns["PyTorch eager"] = torch_grad
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        pass
    else:
        xj = jnp.asarray(x)
        jax_grad = jax.jit(jax.grad(lambda v: jax_op(jnp, v).sum()))
        assert np.allclose(np.asarray(jax_grad(xj)), want, rtol=1e-4, atol=1e-6)
        fns["jax.jit"] = lambda: jax_grad(xj).block_until_ready()
    return fns


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--size", type=int, default=512)
    args = ap.parse_args()
    n = args.size
    rng = np.random.default_rng(0)
    # distinct values: no ties for argmax
    x = (rng.permutation(n * n).reshape(n, n) / float(n * n)).astype(np.float32)
    xm = ms.Tensor(x)
    print(f"forward + backward of sum(op(x)) on {n}x{n} float32 ({n * n} elements), median of "
          f"{args.repeats} round-robin rounds, times relative to hand-written NumPy")
    for name, (op, ref, torch_op, jax_op) in CASES.items():
        want = ref(x)[1]
        vg = ops.value_and_grad(lambda v: op(v).sum())
        compiled = ms.jit(lambda v: vg(v))
        for fn in (vg, compiled):
            assert np.allclose(fn(xm)[1].asnumpy(), want, rtol=1e-4, atol=1e-6), name
        fns = {"NumPy": lambda: ref(x), "mindgrad PYNATIVE": lambda: vg(xm),
               "mindgrad GRAPH": lambda: compiled(xm)}
        fns.update(peer_fns(x, torch_op, jax_op, want))
        times = compare_times(fns, args.repeats)
        base = times["NumPy"]
        cells = "  ".join(f"{k} {v * 1e6:7.1f} us {v / base:5.2f}x" for k, v in times.items())
        print(f"{name:24s} {cells}")


if __name__ == "__main__":
    main()
