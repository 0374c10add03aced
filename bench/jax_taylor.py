"""jax.jit on the problems of ``bench_taylor.py`` (the n-th derivative of tanh by ``jet`` and
by nested ``grad``); run by it as a peer (``common.serve``) in a virtualenv with jax.

    python bench/jax_taylor.py ORDERS POINTS
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
    orders, points = int(sys.argv[1]), int(sys.argv[2])
    x = jnp.asarray(np.linspace(-2.0, 2.0, points, dtype=np.float32))

    def taylor(n):
        def f(x):
            series = (jnp.ones_like(x),) + (jnp.zeros_like(x),) * (n - 1)
            return jjet.jet(jnp.tanh, (x,), (series,))[1][n - 1]
        return jax.jit(f)

    def nested(n):
        f = jnp.tanh
        for _ in range(n):
            f = jax.grad(lambda x, f=f: jnp.sum(f(x)))
        return jax.jit(f)

    fns = {}
    for n in range(1, orders + 1):
        fns[f"Taylor {n}"] = taylor(n)
        fns[f"nested grad {n}"] = nested(n)
    results = {k: np.asarray(f(x)).tolist() for k, f in fns.items()}
    serve({k: (lambda f: lambda: f(x).block_until_ready())(f) for k, f in fns.items()},
          {"results": results, "version": jax.__version__})


if __name__ == "__main__":
    main()
