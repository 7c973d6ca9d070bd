"""Tests of evallib.onetestset._pairwise against independent references.

References: statsmodels' ``mcnemar`` and ``multipletests``, scipy's ``binomtest``,
numpy's polynomial root finder on the quadratic behind eqs. (4)-(5), brute-force
enumeration of small multinomial tables, pandas' ``crosstab``, and the numbers
printed in Berrar & Lozano's Table 2 and section 8 (recomputed here).
"""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests

import evallib
from evallib import (
    adjusted_alphas,
    compare_pairwise,
    contingency,
    holm_alphas,
    mcnemar,
    pairwise_table,
    plot_intervals,
    plot_pvalue_vs_interval,
    qh_coverage,
    qh_interval,
)
from conftest import ROOT

PAPER_COUNTS = {
    (1, 4): (3, 21), (1, 3): (1, 15), (2, 4): (4, 20), (1, 5): (4, 19), (2, 3): (2, 14),
    (2, 5): (4, 17), (4, 5): (13, 10), (1, 2): (0, 2), (3, 4): (11, 15), (3, 5): (14, 15),
}


# ----------------------------------------------------------------- contingency
def test_contingency_matches_crosstab():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    pa = np.where(rng.random(200) < 0.2, 1 - y, y)
    pb = np.where(rng.random(200) < 0.3, 1 - y, y)
    tab = pd.crosstab(pa != y, pb != y)  # rows: A wrong, columns: B wrong
    t = contingency(y, pa, pb)
    assert (t.a, t.b, t.c, t.d) == (tab.loc[False, False], tab.loc[True, False],
                                    tab.loc[False, True], tab.loc[True, True])
    assert t.n == 200 and t.a + t.b + t.c + t.d == 200
    assert t.error_a == pytest.approx(np.mean(pa != y))
    assert t.error_b == pytest.approx(np.mean(pb != y))


def test_contingency_string_labels():
    y = ["ER+", "ER-", "ER+", "ER-"]
    t = contingency(y, ["ER+", "ER+", "ER-", "ER-"], ["ER+", "ER-", "ER+", "ER+"])
    assert (t.a, t.b, t.c, t.d, t.n) == (1, 2, 1, 0, 4)


def test_contingency_any_labels_matches_mlxtend():
    """Issue 17: McNemar's table only counts right/wrong, so any labels are fine."""
    mcnemar_table = pytest.importorskip("mlxtend.evaluate").mcnemar_table
    y = np.array([0, 0, 0, 0, 0, 2, 1, 1, 1, 1])
    m1 = np.array([0, 5, 0, 0, 0, 2, 1, 0, 0, 0])
    m2 = np.array([0, 0, 1, 3, 0, 2, 1, 0, 0, 0])
    t = contingency(y, m1, m2)
    assert [[t.a, t.c], [t.b, t.d]] == [[4, 2], [1, 3]]  # mlxtend's printed test table
    assert [[t.a, t.c], [t.b, t.d]] == mcnemar_table(y_target=y, y_model1=m1, y_model2=m2).tolist()
    rng = np.random.default_rng(0)
    y = rng.choice(["a", "b", "c", "d"], 200)
    m1 = np.where(rng.random(200) < 0.7, y, rng.choice(["a", "b", "e"], 200))
    m2 = np.where(rng.random(200) < 0.6, y, rng.choice(["c", "d"], 200))
    t = contingency(y, m1, m2)
    assert [[t.a, t.c], [t.b, t.d]] == mcnemar_table(y_target=y, y_model1=m1, y_model2=m2).tolist()


# --------------------------------------------------------------------- McNemar
@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_chi2_matches_statsmodels(correction):
    for b, c in itertools.product(range(0, 31, 3), range(1, 41, 4)):
        if correction and b == c:
            continue  # documented difference: we floor |b - c| - 1 at 0
        ref = sm_mcnemar([[0, b], [c, 0]], exact=False, correction=correction)
        got = mcnemar(b, c, method="chi2-yates" if correction else "chi2")
        assert got.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_mcnemar_exact_matches_binomtest_and_statsmodels():
    for b, c in itertools.product(range(0, 25), range(0, 25)):
        if b + c == 0:
            continue
        ref = stats.binomtest(b, b + c, 0.5, alternative="two-sided").pvalue
        got = mcnemar(b, c, method="exact")
        assert got.pvalue == pytest.approx(ref, rel=1e-9, abs=1e-15)
        assert got.pvalue == pytest.approx(sm_mcnemar([[0, b], [c, 0]], exact=True).pvalue, rel=1e-9)


