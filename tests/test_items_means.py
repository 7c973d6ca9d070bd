"""Tests of evallib.items._means against independent references.

References: statsmodels' cluster-robust OLS on an intercept (CR1: ``G/(G-1)(N-1)/(N-K)``,
normal reference by default, t on ``G - 1`` df with ``use_t=True``); CR2 and its
Bell–McCaffrey degrees of freedom computed here from dense matrices (the general
regression formulas, ``(I - H_gg)^(-1/2)`` by eigendecomposition, ``tr(B)^2 / tr(B^2)``);
scipy's one-sample, paired and Welch t-tests and Pearson correlation; statsmodels'
Wilson interval; the mid-p McNemar test from scipy's binomial test and the Bonett–Price
interval written out; the wild cluster bootstrap p-value by enumerating all 2^G
Rademacher sign vectors; statsmodels' one-way ANOVA table and its REML mixed model for
the variance components; pandas for the item means.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
import statsmodels.formula.api as smf
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from evallib.items._means import (
    ITEM_MEAN_METHODS,
    PAIRED_ITEM_METHODS,
    ItemMean,
    PairedItemDifference,
    bell_mccaffrey_df,
    item_mean,
    paired_item_difference,
    variance_components,
)
from evallib.onetestset._mcnemar import Contingency, mcnemar
from evallib.onetestset._paired_intervals import paired_difference_interval

Z = stats.norm.isf(0.025)


def clustered_scores(rng, sizes, mean=0.6, sd_cluster=0.15, sd_item=0.2):
    """Real scores in [0, 1] with a cluster effect, and their cluster labels."""
    g = np.repeat(np.arange(len(sizes)), sizes)
    u = rng.normal(0, sd_cluster, len(sizes))[g]
    y = np.clip(mean + u + rng.normal(0, sd_item, g.size), 0, 1)
    return y, g


def dense_cr2(y, g):
    """CR2 variance and Bell–McCaffrey df of the OLS intercept, from the general matrix formulas."""
    N = y.size
    X = np.ones((N, 1))
    XtXi = np.linalg.inv(X.T @ X)
    H = X @ XtXi @ X.T
    M = np.eye(N) - H
    e = M @ y
    meat, cols = 0.0, []
    for k in np.unique(g):
        idx = np.flatnonzero(g == k)
        w, U = np.linalg.eigh(np.eye(idx.size) - H[np.ix_(idx, idx)])
        A = U @ np.diag(w ** -0.5) @ U.T
        u = X[idx].T @ A @ e[idx]
        meat = meat + np.outer(u, u)
        a = np.zeros(N)
        a[idx] = (A @ X[idx] @ XtXi)[:, 0]
        cols.append(a)
    V = (XtXi @ meat @ XtXi)[0, 0]
    Amat = np.column_stack(cols)
    B = Amat.T @ M @ Amat  # working model: independent errors of equal variance
    return V, np.trace(B) ** 2 / np.trace(B @ B)


# ----------------------------------------------------------- CR1 vs statsmodels
@pytest.mark.parametrize("sizes", [[5, 5, 5, 5, 5, 5], [1, 3, 8, 2, 12, 4, 7]])
def test_cr1_matches_statsmodels_cluster_ols(sizes):
    rng = np.random.default_rng(3)
    y, g = clustered_scores(rng, sizes)
    labels = np.array([f"school-{k}" for k in g])
    ones = np.ones(y.size)
    fit_t = sm.OLS(y, ones).fit(cov_type="cluster", cov_kwds={"groups": g}, use_t=True)
    fit_z = sm.OLS(y, ones).fit(cov_type="cluster", cov_kwds={"groups": g})
    # statsmodels' small-sample convention, written out: G/(G-1) (N-1)/(N-K) sum_g S_g^2 / N^2, K = 1
    G, N = len(sizes), y.size
    S = np.bincount(g, y - y.mean())
    assert fit_t.bse[0] == pytest.approx(math.sqrt(G / (G - 1) * (N - 1) / (N - 1) * S @ S) / N, rel=1e-12)
    res = item_mean(y, clusters=labels, method="cr1")
    assert res.se == pytest.approx(fit_t.bse[0], rel=1e-12)
    assert (res.low, res.high) == pytest.approx(tuple(fit_t.conf_int()[0]), rel=1e-10)
    assert res.df == fit_t.df_resid_inference == len(sizes) - 1
    res_z = item_mean(y, clusters=labels, method="cr1_normal")
    assert (res_z.low, res_z.high) == pytest.approx(tuple(fit_z.conf_int()[0]), rel=1e-10)
    assert res.n_clusters == len(sizes) and res.n_items == y.size


def test_paired_cr1_pvalue_matches_statsmodels():
    rng = np.random.default_rng(4)
    sizes = [4, 9, 3, 6, 6, 10, 2, 5]
    a, g = clustered_scores(rng, sizes, mean=0.6)
    b = np.clip(a - 0.05 + rng.normal(0, 0.1, a.size), 0, 1)
    d = a - b
    for method, use_t in (("cr1", True), ("cr1_normal", False)):
        fit = sm.OLS(d, np.ones(d.size)).fit(cov_type="cluster", cov_kwds={"groups": g}, use_t=use_t)
        res = paired_item_difference(a, b, clusters=g, method=method)
        assert res.estimate == pytest.approx(fit.params[0], rel=1e-12)
        assert res.se == pytest.approx(fit.bse[0], rel=1e-12)
        assert res.statistic == pytest.approx(fit.tvalues[0], rel=1e-10)
        assert res.pvalue == pytest.approx(fit.pvalues[0], rel=1e-8)
        assert (res.low, res.high) == pytest.approx(tuple(fit.conf_int()[0]), rel=1e-10)


# ------------------------------------------------------------- CR2 vs dense
@pytest.mark.parametrize("sizes", [[3, 3, 2], [1, 1, 2, 20], [2, 9, 1, 4, 4, 30, 1], [6] * 5, [1] * 9])
def test_cr2_and_bell_mccaffrey_df_match_dense_matrices(sizes):
    rng = np.random.default_rng(len(sizes))
    y, g = clustered_scores(rng, sizes)
    V, df = dense_cr2(y, g)
    res = item_mean(y, clusters=g, method="cr2")
    assert res.se == pytest.approx(math.sqrt(V), rel=1e-10)
    assert res.df == pytest.approx(df, rel=1e-10)
    assert bell_mccaffrey_df(sizes) == pytest.approx(df, rel=1e-10)
    q = stats.t.isf(0.025, df)
    half = q * math.sqrt(V)  # bounds clipped to [0, 1]
    assert (res.low, res.high) == pytest.approx((max(0, np.mean(y) - half), min(1, np.mean(y) + half)), rel=1e-10)


def test_bell_mccaffrey_df_special_cases():
    assert bell_mccaffrey_df([7] * 12) == pytest.approx(11)      # equal clusters: G - 1
    assert bell_mccaffrey_df([1] * 40) == pytest.approx(39)      # one item each: the t-test's N - 1
    assert bell_mccaffrey_df([1, 1, 1, 50]) < 3                  # imbalance costs degrees of freedom
    with pytest.raises(ValueError, match="cluster_sizes"):
        bell_mccaffrey_df([5])


def test_cr2_with_equal_clusters_equals_cr1_with_t():
    y, g = clustered_scores(np.random.default_rng(5), [8] * 6)
    r1, r2 = item_mean(y, clusters=g, method="cr1"), item_mean(y, clusters=g, method="cr2")
    assert (r2.se, r2.df, r2.low, r2.high) == pytest.approx((r1.se, r1.df, r1.low, r1.high))


# -------------------------------------------------------- without clusters: t
def test_without_clusters_cr2_is_the_t_test():
    rng = np.random.default_rng(6)
    y = rng.uniform(0.2, 0.9, 40)
    ref = stats.ttest_1samp(y, 0.0).confidence_interval(0.95)
    for method in ("cr2", "t", "cr1", "auto"):
        res = item_mean(y, method=method)
        assert res.method == ("cr2" if method == "auto" else method)
        assert (res.low, res.high) == pytest.approx((ref.low, ref.high), rel=1e-10)
        assert res.df == pytest.approx(39)
    naive = item_mean(y, method="naive")
    assert naive.high - naive.estimate == pytest.approx(Z * np.std(y, ddof=1) / math.sqrt(40))


def test_paired_difference_is_the_paired_t_test_without_clusters():
    rng = np.random.default_rng(7)
    a = rng.uniform(0.3, 1.0, 60)
    b = np.clip(a - rng.normal(0.04, 0.1, 60), 0, 1)
    res = paired_item_difference(a, b)
    ref = stats.ttest_rel(a, b)
    ci = ref.confidence_interval(0.95)
    assert res.method == "cr2"
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert (res.low, res.high) == pytest.approx((ci.low, ci.high), rel=1e-10)
    assert res.unclustered_se == pytest.approx(res.se)
    # what an unpaired (Welch) analysis of the same items would report
    welch = stats.ttest_ind(a, b, equal_var=False)
    assert res.unpaired_se == pytest.approx(res.estimate / welch.statistic, rel=1e-10)
    assert res.correlation == pytest.approx(stats.pearsonr(a, b).statistic, rel=1e-10)
    assert res.unpaired_se > res.se  # positively correlated: pairing pays


def test_unclustered_std_error_of_a_clustered_difference():
    rng = np.random.default_rng(8)
    a, g = clustered_scores(rng, [20] * 10, mean=0.7)
    b = np.clip(a - 0.03 + rng.normal(0, 0.1, a.size) + np.repeat(rng.normal(0, 0.05, 10), 20), 0, 1)
    res = paired_item_difference(a, b, clusters=g)
    assert res.unclustered_se == pytest.approx(stats.ttest_rel(a, b).statistic ** -1 * res.estimate)
    assert res.se > res.unclustered_se


# --------------------------------------------------------- binary: McNemar, Wilson
def test_binary_paired_agrees_with_mid_p_mcnemar_and_bonett_price():
    rng = np.random.default_rng(9)
    a = (rng.random(150) < 0.75).astype(int)
    b = np.where(rng.random(150) < 0.25, 1 - a, a)
    res = paired_item_difference(a, b)
    n10, n01 = int(np.sum((a == 1) & (b == 0))), int(np.sum((a == 0) & (b == 1)))
    n = 150
    # mid-p written out from scipy: exact conditional p minus the observed point probability
    k, m = min(n01, n10), n01 + n10
    midp = stats.binomtest(k, m, 0.5).pvalue - stats.binom.pmf(k, m, 0.5)
    # Bonett & Price (2012) for accuracy_a - accuracy_b = (n10 - n01)/n, written out
    p10, p01 = (n10 + 1) / (n + 2), (n01 + 1) / (n + 2)
    half = Z * math.sqrt((p10 + p01 - (p10 - p01) ** 2) / (n + 2))
    assert res.method == "mcnemar"
    assert res.estimate == pytest.approx((n10 - n01) / n)
    assert res.pvalue == pytest.approx(midp, rel=1e-10)
    assert (res.low, res.high) == pytest.approx((p10 - p01 - half, p10 - p01 + half), rel=1e-10)
    # and with evallib.onetestset._pairwise, as the issue asks
    assert res.pvalue == mcnemar(n01, n10, method="mid-p").pvalue
    ci = paired_difference_interval(Contingency(int(np.sum(a & b)), n01, n10, int(np.sum((1 - a) & (1 - b))), n),
                                    method="bonett_price")
    assert (res.low, res.high) == pytest.approx((-ci.high, -ci.low))
    assert res.reject == (midp <= 0.05)


def test_binary_item_mean_is_wilson_without_clusters():
    scores = np.array([1] * 37 + [0] * 13)
    res = item_mean(scores)
    low, high = proportion_confint(37, 50, alpha=0.05, method="wilson")
    assert res.method == "wilson"
    assert (res.low, res.high) == pytest.approx((low, high), rel=1e-12)
    assert res.se == pytest.approx(math.sqrt(0.74 * 0.26 / 50))
    ones = item_mean(np.ones(20))  # all correct: Wilson keeps a positive width
    assert ones.high == 1.0 and ones.low == pytest.approx(proportion_confint(20, 20, method="wilson")[0])


def test_wilson_with_effective_sample_size_korn_graubard():
    rng = np.random.default_rng(10)
    sizes = [12, 7, 15, 9, 10, 11, 6, 14]
    g = np.repeat(np.arange(8), sizes)
    p_g = rng.beta(2, 8, 8)
    y = (rng.random(g.size) < p_g[g]).astype(float)
    V, df = dense_cr2(y, g)
    p, n_obs = y.mean(), y.size
    n_eff = min(p * (1 - p) / V, n_obs)
    n_adj = n_eff * (Z / stats.t.isf(0.025, df)) ** 2
    low, high = proportion_confint(p * n_adj, n_adj, alpha=0.05, method="wilson")
    res = item_mean(y, clusters=g)
    assert res.method == "wilson" and res.df == pytest.approx(df)
    assert (res.low, res.high) == pytest.approx((low, high), rel=1e-10)
    assert "Effective sample size" in res.note and "Korn–Graubard" in str(res)


def test_two_dimensional_binary_scores_use_wilson_with_effective_n_over_all_answers():
    rng = np.random.default_rng(11)
    y2 = (rng.random((40, 3)) < rng.beta(1, 4, 40)[:, None]).astype(float)
    res = item_mean(y2)
    means = y2.mean(axis=1)
    var = np.var(means, ddof=1) / 40
    p = means.mean()
    n_eff = min(p * (1 - p) / var, 120)
    n_adj = n_eff * (Z / stats.t.isf(0.025, 39)) ** 2
    assert (res.low, res.high) == pytest.approx(proportion_confint(p * n_adj, n_adj, method="wilson"), rel=1e-10)


# ---------------------------------------------------------------- wild bootstrap
def brute_force_wild_p(y, g, mu0):
    """Null-imposed wild cluster bootstrap-t p-value over all 2^G Rademacher sign vectors (CR1 t)."""
    G, N = g.max() + 1, y.size

    def t_cr1(v):
        m = v.mean()
        S = np.bincount(g, v - m, minlength=G)
        return (m - mu0) / (math.sqrt(G / (G - 1) * S @ S) / N)

    t_obs = abs(t_cr1(y))
    t_star = [abs(t_cr1(mu0 + np.array(s)[g] * (y - mu0))) for s in itertools.product((-1, 1), repeat=G)]
    return float(np.mean(np.array(t_star) >= t_obs * (1 - 1e-12)))


def test_wild_bootstrap_pvalue_matches_enumeration_of_all_sign_vectors():
    rng = np.random.default_rng(12)
    sizes = [6, 3, 9, 4, 5, 7, 2, 8]
    a, g = clustered_scores(rng, sizes, mean=0.6)
    b = np.clip(a - 0.06 + rng.normal(0, 0.15, a.size), 0, 1)
    exact = brute_force_wild_p(a - b, g, 0.0)
    B = 20_000
    res = paired_item_difference(a, b, clusters=g, method="wild", bootstrap_weights="rademacher", n_resamples=B, rng=1)
    assert 0.02 < exact < 0.5  # a p-value worth checking
    assert abs(res.pvalue - exact) < 4 * math.sqrt(exact * (1 - exact) / B) + 2 / B
    # the interval is the set of null values the same test does not reject
    d = a - b
    se = res.se
    for bound, inside in ((res.low, +1), (res.high, -1)):
        assert brute_force_wild_p(d, g, bound + inside * 0.02 * se) > 0.05 - 0.01
        assert brute_force_wild_p(d, g, bound - inside * 0.02 * se) <= 0.05 + 0.01


def test_wild_is_reproducible_with_a_seed_and_webb_by_default():
    y, g = clustered_scores(np.random.default_rng(13), [5] * 7)
    r1 = item_mean(y, clusters=g, method="wild", rng=5)
    r2 = item_mean(y, clusters=g, method="wild", rng=np.random.default_rng(5))
    assert (r1.low, r1.high) == (r2.low, r2.high)
    assert r1.low < r1.estimate < r1.high
    assert r1.df == math.inf and r1.method == "wild"


# ------------------------------------------------------------------ item level first
def test_two_dimensional_scores_are_reduced_to_item_means_first():
    rng = np.random.default_rng(14)
    y2 = rng.uniform(0, 1, (30, 4))
    y2[rng.random((30, 4)) < 0.2] = np.nan
    y2[:, 0] = rng.uniform(0, 1, 30)  # every item keeps a sample
    means = pd.DataFrame(y2).mean(axis=1).to_numpy()
    res2, res1 = item_mean(y2), item_mean(means)
    assert res2.n_items == 30
    assert (res2.estimate, res2.se, res2.low, res2.high) == pytest.approx(
        (res1.estimate, res1.se, res1.low, res1.high), rel=1e-12)
    assert res2.n_samples == pytest.approx(np.isfinite(y2).sum() / 30)
    # repeating every answer three times must not shrink the standard error
    tripled = item_mean(np.repeat(y2, 3, axis=1))
    assert tripled.se == pytest.approx(res2.se)


def test_paired_models_may_have_different_numbers_of_samples():
    rng = np.random.default_rng(15)
    a, b = rng.uniform(0, 1, (25, 5)), rng.uniform(0, 1, (25, 2))
    res = paired_item_difference(a, b)
    ref = stats.ttest_rel(a.mean(axis=1), b.mean(axis=1))
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


# -------------------------------------------------------------------- missing items
def test_missing_items_raise_with_a_count_or_are_dropped():
    a = np.array([1, 0, np.nan, 1, 1, 0, 1, np.nan, 1, 0.0])
    b = np.array([0, 0, 1, np.nan, 1, 0, 1, 1, 0, 0.0])
    with pytest.raises(ValueError, match=r"2 items have no score from a and 1 from b \(3 of 10 items"):
        paired_item_difference(a, b)
    res = paired_item_difference(a, b, missing="drop", method="t")
    keep = ~(np.isnan(a) | np.isnan(b))
    ref = stats.ttest_rel(a[keep], b[keep])
    assert res.n_dropped == 3 and res.n_items == 7
    assert res.pvalue == pytest.approx(ref.pvalue)
    assert "Dropped 3 items" in res.note
    with pytest.raises(ValueError, match="no score for 2 of 10 items"):
        item_mean(a)
    assert item_mean(a, missing="drop").n_dropped == 2


def test_dropped_items_take_their_cluster_labels_with_them():
    a = np.array([[1, 0], [np.nan, np.nan], [1, 1], [0, 0], [1, 0], [0, 1], [1, 1], [0, 0.0]])
    g = np.array(["x", "y", "x", "z", "z", "w", "w", "x"])
    res = item_mean(a, clusters=g, missing="drop", method="cr2")
    keep = np.array([0, 2, 3, 4, 5, 6, 7])
    ref = item_mean(a[keep], clusters=g[keep], method="cr2")
    assert res.n_clusters == 3 and (res.se, res.df) == pytest.approx((ref.se, ref.df))


# ------------------------------------------------------------- clusters per model
def test_clusters_given_per_model_must_agree():
    a, b = np.array([1, 0, 1, 1, 0, 1.0]), np.array([0, 0, 1, 0, 0, 1.0])
    g = ["p", "p", "q", "q", "r", "r"]
    same = paired_item_difference(a, b, clusters=(g, list(g)))
    assert same.se == paired_item_difference(a, b, clusters=g).se
    assert paired_item_difference(a, b, clusters={"a": g, "b": g}).df == same.df
    with pytest.raises(ValueError, match=r"disagree on 2 of 6 items \(first at item 4"):
        paired_item_difference(a, b, clusters=(g, ["p", "p", "q", "q", "s", "s"]))


# ------------------------------------------------------------------ degenerate input
def test_degenerate_inputs_have_documented_answers():
    flat = item_mean([0.4] * 10, clusters=[1] * 5 + [2] * 5, method="cr2")
    assert flat.se == 0 and flat.low == flat.high == pytest.approx(0.4)
    one = item_mean([0.2, 0.5, 0.7, 0.1], clusters=["s"] * 4, method="cr2")
    assert one.se == math.inf and (one.low, one.high) == (0.0, 1.0) and one.df == 0
    assert "one cluster" in one.note
    same = paired_item_difference([0.3, 0.6, 0.9], [0.3, 0.6, 0.9])
    assert same.estimate == 0 and same.pvalue == 1 and same.low == same.high == 0
    shifted = paired_item_difference([0.3, 0.6, 0.9], [0.2, 0.5, 0.8])
    assert shifted.statistic == math.inf and shifted.pvalue == 0 and shifted.reject
    tie = paired_item_difference([1, 0, 1], [1, 0, 1])  # McNemar with b = c = 0
    assert tie.method == "mcnemar" and tie.pvalue == 1 and tie.low < 0 < tie.high
    const = paired_item_difference([1, 1, 1, 1], [1, 0, 1, 0], method="t")
    assert const.correlation == 0.0  # undefined with a constant model: documented as 0


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: paired_item_difference([1, 0, 1], [1, 0]), ValueError, "a has 3 items but b has 2"),
        (lambda: item_mean(["a", "b"]), TypeError, "scores must hold numbers"),
        (lambda: item_mean([0.5, "x"]), TypeError, "scores must hold numbers"),
        (lambda: item_mean([0.5, 1.5, 0.2]), ValueError, r"in \[0, 1\]; 1 values lie outside, e.g. 1.5"),
        (lambda: item_mean([0.5, -0.1]), ValueError, "outside"),
        (lambda: item_mean([0.5, np.inf]), ValueError, "finite"),
        (lambda: item_mean(np.zeros((2, 2, 2))), ValueError, "1-D .* or 2-D"),
        (lambda: item_mean([]), ValueError, "at least one item"),
        (lambda: item_mean(0.5), TypeError, "scores must be an array"),
        (lambda: item_mean([[1, 0], [1]]), ValueError, "rectangular"),
        (lambda: item_mean([0.5]), ValueError, "at least 2 scored items"),
        (lambda: item_mean([0.1, 0.2, 0.3], clusters=[1, 2]), ValueError, "2 labels for 3 items"),
        (lambda: item_mean([0.1, 0.2, 0.3], clusters=[1, None, 2]), ValueError, "clusters must not contain NaN"),
        (lambda: item_mean([0.1, 0.2], method="bogus"), ValueError, "method must be one of"),
        (lambda: item_mean([0.1, 0.2], method="wilson"), ValueError, "method='wilson' needs 0/1 scores"),
        (lambda: item_mean([0.1, 0.2], alpha=1.5), ValueError, "alpha must lie in the open interval"),
        (lambda: item_mean([0.1, 0.2], missing="ignore"), ValueError, "missing must be one of"),
        (lambda: item_mean([0.1, 0.2], method="wild", n_resamples=10), ValueError, "n_resamples must be a whole number >= 99"),
        (lambda: item_mean([0.1, 0.2], method="wild", rng=-1), ValueError, "rng must be"),
        (lambda: paired_item_difference([0.2, 0.4], [0.1, 0.3], method="mcnemar"), ValueError, "one 0/1 score"),
        (lambda: paired_item_difference([1, 0, 1], [0, 0, 1], clusters=[1, 1, 2], method="mcnemar"), ValueError,
         "with clusters use method='cr2'"),
        (lambda: paired_item_difference([1, 0], [0, 1], clusters={"a": [1, 2]}), TypeError, "not a mapping"),
        (lambda: variance_components([0.1, 0.2]), ValueError, "scores_2d must be 2-D"),
        (lambda: variance_components([[0.1], [0.2]]), ValueError, "two or more samples"),
        (lambda: variance_components([[0.1, np.nan], [np.nan, np.nan], [0.2, 0.3]]), ValueError, "no sample for 1"),
    ],
)
def test_bad_input_is_one_sentence_naming_the_argument(call, exc, match):
    with pytest.raises(exc, match=match) as info:
        call()
    assert "\n" not in str(info.value)


# ---------------------------------------------------------------- results
def test_results_are_frozen_and_print_one_sentence():
    y, g = clustered_scores(np.random.default_rng(16), [10] * 6)
    res = item_mean(y, clusters=g)
    assert isinstance(res, ItemMean)
    with pytest.raises(AttributeError):
        res.estimate = 0.0
    text = str(res)
    assert "\n" not in text and f"{res.estimate:.3f}" in text and "60 items in 6 clusters" in text
    assert "Bell–McCaffrey" in text and "ignoring the clusters" in text
    assert res.width == res.high - res.low and res.contains(res.estimate)
    diff = paired_item_difference(y, np.clip(y - 0.05, 0, 1), clusters=g)
    assert isinstance(diff, PairedItemDifference)
    assert "ignoring the pairing" in str(diff) and "\n" not in str(diff)
    assert set(ITEM_MEAN_METHODS) - {"auto"} <= set(PAIRED_ITEM_METHODS) | {"wilson"}


# ------------------------------------------------------------- variance components
def long_format(y2):
    n, k = y2.shape
    df = pd.DataFrame({"item": np.repeat(np.arange(n), k), "y": y2.ravel()})
    return df.dropna()


def test_variance_components_match_one_way_anova_unbalanced():
    rng = np.random.default_rng(17)
    y2 = np.clip(rng.normal(0.6, 0.15, (40, 1)) + rng.normal(0, 0.2, (40, 6)), 0, 1)
    y2[rng.random((40, 6)) < 0.3] = np.nan
    y2[:, 0] = 0.5  # every item keeps at least one sample
    long = long_format(y2)
    table = sm.stats.anova_lm(smf.ols("y ~ C(item)", data=long).fit())
    msb, msw = table.loc["C(item)", "mean_sq"], table.loc["Residual", "mean_sq"]
    k_i = long.groupby("item").size().to_numpy()
    N, n = k_i.sum(), k_i.size
    k0 = (N - (k_i ** 2).sum() / N) / (n - 1)  # Searle, Casella & McCulloch (1992), eq. 3.83
    vc = variance_components(y2)
    assert vc.within == pytest.approx(msw, rel=1e-10)
    assert vc.between == pytest.approx((msb - msw) / k0, rel=1e-10)
    assert vc.samples == pytest.approx(N / n)
    assert vc.var_mean == pytest.approx((vc.between + vc.within * np.mean(1 / k_i)) / n)


def test_negative_between_share_is_kept_as_icc_raw_against_statsmodels_anova():
    """Items that differ less than their answers' noise: icc is 0, icc_raw the ANOVA estimate below 0."""
    rng = np.random.default_rng(23)
    y2 = (rng.random((30, 5)) < 0.6).astype(float)   # every item the same chance: the true share is 0
    y2[rng.random((30, 5)) < 0.2] = np.nan
    y2[:, 0] = rng.random(30) < 0.6
    long = long_format(y2)
    table = sm.stats.anova_lm(smf.ols("y ~ C(item)", data=long).fit())
    msb, msw = table.loc["C(item)", "mean_sq"], table.loc["Residual", "mean_sq"]
    k_i = long.groupby("item").size().to_numpy()
    N, n = k_i.sum(), k_i.size
    k0 = (N - (k_i ** 2).sum() / N) / (n - 1)
    assert msb < msw                                  # the seed gives a negative estimate
    vc = variance_components(y2)
    assert vc.truncated and vc.between == 0 and vc.icc == 0
    assert vc.icc_raw == pytest.approx((msb - msw) / (msb + (k0 - 1) * msw), rel=1e-10)
    assert -1 / (k0 - 1) <= vc.icc_raw < 0
    untruncated = variance_components(np.clip(rng.normal(0.5, 0.2, (30, 1)) + rng.normal(0, 0.1, (30, 4)), 0, 1))
    assert not untruncated.truncated and untruncated.icc_raw == untruncated.icc > 0


