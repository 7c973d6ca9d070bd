"""Benchmark: the statistics of scores and of multi-class labels on 1,000,000 test cases.

Measured in one run, on synthetic data (five classifiers' scores and labels):

1. DeLong (``evallib.onetestset._scoring.delong_pairwise``: the five AUCs, their covariance and all
   ten paired tests) on 1,000,000 rows x 5 score columns. Target: at most 5 s. Baselines
   in the same run: the same at 10,000 rows (the ratio shows the O(N log N) scaling),
   scikit-learn's ``roc_auc_score`` for the five AUCs alone (no variance), and Sun &
   Xu's algorithm as printed (three midrankings per column with ``scipy.stats.rankdata``).
2. Brier score, log-loss and the paired t-tests on per-case losses
   (``loss_table`` + ``loss_pairwise`` twice) at 1,000,000 x 5. Target: at most 3 s.
3. K = 10 classes, 1,000,000 rows: ``multiclass_measures`` and ``per_class_table`` for
   five classifiers, Cochran's Q over the five, and 10,000 replicates of the paired
   macro-F1 bootstrap (multinomial over the at most K^3 = 1,000 cells of the joint
   table). Target: at most 8 s for all of it. Baseline: 100 replicates of resampling the
   1,000,000 cases themselves, scaled to 10,000.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_scoring.py``.
"""

from __future__ import annotations

import sys

import numpy as np
from _timing import best_of
from scipy import stats

from evallib.onetestset._cochran import cochran_q_predictions
from evallib.onetestset._multiclass import bootstrap_macro_f1_difference, multiclass_measures, per_class_table
from evallib.onetestset._scoring import auc_table, delong_covariance, delong_pairwise, loss_pairwise, loss_table

N, K_CLF, K_CLASSES, REPS = 1_000_000, 5, 10, 10_000
TARGET_DELONG, TARGET_LOSS, TARGET_MULTI = 5.0, 3.0, 8.0


def _scores(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    latent = 1.2 * y + rng.normal(size=n)
    scores = {f"model_{j}": 1.0 / (1.0 + np.exp(-(latent + rng.normal(scale=0.5 + 0.4 * j, size=n))))
              for j in range(K_CLF)}
    scores["model_4"] = np.round(scores["model_4"], 2)  # a coarse score with many ties
    return y, scores


def _labels(n: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K_CLASSES, n)
    preds = {f"model_{j}": np.where(rng.random(n) < 0.75 - 0.05 * j, y, rng.integers(0, K_CLASSES, n))
             for j in range(K_CLF)}
    return y, preds


def _sun_xu_printed(y: np.ndarray, scores: dict) -> np.ndarray:
    """Sun & Xu (2014) as printed: three midrankings per column, then the covariance."""
    pos = y == 1
    m, n = int(pos.sum()), int((~pos).sum())
    mat = np.column_stack(list(scores.values()))
    x, z = mat[pos], mat[~pos]
    tz = stats.rankdata(np.concatenate([x, z]), axis=0)
    v10 = (tz[:m] - stats.rankdata(x, axis=0)) / n
    v01 = 1.0 - (tz[m:] - stats.rankdata(z, axis=0)) / m
    return np.cov(v10, rowvar=False) / m + np.cov(v01, rowvar=False) / n


def _case_bootstrap(y, a, b, reps, rng):
    k = K_CLASSES
    for _ in range(reps):
        idx = rng.integers(0, y.shape[0], y.shape[0])
        for p in (a, b):
            conf = np.bincount(y[idx] * k + p[idx], minlength=k * k).reshape(k, k)
            den = conf.sum(0) + conf.sum(1)
            np.mean(np.where(den > 0, 2 * np.diag(conf) / np.maximum(den, 1), 0.0))


def main() -> int:
    from sklearn.metrics import roc_auc_score

    status = 0
    y, scores = _scores(N)
    y_small, scores_small = _scores(10_000)

    def delong_full():
        fit = delong_covariance(y, scores)
        fit.table()
        fit.pairwise()

    t_delong = best_of(delong_full, repeat=3)
    t_small = best_of(lambda: (delong_pairwise(y_small, scores_small), auc_table(y_small, scores_small)), 5)
    t_sklearn = best_of(lambda: [roc_auc_score(y, s) for s in scores.values()], repeat=2)
    t_printed = best_of(lambda: _sun_xu_printed(y, scores), repeat=2)
    print(f"DeLong, {K_CLF} score columns (AUCs, intervals, all {K_CLF * (K_CLF - 1) // 2} paired tests)")
    print(f"  {f'{N:,} rows':<39}: {t_delong:7.2f} s   (target <= {TARGET_DELONG:g} s)")
    print(f"  10,000 rows                            : {t_small:7.3f} s   "
          f"(x{t_delong / t_small:.0f} for 100x the rows)")
    print(f"  scikit-learn roc_auc_score, AUCs only  : {t_sklearn:7.2f} s   "
          f"(evallib {t_sklearn / t_delong:.1f}x faster)")
    print(f"  Sun & Xu as printed (3 rankdata/column): {t_printed:7.2f} s   "
          f"(evallib {t_printed / t_delong:.1f}x faster)")
    if t_delong > TARGET_DELONG:
        print(f"FAIL: DeLong on {N:,} x {K_CLF} took {t_delong:.2f} s > {TARGET_DELONG:g} s", file=sys.stderr)
        status = 1

    def losses():
        loss_table(y, scores)
        loss_pairwise(y, scores, loss="brier")
        loss_pairwise(y, scores, loss="log")

    t_loss = best_of(losses, repeat=3)
    print(f"Brier, log-loss and paired t-tests, {N:,} x {K_CLF}: {t_loss:7.2f} s   (target <= {TARGET_LOSS:g} s)")
    if t_loss > TARGET_LOSS:
        print(f"FAIL: losses took {t_loss:.2f} s > {TARGET_LOSS:g} s", file=sys.stderr)
        status = 1

    yc, preds = _labels(N)

    def multi():
        for p in preds.values():
            multiclass_measures(yc, p)
            per_class_table(yc, p)
        cochran_q_predictions(yc, preds)
        bootstrap_macro_f1_difference(yc, preds["model_0"], preds["model_1"], n_resamples=REPS, rng=0)

    t_multi = best_of(multi, repeat=2)
    t_boot = best_of(lambda: bootstrap_macro_f1_difference(yc, preds["model_0"], preds["model_1"],
                                                           n_resamples=REPS, rng=0), repeat=2)
    t_case = best_of(lambda: _case_bootstrap(yc, preds["model_0"], preds["model_1"], 100,
                                             np.random.default_rng(0)), repeat=1) * (REPS / 100)
    print(f"K = {K_CLASSES} classes, {N:,} rows, {K_CLF} classifiers")
    print(f"  measures, per-class tables, Cochran's Q, bootstrap: {t_multi:7.2f} s   (target <= {TARGET_MULTI:g} s)")
    print(f"  macro-F1 bootstrap, {REPS:,} replicates (joint table): {t_boot:7.2f} s")
    print(f"  resampling the cases instead (100 timed, scaled)   : {t_case:7.0f} s   (x{t_case / t_boot:.0f})")
    if t_multi > TARGET_MULTI:
        print(f"FAIL: the multi-class statistics took {t_multi:.2f} s > {TARGET_MULTI:g} s", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
