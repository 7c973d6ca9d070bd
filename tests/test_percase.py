"""evallib.resampling._percase: the statistics of repeated cross-validation with each case weighing 1.

References: statsmodels (Cochran's Q, the two-way analysis of variance), scikit-learn (AUC,
F1 with sample weights), brute-force double loops over cases and rows (the clustered
placements of Obuchowski 1997), and an index bootstrap of cases (Monte Carlo, stated
tolerance)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import evallib
from evallib.resampling._percase import (
    CaseF1Bootstrap,
    auc_cases,
    bootstrap_f1_cases,
    cochran_q_cases,
    delong_cases,
)


def _repeated(n=60, k=3, repeats=4, seed=0):
    """Rows of a repeated CV: case ids, 0/1 correctness of k classifiers (rows x k)."""
    rng = np.random.default_rng(seed)
    ease = rng.uniform(0.2, 0.95, n)
    cases = np.repeat(np.arange(n), repeats)
    right = np.column_stack([rng.random(n * repeats) < np.clip(ease[cases] - 0.08 * j, 0, 1) for j in range(k)])
    return cases, right.astype(int)


# ------------------------------------------------------------------ Cochran's Q
def test_zero_one_table_is_cochrans_q_of_statsmodels():
    from statsmodels.stats.contingency_tables import cochrans_q

    rng = np.random.default_rng(3)
    x = (rng.random((80, 4)) < [0.6, 0.65, 0.7, 0.8]).astype(int)
    ours, ref = cochran_q_cases(x), cochrans_q(x)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12) and ours.df == ref.df
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10) and ours.method == "chi2"


def test_rates_give_the_two_way_anova_statistic():
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    cases, right = _repeated()
    res = cochran_q_cases(right, cases)
    rates = pd.DataFrame(right).groupby(cases).mean()
    long = rates.reset_index(names="case").melt(id_vars="case", var_name="model", value_name="rate")
    table = anova_lm(smf.ols("rate ~ C(case) + C(model)", data=long).fit())
    ss_model, ss_resid = table.loc["C(model)", "sum_sq"], table.loc["Residual", "sum_sq"]
    n, k = rates.shape
    expected = n * (k - 1) * ss_model / (ss_model + ss_resid)
    assert res.statistic == pytest.approx(expected, rel=1e-9) and res.n == n and res.k == k
    from scipy import stats
    assert res.pvalue == pytest.approx(stats.chi2.sf(expected, k - 1), rel=1e-9)
    assert res.accuracy == pytest.approx(tuple(rates.mean()), rel=1e-12)
    assert "per-case correctness rates" in res.text()
    # the same rates passed directly, rows of several types of case id, a DataFrame: one answer
    assert cochran_q_cases(rates.to_numpy()).statistic == pytest.approx(res.statistic, rel=1e-12)
    ids = np.array([f"c{c}" for c in cases], dtype=object)
    assert cochran_q_cases(pd.DataFrame(right, columns=list("abc")), ids).names == ("a", "b", "c")


def test_identical_repeats_change_nothing():
    from statsmodels.stats.contingency_tables import cochrans_q

    rng = np.random.default_rng(5)
    one = (rng.random((50, 3)) < [0.5, 0.6, 0.75]).astype(int)
    many = np.tile(one, (7, 1))
    cases = np.tile(np.arange(50), 7)
    assert cochran_q_cases(many, cases).statistic == pytest.approx(cochrans_q(one).statistic, rel=1e-12)
    # pooling the rows as cases inflates the statistic sevenfold: what the cases prevent
    assert cochrans_q(many).statistic == pytest.approx(7 * cochrans_q(one).statistic, rel=1e-9)


def test_equal_rates_everywhere_give_q_zero_and_p_one():
    res = cochran_q_cases([[0.5, 0.5], [0.25, 0.25]])
    assert (res.statistic, res.pvalue, res.reject) == (0.0, 1.0, False) and "undefined" in res.note


@pytest.mark.parametrize(("call", "exc", "match"), [
    (lambda: cochran_q_cases([[0.2, 1.4], [0, 1]]), ValueError, "rates in \\[0, 1\\]"),
    (lambda: cochran_q_cases([[0], [1]]), ValueError, "at least 2 classifiers"),
    (lambda: cochran_q_cases([[0, 1], [1, 1]], cases=[0]), ValueError, "one case id per row"),
    (lambda: cochran_q_cases([[0, 1], [1, 1]], cases=[0, None]), ValueError, "missing"),
    (lambda: cochran_q_cases([["a", 1], [1, 1]]), TypeError, "numbers"),
    (lambda: cochran_q_cases([[0, 1], [1, 1]], alpha=2), ValueError, "alpha"),
])
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ------------------------------------------------------------------ AUC and DeLong
def _psi(r, s):
    return 1.0 if r > s else 0.5 if r == s else 0.0


def _brute_placements(y, score, cases):
    """Obuchowski's clustered placements by double loops: for a positive case i,
    V10_i = mean over negative cases j of the mean over their row pairs of psi."""
    ids = pd.unique(cases)
    rows = {c: np.flatnonzero(cases == c) for c in ids}
    pos = [c for c in ids if y[rows[c][0]] == 1]
    neg = [c for c in ids if y[rows[c][0]] == 0]
    kernel = np.array([[np.mean([_psi(score[r], score[s]) for r in rows[i] for s in rows[j]]) for j in neg]
                       for i in pos])
    return kernel.mean(axis=1), kernel.mean(axis=0)


def _clustered_scores(seed=2, n=24, repeats=3):
    rng = np.random.default_rng(seed)
    y_case = rng.random(n) < 0.45
    y_case[:2], y_case[2:4] = True, False
    cases = np.repeat(np.arange(n), repeats)
    y = y_case[cases].astype(int)
    a = np.round(y + rng.normal(0, 0.9, y.size), 1)  # rounded: ties between rows
    b = np.round(0.5 * y + rng.normal(0, 0.9, y.size), 1)
    return y, a, b, cases


def test_auc_without_repeats_is_scikit_learns():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    s = np.round(y + rng.normal(size=300), 1)
    assert auc_cases(y, s) == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    labels = np.where(y == 1, "spam", "ham")
    assert auc_cases(labels, s, pos_label="spam") == pytest.approx(roc_auc_score(y, s), rel=1e-12)


def test_auc_and_delong_with_repeats_against_brute_force_clustered_placements():
    y, a, b, cases = _clustered_scores()
    v10a, v01a = _brute_placements(y, a, cases)
    v10b, v01b = _brute_placements(y, b, cases)
    assert auc_cases(y, a, cases) == pytest.approx(v10a.mean(), rel=1e-12)
    fit = delong_cases(y, {"a": a, "b": b}, cases)
    m, n = v10a.size, v01a.size
    cov = np.cov(np.column_stack([v10a, v10b]), rowvar=False) / m + np.cov(np.column_stack([v01a, v01b]),
                                                                           rowvar=False) / n
    np.testing.assert_allclose(fit.auc, [v10a.mean(), v10b.mean()], rtol=1e-12)
    np.testing.assert_allclose(fit.covariance, cov, rtol=1e-10)
    assert (fit.n_pos, fit.n_neg, fit.names) == (m, n, ("a", "b"))
    assert set(fit.pairwise(0.05)["pvalue"].between(0, 1)) == {True}


def test_delong_without_repeats_against_brute_force_delong():
    y, a, _, _ = _clustered_scores(seed=4, repeats=1)
    v10, v01 = _brute_placements(y, a, np.arange(y.size))
    fit = delong_cases(y, a)
    assert float(fit.covariance[0, 0]) == pytest.approx(np.var(v10, ddof=1) / v10.size
                                                        + np.var(v01, ddof=1) / v01.size, rel=1e-10)


def test_identical_repeats_give_the_single_run():
    y, a, b, _ = _clustered_scores(seed=6, repeats=1)
    one = delong_cases(y, {"a": a, "b": b})
    many = delong_cases(np.tile(y, 5), {"a": np.tile(a, 5), "b": np.tile(b, 5)}, np.tile(np.arange(y.size), 5))
    np.testing.assert_allclose(many.auc, one.auc, rtol=1e-12)
    np.testing.assert_allclose(many.covariance, one.covariance, rtol=1e-9)


def test_delong_refuses_too_few_cases_and_a_case_of_two_classes():
    with pytest.raises(ValueError, match="at least 2 positive and 2 negative cases"):
        delong_cases([1, 1, 0, 0, 0, 0], [0.9, 0.8, 0.1, 0.2, 0.3, 0.4], cases=[0, 0, 1, 2, 3, 4])
    with pytest.raises(ValueError, match="same in every row of a case"):
        auc_cases([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.2], cases=[0, 0, 1, 2])


# ------------------------------------------------------------------ the F1 bootstrap
def _predictions(seed=0, n=120, repeats=3, k=2):
    rng = np.random.default_rng(seed)
    y_case = rng.integers(0, k, n)
    cases = np.repeat(np.arange(n), repeats)
    y = y_case[cases]
    a = np.where(rng.random(y.size) < 0.8, y, rng.integers(0, k, y.size))
    b = np.where(rng.random(y.size) < 0.7, y, rng.integers(0, k, y.size))
    return y, a, b, cases


def test_f1_on_the_test_cases_is_scikit_learns_with_case_weights():
    from sklearn.metrics import f1_score

    for k, pos, average in ((2, 1, "binary"), (4, None, "macro")):
        y, a, b, cases = _predictions(k=k)
        w = 1.0 / np.bincount(cases)[cases]  # each case weighs 1 in all
        res = bootstrap_f1_cases(y, a, b, cases, pos_label=pos, n_resamples=10, rng=0)
        ref_a = f1_score(y, a, average=average, sample_weight=w, **({"pos_label": 1} if pos else {}))
        ref_b = f1_score(y, b, average=average, sample_weight=w, **({"pos_label": 1} if pos else {}))
        assert (res.f1_a, res.f1_b) == (pytest.approx(ref_a, rel=1e-12), pytest.approx(ref_b, rel=1e-12))
        assert res.estimate == pytest.approx(ref_a - ref_b, rel=1e-12) and res.n == 120
        assert res.measure == ("F1" if pos else "macro-F1")


def test_replicates_follow_the_index_bootstrap_of_cases():
    """The multinomial draw over kinds of case has the law of resampling cases by index:
    compared with a brute-force index bootstrap, Monte Carlo, 4,000 replicates each (the
    standard errors of the mean and of the sd are below 0.001 here; tolerance 0.004)."""
    y, a, b, cases = _predictions(seed=1, n=80)
    res = bootstrap_f1_cases(y, a, b, cases, pos_label=1, n_resamples=4000, rng=1)
    w = 1.0 / np.bincount(cases)[cases]
    # per case: its weighted TP, FP and FN counts of each classifier (2 TP / (2 TP + FP + FN))
    per_case = {name: np.column_stack([np.bincount(cases, weights=w * m, minlength=80) for m in
                                       ((p == 1) & (y == 1), (p == 1) & (y == 0), (p == 0) & (y == 1))])
                for name, p in (("a", a), ("b", b))}
    draws = np.random.default_rng(2).integers(0, 80, (4000, 80))  # cases drawn by index
    f1 = {}
    for name, c in per_case.items():
        tp, fp, fn = (c[draws, j].sum(axis=1) for j in range(3))
        den = 2 * tp + fp + fn
        f1[name] = np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0)
    ref = f1["a"] - f1["b"]
    assert res.replicates.mean() == pytest.approx(ref.mean(), abs=0.004)
    assert res.replicates.std() == pytest.approx(ref.std(), abs=0.004)
    assert np.quantile(ref, 0.025) - 0.01 < res.low < np.quantile(ref, 0.025) + 0.01
    assert res.low == pytest.approx(np.quantile(res.replicates, 0.025))
    assert res.share_a_better == pytest.approx(np.mean(res.replicates > 0))


def _brute_kind_bootstrap(y, a, b, cases, k, positive, n_resamples, seed):
    """The case bootstrap over kinds written out by hand: each case's true class and the
    shares of its rows that A and B put in each class; the distinct kinds in lexicographic
    order of (class, shares of A, shares of B); each replicate one Multinomial(n, kind
    counts / n) draw of a Generator seeded ``seed``; per-class support, predictions and true
    positives summed by loops; F1 of ``positive`` (0 for 0/0) or macro-F1, where a class
    without a case in the replicate keeps its test-set F1. With two rows per case every
    share is 0, 1/2 or 1, so every sum is exact and the values must agree exactly."""
    kinds = {}
    for c in sorted(set(cases)):
        rows = [i for i in range(len(cases)) if cases[i] == c]
        share = [tuple(sum(1.0 / len(rows) for i in rows if p[i] == j) for j in range(k)) for p in (a, b)]
        key = (float(y[rows[0]]),) + share[0] + share[1]
        kinds[key] = kinds.get(key, 0) + 1
    order = sorted(kinds)
    counts = np.array([kinds[key] for key in order], dtype=float)

    def f1s(weights):
        out = []
        for which in (0, 1):
            support, pred, tp = [0.0] * k, [0.0] * k, [0.0] * k
            for key, w in zip(order, weights):
                t, share = int(key[0]), key[1 + which * k:1 + (which + 1) * k]
                support[t] += w
                tp[t] += w * share[t]
                for j in range(k):
                    pred[j] += w * share[j]
            f = [2.0 * tp[j] / (support[j] + pred[j]) if support[j] + pred[j] > 0 else 0.0 for j in range(k)]
            out.append((f, support))
        return out

    observed = [f for f, _ in f1s(counts)]

    def measure(weights):
        vals = []
        for (f, support), obs in zip(f1s(weights), observed):
            if positive is not None:
                vals.append(f[positive])
            else:
                vals.append(float(np.mean([f[j] if support[j] > 0 else obs[j] for j in range(k)])))
        return vals

    gen = np.random.default_rng(seed)
    reps = []
    for _ in range(n_resamples):
        fa, fb = measure(gen.multinomial(int(counts.sum()), counts / counts.sum()).astype(float))
        reps.append(0.0 if abs(fa - fb) < 1e-12 else fa - fb)
    return measure(counts), np.array(reps), len(order)


@pytest.mark.parametrize("k, pos", [(2, 1), (4, None)])
def test_bootstrap_values_are_the_hand_written_bootstrap_over_kinds(k, pos):
    # Exact equality: the shared resampling core (evallib._f1bootstrap) must keep the draws
    # and the arithmetic of the bootstrap it replaced. 12 cases for macro-F1 over 4 classes
    # leave some class out of many replicates, so the kept test-set F1 is exercised.
    y, a, b, cases = _predictions(seed=6, n=40 if pos else 12, repeats=2, k=k)
    res = bootstrap_f1_cases(y, a, b, cases, pos_label=pos, n_resamples=600, rng=4, alpha=0.1)
    (f_a, f_b), reps, n_kinds = _brute_kind_bootstrap(y, a, b, cases, k, pos, 600, 4)
    assert (res.f1_a, res.f1_b) == (f_a, f_b)
    np.testing.assert_array_equal(res.replicates, reps)
    assert (res.low, res.high) == tuple(np.quantile(reps, [0.05, 0.95]))
    assert (res.share_a_better, res.share_tied) == (np.mean(reps > 0), np.mean(reps == 0))
    assert res.estimate == f_a - f_b and res.cells == n_kinds and res.n == len(set(cases))


def test_repeats_predicted_alike_are_the_single_run_and_rng_reproduces():
    y, a, b, _ = _predictions(seed=3, repeats=1)
    one = bootstrap_f1_cases(y, a, b, pos_label=1, n_resamples=500, rng=7)
    many = bootstrap_f1_cases(np.tile(y, 4), np.tile(a, 4), np.tile(b, 4), np.tile(np.arange(y.size), 4),
                              pos_label=1, n_resamples=500, rng=7)
    np.testing.assert_array_equal(one.replicates, many.replicates)
    assert one.cells == many.cells


def test_result_is_read_only_and_compared_by_identity():
    y, a, b, cases = _predictions(seed=4)
    res = bootstrap_f1_cases(y, a, b, cases, pos_label=1, n_resamples=50)  # rng=None: fresh entropy
    assert isinstance(res, CaseF1Bootstrap) and res == res and hash(res) == hash(res)
    with pytest.raises(ValueError):
        res.replicates[0] = 1.0


@pytest.mark.parametrize(("kwargs", "exc", "match"), [
    ({"pos_label": 9}, ValueError, "pos_label must be one of the labels"),
    ({"labels": [0]}, ValueError, "labels must include every class of y_true"),
    ({"labels": [0, 1, 5]}, ValueError, "must occur in y_true"),
    ({"n_resamples": 0}, ValueError, "n_resamples"),
    ({"alpha": 0}, ValueError, "alpha"),
])
def test_bootstrap_bad_input_names_the_argument(kwargs, exc, match):
    y, a, b, cases = _predictions(seed=5, n=20)
    with pytest.raises(exc, match=match):
        bootstrap_f1_cases(y, a, b, cases, **kwargs)


def test_the_functions_are_exported_and_default_to_rng_none():
    import inspect

    for name in ("cochran_q_cases", "auc_cases", "delong_cases", "bootstrap_f1_cases", "CaseF1Bootstrap"):
        assert name in evallib.__all__ and name in evallib.resampling.__all__
    params = inspect.signature(bootstrap_f1_cases).parameters
    assert params["rng"].default is None and "n_resamples" in params
