"""The report's text: tables formatted for reading, the figure of the pairwise intervals, and
the plain-language summary (effect sizes and intervals first, p-values second)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._compat import moved_names
from .._multitest import ADJUSTMENT_NAMES, ADJUSTMENTS, FDR_ADJUSTMENTS, FWER_ADJUSTMENTS
from .._plotting import get_axes
from .._results import table_metadata
from .._validate import check_choice
from ..onetestset._scoring import format_auc_pairwise, format_auc_table, pair_interval_header
from . import _percase as percase
from ._inputs import SMALL_TEST_SET, Predictions
from ._percase import BALANCED_TEST
from ._prose import (
    adjusted_p_header,
    bounds,
    escape_bold,
    format_adjusted_p,
    format_p,
    gap_points,
    interval_points,
    join_names,
    level_text,
    matters_clause,
    pct,
    plural,
    pvalue_cell,
    signed,
    tie_groups,
    tie_note,
    top_two,
)

#: Each adjustment's name in headers and sentences: evallib's one spelling
#: (:data:`evallib._multitest.ADJUSTMENT_NAMES`) for the report's menu; ``"none"`` has none.
ADJUST_NAME = {k: ADJUSTMENT_NAMES[k] for k in ("holm", "bonferroni", "bh", "by")}
#: The interval of a balanced accuracy and of a difference of them (:func:`percase.stratified_mean`):
#: the class means' t interval with Welch–Satterthwaite degrees of freedom.
STRATIFIED_INTERVAL = "stratified t"
#: Why the leaders' interval is unadjusted beside an adjusted p-value.
LEADERS_UNADJUSTED = ("unadjusted, for the leading pair, a pair picked by the data, so optimistic: it does not allow "
                      "for the choice of the pair")
#: What the false-discovery-rate adjustments control, said wherever their verdicts are.
FDR_CLAUSE = ("it controls the false discovery rate, the expected share of false findings among the "
              "differences declared, not the family-wise error rate, the chance of any false finding")


def adjusted_p_text(p: float, adjust: str) -> str:
    """An adjusted p-value in a sentence, in the one spelling, the adjustment named after it
    (``"p = ... (unadjusted)"`` without adjustment).

    >>> adjusted_p_text(0.03, "holm"), adjusted_p_text(0.03, "by")
    ('adjusted p = 0.030 (Holm)', 'adjusted p = 0.030 (Benjamini–Yekutieli, false discovery rate)')
    """
    if adjust not in ADJUST_NAME:
        return format_adjusted_p(p, None)
    return format_adjusted_p(p, ADJUST_NAME[adjust] + (", false discovery rate" if adjust in FDR_ADJUSTMENTS else ""))


def pvalue_header(adjust: str, test: str) -> str:
    """The header of a pair table's adjusted p-values: the one spelling, the adjustment, the test.

    >>> pvalue_header("holm", "stratified paired t-test")
    'adjusted p (Holm; stratified paired t-test)'
    """
    return adjusted_p_header(ADJUST_NAME.get(adjust), test)


def _interval_header(alpha: float, adjust: str) -> str:
    """The header of the second interval column of a pairwise table (the joint one with its level)."""
    return pair_interval_header(level_text(alpha), adjust)


def pairwise_method_line(table: pd.DataFrame) -> str:
    """The line above section 3's table: the interval and the test of this run, what the
    adjustment controls, and the one source of every pair's verdict (the adjusted test) with the
    interval read beside it (:func:`verdict_interval_name`).

    >>> t = pd.DataFrame({"pair": [("a", "b"), ("a", "c"), ("b", "c")]})
    >>> t.attrs.update(alpha=0.05, adjust="holm", method="Bonett–Price", test="McNemar's mid-p test")
    >>> print(pairwise_method_line(t))
    Interval: Bonett–Price (95%); test: McNemar's mid-p test, Holm-adjusted. Verdict: the adjusted test's (adjusted p at most alpha = 0.05), in this table and in the summary; the intervals give the size of each difference, and a verdict whose joint interval falls on the other side of 0 says so.

    With one pair there is nothing to adjust, and the line says so.
    """
    alpha, adjust, method, test = table_metadata(table, "alpha", "adjust", "method", "test",
                                                 made_by="evallib.report.pairwise_comparison")
    m = len(table)
    which = verdict_interval_name(adjust, max(m, 1))
    p = "p" if m == 1 or adjust not in ADJUST_NAME else "adjusted p"
    verdict = (f" Verdict: the {'adjusted ' if p != 'p' else ''}test's ({p} at most alpha = {alpha:g}), in this table "
               f"and in the summary; the intervals give the size of each difference, and a verdict whose {which} "
               "falls on the other side of 0 says so.")
    if m == 1:   # one comparison: nothing to adjust
        return f"Interval: {method} ({level_text(alpha)}); test: {test}, one comparison, so unadjusted." + verdict
    if adjust in FDR_ADJUSTMENTS:
        return (f"Interval: {method} ({level_text(alpha)}, unadjusted: no joint interval corresponds to the false "
                f"discovery rate, so these intervals do not hold jointly); test: {test}, "
                f"{ADJUST_NAME[adjust]}-adjusted ({FDR_CLAUSE}).") + verdict
    how = f"{ADJUST_NAME[adjust]}-adjusted" if adjust in ADJUST_NAME else "unadjusted"
    return f"Interval: {method} ({level_text(alpha)}); test: {test}, {how}." + verdict


def _fmt(v: Any, spec: str) -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA else format(v, spec)


def format_measures(table: pd.DataFrame) -> pd.DataFrame:
    """Section 2's table as text: counts, three decimals, the interval as ``[low, high]``.

    The majority-class baseline (``table.attrs["baseline"]``, from
    :func:`evallib.report.majority_baseline`) is the last row.

    Parameters
    ----------
    table : pandas.DataFrame
        The table of :func:`evallib.report.classifier_measures`, with its ``attrs``
        (``alpha``, ``repeated``, and ``baseline`` when there is one); a table without
        them raises an error naming the function that makes it.

    Returns
    -------
    pandas.DataFrame
        All text, indexed by classifier and ``"baseline: ..."``: ``TP, FN, FP, TN`` (whole
        numbers, one decimal with repeats, ``"-"`` without predicted labels),
        ``accuracy``, the ``"<level> interval"`` ``[low, high]``, ``avg recall``,
        ``precision``, ``recall``, ``F1`` and ``AUC`` to three decimals; with more than
        two classes ``accuracy``, the interval, ``balanced accuracy`` and ``macro-F1``.
    """
    alpha, repeated = table_metadata(table, "alpha", "repeated", made_by="evallib.report.classifier_measures")
    base = table.attrs.get("baseline")
    whole = not repeated
    if base is not None:
        row = pd.DataFrame([{k: v for k, v in base.items() if k not in ("name", "code")}],
                           index=pd.Index([f"baseline: {base['name']}"], name=table.index.name))
        table = pd.concat([table.astype(object), row.astype(object)])
    out = pd.DataFrame(index=table.index)
    for c in ("TP", "FN", "FP", "TN"):
        out[c] = ["-" if v is pd.NA or v is None or (isinstance(v, float) and math.isnan(v))
                  else (f"{int(round(float(v))):d}" if whole else f"{float(v):.1f}") for v in table[c]]
    out["accuracy"] = [_fmt(float(v), ".3f") for v in table["accuracy"]]
    out[f"{level_text(alpha)} interval"] = [
        "-" if math.isnan(float(lo)) else bounds(float(lo), float(hi))
        for lo, hi in zip(table["acc_low"], table["acc_high"])
    ]
    if table.attrs.get("multiclass") or (base is not None and math.isnan(float(base.get("AUC", 0.5)))):
        out = out[["accuracy", f"{level_text(alpha)} interval"]]
        out["balanced accuracy"] = [_fmt(float(v), ".3f") for v in table["avg_recall"]]
        out["macro-F1"] = [_fmt(float(v), ".3f") for v in table["F1"]]
        return out
    for c, label in (("avg_recall", "avg recall"), ("precision", "precision"),
                     ("recall", "recall"), ("F1", "F1"), ("AUC", "AUC")):
        out[label] = [_fmt(float(v), ".3f") for v in table[c]]
    return out


def _comma_clause(clause: str) -> str:
    """``" (clause)"`` after a table cell, or ``""``."""
    return f" ({clause})" if clause else ""


def _interval_text(lo: float, hi: float) -> str:
    if lo == hi:
        return "zero width (no disagreements)"
    return interval_points(lo, hi)


def format_pairwise(table: pd.DataFrame) -> pd.DataFrame:
    """Section 3's slim table as text, in the order of ``table`` (largest effect first).

    Per pair: the classifier with fewer errors, the difference in error rate (first minus
    second, percentage points), its interval, the joint (Bonferroni) interval (under the
    false-discovery-rate adjustments and ``"none"`` the unadjusted interval, and its header
    says so), the adjusted p-value of McNemar's mid-p test and the verdict; ``b + c`` (the
    cases on which the two disagree), flagged when few.

    Parameters
    ----------
    table : pandas.DataFrame
        The table of :func:`evallib.report.pairwise_comparison`, with its ``attrs``
        (``alpha``, ``adjust``; ``test_short`` and ``min_difference`` are read when
        present).

    Returns
    -------
    pandas.DataFrame
        All text, indexed ``"A vs B"`` (``pair A vs B``): ``fewer errors``, ``error A - B
        (points)``, the ``"<level> interval"``, the joint interval (its header names the
        adjustment), the adjusted p-value, ``disagreements b + c`` and ``verdict``; with a
        smallest difference that matters, a column ``against ±<d> percentage points``. With
        one pair there is nothing to adjust: no joint interval, and the p-value is headed
        ``p (unadjusted; <test>)``.
    """
    alpha, adjust = table_metadata(table, "alpha", "adjust", made_by="evallib.report.pairwise_comparison")
    level = level_text(alpha)
    one = len(table) == 1  # one pair: nothing to adjust, so no joint interval and no procedure's name
    columns = {
        "fewer errors": ["neither (equal)" if v == "tie" else v for v in table["better"]],
        "error A - B (points)": [signed(100 * d, 1) for d in table["diff"]],
        f"{level} interval": [_interval_text(lo, hi) for lo, hi in zip(table["diff_low"], table["diff_high"])],
    }
    if not one:
        columns[_interval_header(alpha, adjust)] = [_interval_text(lo, hi)
                                                    for lo, hi in zip(table["adj_low"], table["adj_high"])]
    # a pair with no case on which the two differ has nothing to test: no p-value (the verdict says so)
    columns[pvalue_header("none" if one else adjust, table.attrs.get("test", "McNemar's mid-p test"))] = [
        "-" if b + c == 0 else pvalue_cell(p, alpha=alpha)   # beside the verdict: on its side of alpha
        for p, b, c in zip(table["pvalue_adj"], table["b"], table["c"])]
    columns["disagreements b + c"] = [f"{b + c}" + (" (few)" if few else "")
                                      for b, c, few in zip(table["b"], table["c"], table["few"])]
    columns["verdict"] = list(table["verdict"])
    out = pd.DataFrame(columns)
    delta = table.attrs.get("min_difference")
    if delta is not None:
        out[_relevance_header(delta, bool(table.attrs.get("matters_joint")))] = [
            RELEVANCE_TEXT[r] for r in table["matters"]]
    out.index = pd.Index([f"{i} vs {j}" for i, j in table["pair"]], name="pair A vs B")
    return out


#: How an interval reads against the smallest difference that matters, in the tables.
RELEVANCE_TEXT = {"matters": "matters (whole interval beyond)", "negligible": "too small to matter",
                  "undecided": "cannot tell", "": ""}


def _relevance_header(delta: float, joint: bool = False) -> str:
    """The header of a pair table's margin column; ``joint``: the joint interval is the one read."""
    return f"{'joint interval ' if joint else ''}against ±{100 * delta:g} percentage points"


