"""mindspore.dataset throughput, two figures:

1. Iterating 60,000 MNIST-format images (IDX files written to a temporary folder) through
   ``map([Rescale(1/255, 0), Normalize((0.1307,), (0.3081,)), HWC2CHW()])`` and
   ``batch(64)``, rows as Tensors, against MindSpore 2.10 on the same files. Each framework
   runs in its own subprocess (MindSpore in its own virtualenv, named by ``--ms-python`` or
   the MINDSPORE_PYTHON variable); the two alternate, round after round, and each round
   reports the median of its passes. The first batch's checksum must agree.
2. A CPU-heavy Python ``map`` (a pure-Python loop per row) with
   ``num_parallel_workers=2, python_multiprocessing=True`` against one worker, timed
   alternately in this process.

    MINDSPORE_PYTHON=/path/to/ms-venv/bin/python python bench/bench_dataset.py [--rounds N]

Figures are medians; on a busy machine the second figure (which needs two idle cores)
drops."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

N_IMAGES = 60000


def write_mnist(folder: str, n: int) -> None:
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (n, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, n, dtype=np.uint8)
    for name, arr in (("train-images-idx3-ubyte", images), ("train-labels-idx1-ubyte", labels)):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(struct.pack(">BBBB", 0, 0, 8, arr.ndim))
            f.write(struct.pack(f">{arr.ndim}I", *arr.shape))
            f.write(arr.tobytes())


def worker(folder: str, passes: int) -> None:
    """Run inside either framework (``import mindspore`` is MindSpore or mindgrad)."""
    import mindspore.dataset as ds
    import mindspore.dataset.vision as vision

    times, checksum = [], None
    for _ in range(passes):
        t0 = time.perf_counter()
        d = ds.MnistDataset(folder, usage="train", shuffle=False)
        d = d.map([vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize((0.1307,), (0.3081,)),
                   vision.HWC2CHW()], input_columns="image")
        d = d.batch(64)
        n = 0
        first = None
        for image, label in d.create_tuple_iterator():
            if first is None:
                first = (float(image.asnumpy().astype(np.float64).sum()),
                         int(label.asnumpy().sum()), list(image.shape))
            n += 1
        times.append(time.perf_counter() - t0)
        checksum = (first, n)
    print(json.dumps({"times": times, "checksum": checksum}))


def run_worker(python: list[str], folder: str, passes: int) -> dict:
    env = dict(os.environ, GLOG_v="3")
    out = subprocess.run(python + [os.path.abspath(__file__), "--worker", folder,
                                   "--passes", str(passes)],
                         capture_output=True, text=True, env=env, check=False)
    if out.returncode:
        raise RuntimeError(f"worker {python} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def heavy(x):
    """About a millisecond of pure-Python work per row (holds the GIL throughout)."""
    s = 0
    for i in range(20000):
        s = (s + i * i) % 1000003
    return x + (s % 7)


def bench_workers(rounds: int) -> tuple[float, float, float, float]:
    """Median wall seconds with one worker and with two worker processes, and the CPU
    seconds each used (this process plus its children): equal CPU seconds mean the workers
    add no work, so on two idle cores the wall time halves."""
    import mindgrad.dataset as ds

    data = np.arange(400, dtype=np.int64)
    want = [int(heavy(v)) for v in data]

    def one(workers: int) -> tuple[float, float]:
        d = ds.NumpySlicesDataset({"x": data}, shuffle=False)
        d = d.map(heavy, num_parallel_workers=workers, python_multiprocessing=workers > 1)
        c0, t0 = os.times(), time.perf_counter()
        got = [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]
        elapsed, c1 = time.perf_counter() - t0, os.times()
        assert got == want, "the workers' results differ from the function's"
        cpu = (c1.user + c1.system + c1.children_user + c1.children_system) - \
            (c0.user + c0.system + c0.children_user + c0.children_system)
        return elapsed, cpu

    t1, t2 = [], []
    for _ in range(rounds):
        t1.append(one(1))
        t2.append(one(2))
    med = lambda v, k: statistics.median(x[k] for x in v)  # noqa: E731
    return med(t1, 0), med(t2, 0), med(t1, 1), med(t2, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--passes", type=int, default=3, help="timed passes per subprocess")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    ap.add_argument("--ms-python", default=os.environ.get("MINDSPORE_PYTHON"),
                    help="a Python with MindSpore installed (default: $MINDSPORE_PYTHON)")
    ap.add_argument("--skip-mnist", action="store_true")
    ap.add_argument("--skip-workers", action="store_true")
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.passes)
        return
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    if not args.skip_mnist:
        with tempfile.TemporaryDirectory() as folder:
            write_mnist(folder, N_IMAGES)
            candidates = {"mindgrad": [sys.executable, "-m", "mindgrad", "run"]}
            if args.ms_python and os.path.exists(args.ms_python):
                candidates["MindSpore"] = [args.ms_python]
            else:
                print("MindSpore not found (set MINDSPORE_PYTHON): timing mindgrad alone")
            med = {k: [] for k in candidates}
            checks = {}
            for _ in range(args.rounds):
                for name, cmd in candidates.items():
                    res = run_worker(cmd, folder, args.passes)
                    med[name].append(statistics.median(res["times"]))
                    checks[name] = res["checksum"]
            print(f"MNIST-format, {N_IMAGES} images, map(Rescale, Normalize, HWC2CHW) + "
                  f"batch(64), Tensors out; median of {args.rounds} rounds x {args.passes} "
                  f"passes")
            for name in candidates:
                t = statistics.median(med[name])
                print(f"  {name:10s} {t:7.3f} s   {N_IMAGES / t:9.0f} images/s   "
                      f"checksum {checks[name]}")
            if "MindSpore" in med:
                a, b = checks["mindgrad"], checks["MindSpore"]
                same = a[1] == b[1] and a[0][1:] == b[0][1:] and \
                    abs(a[0][0] - b[0][0]) <= 1e-3 * max(1.0, abs(b[0][0]))
                ratio = statistics.median(med["MindSpore"]) / statistics.median(med["mindgrad"])
                print(f"  mindgrad is {ratio:.2f}x MindSpore's speed; results agree: {same}")
    if not args.skip_workers:
        sys.path.insert(0, root)
        t1, t2, c1, c2 = bench_workers(args.rounds)
        print(f"CPU-heavy Python map over 400 rows (about 1 ms each), median of {args.rounds}")
        print(f"  1 worker   {t1:7.3f} s   (CPU {c1:.3f} s)")
        print(f"  2 workers  {t2:7.3f} s   (CPU {c2:.3f} s, python_multiprocessing=True)   "
              f"speed-up {t1 / t2:.2f}x on {os.cpu_count()} cores, load average "
              f"{os.getloadavg()[0]:.1f}")

if __name__ == "__main__":
    main()
