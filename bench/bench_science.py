"""Differential operators for science: the per-point Laplacian of a PINN network (an MLP
R^8 -> R, widths 8-128-128-128-1, tanh, at 256 points) by every route, and the
Hessian-vector product of a 784-512-512-10 MLP loss; mindgrad PYNATIVE and GRAPH against a
hand-written NumPy forward Laplacian and, when a Python with jax is given, jax.jit (run in
that interpreter as a subprocess). Every result is checked against the reference before
timing; times are medians of round-robin rounds. BLAS and XLA run on one thread for every
contender (stable numbers on a shared machine); ``--threads`` leaves the defaults.

    python bench/bench_science.py [--repeats N] [--jax-python /work/jaxref/bin/python]
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
import json  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import compare_times  # noqa: E402
from science_problems import hvp_arrays, numpy_forward_laplacian, pinn_arrays  # noqa: E402

import mindgrad as ms  # noqa: E402
from mindgrad import ops  # noqa: E402


def pinn_routes(a: dict) -> dict:
    """Per-point Laplacian routes, each a function of the points."""
    layers = len([k for k in a if k.startswith("w")])
    ws = [ms.Tensor(a[f"w{i}"]) for i in range(layers)]
    bs = [ms.Tensor(a[f"b{i}"]) for i in range(layers)]
    d = a["x"].shape[1]

    def net(x):
        h = x
        for i in range(layers):
            h = ops.matmul(h, ws[i]) + bs[i]
            if i < layers - 1:
                h = ops.tanh(h)
        return h

    def point(p):
        return net(ops.reshape(p, (1, d)))[0, 0]

    eye = ms.Tensor(np.eye(d, dtype=np.float32))

    def jet_lap(p):
        def one(e):
            return ops.jet(point, p, ops.stack([e, ops.zeros_like(e)]))[1][1]
        return ops.reduce_sum(ops.vmap(one)(eye))

    def hess_lap(p):
        return ops.reduce_sum(ops.hessian(point)(p) * eye)

    def gradgrad(x):
        g = ops.grad(lambda z: ops.reduce_sum(net(z)))
        total = None
        for k in range(d):
            col = ops.grad(lambda z, k=k: ops.reduce_sum(g(z)[:, k]))(x)[:, k]
            total = col if total is None else total + col
        return total

    routes = {}
    if "batch_axis" in ops.laplacian.__code__.co_varnames:
        routes["ops.laplacian"] = lambda x: ops.laplacian(net, batch_axis=0)(x)[:, 0]
    routes["vmap(ops.laplacian)"] = ops.vmap(ops.laplacian(point))
    routes["vmap of jet"] = ops.vmap(jet_lap)
    routes["hessian over vmap"] = ops.vmap(hess_lap)
    routes["grad of grad"] = gradgrad
    return routes


def hvp_routes(a: dict) -> tuple[dict, tuple]:
    layers = len([k for k in a if k.startswith("w")])
    params = tuple(ms.Tensor(a[f"{p}{i}"]) for i in range(layers) for p in ("w", "b"))
    vecs = tuple(ms.Tensor(a[f"v{p}{i}"]) for i in range(layers) for p in ("w", "b"))
    x, y = ms.Tensor(a["x"]), ms.Tensor(a["y"])

    def loss(*ps):
        h = x
        for i in range(layers):
            h = ops.matmul(h, ps[2 * i]) + ps[2 * i + 1]
            if i < layers - 1:
                h = ops.relu(h)
        return -ops.reduce_mean(ops.reduce_sum(y * ops.log_softmax(h, -1), -1))

    n = len(params)
    routes = {}
    if hasattr(ops, "hvp"):
        routes["ops.hvp"] = lambda *pv: ops.hvp(loss, pv[:n], pv[n:])[1]
    routes["jvp of grad"] = lambda *pv: ops.jvp(ops.grad(loss, tuple(range(n))), pv[:n],
                                                pv[n:])[1]
    return routes, params + vecs


def run_jax(python: str, pinn: dict, hv: dict, repeats: int) -> dict | None:
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "arrays.npz", Path(tmp) / "out.json"
        np.savez(src, **{f"p{k}": v for k, v in pinn.items()},
                 **{f"h{k}": v for k, v in hv.items()})
        script = Path(__file__).resolve().parent / "jax_science.py"
        done = subprocess.run([python, str(script), str(src), str(dst), str(repeats)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            print(f"jax run failed:\n{done.stderr[-2000:]}")
            return None
        return json.loads(dst.read_text())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=11)
    ap.add_argument("--jax-python", default=None)
    ap.add_argument("--threads", action="store_true")
    args = ap.parse_args()
    pa, ha = pinn_arrays(), hvp_arrays()
    ref = numpy_forward_laplacian(pa)
    x = ms.Tensor(pa["x"])
    fns = {"NumPy forward Laplacian": lambda: numpy_forward_laplacian(pa)}
    rows = []
    for name, fn in pinn_routes(pa).items():
        for mode, f in (("PYNATIVE", fn), ("GRAPH", ms.jit(fn))):
            got = f(x).asnumpy()
            np.testing.assert_allclose(got, ref, rtol=2e-3, atol=2e-3 * np.abs(ref).max(),
                                       err_msg=f"{name} {mode}")
            fns[(name, mode)] = (lambda f: lambda: f(x))(f)
        rows.append(name)
    hroutes, hargs = hvp_routes(ha)
    href = None
    for name, fn in hroutes.items():
        for mode, f in (("PYNATIVE", fn), ("GRAPH", ms.jit(fn))):
            got = [t.asnumpy() for t in f(*hargs)]
            if href is None:
                href = got
            for g, r in zip(got, href):
                np.testing.assert_allclose(g, r, rtol=1e-3, atol=1e-4 * np.abs(r).max(),
                                           err_msg=f"{name} {mode}")
            fns[(name, mode)] = (lambda f: lambda: f(*hargs))(f)
    times = compare_times(fns, args.repeats)
    jx = run_jax(args.jax_python, pa, ha, args.repeats) if args.jax_python else None
    if jx is not None:
        for k in ("jet", "hessian", "grad of grad", "forward Laplacian"):
            np.testing.assert_allclose(np.asarray(jx["results"][k]), ref, rtol=2e-3,
                                       atol=2e-3 * np.abs(ref).max(), err_msg=f"jax {k}")
        for g, r in zip(jx["results"]["hvp"], href):
            np.testing.assert_allclose(np.asarray(g), r.ravel()[:64], rtol=1e-3,
                                       atol=1e-4 * np.abs(r).max(), err_msg="jax hvp")
    jt = jx["times"] if jx else {}
    ms_ = lambda t: f"{t * 1e3:8.2f} ms" if t is not None else "       -   "  # noqa: E731
    best_jax_lap = min((jt[k] for k in ("jet", "hessian", "grad of grad",
                                        "forward Laplacian") if k in jt), default=None)
    print(f"Per-point Laplacian of the PINN MLP {pa['x'].shape[1]}-128-128-128-1 (tanh) at "
          f"{pa['x'].shape[0]} points, float32, median of {args.repeats} rounds"
          + (f"; jax {jx['version']}" if jx else ""))
    print(f"  {'route':24s} {'PYNATIVE':>11s} {'GRAPH':>11s} {'GRAPH/PYN':>9s} "
          f"{'jax.jit':>11s}")
    peer = {"vmap of jet": "jet", "hessian over vmap": "hessian", "grad of grad": "grad of grad"}
    for name in rows:
        p, g = times[(name, "PYNATIVE")], times[(name, "GRAPH")]
        print(f"  {name:24s} {ms_(p)} {ms_(g)} {g / p:8.2f}x {ms_(jt.get(peer.get(name)))}")
    t_np = times["NumPy forward Laplacian"]
    print(f"  {'forward Laplacian by hand':24s} {ms_(t_np)} {'(NumPy)':>11s} {'':9s} "
          f"{ms_(jt.get('forward Laplacian'))}")
    if best_jax_lap is not None and "ops.laplacian" in rows:
        print(f"  ops.laplacian GRAPH / best jax.jit route: "
              f"{times[('ops.laplacian', 'GRAPH')] / best_jax_lap:.2f}x; "
              f"/ NumPy by hand: {times[('ops.laplacian', 'GRAPH')] / t_np:.2f}x")
    print(f"HVP of the {'-'.join(str(w) for w in (784, 512, 512, 10))} MLP loss "
          f"(batch {ha['x'].shape[0]}, all weights)")
    for name in hroutes:
        p, g = times[(name, "PYNATIVE")], times[(name, "GRAPH")]
        print(f"  {name:24s} {ms_(p)} {ms_(g)} {g / p:8.2f}x {ms_(jt.get('hvp'))}")


if __name__ == "__main__":
    main()
