"""Tests of evallib.manydatasets._ranktests against independent references.

References: scipy's ``wilcoxon`` (exact), ``friedmanchisquare``, ``studentized_range``,
``norm`` and ``chi2``; brute-force enumeration of sign patterns and of rank tables;
a seeded Monte Carlo of the studentized range; and the numbers printed in Flach (2012),
Examples 12.4, 12.7 and 12.8 and eq. (12.1) (recomputed here).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from evallib import (
    cd_cliques,
    critical_difference,
    describe_rank_analysis,
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
from evallib.studies import flach_example_12_4

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


def _distinct_arrangements(row):
    return sorted(set(itertools.permutations(row)))


@pytest.mark.parametrize("ranks", [
    [[1, 2, 3], [1.5, 1.5, 3], [1, 2, 3]],            # k = 3, N = 3, one tie
    [[2, 1, 3], [2.5, 1, 2.5], [1, 2.5, 2.5]],        # two data sets with a tie
    [[2, 2, 2], [1, 2, 3], [3, 1, 2]],                # one data set ties all three
    [[1, 2, 3, 4], [1.5, 1.5, 3.5, 3.5], [1, 3, 3, 3]],  # k = 4: two pairs tied, three tied
])
def test_friedman_null_distribution_given_ties_matches_enumeration(ranks):
    """The law conditional on the ties: every distinct arrangement of each data set's own ranks
    enumerated, the statistic of each table by scipy's (tie-corrected) friedmanchisquare."""
    ranks = np.asarray(ranks, dtype=float)
    n, k = ranks.shape
    counts: dict[float, int] = defaultdict(int)
    tables = list(itertools.product(*[_distinct_arrangements(tuple(r)) for r in ranks]))
    for rows in tables:
        table = np.array(rows)
        counts[round(float(stats.friedmanchisquare(*table.T).statistic), 8)] += 1
    ours = friedman_null_distribution(k, n, ranks=ranks)
    assert ours.sum() == pytest.approx(1.0)
    assert sorted(round(v, 8) for v in ours.index) == sorted(counts)
    for value, prob in zip(ours.index, ours.to_numpy()):
        assert prob == pytest.approx(counts[round(value, 8)] / len(tables), abs=1e-14)


@pytest.mark.parametrize("k,n", [(3, 4), (4, 3), (2, 6)])
def test_friedman_null_distribution_given_no_ties_is_the_unconditional_law(k, n):
    untied = np.array([np.random.default_rng(i).permutation(k) + 1 for i in range(n)])
    brute = _brute_friedman(k, n)
    given = friedman_null_distribution(k, n, ranks=untied)
    assert list(given.index) == list(friedman_null_distribution(k, n).index)
    for value, prob in zip(given.index, given.to_numpy()):
        assert prob == pytest.approx(brute[round(value, 8)], abs=1e-14)


def test_friedman_null_distribution_rejects_ranks_that_are_not_ranks():
    with pytest.raises(ValueError, match="shape"):
        friedman_null_distribution(3, 2, ranks=[[1, 2, 3]])
    with pytest.raises(ValueError, match="average rank"):
        friedman_null_distribution(3, 2, ranks=[[1, 2, 3], [1, 1, 3]])


def test_friedman_exact_refuses_large_tables():
    with pytest.raises(ValueError, match="too large"):
        friedman_null_distribution(6, 8)


# -------------------------------------------------------------------- eq. (12.1)
def test_eq_12_1_book_numbers():
    nem = critical_difference(3, 10, alpha=0.05)
    bd = critical_difference(3, 10, alpha=0.05, test="bonferroni-dunn")
    # q = 2.343 (Nemenyi) and 2.241 (Bonferroni–Dunn), as printed
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
    # Bonferroni–Dunn is the normal quantile at alpha/(2(k-1))
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


# ------------------------------------------- issue 17: ties in floating point and options
from evallib.manydatasets._ranktests import sign_test, snap_ties  # noqa: E402
from evallib.studies import demsar_table_6  # noqa: E402


def test_float_zero_difference_is_a_zero_not_a_loss():
    d = [0.3 - (0.1 + 0.2), 0.2, 0.4, 0.1, -0.05, 0.3]
    assert d[0] < 0  # the trap: -5.6e-17
    res = wilcoxon_signed_rank(d)
    assert res.n_zero == 1 and res.n == 5
    ref = stats.wilcoxon([0.2, 0.4, 0.1, -0.05, 0.3], method="exact")
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    raw = wilcoxon_signed_rank(d, rtol=0)  # the float comparison of old
    assert raw.n_zero == 0 and raw.r_minus == 1 + 2


