"""Tests of the paired-difference intervals, the mid-p McNemar test and their exact
coverage/size (issue 15) against independent references.

References: numbers printed in the literature (Fagerland, Lydersen & Laake 2013 for
Bentur et al.'s mid-p test; Fagerland et al.'s worked Cavo et al. example for
Newcombe's interval as printed by the R package contingencytables; Tango's (1998)
example and a second table as printed by the R package ratesci), formulas written
out again here with ``math`` (Tango's restricted maximum-likelihood estimate found
by a numerical optimiser, the bounds by scipy's ``brentq``), brute-force
enumeration with ``scipy.stats.multinomial`` and seeded Monte Carlo.
"""

from __future__ import annotations

import itertools
import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import optimize, stats

from _references import tango_score_numerical as _tango_score

import evallib
from evallib import (
    PAIRED_INTERVAL_METHODS,
    Contingency,
    coverage_map,
    interval_coverage,
    mcnemar,
    paired_difference_interval,
    plot_coverage,
    plot_coverage_map,
    qh_interval,
    test_size,
)

Z = stats.norm.isf(0.025)


def table(a, b, c, d):
    return Contingency(a, b, c, d, a + b + c + d)


# ------------------------------------------------------------- published numbers
def test_mid_p_bentur_fagerland_2013():
    """Fagerland et al. (2013), Bentur et al.'s data (b = 1, c = 7): exact conditional
    p = 0.070, mid-p = 0.039, asymptotic McNemar p = 0.034, with CC p = 0.077."""
    assert round(mcnemar(1, 7, method="exact").pvalue, 3) == 0.070
    assert round(mcnemar(1, 7, method="mid-p").pvalue, 3) == 0.039
    assert round(mcnemar(1, 7, method="chi2").pvalue, 3) == 0.034
    assert round(mcnemar(1, 7).pvalue, 3) == 0.077


def test_mid_p_equals_definition_and_tie_rule():
    for b, c in [(0, 5), (3, 9), (12, 4), (20, 31), (6, 6), (0, 1)]:
        k, m = min(b, c), b + c
        if b == c:  # Fagerland et al.'s supplement: 1 - P(X = k)/2
            ref = 1 - 0.5 * stats.binom.pmf(k, m, 0.5)
        else:
            ref = stats.binomtest(b, m, 0.5).pvalue - stats.binom.pmf(k, m, 0.5)
        got = mcnemar(b, c, method="mid-p")
        assert got.pvalue == pytest.approx(ref, rel=1e-12)
        assert got.method == "mid-p" and got.statistic == k
    assert mcnemar(0, 0, method="mid-p").pvalue == 1.0


def test_mcnemar_defaults_unchanged():
    """Existing callers: the default is still Yates' test, exact=True still exact (with a
    DeprecationWarning naming method='exact' until 0.3.0)."""
    assert mcnemar(3, 21).method == "chi2-yates"
    with pytest.warns(DeprecationWarning, match="method='exact'"):
        assert mcnemar(3, 21, exact=True).method == "exact"
    with pytest.raises(ValueError, match="exact and mid_p"):
        mcnemar(3, 21, exact=True, mid_p=True)


def test_newcombe_cavo_printed():
    """contingencytables' test of Newcombe's square-and-add interval on Cavo et al.
    (n11 = 59, n12 = 6, n21 = 16, n22 = 80): -0.0621 (-0.1186 to -0.0046)."""
    ci = paired_difference_interval(table(80, 6, 16, 59), method="newcombe")
    assert (round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)) == (-0.0621, -0.1186, -0.0046)


