"""Print which rules every registered primitive has, how many rows of the primitive test table
check it, and which primitives fall back: to the per-example Python loop under vmap
(``ad/batching.py``) or to the Taylor rule derived from the JVP rule (``ad/taylor.py``).

    .venv/bin/python tools/primitive_report.py            # the table and the summary
    .venv/bin/python tools/primitive_report.py --summary  # the summary only

Exit status 1 when the walk finds a problem (a primitive without a row or an exemption, or
without a rule it should have), as ``tests/test_primitive_table.py`` does.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from mindgrad.core.primitive import registered  # noqa: E402
from primitive_table import walk  # noqa: E402


def _rules(p, result) -> str:
    if p.name in result.not_operations:
        return f"not an operation: {result.not_operations[p.name]}"
    parts = []
    if not p.nondiff:
        parts.append("vjp" if p.vjp is not None or p.vjp_all is not None else "-")
        parts.append("jvp" if p.jvp is not None or p.jvp_all is not None else "-")
        parts.append("taylor" if p.taylor is not None else "taylor~jvp")
    else:
        parts.append("no gradient")
    parts.append("batch" if p.batch is not None else "batch~loop")
    return " ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--summary", action="store_true", help="print the summary only")
    args = ap.parse_args(argv)
    reg = registered()
    result = walk(reg)
    if not args.summary:
        width = max(map(len, reg))
        print(f"{'primitive':<{width}}  rows  rules")
        for name in sorted(reg):
            rows = result.rows.get(name, 0)
            note = f"  (exempt: {result.exempt[name]})" if name in result.exempt else ""
            print(f"{name:<{width}}  {rows:>4}  {_rules(reg[name], result)}{note}")
        print()
    effects = sum(1 for p in reg.values() if p.effect)
    diff = sum(1 for n, p in reg.items() if n not in result.not_operations and not p.nondiff)
    print(f"{len(reg)} registered primitives ({diff} differentiable operations, {effects} with "
          f"effects); {len(result.rows)} have table rows, {len(result.exempt)} are exempt, "
          f"{len(result.not_operations)} are not operations.")
    print(f"\nvmap falls back to a per-example loop for {len(result.batch_loop)}:")
    for name, why in sorted(result.batch_loop.items()):
        print(f"  {name}: {why}")
    print(f"\nTaylor mode uses the rule derived from the JVP rule for "
          f"{len(result.taylor_from_jvp)}:")
    for name, why in sorted(result.taylor_from_jvp.items()):
        print(f"  {name}: {why}")
    if result.problems or result.stale:
        print("\nPROBLEMS:")
        for name, what in result.problems:
            print(f"  {name}: {what}")
        for name in result.stale:
            print(f"  {name}: named in the table but not registered")
        return 1
    print("\nNo problems: every primitive has a row or an exemption and the rules it should.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
