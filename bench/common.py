"""Timing helpers for the benchmarks: the candidates are timed round-robin (one batch of
calls of each per round) so that a change in machine load affects all of them alike, and the
median over rounds is reported; ratios are taken against a reference timed in the same run
on the same inputs."""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from typing import Callable


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


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
    return {k: statistics.median(v) for k, v in round_times(fns, repeats, min_time).items()}


def round_times(fns: dict, repeats: int = 15, min_time: float = 0.05,
                peer: "Peer | None" = None, clock: str = "wall") -> dict:
    """Seconds per call of each function in each of ``repeats`` round-robin rounds (lists
    indexed by round, so that ratios can be taken within a round). With a ``peer``, each
    round also times the peer's functions (keys ``("peer", name)``) between ours.
    ``clock="cpu"`` measures the process's CPU time (all its threads) instead of wall time:
    steadier on a machine shared with other work, blind to time spent waiting."""
    now = CLOCKS[clock]
    counts = {k: _calls_for(f, min_time) for k, f in fns.items()}
    samples: dict = {k: [] for k in fns}
    for _ in range(repeats):
        for k, f in fns.items():
            n = counts[k]
            t0 = now()
            for _ in range(n):
                f()
            samples[k].append((now() - t0) / n)
        if peer is not None:
            for k, t in peer.round(clock).items():
                samples.setdefault(("peer", k), []).append(t)
    return samples


def median_ratio(samples: dict, num: object, den: object) -> float:
    """The median over rounds of ``num``'s time over ``den``'s in the same round."""
    return statistics.median(a / b for a, b in zip(samples[num], samples[den]))


class Peer:
    """Functions timed in another interpreter (jax in its own virtualenv), one round at a
    time on request, so that their rounds interleave with ours under the same machine load.
    The peer script calls ``serve`` with its functions; ``results`` holds what it sent."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)
        self.results = self._read()

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"peer {self.proc.args} exited with {self.proc.wait()}")
        return json.loads(line)

    def round(self, clock: str = "wall") -> dict:
        self.proc.stdin.write(f"round {clock}\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def serve(fns: dict, results: dict, min_time: float = 0.05) -> None:
    """The peer's side of ``Peer``: send ``results`` (JSON), then time one round of ``fns``
    per line read from stdin (``round wall`` or ``round cpu``: the clock) until it closes."""
    counts = {k: _calls_for(f, min_time) for k, f in fns.items()}
    out = sys.stdout
    out.write(json.dumps(results) + "\n")
    out.flush()
    for line in sys.stdin:
        now = CLOCKS[line.split()[-1]]
        times = {}
        for k, f in fns.items():
            n = counts[k]
            t0 = now()
            for _ in range(n):
                f()
            times[k] = (now() - t0) / n
        out.write(json.dumps(times) + "\n")
        out.flush()


def fmt_us(seconds: float) -> str:
    return f"{seconds * 1e6:10.2f} us"


def report(title: str, times: dict[str, float], reference: str) -> None:
    print(title)
    ref = times[reference]
    for label, t in times.items():
        print(f"  {label:22s} {fmt_us(t)}   {t / ref:6.2f}x {reference}")
