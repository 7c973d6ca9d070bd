"""Tests of evallib.resampling._cvtests against independent references.

References: scipy's ``ttest_rel``, ``ttest_ind`` and ``ttest_1samp``, the p-values
printed in Flach's Example 12.6 (recomputed here from Example 12.4's table), the
t distribution's quantiles from scipy, Dietterich's 5x2cv statistic worked by hand
and by an explicit loop over his definitions, scikit-learn's ``cross_val_score``
on the same partitions, and Monte Carlo checks with stated tolerances.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedKFold, RepeatedStratifiedKFold, StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import evallib
from evallib import (
    SIMULATED_TESTS,
    compare_cv_scores,
    corrected_resampled_ttest,
    cross_validate_scores,
    cv_ttest,
    dietterich_5x2cv,
    equal_learners_data,
    paired_scores,
    plot_rejection_rates,
    rejection_rates,
    rejection_study,
    rejection_sweep,
    simulate_equal_learners,
    stratified_test_folds,
)

# Flach (2012), Example 12.4: accuracies of three learners over 10 folds.
NB = np.array([0.6809, 0.7017, 0.7012, 0.6913, 0.6333, 0.6415, 0.7216, 0.7214, 0.6578, 0.7865])
DT = np.array([0.7524, 0.8964, 0.6803, 0.9102, 0.7758, 0.8154, 0.6224, 0.7585, 0.9380, 0.7524])
NN = np.array([0.7164, 0.8883, 0.8410, 0.6825, 0.7599, 0.8479, 0.7012, 0.4959, 0.9279, 0.7455])


# Flach (2012), Example 12.6: the per-fold differences as printed (computed by the
# author from unrounded accuracies, so a few differ in the 4th decimal from 12.4's).
DIFFS_12_6 = {
    "NB-DT": [-0.0715, -0.1947, 0.0209, -0.2189, -0.1424, -0.1739, 0.0992, -0.0371, -0.2802, 0.0341],
    "NB-NN": [-0.0355, -0.1866, -0.1398, 0.0088, -0.1265, -0.2065, 0.0204, 0.2255, -0.2700, 0.0410],
    "DT-NN": [0.0361, 0.0081, -0.1607, 0.2277, 0.0159, -0.0325, -0.0788, 0.2626, 0.0102, 0.0069],
}
PAIRS = {"NB-DT": (NB, DT), "NB-NN": (NB, NN), "DT-NN": (DT, NN)}
# Printed: avg, stdev and p-value of each column of Example 12.6.
PRINTED_12_6 = {"NB-DT": (-0.0965, 0.1246, 0.0369), "NB-NN": (-0.0669, 0.1473, 0.1848),
                "DT-NN": (0.0295, 0.1278, 0.4833)}
# p recomputed (4 decimals) from 12.4's accuracies and from 12.6's printed differences.
P_FROM_12_4 = {"NB-DT": 0.0369, "NB-NN": 0.1848, "DT-NN": 0.4835}
P_FROM_12_6 = {"NB-DT": 0.0369, "NB-NN": 0.1848, "DT-NN": 0.4832}


# --------------------------------------------------------------------- cv_ttest
@pytest.mark.parametrize("pair", list(PAIRS))
def test_flach_example_12_6(pair):
    a, b = PAIRS[pair]
    mean, sd, p_printed = PRINTED_12_6[pair]
    r = cv_ttest(a, b)
    assert r.df == 9 and r.method == "paired" and (r.n_1, r.n_2) == (10, 10)
    ref = stats.ttest_rel(a, b)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert round(r.pvalue, 4) == P_FROM_12_4[pair]
    assert r.mean_difference == pytest.approx(mean, abs=1e-4)
    # The printed stdev 0.1473 (NB-NN) is 0.14736 truncated rather than rounded.
    assert r.se * np.sqrt(10) == pytest.approx(sd, abs=1.5e-4)
    # The printed differences as a one-sample test (scores against zero).
    d = np.asarray(DIFFS_12_6[pair])
    r6 = cv_ttest(d, np.zeros(10))
    assert r6.pvalue == pytest.approx(stats.ttest_1samp(d, 0.0).pvalue, rel=1e-12)
    assert round(r6.pvalue, 4) == P_FROM_12_6[pair]
    # The book's p-values come from unrounded accuracies: both recomputations lie
    # within 3e-4 of them (only DT-NN, 0.4833, differs in the 4th decimal).
    assert abs(r.pvalue - p_printed) < 3e-4 and abs(r6.pvalue - p_printed) < 3e-4
    np.testing.assert_allclose(a - b, d, atol=1.01e-4)


def test_only_nb_dt_significant_at_005():
    assert cv_ttest(NB, DT).reject(0.05)
    assert not cv_ttest(NB, NN).reject(0.05)
    assert not cv_ttest(DT, NN).reject(0.05)


@pytest.mark.parametrize("k", [2, 3, 10, 25])
def test_paired_matches_ttest_rel_random(k):
    rng = np.random.default_rng(k)
    a, b = rng.normal(0.8, 0.05, k), rng.normal(0.78, 0.05, k)
    r, ref = cv_ttest(a, b), stats.ttest_rel(a, b)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert r.df == ref.df == k - 1
    lo, hi = r.interval(0.1)
    ci = ref.confidence_interval(0.9)
    assert (lo, hi) == pytest.approx((ci.low, ci.high), rel=1e-10)


@pytest.mark.parametrize("k1, k2", [(10, 10), (5, 12), (2, 30)])
def test_nonpaired_statistic_is_welchs_and_df_is_the_smaller(k1, k2):
    rng = np.random.default_rng(k1 * 100 + k2)
    a, b = rng.normal(0.8, 0.03, k1), rng.normal(0.77, 0.08, k2)
    welch = stats.ttest_ind(a, b, equal_var=False)
    r = cv_ttest(a, b, paired=False)
    assert r.method == "non-paired" and r.df == min(k1, k2) - 1
    assert r.statistic == pytest.approx(welch.statistic, rel=1e-10)
    assert r.pvalue == pytest.approx(2 * stats.t.sf(abs(welch.statistic), min(k1, k2) - 1), rel=1e-10)
    # The smaller df is conservative: never a smaller p than Welch's.
    assert r.pvalue >= welch.pvalue - 1e-15
    w = cv_ttest(a, b, paired=False, nonpaired_df="welch")
    assert w.df == pytest.approx(welch.df, rel=1e-10)
    assert w.pvalue == pytest.approx(welch.pvalue, rel=1e-10)


def test_nonpaired_with_equal_variances_and_sizes_matches_student():
    a = np.array([0.70, 0.72, 0.74, 0.76])
    b = a - 0.05
    student = stats.ttest_ind(a, b)  # pooled: same statistic when k1 == k2
    r = cv_ttest(a, b, paired=False)
    assert r.statistic == pytest.approx(student.statistic, rel=1e-12)
    assert r.se == pytest.approx(np.sqrt(2 * np.var(a, ddof=1) / 4), rel=1e-12)


def test_zero_differences_give_statistic_0_and_p_1():
    a = [0.8, 0.7, 0.9, 0.75]
    for paired in (True, False):
        r = cv_ttest(a, a, paired=paired) if paired else cv_ttest([0.8] * 4, [0.8] * 5, paired=False)
        assert (r.statistic, r.pvalue, r.se) == (0.0, 1.0, 0.0)
        assert not r.reject(0.05)


def test_constant_nonzero_difference_is_infinitely_significant():
    a = np.array([0.8, 0.7, 0.9, 0.75])
    r = cv_ttest(a, a - 0.1)  # rounding makes the differences differ in the 17th digit
    assert r.statistic == np.inf and r.pvalue == 0.0 and r.se == 0.0
    r = cv_ttest(a - 0.1, a)
    assert r.statistic == -np.inf and r.pvalue == 0.0


@pytest.mark.parametrize(
    "args, kwargs, exc, match",
    [
        (([0.5], [0.4]), {}, ValueError, "scores_1 must hold at least 2"),
        (([0.5, 0.6], [0.4]), {}, ValueError, "scores_2 must hold at least 2"),
        (([0.5, 0.6, 0.7], [0.4, 0.5]), {}, ValueError, "paired test needs"),
        (([0.5, np.nan], [0.4, 0.5]), {}, ValueError, "scores_1 must not contain NaN"),
        (([0.5, 0.6], [0.4, np.inf]), {"paired": False}, ValueError, "scores_2 must not contain NaN"),
        (([[0.5, 0.6]], [0.4, 0.5]), {}, ValueError, "one-dimensional"),
        ((0.5, [0.4, 0.5]), {}, TypeError, "scores_1 must be a sequence"),
        ((["a", "b"], [0.4, 0.5]), {}, TypeError, "scores_1 must be a sequence of numbers"),
        (([0.5, 0.6], [0.4, 0.5]), {"paired": "yes"}, TypeError, "paired must be"),
        (([0.5, 0.6], [0.4, 0.5]), {"paired": False, "nonpaired_df": "x"}, ValueError, "nonpaired_df"),
    ],
)
def test_cv_ttest_bad_input(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        cv_ttest(*args, **kwargs)


def test_interval_and_rejects_check_alpha():
    r = cv_ttest(NB, DT)
    for bad in (0, 1, -0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="alpha"):
            r.interval(bad)
        with pytest.raises(ValueError, match="alpha"):
            r.reject(bad)


def test_result_is_frozen_and_exported():
    r = cv_ttest(NB, DT)
    with pytest.raises(AttributeError):
        r.pvalue = 0.5  # type: ignore[misc]
    assert "cv_ttest" in evallib.__all__ and evallib.cv_ttest is cv_ttest


# ------------------------------------------------------ corrected resampled t
def test_corrected_with_ratio_zero_is_the_paired_ttest():
    rng = np.random.default_rng(5)
    a, b = rng.normal(0.8, 0.04, 30), rng.normal(0.79, 0.04, 30)
    r, ref = corrected_resampled_ttest(a, b, test_train_ratio=0), stats.ttest_rel(a, b)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert r.method == "corrected-resampled" and r.df == 29


@pytest.mark.parametrize("folds, repeats", [(10, 10), (5, 2), (2, 5)])
def test_corrected_inflates_the_variance_by_1_plus_J_ratio(folds, repeats):
    # Nadeau & Bengio: var = (1/J + n2/n1) s^2, so t = t_naive / sqrt(1 + J n2/n1).
    rng = np.random.default_rng(folds * repeats)
    j = folds * repeats
    a, b = rng.normal(0.8, 0.04, j), rng.normal(0.78, 0.04, j)
    ratio = 1 / (folds - 1)
    naive = stats.ttest_rel(a, b)
    r = corrected_resampled_ttest(a, b, test_train_ratio=ratio)
    assert r.statistic == pytest.approx(naive.statistic / np.sqrt(1 + j * ratio), rel=1e-12)
    assert r.pvalue == pytest.approx(2 * stats.t.sf(abs(r.statistic), j - 1), rel=1e-12)
    assert r.pvalue > naive.pvalue
    d = a - b
    assert r.se == pytest.approx(np.sqrt((1 / j + ratio) * d.var(ddof=1)), rel=1e-12)


def test_corrected_degenerate_and_bad_input():
    a = np.array([0.8, 0.7, 0.9])
    r = corrected_resampled_ttest(a, a, test_train_ratio=0.1)
    assert (r.statistic, r.pvalue) == (0.0, 1.0)
    r = corrected_resampled_ttest(a + 0.05, a, test_train_ratio=0.1)
    assert (r.statistic, r.pvalue) == (np.inf, 0.0)
    for bad, exc in [(-0.1, ValueError), (np.inf, ValueError), (np.nan, ValueError), ("1/9", TypeError),
                     (True, TypeError)]:
        with pytest.raises(exc, match="test_train_ratio"):
            corrected_resampled_ttest(a, a + 0.01, test_train_ratio=bad)
    with pytest.raises(ValueError, match="paired test needs"):
        corrected_resampled_ttest(a, a[:2], test_train_ratio=0.1)
    with pytest.raises(ValueError, match="scores_2 must not contain NaN"):
        corrected_resampled_ttest(a, [0.1, np.nan, 0.2], test_train_ratio=0.1)
    with pytest.raises(TypeError):
        corrected_resampled_ttest(a, a)  # test_train_ratio is required


# ---------------------------------------------------------------------- 5x2cv
def test_5x2cv_by_hand():
    # Differences: replication 1 folds (1, -1), the others (0, 0); scores_2 = 0.
    # s_1^2 = (1 - 0)^2 + (-1 - 0)^2 = 2, others 0; mean s^2 = 2/5;
    # t = p_11 / sqrt(2/5) = 1 / 0.632456 = 1.581139, df = 5.
    d = np.zeros((5, 2))
    d[0] = (1.0, -1.0)
    r = dietterich_5x2cv(d, np.zeros((5, 2)))
    assert r.statistic == pytest.approx(np.sqrt(5 / 2), rel=1e-12)
    assert r.df == 5 and r.method == "5x2cv" and r.mean_difference == 1.0
    assert r.pvalue == pytest.approx(2 * stats.t.sf(np.sqrt(2.5), 5), rel=1e-12)


def test_5x2cv_matches_an_explicit_loop_over_dietterichs_definitions():
    rng = np.random.default_rng(11)
    a, b = rng.uniform(0.7, 0.9, (5, 2)), rng.uniform(0.7, 0.9, (5, 2))
    total = 0.0
    for i in range(5):
        p1, p2 = a[i, 0] - b[i, 0], a[i, 1] - b[i, 1]
        pbar = (p1 + p2) / 2
        total += (p1 - pbar) ** 2 + (p2 - pbar) ** 2
    t = (a[0, 0] - b[0, 0]) / np.sqrt(total / 5)
    r = dietterich_5x2cv(a, b)
    assert r.statistic == pytest.approx(t, rel=1e-12)
    assert r.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 5), rel=1e-12)
    # A flat sequence is read replication by replication.
    flat = dietterich_5x2cv(a.ravel(), b.ravel())
    assert flat.statistic == r.statistic


def test_5x2cv_degenerate_and_bad_input():
    a = np.tile([[0.8], [0.7], [0.75], [0.9], [0.85]], (1, 2))  # equal folds in every replication
    assert (dietterich_5x2cv(a, a).statistic, dietterich_5x2cv(a, a).pvalue) == (0.0, 1.0)
    r = dietterich_5x2cv(a + 0.1, a)
    assert r.statistic == np.inf and r.pvalue == 0.0
    with pytest.raises(ValueError, match=r"scores_1 must have shape \(r, 2\)"):
        dietterich_5x2cv(np.zeros((5, 3)), np.zeros((5, 3)))
    with pytest.raises(ValueError, match=r"scores_1 must have shape \(r, 2\)"):
        dietterich_5x2cv(np.zeros(9), np.zeros(9))
    with pytest.raises(ValueError, match="must be paired"):
        dietterich_5x2cv(np.zeros((5, 2)), np.zeros((4, 2)))
    with pytest.raises(ValueError, match="scores_2 must not contain NaN"):
        dietterich_5x2cv(np.zeros((5, 2)), np.full((5, 2), np.nan))
    with pytest.raises(TypeError, match="scores_1"):
        dietterich_5x2cv(0.5, np.zeros((5, 2)))


# ---------------------------------------------------------- cross-validation
@pytest.fixture(scope="module")
def cancer():
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    return X, y


LEARNERS = {
    "nb": GaussianNB(),
    "lr": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
}


def test_cross_validate_scores_matches_cross_val_score(cancer):
    X, y = cancer
    table = cross_validate_scores(X, y, LEARNERS, folds=5, repeats=3, rng=42)
    assert list(table.columns) == ["learner", "repeat", "fold", "score", "n_train", "n_test"]
    assert len(table) == 3 * 5 * 3
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=42)
    for name, est in LEARNERS.items():
        ref = cross_val_score(est, X, y, cv=cv, scoring="accuracy")
        got = table[table.learner == name].sort_values(["repeat", "fold"])["score"].to_numpy()
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)
    # Every repetition is a partition: its test parts cover the data once.
    sizes = table[table.learner == "nb"].groupby("repeat")["n_test"].sum()
    assert (sizes == len(y)).all()
    assert ((table.n_train + table.n_test) == len(y)).all()
    assert table.attrs["folds"] == 5 and table.attrs["repeats"] == 3 and table.attrs["random_state"] == 42


def test_cross_validate_scores_unstratified_dataframe_and_list(cancer):
    X, y = cancer
    Xdf = pd.DataFrame(X[:200])
    table = cross_validate_scores(Xdf, y[:200], [GaussianNB(), GaussianNB(var_smoothing=1e-3)],
                                  folds=4, repeats=2, stratified=False, rng=7, scoring="balanced_accuracy")
    assert sorted(pd.unique(table.learner)) == ["GaussianNB", "GaussianNB_2"]
    cv = RepeatedKFold(n_splits=4, n_repeats=2, random_state=7)
    ref = cross_val_score(GaussianNB(), Xdf, y[:200], cv=cv, scoring="balanced_accuracy")
    got = table[table.learner == "GaussianNB"]["score"].to_numpy()
    np.testing.assert_allclose(got, ref, atol=1e-12)


def test_cross_validate_scores_seeds(cancer):
    X, y = cancer
    a = cross_validate_scores(X, y, {"nb": GaussianNB()}, folds=3, rng=np.random.default_rng(1))
    b = cross_validate_scores(X, y, {"nb": GaussianNB()}, folds=3, rng=np.random.default_rng(1))
    pd.testing.assert_frame_equal(a, b)
    c = cross_validate_scores(X, y, {"nb": GaussianNB()}, folds=3, rng=2)
    assert not np.array_equal(a.score, c.score)


def test_stratified_folds_keep_the_class_proportions(cancer):
    X, y = cancer
    table = cross_validate_scores(X, y, {"nb": GaussianNB()}, folds=10, repeats=2, rng=0)
    # 569 cases in 10 folds: 56 or 57 per fold.
    assert set(table.n_test) <= {56, 57}


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"folds": 1}, ValueError, "folds must be a whole number >= 2"),
        ({"folds": 2.5}, ValueError, "folds"),
        ({"repeats": 0}, ValueError, "repeats must be a whole number >= 1"),
        ({"folds": 30}, ValueError, "smallest class"),
        ({"folds": 61, "stratified": False}, ValueError, "number of cases"),
        ({"rng": -1}, ValueError, "rng must be None, an int >= 0"),
        ({"rng": "a"}, TypeError, "rng"),
        ({"stratified": "yes"}, TypeError, "stratified"),
    ],
)
def test_cross_validate_scores_bad_arguments(kwargs, exc, match):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.r_[np.zeros(35, int), np.ones(25, int)]
    with pytest.raises(exc, match=match):
        cross_validate_scores(X, y, {"nb": GaussianNB()}, **kwargs)


def test_cross_validate_scores_bad_data_and_learners():
    X = np.random.default_rng(0).normal(size=(40, 2))
    y = np.r_[np.zeros(20, int), np.ones(20, int)]
    with pytest.raises(ValueError, match="X has 40 rows but y has 39"):
        cross_validate_scores(X, y[:39], [GaussianNB()], folds=2)
    with pytest.raises(ValueError, match="y must not contain NaN"):
        cross_validate_scores(X, np.r_[y[:39], np.nan], [GaussianNB()], folds=2)
    with pytest.raises(ValueError, match="X must be two-dimensional"):
        cross_validate_scores(X[:, 0], y, [GaussianNB()], folds=2)
    with pytest.raises(ValueError, match="at least one estimator"):
        cross_validate_scores(X, y, {}, folds=2)
    with pytest.raises(TypeError, match="learners"):
        cross_validate_scores(X, y, GaussianNB(), folds=2)
    with pytest.raises(TypeError, match=r"learners\['x'\] must be a scikit-learn estimator"):
        cross_validate_scores(X, y, {"x": object()}, folds=2)


def test_paired_scores_and_compare(cancer):
    X, y = cancer
    table = cross_validate_scores(X, y, LEARNERS, folds=10, repeats=3, rng=1)
    s1, s2 = paired_scores(table, "nb", "lr")
    assert s1.shape == (30,)
    r1, r2 = paired_scores(table, "nb", "lr", per="repeat")
    np.testing.assert_allclose(r1, s1.reshape(3, 10).mean(axis=1))
    out = compare_cv_scores(table, "nb", "lr").set_index("test")
    assert list(out.index) == ["paired t, all folds", "paired t, round means", "corrected resampled t"]
    assert out.loc["paired t, all folds", "pvalue"] == pytest.approx(stats.ttest_rel(s1, s2).pvalue, rel=1e-12)
    assert out.loc["paired t, round means", "pvalue"] == pytest.approx(stats.ttest_rel(r1, r2).pvalue, rel=1e-12)
    assert out.loc["paired t, round means", "df"] == 2
    n_test = table[table.learner == "nb"].n_test.mean()
    naive = stats.ttest_rel(s1, s2).statistic
    assert out.loc["corrected resampled t", "statistic"] == pytest.approx(
        naive / np.sqrt(1 + 30 * n_test / (len(y) - n_test)), rel=1e-12)
    with pytest.raises(ValueError, match="learner_2 = 'svm' is not in the table"):
        paired_scores(table, "nb", "svm")
    with pytest.raises(ValueError, match="per must be one of"):
        paired_scores(table, "nb", "lr", per="x")
    with pytest.raises(ValueError, match="lacks the columns"):
        paired_scores(pd.DataFrame({"a": [1]}), "nb", "lr")


def test_compare_includes_5x2cv_for_two_folds(cancer):
    X, y = cancer
    table = cross_validate_scores(X, y, LEARNERS, folds=2, repeats=5, rng=3)
    out = compare_cv_scores(table, "tree", "lr").set_index("test")
    s1, s2 = paired_scores(table, "tree", "lr")
    d = (s1 - s2).reshape(5, 2)
    t = d[0, 0] / np.sqrt(np.mean(2 * ((d[:, 0] - d[:, 1]) / 2) ** 2))
    assert out.loc["5x2cv t", "statistic"] == pytest.approx(t, rel=1e-12)
    assert out.loc["5x2cv t", "df"] == 5


# ------------------------------------------------------------------ simulation
def test_equal_learners_data_has_the_stated_bayes_error():
    X, y = equal_learners_data(200_001, bayes_error=0.2, rng=np.random.default_rng(0))
    assert X.shape == (200_001, 2) and y.sum() == 100_001
    n = len(y)
    se = np.sqrt(0.2 * 0.8 / n)
    for j in (0, 1):  # the Bayes rule on one feature: predict 1 when x_j > 0
        assert np.mean((X[:, j] > 0) != (y == 1)) == pytest.approx(0.2, abs=4 * se)
    # The features are independent given the class.
    for c in (0, 1):
        assert abs(np.corrcoef(X[y == c].T)[0, 1]) < 4 / np.sqrt((y == c).sum())


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [({"bayes_error": 0.5}, ValueError, "bayes_error"), ({"bayes_error": 0}, ValueError, "bayes_error"),
     ({"bayes_error": "x"}, TypeError, "bayes_error"), ({"rng": 0.5}, TypeError, "rng must be None, an int")],
)
def test_equal_learners_data_bad_input(kwargs, exc, match):
    args = {"bayes_error": 0.25, "rng": np.random.default_rng(0)} | kwargs
    with pytest.raises(exc, match=match):
        equal_learners_data(10, **args)


def _class_ordered_data(n, rng):
    X, y = equal_learners_data(n, bayes_error=0.25, rng=rng)
    order = np.argsort(y, kind="stable")
    return X[order], y[order]


@pytest.mark.parametrize("n, k, r", [(4, 2, 1), (20, 10, 2), (41, 5, 3), (100, 10, 2), (37, 3, 4)])
def test_nb_fold_accuracy_is_scikit_learns_gaussian_nb(n, k, r):
    """Every fold of every partition against GaussianNB fitted on that training set."""
    from evallib.resampling._cvtests import _nb_fold_accuracy

    rng = np.random.default_rng(n * 100 + k)
    data = [_class_ordered_data(n, rng) for _ in range(4)]
    parts = np.stack([stratified_test_folds([n // 2, n - n // 2], k, r, rng=rng) for _ in data])
    xs = np.stack([X for X, _ in data])
    both = _nb_fold_accuracy(xs, n // 2, parts, k)
    assert both.shape == (2, len(data), r, k)
    for j in (0, 1):
        got = both[j]
        for d, (X, y) in enumerate(data):
            for rep in range(r):
                for f in range(k):
                    test = parts[d, rep] == f
                    model = GaussianNB().fit(X[~test][:, [j]], y[~test])
                    assert got[d, rep, f] == np.mean(model.predict(X[test][:, [j]]) == y[test])


@pytest.mark.parametrize("n0, n1, k", [(2, 2, 2), (10, 10, 10), (20, 21, 5), (50, 50, 7), (13, 30, 4)])
def test_stratified_test_folds_have_scikit_learns_allocation(n0, n1, k):
    """Per fold, as many cases of each class as StratifiedKFold puts there."""
    y = np.repeat([0, 1], [n0, n1])
    ref = [np.bincount(y[test], minlength=2)
           for _, test in StratifiedKFold(k, shuffle=True, random_state=0).split(np.zeros(y.size), y)]
    folds = stratified_test_folds([n0, n1], k, 6, rng=np.random.default_rng(0))
    assert folds.shape == (6, n0 + n1) and folds.dtype.kind == "i"
    for row in folds:
        got = [np.bincount(y[row == f], minlength=2) for f in range(k)]
        np.testing.assert_array_equal(got, ref)


def test_stratified_test_folds_shuffle_uniformly_and_independently():
    """Chi-square: a case of class c lands in fold f with probability (class c's count in f) / n_c.

    20,000 partitions of 7 + 8 cases into 3 folds; the test fails at p < 1e-4. Two
    partitions drawn together are independent: the folds of case 0 in the first and
    second repeat are uncorrelated (|r| < 4 / sqrt(20,000)).
    """
    folds = stratified_test_folds([7, 8], 3, 2, rng=np.random.default_rng(5))
    many = np.concatenate([stratified_test_folds([7, 8], 3, 2, rng=np.random.default_rng(s))
                           for s in range(10_000)])
    assert folds.shape == (2, 15)
    y = np.repeat([0, 1], [7, 8])
    alloc = np.array([np.bincount(y[test], minlength=2)       # scikit-learn's per-fold class counts
                      for _, test in StratifiedKFold(3).split(np.zeros(15), y)])
    for case, c in ((0, 0), (14, 1)):
        share = alloc[:, c] / alloc[:, c].sum()
        counts = np.bincount(many[:, case], minlength=3)
        assert stats.chisquare(counts, share * counts.sum()).pvalue > 1e-4
    first, second = many[0::2, 0], many[1::2, 0]
    assert abs(np.corrcoef(first, second)[0, 1]) < 4 / np.sqrt(first.size)


@pytest.mark.parametrize(
    "args, exc, match",
    [(([5, 5], 1), ValueError, "folds"), (([5, 2], 3), ValueError, "n_per_class"),
     (([5, 5], 2, 0), ValueError, "repeats"), (([5, 5], 2, 1, "0"), TypeError, "rng must be None, an int")],
)
def test_stratified_test_folds_bad_input(args, exc, match):
    n_per_class, folds, repeats, rng = (list(args) + [1, np.random.default_rng(0)][len(args) - 2:])[:4]
    with pytest.raises(exc, match=match):
        stratified_test_folds(n_per_class, folds, repeats, rng=rng)


@pytest.mark.filterwarnings("ignore:Precision loss occurred:RuntimeWarning")  # scipy, on equal differences
def test_simulation_agrees_with_scikit_learn_and_scipy_on_its_own_draws():
    """Re-draw the simulation's data sets and partitions; score them with GaussianNB
    (cross_val_score on those partitions) and test with scipy and the published formulas.

    Every p-value agrees to 1e-9, so the rejection rates do exactly: this same-draws check
    replaced a Monte Carlo comparison with a separate scikit-learn loop (300 data sets, its own
    draws, rates within 4 standard errors), which could only detect what this detects.
    """
    n, k, r, m, seed, alpha = 40, 5, 3, 3, 9, 0.34
    tidy = simulate_equal_learners(n, folds=k, repeats=r, n_datasets=m, rng=seed)
    sim = tidy.set_index(["dataset", "test"])
    refs = {}
    for i, g in enumerate(np.random.default_rng(seed).spawn(m)):
        X, y = _class_ordered_data(n, g)
        parts = stratified_test_folds([n // 2, n // 2], k, r, rng=g)
        parts2 = stratified_test_folds([n // 2, n // 2], 2, 5, rng=g)

        def scores(partition, j):
            splits = [(np.flatnonzero(row != f), np.flatnonzero(row == f))
                      for row in partition for f in range(int(row.max()) + 1)]
            return cross_val_score(GaussianNB(), X[:, [j]], y, cv=splits)

        a, b = scores(parts, 0), scores(parts, 1)
        d = a - b
        ref = {
            "paired t, all folds": stats.ttest_rel(a, b).pvalue,
            "paired t, round means": stats.ttest_rel(a.reshape(r, k).mean(1), b.reshape(r, k).mean(1)).pvalue,
            "corrected resampled t": 2 * stats.t.sf(abs(d.mean() / np.sqrt((1 / d.size + 1 / (k - 1))
                                                                            * d.var(ddof=1))), d.size - 1),
        }
        d2 = (scores(parts2, 0) - scores(parts2, 1)).reshape(5, 2)
        s2 = ((d2 - d2.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
        ref["5x2cv t"] = 2 * stats.t.sf(abs(d2[0, 0] / np.sqrt(s2.mean())), 5)
        for name, p in ref.items():
            if np.isnan(p):   # scipy's 0/0 when every difference is equal; evallib's documented answer
                p = 1.0 if name != "5x2cv t" or d2[0, 0] == 0 else 0.0
            assert sim.loc[(i, name), "pvalue"] == pytest.approx(p, rel=1e-9, abs=1e-14), (i, name)
            refs.setdefault(name, []).append(p)
        assert sim.loc[(i, "paired t, all folds"), "mean_difference"] == pytest.approx(d.mean(), abs=1e-12)
    table = rejection_rates(tidy, alpha).set_index("test")
    expected = {name: np.mean(np.array(ps) <= alpha) for name, ps in refs.items()}
    assert {name: table.loc[name, "rate"] for name in refs} == expected
    # and the binomial Monte Carlo standard error of each rate, sqrt(q (1 - q) / m)
    assert [table.loc[name, "mc_se"] for name in refs] == pytest.approx(
        [np.sqrt(q * (1 - q) / m) for q in expected.values()], abs=1e-15)


def test_simulation_is_seeded_and_tidy():
    a = simulate_equal_learners(30, folds=3, repeats=2, n_datasets=3, rng=4)
    b = simulate_equal_learners(30, folds=3, repeats=2, n_datasets=3, rng=4)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == ["dataset", "test", "statistic", "df", "pvalue", "mean_difference"]
    assert len(a) == 3 * 4 and set(a.test) == set(SIMULATED_TESTS)
    one = simulate_equal_learners(30, folds=3, repeats=1, n_datasets=2, rng=4)
    assert "paired t, round means" not in set(one.test)
    assert a.attrs == {"n_samples": 30, "folds": 3, "repeats": 2, "n_datasets": 3, "bayes_error": 0.25}
    # Each data set has its own spawned generator: a longer study starts with the shorter one,
    # whatever the block size used inside.
    short = simulate_equal_learners(400, folds=2, repeats=40, n_datasets=3, rng=4)
    longer = simulate_equal_learners(400, folds=2, repeats=40, n_datasets=60, rng=4)  # two blocks of 55 + 5
    pd.testing.assert_frame_equal(short, longer.iloc[:len(short)])
    assert not longer.iloc[-4:]["pvalue"].isna().any()


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [({"folds": 1}, ValueError, "folds"), ({"repeats": 0}, ValueError, "repeats"),
     ({"n_samples": 15}, ValueError, "n_samples must be at least 2 \\* folds = 20"),
     ({"n_datasets": 0}, ValueError, "n_datasets"), ({"rng": 2.5}, TypeError, "rng"),
     ({"bayes_error": 0.7}, ValueError, "bayes_error")],
)
def test_simulation_bad_input(kwargs, exc, match):
    args = {"n_samples": 40, "folds": 10, "repeats": 1, "n_datasets": 1, "rng": 0} | kwargs
    with pytest.raises(exc, match=match):
        simulate_equal_learners(**args)


def test_rejection_rates_counts():
    sim = pd.DataFrame({
        "dataset": [0, 0, 1, 1, 2, 2, 3, 3],
        "test": ["corrected resampled t", "paired t, all folds"] * 4,
        "pvalue": [0.5, 0.01, 0.04, 0.001, 0.2, 0.3, 0.06, 0.049],
    })
    r = rejection_rates(sim, alpha=0.05).set_index("test")
    assert list(r.index) == ["paired t, all folds", "corrected resampled t"]
    assert r.loc["paired t, all folds", "rejections"] == 3 and r.loc["corrected resampled t", "rejections"] == 1
    assert r.loc["paired t, all folds", "rate"] == 0.75
    assert r.loc["paired t, all folds", "mc_se"] == pytest.approx(np.sqrt(0.75 * 0.25 / 4))
    assert rejection_rates(sim, alpha=0.5).loc[1, "rejections"] == 4  # the rule is pvalue <= alpha: 0.5 counts
    for bad in (0, 1, np.nan):
        with pytest.raises(ValueError, match="alpha"):
            rejection_rates(sim, alpha=bad)
    with pytest.raises(ValueError, match="lacks the columns"):
        rejection_rates(sim.drop(columns="pvalue"))
    with pytest.raises(ValueError, match="at least one data set"):
        rejection_rates(sim.iloc[:0])


@pytest.mark.slow
def test_naive_tests_reject_too_often_and_the_remedies_do_not():
    """Monte Carlo: with equally good learners every rejection is a type I error.

    200 data sets of 60 cases, 5 x 5-fold CV. Tolerances: 3 binomial standard
    errors at the nominal 0.05 (sd 0.0154), i.e. the remedies must stay below
    0.05 + 0.046; the naive all-folds test must exceed that bound.
    """
    sim = simulate_equal_learners(60, folds=5, repeats=5, n_datasets=200, rng=2024)
    r = rejection_rates(sim, 0.05).set_index("test")["rate"]
    bound = 0.05 + 3 * np.sqrt(0.05 * 0.95 / 200)
    assert r["corrected resampled t"] <= bound
    assert r["5x2cv t"] <= bound
    assert r["paired t, all folds"] > bound
    assert r["paired t, round means"] > bound
    # Equal learners: the mean accuracy difference over data sets is 0 within 4 s.e.
    d = sim[sim.test == "paired t, all folds"]["mean_difference"]
    assert abs(d.mean()) < 4 * d.std(ddof=1) / np.sqrt(len(d))


def test_plot_rejection_rates_and_study():
    rates = rejection_study(30, 3, 2, 0.1, n_datasets=4, rng=1, ax=None)
    ref = rejection_rates(simulate_equal_learners(30, folds=3, repeats=2, n_datasets=4, rng=1), 0.1)
    pd.testing.assert_frame_equal(rates, ref)
    fig, ax = plt.subplots()
    out = plot_rejection_rates(rates, ax=ax)
    assert out is ax and len(ax.patches) == len(rates)
    # The first test is drawn at the top.
    top = dict(zip(ax.get_yticks(), (t.get_text() for t in ax.get_yticklabels())))
    assert [top[k] for k in sorted(top, reverse=True)] == list(rates.test)
    assert any(np.allclose(line.get_xdata(), 0.1) for line in ax.get_lines())
    plt.close("all")
    with pytest.raises(ValueError, match="lacks the columns"):
        plot_rejection_rates(pd.DataFrame({"x": [1]}))
    with pytest.raises(ValueError, match="alpha"):
        plot_rejection_rates(rates, alpha=2)
    with pytest.raises(ValueError, match="alpha"):
        rejection_study(30, 3, 2, 1.5, n_datasets=1)


@pytest.fixture
def simulations(monkeypatch):
    """The keyword arguments of every simulate_equal_learners call, from an empty cache."""
    import evallib.resampling._cvtests as cvt

    calls = []
    real = cvt.simulate_equal_learners

    def counting(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(cvt, "simulate_equal_learners", counting)
    cvt._cached_simulation.cache_clear()
    yield calls
    plt.close("all")
    cvt._cached_simulation.cache_clear()


def test_rejection_study_caches_the_simulation_for_int_rng(simulations):
    a = rejection_study(24, 3, 2, 0.05, n_datasets=3, rng=5)
    b = rejection_study(24, 3, 2, 0.2, n_datasets=3, rng=5)  # alpha only: no new simulation
    assert [c["rng"] for c in simulations] == [5]
    assert (a.rejections <= b.rejections).all() and b.attrs["alpha"] == 0.2
    rejection_study(24, 3, 2, 0.05, n_datasets=3, rng=np.random.default_rng(5))  # never cached
    rejection_study(24, 3, 2, 0.05, n_datasets=3, rng=np.random.default_rng(5))
    assert len(simulations) == 3


def test_rejection_sweep_is_the_study_run_per_value():
    sweep = rejection_sweep("folds", [2, 3], n_samples=24, repeats=2, alphas=[0.05, 0.2], n_datasets=5, rng=3)
    assert list(sweep.columns) == ["parameter", "value", "alpha", "test", "rejections", "n_datasets", "rate", "mc_se"]
    assert len(sweep) == 2 * 2 * len(SIMULATED_TESTS)
    for k in (2, 3):
        sim = simulate_equal_learners(24, folds=k, repeats=2, n_datasets=5, rng=3)
        for a in (0.05, 0.2):
            got = sweep[(sweep.value == k) & (sweep.alpha == a)].drop(columns=["parameter", "value", "alpha"])
            pd.testing.assert_frame_equal(got.reset_index(drop=True), rejection_rates(sim, a), check_like=True)
    # One repeat has no round-means test.
    one = rejection_sweep("repeats", [1], n_samples=24, folds=3, n_datasets=2, rng=0)
    assert "paired t, round means" not in set(one.test) and set(one.parameter) == {"repeats"}


def test_rejection_sweep_shares_the_study_cache(simulations):
    rejection_study(24, 3, 2, 0.05, n_datasets=3, rng=5)
    sweep = rejection_sweep("folds", [2, 3], n_samples=24, repeats=2, n_datasets=3, rng=5)
    again = rejection_sweep("folds", [2, 3], n_samples=24, repeats=2, n_datasets=3, rng=5)
    assert [c["folds"] for c in simulations] == [3, 2]     # folds = 3 came from rejection_study's run
    pd.testing.assert_frame_equal(sweep, again)
    rejection_sweep("folds", [3], n_samples=24, repeats=2, n_datasets=3, rng=np.random.default_rng(5))
    assert [c["folds"] for c in simulations] == [3, 2, 3]  # a Generator seed is never cached


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [({"parameter": "alpha"}, ValueError, "parameter"), ({"values": []}, TypeError, "values"),
     ({"values": 3}, TypeError, "values"), ({"alphas": [0.05, 1.5]}, ValueError, "alpha"),
     ({"alphas": "0.05"}, TypeError, "alphas"), ({"values": [1]}, ValueError, "folds")],
)
def test_rejection_sweep_bad_input(kwargs, exc, match):
    args = {"parameter": "folds", "values": [2], "n_samples": 20, "n_datasets": 1} | kwargs
    with pytest.raises(exc, match=match):
        rejection_sweep(args.pop("parameter"), args.pop("values"), **args)


def test_cross_validate_scores_rejects_an_unknown_scorer():
    X = np.random.default_rng(0).normal(size=(40, 2))
    y = np.r_[np.zeros(20, int), np.ones(20, int)]
    with pytest.raises(ValueError, match="not_a_scorer"):
        cross_validate_scores(X, y, [GaussianNB()], folds=2, scoring="not_a_scorer")


# ------------------------------------------------- issue 17: Alpaydın's combined 5x2cv F test
def test_combined_5x2cv_ftest_matches_mlxtend():
    """mlxtend runs the 5x2 CV itself; a recording scorer hands us the same fold scores."""
    evaluate = pytest.importorskip("mlxtend.evaluate")
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier

    from evallib.resampling._cvtests import combined_5x2cv_ftest

    X, y = load_iris(return_X_y=True)
    for depth in (None, 1):
        recorded = []

        def scorer(estimator, X_, y_):
            score = float(np.mean(estimator.predict(X_) == y_))
            recorded.append(score)
            return score

        clf1 = LogisticRegression(random_state=1, max_iter=500)
        clf2 = DecisionTreeClassifier(max_depth=depth, random_state=1)
        f, p = evaluate.combined_ftest_5x2cv(clf1, clf2, X, y, scoring=scorer, random_seed=1)
        s = np.array(recorded).reshape(5, 2, 2)  # replication, fold, estimator
        res = combined_5x2cv_ftest(s[:, :, 0], s[:, :, 1])
        assert res.statistic == pytest.approx(f, rel=1e-12)
        assert res.pvalue == pytest.approx(p, rel=1e-10)
        assert res.df == (10, 5) and res.reject == (p <= 0.05)


def test_combined_5x2cv_ftest_degenerate_and_bad_input():
    from evallib.resampling._cvtests import combined_5x2cv_ftest

    same = combined_5x2cv_ftest([[0.8, 0.7]] * 5, [[0.8, 0.7]] * 5)
    assert (same.statistic, same.pvalue) == (0.0, 1.0)
    shifted = combined_5x2cv_ftest([[0.9, 0.8]] * 5, [[0.8, 0.7]] * 5)
    assert (shifted.statistic, shifted.pvalue) == (np.inf, 0.0)
    with pytest.raises(ValueError, match="scores_1"):
        combined_5x2cv_ftest([[0.8, np.nan]] * 5, [[0.8, 0.7]] * 5)
    with pytest.raises(ValueError, match="paired"):
        combined_5x2cv_ftest([[0.8, 0.7]] * 5, [[0.8, 0.7]] * 4)
    with pytest.raises(ValueError, match="alpha"):
        combined_5x2cv_ftest([[0.8, 0.7]] * 5, [[0.8, 0.6]] * 5, alpha=2)
# ----------------------------------------------- two learners that truly differ
from evallib import (  # noqa: E402
    plot_power_by_repeats,
    power_by_repeats,
    simulate_unequal_learners,
    unequal_learners_data,
)


def test_unequal_learners_data_has_the_stated_bayes_errors():
    """The best rule on feature j (its sign) errs with probability bayes_errors[j]: Monte Carlo, 200,000 cases."""
    X, y = unequal_learners_data(200_000, bayes_errors=(0.1, 0.3), rng=4)
    errors = [np.mean((X[:, j] > 0) != (y == 1)) for j in (0, 1)]
    assert errors == pytest.approx([0.1, 0.3], abs=4 * np.sqrt(0.3 * 0.7 / 200_000))
    assert y.sum() == 100_000


def test_equal_errors_give_the_equal_learners_data_and_simulation():
    X1, y1 = equal_learners_data(50, bayes_error=0.2, rng=np.random.default_rng(8))
    X2, y2 = unequal_learners_data(50, bayes_errors=(0.2, 0.2), rng=np.random.default_rng(8))
    assert np.array_equal(y1, y2) and np.allclose(X1, X2)
    sim0 = simulate_unequal_learners(40, difference=0.0, folds=5, repeats=3, n_datasets=6, rng=2)
    ref = simulate_equal_learners(40, folds=5, repeats=3, n_datasets=6, rng=2)
    pd.testing.assert_frame_equal(sim0, ref)


@pytest.mark.filterwarnings("ignore:Precision loss occurred:RuntimeWarning")  # scipy, on equal differences
def test_unequal_simulation_agrees_with_scikit_learn_and_scipy_on_its_own_draws():
    """Re-draw the data sets and partitions; score with GaussianNB (cross_val_score) and test with scipy."""
    n, k, r, m, seed = 40, 5, 3, 3, 12
    sim = simulate_unequal_learners(n, difference=0.15, bayes_error=0.2, folds=k, repeats=r, n_datasets=m,
                                    rng=seed).set_index(["dataset", "test"])
    for i, g in enumerate(np.random.default_rng(seed).spawn(m)):
        X, y = unequal_learners_data(n, bayes_errors=(0.2, 0.35), rng=g)
        order = np.argsort(y, kind="stable")
        X, y = X[order], y[order]
        parts = stratified_test_folds([n // 2, n // 2], k, r, rng=g)
        splits = [(np.flatnonzero(row != f), np.flatnonzero(row == f)) for row in parts for f in range(k)]
        a = cross_val_score(GaussianNB(), X[:, [0]], y, cv=splits)
        b = cross_val_score(GaussianNB(), X[:, [1]], y, cv=splits)
        d = a - b
        assert sim.loc[(i, "paired t, all folds"), "pvalue"] == pytest.approx(stats.ttest_rel(a, b).pvalue, rel=1e-9)
        t_corr = d.mean() / np.sqrt((1 / d.size + 1 / (k - 1)) * d.var(ddof=1))
        assert sim.loc[(i, "corrected resampled t"), "statistic"] == pytest.approx(t_corr, rel=1e-9)
        assert sim.loc[(i, "paired t, all folds"), "mean_difference"] == pytest.approx(d.mean(), abs=1e-12)


@pytest.mark.slow
def test_the_true_accuracy_difference_is_the_bayes_difference():
    """Monte Carlo: over 3,000 data sets of 100 cases, 10-fold CV, A's mean accuracy advantage is
    `difference` to within 4 Monte Carlo standard errors plus 0.002 (the excess errors)."""
    sim = simulate_unequal_learners(100, difference=0.05, folds=10, repeats=1, n_datasets=3000, rng=21)
    d = sim.loc[sim["test"] == "paired t, all folds", "mean_difference"]
    assert d.mean() == pytest.approx(0.05, abs=4 * d.std() / np.sqrt(d.size) + 0.002)


def test_power_by_repeats_is_rejection_rates_of_each_run():
    table = power_by_repeats([1, 2], difference=0.1, n_samples=40, folds=5, alpha=0.1, n_datasets=30, rng=3)
    for r in (1, 2):
        sim = simulate_unequal_learners(40, difference=0.1, folds=5, repeats=r, n_datasets=30, rng=3)
        ref = rejection_rates(sim, 0.1)
        got = table[table["repeats"] == r].drop(columns=["repeats", "difference"]).reset_index(drop=True)
        pd.testing.assert_frame_equal(got, ref, check_like=True)
    assert "paired t, round means" not in set(table.loc[table["repeats"] == 1, "test"])
    assert table.attrs["alpha"] == 0.1


def test_a_true_difference_is_found_more_often_than_none():
    """The corrected test's rejection rate rises from about alpha (no difference) with the difference."""
    rates = {d: power_by_repeats([10], difference=d, n_samples=100, folds=10, n_datasets=300, rng=5)
             .set_index("test").loc["corrected resampled t", "rate"] for d in (0.0, 0.15)}
    assert rates[0.0] < 0.1 < 0.5 < rates[0.15]


def test_plot_power_by_repeats():
    table = pd.concat([power_by_repeats([1, 3], difference=d, n_samples=40, folds=5, n_datasets=10, rng=1)
                       for d in (0.0, 0.1)])
    table.attrs["alpha"] = 0.05
    fig, ax = plt.subplots()
    assert plot_power_by_repeats(table, tests=["corrected resampled t", "paired t, all folds"], ax=ax) is ax
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "corrected resampled t, difference 0.1" in labels and "α = 0.05" in labels and len(ax.lines) == 5
    styles = {line.get_label(): line.get_linestyle() for line in ax.lines}
    assert styles["corrected resampled t, difference 0"] == "-" and styles["corrected resampled t, difference 0.1"] == "--"
    # a legend handle long enough to show a full dash pattern (matplotlib's default of 2 shows one dash)
    assert ax.get_legend().handlelength >= 3.5
    plt.close(fig)
    with pytest.raises(ValueError, match="power_by_repeats"):
        plot_power_by_repeats(pd.DataFrame({"rate": [0.1]}))


@pytest.mark.parametrize("call, exc, match", [
    (lambda: simulate_unequal_learners(40, difference=-0.1, folds=5), ValueError, "difference"),
    (lambda: simulate_unequal_learners(40, difference=0.3, bayes_error=0.25, folds=5), ValueError, "difference"),
    (lambda: unequal_learners_data(10, bayes_errors=(0.1,)), TypeError, "bayes_errors"),
    (lambda: unequal_learners_data(10, bayes_errors=(0.1, 0.5)), ValueError, "bayes_errors"),
    (lambda: power_by_repeats([0], n_samples=40, folds=5), ValueError, "repeats"),
    (lambda: power_by_repeats(3), TypeError, "repeats"),
])
def test_unequal_learners_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_plot_rejection_rates_update_moves_the_artists_to_what_a_fresh_chart_shows():
    """update=True on a chart of the same tests gives the chart a fresh draw gives (bar widths and
    colours, error bars and caps, level line, legend, limits, title) with the same artist objects."""
    from matplotlib.colors import to_rgba
    from matplotlib.container import BarContainer

    sim = simulate_equal_learners(30, folds=3, repeats=2, n_datasets=6, rng=1)
    first, second = rejection_rates(sim, 0.05), rejection_rates(sim, 0.3)
    second = second.assign(rate=[0.9, 0.5, 0.1, 0.0][:len(second)])   # rates far from the first ones

    def bars_of(ax):
        return next(c for c in ax.containers if isinstance(c, BarContainer))

    def state(ax):
        bars = bars_of(ax)
        _, caps, cols = bars.errorbar.lines
        return dict(widths=[r.get_width() for r in bars.patches],
                    colours=[to_rgba(r.get_facecolor()) for r in bars.patches],
                    segments=[np.asarray(seg).tolist() for seg in cols[0].get_segments()],
                    caps=[np.asarray(c.get_xdata()).tolist() for c in caps],
                    level=[list(line.get_xdata()) for line in ax.get_lines() if line.get_linestyle() == "--"],
                    legend=[t.get_text() for t in ax.get_legend().get_texts()],
                    xlim=ax.get_xlim(), title=ax.get_title())

    _, fresh = plt.subplots()
    plot_rejection_rates(second, alpha=0.3, ax=fresh)
    _, moved = plt.subplots()
    plot_rejection_rates(first, ax=moved)
    artists = [id(r) for r in bars_of(moved).patches]
    out = plot_rejection_rates(second, alpha=0.3, ax=moved, update=True)
    assert out is moved and [id(r) for r in bars_of(moved).patches] == artists
    assert len(moved.containers) == len(fresh.containers) and len(moved.patches) == len(second)
    got, want = state(moved), state(fresh)
    assert got["caps"] and got["segments"]
    for key in want:
        assert got[key] == want[key], key
    # a cleared axes is drawn anew, and update=False always draws anew
    moved.clear()
    plot_rejection_rates(first, ax=moved, update=True)
    assert len(moved.patches) == len(first)
    with pytest.raises(TypeError, match="update must be True or False"):
        plot_rejection_rates(first, update="yes")
    plt.close("all")


def test_plot_rejection_rates_update_to_other_tests_replaces_the_chart():
    """A setting with one repeat has no round-means test: update=True cannot move the four bars,
    so the chart is replaced (the axes holds what a fresh chart of three tests holds), and going
    back replaces it again; switching back and forth leaves nothing behind (notebook 05's setting
    dropdown drew each new chart over the old one, whose longer bars showed through)."""
    four = rejection_rates(simulate_equal_learners(30, folds=3, repeats=2, n_datasets=6, rng=1), 0.05)
    three = rejection_rates(simulate_equal_learners(30, folds=3, repeats=1, n_datasets=6, rng=1), 0.05)
    assert len(four) == 4 and len(three) == 3

    def inventory(ax):
        return (len(ax.patches), len(ax.lines), len(ax.collections), len(ax.containers),
                [t.get_text() for t in ax.get_yticklabels()])

    _, fresh = plt.subplots()
    plot_rejection_rates(three, ax=fresh)
    _, ax = plt.subplots()
    plot_rejection_rates(four, ax=ax)
    start = inventory(ax)
    plot_rejection_rates(three, ax=ax, update=True)
    assert inventory(ax) == inventory(fresh)
    for _ in range(3):
        plot_rejection_rates(four, ax=ax, update=True)
        plot_rejection_rates(three, ax=ax, update=True)
    plot_rejection_rates(four, ax=ax, update=True)
    assert inventory(ax) == start
    plt.close("all")
