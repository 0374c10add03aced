"""vmap with a primitive's batch rule against the per-example loop it replaced: each case
runs ``ops.vmap(f)`` over 32 examples twice in the same run, once as is and once with the
primitive's ``batch`` rule removed (vmap then calls the primitive once per example and stacks
the results), timed round-robin (medians). The results are checked to agree.

    python bench/bench_vmap_rules.py [--repeats N]
"""
from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import compare_times  # noqa: E402

import mindgrad as ms  # noqa: E402
from mindgrad import ops  # noqa: E402
from mindgrad.core.primitive import registered  # noqa: E402

B = 32  # examples
rng = np.random.default_rng(0)


def _t(*shape):
    return ms.Tensor(rng.standard_normal(shape).astype(np.float32))


W = _t(16, 8, 3, 3)
ROWS = ms.Tensor(rng.integers(0, 64, (128, 1)))
CASES = [
    # (name, primitives whose rule is removed for "loop", function, inputs)
    ("conv2d forward", ("Conv2D",), lambda x: ops.conv2d(x, W, pad_mode="same"),
     [_t(B, 4, 8, 16, 16)]),
    ("conv2d forward, 1 image", ("Conv2D",), lambda x: ops.conv2d(x, W),
     [_t(B, 1, 8, 8, 8)]),
    ("conv2d per-example grad", ("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter"),
     ops.grad(lambda x, w: (ops.conv2d(x, w, pad_mode="same") ** 2).sum(), 1),
     [_t(B, 1, 8, 16, 16), _t(B, 16, 8, 3, 3)]),
    ("max_pool2d forward", ("MaxPoolArgmax", "PlaneGather"),
     lambda x: ops.max_pool2d(x, 2, 2), [_t(B, 4, 8, 16, 16)]),
    ("gather_nd forward", ("GatherNd",),
     lambda x: ops.gather_nd(x, ROWS), [_t(B, 64, 32)]),
]


@contextmanager
def without_batch_rules(names):
    prims = [registered()[n] for n in names]
    saved = [p.batch for p in prims]
    for p in prims:
        p.batch = None
    try:
        yield
    finally:
        for p, b in zip(prims, saved):
            p.batch = b


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args()
    print(f"vmap over {B} examples, float32, median of {args.repeats} round-robin rounds")
    print(f"{'case':28s} {'batch rule':>12s} {'loop':>12s} {'loop / rule':>12s}")
    for name, prims, fn, inputs in CASES:
        mapped = ops.vmap(fn)

        def rule():
            return mapped(*inputs)

        def loop():
            with without_batch_rules(prims):
                return mapped(*inputs)

        np.testing.assert_allclose(rule().asnumpy(), loop().asnumpy(), rtol=1e-4, atol=1e-4)
        t = compare_times({"rule": rule, "loop": loop}, repeats=args.repeats)
        print(f"{name:28s} {t['rule'] * 1e3:9.2f} ms {t['loop'] * 1e3:9.2f} ms "
              f"{t['loop'] / t['rule']:11.1f}x")


if __name__ == "__main__":
    main()
