"""Timing helpers for the benchmarks: medians over repeated runs, ratios to a reference
measured in the same process on the same inputs."""
from __future__ import annotations

import statistics
import time
from typing import Callable


def median_time(fn: Callable[[], object], repeats: int = 15, min_time: float = 0.05) -> float:
    """Median seconds per call of ``fn``: each repeat runs enough calls to last ``min_time``."""
    fn()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t0 >= min_time / 4 or n >= 1 << 20:
            break
        n *= 2
    n = max(1, int(n * (min_time / max(time.perf_counter() - t0, 1e-9))))
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t0) / n)
    return statistics.median(samples)


def fmt_us(seconds: float) -> str:
    return f"{seconds * 1e6:9.2f} us"
