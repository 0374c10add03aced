"""Forward + backward of every operator on inputs of a few hundred thousand elements:
``value_and_grad(lambda *xs: op(*xs).sum())`` in PYNATIVE and jit-compiled (GRAPH), against
the same forward and backward hand-written in NumPy. Results are checked to agree; times are
medians over rounds timed round-robin. The cases live in ``cases_*.py``, one file per family
of operators; the machinery in ``opbench.py``.

For a linear operator the gradient of ``sum(op(x))`` does not depend on x, and GRAPH mode
folds the whole backward pass into a constant at compile time; ``--live-cotangent``
differentiates ``sum(op(x) * v)`` with ``v`` an input instead, which times the backward pass
a network would run. On a shared machine, ``OPENBLAS_NUM_THREADS=1`` steadies the BLAS-bound
rows (conv2d, einsum, linear algebra).

    python bench/bench_ops.py [--repeats N] [--only NAME[,NAME...]] [--live-cotangent]
"""
from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opbench import run_case  # noqa: E402

FAMILIES = ("cases_elementwise", "cases_reduce", "cases_shape", "cases_extended",
            "cases_catalogue", "cases_msnumpy", "cases_special", "cases_families")


def all_cases() -> list:
    """Every family's CASES, in a fixed order; a family not written yet is skipped."""
    cases = []
    for family in FAMILIES:
        try:
            module = importlib.import_module(family)
        except ModuleNotFoundError as err:
            if err.name != family:
                raise
            continue
        cases.extend(module.CASES)
    return cases


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=31, help="rounds of about 10 ms each")
    ap.add_argument("--only", default="", help="comma-separated substrings of case names")
    ap.add_argument("--live-cotangent", action="store_true",
                    help="differentiate sum(op(x) * v) with v an input, not sum(op(x))")
    args = ap.parse_args()
    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    loss = "sum(op(x) * v), v an input" if args.live_cotangent else "sum(op(x))"
    print(f"forward + backward of {loss}, float32, median of {args.repeats} round-robin "
          f"rounds; ratio = mindgrad / hand-written NumPy")
    print(f"{'operator':24s} {'inputs':20s} {'NumPy':>10s} {'PYNATIVE':>10s} {'ratio':>6s} "
          f"{'GRAPH':>10s} {'ratio':>6s}  agree")
    worst = 0.0
    for case in all_cases():
        if wanted and not any(w in case.name for w in wanted):
            continue
        r = run_case(case, args.repeats, args.live_cotangent)
        t = r["times"]
        ms_ = {k: v * 1e3 for k, v in t.items()}
        p, g = t["pynative"] / t["numpy"], t["graph"] / t["numpy"]
        worst = max(worst, p, g)
        print(f"{case.name:24s} {case.shape:20s} {ms_['numpy']:8.3f}ms {ms_['pynative']:8.3f}ms "
              f"{p:6.2f} {ms_['graph']:8.3f}ms {g:6.2f}  {'yes' if r['ok'] else 'NO'}",
              flush=True)
    print(f"worst ratio: {worst:.2f}")


if __name__ == "__main__":
    main()