def test_variance_components_balanced_match_f_oneway_and_reml():
    rng = np.random.default_rng(18)
    n, k = 60, 4
    y2 = np.clip(rng.normal(0.5, 0.12, (n, 1)) + rng.normal(0, 0.15, (n, k)), 0, 1)
    vc = variance_components(y2)
    F = stats.f_oneway(*y2).statistic  # groups are the items
    assert (vc.between * k + vc.within) / vc.within == pytest.approx(F, rel=1e-10)
    mixed = smf.mixedlm("y ~ 1", long_format(y2), groups="item").fit(reml=True)
    assert vc.between == pytest.approx(float(mixed.cov_re.iloc[0, 0]), rel=1e-3)
    assert vc.within == pytest.approx(mixed.scale, rel=1e-3)
    # balanced and untruncated: the variance of the mean is s^2 / n of the item means
    assert vc.var_mean == pytest.approx(np.var(y2.mean(axis=1), ddof=1) / n, rel=1e-10)
    tab = vc.table()
    assert tab["samples"].tolist() == [1, 2, 4, 8, 16]
    assert tab.loc[tab["samples"] == k, "var_mean"].item() == pytest.approx(vc.var_mean)
    assert tab["se"].is_monotonic_decreasing
    assert (tab["se"] > math.sqrt(vc.between / n)).all()


