"""Benchmark: 10,000 paired F1 bootstrap replicates on n = 7,909 test documents.

The bootstrap percentile test of Keller, Bengio & Wong (section 4) as
``evallib.bootstrap_f1_difference`` runs it, resampling the eight joint event counts
(one multinomial draw per replicate), against the baseline of resampling the 7,909
documents themselves (``method="index"``), measured in the same run on the same
test set. Target: at most 50 ms for the multinomial bootstrap.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_bootstrap.py``.
"""

from __future__ import annotations

import sys

import numpy as np
from _timing import best_of

from evallib.onetestset._bizarre import bootstrap_f1_difference

N, REPS, TARGET_S = 7909, 10_000, 0.050


def _test_set(seed: int = 0):
    """A test set like the paper's: about a quarter positives, two ~90%-accurate models."""
    rng = np.random.default_rng(seed)
    y = (rng.random(N) < 0.25).astype(int)
    shared = rng.random(N) < 0.06                      # examples both models get wrong
    a = np.where(shared | (rng.random(N) < 0.05), 1 - y, y)
    b = np.where(shared | (rng.random(N) < 0.04), 1 - y, y)
    return y, a, b


def main() -> int:
    y, a, b = _test_set()
    multi = best_of(lambda: bootstrap_f1_difference(y, a, b, n_resamples=REPS, rng=1), repeat=7)
    index = best_of(lambda: bootstrap_f1_difference(y, a, b, n_resamples=REPS, rng=1, method="index"), repeat=2)
    print(f"bootstrap of dF1, n = {N:,} documents, {REPS:,} replicates (best of repeated runs)")
    print(f"  multinomial over the 8 event counts : {1000 * multi:8.1f} ms   (target <= {1000 * TARGET_S:.0f} ms)")
    print(f"  index resampling of documents       : {1000 * index:8.1f} ms   (baseline)")
    print(f"  speed-up                            : {index / multi:8.1f} x")
    if multi > TARGET_S:
        print(f"FAIL: the multinomial bootstrap took {1000 * multi:.1f} ms > {1000 * TARGET_S:.0f} ms", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
