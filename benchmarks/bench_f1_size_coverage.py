"""Benchmark: the Monte Carlo of the F1 bootstrap test's size and coverage (notebook 03, section 6).

``evallib.f1_test_check`` draws every simulated test set as one multinomial vector of the
eight joint event counts and bootstraps all of them at once (a block of test sets x
replicates x 8 counts), against two baselines measured in the same run: the same study
as a loop that runs ``bootstrap_f1_difference`` on each simulated test set's documents,
with its multinomial resampler and with the paper's resampling of documents
(``method="index"``). Workload: 200 test sets of 2,000 documents, 1,000 replicates each (the
notebook runs 18 such cells of 1,000 test sets). Target: the notebook's whole section 6
(9 settings x sizes, each with its null twin, 1,000 x 1,000) extrapolated under 60 s.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_f1_size_coverage.py``.
"""

from __future__ import annotations

import sys

import numpy as np
from _timing import best_of

from evallib.onetestset._bizarre import bootstrap_f1_difference, f1_test_check

POP = np.array([2500, 60, 40, 200, 300, 150, 100, 6650.])
N, R, REPS, TARGET_S = 2000, 200, 1000, 60.0


def _loop(method: str, rng_seed: int = 0) -> float:
    rng = np.random.default_rng(rng_seed)
    p = POP / POP.sum()
    hits = 0
    for _ in range(R):
        codes = np.repeat(np.arange(8), rng.multinomial(N, p))
        y, a, b = codes < 4, np.isin(codes, (0, 2, 4, 6)), np.isin(codes, (0, 1, 4, 5))
        hits += bootstrap_f1_difference(y, a, b, n_resamples=REPS, rng=rng, method=method).reject
    return hits / R


def main() -> int:
    fast = best_of(lambda: f1_test_check(POP, N, repetitions=R, n_resamples=REPS, rng=1), repeat=3)
    loop = best_of(lambda: _loop("multinomial"), repeat=1)
    index = best_of(lambda: _loop("index"), repeat=1)
    section6 = fast * (1000 / R) * 18     # 18 checks of 1,000 test sets; the cost does not grow with N
    print(f"size/coverage Monte Carlo: {R} test sets of {N:,} documents, {REPS:,} replicates each (best of runs)")
    print(f"  vectorised over test sets (f1_test_check) : {fast:7.3f} s")
    print(f"  loop of bootstrap_f1_difference            : {loop:7.3f} s   ({loop / fast:.1f} x slower)")
    print(f"  loop resampling documents (method=index)   : {index:7.3f} s   ({index / fast:.1f} x slower)")
    print(f"  notebook 03 section 6 extrapolated         : {section6:7.1f} s   (target < {TARGET_S:.0f} s)")
    if section6 > TARGET_S:
        print(f"FAIL: section 6 would take {section6:.1f} s > {TARGET_S:.0f} s", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
