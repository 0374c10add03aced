"""Write MindSpore 2.10's public ``mindspore.numpy`` names and function signatures into
``tools/data/`` (``mindspore_numpy_names.txt``: one name a line, from ``__all__``;
``mindspore_numpy_signatures.txt``: ``name (parameters)`` for each function).

Run with a Python that has MindSpore installed (never mindgrad's own venv)::

    /path/to/mindspore-venv/bin/python tools/record_mindspore_names.py
"""
from __future__ import annotations

import inspect
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def main() -> None:
    import mindspore.numpy as mnp

    names = sorted(set(mnp.__all__))
    with open(os.path.join(DATA, "mindspore_numpy_names.txt"), "w") as f:
        f.write("\n".join(names) + "\n")
    lines = []
    for name in names:
        obj = getattr(mnp, name)
        if inspect.isfunction(obj):
            lines.append(f"{name} {inspect.signature(obj)}")
    with open(os.path.join(DATA, "mindspore_numpy_signatures.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(names)} names, {len(lines)} signatures")


if __name__ == "__main__":
    main()
