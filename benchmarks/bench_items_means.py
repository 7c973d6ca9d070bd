"""Benchmark: per-item means and paired differences at benchmark scale (design 4).

* ``evallib.items._means.paired_item_difference`` on 1,000,000 items (0/1 scores of two
  models) in 50,000 clusters, the default CR2 interval with Bell-McCaffrey df;
  target <= 0.5 s. Yardstick in the same run: statsmodels' cluster-robust OLS on an
  intercept (``cov_type="cluster"``, CR1 only) fitted to the same per-item differences.
  Also timed: string cluster labels, and items x 5 samples with NaN (item means first).
* ``evallib.items._means.item_mean`` on the same 1,000,000 items and clusters.
* ``evallib.items._coverage.item_interval_coverage`` with 1,000 simulations of 200 items
  in clusters of 10 (the notebook's slider); target < 0.1 s.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_items_means.py``.
"""

from __future__ import annotations

import sys

import numpy as np
from _timing import best_of

from evallib.items._coverage import item_interval_coverage
from evallib.items._means import item_mean, paired_item_difference

N_ITEMS, N_CLUSTERS, PAIRED_TARGET_S = 1_000_000, 50_000, 0.5
SIM_ITEMS, SIM_N, SIM_TARGET_S = 200, 1000, 0.1


def main() -> int:
    status = 0
    rng = np.random.default_rng(0)
    g = rng.integers(0, N_CLUSTERS, N_ITEMS)
    effect = rng.normal(0, 0.5, N_CLUSTERS)[g]
    a = (rng.random(N_ITEMS) < 1 / (1 + np.exp(-(0.8 + effect)))).astype(float)
    b = (rng.random(N_ITEMS) < 1 / (1 + np.exp(-(0.7 + effect)))).astype(float)

    ours = best_of(lambda: paired_item_difference(a, b, clusters=g), repeat=5)
    print(f"paired_item_difference, {N_ITEMS:,} items in {N_CLUSTERS:,} clusters (best of repeated runs)")
    print(f"  evallib, CR2 + Bell-McCaffrey df     : {1000 * ours:8.1f} ms   "
          f"(target <= {1000 * PAIRED_TARGET_S:.0f} ms)")
    labels = np.array([f"passage-{k}" for k in range(N_CLUSTERS)], dtype=object)[g]
    strings = best_of(lambda: paired_item_difference(a, b, clusters=labels), repeat=3)
    print(f"  evallib, string cluster labels       : {1000 * strings:8.1f} ms")
    a2 = np.where(rng.random((N_ITEMS, 5)) < 0.1, np.nan, a[:, None] * np.ones(5))
    a2[:, 0] = a
    samples = best_of(lambda: paired_item_difference(a2, b, clusters=g), repeat=3)
    print(f"  evallib, a as items x 5 samples (NaN): {1000 * samples:8.1f} ms")
    try:
        import statsmodels.api as sm

        d, ones = a - b, np.ones(N_ITEMS)
        ref = best_of(lambda: sm.OLS(d, ones).fit(cov_type="cluster", cov_kwds={"groups": g}), repeat=3)
        print(f"  statsmodels OLS, cov_type='cluster'  : {1000 * ref:8.1f} ms   (yardstick, CR1 only; "
              f"evallib is {ref / ours:.1f}x faster)")
    except ImportError:
        print("  statsmodels not installed: no yardstick")
    if ours > PAIRED_TARGET_S:
        print(f"FAIL: paired_item_difference took {ours:.3f} s > {PAIRED_TARGET_S} s", file=sys.stderr)
        status = 1

    mean_t = best_of(lambda: item_mean(a, clusters=g), repeat=5)
    print(f"item_mean, {N_ITEMS:,} items in {N_CLUSTERS:,} clusters (Wilson, effective n): {1000 * mean_t:8.1f} ms")

    sim = best_of(lambda: item_interval_coverage(n_items=SIM_ITEMS, cluster_size=10, icc=0.05, n_resamples=SIM_N,
                                                 rng=1), repeat=5)
    print(f"item_interval_coverage, {SIM_N:,} simulations of {SIM_ITEMS} items: {1000 * sim:8.1f} ms   "
          f"(target < {1000 * SIM_TARGET_S:.0f} ms)")
    if sim >= SIM_TARGET_S:
        print(f"FAIL: item_interval_coverage took {sim:.3f} s >= {SIM_TARGET_S} s", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
