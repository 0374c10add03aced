"""Timing helpers for the benchmarks: the candidates are timed round-robin (one batch of
calls of each per round) so that a change in machine load affects all of them alike, and the
median over rounds is reported; ratios are taken against a reference timed in the same run
on the same inputs."""
from __future__ import annotations

import statistics
import time
from typing import Callable


def _calls_for(fn: Callable[[], object], min_time: float) -> int:
    """How many calls of ``fn`` last about ``min_time`` seconds."""
    fn()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        elapsed = time.perf_counter() - t0
        if elapsed >= min_time or n >= 1 << 20:
            return max(1, int(n * min_time / max(elapsed, 1e-9)))
        n *= 2


def compare_times(fns: dict[str, Callable[[], object]], repeats: int = 15,
                  min_time: float = 0.05) -> dict[str, float]:
    """Median seconds per call of each function, timed round-robin over ``repeats`` rounds."""
    counts = {k: _calls_for(f, min_time) for k, f in fns.items()}
    samples: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeats):
        for k, f in fns.items():
            n = counts[k]
            t0 = time.perf_counter()
            for _ in range(n):
                f()
            samples[k].append((time.perf_counter() - t0) / n)
    return {k: statistics.median(v) for k, v in samples.items()}


def fmt_us(seconds: float) -> str:
    return f"{seconds * 1e6:10.2f} us"


def report(title: str, times: dict[str, float], reference: str) -> None:
    print(title)
    ref = times[reference]
    for label, t in times.items():
        print(f"  {label:22s} {fmt_us(t)}   {t / ref:6.2f}x {reference}")