def format_balanced_pairs(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`evallib.report.balanced_accuracy_comparison` as text, indexed ``"A vs B"``:
    both balanced accuracies, their difference A - B in percentage points with its interval and
    joint (Bonferroni) interval (the unadjusted one under the false-discovery-rate adjustments
    and ``"none"``, as its header says), the adjusted p-value, the verdict and, with a smallest
    difference that matters, how the interval reads against it.

    Parameters
    ----------
    table : pandas.DataFrame
        The table of :func:`evallib.report.balanced_accuracy_comparison`, with its
        ``attrs`` (``alpha``, ``adjust``; ``min_difference`` when given).

    Returns
    -------
    pandas.DataFrame
        All text, indexed ``"A vs B"``: ``balanced accuracy A``, ``balanced accuracy B``,
        ``A - B (points)``, the ``"<level> interval"``, the joint interval, the adjusted
        p-value, ``verdict`` and, with a smallest difference that matters, a column
        ``against ±<d> percentage points``. With one pair: no joint interval, and the p-value
        is headed ``p (unadjusted; <test>)``.
    """
    alpha, adjust = table_metadata(table, "alpha", "adjust", made_by="evallib.report.balanced_accuracy_comparison")
    level = level_text(alpha)
    one = len(table) == 1  # one pair: nothing to adjust, so no joint interval and no procedure's name
    same = table["identical"] if "identical" in table else pd.Series(False, index=table.index)
    # right on exactly the same cases: no difference to test, as section 3's error-rate table says
    verdicts = [("identical on every case: nothing to test" if alike else
                 "not shown to differ" if not rej else f"{a if d > 0 else b} higher")
                for a, b, d, rej, alike in zip(table["a"], table["b"], table["difference"], table["reject_adj"], same)]
    columns = {
        "balanced accuracy A": [f"{v:.3f}" for v in table["ba_a"]],
        "balanced accuracy B": [f"{v:.3f}" for v in table["ba_b"]],
        "A - B (points)": [f"{100 * d + 0.0:+.1f}" for d in table["difference"]],
        f"{level} interval": [_interval_text(lo, hi) + _comma_clause(_balanced_clip(r, alpha))
                              for lo, hi, r in zip(table["low"], table["high"], table.to_dict("records"))],
    }
    if not one:
        joint = alpha / len(table) if adjust in FWER_ADJUSTMENTS else alpha   # balanced_accuracy_pairs' level
        columns[_interval_header(alpha, adjust)] = [
            _interval_text(lo, hi) + _comma_clause(_balanced_clip(r, joint))
            for lo, hi, r in zip(table["low_adj"], table["high_adj"], table.to_dict("records"))]
    columns[pvalue_header("none" if one else adjust, table.attrs.get("test", BALANCED_TEST))] = [
        "-" if alike else pvalue_cell(p, alpha=alpha)   # beside the verdict: on its side of alpha
        for p, alike in zip(table["pvalue_adj"], same)]
    columns["verdict"] = verdicts
    out = pd.DataFrame(columns)
    delta = table.attrs.get("min_difference")
    if delta is not None:
        out[_relevance_header(delta, bool(table.attrs.get("matters_joint")))] = [
            RELEVANCE_TEXT[r] for r in table["matters"]]
    out.index = pd.Index([f"{a} vs {b}" for a, b in zip(table["a"], table["b"])], name="pair A vs B")
    return out


def format_class_auc(result: Any) -> pd.DataFrame:
    """A :class:`evallib.report.ClassScoreComparison`'s one-vs-rest AUCs as text: one row
    per class and a last row with each classifier's macro average, one column per classifier,
    each AUC with its DeLong interval (``"-"`` where a class is too small for one).

    Parameters
    ----------
    result : ClassScoreComparison
        What :func:`evallib.report.score_comparison` returns for more than two classes
        with a score column per class (its ``auc``, ``macro_auc`` and ``alpha`` are read).

    Returns
    -------
    pandas.DataFrame
        All text, one column per classifier, indexed by class and ``"macro average"``
        (index name ``"class (AUC, <level> interval)"``): each AUC to three decimals with
        its interval, or a note where there is none (too few cases, or a perfect
        separation or reversal).
    """
    t = result.auc
    level = level_text(result.alpha)
    cells = {}

    def cell(e: float, lo: float, hi: float) -> str:
        if math.isnan(lo):
            return f"{e:.3f} (too few cases for an interval)"
        if lo == hi:  # AUC 0 or 1: every placement equal, DeLong's variance 0
            return f"{e:.3f} (perfect {'separation' if e == 1 else 'reversal'}: no interval)"
        return f"{e:.3f} {bounds(lo, hi)}"

    for name, part in t.groupby("name", sort=False):
        cells[name] = [cell(e, lo, hi) for e, lo, hi in zip(part["estimate"], part["low"], part["high"])]
        cells[name].append(f"{result.macro_auc[name]:.3f}")
    classes = list(dict.fromkeys(t["class"]))
    out = pd.DataFrame(cells, index=pd.Index(classes + ["macro average"], name=f"class (AUC, {level} interval)"))
    return out


def format_auc(result: Any) -> pd.DataFrame:
    """A two-class :class:`evallib.report.ScoreComparison`'s AUCs as text:
    :func:`evallib.onetestset.format_auc_table` of its ``auc``.

    An AUC of 0 or 1 (or a standard error of 0) collapses DeLong's interval to a point, which
    would read as certainty: the library prints ``"-"`` in its cell and the note says why.

    Parameters
    ----------
    result : ScoreComparison
        What :func:`evallib.report.score_comparison` returns for two classes (its ``auc`` is read).

    Returns
    -------
    pandas.DataFrame
        All text, indexed by classifier: ``AUC``, the ``"<level> interval (DeLong)"`` and ``note``.
    """
    return format_auc_table(result.auc)


def format_auc_pairs(result: Any) -> pd.DataFrame:
    """A two-class :class:`evallib.report.ScoreComparison`'s paired AUC comparisons as text:
    :func:`evallib.onetestset.format_auc_pairwise` (its ``"-"`` and ``note`` for a degenerate
    DeLong interval), and ``"identical scores"``.

    The verdict reads ``"identical scores"`` where the two columns hold the same scores (the
    intervals, of width 0, are ``"-"``, and that pair has no note).

    Parameters
    ----------
    result : ScoreComparison
        What :func:`evallib.report.score_comparison` returns with two or more score columns
        (its ``auc``, ``auc_pairs`` and ``identical`` are read).

    Returns
    -------
    pandas.DataFrame
        All text, one row per pair ``"a vs b"``.
    """
    t = result.auc_pairs
    out = format_auc_pairwise(t, auc=result.auc)
    identical = getattr(result, "identical", frozenset())
    for i, (a, b) in enumerate(zip(t["a"], t["b"])):
        if frozenset((a, b)) in identical:  # same scores: se 0, so the library printed "-" already
            out.iloc[i, out.columns.get_loc("verdict")] = "identical scores"
            if "note" in out:
                out.iloc[i, out.columns.get_loc("note")] = ""
    if "note" in out and not out["note"].astype(bool).any():
        out = out.drop(columns="note")
    return out


def plot_pair_intervals(table: pd.DataFrame, ax=None, *, title: str | None = None):
    """The pairwise intervals, one row per pair, labels on the left so they never overlap.

    Parameters
    ----------
    table : DataFrame from :func:`evallib.report.pairwise_comparison`
        Draws, per pair ``A vs B``, the difference in error rate ``A - B`` (points), its
        interval (thick) and, under Holm's and Bonferroni's adjustments, the joint
        Bonferroni interval (thin; no joint interval corresponds to the false discovery
        rate, so under ``"bh"``, ``"by"`` and ``"none"`` only the interval is drawn), and the
        line of no difference.
    ax : matplotlib Axes, optional
        A new figure, sized to the number of pairs, if None.
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    level, adjust, method = table_metadata(table, "alpha", "adjust", "method",
                                           made_by="evallib.report.pairwise_comparison")
    k = len(table)
    ax = get_axes(ax, figsize=(7.5, 2.4 + 0.42 * k))
    yy = np.arange(k)[::-1]
    pts = 100.0
    if adjust in FWER_ADJUSTMENTS:
        ax.hlines(yy, pts * table["adj_low"], pts * table["adj_high"], colors="0.55", linewidth=1.2,
                  label=pair_interval_header(level_text(level), adjust))
    ax.hlines(yy, pts * table["diff_low"], pts * table["diff_high"], colors="C0", linewidth=5,
              label="interval")
    ax.plot(pts * table["diff"], yy, "o", color="k", markersize=4, label="observed difference")
    ax.axvline(0.0, color="C3", linewidth=1, linestyle="--", label="no difference")
    ax.set_yticks(yy)
    ax.set_yticklabels([f"{i} vs {j}" for i, j in table["pair"]])
    ax.set_ylim(-0.7, k - 0.3)
    ax.set_xlabel("error rate of A minus error rate of B (percentage points)")
    ax.set_title(title or f"{level_text(level)} intervals ({method})")
    # below the x label: about 0.6 inch under the axes, whose height grows with the pairs
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.65 / (0.42 * k + 0.9)), ncol=4,
              fontsize="small", frameon=False)
    ax.figure.tight_layout()
    return ax