def test_variance_components_table_and_sentence():
    rng = np.random.default_rng(19)
    vc = variance_components((rng.random((30, 3)) < rng.beta(2, 2, 30)[:, None]).astype(float))
    assert vc.variance_of_mean(5) == pytest.approx((vc.between + vc.within / 5) / 30)
    tab = vc.table(samples=[3, 12])
    assert tab["within_share"].tolist() == pytest.approx([vc.within / k / (vc.between + vc.within / k)
                                                          for k in (3, 12)])
    assert tab["relative_se"].iloc[0] == pytest.approx(1.0)  # K = 3 is what was observed
    text = str(vc)
    assert "\n" not in text and "30 items" in text and f"{vc.se:.4f}" in text
    with pytest.raises(ValueError, match="samples must be a whole number >= 1"):
        vc.table(samples=[0])


def test_negative_between_estimate_is_truncated_and_said():
    y2 = np.array([[1, 0], [0, 1], [1, 0], [0, 1], [1, 0.0]])  # every item mean 0.5
    vc = variance_components(y2)
    assert vc.truncated and vc.between == 0 and vc.icc == 0
    assert "truncated at 0" in vc.note and "truncated at 0" in str(vc)
    # the share before the truncation: (MSB - MSW) / (MSB + (K - 1) MSW) = (0 - 0.5) / (0 + 0.5), the bound -1/(K-1)
    assert vc.icc_raw == pytest.approx(-1.0)
    flat = variance_components(np.full((4, 3), 0.7))
    assert math.isnan(flat.icc_raw) and math.isnan(flat.icc) and not flat.truncated   # no variance to split
    assert (flat.between, flat.within, flat.se) == pytest.approx((0, 0, 0), abs=1e-15)


