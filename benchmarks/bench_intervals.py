"""Benchmark: exact coverage of the paired-difference intervals (issue 15).

Measured in one run, beside a Monte Carlo baseline:

1. Exact coverage of each interval method at n = 100 over a 50 x 50 grid of
   (pi_b, pi_c) in [0.005, 0.25]^2 (p_d = 0.1; the work of a coverage-map figure).
   Target: at most 2 s per method.
2. Exact coverage at n = 1,000 for one point, (p_a, p_b, p_c, p_d) =
   (0.75, 0.1, 0.05, 0.1). Target: at most 1 s per method.
3. The same coverage by Monte Carlo to +-0.002 (95% half-width, so 1.96 standard
   errors <= 0.002: about 46,000 simulated test sets at coverage 0.95), per point, and
   the ratio of its time to the exact enumeration's.
4. The grid of item 1 by Monte Carlo (extrapolated from 10 timed points) against the
   exact grid.

Times are the best of two runs, as wall-clock and as CPU time of this process
(``time.process_time``); the verdict uses CPU time because the machine's two cores
are shared with other jobs, which can stretch wall-clock time several-fold.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_intervals.py``.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from _timing import best_of
from evallib.onetestset._paired_intervals import PAIRED_INTERVAL_METHODS, _interval_bounds
from evallib.onetestset._coverage import coverage_map, interval_coverage

GRID = np.linspace(0.005, 0.25, 50)
GRID_TARGET_S = 2.0
POINT_TARGET_S = 1.0
POINT = (0.75, 0.10, 0.05, 0.10)
HALF_WIDTH = 0.002


def best_cpu(fn, repeat: int = 2) -> tuple[float, float]:
    """Best wall-clock and best CPU seconds of ``repeat`` calls of ``fn()``."""
    cpu = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        cpu.append(time.process_time() - t0)
    return best_of(fn, repeat), min(cpu)


def monte_carlo(method: str, n: int, probs, rng) -> tuple[float, int]:
    """Coverage from simulated tables, to a 95% half-width of HALF_WIDTH."""
    probs = np.asarray(probs)
    truth = probs[1] - probs[2]
    reps = int(np.ceil(0.95 * 0.05 * (1.96 / HALF_WIDTH) ** 2))
    draws = rng.multinomial(n, probs, size=reps)
    low, high = _interval_bounds(method, *draws.T, n, 0.05)
    return float(np.mean((low <= truth) & (truth <= high))), reps


def main() -> int:
    failed = False
    print("1. Exact coverage, n = 100, 50 x 50 grid of (pi_b, pi_c), seconds")
    for method in PAIRED_INTERVAL_METHODS:
        wall, cpu = best_cpu(lambda: coverage_map(method, 100, GRID, GRID, p_d=0.1))
        ok = cpu <= GRID_TARGET_S
        failed |= not ok
        print(f"   {method:>13}: CPU {cpu:6.3f} s, wall {wall:6.3f} s  "
              f"({'ok' if ok else 'SLOW'}; target <= {GRID_TARGET_S} s)")
    print(f"2./3. One point at n = 1000, probs = {POINT}: exact vs Monte Carlo to +-{HALF_WIDTH}")
    rng = np.random.default_rng(2014)
    for method in PAIRED_INTERVAL_METHODS:
        _, t_exact = best_cpu(lambda: interval_coverage(method, 1000, POINT))
        exact = interval_coverage(method, 1000, POINT).coverage
        t0 = time.process_time()
        mc, reps = monte_carlo(method, 1000, POINT, rng)
        t_mc = time.process_time() - t0
        ok = t_exact <= POINT_TARGET_S
        failed |= not ok
        print(f"   {method:>13}: exact {exact:.4f} in {t_exact:.3f} s CPU ({'ok' if ok else 'SLOW'}); "
              f"Monte Carlo {mc:.4f} ({reps:,} tables) in {t_mc:.3f} s; Monte Carlo / exact = "
              f"{t_mc / max(t_exact, 1e-9):.2f}")
    print("4. The grid of item 1 by Monte Carlo to +-0.002 (qh, n = 100): 10 of its 2,500 points timed")
    _, t_grid = best_cpu(lambda: coverage_map("qh", 100, GRID, GRID, p_d=0.1))
    t0 = time.process_time()
    for pb in GRID[::5]:
        monte_carlo("qh", 100, (0.9 - pb - 0.05, pb, 0.05, 0.1), rng)
    t_mc_grid = (time.process_time() - t0) / 10 * GRID.size ** 2
    print(f"   Monte Carlo about {t_mc_grid:.0f} s CPU for the grid, exact {t_grid:.3f} s: "
          f"exact is {t_mc_grid / t_grid:,.0f}x faster")
    if failed:
        print("FAIL: a timing target was missed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