def test_float_ties_in_absolute_differences_get_average_ranks():
    d = [0.3 - 0.1, 0.5 - 0.3, 0.7, -0.9]
    assert abs(d[0]) != abs(d[1])  # 0.19999999999999998 vs 0.2
    assert wilcoxon_signed_rank(d).ranks[:2] == (1.5, 1.5)
    assert wilcoxon_signed_rank(d, rtol=0).ranks[:2] == (1.0, 2.0)


def test_float_ties_in_friedman_scores():
    scores = [[0.1 + 0.2, 0.3, 0.2], [0.5, 0.7, 0.6], [0.9, 0.8, 0.7]]
    res = friedman(scores)
    assert res.ranks.iloc[0].tolist() == [1.5, 1.5, 3.0]
    ref = stats.friedmanchisquare(*np.array([[0.3, 0.3, 0.2], [0.5, 0.7, 0.6], [0.9, 0.8, 0.7]]).T)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert friedman(scores, rtol=0).ranks.iloc[0].tolist() == [1.0, 2.0, 3.0]


def test_snap_ties_is_sign_symmetric_and_rejects_bad_rtol():
    x = np.array([0.1 + 0.2, 0.3, -0.3, -(0.1 + 0.2), 1e-17, 0.5])
    assert np.array_equal(snap_ties(-x), -snap_ties(x))
    assert snap_ties(x)[4] == 0.0
    with pytest.raises(ValueError, match="rtol"):
        snap_ties(x, rtol=-1)
    with pytest.raises(ValueError, match="rtol"):
        wilcoxon_signed_rank([0.1, 0.2], rtol=0.5)


def test_demsar_table_2_zsplit_t_12_and_critical_value_21():
    t6 = demsar_table_6()
    d = (t6["C4.5+m"] - t6["C4.5"]).to_numpy()
    res = wilcoxon_signed_rank(d, zero_method="zsplit")
    # Table 2's rank column, typed from the paper
    assert res.ranks == (3.5, 7, 9, 12, 5, 3.5, 6, 1.5, 14, 1.5, 11, 13, 8, 10)
    assert (res.r_plus, res.r_minus, res.statistic) == (93, 12, 12)
    assert wilcoxon_critical_value(14) == 21 and res.reject


def _brute_pvalue_zsplit(d):
    """Exact zsplit p-value by enumerating the signs of the non-zero differences."""
    r = stats.rankdata(np.abs(d))
    nz = d != 0
    half = r[~nz].sum() / 2
    obs = min(r[d > 0].sum() + half, r[d < 0].sum() + half)
    count = 0
    for signs in itertools.product((0, 1), repeat=int(nz.sum())):
        rp = np.dot(signs, r[nz]) + half
        count += rp <= obs + 1e-9
    return min(1.0, 2 * count / 2 ** int(nz.sum()))


def test_zsplit_and_pratt_exact_against_enumeration():
    d = np.array([0.0, 0.3, -0.1, 0.3, 0.2, -0.2, 0.5, 0.0, 0.4, 0.0, 0.6, -0.05])
    assert wilcoxon_signed_rank(d, zero_method="zsplit").pvalue == pytest.approx(_brute_pvalue_zsplit(d))
    res = wilcoxon_signed_rank(d, zero_method="pratt")
    r = stats.rankdata(np.abs(d))
    assert res.r_plus == r[d > 0].sum() and res.r_minus == r[d < 0].sum()
    assert res.ranks == tuple(r)


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("correction", [False, True])
def test_normal_version_matches_scipy(zero_method, alternative, correction):
    rng = np.random.default_rng(17)
    d = np.round(rng.normal(0.05, 0.3, 40), 1)  # zeros and ties
    ours = wilcoxon_signed_rank(d, method="normal", zero_method=zero_method, alternative=alternative,
                                correction=correction)
    ref = stats.wilcoxon(d, method="approx", zero_method=zero_method, alternative=alternative,
                         correction=correction)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    rp = ours.r_plus
    assert rp == pytest.approx(stats.wilcoxon(d, zero_method=zero_method, alternative="greater",
                                              method="approx").statistic)


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_exact_matches_scipy(alternative):
    rng = np.random.default_rng(3)
    for _ in range(10):
        d = rng.normal(0.3, 1.0, 12)
        ours = wilcoxon_signed_rank(d, alternative=alternative)
        ref = stats.wilcoxon(d, alternative=alternative, method="exact")
        assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
        if ours.critical_value is not None:
            assert ours.reject == (ours.statistic <= ours.critical_value)