def test_wald_continuity_corrections_cavo_printed():
    """contingencytables' tests (test-ch8.R) on Cavo et al.: the Wald interval -0.0621
    (-0.1184 to -0.0058) and, with the correction inside the standard error,
    -0.0621 (-0.1186 to -0.0057); the textbook correction adds 1/n = 0.0062 to each side."""
    cavo = table(80, 6, 16, 59)
    wald = paired_difference_interval(cavo, method="wald")
    assert (round(wald.low, 4), round(wald.high, 4)) == (-0.1184, -0.0058)
    fag = paired_difference_interval(cavo, method="wald_cc_fagerland")
    assert (round(fag.estimate, 4), round(fag.low, 4), round(fag.high, 4)) == (-0.0621, -0.1186, -0.0057)
    old = paired_difference_interval(cavo, method="wald_cc")
    assert (old.low, old.high) == pytest.approx((wald.low - 1 / 161, wald.high + 1 / 161), abs=1e-15)
    none = paired_difference_interval(table(30, 0, 0, 10), method="wald_cc_fagerland")
    assert (none.low, none.high) == (0.0, 0.0)   # R's NaN standard error set to 0


def test_wald_cc_fagerland_in_the_coverage_functions():
    got = interval_coverage("wald_cc_fagerland", 30, (0.7, 0.15, 0.1, 0.05))
    n, probs = 30, (0.7, 0.15, 0.1, 0.05)
    ref = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            lo, hi = _reference("wald_cc_fagerland", n - b - c, b, c, 0)
            if max(lo, -1) <= 0.05 <= min(hi, 1):
                ref += stats.multinomial.pmf([n - b - c, b, c], n, [probs[0] + probs[3], probs[1], probs[2]])
    assert got.coverage == pytest.approx(ref, abs=1e-12)
    grid = coverage_map("wald_cc_fagerland", 30, [0.1, 0.2], [0.1])
    assert grid.attrs["method"] == "wald_cc_fagerland" and len(grid) == 2


@pytest.mark.parametrize(
    "cells,alpha,printed",
    [
        ((43, 0, 1, 0), 0.10, (-0.096, 0.037)),  # Tango (1998)'s example, 90% level
        ((4, 9, 3, 16), 0.05, (-0.027, 0.390)),
    ],
)
def test_tango_printed(cells, alpha, printed):
    """ratesci's tests of Tango's score interval, table given as (n11, n12, n21, n22)."""
    n11, n12, n21, n22 = cells
    ci = paired_difference_interval(table(n22, n12, n21, n11), method="tango", alpha=alpha)
    assert (round(ci.low, 3), round(ci.high, 3)) == printed


# ------------------------------------------------- the formulas, written again
def _wilson(x, n, z=Z):
    p = x / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return mid - half, mid + half


