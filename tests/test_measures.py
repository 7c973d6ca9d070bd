"""Tests of evallib.onetestset._measures against independent references.

References: scikit-learn's metrics on label vectors rebuilt from the counts,
statsmodels' ``proportion_confint`` and ``proportions_ztest``, scipy's binomial
distribution (exact coverage, the Clopper–Pearson defining equations), numerical
integration, brute-force enumeration of rankings, and the numbers printed in Flach
(2012), Examples 12.1, 12.2 and 12.5 (recomputed here; printed values are compared
after rounding half up to the digits the book prints).
"""

from __future__ import annotations

import itertools
from decimal import ROUND_HALF_UP, Decimal

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import integrate, stats
from sklearn import metrics
from statsmodels.stats.proportion import proportion_confint, proportions_ztest

from evallib import (
    accuracy_at_pos,
    accuracy_interval,
    accuracy_interval_coverage,
    accuracy_ztest,
    describe_accuracy_interval,
    expected_accuracy_from_auc,
    measures,
    measures_table,
    plot_accuracy_interval,
    plot_interval_coverage,
    plot_accuracy_vs_pos,
    plot_measures_vs_tn,
)

EX_12_1_A = (60, 20, 0, 20)   # tp, fn, fp, tn
EX_12_1_B = (75, 5, 10, 10)
EX_12_2_C = (75, 5, 10, 910)


def book(x: float, digits: int = 2) -> float:
    """Round half up, as printed numbers are (0.875 -> 0.88, 0.985 -> 0.99)."""
    q = Decimal(1).scaleb(-digits)
    return float(Decimal(repr(float(x))).quantize(q, rounding=ROUND_HALF_UP))


def labels_from_counts(tp, fn, fp, tn):
    y_true = np.r_[np.ones(tp + fn, int), np.zeros(fp + tn, int)]
    y_pred = np.r_[np.ones(tp, int), np.zeros(fn, int), np.ones(fp, int), np.zeros(tn, int)]
    return y_true, y_pred


# -------------------------------------------------------------------- measures
def test_measures_match_scikit_learn():
    rng = np.random.default_rng(12)
    for _ in range(200):
        tp, fn, fp, tn = (int(v) for v in rng.integers(1, 60, 4))
        y, p = labels_from_counts(tp, fn, fp, tn)
        m = measures(tp, fn, fp, tn)
        assert m.accuracy == pytest.approx(metrics.accuracy_score(y, p), abs=1e-12)
        assert m.tpr == pytest.approx(metrics.recall_score(y, p), abs=1e-12)
        assert m.recall == m.tpr
        assert m.tnr == pytest.approx(metrics.recall_score(y, p, pos_label=0), abs=1e-12)
        assert m.avg_recall == pytest.approx(metrics.balanced_accuracy_score(y, p), abs=1e-12)
        assert m.precision == pytest.approx(metrics.precision_score(y, p), abs=1e-12)
        assert m.f_measure == pytest.approx(metrics.f1_score(y, p), abs=1e-12)
        assert m.ppr == pytest.approx(np.mean(p == 1), abs=1e-12)
        # identities of section 12.1
        assert m.accuracy == pytest.approx(m.pos * m.tpr + (1 - m.pos) * m.tnr, abs=1e-12)
        assert m.ppr == pytest.approx(m.pos * m.tpr + (1 - m.pos) * m.fpr, abs=1e-12)
        assert m.undefined == ()


def test_example_12_1_printed_numbers():
    a, b = measures(*EX_12_1_A), measures(*EX_12_1_B)
    # "tpr = 0.75, tnr = 1.00 and acc = 0.80 ... (tpr + tnr)/2 = 0.88 = avg-rec"
    assert (book(a.tpr), book(a.tnr), book(a.accuracy), book(a.avg_recall)) == (0.75, 1.00, 0.80, 0.88)
    assert a.avg_recall == 0.875
    # "tpr = 0.94, tnr = 0.50, acc = 0.85 and avg-rec = 0.72"
    assert (book(b.tpr), book(b.tnr), book(b.accuracy), book(b.avg_recall)) == (0.94, 0.50, 0.85, 0.72)
    # the second model wins at the test distribution, the first on average over pos
    assert b.accuracy > a.accuracy and a.avg_recall > b.avg_recall


