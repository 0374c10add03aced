"""Print, per MindSpore namespace, how many of MindSpore 2.10's public names mindgrad has.

The name lists are data in ``tools/data/mindspore_<namespace>_names.txt`` (one name a line,
taken from MindSpore 2.10's ``__all__``); each namespace is looked up in the mindgrad module
that ``import mindspore.<namespace>`` gives under ``mindgrad run``::

    python tools/coverage_report.py [--missing]
"""
from __future__ import annotations

import argparse
import importlib
import pathlib

DATA = pathlib.Path(__file__).resolve().parent / "data"

# namespace (the file name's middle part: the module path after ``mindspore.`` with dots as
# underscores) -> the mindgrad module holding it
MODULES = {"numpy": "mindgrad.numpy", "mint": "mindgrad.mint", "mint_nn": "mindgrad.mint.nn",
           "mint_nn_functional": "mindgrad.mint.nn.functional",
           "mint_optim": "mindgrad.mint.optim", "ops": "mindgrad.ops",
           "ops_operations": "mindgrad.ops.operations", "nn": "mindgrad.nn"}


def coverage(namespace: str) -> tuple[list[str], list[str]]:
    """``(present, missing)`` names of one namespace (``tensor``: the Tensor methods)."""
    names = (DATA / f"mindspore_{namespace}_names.txt").read_text().split()
    if namespace == "tensor":
        module = importlib.import_module("mindgrad").Tensor
    else:
        module = importlib.import_module(MODULES.get(namespace, f"mindgrad.{namespace}"))
    present = [n for n in names if hasattr(module, n)]
    return present, [n for n in names if not hasattr(module, n)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--missing", action="store_true", help="list the missing names")
    args = ap.parse_args()
    print(f"{'namespace':28s} {'have':>6s} {'total':>6s} {'share':>6s}")
    for path in sorted(DATA.glob("mindspore_*_names.txt")):
        ns = path.name[len("mindspore_"):-len("_names.txt")]
        have, missing = coverage(ns)
        total = len(have) + len(missing)
        label = "mindspore.Tensor methods" if ns == "tensor" else "mindspore." + ns.replace("_", ".")
        print(f"{label:28s} {len(have):6d} {total:6d} {len(have) / total:6.0%}")
        if args.missing and missing:
            print("  missing: " + " ".join(missing))


if __name__ == "__main__":
    main()
