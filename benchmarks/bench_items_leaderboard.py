"""Benchmark: bootstrap rank intervals for a large leaderboard (design 4, per-item evaluation).

``evallib.items._leaderboard.rank_intervals`` for 50 models x 10,000 items x 2,000
replicates; target <= 5 s (best of 2 runs), for the Poisson and the multinomial weights.
It works on per-cluster sums: one matrix product ``W @ S`` per chunk of replicates.

Baseline in the same run: the naive row-copying bootstrap -- per replicate, draw 10,000
row indices, copy those rows of the items x models table, take the column means and rank
the models -- on the same 2,000 replicates (no scaling); the ratio is printed. A clustered
leaderboard (500 clusters of 20 items) is timed too, against the row-copying bootstrap that
copies the rows of the drawn clusters: there the sums shrink the work by the cluster size.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_items_leaderboard.py``.
"""

from __future__ import annotations

import sys

import numpy as np
from _timing import best_of

from evallib.items._leaderboard import rank_intervals

N_MODELS, N_ITEMS, N_BOOT, TARGET_S = 50, 10_000, 2_000, 5.0
N_CLUSTERS = 500


def _scores(rng: np.random.Generator) -> dict:
    """0/1 scores: item difficulty shared by all models, model skill spread over 0.55..0.75."""
    difficulty = rng.normal(0.0, 1.0, N_ITEMS)
    skill = np.linspace(-0.4, 0.6, N_MODELS)
    p = 1.0 / (1.0 + np.exp(-(skill[None, :] - difficulty[:, None])))
    correct = rng.random((N_ITEMS, N_MODELS)) < p
    return {f"model-{j:02d}": correct[:, j] for j in range(N_MODELS)}


def _naive(x: np.ndarray, n_boot: int, rng: np.random.Generator, rows_of: np.ndarray | None = None) -> np.ndarray:
    """The row-copying bootstrap: copy the resampled rows (of the drawn clusters), average, rank."""
    units = x.shape[0] if rows_of is None else rows_of.shape[0]
    ranks = np.empty((n_boot, x.shape[1]), dtype=np.int64)
    for b in range(n_boot):
        drawn = rng.integers(units, size=units)
        rows = drawn if rows_of is None else rows_of[drawn].ravel()
        means = x[rows].mean(axis=0)
        ranks[b] = 1 + (means[None, :] > means[:, None]).sum(axis=1)
    return ranks


def main() -> int:
    status = 0
    rng = np.random.default_rng(0)
    scores = _scores(rng)
    x = np.column_stack(list(scores.values())).astype(float)
    print(f"rank_intervals, {N_MODELS} models x {N_ITEMS:,} items x {N_BOOT:,} replicates (best of 2 runs)")
    times = {}
    for weights in ("poisson", "multinomial"):
        times[weights] = best_of(lambda: rank_intervals(scores, n_resamples=N_BOOT, rng=1, weights=weights), repeat=2)
        print(f"  evallib, {weights:<11} weights, item sums      : {times[weights]:7.2f} s   "
              f"(target <= {TARGET_S:.0f} s)")
    naive = best_of(lambda: _naive(x, N_BOOT, np.random.default_rng(2)), repeat=1)
    print(f"  naive row-copying bootstrap, same replicates : {naive:7.2f} s")
    for weights, t in times.items():
        print(f"  speed-up over row copying, {weights:<11}       : {naive / t:7.1f} x")
    size = N_ITEMS // N_CLUSTERS
    clusters = np.repeat(np.arange(N_CLUSTERS), size)
    print(f"clustered: {N_CLUSTERS} clusters of {size} items, {N_BOOT:,} replicates")
    clustered = best_of(lambda: rank_intervals(scores, clusters=clusters, n_resamples=N_BOOT, rng=1), repeat=2)
    rows_of = np.arange(N_ITEMS).reshape(N_CLUSTERS, size)
    naive_cl = best_of(lambda: _naive(x, N_BOOT, np.random.default_rng(2), rows_of), repeat=1)
    print(f"  evallib, poisson weights, cluster sums       : {clustered:7.2f} s")
    print(f"  naive, copying the drawn clusters' rows      : {naive_cl:7.2f} s   "
          f"(speed-up {naive_cl / clustered:.0f} x)")
    for weights, t in times.items():
        if t > TARGET_S:
            print(f"FAIL: rank_intervals ({weights}) took {t:.2f} s > {TARGET_S} s", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
