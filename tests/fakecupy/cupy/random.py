"""``cupy.random``: NumPy's legacy generator and ``default_rng`` producing device arrays.
(The streams differ from CuPy's cuRAND ones, as CuPy's differ from NumPy's.)"""
from __future__ import annotations

from typing import Any

import numpy as np

from ._core import dev, wrap
from ._functions import NAMES


def _device_methods(obj: Any):
    class Wrapped:
        def __init__(self, inner: Any) -> None:
            self._inner = inner

        def __getattr__(self, name: str) -> Any:
            fn = getattr(self._inner, name)
            if not callable(fn):
                return fn

            def call(*args: Any, **kwargs: Any) -> Any:
                return wrap(fn(*[dev(a) for a in args],
                               **{k: dev(v) for k, v in kwargs.items()}))
            return call

    return Wrapped(obj)


class RandomState:
    """``cupy.random.RandomState(seed)``."""

    def __init__(self, seed: Any = None) -> None:
        self._rs = _device_methods(np.random.RandomState(seed))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rs, name)


def default_rng(seed: Any = None) -> Any:
    return _device_methods(np.random.default_rng(seed))


_global = RandomState()


def seed(s: Any = None) -> None:
    global _global
    _global = RandomState(s)


def get_random_state() -> RandomState:
    return _global


def _module_function(name: str):
    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(_global, name)(*args, **kwargs)

    call.__name__ = name
    return call


for _name in NAMES["random"]:
    if _name not in globals() and hasattr(np.random.RandomState, _name):
        globals()[_name] = _module_function(_name)
