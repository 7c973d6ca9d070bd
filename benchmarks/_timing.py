"""Helpers shared by the benchmark scripts (not a benchmark: ``make bench`` skips ``_*.py``)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """The shortest of ``repeat`` wall-clock timings of ``fn()``, in seconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def slider_verdict(worst: float, target: float = 0.3) -> int:
    """Print the slowest slider update against the target; the script's exit status."""
    print(f"  slowest slider update: {worst:.3f} s (target < {target} s)")
    if worst >= target:
        print(f"FAIL: slowest slider update {worst:.3f} s >= {target} s", file=sys.stderr)
        return 1
    return 0
