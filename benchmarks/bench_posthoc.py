"""Benchmark: Bergmann-Hommel for k = 8 and the Bayesian signed-rank test (issue 17).

* ``evallib.posthoc_friedman(adjust="bergmann")`` for k = 8 classifiers over 30 data
  sets, timed cold (the 4,140 exhaustive sets enumerated afresh) and warm (cached);
  target <= 1 s cold. Yardstick in the same run: scikit-posthocs'
  ``posthoc_nemenyi_friedman`` on the same table (it has no Bergmann-Hommel).
* ``evallib.bayesian_signed_rank`` with 50,000 posterior samples over 50 data sets;
  target <= 0.3 s. Baseline in the same run: baycomp's ``SignedRankTest.sample``
  with the same sizes (a Python loop over the samples).

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_posthoc.py``.
"""

from __future__ import annotations

import sys

import numpy as np
from _timing import best_of

from evallib.manydatasets._bayesian import bayesian_signed_rank
from evallib.manydatasets._posthoc import exhaustive_sets, posthoc_friedman

K, N_SETS, BH_TARGET_S = 8, 30, 1.0
SR_SETS, SR_SAMPLES, SR_TARGET_S = 50, 50_000, 0.3


def _bergmann_cold(scores):
    exhaustive_sets.cache_clear()
    return posthoc_friedman(scores, adjust="bergmann")


def main() -> int:
    status = 0
    rng = np.random.default_rng(0)
    scores = rng.uniform(0.6, 0.9, (N_SETS, 1)) + rng.normal(0, 0.03, (N_SETS, K)) + np.linspace(0, 0.05, K)
    cold = best_of(lambda: _bergmann_cold(scores), repeat=3)
    warm = best_of(lambda: posthoc_friedman(scores, adjust="bergmann"), repeat=5)
    print(f"Bergmann-Hommel, k = {K} classifiers, {N_SETS} data sets (best of repeated runs)")
    print(f"  evallib, exhaustive sets enumerated : {1000 * cold:8.1f} ms   (target <= {1000 * BH_TARGET_S:.0f} ms)")
    print(f"  evallib, exhaustive sets cached     : {1000 * warm:8.1f} ms")
    try:
        import scikit_posthocs as sp

        nem = best_of(lambda: sp.posthoc_nemenyi_friedman(scores), repeat=5)
        print(f"  scikit-posthocs Nemenyi (yardstick) : {1000 * nem:8.1f} ms   "
              f"(Bergmann-Hommel cold / Nemenyi = {cold / nem:.1f} x)")
    except ImportError:
        print("  scikit-posthocs not installed: no yardstick")
    if cold > BH_TARGET_S:
        print(f"FAIL: Bergmann-Hommel took {cold:.3f} s > {BH_TARGET_S} s", file=sys.stderr)
        status = 1

    x = rng.uniform(0.6, 0.9, SR_SETS)
    y = x + rng.normal(0.005, 0.02, SR_SETS)
    ours = best_of(lambda: bayesian_signed_rank(x, y, rope=0.01, n_resamples=SR_SAMPLES, rng=1), repeat=5)
    print(f"Bayesian signed-rank test, {SR_SETS} data sets, {SR_SAMPLES:,} samples")
    print(f"  evallib                             : {1000 * ours:8.1f} ms   (target <= {1000 * SR_TARGET_S:.0f} ms)")
    try:
        import baycomp

        ref = best_of(lambda: baycomp.SignedRankTest.sample(x, y, rope=0.01, nsamples=SR_SAMPLES,
                                                            random_state=1), repeat=1)
        print(f"  baycomp SignedRankTest.sample       : {1000 * ref:8.1f} ms   (baseline)")
        print(f"  speed-up                            : {ref / ours:8.1f} x")
    except ImportError:
        print("  baycomp not installed: no baseline")
    if ours > SR_TARGET_S:
        print(f"FAIL: the Bayesian signed-rank test took {ours:.3f} s > {SR_TARGET_S} s", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
