"""Tests of evallib.items._passk against independent references.

References: the definitions themselves, by brute force over every k-subset of the n
samples (itertools.combinations); exact integer binomial coefficients (math.comb, whose
ratio Python rounds correctly); Chen et al.'s (2021) numpy code, Figure 3, copied out;
the exact expectation over c ~ Binomial(n, p) (unbiasedness); statsmodels' DescrStatsW
and its cluster-robust OLS for the standard errors and intervals; and coverage by
simulation against closed-form truths (Beta moments), with its Monte Carlo SE.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats
from scipy.special import beta as beta_fn
from statsmodels.stats.weightstats import DescrStatsW

from _references import cr2_dense as _cr2_dense

from evallib.items._passk import PassAtK, pass_at_k, unbiased_pass_at_k, unbiased_pass_hat_k


# ------------------------------------------------------------------ the estimators
def _brute_force(n: int, c: int, k: int) -> tuple[float, float]:
    """Share of the k-subsets of n samples (c of them correct) with >= 1 correct, with all correct."""
    correct = [1] * c + [0] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    any_ok = sum(any(correct[i] for i in s) for s in subsets)
    all_ok = sum(all(correct[i] for i in s) for s in subsets)
    return any_ok / len(subsets), all_ok / len(subsets)


@pytest.mark.parametrize("n", range(1, 9))
def test_both_estimators_equal_the_brute_force_over_subsets(n):
    for k in range(1, n + 1):
        cs = np.arange(n + 1)
        ref = np.array([_brute_force(n, int(c), k) for c in cs])
        assert unbiased_pass_at_k(n, cs, k) == pytest.approx(ref[:, 0], abs=1e-13)
        assert unbiased_pass_hat_k(n, cs, k) == pytest.approx(ref[:, 1], abs=1e-13)


def _chen_figure_3(n: int, c: int, k: int) -> float:
    """Chen et al. (2021), Figure 3, as printed."""
    if n - c < k:
        return 1.0
    return 1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1))


@pytest.mark.parametrize("k", [1, 10, 100, 500, 999])
def test_large_n_matches_exact_integer_binomials_and_chens_code(k):
    """n = 1000: C(1000, 500) overflows a float, the products must not."""
    n = 1000
    cs = np.array([0, 1, 2, 5, 100, 499, 500, 501, 900, 998, 999, 1000])
    ours = unbiased_pass_at_k(n, cs, k)
    hat = unbiased_pass_hat_k(n, cs, k)
    for c, o, h in zip(cs.tolist(), ours, hat):
        exact_fail = math.comb(n - c, k) / math.comb(n, k)    # int / int: correctly rounded
        exact_all = math.comb(c, k) / math.comb(n, k)
        assert o == pytest.approx(1.0 - exact_fail, rel=1e-11, abs=1e-300)
        assert o == pytest.approx(_chen_figure_3(n, c, k), rel=1e-11)
        assert h == pytest.approx(exact_all, rel=1e-10, abs=1e-300)



def test_items_with_different_n_are_each_computed_with_their_own_n():
    n = np.array([3, 10, 50, 10, 3])
    c = np.array([1, 4, 7, 0, 3])
    k = 2
    ref = [1 - math.comb(a - b, k) / math.comb(a, k) for a, b in zip(n.tolist(), c.tolist())]
    ref_hat = [math.comb(b, k) / math.comb(a, k) for a, b in zip(n.tolist(), c.tolist())]
    assert unbiased_pass_at_k(n, c, k) == pytest.approx(ref, abs=1e-14)
    assert unbiased_pass_hat_k(n, c, k) == pytest.approx(ref_hat, abs=1e-14)


@pytest.mark.parametrize("p", [0.03, 0.3, 0.8])
def test_unbiased_over_the_binomial_distribution_of_c_and_the_plug_in_is_not(p):
    """sum_c P(c) est(c) = 1 - (1 - p)^k and p^k exactly (the test would catch a biased formula)."""
    n, k = 20, 5
    cs = np.arange(n + 1)
    pmf = stats.binom.pmf(cs, n, p)
    assert pmf @ unbiased_pass_at_k(n, cs, k) == pytest.approx(1 - (1 - p) ** k, abs=1e-12)
    assert pmf @ unbiased_pass_hat_k(n, cs, k) == pytest.approx(p ** k, abs=1e-12)
    plug_in = pmf @ (1 - (1 - cs / n) ** k)
    assert plug_in < 1 - (1 - p) ** k - 1e-4   # biased low


def test_k_equal_1_is_the_share_correct():
    c = np.array([0, 3, 7, 10])
    assert unbiased_pass_at_k(10, c, 1) == pytest.approx(c / 10)
    assert unbiased_pass_hat_k(10, c, 1) == pytest.approx(c / 10)


# ------------------------------------------------------------------ standard errors
def test_unclustered_interval_is_statsmodels_t_interval_of_the_item_values():
    rng = np.random.default_rng(0)
    n = rng.integers(8, 15, 40)
    c = rng.binomial(n, rng.beta(3, 2, 40))
    res = pass_at_k(n, c, 3, alpha=0.1)
    for est, values in ((res, [1 - math.comb(a - b, 3) / math.comb(a, 3) for a, b in zip(n, c)]),
                        (res.pass_hat_k, [math.comb(b, 3) / math.comb(a, 3) for a, b in zip(n, c)])):
        d = DescrStatsW(np.array(values))
        low, high = d.tconfint_mean(alpha=0.1)
        assert est.estimate == pytest.approx(d.mean, abs=1e-12)
        assert est.se == pytest.approx(d.std_mean, rel=1e-10)
        assert (est.low, est.high) == pytest.approx((max(0, low), min(1, high)), rel=1e-10)
    assert (res.df, res.n_items, res.n_clusters, res.k, res.alpha) == (39, 40, None, 3, 0.1)


def test_clustered_interval_is_the_cr2_error_written_out():
    rng = np.random.default_rng(1)
    sizes = rng.integers(1, 9, 25)            # unequal clusters, some of one item
    labels = np.repeat([f"passage-{g}" for g in range(25)], sizes)
    n_items = labels.size
    c = rng.binomial(10, np.repeat(rng.beta(2, 2, 25), sizes))
    res = pass_at_k(10, c, 4, clusters=labels, alpha=0.05)
    for est, values in ((res, unbiased_pass_at_k(10, c, 4)), (res.pass_hat_k, unbiased_pass_hat_k(10, c, 4))):
        se, df = _cr2_dense(values, labels)
        half = stats.t.isf(0.025, df) * se
        assert est.se == pytest.approx(se, rel=1e-9)
        assert (est.low, est.high) == pytest.approx((max(0, values.mean() - half), min(1, values.mean() + half)),
                                                    rel=1e-9)
        assert res.df == pytest.approx(df, rel=1e-9)
    assert res.df < 24 and res.n_clusters == 25 and res.n_items == n_items


def test_with_equal_clusters_the_error_is_statsmodels_cluster_robust_ols():
    """With clusters of equal size CR2 equals CR1 for a constant, and its df is G - 1."""
    from statsmodels.regression.linear_model import OLS

    rng = np.random.default_rng(2)
    labels = np.repeat(np.arange(10), 6)
    c = rng.binomial(10, np.repeat(rng.beta(2, 2, 10), 6))
    values = unbiased_pass_at_k(10, c, 2)
    res = pass_at_k(10, c, 2, clusters=labels)
    fit = OLS(values, np.ones(values.size)).fit(cov_type="cluster", cov_kwds={"groups": labels}, use_t=True)
    assert res.se == pytest.approx(fit.bse[0], rel=1e-10) and res.df == pytest.approx(9, rel=1e-12)
    assert (res.low, res.high) == pytest.approx(tuple(fit.conf_int(alpha=0.05)[0]), rel=1e-9)


def test_with_equal_cluster_sizes_the_error_is_bell_mccaffreys_cr2():
    """CR2 written out with matrices (Bell & McCaffrey 2002): (X'X)^-1 sum_g X_g' A_g e_g e_g' A_g X_g
    (X'X)^-1 with A_g = (I - H_gg)^(-1/2); for a constant and equal clusters it is the CR1 error."""
    from scipy.linalg import fractional_matrix_power

    rng = np.random.default_rng(5)
    labels = np.repeat(np.arange(12), 4)
    c = rng.binomial(8, np.repeat(rng.beta(2, 2, 12), 4))
    values = unbiased_pass_at_k(8, c, 3)
    x = np.ones((values.size, 1))
    resid = values - values.mean()
    bread = np.linalg.inv(x.T @ x)
    meat = np.zeros((1, 1))
    for g in range(12):
        rows = labels == g
        h = x[rows] @ bread @ x[rows].T
        a = fractional_matrix_power(np.eye(rows.sum()) - h, -0.5).real
        u = x[rows].T @ a @ resid[rows]
        meat += np.outer(u, u)
    cr2 = math.sqrt((bread @ meat @ bread)[0, 0])
    assert pass_at_k(8, c, 3, clusters=labels).se == pytest.approx(cr2, rel=1e-10)


def test_one_item_per_cluster_gives_the_unclustered_interval():
    rng = np.random.default_rng(2)
    c = rng.binomial(12, 0.4, 30)
    plain = pass_at_k(12, c, 2)
    singletons = pass_at_k(12, c, 2, clusters=np.arange(30)[::-1])
    assert singletons.se == pytest.approx(plain.se, rel=1e-12)
    assert (singletons.low, singletons.high) == pytest.approx((plain.low, plain.high), rel=1e-12)


def test_intervals_are_clipped_to_0_1():
    """Three items, one solved: the t interval (2 df) reaches below 0 and is clipped there."""
    res = pass_at_k(4, [0, 0, 4], 2)
    d = DescrStatsW(np.array([0.0, 0.0, 1.0]))
    raw_low, raw_high = d.tconfint_mean(alpha=0.05)
    assert raw_low < 0 and res.low == 0.0 and res.high == pytest.approx(min(1.0, raw_high))


def test_degenerate_input_has_a_defined_answer():
    """Every item gives the same value: zero spread, a point interval, no NaN."""
    res = pass_at_k([5, 5, 5], [5, 5, 5], 3)
    assert (res.estimate, res.se, res.low, res.high) == (1.0, 0.0, 1.0, 1.0)
    assert (res.pass_hat_k.estimate, res.pass_hat_k.low) == (1.0, 1.0)
    res = pass_at_k(6, [0, 0, 0, 0], 6)
    assert (res.estimate, res.low, res.high, res.pass_hat_k.high) == (0.0, 0.0, 0.0, 0.0)


# ------------------------------------------------------------------ coverage
def test_coverage_of_the_unclustered_t_interval_by_simulation():
    """100 items with p ~ Beta(2, 2), 10 answers, k = 3; truth 1 - B(2, 5)/B(2, 2) and B(5, 2)/B(2, 2).

    2,000 simulated benchmarks: MC SE of a 95% coverage = sqrt(0.95 * 0.05 / 2000) = 0.0049;
    both coverages must lie within 3 MC SE of 0.95.
    """
    rng = np.random.default_rng(3)
    reps, n_items, n, k = 2000, 100, 10, 3
    truth = 1 - beta_fn(2, 2 + k) / beta_fn(2, 2)
    truth_hat = beta_fn(2 + k, 2) / beta_fn(2, 2)
    hits = np.zeros(2)
    for _ in range(reps):
        c = rng.binomial(n, rng.beta(2, 2, n_items))
        r = pass_at_k(n, c, k)
        hits += [r.contains(truth), r.pass_hat_k.contains(truth_hat)]
    mc_se = math.sqrt(0.95 * 0.05 / reps)
    assert np.all(np.abs(hits / reps - 0.95) <= 3 * mc_se), hits / reps


def test_coverage_with_clusters_and_the_unclustered_interval_fails_there():
    """40 clusters of 5 items; a cluster is easy (p ~ Beta(4, 1)) or hard (Beta(1, 4)) with
    probability 1/2, so items of a cluster are alike. Truth: the average of the two Beta moments.

    The clustered interval covers within 3 MC SE (0.0049 at 2,000 runs) of 0.95; the interval
    that ignores the clusters covers far less (below 0.85).
    """
    rng = np.random.default_rng(4)
    reps, n_clusters, size, n, k = 2000, 40, 5, 10, 3
    truth = 0.5 * ((1 - beta_fn(1, 4 + k) / beta_fn(1, 4)) + (1 - beta_fn(4, 1 + k) / beta_fn(4, 1)))
    truth_hat = 0.5 * (beta_fn(1 + k, 4) / beta_fn(1, 4) + beta_fn(4 + k, 1) / beta_fn(4, 1))
    labels = np.repeat(np.arange(n_clusters), size)
    hits = np.zeros(3)
    for _ in range(reps):
        easy = np.repeat(rng.random(n_clusters) < 0.5, size)
        p = rng.beta(np.where(easy, 4, 1), np.where(easy, 1, 4))
        c = rng.binomial(n, p)
        r = pass_at_k(n, c, k, clusters=labels)
        naive = pass_at_k(n, c, k)
        hits += [r.contains(truth), r.pass_hat_k.contains(truth_hat), naive.contains(truth)]
    cover = hits / reps
    mc_se = math.sqrt(0.95 * 0.05 / reps)
    assert abs(cover[0] - 0.95) <= 3 * mc_se and abs(cover[1] - 0.95) <= 3 * mc_se, cover
    assert cover[2] < 0.85, cover


# ------------------------------------------------------------------ results and messages
def test_result_type_and_sentence():
    res = pass_at_k(10, [2, 5, 9, 10, 0, 3], 2, clusters=["a", "a", "b", "b", "c", "c"])
    assert isinstance(res, PassAtK)
    text = str(res)
    assert text == res.describe() and text.count(".") >= 1 and "\n" not in text
    assert text.startswith(f"pass@2 = {res.estimate:.3f} (95% interval")
    assert "6 items in 3 clusters" in text and "2 df" in text and "pass^2 (all 2 correct)" in text
    assert res.width == pytest.approx(res.high - res.low)
    with pytest.raises(AttributeError):
        res.estimate = 0.5


@pytest.mark.parametrize("call, exc, message", [
    (lambda: pass_at_k(5, [1, 2], 6), ValueError, "^k must not exceed n"),
    (lambda: pass_at_k([5, 3], [1, 2], 4), ValueError, "^k must not exceed n.*item 1"),
    (lambda: pass_at_k(5, [1, 6], 2), ValueError, "^c must not exceed n.*item 1"),
    (lambda: pass_at_k(5, [1, -1], 2), ValueError, "^c must hold whole numbers >= 0"),
    (lambda: pass_at_k(-5, [1, 1], 2), ValueError, "^n must be a whole number >= 0"),
    (lambda: pass_at_k(5, [1, 2.5], 2), ValueError, "^c must hold whole numbers >= 0.*2.5"),
    (lambda: pass_at_k(5.5, [1, 2], 2), ValueError, "^n must be a whole number"),
    (lambda: pass_at_k(5, [1, np.nan], 2), ValueError, "^c must hold whole numbers"),
    (lambda: pass_at_k(5, [1, 2], 2.5), ValueError, "^k must be a whole number >= 1"),
    (lambda: pass_at_k(5, [1, 2], 0), ValueError, "^k must be a whole number >= 1"),
    (lambda: pass_at_k(5, ["a", "b"], 2), TypeError, "^c must hold whole numbers"),
    (lambda: pass_at_k(5, [True, False], 2), TypeError, "^c must hold whole numbers"),
    (lambda: pass_at_k(True, [1, 0], 1), TypeError, "^n must be a whole number"),
    (lambda: pass_at_k(5, "3", 2), TypeError, "^c must be a whole number"),
    (lambda: pass_at_k([5, 5, 5], [1, 2], 2), ValueError, "^n and c must have the same length"),
    (lambda: pass_at_k(5, [], 2), ValueError, "^c must hold at least one item"),
    (lambda: pass_at_k(5, [[1, 2]], 2), ValueError, "^c must be a number or a one-dimensional"),
    (lambda: pass_at_k(5, 2, 2), ValueError, "^n and c must describe at least 2 items"),
    (lambda: pass_at_k(5, [1, 2, 3], 2, clusters=[0, 1]), ValueError, "^clusters must hold one label per item"),
    (lambda: pass_at_k(5, [1, 2, 3], 2, clusters=[0, 0, 0]), ValueError, "^clusters must hold at least 2"),
    (lambda: pass_at_k(5, [1, 2, 3], 2, clusters=[0, None, 1]), ValueError, "^clusters must not contain NaN"),
    (lambda: pass_at_k(5, [1, 2, 3], 2, alpha=1.5), ValueError, "^alpha must lie in the open interval"),
    (lambda: unbiased_pass_hat_k(5, [1, 2], 9), ValueError, "^k must not exceed n"),
])
def test_bad_input_is_one_sentence_naming_the_argument(call, exc, message):
    with pytest.raises(exc, match=message) as info:
        call()
    assert "\n" not in str(info.value)
