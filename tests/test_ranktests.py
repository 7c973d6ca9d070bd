"""Tests of evallib.ranktests against independent references.

References: scipy's ``wilcoxon`` (exact), ``friedmanchisquare``, ``studentized_range``,
``norm`` and ``chi2``; brute-force enumeration of sign patterns and of rank tables;
a seeded Monte Carlo of the studentized range; and the numbers printed in Flach (2012),
Examples 12.4, 12.7 and 12.8 and eq. (12.1) (recomputed here).
"""

from __future__ import annotations

import itertools
from collections import Counter

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy import stats

import evallib
from evallib import (
    cd_cliques,
    critical_difference,
    describe_rank_analysis,
    flach_example_12_4,
    friedman,
    friedman_critical_value,
    friedman_null_distribution,
    plot_cd_diagram,
    rank_differences,
    scores_from_text,
    signed_rank_null,
    wilcoxon_critical_value,
    wilcoxon_signed_rank,
)

# Example 12.4 as printed: the averages and standard deviations of the last two lines.
PRINTED_AVG = {"Naive Bayes": 0.6937, "Decision tree": 0.7902, "Nearest neighbour": 0.7606}
PRINTED_SD = {"Naive Bayes": 0.0448, "Decision tree": 0.1014, "Nearest neighbour": 0.1248}
# Example 12.8's ranks in brackets, typed from the book (rows = data sets).
PRINTED_RANKS_12_8 = [
    (3, 1, 2), (3, 1, 2), (2, 3, 1), (2, 1, 3), (3, 1, 2),
    (3, 2, 1), (1, 3, 2), (2, 1, 3), (3, 1, 2), (1, 2, 3),
]


@pytest.fixture(scope="module")
def table():
    return flach_example_12_4()


# ------------------------------------------------------------------ Example 12.4
def test_example_12_4_table_matches_printed_summary(table):
    assert table.shape == (10, 3) and list(table.index) == list(range(1, 11))
    avg = table.mean()
    sd = table.std(ddof=1)
    for name in PRINTED_AVG:
        assert avg[name] == pytest.approx(PRINTED_AVG[name], abs=6e-5)
        # NB's sd is 0.04486 from the printed (rounded) accuracies; the book's 0.0448 was
        # presumably computed from unrounded ones: agreement to 1e-4.
        assert sd[name] == pytest.approx(PRINTED_SD[name], abs=1e-4)


# ------------------------------------------------------------------ Example 12.7
def test_example_12_7_rank_sums_and_critical_value(table):
    d = table["Naive Bayes"] - table["Decision tree"]
    res = wilcoxon_signed_rank(d, alpha=0.05)
    assert res.ranks == (4, 8, 1, 9, 6, 7, 5, 3, 10, 2)       # the book's Rank column
    assert (res.r_plus, res.r_minus, res.statistic) == (8, 47, 8)
    assert res.critical_value == 8 and wilcoxon_critical_value(10, alpha=0.05) == 8
    assert res.reject and res.method == "exact" and res.n_zero == 0 and not res.ties
    ref = stats.wilcoxon(d, method="exact")
    assert res.statistic == ref.statistic and res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def _brute_null(ranks):
    """Distribution of R+ by enumerating all 2^n sign patterns."""
    counts = Counter()
    for signs in itertools.product((0, 1), repeat=len(ranks)):
        counts[float(np.dot(signs, ranks))] += 1
    total = 2 ** len(ranks)
    return {k: v / total for k, v in counts.items()}


@pytest.mark.parametrize("ranks", [list(range(1, 9)), [1, 2.5, 2.5, 4, 6, 6, 6, 8.5, 8.5], [3.5] * 6])
def test_signed_rank_null_matches_enumeration(ranks):
    ours = signed_rank_null(ranks)
    brute = _brute_null(ranks)
    assert ours.sum() == pytest.approx(1.0)
    assert set(ours.index) == set(brute)
    for value, prob in brute.items():
        assert ours[value] == pytest.approx(prob, abs=1e-15)


def test_wilcoxon_critical_values_from_enumeration():
    """The largest c with P(T <= c) <= alpha/2, checked by enumerating sign patterns."""
    for n in range(1, 14):
        brute = _brute_null(list(range(1, n + 1)))
        for alpha in (0.05, 0.01, 0.10):
            cum, best = 0.0, None
            for value in sorted(brute):
                cum += brute[value]
                if cum <= alpha / 2 + 1e-15:
                    best = int(value)
            assert wilcoxon_critical_value(n, alpha=alpha) == best
    assert wilcoxon_critical_value(5) is None and wilcoxon_critical_value(6) == 0


