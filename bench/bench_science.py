"""Differential operators for science: the per-point Laplacian of a PINN network (an MLP
R^8 -> R, widths 8-128-128-128-1, tanh, at 256 points) by every route, its per-point
biharmonic operator (checked against a float64 ``ops.biharmonic``), and the
Hessian-vector product of a 784-512-512-10 MLP loss; mindgrad PYNATIVE and GRAPH against a
hand-written NumPy forward Laplacian and, when a Python with jax is given, jax.jit (run in
that interpreter as a subprocess whose rounds interleave with ours). Every result is checked
against the reference before timing; times are medians of round-robin rounds, ratios medians
of the ratios within each round. BLAS and XLA run on one thread for every
contender (stable numbers on a shared machine); ``--threads`` leaves the defaults.

    python bench/bench_science.py [--repeats N] [--jax-python /work/jaxref/bin/python]
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
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Peer, median_ratio, round_times  # noqa: E402
from science_problems import hvp_arrays, numpy_forward_laplacian, pinn_arrays  # noqa: E402

import mindgrad as ms  # noqa: E402
from mindgrad import ops  # noqa: E402


def pinn_net(a: dict) -> tuple:
    """The PINN network of a batch of points and of one point, and the point's dimension."""
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

    return net, point, d


def pinn_routes(a: dict) -> dict:
    """Per-point Laplacian routes, each a function of the points."""
    net, point, d = pinn_net(a)
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


def biharmonic_routes(a: dict) -> dict:
    """Per-point biharmonic routes, each a function of the points."""
    net, point, d = pinn_net(a)
    eye = np.eye(d)
    pairs = [(i, j) for i in range(d) for j in range(i + 1, d)]
    # fourth-order jets along e_i, e_i + e_j and e_i - e_j (i < j) give every mixed term
    # u_iijj = (D(e_i + e_j) + D(e_i - e_j) - 2 D(e_i) - 2 D(e_j)) / 12, so that
    # Δ²u = sum_k w_k D(d_k) with w = 1 - (d - 1) / 3 on the axes and 1 / 6 on the pairs
    dirs = ms.Tensor(np.concatenate([eye] + [np.stack([eye[i] + s * eye[j] for i, j in pairs])
                                             for s in (1.0, -1.0)]).astype(a["x"].dtype))
    wts = ms.Tensor(np.array([1 - (d - 1) / 3] * d + [1 / 6] * (2 * len(pairs)),
                             a["x"].dtype))

    def jet_bih(p):
        def one(e):
            z = ops.zeros_like(e)
            return ops.jet(point, p, ops.stack([e, z, z, z]))[1][3]
        return ops.reduce_sum(ops.vmap(one)(dirs) * wts)

    return {"ops.biharmonic": lambda x: ops.biharmonic(net, batch_axis=0)(x)[:, 0],
            "vmap(ops.biharmonic)": ops.vmap(ops.biharmonic(point)),
            "vmap of 4th-order jets": ops.vmap(jet_bih)}


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


def start_jax(python: str, pinn: dict, hv: dict, tmp: str) -> Peer:
    """jax in its own interpreter, serving rounds of its routes (``jax_science.py``)."""
    src = Path(tmp) / "arrays.npz"
    np.savez(src, **{f"p{k}": v for k, v in pinn.items()}, **{f"h{k}": v for k, v in hv.items()})
    return Peer([python, str(Path(__file__).resolve().parent / "jax_science.py"), str(src)])


