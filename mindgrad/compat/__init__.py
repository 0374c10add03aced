"""Make ``import mindspore`` (and every ``mindspore.x.y``) resolve to mindgrad."""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from typing import Any

# The MindSpore module paths whose names live in a mindgrad module of another name; every
# other ``mindspore.x.y`` is ``mindgrad.x.y``. An alias is set as an attribute of its parent
# package by the import system, so no entry may name an attribute the parent already has
# for something else (``mindspore.ops.function.grad`` would replace ``ops.grad``).
_RENAMED = {
    "mindspore.common.api": "mindgrad.jit",
    "mindspore.common.tensor": "mindgrad.core.tensor",
    "mindspore.common.dtype": "mindgrad.core.dtype",
    "mindspore.common.sparse_tensor": "mindgrad.ops.sparse_tensor",
    "mindspore.ops.function": "mindgrad.compat.ops_function",
    "mindspore.ops.function.grad": "mindgrad.compat.ops_function.grad",
    "mindspore.ops.function.grad.grad_func": "mindgrad.compat.ops_function.grad.grad_func",
    "mindspore.ops.composite.base": "mindgrad.ops.composite",
    "mindspore.ops.operations.math_ops": "mindgrad.ops.operations",
    "mindspore.ops.operations.array_ops": "mindgrad.ops.operations",
    "mindspore.ops.operations.nn_ops": "mindgrad.ops.operations",
    "mindspore.ops.auto_generate": "mindgrad.ops.operations",
    "mindspore.nn.grad": "mindgrad.nn.grad_cells",
    "mindspore.nn.layer": "mindgrad.nn.layers",
    "mindspore._checkparam": "mindgrad.compat.checkparam",
    "mindspore._extends": "mindgrad.compat.extends",
}


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: Any) -> Any:
        module = importlib.import_module(self.target)
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module: Any) -> None:
        # the import system gave the module the alias's spec; its own keeps its relative
        # imports working (``__package__`` must match ``__spec__.parent``)
        module.__spec__ = self.own_spec


class _AliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``mindspore[.x]`` as the module ``mindgrad[.x]``."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "mindspore" and not name.startswith("mindspore."):
            return None
        real = _RENAMED.get(name, "mindgrad" + name[len("mindspore"):])
        if importlib.util.find_spec(real) is None:
            return None
        return importlib.util.spec_from_loader(name, _AliasLoader(real))


# Classes whose ``type(x)`` a MindSpore program prints: while the alias is installed they
# name MindSpore's module (``<class 'mindspore.common.tensor.Tensor'>``), which the alias
# resolves to the same class, so pickling and ``repr`` agree.
_SHOWN_AS = {"mindspore.common.tensor": ("mindgrad.core.tensor", "Tensor")}


def _show_classes(as_mindspore: bool) -> None:
    for ms_module, (module, name) in _SHOWN_AS.items():
        cls = getattr(importlib.import_module(module), name)
        cls.__module__ = ms_module if as_mindspore else module


def install() -> None:
    """Let ``import mindspore`` load mindgrad from now on in this process."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())
    _show_classes(True)


def uninstall() -> None:
    """Undo `install`: ``mindspore`` imports fail again and classes show mindgrad's names."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _AliasFinder)]
    _show_classes(False)
    for name in [n for n in sys.modules if n == "mindspore" or n.startswith("mindspore.")]:
        del sys.modules[name]