# --------------------------------------------------------------------- the summary






def _pair_row(pairwise: pd.DataFrame, a: str, b: str):
    return pairwise[pairwise["pair"].map(lambda p: set(p) == {a, b})].iloc[0]


def _advantage(row, a: str) -> tuple[float, float, float]:
    """a's advantage (error rate of the other minus a's) with its interval, from a pair row."""
    if row["pair"][0] == a:  # diff is the first's error rate minus the second's
        return 0.0 - row["diff"], 0.0 - row["diff_high"], 0.0 - row["diff_low"]
    return row["diff"], row["diff_low"], row["diff_high"]








def _design_words(data: Predictions) -> str:
    if not data.repeated:
        return f"on {data.n:,} test cases"
    per = data.predictions_per_case()
    times = f"{int(per[0])} times" if per.min() == per.max() else f"{int(per.min())} to {int(per.max())} times"
    return f"on {data.n:,} test cases, each predicted {times}"


def _clipped_ends(what: str, bounds: tuple[float, float], unclipped: tuple[float, float],
                  clipped: tuple[float, float], show) -> str:
    """The clause for an interval clipped to what is possible, e.g. "the upper end clipped at the
    largest difference possible, +50.0" ("" when neither end was clipped); ``show`` prints a bound."""
    ends = [f"the {side} end clipped at the {extreme} {what} possible, {show(bound)}"
            for side, extreme, bound, wide, cut, beyond in zip(("lower", "upper"), ("smallest", "largest"), bounds,
                                                                unclipped, clipped, (-1.0, 1.0))
            if cut == bound and beyond * (wide - bound) > 0]
    return " and ".join(ends)


def _balanced_clip(row: Any, alpha: float, sign: float = 1.0) -> str:
    """The clause of :func:`_clipped_ends` for a balanced-accuracy pair row whose interval at level
    ``alpha`` (its own t interval, ``difference ± t se``) was clipped to the differences possible
    (``bound_low``/``bound_high``, :func:`percase.balanced_accuracy_pairs`), read as ``sign`` times
    the row's difference; ``""`` when neither end was clipped."""
    lo_b, hi_b = float(row.get("bound_low", -1.0)), float(row.get("bound_high", 1.0))
    est, se = float(row["difference"]), float(row["se"])
    half = float(stats.t.isf(alpha / 2.0, float(row["df"]))) * se if se > 0 else 0.0
    clipped = (max(lo_b, est - half), min(hi_b, est + half))
    flip = (lambda lo, hi: tuple(sorted((sign * lo, sign * hi))))
    return _clipped_ends("difference", flip(lo_b, hi_b), flip(est - half, est + half), flip(*clipped),
                         lambda v: f"{100 * v:+.1f}")


def _best_sentence(data: Predictions, measures: pd.DataFrame, alpha: float, delta: float | None) -> str | None:
    """Question 1: how good is the best classifier, by the honest measure, and does it beat the
    majority class? Balanced accuracy leads on a skewed file, accuracy otherwise; the
    comparison with always predicting the majority class is paired on the same cases."""
    lab = measures.dropna(subset=["accuracy"])
    base = measures.attrs.get("baseline")
    if not len(lab) or base is None:
        return None
    level = level_text(alpha)
    skewed = percase.skewed(data)
    key = "avg_recall" if skewed else "accuracy"
    measure = "balanced accuracy (average recall)" if skewed else "accuracy"
    values = lab[key].astype(float)
    top = values.max()
    leaders = [n for n, v in values.items() if v == top]
    leader = leaders[0]
    correct = 1.0 - data.error_rates()[leader]
    base_correct = (data.case_truth == base["code"]).astype(float)
    truth = data.case_truth
    if skewed:
        own = percase.stratified_mean(correct, truth, alpha=alpha, bounds=(0.0, 1.0))
        lo, hi = own.low, own.high
        # the majority class has balanced accuracy b = 1/K, so the difference lies in [-b, 1 - b]
        b = percase.stratified_mean(base_correct, truth, alpha=alpha, bounds=(0.0, 1.0)).estimate
        feasible = (-b, 1.0 - b)
        diff = percase.stratified_mean(correct - base_correct, truth, alpha=alpha, bounds=feasible)
        wide = percase.stratified_mean(correct - base_correct, truth, alpha=alpha)
        gap, g_lo, g_hi, p = diff.estimate, diff.low, diff.high, diff.pvalue
        ends = _clipped_ends("difference", feasible, (wide.low, wide.high), (g_lo, g_hi), lambda v: f"{100 * v:+.1f}")
        clip_note = ", " + ends + ";" if ends else ","
        # the balanced accuracy's own interval is clipped to [0, 1]: its t interval unclipped, from its se and df
        half = float(stats.t.isf(alpha / 2.0, own.df)) * own.se
        own_ends = _clipped_ends("balanced accuracy", (0.0, 1.0), (own.estimate - half, own.estimate + half),
                                 (lo, hi), lambda v: f"{pct(v)}%")
        own_clip = ", " + own_ends if own_ends else ""
        test = BALANCED_TEST
        own_method = gap_method = STRATIFIED_INTERVAL
        base_value = base["avg_recall"]
    else:
        lo, hi = float(lab.at[leader, "acc_low"]), float(lab.at[leader, "acc_high"])
        err = 1.0 - correct
        binary = percase.is_binary(err)
        pair = percase.paired_error_difference(1.0 - base_correct, err, alpha=alpha, binary=binary,
                                               interval="bonett_price", interval_name="Bonett–Price")
        gap, g_lo, g_hi, p = pair.diff, pair.low, pair.high, pair.p
        test = "McNemar's mid-p test" if pair.test.startswith("McNemar") else "paired t-test over cases"
        # accuracy_interval_cases: Wilson's on the cases, with the effective sample size under repeats
        own_method = "Wilson" if binary else "Wilson (effective sample size)"
        gap_method = "Bonett–Price" if binary else "paired t"
        clip_note = ","
        own_clip = ""
        base_value = base["accuracy"]
    who = (f"**{leader}** has the highest {measure}" if len(leaders) == 1 else
           f"**{join_names(leaders)}** have equal {measure}, the highest")
    of = "" if len(leaders) == 1 else f" of {leader}"
    g, g_int = gap_points(gap, g_lo, g_hi)
    # the gap is the difference of the unrounded figures; say so where the printed ones subtract otherwise
    decimals = len(g.split(".")[1]) if "." in g else 0
    printed = float(pct(top)) - float(pct(base_value))
    unrounded = ("" if f"{printed + 0.0:.{decimals}f}" == g else
                 f"from unrounded {'balanced accuracies' if skewed else 'accuracies'}; ")
    verdict = _baseline_verdict(leader, "balanced accuracy" if skewed else "accuracy", gap, g_lo, g_hi, p, alpha,
                                gap_method, test)
    extra = ""
    if skewed:
        k = len(data.label_classes)
        counts = np.bincount(data.case_truth, minlength=len(data.classes))[:k]
        share = percase.smallest_share_text(counts.min() / counts.sum(), k)
        extra = (f" (balanced accuracy leads because the smallest class holds {share}% "
                 f"of the cases, and {percase.skew_rule(k)}")
        if not data.multiclass:
            acc = float(lab.at[leader, "accuracy"])
            if acc > top:   # accuracy rewards the majority class: here it reads higher than the honest measure
                extra += (f"; its accuracy, {pct(acc)}%, would flatter it, as accuracy rewards predicting the "
                          f"majority class, which alone scores {pct(base['accuracy'])}% accuracy")
            else:
                extra += (f"; its accuracy is {pct(acc)}%, against {pct(base['accuracy'])}% for always "
                          "predicting the majority class")
        extra += ")"
    return (f"{who}: {pct(top)}% ({level} {own_method} interval{of} {interval_points(lo, hi)}%{own_clip}) "
            f"{_design_words(data)}{extra}. "
            f"Always predicting the majority class scores {pct(base_value)}%{' balanced accuracy' if skewed else ''}; paired on the same cases "
            + (f"{leader} is level with it, {g} percentage points apart (" if abs(gap) < 1e-12 else
               f"{leader} is {g} percentage points {'ahead' if gap > 0 else 'behind'} (")
            + f"{unrounded}{level} {gap_method} interval "
            f"{g_int} percentage points{clip_note} "
            f"{test} {format_p(p, alpha=alpha)}): {verdict}{matters_clause(g_lo, g_hi, delta)}.")