def test_example_12_1_expected_accuracy_is_average_recall():
    """E[acc] over pos ~ U(0, 1), by numerical integration of acc(pos)."""
    tables = {"first": EX_12_1_A, "second": EX_12_1_B}
    for name, cells in tables.items():
        integral, _ = integrate.quad(lambda p: accuracy_at_pos({name: cells}, p)["accuracy_at_pos"].iloc[0], 0, 1)
        assert integral == pytest.approx(measures(*cells).avg_recall, abs=1e-10)
    at_test = accuracy_at_pos(tables, 0.8)
    assert at_test["accuracy_at_pos"].to_dict() == pytest.approx({"first": 0.80, "second": 0.85})
    assert at_test["best_at_pos"].to_dict() == {"first": False, "second": True}
    # the two lines cross where 0.75 p + (1 - p) = 0.9375 p + 0.5 (1 - p), p = 0.5/0.6875
    cross = 0.5 / 0.6875
    assert accuracy_at_pos(tables, cross - 1e-6)["best_at_pos"]["first"]
    assert accuracy_at_pos(tables, cross + 1e-6)["best_at_pos"]["second"]


def test_example_12_2_printed_numbers_and_true_negatives():
    b, c = measures(*EX_12_1_B), measures(*EX_12_2_C)
    # "prec = 75/85 = 0.88 and recall rec = 75/80 = 0.94 ... F-measure ... 0.91"
    assert (book(b.precision), book(b.recall), book(b.f_measure)) == (0.88, 0.94, 0.91)
    assert b.f_measure == pytest.approx(stats.hmean([b.precision, b.recall]), abs=1e-12)
    # "true negative rate and accuracy (both rounded to 0.99)"; 0.985 rounds half up
    assert (book(c.tnr), book(c.accuracy)) == (0.99, 0.99)
    assert c.accuracy == pytest.approx(0.985)
    # "true positive rate/recall, precision and F-measure stay exactly the same"
    assert (c.tpr, c.precision, c.f_measure) == (b.tpr, b.precision, b.f_measure)
    for tn in (0, 1, 10, 10_000):
        m = measures(75, 5, 10, tn)
        assert (m.precision, m.recall, m.f_measure) == (b.precision, b.recall, b.f_measure)


def test_measures_table_rows():
    t = measures_table({"A": EX_12_1_A, "B": EX_12_1_B, "C": measures(*EX_12_2_C)})
    assert list(t.index) == ["A", "B", "C"]
    assert t.loc["C", "n"] == 1000 and t.loc["A", "tp"] == 60
    assert t.loc["B", "ppr"] == pytest.approx(0.85)


def test_degenerate_tables_name_undefined_measures():
    m = measures(0, 0, 3, 7)  # no actual positives
    assert set(m.undefined) == {"tpr", "recall", "avg_recall"}
    assert np.isnan(m.tpr) and m.tnr == 0.7 and m.accuracy == 0.7
    assert m.precision == 0.0 and m.f_measure == 0.0
    m = measures(0, 0, 0, 5)  # all true negatives: F-measure 0/0 as well
    assert "f_measure" in m.undefined and m.accuracy == 1.0
    m = measures(0, 4, 0, 6)  # no positive predictions, but errors: F is 0, precision undefined
    assert m.f_measure == 0.0 and m.undefined == ("precision",)


# ------------------------------------------------------------ E[acc] from AUC
def _brute_expected_accuracy(labels):
    """Average accuracy over the n + 1 split points of a ranking (top part positive)."""
    labels = np.asarray(labels)
    n = labels.size
    accs = []
    for i in range(n + 1):
        pred = np.r_[np.ones(i), np.zeros(n - i)]
        accs.append(np.mean(pred == labels))
    return float(np.mean(accs))


def _auc(labels):
    labels = np.asarray(labels)
    scores = -np.arange(labels.size)  # ranked first = highest score
    return metrics.roc_auc_score(labels, scores)


