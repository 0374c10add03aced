"""The random state behind initializers and random operators (``mindspore.set_seed``)."""
from __future__ import annotations

import numpy as np

_rng = {"gen": np.random.default_rng()}


def set_seed(seed: int) -> None:
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"For 'set_seed', the seed must be a non-negative int, but got {seed!r}.")
    _rng["gen"] = np.random.default_rng(seed)
    np.random.seed(seed)


def generator() -> np.random.Generator:
    return _rng["gen"]