def _baseline_verdict(leader: str, measure: str, gap: float, lo: float, hi: float, p: float, alpha: float,
                      interval: str, test: str) -> str:
    """The verdict on the leader against the majority class, naming the procedure it is read from:
    the paired interval (``lo``, ``hi``), with the paired test's p-value ``p`` checked against it.
    Where the two disagree at ``alpha`` (a Bonett–Price interval and McNemar's mid-p test can), the
    text says so and draws no verdict."""
    excludes = lo > 0 or hi < 0
    rejects = p <= alpha
    at = f"at alpha = {alpha:g}"
    test = test if "'s " in test else f"the {test}"   # "McNemar's mid-p test", "the stratified paired t-test"
    if excludes == rejects:
        if lo > 0:
            verdict = f"{leader} beats the majority class"
        elif hi < 0:
            verdict = f"{leader} does worse than the majority class"
        else:
            verdict = f"this test set does not show that {leader} beats the majority class"
        agrees = f"rejecting equal {measure}" if rejects else f"not rejecting equal {measure}"
        return (f"{verdict} (the verdict is read from the {interval} interval, which "
                f"{'excludes' if excludes else 'includes'} 0; {test} agrees, {agrees} {at})")
    shown = format_p(p, alpha=alpha)
    if excludes:
        why = f"the {interval} interval excludes 0 but {test} does not reject equal {measure} {at} ({shown})"
    else:
        why = f"{test} rejects equal {measure} {at} ({shown}) but the {interval} interval includes 0"
    side = "beats" if gap >= 0 else "does worse than"
    return f"borderline: {why}, so no verdict is drawn on whether {leader} {side} the majority class"


def _pairs_sentence(data: Predictions, omnibus: Any, pairwise: Any, balanced: Any, alpha: float) -> str | None:
    """Question 2 with the honest measure first: on a skewed file, what balanced accuracy's pairwise
    tests find, then McNemar's (and Cochran's Q) as the secondary reading that counts every error
    alike, and, only when the two sets of pairs found differ, one sentence on why; otherwise
    :func:`_omnibus_sentence`."""
    accuracy = _omnibus_sentence(omnibus, pairwise, alpha)
    if (accuracy is None or not percase.skewed(data) or not isinstance(balanced, pd.DataFrame)
            or not len(balanced)):
        return accuracy
    m = len(balanced)
    adj = pairwise.attrs.get("adjust", "none")
    adj_name = ADJUST_NAME.get(adj)
    how = (f"with {adj_name}'s adjustment for {plural(m, 'comparison')}" if adj_name and m > 1
           else f"without adjustment for the {plural(m, 'comparison')}" if m > 1
           else "with a single comparison")
    found = [f"{a} vs {b}" for a, b, rej in zip(balanced["a"], balanced["b"], balanced["reject_adj"]) if rej]
    if found:
        ba = (f"By balanced accuracy ({BALANCED_TEST}, {how}), {'the one pair' if m == 1 else f'{len(found)} of the {m} pairs'} "
              f"{'differs' if len(found) == 1 else 'differ'} at alpha = {alpha:g} ({join_names(found)})")
    else:
        ba = (f"By balanced accuracy ({BALANCED_TEST}, {how}), "
              f"{'the one pair is' if m == 1 else 'none of the pairs is'} shown to differ at alpha = {alpha:g}")
    test = pairwise.attrs.get("test", "McNemar's mid-p test")
    text = (f"{ba}. By accuracy ({test}), the secondary reading, which counts every error alike and so mostly "
            f"the large class: {accuracy[0].lower() + accuracy[1:]}")
    mc = {frozenset(p) for p, rej in zip(pairwise["pair"], pairwise["reject"]) if rej}
    if mc != {frozenset((a, b)) for a, b, rej in zip(balanced["a"], balanced["b"], balanced["reject_adj"]) if rej}:
        text += (" The two disagree because they answer different questions: balanced accuracy weighs each class "
                 "alike, accuracy each case.")
    return text


def _omnibus_sentence(omnibus: Any, pairwise: Any, alpha: float) -> str | None:
    """Question 2: do the classifiers differ at all, and which pairs do?"""
    if not isinstance(pairwise, pd.DataFrame) or not len(pairwise):
        return None
    level = level_text(alpha)
    m = len(pairwise)
    adj, method = table_metadata(pairwise, "adjust", "method", made_by="evallib.report.pairwise_comparison")
    adj_name = ADJUST_NAME.get(adj)
    parts = []
    if omnibus is not None and hasattr(omnibus, "pvalue"):
        verdict = ("their accuracies differ" if omnibus.reject else "their accuracies are not shown to differ")
        parts.append(f"Over all {omnibus.k} classifiers with predicted labels, {verdict} at alpha = {alpha:g} "
                     f"(Cochran's Q, {format_p(omnibus.pvalue)})")
    rejected = [f"{i} vs {j}" for (i, j), rej in zip(pairwise["pair"], pairwise["reject"]) if rej]
    lead = (f"with {adj_name}'s adjustment for {plural(m, 'comparison')}" if adj_name and m > 1
            else f"without adjustment for the {plural(m, 'comparison')}" if m > 1
            else "with a single comparison, so nothing to adjust for")
    if adj in FDR_ADJUSTMENTS and m > 1:
        lead += f" ({FDR_CLAUSE})"
    if rejected:
        top = pairwise[pairwise["reject"].astype(bool)].iloc[0]  # rows run largest effect first
        winner = top["better"]
        adv, lo, hi = _advantage(top, winner)
        if adj in FWER_ADJUSTMENTS and m > 1:  # selected by the family: its joint interval
            joint = top.copy()
            joint["diff_low"], joint["diff_high"] = top["adj_low"], top["adj_high"]
            adv, lo, hi = _advantage(joint, winner)
            g, g_int = gap_points(adv, lo, hi)
            interval = (f"{level} joint {method} interval {g_int} percentage points, each pair's at "
                        f"{level_text(alpha / m, digits=4)} (Bonferroni), so that all {m} hold together")
        else:
            g, g_int = gap_points(adv, lo, hi)
            why = ("no joint interval corresponds to the false discovery rate" if adj in FDR_ADJUSTMENTS
                   else "as the tests are" if m > 1 else "the only comparison")
            interval = f"{level} {method} interval {g_int} percentage points, unadjusted: {why}"
        if bool(top.get("interval_disagrees", False)):
            interval += f"; {_disagreement_clause(pairwise, top, quoted='it')}"
        how_many = ("the one pairwise difference is" if m == 1 else
                    f"{len(rejected)} of the pairwise differences {'is' if len(rejected) == 1 else 'are'}")
        parts.append(f"{lead}, {how_many} significant at alpha = {alpha:g} "
                     f"({', '.join(rejected)}); {'the largest of them: ' if len(rejected) > 1 else ''}"
                     f"{winner} makes {g} percentage points fewer errors "
                     f"than {top['pair'][1] if top['pair'][0] == winner else top['pair'][0]} "
                     f"({interval}){matters_clause(lo, hi, pairwise.attrs.get('min_difference'))}")
    else:
        if m == 1:
            only = pairwise.iloc[0]
            i, j = only["pair"]
            if float(only["diff"]) == 0.0:
                effect = f"{i} and {j} make equal numbers of errors"
            else:
                winner = only["better"]
                adv, lo, hi = _advantage(only, winner)
                g, g_int = gap_points(adv, lo, hi)
                effect = (f"{winner} makes {g} percentage points fewer errors than {j if i == winner else i} "
                          f"({level} {method} interval {g_int} percentage points)")
            parts.append(f"{lead}, the one pair, {i} vs {j}, is not shown to differ at alpha = {alpha:g}: {effect}")
        else:
            parts.append(f"{lead}, none of the pairs is shown to differ at alpha = {alpha:g}")
    # the verdicts follow the adjusted test; where the interval read beside one points the other way,
    # the pair is named (the largest significant one is said above), under FWER adjustments
    disagree = pairwise.get("interval_disagrees", pd.Series(False, index=pairwise.index)).astype(bool)
    fwer = adj in FWER_ADJUSTMENTS and m > 1
    top_index = pairwise.index[pairwise["reject"].astype(bool)][0] if rejected else None
    for k, row in pairwise[disagree].iterrows():
        if k != top_index and (fwer or bool(row["reject"])):
            i, j = row["pair"]
            parts.append(f"for {i} vs {j} {_disagreement_clause(pairwise, row)}")
    split = [f"{i} vs {j}" for (i, j), lo, hi, rej, odd in zip(pairwise["pair"], pairwise["diff_low"],
                                                              pairwise["diff_high"], pairwise["reject"], disagree)
             if not (lo <= 0 <= hi) and not rej and not (fwer and odd)]
    if split and adj_name and m > 1:
        parts.append(f"for {join_names(split)} a single {level} {method} interval excludes zero, but not once the "
                     f"{plural(m, 'comparison')} are taken into account")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def verdict_interval_name(adjust: str, m: int) -> str:
    """The name of the interval read beside a pair's verdict in section 3 (the verdict itself is
    the adjusted test's): ``"joint interval"`` under Holm and Bonferroni with more than one pair,
    ``"unadjusted interval"`` under the false-discovery-rate adjustments and ``"none"`` with more
    than one pair, ``"interval"`` for a single pair.

    Parameters
    ----------
    adjust : {"holm", "bonferroni", "bh", "by", "none"}
        The adjustment of the pairwise tests.
    m : int
        The number of pairs, at least 1.

    Returns
    -------
    str

    Examples
    --------
    >>> verdict_interval_name("holm", 3), verdict_interval_name("bh", 3), verdict_interval_name("holm", 1)
    ('joint interval', 'unadjusted interval', 'interval')
    """
    adjust = check_choice(adjust, "adjust", ADJUSTMENTS)
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"m must be a whole number of pairs, at least 1; got {m!r}")
    if m == 1:
        return "interval"
    return "joint interval" if adjust in FWER_ADJUSTMENTS else "unadjusted interval"