def test_rank_biserial_from_scipy_rank_sums():
    rng = np.random.default_rng(5)
    d = rng.normal(0.2, 1.0, 15)
    r_plus = stats.wilcoxon(d, alternative="greater").statistic
    total = 15 * 16 / 2
    assert wilcoxon_signed_rank(d).rank_biserial == pytest.approx((r_plus - (total - r_plus)) / total)
    assert wilcoxon_signed_rank([1.0, 2.0, 3.0]).rank_biserial == 1.0


def test_sign_test_against_binomtest_and_demsar_ties():
    t6 = demsar_table_6()
    d = (t6["C4.5+m"] - t6["C4.5"]).to_numpy()
    res = sign_test(d)
    assert (res.wins, res.losses, res.n_ties) == (11, 3, 2)
    assert res.pvalue == pytest.approx(stats.binomtest(11, 14).pvalue, rel=1e-12) and not res.reject
    assert sign_test(d, method="normal").reject  # Demšar's "significant" by Table 3
    drop = sign_test(d, ties="drop", alternative="greater")
    assert drop.n == 12 and drop.pvalue == pytest.approx(stats.binomtest(10, 12, alternative="greater").pvalue)
    odd = sign_test([0.0, 0.0, 0.0, 0.1, 0.2])
    assert (odd.wins, odd.losses, odd.n) == (3, 1, 4)  # one of three ties ignored
    assert sign_test([0.0, 0.0]).pvalue == 1.0


def test_friedman_demsar_table_6_both_conventions():
    printed = demsar_table_6(ranks=True)
    auc = demsar_table_6()
    # the printed ranks follow the AUCs except on voting (0.975 vs 0.975 ranked 2 and 3)
    ours = friedman(auc).ranks
    differ = (ours != printed).any(axis=1)
    assert list(differ[differ].index) == ["voting"]
    plain = friedman(printed, higher_is_better=False, tie_correction=False)
    avg = printed.mean().to_numpy()
    k, n = 4, 14
    textbook = 12 * n / (k * (k + 1)) * ((avg ** 2).sum() - k * (k + 1) ** 2 / 4)  # Demšar eq. (3)
    assert plain.statistic == pytest.approx(textbook, rel=1e-12)
    assert round(plain.statistic, 2) == 9.28 and round(plain.iman_davenport, 2) == 3.69
    corrected = friedman(printed, higher_is_better=False)
    ref = stats.friedmanchisquare(*(-printed.to_numpy()).T)
    assert corrected.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert round(corrected.statistic, 2) == 10.23 and round(corrected.iman_davenport, 2) == 4.19