def _reference(method, a, b, c, d, z=Z):
    n = a + b + c + d
    est = (b - c) / n
    if method == "wald":
        se = math.sqrt((b + c) / n - ((b - c) / n) ** 2) / math.sqrt(n)
        return est - z * se, est + z * se
    if method == "wald_cc":
        se = math.sqrt((b + c) / n - ((b - c) / n) ** 2) / math.sqrt(n)
        return est - z * se - 1 / n, est + z * se + 1 / n
    if method == "wald_cc_fagerland":  # contingencytables' Wald_CI_diff_CC_paired_2x2
        radicand = (b + c) - (abs(b - c) - 1) ** 2 / n
        se = math.sqrt(radicand) / n if radicand >= 0 else 0.0  # R: NaN -> 0
        return est - z * se, est + z * se
    if method == "agresti_min":
        lo, hi = _reference("wald", a + 0.5, b + 0.5, c + 0.5, d + 0.5, z)
        return lo, hi
    if method == "bonett_price":
        pb, pc = (b + 1) / (n + 2), (c + 1) / (n + 2)
        se = math.sqrt((pb + pc - (pb - pc) ** 2) / (n + 2))
        return pb - pc - z * se, pb - pc + z * se
    if method == "newcombe":
        p1, p2 = (b + d) / n, (c + d) / n
        l1, u1 = _wilson(b + d, n, z)
        l2, u2 = _wilson(c + d, n, z)
        margins = [b + d, a + c, c + d, a + b]
        big_a = a * d - b * c
        if big_a > n / 2:
            big_a -= n / 2
        elif big_a >= 0:
            big_a = 0
        phi = 0.0 if 0 in margins else big_a / math.sqrt(math.prod(margins))
        lo = est - math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
        hi = est + math.sqrt((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2)
        return lo, hi
    if method == "tango":
        return _tango_reference(b, c, n, z)
    raise AssertionError(method)


def _tango_reference(b, c, n, z):
    est = (b - c) / n
    eps = 1e-9
    f_lo = lambda t: _tango_score(t, b, c, n) - z  # noqa: E731
    f_hi = lambda t: _tango_score(t, b, c, n) + z  # noqa: E731
    lo = -1.0 if f_lo(-1 + eps) < 0 else optimize.brentq(f_lo, -1 + eps, est, xtol=1e-13)
    hi = 1.0 if f_hi(1 - eps) > 0 else optimize.brentq(f_hi, est, 1 - eps, xtol=1e-13)
    return lo, hi


TABLES = [(12, 1, 7, 1), (80, 6, 16, 59), (30, 0, 3, 2), (5, 10, 2, 3), (40, 4, 4, 2), (0, 3, 5, 0),
          (20, 0, 0, 5), (1, 0, 0, 0), (3, 12, 0, 0), (0, 25, 25, 0)]


@pytest.mark.parametrize("method", ["wald", "wald_cc", "agresti_min", "bonett_price", "newcombe",
                                    "wald_cc_fagerland"])
@pytest.mark.parametrize("cells", TABLES)
def test_closed_forms_match_direct_formula(method, cells):
    ci = paired_difference_interval(table(*cells), method=method)
    lo, hi = _reference(method, *cells)
    assert ci.low == pytest.approx(max(lo, -1.0), abs=1e-12)
    assert ci.high == pytest.approx(min(hi, 1.0), abs=1e-12)
    assert ci.estimate == (cells[1] - cells[2]) / sum(cells)


@pytest.mark.parametrize("cells", [(12, 1, 7, 1), (80, 6, 16, 59), (30, 0, 3, 2), (5, 10, 2, 3),
                                   (20, 0, 0, 5), (3, 12, 0, 0), (44, 0, 1, 0)])
def test_tango_matches_brentq_on_numerical_likelihood(cells):
    """Tango's bounds solve |T| = z where T uses the restricted MLE; here that MLE is
    found by a bounded optimiser and the roots by brentq."""
    ci = paired_difference_interval(table(*cells), method="tango")
    lo, hi = _tango_reference(cells[1], cells[2], sum(cells), Z)
    assert ci.low == pytest.approx(lo, abs=1e-7)
    assert ci.high == pytest.approx(hi, abs=1e-7)


def test_tango_solved_to_machine_precision():
    """At the returned bounds the closed-form score equals +-z to rounding."""
    from evallib._paired import _tango_score

    for cells in [(12, 1, 7, 1), (80, 6, 16, 59), (16, 9, 3, 4)]:
        a, b, c, d = cells
        n = sum(cells)
        ci = paired_difference_interval(table(*cells), method="tango")
        assert _tango_score(np.float64(ci.low), b, c, n) == pytest.approx(Z, abs=1e-9)
        assert _tango_score(np.float64(ci.high), b, c, n) == pytest.approx(-Z, abs=1e-9)


def test_qh_is_the_signed_paper_interval():
    for b, c, n in [(3, 21, 50), (0, 2, 50), (13, 10, 50), (7, 1, 21)]:
        ci = paired_difference_interval(Contingency(n - b - c, b, c, 0, n), method="qh", alpha=0.01)
        ref = qh_interval(b, c, n, alpha=0.01, signed=True)
        assert (ci.low, ci.high) == pytest.approx((ref.low, ref.high), abs=1e-14)


# --------------------------------------------------------------- properties
@pytest.mark.parametrize("method", PAIRED_INTERVAL_METHODS)
def test_symmetry_bounds_and_estimate_inside(method):
    """Swapping b and c mirrors the interval; bounds lie in [-1, 1]; every interval
    contains its own point estimate (all tables with n = 8)."""
    n = 8
    for a, b, c in itertools.product(range(n + 1), repeat=3):
        d = n - a - b - c
        if d < 0:
            continue
        ci = paired_difference_interval(table(a, b, c, d), method=method)
        mirror = paired_difference_interval(table(a, c, b, d), method=method)
        assert (mirror.low, mirror.high) == pytest.approx((-ci.high, -ci.low), abs=1e-12)
        assert -1.0 <= ci.low <= ci.high <= 1.0
        if method not in ("agresti_min", "bonett_price", "qh"):  # these shrink the estimate
            assert ci.low - 1e-12 <= ci.estimate <= ci.high + 1e-12


def test_degenerate_tables_documented_answers():
    n = 40
    none = {m: paired_difference_interval(table(30, 0, 0, 10), method=m) for m in PAIRED_INTERVAL_METHODS}
    assert (none["wald"].low, none["wald"].high) == (0.0, 0.0)
    assert (none["qh"].low, none["qh"].high) == pytest.approx((0.0, 0.0), abs=1e-15)
    assert (none["wald_cc"].low, none["wald_cc"].high) == pytest.approx((-1 / n, 1 / n))
    t = Z * Z / (n + Z * Z)
    assert (none["tango"].low, none["tango"].high) == pytest.approx((-t, t), abs=1e-12)
    for m in ("agresti_min", "bonett_price", "newcombe"):
        assert none[m].low < 0 < none[m].high
    for m in PAIRED_INTERVAL_METHODS:  # every case is a disagreement: b + c = n
        ci = paired_difference_interval(table(0, 25, 15, 0), method=m)
        assert -1 <= ci.low < ci.high <= 1
        assert ci.low < 0.25 < ci.high
        # A wrong on every case, B on none (b = n): the upper bound is the end of the range
        top = paired_difference_interval(table(0, 40, 0, 0), method=m)
        assert top.high == 1.0 and top.estimate == 1.0
        if m == "wald":
            assert top.low == 1.0  # zero plug-in variance: the point [1, 1]
        elif m == "wald_cc":
            assert top.low == pytest.approx(1 - 1 / n)
        else:
            assert 0.5 < top.low < 1.0


def test_result_is_frozen_with_fields():
    ci = paired_difference_interval(table(12, 1, 7, 1))
    assert ci.method == "bonett_price" and ci.alpha == 0.05
    assert ci.width == pytest.approx(ci.high - ci.low)
    assert ci.contains(-0.2) and not ci.contains(0.0)
    with pytest.raises(AttributeError):
        ci.low = 0.0  # type: ignore[misc]
    assert evallib.paired_difference_interval is paired_difference_interval


@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: paired_difference_interval((1, 2, 3, 4)), TypeError, "table must be an evallib"),
        (lambda: paired_difference_interval(Contingency(-1, 2, 3, 4, 8)), ValueError, "table.a must be"),
        (lambda: paired_difference_interval(Contingency(1, 2, 3, 4, 9)), ValueError, "must equal table.n"),
        (lambda: paired_difference_interval(Contingency(0, 0, 0, 0, 0)), ValueError, "table.n must be"),
        (lambda: paired_difference_interval(table(1, 2, 3, 4), method="score"), ValueError,
         "method must be one of"),
        (lambda: paired_difference_interval(table(1, 2, 3, 4), alpha=1.0), ValueError, r"alpha must lie"),
        (lambda: paired_difference_interval(table(1, 2, 3, 4), alpha=0), ValueError, r"alpha must lie"),
        (lambda: interval_coverage("wald", 10, (0.5, 0.5, 0.1, 0.0)), ValueError, "probs must sum to 1"),
        (lambda: interval_coverage("wald", 10, (0.5, 0.5, -0.1, 0.1)), ValueError, "probs must lie"),
        (lambda: interval_coverage("wald", 10, (0.5, 0.5)), ValueError, "four cell probabilities"),
        (lambda: interval_coverage("exact", 10, (0.8, 0.1, 0.1, 0.0)), ValueError, "method must be"),
        (lambda: interval_coverage("wald", 0, (0.8, 0.1, 0.1, 0.0)), ValueError, "n must be"),
        (lambda: test_size("mid-p", 10, (0.7, 0.2, 0.1, 0.0)), ValueError, "p_b = p_c"),
        (lambda: test_size("wald", 10, (0.8, 0.1, 0.1, 0.0)), ValueError, "method must be"),
        (lambda: coverage_map("wald", 10, [0.1], [0.2], p_d=1.5), ValueError, "p_d must lie"),
        (lambda: coverage_map("wald", 10, [0.9], [0.9]), ValueError, "no grid point"),
        (lambda: mcnemar(-1, 3, method="mid-p"), ValueError, "b must be a whole number >= 0"),
    ],
)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ------------------------------------------------------------ exact coverage
def _brute_coverage(method, n, probs, alpha=0.05):
    """Every four-cell table, its multinomial probability, its interval."""
    truth = probs[1] - probs[2]
    cov = width = 0.0
    for a, b, c in itertools.product(range(n + 1), repeat=3):
        d = n - a - b - c
        if d < 0:
            continue
        pr = stats.multinomial.pmf([a, b, c, d], n, probs)
        ci = paired_difference_interval(table(a, b, c, d), method=method, alpha=alpha)
        cov += pr * (ci.low <= truth <= ci.high)
        width += pr * ci.width
    return cov, width


