"""Benchmark: the hierarchical model and Eisinga's exact p-values (issue 26).

* ``evallib.manydatasets._hierarchical.hierarchical_test`` on 50 data sets x 10x10
  cross-validation (100 differences per data set), 10,000 posterior draws over 4
  chains after 1,000 burn-in iterations each; target <= 30 s. No baseline runs here:
  baycomp's ``HierarchicalTest`` needs pystan and a C++ compiler (baycomp issue #1).
* ``posthoc_friedman(distribution="exact")`` for k = 10 algorithms over n = 50 data
  sets (45 exact pair p-values, Eisinga et al. 2017), cold cache; target <= 1 s.
  Beside it: the whole null distribution by convolution, and the normal version.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_manydatasets.py``.
"""

from __future__ import annotations

import sys

import numpy as np
from _timing import best_of

from evallib.manydatasets._hierarchical import hierarchical_test
from evallib.manydatasets._posthoc import posthoc_friedman
from evallib.manydatasets._ranksums import _upper_count, rank_sum_difference_null

H_SETS, H_SCORES, H_TARGET_S = 50, 100, 30.0
K, N, EXACT_TARGET_S = 10, 50, 1.0


def _exact_cold(scores):
    _upper_count.cache_clear()
    return posthoc_friedman(scores, adjust="holm", distribution="exact")


def main() -> int:
    status = 0
    rng = np.random.default_rng(0)
    x = rng.uniform(0.6, 0.9, (H_SETS, 1)) + rng.normal(0, 0.02, (H_SETS, H_SCORES))
    y = x + rng.normal(0.005, 0.01, (H_SETS, 1)) + rng.normal(0, 0.015, (H_SETS, H_SCORES))
    res = hierarchical_test(x, y, rope=0.01, runs=10, rng=1)
    took = best_of(lambda: hierarchical_test(x, y, rope=0.01, runs=10, rng=1), repeat=3)
    print(f"Hierarchical model, {H_SETS} data sets x 10x10 CV, {res.n_resamples:,} draws, {res.chains} chains")
    print(f"  evallib NumPy sampler               : {took:8.2f} s   (target <= {H_TARGET_S:.0f} s)")
    print(f"  P(left, rope, right) = ({res.p_left:.3f}, {res.p_rope:.3f}, {res.p_right:.3f}), "
          f"MC error <= {max(res.mc_error):.4f}, R-hat {res.rhat:.3f}")
    if took > H_TARGET_S:
        print(f"FAIL: the hierarchical model took {took:.2f} s > {H_TARGET_S} s", file=sys.stderr)
        status = 1

    scores = rng.uniform(0.6, 0.9, (N, 1)) + rng.normal(0, 0.03, (N, K)) + np.linspace(0, 0.05, K)
    cold = best_of(lambda: _exact_cold(scores), repeat=3)
    normal = best_of(lambda: posthoc_friedman(scores, adjust="holm"), repeat=5)
    null = best_of(lambda: rank_sum_difference_null(K, N), repeat=1)
    print(f"Exact pairwise Friedman p-values, k = {K}, n = {N} ({K * (K - 1) // 2} pairs)")
    print(f"  posthoc_friedman(distribution='exact'): {1000 * cold:8.1f} ms   "
          f"(target <= {1000 * EXACT_TARGET_S:.0f} ms)")
    print(f"  posthoc_friedman (normal)           : {1000 * normal:8.1f} ms")
    print(f"  whole null by convolution           : {1000 * null:8.1f} ms")
    if cold > EXACT_TARGET_S:
        print(f"FAIL: exact p-values took {cold:.3f} s > {EXACT_TARGET_S} s", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
