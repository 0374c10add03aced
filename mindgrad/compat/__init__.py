"""Make ``import mindspore`` (and every ``mindspore.x.y``) resolve to mindgrad."""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from typing import Any

_RENAMED = {
    "mindspore.common.api": "mindgrad.jit",
    "mindspore.train.serialization": "mindgrad.common.serialization",
}


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: Any) -> Any:
        return importlib.import_module(self.target)

    def exec_module(self, module: Any) -> None:
        pass


class _AliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``mindspore[.x]`` as the module ``mindgrad[.x]``."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "mindspore" and not name.startswith("mindspore."):
            return None
        real = _RENAMED.get(name, "mindgrad" + name[len("mindspore"):])
        if importlib.util.find_spec(real) is None:
            return None
        return importlib.util.spec_from_loader(name, _AliasLoader(real))


def install() -> None:
    """Let ``import mindspore`` load mindgrad from now on in this process."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())


def uninstall() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _AliasFinder)]
    for name in [n for n in sys.modules if n == "mindspore" or n.startswith("mindspore.")]:
        del sys.modules[name]
