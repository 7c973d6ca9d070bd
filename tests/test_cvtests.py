"""Tests of evallib.cvtests against independent references.

References: scipy's ``ttest_rel``, ``ttest_ind`` and ``ttest_1samp``, the p-values
printed in Flach's Example 12.6 (recomputed here from Example 12.4's table), and
the t distribution's quantiles from scipy.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import evallib
from evallib import cv_ttest

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
    assert r.std_error * np.sqrt(10) == pytest.approx(sd, abs=1.5e-4)
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
    assert cv_ttest(NB, DT).rejects(0.05)
    assert not cv_ttest(NB, NN).rejects(0.05)
    assert not cv_ttest(DT, NN).rejects(0.05)


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
    assert r.std_error == pytest.approx(np.sqrt(2 * np.var(a, ddof=1) / 4), rel=1e-12)


def test_zero_differences_give_statistic_0_and_p_1():
    a = [0.8, 0.7, 0.9, 0.75]
    for paired in (True, False):
        r = cv_ttest(a, a, paired=paired) if paired else cv_ttest([0.8] * 4, [0.8] * 5, paired=False)
        assert (r.statistic, r.pvalue, r.std_error) == (0.0, 1.0, 0.0)
        assert not r.rejects(0.05)


def test_constant_nonzero_difference_is_infinitely_significant():
    a = np.array([0.8, 0.7, 0.9, 0.75])
    r = cv_ttest(a, a - 0.1)  # rounding makes the differences differ in the 17th digit
    assert r.statistic == np.inf and r.pvalue == 0.0 and r.std_error == 0.0
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
            r.rejects(bad)


def test_result_is_frozen_and_exported():
    r = cv_ttest(NB, DT)
    with pytest.raises(AttributeError):
        r.pvalue = 0.5  # type: ignore[misc]
    assert "cv_ttest" in evallib.__all__ and evallib.cv_ttest is cv_ttest