def test_wilcoxon_pvalues_match_scipy_exact():
    rng = np.random.default_rng(7)
    for n in (3, 6, 10, 15, 25):
        for _ in range(20):
            d = rng.normal(0.2, 1.0, n)
            ours = wilcoxon_signed_rank(d)
            ref = stats.wilcoxon(d, method="exact")
            assert ours.statistic == ref.statistic
            assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
            assert ours.reject == (ours.pvalue <= 0.05)
            if ours.critical_value is not None:
                assert ours.reject == (ours.statistic <= ours.critical_value)


def test_wilcoxon_normal_approximation_matches_scipy():
    rng = np.random.default_rng(8)
    d = rng.normal(0.1, 1.0, 300)  # above the exact limit: "auto" switches to normal
    ours = wilcoxon_signed_rank(d)
    ref = stats.wilcoxon(d, method="approx", correction=False)
    assert ours.method == "normal"
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    exact = wilcoxon_signed_rank(d[:60], method="exact")
    approx = wilcoxon_signed_rank(d[:60], method="normal")
    assert approx.pvalue == pytest.approx(exact.pvalue, abs=0.01)


def test_wilcoxon_ties_and_zeros_documented_answer():
    """Zeros are dropped, ties get average ranks, and the p-value is the exact
    permutation p-value given those ranks (checked by enumerating sign flips)."""
    d = np.array([0.0, 0.3, -0.1, 0.3, 0.2, -0.2, 0.5, 0.0, 0.4, 0.3, 0.6, -0.05])
    res = wilcoxon_signed_rank(d)
    assert res.n_zero == 2 and res.n == 10 and res.ties
    assert res.ranks[0] == 0.0 and res.ranks[7] == 0.0
    nz = d[d != 0]
    r = stats.rankdata(np.abs(nz))
    assert res.r_plus == r[nz > 0].sum() and res.r_minus == r[nz < 0].sum()
    t = min(res.r_plus, res.r_minus)
    brute = _brute_null(list(r))
    p = min(1.0, 2 * sum(prob for value, prob in brute.items() if value <= t + 1e-9))
    assert res.pvalue == pytest.approx(p, abs=1e-15)
    # scipy agrees on the statistic (and, with zeros and ties, uses an approximation)
    assert stats.wilcoxon(d, zero_method="wilcox").statistic == res.statistic


# ------------------------------------------------------------------ Example 12.8
def test_example_12_8_ranks_average_ranks_and_statistic(table):
    res = friedman(table)
    assert res.ranks.to_numpy().tolist() == [list(map(float, r)) for r in PRINTED_RANKS_12_8]
    assert res.avg_ranks.to_dict() == pytest.approx(
        {"Naive Bayes": 2.3, "Decision tree": 1.6, "Nearest neighbour": 2.1})
    assert res.mean_rank == 2.0                       # R-bar = 2
    assert res.between == pytest.approx(2.6)          # n sum (R_j - R)^2 = 2.6
    assert res.within == pytest.approx(1.0)           # 1/(n(k-1)) sum (R_ij - R)^2 = 1
    assert res.statistic == pytest.approx(2.6)        # "so the Friedman statistic is 2.6"
    ref = stats.friedmanchisquare(*table.to_numpy().T)
    assert res.statistic == pytest.approx(ref.statistic) and res.pvalue == pytest.approx(ref.pvalue)


def test_example_12_8_critical_value_book_says_7_8():
    """The book: "the critical value for k = 3 and n = 10 at alpha = 0.05 is 7.8". The
    chi-square approximation gives 5.99 and the exact distribution 6.2; 7.8 is the
    chi-square quantile with k = 3 instead of k - 1 = 2 degrees of freedom (7.81).
    The conclusion (2.6 is not significant) holds either way."""
    chi2 = friedman_critical_value(3, 10, alpha=0.05)
    exact = friedman_critical_value(3, 10, alpha=0.05, method="exact")
    assert chi2 == pytest.approx(5.991, abs=1e-3)
    assert exact == pytest.approx(6.2)
    assert round(stats.chi2.isf(0.05, 3), 1) == 7.8
    assert 2.6 < min(chi2, exact)
    # "if the average ranks were 2.7, 1.3 and 2.0, then the null hypothesis would be rejected"
    alt = 10 * sum((r - 2.0) ** 2 for r in (2.7, 1.3, 2.0)) / 1.0
    assert alt == pytest.approx(9.8) and alt > max(chi2, exact, 7.8)


