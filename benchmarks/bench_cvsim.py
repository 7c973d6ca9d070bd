"""Benchmark: the equal-learners simulation of notebook 05, and its slider callback.

``evallib.simulate_equal_learners`` fits Gaussian naive Bayes for every fold of every
data set at once (closed form). The baseline is the same study written the plain way:
for each data set, scikit-learn's ``RepeatedStratifiedKFold`` and a ``GaussianNB`` fitted
per fold and feature, then the same four tests (what evallib did before). Both run the
textbook's setting (100 cases, 10 x 10-fold cross-validation plus 5 x 2-fold); the
baseline on fewer data sets, compared per data set, in the same run.

Then the slider callback ``rejection_study`` (simulation, rates and the bar chart on an
Agg figure) at the corners of notebook 05's sliders, with the notebook's
``explore_datasets = 200`` data sets. Target (issue 7): every slider update under 0.3 s.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_cvsim.py``.
"""

from __future__ import annotations

import sys
import time

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import RepeatedStratifiedKFold
from sklearn.naive_bayes import GaussianNB

from _timing import best_of, slider_verdict

from evallib.resampling._cvtests import (
    _cached_simulation,
    corrected_resampled_ttest,
    cv_ttest,
    dietterich_5x2cv,
    equal_learners_data,
    rejection_study,
    simulate_equal_learners,
)

N, K, R = 100, 10, 10
FAST_SETS, SLOW_SETS, EXPLORE_SETS, TARGET_S = 100, 10, 200, 0.3


def _baseline(n_datasets: int, seed: int = 0) -> None:
    """The study with a scikit-learn fit per fold (the plain loop)."""
    rng = np.random.default_rng(seed)
    for _ in range(n_datasets):
        X, y = equal_learners_data(N, rng=rng)

        def scores(cv, j):
            x = X[:, [j]]
            return np.array([np.mean(GaussianNB().fit(x[tr], y[tr]).predict(x[te]) == y[te])
                             for tr, te in cv.split(x, y)])

        cv = RepeatedStratifiedKFold(n_splits=K, n_repeats=R, random_state=int(rng.integers(2**31 - 1)))
        a, b = scores(cv, 0), scores(cv, 1)
        cv_ttest(a, b)
        cv_ttest(a.reshape(R, K).mean(1), b.reshape(R, K).mean(1))
        corrected_resampled_ttest(a, b, test_train_ratio=1 / (K - 1))
        cv2 = RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=int(rng.integers(2**31 - 1)))
        dietterich_5x2cv(scores(cv2, 0).reshape(5, 2), scores(cv2, 1).reshape(5, 2))


def _callback(n_samples: int, folds: int, repeats: int) -> float:
    """One slider move: a setting not in the cache, figure drawn."""
    _cached_simulation.cache_clear()
    fig, ax = plt.subplots(figsize=(7.5, 3.2))
    t0 = time.perf_counter()
    rejection_study(n_samples, folds, repeats, 0.05, n_datasets=EXPLORE_SETS, rng=0, ax=ax)
    fig.canvas.draw()
    elapsed = time.perf_counter() - t0
    plt.close(fig)
    return elapsed


def main() -> int:
    fast = best_of(lambda: simulate_equal_learners(N, folds=K, repeats=R, n_datasets=FAST_SETS, rng=0), 5)
    slow = best_of(lambda: _baseline(SLOW_SETS), 1)
    per_fast, per_slow = fast / FAST_SETS, slow / SLOW_SETS
    print(f"equal-learners simulation, {N} cases, {R} x {K}-fold + 5 x 2-fold, per data set")
    print(f"  evallib, all folds at once ({FAST_SETS} data sets) : {1000 * per_fast:8.3f} ms")
    print(f"  scikit-learn fit per fold ({SLOW_SETS} data sets)  : {1000 * per_slow:8.3f} ms   (baseline)")
    print(f"  speed-up                                    : {per_slow / per_fast:8.0f} x")
    print(f"  the default study ({FAST_SETS} data sets)          : {fast:8.3f} s (baseline: ~{per_slow * FAST_SETS:.1f} s)")
    corners = [(N, K, R), (400, 20, 20), (400, 2, 20), (40, 20, 1), (20, 2, 1), (400, 20, 1)]
    worst = 0.0
    print(f"slider callback rejection_study, {EXPLORE_SETS} data sets, figure drawn (target < {TARGET_S} s)")
    for n, k, r in corners:
        t = min(_callback(n, k, r) for _ in range(3))
        worst = max(worst, t)
        print(f"  n = {n:3d}, k = {k:2d}, r = {r:2d} : {t:6.3f} s")
    return slider_verdict(worst, TARGET_S)


if __name__ == "__main__":
    sys.exit(main())