def _disagreement_clause(pairwise: pd.DataFrame, row: Any, *, quoted: str = "") -> str:
    """Where the interval read beside a pair's verdict (:func:`verdict_interval_name`) falls on the
    other side of 0 from the adjusted test, which gives the verdict: which interval, which way, why
    the two can disagree, and that the verdict follows the test. ``quoted``: the sentence has just
    given the interval and the test's p-value, and the clause names the interval by this word
    (``"it"``, ``"the joint interval"``) instead of repeating them; else they are given here, the
    interval as the advantage of the classifier with fewer errors."""
    alpha, adj, test = table_metadata(pairwise, "alpha", "adjust", "test", made_by="evallib.report.pairwise_comparison")
    m = len(pairwise)
    which = verdict_interval_name(adj, m)
    rejects = bool(row["reject"])
    side = "includes" if rejects else "excludes"
    if quoted:
        head = f"{quoted} {side} zero although the test {'rejects' if rejects else 'does not reject'}"
    else:
        read = row.copy()
        if which == "joint interval":
            read["diff_low"], read["diff_high"] = row["adj_low"], row["adj_high"]
        winner = row["better"]
        adv, lo, hi = _advantage(read, winner)
        _, g_int = gap_points(adv, lo, hi)
        loser = row["pair"][1] if row["pair"][0] == winner else row["pair"][0]
        p = adjusted_p_text(row["pvalue_adj"], adj) if adj in ADJUST_NAME and m > 1 else format_p(row["pvalue"], alpha=alpha)
        head = (f"the {level_text(alpha)} {which} of {winner}'s advantage over {loser}, {g_int} percentage points, "
                f"{side} zero although {test} {'rejects' if rejects else 'does not reject'} equal error rates at "
                f"alpha = {alpha:g}, {p}")
    if rejects and adj == "holm" and m > 1 and float(row["pvalue"]) * m > alpha:
        why = (f"Holm's step-down test needs less evidence for this pair than the joint intervals, each at "
               f"{level_text(alpha / m, digits=4)} so that all {m} hold at once")
    elif not rejects and adj in FDR_ADJUSTMENTS and m > 1 and float(row["pvalue"]) <= alpha:   # multiplicity
        return f"{head}: the interval is not adjusted for the {m} comparisons and the test is; the verdict follows the test"
    else:
        why = "the interval and the test are different procedures that agree only approximately near the boundary"
    return f"{head}: {why}; the verdict follows the test, so read the difference as borderline"


def _omnibus_disagreement(omnibus: Any, pairwise: Any, alpha: float) -> str:
    """Why Cochran's Q and the pairwise tests disagree, when one rejects at ``alpha`` and the other
    finds no pair (or the reverse); ``""`` when they agree or either is missing."""
    if (not isinstance(pairwise, pd.DataFrame) or len(pairwise) < 2 or omnibus is None
            or not hasattr(omnibus, "reject")):
        return ""
    any_pair = bool(pairwise["reject"].astype(bool).any())
    if bool(omnibus.reject) == any_pair:
        return ""
    m = len(pairwise)
    adj_name = ADJUST_NAME.get(pairwise.attrs.get("adjust", "none"))
    test = pairwise.attrs.get("test", "McNemar's mid-p test")
    adjusted = f", and each is adjusted for the {m} comparisons" if adj_name else ""
    if omnibus.reject:
        return (f"Cochran's Q and the pairwise tests disagree because they ask different questions: Q pools the "
                f"disagreements of all {omnibus.k} classifiers into one test of whether they are all equal, while "
                f"each pairwise test ({test}) must find its pair's difference from that pair's cases alone"
                f"{adjusted}; so the file shows that the classifiers are not all equal in accuracy, but not which "
                "of them differ.")
    return (f"Cochran's Q and the pairwise tests disagree because they ask different questions: Q spreads one test "
            f"over all {omnibus.k} classifiers, so a difference between two of them is diluted by the others' "
            f"agreement, while each pairwise test ({test}) looks at its pair alone{adjusted}.")


def _joint_clause(lo: float, hi: float, m: int) -> str:
    """The leaders' joint (Bonferroni) interval beside their unadjusted one: it holds for every pair
    at once, so also for a pair the data picked."""
    _, g_int = gap_points(0.5 * (lo + hi), lo, hi)
    return (f"the joint (Bonferroni) interval, which holds for all {m} pairs at once and so for whichever pair "
            f"the data pick, is {g_int} percentage points")


def _leaders_matters(pairwise: pd.DataFrame, row: Any, a: str, lo: float, hi: float, delta: float | None) -> str:
    """The leading pair's interval read against the smallest difference that matters: its joint
    interval when section 3's table reads that one (``attrs["matters_joint"]``), so that the
    sentence and the table agree; else its interval ``lo``, ``hi``."""
    if delta is None or not pairwise.attrs.get("matters_joint"):
        return matters_clause(lo, hi, delta)
    joint = row.copy()
    joint["diff_low"], joint["diff_high"] = row["adj_low"], row["adj_high"]
    _, j_lo, j_hi = _advantage(joint, a)
    return matters_clause(j_lo, j_hi, delta, interval="joint interval")