def test_friedman_with_ties_matches_scipy():
    rng = np.random.default_rng(3)
    for _ in range(30):
        scores = rng.integers(0, 4, size=(int(rng.integers(3, 12)), int(rng.integers(3, 6)))).astype(float)
        if np.all(scores == scores[:, :1]):
            continue
        ours = friedman(scores)
        ref = stats.friedmanchisquare(*scores.T)
        assert ours.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_friedman_iman_davenport_and_direction(table):
    res = friedman(table)
    n, k = 10, 3
    f = (n - 1) * res.statistic / (n * (k - 1) - res.statistic)
    assert res.iman_davenport == pytest.approx(f)
    assert res.f_df == (2, 18)
    assert res.f_pvalue == pytest.approx(stats.f.sf(f, 2, 18))
    errors = friedman(1 - table, higher_is_better=False)  # error rates, lower is better
    assert errors.avg_ranks.to_dict() == pytest.approx(res.avg_ranks.to_dict())


def test_friedman_degenerate_tables():
    tied = friedman(np.ones((5, 3)))
    assert (tied.statistic, tied.pvalue, tied.iman_davenport, tied.f_pvalue) == (0.0, 1.0, 0.0, 1.0)
    same = friedman(np.tile([0.9, 0.8, 0.7], (6, 1)))
    assert same.statistic == pytest.approx(6 * 2) and same.iman_davenport == np.inf and same.f_pvalue == 0.0


def _brute_friedman(k, n):
    counts = Counter()
    perms = list(itertools.permutations(range(1, k + 1)))
    for rows in itertools.product(perms, repeat=n):
        sums = np.sum(rows, axis=0)
        stat = 12.0 / (n * k * (k + 1)) * np.sum(sums ** 2) - 3 * n * (k + 1)
        counts[round(float(stat), 8)] += 1
    total = len(perms) ** n
    return {s: c / total for s, c in counts.items()}


@pytest.mark.parametrize("k,n", [(3, 4), (4, 3), (2, 6), (3, 5)])
def test_friedman_null_distribution_matches_enumeration(k, n):
    ours = friedman_null_distribution(k, n)
    brute = _brute_friedman(k, n)
    assert ours.sum() == pytest.approx(1.0)
    assert sorted(round(v, 8) for v in ours.index) == sorted(brute)
    for value, prob in zip(ours.index, ours.to_numpy()):
        assert prob == pytest.approx(brute[round(value, 8)], abs=1e-14)


def test_friedman_exact_distribution_agrees_with_scipy_statistic_by_simulation():
    """Monte Carlo: random rank tables under H0, statistic by scipy; tail probability at
    the exact critical value within 4 standard errors of the exact one."""
    rng = np.random.default_rng(11)
    k, n, reps = 3, 10, 20_000
    null = friedman_null_distribution(k, n)
    crit = friedman_critical_value(k, n, method="exact")
    exact_tail = float(null[null.index >= crit - 1e-9].sum())
    ranks = np.argsort(rng.random((reps, n, k)), axis=2) + 1
    sums = ranks.sum(axis=1)
    stat = 12.0 / (n * k * (k + 1)) * (sums ** 2).sum(axis=1) - 3 * n * (k + 1)
    assert stats.friedmanchisquare(*ranks[0].T).statistic == pytest.approx(stat[0])
    mc_tail = float(np.mean(stat >= crit - 1e-9))
    se = np.sqrt(exact_tail * (1 - exact_tail) / reps)
    assert abs(mc_tail - exact_tail) < 4 * se
    assert exact_tail <= 0.05


def test_friedman_exact_refuses_large_tables():
    with pytest.raises(ValueError, match="too large"):
        friedman_null_distribution(6, 8)