def test_clustered_floor_matches_the_variance_of_the_true_scores_mean_by_simulation():
    """With passages, no number of samples per item brings the SE below the clustered floor.

    Monte Carlo: 30 passages of 11 items, K = 3 answers each, true scores
    ``0.6 + u_passage + b_item`` (sd 0.08 and 0.10). The average estimated ``var_floor`` must match
    the variance, over the simulated evaluations, of the mean of the items' true scores (the SE
    with infinitely many answers), within 4 Monte Carlo standard errors; the unclustered floor
    ``between / n`` (all that describe() gave before) is far below it.
    """
    rng = np.random.default_rng(33)
    G, m, K, R = 30, 11, 3, 300
    passage = np.repeat(np.arange(G), m)
    floors, plain, true_means = [], [], []
    for _ in range(R):
        p = np.clip(0.6 + rng.normal(0, 0.08, G)[passage] + rng.normal(0, 0.10, G * m), 0, 1)
        y = (rng.random((G * m, K)) < p[:, None]).astype(float)
        vc = variance_components(y, clusters=passage)
        floors.append(vc.var_floor)
        plain.append(vc.between / vc.n_items)
        true_means.append(p.mean())
        noise = vc.within * vc.inverse_samples / vc.n_items
        clustered = item_mean(y, clusters=passage, method="cr2").se ** 2
        assert vc.var_floor == pytest.approx(max(clustered - noise, 0.0), abs=1e-15)
    target = float(np.var(true_means, ddof=1))
    mc_se = math.hypot(np.std(floors, ddof=1) / math.sqrt(R), target * math.sqrt(2 / (R - 1)))
    assert abs(np.mean(floors) - target) < 4 * mc_se
    assert np.mean(plain) < 0.3 * target