@pytest.mark.parametrize("method", PAIRED_INTERVAL_METHODS)
@pytest.mark.parametrize("probs", [(0.5, 0.2, 0.1, 0.2), (0.6, 0.05, 0.25, 0.1)])
def test_exact_coverage_equals_brute_force(method, probs):
    got = interval_coverage(method, 9, probs, alpha=0.1)
    cov, width = _brute_coverage(method, 9, probs, alpha=0.1)
    assert got.coverage == pytest.approx(cov, abs=1e-12)
    assert got.expected_width == pytest.approx(width, abs=1e-12)


@pytest.mark.parametrize("method", ["qh", "bonett_price", "newcombe", "tango"])
def test_exact_coverage_agrees_with_monte_carlo(method):
    """20,000 seeded test sets at n = 50; the Monte Carlo share of covering intervals
    lies within 4 standard errors (about 0.006) of the exact coverage."""
    n, reps, probs = 50, 20_000, np.array([0.85, 0.01, 0.04, 0.10])
    rng = np.random.default_rng(15)
    draws = rng.multinomial(n, probs, size=reps)
    from evallib._paired import _interval_bounds

    low, high = _interval_bounds(method, *draws.T, n, 0.05)
    truth = probs[1] - probs[2]
    mc = np.mean((low <= truth) & (truth <= high))
    exact = interval_coverage(method, n, probs).coverage
    assert abs(mc - exact) < 4 * math.sqrt(exact * (1 - exact) / reps)


