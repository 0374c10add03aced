"""Print, per MindSpore namespace, how many of MindSpore 2.10's public names mindgrad has.

The name lists are data in ``tools/data/mindspore_<namespace>_names.txt`` (one name a line,
taken from MindSpore 2.10's ``__all__``); each namespace is looked up in the mindgrad module
that ``import mindspore.<namespace>`` gives under ``mindgrad run``.

Names that no program run on MindSpore's CPU build can use are left out of the count, each
with its reason, in ``tools/data/left_out/*.txt`` (one name a line:
``<namespace> <name> <category> [note]``): graph-compiler internals, the sparse and
distributed families, and names the CPU build refuses (recorded with MindSpore's own error
by ``tools/probe_cpu_refusals.py``)::

    python tools/coverage_report.py [--missing]
"""
from __future__ import annotations

import argparse
import collections
import importlib
import pathlib

DATA = pathlib.Path(__file__).resolve().parent / "data"

# namespace (the file name's middle part: the module path after ``mindspore.`` with dots as
# underscores) -> the mindgrad module holding it
MODULES = {"numpy": "mindgrad.numpy", "mint": "mindgrad.mint", "mint_nn": "mindgrad.mint.nn",
           "mint_nn_functional": "mindgrad.mint.nn.functional",
           "mint_optim": "mindgrad.mint.optim", "ops": "mindgrad.ops",
           "ops_operations": "mindgrad.ops.operations", "nn": "mindgrad.nn"}


def names(namespace: str) -> list[str]:
    """MindSpore 2.10's public names of one namespace."""
    return (DATA / f"mindspore_{namespace}_names.txt").read_text().split()


def left_out(namespace: str) -> dict[str, str]:
    """``{name: "category [note]"}``: the names of ``namespace`` not counted, with why."""
    reasons = {}
    for path in sorted((DATA / "left_out").glob("*.txt")):
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                ns, name, why = line.split(None, 2)
                if ns == namespace:
                    reasons[name] = why
    return reasons


def coverage(namespace: str) -> tuple[list[str], list[str]]:
    """``(present, missing)`` names of one namespace (``tensor``: the Tensor methods), over
    all of MindSpore's names, left-out ones included."""
    if namespace == "tensor":
        module = importlib.import_module("mindgrad").Tensor
    else:
        module = importlib.import_module(MODULES.get(namespace, f"mindgrad.{namespace}"))
    every = names(namespace)
    present = [n for n in every if hasattr(module, n)]
    return present, [n for n in every if not hasattr(module, n)]


def counted(namespace: str) -> tuple[list[str], list[str], dict[str, str]]:
    """``(present, missing, left)``: the counted names mindgrad has and lacks, and the
    left-out names it lacks with their reasons (a left-out name mindgrad has counts as
    present)."""
    present, missing = coverage(namespace)
    reasons = left_out(namespace)
    left = {n: reasons[n] for n in missing if n in reasons}
    return present, [n for n in missing if n not in reasons], left


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--missing", action="store_true",
                    help="list the missing names, and the left-out ones by reason")
    args = ap.parse_args()
    print(f"{'namespace':28s} {'have':>5s} {'counted':>8s} {'share':>6s} {'left out':>9s}"
          f" {'of all':>7s}")
    for path in sorted(DATA.glob("mindspore_*_names.txt")):
        ns = path.name[len("mindspore_"):-len("_names.txt")]
        have, missing, left = counted(ns)
        total = len(have) + len(missing)
        label = "mindspore.Tensor methods" if ns == "tensor" else "mindspore." + ns.replace("_", ".")
        print(f"{label:28s} {len(have):5d} {total:8d} {len(have) / total:6.0%} {len(left):9d}"
              f" {len(names(ns)):7d}")
        if args.missing and missing:
            print("  missing: " + " ".join(missing))
        if args.missing and left:
            by_reason = collections.defaultdict(list)
            for name, why in left.items():
                by_reason[why.split()[0]].append(name)
            for reason, group in sorted(by_reason.items()):
                print(f"  left out ({reason}): " + " ".join(group))


if __name__ == "__main__":
    main()