def test_mcnemar_degenerate_cases():
    for kw in ({}, {"correction": False}, {"exact": True}):
        r = mcnemar(0, 0, **kw)
        assert (r.statistic, r.pvalue) == (0.0, 1.0)
    r = mcnemar(7, 7)  # Yates floor: no evidence of a difference
    assert (r.statistic, r.pvalue) == (0.0, 1.0)


# --------------------------------------------------------------- QH interval
def _roots(b, c, n, crit):
    """Bounds from the quadratic in the appendix, solved by numpy.roots."""
    pb, pc = b / n, c / n
    D = abs(pb - pc)
    coeffs = [n + crit, -2 * n * D, n * D**2 - crit * (pb + pc)]
    r = np.sort(np.real(np.roots(coeffs)))
    return r[0], r[-1]


def test_interval_solves_inequality_for_every_small_table():
    """Brute force over all (b, c) with b + c <= n, n <= 12: the bounds are the
    roots of inequality (3)/(A1) with p for pi, and the inequality holds inside
    and fails just outside."""
    for alpha in (0.05, 0.01, 0.2):
        crit = stats.chi2.isf(alpha, 1)
        for n in range(1, 13):
            for b in range(n + 1):
                for c in range(n + 1 - b):
                    ci = qh_interval(b, c, n, alpha=alpha)
                    pb, pc = b / n, c / n
                    if b + c == 0:
                        assert (ci.low, ci.high) == (0.0, 0.0)
                        continue
                    lo, hi = _roots(b, c, n, crit)
                    assert ci.low == pytest.approx(lo, abs=1e-12)
                    assert ci.high == pytest.approx(hi, abs=1e-12)

                    def holds(delta):
                        return n * (abs(pb - pc) - delta) ** 2 <= crit * ((pb + pc) - delta**2) + 1e-12

                    assert holds(ci.centre) and holds(ci.low + 1e-9) and holds(ci.high - 1e-9)
                    assert not holds(ci.low - 1e-6) and not holds(ci.high + 1e-6)
                    assert ci.centre == pytest.approx(n * abs(pb - pc) / (n + crit))


def test_signed_interval_is_the_same_interval_with_sign():
    for b, c, n in [(3, 21, 50), (21, 3, 50), (0, 2, 50), (14, 15, 50), (5, 5, 20)]:
        u = qh_interval(b, c, n)
        s = qh_interval(b, c, n, signed=True)
        assert s.width == pytest.approx(u.width)
        assert s.estimate == pytest.approx((b - c) / n)
        assert s.centre == pytest.approx(np.sign(b - c) * u.centre if b != c else 0.0)
        if b >= c:
            assert (s.low, s.high) == pytest.approx((u.low, u.high))
        else:
            assert (s.low, s.high) == pytest.approx((-u.high, -u.low))


def test_interval_agrees_with_test_decision_direction():
    """Excluding 0 is at least as hard as McNemar's uncorrected test: a significant
    interval implies an uncorrected chi-square statistic above the critical value."""
    n = 40
    crit = stats.chi2.isf(0.05, 1)
    for b in range(n + 1):
        for c in range(n + 1 - b):
            ci = qh_interval(b, c, n)
            if ci.low > 0:
                assert mcnemar(b, c, method="chi2").statistic > crit


def _exact_coverage(pi_b, pi_c, n, alpha):
    """Exact coverage by enumerating the trinomial (b, c, rest)."""
    crit = stats.chi2.isf(alpha, 1)
    truth = abs(pi_b - pi_c)
    total = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            prob = stats.multinomial.pmf([b, c, n - b - c], n, [pi_b, pi_c, 1 - pi_b - pi_c])
            lo, hi = _roots(b, c, n, crit) if b + c else (0.0, 0.0)
            if lo - 1e-12 <= truth <= hi + 1e-12:
                total += prob
    return total