def test_expected_accuracy_from_auc_balanced_brute_force():
    for n in (2, 4, 6, 8):
        for pos_idx in itertools.combinations(range(n), n // 2):
            labels = np.zeros(n, int)
            labels[list(pos_idx)] = 1
            truth = _brute_expected_accuracy(labels)
            auc = _auc(labels)
            assert expected_accuracy_from_auc(auc, n) == pytest.approx(truth, abs=1e-12)
            assert expected_accuracy_from_auc(auc, n, positives=n // 2) == pytest.approx(truth, abs=1e-12)


def test_expected_accuracy_from_auc_imbalanced_needs_the_class_counts():
    n, P = 7, 2
    differs = False
    for pos_idx in itertools.combinations(range(n), P):
        labels = np.zeros(n, int)
        labels[list(pos_idx)] = 1
        truth = _brute_expected_accuracy(labels)
        auc = _auc(labels)
        assert expected_accuracy_from_auc(auc, n, positives=P) == pytest.approx(truth, abs=1e-12)
        differs |= abs(expected_accuracy_from_auc(auc, n) - truth) > 1e-3
    assert differs  # the book's formula assumes P = N


def test_expected_accuracy_from_auc_endpoints():
    assert expected_accuracy_from_auc(0.5, 10) == 0.5
    assert expected_accuracy_from_auc(1.0, 10) == pytest.approx(0.5 + 10 / 11 / 4)


# ------------------------------------------------------------------ Example 12.5
def test_example_12_5_first_interval():
    ci95 = accuracy_interval(80, 100, alpha=0.05, method="normal")
    assert ci95.estimate == 0.8
    assert ci95.se ** 2 == pytest.approx(0.0016) and ci95.se == pytest.approx(0.04)
    assert ci95.n_var == pytest.approx(16) and ci95.note == ""
    assert (book(ci95.low), book(ci95.high)) == (0.72, 0.88)
    one_sd = accuracy_interval(80, 100, alpha=2 * stats.norm.sf(1), method="normal")  # the "68%" interval
    assert (one_sd.low, one_sd.high) == pytest.approx((0.76, 0.84), abs=1e-12)


def test_example_12_5_second_interval_book_used_rounded_sd():
    """40 of 50: the book prints sd 0.06 and [0.68, 0.92]; the formula gives 0.0566 and
    [0.69, 0.91]. The printed interval is 0.8 -/+ 2 x 0.06, the rounded sd."""
    ci = accuracy_interval(40, 50, alpha=0.05, method="normal")
    assert book(ci.se) == 0.06 and ci.se == pytest.approx(np.sqrt(0.16 / 50))
    assert (book(ci.low), book(ci.high)) == (0.69, 0.91)
    assert (0.8 - 2 * 0.06, 0.8 + 2 * 0.06) == pytest.approx((0.68, 0.92))
    assert (book(0.8 - 2 * ci.se), book(0.8 + 2 * ci.se)) == (0.69, 0.91)


def test_example_12_5_pvalue():
    two = accuracy_ztest(80, 100, null=0.5)
    assert two.statistic == pytest.approx(6.0) and two.null_sd == pytest.approx(0.05)
    assert f"{two.pvalue:.4e}" == "1.9732e-09"  # the printed p = 1.9732e-9 (two-sided)
    one = accuracy_ztest(80, 100, null=0.5, alternative="greater")
    assert one.pvalue == pytest.approx(two.pvalue / 2, rel=1e-12)  # the text's words: "0.80 or higher"
    z, p = proportions_ztest(80, 100, value=0.5, prop_var=0.5)
    assert two.statistic == pytest.approx(z) and two.pvalue == pytest.approx(p, rel=1e-9)
    _, p_greater = proportions_ztest(80, 100, value=0.5, prop_var=0.5, alternative="larger")
    assert one.pvalue == pytest.approx(p_greater, rel=1e-9)
    less = accuracy_ztest(80, 100, null=0.5, alternative="less")
    assert less.pvalue == pytest.approx(1 - one.pvalue)


@pytest.mark.parametrize("method,sm_method", [("normal", "normal"), ("wilson", "wilson"), ("exact", "beta")])
def test_intervals_match_statsmodels(method, sm_method):
    for n in (5, 12, 30, 100, 517):
        for correct in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            for alpha in (0.01, 0.05, 0.32):
                ci = accuracy_interval(correct, n, alpha=alpha, method=method)
                lo, hi = proportion_confint(correct, n, alpha=alpha, method=sm_method)
                assert ci.low == pytest.approx(max(0.0, lo), abs=1e-9)
                assert ci.high == pytest.approx(min(1.0, hi), abs=1e-9)


def test_exact_interval_solves_clopper_pearson_equations():
    alpha = 0.05
    for n, correct in ((10, 3), (50, 40), (25, 24)):
        ci = accuracy_interval(correct, n, alpha=alpha, method="exact")
        assert stats.binom.sf(correct - 1, n, ci.low) == pytest.approx(alpha / 2, abs=1e-9)
        assert stats.binom.cdf(correct, n, ci.high) == pytest.approx(alpha / 2, abs=1e-9)


def _coverage(n, a, alpha, method):
    k = np.arange(n + 1)
    inside = [accuracy_interval(int(c), n, alpha=alpha, method=method) for c in k]
    hit = np.array([ci.low <= a <= ci.high for ci in inside])
    return float(stats.binom.pmf(k, n, a)[hit].sum())


def test_exact_coverage_and_the_small_sample_warning():
    """Exact coverage (sum of binomial probabilities): Clopper–Pearson never falls below
    95%; the normal interval does when n a (1 - a) < 5, which is what the note warns."""
    for a in (0.5, 0.8, 0.95):
        assert _coverage(30, a, 0.05, "exact") >= 0.95
    assert _coverage(20, 0.95, 0.05, "normal") < 0.80   # n a (1 - a) = 0.95
    assert _coverage(400, 0.8, 0.05, "normal") > 0.93   # n a (1 - a) = 64
    assert "< 5" in accuracy_interval(19, 20, method="normal").note
    assert accuracy_interval(19, 20, method="wilson").note == ""
    assert accuracy_interval(100, 100, method="normal").width == 0.0  # plug-in variance 0: the note says so
    assert accuracy_interval(100, 100, method="normal").note


def test_the_default_interval_is_wilson():
    """Brown, Cai & DasGupta (2001) recommend Wilson's interval; it is the default."""
    ci = accuracy_interval(80, 100)
    assert ci.method == "wilson"
    assert (ci.low, ci.high) == pytest.approx(proportion_confint(80, 100, alpha=0.05, method="wilson"), abs=1e-12)


def _coverage_statsmodels(n, a, alpha, sm_method):
    """Exact coverage from statsmodels' intervals: the binomial probability of the counts whose interval holds a."""
    k = np.arange(n + 1)
    lo, hi = proportion_confint(k, n, alpha=alpha, method=sm_method)
    return float(stats.binom.pmf(k, n, a)[(lo <= a + 1e-12) & (a <= hi + 1e-12)].sum())


@pytest.mark.parametrize("method,sm_method", [("normal", "normal"), ("wilson", "wilson"), ("exact", "beta")])
def test_interval_coverage_matches_statsmodels_enumeration(method, sm_method):
    grid = np.array([0.5, 0.63, 0.8, 0.9, 0.97, 0.995])
    for n, alpha in ((20, 0.05), (100, 0.05), (137, 0.1)):
        ours = accuracy_interval_coverage(n, grid, method=method, alpha=alpha)
        ref = [_coverage_statsmodels(n, a, alpha, sm_method) for a in grid]
        assert ours == pytest.approx(ref, abs=1e-9)
    assert isinstance(accuracy_interval_coverage(50, 0.8), float)


def test_interval_coverage_matches_monte_carlo():
    """100,000 simulated test sets of 100 cases at a = 0.8: the share of intervals holding 0.8."""
    rng = np.random.default_rng(2024)
    counts = rng.binomial(100, 0.8, size=100_000)
    for method in ("normal", "wilson"):
        table = {c: accuracy_interval(int(c), 100, method=method) for c in np.unique(counts)}
        hits = np.mean([table[c].low <= 0.8 <= table[c].high for c in counts])
        assert accuracy_interval_coverage(100, 0.8, method=method) == pytest.approx(hits, abs=4 * np.sqrt(0.05 * 0.95 / 1e5))


def test_normal_interval_undercovers_where_the_book_calls_it_safe():
    """n a (1 - a) >= 5 does not make the normal interval safe (Brown, Cai & DasGupta 2001)."""
    n, a = 100, 0.93                     # n a (1 - a) = 6.5, the book's rule says fine
    assert n * a * (1 - a) >= 5
    assert accuracy_interval_coverage(n, a, method="normal") < 0.92
    assert accuracy_interval_coverage(n, a, method="wilson") > 0.93


def test_describe_accuracy_interval_lists_three_methods():
    text = describe_accuracy_interval(80, 100)
    for method in ("normal", "wilson", "exact"):
        assert method in text
    assert "[0.722, 0.878]" in text and "note" not in text
    assert text.index("wilson") < text.index("normal")      # the default first
    assert "note:" in describe_accuracy_interval(9, 10)


# ------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: measures(-1, 2, 3, 4), ValueError, "tp"),
        (lambda: measures(1, 2.5, 3, 4), ValueError, "fn"),
        (lambda: measures(1, 2, True, 4), TypeError, "fp"),
        (lambda: measures(0, 0, 0, 0), ValueError, "empty"),
        (lambda: measures_table({}), TypeError, "tables"),
        (lambda: measures_table({"A": (1, 2, 3)}), TypeError, "tables"),
        (lambda: accuracy_at_pos({"A": EX_12_1_A}, 1.5), ValueError, "pos"),
        (lambda: accuracy_at_pos({"A": (0, 0, 3, 4)}, 0.5), ValueError, "actual positive"),
        (lambda: expected_accuracy_from_auc(1.2, 10), ValueError, "auc"),
        (lambda: expected_accuracy_from_auc(0.8, 0), ValueError, "n"),
        (lambda: expected_accuracy_from_auc(0.8, 10, positives=11), ValueError, "positives"),
        (lambda: accuracy_interval(11, 10), ValueError, "correct"),
        (lambda: accuracy_interval(5, 0), ValueError, "n"),
        (lambda: accuracy_interval(5, 10, alpha=0), ValueError, "alpha"),
        (lambda: accuracy_interval(5, 10, alpha=float("nan")), ValueError, "alpha"),
        (lambda: accuracy_interval(5, 10, method="agresti"), ValueError, "method"),
        (lambda: accuracy_interval_coverage(10, 1.2), ValueError, "accuracy"),
        (lambda: accuracy_interval_coverage(0, 0.5), ValueError, "n"),
        (lambda: accuracy_ztest(5, 10, null=1.0), ValueError, "null"),
        (lambda: accuracy_ztest(5, 10, alternative="bigger"), ValueError, "alternative"),
    ],
)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ------------------------------------------------------------------------ plots
def test_plot_accuracy_vs_pos_draws_lines_and_marks():
    ax = plot_accuracy_vs_pos({"A": EX_12_1_A, "B": EX_12_1_B}, pos=0.3)
    line_a = ax.lines[0]
    assert list(line_a.get_ydata()) == pytest.approx([1.0, 0.75])  # tnr at pos 0, tpr at pos 1
    assert "0.3" in ax.get_title()
    plt.close(ax.figure)