# -------------------------------------------------------------------- eq. (12.1)
def test_eq_12_1_book_numbers():
    nem = critical_difference(3, 10, alpha=0.05)
    bd = critical_difference(3, 10, alpha=0.05, test="bonferroni-dunn")
    # q = 2.343 (Nemenyi) and 2.241 (Bonferroni-Dunn), as printed
    assert nem.q_alpha == pytest.approx(2.343, abs=1e-3) and f"{nem.q_alpha:.4f}" == "2.3437"
    assert f"{bd.q_alpha:.3f}" == "2.241"
    # CD: the book prints 1.047; the formula gives 1.0481 (1.048), and even with the
    # book's q = 2.343 it gives 1.0478. Test the correct value.
    assert f"{nem.cd:.3f}" == "1.048"
    assert f"{2.343 * np.sqrt(3 * 4 / (6 * 10)):.4f}" == "1.0478"
    assert nem.cd == pytest.approx(1.047, abs=1.5e-3)
    assert bd.cd < nem.cd  # "leading to a tighter critical difference"
    assert float(nem) == nem.cd


def test_nemenyi_q_against_studentized_range_definition_by_simulation():
    """q_alpha * sqrt(2) is the 1 - alpha quantile of the range of k standard normals."""
    rng = np.random.default_rng(5)
    for k in (3, 5, 8):
        q = critical_difference(k, 10, alpha=0.05).q_alpha * np.sqrt(2)
        draws = rng.standard_normal((200_000, k))
        rng_range = draws.max(axis=1) - draws.min(axis=1)
        share = np.mean(rng_range <= q)
        assert share == pytest.approx(0.95, abs=4 * np.sqrt(0.95 * 0.05 / 200_000))
        assert q == pytest.approx(stats.studentized_range.ppf(0.95, k, np.inf), rel=1e-12)


def test_critical_difference_special_cases():
    # k = 2: both tests reduce to the two-sided normal quantile
    for test in ("nemenyi", "bonferroni-dunn"):
        assert critical_difference(2, 7, alpha=0.05, test=test).q_alpha == pytest.approx(1.959964, abs=1e-5)
    # Bonferroni-Dunn is the normal quantile at alpha/(2(k-1))
    for k in (3, 5, 10):
        assert critical_difference(k, 5, alpha=0.1, test="bonferroni-dunn").q_alpha == pytest.approx(
            stats.norm.ppf(1 - 0.1 / (2 * (k - 1))))
    # CD shrinks like 1/sqrt(n)
    assert critical_difference(4, 40).cd == pytest.approx(critical_difference(4, 10).cd / 2)


def test_cd_cliques_against_brute_force():
    rng = np.random.default_rng(9)
    for _ in range(300):
        k = int(rng.integers(2, 9))
        ranks = pd.Series(rng.uniform(1, k, k).round(2), index=[f"a{i}" for i in range(k)])
        cd = float(rng.uniform(0.2, 3.0))
        order = list(ranks.sort_values(kind="stable").index)
        r = ranks[order].to_numpy()
        runs = [(i, j) for i in range(k) for j in range(i + 1, k) if r[j] - r[i] < cd - 1e-12]
        maximal = [(i, j) for i, j in runs if not any(a <= i and j <= b and (a, b) != (i, j) for a, b in runs)]
        assert cd_cliques(ranks, cd) == [tuple(order[i:j + 1]) for i, j in sorted(maximal)]


def test_book_example_of_post_hoc_differences():
    """"If the average ranks are 2.7, 1.3 and 2.0, then only the difference between the
    first and second algorithm exceeds the critical difference.\""""
    ranks = {"first": 2.7, "second": 1.3, "third": 2.0}
    cd = critical_difference(3, 10)
    diffs = rank_differences(ranks, cd)
    sig = diffs[diffs["significant"]]
    assert len(sig) == 1 and {sig.iloc[0]["a"], sig.iloc[0]["b"]} == {"first", "second"}
    assert cd_cliques(ranks, cd) == [("second", "third"), ("third", "first")]
    ctrl = rank_differences(ranks, critical_difference(3, 10, test="bonferroni-dunn"), control="third")
    assert list(ctrl["b"]) == ["second", "first"] and not ctrl["significant"].any()


