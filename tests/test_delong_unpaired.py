"""Tests of DeLong's unpaired comparison of two AUCs (scoring.delong_unpaired).

References: R's pROC. Its test file tests/testthat/test-roc.test.R expects, for its aSAH
data (113 patients of Turck et al. 2010, outcome "Poor" as cases), from
``roc.test(r.wfns, r.s100b, paired = FALSE)`` D = 1.43490640926908 and
p = 0.152825378808796, from ``roc.test(r.wfns, r.ndka, paired = FALSE)``
D = 3.10125096778969 and p = 0.00220950791756457, and from
``roc.test(r.ndka, r.s100b, paired = FALSE)`` D = -1.55995743389685 and
p = 0.120192832430845. A truly unpaired pair (ndka on the men, s100b on the women) was
printed by running pROC 1.18.0 in R 4.2.2: D = -1.39502812141045, df = 91.1538525819,
p = 0.166397242128554. The aSAH columns below were written out by R from pROC's data set.
Also a direct O(m n) placement-value computation from DeLong et al.'s definitions.
"""

from __future__ import annotations

import numpy as np
import pytest

from evallib.onetestset._scoring import UnpairedAUCComparison, delong_auc, delong_test, delong_unpaired

ASAH_OUTCOME = np.array([
    0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0,
    0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0,
])
ASAH_WFNS = np.array([
    1, 1, 1, 1, 3, 2, 5, 4, 1, 2, 5, 2, 5, 5, 1, 2, 5, 2, 2, 5, 2, 1, 1, 1, 1, 2, 1, 2, 1, 1, 3,
    4, 2, 1, 4, 5, 4, 1, 4, 2, 5, 5, 1, 1, 2, 4, 1, 1, 2, 5, 5, 2, 1, 2, 5, 1, 2, 2, 2, 1, 5, 1,
    1, 2, 5, 2, 1, 4, 5, 2, 4, 4, 1, 4, 1, 2, 1, 4, 2, 1, 2, 3, 2, 4, 2, 1, 4, 5, 1, 1, 5, 4, 2,
    2, 1, 1, 1, 3, 1, 2, 5, 2, 2, 5, 5, 5, 2, 4, 4, 5, 1, 1, 1,
])
ASAH_S100B = np.array([
    0.13, 0.14, 0.1, 0.04, 0.13, 0.1, 0.47, 0.16, 0.18, 0.1, 0.12, 0.1, 0.44, 0.71, 0.04, 0.08,
    0.49, 0.04, 0.07, 0.33, 0.09, 0.09, 0.07, 0.11, 0.07, 0.17, 0.07, 0.11, 0.13, 0.19, 0.05,
    0.16, 0.41, 0.14, 0.34, 0.35, 0.48, 0.09, 0.96, 0.25, 0.5, 0.46, 0.16, 0.07, 0.43, 0.45,
    0.11, 0.08, 0.09, 0.86, 0.52, 0.08, 0.06, 0.13, 2.07, 0.1, 0.14, 0.15, 0.07, 0.06, 0.77,
    0.05, 0.09, 0.3, 0.03, 0.09, 0.04, 0.23, 0.7, 0.09, 0.27, 0.71, 0.08, 0.26, 0.08, 0.16,
    0.09, 0.13, 0.1, 0.08, 0.11, 0.33, 0.11, 0.28, 0.07, 0.1, 0.32, 0.22, 0.07, 0.05, 0.24,
    0.38, 0.1, 0.15, 0.08, 0.14, 0.1, 0.07, 0.04, 0.19, 0.56, 0.14, 0.58, 0.32, 0.82, 0.74,
    0.15, 0.47, 0.17, 0.44, 0.15, 0.5, 0.48,
])
ASAH_NDKA = np.array([
    3.01, 8.54, 8.09, 10.42, 17.4, 12.75, 6, 13.2, 15.54, 6.01, 15.96, 17.86, 5.18, 8.9, 13.41,
    20.75, 11.6, 16.11, 32.37, 54.82, 32.41, 49.94, 40.34, 9.47, 6.29, 12.53, 6.54, 6.3, 80.3,
    12.8, 9.8, 9.81, 9.85, 18.21, 5.03, 14.04, 21.93, 8.02, 7.42, 8.38, 6.59, 9.63, 13.12, 7.96,
    14.34, 41.43, 7.63, 7.06, 12.59, 13.56, 3.87, 9.44, 7.66, 12.98, 419.19, 27.19, 22.27, 9.95,
    21.22, 11.73, 10.4, 58.83, 6.39, 11.09, 12.22, 13.67, 17.21, 22.63, 12.9, 9.7, 21.57, 8.23,
    72.57, 15.54, 10.51, 10.6, 14.57, 5.19, 9.63, 4.61, 21.48, 17.3, 12.71, 9.44, 11.07, 19.46,
    10.83, 5.37, 11.97, 7.75, 9.83, 10.55, 28.49, 8.53, 12.57, 12.9, 46.83, 11.68, 12.67, 9.01,
    9.57, 34.06, 11.72, 14.26, 47.61, 11.67, 24.58, 10.33, 13.87, 15.89, 22.43, 6.79, 13.45,
])
ASAH_GENDER = np.array([
    1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1,
    1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 0,
    1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1,
    1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 0,
])