def test_qh_undercovers_where_the_review_said():
    """Issue 13: exact coverage of the paper's 95% interval about 0.87 at n = 50,
    (pi_b, pi_c) = (0.01, 0.04); Bonett–Price and Tango stay above 0.93 there."""
    probs = (0.95, 0.01, 0.04, 0.0)
    assert round(interval_coverage("qh", 50, probs).coverage, 2) == 0.87
    for m in ("bonett_price", "tango"):
        assert interval_coverage(m, 50, probs).coverage > 0.93


def test_coverage_map_matches_pointwise_and_skips_impossible_points():
    cm = coverage_map("newcombe", 30, [0.05, 0.2, 0.7], [0.1, 0.5], p_d=0.1)
    assert len(cm) == 5  # (0.7, 0.5) would need 1.3 > 1
    for row in cm.itertuples():
        ref = interval_coverage("newcombe", 30, (1 - row.pi_b - row.pi_c - 0.1, row.pi_b, row.pi_c, 0.1))
        assert row.coverage == pytest.approx(ref.coverage, abs=1e-12)
        assert row.expected_width == pytest.approx(ref.expected_width, abs=1e-12)
    assert cm.attrs["method"] == "newcombe"


def test_large_n_point_is_a_probability():
    """n = 1,000: the window enumeration keeps the mass; Wald's coverage is near 0.95."""
    r = interval_coverage("wald", 1000, (0.7, 0.15, 0.1, 0.05))
    assert 0.93 < r.coverage < 0.96