def test_clustered_describe_says_the_clustered_floor_and_singletons_change_nothing():
    rng = np.random.default_rng(8)
    passage = np.repeat(np.arange(12), 5)
    p = np.clip(0.55 + rng.normal(0, 0.12, 12)[passage] + rng.normal(0, 0.08, 60), 0, 1)
    y = (rng.random((60, 4)) < p[:, None]).astype(float)
    plain = variance_components(y)
    vc = variance_components(y, clusters=passage)
    # the between/within components do not depend on the clusters; only what more samples cannot remove
    assert (vc.between, vc.within, vc.icc) == (plain.between, plain.within, plain.icc)
    assert vc.n_clusters == 12 and plain.n_clusters is None
    assert vc.var_floor > plain.var_floor == pytest.approx(plain.between / 60)
    assert vc.variance_of_mean(10) == pytest.approx(vc.var_floor + vc.within / 10 / 60)
    assert vc.table([1_000_000])["se"].iloc[0] == pytest.approx(math.sqrt(vc.var_floor), rel=1e-4)
    text = vc.describe()
    assert f"below {math.sqrt(vc.var_floor):.4f}" in text and f"below {math.sqrt(plain.between / 60):.4f}" not in text
    assert "in 12 clusters" in text and f"clustered SE of the mean {vc.se:.4f}" in text
    # one item per cluster, balanced: CR2 is HC2 = s^2/n = MSB/(K n), the unclustered formula exactly
    single = variance_components(y, clusters=np.arange(60))
    assert single.var_floor == pytest.approx(plain.var_floor, rel=1e-10)
    assert single.se == pytest.approx(plain.se, rel=1e-10)
    # clusters pair with pandas scores by index
    frame = pd.DataFrame(y, index=[f"q{i}" for i in range(60)])
    shuffled = pd.Series(passage, index=frame.index).sample(frac=1, random_state=2)
    assert variance_components(frame, clusters=shuffled).var_floor == pytest.approx(vc.var_floor, rel=1e-12)
    with pytest.raises(ValueError, match="^clusters lacks 1 of the 60 items scored by scores_2d"):
        variance_components(frame, clusters=shuffled.rename({"q0": "other"}))