def _leaders_sentence(data: Predictions, pairwise: Any, balanced: Any, alpha: float,
                      delta: float | None) -> str | None:
    """Question 3: can the two leaders be told apart? On a skewed two-class file by balanced
    accuracy first, with McNemar's test (every error alike) beside it.

    The leaders are the first two of the places (:func:`~evallib.report._prose.tie_groups`):
    when three or more classifiers tie for first place, or two or more for second, the sentence
    says so, names them all and says which two it compares (the first in the file's column
    order), so that no order of the columns passes for a ranking."""
    if not isinstance(pairwise, pd.DataFrame) or not len(pairwise):
        return None
    level = level_text(alpha)
    adj, test, method = table_metadata(pairwise, "adjust", "test", "method",
                                       made_by="evallib.report.pairwise_comparison")
    m = len(pairwise)
    adjusted = adj in ADJUST_NAME and m > 1

    def p_of(row: Any) -> str:
        return adjusted_p_text(row["pvalue_adj"], adj) if adjusted else format_p(row["pvalue"], alpha=alpha)

    if isinstance(balanced, pd.DataFrame) and len(balanced) and percase.skewed(data):
        ba = pd.concat([balanced[["a", "ba_a"]].set_axis(["n", "v"], axis=1),
                        balanced[["b", "ba_b"]].set_axis(["n", "v"], axis=1)]).drop_duplicates("n")
        values = dict(zip(ba["n"], ba["v"].astype(float)))  # in the file's order
        groups = tie_groups(values.items())
        a, b = top_two(groups)
        note = tie_note(groups, by="balanced accuracy", value=lambda n: f"{pct(values[n])}%")
        row = balanced[((balanced["a"] == a) & (balanced["b"] == b)) | ((balanced["a"] == b) & (balanced["b"] == a))]
        r = row.iloc[0]
        sign = 1.0 if r["a"] == a else -1.0
        lo, hi = sorted((sign * r["low"], sign * r["high"]))
        g, g_int = gap_points(sign * r["difference"], lo, hi)
        mc = _pair_row(pairwise, a, b)
        two = "two classifiers" if m == 1 else "two leaders"   # with one pair nobody was picked
        if note:
            head = f"{note}: by balanced accuracy {a} is {g} percentage points ahead of {b}"
        elif values[a] == values[b]:  # two share first place
            head = (f"By balanced accuracy the {two}, {a} and {b}, have equal balanced accuracy here "
                    f"({pct(values[a])}%): {a} minus {b} is {g} percentage points")
        else:
            head = f"By balanced accuracy the {two} are {a} and {b}: {a} is {g} percentage points ahead"
        p_ba = float(r["pvalue_adj"] if adjusted else r["pvalue"])
        p_mc = float(mc["pvalue_adj"] if adjusted else mc["pvalue"])
        joint = ""
        if adjusted and adj in FWER_ADJUSTMENTS:
            j_lo, j_hi = sorted((sign * r["low_adj"], sign * r["high_adj"]))
            joint = "; " + _joint_clause(j_lo, j_hi, m)
        # the margin read against the interval the table reads (the joint one under Holm and Bonferroni)
        ba_matters = (matters_clause(j_lo, j_hi, delta, interval="joint interval")
                      if balanced.attrs.get("matters_joint") and joint else matters_clause(lo, hi, delta))
        # with one pair this is the pair's only bullet, so it says both tests' verdicts
        ba_verdict = mc_verdict = ""
        if m == 1:
            ba_verdict = (f": the two differ at alpha = {alpha:g}" if p_ba <= alpha else
                          f": they are not shown to differ at alpha = {alpha:g}")
            mc_verdict = (f", {'rejecting' if p_mc <= alpha else 'not rejecting'} equal error rates at "
                          f"alpha = {alpha:g}")
        clip = _balanced_clip(r, alpha, sign)
        text = (f"{head} ({level} {STRATIFIED_INTERVAL} interval {g_int} percentage points{', ' + clip if clip else ''}"
                f"{'; ' + LEADERS_UNADJUSTED if m > 1 else ''}{joint}; {BALANCED_TEST}, {p_of(r)}){ba_verdict}"
                f"{ba_matters}; {test}, which counts every error alike and so mostly "
                f"the large class, gives {p_of(mc)} for the same pair{mc_verdict}.")
        if (p_ba <= alpha) != (p_mc <= alpha) and m > 1:   # with one pair the next bullet says it in full
            says, other = ((BALANCED_TEST, test) if p_ba <= alpha else (test, BALANCED_TEST))
            what = "balanced accuracy" if says == BALANCED_TEST else "error rates"
            text += (f" The two tests disagree on this pair: the {says} rejects equal {what} at alpha = {alpha:g} "
                     f"and {other} does not. They measure different things (balanced accuracy weighs each "
                     f"class alike, {test} every error alike); on this skewed file balanced accuracy "
                     "is the measure the report leads with.")
        return text
    wr = pairwise.attrs.get("error_rates", {})
    if len(wr) < 2:
        return None
    groups = tie_groups(((n, wr[n]) for n in wr), higher_is_better=False)
    a, b = top_two(groups)
    note = tie_note(groups, by="error rate", value=lambda n: f"{pct(wr[n])}%")
    row = _pair_row(pairwise, a, b)
    adv, lo, hi = _advantage(row, a)
    n_dis = int(row["b"] + row["c"])
    p_part = f"{test} gives {p_of(row)}"
    def cases_word(count: int) -> str:
        return (("case on which they differ" if count == 1 else "cases on which they differ") if data.repeated
                else ("disagreement" if count == 1 else "disagreements"))
    cases = cases_word(2)
    # who the sentence is about: the two with the fewest errors, or the tie said in words first
    two = "The two classifiers" if m == 1 else "The two classifiers with the fewest errors"
    subject = (f"{note}; {a} and {b}" if note else f"{two}, {a} and {b},")
    if n_dis == 0:
        level = level_text(alpha)
        _, g_int = gap_points(adv, lo, hi)
        # with fractional per-case rates the paired t interval of zero differences has zero width: the
        # interval quoted is then the one-test-set one on the cases (pairwise_comparison's identical_method)
        binary = pairwise.attrs.get("binary", True)
        name = "" if binary else f"{pairwise.attrs.get('identical_method', '')} ".lstrip()
        why = ("" if binary else "the paired t interval of per-case differences that are all 0 has zero width "
               "and says nothing, and the ")
        return (f"{subject} "
                + ("make identical predictions on every test case" if not data.repeated else
                   "have the same error rate on every test case")
                + f": their error rates on this test set are equal, and with no disagreement to measure the "
                f"{level} {name}interval of the difference, {g_int} percentage points, is what "
                f"{plural(len(data.case_truth), 'case')} leave open, not a difference known to be 0 "
                f"({why}{test} has nothing to test).")
    g, g_int = gap_points(adv, lo, hi)
    if adv == 0:
        return (f"{subject} have equal error rates here: the same number of errors, "
                f"disagreeing on {plural(n_dis, 'case')} ({level} interval of the difference {g_int} percentage points; "
                f"{p_part}){_leaders_matters(pairwise, row, a, lo, hi, delta)}.")
    # the verdict is the adjusted test's (section 3's ``reject``), the interval its size
    verdict = (f"so {a} is shown to make fewer errors at alpha = {alpha:g}" if bool(row["reject"])
               else f"so they are not shown to differ at alpha = {alpha:g}")
    head = (f"{note}: {a} makes {g} percentage points fewer errors than {b}" if note else
            f"{two}, {a} and {b}: {a} makes {g} percentage points fewer errors")
    unadjusted = ""
    if m > 1:  # the pair was picked by the data: its own interval is optimistic, said with the joint one
        unadjusted = "; " + LEADERS_UNADJUSTED
        if adjusted and adj in FWER_ADJUSTMENTS:
            joint = row.copy()
            joint["diff_low"], joint["diff_high"] = row["adj_low"], row["adj_high"]
            _, j_lo, j_hi = _advantage(joint, a)
            unadjusted += "; " + _joint_clause(j_lo, j_hi, m)
    text = (f"{head} ({level} {method} interval {g_int} percentage points, from {n_dis:,} {cases_word(n_dis)}{unadjusted}); "
            f"{p_part}, {verdict}")
    if bool(row.get("interval_disagrees", False)):
        text += f"; but {_disagreement_clause(pairwise, row, quoted='the ' + verdict_interval_name(adj, m))}"
    text += _leaders_matters(pairwise, row, a, lo, hi, delta)
    few = int(pairwise["few"].sum())
    if few and m == 1:
        text += (f"; it rests on fewer than 25 {cases} (flagged in section 3): only those cases tell two "
                 "classifiers apart, so the comparison rests on little evidence")
    elif few:
        text += (f"; {plural(few, 'pair')} rest{'s' if few == 1 else ''} on fewer than 25 {cases} "
                 "(flagged in section 3): only those cases tell two classifiers apart, so "
                 f"{'that comparison rests' if few == 1 else 'those comparisons rest'} on little evidence")
    return text + "."


def _verdicts_sentence(pairwise: Any, balanced: Any, alpha: float) -> str | None:
    """Every pair on which McNemar's verdict (error rate) and the balanced-accuracy verdict differ,
    each named, in section 3's order, with both estimates and their (unadjusted) intervals, whether
    the two estimates point the same way, and whether the unadjusted tests disagree too or only the
    adjusted ones fall on opposite sides of alpha; None when they agree on every pair."""
    if not (isinstance(pairwise, pd.DataFrame) and len(pairwise) and isinstance(balanced, pd.DataFrame)
            and len(balanced)):
        return None
    test = pairwise.attrs.get("test", "McNemar's mid-p test")
    method = pairwise.attrs.get("method", "Bonett–Price")
    adj = pairwise.attrs.get("adjust", "none")
    level = level_text(alpha)
    m = len(pairwise)
    adjusted = adj in ADJUST_NAME and m > 1
    ba_rows = {frozenset((a, b)): r for (a, b), r in zip(zip(balanced["a"], balanced["b"]),
                                                        balanced.to_dict("records"))}
    only_mc, only_ba, details = [], [], []
    for row in pairwise.to_dict("records"):
        i, j = row["pair"]
        r = ba_rows.get(frozenset((i, j)))
        if r is None or bool(r["reject_adj"]) == bool(row["reject"]):
            continue
        (only_mc if row["reject"] else only_ba).append(f"{i} vs {j}")
        # both as i minus j, higher is better: accuracy (minus the error-rate difference) and balanced accuracy
        acc, acc_lo, acc_hi = -row["diff"], -row["diff_high"], -row["diff_low"]
        sign = 1.0 if r["a"] == i else -1.0
        ba, (ba_lo, ba_hi) = sign * r["difference"], sorted((sign * r["low"], sign * r["high"]))
        g_acc, int_acc = gap_points(acc, acc_lo, acc_hi)
        g_ba, int_ba = gap_points(ba, ba_lo, ba_hi)
        clip_ba = _balanced_clip(r, alpha, sign)
        if acc * ba > 0:
            direction = f"both estimates put {i if acc > 0 else j} ahead"
        elif acc * ba < 0:
            direction = (f"the estimates point in opposite directions ({i if acc > 0 else j} ahead by accuracy, "
                         f"{i if ba > 0 else j} by balanced accuracy)")
        else:
            direction = "one of the estimates is exactly zero"
        p_mc, p_ba = float(row["pvalue"]), float(r["pvalue"])
        if not adjusted:  # the p-values compared with alpha are the unadjusted ones
            sides = ""
        elif (p_mc <= alpha) == (p_ba <= alpha):
            sides = (f"unadjusted, the two tests fall on the same side of alpha ({format_p(p_mc)} and "
                     f"{format_p(p_ba)}), so only the adjusted tests fall on opposite sides of it")
        else:
            sides = (f"the unadjusted tests fall on opposite sides of alpha too ({format_p(p_mc)} and "
                     f"{format_p(p_ba)})")
        p_text = ((lambda q: adjusted_p_text(q, adj)) if adjusted else (lambda q: format_p(q, alpha=alpha)))
        una = ", unadjusted" if m > 1 else ""   # one comparison: nothing to adjust
        signed = (lambda g: g if g.startswith("-") else "+" + g)
        details.append(
            f"for {i} vs {j} ({i} minus {j}) the accuracy difference is {signed(g_acc)} percentage points "
            f"({level} {method} interval {int_acc}{una}; {test}, {p_text(float(row['pvalue_adj']))}) "
            f"and the balanced-accuracy difference {signed(g_ba)} percentage points ({level} "
            f"{STRATIFIED_INTERVAL} interval {int_ba}{una}{', ' + clip_ba if clip_ba else ''}; {BALANCED_TEST}, "
            f"{p_text(float(r['pvalue_adj']))}): {direction}{'; ' + sides if sides else ''}")
    if not only_mc and not only_ba:
        return None
    n = len(only_mc) + len(only_ba)
    parts = []
    if only_mc:
        parts.append(f"only {test} rejects equal error rates at alpha = {alpha:g}, for {join_names(only_mc)}")
    if only_ba:
        parts.append(f"only the {BALANCED_TEST} rejects equal balanced accuracy at alpha = {alpha:g}, for "
                     f"{join_names(only_ba)}")
    where = "on the one pair" if m == 1 else f"on {plural(n, 'pair')} of {m}"
    return (f"The error-rate and balanced-accuracy verdicts of section 3 disagree {where}: {'; '.join(parts)}. In detail, {'; '.join(details)}. "
            f"They measure different things: {test} counts every error "
            "alike, so mostly the large class, while balanced accuracy weighs each class alike.")


