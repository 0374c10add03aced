"""``mindspore.ops.function.grad``: a package in MindSpore that is also used as the ``grad``
function (``from mindspore.ops.function import grad`` may give either, depending on what
was imported first), so this module is callable as ``ops.grad`` and otherwise offers the
names of ``mindgrad.ops``."""
from __future__ import annotations

import sys
import types
from typing import Any

from .... import ops as _ops


class _CallableGradModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _ops.grad(*args, **kwargs)


def __getattr__(name: str) -> Any:
    return getattr(_ops, name)


sys.modules[__name__].__class__ = _CallableGradModule
