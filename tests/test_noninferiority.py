"""Non-inferiority and equivalence for paired comparisons (issue 35, item 3).

References, none of them this library's own output:

- Tango's (1998) worked example (44 cases, one discordant) and Fagerland, Lydersen & Laake's
  (2014) Bentur et al. table: the score intervals printed there (-0.096 to 0.037 at 90%;
  -0.517 to -0.026 at 95%, both as reproduced by the R package ratesci's tests). A margin
  test rejects exactly when the matching one-sided bound lies inside the margin, so at a
  margin equal to a printed bound the p-value is the bound's tail, to the printed rounding.
- Tango's score statistic rewritten here with the restricted MLE found by a numerical
  optimiser (not the closed form), and the test's exact size by brute-force enumeration with
  ``scipy.stats.multinomial``.
- statsmodels' ``ttost_paired`` and ``TTestPower`` for the unclustered scores; the library's
  CR2 standard error (tested against statsmodels in test_items_means.py) for the clustered ones.
- Seeded Monte Carlo, with its standard error stated, for the scores' type I error at the margin,
  the coverage of the intervals and the power at a planned sample size.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import evallib
from evallib import (
    MARGIN_HYPOTHESES,
    item_margin_power,
    item_margin_sample_size,
    paired_difference_interval,
    paired_item_difference,
    paired_item_margin_test,
    tango_power,
    tango_sample_size,
    tango_test,
)
from evallib.onetestset import Contingency


# ------------------------------------------------ Tango's score statistic, written again
# the restricted MLE by a bounded optimiser and the score from it, as test_paired_intervals checks them
from _references import restricted_mle_numerical as _restricted_mle  # noqa: E402
from _references import tango_score_numerical as _numerical_score  # noqa: E402


def _score(b, c, n, delta):
    return _numerical_score(delta, b, c, n)


# ------------------------------------------------------------- the binary test: printed numbers
def test_tango_example_printed_interval_and_margin():
    """Tango (1998): b = 1 (the new procedure's extra miss), c = 0, n = 44; the 90% score interval
    is printed as (-0.037, 0.096) for new minus standard. At alpha = 0.05 the one-sided upper
    bound is 0.096, so the new procedure is no worse by 0.10 but not by 0.09."""
    res = tango_test(1, 0, 44, margin=0.10)
    assert round(res.high, 3) == 0.096 and res.low == -1.0 and res.reject
    assert not tango_test(1, 0, 44, margin=0.09).reject
    eq = tango_test(1, 0, 44, margin=0.10, hypothesis="equivalence")
    assert (round(eq.low, 3), round(eq.high, 3)) == (-0.037, 0.096) and eq.reject
    # at a margin equal to the printed bound the p-value is alpha, to the printed rounding
    assert tango_test(1, 0, 44, margin=0.0955).pvalue > 0.05 > tango_test(1, 0, 44, margin=0.0965).pvalue


def test_bentur_printed_bound_is_where_the_pvalue_is_alpha():
    """Fagerland et al. (2014), Bentur et al.: n12 = 1, n21 = 7, n = 21, Tango 95% CI printed
    -0.517 to -0.026 for (n12 - n21)/n. Mirrored (b = 7, c = 1): upper bound 0.517 at 97.5%."""
    just_in, just_out = tango_test(7, 1, 21, margin=0.5175, alpha=0.025), tango_test(7, 1, 21, margin=0.5165,
                                                                                   alpha=0.025)
    assert just_in.reject and not just_out.reject
    lower = tango_test(1, 7, 21, margin=0.0255, alpha=0.025, hypothesis="equivalence")
    assert round(lower.low, 3) == -0.517 and round(lower.high, 3) == -0.026


@pytest.mark.parametrize("b,c,n,margin", [(1, 0, 44, 0.1), (6, 16, 161, 0.05), (16, 6, 161, 0.1), (0, 0, 30, 0.2),
                                          (12, 3, 40, 0.3), (5, 5, 20, 0.15)])
def test_statistic_matches_the_score_with_a_numerical_mle(b, c, n, margin):
    res = tango_test(b, c, n, margin=margin)
    assert res.statistic == pytest.approx(-_score(b, c, n, margin), abs=1e-6)
    assert res.pvalue == pytest.approx(stats.norm.cdf(_score(b, c, n, margin)), abs=1e-6)
    eq = tango_test(b, c, n, margin=margin, hypothesis="equivalence")
    both = min(-_score(b, c, n, margin), _score(b, c, n, -margin))
    assert eq.statistic == pytest.approx(both, abs=1e-6)
    assert eq.estimate == (b - c) / n


@pytest.mark.parametrize("cells", [(80, 6, 16, 59), (12, 1, 7, 1), (30, 0, 3, 2), (40, 4, 4, 2)])
def test_duality_with_tangos_interval(cells):
    """Rejects exactly when the interval of paired_difference_interval(method='tango') at level
    1 - 2 alpha lies below the margin; the interval returned is that one."""
    a, b, c, d = cells
    n = sum(cells)
    ci = paired_difference_interval(Contingency(a, b, c, d, n), method="tango", alpha=0.10)
    res = tango_test(b, c, n, margin=0.2, hypothesis="equivalence")
    assert (res.low, res.high) == pytest.approx((ci.low, ci.high), abs=1e-12)
    for margin in np.linspace(0.01, 0.6, 60):
        assert tango_test(b, c, n, margin=margin).reject == (ci.high < margin)
        assert tango_test(b, c, n, margin=margin, hypothesis="equivalence").reject == (
            -margin < ci.low and ci.high < margin)


def test_no_discordant_case_can_still_show_noninferiority():
    """Tango's point: with b = c = 0 McNemar-type tests are undefined; the score test is not.
    Here T(m) = -n m / sqrt(n m (1 - m)) because q = 0, so statistic = sqrt(n m / (1 - m))."""
    res = tango_test(0, 0, 50, margin=0.1)
    assert res.statistic == pytest.approx(math.sqrt(50 * 0.1 / 0.9), rel=1e-12) and res.reject


@pytest.mark.parametrize("kwargs,error,match", [
    (dict(b=1, c=0, n=44, margin=0.0), ValueError, "margin"),
    (dict(b=1, c=0, n=44, margin=1.0), ValueError, "margin"),
    (dict(b=1, c=0, n=44, margin="0.1"), TypeError, "margin"),
    (dict(b=1, c=0, n=44, margin=0.1, alpha=0.5), ValueError, "alpha"),
    (dict(b=1, c=0, n=44, margin=0.1, hypothesis="superiority"), ValueError, "hypothesis"),
    (dict(b=30, c=20, n=44, margin=0.1), ValueError, "b \\+ c"),
    (dict(b=-1, c=0, n=44, margin=0.1), ValueError, "b must"),
])
def test_bad_input_names_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        tango_test(**kwargs)


# -------------------------------------------------------- validity: exact size at the margin
def _brute_size(n, p_b, p_c, margin, alpha):
    z = stats.norm.isf(alpha)
    size = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            if -_score(b, c, n, margin) >= z:
                size += stats.multinomial.pmf([b, c, n - b - c], n, [p_b, p_c, 1 - p_b - p_c])
    return size


def test_exact_power_is_the_brute_force_enumeration():
    for n, p_b, p_c in [(20, 0.15, 0.05), (25, 0.2, 0.1)]:
        assert tango_power(n, p_b, p_c, margin=0.1) == pytest.approx(_brute_size(n, p_b, p_c, 0.1, 0.05), abs=1e-9)


def test_type_one_error_at_the_margin_by_exact_enumeration():
    """The exact size at p_b - p_c = margin over a grid of disagreement rates: Liu et al. (2002)
    report the RMLE (Tango/Nam) test keeps close to the nominal level; measured here it stays
    below 0.06 from n = 50 on at alpha = 0.05, and its average over the grid is within 0.01."""
    sizes = np.array([[tango_power(n, margin + pc, pc, margin=0.05) for pc in (0.02, 0.05, 0.1, 0.2)]
                      for n in (50, 100, 200) for margin in (0.05,)])
    assert sizes.max() < 0.06
    assert abs(sizes.mean() - 0.05) < 0.01
    eq = [tango_power(100, 0.05 + pc, pc, margin=0.05, hypothesis="equivalence") for pc in (0.05, 0.1)]
    assert max(eq) < 0.06


# --------------------------------------------------------------------- planning, binary
def test_sample_size_is_nams_formula_and_holds_exactly():
    """Nam's (1997) formula by hand for p_b = p_c = 0.05, margin 0.05 (q from the closed-form root
    of the restricted likelihood, W = 0): n = 273.8 -> 274; the exact power there is >= 0.8 and
    one case in ten fewer falls short."""
    q = math.sqrt(8 * 0.05 * 0.05 * 0.95) / 4
    assert q == pytest.approx(_restricted_mle(5, 5, 100, 0.05), abs=1e-9)  # the expected-count MLE
    n = (stats.norm.isf(0.05) * math.sqrt(2 * q + 0.05 * 0.95) + stats.norm.ppf(0.8) * math.sqrt(0.1)) ** 2 / 0.05 ** 2
    assert tango_sample_size(0.05, 0.05, margin=0.05) == math.ceil(n) == 274
    assert 0.8 <= tango_power(274, 0.05, 0.05, margin=0.05) < 0.83
    assert tango_power(247, 0.05, 0.05, margin=0.05) < 0.8


def test_planned_power_by_simulation():
    """At the planned n, simulate tables and run tango_test: the rejection rate is the target
    within 3 Monte Carlo standard errors."""
    p_b, p_c, margin = 0.08, 0.06, 0.06
    n = tango_sample_size(p_b, p_c, margin=margin, power=0.9)
    rng = np.random.default_rng(35)
    draws = rng.multinomial(n, [p_b, p_c, 1 - p_b - p_c], size=2000)
    tables, counts = np.unique(draws[:, :2], axis=0, return_counts=True)   # each distinct table once
    rate = sum(k * tango_test(int(b), int(c), n, margin=margin).reject for (b, c), k in zip(tables, counts)) / 2000
    mcse = math.sqrt(0.9 * 0.1 / 2000)
    assert abs(rate - 0.9) < 3 * mcse + 0.01


def test_equivalence_sample_size_reaches_power():
    n = tango_sample_size(0.05, 0.05, margin=0.05, hypothesis="equivalence")
    assert tango_power(n, 0.05, 0.05, margin=0.05, hypothesis="equivalence", method="asymptotic") >= 0.8
    assert tango_power(n - 1, 0.05, 0.05, margin=0.05, hypothesis="equivalence", method="asymptotic") < 0.8
    assert tango_power(n, 0.05, 0.05, margin=0.05, hypothesis="equivalence") == pytest.approx(0.8, abs=0.03)


def test_planning_refuses_a_difference_outside_the_margin():
    with pytest.raises(ValueError, match="margin"):
        tango_sample_size(0.2, 0.05, margin=0.1)
    with pytest.raises(ValueError, match="method"):
        tango_power(50, 0.1, 0.1, margin=0.1, method="simulated")


# ---------------------------------------------------------------------------- scores
RNG = np.random.default_rng(8)
A = np.clip(RNG.normal(0.7, 0.15, 60), 0, 1)
B = np.clip(A + RNG.normal(0.01, 0.05, 60), 0, 1)


@pytest.mark.parametrize("margin", [0.01, 0.03, 0.05])
def test_unclustered_tost_is_statsmodels_ttost_paired(margin):
    from statsmodels.stats.weightstats import ttost_paired
    pvalue, (t1, p1, df1), (t2, p2, df2) = ttost_paired(A, B, -margin, margin)
    res = paired_item_margin_test(A, B, margin=margin, hypothesis="equivalence", method="t")
    assert res.pvalue == pytest.approx(pvalue, rel=1e-10) and res.df == df1
    assert res.statistic == pytest.approx(min(t1, -t2), rel=1e-10)
    ni = paired_item_margin_test(A, B, margin=margin)
    assert ni.method == "cr2" and ni.pvalue == pytest.approx(p1, rel=1e-10) and ni.statistic == pytest.approx(t1)
    loss = paired_item_margin_test(A, B, margin=margin, higher_is_better=False)
    assert loss.pvalue == pytest.approx(p2, rel=1e-10) and loss.high < 1.0 and loss.low == -1.0


def test_clustered_se_is_paired_item_differences_cr2():
    clusters = np.repeat(np.arange(12), 5)
    ref = paired_item_difference(A, B, clusters=clusters, method="cr2")
    res = paired_item_margin_test(A, B, margin=0.03, clusters=clusters)
    assert res.method == "cr2" and res.se == ref.se and res.df == ref.df and res.n_clusters == 12
    assert res.statistic == pytest.approx((ref.estimate + 0.03) / ref.se, rel=1e-12)
    assert res.pvalue == pytest.approx(stats.t.sf((ref.estimate + 0.03) / ref.se, ref.df), rel=1e-10)
    assert res.low == pytest.approx(ref.estimate - stats.t.isf(0.05, ref.df) * ref.se, rel=1e-12)
    assert "in 12 clusters" in res.describe()


def test_binary_items_use_tango_with_the_right_orientation():
    """Accuracy vectors: a right only n10 = 3, b right only n01 = 5 of 60: a's error excess is
    (5 - 3)/60, so tango_test(b=5, c=3); with 0/1 *errors* (lower better) the roles swap."""
    a = np.array([1] * 3 + [0] * 5 + [1] * 40 + [0] * 12)
    b = np.array([0] * 3 + [1] * 5 + [1] * 40 + [0] * 12)
    res = paired_item_margin_test(a, b, margin=0.1)
    ref = tango_test(5, 3, 60, margin=0.1)
    assert res.method == "tango" and res.pvalue == ref.pvalue and res.low == pytest.approx(-ref.high)
    assert res.estimate == pytest.approx(-2 / 60)
    errs = paired_item_margin_test(1 - a, 1 - b, margin=0.1, higher_is_better=False)
    assert errs.pvalue == ref.pvalue and errs.high == pytest.approx(ref.high)
    assert "Tango score test" in res.describe()


def test_describe_never_calls_a_failure_a_tie():
    res = paired_item_margin_test(A, B, margin=0.001)
    text = res.describe()
    assert not res.reject and text.startswith("Not shown") and "do not rule out" in text
    assert "equal" not in text and "tied" not in text


def test_describe_names_the_two_models_when_told():
    res = paired_item_margin_test(A, B, margin=0.001)
    text = res.describe(names=("forest", "logistic"))
    assert text.startswith("Not shown that forest is no worse than logistic by more than 0.001")
    assert "that forest scores lower by the margin" in text and f"forest - logistic = {res.estimate:+.3f}" in text
    assert " a " not in text and " b " not in text and text.replace("forest", "a").replace("logistic", "b") == str(res)
    eq = paired_item_margin_test(A, B, margin=0.3, hypothesis="equivalence")
    assert eq.describe(names=("new", "old")).startswith("new and old are within 0.3")
    with pytest.raises(TypeError, match="names must be a pair"):
        res.describe(names="forest")
    with pytest.raises(ValueError, match="two different non-empty strings"):
        res.describe(names=("forest", "forest"))


def test_one_cluster_shows_nothing():
    res = paired_item_margin_test(A, B, margin=0.5, clusters=np.zeros(60))
    assert res.pvalue == 1.0 and not res.reject and (res.low, res.high) == (-1.0, 1.0)


@pytest.mark.parametrize("kwargs,error,match", [
    (dict(margin=0.0), ValueError, "margin"),
    (dict(margin=0.1, alpha=0.6), ValueError, "alpha"),
    (dict(margin=0.1, method="wild"), ValueError, "method"),
    (dict(margin=0.1, higher_is_better="yes"), TypeError, "higher_is_better"),
    (dict(margin=0.1, method="tango"), ValueError, "0/1"),
])
def test_scores_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        paired_item_margin_test(A, B, **kwargs)


def test_type_one_error_at_the_margin_by_simulation_clustered():
    """Clustered scores with a true difference -margin (scores 3.7 SD from 0 and 1, so clipping is
    negligible): the CR2 non-inferiority test rejects at rate alpha within 3 Monte Carlo standard
    errors plus 0.01, and the 90% TOST interval covers -margin at least 90% of the time as well."""
    rng = np.random.default_rng(3508)
    reps, alpha, margin, G, m = 1000, 0.05, 0.03, 20, 6
    clusters = np.repeat(np.arange(G), m)
    rejections, covered = 0, 0
    for _ in range(reps):
        cl = rng.normal(0, 0.04, G)[clusters]
        a = np.clip(0.6 + cl + rng.normal(0, 0.1, G * m), 0, 1)
        b = np.clip(a + margin + 0.5 * cl + rng.normal(0, 0.05, G * m), 0, 1)
        res = paired_item_margin_test(a, b, margin=margin, clusters=clusters, hypothesis="equivalence")
        ni = paired_item_margin_test(a, b, margin=margin, clusters=clusters)
        rejections += ni.reject
        covered += res.low <= -margin <= res.high
    mcse = math.sqrt(alpha * (1 - alpha) / reps)
    assert abs(rejections / reps - alpha) < 3 * mcse + 0.01
    assert covered / reps >= 1 - 2 * alpha - 3 * math.sqrt(0.1 * 0.9 / reps) - 0.01


# --------------------------------------------------------------------------- planning, items
def test_item_margin_power_is_statsmodels_one_sample_t_power():
    from statsmodels.stats.power import TTestPower
    v = evallib.item_difference_variance(sd_a=0.3, correlation=0.5)
    for n, diff in [(100, 0.0), (400, -0.01), (60, 0.02)]:
        ref = TTestPower().power(effect_size=(diff + 0.03) / math.sqrt(v), nobs=n, alpha=0.05, alternative="larger")
        got = item_margin_power(n, diff, margin=0.03, sd_a=0.3, correlation=0.5, method="t")
        assert got == pytest.approx(ref, rel=1e-6)


def test_item_margin_sample_size_formula_and_simulation():
    """(z_0.05 + z_0.2)^2 V / margin^2 with V = 0.09; then simulate paired scores with that V at the
    planned n and run paired_item_margin_test: power within 3 MC standard errors of 0.8."""
    n = item_margin_sample_size(margin=0.05, sd_a=0.3, correlation=0.5)
    assert n == math.ceil((stats.norm.isf(0.05) + stats.norm.ppf(0.8)) ** 2 * 0.09 / 0.05 ** 2)
    rng = np.random.default_rng(11)
    reps = 800
    hits = 0
    for _ in range(reps):
        d = rng.normal(0.0, 0.3, n)            # per-item differences with variance V = 0.09
        a = 0.5 + d / 2
        b = 0.5 - d / 2
        if np.any(a < 0) or np.any(a > 1):
            a, b = np.clip(a, 0, 1), np.clip(b, 0, 1)
        hits += paired_item_margin_test(a, b, margin=0.05, method="t").reject
    assert abs(hits / reps - 0.8) < 3 * math.sqrt(0.16 / reps) + 0.01


def test_item_margin_sample_size_t_and_equivalence_reach_power():
    kw = dict(margin=0.05, sd_a=0.3, correlation=0.5, cluster_size=5, icc=0.2)
    for hyp in MARGIN_HYPOTHESES:
        n = item_margin_sample_size(0.01, hypothesis=hyp, method="t", **kw)
        assert n % 5 == 0
        assert item_margin_power(n, 0.01, hypothesis=hyp, method="t", **kw) >= 0.8
        assert item_margin_power(n - 5, 0.01, hypothesis=hyp, method="t", **kw) < 0.8
    with pytest.raises(ValueError, match="inside the margin"):
        item_margin_sample_size(-0.06, **kw)