def test_plot_measures_vs_tn_flat_precision_recall():
    ax = plot_measures_vs_tn(75, 5, 10, tn=910, tn_max=5000)
    lines = {line.get_label(): line for line in ax.lines}
    for name in ("precision", "recall", "f-measure"):
        assert np.ptp(lines[name].get_ydata()) == 0.0
    assert np.all(np.diff(lines["accuracy"].get_ydata()) > 0)
    plt.close(ax.figure)


def test_plot_accuracy_interval_marks_three_intervals():
    ax = plot_accuracy_interval(8, 10, alpha=0.05)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["Wilson (default)", "exact (Clopper–Pearson)", "normal (the book's)"]
    assert "< 5" in ax.get_title()
    plt.close(ax.figure)


def test_plot_accuracy_interval_zooms_to_the_intervals():
    ax = plot_accuracy_interval(80, 100, alpha=0.05)
    left, right = ax.get_xlim()
    ends = [accuracy_interval(80, 100, method=m) for m in ("wilson", "exact", "normal")]
    assert left <= min(c.low for c in ends) and right >= max(c.high for c in ends)
    assert right - left < 0.3                      # not the whole [0, 1]
    texts = {t.get_text() for t in ax.texts}
    assert {"0.711", "0.867", "0.722", "0.878"} <= texts
    plt.close(ax.figure)


def test_plot_interval_coverage_draws_each_method_and_the_level():
    fig, ax = plt.subplots()
    assert plot_interval_coverage(50, alpha=0.1, methods=("normal", "wilson", "exact"), ax=ax) is ax
    assert len(ax.lines) == 4 and "promised 0.9" in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(fig)
    with pytest.raises(ValueError, match="methods"):
        plot_interval_coverage(50, methods=("agresti",))