def _bootstrap_disagreement(bootstrap: Any, pairwise: pd.DataFrame, row: Any) -> str:
    """Which of the pair's procedures exclude 0 or reject and which do not, each named: the bootstrap
    interval of the F-measure (or macro-F1) difference, the error-rate interval of section 3
    (unadjusted where there are several pairs) and the error-rate test (adjusted where it is)."""
    alpha = bootstrap.alpha
    level = level_text(alpha)
    adj = pairwise.attrs.get("adjust", "none")
    adjusted = adj in ADJUST_NAME and len(pairwise) > 1
    measure = "F-measure" if bootstrap.measure == "F1" else "macro-F1"
    test = pairwise.attrs.get("test", "McNemar's mid-p test")
    lo, hi = float(row["diff_low"]), float(row["diff_high"])
    error_excludes = not (lo <= 0 <= hi)
    error_interval = (f"the {level} {pairwise.attrs.get('method', 'Bonett–Price')} interval of the error-rate "
                      f"difference{' (unadjusted)' if adjusted else ''}")
    p = float(row["pvalue_adj"])
    p_text = adjusted_p_text(p, adj) if adjusted else format_p(p, alpha=alpha)
    boot = f"the bootstrap interval of the {measure} difference"
    if bootstrap.excludes_zero:
        intervals = (f"{boot} excludes 0, and so does {error_interval}" if error_excludes else
                     f"{boot} excludes 0, {error_interval} does not")
        return f"{intervals}; {test} does not reject equal error rates at alpha = {alpha:g}, {p_text}"
    intervals = (f"{boot} includes 0, {error_interval} does not" if error_excludes else
                 f"{boot} includes 0, and so does {error_interval}")
    return f"{test} rejects equal error rates at alpha = {alpha:g}, {p_text}; {intervals}"


def _bootstrap_sentence(data: Predictions, bootstrap: Any, pairwise: Any) -> str | None:
    """The F-measure's verdict, and why it may differ from McNemar's."""
    if bootstrap is None or not callable(getattr(bootstrap, "summary", None)):
        return None
    text = bootstrap.summary()
    if isinstance(pairwise, pd.DataFrame) and len(pairwise):
        row = _pair_row(pairwise, bootstrap.best, bootstrap.second)
        # an interval the summary calls unreliable gives no verdict, so none to set against the test's
        if getattr(bootstrap, "verdict_drawn", True) and bootstrap.excludes_zero != bool(row["reject"]):
            what = ("the F-measure weighs errors on the positive class and ignores true negatives"
                    if bootstrap.measure == "F1" else "macro-F1 weighs every class alike")
            alpha = bootstrap.alpha
            which = _bootstrap_disagreement(bootstrap, pairwise, row)
            text += (f" It and the error-rate test disagree on this pair ({which}): they measure different "
                     f"things, {what} while the test counts every error"
                     + ("" if pairwise.attrs.get("adjust") == "none" or len(pairwise) == 1 else
                        ", and the test's verdict is adjusted for the number of pairs") + ".")
    return text


def _fold_leaders_sentence(measures: pd.DataFrame, folds: Any) -> str:
    """Where the leader by mean per-fold accuracy is not the leader by accuracy pooled over the cases
    (section 2), why the two differ; ``""`` where it is (or is tied with it)."""
    if "accuracy" not in measures or not hasattr(folds, "per_fold"):
        return ""
    acc = measures["accuracy"].astype(float).reindex([str(c) for c in folds.per_fold.columns]).dropna()
    best = folds.best
    if best not in acc or not len(acc) or acc[best] >= acc.max():
        return ""
    top = [n for n, v in acc.items() if v == acc.max()]
    means = folds.per_fold.mean(axis=0)
    who = join_names(top)
    unequal = f", and these folds are unequal ({folds.size_range})" if folds.size_range else ""
    return (f" The leader by mean per-fold accuracy, {best} ({pct(means[best])}%), is not the leader by accuracy "
            f"pooled over the cases (section 2), {who} ({pct(acc.max())}% against {best}'s {pct(acc[best])}%): "
            f"the mean over the folds weighs each fold equally, whatever its size, while pooled accuracy weighs "
            f"each case equally{unequal}.")


def _small_sentence(data: Predictions, measures: pd.DataFrame, pairwise: Any, alpha: float) -> str:
    """A small test set: how wide the intervals are, computed (the accuracy intervals of section 2
    and, with two or more classifiers, the pairwise ones of section 3)."""
    level = level_text(alpha)

    def span(widths: pd.Series) -> str:
        w = 100 * widths.astype(float).dropna()
        low, high = f"{w.min():.1f}", f"{w.max():.1f}"
        return low if low == high else f"{low} to {high}"   # ends that print alike are one width

    parts = []
    if "acc_low" in measures:
        acc = measures["acc_high"].astype(float) - measures["acc_low"].astype(float)
        if acc.notna().any():
            parts.append(f"the {level} Wilson accuracy intervals of section 2 are {span(acc)} percentage points wide")
    if isinstance(pairwise, pd.DataFrame) and len(pairwise):
        diff = pairwise["diff_high"].astype(float) - pairwise["diff_low"].astype(float)
        method = pairwise.attrs.get("method", "")
        # pairs with equal error rates on every case have the one-test-set interval (pairwise_comparison)
        same = ((pairwise["b"] + pairwise["c"]) == 0) & (not pairwise.attrs.get("binary", True))
        if same.all():
            method = pairwise.attrs.get("identical_method", "")
        elif same.any():
            method += f" ({pairwise.attrs.get('identical_method', '')} where the error rates are equal on every case)"
        parts.append(f"the {level} {method + ' ' if method else ''}intervals of the pairwise differences in "
                     f"section 3 are {span(diff)} percentage "
                     "points wide")
    said = ("; " + ", and ".join(parts)) if parts else ""
    return (f"With only {data.n} test cases the intervals are wide{said}; more test cases, not more tests, "
            "would sharpen these conclusions.")


def summary_text(
    data: Predictions,
    *,
    measures: pd.DataFrame,
    pairwise: Any = None,
    chance: Any = None,
    bootstrap: Any = None,
    folds: Any = None,
    scores: Any = None,
    omnibus: Any = None,
    balanced: Any = None,
    warnings: tuple[str, ...] = (),
    alpha: float = 0.05,
) -> str:
    """The findings as Markdown bullets: at most one per question, the honest measure first.

    In the spirit of Berrar & Lozano (2013, section 8): each statement gives the size of
    an effect and its interval, and only then the p-value. The bullets, each present when
    its section has input:

    0. warnings (reversed scores, classifiers below the majority-class baseline, and, from
       ``scores.warnings()``, probabilities all worse than the prevalence forecast), in one
       bullet;
    1. the best classifier by the honest measure -- balanced accuracy (average recall) on
       a skewed file (a smallest class below a fifth of its balanced share), accuracy
       otherwise -- with its interval, and its *paired* comparison with always predicting
       the majority class on the same cases (McNemar's mid-p test and Bonett–Price's
       interval for 0/1 outcomes; a stratified paired t for balanced accuracy), the verdict
       read from the interval with the test's agreement stated, and no verdict where the
       two disagree at ``alpha``;
    2. Cochran's Q and which pairwise differences are significant, with the largest of those (on a
       skewed file after which pairs differ by balanced accuracy, and why the two readings disagree
       when they do), and why Cochran's Q and the pairwise tests disagree when one of them finds a
       difference and the other none;
    3. whether the two leaders can be told apart (on a skewed file by balanced accuracy,
       with McNemar's verdict beside it);
    4. the scores (AUC with DeLong's interval, Brier score);
    5. Forman & Cohen's check, as verdicts only: the optimistic best-threshold figures stay
       in their section;
    6. the F-measure bootstrap, its shares worded as shares of resamples;
    7. the cross-validation folds;
    8. a small test set.

    With ``pairwise.attrs["min_difference"]`` (the smallest difference that matters) every
    difference's interval is read against it. Names and classes from the file are escaped
    for Markdown and HTML (:func:`~evallib.report._prose.escape`). p-values have a floor (``p < 1e-15``), intervals
    get as many decimals as it takes to tell their bounds apart, and a zero-width interval
    is explained.

    Parameters
    ----------
    data : Predictions
    measures : DataFrame from :func:`evallib.report.classifier_measures`
    pairwise, chance, bootstrap, folds, scores, omnibus, balanced : results of those
        sections, or Skipped/None
    warnings : sentences from :func:`evallib.report.score_warnings`
    alpha : float
        The level the results were computed at.

    Returns
    -------
    str
        Markdown bullet points.
    """
    delta = pairwise.attrs.get("min_difference") if isinstance(pairwise, pd.DataFrame) else None
    out: list[str] = []
    if scores is not None and callable(getattr(scores, "warnings", None)):
        warnings = tuple(warnings) + tuple(scores.warnings())
    if warnings:
        out.append("**Warning:** " + " ".join(warnings))
    out.append(_best_sentence(data, measures, alpha, delta))
    # with one pair the leaders' bullet is the pair's, with its test and interval: no second bullet
    one_pair = isinstance(pairwise, pd.DataFrame) and len(pairwise) == 1
    if not one_pair:
        pairs = _pairs_sentence(data, omnibus, pairwise, balanced, alpha)
        why = _omnibus_disagreement(omnibus, pairwise, alpha)
        out.append(f"{pairs} {why}" if pairs and why else pairs)
    out.append(_leaders_sentence(data, pairwise, balanced, alpha, delta))
    out.append(_verdicts_sentence(pairwise, balanced, alpha))
    aucs = measures["AUC"].dropna() if "AUC" in measures else pd.Series(dtype=float)
    if scores is not None and callable(getattr(scores, "summary", None)):
        out.append(scores.summary())
    elif len(aucs):
        best = aucs.astype(float).idxmax()
        out.append(f"The best ranking by AUC is **{best}**'s, AUC = {aucs[best]:.3f} (random scores: "
                   f"0.5); scores are read as evidence for {data.positive!r}.")
    if chance is not None and callable(getattr(chance, "headline", None)):
        out.append(chance.headline())
    out.append(_bootstrap_sentence(data, bootstrap, pairwise))
    if folds is not None and callable(getattr(folds, "summary", None)):
        out.append(folds.summary() + _fold_leaders_sentence(measures, folds))
    if len(data.predicted or data.labels) and data.n < SMALL_TEST_SET:
        out.append(_small_sentence(data, measures, pairwise, alpha))
    return "\n".join(f"- {escape_bold(s)}" for s in out if s)