# ------------------------------------------------------------------ pandas inputs pair by index
def test_pandas_inputs_are_paired_by_their_index_not_by_position():
    """A shuffled Series with the same labels is the same data: the paired t-test of scipy on the
    items matched by label, not the unpaired-looking SE a positional pairing of shuffled rows gives."""
    rng = np.random.default_rng(33)
    n = 300
    skill = rng.random(n)
    a_vals = (skill + 0.1 * rng.standard_normal(n) > 0.45).astype(float)   # items hard for both
    b_vals = (skill + 0.1 * rng.standard_normal(n) > 0.5).astype(float)
    ids = [f"q{i}" for i in range(n)]
    a = pd.Series(a_vals, index=ids)
    b = pd.Series(b_vals, index=ids).sample(frac=1, random_state=4)        # same labels, shuffled rows
    passage = pd.Series(np.repeat(np.arange(30), 10), index=ids).sample(frac=1, random_state=5)
    res = paired_item_difference(a, b, method="t")
    ref = stats.ttest_rel(a_vals, b_vals)
    assert res.estimate == pytest.approx(np.mean(a_vals - b_vals))
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert res.se == pytest.approx(np.std(a_vals - b_vals, ddof=1) / math.sqrt(n), rel=1e-12)
    # positionally the shuffled rows would pair item i of a with another item of b: a larger SE
    wrong = np.std(a_vals - b.to_numpy(), ddof=1) / math.sqrt(n)
    assert wrong > 1.3 * res.se
    clustered = paired_item_difference(a, b, clusters=passage, method="cr2")
    by_position = paired_item_difference(a_vals, b_vals, clusters=np.repeat(np.arange(30), 10), method="cr2")
    assert clustered.se == pytest.approx(by_position.se, rel=1e-12) and clustered.df == pytest.approx(by_position.df)
    # item_mean pairs the scores with their clusters the same way
    one = item_mean(a, clusters=passage, method="cr2")
    assert one.se == pytest.approx(item_mean(a_vals, clusters=np.repeat(np.arange(30), 10), method="cr2").se)
    frame = pd.DataFrame({"s1": a_vals, "s2": b_vals}, index=ids)
    two_d = item_mean(frame, clusters=passage, method="cr2")
    assert two_d.se == pytest.approx(
        item_mean(frame.to_numpy(), clusters=np.repeat(np.arange(30), 10), method="cr2").se, rel=1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: paired_item_difference(pd.Series([1, 0, 1], index=list("xyz")), pd.Series([1, 0, 0], index=list("xyw"))),
     r"^b lacks 1 of the 3 items scored by a \(e.g. 'z'\); pandas inputs are paired by their index"),
    (lambda: paired_item_difference(pd.Series([1, 0, 1], index=list("xyz")), pd.Series([1, 0, 0, 1], index=list("xyzw"))),
     r"^b scores 1 items that a does not \(e.g. 'w'\)"),
    (lambda: paired_item_difference(pd.Series([1, 0, 1], index=list("xyx")), pd.Series([1, 0, 0], index=list("xyz"))),
     r"^a has 1 item ids that appear more than once in its index \(e.g. 'x'\)"),
    (lambda: paired_item_difference(pd.Series([1, 0, 1, 1], index=list("wxyz")),
                                    pd.Series([1, 0, 0, 1], index=list("zyxw")), clusters=[1, 1, 2, 2]),
     r"^clusters is a plain sequence, paired by position, but b lists its items in another order than a"),
    (lambda: item_mean(pd.Series([1, 0, 1], index=list("xyz")), clusters=pd.Series([1, 1, 2], index=list("xyw"))),
     r"^clusters lacks 1 of the 3 items scored by scores"),
])
def test_pandas_indexes_that_differ_are_refused_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()
