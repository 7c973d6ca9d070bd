"""What to measure, and how sure we can be: Flach (2012), chapter 12, sections 12.1-12.3.

The formulas of P. Flach, *Machine Learning: The Art and Science of Algorithms that Make
Sense of Data* (Cambridge University Press, 2012), chapter 12 "Machine learning
experiments":

* Examples 12.1-12.2 -- the evaluation measures of a 2x2 contingency table: accuracy,
  true positive and negative rates, average recall, precision, recall, the F-measure
  and the predicted positive rate ``ppr = (TP + FP)/(Pos + Neg)`` (:func:`measures`,
  :func:`measures_table`); accuracy as a function of the class distribution,
  ``acc = pos * tpr + (1 - pos) * tnr``, whose expectation over a uniform ``pos`` is
  average recall (:func:`accuracy_at_pos`, :func:`plot_accuracy_vs_pos`); the
  F-measure's blindness to true negatives (:func:`plot_measures_vs_tn`);
* section 12.1 -- expected accuracy of a ranking split at a random point,
  ``E[acc] = n/(n+1) (2 AUC - 1)/4 + 1/2`` (:func:`expected_accuracy_from_auc`);
* Example 12.5 -- the normal-approximation confidence interval for accuracy, with the
  Wilson and exact (Clopper–Pearson) intervals beside it and the Jeffreys,
  Agresti–Coull, continuity-corrected Wilson and mid-p intervals of Brown, Cai &
  DasGupta (2001) and Newcombe (1998) (:func:`accuracy_interval`), their exact coverage
  (:func:`accuracy_interval_coverage`), and the z-test of a null accuracy
  (:func:`accuracy_ztest`).

Notation follows the book: ``TP, FN, FP, TN`` are the cells of the contingency table
(rows: actual positive / negative; columns: predicted positive / negative),
``Pos = TP + FN``, ``Neg = FP + TN`` and ``pos = Pos / n`` is the proportion of
positives.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._compat import MID_P, renamed_choice, renamed_fields
from .._inference import check_alternative, tail_pvalue, wilson_interval
from .._plotting import get_axes
from .._results import IntervalMixin
from .._validate import check_alpha, check_choice, check_count, check_real

__all__ = [
    "Measures",
    "AccuracyInterval",
    "AccuracyTest",
    "ACCURACY_INTERVAL_METHODS",
    "measures",
    "measures_table",
    "accuracy_at_pos",
    "expected_accuracy_from_auc",
    "accuracy_interval",
    "accuracy_ztest",
    "describe_accuracy_interval",
    "plot_accuracy_vs_pos",
    "plot_measures_vs_tn",
    "plot_accuracy_interval",
    "accuracy_interval_coverage",
    "plot_interval_coverage",
]

ACCURACY_INTERVAL_METHODS = ("normal", "wilson", "exact", "jeffreys", "agresti_coull", "wilson_cc", "mid-p")

MEASURE_NAMES = (
    "accuracy", "tpr", "tnr", "fpr", "avg_recall", "precision", "recall", "f_measure", "ppr",
)


def _ratio(num: int, den: int) -> float:
    return num / den if den else math.nan


# ------------------------------------------------------------ Examples 12.1-12.2
@dataclass(frozen=True)
class Measures:
    """The evaluation measures of one contingency table (Flach, Examples 12.1-12.2).

    Attributes
    ----------
    tp, fn, fp, tn : the four cells.
    n : ``tp + fn + fp + tn``.
    pos : proportion of actual positives, ``(tp + fn) / n``.
    accuracy : ``(tp + tn) / n``, which equals ``pos * tpr + (1 - pos) * tnr``.
    tpr : true positive rate ``tp / (tp + fn)`` (= recall).
    tnr : true negative rate ``tn / (fp + tn)``.
    fpr : false positive rate ``1 - tnr``.
    avg_recall : ``(tpr + tnr) / 2``, the expected accuracy over a uniform class
        distribution (section 12.1).
    precision : ``tp / (tp + fp)``.
    recall : ``tpr``.
    f_measure : harmonic mean of precision and recall, computed as
        ``2 tp / (2 tp + fp + fn)`` (the same value wherever both are defined).
    ppr : predicted positive rate ``(tp + fp) / n``.
    undefined : names of the measures that are 0/0 for this table (stored as NaN), for
        example ``("tpr", "recall", "avg_recall")`` when there are no actual positives.
        Empty for an ordinary table.
    """

    tp: int
    fn: int
    fp: int
    tn: int
    n: int
    pos: float
    accuracy: float
    tpr: float
    tnr: float
    fpr: float
    avg_recall: float
    precision: float
    recall: float
    f_measure: float
    ppr: float
    undefined: tuple[str, ...] = ()

    def as_series(self) -> pd.Series:
        """The measures (not the counts) as a pandas Series, in a fixed order.

        Returns
        -------
        pandas.Series
            Float values indexed by :data:`MEASURE_NAMES`.
        """
        return pd.Series({name: getattr(self, name) for name in MEASURE_NAMES}, dtype=float)


def measures(tp: int, fn: int, fp: int, tn: int) -> Measures:
    """Evaluation measures of a 2x2 contingency table (Flach, Examples 12.1-12.2).

    Parameters
    ----------
    tp, fn : int
        Actual positives predicted positive / negative (the table's first row), >= 0.
    fp, tn : int
        Actual negatives predicted positive / negative (the second row), >= 0.

    Returns
    -------
    Measures
        Accuracy, true positive and negative rates, false positive rate, average
        recall, precision, recall, F-measure and predicted positive rate
        ``ppr = (TP + FP)/(Pos + Neg)``.

    Raises
    ------
    TypeError, ValueError
        If a count is not a whole number >= 0, or all four are 0 (an empty table).

    Notes
    -----
    Degenerate but legal tables: a ratio whose denominator is 0 (no actual positives
    for ``tpr``, no actual negatives for ``tnr``, no positive predictions for
    ``precision``, ``tp = fp = fn = 0`` for the F-measure) is undefined; it is stored
    as NaN and named in ``undefined``, and ``avg_recall`` is undefined with either
    rate. ``f_measure = 2 tp / (2 tp + fp + fn)`` is 0, not undefined, when
    ``tp = 0`` but there are errors.

    References
    ----------
    .. [1] Flach, P. (2012). *Machine Learning: The Art and Science of Algorithms that Make Sense
       of Data*. Cambridge University Press, chapter 12.

    Examples
    --------
    Example 12.1's first classifier (tp 60, fn 20, fp 0, tn 20): "tpr = 0.75, tnr = 1.00 and
    acc = 0.80", average recall 0.875 (printed 0.88); Example 12.2, on Example 12.1's second
    classifier (tp 75, fn 5, fp 10, tn 10): precision 0.88, recall 0.94, F-measure 0.91
    (its rates: tpr 0.9375, tnr 0.5, accuracy 0.85, average recall 0.71875).

    >>> from evallib import measures
    >>> a = measures(60, 20, 0, 20)
    >>> a.tpr, a.tnr, a.accuracy, a.avg_recall
    (0.75, 1.0, 0.8, 0.875)
    >>> b = measures(75, 5, 10, 10)
    >>> round(b.precision, 2), round(b.recall, 2), round(b.f_measure, 2)
    (0.88, 0.94, 0.91)
    """
    tp, fn, fp, tn = (check_count(v, name) for v, name in ((tp, "tp"), (fn, "fn"), (fp, "fp"), (tn, "tn")))
    n = tp + fn + fp + tn
    if n == 0:
        raise ValueError("the contingency table is empty: tp + fn + fp + tn must be at least 1")
    tpr = _ratio(tp, tp + fn)
    tnr = _ratio(tn, fp + tn)
    values = dict(
        accuracy=(tp + tn) / n,
        tpr=tpr,
        tnr=tnr,
        fpr=1.0 - tnr,
        avg_recall=(tpr + tnr) / 2.0,
        precision=_ratio(tp, tp + fp),
        recall=tpr,
        f_measure=_ratio(2 * tp, 2 * tp + fp + fn),
        ppr=(tp + fp) / n,
    )
    undefined = tuple(name for name in MEASURE_NAMES if math.isnan(values[name]))
    return Measures(tp=tp, fn=fn, fp=fp, tn=tn, n=n, pos=(tp + fn) / n, undefined=undefined, **values)


def _check_tables(tables: Any) -> dict:
    if not isinstance(tables, Mapping) or len(tables) == 0:
        raise TypeError("tables must be a non-empty mapping {name: (tp, fn, fp, tn)}")
    out = {}
    for name, cells in tables.items():
        if isinstance(cells, Measures):
            out[name] = cells
            continue
        try:
            tp, fn, fp, tn = cells
        except (TypeError, ValueError):
            raise TypeError(f"tables[{name!r}] must be four counts (tp, fn, fp, tn), got {cells!r}") from None
        out[name] = measures(tp, fn, fp, tn)
    return out


def measures_table(tables: Mapping[Any, Sequence[int]]) -> pd.DataFrame:
    """One row of :func:`measures` per named contingency table.

    Parameters
    ----------
    tables : mapping ``{name: (tp, fn, fp, tn)}``
        The tables to compare (a :class:`Measures` is accepted as a value too).

    Returns
    -------
    pandas.DataFrame
        Indexed by name; columns ``tp, fn, fp, tn, n, pos`` and the measures
        ``accuracy, tpr, tnr, fpr, avg_recall, precision, recall, f_measure, ppr``.
    """
    rows = {}
    for name, m in _check_tables(tables).items():
        row = {f.name: getattr(m, f.name) for f in fields(m) if f.name != "undefined"}
        rows[name] = row
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "table"
    return table


def accuracy_at_pos(tables: Mapping[Any, Sequence[int]], pos: float) -> pd.DataFrame:
    """Accuracy of each classifier if the proportion of positives were ``pos``.

    Section 12.1: with the true positive and negative rates measured on the test set,
    ``acc(pos) = pos * tpr + (1 - pos) * tnr``; averaged over ``pos`` uniform on
    [0, 1] this is ``avg_recall = (tpr + tnr)/2``.

    Parameters
    ----------
    tables : mapping ``{name: (tp, fn, fp, tn)}``
        Each table needs at least one actual positive and one actual negative.
    pos : float
        The proportion of positives in the operating context, in [0, 1].

    Returns
    -------
    pandas.DataFrame
        Indexed by name, columns ``tpr, tnr``, ``test_pos`` (the test set's
        proportion of positives), ``test_accuracy``, ``accuracy_at_pos``,
        ``avg_recall`` and ``best_at_pos`` (True for the classifier(s) with the
        highest accuracy at ``pos``).
    """
    pos = check_real(pos, "pos", low=0, high=1)
    rows = {}
    for name, m in _check_tables(tables).items():
        if math.isnan(m.tpr) or math.isnan(m.tnr):
            raise ValueError(
                f"tables[{name!r}] needs at least one actual positive and one actual negative "
                "for accuracy to be a function of the class distribution"
            )
        rows[name] = dict(tpr=m.tpr, tnr=m.tnr, test_pos=m.pos, test_accuracy=m.accuracy,
                          accuracy_at_pos=pos * m.tpr + (1.0 - pos) * m.tnr, avg_recall=m.avg_recall)
    table = pd.DataFrame.from_dict(rows, orient="index")
    table["best_at_pos"] = np.isclose(table["accuracy_at_pos"], table["accuracy_at_pos"].max(),
                                      rtol=0, atol=1e-12)
    table.index.name = "classifier"
    return table


# ------------------------------------------------------------- section 12.1, AUC
def expected_accuracy_from_auc(auc: float, n: int, *, positives: int | None = None) -> float:
    """Expected accuracy of a ranking split at a uniformly random point (section 12.1).

    Split a ranking of ``n`` instances at one of its ``n + 1`` split points, chosen
    uniformly at random, and predict the top part positive. Flach gives the expected
    accuracy as

    ``E[acc] = n/(n+1) * (2 AUC - 1)/4 + 1/2``.

    Parameters
    ----------
    auc : float
        Area under the ROC curve of the ranking, in [0, 1].
    n : int
        Number of ranked instances, >= 1.
    positives : int, optional
        Number of actual positives ``P`` among the ``n``. ``None`` (the default)
        gives the book's formula above. Given ``P`` (and ``N = n - P``), the exact
        value ``1/2 + P N/(n (n+1)) * (2 AUC - 1)`` is returned.

    Returns
    -------
    float

    Notes
    -----
    Counting, for each positive and each negative, the split points at which it is
    classified correctly gives ``E[acc] = 1/2 + P N (2 AUC - 1)/(n (n + 1))`` for any
    ranking without ties. The book's formula is the case ``P = N = n/2``
    (``P N = n^2/4``): it holds exactly for a balanced test set, and overstates the
    dependence on AUC when the classes are imbalanced. Either way the relation is
    linear in AUC, which is the book's point. The tests check both forms against
    brute-force enumeration of rankings.
    """
    auc = check_real(auc, "auc", low=0, high=1)
    n = check_count(n, "n", minimum=1)
    if positives is None:
        return n / (n + 1) * (2.0 * auc - 1.0) / 4.0 + 0.5
    p = check_count(positives, "positives")
    if p > n:
        raise ValueError(f"positives must lie in [0, n] = [0, {n}], got {p}")
    return 0.5 + p * (n - p) * (2.0 * auc - 1.0) / (n * (n + 1))


# ------------------------------------------------------------------ Example 12.5
@renamed_fields(std_error="se")
@dataclass(frozen=True)
class AccuracyInterval(IntervalMixin):
    """A confidence interval for accuracy from ``correct`` successes in ``n`` trials.

    Attributes
    ----------
    low, high : the bounds.
    estimate : ``correct / n``.
    se : ``sqrt(estimate (1 - estimate)/n)``, the binomial standard deviation
        with the estimate plugged in (Example 12.5).
    alpha : the interval has nominal coverage ``1 - alpha``.
    method : one of :data:`ACCURACY_INTERVAL_METHODS` (``"normal"``, ``"wilson"``,
        ``"exact"``, ``"jeffreys"``, ``"agresti_coull"``, ``"wilson_cc"``, ``"mid-p"``).
    correct, n : the counts.
    n_var : ``n * estimate * (1 - estimate)``; the book calls the normal approximation
        good when it is at least 5.
    note : an empty string, or a warning that the normal interval is unsafe.
    """

    low: float
    high: float
    estimate: float
    se: float
    alpha: float
    method: str
    correct: int
    n: int
    n_var: float
    note: str = ""


def _check_correct_n(correct: Any, n: Any) -> tuple[int, int]:
    n = check_count(n, "n", minimum=1)
    correct = check_count(correct, "correct")
    if correct > n:
        raise ValueError(f"correct must lie in [0, n] = [0, {n}], got {correct}")
    return correct, n


def accuracy_interval(
    correct: int, n: int, *, alpha: float = 0.05, method: str = "wilson"
) -> AccuracyInterval:
    """Confidence interval for accuracy: Wilson's by default, Flach's normal one, or the exact one.

    Each test instance is a Bernoulli trial with success probability ``a``; the
    estimate ``â = correct / n`` has variance ``â(1 - â)/n``. A ``1 - alpha``
    confidence interval is a *procedure*: over repeated test sets, the intervals it
    computes contain the true accuracy in a fraction of about ``1 - alpha`` of them
    (:func:`accuracy_interval_coverage` computes that fraction exactly).

    The default is Wilson's score interval, as Brown, Cai & DasGupta (2001) recommend:
    the normal ("Wald") interval of Flach's Example 12.5 has erratic coverage, often well
    below nominal, even when ``n â(1 - â) >= 5``, the book's rule of thumb.

    Parameters
    ----------
    correct : int
        Number of correctly classified test instances, in [0, n].
    n : int
        Number of test instances, >= 1.
    alpha : float
        In (0, 1); the interval has nominal coverage ``1 - alpha``. The book's "68%"
        interval (one standard deviation) is ``alpha = 2 * norm.sf(1) = 0.3173``.
    method : {"wilson", "normal", "exact", "jeffreys", "agresti_coull", "wilson_cc", "mid-p"}
        ``"wilson"`` (default): the score interval, the set of ``a`` that a z-test with
        the null variance ``a(1 - a)/n`` does not reject. ``"normal"`` (the book's,
        Example 12.5): ``â -/+ z sqrt(â(1 - â)/n)`` with ``z`` the ``1 - alpha/2`` normal
        quantile, clipped to [0, 1]. ``"exact"``: Clopper–Pearson, from beta quantiles
        (the "tables for the binomial distribution" the book points to for small
        samples); its coverage never falls below ``1 - alpha``, so it is wider.
        The four below are those Brown, Cai & DasGupta (2001) and Newcombe (1998)
        compare with Wilson's (``k = correct``):

        ``"jeffreys"``: the equal-tailed interval of the Beta(k + 1/2, n - k + 1/2)
        posterior (Jeffreys prior), ``[B(alpha/2), B(1 - alpha/2)]``, with the lower
        bound set to 0 when ``k = 0`` and the upper to 1 when ``k = n`` (Brown et al.,
        section 4.1.2). ``"agresti_coull"`` (Agresti & Coull 1998): the normal interval
        around ``p~ = (k + z^2/2)/(n + z^2)`` with ``n~ = n + z^2``,
        ``p~ -/+ z sqrt(p~(1 - p~)/n~)``, clipped to [0, 1] (Brown et al., eq. 5).
        ``"wilson_cc"``: Wilson's interval with continuity correction (Newcombe 1998,
        method 4), ``L = (2nâ + z^2 - 1 - z sqrt(z^2 - 2 - 1/n + 4â(n(1 - â) + 1)))
        / (2(n + z^2))`` and ``U = (2nâ + z^2 + 1 + z sqrt(z^2 + 2 - 1/n
        + 4â(n(1 - â) - 1))) / (2(n + z^2))``, with ``L = 0`` at ``k = 0`` and ``U = 1`` at
        ``k = n``. ``"mid-p"``: the mid-p Clopper–Pearson interval (Newcombe 1998,
        method 6; Berry & Armitage 1995): the lower bound solves
        ``P(K > k) + P(K = k)/2 = alpha/2`` and the upper ``P(K < k) + P(K = k)/2 =
        alpha/2`` for ``K ~ Binomial(n, a)`` (0 at ``k = 0``, 1 at ``k = n``), found by
        bisection to machine precision. It is Clopper–Pearson less half the
        probability of the observed count: narrower, and its coverage can fall
        slightly below ``1 - alpha``.

    Returns
    -------
    AccuracyInterval
        ``note`` warns, for the normal method, when ``n â(1 - â) < 5`` makes the
        normal approximation unsafe (the book's rule); it is empty otherwise.

    Notes
    -----
    With ``correct`` equal to 0 or ``n`` the plug-in variance is 0 and the normal
    interval collapses to the single point ``â`` (and the note says so); every other
    method stays informative, with the bound at the observed end equal to 0 (at
    ``correct = 0``) or 1 (at ``correct = n``).

    Exact coverage (:func:`accuracy_interval_coverage`, ``n = 100``, ``alpha = 0.05``,
    true accuracies 0.5 to 0.9999): Clopper–Pearson's never falls below 0.95 and the
    continuity-corrected Wilson interval only to 0.9497; mid-p dips to about 0.92, Agresti–Coull to
    0.94, Jeffreys to 0.88 and Wilson to 0.84, the last two right next to 1 (Wilson at
    ``a`` = 0.998), where the accuracies of good classifiers live. Averaged over ``a`` all
    of them but the normal interval are close to 0.95 (Brown, Cai & DasGupta 2001
    recommend Wilson or Jeffreys for ``n < 40`` and Agresti–Coull above).

    References
    ----------
    .. [1] Flach, P. (2012). *Machine Learning: The Art and Science of Algorithms that Make Sense
       of Data*. Cambridge University Press, chapter 12 (Example 12.5).
    .. [2] Brown, L. D., Cai, T. T. and DasGupta, A. (2001). Interval estimation for a binomial
       proportion. *Statistical Science* 16(2), 101-133.
    .. [3] Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
       inference. *JASA* 22, 209-212. Clopper, C. J. and Pearson, E. S. (1934). *Biometrika* 26, 404-413.
    .. [4] Newcombe, R. G. (1998). Two-sided confidence intervals for the single proportion:
       comparison of seven methods. *Statistics in Medicine* 17, 857-872.
    .. [5] Agresti, A. and Coull, B. A. (1998). Approximate is better than "exact" for interval
       estimation of binomial proportions. *The American Statistician* 52, 119-126.
    .. [6] Berry, G. and Armitage, P. (1995). Mid-P confidence intervals: a brief review.
       *The Statistician* 44, 417-423.

    Examples
    --------
    Example 12.5: 80 of 100 test cases right; the book prints the 95% interval [0.72, 0.88],
    from its normal interval.

    >>> from evallib import accuracy_interval
    >>> ci = accuracy_interval(80, 100, alpha=0.05, method="normal")
    >>> round(ci.low, 2), round(ci.high, 2)
    (0.72, 0.88)

    Newcombe (1998), Table I, 81 successes out of 263: Wilson 0.2553 to 0.3662, with
    continuity correction 0.2535 to 0.3682, mid-p 0.2544 to 0.3658.

    >>> [tuple(round(v, 4) for v in (ci.low, ci.high)) for ci in
    ...  (accuracy_interval(81, 263, method=m) for m in ("wilson", "wilson_cc", "mid-p"))]
    [(0.2553, 0.3662), (0.2535, 0.3682), (0.2544, 0.3658)]
    """
    correct, n = _check_correct_n(correct, n)
    alpha = check_alpha(alpha)
    method = check_choice(renamed_choice(method, "method", MID_P), "method", ACCURACY_INTERVAL_METHODS)
    a = correct / n
    se = math.sqrt(a * (1.0 - a) / n)
    n_var = correct * (n - correct) / n  # = n â(1 - â), without rounding error
    note = ""
    if method == "normal" and n_var < 5:
        note = (f"n·â(1−â) = {n_var:.3g} < 5: the binomial distribution is too skewed for the normal "
                "approximation; use method='wilson' or method='exact'")
    low, high = _accuracy_bounds(method, np.array([correct]), n, alpha)
    return AccuracyInterval(low=float(low[0]), high=float(high[0]), estimate=a, se=se, alpha=alpha,
                            method=method, correct=correct, n=n, n_var=n_var, note=note)


def _mid_p_bounds(k: np.ndarray, n: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Mid-p bounds for counts ``k`` of ``n``, by bisection to machine precision (vectorised).

    Lower bound (``k > 0``): the ``a`` with ``P(K > k) + P(K = k)/2 = alpha/2``; upper
    (``k < n``): ``P(K < k) + P(K = k)/2 = alpha/2``, ``K ~ Binomial(n, a)``. The tails are
    regularised incomplete beta functions, ``P(K >= j) = I_a(j, n - j + 1)``; both
    equations are monotone in ``a``, and 64 halvings of [0, 1] reach the spacing of doubles.
    """
    k = np.asarray(k, dtype=float)
    target = alpha / 2.0

    def upper_tail(x, j):  # P(K >= j), j in 0..n+1
        jj = np.clip(j, 1, n)
        val = stats.beta.cdf(x, jj, n - jj + 1)
        return np.where(j <= 0, 1.0, np.where(j > n, 0.0, val))

    def lower_excess(x):  # P(K > k) + P(K = k)/2, increasing in x
        return 0.5 * (upper_tail(x, k) + upper_tail(x, k + 1))

    def upper_excess(x):  # P(K < k) + P(K = k)/2, decreasing in x
        return 1.0 - lower_excess(x)

    lo, hi = np.zeros_like(k), np.ones_like(k)
    for _ in range(64):
        mid = 0.5 * (lo + hi)
        below = lower_excess(mid) < target
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    low = np.where(k <= 0, 0.0, 0.5 * (lo + hi))
    lo, hi = np.zeros_like(k), np.ones_like(k)
    for _ in range(64):
        mid = 0.5 * (lo + hi)
        above = upper_excess(mid) > target
        lo, hi = np.where(above, mid, lo), np.where(above, hi, mid)
    high = np.where(k >= n, 1.0, 0.5 * (lo + hi))
    return low, high


def _accuracy_bounds(method: str, k: np.ndarray, n: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """The bounds of ``method`` for every count in ``k`` (an integer array) out of ``n``."""
    k = np.asarray(k, dtype=float)
    a = k / n
    z = float(stats.norm.isf(alpha / 2.0))
    z2 = z * z
    if method == "normal":
        half = z * np.sqrt(a * (1.0 - a) / n)
        low, high = a - half, a + half
    elif method == "wilson":
        low, high = wilson_interval(a, n, z)
    elif method == "exact":
        with np.errstate(invalid="ignore"):
            low = np.where(k == 0, 0.0, stats.beta.ppf(alpha / 2, np.maximum(k, 1), n - k + 1))
            high = np.where(k == n, 1.0, stats.beta.isf(alpha / 2, k + 1, np.maximum(n - k, 1)))
    elif method == "jeffreys":
        low = np.where(k == 0, 0.0, stats.beta.ppf(alpha / 2, k + 0.5, n - k + 0.5))
        high = np.where(k == n, 1.0, stats.beta.isf(alpha / 2, k + 0.5, n - k + 0.5))
    elif method == "agresti_coull":
        n_t = n + z2
        p_t = (k + z2 / 2) / n_t
        half = z * np.sqrt(p_t * (1 - p_t) / n_t)
        low, high = p_t - half, p_t + half
    elif method == "wilson_cc":
        denom = 2 * (n + z2)
        rad_lo = np.maximum(z2 - 2 - 1 / n + 4 * a * (n * (1 - a) + 1), 0.0)
        rad_hi = np.maximum(z2 + 2 - 1 / n + 4 * a * (n * (1 - a) - 1), 0.0)
        low = np.where(k == 0, 0.0, (2 * n * a + z2 - 1 - z * np.sqrt(rad_lo)) / denom)
        high = np.where(k == n, 1.0, (2 * n * a + z2 + 1 + z * np.sqrt(rad_hi)) / denom)
    else:  # "mid-p"
        low, high = _mid_p_bounds(k, n, alpha)
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


@dataclass(frozen=True)
class AccuracyTest:
    """The z-test of a null accuracy (Example 12.5).

    Attributes
    ----------
    statistic : ``z = (â - null) / sqrt(null (1 - null)/n)``.
    pvalue : the p-value for ``alternative``.
    null_sd : ``sqrt(null (1 - null)/n)``, the standard deviation under the null.
    estimate : ``correct / n``.
    null : the null accuracy.
    alternative : ``"two-sided"``, ``"greater"`` or ``"less"``.
    """

    statistic: float
    pvalue: float
    null_sd: float
    estimate: float
    null: float
    alternative: str


def accuracy_ztest(
    correct: int, n: int, *, null: float = 0.5, alternative: str = "two-sided"
) -> AccuracyTest:
    """Test a null hypothesis about the true accuracy (Flach, Example 12.5).

    Under the null hypothesis ``a = null`` the estimate ``â = correct/n`` is
    approximately normal with standard deviation ``sqrt(null (1 - null)/n)``.

    Parameters
    ----------
    correct, n : int
        Correct classifications and test instances, ``0 <= correct <= n``, ``n >= 1``.
    null : float
        The null accuracy, strictly between 0 and 1.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: the probability of a measurement of ``â`` or higher under the
        null, the definition the book gives in words; ``"two-sided"``: twice the
        smaller tail, which is the number the book prints (see Notes).

    Returns
    -------
    AccuracyTest

    Notes
    -----
    Example 12.5: 80 correct out of 100 against ``null = 0.5`` gives ``z = 6``. The
    book describes the p-value as "the probability of obtaining a measurement of 0.80
    or higher", which is ``P(Z >= 6) = 9.866e-10``, but prints
    ``p = 1.9732e-9 = 2 P(Z >= 6)``, the two-sided p-value. Both are far below 0.05.
    """
    correct, n = _check_correct_n(correct, n)
    null = check_alpha(null, "null")  # an open-interval probability, like alpha
    alternative = check_alternative(alternative)
    a = correct / n
    sd = math.sqrt(null * (1.0 - null) / n)
    z = (a - null) / sd
    p = tail_pvalue(z, None, alternative)
    return AccuracyTest(statistic=float(z), pvalue=p, null_sd=sd, estimate=a, null=null,
                        alternative=alternative)


#: the order in which the intervals are described and drawn: the default first
_SHOWN_METHODS = ("wilson", "exact", "normal")


def describe_accuracy_interval(correct: int, n: int, *, alpha: float = 0.05) -> str:
    """The three intervals of :func:`accuracy_interval` for one result, as plain text.

    The slider callback of notebook 04 (Example 12.5): one line per method (Wilson,
    the default, first), then the book's warning if the normal approximation is unsafe.

    Parameters
    ----------
    correct : int
        Correctly classified cases, in 0..n.
    n : int >= 1
        Test cases.
    alpha : float in (0, 1), default 0.05
        The intervals have coverage ``1 - alpha``.

    Returns
    -------
    str
        The lines of text.
    """
    lines = []
    notes = []
    for method in _SHOWN_METHODS:
        ci = accuracy_interval(correct, n, alpha=alpha, method=method)
        lines.append(f"{method:>7}: [{ci.low:.3f}, {ci.high:.3f}]  (width {ci.width:.3f})")
        if ci.note:
            notes.append(ci.note)
    head = (f"â = {correct}/{n} = {correct / n:.3f}, standard deviation {ci.se:.4f}, "
            f"n·â(1−â) = {ci.n_var:.3g}; {100 * (1 - alpha):g}% intervals:")
    return "\n".join([head, *lines, *(f"note: {t}" for t in notes)])


# ---------------------------------------------------------------------- plots
def plot_accuracy_vs_pos(tables: Mapping[Any, Sequence[int]], *, pos: float | None = None, ax=None):
    """Accuracy as a function of the proportion of positives (Example 12.1).

    Each classifier is the straight line ``acc(pos) = pos * tpr + (1 - pos) * tnr``
    from ``tnr`` at ``pos = 0`` to ``tpr`` at ``pos = 1``; its mean height, average
    recall, is drawn dashed. A dot marks the test set's own class distribution, and a
    vertical line the chosen ``pos``.

    Parameters
    ----------
    tables : mapping ``{name: (tp, fn, fp, tn)}``
    pos : float, optional
        A proportion of positives to mark, in [0, 1].
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    info = accuracy_at_pos(tables, 0.5 if pos is None else pos)
    ax = get_axes(ax)
    grid = np.array([0.0, 1.0])
    for i, (name, row) in enumerate(info.iterrows()):
        colour = f"C{i}"
        ax.plot(grid, grid * row.tpr + (1 - grid) * row.tnr, color=colour, label=f"{name}: accuracy")
        ax.axhline(row.avg_recall, color=colour, linestyle="--", linewidth=1,
                   label=f"{name}: average recall {row.avg_recall:.3f}")
        ax.plot([row.test_pos], [row.test_accuracy], "o", color=colour)
        if pos is not None:
            ax.plot([pos], [row.accuracy_at_pos], "s", color=colour, markersize=7)
    if pos is not None:
        ax.axvline(pos, color="0.4", linewidth=1, linestyle=":")
        ax.set_title(f"at pos = {pos:.2f}: " + ", ".join(
            f"{name} {v:.3f}" for name, v in info["accuracy_at_pos"].items()))
    ax.set_xlim(0, 1)
    ax.set_xlabel("proportion of positives, pos")
    ax.set_ylabel("accuracy")
    ax.legend(fontsize="small", frameon=False, loc="best")
    return ax


def plot_measures_vs_tn(
    tp: int, fn: int, fp: int, *, tn: int | None = None, tn_max: int = 10_000, ax=None
):
    """Measures of the table ``(tp, fn, fp, TN)`` as the true negatives grow (Example 12.2).

    Accuracy and the true negative rate climb towards 1 as ``TN`` grows; precision,
    recall and the F-measure do not move: they ignore the true negatives.

    Parameters
    ----------
    tp, fn, fp : int
        The fixed cells, with ``tp + fn >= 1`` and ``fp >= 1`` or ``tn_max >= 1``.
    tn : int, optional
        A number of true negatives to mark.
    tn_max : int
        Right end of the logarithmic TN axis, >= 1.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    tn_max = check_count(tn_max, "tn_max", minimum=1)
    grid = np.unique(np.round(np.geomspace(1, tn_max, 200)).astype(int))
    rows = [measures(tp, fn, fp, int(t)) for t in grid]
    ax = get_axes(ax)
    for name, style in (("accuracy", "-"), ("tnr", "-"), ("precision", "--"), ("recall", "--"),
                        ("f_measure", "-.")):
        ax.plot(grid, [getattr(r, name) for r in rows], style, label=name.replace("_", "-"))
    if tn is not None:
        m = measures(tp, fn, fp, tn)
        ax.axvline(max(tn, 1), color="0.4", linewidth=1, linestyle=":")
        ax.set_title(f"TN = {tn}: accuracy {m.accuracy:.3f}, F-measure {m.f_measure:.3f}")
    ax.set_xscale("log")
    ax.set_xlabel("true negatives TN (log scale)")
    ax.set_ylabel("value")
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize="small", frameon=False, loc="lower right")
    return ax


def plot_accuracy_interval(correct: int, n: int, *, alpha: float = 0.05, ax=None):
    """The Wilson, exact and normal intervals for one accuracy, on one comparable axis (Example 12.5).

    The three intervals are drawn as bars one above the other on an accuracy axis
    zoomed to where they lie, with their end points printed, so that their widths and
    asymmetry can be compared; behind them, in grey, the binomial distribution of the
    observed accuracy if the true accuracy were the estimate ``â``.

    Parameters
    ----------
    correct, n : int
        Correct classifications and test instances.
    alpha : float
        In (0, 1).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    cis = [accuracy_interval(correct, n, alpha=alpha, method=m) for m in _SHOWN_METHODS]
    ax = get_axes(ax, figsize=(7, 3.2))
    a = correct / n
    lo = min(ci.low for ci in cis)
    hi = max(ci.high for ci in cis)
    pad = max(0.1 * (hi - lo), 0.01)
    left, right = max(-0.005, lo - pad), min(1.005, hi + pad)
    k = np.arange(n + 1)
    shown = (k / n >= left) & (k / n <= right)
    pmf = stats.binom.pmf(k, n, a)
    if pmf.max() > 0:
        ax.vlines(k[shown] / n, 0, 0.9 * pmf[shown] / pmf.max(), color="0.8",
                  linewidth=max(0.5, min(4.0, 150 / max(1, shown.sum()))),
                  label="binomial distribution of the observed accuracy if a = â (scaled)")
    for i, ci in enumerate(cis):
        y = 1.2 + 0.35 * i
        ax.plot([ci.low, ci.high], [y, y], color=f"C{i}", linewidth=5, solid_capstyle="butt")
        ax.text(ci.low, y + 0.09, f"{ci.low:.3f}", ha="center", va="bottom", fontsize="small")
        ax.text(ci.high, y + 0.09, f"{ci.high:.3f}", ha="center", va="bottom", fontsize="small")
    ax.axvline(a, color="k", linewidth=1, linestyle=":", label=f"estimate â = {a:.3f}")
    labels = {"wilson": "Wilson (default)", "exact": "exact (Clopper–Pearson)", "normal": "normal (the book's)"}
    ax.set_yticks([1.2 + 0.35 * i for i in range(len(cis))])
    ax.set_yticklabels([labels[ci.method] for ci in cis])
    ax.set_ylim(0, 1.2 + 0.35 * len(cis))
    ax.set_xlim(left, right)
    ax.set_xlabel("accuracy")
    title = f"{correct}/{n} correct: {100 * (1 - alpha):g}% intervals"
    if cis[-1].note:
        title += f"  (n·â(1−â) = {cis[-1].n_var:.3g} < 5)"
    ax.set_title(title, fontsize="medium")
    ax.legend(fontsize="small", frameon=False, loc="lower left")
    return ax


def accuracy_interval_coverage(n: int, accuracy: Any, *, method: str = "wilson", alpha: float = 0.05):
    """Exact coverage of :func:`accuracy_interval`: how often it contains the true accuracy.

    The number correct on ``n`` test cases is Binomial(n, a), so the probability that
    the interval computed from it contains ``a`` is the sum of the binomial
    probabilities of the counts whose interval does::

        C(a) = sum_{k = 0}^{n} P(K = k | n, a) 1[low(k) <= a <= high(k)]

    (Brown, Cai & DasGupta 2001, eq. (1)). This is what the confidence level promises:
    ``C(a)`` close to ``1 - alpha`` for every ``a``.

    Parameters
    ----------
    n : int
        Test cases, >= 1.
    accuracy : float or array of float
        True accuracies ``a`` in [0, 1].
    method : str
        One of :data:`ACCURACY_INTERVAL_METHODS`; the bounds of all ``n + 1`` counts are
        computed at once (vectorised), so a grid of thousands of accuracies at
        ``n = 1000`` takes a fraction of a second.
    alpha : float
        In (0, 1).

    Returns
    -------
    float or ndarray
        The coverage at each ``accuracy`` (the shape of ``accuracy``).

    References
    ----------
    L. D. Brown, T. T. Cai and A. DasGupta (2001), Interval estimation for a binomial
    proportion, *Statistical Science* 16(2), 101-133.

    Examples
    --------
    Clopper and Pearson's exact interval is built so that its coverage never falls below
    the promised level; on Example 12.5's 100 test cases:

    >>> grid = np.linspace(0.01, 0.99, 99)
    >>> bool(accuracy_interval_coverage(100, grid, method="exact").min() >= 0.95)
    True

    Wilson's interval dips well below its promise right next to 1 (Brown, Cai &
    DasGupta 2001, section 4.1.1); the continuity-corrected one stays at the promise
    (its lowest, 0.9497, is just above its upper bound for 99/100, where only 100/100
    covers):

    >>> near_one = np.linspace(0.99, 0.9999, 1000)
    >>> round(float(accuracy_interval_coverage(100, near_one, method="wilson").min()), 2)
    0.84
    >>> round(float(accuracy_interval_coverage(100, near_one, method="wilson_cc").min()), 2)
    0.95
    """
    n = check_count(n, "n", minimum=1)
    method = check_choice(renamed_choice(method, "method", MID_P), "method", ACCURACY_INTERVAL_METHODS)
    alpha = check_alpha(alpha)
    a = np.asarray(accuracy, dtype=float)
    if not np.all(np.isfinite(a)) or np.any((a < 0) | (a > 1)):
        raise ValueError(f"accuracy must lie in [0, 1], got {accuracy!r}")
    k = np.arange(n + 1)
    low, high = _accuracy_bounds(method, k, n, alpha)
    flat = a.reshape(-1)
    pmf = stats.binom.pmf(k[None, :], n, flat[:, None])
    inside = (low[None, :] <= flat[:, None] + 1e-12) & (flat[:, None] <= high[None, :] + 1e-12)
    cover = (pmf * inside).sum(axis=1)
    return float(cover[0]) if a.ndim == 0 else cover.reshape(a.shape)


def plot_interval_coverage(n: int, *, alpha: float = 0.05, methods: Sequence[str] = ("normal", "wilson"),
                           ax=None, accuracy_max: float = 0.99, accuracy: Any = None):
    """Exact coverage of the accuracy intervals against the true accuracy, for ``n`` test cases.

    One line per method (:func:`accuracy_interval_coverage` on 491 evenly spaced true
    accuracies from 0.5 to ``accuracy_max``, by default 0.500, 0.501, ..., 0.990), and the
    promised level ``1 - alpha``. The vertical axis stops at ``1 - 4 alpha``; the legend
    gives each method's lowest and mean coverage.

    Parameters
    ----------
    n : int
        Test cases, >= 1.
    alpha : float
        In (0, 1).
    methods : sequence of str
        Methods of :data:`ACCURACY_INTERVAL_METHODS`.
    ax : matplotlib Axes, optional
    accuracy_max : float
        The right end of the grid, in (0.5, 1); ``0.999`` shows Wilson's dip next to 1.
    accuracy : array of float, optional
        The true accuracies to evaluate instead of the evenly spaced grid (then
        ``accuracy_max`` is not used), at least two, in (0, 1). The dips next to 1 are
        narrow (Wilson's, at ``n = 100``, lies between 0.997 and 0.999): a grid that
        also steps through the last few expected errors, such as
        ``1 - np.linspace(0.1, 10, 400) / n``, catches them where an even grid may not.
        The horizontal axis then starts at the grid's smallest accuracy.

    Returns
    -------
    matplotlib.axes.Axes
    """
    n = check_count(n, "n", minimum=1)
    alpha = check_alpha(alpha)
    if isinstance(methods, str) or len(methods) == 0:
        raise TypeError(f"methods must be a non-empty sequence of {ACCURACY_INTERVAL_METHODS}, got {methods!r}")
    methods = list(check_choice(renamed_choice(m, "methods", MID_P, stacklevel=5), "methods", ACCURACY_INTERVAL_METHODS)
                   for m in methods)
    if accuracy is None:
        top = check_real(accuracy_max, "accuracy_max", low=0.5, high=1.0, low_open=True, high_open=True)
        grid = np.linspace(0.5, top, 491)
    else:
        grid = np.unique(np.asarray(accuracy, dtype=float).reshape(-1))
        if grid.size < 2 or not np.all(np.isfinite(grid)) or grid[0] <= 0 or grid[-1] >= 1:
            raise ValueError(f"accuracy must hold at least two true accuracies in (0, 1), got {accuracy!r}")
    ax = get_axes(ax, figsize=(7, 3.2))
    colours = {"wilson": "C0", "exact": "C1", "normal": "C2", "jeffreys": "C3", "agresti_coull": "C4",
               "wilson_cc": "C5", "mid-p": "C6"}
    for m in methods:
        cover = accuracy_interval_coverage(n, grid, method=m, alpha=alpha)
        ax.plot(grid, cover, color=colours[m], linewidth=1,
                label=f"{m}: lowest {cover.min():.3f}, mean {cover.mean():.3f}")
    ax.axhline(1 - alpha, color="k", linestyle="--", linewidth=1, label=f"promised {1 - alpha:g}")
    ax.set_xlim(0.5 if accuracy is None else float(grid[0]), 1)
    ax.set_ylim(max(0.0, 1 - 4 * alpha), 1.005)     # dips below are clipped; the legend gives the lowest
    ax.set_xlabel("true accuracy a")
    ax.set_ylabel("coverage")
    ax.set_title(f"How often the {100 * (1 - alpha):g}% interval contains the true accuracy, n = {n}",
                 fontsize="medium")
    ax.legend(fontsize="small", frameon=False, loc="lower left")
    return ax
