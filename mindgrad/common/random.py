"""The random state behind initializers and random operators (``mindspore.set_seed``).

``generator()`` is the global stream. A random operator given its own ``seed=`` draws from
a stream of its own, made from the global seed and that seed, and continues it on the next
call with the same seed (as MindSpore's seeded operators do: two calls with ``seed=5`` give
different values, and the whole sequence repeats after ``set_seed``)."""
from __future__ import annotations

import numpy as np

_rng: dict = {"gen": np.random.default_rng(), "seed": None, "ops": {}}


def set_seed(seed: int) -> None:
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"For 'set_seed', the seed must be a non-negative int, but got {seed!r}.")
    _rng["gen"] = np.random.default_rng(seed)
    _rng["seed"] = seed
    _rng["ops"] = {}
    np.random.seed(seed)


def get_seed() -> int | None:
    """The seed given to ``set_seed`` (None before any)."""
    return _rng["seed"]


def generator() -> np.random.Generator:
    return _rng["gen"]


def op_generator(seed: int | None) -> np.random.Generator:
    """The stream of a random operator called with ``seed`` (the global one for None)."""
    if seed is None:
        return _rng["gen"]
    streams = _rng["ops"]
    gen = streams.get(seed)
    if gen is None:
        base = _rng["seed"]
        gen = streams[seed] = np.random.default_rng([seed] if base is None else [base, seed])
    return gen