def test_plot_cd_diagram_nemenyi_and_control():
    ranks = {"A": 1.2, "B": 2.0, "C": 2.4, "D": 3.9, "E": 4.5}
    cd = critical_difference(5, 20)
    ax = plot_cd_diagram(ranks, cd)
    thick = [line for line in ax.lines if line.get_linewidth() == 3.5]
    assert len(thick) == len(cd_cliques(ranks, cd))
    bar = [line for line in ax.lines if line.get_label() == "CD"][0]
    assert np.ptp(bar.get_xdata()) == pytest.approx(cd.cd)
    texts = " ".join(t.get_text() for t in ax.texts)
    assert all(name in texts for name in ranks) and f"CD = {cd.cd:.3f}" in texts
    plt.close(ax.figure)
    ax = plot_cd_diagram(ranks, critical_difference(5, 20, test="bonferroni-dunn"), control="C")
    band = [line for line in ax.lines if line.get_label() == "control ± CD"][0]
    assert np.mean(band.get_xdata()) == pytest.approx(2.4) or min(band.get_xdata()) == 1.0
    assert "control C" in ax.get_title()
    plt.close(ax.figure)


def test_scores_from_text_and_description(table):
    text = "data set, " + ", ".join(table.columns) + "\n" + "\n".join(
        f"{i}, " + ", ".join(f"{v:.4f}" for v in row) for i, row in table.iterrows())
    parsed = scores_from_text(text)
    assert parsed.shape == (10, 3) and list(parsed.columns) == list(table.columns)
    assert np.allclose(parsed.to_numpy(), table.to_numpy())
    report = describe_rank_analysis(parsed)
    assert "Friedman statistic 2.600" in report and "CD = 1.048" in report
    assert "no difference" in report
    report = describe_rank_analysis(parsed, test="bonferroni-dunn")
    assert "q = 2.241" in report


# ------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: wilcoxon_signed_rank([0.1]), ValueError, "differences"),
        (lambda: wilcoxon_signed_rank([0.0, 0.0, 0.0]), ValueError, "all zero"),
        (lambda: wilcoxon_signed_rank([0.1, np.nan, 0.2]), ValueError, "differences"),
        (lambda: wilcoxon_signed_rank([[0.1, 0.2]]), ValueError, "differences"),
        (lambda: wilcoxon_signed_rank(["a", "b"]), TypeError, "differences"),
        (lambda: wilcoxon_signed_rank([0.1, 0.2], alpha=1.0), ValueError, "alpha"),
        (lambda: wilcoxon_signed_rank([0.1, 0.2], method="t"), ValueError, "method"),
        (lambda: signed_rank_null([1.3, 2]), ValueError, "ranks"),
        (lambda: wilcoxon_critical_value(0), ValueError, "n"),
        (lambda: friedman(np.ones((1, 3))), ValueError, "at least 2 data sets"),
        (lambda: friedman(np.ones((5, 1))), ValueError, "at least 2 algorithms"),
        (lambda: friedman([[0.1, np.nan], [0.2, 0.3]]), ValueError, "NaN"),
        (lambda: friedman([0.1, 0.2, 0.3]), ValueError, "two-dimensional"),
        (lambda: friedman(np.ones((3, 3)), higher_is_better="yes"), TypeError, "higher_is_better"),
        (lambda: critical_difference(1, 10), ValueError, "k"),
        (lambda: critical_difference(3, 1), ValueError, "n"),
        (lambda: critical_difference(3, 10, alpha=1.5), ValueError, "alpha"),
        (lambda: critical_difference(3, 10, test="tukey"), ValueError, "test"),
        (lambda: friedman_critical_value(3, 10, method="f"), ValueError, "method"),
        (lambda: rank_differences({"a": 1.0, "b": 2.0}, -1), ValueError, "cd"),
        (lambda: rank_differences({"a": 1.0, "b": 2.0}, 1.0, control="z"), ValueError, "control"),
        (lambda: cd_cliques({"a": 1.0}, 1.0), ValueError, "avg_ranks"),
        (lambda: cd_cliques({"a": 0.5, "b": 2.0}, 1.0), ValueError, "avg_ranks"),
        (lambda: plot_cd_diagram({"a": 1.0, "b": np.nan}, 1.0), ValueError, "avg_ranks"),
        (lambda: scores_from_text("a, b\n1, 2"), ValueError, "text"),
        (lambda: scores_from_text("set, a, b\n1, 0.5, x\n2, 0.1, 0.2"), ValueError, "text"),
        (lambda: scores_from_text("set, a, b\n1, 0.5\n2, 0.1, 0.2"), ValueError, "NaN"),
    ],
)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_public_api_exported():
    for name in ("wilcoxon_signed_rank", "friedman", "critical_difference", "plot_cd_diagram"):
        assert hasattr(evallib, name)