JAX_LAPLACIANS = ("jet", "hessian", "grad of grad", "forward Laplacian")
JAX_BIHARMONICS = ("biharmonic hessian", "biharmonic jet")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=11)
    ap.add_argument("--jax-python", default=None)
    ap.add_argument("--threads", action="store_true")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time per call: wall clock, or the process's CPU time (steadier "
                         "when other work shares the machine)")
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
    # the biharmonic's reference: ops.biharmonic in float64 (the routes agree to rounding)
    bref = biharmonic_routes({k: v.astype(np.float64) for k, v in pa.items()})[
        "ops.biharmonic"](ms.Tensor(pa["x"].astype(np.float64))).asnumpy()
    brows = []
    for name, fn in biharmonic_routes(pa).items():
        for mode, f in (("PYNATIVE", fn), ("GRAPH", ms.jit(fn))):
            got = f(x).asnumpy()
            np.testing.assert_allclose(got, bref, rtol=2e-3, atol=2e-3 * np.abs(bref).max(),
                                       err_msg=f"{name} {mode}")
            fns[(name, mode)] = (lambda f: lambda: f(x))(f)
        brows.append(name)
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
    with tempfile.TemporaryDirectory() as tmp:
        peer = start_jax(args.jax_python, pa, ha, tmp) if args.jax_python else None
        if peer is not None:
            jr = peer.results["results"]
            for k in JAX_LAPLACIANS:
                np.testing.assert_allclose(np.asarray(jr[k]), ref, rtol=2e-3,
                                           atol=2e-3 * np.abs(ref).max(), err_msg=f"jax {k}")
            for k in JAX_BIHARMONICS:
                np.testing.assert_allclose(np.asarray(jr[k]), bref, rtol=2e-3,
                                           atol=2e-3 * np.abs(bref).max(), err_msg=f"jax {k}")
            for g, r in zip(jr["hvp"], href):
                np.testing.assert_allclose(np.asarray(g), r.ravel()[:64], rtol=1e-3,
                                           atol=1e-4 * np.abs(r).max(), err_msg="jax hvp")
        samples = round_times(fns, args.repeats, peer=peer, clock=args.clock)
        if peer is not None:
            peer.close()
    med = {k: statistics.median(v) for k, v in samples.items()}
    if peer is not None:  # the best jax Laplacian route of each round
        samples[("peer", "best")] = [min(t) for t in zip(*(samples[("peer", k)]
                                                             for k in JAX_LAPLACIANS))]
        samples[("peer", "best biharmonic")] = [min(t) for t in zip(
            *(samples[("peer", k)] for k in JAX_BIHARMONICS))]
    ms_ = lambda t: f"{t * 1e3:8.2f} ms" if t is not None else "       -   "  # noqa: E731

    def vs_jax(key: object, route: str) -> str:
        if peer is None or ("peer", route) not in samples:
            return ""
        return f"{median_ratio(samples, key, ('peer', route)):7.2f}x"

    print(f"Per-point Laplacian of the PINN MLP {pa['x'].shape[1]}-128-128-128-1 (tanh) at "
          f"{pa['x'].shape[0]} points, float32, {args.clock} time, medians of {args.repeats} "
          f"interleaved rounds"
          + (f"; jax {peer.results['version']}" if peer else ""))
    print("  (ratios: medians of the ratios within each round)")
    print(f"  {'route':24s} {'PYNATIVE':>11s} {'GRAPH':>11s} {'GRAPH/PYN':>9s} "
          f"{'jax.jit':>11s} {'GRAPH/jax':>9s}")
    peer_route = {"vmap of jet": "jet", "hessian over vmap": "hessian",
                  "grad of grad": "grad of grad", "ops.laplacian": "best"}
    for name in rows:
        p, g = med[(name, "PYNATIVE")], med[(name, "GRAPH")]
        r = peer_route.get(name)
        print(f"  {name:24s} {ms_(p)} {ms_(g)} "
              f"{median_ratio(samples, (name, 'GRAPH'), (name, 'PYNATIVE')):8.2f}x "
              f"{ms_(med.get(('peer', r)))} {vs_jax((name, 'GRAPH'), r)}")
    print(f"  {'forward Laplacian by hand':24s} {ms_(med['NumPy forward Laplacian'])} "
          f"{'(NumPy)':>11s} {'':9s} {ms_(med.get(('peer', 'forward Laplacian')))}")
    if "ops.laplacian" in rows:
        by_hand = median_ratio(samples, ("ops.laplacian", "GRAPH"), "NumPy forward Laplacian")
        print(f"  ops.laplacian GRAPH / best jax.jit route of the round: "
              f"{vs_jax(('ops.laplacian', 'GRAPH'), 'best').strip() or '-'}; / NumPy by "
              f"hand: {by_hand:.2f}x")
    print(f"Per-point biharmonic of the same network at the same points (jax.jit: "
          f"vmap of the Hessian of the Hessian's trace, and of 64 fourth-order jets)")
    bpeer = {"ops.biharmonic": "best biharmonic", "vmap(ops.biharmonic)": "biharmonic hessian",
             "vmap of 4th-order jets": "biharmonic jet"}
    for name in brows:
        p, g = med[(name, "PYNATIVE")], med[(name, "GRAPH")]
        r = bpeer[name]
        print(f"  {name:24s} {ms_(p)} {ms_(g)} "
              f"{median_ratio(samples, (name, 'GRAPH'), (name, 'PYNATIVE')):8.2f}x "
              f"{ms_(med.get(('peer', r)))} {vs_jax((name, 'GRAPH'), r)}")
    if peer is not None:
        print(f"  ops.biharmonic GRAPH / best jax.jit biharmonic route of the round: "
              f"{vs_jax(('ops.biharmonic', 'GRAPH'), 'best biharmonic').strip()}")
    print(f"HVP of the {'-'.join(str(w) for w in (784, 512, 512, 10))} MLP loss "
          f"(batch {ha['x'].shape[0]}, all weights)")
    for name in hroutes:
        p, g = med[(name, "PYNATIVE")], med[(name, "GRAPH")]
        print(f"  {name:24s} {ms_(p)} {ms_(g)} "
              f"{median_ratio(samples, (name, 'GRAPH'), (name, 'PYNATIVE')):8.2f}x "
              f"{ms_(med.get(('peer', 'hvp')))} {vs_jax((name, 'GRAPH'), 'hvp')}")


if __name__ == "__main__":
    main()
