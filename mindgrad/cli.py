"""The ``mindgrad`` command: ``mindgrad run SCRIPT [ARGS...]`` runs a MindSpore program
unmodified, with ``import mindspore`` resolving to mindgrad."""
from __future__ import annotations

import argparse
import os
import runpy
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mindgrad", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a MindSpore script on mindgrad")
    run.add_argument("script", help="path of the Python script")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    sub.add_parser("version", help="print the version")
    ns = parser.parse_args(argv)
    if ns.command == "version":
        from . import __version__

        print(__version__)
        return 0
    from .compat import install

    install()
    if not os.path.exists(ns.script):
        print(f"mindgrad run: no such script: {ns.script}", file=sys.stderr)
        return 2
    sys.argv = [ns.script] + ns.args
    runpy.run_path(ns.script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