@pytest.mark.parametrize("pi_b,pi_c", [(0.1, 0.1), (0.05, 0.15), (0.1, 0.3), (0.2, 0.2)])
def test_monte_carlo_coverage_near_nominal(pi_b, pi_c):
    """May & Johnson: the 95% interval covers the true difference at close to its
    nominal rate at n = 50. Seeded Monte Carlo (20,000 test sets, SE about 0.0016)
    agrees with the exact coverage from enumeration within 4 SE, and both lie in
    [0.94, 0.985]."""
    n, reps = 50, 20_000
    mc = qh_coverage(pi_b, pi_c, n, alpha=0.05, n_resamples=reps, rng=np.random.default_rng(2013))
    exact = _exact_coverage(pi_b, pi_c, n, 0.05)
    se = np.sqrt(exact * (1 - exact) / reps)
    assert abs(mc - exact) < 4 * se
    assert 0.94 <= exact <= 0.985
    assert 0.94 <= mc <= 0.985


def test_coverage_is_reproducible_with_seed():
    a = qh_coverage(0.1, 0.2, 50, n_resamples=2000, rng=np.random.default_rng(5))
    b = qh_coverage(0.1, 0.2, 50, n_resamples=2000, rng=np.random.default_rng(5))
    assert a == b


# ------------------------------------------------------------------- Holm
def test_holm_alphas_paper_column():
    # Table 2's alpha column, from the printed p-values in the printed order.
    printed_p = [5.3e-4, 1.1e-3, 2.2e-3, 3.6e-3, 5.8e-3, 8.6e-3, 0.40, 0.48, 0.58, 0.99]
    printed_alpha = [0.005, 0.006, 0.006, 0.007, 0.008, 0.010, 0.013, 0.017, 0.025, 0.05]
    got = holm_alphas(printed_p, 0.05)
    np.testing.assert_allclose(got, printed_alpha, atol=5e-4 + 1e-12)
    np.testing.assert_allclose(got, 0.05 / np.arange(10, 0, -1))


def test_holm_and_bonferroni_decisions_match_statsmodels():
    rng = np.random.default_rng(7)
    for _ in range(30):  # statsmodels' multipletests takes ~50 ms a call
        m = int(rng.integers(1, 15))
        p = rng.beta(0.4, 3.0, m)
        alpha = float(rng.choice([0.01, 0.05, 0.1]))
        for method in ("holm", "bonferroni"):
            ref = multipletests(p, alpha=alpha, method=method)[0]
            levels = adjusted_alphas(p, alpha, method)
            ours = evallib._multitest.rejections(p, levels, method)
            assert np.array_equal(ours, ref), (p, alpha, method)


def test_adjust_none_and_order():
    p = [0.3, 0.01, 0.2]
    assert np.allclose(adjusted_alphas(p, 0.05, "none"), 0.05)
    assert np.allclose(adjusted_alphas(p, 0.05, "bonferroni"), 0.05 / 3)
    assert np.allclose(holm_alphas(p), [0.05 / 1, 0.05 / 3, 0.05 / 2])


# ----------------------------------------------------------- the paper's Table 2
@pytest.fixture(scope="module")
def printed():
    path = ROOT / "data" / "berrar_lozano_table2.csv"
    df = pd.read_csv(path)
    df["pair"] = list(zip(df["i"], df["j"]))
    return df.set_index("pair")


@pytest.fixture(scope="module")
def ours():
    table = pairwise_table(PAPER_COUNTS, 50)
    return {row["pair"]: row for _, row in table.iterrows()}


def _sig2(x):
    return float(f"{x:.2g}")


def test_table2_statistics(printed, ours):
    for pair, row in printed.iterrows():
        x2 = ours[pair]["statistic"]
        if pair == (4, 5):
            # The paper prints 0.7; (|13 - 10| - 1)^2 / 23 = 0.17.
            assert round(x2, 2) == 0.17 and row["X2"] == 0.7
        else:
            assert round(x2, 1) == row["X2"], pair


def test_table2_exact_pvalues(printed, ours):
    for pair, row in printed.iterrows():
        got = ours[pair]["pvalue_exact"]
        if pair == (3, 5):
            assert got > 0.99  # printed ">0.99"
        else:
            assert _sig2(got) == row["p_exact"], pair