# -------------------------------------------------------------- exact size
@pytest.mark.parametrize("method", ["chi2-yates", "chi2", "exact", "mid-p"])
def test_test_size_equals_brute_force(method):
    n, probs = 12, (0.6, 0.15, 0.15, 0.1)
    kw = {"method": method}
    ref = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            if mcnemar(b, c, **kw).pvalue <= 0.05:
                ref += stats.multinomial.pmf([b, c, n - b - c], n, [0.15, 0.15, 0.7])
    assert test_size(method, n, probs).size == pytest.approx(ref, abs=1e-13)


def test_sizes_order_as_fagerland_found():
    """Fagerland et al. (2013): the exact and Yates tests are conservative, the mid-p
    test keeps the level yet rejects more often than the exact test."""
    probs = (0.7, 0.1, 0.1, 0.1)
    sizes = {m: test_size(m, 60, probs).size for m in ("chi2-yates", "exact", "mid-p")}
    assert sizes["exact"] < sizes["mid-p"] <= 0.05
    assert sizes["chi2-yates"] < sizes["mid-p"]


# -------------------------------------------------------------------- plots
def test_plot_coverage_draws_each_method_and_nominal_line():
    ax = plot_coverage(30, 0.1, methods=("qh", "tango"), points=11)
    assert len(ax.get_lines()) == 3
    assert ax.get_lines()[0].get_xdata().min() == pytest.approx(-0.1)
    fig, own = plt.subplots()
    assert plot_coverage(20, 0.2, methods="wald", points=5, ax=own) is own
    # drawn again on the same Axes: the same line, moved to the exact coverage of the new setting
    line = own.get_lines()[0]
    plot_coverage(25, 0.3, methods="wald", points=5, ax=own)
    assert own.get_lines()[0] is line and len(own.get_lines()) == 2
    ref = [interval_coverage("wald", 25, (0.7, (0.3 + d) / 2, (0.3 - d) / 2, 0.0)).coverage
           for d in np.linspace(-0.3, 0.3, 5)]
    assert list(line.get_ydata()) == pytest.approx(ref, abs=1e-12)
    # other methods or another level on the same Axes: that chart replaces the old one (nothing
    # drawn over it), and the legend names the new level with its digits
    plot_coverage(25, 0.3, methods=("qh", "tango"), points=5, ax=own)
    assert len(own.get_lines()) == 3
    plot_coverage(25, 0.3, methods=("qh", "tango"), points=5, alpha=0.025, ax=own)
    assert len(own.get_lines()) == 3
    assert [t.get_text() for t in own.get_legend().get_texts()][-1] == "nominal 97.5%"
    assert own.get_lines()[-1].get_ydata()[0] == pytest.approx(0.975)
    plt.close("all")


def test_plot_coverage_map_returns_axes():
    fig, ax = plt.subplots()
    assert plot_coverage_map("bonett_price", 20, grid=6, ax=ax) is ax
    plt.close("all")
