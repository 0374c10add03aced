"""``mindspore.ops.function``: every name of ``mindgrad.ops``, and the ``grad`` subpackage
(``mindspore.ops.function.grad.grad_func``) MindSpore code imports ``custom_vjp`` from.

It is a module of its own, not ``mindgrad.ops``: importing the subpackage makes the import
system set ``grad`` on its parent, which must not replace ``mindgrad.ops.grad``."""
from __future__ import annotations

from typing import Any

from ... import ops as _ops


def __getattr__(name: str) -> Any:
    return getattr(_ops, name)


def __dir__() -> list:
    return sorted(set(dir(_ops)) | set(globals()))
