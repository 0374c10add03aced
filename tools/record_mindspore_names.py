"""Write MindSpore 2.10's public names and function signatures of ``mindspore.numpy`` and
the ``mindspore.mint`` namespaces into ``tools/data/`` (``mindspore_<ns>_names.txt``: one
name a line; ``mindspore_<ns>_signatures.txt``: ``name (parameters)`` for each function or class).

``<ns>`` is the module path after ``mindspore.`` with dots as underscores (``mint_nn``,
``mint_nn_functional``, ``mint_optim``). The names are the module's ``__all__`` entries that
the module really has (``mindspore.mint.__all__`` also lists a few it does not define).

Run with a Python that has MindSpore installed (never mindgrad's own venv)::

    /path/to/mindspore-venv/bin/python tools/record_mindspore_names.py
"""
from __future__ import annotations

import importlib
import inspect
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

NAMESPACES = ["numpy", "mint", "mint.nn", "mint.nn.functional", "mint.optim"]


def record(namespace: str) -> None:
    """Write the two files of ``mindspore.<namespace>``."""
    mod = importlib.import_module("mindspore." + namespace)
    names = sorted(n for n in set(mod.__all__) if hasattr(mod, n))
    stem = os.path.join(DATA, "mindspore_" + namespace.replace(".", "_"))
    with open(stem + "_names.txt", "w") as f:
        f.write("\n".join(names) + "\n")
    lines = []
    for name in names:
        obj = getattr(mod, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):  # a class: its constructor
            try:
                lines.append(f"{name} {inspect.signature(obj)}")
            except (TypeError, ValueError):  # a wrapped builtin without a signature
                continue
    with open(stem + "_signatures.txt", "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"mindspore.{namespace}: {len(names)} names, {len(lines)} signatures")


def main() -> None:
    for namespace in NAMESPACES:
        record(namespace)


if __name__ == "__main__":
    main()