@pytest.mark.parametrize("a, b, d_stat, pvalue", [
    (ASAH_WFNS, ASAH_S100B, 1.43490640926908, 0.152825378808796),
    (ASAH_WFNS, ASAH_NDKA, 3.10125096778969, 0.00220950791756457),
    (ASAH_NDKA, ASAH_S100B, -1.55995743389685, 0.120192832430845),
])
def test_proc_test_file_values(a, b, d_stat, pvalue):
    res = delong_unpaired(ASAH_OUTCOME, a, ASAH_OUTCOME, b)
    assert isinstance(res, UnpairedAUCComparison)
    assert res.statistic == pytest.approx(d_stat, rel=1e-10)
    assert res.pvalue == pytest.approx(pvalue, rel=1e-9)
    flipped = delong_unpaired(ASAH_OUTCOME, b, ASAH_OUTCOME, a)
    assert (flipped.statistic, flipped.pvalue) == pytest.approx((-res.statistic, res.pvalue), rel=1e-12)


def test_truly_unpaired_curves_as_proc_prints():
    men, women = ASAH_GENDER == 0, ASAH_GENDER == 1
    res = delong_unpaired(ASAH_OUTCOME[men], ASAH_NDKA[men], ASAH_OUTCOME[women], ASAH_S100B[women])
    assert res.statistic == pytest.approx(-1.39502812141045, rel=1e-10)
    assert res.df == pytest.approx(91.1538525819, rel=1e-9)
    assert res.pvalue == pytest.approx(0.166397242128554, rel=1e-9)
    assert (res.auc_a, res.auc_b) == pytest.approx((0.5522727, 0.72), abs=1e-7)
    assert (res.n_pos_a + res.n_neg_a, res.n_pos_b + res.n_neg_b) == (int(men.sum()), int(women.sum()))


def _direct_variance(y, s):
    """DeLong et al. (1988) from the definitions: the psi kernel, O(m n) placements."""
    y = np.asarray(y, bool)
    x, z = s[y], s[~y]
    psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
    return psi.mean(), psi.mean(axis=1).var(ddof=1) / len(x) + psi.mean(axis=0).var(ddof=1) / len(z)


def test_variance_is_the_sum_of_the_two_direct_variances():
    rng = np.random.default_rng(11)
    y1 = rng.random(150) < 0.3
    y2 = rng.random(90) < 0.5
    s1 = np.round(y1 + rng.normal(size=150), 1)   # ties
    s2 = y2 * 0.5 + rng.normal(size=90)
    res = delong_unpaired(y1.astype(int), s1, y2.astype(int), s2, alpha=0.1)
    (auc1, v1), (auc2, v2) = _direct_variance(y1, s1), _direct_variance(y2, s2)
    assert (res.auc_a, res.auc_b) == pytest.approx((auc1, auc2), abs=1e-12)
    assert res.se == pytest.approx(np.sqrt(v1 + v2), rel=1e-10)
    assert res.se_a == pytest.approx(delong_auc(y1.astype(int), s1).se, rel=1e-12)
    df = (v1 + v2) ** 2 / (v1 ** 2 / 149 + v2 ** 2 / 89)
    assert res.df == pytest.approx(df, rel=1e-10)
    from scipy import stats

    q = stats.t.isf(0.05, df)
    assert (res.low, res.high) == pytest.approx((auc1 - auc2 - q * res.se, auc1 - auc2 + q * res.se), rel=1e-10)
    assert res.reject == (res.pvalue <= 0.1)


def test_same_cases_unpaired_is_wider_than_paired_when_correlated():
    # the paired test uses the covariance of the two AUCs on the same cases
    paired = delong_test(ASAH_OUTCOME, ASAH_WFNS, ASAH_S100B)
    unpaired = delong_unpaired(ASAH_OUTCOME, ASAH_WFNS, ASAH_OUTCOME, ASAH_S100B)
    assert paired.difference == pytest.approx(unpaired.difference)
    assert paired.se < unpaired.se


def test_perfect_separation_on_both_sets():
    same = delong_unpaired([0, 0, 1, 1], [1, 2, 3, 4], [0, 0, 1, 1, 1], [0, 1, 5, 6, 7])
    assert (same.difference, same.se, same.statistic, same.pvalue) == (0.0, 0.0, 0.0, 1.0)
    assert same.df == float("inf") and (same.low, same.high) == (0.0, 0.0)
    apart = delong_unpaired([0, 0, 1, 1], [1, 2, 3, 4], [0, 0, 1, 1], [4, 3, 2, 1])
    assert apart.pvalue == 0.0 and apart.statistic == float("inf") and apart.reject


@pytest.mark.parametrize("call, words", [
    (lambda: delong_unpaired([0, 1, 1], [1, 2, 3], [0, 0, 1, 1], [1, 2, 3, 4]), "y_a must contain at least 2"),
    (lambda: delong_unpaired([0, 0, 1, 1], [1, 2, 3, 4], ["a", "a", "b", "b"], [1, 2, 3, 4]), "y_b has the labels"),
    (lambda: delong_unpaired([0, 0, 1, 1], [1, 2, 3], [0, 0, 1, 1], [1, 2, 3, 4]), "score_a"),
    (lambda: delong_unpaired([0, 0, 1, 1], [1, 2, 3, 4], [0, 0, 1, 1], [1, 2, np.nan, 4]), "score_b"),
    (lambda: delong_unpaired([0, 0, 1, 1], [1, 2, 3, 4], [0, 0, 1, 1], [1, 2, 3, 4], alpha=2), "alpha"),
])
def test_bad_input_names_the_argument(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)
