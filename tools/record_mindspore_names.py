"""Write MindSpore 2.10's public names and function signatures of ``mindspore.numpy``,
the ``mindspore.mint`` namespaces, ``mindspore.ops`` (its functions), ``mindspore.ops.operations``
(the primitive classes), ``mindspore.nn`` and the ``Tensor`` methods into ``tools/data/``
(``mindspore_<ns>_names.txt``: one name a line; ``mindspore_<ns>_signatures.txt``:
``name (parameters)`` for each function or class).

``<ns>`` is the module path after ``mindspore.`` with dots as underscores (``mint_nn``,
``mint_nn_functional``, ``mint_optim``, ``ops_operations``; ``tensor`` for the methods). The
names are the module's ``__all__`` entries that the module really has
(``mindspore.mint.__all__`` also lists a few it does not define); for ``ops`` only the
entries that are not classes (``mindspore.ops.__all__`` lists the primitive classes too).

Run with a Python that has MindSpore installed (never mindgrad's own venv)::

    /path/to/mindspore-venv/bin/python tools/record_mindspore_names.py
"""
from __future__ import annotations

import importlib
import inspect
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

NAMESPACES = ["numpy", "mint", "mint.nn", "mint.nn.functional", "mint.optim", "ops",
              "ops.operations", "nn", "tensor"]


def public_names(namespace: str):
    """``(object holding the names, sorted names)`` of one namespace."""
    if namespace == "tensor":
        from mindspore import Tensor
        return Tensor, sorted(n for n in dir(Tensor) if not n.startswith("_"))
    mod = importlib.import_module("mindspore." + namespace)
    names = [n for n in set(mod.__all__) if hasattr(mod, n)]
    if namespace == "ops":
        names = [n for n in names if not inspect.isclass(getattr(mod, n))]
    return mod, sorted(names)


def record(namespace: str) -> None:
    """Write the two files of ``mindspore.<namespace>``."""
    mod, names = public_names(namespace)
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