@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: wilcoxon_signed_rank([0.1, 0.2], zero_method="none"), ValueError, "zero_method"),
        (lambda: wilcoxon_signed_rank([0.1, 0.2], alternative="bigger"), ValueError, "alternative"),
        (lambda: wilcoxon_signed_rank([0.1, 0.2], correction="yes"), TypeError, "correction"),
        (lambda: sign_test([0.1]), ValueError, "differences"),
        (lambda: sign_test([0.1, 0.2], ties="keep"), ValueError, "ties"),
        (lambda: sign_test([0.1, 0.2], method="z"), ValueError, "method"),
        (lambda: friedman(np.ones((3, 3)), tie_correction=None), TypeError, "tie_correction"),
        (lambda: demsar_table_6(ranks="yes"), TypeError, "ranks"),
    ],
)
def test_bad_options_name_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_offline_benchmark_stored_table_is_reproduced():
    """Recompute two of the ten data sets and compare with the stored table."""
    from evallib.studies import OFFLINE_DATASETS, OFFLINE_LEARNERS, offline_benchmark, offline_benchmark_scores

    stored = offline_benchmark_scores()
    assert set(stored["data set"]) == set(OFFLINE_DATASETS) and set(stored["learner"]) == set(OFFLINE_LEARNERS)
    assert len(stored) == 10 * 5 * 10
    part = offline_benchmark(rng=0, datasets=["iris", "wine 1/2"])
    ref = stored[stored["data set"].isin(["iris", "wine 1/2"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(part.reset_index(drop=True), ref, check_dtype=False)
    # accuracies are correct/n_test, and the folds cover each data set once
    from sklearn.datasets import load_iris
    n_iris = load_iris().target.size
    iris = stored[(stored["data set"] == "iris") & (stored["learner"] == "LDA")]
    assert iris["n_test"].sum() == n_iris
    assert np.allclose(iris["accuracy"] * iris["n_test"], np.round(iris["accuracy"] * iris["n_test"]))
    with pytest.raises(ValueError, match="datasets"):
        offline_benchmark(datasets=["mnist"])
    with pytest.raises(ValueError, match="folds"):
        offline_benchmark(folds=1)


def test_demsar_zero_method_ignores_one_of_an_odd_number_of_zeros():
    d = np.array([0.0, 0.3, -0.1, 0.0, 0.2, -0.25, 0.5, 0.0, 0.4, 0.35])
    res = wilcoxon_signed_rank(d, zero_method="demsar")
    ref = wilcoxon_signed_rank(d[1:], zero_method="zsplit")   # the first zero dropped
    assert (res.r_plus, res.r_minus, res.pvalue) == (ref.r_plus, ref.r_minus, ref.pvalue)
    assert res.ranks[0] == 0.0
    normal = wilcoxon_signed_rank(d, zero_method="demsar", method="normal")
    sp = stats.wilcoxon(d[1:], zero_method="zsplit", method="approx", correction=False)
    assert normal.pvalue == pytest.approx(sp.pvalue, rel=1e-9)
    even = np.array([0.0, 0.3, -0.1, 0.0, 0.2])   # an even number of zeros: the same as zsplit
    a, b = wilcoxon_signed_rank(even, zero_method="demsar"), wilcoxon_signed_rank(even, zero_method="zsplit")
    assert (a.r_plus, a.r_minus, a.pvalue, a.ranks) == (b.r_plus, b.r_minus, b.pvalue, b.ranks)


# ------------------------------- notebook 04's callbacks: the CD table and the rank analysis
from evallib import RankAnalysis, critical_difference_table, rank_analysis  # noqa: E402

# Demšar (2006), Table 5, as printed: q_alpha for k = 2..10 (Nemenyi: studentized range / sqrt 2;
# Bonferroni–Dunn: z at alpha / (2 (k - 1))).
DEMSAR_Q = {
    ("nemenyi", 0.05): [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
    ("nemenyi", 0.10): [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920],
    # k = 9 left out: the copy of the table we have reads 2.724 there, which fits neither its
    # neighbours nor z at 1 - 0.05/16 (2.734); the other eight entries are checked.
    ("bonferroni-dunn", 0.05): [1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, None, 2.773],
    ("bonferroni-dunn", 0.10): [1.645, 1.960, 2.128, 2.241, 2.326, 2.394, 2.450, 2.498, 2.539],
}


@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_critical_difference_table_reproduces_demsar_table_5(alpha):
    for k in range(2, 11):
        table = critical_difference_table(k, 14, alpha=alpha).set_index("test")
        assert list(table.index) == ["nemenyi", "bonferroni-dunn"]
        assert table.attrs == {"k": k, "n": 14, "alpha": alpha}
        for test in table.index:
            printed = DEMSAR_Q[(test, alpha)][k - 2]
            if printed is not None:
                assert table.loc[test, "q_alpha"] == pytest.approx(printed, abs=1e-3), (test, k)
            # eq. (12.1) from the row's own q
            assert table.loc[test, "cd"] == pytest.approx(table.loc[test, "q_alpha"] * np.sqrt(k * (k + 1) / 84))


def test_critical_difference_table_validates():
    with pytest.raises(ValueError, match="k"):
        critical_difference_table(1, 10)
    with pytest.raises(ValueError, match="alpha"):
        critical_difference_table(3, 10, alpha=0)


def _expected_pairs(avg, cd, control=None):
    """The pairs whose average ranks differ by at least cd, by hand."""
    names = list(avg)
    pairs = [(control, b) for b in names if b != control] if control else itertools.combinations(names, 2)
    return {frozenset(p) for p in pairs if abs(avg[p[0]] - avg[p[1]]) >= cd}


def test_rank_analysis_reproduces_demsars_worked_example():
    """Demšar (2006), section 3.2.4, on his Table 6's printed ranks: average ranks 3.143, 2.000,
    2.893, 1.964 and chi-square 9.28 (without the tie correction); with his printed q (Table 5) the Nemenyi CD at 0.05 is
    2.569 sqrt(20/84) = 1.25 and no pair differs; at 0.10 (q = 2.291, CD = 1.12) C4.5 differs from
    C4.5+m and from C4.5+m+cf; Bonferroni–Dunn at 0.05 with control C4.5 (q = 2.394, CD = 1.17)
    finds only C4.5+m+cf."""
    ranks = demsar_table_6(ranks=True)
    avg = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}
    res = rank_analysis(ranks, alpha=0.05, higher_is_better=False)
    assert isinstance(res, RankAnalysis)
    assert res.friedman.avg_ranks.round(3).to_dict() == avg
    # his 9.28 is the formula without the tie correction; with it (some printed ranks are shared),
    # the statistic is scipy's
    assert 12 * 14 / 20 * (sum(r * r for r in avg.values()) - 4 * 25 / 4) == pytest.approx(9.28, abs=0.01)
    assert res.friedman.statistic == pytest.approx(stats.friedmanchisquare(*ranks.to_numpy().T).statistic)
    assert res.significant.empty and _expected_pairs(avg, 2.569 * np.sqrt(20 / 84)) == set()
    res = rank_analysis(ranks, alpha=0.10, higher_is_better=False)
    found = {frozenset((r.a, r.b)) for r in res.significant.itertuples()}
    assert found == _expected_pairs(avg, 2.291 * np.sqrt(20 / 84)) == {
        frozenset({"C4.5", "C4.5+m"}), frozenset({"C4.5", "C4.5+m+cf"})}
    res = rank_analysis(ranks, alpha=0.05, test="bonferroni-dunn", control="C4.5", higher_is_better=False)
    found = {frozenset((r.a, r.b)) for r in res.significant.itertuples()}
    assert found == _expected_pairs(avg, 2.394 * np.sqrt(20 / 84), control="C4.5") == {
        frozenset({"C4.5", "C4.5+m+cf"})}
    assert res.control == "C4.5" and not res.control_chosen
    assert "control: C4.5\n" in res.describe() + "\n"


def test_rank_analysis_reads_text_like_the_table(table):
    """The text path gives what scipy and the DataFrame path give; the control rules of the widget."""
    text = "data set, " + ", ".join(table.columns) + "\n" + "\n".join(
        f"{i}, " + ", ".join(f"{v:.4f}" for v in row) for i, row in table.iterrows())
    res = rank_analysis(text, alpha=0.05)
    assert res.scores.shape == (10, 3) and list(res.scores.columns) == list(table.columns)
    assert res.friedman.statistic == pytest.approx(stats.friedmanchisquare(*table.to_numpy().T).statistic)
    assert res.cd.cd == pytest.approx(2.343 * np.sqrt(12 / 60), abs=5e-4)   # Flach's q, eq. (12.1)
    assert res.control is None and str(res) == res.describe() == describe_rank_analysis(table)
    assert "no difference of average ranks reaches the critical difference" in str(res)
    # Bonferroni–Dunn: no (or a blank) control takes the best average rank, Decision tree (1.6)
    for control in (None, "", "  "):
        res = rank_analysis(text, test="bonferroni-dunn", control=control)
        assert res.control == "Decision tree" and res.control_chosen
        assert "control: Decision tree (none given: the best average rank)" in res.describe()
    # Nemenyi ignores a control, whatever it says
    assert rank_analysis(text, control="nobody").control is None
    with pytest.raises(ValueError, match="control must be one of the algorithms"):
        rank_analysis(text, test="bonferroni-dunn", control="nobody")
    with pytest.raises(ValueError, match="test"):
        rank_analysis(text, test="tukey")
    with pytest.raises(ValueError, match="text"):
        rank_analysis("a, b\n1, 2")


def test_rank_analysis_plot_draws_its_control():
    ranks = demsar_table_6(ranks=True)
    res = rank_analysis(ranks, test="bonferroni-dunn", control="C4.5", higher_is_better=False)
    ax = res.plot()
    assert "control C4.5" in ax.get_title()
    band = [line for line in ax.lines if line.get_label() == "control ± CD"][0]
    assert max(band.get_xdata()) == pytest.approx(min(4.0, 22 / 7 + res.cd.cd))
    plt.close(ax.figure)