def test_table2_pvalues_follow_from_rounded_statistics(printed, ours):
    """The printed p-values are chi-square tail areas of X^2 rounded to one
    decimal: that reproduces every printed p, while the unrounded X^2 gives a
    different second digit for (1, 4), (1, 3), (1, 5), (2, 3), (2, 5) and (3, 4)."""
    differs = set()
    for pair, row in printed.iterrows():
        if pair == (3, 5):
            continue
        from_printed = _sig2(stats.chi2.sf(row["X2"], 1))
        assert from_printed == row["p"], pair
        if _sig2(ours[pair]["pvalue"]) != row["p"]:
            differs.add(pair)
    assert differs == {(1, 4), (1, 3), (1, 5), (2, 3), (2, 5), (3, 4), (4, 5)}
    # (4, 5): the correct Yates p-value is 0.68, not the printed 0.40.
    assert _sig2(ours[(4, 5)]["pvalue"]) == 0.68


def test_table2_critical_values(printed):
    # Table 2's chi^2 column: critical values at the printed Holm levels.
    levels = holm_alphas(printed["p"].to_numpy())
    crit = stats.chi2.isf(levels, 1)
    np.testing.assert_allclose(np.round(crit, 1), printed["chi2"].to_numpy(), atol=1e-9)


def test_table2_ranking_changes_with_correct_statistic(ours):
    # With X^2(4, 5) = 0.17 the last four ranks are (1, 2), (3, 4), (4, 5), (3, 5).
    pairs = list(ours)
    assert pairs[6:] == [(1, 2), (3, 4), (4, 5), (3, 5)]
    assert pairs[:6] == [(1, 4), (1, 3), (2, 4), (1, 5), (2, 3), (2, 5)]
    assert [row["reject"] for row in ours.values()] == [True] * 6 + [False] * 4


def test_section8_quoted_intervals(ours):
    # (1, 4): "point estimate 0.31, adjusted 95%-CI [0.10, 0.54]". The 0.31 is the
    # centre of the adjusted interval (the observed difference is 0.36); eqs. (4)-(5)
    # at Holm's alpha = 0.005 give [0.09, 0.53], each bound 0.01 off the print.
    crit = stats.chi2.isf(0.005, 1)
    centre = 50 * 0.36 / (50 + crit)
    assert round(centre, 2) == 0.31
    lo, hi = _roots(3, 21, 50, crit)
    assert ours[(1, 4)]["ci_adj_high"] == pytest.approx(hi)
    assert round(hi, 2) == 0.53  # the paper prints 0.54
    assert round(lo, 2) == 0.09  # the paper prints 0.10
    assert ours[(1, 4)]["ci_adj_low"] == pytest.approx(lo)
    # (1, 2): "point estimate 0.04, 95%-CI [-0.03, 0.10]": this is the Holm-adjusted
    # interval (the unadjusted one is [-0.015, 0.090]).
    lo, hi = _roots(0, 2, 50, stats.chi2.isf(0.05 / 3, 1))  # the paper's rank 8
    assert (round(lo, 2), round(hi, 2)) == (-0.03, 0.10)
    lo0, hi0 = _roots(0, 2, 50, stats.chi2.isf(0.05, 1))
    assert ours[(1, 2)]["low"] == pytest.approx(lo0)
    assert (round(lo0, 3), round(hi0, 3)) == (-0.015, 0.090)


def test_adjusted_intervals_wider_and_same_conclusion():
    ours = pairwise_table(PAPER_COUNTS, 50)
    assert (ours["ci_adj_low"] <= ours["low"] + 1e-15).all()
    assert (ours["ci_adj_high"] >= ours["high"] - 1e-15).all()
    # Section 8: adjustment does not change which intervals exclude 0.
    assert ((ours["low"] > 0) == (ours["ci_adj_low"] > 0)).all()