# --------------------------------------------------------------------- the tables as CSV
def _pairs_frame(pairwise: pd.DataFrame) -> pd.DataFrame:
    out = pairwise.drop(columns=["pair"]).copy()
    out.insert(0, "A", [i for i, _ in pairwise["pair"]])
    out.insert(1, "B", [j for _, j in pairwise["pair"]])
    return out.rename(columns={"a": "both_right", "b": "A_worse", "c": "B_worse", "d": "both_equal_wrong"})


def _fold_tests(folds: Any) -> pd.DataFrame:
    t = folds.ttest
    lo, hi = folds.interval
    flat = lo == hi   # every fold's difference the same: t = 0/0, no statistic and no p-value (NaN)
    rows = [{"test": "corrected resampled t-test", "A": folds.best, "B": folds.second,
             "mean_difference": t.mean_difference, "low": lo, "high": hi,
             "statistic": math.nan if flat else t.statistic, "df": t.df,
             "pvalue": math.nan if flat else t.pvalue, "test_train_ratio": folds.test_train_ratio,
             "matters": folds.matters}]
    if folds.dietterich is not None:
        d, a = folds.dietterich, folds.alpaydin
        rows.append({"test": f"Dietterich {folds.n_repeats}x2cv t", "A": folds.best, "B": folds.second,
                     "mean_difference": d.mean_difference, "statistic": d.statistic, "df": d.df, "pvalue": d.pvalue})
        rows.append({"test": f"Alpaydin combined {folds.n_repeats}x2cv F", "A": folds.best, "B": folds.second,
                     "statistic": a.statistic, "df": f"{a.df[0]}, {a.df[1]}", "pvalue": a.pvalue})
    f = folds.friedman
    rows.append({"test": "Friedman over the folds (chi-square)", "statistic": f.statistic, "df": f.df,
                 "pvalue": f.pvalue})
    if folds.friedman_exact is not None:
        rows.append({"test": "Friedman over the folds (exact permutation law, given the ties)",
                     "statistic": f.statistic, "pvalue": folds.friedman_exact})
    return pd.DataFrame(rows)


def report_tables(data: Predictions, *, overview: Any, measures: pd.DataFrame, per_class: dict | None = None,
                  omnibus: Any = None, pairwise: Any = None, balanced: Any = None, scores: Any = None,
                  chance: Any = None, bootstrap: Any = None, folds: Any = None) -> dict[str, pd.DataFrame]:
    """Every table of the report as a tidy frame of numbers (full precision), by file stem.

    The stems start with the report's section number (``"2_measures"``, ``"3_pairs"``,
    ...); sections that were skipped (or not passed) give no table. :func:`write_tables`
    writes them as CSV files.

    Parameters
    ----------
    data : Predictions
        The checked predictions file (its design: cases, rows, repeats, classes).
    overview : DataSummary
        Section 1, :func:`evallib.report.summarise_data` (``n_folds``, ``class_counts``
        and the ``classifiers`` table are read).
    measures : pandas.DataFrame
        Section 2, :func:`evallib.report.classifier_measures`; its ``attrs["baseline"]``
        becomes the last row.
    per_class : dict of str to pandas.DataFrame, optional
        :func:`evallib.report.per_class_tables` (more than two classes), stacked with a
        ``classifier`` column.
    omnibus : CochranQ or Skipped, optional
        :func:`evallib.report.omnibus_test`.
    pairwise : pandas.DataFrame or Skipped, optional
        :func:`evallib.report.pairwise_comparison`.
    balanced : pandas.DataFrame or Skipped, optional
        :func:`evallib.report.balanced_accuracy_comparison` (its ``a``/``b`` columns
        become ``A``/``B``).
    scores : ScoreComparison, ClassScoreComparison or Skipped, optional
        :func:`evallib.report.score_comparison`.
    chance : ChanceCheck or Skipped, optional
        :func:`evallib.report.chance_check`.
    bootstrap : F1Comparison or Skipped, optional
        :func:`evallib.report.top_two_bootstrap`.
    folds : FoldAnalysis or Skipped, optional
        :func:`evallib.report.fold_analysis`.

    Returns
    -------
    dict of str to pandas.DataFrame
        In this order, those that apply: ``1_design`` (``item``, ``value``),
        ``1_classifiers``, ``2_measures``, ``2_per_class``, ``3_omnibus``, ``3_pairs``,
        ``3_balanced_accuracy_pairs``, ``4_auc``, ``4_macro_auc``, ``4_auc_pairs``,
        ``4_losses``, ``4_loss_pairs``, ``5_chance`` (with ``C``, ``P``, ``N``),
        ``6_bootstrap``, ``7_folds`` (per-fold accuracies and ``cases``) and
        ``7_fold_tests``.
    """
    design = {"test_cases": data.n, "rows": data.n_rows, "repeats": data.n_repeats,
              "folds_per_repeat": overview.n_folds, "label_column": data.label_column,
              "case_column": data.case_column, "repeat_column": data.repeat_column,
              "repeats_from": data.repeat_from}
    if data.multiclass:
        design.update({f"class {c}": k for c, k in (overview.class_counts or {}).items()})
    else:
        design.update(positive_class=data.positive, negative_class=data.negative, positives=data.n_pos,
                      negatives=data.n_neg)
    out = {"1_design": pd.DataFrame({"item": list(design), "value": [str(v) for v in design.values()]}),
           "1_classifiers": overview.classifiers.reset_index()}
    table = measures.reset_index()
    base = measures.attrs.get("baseline")
    if base is not None:
        row = {k: v for k, v in base.items() if k != "code"}
        row["classifier"] = f"baseline: {row.pop('name')}"
        table = pd.concat([table.astype(object), pd.DataFrame([row]).astype(object)], ignore_index=True)
    out["2_measures"] = table
    if per_class:
        out["2_per_class"] = pd.concat([t.reset_index().assign(classifier=name) for name, t in per_class.items()],
                                       ignore_index=True)
    if omnibus is not None and hasattr(omnibus, "statistic"):
        out["3_omnibus"] = pd.DataFrame([{
            "test": "Cochran's Q", "method": omnibus.method, "statistic": omnibus.statistic, "df": omnibus.df,
            "pvalue": omnibus.pvalue, "reject": omnibus.reject, "cases": omnibus.n, "classifiers": omnibus.k,
            "informative_cases": omnibus.n_informative}])
    if isinstance(pairwise, pd.DataFrame):
        out["3_pairs"] = _pairs_frame(pairwise)
    if isinstance(balanced, pd.DataFrame):
        out["3_balanced_accuracy_pairs"] = balanced.rename(columns={"a": "A", "b": "B"})
    if scores is not None and hasattr(scores, "auc"):
        out["4_auc"] = scores.auc
        if hasattr(scores, "macro_auc"):
            out["4_macro_auc"] = scores.macro_auc.rename("macro_ovr_auc").reset_index()
        for name, t in (("4_auc_pairs", getattr(scores, "auc_pairs", None)), ("4_losses", scores.losses),
                        ("4_loss_pairs", scores.loss_pairs)):
            if t is not None and len(t):
                out[name] = t
    if chance is not None and hasattr(chance, "table"):
        out["5_chance"] = chance.table.reset_index().assign(
            tied_with=["; ".join(t) for t in chance.table["tied_with"]], C=chance.C, P=chance.P, N=chance.N)
    if bootstrap is not None and hasattr(bootstrap, "n_resamples"):
        b = bootstrap
        out["6_bootstrap"] = pd.DataFrame([{
            "measure": b.measure, "best": b.best, "second": b.second, "best_value": b.f1_best,
            "second_value": b.f1_second, "difference": b.difference, "low": b.low, "high": b.high,
            "share_of_resamples_best_higher": b.share_best_better, "share_of_resamples_tied": b.share_tied,
            "resamples": b.n_resamples, "alpha": b.alpha}])
    if folds is not None and hasattr(folds, "per_fold"):
        out["7_folds"] = folds.per_fold.assign(cases=folds.fold_sizes).reset_index()
        out["7_fold_tests"] = _fold_tests(folds)
    return out


def _csv_safe(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula (``=...``, ``+...``, ``-...``,
    ``@...``) gets a leading apostrophe, so a classifier named ``=HYPERLINK(...)`` stays text."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def write_tables(tables: dict[str, pd.DataFrame], folder: Any) -> list[Any]:
    """Write each table of :func:`report_tables` to ``folder/<stem>.csv`` (UTF-8, comma
    separated, no index); returns the paths written.

    A text cell that a spreadsheet would run as a formula (starting with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return) is written with a leading apostrophe.

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        ``{stem: table}``, as :func:`report_tables` returns them; each stem names a file.
    folder : str or os.PathLike
        Where to write; created (with its parents) if missing. Existing files of the same
        names are overwritten.

    Returns
    -------
    list of pathlib.Path
        The files written, in the order of ``tables``.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for stem, table in tables.items():
        safe = table.copy()
        for c in safe.columns:
            if safe[c].dtype == object:
                safe[c] = safe[c].map(_csv_safe)
        path = folder / f"{stem}.csv"
        safe.to_csv(path, index=False)
        paths.append(path)
    return paths


#: Escapers of 0.1.0 that live in :mod:`evallib.report._prose` now (DeprecationWarning until 0.3.0).
__getattr__ = moved_names(__name__, {"md": "evallib.report._prose:escape", "P_FLOOR": "evallib.report._prose:P_FLOOR"})
