"""Tests of the accuracy intervals added for issue 26 (Jeffreys, Agresti–Coull, Wilson with
continuity correction, mid-p Clopper–Pearson) and of their exact coverage.

References: Newcombe (1998), Statistics in Medicine 17, 857-872, Table I (printed 95%
intervals for 81/263, 15/148, 0/20 and 1/29 by Wilson's method with continuity correction,
method 4, and by the mid-p method, method 6; Clopper–Pearson and Wilson for comparison);
the R package exactci 1.4.5 (``binom.exact(x, n, midp = TRUE)``, run in R 4.2.2; it stops
its root search at 1e-5); statsmodels' ``proportion_confint`` (Jeffreys, Agresti–Coull);
scipy's ``binomtest(...).proportion_ci(method="wilsoncc")``; the mid-p defining equation
evaluated with ``scipy.stats.binom``; and the coverage sum written out here with one
``accuracy_interval`` call per count.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from evallib.onetestset._measures import (
    ACCURACY_INTERVAL_METHODS,
    accuracy_interval,
    accuracy_interval_coverage,
    plot_interval_coverage,
)

# Newcombe (1998), Table I: (x, n) -> {method: (lower, upper)}, four decimals as printed
NEWCOMBE = {
    (81, 263): {"wilson": (0.2553, 0.3662), "wilson_cc": (0.2535, 0.3682), "exact": (0.2527, 0.3676),
                "mid-p": (0.2544, 0.3658)},
    (15, 148): {"wilson": (0.0624, 0.1605), "wilson_cc": (0.0598, 0.1644), "exact": (0.0578, 0.1617),
                "mid-p": (0.0601, 0.1581)},
    (0, 20): {"wilson": (0.0, 0.1611), "wilson_cc": (0.0, 0.2005), "exact": (0.0, 0.1684),
              "mid-p": (0.0, 0.1391)},
    (1, 29): {"wilson": (0.0061, 0.1718), "wilson_cc": (0.0018, 0.1963), "exact": (0.0009, 0.1776),
              "mid-p": (0.0017, 0.1585)},
}


@pytest.mark.parametrize("x, n", list(NEWCOMBE))
def test_newcombe_table_one(x, n):
    for method, (lo, hi) in NEWCOMBE[(x, n)].items():
        ci = accuracy_interval(x, n, method=method)
        assert (round(ci.low, 4), round(ci.high, 4)) == (lo, hi), method


# exactci 1.4.5, binom.exact(x, n, midp = TRUE, tsmethod = "central")$conf.int
EXACTCI_MIDP = {(81, 263): (0.2544085576, 0.3657682658), (15, 148): (0.0600486046, 0.1581403085),
                (0, 20): (0.0, 0.1390858868), (1, 29): (0.0017248480, 0.1585382018),
                (95, 100): (0.8926610346, 0.9814662258), (100, 100): (0.9704837258, 1.0),
                (7, 9): (0.4379203680, 0.9609150720)}


@pytest.mark.parametrize("x, n", list(EXACTCI_MIDP))
def test_mid_p_matches_exactci_and_its_defining_equation(x, n):
    ci = accuracy_interval(x, n, method="mid-p")
    assert (ci.low, ci.high) == pytest.approx(EXACTCI_MIDP[(x, n)], abs=3e-5)
    if x > 0:    # P(K > x) + P(K = x)/2 = alpha/2 at the lower bound
        assert stats.binom.sf(x, n, ci.low) + 0.5 * stats.binom.pmf(x, n, ci.low) == pytest.approx(0.025, abs=1e-10)
    if x < n:    # P(K < x) + P(K = x)/2 = alpha/2 at the upper bound
        tail = stats.binom.cdf(x - 1, n, ci.high) + 0.5 * stats.binom.pmf(x, n, ci.high)
        assert tail == pytest.approx(0.025, abs=1e-10)


@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.01])
def test_jeffreys_and_agresti_coull_match_statsmodels(alpha):
    n = 57
    for x in range(n + 1):
        ac = accuracy_interval(x, n, method="agresti_coull", alpha=alpha)
        lo, hi = proportion_confint(x, n, alpha=alpha, method="agresti_coull")
        assert (ac.low, ac.high) == pytest.approx((max(lo, 0.0), min(hi, 1.0)), abs=1e-12)
        je = accuracy_interval(x, n, method="jeffreys", alpha=alpha)
        lo, hi = proportion_confint(x, n, alpha=alpha, method="jeffreys")
        # Brown, Cai & DasGupta's boundary rule (statsmodels does not apply it)
        assert je.low == (0.0 if x == 0 else pytest.approx(lo, abs=1e-12))
        assert je.high == (1.0 if x == n else pytest.approx(hi, abs=1e-12))


@pytest.mark.parametrize("n", [1, 2, 13, 100])
def test_wilson_cc_matches_scipy(n):
    for x in range(n + 1):
        ci = accuracy_interval(x, n, method="wilson_cc", alpha=0.1)
        ref = stats.binomtest(x, n).proportion_ci(confidence_level=0.9, method="wilsoncc")
        assert (ci.low, ci.high) == pytest.approx((ref.low, ref.high), abs=1e-12)


@pytest.mark.parametrize("method", ["jeffreys", "agresti_coull", "wilson_cc", "mid-p", "wilson", "exact", "normal"])
def test_coverage_is_the_binomial_sum(method):
    n, alpha = 40, 0.05
    grid = np.linspace(0.3, 0.999, 37)
    ours = accuracy_interval_coverage(n, grid, method=method, alpha=alpha)
    cis = [accuracy_interval(k, n, method=method, alpha=alpha) for k in range(n + 1)]
    for a, cov in zip(grid, ours):
        ref = sum(stats.binom.pmf(k, n, a) for k, ci in enumerate(cis) if ci.low <= a <= ci.high)
        assert cov == pytest.approx(ref, abs=1e-12)


def test_coverage_near_one_wilson_dips_continuity_corrected_holds():
    """Brown, Cai & DasGupta (2001): Wilson's coverage is poor right next to the boundary;
    Clopper–Pearson never falls below the nominal level."""
    near = np.linspace(0.99, 0.9999, 2000)
    assert accuracy_interval_coverage(100, near, method="wilson").min() < 0.86
    assert accuracy_interval_coverage(100, near, method="wilson_cc").min() > 0.949
    wide = np.linspace(0.5, 0.9999, 3000)
    assert accuracy_interval_coverage(100, wide, method="exact").min() >= 0.95 - 1e-12
    assert accuracy_interval_coverage(100, wide, method="mid-p").mean() == pytest.approx(0.95, abs=0.01)


def test_every_method_at_the_ends_and_ordering():
    for method in ACCURACY_INTERVAL_METHODS:
        top, bottom = accuracy_interval(30, 30, method=method), accuracy_interval(0, 30, method=method)
        assert top.high == 1.0 and bottom.low == 0.0
        assert 0.0 <= top.low <= 1.0 and 0.0 <= bottom.high <= 1.0
        mid = accuracy_interval(21, 30, method=method)
        assert mid.low < 0.7 < mid.high and mid.method == method
    # the continuity-corrected Wilson interval contains Wilson's; mid-p lies inside Clopper–Pearson
    for x in range(31):
        w, wc = accuracy_interval(x, 30, method="wilson"), accuracy_interval(x, 30, method="wilson_cc")
        e, m = accuracy_interval(x, 30, method="exact"), accuracy_interval(x, 30, method="mid-p")
        assert wc.low <= w.low + 1e-12 and w.high <= wc.high + 1e-12
        assert e.low <= m.low + 1e-12 and m.high <= e.high + 1e-12


def test_bad_method_and_plot_arguments():
    with pytest.raises(ValueError, match="method must be one of"):
        accuracy_interval(5, 10, method="wald")
    with pytest.raises(ValueError, match="accuracy_max must lie in the open interval"):
        plot_interval_coverage(50, accuracy_max=1.0)
    ax = plot_interval_coverage(100, methods=("wilson", "wilson_cc", "jeffreys", "mid-p"), accuracy_max=0.999)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("wilson_cc: lowest") for t in labels) and len(ax.lines) == 5
    plt.close(ax.figure)


def test_plot_interval_coverage_on_a_given_grid_finds_wilsons_dip_next_to_one():
    """An explicit grid through the last expected errors catches Wilson's dip (n = 100, near a = 0.998)
    that the even grid to 0.999 steps over. Reference: statsmodels' Wilson bounds summed over the
    binomial distribution (Brown, Cai & DasGupta 2001, eq. 1), independent of evallib's interval code."""
    from scipy import stats
    from statsmodels.stats.proportion import proportion_confint

    grid = np.unique(np.r_[np.linspace(0.5, 0.999, 491), 1 - np.linspace(0.1, 10, 400) / 100])
    k = np.arange(101)
    lo, hi = proportion_confint(k, 100, alpha=0.05, method="wilson")
    pmf = stats.binom.pmf(k[None, :], 100, grid[:, None])
    ref = (pmf * ((lo <= grid[:, None] + 1e-12) & (grid[:, None] <= hi + 1e-12))).sum(axis=1)
    ax = plot_interval_coverage(100, methods=("wilson",), accuracy=grid)
    x, y = ax.lines[0].get_data()
    assert np.allclose(x, grid) and np.allclose(y, ref, atol=1e-9)
    assert y.min() < 0.85 and 0.997 < x[np.argmin(y)] < 0.999      # the dip (0.84 at a = 0.998)
    even = plot_interval_coverage(100, methods=("wilson",), accuracy_max=0.999)
    assert even.lines[0].get_data()[1].min() > 0.9                 # the even grid misses it
    assert ax.get_legend().get_texts()[0].get_text().startswith(f"wilson: lowest {ref.min():.3f}")
    assert ax.get_xlim() == (0.5, 1.0)
    assert plot_interval_coverage(100, accuracy=grid[grid >= 0.9]).get_xlim()[0] == grid[grid >= 0.9][0]
    with pytest.raises(ValueError, match="accuracy must hold at least two"):
        plot_interval_coverage(100, accuracy=[0.5, 1.0])
    with pytest.raises(ValueError, match="accuracy must hold at least two"):
        plot_interval_coverage(100, accuracy=[0.9])
    plt.close("all")