# ---------------------------------------------------------- compare_pairwise
def test_compare_pairwise_matches_counts_table():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    preds = {name: np.where(rng.random(60) < err, 1 - y, y) for name, err in
             [("dlda30", 0.1), ("dlda10", 0.15), ("coin", 0.5)]}
    table = compare_pairwise(y, preds)
    counts = {}
    for i, j in [("dlda30", "dlda10"), ("dlda30", "coin"), ("dlda10", "coin")]:
        ct = pd.crosstab(preds[i] != y, preds[j] != y).reindex(index=[False, True], columns=[False, True],
                                                               fill_value=0)
        counts[(i, j)] = (int(ct.loc[True, False]), int(ct.loc[False, True]))
    ref = pairwise_table(counts, 60)
    pd.testing.assert_frame_equal(table, ref)
    assert table.attrs["error_rates"]["coin"] == pytest.approx(np.mean(preds["coin"] != y))


@pytest.mark.parametrize("adjust", ["holm", "bonferroni", "none"])
def test_adjusted_columns_use_adjusted_level(adjust):
    t = pairwise_table(PAPER_COUNTS, 50, alpha=0.1, adjust=adjust)
    for _, row in t.iterrows():
        ci = qh_interval(row["b"], row["c"], 50, alpha=row["alpha_adj"])
        assert (row["ci_adj_low"], row["ci_adj_high"]) == pytest.approx((ci.low, ci.high))
        assert row["chi2_crit"] == pytest.approx(stats.chi2.isf(row["alpha_adj"], 1))
    assert t.attrs["adjust"] == adjust


# --------------------------------------------------------------------- plots
def test_plot_intervals_draws_every_pair():
    t = pairwise_table(PAPER_COUNTS, 50)
    ax = plot_intervals(t)
    assert [tick.get_text() for tick in ax.get_xticklabels()] == [str(p) for p in t["pair"]]
    lo, hi = ax.get_ylim()
    assert lo <= t["ci_adj_low"].min() and hi >= t["ci_adj_high"].max()
    fig, given = plt.subplots()
    assert plot_intervals(t, ax=given) is given
    plt.close("all")


def test_plot_intervals_title_says_which_adjusted_intervals_hold_jointly():
    """Issue 13: Holm's adjusted intervals have no joint coverage, Bonferroni's do."""
    holm = plot_intervals(pairwise_table(PAPER_COUNTS, 50, adjust="holm")).get_title()
    bonf = plot_intervals(pairwise_table(PAPER_COUNTS, 50, adjust="bonferroni")).get_title()
    assert "no joint coverage" in holm and "jointly valid" in bonf
    plt.close("all")


