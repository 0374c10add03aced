"""jax.jit on the problems of ``bench_science.py``; run by it as a subprocess with the
interpreter of a separate virtualenv that has jax (``--jax-python``). Reads the arrays from an
``.npz`` file, sends its results, then times one round of every route each time the
benchmark asks (``common.serve``), so that its rounds interleave with mindgrad's.

    python bench/jax_science.py ARRAYS.npz
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import serve  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.experimental import jet as jjet  # noqa: E402


def main() -> None:
    src = sys.argv[1]
    a = dict(np.load(src))
    layers = sum(1 for k in a if k.startswith("pw"))
    pw = [jnp.asarray(a[f"pw{i}"]) for i in range(layers)]
    pb = [jnp.asarray(a[f"pb{i}"]) for i in range(layers)]
    x = jnp.asarray(a["px"])
    d = x.shape[1]

    def point(p):
        h = p
        for i in range(layers):
            h = h @ pw[i] + pb[i]
            if i < layers - 1:
                h = jnp.tanh(h)
        return h[0]

    eye = jnp.eye(d, dtype=x.dtype)

    def lap_jet(p):
        def one(e):
            _, (_, s2) = jjet.jet(point, (p,), ((e, jnp.zeros_like(e)),))
            return s2
        return jnp.sum(jax.vmap(one)(eye))

    def lap_hessian(p):
        return jnp.trace(jax.hessian(point)(p))

    def lap_fwd(xs):  # forward Laplacian written with jax.numpy, compiled
        n = xs.shape[0]
        h = xs @ pw[0] + pb[0]
        g = jnp.broadcast_to(pw[0][:, None, :], (d, n, pw[0].shape[1]))
        lap = None
        for i in range(layers):
            if i > 0:
                h, g, lap = h @ pw[i] + pb[i], g @ pw[i], lap @ pw[i]
            if i < layers - 1:
                y = jnp.tanh(h)
                d1 = 1 - y * y
                term = -2 * y * d1 * jnp.sum(g * g, 0)
                lap = term if lap is None else d1 * lap + term
                g, h = g * d1, y
        return lap[:, 0]

    def lap_gradgrad(xs):
        g = jax.grad(lambda z: jnp.sum(jax.vmap(point)(z)))
        total = 0.0
        for k in range(d):
            total = total + jax.grad(lambda z: jnp.sum(g(z)[:, k]))(xs)[:, k]
        return total

    def bih_hessian(p):  # the Hessian's trace of the Hessian's trace (jacfwd of jacrev, twice)
        return jnp.trace(jax.hessian(lap_hessian)(p))

    # fourth-order jets: d^4 along e_i, e_i + e_j and e_i - e_j (i < j) give every
    # u_iijj = (D(e_i + e_j) + D(e_i - e_j) - 2 D(e_i) - 2 D(e_j)) / 12, so Δ²u = sum_k w_k D(d_k)
    # with w = 1 - (d - 1) / 3 on the axes and 1 / 6 on the pairs
    pairs = [(i, j) for i in range(d) for j in range(i + 1, d)]
    dirs = jnp.concatenate([eye] + [jnp.stack([eye[i] + s * eye[j] for i, j in pairs])
                                    for s in (1.0, -1.0)])
    wts = jnp.asarray([1 - (d - 1) / 3] * d + [1 / 6] * (2 * len(pairs)), x.dtype)

    def bih_jet(p):
        def one(e):
            z = jnp.zeros_like(e)
            return jjet.jet(point, (p,), ((e, z, z, z),))[1][3]
        return jnp.dot(wts, jax.vmap(one)(dirs))

    routes = {"jet": jax.jit(jax.vmap(lap_jet)), "hessian": jax.jit(jax.vmap(lap_hessian)),
              "grad of grad": jax.jit(lap_gradgrad), "forward Laplacian": jax.jit(lap_fwd),
              "biharmonic hessian": jax.jit(jax.vmap(bih_hessian)),
              "biharmonic jet": jax.jit(jax.vmap(bih_jet))}

    hl = sum(1 for k in a if k.startswith("hw"))
    params = [(jnp.asarray(a[f"hw{i}"]), jnp.asarray(a[f"hb{i}"])) for i in range(hl)]
    vecs = [(jnp.asarray(a[f"hvw{i}"]), jnp.asarray(a[f"hvb{i}"])) for i in range(hl)]
    hx, hy = jnp.asarray(a["hx"]), jnp.asarray(a["hy"])

    def loss(ps):
        h = hx
        for i, (w, b) in enumerate(ps):
            h = h @ w + b
            if i < len(ps) - 1:
                h = jax.nn.relu(h)
        return -jnp.mean(jnp.sum(hy * jax.nn.log_softmax(h), -1))

    hvp = jax.jit(lambda ps, vs: jax.jvp(jax.grad(loss), (ps,), (vs,))[1])
    results = {k: np.asarray(f(x)).tolist() for k, f in routes.items()}
    results["hvp"] = [np.asarray(t).ravel()[:64].tolist()
                      for t in jax.tree_util.tree_leaves(hvp(params, vecs))]
    fns = {k: (lambda f: lambda: f(x).block_until_ready())(f) for k, f in routes.items()}
    fns["hvp"] = lambda: jax.tree_util.tree_leaves(hvp(params, vecs))[-1].block_until_ready()
    serve(fns, {"results": results, "version": jax.__version__})


if __name__ == "__main__":
    main()
