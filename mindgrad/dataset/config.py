"""``mindspore.dataset.config``: the pipeline's global settings (seed, worker count, ...).

The seed decides every random choice of a pipeline: the order a shuffled source or a
``shuffle`` operation produces and the draws of random transforms. A new iterator starts
from it again, so iterating the same pipeline twice gives the same rows in the same order;
the epochs of one iterator (``num_epochs``) each get a different order."""
from __future__ import annotations

import os

import numpy as np

_DEFAULT_SEED = 5489  # MindSpore's default (the Mersenne Twister's default seed)
_state = {
    "seed": _DEFAULT_SEED,
    "num_parallel_workers": max(1, min(8, os.cpu_count() or 1)),
    "prefetch_size": 16,
    "enable_shared_mem": True,
    "monitor_sampling_interval": 1000,
    "callback_timeout": 60,
    "multiprocessing_timeout_interval": 300,
}
_transform_rng = [np.random.default_rng(_DEFAULT_SEED)]


def _check_int(name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"For 'config.{name}', the argument must be an int, but got "
                        f"{type(value).__name__}.")
    if value < low:
        raise ValueError(f"For 'config.{name}', the argument must be >= {low}, but got {value}.")
    return int(value)


def set_seed(seed: int) -> None:
    """Seed the pipeline's random choices (shuffles, samplers and random transforms)."""
    seed = _check_int("set_seed", seed, 0)
    if seed > 2 ** 32 - 1:
        raise ValueError(f"For 'config.set_seed', seed must be in [0, 2**32 - 1], but got {seed}.")
    _state["seed"] = seed
    _transform_rng[0] = np.random.default_rng(seed)


def get_seed() -> int:
    """The seed set by ``set_seed`` (5489 by default)."""
    return _state["seed"]


def set_num_parallel_workers(num: int) -> None:
    """The default number of workers of ``map`` and ``batch``."""
    _state["num_parallel_workers"] = _check_int("set_num_parallel_workers", num, 1)


def get_num_parallel_workers() -> int:
    """The default number of workers of ``map`` and ``batch``."""
    return _state["num_parallel_workers"]


def set_prefetch_size(size: int) -> None:
    """Accepted for compatibility: rows are produced on demand, so nothing is prefetched."""
    _state["prefetch_size"] = _check_int("set_prefetch_size", size, 1)


def get_prefetch_size() -> int:
    return _state["prefetch_size"]


def set_enable_shared_mem(enable: bool) -> None:
    """Accepted for compatibility: worker processes send their rows through pipes."""
    _state["enable_shared_mem"] = bool(enable)


def get_enable_shared_mem() -> bool:
    return _state["enable_shared_mem"]


def set_monitor_sampling_interval(interval: int) -> None:
    _state["monitor_sampling_interval"] = _check_int("set_monitor_sampling_interval", interval, 0)


def get_monitor_sampling_interval() -> int:
    return _state["monitor_sampling_interval"]


def set_callback_timeout(timeout: int) -> None:
    _state["callback_timeout"] = _check_int("set_callback_timeout", timeout, 1)


def get_callback_timeout() -> int:
    return _state["callback_timeout"]


def set_multiprocessing_timeout_interval(interval: int) -> None:
    _state["multiprocessing_timeout_interval"] = _check_int(
        "set_multiprocessing_timeout_interval", interval, 1)


def get_multiprocessing_timeout_interval() -> int:
    return _state["multiprocessing_timeout_interval"]


def transform_rng() -> np.random.Generator:
    """The generator random transforms draw from (reseeded by ``set_seed``; each worker
    process reseeds its own copy so workers do not repeat each other's draws)."""
    return _transform_rng[0]


def _reseed_transforms(*entropy: int) -> None:
    _transform_rng[0] = np.random.default_rng([_state["seed"], *entropy])