def test_plot_pvalue_vs_interval_panels():
    axes = plot_pvalue_vs_interval(0, 2, 50)
    assert len(axes) == 2
    # Shaded extreme outcomes of (b, c) = (0, 2): b in {0, 2} given b + c = 2, each 1/4 (Binomial(2, 1/2)).
    grey, red = (p for p in axes[0].patches if p.get_label() in ("other outcomes", "as or more extreme"))
    assert list(red.get_data().values) == pytest.approx([0.25, 0.0, 0.25])
    assert list(grey.get_data().values) == pytest.approx([0.0, 0.5, 0.0])
    # drawn again on the same axes: the same artists carry the new comparison, (15, 5) of 500 cases
    patches = list(axes[0].patches)
    plot_pvalue_vs_interval(15, 5, 500, axes=axes)
    assert list(axes[0].patches) == patches
    pmf = stats.binom.pmf(np.arange(21), 20, 0.5)
    extreme = np.abs(np.arange(21) - 10) >= 5
    assert red.get_data().values == pytest.approx(np.where(extreme, pmf, 0.0))
    assert red.get_data().values.sum() == pytest.approx(stats.binomtest(5, 20, 0.5).pvalue)
    lo, hi = qh_interval(15, 5, 500, signed=True).low, qh_interval(15, 5, 500, signed=True).high
    assert axes[1].get_title() == f"95% interval [{lo:+.3f}, {hi:+.3f}]"
    # the title and the sentence beside it (describe_comparison) give the interval alike
    assert f"[{lo:+.3f}, {hi:+.3f}]" in evallib.describe_comparison(15, 5, 500)
    plt.close("all")
    text = evallib.describe_comparison(0, 2, 50)
    assert "p = 0.48" in text and "[-0.090, +0.015]" in text
    # a difference of two error rates is read in percentage points, not per cent
    assert "up to 9.0 percentage points below or up to 1.5 percentage points above B's" in text
    assert "%" not in text.split("Interval:")[1].replace(f"{95:g}%", "")
    # an interval away from 0 is still a statement of compatibility, not a certainty
    lo, hi = qh_interval(3, 21, 50, signed=True).low, qh_interval(3, 21, 50, signed=True).high
    text14 = evallib.describe_comparison(3, 21, 50)
    assert (f"compatible with A's error rate being between {-100 * hi:.1f} and {-100 * lo:.1f} "
            "percentage points below B's") in text14
    # no disagreement: the interval is the point [0, 0], not read as "up to -0.0 points below"
    text00 = evallib.describe_comparison(0, 0, 50)
    assert "[+0.000, +0.000]" in text00 and "-0.0" not in text00
    assert "collapses to the single point 0" in text00 and "compatible" not in text00


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: mcnemar(-1, 3), ValueError, "b must be a whole number >= 0"),
        (lambda: mcnemar(1.5, 3), ValueError, "b must be a whole number"),
        (lambda: mcnemar(2, "3"), TypeError, "c must be a whole number"),
        (lambda: mcnemar(2, float("nan")), ValueError, "c must be a whole number"),
        (lambda: mcnemar(True, 3), TypeError, "b must be a whole number"),
        (lambda: qh_interval(30, 30, 50), ValueError, r"b \+ c must not exceed n"),
        (lambda: qh_interval(0, 0, 0), ValueError, "n must be a whole number >= 1"),
        (lambda: qh_interval(1, 2, 50, alpha=0), ValueError, r"alpha must lie in the open interval \(0, 1\)"),
        (lambda: qh_interval(1, 2, 50, alpha=1.5), ValueError, "alpha must lie"),
        (lambda: qh_interval(1, 2, 50, alpha=float("nan")), ValueError, "alpha must lie"),
        (lambda: holm_alphas([0.1, float("nan")]), ValueError, r"pvalues must all lie in \[0, 1\]"),
        (lambda: holm_alphas([]), ValueError, "pvalues must be a non-empty"),
        (lambda: adjusted_alphas([0.1], 0.05, "sidak"), ValueError, "adjust must be one of"),
        (lambda: pairwise_table({(1, 2): (3, 4)}, 5), ValueError, r"b \+ c must not exceed n"),
        (lambda: pairwise_table({(1, 2): 3}, 5), TypeError, "must be a pair"),
        (lambda: pairwise_table({}, 5), ValueError, "non-empty mapping"),
        (lambda: contingency([0, 1, 1], [0, 1], [0, 1, 0]), ValueError, "pred_a has 2 labels but y_true has 3"),
        (lambda: contingency([0, 1, np.nan], [0, 1, 1], [0, 1, 0]), ValueError, "y_true must not contain NaN"),
        (lambda: contingency([0, 1, 1], [0, 1, 1], [0, None, 0]), ValueError, "pred_b must not contain NaN"),
        (lambda: contingency([], [], []), ValueError, "y_true must contain at least one"),
        (lambda: compare_pairwise([0, 1], {"a": [0, 1]}), ValueError, "at least two classifiers"),
        (lambda: compare_pairwise([0, 1], {"a": [0, 1], "b": [1]}), ValueError, r"predictions\['b'\] has 1"),
        (lambda: qh_coverage(0.6, 0.6, 10, rng=np.random.default_rng(0)), ValueError, "pi_b \\+ pi_c"),
        (lambda: qh_coverage(0.1, 0.1, 10, rng=0.5), TypeError, "rng must be None, an int"),
    ],
)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_pair_labels_show_numpy_scalars_plainly():
    assert evallib.onetestset._pairwise.pair_label((np.int64(1), np.int64(4))) == "(1, 4)"
    assert evallib.onetestset._pairwise.pair_label(("dlda", "coin")) == "(dlda, coin)"
    assert evallib.onetestset._pairwise.pair_label("x") == "x"


def test_format_table_prints_like_the_paper():
    shown = evallib.format_table(pairwise_table(PAPER_COUNTS, 50))
    assert shown.loc["(1, 4)", "X2"] == "12.0" and shown.loc["(1, 4)", "exact p"] == "0.00028"
    assert shown.loc["(1, 4)", "adjusted CI"] == "[+0.09, +0.53]"
    assert shown.loc["(3, 5)", "reject H0"] == "no" and shown.loc["(3, 5)", "alpha"] == "0.050"
