"""``mindspore.ops.function.grad.grad_func``: the differentiation functions, with
``custom_vjp``."""
from __future__ import annotations

from typing import Any

from .... import ops as _ops
from ....ops.custom_function import custom_vjp  # noqa: F401


def __getattr__(name: str) -> Any:
    return getattr(_ops, name)
